// The trainer API the lab's data-parallel engine and checkpoints stand on (wasm/train.js over
// src/api/train.c: al_trainer_apply, al_trainer_terms, al_trainer_get_state/set_state):
//   - step(batch) and gradient(batch) + applyGradient(that gradient) give the same bits (Adam and
//     SGD with momentum, clipping active);
//   - two halves of a batch combined by their token counts give the whole batch's gradient
//     (within 1e-6 relative to the largest element: summation order only);
//   - a checkpoint (save() bytes + exportState()) restored into a fresh model and trainer
//     continues with the same losses, bit for bit;
//   - bad gradients and states are refused with an AttnlabError that names the problem, and
//     leave the trainer as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  init,
  createModel,
  createTrainer,
  loadTrainableModel,
  saveModel,
  AttnlabError,
} from '../../wasm/index.js';

await init();

// a reverse task over a 6-letter alphabet: small, different lengths in one batch
const LETTERS = 'abcdef';
const TOKENIZER = {
  type: 'char',
  srcVocab: ['<pad>', '<unk>', ...LETTERS],
  tgtVocab: ['<pad>', '<bos>', '<eos>', '<unk>', ...LETTERS],
  pad: '<pad>',
  unk: '<unk>',
  bos: '<bos>',
  eos: '<eos>',
};
const CONFIG = {
  architecture: 'seq2seq',
  cell: 'lstm',
  embeddingSize: 8,
  hiddenSize: 12,
  numLayers: 1,
  bidirectional: true,
  attention: 'additive',
  style: 'bahdanau',
  attentionSize: 10,
  maxLength: 12,
  tokenizer: TOKENIZER,
};

/** Deterministic pairs: a small LCG over (seed, i). */
function pairs(seed, count) {
  let s = (seed * 2654435761) >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  return Array.from({ length: count }, () => {
    const n = 1 + Math.floor(next() * 8);
    const src = Array.from({ length: n }, () => LETTERS[Math.floor(next() * LETTERS.length)]).join(
      '',
    );
    return { src, tgt: [...src].reverse().join('') };
  });
}

async function fresh(options) {
  const model = await createModel(CONFIG, { seed: 5 });
  return { model, trainer: createTrainer(model, options) };
}

const same = (a, b, what) => {
  assert.equal(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) {
    if (!Object.is(a[i], b[i])) assert.fail(`${what}: differs at ${i}: ${a[i]} vs ${b[i]}`);
  }
};

for (const options of [
  { optimizer: 'adam', lr: 1e-2, clip: 0.05 },
  { optimizer: 'sgd', lr: 0.3, momentum: 0.9, clip: 0.05 },
]) {
  test(`step(batch) equals gradient(batch) + applyGradient bit for bit (${options.optimizer})`, async () => {
    const a = await fresh(options),
      b = await fresh(options);
    let clipped = 0;
    for (let s = 0; s < 8; s++) {
      const batch = pairs(s, 12);
      const la = a.trainer.step(batch);
      const { loss, terms, gradient } = b.trainer.gradient(batch);
      assert.ok(Object.is(loss, la), `step ${s}: loss ${loss} vs ${la}`);
      const tokens = batch.reduce((n, p) => n + p.tgt.length + 1, 0); // eos included
      assert.equal(terms, tokens, 'terms counts every target token, eos included');
      b.trainer.applyGradient(gradient);
      if (b.trainer.gradNorm > options.clip) clipped++;
      assert.ok(Object.is(a.trainer.gradNorm, b.trainer.gradNorm), `step ${s}: gradient norm`);
    }
    assert.ok(clipped > 0, 'clipping took part');
    assert.equal(b.trainer.steps, 8);
    same(saveModel(a.model), saveModel(b.model), 'weights after 8 steps');
    a.model.dispose();
    b.model.dispose();
  });
}

test('two halves combined by token count give the whole batch gradient (1e-6 relative)', async () => {
  const { model, trainer } = await fresh();
  for (let s = 0; s < 3; s++) trainer.step(pairs(100 + s, 16)); // away from the initial point
  const batch = pairs(7, 20);
  const whole = trainer.gradient(batch);
  const h1 = trainer.gradient(batch.slice(0, 7));
  const h2 = trainer.gradient(batch.slice(7));
  assert.equal(h1.terms + h2.terms, whole.terms);
  const N = h1.terms + h2.terms;
  let scale = 0,
    worst = 0,
    at = -1;
  for (let i = 0; i < whole.gradient.length; i++)
    scale = Math.max(scale, Math.abs(whole.gradient[i]));
  for (let i = 0; i < whole.gradient.length; i++) {
    const g = (h1.terms * h1.gradient[i] + h2.terms * h2.gradient[i]) / N;
    const d = Math.abs(g - whole.gradient[i]);
    if (d > worst) [worst, at] = [d, i];
  }
  const loss = (h1.terms * h1.loss + h2.terms * h2.loss) / N;
  console.log(
    `worst |combined − whole| ${worst.toExponential(2)} at ${at} (largest |g| ${scale.toExponential(2)}); loss ${Math.abs(loss - whole.loss).toExponential(2)}`,
  );
  assert.ok(worst <= 1e-6 * scale, `worst ${worst} at ${at} > 1e-6 × ${scale}`);
  assert.ok(Math.abs(loss - whole.loss) <= 1e-6 * whole.loss);
  model.dispose();
});

