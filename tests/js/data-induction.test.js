// data-induction.test.js: the repeated-sequence data for induction heads (web/data/induction.js), in Node.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  INDUCTION_SYMBOLS,
  INDUCTION_TOKENIZER,
  argmaxRows,
  generateInduction,
  inductionAccuracy,
  inductionPositions,
  inductionTokenizer,
} from '../../web/data/induction.js';
import { isHeldOutKey } from '../../web/data/common.js';
import { Tokenizer } from '../../wasm/model/tokenizer.js';

const prefixOf = (x) => x.tokens.slice(1, 1 + x.k).join(' ');
/** The induction rule itself: after token t, predict what followed t's previous occurrence. */
const induction = (x) =>
  x.tokens.map((tok, t) => {
    for (let j = t - 1; j >= 0; j--) if (x.tokens[j] === tok) return x.tokens[j + 1];
    return '<unk>';
  });

test('deterministic and pinned', () => {
  const a = generateInduction({ seed: 1, count: 100 });
  assert.deepEqual(a, generateInduction({ seed: 1, count: 100 }));
  assert.notDeepEqual(generateInduction({ seed: 2, count: 100 }), a);
  assert.deepEqual(
    [a[0].text, a[0].k, a[0].ids.slice(0, 4)],
    ['<s> a o z c k r u p d q f n a o z c k r u p d q f n', 12, [2, 4, 18, 29]],
  );
  assert.deepEqual(
    a.slice(0, 2).map((x) => x.text),
    generateInduction({ seed: 1, count: 2 }).map((x) => x.text),
    'a prefix of a longer run',
  );
});

test('sequences are <s> A A with distinct symbols, k in [minK, maxK], ids from the tokenizer', () => {
  const tok = new Tokenizer(INDUCTION_TOKENIZER);
  const ks = new Set();
  for (const x of generateInduction({ seed: 3, count: 3000 })) {
    ks.add(x.k);
    assert.equal(x.tokens.length, 2 * x.k + 1);
    assert.equal(x.tokens[0], '<s>');
    const a = x.tokens.slice(1, 1 + x.k);
    assert.deepEqual(x.tokens.slice(1 + x.k), a);
    assert.equal(new Set(a).size, x.k, 'distinct symbols');
    for (const s of a) assert.ok(INDUCTION_SYMBOLS.includes(s));
    assert.equal(x.text, x.tokens.join(' '));
    assert.equal(x.src, x.text);
    assert.deepEqual(x.ids, Array.from(tok.encode(x.text)));
    assert.ok(!x.ids.includes(tok.unkId));
  }
  assert.deepEqual(
    [...ks].sort((p, q) => p - q),
    Array.from({ length: 13 }, (_, i) => 4 + i),
  );
  const rep = generateInduction({
    seed: 3,
    count: 500,
    minK: 20,
    maxK: 20,
    symbols: 'ab',
    distinct: false,
  });
  assert.ok(rep.every((x) => x.k === 20 && x.tokens.slice(1).every((s) => s === 'a' || s === 'b')));
  assert.ok(
    rep.some((x) => new Set(x.tokens.slice(1, 21)).size === 2),
    'repeats allowed when distinct is false',
  );
});

test('only the repeated half is predictable: the induction rule scores 1 there and 0 on the first half', () => {
  const xs = generateInduction({ seed: 4, count: 500 });
  const r = inductionAccuracy(xs, xs.map(induction));
  assert.equal(r.repeatedHalf, 1);
  assert.equal(r.firstHalf, 0);
  assert.equal(r.firstCount, r.repeatedCount);
  assert.equal(
    r.firstCount,
    xs.reduce((s, x) => s + x.k - 1, 0),
  );
  // the same with ids, and a model that is always wrong
  const tok = new Tokenizer(INDUCTION_TOKENIZER);
  const ids = xs.map((x) => Array.from(tok.encode(induction(x).join(' '))));
  assert.deepEqual(inductionAccuracy(xs, ids), r);
  assert.equal(
    inductionAccuracy(
      xs,
      xs.map((x) => x.ids.map(() => 0)),
    ).repeatedHalf,
    0,
  );
});

test('inductionPositions and argmaxRows', () => {
  assert.deepEqual(inductionPositions(4), { first: [1, 2, 3], repeated: [5, 6, 7] });
  const x = { tokens: ['<s>', 'a', 'b', 'c', 'a', 'b', 'c'], k: 3 };
  const { first, repeated } = inductionPositions(3);
  assert.deepEqual(
    first.map((t) => x.tokens[t + 1]),
    ['b', 'c'],
  );
  assert.deepEqual(
    repeated.map((t) => x.tokens[t + 1]),
    ['b', 'c'],
  );
  assert.deepEqual(
    repeated.map((t) => x.tokens[t]),
    ['a', 'b'],
    'the current token occurred once before',
  );
  const logits = { data: new Float32Array([0, 2, 1, 5, 5, 4]), shape: [2, 3] };
  assert.deepEqual(Array.from(argmaxRows(logits)), [1, 0], 'first index on ties');
});

test('train and held-out never share a prefix A', () => {
  const train = generateInduction({ seed: 8, count: 20000, minK: 2, maxK: 4 });
  const held = generateInduction({ seed: 8, count: 3000, minK: 2, maxK: 4, split: 'heldout' });
  const seen = new Set(train.map(prefixOf));
  for (const x of held) {
    assert.ok(!seen.has(prefixOf(x)), prefixOf(x));
    assert.equal(isHeldOutKey(prefixOf(x)), true);
  }
  for (const x of train) assert.equal(isHeldOutKey(prefixOf(x)), false);
});

test('the tokenizer: specials then symbols, one vocabulary for a decoder-only model', () => {
  assert.deepEqual(INDUCTION_TOKENIZER.srcVocab.slice(0, 4), ['<pad>', '<unk>', '<s>', '</s>']);
  assert.equal(INDUCTION_TOKENIZER.srcVocab, INDUCTION_TOKENIZER.tgtVocab);
  assert.equal(INDUCTION_TOKENIZER.srcVocab.length, 30);
  assert.deepEqual(inductionTokenizer(['x1', 'x2']).srcVocab, [
    '<pad>',
    '<unk>',
    '<s>',
    '</s>',
    'x1',
    'x2',
  ]);
  assert.deepEqual(
    generateInduction({ seed: 1, count: 1, symbols: ['x1', 'x2', 'x3'], minK: 3, maxK: 3 })[0]
      .ids.slice(1)
      .sort(),
    [4, 4, 5, 5, 6, 6],
  );
});

test('bad options are refused by name', () => {
  assert.throws(() => generateInduction({ maxK: 27 }), /maxK must be an integer in \[4, 26\]/);
  assert.throws(() => generateInduction({ minK: 1 }), /minK must be an integer in \[2, 2048\]/);
  assert.throws(() => generateInduction({ symbols: ['a', '<s>'] }), /special token/);
  assert.throws(() => generateInduction({ distinct: 'yes' }), /distinct must be true or false/);
  assert.throws(() => inductionAccuracy([], [[]]), /same length/);
});
