// lab-chart.js: the lab's line charts (<attn-lab>, web/elements/attn-lab.js): several series on
// one pair of axes, for runs A and B side by side: the loss per step, held-out exact match and
// token accuracy over the steps, and accuracy by input length.
//
//   import { drawLabChart } from './lab-chart.js';
//   drawLabChart(ctx, [
//     { label: 'A loss', color: '#3b528b', points: [[1, 3.1], [2, 2.9]] },
//     { label: 'B loss', color: '#b8641c', dash: [5, 3], points: [[1, 3.2], [2, 3.0]] },
//   ], { width: 600, height: 220, log: true, xLabel: 'step' });
//
// Holds: pure functions. labChartModel() turns the series into pixel coordinates, ticks, a plot
// rectangle and legend entries (numbers only: tests/js/web-lab-chart.test.js checks them in
// Node); drawLabChart() paints a model on anything with the CanvasRenderingContext2D methods it
// calls. Deliberately holds no DOM lookups, no state and no animation: the element owns the
// canvases, their size and device-pixel ratio, and redraws once a frame. Series are arrays of
// [x, y] pairs in increasing x; a point with a non-finite y (or, on a log axis, y ≤ 0) is skipped,
// never drawn as a spike. Long series are thinned to a minimum and a maximum per pixel column
// (chart-axes.js thinPath), so 100,000 steps cost what 1,000 do. Colour is never the only cue:
// each series may have its own dash pattern and the legend names it.
// Pattern: TensorFlow Playground's linechart.ts; the axes are chart-axes.js's.

import {
  LOG_FLOOR,
  decade,
  drawGrid,
  formatTick,
  linearTicks,
  logTicks,
  thinPath,
} from './chart-axes.js';

/** CSS pixels around the plot: tick labels left and below, the legend above. */
export const LAB_MARGIN = Object.freeze({ left: 46, right: 12, top: 8, bottom: 34 });
/** Height of one legend line (CSS px). */
export const LEGEND_LINE = 16;

const DEFAULT_COLORS = Object.freeze({ background: '#ffffff', text: '#1b1b1f', grid: '#d6d6df' });

/** A label's width in CSS px at 12 px, estimated: 7 px a character, 12 px a wide (CJK) one. */
export function estimateWidth(label) {
  let w = 0;
  for (const ch of label)
    w +=
      /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(
        ch,
      )
        ? 12
        : 7;
  return w;
}

/**
 * Where each legend entry goes ({ row, x }) across `width` CSS px: the 24 px line sample, a gap,
 * the label (measure: its width, by default estimateWidth); the legend wraps rather than
 * overflows on a phone.
 * @param {string[]} labels
 * @param {number} width
 * @param {(label: string) => number} [measure]
 */
export function legendRows(labels, width, measure = estimateWidth) {
  const rows = [];
  let x = 0;
  let row = 0;
  for (const label of labels) {
    const w = 28 + measure(label);
    if (x > 0 && x + w > width) {
      row++;
      x = 0;
    }
    rows.push({ row, x });
    x += w + 10;
  }
  return rows;
}

/**
 * Everything drawLabChart paints, as numbers: { plot, x: { min, max, ticks }, y: { min, max, log,
 * percent, ticks }, series: [{ label, color, dash, dots, path: [[px, py]...], dropped }], legend:
 * [{ label, x, y }], empty }.
 * options: width, height (CSS px, at least 120 × 80); log (a log10 y axis); percent (y fixed 0–1,
 * labelled 0–100 %); xMin (default 0; null: the smallest x seen); xInteger (integer x ticks only);
 * measure (a label's width in CSS px; drawLabChart passes the context's measureText).
 * @param {{ label: string, color?: string, dash?: number[], dots?: boolean, points: ArrayLike<[number, number]> | [number, number][] }[]} series
 * @param {{ width: number, height: number, log?: boolean, percent?: boolean, xMin?: number | null, xInteger?: boolean, measure?: (label: string) => number }} options
 */
