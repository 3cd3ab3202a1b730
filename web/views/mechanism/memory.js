// mechanism/memory.js: the mechanism view's picture of a memory RNN reading word t (the FBI
// sentence of the lectures), drawn from the model's states (docs/states.md).
//
//   const data = memoryData(model.run(text, { states: true }), model.config);
//   const { svg } = drawMemory(data, t, 'en');
//
// Self-attention RNN (Cheng, Dong & Lapata 2016, as the lectures simplify it; src/kernels/
// memory_rnn.h): h_t = tanh(W [x_t; c_{t−1}] + b), where c_{t−1} replaces h_{t−1}; then
// α_t = softmax_i(align(hᵢ, h_t)) over i ≤ t and c_t = Σ_{i≤t} α_tᵢ hᵢ, read at the next word.
// LSTMN (Cheng et al. §3.1, in the lesson's letters: their a_t is e_t, their s_t is α_t): the
// memory tape holds every hᵢ and cᵢ; α_t = softmax(e_t) over i < t, h̃_t = Σ α_tᵢ hᵢ and
// c̃_t = Σ α_tᵢ cᵢ replace h_{t−1} and c_{t−1} in the LSTM's gates;
// c_t = f ⊙ c̃_t + i ⊙ ĉ_t, h_t = o ⊙ tanh(c_t).
// The picture: the words along the bottom (those not read yet faint), the tape above them (hᵢ,
// and cᵢ for the LSTMN), the scores and weights of word t as bars, lines from the tape into the
// summary whose width follows the weight, the cell on the right reading x_t and the summary, and
// the probability of the next word. An LSTM (no attention): the tape and the cell only.
// Holds: this family's layout and equations. Deliberately holds no stepping and no model call.

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
  pretty,
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
const LEFT = 74;
const RIGHT = 590;
const Y_WEIGHT = 200;
const Y_SCORE = 262;
const Y_MEM = 302;
const Y_H = 326;
const Y_TOKEN = 370;

/** The cell as the drawing names it: 'lstmn', 'sarnn' or 'lstm'. */
function cellOf(states, config) {
  const c = states.cell ?? config.cell;
  return c === 'lstmn' || c === 'lstm' ? c : 'sarnn';
}

/**
 * The plain numbers of a run with states: { cell, tokens, n, probs (probs[t]: p(token t+1 | ≤ t),
 * null for the last), states }. result: model.run(text, { states: true }) of a memory-rnn lm.
 */
export function memoryData(result, config) {
  const st = result.states;
  if (!st) throw new Error('memoryData: the run has no states (run it with { states: true })');
  const tokens = [...result.tokens];
  const n = tokens.length;
  const probs = tokens.map((_, k) => (k + 1 < n ? Math.exp(result.logProbs[k]) : null));
  return { family: 'memory-rnn', cell: cellOf(st, config), tokens, n, probs, states: st };
}

/** The step labels: the word read at each step. */
export function memorySteps(data) {
  return data.tokens;
}

/**
 * The summary the cell reads at step t and the weights that made it: the self-attention RNN reads
 * c_{t−1} (row t−1 of the weights; nothing at t = 0), the LSTMN h̃_t (row t, over i < t).
 * Returns { row: the weights' row or −1, upto: the last position it covers }.
 */
function readRow(data, t) {
  if (data.cell === 'lstmn') return { row: t, upto: t - 1 };
  return { row: t - 1, upto: t - 1 };
}

const quote = (s) => `“${s}”`;

