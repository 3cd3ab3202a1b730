// The additive_luong family's JS tests, run for both builds in this one process, each on its own
// instance (createAttnlab({ simd }), one wasm memory per build; see the bottom): every op's
// forward and backward against the PyTorch fixtures (tests/fixtures/{additive,luong,luong_local,
// key_query}.safetensors, made by scripts/fixture_modules/additive_luong.py), error messages, and
// no leaked wasm allocations.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createAttnlab, AttnlabError } from '../../wasm/index.js';
import { loadFixture, assertClose } from './fixtures.js';

const TOL = { atol: 1e-5, rtol: 1e-4 };

const PARAMS = {
  additive: ['W_q', 'W_k', 'bias', 'v'],
  luong: ['W_a', 'v_a', 'W_c', 'W_p', 'v_p'],
  key_query: ['W_Q', 'W_K', 'W_V'],
};

function pick(tensors, names) {
  const out = {};
  for (const n of names) if (tensors[n]) out[n] = tensors[n];
  return out;
}

/** the worst |diff| seen per fixture, printed at the end */
const worst = {};
function close(file, actual, expected, label) {
  const { maxAbsDiff } = assertClose(actual, expected, { ...TOL, label });
  worst[file] = Math.max(worst[file] ?? 0, maxAbsDiff);
}

/** Forward outputs and every gradient of one fixture case. */
function checkCase(file, c, fn, params, options, outputs, gradNames) {
  const T = c.tensors;
  const got = fn(T.query, T.keys, params, options);
  for (const o of outputs) {
    if (o === 'position') {
      const p = Array.isArray(got.position) ? got.position : [got.position];
      assert.equal(typeof got.position, c.batched ? 'object' : 'number', `${c.name} position type`);
      close(file, p, T.position, `${file} ${c.name} position`);
    } else {
      close(file, got[o], T[o], `${file} ${c.name} ${o}`);
    }
  }
  const upstream = {};
  for (const o of outputs) {
    const u = T[`upstream_${o}`];
    upstream[o] = o === 'position' ? (c.batched ? Array.from(u.data) : u.data[0]) : u;
  }
  const grads = fn.backward(T.query, T.keys, params, options, upstream);
  assert.deepEqual(Object.keys(grads).sort(), [...gradNames].sort(), `${c.name}: gradient names`);
  for (const g of gradNames) close(file, grads[g], T[`grad_${g}`], `${file} ${c.name} grad ${g}`);
}

