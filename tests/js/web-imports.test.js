// web-imports.test.js: the import graph of web/ and wasm/ has no cycles. A module that imports a
// module that imports it back (directly or through others) cannot be read, tested or moved alone,
// and its top-level code may run before what it imports has been evaluated.
//
// Reads every .js file under web/ and wasm/, takes its static imports and its dynamic import('…')
// with a literal specifier (a cycle through a lazy import is still a cycle of the design; the
// reader is import-graph.js), resolves them (the page's import map sends 'attnlab' to
// wasm/index.js; node: and other bare specifiers are outside the graph) and fails on the first
// cycle it finds, naming every module on it.
// wasm/ has its own test: the loader (loader.js) is imported by model.js and train.js, and
// imports neither, so no module of the glue imports one that imports it back.

import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, importsOf } from './import-graph.js';

function jsFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...jsFiles(p));
    else if (e.name.endsWith('.js')) out.push(p);
  }
  return out;
}

/**
 * Cycles of the graph over files (edges to modules outside files are dropped): one per back edge
 * of a depth-first walk, so none if and only if the graph has no cycle.
 */
function cycles(files) {
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((d) => files.includes(d))]));
  const state = new Map(); // file -> 'open' while on the walk's stack, 'done' after
  const stack = [];
  const found = [];
  const walk = (f) => {
    state.set(f, 'open');
    stack.push(f);
    for (const d of graph.get(f) ?? []) {
      if (state.get(d) === 'open') found.push([...stack.slice(stack.indexOf(d)), d]);
      else if (!state.has(d)) walk(d);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of files) if (!state.has(f)) walk(f);
  return found.map((c) =>
    c.map((f) => path.relative(ROOT, f).split(path.sep).join('/')).join(' → '),
  );
}

const WEB = jsFiles(path.join(ROOT, 'web'));
const WASM = jsFiles(path.join(ROOT, 'wasm'));

test('the import reader sees static, re-exported and dynamic imports, not comments', () => {
  // web/views/registry.js reaches its lazy views only through import().
  const rel = (f) =>
    importsOf(path.join(ROOT, f)).map((p) => path.relative(ROOT, p).split(path.sep).join('/'));
  assert.ok(
    WEB.length > 20 && WASM.length > 5,
    `${WEB.length} web/ and ${WASM.length} wasm/ files`,
  );
  assert.ok(
    rel('web/views/registry.js').includes('web/views/heads-view.js'),
    'the dynamic import of web/views/registry.js',
  );
  assert.ok(
    !rel('wasm/index.js').some((f) => f.endsWith('.d.ts')),
    'a JSDoc import() type is not an edge',
  );
});

test('web/: no module imports a module that imports it back', () => {
  // A cycle through web/ stays inside web/ as long as wasm/ never imports web/ (the library does
  // not know the page): both are checked.
  const back = WASM.flatMap((f) =>
    importsOf(f)
      .filter((d) => WEB.includes(d))
      .map((d) => `${path.relative(ROOT, f)} → ${path.relative(ROOT, d)}`),
  );
  assert.deepEqual(back, [], 'wasm/ imports nothing from web/');
  assert.deepEqual(cycles(WEB), []);
});

test('wasm/: no module imports a module that imports it back', () => {
  assert.deepEqual(cycles(WASM), []);
});
