// Types for wasm/model.js and wasm/model/tokenizer.js. Config keys and tensor names: docs/models.md.

import type { Tensor } from './index.js';

/** The tokenizer section of a model config. */
export interface TokenizerConfig {
  type: 'char' | 'word';
  srcVocab: string[];
  tgtVocab: string[];
  bos: string;
  eos: string;
  unk: string;
  pad?: string;
  /** The normalisation the model was trained with, applied before lookup (docs/models.md,
   * "Normalisation"); char tokenizers take nfc, quotes, lowercase, whitespace only. */
  normalize?: NormalizeStep[];
}

/** A step of tokenizer.normalize; whatever the list's order they apply in this order. */
export type NormalizeStep =
  | 'nfc'
  | 'quotes'
  | 'lowercase'
  | 'whitespace'
  | 'punctuation'
  | 'contractions';

/** Word-level models add this to every result of run / classify / score / forward. */
export interface UnknownWords {
  /** The typed words (after normalisation) not in the vocabulary, read as unk: each once, in
   * input order; [] when the input was ids. Char-level models leave it out. */
  unknownWords?: string[];
}

/** A model config (the JSON in the file's __metadata__["config"]). */
export interface ModelConfig {
  architecture: 'seq2seq';
  cell: 'lstm' | 'gru' | 'rnn';
  nonlinearity?: 'tanh' | 'relu';
  embeddingSize: number;
  hiddenSize: number;
  numLayers: number;
  bidirectional?: boolean;
  attention:
    | 'none'
    | 'additive'
    | 'dot'
    | 'general'
    | 'concat'
    | 'local-m'
    | 'local-p'
    | 'key-query';
  style: 'bahdanau' | 'luong';
  inputFeeding?: boolean;
  score?: 'dot' | 'general' | 'concat';
  attentionSize?: number;
  window?: number;
  positionSize?: number;
  keySize?: number;
  valueSize?: number;
  scaled?: boolean;
  maxLength?: number;
  tokenizer: TokenizerConfig;
  name?: string;
  description?: string;
  training?: unknown;
}

/** The config of architecture "classifier" (docs/models.md, "The classifier architecture"). */
export interface ClassifierConfig {
  architecture: 'classifier';
  cell: 'lstm' | 'gru' | 'rnn';
  nonlinearity?: 'tanh' | 'relu';
  embeddingSize: number;
  hiddenSize: number;
  numLayers: number;
  bidirectional?: boolean;
  pooling: 'attention' | 'han' | 'structured';
  /** han: the word context width; structured: da. */
  attentionSize?: number;
  /** structured: r. */
  hops?: number;
  /** structured, training only: the weight of ‖AAᵀ − I‖²_F in the loss, in [0, 10000]; default 0. */
  penaltyCoefficient?: number;
  /** Calibration (issue 30): classify's probs = softmax(logits / temperature), a number in
   * (0, 1000]; default 1 (the probabilities as the logits give them). Training ignores it. */
  temperature?: number;
  sentenceHiddenSize?: number;
  sentenceAttentionSize?: number;
  /** han: the token that ends a sentence (in tokenizer.vocab). */
  sentenceSeparator?: string;
  labels: string[];
  tokenizer: {
    type: 'word';
    vocab: string[];
    unk: string;
    pad?: string;
    normalize?: NormalizeStep[];
  };
  name?: string;
  description?: string;
  training?: unknown;
}

