// readSafetensors() through the wasm build: the malformed-file suite of tests/c/test_safetensors.c
// (every header-length case, the HTML page, deep nesting and a generous subset of the rest),
// PyTorch-written files (tests/fixtures/torch-*.safetensors, scripts/make_malformed.py), every
// committed fixture cross-checked against the independent JS reader in fixtures.js, and 1,000
// load cycles that must leave liveAllocations() at 0 and memory size unchanged after warm-up.
// Run: node --test tests/js/safetensors.test.js

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';

import { init, readSafetensors, AttnlabError } from '../../wasm/index.js';
import { parseSafetensors } from './fixtures.js';

const FIXTURES = new URL('../fixtures/', import.meta.url);
const enc = new TextEncoder();

/** A file: 8-byte length (default: the header's), the header text or bytes, then the data. */
function file(header, data = new Uint8Array(0), length) {
  const h = typeof header === 'string' ? enc.encode(header) : header;
  const out = new Uint8Array(8 + h.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(length ?? h.length), true);
  out.set(h, 8);
  out.set(data, 8 + h.length);
  return out;
}

const f32 = (...v) => new Uint8Array(new Float32Array(v).buffer);
const T1 = '"dtype": "F32", "shape": [1], "data_offsets": [0, 4]';

let lib;

/** readSafetensors(bytes) must throw AttnlabError with this code and message substring. */
function rejects(what, bytes, code, needle) {
  const before = lib.liveAllocations();
  assert.throws(
    () => readSafetensors(bytes),
    (e) => {
      assert.ok(e instanceof AttnlabError, `${what}: ${e}`);
      assert.equal(e.code, code, `${what}: ${e.message}`);
      assert.ok(e.message.startsWith('readSafetensors: '), `${what}: ${e.message}`);
      assert.ok(e.message.includes(needle), `${what}: "${e.message}" lacks "${needle}"`);
      return true;
    },
    what,
  );
  assert.equal(lib.liveAllocations(), before, `${what}: allocations back to baseline`);
}

test('init', async () => {
  lib = await init();
  assert.equal(lib.liveAllocations(), 0);
});

test('the 8-byte length prefix', () => {
  rejects('empty file', new Uint8Array(0), 'AL_ERR_FORMAT', 'empty file (0 bytes)');
  rejects('empty ArrayBuffer', new ArrayBuffer(0), 'AL_ERR_FORMAT', 'empty file');
  rejects(
    '5 bytes',
    new Uint8Array([16, 0, 0, 0, 0]),
    'AL_ERR_FORMAT',
    'file is 5 bytes, shorter than the 8-byte header length',
  );
  const body = enc.encode('{}                  '); // 20 bytes
  rejects(
    'larger than the file',
    file(body, undefined, 100),
    'AL_ERR_FORMAT',
    'header length 100 is larger than the 20 bytes after it: truncated file?',
  );
  rejects(
    '2^32',
    file(body, undefined, 2n ** 32n),
    'AL_ERR_FORMAT',
    'header length 4294967296 (>= 2^32)',
  );
  rejects(
    '2^53',
    file(body, undefined, 2n ** 53n),
    'AL_ERR_FORMAT',
    'header length 9007199254740992 (>= 2^53)',
  );
  rejects(
    '2^64 - 1',
    file(body, undefined, 2n ** 64n - 1n),
    'AL_ERR_FORMAT',
    'header length 18446744073709551615 (2^64 - 1, all bits set)',
  );
  rejects('0', file(body, undefined, 0), 'AL_ERR_FORMAT', 'header length 0 is too short');
  const big = new Uint8Array(16 * 1024 * 1024 + 1).fill(0x20);
  big[0] = 0x7b;
  big[big.length - 1] = 0x7d;
  rejects(
    'over the 16 MiB cap',
    file(big),
    'AL_ERR_UNSUPPORTED',
    "header length 16777217 is over attnlab's header cap of 16777216 bytes (16 MiB)",
  );
  const html = enc.encode(
    '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body>nope</body></html>\n',
  );
  rejects(
    'an HTML error page',
    html,
    'AL_ERR_FORMAT',
    'this looks like an HTML page, not safetensors (it starts "<!DOCTYPE html>',
  );
  rejects(
    'bare JSON',
    enc.encode(`{"w": {${T1}}}`),
    'AL_ERR_FORMAT',
    'looks like JSON text, not safetensors',
  );
});

