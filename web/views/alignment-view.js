// alignment-view.js: the Alignment view of <attn-demo>: a seq2seq model's attention map for the
// whole output (Bahdanau et al. 2015, Fig. 3), and what one cell's weight is made of.
//
//   const view = new AlignmentView();
//   host.append(view.node);
//   view.update(ctx);   // from <attn-demo>: runs ctx.model on the input, then render()
//   // events (view-context.js): view-change { gold }, view-refresh, view-status, view-error,
//   // view-blank, view-done
//   view.render({ result: model.run(input), config: model.config, layer, head, lang });
//
// Shows: the output, the map as an <attn-heatmap> (rows: output tokens, columns: input tokens)
// and beside it an explanation of the hovered or focused cell (explain.js: the mechanism's
// equation, the score relative to the row's largest, the softmax, for local attention the window
// and the Gaussian, the rank in the row), the local window of that row outlined; for the
// translation models a "gold alignment" toggle (gold.js): the generator's alignment of the
// sentence outlined over the map, its AER and gold attention mass, the reference forced when the
// model's output differs from it, or a plain note when the generator cannot write the sentence.
// Holds: the view's DOM and its wiring (update). Deliberately holds no maths (explain.js) and no
// drawing (<attn-heatmap>); the model is run on every edit (view-context.js runInput: the input
// tokenised once).

import { formatValue } from '../shared/draw.js';
import { explainCell, panelEquations, rankText, windowRange } from '../shared/explain.js';
import { colon, mechanismName, t } from '../shared/i18n.js';
import { el, equationEl, noAttentionPanel, pickMap } from '../shared/view-kit.js';
import { GOLD_STYLE, GoldPanel, hasGold } from '../shared/gold.js';
import { findModel } from '../shared/models.js';
import { OutputConfidence, formatProb, thresholdOf } from '../shared/output-confidence.js';
import { elapsed, emit, runInput, unknownOf } from './view-context.js';

/** Styles this view adds to <attn-demo>'s shadow root. */
export const ALIGNMENT_STYLE = `
.split { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem; align-items: start; }
@container (max-width: 40rem) { .split { grid-template-columns: minmax(0, 1fr); } }
.explain { border: 1px solid var(--al-line, #d6d6df); border-radius: 6px; padding: 0.5rem 0.75rem;
  font-size: 0.875rem; min-width: 0; overflow-wrap: anywhere; }
.explain h3 { font-size: 0.95rem; margin: 0 0 0.25rem; }
.explain .eq { font-family: "STIX Two Math", "Cambria Math", serif; font-size: 1rem; margin: 0.2rem 0; }
.explain dl { display: grid; grid-template-columns: auto auto; gap: 0.1rem 0.75rem; margin: 0.5rem 0; }
.explain dt { color: var(--al-muted, GrayText); }
.explain dd { margin: 0; font-variant-numeric: tabular-nums; font-family: ui-monospace, monospace; }
${GOLD_STYLE}`;

export class AlignmentView {
  #ui = {};
  #lang = 'en';
  #active = null; // { row, col } the explanation describes
  #shown = null; // { config, result, map, rows, cols } of the last render
  #gold;
  #none = noAttentionPanel();
  #confidence = new OutputConfidence();

  constructor() {
    const u = this.#ui;
    this.#gold = new GoldPanel({ onToggle: (gold) => emit(this.node, 'view-change', { gold }) });
    u.outputLabel = el('span');
    u.output = el('output', { class: 'output', for: 'input', 'data-main': 'output' });
    u.map = el('attn-heatmap', { class: 'align-map', min: '0', 'data-main': 'picture' });
    u.explain = el('aside', { class: 'explain', 'aria-live': 'polite' });
    this.node = el('section', { 'data-view': 'alignment' }, [
      el('p', { class: 'output-line' }, [u.outputLabel, ' ', u.output]),
      this.#confidence.warning,
      this.#confidence.legend,
      this.#gold.node,
      this.#none.node,
      (u.split = el('div', { class: 'split' }, [u.map, u.explain])),
    ]);
    const activate = (e) => {
      if (e.detail) {
        this.#active = { row: e.detail.row, col: e.detail.col };
        this.#explain();
      }
    };
    u.map.addEventListener('heatmap-focus', activate);
    u.map.addEventListener('heatmap-hover', activate);
    u.map.addEventListener('focusin', () => {
      this.#active = { ...u.map.focusedCell };
      this.#explain();
    });
  }

