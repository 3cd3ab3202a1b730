// The pooling ops' JS suite, run for both builds in this one process, each on its own instance
// (createAttnlab({ simd }), one wasm memory per build; see the bottom).
//
// Compares attentionPooling, contextPooling and structuredSelfAttention, forward and backward,
// with the PyTorch float64 fixtures of scripts/fixture_modules/pooling.py (atol 1e-5,
// rtol 1e-4), then checks the API's own promises: missing upstream entries mean zero, a [n] mask
// broadcasts over a batch, a batch equals its items one by one, fully masked sequences give
// zeros, errors name the tensor, and nothing leaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createAttnlab, AttnlabError } from '../../wasm/index.js';
import { loadFixture, assertClose } from './fixtures.js';

/** Deterministic uniform floats in [lo, hi) (xorshift32, as api-suite.js). */
function randomTensor(shape, seed, lo = -1, hi = 1) {
  let s = seed >>> 0 || 1;
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
  return { data, shape };
}

const TOL = { atol: 1e-5, rtol: 1e-4 };
const PARAMS = {
  attentionPooling: ['w'],
  contextPooling: ['W', 'b', 'u'],
  structuredSelfAttention: ['W_s1', 'W_s2'],
};
const OUTPUTS = {
  attentionPooling: ['r', 'hStar', 'weights'],
  contextPooling: ['s', 'weights'],
  structuredSelfAttention: ['M', 'weights', 'penalty'],
};

const params = (op, t) => Object.fromEntries(PARAMS[op].map((k) => [k, t[k]]));
const maskOf = (t) => (t.mask ? { data: t.mask.data, shape: t.mask.shape } : undefined);
const zerosLike = (t) => ({ data: new Float32Array(t.data.length), shape: t.shape.slice() });

