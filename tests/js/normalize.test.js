// tests/js/normalize.test.js: tokenizer.normalize (wasm/model/normalize.js, docs/models.md
// "Normalisation"): known answers for every step, normalising twice changes nothing (seeded
// random text), old configs without the key split as typed, a model reads raw text exactly as its
// normalised form, unknownWords, and configs with a bad normalize list refused by name.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { init, createModel, loadModel, saveModel } from '../../wasm/index.js';
import {
  normalizeSteps,
  normalizeWords,
  normalizeChars,
  joinTokens,
  NORMALIZE_STEPS,
} from '../../wasm/model/normalize.js';
import { Tokenizer } from '../../wasm/model/tokenizer.js';

const ALL = normalizeSteps(['nfc', 'quotes', 'lowercase', 'punctuation', 'contractions']);
const words = (t, steps = ALL) => normalizeWords(t, steps).join(' ');

test('word normalisation: known answers', () => {
  const cases = [
    ['The movie was great.', 'the movie was great .'],
    ['I didn’t like it... at all!!', "i did n't like it . . . at all ! !"],
    ["Not bad at all, I'd go back.", "not bad at all , i 'd go back ."],
    ["I can't, I won't, I cannot.", "i can n't , i will n't , i can not ."],
    ['dont DIDNT Isnt', "do n't did n't is n't"],
    [
      "John's dog's bone; they're here, we've been, you'll see, I'm in",
      "john 's dog 's bone ; they 're here , we 've been , you 'll see , i 'm in",
    ],
    ["o'clock rock'n'roll students' '90s", "o'clock rock'n'roll students ' ' 90s"],
    ['$3.50, 1,000 times at 10:30 (twice)', '$ 3.50 , 1,000 times at 10:30 ( twice )'],
    ['well-made e-mail — “quoted”', 'well - made e - mail - " quoted "'],
    ['Cafe\u0301 CAFÉ café', 'café café café'],
    ['  lots\t of \n  space  ', 'lots of space'],
    ['', ''],
    // a stem named like an Object.prototype key is a word like any other (it threw before)
    [
      "constructorn't toStringn't hasOwnPropertyn't",
      "constructor n't tostring n't hasownproperty n't",
    ],
  ];
  for (const [raw, want] of cases) assert.equal(words(raw), want, JSON.stringify(raw));
});

test('steps apply only when named; order of the list does not matter', () => {
  assert.equal(words('The Movie.', normalizeSteps([])), 'The Movie.');
  assert.equal(words('The Movie.', normalizeSteps(['lowercase'])), 'the movie.');
  assert.equal(words("The Movie didn't.", normalizeSteps(['punctuation'])), "The Movie didn't .");
  assert.equal(words("didn't", normalizeSteps(['contractions', 'punctuation'])), "did n't");
  assert.equal(
    normalizeChars('  5 MAY   1850 ', normalizeSteps(['whitespace', 'lowercase'], 'char')),
    '5 may 1850',
  );
  assert.equal(normalizeChars('Cafe\u0301', normalizeSteps(['nfc'], 'char')), 'Café');
  assert.deepEqual(
    [...NORMALIZE_STEPS],
    [
      'nfc',
      'quotes',
      'lowercase',
      'whitespace',
      'punctuation',
      'contractions',
      'elision',
      'spelling',
    ],
  );
});

test('elision: French elided prefixes are tokens of their own, and join back without a space', () => {
  const E = normalizeSteps([
    'nfc',
    'quotes',
    'lowercase',
    'punctuation',
    'contractions',
    'elision',
  ]);
  const cases = [
    ["Les enfants n'aiment pas le pain.", "les enfants n' aiment pas le pain ."],
    ["l'os du chien", "l' os du chien"],
    ['Qu’elle', "qu' elle"],
    ["S'il voit jusqu'ici", "s' il voit jusqu' ici"],
    ["l' os", "l' os"], // typed apart: the same tokens
    ["aujourd'hui", "aujourd'hui"], // not a prefix
    ["they don't see my brother's dog", "they do n't see my brother 's dog"], // English clitics unchanged
    ["n't", "n't"],
  ];
  for (const [raw, want] of cases) assert.equal(normalizeWords(raw, E).join(' '), want, raw);
  assert.equal(
    joinTokens(["j'", 'aime', "l'", 'os', 'du', 'chien', '.'], E),
    "j'aime l'os du chien .",
  );
  assert.equal(joinTokens(["j'", 'aime'], normalizeSteps(['punctuation'])), "j' aime"); // without the step: spaces
  assert.throws(() => normalizeSteps(['elision']), /"elision" needs "punctuation"/);
  assert.throws(
    () => normalizeSteps(['punctuation', 'elision'], 'char'),
    /for word tokenizers only/,
  );
});

