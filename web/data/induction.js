// attnlab/web/data/induction.js: seeded repeated-sequence data for a tiny decoder-only
// transformer, where the second half is predictable only by an induction head (Olsson et al.
// 2022, "In-context learning and induction heads"), shared by the trainer and the page. ESM, no
// DOM, no dependencies: runs in Node and browsers.
//
//   import { generateInduction, inductionAccuracy, INDUCTION_TOKENIZER } from './data/induction.js';
//   generateInduction({ seed: 1, count: 1, maxK: 5 })[0];
//   // { tokens: ['<s>', 'a', 'o', 'z', 'c', 'k', 'a', 'o', 'z', 'c', 'k'],
//   //   text: '<s> a o z c k a o z c k', ids: [2, 4, 18, 29, 6, 14, 4, 18, 29, 6, 14], k: 5 }
//
// Produces: sequences ['<s>', A, A], A = k symbols (k uniform in [minK, maxK], default 4..16)
// drawn from `symbols` (default the 26 letters a–z), without replacement by default
// (distinct: true, so that every symbol of the second copy has one earlier occurrence and the
// next-token rule "find the previous occurrence of the current token, copy what followed it" is
// unambiguous). Tokens are words (the tokenizer type is 'word'): text = tokens joined by spaces.
// Positions (0-based into tokens; the model's output at position t predicts tokens[t + 1]):
//   first half    t = 1 .. k−1    targets A[1..k−1] in the first copy: random, chance level
//   repeated half t = k+1 .. 2k−1 targets A[1..k−1] in the second copy: an induction head gets them
// The prediction of the second copy's first token (at t = k) is in neither: nothing in the
// context says where A ends. inductionAccuracy() compares the two halves.
// Split: the key of a sequence is A (its symbols joined by spaces); held out when
// hashString(key) % 10 == 0 (common.js). 'train' and 'heldout' never share a prefix A.
// Randomness: mulberry32(seed ^ split constant) (common.js), never Math.random.
// Not here: the model; no eos is appended (a trainer that wants one adds '</s>').

import { checkCommon, checkInt, randInt, sampleSplit, splitStream } from './common.js';

/** The default symbols: the 26 lowercase letters. */
export const INDUCTION_SYMBOLS = Object.freeze('abcdefghijklmnopqrstuvwxyz'.split(''));
const SPECIALS = ['<pad>', '<unk>', '<s>', '</s>'];

function checkSymbols(name, symbols) {
  const list = Array.from(symbols);
  if (list.length < 2) throw new Error(`${name}: symbols must hold at least 2 tokens`);
  if (new Set(list).size !== list.length) throw new Error(`${name}: symbols must be distinct`);
  for (const s of list) {
    if (typeof s !== 'string' || s.length === 0 || /\s/.test(s) || SPECIALS.includes(s)) {
      throw new Error(
        `${name}: symbol ${JSON.stringify(s)} is empty, has whitespace or is a special token`,
      );
    }
  }
  return list;
}

/**
 * The word tokenizer of a decoder-only transformer on these sequences (docs/models.md:
 * srcVocab = tgtVocab = <pad> <unk> <s> </s> + symbols). Ids: 0 pad, 1 unk, 2 bos, 3 eos, 4.. symbols.
 * A model needs maxPositions >= 2·maxK + 1.
 * @param {readonly string[] | string} [symbols]
 */
export function inductionTokenizer(symbols = INDUCTION_SYMBOLS) {
  const vocab = Object.freeze([...SPECIALS, ...checkSymbols('inductionTokenizer', symbols)]);
  return Object.freeze({
    type: 'word',
    srcVocab: vocab,
    tgtVocab: vocab,
    pad: '<pad>',
    bos: '<s>',
    eos: '</s>',
    unk: '<unk>',
  });
}

/** The tokenizer for the default 26 symbols. */
export const INDUCTION_TOKENIZER = inductionTokenizer();

/**
 * Seeded sequences { tokens, text, src, ids, k }: tokens = ['<s>', ...A, ...A], ids their indices
 * in inductionTokenizer(symbols).srcVocab; src repeats text (a decoder-only transformer's training
 * example { src } as it is).
 * @param {{ seed?: number, count?: number, split?: 'train' | 'heldout', minK?: number, maxK?: number,
 *           symbols?: readonly string[] | string, distinct?: boolean }} [opts]
 *   defaults: seed 0, count 1000, 'train', 4, 16, a–z, true
 * @returns {{ tokens: string[], text: string, src: string, ids: number[], k: number }[]}
 */
