// plurals.test.js: the irregular plural nouns the word tokenizer's shape classes read as <unk-s>
// (wasm/model/plurals.js, written by scripts/build-plurals.mjs from WordNet's noun exceptions,
// SUBTLEX-US and the Brown tags; issue 30). The committed list is what its sources give; the
// Python mirror holds the same words; known answers on both sides of the filters; the shipped
// agreement LMs read every listed word they lack as <unk-s> and give it a plural verb.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { init, loadModel } from '../../wasm/index.js';
import { isIrregularPlural, IRREGULAR_PLURAL_COUNT } from '../../wasm/model/plurals.js';
import { prefixScorer, trainingTokenizer } from '../../scripts/train/agreement.mjs';
import { shipped } from './shipped-helpers.js';

const ROOT = new URL('../../', import.meta.url);
const read = (p) => readFileSync(new URL(p, ROOT), 'utf8');

/** The words between the first pair of backquotes (JS) or triple quotes after the name (Python). */
const jsWords = () => read('wasm/model/plurals.js').split('`')[1].trim().split(/\s+/);
const pyWords = () =>
  read('python/attnlab/plurals.py')
    .split('IRREGULAR_PLURALS = frozenset(')[1]
    .split('"""')[1]
    .trim()
    .split(/\s+/);

test('the committed list is what WordNet, SUBTLEX-US and Brown give (build-plurals --check)', () => {
  // throws, with the script's message, when a file is stale or wordnet-base is missing
  execFileSync(process.execPath, ['scripts/build-plurals.mjs', '--check'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
});

test('the Python mirror holds the same words, sorted, each once', () => {
  const js = jsWords();
  assert.deepEqual(pyWords(), js);
  assert.deepEqual([...js].sort(), js);
  assert.equal(new Set(js).size, js.length);
  assert.equal(IRREGULAR_PLURAL_COUNT, js.length);
  assert.ok(
    js.every((w) => /^[a-z]+$/.test(w) && !w.endsWith('s')),
    'letters, no -s plurals',
  );
});

test('known answers: listed plurals, -men compounds; singular look-alikes left out', () => {
  // WordNet's exceptions and the -men compounds its morphology derives
  const listed = ['geese', 'oxen', 'cacti', 'criteria', 'phenomena', 'fungi', 'children', 'teeth'];
  for (const w of [...listed, 'women', 'firemen', 'businessmen'])
    assert.ok(isIrregularPlural(w), w);
  // a WordNet noun of its own ("omen", "ramen"); Brown's verb or singular noun ("crying", "dive",
  // "stamina"); same in both numbers (not in the exceptions: "sheep"); -s plurals (their shape)
  for (const w of ['omen', 'ramen', 'crying', 'dive', 'stamina', 'sheep', 'wolves', 'Geese', ''])
    assert.equal(isIrregularPlural(w), false, w);
});

test('shipped agreement LMs: each listed word they lack reads as <unk-s> and takes a plural verb', async () => {
  await init();
  for (const name of ['lm-agreement-lstm', 'lm-agreement-sarnn', 'lm-agreement-lstmn']) {
    const model = await loadModel(shipped(name, { maxBytes: 1024 * 1024 }).bytes);
    const tok = model.tokenizer;
    const unknown = jsWords().filter((w) => tok.unknownWords(w).length === 1);
    assert.ok(unknown.length > 200, `${name}: ${unknown.length} listed words unknown`);
    const plural = tok.src.get('<unk-s>');
    for (const w of unknown) assert.equal(tok.id(w), plural, `${name}: ${w}`);
    const score = prefixScorer(model);
    const prefer = (prefix, a, b) => score(prefix.split(' '), a) > score(prefix.split(' '), b);
    for (const prefix of ['the oxen', 'the cacti near the window', 'the criteria of the test'])
      assert.ok(prefer(prefix, 'are', 'is'), `${name}: ${prefix} are / is`);
    assert.deepEqual(model.run('The oxen in the field were tired.').tokens.slice(0, 3), [
      '<s>',
      'the',
      '<unk-s>',
    ]);
    model.dispose();
  }
});

test("the agreement LMs' trainer reads irregular plurals as <unk>, as their recipe was chosen", async () => {
  // TRAIN_IRREGULAR_PLURALS (scripts/train/agreement.mjs): the shipped files are what the recipe
  // builds, and it reads its corpus without plurals.js; the files read them as <unk-s>
  const train = trainingTokenizer();
  const model = await loadModel(shipped('lm-agreement-lstm', { maxBytes: 1024 * 1024 }).bytes);
  const read = (tok, text) => Array.from(tok.encode(text), (id) => tok.srcTokens([id])[0]);
  assert.deepEqual(read(train, 'The oxen jars'), ['<s>', 'the', '<unk>', '<unk-s>', '</s>']);
  assert.deepEqual(read(model.tokenizer, 'The oxen jars'), [
    '<s>',
    'the',
    '<unk-s>',
    '<unk-s>',
    '</s>',
  ]);
  assert.equal(train.unknownToken('criteria'), '<unk>');
  assert.equal(model.tokenizer.unknownToken('criteria'), '<unk-s>');
  model.dispose();
});
