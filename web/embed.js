// embed.js: the embeddable elements, <attn-heatmap>, <attn-demo> and <attn-lab>, for any page.
//
//   <script type="module">
//     import { define } from '/path/to/attnlab/web/embed.js';
//     define();                      // registers <attn-heatmap>, <attn-demo> and <attn-lab>
//   </script>
//   <attn-demo model="dates-additive" view="alignment" input="22 Nov 2026"></attn-demo>
//   <attn-lab preset="with-without"></attn-lab>
//
// Importing has no side effects: nothing is registered until define() is called (pass other
// tag names, or another registry, to avoid clashes). <attn-demo> loads the wasm and its model
// itself, from beside this file, and disposes the model when it is removed from the document.
// Or embed web/embed.html in an iframe (state in its query string; works sandboxed).
// <attn-lab> loads its code (web/lab/*, the training workers) only when define() registers it:
// its module is imported dynamically, so a page of <attn-demo>s downloads none of it.

import { define as defineHeatmap } from './elements/attention-heatmap.js';
import { define as defineDemo } from './elements/attn-demo.js';
import { define as defineLab } from './elements/attn-lab.js';

/** Register the elements; returns { heatmap, demo, lab } (the constructors). Idempotent. */
export function define({
  heatmapTag = 'attn-heatmap',
  demoTag = 'attn-demo',
  labTag = 'attn-lab',
  registry = customElements,
} = {}) {
  const heatmap = defineHeatmap(heatmapTag, registry);
  const demo = defineDemo(demoTag, registry);
  const lab = defineLab(labTag, registry);
  return { heatmap, demo, lab };
}

export { AttentionHeatmap } from './elements/attention-heatmap.js';
export { AttnDemo } from './elements/attn-demo.js';
export { AttnLab } from './elements/attn-lab.js';
