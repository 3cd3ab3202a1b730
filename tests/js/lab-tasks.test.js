// lab-tasks.test.js: the lab's tasks (web/lab/tasks.js): batches are a pure function of (task,
// step, size), the held-out set never meets training and covers every input length, the targets
// are right (reverse, sort, the sum), the tokenizers cover the data, fixed-size training sets,
// custom pairs.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  makeTask,
  TASK_INFO,
  MAX_HELDOUT,
  MAX_HELDOUT_PER_LENGTH,
  addDigits,
  streamSeed,
  tokensOf,
} from '../../web/lab/tasks.js';
import { TASK_NAMES } from '../../web/lab/spec.js';
import { parsePairs } from '../../web/lab/pairs.js';
import { isHeldOutKey } from '../../web/data/common.js';
import { isHeldOut as isHeldOutDate } from '../../web/data/dates.js';
import { Tokenizer } from '../../wasm/model/tokenizer.js';
import { TRANSLATION_NORMALIZE } from '../../web/data/translation.js';
import { normalizeSteps, normalizeWords } from '../../wasm/model/normalize.js';

const TRANSLATION_STEPS = normalizeSteps(TRANSLATION_NORMALIZE);

const BUILT_IN = ['copy', 'reverse', 'sort', 'addition', 'dates', 'translation'];
const RANGES = {
  copy: [3, 14],
  reverse: [5, 20],
  sort: [2, 9],
  addition: [1, 4],
  dates: [6, 28],
  translation: [3, 8],
};
const spec = (name, o = {}) => ({
  name,
  minLength: RANGES[name][0],
  maxLength: RANGES[name][1],
  size: 0,
  level: 'auto',
  seed: 7,
  ...o,
});
const rev = (s) => [...s].reverse().join('');

const CUSTOM_TEXT = Array.from({ length: 300 }, (_, i) => {
  const w = ['red', 'green', 'blue', 'cat', 'dog', 'big', 'small'];
  const src = `${w[i % 7]} ${w[(i * 3) % 7]}${i % 3 ? ` ${w[(i * 5) % 7]}` : ''} ${i}`;
  return `${src}\t${src.split(' ').reverse().join(' ')}`;
}).join('\n');

/** Whether a training pair of task t would be held out (the task's documented split key). */
function heldOutKey(name, p) {
  if (name === 'copy' || name === 'reverse') {
    const r = rev(p.src);
    return isHeldOutKey(p.src < r ? p.src : r);
  }
  if (name === 'dates') {
    const [y, m, d] = p.tgt.split('-').map(Number);
    return isHeldOutDate(y, m, d);
  }
  if (name === 'translation') {
    // translation.js: the sentence's tokens without a final mark
    const tokens = normalizeWords(p.src, TRANSLATION_STEPS);
    return isHeldOutKey(
      (['.', '?', '!'].includes(tokens.at(-1)) ? tokens.slice(0, -1) : tokens).join(' '),
    );
  }
  return isHeldOutKey(p.src);
}

test('every task name of the spec has a task', () => {
  assert.deepEqual(Object.keys(TASK_INFO).sort(), [...TASK_NAMES].sort());
});

test('batch(step, size) is a pure function of (task spec, step, size): same on a fresh task, differs by step and seed', () => {
  for (const name of BUILT_IN) {
    const a = makeTask(spec(name));
    const b = makeTask(spec(name));
    for (const step of [0, 1, 17, 999]) {
      assert.deepEqual(a.batch(step, 8), b.batch(step, 8), `${name} step ${step}`);
      assert.deepEqual(a.batch(step, 8), a.batch(step, 8), `${name} twice`);
    }
    // out of order calls give the same batches (no hidden state)
    const later = a.batch(5, 4);
    a.batch(2, 4);
    assert.deepEqual(a.batch(5, 4), later);
    assert.notDeepEqual(a.batch(0, 8), a.batch(1, 8), name);
    assert.notDeepEqual(makeTask(spec(name, { seed: 8 })).batch(0, 8), a.batch(0, 8), name);
    assert.equal(a.batch(3, 32).length, 32);
    assert.deepEqual(a.heldout, b.heldout, `${name}: held-out set`);
    assert.deepEqual(a.example, b.example);
  }
});

test('held-out pairs never appear in training, by construction (split keys) and in practice', () => {
  for (const name of BUILT_IN) {
    const t = makeTask(spec(name));
    const held = new Set(t.heldout.map((p) => p.src));
    for (const p of t.heldout)
      assert.ok(heldOutKey(name, p), `${name}: held-out pair ${p.src} has a held-out key`);
    for (let step = 0; step < (name === 'translation' ? 20 : 100); step++) {
      for (const p of t.batch(step, 32)) {
        assert.ok(!held.has(p.src), `${name}: ${p.src} in a batch and held out`);
        assert.ok(!heldOutKey(name, p), `${name}: training pair ${p.src} has a held-out key`);
      }
    }
  }
});

