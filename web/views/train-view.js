// train-view.js: the page's Train view. Starts web/train-worker.js (which does all the training)
// and draws what it reports: the loss curve (loss-chart.js on a canvas), the alignment of a fixed
// example (<attn-heatmap>), the decoded output and the held-out exact match, with Start / Pause /
// Resume / Reset and a validated learning-rate and batch-size form.
//
//   import { TrainView } from './train-view.js';
//   const view = new TrainView(document.getElementById('train-view'), {
//     lang: 'en', settings: { lr: 0.005, batch: 32 }, onSettings: (s) => { ...update the hash... },
//   });
//   view.show();   // the worker starts on the first show (nothing runs until the view is opened)
//
// Holds: the worker's lifecycle, the message protocol's page side, the run's history (loss
// points, evaluations) and the drawing, batched to one animation frame however many messages
// arrived. Deliberately does no training and calls no attnlab function: the worker hands it
// plain arrays. Events on the root (for embedding and tests; detail = the worker's message):
// 'train-progress' { step, loss, elapsed }, 'train-snapshot' { step, output, weights, rows,
// cols, ... }, 'train-eval' { step, exactMatch, reached, ... }, 'train-state' { running, step }.
// The root's data-state is loading | ready | running | paused | error, data-step the last step.

import { checkTrainSetting, TRAIN_DEFAULTS } from '../shared/app-state.js';
import { t } from '../shared/i18n.js';
import { drawLossChart } from '../shared/loss-chart.js';

/** Loss points kept; past this, neighbours are averaged in pairs (the chart stays cheap). */
export const MAX_POINTS = 4000;
/** The worker averages the loss over this many steps per point (train-worker.js PROGRESS_STEPS). */
export const STEPS_PER_POINT = 10;
const CHART_HEIGHT = 240; // CSS pixels
const RATE_WINDOW_MS = 3000; // steps/s over the last few seconds of training

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const seconds = (ms) => (ms / 1000).toFixed(1);

export class TrainView {
  #root;
  #ui;
  #lang;
  #settings;
  #onSettings;
  #worker = null;
  #state = 'loading'; // loading | ready | running | paused | error
  #error = '';
  #info = null; // the worker's 'ready' message
  #step = 0;
  #elapsed = 0;
  #loss = []; // [[step, mean loss]]
  #exact = []; // [[step, exact match]]
  #lastEval = null;
  #snapshot = null;
  #rate = []; // [[elapsed ms, step]] over RATE_WINDOW_MS
  #invalid = new Set(); // form fields holding a refused value
  #frame = 0;
  #visible = false;
  #resize = null;
  #chartWidth = 0;

