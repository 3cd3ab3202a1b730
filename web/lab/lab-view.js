// lab-view.js: everything of <attn-lab> (web/elements/attn-lab.js, a thin shell that imports this
// module on first connect, so a page of other elements downloads none of the lab): the controls,
// the two runs and their live charts and maps. See attn-lab.js for the element's attributes,
// properties, methods and events; this module implements them on the host element it is given.
//
// Holds: the shadow DOM of the controls and charts, the two runs' controllers (web/lab/run.js,
// each its own worker) and their history, drawing batched to one frame however many messages
// arrive. Deliberately holds no training (the workers), no validation (spec.js checkExperiment),
// no data (tasks.js, pairs.js), no chart maths (lab-chart.js) and no strings (lab-text.js,
// through i18n.js). Text from the URL, a file or a model is only ever set as textContent; the one
// HTML it inserts, an attention equation from spec.js, is rebuilt element by element from a fixed
// list of tags (var, sub, sup, i, em, b, span), attributes dropped.

import {
  DEFAULT_EXPERIMENT,
  LIMITS,
  PRESETS,
  TASK_NAMES,
  ATTENTIONS,
  attentionEquation,
  checkExperiment,
  formatLabParams,
  parameterCount,
  parseLabParams,
} from './spec.js';
import { TASK_INFO, makeTask } from './tasks.js';
import { pairsHash, parsePairs } from './pairs.js';
import { createRun } from './run.js';
import {
  checkpointSupport,
  deleteCheckpoints,
  loadCheckpoints,
  saveCheckpoints,
} from './checkpoints.js';
import { LossSeries, attentionDifference, drawLabChart } from './lab-chart.js';
import './lab-text.js';
import { mechanismName, resolveLang, t } from '../shared/i18n.js';
import { downloadBlob, el } from '../shared/view-kit.js';
import { define as defineHeatmap } from '../elements/attention-heatmap.js';

const RUNS = /** @type {const} */ (['a', 'b']);
const CHART_HEIGHT = 220;
const MAX_TIMINGS = 2000;
/** While training, the runs are saved to this device (IndexedDB, checkpoints.js) this often, and on every pause. */
const SAVE_MS = 20000;
const COLORS = { a: '#3b528b', b: '#b8641c' };
const DASH = { a: [], b: [6, 3] };
const TOKEN_DASH = { a: [2, 3], b: [6, 3, 2, 3] };
const EQUATION_TAGS = new Set(['VAR', 'SUB', 'SUP', 'I', 'EM', 'B', 'SPAN']);
const DTYPES = ['F32', 'F16', 'I8'];
const MAX_FILE_BYTES = 64 * 1048576;

/** The [min, max] of a LIMITS entry ('seq2seq.hidden'), whatever its shape ([min, max] or { min, max }), else fallback. */
function limit(path, fallback) {
  const v = path.split('.').reduce((o, k) => o?.[k], /** @type {any} */ (LIMITS));
  if (Array.isArray(v) && v.length >= 2) return [v[0], v[1]];
  if (v && typeof v === 'object' && 'min' in v && 'max' in v) return [v.min, v.max];
  return fallback;
}

/** The whole experiment of a preset (PRESETS entries are experiments, or hold one). */
function presetExperiment(p) {
  return p?.experiment ?? { task: p.task, a: p.a, b: p.b ?? null };
}

const clone = (x) => (x === null || x === undefined ? x : JSON.parse(JSON.stringify(x)));

/** The equation HTML of spec.js, rebuilt from a fixed list of tags (text everywhere else). */
export function equationNodes(html) {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const copy = (node) => {
    const out = [];
    for (const child of node.childNodes) {
      if (child.nodeType === 3) out.push(document.createTextNode(child.textContent ?? ''));
      else if (child.nodeType === 1) {
        const kids = copy(child);
        if (EQUATION_TAGS.has(child.nodeName)) {
          const e = document.createElement(child.nodeName.toLowerCase());
          e.append(...kids);
          out.push(e);
        } else out.push(...kids);
      }
    }
    return out;
  };
  return copy(doc.body);
}

const STYLE = `
:host { display: block; font: inherit; color: inherit; container-type: inline-size;
  --lab-a: ${COLORS.a}; --lab-b: ${COLORS.b}; }
:host([hidden]) { display: none; }
[hidden] { display: none !important; }
* { box-sizing: border-box; }
h3 { font-size: 1rem; margin: 0 0 0.25rem; }
fieldset { border: 1px solid var(--attn-lab-border, #d6d6df); border-radius: 8px; margin: 0 0 0.75rem; padding: 0.5rem 0.75rem 0.75rem; min-width: 0; }
legend { font-weight: 700; padding: 0 0.25rem; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr)); gap: 0.4rem 0.75rem; }
.field { display: flex; flex-direction: column; gap: 0.1rem; min-width: 0; }
.field.check { flex-direction: row; align-items: center; gap: 0.4rem; align-self: end; min-height: 2rem; }
label { font-size: 0.875rem; font-weight: 600; }
select, input, button, textarea { font: inherit; min-height: 2rem; max-width: 100%; }
input[type="number"] { width: 100%; }
textarea { width: 100%; min-height: 6rem; font-family: ui-monospace, monospace; font-size: 0.875rem; }
.presets, .buttons { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; }
.presets { margin-bottom: 0.75rem; }
.files { margin-top: 0.5rem; align-items: end; }
.runs { display: grid; grid-template-columns: 1fr 1fr; gap: 0 0.75rem; }
@container (max-width: 700px) { .runs { grid-template-columns: 1fr; } }
fieldset.run-a { border-left: 4px solid var(--lab-a); }
fieldset.run-b { border-left: 4px dashed var(--lab-b); }
.sub { font-size: 0.875rem; font-weight: 700; margin: 0.6rem 0 0.2rem; }
.about { margin: 0.5rem 0 0; font-size: 0.9rem; }
.params { font-weight: 600; }
.equation { font-family: "Cambria Math", "STIX Two Math", serif; font-size: 1.05rem; margin: 0.2rem 0; overflow-wrap: anywhere; }
.cite, .hint, .note, .status, .refused { color: var(--attn-lab-muted, GrayText); font-size: 0.85rem; margin: 0.2rem 0; }
.note, .stats p, .example, .problem, .error { overflow-wrap: anywhere; }
.error, .problem { padding: 0.4rem 0.6rem; border-radius: 6px; background: var(--attn-lab-error-bg, #fdecea);
  color: var(--attn-lab-error-text, #8c1d18); margin: 0.4rem 0; }
.drop { border: 2px dashed var(--attn-lab-border, #d6d6df); border-radius: 8px; padding: 0.5rem; }
.drop.over { border-color: var(--lab-a); }
.controls { position: sticky; top: 0; z-index: 2; background: var(--attn-lab-surface, Canvas);
  padding: 0.4rem 0; border-bottom: 1px solid var(--attn-lab-border, #d6d6df); margin-bottom: 0.75rem; }
.controls button.primary { font-weight: 700; min-width: 6rem; }
.stats { display: grid; grid-template-columns: 1fr 1fr; gap: 0.25rem 0.75rem; font-size: 0.875rem; margin: 0.3rem 0 0; font-variant-numeric: tabular-nums; }
@container (max-width: 480px) { .stats { grid-template-columns: 1fr; } }
.resume { margin-top: 0.4rem; padding: 0.4rem 0.6rem; border-radius: 6px; background: var(--attn-lab-note-bg, #eef2fb); font-size: 0.9rem; }
.stat-a { border-left: 4px solid var(--lab-a); padding-left: 0.4rem; }
.stat-b { border-left: 4px dashed var(--lab-b); padding-left: 0.4rem; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 20rem), 1fr)); gap: 0.75rem; }
figure { margin: 0; min-width: 0; }
figcaption { font-size: 0.875rem; font-weight: 600; margin-bottom: 0.2rem; }
canvas.chart { display: block; width: 100%; height: ${CHART_HEIGHT}px; }
.maps { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 16rem), 1fr)); gap: 0.75rem; margin-top: 0.75rem; }
attn-heatmap { min-width: 0; max-width: 100%; --attn-heatmap-background: var(--attn-lab-surface, Canvas); }
.example { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
`;

