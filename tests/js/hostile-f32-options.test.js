// Number options that reach C as float32 (issue "hostile callers", item 7): a value that is a fine
// double but not a float32 (1e39 → Infinity, 1e-46 → 0) must be refused in JS by an AttnlabError
// that names the option and the value, never reach C as "invalid argument" or, worse, as 0, which
// C reads as "the default" (SDPA's scale) or "off" (the trainer's clip). A tiny scale that float32
// can hold (1e-30) must still give the right answer. SIMD build; the checks are in the JS glue
// (wasm/options.js f32Option), before either build is called.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { init, ops, createModel, createTrainer, AttnlabError } from '../../wasm/index.js';
import { OP_TABLE } from './hostile-helpers.js';

const lib = await init();

/** fn throws an AttnlabError 'AL_ERR_ARGUMENT' whose message matches every pattern. */
function refused(fn, ...patterns) {
  const before = lib.liveAllocations();
  assert.throws(fn, (e) => {
    assert.ok(e instanceof AttnlabError, `not an AttnlabError: ${e}`);
    assert.equal(e.code, 'AL_ERR_ARGUMENT');
    for (const p of patterns) assert.match(e.message, p);
    return true;
  });
  assert.equal(lib.liveAllocations(), before);
}

const Q = [
  [0.5, -1, 0.25],
  [1, 0.5, -0.5],
];
const K = [
  [1, 0, 0.5],
  [-0.5, 1, 0],
  [0.25, 0.25, 1],
  [0, -1, 0.5],
];
const V = [
  [1, 2],
  [3, -4],
  [5, 6],
  [-7, 8],
];

/** softmax(Q Kᵀ · scale) V in doubles */
function sdpaRef(q, k, v, scale) {
  return q
    .map((qt) => {
      const e = k.map((ks) => scale * ks.reduce((a, x, d) => a + x * qt[d], 0));
      const m = Math.max(...e);
      const p = e.map((x) => Math.exp(x - m));
      const sum = p.reduce((a, b) => a + b, 0);
      return v[0].map((_, d) => p.reduce((a, w, s) => a + (w / sum) * v[s][d], 0));
    })
    .flat();
}

test('sdpa: a scale that is 0 or Infinity in float32 is refused, naming options.scale and the value', () => {
  for (const returnWeights of [false, true]) {
    refused(
      () => ops.scaledDotProductAttention(Q, K, V, { scale: 1e-46, returnWeights }),
      /options\.scale 1e-46 is 0 in float32/,
    );
    refused(
      () => ops.scaledDotProductAttention(Q, K, V, { scale: -1e-46, returnWeights }),
      /options\.scale -1e-46 is 0 in float32/,
    );
    refused(
      () => ops.scaledDotProductAttention(Q, K, V, { scale: 1e39, returnWeights }),
      /options\.scale 1e\+39 is Infinity in float32/,
    );
    refused(
      () => ops.scaledDotProductAttention(Q, K, V, { scale: -1e39, returnWeights }),
      /options\.scale -1e\+39 is -Infinity in float32/,
    );
  }
  refused(
    () =>
      ops.scaledDotProductAttention.backward(
        Q,
        K,
        V,
        { scale: 1e-46 },
        {
          output: [
            [1, 1],
            [1, 1],
          ],
        },
      ),
    /scaledDotProductAttention\.backward: options\.scale 1e-46 is 0 in float32/,
  );
});

test('sdpa: a tiny scale float32 holds (1e-30, 1e-44) is used, not replaced by the default', () => {
  for (const scale of [1e-30, 1e-44, 0.3]) {
    const want = sdpaRef(Q, K, V, Math.fround(scale));
    for (const returnWeights of [false, true]) {
      const got = ops.scaledDotProductAttention(Q, K, V, { scale, returnWeights }).output.data;
      for (let i = 0; i < want.length; i++)
        assert.ok(
          Math.abs(got[i] - want[i]) <= 1e-5 * (1 + Math.abs(want[i])),
          `scale ${scale} [${i}]: ${got[i]} vs ${want[i]}`,
        );
    }
  }
  // a scale of ~0 averages the values: column means 0.5 and 3 (the default 1/√3 would not)
  const flat = ops.scaledDotProductAttention(Q, K, V, { scale: 1e-30 }).output.data;
  assert.deepEqual(
    Array.from(flat, (x) => Math.round(x * 1e5) / 1e5),
    [0.5, 3, 0.5, 3],
  );
});

