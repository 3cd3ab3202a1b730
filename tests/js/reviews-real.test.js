// tests/js/reviews-real.test.js: the real review sentences the review classifiers train on
// (scripts/train/reviews-real.mjs): the fixed split (sizes, no sentence in two parts, both labels
// in every part), the words they add to the vocabulary, the seeded training draw, and each shipped
// card's accuracy on the choosing and test parts, recomputed from the shipped file.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { init, loadModel } from '../../wasm/index.js';
import {
  REAL_SOURCES,
  REAL_WORD_MIN_COUNT,
  realAccuracy,
  realExamples,
  realPartOf,
  realReviews,
  realTable,
  realWords,
} from '../../scripts/train/reviews-real.mjs';
import { REAL_PER_STEP, MODELS, reviewsVocab } from '../../scripts/train/reviews.mjs';
import { REVIEWS_TOKENIZER } from '../../web/data/reviews.js';
import { shipped, assertNear } from './shipped-helpers.js';

const PARTS = ['train', 'choosing', 'test'];

test('the split: 3,000 sentences, fixed sizes, no sentence in two parts, both labels everywhere', () => {
  const sizes = Object.fromEntries(PARTS.map((p) => [p, realReviews(p).length]));
  // UCI's 3 × 1,000 sentences, as npm sentiment 5.0.2 ships them (pinned in package.json)
  assert.deepEqual(sizes, { train: 2382, choosing: 299, test: 319 });
  const where = new Map();
  for (const p of PARTS)
    for (const r of realReviews(p)) {
      const k = r.text.toLowerCase();
      assert.ok(!where.has(k) || where.get(k) === p, `"${r.text}" in ${where.get(k)} and ${p}`);
      where.set(k, p);
      assert.equal(realPartOf(r.text), p);
      assert.ok(REAL_SOURCES.includes(r.source));
      assert.ok(['negative', 'positive'].includes(r.label));
    }
  for (const p of PARTS) {
    const set = realReviews(p);
    const pos = set.filter((r) => r.label === 'positive').length;
    assert.ok(pos > 0.4 * set.length && pos < 0.6 * set.length, `${p}: ${pos} of ${set.length}`);
  }
  assert.throws(() => realReviews('dev'), /part is one of test, choosing, train, not dev/);
});

test("the words the training part adds: new to the generator's vocabulary and seen twice there", () => {
  const words = realWords();
  const base = new Set(REVIEWS_TOKENIZER.vocab);
  assert.ok(words.length > 500, `${words.length} words`);
  assert.equal(new Set(words).size, words.length);
  for (const w of words) assert.ok(!base.has(w), w);
  // known answers: function words the generator never writes, and a domain word of the phones
  for (const w of ['because', 'which', 'headset']) assert.ok(words.includes(w), w);
  // a word of the choosing or test part only is not among them
  const trainText = realReviews('train')
    .map((r) => r.text.toLowerCase())
    .join(' ');
  for (const w of words.slice(-20))
    assert.ok(trainText.split(w).length - 1 >= REAL_WORD_MIN_COUNT, w);
  assert.deepEqual(reviewsVocab(), [...REVIEWS_TOKENIZER.vocab, ...words]);
});

test('the training draw is seeded by the step and comes from the training part only', () => {
  const a = realExamples(17, 8),
    b = realExamples(17, 8);
  assert.deepEqual(a, b);
  assert.notDeepEqual(
    realExamples(18, 8).map((e) => e.text),
    a.map((e) => e.text),
  );
  const train = new Set(realReviews('train').map((r) => r.text));
  for (let s = 0; s < 50; s++)
    for (const e of realExamples(s, 8)) {
      assert.ok(train.has(e.text), e.text);
      assert.equal(e.labelId, e.label === 'positive' ? 1 : 0);
    }
  // a step's batch: REAL_PER_STEP of its 32 are real, every one tokenised
  const batch = MODELS['clf-reviews-han'].batch(3);
  assert.equal(batch.length, 32);
  assert.equal(batch.filter((e) => e.source).length, REAL_PER_STEP);
  for (const e of batch) assert.ok(e.src.length > 0 && e.src.every(Number.isInteger));
});

test("each shipped card's accuracy on the real choosing and test parts is what its file gives", async () => {
  await init();
  for (const name of ['clf-reviews-attention', 'clf-reviews-han', 'clf-reviews-structured']) {
    const s = shipped(name, { maxBytes: 1024 * 1024 });
    const model = await loadModel(s.bytes);
    assert.deepEqual(model.config.tokenizer.vocab, reviewsVocab(), `${name}: the vocabulary`);
    for (const part of ['choosing', 'test']) {
      const got = realAccuracy(model, part);
      const want = s.card.metrics.real[part];
      assert.equal(want.count, got.count);
      assertNear(name, `real ${part}`, got.accuracy, want.accuracy, 1e-4);
      assert.deepEqual(want.bySource, got.bySource, `${name} ${part} by source`);
    }
    model.dispose();
  }
});

test("docs/training.md carries the real sentences' table of the shipped cards", async () => {
  const { readFileSync } = await import('node:fs');
  const cards = Object.fromEntries(
    ['clf-reviews-attention', 'clf-reviews-han', 'clf-reviews-structured'].map((n) => [
      n,
      shipped(n, { maxBytes: 1024 * 1024 }).card,
    ]),
  );
  const table = realTable(cards);
  const docs = readFileSync(new URL('../../docs/training.md', import.meta.url), 'utf8');
  assert.ok(docs.includes(table), `docs/training.md lacks this table:\n${table}`);
});
