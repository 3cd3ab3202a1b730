// attnlab/web/data/sequences.js: the seeded copy and reversal tasks (seq2seq, char tokenizer),
// shared by the trainer and the page. ESM, no DOM, no dependencies: runs in Node and browsers.
//
//   import { generateSequences, SEQUENCES_TOKENIZER } from './data/sequences.js';
//   generateSequences({ seed: 1, count: 2, maxLen: 12 });
//   // [{ src: 'akttfmoitj', tgt: 'jtiomfttka', task: 'reverse', length: 10 },
//   //  { src: 'ciedjbhp', tgt: 'phbjdeic', task: 'reverse', length: 8 }]
//
// Produces: pairs { src, tgt, task, length }: src a string of `length` symbols drawn uniformly
// and independently from `symbols` (default the 20 letters a–t), length uniform in
// [minLen, maxLen] (default 5..60); tgt = src (copy) or src reversed (reverse). Both are
// space-free character strings. task 'mixed' draws copy or reverse per pair (1/2 each) and then
// prefixes src with the task's marker character ('>' copy, '<' reverse; `length` does not count
// it), so that one model can learn both.
// Split: the key of a pair is the canonical form of its symbol string, min(s, reverse(s)) (so a
// string, its reversal and both tasks on them always fall in the same split); held out when
// hashString(key) % 10 == 0 (common.js). 'train' and 'heldout' never share a symbol string.
// Lengths 1 and 2 have only 20 and 400 strings, so tiny ranges may hold no held-out string at
// all: the generator then throws instead of looping.
// Randomness: mulberry32(seed ^ split constant) (common.js), never Math.random.
// Also: lengthStratified() (n held-out pairs per length, for accuracy-by-length curves) and
// scoreByLength() (exact match and token accuracy per length from model outputs).
// Not here: tokenisation into ids (wasm/model/tokenizer.js with SEQUENCES_TOKENIZER).

import {
  checkCommon,
  checkInt,
  isHeldOutKey,
  randInt,
  sampleSplit,
  splitStream,
} from './common.js';

/** The default alphabet: 20 symbols. */
export const SYMBOLS = 'abcdefghijklmnopqrst';
/** The task markers of task 'mixed' (first character of src). */
export const TASK_MARKERS = Object.freeze({ copy: '>', reverse: '<' });
export const TASKS = Object.freeze(['copy', 'reverse', 'mixed']);
const MAX_LEN = 1000;

const reverse = (s) => Array.from(s).reverse().join('');

function checkSymbols(name, symbols) {
  const list = Array.from(symbols);
  if (list.length < 2) throw new Error(`${name}: symbols must hold at least 2 characters`);
  if (new Set(list).size !== list.length) throw new Error(`${name}: symbols must be distinct`);
  for (const c of list) {
    if (/\s/.test(c) || c === TASK_MARKERS.copy || c === TASK_MARKERS.reverse) {
      throw new Error(`${name}: symbol ${JSON.stringify(c)} is whitespace or a task marker`);
    }
  }
  return list;
}

/**
 * The char tokenizer of a seq2seq model on these tasks (docs/models.md, "tokenizer"), shaped as
 * DATES_TOKENIZER: srcVocab <pad> <unk> symbols > <; tgtVocab <pad> <s> </s> symbols.
 * @param {string} [symbols]
 */
export function sequencesTokenizer(symbols = SYMBOLS) {
  const list = checkSymbols('sequencesTokenizer', symbols);
  return Object.freeze({
    type: 'char',
    srcVocab: Object.freeze(['<pad>', '<unk>', ...list, TASK_MARKERS.copy, TASK_MARKERS.reverse]),
    tgtVocab: Object.freeze(['<pad>', '<s>', '</s>', ...list]),
    pad: '<pad>',
    bos: '<s>',
    eos: '</s>',
    unk: '<unk>',
  });
}

/** The tokenizer for the default 20 symbols. A model's maxLength should be at least maxLen + 1. */
export const SEQUENCES_TOKENIZER = sequencesTokenizer();

/** True when the symbol string s (no marker) belongs to the held-out split. */
export function isHeldOutSequence(s) {
  const r = reverse(s);
  return isHeldOutKey(s < r ? s : r);
}

function pair(body, task, mixed, length) {
  const tgt = task === 'copy' ? body : reverse(body);
  return { src: mixed ? TASK_MARKERS[task] + body : body, tgt, task, length };
}

