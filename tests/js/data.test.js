// data.test.js: the playground's seeded inputs (web/data/playground.js), in Node.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { axisLabels, makeQKV, mulberry32 } from '../../web/data/playground.js';

test('mulberry32 is the reference generator (pinned outputs for seed 1)', () => {
  const next = mulberry32(1);
  assert.equal(next(), 0.6270739405881613);
  assert.equal(next(), 0.002735721180215478);
});

test('makeQKV is deterministic, shaped, and pinned (shared links must keep their data)', () => {
  const a = makeQKV({ n: 2, m: 3, d: 2, seed: 1 });
  const b = makeQKV({ n: 2, m: 3, d: 2, seed: 1 });
  assert.deepEqual(a.q.shape, [2, 2]);
  assert.deepEqual(a.k.shape, [3, 2]);
  assert.deepEqual(a.v.shape, [3, 2]);
  assert.equal(a.q.data.length, 4);
  assert.equal(a.k.data.length, 6);
  assert.deepEqual(a, b);
  assert.deepEqual(
    Array.from(a.q.data),
    [0.23955591022968292, 1.0098954439163208, 0.6316431760787964, -1.8278411626815796],
  );
  assert.notDeepEqual(makeQKV({ n: 2, m: 3, d: 2, seed: 2 }).q.data, a.q.data);
});

test('entries have about zero mean and unit variance', () => {
  const { q } = makeQKV({ n: 64, m: 1, d: 256, seed: 7 });
  let sum = 0;
  let sq = 0;
  for (const v of q.data) {
    sum += v;
    sq += v * v;
  }
  const mean = sum / q.data.length;
  assert.ok(Math.abs(mean) < 0.05, `mean ${mean}`);
  assert.ok(
    Math.abs(sq / q.data.length - mean * mean - 1) < 0.05,
    `variance ${sq / q.data.length}`,
  );
});

test('axisLabels names queries and keys', () => {
  assert.deepEqual(axisLabels(2, 3), { rowLabels: ['q0', 'q1'], colLabels: ['k0', 'k1', 'k2'] });
});
