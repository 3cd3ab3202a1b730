// lab-checkpoints.test.js: checkpoints are data, checked before use (issue 33, rows 3, 7, 8):
// checkpointProblem / recordProblem (web/lab/checkpoints.js) refuse a record read back from
// IndexedDB whose types, lengths or numbers are wrong, by name, before any length is trusted
// (`losses: { length: 1e9 }` froze Resume for 56 s); the engine (engine-model.js, with the real
// tasks and spec) refuses an optimiser step count near 2^31 − 1 or non-finite moments, and a
// checkpoint whose tokenizer is not the experiment's (same tensors, other characters).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkpointProblem,
  recordProblem,
  MAX_STEPS,
  MAX_MOMENTS,
} from '../../web/lab/checkpoints.js';
import { createRunState, disposeRun } from '../../web/lab/engine-model.js';
import { DEFAULT_EXPERIMENT } from '../../web/lab/experiment.js';
import * as SPEC from '../../web/lab/spec.js';
import * as TASKS from '../../web/lab/tasks.js';

/** A well-formed run checkpoint of n parameters at step 3 (the numbers need not train). */
const good = (n = 10) => ({
  step: 3,
  bytes: new Uint8Array(16),
  losses: Float32Array.of(2, 1.5, 1.2),
  optimizer: { steps: 3, m1: new Float32Array(n), m2: new Float32Array(n).fill(0.5) },
});
const withOpt = (opt) => ({ ...good(), optimizer: { ...good().optimizer, ...opt } });

test('a well-formed record passes; SGD shapes (m2 empty, or both empty) too', () => {
  assert.equal(checkpointProblem(good()), null);
  assert.equal(recordProblem({ experiment: {}, runs: [good(), good()], saved: 1 }), null);
  assert.equal(checkpointProblem(withOpt({ m2: new Float32Array(0) })), null);
  assert.equal(
    checkpointProblem(withOpt({ m1: new Float32Array(0), m2: new Float32Array(0) })),
    null,
  );
});

test('row 7: losses { length: 1e9 } and other look-alikes are refused by type, at once', () => {
  const cases = [
    [
      { ...good(), losses: { length: 1e9 } },
      /runs\[0\]\.losses must be a Float32Array, got object/,
    ],
    [{ ...good(), losses: new Proxy(new Float32Array(3), {}) }, /losses must be a Float32Array/],
    [{ ...good(), losses: [2, 1.5, 1.2] }, /losses must be a Float32Array, got an array/],
    [
      { ...good(), step: 1e9, losses: { length: 1e9 } },
      /step must be an integer in \[0, 10000000\]/,
    ],
    [{ ...good(), losses: Float32Array.of(2, NaN, 1) }, /losses\[1\] is NaN, not a finite number/],
    [{ ...good(), losses: Float32Array.of(2) }, /losses holds 1 values; a checkpoint at step 3/],
    [{ ...good(), bytes: { length: 5 } }, /bytes must be a Uint8Array/],
    [{ ...good(), step: -1 }, /step must be an integer/],
    [{ ...good(), step: '3' }, /step must be an integer/],
    [{ ...good(), optimizer: null }, /optimizer must be an object/],
    [withOpt({ m1: { length: MAX_MOMENTS * 4 } }), /optimizer\.m1 must be a Float32Array/],
  ];
  for (const [cp, re] of cases) {
    const rec = { experiment: {}, runs: [cp] };
    assert.match(recordProblem(rec) ?? 'accepted', re);
  }
  assert.match(recordProblem({ runs: { length: 1e9 } }), /runs: \[A\] or \[A, B\]/);
  assert.match(recordProblem(null), /must be an object/);
  assert.match(recordProblem({ runs: [good(), good(), good()] }), /\[A\] or \[A, B\]/);
});

