// attnlab/web/data/agreement.js: a seeded English-like grammar with long-range subject–verb
// agreement, for language models (Linzen et al. 2016's number-prediction test on generated text),
// shared by the trainer and the page. ESM, no DOM; imports only the library's normaliser
// (wasm/model/normalize.js): runs in Node and browsers.
//
//   import { generateAgreement, agreementTestSet, AGREEMENT_TOKENIZER } from './data/agreement.js';
//   generateAgreement({ seed: 1, count: 3 })[2];
//   // { text: 'the child near the dogs is catching some big detectives .', words: [...],
//   //   subjectIndex: 1, verbIndex: 5, number: 'sg', attractors: 1, intervening: 1,
//   //   correct: 'is', wrong: 'are' }
//
// The grammar (every choice uniform unless a weight is given below):
//   S        → NP_subj MOD* VP PP? '.'           0..maxModifiers (default 2) modifiers, weights 1:2:2:1…
//   NP       → DET ADJ? N                          DET: sg the | a / an, pl the | some; ADJ 1 in 4
//                                                  "the fbi" (sg) and "the police" (pl) take only "the"
//   MOD      → PP | that NP V_past                 "near the cars", "that the reporter saw"
//            | that|who V NP?   (subject relative; V present, agreeing with the head noun, or
//                               past: "who runs", "that chased the cars"; "who" for people only)
//   PP       → P NP | "on the run"                P: near, behind, with, beside, from; 1 in 6 is
//                                                  "on the run", at most once per sentence
//   (no two relative clauses of the same kind in a row)
//   VP       → is|are V_ing NP | was|were V_ing NP | V_s|V_base NP | has|have V_pp NP
//            | is|are|was|were ADJ_pred | V_s|V_base | is|are V_ing | has|have V_pp (the last three
//            intransitive: "runs", "are hiding", "has escaped"); PP after VP: 1 in 3
// Subjects are people, animals or organisations; the head noun of NP_subj fixes the number
// ('sg' | 'pl'), and the first word of VP (at verbIndex) agrees with it. Every modifier attaches to
// the subject, so nothing between subject and verb changes the correct form; the nouns of the
// modifiers ("car", "reporter") are the attractors when their number differs.
// "the fbi is chasing a criminal on the run ." is in the language (tested; analyzeAgreement()).
// "run" is a noun in "on the run" only (counted as a singular noun) and a verb elsewhere.
// Casing: every word is lowercase and "." is its own word. normalizeSentence() reads typed text
// the way the shipped agreement models' tokenizer does (tokenizer.normalize, AGREEMENT_NORMALIZE):
// "The FBI is chasing a criminal on the run." → "the fbi is chasing a criminal on the run .".
// Split: the key of a sentence is its text; held out when hashString(text) % 10 == 0 (common.js).
// 'train' and 'heldout' never share a sentence.
// Randomness: mulberry32(seed ^ split constant) (common.js), never Math.random.
// Widened (agreementLexicon): the same grammar over a larger lexicon taken from the Brown corpus
// (web/data/brown.js brownLexicon), the agreement LMs' generated training text; it can make a share
// of the subjects people (relative clauses with "who") and weigh "the" as Brown does. With
// spokenRelatives it says relative clauses as people do: MOD → (that)? (NP | PRONOUN) V (P | PP)?
// ("the soup my neighbours made", "the toy the puppies chew on", "the plants he waters") and
// that|who V NP? PP? ("the bus that stops outside the shops"); a pronoun of the other number is an
// attractor ("i" and "you" are not), and "on" heads a phrase like any preposition (without it the
// widened grammar reads every "on" as "on the run", kept so that its files retrain to the same bytes).
// Exports: generateAgreement, agreementTestSet (the correct and wrong verb form at verbIndex for
// each sentence), agreementAccuracy (an LM's P(correct) > P(wrong) rate, by attractor count),
// analyzeAgreement (parse a sentence of the grammar), normalizeSentence, the vocabulary and a
// word tokenizer for a decoder-only transformer (srcVocab = tgtVocab).
// Not here: the words, base and widened (agreement-lexicon.js, whose agreementLexicon and
// lexiconWords this file re-exports); tokenisation into ids (wasm/model/tokenizer.js); the model.

