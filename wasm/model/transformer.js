// attnlab/wasm/model/transformer.js: architecture "transformer": Model.run / Model.forward,
// (src/models/transformer.h, docs/models.md "Architecture transformer"). model.js dispatches
// here; this file only tokenizes, calls al_model_transformer_forward / _generate and copies the
// results (logits and every layer's per-head attention) out of wasm memory. Sizes come from
// what C fixed at load (m.info: layers, heads, variant, vocabularies, maxPositions) and from C's
// own count of the attention floats, never from the config a caller can see.
//
//   const m = await loadModel('lm.safetensors');       // variant "decoder"
//   const r = m.run('abc', { maxLength: 20 });          // greedy continuation
//   r.output; r.attention[0];                           // { layer, head, kind, stack, weights, rowLabels, colLabels }
//
// Training examples and evaluation per variant are here too.
// Deliberately not here: beam search, stepping, teacher-forced scoring (seq2seq only for now).

import { AttnlabError, Arena, checkOptions, idsFrom, inVocab, kindOf, show } from '../core.js';
import { Tokenizer } from './tokenizer.js';
import { MAX_SOURCE, MAX_STEPS, exampleIds, statusError, tokenProbs } from './common.js';
import { readStateFields, wantsStates } from './state-fields.js';

const VARIANTS = ['encoder', 'decoder', 'encoder-decoder']; // AL_TF_*

export const name = 'transformer';

export function tokenizer(config) {
  return new Tokenizer(config.tokenizer);
}

function ids(m, input, vocabSize, encode, what) {
  const limit = Math.min(MAX_SOURCE, m.info.maxPositions > 0 ? m.info.maxPositions : MAX_SOURCE);
  let out;
  if (typeof input === 'string') {
    out = inVocab(encode(input), vocabSize, what);
  } else if (Array.isArray(input) || ArrayBuffer.isView(input)) {
    out = idsFrom(input, vocabSize, what, Infinity);
  } else {
    throw new AttnlabError(`${what} must be text or an array of token ids, got ${kindOf(input)}`);
  }
  if (out.length < 1) throw new AttnlabError(`${what} is empty (no tokens)`, 'AL_ERR_SHAPE');
  if (out.length > limit) {
    throw new AttnlabError(
      `${what} has ${out.length} tokens; this model takes at most ${limit} (config "maxPositions")`,
      'AL_ERR_SHAPE',
    );
  }
  return out;
}

/** Attention maps of one stack: [L, H, T, S] floats at p -> one entry per layer and head. */
function maps(ar, p, L, H, T, S, kind, stack, rowLabels, colLabels, out) {
  const all = ar.read(p, L * H * T * S);
  for (let l = 0; l < L; l++) {
    for (let h = 0; h < H; h++) {
      const o = (l * H + h) * T * S;
      out.push({
        layer: l,
        head: h,
        kind,
        stack,
        weights: { data: all.slice(o, o + T * S), shape: [T, S] },
        rowLabels,
        colLabels,
      });
    }
  }
}

/**
 * Model.forward: forward(input[, options]) for the encoder and decoder variants,
 * forward(input, tgt[, options]) for the encoder-decoder; options { states }.
 */
export function forward(m, input, tgt, options) {
  const ed = VARIANTS[m.info.variant] === 'encoder-decoder';
  if (!ed && options === undefined && isOptions(tgt)) {
    options = tgt;
    tgt = undefined;
  } else if (ed && isOptions(tgt)) {
    throw new AttnlabError(
      'Model.forward: an encoder-decoder takes forward(input, tgt, options): the decoder input (bos first) comes before the options',
    );
  }
  const o = checkOptions(options, 'Model.forward', ['states']);
  return forwardWith(m, input, tgt, wantsStates(o), undefined);
}

/** An options object rather than a tgt (text or ids). */
function isOptions(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v);
}

