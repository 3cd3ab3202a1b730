// explain.js: what can honestly be said about one cell of an attention map (pure, no DOM).
//
//   explainCell({ row: weightsRow, col: 3, attention: 'additive' })
//   // { weight, rank, rowSum, shiftedScore, expShifted, sumExp, ... }
//
// attnlab's models return the attention weights α_t (a row over the input positions i), not the
// scores e_t. Softmax is invariant to adding a constant to every score, so from the weights we can
// recover the scores exactly up to that constant, and we show them relative to the row's largest:
//
//   e_ti − max_j e_tj = ln α_ti − ln max_j α_tj                 (global attention)
//   α_ti = exp(e_ti − max) / Σ_j exp(e_tj − max)                (the softmax, with the real numbers)
//
// Local attention (Luong et al. 2015, eq. 9–10): α_ti = softmax(e_t)_i · g_ti inside the window
// p_t − D ≤ i ≤ p_t + D, g_ti = exp(−(i − p_t)² / (2σ²)), σ = D/2, not renormalised; so the
// softmax part is α_ti / g_ti and the scores are recovered from it. Deliberately does not try
// to recompute raw scores: those need the decoder's state (the mechanism view reads them from the
// states API).
//
// The equations are the lesson's (web/shared/lesson-steps.js; glossary.js names every symbol), in
// notation.js's markup: source positions i, the query the model's style reads, s_{t−1}
// (Bahdanau's placement) or s_t (Luong's); tests/js/notation.test.js keeps the two in step.

/** The state the scores read: s_{t−1} (Bahdanau's placement) or s_t (Luong's). */
export function queryOf(style) {
  return style === 'luong' ? 's_t' : 's_{t−1}';
}

/** The score equations by mechanism, '{q}' standing for queryOf(style); local-m / local-p: p_t. */
export const EQUATIONS = Object.freeze({
  additive: 'e_{ti} = v^T tanh(W {q} + U h_i + b)',
  dot: 'e_{ti} = {q}^T h_i',
  general: 'e_{ti} = {q}^T W_a h_i',
  concat: 'e_{ti} = v_a^T tanh(W_a [{q}; h_i])',
  'key-query': 'k_i = W_K h_i,   q_t = W_Q {q},   e_{ti} = k_i^T q_t',
  'local-m': 'p_t = t',
  'local-p': 'p_t = m · sigmoid(v_p^T tanh(W_p {q}))',
  none: 's_0 = h_m',
});

export const SOFTMAX_EQUATION = 'α_{ti} = exp(e_{ti}) / Σ_j exp(e_{tj})';
export const LOCAL_EQUATION =
  'α_{ti} = softmax(e_t)_i · exp(−(i − p_t)² / 2σ²),   σ = D/2,   i ∈ [p_t − D, p_t + D]';
export const CONTEXT_EQUATION = 'c_t = Σ_i α_{ti} h_i';

/** The local score equation for local-m / local-p (their score is dot, general or concat). */
export function localScoreEquation(score = 'general') {
  return EQUATIONS[score] ?? EQUATIONS.general;
}

/**
 * The equations the panel shows for a seq2seq config, in the order of the computation and in
 * notation.js's markup: the score (local: the position, then its score), the weight (softmax, or
 * local's window and Gaussian), the context; for 'none' the hand-over s_0 = h_m alone. A scaled
 * key-query score divides by √d_k.
 * @param {{ attention: string, style?: string, score?: string, scaled?: boolean }} config
 * @returns {string[]}
 */
export function panelEquations({ attention, style, score, scaled }) {
  const q = queryOf(style);
  const fill = (e) => e.replaceAll('{q}', q);
  if (attention === 'none' || !(attention in EQUATIONS)) return [EQUATIONS.none];
  if (attention === 'local-m' || attention === 'local-p')
    return [
      fill(EQUATIONS[attention]),
      fill(localScoreEquation(score)),
      LOCAL_EQUATION,
      CONTEXT_EQUATION,
    ];
  let e = fill(EQUATIONS[attention]);
  if (attention === 'key-query' && scaled) e += ' / √d_k';
  return [e, SOFTMAX_EQUATION, CONTEXT_EQUATION];
}

/** Integers j in [0, S) with p − D ≤ j ≤ p + D: { from, to } inclusive, or null when empty. */
export function windowRange(p, D, S) {
  const from = Math.max(0, Math.ceil(p - D));
  const to = Math.min(S - 1, Math.floor(p + D));
  return from <= to ? { from, to } : null;
}

/**
 * Explain cell (t, col) of an attention map.
 * @param {{ row: ArrayLike<number>, col: number, attention: string,
 *           position?: number, window?: number }} args row: the weights α_t [S]; position: p_t
 *           and window: D, for local-m / local-p.
 * @returns {{ weight, rank, rowSum, size, local, inWindow, gauss, softmax, shiftedScore,
 *             expShifted, sumExp, underflow, none }}
 */
export function explainCell({ row, col, attention, position, window: D }) {
  const S = row.length;
  const weight = row[col];
  let rowSum = 0;
  let rank = 1;
  for (let j = 0; j < S; j++) {
    rowSum += row[j];
    if (row[j] > weight) rank++;
  }
  const out = {
    weight,
    rank,
    rowSum,
    size: S,
    local: false,
    none: attention === 'none',
    inWindow: true,
    gauss: 1,
    softmax: weight,
    shiftedScore: NaN,
    expShifted: NaN,
    sumExp: NaN,
    underflow: false,
  };
  if (out.none) return out;
  const isLocal =
    (attention === 'local-p' || attention === 'local-m') && Number.isFinite(position) && D > 0;
  const sigma = isLocal ? D / 2 : 1;
  const g = (j) => (isLocal ? Math.exp(-((j - position) ** 2) / (2 * sigma * sigma)) : 1);
  let from = 0;
  let to = S - 1;
  if (isLocal) {
    out.local = true;
    const w = windowRange(position, D, S);
    if (!w || col < w.from || col > w.to) {
      out.inWindow = false;
      out.gauss = 0;
      out.softmax = 0;
      return out;
    }
    ({ from, to } = w);
    out.gauss = g(col);
  }
  // The softmax part of every weight in the window, and its largest.
  let maxSoft = 0;
  for (let j = from; j <= to; j++) {
    const s = row[j] / g(j);
    if (s > maxSoft) maxSoft = s;
  }
  const soft = weight / out.gauss;
  out.softmax = soft;
  if (!(soft > 0) || !(maxSoft > 0)) {
    out.underflow = true;
    out.shiftedScore = -Infinity;
    out.expShifted = 0;
    out.sumExp = maxSoft > 0 ? 1 / maxSoft : NaN;
    return out;
  }
  out.shiftedScore = Math.log(soft) - Math.log(maxSoft); // e_tj − max_k e_tk
  out.expShifted = soft / maxSoft; //                        exp(e_tj − max)
  out.sumExp = 1 / maxSoft; //                               Σ_k exp(e_tk − max), as softmax(max) = 1/Σ
  return out;
}

/** Stable rank text: '1 of 7'. */
export function rankText(rank, size) {
  return `${rank} / ${size}`;
}

/** a − b, element-wise, over the first rows × cols of two row-major maps of width cols. */
export function subtractMaps(a, b, rows, cols) {
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < rows * cols; i++) out[i] = a[i] - b[i];
  return out;
}
