// attention-heatmap.js: the documented URL of <attn-heatmap> (web/attention-heatmap.js), kept for
// pages that import it from here; the element lives in elements/attention-heatmap.js.
//
//   import { define } from '/path/to/attnlab/web/attention-heatmap.js';   define();
//
// Deliberately only re-exports: one class, whichever URL a page imports it by.

export { AttentionHeatmap, define } from './elements/attention-heatmap.js';
