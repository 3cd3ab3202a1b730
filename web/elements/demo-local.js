// demo-local.js: the visitor's own model file in <attn-demo> (docs/open-a-model.md): opening one
// (the modelFile property, the picker, a drop, a same-origin blob: URL model attribute), the one
// open file's state, and closing it.
//
//   const file = new LocalModel({ cache, state: () => s, set: (patch, fromUser) => …, redraw });
//   file.openValue(aFile, true);        // a person picked it: the change is announced
//   file.shown(s.model)                 // the open file, when it is the current model, else null
//   file.fits('time')                   // does its model draw in that view?
//
// One file at a time: { key ('file:<name>' or the blob: URL), name, size, inspect (once read),
// view and family (once loaded; view null: no view draws it), arch (as the messages name it),
// architecture and head (the model's) }; a new one frees the old one's model (ModelCache.forget).
// Holds: reading and loading the file and the settings patch that shows it. Deliberately holds no
// DOM of the element's beyond the picker's <option> and the inspector (open-model.js draws it),
// and no validation of the file (open-model.js readLocal, the C loader).

import { init, loadModel, readSafetensors } from '../../wasm/index.js';
import { switchView } from '../shared/app-state.js';
import { VIEW_FAMILIES, familyOf, viewFor } from '../shared/architectures.js';
import { t } from '../shared/i18n.js';
import { defaultModelFor, sampleFor } from '../shared/models.js';
import {
  LocalFileError,
  MAX_MODEL_BYTES,
  droppedFile,
  localSource,
  readLocal,
  renderInspector,
} from '../shared/open-model.js';
import { el } from '../shared/view-kit.js';
import { VIEW_MODULES } from '../views/registry.js';

export class LocalModel {
  #host;
  #local = null; // the open file (see the header)
  #gen = 0; // bumped by each open: a read that lands after a newer open is dropped
  #file = null; // the File/Blob/bytes the open file came from (the modelFile property)
  #inspectKey = '';

  /**
   * cache: the element's ModelCache; state(): its settings; set(patch, fromUser): apply a settings
   * patch (announced when fromUser) and redraw; redraw(): draw again (the picker's list changed).
   * @param {{ cache: import('../shared/model-cache.js').ModelCache, state: () => any,
   *   set: (patch: object, fromUser: boolean) => void, redraw: () => void }} host
   */
  constructor(host) {
    this.#host = host;
  }

  /** The value the open file came from (the modelFile property), or null. */
  get file() {
    return this.#file;
  }

  /** The open file's key ('file:<name>' or its blob: URL), or null. */
  get key() {
    return this.#local?.key ?? null;
  }

  /** The open file's family once loaded (the views that list it), else null. */
  get family() {
    return this.#local?.family ?? null;
  }

  /** Is name the open file's key? */
  is(name) {
    return this.#local !== null && name === this.#local.key;
  }

  /** The open file when name is its key, else null. */
  shown(name) {
    return this.is(name) ? this.#local : null;
  }

  /** Does the open file draw in view (the one it opened in, or another its architecture opens in)? */
  fits(view) {
    const local = this.#local;
    if (!local?.view) return false;
    return local.view === view || viewFor(local.architecture, local.head, view) === view;
  }

  /** A model's name as the page says it: the file's name for the open file ("your file" when a
   * drop had none). */
  displayName(name, lang) {
    if (!this.is(name)) return name;
    return this.#local.name || t(lang, 'open.yourFile');
  }

  /** An <option> for a model outside the registry: the open file ("name (your file)") or a path. */
  option(name, lang) {
    if (!this.is(name)) return el('option', { value: name, text: name });
    const yours = t(lang, 'open.yourFile');
    const o = el('option', {
      value: name,
      text: this.#local.name ? `${this.#local.name} (${yours})` : `(${yours})`,
    });
    o.dataset.local = 'true';
    return o;
  }

  /** The settings patch for a tab to view from s (app-state.js switchView: another family's model
   * and input; away from the views the open file draws in, the view's first model). */
  switchTo(s, view) {
    const next = switchView(s, view);
    if (this.is(s.model) && !this.fits(view)) {
      Object.assign(next, { model: defaultModelFor(view), layer: 0, head: 0, kind: null });
      next.input = sampleFor(next.model);
    }
    const patch = {};
    for (const k of ['view', 'model', 'input', 'layer', 'head', 'kind', 'step'])
      if (next[k] !== s[k]) patch[k] = next[k];
    return patch;
  }