test('the held-out set covers every input length of the range, ≤ 40 per length, ≤ 800 in all, distinct', () => {
  for (const name of BUILT_IN) {
    for (const [lo, hi] of [RANGES[name], TASK_INFO[name].lengths]) {
      if (name === 'translation' && hi === 30) continue; // the full range is slow to draw: covered below
      const t = makeTask(spec(name, { minLength: lo, maxLength: hi }));
      const per = new Map();
      for (const p of t.heldout) per.set(t.lengthOf(p.src), (per.get(t.lengthOf(p.src)) ?? 0) + 1);
      const want = [];
      for (let n = lo; n <= hi; n++) want.push(n);
      assert.deepEqual(
        [...per.keys()].sort((a, b) => a - b),
        want,
        `${name} ${lo}–${hi}: every length`,
      );
      assert.deepEqual(t.lengths, want);
      assert.ok(t.heldout.length <= MAX_HELDOUT, `${name}: ${t.heldout.length}`);
      for (const [n, c] of per)
        assert.ok(c >= 1 && c <= MAX_HELDOUT_PER_LENGTH, `${name} length ${n}: ${c}`);
      assert.equal(
        new Set(t.heldout.map((p) => p.src)).size,
        t.heldout.length,
        `${name}: distinct`,
      );
    }
  }
});

test('translation over its whole range 3–30 words: every length held out', () => {
  const t = makeTask(spec('translation', { minLength: 3, maxLength: 30 }));
  assert.deepEqual(
    [...new Set(t.heldout.map((p) => t.lengthOf(p.src)))].sort((a, b) => a - b),
    t.lengths,
  );
  assert.equal(t.lengths.length, 28);
});

test('batches stay in the length range and the targets are right', () => {
  for (const name of BUILT_IN) {
    const t = makeTask(spec(name));
    const [lo, hi] = RANGES[name];
    const seen = new Set();
    for (let step = 0; step < 30; step++) {
      for (const p of t.batch(step, 32)) {
        const n = t.lengthOf(p.src);
        seen.add(n);
        assert.ok(n >= lo && n <= hi, `${name}: length ${n} of ${p.src}`);
        if (name === 'copy') assert.equal(p.tgt, p.src);
        if (name === 'reverse') assert.equal(p.tgt, rev(p.src));
        if (name === 'sort') assert.equal(p.tgt, [...p.src].sort().join(''));
        if (name === 'addition') {
          const [a, b] = p.src.split('+');
          assert.match(p.src, /^(0|[1-9]\d*)\+(0|[1-9]\d*)$/);
          assert.equal(BigInt(p.tgt), BigInt(a) + BigInt(b));
          assert.ok(a.length >= lo && b.length >= lo);
        }
        if (name === 'dates') assert.match(p.tgt, /^\d{4}-\d{2}-\d{2}$/);
      }
    }
    if (name !== 'dates' && name !== 'translation')
      assert.equal(seen.size, hi - lo + 1, `${name}: every length trained`);
  }
  assert.equal(addDigits('999', '1'), '1000');
  assert.equal(addDigits('0', '0'), '0');
  assert.equal(addDigits('123', '45'), '168');
});

test('the tokenizers cover the data: no pair of a batch or the held-out set reads an unknown token', () => {
  for (const name of BUILT_IN) {
    const t = makeTask(spec(name));
    const tok = new Tokenizer(t.tokenizer);
    assert.equal(t.level, name === 'translation' ? 'word' : 'char');
    assert.equal(t.tokenizer.type, t.level);
    for (const key of ['bos', 'eos', 'unk', 'pad'])
      assert.equal(typeof t.tokenizer[key], 'string', `${name}.${key}`);
    const unkSrc = t.tokenizer.srcVocab.indexOf(t.tokenizer.unk);
    const unkTgt = t.tokenizer.tgtVocab.indexOf(t.tokenizer.unk);
    for (const p of [...t.batch(0, 64), ...t.heldout]) {
      const src = [...tok.encode(p.src)];
      const tgt = [...tok.encodeTarget(p.tgt)];
      assert.ok(!src.includes(unkSrc), `${name}: unknown source token in ${p.src}`);
      if (unkTgt >= 0)
        assert.ok(!tgt.includes(unkTgt), `${name}: unknown target token in ${p.tgt}`);
      assert.ok(
        src.length <= t.maxSource,
        `${name}: ${src.length} source tokens > maxSource ${t.maxSource}`,
      );
      assert.ok(
        tgt.length <= t.maxTarget + 1,
        `${name}: ${tgt.length} target tokens > maxTarget ${t.maxTarget} (+ eos)`,
      );
    }
    assert.ok(t.heldout.includes(t.example), `${name}: the example is a held-out pair`);
  }
});

