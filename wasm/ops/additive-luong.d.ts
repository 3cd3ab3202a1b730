// Types for wasm/ops/additive-luong.js: encoder-decoder attention of one decoder query over n
// encoder states: additive (Bahdanau et al. 2015), Luong global and local (Luong et al. 2015),
// key-query attention, each with a backward (vector-Jacobian product) as `op.backward`.
//
// query is [dq] or, with a leading batch dimension, [B, dq]; keys [n, dk] or [B, n, dk]; every
// output then gains the [B]. Parameters are nn.Linear layout [out, in], shared over the batch
// (their gradients are summed over it). Upstream gradients are keyed by output name; a missing
// entry means zero. backward(query, keys, params, options?, upstream) returns gradients keyed by
// the input and parameter names, each shaped like it. See docs/additive-luong.md.
import type { Tensor, TensorLike, MaskLike } from '../index.js';

/** [n] or [B, n] (an [n] mask is shared by the batch); true = ignore that key. A fully masked
 * row gives zero weights and a zero context, never NaN. */
export interface KeyPaddingMaskOption {
  keyPaddingMask?: MaskLike;
}

export interface ContextAttentionResult {
  /** [dv] or [B, dv] */
  context: Tensor;
  /** softmax over keys: [n] or [B, n] */
  weights: Tensor;
}
export interface ContextAttentionUpstream {
  context?: TensorLike;
  weights?: TensorLike;
}

// ---------------------------------------------------------------- additive

export interface AdditiveParams {
  /** [da, dq] */
  W_q: TensorLike;
  /** [da, dk] */
  W_k: TensorLike;
  /** [da] */
  bias: TensorLike;
  /** [da] */
  v: TensorLike;
}
export interface AdditiveOptions extends KeyPaddingMaskOption {
  /** [n, dv] (or [B, n, dv]): summed in place of the keys; then context is [dv]. */
  values?: TensorLike;
}
export interface AdditiveGradients {
  query: Tensor;
  keys: Tensor;
  /** only when options.values was given */
  values?: Tensor;
  W_q: Tensor;
  W_k: Tensor;
  bias: Tensor;
  v: Tensor;
}

// ---------------------------------------------------------------- Luong

export type LuongScore = 'dot' | 'general' | 'concat';

export interface LuongParams {
  /** 'general': [d, d]; 'concat': [da, 2d]; unused by 'dot' */
  W_a?: TensorLike;
  /** 'concat' only: [da] */
  v_a?: TensorLike;
  /** [d, 2d]: h̃ = tanh(W_c [c; h_t]), no bias */
  W_c: TensorLike;
  /** luongLocalAttention with position 'predictive' only: [dp, d] */
  W_p?: TensorLike;
  /** luongLocalAttention with position 'predictive' only: [dp] */
  v_p?: TensorLike;
}
export interface LuongOptions extends KeyPaddingMaskOption {
  /** default 'dot' */
  score?: LuongScore;
}
export interface LuongLocalOptions extends LuongOptions {
  /** D > 0, the half-width of the window [p_t − D, p_t + D]; σ = D/2. Default 10 (the paper's). */
  window?: number;
  /** 'monotonic' (local-m, p_t = t; the default) or 'predictive' (local-p, p_t = n·sigmoid(v_pᵀ tanh(W_p h_t))) */
  position?: 'monotonic' | 'predictive';
  /** the decoder step; required for 'monotonic' (any finite number, 0-based source positions) */
  t?: number;
}
export interface LuongResult {
  /** c = Σ aₛ h̄ₛ: [d] or [B, d] */
  context: Tensor;
  /** aₛ: [n] or [B, n] */
  weights: Tensor;
  /** h̃ = tanh(W_c [c; h_t]): [d] or [B, d] */
  attentionalHidden: Tensor;
}
export interface LuongLocalResult extends LuongResult {
  /** p_t; with a batch, one number per row */
  position: number | number[];
}
export interface LuongUpstream extends ContextAttentionUpstream {
  attentionalHidden?: TensorLike;
}
export interface LuongLocalUpstream extends LuongUpstream {
  /** a number, or B numbers with a batch */
  position?: number | number[] | Float32Array | Tensor;
}
export interface LuongGradients {
  query: Tensor;
  keys: Tensor;
  /** scores 'general' and 'concat' */
  W_a?: Tensor;
  /** score 'concat' */
  v_a?: Tensor;
  W_c: Tensor;
  /** local-p only */
  W_p?: Tensor;
  /** local-p only */
  v_p?: Tensor;
}

