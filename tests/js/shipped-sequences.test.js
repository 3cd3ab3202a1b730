// The shipped reversal models (scripts/train/sequences.mjs, docs/training.md "The shipped
// models"): each reaches its card's per-token accuracy and exact match on the card's test sample
// (56 held-out strings, one of every length 5..60); the card's held-out curve meets the targets
// (attention ≥ 95% at every length; the model without attention falls with length); the two
// models have parameter counts within 2%; forgetting.json / .csv / .svg agree with the cards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { init, loadModel } from '../../wasm/index.js';
import { lengthStratified } from '../../web/data/sequences.js';
import { score } from '../../scripts/train/sequences.mjs';
import { shipped, assertNear, MODELS_DIR } from './shipped-helpers.js';

await init();
const NAMES = ['seq-reverse-attention', 'seq-reverse-none'];

test("shipped reversal models reach their cards' accuracy on the test sample", async () => {
  for (const name of NAMES) {
    const { card, bytes } = shipped(name);
    const model = await loadModel(bytes);
    const { seed, perLength, tokenAccuracy, exactMatch, count } = card.metrics.testSample;
    const lens = card.data.lengths;
    const r = score(model, lengthStratified({ seed, perLength, minLen: lens[0], maxLen: lens[1] }));
    assert.equal(r.count, count);
    // the decoder is greedy: one flipped symbol can change the rest of a string, so allow a
    // string's worth of tokens (60 of the sample's 1,820) and one string of exact match
    assertNear(name, 'per-token accuracy', r.tokenAccuracy, tokenAccuracy, 0.035);
    assertNear(name, 'exact match', r.exactMatch, exactMatch, 1 / count);
    model.dispose();
  }
});

test('the forgetting curve: attention holds at every length, no attention falls', () => {
  const [att, none] = NAMES.map((n) => shipped(n).card);
  const pa = att.architecture.parameters,
    pn = none.architecture.parameters;
  assert.ok(Math.abs(pa - pn) / pa <= 0.02, `parameters ${pa} vs ${pn}: within 2%`);
  for (const r of att.metrics.heldout.byLength)
    assert.ok(r.tokenAccuracy >= 0.95, `attention at length ${r.length}: ${r.tokenAccuracy}`);
  const curve = none.metrics.heldout.byLength;
  const mean = (rows) => rows.reduce((a, r) => a + r.tokenAccuracy, 0) / rows.length;
  const short = mean(curve.filter((r) => r.length <= 10)),
    long = mean(curve.filter((r) => r.length >= 50));
  assert.ok(short > long + 0.3, `no attention: lengths 5-10 ${short} vs 50-60 ${long}`);
  const data = JSON.parse(readFileSync(new URL('forgetting.json', MODELS_DIR), 'utf8'));
  assert.deepEqual(
    data.lengths,
    curve.map((r) => r.length),
  );
  for (const [i, card] of [att, none].entries()) {
    assert.equal(data.models[i].name, card.name);
    assert.deepEqual(
      data.models[i].tokenAccuracy,
      card.metrics.heldout.byLength.map((r) => r.tokenAccuracy),
    );
  }
  const csv = readFileSync(new URL('forgetting.csv', MODELS_DIR), 'utf8').trim().split('\n');
  assert.equal(csv.length, data.lengths.length + 1);
  const svg = readFileSync(new URL('forgetting.svg', MODELS_DIR), 'utf8');
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.equal((svg.match(/<polyline /g) ?? []).length, 2, 'two lines');
  for (const s of [
    'per-token accuracy',
    'input length',
    'seq-reverse-attention',
    'seq-reverse-none',
  ])
    assert.ok(svg.includes(s), `the SVG shows '${s}'`);
});
