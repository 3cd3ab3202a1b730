// attnlab/web/lab/lab-checks.js: what the lab says about what it shows (issue 30: pages that say
// only what they measured): which preset the experiment is, how long that preset takes to show its
// result and whether its two models are of equal size, and the warnings on a run's evaluations.
// ESM, no DOM, no strings (lab-text.js has them; lab-paint.js and lab-form.js say them).
//
//   presetFacts(experiment)   // { preset, seconds, sizes: { a, b, equal } } or nulls
//   labWarnings({ heldoutCount, runs: [{ id, evals }] })   // [{ kind: 'small-heldout', n } | { kind: 'overfit', run, train, heldout }]
//
// The rules (docs/lab.md, "What the lab warns about"):
//   equal sizes   a preset that claims it (presets.js equalSize) has A and B within
//                 EQUAL_SIZE_TOLERANCE (2 %) of each other's parameter count; the page then shows
//                 both counts and says so (tests/js/lab-presets.test.js keeps the presets to it);
//   small held-out  fewer than MIN_HELDOUT (50) held-out pairs: one pair is 2 points or more of
//                 the held-out accuracy, too coarse to tell two models or two steps apart;
//   overfit       at each of the last OVERFIT_EVALS (2) evaluations, exact match on the training
//                 sample exceeds held-out exact match by more than OVERFIT_GAP (0.3): the run
//                 recalls its pairs and does not generalise (the issue's 200 pasted pairs: loss
//                 1.6e-4, held-out exact match 0–14 %). Two evaluations, so that one noisy
//                 evaluation does not raise it; the gap, not the loss, so that it holds on any task.

import { PRESETS, checkExperiment, parameterCount } from './spec.js';
import { makeTask } from './tasks.js';

export const EQUAL_SIZE_TOLERANCE = 0.02;
export const MIN_HELDOUT = 50;
export const OVERFIT_GAP = 0.3;
export const OVERFIT_EVALS = 2;

/** A value with its keys sorted, as JSON: two experiments compare equal whatever their key order. */
function canonical(x) {
  if (Array.isArray(x)) return `[${x.map(canonical).join(',')}]`;
  if (x && typeof x === 'object')
    return `{${Object.keys(x)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(x[k])}`)
      .join(',')}}`;
  return JSON.stringify(x ?? null);
}

const presetKeys = new Map(); // canonical experiment → preset
const presetSizes = new Map(); // preset id → { a, b }

/** The preset whose experiment this is, unchanged, or null. */
export function presetOf(experiment) {
  if (presetKeys.size === 0)
    for (const p of PRESETS) presetKeys.set(canonical(checkExperiment(p.experiment).experiment), p);
  let key;
  try {
    key = canonical(checkExperiment(experiment).experiment);
  } catch {
    return null;
  }
  return presetKeys.get(key) ?? null;
}

/**
 * What the page says of a preset: the preset (or null when the experiment is none, or was
 * changed), its time to show its result in seconds on a 2-core machine (presets.js result), and,
 * when it claims equal sizes, both parameter counts and whether they are within 2 %.
 */
export function presetFacts(experiment) {
  const preset = presetOf(experiment);
  if (!preset) return { preset: null, seconds: null, sizes: null };
  let sizes = null;
  if (preset.equalSize) {
    if (!presetSizes.has(preset.id)) {
      const e = checkExperiment(preset.experiment).experiment;
      const task = makeTask(/** @type {any} */ (e.task));
      presetSizes.set(preset.id, {
        a: parameterCount(e.a.model, task),
        b: parameterCount(e.b.model, task),
      });
    }
    const { a, b } = presetSizes.get(preset.id);
    sizes = { a, b, equal: Math.abs(a - b) / Math.max(a, b) <= EQUAL_SIZE_TOLERANCE };
  }
  return { preset, seconds: preset.result?.seconds ?? null, sizes };
}

/** The overfit rule on one run's evaluations ({ step, exactMatch, train }), or null. */
export function overfitting(evals) {
  const last = evals.slice(-OVERFIT_EVALS);
  if (last.length < OVERFIT_EVALS) return null;
  const over = (e) =>
    e.step > 0 &&
    e.train &&
    Number.isFinite(e.train.exactMatch) &&
    e.train.exactMatch - e.exactMatch > OVERFIT_GAP;
  if (!last.every(over)) return null;
  const e = last[last.length - 1];
  return { step: e.step, train: e.train.exactMatch, heldout: e.exactMatch };
}

/**
 * The warnings to show, in order: the held-out set too small (once), then each overfitting run.
 * heldoutCount: the held-out pairs of the task (null while unknown).
 * @param {{ heldoutCount: number | null, runs: { id: string, evals: any[] }[] }} s
 */
export function labWarnings({ heldoutCount, runs }) {
  const out = [];
  if (Number.isFinite(heldoutCount) && heldoutCount < MIN_HELDOUT)
    out.push({ kind: 'small-heldout', n: heldoutCount });
  for (const r of runs) {
    const o = overfitting(r.evals ?? []);
    if (o) out.push({ kind: 'overfit', run: r.id, ...o });
  }
  return out;
}