import { checkCommon, checkInt, isHeldOutKey, sampleSplit, splitStream } from './common.js';
import { normalizeSteps, normalizeWords } from '../../wasm/model/normalize.js';
import {
  ADJECTIVES,
  BASE_LEXICON,
  BE_PAST,
  BE_PRES,
  DET,
  FLIP,
  HAVE,
  INTRANSITIVE,
  NOUNS,
  PRED_ADJECTIVES,
  PRONOUNS,
  PREPOSITIONS,
  TRANSITIVE,
  vowel,
} from './agreement-lexicon.js';

export { agreementLexicon, lexiconWords } from './agreement-lexicon.js';

// ---- the grammar as a program of choices --------------------------------------------------------
// derive(g) walks the grammar, asking g.choose(n, weights?) for every decision and handing every
// word to g.word(w). Generation answers with the PRNG; analyzeAgreement answers by search.

function derive(g, L = BASE_LEXICON) {
  const nouns = []; // [index, number] of every noun
  let subjectIndex = -1;
  let verbIndex = -1;

  const choose = (list, weights) => list[g.choose(list.length, weights)];
  const noun = (w, number) => {
    nouns.push([g.position(), number]);
    g.word(w);
  };
  // NP → DET ADJ? N, with kinds allowed; returns the noun's number
  const np = (kinds) => {
    const number = choose(['sg', 'pl']);
    // the widened grammar's subjects are people a personShare of the time (the person nouns are
    // few among hundreds, and people are what sentences are mostly about; "who" needs them)
    const people =
      kinds === L.subjectKinds && L.personShare
        ? choose([true, false], [L.personShare, 1 - L.personShare])
        : null;
    const entries = L.nouns.filter(
      (n) =>
        kinds.has(n[2]) &&
        n[number === 'sg' ? 0 : 1] !== null &&
        (people === null || (n[2] === 'person') === people),
    );
    const entry = choose(entries);
    const n = entry[number === 'sg' ? 0 : 1];
    const only = L.theOnly.has(n);
    const adj = only
      ? null
      : choose([null, ...L.adjectives], [3 * L.adjectives.length, ...L.adjectives.map(() => 1)]);
    let det = only ? 'the' : choose(L.det[number], L.detWeights?.[number]);
    if (det === 'a' && vowel(adj ?? n)) det = 'an';
    g.word(det);
    if (adj) g.word(adj);
    return { number, n, index: (noun(n, number), nouns[nouns.length - 1][0]) };
  };
  const ANY = new Set(['person', 'animal', 'org', 'thing', 'any']);
  let onTheRun = !L.onTheRun; // "on the run" at most once per sentence
  const pp = () => {
    const p = choose(onTheRun ? L.prepositions : [...L.prepositions, 'on']);
    for (const w of p.split(' ')) g.word(w); // "next to": two words
    // the widened grammar before spokenRelatives read every "on" as "on the run" (kept: its files
    // retrain to the same bytes); with them "on" heads a phrase like any preposition
    if (p === 'on' && !L.spokenRelatives) {
      onTheRun = true;
      g.word('the');
      noun('run', 'sg');
    } else np(ANY);
  };
  // a relative clause's pronoun subject: its number is the verb's ("he waters", "i water"); "i"
  // and "you" take the plural form but are no plural noun, so no attractor
  const pronoun = () => {
    const [w, number, attracts] = choose(PRONOUNS);
    if (attracts) noun(w, number);
    else g.word(w);
    return { number };
  };
  // agreeing verb form: [sg, pl] by number
  const agree = (pair, number) => pair[number === 'sg' ? 0 : 1];

  // S → NP_subj MOD* VP PP? '.'
  const subj = np(L.subjectKinds);
  subjectIndex = subj.index;
  const number = subj.number;
  const person = L.nouns.find((n) => n[0] === subj.n || n[1] === subj.n)[2] === 'person';
  const mods = g.choose(g.maxModifiers + 1, [1, 2, 2, 1, 1, 1, 1].slice(0, g.maxModifiers + 1));
  let prev = null;
  for (let m = 0; m < mods; m++) {
    // two relative clauses of one kind in a row read badly ("that runs who waited"): not allowed
    const kind = choose(['pp', 'orc', 'src'].filter((k) => k === 'pp' || k !== prev));
    prev = kind;
    if (kind === 'pp') pp();
    else if (kind === 'orc') {
      // spoken relatives (the widened grammar's L.spokenRelatives): "that" may drop ("the soup
      // my neighbours made") and the inner subject may be a pronoun ("the plants he waters")
      if (!L.spokenRelatives || choose([true, false])) g.word('that');
      const inner =
        L.spokenRelatives && choose([true, false], [1, 2]) ? pronoun() : np(L.subjectKinds);
      // the wide grammar also has "that the boys like": a present verb agreeing with the inner
      // subject, an attractor right before the verb
      const v = choose(L.transitive);
      g.word(
        L.orcPresent && choose(['present', 'past']) === 'present'
          ? agree(L.agreeing ? choose(L.agreeing) : v, inner.number)
          : v[3],
      );
      // and may end in a stranded preposition or a phrase ("the toy the puppies chew on", "the
      // shoes my son wore to the wedding")
      if (L.spokenRelatives) {
        const tail = choose(['none', 'stranded', 'pp'], [4, 1, 1]);
        if (tail === 'stranded') g.word(choose(L.stranded));
        else if (tail === 'pp') pp();
      }
    } else {
      // "who" is what English mostly uses for people (the widened grammar: 3 to 1)
      g.word(person ? choose(['who', 'that'], L.personShare ? [3, 1] : undefined) : 'that');
      if (choose(['transitive', 'intransitive']) === 'transitive') {
        const v = choose(L.transitive);
        const present = choose(['present', 'past']) === 'present';
        g.word(present ? agree(L.agreeing ? choose(L.agreeing) : v, number) : v[3]);
        np(ANY);
      } else {
        const v = choose(L.intransitive);
        g.word(choose(['present', 'past']) === 'present' ? agree(v, number) : v[3]);
      }
      // "the bus that stops outside the shops"
      if (L.spokenRelatives && choose([false, true], [2, 1])) pp();
    }
  }
  verbIndex = g.position();
  const vp = choose([
    'prog',
    'progPast',
    'simple',
    'perfect',
    'copula',
    'intransitive',
    'progIntransitive',
    'perfectIntransitive',
  ]);
  if (vp === 'prog' || vp === 'progPast') {
    g.word(agree(vp === 'prog' ? BE_PRES : BE_PAST, number));
    g.word(choose(L.progressive)[2]);
    np(ANY);
  } else if (vp === 'simple') {
    g.word(agree(choose(L.agreeing ?? L.transitive), number));
    np(ANY);
  } else if (vp === 'perfect') {
    g.word(agree(HAVE, number));
    g.word(choose(L.transitive)[4]);
    np(ANY);
  } else if (vp === 'copula') {
    g.word(agree(choose([BE_PRES, BE_PAST]), number));
    g.word(choose(L.predAdjectives));
  } else if (vp === 'perfectIntransitive') {
    g.word(agree(HAVE, number));
    g.word(choose(L.intransitive)[4]);
  } else if (vp === 'intransitive') {
    g.word(agree(choose(L.intransitive), number));
  } else {
    g.word(agree(BE_PRES, number));
    g.word(choose(L.intransitive)[2]);
  }
  if (choose([false, true], [2, 1])) pp();
  g.word('.');
  const attractors = nouns.filter(
    ([i, n]) => i > subjectIndex && i < verbIndex && n !== number,
  ).length;
  const intervening = nouns.filter(([i]) => i > subjectIndex && i < verbIndex).length;
  return { subjectIndex, verbIndex, number, attractors, intervening };
}

