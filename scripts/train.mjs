#!/usr/bin/env node
// scripts/train.mjs: trains the dates models (docs/training.md) with the wasm library, reproducibly,
// and writes web/models/dates-<name>.safetensors and its model card web/models/dates-<name>.json.
//
//   node scripts/train.mjs --all            # every model, two at a time (child processes)
//   node scripts/train.mjs additive dot     # some of them, one after another
//   node scripts/train.mjs additive --steps 500 --out /tmp   # a quick try elsewhere
//
// Each model: a config from MODELS below, weights from createModel(config, { seed }), Adam with
// a warm-up-free schedule (lr constant, then linear decay to lr/10 over the last 40% of steps),
// clip 1, batches of 64 fresh pairs from generateDates({ seed: TRAIN_SEED + step, split: 'train' })
// (so a run is fixed by its seeds), then exact match on 2,000 held-out dates
// (generateDates({ seed: HELDOUT_SEED, count: 2000, split: 'heldout' })) and on the 200-date test
// sample the tests re-check (TEST_SEED).
// Not here: any maths (wasm), the data generator (web/data/dates.js).

import { spawn } from 'node:child_process';
import { writeFile, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import path from 'node:path';

import { init, createModel, createTrainer, simdSupported } from '../wasm/index.js';
import { generateDates, DATES_TOKENIZER, FORMATS, YEAR_MIN, YEAR_MAX } from '../web/data/dates.js';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const TRAIN_SEED = 1000;
export const HELDOUT_SEED = 2024;
export const TEST_SEED = 7;
const BATCH = 64;

const base = { architecture: 'seq2seq', cell: 'lstm', embeddingSize: 32, hiddenSize: 64, numLayers: 1, bidirectional: true, maxLength: 12 };
/** name → { config keys, steps, lr, seed } */
export const MODELS = {
  additive: { cfg: { attention: 'additive', style: 'bahdanau', attentionSize: 32 }, steps: 2000 },
  dot: { cfg: { attention: 'dot', style: 'luong', inputFeeding: true }, steps: 2000 },
  general: { cfg: { attention: 'general', style: 'luong', inputFeeding: true }, steps: 2000 },
  concat: { cfg: { attention: 'concat', style: 'luong', inputFeeding: true, attentionSize: 32 }, steps: 2000 },
  'local-p': { cfg: { attention: 'local-p', style: 'luong', inputFeeding: true, score: 'general', window: 8, positionSize: 32 }, steps: 3000 },
  none: { cfg: { attention: 'none', style: 'bahdanau' }, steps: 3000 },
};
const ATTN_NAMES = {
  additive: 'additive (Bahdanau et al. 2015)', dot: 'dot (Luong et al. 2015, input feeding)',
  general: 'general (Luong et al. 2015, input feeding)', concat: 'concat (Luong et al. 2015, input feeding)',
  'local-p': 'local-p, general score, D = 8 (Luong et al. 2015, input feeding)', none: 'none (encoder-decoder without attention)',
};

function parseArgs(argv) {
  const a = { names: [], all: false, steps: null, out: path.join(ROOT, 'web', 'models'), quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i];
    if (v === '--all') a.all = true;
    else if (v === '--steps') a.steps = Number(argv[++i]);
    else if (v === '--out') a.out = path.resolve(argv[++i]);
    else if (v === '--jobs') a.jobs = Number(argv[++i]);
    else if (v in MODELS) a.names.push(v);
    else throw new Error(`train.mjs: unknown argument '${v}' (models: ${Object.keys(MODELS).join(', ')}; options --all --steps N --out DIR --jobs N)`);
  }
  if (a.all) a.names = Object.keys(MODELS);
  if (a.names.length === 0) a.names = ['additive'];
  return a;
}

