// tokenizer-shapes.test.js: the word tokenizer's optional shape classes for unknown words
// (tokenizer.unknownShapes, wasm/model/tokenizer.js shapeOf; docs/models.md "tokenizer"): each
// class's rule with its edges, the order they are tried in, only the listed classes used, words
// in the vocabulary untouched, unknownWords() still listing them; a bad list refused by name; a
// memory-rnn config with the key accepted by the C parser and read through model.encode.
// python/tests/test_tokenizer.py compares the Python mirror with this one on a word list.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { init, createModel, AttnlabError } from '../../wasm/index.js';
import { Tokenizer, shapeOf, UNKNOWN_SHAPES } from '../../wasm/model/tokenizer.js';

const VOCAB = ['<unk>', '<s>', '</s>', ...UNKNOWN_SHAPES, 'the', 'on', 'shelf', 'are', 'is'];
const tok = (shapes, vocab = VOCAB) =>
  new Tokenizer({
    type: 'word',
    srcVocab: vocab,
    tgtVocab: vocab,
    unk: '<unk>',
    normalize: ['lowercase', 'punctuation'],
    unknownShapes: shapes,
  });

test('shapeOf: plural -s nouns, -ing, -ed, -ly, numbers; the edges of each rule', () => {
  const cases = {
    jars: '<unk-s>',
    dishes: '<unk-s>',
    shelves: '<unk-s>',
    stories: '<unk-s>',
    'co-ops': '<unk-s>',
    glass: null, // -ss
    bonus: null, // -us
    basis: null, // -is
    gas: null, // 3 letters
    running: '<unk-ing>',
    sing: null, // 4 letters
    walked: '<unk-ed>',
    red: null,
    quickly: '<unk-ly>',
    fly: null,
    '1960s': '<unk-num>',
    3.5: '<unk-num>',
    'well-dressed': '<unk-ed>',
    geese: '<unk-s>', // irregular plurals of plurals.js (tests/js/plurals.test.js)
    firemen: '<unk-s>',
    omen: null,
    crying: '<unk-ing>',
    cafés: '<unk-s>',
    'ok!': null,
    '': null,
  };
  for (const [w, want] of Object.entries(cases)) assert.equal(shapeOf(w), want, w);
});

test('a tokenizer with unknownShapes reads unknown words as their class, known words as themselves', () => {
  const t = tok(UNKNOWN_SHAPES);
  const id = (w) => t.src.get(w);
  assert.deepEqual(
    Array.from(t.encode('The jars on the shelf are dusty')),
    ['the', '<unk-s>', 'on', 'the', 'shelf', 'are', '<unk>'].map(id),
  );
  assert.equal(t.id('walked'), id('<unk-ed>'));
  assert.equal(t.id('shelf'), id('shelf'));
  assert.deepEqual(t.unknownWords('the jars on the shelf'), ['jars']);
  assert.deepEqual(Array.from(t.encodeTarget('jars')), [id('<unk-s>')]);
  // only the listed classes: without <unk-ing>, "running" is plain unk
  const only = tok(['<unk-s>']);
  assert.deepEqual(Array.from(only.encode('jars running')), [id('<unk-s>'), id('<unk>')]);
  // without the key, nothing changes
  const plain = tok(undefined);
  assert.deepEqual(Array.from(plain.encode('jars running')), [id('<unk>'), id('<unk>')]);
  assert.deepEqual(plain.unknownShapes, []);
});

test('a bad unknownShapes list is refused, naming the problem', () => {
  assert.throws(
    () => tok(['<unk-plural>']),
    /unknownShapes": unknown shape class "<unk-plural>" \(known: <unk-num>, <unk-ing>, <unk-ed>, <unk-ly>, <unk-s>\)/,
  );
  assert.throws(() => tok(['<unk-s>', '<unk-s>']), /"<unk-s>" is listed twice/);
  assert.throws(() => tok('<unk-s>'), /must be an array of names/);
  assert.throws(() => tok(['<unk-s>'], ['<unk>', 'the']), /"<unk-s>" is not in the vocabulary/);
  assert.throws(
    () =>
      new Tokenizer({
        type: 'char',
        srcVocab: VOCAB,
        tgtVocab: VOCAB,
        unk: '<unk>',
        unknownShapes: ['<unk-s>'],
      }),
    (e) => e instanceof AttnlabError && /for word tokenizers only/.test(e.message),
  );
});

test('a memory-rnn config with unknownShapes loads, and its model reads "jars" as <unk-s>', async () => {
  await init();
  const config = (shapes) => ({
    architecture: 'memory-rnn',
    cell: 'lstm',
    embeddingSize: 4,
    hiddenSize: 4,
    head: 'lm',
    tokenizer: {
      type: 'word',
      vocab: VOCAB,
      unk: '<unk>',
      bos: '<s>',
      eos: '</s>',
      unknownShapes: shapes,
    },
  });
  const m = await createModel(config(['<unk-s>']), { seed: 1 });
  const v = (w) => VOCAB.indexOf(w);
  assert.deepEqual(Array.from(m.encode('the jars')), [v('<s>'), v('the'), v('<unk-s>'), v('</s>')]);
  assert.deepEqual(m.run('the jars are').unknownWords, ['jars']);
  m.dispose();
  await assert.rejects(createModel(config(['<unk-pl>']), { seed: 1 }), /unknown shape class/);
});
