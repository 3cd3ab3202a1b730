// Types for wasm/ops/additive-luong.js (in progress).
import type { Tensor, TensorLike, MaskLike } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface AdditiveLuongOps {}
