// attnlab/wasm/model/normalize.js: the text normalisation a model was trained with, named in its
// config as tokenizer.normalize (docs/models.md, "Normalisation"), applied by the tokenizer before
// lookup, so Node and the page read typed text exactly as the trainer did.
//
//   const steps = normalizeSteps(['nfc', 'quotes', 'lowercase', 'punctuation', 'contractions']);
//   normalizeWords('The movie wasn’t great...', steps)
//   // ['the', 'movie', 'was', "n't", 'great', '.', '.', '.']
//   normalizeChars('  5 MAY  1850 ', normalizeSteps(['lowercase', 'whitespace']))   // '5 may 1850'
//
// The steps, always applied in this order whatever the order of the list:
//   nfc           Unicode NFC (a precomposed é and e + U+0301 become the same token)
//   quotes        typographic apostrophes and quotes to ASCII (’ ‘ ʼ ′ → ', “ ” „ ″ → "), dashes
//                 (– —) to '-', the ellipsis character to '...', no-break spaces to spaces
//   lowercase     String.prototype.toLowerCase (locale-independent)
//   whitespace    runs of whitespace become one space, none at either end (a word tokenizer
//                 splits on whitespace runs anyway; this step matters for char tokenizers)
//   punctuation   word tokenizers: every punctuation or symbol character is a token of its own
//                 ("great." → "great ."; "well-made" → "well - made"), except inside numbers
//                 ("3.5", "1,000", "10:30" stay whole) and an apostrophe between letters ("o'clock")
//   contractions  word tokenizers, with punctuation: the clitics n't 's 're 've 'll 'd 'm become
//                 tokens of their own, as the Penn Treebank splits them ("didn't" → "did n't",
//                 "it's" → "it 's"), with can't → "can n't", won't → "will n't", shan't → "shall
//                 n't", cannot → "can not"; the forms people type without the apostrophe (dont,
//                 didnt, isnt, wont, cant, im, ... CONTRACTION_TYPOS, lowercase) are read as if they had it
//   elision       word tokenizers, with punctuation: a French elided word is a token of its own,
//                 apostrophe included ("n'aiment" → "n' aiment", "qu'elle" → "qu' elle", "l'os" →
//                 "l' os"): the prefixes c' d' j' l' m' n' s' t' qu' jusqu' lorsqu' puisqu' before a
//                 letter (English "n't" is left alone); joinTokens() glues them back
//   spelling      word tokenizers: a word the vocabulary lacks is read as the nearest vocabulary
//                 word (spelling.js: one or two edits); the tokenizer applies it, as it needs the
//                 vocabulary, so normalizeWords() leaves it out
// Normalising normalised text changes nothing (tests/js/normalize.test.js checks it on random
// text), so a trainer may normalise its examples and the tokenizer normalise them again.
// Deliberately not here: stemming, subwords, the spelling correction itself (spelling.js).

import { AttnlabError } from '../core.js';

/** The known step names, in the order they are applied. */
export const NORMALIZE_STEPS = Object.freeze([
  'nfc',
  'quotes',
  'lowercase',
  'whitespace',
  'punctuation',
  'contractions',
  'elision',
  'spelling',
]);
const WORD_ONLY = new Set(['punctuation', 'contractions', 'elision', 'spelling']);

/**
 * Validate a config's tokenizer.normalize (undefined: none) for a tokenizer of `type`.
 * @param {unknown} list
 * @param {'char' | 'word'} type
 * @returns {ReadonlySet<string>} the steps
 */
