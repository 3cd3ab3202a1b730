// data-reviews.test.js: the review-sentiment data (web/data/reviews.js), in Node.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  REVIEW_LABELS, REVIEW_LEXICON, REVIEW_WORDS, REVIEWS_SEPARATOR, REVIEWS_TOKENIZER, generateReviews, reviewLabel,
} from '../../web/data/reviews.js';
import { isHeldOutKey } from '../../web/data/common.js';

const SENTIMENT = new Set([...REVIEW_LEXICON.positive, ...REVIEW_LEXICON.negative]);

test('deterministic and pinned', () => {
  const a = generateReviews({ seed: 1, count: 100 });
  assert.deepEqual(a, generateReviews({ seed: 1, count: 100 }));
  assert.notDeepEqual(generateReviews({ seed: 2, count: 100 }), a);
  assert.deepEqual(a.slice(0, 3).map((r) => [r.text, r.label, r.decisive]), PINNED);
  const d = generateReviews({ seed: 1, count: 20, mode: 'document' });
  assert.deepEqual(d, generateReviews({ seed: 1, count: 20, mode: 'document' }));
});
const PINNED = [
  ['i found the dialogue terrible and it was a quite weak movie in my opinion .', 'negative', [4, 10]],
  ['i found the script not good .', 'negative', [4, 5]],
  ['i found the pacing not clever but the acting is not very messy .', 'positive', [10, 12]],
];

test('negation and contrast decide, as documented', () => {
  const xs = generateReviews({ seed: 5, count: 5000 });
  let negated = 0, contrast = 0, and = 0;
  for (const r of xs) {
    assert.equal(r.text, r.words.join(' '));
    assert.equal(r.src, r.text, 'a classifier training example { src, label } as it is');
    assert.equal(r.words.at(-1), REVIEWS_SEPARATOR);
    assert.equal(r.labelId, REVIEW_LABELS.indexOf(r.label));
    assert.equal(r.sentences.length, 1);
    assert.deepEqual([r.sentences[0].start, r.sentences[0].end], [0, r.words.length]);
    assert.equal(r.decisiveSentence, 0);
    // decisive: sentiment adjectives, each with its "not" when negated; polarity as the label says
    const adjs = r.decisive.filter((i) => SENTIMENT.has(r.words[i]));
    assert.ok(adjs.length === 1 || adjs.length === 2, r.text);
    for (const i of adjs) {
      const pos = REVIEW_LEXICON.positive.includes(r.words[i]);
      const neg = r.decisive.some((j) => r.words[j] === 'not' && j < i && !r.words.slice(j, i).some((w) => SENTIMENT.has(w)));
      assert.equal(pos !== neg ? 'positive' : 'negative', r.label, r.text);
      if (neg) negated++;
    }
    const but = r.words.indexOf('but');
    if (but >= 0) {
      contrast++;
      assert.ok(r.decisive.every((i) => i > but), `after "but": ${r.text}`);
      assert.ok(r.distractors.length >= 1 && r.distractors.every((i) => i < but), r.text);
    } else assert.deepEqual(r.distractors, []);
    if (r.words.includes('and')) and++;
    // every sentiment word and "not" is either decisive or a distractor
    const cues = r.words.flatMap((w, i) => (SENTIMENT.has(w) || w === 'not' ? [i] : []));
    assert.deepEqual([...r.decisive, ...r.distractors].sort((p, q) => p - q), cues, r.text);
  }
  assert.ok(negated > 1000 && contrast > 1500 && and > 700, `${negated} negated, ${contrast} but, ${and} and`);
  const pos = xs.filter((r) => r.label === 'positive').length;
  assert.ok(pos > 2300 && pos < 2700, `${pos} positive of 5000`);
  // a bag of words cannot do it: each adjective appears under both labels
  for (const w of ['good', 'bad', 'boring', 'great']) {
    const labels = new Set(xs.filter((r) => r.words.includes(w)).map((r) => r.label));
    assert.equal(labels.size, 2, `${w} decides nothing alone`);
  }
});

test('no label noise: the label is a function of the words (reviewLabel agrees everywhere)', () => {
  for (const mode of ['sentence', 'document']) {
    for (const r of generateReviews({ seed: 9, count: 3000, mode })) {
      const l = reviewLabel(r.text);
      assert.equal(l.label, r.label, r.text);
      assert.equal(l.labelId, r.labelId);
      assert.deepEqual(l.decisive, r.decisive, r.text);
    }
  }
  assert.equal(reviewLabel('not bad .').label, 'positive');
  assert.equal(reviewLabel('not good .').label, 'negative');
  assert.equal(reviewLabel('good but boring .').label, 'negative');
  assert.equal(reviewLabel('the film was dull but not bad .').label, 'positive');
  assert.equal(reviewLabel('it lasts two hours .'), null);
  assert.deepEqual(reviewLabel('it was good . it was bad . we saw it twice .'), { label: 'negative', labelId: 0, decisive: [6] });
});

