#!/usr/bin/env node
// scripts/train-hash.mjs: a fingerprint of what the training build computes, to prove a change to
// the trainer's C (flags, vectorised backward loops) keeps every float bit-identical. Trains with
// the public JS API (init() picks the SIMD build where Node has SIMD128) and prints, per run, a
// SHA-256 of the saved weights (trainer.save(), float32) and of every step's loss bits.
//
//   node scripts/train-hash.mjs            # all runs (~1 min on a quiet core)
//   node scripts/train-hash.mjs --scalar   # the same on the scalar build
//   node scripts/train-hash.mjs dates      # only the runs whose name contains "dates"
//
// The first run is the one the page's old Train view trained in its worker (the view is gone,
// issue #34; the run stays so fingerprints compare): the dates-additive card's architecture, maxLength 12,
// createModel(config, { seed: 1 }), Adam lr 3e-3, clip 1, batch 64,
// generateDates({ seed: 1000 + step, count: 64, split: 'train' }), 300 steps. The others are
// shorter runs of every attention, cell and model family the trainers have, so no backward path
// goes unchecked. Compare the output of two builds with diff: equal lines, equal bits.
// Not here: any assertion (the numbers are only fingerprints; tests/js/train*.test.js check values).

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { init, createModel, createTrainer } from '../wasm/index.js';
import { DATES_TOKENIZER, generateDates } from '../web/data/dates.js';
import { generateInduction, INDUCTION_TOKENIZER } from '../web/data/induction.js';
import {
  generateReviews,
  REVIEW_LABELS,
  REVIEWS_TOKENIZER,
  REVIEWS_SEPARATOR,
} from '../web/data/reviews.js';