export function normalizeSteps(list, type = 'word') {
  if (list === undefined) return new Set();
  if (!Array.isArray(list))
    throw new AttnlabError(
      'tokenizer: "normalize" must be an array of step names',
      'AL_ERR_FORMAT',
    );
  const steps = new Set();
  for (const s of list) {
    if (typeof s !== 'string' || !NORMALIZE_STEPS.includes(s)) {
      throw new AttnlabError(
        `tokenizer: unknown normalize step ${typeof s === 'string' ? JSON.stringify(s.slice(0, 40)) : typeof s} (known: ${NORMALIZE_STEPS.join(', ')})`,
        'AL_ERR_FORMAT',
      );
    }
    if (steps.has(s))
      throw new AttnlabError(`tokenizer: normalize step "${s}" is listed twice`, 'AL_ERR_FORMAT');
    if (type === 'char' && WORD_ONLY.has(s))
      throw new AttnlabError(
        `tokenizer: normalize step "${s}" is for word tokenizers only`,
        'AL_ERR_FORMAT',
      );
    steps.add(s);
  }
  for (const s of ['contractions', 'elision']) {
    if (steps.has(s) && !steps.has('punctuation')) {
      throw new AttnlabError(
        `tokenizer: normalize step "${s}" needs "punctuation" (the apostrophe is punctuation)`,
        'AL_ERR_FORMAT',
      );
    }
  }
  return steps;
}

const QUOTES = [
  [/[\u2018\u2019\u201A\u201B\u02BC\u2032\u0060\u00B4]/g, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g, '"'],
  [/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, '-'],
  [/\u2026/g, '...'],
  [/[\u00A0\u2007\u202F]/g, ' '],
];

/** The steps before splitting into tokens (nfc, quotes, lowercase, whitespace). */
function prepare(text, steps) {
  let s = text;
  if (steps.has('nfc')) s = s.normalize('NFC');
  if (steps.has('quotes')) for (const [re, to] of QUOTES) s = s.replace(re, to);
  if (steps.has('lowercase')) s = s.toLowerCase();
  if (steps.has('whitespace')) s = s.replace(/\s+/gu, ' ').trim();
  return s;
}

/** A char tokenizer's text after its steps. */
export function normalizeChars(text, steps) {
  return prepare(text, steps);
}

// A token, by priority: a number with inner . , : (3.5, 1,000, 10:30); with contractions, a
// clitic standing alone ('s, n't: already split text stays split); a word, letters and digits
// with apostrophes only between them (o'clock, didn't); any other single character.
const NUMBER = String.raw`\p{N}+(?:[.,:]\p{N}+)+`;
const CLITIC = String.raw`(?<![\p{L}\p{M}\p{N}])(?:'(?:s|re|ve|ll|d|m)|n't)(?![\p{L}\p{M}\p{N}'])`;
const WORD = String.raw`[\p{L}\p{M}\p{N}]+(?:'[\p{L}\p{M}\p{N}]+)*`;
const TOKEN_RE = new RegExp(`${NUMBER}|${CLITIC}|${WORD}|\\S`, 'gu');
const TOKEN_NO_CLITIC_RE = new RegExp(`${NUMBER}|${WORD}|\\S`, 'gu');
// with elision: an elided prefix standing alone ("l' os", as joinTokens never writes but people
// may type) is one token too
const ELIDED_TOKEN = String.raw`(?<![\p{L}\p{M}\p{N}])(?:jusqu|lorsqu|puisqu|qu|[cdjlmnst])'(?![\p{L}\p{M}\p{N}])`;
const TOKEN_ELISION_RE = new RegExp(`${NUMBER}|${CLITIC}|${ELIDED_TOKEN}|${WORD}|\\S`, 'gu');
const TOKEN_ELISION_NO_CLITIC_RE = new RegExp(`${NUMBER}|${ELIDED_TOKEN}|${WORD}|\\S`, 'gu');

/** The irregular n't stems: what the word before n't is. */
const NT_STEMS = Object.freeze({ ca: 'can', wo: 'will', sha: 'shall' });
/** Contractions people type without the apostrophe, read as if it were there. Only forms that
 * are not ordinary English words (so no "well", "were", "hell", "its", "ill", "shed"). */
