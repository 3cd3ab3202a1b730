// attnlab/wasm/train.js: training seq2seq, classifier and transformer models in the page or in Node
// (docs/training.md; a classifier's examples are { src, label }).
//
//   import { createModel, createTrainer } from 'attnlab';
//   const model = await createModel(config, { seed: 1 });          // no file: seeded weights
//   const trainer = createTrainer(model, { optimizer: 'adam', lr: 3e-3, clip: 1 });
//   const loss = trainer.step([{ src: 'Nov 22, 2026', tgt: '2026-11-22' }, ...]);
//   trainer.evaluate(pairs);            // { exactMatch, tokenAccuracy, loss }
//   const bytes = trainer.save();       // safetensors bytes; loadModel(bytes) reads them
//   trainer.dispose(); model.dispose();
//
// The trainer updates the model's weights in place (they live in wasm memory), so model.run()
// shows the trained model at once. Training needs the model's handle, which loadModel() keeps
// private: train a model made here, with createModel() (from a config) or loadTrainableModel()
// (from a file, like loadModel()).
// What this file does: tokenises and pads batches, calls al_trainer_* (src/api/train.h), copies
// results out. What it does not do: any maths (but the log-softmax of a transformer's evaluate
// loss, from the model's logits), or keep typed-array views across calls.

import {
  AttnlabError,
  Arena,
  checkOptions,
  f32Option,
  kindOf,
  readCString,
  show,
  statusName,
  withLib,
} from './core.js';
import { readSource } from './source.js';
import { defaultLib } from './loader.js';
import { Model, modelInternals } from './model.js';
import { ERR_CAP, MAX_SOURCE, MAX_STEPS } from './model/common.js';
import { readSafetensors } from './io.js';
import { toF16Safetensors } from './f16.js';
import { toI8Safetensors } from './i8.js';

const OPTIMIZERS = { adam: 0, sgd: 1 };
const MAX_BATCH = 65536; // examples in one step

/** Models made here → { ptr, live, trainers } (loadModel()'s models keep their handle private). */
const handles = new WeakMap();

/** The training build's exports of instance `l` (createAttnlab), or of the default instance
 * when l is null: attnlab-train.wasm, loaded once per instance on first use, following the main
 * build's SIMD or scalar pick (loader.js). */
async function lib(l) {
  return (await (l ?? (await defaultLib())).training()).x;
}

/** Model's constructor, which model.d.ts keeps out of the public types (loadModel() is the way in). */
const ModelIn = /** @type {new (x: object, ptr: number) => Model} */ (
  /** @type {unknown} */ (Model)
);

function adopt(x, ptr) {
  const model = new ModelIn(x, ptr);
  const h = { x, ptr, live: true, trainers: new Set() };
  handles.set(model, h);
  // disposing the model disposes its trainers first (they borrow its weights)
  const dispose = model.dispose.bind(model);
  Object.defineProperty(model, 'dispose', {
    value: () => {
      for (const t of [...h.trainers]) t.dispose();
      h.live = false;
      dispose();
    },
  });
  return model;
}

/**
 * A new model from a config (docs/models.md) with seeded weights (docs/training.md: PyTorch's
 * default initialisations from a splitmix64 stream; the same seed gives the same bytes).
 * @param {object | string} config the config object (or its JSON text)
 * @param {{ seed?: number }} [options] seed: an integer in [0, 2^32)
 * @returns {Promise<Model>}
 */
export async function createModel(config, options) {
  return createModelIn(null, config, options);
}

