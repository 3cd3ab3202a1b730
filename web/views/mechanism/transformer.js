// mechanism/transformer.js: the mechanism view's picture of one attention sublayer of a
// transformer, one layer and head at a time, drawn from the model's states (docs/states.md).
//
//   const data = transformerData(resultWithStates, model.config, { layer: 0, head: 1, kind: 'cross' });
//   const { svg } = drawTransformer(data, i, 'en');   // i: the query row being followed
//
// The picture (Vaswani et al. 2017 §3.2; Shaw, Uszkoreit & Vaswani 2018 for relative positions):
// In the lesson's letters (web/shared/glossary.js): X (or LN(X), pre-norm) → Q = X W_Q,
// K = X W_K, V = X W_V of the head (cross-attention: K and V from the encoder's output H) →
// the scores e = QKᵀ/√d_k (+ Shaw's qᵢ·aᴷᵢⱼ/√d_k), masked entries −∞ (hatched) →
// α = softmax(e) → α V (+ Shaw's a^V) → the heads concatenated (this head's columns outlined) →
// W_O → the residual x + W_O(…) (post-norm: after the norm). Every matrix is a grid of cells
// coloured by sign (A by weight); the query row i is outlined through all of them, and under the
// picture its weights over the keys are bars.
// Holds: this family's layout and equations. Deliberately holds no stepping and no model call.

import { t as tr } from '../../shared/i18n.js';
import { argmax, defs, matrix, node, num, row, sub, svg, text, vec } from './svg.js';

const W = 640;
const TOP = 22;
const LEFT = 40;

/** The sublayer kinds of a variant (app-state.js KINDS for an encoder-decoder). */
function kindsOf(variant) {
  return variant === 'encoder-decoder' ? ['encoder', 'decoder', 'cross'] : [variant];
}

/** The [n, d] block of head h of an [H, n, d] tensor. */
function headOf(tensor, h) {
  const [, n, d] = tensor.shape;
  return { data: tensor.data.subarray(h * n * d, (h + 1) * n * d), shape: [n, d] };
}

/**
 * The plain numbers of one sublayer and head: { variant, kinds, kind, layer, layers, head, heads,
 * rows (query tokens), cols (key tokens), sub (the sublayer's states), n, m, dk, E, norm }.
 * result: run()/forward() with states; sel: { layer, head, kind } (clamped to what there is).
 */
export function transformerData(result, config, sel = {}) {
  const st = result.states;
  if (!st?.sublayers)
    throw new Error('transformerData: the run has no states (run it with { states: true })');
  const variant = st.variant ?? config.variant;
  const kinds = kindsOf(variant);
  const kind = kinds.includes(sel.kind) ? sel.kind : kinds.includes('cross') ? 'cross' : kinds[0];
  const [stack, type] =
    kind === 'cross'
      ? ['decoder', 'cross']
      : [kind === 'encoder' && variant !== 'encoder-decoder' ? 'encoder' : kind, 'self'];
  const pool = st.sublayers.filter((s) => s.stack === stack && s.kind === type);
  if (!pool.length)
    throw new Error(`transformerData: no ${stack} ${type}-attention sublayer in the states`);
  const layers = pool.length;
  const layer = Math.max(0, Math.min(layers - 1, Number.isInteger(sel.layer) ? sel.layer : 0));
  const sub = pool[layer];
  const heads = sub.weights.shape[0];
  const head = Math.max(0, Math.min(heads - 1, Number.isInteger(sel.head) ? sel.head : 0));
  const map = result.attention?.find(
    (a) =>
      a.layer === layer &&
      a.head === head &&
      a.kind === type &&
      (a.stack === stack || a.stack === variant),
  );
  const [, n, m] = sub.weights.shape;
  return {
    family: 'transformer',
    variant,
    kinds,
    kind,
    layer,
    layers,
    head,
    heads,
    rows: map?.rowLabels ?? Array.from({ length: n }, (_, k) => String(k + 1)),
    cols: map?.colLabels ?? Array.from({ length: m }, (_, k) => String(k + 1)),
    sub,
    n,
    m,
    dk: sub.q.shape[2],
    E: sub.input.shape[1],
    norm: sub.normed ? 'pre' : 'post',
    relative: !!sub.relative,
  };
}

