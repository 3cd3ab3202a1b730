#!/usr/bin/env node
// scripts/bench.mjs: attnlab side by side with TensorFlow.js (wasm), onnxruntime-web (wasm),
// the native gcc build of the same C, and PyTorch (when installed), in one Node process with
// interleaved rounds so machine drift hits every contender alike.
//
//   node scripts/bench.mjs            full run (~6 min on 2 cores) → bench/results.{json,md}
//   node scripts/bench.mjs --smoke    tiny shapes, 2 rounds, no timing claims (CI) → build/bench/
//   node scripts/bench.mjs --check    full run → build/bench/, then compare with the committed
//                                     bench/results.json; exit 1 if an op got > 20% slower
//                                     relative to the peers
//   node scripts/bench.mjs --figures      the figures the docs quote, from the committed
//                                     bench/results.json (no run), as JSON; --write-docs rewrites
//                                     them where docs/*.md marks them (scripts/figures.mjs)
// Other flags: --rounds N, --target-ms X (time per sample), --only a,b (contenders),
// --cases REGEX, --no-startup, --out DIR, --baseline FILE, --tolerance 0.2, --python PATH,
// --model FILE (the whole-model rows; default the largest seq2seq web/models/*.safetensors),
// --lab REGEX (which lab rows: '<preset> <a|b>', e.g. '^(reverse|dates) a'), --no-lab,
// --lab-only (only the lab rows: steps per second of every preset, 1 and 2 workers, ~3 min;
// scripts/bench/lab.mjs), --lab-rounds N; the train:<preset> rows (scripts/bench/train.mjs):
// --train REGEX (keys 'train:<preset> <a|b>'), --no-train, --train-only (those rows and the
// matmul rows of the GF/s peak, nothing else), --train-rounds N, --train-with a,b (contenders
// among attnlab, torch-1t, torch-2t, tfjs-wasm).
// A slice, e.g. two rows against the wasm peers in ~5 s (docs/benchmarks.md, "Running a slice"):
//   node scripts/bench.mjs --cases '^(matmul 1x128x512|gru t64)' --no-startup --out /tmp/b \
//     --only attnlab-simd,attnlab-api,attnlab-api-plain,tfjs-wasm,ort-wasm
//
// Cases (scripts/bench/cases.mjs): matmul, sdpa, multi-head attention with projections, additive
// attention, LSTM and GRU layers, a whole seq2seq model per keystroke, one training step, and
// every shipped model (web/models/*.safetensors) on its registry sample through the public JS
// API, SIMD and scalar (--smoke: two of them).
// Method (docs/benchmarks.md): every contender's output is checked against attnlab's scalar
// build before it is timed; each (case, contender) gets warm-up calls and a repetition count
// that makes one sample ≈ target-ms; then each round takes one sample of every contender for
// every case, in a rotating order. Reported: medians over rounds, p10–p90, and ratios computed
// within each round (median of per-round ratios). Layout: scripts/bench/{cases,contenders,onnx,
// stats,report,startup,api-worker}.mjs, native.c, torch_server.py.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { makeCases } from './bench/cases.mjs';
import { CONTENDERS, ROOT, makeContender, writeInputs } from './bench/contenders.mjs';
import {
  compareRuns,
  docFigures,
  evaluateTargets,
  shippedRows,
  toMarkdown,
} from './bench/report.mjs';
import { figuresCli } from './figures.mjs';
import { summarize } from './bench/stats.mjs';
import { measureLab } from './bench/lab.mjs';
import { TRAIN_CONTENDERS, measureTrain, trainFailures } from './bench/train.mjs';
import { matmulPeak } from './bench/train-report.mjs';

// ------------------------------------------------------------------ options

