// web-explain.test.js: web/shared/explain.js (what the page says about one attention cell) and the
// diverging colour map of web/shared/draw.js, in Node, against scores the test chooses.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DIVERGING,
  VIRIDIS,
  colorTable,
  symmetricRange,
  valueToColor,
} from '../../web/shared/draw.js';
import { EQUATIONS, explainCell, subtractMaps, windowRange } from '../../web/shared/explain.js';

/** softmax in float64, then rounded to float32 as the model returns it. */
function softmax32(e) {
  const m = Math.max(...e);
  const x = e.map((v) => Math.exp(v - m));
  const s = x.reduce((a, b) => a + b, 0);
  return Float32Array.from(x, (v) => v / s);
}

test('global attention: the scores are recovered up to the constant softmax ignores', () => {
  const e = [2.5, -1, 0.25, 7, 6.5, -30]; // an outlier and a tiny weight
  const row = softmax32(e);
  const max = Math.max(...e);
  for (let j = 0; j < e.length; j++) {
    const info = explainCell({ row, col: j, attention: 'additive' });
    assert.ok(
      Math.abs(info.shiftedScore - (e[j] - max)) < 1e-5,
      `col ${j}: ${info.shiftedScore} vs ${e[j] - max}`,
    );
    assert.ok(Math.abs(info.expShifted / info.sumExp - row[j]) < 1e-7);
    assert.equal(info.weight, row[j]);
    assert.ok(Math.abs(info.rowSum - 1) < 1e-6);
  }
  assert.equal(explainCell({ row, col: 3, attention: 'dot' }).rank, 1);
  assert.equal(explainCell({ row, col: 5, attention: 'dot' }).rank, 6);
});

test('a weight that underflowed to 0 is reported, never NaN', () => {
  const row = Float32Array.from([1, 0, 0]);
  const info = explainCell({ row, col: 1, attention: 'general' });
  assert.equal(info.underflow, true);
  assert.equal(info.shiftedScore, -Infinity);
  assert.equal(info.sumExp, 1);
});

test('local-p: the window, the Gaussian, and the softmax inside the window', () => {
  const S = 9;
  const D = 2;
  const p = 4.3;
  const sigma = D / 2;
  const w = windowRange(p, D, S);
  assert.deepEqual(w, { from: 3, to: 6 });
  assert.deepEqual(windowRange(0.2, 2, 3), { from: 0, to: 2 });
  assert.equal(windowRange(-5, 1, 3), null);
  const e = [0, 0, 0, 1.5, -0.5, 2, 0.25, 0, 0];
  const inWin = e.slice(w.from, w.to + 1);
  const soft = softmax32(inWin);
  const row = new Float32Array(S);
  for (let j = w.from; j <= w.to; j++)
    row[j] = soft[j - w.from] * Math.exp(-((j - p) ** 2) / (2 * sigma * sigma));
  const max = Math.max(...inWin);
  for (let j = 0; j < S; j++) {
    const info = explainCell({ row, col: j, attention: 'local-p', position: p, window: D });
    if (j < w.from || j > w.to) {
      assert.equal(info.inWindow, false, `col ${j}`);
      continue;
    }
    assert.ok(Math.abs(info.softmax - soft[j - w.from]) < 1e-6, `softmax part at ${j}`);
    assert.ok(
      Math.abs(info.shiftedScore - (e[j] - max)) < 1e-5,
      `score at ${j}: ${info.shiftedScore} vs ${e[j] - max}`,
    );
  }
});

test('no attention: said plainly', () => {
  const info = explainCell({ row: new Float32Array(4), col: 2, attention: 'none' });
  assert.equal(info.none, true);
  assert.equal(info.weight, 0);
  for (const k of [
    'additive',
    'dot',
    'general',
    'concat',
    'local-p',
    'local-m',
    'key-query',
    'none',
  ])
    assert.ok(EQUATIONS[k]);
});

test('differences and the diverging map', () => {
  const d = subtractMaps(
    Float32Array.from([0.5, 0.25, 1, 0]),
    Float32Array.from([0.25, 0.5, 0, 0]),
    1,
    2,
  );
  assert.deepEqual(Array.from(d), [0.25, -0.25]);
  assert.equal(DIVERGING.length, 256 * 3);
  assert.equal(colorTable('diverging'), DIVERGING);
  assert.equal(colorTable('viridis'), VIRIDIS);
  assert.equal(colorTable(null), VIRIDIS);
  assert.deepEqual(symmetricRange(Float32Array.from([-0.1, 0.25, NaN])), [-0.25, 0.25]);
  assert.deepEqual(symmetricRange(new Float32Array(3)), [-1, 1]);
  assert.deepEqual(symmetricRange([1], 2, -2), [-2, 2]);
  // Ends: ColorBrewer RdBu reversed (dark blue low, dark red high); the middle near white.
  assert.deepEqual(valueToColor(-1, -1, 1, DIVERGING), [0x05, 0x30, 0x61]);
  assert.deepEqual(valueToColor(1, -1, 1, DIVERGING), [0x67, 0x00, 0x1f]);
  const mid = valueToColor(0, -1, 1, DIVERGING);
  assert.ok(
    mid.every((c) => c > 235),
    `middle ${mid}`,
  );
  // Blue-ish below 0, red-ish above.
  const lo = valueToColor(-0.5, -1, 1, DIVERGING);
  const hi = valueToColor(0.5, -1, 1, DIVERGING);
  assert.ok(lo[2] > lo[0] && hi[0] > hi[2]);
});
