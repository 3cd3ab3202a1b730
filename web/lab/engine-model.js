// web/lab/engine-model.js: one lab run's model, built and stepped: the experiment's spec checked
// (spec.checkExperiment), the task made, the model created from the seed or a checkpoint, its
// trainer, the data-parallel shard replicas (shard-worker.js), held-out pairs grouped by input
// length, and one optimiser step over the replicas. engine.js drives it; see its header for the
// protocol and the data-parallel maths.
//
//   const r = await createRunState(msg, { tasks, spec }, onShardDead);   // msg: init's fields
//   const loss = await stepOnce(r);   await local(r, null);   disposeRun(r);
//
// Deliberately no messages to the page, no pacing, no evaluation schedule and no attention
// snapshots (engine.js); the task and spec modules are handed in, never imported by name, so the
// shipped worker (lab-worker.js) and the tests' stand-in worker share this code.

import {
  init,
  createModel,
  createTrainer,
  loadTrainableModel,
  readSafetensors,
  saveModel,
} from '../../wasm/index.js';
import { startWorker } from './worker-port.js';
import { checkpointProblem } from './checkpoints.js';
import { lrAt } from './spec.js';

function checkRun(spec, taskSpec, run) {
  if (!run || typeof run !== 'object' || !run.model || !run.train)
    throw new Error('init: run must be { model, train }');
  if (typeof spec.checkExperiment === 'function') {
    const { experiment, refused } = spec.checkExperiment({ task: taskSpec, a: run, b: null });
    if (refused.length)
      throw new Error(`the experiment has values out of range: ${refused.join(', ')}`);
    return { task: experiment.task, run: experiment.a };
  }
  return { task: taskSpec, run };
}

/** Held-out pairs grouped by input length, with each pair's target token count (eos included)
 * so the overall token accuracy weighs pairs as one evaluation over all of them would. */
function groupsOf(task, model) {
  const by = new Map();
  for (const p of task.heldout) {
    const length = task.lengthOf(p.src);
    if (!by.has(length)) by.set(length, []);
    by.get(length).push(p);
  }
  return [...by.keys()]
    .sort((a, b) => a - b)
    .map((length) => {
      const pairs = by.get(length);
      return { length, pairs, tokenCounts: tokenCountsOf(pairs, model) };
    });
}

/** Each pair's target token count, eos included. */
function tokenCountsOf(pairs, model) {
  return pairs.map(
    (p) =>
      (typeof p.tgt === 'string' ? model.tokenizer.encodeTarget(p.tgt).length : p.tgt.length) + 1,
  );
}

/** The training pairs evaluated beside the held-out ones (at most this many). */
export const TRAIN_SAMPLE = 200;

/**
 * A fixed sample of training pairs, evaluated exactly as the held-out set is (the training
 * accuracy beside the held-out accuracy; issue 30): the pairs of the run's first batches, which
 * it trains on, as many as the held-out set has and at most TRAIN_SAMPLE. { train: true, pairs,
 * tokenCounts }, or null when the task gives no training pair. Drawn once, at the run's first
 * evaluation (not at init: a task's batches are the training's business).
 */
export function trainGroup(r) {
  if (r.trainGroup === undefined) r.trainGroup = trainGroupOf(r.task, r.model, r.train.batch);
  return r.trainGroup;
}

function trainGroupOf(task, model, batch) {
  const want = Math.min(TRAIN_SAMPLE, Math.max(1, task.heldout.length));
  const pairs = [];
  for (let s = 0; pairs.length < want && s < want; s++) pairs.push(...task.batch(s, batch));
  pairs.length = Math.min(pairs.length, want);
  return pairs.length
    ? { train: true, length: null, pairs, tokenCounts: tokenCountsOf(pairs, model) }
    : null;
}

/**
 * A run from init's message: { task, run, pairs?, checkpoint? }, with the task and spec modules
 * given (tasks.js and spec.js, or the tests' stand-ins). onShardDead(r, message) is called when a
 * data-parallel replica stops.
 */
