// Types for wasm/ops/sdpa.js: scaled dot-product attention.
import type { MaskLike, Tensor, TensorLike } from '../index.js';

export interface SdpaOptions {
  /** Query i sees keys j <= i (top-left aligned, as torch's is_causal). */
  causal?: boolean;
  /** [S] or [B, S]; true = ignore that key. */
  keyPaddingMask?: MaskLike;
  /** Default 1 / sqrt(D). */
  scale?: number;
  /** Also return the full attention matrix (default false). */
  returnWeights?: boolean;
}

export interface SdpaResult {
  /** [..., L, Dv] */
  output: Tensor;
  /** [..., L, S] when returnWeights, else null. A fully masked row is all zeros. */
  weights: Tensor | null;
}

export interface SdpaOps {
  /**
   * softmax(Q Kᵀ · scale + mask) V. query [L,D], [H,L,D] or [B,H,L,D]; key [S,D] and
   * value [S,Dv] with the same leading dimensions.
   */
  scaledDotProductAttention(
    query: TensorLike,
    key: TensorLike,
    value: TensorLike,
    options?: SdpaOptions,
  ): SdpaResult;
}
