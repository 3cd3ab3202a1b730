// attnlab/wasm/ops/additive-luong.js: encoder-decoder attention of one decoder query over n
// encoder states: additive (Bahdanau et al. 2015), Luong global and local (Luong et al. 2015) and
// key-query attention, each with a `.backward` (vector-Jacobian product).
//
//   const { context, weights } = ops.additiveAttention(query, keys, { W_q, W_k, bias, v });
//   const grads = ops.additiveAttention.backward(query, keys, params, {}, { context: dc });
//   // grads: { query, keys, W_q, W_k, bias, v } (+ values when options.values was given)
//
// Shapes are checked here with messages that name the tensors; the maths is in
// src/kernels/attention_additive_luong.c (via src/api/additive_luong.h). An optional leading batch
// dimension B is accepted: query [B, dq], keys [B, n, dk], keyPaddingMask [B, n] (or [n], shared);
// parameter gradients are summed over B. Docs: docs/additive-luong.md. Luong's ops are in
// luong.js and re-exported here; the checks they share are additive-luong-args.js.

import { AttnlabError, check, checkOptions, fmtShape, show, toTensor, withArena } from '../core.js';
import {
  queryKeys,
  paddingMask,
  paramsObject,
  param,
  rows,
  splitBackwardArgs,
  upstreamTensor,
  checkUpstreamKeys,
  zeros,
  out,
} from './additive-luong-args.js';

export { luongAttention, luongLocalAttention } from './luong.js';

// ------------------------------------------------------------------ additive (Bahdanau)

function additivePrepare(query, keys, params, options) {
  const what = 'additiveAttention';
  const o = checkOptions(options, what, ['keyPaddingMask', 'values']);
  const s = queryKeys(what, query, keys);
  const p = paramsObject(what, params);
  const da = rows(what, p, 'v', 1, '[da]');
  const W_q = param(what, p, 'W_q', [da, s.dq], '[da, dq] (da from params.v, dq from query)');
  const W_k = param(what, p, 'W_k', [da, s.dk], '[da, dk] (da from params.v, dk from keys)');
  const bias = param(what, p, 'bias', [da], '[da]');
  const v = param(what, p, 'v', [da], '[da]');
  let V = null;
  let dv = s.dk;
  if (o.values !== undefined && o.values !== null) {
    V = toTensor(o.values, 'values', [s.K.shape.length]);
    const lead = V.shape.slice(0, -1);
    const klead = s.K.shape.slice(0, -1);
    if (lead.some((d, i) => d !== klead[i])) {
      throw new AttnlabError(
        `${what}: values has shape ${fmtShape(V.shape)} but keys has ${fmtShape(s.K.shape)}; they must agree except in the last dimension`,
        'AL_ERR_SHAPE',
      );
    }
    dv = V.shape[V.shape.length - 1];
  }
  const mask = paddingMask(o.keyPaddingMask, s.batched, s.B, s.n);
  return { what, ...s, da, dv, W_q, W_k, bias, v, V, mask };
}

/**
 * Additive attention (Bahdanau et al. 2015, eq. 6): eⱼ = vᵀ tanh(W_q s + W_k hⱼ + bias),
 * α = softmax(e) (masked keys excluded), c = Σ αⱼ hⱼ (or Σ αⱼ valuesⱼ).
 * @param {import('../index.js').TensorLike} query s: [dq] or [B, dq]
 * @param {import('../index.js').TensorLike} keys h: [n, dk] or [B, n, dk]
 * @param {import('./additive-luong.js').AdditiveParams} params W_q [da,dq], W_k [da,dk], bias [da], v [da]
 * @param {{ keyPaddingMask?: import('../index.js').MaskLike, values?: import('../index.js').TensorLike }} [options]
 *   values [n, dv] (or [B, n, dv]) replaces hⱼ in the weighted sum.
 * @returns {{ context: import('../index.js').Tensor, weights: import('../index.js').Tensor }}
 *   context [dv] (dv = dk without values), weights [n] (with B: [B, dv], [B, n]).
 */