// ---------------------------------------------------------------- key-query

export interface KeyQueryParams {
  /** [dk, ds] */
  W_Q: TensorLike;
  /** [dk, dh] */
  W_K: TensorLike;
  /** [dv, dh] */
  W_V: TensorLike;
}
export interface KeyQueryOptions extends KeyPaddingMaskOption {
  /** divide the scores by √dk (default false) */
  scaled?: boolean;
}
export interface KeyQueryGradients {
  query: Tensor;
  keys: Tensor;
  W_Q: Tensor;
  W_K: Tensor;
  W_V: Tensor;
}

// ---------------------------------------------------------------- the ops

export interface AdditiveAttentionFn {
  /** eⱼ = vᵀ tanh(W_q s + W_k hⱼ + bias), α = softmax(e), c = Σ αⱼ hⱼ (Bahdanau et al. 2015, eq. 6). */
  (
    query: TensorLike,
    keys: TensorLike,
    params: AdditiveParams,
    options?: AdditiveOptions,
  ): ContextAttentionResult;
  backward(
    query: TensorLike,
    keys: TensorLike,
    params: AdditiveParams,
    options: AdditiveOptions | undefined,
    upstream: ContextAttentionUpstream,
  ): AdditiveGradients;
  backward(
    query: TensorLike,
    keys: TensorLike,
    params: AdditiveParams,
    upstream: ContextAttentionUpstream,
  ): AdditiveGradients;
}
export interface LuongAttentionFn {
  /** Luong et al. 2015 global attention (eq. 5-8). */
  (query: TensorLike, keys: TensorLike, params: LuongParams, options?: LuongOptions): LuongResult;
  backward(
    query: TensorLike,
    keys: TensorLike,
    params: LuongParams,
    options: LuongOptions | undefined,
    upstream: LuongUpstream,
  ): LuongGradients;
  backward(
    query: TensorLike,
    keys: TensorLike,
    params: LuongParams,
    upstream: LuongUpstream,
  ): LuongGradients;
}
export interface LuongLocalAttentionFn {
  /** Luong et al. 2015 local attention (eq. 9-10); the window is held fixed in backward. */
  (
    query: TensorLike,
    keys: TensorLike,
    params: LuongParams,
    options?: LuongLocalOptions,
  ): LuongLocalResult;
  backward(
    query: TensorLike,
    keys: TensorLike,
    params: LuongParams,
    options: LuongLocalOptions | undefined,
    upstream: LuongLocalUpstream,
  ): LuongGradients;
  backward(
    query: TensorLike,
    keys: TensorLike,
    params: LuongParams,
    upstream: LuongLocalUpstream,
  ): LuongGradients;
}
export interface KeyQueryAttentionFn {
  /** α = softmax((W_K hᵢ)ᵀ (W_Q s) [/ √dk]), c = Σ αᵢ W_V hᵢ. */
  (
    query: TensorLike,
    keys: TensorLike,
    params: KeyQueryParams,
    options?: KeyQueryOptions,
  ): ContextAttentionResult;
  backward(
    query: TensorLike,
    keys: TensorLike,
    params: KeyQueryParams,
    options: KeyQueryOptions | undefined,
    upstream: ContextAttentionUpstream,
  ): KeyQueryGradients;
  backward(
    query: TensorLike,
    keys: TensorLike,
    params: KeyQueryParams,
    upstream: ContextAttentionUpstream,
  ): KeyQueryGradients;
}

export interface AdditiveLuongOps {
  additiveAttention: AdditiveAttentionFn;
  luongAttention: LuongAttentionFn;
  luongLocalAttention: LuongLocalAttentionFn;
  keyQueryAttention: KeyQueryAttentionFn;
}