async function trainOne(name, { steps: stepsOverride, out }) {
  await init();
  const spec = MODELS[name];
  const steps = stepsOverride ?? spec.steps;
  const lr = spec.lr ?? 3e-3, seed = spec.seed ?? 1;
  const config = {
    ...base, ...spec.cfg,
    name: `dates-${name}`,
    description: `Human-readable dates (${Object.keys(FORMATS).length} formats, years ${YEAR_MIN}-${YEAR_MAX}) to ISO yyyy-mm-dd; attention: ${ATTN_NAMES[name]}`,
    tokenizer: DATES_TOKENIZER,
  };
  const model = await createModel(config, { seed });
  const trainer = createTrainer(model, { optimizer: 'adam', lr, clip: 1 });
  const probe = generateDates({ seed: HELDOUT_SEED + 1, count: 200, split: 'heldout' });
  const t0 = performance.now();
  const log = [];
  const decayFrom = Math.floor(steps * 0.6);
  for (let s = 0; s < steps; s++) {
    if (s >= decayFrom) trainer.setLearningRate(lr * (1 - 0.9 * (s - decayFrom) / Math.max(steps - decayFrom, 1)));
    const loss = trainer.step(generateDates({ seed: TRAIN_SEED + s, count: BATCH, split: 'train' }));
    if ((s + 1) % 500 === 0 || s === steps - 1) {
      const e = trainer.evaluate(probe, { loss: false });
      const secs = (performance.now() - t0) / 1000;
      log.push({ step: s + 1, loss: +loss.toFixed(5), probeExactMatch: e.exactMatch, seconds: +secs.toFixed(1) });
      console.log(`${name}: step ${s + 1}/${steps}  loss ${loss.toFixed(4)}  probe exact ${(100 * e.exactMatch).toFixed(1)}%  ${secs.toFixed(0)} s`);
    }
  }
  const trainSeconds = (performance.now() - t0) / 1000;
  const heldout = trainer.evaluate(generateDates({ seed: HELDOUT_SEED, count: 2000, split: 'heldout' }));
  const test = trainer.evaluate(generateDates({ seed: TEST_SEED, count: 200, split: 'heldout' }), { loss: false });
  const bytes = trainer.save();
  await mkdir(out, { recursive: true });
  const file = path.join(out, `dates-${name}.safetensors`);
  await writeFile(file, bytes);
  const card = {
    name: `dates-${name}`,
    task: 'dates: a date in one of many human formats → ISO 8601 yyyy-mm-dd, character by character',
    file: `dates-${name}.safetensors`,
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
      command: `node scripts/train.mjs ${name}${stepsOverride ? ` --steps ${steps}` : ''}`,
      initSeed: seed, optimizer: 'adam', lr, schedule: `constant, then linear decay to lr/10 from step ${decayFrom}`,
      clip: 1, batchSize: BATCH, steps, seconds: +trainSeconds.toFixed(1),
      machine: `${os.cpus()[0]?.model ?? 'unknown'}, node ${process.version}, wasm ${getSimd()}`,
      log,
    },
    metrics: {
      heldout: { count: 2000, seed: HELDOUT_SEED, exactMatch: heldout.exactMatch, tokenAccuracy: +heldout.tokenAccuracy.toFixed(5), loss: +heldout.loss.toFixed(5) },
      testSample: { count: 200, seed: TEST_SEED, exactMatch: test.exactMatch },
    },
  };
  await writeFile(path.join(out, `dates-${name}.json`), `${JSON.stringify(card, null, 2)}\n`);
  console.log(`${name}: held-out exact match ${(100 * heldout.exactMatch).toFixed(2)}% (2000 dates), token accuracy ${(100 * heldout.tokenAccuracy).toFixed(2)}%, ${trainSeconds.toFixed(0)} s, ${bytes.length} bytes -> ${path.relative(ROOT, file)}`);
  trainer.dispose();
  model.dispose();
  return card;
}

function getSimd() {
  return simdSupported() ? 'simd128' : 'scalar';
}

/** Parameters in safetensors bytes: (file size − 8 − header) / 4. */
function countParams(bytes) {
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true));
  return (bytes.length - 8 - n) / 4;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const jobs = args.jobs ?? (args.all ? Math.min(2, os.cpus().length) : 1);
  if (jobs <= 1 || args.names.length === 1) {
    for (const n of args.names) await trainOne(n, args);
    return;
  }
  // one child process per model, `jobs` at a time
  const queue = [...args.names];
  const t0 = performance.now();
  const runOne = (name) => new Promise((resolve, reject) => {
    const extra = [...(args.steps ? ['--steps', String(args.steps)] : []), '--out', args.out];
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), name, ...extra], { stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`train.mjs ${name} exited with ${code}`))));
  });
  await Promise.all(Array.from({ length: jobs }, async () => {
    while (queue.length) await runOne(queue.shift());
  }));
  console.log(`all ${args.names.length} models in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
