// scripts/train/common.mjs: what every family of scripts/train.mjs shares: the learning-rate
// schedule and training loop, the model card's common fields, and writing a model and its card.
//
//   const run = await trainLoop({ name, trainer, steps, lr, batch: (s) => examples, probe: () => ({ ... }) });
//   const shipped = await shipI8(trainer);      // the I8 file, loaded back: what the card measures
//   const card = familyCard(name, shipped, { training: trainingBlock({ ... }), float32 });
//   await writeModel(out, name, shipped.bytes, card);   // <out>/<name>.safetensors and <name>.json
//
// Each family's card function (datesCard, sequencesCard, ...) measures everything on `shipped`,
// so scripts/recard.mjs can rebuild a card from a stored file (loadShipped) without training.
// The schedule (the dates models' since the first release, so their bytes do not move): Adam at
// lr constant for the first 60% of the steps, then linear decay to lr/10 over the last 40%.
// Timing: `seconds` is wall time, `cpuSeconds` this process's CPU time (user + system): on a
// shared machine the wall time says more about the neighbours than about the model, so the
// budget of `make models` is judged on both.
// Not here: any maths (wasm), data (web/data/), a family's configs (scripts/train/<family>.mjs).

import { writeFile, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import path from 'node:path';

import { simdSupported, loadTrainableModel, createTrainer } from '../../wasm/index.js';
import { toF16Safetensors } from '../../wasm/f16.js';
import { toI8Safetensors, I8_SCALE_SUFFIX } from '../../wasm/i8.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const MODELS_DIR = path.join(ROOT, 'web', 'models');

/** The learning rate at step s (0-based) of `steps`: constant, then linear decay to lr/10 over the last 40%. */
export function scheduledLr(lr, steps, s) {
  const decayFrom = Math.floor(steps * 0.6);
  return s >= decayFrom ? lr * (1 - (0.9 * (s - decayFrom)) / Math.max(steps - decayFrom, 1)) : lr;
}

/** The schedule as the card states it. */
export function scheduleText(steps) {
  return `constant, then linear decay to lr/10 from step ${Math.floor(steps * 0.6)}`;
}

/**
 * Trains `steps` steps with the schedule above: batch(s) gives step s's examples, and step(s), when
 * given, takes step s in place of trainer.step(batch(s)) and returns its loss (agreement.mjs: the
 * pair loss). Every `every` steps and at the end, probe() (no weight change) gives a few numbers
 * for the log line and the card's log (rates in [0, 1], printed as percentages; keys naming a
 * loss or perplexity print as they are). Returns { log, seconds, cpuSeconds, lastLoss }.
 */
export function trainLoop({
  name,
  trainer,
  steps,
  lr,
  batch,
  probe,
  every = 500,
  step = (s) => trainer.step(batch(s)),
}) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const log = [];
  const decayFrom = Math.floor(steps * 0.6);
  let loss = NaN;
  for (let s = 0; s < steps; s++) {
    if (s >= decayFrom) trainer.setLearningRate(scheduledLr(lr, steps, s));
    loss = step(s);
    if ((s + 1) % every === 0 || s === steps - 1) {
      const p = probe ? probe() : {};
      const secs = (performance.now() - t0) / 1000;
      log.push({ step: s + 1, loss: +loss.toFixed(5), ...p, seconds: +secs.toFixed(1) });
      const shown = Object.entries(p)
        .map(
          ([k, v]) =>
            `${k} ${/perplexity|loss/i.test(k) ? v.toFixed(3) : `${(100 * v).toFixed(1)}%`}`,
        )
        .join('  ');
      console.log(
        `${name}: step ${s + 1}/${steps}  loss ${loss.toFixed(4)}  ${shown}  ${secs.toFixed(0)} s`,
      );
    }
  }
  return { log, lastLoss: loss, ...elapsed(t0, c0) };
}

/** Wall and CPU seconds since (t0 = performance.now(), c0 = process.cpuUsage()). */
export function elapsed(t0, c0) {
  const c = process.cpuUsage(c0);
  return {
    seconds: +((performance.now() - t0) / 1000).toFixed(1),
    cpuSeconds: +((c.user + c.system) / 1e6).toFixed(1),
  };
}

/** Parameters in safetensors bytes (any dtype): the sum of the tensors' element counts, an I8
 * tensor's scales ("<name>:scale") not counted: they are storage, not parameters. */
export function countParams(bytes) {
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  const scales = (k) =>
    k.endsWith(I8_SCALE_SUFFIX) && header[k.slice(0, -I8_SCALE_SUFFIX.length)]?.dtype === 'I8';
  let total = 0;
  for (const [k, t] of Object.entries(header))
    if (k !== '__metadata__' && !scales(k)) total += t.shape.reduce((a, b) => a * b, 1);
  return total;
}

/** Where a card was made. */
export function machine() {
  return `${os.cpus()[0]?.model ?? 'unknown'}, node ${process.version}, wasm ${simdSupported() ? 'simd128' : 'scalar'}`;
}

/** The training command a card records. */
export function command(name, { steps, stepsOverride }) {
  return `node scripts/train.mjs ${name}${stepsOverride ? ` --steps ${steps}` : ''}`;
}

/**
 * A card's training block (Adam, clip 1, the common schedule): the command, seed, optimizer, lr,
 * schedule, clip, batch size, steps, wall and CPU seconds of `run` (trainLoop's), the machine and
 * the log; `timing` (more CPU figures) goes after cpuSeconds, `notes` after the log.
 */
