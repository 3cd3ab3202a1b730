// Shared by the hostile-input suites (hostile-api.test.js, hostile-memory.test.js): a table of
// valid example arguments for every op in `ops` (built from docs/*.md and wasm/ops/*.d.ts), the
// walkers that find every float tensor in an argument list, and the error oracle: every failure
// must be an AttnlabError with a C status name as its code and a message naming the culprit, after
// which the module still gives a known answer and liveAllocations() is back at its baseline.
//
// What this file deliberately does not do: check the maths (the per-family suites do that against
// double references and PyTorch fixtures). It only checks that hostile input is refused cleanly.
//
// A new op fails the "every op has an entry" test until it is added to OP_TABLE below.

import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';

import { ops, AttnlabError } from '../../wasm/index.js';

export const INDEX_URL = new URL('../../wasm/index.js', import.meta.url).href;
export const HELPERS_URL = import.meta.url;

/** The C status names (src/attnlab.h) an AttnlabError may carry; AL_OK never. */
export const STATUS_CODES = [
  'AL_ERR_ARGUMENT',
  'AL_ERR_SHAPE',
  'AL_ERR_RANGE',
  'AL_ERR_NONFINITE',
  'AL_ERR_NOMEM',
  'AL_ERR_FORMAT',
  'AL_ERR_UNSUPPORTED',
  'AL_ERR_OVERFLOW',
];

// ------------------------------------------------------------------ tensors

/** Deterministic floats in [lo, hi) as a { data, shape } tensor (xorshift32). */
export function T(shape, seed = 1, lo = -1, hi = 1) {
  let s = (seed * 2654435761) >>> 0 || 1;
  const n = shape.reduce((a, b) => a * b, 1);
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    data[i] = lo + (hi - lo) * (s / 4294967296);
  }
  return { data, shape: shape.slice() };
}

export const isTensor = (v) =>
  v !== null && typeof v === 'object' && v.data instanceof Float32Array && Array.isArray(v.shape);
export const size = (shape) => shape.reduce((a, b) => a * b, 1);

/** Every float tensor in an argument list: [{ path: [argIndex, key?], name }]. */
export function tensorPaths(entry, args) {
  const found = [];
  args.forEach((a, i) => {
    const role = entry.argNames[i];
    if (isTensor(a)) found.push({ path: [i], name: role });
    else if (a && typeof a === 'object' && !Array.isArray(a)) {
      for (const [k, v] of Object.entries(a)) {
        if (!isTensor(v)) continue;
        const name = role === 'params' ? `params.${k}` : role === 'upstream' ? `upstream.${k}` : k;
        found.push({ path: [i, k], name });
      }
    }
  });
  return found;
}

export function getPath(args, path) {
  return path.length === 1 ? args[path[0]] : args[path[0]][path[1]];
}

export function setPath(args, path, value) {
  if (path.length === 1) args[path[0]] = value;
  else args[path[0]] = { ...args[path[0]], [path[1]]: value };
}

/** The regex that finds `name` as a whole word in a message ('x' not in 'max', 'params.b' not in 'params.bias'). */
export function nameRe(name) {
  return new RegExp(`(?<![\\w])(${nameAlternatives(name).join('|')})(?![\\w])`);
}

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A tensor's name as a regex source: params.k is also written params['k'] (dotted state-dict keys). */
export function nameAlternatives(name) {
  const m = /^(params|upstream)\.(.+?)(\.data|\.shape)?$/.exec(name);
  if (!m) return [esc(name)];
  return [esc(name), `${m[1]}\\[['"]${esc(m[2])}['"]\\]${m[3] ? esc(m[3]) : ''}`];
}

// ------------------------------------------------------------------ the op table
//
// Per op: argNames (the role of each positional argument: 'params', 'options' and 'upstream' name
// their tensors params.k, k and upstream.k), make() (fresh valid arguments), free (the
// 'tensor:dim' pairs where a size one off is still valid, e.g. the query length of SDPA; '+rank'
// / '-rank' for a trailing 1 appended or the first dimension dropped), optIndex (where the
// options object goes), mask (the mask option and its per-row length n), numeric (number options
// with their valid value), booleans (flag options), check(result) for fully masked rows, weights
// (the result's attention weights), and backward with its own make().

