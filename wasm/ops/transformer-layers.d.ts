// Types for wasm/ops/transformer-layers.js: torch.nn.TransformerEncoderLayer and
// TransformerDecoderLayer (batch_first, dropout 0, eval), with their backward passes.
import type { Tensor, TensorLike, MaskLike } from '../index.js';

/** The state dict of torch.nn.TransformerEncoderLayer(d_model=E, nhead, dim_feedforward=F) (these exact keys). */
export interface EncoderLayerParams {
  /** [3E, E]: W_q, W_k, W_v stacked */
  'self_attn.in_proj_weight': TensorLike;
  /** [3E] */
  'self_attn.in_proj_bias': TensorLike;
  /** [E, E] */
  'self_attn.out_proj.weight': TensorLike;
  /** [E] */
  'self_attn.out_proj.bias': TensorLike;
  /** [F, E] */
  'linear1.weight': TensorLike;
  /** [F] */
  'linear1.bias': TensorLike;
  /** [E, F] */
  'linear2.weight': TensorLike;
  /** [E] */
  'linear2.bias': TensorLike;
  /** [E] */
  'norm1.weight': TensorLike;
  /** [E] */
  'norm1.bias': TensorLike;
  /** [E] */
  'norm2.weight': TensorLike;
  /** [E] */
  'norm2.bias': TensorLike;
}

/** The state dict of torch.nn.TransformerDecoderLayer: the encoder's keys plus these. */
export interface DecoderLayerParams extends EncoderLayerParams {
  /** [3E, E] */
  'multihead_attn.in_proj_weight': TensorLike;
  /** [3E] */
  'multihead_attn.in_proj_bias': TensorLike;
  /** [E, E] */
  'multihead_attn.out_proj.weight': TensorLike;
  /** [E] */
  'multihead_attn.out_proj.bias': TensorLike;
  /** [E] */
  'norm3.weight': TensorLike;
  /** [E] */
  'norm3.bias': TensorLike;
}

interface LayerOptions {
  /** Number of heads (required); d_model must be divisible by it. */
  nhead: number;
  /** Pre-norm (torch's norm_first); default false (post-norm). */
  normFirst?: boolean;
  /** The feed-forward activation; default 'relu'. 'gelu' is the exact erf form. */
  activation?: 'relu' | 'gelu';
  /** LayerNorm epsilon, default 1e-5. */
  layerNormEps?: number;
}

export interface EncoderLayerOptions extends LayerOptions {
  /** src_mask = causal: position i attends to j <= i. Default false. */
  causal?: boolean;
  /** src_key_padding_mask [T] or [B, T]; true = ignore that position. */
  keyPaddingMask?: MaskLike;
}

export interface DecoderLayerOptions extends LayerOptions {
  /** tgt_mask = causal (default true): position i attends to targets j <= i. */
  causal?: boolean;
  /** tgt_key_padding_mask [T] or [B, T]. */
  tgtKeyPaddingMask?: MaskLike;
  /** memory_key_padding_mask [S] or [B, S]. */
  memoryKeyPaddingMask?: MaskLike;
}

export interface EncoderLayerResult {
  /** [T, E] (leading [B] when batched) */
  output: Tensor;
  /** Per-head self-attention weights [h, T, T] (leading [B]). */
  weights: Tensor;
}

export interface DecoderLayerResult {
  /** [T, E] (leading [B] when batched) */
  output: Tensor;
  /** Per-head self-attention weights [h, T, T]. */
  selfWeights: Tensor;
  /** Per-head attention weights over the memory [h, T, S]. */
  crossWeights: Tensor;
}

/** Gradients keyed by input and parameter name, each shaped like what it is the gradient of. */
export type EncoderLayerGradients = { x: Tensor } & { [K in keyof EncoderLayerParams]: Tensor };
export type DecoderLayerGradients = { x: Tensor; memory: Tensor } & {
  [K in keyof DecoderLayerParams]: Tensor;
};

export interface TransformerEncoderLayer {
  /** x [T,E] or [B,T,E]. A query that sees no key gets zero weights; its attention block outputs out_proj.bias. */
  (x: TensorLike, params: EncoderLayerParams, options: EncoderLayerOptions): EncoderLayerResult;
  /** The vector-Jacobian product; upstream entries missing = zero. */
  backward(
    x: TensorLike,
    params: EncoderLayerParams,
    options: EncoderLayerOptions,
    upstream: { output?: TensorLike; weights?: TensorLike },
  ): EncoderLayerGradients;
}

export interface TransformerDecoderLayer {
  /** x [T,E] or [B,T,E], memory [S,E] or [B,S,E]. */
  (
    x: TensorLike,
    memory: TensorLike,
    params: DecoderLayerParams,
    options: DecoderLayerOptions,
  ): DecoderLayerResult;
  /** The vector-Jacobian product; upstream entries missing = zero. */
  backward(
    x: TensorLike,
    memory: TensorLike,
    params: DecoderLayerParams,
    options: DecoderLayerOptions,
    upstream: { output?: TensorLike; selfWeights?: TensorLike; crossWeights?: TensorLike },
  ): DecoderLayerGradients;
}

export interface TransformerLayersOps {
  transformerEncoderLayer: TransformerEncoderLayer;
  transformerDecoderLayer: TransformerDecoderLayer;
}
