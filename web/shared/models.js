// models.js: the registry of models the demo offers, and loading one without surprises.
//
//   import { MODELS, DEFAULT_MODEL, resolveModel, fetchModel } from './models.js';
//   const entry = resolveModel('dates-additive');          // a registry name or a same-origin path
//   const model = await fetchModel(entry, loadModel);       // throws ModelUnavailableError on 404
//
// Holds: the list (name, file, family, mechanism, sample input), which models each view offers
// (a view shows one family: seq2seq, transformer, classifier, memory-rnn language models for the
// reading view, or the reversal pair for the forgetting view), the validation of a model named in a URL (registry
// names, or same-origin *.safetensors paths; anything else is refused), and a fetch that turns a
// missing file into a typed error with a clear message instead of a console error (and takes the
// page's early fetch of a file, web/first-model.js, instead of fetching it again). Deliberately
// does not import attnlab: the caller passes loadModel, so this module stays testable in Node.
//
// File URLs are resolved against web/ (WEB: this module's folder's parent, from import.meta.url),
// not the host page, so <attn-demo> finds the models from any page that imports web/embed.js.

import { mulberry32 } from '../data/playground.js';
import { VIEW_FAMILIES, VIEW_FAMILY } from './architectures.js';

/** The family of models each view shows (architectures.js). */
export { VIEW_FAMILY };
import { generateDates } from '../data/dates.js';

/**
 * Shipped models: trained on the dates task (web/data/dates.js), one per mechanism.
 * `file` is relative to web/ (WEB).
 */
const DATES = ['additive', 'dot', 'general', 'concat', 'local-p', 'none'].map((attention) =>
  Object.freeze({
    name: `dates-${attention}`,
    file: `models/dates-${attention}.safetensors`,
    card: `models/dates-${attention}.json`,
    family: 'seq2seq',
    task: 'dates',
    attention,
    trained: true,
    sample: '22 Nov 2026',
  }),
);

/**
 * English → French translation (web/data/translation.js, issue #14), one per mechanism: word-level
 * seq2seq models offered beside the dates ones by the alignment, time and compare views (compare
 * shows the models of the current model's task). The transformers are in TRAINED (heads view).
 */
export const TRANSLATION_SAMPLE = 'the cat sees the red car .';
const EN_FR = ['additive', 'dot', 'general', 'concat', 'local-p', 'none'].map((attention) =>
  Object.freeze({
    name: `en-fr-${attention}`,
    file: `models/en-fr-${attention}.safetensors`,
    card: `models/en-fr-${attention}.json`,
    family: 'seq2seq',
    task: 'translation',
    attention,
    trained: true,
    ready: true,
    sample: TRANSLATION_SAMPLE,
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
    family: 'seq2seq',
    attention,
    trained: false,
    sample: 'abcdefg',
  }),
);

/**
 * Tiny random transformers and classifiers (tests/fixtures, docs/models.md "Architecture
 * transformer" and "The classifier architecture"), offered by the heads and pooling views until
 * their trained models land. Untrained: the maps are noise, but every number is the model's own.
 * Transformers read the characters a–h (12-symbol vocabulary, at most 16 positions for the
 * learned ones; the -rel- ones use relative positions, Shaw et al. 2018); classifiers read the
 * words of TINY_WORDS (anything else becomes <unk>).
 */
