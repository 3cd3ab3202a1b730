// mechanism/svg.js: the pieces every drawing of the mechanism view (mechanism-view.js) is made of:
// SVG elements, a vector drawn as a small colour strip, a matrix as a grid of cells, bars, lines
// whose width follows a weight, and the numbers each element answers with.
//
//   import { svg, node, strip, matrix, bar, link, vec, num, stageOf } from './svg.js';
//   const root = svg(800, 400, label);
//   root.append(strip(data, 40, 300, 60, 12, { stage: 'h', label: 'h₃ = …', value: '…' }));
//
// Every element a person can point at is a "stage element": it has data-stage (the stage of the
// mechanism it shows: the same name as its line in the equation panel), an aria-label with its
// numbers (read by screen readers, shown in the view's readout on hover, tap and focus) and, for
// the tests, data-value (the drawn numbers, shortest float32 decimals, comma separated) and
// data-index. Colours come from the design tokens with fallbacks (notes/tokens.md): --al-pos /
// --al-neg for the sign of a value, --al-attn for attention weights.
// Holds: pure builders (they make elements; no state, no events). Deliberately holds no layout of
// any family (mechanism/<family>.js) and no wiring (mechanism-view.js).

import { formatFloat32, formatValue } from '../../shared/draw.js';

export const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes (`text`: its textContent) and children. */
export function node(tag, attrs = {}, children = []) {
  const n = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === 'text') n.textContent = String(v);
    else n.setAttribute(k, String(v));
  }
  for (const c of children) if (c) n.append(c);
  return n;
}

/** The root <svg> of a drawing: viewBox w × h, scaled to its box, labelled. */
export function svg(w, h, label) {
  return node('svg', {
    viewBox: `0 0 ${w} ${h}`,
    width: w, // its size where CSS leaves it (a phone): 1 unit a pixel, the text as written
    height: h,
    class: 'mech-svg',
    role: 'group',
    'aria-label': label,
    preserveAspectRatio: 'xMidYMin meet',
  });
}

/** A number as the view writes it (4 significant digits; −∞ for a masked score). */
export function num(v, digits = 4) {
  if (v === -Infinity) return '−∞';
  if (v === Infinity) return '∞';
  return formatValue(v, digits);
}

/** Numbers for data-value: the shortest decimals that read back to the float32 values. */
export function values(list) {
  return Array.from(list, (v) => (Number.isFinite(v) ? formatFloat32(v) : String(v))).join(',');
}

/** A vector as text for a label: the first `max` entries, then "…" and its length. */
export function vec(data, max = 4) {
  const shown = Array.from(data.slice(0, max), (v) => num(v, 3)).join(', ');
  return data.length > max ? `[${shown}, … ] (${data.length})` : `[${shown}]`;
}

/** Row r of a [rows, cols] tensor ({ data, shape }), a view on its data. */
export function row(tensor, r) {
  const cols = tensor.shape.at(-1);
  return tensor.data.subarray(r * cols, (r + 1) * cols);
}

/** The largest |value| of a list (1 when all are 0 or none is finite), for colour scales. */
export function maxAbs(list) {
  let m = 0;
  for (const v of list) if (Number.isFinite(v) && Math.abs(v) > m) m = Math.abs(v);
  return m || 1;
}

/** The fill of a value on a scale of ±scale: --al-pos above 0, --al-neg below, opacity ∝ |v|. */
export function signFill(v, scale) {
  if (!Number.isFinite(v)) return { fill: 'var(--mech-masked)', 'fill-opacity': 1 };
  const a = Math.min(1, Math.abs(v) / scale);
  return {
    fill: v >= 0 ? 'var(--al-pos, #0f766e)' : 'var(--al-neg, #b91c1c)',
    'fill-opacity': (0.08 + 0.92 * a).toFixed(3),
  };
}