/** The generator's answers: PRNG draws. */
function randomChooser(rand, maxModifiers) {
  const words = [];
  return {
    words,
    maxModifiers,
    position: () => words.length,
    word: (w) => words.push(w),
    choose(n, weights) {
      if (!weights) return Math.floor(rand() * n);
      let total = 0;
      for (const w of weights) total += w;
      let x = rand() * total;
      for (let i = 0; i < n; i++) if ((x -= weights[i]) < 0) return i;
      return n - 1;
    },
  };
}

function sentence(rand, maxModifiers, L = BASE_LEXICON) {
  const g = randomChooser(rand, maxModifiers);
  const meta = derive(g, L);
  const words = g.words;
  const text = words.join(' ');
  return {
    text,
    src: `<s> ${text}`,
    words,
    ...meta,
    correct: words[meta.verbIndex],
    wrong: L.flip.get(words[meta.verbIndex]),
  };
}

// ---- the vocabulary -------------------------------------------------------------------------------

function allWords() {
  const set = new Set(['.', 'that', 'who', 'on', 'run', 'an']);
  for (const [s, p] of NOUNS) {
    if (s) set.add(s);
    if (p) set.add(p);
  }
  for (const list of [
    ADJECTIVES,
    PRED_ADJECTIVES,
    PREPOSITIONS,
    BE_PRES,
    BE_PAST,
    HAVE,
    DET.sg,
    DET.pl,
  ])
    for (const w of list) set.add(w);
  for (const v of [...TRANSITIVE, ...INTRANSITIVE]) for (const w of v) set.add(w);
  return [...set].sort();
}

