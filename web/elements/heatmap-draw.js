// heatmap-draw.js: the canvas of <attn-heatmap> (attention-heatmap.js): its colours and layout,
// and one frame: the cells (one pixel per value, scaled up without smoothing; a matrix too big
// for one canvas first shrunk), the labels, the colour bar and its caption, the marks, the gold
// alignment and the focus ring.
//
//   const layout = layoutOf(ctx, font, spec, cellSize, width);
//   drawMap(ctx, layout, colorsOf(heatmap), spec, scratch, { marks, focus, pinned });
//
// Holds: drawing on a 2D context already sized and scaled by the caller, and the element's
// shadow styles. Deliberately holds no
// element state (scratch: the caller's cache of the pixel canvases) and no layout maths (draw.js).

import {
  DIVERGING_DARK,
  GOLD_STROKE,
  LAYOUT,
  computeLayout,
  downsample,
  fillPixels,
  formatValue,
} from '../shared/draw.js';
import { CONTROL_STYLE } from '../shared/design.js';
import { t } from '../shared/i18n.js';
import { goldCells } from './heatmap-data.js';
import { drawLabels, widestLabel } from './heatmap-labels.js';

/** The element's shadow styles (its canvas, tooltip, controls and text alternative). */
export const HEATMAP_STYLE = `${CONTROL_STYLE}
:host { display: block; position: relative; font: inherit;
  color: var(--attn-heatmap-color, CanvasText);
  background-color: var(--attn-heatmap-background, Canvas); }
:host([hidden]) { display: none; }
.plot { position: relative; overflow: auto; max-width: 100%; border-radius: 4px;
  max-height: var(--attn-heatmap-max-height, none); }
.plot:focus { outline: none; }
.plot:focus-visible { outline: 2px solid var(--attn-heatmap-focus, Highlight); outline-offset: 2px; }
canvas { display: block; touch-action: manipulation; }
.tooltip { position: absolute; z-index: 1; pointer-events: none; white-space: nowrap;
  padding: 2px 6px; border-radius: 3px; font-size: 0.75rem;
  background: var(--attn-heatmap-color, CanvasText); color: var(--attn-heatmap-background, Canvas); }
.controls { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.75rem; margin-top: 0.25rem; }
.toolbar { display: flex; flex-wrap: wrap; gap: 0.25rem; }
.toolbar button:disabled { opacity: 0.5; }
.scale { display: inline-flex; align-items: center; gap: 0.3rem; font-size: var(--al-text-xs, 0.75rem); min-height: 1.75rem; }
.scale input { margin: 0; }
.toolbar button { font-size: var(--al-text-xs, 0.75rem); min-height: 1.75rem; padding: 0 0.5rem; }
.error { margin: 0.25rem 0; color: #b3261e; color: light-dark(#b3261e, #ff8a80); }
[hidden] { display: none !important; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0;
  overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0; }
`;

/** The colours and font the element is drawn in (its computed style). @param {Element} node */
export function colorsOf(node) {
  const style = getComputedStyle(node);
  return {
    fg: style.color || 'black',
    bg: style.backgroundColor || 'white',
    font: {
      family: style.fontFamily || 'sans-serif',
      css: `${LAYOUT.fontSize}px ${style.fontFamily || 'sans-serif'}`,
    },
  };
}

/**
 * The layout (draw.js computeLayout) of spec's map on ctx in font: cellSize (the cell-size
 * attribute, a number or null) or else fit to availableWidth (CSS pixels) and to plot's
 * max-height (an element, or null: no limit; the height only shrinks the cells, down to
 * FIT_MIN_CELL).
 */
export function layoutOf(ctx, font, spec, cellSize, availableWidth, plot = null) {
  const availableHeight = plot ? maxHeightOf(plot) : Infinity;
  const d = spec.data;
  ctx.font = font.css;
  const shape = {
    rows: d.rows,
    cols: d.cols,
    cellSize: cellSize !== null && cellSize >= 1 ? Math.min(cellSize, 200) : null,
    availableWidth,
    captionWidth: Math.ceil(ctx.measureText(spec.caption).width),
  };
  if (spec.gold)
    shape.keyWidth = Math.ceil(
      LAYOUT.keySwatch + 6 + ctx.measureText(t(spec.lang, 'heatmap.goldKey')).width,
    );
  const labels = {
    rowLabelWidth: Math.ceil(widestLabel(ctx, d.rowLabels)),
    colLabelHeight: Math.ceil(widestLabel(ctx, d.colLabels)),
  };
  const layout = computeLayout({ ...shape, ...labels });
  if (shape.cellSize !== null || !(layout.height > availableHeight)) return layout;
  // Too tall for the room given: square cells that fit it (never below FIT_MIN_CELL: a taller
  // map then scrolls in its plot), the labels and legend kept.
  const fit = Math.floor((availableHeight - (layout.height - layout.gridHeight)) / d.rows);
  const cell = Math.max(FIT_MIN_CELL, fit);
  return cell < layout.cellHeight ? computeLayout({ ...shape, ...labels, cellSize: cell }) : layout;
}

