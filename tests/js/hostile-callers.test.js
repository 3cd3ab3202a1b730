// Hostile callers: one regression test per finding of the "hostile callers" review (getters,
// Proxies, subclasses, mutated fields, prototypes, detached buffers, cycles, platform errors),
// numbered as the review numbered them. Each must end in a clean AttnlabError or the reference
// result, with the module still answering and liveAllocations() back to its baseline.
// Findings 5 (serve.mjs descriptors), 7/8 (float32 options, SDPA near 3e38), 15 and 16 (the
// page) have their tests beside the code they cover: serve.test.js, hostile-f32-options.test.js,
// api-suite.js, heatmap.test.js, web-app-state.test.js and demo.test.js.
//
// Not here: the general property-based sweep (hostile-properties.test.js) or the op table's
// exhaustive wrong-argument suite (hostile-api.test.js).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';

import {
  init,
  ops,
  loadModel,
  readSafetensors,
  createModel,
  loadTrainableModel,
  createTrainer,
  AttnlabError,
} from '../../wasm/index.js';
import { OP_TABLE, T, expectAlError, knownAnswer } from './hostile-helpers.js';

const lib = await init();
const MODELS = new URL('../../web/models/', import.meta.url);
const load = (name) => loadModel(new URL(`${name}.safetensors`, MODELS));

/** An async call must reject with an AttnlabError matching `re`; the module still works after. */
async function rejectsAl(promise, re, label) {
  const base = lib.liveAllocations();
  await assert.rejects(promise, (e) => {
    assert.ok(
      e instanceof AttnlabError,
      `${label}: expected an AttnlabError, got ${e?.constructor?.name}: ${e?.message}`,
    );
    assert.match(e.message, re, label);
    return true;
  });
  assert.equal(lib.liveAllocations(), base, `${label}: no allocation left behind`);
  knownAnswer();
}

test('1: an options getter is read once: memory-rnn distributions cannot size one buffer and fill another', async () => {
  const m = await load('lm-agreement-lstmn');
  const base = lib.liveAllocations();
  const want = m.run('the dog runs .', { distributions: true });
  let reads = 0;
  const flip = {
    get distributions() {
      return reads++ === 0 ? false : true;
    },
  };
  const r = m.run('the dog runs .', flip);
  assert.equal(reads, 1, 'the getter is read exactly once');
  assert.equal(r.distributions, undefined, 'the one value read (false) decides: no distributions');
  assert.deepEqual(Array.from(r.logProbs), Array.from(want.logProbs));
  const flip2 = {
    get distributions() {
      return reads++ === 1;
    },
  }; // true first, then false
  const r2 = m.run('the dog runs .', flip2);
  assert.deepEqual(Array.from(r2.distributions.data), Array.from(want.distributions.data));
  assert.equal(lib.liveAllocations(), base);
  m.dispose();
  knownAnswer();
});

test('2: buffers are sized from C, not from public fields: config, tgtVocabSize and decoder.srcIds cannot be changed', async () => {
  const base = lib.liveAllocations();
  const tf = await load('tf-dates-relative');
  const want = tf.forward('22 Nov 2026', [tf.bosId, 3, 4]);
  assert.throws(
    () => {
      tf.config.numLayers = 64;
    },
    TypeError,
    'the config is frozen',
  );
  assert.throws(() => {
    tf.config.numHeads = 64;
  }, TypeError);
  assert.throws(
    () => {
      tf.tgtVocabSize = 1e6;
    },
    TypeError,
    'documented fields are getters only',
  );
  // an own property shadowing a getter is the caller's business; the glue never reads it
  Object.defineProperty(tf, 'config', {
    value: { ...tf.config, numLayers: 64, numHeads: 64, variant: 'encoder' },
  });
  Object.defineProperty(tf, 'tgtVocabSize', { value: 1e6 });
  const got = tf.forward('22 Nov 2026', [want.tgtIds[0], 3, 4]);
  assert.equal(got.attention.length, want.attention.length);
  assert.deepEqual(Array.from(got.logits.data), Array.from(want.logits.data));
  tf.dispose();

  const s2s = await load('dates-additive');
  const scored = s2s.score('22 Nov 2026', '2026-11-22');
  Object.defineProperty(s2s, 'tgtVocabSize', { value: 1e6 });
  Object.defineProperty(s2s, 'srcVocabSize', { value: 1e6 });
  assert.deepEqual(
    Array.from(s2s.score('22 Nov 2026', '2026-11-22').distributions.data),
    Array.from(scored.distributions.data),
  );
  expectAlError(lib, () => s2s.run([100000]), {
    codes: ['AL_ERR_RANGE'],
    names: [/input\[0\] = 100000/],
  });
  const dec = s2s.startDecoding('22 Nov 2026');
  assert.throws(() => {
    dec.srcIds = new Int32Array(4000);
  }, TypeError);
  Object.defineProperty(dec, 'srcIds', { value: new Int32Array(4000) });
  const step = dec.step();
  assert.equal(
    step.weights.length,
    s2s.encode('22 Nov 2026').length,
    'the row is sized from the source C holds',
  );
  dec.dispose();
  // a tokenizer map changed by the caller cannot send an id C does not have
  s2s.tokenizer.src.set('2', 99999);
  expectAlError(lib, () => s2s.run('22 Nov 2026'), { codes: ['AL_ERR_RANGE'], names: [/99999/] });
  s2s.dispose();
  assert.equal(lib.liveAllocations(), base);
});

