// attnlab/web/lab/spec.js: the lab's experiment in one import (issue #15, web/lab contract): it
// gathers, unchanged, its names, limits, defaults and checker (experiment.js), the presets
// (presets.js), the URL form (lab-url.js), and the model config of a ModelSpec (docs/models.md),
// its exact parameter count and the equation of its attention (model-spec.js). ESM, no DOM: runs
// in the page, in workers and in Node.
//
//   import { DEFAULT_EXPERIMENT, checkExperiment, formatLabParams, parseLabParams, modelConfig } from './spec.js';
//   const { experiment, refused } = parseLabParams(new URLSearchParams(location.hash.slice(1)));
//   const config = modelConfig(experiment.a.model, makeTask(experiment.task));
//   const model = await createModel(config, { seed: experiment.a.train.seed });
//
// An experiment is plain JSON: { task, a: { model, train }, b: { model, train } | null }; the URL
// holds exactly it (never weights; custom pairs only as data=<hash>, pairs.js pairsHash).
// Deliberately no code of its own. Not here: data (tasks.js, pairs.js), training (run.js and its
// workers), drawing or i18n (the element).

export {
  TASK_NAMES,
  ATTENTIONS,
  CELLS,
  STYLES,
  POSITIONS,
  OPTIMIZERS,
  LEVELS,
  FAMILIES,
  LIMITS,
  DEFAULT_EXPERIMENT,
  lrAt,
  checkExperiment,
} from './experiment.js';
export { PRESETS } from './presets.js';
export { parseLabLink, parseLabParams, formatLabParams } from './lab-url.js';
export {
  attentionSizeFor,
  windowFor,
  relativeFor,
  modelConfig,
  parameterCount,
  attentionEquation,
} from './model-spec.js';

/**
 * @typedef {import('./experiment.js').TaskSpec} TaskSpec
 * @typedef {import('./experiment.js').ModelSpec} ModelSpec
 * @typedef {import('./experiment.js').TrainSpec} TrainSpec
 * @typedef {import('./experiment.js').Experiment} Experiment
 */
