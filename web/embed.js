// embed.js: one <script type="module" src=".../web/embed.js"> to use <attn-heatmap> anywhere.
//
// Registers the element as a side effect; import attention-heatmap.js instead to register it
// yourself (another tag name, a scoped registry) or not at all.

import { define } from './attention-heatmap.js';

define();

export { AttentionHeatmap, define } from './attention-heatmap.js';
