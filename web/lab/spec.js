// attnlab/web/lab/spec.js: the lab's experiment (issue #15, web/lab contract): its defaults and
// limits, the presets, the checker that clamps whatever a URL or a caller hands in, the URL form,
// the model config of a ModelSpec (docs/models.md), its exact parameter count and the equation of
// its attention. ESM, no DOM: runs in the page, in workers and in Node.
//
//   import { DEFAULT_EXPERIMENT, checkExperiment, formatLabParams, parseLabParams, modelConfig } from './spec.js';
//   const { experiment, refused } = parseLabParams(new URLSearchParams(location.hash.slice(1)));
//   const config = modelConfig(experiment.a.model, makeTask(experiment.task));
//   const model = await createModel(config, { seed: experiment.a.train.seed });
//
// An experiment is plain JSON: { task, a: { model, train }, b: { model, train } | null }; the URL
// holds exactly it (never weights; custom pairs only as data=<hash>, pairs.js pairsHash).
// Equations: Bahdanau, Cho & Bengio 2015 (eq. 6 and appendix A.1.2), Luong, Pham & Manning 2015
// (eqs. 8–10), Vaswani et al. 2017 (eq. 1), Shaw, Uszkoreit & Vaswani 2018 (eqs. 3–4).
// Not here: data (tasks.js, pairs.js), training (run.js and its workers), drawing or i18n (the
// element: the equation HTML holds symbols only, no words, so both languages show it as is).

import { TASK_INFO } from './tasks.js';

export const TASK_NAMES = Object.freeze([
  'copy',
  'reverse',
  'sort',
  'addition',
  'dates',
  'translation',
  'custom',
]);
export const ATTENTIONS = Object.freeze([
  'none',
  'additive',
  'dot',
  'general',
  'concat',
  'local-m',
  'local-p',
  'key-query',
]);
export const CELLS = Object.freeze(['rnn', 'gru', 'lstm']);
export const STYLES = Object.freeze(['bahdanau', 'luong']);
export const POSITIONS = Object.freeze(['learned', 'sinusoidal', 'relative']);
export const OPTIMIZERS = Object.freeze(['adam', 'sgd']);
export const LEVELS = Object.freeze(['auto', 'char', 'word']);
export const FAMILIES = Object.freeze(['seq2seq', 'transformer']);

/** Every range of the experiment (integers unless said; [lo, hi] both included). */
export const LIMITS = Object.freeze({
  task: Object.freeze({
    lengths: Object.freeze(
      Object.fromEntries(
        Object.entries(TASK_INFO).map(([k, v]) => [k, Object.freeze([...v.lengths])]),
      ),
    ),
    size: Object.freeze([0, 50000]),
    seed: Object.freeze([0, 0xffffffff]),
  }),
  seq2seq: Object.freeze({
    layers: Object.freeze([1, 2]),
    hidden: Object.freeze([16, 256]),
    embedding: Object.freeze([8, 256]),
  }),
  transformer: Object.freeze({
    layers: Object.freeze([1, 4]),
    heads: Object.freeze([1, 8]),
    width: Object.freeze([16, 128]),
    feedforward: Object.freeze([16, 512]),
  }),
  train: Object.freeze({
    lr: Object.freeze([1e-5, 1]), // a number, not an integer
    batch: Object.freeze([1, 256]),
    clip: Object.freeze([0, 10]), // a number; 0 turns clipping off
    seed: Object.freeze([0, 0xffffffff]),
    workers: Object.freeze([1, 4]),
    halfLife: Object.freeze([0, 100000]), // steps; 0 keeps the learning rate constant
  }),
});

const freeze = (o) => {
  for (const v of Object.values(o)) if (v && typeof v === 'object') freeze(v);
  return Object.freeze(o);
};
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
const SEQ2SEQ_DEFAULT = {
  family: 'seq2seq',
  cell: 'lstm',
  bidirectional: false,
  layers: 1,
  hidden: 64,
  embedding: 32,
  attention: 'additive',
  style: 'bahdanau',
};
const TRANSFORMER_DEFAULT = {
  family: 'transformer',
  layers: 2,
  heads: 4,
  width: 64,
  feedforward: 128,
  positions: 'learned',
};
const TRAIN_DEFAULT = {
  optimizer: 'adam',
  lr: 0.005,
  batch: 32,
  clip: 1,
  seed: 1,
  workers: 1,
  halfLife: 0,
};

