// web/lab/engine.js: the lab's engine, one run (A or B) inside a worker: the protocol of
// docs/lab-engine.md on a port, training in slices, held-out evaluation by input length,
// attention snapshots of the fixed example, checkpoints and export. The model, its data-parallel
// replicas and one step are engine-model.js's. The shipped worker (lab-worker.js) serves it with
// tasks.js and spec.js; the tests' stand-in worker (tests/js/lab-engine-stub-worker.js) with a
// tiny task of their own.
//
//   serve(await hostPort(), { tasks: TASKS, spec: SPEC });
//
//   in : init { task, run: { model, train }, pairs?, checkpoint? } | start | pause | step | reset
//        | export { dtype } | checkpoint                         (each may carry an id)
//   out: ready | progress | eval | attention | state | exported | checkpoint | error
//        (the answer to a request carries re: its id)
//
// Data parallelism (train.workers = k > 1): this worker holds replica 0 and starts k − 1
// shard-worker.js replicas. Each step splits the batch into k contiguous shards; every replica
// computes its shard's gradient gᵢ and loss terms nᵢ (target tokens), this worker combines
// g = Σ nᵢ gᵢ / Σ nᵢ (in double, in shard order: the same spec gives the same bits) and applies
// it at once; the shards apply the same g with their next step's message. No SharedArrayBuffer:
// gradients are transferred Float32Arrays.
// Pacing: slices of SLICE_MS with MessageChannel yields (setTimeout is clamped to 4 ms when
// nested; Node: setImmediate, see schedule); pause, step and reset stop a running slice at its
// next step.
// Evaluation runs in slices too (the weights stand still meanwhile; a pause answers at once and
// the pause's own evaluation follows), when the evaluations so far plus this one (estimated by
// the last) stay within EVAL_SHARE (15 %) of the training time; attention snapshots every
// SNAPSHOT_MS of running. An evaluation covers the held-out pairs by input length, then a fixed
// sample of training pairs measured the same way (engine-model.js trainGroupOf; eval's train),
// so that the page can show training accuracy beside held-out accuracy and say when they part.
// Deliberately no DOM and no drawing: plain data out, typed arrays transferred. No module is
// imported by a name a message gives: the task and spec modules are serve()'s arguments.

import { ask, createRunState, disposeRun, local, stepOnce, trainGroup } from './engine-model.js';

const SLICE_MS = 40;
const SNAPSHOT_MS = 400;
const EVAL_SHARE = 0.15;
const EVAL_MIN_MS = 500; // training ms between evaluations at least (charts need no more)
const EVAL_CHUNK = 8; // held-out pairs per evaluate() call inside a slice
const RATE_WINDOW_MS = 2000; // steps per second over the last 2 s of training

/** @type {{ post(msg: any, transfer?: Transferable[]): void, onMessage(fn: (msg: any) => void): void }} */
let port;
/** @type {{ tasks: any, spec: any }} */
let MODULES;
const post = (/** @type {any} */ msg, /** @type {Transferable[]} */ transfer = []) =>
  port.post(msg, transfer);
const now = () => performance.now();

/** Everything one init sets up; null before init and after a failed one. */
let R = null;
let running = false;
let elapsedBefore = 0; // ms of training before the current segment
let segmentStart = 0;
let queue = Promise.resolve();

const elapsed = () => elapsedBefore + (running ? now() - segmentStart : 0);

function stop() {
  if (!running) return;
  elapsedBefore = elapsed();
  running = false;
}

async function setup(msg) {
  await dispose();
  const r = await createRunState(msg, MODULES, (run, message) => {
    if (R === run)
      queue = queue.then(() =>
        fail(new Error(`a data-parallel worker stopped: ${message}; start the run again (init)`)),
      );
  });
  R = r;
  return r;
}

async function dispose() {
  stop();
  const r = R;
  R = null;
  if (r) disposeRun(r);
}

// ------------------------------------------------------------------ training

/**
 * One slice: a piece of the evaluation in progress, if any (the weights stand still meanwhile),
 * else steps until SLICE_MS have passed (or a pause/step/reset arrived) and the due reports.
 */
async function slice() {
  const r = R;
  if (!r || (!running && !r.job)) return;
  const t0 = now();
  try {
    if (r.job) {
      evalSlice(r);
    } else {
      do {
        const s0 = now();
        await stepOnce(r);
        r.trainMs += now() - s0;
      } while (running && R === r && now() - t0 < SLICE_MS);
      if (R !== r) return;
      progress(r);
      reports(r, false);
    }
  } catch (err) {
    fail(err);
    return;
  }
  if (R === r && (running || r.job)) schedule();
}

/** The attention snapshot when due (or forced), and the evaluation when due: when the training
 * since the last one reached EVAL_MIN_MS and the evaluations run while training, this one
 * included (estimated by the last one's cost), stay within EVAL_SHARE of the training time. */
