// lab-files.test.js: the lab's dependencies point one way (issue #34, docs/lab.md "How it is
// built"; its files' sizes are tests/js/file-sizes.test.js's). lab-view.js (the element's wiring)
// imports the form, runs, paint and style modules, which import neither it nor each other, and
// lab-constants.js imports nothing of the lab but spec.js; the shipped worker (lab-worker.js)
// imports the engine and the real task and spec modules, nothing named by a message
// (lab-engine.test.js sends it one). Edges come from import-graph.js (static imports and literal
// dynamic ones, comments stripped).

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, importsOf } from './import-graph.js';

const LAB = path.join(ROOT, 'web/lab');
/** The lab modules file imports, by file name. */
const labImports = (name) =>
  importsOf(path.join(LAB, name))
    .filter((f) => path.dirname(f) === LAB)
    .map((f) => path.basename(f))
    .sort();

test('the view wires form, runs and paint; they import neither it nor each other', () => {
  const parts = ['lab-form.js', 'lab-runs.js', 'lab-paint.js', 'lab-style.js'];
  const view = labImports('lab-view.js');
  for (const p of [...parts, 'lab-constants.js']) assert.ok(view.includes(p), `lab-view.js → ${p}`);
  for (const f of readdirSync(LAB).filter((x) => x.endsWith('.js')))
    assert.ok(!labImports(f).includes('lab-view.js'), `${f} imports lab-view.js`);
  for (const p of parts) {
    const got = labImports(p);
    assert.deepEqual(
      got.filter((d) => parts.includes(d)),
      [],
      `${p} imports another part: ${got}`,
    );
    assert.ok(got.includes('lab-constants.js'), `${p} → lab-constants.js`);
  }
  assert.deepEqual(labImports('lab-constants.js'), ['spec.js']);
});

test('the shipped worker imports the engine, tasks.js and spec.js, nothing else of the lab', () => {
  assert.deepEqual(labImports('lab-worker.js'), [
    'engine.js',
    'spec.js',
    'tasks.js',
    'worker-port.js',
  ]);
  for (const f of ['lab-worker.js', 'engine.js', 'engine-model.js']) {
    const src = readFileSync(path.join(LAB, f), 'utf8');
    assert.doesNotMatch(src, /import\(\s*[^'"`\s]/, `${f} imports no module by a computed name`);
  }
});
