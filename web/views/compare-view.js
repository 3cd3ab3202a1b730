// compare-view.js: the Compare view of <attn-demo>: the same input through every seq2seq model of
// the current model's task (the dates models, or the English → French ones: models.js
// compareSet), side by side, and the difference A − B of two of them on a diverging map.
//
//   const view = new CompareView();
//   host.append(view.node);
//   view.update(ctx);   // from <attn-demo>: loads every model (ctx.models), runs each, draws
//   // events (view-context.js): view-change { a } or { b } (the pickers) or { gold }, …
//
// Shows: one small <attn-heatmap> and output per model (the models that failed to load named and
// skipped), two pickers A and B, and A − B (explain.js subtractMaps): B teacher-forced on A's
// output (model.score) when both read the same vocabulary, so both rows mean the same output
// token; otherwise the common prefix of the two free-running maps, and the note says which. For
// the translation models the gold-alignment toggle (gold.js): the gold outlined on every model's
// map and its AER and gold mass under it (the map forced on the reference for a model whose output
// differs, marked so; the model without attention says it has none to score); A − B stays on the
// models' own outputs.
// Holds: the view's DOM and its wiring (update). Deliberately holds no maths (explain.js) and no
// drawing (<attn-heatmap>); the models are loaded and kept by <attn-demo>'s model cache.

import { subtractMaps } from '../shared/explain.js';
import { GoldPanel, goldMetrics, goldNumber, goldRun, hasGold } from '../shared/gold.js';
import { t } from '../shared/i18n.js';
import { compareSet, findModel } from '../shared/models.js';
import { el, fillModelOptions, noAttentionPanel, pickMap } from '../shared/view-kit.js';
import { OutputConfidence, thresholdOf } from '../shared/output-confidence.js';
import { emit, runInput, unknownOf } from './view-context.js';

/** Styles this view adds to <attn-demo>'s shadow root. */
export const COMPARE_STYLE = `
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 12rem), 1fr)); gap: var(--al-space-3, 12px); }
.grid attn-heatmap { --attn-heatmap-max-height: max(10rem, 100vh - 26rem); }
.gold-score { margin: 0.25rem 0 0; font-size: 0.8125rem; font-variant-numeric: tabular-nums; }
.pair { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; margin: 0.75rem 0 0.25rem; }
`;

export class CompareView {
  #ui = {};
  #set = null; // the models listed (compareSet of the current model)
  #lang = 'en';
  #gold;

  constructor() {
    const u = this.#ui;
    this.#gold = new GoldPanel({ onToggle: (gold) => emit(this.node, 'view-change', { gold }) });
    u.intro = el('p', { class: 'note' });
    u.grid = el('div', { class: 'grid', 'data-main': 'picture' });
    u.skipped = el('p', { class: 'note', hidden: '' });
    u.aLabel = el('label', { for: 'model-a' });
    u.a = el('select', { id: 'model-a' });
    u.bLabel = el('label', { for: 'model-b' });
    u.b = el('select', { id: 'model-b' });
    u.diffNote = el('p', { class: 'note' });
    u.diffMap = el('attn-heatmap', { class: 'diff-map', colormap: 'diverging' });
    u.diffLegend = el('p', { class: 'note' });
    this.node = el('section', { 'data-view': 'compare' }, [
      u.intro,
      this.#gold.node,
      u.grid,
      u.skipped,
      el('div', { class: 'pair' }, [
        el('div', { class: 'field' }, [u.aLabel, u.a]),
        el('div', { class: 'field' }, [u.bLabel, u.b]),
      ]),
      u.diffNote,
      u.diffMap,
      u.diffLegend,
    ]);
    u.a.addEventListener('change', () => emit(this.node, 'view-change', { a: u.a.value }));
    u.b.addEventListener('change', () => emit(this.node, 'view-change', { b: u.b.value }));
  }

  /** The difference map and every model's map (for the host's flush). */
  get heatmaps() {
    return [...this.node.querySelectorAll('attn-heatmap')];
  }

