// pooling-view.js: the Pooling view of <attn-demo>: which words a classifier's attention pooling
// weighed (docs/models.md "The classifier architecture"), and what it predicted.
//
//   const view = new PoolingView();
//   host.append(view.node);
//   view.update(ctx);   // from <attn-demo>: runs ctx.model on the input, then render()
//   view.render({ result: model.classify(text), config: model.config, name, input, lang });
//
// Shows: the predicted label, its calibrated confidence and, under UNSURE_BELOW, "unsure"
// (shared/confidence.js, issue 30), a note when much of the input is unknown to the model
// (unknownShare ≥ MANY_UNKNOWN), and every class probability; the input's words shaded by their
// pooling weights (viridis, with a legend; arrow keys move a focus word and its weight is
// announced; the weights as a text list): Zhou et al. 2016 attention, one row; HAN (Yang et al.
// 2016), one row per sentence, the row marked with the sentence weight β and the words with
// their weights α inside that sentence; Lin et al. 2017 structured self-attention, one row per
// hop, the r × n matrix A as a heatmap and the penalty ‖AAᵀ − I‖²_F. The weight matrices are
// <attn-heatmap>s (cell reading, text alternative, PNG/SVG/CSV/JSON), and one JSON file holds
// every number of the run.
// Holds: the pure helpers (tested in Node: poolingRows, frobeniusPenalty, probabilityRows) and
// the view's DOM and its wiring (update). Deliberately does not know about wasm: update runs the
// model through view-context.js runInput, and render draws the plain result; it answers with
// events (view-context.js: view-status, view-error, view-blank, view-done).

import { formatValue, rgbToHex, valueToColor } from '../shared/draw.js';
import { colon, plural, t } from '../shared/i18n.js';
import {
  downloadBlob,
  el,
  fileName,
  legend,
  numbersJSON,
  textColorFor,
  whyToggle,
} from '../shared/view-kit.js';
import { correctedOf, elapsed, emit, runInput, unknownOf } from './view-context.js';
import { UNSURE_BELOW, confidenceOf } from '../shared/confidence.js';

/**
 * The shaded rows of a classify() result: { pooling, rows: [{ label, weight (sentence weight, or
 * null), words: [{ index, token, weight }] }], max } with max the colour scale's top (the largest
 * word weight, or sentence weight for han; 1 when everything is 0).
 */
export function poolingRows(result, pooling) {
  const A = result.attention[0];
  const [r, n] = A.weights.shape;
  const w = A.weights.data;
  const tokens = result.tokens ?? A.colLabels;
  const words = (row, from = 0, to = n) => {
    const out = [];
    for (let j = from; j < to; j++)
      out.push({ index: j, token: tokens[j], weight: w[row * n + j] });
    return out;
  };
  let rows;
  if (pooling === 'han' && result.sentences) {
    rows = result.sentences.map(([a, b], i) => ({
      label: i,
      weight: result.sentenceWeights[i],
      words: words(0, a, b),
    }));
  } else if (pooling === 'structured') {
    rows = Array.from({ length: r }, (_, h) => ({ label: h, weight: null, words: words(h) }));
  } else {
    rows = [{ label: 0, weight: null, words: words(0) }];
  }
  let max = 0;
  for (const row of rows) {
    if (Number.isFinite(row.weight) && row.weight > max) max = row.weight;
    for (const word of row.words)
      if (Number.isFinite(word.weight) && word.weight > max) max = word.weight;
  }
  return { pooling, rows, max: max > 0 ? max : 1 };
}

/** ‖AAᵀ − I‖²_F of A [r * n] (row-major), summed in double: the check beside the model's own. */
export function frobeniusPenalty(a, r, n) {
  let sum = 0;
  for (let i = 0; i < r; i++) {
    for (let k = 0; k < r; k++) {
      let dot = 0;
      for (let j = 0; j < n; j++) dot += a[i * n + j] * a[k * n + j];
      const d = dot - (i === k ? 1 : 0);
      sum += d * d;
    }
  }
  return sum;
}

