#!/usr/bin/env node
// scripts/size.mjs: what a visitor downloads, raw and gzip: the four .wasm builds (inference and
// training, SIMD and the scalar fallback; the total counts the SIMD ones), the JS (the
// wasm/ glue and the page's web/ modules), the page's HTML/CSS/SVG, and every shipped model
// (web/models/*.safetensors and their cards). `make size` runs it; the README quotes it.
// Only files the page can request are counted (no tests, scripts or .d.ts).

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

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
const files = [...walk(path.join(ROOT, 'wasm')), ...walk(path.join(ROOT, 'web'))].filter((p) => !p.endsWith('.d.ts'));
const groups = {
  'wasm (SIMD build)': (p) => rel(p) === 'wasm/attnlab.wasm',
  'wasm (scalar fallback, only without SIMD)': (p) => rel(p) === 'wasm/attnlab-scalar.wasm',
  'wasm for training (SIMD; the Train view and createModel only)': (p) => rel(p) === 'wasm/attnlab-train.wasm',
  'wasm for training (scalar fallback)': (p) => rel(p) === 'wasm/attnlab-train-scalar.wasm',
  'JavaScript (wasm/ glue + web/ modules)': (p) => p.endsWith('.js') || p.endsWith('.mjs'),
  'HTML, CSS, SVG': (p) => /\.(html|css|svg)$/.test(p),
  'models (web/models/*.safetensors)': (p) => p.endsWith('.safetensors'),
  'model cards (web/models/*.json, *.svg data)': (p) => rel(p).startsWith('web/models/') && /\.(json|csv)$/.test(p),
};

const rows = [];
const seen = new Set();
for (const [name, pick] of Object.entries(groups)) {
  const fs = files.filter((p) => !seen.has(p) && pick(p));
  fs.forEach((p) => seen.add(p));
  let raw = 0, gz = 0;
  for (const p of fs) {
    const b = readFileSync(p);
    raw += statSync(p).size;
    gz += gzipSync(b, { level: 9 }).length;
  }
  rows.push({ name, files: fs.length, raw, gz });
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const total = (pick) => rows.filter(pick).reduce((a, r) => ({ raw: a.raw + r.raw, gz: a.gz + r.gz }), { raw: 0, gz: 0 });
console.log('| what | files | raw | gzip |\n| --- | ---: | ---: | ---: |');
for (const r of rows) console.log(`| ${r.name} | ${r.files} | ${kb(r.raw)} | ${kb(r.gz)} |`);
const all = total((r) => !r.name.includes('scalar'));
console.log(`| **total with SIMD (what a visitor can download)** | | **${kb(all.raw)}** | **${kb(all.gz)}** |`);