function parseArgs(argv) {
  const o = {
    smoke: false,
    check: false,
    startup: true,
    only: null,
    cases: null,
    tolerance: 0.2,
    lab: true,
    labOnly: false,
    labFilter: null,
    train: true,
    trainOnly: false,
    trainFilter: null,
    trainWith: TRAIN_CONTENDERS,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--smoke') o.smoke = true;
    else if (a === '--check') o.check = true;
    else if (a === '--no-startup') o.startup = false;
    else if (a === '--no-lab') o.lab = false;
    else if (a === '--lab-only') o.labOnly = true;
    else if (a === '--lab') o.labFilter = new RegExp(val());
    else if (a === '--lab-rounds') o.labRounds = Number(val());
    else if (a === '--no-train') o.train = false;
    else if (a === '--train-only') o.trainOnly = true;
    else if (a === '--train') o.trainFilter = new RegExp(val());
    else if (a === '--train-rounds') o.trainRounds = Number(val());
    else if (a === '--train-with') {
      o.trainWith = val().split(',');
      const bad = o.trainWith.filter((n) => !TRAIN_CONTENDERS.includes(n));
      if (bad.length)
        throw new Error(`--train-with: unknown ${bad.join(', ')} (${TRAIN_CONTENDERS.join(', ')})`);
    } else if (a === '--rounds') o.rounds = Number(val());
    else if (a === '--target-ms') o.targetMs = Number(val());
    else if (a === '--only') o.only = val().split(',');
    else if (a === '--cases') o.cases = new RegExp(val());
    else if (a === '--out') o.out = path.resolve(val());
    else if (a === '--baseline') o.baseline = path.resolve(val());
    else if (a === '--tolerance') o.tolerance = Number(val());
    else if (a === '--python') o.python = val();
    else if (a === '--model') o.model = val();
    else if (a === '--help' || a === '-h') {
      console.log(
        readFileSync(new URL(import.meta.url), 'utf8')
          .split('\n')
          .slice(1, 23)
          .join('\n'),
      );
      process.exit(0);
    } else throw new Error(`unknown option ${a} (try --help)`);
  }
  o.rounds ??= o.smoke ? 2 : 21;
  o.targetMs ??= o.smoke ? 0 : 20; // 0: one call per sample
  o.warmupMs = o.smoke ? 0 : 50;
  o.startupRuns = o.smoke ? 1 : 5;
  if (o.labOnly) {
    // the lab rows alone: no cases, no start-up; the scalar reference still starts
    o.cases = /$^/;
    o.startup = false;
    o.lab = true;
    o.only ??= ['attnlab-scalar'];
  }
  if (o.trainOnly) {
    // the train rows, and the SIMD matmul rows their GF/s are compared with
    o.cases = /^matmul /;
    o.startup = false;
    o.lab = false;
    o.train = true;
    o.only ??= ['attnlab-simd'];
  }
  o.out ??= path.join(
    ROOT,
    o.smoke || o.check || o.labOnly || o.trainOnly ? 'build/bench' : 'bench',
  );
  o.baseline ??= path.join(ROOT, 'bench/results.json');
  return o;
}

const log = (...a) => console.error(...a);
const LOAD_START = os.loadavg().map((x) => +x.toFixed(2)); // other work on the machine shows here

// ------------------------------------------------------------------ machine

function machine() {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  let flags = '';
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    cpu = /^model name\s*:\s*(.*)$/m.exec(info)?.[1] ?? cpu;
    const f = (/^flags\s*:\s*(.*)$/m.exec(info)?.[1] ?? '').split(' ');
    flags = ['sse4_2', 'avx', 'avx2', 'fma', 'avx512f'].filter((x) => f.includes(x)).join(' ');
  } catch {
    /* not Linux */
  }
  return {
    cpu,
    flags,
    cores: os.cpus().length,
    memGB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.versions.node,
    v8: process.versions.v8,
    loadAvgStart: LOAD_START,
    loadAvgEnd: os.loadavg().map((x) => +x.toFixed(2)),
  };
}

// ------------------------------------------------------------------ checking