/** [{ label, prob, predicted }] in the model's label order. */
export function probabilityRows(labels, probs, labelId) {
  return labels.map((label, i) => ({ label, prob: probs[i], predicted: i === labelId }));
}

export class PoolingView {
  #ui = {};
  #legend = legend();
  #shaded = null; // poolingRows() of the last render
  #spans = []; // [row][word] -> span
  #focus = { row: 0, col: 0 };
  #last = null;
  #lang = 'en';

  constructor() {
    const u = this.#ui;
    u.about = el('p', { class: 'note pooling-kind' });
    u.predLabel = el('span');
    u.pred = el('output', { class: 'output prediction', 'data-main': 'output' });
    u.conf = el('span', { class: 'clf-confidence' });
    u.unsure = el('span', { class: 'clf-unsure', hidden: '' });
    u.unsureNote = el('p', { class: 'clf-unsure-note', role: 'note', hidden: '' });
    u.unknownNote = el('p', { class: 'clf-many-unknown', role: 'note', hidden: '' });
    u.calibration = el('p', { class: 'note clf-calibration' });
    u.why = whyToggle(u.about, u.calibration);
    u.probsTitle = el('span', { class: 'visually-hidden', id: 'probs-title' });
    u.probs = el('ul', { class: 'probs', 'aria-labelledby': 'probs-title' });
    u.wordsTitle = el('h3', { class: 'selected-title' });
    u.words = el('div', {
      class: 'words',
      'data-main': 'picture',
      tabindex: '0',
      role: 'application',
      'aria-roledescription': 'shaded text',
    });
    u.live = el('div', { class: 'visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'true' });
    u.altSummary = el('summary');
    u.altList = el('ol');
    u.alt = el('details', { class: 'text-alt' }, [u.altSummary, u.altList]);
    u.mapCaption = el('h3', { class: 'selected-title' });
    u.map = el('attn-heatmap', { class: 'pool-map', min: '0' });
    u.sentenceCaption = el('h3', { class: 'selected-title', hidden: '' });
    u.sentenceMap = el('attn-heatmap', { class: 'sentence-map', min: '0', hidden: '' });
    u.penalty = el('p', { class: 'penalty', hidden: '' });
    u.all = el('button', { type: 'button', 'data-action': 'download-pooling' });
    this.node = el('section', { 'data-view': 'pooling' }, [
      el('div', { class: 'view-line' }, [
        el('p', { class: 'output-line' }, [u.predLabel, ' ', u.pred, ' ', u.conf, ' ', u.unsure]),
        u.why.node,
      ]),
      u.unsureNote,
      u.unknownNote,
      u.probsTitle,
      u.probs,
      u.wordsTitle,
      this.#legend.node,
      u.words,
      u.live,
      u.alt,
      u.penalty,
      u.mapCaption,
      u.map,
      u.sentenceCaption,
      u.sentenceMap,
      el('div', { class: 'buttons' }, [u.all]),
    ]);
    u.words.addEventListener('keydown', (e) => this.#onKey(e));
    u.words.addEventListener('focus', () => this.#announce());
    u.words.addEventListener('click', (e) => {
      const span = e.target.closest?.('.word');
      if (span) this.#moveTo(Number(span.dataset.row), Number(span.dataset.col));
    });
    u.all.addEventListener('click', () => this.#downloadAll());
  }

  /** Run the current model on the input and draw it. @param {import('./view-context.js').ViewContext} ctx */
  update(ctx) {
    const s = ctx.state;
    const result = runInput(this.node, ctx, ctx.model, s.input);
    if (!result) {
      this.clear();
      return emit(this.node, 'view-done', { result: null });
    }
    emit(this.node, 'view-error', ctx.refused);
    const shown = this.render({
      result: { ...result, labels: ctx.model.labels },
      config: ctx.model.config,
      name: s.model,
      input: s.input,
      lang: s.lang,
    });
    for (const h of this.heatmaps) h.flush();
    emit(
      this.node,
      'view-status',
      t(s.lang, 'status.pooling', {
        words: plural(s.lang, 'count.words', shown.words),
        rows: plural(s.lang, 'count.rows', shown.rows),
        ms: elapsed(ctx).toFixed(1),
      }),
    );
    emit(this.node, 'view-done', {
      result,
      extra: { label: result.label, shown },
      unknown: unknownOf(result),
      corrected: correctedOf(result),
    });
  }

  /** The <attn-heatmap>s (for the host's flush). */
  get heatmaps() {
    return [this.#ui.map, this.#ui.sentenceMap];
  }

  /** Forget the drawn run (the input cannot be run). */
  clear() {
    this.#ui.map.data = null;
    this.#ui.sentenceMap.data = null;
    this.#ui.words.replaceChildren();
    this.#ui.probs.replaceChildren();
    this.#ui.pred.textContent = '';
    this.#ui.conf.textContent = '';
    this.#ui.unsure.hidden = true;
    this.#ui.unsureNote.hidden = true;
    this.#ui.unknownNote.hidden = true;
    this.#spans = [];
    this.#shaded = null;
    this.#last = null;
  }

  /** Draw a run. Returns { pooling, rows, words, label }. */
  render({ result, config, name, input, lang }) {
    const u = this.#ui;
    this.#lang = lang;
    const pooling = config.pooling;
    const shaded = poolingRows(result, pooling);
    this.#shaded = shaded;
    this.#last = { result, config, name, input };

    u.about.textContent = t(
      lang,
      `pooling.about.${['attention', 'han', 'structured'].includes(pooling) ? pooling : 'attention'}`,
      { r: result.attention[0].weights.shape[0] },
    );
    u.predLabel.textContent = `${t(lang, 'pooling.predicted')}${colon(lang)}`;
    u.why.texts(lang);
    u.pred.textContent = result.label;
    this.#confidence(result, config, lang);
    u.probsTitle.textContent = t(lang, 'pooling.probs');
    u.probs.replaceChildren(
      ...probabilityRows(result.labels ?? config.labels, result.probs, result.labelId).map((p) => {
        const fill = el('span', { class: 'fill' });
        fill.style.width = `${Math.max(0, Math.min(1, p.prob)) * 100}%`;
        const li = el('li', { 'data-label': p.label }, [
          el('span', { class: 'label', text: p.predicted ? `${p.label} ✓` : p.label }),
          el('span', { class: 'bar', 'aria-hidden': 'true' }, [fill]),
          el('span', { class: 'value', text: formatValue(p.prob) }),
        ]);
        if (p.predicted) li.setAttribute('data-predicted', '');
        return li;
      }),
    );

    // Shaded words.
    u.wordsTitle.textContent = t(lang, `pooling.words.${pooling}`);
    this.#legend.set(
      0,
      shaded.max,
      t(lang, pooling === 'han' ? 'pooling.legendHan' : 'pooling.legend'),
    );
    u.words.setAttribute(
      'aria-label',
      t(lang, 'pooling.wordsLabel', { rows: shaded.rows.length, words: result.tokens.length }),
    );
    u.words.setAttribute('aria-description', t(lang, 'pooling.keys'));
    const color = (v) => {
      const rgb = valueToColor(v, 0, shaded.max);
      return { bg: rgbToHex(rgb), fg: textColorFor(rgb) };
    };
    this.#spans = [];
    const rowNodes = shaded.rows.map((row, r) => {
      const children = [];
      if (pooling === 'han') {
        const c = color(row.weight);
        const swatch = el('span', {
          class: 'row-label swatch',
          text: `${t(lang, 'pooling.sentence', { n: r + 1 })} ${formatValue(row.weight)}`,
        });
        swatch.style.background = c.bg;
        swatch.style.color = c.fg;
        children.push(swatch);
      } else if (pooling === 'structured') {
        children.push(
          el('span', { class: 'row-label', text: t(lang, 'pooling.hop', { n: r + 1 }) }),
        );
      }
      const spans = row.words.map((w, c) => {
        const k = color(w.weight);
        const span = el('span', {
          class: 'word',
          'data-row': String(r),
          'data-col': String(c),
          title: `${w.token}: ${formatValue(w.weight)}`,
          text: w.token,
        });
        span.style.background = k.bg;
        span.style.color = k.fg;
        return span;
      });
      this.#spans.push(spans);
      const node = el('div', { class: 'row', 'data-row': String(r) }, [...children, ...spans]);
      if (pooling === 'han') node.style.borderLeftColor = color(row.weight).bg;
      return node;
    });
    u.words.replaceChildren(...rowNodes);
    this.#focus.row = Math.min(this.#focus.row, shaded.rows.length - 1);
    this.#focus.col = Math.min(
      this.#focus.col,
      Math.max(0, shaded.rows[this.#focus.row].words.length - 1),
    );
    this.#markFocus();

    // The text alternative: every weight as a list.
    u.altSummary.textContent = t(lang, 'pooling.asText');
    u.altList.replaceChildren(
      ...shaded.rows
        .map((row, r) => {
          const items = row.words.map((w) =>
            el('li', { text: `${w.token}: ${formatValue(w.weight)}` }),
          );
          if (pooling === 'attention' || (pooling !== 'han' && pooling !== 'structured'))
            return items;
          const head =
            pooling === 'han'
              ? t(lang, 'pooling.sentenceWeight', { n: r + 1, value: formatValue(row.weight) })
              : t(lang, 'pooling.hop', { n: r + 1 });
          return [el('li', {}, [head, el('ol', {}, items)])];
        })
        .flat(),
    );

    // The matrices, for reading cell by cell and exporting.
    const A = result.attention[0];
    const [hops, n] = A.weights.shape;
    u.mapCaption.textContent = t(lang, `pooling.map.${pooling}`);
    u.map.setAttribute('label', u.mapCaption.textContent);
    u.map.setAttribute('max', String(shaded.max));
    u.map.data = {
      weights: A.weights.data,
      rows: hops,
      cols: n,
      rowLabels:
        pooling === 'structured'
          ? Array.from({ length: hops }, (_, h) => t(lang, 'pooling.hop', { n: h + 1 }))
          : ['α'],
      colLabels: A.colLabels,
    };
    const S = result.attention[1];
    u.sentenceMap.hidden = !(pooling === 'han' && S);
    u.sentenceCaption.hidden = u.sentenceMap.hidden;
    if (pooling === 'han' && S) {
      u.sentenceCaption.textContent = t(lang, 'pooling.map.sentences');
      u.sentenceMap.setAttribute('label', u.sentenceCaption.textContent);
      u.sentenceMap.setAttribute('max', String(shaded.max));
      u.sentenceMap.data = {
        weights: S.weights.data,
        rows: 1,
        cols: S.weights.shape[1],
        rowLabels: ['β'],
        colLabels: S.colLabels,
      };
    } else {
      u.sentenceMap.data = null;
    }
    u.penalty.hidden = pooling !== 'structured';
    if (pooling === 'structured')
      u.penalty.textContent = t(lang, 'pooling.penalty', {
        value: formatValue(result.penalty),
        r: hops,
      });
    u.all.textContent = t(lang, 'pooling.downloadAll');
    for (const h of this.heatmaps) h.setAttribute('lang', lang);
    return { pooling, rows: shaded.rows.length, words: n, label: result.label };
  }

  /** The calibrated confidence beside the label, "unsure" under UNSURE_BELOW, and the note when
   * much of the input is unknown (issue 30). */
  #confidence(result, config, lang) {
    const u = this.#ui;
    const c = confidenceOf(result);
    const T = config.temperature ?? 1;
    u.conf.textContent = t(lang, 'confidence.value', { value: formatValue(c.confidence) });
    u.calibration.textContent =
      T === 1 ? t(lang, 'confidence.aboutRaw') : t(lang, 'confidence.about', { T: String(T) });
    u.unsure.hidden = !c.unsure;
    u.unsure.textContent = c.unsure ? t(lang, 'confidence.unsure') : '';
    u.unsureNote.hidden = !c.unsure;
    u.unsureNote.textContent = c.unsure
      ? t(lang, 'confidence.unsureWhy', { threshold: formatValue(UNSURE_BELOW) })
      : '';
    u.unknownNote.hidden = !c.manyUnknown;
    u.unknownNote.textContent = c.manyUnknown
      ? t(lang, 'confidence.manyUnknown', { share: `${Math.round(100 * result.unknownShare)}%` })
      : '';
  }

  // ---- the shaded words' keyboard focus ------------------------------------------------------

  #onKey(event) {
    const shaded = this.#shaded;
    if (!shaded || event.altKey || event.metaKey) return;
    let { row, col } = this.#focus;
    switch (event.key) {
      case 'ArrowLeft':
        col -= 1;
        break;
      case 'ArrowRight':
        col += 1;
        break;
      case 'ArrowUp':
        row -= 1;
        break;
      case 'ArrowDown':
        row += 1;
        break;
      case 'Home':
        col = 0;
        if (event.ctrlKey) row = 0;
        break;
      case 'End':
        col = Infinity;
        if (event.ctrlKey) row = shaded.rows.length - 1;
        break;
      default:
        return;
    }
    event.preventDefault();
    this.#moveTo(row, col);
  }

  #moveTo(row, col) {
    const rows = this.#shaded?.rows;
    if (!rows) return;
    const r = Math.max(0, Math.min(rows.length - 1, row));
    const c = Math.max(0, Math.min(rows[r].words.length - 1, col));
    this.#focus = { row: r, col: c };
    this.#markFocus();
    this.#announce();
  }

  #markFocus() {
    for (const row of this.#spans) for (const s of row) s.removeAttribute('data-focused');
    this.#spans[this.#focus.row]?.[this.#focus.col]?.setAttribute('data-focused', '');
  }

  /** The focused word and its weight, for the live region: what a sighted reader sees. */
  get focusedText() {
    const rows = this.#shaded?.rows;
    if (!rows) return '';
    const { row, col } = this.#focus;
    const r = rows[row];
    const w = r.words[col];
    if (!w) return '';
    const lang = this.#lang;
    const params = {
      word: w.token,
      index: w.index + 1,
      value: formatValue(w.weight),
      n: row + 1,
      sentence: formatValue(r.weight),
    };
    if (this.#shaded.pooling === 'han') return t(lang, 'pooling.sayHan', params);
    if (this.#shaded.pooling === 'structured') return t(lang, 'pooling.sayHop', params);
    return t(lang, 'pooling.say', params);
  }

  #announce() {
    this.#ui.live.textContent = this.focusedText;
  }

  /** Every number of the run (label, probabilities, weights, sentences, penalty) as JSON. */
  #downloadAll() {
    const last = this.#last;
    if (!last) return;
    const { result, config, name, input } = last;
    const A = result.attention[0];
    const doc = {
      model: name,
      input,
      pooling: config.pooling,
      label: result.label,
      labels: [...(result.labels ?? config.labels)],
      probs: numbersJSON(result.probs),
      temperature: config.temperature ?? 1,
      unknownShare: result.unknownShare,
      tokens: [...result.tokens],
      weights: { shape: [...A.weights.shape], data: numbersJSON(A.weights.data) },
    };
    if (result.sentences) {
      doc.sentences = result.sentences.map((s) => [...s]);
      doc.sentenceWeights = numbersJSON(result.sentenceWeights);
    }
    if (result.penalty !== undefined) doc.penalty = numbersJSON([result.penalty])[0];
    downloadBlob(
      fileName(`${name} pooling`, 'json'),
      new Blob([JSON.stringify(doc, null, 2) + '\n'], { type: 'application/json' }),
    );
  }
}
