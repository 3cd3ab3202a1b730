// Types for wasm/ops/recurrent.js: ops.rnn, ops.lstm, ops.gru and their .backward.
// Shapes: x [T, inputSize] or [B, T, inputSize] (batchFirst, the default; [T, B, inputSize] with
// batchFirst: false); D = 2 when bidirectional else 1; L = numLayers; H = hidden size.
import type { PreparedParams, PreparedTensor, Tensor, TensorLike } from '../index.js';

/** A PyTorch state_dict: weight_ih_l{k}, weight_hh_l{k}, bias_ih_l{k}, bias_hh_l{k} (biases
 * optional as a pair), with the _reverse suffix for the backward direction. Entries may be
 * prepared tensors; the whole dict may be `prepare(params)` (weights resident across calls,
 * the same results bit for bit). */
export type RecurrentParams = Record<string, TensorLike | PreparedTensor> | PreparedParams;

export interface RecurrentOptions {
  /** Run a second, reversed direction; outputs are concatenated (forward first). Default false. */
  bidirectional?: boolean;
  /** Stacked layers; layer k > 0 reads layer k − 1's [.., D·H] output. Default 1. */
  numLayers?: number;
  /** Initial hidden state [L·D, H] (unbatched) or [L·D, B, H]; default zeros. */
  h0?: TensorLike;
  /** x is [B, T, I] (true, default) or [T, B, I] (false); outputs follow. */
  batchFirst?: boolean;
}
export interface RnnOptions extends RecurrentOptions {
  /** 'tanh' (default) or 'relu'. */
  nonlinearity?: 'tanh' | 'relu';
}
export interface LstmOptions extends RecurrentOptions {
  /** Initial cell state, shaped like h0; default zeros. */
  c0?: TensorLike;
}
export type GruOptions = RecurrentOptions;

export interface RecurrentResult {
  /** [T, D·H] or [B, T, D·H] ([T, B, D·H] with batchFirst: false) */
  output: Tensor;
  /** [L·D, H] or [L·D, B, H] */
  hN: Tensor;
}
export interface LstmResult extends RecurrentResult {
  /** [L·D, H] or [L·D, B, H] */
  cN: Tensor;
}

/** Gradients of the loss w.r.t. the results; a missing entry means zero. */
export interface RecurrentUpstream {
  output?: TensorLike;
  hN?: TensorLike;
}
export interface LstmUpstream extends RecurrentUpstream {
  cN?: TensorLike;
}

/** Gradients keyed like the inputs: x, h0 (always, zeros-initialised state when h0 was not
 * given), c0 (LSTM), and every params key (weight_ih_l0, ..., bias_hh_l1_reverse). */
export type RecurrentGradients = { x: Tensor; h0: Tensor } & Record<string, Tensor>;
export type LstmGradients = RecurrentGradients & { c0: Tensor };

export interface RecurrentOp<O, R, U, G> {
  (x: TensorLike, params: RecurrentParams, options?: O): R;
  /** upstream is required and last; options may be left out. */
  backward(x: TensorLike, params: RecurrentParams, options: O | undefined, upstream: U): G;
  backward(x: TensorLike, params: RecurrentParams, upstream: U): G;
}

export interface RecurrentOps {
  /** torch.nn.RNN: h_t = act(W_ih x_t + b_ih + W_hh h_{t−1} + b_hh). */
  rnn: RecurrentOp<RnnOptions, RecurrentResult, RecurrentUpstream, RecurrentGradients>;
  /** torch.nn.LSTM, gates i, f, g, o stacked in that order. */
  lstm: RecurrentOp<LstmOptions, LstmResult, LstmUpstream, LstmGradients>;
  /** torch.nn.GRU, gates r, z, n; n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn)). */
  gru: RecurrentOp<GruOptions, RecurrentResult, RecurrentUpstream, RecurrentGradients>;
}
