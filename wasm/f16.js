// attnlab/wasm/f16.js: float32 → float16 (IEEE 754 binary16, round to nearest, ties to even), and
// a model file written by al_model_save (F32 tensors) rewritten with F16 tensors: half the bytes
// on the wire; loadModel reads F16 and widens it back to float32 (src/io/safetensors.c).
//
//   import { saveModel } from 'attnlab';
//   const bytes = saveModel(model, { dtype: 'F16' });   // train.js calls toF16Safetensors
//
// Only files this library wrote are rewritten (the header is the one al_model_save writes: F32
// tensors, data in header order); a weight beyond ±65504 (binary16's largest finite value) is
// refused by name rather than stored as infinity. rewriteSafetensors is the rewriting itself,
// shared with i8.js (I8 storage rounds to float16 first and keeps small tensors F16).
// Deliberately not here: reading (the C loader is the one parser), other dtypes.

import { AttnlabError } from './core.js';

const F16_MAX = 65504;
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** One float32 → its binary16 bits (round to nearest, ties to even; NaN stays NaN). */
export function f16Bits(value) {
  f32[0] = value;
  const x = u32[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0); // inf, NaN
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // overflow → inf (callers refuse it first)
  if (e <= 0) {
    // subnormal half (or zero): shift the implicit 1 in, round to nearest even
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    const rest = mant & ((1 << shift) - 1);
    let m = mant >>> shift;
    if (rest > half || (rest === half && m & 1)) m++;
    return sign | m; // m may round up into the smallest normal: the bits are still right
  }
  const rest = mant & 0x1fff;
  let h = sign | (e << 10) | (mant >>> 13);
  if (rest > 0x1000 || (rest === 0x1000 && h & 1)) h++; // may carry into the exponent: correct
  return h;
}

/** binary16 bits → the float32 value (exact). */
export function f16Value(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/**
 * A tensor's float32 values → binary16 bits; a value beyond ±65504 is refused by name.
 * @param {Float32Array} values
 * @param {string} name the tensor's, for messages
 * @param {string} what the caller's name, for messages
 */
export function f16Array(values, name, what) {
  const dst = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!(Math.abs(v) <= F16_MAX)) {
      throw new AttnlabError(
        `${what}: tensor "${name}"[${i}] = ${v} does not fit float16 (largest finite value ±${F16_MAX}); save it as F32`,
        'AL_ERR_RANGE',
      );
    }
    dst[i] = f16Bits(v);
  }
  return dst;
}

/**
 * Safetensors bytes with F32 tensors (al_model_save's) → a new file with the same metadata in
 * which each tensor, in data order, is replaced by what convert(name, shape, values) returns: a
 * list of [name, dtype, shape, typed array of the stored values (little-endian host)].
 * @param {Uint8Array} bytes
 * @param {string} what the caller's name, for messages
 * @param {string} target the stored dtype, for messages
 * @param {(name: string, shape: number[], values: Float32Array) => Array<[string, string, number[], ArrayBufferView]>} convert
 * @returns {Uint8Array}
 */
export function rewriteSafetensors(bytes, what, target, convert) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Number(dv.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  const data = bytes.subarray(8 + n);
  const names = Object.keys(header).filter((k) => k !== '__metadata__');
  names.sort((a, b) => header[a].data_offsets[0] - header[b].data_offsets[0]);
  /** @type {Array<[string, string, number[], ArrayBufferView]>} */
  const tensors = [];
  const stored = new Set();
  for (const name of names) {
    const t = header[name];
    if (t.dtype !== 'F32')
      throw new AttnlabError(
        `${what}: tensor "${name}" is ${t.dtype}; only F32 tensors are converted to ${target}`,
        'AL_ERR_UNSUPPORTED',
      );
    const [a, b] = t.data_offsets;
    for (const [as, dtype, shape, values] of convert(
      name,
      t.shape,
      new Float32Array(data.slice(a, b).buffer),
    )) {
      if (stored.has(as))
        throw new AttnlabError(
          `${what}: two tensors would be stored as "${as}"`,
          'AL_ERR_UNSUPPORTED',
        );
      stored.add(as);
      tensors.push([as, dtype, shape, values]);
    }
  }
  return packSafetensors(header.__metadata__, tensors);
}

/**
 * Safetensors bytes of tensors in the given order: [name, dtype, shape, typed array of the stored
 * values (little-endian host)], with the metadata (string values) when given; the header is
 * padded with spaces so the data starts 8-byte aligned. Shapes and dtypes are not checked.
 * @param {Record<string, string> | undefined} metadata
 * @param {Array<[string, string, number[], ArrayBufferView]>} tensors
 * @returns {Uint8Array}
 */
export function packSafetensors(metadata, tensors) {
  /** @type {Record<string, any>} */
  const out = metadata ? { __metadata__: metadata } : {};
  let offset = 0;
  const parts = [];
  for (const [name, dtype, shape, values] of tensors) {
    out[name] = { dtype, shape, data_offsets: [offset, offset + values.byteLength] };
    offset += values.byteLength;
    parts.push(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  }
  let json = JSON.stringify(out);
  json += ' '.repeat((8 - ((8 + new TextEncoder().encode(json).length) % 8)) % 8); // data 8-byte aligned
  const head = new TextEncoder().encode(json);
  const file = new Uint8Array(8 + head.length + offset);
  new DataView(file.buffer).setBigUint64(0, BigInt(head.length), true);
  file.set(head, 8);
  let at = 8 + head.length;
  for (const p of parts) {
    file.set(p, at);
    at += p.length;
  }
  return file;
}

/**
 * Safetensors bytes with F32 tensors (al_model_save's) → the same file with F16 tensors.
 * @param {Uint8Array} bytes
 * @param {string} what the caller's name, for messages
 * @returns {Uint8Array}
 */
export function toF16Safetensors(bytes, what = 'saveModel') {
  return rewriteSafetensors(bytes, what, 'F16', (name, shape, values) => [
    [name, 'F16', shape, f16Array(values, name, what)],
  ]);
}
