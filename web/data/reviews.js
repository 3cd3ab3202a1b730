// attnlab/web/data/reviews.js: seeded movie-review sentiment whose label hinges on a few words
// (negation, contrast), for the classifier architecture (Zhou attention, Lin structured, HAN),
// shared by the trainer and the page. ESM, no DOM, no dependencies: runs in Node and browsers.
//
//   import { generateReviews, REVIEWS_TOKENIZER, REVIEW_LABELS } from './data/reviews.js';
//   generateReviews({ seed: 1, count: 3 })[2];
//   // { text: 'i found the pacing not clever but the acting is not very messy .', label: 'positive',
//   //   labelId: 1, decisive: [10, 12], distractors: [4, 5], decisiveSentence: 0, sentences: [...] }
//
// A sentence: [opener] clause [connective clause] [closer] '.', every word lowercase, '.' a word.
//   clause   "the plot was [not] [very] ADJ" | "i found the acting [not] [really] ADJ"
//            | "it was [not] a [truly] ADJ film" | second clause only: "[not] [so] ADJ"
//   Exactly one sentiment adjective per clause (POSITIVE / NEGATIVE below); "not" anywhere in a
//   clause flips its polarity ("not bad" → positive, "not a good film" → negative). Openers
//   ("honestly", "in the end"), closers ("to be honest"), intensifiers ("very") and the rest are
//   neutral filler.
//   connective "but": the two clauses have opposite polarities and the one after "but" decides
//   ("good but boring" → negative); "and": both clauses have the same polarity and both decide.
// Sentence label = the polarity of its deciding clause(s). decisive = the indices (into words) of
// the deciding clauses' sentiment adjective and their "not"; distractors = the same words of the
// clause that "but" overrides (and, in documents, of every other opinionated sentence).
// Documents (mode 'document', for HAN): minSentences..maxSentences sentences (default 2..5), each
// ending in the separator '.', some of them neutral ("we watched it last night ."). Document
// label = the label of the LAST opinionated sentence (the verdict); neutral sentences may follow
// it; earlier opinions (random polarities) are distractors. decisive holds that sentence's
// deciding words (document indices), decisiveSentence its index, and sentences[] every
// sentence's [start, end) (end after its '.', as the HAN model reports them), label and decisive.
// The label is a function of the words alone (reviewLabel recomputes it from the text): no noise.
// Split: the key of an example is its text; held out when hashString(text) % 10 == 0
// (common.js). 'train' and 'heldout' never share a text.
// Randomness: mulberry32(seed ^ split constant) (common.js), never Math.random.
// Not here: tokenisation into ids (wasm/model/tokenizer.js), the model.

import { checkCommon, checkInt, pick, sampleSplit, splitStream } from './common.js';

/** @type {readonly ['negative', 'positive']} */
export const REVIEW_LABELS = Object.freeze(['negative', 'positive']);
/** The sentence separator (the classifier config's sentenceSeparator for HAN). */
export const REVIEWS_SEPARATOR = '.';

const POSITIVE = ['good', 'great', 'excellent', 'fun', 'funny', 'brilliant', 'wonderful', 'moving',
  'clever', 'beautiful', 'enjoyable', 'charming'];
const NEGATIVE = ['bad', 'boring', 'awful', 'terrible', 'dull', 'weak', 'poor', 'silly', 'predictable',
  'messy', 'painful', 'bland'];
const INTENSIFIERS = ['very', 'really', 'quite', 'rather', 'so', 'truly'];
const ASPECTS = ['movie', 'film', 'plot', 'story', 'acting', 'cast', 'ending', 'script', 'music',
  'dialogue', 'pacing', 'soundtrack', 'direction'];
const KINDS = ['movie', 'film', 'story'];
const COPULAS = ['was', 'is', 'seemed', 'felt'];
const OPENERS = [['honestly'], ['overall'], ['well'], ['frankly'], ['i', 'think'], ['in', 'the', 'end'], ['for', 'me']];
const CLOSERS = [['to', 'be', 'honest'], ['in', 'my', 'opinion'], ['from', 'start', 'to', 'finish'], ['for', 'sure']];
const NEUTRAL_SUBJECTS = [['i'], ['we'], ['my', 'friend'], ['my', 'sister'], ['my', 'parents']];
const NEUTRAL_VERBS = ['watched', 'saw', 'streamed', 'rented'];
const NEUTRAL_WHEN = [['on', 'sunday'], ['last', 'night'], ['last', 'week'], ['at', 'home'], ['at', 'the', 'cinema'],
  ['with', 'friends'], ['twice']];
const PLACES = ['spain', 'france', 'london', 'canada'];
const NEGATOR = 'not';
const CONNECTIVES = ['but', 'and'];