/** The lab's first experiment: the reverse preset (reverse 5–20; the same LSTM with additive attention and without). */
export const DEFAULT_EXPERIMENT = freeze({
  task: {
    name: 'reverse',
    minLength: 5,
    maxLength: 20,
    size: 0,
    level: 'auto',
    seed: 1,
    data: null,
  },
  a: { model: { ...SEQ2SEQ_DEFAULT }, train: { ...TRAIN_DEFAULT } },
  b: { model: { ...SEQ2SEQ_DEFAULT, attention: 'none' }, train: { ...TRAIN_DEFAULT } },
});

const seq = (o = {}) => ({ ...SEQ2SEQ_DEFAULT, ...o });
const tr = (o = {}) => ({ ...TRAIN_DEFAULT, ...o });

// The presets: whole experiments, one click each, tuned to the issue's targets. Figures measured
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
    id: 'with-without',
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
        model: seq({ attention: 'none', bidirectional: true }),
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
    // The issue's first target: reverse 5–20, LSTM + additive, ≥ 99 % held-out exact match
    // within 60 s. A as additive-dot's A: ≥ 99 % at step 1,300, 33 CPU s (lr 0.01 got there at
    // step 1,000 with seed 1 but not within 2,500 steps with seed 4; batch 16 needed 1,300–2,000
    // steps; H 48 did not reach it in 60 s). B (none) learns the short strings only.
    id: 'reverse',
    experiment: clone(DEFAULT_EXPERIMENT),
  },
  {
    // copy 5–20: A (additive) 95.6 % at step 1,250 (33 CPU s); B (none) under 95 % after 1,500.
    id: 'copy',
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
    // The issue's second target: dates + additive ≥ 90 % within 15 s. A (bidirectional LSTM,
    // H 64, additive, lr 0.005, batch 32): 91.8 % at step 150, 3.1 s on the quiet machine (48
    // steps per s), 4.5 s loaded;
    // lr 0.01: 90.2 % at step 100, 3.0 s; batch 64: 97.6 % at step 150, 5.9 s.
    // B (dot, Luong): 95.0 % at step 150 (2.3 CPU s).
    id: 'dates',
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

// ---------------------------------------------------------------- checking

const show = (v) => {
  let s;
  try {
    s = typeof v === 'string' ? v : JSON.stringify(v);
  } catch {
    s = String(typeof v);
  }
  if (s === undefined) s = String(v);
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
};

/** A checker that records refusals: each field is defaulted when missing, replaced or clamped (and named) when wrong. */
function checker(refused) {
  const own = (o, k) =>
    o && typeof o === 'object' && Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
  return {
    own,
    oneOf(path, v, list, d) {
      if (v === undefined) return d;
      if (typeof v === 'string' && list.includes(v)) return v;
      refused.push(`${path}=${show(v)}`);
      return d;
    },
    bool(path, v, d) {
      if (v === undefined) return d;
      if (v === true || v === false) return v;
      if (v === 1 || v === '1' || v === 'true') return true;
      if (v === 0 || v === '0' || v === 'false') return false;
      refused.push(`${path}=${show(v)}`);
      return d;
    },
    int(path, v, [lo, hi], d) {
      if (v === undefined) return d;
      const n =
        typeof v === 'string' && /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/.test(v) ? Number(v) : v;
      if (typeof n !== 'number' || !Number.isFinite(n)) {
        refused.push(`${path}=${show(v)}`);
        return d;
      }
      const r = Math.min(hi, Math.max(lo, Math.round(n)));
      if (r !== n) refused.push(`${path}=${show(v)}`);
      return r;
    },
    num(path, v, [lo, hi], d) {
      if (v === undefined) return d;
      const n =
        typeof v === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(v)
          ? Number(v)
          : v;
      if (typeof n !== 'number' || !Number.isFinite(n)) {
        refused.push(`${path}=${show(v)}`);
        return d;
      }
      const r = Math.min(hi, Math.max(lo, n));
      if (r !== n) refused.push(`${path}=${show(v)}`);
      return r;
    },
  };
}

function checkTask(t, c, refused) {
  const name = c.oneOf('task.name', c.own(t, 'name'), TASK_NAMES, DEFAULT_EXPERIMENT.task.name);
  const info = TASK_INFO[name];
  const range = info.lengths;
  const minLength = c.int('task.minLength', c.own(t, 'minLength'), range, info.defaults[0]);
  let maxLength = c.int(
    'task.maxLength',
    c.own(t, 'maxLength'),
    range,
    Math.max(minLength, info.defaults[1]),
  );
  if (maxLength < minLength) {
    refused.push(`task.maxLength=${maxLength}`);
    maxLength = minLength;
  }
  const size = c.int('task.size', c.own(t, 'size'), LIMITS.task.size, 0);
  const level =
    name === 'custom' ? c.oneOf('task.level', c.own(t, 'level'), LEVELS, 'auto') : 'auto';
  const seed = c.int('task.seed', c.own(t, 'seed'), LIMITS.task.seed, 1);
  let data = null;
  const d = c.own(t, 'data');
  if (name === 'custom' && d !== undefined && d !== null) {
    if (typeof d === 'string' && /^[0-9a-f]{16}$/.test(d)) data = d;
    else refused.push(`task.data=${show(d)}`);
  }
  return { name, minLength, maxLength, size, level, seed, data };
}

/** The largest divisor of width that is ≤ heads (at least 1). */
const headsFor = (width, heads) => {
  let h = Math.max(1, heads);
  while (width % h) h--;
  return h;
};

function checkModel(path, m, c, refused, fallback) {
  const family = c.oneOf(`${path}.family`, c.own(m, 'family'), FAMILIES, fallback.family);
  if (family === 'transformer') {
    const d = fallback.family === 'transformer' ? fallback : TRANSFORMER_DEFAULT;
    const L = LIMITS.transformer;
    const width = c.int(`${path}.width`, c.own(m, 'width'), L.width, d.width);
    const want = c.int(`${path}.heads`, c.own(m, 'heads'), L.heads, Math.min(d.heads, L.heads[1]));
    const heads = headsFor(width, want);
    if (heads !== want) refused.push(`${path}.heads=${want}`);
    return {
      family,
      layers: c.int(`${path}.layers`, c.own(m, 'layers'), L.layers, d.layers),
      heads,
      width,
      feedforward: c.int(
        `${path}.feedforward`,
        c.own(m, 'feedforward'),
        L.feedforward,
        d.feedforward,
      ),
      positions: c.oneOf(`${path}.positions`, c.own(m, 'positions'), POSITIONS, d.positions),
    };
  }
  const d = fallback.family === 'seq2seq' ? fallback : SEQ2SEQ_DEFAULT;
  const L = LIMITS.seq2seq;
  const bidirectional = c.bool(`${path}.bidirectional`, c.own(m, 'bidirectional'), d.bidirectional);
  let hidden = c.int(`${path}.hidden`, c.own(m, 'hidden'), L.hidden, d.hidden);
  if (bidirectional && hidden % 2) {
    refused.push(`${path}.hidden=${hidden}`);
    hidden -= 1;
  } // H/2 units per direction
  return {
    family,
    cell: c.oneOf(`${path}.cell`, c.own(m, 'cell'), CELLS, d.cell),
    bidirectional,
    layers: c.int(`${path}.layers`, c.own(m, 'layers'), L.layers, d.layers),
    hidden,
    embedding: c.int(`${path}.embedding`, c.own(m, 'embedding'), L.embedding, d.embedding),
    attention: c.oneOf(`${path}.attention`, c.own(m, 'attention'), ATTENTIONS, d.attention),
    style: c.oneOf(`${path}.style`, c.own(m, 'style'), STYLES, d.style),
  };
}

function checkTrain(path, t, c, fallback) {
  const L = LIMITS.train;
  return {
    optimizer: c.oneOf(`${path}.optimizer`, c.own(t, 'optimizer'), OPTIMIZERS, fallback.optimizer),
    lr: c.num(`${path}.lr`, c.own(t, 'lr'), L.lr, fallback.lr),
    batch: c.int(`${path}.batch`, c.own(t, 'batch'), L.batch, fallback.batch),
    clip: c.num(`${path}.clip`, c.own(t, 'clip'), L.clip, fallback.clip),
    seed: c.int(`${path}.seed`, c.own(t, 'seed'), L.seed, fallback.seed),
    workers: c.int(`${path}.workers`, c.own(t, 'workers'), L.workers, fallback.workers),
    halfLife: c.int(`${path}.halfLife`, c.own(t, 'halfLife'), L.halfLife, fallback.halfLife ?? 0),
  };
}

/**
 * The learning rate of step `step` (0-based): lr, or with a half-life of H steps lr · 0.5^(step / H)
 * (it halves every H steps). The run worker sets it before every step, on every replica.
 * @param {{ lr: number, halfLife?: number }} train
 */
export function lrAt(train, step) {
  return train.halfLife > 0 ? train.lr * 0.5 ** (step / train.halfLife) : train.lr;
}

function checkRun(path, r, c, refused, fallback) {
  const m = c.own(r, 'model');
  const t = c.own(r, 'train');
  if (r !== undefined && (r === null || typeof r !== 'object')) refused.push(`${path}=${show(r)}`);
  if (m !== undefined && (m === null || typeof m !== 'object'))
    refused.push(`${path}.model=${show(m)}`);
  if (t !== undefined && (t === null || typeof t !== 'object'))
    refused.push(`${path}.train=${show(t)}`);
  return {
    model: checkModel(`${path}.model`, m, c, refused, fallback.model),
    train: checkTrain(`${path}.train`, t, c, fallback.train),
  };
}

/**
 * A valid experiment from anything: every field checked, defaulted when missing, clamped or
 * replaced when wrong, and every wrong value named in refused (e.g. 'a.model.hidden=9999').
 * Never throws.
 * @param {unknown} obj
 * @returns {{ experiment: Experiment, refused: string[] }}
 */
export function checkExperiment(obj) {
  const refused = [];
  const c = checker(refused);
  if (obj !== undefined && (obj === null || typeof obj !== 'object' || Array.isArray(obj))) {
    refused.push(`experiment=${show(obj)}`);
    obj = {};
  }
  const t = c.own(obj, 'task');
  if (t !== undefined && (t === null || typeof t !== 'object')) refused.push(`task=${show(t)}`);
  const task = checkTask(t, c, refused);
  const a = checkRun('a', c.own(obj, 'a'), c, refused, DEFAULT_EXPERIMENT.a);
  const bIn = c.own(obj, 'b');
  const b =
    bIn === null
      ? null
      : checkRun('b', bIn, c, refused, bIn === undefined ? DEFAULT_EXPERIMENT.b : a);
  return { experiment: { task, a, b }, refused };
}

/**
 * @typedef {{ name: string, minLength: number, maxLength: number, size: number, level: string, seed: number, data: string | null }} TaskSpec
 * @typedef {Record<string, any>} ModelSpec
 * @typedef {{ optimizer: string, lr: number, batch: number, clip: number, seed: number, workers: number, halfLife: number }} TrainSpec
 * @typedef {{ task: TaskSpec, a: { model: ModelSpec, train: TrainSpec }, b: { model: ModelSpec, train: TrainSpec } | null }} Experiment
 */

// ---------------------------------------------------------------- the URL

// Short keys: the task's, then a run's (prefix 'a' or 'b' + the field's code).
const TASK_KEYS = [
  ['task', 'name'],
  ['min', 'minLength'],
  ['max', 'maxLength'],
  ['size', 'size'],
  ['level', 'level'],
  ['dseed', 'seed'],
  ['data', 'data'],
];
const SEQ_KEYS = [
  ['f', 'family'],
  ['c', 'cell'],
  ['bi', 'bidirectional'],
  ['l', 'layers'],
  ['h', 'hidden'],
  ['e', 'embedding'],
  ['at', 'attention'],
  ['st', 'style'],
];
const TF_KEYS = [
  ['f', 'family'],
  ['l', 'layers'],
  ['hd', 'heads'],
  ['w', 'width'],
  ['ff', 'feedforward'],
  ['p', 'positions'],
];
const TRAIN_KEYS = [
  ['o', 'optimizer'],
  ['lr', 'lr'],
  ['bs', 'batch'],
  ['cl', 'clip'],
  ['sd', 'seed'],
  ['wk', 'workers'],
  ['hl', 'halfLife'],
];
/** The longest parameter value read; longer values are refused by name, unread. */
const MAX_VALUE = 64;
const MAX_PARAMS = 200;

/**
 * The experiment of a link (the page's #view=lab&…, embed.html?view=lab&…): with `preset=ID` that
 * preset's whole experiment (the lesson's links; an unknown id is refused by name and the default
 * shown), else parseLabParams(params). → { experiment, refused }; never throws.
 * @param {URLSearchParams} params
 */
export function parseLabLink(params) {
  const id = params.get('preset');
  if (id === null) return parseLabParams(params);
  const preset = PRESETS.find((p) => p.id === id);
  return preset
    ? checkExperiment(preset.experiment)
    : { experiment: DEFAULT_EXPERIMENT, refused: [`preset=${id.slice(0, 40)}`] };
}

/**
 * The experiment of a URL's parameters (the page hash after '#view=lab&', or an element's
 * experiment attribute). Unknown keys are ignored; wrong values are clamped or defaulted and named.
 * @param {URLSearchParams | string} params
 * @returns {{ experiment: Experiment, refused: string[] }}
 */
export function parseLabParams(params) {
  const refused = [];
  let p;
  try {
    p =
      params instanceof URLSearchParams
        ? params
        : new URLSearchParams(typeof params === 'string' ? params.slice(0, 8192) : '');
  } catch {
    p = new URLSearchParams();
  }
  const get = (key) => {
    const v = p.get(key);
    if (v === null) return undefined;
    if (v.length > MAX_VALUE) {
      refused.push(`${key}=${v.slice(0, 40)}…`);
      return undefined;
    }
    return v;
  };
  let n = 0;
  for (const _ of p.keys())
    if (++n > MAX_PARAMS) {
      refused.push('params=too many');
      break;
    }
  const task = {};
  for (const [k, f] of TASK_KEYS) {
    const v = get(k);
    if (v !== undefined) task[f] = v;
  }
  const run = (prefix) => {
    const family = get(`${prefix}f`);
    const model = {};
    for (const [k, f] of family === 'transformer' ? TF_KEYS : SEQ_KEYS) {
      const v = get(prefix + k);
      if (v !== undefined) model[f] = v;
    }
    const train = {};
    for (const [k, f] of TRAIN_KEYS) {
      const v = get(prefix + k);
      if (v !== undefined) train[f] = v;
    }
    return { model, train };
  };
  const obj = { task, a: run('a') };
  const bOff = p.get('b') === 'off';
  obj.b = bOff ? null : run('b');
  const checked = checkExperiment(obj);
  // the checker names paths (a.model.hidden); keep its names, add the URL's own
  return { experiment: checked.experiment, refused: [...refused, ...checked.refused] };
}

/**
 * The canonical URL parameters of an experiment (every field, fixed order, short keys):
 * parseLabParams(formatLabParams(e)).experiment deep-equals checkExperiment(e).experiment.
 * @param {Experiment} experiment
 * @returns {URLSearchParams}
 */
export function formatLabParams(experiment) {
  const e = checkExperiment(experiment).experiment;
  const p = new URLSearchParams();
  const put = (k, v) => p.set(k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
  for (const [k, f] of TASK_KEYS) {
    if (f === 'data' && e.task.data === null) continue;
    if (f === 'level' && e.task.name !== 'custom') continue;
    put(k, e.task[f]);
  }
  const run = (prefix, r) => {
    for (const [k, f] of r.model.family === 'transformer' ? TF_KEYS : SEQ_KEYS)
      put(prefix + k, r.model[f]);
    for (const [k, f] of TRAIN_KEYS) put(prefix + k, r.train[f]);
  };
  run('a', e.a);
  if (e.b === null) p.set('b', 'off');
  else run('b', e.b);
  return p;
}

// ---------------------------------------------------------------- the model

/** The attention width da (additive, concat), dp (local-p) and dk = dv (key-query) for H. */
export const attentionSizeFor = (hidden) => hidden;
/** The local window D (σ = D/2) for a source of up to maxSource tokens: Luong's D = 10, smaller for short inputs. */
export const windowFor = (maxSource) => Math.max(2, Math.min(10, Math.ceil(maxSource / 4)));
/** The clipping distance k of relative positions: Shaw et al.'s 16, at most the longest sequence. */
export const relativeFor = (positions) => Math.max(2, Math.min(16, positions));

/** Positions an encoder-decoder transformer must cover: the source, and bos + the target (+ eos). */
const positionsFor = (task) => Math.max(task.maxSource, task.maxTarget + 2);

/**
 * The createModel config of a (checked) ModelSpec on a task (docs/models.md).
 * @param {ModelSpec} m
 * @param {{ tokenizer: Record<string, any>, maxSource: number, maxTarget: number }} task
 */
export function modelConfig(m, task) {
  const maxLength = Math.min(1024, task.maxTarget + 2);
  if (m.family === 'transformer') {
    const positions = positionsFor(task);
    const config = {
      architecture: 'transformer',
      variant: 'encoder-decoder',
      embeddingSize: m.width,
      numHeads: m.heads,
      feedforwardSize: m.feedforward,
      numLayers: m.layers,
      positions: m.positions,
      normFirst: true,
      finalNorm: true,
      maxLength,
      tokenizer: task.tokenizer,
    };
    if (m.positions === 'learned') config.maxPositions = positions;
    if (m.positions === 'relative') config.maxRelativePosition = relativeFor(positions);
    return config;
  }
  const config = {
    architecture: 'seq2seq',
    cell: m.cell,
    embeddingSize: m.embedding,
    hiddenSize: m.hidden,
    numLayers: m.layers,
    bidirectional: m.bidirectional,
    attention: m.attention,
    style: m.style,
    maxLength,
    tokenizer: task.tokenizer,
  };
  const a = m.attention;
  if (a === 'additive' || a === 'concat') config.attentionSize = attentionSizeFor(m.hidden);
  if (a === 'local-m' || a === 'local-p') {
    config.window = windowFor(task.maxSource);
    config.score = 'general';
  }
  if (a === 'local-p') config.positionSize = attentionSizeFor(m.hidden);
  if (a === 'key-query') {
    config.keySize = attentionSizeFor(m.hidden);
    config.valueSize = attentionSizeFor(m.hidden);
  }
  if (m.style === 'luong' && a !== 'none') config.inputFeeding = true;
  return config;
}

/**
 * The number of weights of createModel(modelConfig(m, task)), in closed form (docs/models.md's
 * tensor tables); the tests check it against the saved file of real models.
 * @param {ModelSpec} m
 * @param {{ tokenizer: Record<string, any>, maxSource: number, maxTarget: number }} task
 */
export function parameterCount(m, task) {
  const c = modelConfig(m, task);
  const Vs = task.tokenizer.srcVocab.length,
    Vt = task.tokenizer.tgtVocab.length;
  if (c.architecture === 'transformer') {
    const E = c.embeddingSize,
      F = c.feedforwardSize,
      N = c.numLayers,
      h = c.numHeads;
    const attn = 3 * E * E + 3 * E + E * E + E; // in_proj, out_proj
    const ff = F * E + F + E * F + E; // linear1, linear2
    const rel = c.positions === 'relative' ? 2 * (2 * c.maxRelativePosition + 1) * (E / h) : 0;
    const enc = N * (attn + rel + ff + 4 * E); // norm1, norm2
    const dec = N * (2 * attn + rel + ff + 6 * E); // self + cross, norm1..3
    const norms = c.finalNorm ? 4 * E : 0;
    const pos = c.positions === 'learned' ? c.maxPositions * E : 0;
    return Vs * E + Vt * E + pos + enc + dec + norms + Vt * E + Vt;
  }
  const G = { lstm: 4, gru: 3, rnn: 1 }[c.cell];
  const H = c.hiddenSize,
    E = c.embeddingSize,
    dirs = c.bidirectional ? 2 : 1,
    Hs = H / dirs;
  let n = Vs * E + Vt * E;
  for (let k = 0; k < c.numLayers; k++) {
    const input = k === 0 ? E : H;
    n += dirs * (G * Hs * input + G * Hs * Hs + 2 * G * Hs);
  }
  const a = c.attention;
  const dc = a === 'none' ? 0 : a === 'key-query' ? c.valueSize : H;
  const luong = c.style === 'luong';
  const decIn = luong ? E + (c.inputFeeding ? H : 0) : E + dc;
  n += G * H * decIn + G * H * H + 2 * G * H;
  const score = a === 'local-m' || a === 'local-p' ? c.score : a;
  if (a === 'additive') n += 2 * c.attentionSize * H + 2 * c.attentionSize;
  if (score === 'general') n += H * H;
  if (score === 'concat') n += c.attentionSize * 2 * H + c.attentionSize;
  if (a === 'local-p') n += c.positionSize * H + c.positionSize;
  if (a === 'key-query') n += 2 * c.keySize * H + c.valueSize * H;
  if (luong && a !== 'none') n += H * (dc + H);
  n += Vt * (luong ? H : H + dc) + Vt;
  return n;
}

// ---------------------------------------------------------------- the equations

const v = (s) => `<var>${s}</var>`;
const sub = (s) => `<sub>${s}</sub>`;
const sup = (s) => `<sup>${s}</sup>`;
const hbar = `${v('h̄')}`;

/**
 * The score / attention equation of a ModelSpec's attention as small HTML (<var>, <sub>, <sup>;
 * symbols only, so it needs no translation) and its source.
 * @param {ModelSpec} m
 * @returns {{ html: string, cite: string }}
 */
export function attentionEquation(m) {
  if (m.family === 'transformer') {
    if (m.positions === 'relative') {
      return {
        html:
          `${v('e')}${sub(`${v('i')}${v('j')}`)} = ${v('x')}${sub(v('i'))}${v('W')}${sup('Q')}(${v('x')}${sub(v('j'))}${v('W')}${sup('K')} + ${v('a')}${sub(`${v('i')}${v('j')}`)}${sup('K')})${sup('T')} / √${v('d')}${sub('z')}` +
          `; ${v('z')}${sub(v('i'))} = Σ${sub(v('j'))} α${sub(`${v('i')}${v('j')}`)}(${v('x')}${sub(v('j'))}${v('W')}${sup('V')} + ${v('a')}${sub(`${v('i')}${v('j')}`)}${sup('V')})`,
        cite: 'Shaw et al. 2018, eqs. 3–4',
      };
    }
    return {
      html: `Attention(${v('Q')}, ${v('K')}, ${v('V')}) = softmax(${v('Q')}${v('K')}${sup('T')} / √${v('d')}${sub('k')}) ${v('V')}`,
      cite: 'Vaswani et al. 2017, eq. 1',
    };
  }
  const ht = `${v('h')}${sub(v('t'))}`;
  const hs = `${hbar}${sub(v('s'))}`;
  const q = m.style === 'bahdanau' ? `${v('s')}${sub(`${v('t')}−1`)}` : ht;
  switch (m.attention) {
    case 'none':
      return { html: `${v('c')}${sub(v('t'))} = 0`, cite: 'Sutskever et al. 2014' };
    case 'additive':
      return {
        html: `${v('e')}${sub(`${v('t')}${v('s')}`)} = ${v('v')}${sub('a')}${sup('T')} tanh(${v('W')}${sub('a')}${q} + ${v('U')}${sub('a')}${hs})`,
        cite: 'Bahdanau et al. 2015, eq. 6',
      };
    case 'dot':
      return {
        html: `score(${q}, ${hs}) = ${q}${sup('T')}${hs}`,
        cite: 'Luong et al. 2015, eq. 8',
      };
    case 'general':
      return {
        html: `score(${q}, ${hs}) = ${q}${sup('T')}${v('W')}${sub('a')}${hs}`,
        cite: 'Luong et al. 2015, eq. 8',
      };
    case 'concat':
      return {
        html: `score(${q}, ${hs}) = ${v('v')}${sub('a')}${sup('T')} tanh(${v('W')}${sub('a')}[${q}; ${hs}])`,
        cite: 'Luong et al. 2015, eq. 8',
      };
    case 'local-m':
      return {
        html: `${v('p')}${sub(v('t'))} = ${v('t')}; ${v('a')}${sub(v('t'))}(${v('s')}) = align(${q}, ${hs}) exp(−(${v('s')} − ${v('p')}${sub(v('t'))})${sup('2')} / 2σ${sup('2')})`,
        cite: 'Luong et al. 2015, eqs. 9–10',
      };
    case 'local-p':
      return {
        html: `${v('p')}${sub(v('t'))} = ${v('S')} · sigmoid(${v('v')}${sub('p')}${sup('T')} tanh(${v('W')}${sub('p')}${q})); ${v('a')}${sub(v('t'))}(${v('s')}) = align(${q}, ${hs}) exp(−(${v('s')} − ${v('p')}${sub(v('t'))})${sup('2')} / 2σ${sup('2')})`,
        cite: 'Luong et al. 2015, eqs. 9–10',
      };
    case 'key-query':
    default:
      return {
        html: `Attention(${v('Q')}, ${v('K')}, ${v('V')}) = softmax(${v('Q')}${v('K')}${sup('T')} / √${v('d')}${sub('k')}) ${v('V')}`,
        cite: 'Vaswani et al. 2017, eq. 1',
      };
  }
}
