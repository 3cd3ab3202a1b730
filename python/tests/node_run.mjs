// python/tests/node_run.mjs: what the Python tests ask of the JS library, in one Node process:
// a JSON request on stdin, a JSON answer on stdout (typed arrays as plain arrays, NaN as null).
//
//   {"simd": true, "jobs": [
//     {"file": "/tmp/m.safetensors", "calls": [["run", "abc"], ["score", [4, 5], [6, 2]]]},
//     {"file": "...", "calls": [["encode", "The movie"], ["normalize", "didn’t"]]},
//     {"tokenizer": {...config "tokenizer" object...}, "texts": ["The movie", ...]},
//     {"op": "multiHeadAttention", "file": "/tmp/mha.safetensors", "query": [[...]], ...},
//     {"tensors": "web/models/tf-induction.safetensors"},     // readSafetensors' float32 values
//     {"samples": ["dates-additive", ...]}                    // web/shared/models.js sampleFor
//     {"train": {...config}, "examples": [...], "steps": 20, "dtype": "I8", "file": "/tmp/t.safetensors",
//      "calls": [...]}]}     // createModel + createTrainer + save, then the calls on the saved file
//   -> {"results": [[<run result>, <score result>], ..., {"split": [[...]], "normalize": [...]}]}
//
// Every model call is the public API (loadModel, Model methods, readSafetensors, ops), so the
// Python side compares PyTorch with exactly what a JS user gets. Deliberately not a test itself:
// python/tests/*.py hold the expectations and tolerances.

import { readFileSync, writeFileSync } from 'node:fs';
import {
  createModel,
  createTrainer,
  init,
  loadModel,
  ops,
  readSafetensors,
} from '../../wasm/index.js';
import { Tokenizer } from '../../wasm/model/tokenizer.js';

function plain(v) {
  if (ArrayBuffer.isView(v)) return Array.from(v, (x) => (Number.isFinite(x) ? x : null));
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') {
    const o = {};
    for (const [k, x] of Object.entries(v)) o[k] = plain(x);
    return o;
  }
  return typeof v === 'number' && !Number.isFinite(v) ? null : v;
}

async function job(j) {
  if (j.tokenizer) {
    const tok = new Tokenizer(j.tokenizer);
    return {
      split: j.texts.map((t) => tok.split(t)),
      normalize: j.texts.map((t) => tok.normalize(t)),
      encode: j.texts.map((t) => Array.from(tok.encode(t))),
    };
  }
  if (j.samples) {
    const { sampleFor } = await import('../../web/shared/models.js');
    return j.samples.map((name) => sampleFor(name));
  }
  if (j.tensors) {
    const { tensors } = readSafetensors(readFileSync(j.tensors));
    return Object.fromEntries(
      [...tensors].map(([k, t]) => [k, { data: t.data, shape: t.shape, dtype: t.dtype }]),
    );
  }
  if (j.op === 'multiHeadAttention') {
    const { tensors, metadata } = readSafetensors(readFileSync(j.file));
    const op = JSON.parse(metadata.op);
    const params = Object.fromEntries(
      [...tensors].map(([k, t]) => [k, { data: t.data, shape: t.shape }]),
    );
    return ops.multiHeadAttention(j.query, j.key, j.value, params, { numHeads: op.numHeads });
  }
  if (j.train) {
    // a model trained in JS, as the lab's workers do: createModel, Adam steps, saved
    const made = await createModel(j.train, { seed: j.seed ?? 1 });
    const trainer = createTrainer(made, { optimizer: 'adam', lr: j.lr ?? 1e-2 });
    for (let s = 0; s < j.steps; s++) trainer.step(j.examples);
    writeFileSync(j.file, trainer.save({ dtype: j.dtype ?? 'F32' }));
    trainer.dispose();
    made.dispose();
  }
  const model = await loadModel(new Uint8Array(readFileSync(j.file)));
  try {
    const out = [];
    for (const [method, ...args] of j.calls) {
      if (method === 'config') out.push(model.config);
      else out.push(model[method](...args));
    }
    return out;
  } finally {
    model.dispose();
  }
}

const request = JSON.parse(readFileSync(0, 'utf8'));
await init({ simd: request.simd !== false });
const results = [];
for (const j of request.jobs) {
  try {
    results.push(await job(j));
  } catch (e) {
    results.push({ error: String(e && e.message ? e.message : e) });
  }
}
process.stdout.write(JSON.stringify(plain({ results })));