/** The config of architecture "transformer" (docs/models.md, "Architecture transformer"). */
export interface TransformerConfig {
  architecture: 'transformer';
  variant: 'encoder' | 'decoder' | 'encoder-decoder';
  embeddingSize: number;
  numHeads: number;
  feedforwardSize: number;
  /** Layers per stack (encoder-decoder: encoder and decoder each). */
  numLayers: number;
  /** 'relative': Shaw et al. 2018 relative self-attention (needs maxRelativePosition). */
  positions: 'learned' | 'sinusoidal' | 'relative';
  /** Longest sequence; required for learned positions (rows of pos_embedding.weight). */
  maxPositions?: number;
  /** Relative positions: the clipping distance k >= 1 (tables of 2k+1 rows). */
  maxRelativePosition?: number;
  normFirst?: boolean;
  activation?: 'relu' | 'gelu';
  finalNorm?: boolean;
  /** Multiply embeddings by √E (default false). */
  scaleEmbedding?: boolean;
  maxLength?: number;
  /** bos / eos optional: the decoder variant needs eos, the encoder-decoder both. */
  tokenizer: Omit<TokenizerConfig, 'bos' | 'eos'> & Partial<Pick<TokenizerConfig, 'bos' | 'eos'>>;
  name?: string;
  description?: string;
  training?: unknown;
}

/** The config of architecture "memory-rnn" (docs/models.md, "Architecture memory-rnn"). */
export interface MemoryRnnConfig {
  architecture: 'memory-rnn';
  /** 'lstm': the plain nn.LSTM baseline of the same size (no attention). */
  cell: 'lstmn' | 'self-attention-rnn' | 'lstm';
  /** self-attention-rnn: the score; default 'additive'. */
  align?: 'additive' | 'dot';
  embeddingSize: number;
  hiddenSize: number;
  /** self-attention-rnn: da (additive) or dk (dot). */
  attentionSize?: number;
  /** 'lm': each step predicts the next token; 'classifier': the final (or mean) state → labels. */
  head: 'lm' | 'classifier';
  /** classifier: the features, the final state h_n ('last', default) or the mean of h. */
  pool?: 'last' | 'mean';
  /** classifier: the classes. */
  labels?: string[];
  /** bos / eos (in vocab): put around the words of a text by encode() and run(). */
  tokenizer: {
    type: 'word';
    vocab: string[];
    unk: string;
    pad?: string;
    bos?: string;
    eos?: string;
    normalize?: NormalizeStep[];
  };
  name?: string;
  description?: string;
  training?: unknown;
}

/** Model.run of a memory-rnn language model (head "lm"). */
export interface MemoryRnnLmResult extends UnknownWords {
  ids: Int32Array;
  tokens: string[];
  /** [n − 1]: log p(ids[t+1] | ids[≤t]). */
  logProbs: Float32Array;
  /** exp of the mean negated logProbs; undefined for one token. */
  perplexity: number | undefined;
  /** With { distributions: true }: every step's log-distribution of the next token, [n, V]. */
  distributions?: { data: Float32Array; shape: [number, number] };
  /** One [n, n] map (row t: the weights over the steps read at step t); empty for cell 'lstm'. */
  attention: AttentionMap[];
  /** With { states: true }: the intermediate states (docs/states.md). */
  states?: MemoryRnnStates;
}

/** Model.run / classify of a memory-rnn classifier head. */
export interface MemoryRnnClassifyResult extends UnknownWords {
  label: string;
  labelId: number;
  probs: Float32Array;
  ids: Int32Array;
  tokens: string[];
  attention: AttentionMap[];
  /** With { states: true }: the intermediate states (docs/states.md). */
  states?: MemoryRnnStates;
}

/**
 * The intermediate states of a memory-rnn model (`{ states: true }` on run / classify;
 * docs/states.md), n tokens, E embedding size, H hidden size. Steps are 0-based.
 */
