// reading-view.js: the Reading view of <attn-demo>: a memory-RNN language model (docs/models.md
// "Architecture memory-rnn") reads a sentence word by word, as in the seed figure of Cheng, Dong
// & Lapata 2016 (Fig. 1: the current word, in red, and the shading of the earlier words it reads).
//
//   const view = new ReadingView();   // events (view-context.js): view-change { step }, …
//   host.append(view.node);
//   view.update(ctx);   // from <attn-demo>: runs ctx.model on readingInput(input), then render()
//   const text = readingInput('The FBI is chasing a criminal on the run.');
//   view.render({ result: model.run(text, { distributions: true }), config: model.config, name, input, text, lang, step });
//
// Shows: the text as the model reads it (lowercased, punctuation split off: normalizeSentence of
// web/data/agreement.js) and the words it does not know (read as <unk>); the sentence as a row of
// words with arcs from the current word to the earlier words it attends to (line width and
// opacity ∝ weight) and the earlier words shaded by that weight (viridis, with a legend); under
// every word the probability the model gave it before reading it (exp logProbs); play / pause /
// back / step, a slider, the arrow keys and a click move the current word (reported by a view-change event, so
// the host can keep it in its URL; render's step puts it back); the model's top guesses for the
// next word; the growing lower-triangular map of every row read so far as an <attn-heatmap> (cell
// reading, text alternative, PNG/SVG/CSV/JSON); the weights and probabilities as text; every
// number as JSON and the probabilities as CSV. An LSTM baseline has no attention: only the
// probabilities.
// LSTMN rows (s_t) cover the words before t; self-attention-RNN rows (α_t) the words up to t.
// Holds: the view's DOM and its wiring (update); the pure helpers are reading-data.js's
// (readingInput, readingData, attentionRow, readSoFar, topNext, strongestEarlier; re-exported
// here). Deliberately does not know about wasm: update runs the model through view-context.js
// runInput, render draws the plain result, and stepping redraws without re-running.

import { formatValue, rgbToHex, valueToColor } from '../shared/draw.js';
import { plural, t } from '../shared/i18n.js';
import {
  downloadBlob,
  el,
  fileName,
  legend,
  orderByWidth,
  PHONE_WIDTH,
  textColorFor,
  whyToggle,
} from '../shared/view-kit.js';
import {
  attentionRow,
  leastExpected,
  readSoFar,
  readingCSV,
  readingData,
  readingInput,
  readingJSON,
  strongestEarlier,
  topNext,
} from './reading-data.js';
import { elapsed, emit, runInput } from './view-context.js';

export { attentionRow, readSoFar, readingData, readingInput, strongestEarlier, topNext };

const STEP_MS = 700; // play speed: one word per STEP_MS
const SVG_NS = 'http://www.w3.org/2000/svg';
const ARC_HEIGHT = 56; // CSS pixels above the words for the arcs

export const READING_STYLE = `
.reading-strip { overflow-x: auto; max-width: 100%; border: 1px solid var(--al-line, #d6d6df); border-radius: 6px; margin: 0.5rem 0; }
.reading-words { position: relative; display: inline-block; min-width: 100%; padding: ${ARC_HEIGHT + 4}px 0.5rem 0.4rem; }
.reading-words:focus { outline: none; }
.reading-words:focus-visible { outline: 2px solid var(--al-accent, Highlight); outline-offset: -2px; }
.reading-words svg.arcs { position: absolute; left: 0; top: 0; overflow: visible; pointer-events: none; color: var(--al-accent, Highlight); }
.word-row { display: flex; gap: 0.3rem; white-space: nowrap; }
.rword { display: flex; flex-direction: column; align-items: center; gap: 0.1rem; cursor: pointer; }
.rword .word { padding: 0.1rem 0.35rem; border-radius: 3px; font-family: ui-monospace, monospace; border: 2px solid transparent; }
.rword[data-current] .word { border-color: #d62728; font-weight: 700; }
.rword[data-future] .word { opacity: 0.45; }
.rword[data-unknown] .word { text-decoration: underline wavy; }
.rword .p { font-size: 0.7rem; font-variant-numeric: tabular-nums; color: var(--al-muted, GrayText); }
.reading-controls { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; margin: 0.5rem 0; }
.reading-controls .slider { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
.reading-controls input[type="range"] { width: 12rem; max-width: 60vw; }
.unknown-note[data-unknown] { color: inherit; font-weight: 600; }
/* a phone (the order: orderByWidth in the constructor): the slider's label unseen */
@container (max-width: ${PHONE_WIDTH}px) {
  .reading-controls .slider { flex: 1 1 100%; flex-wrap: nowrap; } .reading-controls input[type="range"] { flex: 1 1 6rem; width: auto; min-width: 0; }
}
`;