test('the header as JSON', () => {
  rejects(
    'invalid UTF-8',
    file(new Uint8Array([0x7b, 0x22, 0x61, 0xff, 0x22, 0x3a, 0x7b, 0x7d, 0x7d])),
    'AL_ERR_FORMAT',
    'header is not valid UTF-8: byte 0xff at header offset 3',
  );
  rejects(
    'not JSON',
    file('hello, world'),
    'AL_ERR_FORMAT',
    'header is not valid JSON: unexpected character',
  );
  rejects('truncated JSON', file('{"w": {"dtype": "F3'), 'AL_ERR_FORMAT', 'unterminated string');
  rejects('an array', file('[1, 2]'), 'AL_ERR_FORMAT', 'header is an array, not a JSON object');
  rejects('lone surrogate', file('{"\\ud800x": 1}'), 'AL_ERR_FORMAT', 'high surrogate');
  rejects(
    '100,000 deep',
    file(`{"a":${'['.repeat(100000)}`),
    'AL_ERR_FORMAT',
    'nesting deeper than 64 levels',
  );
  rejects(
    '100,000 deep balanced',
    file(`{"a":${'['.repeat(100000)}${']'.repeat(100000)}}`),
    'AL_ERR_FORMAT',
    'nesting deeper than 64 levels',
  );
});

test('the schema', () => {
  const two = f32(1, 2);
  rejects(
    'duplicate names',
    file(`{"w": {${T1}}, "w": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}}`, two),
    'AL_ERR_FORMAT',
    'duplicate tensor name "w"',
  );
  rejects(
    'duplicate metadata keys',
    file('{"__metadata__": {"k": "a", "k": "b"}}'),
    'AL_ERR_FORMAT',
    'duplicate __metadata__ key "k"',
  );
  rejects(
    'NUL in a name',
    file(`{"a\\u0000b": {${T1}}}`, f32(1)),
    'AL_ERR_FORMAT',
    'the name contains a NUL character',
  );
  rejects(
    '1 MB name',
    file(`{"${'n'.repeat(1 << 20)}": {${T1}}}`, f32(1)),
    'AL_ERR_UNSUPPORTED',
    "the name is 1048576 bytes, over attnlab's cap of 1024",
  );
  rejects(
    'metadata number',
    file('{"__metadata__": {"layers": 2}}'),
    'AL_ERR_FORMAT',
    '__metadata__ "layers" must be a string, found a number',
  );
  rejects(
    'unknown dtype',
    file('{"w": {"dtype": "F31", "shape": [1], "data_offsets": [0, 4]}}', f32(1)),
    'AL_ERR_FORMAT',
    'tensor "w": unknown dtype "F31"',
  );
  for (const dt of ['F64', 'I64', 'I32', 'I16', 'U8', 'BOOL']) {
    rejects(
      `dtype ${dt}`,
      file(`{"ids": {"dtype": "${dt}", "shape": [1], "data_offsets": [0, 1]}}`, new Uint8Array(1)),
      'AL_ERR_UNSUPPORTED',
      `tensor "ids": dtype ${dt} is not supported`,
    );
  }
  rejects(
    'missing shape',
    file('{"w": {"dtype": "F32", "data_offsets": [0, 4]}}', f32(1)),
    'AL_ERR_FORMAT',
    'tensor "w": missing "shape"',
  );
  rejects(
    'extra field',
    file(`{"w": {${T1}, "layout": "nchw"}}`, f32(1)),
    'AL_ERR_FORMAT',
    'tensor "w": unknown field "layout"',
  );
  rejects(
    'dtype a number',
    file('{"w": {"dtype": 32, "shape": [1], "data_offsets": [0, 4]}}', f32(1)),
    'AL_ERR_FORMAT',
    '"dtype" must be a string, found a number',
  );
  rejects(
    'fractional dim',
    file('{"w": {"dtype": "F32", "shape": [1.5], "data_offsets": [0, 4]}}', f32(1)),
    'AL_ERR_FORMAT',
    'shape[0] is "1.5", not an integer in [0, 2^53]',
  );
  rejects(
    'negative dim',
    file('{"w": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}}', f32(1)),
    'AL_ERR_FORMAT',
    'shape[0] is "-1"',
  );
  rejects(
    'shape overflow',
    file(
      '{"w": {"dtype": "F32", "shape": [4294967296, 4294967296, 1], "data_offsets": [0, 4]}}',
      f32(1),
    ),
    'AL_ERR_OVERFLOW',
    'has more than 2^31 - 1 elements',
  );
  rejects(
    'bytes disagree with the shape',
    file(
      '{"enc.weight": {"dtype": "F32", "shape": [5, 5], "data_offsets": [0, 96]}}',
      new Uint8Array(100),
    ),
    'AL_ERR_FORMAT',
    'tensor "enc.weight": data_offsets [0, 96] but shape [5, 5] F32 needs 100 bytes',
  );
  rejects(
    'end before begin',
    file('{"w": {"dtype": "F32", "shape": [0], "data_offsets": [8, 4]}}', new Uint8Array(8)),
    'AL_ERR_FORMAT',
    'data_offsets [8, 4] end before begin',
  );
  rejects(
    'out of range',
    file('{"w": {"dtype": "F32", "shape": [1], "data_offsets": [8, 12]}}', new Uint8Array(8)),
    'AL_ERR_FORMAT',
    'past the end of the data buffer (8 bytes)',
  );
  rejects(
    'a gap',
    file(
      '{"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}, "b": {"dtype": "F32", "shape": [1], "data_offsets": [8, 12]}}',
      new Uint8Array(12),
    ),
    'AL_ERR_FORMAT',
    'gap in the data buffer: bytes [4, 8)',
  );
  rejects(
    'an overlap',
    file(
      '{"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}, "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}}',
      new Uint8Array(12),
    ),
    'AL_ERR_FORMAT',
    'tensor "b" [4, 12] overlaps tensor "a" [0, 8]',
  );
  rejects(
    'trailing bytes',
    file(`{"w": {${T1}}}`, f32(1, 2)),
    'AL_ERR_FORMAT',
    '4 trailing bytes after the last tensor',
  );
  rejects(
    'NaN weight',
    file('{"enc.weight": {"dtype": "F32", "shape": [3], "data_offsets": [0, 12]}}', f32(1, 2, NaN)),
    'AL_ERR_NONFINITE',
    'tensor "enc.weight": NaN at flat index 2',
  );
  rejects(
    'Inf weight (F16)',
    file(
      '{"h": {"dtype": "F16", "shape": [2], "data_offsets": [0, 4]}}',
      new Uint8Array([0, 0x3c, 0, 0x7c]),
    ),
    'AL_ERR_NONFINITE',
    'tensor "h": Infinity at flat index 1',
  );
});