const TINY_WORDS = Object.freeze([
  'the',
  'cat',
  'sat',
  'on',
  'mat',
  'a',
  'dog',
  'ran',
  'big',
  'red',
  'blue',
  'good',
  'bad',
  'not',
  '.',
]);
const TINY_FAMILIES = [
  ['tiny-tf-decoder', 'transformer_decoder_learned', 'transformer', 'abcdefg'],
  ['tiny-tf-encdec', 'transformer_encdec_sinusoidal', 'transformer', 'abcdefg'],
  ['tiny-tf-encoder', 'transformer_encoder_learned_post', 'transformer', 'abcdefg'],
  ['tiny-tf-rel-decoder', 'transformer_decoder_relative', 'transformer', 'abcdefg'],
  ['tiny-tf-rel-encdec', 'transformer_encdec_relative', 'transformer', 'abcdefg'],
  [
    'tiny-clf-attention',
    'classifier_attention_bilstm',
    'classifier',
    'the cat sat on the mat . not a good dog',
  ],
  [
    'tiny-clf-han',
    'classifier_han_bilstm',
    'classifier',
    'the cat sat on the mat . not a good dog . a big red dog ran',
  ],
  [
    'tiny-clf-structured',
    'classifier_structured_bilstm',
    'classifier',
    'the cat sat on the mat . not a good dog',
  ],
  // The reading view's stand-ins (memory-rnn language models over TINY_WORDS' words, plus <s> and
  // </s>) and the forgetting view's (seq2seq over a–k, at most 12 output characters; the curve is a
  // fixture, not a measurement).
  [
    'tiny-lm-lstmn',
    'memory_rnn_lm_lstmn',
    'memory-rnn',
    'The big dog sat on the mat.',
    { cell: 'lstmn' },
  ],
  [
    'tiny-lm-sarnn',
    'memory_rnn_lm_sarnn_additive',
    'memory-rnn',
    'The big dog sat on the mat.',
    { cell: 'self-attention-rnn' },
  ],
  [
    'tiny-lm-lstm',
    'memory_rnn_lm_lstm',
    'memory-rnn',
    'The big dog sat on the mat.',
    { cell: 'lstm' },
  ],
  [
    'tiny-reverse-attention',
    'model_lstm_additive_bahdanau',
    'reverse',
    'abcdefghij',
    {
      attention: 'additive',
      partner: 'tiny-reverse-none',
      curve: '../tests/fixtures/forgetting_curve.json',
    },
  ],
  [
    'tiny-reverse-none',
    'model_lstm_none',
    'reverse',
    'abcdefghij',
    {
      attention: 'none',
      partner: 'tiny-reverse-attention',
      curve: '../tests/fixtures/forgetting_curve.json',
    },
  ],
].map(([name, file, family, sample, extra = {}]) =>
  Object.freeze({
    name,
    file: `../tests/fixtures/${file}.safetensors`,
    card: null,
    family,
    attention: null,
    trained: false,
    sample,
    .../** @type {object} */ (extra),
  }),
);

/**
 * The trained models of the other families (web/models/<name>.safetensors and its card
 * <name>.json, made by `make models`): transformers for the heads view, review classifiers for
 * the pooling view, agreement language models for the reading view, the reversal pair for the
 * forgetting view. `ready: false` keeps an entry known by name (links to it give the plain
 * ModelUnavailableError message) but out of the pickers, so a model being remade never puts a 404
 * in a visitor's console. Samples are inputs of each task, at most MAX_INPUT (64) characters.
 */
const TRAINED = [
  ['tf-dates-absolute', 'transformer', '22 Nov 2026', { task: 'dates' }],
  ['tf-dates-relative', 'transformer', '22 Nov 2026', { task: 'dates' }],
  ['tf-induction', 'transformer', '<s> k f t b m w k f t', { task: 'induction' }],
  // English → French encoder-decoders: the heads view, cross-attention for the alignment.
  ['en-fr-transformer-absolute', 'transformer', TRANSLATION_SAMPLE, { task: 'translation' }],
  ['en-fr-transformer-relative', 'transformer', TRANSLATION_SAMPLE, { task: 'translation' }],
  [
    'clf-reviews-attention',
    'classifier',
    'The plot was not bad, but the music felt boring.',
    { task: 'reviews' },
  ],
  [
    'clf-reviews-han',
    'classifier',
    'Fast delivery. Broke in a week. Would not recommend.',
    { task: 'reviews' },
  ],
  [
    'clf-reviews-structured',
    'classifier',
    "I expected to hate it and I didn't.",
    { task: 'reviews' },
  ],
  // The reading view (Cheng, Dong & Lapata 2016): language models of the agreement grammar.
  [
    'lm-agreement-lstmn',
    'memory-rnn',
    'The FBI is chasing a criminal on the run.',
    { cell: 'lstmn', task: 'agreement' },
  ],
  [
    'lm-agreement-sarnn',
    'memory-rnn',
    'The FBI is chasing a criminal on the run.',
    { cell: 'self-attention-rnn', task: 'agreement' },
  ],
  [
    'lm-agreement-lstm',
    'memory-rnn',
    'The FBI is chasing a criminal on the run.',
    { cell: 'lstm', task: 'agreement' },
  ],
  // The forgetting view: string reversal with and without attention, and their length curve.
  [
    'seq-reverse-attention',
    'reverse',
    'npclaihprtgffsaakacoopbmpdgcorffoitggsqp',
    {
      task: 'reverse',
      attention: 'additive',
      partner: 'seq-reverse-none',
      curve: 'models/forgetting.json',
    },
  ],
  [
    'seq-reverse-none',
    'reverse',
    'npclaihprtgffsaakacoopbmpdgcorffoitggsqp',
    {
      task: 'reverse',
      attention: 'none',
      partner: 'seq-reverse-attention',
      curve: 'models/forgetting.json',
    },
  ],
].map(([name, family, sample, extra = {}]) =>
  Object.freeze({
    name,
    file: `models/${name}.safetensors`,
    card: `models/${name}.json`,
    family,
    attention: null,
    trained: true,
    ready: true,
    sample,
    .../** @type {object} */ (extra),
  }),
);

/** Which set the page offers: 'dates' (trained, committed), or 'tiny' to develop without them. */
export const OFFERED = 'dates';

