// scripts/train/reviews-real.mjs: reviews people really wrote, for the review classifiers (issue 30)
//
//   realReviews('train' | 'choosing' | 'test')   // [{ text, label, source }]
//   realWords(baseVocab)                         // the vocabulary words the real training part adds
//   realExamples(step, count)                    // step's real training reviews, seeded
//
// The sentences are UCI's "Sentiment Labelled Sentences" (Kotzias, Denil, de Freitas & Smyth,
// "From Group to Individual Labels using Deep Features", KDD 2015; CC BY 4.0): 1,000 sentences
// each from Amazon product reviews, IMDB film reviews and Yelp restaurant reviews, half positive,
// half negative, as typed (typos, slang, capitals, "!!"). npm `sentiment` 5.0.2 ships them as its
// accuracy check (test/fixtures/{amazon,imdb,yelp}.json; MIT; a devDependency pinned exactly, so
// the split below cannot move).
// Split, fixed before any recipe was tried, by hashString(lowercased text) % 10 (web/data/common.js):
// 0 'test' (reported only: never trained, fitted or chosen on), 1 'choosing' (recipes are chosen
// here), 2..9 'train'. A sentence that occurs twice lands in one part; empty ones are dropped.
// Not here: the generator (web/data/reviews.js), typos and word dropout (reviews-robust.mjs),
// the recipe (reviews.mjs).

import { createRequire } from 'node:module';
import { hashString, mulberry32 } from '../../web/data/common.js';
import { Tokenizer } from '../../wasm/model/tokenizer.js';
import { REVIEW_LABELS, REVIEWS_TOKENIZER } from '../../web/data/reviews.js';
import { pct } from './common.mjs';

const require = createRequire(import.meta.url);

export const REAL_PACKAGE = 'sentiment';
/** The version the split is fixed on (package.json pins it). */
export const REAL_VERSION = '5.0.2';
export const REAL_SOURCES = Object.freeze(['amazon', 'imdb', 'yelp']);
export const REAL_PARTS = Object.freeze({
  test: [0],
  choosing: [1],
  train: [2, 3, 4, 5, 6, 7, 8, 9],
});
/** A word of the real training part joins the vocabulary when it occurs this often there. */
export const REAL_WORD_MIN_COUNT = 2;

/** Which part a sentence is in (see the header). */
export const realPartOf = (text) => {
  const k = hashString(text.toLowerCase()) % 10;
  return Object.keys(REAL_PARTS).find((p) => REAL_PARTS[p].includes(k));
};

let cache = null;
function all() {
  if (cache) return cache;
  const version = require(`${REAL_PACKAGE}/package.json`).version;
  if (version !== REAL_VERSION)
    throw new Error(
      `reviews-real: npm ${REAL_PACKAGE} is ${version}, the split is fixed on ${REAL_VERSION} (npm ci)`,
    );
  const out = [];
  for (const source of REAL_SOURCES)
    for (const e of require(`${REAL_PACKAGE}/test/fixtures/${source}.json`)) {
      const text = String(e.text).trim();
      if (!text) continue;
      if (e.class !== 0 && e.class !== 1)
        throw new Error(`reviews-real: ${source}: class ${e.class} for "${text}"`);
      out.push({ text, label: REVIEW_LABELS[e.class], source });
    }
  cache = Object.freeze(out.map(Object.freeze));
  return cache;
}

const parts = new Map();
/** The sentences of one part: [{ text, label, source }] in the package's order. */
export function realReviews(part) {
  if (!REAL_PARTS[part])
    throw new Error(
      `realReviews: part is one of ${Object.keys(REAL_PARTS).join(', ')}, not ${part}`,
    );
  if (!parts.has(part))
    parts.set(part, Object.freeze(all().filter((e) => realPartOf(e.text) === part)));
  return parts.get(part);
}

/** A tokenizer of the generator's vocabulary without the spelling step: words as typed. */
const plainTokenizer = (vocab) => {
  const t = REVIEWS_TOKENIZER;
  return new Tokenizer({
    type: t.type,
    srcVocab: vocab,
    tgtVocab: REVIEW_LABELS,
    unk: t.unk,
    pad: t.pad,
    normalize: t.normalize.filter((s) => s !== 'spelling'),
  });
};

