// lesson-cost.test.js: lesson step 5's measurement plan and its verdict in Node, driven by
// synthetic timings (web/views/lesson-cost-stats.js; no clock is read, nothing depends on this
// machine's speed). The page: tests/browser/lesson-cost.test.js.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  COST_KEYS,
  MAX_RELATIVE_SPREAD,
  RUNS,
  costRows,
  costVerdict,
  measureCost,
  quartiles,
} from '../../web/views/lesson-cost-stats.js';
import { chartGeometry } from '../../web/views/lesson-cost.js';

const LENGTHS = [5, 10, 20, 30, 40, 50, 60];
const OUTPUTS = { none: LENGTHS, attn: LENGTHS }; // t = m: reversal

test('quartiles: median and the middle half by linear interpolation', () => {
  assert.deepEqual(quartiles([7, 1, 3, 5, 2, 6, 4]), {
    median: 4,
    q1: 2.5,
    q3: 5.5,
    min: 1,
    max: 7,
  });
  assert.deepEqual(quartiles([4, 1, 3, 2]), { median: 2.5, q1: 1.75, q3: 3.25, min: 1, max: 4 });
  assert.deepEqual(quartiles([9]), { median: 9, q1: 9, q3: 9, min: 9, max: 9 });
  assert.ok(Number.isNaN(quartiles([]).median));
});

/** Run measureCost with a synthetic timer; returns the samples and the log of calls. */
async function measure(timer, o = {}) {
  const log = [];
  let pauses = 0;
  const samples = await measureCost({
    lengths: LENGTHS,
    warmUp: (key) => log.push(`warm ${key}`),
    timeBatch: (key, m) => {
      log.push(`${key} ${m}`);
      return timer(key, m, log.length);
    },
    pause: async () => {
      pauses++;
    },
    ...o,
  });
  return { samples, log, pauses };
}

test('measureCost warms both models up before any timing, then RUNS interleaved rounds', async () => {
  const rounds = [];
  const { samples, log, pauses } = await measure(() => 1, {
    onRound: (done) => rounds.push(done),
  });
  assert.deepEqual(log.slice(0, 2), ['warm none', 'warm attn'], 'the warm-up comes first');
  assert.equal(log.filter((l) => l.startsWith('warm')).length, 2, 'and only once');
  assert.equal(RUNS, 7);
  for (const key of COST_KEYS)
    for (const s of samples[key]) assert.equal(s.length, RUNS, `${key}: ${RUNS} times per length`);
  // a round times every length once before the next round repeats any
  const timed = log.slice(2);
  const perRound = LENGTHS.length * 2;
  for (let r = 0; r < RUNS; r++) {
    const round = timed.slice(r * perRound, (r + 1) * perRound);
    assert.deepEqual(
      [...new Set(round.map((l) => Number(l.split(' ')[1])))],
      LENGTHS,
      `round ${r + 1} covers every length in order`,
    );
    assert.equal(round[0].split(' ')[0], r % 2 ? 'attn' : 'none', 'the first model alternates');
  }
  assert.deepEqual(rounds, [1, 2, 3, 4, 5, 6, 7]);
  assert.equal(pauses, 2 + RUNS * perRound, 'it yields before every warm-up and every batch');
});

test('measureCost stops when asked, between two batches', async () => {
  let n = 0;
  const { samples, log } = await measure(() => 1, { stopped: () => ++n > 4 });
  assert.equal(samples, null);
  assert.equal(log.length, 4, 'two warm-ups, two timings, then nothing more');
});

/** Synthetic µs-per-token timings: ms per run = per(key, m, i) · m / 1000, i the run's index. */
function rowsOf(per) {
  const samples = { none: [], attn: [] };
  for (const key of COST_KEYS)
    samples[key] = LENGTHS.map((m) =>
      Array.from({ length: RUNS }, (_, i) => (per(key, m, i) * m) / 1000),
    );
  return costRows(LENGTHS, samples, OUTPUTS);
}

