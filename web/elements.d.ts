// Types of web/elements.js (`attnlab/elements`): web/embed.js's exports, registered on import.
// The declarations, and the HTMLElementTagNameMap entries for <attn-demo> and <attn-heatmap>,
// are in embed.d.ts.

export * from './embed.js';
