// attnlab/wasm/model/tokenizer.js: the tokenizers of model configs (docs/models.md, "tokenizer").
//
//   const tok = new Tokenizer(config.tokenizer);
//   tok.encode('abc')            // Int32Array of source ids; unknown symbols become the unk id
//   tok.decode([5, 6, 2])        // target ids -> text, bos/eos/pad left out
//
// Two kinds: "char" (one token per Unicode code point, joined with '') and "word" (tokens split on
// whitespace, joined with one space). The vocabularies are the config's srcVocab and tgtVocab; a
// token listed twice maps to its first index. Special tokens (bos, eos, unk, pad) are named in the
// config. Nothing here throws on text: unknown characters or words map to unk. An optional
// `normalize` list names the normalisation the model was trained with (normalize.js: NFC,
// quotes, lowercase, whitespace, punctuation, contractions); split() applies it, so encode() and
// everything built on it read raw text as the trainer did. Without the key, text is split as
// typed (the files before it keep their behaviour). unknownWords() lists what mapped to unk.
// With the normalize step "spelling" (word tokenizers; spelling.js), a word the vocabulary lacks
// is read as the nearest vocabulary word: split() gives the tokens as read, corrections() the
// pairs [typed, read], and unknownWords() still lists every typed word the vocabulary lacks,
// corrected or not (the model never learnt them as typed). An optional `spellingKeep` list (with
// the "spelling" step only) names real words the vocabulary lacks that the step leaves as typed.
// An optional `unknownShapes` list (word tokenizers) names shape classes from UNKNOWN_SHAPES, each
// a token of the vocabulary: an unknown word whose shape matches one (shapeOf: "jars" → <unk-s>)
// reads as that token instead of unk, so a model can tell an unknown plural noun from an unknown
// singular one; the irregular plurals of plurals.js ("geese", "firemen") read as <unk-s> too.
// python/attnlab/tokenizer.py mirrors shapeOf exactly.
// Spelling comes first: a word the corrector reads as a vocabulary word is no longer unknown;
// what is still unknown reads as its shape class, else unk.
// Deliberately not here: subwords (BPE); the correction rule itself (spelling.js).

import { AttnlabError } from '../core.js';
import { normalizeChars, normalizeSteps, normalizeWords, joinTokens } from './normalize.js';

import { NORMALIZE_STEPS as STEP_ORDER } from './normalize.js';
import { spellingCorrector } from './spelling.js';
import { isIrregularPlural } from './plurals.js';

function indexOf(vocab) {
  const m = new Map();
  vocab.forEach((t, i) => {
    if (!m.has(t)) m.set(t, i);
  });
  return m;
}

/** The shape classes an unknown word can read as (config key tokenizer.unknownShapes), tried in
 * this order: a word with a digit; an irregular plural noun of plurals.js ("geese", "criteria",
 * "firemen": <unk-s>); then words of letters (parts joined by - or ') ending in -ing (5+ letters),
 * -ed (4+), -ly (4+), -s (4+, not -ss, -us, -is: "jars", "dishes", not "glass", "bonus",
 * "basis"). */
export const UNKNOWN_SHAPES = Object.freeze([
  '<unk-num>',
  '<unk-ing>',
  '<unk-ed>',
  '<unk-ly>',
  '<unk-s>',
]);

const LETTERS = /^\p{L}+$/u;

/** The shape class of a word (one of UNKNOWN_SHAPES), or null when none fits; with
 * { irregularPlurals: false }, plurals.js's words have no shape (as before that list). */
