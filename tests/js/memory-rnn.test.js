// The memory-RNN family's JS suite (selfAttentionRNN, lstmn, and their .backward), run for both
// builds in this one process, each on its own instance (createAttnlab({ simd }), one wasm memory
// per build; see the bottom). References: the PyTorch float64 fixtures of
// scripts/fixture_modules/memory_rnn.py (forward outputs and autograd gradients for random
// upstream on every output), at the "mechanism vs PyTorch fixture" tolerances.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createAttnlab, AttnlabError } from '../../wasm/index.js';
import { loadFixture, assertClose } from './fixtures.js';

const TOL = { atol: 1e-5, rtol: 1e-4 };
const SARNN_PARAMS = { additive: ['A', 'b', 'W_h', 'W_s', 'v'], dot: ['A', 'b', 'W_K', 'W_Q'] };
const LSTMN_PARAMS = ['W_h', 'W_x', 'W_ht', 'v', 'W', 'b'];

const pick = (tensors, names) => Object.fromEntries(names.map((k) => [k, tensors[k]]));
const zerosLike = (t) => ({ data: new Float32Array(t.data.length), shape: t.shape });

function runMemoryRnnSuite({ simd }) {
  const build = simd ? 'simd128' : 'scalar';
  let lib, ops; // this build's instance and its bound API
  const worst = {}; // label -> largest |diff| seen, printed at the end

  const close = (got, want, label) => {
    const { maxAbsDiff } = assertClose(got, want, { ...TOL, label });
    const key = label.split(' ').slice(-1)[0];
    worst[key] = Math.max(worst[key] ?? 0, maxAbsDiff);
  };

  test(`${build}: init loads the requested build`, async () => {
    lib = await createAttnlab({ simd });
    ({ ops } = lib);
    assert.equal(lib.simd, simd);
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: selfAttentionRNN forward and backward match every PyTorch fixture case`, () => {
    const { cases } = loadFixture('self_attention_rnn');
    assert.equal(cases.length, 6);
    for (const c of cases) {
      const t = c.tensors;
      const names = SARNN_PARAMS[c.align];
      const params = pick(t, names);
      const opts = { align: c.align };
      const got = ops.selfAttentionRNN(t.x, params, opts);
      close(got.h, t.h, `sarnn ${c.name} h`);
      close(got.weights, t.weights, `sarnn ${c.name} weights`);
      const grads = ops.selfAttentionRNN.backward(t.x, params, opts, {
        h: t.up_h,
        weights: t.up_weights,
      });
      assert.deepEqual(
        Object.keys(grads).sort(),
        ['x', ...names].sort(),
        `${c.name} gradient keys`,
      );
      for (const k of ['x', ...names]) close(grads[k], t[`grad_${k}`], `sarnn ${c.name} grad_${k}`);
    }
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: lstmn forward and backward match every PyTorch fixture case`, () => {
    const { cases } = loadFixture('lstmn');
    assert.equal(cases.length, 3);
    for (const c of cases) {
      const t = c.tensors;
      const params = pick(t, LSTMN_PARAMS);
      const got = ops.lstmn(t.x, params);
      close(got.h, t.h, `lstmn ${c.name} h`);
      close(got.c, t.c, `lstmn ${c.name} c`);
      close(got.weights, t.weights, `lstmn ${c.name} weights`);
      const grads = ops.lstmn.backward(
        t.x,
        params,
        {},
        { h: t.up_h, c: t.up_c, weights: t.up_weights },
      );
      assert.deepEqual(Object.keys(grads).sort(), ['x', ...LSTMN_PARAMS].sort());
      for (const k of ['x', ...LSTMN_PARAMS])
        close(grads[k], t[`grad_${k}`], `lstmn ${c.name} grad_${k}`);
    }
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: a missing upstream entry means zero`, () => {
    const s = loadFixture('self_attention_rnn').cases.find(
      (c) => c.name === 'additive_batch',
    ).tensors;
    const sp = pick(s, SARNN_PARAMS.additive);
    const a = ops.selfAttentionRNN.backward(s.x, sp, { align: 'additive' }, { h: s.up_h });
    const b = ops.selfAttentionRNN.backward(
      s.x,
      sp,
      { align: 'additive' },
      { h: s.up_h, weights: zerosLike(s.up_weights) },
    );
    for (const k of Object.keys(a)) assert.deepEqual(a[k].data, b[k].data, `sarnn ${k}`);
    assert.throws(
      () => ops.selfAttentionRNN.backward(s.x, sp, { align: 'additive' }, {}),
      (e) => e instanceof AttnlabError && /upstream.*names none/.test(e.message),
    );

    const l = loadFixture('lstmn').cases.find((c) => c.name === 'T5').tensors;
    const lp = pick(l, LSTMN_PARAMS);
    const c1 = ops.lstmn.backward(l.x, lp, undefined, { c: l.up_c });
    const c2 = ops.lstmn.backward(
      l.x,
      lp,
      {},
      { h: zerosLike(l.up_h), c: l.up_c, weights: zerosLike(l.up_weights) },
    );
    for (const k of Object.keys(c1)) assert.deepEqual(c1[k].data, c2[k].data, `lstmn ${k}`);
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: weights rows: causal (i <= t) for selfAttentionRNN, strictly earlier for lstmn`, () => {
    const s = loadFixture('self_attention_rnn').cases.find((c) => c.name === 'dot_T5').tensors;
    const w = ops.selfAttentionRNN(s.x, pick(s, SARNN_PARAMS.dot), { align: 'dot' }).weights;
    const T = w.shape[0];
    for (let t = 0; t < T; t++) {
      let sum = 0;
      for (let i = 0; i < T; i++) {
        if (i > t) assert.equal(w.data[t * T + i], 0);
        sum += w.data[t * T + i];
      }
      assert.ok(Math.abs(sum - 1) < 1e-6, `row ${t} sums to 1`);
    }
    const l = loadFixture('lstmn').cases.find((c) => c.name === 'T5').tensors;
    const lw = ops.lstmn(l.x, pick(l, LSTMN_PARAMS)).weights;
    for (let t = 0; t < T; t++) for (let i = t; i < T; i++) assert.equal(lw.data[t * T + i], 0);
  });

  test(`${build}: errors name the problem, and failed calls free what they allocated`, () => {
    const expectError = (fn, re, code) =>
      assert.throws(fn, (e) => {
        assert.ok(e instanceof AttnlabError, `not an AttnlabError: ${e}`);
        assert.match(e.message, re);
        if (code) assert.equal(e.code, code);
        return true;
      });
    const s = loadFixture('self_attention_rnn').cases.find((c) => c.name === 'additive_T5').tensors;
    const sp = pick(s, SARNN_PARAMS.additive);
    const l = loadFixture('lstmn').cases.find((c) => c.name === 'T5').tensors;
    const lp = pick(l, LSTMN_PARAMS);

    // missing params name the key
    expectError(
      () => ops.selfAttentionRNN(s.x, { ...sp, W_s: undefined }),
      /params\.W_s is missing/,
    );
    expectError(
      () => ops.selfAttentionRNN(s.x, pick(s, ['A', 'b']), { align: 'dot' }),
      /params\.W_K is missing/,
    );
    expectError(
      () => ops.selfAttentionRNN.backward(s.x, { ...sp, v: undefined }, {}, {}),
      /params\.v is missing/,
    );
    expectError(() => ops.lstmn(l.x, { ...lp, W_ht: undefined }), /params\.W_ht is missing/);
    expectError(() => ops.lstmn.backward(l.x, { ...lp, b: null }, {}, {}), /params\.b is missing/);
    expectError(() => ops.lstmn(l.x, null), /params must be an object/);
    // wrong shapes
    expectError(
      () => ops.selfAttentionRNN(s.x, { ...sp, A: { data: new Float32Array(35), shape: [5, 7] } }),
      /params\.A has shape \[5, 7\] but must be \[H, in\+H\] = \[5, 8\]/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => ops.selfAttentionRNN(s.x, { ...sp, v: { data: new Float32Array(3), shape: [3] } }),
      /params\.v has shape \[3\] but must be \[da\] = \[4\]/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () =>
        ops.selfAttentionRNN(s.x, { ...sp, W_s: { data: new Float32Array(15), shape: [3, 5] } }),
      /params\.W_s has shape \[3, 5\]/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => ops.lstmn(l.x, { ...lp, W: { data: new Float32Array(20 * 7), shape: [20, 7] } }),
      /params\.W has shape \[20, 7\] but must be \[4H, H\+in\] = \[20, 8\]/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => ops.lstmn(l.x, { ...lp, W_x: { data: new Float32Array(10), shape: [5, 2] } }),
      /params\.W_x has shape \[5, 2\] but must be \[H, in\] = \[5, 3\]/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => ops.lstmn({ data: new Float32Array(3), shape: [3] }, lp),
      /x must have rank 2 or 3/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () =>
        ops.selfAttentionRNN.backward(
          s.x,
          sp,
          {},
          { h: { data: new Float32Array(5), shape: [1, 5] } },
        ),
      /upstream\.h has shape \[1, 5\] but must be the shape of h = \[5, 5\]/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => ops.lstmn.backward(l.x, lp, {}, { dh: l.up_h }),
      /upstream\.dh is not an output of this op/,
    );
    // unknown align and options
    expectError(
      () => ops.selfAttentionRNN(s.x, sp, { align: 'general' }),
      /unknown align "general" \(known: additive, dot\)/,
    );
    expectError(
      () => ops.selfAttentionRNN.backward(s.x, sp, { align: 'concat' }, {}),
      /unknown align "concat"/,
    );
    expectError(
      () => ops.selfAttentionRNN(s.x, sp, { alignment: 'dot' }),
      /unknown option 'alignment'/,
    );
    expectError(() => ops.lstmn(l.x, lp, { align: 'dot' }), /unknown option 'align'/);
    // non-finite input
    const bad = { data: Float32Array.from(s.x.data), shape: s.x.shape };
    bad.data[3] = NaN;
    expectError(() => ops.selfAttentionRNN(bad, sp), /x contains NaN/, 'AL_ERR_NONFINITE');
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: many calls return allocations and memory to their baseline`, () => {
    const s = loadFixture('self_attention_rnn').cases.find((c) => c.name === 'dot_batch').tensors;
    const sp = pick(s, SARNN_PARAMS.dot);
    const l = loadFixture('lstmn').cases.find((c) => c.name === 'batch').tensors;
    const lp = pick(l, LSTMN_PARAMS);
    const round = () => {
      ops.selfAttentionRNN(s.x, sp, { align: 'dot' });
      ops.selfAttentionRNN.backward(
        s.x,
        sp,
        { align: 'dot' },
        { h: s.up_h, weights: s.up_weights },
      );
      ops.lstmn(l.x, lp);
      ops.lstmn.backward(l.x, lp, {}, { h: l.up_h, c: l.up_c, weights: l.up_weights });
    };
    round();
    const mem = lib.memoryBytes();
    for (let i = 0; i < 500; i++) round();
    assert.equal(lib.liveAllocations(), 0);
    assert.equal(lib.memoryBytes(), mem);
  });

  test(`${build}: worst differences against the fixtures`, (t) => {
    t.diagnostic(`worst |diff| by output: ${JSON.stringify(worst)}`);
  });
}

for (const simd of [false, true]) runMemoryRnnSuite({ simd });
