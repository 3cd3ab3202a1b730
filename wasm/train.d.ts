// Types for wasm/train.js (docs/training.md).
import type {
  Model,
  ModelConfig,
  ClassifierConfig,
  MemoryRnnConfig,
  TransformerConfig,
} from './model.js';

/** A training pair: text (tokenised with the model's tokenizer) or token ids. eos is appended to
 * tgt unless it already ends with it. */
export interface TrainingPair {
  src: string | ArrayLike<number>;
  tgt: string | ArrayLike<number>;
}

/** A classifier's training example: the document (text or ids; han: separators included) and
 * its label (one of model.labels, or its index). */
export interface ClassifierExample {
  src: string | ArrayLike<number>;
  label: string | number;
}

/** A language model's training example (memory-rnn head "lm"): one sentence, text (bos/eos
 * added when the tokenizer names them) or ids, 2 tokens or more. */
export interface LanguageModelExample {
  src: string | ArrayLike<number>;
}

/** A transformer encoder's training example: the sequence and one label per position (label
 * strings, ids, or the labels as text separated by spaces). A decoder-only transformer trains
 * on LanguageModelExample (text gets eos appended, ids are taken as given); an encoder-decoder
 * on TrainingPair. */
export interface TaggingExample {
  src: string | ArrayLike<number>;
  tags: string | ArrayLike<string | number>;
}

/** Trainer.evaluate of a language model. */
export interface LanguageModelEvaluation {
  /** mean next-token loss over every sentence's n − 1 predictions */
  loss: number;
  /** exp(loss) */
  perplexity: number;
  /** the predictions counted */
  tokens: number;
  count: number;
}

/** Trainer.exportState(): the steps taken and the moment buffers (one value per weight). */
export interface TrainerState {
  /** 'adam' when m1 and m2 are Adam's moments; 'sgd' otherwise */
  optimizer: 'adam' | 'sgd';
  steps: number;
  /** Adam's first moment; SGD with momentum: the momentum buffer; plain SGD: empty */
  m1: Float32Array;
  /** Adam's second moment; SGD: empty */
  m2: Float32Array;
}

export interface TrainerOptions {
  /** default 'adam' (β1 0.9, β2 0.999, ε 1e-8) */
  optimizer?: 'adam' | 'sgd';
  /** default 3e-3 (adam), 0.1 (sgd) */
  lr?: number;
  /** SGD momentum in [0, 1); default 0 */
  momentum?: number;
  /** decoupled (AdamW-style) weight decay; default 0 */
  weightDecay?: number;
  /** global gradient-norm clip; default 1; 0 turns it off */
  clip?: number;
  /**
   * label smoothing ε in [0, 1); default 0: each cross-entropy target becomes
   * (1 − ε)·onehot + ε/V over its V classes, PyTorch's CrossEntropyLoss(label_smoothing=ε); the
   * loss a step reports is the smoothed one (docs/training.md)
   */
  labelSmoothing?: number;
  /** accepted for symmetry with createModel; training itself uses no randomness */
  seed?: number;
  /**
   * default true: step the sentences of a batch together where the model has a batched form
   * (docs/training.md); false: one sentence at a time, the reference path (the two agree up to
   * the order of float sums)
   */
  batched?: boolean;
}

export interface Evaluation {
  /** fraction of pairs whose greedy output equals tgt */
  exactMatch: number;
  /** fraction of target positions (eos included) where the greedy output has the same token */
  tokenAccuracy: number;
  /** mean teacher-forced token loss (undefined with { loss: false }) */
  loss: number | undefined;
  count: number;
}

/** Trainer.evaluate of a classifier. */
export interface ClassifierEvaluation {
  /** fraction of documents whose most probable label is theirs */
  accuracy: number;
  /** mean −log p(label) (without the penalty; undefined with { loss: false }) */
  loss: number | undefined;
  /** structured pooling: mean ‖AAᵀ − I‖²_F */
  penalty?: number;
  count: number;
}

export declare class Trainer {
  readonly model: Model;
  /** one optimiser step; returns the batch's mean token loss before the step */
  step(
    batch: TrainingPair[] | ClassifierExample[] | LanguageModelExample[] | TaggingExample[],
  ): number;
  /** loss and gradient without an update; gradients under the model's tensor names */
  gradients(
    batch: TrainingPair[] | ClassifierExample[] | LanguageModelExample[] | TaggingExample[],
  ): {
    loss: number;
    gradients: Map<string, { data: Float32Array; shape: number[]; dtype: string }>;
  };
  /** loss, loss terms (target tokens; documents for a classifier) and the flat unclipped
   * gradient (one value per weight, the file's order; a copy), no update */
  gradient(
    batch: TrainingPair[] | ClassifierExample[] | LanguageModelExample[] | TaggingExample[],
  ): { loss: number; terms: number; gradient: Float32Array };
  /** one optimiser step from a given flat gradient: exactly step()'s update after its gradient */
  applyGradient(gradient: Float32Array | number[]): void;
  /** the optimiser state for a checkpoint (copies) */
  exportState(): TrainerState;
  /** restore exportState()'s object; checked (lengths, finiteness, m2 >= 0) before any change */
  importState(state: {
    steps: number;
    m1: Float32Array | number[];
    m2: Float32Array | number[];
  }): void;
  setLearningRate(lr: number): void;
  /** true when a step takes the batched path (createTrainer's batched option and the model) */
  readonly batched: boolean;
  /** createTrainer's labelSmoothing (0: none) */
  readonly labelSmoothing: number;
  readonly steps: number;
  /** the last gradient's global norm, before clipping */
  readonly gradNorm: number;
  evaluate(pairs: TrainingPair[], options?: { loss?: boolean }): Evaluation;
  evaluate(examples: ClassifierExample[], options?: { loss?: boolean }): ClassifierEvaluation;
  evaluate(examples: LanguageModelExample[]): LanguageModelEvaluation;
  /** a transformer encoder: tokenAccuracy over positions, exactMatch over sequences */
  evaluate(examples: TaggingExample[], options?: { loss?: boolean }): Evaluation;
  /** the model's safetensors bytes now (loadModel reads them) */
  /** The model's safetensors bytes; { dtype: 'F16' } stores half-precision weights (half the bytes), { dtype: 'I8' } per-row int8 matrices (about a quarter). */
  save(options?: SaveOptions): Uint8Array;
  dispose(): void;
  [Symbol.dispose](): void;
}

/** A new model from a config with seeded weights (seed: integer in [0, 2^32); default 0). */
export function createModel(
  config: ModelConfig | ClassifierConfig | MemoryRnnConfig | TransformerConfig | string,
  options?: { seed?: number },
): Promise<Model>;
/** loadModel() for a model you will train. */
export function loadTrainableModel(
  source: string | URL | ArrayBuffer | ArrayBufferView,
): Promise<Model>;
/** Safetensors bytes of a model made by createModel / loadTrainableModel. */
export interface SaveOptions {
  /**
   * 'F32' (default); 'F16': binary16, round to nearest even; 'I8': every 2-D tensor of at least
   * 1,024 elements as int8 with a float32 scale per row (tensor "<name>:scale"), the rest F16,
   * each weight rounded to float16 first. F16 and I8 refuse a weight beyond ±65504 (AL_ERR_RANGE).
   */
  dtype?: 'F32' | 'F16' | 'I8';
}
export function saveModel(model: Model, options?: SaveOptions): Uint8Array;
/** A trainer for a model made by createModel / loadTrainableModel. */
export function createTrainer(model: Model, options?: TrainerOptions): Trainer;