/** Every model the registry knows, offered ones first. */
export const ALL_MODELS = Object.freeze([
  ...(OFFERED === 'dates' ? [...DATES, ...EN_FR, ...TINY] : [...TINY, ...DATES, ...EN_FR]),
  ...TRAINED,
  ...TINY_FAMILIES,
]);

/** The first set of the seq2seq views: the dates models (or the tiny ones), the compare view's
 * default list. */
export const MODELS = Object.freeze(OFFERED === 'dates' ? DATES : TINY);

export const DEFAULT_MODEL = MODELS[0].name;

/** A sample input for each set (what the dates task reads; letters for the tiny models). */
export const DEFAULT_INPUT = OFFERED === 'dates' ? '22 Nov 2026' : 'abcdefg';

const SEQ2SEQ = Object.freeze([...MODELS, ...EN_FR]);

/**
 * The models a view of `family` offers: seq2seq MODELS then the translation models; the other
 * families: the trained ones that are ready, or else the tiny untrained fixtures (which stay
 * reachable by name).
 */
export function modelsFor(family) {
  if (family === 'seq2seq') return SEQ2SEQ;
  const trained = TRAINED.filter((m) => m.family === family && m.ready);
  return Object.freeze(trained.length ? trained : TINY_FAMILIES.filter((m) => m.family === family));
}

/** The model a view opens with (its family's first offered model). */
export function defaultModelFor(view) {
  return modelsFor(VIEW_FAMILY[view] ?? 'seq2seq')[0].name;
}

/**
 * The seq2seq models the compare view runs side by side for the current model: those of its task
 * (the translation models for an en-fr one), else MODELS (a path, a tiny model, the dates).
 */
export function compareSet(name) {
  const task = findModel(name)?.task;
  if (!task || task === findModel(DEFAULT_MODEL)?.task) return MODELS;
  if (!COMPARE_SETS.has(task)) {
    const same = SEQ2SEQ.filter((m) => 'task' in m && m.task === task);
    COMPARE_SETS.set(task, same.length > 1 ? Object.freeze(same) : MODELS);
  }
  return COMPARE_SETS.get(task); // one array per task: the view refills its pickers when it changes
}
const COMPARE_SETS = new Map();

/** The sample input of a registry model (DEFAULT_INPUT for paths and unknown names). */
export function sampleFor(name) {
  return findModel(name)?.sample ?? DEFAULT_INPUT;
}

/** Does the model fit the view? Registry models by family; paths (family unknown) always do. */
export function modelFitsView(name, view) {
  const entry = findModel(name);
  if (!entry) return true;
  return (VIEW_FAMILIES[view] ?? ['seq2seq']).includes(entry.family);
}

/** The models a view's picker offers: those of each of its families (modelsFor), in order. */
export function modelsForView(view) {
  return (VIEW_FAMILIES[view] ?? ['seq2seq']).flatMap((family) => modelsFor(family));
}

const NAME_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MAX_PATH = 256;

/** The URL of web/, which the registry's file names (models/…) are relative to. */
const WEB = new URL('../', import.meta.url).href;

/** The registry entry called name, or null. */
export function findModel(name) {
  return ALL_MODELS.find((m) => m.name === name) ?? null;
}

/** Absolute URL of an entry's file (base: a URL in web/, or web/ itself). */
export function modelUrl(entry, base = WEB) {
  return new URL(entry.file, base).href;
}

/** Absolute URL of an entry's model card (web/models/<name>.json), or null (no card). */
export function cardUrl(entry, base = WEB) {
  return entry?.card ? new URL(entry.card, base).href : null;
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
  if (isBlobUrl(value, pageOrigin)) {
    return Object.freeze({
      name: value,
      file: value,
      card: null,
      family: null,
      attention: null,
      trained: null,
      path: true,
      blob: true,
    });
  }
  if (!value.startsWith('/') || value.startsWith('//')) return null;
  // eslint-disable-next-line no-control-regex -- a path never holds a control character
  if (/[\\\u0000-\u001f\u007f]/.test(value) || !/\.safetensors$/.test(value)) return null;
  if (value.split('/').some((s) => s === '..' || s === '.')) return null;
  let url;
  try {
    url = new URL(value, pageOrigin);
  } catch {
    return null;
  }
  if (url.origin !== pageOrigin || url.search || url.hash) return null;
  return Object.freeze({
    name: value,
    file: url.href,
    card: null,
    family: null,
    attention: null,
    trained: null,
    path: true,
  });
}

/**
 * Is value an object URL this page made (URL.createObjectURL: 'blob:' + the page's origin + '/' +
 * a UUID)? A course page hands <attn-demo> a visitor's file that way (open-model.js); another
 * origin's blob: URL could not be read anyway.
 */
