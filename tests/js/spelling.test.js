// tests/js/spelling.test.js: the "spelling" normalisation step (wasm/model/spelling.js, the
// tokenizer's use of it, and its Python mirror python/attnlab/spelling.py): known answers, the
// tie-break order, JS == Python on a word list, validation, and what unknownWords / corrections
// report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { editDistance, spellingCorrector, deletions } from '../../wasm/model/spelling.js';
import { Tokenizer } from '../../wasm/model/tokenizer.js';
import { REVIEWS_TOKENIZER } from '../../web/data/reviews.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const chars = (s) => Array.from(s);

test('edit distance: insertions, deletions, substitutions and adjacent transpositions count 1', () => {
  const d = (a, b) => editDistance(chars(a), chars(b));
  assert.equal(d('great', 'great'), 0);
  assert.equal(d('gret', 'great'), 1);
  assert.equal(d('greaat', 'great'), 1);
  assert.equal(d('grest', 'great'), 1);
  assert.equal(d('graet', 'great'), 1);
  assert.equal(d('reccomend', 'recommend'), 2);
  assert.equal(d('kitten', 'sitting'), 3);
  assert.equal(d('ca', 'abc'), 3); // optimal string alignment: no edit of a transposed pair
  assert.equal(editDistance(chars('abcdef'), chars('uvwxyz'), 2), 3); // cut at max + 1
  assert.deepEqual([...deletions(chars('abc'), 1)].sort(), ['ab', 'abc', 'ac', 'bc']);
});

test('known answers on the review vocabulary, and what stays as typed', () => {
  const fix = spellingCorrector(REVIEWS_TOKENIZER.vocab);
  const cases = {
    reccomend: 'recommend',
    recomended: 'recommended',
    definately: 'definitely',
    freindly: 'friendly',
    horible: 'horrible',
    excelent: 'excellent',
    absolutly: 'absolutely',
    disapointing: 'disappointing',
    batery: 'battery', // a dropped letter before a slip: not "bakery"
    evry: 'every', // not "eery"
  };
  for (const [typed, read] of Object.entries(cases)) assert.equal(fix(typed), read, typed);
  for (const typed of ['great', 'mid', 'meh', 'zorblaxian', 'x9y9', 'did', 'qqqqqqqq'])
    assert.equal(fix(typed), null, typed);
});

test('ties: the longer shared prefix, then a longer candidate, then vocabulary order', () => {
  assert.equal(spellingCorrector(['bake', 'cake'])('cake'), null);
  assert.equal(spellingCorrector(['bake', 'cake'])('dake'), 'bake'); // same class: vocabulary order
  assert.equal(spellingCorrector(['bake', 'cake'])('cakx'), 'cake'); // the prefix kept
  assert.equal(spellingCorrector(['bakery', 'battery'])('batery'), 'battery');
  assert.equal(spellingCorrector(['battery', 'bakery'])('bakerys'), 'bakery');
  assert.equal(spellingCorrector(['abcd', 'abce'])('abcf'), 'abcd');
  assert.equal(spellingCorrector(['abce', 'abcd'])('abcf'), 'abce');
  assert.equal(spellingCorrector(['cats', 'cut'])('cuts'), 'cut'); // prefix 'cu' before a slip
  assert.equal(spellingCorrector(['flood', 'food'])('foood'), 'food');
});

test('JS and Python read every word of a list the same way', () => {
  const vocab = REVIEWS_TOKENIZER.vocab;
  const fix = spellingCorrector(vocab);
  const words = [];
  // typos of vocabulary words (every 7th word, each edit kind) and words the vocabulary lacks
  vocab.slice(2).forEach((w, i) => {
    if (i % 7 || w.length < 4) return;
    const k = 1 + (i % (w.length - 1));
    words.push(w.slice(0, k) + w.slice(k + 1));
    words.push(w.slice(0, k) + w[k] + w.slice(k));
    if (k + 1 < w.length) words.push(w.slice(0, k) + w[k + 1] + w[k] + w.slice(k + 2));
    words.push(w.slice(0, k) + 'q' + w.slice(k + 1));
  });
  words.push('reccomend', 'definately', 'zorblaxian', 'café', 'naïve', 'überfast', 'mid', '4.5');
  const dir = mkdtempSync(path.join(tmpdir(), 'spelling-'));
  const file = path.join(dir, 'words.json');
  writeFileSync(file, JSON.stringify({ vocab, words }));
  const py = [
    'import json, sys',
    `sys.path.insert(0, ${JSON.stringify(path.join(ROOT, 'python'))})`,
    'from attnlab.spelling import spelling_corrector',
    `d = json.load(open(${JSON.stringify(file)}, encoding="utf-8"))`,
    "f = spelling_corrector(d['vocab'])",
    "print(json.dumps([f(w) for w in d['words']]))",
  ].join('\n');
  const out = JSON.parse(execFileSync('/usr/bin/python3', ['-c', py], { encoding: 'utf8' }));
  const js = words.map((w) => fix(w));
  assert.ok(words.length > 2000, `${words.length} words`);
  assert.ok(js.filter((x) => x !== null).length > 1500, 'most typos are corrected');
  for (let i = 0; i < words.length; i++) assert.equal(out[i], js[i], words[i]);
});

