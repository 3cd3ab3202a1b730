#!/usr/bin/env node
// scripts/size.mjs: what a visitor downloads, raw and gzip: the four .wasm builds (inference and
// training, SIMD and the scalar fallback; the total counts the SIMD ones), the JS (the
// wasm/ glue and the page's web/ modules), the page's HTML/CSS/SVG, and every shipped model
// (web/models/*.safetensors and their cards). `make size` runs it; docs/performance.md quotes it.
// Only files the page can request are counted: the JS reachable from the page's entry points
// (tests/js/import-graph.js pageEntries: imports and new URL targets, workers included), so the
// training-data generators the page never imports (reviews, brown, induction) stay out. Then the npm
// tarball as `npm pack --dry-run` reports it (package.json "files": the glue, the elements and
// the shipped models; see docs/npm.md).
// --figures prints, as JSON, the figures the docs quote (marked `<!-- figure: size.… -->`, see
// scripts/figures.mjs) instead of the tables; --write-docs rewrites those marked figures in
// README.md and docs/*.md. tests/js/docs-figures.test.js fails when they differ.

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { DEFAULT_MODEL, findModel } from '../web/shared/models.js';
import { pageEntries, reachable } from '../tests/js/import-graph.js';
import { figuresCli } from './figures.mjs';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const argv = process.argv.slice(2);
const figuresOnly = argv.includes('--figures') || argv.includes('--write-docs');
const log = figuresOnly ? () => {} : console.log; // --figures: stdout is the JSON alone

function walk(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

const rel = (p) => path.relative(ROOT, p);
const pageJs = reachable(pageEntries());
const files = [...walk(path.join(ROOT, 'wasm')), ...walk(path.join(ROOT, 'web'))].filter(
  (p) => !p.endsWith('.d.ts') && (!/\.m?js$/.test(p) || pageJs.has(p)),
);
const groups = {
  'wasm (SIMD build)': (p) => rel(p) === 'wasm/attnlab.wasm',
  'wasm (scalar fallback, only without SIMD)': (p) => rel(p) === 'wasm/attnlab-scalar.wasm',
  'wasm for training (SIMD; the lab and createModel only)': (p) =>
    rel(p) === 'wasm/attnlab-train.wasm',
  'wasm for training (scalar fallback)': (p) => rel(p) === 'wasm/attnlab-train-scalar.wasm',
  'JavaScript (the wasm/ glue and web/ modules the page imports)': (p) =>
    p.endsWith('.js') || p.endsWith('.mjs'),
  'HTML, CSS, SVG': (p) => /\.(html|css|svg)$/.test(p),
  'models (web/models/*.safetensors)': (p) => p.endsWith('.safetensors'),
  'model cards (web/models/*.json, *.svg data)': (p) =>
    rel(p).startsWith('web/models/') && /\.(json|csv)$/.test(p),
};

const rows = [];
const seen = new Set();
for (const [name, pick] of Object.entries(groups)) {
  const fs = files.filter((p) => !seen.has(p) && pick(p));
  fs.forEach((p) => seen.add(p));
  let raw = 0,
    gz = 0;
  for (const p of fs) {
    const b = readFileSync(p);
    raw += statSync(p).size;
    gz += gzipSync(b, { level: 9 }).length;
  }
  rows.push({ name, files: fs.length, raw, gz });
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const total = (pick) =>
  rows.filter(pick).reduce((a, r) => ({ raw: a.raw + r.raw, gz: a.gz + r.gz }), { raw: 0, gz: 0 });
log('| what | files | raw | gzip |\n| --- | ---: | ---: | ---: |');
for (const r of rows) log(`| ${r.name} | ${r.files} | ${kb(r.raw)} | ${kb(r.gz)} |`);
const all = total((r) => !r.name.includes('scalar'));
log(
  `| **total with SIMD (what a visitor can download)** | | **${kb(all.raw)}** | **${kb(all.gz)}** |`,
);

// The budgets of docs/training.md "Size" (issue: every model at most 1 MB gzip, the first view's
// model at most 300 KB, everything the page can fetch at most 5 MB gzip, 5.25 MB since issue 29's
// mechanism view, design system, embed dialog and states entry points added 62 KB gzip of code,
// 5.5 MB since issue 30's review classifiers read VADER's 1,683 slang and informal words, 138 KB
// gzip across the three files; the issue allows up to 8 MB where the card says what it bought:
// their cards' typedText.lexicon):
// printed, and the exit status is 1 when one is broken, so `make size` fails loudly.
const MB = 1024 * 1024;
const checks = [];
for (const p of files.filter((f) => f.endsWith('.safetensors'))) {
  const gz = gzipSync(readFileSync(p), { level: 9 }).length;
  checks.push({ what: `${rel(p)} ≤ 1 MB gzip`, value: gz, limit: MB });
}
const first = path.join(ROOT, 'web', findModel(DEFAULT_MODEL).file); // the model the first view opens with
checks.push({
  what: `the first view's model (${DEFAULT_MODEL}) ≤ 300 KB gzip`,
  value: gzipSync(readFileSync(first), { level: 9 }).length,
  limit: 300 * 1024,
});
checks.push({
  what: 'everything the page can fetch ≤ 5.5 MB gzip',
  value: all.gz,
  limit: 5.5 * MB,
});
const broken = checks.filter((c) => c.value > c.limit);
log(
  `\nbudgets: ${checks.length - broken.length} of ${checks.length} met; largest model ${kb(Math.max(...checks.slice(0, -2).map((c) => c.value)))} gzip, first view's model ${kb(checks.at(-2).value)}, all ${kb(all.gz)}`,
);
for (const c of broken) log(`  BROKEN: ${c.what}: ${kb(c.value)}`);
if (broken.length) process.exitCode = 1;

// The npm tarball (what `npm install attnlab` downloads, and what a CDN serves file by file).
let packed;
try {
  [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], {
      cwd: ROOT,
      encoding: 'utf8',
    }),
  );
  log(
    `\nnpm tarball ${packed.filename}: ${packed.entryCount} files, ${kb(packed.size)} packed, ${kb(packed.unpackedSize)} unpacked`,
  );
} catch (err) {
  log(`\nnpm tarball: not measured (npm pack --dry-run failed: ${err.message.split('\n')[0]})`);
}

