// loss-chart.js: a small canvas line chart for a training run: the loss per step (left axis,
// linear or log10) and the held-out exact match (right axis, 0–100 %).
//
//   import { drawLossChart } from './loss-chart.js';
//   const ctx = canvas.getContext('2d');
//   ctx.setTransform(devicePixelRatio, 0, 0, devicePixelRatio, 0, 0);
//   drawLossChart(ctx, { loss: [[10, 3.1], [20, 2.4]], exact: [[20, 0.05]] },
//     { width: 600, height: 240, log: true });
//
// Holds: pure functions. chartModel() turns the series into pixel coordinates, ticks and a
// plot rectangle (numbers only, so Node tests can check them); drawLossChart() paints a model on
// anything with the CanvasRenderingContext2D methods it calls (a real canvas, or a recording
// stub in tests). Deliberately holds no DOM lookups, no state and no animation: the caller owns
// the canvas, its size and device-pixel ratio, and when to redraw (train-view.js: once a frame).
// Series are arrays of [step, value] pairs in increasing step order; points with a non-finite
// value (or, on a log axis, a value ≤ 0) are skipped, never drawn as spikes. Long series are
// thinned to a minimum and a maximum per pixel column, so 100,000 steps cost what 1,000 do and
// no spike disappears. Pattern: TensorFlow Playground's linechart.ts (a pure draw on a canvas).

/** CSS pixels around the plot: room for the tick labels and the axis titles. */
export const MARGIN = Object.freeze({ left: 52, right: 46, top: 24, bottom: 34 });

/** The smallest value a log axis shows (a loss of exactly 0 is not drawable on it). */
export const LOG_FLOOR = 1e-5;

const DEFAULT_COLORS = Object.freeze({
  background: '#ffffff',
  text: '#1b1b1f',
  grid: '#d6d6df',
  loss: '#3b528b',
  exact: '#b8641c',
});

function checkSeries(series, name) {
  if (series === undefined || series === null) return [];
  if (!Array.isArray(series))
    throw new TypeError(`loss-chart: ${name} must be an array of [step, value] pairs`);
  for (let i = 0; i < series.length; i++) {
    const p = series[i];
    if (!p || p.length !== 2 || !Number.isFinite(p[0])) {
      throw new TypeError(
        `loss-chart: ${name}[${i}] must be a [step, value] pair with a finite step`,
      );
    }
  }
  return series;
}

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
const decade = (k) => Number(`1e${k}`);

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
 * Everything drawLossChart paints, as numbers: { plot: { x, y, w, h }, x: { min, max, ticks },
 * y: { min, max, ticks, log }, loss: [[px, py]...], exact: [[px, py]...], lossDropped, empty }.
 * width, height: CSS pixels of the whole chart (at least 120 × 80).
 * @param {any} series
 * @param {{ width?: number, height?: number, log?: boolean }} [size]
 */
