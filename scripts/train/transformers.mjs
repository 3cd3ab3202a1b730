// scripts/train/transformers.mjs: three small transformers (architecture "transformer",
// docs/models.md):
//
//   tf-dates-absolute  encoder-decoder on the dates task (web/data/dates.js), learned absolute
//                      positions (Vaswani et al. 2017 §3.5; Gehring et al. 2017's learned table)
//   tf-dates-relative  the same with relative positions in every self-attention (Shaw,
//                      Uszkoreit & Vaswani 2018), clipped at ±16, no position table
//   tf-induction       a 2-layer, 2-head decoder-only model on repeated random sequences
//                      (web/data/induction.js), where the second copy is predictable only by an
//                      induction head (Olsson et al. 2022)
//
// Dates: E 32, 4 heads, F 64, 2 + 2 layers, post-norm, weights from createModel(config, { seed: 1 }),
// Adam 2e-3 with the common schedule, clip 1, batches of 64 of the seq2seq dates models' data
// (dates.mjs datesBatch: named formats and variations, years 1000-2999); held out: exact match of
// greedy decoding on 2,000 held-out dates of the named formats and 2,000 of the variations (seed
// 2024), and the 200-date samples (seed 7) that tests/js/shipped-transformers.test.js re-checks
// (dates.mjs datesEvaluation, datesExamples, datesData: the cards read as the seq2seq ones).
// Induction: E 32, 2 heads, F 64, 2 layers, learned positions (33), Adam 2e-3, 5,000 batches of 32
// generateInduction({ seed: 1000 + step }) fed as ids (no eos); held out: next-token accuracy on
// the repeated half vs the first half of 1,000 held-out sequences (inductionAccuracy), and per
// head the attention the induction pattern needs (headScores below).
// Not here: any maths (wasm), the data generators.

import { init, createModel, createTrainer } from '../../wasm/index.js';
import { DATES_TOKENIZER } from '../../web/data/dates.js';
import {
  datesBatch,
  datesProbe,
  datesEvaluation,
  datesExamples,
  datesData,
  datesShown,
} from './dates.mjs';
import {
  generateInduction,
  inductionAccuracy,
  argmaxRows,
  INDUCTION_TOKENIZER,
} from '../../web/data/induction.js';
import {
  trainLoop,
  countParams,
  trainingBlock,
  writeModel,
  pct,
  rounded,
  shipI8,
  storageRecord,
} from './common.mjs';

export const TRAIN_SEED = 1000;
export const HELDOUT_SEED = 2024;
export const TEST_SEED = 7;

const datesBase = {
  architecture: 'transformer',
  variant: 'encoder-decoder',
  embeddingSize: 32,
  numHeads: 4,
  feedforwardSize: 64,
  numLayers: 2,
  maxLength: 12,
  tokenizer: DATES_TOKENIZER,
};
const SPECS = {
  'tf-dates-absolute': {
    kind: 'dates',
    cfg: { ...datesBase, positions: 'learned', maxPositions: 48 },
    steps: 4000,
    lr: 2e-3,
    batch: 64,
    cost: 90,
    what: 'encoder-decoder transformer, learned absolute positions',
  },
  'tf-dates-relative': {
    kind: 'dates',
    cfg: { ...datesBase, positions: 'relative', maxRelativePosition: 16 },
    steps: 4000,
    lr: 2e-3,
    batch: 64,
    cost: 125,
    what: 'encoder-decoder transformer, relative positions (Shaw et al. 2018, k = 16)',
  },
  'tf-induction': {
    kind: 'induction',
    cfg: {
      architecture: 'transformer',
      variant: 'decoder',
      embeddingSize: 32,
      numHeads: 2,
      feedforwardSize: 64,
      numLayers: 2,
      positions: 'learned',
      maxPositions: 33,
      maxLength: 32,
      tokenizer: INDUCTION_TOKENIZER,
    },
    steps: 5000,
    lr: 2e-3,
    batch: 32,
    cost: 40,
    what: '2-layer, 2-head decoder-only transformer on repeated random sequences',
  },
};