function options(name, o) {
  const {
    seed = 0,
    count = 1000,
    split = 'train',
    task = 'reverse',
    minLen = 5,
    maxLen = 60,
    symbols = SYMBOLS,
  } = o;
  checkCommon(name, { seed, count, split });
  if (!TASKS.includes(task))
    throw new Error(`${name}: task must be one of ${TASKS.join(', ')}, not ${task}`);
  checkInt(name, 'minLen', minLen, 1, MAX_LEN);
  checkInt(name, 'maxLen', maxLen, minLen, MAX_LEN);
  return { seed, count, split, task, minLen, maxLen, list: checkSymbols(name, symbols) };
}

function draw(rand, list, length, task) {
  let body = '';
  for (let i = 0; i < length; i++) body += list[Math.floor(rand() * list.length)];
  const t = task === 'mixed' ? (rand() < 0.5 ? 'copy' : 'reverse') : task;
  return pair(body, t, task === 'mixed', length);
}

const keyOf = (p) => {
  const body = p.src.slice(p.src.length - p.length);
  const r = reverse(body);
  return body < r ? body : r;
};

/**
 * Seeded pairs { src, tgt, task, length }.
 * @param {{ seed?: number, count?: number, split?: 'train' | 'heldout',
 *           task?: 'copy' | 'reverse' | 'mixed', minLen?: number, maxLen?: number,
 *           symbols?: string }} [opts] defaults: seed 0, count 1000, 'train', 'reverse', 5, 60, a–t
 * @returns {{ src: string, tgt: string, task: 'copy' | 'reverse', length: number }[]}
 */
export function generateSequences(opts = {}) {
  const o = options('generateSequences', opts);
  const rand = splitStream(o.seed, o.split);
  return sampleSplit(
    'generateSequences',
    rand,
    o.count,
    o.split,
    (r) => draw(r, o.list, randInt(r, o.minLen, o.maxLen), o.task),
    keyOf,
  );
}

/**
 * A length-stratified evaluation set: perLength pairs of every length minLen..maxLen, in order of
 * length (default: held-out pairs, lengths 5..60, 20 each = 1,120 pairs).
 * @param {{ seed?: number, perLength?: number, split?: 'train' | 'heldout',
 *           task?: 'copy' | 'reverse' | 'mixed', minLen?: number, maxLen?: number,
 *           symbols?: string }} [opts]
 */
export function lengthStratified(opts = {}) {
  const { perLength = 20, split = 'heldout' } = opts;
  checkInt('lengthStratified', 'perLength', perLength, 0, 1e6);
  const o = options('lengthStratified', { ...opts, split, count: perLength });
  const rand = splitStream(o.seed, o.split);
  const out = [];
  for (let len = o.minLen; len <= o.maxLen; len++) {
    out.push(
      ...sampleSplit(
        'lengthStratified',
        rand,
        perLength,
        o.split,
        (r) => draw(r, o.list, len, o.task),
        keyOf,
      ),
    );
  }
  return out;
}

/**
 * Accuracy per length from model outputs: outputs[i] is the text a model produced for
 * examples[i]. exactMatch: output === tgt; tokenAccuracy: share of target positions i where the
 * output has the right character at i.
 * @returns {{ length: number, count: number, exactMatch: number, tokenAccuracy: number }[]}
 */
export function scoreByLength(examples, outputs) {
  if (!Array.isArray(examples) || !Array.isArray(outputs) || examples.length !== outputs.length) {
    throw new Error('scoreByLength: examples and outputs must be arrays of the same length');
  }
  const by = new Map();
  examples.forEach((ex, i) => {
    const out = Array.from(String(outputs[i]));
    const tgt = Array.from(ex.tgt);
    const s = by.get(ex.length) ?? { length: ex.length, count: 0, exact: 0, right: 0, tokens: 0 };
    s.count++;
    if (out.join('') === ex.tgt) s.exact++;
    for (let j = 0; j < tgt.length; j++) if (out[j] === tgt[j]) s.right++;
    s.tokens += tgt.length;
    by.set(ex.length, s);
  });
  return [...by.values()]
    .sort((a, b) => a.length - b.length)
    .map((s) => ({
      length: s.length,
      count: s.count,
      exactMatch: s.exact / s.count,
      tokenAccuracy: s.tokens ? s.right / s.tokens : 0,
    }));
}
