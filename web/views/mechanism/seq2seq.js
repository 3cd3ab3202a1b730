// mechanism/seq2seq.js: the mechanism view's picture of an encoder–decoder (seq2seq) at output step
// t, drawn from the model's states (docs/states.md, model.run(input, { states: true })).
//
//   const data = seq2seqData(result, model.config);      // result.states: the states API's
//   const { svg } = drawSeq2seq(data, t, 'en');
//   const lines = seq2seqEquations(data, t, i, 'en');   // the equation panel, filled for source i
//
// The picture (Bahdanau, Cho & Bengio 2015; Luong, Pham & Manning 2015; the lectures' letters):
// the source tokens along the bottom, each encoder state hᵢ a colour strip above its token; the
// score e_tᵢ of every position as a bar (up positive, down negative; a masked score −∞ a grey
// mark); the softmax α_tᵢ as bars; a line from every position into c_t whose width follows α_tᵢ;
// c_t into the decoder cell (Bahdanau: s_t = f(s_{t−1}, y_{t−1}, c_t), the query s_{t−1}) or into
// h̃_t = tanh(W_c[c_t; s_t]) (Luong: the query is s_t); the output tokens along the top, y_t boxed.
// Without attention only h_m (the state handed over, s₀) crosses to the decoder: the bottleneck.
// Local-p: p_t marked on the source axis and its window [p_t − D, p_t + D] shaded.
// Holds: the layout and the equations of this family. Deliberately holds no stepping, no events
// and no model call (mechanism-view.js).

import {
  CONTEXT_EQUATION,
  EQUATIONS,
  LOCAL_EQUATION,
  SOFTMAX_EQUATION,
  queryOf,
} from '../../shared/explain.js';
import { shade } from '../../shared/confidence.js';
import { t as tr } from '../../shared/i18n.js';
import {
  argmax,
  arrow,
  bar,
  defs,
  link,
  maxAbs,
  node,
  num,
  row,
  stage,
  strip,
  sub,
  svg,
  text,
  values,
  vec,
} from './svg.js';

const W = 820;
const H = 400;
const LEFT = 74; // the row labels' column
const RIGHT = 590; // the decoder's column starts here
const Y_OUT = 10;
const Y_WEIGHT = 218; // α bars' baseline
const Y_SCORE = 280; // e bars' baseline
const Y_H = 334;
const Y_TOKEN = 372;

/**
 * The plain numbers of a run with states: { style, attention, feed, score, scaled, src, out,
 * probs, states, T, S, window }. result: model.run(input, { states: true }) of a seq2seq model; config: its config.
 */
export function seq2seqData(result, config) {
  const st = result.states;
  if (!st) throw new Error('seq2seqData: the run has no states (run it with { states: true })');
  const src = result.attention?.[0]?.colLabels ?? [];
  const out = [...result.tokens];
  return {
    family: 'seq2seq',
    style: st.style,
    attention: st.attention,
    feed: config.inputFeeding === true,
    score: config.score ?? null,
    scaled: config.scaled === true,
    src,
    out,
    probs: Array.from(result.logProbs, (v) => Math.exp(v)),
    states: st,
    T: out.length,
    S: st.encoder.shape[0],
    window: Number.isInteger(config.window) ? config.window : null,
  };
}

/** The step labels: the output token emitted at each step. */
export function seq2seqSteps(data) {
  return data.out;
}

/** Column geometry of the source positions. */
function columns(S) {
  const colW = Math.min(46, (RIGHT - 30 - LEFT) / Math.max(1, S));
  return { colW, x: (i) => LEFT + i * colW, cx: (i) => LEFT + (i + 0.5) * colW };
}

const quote = (s) => `“${s}”`;

/**
 * Output token k's box shaded by 1 − p and dotted under the model's threshold (data.threshold),
 * as the page's output line shades it (shared/output-confidence.js): a rect over box, a line.
 */
function unsureMarks(g, box, data, k) {
  const s = shade(data.probs[k], data.threshold);
  const opacity = (s.amount * 0.6).toFixed(3);
  if (s.amount >= 0.01)
    g.append(node('rect', { ...box, rx: 3, class: 'unsure', 'fill-opacity': opacity }));
  const y = box.y + box.height - 3;
  if (s.below)
    g.append(
      node('line', { x1: box.x + 3, x2: box.x + box.width - 3, y1: y, y2: y, class: 'below' }),
    );
}

