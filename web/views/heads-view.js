// heads-view.js: the Heads view of <attn-demo>: every layer's and head's attention of a
// transformer (docs/models.md "Architecture transformer") as small multiples, one enlarged.
//
//   const view = new HeadsView();
//   host.append(view.node);
//   view.update(ctx);   // from <attn-demo>: runs ctx.model on the input, then render()
//   // events (view-context.js): view-change { layer, head } (a thumbnail), { kind } or { gold }, …
//   view.render({ result: model.run(input), config: model.config, name, lang, layer, head, kind });
//
// Shows: a layers × heads grid of thumbnails (one canvas per map, viridis on one shared range so
// the maps compare; a grid of buttons: arrow keys move between them, Enter or a click enlarges
// one), the enlarged map as an <attn-heatmap> (cell-by-cell keyboard reading, text alternative,
// PNG/SVG/CSV/JSON), a JSON file of every map, for encoder-decoders a choice of encoder self-,
// decoder self- or cross-attention, and which positions the model uses: absolute (learned or
// sinusoidal, Vaswani et al. 2017 §3.5) or relative (Shaw et al. 2018, eqs. 3–4: key j is seen
// from query i through a learned vector of index clip(j − i, −k, k) + k), with the clipped
// distance matrix drawn for relative models. For the translation encoder-decoders, the gold
// alignment toggle (gold.js): the generator's alignment outlined over the enlarged
// cross-attention map, its AER and gold attention mass (the reference forced when the model's
// output differs from it).
// Holds: the pure helpers (tested in Node: positionInfo, clippedDistances, selectMaps,
// strongestCell), the view's DOM and its wiring (update). Deliberately does not know about wasm:
// update runs the model through view-context.js runInput, and render draws the plain result.

import { formatValue } from '../shared/draw.js';
import { colon, plural, t } from '../shared/i18n.js';
import {
  VIEW_STYLE,
  downloadBlob,
  el,
  fileName,
  legend,
  numbersJSON,
  whyToggle,
} from '../shared/view-kit.js';
import { GoldPanel, hasGold } from '../shared/gold.js';
import { drawThumbnail, roveThumbnails, strongestOf } from '../shared/thumb-grid.js';
import { findModel } from '../shared/models.js';
import { OutputConfidence, thresholdOf } from '../shared/output-confidence.js';
import { elapsed, emit, runInput, unknownOf } from './view-context.js';

export { VIEW_STYLE };

/**
 * Which positions a transformer config uses: { type: 'learned' | 'sinusoidal' | 'relative' |
 * 'unknown', relative: boolean, k: number | null (maxRelativePosition), maxPositions }.
 * "positions": "relative" with "maxRelativePosition": k (Shaw et al. 2018) is read from the
 * config alone, so the view supports it as soon as the loader does.
 */
export function positionInfo(config) {
  const type = ['learned', 'sinusoidal', 'relative'].includes(config?.positions)
    ? config.positions
    : 'unknown';
  const k =
    Number.isInteger(config?.maxRelativePosition) && config.maxRelativePosition >= 0
      ? config.maxRelativePosition
      : null;
  return {
    type,
    relative: type === 'relative',
    k: type === 'relative' ? k : null,
    maxPositions: Number.isInteger(config?.maxPositions) ? config.maxPositions : null,
  };
}

/**
 * The clipped relative distances clip(j − i, −k, k) of query i (row) and key j (column), as a
 * Float32Array [rows * cols] (row-major): what a relative-position model looks up for each pair
 * (attnlab's relativePositionAttention.distances gives the same for square n × n).
 */
export function clippedDistances(rows, cols, k) {
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) out[i * cols + j] = Math.max(-k, Math.min(k, j - i)) + 0; // + 0: no −0 when k = 0
  }
  return out;
}

/**
 * The maps the grid shows: for an encoder-decoder the chosen kind ('encoder' self, 'decoder' self
 * or 'cross'; default cross), else every map. Returns { kind (null for one stack), layers, heads,
 * grid: map[layer][head] } where map is Model.run's { layer, head, weights: { data, shape },
 * rowLabels, colLabels }.
 */
export function selectMaps(result, config, kind = null) {
  const ed = config.variant === 'encoder-decoder';
  const k = ed ? (['encoder', 'decoder', 'cross'].includes(kind) ? kind : 'cross') : null;
  const maps = result.attention.filter((m) => {
    if (!ed) return true;
    if (k === 'cross') return m.kind === 'cross';
    return m.kind === 'self' && m.stack === k;
  });
  // Loops, not Math.max(...maps): spreading a long array into a call overflows the stack.
  let layers = 0;
  let heads = 0;
  for (const m of maps) {
    layers = Math.max(layers, m.layer + 1);
    heads = Math.max(heads, m.head + 1);
  }
  const grid = Array.from({ length: layers }, () => new Array(heads).fill(null));
  for (const m of maps) grid[m.layer][m.head] = m;
  return { kind: k, layers, heads, grid };
}

