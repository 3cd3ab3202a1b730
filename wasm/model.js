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
// resident in wasm memory), tokenizes with the config's tokenizer (tokenizer.js), and copies
// every result out of wasm memory. What it does not do: any maths, or hold a typed-array view
// across a call. A Model owns wasm memory until dispose(); a FinalizationRegistry only warns
// when one is garbage-collected undisposed. Every output buffer is sized from what C fixed when
// the model was loaded (al_model_info) or computes per call, never from a property a caller can
// write: a Model's fields are private, its documented properties read-only getters, its config
// a frozen copy.

import { AttnlabError, Arena, checkOptions, getLib, idsFrom, inVocab, kindOf, readCString, statusName } from './core.js';
import { readSource } from './source.js';
import { Tokenizer } from './tokenizer.js';
import { transformerForward, transformerRun } from './transformer-model.js';
import { memoryRun, memoryTokenizer } from './memory-rnn-model.js';
import { ERR_CAP, MAX_SOURCE, MAX_STEPS, MAX_BEAM } from './limits.js';

const leaks = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((what) => {
    console.warn(`attnlab: ${what} was garbage-collected without dispose(); its wasm memory is leaked. Call dispose() (or use \`using\`).`);
  })
  : null;

async function lib() {
  if (!getLib()) await (await import('./index.js')).init();
  return getLib().x;
}

/**
 * Load a model: a URL (fetched; file: URLs and plain paths are read from disk in Node), a
 * Response, or the file's bytes. Initialises attnlab first when needed. Throws AttnlabError with
 * the loader's message (naming the config key or tensor) and the status name as `code`.
 * @returns {Promise<Model>}
 */
export async function loadModel(source) {
  const bytes = await readSource(source, 'loadModel');
  const x = await lib();
  const ar = new Arena(x);
  try {
    const pBytes = ar.alloc(bytes.length, 'the model file');
    new Uint8Array(x.memory.buffer, pBytes, bytes.length).set(bytes);
    const pOut = ar.alloc(4, 'the handle');
    const pErr = ar.alloc(ERR_CAP, 'the error message');
    const status = x.al_model_load(pBytes, bytes.length, pOut, pErr, ERR_CAP);
    if (status !== 0) throw new AttnlabError(`loadModel: ${readCString(x, pErr)}`, statusName(status));
    const ptr = new Uint32Array(x.memory.buffer, pOut, 1)[0];
    return new Model(x, ptr);
  } finally {
    ar.free();
  }
}

/** The al_model_info fields (src/api/model.h, AL_MODEL_INFO_*), in order. */
const INFO_FIELDS = ['arch', 'srcVocab', 'tgtVocab', 'bos', 'eos', 'maxLength', 'hasPositions', 'layers',
  'heads', 'variant', 'maxPositions', 'hops', 'head', 'attends'];
const ARCHITECTURES = ['seq2seq', 'transformer', 'classifier', 'memory-rnn'];

