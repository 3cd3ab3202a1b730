// web-lab-chart.test.js: the lab's pure parts in Node: web/lab/chart-axes.js (ticks, tick labels,
// thinning), web/lab/lab-chart.js (the pixel model of a
// chart of several series, the drawing calls on a recording stand-in for a 2D context, the loss
// series that keeps every loss but charts a few thousand points, and the A − B difference of two
// attention maps) and web/lab/lab-text.js (every English string has a Chinese one with the same
// placeholders, and the Chinese is Chinese).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  LOG_FLOOR,
  formatTick,
  linearTicks,
  logTicks,
  thinPath,
} from '../../web/lab/chart-axes.js';
import {
  LAB_MARGIN,
  LossSeries,
  attentionDifference,
  drawLabChart,
  labChartModel,
  legendRows,
} from '../../web/lab/lab-chart.js';
import { LAB_EN, LAB_ZH } from '../../web/lab/lab-text.js';
import { PAIRS_PROBLEMS } from '../../web/lab/pairs.js';
import { PRESETS, TASK_NAMES } from '../../web/lab/spec.js';
import { t } from '../../web/shared/i18n.js';

const SIZE = { width: 600, height: 220 };

/** A stand-in for CanvasRenderingContext2D that records every call and assignment. */
function recordingContext() {
  const calls = [];
  return new Proxy(
    {},
    {
      get(target, key) {
        if (key === 'calls') return calls;
        if (key in target) return target[key];
        return (...args) => calls.push([key, ...args]);
      },
      set(target, key, value) {
        target[key] = value;
        calls.push([`=${String(key)}`, value]);
        return true;
      },
    },
  );
}

test('linear ticks are round numbers from lo to the first one at or above hi', () => {
  assert.deepEqual(linearTicks(0, 293, 6), [0, 50, 100, 150, 200, 250, 300]);
  assert.deepEqual(linearTicks(0, 3.4, 5), [0, 1, 2, 3, 4]);
  assert.deepEqual(linearTicks(0, 10, 3), [0, 5, 10]);
  assert.deepEqual(linearTicks(0, 0.07, 4), [0, 0.02, 0.04, 0.06, 0.08]);
  assert.deepEqual(linearTicks(5, 5), [5]);
});

test('log ticks are decades, with 2 and 5 between when there are few', () => {
  assert.deepEqual(logTicks(0.001, 10), [0.001, 0.01, 0.1, 1, 10]);
  assert.deepEqual(logTicks(0.1, 10), [0.1, 0.2, 0.5, 1, 2, 5, 10]);
  assert.deepEqual(logTicks(1e-4, 1e-3), [1e-4, 2e-4, 5e-4, 1e-3]); // exact decades, no 9.999e-5
});

test('tick labels are short', () => {
  assert.equal(formatTick(0), '0');
  assert.equal(formatTick(0.001), '0.001');
  assert.equal(formatTick(1e-5), '1e-5');
  assert.equal(formatTick(2e-4), '2e-4');
  assert.equal(formatTick(250), '250');
  assert.equal(formatTick(12000), '12k');
  assert.equal(formatTick(3.14159), '3.14');
});

test('thinning keeps at most a minimum and a maximum per pixel column, the ends and every spike', () => {
  const points = Array.from({ length: 100000 }, (_, i) => [
    i / 200,
    i === 54321 ? 1000 : Math.sin(i),
  ]);
  const thin = thinPath(points);
  assert.ok(thin.length <= 2 * 501 + 2, `${thin.length} points for 500 columns`);
  assert.equal(thin[0], points[0]);
  assert.equal(thin[thin.length - 1], points[points.length - 1]);
  assert.ok(thin.includes(points[54321]), 'the spike survives');
  for (let i = 1; i < thin.length; i++) assert.ok(thin[i][0] >= thin[i - 1][0], 'x stays in order');
  assert.deepEqual(
    thinPath([
      [0, 1],
      [1, 2],
    ]),
    [
      [0, 1],
      [1, 2],
    ],
  );
  assert.deepEqual(thinPath([]), []);
});

