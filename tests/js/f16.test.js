// tests/js/f16.test.js: float16 storage (wasm/f16.js, saveModel(model, { dtype: 'F16' })): every
// binary16 value round-trips, rounding is to the nearest (ties to even) against a brute-force
// reference, known bit patterns, a saved F16 model loads through the C loader with every weight
// equal to its rounded float32 weight, and values beyond the range are refused by name.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, createModel, loadModel, saveModel, readSafetensors } from '../../wasm/index.js';
import { f16Bits, f16Value, toF16Safetensors } from '../../wasm/f16.js';
import { mulberry32 } from '../../web/data/dates.js';

test('f16Bits: every finite binary16 value round-trips; known bit patterns', () => {
  for (let h = 0; h < 0x10000; h++) {
    const v = f16Value(h);
    if (Number.isNaN(v)) {
      assert.ok(Number.isNaN(f16Value(f16Bits(v))));
      continue;
    }
    assert.equal(f16Bits(v), h, `0x${h.toString(16)}`);
  }
  const known = [
    [1, 0x3c00],
    [-2, 0xc000],
    [65504, 0x7bff],
    [2 ** -24, 0x0001],
    [2 ** -14, 0x0400],
    [0.1, 0x2e66],
    [1 + 2 ** -11, 0x3c00],
    [1 + 3 * 2 ** -11, 0x3c02],
    [2 ** -25, 0x0000],
    [3 * 2 ** -26, 0x0001],
    [65520, 0x7c00],
  ];
  for (const [v, h] of known) assert.equal(f16Bits(v), h, String(v));
});

test('f16Bits rounds to the nearest binary16 (seeded random float32 values, brute-force reference)', () => {
  const rand = mulberry32(16);
  for (let i = 0; i < 100000; i++) {
    const v = Math.fround((rand() - 0.5) * 2 ** Math.floor(rand() * 42 - 26));
    const h = f16Bits(v);
    const err = Math.abs(f16Value(h) - v);
    for (const c of [h - 1, h + 1]) {
      if (c < 0 || c > 0xffff || (c & 0x7c00) === 0x7c00) continue;
      const d = Math.abs(f16Value(c) - v);
      assert.ok(
        err < d || (err === d && (h & 1) === 0),
        `${v}: 0x${h.toString(16)} is not the nearest even`,
      );
    }
  }
});

const CONFIG = {
  architecture: 'classifier',
  cell: 'gru',
  embeddingSize: 8,
  hiddenSize: 12,
  numLayers: 1,
  bidirectional: true,
  pooling: 'attention',
  labels: ['negative', 'positive'],
  tokenizer: {
    type: 'word',
    vocab: ['<pad>', '<unk>', 'good', 'bad', 'not', 'film'],
    unk: '<unk>',
    pad: '<pad>',
  },
};

test("saveModel(model, { dtype: 'F16' }): the C loader reads every weight as its rounded value; outputs close", async () => {
  await init();
  const m = await createModel(CONFIG, { seed: 4 });
  try {
    const full = saveModel(m);
    const half = saveModel(m, { dtype: 'F16' });
    const a = readSafetensors(full),
      b = readSafetensors(half);
    assert.deepEqual(b.metadata, a.metadata);
    assert.deepEqual([...b.tensors.keys()], [...a.tensors.keys()]);
    let bytes = 0;
    for (const [name, t] of a.tensors) {
      const u = b.tensors.get(name);
      assert.equal(u.dtype, 'F16');
      assert.deepEqual(u.shape, t.shape);
      bytes += t.data.length * 2;
      for (let i = 0; i < t.data.length; i++)
        assert.equal(u.data[i], f16Value(f16Bits(t.data[i])), `${name}[${i}]`);
    }
    assert.ok(half.length < full.length - bytes * 0.9, `${half.length} vs ${full.length}`);
    const m16 = await loadModel(half);
    try {
      const p32 = m.run('not good film').probs,
        p16 = m16.run('not good film').probs;
      for (let k = 0; k < 2; k++)
        assert.ok(Math.abs(p32[k] - p16[k]) < 5e-3, `${p32[k]} vs ${p16[k]}`);
    } finally {
      m16.dispose();
    }
    assert.throws(() => saveModel(m, { dtype: 'F8' }), /dtype must be 'F32', 'F16' or 'I8'/);
    assert.throws(() => saveModel(m, { dtpye: 'F16' }), /dtpye/);
  } finally {
    m.dispose();
  }
});

test('a weight beyond ±65504 is refused by name, not stored as infinity', async () => {
  await init();
  const m = await createModel(CONFIG, { seed: 4 });
  try {
    // an F32 file of this model with its first weight set to 70000
    const bytes = saveModel(m);
    const [name] = readSafetensors(bytes).tensors.keys();
    const n = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
    const at = 8 + n + header[name].data_offsets[0];
    new DataView(bytes.buffer, bytes.byteOffset).setFloat32(at, 70000, true);
    assert.throws(
      () => toF16Safetensors(bytes, 'saveModel'),
      (e) => e.code === 'AL_ERR_RANGE' && e.message.includes(`"${name}"[0] = 70000`),
    );
  } finally {
    m.dispose();
  }
});
