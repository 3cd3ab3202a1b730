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
// Holds: the view's DOM and its wiring (update). The pure helpers are forgetting-data.js's
// (checkCurve, compareReversal, reversePair, nearestLength, curveCSV, randomReversalInput,
// sourceNodes; re-exported here), the chart's SVG forgetting-chart.js's. Deliberately does not
// know about wasm or fetch: update asks its context for the models and the curve (ctx.models, the
// element's model cache) and runs them through view-context.js runInput; render draws plain
// results.

import { colon, sentences, t } from '../shared/i18n.js';
import { findModel, modelsFor } from '../shared/models.js';
import { modelError } from '../shared/model-cache.js';
import { downloadBlob, el, fileName, numbersJSON } from '../shared/view-kit.js';
import { chartSvg, kindName, lineStyle, standaloneChart } from './forgetting-chart.js';
import {
  checkCurve,
  compareReversal,
  curveCSV,
  nearestLength,
  randomReversalInput,
  reversePair,
  sourceNodes,
} from './forgetting-data.js';
import { elapsed, emit, runInput, unknownOf } from './view-context.js';

export {
  checkCurve,
  compareReversal,
  curveCSV,
  nearestLength,
  randomReversalInput,
  reversePair,
  sourceNodes,
};

const pct = (v) => `${(100 * v).toFixed(1)}%`;

export const FORGETTING_STYLE = `
.forgetting-split { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0 var(--al-space-5, 24px); align-items: start; }
@container (max-width: 52rem) { .forgetting-split { grid-template-columns: minmax(0, 1fr); } }
.forgetting-chart { max-width: min(44rem, (100vh - 27rem) * 1.88); border: 1px solid var(--al-line, #d6d6df); border-radius: 6px; padding: 0.25rem; }
/* the chart scales with its box: on a narrow one its text grows in chart units so that it stays
   at least 11 CSS pixels (the viewBox is 640 wide) */
@container (max-width: 36rem) { .forgetting-chart svg text { font-size: 16px; } }
@container (max-width: 28rem) { .forgetting-chart svg text { font-size: 18.5px; } }
@container (max-width: 24rem) { .forgetting-chart svg text { font-size: 21px; } }
@container (max-width: 20rem) { .forgetting-chart svg text { font-size: 25px; } }
.forgetting-chart:focus { outline: none; }
.forgetting-chart:focus-visible { outline: 2px solid var(--al-accent, Highlight); outline-offset: 2px; }
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
.forgetting-table th, .forgetting-table td { padding: 0.1rem 0.5rem; text-align: right; border-bottom: 1px solid var(--al-line, #d6d6df); }
`;

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
      'data-main': 'picture',
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
    u.runs = el('div', { class: 'runs', 'data-main': 'output' });
    u.note = el('p', { class: 'note run-note' });
    u.mapTitle = el('h3', { class: 'selected-title' });
    u.map = el('attn-heatmap', { class: 'forgetting-map', min: '0', max: '1' });
    u.download = el('button', { type: 'button', 'data-action': 'download-run' });
    this.node = el('section', { 'data-view': 'forgetting' }, [
      // the curve beside the run of the input through both models (one under the other on a
      // narrow element)
      el('div', { class: 'forgetting-split' }, [
        el('div', {}, [u.curveTitle, u.source, u.fixture, u.curveError, u.curveBox]),
        el('div', {}, [
          u.runTitle,
          el('div', { class: 'buttons' }, [u.random, u.randomHint]),
          el('p', {}, [u.expectedLabel, ' ', u.expected]),
          u.runs,
          u.note,
        ]),
      ]),
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
          text: `${kindName(lang, run.attention)}${colon(lang)}${lang === 'zh' ? '' : ' '}${run.name}`,
        }),
        chars,
        score,
      ],
    );
    node.style.setProperty('--line-color', lineStyle(i).css);
    return node;
  }

  #legendRow() {
    const c = this.#curve;
    this.#ui.lineLegend.replaceChildren(
      ...c.models.map((m, i) => {
        const span = el('span', {
          text: t(this.#lang, 'forgetting.lineName', {
            kind: kindName(this.#lang, m.attention),
            name: m.name,
            params: m.parameters?.toLocaleString(this.#lang === 'zh' ? 'zh-CN' : 'en-US') ?? '?',
          }),
        });
        span.style.setProperty('--line-color', lineStyle(i).css);
        if (lineStyle(i).dash) span.setAttribute('data-dash', '');
        return span;
      }),
    );
  }

  #chart(inputLength = this.#lastLength) {
    this.#lastLength = inputLength;
    this.#ui.chart.replaceChildren(chartSvg(this.#curve, this.#cursor, this.#lang, inputLength));
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
      .map((m) => `${kindName(this.#lang, m.attention)} ${pct(m.tokenAccuracy[j])}`)
      .join(', ');
    return t(this.#lang, 'forgetting.say', { length: c.lengths[j], lines });
  }

  #announce() {
    this.#ui.live.textContent = this.focusedText;
  }

  /** The chart for a slide (forgetting-chart.js standaloneChart): an SVG document. */
  chartSVG() {
    return standaloneChart(this.#curve, this.#cursor, this.#lang, this.#lastLength);
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