export class ReadingView {
  #ui = {};
  #legend = legend();
  #data = null; // readingData() of the last render, plus { name, input, text, cell, result, vocab }
  #key = ''; // model and text of the drawn run: a new one stops playing
  #step = 0;
  #timer = 0;
  #lang = 'en';
  #spans = [];
  #order; // orderByWidth's start: the phone's order of the parts

  constructor() {
    const u = this.#ui;
    u.about = el('p', { class: 'note reading-about' });
    u.readAsLabel = el('span');
    u.readAs = el('output', { class: 'output read-as' });
    u.why = whyToggle(u.about);
    u.unknown = el('p', { class: 'note unknown-note' });
    u.back = el('button', { type: 'button', 'data-action': 'back' });
    u.play = el('button', { type: 'button', 'data-action': 'play' });
    u.pause = el('button', { type: 'button', 'data-action': 'pause', disabled: '' });
    u.step = el('button', { type: 'button', 'data-action': 'step' });
    u.sliderLabel = el('label', { for: 'reading-step', class: 'phone-hidden' });
    u.slider = el('input', {
      id: 'reading-step',
      type: 'range',
      min: '0',
      max: '0',
      step: '1',
      value: '0',
    });
    u.position = el('output', { for: 'reading-step', class: 'position' });
    u.controls = el('div', { class: 'reading-controls' }, [
      el('div', { class: 'buttons' }, [u.back, u.play, u.pause, u.step]),
      el('div', { class: 'slider' }, [u.sliderLabel, u.slider, u.position]),
    ]);
    u.arcs = document.createElementNS(SVG_NS, 'svg');
    u.arcs.setAttribute('class', 'arcs');
    u.arcs.setAttribute('aria-hidden', 'true');
    u.row = el('div', { class: 'word-row' });
    u.words = el(
      'div',
      {
        class: 'reading-words',
        tabindex: '0',
        role: 'application',
        'aria-roledescription': 'sentence',
      },
      [u.arcs, u.row],
    );
    u.strip = el('div', { class: 'reading-strip', 'data-main': 'picture' }, [u.words]);
    u.live = el('div', { class: 'visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'true' });
    u.nextTitle = el('h3', { class: 'selected-title', id: 'next-title' });
    u.next = el('ul', { class: 'probs next-words', 'aria-labelledby': 'next-title' });
    u.nextNote = el('p', { class: 'note next-note' });
    u.perplexity = el('p', { class: 'note perplexity' });
    u.leastExpected = el('p', { class: 'note least-expected' });
    u.mapTitle = el('h3', { class: 'selected-title' });
    u.map = el('attn-heatmap', { class: 'reading-map', min: '0', max: '1' });
    u.mapBox = el('div', { class: 'reading-map-box' }, [u.mapTitle, u.map]);
    u.altSummary = el('summary');
    u.altList = el('ol');
    u.alt = el('details', { class: 'text-alt' }, [u.altSummary, u.altList]);
    u.all = el('button', { type: 'button', 'data-action': 'download-reading' });
    u.csv = el('button', { type: 'button', 'data-action': 'download-probs' });
    const line = el('div', { class: 'view-line' }, [
      el('p', { class: 'output-line' }, [u.readAsLabel, ' ', u.readAs]),
      u.why.node,
    ]);
    // what the model predicts: the next word's probabilities, or why none; the perplexity
    const predicted = [u.nextTitle, u.next, u.nextNote, u.perplexity, u.leastExpected];
    const output = el('div', { class: 'reading-output', 'data-main': 'output' }, predicted);
    const key = this.#legend.node;
    const tail = [u.mapBox, u.alt, el('div', { class: 'buttons' }, [u.all, u.csv])];
    const wide = [line, u.unknown, u.controls, key, u.strip, u.live, output, ...tail];
    // a phone: stepping, picture, legend, prediction, then "read as" (the picture on the first screen)
    const narrow = [u.controls, u.strip, u.live, key, output, line, u.unknown, ...tail];
    this.node = el('section', { 'data-view': 'reading' }, wide);
    this.#order = orderByWidth(this.node, wide, narrow);
    u.back.addEventListener('click', () => this.#moveTo(this.#step - 1));
    u.step.addEventListener('click', () => this.#moveTo(this.#step + 1));
    u.play.addEventListener('click', () => this.play());
    u.pause.addEventListener('click', () => this.pause());
    u.slider.addEventListener('input', () => this.#moveTo(u.slider.valueAsNumber));
    u.words.addEventListener('keydown', (e) => this.#onKey(e));
    u.words.addEventListener('focus', () => this.#announce());
    u.row.addEventListener('click', (e) => {
      const w = e.target.closest?.('.rword');
      if (w) this.#moveTo(Number(w.dataset.index));
    });
    u.all.addEventListener('click', () => this.#downloadAll());
    u.csv.addEventListener('click', () => this.#downloadCSV());
  }

  /** The typed text normalized as the agreement models read it, run with every next-word
   * distribution; the view moves the current word without running it again, and the step it
   * reports (view-change { step }; not when render() sets it) is a setting like any other: the
   * redraw for it runs the sentence again. @param {import('./view-context.js').ViewContext} ctx */
  update(ctx) {
    const s = ctx.state;
    // a model that names its normalisation (tokenizer.normalize) reads the typed text its own
    // way; older files get the page's (lowercase, . , ! ? split off)
    const own = ctx.model.tokenizer.normalization?.includes('punctuation');
    const text = own ? ctx.model.normalize(String(s.input ?? '')) : readingInput(s.input);
    const result = runInput(this.node, ctx, ctx.model, text, { distributions: true });
    if (!result) {
      this.clear();
      return emit(this.node, 'view-done', { result: null });
    }
    emit(this.node, 'view-error', ctx.refused);
    const shown = this.render({
      result,
      config: ctx.model.config,
      name: s.model,
      input: s.input,
      text,
      lang: s.lang,
      step: s.step,
    });
    for (const h of this.heatmaps) h.flush();
    emit(
      this.node,
      'view-status',
      t(s.lang, 'status.reading', {
        n: plural(s.lang, 'count.tokens', shown.n),
        ms: elapsed(ctx).toFixed(1),
      }),
    );
    emit(this.node, 'view-done', { result, extra: { shown } });
  }

  /** The <attn-heatmap>s (for the host's flush). */
  get heatmaps() {
    return [this.#ui.map];
  }

  /** The current word's index (0 = the first token). */
  get step() {
    return this.#step;
  }

  /** Forget the drawn run (the input cannot be run). */
  clear() {
    this.pause();
    this.#ui.map.data = null;
    this.#ui.row.replaceChildren();
    this.#ui.arcs.replaceChildren();
    this.#ui.next.replaceChildren();
    this.#spans = [];
    this.#data = null;
    this.#key = '';
  }

  /** Stop playing (also when the host leaves the document or changes view). */
  pause() {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = 0;
    this.#ui.pause.disabled = true;
    this.#ui.play.disabled = !this.#data;
  }

  /** Read the sentence from the first word, one word every STEP_MS (from the start when at the end). */
  play() {
    const d = this.#data;
    if (!d) return;
    this.pause();
    if (this.#step >= d.n - 1) this.#moveTo(0);
    this.#ui.play.disabled = true;
    this.#ui.pause.disabled = false;
    this.#timer = setInterval(() => {
      if (!this.node.isConnected || this.#step >= d.n - 1) return this.pause();
      this.#moveTo(this.#step + 1);
      if (this.#step >= d.n - 1) this.pause();
    }, STEP_MS);
  }

  /**
   * Draw a run. result: Model.run(text, { distributions: true }) of a memory-rnn language model;
   * text: the normalized text that was run; input: as typed; step: the current word (clamped to
   * the sentence), or null for the whole sentence read. A redraw of the same run keeps playing.
   * Returns { n, step, cell, unknown }.
   */
  render({ result, config, name, input, text, lang, step = null }) {
    const u = this.#ui;
    this.#order();
    this.#lang = lang;
    const data = readingData(result, text, config);
    const cell = ['lstmn', 'self-attention-rnn', 'lstm'].includes(config.cell)
      ? config.cell
      : 'lstmn';
    const key = `${name}\u0000${text}`;
    if (key !== this.#key) this.pause();
    this.#key = key;
    // null: the whole sentence read (Play starts from the first word)
    this.#step = step === null ? data.n - 1 : Math.max(0, Math.min(data.n - 1, step));
    this.#data = {
      ...data,
      name,
      input,
      text,
      cell,
      result,
      vocab: config.tokenizer?.vocab ?? [],
      unk: config.tokenizer?.unk ?? '<unk>',
    };

    u.about.textContent = t(lang, `reading.about.${cell}`);
    u.why.texts(lang);
    u.readAsLabel.textContent = t(lang, 'reading.readAs');
    u.readAs.textContent = text;
    u.unknown.textContent = data.unknown.length
      ? t(lang, 'reading.unknown', {
          unk: this.#data.unk,
          // a word read as a shape class (<unk-s>: "jars") says which
          words: data.unknown
            .map((w) => (w.token === this.#data.unk ? w.word : `${w.word} (${w.token})`))
            .join(', '),
        })
      : t(lang, 'reading.allKnown');
    u.unknown.toggleAttribute('data-unknown', data.unknown.length > 0);
    u.back.textContent = t(lang, 'reading.back');
    u.play.textContent = t(lang, 'time.play');
    u.pause.textContent = t(lang, 'time.pause');
    u.step.textContent = t(lang, 'time.step');
    u.sliderLabel.textContent = t(lang, 'reading.position');
    u.slider.max = String(data.n - 1);
    u.words.setAttribute('aria-label', t(lang, 'reading.wordsLabel', { n: data.n }));
    u.words.setAttribute('aria-description', t(lang, 'reading.keys'));
    this.#legend.set(0, 1, t(lang, 'reading.legend'));
    this.#legend.node.hidden = !data.weights;
    u.mapBox.hidden = !data.weights;
    u.mapTitle.textContent = t(lang, 'reading.mapTitle');
    u.map.setAttribute('label', t(lang, 'reading.mapLabel'));
    u.map.setAttribute('lang', lang);
    u.perplexity.textContent =
      result.perplexity === undefined
        ? ''
        : t(lang, 'reading.perplexity', {
            value: formatValue(result.perplexity),
            count: data.n - 1,
          });
    const least = leastExpected(result.logProbs);
    u.leastExpected.textContent = least
      ? t(lang, 'reading.leastExpected', {
          word: data.tokens[least.index],
          p: formatValue(least.prob, 3),
          share: `${Math.round(100 * least.share)}%`,
        })
      : '';
    u.altSummary.textContent = t(lang, 'reading.asText');
    u.all.textContent = t(lang, 'reading.downloadAll');
    u.csv.textContent = t(lang, 'reading.downloadProbs');

    // The words: built once per run; stepping only restyles them.
    const unknown = new Set(data.unknown.map((w) => w.index));
    this.#spans = data.tokens.map((token, i) => {
      const node = el('span', { class: 'rword', 'data-index': String(i) }, [
        el('span', { class: 'word', text: token }),
        el('span', { class: 'p', text: i === 0 ? '–' : formatValue(data.probs[i], 3) }),
      ]);
      node.title =
        i === 0
          ? `${token}: ${t(lang, 'reading.notPredicted')}`
          : `${token}: p = ${formatValue(data.probs[i])}`;
      if (unknown.has(i)) node.setAttribute('data-unknown', '');
      return node;
    });
    u.row.replaceChildren(...this.#spans);
    this.#altText();
    this.#draw();
    if (!this.#timer) this.pause(); // the buttons
    return { n: data.n, step: this.#step, cell, unknown: data.unknown.length };
  }

  // ---- stepping --------------------------------------------------------------------------------

  #onKey(event) {
    if (!this.#data || event.altKey || event.metaKey || event.ctrlKey) return;
    let next = this.#step;
    switch (event.key) {
      case 'ArrowLeft':
        next -= 1;
        break;
      case 'ArrowRight':
        next += 1;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = this.#data.n - 1;
        break;
      default:
        return;
    }
    event.preventDefault();
    this.pause();
    this.#moveTo(next);
  }

  #moveTo(step) {
    const d = this.#data;
    if (!d || !Number.isFinite(step)) return;
    const from = this.#step;
    this.#step = Math.max(0, Math.min(d.n - 1, Math.round(step)));
    this.#draw();
    this.#announce();
    if (this.#step !== from) emit(this.node, 'view-change', { step: this.#step });
  }

  /** Restyle everything that depends on the current word. */
  #draw() {
    const d = this.#data;
    const u = this.#ui;
    const lang = this.#lang;
    const s = this.#step;
    const row = attentionRow(d.weights, d.n, s);
    this.node.dataset.step = String(s);
    u.slider.value = String(s);
    u.position.textContent = t(lang, 'reading.positionOf', { t: s + 1, n: d.n, word: d.tokens[s] });
    u.position.title = t(lang, 'index.step', { step: s }); // the attribute counts from 0 (docs/embedding: indices)
    u.back.disabled = s === 0;
    u.step.disabled = s === d.n - 1;
    this.#spans.forEach((node, i) => {
      const word = node.firstChild;
      node.toggleAttribute('data-current', i === s);
      node.toggleAttribute('data-future', i > s);
      if (row && i <= s) {
        const rgb = valueToColor(row[i], 0, 1);
        word.style.background = rgbToHex(rgb);
        word.style.color = textColorFor(rgb);
        word.title = `${d.tokens[i]}: ${formatValue(row[i])}`;
      } else {
        word.style.background = '';
        word.style.color = '';
        word.removeAttribute('title');
      }
    });
    this.#drawArcs(row);
    // Keep the current word in sight in a sentence wider than the strip (phones).
    const span = this.#spans[s];
    const strip = u.strip;
    if (span && strip.clientWidth) {
      const left = span.offsetLeft;
      const right = left + span.offsetWidth;
      if (left < strip.scrollLeft) strip.scrollLeft = Math.max(0, left - 8);
      else if (right > strip.scrollLeft + strip.clientWidth)
        strip.scrollLeft = right - strip.clientWidth + 8;
    }
    if (d.weights) {
      u.map.data = {
        weights: readSoFar(d.weights, d.n, s),
        rows: s + 1,
        cols: s + 1,
        rowLabels: d.tokens.slice(0, s + 1),
        colLabels: d.tokens.slice(0, s + 1),
      };
    } else {
      u.map.data = null;
    }
    this.#drawNext();
  }

  /** Arcs from the current word to the earlier words it reads: width and opacity ∝ weight. */
  #drawArcs(row) {
    const svg = this.#ui.arcs;
    const spans = this.#spans;
    const s = this.#step;
    if (!row || !spans[s]) {
      svg.replaceChildren();
      return;
    }
    const width = this.#ui.words.scrollWidth;
    svg.setAttribute('width', String(width));
    svg.setAttribute('height', String(ARC_HEIGHT + 4));
    const x = (i) => spans[i].offsetLeft + spans[i].offsetWidth / 2;
    const base = ARC_HEIGHT + 2;
    const paths = [];
    const x0 = x(s);
    for (let i = 0; i < s + (this.#data.cell === 'self-attention-rnn' ? 1 : 0); i++) {
      const w = row[i];
      if (!(w > 0.005)) continue;
      const xi = x(i);
      const path = document.createElementNS(SVG_NS, 'path');
      if (i === s) {
        // attention to itself (self-attention RNN): a small loop above the word
        path.setAttribute(
          'd',
          `M ${x0 - 6} ${base} C ${x0 - 14} ${base - 22}, ${x0 + 14} ${base - 22}, ${x0 + 6} ${base}`,
        );
      } else {
        const h = Math.min(ARC_HEIGHT - 4, 14 + Math.abs(x0 - xi) * 0.25);
        path.setAttribute(
          'd',
          `M ${x0} ${base} C ${x0} ${base - h}, ${xi} ${base - h}, ${xi} ${base}`,
        );
      }
      path.setAttribute('fill', 'none');
      path.setAttribute('stroke', 'currentColor');
      path.setAttribute('stroke-width', (0.75 + 5 * w).toFixed(2));
      path.setAttribute('stroke-opacity', (0.2 + 0.8 * w).toFixed(3));
      path.setAttribute('data-to', String(i));
      paths.push(path);
    }
    svg.replaceChildren(...paths);
  }

  /** The model's top guesses for the word after the current one, the real next word marked. */
  #drawNext() {
    const d = this.#data;
    const u = this.#ui;
    const lang = this.#lang;
    const s = this.#step;
    const dist = d.result.distributions;
    u.nextTitle.textContent = t(lang, 'reading.probTitle', { word: d.tokens[s] });
    if (s >= d.n - 1 || !dist) {
      u.next.replaceChildren();
      u.nextTitle.hidden = true;
      u.nextNote.textContent = s >= d.n - 1 ? t(lang, 'reading.end') : '';
      return;
    }
    u.nextTitle.hidden = false;
    const V = dist.shape[1];
    const logRow = dist.data.subarray(s * V, (s + 1) * V);
    const actualId = d.result.ids[s + 1];
    const top = topNext(logRow, d.vocab, 5);
    if (!top.some((g) => g.id === actualId))
      top.push({
        id: actualId,
        word: d.vocab[actualId] ?? d.unk,
        prob: Math.exp(logRow[actualId]),
      });
    u.next.replaceChildren(
      ...top.map((g) => {
        const fill = el('span', { class: 'fill' });
        fill.style.width = `${Math.max(0, Math.min(1, g.prob)) * 100}%`;
        const actual = g.id === actualId;
        const li = el('li', { 'data-word': g.word }, [
          el('span', { class: 'label', text: actual ? `${g.word} ✓` : g.word }),
          el('span', { class: 'bar', 'aria-hidden': 'true' }, [fill]),
          el('span', { class: 'value', text: formatValue(g.prob) }),
        ]);
        if (actual) {
          li.setAttribute('data-predicted', '');
          li.setAttribute('aria-description', t(lang, 'reading.cameNext'));
        }
        return li;
      }),
    );
    u.nextNote.textContent = t(lang, 'reading.nextWord', {
      word: d.tokens[s + 1],
      p: formatValue(d.probs[s + 1]),
    });
  }

  /** What a sighted reader sees for the current word, for the live region. */
  get focusedText() {
    const d = this.#data;
    if (!d) return '';
    const s = this.#step;
    const params = {
      t: s + 1,
      word: d.tokens[s],
      p: s === 0 ? t(this.#lang, 'reading.notPredicted') : formatValue(d.probs[s]),
    };
    if (!d.weights) return t(this.#lang, 'reading.sayLstm', params);
    const row = attentionRow(d.weights, d.n, s);
    const best = strongestEarlier(row);
    if (best.index < 0) return t(this.#lang, 'reading.sayNone', params);
    return t(this.#lang, 'reading.say', {
      ...params,
      top: d.tokens[best.index],
      w: formatValue(best.weight),
    });
  }

  #announce() {
    this.#ui.live.textContent = this.focusedText;
  }

  /** Every word: its probability and the weights it gave the earlier words, as a list. */
  #altText() {
    const d = this.#data;
    const lang = this.#lang;
    this.#ui.altList.replaceChildren(
      ...d.tokens.map((word, i) => {
        const row = attentionRow(d.weights, d.n, i);
        const weights = row
          ? Array.from(row, (w, j) => `${d.tokens[j]} ${formatValue(w)}`)
              .slice(0, d.cell === 'self-attention-rnn' ? i + 1 : i)
              .join(', ') || t(lang, 'reading.altNone')
          : t(lang, 'reading.altNone');
        const p = i === 0 ? t(lang, 'reading.notPredicted') : formatValue(d.probs[i]);
        return el('li', { text: t(lang, 'reading.altRow', { word, p, weights }) });
      }),
    );
  }

  // ---- downloads -------------------------------------------------------------------------------

  #downloadAll() {
    if (!this.#data) return;
    const doc = readingJSON(this.#data);
    downloadBlob(
      fileName(`${this.#data.name} reading`, 'json'),
      new Blob([JSON.stringify(doc, null, 2) + '\n'], { type: 'application/json' }),
    );
  }

  #downloadCSV() {
    if (!this.#data) return;
    downloadBlob(
      fileName(`${this.#data.name} probabilities`, 'csv'),
      new Blob([readingCSV(this.#data)], { type: 'text/csv' }),
    );
  }
}