test('layerNorm and transformer layers: eps 1e-46 or 1e39 is refused, naming the option', () => {
  refused(
    () => ops.layerNorm([[1, 2, 3]], { eps: 1e-46 }),
    /layerNorm: options\.eps 1e-46 is 0 in float32/,
  );
  refused(
    () => ops.layerNorm([[1, 2, 3]], { eps: 1e39 }),
    /layerNorm: options\.eps 1e\+39 is Infinity in float32/,
  );
  // the smallest float32 eps still works: (x − mean) / √(var + eps) with var 2/3
  const y = ops.layerNorm([[1, 2, 3]], { eps: 1e-45 }).data;
  assert.ok(Math.abs(y[2] - Math.sqrt(1.5)) < 1e-5, `${y[2]}`);
  for (const op of ['transformerEncoderLayer', 'transformerDecoderLayer']) {
    const e = OP_TABLE[op];
    for (const [eps, why] of [
      [1e-46, /is 0 in float32/],
      [1e39, /is Infinity in float32/],
    ]) {
      const args = e.make();
      args[e.optIndex] = { ...args[e.optIndex], layerNormEps: eps };
      refused(() => ops[op](...args), new RegExp(`${op}: options\\.layerNormEps`), why);
    }
  }
});

test('luongLocalAttention: window and t that leave float32 are refused, naming the option', () => {
  const q = [1, 0, 0];
  const k = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
    [1, 1, 0],
  ];
  const L = {
    W_c: [
      [1, 0, 0, 0, 0, 0],
      [0, 1, 0, 0, 0, 0],
      [0, 0, 1, 0, 0, 0],
    ],
  };
  refused(
    () => ops.luongLocalAttention(q, k, L, { window: 1e39, t: 1 }),
    /options\.window \(D\) 1e\+39 is Infinity in float32/,
  );
  refused(
    () => ops.luongLocalAttention(q, k, L, { window: 2, t: 1e39 }),
    /options\.t 1e\+39 is Infinity in float32/,
  );
  refused(
    () => ops.luongLocalAttention(q, k, L, { window: 2, t: -1e39 }),
    /options\.t -1e\+39 is -Infinity in float32/,
  );
  refused(
    () => ops.luongLocalAttention(q, k, L, { window: 2, t: 1e-46 }),
    /options\.t 1e-46 is 0 in float32/,
  );
  // 0.01 itself (0.0099999998 in float32) is still accepted
  assert.equal(ops.luongLocalAttention(q, k, L, { window: 0.01, t: 1 }).weights.shape.length, 1);
});

test('createTrainer: lr, momentum, weightDecay and clip that leave float32 are refused by name', async () => {
  const model = await createModel(
    {
      architecture: 'classifier',
      cell: 'gru',
      embeddingSize: 4,
      hiddenSize: 4,
      numLayers: 1,
      pooling: 'attention',
      labels: ['a', 'b'],
      tokenizer: { type: 'word', vocab: ['<pad>', '<unk>', 'x'], unk: '<unk>', pad: '<pad>' },
    },
    { seed: 1 },
  );
  try {
    // clip 1e-46 would be 0 in C: "no clipping"
    refused(
      () => createTrainer(model, { clip: 1e-46 }),
      /createTrainer: options\.clip 1e-46 is 0 in float32/,
    );
    refused(() => createTrainer(model, { lr: 1e-46 }), /options\.lr 1e-46 is 0 in float32/);
    refused(() => createTrainer(model, { lr: 1e39 }), /options\.lr 1e\+39 is Infinity in float32/);
    refused(
      () => createTrainer(model, { weightDecay: 1e39 }),
      /options\.weightDecay 1e\+39 is Infinity/,
    );
    refused(
      () => createTrainer(model, { momentum: '0.5' }),
      /options\.momentum must be a finite number >= 0, got "0.5"/,
    );
    createTrainer(model, { clip: 1e-40, lr: 1e-3 }).dispose();
  } finally {
    model.dispose();
  }
});