/** The largest weight of a map and where: { value, row, col } (first on ties). */
export function strongestCell(map) {
  return strongestOf(map.weights.data, map.weights.shape[1]);
}

/** The largest finite weight over every map of the grid (the shared colour range's top). */
export function gridMax(grid) {
  let max = 0;
  for (const row of grid) {
    for (const m of row) {
      if (!m) continue;
      for (const v of m.weights.data) if (Number.isFinite(v) && v > max) max = v;
    }
  }
  return max > 0 ? max : 1;
}

export class HeadsView {
  #ui = {};
  #shape = ''; // 'layers x heads' of the built grid
  #thumbs = []; // [layer][head] -> button
  #last = null; // { name, input, info, sel, result } of the last render
  #legend = legend();
  #reveal = false; // a thumbnail was chosen: scroll the enlarged map into view on the next update

  #gold;
  #confidence = new OutputConfidence();

  constructor() {
    this.#gold = new GoldPanel({ onToggle: (gold) => emit(this.node, 'view-change', { gold }) });
    const u = this.#ui;
    u.about = el('p', { class: 'note positions' });
    u.outputLabel = el('span');
    u.output = el('output', { class: 'output', 'data-main': 'output' });
    u.why = whyToggle(u.about);
    u.kindLabel = el('label', { for: 'kind' });
    u.kind = el('select', { id: 'kind' });
    for (const k of ['encoder', 'decoder', 'cross']) u.kind.append(el('option', { value: k }));
    u.kindField = el('div', { class: 'field kind-field' }, [u.kindLabel, u.kind]);
    u.gridTitle = el('h3', { class: 'selected-title grid-title' });
    u.grid = el('div', { class: 'heads-grid', role: 'group', 'data-main': 'picture' });
    u.selected = el('h3', { class: 'selected-title', id: 'head-title' });
    u.index = el('p', { class: 'note index-note' });
    u.map = el('attn-heatmap', { class: 'head-map', min: '0' });
    u.all = el('button', { type: 'button', 'data-action': 'download-maps' });
    u.relTitle = el('h3');
    u.relNote = el('p', { class: 'note' });
    u.distance = el('attn-heatmap', { class: 'distance-map', colormap: 'diverging' });
    u.relative = el('div', { class: 'relative', hidden: '' }, [u.relTitle, u.relNote, u.distance]);
    this.node = el('section', { 'data-view': 'heads' }, [
      el('div', { class: 'view-line' }, [
        el('p', { class: 'output-line' }, [u.outputLabel, ' ', u.output]),
        u.kindField,
        u.why.node,
      ]),
      this.#confidence.warning,
      this.#confidence.legend,
      this.#gold.node,
      // every head beside the one enlarged (one under the other on a narrow element)
      el('div', { class: 'heads-split' }, [
        el('div', { class: 'heads-overview' }, [u.gridTitle, u.grid, this.#legend.node]),
        el('div', { class: 'heads-selected' }, [
          u.selected,
          u.index,
          u.map,
          el('div', { class: 'buttons' }, [u.all]),
        ]),
      ]),
      u.relative,
    ]);
    u.kind.addEventListener('change', () => emit(this.node, 'view-change', { kind: u.kind.value }));
    u.grid.addEventListener('keydown', (e) => roveThumbnails(e, this.#thumbs));
    u.all.addEventListener('click', () => this.#downloadAll());
  }

  /** The enlarged <attn-heatmap> and the distance map (for the host's flush and lang). */
  get heatmaps() {
    return [this.#ui.map, this.#ui.distance];
  }

  /** Forget the drawn maps (the input cannot be run). */
  clear() {
    this.#ui.map.data = null;
    this.#ui.map.gold = null;
    this.#ui.distance.data = null;
    this.#ui.output.textContent = '';
    this.#confidence.clear();
    this.#ui.grid.replaceChildren();
    this.#shape = '';
    this.#thumbs = [];
    this.#last = null;
  }

  /** Run the current model on the input and draw it. @param {import('./view-context.js').ViewContext} ctx */
  update(ctx) {
    const s = ctx.state;
    const gold = hasGold(findModel(s.model)) && ctx.model.config.variant === 'encoder-decoder';
    this.#gold.texts(s.lang);
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
      return emit(this.node, 'view-done', { result: null, unknown: unknownOf(run) });
    }
    emit(this.node, 'view-error', ctx.refused);
    const shown = this.render({
      result,
      config: ctx.model.config,
      name: s.model,
      input: s.input,
      lang: s.lang,
      layer: s.layer,
      head: s.head,
      kind: s.kind,
    });
    // the model's own output (run, not the reference forced with the gold on), its tokens shaded
    // by 1 − p, and the "may be wrong" warning (issue 30)
    const verdict = this.#confidence.show({
      output: this.#ui.output,
      result: run,
      model: ctx.model,
      input: s.input,
      threshold: thresholdOf(ctx),
      lang: s.lang,
    });
    const shownGold = this.#gold.draw(
      this.#ui.map,
      this.#last.sel.grid[shown.layer][shown.head],
      g,
      { drawIt: shown.kind === 'cross' },
    );
    for (const h of this.heatmaps) h.flush();
    if (this.#reveal) this.reveal();
    this.#reveal = false;
    emit(
      this.node,
      'view-status',
      t(s.lang, 'status.heads', {
        ...shown,
        layers: plural(s.lang, 'count.layers', shown.layers),
        heads: plural(s.lang, 'count.heads', shown.heads),
        ms: elapsed(ctx).toFixed(1),
      }),
    );
    emit(this.node, 'view-done', {
      result,
      extra: { output: result.output, shown, gold: shownGold, mayBeWrong: verdict.warn },
      unknown: unknownOf(run),
    });
  }

  /**
   * Draw a run. Returns what is shown: { layer, head, kind, layers, heads, rows, cols }.
   * layer and head are clamped to the model's.
   */
  render({ result, config, name, input, lang, layer, head, kind }) {
    const u = this.#ui;
    const info = positionInfo(config);
    const sel = selectMaps(result, config, kind);
    const L = Math.min(layer, sel.layers - 1);
    const H = Math.min(head, sel.heads - 1);
    const max = gridMax(sel.grid);
    this.#texts(lang, config, info, sel);
    u.output.textContent = result.output || t(lang, 'output.none');
    u.kindField.hidden = sel.kind === null;
    if (sel.kind) u.kind.value = sel.kind;

    // The grid: rebuilt when its shape (or language) changes, else redrawn in place (keeps focus).
    const shape = `${sel.layers}x${sel.heads} ${lang}`;
    if (shape !== this.#shape) this.#buildGrid(sel.layers, sel.heads, lang);
    for (let l = 0; l < sel.layers; l++) {
      for (let h = 0; h < sel.heads; h++) {
        const button = this.#thumbs[l][h];
        const m = sel.grid[l][h];
        const [rows, cols] = m.weights.shape;
        drawThumbnail(button.firstChild, m.weights.data, rows, cols, 0, max);
        const s = strongestCell(m);
        button.setAttribute(
          'aria-label',
          t(lang, 'heads.thumb', {
            layer: l + 1,
            head: h + 1,
            rows,
            cols,
            value: formatValue(s.value),
            row: m.rowLabels[s.row],
            col: m.colLabels[s.col],
          }),
        );
        button.title = t(lang, 'heads.thumbShort', { layer: l + 1, head: h + 1 });
        const on = l === L && h === H;
        button.setAttribute('aria-pressed', String(on));
        if (!u.grid.contains(u.grid.getRootNode().activeElement)) button.tabIndex = on ? 0 : -1;
      }
    }
    this.#legend.set(0, max, t(lang, 'heads.legend'));

    // The enlarged map.
    const m = sel.grid[L][H];
    const [rows, cols] = m.weights.shape;
    const kindName = t(
      lang,
      `heads.kind.${sel.kind ?? (config.variant === 'encoder' ? 'encoder' : 'decoder')}`,
    );
    u.selected.textContent = t(lang, 'heads.selected', {
      layer: L + 1,
      head: H + 1,
      kind: kindName,
    });
    // shown from 1 for people; the layer and head attributes (and links) count from 0: say both
    u.index.textContent = t(lang, 'index.note', { layer: L, head: H });
    u.map.setAttribute(
      'label',
      t(lang, 'heads.mapLabel', { layer: L + 1, head: H + 1, kind: kindName }),
    );
    u.map.setAttribute('max', String(max));
    u.map.data = {
      weights: m.weights.data,
      rows,
      cols,
      rowLabels: m.rowLabels,
      colLabels: m.colLabels,
    };

    // Relative positions: the clipped distances of the enlarged self-attention map.
    const showDistances = info.relative && info.k !== null && sel.kind !== 'cross';
    u.relative.hidden = !info.relative;
    u.distance.hidden = !showDistances;
    if (info.relative) {
      u.relTitle.textContent = t(lang, 'heads.relTitle', { k: info.k ?? '?' });
      u.relNote.textContent =
        sel.kind === 'cross'
          ? t(lang, 'heads.relCross')
          : t(lang, 'heads.relNote', {
              k: info.k ?? '?',
              n: info.k === null ? '?' : 2 * info.k + 1,
            });
    }
    if (showDistances) {
      u.distance.setAttribute('min', String(-info.k));
      u.distance.setAttribute('max', String(info.k));
      u.distance.setAttribute('label', t(lang, 'heads.distLabel', { k: info.k }));
      u.distance.data = {
        weights: clippedDistances(rows, cols, info.k),
        rows,
        cols,
        rowLabels: m.rowLabels,
        colLabels: m.colLabels,
      };
    } else {
      u.distance.data = null;
    }
    for (const h of this.heatmaps) h.setAttribute('lang', lang);
    this.#last = { name, input, info, sel, result, config };
    return { layer: L, head: H, kind: sel.kind, layers: sel.layers, heads: sel.heads, rows, cols };
  }

  /** Scroll the enlarged map into view (after a thumbnail was chosen). */
  reveal() {
    this.#ui.selected.scrollIntoView?.({ block: 'nearest' });
  }

  #texts(lang, config, info, sel) {
    const u = this.#ui;
    const variant = t(lang, `heads.variant.${config.variant}`);
    const positions =
      info.type === 'learned'
        ? t(lang, 'heads.pos.learned', { max: info.maxPositions ?? '?' })
        : info.type === 'sinusoidal'
          ? t(lang, 'heads.pos.sinusoidal')
          : info.type === 'relative'
            ? t(lang, 'heads.pos.relative', { k: info.k ?? '?' })
            : t(lang, 'heads.pos.unknown', { value: String(config.positions) });
    u.about.textContent = `${variant} ${positions}`;
    u.why.texts(lang);
    u.outputLabel.textContent = `${t(lang, config.variant === 'decoder' ? 'heads.continuation' : config.variant === 'encoder' ? 'heads.labels' : 'output.label')}${colon(lang)}`;
    u.kindLabel.textContent = t(lang, 'heads.kind');
    for (const o of u.kind.options) o.textContent = t(lang, `heads.kind.${o.value}`);
    u.gridTitle.textContent = t(lang, 'heads.grid', {
      layers: plural(lang, 'count.layers', sel.layers),
      heads: plural(lang, 'count.heads', sel.heads),
    });
    u.grid.setAttribute('aria-label', t(lang, 'heads.gridLabel'));
    u.grid.setAttribute('aria-description', t(lang, 'heads.gridKeys'));
    u.all.textContent = t(lang, 'heads.downloadAll');
  }

  #buildGrid(layers, heads, lang) {
    const u = this.#ui;
    u.grid.style.gridTemplateColumns = `auto repeat(${heads}, minmax(0, 8rem))`;
    const nodes = [el('span', { class: 'axis' })];
    for (let h = 0; h < heads; h++)
      nodes.push(
        el('span', {
          class: 'axis col',
          'aria-hidden': 'true',
          text: t(lang, 'heads.head', { head: h + 1 }),
        }),
      );
    this.#thumbs = [];
    for (let l = 0; l < layers; l++) {
      nodes.push(
        el('span', {
          class: 'axis row',
          'aria-hidden': 'true',
          text: t(lang, 'heads.layer', { layer: l + 1 }),
        }),
      );
      const row = [];
      for (let h = 0; h < heads; h++) {
        const button = el(
          'button',
          {
            type: 'button',
            class: 'thumb',
            'data-layer': String(l),
            'data-head': String(h),
            tabindex: '-1',
          },
          [el('canvas', { 'aria-hidden': 'true' })],
        );
        button.addEventListener('click', () => {
          for (const r of this.#thumbs) for (const b of r) b.tabIndex = b === button ? 0 : -1;
          emit(this.node, 'view-change', { layer: l, head: h });
          this.#reveal = true;
        });
        row.push(button);
        nodes.push(button);
      }
      this.#thumbs.push(row);
    }
    u.grid.replaceChildren(...nodes);
    this.#shape = `${layers}x${heads} ${lang}`;
  }

  /** Every map of the grid, with its labels, as one JSON file. */
  #downloadAll() {
    const last = this.#last;
    if (!last) return;
    const { sel, config, name, input, info } = last;
    const maps = [];
    for (const row of sel.grid) {
      for (const m of row) {
        const [rows, cols] = m.weights.shape;
        maps.push({
          layer: m.layer,
          head: m.head,
          rows,
          cols,
          rowLabels: [...m.rowLabels],
          colLabels: [...m.colLabels],
          weights: numbersJSON(m.weights.data),
        });
      }
    }
    const doc = {
      model: name,
      input,
      variant: config.variant,
      positions: info.type,
      maxRelativePosition: info.k,
      kind: sel.kind,
      layers: sel.layers,
      heads: sel.heads,
      output: last.result.output ?? null,
      maps,
    };
    downloadBlob(
      fileName(`${name} attention maps ${sel.kind ?? ''}`, 'json'),
      new Blob([JSON.stringify(doc, null, 2) + '\n'], { type: 'application/json' }),
    );
  }
}