export interface MemoryRnnStates {
  /** The config's cell, 'sarnn' standing for "self-attention-rnn". */
  cell: 'lstmn' | 'sarnn' | 'lstm';
  /** sarnn: the align score, vᵀ tanh(W_h h_i + W_s h_t) ('additive') or (W_K h_i)ᵀ(W_Q h_t). */
  align?: 'additive' | 'dot';
  /** [n, E] x_t, the word embeddings. */
  embedded: Tensor;
  /** [n, H] h_t, the cell's output at each step. */
  hidden: Tensor;
  /** [n, H] c_t, the memory cell (lstmn, lstm). */
  memory?: Tensor;
  /** [n, n] e_{t,i} before the softmax, row t over i: lstmn reads i < t (row 0: none), sarnn
   * i ≤ t; entries not read are -Infinity. Absent for lstm. */
  scores?: Tensor;
  /** [n, n] α, softmax of each row of scores (0 where -Infinity); equal to result.attention[0]. */
  weights?: Tensor;
  /** [n, H] row t = Σ_i α_{t,i} h_i: lstmn h̃_t (replaces h_{t−1} at step t), sarnn c_t
   * (replaces h_t at step t + 1). */
  summary?: Tensor;
  /** [n, H] lstmn c̃_t = Σ_i α_{t,i} c_i (replaces c_{t−1}). */
  memorySummary?: Tensor;
}

/**
 * The intermediate states of a seq2seq model (`{ states: true }` on greedy run and on score;
 * docs/states.md). T output steps, S source tokens, E embedding size, H decoder size, dc context
 * size (H, or valueSize for key-query), V target vocabulary. Steps are 0-based.
 */
export interface Seq2SeqStates {
  /** The config's style. */
  style: 'bahdanau' | 'luong';
  /** The config's attention. */
  attention:
    | 'additive'
    | 'dot'
    | 'general'
    | 'concat'
    | 'local-m'
    | 'local-p'
    | 'key-query'
    | 'none';
  /** [S, E] x_i, the source embeddings. */
  embedded: Tensor;
  /** [S, H] h_i, the encoder outputs the attention reads (directions concatenated). */
  encoder: Tensor;
  /** [H] s_0, the decoder's first state (the encoder's final state handed over). */
  initial: Tensor;
  /** [T, H] the state the scores read at step t: s_{t−1} (bahdanau) or s_t (luong). Absent for 'none'. */
  query?: Tensor;
  /** [T, S] e_{t,i} before the softmax (local: before the Gaussian, -Infinity outside the
   * window). Absent for 'none'. */
  scores?: Tensor;
  /** [T, S] α_{t,i}; equal to the result's attention weights (zeros for 'none'). */
  weights: Tensor;
  /** [T, dc] c_t = Σ_i α_{t,i} h_i (key-query: W_V applied). Absent for 'none'. */
  context?: Tensor;
  /** [T, H] s_t, the decoder state after step t. */
  decoder: Tensor;
  /** [T, H] h̃_t = tanh(W_c [c_t; s_t]) (luong style with attention only). */
  attentional?: Tensor;
  /** [T] p_t (local attention only; as result.positions). */
  positions?: Tensor;
  /** [T, V] the log-softmax of the output layer at each step. */
  logProbs: Tensor;
}

/** One transformer attention map (per layer and head). */
export interface TransformerAttentionMap {
  layer: number;
  head: number;
  kind: 'self' | 'cross';
  /** Which stack: 'encoder' (also the encoder variant), 'decoder' (also the decoder variant). */
  stack: 'encoder' | 'decoder';
  weights: { data: Float32Array; shape: [number, number] };
  rowLabels: string[];
  colLabels: string[];
}

/** Model.forward of a transformer. */
export interface TransformerForwardResult extends UnknownWords {
  /** [n, V]: one row per position (encoder, decoder) or per decoder input (encoder-decoder). */
  logits: { data: Float32Array; shape: [number, number] };
  attention: TransformerAttentionMap[];
  srcIds: Int32Array;
  /** encoder-decoder: the decoder input. */
  tgtIds?: Int32Array;
  /** With `{ states: true }`: every intermediate of this forward (docs/states.md). */
  states?: TransformerStates;
}

