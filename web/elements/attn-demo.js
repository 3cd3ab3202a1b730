// attn-demo.js: <attn-demo>, a model's attention, live, as one embeddable element: a shell over
// one module per view.
//
//   import { define } from '../embed.js';   define();
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
// time view has decoded, at most the whole output; absent: the whole sentence read, the whole output decoded; 0 decodes none;
// moving the word or stepping sets it, another view, model or input removes it), lang ('en',
// 'zh'), hide (space- or comma-separated: views picker input explain export lang link status card), a,
// b (the two models the compare view subtracts), gold ('1': the translation models' gold alignment
// outlined over the alignment and heads views' maps; absent or '0': off). Every attribute is validated (app-state.js
// readAttribute); a refused value falls back to the default and says so.
// Also file-picker (present: an "Open a model file…" button, and drops on the element open the file).
// A model file of the visitor's own (docs/open-a-model.md, shared/open-model.js): the model
// attribute may be a same-origin blob: URL (URL.createObjectURL), and the modelFile property takes
// a File, Blob, ArrayBuffer or Uint8Array (brand-checked, read once; anything else is refused with
// a message). The file opens in the view of its architecture, joins that view's model list as
// "your file" (state.model 'file:<name>', or the blob: URL), and its inspector shows under the
// view (hide="card" hides it); a new file frees the old one's model; links never carry it.
// Properties: state (the current settings, a plain object), timings (ms of each
// inference + redraw, newest last), modelFile. Methods: whenRendered(), openDropped(dataTransfer).
// Events: 'demo-change' (detail: state) when the person using it changes a setting,
// 'demo-render' (detail: { key, ms }) after each drawn view.
//
// Views: one module each (views/registry.js), redrawn at most once per animation frame. Each has
// node, heatmaps, clear() and update(ctx); ctx (#context) gives it the settings, the loaded model
// (views of one model), the model cache (shared/model-cache.js, disposed when the element leaves
// the document), run() (model.run, or null with the reason shown and the view blanked),
// inputProblem() and blank() (why an input cannot be drawn: empty, or over the model's
// maxPositions; the message alone on screen, docs/view-states.md), the status and error lines,
// and finish(), which announces the drawn view. build is '' (the page says which build runs).
//
// Holds: the shadow DOM of the chrome (tabs, pickers, input, status, link, model card), the
// settings and their attributes, and which view draws when. Deliberately holds no maths
// (explain.js), no drawing (<attn-heatmap>, draw.js), no view (*-view.js), no validation
// (app-state.js) and no strings (i18n.js). Text from the page, the URL or the model is only ever
// set as textContent or an attribute value, never parsed as HTML.
// Imports the library by a relative path, not 'attnlab', so a host page needs no import map.

import { init, loadModel, readSafetensors } from '../../wasm/index.js';
import {
  MAX_INPUT,
  VIEWS,
  cleanInput,
  fitToView,
  formatModelParams,
  inputHint,
  readAttribute,
  switchView,
} from '../shared/app-state.js';
import { LANGUAGES, errorDetail, resolveLang, t } from '../shared/i18n.js';
import { ModelCache, modelError, pageOrigin } from '../shared/model-cache.js';
import { renderCard } from '../shared/model-card.js';
import { domainWarnings } from '../shared/domain.js';
import { diagnoseFetch, fetchProblem, wasmUrl } from '../shared/fetch-problem.js';
import { examplesFor } from '../shared/examples.js';
import { INPUT_NOTES_STYLE, InputNotes } from '../shared/input-notes.js';
import {
  DEFAULT_INPUT,
  DEFAULT_MODEL,
  VIEW_FAMILY,
  cardUrl,
  defaultModelFor,
  findModel,
  isBlobUrl,
  isLocalModel,
  modelUrl,
  modelsFor,
  sampleFor,
} from '../shared/models.js';
import {
  INSPECTOR_STYLE,
  LocalFileError,
  MAX_MODEL_BYTES,
  droppedFile,
  localError,
  localSource,
  readLocal,
  renderInspector,
  viewFor,
} from '../shared/open-model.js';
import { isOffline, savedUrls } from '../shared/offline.js';
import { el, fillModelOptions } from '../shared/view-kit.js';
import { VIEW_MODULES, VIEWS_STYLE } from '../views/registry.js';
import { drawsIn } from '../shared/architectures.js';
import { define as defineHeatmap } from './attention-heatmap.js';

const MAX_TIMINGS = 2000;

