// mechanism/transformer.js: the mechanism view's picture of one attention sublayer of a
// transformer, one layer and head at a time, drawn from the model's states (docs/states.md).
//
//   const data = transformerData(resultWithStates, model.config, { layer: 0, head: 1, kind: 'cross' });
//   const { svg } = drawTransformer(data, i, 'en');   // i: the query row being followed
//
// The picture (Vaswani et al. 2017 §3.2; Shaw, Uszkoreit & Vaswani 2018 for relative positions):
// x (or LN(x), pre-norm) → Q = x W_Q, K = x W_K, V = x W_V of the head (cross-attention: K and V
// from the encoder's output) → S = QKᵀ/√d_k (+ Shaw's aᵢⱼ), masked entries −∞ (hatched) →
// A = softmax(S) → A V (+ Shaw's a^V) → the heads concatenated (this head's columns outlined) →
// W_O → the residual x + W_O(…) (post-norm: after the norm). Every matrix is a grid of cells
// coloured by sign (A by weight); the query row i is outlined through all of them, and under the
// picture its weights over the keys are bars.
// Holds: this family's layout and equations. Deliberately holds no stepping and no model call.

import { t as tr } from '../../shared/i18n.js';
import { argmax, bar, defs, matrix, maxAbs, node, num, row, sub, svg, text, vec } from './svg.js';

const W = 940;
const H = 400;
const TOP = 30;

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
  const root = svg(
    W,
    H,
    tr(lang, 'mech.transformer.label', { layer: data.layer + 1, head: head + 1, t: i + 1, n }),
  );
  root.append(defs());
  const ch = Math.min(13, 230 / Math.max(n, m)); // a row's height
  const ew = 84 / E; // a cell of an E-wide matrix
  const kw = Math.min(9, 64 / dk);
  const mw = Math.min(ch, 104 / m);
  const gap = 16;
  const blocks = [];
  let x = 44;
  const put = (key, w, build) => {
    blocks.push({ key, x, w });
    root.append(build(x));
    x += w + gap;
  };
  const head3 = (t3) => headOf(t3, head);
  const Q = head3(s.q);
  const K = head3(s.k);
  const V = head3(s.v);
  const S = head3(s.scores);
  const A = head3(s.weights);
  const O = head3(s.heads);
  const I1 = sub(i + 1);
  const rowL = (name, tensor) => (r) => `${name}${sub(r + 1)} = ${vec(row(tensor, r))}`;
  const x0 = data.norm === 'pre' ? s.normed : s.input;
  const xName = data.norm === 'pre' ? 'LN(x)' : 'x';
  // the query tokens down the left
  data.rows.forEach((tok, r) =>
    root.append(
      text(
        38,
        TOP + (r + 0.75) * ch,
        tok === ' ' ? '␣' : tok,
        r === i ? 'tok current' : 'tok',
        'end',
      ),
    ),
  );
  put('input', E * ew, (bx) =>
    matrix(x0.data, n, E, bx, TOP, ch, {
      stage: 'input',
      cellW: ew,
      current: i,
      rowLabel: rowL(xName === 'x' ? 'x' : 'LN(x)', x0),
    }),
  );
  // Q above K (K has m rows: the keys; cross-attention's come from the encoder)
  const qk = (bx) => {
    const g = node('g');
    g.append(
      matrix(Q.data, n, dk, bx, TOP, ch, {
        stage: 'q',
        cellW: kw,
        current: i,
        rowLabel: rowL('q', Q),
      }),
    );
    g.append(text(bx + (dk * kw) / 2, TOP + n * ch + 14, 'K', 'vec-label'));
    g.append(
      matrix(K.data, m, dk, bx, TOP + n * ch + 20, Math.min(ch, 110 / m), {
        stage: 'k',
        cellW: kw,
        rowLabel: rowL('k', K),
      }),
    );
    return g;
  };
  put('q', dk * kw, qk);
  const scoreScale = maxAbs(S.data);
  put('scores', m * mw, (bx) => {
    const g = node('g');
    g.append(
      matrix(S.data, n, m, bx, TOP, ch, {
        stage: 'scores',
        cellW: mw,
        current: i,
        scale: scoreScale,
        rowLabel: (r) => `S${sub(r + 1)},· = ${vec(row(S, r), 6)}`,
      }),
    );
    if (s.relative) {
      const R = head3(s.relative);
      g.append(text(bx + (m * mw) / 2, TOP + n * ch + 14, 'aᵢⱼ', 'vec-label'));
      g.append(
        matrix(R.data, n, m, bx, TOP + n * ch + 20, Math.min(ch, 110 / n), {
          stage: 'relative',
          cellW: mw,
          current: i,
          rowLabel: (r) => `a${sub(r + 1)},· = ${vec(row(R, r), 6)}`,
        }),
      );
    }
    return g;
  });
  put('weights', m * mw, (bx) =>
    matrix(A.data, n, m, bx, TOP, ch, {
      stage: 'weights',
      cellW: mw,
      current: i,
      weights: true,
      rowLabel: (r) => `α${sub(r + 1)},· = ${vec(row(A, r), 6)}`,
    }),
  );
  put('v', dk * kw, (bx) =>
    matrix(V.data, m, dk, bx, TOP, Math.min(ch, 230 / m), {
      stage: 'v',
      cellW: kw,
      rowLabel: rowL('v', V),
    }),
  );
  put('heads', dk * kw, (bx) =>
    matrix(O.data, n, dk, bx, TOP, ch, {
      stage: 'heads',
      cellW: kw,
      current: i,
      rowLabel: rowL(`head${sub(head + 1)}`, O),
    }),
  );
  put('concat', E * ew, (bx) => {
    const g = node('g');
    g.append(
      matrix(s.concat.data, n, E, bx, TOP, ch, {
        stage: 'concat',
        cellW: ew,
        current: i,
        rowLabel: rowL('concat', s.concat),
      }),
    );
    g.append(
      node('rect', {
        x: bx + head * dk * ew,
        y: TOP - 3,
        width: dk * ew,
        height: n * ch + 6,
        class: 'head-cols',
      }),
    );
    return g;
  });
  put('projected', E * ew, (bx) =>
    matrix(s.projected.data, n, E, bx, TOP, ch, {
      stage: 'projected',
      cellW: ew,
      current: i,
      rowLabel: rowL('o', s.projected),
    }),
  );
  put('residual', E * ew, (bx) =>
    matrix(s.residual.data, n, E, bx, TOP, ch, {
      stage: 'residual',
      cellW: ew,
      current: i,
      rowLabel: rowL('y', s.residual),
    }),
  );
  const titles = {
    input: xName,
    q: 'Q',
    scores: data.relative ? 'QKᵀ/√dₖ + a' : 'QKᵀ/√dₖ',
    weights: 'softmax',
    v: 'V',
    heads: 'αV',
    concat: 'concat',
    projected: 'W_O',
    residual: data.norm === 'pre' ? 'x + ·' : 'LN(x + ·)',
  };
  for (const b of blocks) root.append(text(b.x + b.w / 2, TOP - 10, titles[b.key], 'vec-label'));
  // query row i's weights over the keys, as bars, with the key tokens
  const a = row(A, i);
  const bw = Math.min(36, (W - 120) / m);
  const y0 = H - 22;
  root.append(text(40, y0 - 20, `α${I1},ⱼ`, 'row-label', 'end'));
  root.append(node('line', { x1: 50, x2: 50 + m * bw, y1: y0, y2: y0, class: 'axis' }));
  for (let j = 0; j < m; j++) {
    root.append(
      bar(a[j], 50 + j * bw + 2, y0, bw - 4, 52, 1, {
        stage: 'weights',
        label: `α${I1},${sub(j + 1)} = ${num(a[j])} (${data.rows[i]} → ${data.cols[j]})`,
        index: j,
        weight: true,
      }),
    );
    root.append(
      text(50 + (j + 0.5) * bw, y0 + 14, data.cols[j] === ' ' ? '␣' : data.cols[j], 'tok'),
    );
  }
  const best = argmax(a);
  if (best >= 0)
    root.append(text(50 + (best + 0.5) * bw, y0 - a[best] * 52 - 4, num(a[best], 2), 'bar-value'));
  return { svg: root };
}