test('3: a shape is read once: a getter cannot pass [1, 1] to the check and [1, 64] to the copy', () => {
  let reads = 0;
  const a = {
    data: new Float32Array([5]),
    get shape() {
      return reads++ === 0 ? [1, 1] : [1, 64];
    },
  };
  const r = ops.matvec(a, [2]);
  assert.equal(reads, 1);
  assert.deepEqual(Array.from(r.data), [10]);
  // a shape array whose entries are getters is read entry by entry, once
  let n = 0;
  const shape = [1, 1];
  Object.defineProperty(shape, 1, { get: () => (n++ === 0 ? 1 : 64), enumerable: true });
  assert.deepEqual(Array.from(ops.matvec({ data: new Float32Array([3]), shape }, [2]).data), [6]);
  assert.equal(n, 1);
  const base = lib.liveAllocations();
  const p = new Proxy([1, 1], { get: (t, k) => (k === 'length' ? 2 : t[k]) });
  assert.deepEqual(Array.from(ops.matvec({ data: new Float32Array([4]), shape: p }, [2]).data), [
    8,
  ]);
  assert.equal(lib.liveAllocations(), base);
});

test('4: a Float32Array subclass cannot lie about its length', () => {
  class Longer extends Float32Array {
    get length() {
      return 64;
    }
  }
  class Shorter extends Float32Array {
    get length() {
      return 1;
    }
  }
  // the real length is 4: a claim of 64 cannot read stale heap, a claim of 1 cannot cut the copy
  expectAlError(
    lib,
    () => ops.matmul({ data: new Longer(4).fill(1), shape: [8, 8] }, T([8, 2], 1)),
    { codes: ['AL_ERR_SHAPE'], names: [/has 4 elements/] },
  );
  const a = new Shorter([1, 2, 3, 4]);
  assert.deepEqual(
    Array.from(
      ops.matmul({ data: a, shape: [2, 2] }, [
        [1, 0],
        [0, 1],
      ]).data,
    ),
    [1, 2, 3, 4],
  );
  const b = new Longer([1, 2, 3, 4]);
  assert.deepEqual(
    Array.from(
      ops.matmul({ data: b, shape: [2, 2] }, [
        [1, 0],
        [0, 1],
      ]).data,
    ),
    [1, 2, 3, 4],
  );
  // a subclass whose iterator lies is not iterated
  class Iter extends Float32Array {
    *[Symbol.iterator]() {
      yield 99;
    }
  }
  assert.deepEqual(
    Array.from(ops.softmax({ data: new Iter([0, 0]), shape: [2] }).data),
    [0.5, 0.5],
  );
  // readSafetensors copies the bytes the array holds, whatever its `length` says
  class ShortBytes extends Uint8Array {
    get length() {
      return 1;
    }
  }
  expectAlError(lib, () => readSafetensors(new ShortBytes(20)), {
    codes: ['AL_ERR_FORMAT'],
    names: [/header length 0/],
  });
  // nor is a fake one (a Float32Array prototype without the internal slots) a TypeError
  expectAlError(
    lib,
    () => ops.softmax({ data: Object.create(Float32Array.prototype), shape: [2] }),
    { names: [/must be a Float32Array/] },
  );
});

