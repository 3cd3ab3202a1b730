// The shipped memory-rnn language models (scripts/train/agreement.mjs, docs/training.md "The
// shipped models"): each reaches its card's perplexity and agreement accuracy on the card's test
// sample (200 held-out sentences, 200 held-out agreement prefixes).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { init, loadModel } from '../../wasm/index.js';
import { generateAgreement, agreementTestSet, agreementAccuracy } from '../../web/data/agreement.js';
import { perplexity, prefixScorer } from '../../scripts/train/agreement.mjs';
import { shipped, assertNear } from './shipped-helpers.js';

await init();
const NAMES = ['lm-agreement-lstmn', 'lm-agreement-sarnn', 'lm-agreement-lstm'];

test('shipped agreement LMs reach their cards\' perplexity and agreement accuracy', async () => {
  for (const name of NAMES) {
    const { card, bytes } = shipped(name);
    const model = await loadModel(bytes);
    const t = card.metrics.testSample;
    const p = perplexity(model, generateAgreement({ seed: t.seed, count: t.count, split: 'heldout' }));
    assert.equal(p.tokens, t.tokens);
    // float32 sums of log-probs in a different build: 0.1% relative
    assertNear(name, 'perplexity', p.perplexity, t.perplexity, 1e-3 * t.perplexity);
    const a = agreementAccuracy(agreementTestSet({ seed: t.seed, count: t.agreement.count }), prefixScorer(model));
    assertNear(name, 'agreement accuracy', a.accuracy, t.agreement.accuracy, 1 / t.agreement.count);
    // the card's held-out figure is better than chance by far (the models learn agreement)
    assert.ok(card.metrics.heldout.agreement.accuracy > 0.9, `${name}: held-out agreement ${card.metrics.heldout.agreement.accuracy}`);
    model.dispose();
  }
});
