// gold.js: the gold alignment of the translation models (issue #14) over a view's attention map:
// the toggle, the lazy loading of the data generator, the reference translation forced when the
// model's own output differs from it, and the alignment error of the drawn map.
//
//   const panel = new GoldPanel({ onToggle: (on) => … });     // a checkbox and a note
//   view.node.append(panel.node);
//   panel.show(isTranslationModel, on);
//   const { result, g } = panel.prepare({ model, input, result: model.run(input), run, on, refresh });
//   // … draw result (forced on the reference when the model wrote something else) …
//   panel.draw(heatmap, drawnMap, g);   // outlines the gold, says AER and mass (or why there is none)
//
// goldRun(model, input, result) → { status: 'none' } or { status: 'ok', ex, result, forced };
// goldMetrics(map, ex) → translation-metrics.js alignmentError of the map.
// The views that draw something else than one whole run (time-view.js: the rows decoded so far;
// compare-view.js: every model) use the pieces: panel.tools(refresh) (the generator, or the
// loading note), goldSource(input) → { ex, source } or null, referenceRows(model,
// ex), goldScore(model, { ex, source }) (the reference forced on a seq2seq model) and
// panel.metricsLine(metrics, hasAttention) in their own note.
//
// The gold is web/data/translation.js parseEnglish(input): the generator's record of the sentence
// (English and French tokens, alignment[j] = the English indices of French token j), or null when
// the grammar cannot produce it. Its rows are the reference's French tokens, so when the model
// writes something else the map is the model's attention with the reference forced: seq2seq
// model.score (teacher forcing), a transformer model.forward with bos + the reference. The
// generator and web/shared/translation-metrics.js are import()ed on first use: the first view
// never waits for them.
// Holds: the panel's DOM, the forcing and the metrics' call. Deliberately holds no grammar, no
// maths (translation-metrics.js alignmentError) and no drawing (<attn-heatmap> gold property).

import { t } from './i18n.js';
import { el } from './view-kit.js';

/** @type {{ parseEnglish: (text: string) => any, alignmentError: Function } | null} */
let tools = null;
/** @type {Promise<void> | null} */
let loading = null;
/** @type {Error | null} */
let loadError = null;

/** The generator and the metrics once loaded, else null (loading starts; onReady runs after). */
export function goldTools(onReady = () => {}) {
  if (tools || loadError) return tools;
  loading ??= Promise.all([
    import('../data/translation.js'),
    import('./translation-metrics.js'),
  ]).then(
    ([data, metrics]) =>
      void (tools = { parseEnglish: data.parseEnglish, alignmentError: metrics.alignmentError }),
    (err) => void (loadError = err),
  );
  loading.then(onReady);
  return null;
}

/** Is the registry entry a translation model (the gold alignment applies)? */
export function hasGold(entry) {
  return entry?.task === 'translation';
}

/** Target ids of tokens in the model's target vocabulary (unknown ones: the unk id). */
function targetIds(model, tokens) {
  const tok = model.tokenizer;
  return tokens.map((w) => tok.tgt.get(w) ?? tok.tgtUnkId);
}

/**
 * The gold of input for result, model's run of it (call after goldTools() answered): { status:
 * 'none' } or { status: 'ok', ex, result, forced }: ex the generator's record; result the run
 * itself when its output tokens are the reference's, else the reference forced (forced: true;
 * output and ids stay the model's own). null when there is a gold but no run (result null).
 * @param {any} model a loaded seq2seq or encoder-decoder transformer
 * @param {string} input
 * @param {any} result model's run of input
 */