test('6: a cyclic or very deep nested array is refused, not walked until the stack or the process gives out', () => {
  const a = [1, 2];
  a[0] = a;
  // [a, 2] doubles its size at every level: refused by its depth or by its size, whichever first
  expectAlError(lib, () => ops.softmax(a), {
    codes: ['AL_ERR_SHAPE', 'AL_ERR_OVERFLOW'],
    names: [/nested more than 32|2147483648 elements/],
  });
  const b = [];
  b[0] = b;
  expectAlError(lib, () => ops.softmax(b), {
    codes: ['AL_ERR_SHAPE'],
    names: [/nested more than 32/],
  });
  let deep = [1];
  for (let i = 0; i < 200000; i++) deep = [deep];
  expectAlError(lib, () => ops.softmax(deep), {
    codes: ['AL_ERR_SHAPE'],
    names: [/nested more than 32/],
  });
  // a Proxy claiming 2^31 entries is refused by its size before anything is walked
  const huge = new Proxy([], {
    get: (t, k) => (k === 'length' ? 2 ** 31 : k === Symbol.iterator ? undefined : 0),
  });
  expectAlError(lib, () => ops.softmax(huge), { codes: ['AL_ERR_OVERFLOW'] });
  const big = new Proxy([], { get: (t, k) => (k === 'length' ? 2 ** 25 : 0) });
  expectAlError(lib, () => ops.softmax([big]), {
    codes: ['AL_ERR_OVERFLOW'],
    names: [/pass \{ data: Float32Array, shape \}/],
  });
});

test('9: inherited option values are refused by name, and a polluted Object.prototype changes nothing', () => {
  const q = [
    [1, 0],
    [0, 1],
  ];
  const kv = [
    [1, 0],
    [0, 1],
    [1, 1],
  ];
  expectAlError(
    lib,
    () =>
      ops.scaledDotProductAttention(
        q,
        kv,
        kv,
        Object.create({ causal: 'false', returnWeights: 'no' }),
      ),
    { names: [/options\.(causal|returnWeights) is inherited/] },
  );
  expectAlError(
    lib,
    () => ops.scaledDotProductAttention(q, kv, kv, Object.create({ causal: true })),
    { names: [/options\.causal is inherited/] },
  );
  class Opts {
    get causal() {
      return true;
    }
  }
  expectAlError(lib, () => ops.scaledDotProductAttention(q, kv, kv, new Opts()), {
    names: [/options\.causal is inherited/],
  });
  const plain = ops.scaledDotProductAttention(q, kv, kv, {});
  Object.prototype.causal = true;
  Object.prototype.returnWeights = true;
  try {
    const r = ops.scaledDotProductAttention(q, kv, kv, {});
    assert.deepEqual(Array.from(r.output.data), Array.from(plain.output.data), 'not causal');
    assert.equal(r.weights ?? null, plain.weights ?? null, 'no weights');
    assert.equal(plain.weights ?? null, null);
    assert.deepEqual(
      Array.from(ops.scaledDotProductAttention(q, kv, kv).output.data),
      Array.from(plain.output.data),
    );
  } finally {
    delete Object.prototype.causal;
    delete Object.prototype.returnWeights;
  }
  // params too: an inherited weight is refused, not read
  const p = Object.create({ w: T([2], 1) });
  expectAlError(lib, () => ops.attentionPooling(T([3, 2], 2), p), {
    names: [/params\.w is inherited/],
  });
});

