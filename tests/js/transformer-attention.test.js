// The transformer attention family against its PyTorch fixtures, run for both builds in this one
// process, each on its own instance (createAttnlab({ simd }), one wasm memory per build; see the
// bottom).
//
// Compares: scaledDotProductAttention.backward with tests/fixtures/sdpa_backward.safetensors,
// multiHeadAttention (+ .backward) with torch.nn.MultiheadAttention in tests/fixtures/mha.safetensors,
// relativePositionAttention (+ .backward) with the Shaw et al. reference in
// tests/fixtures/relative.safetensors; forward outputs, weights and every gradient at atol 1e-5,
// rtol 1e-4. Also: missing upstream entries are zero (linearity), error messages, no leaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createAttnlab, AttnlabError } from '../../wasm/index.js';
import { loadFixture, assertClose } from './fixtures.js';

const TOL = { atol: 1e-5, rtol: 1e-4 };

const tensor = (t) => ({ data: t.data, shape: t.shape });
const mhaParams = (t) => ({
  in_proj_weight: t.in_proj_weight,
  in_proj_bias: t.in_proj_bias,
  'out_proj.weight': t['out_proj.weight'],
  'out_proj.bias': t['out_proj.bias'],
});
const relParams = (t) => ({ W_Q: t.W_Q, W_K: t.W_K, W_V: t.W_V, rel_K: t.rel_K, rel_V: t.rel_V });

/** worst |diff| over a list of assertClose results, for the log line */
function worstOf(results) {
  return Math.max(0, ...results.map((r) => r.maxAbsDiff));
}

function ramp(shape, seed) {
  const n = shape.reduce((a, b) => a * b, 1);
  const data = new Float32Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    data[i] = (s / 4294967296) * 2 - 1;
  }
  return { data, shape };
}

