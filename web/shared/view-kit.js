// view-kit.js: small pieces the views of <attn-demo> share (web/views/*-view.js).
//
//   import { el, legend, downloadBlob, textColorFor, numbersJSON, pickMap } from './view-kit.js';
//
// Holds: an element builder (textContent and attributes only, never HTML), the colour-map legend
// (a viridis bar with its range, the same map and table <attn-heatmap> draws with), a download
// helper for the views' "every number" JSON files, the readable text colour on a map colour,
// float32-exact number lists for JSON, the map of a layer and head, an equation's element (its
// sub/superscripts from notation.js's markup), and the styles every view
// uses. Deliberately holds no view logic and touches the DOM only
// inside the functions that build elements (importing it in Node is fine: the pure helpers are
// tested there).

import { colorTable, formatFloat32, formatValue } from './draw.js';
import { t } from './i18n.js';
import { equationParts, toMarkup } from './notation.js';

/** A DOM element: props are attributes, except `text` (textContent); children are appended. */
export function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

/**
 * An equation as a <p class="eq"> (or `tag`): its text with <sub> and <sup> from notation.js's
 * markup (Unicode sub/superscripts are read as the markup too), the page's one way to show one.
 * The sub/superscripts are indices and names, never words to translate (translate="no").
 */
export function equationEl(source, tag = 'p', cls = 'eq') {
  const node = el(tag, { class: cls });
  for (const [kind, text] of equationParts(toMarkup(source)))
    node.append(kind === 'text' ? text : el(kind, { text, translate: 'no' }));
  return node;
}

/**
 * A colour legend: '<min>' [bar] '<max>' and a caption. The bar is a 256 × 1 canvas of the map,
 * stretched by CSS. Returns { node, set(min, max, caption) }.
 */
export function legend(colormap = 'viridis') {
  const bar = el('canvas', {
    class: 'legend-bar',
    width: '256',
    height: '1',
    'aria-hidden': 'true',
  });
  const ctx = bar.getContext('2d');
  const table = colorTable(colormap);
  const image = ctx.createImageData(256, 1);
  for (let i = 0; i < 256; i++)
    image.data.set([table[3 * i], table[3 * i + 1], table[3 * i + 2], 255], 4 * i);
  ctx.putImageData(image, 0, 0);
  const lo = el('span', { class: 'legend-min' });
  const hi = el('span', { class: 'legend-max' });
  const caption = el('span', { class: 'legend-caption' });
  const node = el('div', { class: 'legend' }, [lo, bar, hi, caption]);
  return {
    node,
    set(min, max, text = '') {
      lo.textContent = formatValue(min);
      hi.textContent = formatValue(max);
      caption.textContent = text;
    },
  };
}

/**
 * Refill a model <select> with models (registry entries; untrained ones marked), keeping its value;
 * models of more than one task (dates, translation) are grouped by task (<optgroup>, task.* labels).
 * needsNetwork: names of models not saved on this device while offline (marked, data-offline="missing").
 */
export function fillModelOptions(select, models, lang, needsNetwork = null) {
  const value = select.value;
  const option = (m) => {
    const notes = [
      m.trained ? '' : t(lang, 'model.untrained'),
      needsNetwork?.has(m.name) ? t(lang, 'model.needsNetwork') : '',
    ].filter(Boolean);
    const o = el('option', {
      value: m.name,
      text: notes.length ? `${m.name} (${notes.join(lang === 'zh' ? '；' : '; ')})` : m.name,
    });
    if (needsNetwork?.has(m.name)) o.dataset.offline = 'missing';
    return o;
  };
  const tasks = [...new Set(models.map((m) => m.task ?? ''))];
  select.replaceChildren(
    ...(tasks.length > 1
      ? tasks.map((task) =>
          el(
            'optgroup',
            { label: t(lang, task ? `task.${task}` : 'task.other') },
            models.filter((m) => (m.task ?? '') === task).map(option),
          ),
        )
      : models.map(option)),
  );
  if (value) select.value = value;
}

/** Save a Blob under name (the browser's download). */
export function downloadBlob(name, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 0);
}

