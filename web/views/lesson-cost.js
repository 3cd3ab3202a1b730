// lesson-cost.js: step 5 of the guided lesson, the cost of attention measured live: the two
// string-reversal models (seq-reverse-none: no attention, O(m + t); seq-reverse-attention:
// additive attention, O(m · t)) timed in this browser on inputs of growing length m.
//
//   const cost = new CostMeasure({ lang: 'en', onMeasured: () => … });
//   parent.append(cost.node);
//   cost.start();        // loads both models, warms them up, then times COST_LENGTHS RUNS times
//   cost.dispose();      // stops, frees both models' wasm memory
//
// Shows: what the measurement may conclude (lesson-cost-stats.js costVerdict: the spread is small
// enough, or too large to conclude anything, with what to do), a table (m, ms per run of each
// model, µs per output token of each with its interquartile range: the time divided by the
// model's own output length, which stays flat without attention and grows with m with it) and an
// SVG chart of the per-token medians with their interquartile ranges as whiskers. Each time is a
// batch repeating the run until it lasts MIN_BATCH_MS (browsers coarsen performance.now() to
// 0.1 ms); the plan (warm-up, RUNS interleaved rounds, yielding between batches) is
// lesson-cost-stats.js's measureCost.
// Deliberately a step of the lesson, not a view of <attn-demo>: it times whole model runs, which
// is the library's job here, so it calls the library itself (loadModel, model.run).
// Holds: the inputs (costInput, the same strings in the tests), the batch timer, the DOM, and a
// test hook (setCostTimer) that replaces the batch timer with synthetic timings.

import { init, loadModel } from '../../wasm/index.js';
import { COST_LENGTHS } from '../shared/lesson-steps.js';
import { t } from '../shared/i18n.js';
import '../shared/lesson-text.js'; // the lesson's texts, added to the tables on first use
import { findModel, modelUrl } from '../shared/models.js';
import { el } from '../shared/view-kit.js';
import {
  COST_KEYS,
  MAX_RELATIVE_SPREAD,
  RUNS,
  WARMUP_MS,
  WARMUP_RUNS,
  costRows,
  costVerdict,
  measureCost,
} from './lesson-cost-stats.js';

export const COST_MODELS = Object.freeze({
  none: 'seq-reverse-none',
  attn: 'seq-reverse-attention',
});
export const MIN_BATCH_MS = 15;
const SYMBOLS = 'abcdefghijklmnopqrst'; // the reversal models' alphabet (their cards)
const SVG_NS = 'http://www.w3.org/2000/svg';

/** The input of length m (≤ 60): the first m symbols of one fixed pseudo-random string over a–t. */
export function costInput(m) {
  let x = 12345;
  let s = '';
  for (let i = 0; i < 60; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    s += SYMBOLS[(x >>> 16) % SYMBOLS.length];
  }
  return s.slice(0, Math.max(0, Math.min(60, m)));
}

/** One batch of runs of model on input, at least MIN_BATCH_MS long: the ms of one run. */
function timeBatch(model, input) {
  let runs = 0;
  const t0 = performance.now();
  let dt = 0;
  do {
    model.run(input);
    runs++;
    dt = performance.now() - t0;
  } while (dt < MIN_BATCH_MS);
  return dt / runs;
}

/** A test's batch timer (key, m) → ms per run, in place of the clock; null: the clock. */
let testTimer = null;

/**
 * Test hook: time with fn (key: 'none' | 'attn', m) → ms per run instead of the clock, from the
 * next start(); null restores the clock. The browser tests inject noisy and clean timings.
 */
export function setCostTimer(fn) {
  testTimer = typeof fn === 'function' ? fn : null;
}

/**
 * The chart's geometry (pure): rows [{ m, nonePer, attnPer, noneQ1, noneQ3, attnQ1, attnQ3 }]
 * (µs per token; the quartiles optional) in a width × height box with margins; returns { none,
 * attn } polyline points of the medians, { bars: { none, attn } } the whiskers of the
 * interquartile ranges ([{ x, y1, y3 }]), the x ticks and the y ticks.
 */