function reports(r, force) {
  if (force || now() - r.lastSnapshot >= SNAPSHOT_MS) snapshot(r);
  const since = r.trainMs - r.trainAtEval;
  if (force) startEval(r, false);
  else if (running && since >= EVAL_MIN_MS && r.evalMs + r.evalCost <= EVAL_SHARE * r.trainMs)
    startEval(r, true);
}

function progress(r) {
  if (!r.fresh.length) return;
  const e = elapsed();
  r.marks.push([e, r.step]);
  while (r.marks.length > 2 && e - r.marks[1][0] >= RATE_WINDOW_MS) r.marks.shift();
  const [e0, s0] = r.marks[0];
  const stepsPerSecond = e > e0 ? ((r.step - s0) * 1000) / (e - e0) : 0;
  const losses = Float32Array.from(r.fresh);
  r.fresh = [];
  post({ type: 'progress', step: r.step, losses, elapsed: e, stepsPerSecond }, [losses.buffer]);
}

/** An evaluation of the weights as they are (a new one replaces one in progress); it runs in
 * slices of EVAL_CHUNK pairs, so pause, step and reset answer within a slice meanwhile.
 * budgeted: started by the training schedule (its cost counts against EVAL_SHARE). */
function startEval(r, budgeted) {
  r.job = {
    step: r.step,
    budgeted,
    g: 0,
    i: 0,
    cost: 0,
    exact: 0,
    right: 0,
    count: 0,
    tokens: 0,
    byLength: [],
    train: null,
    cur: null,
  };
  ensureSlice();
}

/** Evaluate pairs for up to SLICE_MS; post eval when the last length group is done. Counts are
 * integers (exact matches, right tokens), so the fractions equal trainer.evaluate's over a group. */
function evalSlice(r) {
  const job = r.job;
  if (job.step !== r.step) return startEval(r, job.budgeted); // the weights moved: start again
  const t0 = now();
  // the held-out groups by length, then the sample of training pairs (the same measure)
  const sample = trainGroup(r);
  const groups = sample ? [...r.groups, sample] : r.groups;
  while (job.g < groups.length && now() - t0 < SLICE_MS) {
    const g = groups[job.g];
    const pairs = g.pairs.slice(job.i, job.i + EVAL_CHUNK);
    let tokens = 0;
    for (let k = job.i; k < job.i + pairs.length; k++) tokens += g.tokenCounts[k];
    const e = r.trainer.evaluate(pairs, { loss: false });
    const cur = (job.cur ??= { exact: 0, right: 0, count: 0, tokens: 0 });
    cur.exact += Math.round(e.exactMatch * e.count);
    cur.right += Math.round(e.tokenAccuracy * tokens);
    cur.count += e.count;
    cur.tokens += tokens;
    job.i += pairs.length;
    if (job.i >= g.pairs.length && g.train) {
      job.train = {
        count: cur.count,
        exactMatch: cur.exact / cur.count,
        tokenAccuracy: cur.right / cur.tokens,
      };
      job.g++;
      job.i = 0;
      job.cur = null;
    } else if (job.i >= g.pairs.length) {
      job.byLength.push({
        length: g.length,
        count: cur.count,
        exactMatch: cur.exact / cur.count,
        tokenAccuracy: cur.right / cur.tokens,
      });
      job.exact += cur.exact;
      job.right += cur.right;
      job.count += cur.count;
      job.tokens += cur.tokens;
      job.g++;
      job.i = 0;
      job.cur = null;
    }
  }
  job.cost += now() - t0;
  if (job.g < groups.length) return;
  r.job = null;
  r.evalCost = job.cost;
  if (job.budgeted) r.evalMs += job.cost;
  r.trainAtEval = r.trainMs;
  post({
    type: 'eval',
    step: job.step,
    elapsed: elapsed(),
    exactMatch: job.count ? job.exact / job.count : 0,
    tokenAccuracy: job.tokens ? job.right / job.tokens : 0,
    count: job.count,
    byLength: job.byLength,
    train: job.train ?? null, // { count, exactMatch, tokenAccuracy } on the training sample
    cost: job.cost,
  });
}

/** The fixed example's attention: seq2seq the decoder's map; transformer the last decoder
 * layer's cross-attention, mean over heads; none for a model without attention. */
