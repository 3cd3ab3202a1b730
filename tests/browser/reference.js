// reference.js: double-precision attention weights, the independent oracle for the page test.
//
// softmax(Q Kᵀ · scale) over keys, with query i seeing keys j <= i when causal (top-left
// aligned, as torch's is_causal). Plain loops in float64; no attnlab code involved.

/** Float64Array [n * m] of attention weights for q [n * d] and k [m * d]. */
export function attentionWeightsReference(
  q,
  k,
  { n, m, d, causal = false, scale = 1 / Math.sqrt(d) },
) {
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    let max = -Infinity;
    const row = out.subarray(i * m, (i + 1) * m);
    for (let j = 0; j < m; j++) {
      if (causal && j > i) {
        row[j] = -Infinity;
        continue;
      }
      let dot = 0;
      for (let c = 0; c < d; c++) dot += q[i * d + c] * k[j * d + c];
      row[j] = dot * scale;
      if (row[j] > max) max = row[j];
    }
    let sum = 0;
    for (let j = 0; j < m; j++) sum += row[j] = row[j] === -Infinity ? 0 : Math.exp(row[j] - max);
    for (let j = 0; j < m; j++) row[j] /= sum;
  }
  return out;
}

/** The largest |a[i] - b[i]| and where it is: { diff, index }. */
export function worstDifference(a, b) {
  let diff = -1;
  let index = -1;
  for (let i = 0; i < a.length; i++) {
    const di = Math.abs(a[i] - b[i]);
    if (!(di <= diff)) [diff, index] = [di, i]; // NaN counts as worst
  }
  return { diff, index };
}
