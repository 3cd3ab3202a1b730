// The shipped transformers (scripts/train/transformers.mjs, docs/training.md "The shipped
// models"): the dates models reach their cards' exact match on the cards' 200 held-out dates of
// the named formats and of the variations (targets 99% and 95% on 2,000 held out each, years
// 1000-2999) and read raw text as its normalised form (shipped-helpers.js checkDatesModel);
// tf-induction reaches its card's accuracy on both halves of its 200 held-out sequences, and has
// an induction head.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { init, loadModel } from '../../wasm/index.js';
import * as DATES from '../../web/data/dates.js';
import { generateInduction } from '../../web/data/induction.js';
import { inductionMetrics, headScores } from '../../scripts/train/transformers.mjs';
import { shipped, assertNear, checkDatesModel } from './shipped-helpers.js';

await init();

test("shipped dates transformers reach their cards' exact match", async () => {
  for (const name of ['tf-dates-absolute', 'tf-dates-relative']) {
    const { card, bytes } = shipped(name);
    const model = await loadModel(bytes);
    checkDatesModel(name, card, model, DATES);
    model.dispose();
  }
});

test('tf-induction: the repeated half is predicted, the first is not, by an induction head', async () => {
  const name = 'tf-induction';
  const { card, bytes } = shipped(name);
  const model = await loadModel(bytes);
  const t = card.metrics.testSample;
  const examples = generateInduction({ seed: t.seed, count: t.count, split: 'heldout' });
  const m = inductionMetrics(model, examples);
  assertNear(name, 'repeated-half accuracy', m.repeatedHalf, t.repeatedHalf, 2 / t.repeatedCount);
  assertNear(name, 'first-half accuracy', m.firstHalf, t.firstHalf, 2 / t.firstCount);
  assert.ok(
    m.repeatedHalf > 0.9 && m.firstHalf < 0.1,
    `repeated ${m.repeatedHalf}, first ${m.firstHalf}`,
  );
  // the card's induction head puts most of its weight on the token after the previous occurrence
  const { layer, head } = card.metrics.heldout.inductionHead;
  const h = headScores(model, examples.slice(0, 50)).find(
    (s) => s.layer === layer && s.head === head,
  );
  assert.ok(h.induction > 0.5, `layer ${layer} head ${head}: induction score ${h.induction}`);
  model.dispose();
});
