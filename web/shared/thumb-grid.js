// thumb-grid.js: what the Heads view (web/views/heads-view.js) and the notebook's grid output
// (python/js/grid.js) share: a map drawn as a thumbnail (one pixel per weight on a canvas; CSS
// scales it up, unsmoothed), a map's strongest cell, and the roving-tabindex keys of a grid of
// thumbnail buttons (arrows move, Home / End to a row's ends; the caller's buttons enlarge).
//
//   drawThumbnail(canvas, weights, rows, cols, min, max);   // table: draw.js colorTable
//   const { value, row, col } = strongestOf(weights, cols);
//   grid.addEventListener('keydown', (e) => roveThumbnails(e, thumbs));   // thumbs[l][h] or null

import { fillPixels } from './draw.js';

/** weights (row-major, rows × cols) into canvas, one pixel each, coloured on [min, max]. */
export function drawThumbnail(canvas, weights, rows, cols, min, max, table = undefined) {
  canvas.width = cols;
  canvas.height = rows;
  canvas.style.aspectRatio = `${cols} / ${rows}`;
  const ctx = canvas.getContext('2d');
  const image = ctx.createImageData(cols, rows);
  fillPixels(weights, min, max, image.data, table);
  ctx.putImageData(image, 0, 0);
}

/** The largest weight of a row-major map with cols columns, and where (the first on ties). */
export function strongestOf(weights, cols) {
  let best = 0;
  for (let i = 1; i < weights.length; i++) if (weights[i] > weights[best]) best = i;
  return { value: weights[best], row: Math.floor(best / cols), col: best % cols };
}

const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/**
 * A keydown on a grid of thumbnail buttons (thumbs[layer][head], null where a grid has no map):
 * arrows move the focus (clamped to the grid), Home / End to the row's ends; a roving tabindex,
 * so Tab enters the grid at the last one focused. Other keys are left alone.
 * @param {KeyboardEvent} event @param {(HTMLElement | null)[][]} thumbs
 */
export function roveThumbnails(event, thumbs) {
  const b = /** @type {HTMLElement | null} */ (
    /** @type {HTMLElement} */ (event.target).closest?.('button.thumb')
  );
  if (!b || event.altKey || event.metaKey || event.ctrlKey) return;
  const L = thumbs.length;
  const H = thumbs[0]?.length ?? 0;
  let l = Number(b.dataset.layer);
  let h = Number(b.dataset.head);
  if (event.key in STEPS) {
    l = Math.max(0, Math.min(L - 1, l + STEPS[event.key][0]));
    h = Math.max(0, Math.min(H - 1, h + STEPS[event.key][1]));
  } else if (event.key === 'Home') h = 0;
  else if (event.key === 'End') h = H - 1;
  else return;
  event.preventDefault();
  const next = thumbs[l]?.[h];
  if (!next) return;
  for (const row of thumbs) for (const t of row) if (t) t.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}