/** The chrome's styles, then the views' (registry.js VIEWS_STYLE; the lazy views bring theirs). */
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
attn-heatmap { min-width: 0; max-width: 100%; }
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
${INPUT_NOTES_STYLE}${INSPECTOR_STYLE}${VIEWS_STYLE}`;

export class AttnDemo extends HTMLElement {
  static observedAttributes = [
    'model',
    'view',
    'input',
    'layer',
    'head',
    'lang',
    'hide',
    'a',
    'b',
    'kind',
    'step',
    'gold',
    'file-picker',
  ];

  /** @type {{ view: string, model: string, input: string, layer: number, head: number, lang: string, hide: string[], a: string | null, b: string | null, kind: string | null, step: number | null, gold: boolean }} */
  #state = {
    view: 'alignment',
    model: DEFAULT_MODEL,
    input: DEFAULT_INPUT,
    layer: 0,
    head: 0,
    lang: 'en',
    hide: [],
    a: null,
    b: null,
    kind: null,
    step: null,
    gold: false,
  };
  #wrongModel = null; // a model attribute of another family than the view's (replaced, and said so)
  #renderedFamily = null;
  #cardKey = ''; // model and language of the shown model card
  #views = {}; // view name -> its view object, once made (VIEW_MODULES)
  #loading = {}; // view name -> the import's promise (the views imported on first use)
  #loadError = null;
  #refused = []; // attribute names whose values were refused
  #ui = {};
  #notes = new InputNotes({
    onPick: (input) => this.#userSet({ input: cleanInput(input), step: null }),
  });
  #unknown = []; // the unknown words of this render's runs (#run), shown by #finish
  #blanked = false; // this render could not draw its input (#blank): no notes about an output
  #cache = new ModelCache({ onSettle: () => this.#schedule() });
  #lib = null; // init() result
  #libError = null;
  #libProblem = null; // diagnoseFetch() of the .wasm, when init() failed
  #frame = 0;
  #waiters = [];
  #listeners = null;
  #reflecting = false;
  #renderedLang = null;
  #needsNetwork = null; // offline: names of the listed models not saved on this device (web/sw.js); online: null
  // The visitor's own model file, one at a time (open-model.js): { key ('file:<name>' or the
  // blob: URL), name, size, inspect (once read), view and family (once loaded; view null: no view
  // draws it) }; a new one disposes the old one's model (ModelCache.forget).
  #local = null;
  #openGen = 0; // bumped by each open: a read that lands after a newer open is dropped
  #modelFile = null; // the File/Blob/bytes the local model came from (the modelFile property)
  #inspectKey = '';
  timings = [];

  /** What the views may ask of the element (their callbacks). */
  #host = {
    onSelect: ({ layer, head }) => this.#userSet({ layer, head }),
    onKind: (kind) => this.#userSet({ kind }),
    onInput: (input) => this.#userSet({ input: cleanInput(input), step: null }),
    onStep: (step) => this.#userSet({ step }),
    onPair: (patch) => this.#userSet(patch),
    onGold: (gold) => this.#userSet({ gold }),
    refresh: () => this.#schedule(),
    current: () => {
      const s = this.#state;
      return {
        model: this.#cache.settled(s.model)?.model ?? null,
        name: s.model,
        input: s.input,
        lang: s.lang,
      };
    },
    error: (message) => this.#showError(message),
  };

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
    for (const type of ['online', 'offline'])
      window.addEventListener(type, () => this.#checkOffline(), { signal: this.#listeners.signal });
    if (isOffline()) this.#checkOffline();
    // back in the document: the model file given before it left (disconnectedCallback freed it)
    if (this.#modelFile !== null && !this.#local) this.#openValue(this.#modelFile, false);
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
    this.#views.time.dispose();
    this.#views.reading?.pause();
    this.#cache.dispose(); // every model's wasm memory (disposing a model disposes its decoders)
    this.#local = null; // its model went with the cache; a modelFile is reopened on connect
    this.#openGen++;
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
      if (value !== null && value === this.#local?.key) {
        // the open model file (set back by the page)
        this.#refused = this.#refused.filter((k) => k !== 'model');
        this.#state.model = value;
        return;
      }
      if (isBlobUrl(value, pageOrigin())) {
        this.#refused = this.#refused.filter((k) => k !== 'model');
        this.#openBlobUrl(value);
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

  /**
   * A model file of the visitor's own: a File (a picker's, a drop's), a Blob, an ArrayBuffer or a
   * Uint8Array (copied when set). It opens in the view that draws its architecture, joins that
   * view's model list as "your file", and its inspector shows under the view; a new one replaces
   * (and frees) the old one; null closes it. A value of any other kind, or a file that is not a
   * model, is refused with a message in the element (never thrown). Returns what was set.
   */
  get modelFile() {
    return this.#modelFile;
  }

  set modelFile(value) {
    if (value === null || value === undefined) this.#closeLocal();
    else this.#openValue(value, true);
  }

  /**
   * Open what a drop carried (a DragEvent's dataTransfer): its one file, or a message naming why
   * not (several files, a folder, text). The element does this itself for drops on it when it has
   * the file-picker attribute; a page calls it for drops elsewhere (web/main.js).
   * @param {DataTransfer} dataTransfer
   */
  openDropped(dataTransfer) {
    /** @type {{ problem?: LocalFileError, source?: any, value?: File }} */
    let got;
    try {
      got = droppedFile(dataTransfer);
    } catch {
      got = { problem: new LocalFileError('open.notFile') };
    }
    if (got.problem) {
      this.#modelFile = null;
      return this.#openLocal(null, got.problem, true, got.problem.params?.name ?? ''); // several, or no file: no name
    }
    this.#modelFile = got.value;
    this.#openLocal(got.source, null, true);
  }

  /** Resolves after the next drawn view. */
  whenRendered() {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** The settings patch for switching to view (switchView: another family's model and input). */
  #switchTo(view) {
    const s = this.#state;
    const next = switchView(s, view);
    if (this.#isLocal(s.model) && !this.#localFits(view)) {
      Object.assign(next, { model: defaultModelFor(view), layer: 0, head: 0, kind: null });
      next.input = sampleFor(next.model);
    }
    const patch = {};
    for (const k of ['view', 'model', 'input', 'layer', 'head', 'kind', 'step'])
      if (next[k] !== s[k]) patch[k] = next[k];
    return patch;
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

  // ---- the visitor's model file (open-model.js) --------------------------------------------------

  /** Is name the open model file's key? */
  #isLocal(name) {
    return this.#local !== null && name === this.#local.key;
  }

  /** Does the open model file fit view (the one its architecture opened in; seq2seq: alignment and time)? */
  #localFits(view) {
    const local = this.#local;
    if (!local?.view) return false;
    return local.view === view || viewFor(local.architecture, local.head, view) === view;
  }

  /** A model's name as the page says it: the file's name for the open model file ("your file" when a drop had none). */
  #displayName(name) {
    if (!this.#isLocal(name)) return name;
    return this.#local.name || t(this.#state.lang, 'open.yourFile');
  }

  /** Open a modelFile value (localSource reads it once, brand-checked). */
  #openValue(value, fromUser) {
    this.#modelFile = value;
    const got = localSource(value);
    if (got.problem) this.#modelFile = null;
    this.#openLocal(got.source ?? null, got.problem ?? null, fromUser);
  }

  /** Open a blob: URL model attribute (a same-origin object URL; a revoked one says so). */
  #openBlobUrl(url) {
    if (this.#isLocal(url)) return;
    this.#modelFile = null;
    const source = {
      name: url,
      size: -1, // known once read (readLocal checks it then)
      type: '',
      read: async () => {
        let response;
        try {
          response = await fetch(url);
        } catch {
          throw new LocalFileError('open.blobFailed', { name: url });
        }
        const length = Number(response.headers.get('content-length'));
        if (length > MAX_MODEL_BYTES)
          throw new LocalFileError('open.tooLarge', {
            name: url,
            mb: (length / 1048576).toFixed(1),
            limit: MAX_MODEL_BYTES / 1048576,
          });
        return new Uint8Array(await response.arrayBuffer());
      },
    };
    this.#openLocal(source, null, false, url, url);
  }

  /**
   * Open the visitor's model file (source: open-model.js localSource's) or say why not (problem):
   * the old one is freed first; the element shows it as the current model at once (loading, then
   * its error), and once loaded moves to the view that draws it. fromUser: a person did it (the
   * change is announced with 'demo-change'), not a page setting a property or an attribute.
   */
  #openLocal(source, problem, fromUser, name = source?.name ?? 'modelFile', key = `file:${name}`) {
    const gen = ++this.#openGen;
    this.#dropLocal();
    const local = {
      key,
      name,
      size: source?.size ?? 0,
      inspect: null,
      view: null,
      family: null,
      arch: null,
      architecture: null,
      head: null,
    };
    this.#local = local;
    const loading = (async () => {
      if (problem) throw problem;
      await init();
      const { bytes, inspect } = await readLocal(source, readSafetensors);
      local.size = bytes.length;
      local.inspect = inspect;
      if (gen !== this.#openGen) throw new Error('replaced'); // a newer file: its model is never made
      const model = await loadModel(bytes);
      const head = /** @type {any} */ (model.config).head; // memory-rnn: 'lm' or 'classifier'
      local.arch = model.architecture === 'memory-rnn' ? `memory-rnn ${head}` : model.architecture;
      [local.architecture, local.head] = [model.architecture, head];
      local.view = viewFor(model.architecture, head, this.#state.view);
      local.family = local.view ? VIEW_FAMILY[local.view] : null;
      return { model };
    })().then(
      (result) => result,
      (error) => ({ error }),
    );
    this.#cache.local(key, loading);
    this.#renderedFamily = null; // the picker lists the file
    // Shown at once, in a view that draws one model (compare and forgetting draw their own).
    const s = this.#state;
    const view = VIEW_MODULES[s.view].one ? s.view : 'alignment';
    const patch = { model: key, view, layer: 0, head: 0, kind: null, step: null };
    if (fromUser) this.#userSet(patch);
    else {
      Object.assign(s, patch);
      this.#schedule();
    }
    loading.then(() => {
      if (
        gen !== this.#openGen ||
        !this.#isLocal(this.#state.model) ||
        !local.view ||
        local.view === this.#state.view
      )
        return;
      if (this.#localFits(this.#state.view)) return;
      // into another family's view: that view's sample input, as a tab does (switchView); a dates
      // input means nothing to a classifier
      const input =
        VIEW_FAMILY[local.view] === VIEW_FAMILY[this.#state.view]
          ? this.#state.input
          : sampleFor(defaultModelFor(local.view));
      this.#userSet({ view: local.view, input, layer: 0, head: 0, kind: null, step: null });
    });
  }

  /** Free the open model file's model (if any) and forget it. */
  #dropLocal() {
    if (!this.#local) return;
    this.#cache.forget(this.#local.key);
    this.#local = null;
    this.#inspectKey = '';
    this.#renderedFamily = null;
  }

  /** modelFile = null: close the file; the view goes back to its own first model. */
  #closeLocal() {
    this.#openGen++;
    this.#modelFile = null;
    const wasShown = this.#isLocal(this.#state.model);
    this.#dropLocal();
    if (wasShown) {
      const model = defaultModelFor(this.#state.view);
      this.#userSet({ model, input: sampleFor(model), layer: 0, head: 0, kind: null, step: null });
    } else this.#schedule();
  }

  // ---- DOM -------------------------------------------------------------------------------------

  #build() {
    const ui = this.#ui;
    ui.tabs = el('div', { class: 'tabs', role: 'tablist' });
    ui.tab = {};
    for (const view of VIEWS) {
      ui.tab[view] = el('button', {
        type: 'button',
        role: 'tab',
        'data-view': view,
        'aria-selected': 'false',
      });
      ui.tabs.append(ui.tab[view]);
    }
    ui.modelLabel = el('label', { for: 'model' });
    ui.model = el('select', { id: 'model' });
    ui.langLabel = el('label', { for: 'lang' });
    ui.lang = el('select', { id: 'lang' });
    for (const lang of LANGUAGES)
      ui.lang.append(
        el('option', {
          value: lang,
          lang: lang === 'zh' ? 'zh-Hans' : lang,
          text: t(lang, 'lang.name'),
        }),
      );
    ui.modelField = el('div', { class: 'field' }, [ui.modelLabel, ui.model]);
    ui.langField = el('div', { class: 'field' }, [ui.langLabel, ui.lang]);
    const bar = el('div', { class: 'bar' }, [ui.tabs, ui.modelField, ui.langField]);

    ui.inputLabel = el('label', { for: 'input' });
    ui.input = el('input', {
      id: 'input',
      type: 'text',
      maxlength: String(MAX_INPUT),
      autocomplete: 'off',
      spellcheck: 'false',
      autocapitalize: 'off',
      'aria-describedby': 'hint',
    });
    ui.hint = el('p', { class: 'hint', id: 'hint' });
    ui.inputRow = el('div', { class: 'field input-row' }, [
      ui.inputLabel,
      ui.input,
      ui.hint,
      this.#notes.menu,
    ]);
    // The model file picker (file-picker attribute): a real button that opens a real file input.
    ui.openButton = el('button', { type: 'button', class: 'open-button' });
    ui.openInput = el('input', {
      type: 'file',
      accept: '.safetensors',
      class: 'visually-hidden',
      tabindex: '-1',
      'aria-hidden': 'true',
    });
    ui.openHint = el('p', { class: 'hint open-hint' });
    ui.openRow = el('div', { class: 'open-row', hidden: '' }, [
      ui.openButton,
      ui.openInput,
      ui.openHint,
    ]);
    ui.status = el('p', { class: 'status', role: 'status' });
    ui.offline = el('p', { class: 'note offline-note', hidden: '' });
    ui.error = el('p', { class: 'error demo-error', role: 'alert', hidden: '' });

    // One host per view: the critical-path views' own nodes, made now; for the others an empty
    // host each until its module has loaded.
    ui.host = {};
    for (const [name, m] of Object.entries(VIEW_MODULES)) {
      if (m.make) {
        this.#views[name] = m.make(this.#host).view;
        ui.host[name] = this.#views[name].node;
      } else {
        ui.host[name] = el('div', { class: 'view-host', 'data-host': name });
      }
    }
    ui.link = el('a', { class: 'link', target: '_blank', rel: 'noopener' });
    ui.linkNote = el('span', { class: 'link-note', hidden: '' });
    ui.links = el('p', { class: 'links' }, [ui.link, ui.linkNote]);
    ui.card = el('div', { class: 'card-host' });
    ui.inspector = el('div', { class: 'inspector-host', hidden: '' });

    this.shadowRoot.append(
      el('style', { text: STYLE }),
      bar,
      ui.openRow,
      ui.inputRow,
      this.#notes.node,
      ui.status,
      ui.offline,
      ui.error,
      ...VIEWS.map((v) => ui.host[v]),
      ui.inspector,
      ui.links,
      ui.card,
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
    on(ui.model, 'change', () =>
      this.#userSet({ model: ui.model.value, layer: 0, head: 0, kind: null, step: null }),
    );
    on(ui.lang, 'change', () => this.#userSet({ lang: resolveLang(ui.lang.value) }));
    on(ui.input, 'input', () => this.#userSet({ input: cleanInput(ui.input.value), step: null }));
    on(ui.openButton, 'click', () => ui.openInput.click());
    on(ui.openInput, 'change', () => {
      const file = ui.openInput.files?.[0];
      ui.openInput.value = ''; // picking the same file again opens it again
      if (file) this.#openValue(file, true);
    });
    // Drops on the element (file-picker): one file opens; anything else is named (open-model.js).
    const picking = (e) =>
      this.hasAttribute('file-picker') && [...(e.dataTransfer?.types ?? [])].includes('Files');
    for (const type of ['dragenter', 'dragover']) {
      on(this, type, (e) => {
        if (!picking(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        this.toggleAttribute('data-dragging', true);
      });
    }
    on(this, 'dragleave', (e) => {
      if (!e.relatedTarget || !this.contains(/** @type {Node} */ (e.relatedTarget)))
        this.removeAttribute('data-dragging');
    });
    on(this, 'drop', (e) => {
      this.removeAttribute('data-dragging');
      if (!this.hasAttribute('file-picker')) return;
      e.preventDefault();
      e.stopPropagation(); // the page's own drop handler (web/main.js) leaves it to the element
      this.openDropped(e.dataTransfer);
    });
    this.#notes.wire(signal);
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
      u.link.textContent = t(lang, 'link.label');
      u.openButton.textContent = t(lang, 'open.button');
      u.openHint.textContent = t(lang, 'open.hint', { limit: MAX_MODEL_BYTES / 1048576 });
      u.offline.textContent = t(lang, 'status.offline');
      for (const view of Object.values(this.#views)) view.texts?.(lang);
      this.#fillModelSelect();
    }
    if (this.#renderedFamily !== VIEW_FAMILY[s.view]) {
      this.#renderedFamily = VIEW_FAMILY[s.view];
      this.#fillModelSelect();
    }
    u.lang.value = lang;
    for (const view of VIEWS) {
      u.tab[view].setAttribute('aria-selected', String(view === s.view));
      u.tab[view].tabIndex = view === s.view ? 0 : -1;
      u.host[view].hidden = view !== s.view;
    }
    u.tabs.hidden = hide.has('views');
    // compare lists every model; forgetting always runs its pair (reversePair, forgetting-view.js)
    u.modelField.hidden = hide.has('picker') || s.view === 'compare' || s.view === 'forgetting';
    u.langField.hidden = hide.has('lang');
    u.inputRow.hidden = hide.has('input');
    u.openRow.hidden = !this.hasAttribute('file-picker');
    this.#views.alignment.showExplain(!hide.has('explain'));
    u.status.hidden = hide.has('status');
    u.links.hidden = hide.has('link');
    this.#renderCard(hide.has('card') || s.view === 'compare');
    this.toggleAttribute('data-hide-export', hide.has('export'));
    if (!u.model.querySelector(`option[value="${CSS.escape(s.model)}"]`)) {
      u.model.append(this.#modelOption(s.model)); // a same-origin path, a model file still loading or refused
    }
    u.model.value = s.model;
    const shownModel = this.#cache.settled(s.model)?.model;
    const limit = shownModel && VIEW_MODULES[s.view].one ? inputLimit(shownModel) : null;
    u.hint.textContent = [
      inputHint(lang, VIEW_FAMILY[s.view], shownModel?.config.tokenizer),
      limit
        ? t(lang, 'input.limit', {
            name: this.#displayName(s.model),
            max: limit.max,
            unit: t(lang, limit.unit),
          })
        : '',
    ]
      .filter(Boolean)
      .join(lang === 'zh' ? '' : ' ');
    const entry = findModel(s.model);
    const cardUrlOf = cardUrl(entry);
    const card = cardUrlOf ? this.#cache.card(cardUrlOf, false) : null;
    this.#notes.setExamples(
      examplesFor(entry?.task, card instanceof Error ? null : card, lang, MAX_INPUT),
      lang,
    );
    // A link cannot carry the visitor's file: it opens the view's own first model, and says so.
    const local = isLocalModel(s.model, pageOrigin());
    const fallback = defaultModelFor(s.view);
    const params = formatModelParams({ ...s, seed: null, ...(local ? { model: fallback } : {}) });
    u.link.href = `${new URL('../embed.html', import.meta.url).href}?${params}`;
    u.linkNote.hidden = !local;
    u.linkNote.textContent = local
      ? ` ${t(lang, 'open.linkNote', { fallback, name: this.#displayName(s.model) })}`
      : '';
    this.#renderInspector();
  }

  /**
   * The current model's card (model-card.js) under the view, once its JSON has loaded; fetched
   * after the first plot (the card never delays a view), once per model and page (model-cache.js).
   */
  #renderCard(hidden) {
    const u = this.#ui;
    const s = this.#state;
    const url = cardUrl(findModel(s.model));
    u.card.hidden = hidden || !url;
    if (u.card.hidden) return;
    const key = `${s.model}\u0000${s.lang}`;
    if (this.#cardKey === key) return;
    // Started after the model (the first plot) has loaded.
    const card = this.#cache.card(url, this.#cache.settled(s.model) !== undefined);
    if (!card) return;
    this.#cardKey = key;
    u.card.replaceChildren(
      card instanceof Error
        ? el('p', { class: 'note', text: t(s.lang, 'card.unavailable', { message: card.message }) })
        : renderCard(card, s.lang, url, findModel(s.model)?.task ?? null),
    );
  }

  /** The model picker: the models of the view's family (untrained ones marked; offline, those
   * not saved on this device marked as needing the network). */
  #fillModelSelect() {
    const family = VIEW_FAMILY[this.#state.view] ?? 'seq2seq';
    fillModelOptions(this.#ui.model, modelsFor(family), this.#state.lang, this.#needsNetwork);
    // the visitor's model file joins the list of the views that draw it, for as long as it is open
    if (this.#local && this.#local.family === family)
      this.#ui.model.append(this.#modelOption(this.#local.key));
  }

  /** An <option> for a model outside the registry: the model file ("name (your file)") or a path. */
  #modelOption(name) {
    if (!this.#isLocal(name)) return el('option', { value: name, text: name });
    const yours = t(this.#state.lang, 'open.yourFile');
    const o = el('option', {
      value: name,
      text: this.#local.name ? `${this.#local.name} (${yours})` : `(${yours})`,
    });
    o.dataset.local = 'true';
    return o;
  }

  /** The open model file's inspector (open-model.js renderInspector), under a view that draws one model. */
  #renderInspector() {
    const u = this.#ui;
    const s = this.#state;
    const local = this.#isLocal(s.model) ? this.#local : null;
    u.inspector.hidden = !local?.inspect || s.hide.includes('card') || !VIEW_MODULES[s.view].one;
    if (u.inspector.hidden) return;
    const key = `${local.key}\u0000${s.lang}\u0000${this.#openGen}`;
    if (this.#inspectKey === key) return;
    this.#inspectKey = key;
    u.inspector.replaceChildren(renderInspector(local, s.lang));
  }

  /** Online or offline again: offline, find which models the service worker has saved (every
   * family's), mark the others in the picker and say so under it; online, drop the marks. */
  async #checkOffline() {
    let missing = null;
    if (isOffline()) {
      const models = [...new Set(Object.values(VIEW_FAMILY))].flatMap((family) =>
        modelsFor(family),
      );
      const saved = await savedUrls(models.map((m) => modelUrl(m)));
      if (saved && isOffline())
        missing = new Set(models.filter((m) => !saved.has(modelUrl(m))).map((m) => m.name));
    }
    this.#needsNetwork = missing;
    this.#ui.offline.hidden = !missing;
    this.#fillModelSelect();
    this.#renderedLang = null; // the offline note's language
    this.#schedule();
  }

  #render() {
    const t0 = performance.now();
    const s = this.#state;
    const lang = s.lang;
    this.#unknown = [];
    this.#blanked = false;
    this.#normalize();
    this.#renderChrome();
    if (s.view !== 'reading') this.#views.reading?.pause();
    if (this.#libError) {
      const problem = this.#libProblem;
      this.#showError(
        problem && problem.kind !== 'ok'
          ? fetchProblem(lang, 'wasm', problem)
          : t(lang, 'error.wasm', { message: this.#libError.message }),
      );
      this.#ui.status.textContent = t(lang, 'status.notRunning');
      for (const v of VIEWS) this.#ui.host[v].hidden = true; // no view can draw: the message alone
      return this.#finish(null, t0);
    }
    if (!this.#lib) {
      this.#ui.status.textContent = t(lang, 'status.wasm');
      return;
    }
    // Which build runs is said once, by the page (web/main.js #status); here only as the status
    // line's tooltip, a details line for whoever asks (ctx.build stays '' for the views).
    this.#ui.status.title = t(lang, this.#lib.simd ? 'status.simd' : 'status.scalar');
    const build = '';
    let refused = this.#refused.includes('model')
      ? t(lang, 'model.refused', { value: this.getAttribute('model') })
      : '';
    if (this.#wrongModel && !refused) {
      refused = t(lang, 'model.wrongView', {
        name: this.#wrongModel,
        family: t(lang, `family.${VIEW_FAMILY[s.view]}`),
        fallback: s.model,
      });
    }
    const view = this.#view(s.view);
    if (!view) {
      if (this.#loadError) {
        this.#showError(
          isOffline()
            ? t(lang, 'view.offline', { view: t(lang, `view.${s.view}`) })
            : t(lang, 'model.failed', {
                name: s.view,
                message: errorDetail(lang, this.#loadError),
              }),
        );
        return this.#finish(null, t0);
      }
      this.#ui.status.textContent = t(lang, 'model.loading', { name: s.model });
      return;
    }
    const spec = VIEW_MODULES[s.view];
    if (!spec.one) return view.update(this.#context(t0, build, refused, null));
    const loaded = this.#cache.model(s.model);
    const local = this.#isLocal(s.model) ? this.#local : null;
    if (!loaded) {
      this.#ui.status.textContent = local
        ? t(lang, 'open.loading', { name: local.name })
        : t(lang, 'model.loading', { name: s.model });
      this.#showError(''); // nothing stays from the model before
      this.#ui.host[s.view].hidden = true; // nor its drawing: "Loading…" alone until it is here
      return;
    }
    if (loaded.error) {
      const message = local
        ? localError(lang, local.name, loaded.error)
        : modelError(lang, s.model, loaded.error);
      this.#showError([refused, message].filter(Boolean).join(' '));
      this.#ui.status.textContent = ''; // no longer loading
      this.#ui.host[s.view].hidden = true; // nothing to draw: the message alone
      this.#clearViews((m) => !m.keep);
      return this.#finish(null, t0);
    }
    const model = loaded.model;
    if (local && !this.#localFits(s.view)) {
      // The visitor's file draws in no view (or in another one): say so; the inspector stays.
      this.#showError(
        local.view
          ? t(lang, 'model.wrongArch', {
              family: t(lang, `family.${VIEW_FAMILY[s.view]}`),
              name: local.name,
              arch: local.arch,
            })
          : t(lang, 'open.noView', { name: local.name, arch: local.arch }),
      );
      this.#ui.status.textContent = '';
      this.#ui.host[s.view].hidden = true;
      this.#clearViews((m) => !m.keep);
      return this.#finish(null, t0);
    }
    if (!drawsIn(model.architecture, model.config.head, s.view)) {
      // A same-origin path of another architecture: say so instead of drawing nonsense.
      const what =
        model.architecture === 'memory-rnn'
          ? `${model.architecture} ${model.config.head}`
          : model.architecture;
      this.#showError(
        t(lang, 'model.wrongArch', {
          family: t(lang, `family.${VIEW_FAMILY[s.view]}`),
          name: s.model,
          arch: what,
        }),
      );
      this.#clearViews((m) => m.load); // only the views of that architecture
      return this.#finish(null, t0);
    }
    view.update(this.#context(t0, build, refused, model));
  }

  /** clear() the made views whose VIEW_MODULES entry passes pick. */
  #clearViews(pick) {
    for (const [name, v] of Object.entries(this.#views)) if (pick(VIEW_MODULES[name])) v.clear();
  }

  /** What a view's update(ctx) is given (see the header). */
  #context(t0, build, refused, model) {
    return {
      state: this.state,
      model,
      models: this.#cache,
      build,
      refused,
      run: (m, input, options) => this.#run(m, input, options),
      inputProblem: (m, input) => this.#inputProblem(m, input),
      blank: (message) => this.#blank(message),
      error: (message) => this.#showError(message),
      modelError: (name, error) => modelError(this.#state.lang, name, error),
      status: (text) => void (this.#ui.status.textContent = text.trim()), // trimmed: a view may still prefix the '' build
      elapsed: () => performance.now() - t0,
      flushAll: () =>
        this.shadowRoot
          .querySelectorAll('attn-heatmap')
          .forEach((h) => /** @type {any} an <attn-heatmap> */ (h).flush?.()),
      finish: (result, extra) => this.#finish(result, t0, extra),
    };
  }

  /** The view called name; null while its module loads (then redraws). */
  #view(name) {
    if (this.#views[name]) return this.#views[name];
    this.#loading[name] ??= VIEW_MODULES[name].load(this.#host).then(
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

  #finish(result, t0, extra = {}) {
    this.#showNotes();
    this.#exportContext(result, extra);
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

  /** What the current view's maps are of, for their exports (<attn-heatmap> context): the model,
   * the input and the output (a classifier's label), in the views that draw the one current model;
   * compare and forgetting, which run models of their own, set their maps' context themselves. */
  #exportContext(result, extra) {
    const s = this.#state;
    if (!VIEW_MODULES[s.view]?.one) return;
    const name = this.#isLocal(s.model) ? (this.#local?.name ?? s.model) : s.model;
    const output = extra.output ?? extra.label ?? null;
    for (const h of this.#views[s.view]?.heatmaps ?? []) {
      h.context = result ? { model: name, input: s.input, output } : {};
    }
  }

  /** Under the input: the words this render's runs did not know (the reading view lists its own,
   * in place) and what domain.js finds outside the current model's domain (none while it loads or
   * when it failed to load). */
  #showNotes() {
    const s = this.#state;
    const model = this.#cache.settled(s.model)?.model ?? null;
    // the time view decodes without run(): its input's unknown words are read off the tokenizer
    const unknown =
      s.view === 'reading'
        ? []
        : s.view === 'time' && model?.tokenizer.type === 'word'
          ? model.tokenizer.unknownWords(s.input)
          : this.#unknown;
    const warnings =
      model && !this.#blanked
        ? domainWarnings(findModel(s.model), model, s.input, s.lang, () => this.#showNotes())
        : [];
    this.#notes.show({ unknown, unk: model?.tokenizer.specials?.unk ?? '<unk>', warnings }, s.lang);
  }

  /**
   * Why model cannot read input, in the current language, or null: empty (no token), or longer
   * than the positions the model learned (config maxPositions, in its tokens: characters or words).
   */
  #inputProblem(model, input) {
    const lang = this.#state.lang;
    const n = input ? model.encode(input).length : 0;
    if (n === 0) return t(lang, 'input.empty');
    const limit = inputLimit(model);
    if (limit && n > limit.max)
      return t(lang, 'input.tooLong', {
        name: this.#displayName(this.#state.model),
        max: limit.max,
        unit: t(lang, limit.unit),
        n,
      });
    return null;
  }

  /**
   * A view that cannot draw this input (empty, too long, the run failed): the message alone, in
   * the error line; the view hidden, so nothing of the input before stays on screen (its map,
   * output, words, step, status, export buttons); the next drawable input shows it again
   * (#renderChrome).
   */
  #blank(message) {
    this.#blanked = true;
    this.#showError(message);
    this.#ui.status.textContent = '';
    this.#ui.host[this.#state.view].hidden = true;
  }

  /** Run the model; null (and the view blanked with the reason, #blank) when the input cannot be run. */
  #run(model, input, options = undefined) {
    const problem = this.#inputProblem(model, input);
    if (problem) {
      this.#blank(problem);
      return null;
    }
    try {
      const result = options ? model.run(input, options) : model.run(input);
      for (const w of result?.unknownWords ?? [])
        if (!this.#unknown.includes(w)) this.#unknown.push(w);
      return result;
    } catch (err) {
      this.#blank(
        t(this.#state.lang, 'error.run', { message: errorDetail(this.#state.lang, err) }),
      );
      return null;
    }
  }
}

/**
 * The most tokens model reads, when its config caps them (a transformer's learned positions,
 * config maxPositions): { max, unit } with unit the i18n key of its tokens ('unit.char' or
 * 'unit.word'); null when only the input box's MAX_INPUT characters limit it.
 */
export function inputLimit(model) {
  const max = /** @type {any} */ (model?.config)?.maxPositions;
  if (!Number.isInteger(max) || max <= 0) return null;
  return { max, unit: model.tokenizer?.type === 'word' ? 'unit.word' : 'unit.char' };
}

/** Register <attn-demo> (and <attn-heatmap>, which it uses). Safe to call more than once. */
export function define(tag = 'attn-demo', registry = customElements) {
  defineHeatmap();
  if (!registry.get(tag))
    registry.define(tag, tag === 'attn-demo' ? AttnDemo : class extends AttnDemo {});
  return registry.get(tag);
}
