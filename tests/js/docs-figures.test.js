// docs-figures.test.js: the measured figures the docs quote are what their commands print. Every
// figure marked `<!-- figure: NAME -->VALUE<!-- /figure -->` in README.md or docs/*.md
// (scripts/figures.mjs) must equal the value of that name printed by `node scripts/size.mjs
// --figures` (sizes and counts, recomputed from the tree: deterministic) or `node scripts/bench.mjs
// --figures` (timings, read from the committed bench/results.json: no benchmark runs here, and
// nothing depends on this machine's speed). When one differs, the message names the command that
// rewrites them all. Does not judge unmarked prose: mark a figure to have it kept true.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { markedFigures, markedText } from '../../scripts/figures.mjs';

const COMMANDS = ['scripts/size.mjs', 'scripts/bench.mjs'];
const printed = (script) =>
  JSON.parse(
    execFileSync(
      process.execPath,
      [fileURLToPath(new URL(`../../${script}`, import.meta.url)), '--figures'],
      {
        encoding: 'utf8',
      },
    ),
  );

test('every marked figure in the docs is what its command prints', () => {
  const values = {};
  const from = {};
  for (const script of COMMANDS)
    for (const [name, value] of Object.entries(printed(script))) {
      values[name] = value;
      from[name] = script;
    }
  const marked = markedFigures();
  assert.ok(marked.length > 10, `${marked.length} marked figures`);
  const unknown = marked.filter((f) => !(f.name in values)).map((f) => `${f.page}: ${f.name}`);
  assert.deepEqual(unknown, [], 'marked figures no command prints');
  const stale = marked
    .filter((f) => f.value !== markedText(values[f.name]))
    .map(
      (f) =>
        `${f.page}: ${f.name} is ${JSON.stringify(f.value)}, ${from[f.name]} prints ${JSON.stringify(values[f.name])}`,
    );
  assert.deepEqual(
    stale,
    [],
    'figures differ from what their command prints: `node scripts/size.mjs --write-docs` ' +
      '(sizes) or `node scripts/bench.mjs --write-docs` (the committed benchmark run) rewrites them',
  );
});
