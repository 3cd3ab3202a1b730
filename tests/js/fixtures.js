// PyTorch reference fixtures for node tests: a strict safetensors reader, `loadFixture(name)`
// for tests/fixtures/<name>.safetensors, and `assertClose` for comparing float arrays.
//
//   import { loadFixture, assertClose } from './fixtures.js';
//   for (const c of loadFixture('sdpa').cases) {
//     const { query, key, value, output } = c.tensors;        // { dtype, shape, data }
//     const got = ops.scaledDotProductAttention(query, key, value, { causal: c.causal });
//     assertClose(got.output, output, { label: `sdpa ${c.name} output` });
//   }
//
// Fixtures are written by scripts/gen_fixtures.py (by hand, never in CI) and committed. Each
// file's metadata "cases" is a JSON list of {"name", ...settings}; tensor "<case>.<tensor>"
// belongs to that case. This module does not run kernels, fetch anything, or write files, and
// it is Node-only (node:fs). Format: https://github.com/huggingface/safetensors ("Format"):
// u64 little-endian header length N, N bytes of JSON header (space padded), then the data,
// which the tensors' [begin, end) ranges must tile exactly. Checks are strict because a reader
// that tolerates a bad fixture lets a bad test pass.

import { readFileSync } from 'node:fs';

const FIXTURE_DIR = new URL('../fixtures/', import.meta.url);
const MAX_HEADER = 100 * 1024 * 1024; // the reference implementation's limit
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** safetensors dtype -> element size and the typed array its data is returned in. */
export const DTYPES = Object.freeze({
  F32: { size: 4, ArrayType: Float32Array },
  F64: { size: 8, ArrayType: Float64Array },
  U8: { size: 1, ArrayType: Uint8Array },
  BOOL: { size: 1, ArrayType: Uint8Array },
  I32: { size: 4, ArrayType: Int32Array },
  I64: { size: 8, ArrayType: BigInt64Array },
});

const isPlainObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
const isCount = (x) => Number.isSafeInteger(x) && x >= 0;

/**
 * Parse safetensors bytes.
 * @param {Uint8Array | ArrayBuffer} input the whole file
 * @param {string} [source] file name for error messages
 * @returns {{ metadata: Record<string, string>,
 *             tensors: Map<string, { dtype: string, shape: number[], data: ArrayBufferView }> }}
 *   tensors in header order; each `data` is a copy with its own buffer (so always aligned).
 */