test('10: platform errors arrive as AttnlabError: missing files, bad URLs, non-files, null arguments, detached buffers', async () => {
  await rejectsAl(
    loadModel('/nonexistent/model.safetensors'),
    /cannot read .*no such file/,
    'loadModel ENOENT',
  );
  await rejectsAl(
    loadModel(new URL('http://127.0.0.1:9/m.safetensors')),
    /fetching .* failed/,
    'loadModel fetch failed',
  );
  await rejectsAl(loadModel(fileURLToPath(MODELS)), /is a directory/, 'loadModel of a directory');
  await rejectsAl(loadModel(null), /expected a URL, a path or bytes, got null/, 'loadModel(null)');
  await rejectsAl(
    loadTrainableModel('/nonexistent/m.safetensors'),
    /loadTrainableModel: cannot read/,
    'loadTrainableModel ENOENT',
  );
  await rejectsAl(loadTrainableModel(null), /got null/, 'loadTrainableModel(null)');
  await rejectsAl(createModel(null), /config must be a config object/, 'createModel(null)');
  await rejectsAl(
    createModel({ architecture: 'seq2seq' }, null),
    /options must be an object/,
    'createModel(cfg, null)',
  );
  const m = await load('dates-additive');
  expectAlError(lib, () => m.score('22 Nov 2026', null), { names: [/tgt is null/] });
  expectAlError(lib, () => m.run(null), { names: [/input must be text or an array/] });
  m.dispose();
  const tm = await loadTrainableModel(new URL('dates-additive.safetensors', MODELS));
  assert.throws(
    () => createTrainer(tm, null),
    (e) => e instanceof AttnlabError && /options must be an object/.test(e.message),
  );
  assert.throws(
    () => createTrainer(null),
    (e) => e instanceof AttnlabError && /createTrainer/.test(e.message),
  );
  const tr = createTrainer(tm, { lr: 0.01 });
  assert.throws(
    () => tr.evaluate(null),
    (e) => e instanceof AttnlabError && /pairs must be an array/.test(e.message),
  );
  assert.throws(
    () => tr.evaluate([], null),
    (e) => e instanceof AttnlabError && /options must be an object/.test(e.message),
  );
  tr.dispose();
  tm.dispose();
  // a buffer detached by a later argument's getter is named, not read as nothing or a TypeError
  const q = T([2, 2], 1);
  const k = {
    data: T([3, 2], 2).data,
    get shape() {
      structuredClone(q.data.buffer, { transfer: [q.data.buffer] });
      return [3, 2];
    },
  };
  expectAlError(lib, () => ops.scaledDotProductAttention(q, k, k), { names: [/detached/] });
});

test('11: trainer options: inherited names, strings and negative clips are refused', async () => {
  const tm = await loadTrainableModel(new URL('dates-additive.safetensors', MODELS));
  for (const [opts, re] of [
    [{ optimizer: 'toString' }, /optimizer must be 'adam' or 'sgd', not 'toString'/],
    [{ optimizer: '__proto__' }, /optimizer must be 'adam' or 'sgd', not '__proto__'/],
    [{ optimizer: 'constructor' }, /optimizer must be/],
    [{ lr: '0.1' }, /options\.lr must be a finite number/],
    [{ clip: -1 }, /options\.clip must be a finite number >= 0/],
    [Object.create({ lr: 5 }), /options\.lr is inherited/],
  ]) {
    assert.throws(
      () => createTrainer(tm, opts),
      (e) => e instanceof AttnlabError && re.test(e.message),
      JSON.stringify(opts),
    );
  }
  const tr = createTrainer(tm, { optimizer: 'sgd', lr: 0.1 });
  assert.throws(
    () => tr.setLearningRate('0.1'),
    (e) => e instanceof AttnlabError && /lr must be a finite number/.test(e.message),
  );
  tr.dispose();
  tm.dispose();
});

test("12: every .backward refuses a missing upstream and takes the forward's arguments, then upstream", () => {
  let checked = 0;
  for (const [name, entry] of Object.entries(OP_TABLE)) {
    if (!entry.backward) continue;
    const args = entry.backward.make();
    const forwardArgs = args.slice(0, -1);
    expectAlError(lib, () => ops[name].backward(...forwardArgs), {
      names: [/upstream/],
      label: `${name}.backward without upstream`,
    });
    const opt = entry.backward.optIndex;
    // without its options argument, upstream still comes last: the same gradients when the
    // options change nothing the backward depends on
    if (opt !== undefined && Object.keys(args[opt]).length === 0) {
      const without = [...args.slice(0, opt), args[args.length - 1]];
      const a = ops[name].backward(...args);
      const b = ops[name].backward(...without);
      for (const k of Object.keys(a))
        assert.deepEqual(Array.from(b[k].data), Array.from(a[k].data), `${name}: ${k}`);
    }
    checked++;
  }
  assert.ok(checked >= 14, `every op with a backward was checked (${checked})`);
  // the API's rule (docs/api.md) for lstmn: forward arguments, then upstream
  const x = T([3, 2], 1);
  const H = 4;
  const p = {
    W_h: T([H, H], 2),
    W_x: T([H, 2], 3),
    W_ht: T([H, H], 4),
    v: T([H], 5),
    W: T([4 * H, H + 2], 6),
    b: T([4 * H], 7),
  };
  const up = { h: T([3, H], 8) };
  const g1 = ops.lstmn.backward(x, p, up);
  const g2 = ops.lstmn.backward(x, p, {}, up);
  assert.ok(
    g1.x.data.some((v) => v !== 0),
    'real gradients, not zeros',
  );
  assert.deepEqual(Array.from(g1.x.data), Array.from(g2.x.data));
});

