// Types for wasm/ops/memory-rnn.js: recurrent networks that attend over their own past.
import type { Tensor, TensorLike } from '../index.js';

export type SelfAttentionRNNAlign = 'additive' | 'dot';

/** additive: { A [H, in+H], b [H], W_h [da,H], W_s [da,H], v [da] }; dot: { A, b, W_K [da,H], W_Q [da,H] } */
export interface SelfAttentionRNNParams {
  A: TensorLike;
  b: TensorLike;
  W_h?: TensorLike;
  W_s?: TensorLike;
  v?: TensorLike;
  W_K?: TensorLike;
  W_Q?: TensorLike;
}

export interface SelfAttentionRNNOptions {
  /** score of h_i against h_t: 'additive' vᵀ tanh(W_h h_i + W_s h_t) (default) or 'dot' (W_K h_i)ᵀ(W_Q h_t) */
  align?: SelfAttentionRNNAlign;
}

export interface SelfAttentionRNNResult {
  /** [T, H] or [B, T, H] */
  h: Tensor;
  /** [T, T] or [B, T, T]; row t: the weights that made c_t, zeros for i > t */
  weights: Tensor;
}

export interface SelfAttentionRNNGradients {
  x: Tensor;
  A: Tensor;
  b: Tensor;
  W_h?: Tensor;
  W_s?: Tensor;
  v?: Tensor;
  W_K?: Tensor;
  W_Q?: Tensor;
}

export interface SelfAttentionRNN {
  (
    x: TensorLike,
    params: SelfAttentionRNNParams,
    options?: SelfAttentionRNNOptions,
  ): SelfAttentionRNNResult;
  /** Full BPTT. upstream (required, last) keyed by output name; a missing entry means zero, an
   * upstream naming none is refused. */
  backward(
    x: TensorLike,
    params: SelfAttentionRNNParams,
    options: SelfAttentionRNNOptions | undefined,
    upstream: { h?: TensorLike; weights?: TensorLike },
  ): SelfAttentionRNNGradients;
  backward(
    x: TensorLike,
    params: SelfAttentionRNNParams,
    upstream: { h?: TensorLike; weights?: TensorLike },
  ): SelfAttentionRNNGradients;
}

/** { W_h [H,H], W_x [H,in], W_ht [H,H], v [H], W [4H, H+in] (gates i, f, g, o), b [4H] } */
export interface LstmnParams {
  W_h: TensorLike;
  W_x: TensorLike;
  W_ht: TensorLike;
  v: TensorLike;
  W: TensorLike;
  b: TensorLike;
}

export interface LstmnResult {
  /** [T, H] or [B, T, H] */
  h: Tensor;
  /** [T, H] or [B, T, H], the memory cells */
  c: Tensor;
  /** [T, T] or [B, T, T]; row t: attention over steps i < t; row 0 all zeros */
  weights: Tensor;
}

export interface LstmnGradients {
  x: Tensor;
  W_h: Tensor;
  W_x: Tensor;
  W_ht: Tensor;
  v: Tensor;
  W: Tensor;
  b: Tensor;
}

export interface Lstmn {
  (x: TensorLike, params: LstmnParams, options?: Record<string, never>): LstmnResult;
  /** Full BPTT through the attention over the tape. upstream keyed by output name; missing = zero. */
  backward(
    x: TensorLike,
    params: LstmnParams,
    options: Record<string, never> | undefined,
    upstream: { h?: TensorLike; c?: TensorLike; weights?: TensorLike },
  ): LstmnGradients;
  backward(
    x: TensorLike,
    params: LstmnParams,
    upstream: { h?: TensorLike; c?: TensorLike; weights?: TensorLike },
  ): LstmnGradients;
}

export interface MemoryRnnOps {
  /** The SimpleRNN with self-attention over its own states. */
  selfAttentionRNN: SelfAttentionRNN;
  /** The LSTMN of Cheng, Dong & Lapata 2016 (§3.1). */
  lstmn: Lstmn;
}
