// attnlab/web/lab/tasks.js: the lab's tasks (issue #15): copy, reverse, sort, addition, dates,
// translation and custom pairs, each as a seeded, pure data source for a seq2seq or
// encoder-decoder transformer. ESM, no DOM: runs in the page, in workers and in Node.
//
//   import { makeTask } from './tasks.js';
//   const task = makeTask({ name: 'reverse', minLength: 5, maxLength: 20, size: 0, level: 'auto', seed: 1 });
//   task.batch(0, 32);     // [{ src: 'ktbhcq…', tgt: '…qchbtk' }, …]: the same on every run, worker and browser
//   task.heldout;          // ≤ 40 pairs per input length, ≤ 800 in all, never in a batch
//   task.lengthOf('abc');  // 3: the length "accuracy by input length" groups by
//
// Purity: batch(step, size) depends only on (the task spec, step, size): its pairs come from
// mulberry32(streamSeed(seed, step)) (web/data/common.js), never Math.random, so A and B, every
// data-parallel shard and every browser see the same batch. With size > 0 the task first draws a
// fixed training set of `size` pairs (stream step −1) and batches sample from it (with
// replacement); with size 0 every batch is fresh.
// Split: every task keys its examples (copy / reverse: min(s, reverse(s)) as sequences.js; sort,
// addition, custom: the input; dates: the day; translation: the English sentence without its
// final mark, as translation.js) and holds an
// example out when hashString(key) % 10 == 0 (common.js; dates.js's own date hash for dates), so
// training and held-out examples never meet, whatever the seeds and sizes. The held-out set draws
// from the held-out split's own stream, up to 40 distinct pairs per input length of the range (at
// most 800 in all), so the accuracy-by-length curve has every length.
// Lengths: characters for copy, reverse, sort, dates; digits of the longer operand for addition
// (each operand has minLength..maxLength digits); English words (not punctuation) for
// translation; tokens (characters or words, the level) of the input for custom pairs.
// Generators reused: sequences.js (copy, reverse: the alphabet a–t and its tokenizer), dates.js
// (generateDates, named formats, DATES_TOKENIZER), translation.js (generateTranslation, the
// en→fr grammar the shipped translators learned, TRANSLATION_TOKENIZER, word level).
// Not here: the model (spec.js), training (run.js), parsing pasted text (pairs.js).

import { selectPairs } from './pairs-report.js';
import { hashString, isHeldOutKey, mulberry32, randInt } from '../data/common.js';
import { SYMBOLS, SEQUENCES_TOKENIZER } from '../data/sequences.js';
import { DATES_TOKENIZER, generateDates } from '../data/dates.js';
import {
  TRANSLATION_TOKENIZER,
  TRANSLATION_NORMALIZE,
  generateTranslation,
} from '../data/translation.js';
import { normalizeSteps, normalizeWords } from '../../wasm/model/normalize.js';

const TRANSLATION_STEPS = normalizeSteps(TRANSLATION_NORMALIZE);

/** Per task: its level, the allowed input length range and the default range. */
export const TASK_INFO = Object.freeze({
  copy: Object.freeze({ level: 'char', lengths: [2, 60], defaults: [5, 20], unit: 'characters' }),
  reverse: Object.freeze({
    level: 'char',
    lengths: [2, 60],
    defaults: [5, 20],
    unit: 'characters',
  }),
  sort: Object.freeze({ level: 'char', lengths: [2, 60], defaults: [5, 20], unit: 'characters' }),
  addition: Object.freeze({ level: 'char', lengths: [1, 12], defaults: [1, 4], unit: 'digits' }),
  // dates: the named formats write 6 to 29 characters; 29 is too rare (1 in 5,000) to draw batches of
  dates: Object.freeze({ level: 'char', lengths: [6, 28], defaults: [6, 28], unit: 'characters' }),
  translation: Object.freeze({ level: 'word', lengths: [3, 30], defaults: [3, 12], unit: 'words' }),
  custom: Object.freeze({ level: 'auto', lengths: [1, 200], defaults: [1, 200], unit: 'tokens' }),
});

export const MAX_HELDOUT_PER_LENGTH = 40;
export const MAX_HELDOUT = 800;

/** A 32-bit seed for step `step` of the stream `seed` (a lowbias32 mix of both). */
export function streamSeed(seed, step) {
  let x = (seed >>> 0) ^ Math.imul((step + 1) >>> 0, 0x9e3779b1);
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x ^= x >>> 16;
  return x >>> 0;
}

const reverse = (s) => Array.from(s).reverse().join('');
const HELDOUT_SALT = 0x5bd1e995;