/** @typedef {'a' | 'b'} RunId */

export class LabView {
  #host;
  /** Milliseconds of each render (the page's thread), newest last, at most MAX_TIMINGS. */
  timings = /** @type {number[]} */ ([]);

  /** @type {any} the checked experiment (spec.js shape) */
  #experiment = clone(DEFAULT_EXPERIMENT);
  #lang = 'en';
  #refused = /** @type {string[]} */ ([]);
  /** @type {{ pairs: {src: string, tgt: string}[], level: string, lines: number, name: string, hash: string } | null} */
  #custom = null;
  #pairsProblem = /** @type {any} */ (null);
  #task = /** @type {any} */ (null); // makeTask of the current task spec (parameter counts)
  #taskKey = '';
  #ui = /** @type {any} */ ({});
  #runs = /** @type {Record<RunId, any>} */ ({ a: null, b: null });
  #frame = 0;
  #listeners = /** @type {AbortController | null} */ (null);
  #reflecting = false;
  #running = false;
  #waiters = /** @type {{ test: () => boolean, resolve: (value?: any) => void }[]} */ ([]);
  #resize = /** @type {ResizeObserver | null} */ (null);
  #serial = 0; // numbers each run made, so a chart knows a new run from the old one
  #saveTimer = /** @type {any} */ (0);
  #saving = false;
  #offer = /** @type {any} */ (null); // a saved record of this experiment, offered for resuming
  #offerKey = '';
  #styleKey = 0; // bumped when the colours may have changed (light/dark), so the charts redraw

  /** @param {HTMLElement} host the <attn-lab> element (its attributes, dataset, events, shadow root) */
  constructor(host) {
    this.#host = host;
    this.#build();
  }