export function shapeOf(word, { irregularPlurals = true } = {}) {
  if (/[0-9]/.test(word)) return '<unk-num>';
  if (irregularPlurals && isIrregularPlural(word)) return '<unk-s>';
  if (!word.split(/[-']/).every((p) => LETTERS.test(p))) return null;
  const n = Array.from(word).length;
  if (n >= 5 && word.endsWith('ing')) return '<unk-ing>';
  if (n >= 4 && word.endsWith('ed')) return '<unk-ed>';
  if (n >= 4 && word.endsWith('ly')) return '<unk-ly>';
  if (n >= 4 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return '<unk-s>';
  return null;
}

/** A config's spellingKeep list, checked: strings, and only beside the "spelling" step. */
function keepOf(list, steps) {
  if (list === undefined) return [];
  const what = 'tokenizer: "spellingKeep"';
  if (!Array.isArray(list) || !list.every((w) => typeof w === 'string'))
    throw new AttnlabError(`${what} must be an array of words (strings)`, 'AL_ERR_FORMAT');
  if (!steps.has('spelling'))
    throw new AttnlabError(
      `${what} needs the normalize step "spelling" (it names the words that step leaves as typed)`,
      'AL_ERR_FORMAT',
    );
  return list;
}

/** A config's unknownShapes list, checked: known names, each once, each in the vocabulary. */
function shapesOf(list, cfg) {
  if (list === undefined) return [];
  const what = 'tokenizer: "unknownShapes"';
  if (!Array.isArray(list))
    throw new AttnlabError(`${what} must be an array of names`, 'AL_ERR_FORMAT');
  if (cfg.type !== 'word')
    throw new AttnlabError(`${what} is for word tokenizers only`, 'AL_ERR_FORMAT');
  const seen = new Set();
  for (const name of list) {
    if (!UNKNOWN_SHAPES.includes(name))
      throw new AttnlabError(
        `${what}: unknown shape class ${JSON.stringify(name)} (known: ${UNKNOWN_SHAPES.join(', ')})`,
        'AL_ERR_FORMAT',
      );
    if (seen.has(name))
      throw new AttnlabError(`${what}: "${name}" is listed twice`, 'AL_ERR_FORMAT');
    if (!cfg.srcVocab.includes(name))
      throw new AttnlabError(`${what}: "${name}" is not in the vocabulary`, 'AL_ERR_FORMAT');
    seen.add(name);
  }
  return [...seen];
}

export class Tokenizer {
  /** @param {{ type: 'char' | 'word', srcVocab: string[], tgtVocab: string[],
   *            bos?: string, eos?: string, unk: string, pad?: string, normalize?: string[],
   *            unknownShapes?: string[], spellingKeep?: string[], irregularPlurals?: boolean }} cfg
   *   (no bos/eos: a classifier's; irregularPlurals: a trainer's option, never a file's key) */
  constructor(cfg) {
    if (!cfg || typeof cfg !== 'object')
      throw new AttnlabError('tokenizer: the config has no "tokenizer" object', 'AL_ERR_FORMAT');
    if (cfg.type !== 'char' && cfg.type !== 'word') {
      throw new AttnlabError(
        `tokenizer: unknown type ${JSON.stringify(cfg.type)} (known: char, word)`,
        'AL_ERR_FORMAT',
      );
    }
    for (const k of ['srcVocab', 'tgtVocab']) {
      if (!Array.isArray(cfg[k]) || !cfg[k].every((t) => typeof t === 'string')) {
        throw new AttnlabError(`tokenizer: "${k}" must be an array of strings`, 'AL_ERR_FORMAT');
      }
    }
    this.type = cfg.type;
    this.normalizeSteps = normalizeSteps(cfg.normalize, cfg.type);
    /** The normalize steps of the config, in the order they apply ([] when none). */
    this.normalization = Object.freeze(
      [...this.normalizeSteps].sort((a, b) => STEP_ORDER.indexOf(a) - STEP_ORDER.indexOf(b)),
    );
    this.srcVocab = cfg.srcVocab.slice();
    this.tgtVocab = cfg.tgtVocab.slice();
    this.src = indexOf(this.srcVocab);
    this.tgt = indexOf(this.tgtVocab);
    this.specials = { bos: cfg.bos, eos: cfg.eos, unk: cfg.unk, pad: cfg.pad };
    this.unkId = this.src.get(cfg.unk) ?? 0;
    this.tgtUnkId = this.tgt.get(cfg.unk) ?? -1;
    this.bosId = this.tgt.get(cfg.bos) ?? -1;
    this.eosId = this.tgt.get(cfg.eos) ?? -1;
    this.padId = cfg.pad === undefined ? -1 : (this.tgt.get(cfg.pad) ?? -1);
    const keep = keepOf(cfg.spellingKeep, this.normalizeSteps);
    this.correct = this.normalizeSteps.has('spelling')
      ? spellingCorrector(this.srcVocab, { keep })
      : null;
    /** The config's shape classes (unknownShapes; [] when none). */
    this.unknownShapes = Object.freeze(shapesOf(cfg.unknownShapes, cfg));
    this.shapes = new Set(this.unknownShapes);
    // JS only, never a model file's key: false reads irregular plurals as unk, as the tokenizer
    // did before plurals.js (the agreement LMs' trainer reads its corpus so: their recipe)
    this.irregularPlurals = cfg.irregularPlurals !== false;
  }

  /** The token an unknown word reads as: its shape class when the config lists it, else unk. */
  unknownToken(word) {
    const shape = this.shapes.size
      ? shapeOf(word, { irregularPlurals: this.irregularPlurals })
      : null;
    return shape !== null && this.shapes.has(shape) ? shape : this.specials.unk;
  }

  /** A source token's id: its own, else its shape class's (unknownShapes), else unk's. */
  id(token) {
    return this.src.get(token) ?? this.src.get(this.unknownToken(token)) ?? this.unkId;
  }

  /** The tokens as typed, after every normalisation step but spelling. */
  splitTyped(text) {
    if (typeof text !== 'string')
      throw new AttnlabError(`tokenizer: expected text, got ${typeof text}`);
    return this.type === 'char'
      ? Array.from(normalizeChars(text, this.normalizeSteps))
      : normalizeWords(text, this.normalizeSteps);
  }

  /** Split text into tokens (strings) after the config's normalisation, without looking them up
   * (with "spelling": unknown words as the corrector reads them). */
  split(text) {
    const tokens = this.splitTyped(text);
    if (!this.correct) return tokens;
    return tokens.map((t) => (t === this.specials.unk ? t : (this.correct(t) ?? t)));
  }

  /** With the "spelling" step: [typed, read] for each typed word read as another, once each, in
   * the order they first appear ([] without the step). */
  corrections(text) {
    if (!this.correct) return [];
    const out = [];
    const seen = new Set();
    for (const t of this.splitTyped(text)) {
      if (t === this.specials.unk || seen.has(t)) continue;
      seen.add(t);
      const r = this.correct(t);
      if (r !== null) out.push([t, r]);
    }
    return out;
  }

  /** The text as the model reads it: its tokens joined ('' for char, one space for word). */
  normalize(text) {
    return this.join(this.split(text));
  }

  /** Tokens → text: '' between char tokens; one space between words, none after a French elided
   * prefix (l' j' n' …) when the config normalises with "elision". */
  join(tokens) {
    return this.type === 'char' ? tokens.join('') : joinTokens(tokens, this.normalizeSteps);
  }

  /** The source tokens of text that are not in the vocabulary as typed (read as unk, or corrected
   * with "spelling"), each once, in the order they first appear; the unk token itself, typed, is
   * not counted. */
  unknownWords(text) {
    const out = [];
    const seen = new Set();
    for (const t of this.splitTyped(text)) {
      if (!this.src.has(t) && t !== this.specials.unk && !seen.has(t)) {
        seen.add(t);
        out.push(t);
      }
    }
    return out;
  }

  /** Source text -> Int32Array of source ids (unknown tokens -> the unk id). */
  encode(text) {
    return Int32Array.from(this.split(text), (t) => this.id(t));
  }

  /** Target text -> Int32Array of target ids (unknown -> unk when the target vocabulary has it). */
  encodeTarget(text) {
    return Int32Array.from(this.split(text), (t) => {
      const id = this.tgt.get(t) ?? this.tgt.get(this.unknownToken(t)) ?? this.tgtUnkId;
      if (id < 0)
        throw new AttnlabError(
          `tokenizer: "${t}" is not in tgtVocab, which has no unk token`,
          'AL_ERR_RANGE',
        );
      return id;
    });
  }

  /** Source ids -> token strings (an id outside the vocabulary shows as the unk token). */
  srcTokens(ids) {
    return Array.from(ids, (i) => this.srcVocab[i] ?? this.specials.unk);
  }

  /** Target ids -> token strings. */
  tgtTokens(ids) {
    return Array.from(ids, (i) => this.tgtVocab[i] ?? this.specials.unk);
  }

  /** Target ids -> text, leaving out bos, eos and pad. */
  decode(ids) {
    const skip = new Set([this.bosId, this.eosId, this.padId]);
    const toks = [];
    for (const i of ids) if (!skip.has(i)) toks.push(this.tgtVocab[i] ?? this.specials.unk);
    return this.join(toks);
  }
}
