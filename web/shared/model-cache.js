// model-cache.js: what <attn-demo> fetches, fetched once: its models, the forgetting view's
// length curves, and the model cards (shared by every element of the page).
//
//   const cache = new ModelCache({ onSettle: () => redraw() });
//   const loaded = cache.model('dates-additive');  // null while loading (then onSettle), else { model } | { error }
//   cache.dispose();                                // every model's wasm memory freed
//
// Each lookup answers at once: the settled result, or null while the fetch runs, and onSettle is
// called when it lands, so a view asks again on the redraw instead of awaiting. A model that
// arrives after dispose() (the element left the document while it loaded) is disposed at once.
// Holds: the maps of promises and settled results, and the sentence for a failed load
// (modelError). Deliberately draws nothing and knows no view.

import { loadModel } from '../../wasm/index.js';
import { diagnoseFetch, fetchProblem } from './fetch-problem.js';
import { errorDetail, t } from './i18n.js';
import { cardSummary } from './model-card.js';
import { ModelUnavailableError, fetchModel, modelUrl, resolveModel } from './models.js';
import { isOffline } from './offline.js';

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

/** The origin of the page's URL ('null' documents, e.g. sandboxed iframes, still have a URL). */
export function pageOrigin() {
  try {
    return new URL(document.baseURI).origin;
  } catch {
    return 'null';
  }
}

/**
 * What to say when model name could not be loaded (error: fetchModel's or loadModel's): the URL,
 * why and the fix for a file that could not be fetched (a fetch with no answer carries
 * diagnoseFetch's `problem`, added by ModelCache), loadModel's message for a broken one; offline, a
 * model the service worker has not saved (web/sw.js) needs the network, and says so.
 */
export function modelError(lang, name, error) {
  if (error instanceof ModelUnavailableError) {
    // offline and not saved by web/sw.js: no server to diagnose, the network is what is missing
    if (!error.status && isOffline()) return t(lang, 'model.offline', { name });
    const problem = error.status
      ? { kind: 'http', url: error.url, status: error.status }
      : /** @type {any} */ (error).problem;
    if (problem && problem.kind !== 'ok') return fetchProblem(lang, 'model', problem, { name });
  }
  return t(lang, 'model.failed', { name, message: errorDetail(lang, error) });
}

/** A fetch with no answer: diagnoseFetch's look at why, kept on the error for modelError. */
async function withProblem(error) {
  if (error instanceof ModelUnavailableError && !error.status && !isOffline())
    /** @type {any} */ (error).problem = await diagnoseFetch(error.url);
  return error;
}

export class ModelCache {
  #models = new Map(); // name -> Promise<{ model } | { error }>
  #settled = new Map(); // name -> { model } | { error } once loaded
  #curves = new Map(); // curve URL -> Promise, then { curve } | { error }
  #onSettle;

  /** onSettle(): something asked for has landed (redraw). */
  constructor({ onSettle = () => {} } = {}) {
    this.#onSettle = onSettle;
  }

  /** The settled load of a model ({ model } or { error }), or null while loading (starts it). */
  model(name) {
    if (this.#settled.has(name)) return this.#settled.get(name);
    if (!this.#models.has(name)) {
      const entry = resolveModel(name, pageOrigin());
      const promise = (
        entry ? fetchModel(entry, loadModel) : Promise.reject(new Error(`unknown model ${name}`))
      )
        .then(
          (model) => ({ model, entry }),
          async (error) => ({ error: await withProblem(error), entry }),
        )
        .then((result) => {
          if (this.#models.get(name) !== promise) {
            /** @type {{ model?: import('attnlab').Model }} */ (result).model?.dispose(); // the element left the document while this loaded
            return;
          }
          this.#settled.set(name, result);
          this.#onSettle();
        });
      this.#models.set(name, promise);
    }
    return null;
  }

  /**
   * A model of the visitor's own (open-model.js) under key: promise resolves to { model } or
   * { error } (never rejects); it settles like a fetched one. A key already held is forgotten first.
   */
  local(key, promise) {
    this.forget(key);
    const p = promise.then((result) => {
      if (this.#models.get(key) !== p) {
        result.model?.dispose(); // replaced (or the element left the document) while it loaded
        return;
      }
      this.#settled.set(key, result);
      this.#onSettle();
    });
    this.#models.set(key, p);
  }

  /** Drop the model under key and free its wasm memory (one still loading is freed when it lands). */
  forget(key) {
    this.#settled.get(key)?.model?.dispose();
    this.#settled.delete(key);
    this.#models.delete(key);
  }

  /** The settled load of a model without starting one (undefined until it has landed). */
  settled(name) {
    return this.#settled.get(name);
  }

  /** The forgetting view's length curve (JSON in web/models/): { curve } | { error }, or null
   * while it loads (starts it). */
  curve(file) {
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
          this.#onSettle();
        });
      this.#curves.set(url, promise);
    }
    return null;
  }

  /**
   * A model card (url: cardUrl()): its cardSummary() or an Error; null while it loads, or when no
   * element has asked for it yet and start is false. The cache that starts the fetch redraws
   * (onSettle) when it lands.
   */
  card(url, start) {
    const card = CARDS.get(url);
    if (!card) {
      if (!start) return null;
      CARDS.set(
        url,
        loadCard(url).then((c) => CARDS.set(url, c)),
      );
      CARDS.get(url).then(() => this.#onSettle());
      return null;
    }
    return card instanceof Promise ? null : card;
  }

  /** Free every model's wasm memory (disposing a model disposes its decoders); loads still under
   * way dispose theirs when they land. */
  dispose() {
    for (const entry of this.#settled.values()) entry.model?.dispose();
    this.#models.clear();
    this.#settled.clear();
  }
}
