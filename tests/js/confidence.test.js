// tests/js/confidence.test.js: issue 30's "may be wrong" warning (web/shared/confidence.js, the
// cards' "confidence" written by scripts/token-thresholds.mjs, docs/translation.md "When the
// page says may be wrong"): the rule; every shipped translator's and dates model's card carries
// the threshold and the shares the shipped model measures now on the same fixed samples; an
// out-of-grammar sentence is warned and an in-grammar one the model translates right is not;
// normal dates are not warned and non-dates are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { init, loadModel } from '../../wasm/index.js';
import { cardThreshold, mayBeWrong, shade } from '../../web/shared/confidence.js';
import { parseEnglish } from '../../web/data/translation.js';
import {
  KEEP,
  NAMES,
  TASKS,
  confidenceSection,
  sets,
  taskOf,
} from '../../scripts/token-thresholds.mjs';

await init();

const models = new URL('../../web/models/', import.meta.url);
const card = (name) => JSON.parse(readFileSync(new URL(`${name}.json`, models), 'utf8'));
const load = (name) =>
  loadModel(new Uint8Array(readFileSync(new URL(`${name}.safetensors`, models))));

/** The verdict the page gives model's output for input. */
function verdict(model, threshold, input) {
  const r = model.run(input);
  const v = mayBeWrong(
    { unknown: model.tokenizer.unknownWords(input), minProb: r.minProb },
    threshold,
  );
  return { ...v, output: r.output, minProb: r.minProb };
}

test('the rule: an unknown token, or the weakest token under the threshold', () => {
  assert.deepEqual(mayBeWrong({ unknown: [], minProb: 0.99 }, 0.5), {
    warn: false,
    unknown: [],
    weak: false,
  });
  assert.deepEqual(mayBeWrong({ unknown: ['station'], minProb: 0.99 }, 0.5), {
    warn: true,
    unknown: ['station'],
    weak: false,
  });
  assert.equal(mayBeWrong({ unknown: [], minProb: 0.42 }, 0.5).weak, true);
  assert.equal(mayBeWrong({ unknown: [], minProb: 0.5 }, 0.5).warn, false, 'at the threshold');
  // no threshold known (a model without a card): only unknown tokens warn
  assert.equal(mayBeWrong({ unknown: [], minProb: 0.01 }, null).warn, false);
  assert.equal(mayBeWrong({ unknown: null, minProb: undefined }, 0.5).warn, false);
  assert.equal(cardThreshold({ confidence: { threshold: 0.6 } }), 0.6);
  for (const bad of [
    null,
    {},
    { confidence: { threshold: 1.5 } },
    { confidence: { threshold: '0.6' } },
  ])
    assert.equal(cardThreshold(bad), null);
  assert.deepEqual(shade(0.25, 0.5), { amount: 0.75, below: true });
  assert.deepEqual(shade(1, 0.5), { amount: 0, below: false });
  assert.equal(shade(0.3, null).below, false);
});

test("each card's threshold and shares are what the shipped model measures now", async () => {
  const cache = {};
  for (const name of NAMES) {
    const c = card(name);
    assert.ok(c.confidence, `${name}: the card has a confidence section`);
    assert.equal(cardThreshold(c), c.confidence.threshold, `${name}: a usable threshold`);
    const task = taskOf(name);
    cache[task] ??= sets(task);
    const model = await load(name);
    try {
      assert.deepEqual(confidenceSection(model, task, cache[task]), c.confidence, name);
    } finally {
      model.dispose();
    }
    // the promise the threshold was chosen to keep: ≥ KEEP of the right choosing outputs
    // unwarned (so at most 1 − KEEP of all choosing outputs of a model that is always right)
    if (name !== 'en-fr-none') assert.ok(c.confidence.warned.heldoutRight <= 0.015, name);
  }
  assert.equal(KEEP, 0.995);
});

test('every translator: out-of-grammar sentences warned, a right in-grammar one not', async () => {
  for (const name of TASKS.translation) {
    const model = await load(name);
    const threshold = cardThreshold(card(name));
    for (const s of ['Where is the station?', "I can't find my keys anywhere."])
      assert.equal(verdict(model, threshold, s).warn, true, `${name}: ${s}`);
    let right = 0;
    for (const s of [
      'the cat sees the red car .',
      'she has walked .',
      'my sister has a small black cat .',
    ]) {
      const v = verdict(model, threshold, s);
      assert.deepEqual(v.unknown, [], `${name}: ${s} has only known words`);
      if (v.output !== parseEnglish(s).tgt) continue; // a wrong output may well be warned
      right++;
      assert.equal(
        v.warn,
        false,
        `${name}: ${s} → ${v.output} (minProb ${v.minProb}, threshold ${threshold})`,
      );
    }
    assert.ok(right >= 1, `${name}: translates at least one of the in-grammar sentences right`);
    model.dispose();
  }
});

test('every dates model: typed dates not warned, non-dates warned', async () => {
  for (const name of TASKS.dates) {
    const model = await load(name);
    const threshold = cardThreshold(card(name));
    for (const s of ['22 Nov 2026', '2026-11-22', 'November 22, 2026', '3/14/2015'])
      assert.equal(verdict(model, threshold, s).warn, false, `${name}: ${s}`);
    for (const s of ['next tuesday', 'call me at 555-1234'])
      assert.equal(verdict(model, threshold, s).warn, true, `${name}: ${s}`);
    model.dispose();
  }
});
