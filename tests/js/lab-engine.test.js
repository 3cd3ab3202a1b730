// The lab's engine through its page-facing controller (web/lab/run.js → lab-worker.js →
// shard-worker.js, in worker_threads), on the contract stand-in task of lab-engine-stub.js:
//   - one worker and two (and three) give the same parameters after 20 steps within 1e-5
//     relative (the done-when), and losses within 1e-5;
//   - the same spec twice gives identical first 20 losses, free-running (1 and 2 workers);
//   - the exported F32 bytes load with loadModel and equal, bit for bit, a model trained in this
//     thread on the same batches; eval and attention messages equal what the exported model gives;
//   - pause / step / reset take effect at once (within a slice), and reset replays the run;
//   - checkpoint → a new run → resume gives the same next losses bit for bit;
//   - a bad spec, a batch the model cannot read, a diverging run and a worker that cannot load
//     give `error` (and a rejected request), never a hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { init, createModel, createTrainer, loadModel, loadTrainableModel, readSafetensors } from '../../wasm/index.js';
import { createRun } from '../../web/lab/run.js';
import { MODULES, TASK, MODEL, TRAIN, makeTask, modelConfig } from './lab-engine-stub.js';

await init();

const spec = (train = {}, model = {}, task = {}) => ({
  task: { ...TASK, ...task }, run: { model: { ...MODEL, ...model }, train: { ...TRAIN, ...train } }, modules: MODULES,
});

/** A run with every message type recorded. */
function recorded() {
  const run = createRun();
  const log = { progress: [], eval: [], attention: [], state: [], error: [], losses: [] };
  for (const type of Object.keys(log)) if (type !== 'losses') run.on(type, (m) => log[type].push(m));
  run.on('progress', (m) => log.losses.push(...m.losses));
  return { run, log };
}