export function labChartModel(
  series,
  { width, height, log = false, percent = false, xMin = 0, xInteger = false, measure = undefined },
) {
  if (!Number.isFinite(width) || !Number.isFinite(height) || width < 120 || height < 80) {
    throw new RangeError(
      `lab-chart: the chart needs a finite size of at least 120 × 80 CSS pixels, not ${width} × ${height}`,
    );
  }
  if (!Array.isArray(series)) throw new TypeError('lab-chart: series must be an array');
  const legendAt = legendRows(
    series.map((s) => String(s.label ?? '')),
    width - LAB_MARGIN.left - LAB_MARGIN.right,
    measure,
  );
  const legendHeight = series.length
    ? (Math.max(...legendAt.map((l) => l.row)) + 1) * LEGEND_LINE
    : 0;
  const top = LAB_MARGIN.top + legendHeight;
  const plot = {
    x: LAB_MARGIN.left,
    y: top,
    w: width - LAB_MARGIN.left - LAB_MARGIN.right,
    h: height - top - LAB_MARGIN.bottom,
  };
  if (plot.h < 20) plot.h = 20;

  const usable = (p) => p && Number.isFinite(p[0]) && Number.isFinite(p[1]) && (!log || p[1] > 0);
  const kept = series.map((s) => Array.from(s.points ?? []).filter(usable));

  // x: from xMin (or the data's smallest) to the largest x seen, on round ticks.
  let lo = Infinity,
    hi = -Infinity;
  for (const pts of kept)
    for (const p of pts) {
      lo = Math.min(lo, p[0]);
      hi = Math.max(hi, p[0]);
    }
  const empty = !Number.isFinite(lo);
  let x0 = xMin ?? (empty ? 0 : lo);
  if (xMin !== null && !empty) x0 = Math.min(x0, lo);
  let x1 = empty ? x0 + 10 : Math.max(hi, x0 + (xInteger ? 1 : 10));
  const count = Math.max(2, Math.floor(plot.w / 70));
  let xTicks = linearTicks(x0, x1, count);
  if (xInteger) {
    xTicks = xTicks.filter((v) => Number.isInteger(v));
    if (!xTicks.length || xTicks[0] > x0) xTicks.unshift(x0);
    if (xTicks[xTicks.length - 1] < x1) xTicks.push(Math.ceil(x1));
  }
  x0 = Math.min(x0, xTicks[0]);
  x1 = xTicks[xTicks.length - 1];

  // y: 0–1 for percentages; linear from 0 to a round maximum; or whole decades on a log axis.
  let y0, y1, yTicks;
  if (percent) {
    [y0, y1] = [0, 1];
    yTicks = [0, 0.25, 0.5, 0.75, 1];
  } else if (log) {
    let a = Infinity,
      b = -Infinity;
    for (const pts of kept)
      for (const p of pts) {
        const v = Math.max(p[1], LOG_FLOOR);
        a = Math.min(a, v);
        b = Math.max(b, v);
      }
    if (!Number.isFinite(a)) [a, b] = [0.01, 10];
    y0 = decade(Math.floor(Math.log10(a) + 1e-9));
    y1 = decade(Math.ceil(Math.log10(b) - 1e-9));
    if (y1 <= y0) y1 = y0 * 10;
    yTicks = logTicks(y0, y1);
  } else {
    let b = 0;
    for (const pts of kept) for (const p of pts) b = Math.max(b, p[1]);
    if (!(b > 0)) b = 1;
    yTicks = linearTicks(0, b, Math.max(2, Math.floor(plot.h / 36)));
    y0 = 0;
    y1 = yTicks[yTicks.length - 1];
  }

  const px = (x) => plot.x + ((x - x0) / (x1 - x0 || 1)) * plot.w;
  const py = log
    ? (v) =>
        plot.y +
        plot.h *
          (1 -
            (Math.log10(Math.max(v, LOG_FLOOR)) - Math.log10(y0)) /
              (Math.log10(y1) - Math.log10(y0)))
    : (v) => plot.y + plot.h * (1 - (Math.min(Math.max(v, y0), y1) - y0) / (y1 - y0));
  const yLabel = (v) => (percent ? `${Math.round(v * 100)}%` : formatTick(v));

  return {
    width,
    height,
    plot,
    x: {
      min: x0,
      max: x1,
      ticks: xTicks.map((v) => ({ value: v, px: px(v), label: formatTick(v) })),
    },
    y: {
      min: y0,
      max: y1,
      log,
      percent,
      ticks: yTicks.map((v) => ({ value: v, py: py(v), label: yLabel(v) })),
    },
    series: series.map((s, i) => {
      const path = kept[i].map((p) => [px(p[0]), py(p[1])]);
      return {
        label: String(s.label ?? ''),
        color: s.color ?? DEFAULT_COLORS.text,
        dash: s.dash ?? [],
        dots: Boolean(s.dots),
        path: s.dots ? path : thinPath(path),
        dropped: (s.points?.length ?? 0) - kept[i].length,
      };
    }),
    legend: legendAt.map((l, i) => ({
      label: String(series[i].label ?? ''),
      x: plot.x + l.x,
      y: LAB_MARGIN.top + l.row * LEGEND_LINE,
    })),
    empty,
  };
}