/** The picture at step t (0-based). Returns { svg }. */
export function drawSeq2seq(data, t, lang) {
  const st = data.states;
  const { S, T } = data;
  const none = data.attention === 'none';
  const luong = data.style === 'luong';
  const root = svg(W, H, tr(lang, 'mech.seq2seq.label', { t: t + 1, n: T }));
  root.append(defs());
  const { colW, x, cx } = columns(S);
  const L = (k, y) =>
    root.append(text(LEFT - 8, y, k.startsWith('mech.') ? tr(lang, k) : k, 'row-label', 'end'));

  // the output tokens, y_t boxed
  // wide enough for the longest token in the 12px monospace (≈ 7.3px a character), when it fits
  const longest = Math.max(1, ...data.out.map((tok) => [...tok].length));
  const outW = Math.min(Math.max(40, 7.3 * longest + 8), (RIGHT - 30 - LEFT) / Math.max(1, T));
  L('mech.row.output', Y_OUT + 15);
  data.out.forEach((tok, k) => {
    const g = node('g', {
      class: k === t ? 'token current' : k < t ? 'token done' : 'token later',
    });
    g.append(
      node('rect', { x: LEFT + k * outW + 1, y: Y_OUT, width: outW - 2, height: 22, rx: 3 }),
    );
    unsureMarks(g, { x: LEFT + k * outW + 1, y: Y_OUT, width: outW - 2, height: 22 }, data, k);
    g.append(text(LEFT + (k + 0.5) * outW, Y_OUT + 15, tok, 'tok'));
    stage(g, {
      stage: 'output',
      label: `y${sub(k + 1)} = ${quote(tok)}, p = ${num(data.probs[k])}`,
      value: values([data.probs[k]]),
      index: k,
    });
    root.append(g);
  });

  // the encoder states hᵢ over their tokens
  const enc = st.encoder;
  const hScale = maxAbs(enc.data);
  L('hᵢ', Y_H + 11);
  for (let i = 0; i < S; i++) {
    root.append(
      strip(
        row(enc, i),
        x(i) + 2,
        Y_H,
        colW - 4,
        14,
        {
          stage: 'hidden',
          label: `h${sub(i + 1)} (${quote(data.src[i])}) = ${vec(row(enc, i))}`,
          index: i,
        },
        hScale,
      ),
    );
    root.append(text(cx(i), Y_TOKEN, data.src[i] === ' ' ? '␣' : data.src[i], 'tok src'));
  }

  const rx = RIGHT + 20;
  const sw = W - rx - 14; // the right column's strips
  const rightStrip = (tensor, y, stageName, label, r = t) =>
    strip(row(tensor, r), rx, y, sw, 14, {
      stage: stageName,
      label: `${label} = ${vec(row(tensor, r))}`,
    });
  const rightLabel = (y, s) => root.append(text(rx - 6, y + 11, s, 'vec-label', 'end'));

  const sT = `s${sub(t + 1)}`;
  const sPrev = `s${sub(t)}`;
  // the decoder's column, top to bottom: y_t, (h̃_t), s_t, c_t, the query
  const yY = 46;
  const yTilde = 104;
  const yDec = luong ? 150 : 104;
  const yCtx = 196;
  const yQuery = 262;
  const outBox = node('g', { class: 'token current big' }, [
    node('rect', { x: rx, y: yY, width: sw, height: 30, rx: 4 }),
  ]);
  unsureMarks(outBox, { x: rx, y: yY, width: sw, height: 30 }, data, t);
  outBox.append(
    text(
      rx + sw / 2,
      yY + 20,
      `y${sub(t + 1)} = ${quote(data.out[t])}  p = ${num(data.probs[t], 3)}`,
      'tok',
    ),
  );
  root.append(
    stage(outBox, {
      stage: 'output',
      label: `y${sub(t + 1)} = ${quote(data.out[t])}, p = ${num(data.probs[t])}`,
      value: values([data.probs[t]]),
      index: t,
    }),
  );
  if (luong && st.attentional) {
    rightLabel(yTilde, `h̃${sub(t + 1)}`);
    root.append(rightStrip(st.attentional, yTilde, 'attentional', `h̃${sub(t + 1)}`));
    root.append(arrow(rx + sw / 2, yTilde - 2, rx + sw / 2, yY + 32));
  }
  rightLabel(yDec, sT);
  root.append(rightStrip(st.decoder, yDec, 'decoder', sT));
  root.append(arrow(rx + sw / 2, yDec - 2, rx + sw / 2, luong ? yTilde + 16 : yY + 32));

  if (none) {
    // the bottleneck: only h_m, handed over as s₀, reaches the decoder
    const yInit = yQuery;
    rightLabel(yInit, 's₀');
    root.append(
      strip(st.initial.data, rx, yInit, sw, 14, {
        stage: 'initial',
        label: `s₀ = h${sub(S)} = ${vec(st.initial.data)}`,
      }),
    );
    root.append(link(cx(S - 1), Y_H - 2, rx, yInit + 7, 1, { stage: 'initial', label: 's₀' }));
    root.append(arrow(rx + sw / 2, yInit - 2, rx + sw / 2, yDec + 16));
    root.append(
      text((LEFT + RIGHT) / 2, 150, tr(lang, 'mech.seq2seq.bottleneck', { m: S }), 'mnote'),
    );
    return { svg: root };
  }

  const e = row(st.scores, t);
  const a = row(st.weights, t);
  // local-p: the window [p_t − D, p_t + D] shaded behind the positions, p_t marked
  if (st.positions && data.window !== null) {
    const p = st.positions.data[t];
    const D = data.window;
    const x0 = Math.max(LEFT, x(0) + (p - D) * colW);
    const x1 = Math.min(x(S), x(0) + (p + D + 1) * colW);
    root.append(
      node('rect', {
        x: x0,
        y: 120,
        width: Math.max(0, x1 - x0),
        height: Y_TOKEN - 110,
        class: 'window',
      }),
    );
    const px = x(0) + (p + 0.5) * colW;
    root.append(
      stage(node('path', { d: `M${px},${Y_TOKEN + 6} l-6,10 h12 z`, class: 'position' }), {
        stage: 'position',
        label: `p${sub(t + 1)} = ${num(p)}; [p − D, p + D] = [${num(p - D)}, ${num(p + D)}]`,
        value: values([p]),
      }),
    );
  }
  // scores e_tᵢ and weights α_tᵢ
  L('mech.row.score', Y_SCORE + 4);
  L('mech.row.weight', Y_WEIGHT - 20);
  root.append(node('line', { x1: LEFT, x2: x(S), y1: Y_SCORE, y2: Y_SCORE, class: 'axis' }));
  root.append(node('line', { x1: LEFT, x2: x(S), y1: Y_WEIGHT, y2: Y_WEIGHT, class: 'axis' }));
  const eScale = maxAbs(e);
  const q = luong ? sT : sPrev;
  for (let i = 0; i < S; i++) {
    const who = `${quote(data.src[i])}`;
    root.append(
      bar(e[i], x(i) + 3, Y_SCORE, colW - 6, 26, eScale, {
        stage: 'score',
        label: `e${sub(t + 1)},${sub(i + 1)} = score(${q}, h${sub(i + 1)}) = ${num(e[i])} (${who})`,
        index: i,
      }),
    );
    if (e[i] === -Infinity) root.append(text(cx(i), Y_SCORE + 4, '−∞', 'masked'));
    root.append(
      bar(a[i], x(i) + 3, Y_WEIGHT, colW - 6, 50, 1, {
        stage: 'weight',
        label: `α${sub(t + 1)},${sub(i + 1)} = ${num(a[i])} (${who})`,
        index: i,
        weight: true,
      }),
    );
  }
  // every position into c_t, the line's width α_tᵢ
  const best = argmax(a);
  for (let i = 0; i < S; i++) {
    const top = Y_WEIGHT - a[i] * 50;
    root.append(
      link(cx(i), top - 2, rx, yCtx + 7, a[i], {
        stage: 'context',
        label: `α${sub(t + 1)},${sub(i + 1)} h${sub(i + 1)}`,
        index: i,
      }),
    );
  }
  if (best >= 0)
    root.append(text(cx(best), Y_WEIGHT - a[best] * 50 - 5, num(a[best], 2), 'bar-value'));
  rightLabel(yCtx, `c${sub(t + 1)}`);
  root.append(rightStrip(st.context, yCtx, 'context', `c${sub(t + 1)} = Σᵢ α${sub(t + 1)},ᵢ hᵢ`));
  // c_t into the decoder (Bahdanau) or into h̃_t (Luong: round s_t, on the right)
  if (luong)
    root.append(
      node('path', {
        d: `M${rx + sw + 2},${yCtx + 7} h5 V${yTilde + 7} h-3`,
        class: 'arrow',
        'marker-end': 'url(#mech-arrow)',
      }),
    );
  else root.append(arrow(rx + sw / 2, yCtx - 2, rx + sw / 2, yDec + 16));
  // the query: s_{t−1} (Bahdanau) or s_t (Luong), read by every score
  rightLabel(yQuery, q);
  root.append(rightStrip(st.query, yQuery, 'query', q));
  root.append(
    node('path', {
      d: `M${rx - 30},${yQuery + 7} H${x(S) + 4}`,
      class: 'arrow dashed',
      'marker-end': 'url(#mech-arrow)',
    }),
  );
  if (luong)
    root.append(
      node('path', {
        d: `M${rx + sw + 2},${yQuery + 7} h11 V${yDec + 7} h-9`,
        class: 'arrow dashed',
        'marker-end': 'url(#mech-arrow)',
      }),
    );
  return { svg: root };
}

