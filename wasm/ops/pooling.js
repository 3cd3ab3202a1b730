// attnlab/wasm/ops/pooling.js: pooling attentions, which reduce a sequence H [n, d] (or a batch
// H [B, n, d]) to a fixed-size summary and return the weights they used, each with a backward
// (vector-Jacobian product) attached as `op.backward`:
//
//   attentionPooling         Zhou et al. 2016, eqs. 9-12: M = tanh(H), α = softmax(M w),
//                            r = Hᵀα, h* = tanh(r)
//   contextPooling           Yang et al. 2016 (HAN), eqs. 5-7: uᵢ = tanh(W hᵢ + b),
//                            α = softmax(uᵢᵀ u), s = Σ αᵢ hᵢ
//   structuredSelfAttention  Lin et al. 2017, eqs. 6-8: A = softmax(W_s2 tanh(W_s1 Hᵀ)) over n
//                            for each of the r hops, M = A H, penalty = ‖A Aᵀ − I‖²_F
//
//   const { r, hStar, weights } = ops.attentionPooling(H, { w }, { mask });
//   const grads = ops.attentionPooling.backward(H, { w }, { mask }, { hStar: dhStar }); // { H, w }
//
// Here: shape checks with messages that name the tensors, copying in and out of wasm memory.
// Not here: any maths (src/kernels/attention_pooling.c; batching in src/api/pooling.c).

import {
  AttnlabError,
  backwardArgs,
  check,
  requireSomeUpstream,
  checkOptions,
  fmtShape,
  snapshot,
  toMask,
  toTensor,
  withArena,
} from '../core.js';

/**
 * Op specifications: parameter names with their ranks, output names, the C entry points.
 * `dims(H, P)` checks the parameter shapes against H and returns the extra sizes;
 * `outShapes` gives each output's per-item shape.
 */
const SPECS = {
  attentionPooling: {
    params: [['w', 1]],
    outputs: ['r', 'hStar', 'weights'],
    dims(what, d, P) {
      if (P.w.shape[0] !== d) {
        throw new AttnlabError(
          `${what}: H has ${d} features (its last dimension) but params.w has ${P.w.shape[0]} entries; w must be [d]`,
          'AL_ERR_SHAPE',
        );
      }
      return [];
    },
    outShapes: (n, d) => ({ r: [d], hStar: [d], weights: [n] }),
    forward: 'al_attention_pooling_forward',
    backward: 'al_attention_pooling_backward',
  },
  contextPooling: {
    params: [
      ['W', 2],
      ['b', 1],
      ['u', 1],
    ],
    outputs: ['s', 'weights'],
    dims(what, d, P) {
      const [dw, dW] = P.W.shape;
      if (dW !== d) {
        throw new AttnlabError(
          `${what}: H has ${d} features (its last dimension) but params.W has ${dW} columns; W must be [dw, d]`,
          'AL_ERR_SHAPE',
        );
      }
      for (const k of ['b', 'u']) {
        if (P[k].shape[0] !== dw) {
          throw new AttnlabError(
            `${what}: params.W has ${dw} rows but params.${k} has ${P[k].shape[0]} entries; ${k} must be [dw]`,
            'AL_ERR_SHAPE',
          );
        }
      }
      return [dw];
    },
    outShapes: (n, d) => ({ s: [d], weights: [n] }),
    forward: 'al_context_pooling_forward',
    backward: 'al_context_pooling_backward',
  },
  structuredSelfAttention: {
    params: [
      ['W_s1', 2],
      ['W_s2', 2],
    ],
    outputs: ['M', 'weights', 'penalty'],
    dims(what, d, P) {
      const [da, d1] = P.W_s1.shape;
      const [r, da2] = P.W_s2.shape;
      if (d1 !== d) {
        throw new AttnlabError(
          `${what}: H has ${d} features (its last dimension) but params.W_s1 has ${d1} columns; W_s1 must be [da, d]`,
          'AL_ERR_SHAPE',
        );
      }
      if (da2 !== da) {
        throw new AttnlabError(
          `${what}: params.W_s1 has ${da} rows but params.W_s2 has ${da2} columns; W_s2 must be [r, da]`,
          'AL_ERR_SHAPE',
        );
      }
      return [da, r];
    },
    outShapes: (n, d, [, r]) => ({ M: [r, d], weights: [r, n], penalty: [] }),
    forward: 'al_structured_self_attention_forward',
    backward: 'al_structured_self_attention_backward',
  },
};

const size = (shape) => shape.reduce((a, b) => a * b, 1);

