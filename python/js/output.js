// python/js/output.js: what the two notebook bundles share (scripts/build-python-assets.mjs): the
// mount of one output cell's root and the heatmap output. heatmap.js (show(weights)) bundles this
// alone; notebook.js (show(model)) adds the live view. The cell's HTML: see notebook.js.

import { define as defineHeatmap } from '../../web/elements/attention-heatmap.js';
import { el } from '../../web/shared/view-kit.js';

/** Every output's styles (in a shadow root of its own: the notebook's CSS does not reach in). */
const BASE_STYLE = `
:host { display: block; font: 14px/1.4 system-ui, sans-serif; color: #1b1b1f; background: #fff;
  padding: 0.5rem 0.75rem; border-radius: 6px; container-type: inline-size; max-width: 60rem; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
.title { font-weight: 600; margin: 0 0 0.25rem; }
.error { padding: 0.4rem 0.6rem; border-radius: 6px; background: #fdecea; color: #8c1d18; margin: 0.5rem 0; }
attn-heatmap { min-width: 0; max-width: 100%; --attn-heatmap-background: #fff; --attn-heatmap-color: #1b1b1f; }
`;

/** Bytes of a base64 string. */
export function fromBase64(b64) {
  const s = atob(b64);
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return bytes;
}

/** A Float32Array of a base64 string of little-endian float32s. */
export function floatsFromBase64(b64) {
  const bytes = fromBase64(b64);
  const view = new DataView(bytes.buffer);
  const out = new Float32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(4 * i, true);
  return out;
}

/**
 * mount(root) for these kinds of output: kinds maps data.kind to draw(root, shadowRoot, data)
 * (may return a promise), styles maps it to the CSS it adds. mount draws the output whose root
 * element is root (the div holding the JSON data), once per root (a notebook may run the script
 * again when it re-renders), and resolves after the first view.
 * @param {Record<string, (root: HTMLElement, shadow: ShadowRoot, data: any) => any>} kinds
 * @param {Record<string, string>} [styles]
 */
export function mounter(kinds, styles = {}) {
  return async (/** @type {HTMLElement} */ root) => {
    if (root.dataset.attnlabMounted) return;
    root.dataset.attnlabMounted = 'true';
    const host = root.querySelector('.attnlab-mount');
    const shadow = host.attachShadow({ mode: 'open' });
    try {
      const data = JSON.parse(root.querySelector('script.attnlab-data').textContent);
      shadow.append(el('style', { text: BASE_STYLE + (styles[data.kind] ?? '') }));
      defineHeatmap();
      const draw = kinds[data.kind];
      if (!draw) throw new Error(`this bundle does not draw outputs of kind ${data.kind}`);
      await draw(root, shadow, data);
    } catch (err) {
      shadow.append(el('p', { class: 'error', role: 'alert', text: `attnlab: ${err.message}` }));
      root.dataset.attnlabState = 'error';
    }
  };
}

/** kind 'heatmap': one <attn-heatmap> of the weights (the data: see notebook.js). */
export function heatmap(root, shadow, d) {
  const map = el('attn-heatmap', { label: d.label || 'attention weights' });
  for (const [attr, v] of [
    ['min', d.min],
    ['max', d.max],
    ['scale', d.scale], // 'fixed' (0–1) or 'fit' (the data's range); absent: min and max
    ['colormap', d.colormap],
    ['cell-size', d.cellSize],
  ]) {
    if (v !== null && v !== undefined) map.setAttribute(attr, String(v));
  }
  if (d.title) shadow.append(el('p', { class: 'title', text: d.title }));
  shadow.append(map);
  map.addEventListener('heatmap-render', () => {
    root.dataset.attnlabState = 'ready';
  });
  /** @type {any} an <attn-heatmap> */ (map).data = {
    weights: floatsFromBase64(d.weights),
    rows: d.rows,
    cols: d.cols,
    rowLabels: d.rowLabels,
    colLabels: d.colLabels,
  };
}