export function parseSafetensors(input, source = 'safetensors') {
  const fail = (msg) => {
    throw new Error(`${source}: ${msg}`);
  };
  if (!LITTLE_ENDIAN) fail('this reader assumes a little-endian host');
  const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : input;
  if (!(bytes instanceof Uint8Array)) fail('expected a Uint8Array or ArrayBuffer');
  if (bytes.length < 8) fail(`${bytes.length} bytes, shorter than the 8-byte header length`);

  const n64 = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
  if (n64 > BigInt(MAX_HEADER) || 8n + n64 > BigInt(bytes.length)) {
    fail(`header length ${n64} does not fit in a ${bytes.length}-byte file`);
  }
  const n = Number(n64);
  let text;
  let header;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + n));
    header = JSON.parse(text);
  } catch (err) {
    fail(`header is not UTF-8 JSON (${err.message})`);
  }
  if (!text.startsWith('{')) fail('header does not start with "{"');
  if (!isPlainObject(header)) fail('header is not a JSON object');

  const metadata = header.__metadata__ ?? {};
  if (!isPlainObject(metadata)) fail('__metadata__ is not an object');
  for (const [k, v] of Object.entries(metadata)) {
    if (typeof v !== 'string') fail(`__metadata__.${k} is ${typeof v}, not a string`);
  }

  const dataStart = 8 + n;
  const dataLength = bytes.length - dataStart;
  const entries = [];
  for (const [name, info] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const where = `tensor "${name}"`;
    if (!isPlainObject(info)) fail(`${where}: entry is not an object`);
    const keys = Object.keys(info).sort().join(',');
    if (keys !== 'data_offsets,dtype,shape') {
      fail(`${where}: keys are {${keys}}, expected {data_offsets,dtype,shape}`);
    }
    const { dtype, shape, data_offsets: offsets } = info;
    const type = Object.hasOwn(DTYPES, dtype) ? DTYPES[dtype] : null;
    if (!type) {
      fail(
        `${where}: dtype ${JSON.stringify(dtype)} is not one of ${Object.keys(DTYPES).join(', ')}`,
      );
    }
    if (!Array.isArray(shape) || !shape.every(isCount))
      fail(`${where}: bad shape ${JSON.stringify(shape)}`);
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isCount)) {
      fail(`${where}: bad data_offsets ${JSON.stringify(offsets)}`);
    }
    let numel = 1;
    for (const d of shape) {
      numel *= d;
      if (!Number.isSafeInteger(numel * type.size)) fail(`${where}: shape [${shape}] is too large`);
    }
    const [begin, end] = offsets;
    if (begin > end || end > dataLength) {
      fail(`${where}: data_offsets [${begin}, ${end}] outside the ${dataLength}-byte data`);
    }
    if (end - begin !== numel * type.size) {
      fail(
        `${where}: ${end - begin} bytes for shape [${shape}] ${dtype}, which needs ${numel * type.size}`,
      );
    }
    entries.push({ name, dtype, shape, begin, end, type });
  }

  // The ranges must tile the data exactly: no gaps, no overlaps (which would also hide a
  // duplicated JSON key, since JSON.parse keeps only the last), no trailing bytes.
  let pos = 0;
  for (const e of [...entries].sort((a, b) => a.begin - b.begin || a.end - b.end)) {
    if (e.begin !== pos) {
      const kind = e.begin < pos ? 'overlap' : 'gap';
      fail(`tensor "${e.name}" starts at byte ${e.begin}, expected ${pos} (${kind})`);
    }
    pos = e.end;
  }
  if (pos !== dataLength) fail(`${dataLength - pos} data bytes after the last tensor`);

  const tensors = new Map();
  for (const { name, dtype, shape, begin, end, type } of entries) {
    const at = bytes.byteOffset + dataStart;
    const data = new type.ArrayType(bytes.buffer.slice(at + begin, at + end));
    if (dtype === 'BOOL' && data.some((x) => x > 1))
      fail(`tensor "${name}": BOOL values must be 0 or 1`);
    tensors.set(name, { dtype, shape: [...shape], data });
  }
  return { metadata: { ...metadata }, tensors };
}

/**
 * Load tests/fixtures/<name>.safetensors.
 * @param {string} name e.g. 'sdpa'
 * @returns {{ metadata: Record<string, string>,
 *             cases: Array<{ name: string, [setting: string]: unknown,
 *                            tensors: Record<string, { dtype: string, shape: number[],
 *                                                      data: ArrayBufferView }> }> }}
 *   cases in the order of metadata "cases", each with its settings and its tensors keyed by
 *   the part of the tensor name after "<case>.".
 */
export function loadFixture(name) {
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new Error(`bad fixture name ${JSON.stringify(name)}`);
  const url = new URL(`${name}.safetensors`, FIXTURE_DIR);
  const source = `tests/fixtures/${name}.safetensors`;
  let bytes;
  try {
    bytes = readFileSync(url);
  } catch (err) {
    throw new Error(
      `${source}: cannot read (${err.code ?? err.message}); ` +
        `regenerate with /usr/bin/python3 scripts/gen_fixtures.py ${name}`,
    );
  }
  const { metadata, tensors } = parseSafetensors(bytes, source);
  const fail = (msg) => {
    throw new Error(`${source}: ${msg}`);
  };

  if (typeof metadata.cases !== 'string') fail('metadata has no "cases"');
  let list;
  try {
    list = JSON.parse(metadata.cases);
  } catch (err) {
    fail(`metadata "cases" is not JSON (${err.message})`);
  }
  if (!Array.isArray(list)) fail('metadata "cases" is not a JSON list');
  const byName = new Map();
  const cases = list.map((c, i) => {
    if (!isPlainObject(c) || typeof c.name !== 'string' || !/^[^.]+$/.test(c.name)) {
      fail(`case ${i} has no usable "name" (a string without ".")`);
    }
    if (byName.has(c.name)) fail(`case "${c.name}" is listed twice`);
    if ('tensors' in c) fail(`case "${c.name}" has a "tensors" setting, which would be shadowed`);
    const out = { ...c, tensors: {} };
    byName.set(c.name, out);
    return out;
  });

  for (const [full, tensor] of tensors) {
    const dot = full.indexOf('.');
    const owner = dot > 0 ? byName.get(full.slice(0, dot)) : undefined;
    const key = full.slice(dot + 1);
    if (!owner || !key || key === '__proto__') {
      fail(`tensor "${full}" is not "<case>.<tensor>" for a listed case`);
    }
    owner.tensors[key] = tensor;
  }
  for (const c of cases) {
    if (Object.keys(c.tensors).length === 0) fail(`case "${c.name}" has no tensors`);
  }
  return { metadata, cases };
}