function runPoolingSuite({ simd }) {
  const build = simd ? 'simd128' : 'scalar';
  let lib, ops; // this build's instance and its bound API

  test(`${build}: init loads the requested build`, async () => {
    lib = await createAttnlab({ simd });
    ({ ops } = lib);
    assert.equal(lib.simd, simd);
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: pooling ops match every PyTorch fixture case, forward and backward`, (t) => {
    const { cases } = loadFixture('pooling');
    assert.ok(cases.length >= 15);
    const worst = { forward: 0, backward: 0 };
    const note = (kind, r) => {
      worst[kind] = Math.max(worst[kind], r.maxAbsDiff);
    };
    for (const c of cases) {
      const T = c.tensors;
      const fn = ops[c.op];
      const opts = T.mask ? { mask: maskOf(T) } : undefined;
      const got = fn(T.H, params(c.op, T), opts);
      assert.deepEqual(Object.keys(got).sort(), OUTPUTS[c.op].slice().sort(), c.name);
      for (const k of OUTPUTS[c.op]) {
        if (k === 'penalty' && !c.batched) {
          assert.equal(typeof got.penalty, 'number', `${c.name}: unbatched penalty is a number`);
          note(
            'forward',
            assertClose([got.penalty], T.penalty.data, { ...TOL, label: `${c.name} penalty` }),
          );
        } else {
          note('forward', assertClose(got[k], T[k], { ...TOL, label: `${c.name} ${k}` }));
        }
      }
      const upstream = {};
      for (const k of OUTPUTS[c.op]) {
        const u = T[`up_${k}`];
        upstream[k] = k === 'penalty' && !c.batched ? u.data[0] : u;
      }
      const grads = fn.backward(T.H, params(c.op, T), opts, upstream);
      assert.deepEqual(Object.keys(grads).sort(), ['H', ...PARAMS[c.op]].sort(), c.name);
      for (const k of ['H', ...PARAMS[c.op]]) {
        note(
          'backward',
          assertClose(grads[k], T[`grad_${k}`], { ...TOL, label: `${c.name} gradient of ${k}` }),
        );
      }
    }
    t.diagnostic(
      `worst |diff| vs PyTorch: forward ${worst.forward.toExponential(2)}, backward ${worst.backward.toExponential(2)}`,
    );
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: a missing upstream entry means zero; backward(H, params, upstream) also works`, () => {
    const { cases } = loadFixture('pooling');
    for (const name of ['ap_mask', 'cp_batch_mask', 'ssa_batch_mask_r3', 'ssa_r1']) {
      const c = cases.find((x) => x.name === name);
      const T = c.tensors;
      const fn = ops[c.op];
      const opts = T.mask ? { mask: maskOf(T) } : {};
      const [first, ...rest] = OUTPUTS[c.op];
      const only = { [first]: T[`up_${first}`] };
      const explicit = { ...only };
      for (const k of rest)
        explicit[k] = k === 'penalty' ? (c.batched ? zerosLike(T.penalty) : 0) : zerosLike(T[k]);
      const a = fn.backward(T.H, params(c.op, T), opts, only);
      const b = fn.backward(T.H, params(c.op, T), opts, explicit);
      for (const k of Object.keys(a))
        assertClose(a[k], b[k], { atol: 0, rtol: 0, label: `${name} ${k}` });
      assert.throws(
        () => fn.backward(T.H, params(c.op, T), opts, {}),
        (e) => e instanceof AttnlabError && /upstream.*names none/.test(e.message),
        `${name}: an empty upstream is refused`,
      );
      if (!T.mask) {
        // the three-argument form, options left out
        const three = fn.backward(T.H, params(c.op, T), only);
        for (const k of Object.keys(a))
          assertClose(three[k], a[k], { atol: 0, rtol: 0, label: `${name} 3-arg ${k}` });
      }
    }
  });

  test(`${build}: a batch equals its items one by one, and a [n] mask broadcasts over it`, () => {
    const B = 3;
    const n = 6;
    const d = 5;
    const H = randomTensor([B, n, d], 71, -2, 2);
    const P = {
      attentionPooling: { w: randomTensor([d], 72, -3, 3) },
      contextPooling: {
        W: randomTensor([3, d], 73),
        b: randomTensor([3], 74),
        u: randomTensor([3], 75, -3, 3),
      },
      structuredSelfAttention: {
        W_s1: randomTensor([7, d], 76),
        W_s2: randomTensor([3, 7], 77, -3, 3),
      },
    };
    const mask = [false, true, false, false, true, false];
    for (const op of Object.keys(P)) {
      const whole = ops[op](H, P[op], { mask });
      const whole2 = ops[op](H, P[op], { mask: [mask, mask, mask] });
      const flat = Uint8Array.from([...mask, ...mask, ...mask], Number); // [B·n] read as [B, n]
      assertClose(ops[op](H, P[op], { mask: flat }).weights, whole.weights, {
        atol: 0,
        rtol: 0,
        label: `${op} flat Uint8Array mask`,
      });
      const up = {};
      for (const k of OUTPUTS[op]) {
        up[k] = k === 'penalty' ? randomTensor([B], 78) : randomTensor(whole[k].shape, 79);
      }
      const gWhole = ops[op].backward(H, P[op], { mask }, up);
      const gSum = Object.fromEntries(
        PARAMS[op].map((k) => [k, new Float64Array(P[op][k].data.length)]),
      );
      for (let b = 0; b < B; b++) {
        const Hb = { data: H.data.slice(b * n * d, (b + 1) * n * d), shape: [n, d] };
        const one = ops[op](Hb, P[op], { mask });
        const upb = {};
        for (const k of OUTPUTS[op]) {
          if (k === 'penalty') {
            assertClose([one.penalty], [whole.penalty.data[b]], {
              atol: 0,
              rtol: 0,
              label: `${op} penalty ${b}`,
            });
            upb.penalty = up.penalty.data[b];
            continue;
          }
          const per = one[k].data.length;
          assertClose(one[k].data, whole[k].data.subarray(b * per, (b + 1) * per), {
            atol: 0,
            rtol: 0,
            label: `${op} ${k} item ${b}`,
          });
          assertClose(whole2[k].data, whole[k].data, {
            atol: 0,
            rtol: 0,
            label: `${op} ${k} [n] vs [B,n] mask`,
          });
          upb[k] = { data: up[k].data.slice(b * per, (b + 1) * per), shape: one[k].shape };
        }
        const g = ops[op].backward(Hb, P[op], { mask }, upb);
        assertClose(g.H.data, gWhole.H.data.subarray(b * n * d, (b + 1) * n * d), {
          atol: 0,
          rtol: 0,
          label: `${op} dH item ${b}`,
        });
        for (const k of PARAMS[op])
          g[k].data.forEach((v, i) => {
            gSum[k][i] += v;
          });
      }
      for (const k of PARAMS[op])
        assertClose(gWhole[k].data, gSum[k], {
          atol: 1e-6,
          rtol: 1e-5,
          label: `${op} d${k} sums the batch`,
        });
      // a number as the penalty's upstream broadcasts over the batch
      if (op === 'structuredSelfAttention') {
        const a = ops[op].backward(H, P[op], { mask }, { penalty: 0.5 });
        const b = ops[op].backward(
          H,
          P[op],
          { mask },
          { penalty: { data: new Float32Array(B).fill(0.5), shape: [B] } },
        );
        assertClose(a.W_s1, b.W_s1, {
          atol: 0,
          rtol: 0,
          label: 'penalty upstream number broadcasts',
        });
      }
    }
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: a fully masked sequence gives zero weights, zero outputs and zero gradients`, () => {
    const H = randomTensor([4, 3], 81, -2, 2);
    const mask = [true, true, true, true];
    const ap = ops.attentionPooling(H, { w: [1, 2, 3] }, { mask });
    for (const k of ['r', 'hStar', 'weights'])
      assert.ok(
        ap[k].data.every((v) => v === 0),
        `attentionPooling ${k}`,
      );
    const cp = ops.contextPooling(H, { W: [[1, 0, 1]], b: [0.5], u: [2] }, { mask });
    for (const k of ['s', 'weights'])
      assert.ok(
        cp[k].data.every((v) => v === 0),
        `contextPooling ${k}`,
      );
    const P = {
      W_s1: [
        [1, 0, 1],
        [0, 1, 0],
      ],
      W_s2: [
        [1, 2],
        [3, 4],
      ],
    };
    const ssa = ops.structuredSelfAttention(H, P, { mask });
    for (const k of ['M', 'weights'])
      assert.ok(
        ssa[k].data.every((v) => v === 0),
        `structuredSelfAttention ${k}`,
      );
    assert.equal(ssa.penalty, 2, 'penalty of zero weights is ‖−I‖² = r');
    const g = ops.structuredSelfAttention.backward(
      H,
      P,
      { mask },
      { M: randomTensor([2, 3], 82), weights: randomTensor([2, 4], 83), penalty: 1 },
    );
    for (const v of Object.values(g)) assert.ok(v.data.every((x) => x === 0));
  });

  test(`${build}: pooling errors name the problem`, () => {
    const H = randomTensor([5, 4], 91);
    const expectError = (fn, re, code) =>
      assert.throws(
        fn,
        (e) => e instanceof AttnlabError && re.test(e.message) && (!code || e.code === code),
      );
    expectError(() => ops.attentionPooling(H, {}), /attentionPooling: params.w is missing/);
    expectError(() => ops.attentionPooling(H), /params must be an object/);
    expectError(
      () => ops.attentionPooling(H, { w: [1, 2, 3] }),
      /H has 4 features .* params.w has 3 entries/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => ops.attentionPooling(H, { w: [1, 2, 3, 4], v: [1] }),
      /unknown parameter params.v/,
    );
    expectError(
      () => ops.attentionPooling(H, { w: [1, 2, 3, 4] }, { mask: [true, false] }),
      /mask has shape \[2\] but must be \[5\]/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => ops.attentionPooling(H, { w: [1, 2, 3, 4] }, { masks: [] }),
      /unknown option 'masks'/,
    );
    expectError(
      () => ops.attentionPooling(randomTensor([4], 1), { w: [1, 2, 3, 4] }),
      /H must have rank 2 or 3/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => ops.attentionPooling(H, { w: [1, 2, NaN, 4] }),
      /params.w contains NaN at flat index 2/,
      'AL_ERR_NONFINITE',
    );
    expectError(
      () => ops.contextPooling(H, { W: randomTensor([3, 4], 2), b: [1, 2, 3] }),
      /contextPooling: params.u is missing/,
    );
    expectError(
      () => ops.contextPooling(H, { W: randomTensor([3, 5], 2), b: [1, 2, 3], u: [1, 2, 3] }),
      /H has 4 features .* params.W has 5 columns/,
    );
    expectError(
      () => ops.contextPooling(H, { W: randomTensor([3, 4], 2), b: [1, 2], u: [1, 2, 3] }),
      /params.W has 3 rows but params.b has 2 entries/,
    );
    expectError(
      () => ops.structuredSelfAttention(H, { W_s1: randomTensor([7, 4], 3) }),
      /structuredSelfAttention: params.W_s2 is missing/,
    );
    expectError(
      () =>
        ops.structuredSelfAttention(H, {
          W_s1: randomTensor([7, 4], 3),
          W_s2: randomTensor([2, 6], 4),
        }),
      /params.W_s1 has 7 rows but params.W_s2 has 6 columns/,
    );
    expectError(
      () =>
        ops.structuredSelfAttention(
          randomTensor([2, 5, 4], 5),
          { W_s1: randomTensor([7, 4], 3), W_s2: randomTensor([2, 7], 4) },
          { mask: [[true], [false]] },
        ),
      /mask has shape \[2, 1\] but must be \[2, 5\] or \[5\]/,
    );
    const P = { W_s1: randomTensor([7, 4], 3), W_s2: randomTensor([2, 7], 4) };
    expectError(
      () => ops.structuredSelfAttention.backward(H, P, {}, { M: randomTensor([2, 5], 1) }),
      /structuredSelfAttention.backward: upstream.M has shape \[2, 5\] but must be shape \[2, 4\]/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => ops.structuredSelfAttention.backward(H, P, {}, { penalty: [1, 2] }),
      /upstream.penalty has shape \[2\] but must be a number/,
    );
    expectError(
      () => ops.structuredSelfAttention.backward(H, P, {}, { penalty: NaN }),
      /upstream.penalty is NaN/,
      'AL_ERR_NONFINITE',
    );
    expectError(
      () => ops.structuredSelfAttention.backward(H, P, {}, { A: randomTensor([2, 5], 1) }),
      /unknown upstream gradient upstream.A/,
    );
    expectError(
      () => ops.attentionPooling.backward(H, { w: [1, 2, 3, 4] }, {}, { r: 1 }),
      /upstream.r must be a tensor of shape \[4\]/,
    );
    assert.equal(lib.liveAllocations(), 0, 'failed calls free what they allocated');
  });

  test(`${build}: many pooling calls return allocations and memory to their baseline`, () => {
    const H = randomTensor([2, 16, 8], 101);
    const P = { W_s1: randomTensor([6, 8], 102), W_s2: randomTensor([3, 6], 103) };
    const C = {
      W: randomTensor([4, 8], 104),
      b: randomTensor([4], 105),
      u: randomTensor([4], 106),
    };
    const w = randomTensor([8], 107);
    const run = (i) => {
      ops.structuredSelfAttention.backward(
        H,
        P,
        { mask: [i % 2 === 0, ...new Array(15).fill(false)] },
        { penalty: 1 },
      );
      ops.contextPooling.backward(H, C, undefined, { weights: randomTensor([2, 16], i) });
      ops.attentionPooling(H, { w });
    };
    run(0); // warm: reach steady memory
    const mem = lib.memoryBytes();
    for (let i = 0; i < 2000; i++) run(i);
    assert.equal(lib.liveAllocations(), 0);
    assert.equal(lib.memoryBytes(), mem);
  });
}

for (const simd of [false, true]) runPoolingSuite({ simd });
