// attnlab/wasm/ops/basic.js: the foundation ops: matmul, matvec, softmax, activations,
// layerNorm, embedding. Shapes are checked here with messages that name the tensors; the maths is
// in src/kernels/ (via the al_* entry points of src/attnlab.h). matmul also takes tensors kept
// resident by prepare() (wasm/prepared.js) for a or b, read in place instead of copied.

import {
  AttnlabError,
  check,
  checkOptions,
  f32Option,
  show,
  toMask,
  toTensor,
  withArena,
} from '../core.js';
import { inputPtr, tensorArg } from '../prepared.js';

export function matmul(a, b, options) {
  const o = checkOptions(options, 'matmul', ['transposeA', 'transposeB']);
  // either may be a PreparedTensor (prepare()): read in place, not copied
  const A = tensorArg(a, 'a', [2], 'matmul');
  const B = tensorArg(b, 'b', [2], 'matmul');
  const ta = !!o.transposeA;
  const tb = !!o.transposeB;
  const [M, K] = ta ? [A.shape[1], A.shape[0]] : A.shape;
  const [K2, N] = tb ? [B.shape[1], B.shape[0]] : B.shape;
  if (K !== K2) {
    const aName = ta ? 'aᵀ' : 'a';
    const bName = tb ? 'bᵀ' : 'b';
    throw new AttnlabError(
      `matmul: ${aName} has ${K} columns but ${bName} has ${K2} rows`,
      'AL_ERR_SHAPE',
    );
  }
  return withArena('matmul', (x, ar) => {
    const pa = inputPtr(ar, A, 'a');
    const pb = inputPtr(ar, B, 'b');
    const pc = ar.alloc(M * N * 4, 'the result');
    check(x, x.al_matmul(pc, pa, pb, M, K, N, ta ? 1 : 0, tb ? 1 : 0), 'matmul');
    return { data: ar.read(pc, M * N), shape: [M, N] };
  });
}

export function matvec(a, v) {
  const A = toTensor(a, 'a', [2]);
  const X = toTensor(v, 'x', [1]);
  const [M, K] = A.shape;
  if (X.shape[0] !== K)
    throw new AttnlabError(
      `matvec: a has ${K} columns but x has ${X.shape[0]} entries`,
      'AL_ERR_SHAPE',
    );
  return withArena('matvec', (x, ar) => {
    const pa = ar.f32(A.data, 'a');
    const px = ar.f32(X.data, 'x');
    const py = ar.alloc(M * 4, 'the result');
    check(x, x.al_matvec(py, pa, px, M, K), 'matvec');
    return { data: ar.read(py, M), shape: [M] };
  });
}

export function softmax(input, options) {
  const o = checkOptions(options, 'softmax', ['mask']);
  const X = toTensor(input, 'x');
  if (X.shape.length === 0)
    throw new AttnlabError(
      'softmax: x has rank 0; it needs a last axis to normalise over',
      'AL_ERR_SHAPE',
    );
  const C = X.shape[X.shape.length - 1];
  const R = X.data.length / C;
  const mask = o.mask === undefined ? null : toMask(o.mask, 'mask', [X.shape, [C]]);
  return withArena('softmax', (x, ar) => {
    const px = ar.f32(X.data, 'x');
    const pm = mask ? ar.u8(mask.data, 'mask') : 0;
    const stride = mask && mask.data.length === X.data.length ? C : 0;
    check(x, x.al_softmax(px, px, pm, stride, R, C), 'softmax');
    return { data: ar.read(px, X.data.length), shape: X.shape };
  });
}

const ACTIVATIONS = { tanh: 0, sigmoid: 1, relu: 2, gelu: 3 };

export const tanh = activation('tanh');
export const sigmoid = activation('sigmoid');
export const relu = activation('relu');
export const gelu = activation('gelu');

function activation(name) {
  return (input) => {
    const X = toTensor(input, 'x');
    return withArena(name, (x, ar) => {
      const p = ar.f32(X.data, 'x');
      check(x, x.al_activate(p, p, X.data.length, ACTIVATIONS[name]), name);
      return { data: ar.read(p, X.data.length), shape: X.shape };
    });
  };
}

export function layerNorm(input, options) {
  const o = checkOptions(options, 'layerNorm', ['weight', 'bias', 'eps']);
  const X = toTensor(input, 'x');
  if (X.shape.length === 0)
    throw new AttnlabError(
      'layerNorm: x has rank 0; it needs a last axis to normalise over',
      'AL_ERR_SHAPE',
    );
  const C = X.shape[X.shape.length - 1];
  const R = X.data.length / C;
  const W = o.weight === undefined ? null : toTensor(o.weight, 'weight', [1]);
  const Bt = o.bias === undefined ? null : toTensor(o.bias, 'bias', [1]);
  if (W && W.shape[0] !== C)
    throw new AttnlabError(
      `layerNorm: x has ${C} features but weight has ${W.shape[0]}`,
      'AL_ERR_SHAPE',
    );
  if (Bt && Bt.shape[0] !== C)
    throw new AttnlabError(
      `layerNorm: x has ${C} features but bias has ${Bt.shape[0]}`,
      'AL_ERR_SHAPE',
    );
  const eps = f32Option('layerNorm', 'eps', o.eps ?? 1e-5, { positive: true });
  return withArena('layerNorm', (x, ar) => {
    const px = ar.f32(X.data, 'x');
    const pw = W ? ar.f32(W.data, 'weight') : 0;
    const pb = Bt ? ar.f32(Bt.data, 'bias') : 0;
    check(x, x.al_layernorm(px, px, pw, pb, R, C, eps), 'layerNorm');
    return { data: ar.read(px, X.data.length), shape: X.shape };
  });
}

export function embedding(ids, weight) {
  const W = toTensor(weight, 'weight', [2]);
  const [V, C] = W.shape;
  if (!(ids instanceof Int32Array) && !Array.isArray(ids)) {
    throw new AttnlabError('embedding: ids must be an Int32Array or an array of integers');
  }
  if (ids.length === 0) throw new AttnlabError('embedding: ids is empty', 'AL_ERR_SHAPE');
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (!Number.isInteger(id) || id < 0 || id >= V) {
      throw new AttnlabError(
        `embedding: ids[${i}] = ${show(id)} is outside the vocabulary [0, ${V})`,
        'AL_ERR_RANGE',
      );
    }
  }
  const N = ids.length;
  return withArena('embedding', (x, ar) => {
    const pi = ar.i32(ids instanceof Int32Array ? ids : Int32Array.from(ids), 'ids');
    const pw = ar.f32(W.data, 'weight');
    const po = ar.alloc(N * C * 4, 'the result');
    check(x, x.al_embedding(po, pi, N, pw, V, C, 0), 'embedding');
    return { data: ar.read(po, N * C), shape: [N, C] };
  });
}
