// attention-heatmap.js: <attn-heatmap>, a canvas heatmap for an attention matrix.
//
//   import { define } from './attention-heatmap.js';
//   define();                                   // registers <attn-heatmap>; importing alone does not
//   const el = document.querySelector('attn-heatmap');
//   el.data = { weights, rows: T, cols: S, rowLabels, colLabels };  // weights: Float32Array [T * S]
//
// Attributes (settings): label, min, max (colour range; default: the data's range), scale
// ('fixed': 0 to 1 whatever min and max say; 'fit': the data's own range; absent: min and max as
// given, the data's range where missing; a checkbox under the map sets it, and the colour bar's
// caption says which scale is drawn), cell-size (CSS pixels; default: fit the width), colormap
// ('viridis', default, or 'diverging': a blue–white–red map over a range symmetric about 0, for
// differences; no scale control). Property (data): `data`; the weights array is kept by
// reference, not copied, so set `data` again after changing it. Property `context`: { title?,
// model?, input?, output? } (strings) written into every export: a header over the PNG and SVG
// (title, default the label; model; input; output), fields of the JSON, rows above the CSV's matrix.
// Labels: when the cells are too small for every label, every k-th is drawn (k from the cell size,
// so none overlap), column labels horizontal when that shows as many as rotated ones; the hovered
// and the focused row's and column's labels are always drawn (bold); spaces and other invisible
// characters are drawn as muted markers (␣ ⇥ ↵ ·; draw.js labelSegments).
// Property `marks`: [{ row, from, to, center? }] outlines cells from..to of a row (e.g. a local
// attention window p_t ± D) and ticks the fractional column `center`. Property `gold`:
// gold[row] = the columns of that row to outline as a reference alignment (a solid white-and-red
// outline per cell, a key line under the colour legend, "(gold)" in the tooltip, the text
// alternative, the SVG and the JSON); null (default) for none.
// Methods: focusCell(row, col), whenRendered(), flush() (draw a pending frame now), toPNG()
// (Promise<Blob>), toSVG() (string), toCSV() (string: RFC 4180, the context rows, a blank row,
// then the matrix under a header of unique column names), toJSON() (plain object, so
// JSON.stringify(el) works). The export buttons are disabled while there is no data.
// Events: 'heatmap-render' after each drawn frame, 'heatmap-focus' ({ row, col, value }) when
// the focused cell moves, 'heatmap-hover' (the same detail, or null on leaving) when the pointer
// moves onto another cell.
//
// Holds: the element (settings, properties, shadow DOM, one render per animation frame) wiring
// heatmap-data.js (data checked, range, gold), heatmap-draw.js (a frame, the styles),
// heatmap-labels.js (labels, text alternative), heatmap-interaction.js (keys, pointer, tooltip)
// and heatmap-export.js (PNG, SVG, CSV, JSON). Deliberately does not compute attention or know
// about attnlab: it draws any row-major matrix it is handed; the colour and layout maths live in
// draw.js. Pattern: github/relative-time-element, TensorFlow Playground's checked heatmap.

import { canvasScale, colorTable } from '../shared/draw.js';
import { t } from '../shared/i18n.js';
import {
  checkData,
  describeCell,
  el,
  rangeOf,
  scaleAttributes,
  scaleCaption,
  scaleModeOf,
  parseNumberAttribute,
} from './heatmap-data.js';
import { HEATMAP_STYLE, colorsOf, drawMap, layoutOf } from './heatmap-draw.js';
import { csvOf, jsonOf, pngOf, svgOf } from './heatmap-export.js';
import { exportAs } from './heatmap-fallback.js';
import {
  cellFromEvent,
  keyTarget,
  placeTooltip,
  scrollCellIntoView,
} from './heatmap-interaction.js';
import { alternativeOf, labelsDrawn } from './heatmap-labels.js';

export class AttentionHeatmap extends HTMLElement {
  static observedAttributes = ['label', 'min', 'max', 'scale', 'cell-size', 'colormap', 'lang'];

  #data = null; // frozen { weights: Float32Array [rows * cols], rows, cols, rowLabels, colLabels }
  #row = 0; // focused cell
  #col = 0;
  #frame = 0; // pending requestAnimationFrame id, 0 when none
  #waiters = []; // resolvers for whenRendered()
  #dataDirty = true; // text alternative needs rebuilding
  #layout = null; // layout of the last render (for hit-testing)
  #width = 0; // host content width from the ResizeObserver
  #listeners = null; // AbortController for everything added in connectedCallback
  #resizeObserver = null;
  #marks = []; // [{ row, from, to, center }] outlines drawn over the grid
  #gold = null; // [row] -> column indices outlined as the gold alignment, or null
  #hover = null; // 'row,col' of the hovered cell, for heatmap-hover
  #hoverCell = null; // { row, col } of the hovered cell (its labels are drawn), or null
  #context = {}; // { title?, model?, input?, output? } for the exports

