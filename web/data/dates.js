// attnlab/web/data/dates.js: the seeded "human date → ISO date" data set of the dates models
// (docs/training.md), shared by scripts/train.mjs and the page. ESM, no DOM, no dependencies:
// runs in Node and browsers.
//
//   import { generateDates, datesDomain, DATES_TOKENIZER } from './data/dates.js';
//   generateDates({ seed: 1, count: 3, split: 'train' });
//   // [{ src: 'Sunday, 22 November 2026', tgt: '2026-11-22', format: 'weekday-d-month-y' }, ...]
//   generateDates({ seed: 1, count: 3, split: 'heldout', set: 'variations' });
//   // [{ src: 'nov. 22ND  2026', tgt: '2026-11-22', format: 'v-month-day-year' }, ...]
//   datesDomain('22 Nov 3050');   // [{ code: 'year-range', year: 3050, min: 1000, max: 2999 }]
//   datesDomain('31 Feb 2026');   // [{ code: 'no-such-day', year: 2026, month: 2, day: 31 }]
//
// Dates: every day of 1000-01-01 … 2999-12-31 in the proleptic Gregorian calendar (days counted
// with civilFromDays / daysFromCivil below, not with Date, so the calendar is ours and tested).
// Two-digit years are read with the POSIX pivot (strptime's %y): 69–99 → 1969–1999, 00–68 →
// 2000–2068; a format that writes a two-digit year therefore only ever gets dates of 1969–2068
// (drawn uniformly there), every other format dates drawn uniformly from the whole range.
// Split: a date is held out when hash(yyyymmdd) % 10 == 0 (a 32-bit integer mix, `isHeldOut`),
// about 10% of the 730,485 days. 'train' draws only other dates and 'heldout' only those, so the
// two splits are disjoint by construction, whatever the seeds, counts and sets.
// Sets: 'named' draws one of FORMATS (18) uniformly; 'variations' one of VARIATIONS (14, what
// people type: any letter case, commas or none, doubled and stray spaces, ordinals with and
// without "the" / "of", abbreviations with and without a dot, "Sept", weekdays in front,
// unpadded numbers, two-digit years, 22-Nov-2026); 'all' (training) a named format or a
// variation with probability 1/2 each. The cards report the held-out metrics per set.
// Randomness: mulberry32 seeded with the seed (never Math.random), one stream per (seed, split,
// set): the same options give the same pairs everywhere.
// Normalisation: DATES_TOKENIZER lowercases and squeezes whitespace before lookup
// (wasm/model/normalize.js), so the models see lowercase text with single spaces; the generator
// still writes the case and spaces people type.
// Not here: tokenisation into ids (wasm/model/tokenizer.js does it with DATES_TOKENIZER).

export const YEAR_MIN = 1000;
export const YEAR_MAX = 2999;
/** The POSIX pivot: a two-digit year yy is 19yy when yy >= 69, else 20yy. */
export const PIVOT = 69;
export const TWO_DIGIT_MIN = 1969;
export const TWO_DIGIT_MAX = 2068;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const pad2 = (n) => String(n).padStart(2, '0');
const yy = (y) => pad2(y % 100);
const ordinal = (d) => {
  const s = d % 100 >= 11 && d % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][d % 10] ?? 'th');
  return `${d}${d % 10 > 3 ? 'th' : s}`;
};
const mon = (m) => MONTHS[m - 1].slice(0, 3);
const monDot = (m) => (m === 5 ? 'May' : `${mon(m)}.`);

/** A two-digit year as the models read it (the POSIX pivot): 69 → 1969, 68 → 2068. */
export function pivotYear(twoDigits) {
  return twoDigits >= PIVOT ? 1900 + twoDigits : 2000 + twoDigits;
}

// ---- the calendar (proleptic Gregorian; H. Hinnant's days_from_civil / civil_from_days) ----

