// Label smoothing (createTrainer's labelSmoothing; src/models/loss.h, api/train.h):
//   - every trainable architecture's smoothed loss and gradient equal PyTorch's
//     F.cross_entropy(label_smoothing=0.1) under autograd (tests/fixtures/label_smoothing.safetensors,
//     scripts/fixture_modules/label_smoothing.py), atol 1e-5 rtol 1e-4, by the default trainer and
//     by the per-sentence reference path;
//   - 0 is the plain cross-entropy bit for bit, and the loss is linear in ε (a known answer: the
//     target is (1 − ε)·onehot + ε/V, so loss(ε) = loss(0) + ε·(uniform − loss(0)));
//   - a value outside [0, 1), or not a number, is refused naming the option.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { init, loadTrainableModel, createTrainer, AttnlabError } from '../../wasm/index.js';
import { loadFixture, assertClose } from './fixtures.js';

const FIXTURES = new URL('../fixtures/', import.meta.url);
await init();

const { cases, metadata } = loadFixture('label_smoothing');
const EPS = Number(metadata.epsilon);

/** A fixture case's batch as the trainer takes it. */
function batchOf(c, model) {
  const T = c.tensors;
  const B = T.src.shape[0];
  const row = (t, b, n) =>
    Array.from(t.data.subarray(b * t.shape[1], b * t.shape[1] + n), Math.round);
  return Array.from({ length: B }, (_, b) => {
    const src = row(T.src, b, T.src_len.data[b]);
    if (T.label) return { src, label: Math.round(T.label.data[b]) };
    if (!T.tgt) return { src };
    const tgt = row(T.tgt, b, T.tgt_len.data[b]);
    return model.config.variant === 'encoder' ? { src, tags: tgt } : { src, tgt };
  });
}

test('the fixture covers every trainable architecture', () => {
  assert.equal(EPS, 0.1);
  assert.deepEqual([...new Set(cases.map((c) => c.architecture))].sort(), [
    'classifier',
    'memory-rnn',
    'seq2seq',
    'transformer',
  ]);
});

for (const c of cases) {
  test(`${c.name}: the smoothed loss and every gradient equal PyTorch's (ε = ${EPS})`, async () => {
    const model = await loadTrainableModel(readFileSync(new URL(c.file, FIXTURES)));
    try {
      const batch = batchOf(c, model);
      for (const batched of [true, false]) {
        const trainer = createTrainer(model, { labelSmoothing: EPS, batched });
        assert.equal(trainer.labelSmoothing, Math.fround(EPS));
        const label = `${c.name} (batched: ${trainer.batched})`;
        const { loss, gradients } = trainer.gradients(batch);
        assertClose([loss], c.tensors.loss.data, { label: `${label} loss` });
        let n = 0;
        for (const [key, ref] of Object.entries(c.tensors)) {
          if (!key.startsWith('grad.')) continue;
          const got = gradients.get(key.slice(5));
          assert.ok(got, `${label}: no gradient for ${key.slice(5)}`);
          assertClose(got, ref, { label: `${label} d${key.slice(5)}` });
          n++;
        }
        assert.equal(n, gradients.size, `${label}: every tensor has a reference gradient`);
        trainer.dispose();
      }
    } finally {
      model.dispose();
    }
  });
}

test('ε = 0 is the plain cross-entropy bit for bit; the loss and gradient are linear in ε', async () => {
  for (const c of cases) {
    const model = await loadTrainableModel(readFileSync(new URL(c.file, FIXTURES)));
    const batch = batchOf(c, model);
    const at = (options) => {
      const trainer = createTrainer(model, options);
      const { loss, gradients } = trainer.gradients(batch);
      const flat = [...gradients.values()].flatMap((g) => [...g.data]);
      trainer.dispose();
      return { loss, flat };
    };
    const plain = at({}),
      zero = at({ labelSmoothing: 0 }),
      a = at({ labelSmoothing: 0.25 }),
      b = at({ labelSmoothing: 0.5 });
    assert.equal(zero.loss, plain.loss, `${c.name}: loss at 0`);
    assert.deepEqual(zero.flat, plain.flat, `${c.name}: gradient at 0`);
    assert.notEqual(a.loss, plain.loss, `${c.name}: 0.25 changes the loss`);
    // loss(0.5) − loss(0) = 2 (loss(0.25) − loss(0)), and the same for every gradient element
    // (Lin's penalty does not depend on ε, so it cancels)
    const tol = (x) => 1e-5 + 1e-4 * Math.abs(x);
    const want = 2 * a.loss - plain.loss;
    assert.ok(Math.abs(b.loss - want) <= tol(want), `${c.name}: loss ${b.loss} vs ${want}`);
    let worst = 0;
    b.flat.forEach((g, i) => {
      const w = 2 * a.flat[i] - plain.flat[i];
      worst = Math.max(worst, Math.abs(g - w) / tol(w));
    });
    assert.ok(
      worst <= 1,
      `${c.name}: gradient not linear in ε (worst ${worst.toFixed(2)} of tolerance)`,
    );
    model.dispose();
  }
});

test('labelSmoothing outside [0, 1) or not a number is refused, naming it', async () => {
  const c = cases[0];
  const model = await loadTrainableModel(readFileSync(new URL(c.file, FIXTURES)));
  const bad = [-0.1, 1, 1.5, 0.999999999, NaN, Infinity, '0.1', 1e-50, { valueOf: () => 0.1 }];
  for (const value of bad) {
    assert.throws(
      () => createTrainer(model, { labelSmoothing: value }),
      (e) => e instanceof AttnlabError && /labelSmoothing/.test(e.message),
      `labelSmoothing ${String(value)}`,
    );
  }
  assert.match(
    (() => {
      try {
        createTrainer(model, { labelSmoothing: 0.999999999 });
      } catch (e) {
        return e.message;
      }
      return '';
    })(),
    /< 1, got 0\.999999999 \(1 in float32\)/,
  );
  const t = createTrainer(model, { labelSmoothing: 0.1 });
  assert.equal(t.labelSmoothing, Math.fround(0.1));
  t.dispose();
  assert.equal(createTrainer(model).labelSmoothing, 0);
  model.dispose();
});
