// attnlab/web/lab/experiment.js: the lab's experiment (issue #15, web/lab contract): its names,
// limits and defaults, and the checker that clamps whatever a URL, a preset or a caller hands in.
// ESM, no DOM: runs in the page, in workers and in Node.
//
//   import { DEFAULT_EXPERIMENT, checkExperiment } from './experiment.js';
//   const { experiment, refused } = checkExperiment(anything);   // refused: the fields replaced
//
// An experiment is plain JSON: { task, a: { model, train }, b: { model, train } | null }.
// Not here: the presets (presets.js), the URL form (lab-url.js), the model config, parameter
// count and equations (model-spec.js); spec.js gathers them all for its importers.

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

/** Freezes o and every object inside it; returns o. */
export const freeze = (o) => {
  for (const v of Object.values(o)) if (v && typeof v === 'object') freeze(v);
  return Object.freeze(o);
};

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

/** The defaults of a seq2seq model, a transformer and a training (the presets start from them). */
export const MODEL_DEFAULTS = freeze({
  seq2seq: SEQ2SEQ_DEFAULT,
  transformer: TRANSFORMER_DEFAULT,
  train: TRAIN_DEFAULT,
});

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
