// web-loss-chart.test.js: the Train view's pure parts in Node: web/shared/loss-chart.js (ticks,
// thinning, the pixel model and the drawing calls, on a recording stand-in for a 2D context) and
// the Train settings of web/shared/app-state.js (form validation, URL parsing and formatting).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  LOG_FLOOR,
  MARGIN,
  chartModel,
  drawLossChart,
  formatTick,
  linearTicks,
  logTicks,
  thinPath,
} from '../../web/shared/loss-chart.js';
import {
  TRAIN_DEFAULTS,
  TRAIN_LIMITS,
  checkTrainSetting,
  formatPageHash,
  parsePageHash,
} from '../../web/shared/app-state.js';

const ORIGIN = 'http://127.0.0.1:8080';
const SIZE = { width: 600, height: 240 };

/** A stand-in for CanvasRenderingContext2D that records every call and assignment. */
function recordingContext() {
  const calls = [];
  const state = {};
  return new Proxy(state, {
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
  });
}

/** The [x, y] points of each stroked path (moveTo/lineTo runs up to a stroke()). */
function strokedPaths(calls) {
  const paths = [];
  let current = [];
  let style = null;
  for (const [name, ...args] of calls) {
    if (name === '=strokeStyle') style = args[0];
    if (name === 'beginPath') current = [];
    if (name === 'moveTo' || name === 'lineTo') current.push(args);
    if (name === 'stroke') paths.push({ style, points: current });
  }
  return paths;
}

const decaying = (n, from = 3, to = 0.003) =>
  Array.from({ length: n }, (_, i) => [
    10 * (i + 1),
    from * (to / from) ** (i / Math.max(n - 1, 1)),
  ]);

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

test('the model maps a falling loss to a falling line inside the plot (linear and log)', () => {
  for (const log of [false, true]) {
    const m = chartModel({ loss: decaying(50) }, { ...SIZE, log });
    const { plot } = m;
    assert.deepEqual(plot, {
      x: MARGIN.left,
      y: MARGIN.top,
      w: 600 - MARGIN.left - MARGIN.right,
      h: 240 - MARGIN.top - MARGIN.bottom,
    });
    assert.equal(m.loss.length, 50);
    for (const [x, y] of m.loss) {
      assert.ok(x >= plot.x - 1e-9 && x <= plot.x + plot.w + 1e-9, `x ${x} inside`);
      assert.ok(y >= plot.y - 1e-9 && y <= plot.y + plot.h + 1e-9, `y ${y} inside (log ${log})`);
    }
    for (let i = 1; i < m.loss.length; i++) {
      assert.ok(m.loss[i][0] > m.loss[i - 1][0], 'steps go right');
      assert.ok(
        m.loss[i][1] > m.loss[i - 1][1],
        'a lower loss is drawn lower (canvas y grows down)',
      );
    }
    assert.equal(m.x.max, 500);
    if (log) {
      assert.equal(m.y.min, 0.001);
      assert.equal(m.y.max, 10);
      // equal ratios, equal distances: 3 → 0.3 spans what 0.3 → 0.03 spans
      const m2 = chartModel(
        {
          loss: [
            [10, 3],
            [20, 0.3],
            [30, 0.03],
          ],
        },
        { ...SIZE, log },
      );
      assert.ok(Math.abs(m2.loss[1][1] - m2.loss[0][1] - (m2.loss[2][1] - m2.loss[1][1])) < 1e-9);
    } else {
      assert.equal(m.y.min, 0);
      assert.ok(m.y.max >= 3 && m.y.max <= 4);
      assert.ok(Math.abs(m.y.ticks[0].py - (plot.y + plot.h)) < 1e-9, '0 sits on the bottom edge');
    }
  }
});

test('bad values are skipped, not drawn as spikes; the exact match uses the right axis', () => {
  const loss = [
    [10, 2],
    [20, NaN],
    [30, Infinity],
    [40, 0],
    [50, 1],
  ];
  const lin = chartModel({ loss }, SIZE);
  assert.equal(lin.loss.length, 3); // 0 is drawable on a linear axis
  assert.equal(lin.lossDropped, 2);
  const log = chartModel({ loss }, { ...SIZE, log: true });
  assert.equal(log.loss.length, 2); // and not on a log axis
  assert.equal(log.lossDropped, 3);
  const tiny = chartModel(
    {
      loss: [
        [10, 1e-9],
        [20, 1],
      ],
    },
    { ...SIZE, log: true },
  );
  assert.equal(tiny.y.min, LOG_FLOOR); // clamped to the floor, still on the plot
  assert.ok(tiny.loss[0][1] <= tiny.plot.y + tiny.plot.h + 1e-9);

  const m = chartModel(
    {
      loss: [[10, 1]],
      exact: [
        [0, 0],
        [100, 0.5],
        [200, 1],
        [300, 1.5],
      ],
    },
    SIZE,
  );
  const { plot } = m;
  assert.deepEqual(
    m.exact.map((p) => p[1]),
    [plot.y + plot.h, plot.y + plot.h / 2, plot.y, plot.y],
  ); // clamped to 100 %
  assert.equal(m.x.max, 300);
  assert.deepEqual(
    m.right.ticks.map((t) => t.label),
    ['0%', '25%', '50%', '75%', '100%'],
  );
});