/** The step labels: the query tokens. */
export function transformerSteps(data) {
  return data.rows;
}

/** The picture following query row i. Returns { svg }. */
export function drawTransformer(data, i, lang) {
  const s = data.sub;
  const { n, m, dk, E, head } = data;
  const label = tr(lang, 'mech.transformer.label', {
    layer: data.layer + 1,
    head: head + 1,
    t: i + 1,
    n,
  });
  const ch = Math.min(13, 150 / Math.max(n, m)); // a row's height
  const root = svg(W, TOP + Math.max(n, m) * ch + 44 + n * ch + 12, label);
  root.append(defs());
  const ew = 96 / E; // a cell of an E-wide matrix
  const kw = Math.min(9, 64 / dk);
  const mw = Math.min(13, 110 / m);
  const gap = 16;
  const hd = (t3) => headOf(t3, head);
  const [Q, K, V, S, A, O] = [s.q, s.k, s.v, s.scores, s.weights, s.heads].map(hd);
  const rowL = (name, tensor) => (r) => `${name}${sub(r + 1)} = ${vec(row(tensor, r))}`;
  const pre = data.norm === 'pre';
  const x0 = pre ? s.normed : s.input;
  const y1 = TOP;
  const y2 = TOP + Math.max(n, m) * ch + 44;
  const titles = [];
  const title = (bx, w, y, s2) => titles.push(text(bx + w / 2, y - 8, s2, 'vec-label'));
  // the query tokens left of the rows, cut to the margin's 5 characters (the whole on hover)
  const tokens = (y, list, cur) =>
    list.forEach((tok, r) => {
      const full = tok === ' ' ? '␣' : tok;
      const cut = [...full].length > 5 ? `${[...full].slice(0, 4).join('')}…` : full;
      const label = text(
        LEFT - 4,
        y + (r + 0.75) * ch,
        cut,
        r === cur ? 'tok current' : 'tok',
        'end',
      );
      if (cut !== full) label.append(node('title', { text: full }));
      root.append(label);
    });
  // the key tokens under a matrix: characters across; words (wider than a column) turned to
  // read downwards, cut to what the gap below holds (the whole word on hover)
  const words = data.cols.some((tok) => [...tok].length > 1);
  const cols = (bx, y) =>
    data.cols.forEach((tok, c) => {
      if (m > 16) return;
      const x = bx + (c + 0.5) * mw;
      const full = tok === ' ' ? '␣' : tok;
      if (!words) return root.append(text(x, y + 10, full, 'tok small'));
      const cut = [...full].length > 4 ? `${[...full].slice(0, 3).join('')}…` : full;
      const label = text(x - 3, y + 4, cut, 'tok small', 'start');
      label.setAttribute('transform', `rotate(90 ${x - 3} ${y + 4})`);
      label.append(node('title', { text: full }));
      root.append(label);
    });
  const mat = (tensor, rows, ncols, bx, y, cw, o) =>
    root.append(matrix(tensor.data, rows, ncols, bx, y, ch, { cellW: cw, ...o }));
  // top row: x (or LN(x)) → Q, K, V of this head → S = QKᵀ/√dₖ → A = softmax(S)
  tokens(y1, data.rows, i);
  let bx = LEFT;
  mat(x0, n, E, bx, y1, ew, {
    stage: 'input',
    current: i,
    rowLabel: rowL(pre ? 'LN(x)' : 'x', x0),
  });
  title(bx, E * ew, y1, pre ? 'LN(X)' : 'X');
  bx += E * ew + gap;
  const src = data.kind === 'cross' ? 'H' : pre ? 'LN(X)' : 'X';
  for (const [key, T, rows, nm] of [
    ['q', Q, n, 'Q'],
    ['k', K, m, 'K'],
    ['v', V, m, 'V'],
  ]) {
    mat(T, rows, dk, bx, y1, kw, {
      stage: key,
      current: key === 'q' ? i : undefined,
      rowLabel: rowL(key, T),
    });
    title(bx, dk * kw, y1, key === 'q' ? `Q` : `${nm}(${src})`);
    bx += dk * kw + gap;
  }
  const xS = bx;
  mat(S, n, m, bx, y1, mw, {
    stage: 'scores',
    current: i,
    rowLabel: (r) => `e${sub(r + 1)},· = ${vec(row(S, r), 6)}`,
  });
  title(bx, m * mw, y1, data.relative ? '(QKᵀ + Q·aᴷ)/√dₖ' : 'QKᵀ/√dₖ');
  cols(bx, y1 + n * ch);
  bx += m * mw + gap;
  const xA = bx;
  mat(A, n, m, bx, y1, mw, {
    stage: 'weights',
    current: i,
    weights: true,
    rowLabel: (r) => `α${sub(r + 1)},· = ${vec(row(A, r), 6)}`,
  });
  title(bx, m * mw, y1, 'softmax');
  cols(bx, y1 + n * ch);
  // bottom row: αV → the heads concatenated → W_O → the residual; Shaw's aᵢⱼ under A
  tokens(y2, data.rows, i);
  bx = LEFT;
  mat(O, n, dk, bx, y2, kw, {
    stage: 'heads',
    current: i,
    rowLabel: rowL(`head${sub(head + 1)}`, O),
  });
  title(bx, dk * kw, y2, 'αV');
  root.append(
    node('path', {
      d: `M${xA + (m * mw) / 2},${y1 + n * ch + 14} V${y2 - 26} H${bx + (dk * kw) / 2} V${y2 - 20}`,
      class: 'arrow',
      'marker-end': 'url(#mech-arrow)',
    }),
  );
  bx += dk * kw + gap;
  mat(s.concat, n, E, bx, y2, ew, {
    stage: 'concat',
    current: i,
    rowLabel: rowL('concat', s.concat),
  });
  root.append(
    node('rect', {
      x: bx + head * dk * ew,
      y: y2 - 2,
      width: dk * ew,
      height: n * ch + 4,
      class: 'head-cols',
    }),
  );
  title(bx, E * ew, y2, 'concat');
  bx += E * ew + gap;
  mat(s.projected, n, E, bx, y2, ew, {
    stage: 'projected',
    current: i,
    rowLabel: rowL('o', s.projected),
  });
  title(bx, E * ew, y2, 'W_O');
  bx += E * ew + gap;
  mat(s.residual, n, E, bx, y2, ew, {
    stage: 'residual',
    current: i,
    rowLabel: rowL('y', s.residual),
  });
  title(bx, E * ew, y2, pre ? 'x + o' : 'LN(x + o)');
  if (s.relative) {
    const R = hd(s.relative);
    const xr = Math.max(bx + E * ew + gap, xS);
    mat(R, n, m, xr, y2, mw, {
      stage: 'relative',
      current: i,
      rowLabel: (r) => `(q·aᴷ)${sub(r + 1)},· = ${vec(row(R, r), 6)}`,
    });
    title(xr, m * mw, y2, 'qᵢ·aᴷᵢⱼ/√dₖ (Shaw)');
    root.append(
      node('path', {
        d: `M${xr + (m * mw) / 2},${y2 - 20} V${y1 + n * ch + 16}`,
        class: 'arrow dashed',
        'marker-end': 'url(#mech-arrow)',
      }),
    );
  }
  root.append(...titles);
  const a = row(A, i);
  const best = argmax(a);
  if (best >= 0)
    root.append(
      text(
        xA + (best + 0.5) * mw,
        y1 + n * ch + (m <= 16 ? 24 : 12),
        `α = ${num(a[best], 2)}`,
        'bar-value',
      ),
    );
  return { svg: root };
}

