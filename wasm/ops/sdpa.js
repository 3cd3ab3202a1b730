// attnlab/wasm/ops/sdpa.js: scaled dot-product attention (Vaswani et al. 2017, eq. 1),
// softmax(Q Kᵀ · scale + mask) V over optional [H] or [B, H] leading dimensions, with causal and
// key-padding masks, and its backward (`scaledDotProductAttention.backward`). Maths:
// src/kernels/attention_sdpa_scalar.c (forward), src/kernels/attention_transformer.c (backward).

import {
  AttnlabError,
  backwardArgs,
  check,
  checkOptions,
  f32Option,
  fmtShape,
  readUpstream,
  toMask,
  toTensor,
  withArena,
} from '../core.js';

const OPTIONS = ['causal', 'keyPaddingMask', 'scale', 'returnWeights'];

/** Validated inputs shared by the forward and the backward. */
function prepare(what, query, key, value, options) {
  const o = checkOptions(options, what, OPTIONS);
  const Q = toTensor(query, 'query', [2, 3, 4]);
  const K = toTensor(key, 'key', [2, 3, 4]);
  const V = toTensor(value, 'value', [2, 3, 4]);
  const r = Q.shape.length;
  if (K.shape.length !== r || V.shape.length !== r) {
    throw new AttnlabError(
      `${what}: query has rank ${r} but key has rank ${K.shape.length} and value rank ${V.shape.length}; they must match`,
      'AL_ERR_SHAPE',
    );
  }
  const lead = Q.shape.slice(0, r - 2);
  for (const [t, n] of /** @type {[typeof K, string][]} */ ([
    [K, 'key'],
    [V, 'value'],
  ])) {
    const l = t.shape.slice(0, r - 2);
    if (l.some((d, i) => d !== lead[i])) {
      throw new AttnlabError(
        `${what}: query has leading shape ${fmtShape(lead)} but ${n} has ${fmtShape(l)}`,
        'AL_ERR_SHAPE',
      );
    }
  }
  const [L, D] = Q.shape.slice(r - 2);
  const [S, Dk] = K.shape.slice(r - 2);
  const [Sv, Dv] = V.shape.slice(r - 2);
  if (Dk !== D)
    throw new AttnlabError(`${what}: query has ${D} columns but key has ${Dk}`, 'AL_ERR_SHAPE');
  if (Sv !== S)
    throw new AttnlabError(`${what}: key has ${S} rows but value has ${Sv}`, 'AL_ERR_SHAPE');
  const B = r === 4 ? lead[0] : 1;
  const H = r === 4 ? lead[1] : r === 3 ? lead[0] : 1;
  // 0 tells C "1/√D", so a given scale must stay non-zero in float32
  const scale = o.scale === undefined ? 0 : f32Option(what, 'scale', o.scale, { nonzero: true });
  let mask = null;
  if (o.keyPaddingMask !== undefined && o.keyPaddingMask !== null) {
    const shapes = r === 4 ? [[B, S], [S]] : [[S]];
    mask = toMask(o.keyPaddingMask, 'keyPaddingMask', shapes);
    if (r === 4 && mask.shape.length === 1 && B > 1) {
      // broadcast [S] over the batch
      const full = new Uint8Array(B * S);
      for (let b = 0; b < B; b++) full.set(mask.data, b * S);
      mask = { data: full, shape: [B, S] };
    }
  }
  return { o, Q, K, V, lead, B, H, L, S, D, Dv, scale, mask };
}

/**
 * softmax(Q Kᵀ · scale + mask) V.
 * @param {import('../index.d.ts').TensorLike} query [L,D], [H,L,D] or [B,H,L,D]
 * @param {import('../index.d.ts').TensorLike} key [..., S, D]
 * @param {import('../index.d.ts').TensorLike} value [..., S, Dv]
 * @param {import('./sdpa.d.ts').SdpaOptions} [options]
 * @returns {import('./sdpa.d.ts').SdpaResult}
 */
export function scaledDotProductAttention(query, key, value, options) {
  const what = 'scaledDotProductAttention';
  const { o, Q, K, V, lead, B, H, L, S, D, Dv, scale, mask } = prepare(
    what,
    query,
    key,
    value,
    options,
  );
  const withWeights = !!o.returnWeights;
  return withArena(what, (x, ar) => {
    const pq = ar.f32(Q.data, 'query');
    const pk = ar.f32(K.data, 'key');
    const pv = ar.f32(V.data, 'value');
    const pm = mask ? ar.u8(mask.data, 'keyPaddingMask') : 0;
    const nOut = B * H * L * Dv;
    const nAtt = B * H * L * S;
    const po = ar.alloc(nOut * 4, 'the output');
    const pa = withWeights ? ar.alloc(nAtt * 4, 'the weights') : 0;
    check(x, x.al_sdpa(po, pa, pq, pk, pv, B, H, L, S, D, Dv, scale, pm, o.causal ? 1 : 0), what);
    return {
      output: { data: ar.read(po, nOut), shape: [...lead, L, Dv] },
      weights: withWeights ? { data: ar.read(pa, nAtt), shape: [...lead, L, S] } : null,
    };
  });
}

/**
 * The vector-Jacobian product of scaledDotProductAttention: the gradients of query, key and value
 * given upstream gradients of the output and (optionally) of the weights. Same arguments as the
 * forward, then `upstream` { output?, weights? } (a missing entry is zero; the weights are
 * recomputed, so `returnWeights` does not matter).
 * @returns {{ query: import('../index.d.ts').Tensor, key: import('../index.d.ts').Tensor, value: import('../index.d.ts').Tensor }}
 */
scaledDotProductAttention.backward = function backward(query, key, value, ...rest) {
  const what = 'scaledDotProductAttention.backward';
  const { options, upstream } = backwardArgs(what, rest, ['output', 'weights']);
  const { o, Q, K, V, lead, B, H, L, S, D, Dv, scale, mask } = prepare(
    what,
    query,
    key,
    value,
    options,
  );
  const up = readUpstream(what, upstream, { output: [...lead, L, Dv], weights: [...lead, L, S] });
  return withArena(what, (x, ar) => {
    const pq = ar.f32(Q.data, 'query');
    const pk = ar.f32(K.data, 'key');
    const pv = ar.f32(V.data, 'value');
    const pm = mask ? ar.u8(mask.data, 'keyPaddingMask') : 0;
    const pdo = up.output ? ar.f32(up.output.data, 'upstream.output') : 0;
    const pda = up.weights ? ar.f32(up.weights.data, 'upstream.weights') : 0;
    // the C backward accumulates (+=): start from zeros
    const pdq = ar.f32(new Float32Array(Q.data.length), 'the query gradient');
    const pdk = ar.f32(new Float32Array(K.data.length), 'the key gradient');
    const pdv = ar.f32(new Float32Array(V.data.length), 'the value gradient');
    check(
      x,
      x.al_sdpa_backward(
        pdq,
        pdk,
        pdv,
        pdo,
        pda,
        0,
        pq,
        pk,
        pv,
        B,
        H,
        L,
        S,
        D,
        Dv,
        scale,
        pm,
        o.causal ? 1 : 0,
      ),
      what,
    );
    return {
      query: { data: ar.read(pdq, Q.data.length), shape: Q.shape },
      key: { data: ar.read(pdk, K.data.length), shape: K.shape },
      value: { data: ar.read(pdv, V.data.length), shape: V.shape },
    };
  });
};
