// design.js: the design tokens and the form controls' one look, for the shadow roots of the
// page's elements (<attn-demo>'s chrome and views, <attn-heatmap>'s toolbar, <attn-lab>).
//
//   import { TOKENS_STYLE, CONTROL_STYLE } from '../shared/design.js';
//   root.append(el('style', { text: `${TOKENS_STYLE}${CONTROL_STYLE}...` }));
//
// The page (web/style.css) sets the same tokens on :root and the same control rules on its light
// DOM; docs/design.md lists the names. In a shadow root the tokens are set on :host from the
// element's own --attn-demo-* properties when a host page sets them (the documented theming
// hooks), else from the light or dark defaults, so an embed on a page without style.css looks
// the same. Every rule reads a token with a fallback, so CONTROL_STYLE also works alone (the
// heatmap's shadow root inherits the tokens from its host).
// Deliberately CSS only: no DOM and no colours computed at run time.

/** [name, light, dark, themed-by] for the colour tokens. */
const COLOURS = [
  ['bg', '#f6f7fb', '#121216', null],
  ['surface', '#ffffff', '#1b1c23', '--attn-demo-surface'],
  ['fg', '#17181f', '#e8e9f0', null],
  ['muted', '#5a5d6e', '#a6a9ba', '--attn-demo-muted'],
  ['line', '#d3d6e2', '#3a3c4a', '--attn-demo-border'],
  ['accent', '#3451a3', '#9bb4ff', '--attn-demo-accent'],
  ['focus', '#1565e0', '#8ab4ff', null],
  ['a', '#2563eb', '#6ea8fe', null],
  ['b', '#d9480f', '#ff9f5a', null],
  ['pos', '#1a7f37', '#5bd17a', null],
  ['neg', '#c92a2a', '#ff7b7b', null],
  ['attn', '#21918c', '#35b779', null],
  ['warn', '#9a5b00', '#f0b35a', null],
];

/** The token values for one scheme, as declarations. */
function colours(scheme) {
  return COLOURS.map(([name, light, dark, hook]) => {
    const value = scheme === 'dark' ? dark : light;
    return `--al-${name}: ${hook ? `var(${hook}, ${value})` : value};`;
  }).join(' ');
}

/** The tokens on :host, light and dark (docs/design.md). */
export const TOKENS_STYLE = `
:host { ${colours('light')}
  --al-font: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", sans-serif;
  --al-mono: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace;
  --al-text-xs: 0.75rem; --al-text-sm: 0.875rem; --al-text-md: 1rem; --al-text-lg: 1.25rem; --al-text-xl: 1.5rem;
  --al-space-1: 4px; --al-space-2: 8px; --al-space-3: 12px; --al-space-4: 16px; --al-space-5: 24px; --al-space-6: 32px;
  --al-radius: 6px; --al-control-h: 2rem; }
@media (prefers-color-scheme: dark) { :host { ${colours('dark')} } }
`;

/** The form controls (button, select, text and number inputs, textarea, checkbox and radio,
 * range), keyboard focus, and the "why?" toggle (a <details class="why">). */
