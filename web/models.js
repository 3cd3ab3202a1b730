// models.js: the registry of models the demo offers, and loading one without surprises.
//
//   import { MODELS, DEFAULT_MODEL, resolveModel, fetchModel } from './models.js';
//   const entry = resolveModel('dates-additive');          // a registry name or a same-origin path
//   const model = await fetchModel(entry, loadModel);       // throws ModelUnavailableError on 404
//
// Holds: the list (name, file, mechanism), the validation of a model named in a URL (registry
// names, or same-origin *.safetensors paths; anything else is refused), and a fetch that turns a
// missing file into a typed error with a clear message instead of a console error. Deliberately
// does not import attnlab: the caller passes loadModel, so this module stays testable in Node.
//
// File URLs are resolved against this module (import.meta.url), not the host page, so
// <attn-demo> finds the models from any page that imports web/embed.js.

import { mulberry32 } from './data.js';
import { generateDates } from './data/dates.js';

/**
 * Shipped models: trained on the dates task (web/data/dates.js), one per mechanism.
 * `file` is relative to this module.
 */
const DATES = ['additive', 'dot', 'general', 'concat', 'local-p', 'none'].map((attention) =>
  Object.freeze({
    name: `dates-${attention}`,
    file: `models/dates-${attention}.safetensors`,
    card: `models/dates-${attention}.json`,
    attention,
    trained: true,
  }),
);

/**
 * Tiny random test models (tests/fixtures, docs/models.md "Tests and accuracy"): 15-symbol
 * vocabularies (a–k), untrained, so their alignments are noise; they exercise every mechanism.
 */
const TINY = [
  ['additive', 'model_lstm_additive_bahdanau'],
  ['dot', 'model_gru_dot_bahdanau'],
  ['concat', 'model_bilstm_concat_luong'],
  ['local-p', 'model_lstm_local_p'],
  ['local-m', 'model_gru_local_m_concat'],
  ['key-query', 'model_lstm_key_query_bahdanau'],
  ['none', 'model_lstm_none'],
].map(([attention, file]) =>
  Object.freeze({
    name: `tiny-${attention}`,
    file: `../tests/fixtures/${file}.safetensors`,
    card: null,
    attention,
    trained: false,
  }),
);

/** Which set the page offers: 'dates' (trained, committed), or 'tiny' to develop without them. */
export const OFFERED = 'dates';

/** Every model the registry knows, offered ones first. */
export const ALL_MODELS = Object.freeze(OFFERED === 'dates' ? [...DATES, ...TINY] : [...TINY, ...DATES]);

/** The models the page's picker and the compare view list. */
export const MODELS = Object.freeze(OFFERED === 'dates' ? DATES : TINY);

export const DEFAULT_MODEL = MODELS[0].name;

/** A sample input for each set (what the dates task reads; letters for the tiny models). */
export const DEFAULT_INPUT = OFFERED === 'dates' ? '22 Nov 2026' : 'abcdefg';

const NAME_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MAX_PATH = 256;

/** The registry entry called name, or null. */
export function findModel(name) {
  return ALL_MODELS.find((m) => m.name === name) ?? null;
}

/** Absolute URL of an entry's file. */
export function modelUrl(entry, base = import.meta.url) {
  return new URL(entry.file, base).href;
}

/**
 * A model named in a URL or an attribute, validated: a registry name gives its entry; a path that
 * starts with '/' (not '//'), ends in '.safetensors' and stays on pageOrigin gives an ad-hoc entry;
 * anything else (other origins, javascript:, data:, '..', backslashes, NUL, over-long) gives null.
 * @param {unknown} value
 * @param {string} pageOrigin e.g. location.origin
 */
export function resolveModel(value, pageOrigin) {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_PATH) return null;
  if (NAME_RE.test(value)) return findModel(value);
  if (!value.startsWith('/') || value.startsWith('//')) return null;
  if (/[\\\u0000-\u001f\u007f]/.test(value) || !/\.safetensors$/.test(value)) return null;
  if (value.split('/').some((s) => s === '..' || s === '.')) return null;
  let url;
  try {
    url = new URL(value, pageOrigin);
  } catch {
    return null;
  }
  if (url.origin !== pageOrigin || url.search || url.hash) return null;
  return Object.freeze({ name: value, file: url.href, card: null, attention: null, trained: null, path: true });
}

/** Thrown by fetchModel when the file is missing; `status` is the HTTP status. */
export class ModelUnavailableError extends Error {
  constructor(entry, url, status) {
    super(`model ${entry.name} is not available: ${url} answered HTTP ${status}`);
    this.name = 'ModelUnavailableError';
    this.entry = entry;
    this.url = url;
    this.status = status;
  }
}

/**
 * Fetch an entry's file and hand it to loadModel (attnlab's, passed in). A 404 or any non-2xx
 * answer becomes ModelUnavailableError (nothing is logged); a broken file becomes loadModel's
 * AttnlabError.
 */
export async function fetchModel(entry, loadModel, { fetchImpl = fetch, base } = {}) {
  const url = entry.path ? entry.file : modelUrl(entry, base);
  const response = await fetchImpl(url);
  if (!response.ok) throw new ModelUnavailableError(entry, url, response.status);
  return loadModel(new Uint8Array(await response.arrayBuffer()));
}

/**
 * A sample input for a seed (the embed page's `seed` parameter): a held-out date from the dates
 * generator (web/data/dates.js), or 4 to 9 letters a–k for the tiny models (mulberry32, data.js).
 * Deterministic either way.
 */
export function sampleInput(seed) {
  if (OFFERED === 'dates') return generateDates({ seed, count: 1, split: 'heldout' })[0].src;
  const next = mulberry32(seed);
  const letters = 'abcdefghijk';
  const n = 4 + Math.floor(next() * 6);
  let out = '';
  for (let i = 0; i < n; i++) out += letters[Math.floor(next() * letters.length)];
  return out;
}