export async function createRunState(msg, { tasks, spec }, onShardDead) {
  const api = await init();
  const checked = checkRun(spec, msg.task, msg.run);
  const task = tasks.makeTask(checked.task, msg.pairs);
  const config = spec.modelConfig(checked.run.model, task);
  const train = checked.run.train;
  const options = { optimizer: train.optimizer, lr: train.lr, clip: train.clip };
  const workers = Math.max(1, Math.min(4, Math.floor(train.workers ?? 1)));
  const r = {
    task,
    config,
    train,
    options,
    workers,
    simd: api.simd,
    model: null,
    trainer: null,
    shards: [],
    pending: null,
    pendingLr: null,
    step: 0,
    losses: new Float32Array(1024),
    fresh: [], // fresh: losses not yet posted
    trainMs: 0,
    evalCost: 0,
    evalMs: 0,
    trainAtEval: 0,
    lastSnapshot: 0,
    marks: [],
    job: null,
    groups: [],
    trainGroup: undefined, // trainGroup(r): undefined until the first evaluation draws it
    parameters: 0,
    attention: true,
  };
  try {
    await build(r, msg.checkpoint ?? null, onShardDead);
  } catch (err) {
    disposeRun(r);
    throw err;
  }
  return r;
}

async function build(r, cp, onShardDead) {
  const { task, config, train, options, workers } = r;
  if (cp) checkCheckpoint(cp);
  await local(r, cp);
  for (let i = 1; i < workers; i++) {
    const w = await startWorker(new URL('./shard-worker.js', import.meta.url));
    const shard = { w, waiting: new Map(), index: i };
    w.onMessage((m) => {
      const k = shard.waiting.get(m.re);
      if (!k) return;
      shard.waiting.delete(m.re);
      if (m.type === 'error') k.reject(new Error(`shard worker ${i}: ${m.message}`));
      else k.resolve(m);
    });
    w.onFailure((message) => {
      shard.dead = message;
      for (const k of shard.waiting.values()) k.reject(new Error(message));
      shard.waiting.clear();
      onShardDead(r, message);
    });
    r.shards.push(shard);
  }
  await Promise.all(
    r.shards.map((s) =>
      ask(s, {
        type: 'init',
        config,
        seed: train.seed,
        trainer: options,
        checkpoint: cp ? { bytes: cp.bytes, optimizer: cp.optimizer } : undefined,
      }),
    ),
  );
  if (cp) {
    r.step = cp.step;
    r.losses = grow(new Float32Array(0), cp.losses.length);
    r.losses.set(cp.losses);
  }
  r.groups = groupsOf(task, r.model);
  r.trainGroup = undefined; // drawn at the first evaluation (trainGroup)
  r.parameters = parameterCount(r.trainer);
}

/** A checkpoint from a message (IndexedDB's record, a loaded file) is data: checked before use. */
function checkCheckpoint(cp) {
  const problem = checkpointProblem(cp, 'checkpoint');
  if (problem) throw new Error(`init: ${problem}`);
}

/** Replica 0 (this worker's model and trainer): the seed's weights or a checkpoint's. */
export async function local(r, cp) {
  r.trainer?.dispose();
  r.model?.dispose();
  r.trainer = null;
  r.model = null;
  r.model = await createModel(r.config, { seed: r.train.seed });
  if (cp) {
    const fresh = r.model;
    r.model = null;
    try {
      r.model = await loadTrainableModel(cp.bytes);
      const want = layout(saveModel(fresh)),
        got = layout(saveModel(r.model));
      if (want !== got)
        throw new Error(
          "init: the checkpoint holds another model than this run's spec (its tensors differ): it belongs to another experiment",
        );
      const other = tokenizerDifference(fresh.tokenizer, r.model.tokenizer);
      if (other)
        throw new Error(
          `init: the checkpoint's tokenizer is not this experiment's (${other}): it was trained on other data, whose characters or words would all read as <unk> here`,
        );
    } finally {
      fresh.dispose();
    }
  }
  r.trainer = createTrainer(r.model, r.options);
  if (cp) r.trainer.importState(cp.optimizer);
  r.pending = null;
}

/** The first difference between the experiment's tokenizer and a file's, in words, or null. */
export function tokenizerDifference(want, got) {
  const a = want ?? {},
    b = got ?? {};
  const show = (x) => JSON.stringify(x)?.slice(0, 40) ?? String(x);
  for (const key of ['type', 'pad', 'bos', 'eos', 'unk']) {
    if (a[key] !== b[key]) return `its ${key} is ${show(b[key])}, the experiment's ${show(a[key])}`;
  }
  for (const [key, side] of [
    ['srcVocab', 'input'],
    ['tgtVocab', 'output'],
  ]) {
    const x = a[key] ?? [],
      y = b[key] ?? [];
    if (x.length !== y.length)
      return `its ${side} vocabulary has ${y.length} entries, the experiment's ${x.length}`;
    for (let i = 0; i < x.length; i++) {
      if (x[i] !== y[i])
        return `${side} vocabulary entry ${i} is ${show(y[i])}, the experiment's ${show(x[i])}`;
    }
  }
  return null;
}