export function isBlobUrl(value, pageOrigin) {
  return (
    typeof value === 'string' &&
    value.length <= MAX_PATH &&
    value.startsWith(`blob:${pageOrigin}/`) &&
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(
      value.slice(`blob:${pageOrigin}/`.length),
    )
  );
}

/** A model of the visitor's own, opened from a file ('file:<name>', open-model.js) or a blob: URL:
 * never in a link (a URL cannot carry it). */
export function isLocalModel(name, pageOrigin) {
  return typeof name === 'string' && (name.startsWith('file:') || isBlobUrl(name, pageOrigin));
}

/**
 * Thrown by fetchModel when the file cannot be fetched: `status` is the HTTP status, or 0 when
 * there was no answer the page may read (a network failure, a CORS refusal, a file:// page;
 * fetch-problem.js diagnoseFetch tells which).
 */
export class ModelUnavailableError extends Error {
  constructor(entry, url, status, cause = undefined) {
    super(
      status
        ? `model ${entry.name} is not available: ${url} answered HTTP ${status}`
        : `model ${entry.name} is not available: fetching ${url} failed: ${cause?.message ?? cause}`,
    );
    this.name = 'ModelUnavailableError';
    this.entry = entry;
    this.url = url;
    this.status = status;
  }
}

/**
 * Fetch an entry's file and hand it to loadModel (attnlab's, passed in). A 404 or any non-2xx
 * answer, or a fetch that fails, becomes ModelUnavailableError (nothing is logged); a broken file
 * becomes loadModel's AttnlabError.
 * @param {any} entry a MODELS entry (or resolveModel's)
 * @param {(bytes: Uint8Array) => Promise<any>} loadModel
 * @param {{ fetchImpl?: (url: string) => Promise<Response>, base?: string }} [options] fetchImpl: default fetchOnce
 */
export async function fetchModel(entry, loadModel, { fetchImpl = fetchOnce, base } = {}) {
  const url = entry.path ? entry.file : modelUrl(entry, base);
  let response;
  try {
    response = await fetchImpl(url);
  } catch (err) {
    throw new ModelUnavailableError(entry, url, 0, err);
  }
  if (!response.ok) throw new ModelUnavailableError(entry, url, response.status);
  return loadModel(new Uint8Array(await response.arrayBuffer()));
}

/**
 * The fetch of url (absolute) the page started before its modules loaded, taken once (a body is
 * read once), or null: web/first-model.js starts the wasm's and the first model's and hands them
 * on in window.attnlabEarly, because WebKit never reuses a <link rel="preload" as="fetch">.
 * Resolves to the Response, or to null when that fetch failed (fetch again, for its error).
 * @param {string} url
 * @returns {Promise<Response | null> | null}
 */
export function takeEarly(url) {
  const early = /** @type {{ attnlabEarly?: unknown }} */ (globalThis).attnlabEarly;
  if (!(early instanceof Map) || !early.has(url)) return null;
  const promise = early.get(url);
  early.delete(url);
  return promise;
}

/**
 * fetch(url), or the page's early fetch of it (takeEarly) when there is one; fetchModel's default.
 * @param {string} url
 * @returns {Promise<Response>}
 */
export async function fetchOnce(url) {
  return (await takeEarly(url)) ?? fetch(url);
}

/**
 * A sample input for a seed (the embed page's `seed` parameter): a held-out date from the dates
 * generator (web/data/dates.js), or 4 to 9 letters a–k for the tiny models (mulberry32, data/playground.js).
 * With a model name of another family: 4 to 9 letters a–h for the tiny transformers, 5 to 12
 * words of their vocabulary for the tiny classifiers, the sample input for trained ones (and for
 * the translation models, whose generator stays off the first view's critical path).
 * Deterministic either way.
 */
export function sampleInput(seed, name = null) {
  const entry = name === null ? null : findModel(name);
  if (entry && (entry.family !== 'seq2seq' || entry.task === 'translation')) {
    if (entry.trained) return entry.sample;
    const next = mulberry32(seed);
    if (entry.family === 'classifier' || entry.family === 'memory-rnn') {
      const n = 5 + Math.floor(next() * 8);
      return Array.from(
        { length: n },
        () => TINY_WORDS[Math.floor(next() * TINY_WORDS.length)],
      ).join(' ');
    }
    const n = 4 + Math.floor(next() * 6);
    return Array.from({ length: n }, () => 'abcdefgh'[Math.floor(next() * 8)]).join('');
  }
  if (OFFERED === 'dates') return generateDates({ seed, count: 1, split: 'heldout' })[0].src;
  const next = mulberry32(seed);
  const letters = 'abcdefghijk';
  const n = 4 + Math.floor(next() * 6);
  let out = '';
  for (let i = 0; i < n; i++) out += letters[Math.floor(next() * letters.length)];
  return out;
}