/** Validate H, params and options of `name`; everything the C call needs. */
function prepare(name, what, H, params, options) {
  const spec = SPECS[name];
  const o = checkOptions(options, what, ['mask']);
  const Ht = toTensor(H, 'H', [2, 3]);
  const batched = Ht.shape.length === 3;
  const [B, n, d] = batched ? Ht.shape : [1, ...Ht.shape];
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new AttnlabError(
      `${what}: params must be an object { ${spec.params.map((p) => p[0]).join(', ')} }, got ${params === null ? 'null' : Array.isArray(params) ? 'an array' : typeof params}`,
    );
  }
  const names = spec.params.map((p) => p[0]);
  for (const k of Object.keys(params)) {
    if (!names.includes(k))
      throw new AttnlabError(
        `${what}: unknown parameter params.${k} (expected ${names.join(', ')})`,
      );
  }
  const given = snapshot(params, what, 'params', names);
  const P = {};
  for (const [k, rank] of spec.params) {
    if (given[k] === undefined || given[k] === null)
      throw new AttnlabError(`${what}: params.${k} is missing`);
    P[k] = toTensor(given[k], `params.${k}`, [rank]);
  }
  const extra = spec.dims(what, d, P);
  let mask = null;
  if (o.mask !== undefined && o.mask !== null) {
    // a flat Uint8Array of B·n entries is read as [B, n]
    const m =
      batched && o.mask instanceof Uint8Array && o.mask.length === B * n && B > 1
        ? { data: o.mask, shape: [B, n] }
        : o.mask;
    mask = toMask(m, 'mask', batched ? [[B, n], [n]] : [[n]]);
    if (batched && mask.shape.length === 1 && B > 1) {
      // broadcast [n] over the batch
      const full = new Uint8Array(B * n);
      for (let b = 0; b < B; b++) full.set(mask.data, b * n);
      mask = { data: full, shape: [B, n] };
    }
  }
  const lead = batched ? [B] : [];
  const per = spec.outShapes(n, d, extra);
  const outShapes = {};
  for (const k of spec.outputs) outShapes[k] = [...lead, ...per[k]];
  return { spec, Ht, P, mask, B, n, d, extra, batched, outShapes };
}

/** The C argument list after the outputs/gradients: inputs, parameters, mask, sizes. */
function inputArgs(ar, p) {
  const ptrs = [ar.f32(p.Ht.data, 'H')];
  for (const [k] of p.spec.params) ptrs.push(ar.f32(p.P[k].data, `params.${k}`));
  ptrs.push(p.mask ? ar.u8(p.mask.data, 'mask') : 0);
  return [...ptrs, p.B, p.n, p.d, ...p.extra];
}

function forward(name, H, params, options) {
  const p = prepare(name, name, H, params, options);
  return withArena(name, (x, ar) => {
    const outPtrs = p.spec.outputs.map((k) => ar.alloc(4 * size(p.outShapes[k]), k));
    check(x, x[p.spec.forward](...outPtrs, ...inputArgs(ar, p)), name);
    const result = {};
    p.spec.outputs.forEach((k, i) => {
      const shape = p.outShapes[k];
      const data = ar.read(outPtrs[i], size(shape));
      // the penalty is a number for one sequence, a [B] tensor for a batch
      result[k] = shape.length === 0 ? data[0] : { data, shape };
    });
    return result;
  });
}

/** One upstream gradient as a Float32Array of the output's shape, or null (= zero). */
function upstreamData(what, k, value, shape, batched) {
  if (value === undefined || value === null) return null;
  const n = size(shape);
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new AttnlabError(
        `${what}: upstream.${k} is ${value}; upstream gradients must be finite`,
        'AL_ERR_NONFINITE',
      );
    if (k !== 'penalty')
      throw new AttnlabError(
        `${what}: upstream.${k} must be a tensor of shape ${fmtShape(shape)}, got a number`,
        'AL_ERR_SHAPE',
      );
    return new Float32Array(n).fill(value); // a number broadcasts over the batch's penalties
  }
  const t = toTensor(value, `upstream.${k}`);
  const same = t.shape.length === shape.length && t.shape.every((v, i) => v === shape[i]);
  // an unbatched penalty's upstream may also come as a one-element tensor
  if (!same && !(k === 'penalty' && !batched && t.data.length === 1)) {
    const want =
      k === 'penalty'
        ? batched
          ? `a number or shape ${fmtShape(shape)}`
          : 'a number'
        : `shape ${fmtShape(shape)}`;
    throw new AttnlabError(
      `${what}: upstream.${k} has shape ${fmtShape(t.shape)} but must be ${want}, like the output ${k}`,
      'AL_ERR_SHAPE',
    );
  }
  return t.data;
}

