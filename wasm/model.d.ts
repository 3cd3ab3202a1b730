// Types for wasm/model.js and wasm/tokenizer.js. Config keys and tensor names: docs/models.md.

/** The tokenizer section of a model config. */
export interface TokenizerConfig {
  type: 'char' | 'word';
  srcVocab: string[];
  tgtVocab: string[];
  bos: string;
  eos: string;
  unk: string;
  pad?: string;
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
  attention: 'none' | 'additive' | 'dot' | 'general' | 'concat' | 'local-m' | 'local-p' | 'key-query';
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
}

export interface RunResult {
  /** Decoded text (bos, eos and pad left out). */
  output: string;
  ids: Int32Array;
  tokens: string[];
  /** log p of each emitted token. */
  logProbs: Float32Array;
  attention: AttentionMap[];
  /** p_t per step, for local-m / local-p attention only. */
  positions?: Float32Array;
  /** The source ids the input was encoded to. */
  srcIds: Int32Array;
}

export interface ScoreResult {
  logProbs: Float32Array;
  attention: { data: Float32Array; shape: [number, number] };
  distributions: { data: Float32Array; shape: [number, number] };
  positions?: Float32Array;
}

export interface DecoderStep {
  id: number;
  token: string;
  logProb: number;
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
  steps: number;
  done: boolean;
  /** The next token (argmax, or `force`); throws once done. */
  step(force?: number): DecoderStep;
  dispose(): void;
  [Symbol.dispose](): void;
}

export class Tokenizer {
  constructor(config: TokenizerConfig);
  readonly type: 'char' | 'word';
  split(text: string): string[];
  encode(text: string): Int32Array;
  encodeTarget(text: string): Int32Array;
  srcTokens(ids: ArrayLike<number>): string[];
  tgtTokens(ids: ArrayLike<number>): string[];
  decode(ids: Iterable<number>): string;
}

export class Model {
  readonly architecture: string;
  readonly config: ModelConfig;
  readonly tokenizer: Tokenizer;
  readonly srcVocabSize: number;
  readonly tgtVocabSize: number;
  readonly bosId: number;
  readonly eosId: number;
  readonly maxLength: number;
  readonly hasPositions: boolean;
  encode(text: string): Int32Array;
  decode(ids: Iterable<number>): string;
  run(input: string | ArrayLike<number>, options?: RunOptions): RunResult;
  score(src: string | ArrayLike<number>, tgt: string | ArrayLike<number>): ScoreResult;
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
export function loadModel(source: string | URL | Response | ArrayBuffer | ArrayBufferView): Promise<Model>;