export function goldRun(model, input, result) {
  const gs = goldSource(input);
  if (!gs) return { status: 'none' };
  if (!result) return null;
  const { ex, source } = gs;
  const eos = model.tokenizer.specials.eos;
  const own = result.tokens.filter((w) => w !== eos).join(' ');
  if (own === ex.tgtTokens.join(' ')) return { status: 'ok', ex, result, forced: false };
  const rows = referenceRows(model, ex);
  const ids = targetIds(model, ex.tgtTokens);
  let attention;
  if (model.architecture === 'transformer') {
    const fed = model.forward(source, Int32Array.from([model.bosId, ...ids]));
    attention = fed.attention.map((m) => (m.stack === 'decoder' ? { ...m, rowLabels: rows } : m));
  } else {
    const scored = goldScore(model, gs);
    const map = result.attention[0];
    attention = [{ ...map, weights: scored.attention, rowLabels: rows }];
    if (scored.positions) result.positions = scored.positions;
  }
  return { status: 'ok', ex, result: { ...result, attention }, forced: true };
}

/**
 * The generator's reading of input (call after goldTools() answered): null when the
 * grammar cannot write it, else { ex, source }: ex its record, source the English the model reads
 * (input itself: the generator ends sentences as people do, with ".", "?", "!" or nothing).
 * @param {string} input
 */
export function goldSource(input) {
  const ex = tools.parseEnglish(input);
  return ex ? { ex, source: input } : null;
}

/** The reference's rows: its French tokens, then the end token. */
export function referenceRows(model, ex) {
  return [...ex.tgtTokens, model.tokenizer.specials.eos];
}

/** A seq2seq model's attention with the reference forced (model.score of the reference and eos). */
export function goldScore(model, { ex, source }) {
  return model.score(source, Int32Array.from([...targetIds(model, ex.tgtTokens), model.eosId]));
}

/** The alignment error of the drawn map ({ weights: { data, shape } }) against the gold. */
export function goldMetrics(map, ex) {
  return tools.alignmentError(map.weights, ex.alignment);
}

/** A number as the note shows it (3 decimals; the tests recompute the same text). */
export const goldNumber = (v) => (Number.isFinite(v) ? v.toFixed(3) : '–');

let panels = 0; // ids of the panels' checkboxes, unique in a shadow root

export class GoldPanel {
  #lang = 'en';

  /** @param {{ onToggle: (on: boolean) => void }} handlers */
  constructor({ onToggle }) {
    const id = `gold-${++panels}`;
    this.box = el('input', { type: 'checkbox', id, 'data-action': 'gold' });
    this.label = el('label', { for: id });
    this.hint = el('span', { class: 'hint' });
    this.note = el('div', { class: 'gold-note', role: 'status' });
    this.node = el('div', { class: 'gold', hidden: '' }, [
      el('div', { class: 'gold-toggle' }, [this.box, this.label, this.hint]),
      this.note,
    ]);
    this.box.addEventListener('change', () => onToggle(this.box.checked));
  }

  /** The interface strings, in lang. */
  texts(lang) {
    this.#lang = lang;
    this.label.textContent = t(lang, 'gold.toggle');
    this.hint.textContent = t(lang, 'gold.hint');
  }

  /** Shown (a translation model) or not, checked or not; the note emptied (update says it again). */
  show(visible, on) {
    this.node.hidden = !visible;
    this.box.checked = on;
    this.say();
  }

  /**
   * The note under the toggle: paragraphs (strings), each with a data-gold attribute naming what it
   * says ('none', 'metrics', 'forced', 'loading', 'error', 'kind'), for the tests.
   * @param {...[string, string]} lines [kind, text]
   */
  say(...lines) {
    this.note.replaceChildren(
      ...lines.map(([kind, text]) =>
        el('p', { class: kind === 'none' ? 'gold-none' : 'note', 'data-gold': kind, text }),
      ),
    );
    this.note.hidden = lines.length === 0;
  }

  /** The note of a drawn map: the metrics, and whether the reference is forced. */
  report(g, metrics, hasAttention = true) {
    const lang = this.#lang;
    /** @type {[string, string][]} */
    const lines = [];
    if (g.forced) lines.push(['forced', t(lang, 'gold.forced', { reference: g.ex.tgt })]);
    lines.push(this.metricsLine(metrics, hasAttention));
    this.say(...lines);
  }