/**
 * One forward pass. encoder / decoder: `input` is the sequence; encoder-decoder: `input` the
 * source and `tgt` the decoder input (bos first; text is encoded with tgtVocab, nothing added).
 * `withStates` adds `states` (docs/states.md); `labels` (optional) overrides the decoder-side
 * row labels.
 */
function forwardWith(m, input, tgt, withStates, labels) {
  const { x, ptr, info } = m;
  const variant = VARIANTS[info.variant];
  const ed = variant === 'encoder-decoder';
  const tok = m.tokenizer;
  const src = ids(m, input, info.srcVocab, (t) => tok.encode(t), 'Model.forward: input');
  let dec = null;
  if (ed) {
    if (tgt === undefined)
      throw new AttnlabError(
        'Model.forward: an encoder-decoder needs the decoder input (tgt), bos first',
      );
    dec = ids(m, tgt, info.tgtVocab, (t) => tok.encodeTarget(t), 'Model.forward: tgt');
    if (dec.length > MAX_STEPS)
      throw new AttnlabError(
        `Model.forward: tgt has ${dec.length} tokens; the limit is ${MAX_STEPS}`,
        'AL_ERR_SHAPE',
      );
  } else if (tgt !== undefined) {
    throw new AttnlabError(`Model.forward: variant "${variant}" takes one sequence, not a tgt`);
  }
  const S = src.length,
    T = ed ? dec.length : 0,
    V = info.tgtVocab;
  const L = info.layers,
    H = info.heads,
    n = ed ? T : S;
  const attFloats = x.al_model_transformer_attention_floats(ptr, S, T); // C's count of what it writes
  if (!(attFloats >= 0))
    throw new AttnlabError(
      'Model.forward: the model did not report its attention size',
      'AL_ERR_UNSUPPORTED',
    );
  const ar = new Arena(x);
  try {
    const pSrc = ar.i32(src, 'the input ids');
    const pTgt = ed ? ar.i32(dec, 'the decoder input ids') : 0;
    const pLogits = ar.alloc(n * V * 4, 'the logits');
    const pAtt = ar.alloc(attFloats * 4, 'the attention');
    const status = x.al_model_transformer_forward(ptr, pSrc, S, pTgt, T, pLogits, pAtt);
    if (status !== 0) throw statusError(x, status, 'Model.forward');
    const attention = [];
    const srcTokens = tok.srcTokens(src);
    if (ed) {
      const fedTokens = tok.tgtTokens(dec);
      const rows = labels ?? fedTokens;
      maps(ar, pAtt, L, H, S, S, 'self', 'encoder', srcTokens, srcTokens, attention);
      maps(ar, pAtt + L * H * S * S * 4, L, H, T, T, 'self', 'decoder', rows, fedTokens, attention);
      maps(
        ar,
        pAtt + L * H * (S * S + T * T) * 4,
        L,
        H,
        T,
        S,
        'cross',
        'decoder',
        rows,
        srcTokens,
        attention,
      );
    } else {
      maps(ar, pAtt, L, H, S, S, 'self', variant, srcTokens, srcTokens, attention);
    }
    const result = {
      logits: { data: ar.read(pLogits, n * V), shape: [n, V] },
      attention,
      srcIds: src,
    };
    if (ed) result.tgtIds = dec;
    if (withStates) result.states = states(m, ar, pSrc, S, pTgt, T, variant);
    return result;
  } finally {
    ar.free();
  }
}

/** The fields of one attention sublayer, in C's order (models/transformer_states.h). */
const SUB_FIELDS = [
  'input',
  'normed',
  'q',
  'k',
  'v',
  'scores',
  'relative',
  'weights',
  'heads',
  'concat',
  'projected',
  'residual',
];