/** A model file's tensor names and shapes, as one string. */
function layout(bytes) {
  return JSON.stringify([...readSafetensors(bytes).tensors].map(([name, t]) => [name, t.shape]));
}

function parameterCount(trainer) {
  let n = 0;
  for (const t of readSafetensors(trainer.save()).tensors.values()) n += t.data.length;
  return n;
}

let asked = 0;
export function ask(shard, msg, transfer = []) {
  if (shard.dead) return Promise.reject(new Error(shard.dead));
  const id = ++asked;
  return new Promise((resolve, reject) => {
    shard.waiting.set(id, { resolve, reject });
    shard.w.post({ ...msg, id }, transfer);
  });
}

/** Ends a run's replicas and frees its model and trainer. */
export function disposeRun(r) {
  for (const s of r.shards) s.w.terminate();
  r.trainer?.dispose();
  r.model?.dispose();
}

function grow(a, n) {
  if (n <= a.length) return a;
  const b = new Float32Array(Math.max(n, a.length * 2, 1024));
  b.set(a);
  return b;
}

// ------------------------------------------------------------------ training

/** Contiguous near-equal shards of a batch, one per replica (some empty when batch < k). */
function split(batch, k) {
  const out = [];
  for (let i = 0; i < k; i++)
    out.push(
      batch.slice(Math.floor((i * batch.length) / k), Math.floor(((i + 1) * batch.length) / k)),
    );
  return out;
}

/** One optimiser step on the task's batch for this step; returns its loss (before the update).
 * A failure names the step. */
export async function stepOnce(r) {
  try {
    return await stepInner(r);
  } catch (err) {
    const message = err?.message ?? String(err);
    throw new Error(message.startsWith('step ') ? message : `step ${r.step}: ${message}`);
  }
}

async function stepInner(r) {
  const batch = r.task.batch(r.step, r.train.batch);
  // a learning-rate schedule (spec.js lrAt): this step's rate, set on every replica before its update
  const lr = lrAt(r.train, r.step);
  if (r.train.halfLife > 0) r.trainer.setLearningRate(lr);
  let loss;
  if (r.workers === 1) {
    loss = r.trainer.step(batch);
  } else {
    const parts = split(batch, r.workers);
    const apply = r.pending,
      applyLr = r.pendingLr;
    r.pending = null;
    const replies = r.shards.map((s, i) => {
      const a = apply ? apply.slice() : null;
      return ask(
        s,
        { type: 'step', apply: a, lr: applyLr, batch: parts[i + 1] },
        a ? [a.buffer] : [],
      );
    });
    const theirs = Promise.all(replies);
    theirs.catch(() => {}); // handled below; a local failure must not leave it unhandled
    const mine = parts[0].length
      ? r.trainer.gradient(parts[0])
      : { loss: 0, terms: 0, gradient: null };
    const all = [mine, ...(await theirs)];
    let N = 0,
      L = 0;
    for (const g of all) {
      N += g.terms;
      L += g.terms * g.loss;
    }
    const sum = new Float64Array(
      mine.gradient?.length ?? all.find((g) => g.gradient).gradient.length,
    );
    for (const g of all) {
      if (!g.terms) continue;
      const w = g.terms / N,
        d = g.gradient;
      for (let j = 0; j < sum.length; j++) sum[j] += w * d[j];
    }
    loss = L / N;
    if (!Number.isFinite(loss)) throw new Error(nonFinite(r, loss));
    const g = Float32Array.from(sum);
    r.trainer.applyGradient(g);
    r.pending = g;
    r.pendingLr = r.train.halfLife > 0 ? lr : null; // the shards apply g at their next step, at this rate
  }
  if (!Number.isFinite(loss)) throw new Error(nonFinite(r, loss));
  r.losses = grow(r.losses, r.step + 1);
  r.losses[r.step] = loss;
  r.fresh.push(loss);
  r.step++;
  return loss;
}

const nonFinite = (r, loss) =>
  `step ${r.step}: the loss is ${loss}: the training diverged; lower the learning rate or set clipping, then reset`;