/** Every word the grammar can produce ("." included), sorted. */
export const AGREEMENT_WORDS = Object.freeze(allWords());
/** The vocabulary: <pad> <unk> <s> </s>, then AGREEMENT_WORDS. */
export const AGREEMENT_VOCAB = Object.freeze(['<pad>', '<unk>', '<s>', '</s>', ...AGREEMENT_WORDS]);
/**
 * The word tokenizer of a decoder-only transformer LM on these sentences (docs/models.md:
 * srcVocab = tgtVocab). Feed '<s> ' + text; the LM predicts each next word, '</s>' after '.'.
 */
export const AGREEMENT_TOKENIZER = Object.freeze({
  type: 'word',
  srcVocab: AGREEMENT_VOCAB,
  tgtVocab: AGREEMENT_VOCAB,
  pad: '<pad>',
  bos: '<s>',
  eos: '</s>',
  unk: '<unk>',
});
/** Pairs of agreeing verb forms [singular, plural], as they can appear at verbIndex. */
export const VERB_PAIRS = Object.freeze(
  [
    BE_PRES,
    BE_PAST,
    HAVE,
    ...TRANSITIVE.map((v) => v.slice(0, 2)),
    ...INTRANSITIVE.map((v) => v.slice(0, 2)),
  ].map((p) => Object.freeze([...p])),
);

/** The normalisation of the agreement language models (their tokenizer.normalize, wasm/model/normalize.js). */
export const AGREEMENT_NORMALIZE = Object.freeze([
  'nfc',
  'quotes',
  'lowercase',
  'punctuation',
  'contractions',
]);
const READ_STEPS = normalizeSteps([...AGREEMENT_NORMALIZE]);

/** Text as the agreement models read it (AGREEMENT_NORMALIZE): lowercase, punctuation a word of
 * its own ("run." → "run ."), clitics split ("didn't" → "did n't"), single-spaced. */
export function normalizeSentence(text) {
  return normalizeWords(String(text), READ_STEPS).join(' ');
}

// ---- the generators ------------------------------------------------------------------------------

/**
 * Seeded sentences of the grammar with their agreement metadata.
 * @param {{ seed?: number, count?: number, split?: 'train' | 'heldout', maxModifiers?: number, lexicon?: object }} [opts]
 *   defaults: seed 0, count 1000, 'train', maxModifiers 2 (0..6), the base lexicon (agreementLexicon() widens it)
 *   src = '<s> ' + text: a decoder-only transformer's training example { src } as it is
 *   (the trainer appends '</s>').
 * @returns {{ text: string, src: string, words: string[], subjectIndex: number, verbIndex: number,
 *   number: 'sg' | 'pl', attractors: number, intervening: number, correct: string, wrong: string }[]}
 *   attractors: nouns between subject and verb whose number differs from the subject's;
 *   intervening: all nouns between them; correct / wrong: the verb form at verbIndex and its
 *   other-number form.
 */
export function generateAgreement({
  seed = 0,
  count = 1000,
  split = 'train',
  maxModifiers = 2,
  lexicon = BASE_LEXICON,
} = {}) {
  checkCommon('generateAgreement', { seed, count, split });
  checkInt('generateAgreement', 'maxModifiers', maxModifiers, 0, 6);
  const rand = splitStream(seed, split);
  return sampleSplit(
    'generateAgreement',
    rand,
    count,
    split,
    (r) => sentence(r, maxModifiers, lexicon),
    (s) => s.text,
  );
}

/**
 * The agreement test: for each sentence, the prefix before the verb and the two verb forms. An
 * LM gets an item right when P(correct | prefix) > P(wrong | prefix) (agreementAccuracy).
 * minAttractors keeps only sentences with at least that many attractors (the hard cases).
 * @param {{ seed?: number, count?: number, split?: 'train' | 'heldout', maxModifiers?: number,
 *           minAttractors?: number, lexicon?: object }} [opts] defaults: seed 0, count 1000, 'heldout', 2, 0, base
 * @returns {{ prefix: string[], prefixText: string, correct: string, wrong: string, verbIndex: number,
 *   subjectIndex: number, number: 'sg' | 'pl', attractors: number, text: string }[]}
 */
