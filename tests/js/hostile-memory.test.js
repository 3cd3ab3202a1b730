// Long runs and memory exhaustion (issue "Hostile inputs and long runs: a validated API, no
// leaks"), SIMD build, plus the essential subset against the scalar build in a child process
// (init() is once per process). 100,000 calls mixed over every op and backward (the table in
// hostile-helpers.js, small shapes), refused calls mixed in, and 1,000 readSafetensors cycles must
// leave liveAllocations() and memoryBytes() at their post-warm-up baseline; an allocation the
// module cannot satisfy must be AL_ERR_NOMEM, after which every op still works.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { init, ops, readSafetensors, AttnlabError } from '../../wasm/index.js';
import {
  everyCall,
  expectAlError,
  knownAnswer,
  validSafetensors,
  runChildAsync,
  T,
  assertAllFinite,
} from './hostile-helpers.js';

const lib = await init();

/** Scalar-build essentials known to fail because of library bugs (see hostile-api.test.js). */
const SCALAR_TODO = {};

test('SIMD build with a zero allocation baseline', () => {
  assert.equal(lib.simd, true);
  assert.equal(lib.liveAllocations(), 0);
});

test('100,000 calls mixed over every op family (forward and backward, some refused) return to the baseline', () => {
  const calls = everyCall();
  assert.ok(calls.length >= 40, `${calls.length} callables`);
  // refused calls in the mix: each allocates nothing or frees what it allocated
  const bad = T([2, 3], 5);
  bad.data[4] = NaN;
  const refused = [
    () => ops.softmax(bad),
    () => ops.scaledDotProductAttention([[1, 2]], [[1, 2, 3]], [[1]]),
    () => ops.matmul({ data: new Float32Array(3), shape: [2, 2] }, [[1]]),
    () => ops.embedding([9], [[1, 2]]),
  ];
  for (let w = 0; w < 3; w++) for (const c of calls) c.run(); // warm-up: the heap reaches its steady size
  const mem = lib.memoryBytes();
  assert.equal(lib.liveAllocations(), 0);
  const N = 100000;
  const t0 = performance.now();
  let errors = 0;
  for (let i = 0; i < N; i++) {
    if (i % 50 === 49) {
      try {
        refused[(i / 50) % refused.length | 0]();
      } catch (e) {
        assert.ok(e instanceof AttnlabError);
        errors++;
      }
    } else {
      calls[i % calls.length].run();
    }
  }
  const ms = performance.now() - t0;
  assert.equal(errors, N / 50, 'every refused call threw');
  assert.equal(lib.liveAllocations(), 0, 'liveAllocations() back to 0');
  assert.equal(lib.memoryBytes(), mem, 'memoryBytes() unchanged after warm-up');
  knownAnswer();
  console.log(`# 100,000 calls took ${ms.toFixed(0)} ms`); // printed, not asserted: a shared machine
});

test('1,000 readSafetensors parse/free cycles of a valid file (and of a refused one) return to the baseline', () => {
  const file = validSafetensors();
  const broken = file.slice(0, file.length - 1);
  readSafetensors(file);
  const mem = lib.memoryBytes();
  for (let i = 0; i < 1000; i++) {
    const r = readSafetensors(
      i % 2 ? file : file.buffer.slice(file.byteOffset, file.byteOffset + file.length),
    );
    assert.equal(r.tensors.size, 2);
    if (i % 10 === 0) assert.throws(() => readSafetensors(broken), AttnlabError);
  }
  assert.equal(lib.liveAllocations(), 0);
  assert.equal(lib.memoryBytes(), mem);
});

test('allocations wasm cannot satisfy are AL_ERR_NOMEM naming the buffer, and every op works afterwards', () => {
  // 23,170² weights = 2,147,395,600 bytes: under 2^31, so it reaches al_malloc, but cannot fit
  // with the stack, static data and inputs in the 2 GiB maximum memory.
  const q = { data: new Float32Array(23170), shape: [23170, 1] };
  expectAlError(lib, () => ops.scaledDotProductAttention(q, q, q, { returnWeights: true }), {
    codes: ['AL_ERR_NOMEM'],
    names: ['weights'],
    label: 'sdpa weights',
  });
  // the same through the multi-head op (weights [h, L, S]) and twice in a row
  const x = { data: new Float32Array(23170 * 2).fill(0.5), shape: [23170, 2] };
  const p = {
    in_proj_weight: T([6, 2], 1),
    in_proj_bias: T([6], 2),
    'out_proj.weight': T([2, 2], 3),
    'out_proj.bias': T([2], 4),
  };
  for (let i = 0; i < 2; i++) {
    expectAlError(lib, () => ops.multiHeadAttention(x, x, x, p, { numHeads: 1 }), {
      codes: ['AL_ERR_NOMEM'],
      names: [/weights/],
      label: 'mha weights',
    });
  }
  // over 2^31 bytes: refused before C
  const q2 = { data: new Float32Array(25000), shape: [25000, 1] };
  expectAlError(lib, () => ops.scaledDotProductAttention(q2, q2, q2, { returnWeights: true }), {
    codes: ['AL_ERR_NOMEM'],
    label: 'sdpa > 2^31',
  });
  assert.equal(lib.liveAllocations(), 0);
  // the module keeps working: every op and backward, then a streaming SDPA of the same size
  for (const c of everyCall()) assertAllFinite(c.run(), c.label);
  const big = ops.scaledDotProductAttention(q, q, q, {});
  assert.equal(big.output.data.length, 23170);
  assert.equal(lib.liveAllocations(), 0);
  knownAnswer();
});

test('the scalar build passes the essential subset (masks, NaN refusal, large inputs, 20,000 calls, NOMEM), in a child process', async (t) => {
  const got = await runChildAsync(
    `
    const lib = await al.init({ simd: false });
    out({ simd: lib.simd, results: h.essentials(lib, { calls: 20000 }), live: lib.liveAllocations() });
  `,
    { timeout: 45000 },
  );
  assert.equal(
    got.status,
    0,
    `child: ${got.timedOut ? 'timed out' : got.status} ${got.stderr ?? ''}`,
  );
  assert.equal(got.json.simd, false);
  assert.equal(got.json.live, 0);
  assert.ok(got.json.results.length > 40);
  for (const r of got.json.results) {
    await t.test(
      `scalar: ${r.name}`,
      SCALAR_TODO[r.name] ? { todo: SCALAR_TODO[r.name] } : {},
      () => assert.ok(r.ok, r.detail),
    );
  }
});