test('size > 0: batches sample from a fixed training set of that many pairs', () => {
  for (const name of ['reverse', 'addition', 'dates']) {
    const t = makeTask(spec(name, { size: 50 }));
    const all = new Set();
    for (let step = 0; step < 200; step++) for (const p of t.batch(step, 16)) all.add(p.src);
    assert.ok(all.size <= 50, `${name}: ${all.size} distinct sources from a set of 50`);
    assert.ok(all.size >= 40, `${name}: batches reach most of the set (${all.size})`);
    assert.deepEqual(t.batch(3, 16), makeTask(spec(name, { size: 50 })).batch(3, 16));
    const fresh = makeTask(spec(name));
    const many = new Set();
    for (let step = 0; step < 20; step++) for (const p of fresh.batch(step, 16)) many.add(p.src);
    assert.ok(many.size > 50, `${name}: size 0 is a fresh stream`);
  }
});

test('streamSeed mixes seed and step into distinct 32-bit seeds', () => {
  const seen = new Set();
  for (let s = 0; s < 30; s++) for (let k = -1; k < 30; k++) seen.add(streamSeed(s, k));
  assert.equal(seen.size, 30 * 31);
  for (const v of seen) assert.ok(Number.isInteger(v) && v >= 0 && v < 2 ** 32);
});

test('custom pairs: word level auto, vocabulary from the pairs, hash split, lengths in tokens', () => {
  const { pairs, level } = parsePairs(CUSTOM_TEXT);
  assert.equal(level, 'word');
  const t = makeTask(
    { name: 'custom', minLength: 1, maxLength: 200, size: 0, level: 'auto', seed: 3 },
    pairs,
  );
  assert.equal(t.level, 'word');
  assert.equal(t.tokenizer.type, 'word');
  const held = new Set(t.heldout.map((p) => p.src));
  assert.ok(held.size > 0);
  for (const p of t.heldout) assert.ok(isHeldOutKey(p.src));
  for (let step = 0; step < 50; step++)
    for (const p of t.batch(step, 16)) assert.ok(!held.has(p.src));
  assert.deepEqual(
    t.lengths,
    [...new Set(t.heldout.map((p) => t.lengthOf(p.src)))].sort((a, b) => a - b),
  );
  assert.equal(t.lengthOf('red green 7'), 3);
  assert.equal(t.maxSource, Math.max(...pairs.map((p) => tokensOf(p.src, 'word').length)));
  const tok = new Tokenizer(t.tokenizer);
  const unk = t.tokenizer.srcVocab.indexOf('<unk>');
  for (const p of pairs) assert.ok(![...tok.encode(p.src)].includes(unk));
  // char level when asked, length range filters by source tokens
  const c = makeTask(
    { name: 'custom', minLength: 1, maxLength: 12, size: 0, level: 'char', seed: 3 },
    pairs,
  );
  assert.equal(c.level, 'char');
  for (let step = 0; step < 20; step++)
    for (const p of c.batch(step, 8)) assert.ok([...p.src].length <= 12);
  assert.deepEqual(
    c.batch(4, 8),
    makeTask(
      { name: 'custom', minLength: 1, maxLength: 12, size: 0, level: 'char', seed: 3 },
      pairs,
    ).batch(4, 8),
  );
});

test('custom pairs too few for the hash split still hold one out; none gives empty batches, no throw', () => {
  const pairs = [
    { src: 'ab', tgt: 'ba' },
    { src: 'cd', tgt: 'dc' },
    { src: 'ef', tgt: 'fe' },
  ];
  const t = makeTask(
    { name: 'custom', minLength: 1, maxLength: 200, size: 0, level: 'auto', seed: 1 },
    pairs,
  );
  assert.equal(t.heldout.length, 1);
  for (const p of t.batch(0, 10)) assert.notEqual(p.src, t.heldout[0].src);
  const empty = makeTask(
    { name: 'custom', minLength: 1, maxLength: 200, size: 0, level: 'auto', seed: 1 },
    [],
  );
  assert.deepEqual(empty.batch(0, 4), []);
  assert.deepEqual(empty.heldout, []);
});

// quickly: the batch's draws are bounded (tasks.js tries); the time is printed, not asserted, and
// the test's timeout bounds a hang
test('dates: a narrow length range still gives whole batches, quickly', { timeout: 60000 }, () => {
  for (const [lo, hi] of [
    [28, 28],
    [6, 6],
    [17, 18],
  ]) {
    const t = makeTask(spec('dates', { minLength: lo, maxLength: hi }));
    const t0 = performance.now();
    const b = t.batch(0, 32);
    assert.equal(b.length, 32, `${lo}–${hi}`);
    for (const p of b) assert.ok(t.lengthOf(p.src) >= lo && t.lengthOf(p.src) <= hi);
    console.log(`${lo}–${hi}: ${(performance.now() - t0).toFixed(0)} ms`);
    assert.deepEqual(
      t.lengths,
      Array.from({ length: hi - lo + 1 }, (_, i) => lo + i),
    );
  }
});
