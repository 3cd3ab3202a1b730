// elements.js: the one-line entry for a course page (npm: `attnlab/elements`). Importing it
// registers <attn-demo>, <attn-heatmap> and <attn-lab>:
//
//   <script type="module" src="https://cdn.jsdelivr.net/npm/attnlab@0.2.0/web/elements.js"></script>
//   <attn-demo model="dates-additive" view="alignment" input="22 Nov 2026"></attn-demo>
//
// Everything the elements load (their views, the .wasm, the models and their cards) is found
// relative to the modules themselves (import.meta.url), never to the page, so this works from a
// CDN, from node_modules served as static files, or from a copy of web/ and wasm/, with no import
// map. The one side effect of the package (package.json "sideEffects"): a page or bundle that
// wants other tag names, or no registration on import, imports web/embed.js (`attnlab/embed`)
// and calls define() itself. A tag already taken on the page is left as it is.

import { define } from './embed.js';

define();

export { AttentionHeatmap, AttnDemo, AttnLab, define } from './embed.js';
