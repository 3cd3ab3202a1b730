// attnlab/wasm/ops/additive-luong-args.js: what the encoder-decoder attention ops of
// additive-luong.js and luong.js share: the query/keys and padding-mask checks, the params and
// upstream snapshots with messages that name the tensor, and the output tensors.
// Deliberately not here: any op (they are in additive-luong.js and luong.js) or maths
// (src/kernels/attention_additive_luong.c).

import {
  AttnlabError,
  backwardArgs,
  requireSomeUpstream,
  fmtShape,
  snapshot,
  toMask,
  toTensor,
} from '../core.js';

export const SCORES = { dot: 0, general: 1, concat: 2 };
export const POSITIONS = { monotonic: 0, predictive: 1 };

// ------------------------------------------------------------------ shared validation

/** query [dq] or [B, dq] and keys [n, dk] or [B, n, dk], with the batch dims agreeing. */
export function queryKeys(what, query, keys) {
  const Q = toTensor(query, 'query', [1, 2]);
  const batched = Q.shape.length === 2;
  const K = toTensor(keys, 'keys', [Q.shape.length + 1]);
  const B = batched ? Q.shape[0] : 1;
  if (batched && K.shape[0] !== B) {
    throw new AttnlabError(
      `${what}: query has batch size ${B} but keys has ${K.shape[0]}`,
      'AL_ERR_SHAPE',
    );
  }
  const [n, dk] = K.shape.slice(-2);
  return { Q, K, batched, B, n, dk, dq: Q.shape[Q.shape.length - 1] };
}

/** keyPaddingMask [n] or [B, n] (true = ignore that key) as B·n bytes, or null. */
export function paddingMask(m, batched, B, n) {
  if (m === undefined || m === null) return null;
  const mask = toMask(m, 'keyPaddingMask', batched ? [[B, n], [n]] : [[n]]);
  if (batched && mask.shape.length === 1) {
    const full = new Uint8Array(B * n);
    for (let b = 0; b < B; b++) full.set(mask.data, b * n);
    return full;
  }
  return mask.data;
}

/** Every parameter name each op knows (a variant may use fewer: those extra are ignored). */
const KNOWN_PARAMS = {
  additiveAttention: ['W_q', 'W_k', 'bias', 'v'],
  luongAttention: ['W_a', 'v_a', 'W_c', 'W_p', 'v_p'], // W_p, v_p: local-p's, accepted and unused
  luongLocalAttention: ['W_a', 'v_a', 'W_c', 'W_p', 'v_p'],
  keyQueryAttention: ['W_Q', 'W_K', 'W_V'],
};

export function paramsObject(what, params) {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new AttnlabError(`${what}: params must be an object of weight tensors`);
  }
  const known = KNOWN_PARAMS[what];
  for (const k of Object.keys(params)) {
    if (!known.includes(k)) {
      throw new AttnlabError(`${what}: unknown parameter params.${k} (known: ${known.join(', ')})`);
    }
  }
  return snapshot(params, what, 'params', known); // every value read once from here on
}

/** params[name] as a tensor of exactly `shape`; `dims` names the sizes for the message. */
export function param(what, params, name, shape, dims) {
  if (params[name] === undefined || params[name] === null) {
    throw new AttnlabError(
      `${what}: params.${name} is missing (expected shape ${dims} = ${fmtShape(shape)})`,
    );
  }
  const t = toTensor(params[name], `params.${name}`);
  if (t.shape.length !== shape.length || t.shape.some((d, i) => d !== shape[i])) {
    throw new AttnlabError(
      `${what}: params.${name} has shape ${fmtShape(t.shape)} but must be ${dims} = ${fmtShape(shape)}`,
      'AL_ERR_SHAPE',
    );
  }
  return t;
}

/** The first dimension of params[name] (rank `rank`), to infer a hidden size from it. */
export function rows(what, params, name, rank, dims) {
  if (params[name] === undefined || params[name] === null) {
    throw new AttnlabError(`${what}: params.${name} is missing (expected shape ${dims})`);
  }
  const t = toTensor(params[name], `params.${name}`);
  if (t.shape.length !== rank) {
    throw new AttnlabError(
      `${what}: params.${name} must have rank ${rank} (${dims}), got shape ${fmtShape(t.shape)}`,
      'AL_ERR_SHAPE',
    );
  }
  return t.shape[0];
}

const OUTPUTS = {
  additiveAttention: ['context', 'weights'],
  luongAttention: ['context', 'weights', 'attentionalHidden'],
  luongLocalAttention: ['context', 'weights', 'attentionalHidden', 'position'],
  keyQueryAttention: ['context', 'weights'],
};

/** Splits backward's (...args, upstream): the options argument may be left out. */
export function splitBackwardArgs(what, rest) {
  const outputs = OUTPUTS[what];
  const { options, upstream } = backwardArgs(`${what}.backward`, rest, outputs);
  if (typeof upstream !== 'object' || Array.isArray(upstream)) {
    throw new AttnlabError(`${what}.backward: upstream must be an object keyed by output name`);
  }
  const u = snapshot(upstream, `${what}.backward`, 'upstream');
  checkUpstreamKeys(what, u, outputs);
  requireSomeUpstream(`${what}.backward`, u, outputs);
  return { options, upstream: u };
}

/** upstream[name] as floats of exactly `shape`, or null (= zero) when absent. */
export function upstreamTensor(what, upstream, name, shape) {
  const u = upstream[name];
  if (u === undefined || u === null) return null;
  const t = toTensor(u, `upstream.${name}`);
  if (t.shape.length !== shape.length || t.shape.some((d, i) => d !== shape[i])) {
    throw new AttnlabError(
      `${what}.backward: upstream.${name} has shape ${fmtShape(t.shape)} but ${name} has ${fmtShape(shape)}`,
      'AL_ERR_SHAPE',
    );
  }
  return t.data;
}

export function checkUpstreamKeys(what, upstream, allowed) {
  for (const k of Object.keys(upstream)) {
    if (!allowed.includes(k)) {
      throw new AttnlabError(
        `${what}.backward: unknown upstream gradient '${k}' (outputs: ${allowed.join(', ')})`,
      );
    }
  }
}

export const zeros = (ar, n, what) => ar.f32(new Float32Array(n), what);
export const out = (ar, p, shape) => ({
  data: ar.read(
    p,
    shape.reduce((a, b) => a * b, 1),
  ),
  shape,
});
