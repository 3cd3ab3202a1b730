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

/** Upstream gradients of the outputs; a missing entry is zero. */
export interface SdpaUpstream {
  /** [..., L, Dv], the gradient of the loss with respect to the output. */
  output?: TensorLike;
  /** [..., L, S], the gradient of the loss with respect to the weights. */
  weights?: TensorLike;
}

/** Gradients of the inputs, shaped as the inputs. */
export interface SdpaGradients {
  query: Tensor;
  key: Tensor;
  value: Tensor;
}

export interface ScaledDotProductAttention {
  /**
   * softmax(Q Kᵀ · scale + mask) V. query [L,D], [H,L,D] or [B,H,L,D]; key [S,D] and
   * value [S,Dv] with the same leading dimensions.
   */
  (query: TensorLike, key: TensorLike, value: TensorLike, options?: SdpaOptions): SdpaResult;
  /**
   * The vector-Jacobian product: the same arguments as the forward, then the upstream
   * gradients. The weights are recomputed (returnWeights is ignored).
   */
  backward(
    query: TensorLike,
    key: TensorLike,
    value: TensorLike,
    options: SdpaOptions | undefined,
    upstream: SdpaUpstream,
  ): SdpaGradients;
  backward(
    query: TensorLike,
    key: TensorLike,
    value: TensorLike,
    upstream: SdpaUpstream,
  ): SdpaGradients;
}

export interface SdpaOps {
  scaledDotProductAttention: ScaledDotProductAttention;
}
