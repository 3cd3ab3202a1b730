// data-sequences.test.js: the copy / reversal data (web/data/sequences.js), in Node.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  generateSequences,
  isHeldOutSequence,
  lengthStratified,
  scoreByLength,
  sequencesTokenizer,
  SEQUENCES_TOKENIZER,
  SYMBOLS,
  TASK_MARKERS,
} from '../../web/data/sequences.js';
import { Tokenizer } from '../../wasm/model/tokenizer.js';

const rev = (s) => [...s].reverse().join('');
const body = (p) => p.src.slice(p.src.length - p.length);

test('deterministic and pinned (models trained on these seeds must keep their data)', () => {
  const a = generateSequences({ seed: 1, count: 50 });
  assert.deepEqual(a, generateSequences({ seed: 1, count: 50 }));
  assert.deepEqual(a[0], {
    src: 'akttfmoitjjciedjbhpfdailpfenkpdojptepdgi',
    tgt: 'igdpetpjodpknefpliadfphbjdeicjjtiomfttka',
    task: 'reverse',
    length: 40,
  });
  assert.deepEqual(
    generateSequences({ seed: 1, count: 10 }),
    a.slice(0, 10),
    'a prefix of a longer run',
  );
  assert.notDeepEqual(generateSequences({ seed: 2, count: 50 }), a);
  assert.deepEqual(
    generateSequences({ seed: 1, count: 3, task: 'mixed', split: 'heldout', maxLen: 12 }),
    [
      { src: '<dcdqctt', tgt: 'ttcqdcd', task: 'reverse', length: 7 },
      { src: '>pcermg', tgt: 'pcermg', task: 'copy', length: 6 },
      { src: '<fecgrp', tgt: 'prgcef', task: 'reverse', length: 6 },
    ],
  );
});

test('the documented properties: tasks, lengths, symbols, markers', () => {
  for (const task of ['copy', 'reverse', 'mixed']) {
    const xs = generateSequences({ seed: 3, count: 2000, task });
    const lens = new Set();
    for (const p of xs) {
      assert.ok(p.length >= 5 && p.length <= 60);
      lens.add(p.length);
      const b = body(p);
      assert.equal(b.length, p.length);
      assert.match(b, /^[a-t]+$/);
      assert.equal(p.tgt, p.task === 'copy' ? b : rev(b));
      if (task === 'mixed') assert.equal(p.src[0], TASK_MARKERS[p.task]);
      else {
        assert.equal(p.src, b);
        assert.equal(p.task, task);
      }
    }
    assert.equal(lens.size, 56, `${task}: every length 5..60 appears`);
    if (task === 'mixed') {
      const copies = xs.filter((p) => p.task === 'copy').length;
      assert.ok(copies > 900 && copies < 1100, `${copies} copies of 2000`);
    }
  }
  const custom = generateSequences({ seed: 1, count: 200, minLen: 3, maxLen: 4, symbols: 'xyz' });
  for (const p of custom) assert.match(p.src, /^[xyz]{3,4}$/);
});

test('train and held-out never share a symbol string (nor its reversal), for any task', () => {
  const train = generateSequences({ seed: 11, count: 20000, task: 'mixed', minLen: 3, maxLen: 6 });
  const held = generateSequences({
    seed: 11,
    count: 3000,
    task: 'mixed',
    minLen: 3,
    maxLen: 6,
    split: 'heldout',
  });
  const seen = new Set(train.map(body));
  for (const p of held) {
    const b = body(p);
    assert.equal(isHeldOutSequence(b), true);
    assert.ok(!seen.has(b) && !seen.has(rev(b)), `${b} is in both splits`);
  }
  for (const p of train) assert.equal(isHeldOutSequence(body(p)), false);
  // a string and its reversal always share the split
  for (const p of train.slice(0, 500)) assert.equal(isHeldOutSequence(rev(body(p))), false);
});

test('the tokenizer covers every symbol and marker, and is shaped like DATES_TOKENIZER', () => {
  const t = SEQUENCES_TOKENIZER;
  assert.deepEqual(t.srcVocab.slice(0, 2), ['<pad>', '<unk>']);
  assert.deepEqual(t.tgtVocab.slice(0, 3), ['<pad>', '<s>', '</s>']);
  assert.equal(t.srcVocab.length, 2 + SYMBOLS.length + 2);
  assert.equal(t.tgtVocab.length, 3 + SYMBOLS.length);
  const tok = new Tokenizer(t);
  for (const p of generateSequences({ seed: 5, count: 300, task: 'mixed' })) {
    const ids = tok.encode(p.src);
    assert.equal(ids.length, p.src.length);
    assert.ok(!ids.includes(tok.unkId), `unk in ${p.src}`);
    assert.equal(tok.decode(tok.encodeTarget(p.tgt)), p.tgt);
  }
  assert.deepEqual(sequencesTokenizer('xyz').tgtVocab, ['<pad>', '<s>', '</s>', 'x', 'y', 'z']);
});

test('lengthStratified: perLength held-out pairs of every length, in order', () => {
  const xs = lengthStratified({ seed: 2, perLength: 7, minLen: 5, maxLen: 60 });
  assert.equal(xs.length, 7 * 56);
  for (let i = 0; i < xs.length; i++) {
    assert.equal(xs[i].length, 5 + Math.floor(i / 7));
    assert.equal(isHeldOutSequence(body(xs[i])), true);
  }
  assert.deepEqual(xs, lengthStratified({ seed: 2, perLength: 7 }));
  const tr = lengthStratified({
    seed: 2,
    perLength: 3,
    minLen: 8,
    maxLen: 9,
    split: 'train',
    task: 'copy',
  });
  assert.deepEqual(
    tr.map((p) => [p.length, p.task, isHeldOutSequence(p.src)]),
    [
      [8, 'copy', false],
      [8, 'copy', false],
      [8, 'copy', false],
      [9, 'copy', false],
      [9, 'copy', false],
      [9, 'copy', false],
    ],
  );
});

test('scoreByLength: exact match and token accuracy per length', () => {
  const xs = [
    { src: 'ab', tgt: 'ba', task: 'reverse', length: 2 },
    { src: 'cd', tgt: 'dc', task: 'reverse', length: 2 },
    { src: 'abc', tgt: 'cba', task: 'reverse', length: 3 },
  ];
  assert.deepEqual(scoreByLength(xs, ['ba', 'dd', 'cb']), [
    { length: 2, count: 2, exactMatch: 0.5, tokenAccuracy: 0.75 },
    { length: 3, count: 1, exactMatch: 0, tokenAccuracy: 2 / 3 },
  ]);
  assert.throws(() => scoreByLength(xs, ['ba']), /same length/);
});

test('bad options are refused by name; impossible splits throw instead of looping', () => {
  assert.throws(() => generateSequences({ split: 'test' }), /split must be 'train' or 'heldout'/);
  assert.throws(
    () => generateSequences({ task: 'sort' }),
    /task must be one of copy, reverse, mixed/,
  );
  assert.throws(
    () => generateSequences({ minLen: 10, maxLen: 5 }),
    /maxLen must be an integer in \[10, 1000\]/,
  );
  assert.throws(() => generateSequences({ count: -1 }), /count must be a non-negative integer/);
  assert.throws(() => generateSequences({ symbols: 'aa' }), /distinct/);
  assert.throws(() => generateSequences({ symbols: 'a<' }), /task marker/);
  // 2 symbols of length 1: 2 strings, none held out
  assert.throws(
    () => generateSequences({ symbols: 'ab', minLen: 1, maxLen: 1, count: 1, split: 'heldout' }),
    /too few distinct examples/,
  );
});
