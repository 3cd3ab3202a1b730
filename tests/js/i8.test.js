// tests/js/i8.test.js: int8 storage (wasm/i8.js, saveModel(model, { dtype: 'I8' }), the C loader's
// dequantisation, scripts/quantize.mjs, shipI8 in scripts/train/common.mjs): rounding half away
// from zero on known rows; a trained model's I8 file reads back (through the C loader) within
// half a scale of its F16 weights, its small and 1-D tensors F16, its scales not listed; the same
// I8 bytes from the float32 weights and from the F16 file (and through scripts/quantize.mjs); a
// shipped model (I8 since the cards were re-measured on the I8 files) reads held-out dates right
// and is a fixed point of the writer; the model loader treats I8 like any tensor (extra,
// orphaned scales); saveModel's dtype check; shipI8 and the storage record.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  init,
  createModel,
  createTrainer,
  loadModel,
  loadTrainableModel,
  saveModel,
  readSafetensors,
} from '../../wasm/index.js';
import { f16Bits, f16Value, toF16Safetensors } from '../../wasm/f16.js';
import {
  I8_MIN_ELEMENTS,
  I8_SCALE_SUFFIX,
  quantizeRows,
  storedAsI8,
  toI8Safetensors,
} from '../../wasm/i8.js';
import {
  countParams,
  shipI8,
  shipF16,
  storageRecord,
  f16Storage,
  F16_TOLERANCE_POINTS,
} from '../../scripts/train/common.mjs';
import { quantizeModelFile } from '../../scripts/quantize.mjs';
import { generateDates } from '../../web/data/dates.js';

const ROOT = new URL('../../', import.meta.url);

/** { header, data } of safetensors bytes, and back. */
function split(bytes) {
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  return {
    header: JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n))),
    data: bytes.subarray(8 + n),
  };
}
function join(header, data) {
  const head = new TextEncoder().encode(JSON.stringify(header));
  const file = new Uint8Array(8 + head.length + data.length);
  new DataView(file.buffer).setBigUint64(0, BigInt(head.length), true);
  file.set(head, 8);
  file.set(data, 8 + head.length);
  return file;
}

