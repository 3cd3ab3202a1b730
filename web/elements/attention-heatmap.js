// attention-heatmap.js: <attn-heatmap>, a canvas heatmap for an attention matrix.
//
//   import { define } from './attention-heatmap.js';
//   define();                                   // registers <attn-heatmap>; importing alone does not
//   const el = document.querySelector('attn-heatmap');
//   el.data = { weights, rows: T, cols: S, rowLabels, colLabels };  // weights: Float32Array [T * S]
//
// Attributes (settings): label, min, max (colour range; default: the data's range), cell-size
// (CSS pixels; default: fit the width), colormap ('viridis', default, or 'diverging': a blue–
// white–red map over a range symmetric about 0, for differences). Property (data): `data`; the
// weights array is kept by reference, not copied, so set `data` again after changing it.
// Property `marks`: [{ row, from, to, center? }] outlines cells from..to of a row (e.g. a local
// attention window p_t ± D) and ticks the fractional column `center`. Property `gold`:
// gold[row] = the columns of that row to outline as a reference alignment (a solid white-and-red
// outline per cell, a key line under the colour legend, "(gold)" in the tooltip, the text
// alternative, the SVG and the JSON); null (default) for none.
// Methods: focusCell(row, col), whenRendered(), flush() (draw a pending frame now), toPNG()
// (Promise<Blob>), toSVG() (string), toCSV() (string), toJSON() (plain object, so
// JSON.stringify(el) works).
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
  downsample,
  escapeXml,
  colorTable,
  fillPixels,
  formatFloat32,
  formatValue,
  resolveRange,
  rgbToHex,
  symmetricRange,
  truncate,
  valueToColor,
} from '../shared/draw.js';
import { t } from '../shared/i18n.js';