/**
 * Make a stage element: data-stage, aria-label (the numbers in words), data-value (the numbers),
 * data-index, focusable (tabindex 0) unless focus is false.
 * @param {Element} n @param {{ stage: string, label: string, value?: string, index?: number|string,
 *   focus?: boolean }} o
 */
export function stage(n, o) {
  n.setAttribute('data-stage', o.stage);
  n.setAttribute('aria-label', o.label);
  n.setAttribute('class', `${n.getAttribute('class') ?? ''} stage`.trim());
  if (o.value !== undefined) n.setAttribute('data-value', o.value);
  if (o.index !== undefined) n.setAttribute('data-index', String(o.index));
  if (o.focus !== false) {
    n.setAttribute('tabindex', '0');
    n.setAttribute('role', 'img');
  }
  return n;
}

/**
 * A vector as a strip of w × h (one cell per entry, coloured by sign and size, scale ±scale; an
 * outline around it), a stage element.
 */
export function strip(data, x, y, w, h, o, scale = maxAbs(data)) {
  const g = node('g', { class: 'strip' });
  const cw = w / Math.max(1, data.length);
  // one path per colour would be smaller; rects keep each cell's value inspectable in devtools
  data.forEach((v, k) => {
    g.append(
      node('rect', { x: x + k * cw, y, width: cw + 0.02, height: h, ...signFill(v, scale) }),
    );
  });
  g.append(node('rect', { x, y, width: w, height: h, class: 'outline' }));
  return stage(g, { value: values(data), ...o });
}

/**
 * A [rows, cols] matrix (data row-major) as cells of size cell at (x, y); each row a stage element
 * (rowLabel(r) → its aria-label), scale ±scale or, with weights: true, 0..1 in --al-attn.
 * Masked (−∞) cells are hatched. Returns the group.
 */
export function matrix(data, rows, cols, x, y, cell, o) {
  const g = node('g', { class: 'matrix' });
  const scale = o.scale ?? maxAbs(data);
  for (let r = 0; r < rows; r++) {
    const rg = node('g', { class: 'mrow' });
    const cw = o.cellW ?? cell;
    for (let c = 0; c < cols; c++) {
      const v = data[r * cols + c];
      const fill = o.weights
        ? Number.isFinite(v)
          ? { fill: 'var(--al-attn, #7c3aed)', 'fill-opacity': (0.04 + 0.96 * v).toFixed(3) }
          : { fill: 'var(--mech-masked)', 'fill-opacity': 1 }
        : signFill(v, scale);
      rg.append(node('rect', { x: x + c * cw, y: y + r * cell, width: cw, height: cell, ...fill }));
    }
    rg.append(
      node('rect', { x, y: y + r * cell, width: cols * cw, height: cell, class: 'row-outline' }),
    );
    stage(rg, {
      stage: o.stage,
      label: o.rowLabel(r),
      value: values(data.subarray(r * cols, (r + 1) * cols)),
      index: r,
      focus: o.focus,
    });
    if (o.current === r) rg.setAttribute('data-current', '');
    g.append(rg);
  }
  g.append(
    node('rect', { x, y, width: cols * (o.cellW ?? cell), height: rows * cell, class: 'outline' }),
  );
  return g;
}

/** A bar of value v from a baseline at y0 (up for positive), length ∝ |v| / scale × len. */
export function bar(v, x, y0, w, len, scale, o) {
  const hgt = Number.isFinite(v) ? Math.min(1, Math.abs(v) / scale) * len : 0;
  const up = !(v < 0);
  const r = node('rect', {
    x,
    y: up ? y0 - hgt : y0,
    width: w,
    height: Math.max(hgt, 1.5), // a weight near 0 still a visible hairline
    class: o.weight ? 'mbar weight' : `mbar ${up ? 'pos' : 'neg'}`,
  });
  return stage(r, { value: values([v]), ...o });
}

/** A line from (x1, y1) to (x2, y2) whose width follows weight w (0..1); a stage element
 * (not focusable: the bar it starts at carries the same numbers). */