const mha = () => ({
  in_proj_weight: T([12, 4], 31, -0.5, 0.5),
  in_proj_bias: T([12], 32),
  'out_proj.weight': T([4, 4], 33),
  'out_proj.bias': T([4], 34),
});
const relP = () => ({
  W_Q: T([4, 4], 41),
  W_K: T([4, 4], 42),
  W_V: T([4, 4], 43),
  rel_K: T([3, 2], 44),
  rel_V: T([3, 2], 45),
});
const rnnP = (G) => ({
  weight_ih_l0: T([4 * G, 2], 51, -0.4, 0.4),
  weight_hh_l0: T([4 * G, 4], 52, -0.4, 0.4),
  bias_ih_l0: T([4 * G], 53),
  bias_hh_l0: T([4 * G], 54),
});
const sarnnP = () => ({
  A: T([4, 6], 61, -0.5, 0.5),
  b: T([4], 62),
  W_h: T([3, 4], 63),
  W_s: T([3, 4], 64),
  v: T([3], 65),
});
const lstmnP = () => ({
  W_h: T([4, 4], 71, -0.5, 0.5),
  W_x: T([4, 2], 72),
  W_ht: T([4, 4], 73),
  v: T([4], 74),
  W: T([16, 6], 75, -0.5, 0.5),
  b: T([16], 76),
});

const zeroAll =
  (...names) =>
  (r) => {
    for (const n of names) {
      const v = r[n];
      const data = typeof v === 'number' ? [v] : ArrayBuffer.isView(v) ? v : v.data;
      assert.ok(
        data.every((x) => x === 0),
        `${n} must be all zeros for a fully masked row, got ${Array.from(data).slice(0, 8)}`,
      );
    }
  };

const elementwise = {
  argNames: ['x'],
  make: () => [T([2, 3], 1, -3, 3)],
  free: ['x:0', 'x:1', 'x:+rank', 'x:-rank'],
};

