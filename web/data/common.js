// attnlab/web/data/common.js: what the seeded data generators of web/data/ share: the PRNG, a
// string hash for the held-out split, argument checks and a rejection sampler. ESM, no DOM, no
// dependencies: runs in Node and browsers.
//
// Randomness: mulberry32 (web/data/playground.js, the page's generator), never Math.random, so the same seed
// gives the same examples in every engine. Each call draws one stream, seeded with
// seed ^ (split === 'heldout' ? 0x9E3779B9 : 0) as web/data/dates.js does.
// Split: an example belongs to the held-out split when hashString(key) % 10 == 0, the key being
// what identifies the example (each generator documents its key). 'train' keeps only the other
// examples and 'heldout' only those, so the splits are disjoint by construction, whatever the
// seeds and counts.
// Not here: any generator's content (sequences.js, agreement.js, reviews.js, induction.js).

import { mulberry32 } from './playground.js';

export { mulberry32 };

/** A 32-bit hash of a string: FNV-1a over its UTF-16 code units, then the lowbias32 mix. */
export function hashString(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/** True when the example with this key is held out (hash % 10 == 0, about 10% of keys). */
export function isHeldOutKey(key) {
  return hashString(key) % 10 === 0;
}

/** The PRNG stream of one call (a different stream per split, as dates.js). */
export function splitStream(seed, split) {
  return mulberry32((seed >>> 0) ^ (split === 'heldout' ? 0x9e3779b9 : 0));
}

/** An integer in [lo, hi] (both included). */
export function randInt(rand, lo, hi) {
  return lo + Math.floor(rand() * (hi - lo + 1));
}

/** A uniformly drawn element of a non-empty array. */
export function pick(rand, list) {
  return list[Math.floor(rand() * list.length)];
}

/** Throws unless split is 'train' or 'heldout' and count a non-negative integer. */
export function checkCommon(name, { seed, count, split }) {
  if (split !== 'train' && split !== 'heldout')
    throw new Error(`${name}: split must be 'train' or 'heldout', not ${split}`);
  if (!Number.isInteger(count) || count < 0)
    throw new Error(`${name}: count must be a non-negative integer, not ${count}`);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new Error(`${name}: seed must be an integer in [0, 2^32), not ${seed}`);
}

/** Throws unless v is an integer in [lo, hi]. */
export function checkInt(name, key, v, lo, hi) {
  if (!Number.isInteger(v) || v < lo || v > hi)
    throw new Error(`${name}: ${key} must be an integer in [${lo}, ${hi}], not ${v}`);
}

/**
 * count examples of one split by rejection: make(rand) draws a candidate, keyOf(candidate) its
 * split key; candidates of the other split are dropped. Throws rather than loop for ever when the
 * options leave (almost) no example in the split.
 */
export function sampleSplit(name, rand, count, split, make, keyOf) {
  const want = split === 'heldout';
  const out = [];
  const limit = 2000 + 1000 * count;
  for (let tries = 0; out.length < count; tries++) {
    if (tries >= limit)
      throw new Error(
        `${name}: found only ${out.length} of ${count} '${split}' examples in ${limit} draws; these options leave too few distinct examples`,
      );
    const c = make(rand);
    if (isHeldOutKey(keyOf(c)) === want) out.push(c);
  }
  return out;
}