test('empty series give axes and the empty message; bad input throws with the reason', () => {
  const m = chartModel({ loss: [], exact: [] }, SIZE);
  assert.equal(m.empty, true);
  assert.deepEqual(m.loss, []);
  assert.ok(m.x.ticks.length >= 2 && m.y.ticks.length >= 2);
  const ctx = recordingContext();
  drawLossChart(ctx, {}, { ...SIZE, labels: { empty: 'Press Start' } });
  assert.ok(ctx.calls.some(([name, text]) => name === 'fillText' && text === 'Press Start'));

  assert.throws(() => chartModel({ loss: [] }, { width: 50, height: 240 }), /at least 120 × 80/);
  assert.throws(() => chartModel({ loss: [] }, { width: NaN, height: 240 }), /finite size/);
  assert.throws(() => chartModel({ loss: 'abc' }, SIZE), /loss must be an array/);
  assert.throws(() => chartModel({ loss: [[1, 2, 3]] }, SIZE), /loss\[0\]/);
  assert.throws(() => chartModel({ exact: [[NaN, 0.5]] }, SIZE), /exact\[0\].*finite step/);
});

test('drawLossChart paints the background, the grid, both series and the labels it is given', () => {
  const ctx = recordingContext();
  const colors = {
    background: '#010101',
    text: '#020202',
    grid: '#030303',
    loss: '#040404',
    exact: '#050505',
  };
  const m = drawLossChart(
    ctx,
    {
      loss: decaying(30),
      exact: [
        [100, 0.2],
        [300, 0.9],
      ],
    },
    {
      ...SIZE,
      log: true,
      colors,
      labels: { x: 'Schritt', loss: 'Verlust', exact: 'genau' },
    },
  );
  const { calls } = ctx;
  const first = calls.findIndex(([name]) => name === 'fillRect');
  assert.deepEqual(calls[first], ['fillRect', 0, 0, 600, 240]);
  assert.equal(
    calls
      .slice(0, first)
      .reverse()
      .find(([n]) => n === '=fillStyle')[1],
    '#010101',
  );
  const paths = strokedPaths(calls);
  const lossPath = paths.find((p) => p.style === '#040404');
  assert.deepEqual(lossPath.points, m.loss);
  const exactPath = paths.find((p) => p.style === '#050505');
  assert.deepEqual(exactPath.points, m.exact);
  assert.equal(calls.filter(([n]) => n === 'arc').length, 2, 'a dot per evaluation');
  const texts = calls.filter(([n]) => n === 'fillText').map(([, text]) => text);
  for (const want of ['Schritt', '— Verlust (log)', '● genau', '0.001', '10', '100%'])
    assert.ok(texts.includes(want), `draws "${want}"`);
  // saves and restores balance, so the caller's context is left as it was
  assert.equal(
    calls.filter(([n]) => n === 'save').length,
    calls.filter(([n]) => n === 'restore').length,
  );
});

test('Train settings: the form refuses what it cannot use and says why', () => {
  assert.deepEqual(checkTrainSetting('lr', '0.003'), { ok: true, value: 0.003 });
  assert.deepEqual(checkTrainSetting('lr', '3e-3'), { ok: true, value: 0.003 });
  assert.deepEqual(checkTrainSetting('lr', ' .01 '), { ok: true, value: 0.01 });
  assert.deepEqual(checkTrainSetting('batch', '64'), { ok: true, value: 64 });
  for (const bad of [
    '',
    '0',
    '-0.001',
    '1',
    'abc',
    '0x10',
    '1e-9',
    'Infinity',
    'NaN',
    '0.001; alert(1)',
  ]) {
    const r = checkTrainSetting('lr', bad);
    assert.equal(r.ok, false, `lr '${bad}' refused`);
    assert.equal(r.error, 'train.invalidLr');
    assert.deepEqual([r.min, r.max], [...TRAIN_LIMITS.lr]);
  }
  for (const bad of ['', '0', '257', '32.5', '-4', '1e2', 'many']) {
    const r = checkTrainSetting('batch', bad);
    assert.equal(r.ok, false, `batch '${bad}' refused`);
    assert.equal(r.error, 'train.invalidBatch');
  }
});

test('Train settings in the hash: round-trip, clamped, or dropped', () => {
  const s = parsePageHash('#view=train&lr=0.01&batch=64&lang=zh', ORIGIN);
  assert.equal(s.view, 'train');
  assert.deepEqual(s.train, { lr: 0.01, batch: 64 });
  assert.deepEqual(s.refused, []);
  assert.equal(formatPageHash(s), '#view=train&lr=0.01&batch=64&lang=zh');
  assert.deepEqual(parsePageHash('#view=train', ORIGIN).train, TRAIN_DEFAULTS);
  assert.deepEqual(parsePageHash('#view=train&lr=5&batch=9999', ORIGIN).train, {
    lr: 0.1,
    batch: 256,
  });
  const junk = parsePageHash('#view=train&lr=abc&batch=-1', ORIGIN);
  assert.deepEqual(junk.train, TRAIN_DEFAULTS);
  assert.deepEqual(junk.refused.sort(), ['batch', 'lr']);
  // other views keep their own hashes
  assert.equal(parsePageHash('#view=alignment&lr=0.01', ORIGIN).view, 'alignment');
});
