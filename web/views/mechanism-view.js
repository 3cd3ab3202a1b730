// mechanism-view.js: the Mechanism view of <attn-demo> (issue 29): the lecture's diagram of the
// current model, drawn from its real numbers for the typed input (the states API, docs/states.md),
// one step at a time, beside the equations filled with those numbers.
//
//   <attn-demo view="mechanism" model="dates-additive" input="22 Nov 2026" step="3"></attn-demo>
//   view.update(ctx);   // from <attn-demo>: runs ctx.model with { states: true }, draws ctx.state.step
//
// Shows, per family (mechanism/<family>.js draws each; docs/mechanism.md): an encoder–decoder's
// scores, softmax, context and decoder at output step t (or, without attention, the bottleneck);
// a memory RNN reading word t; a pooling classifier's scores, weights and r at word t (HAN:
// sentence t; structured: hop t); a transformer sublayer's Q, K, V, QKᵀ/√d_k, softmax, ×V, heads,
// W_O and the residual at query row t (layer, head and kind: encoder, decoder or cross).
// Stepping: back, play / pause, step, a slider, ← → Home End on the picture; each move is told to
// the host (view-change { step }) so the URL keeps it. Pointing (hover, tap, keyboard focus) at a
// drawn element shows its numbers in the readout and lights its line in the equation panel;
// pointing at a line lights its stage in the picture (the reverse).
// Holds: the view's DOM, stepping and the linking of picture and equations. Deliberately holds no
// layout of any family (mechanism/*.js), no model call beyond runInput and no strings (i18n.js).

import { t } from '../shared/i18n.js';
import { OutputConfidence, thresholdOf } from '../shared/output-confidence.js';
import { el, equationEl } from '../shared/view-kit.js';
import {
  FAMILY_DRAWINGS,
  familyOfModel,
  textFor,
  transformerStates,
} from './mechanism/families.js';
import { elapsed, emit, runInput } from './view-context.js';

const STEP_MS = 900; // play speed: one step per STEP_MS

export class MechanismView {
  node = el('section', { class: 'mechanism', 'data-view': 'mechanism' });
  #ui = {};
  #key = '';
  #data = null;
  #family = null;
  #fam = null;
  #step = 0;
  #count = 0;
  #lang = 'en';
  #timer = 0;
  #lit = null; // { stage, index } pointed at
  #confidence = new OutputConfidence(); // the "may be wrong" warning of a written output (issue 30)