/** Model.run of a transformer: encoder: argmax label per position; otherwise greedy decoding. */
export interface TransformerRunResult extends TransformerForwardResult {
  output: string;
  /** encoder: the label ids per position; decoder / encoder-decoder: the emitted ids (eos included). */
  ids: Int32Array;
  tokens: string[];
  /** log p of each emitted token (encoder: of each picked label, log_softmax of its logits row). */
  logProbs: Float32Array;
  /** Each output token's probability under the model: exp(logProbs), one float32 per token. */
  probs: Float32Array;
  /** The weakest of probs (1 for an output without tokens): the page's "may be wrong" signal. */
  minProb: number;
  /** decoder: the prompt followed by every emitted token but the last (what logits/attention cover). */
  fedIds?: Int32Array;
}

/** One attention map: output steps × input positions. */
export interface AttentionMap {
  layer: number;
  head: number;
  weights: { data: Float32Array; shape: [number, number] };
  /** Output tokens (the eos token included when emitted). */
  rowLabels: string[];
  /** Input tokens. */
  colLabels: string[];
}

export interface RunOptions {
  /** Output steps at most; default the config's maxLength (50 when absent). Up to 1024. */
  maxLength?: number;
  /** 1 (default) greedy; 2..32 beam search, length-normalised (docs/models.md). */
  beamWidth?: number;
  /** Add the intermediate states (seq2seq: greedy only; memory-rnn; docs/states.md). */
  states?: boolean;
}

export interface RunResult extends UnknownWords {
  /** Decoded text (bos, eos and pad left out). */
  output: string;
  ids: Int32Array;
  tokens: string[];
  /** log p(ids[t] | ids[<t], input) of each emitted token under the model (beam search: the
   * winner's own steps, equal to Model.score of the same output). */
  logProbs: Float32Array;
  /** Each output token's probability: exp(logProbs), one float32 per token (eos included). */
  probs: Float32Array;
  /** The weakest of probs (1 for an output without tokens): the page's "may be wrong" signal. */
  minProb: number;
  attention: AttentionMap[];
  /** p_t per step, for local-m / local-p attention only. */
  positions?: Float32Array;
  /** The source ids the input was encoded to. */
  srcIds: Int32Array;
  /** With { states: true } (greedy): the intermediate states of the run. */
  states?: Seq2SeqStates;
}

/** Model.classify (and Model.run of a classifier). */
export interface ClassifyResult extends UnknownWords {
  /** The most probable label and its index. */
  label: string;
  labelId: number;
  /** Class probabilities [C]: softmax(logits / temperature), the config's temperature (default 1). */
  probs: Float32Array;
  /** The share of the input's words the model does not know, in [0, 1]: of the input's word
   * tokens (after normalisation; a token is a word when it holds a letter or a digit, so
   * punctuation and unknown symbols are not counted), those read as unk, each occurrence
   * counted; 0 when the input has no word. For ids, a token is its vocabulary entry and the unk
   * id counts as an unknown word. (docs/models.md) */
  unknownShare: number;
  /** [0]: the word weights, shape [1, n] (structured: [r, n], one row per hop); han: [1] over the sentences. */
  attention: AttentionMap[];
  ids: Int32Array;
  tokens: string[];
  /** han: the sentence weights [m] and each sentence's [start, end) token range. */
  sentenceWeights?: Float32Array;
  sentences?: [number, number][];
  /** structured: ‖AAᵀ − I‖²_F. */
  penalty?: number;
  /** With `{ states: true }`: every intermediate of the forward (docs/states.md). */
  states?: ClassifierStates;
}

/** A state tensor: row-major data and its shape. */
export interface StateTensor {
  data: Float32Array;
  shape: number[];
}