/** The equation panel following query row i, filled for key j (null: the key weighted most). */
export function transformerEquations(data, i, j, lang) {
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
  const src = data.kind === 'cross' ? tr(lang, 'mech.transformer.encoderOut') : 'x';
  const x = data.norm === 'pre' ? 'LN(x)' : 'x';
  const lines = [
    {
      stage: 'input',
      sym: data.norm === 'pre' ? 'LN(x)' : 'x',
      num: `${x}${I1} = ${vec(row(data.norm === 'pre' ? s.normed : s.input, i))}`,
    },
    { stage: 'q', sym: `Q = ${x} W_Q^${h + 1}`, num: `q${I1} = ${vec(row(Q, i))}` },
    { stage: 'k', sym: `K = ${src} W_K^${h + 1}`, num: `k${J1} = ${vec(row(K, at))}` },
    {
      stage: 'scores',
      sym: data.relative
        ? 'Sᵢⱼ = (qᵢ · kⱼ + qᵢ · a^K_ij) / √dₖ'
        : 'Sᵢⱼ = qᵢ · kⱼ / √dₖ  (masked: −∞)',
      num: `S${I1},${J1} = ${num(row(S, i)[at])}, dₖ = ${data.dk}`,
    },
  ];
  if (data.relative) {
    const R = headOf(s.relative, h);
    lines.push({
      stage: 'relative',
      sym: 'a^K_ij = w^K_clip(j−i, k)',
      num: `a${I1},${J1} = ${num(row(R, i)[at])}`,
    });
  }
  lines.push(
    { stage: 'weights', sym: 'αᵢⱼ = softmax(Sᵢ)ⱼ', num: `α${I1},${J1} = ${num(a[at])}` },
    { stage: 'v', sym: `V = ${src} W_V^${h + 1}`, num: `v${J1} = ${vec(row(V, at))}` },
    {
      stage: 'heads',
      sym: data.relative ? 'headᵢ = Σⱼ αᵢⱼ (vⱼ + a^V_ij)' : 'headᵢ = Σⱼ αᵢⱼ vⱼ',
      num: `head${sub(h + 1)},${I1} = ${vec(row(O, i))}`,
    },
    { stage: 'concat', sym: `[head₁; …; head${sub(data.heads)}]`, num: vec(row(s.concat, i)) },
    {
      stage: 'projected',
      sym: 'o = concat W_O + b_O',
      num: `o${I1} = ${vec(row(s.projected, i))}`,
    },
    {
      stage: 'residual',
      sym: data.norm === 'pre' ? 'y = x + o' : 'y = LN(x + o)',
      num: `y${I1} = ${vec(row(s.residual, i))}`,
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
