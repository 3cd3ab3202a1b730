// mechanism/classifier.js: the mechanism view's picture of a pooling classifier, drawn from the
// model's states (docs/states.md, model.classify(text, { states: true })).
//
//   const data = classifierData(model.classify(text, { states: true }), model.config);
//   const { svg } = drawClassifier(data, t, 'en');
//
// In the lesson's letters (web/shared/glossary.js): the projected state is always uₜ, the learned
// context vector u_w, a summary r.
// Attention pooling (Zhou et al. 2016): H = [h₁ … h_n], uₜ = tanh(hₜ), α = softmax(u_wᵀ uₜ),
// r = Σ_t α_t h_t, the label softmax(W_o tanh(r) + b_o) (docs/states.md).
// Steps go through the words t: word t's column is marked and the equations are filled with it.
// HAN (Yang et al. 2016): uₜ = tanh(W hₜ + b), α = softmax(u_wᵀ uₜ) within each sentence: rⱼ; a
// sentence encoder reads r₁ … r_m, and the same pooling over sentences gives the document's r.
// Steps go through the sentences.
// Structured self-attention (Lin et al. 2017): A = softmax(W_s2 tanh(W_s1 Hᵀ)) has r rows (hops),
// M = A H, the penalty P = ‖A Aᵀ − I‖²_F. Steps go through the hops.
// Holds: this family's layout and equations. Deliberately holds no stepping and no model call.

