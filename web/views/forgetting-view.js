// forgetting-view.js: the Forgetting view of <attn-demo>: how a seq2seq model without attention
// forgets long inputs and one with attention does not (Bahdanau et al. 2015, Fig. 2; Luong et
// al. 2015, Fig. 6), on string reversal (web/data/sequences.js), two models of equal size.
//
//   const view = new ForgettingView();   // events (view-context.js): view-change { input, step }, …
//   host.append(view.node);
//   view.update(ctx);   // from <attn-demo>: the pair's models and curve (ctx.models), then render()
//   view.render({ curve, runs: [{ name, attention, result }], input, lang, fixture });
//
// Shows: the length curve (per-token accuracy against input length on held-out strings, one line
// per model, chance dotted; the JSON that scripts/train/sequences.mjs after() writes, checked by
// checkCurve) as an SVG chart: arrow keys move a cursor along the lengths and its accuracies are
// announced, a table is the text alternative, SVG/PNG of the chart and CSV/JSON of its numbers
// download; then one input (a random held-out string of 5–60 symbols a–t on request) run through
// both models: each output with its wrong characters marked, its per-token accuracy on this
// input, and the attention model's alignment as an <attn-heatmap> (cell reading, text
// alternative, PNG/SVG/CSV/JSON).
// Holds: the pure helpers (tested in Node: checkCurve, compareReversal, reversePair,
// nearestLength, curveCSV, randomReversalInput), the view's DOM and its wiring (update).
// Deliberately does not know about wasm or fetch: update asks <attn-demo>'s ctx for the models
// and the curve (its model cache) and runs them through ctx.run; render draws plain results.

import { generateSequences } from '../data/sequences.js';
import { colon, sentences, t } from '../shared/i18n.js';
import { findModel, modelsFor } from '../shared/models.js';
import { modelError } from '../shared/model-cache.js';
import { downloadBlob, el, fileName, numbersJSON } from '../shared/view-kit.js';
import { elapsed, emit, runInput, unknownOf } from './view-context.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const CHART = Object.freeze({ width: 640, height: 340, left: 56, right: 16, top: 14, bottom: 46 });
/** Line colours (readable on light and dark backgrounds) and dashes, attention first. */
const LINES = Object.freeze([
  Object.freeze({ color: '#1f77b4', dash: '' }),
  Object.freeze({ color: '#d62728', dash: '6 4' }),
]);

/**
 * Where the curve was measured, in lang: "Measured on 20 held-out strings of every length from 5
 * to 60:" and the call that made them as code (curve.heldout is the card's English,
 * 'lengthStratified({ seed: 2024, perLength: 20 }): 20 held-out strings …'); a heldout of
 * another form is shown whole, as code.
 */
export function sourceNodes(curve, lang) {
  const call = /^[\w.]+\([^()]*\)/.exec(curve.heldout)?.[0];
  const count = /perLength:\s*(\d+)/.exec(curve.heldout)?.[1];
  const code = (text) => el('code', { translate: 'no', text });
  if (call && count)
    return [
      t(lang, 'forgetting.sourceSet', { count, min: curve.lengths[0], max: curve.lengths.at(-1) }),
      ' ',
      code(call),
    ];
  const [before, after = ''] = t(lang, 'forgetting.source', { heldout: '\u0000' }).split('\u0000');
  return [before, code(curve.heldout), after];
}

/**
 * The length curve, validated: { what, heldout, symbols, lengths, models: [{ name, attention,
 * hiddenSize, parameters, tokenAccuracy, exactMatch }] }. Throws an Error naming the problem.
 */