  /**
   * @param {any} root where the view draws (its children are found by selector)
   * @param {{ lang?: string, settings?: { lr: number, batch: number },
   *   onSettings?: (settings: { lr: number, batch: number }) => void }} [options]
   */
  constructor(root, { lang = 'en', settings = TRAIN_DEFAULTS, onSettings = () => {} } = {}) {
    this.#root = root;
    this.#lang = lang;
    this.#settings = { ...TRAIN_DEFAULTS, ...settings };
    this.#onSettings = onSettings;
    const $ = (id) => root.querySelector(`#${id}`);
    this.#ui = {
      form: $('train-controls'),
      lr: $('train-lr'),
      lrError: $('train-lr-error'),
      batch: $('train-batch'),
      batchError: $('train-batch-error'),
      log: $('train-log'),
      run: $('train-run'),
      pause: $('train-pause'),
      reset: $('train-reset'),
      status: $('train-status'),
      step: $('train-step'),
      stepLabel: $('train-step-label'),
      loss: $('train-loss'),
      lossLabel: $('train-loss-label'),
      elapsed: $('train-elapsed'),
      elapsedLabel: $('train-elapsed-label'),
      rate: $('train-rate'),
      exact: $('train-exact'),
      exactLabel: $('train-exact-label'),
      output: $('train-output'),
      outputLabel: $('train-output-label'),
      expected: $('train-expected'),
      chartBox: $('train-chart-box'),
      chart: $('train-chart'),
      heatmap: $('train-heatmap'),
      background: $('train-background'), // optional: what runs while the view is hidden
      spikes: $('train-spikes'), // optional: why the loss jumps
    };
    this.#writeInputs();
    this.#wire();
    this.#render();
  }

  /** Show the view; the first call starts the worker. */
  show() {
    this.#visible = true;
    if (!this.#worker && this.#state !== 'error') this.#startWorker();
    if (!this.#resize) {
      this.#resize = new ResizeObserver(() => this.#schedule());
      this.#resize.observe(this.#ui.chartBox);
    }
    this.#schedule();
  }

  /** Hidden views skip drawing; training goes on in the worker (the page marks the Train tab while
   * it runs: 'train-state' events, web/main.js). */
  hide() {
    this.#visible = false;
  }

  setLang(lang) {
    this.#lang = lang;
    this.#render();
  }

  /** New settings from outside (the URL): shown in the form and sent to the worker. */
  setSettings(settings) {
    const next = { ...this.#settings, ...settings };
    if (next.lr === this.#settings.lr && next.batch === this.#settings.batch) return;
    this.#settings = next;
    this.#invalid.clear();
    this.#writeInputs();
    this.#send({ type: 'settings', ...this.#settings });
    this.#render();
  }

  get settings() {
    return { ...this.#settings };
  }

  /** Stop the worker and let go of everything (the view can be shown again: a fresh worker). */
  dispose() {
    this.#worker?.terminate();
    this.#worker = null;
    this.#resize?.disconnect();
    this.#resize = null;
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#state = 'loading';
  }

  #startWorker() {
    let worker;
    try {
      worker = new Worker(new URL('../train-worker.js', import.meta.url), {
        type: 'module',
        name: 'attnlab-train',
      });
    } catch {
      this.#fail(t(this.#lang, 'train.noWorker'));
      return;
    }
    this.#worker = worker;
    worker.onmessage = (event) => this.#onMessage(event.data);
    worker.onerror = (event) => {
      event.preventDefault?.(); // reported here, plainly, instead of as an uncaught error
      this.#fail(event.message || t(this.#lang, 'train.noWorker'));
    };
    worker.onmessageerror = () =>
      this.#fail('a message from the training worker could not be read');
    this.#state = 'loading';
    this.#send({ type: 'init' });
    this.#render();
  }

  #send(msg) {
    this.#worker?.postMessage(msg);
  }

  #fail(message) {
    this.#state = 'error';
    this.#error = message;
    this.#worker?.terminate();
    this.#worker = null;
    this.#render();
  }

  #emit(name, detail) {
    this.#root.dispatchEvent(new CustomEvent(name, { detail }));
  }

  #onMessage(msg) {
    switch (msg?.type) {
      case 'ready':
        this.#info = msg;
        if (this.#state === 'loading') this.#state = 'ready';
        break;
      case 'progress':
        this.#step = msg.step;
        this.#elapsed = msg.elapsed;
        this.#loss.push([msg.step, msg.loss]);
        if (this.#loss.length > MAX_POINTS) this.#loss = halve(this.#loss);
        this.#rate.push([msg.elapsed, msg.step]);
        while (this.#rate.length > 2 && msg.elapsed - this.#rate[0][0] > RATE_WINDOW_MS)
          this.#rate.shift();
        this.#emit('train-progress', msg);
        break;
      case 'snapshot':
        this.#snapshot = msg;
        this.#step = Math.max(this.#step, msg.step);
        this.#emit('train-snapshot', msg);
        break;
      case 'eval':
        this.#lastEval = msg;
        if (msg.step === 0) this.#exact = [[0, msg.exactMatch]];
        else this.#exact.push([msg.step, msg.exactMatch]);
        this.#emit('train-eval', msg);
        break;
      case 'state':
        this.#step = msg.step;
        this.#elapsed = msg.elapsed;
        if (msg.step === 0 && !msg.running) {
          // a reset (or the first report): a new run
          this.#loss = [];
          this.#rate = [];
          if (this.#lastEval?.step !== 0) this.#exact = [];
        }
        // a failed step stops the run; keep saying why until Resume or Reset
        if (this.#state !== 'error' && !(this.#state === 'error-run' && !msg.running)) {
          this.#state = msg.running ? 'running' : msg.step > 0 ? 'paused' : 'ready';
        }
        this.#emit('train-state', msg);
        break;
      case 'error':
        this.#error = msg.message;
        this.#state = 'error-run';
        break;
      default:
        return;
    }
    this.#schedule();
  }

  #wire() {
    const ui = this.#ui;
    ui.form.addEventListener('submit', (event) => event.preventDefault());
    for (const key of ['lr', 'batch']) {
      ui[key].addEventListener('input', () => {
        const r = checkTrainSetting(key, ui[key].value);
        if (r.ok) {
          this.#invalid.delete(key);
          if (r.value !== this.#settings[key]) {
            this.#settings = { ...this.#settings, [key]: r.value };
            this.#send({ type: 'settings', ...this.#settings });
            this.#onSettings(this.settings);
          }
        } else {
          this.#invalid.add(key);
        }
        this.#renderControls();
      });
      // Leaving a refused field puts the setting in use back, so what is shown is what runs.
      ui[key].addEventListener('change', () => {
        if (!this.#invalid.has(key)) return;
        this.#invalid.delete(key);
        this.#writeInputs();
        this.#renderControls();
      });
    }
    ui.log.addEventListener('change', () => this.#schedule());
    ui.run.addEventListener('click', () => {
      if (this.#invalid.size) return;
      this.#send({ type: 'start', ...this.#settings });
    });
    ui.pause.addEventListener('click', () => this.#send({ type: 'pause' }));
    ui.reset.addEventListener('click', () => {
      if (this.#state === 'error-run') this.#state = 'paused';
      this.#error = '';
      this.#send({ type: 'reset' });
    });
  }

  #writeInputs() {
    this.#ui.lr.value = String(this.#settings.lr);
    this.#ui.batch.value = String(this.#settings.batch);
  }

  #schedule() {
    if (!this.#frame) this.#frame = requestAnimationFrame(() => this.#render());
  }

  /** Everything on screen from the current state (one frame's worth of messages at a time). */
  #render() {
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    const lang = this.#lang;
    const ui = this.#ui;
    const root = this.#root;
    const state = this.#state === 'error-run' ? 'error' : this.#state;
    root.dataset.state = state;
    root.dataset.step = String(this.#step);
    const reached = this.#lastEval?.reached;
    if (reached) root.dataset.reached = String(reached.elapsed / 1000);
    else delete root.dataset.reached;

    this.#renderControls();
    const example = this.#info?.example ?? '';
    ui.stepLabel.textContent = t(lang, 'train.step');
    ui.lossLabel.textContent = t(lang, 'train.loss', { n: STEPS_PER_POINT });
    ui.elapsedLabel.textContent = t(lang, 'train.elapsed');
    ui.exactLabel.textContent = t(lang, 'train.exact', { count: this.#info?.evalCount ?? 200 });
    ui.outputLabel.textContent = t(lang, 'train.output', { example });
    ui.step.textContent = String(this.#step);
    const lastLoss = this.#loss.length ? this.#loss[this.#loss.length - 1][1] : null;
    ui.loss.textContent = lastLoss === null ? '–' : lastLoss.toPrecision(3);
    ui.elapsed.textContent = t(lang, 'train.seconds', { s: seconds(this.#elapsed) });
    const r = this.#rate;
    const rate =
      r.length >= 2 && r[r.length - 1][0] > r[0][0]
        ? (1000 * (r[r.length - 1][1] - r[0][1])) / (r[r.length - 1][0] - r[0][0])
        : null;
    ui.rate.textContent =
      rate === null || state !== 'running'
        ? ''
        : `(${t(lang, 'train.rate', { rate: rate.toFixed(0) })})`;
    ui.exact.textContent = this.#lastEval ? pct(this.#lastEval.exactMatch) : '–';
    const snap = this.#snapshot;
    ui.output.textContent = snap ? snap.output || t(lang, 'output.none') : '–';
    const target = this.#info?.target ?? '';
    ui.expected.textContent = target
      ? `(${t(lang, 'train.expected', { target })}${snap?.output === target ? ' ✓' : ''})`
      : '';

    let status;
    if (state === 'error') status = t(lang, 'train.error', { message: this.#error });
    else if (state === 'loading') status = t(lang, 'train.loading');
    else if (state === 'running') status = t(lang, 'train.running');
    else if (state === 'paused') status = t(lang, 'train.paused', { step: this.#step });
    else status = t(lang, 'train.ready');
    if (reached && state !== 'error') {
      status += ` ${t(lang, 'train.reached', { pct: '90%', seconds: seconds(reached.elapsed), step: reached.step })}`;
    }
    ui.status.textContent = status;
    if (ui.background) ui.background.textContent = t(lang, 'train.background');
    if (ui.spikes) ui.spikes.textContent = t(lang, 'train.spikes', { steps: STEPS_PER_POINT });
    ui.status.classList.toggle('error', state === 'error');

    const hm = ui.heatmap;
    hm.setAttribute('label', t(lang, 'train.heatmap', { example }));
    hm.setAttribute('lang', lang);
    if (snap && hm.data?.weights !== snap.weights) {
      hm.data = {
        weights: snap.weights,
        rows: snap.rows,
        cols: snap.cols,
        rowLabels: snap.rowLabels,
        colLabels: snap.colLabels,
      };
    }
    if (this.#visible) this.#drawChart();
  }

  #renderControls() {
    const ui = this.#ui;
    const lang = this.#lang;
    const state = this.#state;
    for (const key of ['lr', 'batch']) {
      const bad = this.#invalid.has(key);
      const err = ui[`${key}Error`];
      ui[key].setAttribute('aria-invalid', String(bad));
      err.hidden = !bad;
      if (bad) {
        const r = checkTrainSetting(key, ui[key].value);
        err.textContent = t(lang, r.error, { min: r.min, max: r.max });
      } else {
        err.textContent = '';
      }
    }
    const ready = state === 'ready' || state === 'paused' || state === 'error-run';
    ui.run.textContent = t(
      lang,
      state === 'paused' || state === 'error-run' ? 'train.resume' : 'train.start',
    );
    ui.run.disabled = !ready || this.#invalid.size > 0;
    ui.pause.textContent = t(lang, 'train.pause');
    ui.pause.disabled = state !== 'running';
    ui.reset.textContent = t(lang, 'train.reset');
    ui.reset.disabled = !(
      state === 'running' ||
      state === 'paused' ||
      state === 'error-run' ||
      (state === 'ready' && this.#step > 0)
    );
  }

  #drawChart() {
    const { chart, chartBox, log } = this.#ui;
    const width = Math.max(240, Math.floor(chartBox.clientWidth));
    const dpr = window.devicePixelRatio || 1;
    if (width !== this.#chartWidth || chart.height !== Math.round(CHART_HEIGHT * dpr)) {
      this.#chartWidth = width;
      chart.width = Math.round(width * dpr);
      chart.height = Math.round(CHART_HEIGHT * dpr);
      chart.style.width = `${width}px`;
      chart.style.height = `${CHART_HEIGHT}px`;
    }
    const ctx = chart.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const css = getComputedStyle(this.#root);
    const v = (name, fallback) => css.getPropertyValue(name).trim() || fallback;
    const lang = this.#lang;
    drawLossChart(
      ctx,
      { loss: this.#loss, exact: this.#exact },
      {
        width,
        height: CHART_HEIGHT,
        log: log.checked,
        font: `12px ${css.fontFamily}`,
        colors: {
          background: v('--surface', '#fff'),
          text: v('--text', '#000'),
          grid: v('--border', '#ccc'),
          loss: v('--accent', '#3b528b'),
          exact: v('--train-exact', '#b8641c'),
        },
        labels: {
          x: t(lang, 'train.axisStep'),
          loss: t(lang, 'train.axisLoss'),
          lossLog: t(lang, 'train.axisLossLog'),
          exact: t(lang, 'train.axisExact'),
          empty: this.#loss.length ? '' : t(lang, 'train.chartEmpty'),
        },
      },
    );
    const lastLoss = this.#loss.length ? this.#loss[this.#loss.length - 1][1].toPrecision(3) : '–';
    chart.setAttribute(
      'aria-label',
      t(lang, 'train.chartAlt', {
        step: this.#step,
        loss: lastLoss,
        exact: this.#lastEval ? pct(this.#lastEval.exactMatch) : '–',
      }),
    );
  }
}

/** Average neighbouring points in pairs (the step of the later one). */
function halve(points) {
  const out = [];
  for (let i = 0; i + 1 < points.length; i += 2)
    out.push([points[i + 1][0], (points[i][1] + points[i + 1][1]) / 2]);
  if (points.length % 2) out.push(points[points.length - 1]);
  return out;
}