export const CONTRACTION_TYPOS = Object.freeze({
  dont: "don't",
  doesnt: "doesn't",
  didnt: "didn't",
  isnt: "isn't",
  arent: "aren't",
  wasnt: "wasn't",
  werent: "weren't",
  havent: "haven't",
  hasnt: "hasn't",
  hadnt: "hadn't",
  wont: "won't",
  cant: "can't",
  couldnt: "couldn't",
  shouldnt: "shouldn't",
  wouldnt: "wouldn't",
  mustnt: "mustn't",
  neednt: "needn't",
  aint: "ain't",
  im: "i'm",
  ive: "i've",
  youre: "you're",
  youve: "you've",
  theyre: "they're",
  theyve: "they've",
  thats: "that's",
  whats: "what's",
  theres: "there's",
  youd: "you'd",
  theyd: "they'd",
  youll: "you'll",
  theyll: "they'll",
});

/** One token → its tokens with the clitics split off (a typo in CONTRACTION_TYPOS is matched as
 * written: lowercase, so only after the lowercase step or when typed in lowercase). Stems are
 * split again ("i'd've" → i 'd 've), and an apostrophe left at a stem's end is a token of its own,
 * so that the tokens read back give the same tokens. */
function splitClitics(w) {
  if (Object.hasOwn(CONTRACTION_TYPOS, w)) w = CONTRACTION_TYPOS[w];
  if (w === 'cannot') return ['can', 'not'];
  let stem, clitic;
  if (w.length > 3 && w.slice(-3).toLowerCase() === "n't") {
    stem = w.slice(0, -3);
    clitic = w.slice(-3);
    if (Object.hasOwn(NT_STEMS, stem)) stem = NT_STEMS[stem]; // own keys only: "constructorn't" is a word
  } else {
    const m = /^(.+?)('(?:s|re|ve|ll|d|m))$/iu.exec(w);
    if (!m) return [w];
    stem = m[1];
    clitic = m[2];
  }
  const head = stem.endsWith("'") ? [...splitClitics(stem.slice(0, -1)), "'"] : splitClitics(stem);
  return [...head.filter((t) => t.length > 0), clitic];
}

/**
 * A word tokenizer's text → its tokens (strings) after the steps; without punctuation the text
 * is split on whitespace as before.
 * @param {string} text
 * @param {ReadonlySet<string>} steps
 * @returns {string[]}
 */
export function normalizeWords(text, steps) {
  const s = prepare(text, steps);
  if (!steps.has('punctuation')) return s.split(/\s+/u).filter((w) => w.length > 0);
  const clitics = steps.has('contractions');
  const elision = steps.has('elision');
  const out = [];
  for (const m of s.matchAll(
    elision
      ? clitics
        ? TOKEN_ELISION_RE
        : TOKEN_ELISION_NO_CLITIC_RE
      : clitics
        ? TOKEN_RE
        : TOKEN_NO_CLITIC_RE,
  )) {
    let w = m[0];
    if (elision) {
      for (let e = ELIDED_RE.exec(w); e && w.toLowerCase() !== "n't"; e = ELIDED_RE.exec(w)) {
        out.push(e[1]);
        w = w.slice(e[1].length);
      }
    }
    if (clitics) for (const t of splitClitics(w)) out.push(t);
    else out.push(w);
  }
  return out;
}

/** An elided French prefix at the start of a word: its text (apostrophe included). */
const ELIDED_RE = /^((?:jusqu|lorsqu|puisqu|qu|[cdjlmnst])')(?=[\p{L}])/iu;

/**
 * Tokens → text as a word tokenizer writes it: one space between tokens, none after an elided
 * prefix when the steps include elision ("l'" + "os" → "l'os"). normalizeWords(joinTokens(t))
 * gives t back for tokens it made.
 * @param {string[]} tokens
 * @param {ReadonlySet<string>} steps
 */
export function joinTokens(tokens, steps) {
  if (!steps.has('elision')) return tokens.join(' ');
  let s = '';
  tokens.forEach((w, i) => {
    const next = tokens[i + 1];
    // glued unless the pair would read as English "n't" ("n'" + "t")
    s +=
      w +
      (next !== undefined && !(ELIDED_ALONE_RE.test(w) && `${w}${next}`.toLowerCase() !== "n't")
        ? ' '
        : '');
  });
  return s;
}
const ELIDED_ALONE_RE = /^(?:jusqu|lorsqu|puisqu|qu|[cdjlmnst])'$/iu;
