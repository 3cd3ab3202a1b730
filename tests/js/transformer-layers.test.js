// The transformer layers against their PyTorch fixtures, run for both builds in this one process,
// each on its own instance (createAttnlab({ simd }), one wasm memory per build; see the bottom).
//
// Compares transformerEncoderLayer / transformerDecoderLayer (+ .backward) with
// torch.nn.TransformerEncoderLayer / TransformerDecoderLayer in
// tests/fixtures/transformer_layers.safetensors: outputs, per-head weights and the gradient of
// every input and parameter at atol 1e-5, rtol 1e-4. Also: defaults (relu, eps 1e-5, decoder
// causal), missing upstream entries are zero (linearity), error messages, no leaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createAttnlab, AttnlabError } from '../../wasm/index.js';
import { loadFixture, assertClose } from './fixtures.js';

const TOL = { atol: 1e-5, rtol: 1e-4 };
const ENC = [
  'self_attn.in_proj_weight',
  'self_attn.in_proj_bias',
  'self_attn.out_proj.weight',
  'self_attn.out_proj.bias',
  'linear1.weight',
  'linear1.bias',
  'linear2.weight',
  'linear2.bias',
  'norm1.weight',
  'norm1.bias',
  'norm2.weight',
  'norm2.bias',
];
const DEC = [
  ...ENC,
  'multihead_attn.in_proj_weight',
  'multihead_attn.in_proj_bias',
  'multihead_attn.out_proj.weight',
  'multihead_attn.out_proj.bias',
  'norm3.weight',
  'norm3.bias',
];

const tensor = (t) => ({ data: t.data, shape: t.shape });
const paramsOf = (t, names) => Object.fromEntries(names.map((n) => [n, tensor(t[n])]));