  get heatmaps() {
    return [this.#ui.map];
  }

  /** The interface strings, in lang. */
  texts(lang) {
    this.#lang = lang;
    this.#ui.outputLabel.textContent = `${t(lang, 'output.label')}${colon(lang)}`;
    this.#ui.map.setAttribute('lang', lang);
    this.#ui.map.setAttribute('label', t(lang, 'heatmap.alignment'));
    this.#gold.texts(lang);
  }

  /** The explanation panel shown or not (the hide flag 'explain'). */
  showExplain(on) {
    this.#ui.explain.hidden = !on;
  }

  /** Forget the drawn map (the model could not be loaded). */
  clear() {
    this.#ui.map.data = null;
    this.#ui.map.gold = null;
    this.#ui.output.textContent = '';
    this.#confidence.clear();
  }

  /** Run the current model on the input and draw it. @param {import('./view-context.js').ViewContext} ctx */
  update(ctx) {
    const { state: s } = ctx;
    const gold = hasGold(findModel(s.model));
    this.#gold.show(gold, s.gold);
    const run = runInput(this.node, ctx, ctx.model, s.input);
    const { result, g } = this.#gold.prepare({
      model: ctx.model,
      input: s.input,
      result: run,
      on: gold && s.gold,
      refresh: () => emit(this.node, 'view-refresh'),
    });
    if (!result) {
      this.clear();
      this.#ui.explain.replaceChildren(el('p', { text: t(s.lang, 'explain.prompt') }));
      return emit(this.node, 'view-done', { result: null });
    }
    emit(this.node, 'view-error', ctx.refused);
    const words = ctx.model.tokenizer.type === 'word';
    this.#ui.map.setAttribute(
      'label',
      t(s.lang, words ? 'heatmap.alignmentWords' : 'heatmap.alignment'),
    );
    const threshold = thresholdOf(ctx);
    const { rows, cols } = this.render({
      result,
      config: ctx.model.config,
      layer: s.layer,
      head: s.head,
      lang: s.lang,
      // the rows' token probabilities, when the rows are the model's own output (not the
      // reference forced with the gold on)
      probs: result === run ? run.probs : null,
      threshold,
    });
    // the model's own output, its tokens shaded by 1 − p, and the "may be wrong" warning
    // (issue 30; run, not the forced reference: that is not what the model wrote)
    const verdict = this.#confidence.show({
      output: this.#ui.output,
      result: run,
      model: ctx.model,
      input: s.input,
      threshold,
      lang: s.lang,
    });
    const none = ctx.model.config.attention === 'none';
    this.#none.show(none, s.lang); // its maps are zeros: the panel, not a map that looks like a finding
    this.#ui.split.hidden = none;
    const shownGold = this.#gold.draw(this.#ui.map, this.#shown.map, g, { hasAttention: !none });
    this.#ui.map.flush();
    emit(
      this.node,
      'view-status',
      t(s.lang, 'status.ran', { rows, cols, ms: elapsed(ctx).toFixed(1) }),
    );
    emit(this.node, 'view-done', {
      result,
      extra: { output: result.output, gold: shownGold, mayBeWrong: verdict.warn },
      unknown: unknownOf(run),
    });
  }

  /** Draw a run (its map of layer and head, clamped; probs: each row's token probability, shown
   * in the explanation, with the model's threshold). Returns { rows, cols }. */
  render({ result, config, layer, head, lang, probs = null, threshold = null }) {
    const u = this.#ui;
    const map = pickMap(result.attention, layer, head);
    const [rows, cols] = map.weights.shape;
    u.output.textContent = result.output || t(lang, 'output.none');
    u.map.data = {
      weights: map.weights.data,
      rows,
      cols,
      rowLabels: map.rowLabels,
      colLabels: map.colLabels,
      // each row's token probability, underlined under its label (issue 30)
      ...(probs?.length === rows
        ? { rowProbs: probs, threshold: typeof threshold === 'number' ? threshold : null }
        : {}),
    };
    this.#shown = { config, result, map, rows, cols, probs, threshold };
    if (this.#active) {
      this.#active.row = Math.min(this.#active.row, rows - 1);
      this.#active.col = Math.min(this.#active.col, cols - 1);
    }
    this.#explain();
    return { rows, cols };
  }

  /** Fill the explanation panel for the active cell (hovered or focused). */
  #explain() {
    const u = this.#ui;
    const lang = this.#lang;
    const a = this.#shown;
    if (!a || !this.#active) {
      u.explain.replaceChildren(el('p', { text: t(lang, 'explain.prompt') }));
      u.map.marks = [];
      return;
    }
    const { row, col } = this.#active;
    const cfg = a.config;
    const attention = cfg.attention;
    const weights = a.map.weights.data.subarray(row * a.cols, (row + 1) * a.cols);
    const position = a.result.positions?.[row];
    const info = explainCell({ row: weights, col, attention, position, window: cfg.window });
    const f = (v) => formatValue(v);
    const nodes = [
      el('h3', {
        text: t(lang, 'explain.cell', {
          row: row + 1,
          col: col + 1,
          rowLabel: a.map.rowLabels[row],
          colLabel: a.map.colLabels[col],
        }),
      }),
      el('p', { text: t(lang, 'explain.mechanism', { name: mechanismName(lang, attention) }) }),
    ];
    if (info.none) {
      nodes.push(el('p', { text: t(lang, 'explain.none') }));
      u.explain.replaceChildren(...nodes);
      return;
    }
    const local = attention === 'local-p' || attention === 'local-m';
    for (const e of panelEquations(cfg)) nodes.push(equationEl(e));
    const rows = [];
    if (info.local) {
      const w = windowRange(position, cfg.window, a.cols);
      rows.push([t(lang, 'explain.position'), f(position)]);
      rows.push([
        t(lang, 'explain.window'),
        `${f(position)} ± ${cfg.window} → i ∈ [${w?.from ?? '–'}, ${w?.to ?? '–'}]`,
      ]);
    }
    if (!info.inWindow) {
      rows.push([t(lang, 'explain.weight'), `${f(info.weight)} (${t(lang, 'explain.outside')})`]);
    } else {
      rows.push([
        t(lang, 'explain.score'),
        info.underflow ? t(lang, 'explain.underflow') : f(info.shiftedScore),
      ]);
      rows.push([t(lang, 'explain.exp'), f(info.expShifted)]);
      rows.push([t(lang, 'explain.sum'), f(info.sumExp)]);
      rows.push([
        t(lang, 'explain.softmax'),
        `${f(info.expShifted)} / ${f(info.sumExp)} = ${f(info.softmax)}`,
      ]);
      if (info.local) rows.push([t(lang, 'explain.gauss'), f(info.gauss)]);
      rows.push([t(lang, 'explain.weight'), f(info.weight)]);
    }
    rows.push([t(lang, 'explain.rank'), rankText(info.rank, info.size)]);
    rows.push([t(lang, 'explain.rowSum'), f(info.rowSum)]);
    const p = a.probs?.[row];
    if (p !== undefined) {
      const under = typeof a.threshold === 'number' && p < a.threshold;
      rows.push([
        t(lang, 'warn.rowProb', { token: a.map.rowLabels[row] }),
        under ? `${formatProb(p)} < ${a.threshold}` : formatProb(p),
      ]);
    }
    const dl = el('dl');
    for (const [k, v] of rows) dl.append(el('dt', { text: k }), el('dd', { text: v }));
    nodes.push(
      dl,
      el('p', {
        class: 'honest',
        text: t(lang, 'explain.honest') + (local ? ` ${t(lang, 'explain.honestLocal')}` : ''),
      }),
    );
    u.explain.replaceChildren(...nodes);
    // The local window of the explained row.
    const w = info.local ? windowRange(position, cfg.window, a.cols) : null;
    u.map.marks = w ? [{ row, from: w.from, to: w.to, center: position }] : [];
  }
}
