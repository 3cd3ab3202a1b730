// The shipped review classifiers (scripts/train/reviews.mjs, docs/training.md "The shipped
// models"): each reaches its card's accuracy and attention shares on the card's test sample (200
// held-out reviews), and the card's held-out accuracy meets the target (97%).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { init, loadModel } from '../../wasm/index.js';
import { attentionShares, examplesFor } from '../../scripts/train/reviews.mjs';
import { shipped, assertNear } from './shipped-helpers.js';

await init();
const NAMES = ['clf-reviews-attention', 'clf-reviews-han', 'clf-reviews-structured'];
const SHARES = ['decisiveShare', 'decisiveShareBestHop', 'decisiveWordShare', 'decisiveSentenceShare'];

test('shipped review classifiers reach their cards\' accuracy and attention shares', async () => {
  for (const name of NAMES) {
    const { card, bytes } = shipped(name);
    assert.ok(card.metrics.heldout.accuracy >= 0.97, `${name}: held-out accuracy ${card.metrics.heldout.accuracy} (target 0.97)`);
    const model = await loadModel(bytes);
    const t = card.metrics.testSample;
    const r = attentionShares(model, examplesFor(name, { seed: t.seed, count: t.count, split: 'heldout' }));
    assertNear(name, 'accuracy', r.accuracy, t.accuracy, 1 / t.count);
    let seen = 0;
    for (const k of SHARES) {
      if (t[k] === undefined) continue;
      seen++;
      assertNear(name, k, r[k], t[k], 1e-3);
    }
    assert.ok(seen >= 1, `${name}: the card reports where the attention goes`);
    model.dispose();
  }
});