/** Days since 1970-01-01 of the proleptic Gregorian date y-m-d (m 1-12). */
export function daysFromCivil(y, m, d) {
  const yr = m <= 2 ? y - 1 : y;
  const era = Math.floor(yr / 400);
  const yoe = yr - era * 400; // [0, 399]
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1; // [0, 365]
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The date of day z (days since 1970-01-01): [y, m 1-12, d 1-31, weekday 0-6 = Sunday-Saturday]. */
export function civilFromDays(z) {
  const zz = z + 719468;
  const era = Math.floor(zz / 146097);
  const doe = zz - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return [y, m, d, (((z + 4) % 7) + 7) % 7]; // 1970-01-01 was a Thursday
}

/** The weekday of y-m-d, 0-6 = Sunday-Saturday. */
export const weekdayOf = (y, m, d) => civilFromDays(daysFromCivil(y, m, d))[3];

// ---- the named formats ----

/** The formats: name → (year, month 1-12, day 1-31, weekday 0-6 = Sunday-Saturday) → text. */
export const FORMATS = Object.freeze({
  'weekday-d-month-y': (y, m, d, w) => `${WEEKDAYS[w]}, ${d} ${MONTHS[m - 1]} ${y}`, // Sunday, 22 November 2026
  'us-slash-yy': (y, m, d) => `${m}/${d}/${yy(y)}`, // 11/22/26
  'ordinal-of-mon-y': (y, m, d) => `${ordinal(d)} of ${monDot(m)} ${y}`, // 22nd of Nov. 2026
  'y-m-d-spaces': (y, m, d) => `${y} ${pad2(m)} ${pad2(d)}`, // 2026 11 22
  'mon-d-y': (y, m, d) => `${mon(m)} ${d}, ${y}`, // Nov 22, 2026
  'd.m.y': (y, m, d) => `${pad2(d)}.${pad2(m)}.${y}`, // 22.11.2026
  'month-ordinal-y': (y, m, d) => `${MONTHS[m - 1]} ${ordinal(d)}, ${y}`, // November 22nd, 2026
  'd-month-y': (y, m, d) => `${d} ${MONTHS[m - 1]} ${y}`, // 22 November 2026
  'y/m/d': (y, m, d) => `${y}/${pad2(m)}/${pad2(d)}`, // 2026/11/22
  'wkd-d-mon-y': (y, m, d, w) => `${WEEKDAYS[w].slice(0, 3)} ${d} ${mon(m)} ${y}`, // Sun 22 Nov 2026
  'd-m-y-dashes': (y, m, d) => `${pad2(d)}-${pad2(m)}-${y}`, // 22-11-2026
  'MONTH-d-y': (y, m, d) => `${MONTHS[m - 1].toUpperCase()} ${d}, ${y}`, // NOVEMBER 22, 2026
  'weekday-month-d-y': (y, m, d, w) => `${WEEKDAYS[w]}, ${MONTHS[m - 1]} ${d}, ${y}`, // Sunday, November 22, 2026
  'd-mon-yy': (y, m, d) => `${d} ${mon(m)} ${yy(y)}`, // 22 Nov 26
  'the-ordinal-of-month-y': (y, m, d) => `the ${ordinal(d)} of ${MONTHS[m - 1]}, ${y}`, // the 22nd of November, 2026
  'lower-d-month-y': (y, m, d) => `${d} ${MONTHS[m - 1].toLowerCase()} ${y}`, // 22 november 2026
  iso: (y, m, d) => `${y}-${pad2(m)}-${pad2(d)}`, // 2026-11-22
  'us-slash-y': (y, m, d) => `${m}/${d}/${y}`, // 11/22/2026
});
const FORMAT_NAMES = Object.keys(FORMATS);
/** The named formats that write a two-digit year (their dates lie in 1969–2068). */
export const TWO_DIGIT_FORMATS = Object.freeze(['us-slash-yy', 'd-mon-yy']);

// ---- the variations ----

const pick = (rand, list) => list[Math.floor(rand() * list.length)];
const chance = (rand, p) => rand() < p;

function monthWord(rand, m) {
  const full = MONTHS[m - 1];
  const forms = [full, full, mon(m), mon(m), monDot(m)];
  if (m === 9) forms.push('Sept', 'Sept.');
  return pick(rand, forms);
}
function weekdayWord(rand, w) {
  const full = WEEKDAYS[w];
  const forms = [full, full.slice(0, 3), `${full.slice(0, 3)}.`];
  if (w === 2) forms.push('Tues', 'Tues.');
  if (w === 4) forms.push('Thurs', 'Thurs.', 'Thu');
  return pick(rand, forms);
}
/** An optional weekday in front: '' or 'Sunday, ' / 'Sun ' / 'sun. ' … */
const weekdayPrefix = (rand, w) =>
  chance(rand, 0.3) ? `${weekdayWord(rand, w)}${chance(rand, 0.5) ? ',' : ''} ` : '';
const comma = (rand) => (chance(rand, 0.5) ? ',' : '');
const dayNum = (rand, d) => (chance(rand, 0.2) ? pad2(d) : String(d));
const numPart = (rand, n) => (chance(rand, 0.5) ? pad2(n) : String(n));

/**
 * The variations: name → { twoDigit, make(rand, y, m, d, w, year) → text }, `year` being the year
 * as written (four digits, or two when twoDigit). Case and spacing are applied afterwards.
 */
export const VARIATIONS = Object.freeze({
  // 22 Nov 2026, Sun, 22 november, 2026, 05 Sept. 2026
  'v-day-month-year': {
    twoDigit: false,
    make: (r, y, m, d, w) =>
      `${weekdayPrefix(r, w)}${dayNum(r, d)} ${monthWord(r, m)}${comma(r)} ${y}`,
  },
  // the 22nd of Nov 2026, 22nd November 2026, the 22nd November, 2026
  'v-ordinal-month-year': {
    twoDigit: false,
    make: (r, y, m, d, w) =>
      `${weekdayPrefix(r, w)}${chance(r, 0.5) ? 'the ' : ''}${ordinal(d)}${chance(r, 0.5) ? ' of' : ''} ${monthWord(r, m)}${comma(r)} ${y}`,
  },
  // November 22 2026, Nov. 22nd, 2026, Sept 5, 2026
  'v-month-day-year': {
    twoDigit: false,
    make: (r, y, m, d, w) =>
      `${weekdayPrefix(r, w)}${monthWord(r, m)} ${chance(r, 0.5) ? ordinal(d) : dayNum(r, d)}${comma(r)} ${y}`,
  },
  // November the 22nd, 2026
  'v-month-the-ordinal-year': {
    twoDigit: false,
    make: (r, y, m, d, w) =>
      `${weekdayPrefix(r, w)}${monthWord(r, m)} the ${ordinal(d)}${comma(r)} ${y}`,
  },
  // 22 Nov 26, Nov 22, 26 (two-digit years: the POSIX pivot)
  'v-day-month-yy': {
    twoDigit: true,
    make: (r, y, m, d, w) =>
      `${weekdayPrefix(r, w)}${dayNum(r, d)} ${monthWord(r, m)}${comma(r)} ${y}`,
  },
  'v-month-day-yy': {
    twoDigit: true,
    make: (r, y, m, d, w) => `${weekdayPrefix(r, w)}${monthWord(r, m)} ${dayNum(r, d)}, ${y}`,
  },
  // 22-Nov-2026, 05-sept-26 (spreadsheets)
  'v-d-mon-y-dashes': {
    twoDigit: false,
    make: (r, y, m, d) =>
      `${dayNum(r, d)}-${chance(r, 0.8) ? mon(m) : monthWord(r, m).replace('.', '')}-${y}`,
  },
  'v-d-mon-yy-dashes': {
    twoDigit: true,
    make: (r, y, m, d) =>
      `${dayNum(r, d)}-${chance(r, 0.8) ? mon(m) : monthWord(r, m).replace('.', '')}-${y}`,
  },
  // 11/22/2026, 01/05/2026, 1/5/26 (US order)
  'v-us-slash': { twoDigit: false, make: (r, y, m, d) => `${numPart(r, m)}/${numPart(r, d)}/${y}` },
  'v-us-slash-yy': {
    twoDigit: true,
    make: (r, y, m, d) => `${numPart(r, m)}/${numPart(r, d)}/${y}`,
  },
  // 5.1.2026, 22.11.26, 5-1-2026 (day first)
  'v-d.m.y': { twoDigit: false, make: (r, y, m, d) => `${numPart(r, d)}.${numPart(r, m)}.${y}` },
  'v-d.m.yy': { twoDigit: true, make: (r, y, m, d) => `${numPart(r, d)}.${numPart(r, m)}.${y}` },
  'v-d-m-y': { twoDigit: false, make: (r, y, m, d) => `${numPart(r, d)}-${numPart(r, m)}-${y}` },
  // 2026-1-5, 2026/1/5, 2026.11.22, 2026 1 5 (year first)
  'v-y-m-d': {
    twoDigit: false,
    make: (r, y, m, d) => {
      const sep = pick(r, ['-', '/', '.', ' ']);
      return `${y}${sep}${numPart(r, m)}${sep}${numPart(r, d)}`;
    },
  },
});
const VARIATION_NAMES = Object.keys(VARIATIONS);

/** Letter case as people type it: as written, lower, upper, title case, or random per letter. */
function recase(rand, s) {
  const k = Math.floor(rand() * 5);
  if (k === 0) return s;
  if (k === 1) return s.toLowerCase();
  if (k === 2) return s.toUpperCase();
  if (k === 3) return s.toLowerCase().replace(/(^|\s)([a-z])/g, (_, a, b) => a + b.toUpperCase());
  let out = '';
  for (const c of s) out += chance(rand, 0.5) ? c.toUpperCase() : c.toLowerCase();
  return out;
}
/** Spacing as people type it: sometimes a doubled space, a leading or a trailing one. */
function respace(rand, s) {
  let out = s;
  if (chance(rand, 0.35)) out = out.replace(/ /g, () => (chance(rand, 0.5) ? '  ' : ' '));
  if (chance(rand, 0.1)) out = ` ${out}`;
  if (chance(rand, 0.1)) out = `${out} `;
  return out;
}

// ---- the tokenizer ----

/** Every character the models read (normalised: lowercase, single spaces), sorted. */
function sourceChars() {
  const set = new Set();
  const add = (s) => {
    for (const c of s.toLowerCase()) set.add(c);
  };
  MONTHS.forEach(add);
  WEEKDAYS.forEach(add);
  ['the', 'of', 'st', 'nd', 'rd', 'th', 'sept', 'tues', 'thurs', '0123456789', ' ,./-'].forEach(
    add,
  );
  for (const f of Object.values(FORMATS)) for (let m = 1; m <= 12; m++) add(f(1987, m, 22, m % 7));
  return [...set].sort();
}

/** The tokenizer of every dates model (a char tokenizer, docs/models.md; normalised input). */
export const DATES_TOKENIZER = Object.freeze({
  type: 'char',
  srcVocab: ['<pad>', '<unk>', ...sourceChars()],
  tgtVocab: ['<pad>', '<s>', '</s>', ...'0123456789-'],
  pad: '<pad>',
  bos: '<s>',
  eos: '</s>',
  unk: '<unk>',
  normalize: ['nfc', 'quotes', 'lowercase', 'whitespace'],
});

/**
 * The longest source the models take, in characters after normalisation: the generator writes at
 * most 38 ("wednesday, the 23rd of september, 2026": a long weekday, "the", an ordinal, "of",
 * September, a comma and a four-digit year), so the models never saw longer input and the page
 * warns beyond it (datesDomain's 'too-long'); the transformers' position tables cover it.
 */
export const DATES_MAX_LENGTH = 40;

// ---- randomness, split ----

/** mulberry32: a 32-bit seeded PRNG → a function giving floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit integer mix of yyyymmdd (lowbias32). */
function hashDate(y, m, d) {
  let x = (y * 10000 + m * 100 + d) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x ^= x >>> 16;
  return x >>> 0;
}

/** True when the date belongs to the held-out split (hash % 10 == 0). */
export function isHeldOut(y, m, d) {
  return hashDate(y, m, d) % 10 === 0;
}

const DAY_FIRST = daysFromCivil(YEAR_MIN, 1, 1);
const DAY_LAST = daysFromCivil(YEAR_MAX, 12, 31);
const DAY_FIRST_YY = daysFromCivil(TWO_DIGIT_MIN, 1, 1);
const DAY_LAST_YY = daysFromCivil(TWO_DIGIT_MAX, 12, 31);

const SET_SALT = { named: 0, variations: 0x85ebca6b, all: 0xc2b2ae35 };

/**
 * Seeded pairs { src, tgt, format }: src a date in a human format, tgt its ISO form yyyy-mm-dd.
 * set: 'named' (FORMATS, the default), 'variations' (VARIATIONS) or 'all' (either, 1/2 each);
 * formats: names of FORMATS and VARIATIONS to draw from instead (uniformly).
 * @param {{ seed?: number, count?: number, split?: 'train' | 'heldout', set?: 'named' | 'variations' | 'all', formats?: string[] }} [options]
 * @returns {{ src: string, tgt: string, format: string }[]}
 */
export function generateDates({
  seed = 0,
  count = 1000,
  split = 'train',
  set = 'named',
  formats,
} = {}) {
  if (split !== 'train' && split !== 'heldout')
    throw new Error(`generateDates: split must be 'train' or 'heldout', not ${split}`);
  if (!Number.isInteger(count) || count < 0)
    throw new Error(`generateDates: count must be a non-negative integer, not ${count}`);
  if (!(set in SET_SALT))
    throw new Error(`generateDates: set must be 'named', 'variations' or 'all', not ${set}`);
  if (formats) {
    for (const f of formats)
      if (!(f in FORMATS) && !(f in VARIATIONS))
        throw new Error(
          `generateDates: unknown format '${f}' (known: ${[...FORMAT_NAMES, ...VARIATION_NAMES].join(', ')})`,
        );
  }
  // a different stream per split and set, so the samples of one seed are unrelated
  const rand = mulberry32((seed >>> 0) ^ (split === 'heldout' ? 0x9e3779b9 : 0) ^ SET_SALT[set]);
  const want = split === 'heldout';
  const out = [];
  while (out.length < count) {
    let f;
    if (formats) f = formats[Math.floor(rand() * formats.length)];
    else if (set === 'named' || (set === 'all' && rand() < 0.5))
      f = FORMAT_NAMES[Math.floor(rand() * FORMAT_NAMES.length)];
    else f = VARIATION_NAMES[Math.floor(rand() * VARIATION_NAMES.length)];
    const named = f in FORMATS;
    const two = named ? TWO_DIGIT_FORMATS.includes(f) : VARIATIONS[f].twoDigit;
    const [lo, hi] = two ? [DAY_FIRST_YY, DAY_LAST_YY] : [DAY_FIRST, DAY_LAST];
    const [y, m, d, w] = civilFromDays(lo + Math.floor(rand() * (hi - lo + 1)));
    if (isHeldOut(y, m, d) !== want) continue;
    const src = named
      ? FORMATS[f](y, m, d, w)
      : respace(rand, recase(rand, VARIATIONS[f].make(rand, two ? yy(y) : String(y), m, d, w)));
    out.push({ src, tgt: `${y}-${pad2(m)}-${pad2(d)}`, format: f });
  }
  return out;
}

// ---- the domain of the models ----

const VOCAB = new Set(DATES_TOKENIZER.srcVocab.slice(2));
const MONTH_WORD = /(?<![a-z])(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/;
const MONTH_KEYS = [
  'jan',
  'feb',
  'mar',
  'apr',
  'may',
  'jun',
  'jul',
  'aug',
  'sep',
  'oct',
  'nov',
  'dec',
];

/** Days in month m (1-12) of year y, proleptic Gregorian. */
export const daysInMonth = (y, m) =>
  daysFromCivil(m === 12 ? y + 1 : y, m === 12 ? 1 : m + 1, 1) - daysFromCivil(y, m, 1);

/**
 * The year, month and day an input writes, read the way the formats write them, or null:
 * the year as yearOf(); with a month name, the first number under three digits is the day;
 * without, year-first when a number of three or more digits comes first, month/day with
 * slashes, day.month (or day-month) otherwise.
 */
function partsOf(s, runs) {
  const year = yearOf(s);
  if (year === null) return null;
  const named = s.match(MONTH_WORD);
  if (named) {
    const day = runs.find((r) => r.length <= 2);
    return day === undefined
      ? null
      : { year, month: MONTH_KEYS.indexOf(named[1]) + 1, day: Number(day) };
  }
  if (runs.length !== 3) return null;
  const [a, b, c] = runs.map(Number);
  if (runs[0].length >= 3) return { year, month: b, day: c };
  return s.includes('/') ? { year, month: a, day: b } : { year, month: b, day: a };
}

/**
 * What about a typed input lies outside what the dates models learned, as a list of problems
 * ([] when none), so the page can say so beside the output instead of showing a confident wrong
 * date. Pure: no model needed. Codes, in this order:
 *   { code: 'too-long', length, max }       more characters (after squeezing spaces) than the
 *                                             models were trained on (maxLength, default DATES_MAX_LENGTH)
 *   { code: 'no-digits' }                   no digit at all: there is no date to read
 *   { code: 'year-range', year, min, max }  the year as the formats write it (a run of three or
 *                                             more digits) is outside YEAR_MIN–YEAR_MAX
 *   { code: 'no-year' }                     digits, but no year: fewer than three numbers and no
 *                                             month name with two, or only one number
 *   { code: 'no-such-day', year, month, day }  the input names a day the calendar does not have
 *                                             (31 February, month 13); the models never learned
 *                                             month lengths and answer such dates confidently
 *   { code: 'no-day', year }                 a year, but no day: a month name without a day
 *                                             number ("Nov 2026"), or fewer than three numbers
 *                                             ("11/2026", "2026"); the models always write a day
 *   { code: 'weekday-mismatch', year, month, day, written, actual }  the input names a weekday
 *                                             (written, 0-6 = Sunday-Saturday) that the date it
 *                                             writes is not (actual): the models read the numbers
 *                                             and ignore the weekday
 *   { code: 'unknown-characters', chars }   characters (after lowercasing) the models never saw
 * Two-digit years (the last of three numbers, or of two beside a month name) read with the POSIX
 * pivot and are always in range.
 * @param {string} text
 * @param {{ maxLength?: number }} [options]
 * @returns {({ code: string } & Record<string, any>)[]}
 */
export function datesDomain(text, { maxLength = DATES_MAX_LENGTH } = {}) {
  const s = String(text).normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
  const problems = [];
  if (s.length > maxLength) problems.push({ code: 'too-long', length: s.length, max: maxLength });
  const runs = s.match(/\d+/g) ?? [];
  if (runs.length === 0) problems.push({ code: 'no-digits' });
  else {
    const year = yearOf(s);
    if (year === null) problems.push({ code: 'no-year' });
    else if (
      (runs.find((r) => r.length >= 3)?.length ?? 2) > 4 ||
      year < YEAR_MIN ||
      year > YEAR_MAX
    ) {
      problems.push({ code: 'year-range', year, min: YEAR_MIN, max: YEAR_MAX });
    } else {
      const p = partsOf(s, runs);
      if (p && (p.month < 1 || p.month > 12 || p.day < 1 || p.day > daysInMonth(p.year, p.month)))
        problems.push({ code: 'no-such-day', ...p });
      // no parts with a year: a month name without a short number, or one or two numbers (more
      // than three numbers without a month name is not read as a date at all)
      else if (!p && (MONTH_WORD.test(s) || runs.length < 3))
        problems.push({ code: 'no-day', year });
      else if (p) {
        const written = weekdayWritten(s);
        const actual = weekdayOf(p.year, p.month, p.day);
        if (written !== null && written !== actual)
          problems.push({ code: 'weekday-mismatch', ...p, written, actual });
      }
    }
  }
  const unknown = [...new Set([...s].filter((c) => !VOCAB.has(c)))];
  if (unknown.length) problems.push({ code: 'unknown-characters', chars: unknown });
  return problems;
}

/**
 * The weekday an input names (0-6 = Sunday-Saturday: a word of three or more letters that begins
 * its name, as "sun", "tues", "thurs", "wednesday"), or null when it names none.
 */
function weekdayWritten(s) {
  for (const word of s.match(/[a-z]{3,}/g) ?? []) {
    const w = WEEKDAYS.findIndex((name) => name.toLowerCase().startsWith(word));
    if (w >= 0) return w;
  }
  return null;
}

/** The year an input writes, as the models read it (three or more digits as is, two with the pivot), or null. */
export function yearOf(text) {
  const s = String(text).toLowerCase();
  const runs = s.match(/\d+/g) ?? [];
  const long = runs.find((r) => r.length >= 3);
  if (long !== undefined) return Number(long);
  if (runs.length >= 3 || (runs.length === 2 && MONTH_WORD.test(s)))
    return pivotYear(Number(runs[runs.length - 1]) % 100);
  return null;
}
