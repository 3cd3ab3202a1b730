// data-dates.test.js: the dates generator (web/data/dates.js): the proleptic Gregorian calendar
// against known answers, Zeller's congruence and the engine's Date; the POSIX pivot of two-digit
// years; disjoint seeded splits; every named format and variation writing a date that a small
// independent reader (below) reads back to the target; the tokenizer covering every character;
// datesDomain's codes.
// readDate: tests/js/dates-reader.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  generateDates,
  datesDomain,
  yearOf,
  pivotYear,
  isHeldOut,
  civilFromDays,
  daysFromCivil,
  weekdayOf,
  daysInMonth,
  FORMATS,
  VARIATIONS,
  TWO_DIGIT_FORMATS,
  DATES_TOKENIZER,
  DATES_MAX_LENGTH,
  YEAR_MIN,
  YEAR_MAX,
} from '../../web/data/dates.js';
import { readDate } from './dates-reader.js';

/** Zeller's congruence for the Gregorian calendar, 0-6 = Sunday-Saturday. */
function zeller(y, m, d) {
  const mm = m < 3 ? m + 12 : m;
  const yy = m < 3 ? y - 1 : y;
  const K = yy % 100,
    J = Math.floor(yy / 100);
  const h =
    (d + Math.floor((13 * (mm + 1)) / 5) + K + Math.floor(K / 4) + Math.floor(J / 4) + 5 * J) % 7; // 0 = Saturday
  return (h + 6) % 7;
}

const norm = (s) => s.toLowerCase().replace(/\s+/g, ' ').trim();

test('calendar: known weekdays, Zeller and Date agree on every day of 1000-2999', () => {
  // [y, m, d, weekday]: proleptic Gregorian (1066-10-14 was a Saturday in the Julian calendar,
  // so a Sunday in the proleptic Gregorian one, whose dates run six days later then)
  for (const [y, m, d, w] of [
    [2026, 11, 22, 0],
    [2000, 1, 1, 6],
    [1969, 7, 20, 0],
    [1776, 7, 4, 4],
    [1582, 10, 15, 5],
    [1066, 10, 14, 0],
    [1066, 10, 20, 6],
    [1000, 1, 1, 3],
    [2999, 12, 31, 2],
    [1900, 3, 1, 4],
    [2000, 2, 29, 2],
    [2400, 2, 29, 2],
  ]) {
    assert.equal(weekdayOf(y, m, d), w, `${y}-${m}-${d}`);
  }
  const first = daysFromCivil(YEAR_MIN, 1, 1),
    last = daysFromCivil(YEAR_MAX, 12, 31);
  assert.equal(last - first + 1, 730485);
  let prev = null;
  for (let z = first; z <= last; z++) {
    const [y, m, d, w] = civilFromDays(z);
    assert.equal(daysFromCivil(y, m, d), z);
    if (z % 97 === 0 || d === 29) {
      // a sample, and every 29th (leap days)
      assert.equal(w, zeller(y, m, d), `${y}-${m}-${d}`);
      const t = new Date(Date.UTC(y, m - 1, d));
      assert.deepEqual(
        [t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate(), t.getUTCDay()],
        [y, m, d, w],
      );
    }
    if (prev)
      assert.ok(
        d === prev[2] + 1 || (d === 1 && (m === prev[1] + 1 || (m === 1 && y === prev[0] + 1))),
      );
    prev = [y, m, d];
  }
  // leap years: 1900 and 2100 are not, 2000 and 1600 are
  assert.deepEqual(civilFromDays(daysFromCivil(1900, 2, 28) + 1).slice(0, 3), [1900, 3, 1]);
  assert.deepEqual(civilFromDays(daysFromCivil(1600, 2, 28) + 1).slice(0, 3), [1600, 2, 29]);
  assert.deepEqual(civilFromDays(daysFromCivil(2100, 2, 28) + 1).slice(0, 3), [2100, 3, 1]);
});

