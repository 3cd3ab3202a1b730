// The JS API suite, run once per build: api-simd.test.js and api-scalar.test.js each call
// runApiSuite() in their own process (init() is once per process). Unlike the other suites it
// stays on init() and the module-level ops rather than a createAttnlab instance: they are what
// it tests (init() returning the same instance twice, the default instance of each build).
// References are computed here in double precision, or come from the PyTorch fixtures.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { init, ops, prepare, AttnlabError } from '../../wasm/index.js';
import { loadFixture, assertClose } from './fixtures.js';

/** Deterministic uniform floats in [lo, hi). */
export function randomTensor(shape, seed, lo = -1, hi = 1) {
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

function matmulRef(a, b, M, K, N, ta, tb) {
  const out = new Float64Array(M * N);
  for (let m = 0; m < M; m++) {
    for (let n = 0; n < N; n++) {
      let acc = 0;
      for (let k = 0; k < K; k++)
        acc += (ta ? a[k * M + m] : a[m * K + k]) * (tb ? b[n * K + k] : b[k * N + n]);
      out[m * N + n] = acc;
    }
  }
  return out;
}

export function runApiSuite({ simd }) {
  const build = simd ? 'simd128' : 'scalar';
  let lib;

  test(`${build}: init loads the requested build`, async () => {
    lib = await init({ simd });
    assert.equal(lib.simd, simd);
    assert.equal(await init(), lib, 'init() is idempotent');
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: sdpa matches every PyTorch fixture case (output and weights)`, () => {
    const { cases } = loadFixture('sdpa');
    assert.ok(cases.length >= 12);
    for (const c of cases) {
      const { query, key, value, key_padding_mask: mask, output, weights } = c.tensors;
      const opts = { causal: c.causal, returnWeights: true };
      if (c.scale !== null) opts.scale = c.scale;
      if (mask) opts.keyPaddingMask = { data: mask.data, shape: mask.shape };
      const got = ops.scaledDotProductAttention(query, key, value, opts);
      assert.deepEqual(got.output.shape, output.shape, c.name);
      assertClose(got.output, output, { atol: 1e-5, rtol: 1e-4, label: `${c.name} output` });
      assertClose(got.weights, weights, { atol: 1e-5, rtol: 1e-4, label: `${c.name} weights` });
      // the streaming path (no weights requested) gives the same output
      const streamed = ops.scaledDotProductAttention(query, key, value, {
        ...opts,
        returnWeights: false,
      });
      assert.equal(streamed.weights, null);
      assertClose(streamed.output, output, {
        atol: 1e-5,
        rtol: 1e-4,
        label: `${c.name} streamed output`,
      });
    }
  });

  test(`${build}: sdpa with values near 3e38: streaming and weights paths both give the weighted mean`, () => {
    // the weights sum to 1, so |output| <= max|v| < 3.4e38; the streaming path's unnormalised
    // Σ e^{s−m} v_s must not overflow into AL_ERR_OVERFLOW. D = 5 and Dv = 3 are off the 4-lane
    // width; 2 heads of 20 queries and 70 keys span several SIMD query and key blocks.
    const [H, L, S, D, Dv] = [2, 20, 70, 5, 3];
    const q = randomTensor([H, L, D], 11);
    const k = randomTensor([H, S, D], 12);
    const v = randomTensor([H, S, Dv], 13, 2e38, 3e38);
    for (let i = 1; i < v.data.length; i += Dv) v.data[i] = -v.data[i]; // column 1 near -3e38
    const mask = Array.from({ length: S }, (_, s) => s % 3 === 1);
    for (const causal of [false, true]) {
      for (const masked of [false, true]) {
        // double reference
        const want = new Float64Array(H * L * Dv);
        for (let h = 0; h < H; h++) {
          for (let t = 0; t < L; t++) {
            const e = [];
            for (let s = 0; s < S; s++) {
              if ((causal && s > t) || (masked && mask[s])) continue;
              let dot = 0;
              for (let d = 0; d < D; d++)
                dot += q.data[(h * L + t) * D + d] * k.data[(h * S + s) * D + d];
              e.push([s, dot * Math.fround(1 / Math.sqrt(D))]);
            }
            const m = Math.max(...e.map(([, x]) => x));
            const sum = e.reduce((a, [, x]) => a + Math.exp(x - m), 0);
            for (const [s, x] of e) {
              for (let d = 0; d < Dv; d++)
                want[(h * L + t) * Dv + d] +=
                  (Math.exp(x - m) / sum) * v.data[(h * S + s) * Dv + d];
            }
          }
        }
        for (const returnWeights of [true, false]) {
          const opts = { causal, returnWeights, ...(masked ? { keyPaddingMask: mask } : {}) };
          const got = ops.scaledDotProductAttention(q, k, v, opts);
          assertClose(
            got.output,
            { data: want, shape: [H, L, Dv] },
            {
              atol: 0,
              rtol: 1e-4,
              label: `causal ${causal} masked ${masked} weights ${returnWeights}`,
            },
          );
        }
      }
    }
    // the case: every value 3e38, several keys: exactly 3e38 (in float32) both ways
    const allBig = [
      [3e38, 3e38],
      [3e38, 3e38],
      [3e38, 3e38],
    ];
    for (const returnWeights of [true, false]) {
      const out = ops.scaledDotProductAttention(
        [[0.1, 0.2, 0.3]],
        [
          [0.1, 0, 0],
          [0, 0.1, 0],
          [0, 0, 0.1],
        ],
        allBig,
        { returnWeights },
      ).output.data;
      for (const x of out)
        assert.ok(Math.abs(x - 3e38) <= 3e38 * 1e-6, `returnWeights ${returnWeights}: ${x}`);
    }
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: sdpa with scores that overflow float32: streaming and weights paths agree`, () => {
    // q·k = ±2e40 is ±Infinity in float32. +Infinity, or only -Infinity, leaves no softmax: both
    // paths must say AL_ERR_OVERFLOW (the streaming path once gave zeros, with success); a
    // -Infinity beside a finite score is weight 0 (the streaming path once overflowed).
    const v = [
      [1, 2, 3],
      [3, 4, 5],
    ];
    const cases = [
      [
        'a +inf score',
        [[1e20, 1e20]],
        [
          [1e20, 1e20],
          [1, 1],
        ],
        null,
      ],
      [
        'a -inf score beside a finite one',
        [[1e20, 1e20]],
        [
          [-1e20, -1e20],
          [1, 1],
        ],
        [3, 4, 5],
      ],
      [
        'only -inf scores',
        [[1e20, 1e20]],
        [
          [-1e20, -1e20],
          [-1e20, -1e20],
        ],
        null,
      ],
      [
        'the +inf key masked',
        [[1e20, 1e20]],
        [
          [1e20, 1e20],
          [1, 1],
        ],
        [3, 4, 5],
        [true, false],
      ],
    ];
    for (const [name, q, k, want, mask] of cases) {
      for (const causal of [false, true]) {
        for (const returnWeights of [true, false]) {
          const label = `${name}, causal ${causal}, weights ${returnWeights}`;
          const call = () =>
            ops.scaledDotProductAttention(q, k, v, {
              scale: 1,
              causal,
              returnWeights,
              ...(mask ? { keyPaddingMask: mask } : {}),
            });
          // causal: the single query sees key 0 only
          const w = causal
            ? name === 'a -inf score beside a finite one'
              ? null
              : mask
                ? [0, 0, 0]
                : null
            : want;
          if (w === null)
            assert.throws(
              call,
              (e) => e instanceof AttnlabError && e.code === 'AL_ERR_OVERFLOW',
              label,
            );
          else assert.deepEqual(Array.from(call().output.data), w, label);
        }
      }
    }
    assert.equal(lib.liveAllocations(), 0);
  });

  test(`${build}: matmul in every transpose against a double reference`, () => {
    for (const [M, K, N] of [
      [1, 1, 1],
      [3, 5, 7],
      [9, 17, 19],
      [16, 8, 33],
      [1, 64, 256],
    ]) {
      for (const ta of [false, true]) {
        for (const tb of [false, true]) {
          const a = randomTensor(ta ? [K, M] : [M, K], M * 7 + K);
          const b = randomTensor(tb ? [N, K] : [K, N], N * 3 + K);
          const got = ops.matmul(a, b, { transposeA: ta, transposeB: tb });
          assert.deepEqual(got.shape, [M, N]);
          assertClose(got.data, matmulRef(a.data, b.data, M, K, N, ta, tb), {
            atol: 1e-5,
            rtol: 1e-5,
            label: `matmul ${M}x${K}x${N} ta=${ta} tb=${tb}`,
          });
        }
      }
    }
    const v = ops.matvec(
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
      [1, 0, -1],
    );
    assert.deepEqual([...v.data], [-2, -2]);
  });

  test(`${build}: matmul with prepare()d operands gives the plain call's bits; disposal is clean`, () => {
    const live = lib.liveAllocations();
    for (const [M, K, N] of [
      [1, 128, 512],
      [3, 5, 7],
      [33, 17, 9],
    ]) {
      for (const tb of [false, true]) {
        const a = randomTensor([M, K], M * 5 + K);
        const b = randomTensor(tb ? [N, K] : [K, N], N * 11 + K);
        const pb = prepare(b);
        const pa = prepare(a);
        assert.deepEqual(pb.shape, b.shape);
        assert.equal(lib.liveAllocations(), live + 2);
        const plain = ops.matmul(a, b, { transposeB: tb });
        for (const [x, y, what] of [
          [a, pb, 'b prepared'],
          [pa, b, 'a prepared'],
          [pa, pb, 'both prepared'],
          [a, pb, 'b prepared, again'],
        ]) {
          const got = ops.matmul(x, y, { transposeB: tb });
          assert.deepEqual(got.shape, [M, N]);
          assert.deepEqual(
            Array.from(got.data),
            Array.from(plain.data),
            `matmul ${M}x${K}x${N} tb=${tb}, ${what}`,
          );
        }
        pa.dispose();
        pb.dispose();
        assert.equal(lib.liveAllocations(), live);
        assert.throws(
          () => ops.matmul(a, pb, { transposeB: tb }),
          (e) =>
            e instanceof AttnlabError &&
            e.code === 'AL_ERR_ARGUMENT' &&
            /matmul: a prepared tensor of shape \[\d+, \d+\] has been disposed; prepare it again/.test(
              e.message,
            ),
        );
      }
    }
    // shapes and ranks are still checked at the call
    const w = prepare([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    assert.deepEqual(Array.from(ops.matmul([[1, 1, 1]], w).data), [9, 12]);
    assert.throws(
      () => ops.matmul([[1, 1]], w),
      (e) => e.code === 'AL_ERR_SHAPE' && /a has 2 columns but b has 3 rows/.test(e.message),
    );
    const v = prepare([1, 2, 3]);
    assert.throws(
      () => ops.matmul([[1, 1, 1]], v),
      (e) => e.code === 'AL_ERR_SHAPE' && /b must have rank 2, got shape \[3\]/.test(e.message),
    );
    w.dispose();
    v.dispose();
    assert.equal(lib.liveAllocations(), live);
  });

  test(`${build}: softmax is stable, masks, and a fully masked row is zeros`, () => {
    const x = { data: new Float32Array([90, 95, 100, 1e30, -1e30, 0, 5, 6, 7]), shape: [3, 3] };
    const mask = [
      [false, false, false],
      [false, false, false],
      [true, true, true],
    ];
    const y = ops.softmax(x, { mask });
    const e = [Math.exp(-10), Math.exp(-5), 1];
    const s = e[0] + e[1] + e[2];
    assertClose(
      y.data.subarray(0, 3),
      e.map((v) => v / s),
      { atol: 1e-6, rtol: 1e-5, label: 'softmax [90,100]' },
    );
    assertClose(y.data.subarray(3, 6), [1, 0, 0], { atol: 1e-6, rtol: 0, label: 'softmax ±1e30' });
    assert.deepEqual([...y.data.subarray(6)], [0, 0, 0]);
    const yb = ops.softmax(
      [
        [1, 2, 3],
        [3, 2, 1],
      ],
      { mask: [true, false, false] },
    );
    assert.equal(yb.data[0], 0);
    assert.equal(yb.data[3], 0);
    assertClose([yb.data[1] + yb.data[2]], [1], {
      atol: 1e-6,
      label: 'broadcast mask row sums to 1',
    });
  });

  test(`${build}: activations, layerNorm and embedding against double references`, () => {
    const x = randomTensor([3, 7], 5, -4, 4);
    const xs = [...x.data];
    const refs = {
      tanh: xs.map(Math.tanh),
      sigmoid: xs.map((v) => 1 / (1 + Math.exp(-v))),
      relu: xs.map((v) => Math.max(v, 0)),
    };
    for (const [name, ref] of Object.entries(refs))
      assertClose(ops[name](x).data, ref, { atol: 1e-6, rtol: 1e-5, label: name });
    // gelu(1) = 0.8413447460685429 (x·Φ(x)), gelu(-2) = -0.04550026389635842
    assertClose(ops.gelu([1, -2, 0]).data, [0.8413447460685429, -0.04550026389635842, 0], {
      atol: 1e-6,
      rtol: 1e-5,
      label: 'gelu',
    });
    const w = randomTensor([7], 9, 0.5, 1.5);
    const b = randomTensor([7], 10);
    const y = ops.layerNorm(x, { weight: w, bias: b, eps: 1e-5 });
    for (let r = 0; r < 3; r++) {
      const row = xs.slice(r * 7, r * 7 + 7);
      const mu = row.reduce((p, v) => p + v, 0) / 7;
      const vr = row.reduce((p, v) => p + (v - mu) ** 2, 0) / 7;
      const ref = row.map((v, c) => ((v - mu) / Math.sqrt(vr + 1e-5)) * w.data[c] + b.data[c]);
      assertClose(y.data.subarray(r * 7, r * 7 + 7), ref, {
        atol: 1e-6,
        rtol: 1e-5,
        label: `layerNorm row ${r}`,
      });
    }
    const table = { data: Float32Array.from({ length: 12 }, (_, i) => i), shape: [4, 3] };
    const emb = ops.embedding([3, 0, 3], table);
    assert.deepEqual(emb.shape, [3, 3]);
    assert.deepEqual([...emb.data], [9, 10, 11, 0, 1, 2, 9, 10, 11]);
  });

  test(`${build}: errors name the problem`, () => {
    const q = randomTensor([4, 13], 1);
    const k = randomTensor([5, 12], 2);
    const v = randomTensor([5, 12], 3);
    const expectError = (fn, re, code) =>
      assert.throws(
        fn,
        (e) => e instanceof AttnlabError && re.test(e.message) && (!code || e.code === code),
      );
    expectError(
      () => ops.scaledDotProductAttention(q, k, v),
      /query has 13 columns but key has 12/,
      'AL_ERR_SHAPE',
    );
    expectError(
      () => ops.scaledDotProductAttention(k, k, randomTensor([4, 3], 1)),
      /key has 5 rows but value has 4/,
    );
    expectError(
      () =>
        ops.scaledDotProductAttention(
          randomTensor([2, 4, 12], 1),
          randomTensor([3, 5, 12], 1),
          randomTensor([3, 5, 12], 1),
        ),
      /leading shape \[2\] but key has \[3\]/,
    );
    expectError(
      () => ops.scaledDotProductAttention(k, k, v, { keyPaddingMask: [true, false] }),
      /keyPaddingMask has shape \[2\] but must be \[5\]/,
    );
    expectError(
      () => ops.scaledDotProductAttention(k, k, v, { scale: NaN }),
      /scale must be a finite/,
    );
    expectError(
      () => ops.scaledDotProductAttention(k, k, v, { causual: true }),
      /unknown option 'causual'/,
    );
    const bad = randomTensor([5, 12], 4);
    bad.data[17] = NaN;
    expectError(
      () => ops.scaledDotProductAttention(k, bad, v),
      /key contains NaN at flat index 17/,
      'AL_ERR_NONFINITE',
    );
    bad.data[17] = Infinity;
    expectError(() => ops.softmax(bad), /x contains Infinity/, 'AL_ERR_NONFINITE');
    expectError(
      () => ops.matmul({ data: new Float64Array(4), shape: [2, 2] }, [[1]]),
      /a\.data must be a Float32Array, got Float64Array/,
    );
    expectError(
      () => ops.matmul({ data: new Float32Array(3), shape: [2, 2] }, [[1]]),
      /has 3 elements but shape \[2, 2\] needs 4/,
    );
    expectError(() => ops.matmul([[1, 2], [3]], [[1]]), /ragged/);
    expectError(() => ops.matmul([[1, 2]], [[1, 2]]), /a has 2 columns but b has 1 rows/);
    expectError(() => ops.matmul({ data: new Float32Array(0), shape: [0, 2] }, [[1]]), /empty/);
    expectError(
      () => ops.embedding([0, 4], { data: new Float32Array(12), shape: [4, 3] }),
      /ids\[1\] = 4 is outside the vocabulary \[0, 4\)/,
      'AL_ERR_RANGE',
    );
    expectError(
      () => ops.embedding([-1], { data: new Float32Array(12), shape: [4, 3] }),
      /ids\[0\] = -1/,
    );
    expectError(
      () => ops.embedding([0.5], { data: new Float32Array(12), shape: [4, 3] }),
      /ids\[0\] = 0.5/,
    );
    expectError(() => ops.layerNorm([[1, 2]], { eps: 0 }), /eps must be/);
    expectError(
      () => ops.layerNorm([[1, 2]], { weight: [1, 2, 3] }),
      /x has 2 features but weight has 3/,
    );
    // a detached buffer is named, not read
    const det = new Float32Array(4);
    structuredClone(det.buffer, { transfer: [det.buffer] });
    expectError(() => ops.softmax({ data: det, shape: [4] }), /detached/);
    assert.equal(lib.liveAllocations(), 0, 'failed calls free what they allocated');
  });

  test(`${build}: an allocation wasm cannot satisfy is a clear error, and the module keeps working`, () => {
    // 23,170² weights = 2,147,395,600 bytes: under 2^31, so it reaches al_malloc, but with the
    // stack, static data and inputs it cannot fit in the module's 2 GiB maximum memory.
    const q = { data: new Float32Array(23170), shape: [23170, 1] };
    assert.throws(
      () => ops.scaledDotProductAttention(q, q, q, { returnWeights: true }),
      (e) =>
        e instanceof AttnlabError &&
        e.code === 'AL_ERR_NOMEM' &&
        /out of wasm memory allocating \d+ bytes for the weights/.test(e.message),
    );
    // 25,000² floats = 2.5 GB would wrap a 32-bit size: refused before it reaches C
    const q2 = { data: new Float32Array(25000), shape: [25000, 1] };
    assert.throws(
      () => ops.scaledDotProductAttention(q2, q2, q2, { returnWeights: true }),
      /one buffer in wasm memory is limited/,
    );
    assert.equal(lib.liveAllocations(), 0);
    const r = ops.softmax([0, 0]);
    assert.deepEqual([...r.data], [0.5, 0.5]);
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
    assertClose(s.output.data, [w + 3 * (1 - w), 2 * w + 4 * (1 - w)], {
      atol: 1e-6,
      label: 'after NOMEM',
    });
  });

  test(`${build}: many calls return allocations and memory to their baseline`, () => {
    const q = randomTensor([2, 8, 16], 11);
    ops.scaledDotProductAttention(q, q, q, { returnWeights: true }); // warm: reach steady memory
    const mem = lib.memoryBytes();
    for (let i = 0; i < 20000; i++) {
      if (i % 2)
        ops.scaledDotProductAttention(q, q, q, { causal: true, returnWeights: i % 4 === 1 });
      else ops.softmax(q);
    }
    assert.equal(lib.liveAllocations(), 0);
    assert.equal(lib.memoryBytes(), mem);
  });
}
