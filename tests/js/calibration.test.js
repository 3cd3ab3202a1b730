// tests/js/calibration.test.js: the review classifiers' calibration (issue 30,
// scripts/train/calibration.mjs, docs/models.md "Calibration"): each shipped card's accuracy and
// ECE, before (the file with T = 1) and after, are what the shipped file gives now on the same
// sets; the file's temperature is the one the calibration set gives; classify applies it
// (probs = softmax(logits / T), computed here independently from the logits and from the T = 1
// probabilities); unknownShare on known inputs; a bad temperature is refused naming the key; the
// fitting, ECE and withTemperature helpers on inputs whose answers are known in closed form.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { init, createModel, loadModel } from '../../wasm/index.js';
import {
  CALIBRATION_FILE,
  TYPED_TEST_FILE,
  FRESH_FILE,
  FRESH3_FILE,
  examplesFor,
  fixtureReviews,
  naturalReviews,
} from '../../scripts/train/reviews.mjs';
import { realReviews } from '../../scripts/train/reviews-real.mjs';
import {
  calibrationOf,
  eceOf,
  fitTemperature,
  logitsOf,
  nll,
  softmaxT,
  unsureRates,
  withTemperature,
} from '../../scripts/train/calibration.mjs';
import { UNSURE_BELOW } from '../../web/shared/confidence.js';
import { shipped, assertNear } from './shipped-helpers.js';

await init();
const NAMES = ['clf-reviews-attention', 'clf-reviews-han', 'clf-reviews-structured'];
const models = {};
for (const name of NAMES) {
  const s = shipped(name);
  models[name] = {
    ...s,
    model: await loadModel(s.bytes),
    raw: await loadModel(withTemperature(s.bytes, 1)),
  };
}
const SETS = {
  heldout: () =>
    examplesFor(NAMES[0], { seed: 2024, count: 1000, split: 'heldout' }).map((e) => ({
      text: e.src,
      label: e.label,
    })),
  natural: naturalReviews,
  typedTest: () => fixtureReviews(TYPED_TEST_FILE),
  calibration: () => fixtureReviews(CALIBRATION_FILE),
  fresh: () => fixtureReviews(FRESH_FILE),
  fresh3: () => fixtureReviews(FRESH3_FILE),
  realChoosing: () => realReviews('choosing'),
  realTest: () => realReviews('test'),
};

test("each card's accuracy and ECE before and after are what its file gives on each set", () => {
  const sets = Object.fromEntries(Object.entries(SETS).map(([k, f]) => [k, f()]));
  assert.ok(sets.calibration.length >= 120 && sets.typedTest.length >= 60);
  for (const name of NAMES) {
    const { card, model, raw } = models[name];
    const c = card.calibration;
    assert.equal(c.fittedOn.file, CALIBRATION_FILE);
    assert.deepEqual(Object.keys(c.sets), Object.keys(SETS));
    for (const [k, reviews] of Object.entries(sets)) {
      const after = calibrationOf(model, reviews),
        before = calibrationOf(raw, reviews);
      const want = c.sets[k];
      assert.equal(want.count, reviews.length, `${name} ${k}: count`);
      assertNear(name, `${k} accuracy`, after.accuracy, want.accuracy, 1e-5);
      assert.equal(before.accuracy, after.accuracy, `${name} ${k}: T changes no label`);
      assertNear(name, `${k} ECE before`, before.ece, want.eceBefore, 1e-5);
      assertNear(name, `${k} ECE after`, after.ece, want.eceAfter, 1e-5);
    }
    // on the typed sets, where the model was over-confident, the temperature helps
    for (const k of ['typedTest', 'calibration'])
      assert.ok(c.sets[k].eceAfter < c.sets[k].eceBefore, `${name} ${k}: ECE falls`);
    const u = unsureRates(calibrationOf(model, sets.calibration).answers, UNSURE_BELOW);
    assert.deepEqual(
      Object.fromEntries(Object.entries(u).map(([k, v]) => [k, +v.toFixed(5)])),
      c.unsure.calibration,
    );
  }
});