/** al_model_transformer_states of one forward, as docs/states.md's transformer object. */
function states(m, ar, pSrc, S, pTgt, T, variant) {
  const { x, ptr, info } = m;
  const count = x.al_model_transformer_states_fields(ptr);
  const L = info.layers;
  const ed = variant === 'encoder-decoder';
  const nSub = ed ? 3 * L : L;
  if (count !== 2 + SUB_FIELDS.length * nSub + (ed ? 2 : 1) * L + 3)
    throw new AttnlabError(
      `Model.forward: the model reported ${count} state fields; is the .wasm older than this glue?`,
      'AL_ERR_UNSUPPORTED',
    );
  const pShapes = ar.alloc(count * 16, 'the states layout');
  const floats = x.al_model_transformer_states_layout(ptr, S, T, pShapes);
  if (!(floats >= 0))
    throw new AttnlabError(
      'Model.forward: the model did not report its states',
      'AL_ERR_UNSUPPORTED',
    );
  const pStates = ar.alloc(floats * 4, 'the states');
  const status = x.al_model_transformer_states(ptr, pSrc, S, pTgt, T, pStates);
  if (status !== 0) throw statusError(x, status, 'Model.forward (states)');
  const f = readStateFields(x, pShapes, count, pStates);
  const sides = (a, b) => {
    const o = {};
    if (a) o.encoder = a;
    if (b) o.decoder = b;
    return o;
  };
  // a single stack is named after its variant, as the attention maps' `stack`
  const single = ed ? null : variant;
  const sublayers = [];
  for (let s = 0; s < nSub; s++) {
    const dec = ed && s >= L;
    const sub = {
      stack: single ?? (dec ? 'decoder' : 'encoder'),
      layer: dec ? Math.floor((s - L) / 2) : s,
      kind: dec && (s - L) % 2 === 1 ? 'cross' : 'self',
    };
    SUB_FIELDS.forEach((name, i) => {
      const t = f[2 + SUB_FIELDS.length * s + i];
      if (t) sub[name] = t;
    });
    sublayers.push(sub);
  }
  let k = 2 + SUB_FIELDS.length * nSub;
  const layerOutputs = [];
  for (let i = 0; i < (ed ? 2 : 1) * L; i++) {
    const dec = ed && i >= L;
    layerOutputs.push({
      stack: single ?? (dec ? 'decoder' : 'encoder'),
      layer: dec ? i - L : i,
      output: f[k++],
    });
  }
  return {
    variant,
    embedded: sides(f[0], f[1]),
    sublayers,
    layerOutputs,
    final: sides(f[k], f[k + 1]),
    logits: f[k + 2],
  };
}

function argmaxRows(logits) {
  const [n, V] = logits.shape;
  return Int32Array.from({ length: n }, (_, t) => {
    let best = 0;
    for (let v = 1; v < V; v++) if (logits.data[t * V + v] > logits.data[t * V + best]) best = v;
    return best;
  });
}

/** log_softmax(logits[t])[ids[t]] per row, in double (an encoder's labels: what run picked). */
function pickedLogProbs(logits, ids) {
  const V = logits.shape[1];
  return Float32Array.from(ids, (id, t) => {
    const row = logits.data.subarray(t * V, (t + 1) * V);
    let mx = -Infinity,
      z = 0;
    for (const v of row) mx = Math.max(mx, v);
    for (const v of row) z += Math.exp(v - mx);
    return row[id] - mx - Math.log(z);
  });
}

/**
 * Model.run for a transformer. encoder: one forward, the argmax label per position.
 * decoder / encoder-decoder: greedy decoding, then one forward over the fed sequence (the
 * prompt or bos, then every emitted token but the last) for the logits and attention.
 * Every variant returns logProbs (an encoder: of the labels it picked), probs = exp(logProbs)
 * and minProb (common.js tokenProbs).
 */