export function trainingBlock(
  { name, steps, stepsOverride, seed, lr, batchSize, run },
  { timing = {}, notes = {} } = {},
) {
  return {
    command: command(name, { steps, stepsOverride }),
    initSeed: seed,
    optimizer: 'adam',
    lr,
    schedule: scheduleText(steps),
    clip: 1,
    batchSize,
    steps,
    seconds: run.seconds,
    cpuSeconds: run.cpuSeconds,
    ...timing,
    machine: machine(),
    log: run.log,
    ...notes,
  };
}

/** x in [0, 1] as a percentage string with `d` decimals. */
export const pct = (x, d = 2) => `${(100 * x).toFixed(d)}%`;

/** Rounds every number in a plain object tree to `d` decimals (cards stay readable). */
export function rounded(v, d = 5) {
  if (typeof v === 'number') return Number.isInteger(v) ? v : +v.toFixed(d);
  if (Array.isArray(v)) return v.map((x) => rounded(x, d));
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rounded(x, d)]));
  return v;
}

/** Writes <out>/<name>.safetensors and <out>/<name>.json (the card, 2-space JSON). */
export async function writeModel(out, name, bytes, card) {
  await mkdir(out, { recursive: true });
  const file = path.join(out, `${name}.safetensors`);
  await writeFile(file, bytes);
  await writeFile(path.join(out, `${name}.json`), `${JSON.stringify(card, null, 2)}\n`);
  return path.relative(ROOT, file);
}

/** How far (in points of a percentage) the F16 or I8 file may fall below the float32 model's metric. */
export const F16_TOLERANCE_POINTS = 0.5;

const STORE = { F16: toF16Safetensors, I8: toI8Safetensors };
/** The card's storage key for the metric measured on the stored file. */
const MEASURED_KEY = { F16: 'float16', I8: 'int8' };

/** The dtype a model file is stored in: 'I8' when a tensor is I8, else 'F16' or 'F32' when every
 * tensor is (anything else: null). */
export function storedDtype(bytes) {
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  const dtypes = new Set(
    Object.entries(header)
      .filter(([k]) => k !== '__metadata__')
      .map(([, t]) => t.dtype),
  );
  if (dtypes.has('I8')) return 'I8';
  return dtypes.size === 1 && (dtypes.has('F16') || dtypes.has('F32')) ? [...dtypes][0] : null;
}

/**
 * A stored model file loaded back as shipF16/shipI8 load theirs: { dtype (storedDtype), bytes,
 * float32Bytes (the size of the float32 file it was made from: given, since the file does not
 * say), model, trainer (evaluate() only), dispose() }. What a family's card function reads,
 * whether the file was just trained (ship) or is a shipped file re-measured (scripts/recard.mjs).
 */
export async function loadShipped(bytes, float32Bytes) {
  const dtype = storedDtype(bytes);
  if (dtype !== 'F16' && dtype !== 'I8')
    throw new Error(
      `loadShipped: the file is stored as ${dtype ?? 'a mix of dtypes'}, not F16 or I8`,
    );
  const model = await loadTrainableModel(bytes);
  const trainer = createTrainer(model, { optimizer: 'sgd', lr: 1e-3 }); // never stepped: evaluate() only
  return {
    dtype,
    bytes,
    float32Bytes,
    model,
    trainer,
    dispose() {
      trainer.dispose();
      model.dispose();
    },
  };
}

/** shipF16/shipI8: the trained weights stored as dtype, loaded back. */
async function ship(trainer, dtype) {
  const float32 = trainer.save();
  return loadShipped(STORE[dtype](float32, `ship${dtype}`), float32.length);
}

/**
 * The trained model's weights stored as F16, loaded back, so the card's metrics are measured on
 * the file a visitor downloads (what shipped before I8; a family whose headline metric I8 cost
 * more than F16_TOLERANCE_POINTS would ship this). Returns { dtype: 'F16', bytes (the F16 file),
 * float32Bytes, model, trainer (of the loaded F16 file; evaluate() only), dispose() }.
 * @param {any} trainer the trainer of the float32 model
 */
export function shipF16(trainer) {
  return ship(trainer, 'F16');
}

/**
 * What is shipped (docs/training.md, "Size"): shipF16 with I8 storage (wasm/i8.js: per-row int8
 * matrices, the rest F16; about 58% of the F16 gzip bytes): the same record, bytes being the I8
 * file and dtype 'I8'. Its weights are rounded to float16 before they are quantised, so this is
 * the file scripts/quantize.mjs makes from the F16 file of the same weights.
 * @param {any} trainer the trainer of the float32 model
 */
export function shipI8(trainer) {
  return ship(trainer, 'I8');
}

/**
 * The card's storage record of a shipF16/shipI8 result, and the check that the stored file costs
 * at most F16_TOLERANCE_POINTS of the headline metric (a fraction in [0, 1], higher is better):
 * throws, naming both numbers, when it costs more. The record: { dtype, bytes, float32Bytes,
 * metric, float32, float16 (F16) or int8 (I8): the metric on the stored file }; `extra` (the
 * float32 model's other figures a family records, e.g. float32Natural) follows.
 */
export function storageRecord(shipped, metric, float32, measured, extra = {}) {
  const { dtype } = shipped;
  const lost = 100 * (float32 - measured);
  if (lost > F16_TOLERANCE_POINTS) {
    throw new Error(
      `${dtype}: ${metric} ${(100 * measured).toFixed(2)}% as ${dtype} against ${(100 * float32).toFixed(2)}% as float32: more than ${F16_TOLERANCE_POINTS} points lost`,
    );
  }
  return {
    dtype,
    bytes: shipped.bytes.length,
    float32Bytes: shipped.float32Bytes,
    metric,
    float32: +float32.toFixed(5),
    [MEASURED_KEY[dtype]]: +measured.toFixed(5),
    ...extra,
  };
}

/** storageRecord under its first name. */
export const f16Storage = storageRecord;