export const OP_TABLE = {
  matmul: {
    argNames: ['a', 'b', 'options'],
    optIndex: 2,
    booleans: ['transposeA', 'transposeB'],
    make: () => [T([2, 3], 1), T([3, 4], 2), { transposeA: false, transposeB: false }],
    free: ['a:0', 'b:1'],
  },
  matvec: { argNames: ['a', 'x'], make: () => [T([2, 3], 1), T([3], 2)], free: ['a:0'] },
  softmax: {
    argNames: ['x', 'options'],
    optIndex: 1,
    make: () => [T([2, 3], 1, -3, 3), {}],
    free: ['x:0', 'x:1', 'x:+rank', 'x:-rank'],
    mask: { option: 'mask', n: 3 },
    check: zeroAll('data'),
    weights: (r) => r,
  },
  tanh: elementwise,
  sigmoid: elementwise,
  relu: elementwise,
  gelu: elementwise,
  layerNorm: {
    argNames: ['x', 'options'],
    optIndex: 1,
    make: () => [T([2, 3], 1, -3, 3), { weight: T([3], 2), bias: T([3], 3), eps: 1e-5 }],
    free: ['x:0', 'x:-rank'],
    numeric: { eps: 1e-5 },
  },
  embedding: {
    argNames: ['ids', 'weight'],
    make: () => [[1, 0, 2], T([4, 3], 2)],
    free: ['weight:0', 'weight:1'],
  },
  scaledDotProductAttention: {
    argNames: ['query', 'key', 'value', 'options'],
    optIndex: 3,
    make: () => [
      T([2, 3, 4], 1),
      T([2, 5, 4], 2),
      T([2, 5, 3], 3),
      { scale: 0.5, returnWeights: true },
    ],
    free: ['query:1', 'value:2'],
    numeric: { scale: 0.5 },
    booleans: ['causal', 'returnWeights'],
    causal: true,
    mask: { option: 'keyPaddingMask', n: 5 },
    check: zeroAll('output', 'weights'),
    weights: (r) => r.weights,
    backward: {
      argNames: ['query', 'key', 'value', 'options', 'upstream'],
      optIndex: 3,
      make: () => [
        T([2, 3, 4], 1),
        T([2, 5, 4], 2),
        T([2, 5, 3], 3),
        { scale: 0.5 },
        { output: T([2, 3, 3], 4), weights: T([2, 3, 5], 5) },
      ],
    },
  },
  additiveAttention: {
    argNames: ['query', 'keys', 'params', 'options'],
    optIndex: 3,
    make: () => [
      T([3], 1),
      T([4, 2], 2),
      { W_q: T([5, 3], 3), W_k: T([5, 2], 4), bias: T([5], 5), v: T([5], 6) },
      { values: T([4, 3], 7) },
    ],
    free: ['values:1'],
    mask: { option: 'keyPaddingMask', n: 4 },
    check: zeroAll('context', 'weights'),
    weights: (r) => r.weights,
    backward: {
      argNames: ['query', 'keys', 'params', 'options', 'upstream'],
      optIndex: 3,
      make: () => [
        T([3], 1),
        T([4, 2], 2),
        { W_q: T([5, 3], 3), W_k: T([5, 2], 4), bias: T([5], 5), v: T([5], 6) },
        { values: T([4, 3], 7) },
        { context: T([3], 8), weights: T([4], 9) },
      ],
    },
  },
  luongAttention: {
    argNames: ['query', 'keys', 'params', 'options'],
    optIndex: 3,
    make: () => [
      T([3], 1),
      T([4, 3], 2),
      { W_a: T([3, 3], 3), W_c: T([3, 6], 4) },
      { score: 'general' },
    ],
    free: ['keys:0'],
    mask: { option: 'keyPaddingMask', n: 4 },
    check: zeroAll('context', 'weights'),
    weights: (r) => r.weights,
    backward: {
      argNames: ['query', 'keys', 'params', 'options', 'upstream'],
      optIndex: 3,
      make: () => [
        T([3], 1),
        T([4, 3], 2),
        { W_a: T([3, 3], 3), W_c: T([3, 6], 4) },
        { score: 'general' },
        { context: T([3], 5), weights: T([4], 6), attentionalHidden: T([3], 7) },
      ],
    },
  },
  luongLocalAttention: {
    argNames: ['query', 'keys', 'params', 'options'],
    optIndex: 3,
    make: () => [
      T([3], 1),
      T([4, 3], 2),
      { W_c: T([3, 6], 4), W_p: T([2, 3], 5), v_p: T([2], 6) },
      { window: 2, position: 'predictive' },
    ],
    free: ['keys:0'],
    numeric: { window: 2 },
    mask: { option: 'keyPaddingMask', n: 4 },
    check: zeroAll('context', 'weights'),
    weights: (r) => r.weights,
    localWeights: true,
    backward: {
      argNames: ['query', 'keys', 'params', 'options', 'upstream'],
      optIndex: 3,
      make: () => [
        T([3], 1),
        T([4, 3], 2),
        { W_c: T([3, 6], 4), W_p: T([2, 3], 5), v_p: T([2], 6) },
        { window: 2, position: 'predictive' },
        { context: T([3], 7), weights: T([4], 8), attentionalHidden: T([3], 9), position: 0.5 },
      ],
    },
  },
  keyQueryAttention: {
    argNames: ['query', 'keys', 'params', 'options'],
    optIndex: 3,
    make: () => [
      T([3], 1),
      T([4, 2], 2),
      { W_Q: T([5, 3], 3), W_K: T([5, 2], 4), W_V: T([6, 2], 5) },
      { scaled: true },
    ],
    free: ['keys:0', 'params.W_V:0'],
    booleans: ['scaled'],
    mask: { option: 'keyPaddingMask', n: 4 },
    check: zeroAll('context', 'weights'),
    weights: (r) => r.weights,
    backward: {
      argNames: ['query', 'keys', 'params', 'options', 'upstream'],
      optIndex: 3,
      make: () => [
        T([3], 1),
        T([4, 2], 2),
        { W_Q: T([5, 3], 3), W_K: T([5, 2], 4), W_V: T([6, 2], 5) },
        { scaled: true },
        { context: T([6], 6), weights: T([4], 7) },
      ],
    },
  },
  multiHeadAttention: {
    argNames: ['query', 'key', 'value', 'params', 'options'],
    optIndex: 4,
    make: () => [T([3, 4], 1), T([5, 4], 2), T([5, 4], 3), mha(), { numHeads: 2 }],
    free: ['query:0'],
    numeric: { numHeads: 2 },
    booleans: ['causal', 'needWeights'],
    causal: true,
    mask: { option: 'keyPaddingMask', n: 5 },
    weights: (r) => r.weights,
    check: (r, args) => {
      zeroAll('weights')(r);
      const bias = args[3]['out_proj.bias'].data;
      r.output.data.forEach((v, i) =>
        assert.ok(
          Math.abs(v - bias[i % 4]) < 1e-6,
          `output[${i}] = ${v} must be out_proj.bias = ${bias[i % 4]}`,
        ),
      );
    },
    backward: {
      argNames: ['query', 'key', 'value', 'params', 'options', 'upstream'],
      optIndex: 4,
      make: () => [
        T([3, 4], 1),
        T([5, 4], 2),
        T([5, 4], 3),
        mha(),
        { numHeads: 2 },
        { output: T([3, 4], 4), weights: T([2, 3, 5], 5) },
      ],
    },
  },
  relativePositionAttention: {
    argNames: ['x', 'params', 'options'],
    optIndex: 2,
    make: () => [T([3, 4], 1), relP(), { numHeads: 2 }],
    free: ['x:0'],
    numeric: { numHeads: 2, maxRelativePosition: 1 },
    booleans: ['causal'],
    causal: true,
    mask: { option: 'keyPaddingMask', n: 3 },
    check: zeroAll('output', 'weights'),
    weights: (r) => r.weights,
    backward: {
      argNames: ['x', 'params', 'options', 'upstream'],
      optIndex: 2,
      make: () => [
        T([3, 4], 1),
        relP(),
        { numHeads: 2 },
        { output: T([3, 4], 4), weights: T([2, 3, 3], 5) },
      ],
    },
  },
  attentionPooling: {
    argNames: ['H', 'params', 'options'],
    optIndex: 2,
    make: () => [T([4, 3], 1), { w: T([3], 2) }, {}],
    free: ['H:0'],
    mask: { option: 'mask', n: 4 },
    check: zeroAll('r', 'hStar', 'weights'),
    weights: (r) => r.weights,
    backward: {
      argNames: ['H', 'params', 'options', 'upstream'],
      optIndex: 2,
      make: () => [
        T([4, 3], 1),
        { w: T([3], 2) },
        {},
        { r: T([3], 3), hStar: T([3], 4), weights: T([4], 5) },
      ],
    },
  },
  contextPooling: {
    argNames: ['H', 'params', 'options'],
    optIndex: 2,
    make: () => [T([4, 3], 1), { W: T([2, 3], 2), b: T([2], 3), u: T([2], 4) }, {}],
    free: ['H:0'],
    mask: { option: 'mask', n: 4 },
    check: zeroAll('s', 'weights'),
    weights: (r) => r.weights,
    backward: {
      argNames: ['H', 'params', 'options', 'upstream'],
      optIndex: 2,
      make: () => [
        T([4, 3], 1),
        { W: T([2, 3], 2), b: T([2], 3), u: T([2], 4) },
        {},
        { s: T([3], 5), weights: T([4], 6) },
      ],
    },
  },
  structuredSelfAttention: {
    argNames: ['H', 'params', 'options'],
    optIndex: 2,
    make: () => [T([4, 3], 1), { W_s1: T([2, 3], 2), W_s2: T([5, 2], 3) }, {}],
    free: ['H:0', 'params.W_s2:0'],
    mask: { option: 'mask', n: 4 },
    weights: (r) => r.weights,
    check: (r) => {
      zeroAll('M', 'weights')(r);
      assert.equal(r.penalty, 5, 'the penalty of a fully masked sequence is r (docs/pooling.md)');
    },
    backward: {
      argNames: ['H', 'params', 'options', 'upstream'],
      optIndex: 2,
      make: () => [
        T([4, 3], 1),
        { W_s1: T([2, 3], 2), W_s2: T([5, 2], 3) },
        {},
        { M: T([5, 3], 4), weights: T([5, 4], 5), penalty: 1 },
      ],
    },
  },
  rnn: {
    argNames: ['x', 'params', 'options'],
    optIndex: 2,
    make: () => [T([3, 2], 1), rnnP(1), { h0: T([1, 4], 9) }],
    free: ['x:0'],
    numeric: { numLayers: 1 },
    booleans: ['bidirectional', 'batchFirst'],
    backward: {
      argNames: ['x', 'params', 'options', 'upstream'],
      optIndex: 2,
      make: () => [
        T([3, 2], 1),
        rnnP(1),
        { h0: T([1, 4], 9) },
        { output: T([3, 4], 10), hN: T([1, 4], 11) },
      ],
    },
  },
  lstm: {
    argNames: ['x', 'params', 'options'],
    optIndex: 2,
    make: () => [T([3, 2], 1), rnnP(4), { h0: T([1, 4], 9), c0: T([1, 4], 8) }],
    free: ['x:0'],
    numeric: { numLayers: 1 },
    booleans: ['bidirectional', 'batchFirst'],
    backward: {
      argNames: ['x', 'params', 'options', 'upstream'],
      optIndex: 2,
      make: () => [
        T([3, 2], 1),
        rnnP(4),
        { h0: T([1, 4], 9), c0: T([1, 4], 8) },
        { output: T([3, 4], 10), hN: T([1, 4], 11), cN: T([1, 4], 12) },
      ],
    },
  },
  gru: {
    argNames: ['x', 'params', 'options'],
    optIndex: 2,
    make: () => [T([3, 2], 1), rnnP(3), { h0: T([1, 4], 9) }],
    free: ['x:0'],
    numeric: { numLayers: 1 },
    booleans: ['bidirectional', 'batchFirst'],
    backward: {
      argNames: ['x', 'params', 'options', 'upstream'],
      optIndex: 2,
      make: () => [
        T([3, 2], 1),
        rnnP(3),
        { h0: T([1, 4], 9) },
        { output: T([3, 4], 10), hN: T([1, 4], 11) },
      ],
    },
  },
  selfAttentionRNN: {
    argNames: ['x', 'params', 'options'],
    optIndex: 2,
    make: () => [T([3, 2], 1), sarnnP(), { align: 'additive' }],
    free: ['x:0'],
    weights: (r) => r.weights,
    causalWeights: true,
    backward: {
      argNames: ['x', 'params', 'options', 'upstream'],
      optIndex: 2,
      make: () => [
        T([3, 2], 1),
        sarnnP(),
        { align: 'additive' },
        { h: T([3, 4], 10), weights: T([3, 3], 11) },
      ],
    },
  },
  lstmn: {
    argNames: ['x', 'params', 'options'],
    optIndex: 2,
    make: () => [T([3, 2], 1), lstmnP(), {}],
    free: ['x:0'],
    weights: (r) => r.weights,
    causalWeights: true,
    firstRowZero: true,
    backward: {
      argNames: ['x', 'params', 'options', 'upstream'],
      optIndex: 2,
      make: () => [
        T([3, 2], 1),
        lstmnP(),
        {},
        { h: T([3, 4], 10), c: T([3, 4], 11), weights: T([3, 3], 12) },
      ],
    },
  },
};

