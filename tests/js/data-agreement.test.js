// data-agreement.test.js: the subject–verb agreement grammar (web/data/agreement.js), in Node.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  AGREEMENT_TOKENIZER,
  AGREEMENT_VOCAB,
  AGREEMENT_WORDS,
  VERB_PAIRS,
  agreementAccuracy,
  agreementTestSet,
  analyzeAgreement,
  generateAgreement,
  normalizeSentence,
} from '../../web/data/agreement.js';
import { isHeldOutKey } from '../../web/data/common.js';
import { Tokenizer } from '../../wasm/model/tokenizer.js';

const DEMO = 'The FBI is chasing a criminal on the run .';
const SG = new Set(VERB_PAIRS.map((p) => p[0]));
const PL = new Set(VERB_PAIRS.map((p) => p[1]));

test('deterministic and pinned', () => {
  const a = generateAgreement({ seed: 1, count: 100 });
  assert.deepEqual(a, generateAgreement({ seed: 1, count: 100 }));
  assert.notDeepEqual(generateAgreement({ seed: 2, count: 100 }), a);
  assert.deepEqual(
    a
      .slice(0, 3)
      .map((s) => [
        s.text,
        s.subjectIndex,
        s.verbIndex,
        s.number,
        s.attractors,
        s.correct,
        s.wrong,
      ]),
    [
      ['the police that slept wait with the reporter .', 1, 4, 'pl', 0, 'wait', 'waits'],
      [
        'the witness behind a judge behind the old children waits on the run .',
        1,
        9,
        'sg',
        1,
        'waits',
        'wait',
      ],
      ['the child near the dogs is catching some big detectives .', 1, 5, 'sg', 1, 'is', 'are'],
    ],
  );
});

test('"The FBI is chasing a criminal on the run ." is in the grammar and the vocabulary', () => {
  const norm = normalizeSentence('The FBI is chasing a criminal on the run.');
  assert.equal(norm, 'the fbi is chasing a criminal on the run .');
  assert.equal(normalizeSentence(DEMO), norm);
  for (const w of norm.split(' '))
    assert.ok(AGREEMENT_WORDS.includes(w), `${w} is not in the vocabulary`);
  const tok = new Tokenizer(AGREEMENT_TOKENIZER);
  assert.ok(!tok.encode(norm).includes(tok.unkId));
  const a = analyzeAgreement(DEMO);
  assert.ok(a, 'the grammar cannot produce the demo sentence');
  assert.deepEqual(
    [a.subjectIndex, a.verbIndex, a.number, a.attractors, a.correct, a.wrong],
    [1, 2, 'sg', 0, 'is', 'are'],
  );
});

test('analyzeAgreement: recovers the metadata of generated sentences and refuses ungrammatical ones', () => {
  for (const s of generateAgreement({ seed: 4, count: 40 })) {
    const a = analyzeAgreement(s.text);
    assert.ok(a, `cannot parse ${s.text}`);
    for (const k of [
      'subjectIndex',
      'verbIndex',
      'number',
      'attractors',
      'intervening',
      'correct',
      'wrong',
    ])
      assert.equal(a[k], s[k], `${k} of ${s.text}`);
    assert.equal(a.split, 'train');
  }
  assert.equal(analyzeAgreement('the fbi are chasing a criminal .'), null, 'wrong agreement');
  assert.equal(analyzeAgreement('the dogs near the car is hungry .'), null, 'attracted agreement');
  assert.equal(analyzeAgreement('the fbi is chasing a criminal on the run'), null, 'no final "."');
  assert.equal(analyzeAgreement('a officer runs .'), null, '"a" before a vowel');
  assert.ok(analyzeAgreement('an officer runs .'));
});

test('every sentence keeps the documented shape and agreement', () => {
  const xs = generateAgreement({ seed: 7, count: 5000 });
  const nouns = new Set();
  for (const s of xs) {
    assert.equal(s.text, s.words.join(' '));
    assert.equal(s.src, `<s> ${s.text}`, 'a decoder training example { src } as it is');
    assert.equal(s.words[s.words.length - 1], '.');
    assert.equal(s.text.endsWith(' .'), true);
    assert.ok(s.subjectIndex === 1 || s.subjectIndex === 2, s.text); // DET (ADJ) N
    assert.ok(s.verbIndex > s.subjectIndex && s.verbIndex < s.words.length - 1);
    assert.equal(s.correct, s.words[s.verbIndex]);
    assert.ok(
      (s.number === 'sg' ? SG : PL).has(s.correct),
      `${s.correct} does not agree with a ${s.number} subject: ${s.text}`,
    );
    assert.ok((s.number === 'sg' ? PL : SG).has(s.wrong));
    assert.ok(
      VERB_PAIRS.some(
        ([a, b]) => (a === s.correct && b === s.wrong) || (b === s.correct && a === s.wrong),
      ),
    );
    assert.ok(s.attractors <= s.intervening && s.intervening <= 2);
    if (s.verbIndex === s.subjectIndex + 1) assert.equal(s.intervening, 0);
    nouns.add(s.words[s.subjectIndex]);
  }
  // attractors of every count up to maxModifiers, and both numbers, are common
  for (const n of [0, 1, 2])
    assert.ok(xs.filter((s) => s.attractors === n).length > 200, `attractors = ${n}`);
  const sg = xs.filter((s) => s.number === 'sg').length;
  assert.ok(sg > 2200 && sg < 2800, `${sg} singular of 5000`);
  assert.ok(nouns.has('fbi') && nouns.has('police') && nouns.has('officers'));
  assert.ok(
    Math.max(...xs.map((s) => s.verbIndex - s.subjectIndex)) >= 9,
    'long-range cases exist',
  );
  assert.ok(
    generateAgreement({ seed: 7, count: 300, maxModifiers: 0 }).every(
      (s) => s.intervening === 0 && s.verbIndex === s.subjectIndex + 1,
    ),
  );
});

