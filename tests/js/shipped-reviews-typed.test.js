// tests/js/shipped-reviews-typed.test.js: the shipped review classifiers on issue 30's typed
// reviews (scripts/train/reviews-typed.mjs): each card's accuracy on the choosing and the test set,
// split by unknown words, is what the shipped model computes; the figures before issue 30 are
// kept in the card; the spelling step is in the shipped configs and a misspelled review is read
// right, its corrections reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { init, loadModel } from '../../wasm/index.js';
import {
  BEFORE_ISSUE_30,
  TYPED_SETS,
  typedAccuracy,
  typedReviews,
} from '../../scripts/train/reviews-typed.mjs';
import { shipped, assertNear } from './shipped-helpers.js';

await init();
const NAMES = ['clf-reviews-attention', 'clf-reviews-han', 'clf-reviews-structured'];
const models = {};
for (const name of NAMES) {
  const s = shipped(name, { maxBytes: 1024 * 1024 });
  models[name] = { ...s, model: await loadModel(s.bytes) };
}

test('the typed sets: 100+ balanced reviews each, no review in two', () => {
  const seen = new Set();
  for (const which of Object.keys(TYPED_SETS)) {
    const set = typedReviews(which);
    assert.ok(set.length >= 100, `${which}: ${set.length} reviews`);
    const pos = set.filter((r) => r.label === 'positive').length;
    assert.equal(pos * 2, set.length, `${which}: as many positive as negative`);
    for (const r of set) {
      assert.ok(!seen.has(r.text.toLowerCase()), r.text);
      seen.add(r.text.toLowerCase());
    }
  }
});

test("each card's typed-set figures are what the shipped model computes", () => {
  for (const name of NAMES) {
    const { card, model } = models[name];
    for (const [key, which] of [
      ['typedChoosing', 'choosing'],
      ['typedTest', 'test'],
      ['typedFresh', 'fresh'],
      ['typedChoosing2', 'choosing2'],
      ['typedFresh3', 'fresh3'],
    ]) {
      const c = card.metrics[key];
      assert.ok(c, `${name}: card.metrics.${key}`);
      assert.equal(c.file, TYPED_SETS[which]);
      const r = typedAccuracy(model, typedReviews(which));
      assert.equal(c.count, r.count);
      assertNear(name, `${key} accuracy`, r.accuracy, c.accuracy, 1e-4);
      assert.deepEqual(c.withUnknown, r.withUnknown, `${name} ${key} with unknown words`);
      assert.deepEqual(c.withoutUnknown, r.withoutUnknown, `${name} ${key} without`);
      if (c.wrong) assert.deepEqual(c.wrong, r.wrong, `${name} ${key} wrong`);
    }
    assert.deepEqual(card.metrics.beforeIssue30, BEFORE_ISSUE_30[name], `${name}: before`);
  }
});

test('the shipped configs correct spelling; a misspelled review is read right', () => {
  for (const name of NAMES) {
    const { model } = models[name];
    assert.ok(model.config.tokenizer.normalize.includes('spelling'), name);
    const r = model.classify(
      'absolutly loved it, the staff were so freindly. definately going back',
    );
    assert.equal(r.label, 'positive', name);
    assert.deepEqual(r.corrected, [
      ['absolutly', 'absolutely'],
      ['freindly', 'friendly'],
      ['definately', 'definitely'],
    ]);
    assert.deepEqual(r.unknownWords, ['absolutly', 'freindly', 'definately']);
    const n = model.classify('horible servise, wouldnt reccomend');
    assert.equal(n.label, 'negative', name);
    assert.deepEqual(n.corrected, [
      ['horible', 'horrible'],
      ['servise', 'service'],
      ['reccomend', 'recommend'],
    ]);
  }
});