const layerP = (dec) => {
  const p = {
    'self_attn.in_proj_weight': T([12, 4], 81, -0.5, 0.5),
    'self_attn.in_proj_bias': T([12], 82),
    'self_attn.out_proj.weight': T([4, 4], 83, -0.5, 0.5),
    'self_attn.out_proj.bias': T([4], 84),
    'linear1.weight': T([6, 4], 85, -0.5, 0.5),
    'linear1.bias': T([6], 86),
    'linear2.weight': T([4, 6], 87, -0.5, 0.5),
    'linear2.bias': T([4], 88),
    'norm1.weight': T([4], 89, 0.5, 1.5),
    'norm1.bias': T([4], 90),
    'norm2.weight': T([4], 91, 0.5, 1.5),
    'norm2.bias': T([4], 92),
  };
  if (dec) {
    Object.assign(p, {
      'multihead_attn.in_proj_weight': T([12, 4], 93, -0.5, 0.5),
      'multihead_attn.in_proj_bias': T([12], 94),
      'multihead_attn.out_proj.weight': T([4, 4], 95, -0.5, 0.5),
      'multihead_attn.out_proj.bias': T([4], 96),
      'norm3.weight': T([4], 97, 0.5, 1.5),
      'norm3.bias': T([4], 98),
    });
  }
  return p;
};