/**
 * Max |a − b| between a variant's output and the reference's, and whether it is within the
 * tolerance: the case's absolute one (absTol) or else relative to the reference's scale. A
 * variant with a discrete outcome (v.discrete: output text, label, argmax) must match it exactly.
 */
function compare(v, ref, c) {
  const out = v.output;
  const want = ref.output;
  if (out.length !== want.length)
    return { maxAbsDiff: Infinity, ok: false, why: `length ${out.length} ≠ ${want.length}` };
  let d = 0;
  let scale = 1;
  for (let i = 0; i < want.length; i++) {
    const e = Math.abs(out[i] - want[i]);
    if (!(e <= d)) d = e; // NaN-propagating
    scale = Math.max(scale, Math.abs(want[i]));
  }
  if (v.discrete !== ref.discrete)
    return { maxAbsDiff: d, ok: false, why: `${v.discrete} ≠ ${ref.discrete}` };
  // 1e-3 of the output's scale: loose enough for other summation orders and FMA, far tighter
  // than the O(0.1–1) errors of a wrong transpose, scale or mask
  return { maxAbsDiff: d, ok: d <= (c.absTol ?? 1e-3 * scale) };
}

// ------------------------------------------------------------------ calibration

/** Per-call estimate and a repetition count that makes one sample ≈ targetMs, after warm-up. */
async function calibrate(variant, o) {
  let reps = 1;
  let t = await variant.sample(1);
  while (t * reps < Math.max(2, o.targetMs / 4) && reps < 1 << 20 && o.targetMs > 0) {
    reps *= 2;
    t = await variant.sample(reps);
  }
  const target = Math.max(1, o.targetMs > 0 ? Math.round(o.targetMs / t) : 1);
  const t0 = performance.now();
  while (performance.now() - t0 < o.warmupMs) await variant.sample(target);
  const est = [];
  for (let i = 0; i < (o.smoke || t > o.targetMs ? 1 : 3); i++)
    est.push(await variant.sample(target));
  est.sort((a, b) => a - b);
  return { reps: target, estMs: est[est.length >> 1] };
}

// ------------------------------------------------------------------ start-up and sizes

function measureStartup(o) {
  const libs = ['attnlab', 'tfjs-wasm', 'ort-wasm'];
  const raw = Object.fromEntries(libs.map((l) => [l, []]));
  const errors = {};
  for (let i = 0; i < o.startupRuns; i++) {
    for (const l of libs) {
      // interleaved, a fresh process each time
      const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/bench/startup.mjs'), l], {
        encoding: 'utf8',
        timeout: 120_000,
      });
      if (r.status !== 0) {
        errors[l] = (r.stderr || 'failed').trim().split('\n').at(-1);
        continue;
      }
      raw[l].push(JSON.parse(r.stdout.trim().split('\n').at(-1)));
    }
  }
  const out = {};
  for (const l of libs) {
    if (raw[l].length === 0) {
      out[l] = { error: errors[l] ?? 'no sample' };
      continue;
    }
    out[l] = Object.fromEntries(
      ['loadMs', 'readyMs', 'firstOpMs', 'rssMB'].map((k) => [
        k,
        summarize(raw[l].map((x) => x[k])),
      ]),
    );
    out[l].runs = raw[l];
  }
  return out;
}

function wasmSizes() {
  const files = [
    'wasm/attnlab.wasm',
    'wasm/attnlab-scalar.wasm',
    'node_modules/@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm',
    'node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm',
  ];
  return files
    .filter((f) => existsSync(path.join(ROOT, f)))
    .map((f) => {
      const b = readFileSync(path.join(ROOT, f));
      return { file: f, raw: b.length, gzip: gzipSync(b, { level: 9 }).length };
    });
}