test('13: one mask rule for every form: strings are refused as a plain array and as { data, shape }', () => {
  const q = [[1, 0]];
  const kv = [
    [1, 0],
    [0, 1],
    [1, 1],
  ];
  const opts = (m) => ({ keyPaddingMask: m });
  expectAlError(
    lib,
    () => ops.scaledDotProductAttention(q, kv, kv, opts({ data: ['a', 'b', 'c'], shape: [3] })),
    { names: [/booleans or 0\/1/] },
  );
  expectAlError(lib, () => ops.scaledDotProductAttention(q, kv, kv, opts(['a', 'b', 'c'])), {
    names: [/booleans or 0\/1/],
  });
  expectAlError(
    lib,
    () => ops.scaledDotProductAttention(q, kv, kv, opts({ data: [0, 2, 0], shape: [3] })),
    { names: [/booleans or 0\/1/] },
  );
  const want = ops.scaledDotProductAttention(q, kv, kv, opts([false, true, false])).output.data;
  for (const m of [
    [0, 1, 0],
    { data: [false, true, false], shape: [3] },
    { data: [0, 1, 0], shape: [3] },
    new Uint8Array([0, 1, 0]),
  ]) {
    assert.deepEqual(
      Array.from(ops.scaledDotProductAttention(q, kv, kv, opts(m)).output.data),
      Array.from(want),
    );
  }
});

// the timeout only stops a hang (a /dev/zero read to its end)
test(
  '14: a source with no end (/dev/zero, a FIFO) is refused at once, and a body over the limit is cut',
  { timeout: 120_000 },
  async () => {
    // refused for what it is (not a regular file), before a byte is read: reading /dev/zero would
    // never end, so a hang here is the bug
    await rejectsAl(loadModel('/dev/zero'), /not a regular file/, 'loadModel(/dev/zero)');
    await rejectsAl(
      loadModel(new URL('file:///dev/zero')),
      /not a regular file/,
      'file:///dev/zero',
    );
    // a Response whose body never ends: read chunk by chunk and refused past 1 GiB, without
    // holding it (64 MiB chunks of one reused buffer)
    const chunk = new Uint8Array(64 * 2 ** 20);
    let sent = 0;
    const body = new ReadableStream({
      pull(c) {
        sent += chunk.byteLength;
        c.enqueue(chunk);
      },
    });
    await rejectsAl(
      loadModel(new Response(body)),
      /over the limit of 1024\.0 MiB/,
      'an endless Response',
    );
    assert.ok(
      sent <= 2 ** 30 + 2 * chunk.byteLength,
      `stopped reading at the limit (${sent} bytes)`,
    );
  },
);

test('2 (prepare): resident tensors and params are sized from their private fields, not from shadowing properties', async () => {
  const { prepare } = await import('../../wasm/index.js');
  const base = lib.liveAllocations();
  const b = T([128, 8], 3);
  const a = T([1, 128], 4);
  const pb = prepare(b);
  const want = ops.matmul(a, b).data;
  Object.defineProperty(pb, 'shape', { value: [128, 100000] });
  Object.defineProperty(pb, 'size', { value: 1e9 });
  assert.deepEqual(Array.from(ops.matmul(a, pb).data), Array.from(want));
  assert.deepEqual(Array.from(pb.toTensor().data), Array.from(b.data));
  const H = 4;
  const params = {
    weight_ih_l0: T([3 * H, 2], 5),
    weight_hh_l0: T([3 * H, H], 6),
    bias_ih_l0: T([3 * H], 7),
    bias_hh_l0: T([3 * H], 8),
  };
  const x = T([5, 2], 9);
  const plain = ops.gru(x, params);
  const pp = prepare(params);
  Object.defineProperty(pp, 'tensors', {
    value: { weight_ih_l0: T([3 * 64, 2], 1), weight_hh_l0: T([3 * 64, 64], 2) },
  });
  Object.defineProperty(pp, 'disposed', { value: false });
  assert.deepEqual(Array.from(ops.gru(x, pp).output.data), Array.from(plain.output.data));
  pp.dispose();
  expectAlError(lib, () => ops.gru(x, pp), { names: [/disposed/] });
  pb.dispose();
  assert.equal(lib.liveAllocations(), base);
});
