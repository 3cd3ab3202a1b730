// attnlab/wasm/transformer-model.js: Model.run / Model.forward for architecture "transformer"
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
// Deliberately not here: beam search, stepping, teacher-forced scoring (seq2seq only for now).

import { AttnlabError, Arena, idsFrom, inVocab, kindOf, readCString, statusName } from './core.js';
import { MAX_SOURCE, MAX_STEPS } from './limits.js';

const VARIANTS = ['encoder', 'decoder', 'encoder-decoder']; // AL_TF_*

function statusError(x, status, context) {
  return new AttnlabError(`${context}: ${readCString(x, x.al_status_string(status))}`, statusName(status));
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
    throw new AttnlabError(`${what} has ${out.length} tokens; this model takes at most ${limit} (config "maxPositions")`, 'AL_ERR_SHAPE');
  }
  return out;
}

/** Attention maps of one stack: [L, H, T, S] floats at p -> one entry per layer and head. */
function maps(ar, p, L, H, T, S, kind, stack, rowLabels, colLabels, out) {
  const all = ar.read(p, L * H * T * S);
  for (let l = 0; l < L; l++) {
    for (let h = 0; h < H; h++) {
      const o = (l * H + h) * T * S;
      out.push({ layer: l, head: h, kind, stack, weights: { data: all.slice(o, o + T * S), shape: [T, S] }, rowLabels, colLabels });
    }
  }
}

/**
 * One forward pass. encoder / decoder: `input` is the sequence; encoder-decoder: `input` the
 * source and `tgt` the decoder input (bos first; text is encoded with tgtVocab, nothing added).
 * `labels` (optional) overrides the decoder-side row labels.
 */
export function transformerForward(m, input, tgt, labels) {
  const { x, ptr, info } = m;
  const variant = VARIANTS[info.variant];
  const ed = variant === 'encoder-decoder';
  const tok = m.tokenizer;
  const src = ids(m, input, info.srcVocab, (t) => tok.encode(t), 'Model.forward: input');
  let dec = null;
  if (ed) {
    if (tgt === undefined) throw new AttnlabError('Model.forward: an encoder-decoder needs the decoder input (tgt), bos first');
    dec = ids(m, tgt, info.tgtVocab, (t) => tok.encodeTarget(t), 'Model.forward: tgt');
    if (dec.length > MAX_STEPS) throw new AttnlabError(`Model.forward: tgt has ${dec.length} tokens; the limit is ${MAX_STEPS}`, 'AL_ERR_SHAPE');
  } else if (tgt !== undefined) {
    throw new AttnlabError(`Model.forward: variant "${variant}" takes one sequence, not a tgt`);
  }
  const S = src.length, T = ed ? dec.length : 0, V = info.tgtVocab;
  const L = info.layers, H = info.heads, n = ed ? T : S;
  const attFloats = x.al_model_transformer_attention_floats(ptr, S, T); // C's count of what it writes
  if (!(attFloats >= 0)) throw new AttnlabError('Model.forward: the model did not report its attention size', 'AL_ERR_UNSUPPORTED');
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
      maps(ar, pAtt + L * H * (S * S + T * T) * 4, L, H, T, S, 'cross', 'decoder', rows, srcTokens, attention);
    } else {
      maps(ar, pAtt, L, H, S, S, 'self', variant, srcTokens, srcTokens, attention);
    }
    const result = { logits: { data: ar.read(pLogits, n * V), shape: [n, V] }, attention, srcIds: src };
    if (ed) result.tgtIds = dec;
    return result;
  } finally {
    ar.free();
  }
}

function argmaxRows(logits) {
  const [n, V] = logits.shape;
  return Int32Array.from({ length: n }, (_, t) => {
    let best = 0;
    for (let v = 1; v < V; v++) if (logits.data[t * V + v] > logits.data[t * V + best]) best = v;
    return best;
  });
}

/**
 * Model.run for a transformer. encoder: one forward, the argmax label per position.
 * decoder / encoder-decoder: greedy decoding, then one forward over the fed sequence (the
 * prompt or bos, then every emitted token but the last) for the logits and attention.
 */
export function transformerRun(m, input, options) {
  const { x, ptr, info } = m;
  const variant = VARIANTS[info.variant];
  if (variant === 'encoder') {
    if (options.maxLength !== undefined) throw new AttnlabError('Model.run: maxLength is for decoder and encoder-decoder variants');
    const r = transformerForward(m, input);
    const pred = argmaxRows(r.logits);
    const tokens = m.tokenizer.tgtTokens(pred);
    return { output: tokens.join(' '), ids: pred, tokens, ...r };
  }
  const maxLength = options.maxLength ?? info.maxLength;
  if (!Number.isInteger(maxLength) || maxLength < 1 || maxLength > MAX_STEPS) {
    throw new AttnlabError(`Model.run: maxLength ${maxLength} must be an integer in [1, ${MAX_STEPS}]`, 'AL_ERR_SHAPE');
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
    const status = x.al_model_transformer_generate(ptr, pSrc, src.length, maxLength, pIds, pLogp, pLen);
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
    r = transformerForward(m, fed);
    r.fedIds = fed;
    r.srcIds = src;
  } else {
    const fed = Int32Array.from([info.bos, ...head]);
    r = transformerForward(m, src, fed, tokens);
  }
  return { output: tok.decode(out), ids: out, tokens, logProbs, ...r };
}