export function generateInduction({
  seed = 0,
  count = 1000,
  split = 'train',
  minK = 4,
  maxK = 16,
  symbols = INDUCTION_SYMBOLS,
  distinct = true,
} = {}) {
  const name = 'generateInduction';
  checkCommon(name, { seed, count, split });
  const list = checkSymbols(name, symbols);
  if (distinct !== true && distinct !== false)
    throw new Error(`${name}: distinct must be true or false`);
  checkInt(name, 'minK', minK, 2, 2048);
  checkInt(name, 'maxK', maxK, minK, distinct ? list.length : 2048);
  const id = new Map(list.map((s, i) => [s, i + SPECIALS.length]));
  const rand = splitStream(seed, split);
  const make = (r) => {
    const k = randInt(r, minK, maxK);
    const a = [];
    if (distinct) {
      const pool = list.slice();
      for (let i = 0; i < k; i++) {
        // partial Fisher–Yates
        const j = i + Math.floor(r() * (pool.length - i));
        [pool[i], pool[j]] = [pool[j], pool[i]];
        a.push(pool[i]);
      }
    } else for (let i = 0; i < k; i++) a.push(list[Math.floor(r() * list.length)]);
    const tokens = ['<s>', ...a, ...a];
    const text = tokens.join(' ');
    return {
      tokens,
      text,
      src: text,
      ids: [2, ...a.map((s) => id.get(s)), ...a.map((s) => id.get(s))],
      k,
    };
  };
  return sampleSplit(name, rand, count, split, make, (x) => x.tokens.slice(1, 1 + x.k).join(' '));
}

/**
 * The positions t (0-based; the output at t predicts tokens[t + 1]) of each half of a sequence
 * with prefix length k: first [1, k−1], repeated [k+1, 2k−1].
 */
export function inductionPositions(k) {
  const range = (a, b) => Array.from({ length: Math.max(0, b - a + 1) }, (_, i) => a + i);
  return { first: range(1, k - 1), repeated: range(k + 1, 2 * k - 1) };
}

/** Argmax of every row of logits { data, shape: [n, V] } (first index on ties) → Int32Array [n]. */
export function argmaxRows(logits) {
  const [n, V] = logits.shape;
  const out = new Int32Array(n);
  for (let t = 0; t < n; t++) {
    let best = 0;
    for (let v = 1; v < V; v++) if (logits.data[t * V + v] > logits.data[t * V + best]) best = v;
    out[t] = best;
  }
  return out;
}

/**
 * Next-token accuracy on the repeated half vs the first half. predictions[i][t] is the model's
 * prediction after reading examples[i].tokens[0..t]: a token id (compared with ids) or a token
 * string (compared with tokens), e.g. argmaxRows(model.forward(ids).logits).
 * @returns {{ firstHalf: number, repeatedHalf: number, firstCount: number, repeatedCount: number }}
 *   accuracies in [0, 1]; an induction head shows as repeatedHalf ≫ firstHalf (≈ chance)
 */
export function inductionAccuracy(examples, predictions) {
  if (
    !Array.isArray(examples) ||
    !Array.isArray(predictions) ||
    examples.length !== predictions.length
  ) {
    throw new Error(
      'inductionAccuracy: examples and predictions must be arrays of the same length',
    );
  }
  let f = 0,
    fn = 0,
    r = 0,
    rn = 0;
  examples.forEach((ex, i) => {
    const pred = predictions[i];
    const { first, repeated } = inductionPositions(ex.k);
    const right = (t) => {
      const p = pred[t];
      return typeof p === 'string' ? p === ex.tokens[t + 1] : p === ex.ids[t + 1];
    };
    for (const t of first) {
      fn++;
      f += right(t) ? 1 : 0;
    }
    for (const t of repeated) {
      rn++;
      r += right(t) ? 1 : 0;
    }
  });
  return {
    firstHalf: fn ? f / fn : 0,
    repeatedHalf: rn ? r / rn : 0,
    firstCount: fn,
    repeatedCount: rn,
  };
}
