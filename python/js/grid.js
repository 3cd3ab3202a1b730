// python/js/grid.js: the grid output of attnlab.show() (python/attnlab/show.py) for more than one
// map: a layers × heads grid of thumbnails on one shared colour scale, one map enlarged as an
// <attn-heatmap>, as <attn-demo>'s Heads view draws a transformer (web/views/heads-view.js: the
// same styles, roving-tabindex keys and one-pixel-per-weight thumbnails), without the model.
//
// kind 'grid' (the JSON data show.py writes): { weights (base64 float32 LE: every map's values,
//   row-major, one map after another), maps: [{ layer, head, rows, cols, r, c, title }] (r, c:
//   indices into labels, so a label list shared by many maps is written once), labels,
//   layers, heads, gridTitle, layerNames, headNames, min, max (the shared range), scale ('fixed' | 'fit' |
//   'set' | 'symmetric'), caption (what the legend says of it), colormap, cellSize, title, label,
//   note } → the grid; the first map enlarged. The root gets data-attnlab-selected = 'layer,head'
//   of the enlarged map.
// Keys: arrows move between thumbnails, Home/End to a row's ends, Enter or Space enlarges (the
// enlarged map has its own keyboard reading: <attn-heatmap>). Exports: the enlarged map's PNG,
// SVG, CSV and JSON (their title names the layer and head) and every map as one JSON file.

import { colorTable, formatValue } from '../../web/shared/draw.js';
import { drawThumbnail, roveThumbnails, strongestOf } from '../../web/shared/thumb-grid.js';
import {
  VIEW_STYLE,
  downloadBlob,
  el,
  fileName,
  legend,
  numbersJSON,
} from '../../web/shared/view-kit.js';

/** What the grid adds to output.js's styles (VIEW_STYLE: the Heads view's grid and legend). */
export const GRID_STYLE = `${VIEW_STYLE}
.note { color: #5c5c66; font-size: 0.8125rem; margin: 0 0 0.25rem; }
.heads-grid { max-width: 100%; }
.heads-selected attn-heatmap { display: block; }
button[data-action] { font: inherit; font-size: 0.875rem; min-height: 2rem; padding: 0.25rem 0.6rem;
  border: 1px solid #c4c4cc; border-radius: 6px; background: #fff; color: inherit; cursor: pointer; }
button[data-action]:focus-visible { outline: 2px solid Highlight; outline-offset: 2px; }
`;

/** Each map's values: Float32Array views into one decoded buffer. */
function mapsOf(d, floats) {
  let offset = 0;
  return d.maps.map((m) => {
    const n = m.rows * m.cols;
    const weights = floats.subarray(offset, offset + n);
    offset += n;
    return { ...m, weights, rowLabels: d.labels[m.r], colLabels: d.labels[m.c] };
  });
}