export function chartModel(series, { width, height, log = false } = {}) {
  if (!Number.isFinite(width) || !Number.isFinite(height) || width < 120 || height < 80) {
    throw new RangeError(
      `loss-chart: the chart needs a finite size of at least 120 × 80 CSS pixels, not ${width} × ${height}`,
    );
  }
  const loss = checkSeries(series?.loss, 'loss');
  const exact = checkSeries(series?.exact, 'exact');
  const plot = {
    x: MARGIN.left,
    y: MARGIN.top,
    w: width - MARGIN.left - MARGIN.right,
    h: height - MARGIN.top - MARGIN.bottom,
  };

  const usable = (v) => Number.isFinite(v) && (!log || v > 0);
  const lossPts = loss.filter((p) => usable(p[1]));
  const exactPts = exact.filter((p) => Number.isFinite(p[1]));

  // x: from 0 to the last step seen (at least 10, so an empty or one-point chart has an axis).
  let xmax = 10;
  for (const p of lossPts) xmax = Math.max(xmax, p[0]);
  for (const p of exactPts) xmax = Math.max(xmax, p[0]);
  const xTicks = linearTicks(0, xmax, Math.max(2, Math.floor(plot.w / 90)));
  xmax = xTicks[xTicks.length - 1]; // the axis ends on a round step, so it grows in jumps, not every frame

  // y (loss): linear from 0 to a round maximum, or whole decades on a log axis.
  let ymin, ymax, yTicks;
  if (log) {
    let lo = Infinity,
      hi = -Infinity;
    for (const p of lossPts) {
      const v = Math.max(p[1], LOG_FLOOR);
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    if (!Number.isFinite(lo)) [lo, hi] = [0.01, 10];
    ymin = decade(Math.floor(Math.log10(lo) + 1e-9));
    ymax = decade(Math.ceil(Math.log10(hi) - 1e-9));
    if (ymax <= ymin) ymax = ymin * 10;
    yTicks = logTicks(ymin, ymax);
  } else {
    let hi = 0;
    for (const p of lossPts) hi = Math.max(hi, p[1]);
    if (!(hi > 0)) hi = 1;
    yTicks = linearTicks(0, hi, Math.max(2, Math.floor(plot.h / 40)));
    ymin = 0;
    ymax = yTicks[yTicks.length - 1];
  }

  const px = (step) => plot.x + (step / xmax) * plot.w;
  const py = log
    ? (v) =>
        plot.y +
        plot.h *
          (1 -
            (Math.log10(Math.max(v, LOG_FLOOR)) - Math.log10(ymin)) /
              (Math.log10(ymax) - Math.log10(ymin)))
    : (v) => plot.y + plot.h * (1 - (v - ymin) / (ymax - ymin));
  const pe = (v) => plot.y + plot.h * (1 - Math.min(1, Math.max(0, v)));

  return {
    width,
    height,
    plot,
    x: {
      min: 0,
      max: xmax,
      ticks: xTicks.map((v) => ({ value: v, px: px(v), label: formatTick(v) })),
    },
    y: {
      min: ymin,
      max: ymax,
      log,
      ticks: yTicks.map((v) => ({ value: v, py: py(v), label: formatTick(v) })),
    },
    right: {
      ticks: [0, 0.25, 0.5, 0.75, 1].map((v) => ({ value: v, py: pe(v), label: `${v * 100}%` })),
    },
    loss: thinPath(lossPts.map((p) => [px(p[0]), py(p[1])])),
    exact: exactPts.map((p) => [px(p[0]), pe(p[1])]),
    lossDropped: loss.length - lossPts.length,
    empty: lossPts.length === 0 && exactPts.length === 0,
  };
}

/**
 * The plot's grid (a line at every y tick and x tick), its frame and the y tick labels on the
 * left: { plot: { x, y, w, h }, x: { ticks: [{ px }] }, y: { ticks: [{ py, label }] } } as a chart
 * model gives them (this file's and web/lab/lab-chart.js's). Leaves fillStyle the text colour,
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

/**
 * Paint the chart on ctx (whose transform maps CSS pixels; the caller applies devicePixelRatio).
 * options: { width, height, log, colors: { background, text, grid, loss, exact }, font,
 * labels: { x, loss, lossLog, exact, empty } } (lossLog: the loss legend on a log scale, by default
 * `${loss} (log)`). Returns the model it drew (for hit-testing and tests).
 */
export function drawLossChart(ctx, series, options = {}) {
  const m = chartModel(series, options);
  const colors = { ...DEFAULT_COLORS, ...(options.colors ?? {}) };
  const labels = {
    x: 'step',
    loss: 'loss',
    exact: 'held-out exact match',
    empty: '',
    ...(options.labels ?? {}),
  };
  const { plot } = m;

  ctx.save();
  ctx.fillStyle = colors.background;
  ctx.fillRect(0, 0, m.width, m.height);
  ctx.font = options.font ?? '12px system-ui, sans-serif';
  ctx.lineWidth = 1;

  // Grid and ticks: horizontal lines at the loss ticks, vertical at the step ticks.
  drawGrid(ctx, m, colors);
  ctx.textAlign = 'left';
  ctx.fillStyle = colors.exact;
  for (const t of m.right.ticks) ctx.fillText(t.label, plot.x + plot.w + 4, t.py);
  ctx.fillStyle = colors.text;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const t of m.x.ticks) ctx.fillText(t.label, t.px, plot.y + plot.h + 3);
  ctx.fillText(labels.x, plot.x + plot.w / 2, plot.y + plot.h + 17);

  // Axis titles above the plot (so no series runs under them): the loss on the left, the exact
  // match on the right, each in its series' colour.
  ctx.textBaseline = 'top';
  ctx.textAlign = 'left';
  ctx.fillStyle = colors.loss;
  ctx.fillText(
    `— ${m.y.log ? (labels.lossLog ?? `${labels.loss} (log)`) : labels.loss}`,
    plot.x,
    2,
  );
  ctx.textAlign = 'right';
  ctx.fillStyle = colors.exact;
  ctx.fillText(`● ${labels.exact}`, plot.x + plot.w, 2);

  // The series, clipped to the plot.
  ctx.save();
  ctx.beginPath();
  ctx.rect(plot.x, plot.y, plot.w, plot.h);
  ctx.clip();
  if (m.loss.length) {
    ctx.strokeStyle = colors.loss;
    ctx.lineWidth = 1.5;
    ctx.lineJoin = 'round';
    ctx.beginPath();
    m.loss.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    ctx.stroke();
  }
  if (m.exact.length) {
    ctx.strokeStyle = colors.exact;
    ctx.fillStyle = colors.exact;
    ctx.lineWidth = 1;
    ctx.beginPath();
    m.exact.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    ctx.stroke();
    for (const [x, y] of m.exact) {
      ctx.beginPath();
      ctx.arc(x, y, 2.5, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
  ctx.restore();

  if (m.empty && labels.empty) {
    ctx.fillStyle = colors.text;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(labels.empty, plot.x + plot.w / 2, plot.y + plot.h / 2);
  }
  ctx.restore();
  return m;
}