  // Shadow DOM parts.
  #plot;
  #canvas;
  #tooltip;
  #live;
  #error;
  #alternative;
  #scaleBox; // the 'colour scale fixed to 0–1' checkbox
  #scaleText;
  // heatmap-draw.js's cache between frames: pixels, a canvas [cols x rows], one pixel per cell
  // (per block when shrunk) and pixelKey, what it holds ([matrix, min, max, table]); legendPixels,
  // a canvas [256 x 1], the colour map; reduced, the matrix as drawn ({ data, pick, matrix })
  #scratch = { pixels: null, pixelKey: null, legendPixels: null, reduced: null };

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open', delegatesFocus: true });
    this.#canvas = el('canvas', { part: 'canvas', 'aria-hidden': 'true' });
    this.#tooltip = el('div', { class: 'tooltip', part: 'tooltip', hidden: '' });
    this.#plot = el(
      'div',
      {
        class: 'plot',
        part: 'plot',
        tabindex: '0',
        role: 'application',
        'aria-roledescription': 'heatmap',
      },
      [this.#canvas, this.#tooltip],
    );
    this.#live = el('div', {
      class: 'visually-hidden',
      'aria-live': 'polite',
      'aria-atomic': 'true',
    });
    this.#error = el('p', { class: 'error', part: 'error', role: 'alert', hidden: '' });
    this.#alternative = el('div', { class: 'visually-hidden' });
    const toolbar = el('div', { class: 'toolbar', part: 'toolbar', role: 'group', hidden: '' }); // shown with data
    for (const kind of ['png', 'svg', 'csv', 'json']) {
      const text = kind.toUpperCase();
      toolbar.append(el('button', { type: 'button', 'data-export': kind, text, disabled: '' }));
    }
    this.#scaleBox = el('input', { type: 'checkbox', 'data-scale': '' });
    this.#scaleText = el('span');
    const scale = el('label', { class: 'scale', part: 'scale', hidden: '' }, [
      this.#scaleBox,
      this.#scaleText,
    ]);
    const controls = el('div', { class: 'controls', part: 'controls' }, [scale, toolbar]);
    root.append(
      el('style', { text: HEATMAP_STYLE }),
      this.#plot,
      this.#error,
      controls,
      this.#live,
      this.#alternative,
    );
  }

  connectedCallback() {
    this.#listeners = new AbortController();
    const signal = this.#listeners.signal;
    this.#plot.addEventListener('keydown', (e) => this.#onKeyDown(e), { signal });
    this.#plot.addEventListener('focus', () => this.#onFocusChange(true), { signal });
    this.#plot.addEventListener('blur', () => this.#onFocusChange(false), { signal });
    this.#canvas.addEventListener('pointermove', (e) => this.#onPointerMove(e), { signal });
    this.#canvas.addEventListener(
      'pointerleave',
      () => {
        this.#tooltip.hidden = true;
        this.#setHover(null);
      },
      { signal },
    );
    this.#scaleBox.addEventListener(
      'change',
      () => {
        this.setAttribute('scale', this.#scaleBox.checked ? 'fixed' : 'fit');
        this.dispatchEvent(
          new CustomEvent('heatmap-scale', { detail: { scale: this.getAttribute('scale') } }),
        );
      },
      { signal },
    );
    this.#canvas.addEventListener('pointerdown', (e) => this.#onPointerDown(e), { signal });
    this.shadowRoot.querySelector('.toolbar').addEventListener(
      'click',
      (e) => {
        const button = /** @type {HTMLElement | null | undefined} */ (
          /** @type {Element} */ (e.target).closest?.('button[data-export]')
        );
        const kind = button?.dataset.export;
        if (kind) exportAs(this, kind, this.shadowRoot).catch((e) => this.#showError(e.message));
      },
      { signal },
    );
    // Redraw when the colour scheme flips (the canvas bakes in the text and background colours)
    // and when the window resizes (the plot's max-height is in vh).
    const redraw = () => this.#schedule();
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', redraw, { signal });
    window.addEventListener('resize', redraw, { signal });
    this.#resizeObserver = new ResizeObserver((entries) => {
      const width = Math.floor(entries[entries.length - 1].contentRect.width);
      if (width !== this.#width) {
        this.#width = width;
        if (!this.hasAttribute('cell-size')) this.#schedule();
      }
    });
    this.#resizeObserver.observe(this);
    this.#updateLabel();
    this.#schedule();
  }

  disconnectedCallback() {
    this.#listeners?.abort();
    this.#listeners = null;
    this.#resizeObserver?.disconnect();
    this.#resizeObserver = null;
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#tooltip.hidden = true;
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    if (name === 'label' || name === 'lang') {
      this.#updateLabel();
      this.#dataDirty = true;
    }
    if (name === 'min' || name === 'max' || name === 'scale' || name === 'colormap') {
      this.#dataDirty = true; // the summary quotes the range
      this.#updateLabel(); // the scale checkbox
    }
    this.#schedule();
  }

  /** The matrix: { weights: Float32Array [rows * cols], rows, cols, rowLabels, colLabels }, or null. */
  get data() {
    return this.#data;
  }

  set data(value) {
    let data;
    try {
      data = checkData(value);
    } catch (err) {
      this.#showError(err.message);
      throw err;
    }
    this.#showError('');
    this.#data = data;
    /** @type {HTMLElement} */ (this.shadowRoot.querySelector('.toolbar')).hidden = !data; // nothing to export: no buttons
    if (data) {
      this.#row = Math.min(this.#row, data.rows - 1);
      this.#col = Math.min(this.#col, data.cols - 1);
    }
    this.#dataDirty = true;
    this.#updateLabel();
    this.#schedule();
  }

  /** What the exports say the map is of: { title?, model?, input?, output? } (strings or null). */
  get context() {
    return { ...this.#context };
  }

  set context(value) {
    const out = {};
    for (const key of ['title', 'model', 'input', 'output']) {
      const v = value?.[key];
      if (v !== undefined && v !== null) out[key] = String(v);
    }
    this.#context = out;
  }

  /** The colour scale drawn: 'fixed' (0–1), 'fit' (the data's range), 'fit-from-0' (0 to the data's
   * largest), 'symmetric' (diverging, about 0) or 'set' (min and max attributes). */
  get scaleMode() {
    return scaleModeOf(scaleAttributes(this));
  }

  /** Outlines over the grid: [{ row, from, to, center? }] (columns; from/to inclusive). */
  get marks() {
    return this.#marks;
  }

  set marks(value) {
    this.#marks = Array.isArray(value)
      ? value
          .filter(
            (m) => m && Number.isInteger(m.row) && Number.isFinite(m.from) && Number.isFinite(m.to),
          )
          .map((m) => ({ ...m }))
      : [];
    this.#schedule();
  }

  /** The gold alignment outlined over the grid: gold[row] = column indices; null for none. */
  get gold() {
    return this.#gold;
  }

  set gold(value) {
    this.#gold = Array.isArray(value)
      ? value.map((cols) =>
          Array.isArray(cols) ? cols.filter((c) => Number.isInteger(c) && c >= 0) : [],
        )
      : null;
    this.#dataDirty = true; // the text alternative marks the gold cells
    this.#schedule();
  }

  /** Draw a pending frame now (callers that time a redraw, or read pixels right away). */
  flush() {
    this.#flush();
  }

  get label() {
    return this.getAttribute('label') ?? t(this.#lang, 'heatmap.defaultLabel');
  }

  set label(value) {
    this.setAttribute('label', value);
  }

  /** The focused cell and its value: { row, col, value, rowLabel, colLabel }, or null without data. */
  get focusedCell() {
    const d = this.#data;
    if (!d) return null;
    const [row, col] = [this.#row, this.#col];
    return {
      row,
      col,
      value: d.weights[row * d.cols + col],
      rowLabel: d.rowLabels[row],
      colLabel: d.colLabels[col],
    };
  }

  /** Move the focused cell (clamped into the matrix), announce it and redraw. */
  focusCell(row, col) {
    const d = this.#data;
    if (!d) return;
    const r = Math.min(d.rows - 1, Math.max(0, Math.trunc(row) || 0));
    const c = Math.min(d.cols - 1, Math.max(0, Math.trunc(col) || 0));
    const moved = r !== this.#row || c !== this.#col;
    this.#row = r;
    this.#col = c;
    this.#announce();
    scrollCellIntoView(this.#plot, this.#layout, this.#row, this.#col);
    this.#schedule();
    if (moved) this.dispatchEvent(new CustomEvent('heatmap-focus', { detail: this.focusedCell }));
  }

  /** Resolves after the pending render (immediately when nothing is pending). */
  whenRendered() {
    if (!this.#frame) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** What the exports are made of (heatmap-export.js): { data, label, lang, context, gold, range,
   * table, caption, scaleMode, diverging }; heatmap-draw.js draws from it too. */
  get #spec() {
    const a = scaleAttributes(this);
    const range = rangeOf(this.#data, a);
    return {
      data: this.#data,
      label: this.label,
      lang: this.#lang,
      context: this.#context,
      gold: this.#gold,
      range,
      table: colorTable(a.colormap),
      caption: scaleCaption(this.#lang, scaleModeOf(a), range),
      scaleMode: scaleModeOf(a),
      diverging: a.colormap === 'diverging',
    };
  }

  /** A PNG of the heatmap as drawn (grid, labels, legend) at device resolution, under the export
   * header (title, model, input, output). */
  async toPNG() {
    this.#requireData();
    this.#flush();
    if (!this.#layout) this.#render(); // never drawn (e.g. not in the document)
    return pngOf(this.#canvas, this.#layout, colorsOf(this), this.#spec);
  }

  /** A standalone SVG document: the export header (title, model, input, output), then one rect per
   * cell (with a <title>), the labels (as drawn: every k-th), the colour bar and its caption. */
  toSVG() {
    this.#requireData();
    const ctx = this.#canvas.getContext('2d');
    const colors = colorsOf(this);
    const spec = this.#spec;
    return svgOf(ctx, this.#layoutOn(ctx, colors.font, spec), colors, spec);
  }

  /**
   * CSV (RFC 4180: CRLF, quoted where needed, every record as many fields): rows naming the title,
   * model, input and output (key, value; blank where there is none), a blank record, then the
   * matrix: a header row ('row \ column', then the column labels made unique: 'the (1)', 'the (2)';
   * spaces shown as '␣') and one row per matrix row, led by its (unique) label. A spreadsheet shows
   * it as is; pandas reads the matrix with read_csv(f, skiprows=5, index_col=0).
   */
  toCSV() {
    this.#requireData();
    return csvOf(this.#spec);
  }

  /**
   * A plain object: { label, title, model, input, output, scale, rows, cols, rowLabels, colLabels,
   * min, max, weights, gold? } with weights as a flat row-major number array (shortest decimals that
   * read back to the float32 values; NaN and infinities become null, as JSON has no such numbers);
   * model, input and output are null where the context names none. null without data.
   */
  toJSON() {
    return jsonOf(this.#spec);
  }

  // ---- rendering ---------------------------------------------------------------------------

  #schedule() {
    if (this.#frame || !this.isConnected) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#render();
    });
  }

  #flush() {
    if (!this.#frame) return;
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#render();
  }

  /** spec's layout on ctx: cell-size's, or fit to the width (on screen: and the plot's max-height). */
  #layoutOn(ctx, font, spec, fitHeight = false) {
    const [cell, width] = [this.getAttribute('cell-size'), this.#width || this.clientWidth || 320];
    return layoutOf(ctx, font, spec, parseNumberAttribute(cell), width, fitHeight && this.#plot);
  }

  #render() {
    const d = this.#data;
    const canvas = this.#canvas;
    if (!d) {
      canvas.width = canvas.height = 0;
      canvas.style.width = canvas.style.height = '0';
      this.#layout = null;
      this.#updateAlternative();
      this.#finishRender();
      return;
    }
    const ctx = canvas.getContext('2d');
    const colors = colorsOf(this);
    const spec = this.#spec;
    const layout = this.#layoutOn(ctx, colors.font, spec, true);
    const dpr = canvasScale(layout.width, layout.height, window.devicePixelRatio || 1);
    canvas.width = Math.round(layout.width * dpr);
    canvas.height = Math.round(layout.height * dpr);
    canvas.style.width = `${layout.width}px`;
    canvas.style.height = `${layout.height}px`;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, layout.width, layout.height);
    ctx.fillStyle = colors.bg;
    ctx.fillRect(0, 0, layout.width, layout.height);
    const focused = this.shadowRoot.activeElement === this.#plot;
    drawMap(ctx, layout, colors, spec, this.#scratch, {
      marks: this.#marks,
      focus: focused ? { row: this.#row, col: this.#col } : null,
      pinned: this.#pinnedLabels(),
    });

    this.#layout = layout;
    if (this.#dataDirty) this.#updateAlternative();
    this.#finishRender();
  }

  /** The labels always drawn: the hovered cell's row and column, then the focused one's. */
  #pinnedLabels() {
    const rows = [];
    const cols = [];
    if (this.#hoverCell) {
      rows.push(this.#hoverCell.row);
      cols.push(this.#hoverCell.col);
    }
    if (this.shadowRoot.activeElement === this.#plot) {
      rows.push(this.#row);
      cols.push(this.#col);
    }
    return { rows, cols };
  }

  /** The labels the last render drew: { rowStep, colStep, colExtent, rotated, cellWidth, cellHeight, gridX,
   * gridY, rows, cols, pinnedRows, pinnedCols } (indices), or null before one; for tests. */
  get drawnLabels() {
    if (!this.#layout || !this.#data) return null;
    return labelsDrawn(this.#layout, this.#data, this.#pinnedLabels());
  }

  #finishRender() {
    this.#dataDirty = false;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
    this.dispatchEvent(new Event('heatmap-render'));
  }

  // ---- text alternative and announcements --------------------------------------------------

  #describe(row, col) {
    return describeCell(this.#data, this.#gold, this.#lang, row, col);
  }

  /** Interface language: the lang attribute ('en' or 'zh'; i18n.js), English otherwise. */
  get #lang() {
    return this.getAttribute('lang') ?? 'en';
  }

  #updateLabel() {
    const toolbar = this.shadowRoot.querySelector('.toolbar');
    toolbar.setAttribute('aria-label', t(this.#lang, 'export.group'));
    const d = this.#data;
    for (const b of toolbar.querySelectorAll('button')) {
      b.setAttribute('aria-label', t(this.#lang, 'heatmap.download', { kind: b.textContent }));
      /** @type {HTMLButtonElement} */ (b).disabled = !d; // nothing to export
    }
    /** @type {HTMLElement} */ (this.#scaleBox.parentElement).hidden =
      !d || this.getAttribute('colormap') === 'diverging';
    this.#scaleBox.checked = this.scaleMode === 'fixed';
    this.#scaleText.textContent = t(this.#lang, 'heatmap.scaleControl');
    this.#plot.setAttribute(
      'aria-label',
      d
        ? t(this.#lang, 'heatmap.size', { label: this.label, rows: d.rows, cols: d.cols })
        : this.label,
    );
    this.#plot.setAttribute('aria-description', t(this.#lang, 'heatmap.keys'));
  }

  #updateAlternative() {
    this.#alternative.replaceChildren(...alternativeOf(this.#spec));
  }

  #announce() {
    if (this.#data) this.#live.textContent = this.#describe(this.#row, this.#col);
  }

  #showError(message) {
    this.#error.textContent = message;
    this.#error.hidden = !message;
    if (message) this.#live.textContent = message;
  }

  #requireData() {
    if (!this.#data) throw new Error('<attn-heatmap>: no data to export; set el.data first.');
    return this.#data;
  }

  // ---- input -------------------------------------------------------------------------------

  #onFocusChange(focused) {
    if (focused) this.#announce();
    this.#schedule(); // draw or erase the focus ring
  }

  #onKeyDown(event) {
    const to = keyTarget(event, this.#row, this.#col, this.#data);
    if (!to) return;
    event.preventDefault(); // keep the plot from scrolling instead
    this.focusCell(to[0], to[1]);
  }

  #onPointerMove(event) {
    const hit = cellFromEvent(event, this.#canvas, this.#layout, this.#data);
    this.#setHover(hit);
    if (hit) placeTooltip(this.#tooltip, this.#describe(hit.row, hit.col), event, this.#plot);
    else this.#tooltip.hidden = true;
  }

  #setHover(hit) {
    const key = hit ? `${hit.row},${hit.col}` : null;
    if (key === this.#hover) return;
    this.#hover = key;
    this.#hoverCell = hit ? { row: hit.row, col: hit.col } : null;
    this.#schedule(); // the hovered row's and column's labels
    const d = this.#data;
    const detail =
      hit && d
        ? {
            row: hit.row,
            col: hit.col,
            value: d.weights[hit.row * d.cols + hit.col],
            rowLabel: d.rowLabels[hit.row],
            colLabel: d.colLabels[hit.col],
          }
        : null;
    this.dispatchEvent(new CustomEvent('heatmap-hover', { detail }));
  }

  #onPointerDown(event) {
    const hit = cellFromEvent(event, this.#canvas, this.#layout, this.#data);
    if (!hit) return;
    this.#plot.focus({ preventScroll: true });
    this.focusCell(hit.row, hit.col);
  }
}

/** Register the element (default tag attn-heatmap). Safe to call more than once. */
export function define(tag = 'attn-heatmap', registry = customElements) {
  if (!registry.get(tag))
    registry.define(
      tag,
      tag === 'attn-heatmap' ? AttentionHeatmap : class extends AttentionHeatmap {},
    );
  return registry.get(tag);
}