  /** The interface strings, in lang (the pickers list every model, untrained ones marked). */
  texts(lang) {
    const u = this.#ui;
    u.intro.textContent = t(lang, 'compare.intro');
    u.aLabel.textContent = t(lang, 'compare.a');
    u.bLabel.textContent = t(lang, 'compare.b');
    u.diffLegend.textContent = t(lang, 'legend.diverging');
    u.diffMap.setAttribute('lang', lang);
    this.#lang = lang;
    this.#gold.texts(lang);
    if (this.#set) for (const select of [u.a, u.b]) fillModelOptions(select, this.#set, lang);
  }

  /** Forget the drawn maps (an input that cannot be run). */
  clear() {
    this.#ui.grid.replaceChildren();
    this.#ui.diffMap.data = null;
  }

  /** Load and run every model on the input, then draw. @param {import('./view-context.js').ViewContext} ctx */
  update(ctx) {
    const u = this.#ui;
    const s = ctx.state;
    const lang = s.lang;
    const set = compareSet(s.model);
    if (set !== this.#set) {
      this.#set = set;
      for (const select of [u.a, u.b]) fillModelOptions(select, set, this.#lang);
    }
    const loads = set.map((m) => [m.name, ctx.models.model(m.name)]);
    if (loads.some(([, l]) => l === null)) {
      emit(
        this.node,
        'view-status',
        t(lang, 'model.loading', {
          name: loads
            .filter(([, l]) => !l)
            .map(([n]) => n)
            .join(', '),
        }),
      );
      return;
    }
    emit(this.node, 'view-error', ctx.refused);
    const available = loads.filter(([, l]) => l.model);
    const skipped = loads.filter(([, l]) => l.error).map(([n]) => n);
    u.skipped.hidden = skipped.length === 0;
    u.skipped.textContent = t(lang, 'compare.skipped', { names: skipped.join(', ') });
    const results = new Map();
    const figures = [];
    const goldShown = hasGold(findModel(s.model));
    this.#gold.show(goldShown, s.gold);
    const refresh = () => emit(this.node, 'view-refresh');
    const goldOn = goldShown && s.gold && Boolean(this.#gold.tools(refresh));
    let ex = null;
    /** @type {Record<string, { forced: boolean, aer: number | null, mass: number | null }>} */
    const scores = {};
    const runs = [];
    for (const [name, { model }] of available) {
      const result = runInput(this.node, ctx, model, s.input);
      if (!result) {
        this.clear();
        return emit(this.node, 'view-done', { result: null, unknown: unknownOf(...runs) });
      }
      runs.push(result);
      results.set(name, { model, result });
      // with the gold on: the map the gold is read over (the reference forced when the output differs)
      const g = goldOn ? goldRun(model, s.input, result) : null;
      const ok = g?.status === 'ok';
      const map = pickMap(ok ? g.result.attention : result.attention, s.layer, s.head);
      const [rows, cols] = map.weights.shape;
      const heatmap = el('attn-heatmap', {
        min: '0',
        max: '1',
        label: `${name}: ${result.output}`,
        'data-model': name,
        lang,
      });
      heatmap.data = {
        weights: map.weights.data,
        rows,
        cols,
        rowLabels: map.rowLabels,
        colLabels: map.colLabels,
      };
      heatmap.context = { model: name, input: s.input, output: result.output }; // for its exports
      const output = el('span', { class: 'output', 'data-main': 'output' });
      // its tokens shaded by 1 − p and the "may be wrong" warning under the caption (issue 30)
      const confidence = new OutputConfidence({ compact: true });
      confidence.show({
        output,
        result,
        model,
        input: s.input,
        threshold: thresholdOf(ctx, name),
        lang,
      });
      // A model without attention: its output, and a panel saying why there is no map (its
      // weights are zeros; drawn on the 0–1 scale they would look like a finding).
      const none = model.config.attention === 'none';
      const panel = noAttentionPanel();
      panel.show(none, lang);
      const parts = [
        el('figcaption', {}, [el('strong', { text: name }), ' → ', output]),
        confidence.warning,
        none ? panel.node : heatmap,
      ];
      if (ok) {
        ex = g.ex;
        heatmap.gold = g.ex.alignment;
        const hasAttention = model.config.attention !== 'none';
        const m = hasAttention ? goldMetrics(map, g.ex) : null;
        scores[name] = { forced: g.forced, aer: m?.aer ?? null, mass: m?.mass ?? null };
        const text = m
          ? [
              t(lang, 'gold.compareScore', { aer: goldNumber(m.aer), mass: goldNumber(m.mass) }),
              ...(g.forced ? [t(lang, 'gold.compareForced')] : []),
            ].join(' ')
          : t(lang, 'gold.compareNone');
        parts.splice(
          2,
          0,
          el('p', { class: 'gold-score', 'data-gold': m ? 'metrics' : 'noAttention', text }),
        ); // under the caption
      }
      figures.push(el('figure', { 'data-model': name }, parts));
    }
    if (goldOn && !ex && available.length) this.#gold.none();
    if (ex) {
      /** @type {[string, string][]} */
      const lines = [];
      lines.push([
        'compare',
        t(lang, 'gold.compare', { reference: ex.tgt, links: ex.alignment.flat().length }),
      ]);
      this.#gold.say(...lines);
    }
    u.grid.replaceChildren(...figures);
    // A − B.
    const names = available.map(([n]) => n);
    for (const select of [u.a, u.b]) {
      for (const option of select.options) option.disabled = !names.includes(option.value);
    }
    const a = names.includes(s.a) ? s.a : names[0];
    const b = names.includes(s.b) ? s.b : (names[1] ?? names[0]);
    u.a.value = a;
    u.b.value = b;
    if (a && b) {
      const A = results.get(a);
      const B = results.get(b);
      const mapA = pickMap(A.result.attention, s.layer, s.head);
      const [T, S] = mapA.weights.shape;
      let bWeights;
      let rows = T;
      const sameVocab =
        JSON.stringify(A.model.config.tokenizer) === JSON.stringify(B.model.config.tokenizer);
      if (sameVocab) {
        bWeights = B.model.score(s.input, A.result.ids).attention.data; // B forced on A's output
        u.diffNote.textContent = t(lang, 'compare.forced');
      } else {
        const mapB = pickMap(B.result.attention, s.layer, s.head);
        rows = Math.min(T, mapB.weights.shape[0]);
        bWeights = mapB.weights.data;
        u.diffNote.textContent = t(lang, 'compare.prefix', { rows });
      }
      u.diffMap.setAttribute('label', t(lang, 'heatmap.diff', { a, b }));
      u.diffMap.context = { model: `${a} − ${b}`, input: s.input, output: A.result.output };
      u.diffMap.data = {
        weights: subtractMaps(mapA.weights.data, bWeights, rows, S),
        rows,
        cols: S,
        rowLabels: mapA.rowLabels.slice(0, rows),
        colLabels: mapA.colLabels,
      };
    }
    emit(this.node, 'view-status', '');
    for (const h of this.heatmaps) /** @type {any} an <attn-heatmap> */ (h).flush?.();
    emit(this.node, 'view-done', {
      result: {},
      extra: { models: names, ...(ex ? { gold: scores } : {}) },
      unknown: unknownOf(...runs),
    });
  }
}