test('the tokenizer: split reads the correction, unknownWords still names the typed word', () => {
  const cfg = {
    type: 'word',
    srcVocab: ['<unk>', 'i', 'recommend', 'it', 'would', "n't", '.'],
    tgtVocab: ['a', 'b'],
    unk: '<unk>',
    normalize: ['lowercase', 'punctuation', 'contractions', 'spelling'],
  };
  const tok = new Tokenizer(cfg);
  const text = 'uninstalled after a day, wouldnt reccomend it.';
  assert.deepEqual(tok.split('wouldnt reccomend it.'), ['would', "n't", 'recommend', 'it', '.']);
  assert.deepEqual(tok.corrections(text), [['reccomend', 'recommend']]);
  assert.deepEqual(tok.unknownWords(text), ['uninstalled', 'after', 'a', 'day', ',', 'reccomend']);
  assert.deepEqual(Array.from(tok.encode('I reccomend it')), [1, 2, 3]);
  // without the step: as before
  const plain = new Tokenizer({ ...cfg, normalize: ['lowercase', 'punctuation', 'contractions'] });
  assert.deepEqual(Array.from(plain.encode('I reccomend it')), [1, 0, 3]);
  assert.deepEqual(plain.corrections(text), []);
  // a char tokenizer cannot correct words
  assert.throws(
    () => new Tokenizer({ ...cfg, type: 'char', normalize: ['spelling'] }),
    /normalize step "spelling" is for word tokenizers only/,
  );
});

test('spellingKeep: real words stay as typed, misspellings are still read back', () => {
  const cfg = {
    type: 'word',
    srcVocab: ['<unk>', 'the', 'ruining', 'liking', 'recommend', 'lining'],
    tgtVocab: ['a', 'b'],
    unk: '<unk>',
    normalize: ['lowercase', 'spelling'],
  };
  // without the list, a real word one edit from a vocabulary word is read as that word
  assert.deepEqual(new Tokenizer(cfg).split('running reccomend'), ['ruining', 'recommend']);
  const tok = new Tokenizer({ ...cfg, spellingKeep: ['running', 'living'] });
  assert.deepEqual(tok.split('Running reccomend living liniing'), [
    'running',
    'recommend',
    'living',
    'lining',
  ]);
  assert.deepEqual(tok.corrections('running reccomend'), [['reccomend', 'recommend']]);
  assert.deepEqual(tok.unknownWords('running reccomend'), ['running', 'reccomend']);
  assert.deepEqual(Array.from(tok.encode('the running')), [1, 0]);
  // the corrector alone
  assert.equal(spellingCorrector(['ruining'], { keep: ['running'] })('running'), null);
  assert.equal(spellingCorrector(['ruining'], { keep: ['running'] })('ruinning'), 'ruining');
  // bad lists are refused with the key named
  for (const bad of ['running', [1], [null], { 0: 'a' }])
    assert.throws(
      () => new Tokenizer({ ...cfg, spellingKeep: bad }),
      /tokenizer: "spellingKeep" must be an array of words \(strings\)/,
    );
  assert.throws(
    () => new Tokenizer({ ...cfg, normalize: ['lowercase'], spellingKeep: ['running'] }),
    /"spellingKeep" needs the normalize step "spelling"/,
  );
});

test('the shipped review classifiers keep real words and read misspellings back', async () => {
  const { init, loadModel } = await import('../../wasm/index.js');
  const { readFileSync } = await import('node:fs');
  await init();
  for (const n of ['attention', 'han', 'structured']) {
    const m = await loadModel(
      readFileSync(path.join(ROOT, `web/models/clf-reviews-${n}.safetensors`)),
    );
    try {
      assert.ok(m.config.tokenizer.spellingKeep.length > 5000, n);
      const r = m.classify('running water, the lining is tearing, wouldnt reccomend');
      const read = Object.fromEntries(r.corrected);
      assert.equal(read.reccomend, 'recommend', n);
      for (const w of ['running', 'water', 'lining', 'tearing'])
        assert.equal(read[w], undefined, `${n}: ${w}`);
    } finally {
      m.dispose();
    }
  }
});
