// lab-limits.test.js: what the lab refuses from untrusted data (issue 33, rows 4–6): pasted
// pairs with a NUL or another control character (line and column named), the size cap (refused
// by length before a character is read), the vocabulary cap (named, at the line where it was
// crossed, per level) and a 20 MB paste of spaces refused by its length alone.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePairs, PairsError, MAX_INPUT, MAX_VOCAB } from '../../web/lab/pairs.js';
import { customTokenizer } from '../../web/lab/tasks.js';

function errorOf(input, options) {
  try {
    parsePairs(input, options);
  } catch (e) {
    assert.ok(e instanceof PairsError, `a PairsError, not ${e}`);
    return e;
  }
  return assert.fail('parsePairs returned instead of throwing');
}

test('row 6: a NUL inside a field is refused at its line and column (TSV, CSV, quoted, bytes)', () => {
  const cases = [
    ['ab\tba\ncd\tx\0y\n', 2, 5],
    ['ab,ba\n\0cd,dc\n', 2, 1],
    ['ab,ba\nef,fe\n"a\nb\0",c\n', 4, 2], // a quoted field spanning lines: the column on its line
    [new TextEncoder().encode('ab\tba\nc\0d\te\n'), 2, 2],
  ];
  for (const [input, line, column] of cases) {
    const e = errorOf(input);
    assert.equal(e.problem, 'control-char');
    assert.deepEqual([e.line, e.column], [line, column], JSON.stringify(String(input)));
    assert.match(e.message, new RegExp(`line ${line}, column ${column}: a NUL`));
  }
});

test('row 6: other control characters are refused by code; tab and line ends are not', () => {
  for (const code of [1, 8, 0x0b, 0x0c, 0x1b, 0x1f, 0x7f]) {
    const ch = String.fromCharCode(code);
    const e = errorOf(`ab\tb${ch}a\n`);
    assert.equal(e.problem, 'control-char');
    assert.deepEqual([e.line, e.column], [1, 5]);
    assert.match(e.message, new RegExp(`U\\+${code.toString(16).toUpperCase().padStart(4, '0')}`));
  }
  assert.equal(parsePairs('a b\tc d\r\ne\tf\n').pairs.length, 2);
});

test('rows 4–5: input over MAX_INPUT is refused by its length, text and bytes', () => {
  const spaces = ' '.repeat(20e6); // the 20 MB of spaces
  const e = errorOf(spaces);
  assert.equal(e.problem, 'too-large');
  assert.equal(e.limit, MAX_INPUT);
  assert.equal(e.line, null);
  assert.match(e.message, /20000000 characters/);
  // the cap is on the length alone: a Uint8Array past it is never decoded (a fatal decoder would
  // call these bytes invalid UTF-8 if it ran)
  const bytes = new Uint8Array(MAX_INPUT + 1).fill(0xff);
  assert.equal(errorOf(bytes).problem, 'too-large');
  // at the cap exactly: read (and refused for what it holds, not for its size)
  assert.equal(errorOf(' '.repeat(MAX_INPUT)).problem, 'too-long');
});

test('row 4: the vocabulary cap, per side and level, at the line where it was crossed', () => {
  // every input character new: char level crosses at pair maxVocab + 1
  const cap = 50;
  const rows = Array.from({ length: 80 }, (_, i) => `${String.fromCodePoint(0x4e00 + i)}\tx`);
  const e = errorOf(rows.join('\n'), { level: 'char', maxVocab: cap });
  assert.equal(e.problem, 'vocab');
  assert.deepEqual([e.line, e.limit], [cap + 1, cap]);
  assert.match(e.message, /inputs hold more than 50 distinct characters/);
  // outputs, word level
  const words = Array.from({ length: 80 }, (_, i) => `a\tw${i} v`);
  const w = errorOf(words.join('\n'), { level: 'word', maxVocab: cap });
  assert.deepEqual([w.problem, w.line], ['vocab', cap]); // 'v' plus w0…w49 → 51 at line 50
  assert.match(w.message, /outputs hold more than 50 distinct words/);
  // one word of 80 distinct characters: over the cap at char level (line 1), one word at word level
  const long = Array.from({ length: 80 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join('');
  const same = Array.from({ length: 10 }, () => `${long}\tx`).join('\n');
  assert.deepEqual(
    [
      errorOf(same, { level: 'char', maxVocab: cap }).line,
      errorOf(same, { level: 'char', maxVocab: cap }).problem,
    ],
    [1, 'vocab'],
  );
  assert.equal(parsePairs(same, { level: 'word', maxVocab: cap }).pairs.length, 10);
  // auto: char picked (no spaces in outputs) → refused for characters
  assert.equal(errorOf(rows.join('\n'), { maxVocab: cap }).problem, 'vocab');
  // the count is the tokenizer's: what parsePairs accepts at the cap builds at most cap tokens
  const ok = parsePairs(rows.slice(0, cap).join('\n'), { level: 'char', maxVocab: cap });
  assert.equal(customTokenizer(ok.pairs, 'char').srcVocab.length - 2, cap);
});

test('row 4: the issue 2.1 MB paste where every character is new is refused, with the default cap', () => {
  let s = '';
  for (let i = 0; i < 300000; i++) {
    const c = String.fromCodePoint(0x10000 + i);
    s += `${c}\t${c}\n`;
  }
  const e = errorOf(s);
  assert.equal(e.problem, 'vocab');
  assert.equal(e.line, MAX_VOCAB + 1);
});