test('"unsure" keeps its rule on the calibration set: under it wrong ≥ 40%, over it ≤ 20% (pooled)', () => {
  // docs/training.md "Unsure": the threshold separates near coin flips from answers mostly right
  let below = 0,
    wrongBelow = 0,
    above = 0,
    wrongAbove = 0;
  for (const name of NAMES) {
    const answers = calibrationOf(models[name].model, SETS.calibration()).answers;
    const u = unsureRates(answers, UNSURE_BELOW);
    below += u.below;
    wrongBelow += Math.round(u.wrongBelow * u.below);
    above += u.above;
    wrongAbove += Math.round(u.wrongAbove * u.above);
  }
  assert.ok(below > 0 && above > 0);
  assert.ok(wrongBelow >= 0.4 * below, `under ${UNSURE_BELOW}: ${wrongBelow} of ${below} wrong`);
  assert.ok(wrongAbove <= 0.2 * above, `over ${UNSURE_BELOW}: ${wrongAbove} of ${above} wrong`);
});

test("the file's temperature is the one the calibration set gives, and is in its config", () => {
  const cal = SETS.calibration();
  for (const name of NAMES) {
    const { card, model, raw } = models[name];
    const T = model.config.temperature;
    assert.equal(T, card.calibration.temperature);
    assert.equal(T, card.architecture.temperature);
    assert.ok(T > 1, `${name}: T ${T} (the models were over-confident)`);
    assert.equal(raw.config.temperature, undefined);
    assert.equal(fitTemperature(logitsOf(raw, cal)), T);
  }
});

test('classify applies the temperature: probs = softmax(logits / T)', () => {
  const texts = ['Meh.', 'The ramen was mid.', 'Worth every penny.', 'Lovely staff, filthy room.'];
  for (const name of NAMES) {
    const { model, raw } = models[name];
    const T = model.config.temperature;
    for (const text of texts) {
      const r = model.classify(text, { states: true });
      const p1 = raw.classify(text).probs;
      const logits = Array.from(r.states.logits.data);
      assert.deepEqual(
        Array.from(raw.classify(text, { states: true }).states.logits.data),
        logits,
        'the logits do not depend on T',
      );
      const fromLogits = softmaxT(logits, T);
      // from the T = 1 probabilities alone: log p1 = logits − logsumexp
      const fromProbs = softmaxT(Array.from(p1, Math.log), T);
      for (let k = 0; k < logits.length; k++) {
        assert.ok(Math.abs(r.probs[k] - fromLogits[k]) < 1e-6, `${name} ${text}: from logits`);
        assert.ok(Math.abs(r.probs[k] - fromProbs[k]) < 1e-5, `${name} ${text}: from probs`);
        assert.ok(Math.abs(r.states.probs.data[k] - r.probs[k]) < 1e-7, 'states agree');
      }
      assert.equal(r.label, raw.classify(text).label);
    }
    // fitted on typed reviews, where the raw models were too sure: T > 1 softens every answer
    assert.ok(T > 1, `${name}: temperature ${T}`);
    for (const text of texts) {
      const [sure, raw1] = [model, raw].map((m) => Math.max(...m.classify(text).probs));
      assert.ok(sure <= raw1, `${name} ${text}: ${sure} calibrated vs ${raw1} raw`);
    }
  }
});

