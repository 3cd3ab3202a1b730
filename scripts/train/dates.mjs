// scripts/train/dates.mjs: the six seq2seq dates models of the first release (docs/training.md,
// "The shipped models"): one per attention mechanism, web/models/dates-<attention>.*.
//
// Each: bidirectional LSTM encoder, E = 32, H = HIDDEN, an LSTM decoder cell, weights from
// createModel(config, { seed: 1 }); Adam 3e-3 with the common schedule, clip 1, batches of 64 fresh
// pairs generateDates({ seed: 1000 + step, count: 64, split: 'train', set: 'all' }) (named formats
// and variations, years 1000-2999); then exact match on 2,000 held-out dates of the named formats
// and 2,000 of the variations (seed 2024), and on the 200-date samples (seed 7) that
// tests/js/train.test.js re-checks. datesEvaluation / datesExamples / datesData are shared with the
// tf-dates transformers (transformers.mjs).
// These configs, seeds and the schedule are frozen: the same build retrains byte-identical files.
// Not here: any maths (wasm), the data generator (web/data/dates.js).

import { init, createModel, createTrainer } from '../../wasm/index.js';
import {
  generateDates,
  DATES_TOKENIZER,
  DATES_MAX_LENGTH,
  FORMATS,
  VARIATIONS,
  YEAR_MIN,
  YEAR_MAX,
} from '../../web/data/dates.js';
import {
  trainLoop,
  countParams,
  trainingBlock,
  writeModel,
  pct,
  shipI8,
  storageRecord,
} from './common.mjs';

export const TRAIN_SEED = 1000;
export const HELDOUT_SEED = 2024;
export const TEST_SEED = 7;
export const HELDOUT_COUNT = 2000;
export const TEST_COUNT = 200;
const BATCH = 64;

const base = {
  architecture: 'seq2seq',
  cell: 'lstm',
  embeddingSize: 32,
  hiddenSize: 64,
  numLayers: 1,
  bidirectional: true,
  maxLength: 12,
};
const SPECS = {
  additive: {
    cfg: { attention: 'additive', style: 'bahdanau', attentionSize: 32 },
    steps: 3000,
    cost: 90,
  },
  dot: { cfg: { attention: 'dot', style: 'luong', inputFeeding: true }, steps: 3000, cost: 75 },
  general: {
    cfg: { attention: 'general', style: 'luong', inputFeeding: true },
    steps: 3000,
    cost: 80,
  },
  concat: {
    cfg: { attention: 'concat', style: 'luong', inputFeeding: true, attentionSize: 32 },
    steps: 3000,
    cost: 95,
  },
  'local-p': {
    cfg: {
      attention: 'local-p',
      style: 'luong',
      inputFeeding: true,
      score: 'general',
      window: 8,
      positionSize: 32,
    },
    steps: 3000,
    cost: 85,
  },
  none: { cfg: { attention: 'none', style: 'bahdanau' }, steps: 5000, cost: 80 },
};
const ATTN_NAMES = {
  additive: 'additive (Bahdanau et al. 2015)',
  dot: 'dot (Luong et al. 2015, input feeding)',
  general: 'general (Luong et al. 2015, input feeding)',
  concat: 'concat (Luong et al. 2015, input feeding)',
  'local-p': 'local-p, general score, D = 8 (Luong et al. 2015, input feeding)',
  none: 'none (encoder-decoder without attention)',
};

/** The model's config (what createModel gets). */
function configOf(attn) {
  return {
    ...base,
    ...SPECS[attn].cfg,
    name: `dates-${attn}`,
    description: `Human-readable dates (${Object.keys(FORMATS).length} formats and their variations, years ${YEAR_MIN}-${YEAR_MAX}) to ISO yyyy-mm-dd; attention: ${ATTN_NAMES[attn]}`,
    tokenizer: DATES_TOKENIZER,
  };
}

/** Training batch of step s: named formats and variations, half each. */
export const datesBatch = (s, count = BATCH) =>
  generateDates({ seed: TRAIN_SEED + s, count, split: 'train', set: 'all' });

/** The fixed held-out sets of a card: set → seed → examples. */
export const heldoutSet = (set, seed = HELDOUT_SEED, count = HELDOUT_COUNT) =>
  generateDates({ seed, count, split: 'heldout', set });

