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
// Holds: the element, its shadow DOM, rendering batched to one frame per animation frame,
// keyboard and pointer handling, the text alternative and the exports. Deliberately does not
// compute attention or know about attnlab: it draws any row-major matrix it is handed.
// The colour and layout maths live in draw.js. Pattern: github/relative-time-element (attributes
// for settings, a property for data, a separate define()), TensorFlow Playground's checked heatmap.

import {
  GOLD_STROKE,
  LAYOUT,
  cellAt,
  canvasScale,
  computeLayout,
  csvField,
  displayLabel,
  downsample,
  escapeXml,
  colorTable,
  fillPixels,
  formatFloat32,
  formatValue,
  labelIndices,
  labelSegments,
  resolveRange,
  rgbToHex,
  symmetricRange,
  truncateSegments,
  uniqueNames,
  valueToColor,
  wrapText,
} from '../shared/draw.js';
import { t } from '../shared/i18n.js';

/** Labels longer than this are cut (with '…') on the canvas; tooltips and exports keep them. */
const LABEL_CHARS = 12;
/** Bigger matrices get a summary instead of a hidden table (a 4096-cell table is plenty). */
const MAX_TABLE_CELLS = 4096;
/** PageUp / PageDown move this many rows. */
const PAGE_ROWS = 10;
/** The first header cell of the CSV's matrix (rows are the matrix's rows, columns its columns). */
const CSV_CORNER = 'row \\ column';

/** Input or output text for an export header: line breaks and tabs shown as markers. */
function displayInput(text) {
  return String(text).replace(/\t/g, '⇥').replace(/\r?\n/g, '↵');
}

const STYLE = `
:host { display: block; position: relative; font: inherit;
  color: var(--attn-heatmap-color, CanvasText);
  background-color: var(--attn-heatmap-background, Canvas); }
:host([hidden]) { display: none; }
.plot { position: relative; overflow: auto; max-width: 100%; border-radius: 4px; }
.plot:focus { outline: none; }
.plot:focus-visible { outline: 2px solid var(--attn-heatmap-focus, Highlight); outline-offset: 2px; }
canvas { display: block; touch-action: manipulation; }
.tooltip { position: absolute; z-index: 1; pointer-events: none; white-space: nowrap;
  padding: 2px 6px; border-radius: 3px; font-size: 0.75rem;
  background: var(--attn-heatmap-color, CanvasText); color: var(--attn-heatmap-background, Canvas); }
.controls { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.75rem; margin-top: 0.25rem; }
.toolbar { display: flex; flex-wrap: wrap; gap: 0.25rem; }
.toolbar button:disabled { opacity: 0.5; }
.scale { display: inline-flex; align-items: center; gap: 0.3rem; font-size: 0.8125rem; min-height: 2rem; }
.scale input { margin: 0; }
.toolbar button { font: inherit; font-size: 0.8125rem; min-height: 2rem; padding: 0.25rem 0.6rem; }
.error { margin: 0.25rem 0; color: #b3261e; color: light-dark(#b3261e, #ff8a80); }
[hidden] { display: none !important; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0;
  overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0; }
`;