/**
 * The words the real training part adds to baseVocab: its normalised tokens that occur at least
 * REAL_WORD_MIN_COUNT times there and baseVocab lacks, most frequent first (ties: alphabetical).
 * Rarer words stay <unk>: a word seen once would get an embedding fitted to one label.
 */
export function realWords(baseVocab = REVIEWS_TOKENIZER.vocab) {
  const known = new Set(baseVocab);
  const tok = plainTokenizer(baseVocab);
  const counts = new Map();
  for (const { text } of realReviews('train'))
    for (const w of tok.split(text)) if (!known.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts]
    .filter(([, n]) => n >= REAL_WORD_MIN_COUNT)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([w]) => w);
}

/**
 * Step `step`'s `count` real training reviews (drawn with replacement, seeded by the step) as
 * training examples: { text, src: text, label, labelId, source } (reviews-robust.mjs tokenises
 * them). No `decisive`: nobody marked which words decide, so word dropout leaves them whole
 * (dropping words other than the lexicon's polar words and negators was tried and not kept).
 */
export function realExamples(step, count) {
  const train = realReviews('train');
  const rand = mulberry32((step * 2246822519 + 7) >>> 0);
  return Array.from({ length: count }, () => {
    const e = train[Math.floor(rand() * train.length)];
    return {
      text: e.text,
      src: e.text,
      label: e.label,
      labelId: REVIEW_LABELS.indexOf(e.label),
      source: e.source,
    };
  });
}

/** The card's account of the real sentences. */
export function realCardBlock(perStep, batch) {
  const parts = Object.fromEntries(Object.keys(REAL_PARTS).map((p) => [p, realReviews(p).length]));
  return {
    what: 'UCI Sentiment Labelled Sentences (Kotzias, Denil, de Freitas & Smyth 2015): sentences of Amazon product, IMDB film and Yelp restaurant reviews as people typed them, labelled positive or negative',
    license: `CC BY 4.0 (the dataset); shipped in npm ${REAL_PACKAGE} ${REAL_VERSION} (MIT) as test/fixtures/{amazon,imdb,yelp}.json, a devDependency`,
    split:
      'hashString(lowercased text) % 10: 0 test (reported only), 1 choosing (recipes chosen on it), 2-9 training',
    counts: parts,
    perStep: `${perStep} of each step's ${batch} examples are real training sentences (drawn with replacement, seeded by the step); the rest are generated`,
    vocabulary: `the real training part's words that occur ${REAL_WORD_MIN_COUNT}+ times there and the generator never writes join the vocabulary`,
  };
}

/** Accuracy of a classifier on one part, overall and by source: { count, accuracy, bySource:
 * { amazon: { right, count }, imdb: …, yelp: … } }. */
export function realAccuracy(model, part) {
  const bySource = Object.fromEntries(REAL_SOURCES.map((s) => [s, { right: 0, count: 0 }]));
  let right = 0;
  const set = realReviews(part);
  for (const { text, label, source } of set) {
    const ok = model.classify(text).label === label;
    bySource[source].count++;
    if (ok) {
      bySource[source].right++;
      right++;
    }
  }
  return { count: set.length, accuracy: right / set.length, bySource };
}

const pct1 = (x) => pct(x, 1);
const share = ({ right, count }) => `${right}/${count}`;
/**
 * docs/training.md's table of the real sentences, from the shipped cards ({ name: card }):
 * tests/js/reviews-real.test.js keeps the docs equal to it.
 */
export function realTable(cards) {
  const rows = Object.entries(cards).map(([name, c]) => {
    const { choosing, test } = c.metrics.real;
    const by = REAL_SOURCES.map((s) => share(test.bySource[s])).join(', ');
    return `| ${name} | ${pct1(choosing.accuracy)} | **${pct1(test.accuracy)}** (${by}) | ${c.calibration.sets.realTest.eceAfter.toFixed(3)} | ${pct1(c.metrics.typedFresh.accuracy)} | ${pct1(c.metrics.typedFresh3.accuracy)} (${c.calibration.sets.fresh3.eceAfter.toFixed(3)}) | ${pct1(c.metrics.typedChoosing2.accuracy)} |`;
  });
  return [
    `| model | real choosing (${realReviews('choosing').length}) | real test (${realReviews('test').length}; Amazon, IMDB, Yelp right) | real test ECE | fresh (260) | fourth hand (196; ECE) | second choosing (240) |`,
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
