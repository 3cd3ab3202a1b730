// attnlab/wasm/model.js: whole models (src/models/, docs/models.md) from one safetensors file.
//
//   import { loadModel } from 'attnlab';
//   const model = await loadModel('models/reverse.safetensors');     // URL, file: URL, path or bytes
//   const { output, ids, logProbs, attention } = model.run('abc', { beamWidth: 3 });
//   const dec = model.startDecoding('abc');                          // one token at a time
//   for (let s = dec.step(); ; s = dec.step()) { draw(s.weights); if (s.done) break; }
//   dec.dispose();
//   model.dispose();
//   const { label, probs, attention } = (await loadModel('sentiment.safetensors')).classify('not bad');
//
// What this file does: gets the bytes (fetch, or the file system for file: URLs and paths in
// Node), hands them to the C loader (al_model_load validates everything and keeps the weights
// resident in wasm memory), and hands each call to the model's architecture module
// (model/seq2seq.js, model/transformer.js, model/classifier.js, model/memory-rnn.js: each owns its
// tokenizer, run, scoring or decoding, training examples and evaluation). What it does not do: any maths, or hold a typed-array view
// across a call. A Model owns wasm memory until dispose(); a FinalizationRegistry only warns
// when one is garbage-collected undisposed. Every output buffer is sized from what C fixed when
// the model was loaded (al_model_info) or computes per call, never from a property a caller can
// write: a Model's fields are private, its documented properties read-only getters, its config
// a frozen copy.

import { AttnlabError, Arena, readCString, statusName } from './core.js';
import { readSource } from './source.js';
import { defaultLib } from './loader.js';
import { ERR_CAP, leaks } from './model/common.js';
import * as seq2seq from './model/seq2seq.js';
import * as transformer from './model/transformer.js';
import * as classifier from './model/classifier.js';
import * as memoryRnn from './model/memory-rnn.js';
import { ARCHITECTURES } from './model/architectures.js';

export { Decoder } from './model/seq2seq.js';

/**
 * What every architecture module exports (name, tokenizer, run, ...) and what only some do
 * (classify, score, startDecoding, forward: Model checks before calling).
 * @typedef {{ name: string, tokenizer: (config: any) => any, [entry: string]: any }} ArchModule
 */

/** The architecture modules by name (model/architectures.js ARCHITECTURES). */
const MODULES = { seq2seq, transformer, classifier, 'memory-rnn': memoryRnn };

/** The architecture modules by al_model_info's AL_ARCH_* value. @type {ArchModule[]} */
const ARCHS = ARCHITECTURES.map((a) => MODULES[a.name]);

/**
 * Load a model: a URL (fetched; file: URLs and plain paths are read from disk in Node), a
 * Response, or the file's bytes. Initialises attnlab first when needed. Throws AttnlabError with
 * the loader's message (naming the config key or tensor) and the status name as `code`.
 * @returns {Promise<Model>}
 */
export async function loadModel(source) {
  return loadModelIn(null, source);
}

/** loadModel() on instance `l` (createAttnlab), or on the default instance when l is null. @internal */
export async function loadModelIn(l, source) {
  const bytes = await readSource(source, 'loadModel');
  const x = (l ?? (await defaultLib())).x;
  const ar = new Arena(x);
  try {
    const pBytes = ar.alloc(bytes.length, 'the model file');
    new Uint8Array(x.memory.buffer, pBytes, bytes.length).set(bytes);
    const pOut = ar.alloc(4, 'the handle');
    const pErr = ar.alloc(ERR_CAP, 'the error message');
    const status = x.al_model_load(pBytes, bytes.length, pOut, pErr, ERR_CAP);
    if (status !== 0)
      throw new AttnlabError(`loadModel: ${readCString(x, pErr)}`, statusName(status));
    const ptr = new Uint32Array(x.memory.buffer, pOut, 1)[0];
    return new Model(x, ptr);
  } finally {
    ar.free();
  }
}

/** The al_model_info fields (src/api/model.h, AL_MODEL_INFO_*), in order. */
const INFO_FIELDS = [
  'arch',
  'srcVocab',
  'tgtVocab',
  'bos',
  'eos',
  'maxLength',
  'hasPositions',
  'layers',
  'heads',
  'variant',
  'maxPositions',
  'hops',
  'head',
  'attends',
];

/**
 * @typedef {{ arch: number, srcVocab: number, tgtVocab: number, bos: number, eos: number,
 *   maxLength: number, hasPositions: number, layers: number, heads: number, variant: number,
 *   maxPositions: number, hops: number, head: number, attends: number, architecture: string }} ModelInfo
 */