export function run(m, input, options) {
  options = checkOptions(options, 'Model.run', ['maxLength', 'states']);
  const withStates = wantsStates(options);
  const { x, ptr, info } = m;
  const variant = VARIANTS[info.variant];
  if (variant === 'encoder') {
    if (options.maxLength !== undefined)
      throw new AttnlabError('Model.run: maxLength is for decoder and encoder-decoder variants');
    const r = forwardWith(m, input, undefined, withStates, undefined);
    const pred = argmaxRows(r.logits);
    const tokens = m.tokenizer.tgtTokens(pred);
    const logProbs = pickedLogProbs(r.logits, pred);
    return { output: tokens.join(' '), ids: pred, tokens, logProbs, ...tokenProbs(logProbs), ...r };
  }
  const maxLength = options.maxLength ?? info.maxLength;
  if (!Number.isInteger(maxLength) || maxLength < 1 || maxLength > MAX_STEPS) {
    throw new AttnlabError(
      `Model.run: maxLength ${show(maxLength)} must be an integer in [1, ${MAX_STEPS}]`,
      'AL_ERR_SHAPE',
    );
  }
  const tok = m.tokenizer;
  const src = ids(m, input, info.srcVocab, (t) => tok.encode(t), 'Model.run: input');
  const ar = new Arena(x);
  let out, logProbs;
  try {
    const pSrc = ar.i32(src, 'the input ids');
    const pIds = ar.alloc(maxLength * 4, 'the output ids');
    const pLogp = ar.alloc(maxLength * 4, 'the log-probs');
    const pLen = ar.alloc(4, 'the length');
    const status = x.al_model_transformer_generate(
      ptr,
      pSrc,
      src.length,
      maxLength,
      pIds,
      pLogp,
      pLen,
    );
    if (status !== 0) throw statusError(x, status, 'Model.run');
    const G = new Int32Array(x.memory.buffer, pLen, 1)[0];
    out = new Int32Array(x.memory.buffer, pIds, G).slice();
    logProbs = ar.read(pLogp, G);
  } finally {
    ar.free();
  }
  const tokens = tok.tgtTokens(out);
  const head = out.subarray(0, out.length - 1);
  let r;
  if (variant === 'decoder') {
    const fed = Int32Array.from([...src, ...head]);
    r = forwardWith(m, fed, undefined, withStates, undefined);
    r.fedIds = fed;
    r.srcIds = src;
  } else {
    const fed = Int32Array.from([info.bos, ...head]);
    r = forwardWith(m, src, fed, withStates, tokens);
  }
  return { output: tok.decode(out), ids: out, tokens, logProbs, ...tokenProbs(logProbs), ...r };
}

/**
 * A training example, by variant: encoder-decoder { src, tgt } as seq2seq (eos appended to tgt
 * unless it ends in eos); decoder { src } (the sequence; text gets eos appended so the model
 * learns to stop, ids are taken as given; no tgt); encoder { src, tags } (one label per position:
 * label strings, ids, or the labels as text separated by spaces).
 */
export function example(m, p, what) {
  const variant = VARIANTS[m.info.variant];
  let s = exampleIds(m, p?.src, false, `${what}.src`);
  if (variant === 'encoder-decoder') {
    let t = exampleIds(m, p?.tgt, true, `${what}.tgt`);
    if (t.length === 0 || t[t.length - 1] !== m.info.eos) t = Int32Array.from([...t, m.info.eos]);
    return { s, t };
  }
  if (variant === 'decoder') {
    if (p?.tgt !== undefined)
      throw new AttnlabError(
        `${what}: a decoder-only model trains on { src } alone (the loss predicts each next token); there is no tgt`,
      );
    if (typeof p.src === 'string' && (s.length === 0 || s[s.length - 1] !== m.info.eos))
      s = Int32Array.from([...s, m.info.eos]);
    if (s.length < 2)
      throw new AttnlabError(
        `${what}.src has ${s.length} token(s); a decoder-only example needs at least 2 (text: 1, before the eos added)`,
        'AL_ERR_SHAPE',
      );
    return { s, t: new Int32Array(0) };
  }
  const t = tagIds(m, p?.tags, `${what}.tags`);
  if (t.length !== s.length)
    throw new AttnlabError(
      `${what}.tags has ${t.length} labels but src has ${s.length} tokens (one label per position)`,
      'AL_ERR_SHAPE',
    );
  return { s, t };
}

