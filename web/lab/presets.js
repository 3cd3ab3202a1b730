// attnlab/web/lab/presets.js: the lab's presets, whole experiments one click each, tuned to the
// issue's targets, with the figures they were tuned on. ESM, no DOM.
//
//   import { PRESETS } from './presets.js';
//   const { experiment } = checkExperiment(PRESETS.find((p) => p.id === 'dates').experiment);
//
// Besides its experiment, each preset says how long it takes to show its result on a 2-core
// machine (result: { seconds, from }, one place for that number: tests/js/lab-presets.test.js
// checks it against the measurement in the docs it names) and, when its two models are claimed to
// be of equal size, equalSize: true (the same test checks their parameter counts within 2 %).
//   from 'lab': docs/lab.md's "Measured" table (make lab-targets: the page in Chromium, A and B
//     training together), the batched rows: the target's time, rounded up.
//   from 'bench': docs/benchmarks.md's lab rows (Node worker threads, 1 worker, held-out
//     evaluation included; the batched trainer, 2-vCPU AMD EPYC, 2026-11-29): steps / (that run's
//     steps per second), rounded up, with steps the step at which the run shows the result quoted
//     in its comment below.
// Not here: the names, limits, defaults and checker (experiment.js), the URL form (lab-url.js).

import { DEFAULT_EXPERIMENT, MODEL_DEFAULTS, freeze } from './experiment.js';

const SEQ2SEQ_DEFAULT = MODEL_DEFAULTS.seq2seq;
const TRANSFORMER_DEFAULT = MODEL_DEFAULTS.transformer;
const clone = (o) => JSON.parse(JSON.stringify(o));

const WITH_WITHOUT_LR = 0.003;
// The learning rate halves every 600 steps: with a constant rate the attention run's longest
// strings kept failing in loss spikes after it first had every length ≥ 95 % (in Chromium its worst
// length went 27–100 % between 119 and 180 s). Half-lives measured on A (scripts/lab-presets.mjs
// --halflife H, Node, one core each, 2-vCPU Xeon, 2026-11-25; worst length every 100 steps):
// 600: every length ≥ 95 % first at step 1,100 (90 s), then 95 95 95 77 100 95 100 100 100 100 95 to
// step 2,200; 1,200: 95 91 95 100 95 82 95 100 100 95 100 100; 450: 91 95 91 95 91 from 1,100;
// 300: stalls at 86 % (decays before it has learned the longest strings).
const WITH_WITHOUT_HALF_LIFE = 600;
const seq = (o = {}) => ({ ...SEQ2SEQ_DEFAULT, ...o });
const tr = (o = {}) => ({ ...MODEL_DEFAULTS.train, ...o });