for (const options of [
  { optimizer: 'adam', lr: 1e-2 },
  { optimizer: 'sgd', lr: 0.3, momentum: 0.5 },
  { optimizer: 'sgd', lr: 0.3 },
]) {
  const name = `${options.optimizer}${options.momentum ? ' + momentum' : ''}`;
  test(`a restored checkpoint continues with the same losses bit for bit (${name})`, async () => {
    const a = await fresh(options);
    for (let s = 0; s < 5; s++) a.trainer.step(pairs(s, 10));
    const bytes = a.trainer.save();
    const state = a.trainer.exportState();
    assert.equal(state.steps, 5);
    const n = state.m1.length || state.m2.length;
    if (options.optimizer === 'adam')
      assert.ok(state.m1.length > 0 && state.m2.length === state.m1.length);
    else assert.equal(state.m2.length, 0);
    if (options.optimizer === 'sgd' && !options.momentum) assert.equal(n, 0);
    const ahead = [];
    for (let s = 5; s < 10; s++) ahead.push(a.trainer.step(pairs(s, 10)));

    const model = await loadTrainableModel(bytes);
    const trainer = createTrainer(model, options);
    trainer.importState(state);
    assert.equal(trainer.steps, 5);
    const again = [];
    for (let s = 5; s < 10; s++) again.push(trainer.step(pairs(s, 10)));
    same(again, ahead, 'losses after the restore');
    same(saveModel(model), saveModel(a.model), 'weights after the restore');
    a.model.dispose();
    model.dispose();
  });
}

test('bad gradients and states are refused by name and change nothing', async () => {
  const { model, trainer } = await fresh();
  trainer.step(pairs(1, 8));
  const { gradient } = trainer.gradient(pairs(2, 8));
  const before = saveModel(model);
  const state = trainer.exportState();
  const refuse = (fn, code, re) =>
    assert.throws(
      fn,
      (e) => e instanceof AttnlabError && e.code === code && re.test(e.message),
      `${re}`,
    );

  refuse(
    () => trainer.applyGradient(gradient.subarray(1)),
    'AL_ERR_SHAPE',
    new RegExp(`has ${gradient.length - 1} values; this model needs ${gradient.length}`),
  );
  refuse(
    () => trainer.applyGradient('nope'),
    'AL_ERR_ARGUMENT',
    /must be a Float32Array or an array of numbers, got string/,
  );
  const nan = gradient.slice();
  nan[17] = NaN;
  refuse(() => trainer.applyGradient(nan), 'AL_ERR_NONFINITE', /contains NaN at flat index 17/);
  const inf = gradient.slice();
  inf[3] = Infinity;
  refuse(() => trainer.applyGradient(inf), 'AL_ERR_NONFINITE', /contains Infinity at flat index 3/);

  refuse(() => trainer.importState(null), 'AL_ERR_ARGUMENT', /state must be an object/);
  refuse(
    () => trainer.importState({ ...state, steps: -1 }),
    'AL_ERR_RANGE',
    /state.steps must be an integer/,
  );
  refuse(
    () => trainer.importState({ ...state, steps: 1.5 }),
    'AL_ERR_RANGE',
    /state.steps must be an integer/,
  );
  refuse(
    () => trainer.importState({ ...state, m1: state.m1.subarray(2) }),
    'AL_ERR_SHAPE',
    /state.m1 \(Adam keeps two moments.*has \d+ values; this model needs/,
  );
  refuse(
    () => trainer.importState({ ...state, m2: new Float32Array(0) }),
    'AL_ERR_SHAPE',
    /state.m2/,
  );
  const bad1 = state.m1.slice();
  bad1[5] = -Infinity;
  refuse(
    () => trainer.importState({ ...state, m1: bad1 }),
    'AL_ERR_NONFINITE',
    /state.m1 contains -Infinity at flat index 5/,
  );
  const bad2 = state.m2.slice();
  bad2[9] = -1e-3;
  refuse(
    () => trainer.importState({ ...state, m2: bad2 }),
    'AL_ERR_RANGE',
    /state.m2 has a negative value/,
  );

  assert.equal(trainer.steps, 1, 'steps unchanged');
  same(saveModel(model), before, 'weights unchanged');
  const after = trainer.exportState();
  same(after.m1, state.m1, 'm1 unchanged');
  same(after.m2, state.m2, 'm2 unchanged');

  const sgd = createTrainer(model, { optimizer: 'sgd', lr: 0.1 });
  refuse(() => sgd.importState(state), 'AL_ERR_SHAPE', /plain SGD keeps none/);
  sgd.importState({ steps: 3, m1: [], m2: [] });
  assert.equal(sgd.steps, 3);
  trainer.dispose();
  assert.throws(() => trainer.gradient(pairs(1, 2)), /disposed/);
  model.dispose();
});
