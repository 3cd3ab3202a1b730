// scripts/bench/stats.mjs: the few robust statistics the benchmark reports: quantiles with linear
// interpolation, the median, the median absolute deviation, and the median of per-round ratios.
// Nothing here knows about contenders or cases.

/** q-quantile (0..1) of xs with linear interpolation between order statistics; NaN when empty. */
export function quantile(xs, q) {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

export const median = (xs) => quantile(xs, 0.5);

/** Median absolute deviation (unscaled). */
export function mad(xs) {
  const m = median(xs);
  return median(xs.map((x) => Math.abs(x - m)));
}

/** Median over rounds of num[r] / den[r] (rounds where either is missing are skipped). */
export function medianRatio(num, den) {
  const r = [];
  for (let i = 0; i < Math.min(num.length, den.length); i++) {
    if (Number.isFinite(num[i]) && Number.isFinite(den[i]) && den[i] > 0) r.push(num[i] / den[i]);
  }
  return median(r);
}

/** Summary of one contender's per-round samples (milliseconds per call). */
export function summarize(samples) {
  return {
    median: median(samples),
    p10: quantile(samples, 0.1),
    p90: quantile(samples, 0.9),
    mad: mad(samples),
    n: samples.filter(Number.isFinite).length,
  };
}

export const geomean = (xs) => {
  const f = xs.filter((x) => Number.isFinite(x) && x > 0);
  return f.length ? Math.exp(f.reduce((a, x) => a + Math.log(x), 0) / f.length) : NaN;
};
