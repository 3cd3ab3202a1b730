// lab-pairs-fuzz.test.js: parsePairs (web/lab/pairs.js) on inputs nobody wrote by hand (issue 33:
// "checked again on cases you do not see"): seeded random texts and bytes made of the characters
// that matter to a TSV/CSV reader (tabs, commas, quotes, CR, LF, NUL and other controls, BOMs,
// invalid UTF-8, long runs, many distinct characters), and valid files mutated. Every input
// either parses, into pairs that hold what the reader promises (non-empty text, no control
// character, no row longer than the cap, at most the cap of distinct tokens), or is refused by a
// PairsError whose problem is one of PAIRS_PROBLEMS and whose line, when named, is in the input;
// never another exception. The hand-written cases are in lab-pairs*.test.js and lab-limits.test.js.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_LINE, PAIRS_PROBLEMS, PairsError, parsePairs } from '../../web/lab/pairs.js';

/** A small seeded generator (mulberry32): the same cases every run. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'a',
  'b',
  'abc',
  'hello',
  'world',
  '22 Nov 2026',
  '2026-11-22',
  'é',
  '中文',
  '😀',
  '\\',
  ';',
  ' ',
];
const RARE = ['\0', '\u0007', '\u007f', '\ufeff', '\r', '"', '\t', ',']; // hostile pieces

/** Rows of two fields (TSV or CSV, quoted or not) of random pieces; now and then a hostile piece
 * anywhere (a NUL, a control, a BOM, a lone CR, a stray quote, a third field, a run past MAX_LINE). */
function randomText(r) {
  const pick = (list) => list[Math.floor(r() * list.length)];
  const field = () => {
    let f = '';
    for (let k = 1 + Math.floor(r() * 4); k > 0; k--)
      f += r() < 0.9 ? pick(WORDS) : String.fromCodePoint(0x20 + Math.floor(r() * 0x3000));
    return f;
  };
  const csv = r() < 0.3;
  const rows = [];
  for (let n = 1 + Math.floor(r() * 30); n > 0; n--) {
    const [x, y] = [field(), field()];
    rows.push(
      csv
        ? `"${x.replaceAll('"', '""')}",${y.replaceAll(',', ' ').replaceAll('"', '')}`
        : `${x}\t${y}`,
    );
  }
  let text = rows.join(r() < 0.2 ? '\r\n' : '\n');
  for (let k = r() < 0.5 ? 0 : Math.floor(r() * 3); k > 0; k--) {
    const at = Math.floor(r() * (text.length + 1));
    const bad = r() < 0.1 ? 'x'.repeat(1200) : pick(RARE);
    text = text.slice(0, at) + bad + text.slice(at);
  }
  return text;
}

/** A random text's UTF-8 bytes with up to 3 bytes changed at random (invalid UTF-8 included). */
function randomBytes(r) {
  const out = new TextEncoder().encode(randomText(r));
  for (let k = Math.floor(r() * 4); k > 0 && out.length; k--)
    out[Math.floor(r() * out.length)] = Math.floor(r() * 256);
  return out;
}

function check(input, options, what) {
  let r;
  try {
    r = parsePairs(input, options);
  } catch (e) {
    assert.ok(e instanceof PairsError, `${what}: ${e?.name}: ${e?.message}`);
    assert.ok(PAIRS_PROBLEMS.includes(e.problem), `${what}: problem ${e.problem}`);
    const lines = typeof input === 'string' ? input.split(/\r\n|\r|\n/).length : Infinity;
    assert.ok(
      e.line === null || (Number.isInteger(e.line) && e.line >= 1 && e.line <= lines),
      `${what}: line ${e.line} of ${lines}`,
    );
    assert.equal(typeof e.message, 'string');
    return 'refused';
  }
  assert.ok(r.pairs.length > 0, `${what}: parsed, with pairs`);
  if (r.level === 'char' && options.maxVocab) {
    for (const side of ['src', 'tgt']) {
      const distinct = new Set(r.pairs.flatMap((p) => [...p[side]])).size;
      assert.ok(
        distinct <= options.maxVocab,
        `${what}: ${distinct} distinct characters in ${side}`,
      );
    }
  }
  for (const p of r.pairs) {
    for (const s of [p.src, p.tgt]) {
      assert.equal(typeof s, 'string');
      assert.ok(s.length > 0 && s.length <= MAX_LINE, `${what}: a field's length`);
      const control = [...s].some((c) => {
        const k = c.codePointAt(0);
        return (k < 32 && k !== 9 && k !== 10 && k !== 13) || k === 127;
      });
      assert.ok(!control, `${what}: a control character`);
    }
  }
  return 'parsed';
}

test('random texts: parsed into well-formed pairs or refused by a PairsError', () => {
  const r = rng(29);
  const seen = { parsed: 0, refused: 0 };
  for (let i = 0; i < 3000; i++) {
    const level = ['auto', 'char', 'word'][i % 3];
    seen[check(randomText(r), { level, maxVocab: 1 + Math.floor(r() * 40) }, `text ${i}`)]++;
  }
  assert.ok(seen.parsed > 50 && seen.refused > 50, JSON.stringify(seen)); // both paths ran
});

test('random bytes: parsed or refused, invalid UTF-8 included', () => {
  const r = rng(33);
  const seen = { parsed: 0, refused: 0 };
  for (let i = 0; i < 2000; i++) seen[check(randomBytes(r), {}, `bytes ${i}`)]++;
  assert.ok(seen.parsed > 20 && seen.refused > 20, JSON.stringify(seen));
});

test('a valid file mutated: parsed or refused', () => {
  const r = rng(7);
  const base = new TextEncoder().encode(
    Array.from({ length: 40 }, (_, i) => `input ${i}\t"output, ${i}"`).join('\n'),
  );
  for (let i = 0; i < 2000; i++) {
    const b = base.slice(0, Math.floor(r() * base.length) + 1);
    for (let k = 0; k < 1 + Math.floor(r() * 4); k++)
      b[Math.floor(r() * b.length)] = Math.floor(r() * 256);
    check(b, { level: i % 2 ? 'char' : 'word' }, `mutation ${i}`);
  }
});