export function checkCurve(doc) {
  if (!doc || typeof doc !== 'object') throw new Error('the curve is not a JSON object');
  const { lengths, models } = doc;
  if (
    !Array.isArray(lengths) ||
    lengths.length < 2 ||
    !lengths.every((n) => Number.isInteger(n) && n > 0)
  ) {
    throw new Error('"lengths" must hold at least two positive integers');
  }
  for (let i = 1; i < lengths.length; i++)
    if (lengths[i] <= lengths[i - 1]) throw new Error('"lengths" must increase');
  if (!Array.isArray(models) || models.length === 0)
    throw new Error('"models" must be a non-empty array');
  const unit = (v) => typeof v === 'number' && v >= 0 && v <= 1;
  const out = models.map((m, i) => {
    if (!m || typeof m.name !== 'string') throw new Error(`models[${i}] has no "name"`);
    for (const k of ['tokenAccuracy', 'exactMatch']) {
      if (!Array.isArray(m[k]) || m[k].length !== lengths.length || !m[k].every(unit)) {
        throw new Error(`models[${i}].${k} must hold ${lengths.length} numbers in [0, 1]`);
      }
    }
    return {
      name: m.name,
      attention: typeof m.attention === 'string' ? m.attention : null,
      hiddenSize: Number.isInteger(m.hiddenSize) ? m.hiddenSize : null,
      parameters: Number.isInteger(m.parameters) ? m.parameters : null,
      tokenAccuracy: m.tokenAccuracy.slice(),
      exactMatch: m.exactMatch.slice(),
    };
  });
  const symbols = Number.isInteger(doc.symbols) && doc.symbols > 1 ? doc.symbols : null;
  return {
    what: String(doc.what ?? ''),
    heldout: String(doc.heldout ?? ''),
    symbols,
    lengths: lengths.slice(),
    models: out,
  };
}

/**
 * One output against the reversal of input, position by position (as scoreByLength of
 * web/data/sequences.js): { expected, chars: [{ index, char (null: missing), expected (null:
 * extra), ok }], right, total, accuracy }; accuracy = right / total (total = expected length).
 */
export function compareReversal(output, input) {
  const exp = Array.from(input).reverse();
  const out = Array.from(output ?? '');
  const chars = [];
  let right = 0;
  for (let i = 0; i < Math.max(exp.length, out.length); i++) {
    const ok = i < exp.length && out[i] === exp[i];
    if (ok) right++;
    chars.push({ index: i, char: out[i] ?? null, expected: exp[i] ?? null, ok });
  }
  return {
    expected: exp.join(''),
    chars,
    right,
    total: exp.length,
    accuracy: exp.length ? right / exp.length : 0,
  };
}

/**
 * The pair a model belongs to: { attention, none, curve } (registry names and the curve file,
 * relative to web/; null where unknown). A same-origin path or a model without a partner is
 * `attention` alone, with the offered pair's curve.
 */
export function reversePair(name) {
  const entry = findModel(name);
  const offered = modelsFor('reverse');
  const curve = entry?.curve ?? offered[0]?.curve ?? null;
  if (!entry || !entry.partner) return { attention: name, none: null, curve };
  return entry.attention === 'none'
    ? { attention: entry.partner, none: entry.name, curve }
    : { attention: entry.name, none: entry.partner, curve };
}

/** The index of the curve length nearest to length (ties: the shorter). */
export function nearestLength(lengths, length) {
  let best = 0;
  for (let i = 1; i < lengths.length; i++)
    if (Math.abs(lengths[i] - length) < Math.abs(lengths[best] - length)) best = i;
  return best;
}

/** The curve's numbers as CSV: length, then tokenAccuracy and exactMatch of each model. */
export function curveCSV(curve) {
  const head = [
    'length',
    ...curve.models.flatMap((m) => [`${m.name} tokenAccuracy`, `${m.name} exactMatch`]),
  ];
  const rows = curve.lengths.map((n, j) =>
    [n, ...curve.models.flatMap((m) => [m.tokenAccuracy[j], m.exactMatch[j]])].join(','),
  );
  return `${[head.join(','), ...rows].join('\r\n')}\r\n`;
}

/** A held-out reversal input of 5–60 symbols a–t for a seed (never a training string). */
export function randomReversalInput(seed) {
  return generateSequences({ seed, count: 1, split: 'heldout', task: 'reverse' })[0].src;
}

const pct = (v) => `${(100 * v).toFixed(1)}%`;