test('document mode: sentences, separators, the last opinion decides', () => {
  const xs = generateReviews({ seed: 3, count: 3000, mode: 'document' });
  const counts = new Set();
  let overruled = 0, trailing = 0;
  for (const r of xs) {
    const m = r.sentences.length;
    counts.add(m);
    assert.ok(m >= 2 && m <= 5);
    assert.equal(r.words.filter((w) => w === REVIEWS_SEPARATOR).length, m, 'one separator per sentence');
    r.sentences.forEach((s, i) => {
      assert.equal(s.start, i === 0 ? 0 : r.sentences[i - 1].end);
      assert.equal(r.words[s.end - 1], REVIEWS_SEPARATOR);
      assert.equal(r.words.slice(s.start, s.end - 1).includes(REVIEWS_SEPARATOR), false);
      const opinionated = r.words.slice(s.start, s.end).some((w) => SENTIMENT.has(w));
      assert.equal(s.label !== null, opinionated);
      if (s.decisive) for (const j of s.decisive) assert.ok(j >= s.start && j < s.end);
    });
    const L = r.decisiveSentence;
    assert.equal(r.sentences[L].label, r.label);
    assert.deepEqual(r.sentences[L].decisive, r.decisive);
    assert.ok(r.sentences.slice(L + 1).every((s) => s.label === null), 'no opinion after the deciding sentence');
    if (r.sentences.slice(0, L).some((s) => s.label !== null && s.label !== r.label)) overruled++;
    if (L < m - 1) trailing++;
    for (const s of r.sentences.slice(0, L)) if (s.decisive) for (const j of s.decisive) assert.ok(r.distractors.includes(j));
  }
  assert.deepEqual([...counts].sort(), [2, 3, 4, 5]);
  assert.ok(overruled > 400, `${overruled} documents where an earlier opinion is overruled`);
  assert.ok(trailing > 1000, `${trailing} documents with neutral sentences after the verdict`);
  const one = generateReviews({ seed: 3, count: 50, mode: 'document', minSentences: 1, maxSentences: 1 });
  assert.ok(one.every((r) => r.sentences.length === 1 && r.label !== null));
});

test('the tokenizer covers every generated word, every word is generated, the separator is in it', () => {
  const { vocab } = REVIEWS_TOKENIZER;
  assert.deepEqual(Object.keys(REVIEWS_TOKENIZER).sort(), ['pad', 'type', 'unk', 'vocab'], 'the classifier tokenizer keys');
  assert.deepEqual(vocab.slice(0, 2), ['<pad>', '<unk>']);
  assert.ok(vocab.includes(REVIEWS_SEPARATOR));
  assert.equal(new Set(vocab).size, vocab.length);
  const known = new Set(REVIEW_WORDS);
  const used = new Set();
  for (const mode of ['sentence', 'document']) {
    for (const r of generateReviews({ seed: 4, count: 10000, mode })) {
      for (const w of r.words) {
        assert.ok(known.has(w), `${w} is not in the vocabulary`);
        used.add(w);
      }
    }
  }
  assert.deepEqual(REVIEW_WORDS.filter((w) => !used.has(w)), []);
});

test('train and held-out never share a text', () => {
  for (const mode of ['sentence', 'document']) {
    const train = generateReviews({ seed: 21, count: 20000, mode });
    const held = generateReviews({ seed: 21, count: 2000, split: 'heldout', mode });
    const seen = new Set(train.map((r) => r.text));
    for (const r of held) {
      assert.ok(!seen.has(r.text), r.text);
      assert.equal(isHeldOutKey(r.text), true);
    }
    for (const r of train) assert.equal(isHeldOutKey(r.text), false);
    // one-clause sentences come from a space of some 10^5 texts, so a few repeat within a split
    assert.ok(new Set(held.map((r) => r.text)).size > 1700, 'held-out texts are varied');
  }
});

test('bad options are refused by name', () => {
  assert.throws(() => generateReviews({ mode: 'paragraph' }), /mode must be 'sentence' or 'document'/);
  assert.throws(() => generateReviews({ mode: 'document', minSentences: 3, maxSentences: 2 }), /maxSentences must be an integer in \[3, 64\]/);
  assert.throws(() => generateReviews({ split: 'val' }), /split must be 'train' or 'heldout'/);
});
