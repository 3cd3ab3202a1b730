// Types for wasm/io.js.
import type { Tensor } from './index.js';

export function readSafetensors(bytes: Uint8Array | ArrayBuffer): { metadata: Record<string, string>; tensors: Map<string, Tensor> };
