// attn-demo.js: <attn-demo>, a model's attention, live, as one embeddable element: a shell over
// one module per view.
//
//   import { define } from '../embed.js';   define();
//   <attn-demo model="dates-additive" view="alignment" input="22 Nov 2026"></attn-demo>
//
// Attributes (the settings: model, view, input, layer, head, kind, step, lang, hide, a, b, gold;
// and file-picker), the properties (state, timings, modelFile), the methods (whenRendered(),
// openDropped()) and the events ('demo-change', 'demo-render'): web/embed.d.ts (AttnDemo,
// AttnDemoState) and README, "<attn-demo> attributes". Every attribute is validated (app-state.js
// readAttribute); a refused value falls back to the default and says so; a model of another
// family than the view's is replaced by the view's default, and without an input attribute the
// model's sample input is used. A model file of the visitor's own (docs/open-a-model.md,
// demo-local.js) opens in the view of its architecture; links never carry it.
//
// Views: one module each (views/registry.js), redrawn at most once per animation frame. Each has
// node, heatmaps, clear() and update(ctx): ctx is views/view-context.js's ViewContext (the
// settings, the loaded model for the views of one model, the model cache, the refused-model
// sentence, when the render began); the view answers with events on its node (view-change,
// view-refresh, view-status, view-error, view-blank, view-done: view-context.js), which the
// element listens to on its shadow root. A view that cannot draw its input (empty, over the
// model's maxPositions, a failed run) sends view-blank: the message alone on screen
// (docs/view-states.md).
//
// Holds: the settings and their attributes, which view draws when, and the wiring of the chrome
// (demo-chrome.js: its DOM, styles and labels) and of the visitor's model file (demo-local.js).
// Deliberately holds no maths (explain.js), no drawing (<attn-heatmap>, draw.js), no view
// (*-view.js), no validation (app-state.js) and no strings (i18n.js). Text from the page, the
// URL or the model is only ever set as textContent or an attribute value, never parsed as HTML.
// Imports the library by a relative path, not 'attnlab', so a host page needs no import map.

import { init } from '../../wasm/index.js';
import {
  MODEL_DEFAULTS,
  VIEWS,
  cleanInput,
  fitToView,
  formatModelParams,
  pickModel,
  readAttribute,
} from '../shared/app-state.js';
import { VIEW_FAMILIES } from '../shared/architectures.js';
import { resolveLang, t } from '../shared/i18n.js';
import { ModelCache, pageOrigin } from '../shared/model-cache.js';
import { domainWarnings } from '../shared/domain.js';
import { diagnoseFetch, wasmUrl } from '../shared/fetch-problem.js';
import { InputNotes } from '../shared/input-notes.js';
import { findModel, isBlobUrl } from '../shared/models.js';
import { isOffline } from '../shared/offline.js';
import { el } from '../shared/view-kit.js';
import { VIEW_MODULES } from '../views/registry.js';
import { define as defineHeatmap } from './attention-heatmap.js';
import {
  buildChrome,
  chromeTexts,
  exportContext,
  fillModelSelect,
  linkClick,
  paintCard,
  paintChrome,
  unsavedModels,
} from './demo-chrome.js';
import { LocalModel } from './demo-local.js';
import { libraryMessage, refusedMessage, undrawable, viewLoadMessage } from './demo-messages.js';

const MAX_TIMINGS = 2000;
const ATTRIBUTES = 'model view input layer head lang hide a b kind step gold file-picker'.split(
  ' ',
);

export class AttnDemo extends HTMLElement {
  // in this order: connectedCallback reads them so (a blob: model opens before view is read)
  static observedAttributes = ATTRIBUTES;