/** createModel() on instance `l`, or on the default instance when l is null. @internal */
export async function createModelIn(l, config, options) {
  const seed = checkOptions(options, 'createModel', ['seed']).seed ?? 0;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new AttnlabError(
      `createModel: seed ${typeof seed === 'number' ? seed : kindOf(seed)} must be an integer in [0, 2^32)`,
    );
  if (
    typeof config !== 'string' &&
    (config === null || typeof config !== 'object' || Array.isArray(config))
  ) {
    throw new AttnlabError(
      `createModel: config must be a config object or its JSON text, got ${kindOf(config)}`,
    );
  }
  let text;
  try {
    text = typeof config === 'string' ? config : JSON.stringify(config); // one read of every value
  } catch (e) {
    throw new AttnlabError(`createModel: the config cannot be written as JSON: ${e?.message ?? e}`);
  }
  const x = await lib(l);
  const bytes = new TextEncoder().encode(text);
  const ar = new Arena(x);
  try {
    const pText = ar.u8(bytes, 'the config');
    const pOut = ar.alloc(4, 'the handle');
    const pErr = ar.alloc(ERR_CAP, 'the error message');
    const status = x.al_model_create(pText, bytes.length, seed, pOut, pErr, ERR_CAP);
    if (status !== 0)
      throw new AttnlabError(`createModel: ${readCString(x, pErr)}`, statusName(status));
    return adopt(x, new Uint32Array(x.memory.buffer, pOut, 1)[0]);
  } finally {
    ar.free();
  }
}

/**
 * loadModel() for a model you will train: bytes, a URL or a path (Node). Same checks and errors.
 * @returns {Promise<Model>}
 */
export async function loadTrainableModel(source) {
  return loadTrainableModelIn(null, source);
}

/** loadTrainableModel() on instance `l`, or on the default instance when l is null. @internal */
export async function loadTrainableModelIn(l, source) {
  const bytes = await readSource(source, 'loadTrainableModel');
  const x = await lib(l);
  const ar = new Arena(x);
  try {
    const pBytes = ar.u8(bytes, 'the model file');
    const pOut = ar.alloc(4, 'the handle');
    const pErr = ar.alloc(ERR_CAP, 'the error message');
    const status = x.al_model_load(pBytes, bytes.length, pOut, pErr, ERR_CAP);
    if (status !== 0)
      throw new AttnlabError(`loadTrainableModel: ${readCString(x, pErr)}`, statusName(status));
    return adopt(x, new Uint32Array(x.memory.buffer, pOut, 1)[0]);
  } finally {
    ar.free();
  }
}

const SAVE_AS = { F32: (bytes) => bytes, F16: toF16Safetensors, I8: toI8Safetensors };

/**
 * Safetensors bytes of a model made here, as it is now: F32 tensors, or with { dtype: 'F16' }
 * half-precision ones (half the bytes; loadModel widens them back; f16.js), or with
 * { dtype: 'I8' } per-row int8 matrices and F16 for the rest (about a quarter; loadModel
 * dequantises them; i8.js).
 * @param {{ dtype?: 'F32' | 'F16' | 'I8' }} [options]
 */
export function saveModel(model, options) {
  const h = handle(model, 'saveModel');
  const o = checkOptions(options, 'saveModel', ['dtype']);
  const dtype = o.dtype ?? 'F32';
  if (typeof dtype !== 'string' || !Object.hasOwn(SAVE_AS, dtype)) {
    throw new AttnlabError(
      `saveModel: options.dtype must be 'F32', 'F16' or 'I8', got ${show(dtype)}`,
    );
  }
  const bytes = exportBytes(h.x, (pB, pL) => h.x.al_model_save(h.ptr, pB, pL), 'saveModel');
  return SAVE_AS[dtype](bytes, 'saveModel');
}

function handle(model, what) {
  const h = handles.get(model);
  if (!h)
    throw new AttnlabError(
      `${what}: this model was not made by createModel() or loadTrainableModel(); loadModel() keeps its handle private, so load the file with loadTrainableModel() to train it`,
    );
  if (!h.live) throw new AttnlabError(`${what}: this model has been disposed`);
  return h;
}

function exportBytes(x, call, what) {
  const ar = new Arena(x);
  try {
    const pB = ar.alloc(4, 'the bytes pointer');
    const pL = ar.alloc(4, 'the length');
    const status = call(pB, pL);
    if (status !== 0)
      throw new AttnlabError(
        `${what}: ${readCString(x, x.al_status_string(status))}`,
        statusName(status),
      );
    const p = new Uint32Array(x.memory.buffer, pB, 1)[0];
    const n = new Uint32Array(x.memory.buffer, pL, 1)[0];
    const out = new Uint8Array(x.memory.buffer, p, n).slice();
    x.al_free(p);
    return out;
  } finally {
    ar.free();
  }
}