/** The score formula by the config's attention (local-p: its score): the alignment view's and the
 * lesson's (explain.js), with the query the style reads. */
function scoreFormula(data) {
  const kind = data.attention.startsWith('local') ? (data.score ?? 'general') : data.attention;
  const e = EQUATIONS[kind] ?? 'e_{ti} = score({q}, h_i)';
  return (
    e.replaceAll('{q}', queryOf(data.style)) +
    (kind === 'key-query' && data.scaled ? ' / √d_k' : '')
  );
}

/**
 * The equation panel at step t, filled for source position i (null: the position of the largest
 * α_tᵢ): [{ stage, sym, num }], in the order of the computation.
 */
export function seq2seqEquations(data, t, i, lang) {
  const st = data.states;
  const T1 = sub(t + 1);
  const luong = data.style === 'luong';
  const lines = [];
  const a = data.attention === 'none' ? null : row(st.weights, t);
  const at = i ?? (a ? argmax(a) : data.S - 1);
  const I1 = sub(at + 1);
  lines.push({
    stage: 'hidden',
    sym: 'h_i = [h→_i; h←_i],   i = 1 … m',
    num: `h${I1} (${data.src[at]}) = ${vec(row(st.encoder, at))}`,
  });
  if (!a) {
    lines.push({ stage: 'initial', sym: 's_0 = h_m', num: `s₀ = ${vec(st.initial.data)}` });
    lines.push({
      stage: 'decoder',
      sym: 's_t = f(s_{t−1}, y_{t−1})',
      num: `s${T1} = ${vec(row(st.decoder, t))}`,
    });
  } else {
    const q = luong ? `s${T1}` : `s${sub(t)}`;
    if (luong)
      lines.push({
        stage: 'decoder',
        sym: data.feed ? 's_t = f(s_{t−1}, [y_{t−1}; h̃_{t−1}])' : 's_t = f(s_{t−1}, y_{t−1})',
        num: `s${T1} = ${vec(row(st.decoder, t))}`,
      });
    lines.push({
      stage: 'query',
      sym: luong ? tr(lang, 'mech.eq.queryLuong') : tr(lang, 'mech.eq.queryBahdanau'),
      num: `${q} = ${vec(row(st.query, t))}`,
    });
    if (st.positions)
      lines.push({
        stage: 'position',
        sym: EQUATIONS['local-p'].replaceAll('{q}', queryOf(data.style)),
        num: `p${T1} = ${num(st.positions.data[t])}, D = ${data.window}`,
      });
    const e = row(st.scores, t);
    lines.push({ stage: 'score', sym: scoreFormula(data), num: `e${T1},${I1} = ${num(e[at])}` });
    lines.push({
      stage: 'weight',
      sym: st.positions ? LOCAL_EQUATION : SOFTMAX_EQUATION,
      num: `α${T1},${I1} = ${num(a[at])}; Σᵢ α${T1},ᵢ = ${num(
        a.reduce((s, v) => s + v, 0),
        5,
      )}`,
    });
    lines.push({
      stage: 'context',
      sym: CONTEXT_EQUATION,
      num: `c${T1} = ${vec(row(st.context, t))}`,
    });
    if (!luong)
      lines.push({
        stage: 'decoder',
        sym: 's_t = f(s_{t−1}, [y_{t−1}; c_t])',
        num: `s${T1} = ${vec(row(st.decoder, t))}`,
      });
    if (luong && st.attentional)
      lines.push({
        stage: 'attentional',
        sym: 'h̃_t = tanh(W_c [c_t; s_t])',
        num: `h̃${T1} = ${vec(row(st.attentional, t))}`,
      });
  }
  lines.push({
    stage: 'output',
    sym:
      luong && a
        ? 'p(y_t) = softmax(W_o h̃_t)'
        : a
          ? 'p(y_t) = softmax(g(s_t, c_t))'
          : 'p(y_t) = softmax(g(s_t))',
    num: `y${T1} = “${data.out[t]}”, p = ${num(data.probs[t])}`,
  });
  return lines;
}

/** What step t says (the view's live line). */
export function seq2seqSay(data, t, lang) {
  const base = { t: t + 1, n: data.T, token: data.out[t], p: num(data.probs[t], 3) };
  if (data.attention === 'none') return tr(lang, 'mech.seq2seq.sayNone', base);
  const a = row(data.states.weights, t);
  const i = argmax(a);
  return tr(lang, 'mech.seq2seq.say', { ...base, src: data.src[i], w: num(a[i], 3) });
}