export const CONTROL_STYLE = `
button, select, input, textarea { font: inherit; font-size: var(--al-text-sm, 0.875rem); color: var(--al-fg, CanvasText); }
button, select, input[type="text"], input[type="number"], input[type="search"], input[type="url"], textarea {
  min-height: var(--al-control-h, 2rem); border: 1px solid var(--al-line, #d3d6e2); border-radius: var(--al-radius, 6px);
  background-color: var(--al-surface, Canvas); }
button { padding: 0 var(--al-space-3, 12px); font-weight: 600; cursor: pointer;
  background-image: linear-gradient(color-mix(in srgb, var(--al-fg, CanvasText) 4%, transparent), transparent); }
button:hover:not(:disabled) { border-color: var(--al-accent, #3451a3);
  background-color: color-mix(in srgb, var(--al-accent, #3451a3) 8%, var(--al-surface, Canvas)); }
button:active:not(:disabled) { background-color: color-mix(in srgb, var(--al-accent, #3451a3) 16%, var(--al-surface, Canvas)); }
button:disabled { opacity: 0.5; cursor: default; }
button[aria-pressed="true"], button[aria-pressed="true"]:hover:not(:disabled),
button[aria-pressed="true"]:active:not(:disabled), button[role="tab"][aria-selected="true"] { color: var(--al-surface, Canvas);
  background: var(--al-accent, #3451a3); border-color: var(--al-accent, #3451a3); }
input[type="text"], input[type="number"], input[type="search"], input[type="url"] { padding: 0 var(--al-space-2, 8px); }
textarea { padding: var(--al-space-1, 4px) var(--al-space-2, 8px); font-family: var(--al-mono, monospace); }
select { appearance: none; max-width: 100%; padding: 0 1.75rem 0 var(--al-space-2, 8px); text-overflow: ellipsis; cursor: pointer;
  background-image: linear-gradient(45deg, transparent 50%, currentColor 50%), linear-gradient(135deg, currentColor 50%, transparent 50%);
  background-position: right 0.85rem center, right 0.55rem center; background-size: 0.3rem 0.3rem; background-repeat: no-repeat; }
select:hover, input[type="text"]:hover, input[type="number"]:hover, textarea:hover { border-color: var(--al-muted, GrayText); }
input[type="checkbox"], input[type="radio"] { appearance: none; flex: none; display: inline-grid; place-content: center;
  width: 1.125rem; height: 1.125rem; margin: 0; border: 1.5px solid var(--al-muted, GrayText); border-radius: 4px;
  background: var(--al-surface, Canvas); vertical-align: -0.2em; cursor: pointer; }
input[type="radio"] { border-radius: 50%; }
input[type="checkbox"]::before, input[type="radio"]::before { content: ""; width: 0.65rem; height: 0.65rem;
  background: var(--al-surface, Canvas); transform: scale(0);
  clip-path: polygon(14% 44%, 0 65%, 50% 100%, 100% 16%, 80% 0%, 43% 62%); }
input[type="radio"]::before { width: 0.5rem; height: 0.5rem; clip-path: circle(50%); }
input[type="checkbox"]:checked, input[type="radio"]:checked { background: var(--al-accent, #3451a3); border-color: var(--al-accent, #3451a3); }
input[type="checkbox"]:checked::before, input[type="radio"]:checked::before { transform: scale(1); }
input[type="range"] { appearance: none; height: var(--al-control-h, 2rem); margin: 0; background: transparent; cursor: pointer; }
input[type="range"]::-webkit-slider-runnable-track { height: 6px; border-radius: 3px;
  background: color-mix(in srgb, var(--al-accent, #3451a3) 28%, var(--al-line, #d3d6e2)); }
input[type="range"]::-webkit-slider-thumb { appearance: none; width: 1.125rem; height: 1.125rem; margin-top: calc(3px - 0.5625rem);
  border: 2px solid var(--al-surface, Canvas); border-radius: 50%; background: var(--al-accent, #3451a3);
  box-shadow: 0 0 0 1px var(--al-accent, #3451a3); }
input[type="range"]::-moz-range-track { height: 6px; border-radius: 3px;
  background: color-mix(in srgb, var(--al-accent, #3451a3) 28%, var(--al-line, #d3d6e2)); }
input[type="range"]::-moz-range-thumb { width: 1rem; height: 1rem; border: 2px solid var(--al-surface, Canvas); border-radius: 50%;
  background: var(--al-accent, #3451a3); }
input:disabled, select:disabled, textarea:disabled { opacity: 0.55; cursor: default; }
:focus-visible { outline: 2px solid var(--al-focus, Highlight); outline-offset: 2px; }
input[type="text"]:focus-visible, input[type="number"]:focus-visible, textarea:focus-visible, select:focus-visible {
  outline-offset: 0; border-color: var(--al-focus, Highlight); }
summary { cursor: pointer; }
details.why { font-size: var(--al-text-sm, 0.875rem); }
details.why > summary { display: inline-flex; align-items: center; gap: var(--al-space-1, 4px); padding: 0 var(--al-space-2, 8px);
  min-height: 1.5rem; border: 1px solid var(--al-line, #d3d6e2); border-radius: 999px; color: var(--al-accent, #3451a3);
  font-weight: 600; list-style: none; }
details.why > summary::-webkit-details-marker { display: none; }
details.why > summary::before { content: "?"; display: inline-grid; place-items: center; width: 1rem; height: 1rem;
  border-radius: 50%; background: var(--al-accent, #3451a3); color: var(--al-surface, Canvas); font-size: var(--al-text-xs, 0.75rem); }
details.why[open] > summary { background: color-mix(in srgb, var(--al-accent, #3451a3) 10%, var(--al-surface, Canvas)); }
details.why > :not(summary) { margin: var(--al-space-1, 4px) 0 0; }
`;