  /** The note's line of metrics (alignmentError's), or that the model has no attention. */
  metricsLine(metrics, hasAttention = true) {
    const lang = this.#lang;
    /** @type {[string, string]} */
    const line = hasAttention
      ? [
          'metrics',
          t(lang, 'gold.metrics', {
            aer: goldNumber(metrics.aer),
            mass: goldNumber(metrics.mass),
            hits: metrics.hits,
            rows: metrics.rows,
            links: metrics.gold,
          }),
        ]
      : ['metrics', t(lang, 'gold.noAttention')];
    return line;
  }

  /**
   * Before drawing: the run to draw when the toggle is on (on) for a translation model. Returns
   * { result, g }: result the run (forced on the reference when goldRun says so) and g goldRun's
   * answer, or null while the generator loads (refresh redraws then) or when the toggle is off.
   * The note says which.
   * @param {{ model: any, input: string, result: any, on: boolean, refresh: () => void }} a
   */
  prepare({ model, input, result, on, refresh }) {
    if (!result || !on) return { result, g: null };
    if (!this.tools(refresh)) return { result, g: null };
    const g = goldRun(model, input, result);
    if (g?.status === 'none') this.none();
    return { result: g ? (g.result ?? result) : null, g };
  }

  /**
   * After drawing: the gold outlined on heatmap over map (the drawn { weights }), its metrics in
   * the note, when g holds a gold and drawIt; else no outline. Returns the demo-render detail's
   * gold: { status, forced, aer, mass } (null without a gold).
   */
  draw(heatmap, map, g, { drawIt = true, hasAttention = true } = {}) {
    const ok = g?.status === 'ok';
    const metrics = ok && drawIt ? goldMetrics(map, g.ex) : null;
    heatmap.gold = metrics ? g.ex.alignment : null;
    if (metrics) this.report(g, metrics, hasAttention);
    else if (ok) this.kind();
    return (
      g && {
        status: g.status,
        forced: g.forced ?? false,
        aer: metrics?.aer ?? null,
        mass: metrics?.mass ?? null,
      }
    );
  }

  /** goldTools(refresh), or null with the note saying the generator is loading or failed to. */
  tools(refresh) {
    const got = goldTools(refresh);
    if (!got) {
      if (loadError) this.failed(loadError);
      else this.loading();
    }
    return got;
  }

  /** The note when there is no gold (the generator cannot write the sentence), loading or failed. */
  none() {
    this.say(['none', t(this.#lang, 'gold.none')]);
  }
  loading() {
    this.say(['loading', t(this.#lang, 'gold.loading')]);
  }
  failed(err) {
    this.say(['error', t(this.#lang, 'gold.failed', { message: err.message })]);
  }
  kind() {
    this.say(['kind', t(this.#lang, 'gold.kind')]);
  }
}

/** The panel's styles (the views add them to <attn-demo>'s shadow root). */
export const GOLD_STYLE = `
.gold { margin: 0.25rem 0; }
.gold-toggle { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.5rem; }
.gold-toggle input { min-height: 0; width: 1.1rem; height: 1.1rem; margin: 0; }
.gold-toggle label { font-weight: 600; }
.gold-toggle .hint { margin: 0; flex: 1 1 20rem; } /* beside its label where the line allows */
.gold-note p { margin: 0.25rem 0; font-size: 0.875rem; }
.gold-none { padding: 0.35rem 0.6rem; border-radius: 6px;
  background: var(--attn-demo-warning-bg, #fff4ce); color: var(--attn-demo-warning-text, #5c4400); }
@media (prefers-color-scheme: dark) { .gold-none { background: var(--attn-demo-warning-bg, #3d3100); color: var(--attn-demo-warning-text, #ffe58f); } }
`;