/** A file name from free text: lower case, runs of anything but a–z and 0–9 become '-'. */
export function fileName(text, ext) {
  const base = String(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${base || 'attnlab'}.${ext}`;
}

/** Numbers for JSON: the shortest decimals that read back to the float32 values; NaN/∞ → null. */
export function numbersJSON(values) {
  return Array.from(values, (v) => (Number.isFinite(v) ? Number(formatFloat32(v)) : null));
}

/** WCAG relative luminance of an sRGB byte triple. */
export function luminance([r, g, b]) {
  const lin = (c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** '#000000' or '#ffffff', whichever contrasts more with the background colour rgb. */
export function textColorFor(rgb) {
  const l = luminance(rgb);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

/**
 * The map of a run's attention list for layer and head, clamped to the maps there are (a seq2seq
 * model has one): that layer and head, else the nearest layer's first head, else the first map.
 */
export function pickMap(maps, layer, head) {
  return (
    maps.find((m) => m.layer === layer && m.head === head) ??
    maps.find((m) => m.layer === Math.min(layer, maps.at(-1).layer)) ??
    maps[0]
  );
}

/**
 * The panel a view shows instead of a map for a model without attention (config attention
 * 'none': its maps are all zeros, which a 0–1 colour bar would present as a finding). Hidden
 * until show(on, lang).
 */
export function noAttentionPanel() {
  const node = el('p', { class: 'no-attention', role: 'note', hidden: '' });
  return {
    node,
    show(on, lang) {
      node.hidden = !on;
      node.textContent = on ? t(lang, 'attention.none') : '';
    },
  };
}

/** The container width (px) at and below which the views take their phone layout. */
export const PHONE_WIDTH = 480;

/**
 * Parts that a phone shows in another order than a wide element: `place(isNarrow)` moves them in
 * the DOM whenever <attn-demo> (the host of node's shadow root, the container) crosses PHONE_WIDTH
 * px, and once at the start, so that the keyboard and a screen reader meet them in the order they
 * are seen (not CSS `order`, which moves them for the eye only). Call the returned function once
 * node is in the shadow root (again is harmless: it starts observing once); focus stays where it
 * was across a move.
 * @param {Node} node @param {(isNarrow: boolean) => void} place
 */
export function placeByWidth(node, place) {
  let observer = null;
  return () => {
    const root = node.getRootNode();
    if (observer || !(root instanceof ShadowRoot)) return;
    let last = null;
    observer = new ResizeObserver(([entry]) => {
      const isNarrow = entry.contentRect.width <= PHONE_WIDTH;
      if (isNarrow === last) return;
      last = isNarrow;
      const focused = root.activeElement;
      place(isNarrow);
      if (focused instanceof HTMLElement && root.activeElement !== focused) focused.focus();
    });
    observer.observe(widthProbe(root));
  };
}

/** What placeByWidth observes: a block of no height first in the shadow root, as wide as
 * <attn-demo>'s content. Not the host itself: the parts moved change the host's height, which a
 * ResizeObserver reports again in the same frame as a loop (Firefox's page error "ResizeObserver
 * loop completed with undelivered notifications"); the probe's size never depends on them. */
function widthProbe(root) {
  const found = [...root.children].find((k) => k.classList.contains('width-probe'));
  if (found) return found;
  const probe = el('div', { class: 'width-probe', 'aria-hidden': 'true' });
  root.prepend(probe);
  return probe;
}

/** A view's section whose children follow `narrow` on a phone, `wide` otherwise (placeByWidth). */
export function orderByWidth(section, wide, narrow) {
  return placeByWidth(section, (isNarrow) => section.append(...(isNarrow ? narrow : wide)));
}

/**
 * A "why?" toggle: a <details class="why"> (keyboard operable as it is) holding an explanation,
 * closed until asked for, so that the picture keeps the first screen. Returns { node, texts(lang) }.
 */
export function whyToggle(...content) {
  const summary = el('summary');
  const node = el('details', { class: 'why' }, [summary, ...content]);
  return {
    node,
    texts(lang) {
      summary.textContent = t(lang, 'why.label');
    },
  };
}

/** Hidden from sight, read by screen readers (.visually-hidden, and .phone-hidden on a phone). */
const SCREEN_READER_ONLY = `position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0;
  overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0;`;
/** Styles the views add to <attn-demo>'s shadow root (light and dark follow the host). */
export const VIEW_STYLE = `
.output { font-family: var(--al-mono, monospace); font-size: var(--al-text-lg, 1.25rem); font-weight: 600; }
.buttons { display: flex; flex-wrap: wrap; gap: var(--al-space-1, 4px); margin: var(--al-space-2, 8px) 0; }
section[data-view] > p, .output-line { margin: var(--al-space-2, 8px) 0; }
/* a view's first line: its output, its own controls and "why?", on one row when they fit */
.view-line { display: flex; flex-wrap: wrap; align-items: center; gap: var(--al-space-1, 4px) var(--al-space-4, 16px); }
.view-line > * { margin: var(--al-space-1, 4px) 0; }
.view-line .output-line { flex: 0 1 auto; min-width: 0; }
.view-line .buttons { margin: 0; }
.view-line .field { flex-direction: row; align-items: center; gap: var(--al-space-2, 8px); }
.view-line details.why { flex: 1 1 12rem; }
.view-line details.why[open] { flex-basis: 100%; order: 9; }
details.why p { margin: var(--al-space-1, 4px) 0 0; }
.heads-split { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0 var(--al-space-5, 24px); align-items: start; }
@container (max-width: 48rem) { .heads-split { grid-template-columns: minmax(0, 1fr); } }
.heads-split .selected-title:first-child { margin-top: 0; }
figure { margin: 0; min-width: 0; }
figcaption { font-size: 0.875rem; overflow-wrap: anywhere; }
figcaption .output { font-size: 0.9rem; }
.legend { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.5rem; font-size: 0.8125rem; margin: 0.5rem 0; }
.legend-bar { width: 10rem; max-width: 40vw; height: 0.75rem; image-rendering: pixelated; border-radius: 2px; }
.legend-caption { color: var(--al-muted, GrayText); }
@container (max-width: ${PHONE_WIDTH}px) { .legend-bar { width: 4rem; } } /* a phone: the caption on the bar's line */
.heads-grid { display: grid; gap: 0.25rem; align-items: center; justify-content: start; margin: 0.5rem 0;
  max-width: min(48rem, 100vh - 10rem); } /* no wider than lets its rows end on the first screen */
.heads-grid .axis { font-size: 0.75rem; color: var(--al-muted, GrayText); text-align: center; overflow-wrap: anywhere; }
.heads-grid .axis.row { text-align: right; padding-right: 0.25rem; }
.thumb { display: block; padding: 2px; min-height: 0; min-width: 0; width: 100%; border: 2px solid transparent; border-radius: 4px;
  background: transparent; cursor: zoom-in; }
.thumb canvas { display: block; width: 100%; height: auto; image-rendering: pixelated; }
.thumb[aria-pressed="true"] { border-color: var(--al-accent, Highlight); }
.thumb:focus-visible { outline: 2px solid var(--al-accent, Highlight); outline-offset: 2px; }
.selected-title { font-size: 0.95rem; margin: 0.75rem 0 0; }
.relative h3 { font-size: 0.95rem; margin: 0.75rem 0 0; }
/* every bar on one track length: the rows share the list's columns (subgrid) */
.probs { list-style: none; padding: 0; margin: 0.25rem 0 0.75rem; display: grid; gap: 0.2rem 0.5rem; max-width: 32rem; min-width: 0;
  grid-template-columns: minmax(0, 8rem) minmax(2rem, 1fr) max-content; }
.probs li { grid-column: 1 / -1; display: grid; grid-template-columns: subgrid; align-items: center; min-width: 0; }
.probs .label { overflow-wrap: anywhere; min-width: 0; }
.no-attention { border: 1px dashed var(--al-line, #d6d6df); border-radius: 6px; padding: 0.75rem; margin: 0.5rem 0;
  font-size: 0.875rem; max-width: 40rem; }
.probs .bar { height: 0.8rem; border: 1px solid var(--al-line, #d6d6df); border-radius: 2px; overflow: hidden;
  background: color-mix(in srgb, var(--al-line, #d6d6df) 40%, transparent); }
.probs .fill { display: block; height: 100%; background: var(--al-attn, #21918c); }
.probs .value { font-variant-numeric: tabular-nums; font-family: ui-monospace, monospace; text-align: right; }
.probs li[data-predicted] .label { font-weight: 700; }
/* issue 30: a classifier's calibrated confidence, "unsure", and the unknown-words note */
.clf-confidence { font-size: 0.9rem; color: var(--al-muted, GrayText); font-variant-numeric: tabular-nums; white-space: nowrap; }
.clf-unsure { display: inline-block; padding: 0 0.45rem; border: 1px solid #e69f00; border-radius: 999px; font-size: 0.8125rem;
  font-weight: 600; background: color-mix(in srgb, #e69f00 22%, transparent); white-space: nowrap; }
section[data-view] > p.clf-unsure-note, section[data-view] > p.clf-many-unknown { border-left: 0.25rem solid #e69f00;
  padding: 0.15rem 0.5rem; margin: 0.25rem 0; font-size: 0.875rem; max-width: 40rem; }
.words { border: 1px solid var(--al-line, #d6d6df); border-radius: 6px; padding: 0.4rem; display: grid; gap: 0.3rem; }
.words:focus { outline: none; }
.words:focus-visible { outline: 2px solid var(--al-accent, Highlight); outline-offset: 2px; }
.words .row { display: flex; flex-wrap: wrap; gap: 0.2rem; align-items: center; border-left: 0.4rem solid transparent; padding-left: 0.3rem; }
.words .row-label { font-size: 0.75rem; color: var(--al-muted, GrayText); min-width: 3rem; }
.words .row-label.swatch { color: inherit; padding: 0 0.3rem; border-radius: 3px; font-variant-numeric: tabular-nums; font-family: ui-monospace, monospace; }
.words .word { padding: 0.05rem 0.3rem; border-radius: 3px; font-family: ui-monospace, monospace; white-space: pre; }
.words:focus-visible .word[data-focused] { outline: 2px solid var(--al-accent, Highlight); outline-offset: 1px; }
.text-alt { font-size: 0.875rem; margin: 0.5rem 0; }
.text-alt ol, .text-alt ul { margin: 0.25rem 0; padding-left: 1.5rem; }
.penalty { font-family: "STIX Two Math", "Cambria Math", serif; }
/* .phone-hidden: for screen readers only on a phone (a label whose control already says it) */
.visually-hidden { ${SCREEN_READER_ONLY} }
@container (max-width: ${PHONE_WIDTH}px) { .phone-hidden { ${SCREEN_READER_ONLY} } }
`;
