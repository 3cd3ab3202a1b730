// embed.js: the embeddable elements, <attn-heatmap> and <attn-demo>, for any page.
//
//   <script type="module">
//     import { define } from '/path/to/attnlab/web/embed.js';
//     define();                      // registers <attn-heatmap> and <attn-demo>
//   </script>
//   <attn-demo model="dates-additive" view="alignment" input="22 Nov 2026"></attn-demo>
//
// Importing has no side effects: nothing is registered until define() is called (pass other
// tag names, or another registry, to avoid clashes). <attn-demo> loads the wasm and its model
// itself, from beside this file, and disposes the model when it is removed from the document.
// Or embed web/embed.html in an iframe (state in its query string; works sandboxed).

import { define as defineHeatmap } from './elements/attention-heatmap.js';
import { define as defineDemo } from './elements/attn-demo.js';

/** Register both elements; returns { heatmap, demo } (the constructors). Idempotent. */
export function define({ heatmapTag = 'attn-heatmap', demoTag = 'attn-demo', registry = customElements } = {}) {
  const heatmap = defineHeatmap(heatmapTag, registry);
  const demo = defineDemo(demoTag, registry);
  return { heatmap, demo };
}

export { AttentionHeatmap } from './elements/attention-heatmap.js';
export { AttnDemo } from './elements/attn-demo.js';
