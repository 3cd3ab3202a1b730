// The English → French generator (web/data/translation.js) and the translation metrics
// (web/shared/translation-metrics.js): splits disjoint, gold alignments consistent with the
// sentences, the tokenizer reading both sides back, the table translated as written,
// and BLEU / AER on cases computed by hand.

import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';

import {
  generateTranslation,
  parseEnglish,
  translationDomain,
  render,
  TRANSLATION_TOKENIZER,
  TRANSLATION_EXAMPLES,
  PHENOMENA,
  ENGLISH_WORDS,
  FRENCH_TOKENS,
  NOUNS,
  VERBS,
  ADJECTIVES,
  PERSONS,
  MIN_WORDS,
  MAX_WORDS,
} from '../../web/data/translation.js';
import { bleu, alignmentError, sumAlignment } from '../../web/shared/translation-metrics.js';
import { Tokenizer } from '../../wasm/model/tokenizer.js';

const tok = new Tokenizer(TRANSLATION_TOKENIZER);
const train = generateTranslation({ seed: 11, count: 3000, split: 'train' });
const held = generateTranslation({ seed: 11, count: 600, split: 'heldout' });

test('the splits are disjoint, whatever the seeds, and whatever the final mark', () => {
  // "she sees him ." in one split never meets "she sees him" or "she sees him ?" in the other
  const bare = (x) => x.srcTokens.filter((w) => !['.', '?', '!'].includes(w)).join(' ');
  const seen = new Set(generateTranslation({ seed: 99, count: 4000, split: 'train' }).map(bare));
  for (const x of held) assert.ok(!seen.has(bare(x)), x.src);
  const seen2 = new Set(train.map((x) => x.src));
  for (const x of generateTranslation({ seed: 5, count: 600, split: 'heldout' }))
    assert.ok(!seen2.has(x.src), x.src);
});

test('the same seed gives the same examples; options are checked', () => {
  assert.deepEqual(
    generateTranslation({ seed: 11, count: 50, split: 'train' }),
    train.slice(0, 50),
  );
  assert.throws(() => generateTranslation({ split: 'dev' }), /split must be 'train' or 'heldout'/);
  assert.throws(
    () => generateTranslation({ minWords: 2 }),
    /minWords must be an integer in \[3, 30\]/,
  );
  assert.throws(() => generateTranslation({ minWords: 9, maxWords: 8 }), /maxWords/);
});

test('gold alignments are consistent with the sentences: every French token aligned, every index in range', () => {
  for (const x of [...train, ...held]) {
    assert.equal(x.alignment.length, x.tgtTokens.length, x.src);
    assert.equal(x.tags.length, x.tgtTokens.length);
    x.alignment.forEach((links, j) => {
      assert.ok(links.length >= 1, `${x.tgt}: French token ${j} "${x.tgtTokens[j]}" is unaligned`);
      for (const i of links)
        assert.ok(Number.isInteger(i) && i >= 0 && i < x.srcTokens.length, `${x.src}: link ${i}`);
    });
    // the final marks (., ? or !) are the same on both sides and align with each other; or neither side has one
    const end = x.srcTokens.at(-1);
    if (['.', '?', '!'].includes(end)) {
      assert.equal(x.tgtTokens.at(-1), end, x.src);
      assert.deepEqual(x.alignment.at(-1), [x.srcTokens.length - 1]);
    } else assert.ok(/\p{L}/u.test(x.tgtTokens.at(-1)), `${x.src} -> ${x.tgt}`);
    for (const ts of x.tags) for (const t of ts) assert.ok(PHENOMENA.includes(t), t);
  }
});

test('lengths span 3 to 30 words, each length drawn; minWords / maxWords hold', () => {
  const counts = new Map();
  for (const x of train) {
    assert.ok(x.length >= MIN_WORDS && x.length <= MAX_WORDS, `${x.length}: ${x.src}`);
    counts.set(x.length, (counts.get(x.length) ?? 0) + 1);
  }
  for (let L = MIN_WORDS; L <= MAX_WORDS; L++)
    assert.ok(
      (counts.get(L) ?? 0) >= 20,
      `only ${counts.get(L) ?? 0} sentences of ${L} words in 3,000`,
    );
  for (const x of generateTranslation({
    seed: 3,
    count: 20,
    split: 'heldout',
    minWords: 30,
    maxWords: 30,
  }))
    assert.equal(x.length, 30);
  for (const x of generateTranslation({
    seed: 3,
    count: 20,
    split: 'heldout',
    minWords: 3,
    maxWords: 3,
  }))
    assert.equal(x.length, 3);
});