OP_TABLE.transformerEncoderLayer = {
  argNames: ['x', 'params', 'options'],
  optIndex: 2,
  make: () => [T([3, 4], 1), layerP(false), { nhead: 2 }],
  free: ['x:0'],
  numeric: { nhead: 2, layerNormEps: 1e-5 },
  booleans: ['normFirst', 'causal'],
  causal: true,
  mask: { option: 'keyPaddingMask', n: 3 },
  weights: (r) => r.weights,
  check: zeroAll('weights'),
  backward: {
    argNames: ['x', 'params', 'options', 'upstream'],
    optIndex: 2,
    make: () => [
      T([3, 4], 1),
      layerP(false),
      { nhead: 2 },
      { output: T([3, 4], 10), weights: T([2, 3, 3], 11) },
    ],
  },
};
OP_TABLE.transformerDecoderLayer = {
  argNames: ['x', 'memory', 'params', 'options'],
  optIndex: 3,
  make: () => [T([3, 4], 1), T([5, 4], 2), layerP(true), { nhead: 2 }],
  free: ['x:0', 'memory:0'],
  numeric: { nhead: 2, layerNormEps: 1e-5 },
  booleans: ['normFirst', 'causal'],
  mask: { option: 'memoryKeyPaddingMask', n: 5 },
  weights: (r) => r.crossWeights,
  check: zeroAll('crossWeights'),
  backward: {
    argNames: ['x', 'memory', 'params', 'options', 'upstream'],
    optIndex: 3,
    make: () => [
      T([3, 4], 1),
      T([5, 4], 2),
      layerP(true),
      { nhead: 2 },
      { output: T([3, 4], 10), selfWeights: T([2, 3, 3], 11), crossWeights: T([2, 3, 5], 12) },
    ],
  },
};

