// Tests of the fixture pipeline itself: the safetensors reader in fixtures.js (against
// tests/fixtures/roundtrip.safetensors, written by scripts/gen_fixtures.py, and against broken
// files built here), assertClose, and the sdpa fixture's contract (shapes, dtypes, cases, and
// an independent float64 recomputation of every expected tensor from its inputs).
//
// Does not test attnlab's kernels: tests that load the wasm compare against these fixtures.
// Run: node --test tests/js/fixtures.test.js

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';

import { assertClose, loadFixture, parseSafetensors } from './fixtures.js';

const fixtureUrl = (name) => new URL(`../fixtures/${name}.safetensors`, import.meta.url);

// A safetensors writer following the same layout rules as scripts/fixtures_lib.py:
// "__metadata__" first with sorted keys, tensors widest element first then by name, compact
// ASCII-only JSON, space padding to a multiple of 8. `rawFile` takes any header, for bad files.
const SIZES = { F64: 8, I64: 8, F32: 4, I32: 4, U8: 1, BOOL: 1 };

function rawFile(header, data, { pad = true } = {}) {
  let json = JSON.stringify(header).replace(
    /[\u0080-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  if (pad) json += ' '.repeat((8 - ((8 + json.length) % 8)) % 8);
  const out = new Uint8Array(8 + json.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(new TextEncoder().encode(json), 8);
  out.set(data, 8 + json.length);
  return out;
}

function encode(tensors, metadata) {
  const names = [...tensors.keys()].sort(
    (a, b) =>
      SIZES[tensors.get(b).dtype] - SIZES[tensors.get(a).dtype] || (a < b ? -1 : a > b ? 1 : 0),
  );
  const sortedMeta = Object.entries(metadata).sort(([a], [b]) => (a < b ? -1 : 1));
  const header = { __metadata__: Object.fromEntries(sortedMeta) };
  const chunks = [];
  let offset = 0;
  for (const name of names) {
    const { dtype, shape, data } = tensors.get(name);
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    header[name] = { dtype, shape, data_offsets: [offset, offset + bytes.length] };
    chunks.push(bytes);
    offset += bytes.length;
  }
  const data = new Uint8Array(offset);
  let at = 0;
  for (const c of chunks) {
    data.set(c, at);
    at += c.length;
  }
  return rawFile(header, data);
}

const f32bytes = (...xs) => new Uint8Array(new Float32Array(xs).buffer);

test('roundtrip fixture: every dtype, edge values, scalar and empty tensors', () => {
  const { metadata, cases } = loadFixture('roundtrip');
  assert.equal(metadata.fixture, 'roundtrip');
  assert.equal(metadata.note, 'quote " backslash \\ and é');
  assert.deepEqual(
    cases.map((c) => c.name),
    ['dtypes', 'shapes'],
  );
  assert.equal(cases[1].note, 'torch input');
  const t = cases[0].tensors;
  assert.deepEqual(Object.keys(t).sort(), [
    'bool',
    'empty',
    'f32',
    'f64',
    'i32',
    'i64',
    'scalar',
    'u8',
  ]);

  assert.equal(t.f32.dtype, 'F32');
  assert.ok(t.f32.data instanceof Float32Array);
  assert.deepEqual(t.f32.shape, [3, 3]);
  const want = [0, -0, 1.5, -2.25, 3.4028234663852886e38, 2 ** -149, Infinity, -Infinity, NaN];
  want.forEach((w, i) =>
    assert.ok(Object.is(t.f32.data[i], w), `f32[${i}] = ${t.f32.data[i]}, want ${w}`),
  );

  assert.ok(t.f64.data instanceof Float64Array);
  assert.deepEqual([...t.f64.data], [0.1, -1e308, 5e-324]);
  assert.ok(t.u8.data instanceof Uint8Array);
  assert.deepEqual([t.u8.dtype, t.u8.shape, [...t.u8.data]], ['U8', [2, 2], [0, 1, 127, 255]]);
  assert.ok(t.bool.data instanceof Uint8Array);
  assert.deepEqual([t.bool.dtype, [...t.bool.data]], ['BOOL', [1, 0, 0, 1]]);
  assert.ok(t.i32.data instanceof Int32Array);
  assert.deepEqual([...t.i32.data], [-(2 ** 31), 0, 2 ** 31 - 1]);
  assert.ok(t.i64.data instanceof BigInt64Array);
  assert.deepEqual([...t.i64.data], [-(2n ** 53n) - 1n, 2n ** 63n - 1n]); // beyond 2^53: exact
  assert.deepEqual([t.scalar.shape, [...t.scalar.data]], [[], [7.5]]);
  assert.deepEqual([t.empty.shape, t.empty.data.length], [[0, 3], 0]);

  const x = cases[1].tensors.x;
  assert.deepEqual(x.shape, [2, 3, 4]);
  assert.deepEqual(
    [...x.data],
    Array.from({ length: 24 }, (_, i) => i * 0.5 - 3),
  );
  // Copies with their own buffers: typed views over the file would break on unaligned offsets.
  assert.equal(x.data.byteOffset, 0);
  assert.equal(x.data.buffer.byteLength, 24 * 4);
});

test('roundtrip fixture: re-encoding with the documented layout gives the same bytes', () => {
  const bytes = readFileSync(fixtureUrl('roundtrip'));
  const { metadata, tensors } = parseSafetensors(bytes);
  assert.deepEqual(encode(tensors, metadata), new Uint8Array(bytes));
  // Header order is data order, widest elements first, so every tensor is aligned in the file.
  const begins = [...tensors.keys()];
  assert.deepEqual(begins.slice(0, 2), ['dtypes.f64', 'dtypes.i64']);
  assert.deepEqual(begins.slice(-2), ['dtypes.bool', 'dtypes.u8']);
});

test('parser: accepts a file with no __metadata__ and an ArrayBuffer', () => {
  const file = rawFile({ a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] } }, f32bytes(1, 2));
  const { metadata, tensors } = parseSafetensors(file.buffer);
  assert.deepEqual(metadata, {});
  assert.deepEqual([...tensors.get('a').data], [1, 2]);
});

test('parser: rejects malformed files with a message naming the problem', () => {
  const ok = { dtype: 'F32', shape: [2], data_offsets: [0, 8] };
  const data = f32bytes(1, 2);
  const bad = (file, pattern) =>
    assert.throws(() => parseSafetensors(file, 'x.safetensors'), pattern);

  bad(new Uint8Array(5), /shorter than the 8-byte header length/);
  const tooLong = rawFile({ a: ok }, data);
  new DataView(tooLong.buffer).setBigUint64(0, BigInt(tooLong.length), true);
  bad(tooLong, /header length \d+ does not fit/);
  const notJson = rawFile({ a: ok }, data);
  notJson[9] = 0x3a; // ':' where '"' was
  bad(notJson, /not UTF-8 JSON/);
  const notUtf8 = rawFile({ a: ok }, data);
  notUtf8[10] = 0xff;
  bad(notUtf8, /not UTF-8 JSON/);
  bad(rawFile([ok], data), /does not start with "\{"|not a JSON object/);
  bad(rawFile({ __metadata__: { n: 1 }, a: ok }, data), /__metadata__\.n is number/);
  bad(rawFile({ a: { ...ok, dtype: 'F16' } }, data), /dtype "F16" is not one of/);
  bad(rawFile({ a: { ...ok, extra: 1 } }, data), /keys are/);
  bad(rawFile({ a: { ...ok, shape: [-2] } }, data), /bad shape/);
  bad(rawFile({ a: { ...ok, shape: [3] } }, data), /8 bytes for shape \[3\] F32, which needs 12/);
  bad(rawFile({ a: { ...ok, data_offsets: [0, 12] } }, data), /outside the 8-byte data/);
  bad(
    rawFile({ a: ok }, new Uint8Array([...data, 0, 0, 0, 0])),
    /4 data bytes after the last tensor/,
  );
  bad(
    rawFile({ a: { ...ok, shape: [1], data_offsets: [4, 8] } }, data),
    /starts at byte 4, expected 0 \(gap\)/,
  );
  bad(rawFile({ a: ok, b: { ...ok, shape: [1], data_offsets: [4, 8] } }, data), /overlap/);
  bad(
    rawFile({ a: { dtype: 'BOOL', shape: [2], data_offsets: [0, 2] } }, new Uint8Array([1, 2])),
    /BOOL values must be 0 or 1/,
  );
});

test('assertClose: passes within atol + rtol·|expected|, NaN with NaN, equal infinities', () => {
  assertClose([1, 2, 3], new Float32Array([1, 2, 3]));
  assertClose([1 + 0.9e-5], [1], { atol: 1e-5, rtol: 0 });
  assertClose([1000.05], [1000], { atol: 0, rtol: 1e-4 }); // 0.05 <= 1e-4 · 1000
  assertClose([NaN, Infinity, -Infinity], [NaN, Infinity, -Infinity]);
  const r = assertClose([0, 1.000001, 2], [0, 1, 2.0000005]);
  assert.equal(r.index, 1);
  assert.ok(Math.abs(r.maxAbsDiff - 1e-6) < 1e-12);
  assertClose({ data: [1, 2], shape: [2] }, { data: new Float32Array([1, 2]), shape: [2] });
});

test('assertClose: throws on a real difference, naming the worst index and values', () => {
  assert.throws(
    () => assertClose([0, 1.1, 2, 3.5], [0, 1, 2, 3], { label: 'out' }),
    (err) => {
      assert.match(err.message, /^out: 2 of 4 values differ/);
      assert.match(err.message, /worst at index 3: actual 3\.5, expected 3, \|diff\| 0\.5$/);
      return true;
    },
  );
  assert.throws(() => assertClose([1000.2], [1000], { atol: 0, rtol: 1e-4 }), /index 0/);
  assert.throws(
    () => assertClose([0, 0, 0, 0, 0, 9], [0, 0, 0, 0, 0, 0], { shape: [2, 3] }),
    /worst at index 5 \[1, 2\]: actual 9, expected 0/,
  );
  assert.throws(
    () => assertClose({ data: [0, 0, 1], shape: [3] }, { data: [0, 0, 0], shape: [3] }),
    /index 2 \[2\]/,
  );
  assert.throws(
    () => assertClose({ data: [0, 0], shape: [2] }, { data: [0, 0], shape: [1, 2] }),
    /shape \[2\] != expected \[1,2\]/,
  );
  assert.throws(() => assertClose([1, 2], [1, 2, 3]), /length 2 != expected length 3/);
  assert.throws(() => assertClose([1, NaN], [1, 2]), /index 1: actual NaN, expected 2/);
  assert.throws(() => assertClose([1, 2], [1, NaN]), /index 1: actual 2, expected NaN/);
  assert.throws(() => assertClose([Infinity], [1e30]), /actual Infinity/);
  assert.throws(() => assertClose([Infinity], [-Infinity]), /index 0/);
});

// ---------------------------------------------------------------------------------------------
// The sdpa fixture

/** float64 SDPA straight from the conventions in scripts/gen_fixtures.py, written separately. */
function sdpaReference(c) {
  const { query: q, key: k, value: v, key_padding_mask: m } = c.tensors;
  const [L, D] = q.shape.slice(-2);
  const S = k.shape.at(-2);
  const Dv = v.shape.at(-1);
  const groups = q.shape.slice(0, -2).reduce((p, d) => p * d, 1); // B·H, H or 1
  const heads = q.shape.length === 4 ? q.shape[1] : groups;
  const scale = c.scale ?? 1 / Math.sqrt(D);
  const output = new Float64Array(groups * L * Dv);
  const weights = new Float64Array(groups * L * S);
  const scores = new Float64Array(groups * L * S).fill(-Infinity);
  for (let g = 0; g < groups; g++) {
    const maskRow = m ? (m.shape.length === 2 ? Math.floor(g / heads) * S : 0) : -1;
    for (let i = 0; i < L; i++) {
      const row = (g * L + i) * S;
      let max = -Infinity;
      for (let j = 0; j < S; j++) {
        if ((c.causal && j > i) || (m && m.data[maskRow + j])) continue;
        let dot = 0;
        for (let d = 0; d < D; d++)
          dot += q.data[(g * L + i) * D + d] * k.data[(g * S + j) * D + d];
        scores[row + j] = dot * scale;
        max = Math.max(max, dot * scale);
      }
      if (max === -Infinity) continue; // fully masked: weights and output stay 0
      let sum = 0;
      for (let j = 0; j < S; j++) sum += weights[row + j] = Math.exp(scores[row + j] - max);
      for (let j = 0; j < S; j++) weights[row + j] /= sum;
      for (let j = 0; j < S; j++) {
        for (let d = 0; d < Dv; d++) {
          output[(g * L + i) * Dv + d] += weights[row + j] * v.data[(g * S + j) * Dv + d];
        }
      }
    }
  }
  return { output, weights, scores };
}

const sdpa = loadFixture('sdpa');
const sdpaCase = (name) => sdpa.cases.find((c) => c.name === name);

test('sdpa fixture: small file with every required case', () => {
  assert.ok(statSync(fixtureUrl('sdpa')).size < 600 * 1024);
  assert.equal(sdpa.metadata.fixture, 'sdpa');
  const names = sdpa.cases.map((c) => c.name);
  for (const n of [
    'l1_s1',
    'l3_s7',
    'd5',
    'd7_dv3',
    'heads3',
    'batch_heads_mask',
    'causal_l3_s6',
    'causal_l6_s3',
    'causal_mask',
    'causal_mask_bh',
    'scale_1_25',
    'scores_90_100',
    'outliers',
    'n300',
    'l20_s300_mask',
  ]) {
    assert.ok(names.includes(n), `missing case ${n}`);
  }
  assert.deepEqual(sdpaCase('n300').tensors.weights.shape, [300, 300]);
  assert.deepEqual(sdpaCase('l20_s300_mask').tensors.weights.shape, [20, 300]);
  assert.equal(sdpaCase('scale_1_25').scale, 1.25);
});

test('sdpa fixture: dtypes, shapes and settings agree with the conventions', () => {
  for (const c of sdpa.cases) {
    const { query, key, value, output, weights, key_padding_mask: mask } = c.tensors;
    const msg = `case ${c.name}`;
    assert.deepEqual(
      Object.keys(c.tensors).sort(),
      ['key', ...(c.mask ? ['key_padding_mask'] : []), 'output', 'query', 'value', 'weights'],
      msg,
    );
    for (const t of [query, key, value, output, weights]) {
      assert.equal(t.dtype, 'F32', msg);
      assert.ok(t.data instanceof Float32Array, msg);
    }
    assert.equal(typeof c.causal, 'boolean', msg);
    assert.ok(c.scale === null || (typeof c.scale === 'number' && c.scale > 0), msg);
    const rank = query.shape.length;
    assert.ok(rank >= 2 && rank <= 4, msg);
    const lead = query.shape.slice(0, -2);
    const [L, D] = query.shape.slice(-2);
    const [S, Dk] = key.shape.slice(-2);
    const [Sv, Dv] = value.shape.slice(-2);
    assert.deepEqual([Dk, Sv], [D, S], msg);
    assert.deepEqual(key.shape.slice(0, -2), lead, msg);
    assert.deepEqual(value.shape.slice(0, -2), lead, msg);
    assert.deepEqual(output.shape, [...lead, L, Dv], msg);
    assert.deepEqual(weights.shape, [...lead, L, S], msg);
    if (mask) {
      assert.equal(mask.dtype, 'U8', msg);
      assert.deepEqual(mask.shape, rank === 4 ? [lead[0], S] : [S], msg);
      assert.ok(
        mask.data.every((x) => x === 0 || x === 1),
        msg,
      );
    }
  }
});

test('sdpa fixture: expected tensors match an independent float64 recomputation', () => {
  for (const c of sdpa.cases) {
    const ref = sdpaReference(c);
    // Only the float32 rounding of the stored expectations separates the two.
    const { weights, output } = c.tensors;
    assertClose(weights.data, ref.weights, {
      atol: 1e-7,
      rtol: 1e-6,
      label: `${c.name} weights`,
      shape: weights.shape,
    });
    assertClose(output.data, ref.output, {
      atol: 1e-6,
      rtol: 1e-6,
      label: `${c.name} output`,
      shape: output.shape,
    });
  }
});

test('sdpa fixture: the inputs are ones that break wrong code', () => {
  const rows = (c) => {
    const { weights, output } = c.tensors;
    const S = weights.shape.at(-1);
    const Dv = output.shape.at(-1);
    return Array.from({ length: weights.data.length / S }, (_, r) => ({
      w: weights.data.subarray(r * S, (r + 1) * S),
      out: output.data.subarray(r * Dv, (r + 1) * Dv),
    }));
  };
  // Fully masked rows: exactly zero weights and output (not NaN); the others sum to 1.
  const dead = { batch_heads_mask: 6, causal_mask: 2, causal_mask_bh: 4 };
  for (const c of sdpa.cases) {
    let zeros = 0;
    for (const { w, out } of rows(c)) {
      const sum = w.reduce((p, x) => p + x, 0);
      if (sum === 0) {
        zeros++;
        assert.ok(
          out.every((x) => x === 0),
          `${c.name}: dead row with output ${out}`,
        );
      } else {
        assert.ok(Math.abs(sum - 1) < 1e-5, `${c.name}: weights sum to ${sum}`);
      }
    }
    assert.equal(zeros, dead[c.name] ?? 0, `${c.name}: fully masked rows`);
  }
  // Scores in [90, 100]: exp() of any of them overflows float32 (max is about e^88.72).
  const hot = sdpaReference(sdpaCase('scores_90_100')).scores;
  assert.ok(hot.every((s) => s >= 90 && s <= 100 && Math.fround(Math.exp(s)) === Infinity));
  // Outliers: in every row, one weight carries far more than 1/S.
  for (const { w } of rows(sdpaCase('outliers'))) {
    assert.ok(Math.max(...w) > 0.3, `outlier row max ${Math.max(...w)}`);
  }
  // Length 1: the output is the value row.
  const one = sdpaCase('l1_s1').tensors;
  assert.deepEqual([...one.weights.data], [1]);
  assertClose(one.output.data, one.value.data, { atol: 0, rtol: 0 });
});
