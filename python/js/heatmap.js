// python/js/heatmap.js: the bundle attnlab.show(attention) inlines (scripts/build-python-assets.mjs):
// an output cell holding one <attn-heatmap> (kind 'heatmap': one map) or the layers × heads grid
// of grid.js (kind 'grid': more than one), and no wasm. The cell's HTML: see notebook.js.

import { GRID_STYLE, grid } from './grid.js';
import { floatsFromBase64, heatmap, mounter } from './output.js';

/** Draw the output whose root element is root (the div holding its JSON data), once. */
export const mount = mounter(
  { heatmap, grid: (root, shadow, d) => grid(root, shadow, d, floatsFromBase64(d.weights)) },
  { grid: GRID_STYLE },
);
