// attnlab/web/data/translation.js: seeded English → French sentence pairs with the gold word
// alignment, for the translation models (Bahdanau et al. 2015; Luong et al. 2015), shared by the
// trainer (scripts/train/translation.mjs) and the page. ESM, no DOM, no dependency.
//
//   generateTranslation({ seed: 1, count: 2, split: 'train' })
//   // [{ src: 'my brother\'s dog likes the white house .', tgt: 'le chien de mon frère aime la maison blanche .',
//   //    srcTokens: [...], tgtTokens: [...], alignment: [[5], [1], [2], [0], [1], ...], tags: [[...], ...],
//   //    phenomena: ['possessive', 'adjective-after'], length: 8 }, ...]
//   parseEnglish('She sees him.')   // the same record for a sentence typed by hand, or null
//   translationDomain('him sees she')   // [{ code: 'grammar' }]: what the page warns about
//
// Every example is a tree (clauses, noun phrases, verbs) rendered twice: English first, then
// French, each French token naming the English tokens it translates. So alignment[j] lists the
// indices into srcTokens of French token j (never empty: a French word without an English
// counterpart is aligned to the word that calls for it: the article of "le chien de mon frère"
// to 's, "de" after a negation to the English article it replaces). English words may be left
// unaligned (the "do" of "do not"). tags[j] names the phenomena French token j takes part in
// (PHENOMENA); phenomena lists those of the sentence.
//
// Tokens are what TRANSLATION_TOKENIZER's normalisation makes of the text: lowercase, punctuation
// apart, 's and n't split off in English ("brother's" → brother 's), French elisions split after
// the apostrophe (n'aiment → n' aiment) and joined again when the tokenizer decodes. length is the
// number of English tokens that are not punctuation (3 to 30).
// Split: held out when hash(src) % 10 == 0 (web/data/common.js), so train and held-out sentences
// never meet. parseEnglish reads the grammar back (backtracking over the same tree types), so the
// page can draw the gold alignment over any sentence the generator could have written.
// Not here: the words (translation-lexicon.js), the metrics (web/shared/translation-metrics.js).
// The rooms: what an example is and how a tree renders, translation-render.js; drawing trees,
// translation-sample.js; reading English back, translation-parse.js. This file holds the seeded
// splits, the vocabularies and the domain check, and is the API the trainer and the page import.

import {
  NOUNS,
  ADJECTIVES,
  VERBS,
  PERSONS,
  ETRE,
  AVOIR,
  PREPOSITIONS,
  CONJUNCTIONS,
  SAY_VERBS,
} from './translation-lexicon.js';
import { splitStream, sampleSplit, checkCommon, checkInt } from './common.js';
import { normalizeWords } from '../../wasm/model/normalize.js';
import {
  ELIDE,
  ENDS,
  MAX_WORDS,
  MIN_WORDS,
  TRANSLATION_NORMALIZE,
  partForm,
  render,
} from './translation-render.js';
import { sampleTree } from './translation-sample.js';
import { PARSE_STEPS, parseEnglishTokens } from './translation-parse.js';

export { NOUNS, ADJECTIVES, VERBS, PERSONS };
export {
  PHENOMENA,
  MIN_WORDS,
  MAX_WORDS,
  TRANSLATION_NORMALIZE,
  frenchRules,
  joinFrench,
  joinEnglish,
  render,
} from './translation-render.js';
export { parseEnglishTokens, parseEnglish } from './translation-parse.js';

/**
 * count examples of one split. Options: seed, split ('train' | 'heldout'), minWords / maxWords
 * (English words, 3..30; each draw aims at a length drawn uniformly in the range and is kept when
 * it lands inside it).
 */
export function generateTranslation({
  seed = 0,
  count = 1000,
  split = 'train',
  minWords = MIN_WORDS,
  maxWords = MAX_WORDS,
} = {}) {
  const name = 'generateTranslation';
  checkCommon(name, { seed, count, split });
  checkInt(name, 'minWords', minWords, MIN_WORDS, MAX_WORDS);
  checkInt(name, 'maxWords', maxWords, minWords, MAX_WORDS);
  const rand = splitStream(seed, split);
  const make = (r) => {
    for (;;) {
      const target = minWords + Math.floor(r() * (maxWords - minWords + 1));
      const ex = render(sampleTree(r, target));
      if (ex.length >= minWords && ex.length <= maxWords) return ex;
    }
  };
  return sampleSplit(name, rand, count, split, make, splitKey);
}

