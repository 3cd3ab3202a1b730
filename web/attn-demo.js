// attn-demo.js: <attn-demo>, a seq2seq model's attention, live, as one embeddable element.
//
//   import { define } from './embed.js';   define();
//   <attn-demo model="dates-additive" view="alignment" input="22 Nov 2026"></attn-demo>
//
// Attributes (settings): model (a registry name from models.js, or a same-origin
// '/…/*.safetensors' path), view ('alignment', 'time', 'compare' for seq2seq models, 'heads' for
// transformers, 'pooling' for classifiers, 'reading' for memory-RNN language models, 'forgetting'
// for the reversal pair; a model of another family is replaced by the view's
// default, and without an input attribute the model's sample input is used), input (text, at most
// 64 characters), layer, head (integers; clamped to the maps the model has: seq2seq models have
// one), kind (heads view of an encoder-decoder: 'encoder', 'decoder' or 'cross'), step (an
// integer: the reading view's current word, clamped to the sentence, or the number of tokens the
// time view has decoded, at most the whole output; absent: the whole sentence read, none decoded;
// moving the word or stepping sets it, another view, model or input removes it), lang ('en',
// 'zh'), hide (space- or comma-separated: views picker input explain export lang link status card), a,
// b (the two models the compare view subtracts). Every attribute is validated; a refused value
// falls back to the default and says so.
// Properties: state (the current settings, a plain object), timings (ms of each
// inference + redraw, newest last). Methods: whenRendered().
// Events: 'demo-change' (detail: state) when the person using it changes a setting,
// 'demo-render' (detail: { key, ms }) after each drawn view.
//
// Views: alignment (model.run on every edit, batched to one run per animation frame; hovering or
// focusing a cell explains its weight, explain.js), time (model.startDecoding + dec.step(), one
// row per token, as many as the step setting, the local-p window outlined), compare (every listed
// model on the same input, and A − B on a diverging map, B teacher-forced on A's output), heads
// (heads-view.js: every layer and head of a transformer), pooling (pooling-view.js: a
// classifier's pooling weights), reading (reading-view.js: a language model reads word by word),
// forgetting (forgetting-view.js: the length curve, and one input through a model with attention
// and its partner without). Those four modules are imported on first use (LAZY_VIEWS), so the
// first view of a page never waits for them.
//
// Holds: the shadow DOM, the wiring, the model cache (each model disposed when the element leaves
// the document). Deliberately holds no maths (explain.js), no drawing (<attn-heatmap>, draw.js),
// no URL parsing (app-state.js) and no strings (i18n.js). Text from the page, the URL or the model
// is only ever set as textContent or an attribute value, never parsed as HTML.
// Imports the library by a relative path, not 'attnlab', so a host page needs no import map.

import { init, loadModel } from '../wasm/index.js';
import { define as defineHeatmap } from './attention-heatmap.js';
import { HIDE_FLAGS, KINDS, MAX_HEAD, MAX_INPUT, MAX_LAYER, MAX_STEP, VIEWS, cleanInput, formatModelParams, switchView } from './app-state.js';
import { formatValue } from './draw.js';
import { EQUATIONS, SOFTMAX_EQUATION, explainCell, localScoreEquation, rankText, subtractMaps, windowRange } from './explain.js';
import { LANGUAGES, mechanismName, resolveLang, t } from './i18n.js';
import {
  DEFAULT_INPUT, DEFAULT_MODEL, MODELS, ModelUnavailableError, VIEW_FAMILY, defaultModelFor, fetchModel, findModel, modelFitsView,
  cardUrl, modelUrl, modelsFor, resolveModel, sampleFor,
} from './models.js';
import { cardSummary, renderCard } from './model-card.js';
import { VIEW_STYLE, el } from './view-kit.js';

const STEP_MS = 350; // play speed of the time view
/** The architecture each lazily loaded single-model view runs. */
const LAZY_ARCH = Object.freeze({ heads: 'transformer', pooling: 'classifier', reading: 'memory-rnn' });
/**
 * The views in modules of their own, imported on first use so that the first view of a page
 * waits for none of them: each resolves to { view, style } (style: extra CSS for the shadow root).
 */
const LAZY_VIEWS = Object.freeze({
  heads: (host) => import('./heads-view.js').then((m) => ({
    view: new m.HeadsView({
      onSelect: (sel) => host.onSelect(sel),
      onKind: (kind) => host.onKind(kind),
    }),
  })),
  pooling: () => import('./pooling-view.js').then((m) => ({ view: new m.PoolingView() })),
  reading: (host) => import('./reading-view.js').then((m) => ({
    view: new m.ReadingView({ onStep: (step) => host.onStep(step) }),
    style: m.READING_STYLE,
    module: m,
  })),
  forgetting: (host) => import('./forgetting-view.js').then((m) => ({
    view: new m.ForgettingView({ onInput: (text) => host.onInput(text) }),
    style: m.FORGETTING_STYLE,
    module: m,
  })),
});
const MAX_TIMINGS = 2000;
/** Model cards by URL, for every element of the page: a Promise while loading, then a cardSummary() or an Error. */
const CARDS = new Map();

