// scripts/lab-presets.mjs: measures how fast a lab preset (web/lab/spec.js PRESETS) reaches its
// target, in steps and in training seconds (evaluation time left out), in Node on one thread,
// the way one lab run worker trains: makeTask(task).batch(step, batch), createModel(config, {seed}),
// createTrainer(model, train), trainer.evaluate on task.heldout per input length.
//
//   node scripts/lab-presets.mjs with-without a [--lr 0.005] [--batch 32] [--hidden 64]
//        [--embedding 32] [--seconds 180] [--every 5] [--target 0.99] [--all-lengths 0.95]
//        [--halflife N] (the learning rate halves every N steps: lr · 0.5^(step / N))
//
// Prints one line per evaluation: step, training seconds, held-out exact match, worst length.
// Not a test: the figures go into the presets' comments (spec.js).

import os from 'node:os';
import { createModel, createTrainer } from '../wasm/index.js';
import { makeTask } from '../web/lab/tasks.js';
import { PRESETS, modelConfig, parameterCount, checkExperiment } from '../web/lab/spec.js';

const [id = 'with-without', which = 'a', ...rest] = process.argv.slice(2);
const opt = {};
for (let i = 0; i < rest.length; i += 2) opt[rest[i].replace(/^--/, '')] = rest[i + 1];
const preset = PRESETS.find((p) => p.id === id);
if (!preset) throw new Error(`no preset ${id}`);
const exp = JSON.parse(JSON.stringify(preset.experiment));
const run = exp[which];
for (const k of ['lr', 'batch', 'clip']) if (opt[k] !== undefined) run.train[k] = Number(opt[k]);
if (opt.optimizer) run.train.optimizer = opt.optimizer;
for (const k of ['hidden', 'embedding', 'layers', 'width', 'heads', 'feedforward'])
  if (opt[k] !== undefined) run.model[k] = Number(opt[k]);
for (const k of ['cell', 'attention', 'style', 'positions'])
  if (opt[k] !== undefined) run.model[k] = opt[k];
if (opt.bidirectional !== undefined) run.model.bidirectional = opt.bidirectional === '1';
if (opt.seed) run.train.seed = Number(opt.seed);
if (opt.dseed) exp.task.seed = Number(opt.dseed);
if (opt.min) exp.task.minLength = Number(opt.min);
if (opt.max) exp.task.maxLength = Number(opt.max);
const { experiment, refused } = checkExperiment(exp);
if (refused.length) console.log('refused', refused);
const r = experiment[which];
const seconds = Number(opt.seconds ?? 180);
const every = Number(opt.every ?? 5);
const everySteps = opt['every-steps'] ? Number(opt['every-steps']) : 0;
const maxSteps = opt.steps ? Number(opt.steps) : Infinity;
const target = Number(opt.target ?? 0.99);
const allLengths = opt['all-lengths'] !== undefined ? Number(opt['all-lengths']) : null;

const task = makeTask(experiment.task);
const model = await createModel(modelConfig(r.model, task), { seed: r.train.seed });
const trainer = createTrainer(model, {
  optimizer: r.train.optimizer,
  lr: r.train.lr,
  clip: r.train.clip,
});
const byLength = new Map();
for (const p of task.heldout) {
  const n = task.lengthOf(p.src);
  if (!byLength.has(n)) byLength.set(n, []);
  byLength.get(n).push(p);
}
console.log(
  `# ${id} ${which}: ${JSON.stringify(r)} task ${JSON.stringify(experiment.task)}; ${parameterCount(r.model, task)} parameters; heldout ${task.heldout.length}; ${os.cpus()[0].model}, node ${process.version}`,
);
let train = 0;
let cpu = 0; // the process's CPU seconds while stepping: one core's time, whatever else runs
let step = 0;
let nextEval = every;
let reached = null;
let lossSum = 0,
  lossN = 0;
while (train < seconds && step < maxSteps) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const batch = task.batch(step, r.train.batch);
  if (opt.halflife) trainer.setLearningRate(r.train.lr * 0.5 ** (step / Number(opt.halflife)));
  lossSum += trainer.step(batch);
  lossN++;
  step++;
  train += (performance.now() - t0) / 1000;
  {
    const c = process.cpuUsage(c0);
    cpu += (c.user + c.system) / 1e6;
  }
  if (everySteps ? step % everySteps === 0 : train >= nextEval) {
    nextEval += every;
    const e0 = performance.now();
    let exact = 0,
      count = 0,
      worst = 1,
      worstLen = 0;
    const parts = [];
    for (const [n, pairs] of byLength) {
      const ev = trainer.evaluate(pairs, { loss: false });
      exact += ev.exactMatch * ev.count;
      count += ev.count;
      if (ev.exactMatch < worst) {
        worst = ev.exactMatch;
        worstLen = n;
      }
      parts.push(`${n}:${Math.round(ev.exactMatch * 100)}`);
    }
    const em = exact / count;
    const evalS = (performance.now() - e0) / 1000;
    console.log(
      `step ${step} train ${train.toFixed(1)} s cpu ${cpu.toFixed(1)} s loss ${(lossSum / lossN).toFixed(4)} exact ${(em * 100).toFixed(1)}% worst ${(worst * 100).toFixed(0)}%@${worstLen} (eval ${evalS.toFixed(1)} s) ${opt.verbose ? parts.join(' ') : ''}`,
    );
    lossSum = 0;
    lossN = 0;
    const ok = allLengths !== null ? worst >= allLengths : em >= target;
    if (ok && !reached) {
      reached = { step, seconds: train };
      console.log(
        `REACHED step ${step} train ${train.toFixed(1)} s cpu ${cpu.toFixed(1)} s (${(step / train).toFixed(1)} steps/s wall, ${(step / cpu).toFixed(1)} per CPU s) exact ${(em * 100).toFixed(1)}% by length ${parts.join(' ')}`,
      );
      if (!opt.continue) break;
    }
  }
}
if (!reached) console.log(`NOT REACHED in ${seconds} s (${step} steps)`);
model.dispose();
