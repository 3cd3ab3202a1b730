// Types for wasm/ops/pooling.js: pooling attentions (Zhou et al. 2016, Yang et al. 2016,
// Lin et al. 2017), each with a backward (vector-Jacobian product) as `op.backward`.
//
// H is [n, d] or, with a leading batch dimension, [B, n, d]; every output then gains the [B].
// Parameters are in nn.Linear layout [out, in]. Upstream gradients are keyed by output name; a
// missing entry means zero. backward(H, params, options, upstream) returns gradients keyed like
// the input and the parameters, each shaped like it.
import type { Tensor, TensorLike, MaskLike } from '../index.js';

export interface PoolingOptions {
  /** [n], or [B, n] with a batch ([n] broadcasts over it); true = ignore that position. A fully
   * masked sequence gives zero weights and outputs (h* = tanh(0) = 0), never NaN. */
  mask?: MaskLike;
}

export interface AttentionPoolingParams {
  /** [d] */
  w: TensorLike;
}
export interface AttentionPoolingResult {
  /** Hᵀα: [d] or [B, d] */
  r: Tensor;
  /** tanh(r): [d] or [B, d] */
  hStar: Tensor;
  /** α: [n] or [B, n] */
  weights: Tensor;
}
export interface AttentionPoolingUpstream {
  r?: TensorLike;
  hStar?: TensorLike;
  weights?: TensorLike;
}
export interface AttentionPoolingGradients {
  H: Tensor;
  w: Tensor;
}

export interface ContextPoolingParams {
  /** [dw, d] */
  W: TensorLike;
  /** [dw] */
  b: TensorLike;
  /** the context vector, [dw] */
  u: TensorLike;
}
export interface ContextPoolingResult {
  /** Σ αᵢ hᵢ: [d] or [B, d] */
  s: Tensor;
  /** α: [n] or [B, n] */
  weights: Tensor;
}
export interface ContextPoolingUpstream {
  s?: TensorLike;
  weights?: TensorLike;
}
export interface ContextPoolingGradients {
  H: Tensor;
  W: Tensor;
  b: Tensor;
  u: Tensor;
}

export interface StructuredSelfAttentionParams {
  /** [da, d] */
  W_s1: TensorLike;
  /** [r, da]: r hops */
  W_s2: TensorLike;
}
export interface StructuredSelfAttentionResult {
  /** A H: [r, d] or [B, r, d] */
  M: Tensor;
  /** A, each hop's softmax over n: [r, n] or [B, r, n] */
  weights: Tensor;
  /** ‖A Aᵀ − I‖²_F: a number, or a [B] tensor with a batch (r for a fully masked sequence) */
  penalty: number | Tensor;
}
export interface StructuredSelfAttentionUpstream {
  M?: TensorLike;
  weights?: TensorLike;
  /** a number (broadcast over a batch), or [B] with a batch */
  penalty?: number | TensorLike;
}
export interface StructuredSelfAttentionGradients {
  H: Tensor;
  W_s1: Tensor;
  W_s2: Tensor;
}

/** An op with its backward attached. `backward(H, params, upstream)` (no options) also works. */
export interface PoolingOp<P, R, U, G> {
  (H: TensorLike, params: P, options?: PoolingOptions): R;
  backward(H: TensorLike, params: P, options: PoolingOptions | undefined, upstream: U): G;
  backward(H: TensorLike, params: P, upstream: U): G;
}

export interface PoolingOps {
  /** Zhou et al. 2016, eqs. 9-12: M = tanh(H), α = softmax(M w), r = Hᵀα, h* = tanh(r). */
  attentionPooling: PoolingOp<
    AttentionPoolingParams,
    AttentionPoolingResult,
    AttentionPoolingUpstream,
    AttentionPoolingGradients
  >;
  /** Yang et al. 2016 (HAN), eqs. 5-7: uᵢ = tanh(W hᵢ + b), α = softmax(uᵢᵀ u), s = Σ αᵢ hᵢ. */
  contextPooling: PoolingOp<
    ContextPoolingParams,
    ContextPoolingResult,
    ContextPoolingUpstream,
    ContextPoolingGradients
  >;
  /** Lin et al. 2017, eqs. 6-8: A = softmax(W_s2 tanh(W_s1 Hᵀ)), M = A H, ‖A Aᵀ − I‖²_F. */
  structuredSelfAttention: PoolingOp<
    StructuredSelfAttentionParams,
    StructuredSelfAttentionResult,
    StructuredSelfAttentionUpstream,
    StructuredSelfAttentionGradients
  >;
}