/**
 * Per layer and head of a decoder-only model on induction sequences, mean attention weights:
 *   induction: from a position t of the second copy (t = k+1 .. 2k−1) to t − k + 1, the token
 *              after the previous occurrence of the current token (what an induction head reads)
 *   previousToken: from t to t − 1 (t = 1 .. 2k), what the first layer's helper head reads
 */
export function headScores(model, examples) {
  const sums = new Map();
  for (const ex of examples) {
    const { attention } = model.forward(ex.ids);
    const k = ex.k;
    for (const a of attention) {
      const n = a.weights.shape[1],
        w = a.weights.data;
      const key = `${a.layer}.${a.head}`;
      const s = sums.get(key) ?? {
        layer: a.layer,
        head: a.head,
        ind: 0,
        indN: 0,
        prev: 0,
        prevN: 0,
      };
      for (let t = k + 1; t <= 2 * k - 1; t++) {
        s.ind += w[t * n + t - k + 1];
        s.indN++;
      }
      for (let t = 1; t <= 2 * k; t++) {
        s.prev += w[t * n + t - 1];
        s.prevN++;
      }
      sums.set(key, s);
    }
  }
  return [...sums.values()].map((s) => ({
    layer: s.layer,
    head: s.head,
    induction: s.ind / s.indN,
    previousToken: s.prev / s.prevN,
  }));
}

/** Induction accuracy of a model on examples (argmax next-token predictions). */
export function inductionMetrics(model, examples) {
  const r = inductionAccuracy(
    examples,
    examples.map((ex) => argmaxRows(model.forward(ex.ids).logits)),
  );
  return {
    repeatedHalf: r.repeatedHalf,
    firstHalf: r.firstHalf,
    repeatedCount: r.repeatedCount,
    firstCount: r.firstCount,
    count: examples.length,
  };
}

const configOf = (name) => ({
  ...SPECS[name].cfg,
  name,
  description:
    SPECS[name].kind === 'dates'
      ? `Human-readable dates to ISO yyyy-mm-dd; ${SPECS[name].what}`
      : `Continues a repeated random sequence; ${SPECS[name].what}`,
});
const batchOf =
  (name) =>
  (s, count = SPECS[name].batch) =>
    SPECS[name].kind === 'dates'
      ? datesBatch(s, count)
      : generateInduction({ seed: TRAIN_SEED + s, count, split: 'train' }).map((ex) => ({
          src: ex.ids,
        }));

/** The held-out set of tf-induction's card (its head scores read the first 300). */
const inductionHeldout = () =>
  generateInduction({ seed: HELDOUT_SEED, count: 1000, split: 'heldout' });

/**
 * The card of a transformer from its stored file loaded back (shipped: common.mjs shipI8 or
 * loadShipped): every metric, the examples and the storage record measured on that file, rounded
 * as written. training: the card's training block; float32: the float32 model's headline metric
 * (dates: named exact match; induction: repeated-half accuracy); extra: more of the storage
 * record. train() and scripts/recard.mjs both make the card here.
 */
export function transformerCard(name, shipped, { training, float32, extra = {} }) {
  const spec = SPECS[name];
  let heldout, test, data, task, examples, storage;
  if (spec.kind === 'dates') {
    ({ heldout, testSample: test } = datesEvaluation(shipped.trainer));
    storage = storageRecord(
      shipped,
      'heldout.named.exactMatch',
      float32,
      heldout.named.exactMatch,
      extra,
    );
    examples = datesExamples(shipped.model);
    task =
      'dates: a date in one of many human formats → ISO 8601 yyyy-mm-dd, character by character';
    data = datesData(spec.batch);
  } else {
    const m = shipped.model;
    const held = inductionHeldout();
    heldout = {
      seed: HELDOUT_SEED,
      ...inductionMetrics(m, held),
      heads: headScores(m, held.slice(0, 300)),
    };
    storage = storageRecord(shipped, 'heldout.repeatedHalf', float32, heldout.repeatedHalf, extra);
    const best = heldout.heads.reduce((a, h) => (h.induction > a.induction ? h : a));
    heldout.inductionHead = {
      layer: best.layer,
      head: best.head,
      induction: best.induction,
      chanceLevel: 'about 2 / (2k + 1)',
    };
    test = {
      seed: TEST_SEED,
      ...inductionMetrics(m, generateInduction({ seed: TEST_SEED, count: 200, split: 'heldout' })),
    };
    task =
      'induction: <s> A A for a random sequence A of 4-16 distinct letters; predict each next token (the second copy is predictable by looking back)';
    data = {
      generator: 'web/data/induction.js generateInduction()',
      split: 'held out when hash(A) % 10 == 0; training never sees those sequences',
      train: `generateInduction({ seed: ${TRAIN_SEED} + step, count: ${spec.batch}, split: 'train' }) per step, fed as ids (no eos)`,
      heldout: `generateInduction({ seed: ${HELDOUT_SEED}, count: 1000, split: 'heldout' }); head scores on its first 300`,
    };
  }
  const bytes = shipped.bytes;
  const { tokenizer: _tokenizer, ...arch } = spec.cfg;
  return rounded({
    name,
    task,
    file: `${name}.safetensors`,
    architecture: {
      family: 'transformer (docs/models.md)',
      ...arch,
      parameters: countParams(bytes),
      bytes: bytes.length,
    },
    data,
    training,
    metrics: { heldout, testSample: test },
    storage,
    ...(examples ? { examples } : {}),
  });
}