  constructor() {
    const u = this.#ui;
    const button = (cls, onClick) => {
      const b = el('button', { type: 'button', class: cls });
      b.addEventListener('click', onClick);
      return b;
    };
    u.back = button('mech-back', () => this.#moveTo(0, true));
    u.prev = button('mech-prev', () => this.#moveTo(this.#step - 1, true));
    u.play = button('mech-play', () => (this.#timer ? this.pause() : this.play()));
    u.next = button('mech-next', () => this.#moveTo(this.#step + 1, true));
    u.slider = el('input', { type: 'range', min: '0', max: '0', step: '1', class: 'mech-slider' });
    u.slider.addEventListener('input', () => this.#moveTo(Number(u.slider.value), true));
    u.position = el('span', { class: 'mech-position', 'aria-live': 'polite' });
    // transformer: which sublayer and head
    u.kind = el('select', { class: 'mech-kind' });
    u.layer = el('select', { class: 'mech-layer' });
    u.head = el('select', { class: 'mech-head' });
    u.pick = el('span', { class: 'mech-pick' }, [u.kind, u.layer, u.head]);
    u.kind.addEventListener('change', () => this.#choose({ kind: u.kind.value }));
    u.layer.addEventListener('change', () => this.#choose({ layer: Number(u.layer.value) }));
    u.head.addEventListener('change', () => this.#choose({ head: Number(u.head.value) }));
    u.controls = el('div', { class: 'mech-controls' }, [
      u.back,
      u.prev,
      u.play,
      u.next,
      u.slider, // named by its aria-label
      u.position,
      u.pick,
    ]);
    // the picture holds the output too (the token written, the label, the next word's probability)
    u.figure = el('div', { class: 'mech-figure', tabindex: '0', 'data-main': 'picture output' });
    u.title = el('h3', { class: 'mech-eq-title' });
    u.equations = el('ol', { class: 'mech-equations' });
    u.panel = el('aside', { class: 'mech-panel' }, [u.title, u.equations]);
    u.readout = el('p', { class: 'mech-readout', 'aria-live': 'polite' });
    u.say = el('p', { class: 'mech-say' });
    u.main = el('div', { class: 'mech-main' }, [u.controls, u.figure, u.panel, u.readout]);
    // below the picture: the warning must not push the diagram off a projector's first screen
    this.node.append(u.main, this.#confidence.warning, this.#confidence.legend, u.say);
    this.#wire();
  }

  #wire() {
    const u = this.#ui;
    u.figure.addEventListener('keydown', (e) => this.#onKey(e));
    const point = (e) => {
      const target = /** @type {Element} */ (e.target).closest?.('[data-stage]');
      if (!target) return;
      const index = target.getAttribute('data-index');
      this.#light(target.getAttribute('data-stage'), index === null ? null : Number(index), target);
    };
    for (const type of ['pointerover', 'focusin']) {
      u.figure.addEventListener(type, point);
      u.equations.addEventListener(type, point);
    }
    for (const type of ['pointerleave', 'focusout'])
      this.node.addEventListener(type, (e) => {
        const next = /** @type {FocusEvent} */ (e).relatedTarget;
        if (next && this.node.contains(/** @type {Node} */ (next))) return;
        if (type === 'pointerleave' && this.node.contains(this.node.getRootNode().activeElement))
          return;
        this.#light(null, null, null);
      });
  }

  /** ← → Home End on the picture move the step (the slider and selects keep their own keys). */
  #onKey(e) {
    const to = {
      ArrowLeft: this.#step - 1,
      ArrowRight: this.#step + 1,
      Home: 0,
      End: this.#count - 1,
    }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.#moveTo(to, true);
  }

  /** Run the context's model on its input (once per model and input) and draw its step. */
  update(ctx) {
    const s = ctx.state;
    this.#lang = s.lang;
    const model = ctx.model;
    const family = familyOfModel(model);
    const fam = family ? FAMILY_DRAWINGS[family] : null;
    if (!fam) {
      emit(this.node, 'view-blank', t(s.lang, 'mech.unsupported', { name: ctx.name }));
      return emit(this.node, 'view-done', { result: null });
    }
    const text = textFor(family, model, s.input);
    const sel = { layer: s.layer, head: s.head, kind: s.kind };
    const key = [ctx.name, text, JSON.stringify(sel)].join('\u0000');
    let result = this.#data?.result ?? null;
    if (key !== this.#key || this.#data?.model !== model) {
      this.pause();
      result = runInput(this.node, ctx, model, text, { states: true });
      let data = null;
      try {
        if (result && family === 'transformer') result = transformerStates(model, result);
        data = result ? fam.data(result, model, sel) : null;
      } catch (err) {
        emit(this.node, 'view-blank', t(s.lang, 'mech.noStates', { message: err.message }));
        result = null;
      }
      if (!data) {
        this.clear();
        return emit(this.node, 'view-done', { result: null });
      }
      this.#key = key;
      this.#data = { result, model, data };
      this.#family = family;
      this.#fam = fam;
      this.#count = fam.steps(data).length;
    }
    emit(this.node, 'view-error', ctx.refused);
    this.#warn(ctx, text);
    this.#step = clampStep(s.step ?? 0, this.#count);
    this.#texts();
    this.#draw();
    emit(
      this.node,
      'view-status',
      t(s.lang, 'status.mechanism', { n: this.#count, ms: elapsed(ctx).toFixed(1) }),
    );
    const shown = { family, step: this.#step, steps: this.#count };
    emit(this.node, 'view-done', {
      result,
      extra: { shown, output: result.output ?? result.label },
    });
  }

  /** A written output's warning and legend, and the threshold its tokens are shaded against (read
   * on every update: the model's card may land after the run). Classifiers and memory RNNs write
   * no tokens: none. */
  #warn(ctx, text) {
    const { result, model, data } = this.#data;
    if (typeof result.minProb !== 'number' || !result.ids) return this.#confidence.clear();
    data.threshold = thresholdOf(ctx);
    const input = text;
    this.#confidence.show({
      output: null,
      result,
      model,
      input,
      threshold: data.threshold,
      lang: this.#lang,
    });
  }

  /** The heatmaps the host flushes and exports (none: the picture is SVG). */
  get heatmaps() {
    return [];
  }

  /** The current step (0-based) and the number of steps. */
  get step() {
    return this.#step;
  }

  #texts() {
    const u = this.#ui;
    const lang = this.#lang;
    u.back.textContent = t(lang, 'reading.back');
    u.prev.textContent = '◀';
    u.prev.setAttribute('aria-label', t(lang, 'mech.prev'));
    u.next.textContent = '▶';
    u.next.setAttribute('aria-label', t(lang, 'mech.next'));
    u.play.textContent = t(lang, this.#timer ? 'time.pause' : 'time.play');
    u.slider.setAttribute('aria-label', t(lang, 'mech.slider'));
    u.slider.max = String(Math.max(0, this.#count - 1));
    u.figure.setAttribute('aria-description', t(lang, 'mech.keys'));
    u.title.textContent = t(lang, 'mech.equations');
    const tf = this.#family === 'transformer';
    u.pick.hidden = !tf;
    if (tf) this.#fillPick();
  }

  /** The transformer's sublayer (kind), layer and head pickers, from the drawn data. */
  #fillPick() {
    const u = this.#ui;
    const d = this.#data.data;
    const lang = this.#lang;
    const opts = (select, list, value, label) => {
      select.replaceChildren(
        ...list.map((v) => el('option', { value: String(v), text: label(v) })),
      );
      select.value = String(value);
    };
    opts(u.kind, d.kinds, d.kind, (k) => t(lang, `heads.kind.${k}`));
    opts(u.layer, [...Array(d.layers).keys()], d.layer, (l) =>
      t(lang, 'heads.layer', { layer: l + 1 }),
    );
    opts(u.head, [...Array(d.heads).keys()], d.head, (h) => t(lang, 'heads.head', { head: h + 1 }));
    u.kind.hidden = d.kinds.length < 2;
    u.kind.setAttribute('aria-label', t(lang, 'heads.kind'));
    u.layer.setAttribute('aria-label', t(lang, 'mech.layer'));
    u.head.setAttribute('aria-label', t(lang, 'mech.head'));
  }

  #choose(patch) {
    this.pause();
    emit(this.node, 'view-change', { ...patch, step: null });
  }

  /** Draw the current step: the picture, the equations, the position, the sentence. */
  #draw() {
    const u = this.#ui;
    const { data } = this.#data;
    const lang = this.#lang;
    const labels = this.#fam.steps(data);
    const { svg } = this.#fam.draw(data, this.#step, lang);
    // keyboard stepping keeps the focus: on the same part of the new picture, else the picture
    const active = /** @type {Element | null} */ (
      /** @type {ShadowRoot | Document} */ (this.node.getRootNode()).activeElement ?? null
    );
    const had = active && u.figure.contains(active) ? active : null;
    u.figure.replaceChildren(svg);
    if (had) {
      const [st, ix] = [had.getAttribute('data-stage'), had.getAttribute('data-index')];
      const sel = st
        ? `[data-stage="${CSS.escape(st)}"]${ix === null ? '' : `[data-index="${ix}"]`}[tabindex]`
        : null;
      /** @type {HTMLElement | SVGElement} */ (
        (sel && u.figure.querySelector(sel)) || u.figure
      ).focus();
    }
    if (!had) scrollToWeight(u.figure);
    u.figure.dataset.family = this.#family;
    u.figure.dataset.step = String(this.#step);
    u.slider.value = String(this.#step);
    u.position.textContent = t(lang, 'mech.position', {
      t: this.#step + 1,
      n: this.#count,
      label: labels[this.#step] ?? '',
    });
    u.prev.disabled = this.#step <= 0;
    u.next.disabled = this.#step >= this.#count - 1;
    u.back.disabled = this.#step <= 0;
    u.say.textContent = this.#fam.say(data, this.#step, lang);
    const lit = this.#lit;
    this.#equations(lit?.index ?? null);
    if (lit) this.#mark(lit.stage);
    else u.readout.textContent = t(lang, 'mech.point');
  }

  #equations(index) {
    const u = this.#ui;
    const lines = this.#fam.equations(this.#data.data, this.#step, index, this.#lang);
    u.equations.replaceChildren(
      ...lines.map((line) =>
        el('li', { class: 'eq', 'data-stage': line.stage, tabindex: '0' }, [
          equationEl(line.sym, 'span', 'sym'),
          el('span', { class: 'num', text: line.num }),
        ]),
      ),
    );
  }

  /** Light a stage (null: none) in the picture and the panel; index: the position pointed at
   * (fills the equations with its numbers); from: the element pointed at (its numbers read out). */
  #light(stage, index, from) {
    if (!this.#data) return;
    const u = this.#ui;
    const inPanel = !!from && u.equations.contains(from);
    const same = this.#lit?.stage === stage && this.#lit?.index === index;
    this.#lit = stage ? { stage, index } : null;
    if (!inPanel && !same) this.#equations(index);
    this.#mark(stage);
    if (!from) u.readout.textContent = t(this.#lang, 'mech.point');
    else
      u.readout.textContent = inPanel
        ? from.textContent.replace(/\s+/g, ' ')
        : (from.getAttribute('aria-label') ?? '');
    if (from && !inPanel) from.setAttribute('data-pointed', '');
  }

  #mark(stage) {
    const u = this.#ui;
    for (const n of this.node.querySelectorAll('[data-lit], [data-pointed]')) {
      n.removeAttribute('data-lit');
      n.removeAttribute('data-pointed');
    }
    if (!stage) return;
    const sel = `[data-stage="${CSS.escape(stage)}"]`;
    for (const n of u.figure.querySelectorAll(sel)) n.setAttribute('data-lit', '');
    for (const n of u.equations.querySelectorAll(sel)) n.setAttribute('data-lit', '');
  }

  /** Move to step (clamped); fromUser: tell the host (view-change), which redraws through update. */
  #moveTo(step, fromUser) {
    if (!this.#data) return;
    const next = clampStep(step, this.#count);
    if (fromUser && this.#timer && step !== this.#step + 1) this.pause();
    this.#step = next;
    this.#draw();
    if (fromUser) emit(this.node, 'view-change', { step: next });
  }

  /** Step from the current step to the last, one every STEP_MS (from the start when at the end). */
  play() {
    if (!this.#data) return;
    this.pause();
    if (this.#step >= this.#count - 1) this.#moveTo(0, true);
    this.#timer = setInterval(() => {
      if (!this.node.isConnected || this.#step >= this.#count - 1) return this.pause();
      this.#moveTo(this.#step + 1, true);
      if (this.#step >= this.#count - 1) this.pause();
    }, STEP_MS);
    this.#ui.play.textContent = t(this.#lang, 'time.pause');
  }

  /** Stop playing (also when the host changes view or leaves the document). */
  pause() {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = 0;
    this.#ui.play.textContent = t(this.#lang, 'time.play');
  }

  /** Forget the drawn run (the input cannot be run). */
  clear() {
    this.pause();
    this.#data = null;
    this.#key = '';
    this.#lit = null;
    this.#ui.figure.replaceChildren();
    this.#ui.equations.replaceChildren();
    this.#ui.readout.textContent = '';
    this.#ui.say.textContent = '';
    this.#confidence.clear();
  }

  dispose() {
    this.pause();
  }
}

/** A picture wider than its box (a phone) scrolls to where this step attends: its heaviest
 * weight (a transformer: the query row's, centred as a column). */
function scrollToWeight(fig) {
  if (fig.scrollWidth <= fig.clientWidth) return;
  let best = null;
  let max = -Infinity;
  for (const n of fig.querySelectorAll('[data-stage="weight"][data-value]')) {
    const v = Math.max(...n.getAttribute('data-value').split(',').map(Number));
    if (v > max) [max, best] = [v, n];
  }
  if (!best) return;
  const [f, b] = [fig.getBoundingClientRect(), best.getBoundingClientRect()];
  fig.scrollLeft += b.left + b.width / 2 - (f.left + f.width / 2);
}

function clampStep(step, count) {
  const s = Number.isInteger(step) ? step : 0;
  return Math.max(0, Math.min(Math.max(0, count - 1), s));
}

/** The view's styles (added to the shadow root on first use). Colours: the design tokens
 * (notes/tokens.md) with fallbacks. */
export const MECHANISM_STYLE = `
.mechanism { --mech-masked: color-mix(in srgb, var(--al-muted, #6b7280) 35%, transparent); }
.mech-controls { display: flex; flex-wrap: wrap; align-items: center; gap: var(--al-space-1, 4px) var(--al-space-2, 8px); margin: var(--al-space-1, 4px) 0; }
.mech-slider { width: 10rem; max-width: 40vw; }
.mech-position { font-size: var(--al-text-sm, 0.875rem); font-variant-numeric: tabular-nums; }
.mech-pick { display: inline-flex; flex-wrap: wrap; gap: var(--al-space-1, 4px); max-width: 100%; }
.mech-pick select { max-width: 100%; }
/* the picture first: beside it the stepping controls, the equations and the readout (a phone: one column) */
.mech-main { display: grid; grid-template-columns: minmax(0, 5fr) minmax(14rem, 2fr); grid-template-areas: "fig controls" "fig panel" "fig readout" "fig ."; grid-template-rows: auto auto auto 1fr; gap: var(--al-space-2, 8px) var(--al-space-3, 12px); align-items: start; }
.mech-controls { grid-area: controls; margin: 0; }
.mech-figure { grid-area: fig; }
.mech-panel { grid-area: panel; }
.mech-readout { grid-area: readout; }
@container (max-width: 760px) {
  .mech-main { grid-template-columns: minmax(0, 1fr); grid-template-areas: "controls" "fig" "readout" "panel"; grid-template-rows: none; }
  .mech-figure .mech-svg { width: auto; height: auto; max-width: none; max-height: none; } /* its own size: a phone scrolls it sideways rather than shrink its text */
}
.mech-figure { min-width: 0; overflow-x: auto; border: 1px solid var(--al-line, #d6d6df); border-radius: var(--al-radius, 6px); padding: 2px; }
.mech-figure:focus-visible { outline: 2px solid var(--al-focus, Highlight); outline-offset: 2px; }
.mech-svg { display: block; width: 100%; height: auto; max-height: 62vh; font-family: var(--al-font, system-ui, sans-serif); }
.mech-svg text { fill: var(--al-fg, currentColor); font-size: 12px; }
.mech-svg .row-label, .mech-svg .vec-label { font-size: 12px; font-style: italic; fill: var(--al-muted, #6b7280); }
.mech-svg .mnote { font-size: 13px; fill: var(--al-warn, #b45309); }
.mech-svg .tok { font-family: var(--al-mono, ui-monospace, monospace); font-size: 12px; }
.mech-svg .outline, .mech-svg .row-outline { fill: none; stroke: var(--al-line, #9ca3af); stroke-width: 0.6; }
.mech-svg .token rect { fill: var(--al-surface, transparent); stroke: var(--al-line, #9ca3af); }
/* the tokens not reached yet: muted, still readable (a projector, dark mode) */
.mech-svg .token.later text { fill: var(--al-muted, #6b7280); }
.mech-svg .token rect.unsure { fill: rgb(255 153 0); stroke: none; }
.mech-svg .token .below { stroke: currentColor; stroke-width: 2; stroke-dasharray: 2 2; }
.mech-svg .token.current rect:first-child { stroke: var(--al-accent, #2563eb); stroke-width: 2; }
.mech-svg .cell-box { fill: var(--al-surface, transparent); stroke: var(--al-line, #9ca3af); }
.mech-svg .mbar.pos { fill: var(--al-pos, #0f766e); }
.mech-svg .mbar.neg { fill: var(--al-neg, #b91c1c); }
.mech-svg .mbar.weight { fill: var(--al-attn, #7c3aed); }
.mech-svg .bar-value { font-size: 11px; font-variant-numeric: tabular-nums; }
.mech-svg .masked { font-size: 11px; fill: var(--al-muted, #6b7280); }
.mech-svg .link { fill: none; stroke: var(--al-attn, #7c3aed); }
.mech-svg .axis { stroke: var(--al-line, #9ca3af); stroke-width: 0.6; }
.mech-svg .arrow { fill: none; stroke: var(--al-muted, #6b7280); stroke-width: 1.4; }
.mech-svg .arrow.dashed { stroke-dasharray: 4 3; }
.mech-svg .arrow-head { fill: var(--al-muted, #6b7280); }
.mech-svg .window { fill: var(--al-attn, #7c3aed); fill-opacity: 0.07; stroke: var(--al-attn, #7c3aed); stroke-dasharray: 3 3; }
.mech-svg .position { fill: var(--al-accent, #2563eb); }
.mech-svg .head-cols { fill: none; stroke: var(--al-accent, #2563eb); stroke-width: 1.5; stroke-dasharray: 3 2; }
.mech-svg .tok.small { font-size: 9px; }
.mech-svg .current-col { fill: var(--al-accent, #2563eb); fill-opacity: 0.08; }
.mech-svg .stage { cursor: pointer; }
.mech-svg .stage:focus { outline: none; }
.mech-svg [data-lit] .outline, .mech-svg [data-lit].mbar, .mech-svg [data-lit] > rect:first-child,
.mech-svg [data-lit] .row-outline { stroke: var(--al-accent, #2563eb); stroke-width: 1.5; }
.mech-svg [data-lit].link { stroke: var(--al-accent, #2563eb); }
.mech-svg [data-pointed] .outline, .mech-svg [data-pointed].mbar, .mech-svg [data-pointed] .row-outline,
.mech-svg .stage:focus-visible .outline, .mech-svg .stage:focus-visible .row-outline, .mech-svg .stage.mbar:focus-visible {
  stroke: var(--al-focus, #f59e0b); stroke-width: 2.5; }
.mech-svg [data-current] .row-outline { stroke: var(--al-accent, #2563eb); stroke-width: 1.5; }
.mech-panel { min-width: 0; font-size: var(--al-text-sm, 0.875rem); }
.mech-eq-title { font-size: var(--al-text-md, 1rem); margin: 0 0 var(--al-space-1, 4px); }
.mech-equations { list-style: none; padding: 0; margin: 0; display: grid; gap: 2px; }
.mech-equations .eq { display: grid; gap: 1px; padding: 3px 6px; border-left: 3px solid transparent; border-radius: 3px; cursor: pointer; }
.mech-equations .eq[data-lit] { border-left-color: var(--al-accent, #2563eb); background: color-mix(in srgb, var(--al-accent, #2563eb) 10%, transparent); }
.mech-equations .eq:focus-visible { outline: 2px solid var(--al-focus, Highlight); outline-offset: 1px; }
.mech-equations .sym { font-family: "STIX Two Math", "Cambria Math", var(--al-font, serif); }
.mech-equations .num { font-family: var(--al-mono, ui-monospace, monospace); font-size: var(--al-text-xs, 0.75rem); color: var(--al-muted, #4b5563); overflow-wrap: anywhere; }
.mech-readout { min-height: 1.4em; margin: var(--al-space-1, 4px) 0 0; font-family: var(--al-mono, ui-monospace, monospace); font-size: var(--al-text-sm, 0.875rem); overflow-wrap: anywhere; }
.mech-say { margin: var(--al-space-1, 4px) 0; font-size: var(--al-text-sm, 0.875rem); }
`;