test('two-digit years: the POSIX pivot (69-99 → 19yy, 00-68 → 20yy)', () => {
  assert.equal(pivotYear(69), 1969);
  assert.equal(pivotYear(99), 1999);
  assert.equal(pivotYear(0), 2000);
  assert.equal(pivotYear(68), 2068);
  assert.equal(yearOf('12/31/68'), 2068);
  assert.equal(yearOf('1 Jan 69'), 1969);
  const two = [
    ...TWO_DIGIT_FORMATS,
    ...Object.keys(VARIATIONS).filter((v) => VARIATIONS[v].twoDigit),
  ];
  const years = generateDates({ seed: 3, count: 4000, formats: two }).map((p) =>
    Number(p.tgt.slice(0, 4)),
  );
  assert.ok(years.every((y) => y >= 1969 && y <= 2068));
  assert.ok(
    Math.min(...years) === 1969 && Math.max(...years) === 2068,
    'the whole pivot window is drawn',
  );
});

test('seeded, disjoint splits; years uniform over 1000-2999', () => {
  for (const set of ['named', 'variations', 'all']) {
    assert.deepEqual(
      generateDates({ seed: 4, count: 50, set }),
      generateDates({ seed: 4, count: 50, set }),
    );
    const train = generateDates({ seed: 4, count: 3000, set });
    const held = generateDates({ seed: 4, count: 1000, split: 'heldout', set });
    for (const p of train) assert.ok(!isHeldOut(...p.tgt.split('-').map(Number)));
    for (const p of held) assert.ok(isHeldOut(...p.tgt.split('-').map(Number)));
    const heldDates = new Set(held.map((p) => p.tgt));
    assert.ok(train.every((p) => !heldDates.has(p.tgt)));
  }
  assert.notDeepEqual(
    generateDates({ seed: 4, count: 20, split: 'heldout', set: 'named' }).map((p) => p.tgt),
    generateDates({ seed: 4, count: 20, split: 'heldout', set: 'variations' }).map((p) => p.tgt),
  );
  const held = generateDates({ seed: 2024, count: 20000, split: 'heldout', formats: ['iso'] });
  const byCentury = new Array(20).fill(0);
  for (const p of held) byCentury[Math.floor(Number(p.tgt.slice(0, 4)) / 100) - 10]++;
  for (const n of byCentury) assert.ok(n > 800 && n < 1200, `per century: ${byCentury}`);
  assert.equal(
    new Set(generateDates({ seed: 4, count: 3000 }).map((p) => p.format)).size,
    Object.keys(FORMATS).length,
  );
  assert.equal(
    new Set(generateDates({ seed: 4, count: 3000, set: 'variations' }).map((p) => p.format)).size,
    Object.keys(VARIATIONS).length,
  );
  const all = generateDates({ seed: 4, count: 2000, set: 'all' });
  const named = all.filter((p) => p.format in FORMATS).length;
  assert.ok(named > 900 && named < 1100, `named ${named} of 2000`);
  assert.throws(() => generateDates({ set: 'weird' }), /set must be/);
  assert.throws(() => generateDates({ formats: ['nope'] }), /unknown format 'nope'/);
});