async function train(name, { steps: stepsOverride, out }) {
  await init();
  const spec = SPECS[name];
  const steps = stepsOverride ?? spec.steps;
  const { lr, batch: B } = spec;
  const seed = 1;
  const config = configOf(name);
  const batch = batchOf(name);
  const model = await createModel(config, { seed });
  const trainer = createTrainer(model, { optimizer: 'adam', lr, clip: 1 });
  let run, float32;
  if (spec.kind === 'dates') {
    run = trainLoop({
      name,
      trainer,
      steps,
      lr,
      batch: (s) => batch(s),
      probe: datesProbe(trainer),
    });
    float32 = datesEvaluation(trainer).heldout.named.exactMatch;
  } else {
    const probe = generateInduction({ seed: HELDOUT_SEED + 1, count: 100, split: 'heldout' });
    run = trainLoop({
      name,
      trainer,
      steps,
      lr,
      batch: (s) => batch(s),
      probe: () => {
        const m = inductionMetrics(model, probe);
        return { probeRepeatedHalf: m.repeatedHalf, probeFirstHalf: m.firstHalf };
      },
    });
    float32 = inductionMetrics(model, inductionHeldout()).repeatedHalf;
  }
  // what ships is the I8 file, loaded back: every metric of the card is measured on it
  const shipped = await shipI8(trainer);
  const card = transformerCard(name, shipped, {
    float32,
    training: trainingBlock({ name, steps, stepsOverride, seed, lr, batchSize: B, run }),
  });
  const bytes = shipped.bytes;
  const file = await writeModel(out, name, bytes, card);
  const { heldout } = card.metrics;
  const shown =
    spec.kind === 'dates'
      ? datesShown({ heldout })
      : `held-out next-token accuracy: repeated half ${pct(heldout.repeatedHalf)}, first half ${pct(heldout.firstHalf)} (1000 sequences); induction head layer ${heldout.inductionHead.layer} head ${heldout.inductionHead.head} (${pct(heldout.inductionHead.induction, 1)} of its attention on the token after the previous occurrence); heads ${heldout.heads.map((h) => `${h.layer}.${h.head}: induction ${pct(h.induction, 1)} prev ${pct(h.previousToken, 1)}`).join(', ')}`;
  console.log(
    `${name}: ${shown}; ${run.seconds.toFixed(0)} s (cpu ${run.cpuSeconds.toFixed(0)} s), ${countParams(bytes)} parameters, ${bytes.length} bytes (${shipped.dtype}) -> ${file}`,
  );
  shipped.dispose();
  trainer.dispose();
  model.dispose();
  return card;
}

export const MODELS = Object.fromEntries(
  Object.entries(SPECS).map(([name, spec]) => [
    name,
    {
      family: 'transformers',
      cost: spec.cost,
      config: () => configOf(name),
      batch: batchOf(name),
      train: (o) => train(name, o),
      card: (shipped, o) => transformerCard(name, shipped, o),
    },
  ]),
);