test('row 8: optimiser state out of range is refused by name', () => {
  const cases = [
    [
      withOpt({ steps: 2 ** 31 - 1 }),
      /optimizer\.steps must be an integer in \[0, 10000000\], got 2147483647/,
    ],
    [withOpt({ steps: MAX_STEPS + 1 }), /optimizer\.steps must be an integer/],
    [withOpt({ steps: 1.5 }), /optimizer\.steps must be an integer/],
    [
      withOpt({ m1: Float32Array.of(0, Infinity) }),
      /optimizer\.m1\[1\] is Infinity, not a finite number/,
    ],
    [withOpt({ m2: Float32Array.of(NaN) }), /optimizer\.m2\[0\] is NaN/],
    [withOpt({ m2: Float32Array.of(-1, 0) }), /optimizer\.m2\[0\] is -1, not a finite number >= 0/],
    [withOpt({ m2: new Float32Array(4) }), /m2 holds 4 values and m1 10: they must match/],
  ];
  for (const [cp, re] of cases) assert.match(checkpointProblem(cp) ?? 'accepted', re);
  assert.equal(checkpointProblem(withOpt({ steps: MAX_STEPS })), null);
});

// The real engine path (replica 0 in this thread, as the shipped worker runs it): a small custom
// task, so two pair sets can share a vocabulary size and differ in characters.
const custom = (pairs) => ({
  task: { ...DEFAULT_EXPERIMENT.task, name: 'custom', minLength: 1, maxLength: 20, level: 'char' },
  run: {
    model: { ...DEFAULT_EXPERIMENT.a.model, hidden: 16, embed: 8 },
    train: { ...DEFAULT_EXPERIMENT.a.train, batch: 4 },
  },
  pairs,
});
const pairsOf = (letters) =>
  Array.from({ length: 24 }, (_, i) => {
    const s = Array.from({ length: 3 + (i % 4) }, (_, k) => letters[(i + k) % letters.length]).join(
      '',
    );
    return { src: s, tgt: [...s].reverse().join('') };
  });

async function checkpointOf(msg) {
  const r = await createRunState(msg, { tasks: TASKS, spec: SPEC }, () => {});
  try {
    return {
      step: 0,
      bytes: r.trainer.save(),
      optimizer: r.trainer.exportState(),
      losses: new Float32Array(0),
    };
  } finally {
    disposeRun(r);
  }
}

test('rows 3 and 8 in the engine: another tokenizer, a step count at 2^31 − 1, a NaN moment', async () => {
  const mine = custom(pairsOf('abcdef'));
  const cp = await checkpointOf(mine);
  // the same checkpoint resumes its own experiment
  const r = await createRunState(
    { ...mine, checkpoint: cp },
    { tasks: TASKS, spec: SPEC },
    () => {},
  );
  disposeRun(r);
  // same vocabulary sizes, same tensors, other characters: refused, naming the first difference
  const other = custom(pairsOf('uvwxyz'));
  await assert.rejects(
    createRunState({ ...other, checkpoint: cp }, { tasks: TASKS, spec: SPEC }, () => {}),
    /the checkpoint's tokenizer is not this experiment's \(input vocabulary entry 2 is "a", the experiment's "u"\)/,
  );
  const opt = cp.optimizer;
  await assert.rejects(
    createRunState(
      { ...mine, checkpoint: { ...cp, optimizer: { ...opt, steps: 2 ** 31 - 1 } } },
      { tasks: TASKS, spec: SPEC },
      () => {},
    ),
    /init: checkpoint\.optimizer\.steps must be an integer in \[0, 10000000\], got 2147483647/,
  );
  const m1 = opt.m1.slice();
  m1[7] = NaN;
  await assert.rejects(
    createRunState(
      { ...mine, checkpoint: { ...cp, optimizer: { ...opt, m1 } } },
      { tasks: TASKS, spec: SPEC },
      () => {},
    ),
    /init: checkpoint\.optimizer\.m1\[7\] is NaN/,
  );
});