function snapshot(r) {
  r.lastSnapshot = now();
  if (!r.attention) return;
  const out = r.model.run(r.task.example.src);
  let maps = out.attention ?? [];
  if (maps.length && 'kind' in maps[0]) {
    const cross = maps.filter((m) => m.kind === 'cross');
    const last = Math.max(...cross.map((m) => m.layer));
    maps = cross.filter((m) => m.layer === last);
  }
  if (!maps.length) {
    r.attention = false; // the architecture has none: it never will
    return;
  }
  const [rows, cols] = maps[0].weights.shape;
  if (rows < 1) return;
  const weights = new Float32Array(rows * cols);
  for (const m of maps)
    for (let i = 0; i < weights.length; i++) weights[i] += m.weights.data[i] / maps.length;
  post(
    {
      type: 'attention',
      step: r.step,
      elapsed: elapsed(),
      output: out.output,
      weights,
      rows,
      cols,
      rowLabels: maps[0].rowLabels,
      colLabels: maps[0].colLabels,
    },
    [weights.buffer],
  );
}

// The yield between slices: a MessageChannel message in browsers; setImmediate in Node, whose
// ports drain up to 1,000 queued messages in one go, so a channel that re-posts itself from each
// slice would keep the parent's pause waiting for ~1,000 slices.
const channel = new MessageChannel();
let pending = false; // one slice scheduled at most
const tick = () => {
  pending = false;
  queue = queue.then(slice);
};
channel.port1.onmessage = tick;
const immediate = /** @type {any} */ (globalThis).setImmediate;
const post0 =
  typeof immediate === 'function' ? () => immediate(tick) : () => channel.port2.postMessage(0);
const schedule = () => {
  if (pending) return;
  pending = true;
  post0();
};
const ensureSlice = schedule;

function postState(re) {
  post({ type: 'state', running, step: R?.step ?? 0, elapsed: elapsed(), re });
}

function fail(err, re) {
  stop();
  const r = R;
  try {
    if (r) progress(r);
  } catch {
    /* the error below is the news */
  }
  post({ type: 'error', message: err?.message ?? String(err), re });
  postState();
}

// ------------------------------------------------------------------ messages

function need() {
  if (!R)
    throw new Error(
      'the run is not initialised: send init first (or it failed; see the earlier error)',
    );
  return R;
}

async function handle(msg) {
  const re = msg?.id;
  switch (msg?.type) {
    case 'init': {
      elapsedBefore = 0;
      const r = await setup(msg);
      post({
        type: 'ready',
        re,
        parameters: r.parameters,
        config: r.config,
        example: r.task.example,
        heldoutCount: r.task.heldout.length,
        lengths: r.groups.map((g) => g.length),
        simd: r.simd,
        workers: r.workers,
        step: r.step,
      });
      reports(r, true);
      postState();
      return;
    }
    case 'start': {
      need();
      if (!running) {
        running = true;
        segmentStart = now();
        schedule();
      }
      postState(re);
      return;
    }
    case 'pause': {
      const r = need();
      stop();
      progress(r);
      reports(r, true);
      postState(re);
      return;
    }
    case 'step': {
      const r = need();
      stop();
      const s0 = now();
      await stepOnce(r);
      const d = now() - s0;
      r.trainMs += d;
      elapsedBefore += d;
      progress(r);
      snapshot(r);
      postState(re);
      return;
    }
    case 'reset': {
      const r = need();
      stop();
      await local(r, null);
      await Promise.all(r.shards.map((s) => ask(s, { type: 'reset' })));
      Object.assign(r, {
        step: 0,
        fresh: [],
        trainMs: 0,
        evalMs: 0,
        trainAtEval: 0,
        marks: [],
        losses: new Float32Array(1024),
        job: null,
      });
      elapsedBefore = 0;
      reports(r, true);
      postState(re);
      return;
    }
    case 'export': {
      const r = need();
      const bytes = r.trainer.save({ dtype: msg.dtype ?? 'F32' });
      post({ type: 'exported', re, step: r.step, bytes }, [bytes.buffer]);
      return;
    }
    case 'checkpoint': {
      const r = need();
      const bytes = r.trainer.save();
      const optimizer = r.trainer.exportState();
      const losses = r.losses.slice(0, r.step);
      post({ type: 'checkpoint', re, step: r.step, bytes, optimizer, losses }, [
        bytes.buffer,
        optimizer.m1.buffer,
        optimizer.m2.buffer,
        losses.buffer,
      ]);
      return;
    }
    default:
      throw new Error(`unknown message ${JSON.stringify(msg?.type)}`);
  }
}

/**
 * Serves the protocol on a worker's port (worker-port.js hostPort) with the given task and spec
 * modules ({ makeTask } and { modelConfig, checkExperiment? }). Call once per worker.
 */
export function serve(hostedPort, modules) {
  port = hostedPort;
  MODULES = modules;
  port.onMessage((msg) => {
    // a running slice stops at its next step; the request itself waits its turn in the queue
    if (
      msg?.type === 'pause' ||
      msg?.type === 'step' ||
      msg?.type === 'reset' ||
      msg?.type === 'init'
    )
      stop();
    queue = queue.then(() => handle(msg)).catch((err) => fail(err, msg?.id));
  });
}
