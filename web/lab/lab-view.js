// lab-view.js: <attn-lab>'s wiring (web/elements/attn-lab.js, a thin shell that imports this
// module on first connect, so a page of other elements downloads none of the lab). See
// attn-lab.js for the element's attributes, properties, methods and events; this module
// implements them on the host element it is given, along the lab's data flow:
//
//   attributes, the form (lab-form.js) → the experiment (spec.js checkExperiment)
//     → the runs (lab-runs.js: workers, history, checkpoints) → the drawing (lab-paint.js)
//
// Holds: the experiment, the custom pairs in use, the language, the listeners, and the one
// render a frame however many messages arrive. Deliberately holds no DOM building (lab-form.js,
// lab-paint.js), no workers (lab-runs.js), no training (the workers), no validation (spec.js),
// no data (tasks.js, pairs.js), no chart maths (lab-chart.js), no CSS (lab-style.js) and no
// strings (lab-text.js, through i18n.js). Text from the URL, a file or a model is only ever set
// as textContent. No module of the lab imports this one.

import {
  DEFAULT_EXPERIMENT,
  PRESETS,
  checkExperiment,
  formatLabParams,
  parameterCount,
  parseLabParams,
} from './spec.js';
import { makeTask } from './tasks.js';
import { MAX_INPUT, pairsHash, parsePairs } from './pairs.js';
import { PairsParser, problemOf } from './pairs-client.js';
import './lab-text.js';
import {
  MAX_FILE_BYTES,
  MAX_TIMINGS,
  RUNS,
  SAVE_MS,
  clone,
  presetExperiment,
} from './lab-constants.js';
import { STYLE } from './lab-style.js';
import { buildForm, paintForm, readForm, writeForm } from './lab-form.js';
import { LabRuns } from './lab-runs.js';
import {
  buildControls,
  buildResults,
  drawCharts,
  drawMaps,
  paintControls,
  writePaintLabels,
} from './lab-paint.js';
import { resolveLang, t } from '../shared/i18n.js';
import { downloadBlob, el } from '../shared/view-kit.js';
import { define as defineHeatmap } from '../elements/attention-heatmap.js';

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
  /** the parse running in pairs-worker.js: { rows, done, total } (the progress bar), or null */
  #pairsReading = /** @type {any} */ (null);
  #parser = new PairsParser();
  #task = /** @type {any} */ (null); // makeTask of the current task spec (parameter counts)
  #taskKey = '';
  #ui = /** @type {any} */ ({});
  /** @type {LabRuns} */
  #runs;
  #frame = 0;
  #listeners = /** @type {AbortController | null} */ (null);
  #reflecting = false;
  #resize = /** @type {ResizeObserver | null} */ (null);
  #saveTimer = /** @type {any} */ (0);
  #styleKey = 0; // bumped when the colours may have changed (light/dark), so the charts redraw

  /** @param {HTMLElement} host the <attn-lab> element (its attributes, dataset, events, shadow root) */
  constructor(host) {
    this.#host = host;
    this.#runs = new LabRuns(host, {
      experiment: () => this.#experiment,
      custom: () => this.#custom,
      pairsFit: () => this.#pairsFit(),
      changed: () => this.#schedule(),
    });
    const ui = this.#ui;
    const { top, columns } = buildForm(ui);
    const controls = buildControls(ui);
    const results = buildResults(ui);
    // One screen, as TensorFlow Playground's: the task and presets on top, A and B as compact
    // columns (their numbers, their settings one click away, their attention maps) either side of
    // the middle (Start, the charts, A − B); a phone stacks them, Start and the charts first after
    // the task's one-line summary (closed there: lab-style.js, the layouts by container query).
    for (const id of RUNS) {
      ui.run[id].live.append(ui.stat[id]);
      columns[id].append(ui.mapFigure[id]);
    }
    if (matchMedia('(max-width: 40rem)').matches) ui.top.open = false;
    ui.form = el('form', { class: 'lab', novalidate: '' }, [
      top,
      el('div', { class: 'mid' }, [controls, results]),
      columns.a,
      columns.b,
      ui.refusedNote,
    ]);
    /** @type {ShadowRoot} */ (host.shadowRoot).append(el('style', { text: STYLE }), ui.form);
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
    this.#runs.init(['a', 'b']);
    this.#saveTimer = setInterval(() => {
      if (this.#runs.running) this.#runs.save();
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
    for (const id of RUNS) this.#runs.dispose(id);
    this.#runs.setRunning(false);
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
      this.#runs.init(this.#changedRuns(JSON.parse(before)));
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
    this.#runs.init(this.#changedRuns(before));
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
      this.#usePairs(value, '', true);
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
    return this.#runs.summary();
  }

  /** Every loss of run id so far (a copy), or null when that run does not exist. */
  losses(id) {
    return this.#runs.losses(id);
  }

  /** Start every run; resolves once each worker has said it runs (or failed). */
  start() {
    return this.#runs.start();
  }

  /** Pause every run; resolves once each worker has stopped (its last progress is in). */
  pause() {
    return this.#runs.pause();
  }

  /** One step of every run (they stay paused); resolves once each has done it. */
  step() {
    return this.#runs.step();
  }

  /** Every run back to its initial weights at step 0; resolves once each worker has done it. */
  reset() {
    return this.#runs.reset();
  }

  /** Resolves once every run is ready (or failed). */
  whenReady() {
    return this.#runs.whenReady();
  }

  /** Resolves once every run has reported step n. */
  whenSteps(n) {
    return this.#runs.whenSteps(n);
  }

  // ---- the runs ------------------------------------------------------------------------------

  /** Which runs a change from `before` to the current experiment touches (the task: both). */
  #changedRuns(before) {
    const now = this.#experiment;
    if (JSON.stringify(before?.task) !== JSON.stringify(now.task)) return ['a', 'b'];
    return RUNS.filter((id) => JSON.stringify(before?.[id]) !== JSON.stringify(now[id]));
  }

  // ---- building and wiring -------------------------------------------------------------------

  #wire(signal) {
    const ui = this.#ui;
    const opts = { signal };
    ui.form.addEventListener('submit', (e) => e.preventDefault(), opts);
    ui.form.addEventListener(
      'change',
      (e) => {
        const target = /** @type {HTMLElement} */ (e.target);
        if (
          target === ui.logScale ||
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
    ui.start.addEventListener(
      'click',
      () => (this.#runs.running ? this.pause() : this.start()),
      opts,
    );
    ui.stepBtn.addEventListener('click', () => this.step(), opts);
    ui.reset.addEventListener('click', () => this.reset(), opts);
    ui.resumeYes.addEventListener('click', () => this.#runs.resume(), opts);
    ui.resumeNo.addEventListener('click', () => this.#runs.discard(), opts);
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
    this.#userExperiment(readForm(this.#ui, this.#experiment));
  }

  /** A person set the experiment: check it, show it, restart what changed, reflect and announce it. */
  #userExperiment(value) {
    const before = this.#experiment;
    const got = checkExperiment(value);
    this.#experiment = got.experiment;
    this.#refused = got.refused;
    this.#writeForm();
    const changed = this.#changedRuns(before);
    if (changed.length) this.#runs.init(changed);
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
    if (file.size > MAX_INPUT) {
      // refused by its size: not one byte is read (pairs.js would refuse it too, after reading)
      this.#pairsProblem = { problem: 'too-large', line: 0, limit: MAX_INPUT, message: '' };
      this.#host.dataset.pairsProblem = 'too-large';
      this.#schedule();
      return;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    this.#usePairs(bytes, file.name);
  }

  /** Parse pasted text or a file's bytes (pairs.js; in pairs-worker.js unless sync, the property
   * setter's case); the pairs in use, or the problem shown. A new parse cancels the running one. */
  async #usePairs(input, name, sync = false) {
    const level = this.#experiment.task.level;
    this.#parser.cancel();
    this.#pairsReading = sync ? null : { rows: 0, done: 0, total: input.length };
    this.#schedule();
    try {
      const got = sync
        ? parsePairs(input, { level })
        : await this.#parser.parse(input, {
            level,
            onProgress: (p) => {
              this.#pairsReading = p;
              this.#schedule();
            },
          });
      this.#pairsReading = null;
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
      if (err?.name === 'AbortError') return; // a newer parse took over
      this.#pairsReading = null;
      this.#pairsProblem = problemOf(err);
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
      this.#runs.init(['a', 'b']);
    }
    this.#schedule();
  }

  /** Are the pairs in use the ones the experiment names (its data hash; none named: any)? */
  #pairsFit() {
    const task = this.#experiment.task;
    return Boolean(this.#custom) && (!task.data || task.data === this.#custom?.hash);
  }

  // ---- download and load ---------------------------------------------------------------------

  async #download(id) {
    const r = this.#runs.byId[id];
    const u = this.#ui.run[id];
    if (!r || r.state === 'loading') return;
    const dtype = u.dtype.value;
    u.fileNote.textContent = t(this.#lang, 'lab.file.exporting');
    try {
      const { name, bytes } = await this.#runs.export(id, dtype);
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
    const task = this.#currentTask();
    let n = 0;
    try {
      n = task ? parameterCount(this.#experiment[id].model, task) : 0;
    } catch {
      /* the worker says what is wrong */
    }
    const r = this.#runs.loadWeights(id, bytes, n);
    r.loaded = file.name;
    u.fileNote.textContent = t(this.#lang, 'lab.file.loading', { name: file.name });
    this.#runs
      .when(() => r.state !== 'loading')
      .then(() => {
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

  #writeForm() {
    writeForm(this.#ui, this.#experiment, this.#lang);
    writePaintLabels(this.#ui, this.#lang);
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
    const s = {
      lang: this.#lang,
      experiment: this.#experiment,
      runs: this.#runs.byId,
      live: this.#runs.live(true),
      running: this.#runs.running,
      offer: this.#runs.offer,
      task: this.#currentTask(),
      custom: this.#custom,
      pairsProblem: this.#pairsProblem,
      pairsReading: this.#pairsReading,
      waiting: this.#experiment.task.name === 'custom' && !this.#pairsFit(),
      refused: this.#refused,
    };
    paintForm(this.#ui, s);
    paintControls(this.#ui, this.#host, s);
    drawCharts(this.#ui, this.#host, s.runs, s.lang, this.#styleKey);
    drawMaps(this.#ui, s.runs, s.experiment, s.lang);
    this.timings.push(performance.now() - t0);
    if (this.timings.length > MAX_TIMINGS) this.timings.shift();
  }
}
