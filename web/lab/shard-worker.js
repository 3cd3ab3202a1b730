// web/lab/shard-worker.js: one extra replica of a run's model for synchronous data parallelism
// (engine-model.js starts train.workers − 1 of these). Each step it applies the previous step's
// combined gradient (the same Float32Array every replica applies, so the replicas stay equal)
// and returns the loss, loss terms and gradient of its shard of the new batch
// (docs/training.md, "Data parallelism and checkpoints").
//
// Messages in (answered in order, each with { re: id } of its request):
//   init  { id, config, seed, trainer: { optimizer, lr, clip }, checkpoint?: { bytes, optimizer } }
//                                   → ok
//   reset { id }                    → ok        (the seed's weights again, fresh optimiser)
//   load  { id, bytes, optimizer }  → ok        (a checkpoint: F32 safetensors + exportState())
//   step  { id, apply: Float32Array | null, lr?: number (apply's rate under a schedule), batch: [{src, tgt}] }
//                                   → grad { loss, terms, gradient } (terms 0 and no gradient
//                                     for an empty shard)
// Anything that fails answers error { re, message }.
// Deliberately holds no task, data or schedule: the run worker sends the pairs.

import { init, createModel, createTrainer, loadTrainableModel } from '../../wasm/index.js';
import { hostPort } from './worker-port.js';

const port = await hostPort();
/** @type {{ config: object, seed: number, options: object } | null} */
let spec = null;
/** @type {import('../../wasm/model.js').Model | null} */
let model = null;
/** @type {import('../../wasm/train.js').Trainer | null} */
let trainer = null;
let queue = Promise.resolve();

async function replace(make) {
  trainer?.dispose();
  model?.dispose();
  trainer = null;
  model = null;
  model = await make();
  trainer = createTrainer(model, spec.options);
}

async function handle(msg) {
  switch (msg?.type) {
    case 'init':
      await init();
      spec = { config: msg.config, seed: msg.seed, options: msg.trainer };
      if (msg.checkpoint) {
        await replace(() => loadTrainableModel(msg.checkpoint.bytes));
        trainer.importState(msg.checkpoint.optimizer);
      } else {
        await replace(() => createModel(spec.config, { seed: spec.seed }));
      }
      return { type: 'ok' };
    case 'reset':
      await replace(() => createModel(spec.config, { seed: spec.seed }));
      return { type: 'ok' };
    case 'load':
      await replace(() => loadTrainableModel(msg.bytes));
      trainer.importState(msg.optimizer);
      return { type: 'ok' };
    case 'step': {
      if (!trainer) throw new Error('shard worker: step before init');
      if (msg.apply) {
        if (msg.lr) trainer.setLearningRate(msg.lr); // a schedule's rate for that update (spec.js lrAt)
        trainer.applyGradient(msg.apply);
      }
      if (!msg.batch?.length) return { type: 'grad', loss: 0, terms: 0, gradient: null };
      const g = trainer.gradient(msg.batch);
      return { type: 'grad', loss: g.loss, terms: g.terms, gradient: g.gradient };
    }
    default:
      throw new Error(`shard worker: unknown message ${JSON.stringify(msg?.type)}`);
  }
}

port.onMessage((msg) => {
  queue = queue.then(async () => {
    try {
      const reply = await handle(msg);
      port.post({ ...reply, re: msg?.id }, reply.gradient ? [reply.gradient.buffer] : []);
    } catch (err) {
      port.post({ type: 'error', re: msg?.id, message: err?.message ?? String(err) });
    }
  });
});