test('every phenomenon has a share of the data large enough to learn (at least 5% of sentences)', () => {
  for (const p of PHENOMENA) {
    const n = train.filter((x) => x.phenomena.includes(p)).length;
    assert.ok(n / train.length >= 0.05, `${p}: ${n} of ${train.length}`);
  }
});

test('the tokenizer reads both sides back as the generator wrote them, and decodes French as written', () => {
  for (const x of [...train.slice(0, 1500), ...held]) {
    assert.deepEqual(tok.split(x.src), x.srcTokens, x.src);
    assert.deepEqual(tok.split(x.tgt), x.tgtTokens, x.tgt);
    assert.deepEqual(tok.unknownWords(x.src), []);
    const ids = tok.encodeTarget(x.tgt);
    assert.ok(!ids.includes(tok.tgtUnkId), x.tgt);
    assert.equal(tok.decode(ids), x.tgt);
  }
  // every vocabulary entry survives normalisation as one token
  for (const w of ENGLISH_WORDS) assert.deepEqual(tok.split(w), [w], w);
  for (const w of FRENCH_TOKENS) assert.deepEqual(tok.split(w), [w], w);
});

test('the vocabulary: at least 400 English words, with the words the issue names', () => {
  assert.ok(ENGLISH_WORDS.length >= 400, `${ENGLISH_WORDS.length}`);
  const need = [
    'cat',
    'dog',
    'car',
    'house',
    'apple',
    'book',
    'sister',
    'brother',
    'friend',
    'child',
    'bread',
    'door',
    'garden',
    'city',
    'table',
    'red',
    'black',
    'white',
    'green',
    'blue',
    'small',
    'big',
    'new',
    'european',
    'economic',
    'see',
    'eat',
    'like',
    'have',
    'be',
    'find',
    'want',
    'i',
    'you',
    'he',
    'she',
    'we',
    'they',
    'me',
    'him',
    'her',
    'us',
    'them',
    'my',
    'your',
    'his',
    'our',
    'their',
  ];
  for (const w of need)
    assert.ok(w === 'be' ? ENGLISH_WORDS.includes('is') : ENGLISH_WORDS.includes(w), w);
  for (const n of NOUNS) assert.ok(n.gender === 'm' || n.gender === 'f', n.en);
  assert.ok(NOUNS.length + VERBS.length + ADJECTIVES.length >= 300);
  assert.equal(PERSONS.length, 6);
  assert.ok(
    FRENCH_TOKENS.includes('sœur') && FRENCH_TOKENS.includes("l'") && FRENCH_TOKENS.includes('du'),
  );
});

test("the issue's table, translated and aligned as written", () => {
  const cases = [
    ['the cat sees the red car .', 'le chat voit la voiture rouge .'],
    ['my sister has a small black cat .', 'ma sœur a un petit chat noir .'],
    ["my brother's dog likes the white house .", 'le chien de mon frère aime la maison blanche .'],
    ['i do not see the dog .', 'je ne vois pas le chien .'],
    ['she sees him .', 'elle le voit .'],
    ['we see them .', 'nous les voyons .'],
    ['we have eaten the green apples .', 'nous avons mangé les pommes vertes .'],
    ['the children do not like the bread .', "les enfants n'aiment pas le pain ."],
    ["the children don't like the bread .", "les enfants n'aiment pas le pain ."],
    ["i like the dog's bone .", "j'aime l'os du chien ."],
    ['the european economic area is important .', 'la zone économique européenne est importante .'],
    [
      'the girl that i have seen thinks that the old man is happy .',
      "la fille que j'ai vue pense que le vieil homme est heureux .",
    ],
    ['he sees her new friend .', 'il voit son nouvel ami .'],
    ['i do not have a car .', "je n'ai pas de voiture ."],
    ['they have not seen us if he is there .', null], // "there" is not in the grammar
  ];
  for (const [en, fr] of cases) assert.equal(parseEnglish(en)?.tgt ?? null, fr, en);
  // the alignment of the famous example: zone <- area, économique <- economic, européenne <- european
  const x = parseEnglish('The European Economic Area is important.');
  const at = (w) => x.alignment[x.tgtTokens.indexOf(w)].map((i) => x.srcTokens[i]);
  assert.deepEqual(at('zone'), ['area']);
  assert.deepEqual(at('économique'), ['economic']);
  assert.deepEqual(at('européenne'), ['european']);
  assert.ok(x.phenomena.includes('adjectives-reversed'));
  // du is de + le: aligned to both 's and the
  const y = parseEnglish("i like the dog's bone .");
  assert.deepEqual(
    y.alignment[y.tgtTokens.indexOf('du')].map((i) => y.srcTokens[i]),
    ['the', "'s"],
  );
  // ne and pas both translate not; "do" has no French counterpart
  const z = parseEnglish('i do not see the dog .');
  assert.deepEqual(
    z.alignment.map((a) => a.map((i) => z.srcTokens[i]).join('+')),
    ['i', 'not', 'see', 'not', 'the', 'dog', '.'],
  );
});