/** Extra callables hanging off ops (besides .backward), with valid example arguments. */
export const EXTRA_FNS = {
  'relativePositionAttention.distances': {
    fn: () => ops.relativePositionAttention.distances,
    make: () => [3, 1],
  },
};

/** [{ label, fn, entry }] for every op and every .backward in `ops`. */
export function allCallables() {
  const out = [];
  for (const name of Object.keys(ops)) {
    const entry = OP_TABLE[name];
    if (!entry) continue;
    out.push({ label: name, fn: ops[name], entry, op: name });
    if (typeof ops[name].backward === 'function' && entry.backward) {
      const b = entry.backward;
      out.push({
        label: `${name}.backward`,
        fn: ops[name].backward,
        entry: { free: [], ...b },
        op: name,
        backward: true,
      });
    }
  }
  return out;
}

// ------------------------------------------------------------------ the error oracle

/** The known answer run after every error: softmax([0, 0]) = [0.5, 0.5], SDPA of one query. */
export function knownAnswer() {
  const r = ops.softmax([0, 0]);
  assert.deepEqual(Array.from(r.data), [0.5, 0.5], 'the module still works after the error');
  const s = ops.scaledDotProductAttention(
    [[1, 0]],
    [
      [1, 0],
      [0, 1],
    ],
    [
      [1, 2],
      [3, 4],
    ],
    { scale: 1 },
  );
  const w = Math.E / (1 + Math.E);
  const want = [w + 3 * (1 - w), 2 * w + 4 * (1 - w)];
  assert.ok(
    Math.abs(s.output.data[0] - want[0]) < 1e-6 && Math.abs(s.output.data[1] - want[1]) < 1e-6,
    `SDPA known answer after the error: ${Array.from(s.output.data)} vs ${want}`,
  );
}

/** What a call did: { error } or { result }; never throws. */
export function attempt(fn) {
  try {
    return { result: fn() };
  } catch (error) {
    return { error };
  }
}

/**
 * fn must throw an AttnlabError with a status-name code (one of `codes` when given) and a message
 * matching every regex/name in `names`; then the module must still work and hold `baseline`
 * allocations.
 */
export function expectAlError(lib, fn, { codes, names = [], label = '' } = {}) {
  const baseline = lib.liveAllocations();
  const { error, result } = attempt(fn);
  assert.ok(
    error !== undefined,
    `${label}: expected an AttnlabError, but the call returned ${describe(result)}`,
  );
  assert.ok(
    error instanceof AttnlabError,
    `${label}: expected an AttnlabError, got ${error?.constructor?.name}: ${error?.message}`,
  );
  assert.ok(
    typeof error.code === 'string' && STATUS_CODES.includes(error.code),
    `${label}: code ${error.code} is not a C status name`,
  );
  if (codes)
    assert.ok(
      codes.includes(error.code),
      `${label}: code ${error.code}, expected ${codes.join(' or ')} (${error.message})`,
    );
  assert.ok(
    typeof error.message === 'string' && error.message.length > 0,
    `${label}: empty message`,
  );
  for (const n of names) {
    const re = typeof n === 'string' ? nameRe(n) : n;
    assert.match(error.message, re, `${label}: the message must name ${n}: "${error.message}"`);
  }
  assert.equal(
    lib.liveAllocations(),
    baseline,
    `${label}: liveAllocations() back to its baseline after the error`,
  );
  knownAnswer();
  assert.equal(lib.liveAllocations(), baseline);
  return error;
}

/** Either a result whose every number is finite, or an AttnlabError as expectAlError checks. */
export function expectFiniteOrAlError(lib, fn, { names = [], label = '' } = {}) {
  const baseline = lib.liveAllocations();
  const { error, result } = attempt(fn);
  if (error === undefined) {
    assertAllFinite(result, label);
    assert.equal(lib.liveAllocations(), baseline);
    return { result };
  }
  expectAlError(
    lib,
    () => {
      throw error;
    },
    { names, label },
  );
  return { error };
}

/**
 * Run every check, collecting failures, then fail once listing them all (so one report shows
 * every hostile input an op mishandles, not only the first).
 */
export function collect(fn) {
  const failures = [];
  const check = (label, f) => {
    try {
      f();
    } catch (e) {
      failures.push(`${label}: ${e?.message ?? e}`.split('\n')[0].slice(0, 400));
    }
  };
  fn(check);
  assert.ok(
    failures.length === 0,
    `${failures.length} failure(s):\n  ${failures.slice(0, 25).join('\n  ')}${failures.length > 25 ? `\n  ... and ${failures.length - 25} more` : ''}`,
  );
}