function optionsOf(c) {
  const t = c.tensors;
  const o = { nhead: c.nhead, normFirst: c.normFirst, activation: c.activation, causal: c.causal };
  if (c.layer === 'encoder') {
    if (t.key_padding_mask) o.keyPaddingMask = tensor(t.key_padding_mask);
  } else {
    if (t.tgt_key_padding_mask) o.tgtKeyPaddingMask = tensor(t.tgt_key_padding_mask);
    if (t.memory_key_padding_mask) o.memoryKeyPaddingMask = tensor(t.memory_key_padding_mask);
  }
  return o;
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

/** random parameters of the given layer with d_model E, feed-forward F */
function randomParams(names, E, F) {
  const shape = (n) => {
    if (n.endsWith('in_proj_weight')) return [3 * E, E];
    if (n.endsWith('in_proj_bias')) return [3 * E];
    if (n.endsWith('out_proj.weight')) return [E, E];
    if (n === 'linear1.weight') return [F, E];
    if (n === 'linear1.bias') return [F];
    if (n === 'linear2.weight') return [E, F];
    return [E];
  };
  return Object.fromEntries(names.map((n, i) => [n, ramp(shape(n), i + 11)]));
}

function runTransformerLayersSuite({ simd }) {
  const build = simd ? 'simd128' : 'scalar';
  let lib, ops; // this build's instance and its bound API
  const fixture = loadFixture('transformer_layers');
  const worst = { forward: 0, gradient: 0 };
  const note = (kind, r) => {
    worst[kind] = Math.max(worst[kind], r.maxAbsDiff);
  };

  test(`${build}: init loads the requested build`, async () => {
    lib = await createAttnlab({ simd });
    ({ ops } = lib);
    assert.equal(lib.simd, simd);
  });

  test(`${build}: transformerEncoderLayer matches torch.nn.TransformerEncoderLayer (forward and backward)`, () => {
    const cases = fixture.cases.filter((c) => c.layer === 'encoder');
    assert.ok(cases.length >= 6);
    assert.ok(
      cases.some((c) => c.dead_rows > 0),
      'a fully masked row is covered',
    );
    for (const c of cases) {
      const t = c.tensors;
      const params = paramsOf(t, ENC);
      const opts = optionsOf(c);
      const got = ops.transformerEncoderLayer(t.x, params, opts);
      assert.deepEqual(Object.keys(got).sort(), ['output', 'weights']);
      assert.deepEqual(got.output.shape, t.output.shape, `${c.name} output shape`);
      assert.deepEqual(got.weights.shape, t.weights.shape, `${c.name} weights shape`);
      note('forward', assertClose(got.output, t.output, { ...TOL, label: `${c.name} output` }));
      note('forward', assertClose(got.weights, t.weights, { ...TOL, label: `${c.name} weights` }));
      assert.ok(got.output.data.every(Number.isFinite), `${c.name}: no NaN`);
      const g = ops.transformerEncoderLayer.backward(t.x, params, opts, {
        output: t['upstream.output'],
        weights: t['upstream.weights'],
      });
      assert.deepEqual(Object.keys(g).sort(), ['x', ...ENC].sort());
      for (const name of ['x', ...ENC]) {
        assert.deepEqual(g[name].shape, t[`grad.${name}`].shape, `${c.name} grad ${name} shape`);
        note(
          'gradient',
          assertClose(g[name], t[`grad.${name}`], { ...TOL, label: `${c.name} grad ${name}` }),
        );
      }
    }
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: transformerDecoderLayer matches torch.nn.TransformerDecoderLayer (forward and backward)`, () => {
    const cases = fixture.cases.filter((c) => c.layer === 'decoder');
    assert.ok(cases.length >= 6);
    assert.ok(
      cases.some((c) => c.dead_rows > 0),
      'a fully masked row is covered',
    );
    assert.ok(
      cases.some((c) => c.S !== c.T),
      'S != T is covered',
    );
    for (const c of cases) {
      const t = c.tensors;
      const params = paramsOf(t, DEC);
      const opts = optionsOf(c);
      const got = ops.transformerDecoderLayer(t.x, t.memory, params, opts);
      assert.deepEqual(Object.keys(got).sort(), ['crossWeights', 'output', 'selfWeights']);
      for (const k of ['output', 'selfWeights', 'crossWeights']) {
        assert.deepEqual(got[k].shape, t[k].shape, `${c.name} ${k} shape`);
        note('forward', assertClose(got[k], t[k], { ...TOL, label: `${c.name} ${k}` }));
      }
      assert.ok(got.output.data.every(Number.isFinite), `${c.name}: no NaN`);
      const g = ops.transformerDecoderLayer.backward(t.x, t.memory, params, opts, {
        output: t['upstream.output'],
        selfWeights: t['upstream.selfWeights'],
        crossWeights: t['upstream.crossWeights'],
      });
      assert.deepEqual(Object.keys(g).sort(), ['x', 'memory', ...DEC].sort());
      for (const name of ['x', 'memory', ...DEC]) {
        assert.deepEqual(g[name].shape, t[`grad.${name}`].shape, `${c.name} grad ${name} shape`);
        note(
          'gradient',
          assertClose(g[name], t[`grad.${name}`], { ...TOL, label: `${c.name} grad ${name}` }),
        );
      }
    }
    console.log(
      `# ${build} transformer layers: worst |diff| forward ${worst.forward}, gradients ${worst.gradient}`,
    );
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: defaults are relu, post-norm, eps 1e-5; the decoder is causal unless told`, () => {
    const enc = fixture.cases.find((c) => c.name === 'enc_post_relu');
    const a = ops.transformerEncoderLayer(enc.tensors.x, paramsOf(enc.tensors, ENC), {
      nhead: enc.nhead,
    });
    assertClose(a.output, enc.tensors.output, { ...TOL, label: 'encoder defaults' });
    const b = ops.transformerEncoderLayer(enc.tensors.x, paramsOf(enc.tensors, ENC), {
      nhead: enc.nhead,
      layerNormEps: 1e-5,
      activation: 'relu',
      normFirst: false,
      causal: false,
    });
    assertClose(b.output, a.output, { atol: 0, rtol: 0, label: 'explicit defaults' });
    const dec = fixture.cases.find((c) => c.name === 'dec_post_relu');
    assert.equal(dec.causal, true);
    const d = ops.transformerDecoderLayer(
      dec.tensors.x,
      dec.tensors.memory,
      paramsOf(dec.tensors, DEC),
      { nhead: dec.nhead },
    );
    assertClose(d.output, dec.tensors.output, { ...TOL, label: 'decoder default causal' });
    const nc = ops.transformerDecoderLayer(
      dec.tensors.x,
      dec.tensors.memory,
      paramsOf(dec.tensors, DEC),
      { nhead: dec.nhead, causal: false },
    );
    assert.ok(nc.selfWeights.data[1] > 0, 'causal: false lets query 0 see key 1');
    // nested arrays work too
    const nested = ops.transformerEncoderLayer([[1, 2, 3, 4]], randomParams(ENC, 4, 3), {
      nhead: 2,
    });
    assert.deepEqual(nested.output.shape, [1, 4]);
    assert.deepEqual([...nested.weights.data], [1, 1]);
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: a missing upstream entry is zero (the backward is linear in upstream)`, () => {
    const c = fixture.cases.find((x) => x.name === 'dec_batch_masks_dead');
    const t = c.tensors;
    const p = paramsOf(t, DEC);
    const o = optionsOf(c);
    const ups = {
      output: t['upstream.output'],
      selfWeights: t['upstream.selfWeights'],
      crossWeights: t['upstream.crossWeights'],
    };
    const all = ops.transformerDecoderLayer.backward(t.x, t.memory, p, o, ups);
    const parts = Object.keys(ups).map((k) =>
      ops.transformerDecoderLayer.backward(t.x, t.memory, p, o, { [k]: ups[k] }),
    );
    assert.throws(
      () => ops.transformerDecoderLayer.backward(t.x, t.memory, p, o, {}),
      (e) => e instanceof AttnlabError && /upstream.*names none/.test(e.message),
    );
    for (const name of Object.keys(all)) {
      const sum = all[name].data.map((_, i) => parts.reduce((s, g) => s + g[name].data[i], 0));
      assertClose(sum, all[name], { atol: 1e-6, rtol: 1e-5, label: `decoder ${name} linear` });
    }
    const e = fixture.cases.find((x) => x.name === 'enc_batch_mask_dead');
    const ep = paramsOf(e.tensors, ENC);
    const eo = optionsOf(e);
    const eAll = ops.transformerEncoderLayer.backward(e.tensors.x, ep, eo, {
      output: e.tensors['upstream.output'],
      weights: e.tensors['upstream.weights'],
    });
    const eOut = ops.transformerEncoderLayer.backward(e.tensors.x, ep, eo, {
      output: e.tensors['upstream.output'],
    });
    const eW = ops.transformerEncoderLayer.backward(e.tensors.x, ep, eo, {
      weights: e.tensors['upstream.weights'],
    });
    for (const name of Object.keys(eAll)) {
      assertClose(
        eOut[name].data.map((x, i) => x + eW[name].data[i]),
        eAll[name],
        { atol: 1e-6, rtol: 1e-5, label: `encoder ${name} linear` },
      );
    }
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: errors name the problem`, () => {
    const expectError = (fn, re, code) =>
      assert.throws(fn, (err) => {
        assert.ok(err instanceof AttnlabError, `not an AttnlabError: ${err}`);
        assert.match(err.message, re);
        if (code) assert.equal(err.code, code);
        return true;
      });
    const enc = ops.transformerEncoderLayer;
    const dec = ops.transformerDecoderLayer;
    const x = ramp([3, 6], 1);
    const mem = ramp([4, 6], 2);
    const pe = randomParams(ENC, 6, 5);
    const pd = randomParams(DEC, 6, 5);
    const { 'norm2.weight': _n2, ...noNorm2 } = pe;
    expectError(() => enc(x, noNorm2, { nhead: 2 }), /params\['norm2\.weight'\] is missing/);
    const { 'norm3.bias': _n3, ...noNorm3 } = pd;
    expectError(() => dec(x, mem, noNorm3, { nhead: 2 }), /params\['norm3\.bias'\] is missing/);
    expectError(
      () => enc(x, pe, { nhead: 4 }),
      /d_model 6 \(the last dimension of x, shape \[3, 6\]\) is not divisible by nhead 4/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => dec(x, mem, pd, { nhead: 5 }),
      /d_model 6 \(the last dimension of x.*\) is not divisible by nhead 5/,
      'AL_ERR_SHAPE',
    );
    expectError(() => enc(x, pe, {}), /options\.nhead is missing/);
    expectError(
      () => enc(x, pe, { nhead: 2, normFirst: 'false' }),
      /options\.normFirst must be true or false, got "false"/,
    );
    expectError(
      () => dec(x, mem, pd, { nhead: 2, causal: 0 }),
      /options\.causal must be true or false, got 0/,
    );
    expectError(
      () => enc(x, { ...pe, 'linear1.weight': ramp([7, 6], 1) }, { nhead: 2 }),
      /params\['linear1\.bias'\] has shape \[5\] but must be \[7\] \(dim_feedforward 7 is read from params\['linear1\.weight'\]/,
    );
    expectError(() => enc(x, pe), /options\.nhead is missing/);
    expectError(() => enc(x, pe, { nhead: 0 }), /nhead must be an integer >= 1, got 0/);
    expectError(
      () => enc(x, pe, { nhead: 2, activation: 'tanh' }),
      /activation must be 'relu' or 'gelu'/,
    );
    expectError(
      () => enc(x, pe, { nhead: 2, layerNormEps: 0 }),
      /layerNormEps must be a finite number > 0/,
    );
    expectError(() => enc(x, pe, { nhead: 2, numHeads: 2 }), /unknown option 'numHeads'/);
    expectError(
      () => enc(x, pe, { nhead: 2, memoryKeyPaddingMask: [0] }),
      /unknown option 'memoryKeyPaddingMask'/,
    );
    expectError(
      () => enc(x, pd, { nhead: 2 }),
      /unknown parameter params\['multihead_attn\.in_proj_weight'\]/,
    );
    expectError(() => enc(x, null, { nhead: 2 }), /params must be an object/);
    expectError(
      () => enc(x, { ...pe, 'norm1.bias': ramp([5], 1) }, { nhead: 2 }),
      /params\['norm1\.bias'\] has shape \[5\] but must be \[6\]/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => enc(x, { ...pe, 'linear2.weight': ramp([6, 4], 1) }, { nhead: 2 }),
      /params\['linear2\.weight'\] has shape \[6, 4\] but must be \[6, 5\]/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => enc(x, { ...pe, 'linear1.weight': ramp([5, 4], 1) }, { nhead: 2 }),
      /params\['linear1\.weight'\] has shape \[5, 4\] but must be \[dim_feedforward, 6\]/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => enc(x, { ...pe, 'self_attn.in_proj_weight': ramp([18, 5], 1) }, { nhead: 2 }),
      /params\['self_attn\.in_proj_weight'\] has shape \[18, 5\] but must be \[18, 6\]/,
    );
    expectError(
      () => enc(ramp([6], 1), pe, { nhead: 2 }),
      /x must have rank 2 or 3/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => enc(x, pe, { nhead: 2, keyPaddingMask: [true, false] }),
      /keyPaddingMask has shape \[2\] but must be \[3\]/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => dec(x, ramp([4, 5], 2), pd, { nhead: 2 }),
      /x has 6 features but memory has 5/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => dec(ramp([2, 3, 6], 1), ramp([3, 4, 6], 2), pd, { nhead: 2 }),
      /x has batch 2 but memory has 3/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => dec(x, ramp([2, 4, 6], 2), pd, { nhead: 2 }),
      /x has rank 2 but memory has rank 3/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => dec(x, mem, pd, { nhead: 2, memoryKeyPaddingMask: [0, 1, 0] }),
      /memoryKeyPaddingMask has shape \[3\] but must be \[4\]/,
    );
    expectError(
      () => dec(x, mem, pd, { nhead: 2, tgtKeyPaddingMask: [0, 1, 0, 0] }),
      /tgtKeyPaddingMask has shape \[4\] but must be \[3\]/,
    );
    expectError(
      () => dec(x, mem, pd, { nhead: 2, keyPaddingMask: [0, 1, 0] }),
      /unknown option 'keyPaddingMask'/,
    );
    const bad = ramp([4, 6], 2);
    bad.data[3] = NaN;
    expectError(
      () => dec(x, bad, pd, { nhead: 2 }),
      /memory contains NaN at flat index 3/,
      'AL_ERR_NONFINITE',
    );
    expectError(() => enc.backward(x, pe, { nhead: 2 }), /upstream must be an object/);
    expectError(() => enc.backward(x, pe, { nhead: 2 }, { out: x }), /unknown upstream 'out'/);
    expectError(
      () => enc.backward(x, pe, { nhead: 2 }, { output: mem }),
      /upstream\.output has shape \[4, 6\] but the output has shape \[3, 6\]/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => enc.backward(x, pe, { nhead: 2 }, { weights: ramp([3, 3], 1) }),
      /upstream\.weights has shape \[3, 3\] but the weights has shape \[2, 3, 3\]/,
    );
    expectError(
      () => dec.backward(x, mem, pd, { nhead: 2 }, { crossWeights: ramp([2, 3, 3], 1) }),
      /upstream\.crossWeights has shape \[2, 3, 3\] but the crossWeights has shape \[2, 3, 4\]/,
    );
    expectError(
      () => dec.backward(x, mem, pd, { nhead: 2 }, { weights: ramp([2, 3, 3], 1) }),
      /unknown upstream 'weights'/,
    );
    assert.equal(lib.liveAllocations(), 0, 'failed calls free what they allocated');
  });

  test(`${build}: many calls leave no live allocations and memory at its baseline`, () => {
    const e = fixture.cases.find((c) => c.name === 'enc_batch_mask_dead');
    const d = fixture.cases.find((c) => c.name === 'dec_pre_batch_masks');
    const run = () => {
      ops.transformerEncoderLayer(e.tensors.x, paramsOf(e.tensors, ENC), optionsOf(e));
      ops.transformerEncoderLayer.backward(e.tensors.x, paramsOf(e.tensors, ENC), optionsOf(e), {
        output: e.tensors['upstream.output'],
      });
      ops.transformerDecoderLayer(
        d.tensors.x,
        d.tensors.memory,
        paramsOf(d.tensors, DEC),
        optionsOf(d),
      );
      ops.transformerDecoderLayer.backward(
        d.tensors.x,
        d.tensors.memory,
        paramsOf(d.tensors, DEC),
        optionsOf(d),
        { crossWeights: d.tensors['upstream.crossWeights'] },
      );
    };
    run();
    const mem = lib.memoryBytes();
    for (let i = 0; i < 200; i++) run();
    assert.equal(lib.liveAllocations(), 0);
    assert.equal(lib.memoryBytes(), mem);
  });
}

for (const simd of [false, true]) runTransformerLayersSuite({ simd });
