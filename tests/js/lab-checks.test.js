// lab-checks.test.js: the lab's rules about what it measured (issue 30), in Node: the report on
// pasted pairs (web/lab/pairs-report.js, through tasks.js makeTask) on a list with known counts,
// the overfit rule on synthetic evaluation curves and the small held-out warning
// (web/lab/lab-checks.js), and their sentences in English and Chinese (web/lab/lab-notes.js).
// The equal sizes and the presets' times: lab-presets.test.js. The page: tests/browser/lab-honesty.test.js.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MIN_HELDOUT,
  OVERFIT_EVALS,
  OVERFIT_GAP,
  labWarnings,
  overfitting,
} from '../../web/lab/lab-checks.js';
import { durationText, pairsSummary, warningText } from '../../web/lab/lab-notes.js';
import '../../web/lab/lab-text.js';
import { pairsReportParts, selectPairs } from '../../web/lab/pairs-report.js';
import { makeTask } from '../../web/lab/tasks.js';
import { t } from '../../web/shared/i18n.js';

/** A distinct lowercase word of exactly n letters, the i-th of its length. */
const word = (i, n) =>
  Array.from({ length: n }, (_, k) =>
    String.fromCharCode(97 + ((i * 7 + k * 3 + (i >> 2)) % 26)),
  ).join('');

/**
 * 200 pairs: 106 distinct inside 2–12 characters, 7 repeats of some of those, 80 longer than 12,
 * 7 of one character (shorter than 2); shuffled so that the reasons interleave.
 */
function pastedPairs() {
  const inRange = Array.from({ length: 106 }, (_, i) =>
    `${word(i, 2 + (i % 11))}${i}`.slice(0, 12),
  );
  const distinct = [...new Set(inRange)];
  assert.equal(distinct.length, 106, 'the fixture has 106 distinct inputs');
  const pairs = distinct.map((src) => ({ src, tgt: [...src].reverse().join('') }));
  for (let i = 0; i < 7; i++) pairs.push({ ...pairs[i * 11] }); // exact repeats
  for (let i = 0; i < 80; i++) {
    const src = word(i, 13 + (i % 8));
    pairs.push({ src, tgt: src });
  }
  for (let i = 0; i < 7; i++) pairs.push({ src: String.fromCharCode(97 + i), tgt: 'x' });
  // a fixed interleaving
  return pairs
    .map((p, i) => [(i * 37) % 200, p])
    .sort((a, b) => a[0] - b[0])
    .map(([, p]) => p);
}

const SPEC = { name: 'custom', minLength: 2, maxLength: 12, size: 0, level: 'char', seed: 1 };

test('selectPairs: kept, and left out by reason, each pair under its first reason', () => {
  const chars = (s) => Array.from(s).length;
  const given = pastedPairs();
  assert.equal(given.length, 200);
  const { pairs, report } = selectPairs(given, {
    minLength: 2,
    maxLength: 12,
    lengthOf: chars,
    outLength: chars,
  });
  assert.deepEqual(report, {
    given: 200,
    kept: 106,
    shorter: 7,
    longer: 80,
    empty: 0,
    duplicates: 7,
  });
  assert.equal(pairs.length, 106);
  assert.equal(new Set(pairs.map((p) => `${p.src}\t${p.tgt}`)).size, 106, 'no repeat kept');
  // the same input with another output is data, not a duplicate
  const two = selectPairs(
    [
      { src: 'ab', tgt: 'x' },
      { src: 'ab', tgt: 'y' },
      { src: 'ab', tgt: 'x' },
    ],
    { minLength: 1, maxLength: 5, lengthOf: chars, outLength: chars },
  );
  assert.deepEqual([two.pairs.length, two.report.duplicates], [2, 1]);
  assert.deepEqual(
    pairsReportParts({ longer: 80, shorter: 7, duplicates: 7, empty: 0, unused: 3 }),
    [
      ['longer', 80],
      ['shorter', 7],
      ['duplicates', 7],
      ['unused', 3],
    ],
  );
});

test('a custom task reports what it uses: train + held out + set aside = kept', () => {
  const task = makeTask(SPEC, pastedPairs());
  const r = task.report;
  assert.equal(r.given, 200);
  assert.equal(r.kept, 106);
  assert.equal(r.train, task.trainCount);
  assert.equal(r.heldout, task.heldout.length);
  assert.equal(r.train + r.heldout + r.unused, r.kept);
  assert.ok(r.heldout > 0 && r.train > 0);
  // the training-pairs setting sets some aside, and the report counts them
  const capped = makeTask({ ...SPEC, size: 40 }, pastedPairs()).report;
  assert.equal(capped.train, 40);
  assert.equal(capped.unused, 106 - 40 - capped.heldout);
  assert.equal(makeTask({ ...SPEC, name: 'reverse' }).report, null, 'only a custom task has one');
});

