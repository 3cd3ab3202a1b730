// lab-style.js: the stylesheet of <attn-lab>'s shadow root: one screen, as TensorFlow Playground
// is. Wide (a container of 60rem or more): the task and the presets on top, then three columns,
// A | the middle (Start, the charts, A − B) | B, each run's settings in a disclosure (open, it
// widens its column, so every select shows its whole choice: tests/browser/selects.test.js); middling:
// the middle, then A and B side by side; narrow (a phone): one column, Start and the charts first.
// The runs' panels: A solid, B dashed. Colours, type and spacing are the shared design tokens
// (--al-*, web/style.css) with fallbacks; the lab's own custom properties (--attn-lab-surface,
// --attn-lab-border, --attn-lab-muted, --attn-lab-error-bg, ...) still let a host page theme it.
// --lab-map-grid: how tall (px) an attention map's cells may be in all, so it stays on screen.
//
//   root.append(el('style', { text: STYLE }), ...);
//
// Deliberately CSS only: no DOM, no colours computed at run time (lab-paint.js reads the custom
// properties when it draws the charts, and --lab-map-grid when it sizes the maps). The
// controls' look and the design tokens are web/shared/design.js's, as in every shadow root.

import { CONTROL_STYLE, TOKENS_STYLE } from '../shared/design.js';
import { CHART_HEIGHT, COLORS } from './lab-constants.js';

const LINE = 'var(--attn-lab-border, var(--al-line, #d6d6df))';
const MUTED = 'var(--attn-lab-muted, var(--al-muted, GrayText))';
const SURFACE = 'var(--attn-lab-surface, var(--al-surface, Canvas))';
const SM = 'var(--al-text-sm, 0.8125rem)';
const XS = 'var(--al-text-xs, 0.75rem)';
const S1 = 'var(--al-space-1, 0.25rem)';
const S2 = 'var(--al-space-2, 0.5rem)';
const S3 = 'var(--al-space-3, 0.75rem)';
const RADIUS = 'var(--al-radius, 8px)';
const FOCUS = 'var(--al-focus, var(--al-accent, Highlight))';

