// heatmap-interaction.js: keyboard and pointer of <attn-heatmap> (attention-heatmap.js): where a
// key moves the focused cell, which cell is under the pointer, the tooltip beside it, and
// scrolling a cell into view.
//
//   const to = keyTarget(event, row, col, data);   // [row, col] or null
//   if (to) { event.preventDefault(); heatmap.focusCell(...to); }
//
// Holds: the geometry of input. Deliberately holds no element state: the element keeps the
// focused and hovered cells and dispatches heatmap-focus and heatmap-hover.

import { cellAt } from '../shared/draw.js';

/** PageUp / PageDown move this many rows. */
const PAGE_ROWS = 10;

/**
 * The cell a key moves the focus to from (row, col) of data d: [row, col] (not yet clamped), or
 * null for a key that moves nothing (the caller leaves the event alone): arrows, PageUp/PageDown
 * (PAGE_ROWS rows), Home/End (the row's ends; with Ctrl, the matrix's corners).
 */
export function keyTarget(event, row, col, d) {
  if (!d || event.altKey || event.metaKey) return null;
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
      return null;
  }
  return [row, col];
}

/** The cell { row, col } under a pointer event on canvas (drawn with layout, data d), or null. */
export function cellFromEvent(event, canvas, layout, d) {
  if (!d || !layout) return null;
  const rect = canvas.getBoundingClientRect();
  const scale = rect.width > 0 ? layout.width / rect.width : 1;
  return cellAt(
    layout,
    d.rows,
    d.cols,
    (event.clientX - rect.left) * scale,
    (event.clientY - rect.top) * scale,
  );
}

/** Show the tooltip tip with text beside the pointer (event) in the scrolling plot. */
export function placeTooltip(tip, text, event, plotNode) {
  tip.textContent = text;
  tip.hidden = false;
  const plot = plotNode.getBoundingClientRect();
  let x = event.clientX - plot.left + plotNode.scrollLeft + 12;
  let y = event.clientY - plot.top + plotNode.scrollTop + 12;
  // Flip to the other side of the pointer near an edge, so the tip never widens the scroll area.
  if (x + tip.offsetWidth > plotNode.scrollLeft + plotNode.clientWidth) x -= tip.offsetWidth + 24;
  if (y + tip.offsetHeight > plotNode.scrollTop + plotNode.clientHeight) y -= tip.offsetHeight + 24;
  tip.style.left = `${Math.max(0, x)}px`;
  tip.style.top = `${Math.max(0, y)}px`;
}

/** Scroll the plot so the cell (row, col) of layout is in view (nothing before a layout). */
export function scrollCellIntoView(plot, layout, row, col) {
  if (!layout) return;
  const { cellWidth: w, cellHeight: h } = layout;
  const x = layout.gridX + col * w;
  const y = layout.gridY + row * h;
  if (x < plot.scrollLeft) plot.scrollLeft = x;
  else if (x + w > plot.scrollLeft + plot.clientWidth) plot.scrollLeft = x + w - plot.clientWidth;
  if (y < plot.scrollTop) plot.scrollTop = y;
  else if (y + h > plot.scrollTop + plot.clientHeight) plot.scrollTop = y + h - plot.clientHeight;
}
