// attnlab/wasm/ops/sdpa.js: scaled dot-product attention (Vaswani et al. 2017, eq. 1),
// softmax(Q Kᵀ · scale + mask) V over optional [H] or [B, H] leading dimensions, with causal and
// key-padding masks. Maths: src/kernels/attention_sdpa_scalar.c.

import { AttnlabError, check, checkOptions, fmtShape, toMask, toTensor, withArena } from '../core.js';

export function scaledDotProductAttention(query, key, value, options) {
  const what = 'scaledDotProductAttention';
  const o = checkOptions(options, what, ['causal', 'keyPaddingMask', 'scale', 'returnWeights']);
  const Q = toTensor(query, 'query', [2, 3, 4]);
  const K = toTensor(key, 'key', [2, 3, 4]);
  const V = toTensor(value, 'value', [2, 3, 4]);
  const r = Q.shape.length;
  if (K.shape.length !== r || V.shape.length !== r) {
    throw new AttnlabError(`${what}: query has rank ${r} but key has rank ${K.shape.length} and value rank ${V.shape.length}; they must match`, 'AL_ERR_SHAPE');
  }
  const lead = Q.shape.slice(0, r - 2);
  for (const [t, n] of [[K, 'key'], [V, 'value']]) {
    const l = t.shape.slice(0, r - 2);
    if (l.some((d, i) => d !== lead[i])) {
      throw new AttnlabError(`${what}: query has leading shape ${fmtShape(lead)} but ${n} has ${fmtShape(l)}`, 'AL_ERR_SHAPE');
    }
  }
  const [L, D] = Q.shape.slice(r - 2);
  const [S, Dk] = K.shape.slice(r - 2);
  const [Sv, Dv] = V.shape.slice(r - 2);
  if (Dk !== D) throw new AttnlabError(`${what}: query has ${D} columns but key has ${Dk}`, 'AL_ERR_SHAPE');
  if (Sv !== S) throw new AttnlabError(`${what}: key has ${S} rows but value has ${Sv}`, 'AL_ERR_SHAPE');
  const B = r === 4 ? lead[0] : 1;
  const H = r === 4 ? lead[1] : r === 3 ? lead[0] : 1;
  let scale = 0;
  if (o.scale !== undefined) {
    if (typeof o.scale !== 'number' || !Number.isFinite(o.scale) || o.scale === 0) {
      throw new AttnlabError(`${what}: scale must be a finite non-zero number, got ${o.scale}`);
    }
    scale = o.scale;
  }
  let mask = null;
  if (o.keyPaddingMask !== undefined && o.keyPaddingMask !== null) {
    const shapes = r === 4 ? [[B, S], [S]] : [[S]];
    mask = toMask(o.keyPaddingMask, 'keyPaddingMask', shapes);
    if (r === 4 && mask.shape.length === 1 && B > 1) { // broadcast [S] over the batch
      const full = new Uint8Array(B * S);
      for (let b = 0; b < B; b++) full.set(mask.data, b * S);
      mask = { data: full, shape: [B, S] };
    }
  }
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
