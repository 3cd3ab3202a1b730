// explain.js: what can honestly be said about one cell of an attention map (pure, no DOM).
//
//   explainCell({ row: weightsRow, col: 3, attention: 'additive' })
//   // { weight, rank, rowSum, shiftedScore, expShifted, sumExp, ... }
//
// attnlab's models return the attention weights α_t (a row over the input positions), not the
// scores e_t. Softmax is invariant to adding a constant to every score, so from the weights we can
// recover the scores exactly up to that constant, and we show them relative to the row's largest:
//
//   e_tj − max_k e_tk = ln α_tj − ln max_k α_tk                 (global attention)
//   α_tj = exp(e_tj − max) / Σ_k exp(e_tk − max)                (the softmax, with the real numbers)
//
// Local attention (Luong et al. 2015, eq. 9–10): α_tj = softmax(e_t)_j · g_tj inside the window
// p_t − D ≤ j ≤ p_t + D, g_tj = exp(−(j − p_t)² / (2σ²)), σ = D/2, not renormalised; so the
// softmax part is α_tj / g_tj and the scores are recovered from it. Deliberately does not try
// to recompute raw scores: those need the decoder's hidden state, which the API does not expose.

/** The equations shown beside the numbers, by mechanism (q_t: the decoder's query). */
export const EQUATIONS = Object.freeze({
  additive: 'eₜⱼ = vᵀ tanh(W_q qₜ + W_k h̄ⱼ + b)',
  dot: 'eₜⱼ = qₜᵀ h̄ⱼ',
  general: 'eₜⱼ = qₜᵀ W_a h̄ⱼ',
  concat: 'eₜⱼ = v_aᵀ tanh(W_a [qₜ; h̄ⱼ])',
  'local-m': 'pₜ = t;  αₜⱼ = softmaxⱼ(eₜ) · exp(−(j − pₜ)² / 2σ²),  σ = D/2',
  'local-p': 'pₜ = S · σ(v_pᵀ tanh(W_p qₜ));  αₜⱼ = softmaxⱼ(eₜ) · exp(−(j − pₜ)² / 2σ²),  σ = D/2',
  'key-query': 'eₜⱼ = (W_K h̄ⱼ) · (W_Q qₜ) / √d_k',
  none: '(no attention)',
});

export const SOFTMAX_EQUATION = 'αₜⱼ = exp(eₜⱼ) / Σₖ exp(eₜₖ)';

/** The local score equation for local-m / local-p (their score is dot, general or concat). */
export function localScoreEquation(score = 'general') {
  return EQUATIONS[score] ?? EQUATIONS.general;
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