/** Labels longer than this are cut (with '…') on the canvas; tooltips and exports keep them. */
const LABEL_CHARS = 12;
/** Bigger matrices get a summary instead of a hidden table (a 4096-cell table is plenty). */
const MAX_TABLE_CELLS = 4096;
/** PageUp / PageDown move this many rows. */
const PAGE_ROWS = 10;

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
.toolbar { display: flex; flex-wrap: wrap; gap: 0.25rem; margin-top: 0.25rem; }
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
    throw new TypeError('<attn-heatmap>: data must be { weights, rows, cols, rowLabels?, colLabels? }.');
  }
  const { rows, cols } = value;
  for (const [name, n] of [['rows', rows], ['cols', cols]]) {
    if (!Number.isSafeInteger(n) || n < 1) {
      throw new RangeError(`<attn-heatmap>: data.${name} must be a positive integer, got ${String(n)}.`);
    }
  }
  let { weights } = value;
  if (!(weights instanceof Float32Array)) {
    if (weights == null || typeof weights.length !== 'number') {
      throw new TypeError('<attn-heatmap>: data.weights must be a Float32Array (row-major, rows × cols).');
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

export class AttentionHeatmap extends HTMLElement {
  static observedAttributes = ['label', 'min', 'max', 'cell-size', 'colormap', 'lang'];

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

  // Shadow DOM parts.
  #plot;
  #canvas;
  #tooltip;
  #live;
  #error;
  #alternative;
  #pixels = null; // scratch canvas [cols x rows], one pixel per cell (per block when shrunk)
  #legendPixels = null; // scratch canvas [256 x 1], the colour map

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open', delegatesFocus: true });
    this.#canvas = el('canvas', { part: 'canvas', 'aria-hidden': 'true' });
    this.#tooltip = el('div', { class: 'tooltip', part: 'tooltip', hidden: '' });
    this.#plot = el(
      'div',
      { class: 'plot', part: 'plot', tabindex: '0', role: 'application', 'aria-roledescription': 'heatmap' },
      [this.#canvas, this.#tooltip],
    );
    this.#live = el('div', { class: 'visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.#error = el('p', { class: 'error', part: 'error', role: 'alert', hidden: '' });
    this.#alternative = el('div', { class: 'visually-hidden' });
    const toolbar = el('div', { class: 'toolbar', part: 'toolbar', role: 'group' });
    for (const [kind, text] of [['png', 'PNG'], ['svg', 'SVG'], ['csv', 'CSV'], ['json', 'JSON']]) {
      toolbar.append(el('button', { type: 'button', 'data-export': kind, text }));
    }
    root.append(el('style', { text: STYLE }), this.#plot, this.#error, toolbar, this.#live, this.#alternative);
  }

  connectedCallback() {
    this.#listeners = new AbortController();
    const signal = this.#listeners.signal;
    this.#plot.addEventListener('keydown', (e) => this.#onKeyDown(e), { signal });
    this.#plot.addEventListener('focus', () => this.#onFocusChange(true), { signal });
    this.#plot.addEventListener('blur', () => this.#onFocusChange(false), { signal });
    this.#canvas.addEventListener('pointermove', (e) => this.#onPointerMove(e), { signal });
    this.#canvas.addEventListener('pointerleave', () => {
      this.#tooltip.hidden = true;
      this.#setHover(null);
    }, { signal });
    this.#canvas.addEventListener('pointerdown', (e) => this.#onPointerDown(e), { signal });
    this.shadowRoot.querySelector('.toolbar').addEventListener(
      'click',
      (e) => {
        const button = /** @type {HTMLElement | null | undefined} */ (/** @type {Element} */ (e.target).closest?.('button[data-export]'));
        const kind = button?.dataset.export;
        if (kind) this.#download(kind).catch((err) => this.#showError(err.message));
      },
      { signal },
    );
    // Redraw when the colour scheme flips: the canvas bakes in the text and background colours.
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => this.#schedule(), { signal });
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
    if (name === 'min' || name === 'max' || name === 'colormap') this.#dataDirty = true; // the summary quotes the range
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
    if (data) {
      this.#row = Math.min(this.#row, data.rows - 1);
      this.#col = Math.min(this.#col, data.cols - 1);
    }
    this.#dataDirty = true;
    this.#updateLabel();
    this.#schedule();
  }

  /** Outlines over the grid: [{ row, from, to, center? }] (columns; from/to inclusive). */
  get marks() {
    return this.#marks;
  }

  set marks(value) {
    this.#marks = Array.isArray(value)
      ? value.filter((m) => m && Number.isInteger(m.row) && Number.isFinite(m.from) && Number.isFinite(m.to)).map((m) => ({ ...m }))
      : [];
    this.#schedule();
  }

  /** The gold alignment outlined over the grid: gold[row] = column indices; null for none. */
  get gold() {
    return this.#gold;
  }

  set gold(value) {
    this.#gold = Array.isArray(value)
      ? value.map((cols) => (Array.isArray(cols) ? cols.filter((c) => Number.isInteger(c) && c >= 0) : []))
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
    return { row, col, value: d.weights[row * d.cols + col], rowLabel: d.rowLabels[row], colLabel: d.colLabels[col] };
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

  /** A PNG of the heatmap as drawn (grid, labels, legend) at device resolution. */
  async toPNG() {
    this.#requireData();
    this.#flush();
    if (!this.#layout) this.#render(); // never drawn (e.g. not in the document)
    return new Promise((resolve, reject) =>
      this.#canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('<attn-heatmap>: the canvas is empty.'))), 'image/png'),
    );
  }

  /** A standalone SVG document: one rect per cell (with a <title>), labels and legend. */
  toSVG() {
    const d = this.#requireData();
    const ctx = this.#canvas.getContext('2d');
    const { fg, bg, font } = this.#colors();
    const layout = this.#computeLayout(ctx, font);
    const [min, max] = this.#range();
    const table = this.#table();
    const { cellWidth: cw, cellHeight: ch, gridX, gridY } = layout;
    const n = (v) => String(Math.round(v * 100) / 100);
    const out = [
      `<svg xmlns="http://www.w3.org/2000/svg" width="${layout.width}" height="${layout.height}" ` +
        `viewBox="0 0 ${layout.width} ${layout.height}" role="img">`,
      `<title>${escapeXml(this.label)}</title>`,
      '<defs><linearGradient id="attn-heatmap-legend">' +
        Array.from({ length: 17 }, (_, i) => {
          const j = Math.min(255, i * 16) * 3;
          return `<stop offset="${n(i / 16)}" stop-color="${rgbToHex([table[j], table[j + 1], table[j + 2]])}"/>`;
        }).join('') +
        '</linearGradient></defs>',
      `<rect width="${layout.width}" height="${layout.height}" fill="${escapeXml(bg)}"/>`,
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
      const outline = (x, y, w, h) => [['halo', 'haloWidth'], ['line', 'lineWidth']].map(([c, wd]) =>
        `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" fill="none" stroke="${GOLD_STROKE[c]}" stroke-width="${GOLD_STROKE[wd]}"/>`).join('');
      out.push('<g class="gold">');
      for (const [r, c] of gold) out.push(outline(gridX + c * cw + 1.5, gridY + r * ch + 1.5, Math.max(cw - 3, 1), Math.max(ch - 3, 1)));
      out.push(outline(layout.legendX + 1, layout.keyY + 3, LAYOUT.keySwatch, LAYOUT.keySwatch), '</g>');
    }
    out.push(`<g fill="${escapeXml(fg)}" font-family="${escapeXml(font.family)}" font-size="${LAYOUT.fontSize}">`);
    if (gold.length) {
      out.push(`<text x="${n(layout.legendX + LAYOUT.keySwatch + 6)}" y="${n(layout.keyY + 3 + LAYOUT.keySwatch / 2)}" dominant-baseline="middle">${escapeXml(t(this.#lang, 'heatmap.goldKey'))}</text>`);
    }
    if (layout.showLabels) {
      d.rowLabels.forEach((label, r) => {
        out.push(
          `<text x="${n(gridX - LAYOUT.labelGap)}" y="${n(gridY + (r + 0.5) * ch)}" text-anchor="end" ` +
            `dominant-baseline="middle">${escapeXml(truncate(label, LABEL_CHARS))}</text>`,
        );
      });
      d.colLabels.forEach((label, c) => {
        out.push(
          `<text transform="translate(${n(gridX + (c + 0.5) * cw)} ${n(gridY - LAYOUT.labelGap)}) rotate(-90)" ` +
            `dominant-baseline="middle">${escapeXml(truncate(label, LABEL_CHARS))}</text>`,
        );
      });
    }
    const textY = layout.legendY + LAYOUT.legendBar + LAYOUT.legendText - 2;
    out.push(
      `<rect x="${layout.legendX}" y="${layout.legendY}" width="${layout.legendWidth}" height="${LAYOUT.legendBar}" ` +
        'fill="url(#attn-heatmap-legend)"/>',
      `<text x="${layout.legendX}" y="${n(textY)}">${escapeXml(formatValue(min))}</text>`,
      `<text x="${layout.legendX + layout.legendWidth}" y="${n(textY)}" text-anchor="end">${escapeXml(formatValue(max))}</text>`,
      '</g>',
      '</svg>',
    );
    return out.join('\n') + '\n';
  }

  /** CSV: a header row of column labels, then one row per matrix row, led by its label. */
  toCSV() {
    const d = this.#requireData();
    const lines = [['', ...d.colLabels].map(csvField).join(',')];
    for (let r = 0; r < d.rows; r++) {
      const cells = [csvField(d.rowLabels[r])];
      for (let c = 0; c < d.cols; c++) cells.push(formatFloat32(d.weights[r * d.cols + c]));
      lines.push(cells.join(','));
    }
    return lines.join('\r\n') + '\r\n';
  }

  /**
   * A plain object: { label, rows, cols, rowLabels, colLabels, min, max, weights, gold? } with weights
   * as a flat row-major number array (shortest decimals that read back to the float32 values;
   * NaN and infinities become null, as JSON has no such numbers). null without data.
   */
  toJSON() {
    const d = this.#data;
    if (!d) return null;
    const [min, max] = this.#range();
    return {
      label: this.label,
      rows: d.rows,
      cols: d.cols,
      rowLabels: [...d.rowLabels],
      colLabels: [...d.colLabels],
      min,
      max,
      weights: Array.from(d.weights, (v) => (Number.isFinite(v) ? Number(formatFloat32(v)) : null)),
      ...(this.#gold ? { gold: this.#gold.slice(0, d.rows).map((cols) => cols.filter((c) => c < d.cols)) } : {}),
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
      font: { family: style.fontFamily || 'sans-serif', css: `${LAYOUT.fontSize}px ${style.fontFamily || 'sans-serif'}` },
    };
  }

  #computeLayout(ctx, font) {
    const d = this.#data;
    const cellSize = parseNumberAttribute(this.getAttribute('cell-size'));
    const shape = {
      rows: d.rows,
      cols: d.cols,
      cellSize: cellSize !== null && cellSize >= 1 ? Math.min(cellSize, 200) : null,
      availableWidth: this.#width || this.clientWidth || 320,
    };
    // Labels only ever make cells smaller, so when the cells are too small for labels even
    // without them, skip measuring (100,000 labels would cost a measureText each, for nothing).
    if (this.#gold) {
      ctx.font = font.css;
      shape.keyWidth = Math.ceil(LAYOUT.keySwatch + 6 + ctx.measureText(t(this.#lang, 'heatmap.goldKey')).width);
    }
    const bare = computeLayout(shape);
    if (Math.min(bare.cellWidth, bare.cellHeight) < LAYOUT.labelMinCell) return bare;
    ctx.font = font.css;
    // A loop, not Math.max(...widths): spreading ~100,000 values into a call overflows the stack.
    const widest = (labels) => {
      let w = 0;
      for (const l of labels) w = Math.max(w, ctx.measureText(truncate(l, LABEL_CHARS)).width);
      return w;
    };
    return computeLayout({ ...shape, rowLabelWidth: Math.ceil(widest(d.rowLabels)), colLabelHeight: Math.ceil(widest(d.colLabels)) });
  }

  /** The matrix as drawn: shrunk (block maxima) to at most LAYOUT.maxGrid a side, cached per data. */
  #reduced() {
    const d = this.#data;
    const pick = this.getAttribute('colormap') === 'diverging' ? 'absmax' : 'max';
    if (this.#reducedCache?.data !== d || this.#reducedCache.pick !== pick) {
      this.#reducedCache = { data: d, pick, matrix: downsample(d.weights, d.rows, d.cols, LAYOUT.maxGrid, LAYOUT.maxGrid, pick) };
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
    this.#pixels ??= document.createElement('canvas');
    this.#pixels.width = m.cols;
    this.#pixels.height = m.rows;
    const pctx = this.#pixels.getContext('2d');
    const image = pctx.createImageData(m.cols, m.rows);
    const table = this.#table();
    fillPixels(m.weights, min, max, image.data, table);
    pctx.putImageData(image, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this.#pixels, layout.gridX, layout.gridY, layout.gridWidth, layout.gridHeight);

    ctx.fillStyle = fg;
    ctx.font = font.css;
    if (layout.showLabels) {
      ctx.textAlign = 'right';
      ctx.textBaseline = 'middle';
      d.rowLabels.forEach((label, r) => {
        ctx.fillText(truncate(label, LABEL_CHARS), layout.gridX - LAYOUT.labelGap, layout.gridY + (r + 0.5) * layout.cellHeight);
      });
      ctx.textAlign = 'left';
      d.colLabels.forEach((label, c) => {
        ctx.save();
        ctx.translate(layout.gridX + (c + 0.5) * layout.cellWidth, layout.gridY - LAYOUT.labelGap);
        ctx.rotate(-Math.PI / 2);
        ctx.fillText(truncate(label, LABEL_CHARS), 0, 0);
        ctx.restore();
      });
    }

    // Legend: the colour map as a bar, the range's ends as text.
    if (!this.#legendPixels || this.#legendPixels.table !== table) {
      this.#legendPixels = document.createElement('canvas');
      this.#legendPixels.table = table;
      this.#legendPixels.width = 256;
      this.#legendPixels.height = 1;
      const lctx = this.#legendPixels.getContext('2d');
      const bar = lctx.createImageData(256, 1);
      for (let i = 0; i < 256; i++) bar.data.set([table[3 * i], table[3 * i + 1], table[3 * i + 2], 255], 4 * i);
      lctx.putImageData(bar, 0, 0);
    }
    ctx.drawImage(this.#legendPixels, layout.legendX, layout.legendY, layout.legendWidth, LAYOUT.legendBar);
    ctx.textBaseline = 'alphabetic';
    const textY = layout.legendY + LAYOUT.legendBar + LAYOUT.legendText - 2;
    ctx.textAlign = 'left';
    ctx.fillText(formatValue(min), layout.legendX, textY);
    ctx.textAlign = 'right';
    ctx.fillText(formatValue(max), layout.legendX + layout.legendWidth, textY);

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
        outline(layout.gridX + c * cw + 1.5, layout.gridY + r * ch + 1.5, Math.max(cw - 3, 1), Math.max(ch - 3, 1));
      }
      outline(layout.legendX + 1, layout.keyY + 3, LAYOUT.keySwatch, LAYOUT.keySwatch);
      ctx.fillStyle = fg;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      ctx.fillText(t(this.#lang, 'heatmap.goldKey'), layout.legendX + LAYOUT.keySwatch + 6, layout.keyY + 3 + LAYOUT.keySwatch / 2);
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
    return `${d.rowLabels[row]}, ${d.colLabels[col]}: ${formatValue(d.weights[row * d.cols + col])}${gold}`;
  }

  #summary() {
    const d = this.#data;
    if (!d) return t(this.#lang, 'heatmap.noData', { label: this.label });
    const [min, max] = this.#range();
    const summary = t(this.#lang, 'heatmap.summary', { label: this.label, rows: d.rows, cols: d.cols, min: formatValue(min), max: formatValue(max) });
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
    for (const b of toolbar.querySelectorAll('button')) b.setAttribute('aria-label', t(this.#lang, 'heatmap.download', { kind: b.textContent }));
    const d = this.#data;
    this.#plot.setAttribute('aria-label', d ? t(this.#lang, 'heatmap.size', { label: this.label, rows: d.rows, cols: d.cols }) : this.label);
    this.#plot.setAttribute(
      'aria-description',
      t(this.#lang, 'heatmap.keys'),
    );
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
      case 'ArrowUp': row -= 1; break;
      case 'ArrowDown': row += 1; break;
      case 'ArrowLeft': col -= 1; break;
      case 'ArrowRight': col += 1; break;
      case 'PageUp': row -= PAGE_ROWS; break;
      case 'PageDown': row += PAGE_ROWS; break;
      case 'Home': col = 0; if (event.ctrlKey) row = 0; break;
      case 'End': col = d.cols - 1; if (event.ctrlKey) row = d.rows - 1; break;
      default: return;
    }
    event.preventDefault(); // keep the plot from scrolling instead
    this.focusCell(row, col);
  }

  #cellFromEvent(event) {
    const d = this.#data;
    if (!d || !this.#layout) return null;
    const rect = this.#canvas.getBoundingClientRect();
    const scale = rect.width > 0 ? this.#layout.width / rect.width : 1;
    return cellAt(this.#layout, d.rows, d.cols, (event.clientX - rect.left) * scale, (event.clientY - rect.top) * scale);
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
    if (x + tip.offsetWidth > this.#plot.scrollLeft + this.#plot.clientWidth) x -= tip.offsetWidth + 24;
    if (y + tip.offsetHeight > this.#plot.scrollTop + this.#plot.clientHeight) y -= tip.offsetHeight + 24;
    tip.style.left = `${Math.max(0, x)}px`;
    tip.style.top = `${Math.max(0, y)}px`;
  }

  #setHover(hit) {
    const key = hit ? `${hit.row},${hit.col}` : null;
    if (key === this.#hover) return;
    this.#hover = key;
    const d = this.#data;
    const detail = hit && d
      ? { row: hit.row, col: hit.col, value: d.weights[hit.row * d.cols + hit.col], rowLabel: d.rowLabels[hit.row], colLabel: d.colLabels[hit.col] }
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
    else blob = new Blob([JSON.stringify(this.toJSON(), null, 2) + '\n'], { type: 'application/json' });
    const name = this.label.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'heatmap';
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${name}.${kind}`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 0);
  }
}

/** Register the element (default tag attn-heatmap). Safe to call more than once. */
export function define(tag = 'attn-heatmap', registry = customElements) {
  if (!registry.get(tag)) registry.define(tag, tag === 'attn-heatmap' ? AttentionHeatmap : class extends AttentionHeatmap {});
  return registry.get(tag);
}