test('a falling loss is a falling line inside the plot, linear and log; log: equal ratios, equal distances', () => {
  const decaying = Array.from({ length: 50 }, (_, i) => [10 * (i + 1), 3 * 0.001 ** (i / 49)]);
  for (const log of [false, true]) {
    const m = labChartModel([{ label: 'A', points: decaying }], { ...SIZE, log });
    const { plot } = m;
    const path = m.series[0].path;
    assert.equal(path.length, 50);
    for (const [x, y] of path) {
      assert.ok(x >= plot.x - 1e-9 && x <= plot.x + plot.w + 1e-9, `x ${x} inside`);
      assert.ok(y >= plot.y - 1e-9 && y <= plot.y + plot.h + 1e-9, `y ${y} inside (log ${log})`);
    }
    for (let i = 1; i < path.length; i++) {
      assert.ok(path[i][0] > path[i - 1][0], 'steps go right');
      assert.ok(path[i][1] > path[i - 1][1], 'a lower loss is drawn lower (canvas y grows down)');
    }
    if (log) {
      assert.equal(m.y.min, 0.001);
      assert.equal(m.y.max, 10);
      const m2 = labChartModel(
        [
          {
            label: 'A',
            points: [
              [10, 3],
              [20, 0.3],
              [30, 0.03],
            ],
          },
        ],
        { ...SIZE, log },
      );
      const [a, b, c] = m2.series[0].path;
      assert.ok(Math.abs(b[1] - a[1] - (c[1] - b[1])) < 1e-9);
    } else {
      assert.equal(m.y.min, 0);
      assert.ok(Math.abs(m.y.ticks[0].py - (plot.y + plot.h)) < 1e-9, '0 sits on the bottom edge');
    }
  }
  // a loss under the log floor is drawn at the floor, still on the plot
  const tiny = labChartModel(
    [
      {
        label: 'A',
        points: [
          [10, 1e-9],
          [20, 1],
        ],
      },
    ],
    { ...SIZE, log: true },
  );
  assert.equal(tiny.y.min, LOG_FLOOR);
  assert.ok(tiny.series[0].path[0][1] <= tiny.plot.y + tiny.plot.h + 1e-9);
});

test('drawLabChart paints the background first and leaves the context as it found it', () => {
  const ctx = recordingContext();
  drawLabChart(
    ctx,
    [
      {
        label: 'A',
        points: [
          [1, 2],
          [2, 1],
        ],
      },
    ],
    { ...SIZE, colors: { background: '#010101' } },
  );
  const { calls } = ctx;
  const first = calls.findIndex(([name]) => name === 'fillRect');
  assert.deepEqual(calls[first], ['fillRect', 0, 0, SIZE.width, SIZE.height]);
  assert.equal(
    calls
      .slice(0, first)
      .reverse()
      .find(([n]) => n === '=fillStyle')[1],
    '#010101',
  );
  assert.equal(
    calls.filter(([n]) => n === 'save').length,
    calls.filter(([n]) => n === 'restore').length,
  );
});

test('labChartModel maps every series into the plot, x from 0 to a round step past the last', () => {
  const a = [
    [1, 3],
    [50, 1.5],
    [100, 0.5],
  ];
  const b = [
    [1, 3.2],
    [50, 2.5],
    [120, 2],
  ];
  const m = labChartModel(
    [
      { label: 'A', points: a },
      { label: 'B', points: b, dash: [6, 3] },
    ],
    SIZE,
  );
  assert.equal(m.x.min, 0);
  assert.ok(m.x.max >= 120, `x max ${m.x.max}`);
  assert.equal(m.y.min, 0);
  assert.ok(m.y.max >= 3.2);
  const { plot } = m;
  for (const s of m.series) {
    for (const [x, y] of s.path) {
      assert.ok(x >= plot.x - 1e-9 && x <= plot.x + plot.w + 1e-9, `x ${x}`);
      assert.ok(y >= plot.y - 1e-9 && y <= plot.y + plot.h + 1e-9, `y ${y}`);
    }
  }
  // the exact pixel of a point: step 100, loss 0.5
  const px = plot.x + (100 / m.x.max) * plot.w;
  const py = plot.y + plot.h * (1 - 0.5 / m.y.max);
  assert.deepEqual(m.series[0].path[2], [px, py]);
  assert.deepEqual(m.series[1].dash, [6, 3]);
  assert.equal(m.empty, false);
  // the legend sits above the plot, one entry per series
  assert.equal(m.legend.length, 2);
  for (const l of m.legend) assert.ok(l.y + 16 <= plot.y + 1e-9);
  assert.equal(plot.x, LAB_MARGIN.left);
});

