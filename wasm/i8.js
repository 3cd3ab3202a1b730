// attnlab/wasm/i8.js: a model file written by al_model_save (F32 tensors) rewritten with per-row
// int8 weights: each 2-D tensor W [rows, cols] of at least I8_MIN_ELEMENTS elements becomes
// int8 W [rows, cols] and float32 "W:scale" [rows] (value = int8 · scale[row]); every other
// tensor (biases, norms, small matrices: cheap and sensitive) is stored F16. loadModel reads it
// unchanged: the C loader dequantises at load (src/io/safetensors.c, docs/model-format.md "I8").
//
//   import { saveModel } from 'attnlab';
//   const bytes = saveModel(model, { dtype: 'I8' });    // train.js calls toI8Safetensors
//
// Every weight is first rounded to float16 (f16.js), then quantised: so the I8 file of a model
// is the same bytes whether it is made from the float32 weights or from its F16 file loaded back
// (scripts/quantize.mjs converts shipped F16 files). Per row r: scale[r] = float32(max|w| / 127)
// (0 for a row of zeros, whose q are all 0), q = w / scale[r] (in binary64) rounded half away
// from zero, clamped to [-127, 127] (-128 is never written; the loader refuses it).
// Deliberately not here: reading (the C loader is the one parser), other layouts (per-tensor or
// per-column scales, int4, asymmetric zero points).

import { f16Array, f16Value, rewriteSafetensors } from './f16.js';

/** A 2-D tensor with fewer elements than this stays F16 in an I8 file. */
export const I8_MIN_ELEMENTS = 1024;
/** An I8 tensor W's scales are stored as the F32 tensor W + I8_SCALE_SUFFIX, shape [rows]. */
export const I8_SCALE_SUFFIX = ':scale';

/** Whether a tensor of this shape is stored as I8 (else F16) in an I8 file. */
export function storedAsI8(shape) {
  return shape.length === 2 && shape[0] * shape[1] >= I8_MIN_ELEMENTS;
}

/**
 * Per-row symmetric quantisation of values [rows, cols] (already float16-exact).
 * @param {ArrayLike<number>} values
 * @returns {{ q: Int8Array, scale: Float32Array }}
 */
export function quantizeRows(values, rows, cols) {
  const q = new Int8Array(rows * cols);
  const scale = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    let top = 0;
    for (let c = 0; c < cols; c++) top = Math.max(top, Math.abs(values[r * cols + c]));
    const s = Math.fround(top / 127);
    scale[r] = s;
    if (s === 0) continue; // a row of zeros: q stays 0
    for (let c = 0; c < cols; c++) {
      const x = values[r * cols + c] / s;
      const m = Math.min(Math.round(Math.abs(x)), 127); // Math.round of |x|: halves away from 0
      q[r * cols + c] = x < 0 ? -m : m;
    }
  }
  return { q, scale };
}

/**
 * Safetensors bytes with F32 tensors (al_model_save's) → the I8 file described above.
 * @param {Uint8Array} bytes
 * @param {string} what the caller's name, for messages
 * @returns {Uint8Array}
 */
export function toI8Safetensors(bytes, what = 'saveModel') {
  return rewriteSafetensors(bytes, what, 'I8', (name, shape, values) => {
    const half = f16Array(values, name, what); // refuses what float16 cannot hold, by name
    if (!storedAsI8(shape)) return [[name, 'F16', shape, half]];
    const { q, scale } = quantizeRows(Array.from(half, f16Value), shape[0], shape[1]);
    return [
      [name, 'I8', shape, q],
      [name + I8_SCALE_SUFFIX, 'F32', [shape[0]], scale],
    ];
  });
}