/**
 * What C fixed when it loaded the model at ptr: a frozen object of INFO_FIELDS.
 * @returns {Readonly<ModelInfo>}
 */
export function modelInfo(x, ptr) {
  const ar = new Arena(x, 'Model');
  try {
    const p = ar.alloc(INFO_FIELDS.length * 4, 'the model info');
    const n = x.al_model_info(ptr, p, INFO_FIELDS.length);
    if (n !== INFO_FIELDS.length)
      throw new AttnlabError(
        `Model: al_model_info gave ${n} fields, expected ${INFO_FIELDS.length}; is the .wasm older than this glue?`,
        'AL_ERR_UNSUPPORTED',
      );
    const v = new Int32Array(x.memory.buffer, p, n);
    const info = /** @type {ModelInfo} */ ({});
    INFO_FIELDS.forEach((k, i) => {
      info[k] = v[i];
    });
    info.architecture = ARCHS[info.arch]?.name ?? `unknown architecture ${info.arch}`;
    return Object.freeze(info);
  } finally {
    ar.free();
  }
}

/** A deep-frozen copy of a JSON value (a model's config: readable, never a way to resize a buffer). */
function deepFreeze(v) {
  if (v !== null && typeof v === 'object') {
    for (const k of Object.keys(v)) deepFreeze(v[k]);
    Object.freeze(v);
  }
  return v;
}

let stateOf; // (model) → its private state, for train.js; set by Model's static block

/**
 * A loaded model. Its state is private (#fields); what is documented is read through getters;
 * each call goes to the architecture module of what C loaded (`#arch`), never to a switch.
 */
export class Model {
  #x;
  #ptr;
  #arch;
  #decoders = new Set();
  #info;
  #config;
  #tokenizer;
  #labels;