test('a percent chart is 0–100 % whatever the values; a log chart skips values <= 0 and non-finite ones', () => {
  const p = labChartModel(
    [
      {
        label: 'x',
        points: [
          [0, 0.2],
          [10, 0.9],
        ],
      },
    ],
    { ...SIZE, percent: true },
  );
  assert.deepEqual(
    p.y.ticks.map((t) => t.label),
    ['0%', '25%', '50%', '75%', '100%'],
  );
  assert.equal(p.y.min, 0);
  assert.equal(p.y.max, 1);
  const l = labChartModel(
    [
      {
        label: 'x',
        points: [
          [1, 2],
          [2, 0],
          [3, NaN],
          [4, 0.02],
        ],
      },
    ],
    { ...SIZE, log: true },
  );
  assert.equal(l.series[0].path.length, 2);
  assert.equal(l.series[0].dropped, 2);
  assert.equal(l.y.min, 0.01);
  assert.equal(l.y.max, 10);
});

test('accuracy by length: x from the shortest length (xMin null), integer ticks only', () => {
  const pts = [];
  for (let n = 5; n <= 40; n++) pts.push([n, 1 - n / 50]);
  const m = labChartModel([{ label: 'A', points: pts, dots: true }], {
    ...SIZE,
    percent: true,
    xMin: null,
    xInteger: true,
  });
  assert.equal(m.x.min, 5);
  assert.ok(m.x.max >= 40);
  for (const tick of m.x.ticks) assert.ok(Number.isInteger(tick.value), `tick ${tick.value}`);
  assert.equal(m.series[0].path.length, pts.length, 'dots are never thinned');
  const one = labChartModel([{ label: 'A', points: [[7, 0.5]] }], {
    ...SIZE,
    percent: true,
    xMin: null,
    xInteger: true,
  });
  assert.ok(one.x.max > one.x.min, 'one length still has an axis');
});

test('an empty chart has axes and says so; a tiny canvas is refused', () => {
  const ctx = recordingContext();
  const m = drawLabChart(ctx, [{ label: 'A', points: [] }], { ...SIZE, empty: 'Press Start' });
  assert.equal(m.empty, true);
  assert.ok(ctx.calls.some((c) => c[0] === 'fillText' && c[1] === 'Press Start'));
  assert.throws(() => labChartModel([], { width: 100, height: 50 }), RangeError);
});

test('drawLabChart strokes each series in its colour and dash, and names it in the legend', () => {
  const ctx = recordingContext();
  drawLabChart(
    ctx,
    [
      {
        label: 'Model A loss',
        color: '#123456',
        points: [
          [1, 2],
          [2, 1],
        ],
      },
      {
        label: 'Model B loss',
        color: '#654321',
        dash: [6, 3],
        points: [
          [1, 2.5],
          [2, 2],
        ],
      },
    ],
    SIZE,
  );
  const texts = ctx.calls.filter((c) => c[0] === 'fillText').map((c) => c[1]);
  assert.ok(texts.includes('Model A loss') && texts.includes('Model B loss'));
  const dashes = ctx.calls.filter((c) => c[0] === 'setLineDash').map((c) => c[1].join(','));
  assert.ok(dashes.includes('6,3'));
  const styles = ctx.calls.filter((c) => c[0] === '=strokeStyle').map((c) => c[1]);
  assert.ok(styles.includes('#123456') && styles.includes('#654321'));
});