test('hand-written French (tests/fixtures/translation-handwritten.json) is what the generator writes', () => {
  const file = JSON.parse(
    readFileSync(new URL('../fixtures/translation-handwritten.json', import.meta.url), 'utf8'),
  );
  assert.ok(file.pairs.length >= 40);
  for (const [en, fr] of file.pairs) assert.equal(parseEnglish(en)?.tgt ?? null, fr, en);
});

test('every Examples sentence parses and shows its phenomenon; generated sentences parse back to themselves', () => {
  for (const e of TRANSLATION_EXAMPLES)
    assert.ok(parseEnglish(e.src)?.phenomena.includes(e.phenomenon), e.src);
  for (const x of held) assert.deepEqual(parseEnglish(x.src), x, x.src);
  assert.equal(parseEnglish(''), null);
  assert.equal(parseEnglish('the cat sees the red car . '.repeat(10)), null);
  // render() of a hand-built tree: "i sleep ." -> "je dors .", je <- i, dors <- sleep
  const r = render(generateTranslationTree('.'));
  assert.equal(r.src, 'i sleep .');
  assert.equal(r.tgt, 'je dors .');
  assert.deepEqual(r.alignment, [[0], [1], [2]]);
  assert.equal(r.length, 2);
  // the same tree with no final mark, and with "?"
  const bare = render(generateTranslationTree(''));
  assert.deepEqual(
    [bare.src, bare.tgt, bare.alignment, bare.length],
    ['i sleep', 'je dors', [[0], [1]], 2],
  );
  const q = render(generateTranslationTree('?'));
  assert.deepEqual([q.src, q.tgt, q.alignment], ['i sleep ?', 'je dors ?', [[0], [1], [2]]]);
});

function generateTranslationTree(end) {
  return {
    clauses: [
      {
        subj: { pronoun: PERSONS[0], role: 'subj' },
        pred: {
          kind: 'intrans',
          verb: VERBS.find((v) => v.en.base === 'sleep'),
          tense: 'present',
          neg: null,
        },
        pps: [],
      },
    ],
    conjs: [],
    end,
  };
}

test('sentences end in ".", "?", "!" or nothing, each often enough to learn; the endings share a split', () => {
  const ends = new Map();
  for (const x of train) {
    const e = ['.', '?', '!'].includes(x.srcTokens.at(-1)) ? x.srcTokens.at(-1) : '';
    ends.set(e, (ends.get(e) ?? 0) + 1);
  }
  for (const [e, share] of [
    ['.', 0.6],
    ['', 0.1],
    ['?', 0.05],
    ['!', 0.05],
  ])
    assert.ok(
      (ends.get(e) ?? 0) >= share * train.length,
      `"${e}": ${ends.get(e)} of ${train.length}`,
    );
  // a mark is never inside a sentence
  for (const x of train)
    assert.ok(
      x.srcTokens.slice(0, -1).every((w) => !['.', '?', '!'].includes(w)),
      x.src,
    );
  // typed text: any ending, or none, reads back; the French ends the same way
  assert.equal(parseEnglish('She sees him')?.tgt, 'elle le voit');
  assert.equal(parseEnglish('She sees him?')?.tgt, 'elle le voit ?');
  assert.equal(parseEnglish('She sees him!')?.tgt, 'elle le voit !');
  assert.equal(parseEnglish('She sees him.')?.tgt, 'elle le voit .');
  assert.equal(parseEnglish('She sees him. She sees him.'), null);
  assert.equal(parseEnglish('She sees him ?!'), null);
});