/** A batch of examples → padded Int32Arrays [B, S] and [B, T] with their lengths. */
function pack(model, batch, what) {
  const { m, arch } = modelInternals(model, what);
  if (!Array.isArray(batch) || batch.length === 0)
    throw new AttnlabError(`${what}: the batch must be a non-empty array of examples`);
  if (batch.length > MAX_BATCH)
    throw new AttnlabError(
      `${what}: the batch has ${batch.length} examples; at most ${MAX_BATCH} per step`,
      'AL_ERR_SHAPE',
    );
  batch = Array.from({ length: batch.length }, (_, i) => batch[i]); // each example read once
  if (typeof arch.example !== 'function')
    throw new AttnlabError(
      `${what}: training "${m.info.architecture}" models is not supported`,
      'AL_ERR_UNSUPPORTED',
    );
  const srcs = [],
    tgts = [];
  batch.forEach((p, i) => {
    const { s, t } = arch.example(m, p, `${what}: batch[${i}]`);
    if (s.length < 1 || s.length > MAX_SOURCE)
      throw new AttnlabError(
        `${what}: batch[${i}].src has ${s.length} tokens; 1 to ${MAX_SOURCE} allowed`,
        'AL_ERR_SHAPE',
      );
    if (t.length > MAX_STEPS)
      throw new AttnlabError(
        `${what}: batch[${i}].tgt has ${t.length} tokens; at most ${MAX_STEPS}`,
        'AL_ERR_SHAPE',
      );
    srcs.push(s);
    tgts.push(t);
  });
  const B = batch.length;
  let S = 0,
    T = 0; // loops, not Math.max(...): a spread of a large batch overflows the stack
  for (const s of srcs) S = Math.max(S, s.length);
  for (const t of tgts) T = Math.max(T, t.length);
  const src = new Int32Array(B * S),
    tgt = new Int32Array(Math.max(B * T, 1));
  srcs.forEach((s, b) => src.set(s, b * S));
  tgts.forEach((t, b) => tgt.set(t, b * T));
  return {
    B,
    S,
    T,
    src,
    tgt,
    srcLen: Int32Array.from(srcs, (s) => s.length),
    tgtLen: Int32Array.from(tgts, (t) => t.length),
  };
}

/** A caller's floats (Float32Array or an array of numbers) of exactly n values, copied once. */
function floats(v, n, what, name) {
  if (!(v instanceof Float32Array) && !Array.isArray(v))
    throw new AttnlabError(
      `${what}: ${name} must be a Float32Array or an array of numbers, got ${kindOf(v)}`,
    );
  const copy = Float32Array.from(v); // one read; from here on only the copy is used
  if (copy.length !== n)
    throw new AttnlabError(
      `${what}: ${name} has ${copy.length} values; this model needs ${n}`,
      'AL_ERR_SHAPE',
    );
  return copy;
}

/**
 * A trainer for a model made by createModel() or loadTrainableModel().
 * @param {Model} model
 * @param {{ optimizer?: 'adam' | 'sgd', lr?: number, momentum?: number, weightDecay?: number,
 *           clip?: number, labelSmoothing?: number, batched?: boolean }} [options] defaults: adam,
 *   lr 3e-3 (sgd: 0.1), momentum 0, weightDecay 0 (decoupled, AdamW-style), clip 1 (global
 *   gradient norm; 0 = off), labelSmoothing 0 (ε in [0, 1): targets (1 − ε)·onehot + ε/V),
 *   batched true (the model's batched step where it has one; false: sentence by sentence)
 */