/** The addition task's tokenizer: digits and '+' in, digits out. */
export const ADDITION_TOKENIZER = Object.freeze({
  type: 'char',
  srcVocab: Object.freeze(['<pad>', '<unk>', ...'0123456789+']),
  tgtVocab: Object.freeze(['<pad>', '<s>', '</s>', ...'0123456789']),
  pad: '<pad>',
  bos: '<s>',
  eos: '</s>',
  unk: '<unk>',
});

// ---------------------------------------------------------------- the synthetic tasks
// Each source: draw(rand, length) → { src, tgt } of that input length; key(pair) → split key;
// heldout(pair) → bool.

function symbolString(rand, length) {
  let s = '';
  for (let i = 0; i < length; i++) s += SYMBOLS[Math.floor(rand() * SYMBOLS.length)];
  return s;
}

function number(rand, digits) {
  if (digits === 1) return String(Math.floor(rand() * 10));
  let s = String(1 + Math.floor(rand() * 9));
  for (let i = 1; i < digits; i++) s += String(Math.floor(rand() * 10));
  return s;
}

/** The decimal sum of two digit strings (exact for any length). */
export function addDigits(a, b) {
  let out = '';
  let carry = 0;
  for (let i = a.length - 1, j = b.length - 1; i >= 0 || j >= 0 || carry; i--, j--) {
    const d = (i >= 0 ? a.charCodeAt(i) - 48 : 0) + (j >= 0 ? b.charCodeAt(j) - 48 : 0) + carry;
    out = String(d % 10) + out;
    carry = d >= 10 ? 1 : 0;
  }
  return out.replace(/^0+(?=\d)/, '');
}

const SOURCES = {
  copy: {
    draw: (rand, n) => {
      const s = symbolString(rand, n);
      return { src: s, tgt: s };
    },
    heldout: (p) => {
      const r = reverse(p.src);
      return isHeldOutKey(p.src < r ? p.src : r);
    },
    lengthOf: (src) => src.length,
  },
  reverse: {
    draw: (rand, n) => {
      const s = symbolString(rand, n);
      return { src: s, tgt: reverse(s) };
    },
    heldout: (p) => {
      const r = reverse(p.src);
      return isHeldOutKey(p.src < r ? p.src : r);
    },
    lengthOf: (src) => src.length,
  },
  sort: {
    draw: (rand, n) => {
      const s = symbolString(rand, n);
      return { src: s, tgt: Array.from(s).sort().join('') };
    },
    heldout: (p) => isHeldOutKey(p.src),
    lengthOf: (src) => src.length,
  },
  addition: {
    // length n: the longer operand has n digits, the other minLength..n (drawn by the caller's range)
    draw: (rand, n, lo) => {
      const other = randInt(rand, lo, n);
      const [da, db] = rand() < 0.5 ? [n, other] : [other, n];
      const a = number(rand, da),
        b = number(rand, db);
      return { src: `${a}+${b}`, tgt: addDigits(a, b) };
    },
    heldout: (p) => isHeldOutKey(p.src),
    lengthOf: (src) =>
      Math.max(
        ...String(src)
          .split('+')
          .map((x) => x.length),
      ),
  },
};

// ---------------------------------------------------------------- the task object

/**
 * @typedef {{ src: string, tgt: string }} Pair
 * @typedef {{ name: string, minLength: number, maxLength: number, size: number,
 *             level?: 'auto' | 'char' | 'word', seed: number, data?: string | null }} TaskSpec
 * @typedef {{ name: string, level: 'char' | 'word', tokenizer: Record<string, any>,
 *             maxSource: number, maxTarget: number, minLength: number, maxLength: number,
 *             batch(step: number, size: number): Pair[], heldout: Pair[], example: Pair,
 *             lengths: number[], lengthOf(src: string): number, trainCount: number }} Task
 */

/** How many held-out pairs per length: ≤ 40 each, ≤ 800 in all, at least 1. */
export function heldoutPerLength(lengthCount) {
  return Math.max(
    1,
    Math.min(MAX_HELDOUT_PER_LENGTH, Math.floor(MAX_HELDOUT / Math.max(1, lengthCount))),
  );
}

/** The length of the middle of the range that the held-out set has, and its first pair there. */
function pickExample(heldout, lengthOf, lo, hi) {
  const mid = Math.round((lo + hi) / 2);
  let best = heldout[0];
  let bestD = Infinity;
  for (const p of heldout) {
    const d = Math.abs(lengthOf(p.src) - mid);
    if (d < bestD) {
      best = p;
      bestD = d;
    }
  }
  return best;
}

