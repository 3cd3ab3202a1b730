// lab-pairs.test.js: the lab's pasted / dropped pairs (web/lab/pairs.js): TSV and CSV, RFC 4180
// quotes, every PairsError problem with its line, the level choice, and that big or hostile
// pastes finish fast (linear time, no hang).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  parsePairs,
  PairsError,
  PAIRS_PROBLEMS,
  MAX_PAIRS,
  MAX_LINE,
  MAX_INPUT,
  pairsHash,
} from '../../web/lab/pairs.js';

/** The PairsError parsePairs throws for input (fails when it returns). */
function errorOf(input, options) {
  try {
    parsePairs(input, options);
  } catch (e) {
    assert.ok(e instanceof PairsError, `a PairsError, not ${e}`);
    assert.ok(PAIRS_PROBLEMS.includes(e.problem), e.problem);
    assert.equal(typeof e.message, 'string');
    if (e.line !== null)
      assert.match(e.message, new RegExp(`line ${e.line}\\b`), 'the message names the line');
    return e;
  }
  assert.fail('parsePairs returned instead of throwing');
}

test('TSV: pairs in order, tabs detected, trailing newline and blank lines ignored', () => {
  const r = parsePairs('abc\tcba\n\nhello\tolleh\n');
  assert.deepEqual(r.pairs, [
    { src: 'abc', tgt: 'cba' },
    { src: 'hello', tgt: 'olleh' },
  ]);
  assert.equal(r.format, 'tsv');
  assert.equal(r.level, 'char');
  assert.equal(r.lines, 3);
  assert.equal(r.header, false);
});

test('TSV fields are literal: quotes and commas are data', () => {
  const r = parsePairs('say "hi", please\t"bonjour", merci\n');
  assert.deepEqual(r.pairs, [{ src: 'say "hi", please', tgt: '"bonjour", merci' }]);
});

test('CSV with RFC 4180 quotes: "" is a quote, commas and line breaks inside quotes are data', () => {
  const text = 'a,b\n"x, y","he said ""no"""\n"two\nlines",ok\n';
  const r = parsePairs(text);
  assert.equal(r.format, 'csv');
  assert.deepEqual(r.pairs, [
    { src: 'a', tgt: 'b' },
    { src: 'x, y', tgt: 'he said "no"' },
    { src: 'two\nlines', tgt: 'ok' },
  ]);
  // a row after a quoted line break is numbered by its own physical line
  const e = errorOf('"two\nlines",ok\nbad\n');
  assert.equal(e.problem, 'ragged');
  assert.equal(e.line, 3);
});

test('a BOM, CRLF and lone CR line ends', () => {
  const r = parsePairs('\uFEFFab\tba\r\ncd\tdc\r\nef\tfe\rgh\thg');
  assert.deepEqual(
    r.pairs.map((p) => p.src),
    ['ab', 'cd', 'ef', 'gh'],
  );
  assert.equal(r.pairs[0].src, 'ab', 'no BOM left in the first field');
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('été\tsummer\r\n')]);
  assert.deepEqual(parsePairs(bytes).pairs, [{ src: 'été', tgt: 'summer' }]);
});

test('a header row of column names is skipped', () => {
  const r = parsePairs('input,output\n1,one\n');
  assert.equal(r.header, true);
  assert.deepEqual(r.pairs, [{ src: '1', tgt: 'one' }]);
  assert.equal(parsePairs('dog,chien\n').header, false);
});

test('level: auto picks word when most outputs hold a space, else char; an explicit level wins', () => {
  assert.equal(parsePairs('a b\tc d\ne\tf g\ng\th\n').level, 'word');
  assert.equal(parsePairs('a b\tc d\ne\tf\ng\th\n').level, 'char');
  assert.equal(parsePairs('a\tb\n', { level: 'word' }).level, 'word');
  assert.equal(parsePairs('a b\tc d\n', { level: 'char' }).level, 'char');
});

test('every problem names its line: ragged, empty input, empty output, too long, invalid UTF-8, quotes, too many, none', () => {
  let e = errorOf('ab\tba\ncd\tdc\textra\n');
  assert.deepEqual([e.problem, e.line], ['ragged', 2]);
  e = errorOf('ab\tba\n\nonly one field\n');
  assert.deepEqual([e.problem, e.line], ['ragged', 3]);
  e = errorOf('ab\tba\n\tdc\n');
  assert.deepEqual([e.problem, e.line], ['empty-input', 2]);
  e = errorOf('ab\tba\ncd\tdc\nef\t  \n');
  assert.deepEqual([e.problem, e.line], ['empty-output', 3]);
  e = errorOf('a,b\n"c",""\n');
  assert.deepEqual([e.problem, e.line], ['empty-output', 2]);
  e = errorOf(`ab\tba\n${'x'.repeat(60)}\ty\n`, { maxLength: 50 });
  assert.deepEqual([e.problem, e.line], ['too-long', 2]);
  e = errorOf(`ab\tba\n${'x'.repeat(MAX_LINE + 1)}\ty\n`);
  assert.deepEqual([e.problem, e.line], ['too-long', 2]);
  e = errorOf('a,b\n"open,b\nc,d\n');
  assert.deepEqual([e.problem, e.line], ['unterminated-quote', 2]);
  e = errorOf('a,b\n"q"x,b\n');
  assert.deepEqual([e.problem, e.line], ['bad-quote', 2]);
  e = errorOf('a\tb\nc\td\ne\tf\n', { maxPairs: 2 });
  assert.deepEqual([e.problem, e.line], ['too-many', 3]);
  e = errorOf('\n\n   \n');
  assert.deepEqual([e.problem, e.line], ['no-pairs', null]);
  e = errorOf('');
  assert.deepEqual([e.problem, e.line], ['no-pairs', null]);
  e = errorOf('input\toutput\n');
  assert.equal(e.problem, 'no-pairs', 'a header alone is no pairs');
});

