// scripts/agreement-eval.mjs: the agreement language models by construction (none, pp, subj-rc,
// obj-rc) and by attractors (0, 1, 2+) on every set (issue 30): the strangers' two sets of
// 2026-11-30 (fresh: reported only; choosing2: chosen on), the typed test set, the two
// hand-written dev sets, the held-out Brown subject-verb pairs and the widened grammar's held-out
// split. Reads the model files of a folder (default web/models).
//
//   node scripts/agreement-eval.mjs [--dir web/models] [--json out.json] [--wrong]
//   node scripts/agreement-eval.mjs --markdown     # docs/training.md's tables, from the cards
//   node scripts/agreement-eval.mjs --pairs mine.json [--wrong]   # your own minimal pairs
//
// --pairs measures a file of your own pairs instead of the project's sets: { "pairs": [{ "prefix":
// "The jars on the shelf", "correct": "are", "wrong": "is", "construction": "pp", "attractors": 1 }] }
// (construction and attractors optional; readPairs says what is wrong with a malformed file).
//
// It also prints the verbs of the verb probe's frames by what the vocabulary knows of them
// (verbKnowledge: both forms, the base only, the -s form only, neither; not in the cards).
// --wrong lists the choosing sets' missed pairs (the sets the recipe is chosen on); the typed set
// and the fresh set are the test and are read only as figures. A model missing from the folder is skipped.
//
// Not here: training (scripts/train/agreement.mjs), the functions (scripts/train/agreement-eval.mjs).

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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
  readPairs,
  brownByConstruction,
  generatedByConstruction,
  cardRecord,
  verbProbe,
  verbKnowledge,
  constructionTables,
  TYPED_PAIRS,
  CHOOSING2_PAIRS,
  FRESH_PAIRS,
} from './train/agreement-eval.mjs';
import { ROOT } from './train/common.mjs';

const NAMES = ['lm-agreement-lstm', 'lm-agreement-sarnn', 'lm-agreement-lstmn'];

function args(argv) {
  const a = {
    dir: path.join(ROOT, 'web', 'models'),
    json: null,
    wrong: false,
    markdown: false,
    pairs: null,
  };
  const value = (i) => {
    if (i >= argv.length || argv[i].startsWith('--'))
      throw new Error(`agreement-eval.mjs: ${argv[i - 1]} needs a value`);
    return argv[i];
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dir') a.dir = path.resolve(value(++i));
    else if (argv[i] === '--pairs') a.pairs = path.resolve(value(++i));
    else if (argv[i] === '--json') a.json = path.resolve(value(++i));
    else if (argv[i] === '--wrong') a.wrong = true;
    else if (argv[i] === '--markdown') a.markdown = true;
    else
      throw new Error(
        `agreement-eval.mjs: unknown argument '${argv[i]}' (--dir D --json F --wrong --markdown --pairs F)`,
      );
  }
  return a;
}

/** Every set's result for one model. */
export function evaluate(model) {
  const d = agreementData();
  const score = prefixScorer(model);
  return {
    fresh: pairsByConstruction(model, score, FRESH_PAIRS),
    choosing2: pairsByConstruction(model, score, CHOOSING2_PAIRS),
    typed: pairsByConstruction(model, score, TYPED_PAIRS),
    natural: pairsByConstruction(model, score, NATURAL_PAIRS),
    choosing: pairsByConstruction(model, score, CHOOSING_PAIRS),
    brown: brownByConstruction(d.items, score),
    widened: generatedByConstruction(widenedTestSet(), score),
    verbs: verbProbe(model, score),
  };
}

const pc = (x) => `${(100 * x).toFixed(1)}%`;
const line = (r) =>
  `${pc(r.accuracy)} of ${r.count} | ${r.byConstruction.map((c) => `${c.construction} ${pc(c.accuracy)} (${c.count})`).join(', ')} | ${r.byAttractors.map((c) => `${c.attractors} attr ${pc(c.accuracy)} (${c.count})`).join(', ')}`;

let a;
try {
  a = args(process.argv.slice(2));
} catch (e) {
  console.error(e.message);
  process.exit(2);
}
if (a.markdown) {
  // the cards' tables as docs/training.md holds them: no measuring
  const card = (name) => JSON.parse(readFileSync(path.join(a.dir, `${name}.json`), 'utf8'));
  console.log(constructionTables(Object.fromEntries(NAMES.map((n) => [n, card(n)]))));
  process.exit(0);
}
await init();
// anyone's pairs: read and checked once, before any model loads, then measured like the project's sets
let mine = null;
if (a.pairs) {
  try {
    mine = readPairs(a.pairs);
  } catch (e) {
    console.error(`agreement-eval.mjs: ${e.message}`);
    process.exit(2);
  }
}
const out = {};
for (const name of NAMES) {
  const file = path.join(a.dir, `${name}.safetensors`);
  if (!existsSync(file)) {
    console.log(`${name}: no ${path.relative(ROOT, file)}, skipped`);
    continue;
  }
  const model = await loadModel(readFileSync(file));
  if (mine) {
    const r = pairsByConstruction(model, prefixScorer(model), mine);
    out[name] = { pairs: cardRecord(r) };
    console.log(`${name}\n  ${path.basename(a.pairs)} ${line(r)}`);
    if (a.wrong) console.log(`    wrong: ${r.wrong.join(' | ') || 'none'}`);
    model.dispose();
    continue;
  }
  const r = evaluate(model);
  out[name] = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, cardRecord(v)]));
  console.log(name);
  for (const [k, v] of Object.entries(r)) {
    console.log(`  ${k.padEnd(9)} ${line(v)}`);
    // the choosing sets' misses only: the typed and fresh sets are the test, read as figures
    if (a.wrong && (k === 'choosing' || k === 'choosing2'))
      console.log(`    wrong: ${v.wrong.join(' | ')}`);
  }
  // the verbs people type, by what the vocabulary knows of them (not in the cards)
  const known = verbKnowledge(model, prefixScorer(model));
  console.log(
    `  verbs by what the vocabulary knows (${Object.values(known).reduce((n, g) => n + g.verbs, 0)} verbs): ${Object.entries(
      known,
    )
      .map(([k, g]) => `${k} ${g.verbs ? pc(g.accuracy) : '–'} (${g.verbs})`)
      .join(', ')}`,
  );
  model.dispose();
}
if (a.json) writeFileSync(a.json, `${JSON.stringify(out, null, 1)}\n`);