/** Batches from a draw function of the training split: fresh per step, or from a fixed set. */
function batcher(seed, size, drawTrain) {
  let fixed = null;
  const fixedSet = () => {
    if (!fixed) {
      const rand = mulberry32(streamSeed(seed, -1));
      fixed = drawTrain(rand, size);
    }
    return fixed;
  };
  return {
    batch(step, n) {
      const count = Math.max(0, Math.floor(n));
      const rand = mulberry32(streamSeed(seed, Math.floor(step)));
      if (size > 0) {
        const set = fixedSet();
        const out = [];
        for (let i = 0; i < count; i++) out.push(set[Math.floor(rand() * set.length)]);
        return out;
      }
      return drawTrain(rand, count);
    },
    trainCount: size,
  };
}

function syntheticTask(spec) {
  const src = SOURCES[spec.name];
  const { minLength: lo, maxLength: hi, seed, size } = spec;
  const draw = (rand) => src.draw(rand, randInt(rand, lo, hi), lo);
  const drawSplit = (rand, count, want) => {
    const out = [];
    for (let tries = 0; out.length < count && tries < 1000 + 100 * count; tries++) {
      const p = draw(rand);
      if (src.heldout(p) === want) out.push(p);
    }
    return out;
  };
  const { batch, trainCount } = batcher(seed, size, (rand, count) => drawSplit(rand, count, false));
  // held-out: per length, distinct pairs of the held-out split
  const lengths = [];
  for (let n = lo; n <= hi; n++) lengths.push(n);
  const per = heldoutPerLength(lengths.length);
  const rand = mulberry32(streamSeed(seed ^ HELDOUT_SALT, 0));
  const heldout = [];
  for (const n of lengths) {
    const seen = new Set();
    for (let tries = 0; seen.size < per && tries < 400 * per; tries++) {
      const p = src.draw(rand, n, lo);
      if (!seen.has(p.src) && src.heldout(p)) {
        seen.add(p.src);
        heldout.push(p);
      }
    }
  }
  const tokenizer = spec.name === 'addition' ? ADDITION_TOKENIZER : SEQUENCES_TOKENIZER;
  const maxSource = spec.name === 'addition' ? 2 * hi + 1 : hi;
  const maxTarget = spec.name === 'addition' ? hi + 1 : hi;
  return {
    level: 'char',
    tokenizer,
    maxSource,
    maxTarget,
    batch,
    trainCount,
    heldout,
    lengths,
    lengthOf: src.lengthOf,
  };
}

function datesTask(spec) {
  const { minLength: lo, maxLength: hi, seed, size } = spec;
  const lengthOf = (s) => Array.from(String(s)).length;
  const inRange = (p) => {
    const n = lengthOf(p.src);
    return n >= lo && n <= hi;
  };
  // generateDates draws its own split; a stream seed per call keeps batches pure
  const drawTrain = (rand, count) => {
    const out = [];
    // a narrow range keeps a few percent of the draws: draw in chunks, a bounded number of them
    for (let k = 0; out.length < count && k < 64; k++) {
      const got = generateDates({
        seed: Math.floor(rand() * 4294967296),
        count: k === 0 ? count + 8 : Math.max(256, 16 * (count - out.length)),
        split: 'train',
      });
      for (const p of got)
        if (inRange(p) && out.length < count) out.push({ src: p.src, tgt: p.tgt });
    }
    return out;
  };
  const { batch, trainCount } = batcher(seed, size, drawTrain);
  const { heldout, lengths } = heldoutByLength(seed, lo, hi, 12, (rand) =>
    generateDates({ seed: Math.floor(rand() * 4294967296), count: 4000, split: 'heldout' }).map(
      (p) => ({ ...p, length: lengthOf(p.src) }),
    ),
  );
  return {
    level: 'char',
    tokenizer: DATES_TOKENIZER,
    maxSource: hi,
    maxTarget: 10,
    batch,
    trainCount,
    heldout,
    lengths,
    lengthOf,
  };
}

/**
 * A held-out set of up to heldoutPerLength() distinct pairs per input length lo … hi, from the
 * held-out split of a generator: draw(rand, want) → [{ src, tgt, length }] (want: pairs still
 * missing), at most `rounds` times, from the held-out stream of `seed`. → { heldout (by length,
 * then draw order), lengths (those with at least one pair) }.
 */