test('I8 with per-row scales: int8 * scale[row], the scales not listed; refusals by name', () => {
  const I8W = '"W": {"dtype": "I8", "shape": [2, 3], "data_offsets": [0, 6]}';
  const q = new Uint8Array(new Int8Array([127, -1, 0, 5, -127, 64]).buffer);
  const withScales = (entry, scales) => {
    const d = new Uint8Array(6 + scales.length);
    d.set(q);
    d.set(scales, 6);
    return file(`{"W:scale": {${entry}}, ${I8W}}`, d);
  };
  const { tensors } = readSafetensors(
    withScales('"dtype": "F32", "shape": [2], "data_offsets": [6, 14]', f32(0.5, 0.1)),
  );
  assert.deepEqual([...tensors.keys()], ['W']);
  const w = tensors.get('W');
  assert.equal(w.dtype, 'I8');
  assert.deepEqual(w.shape, [2, 3]);
  assert.deepEqual(
    [...w.data],
    [63.5, -0.5, 0, 5 * Math.fround(0.1), -127 * Math.fround(0.1), 64 * Math.fround(0.1)].map(
      Math.fround,
    ),
  );
  rejects(
    'no scales',
    file(`{${I8W}}`, q),
    'AL_ERR_UNSUPPORTED',
    'tensor "W": dtype I8 without its ":scale" tensor (F32 [2], one scale per row)',
  );
  rejects(
    '1-D I8',
    file('{"ids": {"dtype": "I8", "shape": [1], "data_offsets": [0, 1]}}', new Uint8Array(1)),
    'AL_ERR_UNSUPPORTED',
    'tensor "ids": I8 [1]; attnlab loads I8 only as 2-D weights',
  );
  rejects(
    'F16 scales',
    withScales(
      '"dtype": "F16", "shape": [2], "data_offsets": [6, 10]',
      new Uint8Array([0, 0x3c, 0, 0x3c]),
    ),
    'AL_ERR_FORMAT',
    'tensor "W:scale": F16 [2], but the scales of an I8 tensor with 2 rows are F32 [2]',
  );
  rejects(
    'negative scale',
    withScales('"dtype": "F32", "shape": [2], "data_offsets": [6, 14]', f32(0.5, -1)),
    'AL_ERR_FORMAT',
    'tensor "W:scale": negative scale at row 1',
  );
  rejects(
    'NaN scale',
    withScales('"dtype": "F32", "shape": [2], "data_offsets": [6, 14]', f32(NaN, 1)),
    'AL_ERR_NONFINITE',
    'tensor "W:scale": NaN at flat index 0',
  );
  q[2] = 0x80;
  rejects(
    '-128',
    withScales('"dtype": "F32", "shape": [2], "data_offsets": [6, 14]', f32(0.5, 1)),
    'AL_ERR_FORMAT',
    'tensor "W": int8 value -128 at flat index 2; I8 weights are symmetric, in [-127, 127]',
  );
  assert.equal(lib.liveAllocations(), 0);
});