test('the vocabulary covers every generated word, and every word is generated', () => {
  assert.deepEqual(AGREEMENT_VOCAB.slice(0, 4), ['<pad>', '<unk>', '<s>', '</s>']);
  assert.equal(new Set(AGREEMENT_VOCAB).size, AGREEMENT_VOCAB.length);
  assert.equal(AGREEMENT_TOKENIZER.type, 'word');
  assert.equal(AGREEMENT_TOKENIZER.srcVocab, AGREEMENT_TOKENIZER.tgtVocab);
  const vocab = new Set(AGREEMENT_WORDS);
  const used = new Set();
  for (const s of generateAgreement({ seed: 3, count: 20000 })) {
    for (const w of s.words) {
      assert.ok(vocab.has(w), `${w} (${s.text}) is not in the vocabulary`);
      assert.equal(w, w.toLowerCase());
      used.add(w);
    }
  }
  assert.deepEqual(
    AGREEMENT_WORDS.filter((w) => !used.has(w)),
    [],
  );
});

test('train and held-out never share a sentence', () => {
  const train = generateAgreement({ seed: 12, count: 20000 });
  const held = generateAgreement({ seed: 12, count: 3000, split: 'heldout' });
  const seen = new Set(train.map((s) => s.text));
  for (const s of held) {
    assert.ok(!seen.has(s.text), s.text);
    assert.equal(isHeldOutKey(s.text), true);
  }
  for (const s of train) assert.equal(isHeldOutKey(s.text), false);
  assert.ok(new Set(held.map((s) => s.text)).size > 2500, 'held-out sentences are varied');
});

test('agreementTestSet: prefixes and the two verb forms; agreementAccuracy by attractor count', () => {
  const items = agreementTestSet({ seed: 1, count: 400 });
  assert.deepEqual(items, agreementTestSet({ seed: 1, count: 400 }));
  for (const it of items) {
    assert.equal(it.prefix.length, it.verbIndex);
    assert.equal(it.prefixText, it.prefix.join(' '));
    assert.equal(it.text.split(' ').slice(0, it.verbIndex).join(' '), it.prefixText);
    assert.equal(it.text.split(' ')[it.verbIndex], it.correct);
    assert.equal(isHeldOutKey(it.text), true, 'held out by default');
  }
  const hard = agreementTestSet({ seed: 1, count: 100, minAttractors: 2 });
  assert.ok(hard.every((it) => it.attractors >= 2));
  // oracles: the subject's number is right everywhere; the last noun's number fails on attractors
  const numberOf = (it) => it.number;
  const oracle = agreementAccuracy(items, (prefix, w) =>
    (numberOf(items.find((x) => x.prefix === prefix)) === 'sg') === SG.has(w) ? 0 : -1,
  );
  assert.equal(oracle.accuracy, 1);
  assert.equal(oracle.count, 400);
  assert.deepEqual(
    oracle.byAttractors.map((b) => b.attractors),
    [0, 1, 2],
  );
  const SGN = new Set([
    'fbi',
    'officer',
    'criminal',
    'reporter',
    'agent',
    'detective',
    'driver',
    'lawyer',
    'witness',
    'suspect',
    'judge',
    'man',
    'woman',
    'child',
    'dog',
    'cat',
    'horse',
    'mouse',
    'car',
    'bank',
    'building',
    'city',
    'bridge',
    'house',
    'train',
    'run',
  ]);
  const PLN = new Set([
    'police',
    'officers',
    'criminals',
    'reporters',
    'agents',
    'detectives',
    'drivers',
    'lawyers',
    'witnesses',
    'suspects',
    'judges',
    'men',
    'women',
    'children',
    'dogs',
    'cats',
    'horses',
    'mice',
    'cars',
    'banks',
    'buildings',
    'cities',
    'bridges',
    'houses',
    'trains',
  ]);
  // "run" is a noun only in "on the run" ("who run" is a verb)
  const lastNoun = (prefix) =>
    prefix
      .filter((w, i) => (SGN.has(w) || PLN.has(w)) && (w !== 'run' || prefix[i - 1] === 'the'))
      .pop();
  const naive = agreementAccuracy(items, (prefix, w) =>
    SGN.has(lastNoun(prefix)) === SG.has(w) ? 0 : -1,
  );
  const by = Object.fromEntries(naive.byAttractors.map((b) => [b.attractors, b.accuracy]));
  assert.equal(by[0], 1, 'with no attractor the last noun agrees');
  assert.ok(
    by[1] < 0.5 && by[2] < 0.2,
    `the last-noun heuristic fails on attractors: ${JSON.stringify(by)}`,
  );
  assert.deepEqual(
    agreementAccuracy([], () => 0),
    { accuracy: 0, count: 0, byAttractors: [] },
  );
});

test('bad options are refused by name', () => {
  assert.throws(
    () => generateAgreement({ split: 'dev' }),
    /generateAgreement: split must be 'train' or 'heldout'/,
  );
  assert.throws(
    () => generateAgreement({ maxModifiers: 7 }),
    /maxModifiers must be an integer in \[0, 6\]/,
  );
  assert.throws(
    () => agreementTestSet({ minAttractors: 3 }),
    /minAttractors must be an integer in \[0, 2\]/,
  );
  assert.throws(() => generateAgreement({ seed: -1 }), /seed must be an integer/);
});
