// Types for wasm/ops/transformer-attention.js: multi-head attention (torch.nn.MultiheadAttention)
// and Shaw et al. 2018 relative position self-attention, with their backward passes.
import type { Tensor, TensorLike, MaskLike } from '../index.js';

/** The forward result of an attention op. */
export interface MultiHeadAttentionResult {
  /** [L, E] / [n, dz], with a leading [B] when the input is batched. */
  output: Tensor;
  /** Per-head weights [h, L, S] / [h, n, n] (leading [B] when batched); null when not requested. */
  weights: Tensor | null;
}

/** Upstream gradients keyed by output name; a missing entry is zero. */
export interface MultiHeadAttentionUpstream {
  output?: TensorLike;
  weights?: TensorLike;
}

/** The state dict of torch.nn.MultiheadAttention(E, h) (these exact keys). */
export interface MhaParams {
  /** [3E, E]: W_q, W_k, W_v stacked in that order. */
  in_proj_weight: TensorLike;
  /** [3E] */
  in_proj_bias: TensorLike;
  /** [E, E] */
  'out_proj.weight': TensorLike;
  /** [E] */
  'out_proj.bias': TensorLike;
}

export interface MhaOptions {
  /** Number of heads h (required); E must be divisible by it. */
  numHeads: number;
  /** Query i sees keys j <= i (top-left aligned). */
  causal?: boolean;
  /** [S] or [B, S]; true = ignore that key (as PyTorch). */
  keyPaddingMask?: MaskLike;
  /** Return the per-head weights (default true, as torch's need_weights). */
  needWeights?: boolean;
}

/** Gradients of every input and parameter, shaped as they are. */
export interface MhaGradients {
  query: Tensor;
  key: Tensor;
  value: Tensor;
  in_proj_weight: Tensor;
  in_proj_bias: Tensor;
  'out_proj.weight': Tensor;
  'out_proj.bias': Tensor;
}

export interface MultiHeadAttention {
  /**
   * torch.nn.MultiheadAttention (batch_first=True, dropout 0, eval, average_attn_weights=False).
   * query [L,E] or [B,L,E]; key, value [S,E] or [B,S,E]. A query row that sees no key gets zero
   * weights and a zero context, so its output row is out_proj.bias.
   */
  (
    query: TensorLike,
    key: TensorLike,
    value: TensorLike,
    params: MhaParams,
    options: MhaOptions,
  ): MultiHeadAttentionResult;
  /** The vector-Jacobian product; for self-attention the input's gradient is query + key + value. */
  backward(
    query: TensorLike,
    key: TensorLike,
    value: TensorLike,
    params: MhaParams,
    options: MhaOptions,
    upstream: MultiHeadAttentionUpstream,
  ): MhaGradients;
}

/** Shaw et al. 2018 parameters. dz = numHeads · Dh. */
export interface RelativeParams {
  /** [dz, d] */
  W_Q: TensorLike;
  /** [dz, d] */
  W_K: TensorLike;
  /** [dz, d] */
  W_V: TensorLike;
  /** [2k+1, dz/h], shared by every head; row clip(j − i, −k, k) + k is a^K_ij. */
  rel_K: TensorLike;
  /** [2k+1, dz/h], shared by every head. */
  rel_V: TensorLike;
}

export interface RelativeOptions {
  /** The clipping distance k >= 0; default: read from rel_K's 2k+1 rows. */
  maxRelativePosition?: number;
  /** Query i sees keys j <= i. */
  causal?: boolean;
  /** Heads h (default 1); each uses its dz/h slice and the scale 1/√(dz/h). */
  numHeads?: number;
  /** [n] or [B, n]; true = ignore that key. */
  keyPaddingMask?: MaskLike;
}

export interface RelativeGradients {
  x: Tensor;
  W_Q: Tensor;
  W_K: Tensor;
  W_V: Tensor;
  rel_K: Tensor;
  rel_V: Tensor;
}

export interface RelativePositionAttention {
  /** x [n,d] or [B,n,d] → output [n,dz], weights [h,n,n] (leading [B] when batched). */
  (x: TensorLike, params: RelativeParams, options?: RelativeOptions): MultiHeadAttentionResult;
  /** The vector-Jacobian product. */
  backward(
    x: TensorLike,
    params: RelativeParams,
    options: RelativeOptions | undefined,
    upstream: MultiHeadAttentionUpstream,
  ): RelativeGradients;
  backward(
    x: TensorLike,
    params: RelativeParams,
    upstream: MultiHeadAttentionUpstream,
  ): RelativeGradients;
  /** clip(j − i, −k, k) for query i (row) and key j (column), shape [n, n]. */
  distances(n: number, k: number): { data: Int32Array; shape: [number, number] };
}

export interface TransformerAttentionOps {
  multiHeadAttention: MultiHeadAttention;
  relativePositionAttention: RelativePositionAttention;
}
