// csv-exports.test.js: every CSV the page writes neutralises spreadsheet formulas with one
// function, web/shared/draw.js csvField (issue #33, row 9).
//
// Checks: csvField itself (a cell starting with = + - @, after spaces, or with a TAB or CR gets a
// leading apostrophe; numbers stay numbers; quoting per RFC 4180); the writers are found by a
// grep of web/ and python/js/ (a function named *csv* / *CSV*, or a file that makes a text/csv
// Blob), and each one found must import csvField, quote nothing by itself, and be listed below with
// a hostile case: a new writer without csvField, or without a case here, fails this test. Each
// listed writer is run with cells `=1+1`, `=HYPERLINK("x")`, `+cmd`, `-2+3`, `@SUM(A1)`, a
// leading TAB and a leading CR, and every such cell of its output must start with an apostrophe.
// The reading view's probabilities CSV (readingCSV) is run with a model whose tokens are `=1+1`
// and `=HYPERLINK("x")` (the case the issue found written unneutralised).

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { csvField } from '../../web/shared/draw.js';
import { csvOf } from '../../web/elements/heatmap-export.js';
import { readingCSV } from '../../web/views/reading-data.js';
import { curveCSV } from '../../web/views/forgetting-data.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const HOSTILE = ['=1+1', '=HYPERLINK("x")', '+cmd', '-2+3', '@SUM(A1)', '\t=1', '\r=1', '  =1'];

/** RFC 4180 fields of a CSV text (CRLF records; quotes doubled inside quoted fields). */
function parseCSV(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') ((field += '"'), i++);
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') (row.push(field), (field = ''));
    else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      ((row = []), (field = ''), i++);
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

/** Every field of the CSV that holds one of the hostile texts must start with an apostrophe. */
function assertNeutral(csv, name) {
  const fields = parseCSV(csv).flat();
  const hits = fields.filter((f) => HOSTILE.some((h) => f.includes(h)));
  assert.ok(hits.length > 0, `${name}: the hostile cells are in its output`);
  for (const f of hits) assert.ok(f.startsWith("'"), `${name}: ${JSON.stringify(f)} neutralised`);
  for (const f of fields) {
    assert.ok(!/^\s*[=+@]/.test(f) && !/^[\t\r]/.test(f), `${name}: ${JSON.stringify(f)}`);
    if (/^\s*-/.test(f)) assert.ok(Number.isFinite(Number(f)), `${name}: ${JSON.stringify(f)}`);
  }
}

/** The writers this test knows, each with a run on hostile cells. */
const WRITERS = {
  csvOf: () => {
    const labels = HOSTILE.slice(0, 4);
    return csvOf({
      label: '=1+1',
      context: { title: '=HYPERLINK("x")', model: '@SUM(A1)', input: '+cmd', output: '-2+3' },
      data: {
        rows: 4,
        cols: 4,
        rowLabels: labels,
        colLabels: HOSTILE.slice(4),
        weights: new Float32Array(16).fill(0.25),
      },
    });
  },
  toCSV: () => WRITERS.csvOf(), // <attn-heatmap>.toCSV() is csvOf of its spec
  readingCSV: () => readingCSV(readingRun(['=1+1', '=HYPERLINK("x")', '@SUM(A1)', '\t=1'])),
  curveCSV: () =>
    curveCSV({
      lengths: [5, 10],
      models: HOSTILE.slice(0, 3).map((name) => ({
        name,
        tokenAccuracy: [1, 0.5],
        exactMatch: [1, -0.25],
      })),
    }),
};

/** A reading-view run (reading-data.js readingData's shape) over the given tokens. */
function readingRun(tokens) {
  const n = tokens.length;
  const weights = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) weights[i * n + j] = 1 / (i + 1);
  return {
    tokens,
    n,
    weights,
    probs: tokens.map((_, i) => (i === 0 ? null : 0.5)),
    result: { logProbs: tokens.slice(1).map(() => Math.log(0.5)) },
  };
}