export function describe(v) {
  try {
    return JSON.stringify(v, (k, x) => (ArrayBuffer.isView(x) ? Array.from(x) : x)).slice(0, 200);
  } catch {
    return String(v);
  }
}

/** Every number reachable in a result (tensors, numbers, arrays, nested objects). */
export function numbersOf(v, out = []) {
  if (typeof v === 'number') out.push(v);
  else if (ArrayBuffer.isView(v)) for (const x of v) out.push(Number(x));
  else if (Array.isArray(v)) for (const x of v) numbersOf(x, out);
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) if (k !== 'shape') numbersOf(x, out);
  return out;
}

export function assertAllFinite(result, label = '') {
  const nums = numbersOf(result);
  const bad = nums.findIndex((x) => !Number.isFinite(x));
  assert.ok(
    bad < 0,
    `${label}: result holds ${nums[bad]} at flat position ${bad} of ${nums.length}: ${describe(result)}`,
  );
}

// ------------------------------------------------------------------ safetensors bytes

/** A safetensors file from { name: { dtype, shape, bytes } } (a header padded to 8 bytes). */
export function safetensorsBytes(tensors, metadata) {
  const header = {};
  if (metadata) header.__metadata__ = metadata;
  let off = 0;
  const parts = [];
  for (const [name, t] of Object.entries(tensors)) {
    header[name] = {
      dtype: t.dtype,
      shape: t.shape,
      data_offsets: t.offsets ?? [off, off + t.bytes.length],
    };
    off += t.bytes.length;
    parts.push(t.bytes);
  }
  let json = JSON.stringify(header);
  while ((8 + json.length) % 8) json += ' ';
  const h = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + h.length + off);
  new DataView(out.buffer).setBigUint64(0, BigInt(h.length), true);
  out.set(h, 8);
  let p = 8 + h.length;
  for (const b of parts) {
    out.set(b, p);
    p += b.length;
  }
  return out;
}

export const f32Bytes = (arr) => new Uint8Array(Float32Array.from(arr).buffer);

/** A small valid file: two F32 tensors and a metadata entry. */
export function validSafetensors() {
  return safetensorsBytes(
    {
      'enc.weight': { dtype: 'F32', shape: [2, 3], bytes: f32Bytes([1, 2, 3, 4, 5, 6]) },
      'enc.bias': { dtype: 'F32', shape: [3], bytes: f32Bytes([0.5, -0.5, 0]) },
    },
    { config: '{"layers":1}' },
  );
}

// ------------------------------------------------------------------ child processes

/**
 * Run an ES module body in a fresh Node process (init() is once per process) with `al` (the
 * package) and `h` (this file) imported; `out(x)` writes the JSON answer. Returns
 * { status, signal, json, stderr, timedOut }.
 */
export function runChild(body, { timeout = 20000, nodeArgs = [] } = {}) {
  const src =
    `import * as al from ${JSON.stringify(INDEX_URL)};\nimport * as h from ${JSON.stringify(HELPERS_URL)};\n` +
    `const out = (x) => process.stdout.write(JSON.stringify(x));\n${body}`;
  try {
    const stdout = execFileSync(process.execPath, [...nodeArgs, '--input-type=module', '-e', src], {
      encoding: 'utf8',
      timeout,
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { status: 0, json: JSON.parse(stdout) };
  } catch (e) {
    return {
      status: e.status,
      signal: e.signal,
      stderr: String(e.stderr ?? '').slice(-2000),
      timedOut: e.code === 'ETIMEDOUT' || e.signal === 'SIGTERM',
    };
  }
}

/** runChild, without blocking: resolves to the same { status, signal, json, stderr, timedOut }. */
export function runChildAsync(body, { timeout = 20000, nodeArgs = [] } = {}) {
  const src =
    `import * as al from ${JSON.stringify(INDEX_URL)};\nimport * as h from ${JSON.stringify(HELPERS_URL)};\n` +
    `const out = (x) => process.stdout.write(JSON.stringify(x));\n${body}`;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...nodeArgs, '--input-type=module', '-e', src],
      { encoding: 'utf8', timeout, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) {
          resolve({
            status: err.code,
            signal: err.signal,
            stderr: String(stderr ?? '').slice(-2000),
            timedOut: err.killed === true,
          });
          return;
        }
        try {
          resolve({ status: 0, json: JSON.parse(stdout) });
        } catch {
          resolve({
            status: 'bad output',
            stderr: `stdout: ${String(stdout).slice(0, 500)} stderr: ${String(stderr).slice(-1500)}`,
          });
        }
      },
    );
  });
}