  /** The open file's inspector (open-model.js renderInspector) in node, under a view that draws
   * one model, unless hidden (hide="card"). */
  inspect(node, s) {
    const local = this.shown(s.model);
    node.hidden = !local?.inspect || s.hide.includes('card') || !VIEW_MODULES[s.view].one;
    if (node.hidden) return;
    const key = `${local.key}\u0000${s.lang}\u0000${this.#gen}`;
    if (this.#inspectKey === key) return;
    this.#inspectKey = key;
    node.replaceChildren(renderInspector(local, s.lang));
  }

  /** Open a modelFile value (localSource reads it once, brand-checked). */
  openValue(value, fromUser) {
    this.#file = value;
    let got;
    try {
      got = localSource(value);
    } catch {
      // localSource refuses every kind by name; anything it did not foresee is refused the same way
      got = { problem: new LocalFileError('open.badValue', { kind: 'an unreadable value' }) };
    }
    if (got.problem) this.#file = null;
    this.#open(got.source ?? null, got.problem ?? null, fromUser);
  }

  /** Open what a drop carried (its one file), or say why not (several files, a folder, text). */
  openDropped(dataTransfer) {
    /** @type {{ problem?: LocalFileError, source?: any, value?: File }} */
    let got;
    try {
      got = droppedFile(dataTransfer);
    } catch {
      got = { problem: new LocalFileError('open.notFile') };
    }
    if (got.problem) {
      this.#file = null;
      return this.#open(null, got.problem, true, got.problem.params?.name ?? ''); // several, or no file: no name
    }
    this.#file = got.value;
    this.#open(got.source, null, true);
  }

  /** Open a blob: URL model attribute (a same-origin object URL; a revoked one says so). */
  openBlobUrl(url) {
    if (this.is(url)) return;
    this.#file = null;
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
    this.#open(source, null, false, url, url);
  }

  /**
   * Drops on element (an <attn-demo> with the file-picker attribute): one file opens; anything
   * else is named (open-model.js droppedFile); drags over it mark it data-dragging.
   * @param {HTMLElement} element @param {AbortSignal} signal
   */
  wireDrops(element, signal) {
    const on = (type, fn) => element.addEventListener(type, fn, { signal });
    const picking = (e) =>
      element.hasAttribute('file-picker') && [...(e.dataTransfer?.types ?? [])].includes('Files');
    for (const type of ['dragenter', 'dragover']) {
      on(type, (e) => {
        if (!picking(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        element.toggleAttribute('data-dragging', true);
      });
    }
    on('dragleave', (e) => {
      if (!e.relatedTarget || !element.contains(/** @type {Node} */ (e.relatedTarget)))
        element.removeAttribute('data-dragging');
    });
    on('drop', (e) => {
      element.removeAttribute('data-dragging');
      if (!element.hasAttribute('file-picker')) return;
      e.preventDefault();
      e.stopPropagation(); // the page's own drop handler (web/main.js) leaves it to the element
      this.openDropped(e.dataTransfer);
    });
  }

  /** modelFile = null: close the file; the view goes back to its own first model. */
  close() {
    this.#gen++;
    this.#file = null;
    const wasShown = this.is(this.#host.state().model);
    this.#drop();
    if (wasShown) {
      const model = defaultModelFor(this.#host.state().view);
      const patch = { model, input: sampleFor(model), layer: 0, head: 0, kind: null, step: null };
      this.#host.set(patch, true);
    } else this.#host.redraw();
  }

  /** The element left the document: its cache freed the model; a modelFile is reopened on
   * connect (reopen). */
  disconnect() {
    this.#local = null;
    this.#gen++;
  }

  /** Back in the document: the model file given before it left. */
  reopen() {
    if (this.#file !== null && !this.#local) this.openValue(this.#file, false);
  }

  /**
   * Open the file (source: open-model.js localSource's) or say why not (problem): the old one is
   * freed first; the element shows it as the current model at once (loading, then its error), and
   * once loaded moves to the view that draws it.
   */
  #open(source, problem, fromUser, name = source?.name ?? 'modelFile', key = `file:${name}`) {
    const gen = ++this.#gen;
    this.#drop();
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
      if (gen !== this.#gen) throw new Error('replaced'); // a newer file: its model is never made
      const model = await loadModel(bytes);
      const head = /** @type {any} */ (model.config).head; // memory-rnn: 'lm' or 'classifier'
      local.arch = model.architecture === 'memory-rnn' ? `memory-rnn ${head}` : model.architecture;
      [local.architecture, local.head] = [model.architecture, head];
      local.view = viewFor(model.architecture, head, this.#host.state().view);
      local.family = local.view ? familyOf(model.architecture, head) : null;
      return { model };
    })().then(
      (result) => result,
      (error) => ({ error }),
    );
    this.#host.cache.local(key, loading);
    this.#host.redraw(); // the picker lists the file
    // Shown at once, in a view that draws one model (compare and forgetting draw their own).
    const s = this.#host.state();
    const view = VIEW_MODULES[s.view].one ? s.view : 'alignment';
    this.#host.set({ model: key, view, layer: 0, head: 0, kind: null, step: null }, fromUser);
    loading.then(() => {
      const now = this.#host.state();
      if (gen !== this.#gen || !this.is(now.model) || !local.view || local.view === now.view)
        return;
      if (this.fits(now.view)) return;
      // into another family's view: that view's sample input, as a tab does (switchView); a dates
      // input means nothing to a classifier
      const input = (VIEW_FAMILIES[now.view] ?? []).includes(local.family)
        ? now.input
        : sampleFor(defaultModelFor(local.view));
      this.#host.set({ view: local.view, input, layer: 0, head: 0, kind: null, step: null }, true);
    });
  }

  /** Free the open file's model (if any) and forget it. */
  #drop() {
    if (!this.#local) return;
    this.#host.cache.forget(this.#local.key);
    this.#local = null;
    this.#inspectKey = '';
    this.#host.redraw();
  }
}