/** Model.classify(input, { states: true }).states (docs/states.md, "classifier"). */
export interface ClassifierStates {
  pooling: 'attention' | 'han' | 'structured';
  /** [n, E] the word embeddings xₜ. */
  embedded: StateTensor;
  /** [n, d] the encoder outputs hₜ (han: the word encoder's, sentence by sentence). */
  hidden: StateTensor;
  /** [n, da]: tanh(hₜ) (attention, da = d), tanh(W hₜ + b) (han), tanh(W_s1 hₜ) (structured). */
  projected: StateTensor;
  /** [hops, n] before the softmax (han: softmax within each sentence). */
  scores: StateTensor;
  /** [hops, n] α, equal to attention[0].weights. */
  weights: StateTensor;
  /** r = Σ αₜ hₜ: [1, d] (attention), [hops, d] M = A H (structured), [m, d] one per sentence (han). */
  pooled: StateTensor;
  /** [C] before the softmax. */
  logits: StateTensor;
  /** [C], equal to probs. */
  probs: StateTensor;
  /** structured: ‖AAᵀ − I‖²_F. */
  penalty?: number;
  /** han: the sentence level: hidden [m, ds], projected [m, das], scores / weights [1, m], pooled [1, ds]. */
  sentences?: {
    hidden: StateTensor;
    projected: StateTensor;
    scores: StateTensor;
    weights: StateTensor;
    pooled: StateTensor;
  };
}

/** One attention sublayer of TransformerStates (n queries, m keys; docs/states.md). */
export interface TransformerSublayerStates {
  stack: 'encoder' | 'decoder';
  layer: number;
  kind: 'self' | 'cross';
  /** [n, E] x entering the sublayer. */
  input: StateTensor;
  /** [n, E] LN(x), what Q, K, V read (pre-norm only). */
  normed?: StateTensor;
  /** [H, n, Dh] queries per head. */
  q: StateTensor;
  /** [H, m, Dh] keys and values per head. */
  k: StateTensor;
  v: StateTensor;
  /** [H, n, m] QKᵀ/√Dh (+ Shaw's term); causally masked entries are -Infinity. */
  scores: StateTensor;
  /** [H, n, m] Shaw's relative term alone (relative self-attention only; not masked). */
  relative?: StateTensor;
  /** [H, n, m] softmax(scores), equal to the result's attention maps. */
  weights: StateTensor;
  /** [H, n, Dh] α V (+ Shaw's α a^V). */
  heads: StateTensor;
  /** [n, E] the heads side by side. */
  concat: StateTensor;
  /** [n, E] concat W_Oᵀ + b_O. */
  projected: StateTensor;
  /** [n, E] pre-norm x + projected; post-norm LN(x + projected). */
  residual: StateTensor;
}

/** Model.forward(..., { states: true }).states (docs/states.md, "transformer"). */
export interface TransformerStates {
  variant: 'encoder' | 'decoder' | 'encoder-decoder';
  /** Token embeddings (scaled) plus positions, [S, E] / [T, E]; a single stack under its variant. */
  embedded: { encoder?: StateTensor; decoder?: StateTensor };
  /** In execution order: encoder layers; each decoder layer's self then cross. */
  sublayers: TransformerSublayerStates[];
  layerOutputs: { stack: 'encoder' | 'decoder'; layer: number; output: StateTensor }[];
  /** After each stack's final norm (or its last layer output). */
  final: { encoder?: StateTensor; decoder?: StateTensor };
  /** [n, V], equal to the result's logits. */
  logits: StateTensor;
}

export interface ScoreResult extends UnknownWords {
  logProbs: Float32Array;
  attention: { data: Float32Array; shape: [number, number] };
  distributions: { data: Float32Array; shape: [number, number] };
  positions?: Float32Array;
  /** With { states: true }: the intermediate states of the teacher-forced steps. */
  states?: Seq2SeqStates;
}

export interface DecoderStep {
  id: number;
  token: string;
  logProb: number;
  /** exp(logProb): the token's probability under the model. */
  prob: number;
  /** Attention over the input positions for this step. */
  weights: Float32Array;
  position?: number;
  done: boolean;
  step: number;
}