test('BLEU-4 on hand-computed cases', () => {
  const ref = 'le chat voit la voiture rouge .'.split(' ');
  assert.equal(bleu([ref], [ref]).bleu, 100);
  // one substitution in 7 tokens: the n-grams that avoid "bleue": p1 = 6/7, p2 = 4/6, p3 = 3/5, p4 = 2/4; BP = 1
  const cand = 'le chat voit la voiture bleue .'.split(' ');
  const b = bleu([cand], [ref]);
  assert.deepEqual(
    b.precisions.map((p) => +p.toFixed(6)),
    [6 / 7, 4 / 6, 3 / 5, 2 / 4].map((p) => +p.toFixed(6)),
  );
  assert.ok(
    Math.abs(
      b.bleu -
        100 * Math.exp((Math.log(6 / 7) + Math.log(4 / 6) + Math.log(3 / 5) + Math.log(2 / 4)) / 4),
    ) < 1e-9,
  );
  // a short candidate: brevity penalty exp(1 - 7/5)
  const short = bleu([['le', 'chat', 'voit', 'la', 'voiture']], [ref]);
  assert.ok(Math.abs(short.brevityPenalty - Math.exp(1 - 7 / 5)) < 1e-12);
  assert.ok(Math.abs(short.bleu - 100 * Math.exp(1 - 7 / 5)) < 1e-9);
  // clipping: "le le le" against "le chat": p1 = 1/3; no 4-gram matches -> 0
  const clip = bleu([['le', 'le', 'le']], [['le', 'chat']]);
  assert.equal(clip.precisions[0], 1 / 3);
  assert.equal(clip.bleu, 0);
  // corpus sums, not an average of sentences
  const two = bleu([ref, cand], [ref, ref]);
  assert.equal(two.precisions[0], 13 / 14);
  assert.throws(() => bleu([ref], []), /same length/);
});

test('AER and gold mass on hand-computed cases', () => {
  // 3 French tokens, 3 English tokens; gold: 0->0, 1->2, 2->{1,2}
  const gold = [[0], [2], [1, 2]];
  const att = {
    data: Float32Array.from([0.7, 0.2, 0.1, 0.1, 0.5, 0.4, 0.0, 0.3, 0.7]),
    shape: [3, 3],
  };
  // argmax links: (0,0) hit, (1,1) miss, (2,2) hit: |A| = 3, |G| = 4, hits 2 -> AER = 1 - 4/7
  const r = alignmentError(att, gold);
  assert.equal(r.hits, 2);
  assert.ok(Math.abs(r.aer - (1 - 4 / 7)) < 1e-12);
  assert.ok(Math.abs(r.mass - (0.7 + 0.4 + 1.0) / 3) < 1e-6);
  // a subset of rows (a phenomenon's tokens)
  const s = alignmentError(att, gold, { rows: [1] });
  assert.equal(s.aer, 1);
  assert.ok(Math.abs(s.mass - 0.4) < 1e-6);
  // perfect attention: AER 0 when each row has one gold link
  const eye = { data: Float32Array.from([1, 0, 0, 1]), shape: [2, 2] };
  assert.equal(alignmentError(eye, [[0], [1]]).aer, 0);
  // corpus AER sums links: (2 + 2 hits) / (3 + 4 + 2 + 2)
  const sum = sumAlignment([r, alignmentError(eye, [[0], [1]])]);
  assert.ok(Math.abs(sum.aer - (1 - (2 * 4) / (5 + 6))) < 1e-12);
  assert.throws(() => alignmentError(att, [[0], [3], [1]]), /outside the 3 English tokens/);
  assert.throws(() => alignmentError(eye, gold), /2 rows for 3 French tokens/);
});

test('translationDomain: unknown words, too many words, a construction the grammar never writes', () => {
  assert.deepEqual(translationDomain('The cat sees the red car.'), []);
  assert.deepEqual(translationDomain('she sees him'), []);
  assert.deepEqual(translationDomain(''), []);
  assert.deepEqual(translationDomain('him sees she'), [{ code: 'grammar' }]);
  assert.deepEqual(translationDomain('the cat sees the red car , the dog sleeps'), [
    { code: 'unknown-words', words: [','] },
  ]);
  assert.deepEqual(translationDomain('The movie was great. The movie!'), [
    { code: 'unknown-words', words: ['movie', 'was', 'great'] },
  ]);
  const long = Array.from({ length: 8 }, () => 'the cat sees the dog').join(' and ') + ' .';
  assert.deepEqual(translationDomain(long), [{ code: 'too-long', count: 47, max: MAX_WORDS }]);
  // every generated sentence is in the domain
  for (const x of held.slice(0, 200)) assert.deepEqual(translationDomain(x.src), [], x.src);
});