/**
 * Paint the chart on ctx (its transform maps CSS pixels; the caller applies devicePixelRatio).
 * options: labChartModel's, and colors { background, text, grid }, font, xLabel, empty (a text
 * drawn in an empty plot). Returns the model it drew.
 * @param {any} ctx
 * @param {Parameters<typeof labChartModel>[0]} series
 * @param {Parameters<typeof labChartModel>[1] & { colors?: Record<string, string>, font?: string, xLabel?: string, empty?: string }} options
 */
export function drawLabChart(ctx, series, options) {
  ctx.save();
  ctx.font = options.font ?? '12px system-ui, sans-serif';
  const measure =
    typeof ctx.measureText === 'function'
      ? (/** @type {string} */ s) => Number(ctx.measureText(s)?.width) || estimateWidth(s)
      : undefined;
  const m = labChartModel(series, { ...options, measure });
  const colors = { ...DEFAULT_COLORS, ...(options.colors ?? {}) };
  const { plot } = m;
  ctx.fillStyle = colors.background;
  ctx.fillRect(0, 0, m.width, m.height);
  ctx.lineWidth = 1;
  ctx.setLineDash([]);

  drawGrid(ctx, m, colors);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const t of m.x.ticks) ctx.fillText(t.label, t.px, plot.y + plot.h + 3);
  if (options.xLabel) ctx.fillText(options.xLabel, plot.x + plot.w / 2, plot.y + plot.h + 17);

  // The legend: a line sample in the series' colour and dash, then its name.
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  m.series.forEach((s, i) => {
    const { x, y } = m.legend[i];
    ctx.strokeStyle = s.color;
    ctx.lineWidth = 2;
    ctx.setLineDash(s.dash);
    ctx.beginPath();
    ctx.moveTo(x, y + LEGEND_LINE / 2);
    ctx.lineTo(x + 24, y + LEGEND_LINE / 2);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = colors.text;
    ctx.fillText(s.label, x + 28, y + LEGEND_LINE / 2);
  });

  ctx.save();
  ctx.beginPath();
  ctx.rect(plot.x, plot.y, plot.w, plot.h);
  ctx.clip();
  for (const s of m.series) {
    if (!s.path.length) continue;
    ctx.strokeStyle = s.color;
    ctx.fillStyle = s.color;
    ctx.lineWidth = 1.5;
    ctx.lineJoin = 'round';
    ctx.setLineDash(s.dash);
    ctx.beginPath();
    s.path.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    ctx.stroke();
    ctx.setLineDash([]);
    if (s.dots) {
      for (const [x, y] of s.path) {
        ctx.beginPath();
        ctx.arc(x, y, 2.5, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
  }
  ctx.restore();

  if (m.empty && options.empty) {
    ctx.fillStyle = colors.text;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(options.empty, plot.x + plot.w / 2, plot.y + plot.h / 2);
  }
  ctx.restore();
  return m;
}

/**
 * A run's loss curve kept small: every step's loss goes in (add), the chart reads `points`, one
 * mean per bucket of steps; past `max` points, neighbouring buckets merge and the bucket doubles,
 * so a long run costs a few thousand points. `all` keeps every loss (a Float32Array, grown by
 * doubling) for the tests and the run's record.
 */
export class LossSeries {
  /** @type {[number, number][]} [last step of the bucket, mean loss] */
  points = [];
  bucket = 1;
  #counts = /** @type {number[]} */ ([]); // steps in each point
  #sum = 0;
  #n = 0;
  #all = new Float32Array(1024);
  #count = 0;
  #max;

  constructor(max = 2000) {
    this.#max = max;
  }

  /** The loss of step `step` (1-based, in order). */
  add(step, loss) {
    if (this.#count === this.#all.length) {
      const next = new Float32Array(this.#all.length * 2);
      next.set(this.#all);
      this.#all = next;
    }
    this.#all[this.#count++] = loss;
    this.#sum += loss;
    this.#n++;
    if (this.#n === this.bucket) {
      this.points.push([step, this.#sum / this.#n]);
      this.#counts.push(this.#n);
      this.#sum = 0;
      this.#n = 0;
      if (this.points.length > this.#max) {
        // merge neighbours, weighted by the steps each covers (an odd last one may be smaller)
        const merged = /** @type {[number, number][]} */ ([]),
          counts = [];
        const p = this.points,
          c = this.#counts;
        for (let i = 0; i + 1 < p.length; i += 2) {
          merged.push([p[i + 1][0], (p[i][1] * c[i] + p[i + 1][1] * c[i + 1]) / (c[i] + c[i + 1])]);
          counts.push(c[i] + c[i + 1]);
        }
        if (p.length % 2) {
          merged.push(p[p.length - 1]);
          counts.push(c[c.length - 1]);
        }
        this.points = merged;
        this.#counts = counts;
        this.bucket *= 2;
      }
    }
  }

  /** Every loss so far, a copy. */
  get all() {
    return this.#all.slice(0, this.#count);
  }

  get length() {
    return this.#count;
  }

  /** The last loss, or null. */
  get last() {
    return this.#count ? this.#all[this.#count - 1] : null;
  }

  clear() {
    this.points = [];
    this.#counts = [];
    this.bucket = 1;
    this.#sum = 0;
    this.#n = 0;
    this.#count = 0;
  }
}

/**
 * The A − B difference of two attention maps of the same input: the rows both have (their
 * outputs may differ in length; row r is the r-th output token of each), every column.
 * Returns null when the columns differ (another input: nothing to subtract).
 * @param {{ weights: ArrayLike<number>, rows: number, cols: number, rowLabels?: ArrayLike<string>, colLabels?: ArrayLike<string> }} a
 * @param {{ weights: ArrayLike<number>, rows: number, cols: number, rowLabels?: ArrayLike<string> }} b
 */
export function attentionDifference(a, b) {
  if (!a || !b || a.cols !== b.cols) return null;
  const rows = Math.min(a.rows, b.rows);
  const cols = a.cols;
  const weights = new Float32Array(rows * cols);
  for (let i = 0; i < rows * cols; i++) weights[i] = a.weights[i] - b.weights[i];
  const rowLabels = [];
  for (let r = 0; r < rows; r++) {
    const la = String(a.rowLabels?.[r] ?? r + 1);
    const lb = String(b.rowLabels?.[r] ?? r + 1);
    rowLabels.push(la === lb ? la : `${la}/${lb}`);
  }
  const colLabels = a.colLabels ? Array.from(a.colLabels, String) : undefined;
  return { weights, rows, cols, rowLabels, colLabels, cut: a.rows !== b.rows };
}