/** The picture at step t (0-based). Returns { svg }. */
export function drawMemory(data, t, lang) {
  const st = data.states;
  const n = data.n;
  const root = svg(W, H, tr(lang, 'mech.memory.label', { t: t + 1, n, word: data.tokens[t] }));
  root.append(defs());
  const colW = Math.min(52, (RIGHT - 30 - LEFT) / Math.max(1, n));
  const x = (i) => LEFT + i * colW;
  const cx = (i) => LEFT + (i + 0.5) * colW;
  const L = (k, y) =>
    root.append(text(LEFT - 8, y, k.startsWith('mech.') ? tr(lang, k) : k, 'row-label', 'end'));
  const lstmn = data.cell === 'lstmn';
  const T1 = sub(t + 1);

  // the current word's column, the words, the tape (only what has been read: i ≤ t)
  root.append(
    node('rect', { x: x(t), y: 120, width: colW, height: Y_TOKEN - 104, class: 'current-col' }),
  );
  const hScale = maxAbs(st.hidden.data);
  L('hᵢ', Y_H + 11);
  if (lstmn && st.memory) L('cᵢ', Y_MEM + 11);
  data.tokens.forEach((w, i) => {
    const g = node('g', {
      class: i === t ? 'token current' : i < t ? 'token done' : 'token later',
    });
    g.append(text(cx(i), Y_TOKEN, w, 'tok'));
    root.append(g);
    if (i > t) return;
    root.append(
      strip(
        row(st.hidden, i),
        x(i) + 2,
        Y_H,
        colW - 4,
        14,
        {
          stage: 'hidden',
          label: `h${sub(i + 1)} (${quote(w)}) = ${vec(row(st.hidden, i))}`,
          index: i,
        },
        hScale,
      ),
    );
    if (lstmn && st.memory)
      root.append(
        strip(row(st.memory, i), x(i) + 2, Y_MEM, colW - 4, 14, {
          stage: 'memory',
          label: `c${sub(i + 1)} (${quote(w)}) = ${vec(row(st.memory, i))}`,
          index: i,
        }),
      );
  });

  // the cell on the right: x_t and the summary in, h_t (and c_t) out, the next word's probability
  const rx = RIGHT + 24;
  const sw = W - rx - 14;
  const lab = (y, s) => root.append(text(rx - 6, y + 11, s, 'vec-label', 'end'));
  const put = (tensor, r, y, stageName, name) => {
    lab(y, name);
    root.append(
      strip(row(tensor, r), rx, y, sw, 14, {
        stage: stageName,
        label: `${name} = ${vec(row(tensor, r))}`,
      }),
    );
  };
  const yNext = 16;
  const yH = 70;
  const yCell = 104;
  const ySum = 178;
  const yX = 262;
  if (data.probs[t] !== null) {
    const g = node('g', { class: 'token current big' }, [
      node('rect', { x: rx, y: yNext, width: sw, height: 28, rx: 4 }),
      text(
        rx + sw / 2,
        yNext + 19,
        `p(${quote(data.tokens[t + 1])}) = ${num(data.probs[t], 3)}`,
        'tok',
      ),
    ]);
    root.append(
      stage(g, {
        stage: 'output',
        label: tr(lang, 'mech.memory.next', { word: data.tokens[t + 1], p: num(data.probs[t]) }),
        value: values([data.probs[t]]),
        index: t,
      }),
    );
  }
  put(st.hidden, t, yH, 'hidden-out', `h${T1}`);
  root.append(arrow(rx + sw / 2, yH - 2, rx + sw / 2, yNext + 30));
  const cellTitle = lstmn
    ? 'LSTM(x_t; h̃_t, c̃_t)'
    : data.cell === 'lstm'
      ? 'LSTM(x_t; h_{t−1})'
      : 'tanh(W [x_t; c_{t−1}] + b)';
  const cell = node('g', { class: 'cell' }, [
    node('rect', { x: rx, y: yCell, width: sw, height: 30, rx: 6, class: 'cell-box' }),
    text(rx + sw / 2, yCell + 19, pretty(cellTitle), 'cell-title'),
  ]);
  root.append(stage(cell, { stage: 'cell', label: tr(lang, `mech.memory.cell.${data.cell}`) }));
  root.append(arrow(rx + sw / 2, yCell - 2, rx + sw / 2, yH + 16));
  if (lstmn && st.memory) put(st.memory, t, yCell + 40, 'memory-out', `c${T1}`);
  put(st.embedded, t, yX, 'embedded', `x${T1}`);
  root.append(link(cx(t), Y_TOKEN - 12, rx, yX + 7, 0.15, { stage: 'embedded', label: `x${T1}` }));
  root.append(
    node('path', {
      d: `M${rx + sw + 4},${yX + 7} h6 V${yCell + 15} h-4`,
      class: 'arrow',
      'marker-end': 'url(#mech-arrow)',
    }),
  );

  if (data.cell === 'lstm' || !st.weights) {
    root.append(text((LEFT + RIGHT) / 2, 150, tr(lang, 'mech.memory.noAttention'), 'mnote'));
    return { svg: root };
  }
  // the weights that made the summary read at step t, and its scores
  const { row: r, upto } = readRow(data, t);
  const sumName = lstmn ? `h̃${T1}` : `c${sub(t)}`;
  if (r >= 0 && upto >= 0) {
    const e = row(st.scores, r);
    const a = row(st.weights, r);
    const R1 = sub(r + 1);
    L('mech.row.score', Y_SCORE + 4);
    L('mech.row.weight', Y_WEIGHT - 20);
    root.append(
      node('line', { x1: LEFT, x2: x(upto + 1), y1: Y_SCORE, y2: Y_SCORE, class: 'axis' }),
    );
    root.append(
      node('line', { x1: LEFT, x2: x(upto + 1), y1: Y_WEIGHT, y2: Y_WEIGHT, class: 'axis' }),
    );
    const eScale = maxAbs(Array.from(e).slice(0, upto + 1));
    for (let i = 0; i <= upto; i++) {
      const who = quote(data.tokens[i]);
      root.append(
        bar(e[i], x(i) + 3, Y_SCORE, colW - 6, 24, eScale, {
          stage: 'score',
          label: `e${R1},${sub(i + 1)} = ${num(e[i])} (${who})`,
          index: i,
        }),
      );
      root.append(
        bar(a[i], x(i) + 3, Y_WEIGHT, colW - 6, 50, 1, {
          stage: 'weight',
          label: `α${R1},${sub(i + 1)} = ${num(a[i])} (${who})`,
          index: i,
          weight: true,
        }),
      );
      root.append(
        link(cx(i), Y_WEIGHT - a[i] * 50 - 2, rx, ySum + 7, a[i], {
          stage: 'summary',
          label: `α${R1},${sub(i + 1)} h${sub(i + 1)}`,
          index: i,
        }),
      );
    }
    const best = argmax(Array.from(a).slice(0, upto + 1));
    if (best >= 0)
      root.append(text(cx(best), Y_WEIGHT - a[best] * 50 - 5, num(a[best], 2), 'bar-value'));
  } else {
    root.append(text((LEFT + RIGHT) / 2, 200, tr(lang, 'mech.memory.first'), 'mnote'));
  }
  // the summary the cell reads: h̃_t (LSTMN, row t); the SARNN's c_{t−1}, row t − 1 (row t is c_t)
  const sRow = lstmn ? t : t - 1;
  if (sRow >= 0) put(st.summary, sRow, ySum, 'summary', sumName);
  if (lstmn && st.memorySummary) put(st.memorySummary, t, ySum + 30, 'memory-summary', `c̃${T1}`);
  root.append(arrow(rx + sw / 2, ySum - 2, rx + sw / 2, yCell + (lstmn ? 72 : 32)));
  return { svg: root };
}