function unravel(index, shape) {
  const idx = [];
  for (let d = shape.length - 1; d >= 0; d--) {
    idx.unshift(index % shape[d]);
    index = Math.floor(index / shape[d]);
  }
  return idx;
}

/**
 * Throw unless every |actual[i] - expected[i]| <= atol + rtol * |expected[i]|. NaN matches only
 * NaN; infinities match only themselves. The error names the worst index (and its position in
 * `shape`, when known), the actual and expected values and |diff|.
 * @param {ArrayLike<number> | { data: ArrayLike<number>, shape?: number[] }} actual
 * @param {ArrayLike<number> | { data: ArrayLike<number>, shape?: number[] }} expected
 * @param {{ atol?: number, rtol?: number, label?: string, shape?: number[] }} [options]
 *   defaults: the "whole model vs PyTorch fixture" tolerances, atol 1e-5 and rtol 1e-4.
 * @returns {{ maxAbsDiff: number, index: number }} the largest |diff| and where it was
 */
export function assertClose(
  actual,
  expected,
  { atol = 1e-5, rtol = 1e-4, label = 'values', shape } = {},
) {
  const a = actual?.data ?? actual;
  const e = expected?.data ?? expected;
  shape ??= expected?.shape ?? actual?.shape;
  if (actual?.shape && expected?.shape && actual.shape.join() !== expected.shape.join()) {
    throw new Error(`${label}: shape [${actual.shape}] != expected [${expected.shape}]`);
  }
  if (a?.length === undefined || e?.length === undefined) {
    throw new TypeError(`${label}: expected two array-likes`);
  }
  if (a.length !== e.length)
    throw new Error(`${label}: length ${a.length} != expected length ${e.length}`);

  let bad = 0;
  let worst = -1;
  let worstExcess = -Infinity;
  let maxAbsDiff = 0;
  let maxIndex = -1;
  for (let i = 0; i < a.length; i++) {
    const x = Number(a[i]);
    const y = Number(e[i]);
    let diff;
    let excess;
    if (Number.isNaN(x) || Number.isNaN(y)) {
      if (Number.isNaN(x) && Number.isNaN(y)) continue;
      diff = NaN;
      excess = Infinity;
    } else if (x === y) {
      continue; // also equal infinities, whose difference would be NaN
    } else {
      diff = Math.abs(x - y);
      // An infinity matches only itself (rtol·∞ would otherwise excuse anything).
      excess =
        Number.isFinite(x) && Number.isFinite(y) ? diff - (atol + rtol * Math.abs(y)) : Infinity;
      if (diff > maxAbsDiff) {
        maxAbsDiff = diff;
        maxIndex = i;
      }
      if (!(excess > 0)) continue;
    }
    bad++;
    if (excess > worstExcess) {
      worstExcess = excess;
      worst = i;
    }
  }
  if (bad > 0) {
    const x = Number(a[worst]);
    const y = Number(e[worst]);
    const fits = shape && shape.reduce((p, d) => p * d, 1) === a.length;
    const where = fits ? ` [${unravel(worst, shape).join(', ')}]` : '';
    throw new Error(
      `${label}: ${bad} of ${a.length} values differ by more than ` +
        `atol ${atol} + rtol ${rtol}·|expected|; ` +
        `worst at index ${worst}${where}: actual ${x}, expected ${y}, |diff| ${Math.abs(x - y)}`,
    );
  }
  return { maxAbsDiff, index: maxIndex };
}