/** A model card's summary, or an Error that names what went wrong (never rejects). */
async function loadCard(url) {
  try {
    const response = await fetch(url);
    if (!response.ok) return new Error(`${url} answered HTTP ${response.status}`);
    return cardSummary(await response.json());
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

const STYLE = `
:host { display: block; font: inherit; color: inherit; container-type: inline-size; }
:host([hidden]) { display: none; }
[hidden] { display: none !important; }
* { box-sizing: border-box; }
.bar { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: end; }
.tabs { display: flex; flex-wrap: wrap; gap: 0.25rem; }
.tabs button[aria-selected="true"] { font-weight: 700; outline: 2px solid var(--attn-demo-accent, Highlight); }
label { font-weight: 600; }
.field { display: flex; flex-direction: column; gap: 0.15rem; min-width: 0; }
select, input, button { font: inherit; min-height: 2rem; max-width: 100%; }
input[type="text"] { width: 100%; padding: 0.25rem 0.4rem; font-family: ui-monospace, monospace; }
.input-row { margin-top: 0.75rem; }
.hint, .status, .note, .honest { color: var(--attn-demo-muted, GrayText); font-size: 0.875rem; margin: 0.25rem 0; }
.error { padding: 0.4rem 0.6rem; border-radius: 6px; background: var(--attn-demo-error-bg, #fdecea);
  color: var(--attn-demo-error-text, #8c1d18); margin: 0.5rem 0; }
.output { font-family: ui-monospace, monospace; font-size: 1.1rem; }
.split { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem; align-items: start; }
@container (max-width: 40rem) { .split { grid-template-columns: minmax(0, 1fr); } }
attn-heatmap { min-width: 0; max-width: 100%; }
.explain { border: 1px solid var(--attn-demo-border, #d6d6df); border-radius: 6px; padding: 0.5rem 0.75rem;
  font-size: 0.875rem; min-width: 0; overflow-wrap: anywhere; }
.explain h3 { font-size: 0.95rem; margin: 0 0 0.25rem; }
.explain .eq { font-family: "STIX Two Math", "Cambria Math", serif; font-size: 1rem; margin: 0.2rem 0; }
.explain dl { display: grid; grid-template-columns: auto auto; gap: 0.1rem 0.75rem; margin: 0.5rem 0; }
.explain dt { color: var(--attn-demo-muted, GrayText); }
.explain dd { margin: 0; font-variant-numeric: tabular-nums; font-family: ui-monospace, monospace; }
.buttons { display: flex; flex-wrap: wrap; gap: 0.25rem; margin: 0.5rem 0; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 0.75rem; }
figure { margin: 0; min-width: 0; }
figcaption { font-size: 0.875rem; overflow-wrap: anywhere; }
figcaption .output { font-size: 0.9rem; }
.pair { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; margin: 0.75rem 0 0.25rem; }
.links { font-size: 0.875rem; margin: 0.5rem 0 0; }
.model-card { font-size: 0.875rem; margin: 0.5rem 0 0; }
.model-card summary { cursor: pointer; }
.model-card dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 0.75rem; margin: 0.5rem 0; }
.model-card dt { font-weight: 600; }
.model-card dd { margin: 0; overflow-wrap: anywhere; }
.model-card ul { margin: 0; padding-left: 1.1rem; }
@container (max-width: 480px) { .model-card dl { grid-template-columns: 1fr; } .model-card dd { margin-bottom: 0.3rem; } }
a { color: var(--attn-demo-accent, LinkText); }
attn-heatmap { --attn-heatmap-background: var(--attn-demo-surface, Canvas); margin-top: 0.25rem; }
:host([data-hide-export]) attn-heatmap::part(toolbar) { display: none; }
:host([data-hide-export]) button[data-action^="download"] { display: none; }
${VIEW_STYLE}`;

/** Parse the hide attribute into a sorted list of known flags. */
function hideFlags(value) {
  const flags = String(value ?? '').split(/[,\s]+/);
  return HIDE_FLAGS.filter((f) => flags.includes(f));
}

function intAttr(value, max) {
  return typeof value === 'string' && /^\d{1,3}$/.test(value) ? Math.min(max, Number(value)) : 0;
}

/** The origin of the page's URL ('null' documents, e.g. sandboxed iframes, still have a URL). */
function pageOrigin() {
  try {
    return new URL(document.baseURI).origin;
  } catch {
    return 'null';
  }
}

export class AttnDemo extends HTMLElement {
  static observedAttributes = ['model', 'view', 'input', 'layer', 'head', 'lang', 'hide', 'a', 'b', 'kind', 'step'];

  #state = { view: 'alignment', model: DEFAULT_MODEL, input: DEFAULT_INPUT, layer: 0, head: 0, lang: 'en', hide: [], a: null, b: null, kind: null, step: null };
  #wrongModel = null; // a model attribute of another family than the view's (replaced, and said so)
  #renderedFamily = null;
  #cardKey = ''; // model and language of the shown model card
  #lazy = {}; // view name -> { view, style, module } once its module has loaded (LAZY_VIEWS)
  #lazyLoading = {}; // view name -> the import's promise
  #lazyError = null;
  #curves = new Map(); // curve URL -> Promise, then { curve } | { error } (the forgetting view)
  #revealHead = false;
  #refused = []; // attribute names whose values were refused
  #ui = {};
  #models = new Map(); // name -> Promise<{ model } | { error }>
  #settled = new Map(); // name -> { model } | { error } once loaded
  #lib = null; // init() result
  #libError = null;
  #frame = 0;
  #waiters = [];
  #active = null; // { row, col } the explanation describes
  #time = null; // { key, decoder, rows: Float32Array[], tokens, positions, done, timer }
  #listeners = null;
  #reflecting = false;
  #renderedLang = null;
  timings = [];

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.#build();
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  connectedCallback() {
    defineHeatmap();
    this.#listeners = new AbortController();
    this.#wire(this.#listeners.signal);
    for (const name of AttnDemo.observedAttributes) this.#readAttribute(name);
    if (!this.#lib && !this.#libError) {
      init().then(
        (lib) => {
          this.#lib = lib;
          this.dataset.simd = String(lib.simd);
          this.#schedule();
        },
        (err) => {
          this.#libError = err;
          this.#schedule();
        },
      );
    }
    this.#schedule();
  }

  disconnectedCallback() {
    this.#listeners?.abort();
    this.#listeners = null;
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#stopTime();
    this.#lazy.reading?.view.pause();
    // Free every model's wasm memory (disposing a model disposes its decoders).
    for (const entry of this.#settled.values()) entry.model?.dispose();
    this.#models.clear();
    this.#settled.clear();
    this.#time = null;
    this.dataset.disposed = 'true';
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (this.#reflecting || oldValue === newValue) return;
    this.#readAttribute(name);
    this.#schedule();
  }

  #readAttribute(name) {
    const value = this.getAttribute(name);
    const s = this.#state;
    this.#refused = this.#refused.filter((k) => k !== name);
    const refuse = () => value !== null && this.#refused.push(name);
    switch (name) {
      case 'model': {
        const entry = value === null ? null : resolveModel(value, pageOrigin());
        s.model = entry ? entry.name : DEFAULT_MODEL;
        if (!entry) refuse();
        break;
      }
      case 'view':
        s.view = VIEWS.includes(value) ? value : 'alignment';
        if (!VIEWS.includes(value)) refuse();
        break;
      case 'input':
        s.input = value === null ? DEFAULT_INPUT : cleanInput(value);
        // Set from outside (the URL, the host page): show it, even in a focused field.
        if (this.#ui.input.value !== s.input) this.#ui.input.value = s.input;
        break;
      case 'layer':
      case 'head':
        s[name] = intAttr(value, name === 'layer' ? MAX_LAYER : MAX_HEAD);
        if (value !== null && !/^\d{1,3}$/.test(value)) refuse();
        break;
      case 'kind':
        s.kind = KINDS.includes(value) ? value : null;
        if (value !== null && !KINDS.includes(value)) refuse();
        break;
      case 'step':
        s.step = value !== null && /^\d{1,3}$/.test(value) ? Math.min(MAX_STEP, Number(value)) : null;
        if (value !== null && s.step === null) refuse();
        break;
      case 'lang':
        s.lang = resolveLang(value ?? document.documentElement.lang);
        break;
      case 'hide':
        s.hide = hideFlags(value);
        break;
      case 'a':
      case 'b': {
        const entry = value === null ? null : resolveModel(value, pageOrigin());
        s[name] = entry ? entry.name : null;
        if (value !== null && !entry) refuse();
        break;
      }
      default:
    }
  }

  /**
   * Before drawing (every attribute read): a model of another family than the view's is replaced
   * by the view's default, and without an input attribute the input is the model's sample.
   */
  #normalize() {
    const s = this.#state;
    // Said for as long as the attribute names another family's model (renders may come later).
    const attr = this.getAttribute('model');
    const named = attr === null ? null : resolveModel(attr, pageOrigin());
    this.#wrongModel = named && !modelFitsView(named.name, s.view) ? named.name : null;
    if (!modelFitsView(s.model, s.view)) s.model = defaultModelFor(s.view);
    if (this.getAttribute('input') === null) {
      s.input = sampleFor(s.model);
      if (this.#ui.input.value !== s.input) this.#ui.input.value = s.input;
    }
  }

  /** The current settings: { view, model, input, layer, head, lang, hide, a, b, kind, step }. */
  get state() {
    return { ...this.#state, hide: [...this.#state.hide] };
  }

  /** Resolves after the next drawn view. */
  whenRendered() {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** A person changed a setting: reflect it to the attribute, announce it, redraw. */
  /** The settings patch for switching to view (switchView: another family's model and input). */
  #switchTo(view) {
    const s = this.#state;
    const next = switchView(s, view);
    const patch = {};
    for (const k of ['view', 'model', 'input', 'layer', 'head', 'kind', 'step']) if (next[k] !== s[k]) patch[k] = next[k];
    return patch;
  }

  #userSet(patch) {
    Object.assign(this.#state, patch);
    if ('input' in patch && this.#ui.input.value !== patch.input) this.#ui.input.value = patch.input;
    this.#reflecting = true;
    try {
      for (const [k, v] of Object.entries(patch)) {
        if (v === null) this.removeAttribute(k);
        else this.setAttribute(k, Array.isArray(v) ? v.join(' ') : String(v));
        this.#refused = this.#refused.filter((r) => r !== k);
      }
    } finally {
      this.#reflecting = false;
    }
    this.dispatchEvent(new CustomEvent('demo-change', { detail: this.state }));
    this.#schedule();
  }

  // ---- DOM -------------------------------------------------------------------------------------

  #build() {
    const ui = this.#ui;
    ui.tabs = el('div', { class: 'tabs', role: 'tablist' });
    ui.tab = {};
    for (const view of VIEWS) {
      ui.tab[view] = el('button', { type: 'button', role: 'tab', 'data-view': view, 'aria-selected': 'false' });
      ui.tabs.append(ui.tab[view]);
    }
    ui.modelLabel = el('label', { for: 'model' });
    ui.model = el('select', { id: 'model' });
    ui.langLabel = el('label', { for: 'lang' });
    ui.lang = el('select', { id: 'lang' });
    for (const lang of LANGUAGES) ui.lang.append(el('option', { value: lang, text: t(lang, 'lang.name') }));
    ui.modelField = el('div', { class: 'field' }, [ui.modelLabel, ui.model]);
    ui.langField = el('div', { class: 'field' }, [ui.langLabel, ui.lang]);
    const bar = el('div', { class: 'bar' }, [ui.tabs, ui.modelField, ui.langField]);

    ui.inputLabel = el('label', { for: 'input' });
    ui.input = el('input', {
      id: 'input', type: 'text', maxlength: String(MAX_INPUT), autocomplete: 'off', spellcheck: 'false',
      autocapitalize: 'off', 'aria-describedby': 'hint',
    });
    ui.hint = el('p', { class: 'hint', id: 'hint' });
    ui.inputRow = el('div', { class: 'field input-row' }, [ui.inputLabel, ui.input, ui.hint]);
    ui.status = el('p', { class: 'status', role: 'status' });
    ui.error = el('p', { class: 'error demo-error', role: 'alert', hidden: '' });

    // Alignment.
    ui.outputLabel = el('span');
    ui.output = el('output', { class: 'output', for: 'input' });
    ui.alignMap = el('attn-heatmap', { class: 'align-map', min: '0' });
    ui.explain = el('aside', { class: 'explain', 'aria-live': 'polite' });
    ui.alignment = el('section', { 'data-view': 'alignment' }, [
      el('p', {}, [ui.outputLabel, ' ', ui.output]),
      el('div', { class: 'split' }, [ui.alignMap, ui.explain]),
    ]);

    // Over time.
    ui.play = el('button', { type: 'button', 'data-action': 'play' });
    ui.pause = el('button', { type: 'button', 'data-action': 'pause' });
    ui.step = el('button', { type: 'button', 'data-action': 'step' });
    ui.reset = el('button', { type: 'button', 'data-action': 'reset' });
    ui.timeStatus = el('p', { class: 'note', 'aria-live': 'polite' });
    ui.timeOutputLabel = el('span');
    ui.timeOutput = el('output', { class: 'output' });
    ui.timeMap = el('attn-heatmap', { class: 'time-map', min: '0', max: '1' });
    ui.time = el('section', { 'data-view': 'time' }, [
      el('div', { class: 'buttons' }, [ui.play, ui.pause, ui.step, ui.reset]),
      ui.timeStatus,
      el('p', {}, [ui.timeOutputLabel, ' ', ui.timeOutput]),
      ui.timeMap,
    ]);

    // Compare.
    ui.compareIntro = el('p', { class: 'note' });
    ui.grid = el('div', { class: 'grid' });
    ui.skipped = el('p', { class: 'note', hidden: '' });
    ui.aLabel = el('label', { for: 'model-a' });
    ui.a = el('select', { id: 'model-a' });
    ui.bLabel = el('label', { for: 'model-b' });
    ui.b = el('select', { id: 'model-b' });
    ui.diffNote = el('p', { class: 'note' });
    ui.diffMap = el('attn-heatmap', { class: 'diff-map', colormap: 'diverging' });
    ui.diffLegend = el('p', { class: 'note' });
    ui.compare = el('section', { 'data-view': 'compare' }, [
      ui.compareIntro,
      ui.grid,
      ui.skipped,
      el('div', { class: 'pair' }, [el('div', { class: 'field' }, [ui.aLabel, ui.a]), el('div', { class: 'field' }, [ui.bLabel, ui.b])]),
      ui.diffNote,
      ui.diffMap,
      ui.diffLegend,
    ]);

    ui.link = el('a', { class: 'link', target: '_blank', rel: 'noopener' });
    ui.links = el('p', { class: 'links' }, [ui.link]);
    ui.card = el('div', { class: 'card-host' });
    // Heads and pooling (their own modules).
    // Views in their own modules (LAZY_VIEWS): an empty host each until its module has loaded.
    for (const view of Object.keys(LAZY_VIEWS)) ui[view] = el('div', { class: 'view-host', 'data-host': view });

    this.shadowRoot.append(
      el('style', { text: STYLE }), bar, ui.inputRow, ui.status, ui.error,
      ui.alignment, ui.time, ui.compare, ...Object.keys(LAZY_VIEWS).map((v) => ui[v]), ui.links, ui.card,
    );
  }

  #wire(signal) {
    const ui = this.#ui;
    const on = (node, type, fn) => node.addEventListener(type, fn, { signal });
    for (const view of VIEWS) on(ui.tab[view], 'click', () => this.#userSet(this.#switchTo(view)));
    on(ui.tabs, 'keydown', (e) => {
      const i = VIEWS.indexOf(this.#state.view);
      const j = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : null;
      if (j === null) return;
      const view = VIEWS[(j + VIEWS.length) % VIEWS.length];
      this.#userSet(this.#switchTo(view));
      ui.tab[view].focus();
    });
    on(ui.model, 'change', () => this.#userSet({ model: ui.model.value, layer: 0, head: 0, kind: null, step: null }));
    on(ui.lang, 'change', () => this.#userSet({ lang: resolveLang(ui.lang.value) }));
    on(ui.input, 'input', () => this.#userSet({ input: cleanInput(ui.input.value), step: null }));
    on(ui.a, 'change', () => this.#userSet({ a: ui.a.value }));
    on(ui.b, 'change', () => this.#userSet({ b: ui.b.value }));
    const activate = (e) => {
      if (e.detail) {
        this.#active = { row: e.detail.row, col: e.detail.col };
        this.#explain();
      }
    };
    on(ui.alignMap, 'heatmap-focus', activate);
    on(ui.alignMap, 'heatmap-hover', activate);
    on(ui.alignMap, 'focusin', () => {
      this.#active = { ...ui.alignMap.focusedCell };
      this.#explain();
    });
    on(ui.play, 'click', () => this.#play());
    on(ui.pause, 'click', () => this.#stopTime());
    on(ui.step, 'click', () => this.#stepOnce());
    on(ui.reset, 'click', () => {
      this.#resetTime();
      this.#userSet({ step: null });
    });
  }

  // ---- models ----------------------------------------------------------------------------------

  /** The settled load of a model ({ model } or { error }), or null while loading (then redraws). */
  #model(name) {
    if (this.#settled.has(name)) return this.#settled.get(name);
    if (!this.#models.has(name)) {
      const entry = resolveModel(name, pageOrigin());
      const promise = (entry ? fetchModel(entry, loadModel) : Promise.reject(new Error(`unknown model ${name}`))).then(
        (model) => ({ model, entry }),
        (error) => ({ error, entry }),
      ).then((result) => {
        if (this.#models.get(name) !== promise) {
          result.model?.dispose(); // the element left the document while this loaded
          return;
        }
        this.#settled.set(name, result);
        this.#schedule();
      });
      this.#models.set(name, promise);
    }
    return null;
  }

  #modelError(name, error) {
    const lang = this.#state.lang;
    if (error instanceof ModelUnavailableError) return t(lang, 'model.missing', { name, url: error.url, status: error.status });
    return t(lang, 'model.failed', { name, message: error?.message ?? String(error) });
  }

  // ---- rendering -------------------------------------------------------------------------------

  #schedule() {
    if (this.#frame || !this.isConnected) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#render();
    });
  }

  #showError(message) {
    this.#ui.error.textContent = message;
    this.#ui.error.hidden = !message;
  }

  #renderChrome() {
    const u = this.#ui;
    const s = this.#state;
    const lang = s.lang;
    const hide = new Set(s.hide);
    if (this.#renderedLang !== lang) {
      this.#renderedLang = lang;
      for (const view of VIEWS) u.tab[view].textContent = t(lang, `view.${view}`);
      u.tabs.setAttribute('aria-label', t(lang, 'view.label'));
      u.modelLabel.textContent = t(lang, 'model.label');
      u.langLabel.textContent = t(lang, 'lang.label');
      u.inputLabel.textContent = t(lang, 'input.label');
      u.input.placeholder = t(lang, 'input.placeholder');
      u.outputLabel.textContent = `${t(lang, 'output.label')}:`;
      u.timeOutputLabel.textContent = `${t(lang, 'output.label')}:`;
      u.play.textContent = t(lang, 'time.play');
      u.pause.textContent = t(lang, 'time.pause');
      u.step.textContent = t(lang, 'time.step');
      u.reset.textContent = t(lang, 'time.reset');
      u.compareIntro.textContent = t(lang, 'compare.intro');
      u.aLabel.textContent = t(lang, 'compare.a');
      u.bLabel.textContent = t(lang, 'compare.b');
      u.diffLegend.textContent = t(lang, 'legend.diverging');
      u.link.textContent = t(lang, 'link.label');
      for (const h of [u.alignMap, u.timeMap, u.diffMap]) h.setAttribute('lang', lang);
      u.alignMap.setAttribute('label', t(lang, 'heatmap.alignment'));
      u.timeMap.setAttribute('label', t(lang, 'heatmap.time'));
      this.#fillModelSelects();
    }
    if (this.#renderedFamily !== VIEW_FAMILY[s.view]) {
      this.#renderedFamily = VIEW_FAMILY[s.view];
      this.#fillModelSelects();
    }
    u.lang.value = lang;
    for (const view of VIEWS) {
      u.tab[view].setAttribute('aria-selected', String(view === s.view));
      u.tab[view].tabIndex = view === s.view ? 0 : -1;
      u[view].hidden = view !== s.view;
    }
    u.tabs.hidden = hide.has('views');
    // compare lists every model; forgetting always runs its pair (reversePair, forgetting-view.js)
    u.modelField.hidden = hide.has('picker') || s.view === 'compare' || s.view === 'forgetting';
    u.langField.hidden = hide.has('lang');
    u.inputRow.hidden = hide.has('input');
    u.explain.hidden = hide.has('explain');
    u.status.hidden = hide.has('status');
    u.links.hidden = hide.has('link');
    this.#renderCard(hide.has('card') || s.view === 'compare');
    this.toggleAttribute('data-hide-export', hide.has('export'));
    if (!u.model.querySelector(`option[value="${CSS.escape(s.model)}"]`)) {
      u.model.append(el('option', { value: s.model, text: s.model })); // a same-origin path
    }
    u.model.value = s.model;
    const tokenizer = this.#settled.get(s.model)?.model?.config.tokenizer;
    const unk = tokenizer?.unk ?? '?';
    const letters = (tokenizer?.srcVocab ?? []).filter((c) => /^\p{Ll}$/u.test(c));
    const symbols = letters.length ? `${letters[0]}–${letters.at(-1)}` : '?';
    const hint = { classifier: 'input.hintWords', 'memory-rnn': 'input.hintReading', reverse: 'input.hintReverse' }[VIEW_FAMILY[s.view]] ?? 'input.hint';
    u.hint.textContent = t(lang, hint, { max: MAX_INPUT, unk, symbols });
    const params = formatModelParams({ ...s, seed: null });
    u.link.href = `${new URL('embed.html', import.meta.url).href}?${params}`;
  }

  /**
   * The current model's card (model-card.js) under the view, once its JSON has loaded; fetched
   * after the first plot (the card never delays a view), once per model and page (CARDS).
   */
  #renderCard(hidden) {
    const u = this.#ui;
    const s = this.#state;
    const entry = findModel(s.model);
    const url = cardUrl(entry);
    u.card.hidden = hidden || !url;
    if (u.card.hidden) return;
    const key = `${s.model}\u0000${s.lang}`;
    if (this.#cardKey === key) return;
    const card = CARDS.get(url);
    if (!card) {
      if (!this.#settled.has(s.model)) return; // after the model (the first plot) has loaded
      CARDS.set(url, loadCard(url).then((c) => CARDS.set(url, c)));
      CARDS.get(url).then(() => this.isConnected && this.#schedule());
      return;
    }
    if (card instanceof Promise) return;
    this.#cardKey = key;
    u.card.replaceChildren(card instanceof Error
      ? el('p', { class: 'note', text: t(s.lang, 'card.unavailable', { message: card.message }) })
      : renderCard(card, s.lang, url));
  }

  #fillModelSelects() {
    const lang = this.#state.lang;
    for (const select of [this.#ui.model, this.#ui.a, this.#ui.b]) {
      const value = select.value;
      const list = select === this.#ui.model ? modelsFor(VIEW_FAMILY[this.#state.view] ?? 'seq2seq') : MODELS;
      select.replaceChildren(
        ...list.map((m) =>
          el('option', { value: m.name, text: m.trained ? m.name : `${m.name} (${t(lang, 'model.untrained')})` }),
        ),
      );
      if (value) select.value = value;
    }
  }

  #render() {
    const t0 = performance.now();
    const s = this.#state;
    const lang = s.lang;
    this.#normalize();
    this.#renderChrome();
    if (s.view !== 'reading') this.#lazy.reading?.view.pause();
    if (this.#libError) {
      this.#showError(t(lang, 'error.wasm', { message: this.#libError.message }));
      return this.#finish(null, t0);
    }
    if (!this.#lib) {
      this.#ui.status.textContent = t(lang, 'status.wasm');
      return;
    }
    const build = t(lang, this.#lib.simd ? 'status.simd' : 'status.scalar');
    let refused = this.#refused.includes('model') ? t(lang, 'model.refused', { value: this.getAttribute('model') }) : '';
    if (this.#wrongModel && !refused) {
      refused = t(lang, 'model.wrongView', { name: this.#wrongModel, family: t(lang, `family.${VIEW_FAMILY[s.view]}`), fallback: s.model });
    }
    if (s.view === 'compare') return this.#renderCompare(t0, build, refused);
    const lazy = this.#lazyView(s.view); // undefined: a view of this file; null: its module is loading
    if (lazy === null) {
      if (this.#lazyError) {
        this.#showError(t(lang, 'model.failed', { name: s.view, message: this.#lazyError.message }));
        return this.#finish(null, t0);
      }
      this.#ui.status.textContent = `${build} ${t(lang, 'model.loading', { name: s.model })}`;
      return;
    }
    if (s.view === 'forgetting') return this.#renderForgetting(lazy.view, lazy.module, t0, build, refused);
    const loaded = this.#model(s.model);
    if (!loaded) {
      this.#ui.status.textContent = `${build} ${t(lang, 'model.loading', { name: s.model })}`;
      return;
    }
    if (loaded.error) {
      this.#showError([refused, this.#modelError(s.model, loaded.error)].filter(Boolean).join(' '));
      this.#ui.alignMap.data = null;
      this.#ui.timeMap.data = null;
      this.#ui.output.textContent = '';
      this.#clearLazy();
      return this.#finish(null, t0);
    }
    if (lazy) {
      const arch = LAZY_ARCH[s.view];
      const model = loaded.model;
      if (model.architecture !== arch || (s.view === 'reading' && model.config.head !== 'lm')) {
        // A same-origin path of another architecture: say so instead of drawing nonsense.
        const what = model.architecture === 'memory-rnn' ? `${model.architecture} ${model.config.head}` : model.architecture;
        this.#showError(t(lang, 'model.wrongArch', { family: t(lang, `family.${VIEW_FAMILY[s.view]}`), name: s.model, arch: what }));
        this.#clearLazy();
        return this.#finish(null, t0);
      }
      if (s.view === 'heads') return this.#renderHeads(lazy.view, model, t0, build, refused);
      if (s.view === 'pooling') return this.#renderPooling(lazy.view, model, t0, build, refused);
      return this.#renderReading(lazy.view, lazy.module, model, t0, build, refused);
    }
    if (s.view === 'time') return this.#renderTime(loaded.model, t0, build, refused);
    return this.#renderAlignment(loaded.model, t0, build, refused);
  }

  // ---- views in their own modules (LAZY_VIEWS: they draw; this runs the models) -----------------

  /** The loaded { view, style, module } of a LAZY_VIEWS view; null while its module loads (then
   * redraws); undefined for the views of this file. */
  #lazyView(name) {
    if (!Object.hasOwn(LAZY_VIEWS, name)) return undefined;
    if (this.#lazy[name]) return this.#lazy[name];
    this.#lazyLoading[name] ??= LAZY_VIEWS[name](this.#lazyHost).then(
      (loaded) => {
        this.#lazy[name] = loaded;
        if (loaded.style) this.shadowRoot.append(el('style', { text: loaded.style }));
        this.#ui[name].append(loaded.view.node);
        this.#schedule();
      },
      (err) => {
        this.#lazyError = err;
        delete this.#lazyLoading[name];
        this.#schedule();
      },
    );
    return null;
  }

  /** What the lazily loaded views may ask of the element. */
  #lazyHost = {
    onSelect: ({ layer, head }) => {
      this.#userSet({ layer, head });
      this.#revealHead = true;
    },
    onKind: (kind) => this.#userSet({ kind }),
    onInput: (input) => this.#userSet({ input: cleanInput(input), step: null }),
    onStep: (step) => this.#userSet({ step }),
  };

  #clearLazy() {
    for (const { view } of Object.values(this.#lazy)) view.clear();
  }

  #renderHeads(view, model, t0, build, refused) {
    const s = this.#state;
    const result = this.#run(model, s.input);
    if (!result) {
      view.clear();
      return this.#finish(null, t0);
    }
    this.#showError(refused);
    const shown = view.render({ result, config: model.config, name: s.model, input: s.input, lang: s.lang, layer: s.layer, head: s.head, kind: s.kind });
    for (const h of view.heatmaps) h.flush();
    if (this.#revealHead) view.reveal();
    this.#revealHead = false;
    const ms = performance.now() - t0;
    this.#ui.status.textContent = `${build} ${t(s.lang, 'status.heads', { ...shown, ms: ms.toFixed(1) })}`;
    this.#finish(result, t0, { output: result.output, shown });
  }

  #renderPooling(view, model, t0, build, refused) {
    const s = this.#state;
    const result = this.#run(model, s.input);
    if (!result) {
      view.clear();
      return this.#finish(null, t0);
    }
    this.#showError(refused);
    const shown = view.render({ result: { ...result, labels: model.labels }, config: model.config, name: s.model, input: s.input, lang: s.lang });
    for (const h of view.heatmaps) h.flush();
    const ms = performance.now() - t0;
    this.#ui.status.textContent = `${build} ${t(s.lang, 'status.pooling', { ...shown, ms: ms.toFixed(1) })}`;
    this.#finish(result, t0, { label: result.label, shown });
  }

  /** Reading: the typed text normalized as the agreement models read it, run with every next-word
   * distribution; the view moves the current word without running it again, and the step it
   * reports (onStep) is a setting like any other: the redraw for it runs the sentence again. */
  #renderReading(view, module, model, t0, build, refused) {
    const s = this.#state;
    const text = module.readingInput(s.input);
    const result = this.#run(model, text, { distributions: true });
    if (!result) {
      view.clear();
      return this.#finish(null, t0);
    }
    this.#showError(refused);
    const shown = view.render({ result, config: model.config, name: s.model, input: s.input, text, lang: s.lang, step: s.step });
    for (const h of view.heatmaps) h.flush();
    const ms = performance.now() - t0;
    this.#ui.status.textContent = `${build} ${t(s.lang, 'status.reading', { n: shown.n, ms: ms.toFixed(1) })}`;
    this.#finish(result, t0, { shown });
  }

  /** The forgetting view's length curve (JSON beside models.js): { curve } | { error }, or null
   * while it loads (then redraws). */
  #curve(file) {
    const url = modelUrl({ file });
    const got = this.#curves.get(url);
    if (got && !(got instanceof Promise)) return got;
    if (!got) {
      const promise = fetch(url)
        .then(async (r) => {
          if (!r.ok) throw new Error(`${url} answered HTTP ${r.status}`);
          return { curve: await r.json() };
        })
        .catch((error) => ({ error }))
        .then((result) => {
          this.#curves.set(url, result);
          this.#schedule();
        });
      this.#curves.set(url, promise);
    }
    return null;
  }

  /** Forgetting: the curve, and the input through the model and its partner without attention. */
  #renderForgetting(view, module, t0, build, refused) {
    const s = this.#state;
    const lang = s.lang;
    const pair = module.reversePair(s.model);
    const loads = [pair.attention, pair.none].filter(Boolean).map((name) => [name, this.#model(name)]);
    const curve = pair.curve ? this.#curve(pair.curve) : { error: new Error('no curve file is registered') };
    if (loads.some(([, l]) => !l) || !curve) {
      const waiting = loads.filter(([, l]) => !l).map(([n]) => n);
      this.#ui.status.textContent = `${build} ${t(lang, 'model.loading', { name: waiting.join(', ') || pair.curve })}`;
      return;
    }
    const failed = loads.filter(([, l]) => l.error);
    const wrong = loads.find(([, l]) => l.model && l.model.architecture !== 'seq2seq');
    if (failed.length || wrong) {
      const messages = failed.map(([n, l]) => this.#modelError(n, l.error));
      if (wrong) messages.push(t(lang, 'model.wrongArch', { family: t(lang, 'family.reverse'), name: wrong[0], arch: wrong[1].model.architecture }));
      this.#showError([refused, ...messages].filter(Boolean).join(' '));
      view.clear();
      return this.#finish(null, t0);
    }
    const runs = [];
    for (const [name, { model }] of loads) {
      const result = this.#run(model, s.input);
      if (!result) {
        view.clear();
        return this.#finish(null, t0);
      }
      runs.push({ name, attention: model.config.attention, result });
    }
    this.#showError(refused);
    let checked = null;
    let curveError = curve.error ? curve.error.message : null;
    if (curve.curve) {
      try {
        checked = module.checkCurve(curve.curve);
      } catch (err) {
        curveError = err.message;
      }
    }
    const entry = findModel(pair.attention) ?? modelsFor('reverse')[0];
    const shown = view.render({
      curve: checked, curveError, runs, input: s.input, lang, fixture: entry?.trained === false,
      note: pair.none ? '' : t(lang, 'forgetting.noPartner'),
    });
    for (const h of view.heatmaps) h.flush();
    const ms = performance.now() - t0;
    this.#ui.status.textContent = `${build} ${t(lang, 'status.forgetting', { length: Array.from(s.input).length, models: runs.length, ms: ms.toFixed(1) })}`;
    this.#finish({}, t0, { shown });
  }

  #finish(result, t0, extra = {}) {
    const ms = performance.now() - t0;
    if (result) {
      this.timings.push(ms);
      if (this.timings.length > MAX_TIMINGS) this.timings.shift();
    }
    const key = formatModelParams({ ...this.#state, seed: null, hide: [] });
    this.dataset.rendered = key;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
    this.dispatchEvent(new CustomEvent('demo-render', { detail: { key, ms, ...extra } }));
  }

  /** Run the model; null (and the message shown) when the input cannot be run. */
  #run(model, input, options = undefined) {
    if (!input || model.encode(input).length === 0) {
      this.#showError(t(this.#state.lang, 'input.empty'));
      return null;
    }
    try {
      return options ? model.run(input, options) : model.run(input);
    } catch (err) {
      this.#showError(t(this.#state.lang, 'error.run', { message: err.message }));
      return null;
    }
  }

  #map(result) {
    // seq2seq models have one attention map; layer and head are clamped to what there is.
    const maps = result.attention;
    const s = this.#state;
    return (
      maps.find((m) => m.layer === s.layer && m.head === s.head) ??
      maps.find((m) => m.layer === Math.min(s.layer, maps.at(-1).layer)) ??
      maps[0]
    );
  }

  #renderAlignment(model, t0, build, refused) {
    const u = this.#ui;
    const result = this.#run(model, this.#state.input);
    if (!result) {
      u.alignMap.data = null;
      u.output.textContent = '';
      u.explain.replaceChildren(el('p', { text: t(this.#state.lang, 'explain.prompt') }));
      return this.#finish(null, t0);
    }
    this.#showError(refused);
    const map = this.#map(result);
    const [rows, cols] = map.weights.shape;
    u.output.textContent = result.output || t(this.#state.lang, 'output.none');
    u.alignMap.data = { weights: map.weights.data, rows, cols, rowLabels: map.rowLabels, colLabels: map.colLabels };
    this.#alignment = { model, result, map, rows, cols };
    if (this.#active) {
      this.#active.row = Math.min(this.#active.row, rows - 1);
      this.#active.col = Math.min(this.#active.col, cols - 1);
    }
    this.#explain();
    u.alignMap.flush();
    const ms = performance.now() - t0;
    u.status.textContent = `${build} ${t(this.#state.lang, 'status.ran', { rows, cols, ms: ms.toFixed(1) })}`;
    this.#finish(result, t0, { output: result.output });
  }

  #alignment = null; // { model, result, map, rows, cols } of the last alignment view

  /** Fill the explanation panel for the active cell (hovered or focused). */
  #explain() {
    const u = this.#ui;
    const lang = this.#state.lang;
    const a = this.#alignment;
    if (!a || !this.#active) {
      u.explain.replaceChildren(el('p', { text: t(lang, 'explain.prompt') }));
      u.alignMap.marks = [];
      return;
    }
    const { row, col } = this.#active;
    const cfg = a.model.config;
    const attention = cfg.attention;
    const weights = a.map.weights.data.subarray(row * a.cols, (row + 1) * a.cols);
    const position = a.result.positions?.[row];
    const info = explainCell({ row: weights, col, attention, position, window: cfg.window });
    const f = (v) => formatValue(v);
    const nodes = [
      el('h3', { text: t(lang, 'explain.cell', { row, col, rowLabel: a.map.rowLabels[row], colLabel: a.map.colLabels[col] }) }),
      el('p', { text: t(lang, 'explain.mechanism', { name: mechanismName(lang, attention) }) }),
    ];
    if (info.none) {
      nodes.push(el('p', { text: t(lang, 'explain.none') }));
      u.explain.replaceChildren(...nodes);
      return;
    }
    const local = attention === 'local-p' || attention === 'local-m';
    nodes.push(el('p', { class: 'eq', text: local ? localScoreEquation(cfg.score) : EQUATIONS[attention] ?? '' }));
    if (local) nodes.push(el('p', { class: 'eq', text: EQUATIONS[attention] }));
    nodes.push(el('p', { class: 'eq', text: SOFTMAX_EQUATION }));
    const rows = [];
    if (info.local) {
      const w = windowRange(position, cfg.window, a.cols);
      rows.push([t(lang, 'explain.position'), f(position)]);
      rows.push([t(lang, 'explain.window'), `${f(position)} ± ${cfg.window} → j ∈ [${w?.from ?? '–'}, ${w?.to ?? '–'}]`]);
    }
    if (!info.inWindow) {
      rows.push([t(lang, 'explain.weight'), `${f(info.weight)} (${t(lang, 'explain.outside')})`]);
    } else {
      rows.push([t(lang, 'explain.score'), info.underflow ? t(lang, 'explain.underflow') : f(info.shiftedScore)]);
      rows.push([t(lang, 'explain.exp'), f(info.expShifted)]);
      rows.push([t(lang, 'explain.sum'), f(info.sumExp)]);
      rows.push([t(lang, 'explain.softmax'), `${f(info.expShifted)} / ${f(info.sumExp)} = ${f(info.softmax)}`]);
      if (info.local) rows.push([t(lang, 'explain.gauss'), f(info.gauss)]);
      rows.push([t(lang, 'explain.weight'), f(info.weight)]);
    }
    rows.push([t(lang, 'explain.rank'), rankText(info.rank, info.size)]);
    rows.push([t(lang, 'explain.rowSum'), f(info.rowSum)]);
    const dl = el('dl');
    for (const [k, v] of rows) dl.append(el('dt', { text: k }), el('dd', { text: v }));
    nodes.push(dl, el('p', { class: 'honest', text: t(lang, 'explain.honest') + (local ? ` ${t(lang, 'explain.honestLocal')}` : '') }));
    u.explain.replaceChildren(...nodes);
    // The local window of the explained row.
    const w = info.local ? windowRange(position, cfg.window, a.cols) : null;
    u.alignMap.marks = w ? [{ row, from: w.from, to: w.to, center: position }] : [];
  }

  // ---- over time -------------------------------------------------------------------------------

  #timeKey() {
    return `${this.#state.model}\u0000${this.#state.input}`;
  }

  #resetTime() {
    this.#stopTime();
    this.#time?.decoder?.dispose();
    this.#time = null;
  }

  #stopTime() {
    if (this.#time?.timer) clearTimeout(this.#time.timer);
    if (this.#time) this.#time.timer = 0;
    this.#ui.play.disabled = false;
  }

  #ensureTime() {
    const key = this.#timeKey();
    if (this.#time?.key === key) return this.#time;
    this.#resetTime();
    const loaded = this.#settled.get(this.#state.model);
    if (!loaded?.model) return null;
    const input = this.#state.input;
    if (!input || loaded.model.encode(input).length === 0) return null;
    let decoder;
    try {
      decoder = loaded.model.startDecoding(input);
    } catch (err) {
      this.#showError(t(this.#state.lang, 'error.run', { message: err.message }));
      return null;
    }
    this.#time = { key, model: loaded.model, decoder, rows: [], ids: [], tokens: [], positions: [], done: false, timer: 0 };
    return this.#time;
  }

  /** Decode one more token of tm (no redraw); false once the output is complete. */
  #decodeOne(tm) {
    const s = tm.decoder.step();
    tm.rows.push(s.weights);
    tm.tokens.push(s.token);
    tm.ids.push(s.id);
    if (s.position !== undefined) tm.positions.push(s.position);
    if (s.done) {
      tm.done = true;
      tm.decoder.dispose();
      this.#stopTime();
    }
    return !tm.done;
  }

  /** Step and play: one more token, and the step setting (so the URL) follows. */
  #stepOnce() {
    const tm = this.#ensureTime();
    if (!tm || tm.done) return false;
    const more = this.#decodeOne(tm);
    this.#userSet({ step: tm.rows.length });
    return more;
  }

  #play() {
    const tm = this.#ensureTime();
    if (!tm) return;
    if (tm.done) {
      this.#resetTime();
      return this.#play();
    }
    this.#stopTime();
    this.#ui.play.disabled = true;
    const tick = () => {
      tm.timer = 0;
      if (this.#time !== tm || !this.isConnected) return;
      if (this.#stepOnce()) tm.timer = setTimeout(tick, STEP_MS);
    };
    tick();
  }

  /** The time view's decoder with exactly `step` rows decoded (none when null; fewer when the
   * output ends first): decoded again from the start when it holds more. */
  #timeAt(step) {
    const want = step ?? 0;
    if (this.#time && this.#time.rows.length > want) this.#resetTime();
    const tm = this.#ensureTime();
    while (tm && !tm.done && tm.rows.length < want) this.#decodeOne(tm);
    return tm;
  }

  #renderTime(model, t0, build, refused) {
    const u = this.#ui;
    const lang = this.#state.lang;
    const tm = this.#timeAt(this.#state.step);
    if (!tm) {
      if (!this.#state.input) this.#showError(t(lang, 'input.empty'));
      u.timeMap.data = null;
      return this.#finish(null, t0);
    }
    this.#showError(refused);
    const S = tm.decoder.srcTokens.length;
    const T = tm.rows.length;
    u.status.textContent = build;
    u.timeOutput.textContent = model.decode(tm.ids);
    u.step.disabled = tm.done;
    u.pause.disabled = !tm.timer;
    if (T === 0) {
      u.timeMap.data = null;
      u.timeStatus.textContent = t(lang, 'time.ready');
      return this.#finish(null, t0, { steps: 0 });
    }
    const weights = new Float32Array(T * S);
    tm.rows.forEach((r, i) => weights.set(r, i * S));
    u.timeMap.data = { weights, rows: T, cols: S, rowLabels: tm.tokens, colLabels: tm.decoder.srcTokens };
    let status = tm.done ? t(lang, 'time.done', { steps: T }) : t(lang, 'time.progress', { step: T, token: tm.tokens[T - 1] });
    const cfg = model.config;
    const p = tm.positions[T - 1];
    const w = p !== undefined ? windowRange(p, cfg.window, S) : null;
    u.timeMap.marks = w ? [{ row: T - 1, from: w.from, to: w.to, center: p }] : [];
    if (w) status += ` ${t(lang, 'time.window', { p: formatValue(p), d: cfg.window })}`;
    u.timeStatus.textContent = status;
    u.timeMap.flush();
    this.#finish({}, t0, { steps: T, done: tm.done });
  }

  // ---- compare ---------------------------------------------------------------------------------

  #renderCompare(t0, build, refused) {
    const u = this.#ui;
    const s = this.#state;
    const lang = s.lang;
    const loads = MODELS.map((m) => [m.name, this.#model(m.name)]);
    if (loads.some(([, l]) => l === null)) {
      u.status.textContent = `${build} ${t(lang, 'model.loading', { name: loads.filter(([, l]) => !l).map(([n]) => n).join(', ') })}`;
      return;
    }
    this.#showError(refused);
    const available = loads.filter(([, l]) => l.model);
    const skipped = loads.filter(([, l]) => l.error).map(([n]) => n);
    u.skipped.hidden = skipped.length === 0;
    u.skipped.textContent = t(lang, 'compare.skipped', { names: skipped.join(', ') });
    const results = new Map();
    const figures = [];
    for (const [name, { model }] of available) {
      const result = this.#run(model, s.input);
      if (!result) {
        u.grid.replaceChildren();
        u.diffMap.data = null;
        return this.#finish(null, t0);
      }
      results.set(name, { model, result });
      const map = this.#map(result);
      const [rows, cols] = map.weights.shape;
      const heatmap = el('attn-heatmap', { min: '0', max: '1', label: `${name}: ${result.output}`, 'data-model': name, lang });
      heatmap.data = { weights: map.weights.data, rows, cols, rowLabels: map.rowLabels, colLabels: map.colLabels };
      const output = el('span', { class: 'output', text: result.output || t(lang, 'output.none') });
      figures.push(el('figure', { 'data-model': name }, [el('figcaption', {}, [el('strong', { text: name }), ' → ', output]), heatmap]));
    }
    u.grid.replaceChildren(...figures);
    // A − B.
    const names = available.map(([n]) => n);
    for (const select of [u.a, u.b]) {
      for (const option of select.options) option.disabled = !names.includes(option.value);
    }
    const a = names.includes(s.a) ? s.a : names[0];
    const b = names.includes(s.b) ? s.b : names[1] ?? names[0];
    u.a.value = a;
    u.b.value = b;
    if (a && b) {
      const A = results.get(a);
      const B = results.get(b);
      const mapA = this.#map(A.result);
      const [T, S] = mapA.weights.shape;
      let bWeights;
      let rows = T;
      const sameVocab =
        JSON.stringify(A.model.config.tokenizer) === JSON.stringify(B.model.config.tokenizer);
      if (sameVocab) {
        bWeights = B.model.score(s.input, A.result.ids).attention.data; // B forced on A's output
        u.diffNote.textContent = t(lang, 'compare.forced');
      } else {
        const mapB = this.#map(B.result);
        rows = Math.min(T, mapB.weights.shape[0]);
        bWeights = mapB.weights.data;
        u.diffNote.textContent = t(lang, 'compare.prefix', { rows });
      }
      u.diffMap.setAttribute('label', t(lang, 'heatmap.diff', { a, b }));
      u.diffMap.data = {
        weights: subtractMaps(mapA.weights.data, bWeights, rows, S),
        rows,
        cols: S,
        rowLabels: mapA.rowLabels.slice(0, rows),
        colLabels: mapA.colLabels,
      };
    }
    u.status.textContent = build;
    for (const h of this.shadowRoot.querySelectorAll('attn-heatmap')) h.flush?.();
    this.#finish({}, t0, { models: names });
  }
}

/** Register <attn-demo> (and <attn-heatmap>, which it uses). Safe to call more than once. */
export function define(tag = 'attn-demo', registry = customElements) {
  defineHeatmap();
  if (!registry.get(tag)) registry.define(tag, tag === 'attn-demo' ? AttnDemo : class extends AttnDemo {});
  return registry.get(tag);
}