export function createTrainer(model, options) {
  const h = handle(model, 'createTrainer');
  options = checkOptions(options, 'createTrainer', [
    'optimizer',
    'lr',
    'momentum',
    'weightDecay',
    'clip',
    'labelSmoothing',
    'seed',
    'batched',
  ]);
  const optimizer = options.optimizer ?? 'adam';
  const batched = options.batched ?? true;
  if (typeof batched !== 'boolean') {
    throw new AttnlabError(`createTrainer: batched must be true or false, not ${kindOf(batched)}`);
  }
  if (typeof optimizer !== 'string' || !Object.hasOwn(OPTIMIZERS, optimizer)) {
    throw new AttnlabError(
      `createTrainer: optimizer must be 'adam' or 'sgd', not ${typeof optimizer === 'string' ? `'${optimizer.slice(0, 40)}'` : kindOf(optimizer)}`,
    );
  }
  // checked as the float32 values C gets: a clip of 1e-46 would otherwise be 0, "no clipping"
  const what = 'createTrainer';
  const lr = f32Option(what, 'lr', options.lr ?? (optimizer === 'adam' ? 3e-3 : 0.1), {
    positive: true,
  });
  const momentum = f32Option(what, 'momentum', options.momentum ?? 0, { min: 0 });
  const weightDecay = f32Option(what, 'weightDecay', options.weightDecay ?? 0, { min: 0 });
  const clip = f32Option(what, 'clip', options.clip ?? 1, { min: 0 });
  const labelSmoothing = f32Option(what, 'labelSmoothing', options.labelSmoothing ?? 0, {
    min: 0,
    below: 1,
  });
  const x = h.x;
  const ar = new Arena(x);
  let ptr;
  try {
    const pOut = ar.alloc(4, 'the handle');
    const status = x.al_trainer_create(
      h.ptr,
      OPTIMIZERS[optimizer],
      lr,
      momentum,
      weightDecay,
      clip,
      pOut,
    );
    if (status !== 0)
      throw new AttnlabError(
        `createTrainer: lr (${lr}) must be > 0, momentum in [0, 1), weightDecay >= 0, clip finite`,
        statusName(status),
      );
    ptr = new Uint32Array(x.memory.buffer, pOut, 1)[0];
    x.al_trainer_set_batched(ptr, batched ? 1 : 0);
    x.al_trainer_set_label_smoothing(ptr, labelSmoothing); // checked above: in [0, 1)
  } finally {
    ar.free();
  }
  return new Trainer(x, ptr, model, h);
}

export class Trainer {
  #x;
  #ptr;
  #h;

  /** @internal use createTrainer() */
  constructor(x, ptr, model, h) {
    this.#x = x;
    this.#ptr = ptr;
    this.#h = h;
    this.model = model;
    h.trainers.add(this);
  }

  #live(what) {
    if (this.#ptr === 0) throw new AttnlabError(`Trainer.${what}: this trainer has been disposed`);
    return this.#x;
  }

