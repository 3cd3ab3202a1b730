// scripts/train/dates.mjs: the six seq2seq dates models of the first release (docs/training.md,
// "The shipped models"): one per attention mechanism, web/models/dates-<attention>.*.
//
// Each: bidirectional LSTM encoder, E = 32, H = 64, an LSTM decoder cell, weights from
// createModel(config, { seed: 1 }); Adam 3e-3 with the common schedule, clip 1, batches of 64 fresh
// pairs generateDates({ seed: 1000 + step, count: 64, split: 'train' }); then exact match on 2,000
// held-out dates (seed 2024) and on the 200-date sample (seed 7) tests/js/train.test.js re-checks.
// These configs, seeds and the schedule are frozen: the same build retrains byte-identical files.
// Not here: any maths (wasm), the data generator (web/data/dates.js).

import { init, createModel, createTrainer } from '../../wasm/index.js';
import { generateDates, DATES_TOKENIZER, FORMATS, YEAR_MIN, YEAR_MAX } from '../../web/data/dates.js';
import { trainLoop, countParams, machine, command, scheduleText, writeModel, pct } from './common.mjs';

export const TRAIN_SEED = 1000;
export const HELDOUT_SEED = 2024;
export const TEST_SEED = 7;
const BATCH = 64;

const base = { architecture: 'seq2seq', cell: 'lstm', embeddingSize: 32, hiddenSize: 64, numLayers: 1, bidirectional: true, maxLength: 12 };
const SPECS = {
  additive: { cfg: { attention: 'additive', style: 'bahdanau', attentionSize: 32 }, steps: 2000, cost: 160 },
  dot: { cfg: { attention: 'dot', style: 'luong', inputFeeding: true }, steps: 2000, cost: 140 },
  general: { cfg: { attention: 'general', style: 'luong', inputFeeding: true }, steps: 2000, cost: 195 },
  concat: { cfg: { attention: 'concat', style: 'luong', inputFeeding: true, attentionSize: 32 }, steps: 2000, cost: 255 },
  'local-p': { cfg: { attention: 'local-p', style: 'luong', inputFeeding: true, score: 'general', window: 8, positionSize: 32 }, steps: 3000, cost: 230 },
  none: { cfg: { attention: 'none', style: 'bahdanau' }, steps: 3000, cost: 135 },
};
const ATTN_NAMES = {
  additive: 'additive (Bahdanau et al. 2015)', dot: 'dot (Luong et al. 2015, input feeding)',
  general: 'general (Luong et al. 2015, input feeding)', concat: 'concat (Luong et al. 2015, input feeding)',
  'local-p': 'local-p, general score, D = 8 (Luong et al. 2015, input feeding)', none: 'none (encoder-decoder without attention)',
};

/** The model's config (what createModel gets). */
function configOf(attn) {
  return {
    ...base, ...SPECS[attn].cfg,
    name: `dates-${attn}`,
    description: `Human-readable dates (${Object.keys(FORMATS).length} formats, years ${YEAR_MIN}-${YEAR_MAX}) to ISO yyyy-mm-dd; attention: ${ATTN_NAMES[attn]}`,
    tokenizer: DATES_TOKENIZER,
  };
}

/** Training batch of step s. */
const batchOf = (s, count = BATCH) => generateDates({ seed: TRAIN_SEED + s, count, split: 'train' });

async function trainDates(attn, { steps: stepsOverride, out }) {
  await init();
  const name = `dates-${attn}`;
  const spec = SPECS[attn];
  const steps = stepsOverride ?? spec.steps;
  const lr = 3e-3, seed = 1;
  const config = configOf(attn);
  const model = await createModel(config, { seed });
  const trainer = createTrainer(model, { optimizer: 'adam', lr, clip: 1 });
  const probe = generateDates({ seed: HELDOUT_SEED + 1, count: 200, split: 'heldout' });
  const run = trainLoop({
    name, trainer, steps, lr,
    batch: (s) => batchOf(s),
    probe: () => ({ probeExactMatch: trainer.evaluate(probe, { loss: false }).exactMatch }),
  });
  const heldout = trainer.evaluate(generateDates({ seed: HELDOUT_SEED, count: 2000, split: 'heldout' }));
  const test = trainer.evaluate(generateDates({ seed: TEST_SEED, count: 200, split: 'heldout' }), { loss: false });
  const bytes = trainer.save();
  const card = {
    name,
    task: 'dates: a date in one of many human formats → ISO 8601 yyyy-mm-dd, character by character',
    file: `${name}.safetensors`,
    architecture: {
      family: 'seq2seq (docs/models.md)', cell: config.cell, embeddingSize: config.embeddingSize,
      hiddenSize: config.hiddenSize, numLayers: config.numLayers, bidirectional: config.bidirectional,
      attention: config.attention, style: config.style, ...spec.cfg,
      parameters: countParams(bytes), bytes: bytes.length,
    },
    data: {
      generator: 'web/data/dates.js generateDates()', formats: Object.keys(FORMATS), years: [YEAR_MIN, YEAR_MAX],
      split: 'held out when hash(yyyymmdd) % 10 == 0 (isHeldOut); training never sees those dates',
      train: `generateDates({ seed: ${TRAIN_SEED} + step, count: ${BATCH}, split: 'train' }) per step`,
      heldout: `generateDates({ seed: ${HELDOUT_SEED}, count: 2000, split: 'heldout' })`,
    },
    training: {
      command: command(name, { steps, stepsOverride }),
      initSeed: seed, optimizer: 'adam', lr, schedule: scheduleText(steps),
      clip: 1, batchSize: BATCH, steps, seconds: run.seconds, cpuSeconds: run.cpuSeconds,
      machine: machine(),
      log: run.log,
    },
    metrics: {
      heldout: { count: 2000, seed: HELDOUT_SEED, exactMatch: heldout.exactMatch, tokenAccuracy: +heldout.tokenAccuracy.toFixed(5), loss: +heldout.loss.toFixed(5) },
      testSample: { count: 200, seed: TEST_SEED, exactMatch: test.exactMatch },
    },
  };
  const file = await writeModel(out, name, bytes, card);
  console.log(`${name}: held-out exact match ${pct(heldout.exactMatch)} (2000 dates), token accuracy ${pct(heldout.tokenAccuracy)}, ${run.seconds.toFixed(0)} s (cpu ${run.cpuSeconds.toFixed(0)} s), ${bytes.length} bytes -> ${file}`);
  trainer.dispose();
  model.dispose();
  return card;
}

/**
 * name → { family, cost (rough seconds on a quiet core, for scheduling), config(), batch(step,
 * count) (the training examples of a step), train(options) → card }; alias: the old short names.
 */
export const MODELS = Object.fromEntries(Object.entries(SPECS).map(([attn, spec]) => [
  `dates-${attn}`, { family: 'dates', alias: attn, cost: spec.cost, config: () => configOf(attn), batch: batchOf, train: (o) => trainDates(attn, o) },
]));