// ------------------------------------------------------------------ main

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const notes = [];
  let cases = await makeCases({ smoke: o.smoke, model: o.model });
  if (o.cases) cases = cases.filter((c) => o.cases.test(c.key));
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'attnlab-bench-'));
  const ctx = { tmp, python: o.python, inputFile: (c) => writeInputs(tmp, c) };

  // start every contender; the scalar build is always needed as the reference
  const wanted = CONTENDERS.filter(
    (c) => !o.only || o.only.includes(c.name) || c.name === 'attnlab-scalar',
  );
  const live = [];
  const contenders = {};
  for (const spec of wanted) {
    const t0 = performance.now();
    const impl = makeContender(spec.name);
    try {
      const info = await impl.start(ctx);
      contenders[spec.name] = { status: 'ok', label: spec.label, kind: spec.kind, info };
      live.push({ ...spec, impl });
      log(
        `started ${spec.name} in ${(performance.now() - t0).toFixed(0)} ms ${JSON.stringify(info)}`,
      );
    } catch (e) {
      const note = e.skip ?? `failed to start: ${e.message}`;
      contenders[spec.name] = { status: 'skipped', label: spec.label, kind: spec.kind, note };
      notes.push(`${spec.name} skipped: ${note}`);
      log(`skipped ${spec.name}: ${note}${e.skip ? '' : `\n${e.stack}`}`);
    }
  }
  const scalar = live.find((c) => c.name === 'attnlab-scalar');
  if (!scalar) throw new Error('the attnlab scalar build (the reference) did not start');

  // set-up: check every contender against the scalar reference, calibrate, pick its fastest form
  const cells = []; // { case, contender, variant, samples, ... }
  for (const c of cases) {
    const [ref] = await scalar.impl.prepare(c, ctx);
    await ref.dispose();
    if (ref.tokens !== undefined) c.tokens = ref.tokens; // the input length, for the report
    for (const con of live) {
      const cell = { case: c.key, contender: con.name, samples: [] };
      let variants;
      try {
        variants = await con.impl.prepare(c, ctx);
      } catch (e) {
        cells.push(cell);
        Object.assign(cell, { status: 'error', error: String(e.message ?? e).slice(0, 300) });
        log(`  ${c.key} ${con.name}: error ${cell.error}`);
        continue;
      }
      if (variants === null) continue; // the contender has no form of this op (e.g. tfjs and whole models)
      cells.push(cell);
      const passed = [];
      const rejected = [];
      for (const v of variants) {
        const chk = compare(v, ref, c);
        v.check = chk;
        if (chk.ok) {
          Object.assign(v, await calibrate(v, o));
          passed.push(v);
        } else {
          rejected.push(
            `${v.variant}: max |Δ| ${chk.maxAbsDiff.toExponential(2)}${chk.why ? ` (${chk.why})` : ''}`,
          );
        }
      }
      passed.sort((a, b) => a.estMs - b.estMs);
      const best = passed[0];
      for (const v of variants) if (v !== best) await v.dispose();
      const tried = variants
        .map((v) => v.variant)
        .concat((variants[0]?.notes ?? []).map((n) => `(failed) ${n}`));
      if (!best) {
        Object.assign(cell, {
          status: 'check failed',
          variant: variants[0]?.variant,
          maxAbsDiff: variants[0]?.check.maxAbsDiff,
          error: rejected.join('; '),
          tried,
        });
        log(`  ${c.key} ${con.name}: CHECK FAILED ${cell.error}`);
        continue;
      }
      Object.assign(cell, {
        status: 'ok',
        variant: best.variant,
        maxAbsDiff: best.check.maxAbsDiff,
        reps: best.reps,
        tried: tried.length > 1 ? tried : undefined,
        rejected: rejected.length ? rejected : undefined,
        variantEstimates:
          passed.length > 1 ? passed.map((v) => ({ variant: v.variant, ms: v.estMs })) : undefined,
        handle: best,
      });
      log(
        `  ${c.key.padEnd(26)} ${con.name.padEnd(15)} ${best.estMs.toFixed(4).padStart(10)} ms ×${best.reps} |Δ| ${best.check.maxAbsDiff.toExponential(1)}  ${best.variant}`,
      );
    }
  }

  log(`set-up and calibration done at ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // the interleaved rounds
  const byCase = new Map(
    cases.map((c) => [c.key, cells.filter((x) => x.case === c.key && x.status === 'ok')]),
  );
  for (let r = 0; r < o.rounds; r++) {
    const t0 = performance.now();
    for (const c of cases) {
      const cs = byCase.get(c.key);
      for (let j = 0; j < cs.length; j++) {
        const cell = cs[(j + r) % cs.length]; // rotate who goes first
        try {
          cell.samples.push(await cell.handle.sample(cell.reps));
        } catch (e) {
          cell.samples.push(NaN);
          cell.sampleError = String(e.message ?? e);
        }
      }
    }
    log(`round ${r + 1}/${o.rounds}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }

  for (const cell of cells) {
    if (cell.handle) await cell.handle.dispose();
    delete cell.handle;
    if (cell.status === 'ok') cell.summary = summarize(cell.samples);
  }
  for (const con of live) {
    if (con.impl.liveAllocations && con.impl.liveAllocations() !== 0)
      notes.push(
        `${con.name}: ${con.impl.liveAllocations()} wasm blocks still live after the run (a leak)`,
      );
    await con.impl.stop();
  }
  rmSync(tmp, { recursive: true, force: true });

  // start-up in child processes, after the timed rounds so they cannot disturb them
  let startup = null;
  if (o.startup) {
    const t0 = performance.now();
    startup = measureStartup(o);
    log(
      `start-up: ${o.startupRuns} fresh child processes per library in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
  // the lab's rows, also after the timed rounds: they start worker threads of their own
  let lab = null;
  if (o.lab) {
    const t0 = performance.now();
    log('lab: steps per second of the presets, 1 and 2 workers (scripts/bench/lab.mjs)');
    try {
      lab = await measureLab({ filter: o.labFilter, smoke: o.smoke, rounds: o.labRounds, log });
    } catch (e) {
      lab = { error: String(e.message ?? e) };
      log(`lab rows failed: ${e.stack ?? e}`);
    }
    log(`lab: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  // the train:<preset> rows, last: they start PyTorch servers with threads of their own
  let train = null;
  if (o.train) {
    const t0 = performance.now();
    log('train: one optimiser step of every preset run (scripts/bench/train.mjs)');
    const trainTmp = mkdtempSync(path.join(os.tmpdir(), 'attnlab-bench-train-'));
    try {
      train = await measureTrain({
        filter: o.trainFilter,
        smoke: o.smoke,
        rounds: o.trainRounds,
        contenders: o.trainWith,
        python: o.python,
        tmp: trainTmp,
        log,
      });
      train.peak = matmulPeak({ cases, results: cells });
      for (const row of train.rows) {
        const a = row.contenders.attnlab;
        if (a?.gflops && train.peak) a.ofPeak = a.gflops / train.peak.gflops;
      }
    } catch (e) {
      train = { error: String(e.message ?? e) };
      log(`train rows failed: ${e.stack ?? e}`);
    } finally {
      rmSync(trainTmp, { recursive: true, force: true });
    }
    log(`train: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const ortCell = cells.find(
    (x) =>
      x.contender === 'ort-wasm' &&
      x.tried &&
      x.case.startsWith('sdpa') &&
      !x.case.includes('weights'),
  );
  if (ortCell)
    notes.push(
      `onnxruntime-web attention forms tried: ${ortCell.tried.join('; ')}; each row names the one that ran (the fastest that passed the check).`,
    );
  for (const c of cases.filter((x) => x.op === 'model' || x.op === 'train')) {
    if (c.op === 'model')
      notes.push(
        `whole-model rows use \`${c.model}\` (${c.why}); per keystroke = one greedy model.run on ${JSON.stringify(c.text)}.`,
      );
  }
  const ortMha = cells.find(
    (x) => x.contender === 'ort-wasm' && x.case.startsWith('mha') && x.status === 'ok',
  );
  if (ortMha)
    notes.push(
      `onnxruntime-web multi-head attention forms tried: ${(ortMha.tried ?? [ortMha.variant]).join('; ')}; each MHA row names the one that ran (the fastest that passed).`,
    );
  notes.push(
    "tfjs-wasm and onnxruntime-web rows include their per-call output read-back (dataSync(), session.run()), as the attnlab JS API rows do; the attnlab SIMD/scalar/native rows time the al_* call alone on resident inputs. attnlab-api keeps the weights a caller reuses resident with prepare() (matmul's b, the LSTM / GRU state_dict), as the tfjs row keeps its tensors and onnxruntime its initializers; attnlab-api-plain copies every input on every call.",
  );

  const run = {
    schema: 1,
    date: new Date().toISOString(),
    command: `node scripts/bench.mjs${process.argv.length > 2 ? ` ${process.argv.slice(2).join(' ')}` : ''}`,
    machine: machine(),
    rounds: o.rounds,
    targetMs: o.targetMs,
    smoke: o.smoke,
    contenders,
    cases: cases.map(({ inputs: _inputs, ...c }) => c),
    results: cells,
    startup,
    startupRuns: o.startupRuns,
    lab,
    train,
    sizes: wasmSizes(),
    notes,
    wallSeconds: 0,
  };
  run.shipped = shippedRows(run);
  run.targets = evaluateTargets(run);
  run.wallSeconds = (performance.now() - started) / 1000;

  mkdirSync(o.out, { recursive: true });
  writeFileSync(path.join(o.out, 'results.json'), JSON.stringify(run, null, 1) + '\n');
  const md = toMarkdown(run);
  writeFileSync(path.join(o.out, 'results.md'), md);
  console.log(md);
  log(
    `wrote ${path.relative(ROOT, o.out) || '.'}/results.{json,md} in ${run.wallSeconds.toFixed(0)} s`,
  );

  let code = 0;
  if (lab?.error) {
    log(`the lab rows failed: ${lab.error}`);
    code = 1;
  }
  if (train?.error) {
    log(`the train rows failed: ${train.error}`);
    code = 1;
  }
  const badTrain = trainFailures(train);
  if (badTrain.length) {
    log(`train rows whose step-0 check failed or that errored: ${badTrain.join(', ')}`);
    code = 1;
  }
  const bad = cells.filter((x) => x.status !== 'ok' && x.contender.startsWith('attnlab'));
  if (bad.length) {
    log(
      `attnlab rows that failed: ${bad.map((b) => `${b.case} ${b.contender} (${b.status})`).join(', ')}`,
    );
    code = 1;
  }
  if (o.check) {
    if (!existsSync(o.baseline)) {
      log(`--check: no baseline at ${o.baseline}`);
      return 2;
    }
    const then = JSON.parse(readFileSync(o.baseline, 'utf8'));
    const rows = compareRuns(run, then, o.tolerance);
    const slower = rows.filter((r) => r.slower);
    for (const r of rows)
      log(
        `${r.slower ? 'SLOWER' : 'ok    '} ${r.case.padEnd(32)} ${r.contender.padEnd(15)} drift ${r.drift.toFixed(2)}× (vs ${r.against ?? `${r.peers} peers`})`,
      );
    log(
      `--check: ${slower.length} of ${rows.length} (case, attnlab build) pairs got more than ${(o.tolerance * 100).toFixed(0)}% slower relative to the peers than in ${path.relative(ROOT, o.baseline)}`,
    );
    if (slower.length) code = 1;
  }
  return code;
}

const ARGV = process.argv.slice(2);
if (ARGV.includes('--figures') || ARGV.includes('--write-docs')) {
  const run = JSON.parse(readFileSync(path.join(ROOT, 'bench/results.json'), 'utf8'));
  figuresCli(ARGV, docFigures(run));
} else
  main().then(
    (code) => process.exit(code),
    (e) => {
      console.error(e.stack ?? e);
      process.exit(1);
    },
  );
