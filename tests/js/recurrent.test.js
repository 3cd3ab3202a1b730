// The recurrent ops (ops.rnn, ops.lstm, ops.gru and their .backward) against the PyTorch
// fixtures tests/fixtures/{rnn,lstm,gru}.safetensors (torch.nn.RNN/LSTM/GRU in float64 with
// autograd; scripts/fixture_modules/recurrent.py), plus options, error messages and leaks.
// Run for both builds in this one process, each on its own instance (createAttnlab({ simd }), one
// wasm memory per build; see the bottom).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createAttnlab, AttnlabError, PreparedParams, PreparedTensor } from '../../wasm/index.js';
import { loadFixture, assertClose } from './fixtures.js';

const TOL = { atol: 1e-5, rtol: 1e-4 }; // whole model vs PyTorch fixture (STYLE.md)

/** The fixture case as the API's arguments. */
function caseArgs(kind, c) {
  const t = c.tensors;
  const params = {};
  for (const [k, v] of Object.entries(t))
    if (/^(weight|bias)_/.test(k)) params[k] = { data: v.data, shape: v.shape };
  const options = { numLayers: c.numLayers, bidirectional: c.bidirectional };
  if (t.h0) options.h0 = t.h0;
  if (t.c0) options.c0 = t.c0;
  if (kind === 'rnn') options.nonlinearity = c.nonlinearity;
  const upstream = { output: t.d_output, hN: t.d_hN };
  if (kind === 'lstm') upstream.cN = t.d_cN;
  return { x: t.x, params, options, upstream };
}

/** A tiny one-layer model of `kind` with I inputs and H hidden units, biases included. */
function tinyParams(kind, I, H, suffix = '_l0') {
  const G = { rnn: 1, lstm: 4, gru: 3 }[kind];
  const fill = (n, seed) =>
    Float32Array.from({ length: n }, (_, i) => Math.sin(seed * 7.1 + i * 1.3) * 0.4);
  return {
    [`weight_ih${suffix}`]: { data: fill(G * H * I, 1), shape: [G * H, I] },
    [`weight_hh${suffix}`]: { data: fill(G * H * H, 2), shape: [G * H, H] },
    [`bias_ih${suffix}`]: { data: fill(G * H, 3), shape: [G * H] },
    [`bias_hh${suffix}`]: { data: fill(G * H, 4), shape: [G * H] },
  };
}