function runTransformerAttentionSuite({ simd }) {
  const build = simd ? 'simd128' : 'scalar';
  let lib, ops; // this build's instance and its bound API

  test(`${build}: init loads the requested build`, async () => {
    lib = await createAttnlab({ simd });
    ({ ops } = lib);
    assert.equal(lib.simd, simd);
  });

  test(`${build}: scaledDotProductAttention.backward matches every PyTorch fixture case`, () => {
    const { cases } = loadFixture('sdpa_backward');
    assert.ok(cases.length >= 10);
    const diffs = [];
    for (const c of cases) {
      const t = c.tensors;
      const opts = { causal: c.causal };
      if (c.scale !== null) opts.scale = c.scale;
      if (t.key_padding_mask) opts.keyPaddingMask = tensor(t.key_padding_mask);
      const fwd = ops.scaledDotProductAttention(t.query, t.key, t.value, {
        ...opts,
        returnWeights: true,
      });
      diffs.push(assertClose(fwd.output, t.output, { ...TOL, label: `${c.name} output` }));
      const upstream = { output: t.upstream_output };
      if (c.upstream.includes('weights')) upstream.weights = t.upstream_weights;
      const g = ops.scaledDotProductAttention.backward(t.query, t.key, t.value, opts, upstream);
      assert.deepEqual(Object.keys(g).sort(), ['key', 'query', 'value']);
      for (const name of ['query', 'key', 'value']) {
        assert.deepEqual(g[name].shape, t[name].shape, `${c.name} ${name} shape`);
        diffs.push(
          assertClose(g[name], t[`grad.${name}`], { ...TOL, label: `${c.name} grad ${name}` }),
        );
      }
    }
    console.log(`# ${build} sdpa backward: worst |diff| ${worstOf(diffs)}`);
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: multiHeadAttention matches torch.nn.MultiheadAttention (forward and backward)`, () => {
    const { cases } = loadFixture('mha');
    assert.ok(cases.length >= 10);
    assert.ok(
      cases.some((c) => c.dead_rows > 0),
      'a fully masked row is covered',
    );
    const diffs = [];
    for (const c of cases) {
      const t = c.tensors;
      const opts = { numHeads: c.numHeads, causal: c.causal };
      if (t.key_padding_mask) opts.keyPaddingMask = tensor(t.key_padding_mask);
      // self-attention: the one tensor passed three times
      const [q, k, v] = c.self ? [t.query, t.query, t.query] : [t.query, t.key, t.value];
      const got = ops.multiHeadAttention(q, k, v, mhaParams(t), opts);
      assert.deepEqual(got.output.shape, t.output.shape, `${c.name} output shape`);
      assert.deepEqual(got.weights.shape, t.weights.shape, `${c.name} weights shape`);
      diffs.push(assertClose(got.output, t.output, { ...TOL, label: `${c.name} output` }));
      diffs.push(assertClose(got.weights, t.weights, { ...TOL, label: `${c.name} weights` }));
      assert.ok(got.output.data.every(Number.isFinite), `${c.name}: no NaN`);
      const noWeights = ops.multiHeadAttention(q, k, v, mhaParams(t), {
        ...opts,
        needWeights: false,
      });
      assert.equal(noWeights.weights, null);
      assertClose(noWeights.output, got.output, {
        atol: 0,
        rtol: 0,
        label: `${c.name} needWeights false`,
      });

      const g = ops.multiHeadAttention.backward(q, k, v, mhaParams(t), opts, {
        output: t.upstream_output,
        weights: t.upstream_weights,
      });
      const names = [
        'query',
        'key',
        'value',
        'in_proj_weight',
        'in_proj_bias',
        'out_proj.weight',
        'out_proj.bias',
      ];
      assert.deepEqual(Object.keys(g).sort(), [...names].sort());
      for (const name of names) {
        diffs.push(
          assertClose(g[name], t[`grad.${name}`], { ...TOL, label: `${c.name} grad ${name}` }),
        );
      }
    }
    console.log(`# ${build} mha: worst |diff| ${worstOf(diffs)}`);
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: relativePositionAttention matches the Shaw et al. torch reference (forward and backward)`, () => {
    const { cases } = loadFixture('relative');
    assert.ok(cases.length >= 6);
    const diffs = [];
    for (const c of cases) {
      const t = c.tensors;
      const opts = {
        maxRelativePosition: c.maxRelativePosition,
        numHeads: c.numHeads,
        causal: c.causal,
      };
      if (t.key_padding_mask) opts.keyPaddingMask = tensor(t.key_padding_mask);
      const got = ops.relativePositionAttention(t.x, relParams(t), opts);
      assert.deepEqual(got.output.shape, t.output.shape, `${c.name} output shape`);
      assert.deepEqual(got.weights.shape, t.weights.shape, `${c.name} weights shape`);
      diffs.push(assertClose(got.output, t.output, { ...TOL, label: `${c.name} output` }));
      diffs.push(assertClose(got.weights, t.weights, { ...TOL, label: `${c.name} weights` }));
      const g = ops.relativePositionAttention.backward(t.x, relParams(t), opts, {
        output: t.upstream_output,
        weights: t.upstream_weights,
      });
      const names = ['x', 'W_Q', 'W_K', 'W_V', 'rel_K', 'rel_V'];
      assert.deepEqual(Object.keys(g).sort(), [...names].sort());
      for (const name of names) {
        assert.deepEqual(g[name].shape, t[`grad.${name}`].shape, `${c.name} grad ${name} shape`);
        diffs.push(
          assertClose(g[name], t[`grad.${name}`], { ...TOL, label: `${c.name} grad ${name}` }),
        );
      }
    }
    // maxRelativePosition may be left out: it is read from rel_K's 2k+1 rows
    const c = cases.find((x) => x.name === 'k2_n5_h1');
    const inferred = ops.relativePositionAttention(c.tensors.x, relParams(c.tensors), {});
    assertClose(inferred.output, c.tensors.output, { ...TOL, label: 'inferred k' });
    console.log(`# ${build} relative: worst |diff| ${worstOf(diffs)}`);
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: relativePositionAttention.distances is clip(j - i, -k, k)`, () => {
    const d = ops.relativePositionAttention.distances(4, 2);
    assert.ok(d.data instanceof Int32Array);
    assert.deepEqual(d.shape, [4, 4]);
    assert.deepEqual([...d.data], [0, 1, 2, 2, -1, 0, 1, 2, -2, -1, 0, 1, -2, -2, -1, 0]);
    assert.deepEqual([...ops.relativePositionAttention.distances(1, 0).data], [0]);
    assert.deepEqual([...ops.relativePositionAttention.distances(3, 0).data], new Array(9).fill(0));
  });

  test(`${build}: a missing upstream entry is zero (the backward is linear in upstream)`, () => {
    const t = loadFixture('mha').cases.find((c) => c.name === 'mask_dead_batch').tensors;
    const opts = { numHeads: 2, keyPaddingMask: tensor(t.key_padding_mask) };
    const both = ops.multiHeadAttention.backward(t.query, t.key, t.value, mhaParams(t), opts, {
      output: t.upstream_output,
      weights: t.upstream_weights,
    });
    const out = ops.multiHeadAttention.backward(t.query, t.key, t.value, mhaParams(t), opts, {
      output: t.upstream_output,
    });
    const w = ops.multiHeadAttention.backward(t.query, t.key, t.value, mhaParams(t), opts, {
      weights: t.upstream_weights,
    });
    assert.throws(
      () => ops.multiHeadAttention.backward(t.query, t.key, t.value, mhaParams(t), opts, {}),
      (e) => e instanceof AttnlabError && /upstream.*names none/.test(e.message),
    );
    for (const name of Object.keys(both)) {
      const sum = out[name].data.map((x, i) => x + w[name].data[i]);
      assertClose(sum, both[name], { atol: 1e-6, rtol: 1e-5, label: `mha ${name} linear` });
    }
    const r = loadFixture('relative').cases.find((c) => c.name === 'k1_n6_h2').tensors;
    const ro = { numHeads: 2, maxRelativePosition: 1 };
    const rb = ops.relativePositionAttention.backward(r.x, relParams(r), ro, {
      output: r.upstream_output,
      weights: r.upstream_weights,
    });
    const rOut = ops.relativePositionAttention.backward(r.x, relParams(r), ro, {
      output: r.upstream_output,
    });
    const rW = ops.relativePositionAttention.backward(r.x, relParams(r), ro, {
      weights: r.upstream_weights,
    });
    for (const name of Object.keys(rb)) {
      assertClose(
        rOut[name].data.map((x, i) => x + rW[name].data[i]),
        rb[name],
        { atol: 1e-6, rtol: 1e-5, label: `relative ${name} linear` },
      );
    }
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: errors name the problem`, () => {
    const expectError = (fn, re, code) =>
      assert.throws(fn, (e) => {
        assert.ok(e instanceof AttnlabError, `not an AttnlabError: ${e}`);
        assert.match(e.message, re);
        if (code) assert.equal(e.code, code);
        return true;
      });
    const x = ramp([3, 6], 1);
    const kv = ramp([4, 6], 2);
    const p = {
      in_proj_weight: ramp([18, 6], 3),
      in_proj_bias: ramp([18], 4),
      'out_proj.weight': ramp([6, 6], 5),
      'out_proj.bias': ramp([6], 6),
    };
    const mha = ops.multiHeadAttention;
    expectError(() => mha(x, kv, kv, p, {}), /options\.numHeads is missing/);
    expectError(() => mha(x, kv, kv, p), /options\.numHeads is missing/);
    expectError(
      () => mha(x, kv, kv, p, { numHeads: 0 }),
      /numHeads must be an integer >= 1, got 0/,
    );
    expectError(() => mha(x, kv, kv, p, { numHeads: 1.5 }), /numHeads must be an integer/);
    expectError(
      () => mha(x, kv, kv, p, { numHeads: 4 }),
      /embedding size 6 is not divisible by numHeads 4/,
      'AL_ERR_SHAPE',
    );
    expectError(() => mha(x, kv, kv, p, { numHeads: 2, heads: 2 }), /unknown option 'heads'/);
    expectError(
      () => mha(x, kv, kv, { ...p, in_proj_weight: undefined }, { numHeads: 2 }),
      /params\.in_proj_weight is missing/,
    );
    const { 'out_proj.bias': _, ...noBias } = p;
    expectError(() => mha(x, kv, kv, noBias, { numHeads: 2 }), /params\.out_proj\.bias is missing/);
    expectError(
      () => mha(x, kv, kv, { ...p, q_proj_weight: p.in_proj_weight }, { numHeads: 2 }),
      /unknown parameter params\.q_proj_weight/,
    );
    expectError(
      () => mha(x, kv, kv, { ...p, in_proj_weight: ramp([18, 5], 3) }, { numHeads: 2 }),
      /params\.in_proj_weight has shape \[18, 5\] but must be \[18, 6\]/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => mha(x, ramp([4, 5], 2), kv, p, { numHeads: 2 }),
      /query has 6 features but key has 5/,
    );
    expectError(
      () => mha(x, kv, ramp([3, 6], 2), p, { numHeads: 2 }),
      /key has 4 rows but value has 3/,
    );
    expectError(
      () => mha(ramp([2, 3, 6], 1), ramp([3, 4, 6], 2), ramp([3, 4, 6], 2), p, { numHeads: 2 }),
      /query has batch 2 but key has 3/,
    );
    expectError(
      () => mha(x, kv, kv, p, { numHeads: 2, keyPaddingMask: [true, false] }),
      /keyPaddingMask has shape \[2\] but must be \[4\]/,
    );
    expectError(() => mha(x, kv, kv, null, { numHeads: 2 }), /params must be an object/);
    const bad = ramp([4, 6], 2);
    bad.data[5] = NaN;
    expectError(
      () => mha(x, bad, kv, p, { numHeads: 2 }),
      /key contains NaN at flat index 5/,
      'AL_ERR_NONFINITE',
    );
    expectError(() => mha.backward(x, kv, kv, p, { numHeads: 2 }), /upstream must be an object/);
    expectError(
      () => mha.backward(x, kv, kv, p, { numHeads: 2 }, { out: x }),
      /unknown upstream 'out'/,
    );
    expectError(
      () => mha.backward(x, kv, kv, p, { numHeads: 2 }, { output: kv }),
      /upstream\.output has shape \[4, 6\] but the output has shape \[3, 6\]/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => mha.backward(x, kv, kv, p, { numHeads: 2 }, { weights: ramp([3, 4], 1) }),
      /upstream\.weights has shape \[3, 4\] but the weights has shape \[2, 3, 4\]/,
    );

    const rel = ops.relativePositionAttention;
    const xr = ramp([5, 3], 7);
    const rp = {
      W_Q: ramp([4, 3], 1),
      W_K: ramp([4, 3], 2),
      W_V: ramp([4, 3], 3),
      rel_K: ramp([5, 2], 4),
      rel_V: ramp([5, 2], 5),
    };
    expectError(
      () => rel(xr, rp, { maxRelativePosition: 2, numHeads: 3 }),
      /dz = 4 is not divisible by numHeads 3/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => rel(xr, rp, { maxRelativePosition: 2 }),
      /params\.rel_K has shape \[5, 2\] but must be \[5, 4\]/,
    );
    expectError(
      () => rel(xr, rp, { maxRelativePosition: 1, numHeads: 2 }),
      /params\.rel_K has shape \[5, 2\] but must be \[3, 2\]/,
    );
    expectError(
      () => rel(xr, rp, { maxRelativePosition: -1, numHeads: 2 }),
      /maxRelativePosition must be an integer >= 0/,
    );
    expectError(
      () => rel(xr, { ...rp, rel_V: undefined }, { maxRelativePosition: 2, numHeads: 2 }),
      /params\.rel_V is missing/,
    );
    expectError(
      () => rel(xr, { ...rp, W_Q: undefined }, { numHeads: 2 }),
      /params\.W_Q is missing/,
    );
    expectError(
      () => rel(xr, { ...rp, W_K: ramp([4, 2], 2) }, { numHeads: 2 }),
      /params\.W_K has shape \[4, 2\] but must be \[4, 3\]/,
    );
    expectError(
      () => rel(xr, { ...rp, W_Q: ramp([4, 2], 2) }, { numHeads: 2 }),
      /W_Q must be \[dz, 3\]/,
    );
    expectError(() => rel(xr, rp, { numHeads: 2, window: 3 }), /unknown option 'window'/);
    expectError(
      () => rel(xr, rp, { numHeads: 2, keyPaddingMask: [1, 0] }),
      /keyPaddingMask has shape \[2\] but must be \[5\]/,
    );
    expectError(
      () => rel(xr, { ...rp, rel_K: ramp([4, 2], 4) }, { numHeads: 2 }),
      /maxRelativePosition is missing/,
    );
    expectError(
      () => rel.backward(xr, rp, { numHeads: 2 }, { output: ramp([5, 3], 1) }),
      /upstream\.output has shape \[5, 3\] but the output has shape \[5, 4\]/,
    );
    expectError(() => rel.distances(0, 1), /n must be an integer >= 1/);
    expectError(() => rel.distances(3, -1), /k \(maxRelativePosition\) must be an integer >= 0/);

    const sdpa = ops.scaledDotProductAttention;
    expectError(
      () => sdpa.backward(x, kv, kv, {}, { output: kv }),
      /upstream\.output has shape \[4, 6\] but the output has shape \[3, 6\]/,
    );
    expectError(
      () => sdpa.backward(x, kv, kv, {}, { weights: ramp([3, 5], 1) }),
      /upstream\.weights has shape \[3, 5\] but the weights has shape \[3, 4\]/,
    );
    expectError(() => sdpa.backward(x, kv, kv, { causul: true }, {}), /unknown option 'causul'/);
    expectError(() => sdpa.backward(x, kv, kv), /upstream gradients are missing/); // (x, kv, kv, {}) is an explicit zero upstream
    assert.equal(lib.liveAllocations(), 0, 'failed calls free what they allocated');
  });

  test(`${build}: many calls leave no live allocations and memory at its baseline`, () => {
    const t = loadFixture('mha').cases.find((c) => c.name === 'e12_h4_batch').tensors;
    const r = loadFixture('relative').cases.find((c) => c.name === 'batch_mask_dead').tensors;
    const s = loadFixture('sdpa_backward').cases.find((c) => c.name === 'heads3').tensors;
    const run = () => {
      ops.multiHeadAttention(t.query, t.key, t.value, mhaParams(t), { numHeads: 4 });
      ops.multiHeadAttention.backward(
        t.query,
        t.key,
        t.value,
        mhaParams(t),
        { numHeads: 4 },
        { output: t.upstream_output },
      );
      ops.relativePositionAttention(r.x, relParams(r), { numHeads: 2, maxRelativePosition: 1 });
      ops.relativePositionAttention.backward(
        r.x,
        relParams(r),
        { numHeads: 2, maxRelativePosition: 1 },
        { weights: r.upstream_weights },
      );
      ops.relativePositionAttention.distances(7, 2);
      ops.scaledDotProductAttention.backward(
        s.query,
        s.key,
        s.value,
        {},
        { output: s.upstream_output, weights: s.upstream_weights },
      );
    };
    run();
    const mem = lib.memoryBytes();
    for (let i = 0; i < 300; i++) run();
    assert.equal(lib.liveAllocations(), 0);
    assert.equal(lib.memoryBytes(), mem);
  });
}

for (const simd of [false, true]) runTransformerAttentionSuite({ simd });
