// attnlab/wasm/model/seq2seq.js: architecture "seq2seq" (src/models/seq2seq.h, docs/models.md):
// the recurrent encoder-decoder with every attention of the library. Decoding (greedy, beam,
// one token at a time with a Decoder), teacher-forced scoring, training examples and
// evaluation. model.js dispatches here with `m`, the model's private state (x, ptr, info,
// config, tokenizer): every buffer is sized from m.info, what C fixed at load.

import { AttnlabError, Arena, checkOptions, idsFrom, inVocab, kindOf, show } from '../core.js';
import { Tokenizer } from './tokenizer.js';
import {
  MAX_BEAM,
  MAX_STEPS,
  exampleIds,
  leaks,
  maxLengthOf,
  sourceIds,
  statusError,
  tokenProbs,
} from './common.js';
import { seq2seqStates, statesOption } from './rnn-states.js';

export const name = 'seq2seq';

export function tokenizer(config) {
  return new Tokenizer(config.tokenizer);
}

/** Model.run: greedy, or beam search with `beamWidth` > 1; `states` (greedy only) adds the
 * intermediate states (model/rnn-states.js). logProbs[t] is log p(ids[t] | ids[<t], input) under
 * the model for the output returned (beam: the winner's own per-step values, the same numbers
 * Model.score gives it), and probs / minProb their exp and the weakest (common.js tokenProbs). */
export function run(m, input, options) {
  const x = m.x;
  options = checkOptions(options, 'Model.run', ['maxLength', 'beamWidth', 'states']);
  const src = sourceIds(m, input, 'run');
  const maxLength = maxLengthOf(m, options, 'run');
  const beam = options.beamWidth ?? 1;
  if (!Number.isInteger(beam) || beam < 1 || beam > MAX_BEAM) {
    throw new AttnlabError(
      `Model.run: beamWidth ${show(beam)} must be an integer in [1, ${MAX_BEAM}]`,
    );
  }
  const states = statesOption(options, 'Model.run');
  if (states && beam > 1)
    throw new AttnlabError(
      `Model.run: options.states needs greedy decoding, but options.beamWidth is ${beam} (beam hypotheses share no one sequence of states; use beamWidth 1, or Model.score(input, result.ids, { states: true }))`,
    );
  const S = src.length;
  const ar = new Arena(x);
  try {
    const pSrc = ar.i32(src, 'the input ids');
    const pIds = ar.alloc(maxLength * 4, 'the output ids');
    const pLogp = ar.alloc(maxLength * 4, 'the log-probs');
    const pAtt = ar.alloc(maxLength * S * 4, 'the attention');
    const pPos = ar.alloc(maxLength * 4, 'the positions');
    const pLen = ar.alloc(4, 'the length');
    const status = x.al_model_generate(
      m.ptr,
      pSrc,
      S,
      maxLength,
      beam,
      pIds,
      pLogp,
      pAtt,
      pPos,
      pLen,
    );
    if (status !== 0) throw statusError(x, status, 'Model.run');
    const T = new Int32Array(x.memory.buffer, pLen, 1)[0];
    const ids = new Int32Array(x.memory.buffer, pIds, T).slice();
    const logProbs = ar.read(pLogp, T);
    const { probs, minProb } = tokenProbs(logProbs); // exp(logProbs), greedy and beam alike
    const result = {
      output: m.tokenizer.decode(ids),
      ids,
      tokens: m.tokenizer.tgtTokens(ids),
      logProbs,
      probs,
      minProb,
      attention: [
        {
          layer: 0,
          head: 0,
          weights: { data: ar.read(pAtt, T * S), shape: [T, S] },
          rowLabels: m.tokenizer.tgtTokens(ids),
          colLabels: m.tokenizer.srcTokens(src),
        },
      ],
      srcIds: src,
    };
    if (m.info.hasPositions === 1) result.positions = ar.read(pPos, T);
    // the greedy run again, teacher-forced on its own output: the same steps, kept
    if (states) result.states = seq2seqStates(m, src, ids, 'Model.run');
    return result;
  } finally {
    ar.free();
  }
}

/**
 * Model.score: teacher forcing; the decoder is fed bos, tgt[0], ..., and returns log p(tgt[t])
 * per step, the attention [T, S], p_t for local attention, and the log-distributions [T, V];
 * `states` adds the intermediate states of those steps.
 */
export function score(m, src, tgt, options) {
  const x = m.x;
  const o = checkOptions(options, 'Model.score', ['states']);
  const states = statesOption(o, 'Model.score');
  const s = sourceIds(m, src, 'score');
  if (tgt === undefined || tgt === null)
    throw new AttnlabError(
      `Model.score: tgt is ${tgt}; give the target text or ids (include eos to score it)`,
    );
  const t =
    typeof tgt === 'string'
      ? inVocab(m.tokenizer.encodeTarget(tgt), m.info.tgtVocab, 'Model.score')
      : idsFrom(tgt, m.info.tgtVocab, 'Model.score: tgt', MAX_STEPS);
  const S = s.length,
    T = t.length,
    V = m.info.tgtVocab;
  if (T < 1 || T > MAX_STEPS)
    throw new AttnlabError(
      `Model.score: the target has ${T} tokens; it must have 1 to ${MAX_STEPS}`,
      'AL_ERR_SHAPE',
    );
  const ar = new Arena(x);
  try {
    const pSrc = ar.i32(s, 'the source ids');
    const pTgt = ar.i32(t, 'the target ids');
    const pLogp = ar.alloc(T * 4, 'the log-probs');
    const pAtt = ar.alloc(T * S * 4, 'the attention');
    const pPos = ar.alloc(T * 4, 'the positions');
    const pDist = ar.alloc(T * V * 4, 'the distributions');
    const status = x.al_model_score(m.ptr, pSrc, S, pTgt, T, pLogp, pAtt, pPos, pDist);
    if (status !== 0) throw statusError(x, status, 'Model.score');
    const result = {
      logProbs: ar.read(pLogp, T),
      attention: { data: ar.read(pAtt, T * S), shape: [T, S] },
      distributions: { data: ar.read(pDist, T * V), shape: [T, V] },
    };
    if (m.info.hasPositions === 1) result.positions = ar.read(pPos, T);
    if (states) result.states = seq2seqStates(m, s, t, 'Model.score');
    return result;
  } finally {
    ar.free();
  }
}

