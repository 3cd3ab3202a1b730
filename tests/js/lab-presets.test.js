// lab-presets.test.js: what the lab's presets claim beside their experiments (web/lab/presets.js,
// issue 30), checked against the models and the docs in Node:
//   - every preset that claims equal sizes (equalSize) compares two models whose parameter
//     counts (model-spec.js parameterCount, which lab-spec.test.js checks against real models)
//     are within 2 %; so does lesson step 1's pair (the shipped reversal models' cards);
//   - every preset says how long it takes to show its result (result.seconds), and that number
//     is the one its source measured: docs/lab.md's measured table (from 'lab') or docs/benchmarks.md's
//     lab rows (from 'bench': steps ÷ steps per second), rounded up; docs/lab.md's table of the
//     presets' times quotes the same numbers.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { PRESETS, checkExperiment, parameterCount } from '../../web/lab/spec.js';
import { EQUAL_SIZE_TOLERANCE, presetFacts } from '../../web/lab/lab-checks.js';
import { makeTask } from '../../web/lab/tasks.js';

const doc = (name) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');
const counts = (p) => {
  const { experiment } = checkExperiment(p.experiment);
  const task = makeTask(experiment.task);
  return [parameterCount(experiment.a.model, task), parameterCount(experiment.b.model, task)];
};

test('presets that claim equal sizes: A and B within 2 % of parameters', () => {
  assert.equal(EQUAL_SIZE_TOLERANCE, 0.02);
  const claiming = PRESETS.filter((p) => p.equalSize);
  assert.ok(
    claiming.some((p) => p.id === 'with-without'),
    'with vs without attention claims it',
  );
  for (const p of claiming) {
    const [a, b] = counts(p);
    assert.ok(Math.abs(a - b) / Math.max(a, b) <= 0.02, `${p.id}: A ${a}, B ${b}`);
  }
  assert.deepEqual(counts(PRESETS.find((p) => p.id === 'with-without')), [71159, 71273]);
});

test("lesson step 1's pair (the shipped reversal models): within 2 % of parameters", () => {
  const card = (name) =>
    JSON.parse(readFileSync(new URL(`../../web/models/${name}.json`, import.meta.url), 'utf8'));
  const a = findParameters(card('seq-reverse-attention'));
  const b = findParameters(card('seq-reverse-none'));
  assert.ok(a > 0 && b > 0, `${a} ${b}`);
  assert.ok(Math.abs(a - b) / Math.max(a, b) <= 0.02, `attention ${a}, none ${b}`);
});

/** The first "parameters" number anywhere in a card. */
function findParameters(o) {
  if (!o || typeof o !== 'object') return undefined;
  if (Number.isFinite(o.parameters)) return o.parameters;
  for (const v of Object.values(o)) {
    const n = findParameters(v);
    if (n !== undefined) return n;
  }
  return undefined;
}

test('presetFacts: the page says both counts, and "equal" only within 2 %', () => {
  const ww = PRESETS.find((p) => p.id === 'with-without');
  const facts = presetFacts(ww.experiment);
  assert.equal(facts.preset.id, 'with-without');
  assert.deepEqual([facts.sizes.a, facts.sizes.b, facts.sizes.equal], [71159, 71273, true]);
  assert.equal(facts.seconds, ww.result.seconds);
  // B back at A's hidden size: no longer the preset, no claim
  const narrow = JSON.parse(JSON.stringify(ww.experiment));
  narrow.b.model.hidden = 64;
  assert.equal(presetFacts(narrow).preset, null);
  assert.equal(presetFacts(narrow).seconds, null);
});

test("every preset's time to its result is its source's measurement, rounded up", () => {
  const lab = doc('lab.md');
  const bench = doc('benchmarks.md');
  for (const p of PRESETS) {
    const r = p.result;
    assert.ok(r && Number.isInteger(r.seconds) && r.seconds > 0, `${p.id}: result.seconds`);
    if (r.from === 'lab') {
      // the batched column of docs/lab.md's "Measured" table: "**met at 69.1 s**"
      const row = lab
        .split('\n')
        .find((l) => l.startsWith(`| ${r.row} |`) && l.includes('**met at'));
      assert.ok(row, `${p.id}: docs/lab.md has the row "${r.row}"`);
      const s = Number(/\*\*met at ([\d.]+) s\*\*/.exec(row)[1]);
      assert.equal(r.seconds, Math.ceil(s), `${p.id}: ${s} s measured`);
    } else {
      assert.equal(r.from, 'bench', p.id);
      // docs/benchmarks.md's lab rows: | preset | run | model | task | batch | parameters | 1 worker | …
      const row = bench
        .split('\n')
        .find((l) => l.startsWith(`| ${p.id} | ${r.run.toUpperCase()} |`));
      assert.ok(row, `${p.id}: a lab row in docs/benchmarks.md`);
      const rate = Number(row.split('|')[7].trim().split(' ')[0]);
      assert.ok(rate > 0, `${p.id}: ${row}`);
      assert.equal(r.seconds, Math.ceil(r.steps / rate), `${p.id}: ${r.steps} steps at ${rate}/s`);
    }
  }
});

test("docs/lab.md's table of the presets' times quotes presets.js", () => {
  const lab = doc('lab.md');
  for (const p of PRESETS) {
    const row = lab.split('\n').find((l) => l.startsWith(`| \`${p.id}\` |`));
    assert.ok(row, `docs/lab.md lists ${p.id}'s time`);
    assert.equal(Number(row.split('|')[2].trim().replace(/ s$/, '')), p.result.seconds, p.id);
  }
});