const within = (ms, what) => new Promise((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms).unref());
const answer = (p, what, ms = 20000) => Promise.race([p, within(ms, what)]);
const until = async (fn, what, ms = 20000) => {
  const t0 = Date.now();
  while (!fn()) {
    if (Date.now() - t0 > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

async function stepped(n, train, model) {
  const { run, log } = recorded();
  const ready = await answer(run.init(spec(train, model)), 'init');
  for (let i = 0; i < n; i++) await run.step();
  const bytes = await run.export('F32');
  run.dispose();
  return { ready, log, bytes, tensors: readSafetensors(bytes).tensors };
}

test('one worker and two (and three) give the same parameters after 20 steps within 1e-5 relative', async () => {
  const one = await stepped(20, { workers: 1 });
  assert.equal(one.ready.workers, 1);
  for (const workers of [2, 3]) {
    const k = await stepped(20, { workers });
    assert.equal(k.ready.workers, workers);
    let worst = 0, where = '', scale = 0;
    for (const [name, t] of one.tensors) {
      const u = k.tensors.get(name).data;
      let big = 0;
      for (const v of t.data) big = Math.max(big, Math.abs(v));
      for (let i = 0; i < t.data.length; i++) {
        const rel = Math.abs(t.data[i] - u[i]) / big; // relative to the tensor's largest weight
        if (rel > worst) [worst, where, scale] = [rel, `${name}[${i}]`, big];
      }
    }
    console.log(`${workers} workers vs 1 after 20 steps: worst difference ${worst.toExponential(2)} × the tensor's largest weight (${where}, ${scale.toFixed(3)})`);
    assert.ok(worst <= 1e-5, `${where}: ${worst} relative`);
    assert.equal(k.log.losses.length, 20);
    k.log.losses.forEach((l, i) => assert.ok(Math.abs(l - one.log.losses[i]) <= 1e-5 * Math.abs(l), `loss ${i}: ${l} vs ${one.log.losses[i]}`));
  }
});

test('the exported run equals a model trained here on the same batches, bit for bit; it loads with loadModel', async () => {
  const steps = 12;
  const r = await stepped(steps, { workers: 1 });
  const task = makeTask(TASK);
  const model = await createModel(modelConfig(MODEL, task), { seed: TRAIN.seed });
  const trainer = createTrainer(model, { optimizer: TRAIN.optimizer, lr: TRAIN.lr, clip: TRAIN.clip });
  const losses = [];
  for (let s = 0; s < steps; s++) losses.push(trainer.step(task.batch(s, TRAIN.batch)));
  assert.deepEqual(r.log.losses, losses, 'the same losses');
  assert.deepEqual(r.bytes, trainer.save(), 'the same bytes');
  assert.equal(r.ready.parameters, [...r.tensors.values()].reduce((n, t) => n + t.data.length, 0));
  const loaded = await loadModel(r.bytes);
  const x = loaded.run(task.example.src), y = model.run(task.example.src);
  assert.equal(x.output, y.output);
  assert.deepEqual(x.attention[0].weights.data, y.attention[0].weights.data);
  loaded.dispose();
  model.dispose();
});

test('eval by length and the attention snapshot are what the exported model gives', async () => {
  const { run, log } = recorded();
  const ready = await run.init(spec({ workers: 2 }));
  const task = makeTask(TASK);
  assert.equal(ready.heldoutCount, task.heldout.length);
  assert.deepEqual(ready.lengths, [...new Set(task.heldout.map((p) => p.src.length))].sort((a, b) => a - b));
  assert.deepEqual(ready.example, task.example);
  await run.start();
  await until(() => log.losses.length >= 30, '30 steps');
  const paused = await run.pause();
  const bytes = await run.export('F32');
  run.dispose();
  const e = log.eval.at(-1), a = log.attention.at(-1);
  assert.equal(e.step, paused.step, 'pause evaluates the paused weights');
  assert.equal(a.step, paused.step);
  const model = await loadTrainableModel(bytes);
  const trainer = createTrainer(model);
  assert.equal(e.count, task.heldout.length);
  assert.deepEqual(e.byLength.map((g) => g.length), ready.lengths);
  let exact = 0;
  for (const g of e.byLength) {
    const pairs = task.heldout.filter((p) => p.src.length === g.length);
    const ref = trainer.evaluate(pairs, { loss: false });
    assert.equal(g.count, pairs.length);
    assert.equal(g.exactMatch, ref.exactMatch, `length ${g.length}: exact match`);
    assert.equal(g.tokenAccuracy, ref.tokenAccuracy, `length ${g.length}: token accuracy`);
    exact += ref.exactMatch * ref.count;
  }
  const all = trainer.evaluate(task.heldout, { loss: false });
  assert.ok(Math.abs(e.exactMatch - exact / task.heldout.length) < 1e-12);
  assert.ok(Math.abs(e.tokenAccuracy - all.tokenAccuracy) < 1e-12, 'token accuracy weighs the groups by their tokens');
  const r = model.run(task.example.src);
  assert.equal(a.output, r.output);
  assert.deepEqual([a.rows, a.cols], r.attention[0].weights.shape);
  assert.deepEqual(a.weights, r.attention[0].weights.data);
  assert.deepEqual(a.rowLabels, r.attention[0].rowLabels);
  assert.deepEqual(a.colLabels, r.attention[0].colLabels);
  // the first evaluation (at ready) and progress' order
  assert.equal(log.eval[0].step, 0);
  let step = 0;
  for (const p of log.progress) {
    assert.equal(p.step, step + p.losses.length, 'progress: step counts every loss');
    step = p.step;
  }
  model.dispose();
});

for (const workers of [1, 2]) {
  test(`the same spec twice gives identical first 20 losses (${workers} worker${workers > 1 ? 's' : ''}, free-running)`, async () => {
    const first20 = async () => {
      const { run, log } = recorded();
      await run.init(spec({ workers }));
      await run.start();
      await until(() => log.losses.length >= 20, '20 losses');
      await run.pause();
      run.dispose();
      return Float32Array.from(log.losses.slice(0, 20));
    };
    const a = await first20(), b = await first20();
    assert.deepEqual(b, a);
    assert.ok(a[19] < a[0], `the loss falls: ${a[0]} → ${a[19]}`);
  });
}

test('pause, one step and reset take effect within a slice; reset replays the run', async () => {
  const { run, log } = recorded();
  await run.init(spec({ workers: 2 }));
  const started = await run.start();
  assert.equal(started.running, true);
  await until(() => log.losses.length >= 10, '10 steps');
  const t0 = performance.now();
  const paused = await run.pause();
  const took = performance.now() - t0;
  console.log(`pause answered in ${took.toFixed(1)} ms at step ${paused.step}`);
  assert.ok(took < 400, `pause took ${took} ms`);
  assert.equal(paused.running, false);
  assert.equal(log.losses.length, paused.step, 'every step reported by the time pause answers');
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(log.losses.length, paused.step, 'no step after pause');
  const one = await run.step();
  assert.equal(one.running, false);
  assert.equal(one.step, paused.step + 1);
  assert.equal(log.losses.length, paused.step + 1);
  const before = log.losses.slice();
  const reset = await run.reset();
  assert.equal(reset.step, 0);
  assert.equal(log.eval.at(-1).step, 0, 'reset evaluates the fresh weights');
  for (let i = 0; i < 5; i++) await run.step();
  assert.deepEqual(log.losses.slice(before.length), before.slice(0, 5), 'reset: the seed\'s weights and the stream from step 0');
  // reset while running stops the run
  await run.start();
  await until(() => log.losses.length >= before.length + 15, 'more steps');
  const again = await run.reset();
  assert.equal(again.running, false);
  assert.equal(again.step, 0);
  run.dispose();
});

for (const workers of [1, 2]) {
  test(`checkpoint → a new run → resume gives the same next losses bit for bit (${workers} worker${workers > 1 ? 's' : ''})`, async () => {
    const a = recorded();
    await a.run.init(spec({ workers }));
    for (let i = 0; i < 8; i++) await a.run.step();
    const cp = await a.run.checkpoint();
    assert.equal(cp.step, 8);
    assert.equal(cp.optimizer.steps, 8);
    assert.deepEqual(cp.losses, Float32Array.from(a.log.losses));
    for (let i = 0; i < 6; i++) await a.run.step();
    const aBytes = await a.run.export();
    a.run.dispose();

    const b = recorded();
    const ready = await b.run.init({ ...spec({ workers }), checkpoint: cp });
    assert.equal(ready.step, 8);
    for (let i = 0; i < 6; i++) await b.run.step();
    assert.deepEqual(b.log.losses, a.log.losses.slice(8), 'the next 6 losses');
    assert.equal(b.log.progress.at(-1).step, 14);
    assert.deepEqual(await b.run.export(), aBytes, 'the same weights');
    const cp2 = await b.run.checkpoint();
    assert.deepEqual(cp2.losses, Float32Array.from(a.log.losses), 'the checkpoint carries every loss since step 0');
    b.run.dispose();
  });
}

test('errors reach the page as error and the run stops cleanly, never a hang', async () => {
  // a refused spec value: init rejects, naming it
  let r = recorded();
  await assert.rejects(answer(r.run.init(spec({}, { hidden: 9999 })), 'bad spec'), /a\.model\.hidden=9999/);
  assert.match(r.log.error[0].message, /a\.model\.hidden=9999/);
  await assert.rejects(answer(r.run.start(), 'start after a failed init'), /not initialised/);
  r.run.dispose();

  // a task the stand-in does not know
  r = recorded();
  await assert.rejects(answer(r.run.init(spec({}, {}, { name: 'nonsense' })), 'unknown task'), /unknown task nonsense/);
  r.run.dispose();

  // batches the model cannot read: the first step fails, the run stops (1 and 2 workers)
  for (const workers of [1, 2]) {
    r = recorded();
    await r.run.init(spec({ workers }, {}, { name: 'broken' }));
    await r.run.start();
    await until(() => r.log.error.length > 0, 'an error');
    await until(() => r.log.state.at(-1)?.running === false, 'stopped');
    assert.match(r.log.error[0].message, /^step 0: .*tgt has 5001 tokens; at most 1024/);
    r.run.dispose();
  }

  // a diverging run: a non-finite loss or gradient stops it with a message saying what to do
  r = recorded();
  await r.run.init(spec({ lr: 1e30, clip: 0, optimizer: 'sgd' }));
  await r.run.start();
  await until(() => r.log.error.length > 0, 'divergence');
  assert.match(r.log.error[0].message, /not finite|diverged/);
  assert.equal(r.log.state.at(-1).running, false);
  r.run.dispose();

  // a worker that cannot load: error, and the request is rejected
  const run = createRun({ workerURL: new URL('./no-such-worker.js', import.meta.url) });
  const errors = [];
  run.on('error', (m) => errors.push(m.message));
  await assert.rejects(answer(run.init(spec()), 'missing worker'), /no-such-worker/);
  assert.equal(errors.length, 1);
  run.dispose();
  await assert.rejects(run.start(), /disposed/);
});

test('after a failed step the run lives on: reset and checkpoint work', async () => {
  for (const workers of [1, 2]) {
    const r = recorded();
    await r.run.init(spec({ workers }, {}, { name: 'broken' }));
    await assert.rejects(r.run.step(), /^Error: step 0: .*tgt has 5001 tokens/);
    const state = await r.run.reset();
    assert.equal(state.step, 0);
    const cp = await r.run.checkpoint();
    assert.equal(cp.step, 0);
    r.run.dispose();
  }
});
