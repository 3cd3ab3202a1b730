// attnlab/web/data/dates.js: the seeded "human date → ISO date" data set of the dates models
// (docs/training.md), shared by scripts/train.mjs and the page. ESM, no DOM, no dependencies:
// runs in Node and browsers.
//
//   import { generateDates, DATES_TOKENIZER } from './data/dates.js';
//   generateDates({ seed: 1, count: 3, split: 'train' });
//   // [{ src: 'Sunday, 22 November 2026', tgt: '2026-11-22', format: 'weekday-d-month-y' }, ...]
//
// Dates: every day from 1950-01-01 to 2049-12-31 (the proleptic Gregorian calendar), so that a
// two-digit year is never ambiguous: yy >= 50 is 19yy, yy < 50 is 20yy.
// Split: a date is held out when hash(yyyymmdd) % 10 == 0 (a 32-bit integer mix, `isHeldOut`),
// about 10% of the 36,524 days. 'train' draws only other dates and 'heldout' only those, so the
// two splits are disjoint by construction, whatever the seeds and counts.
// Randomness: mulberry32 seeded with the seed (never Math.random), one stream per call: the same
// { seed, count, split } gives the same pairs everywhere.
// Formats: FORMATS below (16), drawn uniformly; each maps (y, m, d, weekday) to a string.
// Not here: tokenisation into ids (wasm/model/tokenizer.js does it with DATES_TOKENIZER).

export const YEAR_MIN = 1950;
export const YEAR_MAX = 2049;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
  'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const pad2 = (n) => String(n).padStart(2, '0');
const yy = (y) => pad2(y % 100);
const ordinal = (d) => {
  const s = d % 100 >= 11 && d % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][d % 10] ?? 'th';
  return `${d}${d % 10 > 3 ? 'th' : s}`;
};
const mon = (m) => MONTHS[m - 1].slice(0, 3);
const monDot = (m) => (m === 5 ? 'May' : `${mon(m)}.`);

/** The formats: name → (year, month 1-12, day 1-31, weekday 0-6 = Sunday-Saturday) → text. */
export const FORMATS = Object.freeze({
  'weekday-d-month-y': (y, m, d, w) => `${WEEKDAYS[w]}, ${d} ${MONTHS[m - 1]} ${y}`,     // Sunday, 22 November 2026
  'us-slash-yy': (y, m, d) => `${m}/${d}/${yy(y)}`,                                        // 11/22/26
  'ordinal-of-mon-y': (y, m, d) => `${ordinal(d)} of ${monDot(m)} ${y}`,                  // 22nd of Nov. 2026
  'y-m-d-spaces': (y, m, d) => `${y} ${pad2(m)} ${pad2(d)}`,                              // 2026 11 22
  'mon-d-y': (y, m, d) => `${mon(m)} ${d}, ${y}`,                                          // Nov 22, 2026
  'd.m.y': (y, m, d) => `${pad2(d)}.${pad2(m)}.${y}`,                                      // 22.11.2026
  'month-ordinal-y': (y, m, d) => `${MONTHS[m - 1]} ${ordinal(d)}, ${y}`,                 // November 22nd, 2026
  'd-month-y': (y, m, d) => `${d} ${MONTHS[m - 1]} ${y}`,                                  // 22 November 2026
  'y/m/d': (y, m, d) => `${y}/${pad2(m)}/${pad2(d)}`,                                      // 2026/11/22
  'wkd-d-mon-y': (y, m, d, w) => `${WEEKDAYS[w].slice(0, 3)} ${d} ${mon(m)} ${y}`,        // Sun 22 Nov 2026
  'd-m-y-dashes': (y, m, d) => `${pad2(d)}-${pad2(m)}-${y}`,                               // 22-11-2026
  'MONTH-d-y': (y, m, d) => `${MONTHS[m - 1].toUpperCase()} ${d}, ${y}`,                  // NOVEMBER 22, 2026
  'weekday-month-d-y': (y, m, d, w) => `${WEEKDAYS[w]}, ${MONTHS[m - 1]} ${d}, ${y}`,     // Sunday, November 22, 2026
  'd-mon-yy': (y, m, d) => `${d} ${mon(m)} ${yy(y)}`,                                      // 22 Nov 26
  'the-ordinal-of-month-y': (y, m, d) => `the ${ordinal(d)} of ${MONTHS[m - 1]}, ${y}`,   // the 22nd of November, 2026
  'lower-d-month-y': (y, m, d) => `${d} ${MONTHS[m - 1].toLowerCase()} ${y}`,             // 22 november 2026
});
const FORMAT_NAMES = Object.keys(FORMATS);

/** Every character any format can produce, sorted (the source vocabulary after the specials). */
function sourceChars() {
  const set = new Set();
  const add = (s) => { for (const c of s) set.add(c); };
  for (const f of Object.values(FORMATS)) {
    for (let m = 1; m <= 12; m++) for (const d of [1, 2, 3, 4, 11, 22, 30]) add(f(1987, m, d, m % 7));
    for (let w = 0; w < 7; w++) add(f(2026, 5, 17, w));
  }
  for (let i = 0; i < 10; i++) add(String(i));
  return [...set].sort();
}

/** The tokenizer of every dates model (a char tokenizer, docs/models.md). */
export const DATES_TOKENIZER = Object.freeze({
  type: 'char',
  srcVocab: ['<pad>', '<unk>', ...sourceChars()],
  tgtVocab: ['<pad>', '<s>', '</s>', ...'0123456789-'],
  pad: '<pad>',
  bos: '<s>',
  eos: '</s>',
  unk: '<unk>',
});

/** mulberry32: a 32-bit seeded PRNG → a function giving floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
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

const DAY0 = Date.UTC(YEAR_MIN, 0, 1) / 86400000;
const DAYS = Date.UTC(YEAR_MAX + 1, 0, 1) / 86400000 - DAY0;

/** The date at day index i (0 = YEAR_MIN-01-01): [y, m, d, weekday]. */
function dateAt(i) {
  const t = new Date((DAY0 + i) * 86400000);
  return [t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate(), t.getUTCDay()];
}

/**
 * Seeded pairs { src, tgt, format }: src a date in a human format, tgt its ISO form yyyy-mm-dd.
 * @param {{ seed?: number, count?: number, split?: 'train' | 'heldout', formats?: string[] }} [options]
 * @returns {{ src: string, tgt: string, format: string }[]}
 */
export function generateDates({ seed = 0, count = 1000, split = 'train', formats = FORMAT_NAMES } = {}) {
  if (split !== 'train' && split !== 'heldout') throw new Error(`generateDates: split must be 'train' or 'heldout', not ${split}`);
  if (!Number.isInteger(count) || count < 0) throw new Error(`generateDates: count must be a non-negative integer, not ${count}`);
  for (const f of formats) if (!(f in FORMATS)) throw new Error(`generateDates: unknown format '${f}' (known: ${FORMAT_NAMES.join(', ')})`);
  // a different stream per split, so train and held-out samples of one seed are unrelated
  const rand = mulberry32((seed >>> 0) ^ (split === 'heldout' ? 0x9E3779B9 : 0));
  const want = split === 'heldout';
  const out = [];
  while (out.length < count) {
    const [y, m, d, w] = dateAt(Math.floor(rand() * DAYS));
    const f = formats[Math.floor(rand() * formats.length)];
    if (isHeldOut(y, m, d) !== want) continue;
    out.push({ src: FORMATS[f](y, m, d, w), tgt: `${y}-${pad2(m)}-${pad2(d)}`, format: f });
  }
  return out;
}
