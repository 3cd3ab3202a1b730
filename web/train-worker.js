// train-worker.js: trains the dates model with additive attention from scratch, in a module
// Web Worker, so the page's main thread only draws (train-view.js starts it).
//
//   const worker = new Worker(new URL('./train-worker.js', import.meta.url), { type: 'module' });
//   worker.postMessage({ type: 'init' });                       // → ready, snapshot, eval
//   worker.postMessage({ type: 'start', lr: 0.005, batch: 32 }); // → progress, snapshot, eval…
//   worker.postMessage({ type: 'pause' });                       // → state { running: false }
//   worker.postMessage({ type: 'settings', lr: 0.001, batch: 64 });
//   worker.postMessage({ type: 'reset' });                       // seed-1 weights again, step 0
//
// The model: the architecture of web/models/dates-additive.json (bidirectional LSTM encoder,
// 32 units per direction, LSTM decoder, E = 32, additive attention, Bahdanau 2015 eq. 6 and
// appendix A.1.2) with createModel(config, { seed: 1 }); Adam (Kingma & Ba 2015), clip 1
// (docs/training.md). Batches: generateDates({ seed: 1000 + step, count: batch, split: 'train' }),
// the same stream scripts/train.mjs uses, so a run is fixed by its seed and settings.
//
// Messages out (all plain data; typed arrays transferred):
//   ready    { example, target, config, parameters, evalCount, simd }
//   progress { step, loss, elapsed }        loss: the mean over the steps since the last one
//   snapshot { step, elapsed, output, weights: Float32Array [rows * cols], rows, cols,
//              rowLabels, colLabels }       model.run(EXAMPLE), at least every SNAPSHOT_MS
//   eval     { step, elapsed, exactMatch, tokenAccuracy, count, reached }   every EVAL_MS
//   state    { running, step, elapsed }     after start, pause, reset
//   error    { message }
// elapsed: milliseconds of training (paused time left out). reached: { step, elapsed } of the
// first evaluation at or above 90 % exact match, or null.
//
// Training runs in slices of SLICE_MS, yielding between them through a MessageChannel (not
// setTimeout, which browsers clamp to 4 ms when nested), so pause and reset take effect within
// one slice. Imports attnlab by a relative path: import maps do not apply inside workers.
// Deliberately holds no DOM code and no drawing.

import { init, createModel, createTrainer } from '../wasm/index.js';
import { DATES_TOKENIZER, generateDates } from './data/dates.js';

const CARD_URL = new URL('./models/dates-additive.json', import.meta.url);
const EXAMPLE = { src: 'Sunday, 22 November 2026', tgt: '2026-11-22' };
const INIT_SEED = 1;
const TRAIN_SEED = 1000; // batch seeds: TRAIN_SEED + step, as scripts/train.mjs
const EVAL_SAMPLE = { seed: 7, count: 200, split: /** @type {const} */ ('heldout') }; // the 200-date sample of docs/training.md
const MAX_LENGTH = 12; // as scripts/train.mjs (the card does not record it)
const REACH = 0.9;

const SLICE_MS = 40;
const PROGRESS_STEPS = 10;
const SNAPSHOT_MS = 400; // the issue asks for ≤ 500 ms; each redraw costs the main thread ~5-8 ms
const EVAL_MS = 2000;
const LIMITS = { lr: [1e-5, 0.1], batch: [1, 256] }; // the page validates first; this is the backstop

// Config keys the card's architecture may carry that createModel understands (docs/models.md).
const CONFIG_KEYS = [
  'cell',
  'embeddingSize',
  'hiddenSize',
  'numLayers',
  'bidirectional',
  'attention',
  'style',
  'attentionSize',
  'inputFeeding',
  'score',
  'window',
  'positionSize',
];

let config = null;
let model = null;
let trainer = null;
let evalPairs = null;
let settings = { lr: 3e-3, batch: 64 };
let running = false;
let step = 0;
let elapsedBefore = 0; // training ms before the current run segment
let segmentStart = 0; // performance.now() when the current segment began
let lossSum = 0;
let lossCount = 0;
let lastSnapshot = 0;
let lastEval = 0;
let reached = null;
let busy = Promise.resolve(); // messages are handled one after another (setup is async)

const port = new MessageChannel();
port.port1.onmessage = slice;
const scheduleSlice = () => port.port2.postMessage(0);

const elapsed = () => elapsedBefore + (running ? performance.now() - segmentStart : 0);
// The checker sees the page's lib (dom), where self is a Window; here it is the worker's scope.
const workerScope =
  /** @type {{ postMessage(message: unknown, transfer: Transferable[]): void }} */ (
    /** @type {unknown} */ (self)
  );
const post = (msg, transfer = []) => workerScope.postMessage(msg, transfer);

function configFromCard(card) {
  const arch = card?.architecture;
  if (!arch || typeof arch !== 'object')
    throw new Error(`${CARD_URL.pathname} has no architecture`);
  const out = { architecture: 'seq2seq', maxLength: MAX_LENGTH, tokenizer: DATES_TOKENIZER };
  for (const k of CONFIG_KEYS) if (k in arch) out[k] = arch[k];
  return out;
}

