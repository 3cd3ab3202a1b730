// scripts/bench/api-worker.mjs: one attnlab build behind its public JS API, in a worker thread,
// for the "every shipped model, per input" rows. init() is once per JS realm, so the SIMD and the
// scalar build each get a thread of their own (workerData.simd) and the harness's attnlab-simd
// and attnlab-scalar contenders talk to theirs by messages (scripts/bench/contenders.mjs). Every
// sample is timed here, around the model.run calls alone, so the messages cost nothing measured.
//
//   → { ready: true, simd }                                   once init() has resolved
//   { seq, cmd: 'load', id, file, text, options }  → { seq, output, discrete, tokens }
//   { seq, cmd: 'time', id, reps }                 → { seq, ms }    (ms per call)
//   { seq, cmd: 'free', id }                       → { seq, live }  (wasm blocks still allocated)
// A failed request answers { seq, error }.

import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { init, loadModel } from '../../wasm/index.js';

const lib = await init({ simd: workerData.simd });
const loaded = new Map(); // case id → { model, run }

/**
 * What a run is checked on: its numbers (log-probs, class probabilities, logits, next-word
 * distributions: whichever the family returns, concatenated) and its discrete outcome as a string
 * (the output text or label, then the argmax of every row of the logits or distributions).
 */
function digest(r) {
  const parts = [r.logProbs, r.probs, r.logits?.data, r.distributions?.data].filter(Boolean);
  const output = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) { output.set(p, off); off += p.length; }
  const rows = r.logits ?? r.distributions;
  const argmax = [];
  if (rows) {
    const [n, v] = rows.shape;
    for (let i = 0; i < n; i++) {
      let best = 0;
      for (let j = 1; j < v; j++) if (rows.data[i * v + j] > rows.data[i * v + best]) best = j;
      argmax.push(best);
    }
  }
  return { output, discrete: JSON.stringify([r.output ?? r.label ?? null, ...argmax]) };
}

const handlers = {
  async load({ id, file, text, options }) {
    const model = await loadModel(readFileSync(file));
    // as the page's views (web/views/) call it: without options unless the view passes some
    const run = options ? () => model.run(text, options) : () => model.run(text);
    loaded.set(id, { model, run });
    return { ...digest(run()), tokens: model.encode(text).length };
  },
  time({ id, reps }) {
    const { run } = loaded.get(id);
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) run();
    return { ms: (performance.now() - t0) / reps };
  },
  free({ id }) {
    loaded.get(id)?.model.dispose();
    loaded.delete(id);
    return { live: lib.liveAllocations() };
  },
};

parentPort.on('message', async ({ seq, cmd, ...args }) => {
  try {
    parentPort.postMessage({ seq, ...(await handlers[cmd](args)) });
  } catch (e) {
    parentPort.postMessage({ seq, error: String(e.stack ?? e) });
  }
});
parentPort.postMessage({ ready: true, simd: lib.simd });
