// scripts/agreement-eval.mjs: the agreement language models by construction (none, pp, subj-rc,
// obj-rc) and by attractors (0, 1, 2+) on every set (issue 30): the typed test set, the two
// hand-written dev sets, the held-out Brown subject-verb pairs and the widened grammar's held-out
// split. Reads the model files of a folder (default web/models).
//
//   node scripts/agreement-eval.mjs [--dir web/models] [--json out.json] [--wrong]
//
// Not here: training (scripts/train/agreement.mjs), the functions (scripts/train/agreement-eval.mjs).

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { init, loadModel } from '../wasm/index.js';
import {
  agreementData,
  prefixScorer,
  widenedTestSet,
  CHOOSING_PAIRS,
  NATURAL_PAIRS,
} from './train/agreement.mjs';
import {
  pairsByConstruction,
  brownByConstruction,
  generatedByConstruction,
  cardRecord,
  TYPED_PAIRS,
} from './train/agreement-eval.mjs';
import { ROOT } from './train/common.mjs';

const NAMES = ['lm-agreement-lstm', 'lm-agreement-sarnn', 'lm-agreement-lstmn'];

function args(argv) {
  const a = { dir: path.join(ROOT, 'web', 'models'), json: null, wrong: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dir') a.dir = path.resolve(argv[++i]);
    else if (argv[i] === '--json') a.json = path.resolve(argv[++i]);
    else if (argv[i] === '--wrong') a.wrong = true;
    else
      throw new Error(
        `agreement-eval.mjs: unknown argument '${argv[i]}' (--dir D --json F --wrong)`,
      );
  }
  return a;
}

/** Every set's result for one model. */
export function evaluate(model) {
  const d = agreementData();
  const score = prefixScorer(model);
  return {
    typed: pairsByConstruction(model, score, TYPED_PAIRS),
    natural: pairsByConstruction(model, score, NATURAL_PAIRS),
    choosing: pairsByConstruction(model, score, CHOOSING_PAIRS),
    brown: brownByConstruction(d.items, score),
    widened: generatedByConstruction(widenedTestSet(), score),
  };
}

const pc = (x) => `${(100 * x).toFixed(1)}%`;
const line = (r) =>
  `${pc(r.accuracy)} of ${r.count} | ${r.byConstruction.map((c) => `${c.construction} ${pc(c.accuracy)} (${c.count})`).join(', ')} | ${r.byAttractors.map((c) => `${c.attractors} attr ${pc(c.accuracy)} (${c.count})`).join(', ')}`;

const a = args(process.argv.slice(2));
await init();
const out = {};
for (const name of NAMES) {
  const model = await loadModel(readFileSync(path.join(a.dir, `${name}.safetensors`)));
  const r = evaluate(model);
  out[name] = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, cardRecord(v)]));
  console.log(name);
  for (const [k, v] of Object.entries(r)) {
    console.log(`  ${k.padEnd(9)} ${line(v)}`);
    if (a.wrong && k === 'typed') console.log(`    wrong: ${v.wrong.join(' | ')}`);
  }
  model.dispose();
}
if (a.json) writeFileSync(a.json, `${JSON.stringify(out, null, 1)}\n`);