test('costRows: per-token median and quartiles from the ms per run and the output length', () => {
  // attention: 10 + m/2 µs per token, ±1 µs over the runs (i − 3 ∈ −3…3)
  const rows = rowsOf((key, m, i) => (key === 'attn' ? 10 + m / 2 : 8) + (i - 3) / 3);
  const r60 = rows.at(-1);
  assert.equal(r60.m, 60);
  assert.equal(r60.runs, RUNS);
  assert.ok(Math.abs(r60.attnPer - 40) < 1e-9, String(r60.attnPer));
  assert.ok(Math.abs(r60.attnQ1 - 39.5) < 1e-9, String(r60.attnQ1)); // 1.5th of −1…1 in steps of 1/3
  assert.ok(Math.abs(r60.attnQ3 - 40.5) < 1e-9, String(r60.attnQ3));
  assert.ok(Math.abs(r60.attn - (40 * 60) / 1000) < 1e-12, 'the ms per run median');
  assert.equal(r60.attnT, 60);
});

test('costVerdict: clear when the spreads are small and the longest lies above the shortest', () => {
  const v = costVerdict(rowsOf((key, m, i) => (key === 'attn' ? 10 + m / 2 : 8) + (i - 3) / 3));
  assert.equal(v.verdict, 'clear');
  assert.deepEqual([v.short.m, v.long.m], [5, 60]);
  assert.ok(v.long.q1 > v.short.q3);
  assert.ok(v.worst.ratio <= MAX_RELATIVE_SPREAD);
});

test('costVerdict: noisy when one length spreads over more than half its median', () => {
  // a busy machine: the no-attention model's runs at m = 20 range 2–14 µs around 8
  const v = costVerdict(
    rowsOf((key, m, i) =>
      key === 'attn' ? 10 + m / 2 : key === 'none' && m === 20 ? 8 + 2 * (i - 3) : 8,
    ),
  );
  assert.equal(v.verdict, 'noisy');
  assert.deepEqual([v.worst.key, v.worst.m], ['none', 20]);
  assert.ok(Math.abs(v.worst.ratio - 0.75) < 1e-9, String(v.worst.ratio)); // IQR 6 / median 8
  // the rule's edge: exactly MAX_RELATIVE_SPREAD is still clear, a hair above is not
  const at = (ratio) =>
    costVerdict(rowsOf((key, m, i) => (key === 'attn' ? 10 + m : 8 + ((i - 3) * (8 * ratio)) / 3)))
      .verdict;
  assert.equal(at(MAX_RELATIVE_SPREAD * 0.999), 'clear');
  assert.equal(at(MAX_RELATIVE_SPREAD * 1.01), 'noisy');
});

test("costVerdict: overlap when the attention model's shortest and longest spreads meet", () => {
  // what the user saw: time per token falling with length, each spread modest
  const falling = costVerdict(rowsOf((key, m, i) => (key === 'attn' ? 30 - m / 6 : 8) + (i - 3)));
  assert.equal(falling.verdict, 'overlap');
  assert.ok(falling.long.median < falling.short.median);
  // growing, but by less than the spread
  const small = costVerdict(
    rowsOf((key, m, i) => (key === 'attn' ? 20 + m / 60 + (i - 3) * 2 : 8 + (i - 3) / 3)),
  );
  assert.equal(small.verdict, 'overlap');
  assert.ok(small.long.q1 <= small.short.q3);
});

test('costVerdict: nothing to say before two lengths are timed', () => {
  assert.equal(costVerdict([]).verdict, 'none');
});

test("the chart's whiskers span each length's quartiles, inside the box", () => {
  const rows = rowsOf((key, m, i) => (key === 'attn' ? 10 + m / 2 : 8) + (i - 3));
  const g = chartGeometry(rows, 520, 220);
  for (const key of COST_KEYS) {
    assert.equal(g.bars[key].length, LENGTHS.length);
    for (const b of g.bars[key]) {
      assert.ok(b.y1 > b.y3, 'q1 is drawn below q3');
      assert.ok(b.y3 >= g.pad.top && b.y1 <= 220 - g.pad.bottom, `${key} m=${b.m}`);
    }
  }
  assert.ok(g.yTicks.at(-1).v >= rows.at(-1).attnQ3, 'the y axis reaches the largest quartile');
});
