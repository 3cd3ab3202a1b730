// attnlab/wasm/io.js: reading safetensors files through the C loader (src/io/safetensors.c).
//
//   import { init, readSafetensors } from 'attnlab';
//   await init();
//   const { metadata, tensors } = readSafetensors(await (await fetch('model.safetensors')).arrayBuffer());
//   const config = JSON.parse(metadata.config);        // metadata values are strings
//   const w = tensors.get('enc.weight');                // { data: Float32Array, shape, dtype }
//
// What this file does: copies the bytes into wasm memory, lets the C loader validate and convert
// them (F16 and BF16 become float32, I8 int8 · its row's scale: the scale tensors "<name>:scale"
// are read by the loader and not listed), copies every tensor out as a JS-owned Float32Array, and
// frees everything before returning or throwing. What it deliberately does not do: parse the
// format itself (one parser, the fuzzed C one, decides what is a valid file), fetch, or keep
// anything in wasm memory. Errors are AttnlabError with the C loader's message, e.g.
//   readSafetensors: tensor "enc.weight": data_offsets [0, 96] but shape [5, 5] F32 needs 100 bytes
// and `code` the status name ('AL_ERR_FORMAT', 'AL_ERR_UNSUPPORTED', 'AL_ERR_NONFINITE', ...).
// Format, limits and the full error list: docs/model-format.md.

import {
  AttnlabError,
  kindOf,
  readCString,
  statusName,
  typedArrayType,
  withArena,
} from './core.js';
import { bytesOf } from './source.js';

const ERR_CAP = 256; // AL_SAFETENSORS_ERR_CAP

/**
 * Parse and validate safetensors bytes.
 * @param {Uint8Array | ArrayBuffer} bytes the whole file
 * @returns {{ metadata: Record<string, string>,
 *             tensors: Map<string, { data: Float32Array, shape: number[], dtype: string }> }}
 *   tensors in header order; `dtype` is the stored one ('F32', 'F16', 'BF16' or 'I8'), `data`
 *   is always float32 (I8: dequantised; its "<name>:scale" tensor is not listed).
 */
export function readSafetensors(bytes) {
  if (!(bytes instanceof ArrayBuffer) && typedArrayType(bytes) !== 'Uint8Array') {
    throw new AttnlabError(
      `readSafetensors: bytes must be a Uint8Array or an ArrayBuffer, got ${kindOf(bytes)}`,
    );
  }
  // a plain view from the intrinsic accessors: a subclass's `length` cannot size the copy
  const view = bytesOf(bytes, 'readSafetensors');
  return withArena('readSafetensors', (x, ar) => {
    const pBytes = ar.alloc(view.length, 'the file');
    new Uint8Array(x.memory.buffer, pBytes, view.length).set(view);
    const pOut = ar.alloc(4, 'the handle');
    const pErr = ar.alloc(ERR_CAP, 'the error message');
    const status = x.al_safetensors_open(pBytes, view.length, pOut, pErr, ERR_CAP);
    if (status !== 0) {
      throw new AttnlabError(`readSafetensors: ${readCString(x, pErr)}`, statusName(status));
    }
    const st = new Uint32Array(x.memory.buffer, pOut, 1)[0];
    try {
      const metadata = {};
      const nMeta = x.al_safetensors_meta_count(st);
      for (let i = 0; i < nMeta; i++) {
        // defineProperty, not assignment: a key "__proto__" from a hostile file stays plain data
        Object.defineProperty(metadata, readCString(x, x.al_safetensors_meta_key(st, i)), {
          value: readCString(x, x.al_safetensors_meta_value(st, i)),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      const n = x.al_safetensors_count(st);
      let most = 0;
      for (let i = 0; i < n; i++) most = Math.max(most, x.al_safetensors_numel(st, i));
      const pData = ar.alloc(most * 4, 'the largest tensor');
      const tensors = new Map();
      for (let i = 0; i < n; i++) {
        const name = readCString(x, x.al_safetensors_name(st, i));
        const shape = [];
        for (let a = 0, r = x.al_safetensors_rank(st, i); a < r; a++)
          shape.push(x.al_safetensors_dim(st, i, a));
        const numel = x.al_safetensors_numel(st, i);
        const s = x.al_safetensors_read_f32(st, i, pData, numel);
        if (s !== 0)
          throw new AttnlabError(
            `readSafetensors: reading tensor "${name}" failed (${statusName(s)})`,
            statusName(s),
          );
        const data = new Float32Array(x.memory.buffer, pData, numel).slice();
        tensors.set(name, { data, shape, dtype: readCString(x, x.al_safetensors_dtype(st, i)) });
      }
      return { metadata, tensors };
    } finally {
      x.al_safetensors_free(st);
    }
  });
}
