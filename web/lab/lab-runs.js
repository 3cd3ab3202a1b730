// lab-runs.js: the lab's runs (experiment → workers → history): one run.js controller per run (A,
// and B when the experiment has one), each its own worker, and what its messages say kept as
// history (losses, evaluations, the last attention snapshot), for lab-paint.js to draw;
// checkpoints on this device (checkpoints.js, IndexedDB, keyed by the experiment's URL string):
// saved every SAVE_MS while training and on every pause, offered back for resuming.
//
//   const runs = new LabRuns(host, { experiment, custom, pairsFit, changed });
//   runs.init(['a', 'b']);  await runs.start();  runs.byId.a.loss.points;  runs.dispose('a');
//
// Deliberately holds no DOM but the host's dataset (state for tests: resume, saved) and its
// lab-state event, and no experiment of its own: the view hands it the current one (experiment(),
// custom(), pairsFit()) and is told by changed() when a message arrived (to draw once a frame).

import { formatLabParams } from './spec.js';
import { createRun } from './run.js';
import {
  checkpointSupport,
  deleteCheckpoints,
  loadCheckpoints,
  recordProblem,
  saveCheckpoints,
} from './checkpoints.js';
import { LossSeries } from './lab-chart.js';
import { RUNS, clone, quiet } from './lab-constants.js';

export class LabRuns {
  /** @type {Record<import('./lab-constants.js').RunId, any>} each run's record, or null */
  byId = { a: null, b: null };
  /** A saved record of this experiment, offered for resuming (null: none). */
  offer = /** @type {any} */ (null);
  #host;
  #o;
  #isRunning = false;
  #waiters = /** @type {{ test: () => boolean, resolve: (value?: any) => void }[]} */ ([]);
  #serial = 0; // numbers each run made, so a chart knows a new run from the old one
  #saving = false;
  #offerKey = '';

  /**
   * @param {HTMLElement} host the <attn-lab> element (dataset, the lab-state event)
   * @param {{ experiment: () => any, custom: () => any, pairsFit: () => boolean, changed: () => void }} o
   */
  constructor(host, o) {
    this.#host = host;
    this.#o = o;
  }

  /** Does any run train? */
  get running() {
    return this.#isRunning;
  }

  /** Each run's state: { state, step, elapsed, stepsPerSecond, parameters, loss, exactMatch, tokenAccuracy, byLength, error }. */
  summary() {
    const out = {};
    for (const id of RUNS) {
      const r = this.byId[id];
      out[id] = r && {
        state: r.state,
        step: r.step,
        elapsed: r.elapsed,
        stepsPerSecond: r.sps,
        parameters: r.info?.parameters ?? null,
        loss: r.loss.last,
        exactMatch: r.eval?.exactMatch ?? null,
        tokenAccuracy: r.eval?.tokenAccuracy ?? null,
        byLength: r.eval?.byLength ?? null,
        error: r.error,
        evals: r.evals.length,
        attention: Boolean(r.attention),
      };
    }
    return out;
  }

  /** Every loss of run id so far (a copy), or null when that run does not exist. */
  losses(id) {
    return this.byId[id]?.loss.all ?? null;
  }

  /** Start every run; resolves once each worker has said it runs (or failed). */
  start() {
    return Promise.all(
      this.live()
        .filter((r) => r.state !== 'error' || r.info)
        .map((r) => r.run.start().catch(quiet)),
    );
  }

  /** Pause every run; resolves once each worker has stopped (its last progress is in). */
  pause() {
    return Promise.all(this.live().map((r) => r.run.pause().catch(quiet)));
  }

  /** One step of every run (they stay paused); resolves once each has done it. */
  step() {
    return Promise.all(
      this.live()
        .filter((r) => r.state !== 'error' || r.info)
        .map((r) => r.run.step().catch(quiet)),
    );
  }

  /** Every run back to its initial weights at step 0; resolves once each worker has done it. */
  reset() {
    const all = this.live().map((r) => {
      this.#clearHistory(r);
      return r.run.reset().catch(quiet);
    });
    this.#o.changed();
    return Promise.all(all);
  }

  /** Resolves once every run is ready (or failed). */
  whenReady() {
    return this.when(() => this.live(true).every((r) => r.state !== 'loading'));
  }

  /** Resolves once every run has reported step n. */
  whenSteps(n) {
    return this.when(() => this.live(true).every((r) => r.step >= n || r.state === 'error'));
  }