/** A plot's max-height in CSS pixels (Infinity for none). @param {Element} plot */
function maxHeightOf(plot) {
  const h = parseFloat(getComputedStyle(plot).maxHeight);
  if (!(h > 0)) return Infinity;
  // and no taller than what the first screen has left below the plot's top, when that is a
  // usable height: a map that starts lower (under a longer output line, a translation model's
  // gold toggle) still ends on the projector's first screen
  const top = plot.getBoundingClientRect().top + (window.scrollY || 0);
  const left = window.innerHeight - top - FIT_MARGIN;
  return left >= FIT_MIN_HEIGHT ? Math.min(h, left) : h;
}

/** The margin (CSS pixels) kept under a map fitted to the first screen, and the least height it
 * is fitted to (below that the map keeps its CSS max-height and the page scrolls). */
const FIT_MARGIN = 24;
const FIT_MIN_HEIGHT = 208;

/** Is a CSS colour ('rgb(r, g, b)' as computed) darker than mid-grey (WCAG luminance)? */
function isDark(css) {
  const rgb = String(css)
    .match(/[\d.]+/g)
    ?.slice(0, 3)
    .map(Number);
  if (rgb?.length !== 3) return false;
  const lin = (c) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2]) < 0.18;
}

/** The smallest cell (CSS pixels) a map is shrunk to so that it fits its max-height. */
const FIT_MIN_CELL = 6;

/** The matrix as drawn: shrunk (block maxima) to at most LAYOUT.maxGrid a side, cached per data
 * in scratch. */
function reduced(scratch, d, diverging) {
  const pick = diverging ? 'absmax' : 'max';
  if (scratch.reduced?.data !== d || scratch.reduced.pick !== pick) {
    scratch.reduced = {
      data: d,
      pick,
      matrix: downsample(d.weights, d.rows, d.cols, LAYOUT.maxGrid, LAYOUT.maxGrid, pick),
    };
  }
  return scratch.reduced.matrix;
}

/**
 * Draw spec's map on ctx (layout: layoutOf's; colors: colorsOf's). scratch: { pixels,
 * pixelKey, legendPixels, reduced }, kept by the caller between frames (the cells' pixels are
 * filled again only when the matrix or the scale changed, not on every hover). marks: outlines
 * ([{ row, from, to, center? }]); focus: the focused cell ({ row, col }) or null; pinned: the
 * labels always drawn ({ rows, cols }).
 */
export function drawMap(ctx, layout, { fg, bg, font }, spec, scratch, { marks, focus, pinned }) {
  const d = spec.data;
  // Cells: one pixel per value, scaled up without smoothing (fast for thousands of cells);
  // a matrix too big for one canvas is first shrunk to at most LAYOUT.maxGrid pixels a side.
  const [min, max] = spec.range;
  const m = reduced(scratch, d, spec.diverging);
  // a diverging map on a dark background: its dark-centred twin (0 is not a white block)
  const table = spec.diverging && isDark(bg) ? DIVERGING_DARK : spec.table;
  const key = scratch.pixelKey;
  if (
    !scratch.pixels ||
    !key ||
    key[0] !== m ||
    key[1] !== min ||
    key[2] !== max ||
    key[3] !== table
  ) {
    // Filled again only when the matrix or the scale changed, not on every hover.
    scratch.pixels ??= document.createElement('canvas');
    scratch.pixels.width = m.cols;
    scratch.pixels.height = m.rows;
    const pctx = scratch.pixels.getContext('2d');
    const image = pctx.createImageData(m.cols, m.rows);
    fillPixels(m.weights, min, max, image.data, table);
    pctx.putImageData(image, 0, 0);
    scratch.pixelKey = [m, min, max, table];
  }
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(scratch.pixels, layout.gridX, layout.gridY, layout.gridWidth, layout.gridHeight);

  ctx.fillStyle = fg;
  drawLabels(ctx, layout, font, d, pinned);

  // Legend: the colour map as a bar, the range's ends as text, and what the scale is.
  if (!scratch.legendPixels || scratch.legendPixels.table !== table) {
    scratch.legendPixels = document.createElement('canvas');
    scratch.legendPixels.table = table;
    scratch.legendPixels.width = 256;
    scratch.legendPixels.height = 1;
    const lctx = scratch.legendPixels.getContext('2d');
    const bar = lctx.createImageData(256, 1);
    for (let i = 0; i < 256; i++)
      bar.data.set([table[3 * i], table[3 * i + 1], table[3 * i + 2], 255], 4 * i);
    lctx.putImageData(bar, 0, 0);
  }
  ctx.drawImage(
    scratch.legendPixels,
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
  ctx.fillText(spec.caption, layout.captionX, layout.captionY);

  // Marks (e.g. a local window p_t ± D): a two-tone dashed outline, and a tick at the centre.
  for (const m of marks) {
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
  const gold = goldCells(d, spec.gold);
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
      t(spec.lang, 'heatmap.goldKey'),
      layout.legendX + LAYOUT.keySwatch + 6,
      layout.keyY + 3 + LAYOUT.keySwatch / 2,
    );
    ctx.restore();
  }

  // Focused cell: a two-tone ring, visible on every colour of the map.
  if (focus) {
    const x = layout.gridX + focus.col * layout.cellWidth;
    const y = layout.gridY + focus.row * layout.cellHeight;
    const w = Math.max(layout.cellWidth, 4);
    const h = Math.max(layout.cellHeight, 4);
    ctx.lineWidth = 2;
    ctx.strokeStyle = fg;
    ctx.strokeRect(x - 1, y - 1, w + 2, h + 2);
    ctx.lineWidth = 1;
    ctx.strokeStyle = bg;
    ctx.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
  }
}