/** The .js files under a folder (generated bundles and vendored code excluded). */
function jsFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      if (!['vendor', 'node_modules', 'assets'].includes(name)) out.push(...jsFiles(file));
    } else if (/\.m?js$/.test(name)) out.push(file);
  }
  return out;
}

/** The CSV writers in the source: { name → file } for functions or methods named *csv*. */
function findWriters() {
  const writers = new Map();
  const blobFiles = [];
  for (const file of [
    ...jsFiles(path.join(ROOT, 'web')),
    ...jsFiles(path.join(ROOT, 'python/js')),
  ]) {
    const src = readFileSync(file, 'utf8');
    const rel = path.relative(ROOT, file);
    const defs = /^\s*(?:export\s+)?(?:async\s+)?(?:function\s+)?(\w*csv\w*)\s*\([^)]*\)\s*\{/gim;
    for (const m of src.matchAll(defs)) {
      if (m[1] === 'csvField' && rel === 'web/shared/draw.js') continue;
      if (/^(if|for|while|switch)$/.test(m[1])) continue;
      writers.set(m[1], rel);
    }
    if (/text\/csv/.test(src.replace(/accept:[^\n]*/g, ''))) blobFiles.push({ rel, src });
  }
  return { writers, blobFiles };
}

test('csvField: formulas get an apostrophe, numbers stay numbers, quoting per RFC 4180', () => {
  assert.equal(csvField('=1+1'), "'=1+1");
  assert.equal(csvField('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  assert.equal(csvField('+cmd'), "'+cmd");
  assert.equal(csvField('-2+3'), "'-2+3");
  assert.equal(csvField('@SUM(A1)'), "'@SUM(A1)");
  assert.equal(csvField('\t=1'), "'\t=1");
  assert.equal(csvField('\r=1'), `"'\r=1"`);
  assert.equal(csvField('  =1'), "'  =1");
  assert.equal(csvField('-0.25'), '-0.25');
  assert.equal(csvField('+3'), '+3');
  assert.equal(csvField(0.5), '0.5');
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('plain'), 'plain');
});

test('every CSV writer in web/ and python/js/ uses csvField and is checked here', () => {
  const { writers, blobFiles } = findWriters();
  assert.deepEqual(
    [...writers.keys()].sort(),
    Object.keys(WRITERS).sort(),
    `the CSV writers found (${[...writers].map(([n, f]) => `${n} in ${f}`).join(', ')}); ` +
      'a new one needs csvField and a hostile case in WRITERS',
  );
  for (const [name, rel] of writers) {
    const src = readFileSync(path.join(ROOT, rel), 'utf8');
    assert.match(src, /\bcsvField\b|\bcsvOf\(/, `${name} (${rel}) builds its cells with csvField`);
    assert.doesNotMatch(src, /replace\(\/"\/g, '""'\)/, `${rel} quotes CSV by itself`);
  }
  assert.ok(blobFiles.length >= 2, 'the files that download a text/csv Blob are found');
  for (const { rel, src } of blobFiles) {
    const uses = Object.keys(WRITERS).filter((n) => new RegExp(`\\b${n}\\(`).test(src));
    assert.ok(uses.length > 0, `${rel} makes a text/csv Blob from a known writer`);
  }
});

for (const [name, run] of Object.entries(WRITERS)) {
  test(`${name}: every hostile cell is neutralised`, () => assertNeutral(run(), name));
}

test('readingCSV: a model whose tokens are =1+1 and =HYPERLINK("x") writes them neutralised', () => {
  const run = readingRun(['<s>', '=1+1', '=HYPERLINK("x")']);
  run.weights.set([0.2, 0.7, 0.1], 6); // the third word looks hardest at =1+1
  const rows = parseCSV(readingCSV(run));
  assert.deepEqual(rows[0], [
    'index',
    'token',
    'probability',
    'log_probability',
    'strongest_earlier',
    'weight',
  ]);
  assert.equal(rows[2][1], "'=1+1");
  assert.equal(rows[3][1], `'=HYPERLINK("x")`);
  assert.equal(rows[3][4], "'=1+1", 'the strongest earlier word, neutralised too');
});
