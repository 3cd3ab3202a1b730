// data-common.test.js: the shared pieces of the data generators (web/data/common.js), in Node.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  hashString,
  isHeldOutKey,
  mulberry32,
  sampleSplit,
  splitStream,
} from '../../web/data/common.js';
import { mulberry32 as pageMulberry32 } from '../../web/data/playground.js';

test('common.js reuses the page PRNG (web/data.js mulberry32)', () => {
  assert.equal(mulberry32, pageMulberry32);
});

test('hashString is pinned (FNV-1a + lowbias32): the held-out splits depend on it', () => {
  assert.equal(hashString(''), 1947474976);
  assert.notEqual(hashString('abc'), hashString('acb'));
  assert.deepEqual(
    ['a', 'abc', 'the fbi is chasing a criminal on the run .'].map(hashString),
    [1817065451, 2319914504, 1214738719],
  );
});

test('about 10% of keys are held out', () => {
  let n = 0;
  for (let i = 0; i < 20000; i++) n += isHeldOutKey(`key ${i}`);
  assert.ok(n > 1800 && n < 2200, `held out ${n} of 20000`);
});

test('splitStream: one stream per (seed, split), as dates.js', () => {
  assert.equal(splitStream(3, 'train')(), mulberry32(3)());
  assert.equal(splitStream(3, 'heldout')(), mulberry32(3 ^ 0x9e3779b9)());
});

test('sampleSplit throws instead of looping when the split is (nearly) empty', () => {
  const key = 'always the same train key';
  assert.equal(isHeldOutKey(key), false);
  assert.throws(
    () =>
      sampleSplit(
        't',
        mulberry32(1),
        5,
        'heldout',
        () => key,
        (x) => x,
      ),
    /t: found only 0 of 5 'heldout' examples/,
  );
});
