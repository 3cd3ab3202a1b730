// heatmap-labels.js: the labels of <attn-heatmap> (attention-heatmap.js): a row or column label
// as drawn (invisible characters as muted markers, cut at LABEL_CHARS), drawn on a canvas
// (every k-th, the pinned ones in bold), measured, which ones a render drew; and the map's text
// alternative (a summary, and a table of every value for the smaller maps).
//
//   drawLabels(ctx, layout, font, data, { rows: [hoveredRow], cols: [hoveredCol] });
//
// Holds: the labels' text and canvas drawing. Deliberately holds no layout maths (draw.js
// computeLayout, labelIndices) and no element state.

import {
  LAYOUT,
  formatValue,
  labelIndices,
  labelSegments,
  truncateSegments,
} from '../shared/draw.js';
import { t } from '../shared/i18n.js';
import { el, goldCells, isGold } from './heatmap-data.js';

/** Bigger matrices get a summary instead of a hidden table (a 4096-cell table is plenty). */
const MAX_TABLE_CELLS = 4096;
/** Labels longer than this are cut (with '…') on the canvas; tooltips and exports keep them. */
const LABEL_CHARS = 12;

/** A label as drawn: segments (markers for invisible characters), cut at LABEL_CHARS. */
export function labelParts(label) {
  return truncateSegments(labelSegments(label), LABEL_CHARS);
}

/** The text of labelParts(label). */
export function labelText(label) {
  return labelParts(label)
    .map((p) => p.text)
    .join('');
}

/**
 * Draw label parts on ctx at (x, y), aligned 'left', 'right' or 'center' (ctx.textBaseline as
 * set), marker parts at half opacity: muted, so '␣' reads as a space, not as a character.
 */
export function drawParts(ctx, parts, x, y, align) {
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

/** The widest of labels as drawn on ctx (its font set). A loop, not Math.max(...widths):
 * spreading ~100,000 values into a call overflows the stack; past LAYOUT.labelSample labels an
 * even sample is measured (a label there is at most LABEL_CHARS wide anyway). */
export function widestLabel(ctx, labels) {
  const stride = Math.max(1, Math.ceil(labels.length / LAYOUT.labelSample));
  let w = 0;
  for (let i = 0; i < labels.length; i += stride)
    w = Math.max(w, ctx.measureText(labelText(labels[i])).width);
  return w;
}

/**
 * Row and column labels: every rowStep-th / colStep-th (computeLayout), the pinned ones (hovered,
 * focused) in bold, and nothing a pinned one would overlap. d: the element's data.
 */
export function drawLabels(ctx, layout, font, d, pinned = { rows: [], cols: [] }) {
  if (!layout.showLabels) return;
  const rows = labelIndices(d.rows, layout.rowStep, pinned.rows);
  const cols = labelIndices(d.cols, layout.colStep, pinned.cols);
  const bold = `bold ${font.css}`;
  ctx.textBaseline = 'middle';
  const row = (r, isPinned) => {
    ctx.font = isPinned ? bold : font.css;
    const x = layout.gridX - LAYOUT.labelGap,
      y = layout.gridY + (r + 0.5) * layout.cellHeight;
    drawParts(ctx, labelParts(d.rowLabels[r]), x, y, 'right');
    if (d.rowProbs) underline(ctx, d, r, x, y);
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

/**
 * Row r's token probability under its label (issue 30): a line whose weight and opacity grow
 * with 1 − p (none when p > 0.98), dotted when p is under data.threshold, so the mark does not
 * rest on colour alone; (x, y): the label's right end and middle.
 */
function underline(ctx, d, r, x, y) {
  const u = 1 - d.rowProbs[r];
  if (u < 0.02) return;
  const w = ctx.measureText(labelText(d.rowLabels[r])).width;
  const below = d.threshold !== null && d.rowProbs[r] < d.threshold;
  ctx.save();
  ctx.strokeStyle = `rgba(214, 110, 0, ${(0.35 + 0.65 * u).toFixed(3)})`;
  ctx.lineWidth = 1 + 2 * u;
  ctx.setLineDash(below ? [2, 2] : []);
  const ly = y + LAYOUT.fontSize * 0.55 + 1;
  ctx.beginPath();
  ctx.moveTo(x - w, ly);
  ctx.lineTo(x, ly);
  ctx.stroke();
  ctx.restore();
}

/** The labels a render with layout drew for data d and pinned labels p: { rowStep, colStep, colExtent, rotated, cellWidth, cellHeight, gridX,
 * gridY, rows, cols, pinnedRows, pinnedCols } (indices); for tests (AttentionHeatmap.drawnLabels). */
export function labelsDrawn(layout, d, p) {
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

/** The map in one sentence (spec: the element's exportSpec): its size and range, its gold cells. */
function summaryOf(spec) {
  const d = spec.data;
  if (!d) return t(spec.lang, 'heatmap.noData', { label: spec.label });
  const [min, max] = spec.range;
  const summary = t(spec.lang, 'heatmap.summary', {
    label: spec.label,
    rows: d.rows,
    cols: d.cols,
    min: formatValue(min),
    max: formatValue(max),
  });
  const gold = goldCells(d, spec.gold).length;
  return gold ? `${summary} ${t(spec.lang, 'heatmap.goldSummary', { n: gold })}` : summary;
}

/**
 * The text alternative of the map (spec: the element's exportSpec): a summary and, up to
 * MAX_TABLE_CELLS cells, a table of every value (gold cells marked); the nodes to show.
 */
export function alternativeOf(spec) {
  const d = spec.data;
  const summary = el('p', { text: summaryOf(spec) });
  if (!d || d.rows * d.cols > MAX_TABLE_CELLS) {
    if (d) summary.append(` ${t(spec.lang, 'heatmap.downloads')}`);
    return [summary];
  }
  const table = el('table', {}, [el('caption', { text: summaryOf(spec) })]);
  const head = el('tr', {}, [el('td')]);
  for (const label of d.colLabels) head.append(el('th', { scope: 'col', text: label }));
  const body = el('tbody');
  for (let r = 0; r < d.rows; r++) {
    const tr = el('tr', {}, [el('th', { scope: 'row', text: d.rowLabels[r] })]);
    for (let c = 0; c < d.cols; c++) {
      const gold = isGold(spec.gold, r, c) ? ` ${t(spec.lang, 'heatmap.goldCell')}` : '';
      tr.append(el('td', { text: `${formatValue(d.weights[r * d.cols + c])}${gold}` }));
    }
    body.append(tr);
  }
  table.append(el('thead', {}, [head]), body);
  return [table];
}