/** The words that carry sentiment, for highlighting: positive and negative adjectives, the negator, the connectives. */
export const REVIEW_LEXICON = Object.freeze({
  positive: Object.freeze([...POSITIVE]), negative: Object.freeze([...NEGATIVE]),
  negator: NEGATOR, connectives: Object.freeze([...CONNECTIVES]),
});
const POLARITY = new Map(/** @type {[string, number][]} */ ([...POSITIVE.map((w) => [w, 1]), ...NEGATIVE.map((w) => [w, 0])]));

function allWords() {
  const set = new Set([REVIEWS_SEPARATOR, NEGATOR, ...CONNECTIVES, 'the', 'i', 'found', 'it', 'was', 'a', 'an',
    'made', 'in', 'lasts', 'two', 'hours']);
  for (const list of [POSITIVE, NEGATIVE, INTENSIFIERS, ASPECTS, KINDS, COPULAS, NEUTRAL_VERBS, PLACES,
    ...OPENERS, ...CLOSERS, ...NEUTRAL_SUBJECTS, ...NEUTRAL_WHEN]) for (const w of list) set.add(w);
  return [...set].sort();
}

/** Every word the generator can produce ('.' included), sorted. */
export const REVIEW_WORDS = Object.freeze(allWords());
/**
 * The word tokenizer of a classifier on these reviews (docs/models.md, classifier config:
 * { type, vocab, unk, pad }); vocab = <pad> <unk> + REVIEW_WORDS. Use with labels REVIEW_LABELS
 * and, for HAN, sentenceSeparator REVIEWS_SEPARATOR.
 */
export const REVIEWS_TOKENIZER = Object.freeze({
  type: 'word',
  vocab: Object.freeze(['<pad>', '<unk>', ...REVIEW_WORDS]),
  unk: '<unk>',
  pad: '<pad>',
});

// ---- generation ---------------------------------------------------------------------------------

/** A clause of polarity p (0/1) → { words, key: [indices of not and the adjective] } (local indices). */
function clause(rand, p, second) {
  const negate = rand() < 0.35;
  const adj = pick(rand, (p === 1) !== negate ? POSITIVE : NEGATIVE);
  const words = [];
  const key = [];
  const not = () => { if (negate) { key.push(words.length); words.push(NEGATOR); } };
  // "not rather good" is not English: after "not", no "rather"
  const int = () => { if (rand() < 0.3) words.push(pick(rand, negate ? INTENSIFIERS.filter((w) => w !== 'rather') : INTENSIFIERS)); };
  const sent = () => { key.push(words.length); words.push(adj); };
  const t = Math.floor(rand() * (second ? 5 : 3));
  if (t === 0) {
    words.push('the', pick(rand, ASPECTS), pick(rand, COPULAS)); not(); int(); sent();
  } else if (t === 1) {
    words.push('i', 'found', 'the', pick(rand, ASPECTS)); not(); int(); sent();
  } else if (t === 2) {
    words.push('it', 'was'); not();
    const at = words.length;
    words.push('a'); int(); sent();
    if (/^[aeiou]/.test(words[at + 1])) words[at] = 'an';
    words.push(pick(rand, KINDS));
  } else {
    not(); int(); sent(); // ellipsis after a connective: "... but not very funny"
  }
  return { words, key };
}

/** One opinionated sentence of polarity p → { words, decisive, distractors } (local indices). */
function opinion(rand, p) {
  const words = [];
  if (rand() < 0.3) words.push(...pick(rand, OPENERS));
  const shift = (c) => { const at = words.length; words.push(...c.words); return c.key.map((i) => i + at); };
  const r = rand();
  let decisive, distractors = [];
  if (r < 0.4) {
    decisive = shift(clause(rand, p, false));
  } else if (r < 0.8) {
    distractors = shift(clause(rand, 1 - p, false));
    words.push('but');
    decisive = shift(clause(rand, p, true));
  } else {
    decisive = shift(clause(rand, p, false));
    words.push('and');
    decisive.push(...shift(clause(rand, p, true)));
  }
  if (rand() < 0.2) words.push(...pick(rand, CLOSERS));
  words.push(REVIEWS_SEPARATOR);
  return { words, decisive, distractors };
}

/** A neutral sentence (no sentiment word). */
function neutral(rand) {
  const t = Math.floor(rand() * 3);
  let words;
  if (t === 0) words = [...pick(rand, NEUTRAL_SUBJECTS), pick(rand, NEUTRAL_VERBS), 'it', ...pick(rand, NEUTRAL_WHEN)];
  else if (t === 1) words = ['the', pick(rand, ASPECTS), 'was', 'made', 'in', pick(rand, PLACES)];
  else words = ['it', 'lasts', 'two', 'hours'];
  return [...words, REVIEWS_SEPARATOR];
}