/** The probe of the training log: 100 held-out dates of each set. */
export function datesProbe(trainer) {
  const named = heldoutSet('named', HELDOUT_SEED + 1, 100),
    variations = heldoutSet('variations', HELDOUT_SEED + 1, 100);
  return () => ({
    probeNamed: trainer.evaluate(named, { loss: false }).exactMatch,
    probeVariations: trainer.evaluate(variations, { loss: false }).exactMatch,
  });
}

/**
 * A card's metrics: heldout (the named formats' count, seed, exactMatch, tokenAccuracy and loss at
 * the top, as before; named and variations each { count, seed, exactMatch }, variations with its
 * tokenAccuracy) and testSample (the same on 200 dates of seed 7, which the tests re-check).
 */
export function datesEvaluation(trainer) {
  const n = trainer.evaluate(heldoutSet('named'));
  const v = trainer.evaluate(heldoutSet('variations'));
  const tn = trainer.evaluate(heldoutSet('named', TEST_SEED, TEST_COUNT), { loss: false });
  const tv = trainer.evaluate(heldoutSet('variations', TEST_SEED, TEST_COUNT), { loss: false });
  const part = (count, seed, r) => ({ count, seed, exactMatch: r.exactMatch });
  return {
    heldout: {
      count: HELDOUT_COUNT,
      seed: HELDOUT_SEED,
      exactMatch: n.exactMatch,
      tokenAccuracy: +n.tokenAccuracy.toFixed(5),
      loss: +n.loss.toFixed(5),
      named: part(HELDOUT_COUNT, HELDOUT_SEED, n),
      variations: {
        ...part(HELDOUT_COUNT, HELDOUT_SEED, v),
        tokenAccuracy: +v.tokenAccuracy.toFixed(5),
      },
    },
    testSample: {
      count: TEST_COUNT,
      seed: TEST_SEED,
      exactMatch: tn.exactMatch,
      named: part(TEST_COUNT, TEST_SEED, tn),
      variations: part(TEST_COUNT, TEST_SEED, tv),
    },
  };
}

// Showcase inputs and their answers, in order: a card's examples.best are the first three its
// model reads right.
const SHOWCASE = [
  ['Sunday, 22 November 2026', '2026-11-22'],
  ['THE 14TH OF OCTOBER, 1066', '1066-10-14'],
  ['7/4/1776', '1776-07-04'],
  ['Sept. 3rd  2999', '2999-09-03'],
  ['2026-11-22', '2026-11-22'],
  ['jan 1 69', '1969-01-01'],
  ['31.12.1999', '1999-12-31'],
  ['22 Nov 2026', '2026-11-22'],
];
// When the model reads every variation of the held-out set right: a date that does not exist,
// which it still turns into a confident ISO string (it never learned month lengths).
const LIMIT_FALLBACK = '31 February 2026';

/**
 * A card's examples: { best: [three inputs it reads right], limit: an input that shows its limit
 * (the first variation of the held-out set it gets wrong, else LIMIT_FALLBACK), limitOutput: its
 * answer there, limitExpected: the right answer (null when there is none) }.
 */
export function datesExamples(model) {
  const out = (src) => model.run(src).output;
  const best = SHOWCASE.filter(([src, tgt]) => out(src) === tgt)
    .slice(0, 3)
    .map(([src]) => src);
  const miss = heldoutSet('variations').find((p) => out(p.src) !== p.tgt);
  const limit = miss ? miss.src : LIMIT_FALLBACK;
  return { best, limit, limitOutput: out(limit), limitExpected: miss ? miss.tgt : null };
}

/** The card's data section (dates models and transformers alike). */
export function datesData(B) {
  return {
    generator: 'web/data/dates.js generateDates()',
    formats: Object.keys(FORMATS),
    variations: Object.keys(VARIATIONS),
    years: [YEAR_MIN, YEAR_MAX],
    twoDigitYears:
      'POSIX pivot (strptime %y): 69-99 -> 1969-1999, 00-68 -> 2000-2068; two-digit-year formats draw dates of 1969-2068, the others uniformly from 1000-01-01 to 2999-12-31 (proleptic Gregorian)',
    normalize: DATES_TOKENIZER.normalize,
    maxSourceLength: DATES_MAX_LENGTH,
    split: 'held out when hash(yyyymmdd) % 10 == 0 (isHeldOut); training never sees those dates',
    train: `generateDates({ seed: ${TRAIN_SEED} + step, count: ${B}, split: 'train', set: 'all' }) per step (named formats and variations, 1/2 each)`,
    heldout: `generateDates({ seed: ${HELDOUT_SEED}, count: ${HELDOUT_COUNT}, split: 'heldout', set }) for set 'named' and 'variations'`,
  };
}

