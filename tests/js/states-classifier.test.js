// Model.classify(input, { states: true }) of the "classifier" architecture (docs/states.md;
// wasm/model/classifier.js over al_model_classifier_states, src/models/classifier_states.c)
// against tests/fixtures/states_classifier.safetensors (scripts/fixture_modules/states_classifier.py:
// PyTorch float64 from the committed classifier_<case> weights; every pooling: attention over
// LSTM / GRU / ReLU RNN, han over bi-GRU and bi-LSTM, structured over bi-LSTM and a 2-layer
// bi-GRU). Every state field within |got − want| <= 1e-5 + 1e-5·|want| (absolute 1e-5 plus
// relative 1e-5), with its exact shape; the states' weights equal the plain result's attention
// exactly (han: also the sentence level); the plain result is the same with and without
// { states: true } (apart from `states`); bad option values give AttnlabErrors naming the
// option; nothing leaks. Both builds, each on its own createAttnlab instance.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { AttnlabError } from '../../wasm/index.js';
import { assertClose } from './fixtures.js';
import { fixtureSuite, ids, modelUrl } from './model-fixtures.js';

const TOL = { atol: 1e-5, rtol: 1e-5 };

/** The fixture's tensor at path `a.b` inside the states object. */
const at = (states, path) => path.split('.').reduce((o, k) => o?.[k], states);

function suite({ simd }) {
  const fx = fixtureSuite({ simd, reference: 'states_classifier', label: 'classifier states' });
  const worst = {};

  for (const c of fx.ref.cases) {
    test(`${fx.build}: ${c.name}: every state matches PyTorch`, async () => {
      const base = fx.api.liveAllocations();
      const model = await fx.loadModel(modelUrl(c));
      try {
        const src = ids(c.tensors.ids);
        const plain = model.classify(src);
        const r = model.classify(src, { states: true });
        const s = r.states;
        assert.equal(s.pooling, c.pooling);
        // the fixture names exactly the fields this pooling has
        const fields = (o, p = '') =>
          Object.entries(o).flatMap(([k, v]) =>
            v && v.data ? [p + k] : v && typeof v === 'object' ? fields(v, `${p}${k}.`) : [],
          );
        const penalty = c.pooling === 'structured' ? ['penalty'] : [];
        assert.deepEqual([...fields(s), ...penalty].sort(), c.fields);
        for (const name of c.fields) {
          const want = c.tensors[name];
          if (name === 'penalty') {
            assertClose([s.penalty], want.data, { ...TOL, label: `${c.name} penalty` });
            continue;
          }
          const got = at(s, name);
          assert.deepEqual(got.shape, want.shape, `${c.name} ${name}: shape`);
          const { maxAbsDiff } = assertClose(got, want, { ...TOL, label: `${c.name} ${name}` });
          worst[name] = Math.max(worst[name] ?? 0, maxAbsDiff);
        }
        // the states are the plain run's numbers
        assert.deepEqual(s.weights.data, plain.attention[0].weights.data);
        assert.deepEqual(s.weights.shape, plain.attention[0].weights.shape);
        assert.deepEqual(s.probs.data, plain.probs);
        if (c.pooling === 'han') {
          assert.deepEqual(s.sentences.weights.data, plain.attention[1].weights.data);
          assert.deepEqual(s.sentences.weights.data, plain.sentenceWeights);
        }
        if (c.pooling === 'structured') assert.equal(s.penalty, plain.penalty);
        // with states, the rest of the result is the plain one
        const { states, ...rest } = r;
        assert.ok(states);
        assert.deepEqual(rest, plain);
        assert.deepEqual(model.run(src, { states: true }), r, 'run is classify');
      } finally {
        model.dispose();
      }
      assert.equal(fx.api.liveAllocations(), base, 'no leak');
    });
  }

  test(`${fx.build}: bad states options are refused by name`, async () => {
    const model = await fx.loadModel(modelUrl(fx.ref.cases[0]));
    try {
      for (const bad of ['yes', 1, null, {}]) {
        assert.throws(
          () => model.classify('the cat', { states: bad }),
          (e) =>
            e instanceof AttnlabError && /options\.states must be true or false/.test(e.message),
          `states: ${String(bad)}`,
        );
      }
      assert.throws(
        () => model.classify('the cat', { state: true }),
        (e) => e instanceof AttnlabError && /unknown option 'state'/.test(e.message),
      );
      assert.equal(model.classify('the cat', { states: false }).states, undefined);
      assert.equal(model.classify('the cat').states, undefined);
    } finally {
      model.dispose();
    }
  });

  test.after(() => {
    console.log(`classifier states (${fx.build}): worst |diff| per field ${JSON.stringify(worst)}`);
  });
}

suite({ simd: true });
suite({ simd: false });
