#!/usr/bin/env node
// scripts/train.mjs: trains the shipped models (docs/training.md, "The shipped models") with the
// wasm library, reproducibly, and writes web/models/<name>.safetensors and its model card
// web/models/<name>.json. `make models` runs every family but translation, `make models-all` `--all`.
//
//   node scripts/train.mjs --all                      # every model, two at a time (child processes)
//   node scripts/train.mjs dates-additive tf-induction  # some, one after another
//   node scripts/train.mjs --family reviews           # one family
//   node scripts/train.mjs seq-reverse-none --steps 300 --out /tmp/m   # a quick try elsewhere
//   node scripts/train.mjs --list                     # the registry
//
// The registry (scripts/train/registry.mjs): one module per family in scripts/train/ (dates,
// sequences, reviews, agreement, transformers), each exporting MODELS (name → { family, cost,
// config(), batch(), train(options) → card }) and optionally after(out) (work that needs the
// whole family: the forgetting curve). A model's run is fixed by its seeds: same build, same bytes.
// --all runs the most expensive models first (cost: rough seconds on a quiet core), `--jobs`
// (default 2) at a time, then each family's after().
// Not here: any maths (wasm), data (web/data/), configs (scripts/train/<family>.mjs).

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import path from 'node:path';

import { MODELS_DIR } from './train/common.mjs';
import { NAMES as THRESHOLD_NAMES, run as thresholds } from './token-thresholds.mjs';
import { FAMILIES, MODELS, ALIASES } from './train/registry.mjs';

function parseArgs(argv) {
  const a = {
    names: [],
    all: false,
    steps: null,
    out: MODELS_DIR,
    jobs: null,
    list: false,
    child: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i];
    if (v === '--all') a.all = true;
    else if (v === '--list') a.list = true;
    else if (v === '--child') a.child = true;
    else if (v === '--steps') a.steps = Number(argv[++i]);
    else if (v === '--out') a.out = path.resolve(argv[++i]);
    else if (v === '--jobs') a.jobs = Number(argv[++i]);
    else if (v === '--family') {
      const f = argv[++i];
      if (!(f in FAMILIES))
        throw new Error(
          `train.mjs: unknown family '${f}' (families: ${Object.keys(FAMILIES).join(', ')})`,
        );
      a.names.push(...Object.keys(FAMILIES[f].MODELS));
    } else if (v in MODELS) a.names.push(v);
    else if (v in ALIASES) a.names.push(ALIASES[v]);
    else
      throw new Error(
        `train.mjs: unknown argument '${v}' (models: ${Object.keys(MODELS).join(', ')}; options --all --family F --steps N --out DIR --jobs N --list)`,
      );
  }
  if (a.steps !== null && !(Number.isInteger(a.steps) && a.steps > 0))
    throw new Error('train.mjs: --steps needs a positive integer');
  if (a.all) a.names = Object.keys(MODELS);
  if (a.names.length === 0 && !a.list) a.names = ['dates-additive'];
  a.names = [...new Set(a.names)];
  return a;
}

/** The families' after() hooks for the families among names; then the "may be wrong"
 * thresholds of the translators and dates models among them (scripts/token-thresholds.mjs). */
async function afterAll(names, out) {
  for (const f of Object.values(FAMILIES)) {
    if (f.after && names.some((n) => n in f.MODELS)) await f.after(out);
  }
  const warned = names.filter((n) => THRESHOLD_NAMES.includes(n));
  if (warned.length) await thresholds(warned, { write: true, dir: out });
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.list) {
    for (const [n, m] of Object.entries(MODELS))
      console.log(`${n.padEnd(24)} ${m.family.padEnd(13)} ~${m.cost} s`);
    return;
  }
  const opts = { steps: args.steps ?? undefined, out: args.out };
  const jobs = args.jobs ?? (args.all ? Math.min(2, os.cpus().length) : 1);
  const t0 = performance.now();
  if (jobs <= 1 || args.names.length === 1) {
    for (const n of args.names) await MODELS[n].train(opts);
  } else {
    // one child process per model, `jobs` at a time, most expensive first
    const queue = [...args.names].sort((x, y) => MODELS[y].cost - MODELS[x].cost);
    const runOne = (name) =>
      new Promise((resolve, reject) => {
        const extra = [
          ...(args.steps ? ['--steps', String(args.steps)] : []),
          '--out',
          args.out,
          '--child',
        ];
        const child = spawn(process.execPath, [fileURLToPath(import.meta.url), name, ...extra], {
          stdio: 'inherit',
        });
        child.on('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`train.mjs ${name} exited with ${code}`)),
        );
      });
    await Promise.all(
      Array.from({ length: jobs }, async () => {
        while (queue.length) await runOne(queue.shift());
      }),
    );
  }
  if (!args.child) {
    await afterAll(args.names, args.out);
    console.log(
      `${args.names.length} model(s) in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
