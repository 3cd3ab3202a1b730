// heatmap-data.js: what <attn-heatmap> (attention-heatmap.js) is handed, checked, and what follows
// from it and the attributes without drawing: the colour range and scale, the gold cells, a cell
// described in words.
//
//   const data = checkData({ weights, rows, cols });          // throws, naming the problem
//   rangeOf(data, { scale: 'fit', min: null, max: null, colormap: null })   // [min, max]
//
// Holds: pure functions of plain values (and el(), the element's DOM helper). Deliberately holds
// no drawing (heatmap-draw.js, heatmap-labels.js) and no element state.

import { displayLabel, formatValue, resolveRange, symmetricRange } from '../shared/draw.js';
import { t } from '../shared/i18n.js';

/** An element with attributes (text: its textContent) and children. */
export function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

/** A number attribute's value, or null when absent, blank or not finite. */
export function parseNumberAttribute(value) {
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

/**
 * data as the element keeps it: frozen { weights: Float32Array [rows * cols], rows, cols,
 * rowLabels, colLabels, rowProbs, threshold } (labels default to indices; rowProbs, threshold
 * null unless given), or null; throws a TypeError or RangeError
 * naming what is wrong.
 */
export function checkData(value) {
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
    ...rowProbsOf(value, rows),
  });
}

/**
 * The optional { rowProbs, threshold } of data (issue 30): each row's output-token probability,
 * underlined under its label by 1 − p (dotted under threshold) and named in the cell's words;
 * { rowProbs: null, threshold: null } when absent.
 */
function rowProbsOf(value, rows) {
  const { rowProbs, threshold = null } = value;
  if (rowProbs === undefined || rowProbs === null) return { rowProbs: null, threshold: null };
  if (typeof rowProbs.length !== 'number' || rowProbs.length !== rows)
    throw new RangeError(
      `<attn-heatmap>: data.rowProbs must hold one probability per row (${rows}), got ${String(rowProbs.length)}.`,
    );
  const p = Float32Array.from(rowProbs);
  if (!p.every((v) => v >= 0 && v <= 1))
    throw new RangeError('<attn-heatmap>: data.rowProbs must be probabilities in [0, 1].');
  if (threshold !== null && !(typeof threshold === 'number' && threshold > 0 && threshold < 1))
    throw new RangeError('<attn-heatmap>: data.threshold must be a number in (0, 1) or null.');
  return { rowProbs: p, threshold };
}

/**
 * The element's colour settings, read once from its attributes: { scale, min, max, colormap }
 * (min, max: numbers or null).
 * @param {Element} node
 */
export function scaleAttributes(node) {
  return {
    scale: node.getAttribute('scale'),
    min: parseNumberAttribute(node.getAttribute('min')),
    max: parseNumberAttribute(node.getAttribute('max')),
    colormap: node.getAttribute('colormap'),
  };
}

/** The colour scale drawn (AttentionHeatmap.scaleMode) for scaleAttributes a. */
export function scaleModeOf(a) {
  if (a.colormap === 'diverging') return a.min !== null && a.max !== null ? 'set' : 'symmetric';
  if (a.scale === 'fixed' || a.scale === 'fit') return a.scale;
  if (a.min === null && a.max === null) return 'fit';
  if (a.min === 0 && a.max === 1) return 'fixed';
  if (a.min === 0 && a.max === null) return 'fit-from-0';
  return a.min !== null && a.max !== null ? 'set' : 'fit';
}

/** The colour range [min, max] of data (or none) under scaleAttributes a. */
export function rangeOf(data, a) {
  const weights = data ? data.weights : [];
  if (a.colormap === 'diverging') return symmetricRange(weights, a.min, a.max);
  if (a.scale === 'fixed') return [0, 1];
  if (a.scale === 'fit') return resolveRange(weights);
  return resolveRange(weights, a.min, a.max);
}

/** The colour bar's caption in lang: what the scale (mode) is, and its range. */
export function scaleCaption(lang, mode, range) {
  const [min, max] = range;
  const key = {
    fixed: 'heatmap.scaleFixed',
    fit: 'heatmap.scaleFit',
    'fit-from-0': 'heatmap.scaleFitFrom0',
    symmetric: 'heatmap.scaleSymmetric',
    set: 'heatmap.scaleSet',
  }[mode];
  return t(lang, key, { min: formatValue(min), max: formatValue(max) });
}

/** Is (row, col) a gold cell (gold[row] = columns, or null for none)? */
export function isGold(gold, row, col) {
  return gold !== null && (gold[row]?.includes(col) ?? false);
}

/** The gold cells inside the matrix: [[row, col], …]. */
export function goldCells(data, gold) {
  const out = [];
  if (!data || !gold) return out;
  gold.forEach((cols, r) => {
    if (r < data.rows) for (const c of cols) if (c < data.cols) out.push([r, c]);
  });
  return out;
}

/** A cell in words, in lang: 'row label, column label: value' (and '(gold)' on a gold cell; the
 * row token's probability when data has rowProbs). */
export function describeCell(data, gold, lang, row, col) {
  const g = isGold(gold, row, col) ? ` ${t(lang, 'heatmap.goldCell')}` : '';
  const p = data.rowProbs ? ` (p = ${formatValue(data.rowProbs[row])})` : '';
  return `${displayLabel(data.rowLabels[row])}${p}, ${displayLabel(data.colLabels[col])}: ${formatValue(data.weights[row * data.cols + col])}${g}`;
}
