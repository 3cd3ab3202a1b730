// attnlab/wasm/model/spelling.js: the "spelling" normalisation step of word tokenizers
// (docs/models.md, "Normalisation"): a typed word the vocabulary lacks is read as the nearest
// vocabulary word, so "reccomend", "definately" and "freindly" reach the model as the words it
// knows. python/attnlab/tokenizer.py mirrors it (tests/js/spelling.test.js runs both on one list).
//
//   const fix = spellingCorrector(['friendly', 'recommend', 'the']);
//   fix('reccomend')   // 'recommend' (two edits: the word has 9 letters)
//   fix('freindly')    // 'friendly' (one transposition)
//   fix('mid')         // null (shorter than 4 letters: left as typed)
//   spellingCorrector(['ruining'], { keep: ['running'] })('running')   // null (a real word)
//
// The rule, applied to each token after the other steps, only when the token is not in the
// vocabulary:
//   - only words of letters (\p{L}, at least MIN_LENGTH = 4 of them) are corrected; numbers,
//     punctuation, short words ("mid", "meh") and the unk token stay as typed;
//   - candidates: vocabulary words of letters, at least 3 long, that share a string with the
//     typed word once at most k letters are deleted from each (k = the distance allowed; the
//     symmetric-delete lookup of SymSpell, Garbe 2012), kept when their restricted
//     Damerau-Levenshtein distance (insertions, deletions, substitutions, adjacent
//     transpositions; optimal string alignment) is at most 1, or 2 when the typed word has at least
//     LONG_WORD = 9 letters (shorter words have too many real neighbours two edits away);
//   - ties, in order: the smaller distance; the longer prefix shared with the typed word (a word
//     read as typed as far as possible: "cuts" → "cut", not "cats"; "batery" → "battery", not
//     "bakery"); a longer candidate (a dropped letter), then one of the same length (a slip or a
//     swap), then a shorter one (a letter too many); the earlier in the vocabulary;
//   - no candidate: the token stays as typed (and reads as unk);
//   - a word of `keep` (the config's tokenizer.spellingKeep: real words the vocabulary lacks, which
//     a model's trainer lists) stays as typed: the step corrects misspellings, it does not turn
//     one real word into another ("running" is not read as "ruining", "lining" not as "liking").
// Deliberately not here: a language model of context (the correction looks at one word),
// phonetic matching, splitting run-together words.

export const MIN_LENGTH = 4;
export const LONG_WORD = 9;
/** Answers kept per corrector; past it the cache starts over (typed text has no bound). */
const CACHE_SIZE = 4096;
const LETTERS = /^\p{L}+$/u;

/** The restricted Damerau-Levenshtein distance of a and b (arrays of code points), or max + 1
 * as soon as it must exceed max. */
export function editDistance(a, b, max = Infinity) {
  const n = a.length,
    m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  let prev2 = null;
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  for (let i = 1; i <= n; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, prev2[j - 2] + 1);
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[m];
}

/** Every string made from chars (an array of code points) by deleting at most k of them, the
 * word itself included. */
export function deletions(chars, k) {
  const out = new Set([chars.join('')]);
  let level = [chars];
  for (let d = 0; d < k; d++) {
    const next = [];
    for (const cs of level)
      for (let i = 0; i < cs.length; i++) {
        const x = cs.slice(0, i).concat(cs.slice(i + 1));
        const key = x.join('');
        if (!out.has(key)) {
          out.add(key);
          next.push(x);
        }
      }
    level = next;
  }
  return out;
}

/**
 * A corrector for one vocabulary: word → the vocabulary word it is read as, or null (too short,
 * not letters, in the vocabulary already, a word of `keep`, or nothing near). The index is built
 * at the first correction; up to CACHE_SIZE answers are cached.
 * @param {string[]} vocab
 * @param {{ keep?: Iterable<string> }} [options] keep: real words left as typed
 * @returns {(word: string) => string | null}
 */
export function spellingCorrector(vocab, { keep = [] } = {}) {
  const known = new Set(vocab);
  const kept = new Set(keep);
  /** @type {{ word: string, chars: string[], rank: number }[]} */
  let entries = null;
  /** @type {Map<string, number[]>} deletion string → entries */
  let index = null;
  const build = () => {
    entries = [];
    index = new Map();
    const seen = new Set();
    vocab.forEach((word, rank) => {
      if (seen.has(word) || !LETTERS.test(word)) return;
      seen.add(word);
      const chars = Array.from(word);
      if (chars.length < 3) return;
      const id = entries.length;
      entries.push({ word, chars, rank });
      for (const d of deletions(chars, chars.length >= LONG_WORD - 2 ? 2 : 1)) {
        if (!index.has(d)) index.set(d, []);
        index.get(d).push(id);
      }
    });
  };
  const cache = new Map();
  return (word) => {
    if (known.has(word) || kept.has(word)) return null;
    if (cache.has(word)) return cache.get(word);
    let best = null;
    const chars = Array.from(word);
    if (chars.length >= MIN_LENGTH && LETTERS.test(word)) {
      if (!index) build();
      const max = chars.length >= LONG_WORD ? 2 : 1;
      let bestKey = null;
      const tried = new Set();
      for (const d of deletions(chars, max)) {
        for (const id of index.get(d) ?? []) {
          if (tried.has(id)) continue;
          tried.add(id);
          const c = entries[id];
          const len = c.chars.length;
          const dist = editDistance(chars, c.chars, max);
          if (dist > max) continue;
          let prefix = 0;
          while (prefix < len && c.chars[prefix] === chars[prefix]) prefix++;
          const key = [
            dist,
            -prefix,
            len > chars.length ? 0 : len === chars.length ? 1 : 2,
            c.rank,
          ];
          if (bestKey === null || less(key, bestKey)) {
            bestKey = key;
            best = c.word;
          }
        }
      }
    }
    if (cache.size >= CACHE_SIZE) cache.clear();
    cache.set(word, best);
    return best;
  };
}

function less(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}