function heldoutByLength(seed, lo, hi, rounds, draw) {
  const all = [];
  for (let n = lo; n <= hi; n++) all.push(n);
  const per = heldoutPerLength(all.length);
  const buckets = new Map(all.map((n) => [n, []]));
  const seen = new Set();
  const rand = mulberry32(streamSeed(seed ^ HELDOUT_SALT, 0));
  for (let k = 0; k < rounds; k++) {
    const want = all.reduce((sum, n) => sum + Math.max(0, per - buckets.get(n).length), 0);
    if (want === 0) break;
    for (const p of draw(rand, want)) {
      const b = buckets.get(p.length);
      if (b && b.length < per && !seen.has(p.src)) {
        seen.add(p.src);
        b.push({ src: p.src, tgt: p.tgt });
      }
    }
  }
  return {
    heldout: all.flatMap((n) => buckets.get(n)),
    lengths: all.filter((n) => buckets.get(n).length > 0),
  };
}

/** Upper bounds on the translation generator's token counts for n English words (measured:
 * at most n + 1 English and n + 5 French tokens); pairs beyond them are dropped. */
const translationMaxSource = (words) => words + 4;
const translationMaxTarget = (words) => words + 8;

function translationTask(spec) {
  const { minLength: lo, maxLength: hi, seed, size } = spec;
  const maxSource = translationMaxSource(hi),
    maxTarget = translationMaxTarget(hi);
  const fits = (p) => p.srcTokens.length <= maxSource && p.tgtTokens.length <= maxTarget;
  const drawSplit = (rand, count, split) => {
    const out = [];
    for (let k = 0; out.length < count && k < 20; k++) {
      const got = generateTranslation({
        seed: Math.floor(rand() * 4294967296),
        count: count - out.length,
        split,
        minWords: lo,
        maxWords: hi,
      });
      for (const p of got) if (fits(p)) out.push({ src: p.src, tgt: p.tgt, length: p.length });
    }
    return out;
  };
  const { batch, trainCount } = batcher(seed, size, (rand, count) =>
    drawSplit(rand, count, 'train').map(({ src, tgt }) => ({ src, tgt })),
  );
  const { heldout, lengths } = heldoutByLength(seed, lo, hi, 30, (rand, want) =>
    drawSplit(rand, Math.min(2000, want + 20), 'heldout'),
  );
  // the generator's length: tokens (as the tokenizer reads them) holding a letter or an apostrophe
  const lengthOf = (src) =>
    normalizeWords(String(src), TRANSLATION_STEPS).filter((w) => /[\p{L}']/u.test(w)).length;
  return {
    level: 'word',
    tokenizer: TRANSLATION_TOKENIZER,
    maxSource,
    maxTarget,
    batch,
    trainCount,
    heldout,
    lengths,
    lengthOf,
  };
}

/** Tokens of a custom text at a level (char: code points; word: whitespace-separated). */
export function tokensOf(text, level) {
  return level === 'word' ? String(text).split(/\s+/).filter(Boolean) : Array.from(String(text));
}

/** A char or word tokenizer with the vocabulary of the pairs (sorted, so it is the same for the same pairs). */
export function customTokenizer(pairs, level) {
  const src = new Set(),
    tgt = new Set();
  for (const p of pairs) {
    for (const t of tokensOf(p.src, level)) src.add(t);
    for (const t of tokensOf(p.tgt, level)) tgt.add(t);
  }
  const special = new Set(['<pad>', '<unk>', '<s>', '</s>']);
  const sorted = (s) => [...s].filter((t) => !special.has(t)).sort();
  return Object.freeze({
    type: level,
    srcVocab: Object.freeze(['<pad>', '<unk>', ...sorted(src)]),
    tgtVocab: Object.freeze(['<pad>', '<s>', '</s>', '<unk>', ...sorted(tgt)]),
    pad: '<pad>',
    bos: '<s>',
    eos: '</s>',
    unk: '<unk>',
  });
}

function customTask(spec, customPairs) {
  const given = Array.isArray(customPairs) ? customPairs : [];
  const level =
    spec.level === 'char' || spec.level === 'word'
      ? spec.level
      : given.filter((p) => /\s/.test(String(p.tgt).trim())).length * 2 > given.length
        ? 'word'
        : 'char';
  const lengthOf = (src) => tokensOf(src, level).length;
  // in the length range, an output, no repeats; what is left out and why: pairs-report.js
  const { pairs, report } = selectPairs(given, {
    minLength: spec.minLength,
    maxLength: spec.maxLength,
    lengthOf,
    outLength: (tgt) => tokensOf(tgt, level).length,
  });
  // split: held out when hash(src) % 10 == 0; when that leaves no side empty, else the 10 % with
  // the smallest hashes (at least one pair when there are two or more)
  let heldAll = pairs.filter((p) => isHeldOutKey(p.src));
  let train = pairs.filter((p) => !isHeldOutKey(p.src));
  if ((heldAll.length === 0 || train.length === 0) && pairs.length >= 2) {
    const keys = [...new Set(pairs.map((p) => p.src))].sort(
      (a, b) => hashString(a) - hashString(b) || (a < b ? -1 : 1),
    );
    const held = new Set(keys.slice(0, Math.max(1, Math.floor(keys.length / 10))));
    if (held.size === keys.length) held.delete(keys[keys.length - 1]);
    heldAll = pairs.filter((p) => held.has(p.src));
    train = pairs.filter((p) => !held.has(p.src));
  }
  if (train.length === 0) train = pairs;
  const lengthSet = [...new Set(heldAll.map((p) => lengthOf(p.src)))].sort((a, b) => a - b);
  const per = heldoutPerLength(lengthSet.length);
  const count = new Map();
  const heldout = [];
  for (const p of heldAll) {
    const n = lengthOf(p.src);
    if ((count.get(n) ?? 0) < per) {
      count.set(n, (count.get(n) ?? 0) + 1);
      heldout.push(p);
    }
  }
  heldout.sort((a, b) => lengthOf(a.src) - lengthOf(b.src));
  const size = spec.size > 0 ? Math.min(spec.size, train.length) : train.length;
  const trainSet = train.slice(0, size);
  const batch = (step, n) => {
    const rand = mulberry32(streamSeed(spec.seed, Math.floor(step)));
    const out = [];
    if (trainSet.length === 0) return out;
    for (let i = 0; i < Math.max(0, Math.floor(n)); i++)
      out.push(trainSet[Math.floor(rand() * trainSet.length)]);
    return out;
  };
  let maxSource = 1,
    maxTarget = 1;
  for (const p of pairs) {
    maxSource = Math.max(maxSource, lengthOf(p.src));
    maxTarget = Math.max(maxTarget, tokensOf(p.tgt, level).length);
  }
  // set aside: beyond the "training pairs" setting or the held-out set's cap per length
  const unused = Math.max(0, pairs.length - trainSet.length - heldout.length);
  return {
    report: { ...report, train: trainSet.length, heldout: heldout.length, unused },
    level,
    tokenizer: customTokenizer(pairs, level),
    maxSource,
    maxTarget,
    batch,
    trainCount: trainSet.length,
    heldout,
    lengths: lengthSet,
    lengthOf,
  };
}

/**
 * The task of a (checked) task spec; customPairs: the parsed pairs of a custom task.
 * @param {TaskSpec} taskSpec
 * @param {Pair[]} [customPairs]
 * @returns {Task}
 */
export function makeTask(taskSpec, customPairs) {
  const info = TASK_INFO[taskSpec?.name] ? taskSpec.name : 'reverse';
  const [LO, HI] = TASK_INFO[info].lengths;
  const clampInt = (v, lo, hi, d) =>
    Number.isFinite(v) ? Math.min(hi, Math.max(lo, Math.round(v))) : d;
  const minLength = clampInt(taskSpec?.minLength, LO, HI, TASK_INFO[info].defaults[0]);
  const maxLength = clampInt(
    taskSpec?.maxLength,
    minLength,
    HI,
    Math.max(minLength, TASK_INFO[info].defaults[1]),
  );
  const spec = {
    name: info,
    minLength,
    maxLength,
    size: clampInt(taskSpec?.size, 0, 1e6, 0),
    level: taskSpec?.level ?? 'auto',
    seed: clampInt(taskSpec?.seed, 0, 0xffffffff, 0) >>> 0,
  };
  let t;
  if (spec.name === 'dates') t = datesTask(spec);
  else if (spec.name === 'translation') t = translationTask(spec);
  else if (spec.name === 'custom') t = customTask(spec, customPairs);
  else t = syntheticTask(spec);
  const example = pickExample(t.heldout, t.lengthOf, minLength, maxLength) ??
    t.batch(0, 1)[0] ?? { src: '', tgt: '' };
  return Object.freeze({
    name: spec.name,
    level: t.level,
    tokenizer: t.tokenizer,
    maxSource: t.maxSource,
    maxTarget: t.maxTarget,
    minLength,
    maxLength,
    batch: t.batch,
    heldout: t.heldout,
    example,
    lengths: t.lengths,
    lengthOf: t.lengthOf,
    trainCount: t.trainCount,
    report: t.report ?? null, // a custom task's: pairs-report.js
  });
}