  /** @internal use loadModel() */
  constructor(x, ptr) {
    this.#x = x;
    this.#ptr = ptr;
    this.#info = modelInfo(x, ptr);
    this.#arch = ARCHS[this.#info.arch];
    if (!this.#arch)
      throw new AttnlabError(
        `Model: ${this.#info.architecture}; is the .wasm newer than this glue?`,
        'AL_ERR_UNSUPPORTED',
      );
    this.#config = deepFreeze(JSON.parse(readCString(x, x.al_model_config(ptr))));
    this.#tokenizer = Object.freeze(this.#arch.tokenizer(this.#config));
    if (this.#info.arch === 2 || this.#info.head === 1)
      this.#labels = Object.freeze(this.#config.labels.slice());
    leaks?.register(this, `a Model (${this.#info.architecture})`, this);
  }

  static {
    stateOf = (model, what) => {
      model.#live(what);
      return model.#state();
    };
  }

  /** The architecture, e.g. 'seq2seq'. */
  get architecture() {
    return this.#info.architecture;
  }
  /** The parsed config (docs/models.md), frozen. */
  get config() {
    return this.#config;
  }
  /** The config's tokenizer (frozen). */
  get tokenizer() {
    return this.#tokenizer;
  }
  /** Classifiers (and memory-rnn classifier heads): the class labels (the config's "labels"); otherwise undefined. */
  get labels() {
    return this.#labels;
  }
  get srcVocabSize() {
    return this.#info.srcVocab;
  }
  get tgtVocabSize() {
    return this.#info.tgtVocab;
  }
  get bosId() {
    return this.#info.bos;
  }
  get eosId() {
    return this.#info.eos;
  }
  get maxLength() {
    return this.#info.maxLength;
  }
  get hasPositions() {
    return this.#info.hasPositions === 1;
  }

  /** What the architecture modules get, none of it writable by a caller. */
  #state() {
    return {
      x: this.#x,
      ptr: this.#ptr,
      info: this.#info,
      config: this.#config,
      tokenizer: this.#tokenizer,
      labels: this.#labels,
    };
  }

  #live(what) {
    if (this.#ptr === 0)
      throw new AttnlabError(
        `Model.${what}: this model has been disposed; load it again with loadModel()`,
        'AL_ERR_ARGUMENT',
      );
    return this.#x;
  }

  /** Source text -> source ids (the model's tokenizer). */
  encode(text) {
    return this.#tokenizer.encode(text);
  }

  /** Text as the model reads it: the config's normalisation (tokenizer.normalize), tokens joined
   * ('' for char models, one space for word models). */
  normalize(text) {
    return this.#tokenizer.normalize(text);
  }

  /** A word-level model's result gets the typed words it did not know (unknownWords, each once,
   * in input order; [] for ids) and, when its tokenizer normalises with "spelling", the words it
   * read as others (corrected: [[typed, read]]); char-level results are left as they are. */
  #withUnknown(result, input) {
    if (this.#tokenizer.type === 'word' && result && typeof result === 'object') {
      result.unknownWords = typeof input === 'string' ? this.#tokenizer.unknownWords(input) : [];
      if (this.#tokenizer.correct)
        result.corrected = typeof input === 'string' ? this.#tokenizer.corrections(input) : [];
    }
    return result;
  }

  /** Target ids -> text (bos, eos and pad left out). */
  decode(ids) {
    return this.#tokenizer.decode(ids);
  }

  /**
   * Run one input (text or source ids) the architecture's way: seq2seq translates (greedy, or
   * beam search with `beamWidth` > 1; `maxLength`), a transformer decodes or tags, a classifier
   * classifies, a memory-rnn model reads (`distributions`) or classifies.
   * @param {string | ArrayLike<number>} input
   */
  run(input, options) {
    this.#live('run');
    return this.#withUnknown(this.#arch.run(this.#state(), input, options), input);
  }

  /**
   * Classify one document (architecture "classifier", or a memory-rnn classifier head): the most
   * probable label, the class probabilities and the pooling's attention (model/classifier.js).
   * @param {string | ArrayLike<number>} input
   */
  classify(input, options) {
    this.#live('classify');
    if (this.#info.arch === 2 || (this.#info.arch === 3 && this.#info.head === 1))
      return this.#withUnknown(this.#arch.classify(this.#state(), input, options), input);
    throw new AttnlabError(
      `Model.classify: this is a "${this.#info.architecture}" model; classify() needs architecture "classifier" (use run())`,
      'AL_ERR_UNSUPPORTED',
    );
  }

  /**
   * Teacher forcing (seq2seq): log p(tgt[t]) per step, the attention [T, S], p_t for local
   * attention, and the whole log-distributions [T, V].
   * @param {string | ArrayLike<number>} src source text or ids
   * @param {string | ArrayLike<number>} tgt target text or ids (include eos to score it)
   * @param {{ states?: boolean }} [options] states: add the intermediate states (docs/states.md)
   */
  score(src, tgt, options) {
    this.#live('score');
    return this.#withUnknown(this.#only('score').score(this.#state(), src, tgt, options), src);
  }

  /**
   * Start decoding one input a token at a time (seq2seq, greedy); `step()` the returned Decoder
   * and dispose() it (disposing the model disposes its decoders).
   * @param {string | ArrayLike<number>} input
   * @param {{ maxLength?: number }} [options]
   */
  startDecoding(input, options) {
    this.#live('startDecoding');
    const dec = this.#only('startDecoding').startDecoding(this.#state(), this, input, options, () =>
      this.#decoders.delete(dec),
    );
    this.#decoders.add(dec);
    return dec;
  }

  /**
   * Architecture "transformer" only: one forward pass, `{ logits: { data, shape: [n, V] },
   * attention: [{ layer, head, kind, stack, weights, rowLabels, colLabels }], srcIds }`.
   * encoder / decoder: `input` is the sequence, forward(input, options); encoder-decoder:
   * `input` the source and `tgt` the decoder input (bos first, nothing added),
   * forward(input, tgt, options). Options: `states` (docs/states.md).
   */
  forward(input, tgt, options) {
    this.#live('forward');
    if (typeof this.#arch.forward !== 'function') {
      throw new AttnlabError(
        `Model.forward: for architecture "transformer"; this model is "${this.#info.architecture}" (use run)`,
        'AL_ERR_UNSUPPORTED',
      );
    }
    return this.#withUnknown(this.#arch.forward(this.#state(), input, tgt, options), input);
  }

  /** The architecture module when it has `what`, else a named refusal. */
  #only(what) {
    if (typeof this.#arch[what] !== 'function') {
      throw new AttnlabError(
        `Model.${what}: not available for architecture "${this.#info.architecture}" (use run)`,
        'AL_ERR_UNSUPPORTED',
      );
    }
    return this.#arch;
  }

  /** Free the model's wasm memory (and its decoders'). Later calls throw; a second dispose() is harmless. */
  dispose() {
    if (this.#ptr === 0) return;
    for (const d of [...this.#decoders]) d.dispose();
    this.#x.al_model_free(this.#ptr);
    this.#ptr = 0;
    leaks?.unregister(this);
  }

  [Symbol.dispose]() {
    this.dispose();
  }
}

/** The private state of a live model and its architecture module (train.js). @internal */
export function modelInternals(model, what) {
  if (!(model instanceof Model)) throw new AttnlabError(`${what}: expected a Model`);
  const m = stateOf(model, what);
  return { m, arch: ARCHS[m.info.arch] };
}