function runRecurrentSuite({ simd }) {
  const build = simd ? 'simd128' : 'scalar';
  let lib, ops, prepare; // this build's instance and its bound API

  test(`${build}: init loads the requested build`, async () => {
    lib = await createAttnlab({ simd });
    ({ ops, prepare } = lib);
    assert.equal(lib.simd, simd);
    assert.equal(lib.liveAllocations(), 0);
  });

  for (const kind of ['rnn', 'lstm', 'gru']) {
    test(`${build}: ${kind} forward and backward match every PyTorch fixture case`, (t) => {
      const { cases } = loadFixture(kind);
      assert.ok(cases.length >= 15, `${kind}: ${cases.length} cases`);
      let worstForward = 0;
      let worstBackward = 0;
      for (const c of cases) {
        const { x, params, options, upstream } = caseArgs(kind, c);
        const ref = c.tensors;
        const got = ops[kind](x, params, options);
        const outputs = kind === 'lstm' ? ['output', 'hN', 'cN'] : ['output', 'hN'];
        assert.deepEqual(Object.keys(got).sort(), [...outputs].sort(), `${c.name}: result keys`);
        for (const k of outputs) {
          const r = assertClose(got[k], ref[k], { ...TOL, label: `${kind} ${c.name} ${k}` });
          worstForward = Math.max(worstForward, r.maxAbsDiff);
        }
        const grads = ops[kind].backward(x, params, options, upstream);
        const want = Object.keys(ref)
          .filter((k) => k.startsWith('grad_'))
          .map((k) => k.slice(5));
        assert.deepEqual(Object.keys(grads).sort(), want.sort(), `${c.name}: gradient keys`);
        for (const k of want) {
          const r = assertClose(grads[k], ref[`grad_${k}`], {
            ...TOL,
            label: `${kind} ${c.name} grad ${k}`,
          });
          worstBackward = Math.max(worstBackward, r.maxAbsDiff);
        }
      }
      assert.equal(lib.liveAllocations(), 0);
      t.diagnostic(
        `${build} ${kind}: worst |diff| vs PyTorch: forward ${worstForward.toExponential(2)}, backward ${worstBackward.toExponential(2)}`,
      );
    });
  }

  test(`${build}: upstream entries are optional (zero) and gradients are linear in them`, () => {
    const { x, params, options, upstream } = caseArgs(
      'lstm',
      loadFixture('lstm').cases.find((c) => c.name === 'bidir_two_layers'),
    );
    const all = ops.lstm.backward(x, params, options, upstream);
    const parts = ['output', 'hN', 'cN'].map((k) =>
      ops.lstm.backward(x, params, options, { [k]: upstream[k] }),
    );
    for (const k of Object.keys(all)) {
      const sum = all[k].data.map(
        (_, i) => parts[0][k].data[i] + parts[1][k].data[i] + parts[2][k].data[i],
      );
      assertClose(
        all[k],
        { data: sum, shape: all[k].shape },
        { atol: 1e-5, rtol: 1e-4, label: `linearity ${k}` },
      );
    }
    assert.throws(
      () => ops.lstm.backward(x, params, options, {}),
      (e) => e instanceof AttnlabError && /upstream.*names none/.test(e.message),
    );
    // no upstream at all is a mistake, not zeros: the options would be read as upstream
    assert.throws(
      () => ops.lstm.backward(x, params, options),
      (e) =>
        e instanceof AttnlabError &&
        /upstream must be an object.*are these the options/.test(e.message),
    );
    assert.throws(
      () => ops.lstm.backward(x, params),
      (e) => e instanceof AttnlabError && /upstream gradients are missing/.test(e.message),
    );
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: batchFirst: false takes and returns [T, B, ...]`, () => {
    const c = loadFixture('gru').cases.find((k) => k.name === 'odd_sizes');
    const { x, params, options, upstream } = caseArgs('gru', c);
    const [B, T, I] = x.shape;
    const swap = (t) => {
      const [A, Bd, C] = t.shape;
      const out = new Float32Array(t.data.length);
      for (let a = 0; a < A; a++)
        for (let b = 0; b < Bd; b++)
          for (let k = 0; k < C; k++) out[(b * A + a) * C + k] = t.data[(a * Bd + b) * C + k];
      return { data: out, shape: [Bd, A, C] };
    };
    const xt = swap(x);
    assert.deepEqual(xt.shape, [T, B, I]);
    const got = ops.gru(xt, params, { ...options, batchFirst: false });
    assertClose(got.output, swap(c.tensors.output), { ...TOL, label: 'batchFirst false output' });
    assertClose(got.hN, c.tensors.hN, { ...TOL, label: 'batchFirst false hN' });
    const g = ops.gru.backward(
      xt,
      params,
      { ...options, batchFirst: false },
      { output: swap(upstream.output), hN: upstream.hN },
    );
    assertClose(g.x, swap(c.tensors.grad_x), { ...TOL, label: 'batchFirst false grad x' });
    assertClose(g.weight_hh_l0_reverse, c.tensors.grad_weight_hh_l0_reverse, {
      ...TOL,
      label: 'batchFirst false grad weight_hh_l0_reverse',
    });
  });

  test(`${build}: nested arrays work, and an RNN step matches tanh(W x + b + U h + c) by hand`, () => {
    const params = {
      weight_ih_l0: [
        [0.5, -1],
        [0.25, 2],
      ],
      weight_hh_l0: [
        [0.1, 0.2],
        [-0.3, 0.4],
      ],
      bias_ih_l0: [0.1, 0],
      bias_hh_l0: [0, -0.2],
    };
    const r = ops.rnn(
      [
        [1, 2],
        [0.5, -1],
      ],
      params,
      { h0: [[0.3, -0.6]] },
    );
    let h = [0.3, -0.6];
    const xs = [
      [1, 2],
      [0.5, -1],
    ];
    const want = [];
    for (const xt of xs) {
      h = [0, 1].map((j) =>
        Math.tanh(
          params.weight_ih_l0[j][0] * xt[0] +
            params.weight_ih_l0[j][1] * xt[1] +
            params.bias_ih_l0[j] +
            params.weight_hh_l0[j][0] * h[0] +
            params.weight_hh_l0[j][1] * h[1] +
            params.bias_hh_l0[j],
        ),
      );
      want.push(...h);
    }
    assert.deepEqual(r.output.shape, [2, 2]);
    assert.deepEqual(r.hN.shape, [1, 2]);
    assertClose(r.output, want, { atol: 1e-6, rtol: 1e-5, label: 'rnn by hand' });
    assertClose(r.hN, h, { atol: 1e-6, rtol: 1e-5, label: 'rnn hN by hand' });
  });

  test(`${build}: errors name the problem`, () => {
    const x = { data: new Float32Array(12), shape: [4, 3] };
    const p = tinyParams('lstm', 3, 2);
    const err = (fn, re, code = 'AL_ERR_ARGUMENT') =>
      assert.throws(fn, (e) => {
        assert.ok(e instanceof AttnlabError, `not an AttnlabError: ${e}`);
        assert.match(e.message, re);
        assert.equal(e.code, code, e.message);
        return true;
      });
    err(() => ops.lstm(x, p, { numLayers: 2 }), /missing params\.weight_ih_l1/);
    err(
      () => ops.lstm(x, { ...p, ...tinyParams('lstm', 4, 2, '_l1') }, { numLayers: 2 }),
      /params\.weight_ih_l1 has shape \[8, 4\] but must be \[8, 2\]/,
      'AL_ERR_SHAPE',
    );
    const { weight_hh_l1: _drop, ...noHh1 } = { ...p, ...tinyParams('lstm', 2, 2, '_l1') };
    err(() => ops.lstm(x, noHh1, { numLayers: 2 }), /missing params\.weight_hh_l1/);
    err(
      () => ops.lstm(x, { ...p, ...tinyParams('lstm', 2, 2, '_l1') }),
      /unexpected params\.weight_ih_l1.*numLayers to 2/,
    );
    err(
      () => ops.lstm(x, { ...p, ...tinyParams('lstm', 3, 2, '_l0_reverse') }),
      /unexpected params\.weight_ih_l0_reverse.*bidirectional: true/,
    );
    err(() => ops.lstm(x, p, { bidirectional: true }), /missing params\.weight_ih_l0_reverse/);
    const { bias_hh_l0: _b, ...halfBias } = p;
    err(() => ops.lstm(x, halfBias), /missing params\.bias_hh_l0/);
    err(
      () => ops.gru(x, p),
      /params\.weight_hh_l0 has shape \[8, 2\] but must be \[3·hidden_size, hidden_size\]/,
      'AL_ERR_SHAPE',
    );
    err(
      () => ops.lstm({ data: new Float32Array(10), shape: [2, 5] }, p),
      /params\.weight_ih_l0 has shape \[8, 3\] but must be \[8, 5\]/,
      'AL_ERR_SHAPE',
    );
    err(
      () => ops.lstm(x, { ...p, bias_ih_l0: [1, 2, 3] }),
      /params\.bias_ih_l0 has shape \[3\] but must be \[8\]/,
      'AL_ERR_SHAPE',
    );
    err(
      () => ops.lstm(x, p, { h0: [[1, 2, 3]] }),
      /h0 has shape \[1, 3\] but must be \[1, 2\]/,
      'AL_ERR_SHAPE',
    );
    err(
      () => ops.lstm({ data: new Float32Array(24), shape: [2, 4, 3] }, p, { c0: [[1, 2]] }),
      /c0 has shape \[1, 2\] but must be \[1, 2, 2\]/,
      'AL_ERR_SHAPE',
    );
    err(
      () => ops.lstm({ data: new Float32Array(3), shape: [3] }, p),
      /x must have rank 2 or 3/,
      'AL_ERR_SHAPE',
    );
    err(
      () =>
        ops.lstm(
          { data: new Float32Array([1, NaN, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), shape: [4, 3] },
          p,
        ),
      /x contains NaN/,
      'AL_ERR_NONFINITE',
    );
    err(() => ops.lstm(x, p, { numLayers: 0 }), /numLayers must be an integer >= 1/);
    err(() => ops.lstm(x, p, { numLayers: 1.5 }), /numLayers must be an integer >= 1/);
    err(() => ops.lstm(x, p, { bidirectional: 'yes' }), /bidirectional must be true or false/);
    err(() => ops.lstm(x, p, { nonlinearity: 'relu' }), /'nonlinearity' is for rnn only/);
    err(() => ops.gru(x, tinyParams('gru', 3, 2), { c0: [[0, 0]] }), /'c0' is for lstm only/);
    err(
      () => ops.rnn(x, tinyParams('rnn', 3, 2), { nonlinearity: 'sigmoid' }),
      /nonlinearity must be 'tanh' or 'relu'/,
    );
    err(() => ops.rnn(x, tinyParams('rnn', 3, 2), { hidden: 2 }), /unknown option 'hidden'/);
    err(() => ops.rnn(x, null), /params must be an object/);
    err(
      () => ops.lstm.backward(x, p, {}, { output: [[1, 2]] }),
      /upstream\.output has shape \[1, 2\] but must be \[4, 2\]/,
      'AL_ERR_SHAPE',
    );
    err(
      () => ops.gru.backward(x, tinyParams('gru', 3, 2), {}, { cN: [[1, 2]] }),
      /unknown upstream\.cN/,
    );
    err(() => ops.lstm.backward(x, p, {}, 5), /upstream must be an object/);
    assert.equal(lib.liveAllocations(), 0, 'failed calls leak nothing');
  });

  /** The same floats, bit for bit (NaN-safe, -0 ≠ 0). */
  const sameBits = (a, b, label) => {
    assert.deepEqual(a.shape, b.shape, `${label}: shape`);
    assert.ok(
      Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).equals(
        Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength),
      ),
      `${label}: bits differ`,
    );
  };

  test(`${build}: prepare(): resident params give the plain call's bits, forward and backward`, () => {
    for (const kind of ['rnn', 'lstm', 'gru']) {
      // long: B = 1, T = 20 (the packed W_hh path); bidir_two_layers: four (layer, direction) sets
      for (const name of ['long', 'bidir_two_layers', 'odd_sizes']) {
        const { x, params, options, upstream } = caseArgs(
          kind,
          loadFixture(kind).cases.find((c) => c.name === name),
        );
        const live = lib.liveAllocations();
        const p = prepare(params);
        assert.ok(p instanceof PreparedParams);
        assert.deepEqual(Object.keys(p.tensors), Object.keys(params));
        assert.ok(Object.values(p.tensors).every((t) => t instanceof PreparedTensor));
        assert.equal(
          lib.liveAllocations(),
          live + Object.keys(params).length,
          'one block per tensor',
        );
        const plain = ops[kind](x, params, options);
        for (let rep = 0; rep < 2; rep++) {
          // reused: the second call sees the same resident weights
          const got = ops[kind](x, p, options);
          for (const k of Object.keys(plain))
            sameBits(got[k], plain[k], `${kind} ${name} ${k} (call ${rep + 1})`);
        }
        // one prepared entry in an otherwise plain object works too
        const mixed = { ...params, weight_hh_l0: p.tensors.weight_hh_l0 };
        sameBits(ops[kind](x, mixed, options).output, plain.output, `${kind} ${name} mixed`);
        const gPlain = ops[kind].backward(x, params, options, upstream);
        const gPrep = ops[kind].backward(x, p, options, upstream);
        for (const k of Object.keys(gPlain))
          sameBits(gPrep[k], gPlain[k], `${kind} ${name} grad ${k}`);
        assert.equal(
          lib.liveAllocations(),
          live + Object.keys(params).length,
          'calls leave only the prepared blocks',
        );
        p.dispose();
        assert.equal(lib.liveAllocations(), live, 'dispose() returns every block');
      }
    }
  });

  test(`${build}: prepare(): disposed objects, bad input and wrong shapes are clean errors`, () => {
    const err = (fn, re, code = 'AL_ERR_ARGUMENT') =>
      assert.throws(fn, (e) => {
        assert.ok(e instanceof AttnlabError, `not an AttnlabError: ${e}`);
        assert.match(e.message, re);
        assert.equal(e.code, code, e.message);
        return true;
      });
    const live = lib.liveAllocations();
    const x = { data: Float32Array.from({ length: 12 }, (_, i) => Math.sin(i)), shape: [4, 3] };
    const params = tinyParams('gru', 3, 2);
    const p = prepare(params);
    const w = p.tensors.weight_hh_l0;
    assert.deepEqual(w.shape, [6, 2]);
    assert.equal(w.size, 12);
    assert.deepEqual(Array.from(w.toTensor().data), Array.from(params.weight_hh_l0.data));
    p.dispose();
    p.dispose(); // harmless
    assert.equal(p.disposed, true);
    assert.equal(w.disposed, true);
    err(() => ops.gru(x, p), /gru: params has been disposed/);
    err(() => ops.gru.backward(x, p, {}, {}), /gru\.backward: params has been disposed/);
    err(() => p.tensors, /these params have been disposed/);
    err(
      () => ops.gru(x, { ...params, weight_hh_l0: w }),
      /gru: the prepared tensor params\.weight_hh_l0 has been disposed/,
    );
    err(() => w.toTensor(), /has been disposed/);
    assert.equal(lib.liveAllocations(), live);

    // checked once, when prepared, by name; nothing is left allocated by a failed prepare
    const bad = {
      ...params,
      bias_hh_l0: { data: new Float32Array([0, 1, Infinity, 0, 0, 0]), shape: [6] },
    };
    err(
      () => prepare(bad),
      /prepare: params\.bias_hh_l0 contains Infinity at flat index 2/,
      'AL_ERR_NONFINITE',
    );
    err(
      () => prepare({ ...params, weight_ih_l0: { data: [1, 2], shape: [2] } }),
      /params\.weight_ih_l0\.data must be a Float32Array/,
    );
    err(
      () => prepare({ ...params, bias_ih_l0: null }),
      /prepare: params\.bias_ih_l0 must be a tensor/,
    );
    err(() => prepare({}), /the params object is empty/);
    err(
      () => prepare({ w: { data: new Float32Array(4), shape: [2 ** 31, 1] } }),
      /params\.w has 2147483648 elements/,
      'AL_ERR_OVERFLOW',
    );
    err(
      () => prepare({ w: { data: new Float32Array(0), shape: [0, 3] } }),
      /params\.w is empty/,
      'AL_ERR_SHAPE',
    );
    err(() => prepare(null), /expected a tensor or an object of tensors/);
    err(
      () => prepare({ data: new Float32Array(3), shape: 'abc' }),
      /tensor\.shape must be an array of sizes/,
    );
    err(() => prepare({ data: [1, 2], shape: [2] }), /tensor\.data must be a Float32Array/);
    assert.equal(lib.liveAllocations(), live, 'failed prepares leak nothing');

    // shapes are checked at the call, with the plain call's messages
    const q = prepare(params);
    err(
      () => ops.lstm(x, q),
      /params\.weight_hh_l0 has shape \[6, 2\] but must be \[4·hidden_size, hidden_size\]/,
      'AL_ERR_SHAPE',
    );
    err(
      () => ops.gru({ data: new Float32Array(10), shape: [2, 5] }, q),
      /params\.weight_ih_l0 has shape \[6, 3\] but must be \[6, 5\]/,
      'AL_ERR_SHAPE',
    );
    err(() => prepare(q), /already prepared/);
    q.dispose();
    assert.equal(lib.liveAllocations(), live);
  });

  test(`${build}: a longer LSTM stays finite and leaks nothing`, () => {
    const I = 16;
    const H = 32;
    const T = 64;
    const p = tinyParams('lstm', I, H);
    const x = {
      data: Float32Array.from({ length: T * I }, (_, i) => Math.cos(i * 0.37)),
      shape: [T, I],
    };
    const r = ops.lstm(x, p, { bidirectional: false });
    assert.deepEqual(r.output.shape, [T, H]);
    assert.ok(r.output.data.every(Number.isFinite));
    const g = ops.lstm.backward(x, p, {}, { output: r.output });
    assert.ok(g.weight_hh_l0.data.every(Number.isFinite));
    assert.equal(lib.liveAllocations(), 0);
  });
}

for (const simd of [false, true]) runRecurrentSuite({ simd });