/** backward(H, params, upstream) or backward(H, params, options, upstream): upstream is last. */
function backward(name, H, params, rest) {
  const what = `${name}.backward`;
  const spec = SPECS[name];
  const args = backwardArgs(what, rest, spec.outputs);
  const p = prepare(name, what, H, params, args.options);
  if (typeof args.upstream !== 'object' || Array.isArray(args.upstream)) {
    throw new AttnlabError(
      `${what}: upstream must be an object keyed by output name (${spec.outputs.join(', ')})`,
    );
  }
  for (const k of Object.keys(args.upstream)) {
    if (!spec.outputs.includes(k))
      throw new AttnlabError(
        `${what}: unknown upstream gradient upstream.${k} (outputs: ${spec.outputs.join(', ')})`,
      );
  }
  const upstream = snapshot(args.upstream, what, 'upstream', spec.outputs);
  requireSomeUpstream(what, upstream, spec.outputs);
  const ups = spec.outputs.map((k) => {
    const shape = k === 'penalty' ? [p.B] : p.outShapes[k];
    return upstreamData(what, k, upstream[k], shape, p.batched);
  });
  const gradNames = ['H', ...spec.params.map((q) => q[0])];
  const gradShapes = [p.Ht.shape, ...spec.params.map((q) => p.P[q[0]].shape)];
  return withArena(what, (x, ar) => {
    const gradPtrs = gradNames.map((k, i) =>
      ar.alloc(4 * size(gradShapes[i]), `the gradient of ${k}`),
    );
    const upPtrs = ups.map((u, i) => (u ? ar.f32(u, `upstream.${spec.outputs[i]}`) : 0));
    check(x, x[spec.backward](...gradPtrs, ...inputArgs(ar, p), ...upPtrs), what);
    const grads = {};
    gradNames.forEach((k, i) => {
      grads[k] = { data: ar.read(gradPtrs[i], size(gradShapes[i])), shape: gradShapes[i].slice() };
    });
    return grads;
  });
}

/**
 * Attention pooling (Zhou et al. 2016, eqs. 9-12): M = tanh(H), α = softmax(M w) over the
 * sequence, r = Hᵀα, h* = tanh(r).
 * @param {import('../index.d.ts').TensorLike} H [n, d] or [B, n, d]
 * @param {{ w: import('../index.d.ts').TensorLike }} params w [d]
 * @param {{ mask?: import('../index.d.ts').MaskLike }} [options] mask [n] or [B, n], true = ignore
 * @returns {{ r: import('../index.d.ts').Tensor, hStar: import('../index.d.ts').Tensor,
 *             weights: import('../index.d.ts').Tensor }} r, hStar [d] or [B, d]; weights [n] or [B, n]
 */
export function attentionPooling(H, params, options) {
  return forward('attentionPooling', H, params, options);
}

/**
 * Gradients of attentionPooling: `upstream` { r?, hStar?, weights? } (missing = zero) →
 * { H, w }, each { data, shape } shaped like the input.
 */
attentionPooling.backward = function attentionPoolingBackward(H, params, ...rest) {
  return backward('attentionPooling', H, params, rest);
};

/**
 * Context-vector attention pooling (Yang et al. 2016, HAN, eqs. 5-7): uᵢ = tanh(W hᵢ + b),
 * α = softmax(uᵢᵀ u) over the sequence, s = Σ αᵢ hᵢ. Stack it for words then sentences.
 * @param {import('../index.d.ts').TensorLike} H [n, d] or [B, n, d]
 * @param {{ W: import('../index.d.ts').TensorLike, b: import('../index.d.ts').TensorLike,
 *           u: import('../index.d.ts').TensorLike }} params W [dw, d], b [dw], u [dw]
 * @param {{ mask?: import('../index.d.ts').MaskLike }} [options] mask [n] or [B, n], true = ignore
 * @returns {{ s: import('../index.d.ts').Tensor, weights: import('../index.d.ts').Tensor }}
 *   s [d] or [B, d]; weights [n] or [B, n]
 */
export function contextPooling(H, params, options) {
  return forward('contextPooling', H, params, options);
}

/** Gradients of contextPooling: `upstream` { s?, weights? } → { H, W, b, u }. */
contextPooling.backward = function contextPoolingBackward(H, params, ...rest) {
  return backward('contextPooling', H, params, rest);
};

/**
 * Structured self-attention (Lin et al. 2017, eqs. 6-8): A = softmax(W_s2 tanh(W_s1 Hᵀ)) with the
 * softmax over n for each of the r hops, M = A H, penalty = ‖A Aᵀ − I‖²_F.
 * @param {import('../index.d.ts').TensorLike} H [n, d] or [B, n, d]
 * @param {{ W_s1: import('../index.d.ts').TensorLike, W_s2: import('../index.d.ts').TensorLike }}
 *   params W_s1 [da, d], W_s2 [r, da]
 * @param {{ mask?: import('../index.d.ts').MaskLike }} [options] mask [n] or [B, n], true = ignore
 * @returns {{ M: import('../index.d.ts').Tensor, weights: import('../index.d.ts').Tensor,
 *             penalty: number | import('../index.d.ts').Tensor }}
 *   M [r, d] or [B, r, d]; weights [r, n] or [B, r, n]; penalty a number, or [B] with a batch
 */
export function structuredSelfAttention(H, params, options) {
  return forward('structuredSelfAttention', H, params, options);
}

/**
 * Gradients of structuredSelfAttention: `upstream` { M?, weights?, penalty? } (penalty a number,
 * or [B] with a batch; a number broadcasts) → { H, W_s1, W_s2 }.
 */
structuredSelfAttention.backward = function structuredSelfAttentionBackward(H, params, ...rest) {
  return backward('structuredSelfAttention', H, params, rest);
};