/** kind 'grid': draw it into shadow. floats: the decoded weights (output.js). */
export function grid(root, shadow, d, floats) {
  const maps = mapsOf(d, floats);
  const at = Array.from({ length: d.layers }, () => new Array(d.heads).fill(null));
  for (const m of maps) at[m.layer][m.head] = m;
  const table = colorTable(d.colormap === 'diverging' ? 'diverging' : 'viridis');

  const big = el('attn-heatmap', { class: 'head-map', lang: 'en' });
  if (d.cellSize) big.setAttribute('cell-size', String(d.cellSize));
  if (d.colormap === 'diverging') big.setAttribute('colormap', 'diverging');
  if (d.scale === 'fixed') big.setAttribute('scale', 'fixed');
  else {
    big.setAttribute('min', String(d.min));
    big.setAttribute('max', String(d.max));
  }
  const selected = el('h3', { class: 'selected-title' });
  const cells = el('div', {
    class: 'heads-grid',
    role: 'group',
    'aria-label': `${d.label || 'Attention maps'}: one per layer (row) and head (column)`,
    'aria-description': 'Arrow keys move between maps; Enter enlarges one.',
  });
  cells.style.gridTemplateColumns = `auto repeat(${d.heads}, minmax(0, 8rem))`;
  const bar = legend(d.colormap === 'diverging' ? 'diverging' : 'viridis');
  bar.node.setAttribute('data-scale', d.scale);
  bar.set(d.min, d.max, d.caption);
  const all = el('button', { type: 'button', 'data-action': 'download-maps' }, [
    'Download every map (JSON)',
  ]);

  const nodes = [el('span', { class: 'axis' })];
  for (let h = 0; h < d.heads; h++)
    nodes.push(el('span', { class: 'axis col', 'aria-hidden': 'true', text: d.headNames[h] }));
  /** @type {(HTMLButtonElement | null)[][]} */
  const thumbs = [];
  for (let l = 0; l < d.layers; l++) {
    nodes.push(el('span', { class: 'axis row', 'aria-hidden': 'true', text: d.layerNames[l] }));
    const row = [];
    for (let h = 0; h < d.heads; h++) {
      const m = at[l][h];
      if (!m) {
        nodes.push(el('span'));
        row.push(null);
        continue;
      }
      const canvas = el('canvas', { 'aria-hidden': 'true' });
      drawThumbnail(canvas, m.weights, m.rows, m.cols, d.min, d.max, table);
      const s = strongestOf(m.weights, m.cols);
      const button = el(
        'button',
        {
          type: 'button',
          class: 'thumb',
          'data-layer': String(l),
          'data-head': String(h),
          tabindex: '-1',
          title: `${m.title}: strongest ${formatValue(s.value)}`,
          'aria-label':
            `${m.title}: ${m.rows} × ${m.cols} weights; strongest ${formatValue(s.value)} ` +
            `(query “${m.rowLabels[s.row]}” to key “${m.colLabels[s.col]}”). Enlarge.`,
        },
        [canvas],
      );
      button.addEventListener('click', () => select(l, h));
      row.push(button);
      nodes.push(button);
    }
    thumbs.push(row);
  }
  cells.replaceChildren(...nodes);

  /** Enlarge the map of layer l, head h. */
  function select(l, h) {
    const m = at[l][h];
    for (const r of thumbs) {
      for (const b of r) {
        if (!b) continue;
        const on = b === thumbs[l][h];
        b.setAttribute('aria-pressed', String(on));
        b.tabIndex = on ? 0 : -1;
      }
    }
    const title = d.title ? `${d.title}: ${m.title}` : m.title;
    selected.textContent = m.title;
    big.setAttribute('label', `${m.title}: query (row) × key (column)`);
    /** @type {any} */ (big).context = { title };
    /** @type {any} */ (big).data = {
      weights: m.weights,
      rows: m.rows,
      cols: m.cols,
      rowLabels: m.rowLabels,
      colLabels: m.colLabels,
    };
    root.dataset.attnlabSelected = `${l},${h}`;
  }

  cells.addEventListener('keydown', (event) => roveThumbnails(event, thumbs));

  all.addEventListener('click', () => {
    const doc = {
      title: d.title,
      layers: d.layers,
      heads: d.heads,
      scale: { mode: d.scale, min: d.min, max: d.max },
      maps: maps.map((m) => ({
        layer: m.layer,
        head: m.head,
        title: m.title,
        rows: m.rows,
        cols: m.cols,
        rowLabels: [...m.rowLabels],
        colLabels: [...m.colLabels],
        weights: numbersJSON(m.weights),
      })),
    };
    downloadBlob(
      fileName(`${d.title || 'attention'} maps`, 'json'),
      new Blob([JSON.stringify(doc, null, 2) + '\n'], { type: 'application/json' }),
    );
  });

  if (d.title) shadow.append(el('p', { class: 'title', text: d.title }));
  if (d.note) shadow.append(el('p', { class: 'note', text: d.note }));
  shadow.append(
    el('div', { class: 'heads-split' }, [
      el('div', { class: 'heads-overview' }, [
        el('h3', {
          class: 'selected-title grid-title',
          text: d.gridTitle || `${d.layers} × ${d.heads} maps`,
        }),
        cells,
        bar.node,
      ]),
      el('div', { class: 'heads-selected' }, [
        selected,
        big,
        el('div', { class: 'buttons' }, [all]),
      ]),
    ]),
  );
  big.addEventListener('heatmap-render', () => {
    root.dataset.attnlabState = 'ready';
  });
  const first = maps[0];
  select(first.layer, first.head);
}
