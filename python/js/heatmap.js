// python/js/heatmap.js: the bundle attnlab.show(weights) inlines (scripts/build-python-assets.mjs):
// an output cell holding one <attn-heatmap>, and no wasm. The cell's HTML: see notebook.js.

import { heatmap, mounter } from './output.js';

/** Draw the output whose root element is root (the div holding its JSON data), once. */
export const mount = mounter({ heatmap });