// The presets: whole experiments, one click each, tuned to the targets. Figures measured
// with scripts/lab-presets.mjs (Node 20.20.2, createModel / createTrainer of wasm/index.js, the
// SIMD build, one thread per run, held-out exact match evaluated every N steps, evaluation time
// left out) on a 2-vCPU Intel Xeon shared with three other jobs (load average 7–9), under
// nice -n 5, on 2026-11-25. "CPU s" is the run's own CPU time (one core's seconds, whatever else
// ran); "wall s" the elapsed training time on that loaded machine (pessimistic). Steps are exact:
// the same preset gives the same curve, value for value.
export const PRESETS = freeze([
  {
    // With vs without attention, reverse 5–40 (Bahdanau et al. 2015, fig. 2). Bidirectional
    // LSTM (32 units each way), H 64, E 32, Adam lr 0.003, batch 64.
    // A (additive), held-out exact match overall / at the worst length, every 125 steps (22 pairs
    // per length): 88 % / 50 % at step 500 (53 CPU s), 95 % / 82 % at 750, 98 % / 91 % at 1,125,
    // 99.9 % with every length ≥ 95 % first at step 1,750 (183 CPU s; 489 wall s on the loaded
    // machine), 97–99 % overall after (worst length 86–91 %). On the same machine when quiet
    // (load 1) A runs 10.0 steps per second, so step 1,750 comes at about 175 s: the issue's
    // "> 95 % at every length within 3 minutes" is met, narrowly; the training-speed work of #15
    // is the margin.
    // B (none) falls with length: after 1,500 steps (lr 0.005; 48 CPU s) 95 % at length 5, 77 % at 7,
    // 45 % at 10, 0 % from 15 on (14 % overall).
    // Tried and dropped: unidirectional (lr 0.005 / 0.003, batch 32: 36–49 % after 750 steps),
    // bidirectional lr 0.005 or 0.01 with batch 32 (unstable: 96 % → 82 % → 96 %); lr 0.005 with
    // batch 64 (every length ≥ 95 % at step 1,000, 108 CPU s, but dips to 71 % at step 1,625);
    // lr 0.002 batch 64 (first at step 1,500, 158 CPU s, then 73–91 % at the worst length);
    // lr 0.005 batch 128 (first at step 700, 146 CPU s, 80 % overall at step 1,000). Every
    // setting has loss spikes on the longest strings; lr 0.003 / batch 64 had the fewest.
    // Equal sizes (issue 30): B's hidden size is 86, not A's 64, so that without the attention's
    // weights it has as many parameters as A (71,273 against 71,159, +0.2 %; with 64 it had 44,983).
    // Wider, it still falls with length: after 1,500 steps (lr 0.003, batch 64; 51 CPU s, Node,
    // 2-vCPU AMD EPYC, 2026-11-29) 91 % at length 5, 45 % at 10, 9 % at 15, 0 % from 17 on
    // (13.6 % overall), as the 64-unit B did (below).
    id: 'with-without',
    equalSize: true,
    result: { seconds: 70, from: 'lab', row: 'with vs without attention' },
    experiment: {
      task: {
        name: 'reverse',
        minLength: 5,
        maxLength: 40,
        size: 0,
        level: 'auto',
        seed: 1,
        data: null,
      },
      a: {
        model: seq({ attention: 'additive', bidirectional: true }),
        train: tr({ lr: WITH_WITHOUT_LR, batch: 64, halfLife: WITH_WITHOUT_HALF_LIFE }),
      },
      // B keeps a constant rate: it takes ~4× A's steps per second, so halved every 600 steps it
      // froze within a minute (68 % at length 5 in Chromium, 2026-11-25), which is not what
      // "without attention" looks like; constant, it learns the short strings and fails the long.
      b: {
        model: seq({ attention: 'none', bidirectional: true, hidden: 86 }),
        train: tr({ lr: WITH_WITHOUT_LR, batch: 64 }),
      },
    },
  },
  {
    // Additive vs dot score, the same model otherwise (LSTM H 64, E 32, Bahdanau's placement:
    // the score reads s_{t−1}), reverse 5–20, Adam lr 0.005, batch 32.
    // A (additive): ≥ 99 % held-out exact match at step 1,300 (seed 1; seeds 2–4: 1,400, 900,
    // 1,600): 99.8 % at step 1,300 in 33.2 s on the quiet machine (39 steps per s).
    // B (dot): 95.6 % at step 1,250 (23 CPU s, 53 steps per CPU s), then 89–95 % to step 2,500.
    // (Luong's dot in Luong's architecture, input feeding: 98.9 % at step 1,750.)
    id: 'additive-dot',
    result: { seconds: 14, from: 'bench', run: 'a', steps: 1300 },
    experiment: {
      task: {
        name: 'reverse',
        minLength: 5,
        maxLength: 20,
        size: 0,
        level: 'auto',
        seed: 1,
        data: null,
      },
      a: { model: seq({ attention: 'additive' }), train: tr() },
      b: { model: seq({ attention: 'dot' }), train: tr() },
    },
  },
  {
    // The first target: reverse 5–20, LSTM + additive, ≥ 99 % held-out exact match
    // within 60 s. A as additive-dot's A: ≥ 99 % at step 1,300, 33 CPU s (lr 0.01 got there at
    // step 1,000 with seed 1 but not within 2,500 steps with seed 4; batch 16 needed 1,300–2,000
    // steps; H 48 did not reach it in 60 s). B (none) learns the short strings only.
    id: 'reverse',
    result: { seconds: 16, from: 'lab', row: 'reverse preset, A' },
    experiment: clone(DEFAULT_EXPERIMENT),
  },
  {
    // copy 5–20: A (additive) 95.6 % at step 1,250 (33 CPU s); B (none) under 95 % after 1,500.
    id: 'copy',
    result: { seconds: 14, from: 'bench', run: 'a', steps: 1250 },
    experiment: {
      task: {
        name: 'copy',
        minLength: 5,
        maxLength: 20,
        size: 0,
        level: 'auto',
        seed: 1,
        data: null,
      },
      a: { model: seq({ attention: 'additive' }), train: tr() },
      b: { model: seq({ attention: 'none' }), train: tr() },
    },
  },
  {
    // sort 5–15: A (additive) 95.7 % at step 1,000 (20 CPU s); B (none) 97.7 % at step 750 (8 CPU s):
    // sorting needs counts, not alignment, so attention helps little here (a lesson of its own).
    id: 'sort',
    result: { seconds: 8, from: 'bench', run: 'a', steps: 1000 },
    experiment: {
      task: {
        name: 'sort',
        minLength: 5,
        maxLength: 15,
        size: 0,
        level: 'auto',
        seed: 1,
        data: null,
      },
      a: { model: seq({ attention: 'additive' }), train: tr() },
      b: { model: seq({ attention: 'none' }), train: tr() },
    },
  },
  {
    // addition, 1–4 digits per operand: slow to learn for a seq2seq model (the carry runs right
    // to left, the output left to right). A (additive, bidirectional): 70 % at step 6,000
    // (42 CPU s, 140 steps per CPU s); unidirectional: 23 % at step 1,500.
    id: 'addition',
    result: { seconds: 15, from: 'bench', run: 'a', steps: 6000 },
    experiment: {
      task: {
        name: 'addition',
        minLength: 1,
        maxLength: 4,
        size: 0,
        level: 'auto',
        seed: 1,
        data: null,
      },
      a: { model: seq({ attention: 'additive', bidirectional: true }), train: tr() },
      b: { model: seq({ attention: 'none', bidirectional: true }), train: tr() },
    },
  },
  {
    // The second target: dates + additive ≥ 90 % within 15 s. A (bidirectional LSTM,
    // H 64, additive, lr 0.005, batch 32): 91.8 % at step 150, 3.1 s on the quiet machine (48
    // steps per s), 4.5 s loaded;
    // lr 0.01: 90.2 % at step 100, 3.0 s; batch 64: 97.6 % at step 150, 5.9 s.
    // B (dot, Luong): 95.0 % at step 150 (2.3 CPU s).
    id: 'dates',
    result: { seconds: 4, from: 'lab', row: 'dates preset, A' },
    experiment: {
      task: {
        name: 'dates',
        minLength: 6,
        maxLength: 28,
        size: 0,
        level: 'auto',
        seed: 1,
        data: null,
      },
      a: { model: seq({ attention: 'additive', bidirectional: true }), train: tr() },
      b: { model: seq({ attention: 'dot', style: 'luong', bidirectional: true }), train: tr() },
    },
  },
  {
    // translation (en → fr, 3–10 words): an additive seq2seq (H 128, E 64) against a transformer.
    // A: sentence exact match 30 % at step 400, 60 % at step 800 (120 CPU s, 6.6 steps per s;
    // by length 88 % at 3 words, 25 % at 10), 71 % at step 1,000 (150 s). B not measured.
    id: 'translation',
    result: { seconds: 29, from: 'bench', run: 'a', steps: 800 },
    experiment: {
      task: {
        name: 'translation',
        minLength: 3,
        maxLength: 10,
        size: 0,
        level: 'auto',
        seed: 1,
        data: null,
      },
      a: { model: seq({ attention: 'additive', hidden: 128, embedding: 64 }), train: tr() },
      b: { model: { ...TRANSFORMER_DEFAULT }, train: tr({ lr: 0.002 }) },
    },
  },
  {
    // transformers on reverse 5–20 (E 64, 4 heads, F 128, 2 + 2 layers, pre-norm, Adam lr 0.002):
    // A (learned positions) 93.6 % at step 1,250 (45 CPU s, 28 steps per CPU s).
    id: 'transformer-positions',
    result: { seconds: 22, from: 'bench', run: 'a', steps: 1250 },
    experiment: {
      task: {
        name: 'reverse',
        minLength: 5,
        maxLength: 20,
        size: 0,
        level: 'auto',
        seed: 1,
        data: null,
      },
      a: { model: { ...TRANSFORMER_DEFAULT, positions: 'learned' }, train: tr({ lr: 0.002 }) },
      b: { model: { ...TRANSFORMER_DEFAULT, positions: 'relative' }, train: tr({ lr: 0.002 }) },
    },
  },
]);
