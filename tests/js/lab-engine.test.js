// The lab's engine through its page-facing controller (web/lab/run.js → engine.js →
// shard-worker.js, in worker_threads), on the contract stand-in task of lab-engine-stub.js
// (served by the test-only worker lab-engine-stub-worker.js; the real presets by the shipped
// lab-worker.js, which ignores a `modules` field):
//   - one worker and two (and three) give the same parameters after 20 steps within 1e-5
//     relative (the issue's done-when: ‖Δθ‖/‖θ‖ and max |Δ| / max |θ|, see distance()), and
//     losses within 1e-5; also on a real preset (spec.js, tasks.js);
//   - the same spec twice gives identical first 20 losses, free-running (1 and 2 workers);
//   - the exported F32 bytes load with loadModel and equal, bit for bit, a model trained in this
//     thread on the same batches; eval and attention messages equal what the exported model gives;
//   - pause / step / reset take effect at once (every step reported when pause answers, none
//     after), and reset replays the run;
//   - evaluation and attention while running come by counts: at most one of each per slice
//     (progress message), at increasing steps, training between evaluations (no wall clock is
//     asserted; the times are printed);
//   - checkpoint → a new run → resume gives the same next losses bit for bit;
//   - a bad spec, a batch the model cannot read, a diverging run and a worker that cannot load
//     give `error` (and a rejected request), never a hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  init,
  createModel,
  createTrainer,
  loadModel,
  loadTrainableModel,
  readSafetensors,
  saveModel,
} from '../../wasm/index.js';
import { createRun } from '../../web/lab/run.js';
import { TASK, MODEL, TRAIN, makeTask, modelConfig } from './lab-engine-stub.js';

await init();

const spec = (train = {}, model = {}, task = {}) => ({
  task: { ...TASK, ...task },
  run: { model: { ...MODEL, ...model }, train: { ...TRAIN, ...train } },
});

/** The test-only worker: the engine on the stand-in task. */
const STUB_WORKER = new URL('./lab-engine-stub-worker.js', import.meta.url);

/** A run with every message type recorded; on the stand-in task unless shipped is true. */
function recorded(shipped = false) {
  const run = createRun(shipped ? {} : { workerURL: STUB_WORKER });
  const log = { progress: [], eval: [], attention: [], state: [], error: [], losses: [] };
  for (const type of Object.keys(log))
    if (type !== 'losses') run.on(type, (m) => log[type].push(m));
  run.on('progress', (m) => log.losses.push(...m.losses));
  return { run, log };
}

const within = (ms, what) =>
  new Promise((_, reject) =>
    setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms).unref(),
  );