test('every format and variation writes its target date; known renderings', () => {
  assert.equal(Object.keys(FORMATS).length, 18);
  assert.equal(FORMATS['weekday-d-month-y'](2026, 11, 22, 0), 'Sunday, 22 November 2026');
  assert.equal(FORMATS.iso(1066, 10, 14, 0), '1066-10-14');
  assert.equal(FORMATS['us-slash-y'](1776, 7, 4, 4), '7/4/1776');
  assert.equal(FORMATS['ordinal-of-mon-y'](1001, 5, 3, 0), '3rd of May 1001');
  const vocab = new Set(DATES_TOKENIZER.srcVocab);
  let longest = 0,
    cased = 0,
    spaced = 0,
    ordinalNoOf = 0,
    ordinalOf = 0,
    noComma = 0;
  for (const set of ['named', 'variations']) {
    for (const p of generateDates({ seed: 11, count: 20000, set })) {
      assert.equal(readDate(p.src), p.tgt, `${p.format}: '${p.src}'`);
      const n = norm(p.src);
      for (const ch of n) assert.ok(vocab.has(ch), `'${ch}' of '${p.src}' in the vocabulary`);
      longest = Math.max(longest, n.length);
      assert.deepEqual(datesDomain(p.src), [], p.src);
      assert.equal(yearOf(p.src), Number(p.tgt.slice(0, 4)), p.src);
      // the weekday, when written, is the date's
      const w = n.match(/^(sun|mon|tue|wed|thu|fri|sat)/);
      if (w) {
        const [y, m, d] = p.tgt.split('-').map(Number);
        assert.equal(
          ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].indexOf(w[1]),
          weekdayOf(y, m, d),
          p.src,
        );
      }
      if (set === 'variations') {
        if (/[A-Z]/.test(p.src) && /[a-z]/.test(p.src.slice(1))) cased++;
        if (/ {2}|^ | $/.test(p.src)) spaced++;
        if (/\d(st|nd|rd|th) of /i.test(p.src)) ordinalOf++;
        if (/\d(st|nd|rd|th) [a-z]/i.test(p.src)) ordinalNoOf++;
        if (/[a-z] \d+ \d{4}/i.test(p.src)) noComma++;
      }
    }
  }
  assert.ok(longest <= DATES_MAX_LENGTH, `longest source ${longest}`);
  for (const [what, n] of Object.entries({ cased, spaced, ordinalOf, ordinalNoOf, noComma }))
    assert.ok(n > 200, `${what}: ${n}`);
});

test('the tokenizer normalises case and spaces; only lowercase source characters', () => {
  assert.deepEqual(DATES_TOKENIZER.normalize, ['nfc', 'quotes', 'lowercase', 'whitespace']);
  assert.ok(
    DATES_TOKENIZER.srcVocab.slice(2).every((c) => c === c.toLowerCase() && c.length === 1),
  );
  assert.ok(!DATES_TOKENIZER.srcVocab.includes('  '));
});