function runAdditiveLuongSuite({ simd }) {
  const build = simd ? 'simd128' : 'scalar';
  let lib, ops; // this build's instance and its bound API

  test(`${build}: init`, async () => {
    lib = await createAttnlab({ simd });
    ({ ops } = lib);
    assert.equal(lib.simd, simd);
  });

  test(`${build}: additiveAttention forward and backward match PyTorch`, () => {
    const { cases } = loadFixture('additive');
    assert.ok(cases.length >= 8);
    for (const c of cases) {
      const T = c.tensors;
      const options = {};
      if (T.keyPaddingMask) options.keyPaddingMask = T.keyPaddingMask;
      if (T.values) options.values = T.values;
      const grads = ['query', 'keys', ...PARAMS.additive, ...(T.values ? ['values'] : [])];
      checkCase(
        'additive',
        c,
        ops.additiveAttention,
        pick(T, PARAMS.additive),
        options,
        ['context', 'weights'],
        grads,
      );
    }
  });

  test(`${build}: luongAttention (dot, general, concat) forward and backward match PyTorch`, () => {
    const { cases } = loadFixture('luong');
    assert.equal(new Set(cases.map((c) => c.score)).size, 3);
    for (const c of cases) {
      const T = c.tensors;
      const options = { score: c.score };
      if (T.keyPaddingMask) options.keyPaddingMask = T.keyPaddingMask;
      const params = pick(T, PARAMS.luong);
      checkCase(
        'luong',
        c,
        ops.luongAttention,
        params,
        options,
        ['context', 'weights', 'attentionalHidden'],
        ['query', 'keys', ...Object.keys(params)],
      );
    }
  });

  test(`${build}: luongLocalAttention (local-m, local-p) forward and backward match PyTorch`, () => {
    const { cases } = loadFixture('luong_local');
    assert.ok(
      cases.some((c) => c.position === 'monotonic') &&
        cases.some((c) => c.position === 'predictive'),
    );
    for (const c of cases) {
      const T = c.tensors;
      const options = { score: c.score, window: c.window, position: c.position };
      if (c.t !== null) options.t = c.t;
      if (T.keyPaddingMask) options.keyPaddingMask = T.keyPaddingMask;
      const params = pick(T, PARAMS.luong);
      checkCase(
        'luong_local',
        c,
        ops.luongLocalAttention,
        params,
        options,
        ['context', 'weights', 'attentionalHidden', 'position'],
        ['query', 'keys', ...Object.keys(params)],
      );
    }
  });

  test(`${build}: keyQueryAttention (scaled, unscaled) forward and backward match PyTorch`, () => {
    const { cases } = loadFixture('key_query');
    for (const c of cases) {
      const T = c.tensors;
      const options = { scaled: c.scaled };
      if (T.keyPaddingMask) options.keyPaddingMask = T.keyPaddingMask;
      checkCase(
        'key_query',
        c,
        ops.keyQueryAttention,
        pick(T, PARAMS.key_query),
        options,
        ['context', 'weights'],
        ['query', 'keys', ...PARAMS.key_query],
      );
    }
  });

  test(`${build}: worst differences against PyTorch`, (t) => {
    t.diagnostic(`worst |diff| vs PyTorch: ${JSON.stringify(worst)}`);
    for (const v of Object.values(worst)) assert.ok(v < 1e-4);
  });

  test(`${build}: backward without options, missing upstream entries count as zero`, () => {
    const q = [0.5, -1, 0.25];
    const k = [
      [1, 0, 2],
      [0, 1, -1],
      [0.5, 0.5, 0.5],
    ];
    const params = {
      W_q: [
        [1, 0, 0],
        [0, 1, 1],
      ],
      W_k: [
        [0, 1, 0],
        [1, 0, 1],
      ],
      bias: [0.1, -0.1],
      v: [1, -2],
    };
    const a = ops.additiveAttention.backward(q, k, params, { weights: [1, 0, 0] });
    const b = ops.additiveAttention.backward(
      q,
      k,
      params,
      {},
      { weights: [1, 0, 0], context: [0, 0, 0] },
    );
    for (const n of ['query', 'keys', 'W_q', 'W_k', 'bias', 'v']) assert.deepEqual(a[n], b[n]);
    // an upstream naming no output is refused (it would be the options with upstream forgotten)
    assert.throws(
      () => ops.additiveAttention.backward(q, k, params, {}),
      (e) => e instanceof AttnlabError && /upstream.*names none/.test(e.message),
    );
  });

  test(`${build}: a fully masked row gives zero weights and context, never NaN`, () => {
    const r = ops.keyQueryAttention(
      [
        [1, 2],
        [3, 4],
      ],
      [
        [
          [1, 0],
          [0, 1],
        ],
        [
          [1, 1],
          [2, 2],
        ],
      ],
      {
        W_Q: [[1, 0]],
        W_K: [[0, 1]],
        W_V: [
          [1, 1],
          [1, -1],
        ],
      },
      {
        keyPaddingMask: [
          [false, true],
          [true, true],
        ],
      },
    );
    assert.deepEqual([...r.weights.data], [1, 0, 0, 0]);
    assert.deepEqual([...r.context.data.subarray(2)], [0, 0]);
  });

  test(`${build}: error messages name the problem`, () => {
    const q = [1, 2, 3];
    const k = [
      [1, 0, 0],
      [0, 1, 0],
    ];
    const P = { W_q: [[1, 0, 0]], W_k: [[1, 0, 0]], bias: [0], v: [1] };
    const throws = (fn, re, code) =>
      assert.throws(
        fn,
        (e) => e instanceof AttnlabError && re.test(e.message) && (!code || e.code === code),
      );
    throws(() => ops.additiveAttention(q, k, { ...P, W_k: undefined }), /params\.W_k is missing/);
    throws(
      () => ops.additiveAttention(q, k, { ...P, W_q: [[1, 0]] }),
      /params\.W_q has shape \[1, 2\] but must be \[da, dq\]/,
      'AL_ERR_SHAPE',
    );
    throws(() => ops.additiveAttention(q, k, P, { mask: [true, false] }), /unknown option 'mask'/);
    throws(
      () =>
        ops.additiveAttention(
          q,
          [
            [1, 0, NaN],
            [0, 1, 0],
          ],
          P,
        ),
      /keys contains NaN/,
      'AL_ERR_NONFINITE',
    );
    throws(
      () => ops.additiveAttention(q, k, P, { keyPaddingMask: [true] }),
      /keyPaddingMask has shape \[1\]/,
      'AL_ERR_SHAPE',
    );
    throws(
      () => ops.additiveAttention(q, k, P, { values: [[1], [2], [3]] }),
      /values has shape \[3, 1\] but keys has \[2, 3\]/,
    );
    throws(
      () => ops.additiveAttention([[1, 2, 3]], [[[1, 0, 0]], [[0, 1, 0]]], P),
      /query has batch size 1 but keys has 2/,
    );
    throws(
      () => ops.additiveAttention.backward(q, k, P, {}, { context: [1, 2] }),
      /upstream\.context has shape \[2\] but context has \[3\]/,
    );
    throws(
      () => ops.additiveAttention.backward(q, k, P, {}, { output: [1, 2, 3] }),
      /unknown upstream gradient 'output'/,
    );
    throws(() => ops.additiveAttention.backward(q, k, P), /params must be an object|upstream/);
    const L = {
      W_c: [
        [1, 0, 0, 0, 0, 0],
        [0, 1, 0, 0, 0, 0],
        [0, 0, 1, 0, 0, 0],
      ],
    };
    throws(
      () => ops.luongAttention(q, k, L, { score: 'cosine' }),
      /score must be 'dot', 'general' or 'concat'/,
    );
    throws(() => ops.luongAttention(q, k, L, { score: 'general' }), /params\.W_a is missing/);
    throws(() => ops.luongAttention(q, k, L, { score: 'concat' }), /params\.v_a is missing/);
    throws(
      () =>
        ops.luongAttention(
          q,
          [
            [1, 0],
            [0, 1],
          ],
          L,
        ),
      /query has 3 features but keys has 2/,
    );
    throws(
      () => ops.luongLocalAttention(q, k, L, { window: 2 }),
      /options\.t .* is required for position 'monotonic'/,
    );
    throws(
      () => ops.luongLocalAttention(q, k, L, { window: 0, t: 1 }),
      /window \(D\) must be a finite number >= 0.01/,
    );
    throws(
      () => ops.luongLocalAttention(q, k, L, { window: 1, position: 'fixed', t: 1 }),
      /position must be 'monotonic' or 'predictive'/,
    );
    throws(
      () => ops.luongLocalAttention(q, k, L, { window: 1, position: 'predictive' }),
      /params\.v_p is missing/,
    );
    throws(
      () => ops.keyQueryAttention(q, k, { W_Q: [[1, 0, 0]], W_K: [[1, 0]], W_V: [[1, 0, 0]] }),
      /params\.W_K has shape \[1, 2\] but must be \[dk, dh\]/,
    );
    throws(
      () =>
        ops.keyQueryAttention(
          q,
          k,
          { W_Q: [[1, 0, 0]], W_K: [[1, 0, 0]], W_V: [[1, 0, 0]] },
          { scaled: 'yes' },
        ),
      /scaled must be true or false/,
    );
    assert.equal(lib.liveAllocations(), 0, 'failed calls free what they allocated');
  });

  test(`${build}: the ops leave no live wasm allocations`, () => {
    const q = [[0.1, 0.2, 0.3]];
    const k = [
      [
        [1, 0, 0],
        [0, 1, 0],
      ],
    ];
    const L = {
      W_c: [
        [1, 0, 0, 0, 0, 0],
        [0, 1, 0, 0, 0, 0],
        [0, 0, 1, 0, 0, 0],
      ],
      W_p: [[1, 1, 1]],
      v_p: [1],
    };
    ops.luongLocalAttention(q, k, L, { window: 1, position: 'predictive' });
    ops.luongLocalAttention.backward(
      q,
      k,
      L,
      { window: 1, position: 'predictive' },
      { position: [1] },
    );
    ops.luongAttention.backward(q, k, L, { attentionalHidden: [[1, 1, 1]] });
    assert.equal(lib.liveAllocations(), 0);
  });
}

for (const simd of [false, true]) runAdditiveLuongSuite({ simd });