test('bad arguments', () => {
  for (const bad of [null, undefined, 'model.safetensors', [1, 2, 3], new Float32Array(4)]) {
    assert.throws(
      () => readSafetensors(bad),
      (e) =>
        e instanceof AttnlabError &&
        e.code === 'AL_ERR_ARGUMENT' &&
        /must be a Uint8Array or an ArrayBuffer/.test(e.message),
    );
  }
});

test('valid files: F32, F16, BF16, misaligned, zero-size, rank-0, metadata', () => {
  const data = new Uint8Array(40);
  data.set(f32(1.5, -2.25, 0, 1e-30, -3.4e38, 7), 0);
  data.set([0x00, 0x3c, 0x01, 0x00, 0xff, 0x03, 0xff, 0xfb], 24); // F16 1, 2^-24, 1023·2^-24, -65504
  data.set([0x49, 0x40, 0x00, 0xc0], 32); // BF16 3.140625, -2
  data.set(f32(-0.5), 36);
  const header = JSON.stringify({
    __metadata__: { config: JSON.stringify({ d_model: 4, name: 'tést 😀' }), format: 'pt' },
    w: { dtype: 'F32', shape: [2, 3], data_offsets: [0, 24] },
    half: { dtype: 'F16', shape: [4], data_offsets: [24, 32] },
    bf: { dtype: 'BF16', shape: [2], data_offsets: [32, 36] },
    empty: { dtype: 'F32', shape: [0, 3], data_offsets: [36, 36] },
    scalar: { dtype: 'F32', shape: [], data_offsets: [36, 40] },
  });
  for (const pad of [0, 1, 2, 3]) {
    // pad 1..3 misaligns every tensor in wasm memory too
    const bytes = file(header + ' '.repeat(pad), data);
    const { metadata, tensors } = readSafetensors(pad === 2 ? bytes.buffer : bytes);
    assert.deepEqual(JSON.parse(metadata.config), { d_model: 4, name: 'tést 😀' });
    assert.equal(metadata.format, 'pt');
    assert.deepEqual([...tensors.keys()], ['w', 'half', 'bf', 'empty', 'scalar']);
    assert.deepEqual(tensors.get('w').shape, [2, 3]);
    assert.deepEqual(
      [...tensors.get('w').data],
      [...new Float32Array([1.5, -2.25, 0, 1e-30, -3.4e38, 7])],
    );
    assert.equal(tensors.get('half').dtype, 'F16');
    assert.deepEqual([...tensors.get('half').data], [1, 2 ** -24, 1023 * 2 ** -24, -65504]);
    assert.deepEqual([...tensors.get('bf').data], [3.140625, -2]);
    assert.deepEqual(tensors.get('empty'), {
      data: new Float32Array(0),
      shape: [0, 3],
      dtype: 'F32',
    });
    assert.deepEqual(tensors.get('scalar').shape, []);
    assert.deepEqual([...tensors.get('scalar').data], [-0.5]);
    assert.equal(lib.liveAllocations(), 0);
  }
  const { metadata, tensors } = readSafetensors(file('{}'));
  assert.deepEqual(metadata, {});
  assert.equal(tensors.size, 0);
  const proto = readSafetensors(
    file('{"__metadata__": {"__proto__": "x", "constructor": "y"}}'),
  ).metadata;
  assert.equal(
    Object.getPrototypeOf(proto),
    Object.prototype,
    'a "__proto__" key does not change the prototype',
  );
  assert.deepEqual(Object.keys(proto), ['__proto__', 'constructor']);
  assert.equal(proto.constructor, 'y');
});

