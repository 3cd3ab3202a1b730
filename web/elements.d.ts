// Types of web/elements.js (`attnlab/elements`): web/embed.js's exports, registered on import.
// The declarations, and the HTMLElementTagNameMap entries for <attn-demo>, <attn-heatmap> and <attn-lab>,
// are in embed.d.ts.
// Indices: the layer, head and (reading view) step attributes count from 0, the page's titles from
// 1 ("Layer 2, head 1" is layer="1" head="0"), and the views name the 0-based value beside the
// title; kept 0-based so every existing link and attribute keeps its meaning (docs/view-states.md).

export * from './embed.js';
