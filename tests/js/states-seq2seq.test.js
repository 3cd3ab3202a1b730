// The intermediate states of the seq2seq models, `{ states: true }` on Model.run (greedy) and
// Model.score (wasm/model/rnn-states.js over al_model_seq2seq_states; docs/states.md), against
// the PyTorch fixture tests/fixtures/states_seq2seq.safetensors
// (scripts/fixture_modules/states_rnn.py, python/attnlab/torch/seq2seq.py): every field of every
// case, at atol 1e-5 + rtol 1e-5·|expected| (the 1e-5, tighter than STYLE.md's whole-model rtol 1e-4; -Infinity scores
// must match exactly). Also: states.weights equal the plain run's attention bit for bit, the
// plain result is unchanged by the option, bad option values (states: 'yes', states with beam
// search) are AttnlabErrors naming the option, and nothing leaks. Both builds, one process.
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
    reference: 'states_seq2seq',
    label: 'seq2seq states',
    tol: { atol: 1e-5, rtol: 1e-5 },
  });
  const { ref, close, build, loadModel } = fx;

  /** Every field the fixture has for `which` (greedy / score) against states, and no others. */
  function compare(c, states, which) {
    assert.equal(states.style, c.style, `${c.name}: style`);
    assert.equal(states.attention, c.attention, `${c.name}: attention`);
    const got = Object.keys(states).filter((k) => k !== 'style' && k !== 'attention');
    assert.deepEqual(got.sort(), [...c.fields].sort(), `${c.name}: the fields of ${c.attention}`);
    for (const f of c.fields) {
      const w = want(c, `${which}.${f}`);
      assert.deepEqual(states[f].shape, w.shape, `${c.name} ${which}.${f} shape`);
      close(`${which}.${f}`, states[f], w, c);
    }
  }

  for (const c of ref.cases) {
    test(`${build}: ${c.name}: greedy run states match PyTorch; the plain run is unchanged`, async () => {
      const base = fx.api.liveAllocations();
      const model = await loadModel(modelUrl(c));
      try {
        const src = ids(c.tensors.src);
        const r = model.run(src, { states: true });
        assert.deepEqual([...r.ids], [...ids(c.tensors.greedy_ids)], `${c.name}: greedy ids`);
        compare(c, r.states, 'greedy');
        const plain = model.run(src);
        assert.equal(plain.states, undefined, 'no states unless asked');
        assert.deepEqual(plainOf(r), plainOf(plain), 'the result apart from states');
        assert.ok(
          sameBits(r.states.weights.data, plain.attention[0].weights.data),
          `${c.name}: states.weights are the run's attention, bit for bit`,
        );
        assert.deepEqual(r.states.weights.shape, plain.attention[0].weights.shape);
        assert.deepEqual(plainOf(model.run(src, { states: false })), plainOf(plain));
      } finally {
        model.dispose();
      }
      assert.equal(fx.api.liveAllocations(), base, 'no leak');
    });

    test(`${build}: ${c.name}: score states match PyTorch; the plain score is unchanged`, async () => {
      const model = await loadModel(modelUrl(c));
      try {
        const src = ids(c.tensors.src),
          tgt = ids(c.tensors.tgt);
        const r = model.score(src, tgt, { states: true });
        compare(c, r.states, 'score');
        if (c.attention.startsWith('local'))
          assert.ok(
            c.tensors['score.scores_unread'].data.some(Boolean),
            'a window leaves keys out',
          );
        const plain = model.score(src, tgt);
        assert.deepEqual(plainOf(r), plainOf(plain), 'the result apart from states');
        assert.ok(sameBits(r.states.weights.data, plain.attention.data), 'weights bit for bit');
        assert.ok(sameBits(r.states.logProbs.data, plain.distributions.data), 'logProbs');
        if (plain.positions) assert.ok(sameBits(r.states.positions.data, plain.positions));
      } finally {
        model.dispose();
      }
    });
  }

  test(`${build}: bad states options are AttnlabErrors naming the option`, async () => {
    const model = await loadModel(modelUrl(ref.cases[0]));
    try {
      const src = ids(ref.cases[0].tensors.src);
      for (const bad of ['yes', 1, null, {}]) {
        assert.throws(
          () => model.run(src, { states: bad }),
          (e) =>
            e instanceof AttnlabError && /options\.states must be true or false/.test(e.message),
          `run states: ${String(bad)}`,
        );
        assert.throws(
          () => model.score(src, [4, 2], { states: bad }),
          (e) => e instanceof AttnlabError && /Model\.score: options\.states/.test(e.message),
        );
      }
      assert.throws(
        () => model.run(src, { states: true, beamWidth: 3 }),
        (e) =>
          e instanceof AttnlabError &&
          /options\.states/.test(e.message) &&
          /options\.beamWidth is 3/.test(e.message),
      );
      assert.throws(
        () => model.score(src, [4, 2], { state: true }),
        (e) => e instanceof AttnlabError && /unknown option 'state'/.test(e.message),
      );
      // beam search without states still runs
      assert.ok(model.run(src, { beamWidth: 3, states: false }).ids.length >= 1);
    } finally {
      model.dispose();
    }
  });
}

for (const simd of [false, true]) runStatesSuite({ simd });