export const FORGETTING_STYLE = `
.forgetting-chart { max-width: 44rem; border: 1px solid var(--attn-demo-border, #d6d6df); border-radius: 6px; padding: 0.25rem; }
.forgetting-chart:focus { outline: none; }
.forgetting-chart:focus-visible { outline: 2px solid var(--attn-demo-accent, Highlight); outline-offset: 2px; }
.forgetting-chart svg { display: block; width: 100%; height: auto; }
.line-legend { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; font-size: 0.8125rem; margin: 0.25rem 0; }
.line-legend span::before { content: ""; display: inline-block; width: 1.6rem; height: 0; vertical-align: middle; margin-right: 0.35rem;
  border-top: 3px solid var(--line-color); }
.line-legend span[data-dash]::before { border-top-style: dashed; }
.runs { display: grid; gap: 0.5rem; margin: 0.5rem 0; }
.run h4 { margin: 0; font-size: 0.9rem; }
.chars { font-family: ui-monospace, monospace; font-size: 1rem; overflow-wrap: anywhere; word-break: break-all; margin: 0.15rem 0; }
.chars .wrong { background: #d62728; color: #fff; border-radius: 2px; text-decoration: underline; }
.chars .missing { outline: 1px dashed #d62728; color: transparent; }
.table-scroll { overflow-x: auto; max-width: 100%; }
.expected { overflow-wrap: anywhere; word-break: break-all; }
.forgetting-table { border-collapse: collapse; font-size: 0.8125rem; font-variant-numeric: tabular-nums; }
.forgetting-table th, .forgetting-table td { padding: 0.1rem 0.5rem; text-align: right; border-bottom: 1px solid var(--attn-demo-border, #d6d6df); }
`;

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

export class ForgettingView {
  #ui = {};
  #curve = null;
  #cursor = 0; // index into curve.lengths
  #lang = 'en';
  #last = null; // { runs, input, compare } of the last render
  #fixture = false;