export function additiveAttention(query, keys, params, options) {
  const a = additivePrepare(query, keys, params, options);
  const lead = a.batched ? [a.B] : [];
  return withArena(a.what, (x, ar) => {
    const pc = ar.alloc(a.B * a.dv * 4, 'the context');
    const pw = ar.alloc(a.B * a.n * 4, 'the weights');
    check(
      x,
      x.al_additive_attention_forward(
        pc,
        pw,
        ar.f32(a.Q.data, 'query'),
        ar.f32(a.K.data, 'keys'),
        a.V ? ar.f32(a.V.data, 'values') : 0,
        ar.f32(a.W_q.data, 'params.W_q'),
        ar.f32(a.W_k.data, 'params.W_k'),
        ar.f32(a.bias.data, 'params.bias'),
        ar.f32(a.v.data, 'params.v'),
        a.mask ? ar.u8(a.mask, 'keyPaddingMask') : 0,
        a.B,
        a.n,
        a.dq,
        a.dk,
        a.dv,
        a.da,
      ),
      a.what,
    );
    return { context: out(ar, pc, [...lead, a.dv]), weights: out(ar, pw, [...lead, a.n]) };
  });
}

/**
 * Vector-Jacobian product of additiveAttention: gradients of every input and parameter given the
 * upstream gradients { context, weights } (a missing entry counts as zero).
 * Call as backward(query, keys, params, options, upstream) or backward(query, keys, params, upstream).
 * @returns {{ query, keys, values?, W_q, W_k, bias, v }} tensors shaped like the inputs
 */
additiveAttention.backward = function additiveAttentionBackward(query, keys, params, ...rest) {
  const { options, upstream } = splitBackwardArgs('additiveAttention', rest);
  const a = additivePrepare(query, keys, params, options);
  const lead = a.batched ? [a.B] : [];
  checkUpstreamKeys(a.what, upstream, ['context', 'weights']);
  const uc = upstreamTensor(a.what, upstream, 'context', [...lead, a.dv]);
  const uw = upstreamTensor(a.what, upstream, 'weights', [...lead, a.n]);
  return withArena(a.what, (x, ar) => {
    const g = {
      query: zeros(ar, a.Q.data.length, 'grad query'),
      keys: zeros(ar, a.K.data.length, 'grad keys'),
      values: a.V ? zeros(ar, a.V.data.length, 'grad values') : 0,
      W_q: zeros(ar, a.W_q.data.length, 'grad W_q'),
      W_k: zeros(ar, a.W_k.data.length, 'grad W_k'),
      bias: zeros(ar, a.da, 'grad bias'),
      v: zeros(ar, a.da, 'grad v'),
    };
    check(
      x,
      x.al_additive_attention_backward(
        g.query,
        g.keys,
        g.values,
        g.W_q,
        g.W_k,
        g.bias,
        g.v,
        uc ? ar.f32(uc, 'upstream.context') : 0,
        uw ? ar.f32(uw, 'upstream.weights') : 0,
        ar.f32(a.Q.data, 'query'),
        ar.f32(a.K.data, 'keys'),
        a.V ? ar.f32(a.V.data, 'values') : 0,
        ar.f32(a.W_q.data, 'params.W_q'),
        ar.f32(a.W_k.data, 'params.W_k'),
        ar.f32(a.bias.data, 'params.bias'),
        ar.f32(a.v.data, 'params.v'),
        a.mask ? ar.u8(a.mask, 'keyPaddingMask') : 0,
        a.B,
        a.n,
        a.dq,
        a.dk,
        a.dv,
        a.da,
      ),
      `${a.what}.backward`,
    );
    const r = {
      query: out(ar, g.query, a.Q.shape),
      keys: out(ar, g.keys, a.K.shape),
      W_q: out(ar, g.W_q, a.W_q.shape),
      W_k: out(ar, g.W_k, a.W_k.shape),
      bias: out(ar, g.bias, [a.da]),
      v: out(ar, g.v, [a.da]),
    };
    if (a.V) r.values = out(ar, g.values, a.V.shape);
    return r;
  });
};

// ------------------------------------------------------------------ key-query

function keyQueryPrepare(query, keys, params, options) {
  const what = 'keyQueryAttention';
  const o = checkOptions(options, what, ['scaled', 'keyPaddingMask']);
  const s = queryKeys(what, query, keys);
  const p = paramsObject(what, params);
  const dk = rows(what, p, 'W_Q', 2, '[dk, ds]');
  const dv = rows(what, p, 'W_V', 2, '[dv, dh]');
  const W_Q = param(what, p, 'W_Q', [dk, s.dq], '[dk, ds] (ds from query)');
  const W_K = param(what, p, 'W_K', [dk, s.dk], '[dk, dh] (dk from params.W_Q, dh from keys)');
  const W_V = param(what, p, 'W_V', [dv, s.dk], '[dv, dh] (dh from keys)');
  if (o.scaled !== undefined && typeof o.scaled !== 'boolean') {
    throw new AttnlabError(`${what}: scaled must be true or false, got ${show(o.scaled)}`);
  }
  const mask = paddingMask(o.keyPaddingMask, s.batched, s.B, s.n);
  return {
    what,
    ...s,
    ds: s.dq,
    dh: s.dk,
    dkq: dk,
    dv,
    W_Q,
    W_K,
    W_V,
    scaled: o.scaled ? 1 : 0,
    mask,
  };
}