test('elision: normalising normalised text changes nothing, joined either way (seeded random text)', () => {
  const E = normalizeSteps([
    'nfc',
    'quotes',
    'lowercase',
    'punctuation',
    'contractions',
    'elision',
  ]);
  const alphabet = fc.constantFrom(
    ..."aAélLnNtTsSdDjJqu' ’.,".split(''),
    "qu'",
    "n't",
    "'s",
    "l'",
    'dont',
    ' ',
  );
  fc.assert(
    fc.property(fc.array(alphabet, { maxLength: 40 }), (parts) => {
      const once = normalizeWords(parts.join(''), E);
      assert.deepEqual(normalizeWords(once.join(' '), E), once);
      assert.deepEqual(normalizeWords(joinTokens(once, E), E), once);
    }),
    { seed: 20261124, numRuns: 2000 },
  );
});

test('normalising normalised text changes nothing (seeded random text)', () => {
  const alphabet = fc.constantFrom(
    ...'aAbéE\u0301 \t\n.,!?\'’"-:$0123456789nNtTsSdmlrv'.split(''),
    "n't",
    "'s",
    'dont',
    'cannot',
    'can',
    ' ',
  );
  fc.assert(
    fc.property(fc.array(alphabet, { maxLength: 40 }), (parts) => {
      const once = normalizeWords(parts.join(''), ALL);
      const twice = normalizeWords(once.join(' '), ALL);
      assert.deepEqual(twice, once);
      for (const t of once) assert.ok(t.length > 0 && !/\s/u.test(t), JSON.stringify(t));
    }),
    { seed: 20261124, numRuns: 2000 },
  );
});

test('bad normalize lists are refused by name', () => {
  const base = { type: 'word', srcVocab: ['<unk>'], tgtVocab: ['<unk>'], unk: '<unk>' };
  const bad = [
    ['lowercase', /must be an array/],
    [['lowercase', 'stem'], /unknown normalize step "stem"/],
    [['lowercase', 'lowercase'], /listed twice/],
    [[7], /unknown normalize step number/],
    [['contractions'], /needs "punctuation"/],
  ];
  for (const [normalize, re] of bad) {
    assert.throws(
      () => new Tokenizer({ ...base, normalize }),
      (e) => e.code === 'AL_ERR_FORMAT' && re.test(e.message),
      JSON.stringify(normalize),
    );
  }
  assert.throws(
    () => new Tokenizer({ ...base, type: 'char', normalize: ['punctuation'] }),
    /word tokenizers only/,
  );
});

const VOCAB = [
  '<pad>',
  '<unk>',
  '.',
  ',',
  '!',
  'the',
  'movie',
  'was',
  'great',
  'not',
  "n't",
  'did',
  'i',
  'like',
  'it',
];
const CONFIG = {
  architecture: 'classifier',
  cell: 'lstm',
  embeddingSize: 6,
  hiddenSize: 8,
  numLayers: 1,
  bidirectional: true,
  pooling: 'attention',
  labels: ['negative', 'positive'],
  tokenizer: {
    type: 'word',
    vocab: VOCAB,
    unk: '<unk>',
    pad: '<pad>',
    normalize: ['nfc', 'quotes', 'lowercase', 'punctuation', 'contractions'],
  },
};

test('a model reads raw text exactly as its normalised form; unknownWords in input order', async () => {
  await init();
  const m = await createModel(CONFIG, { seed: 3 });
  try {
    const raw = m.run('The Movie was GREAT, Zorblax!  I didn’t like it... Zorblax qux.');
    const norm = m.run("the movie was great , zorblax ! i did n't like it . . . zorblax qux .");
    assert.deepEqual(raw.probs, norm.probs);
    assert.equal(raw.label, norm.label);
    assert.deepEqual(raw.attention[0].colLabels, norm.attention[0].colLabels);
    assert.deepEqual(raw.unknownWords, ['zorblax', 'qux']);
    assert.deepEqual(m.classify('the movie was great').unknownWords, []);
    assert.deepEqual(m.run(m.encode('Zorblax movie')).unknownWords, [], 'ids carry no words');
    assert.equal(m.normalize('The movie wasn’t great!'), "the movie was n't great !");
    assert.deepEqual(m.tokenizer.normalization, [
      'nfc',
      'quotes',
      'lowercase',
      'punctuation',
      'contractions',
    ]);
    // the key survives save and load
    const again = await loadModel(saveModel(m));
    try {
      assert.deepEqual(
        again.run('The MOVIE was great.').probs,
        m.run('the movie was great .').probs,
      );
    } finally {
      again.dispose();
    }
  } finally {
    m.dispose();
  }
});

test('without the key a word model splits as typed (files before it keep their behaviour)', async () => {
  await init();
  const { normalize: _, ...tok } = CONFIG.tokenizer;
  const m = await createModel({ ...CONFIG, tokenizer: tok }, { seed: 3 });
  try {
    assert.equal(m.normalize('The movie was great.'), 'The movie was great.');
    assert.deepEqual(m.run('The movie was great.').unknownWords, ['The', 'great.']);
    assert.deepEqual(m.tokenizer.normalization, []);
  } finally {
    m.dispose();
  }
});

test('a config with a bad normalize list does not load', async () => {
  await init();
  await assert.rejects(
    createModel(
      { ...CONFIG, tokenizer: { ...CONFIG.tokenizer, normalize: ['lowercase', 'soundex'] } },
      { seed: 1 },
    ),
    (e) => e.code === 'AL_ERR_FORMAT' && /soundex/.test(e.message),
  );
});