export function link(x1, y1, x2, y2, w, o) {
  const midY = (y1 + y2) / 2;
  const p = node('path', {
    d: `M${x1},${y1} C${x1},${midY} ${x2},${midY} ${x2},${y2}`,
    class: 'link',
    'stroke-width': (0.4 + 9 * Math.max(0, w)).toFixed(2),
    'stroke-opacity': (0.15 + 0.85 * Math.max(0, w)).toFixed(3),
  });
  return stage(p, { value: values([w]), focus: false, ...o });
}

/** Text at (x, y); anchor 'start' | 'middle' | 'end'; cls a class. */
export function text(x, y, s, cls = '', anchor = 'middle') {
  return node('text', { x, y, class: cls, 'text-anchor': anchor, text: s });
}

/** An arrow from (x1, y1) to (x2, y2). */
export function arrow(x1, y1, x2, y2, cls = 'arrow') {
  return node('line', { x1, y1, x2, y2, class: cls, 'marker-end': 'url(#mech-arrow)' });
}

/** The <defs> of every drawing (the arrow head). */
export function defs() {
  return node('defs', {}, [
    node(
      'marker',
      {
        id: 'mech-arrow',
        viewBox: '0 0 10 10',
        refX: 9,
        refY: 5,
        markerWidth: 6,
        markerHeight: 6,
        orient: 'auto-start-reverse',
      },
      [node('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head' })],
    ),
  ]);
}

/** A labelled box (a cell of the network) at (x, y), w × h; a stage element. */
export function box(x, y, w, h, title, o) {
  const g = node('g', { class: 'cell' }, [
    node('rect', { x, y, width: w, height: h, rx: 6, class: 'cell-box' }),
    text(x + w / 2, y + h / 2 + 4, title, 'cell-title'),
  ]);
  return o ? stage(g, o) : g;
}

/** The argmax of a list (first on ties), −1 for none finite. */
export function argmax(list) {
  let best = -1;
  for (let i = 0; i < list.length; i++)
    if (Number.isFinite(list[i]) && (best < 0 || list[i] > list[best])) best = i;
  return best;
}

const SUBS = {
  ...Object.fromEntries([...'0123456789'].map((d, k) => [d, '₀₁₂₃₄₅₆₇₈₉'[k]])),
  '+': '₊',
  '−': '₋',
  '-': '₋',
  '=': '₌',
  '(': '₍',
  ')': '₎',
  a: 'ₐ',
  e: 'ₑ',
  h: 'ₕ',
  i: 'ᵢ',
  j: 'ⱼ',
  k: 'ₖ',
  l: 'ₗ',
  m: 'ₘ',
  n: 'ₙ',
  o: 'ₒ',
  p: 'ₚ',
  r: 'ᵣ',
  s: 'ₛ',
  t: 'ₜ',
  u: 'ᵤ',
  v: 'ᵥ',
  x: 'ₓ',
};

/**
 * A formula written with TeX-like subscripts (s_{t−1}, x_t) in Unicode subscripts (sₜ₋₁, xₜ)
 * where every character has one; others (W_Q, W_{s2}) stay as written.
 */
export function pretty(formula) {
  const conv = (body, whole) =>
    [...body].every((c) => SUBS[c]) ? [...body].map((c) => SUBS[c]).join('') : whole;
  return String(formula)
    .replace(/_\{([^}]*)\}/g, (whole, body) => conv(body.replace(/,/g, ''), whole))
    .replace(/_([a-z0-9]+)(?![A-Za-z0-9])/g, (whole, body) => conv(body, whole));
}

/** Subscript digits for an index (t = 3 → '₃'; 12 → '₁₂'). */
export function sub(n) {
  return String(n).replace(/[0-9]/g, (d) => '₀₁₂₃₄₅₆₇₈₉'[Number(d)]);
}