/**
 * Key-query attention: kᵢ = W_K hᵢ, q = W_Q s, vᵢ = W_V hᵢ, α = softmax(kᵢᵀ q [/ √dk when
 * scaled]), c = Σ αᵢ vᵢ.
 * @param {import('../index.js').TensorLike} query s: [ds] or [B, ds]
 * @param {import('../index.js').TensorLike} keys h: [n, dh] or [B, n, dh]
 * @param {import('./additive-luong.js').KeyQueryParams} params W_Q [dk,ds], W_K [dk,dh], W_V [dv,dh]
 * @param {{ scaled?: boolean, keyPaddingMask?: import('../index.js').MaskLike }} [options] scaled defaults to false
 * @returns {{ context, weights }} [dv], [n] (with B: [B, dv], [B, n])
 */
export function keyQueryAttention(query, keys, params, options) {
  const a = keyQueryPrepare(query, keys, params, options);
  const lead = a.batched ? [a.B] : [];
  return withArena(a.what, (x, ar) => {
    const pc = ar.alloc(a.B * a.dv * 4, 'the context');
    const pw = ar.alloc(a.B * a.n * 4, 'the weights');
    check(
      x,
      x.al_key_query_attention_forward(
        pc,
        pw,
        ar.f32(a.Q.data, 'query'),
        ar.f32(a.K.data, 'keys'),
        ar.f32(a.W_Q.data, 'params.W_Q'),
        ar.f32(a.W_K.data, 'params.W_K'),
        ar.f32(a.W_V.data, 'params.W_V'),
        a.mask ? ar.u8(a.mask, 'keyPaddingMask') : 0,
        a.B,
        a.n,
        a.ds,
        a.dh,
        a.dkq,
        a.dv,
        a.scaled,
      ),
      a.what,
    );
    return { context: out(ar, pc, [...lead, a.dv]), weights: out(ar, pw, [...lead, a.n]) };
  });
}

/** Gradients { query, keys, W_Q, W_K, W_V } from upstream { context, weights }. */
keyQueryAttention.backward = function keyQueryAttentionBackward(query, keys, params, ...rest) {
  const { options, upstream } = splitBackwardArgs('keyQueryAttention', rest);
  const a = keyQueryPrepare(query, keys, params, options);
  const lead = a.batched ? [a.B] : [];
  checkUpstreamKeys(a.what, upstream, ['context', 'weights']);
  const uc = upstreamTensor(a.what, upstream, 'context', [...lead, a.dv]);
  const uw = upstreamTensor(a.what, upstream, 'weights', [...lead, a.n]);
  return withArena(a.what, (x, ar) => {
    const g = {
      query: zeros(ar, a.Q.data.length, 'grad query'),
      keys: zeros(ar, a.K.data.length, 'grad keys'),
      W_Q: zeros(ar, a.W_Q.data.length, 'grad W_Q'),
      W_K: zeros(ar, a.W_K.data.length, 'grad W_K'),
      W_V: zeros(ar, a.W_V.data.length, 'grad W_V'),
    };
    check(
      x,
      x.al_key_query_attention_backward(
        g.query,
        g.keys,
        g.W_Q,
        g.W_K,
        g.W_V,
        uc ? ar.f32(uc, 'upstream.context') : 0,
        uw ? ar.f32(uw, 'upstream.weights') : 0,
        ar.f32(a.Q.data, 'query'),
        ar.f32(a.K.data, 'keys'),
        ar.f32(a.W_Q.data, 'params.W_Q'),
        ar.f32(a.W_K.data, 'params.W_K'),
        ar.f32(a.W_V.data, 'params.W_V'),
        a.mask ? ar.u8(a.mask, 'keyPaddingMask') : 0,
        a.B,
        a.n,
        a.ds,
        a.dh,
        a.dkq,
        a.dv,
        a.scaled,
      ),
      `${a.what}.backward`,
    );
    return {
      query: out(ar, g.query, a.Q.shape),
      keys: out(ar, g.keys, a.K.shape),
      W_Q: out(ar, g.W_Q, a.W_Q.shape),
      W_K: out(ar, g.W_K, a.W_K.shape),
      W_V: out(ar, g.W_V, a.W_V.shape),
    };
  });
};