export const STYLE = `${TOKENS_STYLE}${CONTROL_STYLE}
:host { display: block; font: inherit; color: inherit; container-type: inline-size;
  --lab-a: var(--al-a, ${COLORS.a}); --lab-b: var(--al-b, ${COLORS.b}); --lab-map-grid: 180px; }
:host([hidden]) { display: none; }
[hidden] { display: none !important; }
* { box-sizing: border-box; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0;
  overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0; }
h3 { font-size: var(--al-text-md, 1rem); margin: 0; }
fieldset { border: 1px solid ${LINE}; border-radius: ${RADIUS}; margin: 0; padding: ${S1} ${S2} ${S2}; min-width: 0; }
legend { font-weight: 700; padding: 0 ${S1}; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr)); gap: 0.4rem ${S3}; }
.field { display: flex; flex-direction: column; gap: 0.1rem; min-width: 0; }
/* a field whose options are long (the attention's, the decoder style's) takes the grid's whole row,
   so its select shows its whole choice (tests/browser/selects.test.js) */
.grid > .field.wide { grid-column: 1 / -1; }
.buttons > .field.wide { flex: 1 1 auto; }
.field.check { flex-direction: row; align-items: center; gap: 0.4rem; align-self: end; min-height: var(--al-control-h, 2rem); }
label { font-size: ${SM}; font-weight: 600; }
select, input, button, textarea { font: inherit; min-height: var(--al-control-h, 2rem); max-width: 100%; }
input[type="number"] { width: 100%; }
textarea { width: 100%; min-height: 6rem; font-family: var(--al-mono, ui-monospace, monospace); font-size: ${SM}; }
.presets, .buttons { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; }
summary { cursor: pointer; border-radius: 4px; }
summary:focus-visible, button:focus-visible { outline: 2px solid ${FOCUS}; outline-offset: 2px; }
.sub { font-size: ${SM}; font-weight: 700; margin: 0.6rem 0 0.2rem; }
.about { margin: ${S2} 0 0; font-size: 0.9rem; }
.params { font-weight: 600; font-size: ${SM}; margin: 0.2rem 0; }
.params .equal { font-weight: 400; color: ${MUTED}; }
.equation { font-family: "Cambria Math", "STIX Two Math", serif; font-size: 1.05rem; margin: 0.2rem 0; overflow-wrap: anywhere; }
.cite, .hint, .note, .status, .refused { color: ${MUTED}; font-size: ${SM}; margin: 0.2rem 0; }
.reading progress { display: block; width: 100%; }
.note, .live p, .example, .problem, .error { overflow-wrap: anywhere; }
.error, .problem { padding: 0.4rem 0.6rem; border-radius: 6px; background: var(--attn-lab-error-bg, #fdecea);
  color: var(--attn-lab-error-text, var(--al-neg, #8c1d18)); margin: 0.4rem 0; }
.drop { border: 2px dashed ${LINE}; border-radius: ${RADIUS}; padding: ${S2}; margin-top: ${S2}; }
.drop.over { border-color: var(--lab-a); }
.files { margin-top: ${S2}; align-items: end; }

/* The layout: one column (a phone), the middle first after the task's summary. */
.lab { display: grid; gap: ${S3}; grid-template-columns: minmax(0, 1fr);
  grid-template-areas: "top" "mid" "a" "b" "refused"; align-items: start; }
.top { grid-area: top; } .mid { grid-area: mid; min-width: 0; } .run-a { grid-area: a; }
.run-b { grid-area: b; } .refused { grid-area: refused; }

/* Top: the task's one-line summary (its about line), the presets, the task's fields in a row. */
.top { border-bottom: 1px solid ${LINE}; padding-bottom: ${S2}; }
.top > summary { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 ${S2}; padding: 0.1rem 0; }
.top > summary::before { content: "▸"; color: ${MUTED}; }
.top[open] > summary::before { content: "▾"; }
.top > summary::-webkit-details-marker { display: none; }
.top > summary { list-style: none; }
.top-title { font-weight: 700; }
.top-about { margin: 0; }
.preset-box { display: flex; flex-wrap: wrap; align-items: center; gap: ${S1} ${S2}; margin: ${S1} 0; }
.preset-box h3 { font-size: ${SM}; }
.presets button { font-size: ${SM}; min-height: 1.75rem; padding: 0.1rem 0.55rem; }
.task-row { display: grid; grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr)); gap: ${S1} ${S3}; }

/* The middle: the controls bar (sticky while a long page scrolls), the charts, the attention row. */
.controls { position: sticky; top: 0; z-index: 2; background: ${SURFACE}; padding: 0 0 ${S1}; }
.controls button.primary { font-weight: 700; min-width: 6rem; }
.controls .status { margin: 0; }
.controls .warn { margin: ${S1} 0 0; padding: 0.3rem 0.6rem; border-left: 3px solid var(--attn-lab-error-text, var(--al-neg, #8c1d18));
  font-size: ${SM}; font-weight: 600; overflow-wrap: anywhere; }
.resume { margin-top: 0.4rem; padding: 0.4rem 0.6rem; border-radius: 6px; background: var(--attn-lab-note-bg, #eef2fb); font-size: 0.9rem; }
@media (prefers-color-scheme: dark) {
  .resume { background: var(--attn-lab-note-bg, #1e2a44); }
  .error, .problem { background: var(--attn-lab-error-bg, #3b1412); color: var(--attn-lab-error-text, #ffb4ab); }
}
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 13rem), 1fr)); gap: ${S2} ${S3}; }
figure { margin: 0; min-width: 0; }
.charts figure { display: flex; flex-direction: column; }
.charts canvas.chart { margin-top: auto; }
figcaption { font-size: ${SM}; font-weight: 600; margin-bottom: 0.1rem; line-height: 1.3; }
.caption-row { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: 0 ${S2}; }
.caption-row .field.check { min-height: 0; align-self: auto; }
.caption-row label { font-size: ${XS}; font-weight: 400; }
.caption-row input { min-height: 0; margin: 0; }
canvas.chart { display: block; width: 100%; height: ${CHART_HEIGHT - 60}px; }
.attention { display: flex; flex-wrap: wrap; gap: ${S1} ${S3}; margin-top: ${S2}; align-items: flex-start; }
.attention-text { flex: 1 1 14rem; min-width: 0; }
.attention-text h3 { font-size: ${SM}; }
.map-diff { flex: 1 1 20rem; --lab-map-grid: 120px; }
.example { font-family: var(--al-mono, ui-monospace, monospace); font-size: ${XS}; }
.map-note { font-size: ${XS}; margin: 0; }
attn-heatmap { min-width: 0; max-width: 100%; margin: 0; --attn-heatmap-background: ${SURFACE}; }

/* A and B: compact columns; the settings in a disclosure, whose closed summary says what they are. */
fieldset.run-a { border-left: 4px solid var(--lab-a); }
fieldset.run-b { border-left: 4px dashed var(--lab-b); }
.live p { font-size: ${SM}; margin: 0.1rem 0; font-variant-numeric: tabular-nums; }
.settings { margin: ${S1} 0; }
.settings > summary { display: flex; flex-direction: column; gap: 0.1rem; padding: 0.2rem 0.35rem;
  border: 1px solid ${LINE}; border-radius: 6px; list-style: none; }
.settings > summary::-webkit-details-marker { display: none; }
.settings-title { font-weight: 600; font-size: ${SM}; }
.settings-title::before { content: "▸ "; color: ${MUTED}; }
.settings[open] .settings-title::before { content: "▾ "; }
.settings-summary { font-size: ${XS}; color: ${MUTED}; line-height: 1.35; }
.settings[open] .settings-summary { display: none; }
.run .map { margin-top: ${S1}; }

/* Middling (a tablet, a narrow column of a course page): the middle, then A and B side by side. */
@container (min-width: 40rem) {
  .lab { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
    grid-template-areas: "top top" "mid mid" "a b" "refused refused"; }
  .task-row .field { flex-direction: row; align-items: center; gap: 0.35rem; }
  .task-row { display: flex; flex-wrap: wrap; }
  .task-row input[type="number"] { width: 4.5rem; }
}

/* Wide: A | middle | B on one screen; each column's map no taller than --lab-map-grid, its
   heatmap's export buttons shown over its legend on hover or keyboard focus. */
@container (min-width: 60rem) {
  .lab { --col-a: 15rem; --col-b: 15rem;
    grid-template-columns: minmax(12rem, var(--col-a)) minmax(0, 1fr) minmax(12rem, var(--col-b));
    grid-template-areas: "top top top" "a mid b" "refused refused refused"; column-gap: ${S3}; row-gap: ${S2}; }
  .lab { --lab-map-grid: 100px; }
  /* a run's open settings widen its column, so its selects show their whole choice */
  .lab:has(.run-a .settings[open]) { --col-a: 21rem; }
  .lab:has(.run-b .settings[open]) { --col-b: 21rem; }
  .run .grid { grid-template-columns: repeat(auto-fill, minmax(6.5rem, 1fr)); }
  canvas.chart { height: 140px; }
  .map:has(attn-heatmap:not([hidden])) .map-note { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 1; overflow: hidden; }
  .map-diff { --lab-map-grid: 80px; display: flex; align-items: flex-start; gap: 0 var(--al-space-2, 0.5rem); }
  .map.map-diff:has(attn-heatmap:not([hidden])) .map-note { order: 2; flex: 1 1 8rem; display: block; }
  .map-diff attn-heatmap { flex: 0 1 auto; }
  .map attn-heatmap::part(controls) { position: absolute; left: 0; right: 0; bottom: 0; margin: 0;
    background: ${SURFACE}; opacity: 0; pointer-events: none; }
  .map attn-heatmap:hover::part(controls), .map attn-heatmap:focus-within::part(controls) {
    opacity: 1; pointer-events: auto; }
}
`;