  when(test) {
    return new Promise((resolve) => {
      if (test()) resolve();
      else this.#waiters.push({ test, resolve });
    });
  }

  #checkWaiters() {
    this.#waiters = this.#waiters.filter((w) => {
      if (!w.test()) return true;
      w.resolve();
      return false;
    });
  }

  /** The runs that exist (B only when the experiment has one); withLoading: those still loading too. */
  live(withLoading = false) {
    return RUNS.map((id) => this.byId[id]).filter(
      (r) => r && (withLoading || r.state !== 'loading'),
    );
  }

  /** Start (again) the workers of runs ids with the current experiment, at step 0. */
  init(ids) {
    const exp = this.#o.experiment();
    const custom = exp.task.name === 'custom';
    for (const id of ids) {
      this.dispose(id);
      if (!exp[id]) continue;
      if (custom && !this.#o.pairsFit()) continue; // the pairs are asked for first
      this.byId[id] = this.make(id);
    }
    this.setRunning(this.live().some((r) => r.state === 'running'));
    this.#findSaved();
    this.#o.changed();
  }

  /** The key of the current experiment's checkpoints: its URL string. */
  key() {
    return formatLabParams(this.#o.experiment()).toString();
  }

  /** Is there a saved record of this experiment (at a step past 0)? Then offer to resume it. */
  #findSaved() {
    const key = this.key();
    if (key === this.#offerKey) return;
    this.#offerKey = key;
    this.offer = null;
    if (!checkpointSupport().available) return;
    loadCheckpoints(key).then((rec) => {
      if (key !== this.key() || !rec) return;
      const problem = recordProblem(rec); // types and bounds before any length is trusted
      if (problem) {
        // offered as damaged: said on screen, Start over deletes it, Resume is not offered
        this.offer = { damaged: problem, runs: [], saved: null };
        this.#host.dataset.resume = 'damaged';
        this.#o.changed();
        return;
      }
      if (!rec.runs.some((c) => c?.step > 0)) return;
      if (this.#o.experiment().task.name === 'custom' && !this.#o.pairsFit()) return; // the pairs are not here
      if (this.live(true).some((r) => r.step > 0)) return; // training already went on here
      this.offer = rec;
      this.#host.dataset.resume = 'offered';
      this.#o.changed();
    }, quiet);
  }

  /** Save every run's checkpoint (weights, optimiser, losses) for this experiment; one save at a time. */
  save() {
    if (this.#saving || !checkpointSupport().available) return;
    const runs = RUNS.map((id) => (this.#o.experiment()[id] ? this.byId[id] : null));
    if (
      runs.some(
        (r, i) => this.#o.experiment()[RUNS[i]] && (!r || !r.info || r.state === 'error'),
      ) ||
      !runs.some((r) => r?.step > 0)
    )
      return;
    this.#saving = true;
    const key = this.key();
    const experiment = clone(this.#o.experiment());
    Promise.all(runs.filter(Boolean).map((r) => r.run.checkpoint()))
      .then((cps) =>
        key === this.key()
          ? saveCheckpoints(key, { experiment, runs: cps }).then((got) => {
              if (got.saved) this.#host.dataset.saved = cps.map((c) => c.step).join(',');
            })
          : null,
      )
      .catch(quiet)
      .finally(() => {
        this.#saving = false;
      });
  }

  /** Resume the offered record: each run from its checkpoint, its losses so far back on the chart. */
  resume() {
    const rec = this.offer;
    this.offer = null;
    delete this.#host.dataset.resume;
    if (!rec || rec.damaged || recordProblem(rec)) return;
    RUNS.forEach((id, i) => {
      const cp = rec.runs[i];
      if (!this.#o.experiment()[id] || !cp) return;
      this.dispose(id);
      const r = this.make(id, cp);
      for (let k = 0; k < cp.losses.length; k++) r.loss.add(k + 1, cp.losses[k]);
      r.step = cp.step;
      this.byId[id] = r;
    });
    this.#o.changed();
  }

  /** Forget the offered record (and delete it from this device). */
  discard() {
    this.offer = null;
    delete this.#host.dataset.resume;
    deleteCheckpoints(this.key()).catch(quiet);
    this.#o.changed();
  }

  dispose(id) {
    const r = this.byId[id];
    if (!r) return;
    r.disposed = true;
    try {
      r.run.dispose();
    } catch {
      /* already gone */
    }
    this.byId[id] = null;
  }

  #clearHistory(r) {
    r.serial = ++this.#serial;
    r.loss.clear();
    r.exact = [];
    r.token = [];
    r.evals = [];
    r.eval = null;
    r.attention = null;
    r.step = 0;
    r.elapsed = 0;
    r.sps = 0;
    r.error = '';
  }

  make(id, checkpoint = undefined) {
    const exp = this.#o.experiment();
    const r = {
      id,
      serial: ++this.#serial,
      run: createRun(),
      state: 'loading',
      info: null,
      step: 0,
      elapsed: 0,
      sps: 0,
      error: '',
      disposed: false,
      loss: new LossSeries(),
      exact: [],
      token: [],
      evals: [],
      eval: null,
      attention: null,
    };
    const on = (type, fn) =>
      r.run.on(type, (msg) => {
        if (r.disposed) return;
        fn(msg);
        this.#checkWaiters();
        this.#o.changed();
      });
    on('ready', (msg) => {
      r.info = msg;
      r.state = 'ready';
      r.step = msg.step ?? 0;
    });
    on('progress', (msg) => {
      const losses = msg.losses;
      const first = msg.step - losses.length + 1;
      for (let i = 0; i < losses.length; i++) r.loss.add(first + i, losses[i]);
      r.step = msg.step;
      r.elapsed = msg.elapsed;
      r.sps = msg.stepsPerSecond;
    });
    on('eval', (msg) => {
      if (msg.step === 0) {
        r.exact = [];
        r.token = [];
      }
      r.eval = msg;
      r.evals.push(msg);
      r.exact.push([msg.step, msg.exactMatch]);
      r.token.push([msg.step, msg.tokenAccuracy]);
    });
    on('attention', (msg) => {
      r.attention = msg;
    });
    on('state', (msg) => {
      if (msg.step === 0 && !msg.running && r.step > 0) this.#clearHistory(r); // a reset
      const paused = r.state === 'running' && !msg.running;
      r.step = msg.step;
      r.elapsed = msg.elapsed;
      if (r.state !== 'error' || msg.running)
        r.state = msg.running ? 'running' : msg.step > 0 ? 'paused' : 'ready';
      if (msg.running) r.error = '';
      this.setRunning(this.live().some((x) => x.state === 'running'));
      if (msg.running && this.offer) this.discard(); // training on: the saved run is not wanted
      if (paused && !this.#isRunning) this.save();
    });
    on('error', (msg) => {
      r.error = String(msg.message ?? msg);
      r.state = 'error';
      this.setRunning(this.live().some((x) => x.state === 'running'));
    });
    const init = { task: clone(exp.task), run: clone(exp[id]) };
    if (exp.task.name === 'custom' && this.#o.custom()) init.pairs = this.#o.custom().pairs;
    if (checkpoint) init.checkpoint = checkpoint;
    // A failed init is reported as an error message too (run.js), which sets the state.
    r.run.init(init).catch(quiet);
    return r;
  }

  /** Run id's weights as a file: { name (the task, run, step and dtype), bytes }. */
  async export(id, dtype) {
    const r = this.byId[id];
    const bytes = await r.run.export(dtype);
    const task = this.#o.experiment().task.name;
    return {
      name: `attnlab-lab-${task}-${id}-step${r.step}-${dtype.toLowerCase()}.safetensors`,
      bytes,
    };
  }

  /**
   * Run id again from a weights file the lab saved (bytes; n: the model's parameter count). A
   * downloaded run holds the weights only: it continues with a fresh optimiser (Adam's moments
   * zero, its step count 0, exactly a new optimiser's state) from step 0 of the data stream.
   */
  loadWeights(id, bytes, n) {
    const adam = this.#o.experiment()[id].train.optimizer === 'adam';
    const optimizer = {
      steps: 0,
      m1: new Float32Array(adam ? n : 0),
      m2: new Float32Array(adam ? n : 0),
    };
    this.dispose(id);
    const r = this.make(id, { step: 0, bytes, optimizer, losses: new Float32Array(0) });
    this.byId[id] = r;
    return r;
  }

  setRunning(running) {
    if (running === this.#isRunning) return;
    this.#isRunning = running;
    this.#host.dispatchEvent(new CustomEvent('lab-state', { detail: { running } }));
  }
}