import { t as tr } from '../../shared/i18n.js';
import {
  argmax,
  bar,
  defs,
  link,
  matrix,
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
const LEFT = 74;
const RIGHT = 590;
const Y_TOKEN = 388;
const Y_H = 348;
const Y_U = 326;

/** The plain numbers of a classify() with states. */
export function classifierData(result, config) {
  const st = result.states;
  if (!st) throw new Error('classifierData: the run has no states (run it with { states: true })');
  const tokens = [...result.tokens];
  const labels = config.labels ?? Array.from(st.probs.data, (_, k) => String(k));
  return {
    family: 'classifier',
    pooling: st.pooling,
    tokens,
    n: tokens.length,
    hops: st.weights.shape[0],
    sentences: result.sentences ?? null, // han: [start, end) of each sentence
    label: result.label,
    labels,
    states: st,
  };
}

/** The step labels: words (attention), sentences (han) or hops (structured). */
export function classifierSteps(data) {
  if (data.pooling === 'han')
    return data.sentences.map(([a, b]) => data.tokens.slice(a, b).join(' '));
  if (data.pooling === 'structured')
    return Array.from({ length: data.hops }, (_, k) => `r = ${k + 1}`);
  return data.tokens;
}

const quote = (s) => `“${s}”`;

/** The picture at step t. Returns { svg }. */
export function drawClassifier(data, t, lang) {
  const st = data.states;
  const n = data.n;
  const han = data.pooling === 'han';
  const structured = data.pooling === 'structured';
  const root = svg(W, H, tr(lang, `mech.classifier.label.${data.pooling}`, { t: t + 1 }));
  root.append(defs());
  const colW = Math.min(52, (RIGHT - 30 - LEFT) / Math.max(1, n));
  const x = (i) => LEFT + i * colW;
  const cx = (i) => LEFT + (i + 0.5) * colW;
  const L = (k, y) =>
    root.append(text(LEFT - 8, y, k.startsWith('mech.') ? tr(lang, k) : k, 'row-label', 'end'));
  const hop = structured ? t : 0;
  const inStep = (i) =>
    han ? i >= data.sentences[t][0] && i < data.sentences[t][1] : structured || i === t;
  // the step's words marked
  const [m0, m1] = han ? data.sentences[t] : structured ? [0, n] : [t, t + 1];
  if (!structured)
    root.append(
      node('rect', {
        x: x(m0),
        y: han ? 210 : 120,
        width: (m1 - m0) * colW,
        height: Y_TOKEN - (han ? 196 : 106),
        class: 'current-col',
      }),
    );
  // words, H and u_t
  const hScale = maxAbs(st.hidden.data);
  const uScale = maxAbs(st.projected.data);
  L('hᵢ', Y_H + 11);
  root.append(text(LEFT - 8, Y_U + 10, 'uₜ', 'row-label', 'end'));
  data.tokens.forEach((w, i) => {
    root.append(text(cx(i), Y_TOKEN, w, inStep(i) ? 'tok current' : 'tok'));
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
    root.append(
      strip(
        row(st.projected, i),
        x(i) + 6,
        Y_U,
        colW - 12,
        12,
        {
          stage: 'projected',
          label: `u${sub(i + 1)} = ${vec(row(st.projected, i))}`,
          index: i,
        },
        uScale,
      ),
    );
  });
  // word scores and weights (han: softmax within each sentence; structured: hop t's row)
  const e = row(st.scores, hop);
  const a = row(st.weights, hop);
  const yS = han ? 296 : 286;
  const yA = han ? 262 : 228;
  const aLen = han ? 30 : 56;
  L('mech.row.score', yS + 4);
  L('mech.row.weight', yA - 14);
  root.append(node('line', { x1: LEFT, x2: x(n), y1: yS, y2: yS, class: 'axis' }));
  root.append(node('line', { x1: LEFT, x2: x(n), y1: yA, y2: yA, class: 'axis' }));
  const eScale = maxAbs(e);
  const H1 = sub(hop + 1);
  for (let i = 0; i < n; i++) {
    const who = quote(data.tokens[i]);
    const lbl = structured ? `${H1},${sub(i + 1)}` : sub(i + 1);
    root.append(
      bar(e[i], x(i) + 3, yS, colW - 6, 18, eScale, {
        stage: 'score',
        label: `e${lbl} = ${num(e[i])} (${who})`,
        index: i,
      }),
    );
    root.append(
      bar(a[i], x(i) + 3, yA, colW - 6, aLen, 1, {
        stage: 'weight',
        label: `α${lbl} = ${num(a[i])} (${who})`,
        index: i,
        weight: true,
      }),
    );
  }
  const rx = RIGHT + 24;
  const sw = W - rx - 14;
  const lab = (y, s) => root.append(text(rx - 6, y + 11, s, 'vec-label', 'end'));
  // the label and its probabilities, top right
  const probs = st.probs.data;
  data.labels.forEach((name, c) => {
    const y = 14 + c * 22;
    const g = node('g', { class: name === data.label ? 'token current' : 'token' }, [
      node('rect', { x: rx, y, width: sw * probs[c], height: 16, class: 'mbar weight' }),
      node('rect', { x: rx, y, width: sw, height: 16, class: 'outline' }),
      text(rx + 4, y + 12, `${name} ${num(probs[c], 3)}`, 'tok', 'start'),
    ]);
    root.append(
      stage(g, {
        stage: 'label',
        label: `p(${name}) = ${num(probs[c])}`,
        value: values([probs[c]]),
        index: c,
      }),
    );
  });
  const yTop = 14 + data.labels.length * 22 + 10;
  if (han) return drawHan(root, data, t, { x, cx, colW, rx, sw, lab, yA, aLen, yTop, L }, lang);
  if (structured) {
    // M = A H: one row per hop, hop t's current, its lines from every word
    const M = st.pooled;
    const r = M.shape[0];
    const cell = Math.min(14, 140 / r);
    lab(yTop + 30, 'M');
    root.append(
      matrix(M.data, r, M.shape[1], rx, yTop + 30, cell, {
        stage: 'pooled',
        cellW: sw / M.shape[1],
        current: t,
        rowLabel: (k) => `m${sub(k + 1)} = Σᵢ α${sub(k + 1)},ᵢ hᵢ = ${vec(row(M, k))}`,
      }),
    );
    for (let i = 0; i < n; i++)
      root.append(
        link(cx(i), yA - a[i] * aLen - 2, rx, yTop + 30 + (t + 0.5) * cell, a[i], {
          stage: 'pooled',
          label: `α${H1},${sub(i + 1)} h${sub(i + 1)}`,
          index: i,
        }),
      );
    root.append(
      stage(
        text(rx + sw / 2, yTop + 50 + r * cell, `P = ‖AAᵀ − I‖²_F = ${num(st.penalty)}`, 'tok'),
        { stage: 'penalty', label: `P = ${num(st.penalty)}`, value: values([st.penalty]) },
      ),
    );
    return { svg: root };
  }
  // r = Σ α_t h_t
  const yR = yTop + 40;
  lab(yR, 'r');
  root.append(
    strip(row(st.pooled, 0), rx, yR, sw, 14, {
      stage: 'pooled',
      label: `r = Σₜ αₜ hₜ = ${vec(row(st.pooled, 0))}`,
    }),
  );
  for (let i = 0; i < n; i++)
    root.append(
      link(cx(i), yA - a[i] * aLen - 2, rx, yR + 7, a[i], {
        stage: 'pooled',
        label: `α${sub(i + 1)} h${sub(i + 1)}`,
        index: i,
      }),
    );
  const best = argmax(a);
  if (best >= 0) root.append(text(cx(best), yA - a[best] * aLen - 5, num(a[best], 2), 'bar-value'));
  return { svg: root };
}

/** HAN's sentence level: the sentence vectors rⱼ over their words, their weights, the document's r. */
function drawHan(root, data, t, g, lang) {
  const st = data.states;
  const sen = st.sentences;
  const { cx, rx, sw, lab, yA, aLen, yTop, L } = g;
  const a = row(st.weights, 0);
  const yVec = 186;
  const ySA = 146;
  const m = data.sentences.length;
  const sScale = maxAbs(st.pooled.data);
  L('rⱼ', yVec + 11);
  L('β', ySA - 12);
  data.sentences.forEach(([s0, s1], j) => {
    const x0 = cx(s0) - 10;
    const w = Math.max(20, cx(s1 - 1) - cx(s0) + 20);
    root.append(
      strip(
        row(st.pooled, j),
        x0,
        yVec,
        w,
        14,
        {
          stage: 'pooled',
          label: `r${sub(j + 1)} = Σₜ αₜ hₜ = ${vec(row(st.pooled, j))}`,
          index: j,
        },
        sScale,
      ),
    );
    for (let i = s0; i < s1; i++)
      if (j === t)
        root.append(
          link(cx(i), yA - a[i] * aLen - 2, x0 + w / 2, yVec + 16, a[i], {
            stage: 'pooled',
            label: `α${sub(i + 1)} h${sub(i + 1)}`,
            index: i,
          }),
        );
    const sa = sen.weights.data[j];
    root.append(
      bar(sa, x0 + w / 2 - 8, ySA, 16, 40, 1, {
        stage: 'sentence-weight',
        label: tr(lang, 'mech.han.sentence', { j: j + 1, w: num(sa) }),
        index: j,
        weight: true,
      }),
    );
    root.append(
      link(x0 + w / 2, ySA - sa * 40 - 2, rx, yTop + 47, sa, {
        stage: 'document',
        label: `β${sub(j + 1)} r${sub(j + 1)}`,
        index: j,
      }),
    );
  });
  lab(yTop + 40, 'r');
  root.append(
    strip(row(sen.pooled, 0), rx, yTop + 40, sw, 14, {
      stage: 'document',
      label: `r = Σⱼ βⱼ h′ⱼ = ${vec(row(sen.pooled, 0))}`,
    }),
  );
  root.append(text(rx + sw / 2, yTop + 74, tr(lang, 'mech.han.count', { m }), 'vec-label'));
  return { svg: root };
}

/** The equation panel at step t, filled for word i (null: the step's own word, or the one weighted most). */
export function classifierEquations(data, t, i, _lang) {
  const st = data.states;
  const han = data.pooling === 'han';
  const structured = data.pooling === 'structured';
  const hop = structured ? t : 0;
  const a = row(st.weights, hop);
  const at =
    i ??
    (data.pooling === 'attention'
      ? t
      : han
        ? data.sentences[t][0] + argmax(a.subarray(...data.sentences[t]))
        : argmax(a));
  const I1 = sub(at + 1);
  const H1 = structured ? `${sub(hop + 1)},` : '';
  const lines = [
    {
      stage: 'hidden',
      sym: 'H = [h_1 … h_n],   h_t = [h→_t; h←_t]',
      num: `h${I1} (${data.tokens[at]}) = ${vec(row(st.hidden, at))}`,
    },
    {
      stage: 'projected',
      sym: structured
        ? 'u_t = tanh(W_{s1} h_t)'
        : han
          ? 'u_t = tanh(W h_t + b)'
          : 'u_t = tanh(h_t)',
      num: `u${I1} = ${vec(row(st.projected, at))}`,
    },
    {
      stage: 'score',
      sym: structured ? 'e_{kt} = (W_{s2} u_t)_k' : 'e_t = u_w^T u_t',
      num: `e${H1}${I1} = ${num(row(st.scores, hop)[at])}`,
    },
    {
      stage: 'weight',
      sym: han
        ? 'α_t = softmax_{t ∈ j}(e)_t'
        : structured
          ? 'A = softmax(W_{s2} tanh(W_{s1} H^T))'
          : 'α_t = softmax(e)_t',
      num: `α${H1}${I1} = ${num(a[at])}`,
    },
  ];
  if (han) {
    const sen = st.sentences;
    lines.push({
      stage: 'pooled',
      sym: 'r_j = Σ_{t ∈ j} α_t h_t',
      num: `r${sub(t + 1)} = ${vec(row(st.pooled, t))}`,
    });
    lines.push({
      stage: 'sentence-weight',
      sym: 'β_j = softmax(u_s^T tanh(W′ h′_j + b′))_j',
      num: `β${sub(t + 1)} = ${num(sen.weights.data[t])}`,
    });
    lines.push({
      stage: 'document',
      sym: 'r = Σ_j β_j h′_j',
      num: `r = ${vec(row(sen.pooled, 0))}`,
    });
  } else if (structured) {
    lines.push({
      stage: 'pooled',
      sym: 'M = A H',
      num: `m${sub(t + 1)} = ${vec(row(st.pooled, t))}`,
    });
    lines.push({ stage: 'penalty', sym: 'P = ‖A A^T − I‖_F²', num: `P = ${num(st.penalty)}` });
  } else {
    lines.push({ stage: 'pooled', sym: 'r = Σₜ αₜ hₜ', num: `r = ${vec(row(st.pooled, 0))}` });
  }
  const c = data.labels.indexOf(data.label);
  lines.push({
    stage: 'label',
    sym: `p(y) = softmax(W_o ${structured ? 'vec(M)' : han ? 'r' : 'tanh(r)'} + b_o)`,
    num: `${data.label}: p = ${num(st.probs.data[Math.max(0, c)])}`,
  });
  return lines;
}

/** What step t says. */
export function classifierSay(data, t, lang) {
  const st = data.states;
  const p = num(st.probs.data[Math.max(0, data.labels.indexOf(data.label))], 3);
  if (data.pooling === 'han')
    return tr(lang, 'mech.classifier.sayHan', {
      j: t + 1,
      w: num(st.sentences.weights.data[t], 3),
      label: data.label,
      p,
    });
  if (data.pooling === 'structured') {
    const a = row(st.weights, t);
    const i = argmax(a);
    return tr(lang, 'mech.classifier.sayHop', {
      k: t + 1,
      word: data.tokens[i],
      w: num(a[i], 3),
      penalty: num(st.penalty, 3),
    });
  }
  const w = num(row(st.weights, 0)[t], 3);
  return tr(lang, 'mech.classifier.say', {
    t: t + 1,
    word: data.tokens[t],
    w,
    label: data.label,
    p,
  });
}