  constructor() {
    const u = this.#ui;
    u.curveTitle = el('h3', { class: 'selected-title' });
    u.source = el('p', { class: 'note curve-source' });
    u.fixture = el('p', { class: 'note curve-fixture', hidden: '' });
    u.curveError = el('p', { class: 'error curve-error', hidden: '' });
    u.lineLegend = el('div', { class: 'line-legend' });
    u.chart = el('div', {
      class: 'forgetting-chart',
      tabindex: '0',
      role: 'application',
      'aria-roledescription': 'line chart',
    });
    u.live = el('div', { class: 'visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'true' });
    u.exports = el(
      'div',
      { class: 'buttons' },
      ['svg', 'png', 'csv', 'json'].map((kind) =>
        el('button', { type: 'button', 'data-chart-export': kind }),
      ),
    );
    u.altSummary = el('summary');
    u.table = el('table', { class: 'forgetting-table' });
    u.alt = el('details', { class: 'text-alt' }, [
      u.altSummary,
      el('div', { class: 'table-scroll' }, [u.table]),
    ]);
    u.curveBox = el('div', { class: 'curve-box' }, [
      u.lineLegend,
      u.chart,
      u.live,
      u.exports,
      u.alt,
    ]);
    u.runTitle = el('h3', { class: 'selected-title' });
    u.random = el('button', { type: 'button', 'data-action': 'random' });
    u.randomHint = el('span', { class: 'note' });
    u.expectedLabel = el('span');
    u.expected = el('output', { class: 'output expected' });
    u.runs = el('div', { class: 'runs' });
    u.note = el('p', { class: 'note run-note' });
    u.mapTitle = el('h3', { class: 'selected-title' });
    u.map = el('attn-heatmap', { class: 'forgetting-map', min: '0', max: '1' });
    u.download = el('button', { type: 'button', 'data-action': 'download-run' });
    this.node = el('section', { 'data-view': 'forgetting' }, [
      u.curveTitle,
      u.source,
      u.fixture,
      u.curveError,
      u.curveBox,
      u.runTitle,
      el('div', { class: 'buttons' }, [u.random, u.randomHint]),
      el('p', {}, [u.expectedLabel, ' ', u.expected]),
      u.runs,
      u.note,
      u.mapTitle,
      u.map,
      el('div', { class: 'buttons' }, [u.download]),
    ]);
    u.chart.addEventListener('keydown', (e) => this.#onKey(e));
    u.chart.addEventListener('focus', () => this.#announce());
    u.random.addEventListener('click', () => {
      const input = randomReversalInput(crypto.getRandomValues(new Uint32Array(1))[0]);
      emit(this.node, 'view-change', { input, step: null });
    });
    u.exports.addEventListener('click', (e) => {
      const kind = e.target.closest?.('button')?.dataset.chartExport;
      if (kind) this.#export(kind);
    });
    u.download.addEventListener('click', () => this.#downloadRun());
  }

  /** The curve, and the input through the model and its partner without attention.
   * @param {import('./view-context.js').ViewContext} ctx */
  update(ctx) {
    const s = ctx.state;
    const lang = s.lang;
    const pair = reversePair(s.model);
    const loads = [pair.attention, pair.none]
      .filter(Boolean)
      .map((name) => [name, ctx.models.model(name)]);
    const curve = pair.curve
      ? ctx.models.curve(pair.curve)
      : { error: new Error('no curve file is registered') };
    if (loads.some(([, l]) => !l) || !curve) {
      const waiting = loads.filter(([, l]) => !l).map(([n]) => n);
      emit(
        this.node,
        'view-status',
        t(lang, 'model.loading', { name: waiting.join(', ') || pair.curve }),
      );
      return;
    }
    const failed = loads.filter(([, l]) => l.error);
    const wrong = loads.find(([, l]) => l.model && l.model.architecture !== 'seq2seq');
    if (failed.length || wrong) {
      const messages = failed.map(([n, l]) => modelError(lang, n, l.error));
      if (wrong)
        messages.push(
          t(lang, 'model.wrongArch', {
            family: t(lang, 'family.reverse'),
            name: wrong[0],
            arch: wrong[1].model.architecture,
          }),
        );
      emit(this.node, 'view-error', [ctx.refused, ...messages].filter(Boolean).join(' '));
      this.clear();
      return emit(this.node, 'view-done', { result: null });
    }
    const runs = [];
    for (const [name, { model }] of loads) {
      const result = runInput(this.node, ctx, model, s.input);
      if (!result) {
        this.clear();
        const unknown = unknownOf(...runs.map((r) => r.result));
        return emit(this.node, 'view-done', { result: null, unknown });
      }
      runs.push({ name, attention: model.config.attention, result });
    }
    emit(this.node, 'view-error', ctx.refused);
    let checked = null;
    let curveError = curve.error ? curve.error.message : null;
    if (curve.curve) {
      try {
        checked = checkCurve(curve.curve);
      } catch (err) {
        curveError = err.message;
      }
    }
    const entry = findModel(pair.attention) ?? modelsFor('reverse')[0];
    // The models write at most config maxLength symbols (61 for the shipped pair) while the box
    // takes MAX_INPUT: a longer input's reversal is cut there, and the view says so.
    const maxOut = Math.min(...loads.map(([, l]) => l.model.config.maxLength ?? Infinity));
    const length = Array.from(s.input).length;
    const shown = this.render({
      curve: checked,
      curveError,
      runs,
      input: s.input,
      lang,
      fixture: entry?.trained === false,
      note: sentences(lang, [
        pair.none ? '' : t(lang, 'forgetting.noPartner'),
        Number.isFinite(maxOut) && length > maxOut
          ? t(lang, 'forgetting.outputCut', { max: maxOut, n: length })
          : '',
      ]),
    });
    for (const h of this.heatmaps) h.flush();
    const ms = elapsed(ctx).toFixed(1);
    const models = runs.length;
    emit(
      this.node,
      'view-status',
      t(lang, 'status.forgetting', { length: Array.from(s.input).length, models, ms }),
    );
    emit(this.node, 'view-done', {
      result: {},
      extra: { shown },
      unknown: unknownOf(...runs.map((r) => r.result)),
    });
  }

  /** The <attn-heatmap>s (for the host's flush). */
  get heatmaps() {
    return [this.#ui.map];
  }

  /** The chart's cursor: { index, length }. */
  get cursor() {
    return this.#curve ? { index: this.#cursor, length: this.#curve.lengths[this.#cursor] } : null;
  }

  clear() {
    this.#ui.map.data = null;
    this.#ui.runs.replaceChildren();
    this.#last = null;
    this.#ui.download.disabled = true; // nothing to download: no run
  }

  /**
   * Draw. curve: checkCurve()'s object or null (curveError: why); runs: [{ name, attention,
   * result }] (the attention model first); fixture: the curve is a test fixture. Returns
   * { lengths, runs: [{ name, right, total }] }.
   */
  render({ curve, curveError = null, runs, input, lang, fixture = false, note = '' }) {
    const u = this.#ui;
    const langChanged = lang !== this.#lang;
    this.#lang = lang;
    this.#fixture = fixture;
    u.curveTitle.textContent = t(lang, 'forgetting.curveTitle');
    u.curveError.hidden = !curveError;
    u.curveError.textContent = curveError
      ? t(lang, 'forgetting.curveMissing', { message: curveError })
      : '';
    u.curveBox.hidden = !curve;
    u.fixture.hidden = !(curve && fixture);
    u.fixture.textContent = t(lang, 'forgetting.fixture');
    u.source.hidden = !curve?.heldout;
    u.source.replaceChildren(...(curve ? sourceNodes(curve, lang) : []));
    for (const b of u.exports.children)
      b.textContent = t(lang, 'forgetting.export', { kind: b.dataset.chartExport.toUpperCase() });
    u.altSummary.textContent = t(lang, 'forgetting.asText');
    u.chart.setAttribute('aria-label', t(lang, 'forgetting.curveLabel'));
    u.chart.setAttribute('aria-description', t(lang, 'forgetting.keys'));
    const inputLength = Array.from(input).length;
    if (curve) {
      if (curve !== this.#curve || langChanged) {
        if (curve !== this.#curve) this.#cursor = nearestLength(curve.lengths, inputLength);
        this.#curve = curve;
        this.#table();
        this.#legendRow();
      }
      this.#chart(inputLength);
    } else {
      this.#curve = null;
      u.chart.replaceChildren();
    }

    // The run: expected output, each model's output with its wrong characters, the alignment.
    u.runTitle.textContent = t(lang, 'forgetting.runTitle');
    u.random.textContent = t(lang, 'forgetting.random');
    u.randomHint.textContent = t(lang, 'forgetting.randomHint');
    u.expectedLabel.textContent = `${t(lang, 'forgetting.expected')}${colon(lang)}`;
    const compare = runs.map((r) => compareReversal(r.result.output, input));
    u.expected.textContent = compare[0]?.expected ?? '';
    u.runs.replaceChildren(...runs.map((r, i) => this.#runNode(r, compare[i], i)));
    u.note.textContent = note;
    u.note.hidden = !note;
    const withMap = runs.find((r) => r.attention !== 'none' && r.result.attention?.length);
    u.mapTitle.hidden = !withMap;
    u.map.hidden = !withMap;
    if (withMap) {
      const m = withMap.result.attention[0];
      const [rows, cols] = m.weights.shape;
      u.mapTitle.textContent = t(lang, 'forgetting.mapTitle', { name: withMap.name });
      u.map.setAttribute('label', u.mapTitle.textContent);
      u.map.data = {
        weights: m.weights.data,
        rows,
        cols,
        rowLabels: m.rowLabels,
        colLabels: m.colLabels,
      };
      u.map.context = { model: withMap.name, input, output: withMap.result.output }; // for its exports
    } else {
      u.map.data = null;
    }
    u.map.setAttribute('lang', lang);
    u.download.textContent = t(lang, 'forgetting.downloadRun');
    this.#last = { runs, input, compare };
    u.download.disabled = false;
    for (const b of u.exports.children) {
      /** @type {HTMLButtonElement} */ (b).disabled = !this.#curve; // no curve: nothing to export
    }
    return {
      lengths: curve?.lengths.length ?? 0,
      runs: runs.map((r, i) => ({
        name: r.name,
        right: compare[i].right,
        total: compare[i].total,
      })),
    };
  }

  #kindName(attention) {
    return t(this.#lang, attention === 'none' ? 'forgetting.without' : 'forgetting.with');
  }

  #runNode(run, cmp, i) {
    const lang = this.#lang;
    const chars = el('p', { class: 'chars output' });
    const wrong = [];
    for (const c of cmp.chars) {
      const span = el('span', { text: c.char ?? c.expected ?? '' });
      if (!c.ok) {
        span.className = c.char === null ? 'missing' : 'wrong';
        span.title =
          c.char === null ? t(lang, 'forgetting.missing') : `${c.char} ≠ ${c.expected ?? '∅'}`;
        wrong.push(c.index + 1);
      }
      chars.append(span);
    }
    chars.setAttribute(
      'aria-label',
      `${run.result.output || t(lang, 'output.none')}; ${wrong.length ? t(lang, 'forgetting.wrongAt', { positions: wrong.join(', ') }) : t(lang, 'forgetting.allRight')}`,
    );
    const score = el('p', {
      class: 'note score',
      text: `${t(lang, 'forgetting.score', { right: cmp.right, total: cmp.total, pct: pct(cmp.accuracy) })}; ${wrong.length ? t(lang, 'forgetting.wrongAt', { positions: wrong.join(', ') }) : t(lang, 'forgetting.allRight')}`,
    });
    const node = el(
      'figure',
      { class: 'run', 'data-model': run.name, 'data-attention': run.attention ?? '' },
      [
        el('h4', {
          text: `${this.#kindName(run.attention)}${colon(lang)}${lang === 'zh' ? '' : ' '}${run.name}`,
        }),
        chars,
        score,
      ],
    );
    node.style.setProperty('--line-color', LINES[i]?.color ?? '#555');
    return node;
  }

  #legendRow() {
    const c = this.#curve;
    this.#ui.lineLegend.replaceChildren(
      ...c.models.map((m, i) => {
        const span = el('span', {
          text: t(this.#lang, 'forgetting.lineName', {
            kind: this.#kindName(m.attention),
            name: m.name,
            params: m.parameters?.toLocaleString(this.#lang === 'zh' ? 'zh-CN' : 'en-US') ?? '?',
          }),
        });
        span.style.setProperty('--line-color', LINES[i]?.color ?? '#555');
        if (LINES[i]?.dash) span.setAttribute('data-dash', '');
        return span;
      }),
    );
  }

  /** The chart as an <svg> element (text in currentColor, so it follows light and dark). */
  #chartSvg(inputLength) {
    const c = this.#curve;
    const lang = this.#lang;
    const { width: W, height: H, left: L, right: R, top: T, bottom: B } = CHART;
    const x0 = c.lengths[0];
    const x1 = c.lengths.at(-1);
    const px = (x) => L + ((x - x0) / (x1 - x0)) * (W - L - R);
    const py = (y) => T + (1 - y) * (H - T - B);
    const f = (v) => v.toFixed(1);
    const root = svg('svg', {
      xmlns: SVG_NS,
      viewBox: `0 0 ${W} ${H}`,
      width: W,
      height: H,
      'font-family': 'system-ui, sans-serif',
      'font-size': 12,
      fill: 'currentColor',
    });
    root.append(svg('title', {}, t(lang, 'forgetting.curveTitle')));
    root.append(svg('rect', { class: 'bg', width: W, height: H, fill: 'none' }));
    for (let i = 0; i <= 5; i++) {
      const y = f(py(i / 5));
      root.append(
        svg('line', {
          x1: L,
          x2: W - R,
          y1: y,
          y2: y,
          stroke: 'currentColor',
          'stroke-opacity': 0.15,
        }),
      );
      root.append(svg('text', { x: L - 6, y, dy: 4, 'text-anchor': 'end' }, `${20 * i}%`));
    }
    const step = x1 - x0 > 20 ? 10 : x1 - x0 > 8 ? 2 : 1;
    for (let x = Math.ceil(x0 / step) * step; x <= x1; x += step) {
      root.append(
        svg('line', {
          x1: f(px(x)),
          x2: f(px(x)),
          y1: f(py(0)),
          y2: f(py(0) + 5),
          stroke: 'currentColor',
        }),
      );
      root.append(
        svg('text', { x: f(px(x)), y: f(py(0) + 18), 'text-anchor': 'middle' }, String(x)),
      );
    }
    root.append(
      svg('line', { x1: L, x2: W - R, y1: f(py(0)), y2: f(py(0)), stroke: 'currentColor' }),
    );
    root.append(svg('line', { x1: L, x2: L, y1: f(py(0)), y2: f(py(1)), stroke: 'currentColor' }));
    root.append(
      svg(
        'text',
        { x: (L + W - R) / 2, y: H - 8, 'text-anchor': 'middle' },
        t(lang, 'forgetting.xAxis'),
      ),
    );
    root.append(
      svg(
        'text',
        { transform: `translate(14 ${(T + H - B) / 2}) rotate(-90)`, 'text-anchor': 'middle' },
        t(lang, 'forgetting.yAxis'),
      ),
    );
    if (c.symbols) {
      const y = f(py(1 / c.symbols));
      root.append(
        svg('line', {
          class: 'chance',
          x1: L,
          x2: W - R,
          y1: y,
          y2: y,
          stroke: 'currentColor',
          'stroke-opacity': 0.6,
          'stroke-dasharray': '2 3',
        }),
      );
      root.append(
        svg(
          'text',
          { x: W - R - 4, y: f(py(1 / c.symbols) - 5), 'text-anchor': 'end', 'fill-opacity': 0.75 },
          t(lang, 'forgetting.chance', { n: c.symbols }),
        ),
      );
    }
    if (inputLength >= x0 && inputLength <= x1) {
      const x = f(px(inputLength));
      root.append(
        svg('line', {
          class: 'yours',
          x1: x,
          x2: x,
          y1: f(py(0)),
          y2: f(py(1)),
          stroke: 'currentColor',
          'stroke-opacity': 0.5,
          'stroke-dasharray': '1 3',
        }),
      );
      root.append(
        svg(
          'text',
          { x, y: f(py(1) + 10), 'text-anchor': 'middle', 'font-size': 10, 'fill-opacity': 0.75 },
          t(lang, 'forgetting.yours'),
        ),
      );
    }
    c.models.forEach((m, i) => {
      const style = LINES[i] ?? { color: '#555', dash: '' };
      const points = c.lengths.map((x, j) => `${f(px(x))},${f(py(m.tokenAccuracy[j]))}`).join(' ');
      const attrs = {
        class: 'curve',
        'data-model': m.name,
        points,
        fill: 'none',
        stroke: style.color,
        'stroke-width': 2.5,
      };
      if (style.dash) attrs['stroke-dasharray'] = style.dash;
      root.append(svg('polyline', attrs));
    });
    // The cursor: a vertical line at the chosen length and a dot on each line.
    const j = this.#cursor;
    const cx = f(px(c.lengths[j]));
    root.append(
      svg('line', {
        class: 'cursor',
        x1: cx,
        x2: cx,
        y1: f(py(0)),
        y2: f(py(1)),
        stroke: 'currentColor',
        'stroke-width': 1,
      }),
    );
    c.models.forEach((m, i) => {
      root.append(
        svg('circle', {
          class: 'cursor-dot',
          cx,
          cy: f(py(m.tokenAccuracy[j])),
          r: 4,
          fill: LINES[i]?.color ?? '#555',
          stroke: 'currentColor',
        }),
      );
    });
    return root;
  }

  #chart(inputLength = this.#lastLength) {
    this.#lastLength = inputLength;
    this.#ui.chart.replaceChildren(this.#chartSvg(inputLength));
    this.#ui.chart.dataset.cursor = String(this.#curve.lengths[this.#cursor]);
  }

  #lastLength = 0;

  #table() {
    const c = this.#curve;
    const lang = this.#lang;
    const head = el('tr', {}, [
      el('th', { scope: 'col', text: t(lang, 'forgetting.length') }),
      ...c.models.flatMap((m) => [
        el('th', { scope: 'col', text: `${m.name}: ${t(lang, 'forgetting.accuracy')}` }),
        el('th', { scope: 'col', text: `${m.name}: ${t(lang, 'forgetting.exact')}` }),
      ]),
    ]);
    const rows = c.lengths.map((n, j) =>
      el('tr', {}, [
        el('th', { scope: 'row', text: String(n) }),
        ...c.models.flatMap((m) => [
          el('td', { text: pct(m.tokenAccuracy[j]) }),
          el('td', { text: pct(m.exactMatch[j]) }),
        ]),
      ]),
    );
    this.#ui.table.replaceChildren(el('thead', {}, [head]), el('tbody', {}, rows));
  }

  #onKey(event) {
    const c = this.#curve;
    if (!c || event.altKey || event.metaKey || event.ctrlKey) return;
    let j = this.#cursor;
    switch (event.key) {
      case 'ArrowLeft':
        j -= 1;
        break;
      case 'ArrowRight':
        j += 1;
        break;
      case 'PageDown':
        j -= 10;
        break;
      case 'PageUp':
        j += 10;
        break;
      case 'Home':
        j = 0;
        break;
      case 'End':
        j = c.lengths.length - 1;
        break;
      default:
        return;
    }
    event.preventDefault();
    this.#cursor = Math.max(0, Math.min(c.lengths.length - 1, j));
    this.#chart();
    this.#announce();
  }

  /** The cursor's length and every line's accuracy there, for the live region. */
  get focusedText() {
    const c = this.#curve;
    if (!c) return '';
    const j = this.#cursor;
    const lines = c.models
      .map((m) => `${this.#kindName(m.attention)} ${pct(m.tokenAccuracy[j])}`)
      .join(', ');
    return t(this.#lang, 'forgetting.say', { length: c.lengths[j], lines });
  }

  #announce() {
    this.#ui.live.textContent = this.focusedText;
  }

  /**
   * A standalone copy of the chart for a slide: concrete colours on white, a title above it (what
   * is plotted) and a legend below (each line's style, kind, model and size), the on-screen title
   * and legend being HTML outside the chart's <svg>.
   */
  chartSVG() {
    const c = this.#curve;
    const lang = this.#lang;
    const { width: W, height: H } = CHART;
    const chart = this.#chartSvg(this.#lastLength);
    chart.querySelector('rect.bg').setAttribute('fill', '#ffffff');
    chart.setAttribute('x', '0');
    const titleH = 30;
    const legendRow = 20;
    const legendH = 12 + legendRow * c.models.length;
    chart.setAttribute('y', String(titleH));
    const root = svg('svg', {
      xmlns: SVG_NS,
      viewBox: `0 0 ${W} ${titleH + H + legendH}`,
      width: W,
      height: titleH + H + legendH,
      'font-family': 'system-ui, sans-serif',
      'font-size': 12,
      fill: '#1b1b1f',
      color: '#1b1b1f',
      style: 'color: #1b1b1f',
    });
    root.append(svg('title', {}, t(lang, 'forgetting.curveTitle')));
    root.append(svg('rect', { width: W, height: titleH + H + legendH, fill: '#ffffff' }));
    root.append(
      svg(
        'text',
        { class: 'chart-title', x: CHART.left, y: 20, 'font-size': 15, 'font-weight': 'bold' },
        t(lang, 'forgetting.curveTitle'),
      ),
    );
    root.append(chart);
    const legend = svg('g', { class: 'chart-legend' });
    c.models.forEach((m, i) => {
      const style = LINES[i] ?? { color: '#555', dash: '' };
      const y = titleH + H + 8 + legendRow * i + legendRow / 2;
      const line = {
        x1: CHART.left,
        x2: CHART.left + 28,
        y1: y,
        y2: y,
        stroke: style.color,
        'stroke-width': 2.5,
      };
      if (style.dash) line['stroke-dasharray'] = style.dash;
      legend.append(svg('line', line));
      legend.append(
        svg(
          'text',
          { x: CHART.left + 36, y, dy: 4 },
          t(lang, 'forgetting.lineName', {
            kind: this.#kindName(m.attention),
            name: m.name,
            params: m.parameters?.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-US') ?? '?',
          }),
        ),
      );
    });
    root.append(legend);
    return `${new XMLSerializer().serializeToString(root)}\n`;
  }

  async #export(kind) {
    const c = this.#curve;
    if (!c) return;
    const name = fileName(`forgetting curve ${c.models.map((m) => m.name).join(' ')}`, kind);
    if (kind === 'svg')
      return downloadBlob(name, new Blob([this.chartSVG()], { type: 'image/svg+xml' }));
    if (kind === 'csv') return downloadBlob(name, new Blob([curveCSV(c)], { type: 'text/csv' }));
    if (kind === 'json') {
      const doc = { ...c, fixture: this.#fixture };
      return downloadBlob(
        name,
        new Blob([JSON.stringify(doc, null, 2) + '\n'], { type: 'application/json' }),
      );
    }
    // PNG: the SVG drawn on a canvas at twice its size.
    const url = URL.createObjectURL(new Blob([this.chartSVG()], { type: 'image/svg+xml' }));
    try {
      const image = new Image();
      image.src = url;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width * 2;
      canvas.height = image.height * 2;
      const ctx = canvas.getContext('2d');
      ctx.scale(2, 2);
      ctx.drawImage(image, 0, 0, image.width, image.height);
      const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
      downloadBlob(name, blob);
    } finally {
      URL.revokeObjectURL(url);
    }
  }

  /** This input's outputs, accuracies and the alignment as JSON. */
  #downloadRun() {
    const last = this.#last;
    if (!last) return;
    const doc = {
      input: last.input,
      expected: last.compare[0]?.expected ?? '',
      models: last.runs.map((r, i) => ({
        name: r.name,
        attention: r.attention,
        output: r.result.output,
        right: last.compare[i].right,
        total: last.compare[i].total,
        tokenAccuracy: last.compare[i].accuracy,
        wrong: last.compare[i].chars.filter((ch) => !ch.ok).map((ch) => ch.index),
        alignment:
          r.attention !== 'none' && r.result.attention?.[0]
            ? {
                shape: [...r.result.attention[0].weights.shape],
                data: numbersJSON(r.result.attention[0].weights.data),
              }
            : null,
      })),
    };
    downloadBlob(
      fileName(`forgetting run ${last.input.slice(0, 20)}`, 'json'),
      new Blob([JSON.stringify(doc, null, 2) + '\n'], { type: 'application/json' }),
    );
  }
}