  /** Is the view wired to its host (between connected() and disconnected())? */
  get isConnected() {
    return this.#listeners !== null;
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  connected() {
    defineHeatmap();
    this.#listeners = new AbortController();
    this.#wire(this.#listeners.signal);
    this.#readAttributes();
    this.#resize = new ResizeObserver(() => this.#schedule());
    matchMedia('(prefers-color-scheme: dark)').addEventListener(
      'change',
      () => {
        this.#styleKey++;
        this.#schedule();
      },
      { signal: this.#listeners.signal },
    );
    this.#resize.observe(this.#ui.charts);
    this.#writeForm();
    this.#initRuns(['a', 'b']);
    this.#saveTimer = setInterval(() => {
      if (this.#running) this.#save();
    }, SAVE_MS);
    this.#schedule();
  }

  disconnected() {
    this.#listeners?.abort();
    this.#listeners = null;
    this.#resize?.disconnect();
    this.#resize = null;
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    clearInterval(this.#saveTimer);
    for (const id of RUNS) this.#disposeRun(id);
    this.#setRunning(false);
  }

  attributeChanged(name, oldValue, newValue) {
    if (this.#reflecting || oldValue === newValue || !this.#listeners) return;
    if (name === 'lang') {
      this.#lang = resolveLang(newValue ?? document.documentElement.lang);
      this.#writeForm();
      this.#schedule();
      return;
    }
    const before = JSON.stringify(this.#experiment);
    this.#readAttributes();
    this.#writeForm();
    if (JSON.stringify(this.#experiment) !== before)
      this.#initRuns(this.#changedRuns(JSON.parse(before)));
    this.#schedule();
  }

  /** The experiment from the attributes: experiment (or preset), then the task overrides. */
  #readAttributes() {
    this.#lang = resolveLang(this.#host.getAttribute('lang') ?? document.documentElement.lang);
    let base = clone(DEFAULT_EXPERIMENT);
    const refused = [];
    const params = this.#host.getAttribute('experiment');
    const presetId = this.#host.getAttribute('preset');
    if (params !== null) {
      const got = parseLabParams(new URLSearchParams(params));
      base = got.experiment;
      refused.push(...got.refused);
    } else if (presetId !== null) {
      const p = PRESETS.find((x) => x.id === presetId);
      if (p) base = clone(presetExperiment(p));
      else refused.push(`preset=${presetId}`);
    }
    const task = { ...base.task };
    for (const [attr, key] of [
      ['task', 'name'],
      ['min-length', 'minLength'],
      ['max-length', 'maxLength'],
      ['size', 'size'],
      ['level', 'level'],
      ['data-seed', 'seed'],
    ]) {
      const v = this.#host.getAttribute(attr);
      if (v === null) continue;
      task[key] = key === 'name' || key === 'level' ? v : Number(v);
    }
    const checked = checkExperiment({ ...base, task });
    this.#experiment = checked.experiment;
    this.#refused = [...refused, ...checked.refused];
  }

  // ---- public API ----------------------------------------------------------------------------

  /** The experiment (a copy). */
  get experiment() {
    return clone(this.#experiment);
  }

  set experiment(value) {
    const got = checkExperiment(value);
    const before = this.#experiment;
    this.#experiment = got.experiment;
    this.#refused = got.refused;
    this.#writeForm();
    this.#initRuns(this.#changedRuns(before));
    this.#schedule();
  }

  /** The custom pairs in use ([{ src, tgt }], a copy), or null. */
  get pairs() {
    return this.#custom ? this.#custom.pairs.map((p) => ({ ...p })) : null;
  }

  set pairs(value) {
    if (value === null || value === undefined) {
      this.#custom = null;
      this.#pairsProblem = null;
    } else if (typeof value === 'string' || value instanceof Uint8Array) {
      this.#usePairs(value, '');
      return;
    } else {
      const pairs = Array.from(value, (p) => ({ src: String(p.src), tgt: String(p.tgt) }));
      this.#custom = {
        pairs,
        level: this.#experiment.task.level,
        lines: pairs.length,
        name: '',
        hash: pairsHash(pairs),
      };
      this.#pairsProblem = null;
    }
    this.#pairsChanged();
  }

  /** Each run's state: { state, step, elapsed, stepsPerSecond, parameters, loss, exactMatch, tokenAccuracy, byLength, error }. */
  get runs() {
    const out = {};
    for (const id of RUNS) {
      const r = this.#runs[id];
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
    return this.#runs[id]?.loss.all ?? null;
  }

  /** Start every run; resolves once each worker has said it runs (or failed). */
  start() {
    return Promise.all(
      this.#live()
        .filter((r) => r.state !== 'error' || r.info)
        .map((r) => r.run.start().catch(quiet)),
    );
  }

  /** Pause every run; resolves once each worker has stopped (its last progress is in). */
  pause() {
    return Promise.all(this.#live().map((r) => r.run.pause().catch(quiet)));
  }

  /** One step of every run (they stay paused); resolves once each has done it. */
  step() {
    return Promise.all(
      this.#live()
        .filter((r) => r.state !== 'error' || r.info)
        .map((r) => r.run.step().catch(quiet)),
    );
  }

  /** Every run back to its initial weights at step 0; resolves once each worker has done it. */
  reset() {
    const all = this.#live().map((r) => {
      this.#clearHistory(r);
      return r.run.reset().catch(quiet);
    });
    this.#schedule();
    return Promise.all(all);
  }

  /** Resolves once every run is ready (or failed). */
  whenReady() {
    return this.#when(() => this.#live(true).every((r) => r.state !== 'loading'));
  }

  /** Resolves once every run has reported step n. */
  whenSteps(n) {
    return this.#when(() => this.#live(true).every((r) => r.step >= n || r.state === 'error'));
  }

  #when(test) {
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
  #live(withLoading = false) {
    return RUNS.map((id) => this.#runs[id]).filter(
      (r) => r && (withLoading || r.state !== 'loading'),
    );
  }

  // ---- the runs ------------------------------------------------------------------------------

  /** Which runs a change from `before` to the current experiment touches (the task: both). */
  #changedRuns(before) {
    const now = this.#experiment;
    if (JSON.stringify(before?.task) !== JSON.stringify(now.task)) return ['a', 'b'];
    return RUNS.filter((id) => JSON.stringify(before?.[id]) !== JSON.stringify(now[id]));
  }

  /** Start (again) the workers of runs ids with the current experiment, at step 0. */
  #initRuns(ids) {
    const exp = this.#experiment;
    const custom = exp.task.name === 'custom';
    for (const id of ids) {
      this.#disposeRun(id);
      if (!exp[id]) continue;
      if (custom && !this.#pairsFit()) continue; // the pairs are asked for first
      this.#runs[id] = this.#makeRun(id);
    }
    this.#setRunning(this.#live().some((r) => r.state === 'running'));
    this.#findSaved();
    this.#schedule();
  }

  // ---- checkpoints on this device (checkpoints.js: IndexedDB, keyed by the experiment's URL) ----

  /** The key of the current experiment's checkpoints: its URL string. */
  #key() {
    return formatLabParams(this.#experiment).toString();
  }

  /** Is there a saved record of this experiment (at a step past 0)? Then offer to resume it. */
  #findSaved() {
    const key = this.#key();
    if (key === this.#offerKey) return;
    this.#offerKey = key;
    this.#offer = null;
    if (!checkpointSupport().available) return;
    loadCheckpoints(key).then((rec) => {
      if (key !== this.#key() || !rec?.runs?.some((c) => c?.step > 0)) return;
      if (this.#experiment.task.name === 'custom' && !this.#pairsFit()) return; // the pairs are not here
      if (this.#live(true).some((r) => r.step > 0)) return; // training already went on here
      this.#offer = rec;
      this.#host.dataset.resume = 'offered';
      this.#schedule();
    }, quiet);
  }

  /** Save every run's checkpoint (weights, optimiser, losses) for this experiment; one save at a time. */
  #save() {
    if (this.#saving || !checkpointSupport().available) return;
    const runs = RUNS.map((id) => (this.#experiment[id] ? this.#runs[id] : null));
    if (
      runs.some((r, i) => this.#experiment[RUNS[i]] && (!r || !r.info || r.state === 'error')) ||
      !runs.some((r) => r?.step > 0)
    )
      return;
    this.#saving = true;
    const key = this.#key();
    const experiment = clone(this.#experiment);
    Promise.all(runs.filter(Boolean).map((r) => r.run.checkpoint()))
      .then((cps) =>
        key === this.#key()
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
  #resume() {
    const rec = this.#offer;
    this.#offer = null;
    delete this.#host.dataset.resume;
    if (!rec) return;
    RUNS.forEach((id, i) => {
      const cp = rec.runs[i];
      if (!this.#experiment[id] || !cp) return;
      this.#disposeRun(id);
      const r = this.#makeRun(id, cp);
      for (let k = 0; k < cp.losses.length; k++) r.loss.add(k + 1, cp.losses[k]);
      r.step = cp.step;
      this.#runs[id] = r;
    });
    this.#schedule();
  }

  /** Forget the offered record (and delete it from this device). */
  #discard() {
    this.#offer = null;
    delete this.#host.dataset.resume;
    deleteCheckpoints(this.#key()).catch(quiet);
    this.#schedule();
  }

  #disposeRun(id) {
    const r = this.#runs[id];
    if (!r) return;
    r.disposed = true;
    try {
      r.run.dispose();
    } catch {
      /* already gone */
    }
    this.#runs[id] = null;
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

  #makeRun(id, checkpoint = undefined) {
    const exp = this.#experiment;
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
        this.#schedule();
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
      this.#setRunning(this.#live().some((x) => x.state === 'running'));
      if (msg.running && this.#offer) this.#discard(); // training on: the saved run is not wanted
      if (paused && !this.#running) this.#save();
    });
    on('error', (msg) => {
      r.error = String(msg.message ?? msg);
      r.state = 'error';
      this.#setRunning(this.#live().some((x) => x.state === 'running'));
    });
    const init = { task: clone(exp.task), run: clone(exp[id]) };
    if (exp.task.name === 'custom' && this.#custom) init.pairs = this.#custom.pairs;
    if (checkpoint) init.checkpoint = checkpoint;
    // A failed init is reported as an error message too (run.js), which sets the state.
    r.run.init(init).catch(quiet);
    return r;
  }

  #setRunning(running) {
    if (running === this.#running) return;
    this.#running = running;
    this.#host.dispatchEvent(new CustomEvent('lab-state', { detail: { running } }));
  }

  // ---- building and wiring -------------------------------------------------------------------

  #build() {
    const root = /** @type {ShadowRoot} */ (this.#host.shadowRoot);
    const ui = this.#ui;
    const field = (key, input, extraClass = '') => {
      const label = el('label', { for: input.id });
      ui.labels[key] = label;
      return el(
        'div',
        { class: `field ${extraClass}`.trim() },
        input.type === 'checkbox' ? [input, label] : [label, input],
      );
    };
    const number = (id, [min, max], step = '1') =>
      el('input', {
        id,
        type: 'number',
        min: String(min),
        max: String(max),
        step,
        inputmode: 'decimal',
      });
    const select = (id) => el('select', { id });
    ui.labels = {};

    // Presets
    ui.presetsTitle = el('h3', { id: 'presets-title' });
    ui.presets = el('div', { class: 'presets', role: 'group', 'aria-labelledby': 'presets-title' });
    const presetBox = el('section', { class: 'preset-box' }, [ui.presetsTitle, ui.presets]);

    // Task
    ui.task = select('task');
    ui.minLength = number('min-length', [1, 200]);
    ui.maxLength = number('max-length', [1, 200]);
    ui.size = number('size', limit('task.size', [0, 50000]));
    ui.level = select('level');
    ui.dataSeed = number('data-seed', [0, 4294967295]);
    ui.taskLegend = el('legend');
    ui.taskAbout = el('p', { class: 'hint' });
    ui.pairsText = el('textarea', { id: 'pairs-text', spellcheck: 'false', autocomplete: 'off' });
    ui.pairsUse = el('button', { type: 'button', id: 'pairs-use' });
    ui.pairsFile = el('input', {
      type: 'file',
      id: 'pairs-file',
      accept: '.tsv,.csv,.txt,text/tab-separated-values,text/csv,text/plain',
      hidden: '',
    });
    ui.pairsOpen = el('button', { type: 'button', id: 'pairs-open' });
    ui.pairsHint = el('p', { class: 'hint', id: 'pairs-hint' });
    ui.pairsProblem = el('p', { class: 'problem', role: 'alert', id: 'pairs-problem', hidden: '' });
    ui.pairsSummary = el('p', { class: 'note', id: 'pairs-summary', 'aria-live': 'polite' });
    ui.pairsNeeded = el('p', { class: 'error', id: 'pairs-needed', hidden: '' });
    ui.pairs = el('div', { class: 'drop', id: 'pairs' }, [
      ui.pairsNeeded,
      field('pairsText', ui.pairsText),
      ui.pairsHint,
      el('div', { class: 'buttons' }, [ui.pairsUse, ui.pairsOpen, ui.pairsFile]),
      ui.pairsProblem,
      ui.pairsSummary,
    ]);
    const taskSet = el('fieldset', { class: 'task' }, [
      ui.taskLegend,
      el('div', { class: 'grid' }, [
        field('task', ui.task),
        field('minLength', ui.minLength),
        field('maxLength', ui.maxLength),
        field('size', ui.size),
        field('level', ui.level),
        field('dataSeed', ui.dataSeed),
      ]),
      ui.taskAbout,
      ui.pairs,
    ]);

    // Runs A and B
    ui.run = {};
    const runSets = RUNS.map((id) => {
      const u = { labels: {} };
      ui.run[id] = u;
      const f = (key, input, extra = '') => {
        const label = el('label', { for: input.id });
        u.labels[key] = label;
        return el(
          'div',
          { class: `field ${extra}`.trim() },
          input.type === 'checkbox' ? [input, label] : [label, input],
        );
      };
      const p = `${id}-`;
      u.legend = el('legend');
      u.enabled = el('input', { type: 'checkbox', id: `${p}enabled` });
      u.family = select(`${p}family`);
      u.cell = select(`${p}cell`);
      u.bidirectional = el('input', { type: 'checkbox', id: `${p}bidirectional` });
      u.layers = select(`${p}layers`);
      u.hidden = number(`${p}hidden`, limit('seq2seq.hidden', [16, 256]));
      u.embedding = number(`${p}embedding`, limit('seq2seq.embedding', [8, 256]));
      u.attention = select(`${p}attention`);
      u.style = select(`${p}style`);
      u.tLayers = select(`${p}t-layers`);
      u.heads = select(`${p}heads`);
      u.width = number(`${p}width`, limit('transformer.width', [16, 128]));
      u.feedforward = number(`${p}feedforward`, limit('transformer.feedforward', [16, 512]));
      u.positions = select(`${p}positions`);
      u.optimizer = select(`${p}optimizer`);
      u.lr = number(`${p}lr`, limit('train.lr', [1e-5, 1]), 'any');
      u.batch = number(`${p}batch`, limit('train.batch', [1, 256]));
      u.clip = number(`${p}clip`, limit('train.clip', [0, 10]), 'any');
      u.seed = number(`${p}seed`, [0, 4294967295]);
      u.workers = number(`${p}workers`, limit('train.workers', [1, 4]));
      u.halfLife = number(`${p}half-life`, limit('train.halfLife', [0, 100000]));
      u.params = el('p', { class: 'params', id: `${p}params`, 'aria-live': 'polite' });
      u.equation = el('p', { class: 'equation', id: `${p}equation` });
      u.cite = el('p', { class: 'cite', id: `${p}cite` });
      u.download = el('button', { type: 'button', id: `${p}download` });
      u.dtype = select(`${p}dtype`);
      u.load = el('button', { type: 'button', id: `${p}load` });
      u.loadFile = el('input', {
        type: 'file',
        id: `${p}load-file`,
        accept: '.safetensors,application/octet-stream',
        hidden: '',
      });
      u.fileNote = el('p', { class: 'note', id: `${p}file-note`, 'aria-live': 'polite' });
      u.modelTitle = el('p', { class: 'sub' });
      u.trainTitle = el('p', { class: 'sub' });
      u.s2s = el('div', { class: 'grid' }, [
        f('cell', u.cell),
        f('layers', u.layers),
        f('hidden', u.hidden),
        f('embedding', u.embedding),
        f('attention', u.attention),
        f('style', u.style),
        f('bidirectional', u.bidirectional, 'check'),
      ]);
      u.tf = el('div', { class: 'grid' }, [
        f('tLayers', u.tLayers),
        f('heads', u.heads),
        f('width', u.width),
        f('feedforward', u.feedforward),
        f('positions', u.positions),
      ]);
      u.body = el('div', {}, [
        el('div', { class: 'grid' }, [f('family', u.family)]),
        u.modelTitle,
        u.s2s,
        u.tf,
        el('div', { class: 'about' }, [u.params, u.equation, u.cite]),
        u.trainTitle,
        el('div', { class: 'grid' }, [
          f('optimizer', u.optimizer),
          f('lr', u.lr),
          f('batch', u.batch),
          f('clip', u.clip),
          f('halfLife', u.halfLife),
          f('seed', u.seed),
          f('workers', u.workers),
        ]),
        el('div', { class: 'buttons files' }, [
          f('dtype', u.dtype),
          u.download,
          u.load,
          u.loadFile,
        ]),
        u.fileNote,
      ]);
      const head = id === 'b' ? [u.legend, f('enabled', u.enabled, 'check')] : [u.legend];
      u.set = el('fieldset', { class: `run run-${id}`, id: `run-${id}` }, [...head, u.body]);
      return u.set;
    });
    ui.refusedNote = el('p', { class: 'refused', id: 'refused', hidden: '' });
    const form = el('form', { class: 'setup', novalidate: '' }, [
      taskSet,
      el('div', { class: 'runs' }, runSets),
      ui.refusedNote,
    ]);
    ui.form = form;

    // Controls and numbers
    ui.start = el('button', { type: 'button', id: 'start', class: 'primary' });
    ui.stepBtn = el('button', { type: 'button', id: 'step' });
    ui.reset = el('button', { type: 'button', id: 'reset' });
    ui.status = el('p', { class: 'status', id: 'status', role: 'status' });
    ui.stat = {};
    for (const id of RUNS) ui.stat[id] = el('p', { class: `stat-${id}`, id: `stat-${id}` });
    ui.runError = el('p', { class: 'error', id: 'run-error', role: 'alert', hidden: '' });
    ui.resumeText = el('span', { id: 'resume-text' });
    ui.resumeYes = el('button', { type: 'button', id: 'resume-yes' });
    ui.resumeNo = el('button', { type: 'button', id: 'resume-no' });
    ui.resume = el('div', { class: 'buttons resume', id: 'resume', role: 'status', hidden: '' }, [
      ui.resumeText,
      ui.resumeYes,
      ui.resumeNo,
    ]);
    const controls = el('div', { class: 'controls' }, [
      el('div', { class: 'buttons' }, [ui.start, ui.stepBtn, ui.reset, ui.status]),
      el('div', { class: 'stats' }, [ui.stat.a, ui.stat.b]),
      ui.resume,
      ui.runError,
    ]);

    // Charts
    ui.chart = {};
    ui.chartCaption = {};
    const figures = ['loss', 'accuracy', 'length'].map((name) => {
      ui.chart[name] = el('canvas', { class: 'chart', id: `chart-${name}`, role: 'img' });
      ui.chartCaption[name] = el('figcaption');
      return el('figure', {}, [ui.chartCaption[name], ui.chart[name]]);
    });
    ui.logScale = el('input', { type: 'checkbox', id: 'log-scale', checked: '' });
    ui.labels.logScale = el('label', { for: 'log-scale' });
    ui.charts = el('div', { class: 'charts' }, figures);
    ui.chartsTitle = el('h3');
    // Attention maps
    ui.mapsTitle = el('h3');
    ui.example = el('p', { class: 'note example' });
    ui.map = {};
    ui.mapNote = {};
    const maps = ['a', 'b', 'diff'].map((name) => {
      const h = /** @type {any} */ (document.createElement('attn-heatmap'));
      h.id = `map-${name}`;
      if (name === 'diff') h.setAttribute('colormap', 'diverging');
      else h.setAttribute('scale', 'fixed');
      ui.map[name] = h;
      ui.mapNote[name] = el('p', { class: 'note', id: `map-${name}-note` });
      return el('figure', { id: `figure-${name}` }, [ui.mapNote[name], h]);
    });
    ui.maps = el('div', { class: 'maps' }, maps);
    const results = el('section', { class: 'results' }, [
      ui.chartsTitle,
      el('div', { class: 'field check' }, [ui.logScale, ui.labels.logScale]),
      ui.charts,
      ui.mapsTitle,
      ui.example,
      ui.maps,
    ]);

    // The controls right under the presets, sticky: Start and the numbers stay in reach while
    // the settings, charts and maps scroll (a phone shows one column).
    root.append(el('style', { text: STYLE }), presetBox, controls, form, results);
  }

  #wire(signal) {
    const ui = this.#ui;
    const opts = { signal };
    ui.form.addEventListener('submit', (e) => e.preventDefault(), opts);
    ui.form.addEventListener(
      'change',
      (e) => {
        const target = /** @type {HTMLElement} */ (e.target);
        if (
          target === ui.pairsText ||
          target === ui.pairsFile ||
          target.id?.endsWith('load-file') ||
          target.id?.endsWith('dtype')
        )
          return;
        this.#fromForm();
      },
      opts,
    );
    ui.presets.addEventListener(
      'click',
      (e) => {
        const b = /** @type {HTMLElement} */ (e.target).closest?.('button[data-preset]');
        if (!b) return;
        const p = PRESETS.find((x) => x.id === b.getAttribute('data-preset'));
        if (p) this.#userExperiment(clone(presetExperiment(p)));
      },
      opts,
    );
    ui.start.addEventListener('click', () => (this.#running ? this.pause() : this.start()), opts);
    ui.stepBtn.addEventListener('click', () => this.step(), opts);
    ui.reset.addEventListener('click', () => this.reset(), opts);
    ui.resumeYes.addEventListener('click', () => this.#resume(), opts);
    ui.resumeNo.addEventListener('click', () => this.#discard(), opts);
    ui.logScale.addEventListener('change', () => this.#schedule(), opts);
    // Custom pairs: typed or pasted (Use), a file (Open), or dropped on the box.
    ui.pairsUse.addEventListener('click', () => this.#usePairs(ui.pairsText.value, ''), opts);
    ui.pairsOpen.addEventListener('click', () => ui.pairsFile.click(), opts);
    ui.pairsFile.addEventListener(
      'change',
      () => {
        const file = ui.pairsFile.files?.[0];
        ui.pairsFile.value = '';
        if (file) this.#readPairsFile(file);
      },
      opts,
    );
    ui.pairs.addEventListener(
      'dragover',
      (e) => {
        e.preventDefault();
        ui.pairs.classList.add('over');
      },
      opts,
    );
    ui.pairs.addEventListener('dragleave', () => ui.pairs.classList.remove('over'), opts);
    ui.pairs.addEventListener(
      'drop',
      (e) => {
        e.preventDefault();
        ui.pairs.classList.remove('over');
        const dt = e.dataTransfer;
        const file = dt?.files?.[0];
        if (file) this.#readPairsFile(file);
        else if (dt?.getData('text/plain')) {
          ui.pairsText.value = dt.getData('text/plain');
          this.#usePairs(ui.pairsText.value, '');
        }
      },
      opts,
    );
    for (const id of RUNS) {
      const u = ui.run[id];
      u.download.addEventListener('click', () => this.#download(id), opts);
      u.load.addEventListener('click', () => u.loadFile.click(), opts);
      u.loadFile.addEventListener(
        'change',
        () => {
          const file = u.loadFile.files?.[0];
          u.loadFile.value = '';
          if (file) this.#loadRun(id, file);
        },
        opts,
      );
    }
  }

  /** The experiment the form shows, checked; a change restarts the runs it touches. */
  #fromForm() {
    const ui = this.#ui;
    const num = (input) => (input.value.trim() === '' ? NaN : Number(input.value));
    const exp = clone(this.#experiment);
    exp.task = {
      ...exp.task,
      name: ui.task.value,
      minLength: num(ui.minLength),
      maxLength: num(ui.maxLength),
      size: num(ui.size),
      level: ui.level.value,
      seed: num(ui.dataSeed),
    };
    for (const id of RUNS) {
      const u = ui.run[id];
      if (id === 'b' && !u.enabled.checked) {
        exp.b = null;
        continue;
      }
      const before = exp[id] ?? clone(exp.a);
      const family = u.family.value;
      const model =
        family === 'transformer'
          ? {
              family,
              layers: Number(u.tLayers.value),
              heads: Number(u.heads.value),
              width: num(u.width),
              feedforward: num(u.feedforward),
              positions: u.positions.value,
            }
          : {
              family,
              cell: u.cell.value,
              bidirectional: u.bidirectional.checked,
              layers: Number(u.layers.value),
              hidden: num(u.hidden),
              embedding: num(u.embedding),
              attention: u.attention.value,
              style: u.style.value,
            };
      // Another family: its defaults (DEFAULT_EXPERIMENT, or a preset that has one), then what the form had.
      if (before.model?.family !== family) {
        const other = [DEFAULT_EXPERIMENT, ...PRESETS.map(presetExperiment)]
          .flatMap((e) => [e.a, e.b])
          .find((r) => r?.model?.family === family);
        if (other) Object.assign(model, other.model, { family });
      }
      const train = {
        optimizer: u.optimizer.value,
        lr: num(u.lr),
        batch: num(u.batch),
        clip: num(u.clip),
        seed: num(u.seed),
        workers: num(u.workers),
        halfLife: num(u.halfLife),
      };
      exp[id] = { model, train };
    }
    this.#userExperiment(exp);
  }

  /** A person set the experiment: check it, show it, restart what changed, reflect and announce it. */
  #userExperiment(value) {
    const before = this.#experiment;
    const got = checkExperiment(value);
    this.#experiment = got.experiment;
    this.#refused = got.refused;
    this.#writeForm();
    const changed = this.#changedRuns(before);
    if (changed.length) this.#initRuns(changed);
    const params = formatLabParams(this.#experiment).toString();
    this.#reflecting = true;
    try {
      this.#host.setAttribute('experiment', params);
      this.#host.removeAttribute('preset');
      for (const a of ['task', 'min-length', 'max-length', 'size', 'level', 'data-seed'])
        this.#host.removeAttribute(a);
    } finally {
      this.#reflecting = false;
    }
    this.#host.dispatchEvent(
      new CustomEvent('lab-change', { detail: { experiment: this.experiment, params } }),
    );
    this.#schedule();
  }

  // ---- custom pairs --------------------------------------------------------------------------

  async #readPairsFile(file) {
    if (file.size > MAX_FILE_BYTES) {
      this.#pairsProblem = { problem: 'too-large', line: 0, message: '' };
      this.#schedule();
      return;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    this.#usePairs(bytes, file.name);
  }

  /** Parse pasted text or a file's bytes (pairs.js); the pairs in use, or the problem shown. */
  #usePairs(input, name) {
    const level = this.#experiment.task.level;
    try {
      const got = parsePairs(input, { level });
      this.#custom = {
        pairs: got.pairs,
        level: got.level,
        lines: got.lines,
        name,
        hash: pairsHash(got.pairs),
      };
      this.#pairsProblem = null;
      if (typeof input !== 'string' && got.pairs.length <= 2000) {
        this.#ui.pairsText.value = got.pairs.map((p) => `${p.src}\t${p.tgt}`).join('\n');
      }
      this.#pairsChanged();
    } catch (err) {
      this.#pairsProblem = {
        problem: err?.problem ?? '',
        line: err?.line ?? null,
        message: String(err?.message ?? err),
      };
      this.#host.dataset.pairsProblem = this.#pairsProblem.problem;
      this.#schedule();
    }
  }

  /** New custom pairs: the experiment becomes the custom task with their hash (the URL's data=). */
  #pairsChanged() {
    delete this.#host.dataset.pairsProblem;
    this.#taskKey = '';
    const task = this.#experiment.task;
    const hash = this.#custom?.hash ?? null;
    if (this.#custom && (task.name !== 'custom' || task.data !== hash)) {
      this.#userExperiment({ ...this.#experiment, task: { ...task, name: 'custom', data: hash } });
    } else if (task.name === 'custom') {
      this.#initRuns(['a', 'b']);
    }
    this.#schedule();
  }

  /** Are the pairs in use the ones the experiment names (its data hash; none named: any)? */
  #pairsFit() {
    const task = this.#experiment.task;
    return Boolean(this.#custom) && (!task.data || task.data === this.#custom?.hash);
  }

  /** A PairsError in the current language: its line and its problem, by code. */
  #pairsMessage(p) {
    const lang = this.#lang;
    const key = `lab.pairs.problem.${p.problem}`;
    const what =
      t(lang, key, { line: p.line }) === key
        ? p.message
        : t(lang, key, { line: p.line, max: 50000 });
    return Number(p.line) > 0 ? t(lang, 'lab.pairs.atLine', { line: p.line, problem: what }) : what;
  }

  // ---- download and load ---------------------------------------------------------------------

  async #download(id) {
    const r = this.#runs[id];
    const u = this.#ui.run[id];
    if (!r || r.state === 'loading') return;
    const dtype = u.dtype.value;
    u.fileNote.textContent = t(this.#lang, 'lab.file.exporting');
    try {
      const bytes = await r.run.export(dtype);
      const name = `attnlab-lab-${this.#experiment.task.name}-${id}-step${r.step}-${dtype.toLowerCase()}.safetensors`;
      downloadBlob(name, new Blob([bytes], { type: 'application/octet-stream' }));
      u.fileNote.textContent = t(this.#lang, 'lab.file.saved', {
        name,
        kb: (bytes.length / 1024).toFixed(1),
      });
    } catch (err) {
      u.fileNote.textContent = t(this.#lang, 'lab.file.failed', {
        message: String(err?.message ?? err),
      });
    }
  }

  /** A .safetensors file the lab saved: its weights go into run id, which continues from them. */
  async #loadRun(id, file) {
    const u = this.#ui.run[id];
    if (file.size > MAX_FILE_BYTES) {
      u.fileNote.textContent = t(this.#lang, 'lab.file.tooLarge', { name: file.name, mb: 64 });
      return;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    // A downloaded run holds the weights only: it continues with a fresh optimiser (Adam's moments
    // zero, its step count 0, exactly a new optimiser's state) from step 0 of the data stream.
    const spec = this.#experiment[id];
    const task = this.#currentTask();
    let n = 0;
    try {
      n = task ? parameterCount(spec.model, task) : 0;
    } catch {
      /* the worker says what is wrong */
    }
    const adam = spec.train.optimizer === 'adam';
    const optimizer = {
      steps: 0,
      m1: new Float32Array(adam ? n : 0),
      m2: new Float32Array(adam ? n : 0),
    };
    this.#disposeRun(id);
    const r = this.#makeRun(id, { step: 0, bytes, optimizer, losses: new Float32Array(0) });
    this.#runs[id] = r;
    r.loaded = file.name;
    u.fileNote.textContent = t(this.#lang, 'lab.file.loading', { name: file.name });
    this.#when(() => r.state !== 'loading').then(() => {
      u.fileNote.textContent =
        r.state === 'error'
          ? t(this.#lang, 'lab.file.loadFailed', { name: file.name, message: r.error })
          : t(this.#lang, 'lab.file.loaded', { name: file.name });
    });
    this.#schedule();
  }

  // ---- drawing -------------------------------------------------------------------------------

  #schedule() {
    if (!this.#frame) this.#frame = requestAnimationFrame(() => this.#render());
  }

  /** The form from the experiment and the language (options, labels, values). */
  #writeForm() {
    const ui = this.#ui;
    const lang = this.#lang;
    const exp = this.#experiment;
    const options = (select, values, label) => {
      const v = select.value;
      select.replaceChildren(
        ...values.map((x) => el('option', { value: String(x), text: label(x) })),
      );
      if (values.map(String).includes(v)) select.value = v;
    };
    const L = (key, name = key) => {
      if (ui.labels[key]) ui.labels[key].textContent = t(lang, `lab.field.${name}`);
    };
    ui.presetsTitle.textContent = t(lang, 'lab.presets');
    ui.presets.replaceChildren(
      ...PRESETS.map((p) => {
        const key = `lab.preset.${p.id}`;
        const name = t(lang, key);
        const b = el('button', {
          type: 'button',
          'data-preset': p.id,
          text: name === key ? p.id : name,
        });
        const about = t(lang, `lab.preset.${p.id}.about`);
        if (about !== `lab.preset.${p.id}.about`) b.title = about;
        return b;
      }),
    );
    ui.taskLegend.textContent = t(lang, 'lab.task');
    options(ui.task, TASK_NAMES, (x) => t(lang, `lab.task.${x}`));
    options(ui.level, ['auto', 'char', 'word'], (x) => t(lang, `lab.level.${x}`));
    for (const k of ['task', 'minLength', 'maxLength', 'size', 'level', 'dataSeed', 'logScale'])
      L(k);
    ui.labels.pairsText.textContent = t(lang, 'lab.pairs.label');
    ui.pairsUse.textContent = t(lang, 'lab.pairs.use');
    ui.pairsOpen.textContent = t(lang, 'lab.pairs.open');
    ui.pairsHint.textContent = t(lang, 'lab.pairs.hint');
    const lengths = /** @type {any} */ (TASK_INFO)?.[exp.task.name]?.lengths;
    if (lengths) {
      for (const input of [ui.minLength, ui.maxLength]) {
        input.min = String(lengths[0]);
        input.max = String(lengths[1]);
      }
    }
    ui.task.value = exp.task.name;
    ui.minLength.value = String(exp.task.minLength);
    ui.maxLength.value = String(exp.task.maxLength);
    ui.size.value = String(exp.task.size);
    ui.level.value = exp.task.level;
    ui.dataSeed.value = String(exp.task.seed);
    ui.level.disabled = exp.task.name !== 'custom';

    for (const id of RUNS) {
      const u = ui.run[id];
      const spec = exp[id] ?? exp.a;
      const m = spec.model;
      const tr = spec.train;
      u.legend.textContent = t(lang, `lab.run.${id}`);
      for (const k of [
        'family',
        'cell',
        'bidirectional',
        'layers',
        'hidden',
        'embedding',
        'attention',
        'style',
        'heads',
        'width',
        'feedforward',
        'positions',
        'optimizer',
        'lr',
        'batch',
        'clip',
        'seed',
        'workers',
        'halfLife',
        'dtype',
      ]) {
        if (u.labels[k]) u.labels[k].textContent = t(lang, `lab.field.${k}`);
      }
      u.labels.tLayers.textContent = t(lang, 'lab.field.layers');
      if (u.labels.enabled) u.labels.enabled.textContent = t(lang, 'lab.run.bEnabled');
      u.modelTitle.textContent = t(lang, 'lab.model');
      u.trainTitle.textContent = t(lang, 'lab.training');
      options(u.family, ['seq2seq', 'transformer'], (x) => t(lang, `lab.family.${x}`));
      options(u.cell, ['rnn', 'gru', 'lstm'], (x) => x.toUpperCase());
      options(u.layers, [1, 2], String);
      options(u.attention, ATTENTIONS, (x) => mechanismName(lang, x));
      options(u.style, ['bahdanau', 'luong'], (x) => t(lang, `lab.style.${x}`));
      options(u.tLayers, [1, 2, 3, 4], String);
      options(u.heads, [1, 2, 4, 8], String);
      options(u.positions, ['learned', 'sinusoidal', 'relative'], (x) =>
        t(lang, `lab.positions.${x}`),
      );
      options(u.optimizer, ['adam', 'sgd'], (x) => t(lang, `lab.optimizer.${x}`));
      options(u.dtype, DTYPES, (x) => t(lang, `lab.dtype.${x}`));
      u.download.textContent = t(lang, 'lab.file.download');
      u.load.textContent = t(lang, 'lab.file.load');
      u.family.value = m.family;
      const s2s = m.family !== 'transformer';
      u.s2s.hidden = !s2s;
      u.tf.hidden = s2s;
      if (s2s) {
        u.cell.value = m.cell;
        u.bidirectional.checked = Boolean(m.bidirectional);
        u.layers.value = String(m.layers);
        u.hidden.value = String(m.hidden);
        u.embedding.value = String(m.embedding);
        u.attention.value = m.attention;
        u.style.value = m.style;
      } else {
        u.tLayers.value = String(m.layers);
        u.heads.value = String(m.heads);
        u.width.value = String(m.width);
        u.feedforward.value = String(m.feedforward);
        u.positions.value = m.positions;
      }
      u.optimizer.value = tr.optimizer;
      u.lr.value = String(tr.lr);
      u.batch.value = String(tr.batch);
      u.clip.value = String(tr.clip);
      u.seed.value = String(tr.seed);
      u.workers.value = String(tr.workers);
      u.halfLife.value = String(tr.halfLife ?? 0);
      if (id === 'b') {
        u.enabled.checked = exp.b !== null;
        u.body.hidden = exp.b === null;
      }
    }
    ui.start.title = '';
    ui.stepBtn.textContent = t(lang, 'lab.oneStep');
    ui.reset.textContent = t(lang, 'lab.reset');
    ui.chartsTitle.textContent = t(lang, 'lab.charts');
    ui.mapsTitle.textContent = t(lang, 'lab.maps');
    ui.chartCaption.loss.textContent = t(lang, 'lab.chart.loss');
    ui.chartCaption.accuracy.textContent = t(lang, 'lab.chart.accuracy');
    ui.chartCaption.length.textContent = t(lang, 'lab.chart.length');
    for (const name of ['a', 'b', 'diff']) ui.map[name].setAttribute('lang', lang);
  }

  /** The task (tasks.js) of the current task spec, made again only when it changes. */
  #currentTask() {
    const spec = this.#experiment.task;
    const custom = spec.name === 'custom';
    const key =
      JSON.stringify(spec) +
      (custom ? `#${this.#custom?.pairs.length ?? 0}:${this.#custom?.name}` : '');
    if (key !== this.#taskKey) {
      this.#taskKey = key;
      try {
        this.#task =
          custom && !this.#pairsFit()
            ? null
            : makeTask(spec, custom ? this.#custom?.pairs : undefined);
      } catch {
        this.#task = null;
      }
    }
    return this.#task;
  }

  #render() {
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    const t0 = performance.now();
    const ui = this.#ui;
    const lang = this.#lang;
    const exp = this.#experiment;
    const task = this.#currentTask();
    const custom = exp.task.name === 'custom';

    // Task notes and the custom pairs box
    ui.taskAbout.textContent = t(lang, `lab.task.${exp.task.name}.about`, {
      min: exp.task.minLength,
      max: exp.task.maxLength,
    });
    ui.pairs.hidden = !custom && !this.#pairsProblem;
    const needed = custom && !this.#pairsFit();
    ui.pairsNeeded.hidden = !needed;
    ui.pairsNeeded.textContent = needed
      ? t(lang, exp.task.data ? 'lab.pairs.neededHash' : 'lab.pairs.needed', {
          hash: exp.task.data ?? '',
        })
      : '';
    ui.pairsProblem.hidden = !this.#pairsProblem;
    ui.pairsProblem.textContent = this.#pairsProblem ? this.#pairsMessage(this.#pairsProblem) : '';
    ui.pairsText.setAttribute('aria-invalid', String(Boolean(this.#pairsProblem)));
    ui.pairsSummary.textContent = this.#custom
      ? t(lang, 'lab.pairs.summary', {
          n: this.#custom.pairs.length,
          level: t(
            lang,
            `lab.level.${exp.task.level === 'auto' ? this.#custom.level : exp.task.level}`,
          ),
          name: this.#custom.name || t(lang, 'lab.pairs.pasted'),
        })
      : '';
    ui.refusedNote.hidden = this.#refused.length === 0;
    ui.refusedNote.textContent = this.#refused.length
      ? t(lang, 'lab.refused', { list: this.#refused.join(', ') })
      : '';

    // Per run: parameter count, equation, stats
    for (const id of RUNS) {
      const u = ui.run[id];
      const spec = exp[id];
      const r = this.#runs[id];
      if (spec) {
        let count = r?.info?.parameters ?? null;
        if (count === null && task) {
          try {
            count = parameterCount(spec.model, task);
          } catch {
            count = null;
          }
        }
        u.params.textContent =
          count === null
            ? ''
            : t(lang, 'lab.parameters', {
                n: count.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-US'),
              });
        u.params.dataset.count = count === null ? '' : String(count);
        let eq = null;
        try {
          eq = attentionEquation(spec.model);
        } catch {
          /* none */
        }
        const eqKey = `${eq?.html ?? ''}\u0000${lang}`;
        if (u.equation.dataset.key !== eqKey) {
          u.equation.dataset.key = eqKey;
          u.equation.replaceChildren(
            ...(eq?.html ? equationNodes(eq.html) : [t(lang, 'lab.noEquation')]),
          );
          u.cite.textContent = citeIn(lang, eq?.cite ?? '');
        }
      }
      u.download.disabled = !r || r.state === 'loading' || r.state === 'running';
      u.load.disabled = !spec || this.#running;
      const stat = ui.stat[id];
      stat.hidden = !spec;
      if (!spec) continue;
      const bits = [t(lang, `lab.run.${id}`)];
      if (!r) bits.push(t(lang, custom ? 'lab.state.needsPairs' : 'lab.state.loading'));
      else if (r.state === 'loading') bits.push(t(lang, 'lab.state.loading'));
      else {
        bits.push(t(lang, 'lab.stat.step', { step: r.step }));
        if (r.loss.last !== null)
          bits.push(t(lang, 'lab.stat.loss', { loss: r.loss.last.toPrecision(3) }));
        if (r.state === 'running' && r.sps > 0)
          bits.push(
            t(lang, 'lab.stat.rate', { rate: r.sps >= 10 ? r.sps.toFixed(0) : r.sps.toFixed(1) }),
          );
        if (r.eval)
          bits.push(
            t(lang, 'lab.stat.eval', {
              exact: pct(r.eval.exactMatch),
              token: pct(r.eval.tokenAccuracy),
            }),
          );
        if (r.info?.workers > 1) bits.push(t(lang, 'lab.stat.workers', { n: r.info.workers }));
      }
      stat.textContent = bits.join(lang === 'zh' ? '，' : ' · ');
      this.#host.dataset[`step${id.toUpperCase()}`] = String(r?.step ?? 0);
    }

    // Controls and the overall state
    const live = this.#live(true);
    const errors = live.filter((r) => r.state === 'error');
    const state = errors.length
      ? 'error'
      : custom && !this.#pairsFit()
        ? 'waiting'
        : live.length === 0 || live.some((r) => r.state === 'loading')
          ? 'loading'
          : this.#running
            ? 'running'
            : live.some((r) => r.step > 0)
              ? 'paused'
              : 'ready';
    this.#host.dataset.state = state;
    const canRun = live.length > 0 && live.every((r) => r.state !== 'loading');
    ui.start.textContent = t(
      lang,
      this.#running ? 'lab.pause' : state === 'paused' ? 'lab.resume' : 'lab.start',
    );
    ui.start.disabled = !canRun;
    ui.start.setAttribute('aria-pressed', String(this.#running));
    ui.stepBtn.disabled = !canRun || this.#running;
    ui.reset.disabled = !canRun || !live.some((r) => r.step > 0 || r.state === 'running');
    ui.status.textContent = t(lang, `lab.status.${state}`);
    const offer = this.#offer;
    ui.resume.hidden = !offer;
    if (offer) {
      const steps = offer.runs.map((c) => c?.step ?? 0);
      ui.resumeText.textContent = t(
        lang,
        offer.runs.length > 1 ? 'lab.saved.offerAB' : 'lab.saved.offerA',
        {
          a: steps[0],
          b: steps[1] ?? 0,
          when: new Date(offer.saved ?? Date.now()).toLocaleString(
            lang === 'zh' ? 'zh-CN' : 'en-GB',
          ),
        },
      );
      ui.resumeYes.textContent = t(lang, 'lab.saved.resume');
      ui.resumeNo.textContent = t(lang, 'lab.saved.discard');
    }
    ui.runError.hidden = errors.length === 0;
    ui.runError.textContent = errors
      .map((r) => t(lang, 'lab.runError', { run: t(lang, `lab.run.${r.id}`), message: r.error }))
      .join(' ');

    this.#drawCharts();
    this.#drawMaps();
    this.timings.push(performance.now() - t0);
    if (this.timings.length > MAX_TIMINGS) this.timings.shift();
  }

  /**
   * The three charts, each redrawn only when what it shows changed (its key: the runs, their
   * loss count or evaluations, the width, the language, the scale), so a frame with only a
   * progress message repaints the loss chart alone: the page's thread stays free for painting.
   */
  #drawCharts() {
    const ui = this.#ui;
    const lang = this.#lang;
    const dpr = window.devicePixelRatio || 1;
    const runs = RUNS.map((id) => this.#runs[id]).filter(Boolean);
    const name = (r) => t(lang, `lab.run.${r.id}`);
    let style = null; // computed once per frame, and only when a chart is redrawn
    const draw = (canvas, data, make) => {
      const w = Math.max(200, Math.floor(canvas.clientWidth || ui.charts.clientWidth || 320));
      const key = `${w}:${dpr}:${lang}:${this.#styleKey}:${runs.map((r) => `${r.serial}`).join(',')}:${data}`;
      if (canvas.dataset.key === key) return;
      canvas.dataset.key = key;
      if (!style) {
        const css = getComputedStyle(this.#host);
        const v = (n, fallback) => css.getPropertyValue(n).trim() || fallback;
        style = {
          colors: {
            background: v('--attn-lab-surface', v('--surface', '#ffffff')),
            text: v('--attn-lab-text', v('--text', '#1b1b1f')),
            grid: v('--attn-lab-border', v('--border', '#d6d6df')),
          },
          font: `12px ${css.fontFamily || 'system-ui, sans-serif'}`,
        };
      }
      if (
        canvas.width !== Math.round(w * dpr) ||
        canvas.height !== Math.round(CHART_HEIGHT * dpr)
      ) {
        canvas.width = Math.round(w * dpr);
        canvas.height = Math.round(CHART_HEIGHT * dpr);
      }
      const [series, options, alt] = make();
      const ctx = canvas.getContext('2d');
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      drawLabChart(ctx, series, {
        width: w,
        height: CHART_HEIGHT,
        ...style,
        empty: t(lang, 'lab.chart.empty'),
        ...options,
      });
      canvas.setAttribute('aria-label', alt);
    };
    const summary = (fn) =>
      runs.map((r) => `${name(r)}: ${fn(r)}`).join('; ') || t(lang, 'lab.chart.empty');
    const log = ui.logScale.checked;
    draw(ui.chart.loss, `${log}:${runs.map((r) => r.loss.length).join(',')}`, () => [
      runs.map((r) => ({
        label: t(lang, 'lab.series.loss', { run: name(r) }),
        color: COLORS[r.id],
        dash: DASH[r.id],
        points: r.loss.points,
      })),
      { log, xLabel: t(lang, 'lab.axis.step') },
      `${t(lang, 'lab.chart.loss')}. ${summary((r) => (r.loss.last === null ? '–' : t(lang, 'lab.stat.loss', { loss: r.loss.last.toPrecision(3) })))}`,
    ]);
    const evals = runs.map((r) => r.evals.length).join(',');
    draw(ui.chart.accuracy, evals, () => [
      runs.flatMap((r) => [
        {
          label: t(lang, 'lab.series.exact', { run: name(r) }),
          color: COLORS[r.id],
          dash: DASH[r.id],
          points: r.exact,
          dots: true,
        },
        {
          label: t(lang, 'lab.series.token', { run: name(r) }),
          color: COLORS[r.id],
          dash: TOKEN_DASH[r.id],
          points: r.token,
        },
      ]),
      { percent: true, xLabel: t(lang, 'lab.axis.step') },
      `${t(lang, 'lab.chart.accuracy')}. ${summary((r) => (r.eval ? t(lang, 'lab.stat.eval', { exact: pct(r.eval.exactMatch), token: pct(r.eval.tokenAccuracy) }) : '–'))}`,
    ]);
    draw(ui.chart.length, evals, () => [
      runs.map((r) => ({
        label: t(lang, 'lab.series.byLength', { run: name(r) }),
        color: COLORS[r.id],
        dash: DASH[r.id],
        dots: true,
        points: (r.eval?.byLength ?? [])
          .filter((b) => b.count > 0)
          .map((b) => [b.length, b.exactMatch]),
      })),
      { percent: true, xMin: null, xInteger: true, xLabel: t(lang, 'lab.axis.length') },
      `${t(lang, 'lab.chart.length')}. ${summary(
        (r) =>
          (r.eval?.byLength ?? [])
            .filter((b) => b.count > 0)
            .map((b) => `${b.length}: ${pct(b.exactMatch)}`)
            .join(', ') || '–',
      )}`,
    ]);
  }

  #drawMaps() {
    const ui = this.#ui;
    const lang = this.#lang;
    const a = this.#runs.a;
    const b = this.#runs.b;
    const example = a?.info?.example ?? b?.info?.example ?? null;
    ui.example.textContent = example
      ? t(lang, 'lab.example', { src: example.src, tgt: example.tgt })
      : '';
    const show = (name, r) => {
      const h = ui.map[name];
      const note = ui.mapNote[name];
      const fig = /** @type {HTMLElement} */ (h.parentElement);
      fig.hidden = !r;
      if (!r) return;
      const spec = this.#experiment[r.id];
      const none = spec?.model?.family === 'seq2seq' && spec.model.attention === 'none';
      h.setAttribute('label', t(lang, 'lab.map', { run: t(lang, `lab.run.${r.id}`) }));
      if (none) {
        note.textContent = t(lang, 'lab.map.none', { run: t(lang, `lab.run.${r.id}`) });
        h.hidden = true;
        return;
      }
      h.hidden = false;
      const m = r.attention;
      note.textContent = m
        ? t(lang, 'lab.map.output', {
            run: t(lang, `lab.run.${r.id}`),
            step: m.step,
            output: m.output || '∅',
          })
        : t(lang, 'lab.map.waiting', { run: t(lang, `lab.run.${r.id}`) });
      if (m && h.data?.weights !== m.weights) {
        h.data = {
          weights: m.weights,
          rows: m.rows,
          cols: m.cols,
          rowLabels: m.rowLabels,
          colLabels: m.colLabels,
        };
      }
    };
    show('a', a);
    show('b', b);
    const diffFig = /** @type {HTMLElement} */ (ui.map.diff.parentElement);
    const both = a?.attention && b?.attention;
    const noneIn = [a, b].filter((r) => r && this.#experiment[r.id]?.model?.attention === 'none');
    diffFig.hidden = !a || !b || noneIn.length > 0;
    if (diffFig.hidden) return;
    ui.map.diff.setAttribute('label', t(lang, 'lab.map.diff'));
    const d = both ? attentionDifference(a.attention, b.attention) : null;
    if (!d) {
      ui.map.diff.hidden = true;
      ui.mapNote.diff.textContent = t(lang, both ? 'lab.map.diffShape' : 'lab.map.diffWaiting');
      return;
    }
    ui.map.diff.hidden = false;
    ui.mapNote.diff.textContent = t(lang, d.cut ? 'lab.map.diffCut' : 'lab.map.diffAbout', {
      rows: d.rows,
    });
    const key = `${a.attention.step}:${b.attention.step}:${a.attention.weights.length}:${b.attention.weights.length}`;
    if (ui.map.diff.dataset.key !== key) {
      ui.map.diff.dataset.key = key;
      ui.map.diff.data = d;
    }
  }
}

/**
 * A paper's citation (spec.js attentionEquation: 'Bahdanau et al. 2015, eq. 6') in the lab's
 * language: in Chinese 'Bahdanau 等 2015，式 6', as the lesson cites (lesson-text.js).
 */
export function citeIn(lang, cite) {
  if (lang !== 'zh') return cite;
  return cite.replace(/ et al\. /g, ' 等 ').replace(/, eqs?\. /g, '，式 ');
}

const quiet = () => {}; // a request's rejection: the run reports it as an error message too
const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '–');