const answer = (p, what, ms = 20000) => Promise.race([p, within(ms, what)]);
const until = async (fn, what, ms = 20000) => {
  const t0 = Date.now();
  while (!fn()) {
    if (Date.now() - t0 > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

/**
 * How far two runs' parameters are apart: ‖θ₁ − θ₂‖₂ / ‖θ₁‖₂ over every weight (the issue's
 * "within 1e-5 relative") and max |Δ| / max |θ₁|. Not per element: Adam maps a gradient element
 * near its ε (1e-8) to an update of about ±lr/2, so an element whose gradient is rounding noise
 * moves differently under another summation order (seen: 4.5e-6 after the first step, then flat).
 */
function distance(t1, t2) {
  let d2 = 0,
    a2 = 0,
    dmax = 0,
    amax = 0,
    where = '';
  for (const [name, t] of t1) {
    const u = t2.get(name).data;
    for (let i = 0; i < t.data.length; i++) {
      const d = Math.abs(t.data[i] - u[i]);
      d2 += d * d;
      a2 += t.data[i] * t.data[i];
      if (d > dmax) [dmax, where] = [d, `${name}[${i}]`];
      amax = Math.max(amax, Math.abs(t.data[i]));
    }
  }
  return { norm: Math.sqrt(d2 / a2), max: dmax / amax, where, dmax };
}

async function stepped(n, train, model) {
  const { run, log } = recorded();
  const ready = await answer(run.init(spec(train, model)), 'init');
  for (let i = 0; i < n; i++) await run.step();
  const bytes = await run.export('F32');
  const smaller = { F16: await run.export('F16'), I8: await run.export('I8') };
  run.dispose();
  return { ready, log, bytes, smaller, tensors: readSafetensors(bytes).tensors };
}

test('one worker and two (and three) give the same parameters after 20 steps within 1e-5 relative', async () => {
  const one = await stepped(20, { workers: 1 });
  assert.equal(one.ready.workers, 1);
  for (const workers of [2, 3]) {
    const k = await stepped(20, { workers });
    assert.equal(k.ready.workers, workers);
    const d = distance(one.tensors, k.tensors);
    console.log(
      `${workers} workers vs 1 after 20 steps: ‖Δθ‖/‖θ‖ ${d.norm.toExponential(2)}, max |Δ|/max |θ| ${d.max.toExponential(2)} (|Δ| ${d.dmax.toExponential(2)} at ${d.where})`,
    );
    assert.ok(d.norm <= 1e-5 && d.max <= 1e-5, JSON.stringify(d));
    assert.equal(k.log.losses.length, 20);
    k.log.losses.forEach((l, i) =>
      assert.ok(
        Math.abs(l - one.log.losses[i]) <= 1e-5 * Math.abs(l),
        `loss ${i}: ${l} vs ${one.log.losses[i]}`,
      ),
    );
  }
});

test('the exported run equals a model trained here on the same batches, bit for bit; it loads with loadModel', async () => {
  const steps = 12;
  const r = await stepped(steps, { workers: 1 });
  const task = makeTask(TASK);
  const model = await createModel(modelConfig(MODEL, task), { seed: TRAIN.seed });
  const trainer = createTrainer(model, {
    optimizer: TRAIN.optimizer,
    lr: TRAIN.lr,
    clip: TRAIN.clip,
  });
  const losses = [];
  for (let s = 0; s < steps; s++) losses.push(trainer.step(task.batch(s, TRAIN.batch)));
  assert.deepEqual(r.log.losses, losses, 'the same losses');
  assert.deepEqual(r.bytes, trainer.save(), 'the same bytes');
  assert.equal(
    r.ready.parameters,
    [...r.tensors.values()].reduce((n, t) => n + t.data.length, 0),
  );
  const loaded = await loadModel(r.bytes);
  const x = loaded.run(task.example.src),
    y = model.run(task.example.src);
  assert.equal(x.output, y.output);
  assert.deepEqual(x.attention[0].weights.data, y.attention[0].weights.data);
  loaded.dispose();
  // export { dtype: 'F16' | 'I8' } gives saveModel's bytes of the same weights
  assert.deepEqual(r.smaller.F16, saveModel(model, { dtype: 'F16' }));
  assert.deepEqual(r.smaller.I8, saveModel(model, { dtype: 'I8' }));
  for (const b of Object.values(r.smaller)) (await loadModel(b)).dispose();
  model.dispose();
});

test('eval by length and the attention snapshot are what the exported model gives', async () => {
  const { run, log } = recorded();
  const ready = await run.init(spec({ workers: 2 }));
  const task = makeTask(TASK);
  assert.equal(ready.heldoutCount, task.heldout.length);
  assert.deepEqual(
    ready.lengths,
    [...new Set(task.heldout.map((p) => p.src.length))].sort((a, b) => a - b),
  );
  assert.deepEqual(ready.example, task.example);
  await run.start();
  await until(() => log.losses.length >= 30, '30 steps');
  const paused = await run.pause();
  const bytes = await run.export('F32');
  await until(() => log.eval.at(-1).step === paused.step, "the pause's evaluation"); // it follows the pause's answer
  run.dispose();
  const e = log.eval.at(-1),
    a = log.attention.at(-1);
  assert.equal(e.step, paused.step, 'pause evaluates the paused weights');
  assert.equal(a.step, paused.step);
  const model = await loadTrainableModel(bytes);
  const trainer = createTrainer(model);
  assert.equal(e.count, task.heldout.length);
  assert.deepEqual(
    e.byLength.map((g) => g.length),
    ready.lengths,
  );
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
  assert.ok(
    Math.abs(e.tokenAccuracy - all.tokenAccuracy) < 1e-12,
    'token accuracy weighs the groups by their tokens',
  );
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
    const a = await first20(),
      b = await first20();
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
  console.log(
    `pause answered in ${(performance.now() - t0).toFixed(1)} ms at step ${paused.step} (printed, not asserted)`,
  );
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
  await until(() => log.eval.at(-1).step === 0, 'reset evaluates the fresh weights');
  for (let i = 0; i < 5; i++) await run.step();
  assert.deepEqual(
    log.losses.slice(before.length),
    before.slice(0, 5),
    "reset: the seed's weights and the stream from step 0",
  );
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
    assert.deepEqual(
      cp2.losses,
      Float32Array.from(a.log.losses),
      'the checkpoint carries every loss since step 0',
    );
    b.run.dispose();
    // a checkpoint of another model, or a damaged one, is refused by name
    const c = recorded();
    await assert.rejects(
      c.run.init({ ...spec({ workers }, { hidden: 24 }), checkpoint: cp }),
      /the checkpoint holds another model than this run's spec/,
    );
    await assert.rejects(
      c.run.init({ ...spec({ workers }), checkpoint: { ...cp, losses: cp.losses.subarray(1) } }),
      /checkpoint\.losses holds 7 values; a checkpoint at step 8 holds 8/,
    );
    await assert.rejects(
      c.run.init({
        ...spec({ workers }, {}),
        checkpoint: { ...cp, optimizer: { ...cp.optimizer, m2: new Float32Array(3) } },
      }),
      /checkpoint\.optimizer\.m2 holds 3 values and m1 \d+: they must match/,
    );
    c.run.dispose();
  });
}

test('errors reach the page as error and the run stops cleanly, never a hang', async () => {
  // a refused spec value: init rejects, naming it
  let r = recorded();
  await assert.rejects(
    answer(r.run.init(spec({}, { hidden: 9999 })), 'bad spec'),
    /a\.model\.hidden=9999/,
  );
  assert.match(r.log.error[0].message, /a\.model\.hidden=9999/);
  await assert.rejects(answer(r.run.start(), 'start after a failed init'), /not initialised/);
  r.run.dispose();

  // a task the stand-in does not know
  r = recorded();
  await assert.rejects(
    answer(r.run.init(spec({}, {}, { name: 'nonsense' })), 'unknown task'),
    /unknown task nonsense/,
  );
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

test('while running, evaluations and attention come by counts: at most one each per slice, at increasing steps', async () => {
  // the with-without preset's run A (the shipped worker): 792 held-out pairs up to 40
  // characters, an evaluation that takes many slices
  const { PRESETS } = await import('../../web/lab/spec.js');
  const p = PRESETS.find((x) => x.id === 'with-without').experiment;
  const { run, log } = recorded(true);
  await run.init({ task: p.task, run: p.a });
  await until(() => log.eval.length > 0, 'the first evaluation');
  const first = log.eval[0];
  const started = await run.start();
  const n0 = log.eval.length,
    a0 = log.attention.length,
    p0 = log.progress.length;
  // counts, not time: wait (a bound on a hang only) for an evaluation and six snapshots
  await until(
    () => log.eval.length >= n0 + 1 && log.attention.length >= a0 + 6,
    'an evaluation and six attention snapshots while running',
    120000,
  );
  const t0 = performance.now();
  const paused = await run.pause();
  const took = performance.now() - t0;
  // the worker posts in order: every evaluation of the running slices came before pause's
  // answer, and pause's own evaluation after it (at paused.step, which a running one may share
  // when it ended just before the pause: count messages, not steps)
  const nPaused = log.eval.length;
  await until(() => log.eval.length > nPaused, "the pause's evaluation");
  assert.equal(log.eval.at(-1).step, paused.step, "the pause's evaluation is of the paused step");
  run.dispose();
  const evals = log.eval.slice(n0, nPaused);
  const shots = log.attention.slice(a0, -1);
  const slices = log.progress.slice(p0);
  // printed for the reader, not asserted (a busy machine stretches any of them)
  const cost = evals.reduce((sum, e) => sum + e.cost, 0);
  console.log(
    `pause answered in ${took.toFixed(1)} ms; the first evaluation (${first.count} pairs) took ${first.cost.toFixed(0)} ms; ` +
      `${evals.length} evaluations while running cost ${cost.toFixed(1)} ms of ${paused.elapsed.toFixed(0)} ms ` +
      `(${((100 * cost) / paused.elapsed).toFixed(1)} %); ${shots.length} snapshots in ${slices.length} slices`,
  );
  assert.ok(evals.length >= 1, `${evals.length} evaluations`);
  // evaluations per steps: each at a later step than the one before, with training between them
  let prev = started.step;
  for (const e of evals) {
    assert.ok(e.step > prev, `an evaluation at step ${e.step} after one at ${prev}`);
    prev = e.step;
  }
  assert.ok(
    evals.length <= slices.length,
    `${evals.length} evaluations in ${slices.length} slices`,
  );
  // attention per slice: one at most, each at the step a slice ended at, increasing
  assert.ok(shots.length >= 5, `${shots.length} snapshots`);
  assert.ok(shots.length <= slices.length, `${shots.length} snapshots in ${slices.length} slices`);
  const ends = new Set(slices.map((m) => m.step));
  prev = started.step;
  for (const a of shots) {
    assert.ok(ends.has(a.step), `a snapshot at step ${a.step}, where no slice ended`);
    assert.ok(a.step > prev, `a snapshot at step ${a.step} after one at ${prev}`);
    prev = a.step;
  }
  // pause answers with every step reported, and its own evaluation is of the paused weights
  assert.equal(paused.running, false);
  assert.equal(slices.at(-1).step, paused.step);
  assert.equal(log.eval.at(-1).step, paused.step);
});

test('the real spec and tasks (web/lab/spec.js, tasks.js): one and two workers agree within 1e-5 after 20 steps', async () => {
  const { PRESETS } = await import('../../web/lab/spec.js');
  const p = PRESETS.find((x) => x.id === 'additive-dot').experiment;
  const after20 = async (workers) => {
    const run = createRun();
    const losses = [];
    run.on('progress', (m) => losses.push(...m.losses));
    const ready = await run.init({
      task: p.task,
      run: { ...p.a, train: { ...p.a.train, workers } },
    });
    for (let i = 0; i < 20; i++) await run.step();
    const bytes = await run.export();
    run.dispose();
    return { ready, losses, tensors: readSafetensors(bytes).tensors };
  };
  const one = await after20(1),
    two = await after20(2);
  assert.equal(two.ready.workers, 2);
  assert.equal(one.ready.parameters, two.ready.parameters);
  const d = distance(one.tensors, two.tensors);
  console.log(
    `additive-dot A, 2 workers vs 1 after 20 steps: ‖Δθ‖/‖θ‖ ${d.norm.toExponential(2)}, max |Δ|/max |θ| ${d.max.toExponential(2)} (|Δ| ${d.dmax.toExponential(2)} at ${d.where})`,
  );
  assert.ok(d.norm <= 1e-5 && d.max <= 1e-5, JSON.stringify(d));
  one.losses.forEach((l, i) => assert.ok(Math.abs(l - two.losses[i]) <= 1e-5 * l, `loss ${i}`));
  assert.ok(one.losses[19] < one.losses[0]);
});

test('the shipped worker imports no module a message names: init.modules is ignored', async () => {
  // a stand-in that would announce itself and replace the task if the worker imported it
  const code =
    "import { parentPort } from 'node:worker_threads';" +
    "parentPort.postMessage({ type: 'imported' });" +
    "export function makeTask() { throw new Error('the stand-in ran'); }" +
    "export function modelConfig() { throw new Error('the stand-in ran'); }";
  const url = `data:text/javascript,${encodeURIComponent(code)}`;
  const { PRESETS } = await import('../../web/lab/spec.js');
  const p = PRESETS.find((x) => x.id === 'additive-dot').experiment;
  const { run, log } = recorded(true);
  const imported = [];
  run.on('imported', (m) => imported.push(m));
  const ready = await answer(
    run.init({ task: p.task, run: p.a, modules: { tasks: url, spec: url } }),
    'init with modules',
  );
  const s = await run.step();
  run.dispose();
  assert.equal(s.step, 1);
  assert.deepEqual(imported, [], 'the data: module was never imported');
  assert.deepEqual(log.error, []);
  const real = (await import('../../web/lab/tasks.js')).makeTask(p.task);
  assert.deepEqual(ready.example, real.example, "the real task's example, not a stand-in's");
});

test('checkpoints.js in Node (no IndexedDB): every call is a no-op that names the reason', async () => {
  const cp = await import('../../web/lab/checkpoints.js');
  assert.deepEqual(cp.checkpointSupport(), {
    available: false,
    reason: 'this environment has no IndexedDB; checkpoints are off',
  });
  const runs = [
    {
      step: 0,
      bytes: new Uint8Array(8),
      losses: new Float32Array(0),
      optimizer: { steps: 0, m1: new Float32Array(0), m2: new Float32Array(0) },
    },
  ];
  assert.deepEqual(await cp.saveCheckpoints('view=lab', { experiment: {}, runs }), {
    saved: false,
    reason: 'this environment has no IndexedDB; checkpoints are off',
  });
  assert.equal(await cp.loadCheckpoints('view=lab'), null);
  assert.deepEqual(await cp.listCheckpoints(), []);
  await cp.deleteCheckpoints('view=lab');
  assert.match(cp.lastReason(), /no IndexedDB/);
  await assert.rejects(
    cp.saveCheckpoints('', { experiment: {}, runs }),
    /key must be the experiment's URL string/,
  );
  await assert.rejects(
    cp.saveCheckpoints('k', { experiment: {}, runs: [{ ...runs[0], losses: [] }] }),
    /runs\[0\] must be what run.checkpoint\(\) gave/,
  );
  await assert.rejects(
    cp.saveCheckpoints('k', { experiment: {}, runs: [] }),
    /runs: \[A\] or \[A, B\]/,
  );
});

test('a worker that dies mid-run gives error and rejects what waits; init again replaces a run', async () => {
  const r = recorded();
  await r.run.init(spec({}, {}, { name: 'crash' }));
  await assert.rejects(
    answer(r.run.step(), 'a step in a dying worker'),
    /lab-engine-stub-worker\.js stopped \(exit code 3\)/,
  );
  assert.match(r.log.error.at(-1).message, /lab-engine-stub-worker\.js stopped \(exit code 3\)/);
  await assert.rejects(r.run.start(), /stopped/, 'a dead run refuses further requests');
  r.run.dispose();

  const q = recorded();
  await q.run.init(spec({ workers: 2 }));
  for (let i = 0; i < 3; i++) await q.run.step();
  const again = await q.run.init(spec({ workers: 1, seed: 8 }));
  assert.equal(again.step, 0);
  assert.equal(again.workers, 1);
  const s = await q.run.step();
  assert.equal(s.step, 1);
  q.run.dispose();
});

test('a learning-rate half-life: each step at lr · 0.5^(step / H), on one worker bit for bit, on two within 1e-5', async () => {
  const { lrAt } = await import('../../web/lab/spec.js');
  const H = 4; // short, so 12 steps see the rate fall to an eighth
  const steps = 12;
  const r = await stepped(steps, { workers: 1, halfLife: H });
  const task = makeTask(TASK);
  const model = await createModel(modelConfig(MODEL, task), { seed: TRAIN.seed });
  const trainer = createTrainer(model, {
    optimizer: TRAIN.optimizer,
    lr: TRAIN.lr,
    clip: TRAIN.clip,
  });
  const losses = [];
  for (let s = 0; s < steps; s++) {
    const lr = TRAIN.lr * 0.5 ** (s / H);
    assert.equal(lrAt({ lr: TRAIN.lr, halfLife: H }, s), lr);
    trainer.setLearningRate(lr);
    losses.push(trainer.step(task.batch(s, TRAIN.batch)));
  }
  assert.deepEqual(r.log.losses, losses, 'the same losses');
  assert.deepEqual(r.bytes, trainer.save(), 'the same bytes');
  // and not the constant rate's run
  const constant = await stepped(steps, { workers: 1 });
  assert.notDeepEqual(constant.bytes, r.bytes);
  model.dispose();
  // the shards apply each combined gradient at its step's rate too
  const two = await stepped(steps, { workers: 2, halfLife: H });
  const d = distance(r.tensors, two.tensors);
  assert.ok(d.norm <= 1e-5 && d.max <= 1e-5, JSON.stringify(d));
});
