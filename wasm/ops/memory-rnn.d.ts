// Types for wasm/ops/memory-rnn.js (in progress).
import type { Tensor, TensorLike } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface MemoryRnnOps {}
