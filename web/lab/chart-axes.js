// chart-axes.js: the axes of the lab's charts (lab-chart.js): round linear ticks, decade ticks for
// a log axis, short tick labels, the thinning of a long path to a minimum and a maximum per pixel
// column, and the grid, frame and y labels of a plot.
//
//   import { drawGrid, formatTick, linearTicks, logTicks, thinPath } from './chart-axes.js';
//   linearTicks(0, 293, 6);        // [0, 50, 100, 150, 200, 250, 300]
//   logTicks(0.1, 10);             // [0.1, 0.2, 0.5, 1, 2, 5, 10]
//   thinPath(points);              // 100,000 points over 500 columns → at most 1,002
//
// Holds: pure functions on numbers (tests/js/web-lab-chart.test.js checks them in Node) and one
// that paints on anything with the CanvasRenderingContext2D methods it calls. Deliberately holds
// no series, no legend and no layout: lab-chart.js's labChartModel() places the plot and maps the
// values.

/** The smallest value a log axis shows (a loss of exactly 0 is not drawable on it). */
export const LOG_FLOOR = 1e-5;

/** Round-number linear ticks from lo up to the first one ≥ hi (about `count` of them). */
export function linearTicks(lo, hi, count = 5) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / Math.max(count, 1);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks = [];
  let v = Math.ceil(lo / step - 1e-9) * step;
  for (; v < hi - step * 1e-9; v += step) ticks.push(+v.toPrecision(12));
  ticks.push(+v.toPrecision(12));
  return ticks;
}

/** 10^k exactly as written (10 ** -4 is 0.00009999999999999999 in V8). */
export const decade = (k) => Number(`1e${k}`);

/** Decade ticks 10^k covering [lo, hi] (lo > 0), with 2 and 5 between when there are few decades. */
export function logTicks(lo, hi) {
  const a = Math.floor(Math.log10(lo) + 1e-9),
    b = Math.ceil(Math.log10(hi) - 1e-9);
  const ticks = [];
  for (let k = a; k <= b; k++) {
    for (const m of b - a <= 2 ? [1, 2, 5] : [1]) {
      const v = m * decade(k);
      if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) ticks.push(v);
    }
  }
  return ticks;
}

/** A short tick label: 0.001 → '0.001', 1e-5 → '1e-5', 2500 → '2500', 12000 → '12k'. */
export function formatTick(v) {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 10000) return `${+(v / 1000).toPrecision(3)}k`;
  if (a < 1e-3) {
    const [m, e] = v.toExponential().split('e');
    return `${+(+m).toPrecision(2)}e${Number(e)}`;
  }
  return String(+v.toPrecision(3));
}

/**
 * Thin [x, y] pixel points to at most a minimum and a maximum y per integer x column (in the
 * order they occur), keeping the first and last point. Input in increasing x.
 */
export function thinPath(points) {
  if (points.length <= 2) return points.slice();
  const out = [];
  for (let i = 0; i < points.length; ) {
    const col = Math.round(points[i][0]);
    let lo = i,
      hi = i,
      j = i;
    for (; j < points.length && Math.round(points[j][0]) === col; j++) {
      if (points[j][1] < points[lo][1]) lo = j;
      if (points[j][1] > points[hi][1]) hi = j;
    }
    if (lo === hi) out.push(points[lo]);
    else for (const k of lo < hi ? [lo, hi] : [hi, lo]) out.push(points[k]);
    i = j;
  }
  if (out[0] !== points[0]) out.unshift(points[0]);
  if (out[out.length - 1] !== points[points.length - 1]) out.push(points[points.length - 1]);
  return out;
}

/**
 * The plot's grid (a line at every y tick and x tick), its frame and the y tick labels on the
 * left: { plot: { x, y, w, h }, x: { ticks: [{ px }] }, y: { ticks: [{ py, label }] } } as a chart
 * model gives them (lab-chart.js labChartModel). Leaves fillStyle the text colour,
 * textBaseline 'middle' and textAlign 'right'.
 */
export function drawGrid(ctx, m, colors) {
  const { plot } = m;
  ctx.strokeStyle = colors.grid;
  ctx.beginPath();
  for (const t of m.y.ticks) {
    ctx.moveTo(plot.x, Math.round(t.py) + 0.5);
    ctx.lineTo(plot.x + plot.w, Math.round(t.py) + 0.5);
  }
  for (const t of m.x.ticks) {
    ctx.moveTo(Math.round(t.px) + 0.5, plot.y);
    ctx.lineTo(Math.round(t.px) + 0.5, plot.y + plot.h);
  }
  ctx.stroke();
  ctx.strokeStyle = colors.text;
  ctx.strokeRect(plot.x + 0.5, plot.y + 0.5, plot.w, plot.h);
  ctx.fillStyle = colors.text;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  for (const t of m.y.ticks) ctx.fillText(t.label, plot.x - 4, t.py);
}
