// attnlab/web/lab/lab-url.js: the lab's experiment as URL parameters (the page's #view=lab&…,
// embed.html?view=lab&…), both ways, with short keys; a preset's link (preset=ID). ESM, no DOM.
//
//   const { experiment, refused } = parseLabLink(new URLSearchParams(location.hash.slice(1)));
//   location.hash = `view=lab&${formatLabParams(experiment)}`;
//
// The URL holds exactly the experiment (never weights; custom pairs only as data=<hash>,
// pairs.js pairsHash). Not here: the checking (experiment.js checkExperiment, which every value
// read goes through) and the presets (presets.js).

import { DEFAULT_EXPERIMENT, checkExperiment } from './experiment.js';
import { PRESETS } from './presets.js';

/** @typedef {import('./experiment.js').Experiment} Experiment */

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
