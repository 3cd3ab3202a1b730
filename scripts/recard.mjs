#!/usr/bin/env node
// scripts/recard.mjs: rewrites shipped models' cards from their stored files, without training:
// each <dir>/<name>.safetensors is loaded back (common.mjs loadShipped) and its family's card
// function, the one its train() calls (scripts/train/<family>.mjs: datesCard, sequencesCard,
// reviewsCard, agreementCard, transformerCard, translationCard), measures every metric, the examples and the
// storage record on it; the old card's training block (command, seeds, log, seconds, machine) is
// kept, since no training happened, and so are the float32 figures of its storage record (the
// float32 model is gone). Then each family's after() runs as after training (the forgetting
// curve, the LSTM's figures in the attention LMs' cards). The storage record's 0.5-point check
// applies: a file that loses more than F16_TOLERANCE_POINTS of the float32 headline metric fails.
//
//   node scripts/quantize.mjs web/models/tf-induction.safetensors /tmp/i8 && mv /tmp/i8 web/models/tf-induction.safetensors
//   node scripts/recard.mjs tf-induction                  # web/models/tf-induction.json re-measured
//   node scripts/recard.mjs --all --dir /tmp/models        # every model, cards and files in /tmp/models
//
// --all is every model (each family has a card function: datesCard … translationCard).
// With the same file, the card is the one `node scripts/train.mjs <name>` writes, training block
// aside (docs/training.md "Size"). Not here: quantising (scripts/quantize.mjs), training.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { init } from '../wasm/index.js';
import { MODELS_DIR, loadShipped } from './train/common.mjs';
import { FAMILIES, MODELS, ALIASES } from './train/registry.mjs';
import { NAMES as THRESHOLD_NAMES, confidenceOfFile } from './token-thresholds.mjs';

/** The storage record's own keys; the rest of an old record (float32Natural, ...) is the family's extra. */
const RECORD_KEYS = new Set([
  'dtype',
  'bytes',
  'float32Bytes',
  'metric',
  'float32',
  'float16',
  'int8',
]);

/**
 * The card of <dir>/<name>.safetensors, measured on that file, with the training block and the
 * float32 figures of the card <dir>/<name>.json has now. Returns { old, card }.
 */
export async function recard(name, dir = MODELS_DIR) {
  if (!MODELS[name].card)
    throw new Error(
      `${name}: the ${MODELS[name].family} family has no card function yet: retrain it (node scripts/train.mjs ${name})`,
    );
  const old = JSON.parse(readFileSync(path.join(dir, `${name}.json`), 'utf8'));
  if (!old.storage)
    throw new Error(`${name}: the card has no storage record (its float32 figures are needed)`);
  const bytes = new Uint8Array(readFileSync(path.join(dir, old.file)));
  const extra = Object.fromEntries(
    Object.entries(old.storage).filter(([k]) => !RECORD_KEYS.has(k)),
  );
  const shipped = await loadShipped(bytes, old.storage.float32Bytes);
  try {
    const card = await MODELS[name].card(shipped, {
      training: old.training,
      float32: old.storage.float32,
      extra,
    });
    // a translator's or dates model's "may be wrong" threshold and shares, measured again
    // (scripts/token-thresholds.mjs; what `make models` adds after training)
    if (THRESHOLD_NAMES.includes(name)) card.confidence = await confidenceOfFile(name, bytes);
    return { old, card };
  } finally {
    shipped.dispose();
  }
}

function parseArgs(argv) {
  const a = { names: [], dir: MODELS_DIR };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i];
    if (v === '--all') a.names.push(...Object.keys(MODELS).filter((n) => MODELS[n].card));
    else if (v === '--dir') a.dir = path.resolve(argv[++i]);
    else if (v === '--family' && argv[i + 1] in FAMILIES)
      a.names.push(...Object.keys(FAMILIES[argv[++i]].MODELS));
    else if (v in MODELS) a.names.push(v);
    else if (v in ALIASES) a.names.push(ALIASES[v]);
    else
      throw new Error(
        `unknown argument '${v}' (models: ${Object.keys(MODELS).join(', ')}; options --all --family F --dir DIR)`,
      );
  }
  if (!a.names.length)
    throw new Error('usage: node scripts/recard.mjs <name...> | --all | --family F [--dir DIR]');
  a.names = [...new Set(a.names)];
  return a;
}

async function main(argv) {
  const { names, dir } = parseArgs(argv);
  await init();
  for (const name of names) {
    const t0 = performance.now();
    const { old, card } = await recard(name, dir);
    writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(card, null, 2)}\n`);
    const s = card.storage,
      was = old.storage;
    const key = s.dtype === 'I8' ? 'int8' : 'float16',
      wasKey = was.dtype === 'I8' ? 'int8' : 'float16';
    console.log(
      `${name}: ${s.dtype} file, ${s.bytes} bytes (card said ${was.dtype}, ${was.bytes}); ${s.metric} ${s[key]} (was ${was[wasKey]}, float32 ${s.float32}); ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
  for (const f of Object.values(FAMILIES)) {
    if (f.after && names.some((n) => n in f.MODELS)) await f.after(dir);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(`recard: ${e.message}`);
    process.exitCode = 1;
  });
}