/** The equation panel at step t, filled for word i (null: the one weighted most). */
export function memoryEquations(data, t, i, _lang) {
  const st = data.states;
  const T1 = sub(t + 1);
  const lstmn = data.cell === 'lstmn';
  const lines = [
    {
      stage: 'embedded',
      sym: 'x_t = E[w_t]',
      num: `x${T1} (${data.tokens[t]}) = ${vec(row(st.embedded, t))}`,
    },
  ];
  const { row: r, upto } = readRow(data, t);
  const has = data.cell !== 'lstm' && st.weights && r >= 0 && upto >= 0;
  const a = has ? Array.from(row(st.weights, r)).slice(0, upto + 1) : [];
  const at = i !== null && i <= upto ? i : argmax(a);
  if (has && at >= 0) {
    const R1 = sub(r + 1);
    const I1 = sub(at + 1);
    lines.push({
      stage: 'score',
      sym: lstmn
        ? 'e_{ti} = v^T tanh(W_h h_i + W_x x_t + W_{h̃} h̃_{t−1}),   i < t'
        : 'e_{ti} = align(h_i, h_t),   i ≤ t',
      num: `e${R1},${I1} = ${num(row(st.scores, r)[at])}`,
    });
    lines.push({
      stage: 'weight',
      sym: 'α_{ti} = softmax(e_t)_i',
      num: `α${R1},${I1} (${data.tokens[at]}) = ${num(a[at])}`,
    });
  }
  if (data.cell !== 'lstm')
    lines.push({
      stage: 'summary',
      sym: lstmn ? 'h̃_t = Σ_{i<t} α_{ti} h_i' : 'c_{t−1} = Σ_{i≤t−1} α_{t−1,i} h_i',
      num: `${lstmn ? `h̃${T1}` : `c${sub(t)}`} = ${t === 0 && !lstmn ? '0' : vec(row(st.summary, lstmn ? t : t - 1))}`,
    });
  if (lstmn && st.memorySummary)
    lines.push({
      stage: 'memory-summary',
      sym: 'c̃_t = Σ_{i<t} α_{ti} c_i',
      num: `c̃${T1} = ${vec(row(st.memorySummary, t))}`,
    });
  if (lstmn && st.memory)
    lines.push({
      stage: 'memory-out',
      sym: 'c_t = f_t ⊙ c̃_t + i_t ⊙ ĉ_t',
      num: `c${T1} = ${vec(row(st.memory, t))}`,
    });
  lines.push({
    stage: 'hidden-out',
    sym: lstmn
      ? 'h_t = o_t ⊙ tanh(c_t)'
      : data.cell === 'lstm'
        ? 'h_t = LSTM(x_t, h_{t−1}, c_{t−1})'
        : 'h_t = tanh(W [x_t; c_{t−1}] + b)',
    num: `h${T1} = ${vec(row(st.hidden, t))}`,
  });
  if (data.probs[t] !== null)
    lines.push({
      stage: 'output',
      sym: 'p(w_{t+1}) = softmax(W_o h_t + b_o)',
      num: `p(${data.tokens[t + 1]}) = ${num(data.probs[t])}`,
    });
  return lines;
}

/** What step t says. */
export function memorySay(data, t, lang) {
  const word = data.tokens[t];
  const { row: r, upto } = readRow(data, t);
  if (data.cell === 'lstm' || !data.states.weights || r < 0 || upto < 0)
    return tr(lang, 'mech.memory.sayNone', { t: t + 1, word });
  const a = Array.from(row(data.states.weights, r)).slice(0, upto + 1);
  const i = argmax(a);
  return tr(lang, 'mech.memory.say', { t: t + 1, word, top: data.tokens[i], w: num(a[i], 3) });
}
