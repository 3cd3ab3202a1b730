// lab-constants.js: the constants and small helpers every module of the lab shares (lab-view.js,
// lab-form.js, lab-runs.js, lab-paint.js, lab-style.js): the run ids, colours and dashes of A and
// B, the charts' height, the limits the form's fields take from spec.js, and the helpers that
// copy an experiment or a preset's experiment.
//
//   import { RUNS, COLORS, clone, limit } from './lab-constants.js';
//
// Deliberately imports nothing of the lab but spec.js, so every module can import it and nothing
// points back up: no DOM, no state, no strings.

import { LIMITS } from './spec.js';

/** @typedef {'a' | 'b'} RunId */

export const RUNS = /** @type {const} */ (['a', 'b']);
export const CHART_HEIGHT = 220;
/** The render timings kept (the element's `timings`), newest last. */
export const MAX_TIMINGS = 2000;
/** While training, the runs are saved to this device (IndexedDB, checkpoints.js) this often, and on every pause. */
export const SAVE_MS = 20000;
export const COLORS = { a: '#3b528b', b: '#b8641c' };
export const DASH = { a: [], b: [6, 3] };
export const TOKEN_DASH = { a: [2, 3], b: [6, 3, 2, 3] };
/** Training exact match (on the fixed sample of training pairs): long dashes, a thin gap. */
export const TRAIN_DASH = { a: [10, 2, 2, 2], b: [10, 4] };
export const DTYPES = ['F32', 'F16', 'I8'];
/** The largest pairs file or run file the lab reads. */
export const MAX_FILE_BYTES = 64 * 1048576;

/** The [min, max] of a LIMITS entry ('seq2seq.hidden'), whatever its shape ([min, max] or { min, max }), else fallback. */
export function limit(path, fallback) {
  const v = path.split('.').reduce((o, k) => o?.[k], /** @type {any} */ (LIMITS));
  if (Array.isArray(v) && v.length >= 2) return [v[0], v[1]];
  if (v && typeof v === 'object' && 'min' in v && 'max' in v) return [v.min, v.max];
  return fallback;
}

/** The whole experiment of a preset (PRESETS entries are experiments, or hold one). */
export function presetExperiment(p) {
  return p?.experiment ?? { task: p.task, a: p.a, b: p.b ?? null };
}

export const clone = (x) => (x === null || x === undefined ? x : JSON.parse(JSON.stringify(x)));
/** A request's rejection: the run reports it as an error message too. */
export const quiet = () => {};
/** A fraction as a percentage with one decimal, or '–'. */
export const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '–');