test('the legend wraps on a narrow chart instead of running off it', () => {
  const labels = ['Model A exact', 'Model A tokens', 'Model B exact', 'Model B tokens'];
  assert.equal(Math.max(...legendRows(labels, 800).map((r) => r.row)), 0);
  const narrow = legendRows(labels, 300);
  assert.ok(Math.max(...narrow.map((r) => r.row)) >= 1);
  for (const r of narrow) assert.ok(r.x < 300);
});

test('LossSeries keeps every loss and charts at most max points, each the mean of its bucket', () => {
  const s = new LossSeries(100);
  const n = 1000;
  for (let i = 1; i <= n; i++) {
    s.add(i, i);
  }
  assert.equal(s.length, n);
  assert.deepEqual(Array.from(s.all.subarray(0, 3)), [1, 2, 3]);
  assert.equal(s.last, n);
  assert.ok(s.points.length <= 100, `${s.points.length} points`);
  // each point is the mean of the steps since the point before (loss = step, so (first + last) / 2)
  let prev = 0;
  for (const [step, mean] of s.points) {
    assert.ok(Math.abs(mean - (prev + 1 + step) / 2) < 1e-9, `point at step ${step}: ${mean}`);
    prev = step;
  }
  assert.ok(n - prev < s.bucket, 'at most one bucket of steps not yet charted');
  s.clear();
  assert.equal(s.length, 0);
  assert.equal(s.last, null);
  assert.deepEqual(s.points, []);
});

test('attentionDifference subtracts cell by cell, over the rows both maps have', () => {
  const a = {
    weights: new Float32Array([0.9, 0.1, 0.2, 0.8, 0.5, 0.5]),
    rows: 3,
    cols: 2,
    rowLabels: ['x', 'y', 'z'],
    colLabels: ['p', 'q'],
  };
  const b = {
    weights: new Float32Array([0.6, 0.4, 0.3, 0.7]),
    rows: 2,
    cols: 2,
    rowLabels: ['x', 'w'],
  };
  const d = attentionDifference(a, b);
  assert.equal(d.rows, 2);
  assert.equal(d.cols, 2);
  assert.equal(d.cut, true);
  const want = [0.9 - 0.6, 0.1 - 0.4, 0.2 - 0.3, 0.8 - 0.7].map(Math.fround);
  d.weights.forEach((v, i) =>
    assert.ok(Math.abs(v - want[i]) < 1e-6, `cell ${i}: ${v} vs ${want[i]}`),
  );
  assert.deepEqual(d.rowLabels, ['x', 'y/w']);
  assert.deepEqual(d.colLabels, ['p', 'q']);
  assert.equal(attentionDifference(a, { ...b, cols: 3, weights: new Float32Array(6) }), null);
});

const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const CJK = /[\u3400-\u4dbf\u4e00-\u9fff]/;

test('lab-text: every English string has a Chinese one, with the same placeholders, in Chinese', () => {
  assert.deepEqual(Object.keys(LAB_ZH).sort(), Object.keys(LAB_EN).sort());
  const bad = [];
  for (const [key, en] of Object.entries(LAB_EN)) {
    const zh = LAB_ZH[key];
    if (JSON.stringify(placeholders(en)) !== JSON.stringify(placeholders(zh)))
      bad.push(`${key}: placeholders ${placeholders(en)} vs ${placeholders(zh)}`);
    if (!CJK.test(zh)) bad.push(`${key}: ${JSON.stringify(zh)} holds no Chinese`);
  }
  assert.deepEqual(bad, []);
  assert.equal(t('zh', 'lab.start'), LAB_ZH['lab.start'], 'added to the tables');
});

test('lab-text: every task, preset and PairsError problem has its string in both languages', () => {
  const missing = [];
  const need = [
    ...TASK_NAMES.flatMap((n) => [`lab.task.${n}`, `lab.task.${n}.about`]),
    ...PRESETS.map((p) => `lab.preset.${p.id}`),
    ...PAIRS_PROBLEMS.map((p) => `lab.pairs.problem.${p}`),
  ];
  for (const key of need)
    for (const lang of ['en', 'zh']) if (t(lang, key) === key) missing.push(`${lang} ${key}`);
  assert.deepEqual(missing, []);
});
