// comment-paths.test.js: a comment that names a file names one that exists. Reads the comments of
// every source file of src/, wasm/, web/, python/, scripts/ and tests/ (// and /* */ in C, JS and
// CSS, # in Python, <!-- --> in HTML), finds the path-like mentions of repository files in them
// and fails listing every one that names no file, as file:line, so a move that leaves comments
// behind is caught in one run.
//
// A mention is a word with a slash and a file extension (web/shared/models.js, src/api/model.h,
// docs/lab.md, views/heads-view.js, a relative one, attnlab/web/data/reviews.js as the headers
// write it). It exists when it names a file from the repository's root, or from the commenting
// file's folder or any folder above it (usage lines are written from where a caller stands:
// an import of './data/reviews.js' in the usage line of web/data/reviews.js). Not mentions:
// URLs; absolute paths (/tmp/m.safetensors); globs and placeholders (*, <name>, {a,b}, …); build
// outputs (dist/, build/); words whose first folder exists nowhere on those paths
// (karpathy/llama2.c, torch/nn/functional.py), which name other projects' files; and relative
// specifiers in the comments of tests/, which quote other modules' imports as examples.

import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from './import-graph.js';

const FOLDERS = ['src', 'wasm', 'web', 'python', 'scripts', 'tests'];
const SKIPPED = new Set([
  'node_modules',
  '__pycache__',
  'corpus',
  'screenshots',
  'crashes',
  'build',
  'dist',
]);
const EXT =
  'js|mjs|cjs|ts|c|h|py|md|json|html|css|wasm|safetensors|toml|ipynb|txt|sh|ya?ml|svg|bin';
const MENTION = new RegExp(
  `(?<![\\w./-])(\\.{0,2}/?[\\w.@-]+(?:/[\\w.@-]+)+\\.(?:${EXT}))(?![\\w/-])`,
  'g',
);

/** Source files under dir (relative to ROOT, forward slashes). */
function sources(dir) {
  const out = [];
  for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) {
      if (!SKIPPED.has(e.name) && !e.name.endsWith('.egg-info') && rel !== 'python/attnlab/assets')
        out.push(...sources(rel));
    } else if (/\.(m?js|ts|c|h|py|html|css)$/.test(e.name)) out.push(rel);
  }
  return out;
}

/** The comments of a source file as [line number, text] pairs, one per line of comment. */
function comments(rel) {
  const src = readFileSync(path.join(ROOT, rel), 'utf8');
  const out = [];
  const at = (i) => src.slice(0, i).split('\n').length;
  const push = (start, text) =>
    text.split('\n').forEach((line, k) => out.push([at(start) + k, line]));
  let re;
  if (rel.endsWith('.py')) re = /(?<=^|\s)#(.*)$/gm;
  else if (rel.endsWith('.html')) re = /<!--([\s\S]*?)-->/g;
  // a // not inside a string or URL: after a line start or a space (as import-graph.js reads them)
  else re = /\/\*([\s\S]*?)\*\/|(?<=^|\s)\/\/(.*)$/gm;
  for (const m of src.matchAll(re)) push(m.index, m[1] ?? m[2] ?? '');
  return out;
}

/** Whether a mention in the file rel names an existing file; null when it is no mention. */
function exists(rel, mention) {
  const name = mention.replace(/^attnlab\//, '');
  const relative = name.startsWith('./') || name.startsWith('../');
  if (name.startsWith('/') || (relative && rel.startsWith('tests/'))) return null;
  const first = name.replace(/^(\.\.?\/)+/, '').split('/')[0];
  if (['dist', 'build', 'node_modules'].includes(first)) return null;
  const bases = [];
  for (let d = path.dirname(rel); ; d = path.dirname(d)) {
    bases.push(d);
    if (d === '.') break;
  }
  if (!relative && !bases.some((b) => existsSync(path.join(ROOT, b, first)))) return null;
  return bases.some((b) => {
    const p = path.join(ROOT, b, name);
    return existsSync(p) && statSync(p).isFile();
  });
}

test('every file a comment names exists', () => {
  const files = FOLDERS.flatMap(sources);
  assert.ok(files.length > 300, `found the sources (${files.length} files)`);
  const stale = [];
  let checked = 0;
  for (const rel of files)
    for (const [line, text] of comments(rel))
      for (const m of text.replace(/\b\w+:\/\/\S+/g, ' ').matchAll(MENTION)) {
        const ok = exists(rel, m[1]);
        if (ok === null) continue;
        checked++;
        if (!ok) stale.push(`${rel}:${line}: ${m[1]}`);
      }
  assert.ok(checked > 500, `checked the mentions (${checked})`);
  assert.deepEqual(stale, [], `${stale.length} comments name files that do not exist`);
});