  /** The settings (app-state.js MODEL_DEFAULTS, without the page's seed).
   * @type {Omit<import('../shared/app-state.js').ModelState, 'seed' | 'hide'> & { hide: string[] }} */
  #state = (({ seed: _seed, ...s }) => ({ ...s, hide: [] }))(MODEL_DEFAULTS);
  #wrongModel = null; // a model attribute of another family than the view's (replaced, and said so)
  #renderedFamily = null;
  #cardKey = ''; // model and language of the shown model card
  #views = {}; // view name -> its view object, once made (VIEW_MODULES)
  #loading = {}; // view name -> the import's promise (the views imported on first use)
  #loadError = null;
  #refused = []; // attribute names whose values were refused
  #ui;
  #notes = new InputNotes({
    onPick: (input) => this.#userSet({ input: cleanInput(input), step: null }),
  });
  #render0 = 0; // performance.now() when the current render began
  #blanked = false; // this render could not draw its input (view-blank): no notes about an output
  #cache = new ModelCache({ onSettle: () => this.#schedule() });
  // The visitor's own model file, one at a time (demo-local.js).
  #file = new LocalModel({
    cache: this.#cache,
    state: () => this.#state,
    set: (patch, fromUser) => {
      if (fromUser) return this.#userSet(patch);
      Object.assign(this.#state, patch);
      this.#schedule();
    },
    redraw: () => {
      this.#renderedFamily = null; // the picker lists the file, or no longer
      this.#schedule();
    },
  });
  #lib = null; // init() result
  #libError = null;
  #libProblem = null; // diagnoseFetch() of the .wasm, when init() failed
  #frame = 0;
  #waiters = [];
  #listeners = null;
  #reflecting = false;
  #renderedLang = null;
  #needsNetwork = null; // offline: names of the listed models not saved on this device (web/sw.js); online: null
  timings = [];

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    ({ ui: this.#ui, views: this.#views } = buildChrome(this.shadowRoot, this.#notes));
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  connectedCallback() {
    defineHeatmap();
    this.#listeners = new AbortController();
    this.#wire(this.#listeners.signal);
    for (const type of ['online', 'offline'])
      window.addEventListener(type, () => this.#checkOffline(), { signal: this.#listeners.signal });
    if (isOffline()) this.#checkOffline();
    this.#file.reopen(); // disconnectedCallback freed its model
    for (const name of AttnDemo.observedAttributes) this.#readAttribute(name);
    if (!this.#lib && !this.#libError) {
      init()
        .then(
          (lib) => {
            this.#lib = lib;
            this.dataset.simd = String(lib.simd);
          },
          async (err) => {
            // Why the .wasm could not be fetched (another origin without CORS, a 404, file://), if it was that.
            this.#libProblem =
              typeof WebAssembly === 'object' ? await diagnoseFetch(wasmUrl()) : null;
            this.#libError = err;
          },
        )
        .then(() => this.#schedule());
    }
    this.#schedule();
  }

  disconnectedCallback() {
    this.#listeners?.abort();
    this.#listeners = null;
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    for (const v of Object.values(this.#views)) {
      v.dispose?.(); // the time view: its play timer and decoder
      v.pause?.(); // the reading view: its play timer
    }
    this.#cache.dispose(); // every model's wasm memory (disposing a model disposes its decoders)
    this.#file.disconnect(); // its model went with the cache; a modelFile is reopened on connect
    this.dataset.disposed = 'true';
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (this.#reflecting || oldValue === newValue) return;
    this.#readAttribute(name);
    this.#schedule();
  }

  #readAttribute(name) {
    if (name === 'file-picker') return; // read where drawn (#renderChrome) and dropped (#wire)
    if (name === 'model') {
      const value = this.getAttribute('model');
      const file = value !== null && this.#file.is(value); // the open model file (set back by the page)
      if (file || isBlobUrl(value, pageOrigin())) {
        this.#refused = this.#refused.filter((k) => k !== 'model');
        if (file) this.#state.model = value;
        else this.#file.openBlobUrl(value);
        return;
      }
    }
    const got = readAttribute(
      name,
      this.getAttribute(name),
      pageOrigin(),
      document.documentElement.lang,
    );
    this.#refused = this.#refused.filter((k) => k !== name);
    if (got.refused) this.#refused.push(name);
    if (got.value === undefined) return;
    this.#state[name] = got.value;
    // Set from outside (the URL, the host page): show it, even in a focused field.
    if (name === 'input' && this.#ui.input.value !== got.value) this.#ui.input.value = got.value;
  }

  /**
   * Before drawing (every attribute read): a model of another family than the view's is replaced
   * by the view's default, and without an input attribute the input is the model's sample.
   */
  #normalize() {
    const s = this.#state;
    const fit = fitToView(s, this.getAttribute('model'), this.getAttribute('input'), pageOrigin());
    [s.model, s.input, this.#wrongModel] = [fit.model, fit.input, fit.wrongModel];
    if (this.getAttribute('input') === null && this.#ui.input.value !== s.input)
      this.#ui.input.value = s.input;
  }

  /** The current settings: { view, model, input, layer, head, lang, hide, a, b, kind, step, gold }. */
  get state() {
    return { ...this.#state, hide: [...this.#state.hide] };
  }

  /** A model file of the visitor's own (web/embed.d.ts AttnDemo.modelFile; demo-local.js): set
   * to open it, null to close it; a value that is not a model is refused in the element. */
  get modelFile() {
    return this.#file.file;
  }

  set modelFile(value) {
    if (value === null || value === undefined) this.#file.close();
    else this.#file.openValue(value, true);
  }

  /** Open what a drop carried, its one file (or say why not); a page calls it for drops
   * elsewhere (web/main.js), the element for drops on it (file-picker). @param {DataTransfer} dataTransfer */
  openDropped(dataTransfer) {
    this.#file.openDropped(dataTransfer);
  }

  /** Resolves after the next drawn view. */
  whenRendered() {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** A person changed a setting: reflect it to the attribute, announce it, redraw. */
  #userSet(patch) {
    Object.assign(this.#state, patch);
    if ('input' in patch && this.#ui.input.value !== patch.input)
      this.#ui.input.value = patch.input;
    this.#reflecting = true;
    try {
      for (const [k, v] of Object.entries(patch)) {
        if (v === null || v === false)
          this.removeAttribute(k); // gold: absent for off
        else this.setAttribute(k, Array.isArray(v) ? v.join(' ') : v === true ? '1' : String(v));
        this.#refused = this.#refused.filter((r) => r !== k);
      }
    } finally {
      this.#reflecting = false;
    }
    this.dispatchEvent(new CustomEvent('demo-change', { detail: this.state }));
    this.#schedule();
  }

  // ---- DOM -------------------------------------------------------------------------------------

  #wire(signal) {
    const ui = this.#ui;
    const on = (node, type, fn) => node.addEventListener(type, fn, { signal });
    for (const view of VIEWS)
      on(ui.tab[view], 'click', () => this.#userSet(this.#file.switchTo(this.#state, view)));
    on(ui.tabs, 'keydown', (e) => {
      const i = VIEWS.indexOf(this.#state.view);
      const j = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : null;
      if (j === null) return;
      const view = VIEWS[(j + VIEWS.length) % VIEWS.length];
      this.#userSet(this.#file.switchTo(this.#state, view));
      ui.tab[view].focus();
    });
    on(ui.model, 'change', () => this.#userSet(pickModel(this.#state, ui.model.value)));
    on(ui.lang, 'change', () => this.#userSet({ lang: resolveLang(ui.lang.value) }));
    on(ui.input, 'input', () => this.#userSet({ input: cleanInput(ui.input.value), step: null }));
    on(ui.link, 'click', (/** @type {MouseEvent} */ e) => linkClick(ui, this.#state.lang, e));
    on(ui.openButton, 'click', () => ui.openInput.click());
    on(ui.openInput, 'change', () => {
      const file = ui.openInput.files?.[0];
      ui.openInput.value = ''; // picking the same file again opens it again
      if (file) this.#file.openValue(file, true);
    });
    this.#file.wireDrops(this, signal); // drops on the element (file-picker)
    this.#notes.wire(signal);
    // What the views say (views/view-context.js).
    const root = this.shadowRoot;
    on(root, 'view-change', (/** @type {CustomEvent} */ e) => {
      const patch = { ...e.detail };
      if ('input' in patch) patch.input = cleanInput(patch.input);
      this.#userSet(patch);
    });
    on(root, 'view-refresh', () => this.#schedule());
    on(root, 'view-status', (/** @type {CustomEvent} */ e) => {
      this.#ui.status.textContent = e.detail;
    });
    on(root, 'view-error', (/** @type {CustomEvent} */ e) => this.#showError(e.detail));
    on(root, 'view-blank', (/** @type {CustomEvent} */ e) => this.#blank(e.detail));
    on(root, 'view-done', (/** @type {CustomEvent} */ e) => {
      const { result, extra = {}, unknown = [], corrected = [] } = e.detail;
      this.#finish(result, this.#render0, extra, unknown, corrected);
    });
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
    const hide = new Set(s.hide);
    if (this.#renderedLang !== s.lang) {
      chromeTexts(u, s.lang);
      for (const view of Object.values(this.#views)) view.texts?.(s.lang);
    }
    const families = (VIEW_FAMILIES[s.view] ?? []).join(' ');
    if (this.#renderedLang !== s.lang || this.#renderedFamily !== families) {
      [this.#renderedLang, this.#renderedFamily] = [s.lang, families];
      this.#fillModelSelect();
    }
    paintChrome(u, s, this.#file, this.#cache, this.hasAttribute('file-picker'));
    this.#views.alignment.showExplain(!hide.has('explain'));
    const cardHidden = hide.has('card') || VIEW_MODULES[s.view].keep === true;
    this.#cardKey = paintCard(u.card, this.#cache, s, cardHidden, this.#cardKey);
    this.toggleAttribute('data-hide-export', hide.has('export'));
  }

  #fillModelSelect() {
    const { view, lang } = this.#state;
    fillModelSelect(this.#ui.model, view, lang, this.#needsNetwork, this.#file);
  }

  /** Online or offline again: offline, find which models the service worker has saved (every
   * family's), mark the others in the picker and say so under it; online, drop the marks. */
  async #checkOffline() {
    const missing = await unsavedModels();
    this.#needsNetwork = missing;
    this.#ui.offline.hidden = !missing;
    this.#fillModelSelect();
    this.#renderedLang = null; // the offline note's language
    this.#schedule();
  }

  #render() {
    const t0 = (this.#render0 = performance.now());
    const s = this.#state;
    const lang = s.lang;
    this.#blanked = false;
    this.#normalize();
    this.#renderChrome();
    for (const [name, v] of Object.entries(this.#views)) if (name !== s.view) v.pause?.();
    if (this.#libError) {
      this.#showError(libraryMessage(lang, this.#libError, this.#libProblem));
      this.#ui.status.textContent = t(lang, 'status.notRunning');
      for (const v of VIEWS) this.#ui.host[v].hidden = true; // no view can draw: the message alone
      return this.#finish(null, t0);
    }
    if (!this.#lib) {
      this.#ui.status.textContent = t(lang, 'status.wasm');
      return;
    }
    // Which build runs is said once, by the page (web/main.js #status); here only as the status
    // line's tooltip, a details line for whoever asks.
    this.#ui.status.title = t(lang, this.#lib.simd ? 'status.simd' : 'status.scalar');
    const attribute = this.getAttribute('model');
    const refusedModel = this.#refused.includes('model');
    const refused = refusedMessage(lang, s, attribute, refusedModel, this.#wrongModel);
    const view = this.#view(s.view);
    if (!view && this.#loadError) {
      this.#showError(viewLoadMessage(lang, s.view, this.#loadError));
      return this.#finish(null, t0);
    }
    if (!view) {
      this.#ui.status.textContent = t(lang, 'model.loading', { name: s.model });
      return;
    }
    if (!VIEW_MODULES[s.view].one) return view.update(this.#context(t0, refused, null));
    const loaded = this.#cache.model(s.model);
    const local = this.#file.shown(s.model);
    if (!loaded) {
      this.#ui.status.textContent = local
        ? t(lang, 'open.loading', { name: local.name })
        : t(lang, 'model.loading', { name: s.model });
      this.#showError(''); // nothing stays from the model before
      this.#ui.host[s.view].hidden = true; // nor its drawing: "Loading…" alone until it is here
      return;
    }
    // What cannot be drawn: the message alone (the inspector stays).
    const why = undrawable(lang, s, loaded, local, this.#file.fits(s.view), refused);
    if (why) {
      this.#showError(why.text);
      if (why.path) {
        this.#clearViews((m) => m.load); // a path of another architecture: only its views
      } else {
        this.#ui.status.textContent = ''; // no longer loading
        this.#ui.host[s.view].hidden = true; // nothing to draw
        this.#clearViews((m) => !m.keep);
      }
      return this.#finish(null, t0);
    }
    view.update(this.#context(t0, refused, loaded.model));
  }

  /** clear() the made views whose VIEW_MODULES entry passes pick. */
  #clearViews(pick) {
    for (const [name, v] of Object.entries(this.#views)) if (pick(VIEW_MODULES[name])) v.clear();
  }

  /** What a view's update(ctx) is given (views/view-context.js ViewContext). */
  #context(started, refused, model) {
    const s = this.state;
    const name = this.#file.displayName(s.model, s.lang);
    return { state: s, model, name, models: this.#cache, refused, started };
  }

  /** The view called name; null while its module loads (then redraws). */
  #view(name) {
    if (this.#views[name]) return this.#views[name];
    this.#loading[name] ??= VIEW_MODULES[name].load().then(
      ({ view, style }) => {
        this.#views[name] = view;
        if (style) this.shadowRoot.append(el('style', { text: style }));
        this.#ui.host[name].append(view.node);
        this.#schedule();
      },
      (err) => {
        this.#loadError = err;
        delete this.#loading[name];
        this.#schedule();
      },
    );
    return null;
  }

  /** The view is drawn (or cannot be): notes, exports' context, timings, 'demo-render'. unknown:
   * the words the view's runs read as unk; corrected: the [typed, read] pairs of the spelling step. */
  #finish(result, t0, extra = {}, unknown = [], corrected = []) {
    this.#showNotes(unknown, corrected);
    const s = this.#state;
    const maps = VIEW_MODULES[s.view].one ? (this.#views[s.view]?.heatmaps ?? []) : [];
    exportContext(maps, s, this.#file.shown(s.model)?.name ?? s.model, result, extra);
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

  /** Under the input: the words the view's runs did not know (view-done's unknown: the reading
   * view lists its own, in place) and what domain.js finds outside the current model's domain
   * (none while it loads, when it failed to load, or when the input could not be drawn). */
  #showNotes(unknown = [], corrected = []) {
    const s = this.#state;
    const model = this.#cache.settled(s.model)?.model ?? null;
    const again = () => this.#showNotes(unknown, corrected);
    const warnings =
      model && !this.#blanked
        ? domainWarnings(findModel(s.model), model, s.input, s.lang, again)
        : [];
    this.#notes.show({ unknown, corrected, unk: model?.tokenizer.specials?.unk, warnings }, s.lang);
  }

  /**
   * A view that cannot draw this input (empty, too long, the run failed; view-blank): the message
   * alone, in the error line; the view hidden, so nothing of the input before stays on screen (its
   * map, output, words, step, status, export buttons); the next drawable input shows it again
   * (#renderChrome).
   */
  #blank(message) {
    this.#blanked = true;
    this.#showError(message);
    this.#ui.status.textContent = '';
    this.#ui.host[this.#state.view].hidden = true;
  }
}

/** Register <attn-demo> (and <attn-heatmap>, which it uses). Safe to call more than once. */
export function define(tag = 'attn-demo', registry = customElements) {
  defineHeatmap();
  if (!registry.get(tag))
    registry.define(tag, tag === 'attn-demo' ? AttnDemo : class extends AttnDemo {});
  return registry.get(tag);
}