const card = JSON.parse(
  readFileSync(new URL('../web/models/dates-additive.json', import.meta.url), 'utf8'),
);
const KEYS = [
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
const worker = { architecture: 'seq2seq', maxLength: 12, tokenizer: DATES_TOKENIZER };
for (const k of KEYS) if (k in card.architecture) worker[k] = card.architecture[k];

const s2s = {
  architecture: 'seq2seq',
  cell: 'lstm',
  embeddingSize: 32,
  hiddenSize: 64,
  numLayers: 1,
  bidirectional: true,
  maxLength: 12,
  tokenizer: DATES_TOKENIZER,
};
const tfBase = {
  architecture: 'transformer',
  variant: 'encoder-decoder',
  embeddingSize: 32,
  numHeads: 4,
  feedforwardSize: 64,
  numLayers: 2,
  maxLength: 12,
  tokenizer: DATES_TOKENIZER,
};
// a word-level language model over dates (memory-rnn models are word-level): the words of 200 dates
const LM_WORDS = [
  ...new Set(
    generateDates({ seed: 1, count: 200 }).flatMap((p) => p.src.toLowerCase().split(/\s+/)),
  ),
].sort();
const LM_TOKENIZER = {
  type: 'word',
  vocab: ['<pad>', '<unk>', '<s>', '</s>', ...LM_WORDS],
  pad: '<pad>',
  unk: '<unk>',
  bos: '<s>',
  eos: '</s>',
  normalize: ['lowercase'],
};
const dates = (batch) => (s) => generateDates({ seed: 1000 + s, count: batch, split: 'train' });

const RUNS = [
  { name: 'dates-worker (train-worker.js, 300 steps)', cfg: worker, steps: 300, batch: dates(64) },
  {
    name: 'dates-local-p (bench model)',
    cfg: {
      ...s2s,
      attention: 'local-p',
      style: 'luong',
      inputFeeding: true,
      score: 'general',
      window: 8,
      positionSize: 32,
    },
    steps: 60,
    batch: dates(32),
  },
  {
    name: 'dates-local-m dot',
    cfg: {
      ...s2s,
      attention: 'local-m',
      style: 'luong',
      inputFeeding: true,
      score: 'dot',
      window: 4,
    },
    steps: 30,
    batch: dates(32),
  },
  {
    name: 'dates-dot',
    cfg: { ...s2s, attention: 'dot', style: 'luong', inputFeeding: true },
    steps: 40,
    batch: dates(32),
  },
  {
    name: 'dates-general',
    cfg: { ...s2s, attention: 'general', style: 'luong', inputFeeding: true },
    steps: 40,
    batch: dates(32),
  },
  {
    name: 'dates-concat',
    cfg: { ...s2s, attention: 'concat', style: 'luong', inputFeeding: true, attentionSize: 32 },
    steps: 40,
    batch: dates(32),
  },
  {
    name: 'dates-none',
    cfg: { ...s2s, attention: 'none', style: 'bahdanau' },
    steps: 40,
    batch: dates(32),
  },
  {
    name: 'dates-gru-2layer-additive',
    cfg: {
      ...s2s,
      cell: 'gru',
      numLayers: 2,
      bidirectional: false,
      hiddenSize: 24,
      attention: 'additive',
      style: 'bahdanau',
      attentionSize: 16,
    },
    steps: 40,
    batch: dates(16),
  },
  {
    name: 'dates-rnn-dot',
    cfg: { ...s2s, cell: 'rnn', hiddenSize: 20, attention: 'dot', style: 'luong' },
    steps: 40,
    batch: dates(16),
  },
  {
    name: 'tf-dates-absolute',
    cfg: { ...tfBase, positions: 'learned', maxPositions: 48 },
    steps: 30,
    batch: dates(32),
    lr: 2e-3,
  },
  {
    name: 'tf-dates-relative',
    cfg: { ...tfBase, positions: 'relative', maxRelativePosition: 16 },
    steps: 20,
    batch: dates(32),
    lr: 2e-3,
  },
  {
    name: 'tf-induction (decoder)',
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
    steps: 20,
    batch: (s) =>
      generateInduction({ seed: 1000 + s, count: 16, split: 'train' }).map((ex) => ({
        src: ex.ids,
      })),
    lr: 2e-3,
  },
  ...['attention', 'han'].map((pooling) => ({
    name: `clf-reviews-${pooling}`,
    cfg: {
      architecture: 'classifier',
      cell: 'rnn',
      nonlinearity: 'tanh',
      embeddingSize: 24,
      hiddenSize: 32,
      numLayers: 1,
      bidirectional: true,
      pooling,
      ...(pooling === 'han' ? { attentionSize: 16, sentenceSeparator: REVIEWS_SEPARATOR } : {}),
      labels: REVIEW_LABELS,
      tokenizer: REVIEWS_TOKENIZER,
    },
    steps: 20,
    batch: (s) => generateReviews({ seed: 1000 + s, count: 16, split: 'train' }),
  })),
  ...['lstm', 'lstmn', 'self-attention-rnn'].map((cell) => ({
    name: `lm-dates-${cell}`,
    cfg: {
      architecture: 'memory-rnn',
      head: 'lm',
      embeddingSize: 16,
      hiddenSize: 32,
      cell,
      ...(cell === 'self-attention-rnn' ? { align: 'additive', attentionSize: 16 } : {}),
      tokenizer: LM_TOKENIZER,
    },
    steps: 40,
    batch: (s) =>
      generateDates({ seed: 1000 + s, count: 8, split: 'train' }).map((p) => ({ src: p.src })),
  })),
];

const args = process.argv.slice(2);
const simd = !args.includes('--scalar');
const filter = args.find((a) => !a.startsWith('--'));
const api = await init({ simd });
console.log(`build: ${api.simd ? 'simd' : 'scalar'}`);
for (const r of RUNS) {
  if (filter && !r.name.includes(filter)) continue;
  const t0 = performance.now();
  const model = await createModel(r.cfg, { seed: 1 });
  const trainer = createTrainer(model, { optimizer: 'adam', lr: r.lr ?? 3e-3, clip: 1 });
  const losses = new Float32Array(r.steps);
  for (let s = 0; s < r.steps; s++) losses[s] = trainer.step(r.batch(s));
  const weights = createHash('sha256').update(trainer.save()).digest('hex').slice(0, 16);
  const lossHash = createHash('sha256')
    .update(new Uint8Array(losses.buffer))
    .digest('hex')
    .slice(0, 16);
  const ms = (performance.now() - t0).toFixed(0);
  console.log(
    `${r.name.padEnd(44)} steps ${String(r.steps).padStart(3)} weights ${weights} losses ${lossHash} last ${losses[r.steps - 1]}`,
  );
  console.error(`  ${ms} ms`);
  trainer.dispose();
  model.dispose();
}