/** The equation panel following query row i, filled for key j (null: the key weighted most). */
export function transformerEquations(data, i, j, _lang) {
  const s = data.sub;
  const h = data.head;
  const Q = headOf(s.q, h);
  const K = headOf(s.k, h);
  const V = headOf(s.v, h);
  const S = headOf(s.scores, h);
  const A = headOf(s.weights, h);
  const O = headOf(s.heads, h);
  const a = row(A, i);
  const at = j !== null && j < data.m ? j : argmax(a);
  const I1 = sub(i + 1);
  const J1 = sub(at + 1);
  const src = data.kind === 'cross' ? 'H' : data.norm === 'pre' ? 'LN(X)' : 'X';
  const x = data.norm === 'pre' ? 'LN(X)' : 'X';
  const lines = [
    {
      stage: 'input',
      sym: data.norm === 'pre' ? 'LN(X)' : 'X',
      num: `${data.norm === 'pre' ? 'LN(x)' : 'x'}${I1} = ${vec(row(data.norm === 'pre' ? s.normed : s.input, i))}`,
    },
    { stage: 'q', sym: `Q = ${x} W_Q^{${h + 1}}`, num: `q${I1} = ${vec(row(Q, i))}` },
    { stage: 'k', sym: `K = ${src} W_K^{${h + 1}}`, num: `k${J1} = ${vec(row(K, at))}` },
    {
      stage: 'scores',
      sym: data.relative
        ? 'e_{ij} = (q_i · k_j + q_i · a^K_{ij}) / √d_k'
        : 'e_{ij} = q_i · k_j / √d_k',
      num: `e${I1},${J1} = ${num(row(S, i)[at])}, dₖ = ${data.dk}`,
    },
  ];
  if (data.relative) {
    const R = headOf(s.relative, h);
    lines.push({
      stage: 'relative',
      sym: 'q_i · a^K_{ij} / √d_k,   a^K_{ij} = w^K_{clip(j − i, kₘₐₓ)}',
      num: `(q·aᴷ)${I1},${J1} = ${num(row(R, i)[at])}`,
    });
  }
  lines.push(
    { stage: 'weights', sym: 'α_{ij} = softmax(e_i)_j', num: `α${I1},${J1} = ${num(a[at])}` },
    { stage: 'v', sym: `V = ${src} W_V^{${h + 1}}`, num: `V${J1} = ${vec(row(V, at))}` },
    {
      stage: 'heads',
      sym: data.relative ? 'z_i = Σ_j α_{ij} (V_j + a^V_{ij})' : 'z_i = Σ_j α_{ij} V_j',
      num: `z${I1} (head ${h + 1}) = ${vec(row(O, i))}`,
    },
    { stage: 'concat', sym: `[head_1; …; head_{${data.heads}}]`, num: vec(row(s.concat, i)) },
    {
      stage: 'projected',
      sym: `o_i = [head_1; …; head_{${data.heads}}]_i W_O + b_O`,
      num: `o${I1} = ${vec(row(s.projected, i))}`,
    },
    {
      stage: 'residual',
      sym: data.norm === 'pre' ? 'x_i + o_i' : 'LN(x_i + o_i)',
      num: `${data.norm === 'pre' ? 'x + o' : 'LN(x + o)'}${I1} = ${vec(row(s.residual, i))}`,
    },
  );
  return lines;
}

/** What following row i says. */
export function transformerSay(data, i, lang) {
  const a = row(headOf(data.sub.weights, data.head), i);
  const j = argmax(a);
  return tr(lang, 'mech.transformer.say', {
    layer: data.layer + 1,
    head: data.head + 1,
    kind: tr(
      lang,
      `heads.kind.${data.kind === 'encoder' || data.kind === 'decoder' || data.kind === 'cross' ? data.kind : 'encoder'}`,
    ),
    token: data.rows[i],
    key: data.cols[j],
    w: num(a[j], 3),
  });
}