test('PyTorch files: nn.Linear + LayerNorm state_dict (F32) and F16/BF16 against torch.float()', () => {
  const { metadata, tensors } = readSafetensors(
    readFileSync(new URL('torch-linear.safetensors', FIXTURES)),
  );
  const config = JSON.parse(metadata.config);
  assert.equal(config.d_in, 4);
  assert.deepEqual(tensors.get('linear.weight').shape, [3, 4]);
  assert.deepEqual(tensors.get('norm.bias').shape, [3]);
  // recompute LayerNorm(Linear(x)) in double from the loaded weights: the loader read them right
  const W = tensors.get('linear.weight').data;
  const b = tensors.get('linear.bias').data;
  const g = tensors.get('norm.weight').data;
  const beta = tensors.get('norm.bias').data;
  const x = tensors.get('example.input').data;
  const want = tensors.get('example.output').data;
  for (let r = 0; r < 2; r++) {
    const h = [0, 1, 2].map(
      (o) => b[o] + [0, 1, 2, 3].reduce((s, k) => s + W[o * 4 + k] * x[r * 4 + k], 0),
    );
    const mean = h.reduce((s, v) => s + v, 0) / 3;
    const vr = h.reduce((s, v) => s + (v - mean) ** 2, 0) / 3;
    h.forEach((v, o) => {
      const y = ((v - mean) / Math.sqrt(vr + 1e-5)) * g[o] + beta[o];
      assert.ok(
        Math.abs(y - want[r * 3 + o]) < 1e-5,
        `row ${r} col ${o}: ${y} vs ${want[r * 3 + o]}`,
      );
    });
  }
  const half = readSafetensors(readFileSync(new URL('torch-half.safetensors', FIXTURES))).tensors;
  assert.equal(half.get('w.f16').dtype, 'F16');
  assert.equal(half.get('w.bf16').dtype, 'BF16');
  assert.deepEqual(half.get('w.f16').shape, [3, 5]);
  assert.deepEqual(
    [...half.get('w.f16').data],
    [...half.get('w.f16.f32').data],
    'F16 -> F32 exactly as torch',
  );
  assert.deepEqual(
    [...half.get('w.bf16').data],
    [...half.get('w.bf16.f32').data],
    'BF16 -> F32 exactly as torch',
  );
  assert.equal(lib.liveAllocations(), 0);
});

test('every committed fixture: loads the same as the JS reference reader, or is refused by name', () => {
  const names = readdirSync(FIXTURES).filter((f) => f.endsWith('.safetensors'));
  assert.ok(names.length >= 4);
  for (const name of names) {
    const bytes = readFileSync(new URL(name, FIXTURES));
    let ref;
    try {
      ref = parseSafetensors(bytes, name);
    } catch {
      continue; // F16/BF16 files the reference reader does not know (tested above)
    }
    const dtypes = new Set([...ref.tensors.values()].map((t) => t.dtype));
    const loadable = [...dtypes].every((d) => d === 'F32');
    if (!loadable) {
      assert.throws(
        () => readSafetensors(bytes),
        (e) => e.code === 'AL_ERR_UNSUPPORTED' && /dtype \w+ is not supported/.test(e.message),
        name,
      );
      continue;
    }
    const got = readSafetensors(bytes);
    assert.deepEqual(got.metadata, ref.metadata, name);
    assert.deepEqual([...got.tensors.keys()], [...ref.tensors.keys()], name);
    for (const [k, t] of ref.tensors) {
      assert.deepEqual(got.tensors.get(k).shape, t.shape, `${name} ${k}`);
      assert.deepEqual(got.tensors.get(k).data, t.data, `${name} ${k}`);
    }
  }
  assert.equal(lib.liveAllocations(), 0);
});

test('1,000 load/free cycles: no leaks, memory size unchanged after warm-up', () => {
  const bytes = readFileSync(new URL('torch-linear.safetensors', FIXTURES));
  const broken = bytes.slice(0, bytes.length - 1);
  const cycle = () => {
    readSafetensors(bytes);
    assert.throws(() => readSafetensors(broken), AttnlabError);
  };
  for (let i = 0; i < 10; i++) cycle();
  const size = lib.memoryBytes();
  for (let i = 0; i < 1000; i++) cycle();
  assert.equal(lib.liveAllocations(), 0);
  assert.equal(lib.memoryBytes(), size);
});