test('unknownShare: unknown words over words, punctuation not counted', () => {
  const { model } = models[NAMES[0]];
  const unk = model.tokenizer.unkId;
  const share = (x) => model.classify(x).unknownShare;
  assert.equal(share('The food was great.'), 0);
  assert.equal(share('The zorblaxian film was great.'), 1 / 5);
  assert.equal(share('The zorblaxian film was great!!!'), 1 / 5, 'punctuation is not a word');
  assert.equal(share('zorblax quuxen frobnicated.'), 1);
  assert.equal(share('The zorblaxian zorblaxian film.'), 2 / 4, 'each occurrence counts');
  assert.equal(share('... \u263a'), 0, 'no word: punctuation and an unknown symbol');
  const ids = model.tokenizer.encode('the film was great');
  assert.equal(model.classify(Int32Array.from([...ids, unk])).unknownShare, 1 / 5);
  assert.equal(model.classify(ids).unknownShare, 0);
  for (const name of NAMES) {
    const r = models[name].model.classify('The ramen was mid.');
    assert.equal(r.unknownShare, r.unknownWords.length / 4, `${name}: ${r.unknownWords}`);
  }
});

test('a bad temperature is refused, naming the key', async () => {
  const base = {
    architecture: 'classifier',
    cell: 'gru',
    embeddingSize: 4,
    hiddenSize: 4,
    numLayers: 1,
    pooling: 'attention',
    labels: ['a', 'b'],
    tokenizer: { type: 'word', vocab: ['<pad>', '<unk>', 'x'], unk: '<unk>' },
  };
  for (const [T, pattern] of [
    [0, /config "temperature": 0 is out of range \(a number > 0 and <= 1000/],
    [-2, /config "temperature": -2 is out of range/],
    [1001, /config "temperature": 1001 is out of range/],
    [NaN, /config "temperature": must be a number, not null/],
    ['2', /config "temperature": must be a number, not a string/],
  ])
    await assert.rejects(createModel({ ...base, temperature: T }), pattern, `temperature ${T}`);
  const m = await createModel({ ...base, temperature: 2.5 }, { seed: 1 });
  const m1 = await createModel(base, { seed: 1 });
  const a = m.classify('x x').probs,
    b = m1.classify('x x').probs;
  const want = softmaxT(Array.from(b, Math.log), 2.5);
  assert.ok(Math.abs(a[0] - want[0]) < 1e-6 && a[0] !== b[0]);
  m.dispose();
  m1.dispose();
});

test('fitTemperature, nll, eceOf and withTemperature on answers known in closed form', () => {
  // 3 right and 1 wrong at margin 2: the best confidence is 3/4, so 2 / T = ln 3
  const items = [
    { logits: [0, 2], labelId: 1 },
    { logits: [2, 0], labelId: 0 },
    { logits: [0, 2], labelId: 1 },
    { logits: [0, 2], labelId: 0 },
  ];
  assert.equal(fitTemperature(items), Number((2 / Math.log(3)).toPrecision(3)));
  assert.ok(nll(items, 2 / Math.log(3)) < nll(items, 1));
  // one bin at 0.95 with 3 of 4 right: |0.75 − 0.95| = 0.2; two bins weighted by their counts
  const a = [0.95, 0.95, 0.95, 0.95].map((c, i) => ({ confidence: c, right: i ? 1 : 0 }));
  assert.ok(Math.abs(eceOf(a) - 0.2) < 1e-12);
  const b = [...a, { confidence: 0.55, right: 1 }, { confidence: 1, right: 1 }];
  assert.ok(Math.abs(eceOf(b) - (4 / 6) * 0.2 - (1 / 6) * 0.45 - (1 / 6) * 0) < 1e-12);
  // withTemperature: the tensors byte for byte, the config with the key, T = 1 without it
  const { bytes } = models[NAMES[0]];
  const n = (x) => Number(new DataView(x.buffer, x.byteOffset, 8).getBigUint64(0, true));
  const one = withTemperature(bytes, 1);
  const back = withTemperature(one, models[NAMES[0]].model.config.temperature);
  assert.deepEqual(Buffer.from(back), Buffer.from(bytes), 'T = 1 then T again: the same file');
  assert.deepEqual(
    Buffer.from(one.subarray(8 + n(one))),
    Buffer.from(bytes.subarray(8 + n(bytes))),
  );
  assert.equal((8 + n(one)) % 8, 0);
  assert.throws(() => withTemperature(bytes, 0), /not a temperature/);
});