/** Model.startDecoding: a Decoder over one input; `onDispose` tells the model it is gone. */
export function startDecoding(m, model, input, options, onDispose) {
  const x = m.x;
  options = checkOptions(options, 'Model.startDecoding', ['maxLength']);
  const src = sourceIds(m, input, 'startDecoding');
  const maxLength = maxLengthOf(m, options, 'startDecoding');
  const ar = new Arena(x);
  let ptr;
  try {
    const pSrc = ar.i32(src, 'the input ids');
    const pOut = ar.alloc(4, 'the handle');
    const status = x.al_model_decoder_start(m.ptr, pSrc, src.length, pOut);
    if (status !== 0) throw statusError(x, status, 'Model.startDecoding');
    ptr = new Uint32Array(x.memory.buffer, pOut, 1)[0];
  } finally {
    ar.free();
  }
  return new Decoder(x, ptr, model, m, src, maxLength, onDispose);
}

export class Decoder {
  #x;
  #ptr;
  #onDispose;
  #model;
  #info;
  #tokenizer;
  #src;
  #srcTokens;
  #maxLength;
  #steps = 0;
  #done = false;

  /** @internal use Model.startDecoding() */
  constructor(x, ptr, model, m, src, maxLength, onDispose) {
    this.#x = x;
    this.#ptr = ptr;
    this.#onDispose = onDispose;
    this.#model = model;
    this.#info = m.info;
    this.#tokenizer = m.tokenizer;
    this.#src = src;
    this.#srcTokens = Object.freeze(m.tokenizer.srcTokens(src));
    this.#maxLength = maxLength;
    leaks?.register(this, 'a Decoder', this);
  }

  /** The model decoding. */
  get model() {
    return this.#model;
  }
  /** The source ids (a copy). */
  get srcIds() {
    return this.#src.slice();
  }
  /** The source tokens. */
  get srcTokens() {
    return this.#srcTokens;
  }
  /** The step limit. */
  get maxLength() {
    return this.#maxLength;
  }
  /** Steps taken so far. */
  get steps() {
    return this.#steps;
  }
  /** True once eos was emitted or maxLength steps were taken. */
  get done() {
    return this.#done;
  }

  /**
   * Emit the next token (the argmax, or `force` when given: a target id, for teacher forcing).
   * prob is exp(logProb), the token's probability under the model.
   * @returns {{ id: number, token: string, logProb: number, prob: number,
   *             weights: Float32Array, position?: number, done: boolean, step: number }}
   */
  step(force) {
    if (this.#ptr === 0)
      throw new AttnlabError('Decoder.step: this decoder has been disposed', 'AL_ERR_ARGUMENT');
    if (this.#done)
      throw new AttnlabError(
        `Decoder.step: decoding has finished (${this.#steps} steps${this.#steps >= this.#maxLength ? ', maxLength reached' : ', eos emitted'}); dispose() it or start again`,
        'AL_ERR_ARGUMENT',
      );
    const x = this.#x;
    const V = this.#info.tgtVocab;
    const f = force ?? -1;
    if (f !== -1 && (!Number.isInteger(f) || f < 0 || f >= V)) {
      throw new AttnlabError(
        `Decoder.step: force ${typeof f === 'number' ? f : kindOf(f)} is not a target id in [0, ${V})`,
        'AL_ERR_RANGE',
      );
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
      const logProb = ar.read(pLogp, 1)[0];
      const out = {
        id,
        token: this.#tokenizer.tgtTokens([id])[0],
        logProb,
        prob: Math.exp(logProb),
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

/** A training example { src, tgt } (text or ids); tgt gets eos appended unless it ends in eos. */
export function example(m, p, what) {
  const s = exampleIds(m, p?.src, false, `${what}.src`);
  let t = exampleIds(m, p?.tgt, true, `${what}.tgt`);
  if (t.length === 0 || t[t.length - 1] !== m.info.eos) t = Int32Array.from([...t, m.info.eos]);
  return { s, t };
}

/** Trainer.evaluate: greedy exact match and token accuracy, the mean teacher-forced token loss. */
export function evaluate(m, model, pairs, loss) {
  let exact = 0,
    right = 0,
    tokens = 0,
    nll = 0;
  for (const p of pairs) {
    const r = model.run(p.src);
    const tgt = [...exampleIds(m, p.tgt, true, 'Trainer.evaluate: tgt'), m.info.eos];
    const tgtText = typeof p.tgt === 'string' ? p.tgt : model.decode(tgt);
    if (r.output === tgtText) exact++;
    for (let i = 0; i < tgt.length; i++) if (r.ids[i] === tgt[i]) right++;
    tokens += tgt.length;
    if (loss) nll -= model.score(p.src, tgt).logProbs.reduce((a, b) => a + b, 0);
  }
  const n = Math.max(pairs.length, 1);
  return {
    exactMatch: exact / n,
    tokenAccuracy: right / Math.max(tokens, 1),
    loss: loss ? nll / Math.max(tokens, 1) : undefined,
    count: pairs.length,
  };
}