export class Decoder {
  readonly model: Model;
  readonly srcIds: Int32Array;
  readonly srcTokens: string[];
  readonly maxLength: number;
  readonly steps: number;
  readonly done: boolean;
  /** The next token (argmax, or `force`); throws once done. */
  step(force?: number): DecoderStep;
  dispose(): void;
  [Symbol.dispose](): void;
}

export class Tokenizer {
  constructor(config: TokenizerConfig);
  readonly type: 'char' | 'word';
  /** The config's normalize steps in the order they apply ([] when none). */
  readonly normalization: readonly NormalizeStep[];
  /** Normalise, then split into tokens (no lookup). */
  split(text: string): string[];
  /** The text as the model reads it: the tokens joined ('' for char, ' ' for word). */
  normalize(text: string): string;
  /** The tokens of text not in the source vocabulary, each once, in input order. */
  unknownWords(text: string): string[];
  encode(text: string): Int32Array;
  encodeTarget(text: string): Int32Array;
  srcTokens(ids: ArrayLike<number>): string[];
  tgtTokens(ids: ArrayLike<number>): string[];
  decode(ids: Iterable<number>): string;
}

export class Model {
  readonly architecture: string;
  readonly config: ModelConfig | ClassifierConfig | TransformerConfig | MemoryRnnConfig;
  readonly tokenizer: Tokenizer;
  readonly srcVocabSize: number;
  readonly tgtVocabSize: number;
  readonly bosId: number;
  readonly eosId: number;
  readonly maxLength: number;
  readonly hasPositions: boolean;
  /** Classifiers only: the class labels. */
  readonly labels?: string[];
  encode(text: string): Int32Array;
  decode(ids: Iterable<number>): string;
  /** The text as the model reads it (tokenizer.normalize): the tokens joined. */
  normalize(text: string): string;
  /** Seq2seq decoding. For a classifier, run returns what classify() returns (call classify() for that type).
   * For a transformer it returns a TransformerRunResult (cast it; only maxLength is an option).
   * For a memory-rnn model: a MemoryRnnLmResult (option distributions) or MemoryRnnClassifyResult. */
  run(
    input: string | ArrayLike<number>,
    options?: RunOptions & { distributions?: boolean; states?: boolean },
  ): RunResult;
  /** Transformers only: one forward pass (encoder-decoder: tgt is the decoder input, bos first).
   * `{ states: true }` adds `states` (docs/states.md): forward(input, options) for the encoder
   * and decoder variants, forward(input, tgt, options) for the encoder-decoder. */
  forward(
    input: string | ArrayLike<number>,
    tgt?: string | ArrayLike<number> | { states?: boolean },
    options?: { states?: boolean },
  ): TransformerForwardResult;
  /** Classify one document (architecture "classifier"; other architectures throw AL_ERR_UNSUPPORTED).
   * `{ states: true }` adds `states` (docs/states.md); a memory-rnn classifier head returns a
   * MemoryRnnClassifyResult. */
  classify(input: string | ArrayLike<number>, options?: { states?: boolean }): ClassifyResult;
  /** Seq2seq teacher forcing; { states: true } adds the intermediate states. */
  score(
    src: string | ArrayLike<number>,
    tgt: string | ArrayLike<number>,
    options?: { states?: boolean },
  ): ScoreResult;
  startDecoding(input: string | ArrayLike<number>, options?: { maxLength?: number }): Decoder;
  /** Frees the wasm memory (and the model's decoders); later calls throw, a second dispose is harmless. */
  dispose(): void;
  [Symbol.dispose](): void;
}

/**
 * Load a model from a URL (fetched; file: URLs and paths are read from disk in Node), a Response
 * or the file's bytes. Calls init() when needed. Throws AttnlabError naming the config key or
 * tensor at fault.
 */
export function loadModel(
  source: string | URL | Response | ArrayBuffer | ArrayBufferView,
): Promise<Model>;