/** The split's key: the sentence without its final mark, so "she sees him ." and "she sees him"
 * always fall in the same split. */
function splitKey(ex) {
  return ENDS.has(ex.srcTokens.at(-1))
    ? ex.srcTokens.slice(0, -1).join(' ')
    : ex.srcTokens.join(' ');
}

// ---------------------------------------------------------------- vocabularies

function frenchForms() {
  const out = new Set();
  const add = (...ws) => ws.forEach((w) => out.add(w));
  for (const n of NOUNS) add(n.fr, n.frPlural);
  for (const a of ADJECTIVES) add(...Object.values(a.forms));
  for (const v of [...VERBS, ...SAY_VERBS]) {
    const f = v.fr;
    add(f.je, f.vous, f.il, f.nous, f.ils);
    for (const g of ['m', 'f']) for (const pl of [false, true]) add(partForm(f.part, g, pl));
  }
  for (const p of PERSONS) add(p.fr.subj, p.fr.obj, ...p.fr.poss);
  add(...Object.values(ETRE), ...Object.values(AVOIR));
  for (const x of [...PREPOSITIONS, ...CONJUNCTIONS]) add(...x.fr);
  add(
    'le',
    'la',
    'les',
    'un',
    'une',
    'des',
    'de',
    'ce',
    'cet',
    'cette',
    'ces',
    'ne',
    'pas',
    'qui',
    'que',
    'du',
    'au',
    'aux',
    'ton',
    ...ENDS,
  );
  add(...ELIDE.values(), "s'");
  return [...out];
}

function englishForms() {
  const out = new Set();
  const add = (...ws) => ws.forEach((w) => out.add(w));
  for (const n of NOUNS) add(n.en, n.enPlural);
  for (const a of ADJECTIVES) add(a.en);
  for (const v of [...VERBS, ...SAY_VERBS]) add(v.en.base, v.en.s3, v.en.pp);
  for (const p of PERSONS) add(...Object.values(p.en));
  for (const x of [...PREPOSITIONS, ...CONJUNCTIONS]) add(x.en);
  add(
    'the',
    'a',
    'an',
    'some',
    'this',
    'these',
    'not',
    "n't",
    "'s",
    'is',
    'are',
    'am',
    'has',
    'been',
    'does',
    'that',
    'who',
    ...ENDS,
  );
  return [...out];
}

/** The English words the generator writes (sorted). */
export const ENGLISH_WORDS = Object.freeze(englishForms().sort());
/** The French tokens it writes (sorted). */
export const FRENCH_TOKENS = Object.freeze(frenchForms().sort());

/** The tokenizer of the translation models (word level, both sides normalised as written here). */
export const TRANSLATION_TOKENIZER = Object.freeze({
  type: 'word',
  srcVocab: Object.freeze(['<pad>', '<unk>', ...ENGLISH_WORDS]),
  tgtVocab: Object.freeze(['<pad>', '<s>', '</s>', '<unk>', ...FRENCH_TOKENS]),
  pad: '<pad>',
  bos: '<s>',
  eos: '</s>',
  unk: '<unk>',
  normalize: TRANSLATION_NORMALIZE,
});

const KNOWN = new Set(ENGLISH_WORDS);

/**
 * What lies outside the translators' domain in typed English, so the page can say it next to a
 * confident translation: [] when the generator could have written the sentence (or it is empty);
 * else problems, in this order: { code: 'unknown-words', words } (not in ENGLISH_WORDS, each
 * once, as normalised), { code: 'too-long', count, max } (count words, more than MAX_WORDS), and
 * { code: 'grammar' } when every word is known but the grammar cannot write the sentence (an
 * order or construction it never uses).
 * @param {string} text
 */
export function translationDomain(text) {
  const tokens = normalizeWords(String(text), PARSE_STEPS);
  if (tokens.length === 0) return [];
  const out = [];
  const unknown = [...new Set(tokens.filter((w) => !KNOWN.has(w)))];
  if (unknown.length) out.push({ code: 'unknown-words', words: unknown });
  const count = tokens.filter((w) => /[\p{L}']/u.test(w)).length;
  if (count > MAX_WORDS) out.push({ code: 'too-long', count, max: MAX_WORDS });
  if (out.length === 0 && !parseEnglishTokens(tokens)) out.push({ code: 'grammar' });
  return out;
}

/** Sentences that show each phenomenon (translation-examples.js, off the page's critical path):
 * the Examples menu of the translation models and the hand-written check; every one parses. */
export { TRANSLATION_EXAMPLES } from './translation-examples.js';