// ------------------------------------------------------------------ the mixed workload

/** One call of every op and every backward with the table's arguments (for the long runs). */
export function everyCall() {
  const calls = [];
  for (const c of allCallables()) {
    const args = c.entry.make();
    calls.push({ label: c.label, run: () => c.fn(...args) });
  }
  for (const [label, e] of Object.entries(EXTRA_FNS)) {
    const args = e.make();
    calls.push({ label, run: () => e.fn()(...args) });
  }
  return calls;
}

/**
 * The essential subset, also run against the scalar build in a child process: fully masked rows,
 * large finite inputs, a sweep of refused inputs with the allocation count, a mixed long run, and
 * NOMEM recovery. Returns [{ name, ok, detail }].
 */
export function essentials(lib, { calls = 20000 } = {}) {
  const results = [];
  const record = (name, fn) => {
    try {
      fn();
      results.push({ name, ok: true });
    } catch (e) {
      results.push({
        name,
        ok: false,
        detail: `${e?.constructor?.name}: ${e?.message}`.slice(0, 600),
      });
    }
  };
  for (const c of allCallables()) {
    const { entry } = c;
    if (!c.backward && entry.mask) {
      record(`${c.label}: a fully masked row gives zeros`, () => {
        const args = entry.make();
        const o = {
          ...(args[entry.optIndex] ?? {}),
          [entry.mask.option]: new Array(entry.mask.n).fill(true),
        };
        args[entry.optIndex] = o;
        const r = c.fn(...args);
        assertAllFinite(r, c.label);
        entry.check(r, args);
      });
    }
    record(`${c.label}: NaN in each float input is refused and nothing leaks`, () => {
      const base = c.entry.make();
      for (const { path, name } of tensorPaths(c.entry, base)) {
        const args = c.entry.make();
        const t = getPath(args, path);
        const data = t.data.slice();
        data[data.length - 1] = NaN;
        setPath(args, path, { data, shape: t.shape });
        expectAlError(lib, () => c.fn(...args), {
          codes: ['AL_ERR_NONFINITE'],
          names: [name],
          label: `${c.label} ${name}`,
        });
      }
    });
  }
  record('softmax: rows near ±1e30 and ±3e38 are finite and sum to 1', () => {
    for (const big of [1e30, 3e38]) {
      const r = ops.softmax([
        [big, -big, 0, big / 2],
        [-big, -big, -big, -big],
      ]);
      assertAllFinite(r, 'softmax');
      for (let i = 0; i < 2; i++) {
        const s = r.data.subarray(i * 4, i * 4 + 4).reduce((a, b) => a + b, 0);
        assert.ok(Math.abs(s - 1) < 1e-5, `row ${i} sums to ${s}`);
      }
    }
  });
  record(
    'scaledDotProductAttention: query and key near ±1e30 give finite weights or a named overflow, never NaN',
    () => {
      const q = T([3, 4], 1);
      const big = { data: q.data.map((v) => Math.sign(v) * 1e30), shape: q.shape };
      let r;
      try {
        r = ops.scaledDotProductAttention(big, big, q, { returnWeights: true });
      } catch (e) {
        // q·k = 4e60 leaves float32: a refusal that says so is the documented answer
        if (
          !(e instanceof AttnlabError) ||
          e.code !== 'AL_ERR_OVERFLOW' ||
          !/overflowed float32/.test(e.message)
        )
          throw e;
        return;
      }
      assertAllFinite(r, 'sdpa ±1e30');
    },
  );
  record(`${calls} mixed calls keep liveAllocations() and memoryBytes() at their baseline`, () => {
    const all = everyCall();
    for (const c of all) c.run();
    const mem = lib.memoryBytes();
    for (let i = 0; i < calls; i++) all[i % all.length].run();
    assert.equal(lib.liveAllocations(), 0);
    assert.equal(lib.memoryBytes(), mem);
  });
  record('an allocation wasm cannot satisfy is AL_ERR_NOMEM and the module keeps working', () => {
    const q = { data: new Float32Array(23170), shape: [23170, 1] };
    expectAlError(lib, () => ops.scaledDotProductAttention(q, q, q, { returnWeights: true }), {
      codes: ['AL_ERR_NOMEM'],
      names: ['weights'],
      label: 'sdpa NOMEM',
    });
    for (const c of everyCall()) c.run();
    assert.equal(lib.liveAllocations(), 0);
  });
  return results;
}