/** What C fixed when it loaded the model at ptr: a frozen object of INFO_FIELDS. */
export function modelInfo(x, ptr) {
  const ar = new Arena(x, 'Model');
  try {
    const p = ar.alloc(INFO_FIELDS.length * 4, 'the model info');
    const n = x.al_model_info(ptr, p, INFO_FIELDS.length);
    if (n !== INFO_FIELDS.length) throw new AttnlabError(`Model: al_model_info gave ${n} fields, expected ${INFO_FIELDS.length}; is the .wasm older than this glue?`, 'AL_ERR_UNSUPPORTED');
    const v = new Int32Array(x.memory.buffer, p, n);
    const info = {};
    INFO_FIELDS.forEach((k, i) => { info[k] = v[i]; });
    info.architecture = ARCHITECTURES[info.arch];
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

export class Model {
  #x;
  #ptr;
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
    this.#config = deepFreeze(JSON.parse(readCString(x, x.al_model_config(ptr))));
    const arch = this.#info.architecture;
    const tok = arch === 'memory-rnn' ? memoryTokenizer(this.#config)
      : new Tokenizer(arch === 'classifier' ? classifierTokenizer(this.#config) : this.#config.tokenizer);
    this.#tokenizer = Object.freeze(tok);
    if (arch === 'classifier' || this.#info.head === 1) this.#labels = Object.freeze(this.#config.labels.slice());
    leaks?.register(this, `a Model (${arch})`, this);
  }

  /** The architecture, e.g. 'seq2seq'. */
  get architecture() { return this.#info.architecture; }
  /** The parsed config (docs/models.md), frozen. */
  get config() { return this.#config; }
  /** The config's tokenizer (frozen). */
  get tokenizer() { return this.#tokenizer; }
  /** Classifiers (and memory-rnn classifier heads): the class labels (the config's "labels"); otherwise undefined. */
  get labels() { return this.#labels; }
  get srcVocabSize() { return this.#info.srcVocab; }
  get tgtVocabSize() { return this.#info.tgtVocab; }
  get bosId() { return this.#info.bos; }
  get eosId() { return this.#info.eos; }
  get maxLength() { return this.#info.maxLength; }
  get hasPositions() { return this.#info.hasPositions === 1; }

  /** What the architecture modules need, none of it writable by a caller. @internal */
  #inner() {
    return { x: this.#x, ptr: this.#ptr, info: this.#info, config: this.#config, tokenizer: this.#tokenizer, labels: this.#labels };
  }

  #live(what) {
    if (this.#ptr === 0) throw new AttnlabError(`Model.${what}: this model has been disposed; load it again with loadModel()`, 'AL_ERR_ARGUMENT');
    return this.#x;
  }

  /** Source text or ids -> Int32Array of source ids. */
  #source(input, what) {
    const ids = typeof input === 'string' ? inVocab(this.#tokenizer.encode(input), this.#info.srcVocab, `Model.${what}`) : idsFrom(input, this.#info.srcVocab, `Model.${what}: input`, Infinity);
    if (ids.length < 1) throw new AttnlabError(`Model.${what}: the input is empty (no tokens)`, 'AL_ERR_SHAPE');
    if (ids.length > MAX_SOURCE) throw new AttnlabError(`Model.${what}: ${ids.length} input tokens; the limit is ${MAX_SOURCE}`, 'AL_ERR_SHAPE');
    return ids;
  }

  #maxLength(options, what) {
    const n = options.maxLength ?? this.#info.maxLength;
    if (!Number.isInteger(n) || n < 1 || n > MAX_STEPS) {
      throw new AttnlabError(`Model.${what}: maxLength ${n} must be an integer in [1, ${MAX_STEPS}]`, 'AL_ERR_SHAPE');
    }
    return n;
  }

  /** Source text or ids -> source ids (the model's tokenizer). */
  encode(text) {
    return this.#tokenizer.encode(text);
  }

  /** Target ids -> text (bos, eos and pad left out). */
  decode(ids) {
    return this.#tokenizer.decode(ids);
  }

  /**
   * Translate one input (text or source ids): greedy, or beam search with `beamWidth` > 1.
   * @param {string | ArrayLike<number>} input
   * @param {{ maxLength?: number, beamWidth?: number }} [options]
   */
  run(input, options = {}) {
    if (this.#info.architecture === 'classifier') return this.classify(input, options);
    if (this.#info.architecture === 'memory-rnn') {
      this.#live('run');
      const o = checkOptions(options, 'Model.run', this.#info.head === 1 ? [] : ['distributions']);
      if (o.distributions !== undefined && typeof o.distributions !== 'boolean') {
        throw new AttnlabError(`Model.run: options.distributions must be true or false, got ${kindOf(o.distributions)}`);
      }
      return memoryRun(this.#inner(), this.#source(input, 'run'), o);
    }
    if (this.#info.architecture === 'transformer') {
      this.#live('run');
      return transformerRun(this.#inner(), input, checkOptions(options, 'Model.run', ['maxLength']));
    }
    const x = this.#live('run');
    options = checkOptions(options, 'Model.run', ['maxLength', 'beamWidth']);
    const src = this.#source(input, 'run');
    const maxLength = this.#maxLength(options, 'run');
    const beam = options.beamWidth ?? 1;
    if (!Number.isInteger(beam) || beam < 1 || beam > MAX_BEAM) {
      throw new AttnlabError(`Model.run: beamWidth ${beam} must be an integer in [1, ${MAX_BEAM}]`);
    }
    const S = src.length;
    const ar = new Arena(x);
    try {
      const pSrc = ar.i32(src, 'the input ids');
      const pIds = ar.alloc(maxLength * 4, 'the output ids');
      const pLogp = ar.alloc(maxLength * 4, 'the log-probs');
      const pAtt = ar.alloc(maxLength * S * 4, 'the attention');
      const pPos = ar.alloc(maxLength * 4, 'the positions');
      const pLen = ar.alloc(4, 'the length');
      const status = x.al_model_generate(this.#ptr, pSrc, S, maxLength, beam, pIds, pLogp, pAtt, pPos, pLen);
      if (status !== 0) throw statusError(x, status, 'Model.run');
      const T = new Int32Array(x.memory.buffer, pLen, 1)[0];
      const ids = new Int32Array(x.memory.buffer, pIds, T).slice();
      const result = {
        output: this.#tokenizer.decode(ids),
        ids,
        tokens: this.#tokenizer.tgtTokens(ids),
        logProbs: ar.read(pLogp, T),
        attention: [{
          layer: 0,
          head: 0,
          weights: { data: ar.read(pAtt, T * S), shape: [T, S] },
          rowLabels: this.#tokenizer.tgtTokens(ids),
          colLabels: this.#tokenizer.srcTokens(src),
        }],
        srcIds: src,
      };
      if ((this.#info.hasPositions === 1)) result.positions = ar.read(pPos, T);
      return result;
    } finally {
      ar.free();
    }
  }

  /**
   * Classify one document (architecture "classifier"; `run` calls this for classifiers): text
   * (split on whitespace, unknown words -> unk) or token ids. Returns the most probable label,
   * the class probabilities and the pooling's attention: one map per level, `weights` shaped
   * [rows, n] (rows: 1, or r hops for "structured"); for "han" also `sentenceWeights`,
   * `sentences` ([start, end) token ranges) and a second map over the sentences; for
   * "structured" the penalty ‖AAᵀ − I‖²_F.
   * @param {string | ArrayLike<number>} input
   */
  classify(input, options = {}) {
    const x = this.#live('classify');
    options = checkOptions(options, 'Model.classify', []);
    if (this.#info.architecture === 'memory-rnn' && this.#info.head === 1) return memoryRun(this.#inner(), this.#source(input, 'classify'), options);
    if (this.#info.architecture !== 'classifier') {
      throw new AttnlabError(`Model.classify: this is a "${this.#info.architecture}" model; classify() needs architecture "classifier" (use run())`, 'AL_ERR_UNSUPPORTED');
    }
    const ids = this.#source(input, 'classify');
    const n = ids.length, C = this.#info.tgtVocab;
    const pooling = this.#config.pooling;
    const ar = new Arena(x);
    try {
      const pIds = ar.i32(ids, 'the input ids');
      const hops = this.#info.hops;
      const m = x.al_model_classifier_sentences(this.#ptr, pIds, n);
      const pProbs = ar.alloc(C * 4, 'the probabilities');
      const pW = ar.alloc(hops * n * 4, 'the attention weights');
      const pSent = ar.alloc(n * 4, 'the sentence weights');
      const pPen = ar.alloc(4, 'the penalty');
      const status = x.al_model_classify(this.#ptr, pIds, n, pProbs, pW, pSent, pPen);
      if (status !== 0) throw statusError(x, status, 'Model.classify');
      const probs = ar.read(pProbs, C);
      let best = 0;
      for (let k = 1; k < C; k++) if (probs[k] > probs[best]) best = k;
      const tokens = this.#tokenizer.srcTokens(ids);
      const rowLabels = pooling === 'structured' ? Array.from({ length: hops }, (_, i) => `hop ${i + 1}`)
        : [pooling === 'han' ? 'words' : 'attention'];
      const result = {
        label: this.#labels[best],
        labelId: best,
        probs,
        attention: [{ layer: 0, head: 0, weights: { data: ar.read(pW, hops * n), shape: [hops, n] }, rowLabels, colLabels: tokens }],
        ids,
        tokens,
      };
      if (pooling === 'han') {
        const sep = this.#tokenizer.src.get(this.#config.sentenceSeparator);
        const sentences = [];
        let start = 0;
        ids.forEach((id, i) => {
          if (id === sep || i === n - 1) { sentences.push([start, i + 1]); start = i + 1; }
        });
        result.sentenceWeights = ar.read(pSent, m);
        result.sentences = sentences;
        result.attention.push({
          layer: 1,
          head: 0,
          weights: { data: result.sentenceWeights.slice(), shape: [1, m] },
          rowLabels: ['sentences'],
          colLabels: sentences.map(([a, b]) => tokens.slice(a, b).join(' ')),
        });
      }
      if (pooling === 'structured') result.penalty = ar.read(pPen, 1)[0];
      return result;
    } finally {
      ar.free();
    }
  }

  /**
   * Teacher forcing: the decoder is fed bos, tgt[0], ..., and returns log p(tgt[t]) per step, the
   * attention [T, S], p_t for local attention, and the whole log-distributions [T, V].
   * @param {string | ArrayLike<number>} src source text or ids
   * @param {string | ArrayLike<number>} tgt target text or ids (include eos to score it)
   */
  score(src, tgt) {
    const x = this.#live('score');
    this.#seq2seqOnly('score');
    const s = this.#source(src, 'score');
    if (tgt === undefined || tgt === null) throw new AttnlabError(`Model.score: tgt is ${tgt}; give the target text or ids (include eos to score it)`);
    const t = typeof tgt === 'string' ? inVocab(this.#tokenizer.encodeTarget(tgt), this.#info.tgtVocab, 'Model.score') : idsFrom(tgt, this.#info.tgtVocab, 'Model.score: tgt', MAX_STEPS);
    const S = s.length, T = t.length, V = this.#info.tgtVocab;
    if (T < 1 || T > MAX_STEPS) throw new AttnlabError(`Model.score: the target has ${T} tokens; it must have 1 to ${MAX_STEPS}`, 'AL_ERR_SHAPE');
    const ar = new Arena(x);
    try {
      const pSrc = ar.i32(s, 'the source ids');
      const pTgt = ar.i32(t, 'the target ids');
      const pLogp = ar.alloc(T * 4, 'the log-probs');
      const pAtt = ar.alloc(T * S * 4, 'the attention');
      const pPos = ar.alloc(T * 4, 'the positions');
      const pDist = ar.alloc(T * V * 4, 'the distributions');
      const status = x.al_model_score(this.#ptr, pSrc, S, pTgt, T, pLogp, pAtt, pPos, pDist);
      if (status !== 0) throw statusError(x, status, 'Model.score');
      const result = {
        logProbs: ar.read(pLogp, T),
        attention: { data: ar.read(pAtt, T * S), shape: [T, S] },
        distributions: { data: ar.read(pDist, T * V), shape: [T, V] },
      };
      if ((this.#info.hasPositions === 1)) result.positions = ar.read(pPos, T);
      return result;
    } finally {
      ar.free();
    }
  }

  /**
   * Start decoding one input a token at a time (greedy); `step()` the returned Decoder and
   * dispose() it (disposing the model disposes its decoders).
   * @param {string | ArrayLike<number>} input
   * @param {{ maxLength?: number }} [options]
   */
  startDecoding(input, options = {}) {
    const x = this.#live('startDecoding');
    this.#seq2seqOnly('startDecoding');
    options = checkOptions(options, 'Model.startDecoding', ['maxLength']);
    const src = this.#source(input, 'startDecoding');
    const maxLength = this.#maxLength(options, 'startDecoding');
    const ar = new Arena(x);
    let ptr;
    try {
      const pSrc = ar.i32(src, 'the input ids');
      const pOut = ar.alloc(4, 'the handle');
      const status = x.al_model_decoder_start(this.#ptr, pSrc, src.length, pOut);
      if (status !== 0) throw statusError(x, status, 'Model.startDecoding');
      ptr = new Uint32Array(x.memory.buffer, pOut, 1)[0];
    } finally {
      ar.free();
    }
    const dec = new Decoder(x, ptr, this, this.#info, src, maxLength, () => this.#decoders.delete(dec));
    this.#decoders.add(dec);
    return dec;
  }

  /**
   * Architecture "transformer" only: one forward pass, `{ logits: { data, shape: [n, V] },
   * attention: [{ layer, head, kind, stack, weights, rowLabels, colLabels }], srcIds }`.
   * encoder / decoder: `input` is the sequence; encoder-decoder: `input` the source and `tgt`
   * the decoder input (bos first, nothing added).
   */
  forward(input, tgt) {
    const x = this.#live('forward');
    if (this.#info.architecture !== 'transformer') {
      throw new AttnlabError(`Model.forward: for architecture "transformer"; this model is "${this.#info.architecture}" (use run)`, 'AL_ERR_UNSUPPORTED');
    }
    return transformerForward(this.#inner(), input, tgt);
  }

  #seq2seqOnly(what) {
    if (this.#info.architecture !== 'seq2seq') {
      throw new AttnlabError(`Model.${what}: not available for architecture "${this.#info.architecture}" (use run)`, 'AL_ERR_UNSUPPORTED');
    }
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

export class Decoder {
  #x;
  #ptr;
  #onDispose;
  #model;
  #info;
  #src;
  #srcTokens;
  #maxLength;
  #steps = 0;
  #done = false;

  /** @internal use Model.startDecoding() */
  constructor(x, ptr, model, info, src, maxLength, onDispose) {
    this.#x = x;
    this.#ptr = ptr;
    this.#onDispose = onDispose;
    this.#model = model;
    this.#info = info;
    this.#src = src;
    this.#srcTokens = Object.freeze(model.tokenizer.srcTokens(src));
    this.#maxLength = maxLength;
    leaks?.register(this, 'a Decoder', this);
  }

  /** The model decoding. */
  get model() { return this.#model; }
  /** The source ids (a copy). */
  get srcIds() { return this.#src.slice(); }
  /** The source tokens. */
  get srcTokens() { return this.#srcTokens; }
  /** The step limit. */
  get maxLength() { return this.#maxLength; }
  /** Steps taken so far. */
  get steps() { return this.#steps; }
  /** True once eos was emitted or maxLength steps were taken. */
  get done() { return this.#done; }

  /**
   * Emit the next token (the argmax, or `force` when given: a target id, for teacher forcing).
   * @returns {{ id: number, token: string, logProb: number, weights: Float32Array,
   *             position?: number, done: boolean, step: number }}
   */
  step(force) {
    if (this.#ptr === 0) throw new AttnlabError('Decoder.step: this decoder has been disposed', 'AL_ERR_ARGUMENT');
    if (this.#done) throw new AttnlabError(`Decoder.step: decoding has finished (${this.#steps} steps${this.#steps >= this.#maxLength ? ', maxLength reached' : ', eos emitted'}); dispose() it or start again`, 'AL_ERR_ARGUMENT');
    const x = this.#x;
    const V = this.#info.tgtVocab;
    const f = force ?? -1;
    if (f !== -1 && (!Number.isInteger(f) || f < 0 || f >= V)) {
      throw new AttnlabError(`Decoder.step: force ${typeof f === 'number' ? f : kindOf(f)} is not a target id in [0, ${V})`, 'AL_ERR_RANGE');
    }
    const S = this.#src.length;
    const ar = new Arena(x);
    try {
      const pId = ar.alloc(4, 'the id');
      const pLogp = ar.alloc(4, 'the log-prob');
      const pAtt = ar.alloc(S * 4, 'the attention row');
      const pPos = ar.alloc(4, 'the position');
      const pDone = ar.alloc(4, 'the done flag');
      const status = x.al_decoder_step(this.#ptr, f, pId, pLogp, pAtt, pPos, 0, pDone);
      if (status !== 0) throw statusError(x, status, 'Decoder.step');
      const id = new Int32Array(x.memory.buffer, pId, 1)[0];
      const eos = new Int32Array(x.memory.buffer, pDone, 1)[0] === 1;
      const step = this.#steps++;
      this.#done = eos || this.#steps >= this.#maxLength;
      const out = {
        id,
        token: this.#model.tokenizer.tgtTokens([id])[0],
        logProb: ar.read(pLogp, 1)[0],
        weights: ar.read(pAtt, S),
        done: this.#done,
        step,
      };
      if (this.#info.hasPositions === 1) out.position = ar.read(pPos, 1)[0];
      return out;
    } finally {
      ar.free();
    }
  }

  /** Free the decoder's wasm memory; a second call is harmless. */
  dispose() {
    if (this.#ptr === 0) return;
    this.#x.al_decoder_free(this.#ptr);
    this.#ptr = 0;
    leaks?.unregister(this);
    this.#onDispose();
  }

  [Symbol.dispose]() {
    this.dispose();
  }
}

/** A classifier's tokenizer section ({ type, vocab, unk, pad? }) in the Tokenizer's terms: the
 * vocabulary as srcVocab, the labels as tgtVocab, no bos or eos. */
function classifierTokenizer(cfg) {
  const t = cfg.tokenizer ?? {};
  return { type: t.type, srcVocab: t.vocab, tgtVocab: cfg.labels, unk: t.unk, pad: t.pad };
}

function statusError(x, status, context) {
  // AL_ERR_NONFINITE from a model call: the inputs were ids, so the model's own arithmetic
  // overflowed float32 (finite but huge weights); docs/reliability.md, "results policy"
  const why = status === 4 ? ' (the model produced NaN or infinite values: its weights are too large for float32 arithmetic)' : '';
  return new AttnlabError(`${context}: ${readCString(x, x.al_status_string(status))}${why}`, statusName(status));
}
