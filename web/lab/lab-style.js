// lab-style.js: the stylesheet of <attn-lab>'s shadow root: the form's grid, the two runs' panels
// (A solid, B dashed), the sticky controls bar, the charts and the maps, narrow layouts by
// container query. Custom properties (--attn-lab-surface, --attn-lab-border, --attn-lab-muted,
// --attn-lab-error-bg, ...) let a host page theme it.
//
//   root.append(el('style', { text: STYLE }), ...);
//
// Deliberately CSS only: no DOM, no colours computed at run time (lab-paint.js reads the custom
// properties when it draws the charts). The controls' look and the design tokens are
// web/shared/design.js's, as in every shadow root of the page.

import { CONTROL_STYLE, TOKENS_STYLE } from '../shared/design.js';
import { CHART_HEIGHT, COLORS } from './lab-constants.js';

export const STYLE = `${TOKENS_STYLE}${CONTROL_STYLE}
:host { display: block; font: inherit; color: inherit; container-type: inline-size;
  --lab-a: ${COLORS.a}; --lab-b: ${COLORS.b}; }
:host([hidden]) { display: none; }
[hidden] { display: none !important; }
* { box-sizing: border-box; }
h3 { font-size: 1rem; margin: 0 0 0.25rem; }
fieldset { border: 1px solid var(--attn-lab-border, #d6d6df); border-radius: 8px; margin: 0 0 0.75rem; padding: 0.5rem 0.75rem 0.75rem; min-width: 0; }
legend { font-weight: 700; padding: 0 0.25rem; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr)); gap: 0.4rem 0.75rem; }
.field { display: flex; flex-direction: column; gap: 0.1rem; min-width: 0; }
.field.check { flex-direction: row; align-items: center; gap: 0.4rem; align-self: end; min-height: 2rem; }
label { font-size: 0.875rem; font-weight: 600; }
select, input, button, textarea { font: inherit; min-height: 2rem; max-width: 100%; }
input[type="number"] { width: 100%; }
textarea { width: 100%; min-height: 6rem; font-family: ui-monospace, monospace; font-size: 0.875rem; }
.presets, .buttons { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; }
.presets { margin-bottom: 0.75rem; }
.files { margin-top: 0.5rem; align-items: end; }
.runs { display: grid; grid-template-columns: 1fr 1fr; gap: 0 0.75rem; }
@container (max-width: 700px) { .runs { grid-template-columns: 1fr; } }
fieldset.run-a { border-left: 4px solid var(--lab-a); }
fieldset.run-b { border-left: 4px dashed var(--lab-b); }
.sub { font-size: 0.875rem; font-weight: 700; margin: 0.6rem 0 0.2rem; }
.about { margin: 0.5rem 0 0; font-size: 0.9rem; }
.params { font-weight: 600; }
.equation { font-family: "Cambria Math", "STIX Two Math", serif; font-size: 1.05rem; margin: 0.2rem 0; overflow-wrap: anywhere; }
.cite, .hint, .note, .status, .refused { color: var(--attn-lab-muted, GrayText); font-size: 0.85rem; margin: 0.2rem 0; }
.note, .stats p, .example, .problem, .error { overflow-wrap: anywhere; }
.error, .problem { padding: 0.4rem 0.6rem; border-radius: 6px; background: var(--attn-lab-error-bg, #fdecea);
  color: var(--attn-lab-error-text, #8c1d18); margin: 0.4rem 0; }
.drop { border: 2px dashed var(--attn-lab-border, #d6d6df); border-radius: 8px; padding: 0.5rem; }
.drop.over { border-color: var(--lab-a); }
.controls { position: sticky; top: 0; z-index: 2; background: var(--attn-lab-surface, Canvas);
  padding: 0.4rem 0; border-bottom: 1px solid var(--attn-lab-border, #d6d6df); margin-bottom: 0.75rem; }
.controls button.primary { font-weight: 700; min-width: 6rem; }
.stats { display: grid; grid-template-columns: 1fr 1fr; gap: 0.25rem 0.75rem; font-size: 0.875rem; margin: 0.3rem 0 0; font-variant-numeric: tabular-nums; }
@container (max-width: 480px) { .stats { grid-template-columns: 1fr; } }
.resume { margin-top: 0.4rem; padding: 0.4rem 0.6rem; border-radius: 6px; background: var(--attn-lab-note-bg, #eef2fb); font-size: 0.9rem; }
.stat-a { border-left: 4px solid var(--lab-a); padding-left: 0.4rem; }
.stat-b { border-left: 4px dashed var(--lab-b); padding-left: 0.4rem; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 20rem), 1fr)); gap: 0.75rem; }
figure { margin: 0; min-width: 0; }
figcaption { font-size: 0.875rem; font-weight: 600; margin-bottom: 0.2rem; }
canvas.chart { display: block; width: 100%; height: ${CHART_HEIGHT}px; }
.maps { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 16rem), 1fr)); gap: 0.75rem; margin-top: 0.75rem; }
attn-heatmap { min-width: 0; max-width: 100%; --attn-heatmap-background: var(--attn-lab-surface, Canvas); }
.example { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
`;