export function agreementTestSet({
  seed = 0,
  count = 1000,
  split = 'heldout',
  maxModifiers = 2,
  minAttractors = 0,
  lexicon = BASE_LEXICON,
} = {}) {
  checkCommon('agreementTestSet', { seed, count, split });
  checkInt('agreementTestSet', 'maxModifiers', maxModifiers, 0, 6);
  // each modifier holds one noun at most, so more attractors than modifiers never occur
  checkInt('agreementTestSet', 'minAttractors', minAttractors, 0, maxModifiers);
  const rand = splitStream(seed, split);
  const out = [];
  while (out.length < count) {
    const [s] = sampleSplit(
      'agreementTestSet',
      rand,
      1,
      split,
      (r) => sentence(r, maxModifiers, lexicon),
      (x) => x.text,
    );
    if (s.attractors < minAttractors) continue;
    const prefix = s.words.slice(0, s.verbIndex);
    out.push({
      prefix,
      prefixText: prefix.join(' '),
      correct: s.correct,
      wrong: s.wrong,
      verbIndex: s.verbIndex,
      subjectIndex: s.subjectIndex,
      number: s.number,
      attractors: s.attractors,
      text: s.text,
    });
  }
  return out;
}

/**
 * An LM's agreement accuracy: logProb(prefixWords, word) returns log P(word | prefix) (any
 * monotone score works); an item is right when the correct form scores higher than the wrong one.
 * @returns {{ accuracy: number, count: number, byAttractors: { attractors: number, count: number, accuracy: number }[] }}
 */
export function agreementAccuracy(items, logProb) {
  const by = new Map();
  let right = 0;
  for (const it of items) {
    const ok = logProb(it.prefix, it.correct) > logProb(it.prefix, it.wrong);
    right += ok ? 1 : 0;
    const b = by.get(it.attractors) ?? { attractors: it.attractors, count: 0, right: 0 };
    b.count++;
    b.right += ok ? 1 : 0;
    by.set(it.attractors, b);
  }
  return {
    accuracy: items.length ? right / items.length : 0,
    count: items.length,
    byAttractors: [...by.values()]
      .sort((a, b) => a.attractors - b.attractors)
      .map((b) => ({ attractors: b.attractors, count: b.count, accuracy: b.right / b.count })),
  };
}

/**
 * Parses a sentence of the grammar (normalizeSentence is applied first) → the metadata
 * generateAgreement gives it ({ text, words, subjectIndex, verbIndex, number, attractors,
 * intervening, correct, wrong, split }), or null when the grammar cannot produce it. Where a
 * sentence has several derivations (a modifier's attachment), the indices and counts are the same.
 * @param {string} text
 * @param {{ maxModifiers?: number }} [opts]
 */
export function analyzeAgreement(text, { maxModifiers = 6 } = {}) {
  checkInt('analyzeAgreement', 'maxModifiers', maxModifiers, 0, 6);
  const target = normalizeSentence(text).split(' ');
  const MISMATCH = {};
  const stack = [[]];
  let budget = 2e6; // choice points visited; the grammar needs far fewer for any sentence
  while (stack.length > 0 && budget-- > 0) {
    const script = stack.pop();
    let k = 0;
    const words = [];
    /** @type {{ n: number, weights?: ArrayLike<number> } | null} set by choose() when the script runs out */
    let pending = null;
    const g = {
      maxModifiers,
      position: () => words.length,
      word(w) {
        if (target[words.length] !== w) throw MISMATCH;
        words.push(w);
      },
      choose(n, weights) {
        if (k < script.length) return script[k++];
        pending = { n, weights };
        throw MISMATCH;
      },
    };
    try {
      const meta = derive(g);
      if (words.length !== target.length) continue;
      return {
        text: words.join(' '),
        src: `<s> ${words.join(' ')}`,
        words,
        ...meta,
        correct: words[meta.verbIndex],
        wrong: FLIP.get(words[meta.verbIndex]),
        split: isHeldOutKey(words.join(' ')) ? 'heldout' : 'train',
      };
    } catch (e) {
      if (e !== MISMATCH) throw e;
      if (pending) {
        for (let i = pending.n - 1; i >= 0; i--)
          if (!pending.weights || pending.weights[i] > 0) stack.push([...script, i]);
      }
    }
  }
  return null;
}