test('invalid UTF-8 bytes: the line of the first bad byte, for each kind of bad sequence', () => {
  const enc = (s) => [...new TextEncoder().encode(s)];
  const cases = [
    [0xff], // never valid
    [0xc3], // a lead byte without its continuation (then a newline)
    [0x80], // a lone continuation byte
    [0xc0, 0xaf], // overlong '/'
    [0xed, 0xa0, 0x80], // a UTF-16 surrogate
  ];
  for (const bad of cases) {
    const bytes = new Uint8Array([...enc('ab\tba\ncd\tdc\nx'), ...bad, ...enc('\ty\n')]);
    const e = errorOf(bytes);
    assert.deepEqual(
      [e.problem, e.line],
      ['invalid-utf8', 3],
      `bytes ${bad.map((b) => b.toString(16))}`,
    );
  }
  assert.deepEqual(parsePairs(new Uint8Array(enc('日本\t🙂\n'))).pairs, [
    { src: '日本', tgt: '🙂' },
  ]);
  assert.deepEqual(
    parsePairs(new Uint8Array(enc('a\tb\n')).buffer).pairs,
    [{ src: 'a', tgt: 'b' }],
    'an ArrayBuffer too',
  );
});

// "fast" below: the time is printed, not asserted (a busy machine stretches it); the test's
// timeout bounds a hang (a regular expression gone quadratic or worse).
test('50,000 pairs parse fast; one more is too many (at its line)', { timeout: 60000 }, () => {
  const lines = [];
  for (let i = 0; i < MAX_PAIRS; i++) lines.push(`${i}+${i}\t${2 * i}`);
  const text = `${lines.join('\n')}\n`;
  const t0 = performance.now();
  const r = parsePairs(text);
  const ms = performance.now() - t0;
  assert.equal(r.pairs.length, MAX_PAIRS);
  assert.deepEqual(r.pairs[MAX_PAIRS - 1], {
    src: `${MAX_PAIRS - 1}+${MAX_PAIRS - 1}`,
    tgt: String(2 * (MAX_PAIRS - 1)),
  });
  console.log(`50,000 pairs took ${ms.toFixed(0)} ms`);
  const e = errorOf(`${text}x\ty\n`);
  assert.deepEqual([e.problem, e.line], ['too-many', MAX_PAIRS + 1]);
});

test(
  'a 10 MB garbage paste finishes fast with a PairsError (text and bytes, with and without line breaks)',
  { timeout: 120000 },
  () => {
    const n = 10 * 1024 * 1024;
    let x = 12345;
    const rnd = () => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return x >>> 8;
    };
    const bytes = new Uint8Array(n);
    for (let i = 0; i < n; i++) bytes[i] = rnd() & 0xff;
    const ascii = new Uint8Array(n);
    for (let i = 0; i < n; i++) ascii[i] = 32 + (rnd() % 95);
    const oneLine = new TextDecoder().decode(ascii);
    const manyLines = oneLine.replace(/[#@]/g, '\n');
    const quotes = `a,"${'b'.repeat(n)}`;
    const fields = Array.from({ length: 200000 }, () => 'x,y,z').join('\n');
    for (const [name, input] of [
      ['random bytes', bytes],
      ['one 10 MB line', oneLine],
      ['many lines', manyLines],
      ['an unclosed quote', quotes],
      ['ragged rows', fields],
      ['only commas', ','.repeat(n)],
      ['only newlines', '\n'.repeat(n)],
    ]) {
      const t0 = performance.now();
      const e = errorOf(input, { maxInput: 2 * n }); // past the default cap: the scan itself
      const ms = performance.now() - t0;
      console.log(`${name}: ${ms.toFixed(0)} ms`);
      assert.ok(e.problem, name);
    }
  },
);

test(
  'a 4 MiB paste of valid short rows is rejected as too many pairs, fast',
  { timeout: 60000 },
  () => {
    const text = 'ab\tba\n'.repeat(Math.floor(MAX_INPUT / 6));
    const t0 = performance.now();
    const e = errorOf(text);
    assert.equal(e.problem, 'too-many');
    assert.equal(e.line, MAX_PAIRS + 1);
    console.log(`valid short rows: ${(performance.now() - t0).toFixed(0)} ms`);
  },
);

test('pairsHash: 16 hex digits, stable, sensitive to content and order', () => {
  const a = [
    { src: 'a', tgt: 'b' },
    { src: 'c', tgt: 'd' },
  ];
  assert.match(pairsHash(a), /^[0-9a-f]{16}$/);
  assert.equal(pairsHash(a), pairsHash(a.map((p) => ({ ...p }))));
  assert.notEqual(pairsHash(a), pairsHash([a[1], a[0]]));
  assert.notEqual(
    pairsHash(a),
    pairsHash([
      { src: 'a', tgt: 'b' },
      { src: 'c', tgt: 'e' },
    ]),
  );
  assert.notEqual(
    pairsHash(a),
    pairsHash(
      [
        { src: 'a\tb', tgt: 'c' },
        { src: 'd', tgt: '' },
      ].slice(0, 1),
    ),
  );
});

test('a short first pair that looks like column letters is data, not a header', () => {
  assert.deepEqual(parsePairs('x\ty\nin\tout\n').pairs, [
    { src: 'x', tgt: 'y' },
    { src: 'in', tgt: 'out' },
  ]);
  assert.equal(parsePairs('Source,Target\nhi,salut\n').header, true);
});