function example(words, sentences, L) {
  const label = sentences[L].label;
  const decisive = sentences[L].decisive;
  const distractors = [];
  sentences.forEach((s, i) => { if (i !== L && s.decisive) distractors.push(...s.decisive); });
  distractors.push(...sentences[L].distractors);
  distractors.sort((a, b) => a - b);
  return {
    text: words.join(' '), src: words.join(' '), words, label, labelId: REVIEW_LABELS.indexOf(label), decisive, distractors,
    decisiveSentence: L,
    sentences: sentences.map(({ start, end, label: l, decisive: d }) => ({ start, end, label: l, decisive: d })),
  };
}

function review(rand, mode, minS, maxS) {
  const n = mode === 'sentence' ? 1 : minS + Math.floor(rand() * (maxS - minS + 1));
  const L = Math.floor(rand() * n);
  const words = [];
  const sentences = [];
  for (let i = 0; i < n; i++) {
    const start = words.length;
    if (i === L || (i < L && rand() < 0.6)) {
      const p = rand() < 0.5 ? 0 : 1;
      const o = opinion(rand, p);
      words.push(...o.words);
      sentences.push({ start, end: words.length, label: REVIEW_LABELS[p],
        decisive: o.decisive.map((j) => j + start), distractors: o.distractors.map((j) => j + start) });
    } else {
      words.push(...neutral(rand));
      sentences.push({ start, end: words.length, label: null, decisive: null, distractors: [] });
    }
  }
  return example(words, sentences, L);
}

/**
 * Seeded reviews.
 * @param {{ seed?: number, count?: number, split?: 'train' | 'heldout', mode?: 'sentence' | 'document',
 *           minSentences?: number, maxSentences?: number }} [opts]
 *   defaults: seed 0, count 1000, 'train', 'sentence', 2, 5 (document mode only)
 *   src repeats text, so that the examples are the trainer's classifier examples { src, label }
 *   as they are: trainer.step(generateReviews({ seed, count: 32 })).
 * @returns {{ text: string, src: string, words: string[], label: 'negative' | 'positive', labelId: 0 | 1,
 *   decisive: number[], distractors: number[], decisiveSentence: number,
 *   sentences: { start: number, end: number, label: string | null, decisive: number[] | null }[] }[]}
 */
export function generateReviews({ seed = 0, count = 1000, split = 'train', mode = 'sentence', minSentences = 2, maxSentences = 5 } = {}) {
  const name = 'generateReviews';
  checkCommon(name, { seed, count, split });
  if (mode !== 'sentence' && mode !== 'document') throw new Error(`${name}: mode must be 'sentence' or 'document', not ${mode}`);
  checkInt(name, 'minSentences', minSentences, 1, 64);
  checkInt(name, 'maxSentences', maxSentences, minSentences, 64);
  const rand = splitStream(seed, split);
  return sampleSplit(name, rand, count, split, (r) => review(r, mode, minSentences, maxSentences), (x) => x.text);
}

/**
 * The label rule applied to words alone (an independent re-implementation the tests hold the
 * generator to): sentences split after '.', clauses at 'but' / 'and'; a clause's polarity is its
 * sentiment adjective's, flipped by 'not'; a sentence's is its clauses' after the last 'but'; the
 * document's is its last opinionated sentence's.
 * @param {string | string[]} text
 * @returns {{ label: 'negative' | 'positive', labelId: number, decisive: number[] } | null} null
 *   when no sentence carries an opinion
 */
export function reviewLabel(text) {
  const words = typeof text === 'string' ? text.split(/\s+/).filter(Boolean) : text;
  let result = null;
  let i = 0;
  while (i < words.length) {
    let end = i;
    while (end < words.length && words[end] !== REVIEWS_SEPARATOR) end++;
    // clauses of words[i, end)
    const clauses = [];
    let cur = { start: i, conn: null };
    for (let j = i; j <= end; j++) {
      if (j === end || CONNECTIVES.includes(words[j])) {
        clauses.push({ ...cur, end: j });
        if (j < end) cur = { start: j + 1, conn: words[j] };
      }
    }
    let lastBut = 0;
    clauses.forEach((c, k) => { if (c.conn === 'but') lastBut = k; });
    let pol = null;
    const decisive = [];
    for (const c of clauses.slice(lastBut)) {
      let p = null, not = -1, at = -1;
      for (let j = c.start; j < c.end; j++) {
        if (POLARITY.has(words[j])) { p = POLARITY.get(words[j]); at = j; }
        if (words[j] === NEGATOR) not = j;
      }
      if (p === null) continue;
      if (not >= 0) { p = 1 - p; decisive.push(not); }
      decisive.push(at);
      pol = p;
    }
    if (pol !== null) result = { label: REVIEW_LABELS[pol], labelId: pol, decisive };
    i = end + 1;
  }
  return result;
}
