// The intermediate states of the memory-rnn models, `{ states: true }` on Model.run and
// Model.classify (wasm/model/rnn-states.js over al_model_memory_states; docs/states.md), against
// the PyTorch fixture tests/fixtures/states_memory_rnn.safetensors
// (scripts/fixture_modules/states_rnn.py, python/attnlab/torch/memory_rnn.py): every field of
// every case (lstmn, self-attention-rnn additive and dot, lstm; lm and classifier heads), at
// atol 1e-5 + rtol 1e-5·|expected| (the 1e-5, tighter than STYLE.md's whole-model rtol 1e-4; -Infinity scores must
// match exactly). Also: states.weights equal the plain run's attention bit for bit, the plain
// result is unchanged by the option, bad option values are AttnlabErrors naming the option.
// Both builds, one process.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { AttnlabError } from '../../wasm/index.js';
import {
  fixtureSuite,
  ids,
  modelUrl,
  plainOf,
  sameBits,
  wantMasked as want,
} from './model-fixtures.js';

function runStatesSuite({ simd }) {
  const fx = fixtureSuite({
    simd,
    reference: 'states_memory_rnn',
    label: 'memory-rnn states',
    tol: { atol: 1e-5, rtol: 1e-5 },
  });
  const { ref, close, build, loadModel } = fx;

  for (const c of ref.cases) {
    const entries = c.head === 'lm' ? ['run'] : ['run', 'classify'];
    for (const entry of entries) {
      test(`${build}: ${c.name}: ${entry} states match PyTorch; the plain result is unchanged`, async () => {
        const base = fx.api.liveAllocations();
        const model = await loadModel(modelUrl(c));
        try {
          const input = ids(c.tensors.ids);
          const r = model[entry](input, { states: true });
          const s = r.states;
          assert.equal(s.cell, c.cell, `${c.name}: cell`);
          if (c.cell === 'sarnn') assert.equal(s.align, model.config.align ?? 'additive');
          const got = Object.keys(s).filter((k) => k !== 'cell' && k !== 'align');
          assert.deepEqual(got.sort(), [...c.fields].sort(), `${c.name}: the fields of ${c.cell}`);
          for (const f of c.fields) {
            const w = want(c, f);
            assert.deepEqual(s[f].shape, w.shape, `${c.name} ${f} shape`);
            close(f, s[f], w, c);
          }
          const plain = model[entry](input);
          assert.equal(plain.states, undefined, 'no states unless asked');
          assert.deepEqual(plainOf(r), plainOf(plain), 'the result apart from states');
          if (c.cell !== 'lstm')
            assert.ok(c.tensors.scores_unread.data.some(Boolean), 'some scores are -Infinity');
          if (c.cell === 'lstm') {
            assert.deepEqual(plain.attention, [], 'lstm: no attention, no scores or weights');
          } else {
            assert.ok(
              sameBits(s.weights.data, plain.attention[0].weights.data),
              `${c.name}: states.weights are the run's attention, bit for bit`,
            );
          }
          if (c.head === 'lm') {
            // with distributions too: both options together
            const both = model.run(input, { states: true, distributions: true });
            assert.ok(both.distributions && both.states);
          }
        } finally {
          model.dispose();
        }
        assert.equal(fx.api.liveAllocations(), base, 'no leak');
      });
    }
  }

  test(`${build}: bad states options are AttnlabErrors naming the option`, async () => {
    for (const c of [
      ref.cases.find((x) => x.head === 'lm'),
      ref.cases.find((x) => x.head !== 'lm'),
    ]) {
      const model = await loadModel(modelUrl(c));
      try {
        const input = ids(c.tensors.ids);
        const entries = c.head === 'lm' ? ['run'] : ['run', 'classify'];
        for (const entry of entries) {
          for (const bad of ['yes', 0, null, []]) {
            assert.throws(
              () => model[entry](input, { states: bad }),
              (e) =>
                e instanceof AttnlabError &&
                new RegExp(`Model\\.${entry}: options\\.states must be true or false`).test(
                  e.message,
                ),
              `${entry} states: ${String(bad)}`,
            );
          }
        }
      } finally {
        model.dispose();
      }
    }
  });
}

for (const simd of [false, true]) runStatesSuite({ simd });
