// Types for wasm/train.js (docs/training.md).
import type { Model, ModelConfig } from './model.js';

/** A training pair: text (tokenised with the model's tokenizer) or token ids. eos is appended to
 * tgt unless it already ends with it. */
export interface TrainingPair {
  src: string | ArrayLike<number>;
  tgt: string | ArrayLike<number>;
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
  /** accepted for symmetry with createModel; training itself uses no randomness */
  seed?: number;
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

export declare class Trainer {
  readonly model: Model;
  /** one optimiser step; returns the batch's mean token loss before the step */
  step(batch: TrainingPair[]): number;
  /** loss and gradient without an update; gradients under the model's tensor names */
  gradients(batch: TrainingPair[]): { loss: number; gradients: Map<string, { data: Float32Array; shape: number[]; dtype: string }> };
  setLearningRate(lr: number): void;
  readonly steps: number;
  /** the last gradient's global norm, before clipping */
  readonly gradNorm: number;
  evaluate(pairs: TrainingPair[], options?: { loss?: boolean }): Evaluation;
  /** the model's safetensors bytes now (loadModel reads them) */
  save(): Uint8Array;
  dispose(): void;
  [Symbol.dispose](): void;
}

/** A new model from a config with seeded weights (seed: integer in [0, 2^32); default 0). */
export function createModel(config: ModelConfig | string, options?: { seed?: number }): Promise<Model>;
/** loadModel() for a model you will train. */
export function loadTrainableModel(source: string | URL | ArrayBuffer | ArrayBufferView): Promise<Model>;
/** Safetensors bytes of a model made by createModel / loadTrainableModel. */
export function saveModel(model: Model): Uint8Array;
/** A trainer for a model made by createModel / loadTrainableModel. */
export function createTrainer(model: Model, options?: TrainerOptions): Trainer;