test('datesDomain: the problems of an input, with details', () => {
  assert.deepEqual(datesDomain('22 Nov 2026'), []);
  assert.deepEqual(datesDomain('  SUNDAY,  22  NOVEMBER  2026 '), []);
  assert.deepEqual(datesDomain('11/22/26'), []);
  assert.deepEqual(datesDomain('1000-01-01'), []);
  assert.deepEqual(datesDomain('2999-12-31'), []);
  assert.deepEqual(datesDomain('22 Nov 3050'), [
    { code: 'year-range', year: 3050, min: YEAR_MIN, max: YEAR_MAX },
  ]);
  assert.deepEqual(datesDomain('0999-12-31'), [
    { code: 'year-range', year: 999, min: YEAR_MIN, max: YEAR_MAX },
  ]);
  assert.deepEqual(datesDomain('5 may 999'), [
    { code: 'year-range', year: 999, min: YEAR_MIN, max: YEAR_MAX },
  ]);
  assert.deepEqual(datesDomain('1 Jan 12026'), [
    { code: 'year-range', year: 12026, min: YEAR_MIN, max: YEAR_MAX },
  ]);
  assert.deepEqual(datesDomain('tomorrow'), [{ code: 'no-digits' }]);
  assert.deepEqual(datesDomain(''), [{ code: 'no-digits' }]);
  assert.deepEqual(datesDomain('the 22nd of November'), [{ code: 'no-year' }]);
  assert.deepEqual(datesDomain('11/22'), [{ code: 'no-year' }]);
  assert.deepEqual(datesDomain('22 Nov 2026 at 5:30pm'), [
    { code: 'unknown-characters', chars: [':'] },
  ]); // letters of the months are known
  assert.deepEqual(datesDomain('Q4 2026'), [
    { code: 'no-day', year: 2026 },
    { code: 'unknown-characters', chars: ['q'] },
  ]);
  assert.deepEqual(datesDomain('22 Nov 2026 @ 5:30'), [
    { code: 'unknown-characters', chars: ['@', ':'] },
  ]);
  const long = 'Wednesday, the 23rd of September, 2026, in the afternoon';
  assert.deepEqual(datesDomain(long), [
    { code: 'too-long', length: long.length, max: DATES_MAX_LENGTH },
  ]);
  assert.deepEqual(datesDomain('22 Nov 2026', { maxLength: 5 }), [
    { code: 'too-long', length: 11, max: 5 },
  ]);
  // spaces are squeezed before counting, as the tokenizer does
  assert.deepEqual(datesDomain(`  22    Nov    2026${' '.repeat(60)}`), []);
  // days the calendar does not have, read the way the formats write them
  assert.deepEqual(datesDomain('31 February 2026'), [
    { code: 'no-such-day', year: 2026, month: 2, day: 31 },
  ]);
  assert.deepEqual(datesDomain('29 Feb 1900'), [
    { code: 'no-such-day', year: 1900, month: 2, day: 29 },
  ]);
  assert.deepEqual(datesDomain('29 Feb 2000'), []);
  assert.deepEqual(datesDomain('2/29/2100'), [
    { code: 'no-such-day', year: 2100, month: 2, day: 29 },
  ]);
  assert.deepEqual(datesDomain('31.04.1999'), [
    { code: 'no-such-day', year: 1999, month: 4, day: 31 },
  ]);
  assert.deepEqual(datesDomain('2026-13-01'), [
    { code: 'no-such-day', year: 2026, month: 13, day: 1 },
  ]);
  assert.deepEqual(datesDomain('the 0th of May, 2026'), [
    { code: 'no-such-day', year: 2026, month: 5, day: 0 },
  ]);
  assert.deepEqual(datesDomain('11/31/26'), [
    { code: 'no-such-day', year: 2026, month: 11, day: 31 },
  ]);
  // a year but no day: the models always write one
  assert.deepEqual(datesDomain('Nov 2026'), [{ code: 'no-day', year: 2026 }]);
  assert.deepEqual(datesDomain('2026 november'), [{ code: 'no-day', year: 2026 }]);
  assert.deepEqual(datesDomain('11/2026'), [{ code: 'no-day', year: 2026 }]);
  assert.deepEqual(datesDomain('1492'), [{ code: 'no-day', year: 1492 }]);
  // a weekday the date is not (22 November 2026 is a Sunday, 1 January 1970 a Thursday, 4 July
  // 1776 a Thursday, 1 January 1000 a Wednesday in the proleptic Gregorian calendar)
  assert.deepEqual(datesDomain('Monday, 22 November 2026'), [
    { code: 'weekday-mismatch', year: 2026, month: 11, day: 22, written: 1, actual: 0 },
  ]);
  assert.deepEqual(datesDomain('SAT 11/22/26'), [
    { code: 'weekday-mismatch', year: 2026, month: 11, day: 22, written: 6, actual: 0 },
  ]);
  assert.deepEqual(datesDomain('tues. 4 July 1776'), [
    { code: 'weekday-mismatch', year: 1776, month: 7, day: 4, written: 2, actual: 4 },
  ]);
  for (const quiet of [
    'Sunday, 22 November 2026',
    'sun 22 nov 2026',
    'thu, 1/1/70',
    'Thurs. July 4th, 1776',
    'wednesday 1 january 1000',
    'the 22nd of November, 2026',
  ]) {
    assert.deepEqual(datesDomain(quiet), [], quiet);
  }
  // every generated date names its own weekday: no warning on any of them
  for (const e of generateDates({ seed: 5, count: 2000, set: 'all' }))
    assert.deepEqual(datesDomain(e.src), [], e.src);
  for (let y = 1000; y <= 2999; y += 7) {
    for (let m = 1; m <= 12; m++) {
      const n = daysInMonth(y, m);
      assert.deepEqual(civilFromDays(daysFromCivil(y, m, 1) + n - 1).slice(0, 3), [y, m, n]);
    }
  }
  // several problems at once, in a fixed order
  assert.deepEqual(
    datesDomain('x'.repeat(50)).map((p) => p.code),
    ['too-long', 'no-digits', 'unknown-characters'],
  );
});