export function chartGeometry(
  rows,
  width,
  height,
  pad = { left: 44, right: 12, top: 10, bottom: 34 },
) {
  const xs = COST_LENGTHS;
  const xMax = xs[xs.length - 1];
  const yMaxRaw = Math.max(
    1e-9,
    ...rows
      .flatMap((r) => [r.nonePer, r.attnPer, r.noneQ3, r.attnQ3])
      .filter((v) => Number.isFinite(v)),
  );
  const step = niceStep(yMaxRaw / 4);
  const yMax = Math.ceil(yMaxRaw / step) * step;
  const x = (m) => pad.left + (m / xMax) * (width - pad.left - pad.right);
  const y = (v) => height - pad.bottom - (v / yMax) * (height - pad.top - pad.bottom);
  const line = (key) =>
    rows
      .filter((r) => Number.isFinite(r[key]))
      .map((r) => `${x(r.m).toFixed(1)},${y(r[key]).toFixed(1)}`)
      .join(' ');
  const bars = (key) =>
    rows
      .filter((r) => Number.isFinite(r[`${key}Q1`]) && Number.isFinite(r[`${key}Q3`]))
      .map((r) => ({ m: r.m, x: x(r.m), y1: y(r[`${key}Q1`]), y3: y(r[`${key}Q3`]) }));
  const yTicks = [];
  for (let v = 0; v <= yMax + step / 2; v += step) yTicks.push({ v, y: y(v) });
  return {
    none: line('nonePer'),
    attn: line('attnPer'),
    bars: { none: bars('none'), attn: bars('attn') },
    xTicks: xs.map((m) => ({ m, x: x(m) })),
    yTicks,
    pad,
  };
}

function niceStep(raw) {
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const k of [1, 2, 5, 10]) if (k * p >= raw) return k * p;
  return 10 * p;
}

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

export class CostMeasure {
  #lang;
  #onMeasured;
  #models = null; // { none, attn } once loaded
  #rows = []; // costRows: [{ m, runs, none, attn, noneT, attnT, nonePer, attnPer, noneQ1, … }]
  #round = 0; // rounds timed so far (of RUNS)
  #gen = 0; // bumped by start() and dispose(): a loop of an older generation stops
  #state = 'idle'; // 'loading' | 'warming' | 'running' | 'done' | 'error'
  #error = '';
  #ui = {};

  /** onMeasured(): the first full measurement is on screen. @param {{ lang?: string, onMeasured?: () => void }} [o] */
  constructor({ lang = 'en', onMeasured = () => {} } = {}) {
    this.#lang = lang;
    this.#onMeasured = onMeasured;
    const u = this.#ui;
    u.caption = el('caption');
    u.head = el('tr');
    u.body = el('tbody');
    u.table = el('table', { class: 'lesson-cost-table' }, [
      u.caption,
      el('thead', {}, [u.head]),
      u.body,
    ]);
    u.chart = el('figure', { class: 'lesson-cost-chart' });
    u.status = el('p', { class: 'lesson-cost-status', role: 'status' });
    u.verdict = el('p', { class: 'lesson-cost-verdict', 'aria-live': 'polite', hidden: '' });
    u.again = el('button', { type: 'button', class: 'lesson-cost-again' });
    u.again.addEventListener('click', () => this.start());
    // what the measurement may conclude first, where the eye lands; then the numbers
    this.node = el('div', { class: 'lesson-cost', 'data-state': 'idle' }, [
      u.verdict,
      el('p', { class: 'lesson-cost-bar' }, [u.again, ' ', u.status]),
      el('div', { class: 'lesson-cost-scroll' }, [u.table]),
      u.chart,
    ]);
    this.#draw();
  }

  /** What the finished measurement may conclude (lesson-cost-stats.js costVerdict), or null. */
  get verdict() {
    return this.#state === 'done' ? costVerdict(this.#rows) : null;
  }

  /** The measured rows (copies), for tests and the JSON a teacher may want. */
  get rows() {
    return this.#rows.map((r) => ({ ...r }));
  }

  setLang(lang) {
    this.#lang = lang;
    this.#draw();
  }

