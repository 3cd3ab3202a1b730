#!/usr/bin/env node
// scripts/build-python-assets.mjs: the files attnlab.show() (python/attnlab/show.py) inlines
// into a notebook output, in python/attnlab/assets/ (committed, so `pip install ./python` needs
// no npm; `make python-assets` rebuilds them, tests/js/python-assets.test.js fails when they
// are older than their sources):
//   notebook.js    python/js/notebook.js and what it imports (wasm/*.js, <attn-heatmap>, the
//                  alignment view), bundled and minified by esbuild into one classic script (an
//                  IIFE setting the global attnlabNotebook): output cells may not load modules
//                  or anything from a network; show(model) inlines it
//   heatmap.js     python/js/heatmap.js likewise (<attn-heatmap> alone; global attnlabHeatmap):
//                  show(weights) inlines it
//   attnlab.wasm   wasm/attnlab.wasm, copied (the SIMD128 build; show() inlines it as base64)
//   live-views.json  which architectures the live view draws, in which of the page's views
//                  (python/js/live-views.js liveFamilies: the page's own relation); show.py reads
//                  it to refuse a file of another architecture, naming the ones it draws
//
//   node scripts/build-python-assets.mjs            # write the assets
//   node scripts/build-python-assets.mjs --check    # exit 1 when the committed ones differ
//
// import.meta.url is defined as a fixed file: URL that names no real file: the bundle is handed
// the .wasm and the model as bytes, so no code path that resolves a URL from it may run (one
// that did would show as a request in tests/browser/notebook.test.js, which fails on any).

import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { liveFamilies } from '../python/js/live-views.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ASSETS = path.join(ROOT, 'python', 'attnlab', 'assets');

/** The assets as { name: bytes }, built in memory. */
export async function buildAssets() {
  const assets = {};
  for (const [name, globalName] of [
    ['notebook.js', 'attnlabNotebook'],
    ['heatmap.js', 'attnlabHeatmap'],
  ]) {
    assets[name] = await bundle(path.join(ROOT, 'python', 'js', name), globalName);
  }
  assets['attnlab.wasm'] = readFileSync(path.join(ROOT, 'wasm', 'attnlab.wasm'));
  assets['live-views.json'] = Buffer.from(JSON.stringify(liveFamilies(), null, 2) + '\n');
  return assets;
}

async function bundle(entry, globalName) {
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    globalName,
    minify: true,
    target: ['es2022'],
    write: false,
    legalComments: 'none',
    charset: 'utf8',
    define: { 'import.meta.url': '"file:///attnlab-notebook/no-such-file.js"' },
    external: ['node:*'], // wasm/source.js reads files in Node only (never in a page)
    logLevel: 'warning',
  });
  return out.outputFiles[0].contents;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const [name, bytes] of Object.entries(await buildAssets())) {
    const file = path.join(ASSETS, name);
    if (check) {
      let old = null;
      try {
        old = readFileSync(file);
      } catch {
        /* missing */
      }
      if (!old || Buffer.compare(old, Buffer.from(bytes)) !== 0) {
        console.error(
          `${path.relative(ROOT, file)} is not what its sources build: run make python-assets`,
        );
        stale++;
      }
    } else {
      writeFileSync(file, bytes);
      console.log(`${path.relative(ROOT, file)}: ${bytes.length} bytes`);
    }
  }
  process.exit(stale ? 1 : 0);
}