test('quantizeRows: scale max|w| / 127, rounding half away from zero, a zero row, clamping', () => {
  const rows = [
    [127, 2.5, -2.5, 0.5, -0.5, 1.49, -126.5, 0], // scale 1: halves go away from zero
    [0, 0, 0, 0, 0, 0, 0, 0], // scale 0, q 0
    [254, 5, -1, 3, -3, 0.999, 253, -254], // scale 2
    [0.1, -0.05, 0.025, 0, 0, 0, 0, 0], // scale float32(0.1 / 127): q from the binary64 quotient
  ];
  const { q, scale } = quantizeRows(rows.flat(), 4, 8);
  assert.deepEqual([...scale.subarray(0, 3)], [1, 0, 2]);
  assert.equal(scale[3], Math.fround(0.1 / 127));
  assert.deepEqual([...q.subarray(0, 8)], [127, 3, -3, 1, -1, 1, -127, 0]);
  assert.deepEqual([...q.subarray(8, 16)], [0, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual([...q.subarray(16, 24)], [127, 3, -1, 2, -2, 0, 127, -127]);
  assert.deepEqual([...q.subarray(24, 32)], [127, -64, 32, 0, 0, 0, 0, 0]); // 127.0000005, -63.5000002, 31.7500001
  assert.ok(!q.includes(-128));
  assert.equal(I8_MIN_ELEMENTS, 1024);
  assert.ok(
    storedAsI8([32, 32]) &&
      !storedAsI8([31, 33]) &&
      !storedAsI8([2048]) &&
      !storedAsI8([4, 16, 16]),
  );
});

// a classifier with matrices on both sides of the threshold: GRU (32 a direction) weight_hh [96, 32] (3,072), weight_ih
// [96, 16] (1,536) as I8; the embedding [7, 16] (112), the attention and output layers and every bias F16
const CONFIG = {
  architecture: 'classifier',
  cell: 'gru',
  embeddingSize: 16,
  hiddenSize: 64,
  numLayers: 1,
  bidirectional: true,
  pooling: 'attention',
  labels: ['negative', 'positive'],
  tokenizer: {
    type: 'word',
    vocab: ['<pad>', '<unk>', 'good', 'bad', 'not', 'film', 'very'],
    unk: '<unk>',
    pad: '<pad>',
  },
};
const EXAMPLES = [
  { src: 'good film', label: 'positive' },
  { src: 'bad film', label: 'negative' },
  { src: 'not good film', label: 'negative' },
  { src: 'not bad film', label: 'positive' },
  { src: 'very good', label: 'positive' },
  { src: 'very bad', label: 'negative' },
];

/** A classifier trained a few Adam steps (weights away from their initialisation). */
async function trainedModel() {
  await init();
  const m = await createModel(CONFIG, { seed: 11 });
  const t = createTrainer(m, { optimizer: 'adam', lr: 3e-2 });
  for (let s = 0; s < 20; s++) t.step(EXAMPLES);
  return { m, t };
}

test("saveModel(model, { dtype: 'I8' }): int8 matrices within half a scale of the F16 weights, the rest F16, outputs close", async () => {
  const { m, t } = await trainedModel();
  try {
    const f16 = saveModel(m, { dtype: 'F16' });
    const i8 = saveModel(m, { dtype: 'I8' });
    assert.deepEqual(i8, toI8Safetensors(saveModel(m)));
    const a = readSafetensors(f16),
      b = readSafetensors(i8);
    assert.deepEqual(b.metadata, a.metadata);
    assert.deepEqual(
      [...b.tensors.keys()],
      [...a.tensors.keys()],
      'the same tensors, in order; no scale tensor listed',
    );
    const { header, data } = split(i8);
    let quantised = 0;
    for (const [name, t16] of a.tensors) {
      const u = b.tensors.get(name);
      assert.deepEqual(u.shape, t16.shape);
      if (!storedAsI8(t16.shape)) {
        assert.equal(u.dtype, 'F16', name);
        assert.deepEqual(u.data, t16.data, name);
        assert.equal(header[name + I8_SCALE_SUFFIX], undefined);
        continue;
      }
      quantised++;
      assert.equal(u.dtype, 'I8', name);
      const sc = header[name + I8_SCALE_SUFFIX];
      assert.deepEqual([sc.dtype, sc.shape], ['F32', [t16.shape[0]]], `${name}: its scales`);
      const scale = new Float32Array(data.slice(...sc.data_offsets).buffer);
      const cols = t16.shape[1];
      let worst = 0;
      for (let i = 0; i < t16.data.length; i++) {
        const s = scale[Math.floor(i / cols)];
        const err = Math.abs(u.data[i] - t16.data[i]);
        // half a scale, plus the float32 rounding of q * scale and of the scale itself
        assert.ok(
          err <= s / 2 + Math.abs(t16.data[i]) * 2 ** -22,
          `${name}[${i}]: ${u.data[i]} vs ${t16.data[i]} (scale ${s})`,
        );
        worst = Math.max(worst, err / s);
      }
      assert.ok(
        worst > 0.3,
        `${name}: worst error ${worst} scales: the weights really were rounded`,
      );
    }
    assert.equal(quantised, 4, 'both directions of weight_ih and weight_hh');
    const want = [...a.tensors.values()].reduce(
      (n, { shape, data: d }) => n + (storedAsI8(shape) ? d.length + 4 * shape[0] : 2 * d.length),
      0,
    );
    assert.equal(data.length, want, 'a byte per I8 weight and 4 per row, 2 per F16 weight');
    assert.ok(i8.length < 0.7 * f16.length, `I8 ${i8.length} bytes vs F16 ${f16.length}`);
    assert.equal(countParams(i8), countParams(f16), 'scales are not parameters');

    const m16 = await loadModel(f16),
      m8 = await loadModel(i8);
    try {
      for (const e of EXAMPLES) {
        const p16 = m16.run(e.src).probs,
          p8 = m8.run(e.src).probs;
        for (let k = 0; k < 2; k++)
          assert.ok(Math.abs(p16[k] - p8[k]) < 2e-2, `${e.src}: ${p16[k]} vs ${p8[k]}`);
        assert.equal(m8.run(e.src).label, m16.run(e.src).label, e.src);
      }
    } finally {
      m16.dispose();
      m8.dispose();
    }
  } finally {
    t.dispose();
    m.dispose();
  }
});

test('the same I8 bytes from the float32 weights and from the F16 file loaded back (weights rounded to float16 first)', async () => {
  const { m, t } = await trainedModel();
  try {
    const fromF32 = saveModel(m, { dtype: 'I8' });
    const back = await loadTrainableModel(saveModel(m, { dtype: 'F16' }));
    try {
      assert.deepEqual(saveModel(back, { dtype: 'I8' }), fromF32);
      assert.deepEqual(
        await quantizeModelFile(saveModel(m, { dtype: 'F16' })),
        fromF32,
        'scripts/quantize.mjs',
      );
    } finally {
      back.dispose();
    }
    // the rounding matters: quantising the float32 weights directly gives other bytes
    const direct = split(saveModel(m));
    let differs = false;
    for (const [name, t32] of Object.entries(direct.header)) {
      if (name === '__metadata__' || !storedAsI8(t32.shape)) continue;
      const w = new Float32Array(direct.data.slice(...t32.data_offsets).buffer);
      const half = Array.from(w, (v) => f16Value(f16Bits(v)));
      const a = quantizeRows(w, ...t32.shape),
        b = quantizeRows(half, ...t32.shape);
      differs ||= a.scale.some((s, i) => s !== b.scale[i]);
    }
    assert.ok(differs, 'some scale differs without the float16 rounding');
  } finally {
    t.dispose();
    m.dispose();
  }
});

test('a shipped model (dates-additive) is I8: 50 held-out dates right, and the I8 writer gives its bytes back', async () => {
  await init();
  const i8 = new Uint8Array(readFileSync(new URL('web/models/dates-additive.safetensors', ROOT)));
  const { header } = split(i8);
  const matrices = Object.entries(header).filter(
    ([k, t]) => k !== '__metadata__' && !k.endsWith(I8_SCALE_SUFFIX) && storedAsI8(t.shape),
  );
  assert.ok(matrices.length >= 6, `${matrices.length} matrices`);
  for (const [k, t] of matrices) assert.equal(t.dtype, 'I8', k);
  const m = await loadModel(i8);
  try {
    let right = 0;
    for (const p of generateDates({ seed: 14, count: 50, split: 'heldout', set: 'all' })) {
      const r = m.run(p.src);
      if (r.output === p.tgt) right++;
      assert.equal(r.attention[0].weights.shape.length, 2);
    }
    assert.ok(right >= 49, `${right} of 50 right`);
  } finally {
    m.dispose();
  }
  // loaded for training (the weights dequantised) and saved as I8 again: the same bytes, so a
  // shipped file is a fixed point of the writer (scripts/quantize.mjs refuses it all the same)
  const back = await loadTrainableModel(i8);
  try {
    assert.deepEqual(saveModel(back, { dtype: 'I8' }), i8);
  } finally {
    back.dispose();
  }
});

test('the model loader: I8 weights are ordinary tensors (extra, missing scales, orphaned scales refused by name)', async () => {
  const { m, t } = await trainedModel();
  t.dispose();
  const i8 = saveModel(m, { dtype: 'I8' });
  m.dispose();
  const { header, data } = split(i8);
  const name = 'encoder.weight_hh_l0';
  assert.equal(header[name].dtype, 'I8');
  const refused = async (bytes, code, pattern) => {
    await assert.rejects(
      loadModel(bytes),
      (e) => e.code === code && pattern.test(e.message),
      String(pattern),
    );
  };
  // an extra I8 tensor with its scales: 'unexpected tensor', as any other extra tensor
  const extra = new Uint8Array(data.length + 32 * 32 + 32 * 4);
  extra.set(data);
  const at = data.length;
  await refused(
    join(
      {
        ...header,
        'extra.weight': { dtype: 'I8', shape: [32, 32], data_offsets: [at, at + 1024] },
        'extra.weight:scale': { dtype: 'F32', shape: [32], data_offsets: [at + 1024, at + 1152] },
      },
      extra,
    ),
    'AL_ERR_FORMAT',
    /^loadModel: unexpected tensor "extra\.weight" \(shape \[32, 32\]\): this config does not use it/,
  );
  // scales without their I8 tensor are an ordinary tensor, which the config does not use
  const orphan = new Uint8Array(data.length + 8);
  orphan.set(data);
  await refused(
    join(
      {
        ...header,
        'decoder.weight:scale': { dtype: 'F32', shape: [2], data_offsets: [at, at + 8] },
      },
      orphan,
    ),
    'AL_ERR_FORMAT',
    /unexpected tensor "decoder\.weight:scale" \(shape \[2\]\)/,
  );
  // an I8 weight without its scales: refused by name (the scales' bytes renamed into a gap-free F32 tensor)
  const renamed = { ...header };
  renamed['unused'] = renamed[`${name}:scale`];
  delete renamed[`${name}:scale`];
  await refused(
    join(renamed, data),
    'AL_ERR_UNSUPPORTED',
    new RegExp(`tensor "${name}": dtype I8 without its ":scale" tensor \\(F32 \\[96\\]`),
  );
  // -128 in a weight
  const bad = data.slice();
  bad[header[name].data_offsets[0] + 5] = 0x80;
  await refused(
    join(header, bad),
    'AL_ERR_FORMAT',
    new RegExp(`tensor "${name}": int8 value -128 at flat index 5`),
  );
  // the I8 file itself loads for training too
  const back = await loadTrainableModel(i8);
  back.dispose();
});

test("saveModel's dtype: 'F32', 'F16' or 'I8'", async () => {
  const { m, t } = await trainedModel();
  try {
    for (const bad of ['i8', 'I4', 'F64', 8, {}]) {
      assert.throws(
        () => saveModel(m, { dtype: bad }),
        (e) =>
          e.code === 'AL_ERR_ARGUMENT' &&
          /options\.dtype must be 'F32', 'F16' or 'I8', got/.test(e.message),
        String(bad),
      );
    }
    assert.equal(split(saveModel(m, { dtype: 'I8' })).header['encoder.weight_hh_l0'].dtype, 'I8');
    assert.deepEqual(t.save({ dtype: 'I8' }), saveModel(m, { dtype: 'I8' }));
    assert.deepEqual(saveModel(m, { dtype: 'F32' }), saveModel(m));
  } finally {
    t.dispose();
    m.dispose();
  }
});

test('a weight beyond ±65504 is refused by name in an I8 file too', async () => {
  const { m, t } = await trainedModel();
  try {
    const bytes = saveModel(m);
    const { header } = split(bytes);
    const n = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
    new DataView(bytes.buffer, bytes.byteOffset).setFloat32(
      8 + n + header['encoder.weight_hh_l0'].data_offsets[0] + 8,
      -1e5,
      true,
    );
    assert.throws(
      () => toI8Safetensors(bytes, 'saveModel'),
      (e) => e.code === 'AL_ERR_RANGE' && e.message.includes('"encoder.weight_hh_l0"[2] = -100000'),
    );
  } finally {
    t.dispose();
    m.dispose();
  }
});

test('shipI8 and the storage record: the I8 file loaded back; F16 records as before; 0.5 points at most', async () => {
  const { m, t } = await trainedModel();
  try {
    const s8 = await shipI8(t),
      s16 = await shipF16(t);
    try {
      assert.equal(s8.dtype, 'I8');
      assert.deepEqual(s8.bytes, toI8Safetensors(t.save()));
      assert.deepEqual(s16.bytes, toF16Safetensors(t.save()));
      assert.equal(s8.float32Bytes, t.save().length);
      const acc8 = s8.trainer.evaluate(EXAMPLES).accuracy,
        acc32 = t.evaluate(EXAMPLES).accuracy;
      assert.ok(acc8 >= 0 && acc8 <= 1);
      assert.deepEqual(storageRecord(s8, 'accuracy', 0.5, 0.4975), {
        dtype: 'I8',
        bytes: s8.bytes.length,
        float32Bytes: s8.float32Bytes,
        metric: 'accuracy',
        float32: 0.5,
        int8: 0.4975,
      });
      // the F16 record keeps its keys and order (the shipped cards do not change)
      const r16 = f16Storage(s16, 'accuracy', acc32, acc32);
      assert.deepEqual(Object.keys(r16), [
        'dtype',
        'bytes',
        'float32Bytes',
        'metric',
        'float32',
        'float16',
      ]);
      assert.equal(
        JSON.stringify(r16),
        JSON.stringify({
          dtype: 'F16',
          bytes: s16.bytes.length,
          float32Bytes: s16.float32Bytes,
          metric: 'accuracy',
          float32: +acc32.toFixed(5),
          float16: +acc32.toFixed(5),
        }),
      );
      assert.equal(F16_TOLERANCE_POINTS, 0.5);
      assert.throws(
        () => storageRecord(s8, 'accuracy', 0.9, 0.894),
        /^Error: I8: accuracy 89\.40% as I8 against 90\.00% as float32: more than 0\.5 points lost/,
      );
    } finally {
      s8.dispose();
      s16.dispose();
    }
  } finally {
    t.dispose();
    m.dispose();
  }
});

test('scripts/quantize.mjs: usage, an F16 file in, an I8 file out; an I8 input (a shipped model) refused', async () => {
  const script = fileURLToPath(new URL('scripts/quantize.mjs', ROOT));
  const usage = spawnSync(process.execPath, [script], { encoding: 'utf8' });
  assert.equal(usage.status, 2);
  assert.match(
    usage.stderr,
    /usage: node scripts\/quantize\.mjs <in\.safetensors> <out\.safetensors>/,
  );
  const { m, t } = await trainedModel();
  const f16 = saveModel(m, { dtype: 'F16' });
  const fromF32 = saveModel(m, { dtype: 'I8' });
  t.dispose();
  m.dispose();
  mkdirSync(new URL('build/', ROOT), { recursive: true });
  const src = fileURLToPath(new URL(`build/i8-test-f16-${process.pid}.safetensors`, ROOT));
  const out = fileURLToPath(new URL(`build/i8-test-${process.pid}.safetensors`, ROOT));
  try {
    writeFileSync(src, f16);
    const r = spawnSync(process.execPath, [script, src, out], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      /i8-test-f16-\d+\.safetensors: \d+\.\d KB \(\d+\.\d KB gzip\) → .*: \d+\.\d KB \(\d+\.\d KB gzip\)/,
    );
    assert.deepEqual(
      new Uint8Array(readFileSync(out)),
      fromF32,
      'the I8 file of the float32 weights',
    );
  } finally {
    rmSync(src, { force: true });
    rmSync(out, { force: true });
  }
  const shippedI8 = fileURLToPath(new URL('web/models/tf-induction.safetensors', ROOT));
  const again = spawnSync(process.execPath, [script, shippedI8, `${out}.2`], { encoding: 'utf8' });
  assert.equal(again.status, 1);
  assert.match(
    again.stderr,
    /quantize: tensor "[^"]+" is already I8: quantize the F32 or F16 file it came from/,
  );
});
