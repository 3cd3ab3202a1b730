#!/usr/bin/env node
// scripts/quantize.mjs: an attnlab model file (F32 or F16, as this library writes them) → the same
// model stored I8 (wasm/i8.js: per-row int8 matrices with float32 scales, the rest F16), without
// retraining: the file is loaded as a trainable model and saved with saveModel(…, { dtype: 'I8' }).
// Every weight is rounded to float16 before it is quantised, so an F16 file and the float32 file
// it was made from give the same I8 bytes.
//
//   node scripts/quantize.mjs web/models/dates-additive.safetensors /tmp/dates-additive-i8.safetensors
//
// Prints the sizes (raw and gzip -9, as scripts/size.mjs measures) and checks that loadModel reads
// the result. Refuses an I8 input (quantising twice would lose precision twice) and a model
// loadTrainableModel refuses (its message names the problem). Not here: measuring the model's
// metrics on the I8 file (scripts/train/common.mjs shipI8 does that when a family trains).

import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

import { init, loadModel, loadTrainableModel, readSafetensors, saveModel } from '../wasm/index.js';

/**
 * The I8 file of an F32 or F16 model file's bytes.
 * @param {Uint8Array} bytes
 * @returns {Promise<Uint8Array>}
 */
export async function quantizeModelFile(bytes) {
  await init();
  for (const [name, t] of readSafetensors(bytes).tensors) {
    if (t.dtype === 'I8')
      throw new Error(`tensor "${name}" is already I8: quantize the F32 or F16 file it came from`);
  }
  const model = await loadTrainableModel(bytes);
  try {
    return saveModel(model, { dtype: 'I8' });
  } finally {
    model.dispose();
  }
}

async function main(argv) {
  if (argv.length !== 2) {
    console.error('usage: node scripts/quantize.mjs <in.safetensors> <out.safetensors>');
    return 2;
  }
  const [src, dst] = argv;
  const bytes = new Uint8Array(readFileSync(src));
  const out = await quantizeModelFile(bytes);
  (await loadModel(out)).dispose(); // the C loader reads what was written
  writeFileSync(dst, out);
  const kb = (b) =>
    `${(b.length / 1024).toFixed(1)} KB (${(gzipSync(b, { level: 9 }).length / 1024).toFixed(1)} KB gzip)`;
  console.log(`${src}: ${kb(bytes)} → ${dst}: ${kb(out)}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      console.error(`quantize: ${e.message}`);
      process.exitCode = 1;
    },
  );
}
