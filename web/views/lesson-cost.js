// lesson-cost.js: step 5 of the guided lesson, the cost of attention measured live: the two
// string-reversal models (seq-reverse-none: no attention, O(m + t); seq-reverse-attention:
// additive attention, O(m · t)) timed in this browser on inputs of growing length m.
//
//   const cost = new CostMeasure({ lang: 'en', onMeasured: () => … });
//   parent.append(cost.node);
//   cost.start();        // loads both models, then measures COST_LENGTHS one by one
//   cost.dispose();      // stops, frees both models' wasm memory
//
// Shows: a table (m, ms per run of each model, µs per output token of each: the time divided by
// the model's own output length, which stays flat without attention and grows with m with it)
// and an SVG chart of the per-token times. Each time is the median of BATCHES batches, a batch
// repeating the run until it lasts MIN_BATCH_MS (browsers coarsen performance.now() to 0.1 ms).
// Deliberately a step of the lesson, not a view of <attn-demo>: it times whole model runs, which
// is the library's job here, so it calls the library itself (loadModel, model.run).
// Holds: the inputs (costInput, the same strings in the tests), the timing loop, the DOM.

import { init, loadModel } from '../../wasm/index.js';
import { COST_LENGTHS } from '../shared/lesson-steps.js';
import { t } from '../shared/i18n.js';
import '../shared/lesson-text.js'; // the lesson's texts, added to the tables on first use
import { findModel, modelUrl } from '../shared/models.js';
import { el } from '../shared/view-kit.js';

export const COST_MODELS = Object.freeze({
  none: 'seq-reverse-none',
  attn: 'seq-reverse-attention',
});
export const BATCHES = 5;
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

/** The median of numbers (sorted copy). */
export function median(values) {
  const v = [...values].sort((a, b) => a - b);
  const n = v.length;
  return n === 0 ? NaN : n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/**
 * The chart's geometry (pure): rows [{ m, nonePer, attnPer }] (µs per token) in a width × height
 * box with margins; returns { none, attn } polyline points, the x ticks and the y ticks.
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
    ...rows.flatMap((r) => [r.nonePer, r.attnPer]).filter(Number.isFinite),
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
  const yTicks = [];
  for (let v = 0; v <= yMax + step / 2; v += step) yTicks.push({ v, y: y(v) });
  return {
    none: line('nonePer'),
    attn: line('attnPer'),
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
  #rows = []; // [{ m, none, attn, noneT, attnT, nonePer, attnPer }]
  #gen = 0; // bumped by start() and dispose(): a loop of an older generation stops
  #state = 'idle'; // 'loading' | 'running' | 'done' | 'error'
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
    u.again = el('button', { type: 'button', class: 'lesson-cost-again' });
    u.again.addEventListener('click', () => this.start());
    this.node = el('div', { class: 'lesson-cost', 'data-state': 'idle' }, [
      el('div', { class: 'lesson-cost-scroll' }, [u.table]),
      u.chart,
      el('p', {}, [u.again, ' ', u.status]),
    ]);
    this.#draw();
  }

  /** The measured rows (copies), for tests and the JSON a teacher may want. */
  get rows() {
    return this.#rows.map((r) => ({ ...r }));
  }

  setLang(lang) {
    this.#lang = lang;
    this.#draw();
  }

  /** Load the models (once) and measure every length again. */
  async start() {
    const gen = ++this.#gen;
    this.#rows = [];
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
      this.#set('running');
      for (const m of COST_LENGTHS) {
        const input = costInput(m);
        const row = { m };
        for (const key of ['none', 'attn']) {
          const model = this.#models[key];
          row[`${key}T`] = model.run(input).output.length; // warm-up, and the output length t
          const batches = [];
          for (let b = 0; b < BATCHES; b++) {
            await new Promise((resolve) => setTimeout(resolve, 0)); // let the page breathe
            if (gen !== this.#gen) return;
            let runs = 0;
            const t0 = performance.now();
            let dt = 0;
            do {
              model.run(input);
              runs++;
              dt = performance.now() - t0;
            } while (dt < MIN_BATCH_MS);
            batches.push(dt / runs);
          }
          row[key] = median(batches);
          row[`${key}Per`] = (1000 * row[key]) / Math.max(1, row[`${key}T`]);
        }
        this.#rows.push(row);
        this.#draw();
      }
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
    u.body.replaceChildren(
      ...this.#rows.map((r) =>
        el(
          'tr',
          { 'data-m': String(r.m), 'data-t-none': String(r.noneT), 'data-t-attn': String(r.attnT) },
          [
            el('th', { scope: 'row', text: String(r.m) }),
            el('td', { text: r.none.toFixed(3) }),
            el('td', { text: r.attn.toFixed(3) }),
            el('td', { text: r.nonePer.toFixed(1) }),
            el('td', { text: r.attnPer.toFixed(1) }),
          ],
        ),
      ),
    );
    u.again.textContent = t(lang, 'lesson.cost.again');
    u.again.disabled = this.#state === 'loading' || this.#state === 'running';
    u.status.textContent = {
      idle: '',
      loading: t(lang, 'lesson.cost.loading'),
      running: t(lang, 'lesson.cost.running', {
        done: this.#rows.length,
        total: COST_LENGTHS.length,
      }),
      done: t(lang, 'lesson.cost.done', { batches: BATCHES, ms: MIN_BATCH_MS }),
      error: t(lang, 'lesson.cost.error', { message: this.#error }),
    }[this.#state];
    u.status.classList.toggle('error', this.#state === 'error');
    this.#chart();
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
    for (const key of ['none', 'attn']) {
      if (g[key])
        root.append(svg('polyline', { points: g[key], class: `line ${key}`, fill: 'none' }));
    }
    const caption = el('figcaption', {}, [
      el('span', { text: `${t(lang, 'lesson.cost.chart')}: ` }),
      el('span', { class: 'key none', text: `— ${t(lang, 'lesson.cost.noneKey')}` }),
      ' ',
      el('span', { class: 'key attn', text: `— ${t(lang, 'lesson.cost.attnKey')}` }),
    ]);
    u.chart.replaceChildren(root, caption);
  }
}