/** The log line of a dates model's held-out numbers. */
export const datesShown = (m) =>
  `held-out exact match: named formats ${pct(m.heldout.named.exactMatch)}, variations ${pct(m.heldout.variations.exactMatch)} (${HELDOUT_COUNT} dates each), token accuracy ${pct(m.heldout.tokenAccuracy)}`;

/**
 * The card of dates-<attn> from its stored file loaded back (shipped: common.mjs shipI8 or
 * loadShipped): every metric, the examples and the storage record measured on that file.
 * training: the card's training block; float32: the float32 model's named exact match (the
 * storage record's reference); extra: more of the storage record. train() and scripts/recard.mjs
 * both make the card here.
 */
export function datesCard(attn, shipped, { training, float32, extra = {} }) {
  const name = `dates-${attn}`;
  const config = configOf(attn);
  const metrics = datesEvaluation(shipped.trainer);
  const storage = storageRecord(
    shipped,
    'heldout.named.exactMatch',
    float32,
    metrics.heldout.named.exactMatch,
    extra,
  );
  const bytes = shipped.bytes;
  return {
    name,
    task: 'dates: a date in one of many human formats → ISO 8601 yyyy-mm-dd, character by character',
    file: `${name}.safetensors`,
    architecture: {
      family: 'seq2seq (docs/models.md)',
      cell: config.cell,
      embeddingSize: config.embeddingSize,
      hiddenSize: config.hiddenSize,
      numLayers: config.numLayers,
      bidirectional: config.bidirectional,
      attention: config.attention,
      style: config.style,
      ...SPECS[attn].cfg,
      parameters: countParams(bytes),
      bytes: bytes.length,
    },
    data: datesData(BATCH),
    training,
    metrics,
    storage,
    examples: datesExamples(shipped.model),
  };
}

async function trainDates(attn, { steps: stepsOverride, out }) {
  await init();
  const name = `dates-${attn}`;
  const spec = SPECS[attn];
  const steps = stepsOverride ?? spec.steps;
  const lr = 3e-3,
    seed = 1;
  const config = configOf(attn);
  const model = await createModel(config, { seed });
  const trainer = createTrainer(model, { optimizer: 'adam', lr, clip: 1 });
  const run = trainLoop({
    name,
    trainer,
    steps,
    lr,
    batch: (s) => datesBatch(s),
    probe: datesProbe(trainer),
  });
  // what ships is the I8 file: every metric of the card is measured on it, loaded back
  const float32 = datesEvaluation(trainer).heldout.named.exactMatch;
  const shipped = await shipI8(trainer);
  const card = datesCard(attn, shipped, {
    float32,
    training: trainingBlock({ name, steps, stepsOverride, seed, lr, batchSize: BATCH, run }),
  });
  const bytes = shipped.bytes;
  const file = await writeModel(out, name, bytes, card);
  console.log(
    `${name}: ${datesShown(card.metrics)}, ${run.seconds.toFixed(0)} s (cpu ${run.cpuSeconds.toFixed(0)} s), ${bytes.length} bytes (${shipped.dtype}; float32 named exact match ${pct(float32)}) -> ${file}`,
  );
  shipped.dispose();
  trainer.dispose();
  model.dispose();
  return card;
}

/**
 * name → { family, cost (rough seconds on a quiet core, for scheduling), config(), batch(step,
 * count) (the training examples of a step), train(options) → card, card(shipped, { training,
 * float32, extra }) → card (scripts/recard.mjs) }; alias: the old short names.
 */
export const MODELS = Object.fromEntries(
  Object.entries(SPECS).map(([attn, spec]) => [
    `dates-${attn}`,
    {
      family: 'dates',
      alias: attn,
      cost: spec.cost,
      config: () => configOf(attn),
      batch: datesBatch,
      train: (o) => trainDates(attn, o),
      card: (shipped, o) => datesCard(attn, shipped, o),
    },
  ]),
);