function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function parseNumberAttribute(value) {
  if (value === null || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

function defaultLabels(count) {
  return Array.from({ length: count }, (_, i) => String(i));
}

function checkLabels(labels, count, what) {
  if (labels == null) return defaultLabels(count);
  if (typeof labels.length !== 'number' || labels.length !== count) {
    throw new RangeError(
      `<attn-heatmap>: ${what} has ${labels?.length} entries but the matrix has ${count}; ` +
        `pass one label per ${what === 'rowLabels' ? 'row' : 'column'} or leave it out.`,
    );
  }
  return Array.from(labels, (label) => String(label));
}

function checkData(value) {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object') {
    throw new TypeError(
      '<attn-heatmap>: data must be { weights, rows, cols, rowLabels?, colLabels? }.',
    );
  }
  const { rows, cols } = value;
  for (const [name, n] of [
    ['rows', rows],
    ['cols', cols],
  ]) {
    if (!Number.isSafeInteger(n) || n < 1) {
      throw new RangeError(
        `<attn-heatmap>: data.${name} must be a positive integer, got ${String(n)}.`,
      );
    }
  }
  let { weights } = value;
  if (!(weights instanceof Float32Array)) {
    if (weights == null || typeof weights.length !== 'number') {
      throw new TypeError(
        '<attn-heatmap>: data.weights must be a Float32Array (row-major, rows × cols).',
      );
    }
    weights = Float32Array.from(weights);
  }
  if (weights.length !== rows * cols) {
    throw new RangeError(
      `<attn-heatmap>: data.weights has ${weights.length} values but rows × cols = ` +
        `${rows} × ${cols} = ${rows * cols}; the weights must be row-major [rows * cols].`,
    );
  }
  return Object.freeze({
    weights,
    rows,
    cols,
    rowLabels: Object.freeze(checkLabels(value.rowLabels, rows, 'rowLabels')),
    colLabels: Object.freeze(checkLabels(value.colLabels, cols, 'colLabels')),
  });
}

/** A label as drawn: segments (markers for invisible characters), cut at LABEL_CHARS. */
function labelParts(label) {
  return truncateSegments(labelSegments(label), LABEL_CHARS);
}

/** The text of labelParts(label). */
function labelText(label) {
  return labelParts(label)
    .map((p) => p.text)
    .join('');
}

/**
 * Draw label parts on ctx at (x, y), aligned 'left', 'right' or 'center' (ctx.textBaseline as
 * set), marker parts at half opacity: muted, so '␣' reads as a space, not as a character.
 */
function drawParts(ctx, parts, x, y, align) {
  const widths = parts.map((p) => ctx.measureText(p.text).width);
  const total = widths.reduce((a, b) => a + b, 0);
  let at = align === 'right' ? x - total : align === 'center' ? x - total / 2 : x;
  ctx.save();
  ctx.textAlign = 'left';
  parts.forEach((p, i) => {
    ctx.globalAlpha = p.marker ? 0.5 : 1;
    ctx.fillText(p.text, at, y);
    at += widths[i];
  });
  ctx.restore();
}

export class AttentionHeatmap extends HTMLElement {
  static observedAttributes = ['label', 'min', 'max', 'scale', 'cell-size', 'colormap', 'lang'];

  #data = null; // frozen { weights: Float32Array [rows * cols], rows, cols, rowLabels, colLabels }
  #row = 0; // focused cell
  #col = 0;
  #frame = 0; // pending requestAnimationFrame id, 0 when none
  #waiters = []; // resolvers for whenRendered()
  #reducedCache = null; // { data, pick, matrix }: #reduced()'s last answer
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
  #pixelKey = null; // what #pixels holds: [matrix, min, max, table]

  // Shadow DOM parts.
  #plot;
  #canvas;
  #tooltip;
  #live;
  #error;
  #alternative;
  #scaleBox; // the 'colour scale fixed to 0–1' checkbox
  #scaleText;
  #pixels = null; // scratch canvas [cols x rows], one pixel per cell (per block when shrunk)
  #legendPixels = null; // scratch canvas [256 x 1], the colour map

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
    for (const [kind, text] of [
      ['png', 'PNG'],
      ['svg', 'SVG'],
      ['csv', 'CSV'],
      ['json', 'JSON'],
    ]) {
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
      el('style', { text: STYLE }),
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
        if (kind) this.#download(kind).catch((err) => this.#showError(err.message));
      },
      { signal },
    );
    // Redraw when the colour scheme flips: the canvas bakes in the text and background colours.
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => this.#schedule(), {
      signal,
    });
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
    if (this.getAttribute('colormap') === 'diverging') {
      return parseNumberAttribute(this.getAttribute('min')) !== null &&
        parseNumberAttribute(this.getAttribute('max')) !== null
        ? 'set'
        : 'symmetric';
    }
    const scale = this.getAttribute('scale');
    if (scale === 'fixed' || scale === 'fit') return scale;
    const min = parseNumberAttribute(this.getAttribute('min'));
    const max = parseNumberAttribute(this.getAttribute('max'));
    if (min === null && max === null) return 'fit';
    if (min === 0 && max === 1) return 'fixed';
    if (min === 0 && max === null) return 'fit-from-0';
    return min !== null && max !== null ? 'set' : 'fit';
  }

  /** The colour bar's caption: what the scale is, in the element's language. */
  #scaleCaption() {
    const mode = this.scaleMode;
    const [min, max] = this.#range();
    const key = {
      fixed: 'heatmap.scaleFixed',
      fit: 'heatmap.scaleFit',
      'fit-from-0': 'heatmap.scaleFitFrom0',
      symmetric: 'heatmap.scaleSymmetric',
      set: 'heatmap.scaleSet',
    }[mode];
    return t(this.#lang, key, { min: formatValue(min), max: formatValue(max) });
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

  /** Is (row, col) a gold cell? */
  #isGold(row, col) {
    return this.#gold !== null && (this.#gold[row]?.includes(col) ?? false);
  }

  /** The gold cells inside the matrix: [[row, col], …]. */
  #goldCells() {
    const d = this.#data;
    const out = [];
    if (!d || !this.#gold) return out;
    this.#gold.forEach((cols, r) => {
      if (r < d.rows) for (const c of cols) if (c < d.cols) out.push([r, c]);
    });
    return out;
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
    this.#scrollCellIntoView();
    this.#schedule();
    if (moved) this.dispatchEvent(new CustomEvent('heatmap-focus', { detail: this.focusedCell }));
  }

  /** Resolves after the pending render (immediately when nothing is pending). */
  whenRendered() {
    if (!this.#frame) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /**
   * The header every PNG and SVG export carries: the title (context.title, else the label), then
   * the model, the input and the output where the context names them, wrapped to width (CSS px).
   * Returns { width, height, lines: [{ text, bold, size, y }] } (y: each line's baseline).
   */
  #exportHeader(ctx, font, minWidth) {
    const c = this.#context;
    const lang = this.#lang;
    const width = Math.max(minWidth, 360);
    const room = width - 2 * LAYOUT.pad;
    const items = [{ text: c.title ?? this.label, bold: true, size: 14 }];
    if (c.model)
      items.push({
        text: t(lang, 'heatmap.exportModel', { name: c.model }),
        bold: false,
        size: 12,
      });
    if (c.input !== undefined)
      items.push({
        text: t(lang, 'heatmap.exportInput', { text: displayInput(c.input) }),
        bold: false,
        size: 12,
      });
    if (c.output !== undefined)
      items.push({
        text: t(lang, 'heatmap.exportOutput', { text: displayInput(c.output) }),
        bold: false,
        size: 12,
      });
    const lines = [];
    let y = LAYOUT.pad;
    for (const item of items) {
      ctx.font = `${item.bold ? 'bold ' : ''}${item.size}px ${font.family}`;
      for (const text of wrapText(item.text, room, (s) => ctx.measureText(s).width)) {
        y += Math.round(item.size * 1.35);
        lines.push({
          text,
          bold: !!item.bold,
          size: item.size,
          y: y - Math.round(item.size * 0.3),
        });
      }
    }
    ctx.font = font.css;
    return { width, height: y + 6, lines };
  }

  /** A PNG of the heatmap as drawn (grid, labels, legend) at device resolution, under the export
   * header (title, model, input, output). */
  async toPNG() {
    this.#requireData();
    this.#flush();
    if (!this.#layout) this.#render(); // never drawn (e.g. not in the document)
    const source = this.#canvas;
    const { fg, bg, font } = this.#colors();
    const scale = source.width / this.#layout.width;
    const out = document.createElement('canvas');
    const ctx = out.getContext('2d');
    const header = this.#exportHeader(ctx, font, this.#layout.width);
    const width = Math.max(header.width, this.#layout.width);
    out.width = Math.round(width * scale);
    out.height = Math.round((header.height + this.#layout.height) * scale);
    ctx.scale(scale, scale);
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, width, header.height + this.#layout.height);
    ctx.fillStyle = fg;
    ctx.textBaseline = 'alphabetic';
    for (const line of header.lines) {
      ctx.font = `${line.bold ? 'bold ' : ''}${line.size}px ${font.family}`;
      ctx.fillText(line.text, LAYOUT.pad, line.y);
    }
    ctx.drawImage(source, 0, header.height, this.#layout.width, this.#layout.height);
    return new Promise((resolve, reject) =>
      out.toBlob(
        (blob) =>
          blob ? resolve(blob) : reject(new Error('<attn-heatmap>: the canvas is empty.')),
        'image/png',
      ),
    );
  }

  /** A standalone SVG document: the export header (title, model, input, output), then one rect per
   * cell (with a <title>), the labels (as drawn: every k-th), the colour bar and its caption. */
  toSVG() {
    const d = this.#requireData();
    const ctx = this.#canvas.getContext('2d');
    const { fg, bg, font } = this.#colors();
    const layout = this.#computeLayout(ctx, font);
    const header = this.#exportHeader(ctx, font, layout.width);
    const width = Math.max(header.width, layout.width);
    const height = header.height + layout.height;
    const [min, max] = this.#range();
    const table = this.#table();
    const { cellWidth: cw, cellHeight: ch, gridX, gridY } = layout;
    const n = (v) => String(Math.round(v * 100) / 100);
    const parts = (label) =>
      labelParts(label)
        .map((p) =>
          p.marker ? `<tspan fill-opacity="0.5">${escapeXml(p.text)}</tspan>` : escapeXml(p.text),
        )
        .join('');
    const out = [
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
        `viewBox="0 0 ${width} ${height}" role="img">`,
      `<title>${escapeXml(this.#context.title ?? this.label)}</title>`,
      '<defs><linearGradient id="attn-heatmap-legend">' +
        Array.from({ length: 17 }, (_, i) => {
          const j = Math.min(255, i * 16) * 3;
          return `<stop offset="${n(i / 16)}" stop-color="${rgbToHex([table[j], table[j + 1], table[j + 2]])}"/>`;
        }).join('') +
        '</linearGradient></defs>',
      `<rect width="${width}" height="${height}" fill="${escapeXml(bg)}"/>`,
      ...header.lines.map(
        (line) =>
          `<text class="header" x="${LAYOUT.pad}" y="${line.y}" fill="${escapeXml(fg)}" font-family="${escapeXml(font.family)}" ` +
          `font-size="${line.size}"${line.bold ? ' font-weight="bold"' : ''}>${escapeXml(line.text)}</text>`,
      ),
      // the map, as drawn on the canvas, below the header
      `<svg x="0" y="${header.height}" width="${layout.width}" height="${layout.height}" viewBox="0 0 ${layout.width} ${layout.height}">`,
      '<g shape-rendering="crispEdges">',
    ];
    for (let r = 0; r < d.rows; r++) {
      for (let c = 0; c < d.cols; c++) {
        const v = d.weights[r * d.cols + c];
        out.push(
          `<rect x="${n(gridX + c * cw)}" y="${n(gridY + r * ch)}" width="${n(cw)}" height="${n(ch)}" ` +
            `fill="${rgbToHex(valueToColor(v, min, max, table))}"><title>${escapeXml(this.#describe(r, c))}</title></rect>`,
        );
      }
    }
    out.push('</g>');
    const gold = this.#goldCells();
    if (gold.length) {
      const outline = (x, y, w, h) =>
        [
          ['halo', 'haloWidth'],
          ['line', 'lineWidth'],
        ]
          .map(
            ([c, wd]) =>
              `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" fill="none" stroke="${GOLD_STROKE[c]}" stroke-width="${GOLD_STROKE[wd]}"/>`,
          )
          .join('');
      out.push('<g class="gold">');
      for (const [r, c] of gold)
        out.push(
          outline(
            gridX + c * cw + 1.5,
            gridY + r * ch + 1.5,
            Math.max(cw - 3, 1),
            Math.max(ch - 3, 1),
          ),
        );
      out.push(
        outline(layout.legendX + 1, layout.keyY + 3, LAYOUT.keySwatch, LAYOUT.keySwatch),
        '</g>',
      );
    }
    out.push(
      `<g fill="${escapeXml(fg)}" font-family="${escapeXml(font.family)}" font-size="${LAYOUT.fontSize}">`,
    );
    if (gold.length) {
      out.push(
        `<text x="${n(layout.legendX + LAYOUT.keySwatch + 6)}" y="${n(layout.keyY + 3 + LAYOUT.keySwatch / 2)}" dominant-baseline="middle">${escapeXml(t(this.#lang, 'heatmap.goldKey'))}</text>`,
      );
    }
    if (layout.showLabels && Number.isFinite(layout.rowStep)) {
      for (const r of labelIndices(d.rows, layout.rowStep).regular) {
        out.push(
          `<text class="row-label" x="${n(gridX - LAYOUT.labelGap)}" y="${n(gridY + (r + 0.5) * ch)}" text-anchor="end" ` +
            `dominant-baseline="middle">${parts(d.rowLabels[r])}</text>`,
        );
      }
    }
    if (layout.showLabels && Number.isFinite(layout.colStep)) {
      for (const c of labelIndices(d.cols, layout.colStep).regular) {
        const x = n(gridX + (c + 0.5) * cw);
        out.push(
          layout.colLabelsRotated
            ? `<text class="col-label" transform="translate(${x} ${n(gridY - LAYOUT.labelGap)}) rotate(-90)" dominant-baseline="middle">${parts(d.colLabels[c])}</text>`
            : `<text class="col-label" x="${x}" y="${n(gridY - LAYOUT.labelGap - LAYOUT.labelLine / 2)}" text-anchor="middle" dominant-baseline="middle">${parts(d.colLabels[c])}</text>`,
        );
      }
    }
    const textY = layout.legendY + LAYOUT.legendBar + LAYOUT.legendText - 2;
    out.push(
      `<rect x="${layout.legendX}" y="${layout.legendY}" width="${layout.legendWidth}" height="${LAYOUT.legendBar}" ` +
        'fill="url(#attn-heatmap-legend)"/>',
      `<text class="legend-min" x="${layout.legendX}" y="${n(textY)}">${escapeXml(formatValue(min))}</text>`,
      `<text class="legend-max" x="${layout.legendX + layout.legendWidth}" y="${n(textY)}" text-anchor="end">${escapeXml(formatValue(max))}</text>`,
      `<text class="legend-caption" x="${n(layout.captionX)}" y="${n(layout.captionY)}"${layout.captionInline ? ' text-anchor="middle"' : ''}>${escapeXml(this.#scaleCaption())}</text>`,
      '</g>',
      '</svg>',
      '</svg>',
    );
    return out.join('\n') + '\n';
  }

  /**
   * CSV (RFC 4180: CRLF, quoted where needed, every record as many fields): rows naming the title,
   * model, input and output (key, value; blank where there is none), a blank record, then the
   * matrix: a header row ('row \ column', then the column labels made unique: 'the (1)', 'the (2)';
   * spaces shown as '␣') and one row per matrix row, led by its (unique) label. A spreadsheet shows
   * it as is; pandas reads the matrix with read_csv(f, skiprows=5, index_col=0).
   */
  toCSV() {
    const d = this.#requireData();
    const width = d.cols + 1;
    const record = (fields) =>
      [...fields, ...Array(Math.max(0, width - fields.length)).fill('')].map(csvField).join(',');
    const c = this.#context;
    const lines = [
      record(['title', c.title ?? this.label]),
      record(['model', c.model ?? '']),
      record(['input', c.input ?? '']),
      record(['output', c.output ?? '']),
      record([]),
      record([CSV_CORNER, ...uniqueNames(d.colLabels)]),
    ];
    const rowNames = uniqueNames(d.rowLabels);
    for (let r = 0; r < d.rows; r++) {
      const cells = [csvField(rowNames[r])];
      for (let col = 0; col < d.cols; col++) cells.push(formatFloat32(d.weights[r * d.cols + col]));
      lines.push(cells.join(','));
    }
    return lines.join('\r\n') + '\r\n';
  }

  /**
   * A plain object: { label, title, model, input, output, scale, rows, cols, rowLabels, colLabels,
   * min, max, weights, gold? } with weights as a flat row-major number array (shortest decimals that
   * read back to the float32 values; NaN and infinities become null, as JSON has no such numbers);
   * model, input and output are null where the context names none. null without data.
   */
  toJSON() {
    const d = this.#data;
    if (!d) return null;
    const [min, max] = this.#range();
    const c = this.#context;
    return {
      label: this.label,
      title: c.title ?? this.label,
      model: c.model ?? null,
      input: c.input ?? null,
      output: c.output ?? null,
      scale: this.scaleMode,
      rows: d.rows,
      cols: d.cols,
      rowLabels: [...d.rowLabels],
      colLabels: [...d.colLabels],
      min,
      max,
      weights: Array.from(d.weights, (v) => (Number.isFinite(v) ? Number(formatFloat32(v)) : null)),
      ...(this.#gold
        ? { gold: this.#gold.slice(0, d.rows).map((cols) => cols.filter((c) => c < d.cols)) }
        : {}),
    };
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

  #table() {
    return colorTable(this.getAttribute('colormap'));
  }

  #range() {
    const scale = this.getAttribute('scale');
    if (this.getAttribute('colormap') !== 'diverging' && scale === 'fixed') return [0, 1];
    if (this.getAttribute('colormap') !== 'diverging' && scale === 'fit')
      return resolveRange(this.#data ? this.#data.weights : []);
    if (this.getAttribute('colormap') === 'diverging') {
      return symmetricRange(
        this.#data ? this.#data.weights : [],
        parseNumberAttribute(this.getAttribute('min')),
        parseNumberAttribute(this.getAttribute('max')),
      );
    }
    return resolveRange(
      this.#data ? this.#data.weights : [],
      parseNumberAttribute(this.getAttribute('min')),
      parseNumberAttribute(this.getAttribute('max')),
    );
  }

  #colors() {
    const style = getComputedStyle(this);
    return {
      fg: style.color || 'black',
      bg: style.backgroundColor || 'white',
      font: {
        family: style.fontFamily || 'sans-serif',
        css: `${LAYOUT.fontSize}px ${style.fontFamily || 'sans-serif'}`,
      },
    };
  }

  #computeLayout(ctx, font) {
    const d = this.#data;
    const cellSize = parseNumberAttribute(this.getAttribute('cell-size'));
    ctx.font = font.css;
    const shape = {
      rows: d.rows,
      cols: d.cols,
      cellSize: cellSize !== null && cellSize >= 1 ? Math.min(cellSize, 200) : null,
      availableWidth: this.#width || this.clientWidth || 320,
      captionWidth: Math.ceil(ctx.measureText(this.#scaleCaption()).width),
    };
    if (this.#gold)
      shape.keyWidth = Math.ceil(
        LAYOUT.keySwatch + 6 + ctx.measureText(t(this.#lang, 'heatmap.goldKey')).width,
      );
    // The widest label as drawn (markers, cut at LABEL_CHARS). A loop, not Math.max(...widths):
    // spreading ~100,000 values into a call overflows the stack; past LAYOUT.labelSample labels an
    // even sample is measured (a label there is at most LABEL_CHARS wide anyway).
    const widest = (labels) => {
      const stride = Math.max(1, Math.ceil(labels.length / LAYOUT.labelSample));
      let w = 0;
      for (let i = 0; i < labels.length; i += stride)
        w = Math.max(w, ctx.measureText(labelText(labels[i])).width);
      return w;
    };
    return computeLayout({
      ...shape,
      rowLabelWidth: Math.ceil(widest(d.rowLabels)),
      colLabelHeight: Math.ceil(widest(d.colLabels)),
    });
  }

  /** The matrix as drawn: shrunk (block maxima) to at most LAYOUT.maxGrid a side, cached per data. */
  #reduced() {
    const d = this.#data;
    const pick = this.getAttribute('colormap') === 'diverging' ? 'absmax' : 'max';
    if (this.#reducedCache?.data !== d || this.#reducedCache.pick !== pick) {
      this.#reducedCache = {
        data: d,
        pick,
        matrix: downsample(d.weights, d.rows, d.cols, LAYOUT.maxGrid, LAYOUT.maxGrid, pick),
      };
    }
    return this.#reducedCache.matrix;
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
    const { fg, bg, font } = this.#colors();
    const layout = this.#computeLayout(ctx, font);
    const dpr = canvasScale(layout.width, layout.height, window.devicePixelRatio || 1);
    canvas.width = Math.round(layout.width * dpr);
    canvas.height = Math.round(layout.height * dpr);
    canvas.style.width = `${layout.width}px`;
    canvas.style.height = `${layout.height}px`;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, layout.width, layout.height);
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, layout.width, layout.height);

    // Cells: one pixel per value, scaled up without smoothing (fast for thousands of cells);
    // a matrix too big for one canvas is first shrunk to at most LAYOUT.maxGrid pixels a side.
    const [min, max] = this.#range();
    const m = this.#reduced();
    const table = this.#table();
    const key = this.#pixelKey;
    if (
      !this.#pixels ||
      !key ||
      key[0] !== m ||
      key[1] !== min ||
      key[2] !== max ||
      key[3] !== table
    ) {
      // Filled again only when the matrix or the scale changed, not on every hover.
      this.#pixels ??= document.createElement('canvas');
      this.#pixels.width = m.cols;
      this.#pixels.height = m.rows;
      const pctx = this.#pixels.getContext('2d');
      const image = pctx.createImageData(m.cols, m.rows);
      fillPixels(m.weights, min, max, image.data, table);
      pctx.putImageData(image, 0, 0);
      this.#pixelKey = [m, min, max, table];
    }
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this.#pixels, layout.gridX, layout.gridY, layout.gridWidth, layout.gridHeight);

    ctx.fillStyle = fg;
    this.#drawLabels(ctx, layout, font, this.#pinnedLabels());

    // Legend: the colour map as a bar, the range's ends as text, and what the scale is.
    if (!this.#legendPixels || this.#legendPixels.table !== table) {
      this.#legendPixels = document.createElement('canvas');
      this.#legendPixels.table = table;
      this.#legendPixels.width = 256;
      this.#legendPixels.height = 1;
      const lctx = this.#legendPixels.getContext('2d');
      const bar = lctx.createImageData(256, 1);
      for (let i = 0; i < 256; i++)
        bar.data.set([table[3 * i], table[3 * i + 1], table[3 * i + 2], 255], 4 * i);
      lctx.putImageData(bar, 0, 0);
    }
    ctx.drawImage(
      this.#legendPixels,
      layout.legendX,
      layout.legendY,
      layout.legendWidth,
      LAYOUT.legendBar,
    );
    ctx.font = font.css;
    ctx.textBaseline = 'alphabetic';
    const textY = layout.legendY + LAYOUT.legendBar + LAYOUT.legendText - 2;
    ctx.textAlign = 'left';
    ctx.fillText(formatValue(min), layout.legendX, textY);
    ctx.textAlign = 'right';
    ctx.fillText(formatValue(max), layout.legendX + layout.legendWidth, textY);
    ctx.textAlign = layout.captionInline ? 'center' : 'left';
    ctx.fillText(this.#scaleCaption(), layout.captionX, layout.captionY);

    // Marks (e.g. a local window p_t ± D): a two-tone dashed outline, and a tick at the centre.
    for (const m of this.#marks) {
      if (m.row < 0 || m.row >= d.rows) continue;
      const from = Math.max(0, Math.min(d.cols - 1, m.from));
      const to = Math.max(from, Math.min(d.cols - 1, m.to));
      const x = layout.gridX + from * layout.cellWidth;
      const y = layout.gridY + m.row * layout.cellHeight;
      const w = Math.max((to - from + 1) * layout.cellWidth, 4);
      const h = Math.max(layout.cellHeight, 4);
      ctx.save();
      ctx.lineWidth = 2;
      ctx.strokeStyle = '#ffffff';
      ctx.strokeRect(x + 1, y + 1, w - 2, h - 2);
      ctx.setLineDash([4, 3]);
      ctx.strokeStyle = '#000000';
      ctx.strokeRect(x + 1, y + 1, w - 2, h - 2);
      if (Number.isFinite(m.center) && m.center >= 0 && m.center <= d.cols - 1) {
        const cx = layout.gridX + (m.center + 0.5) * layout.cellWidth;
        ctx.setLineDash([]);
        ctx.strokeStyle = '#ff00ff';
        ctx.beginPath();
        ctx.moveTo(cx, y - 3);
        ctx.lineTo(cx, y + h + 3);
        ctx.stroke();
      }
      ctx.restore();
    }

    // The gold alignment: each gold cell outlined (white halo, red line), and its key line.
    const gold = this.#goldCells();
    if (gold.length) {
      ctx.save();
      const outline = (x, y, w, h) => {
        ctx.lineWidth = GOLD_STROKE.haloWidth;
        ctx.strokeStyle = GOLD_STROKE.halo;
        ctx.strokeRect(x, y, w, h);
        ctx.lineWidth = GOLD_STROKE.lineWidth;
        ctx.strokeStyle = GOLD_STROKE.line;
        ctx.strokeRect(x, y, w, h);
      };
      for (const [r, c] of gold) {
        const cw = layout.cellWidth;
        const ch = layout.cellHeight;
        outline(
          layout.gridX + c * cw + 1.5,
          layout.gridY + r * ch + 1.5,
          Math.max(cw - 3, 1),
          Math.max(ch - 3, 1),
        );
      }
      outline(layout.legendX + 1, layout.keyY + 3, LAYOUT.keySwatch, LAYOUT.keySwatch);
      ctx.fillStyle = fg;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      ctx.fillText(
        t(this.#lang, 'heatmap.goldKey'),
        layout.legendX + LAYOUT.keySwatch + 6,
        layout.keyY + 3 + LAYOUT.keySwatch / 2,
      );
      ctx.restore();
    }

    // Focused cell: a two-tone ring, visible on every colour of the map.
    if (this.shadowRoot.activeElement === this.#plot) {
      const x = layout.gridX + this.#col * layout.cellWidth;
      const y = layout.gridY + this.#row * layout.cellHeight;
      const w = Math.max(layout.cellWidth, 4);
      const h = Math.max(layout.cellHeight, 4);
      ctx.lineWidth = 2;
      ctx.strokeStyle = fg;
      ctx.strokeRect(x - 1, y - 1, w + 2, h + 2);
      ctx.lineWidth = 1;
      ctx.strokeStyle = bg;
      ctx.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
    }

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

  /**
   * Row and column labels: every rowStep-th / colStep-th (computeLayout), the pinned ones (hovered,
   * focused) in bold, and nothing a pinned one would overlap.
   */
  #drawLabels(ctx, layout, font, pinned = { rows: [], cols: [] }) {
    const d = this.#data;
    if (!layout.showLabels) return;
    const rows = labelIndices(d.rows, layout.rowStep, pinned.rows);
    const cols = labelIndices(d.cols, layout.colStep, pinned.cols);
    const bold = `bold ${font.css}`;
    ctx.textBaseline = 'middle';
    const row = (r, isPinned) => {
      ctx.font = isPinned ? bold : font.css;
      drawParts(
        ctx,
        labelParts(d.rowLabels[r]),
        layout.gridX - LAYOUT.labelGap,
        layout.gridY + (r + 0.5) * layout.cellHeight,
        'right',
      );
    };
    const col = (c, isPinned) => {
      ctx.font = isPinned ? bold : font.css;
      const x = layout.gridX + (c + 0.5) * layout.cellWidth;
      if (!layout.colLabelsRotated) {
        drawParts(
          ctx,
          labelParts(d.colLabels[c]),
          x,
          layout.gridY - LAYOUT.labelGap - LAYOUT.labelLine / 2,
          'center',
        );
        return;
      }
      ctx.save();
      ctx.translate(x, layout.gridY - LAYOUT.labelGap);
      ctx.rotate(-Math.PI / 2);
      drawParts(ctx, labelParts(d.colLabels[c]), 0, 0, 'left');
      ctx.restore();
    };
    if (Number.isFinite(layout.rowStep)) {
      for (const r of rows.regular) row(r, false);
      for (const r of rows.pinned) row(r, true);
    }
    if (Number.isFinite(layout.colStep)) {
      for (const c of cols.regular) col(c, false);
      for (const c of cols.pinned) col(c, true);
    }
    ctx.font = font.css;
  }

  /** The labels the last render drew: { rowStep, colStep, colExtent, rotated, cellWidth, cellHeight, gridX,
   * gridY, rows, cols, pinnedRows, pinnedCols } (indices), or null before one; for tests. */
  get drawnLabels() {
    const layout = this.#layout;
    const d = this.#data;
    if (!layout || !d) return null;
    const p = this.#pinnedLabels();
    const rows = Number.isFinite(layout.rowStep)
      ? labelIndices(d.rows, layout.rowStep, p.rows)
      : { regular: [], pinned: [] };
    const cols = Number.isFinite(layout.colStep)
      ? labelIndices(d.cols, layout.colStep, p.cols)
      : { regular: [], pinned: [] };
    return {
      rowStep: layout.rowStep,
      colStep: layout.colStep,
      colExtent: layout.colExtent,
      rotated: layout.colLabelsRotated,
      cellWidth: layout.cellWidth,
      cellHeight: layout.cellHeight,
      gridX: layout.gridX,
      gridY: layout.gridY,
      rows: rows.regular,
      cols: cols.regular,
      pinnedRows: rows.pinned,
      pinnedCols: cols.pinned,
    };
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
    const d = this.#data;
    const gold = this.#isGold(row, col) ? ` ${t(this.#lang, 'heatmap.goldCell')}` : '';
    return `${displayLabel(d.rowLabels[row])}, ${displayLabel(d.colLabels[col])}: ${formatValue(d.weights[row * d.cols + col])}${gold}`;
  }

  #summary() {
    const d = this.#data;
    if (!d) return t(this.#lang, 'heatmap.noData', { label: this.label });
    const [min, max] = this.#range();
    const summary = t(this.#lang, 'heatmap.summary', {
      label: this.label,
      rows: d.rows,
      cols: d.cols,
      min: formatValue(min),
      max: formatValue(max),
    });
    const gold = this.#goldCells().length;
    return gold ? `${summary} ${t(this.#lang, 'heatmap.goldSummary', { n: gold })}` : summary;
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
    const d = this.#data;
    const summary = el('p', { text: this.#summary() });
    if (!d || d.rows * d.cols > MAX_TABLE_CELLS) {
      if (d) summary.append(` ${t(this.#lang, 'heatmap.downloads')}`);
      this.#alternative.replaceChildren(summary);
      return;
    }
    const table = el('table', {}, [el('caption', { text: this.#summary() })]);
    const head = el('tr', {}, [el('td')]);
    for (const label of d.colLabels) head.append(el('th', { scope: 'col', text: label }));
    const body = el('tbody');
    for (let r = 0; r < d.rows; r++) {
      const tr = el('tr', {}, [el('th', { scope: 'row', text: d.rowLabels[r] })]);
      for (let c = 0; c < d.cols; c++) {
        const gold = this.#isGold(r, c) ? ` ${t(this.#lang, 'heatmap.goldCell')}` : '';
        tr.append(el('td', { text: `${formatValue(d.weights[r * d.cols + c])}${gold}` }));
      }
      body.append(tr);
    }
    table.append(el('thead', {}, [head]), body);
    this.#alternative.replaceChildren(table);
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
    const d = this.#data;
    if (!d || event.altKey || event.metaKey) return;
    let [row, col] = [this.#row, this.#col];
    switch (event.key) {
      case 'ArrowUp':
        row -= 1;
        break;
      case 'ArrowDown':
        row += 1;
        break;
      case 'ArrowLeft':
        col -= 1;
        break;
      case 'ArrowRight':
        col += 1;
        break;
      case 'PageUp':
        row -= PAGE_ROWS;
        break;
      case 'PageDown':
        row += PAGE_ROWS;
        break;
      case 'Home':
        col = 0;
        if (event.ctrlKey) row = 0;
        break;
      case 'End':
        col = d.cols - 1;
        if (event.ctrlKey) row = d.rows - 1;
        break;
      default:
        return;
    }
    event.preventDefault(); // keep the plot from scrolling instead
    this.focusCell(row, col);
  }

  #cellFromEvent(event) {
    const d = this.#data;
    if (!d || !this.#layout) return null;
    const rect = this.#canvas.getBoundingClientRect();
    const scale = rect.width > 0 ? this.#layout.width / rect.width : 1;
    return cellAt(
      this.#layout,
      d.rows,
      d.cols,
      (event.clientX - rect.left) * scale,
      (event.clientY - rect.top) * scale,
    );
  }

  #onPointerMove(event) {
    const hit = this.#cellFromEvent(event);
    const tip = this.#tooltip;
    this.#setHover(hit);
    if (!hit) {
      tip.hidden = true;
      return;
    }
    tip.textContent = this.#describe(hit.row, hit.col);
    tip.hidden = false;
    const plot = this.#plot.getBoundingClientRect();
    let x = event.clientX - plot.left + this.#plot.scrollLeft + 12;
    let y = event.clientY - plot.top + this.#plot.scrollTop + 12;
    // Flip to the other side of the pointer near an edge, so the tip never widens the scroll area.
    if (x + tip.offsetWidth > this.#plot.scrollLeft + this.#plot.clientWidth)
      x -= tip.offsetWidth + 24;
    if (y + tip.offsetHeight > this.#plot.scrollTop + this.#plot.clientHeight)
      y -= tip.offsetHeight + 24;
    tip.style.left = `${Math.max(0, x)}px`;
    tip.style.top = `${Math.max(0, y)}px`;
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
    const hit = this.#cellFromEvent(event);
    if (!hit) return;
    this.#plot.focus({ preventScroll: true });
    this.focusCell(hit.row, hit.col);
  }

  #scrollCellIntoView() {
    const layout = this.#layout;
    if (!layout) return;
    const plot = this.#plot;
    const { cellWidth: w, cellHeight: h } = layout;
    const x = layout.gridX + this.#col * w;
    const y = layout.gridY + this.#row * h;
    if (x < plot.scrollLeft) plot.scrollLeft = x;
    else if (x + w > plot.scrollLeft + plot.clientWidth) plot.scrollLeft = x + w - plot.clientWidth;
    if (y < plot.scrollTop) plot.scrollTop = y;
    else if (y + h > plot.scrollTop + plot.clientHeight) plot.scrollTop = y + h - plot.clientHeight;
  }

  // ---- downloads ---------------------------------------------------------------------------

  async #download(kind) {
    let blob;
    if (kind === 'png') blob = await this.toPNG();
    else if (kind === 'svg') blob = new Blob([this.toSVG()], { type: 'image/svg+xml' });
    else if (kind === 'csv') blob = new Blob([this.toCSV()], { type: 'text/csv' });
    else
      blob = new Blob([JSON.stringify(this.toJSON(), null, 2) + '\n'], {
        type: 'application/json',
      });
    const name =
      this.label
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '') || 'heatmap';
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${name}.${kind}`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 0);
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