function checkSettings(s) {
  const lr = Number(s?.lr),
    batch = Number(s?.batch);
  if (!(lr >= LIMITS.lr[0] && lr <= LIMITS.lr[1]))
    throw new Error(`learning rate ${s?.lr} is outside [${LIMITS.lr.join(', ')}]`);
  if (!Number.isInteger(batch) || batch < LIMITS.batch[0] || batch > LIMITS.batch[1]) {
    throw new Error(`batch size ${s?.batch} is not an integer in [${LIMITS.batch.join(', ')}]`);
  }
  return { lr, batch };
}

async function setup() {
  if (config) return;
  const [api, card] = await Promise.all([
    init(),
    fetch(CARD_URL).then((r) => {
      if (!r.ok) throw new Error(`fetching ${CARD_URL.pathname} failed with HTTP ${r.status}`);
      return r.json();
    }),
  ]);
  config = configFromCard(card);
  evalPairs = generateDates(EVAL_SAMPLE);
  await fresh();
  post({
    type: 'ready',
    example: EXAMPLE.src,
    target: EXAMPLE.tgt,
    config: { ...config, tokenizer: undefined },
    parameters: card.architecture.parameters ?? null,
    evalCount: evalPairs.length,
    simd: api.simd,
  });
  snapshot();
  evaluate();
}

/** New seeded weights and optimiser state; step 0. */
async function fresh() {
  trainer?.dispose();
  model?.dispose();
  trainer = null;
  model = null;
  model = await createModel(config, { seed: INIT_SEED });
  trainer = createTrainer(model, { optimizer: 'adam', lr: settings.lr, clip: 1 });
  step = 0;
  elapsedBefore = 0;
  lossSum = 0;
  lossCount = 0;
  reached = null;
}

function snapshot() {
  const r = model.run(EXAMPLE.src);
  const a = r.attention[0];
  const [rows, cols] = a.weights.shape;
  lastSnapshot = performance.now();
  if (rows < 1) return;
  const weights = a.weights.data;
  post(
    {
      type: 'snapshot',
      step,
      elapsed: elapsed(),
      output: r.output,
      weights,
      rows,
      cols,
      rowLabels: a.rowLabels,
      colLabels: a.colLabels,
    },
    [weights.buffer],
  );
}

function evaluate() {
  const e = trainer.evaluate(evalPairs, { loss: false });
  lastEval = performance.now();
  const now = elapsed();
  if (!reached && e.exactMatch >= REACH) reached = { step, elapsed: now };
  post({
    type: 'eval',
    step,
    elapsed: now,
    exactMatch: e.exactMatch,
    tokenAccuracy: e.tokenAccuracy,
    count: e.count,
    reached,
  });
}

function flushProgress() {
  if (lossCount === 0) return;
  post({ type: 'progress', step, loss: lossSum / lossCount, elapsed: elapsed() });
  lossSum = 0;
  lossCount = 0;
}

function postState() {
  post({ type: 'state', running, step, elapsed: elapsed() });
}

function stop() {
  if (!running) return;
  elapsedBefore = elapsed();
  running = false;
}

/** One slice of training: steps until SLICE_MS have passed, then the due reports, then yield. */
function slice() {
  if (!running) return;
  try {
    const t0 = performance.now();
    do {
      const batch = generateDates({
        seed: TRAIN_SEED + step,
        count: settings.batch,
        split: 'train',
      });
      const loss = trainer.step(batch);
      step++;
      lossSum += loss;
      lossCount++;
      if (lossCount >= PROGRESS_STEPS) flushProgress();
    } while (performance.now() - t0 < SLICE_MS);
    const now = performance.now();
    if (now - lastSnapshot >= SNAPSHOT_MS) snapshot();
    if (now - lastEval >= EVAL_MS) evaluate();
  } catch (err) {
    stop();
    flushProgress();
    post({ type: 'error', message: err?.message ?? String(err) });
    postState();
    return;
  }
  scheduleSlice();
}

async function handle(msg) {
  switch (msg?.type) {
    case 'init':
      await setup();
      postState();
      return;
    case 'start': {
      await setup();
      settings = checkSettings({ lr: msg.lr ?? settings.lr, batch: msg.batch ?? settings.batch });
      trainer.setLearningRate(settings.lr);
      if (running) return;
      running = true;
      segmentStart = performance.now();
      lastSnapshot = lastEval = segmentStart; // a slice's worth of steps before the first report
      postState();
      scheduleSlice();
      return;
    }
    case 'pause':
      stop();
      if (!model) return;
      flushProgress();
      snapshot();
      postState();
      return;
    case 'settings': {
      const next = checkSettings({ lr: msg.lr ?? settings.lr, batch: msg.batch ?? settings.batch });
      settings = next;
      trainer?.setLearningRate(next.lr);
      return;
    }
    case 'reset':
      stop();
      if (!config) return;
      await fresh();
      snapshot();
      evaluate();
      postState();
      return;
    default:
      throw new Error(`unknown message ${JSON.stringify(msg?.type)}`);
  }
}

self.onmessage = (event) => {
  busy = busy
    .then(() => handle(event.data))
    .catch((err) => {
      post({ type: 'error', message: err?.message ?? String(err) });
    });
};
