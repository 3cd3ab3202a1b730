// Types for wasm/io.js.

/**
 * A tensor read from a safetensors file: data always float32, dtype as stored ('I8': int8 times
 * its row's scale, from the tensor "<name>:scale", which is not listed itself).
 */
export interface SafetensorsTensor {
  data: Float32Array;
  shape: number[];
  dtype: 'F32' | 'F16' | 'BF16' | 'I8';
}

/**
 * Parse and validate safetensors bytes through the C loader (await init() first). Throws
 * AttnlabError (code 'AL_ERR_FORMAT', 'AL_ERR_UNSUPPORTED', 'AL_ERR_OVERFLOW', 'AL_ERR_NONFINITE',
 * 'AL_ERR_NOMEM' or 'AL_ERR_ARGUMENT') with a message naming the problem. See docs/model-format.md.
 */
export function readSafetensors(bytes: Uint8Array | ArrayBuffer): {
  metadata: Record<string, string>;
  tensors: Map<string, SafetensorsTensor>;
};