  /** Load the models (once), warm them up, and measure every length RUNS times again. */
  async start() {
    const gen = ++this.#gen;
    this.#rows = [];
    this.#round = 0;
    try {
      if (!this.#models) {
        this.#set('loading');
        await init();
        const load = async (name) => {
          const url = modelUrl(findModel(name));
          const response = await fetch(url);
          if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
          return loadModel(new Uint8Array(await response.arrayBuffer()));
        };
        const [none, attn] = await Promise.all([load(COST_MODELS.none), load(COST_MODELS.attn)]);
        if (gen !== this.#gen) {
          none.dispose();
          attn.dispose();
          return;
        }
        this.#models = { none, attn };
      }
      const models = this.#models;
      const inputs = COST_LENGTHS.map(costInput);
      // each model's output length t per input (the per-token times divide by it)
      const outputs = Object.fromEntries(
        COST_KEYS.map((key) => [key, inputs.map((x) => models[key].run(x).output.length)]),
      );
      this.#set('warming');
      const timer = testTimer;
      const samples = await measureCost({
        lengths: COST_LENGTHS,
        // untimed runs of the longest input, in slices of about MIN_BATCH_MS with a turn of
        // the event loop between them (the page stays responsive while it warms up)
        warmUp: async (key) => {
          const longest = inputs[inputs.length - 1];
          const t0 = performance.now();
          for (let n = 0; n < WARMUP_RUNS || performance.now() - t0 < WARMUP_MS; ) {
            if (gen !== this.#gen) return;
            const s0 = performance.now();
            do {
              models[key].run(longest);
              n++;
            } while (performance.now() - s0 < MIN_BATCH_MS);
            await new Promise((resolve) => setTimeout(resolve, 0));
          }
        },
        timeBatch: (key, m) =>
          timer ? timer(key, m) : timeBatch(models[key], inputs[COST_LENGTHS.indexOf(m)]),
        stopped: () => gen !== this.#gen,
        onRound: (done, partial) => {
          this.#round = done;
          this.#rows = costRows(COST_LENGTHS, partial, outputs);
          this.#set('running');
        },
      });
      if (!samples) return;
      this.#set('done');
      this.#onMeasured();
    } catch (err) {
      if (gen !== this.#gen) return;
      this.#error = err?.message ?? String(err);
      this.#set('error');
    }
  }

  /** Stop measuring and free both models. */
  dispose() {
    this.#gen++;
    this.#models?.none.dispose();
    this.#models?.attn.dispose();
    this.#models = null;
  }

  #set(state) {
    this.#state = state;
    this.node.dataset.state = state;
    this.#draw();
  }

  #draw() {
    const u = this.#ui;
    const lang = this.#lang;
    u.caption.textContent = t(lang, 'lesson.cost.caption', {
      none: COST_MODELS.none,
      attn: COST_MODELS.attn,
    });
    u.head.replaceChildren(
      ...['m', 'none', 'attn', 'nonePer', 'attnPer'].map((k) =>
        el('th', { scope: 'col', text: t(lang, `lesson.cost.${k}`) }),
      ),
    );
    const perCell = (r, key) =>
      el('td', { 'data-q1': r[`${key}Q1`].toFixed(2), 'data-q3': r[`${key}Q3`].toFixed(2) }, [
        el('span', { class: 'median', text: r[`${key}Per`].toFixed(1) }),
        el('span', {
          class: 'spread',
          text: `${r[`${key}Q1`].toFixed(1)}–${r[`${key}Q3`].toFixed(1)}`,
        }),
      ]);
    u.body.replaceChildren(
      ...this.#rows.map((r) =>
        el(
          'tr',
          {
            'data-m': String(r.m),
            'data-t-none': String(r.noneT),
            'data-t-attn': String(r.attnT),
            'data-runs': String(r.runs),
          },
          [
            el('th', { scope: 'row', text: String(r.m) }),
            el('td', {}, [el('span', { class: 'median', text: r.none.toFixed(3) })]),
            el('td', {}, [el('span', { class: 'median', text: r.attn.toFixed(3) })]),
            perCell(r, 'none'),
            perCell(r, 'attn'),
          ],
        ),
      ),
    );
    u.again.textContent = t(lang, 'lesson.cost.again');
    const busy = ['loading', 'warming', 'running'].includes(this.#state);
    u.again.disabled = busy;
    u.status.textContent = {
      idle: '',
      loading: t(lang, 'lesson.cost.loading'),
      warming: t(lang, 'measured.cost.warming', { runs: RUNS }),
      running: t(lang, 'measured.cost.running', { done: this.#round, total: RUNS }),
      done: t(lang, 'measured.cost.method', { runs: RUNS, ms: MIN_BATCH_MS }),
      error: t(lang, 'lesson.cost.error', { message: this.#error }),
    }[this.#state];
    u.status.classList.toggle('error', this.#state === 'error');
    this.#drawVerdict();
    this.#chart();
  }

  /** The verdict line: hidden until every round is timed; then clear, or too noisy and why. */
  #drawVerdict() {
    const u = this.#ui;
    const v = this.verdict;
    u.verdict.hidden = !v || v.verdict === 'none';
    u.verdict.dataset.verdict = v?.verdict ?? '';
    if (u.verdict.hidden) {
      u.verdict.textContent = '';
      return;
    }
    const lang = this.#lang;
    const f = (x) => x.toFixed(1);
    u.verdict.textContent = t(lang, `measured.cost.${v.verdict}`, {
      short: v.short.m,
      long: v.long.m,
      shortQ1: f(v.short.q1),
      shortQ3: f(v.short.q3),
      longQ1: f(v.long.q1),
      longQ3: f(v.long.q3),
      m: v.worst.m,
      model: t(lang, `lesson.cost.${v.worst.key}Key`),
      pct: Math.round(100 * v.worst.ratio),
      max: Math.round(100 * MAX_RELATIVE_SPREAD),
    });
  }

  #chart() {
    const u = this.#ui;
    const lang = this.#lang;
    const [w, h] = [520, 220];
    const g = chartGeometry(this.#rows, w, h);
    const root = svg('svg', {
      viewBox: `0 0 ${w} ${h}`,
      role: 'img',
      'aria-label': t(lang, 'lesson.cost.chart'),
    });
    const { left, right, top, bottom } = g.pad;
    root.append(
      svg('line', { x1: left, x2: w - right, y1: h - bottom, y2: h - bottom, class: 'axis' }),
    );
    root.append(svg('line', { x1: left, x2: left, y1: top, y2: h - bottom, class: 'axis' }));
    for (const tick of g.xTicks)
      root.append(
        svg(
          'text',
          { x: tick.x, y: h - bottom + 14, 'text-anchor': 'middle', class: 'tick' },
          String(tick.m),
        ),
      );
    root.append(
      svg(
        'text',
        { x: (left + w - right) / 2, y: h - 4, 'text-anchor': 'middle', class: 'tick' },
        'm',
      ),
    );
    for (const tick of g.yTicks) {
      root.append(svg('line', { x1: left, x2: w - right, y1: tick.y, y2: tick.y, class: 'grid' }));
      root.append(
        svg(
          'text',
          { x: left - 6, y: tick.y + 4, 'text-anchor': 'end', class: 'tick' },
          String(+tick.v.toFixed(3)),
        ),
      );
    }
    for (const key of COST_KEYS) {
      // the interquartile range of each length's RUNS times, a whisker with caps
      for (const b of g.bars[key]) {
        const d = `M${b.x - 4},${b.y1}h8M${b.x},${b.y1}V${b.y3}M${b.x - 4},${b.y3}h8`;
        root.append(svg('path', { d, class: `spread ${key}`, 'data-m': b.m }));
      }
      if (g[key])
        root.append(svg('polyline', { points: g[key], class: `line ${key}`, fill: 'none' }));
    }
    const caption = el('figcaption', {}, [
      el('span', { text: `${t(lang, 'lesson.cost.chart')}: ` }),
      el('span', { class: 'key none', text: `— ${t(lang, 'lesson.cost.noneKey')}` }),
      ' ',
      el('span', { class: 'key attn', text: `— ${t(lang, 'lesson.cost.attnKey')}` }),
      ' ',
      el('span', { text: t(lang, 'measured.cost.whiskers', { runs: RUNS }) }),
    ]);
    u.chart.replaceChildren(root, caption);
  }
}