/** An encoder transformer's tags (label strings, ids, or labels separated by spaces) → ids. */
function tagIds(m, v, what) {
  const vocab = m.config.tokenizer.tgtVocab;
  if (typeof v === 'string') v = v.split(/\s+/).filter((x) => x.length > 0);
  if (!Array.isArray(v) && !ArrayBuffer.isView(v))
    throw new AttnlabError(`${what} must be an array of labels or label ids`);
  return Int32Array.from(/** @type {ArrayLike<string | number>} */ (v), (x, i) => {
    const id = typeof x === 'string' ? vocab.indexOf(x) : x;
    if (!Number.isInteger(id) || id < 0 || id >= vocab.length)
      throw new AttnlabError(
        `${what}[${i}] = ${show(x)} is not one of the model's labels (tokenizer.tgtVocab) or an index in [0, ${vocab.length})`,
        'AL_ERR_RANGE',
      );
    return id;
  });
}

/**
 * Trainer.evaluate for a transformer (teacher-forced; the loss is the training loss of
 * docs/training.md, from one forward's logits, log-softmax in double):
 *   encoder-decoder  exactMatch / tokenAccuracy of greedy decoding (as seq2seq), loss
 *   decoder          tokenAccuracy: next-token argmax hits over the S − 1 predictions;
 *                    exactMatch: sequences with every prediction right; loss, perplexity
 *                    (exp(loss)) and tokens (the predictions counted), as a language model's
 *   encoder          tokenAccuracy: positions whose argmax label is the tag; exactMatch:
 *                    sequences with every tag right; loss
 */
export function evaluate(inner, m, pairs, withLoss) {
  const variant = VARIANTS[inner.info.variant];
  let exact = 0,
    right = 0,
    tokens = 0,
    nll = 0;
  pairs.forEach((p, i) => {
    const { s, t } = example(inner, p, `Trainer.evaluate: pairs[${i}]`);
    let logits, targets;
    if (variant === 'encoder-decoder') {
      const r = m.run(s);
      if (r.output === m.decode(t)) exact++;
      for (let k = 0; k < t.length; k++) if (r.ids[k] === t[k]) right++;
      tokens += t.length;
      if (!withLoss) return;
      logits = m.forward(
        s,
        Int32Array.from([inner.info.bos, ...t.subarray(0, t.length - 1)]),
      ).logits;
      targets = t;
    } else {
      logits = m.forward(s).logits;
      targets = variant === 'decoder' ? s.subarray(1) : t;
      const V = logits.shape[1];
      let all = true;
      for (let k = 0; k < targets.length; k++) {
        let best = 0;
        for (let v = 1; v < V; v++)
          if (logits.data[k * V + v] > logits.data[k * V + best]) best = v;
        if (best === targets[k]) right++;
        else all = false;
      }
      if (all) exact++;
      tokens += targets.length;
    }
    if (!withLoss) return;
    const V = logits.shape[1];
    for (let k = 0; k < targets.length; k++) {
      const row = logits.data.subarray(k * V, (k + 1) * V);
      let mx = -Infinity,
        z = 0;
      for (const v of row) mx = Math.max(mx, v);
      for (const v of row) z += Math.exp(v - mx);
      nll -= row[targets[k]] - mx - Math.log(z);
    }
  });
  const n = Math.max(pairs.length, 1);
  const out = {
    exactMatch: exact / n,
    tokenAccuracy: right / Math.max(tokens, 1),
    loss: withLoss ? nll / Math.max(tokens, 1) : undefined,
    count: pairs.length,
  };
  // a decoder-only model is a language model: also the fields of a memory-rnn LM's evaluation
  if (variant === 'decoder')
    Object.assign(out, { perplexity: withLoss ? Math.exp(out.loss) : undefined, tokens });
  return out;
}
