// file-sizes.test.js: rooms stay small. A source file of web/, wasm/, src/ or python/ (.js, .mjs,
// .c, .h, .py) past 600 lines, or web/elements/attn-demo.js (the element shell that picks a view)
// past 500, fails here with its length; such a file is split along its data flow (tables → work →
// paint, state → work → paint), not trimmed. EXCEPTIONS names the files allowed past their limit,
// each with its reason; an exception that no longer applies (the file is gone or back under its
// limit) fails too, so the list never outlives its reasons.
//
// Not counted: generated files (web/data/reviews-lexicon.js, written by
// scripts/build-reviews-lexicon.mjs; python/attnlab/assets/, copied from python/js/ and wasm/), and
// what tools leave in these folders (node_modules/, __pycache__/, build/, *.egg-info/). Tests,
// scripts and docs outside these four folders are not rooms of the house and have no limit here.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from './import-graph.js';

const LIMIT = 600;
const LIMITS = new Map([['web/elements/attn-demo.js', 500]]);

const GENERATED = ['web/data/reviews-lexicon.js', 'python/attnlab/assets/'];
const TOOL_FOLDERS = new Set(['node_modules', '__pycache__', 'build']); // build: pip's python/build/

/** Files allowed past their limit, with the reason. */
const EXCEPTIONS = new Map([]);

/** Source files under dir, as paths relative to ROOT with forward slashes. */
function sources(dir) {
  const out = [];
  for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (GENERATED.some((g) => rel === g || `${rel}/` === g)) continue;
    if (e.isDirectory()) {
      if (!TOOL_FOLDERS.has(e.name) && !e.name.endsWith('.egg-info')) out.push(...sources(rel));
    } else if (/\.(m?js|c|h|py)$/.test(e.name)) out.push(rel);
  }
  return out;
}

const lines = (rel) => readFileSync(path.join(ROOT, rel), 'utf8').split('\n').length - 1;
const files = ['web', 'wasm', 'src', 'python'].flatMap(sources);

test(`no source file of web/, wasm/, src/ or python/ is past ${LIMIT} lines`, () => {
  assert.ok(files.length > 100, `found the sources (${files.length} files)`);
  const over = files
    .filter((f) => !EXCEPTIONS.has(f))
    .map((f) => ({ f, n: lines(f), max: LIMITS.get(f) ?? LIMIT }))
    .filter(({ n, max }) => n > max);
  assert.deepEqual(
    over.map(({ f, n, max }) => `${f}: ${n} lines (limit ${max})`),
    [],
    'split these along their data flow (or, with a reason, add them to EXCEPTIONS)',
  );
});

test('every exception still applies', () => {
  const stale = [...EXCEPTIONS.keys()].filter(
    (f) => !files.includes(f) || lines(f) <= (LIMITS.get(f) ?? LIMIT),
  );
  assert.deepEqual(stale, [], 'gone or back under the limit: remove them from EXCEPTIONS');
});
