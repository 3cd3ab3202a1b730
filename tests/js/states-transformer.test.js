// Model.forward(..., { states: true }) and Model.run(input, { states: true }) of the
// "transformer" architecture (docs/states.md; wasm/model/transformer.js over
// al_model_transformer_states, src/models/transformer_states.c) against
// tests/fixtures/states_transformer.safetensors (scripts/fixture_modules/states_transformer.py:
// PyTorch float64 from the committed transformer_<case> weights, self-checked against
// nn.TransformerEncoderLayer / DecoderLayer; encoder, decoder and encoder-decoder variants,
// learned, sinusoidal and Shaw relative positions, pre- and post-norm, causal decoders).
// Every state field within |got − want| <= 1e-5 + 1e-5·|want| (absolute 1e-5 plus relative
// 1e-5; masked scores are -Infinity on both sides), with its exact shape; the sublayers'
// stack / layer / kind; their weights equal the plain result's attention maps exactly, the
// logits equal the plain logits; the plain result is the same with and without states; run()
// gives the states of the final forward; bad option values give AttnlabErrors naming the option.
// Both builds, each on its own createAttnlab instance.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { AttnlabError } from '../../wasm/index.js';
import { assertClose } from './fixtures.js';
import { fixtureSuite, ids, modelUrl } from './model-fixtures.js';

const TOL = { atol: 1e-5, rtol: 1e-5 };
const SUB_FIELDS = [
  'input',
  'normed',
  'q',
  'k',
  'v',
  'scores',
  'relative',
  'weights',
  'heads',
  'concat',
  'projected',
  'residual',
];

function suite({ simd }) {
  const fx = fixtureSuite({ simd, reference: 'states_transformer', label: 'transformer states' });
  const worst = {};
  const close = (c, name, got, want) => {
    assert.ok(got, `${c.name} ${name}: present`);
    assert.deepEqual(got.shape, want.shape, `${c.name} ${name}: shape`);
    const { maxAbsDiff } = assertClose(got, want, { ...TOL, label: `${c.name} ${name}` });
    const key = name.replace(/\.\d+\./, '.');
    worst[key] = Math.max(worst[key] ?? 0, maxAbsDiff);
  };

  for (const c of fx.ref.cases) {
    test(`${fx.build}: ${c.name}: every state matches PyTorch`, async () => {
      const base = fx.api.liveAllocations();
      const model = await fx.loadModel(modelUrl(c));
      try {
        const t = c.tensors;
        const ed = c.variant === 'encoder-decoder';
        const src = ids(t.src);
        const tgt = ed ? ids(t.tgt) : undefined;
        const plain = ed ? model.forward(src, tgt) : model.forward(src);
        const r = ed
          ? model.forward(src, tgt, { states: true })
          : model.forward(src, { states: true });
        const s = r.states;
        assert.equal(s.variant, c.variant);
        const sides = (o) => Object.keys(o).sort();
        const want = (prefix) =>
          Object.keys(t)
            .filter((k) => k.startsWith(prefix))
            .map((k) => k.slice(prefix.length))
            .sort();
        assert.deepEqual(sides(s.embedded), want('embedded.'));
        assert.deepEqual(sides(s.final), want('final.'));
        for (const side of sides(s.embedded))
          close(c, `embedded.${side}`, s.embedded[side], t[`embedded.${side}`]);
        for (const side of sides(s.final))
          close(c, `final.${side}`, s.final[side], t[`final.${side}`]);
        close(c, 'logits', s.logits, t.logits);
        assert.equal(s.sublayers.length, c.sublayers.length);
        s.sublayers.forEach((sub, i) => {
          const [stack, layer, kind] = c.sublayers[i];
          assert.deepEqual([sub.stack, sub.layer, sub.kind], [stack, layer, kind], `sublayer ${i}`);
          const names = SUB_FIELDS.filter((f) => `sub.${i}.${f}` in t);
          assert.deepEqual(
            SUB_FIELDS.filter((f) => f in sub),
            names,
            `${c.name} sublayer ${i}: its fields`,
          );
          for (const f of names) close(c, `sub.${i}.${f}`, sub[f], t[`sub.${i}.${f}`]);
          // the weights are the plain run's maps of this layer, head by head, exactly
          const maps = plain.attention.filter(
            (a) => a.stack === stack && a.layer === layer && a.kind === kind,
          );
          const [H, n, m] = sub.weights.shape;
          assert.equal(maps.length, H);
          maps.forEach((a) =>
            assert.deepEqual(
              a.weights.data,
              sub.weights.data.subarray(a.head * n * m, (a.head + 1) * n * m),
            ),
          );
        });
        assert.equal(s.layerOutputs.length, c.layers.length);
        s.layerOutputs.forEach((o, i) => {
          assert.deepEqual([o.stack, o.layer], c.layers[i]);
          close(c, `layer.${i}.output`, o.output, t[`layer.${i}.output`]);
        });
        assert.deepEqual(s.logits, plain.logits);
        const { states, ...rest } = r;
        assert.ok(states);
        assert.deepEqual(rest, plain, 'the plain result is unchanged by states');
      } finally {
        model.dispose();
      }
      assert.equal(fx.api.liveAllocations(), base, 'no leak');
    });
  }

  test(`${fx.build}: run() gives the states of its final forward`, async () => {
    for (const name of ['encoder_relative', 'decoder_learned', 'encdec_sinusoidal']) {
      const c = fx.byName(name);
      const model = await fx.loadModel(modelUrl(c));
      try {
        const src = ids(c.tensors.src);
        const r = model.run(src, { states: true });
        const plain = model.run(src);
        const { states, ...rest } = r;
        assert.deepEqual(rest, plain);
        assert.deepEqual(states.logits, plain.logits);
        const again =
          c.variant === 'encoder'
            ? model.forward(src, { states: true })
            : c.variant === 'decoder'
              ? model.forward(plain.fedIds, { states: true })
              : model.forward(src, Int32Array.from([model.bosId, ...plain.ids.slice(0, -1)]), {
                  states: true,
                });
        assert.deepEqual(states, again.states, `${name}: the final forward's states`);
      } finally {
        model.dispose();
      }
    }
  });

  test(`${fx.build}: bad states options are refused by name`, async () => {
    const enc = await fx.loadModel(modelUrl(fx.byName('encoder_learned_post')));
    const ed = await fx.loadModel(modelUrl(fx.byName('encdec_sinusoidal')));
    try {
      const named = (re) => (e) => e instanceof AttnlabError && re.test(e.message);
      for (const bad of ['yes', 1, null]) {
        assert.throws(
          () => enc.forward('abc', { states: bad }),
          named(/options\.states must be true or false/),
        );
        assert.throws(
          () => enc.run('abc', { states: bad }),
          named(/options\.states must be true or false/),
        );
        assert.throws(
          () => ed.forward('abc', [1, 4, 5], { states: bad }),
          named(/options\.states must be true or false/),
        );
      }
      assert.throws(() => enc.forward('abc', { state: true }), named(/unknown option 'state'/));
      assert.throws(
        () => ed.forward('abc', { states: true }),
        named(/forward\(input, tgt, options\)/),
      );
      assert.equal(enc.forward('abc', { states: false }).states, undefined);
      assert.equal(enc.forward('abc', undefined, { states: true }).states.variant, 'encoder');
    } finally {
      enc.dispose();
      ed.dispose();
    }
  });

  test.after(() => {
    console.log(
      `transformer states (${fx.build}): worst |diff| per field ${JSON.stringify(worst)}`,
    );
  });
}

suite({ simd: true });
suite({ simd: false });