  #run(fn, batch, what) {
    const x = this.#live(what);
    const p = pack(this.model, batch, `Trainer.${what}`);
    const ar = new Arena(x);
    try {
      const pLoss = ar.alloc(4, 'the loss');
      const status = fn(
        this.#ptr,
        ar.i32(p.src, 'src'),
        ar.i32(p.srcLen, 'src lengths'),
        p.S,
        ar.i32(p.tgt, 'tgt'),
        ar.i32(p.tgtLen, 'tgt lengths'),
        p.T,
        p.B,
        pLoss,
      );
      if (status !== 0)
        throw new AttnlabError(
          `Trainer.${what}: ${readCString(x, x.al_status_string(status))}${status === 4 ? ' (the loss or gradient is not finite: lower lr or set clip)' : ''}`,
          statusName(status),
        );
      return new Float32Array(x.memory.buffer, pLoss, 1)[0];
    } finally {
      ar.free();
    }
  }

  /** One optimiser step on a batch of { src, tgt } pairs (text or ids; classifiers: { src, label }
   * examples); returns the batch's mean token (classifiers: document) loss before the step. */
  step(batch) {
    return this.#run(this.#x.al_trainer_step, batch, 'step');
  }

  /** The loss and gradient of a batch without updating: { loss, gradients: Map<name, {data, shape}> }. */
  gradients(batch) {
    const loss = this.#run(this.#x.al_trainer_gradient, batch, 'gradients');
    const bytes = exportBytes(
      this.#x,
      (pB, pL) => this.#x.al_trainer_save_gradients(this.#ptr, pB, pL),
      'Trainer.gradients',
    );
    // parsed in the trainer's own memory: its model may belong to a createAttnlab instance, and
    // the default instance may not exist
    return { loss, gradients: withLib({ x: this.#x }, () => readSafetensors(bytes)).tensors };
  }

  /** The weight count, from C (every buffer below is sized from it, never from a caller). */
  #count(what) {
    const x = this.#live(what);
    return x.al_model_weight_count(this.#h.ptr);
  }

  /**
   * The loss, the loss terms (target tokens; documents for a classifier) and the flat gradient
   * of a batch, no update: { loss, terms, gradient: Float32Array [every weight in the file's
   * order] } (a copy, unclipped). For data parallelism (web/lab/run.js): shards' gradients
   * combine as Σ terms·gradient / Σ terms, which applyGradient() then applies. The loss may be
   * non-finite here: applyGradient() refuses a non-finite gradient.
   */
  gradient(batch) {
    const loss = this.#run(this.#x.al_trainer_gradient, batch, 'gradient');
    const x = this.#x,
      n = this.#count('gradient');
    const terms = x.al_trainer_terms(this.#ptr);
    const gradient = new Float32Array(
      x.memory.buffer,
      x.al_trainer_gradients(this.#ptr),
      n,
    ).slice();
    return { loss, terms, gradient };
  }

  /**
   * One optimiser step from a given gradient (Float32Array or numbers, one per weight): exactly
   * what step() does after its gradient (non-finite check, clipping, Adam or SGD), so
   * step(batch) and applyGradient(gradient(batch).gradient) give the same bits.
   */
  applyGradient(gradient) {
    const what = 'Trainer.applyGradient';
    const n = this.#count('applyGradient');
    const g = floats(gradient, n, what, 'the gradient');
    const x = this.#x;
    const ar = new Arena(x);
    try {
      const status = x.al_trainer_apply(this.#ptr, ar.f32(g, `${what}: the gradient`));
      if (status !== 0)
        throw new AttnlabError(
          `${what}: ${readCString(x, x.al_status_string(status))}`,
          statusName(status),
        );
    } finally {
      ar.free();
    }
  }

  /**
   * The optimiser state for a checkpoint: { optimizer, steps, m1, m2 } with m1, m2 Float32Arrays
   * of one value per weight (copies): Adam's first and second moments; SGD with momentum: m1 the
   * momentum buffer and m2 empty; plain SGD: both empty.
   */
  exportState() {
    const x = this.#live('exportState');
    const n = this.#count('exportState');
    const k = x.al_trainer_moments(this.#ptr);
    const ar = new Arena(x);
    try {
      const pSteps = ar.alloc(4, 'the steps');
      const p1 = ar.alloc(k >= 1 ? n * 4 : 4, 'the first moment');
      const p2 = ar.alloc(k === 2 ? n * 4 : 4, 'the second moment');
      const status = x.al_trainer_get_state(this.#ptr, pSteps, p1, p2);
      if (status !== 0)
        throw new AttnlabError(
          `Trainer.exportState: ${readCString(x, x.al_status_string(status))}`,
          statusName(status),
        );
      return {
        optimizer: k === 2 ? 'adam' : 'sgd',
        steps: new Int32Array(x.memory.buffer, pSteps, 1)[0],
        m1: k >= 1 ? new Float32Array(x.memory.buffer, p1, n).slice() : new Float32Array(0),
        m2: k === 2 ? new Float32Array(x.memory.buffer, p2, n).slice() : new Float32Array(0),
      };
    } finally {
      ar.free();
    }
  }

  /**
   * Restore exportState()'s object (a checkpoint; the model's weights come back separately, with
   * loadTrainableModel). Checked before anything changes: steps an integer >= 0, m1 and m2 of the
   * lengths this trainer's optimiser keeps, every value finite, m2 >= 0.
   */
  importState(state) {
    const what = 'Trainer.importState';
    const x = this.#live('importState');
    const n = this.#count('importState');
    const k = x.al_trainer_moments(this.#ptr);
    if (state === null || typeof state !== 'object' || Array.isArray(state))
      throw new AttnlabError(
        `${what}: state must be an object { steps, m1, m2 } from exportState(), got ${kindOf(state)}`,
      );
    const s = { steps: state.steps, m1: state.m1, m2: state.m2 }; // each field read once
    if (!Number.isInteger(s.steps) || s.steps < 0 || s.steps > 0x7fffffff)
      throw new AttnlabError(
        `${what}: state.steps must be an integer in [0, 2^31), got ${show(s.steps)}`,
        'AL_ERR_RANGE',
      );
    const kind =
      k === 2
        ? 'Adam keeps two moments'
        : k === 1
          ? 'SGD with momentum keeps one buffer (m1; m2 empty)'
          : 'plain SGD keeps none (m1 and m2 empty)';
    const m1 = floats(s.m1, k >= 1 ? n : 0, what, `state.m1 (${kind}, ${n} values each)`);
    const m2 = floats(s.m2, k === 2 ? n : 0, what, `state.m2 (${kind}, ${n} values each)`);
    const ar = new Arena(x);
    try {
      const p1 = k >= 1 ? ar.f32(m1, `${what}: state.m1`) : 0;
      const p2 = k === 2 ? ar.f32(m2, `${what}: state.m2`) : 0;
      const status = x.al_trainer_set_state(this.#ptr, s.steps, p1, p2);
      if (status !== 0) {
        const why =
          status === 3
            ? 'state.m2 has a negative value (it is a mean of squares)'
            : readCString(x, x.al_status_string(status));
        throw new AttnlabError(`${what}: ${why}`, statusName(status));
      }
    } finally {
      ar.free();
    }
  }

  /** Set the learning rate (for schedules). */
  setLearningRate(lr) {
    const x = this.#live('setLearningRate');
    lr = f32Option('Trainer.setLearningRate', 'lr', lr, { positive: true });
    if (x.al_trainer_set_lr(this.#ptr, lr) !== 0)
      throw new AttnlabError(`Trainer.setLearningRate: lr ${lr} must be a finite number > 0`);
  }

  /** True when a step takes the batched path (createTrainer's batched option and the model). */
  get batched() {
    return this.#live('batched').al_trainer_batched(this.#ptr) === 1;
  }

  /** The label smoothing ε of every cross-entropy term (createTrainer's labelSmoothing; 0: none). */
  get labelSmoothing() {
    return this.#live('labelSmoothing').al_trainer_label_smoothing(this.#ptr);
  }

  /** Steps taken so far; the last gradient's global norm (before clipping). */
  get steps() {
    return this.#live('steps').al_trainer_steps(this.#ptr);
  }
  get gradNorm() {
    return this.#live('gradNorm').al_trainer_grad_norm(this.#ptr);
  }

  /**
   * Greedy decoding of every pair: exactMatch (output === tgt), tokenAccuracy (target positions,
   * eos included, where the output has the same token) and the mean teacher-forced token loss
   * (skip it with { loss: false }).
   * Classifiers ({ src, label } examples): accuracy (argmax === label), the mean cross-entropy
   * −log p(label) as loss (without the penalty term), and for structured pooling the mean
   * penalty ‖AAᵀ − I‖²_F.
   * Transformers: evaluateTransformer above (per variant; examples as for step()).
   * Language models (memory-rnn, head "lm"; { src } examples): loss, the mean next-token loss over
   * every sentence's n − 1 predictions, perplexity = exp(loss), tokens (predictions) and count.
   * A memory-rnn classifier head evaluates as a classifier.
   */
  evaluate(pairs, options) {
    this.#live('evaluate');
    const loss = checkOptions(options, 'Trainer.evaluate', ['loss']).loss ?? true;
    if (typeof loss !== 'boolean')
      throw new AttnlabError(
        `Trainer.evaluate: options.loss must be true or false, got ${kindOf(loss)}`,
      );
    if (!Array.isArray(pairs))
      throw new AttnlabError(
        `Trainer.evaluate: pairs must be an array of examples, got ${kindOf(pairs)}`,
      );
    const { m, arch } = modelInternals(this.model, 'Trainer.evaluate');
    return arch.evaluate(m, this.model, pairs, loss);
  }

  /** The model's safetensors bytes as they are now (loadModel reads them); options as saveModel's. */
  save(options) {
    this.#live('save');
    return saveModel(this.model, options);
  }

  /** Free the trainer's wasm memory (gradients, optimiser state); a second call is harmless. */
  dispose() {
    if (this.#ptr === 0) return;
    this.#x.al_trainer_free(this.#ptr);
    this.#ptr = 0;
    this.#h.trainers.delete(this);
  }

  [Symbol.dispose]() {
    this.dispose();
  }
}
