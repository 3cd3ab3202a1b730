// Types for wasm/ops/recurrent.js (in progress).
import type { Tensor, TensorLike, MaskLike } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface RecurrentOps {}