// The figures the docs quote, as they write them (KB: 1,024 bytes, whole, with thousands commas).
const KB = (n) => `${Math.round(n / 1024).toLocaleString('en-US')} KB`;
const wasmBytes = (name) => statSync(path.join(ROOT, 'wasm', name)).size.toLocaleString('en-US');
const models = files.filter((p) => p.endsWith('.safetensors'));
const gzipOf = (ps) => ps.reduce((a, p) => a + gzipSync(readFileSync(p), { level: 9 }).length, 0);
const figures = {
  'models.count': String(models.length),
  'size.totalRaw': KB(all.raw),
  'size.totalGzip': KB(all.gz),
  'size.modelsGzip': KB(rows.find((r) => r.name.startsWith('models')).gz),
  'size.largestModelGzip': KB(Math.max(...models.map((p) => gzipOf([p])))),
  'size.translatorsGzip': KB(gzipOf(models.filter((p) => path.basename(p).startsWith('en-fr-')))),
  'size.firstWasmRaw': KB(statSync(path.join(ROOT, 'wasm/attnlab.wasm')).size),
  'size.firstModelRaw': KB(statSync(first).size),
  'wasm.simd': wasmBytes('attnlab.wasm'),
  'wasm.scalar': wasmBytes('attnlab-scalar.wasm'),
  'wasm.train': wasmBytes('attnlab-train.wasm'),
  'wasm.trainScalar': wasmBytes('attnlab-train-scalar.wasm'),
  ...(packed && {
    'npm.files': packed.entryCount.toLocaleString('en-US'),
    'npm.packed': KB(packed.size),
    'npm.unpacked': KB(packed.unpackedSize),
  }),
};
figuresCli(argv, figures);