test('the pairs line says how many are in use and why the rest is left out, in both languages', () => {
  const pairs = pastedPairs();
  const task = makeTask(SPEC, pairs);
  const { train, heldout } = task.report;
  const experiment = { task: { ...SPEC, data: 'x' } };
  const custom = { pairs, level: 'char', name: '' };
  assert.equal(
    pairsSummary('en', experiment, custom, task),
    `106 of 200 pairs in use (pasted: ${train} to train, ${heldout} held out), tokens: characters. ` +
      '94 left out: 80 longer than 12 tokens, 7 shorter than 2 tokens, 7 duplicates.',
  );
  assert.equal(
    pairsSummary('zh', experiment, custom, task),
    `200 对中有 106 对在用（粘贴的：${train} 对训练，${heldout} 对留出），词元：字符。` +
      '94 对未用：80 对长于 12 个词元，7 对短于 2 个词元，7 对重复。',
  );
  // nothing left out: no second sentence
  const clean = pairs.filter((p) => p.src.length >= 2 && p.src.length <= 12);
  const all = makeTask(SPEC, [...new Map(clean.map((p) => [p.src, p])).values()]);
  assert.match(
    pairsSummary('en', experiment, { ...custom, pairs: clean }, all),
    /^106 of 106 pairs in use \([^)]*\), tokens: characters\.$/,
  );
});

/** Evaluations with held-out and training exact match per step. */
const curve = (points) =>
  points.map(([step, heldout, train]) => ({
    step,
    exactMatch: heldout,
    train: { exactMatch: train },
  }));

test('the overfit rule: a gap over 0.3 at the last two evaluations', () => {
  assert.deepEqual([OVERFIT_GAP, OVERFIT_EVALS], [0.3, 2]);
  // the issue's run: training pairs learned, held-out 0–14 %
  const issue = curve([
    [0, 0, 0],
    [500, 0.05, 0.4],
    [1000, 0.12, 0.9],
    [1500, 0.14, 1],
  ]);
  assert.deepEqual(overfitting(issue), { step: 1500, train: 1, heldout: 0.14 });
  // one evaluation over the gap is not enough
  assert.equal(overfitting(issue.slice(0, 3).concat(curve([[1500, 0.8, 1]]))), null);
  assert.equal(overfitting(curve([[1000, 0.1, 0.9]])), null, 'a single evaluation');
  // a model that generalises: training and held-out rise together
  assert.equal(
    overfitting(
      curve([
        [500, 0.6, 0.7],
        [1000, 0.95, 0.99],
      ]),
    ),
    null,
  );
  // at the edge: a gap of 0.29 is not over it, 0.31 is
  assert.equal(
    overfitting(
      curve([
        [500, 0.5, 0.79],
        [1000, 0.5, 0.79],
      ]),
    ),
    null,
  );
  assert.ok(
    overfitting(
      curve([
        [500, 0.5, 0.81],
        [1000, 0.5, 0.81],
      ]),
    ),
  );
  // an evaluation without a training sample (an older engine) never warns
  assert.equal(
    overfitting([
      { step: 5, exactMatch: 0 },
      { step: 6, exactMatch: 0 },
    ]),
    null,
  );
});

test('the small held-out warning: under 50 pairs', () => {
  assert.equal(MIN_HELDOUT, 50);
  assert.deepEqual(labWarnings({ heldoutCount: 49, runs: [] }), [{ kind: 'small-heldout', n: 49 }]);
  assert.deepEqual(labWarnings({ heldoutCount: 50, runs: [] }), []);
  assert.deepEqual(labWarnings({ heldoutCount: null, runs: [] }), [], 'unknown yet: nothing said');
  const w = labWarnings({
    heldoutCount: 11,
    runs: [
      {
        id: 'a',
        evals: curve([
          [500, 0.1, 0.9],
          [1000, 0.14, 1],
        ]),
      },
      {
        id: 'b',
        evals: curve([
          [500, 0.5, 0.5],
          [1000, 0.6, 0.6],
        ]),
      },
    ],
  });
  assert.deepEqual(
    w.map((x) => [x.kind, x.run ?? null]),
    [
      ['small-heldout', null],
      ['overfit', 'a'],
    ],
  );
  assert.equal(warningText('en', w[0]), t('en', 'lab.warn.smallHeldout', { n: 11 }));
  assert.match(warningText('en', w[0]), /^Only 11 held-out pairs: too few/);
  assert.equal(
    warningText('en', w[1]),
    'Model A overfits: exact match 100% on training pairs, 14% held out. It recalls its pairs, not the task: more pairs or a smaller model.',
  );
  assert.match(warningText('zh', w[1]), /^模型 A 过拟合：训练数据对上完全匹配 100%，留出集上 14%/);
  assert.match(warningText('zh', w[0]), /^留出集只有 11 对/);
});

test('a duration in words', () => {
  assert.equal(durationText('en', 16), '16 s');
  assert.equal(durationText('en', 92), '1 min 32 s');
  assert.equal(durationText('zh', 70), '1 分 10 秒');
});
