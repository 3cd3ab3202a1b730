// The "transformer" architecture (src/models/transformer.c, wasm/model/transformer.js,
// docs/models.md "Architecture transformer") against the PyTorch fixtures
// tests/fixtures/transformer_<case>.safetensors + transformer_model_reference.safetensors
// (scripts/fixture_modules/transformer_models.py, python/attnlab/torch/transformer.py): logits and
// every layer/head attention of one forward, greedy decoding, the config and tensor errors, an
// nn.TransformerEncoder state dict loading as is, and dispose / leaks; learned, sinusoidal and
// relative (Shaw) positions. Training (src/models/transformer_train.c, wasm/train.js): the loss
// and every parameter's gradient of tests/fixtures/transformer_train_gradients.safetensors
// (PyTorch autograd) through trainer.gradients(), a short createModel() training run of a tiny
// decoder-only model lowering the loss, seeded determinism, evaluate() per variant, and the
// example errors. Run for both builds in this one process, each on its own createAttnlab
// instance (model-fixtures.js; see the bottom).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { AttnlabError, createTrainer } from '../../wasm/index.js';
import { loadFixture } from './fixtures.js';
import { fixtureSuite, ids, modelUrl } from './model-fixtures.js';
import { writeSafetensors } from './model-fixtures.js';

function runTransformerModelSuite({ simd }) {
  const fx = fixtureSuite({
    simd,
    reference: 'transformer_model_reference',
    label: 'transformer fixtures',
  });
  const { ref, close, build, loadModel, readSafetensors, createModel, loadTrainableModel } = fx;
  /** every attention map of r against the fixture's att.<stack>.<kind>.<layer> [H, T, S] */
  const closeAttention = (r, t, c, stackName) => {
    const H = 2,
      L = 2;
    const keys = Object.keys(t).filter((k) => k.startsWith('att.'));
    assert.equal(r.attention.length, keys.length * H, `${c.name}: one map per layer and head`);
    for (const k of keys) {
      const [, stack, kind, layer] = k.split('.');
      const want = t[k];
      const [, T, S] = want.shape;
      for (let h = 0; h < H; h++) {
        const m = r.attention.find(
          (a) =>
            (a.stack === stack || (stack === 'encoder' && a.stack === stackName)) &&
            a.kind === kind &&
            a.layer === Number(layer) &&
            a.head === h,
        );
        assert.ok(m, `${c.name}: ${k} head ${h} returned`);
        assert.deepEqual(m.weights.shape, [T, S]);
        assert.equal(m.rowLabels.length, T);
        assert.equal(m.colLabels.length, S);
        close(
          `attention (${kind})`,
          m.weights.data,
          want.data.subarray(h * T * S, (h + 1) * T * S),
          c,
        );
      }
      assert.ok(Number(layer) < L);
    }
  };

  for (const c of ref.cases) {
    test(`${build}: ${c.name}: logits, every layer/head attention and greedy decoding match PyTorch`, async () => {
      const base = fx.api.liveAllocations();
      const model = await loadModel(modelUrl(c));
      try {
        assert.equal(model.architecture, 'transformer');
        const t = c.tensors;
        const src = ids(t.src);
        if (c.variant === 'encoder') {
          const r = model.forward(src);
          assert.deepEqual(r.logits.shape, [src.length, model.tgtVocabSize]);
          close('logits', r.logits.data, t.logits.data, c);
          closeAttention(r, t, c, 'encoder');
          const run = model.run(src);
          assert.deepEqual(run.logits.data, r.logits.data, 'run = forward');
          const V = model.tgtVocabSize;
          const want = Array.from({ length: src.length }, (_, i) => {
            const row = Array.from(t.logits.data.subarray(i * V, (i + 1) * V));
            return row.indexOf(Math.max(...row));
          });
          assert.deepEqual([...run.ids], want, 'argmax label per position');
          assert.equal(run.tokens.length, src.length);
          assert.ok(run.tokens.every((l) => model.config.tokenizer.tgtVocab.includes(l)));
          const text = model.run(model.tokenizer.srcTokens(src).join(''));
          assert.deepEqual([...text.ids], want, 'text input tokenizes to the same ids');
        } else {
          const r = model.run(src);
          assert.deepEqual([...r.ids], [...ids(t.greedy_ids)], `${c.name}: greedy ids`);
          close('greedy logProbs', r.logProbs, t.greedy_logp.data, c);
          assert.equal(r.ids[r.ids.length - 1], model.eosId);
          assert.equal(r.output, model.decode(r.ids));
          close('logits', r.logits.data, t.logits.data, c);
          closeAttention(r, t, c, 'decoder');
          const fed = ids(t.fed);
          const f = c.variant === 'decoder' ? model.forward(fed) : model.forward(src, fed);
          assert.deepEqual(f.logits.data, r.logits.data, 'run = forward over the fed sequence');
          if (c.variant === 'decoder') {
            assert.deepEqual([...r.fedIds], [...fed]);
            assert.ok(r.attention.every((a) => a.kind === 'self' && a.stack === 'decoder'));
            // causal: nothing above the diagonal
            const a = r.attention[3].weights;
            const n = a.shape[0];
            for (let i = 0; i < n; i++)
              for (let j = i + 1; j < n; j++) assert.equal(a.data[i * n + j], 0);
          } else {
            assert.deepEqual([...r.tgtIds], [...fed]);
            const cross = r.attention.filter((a) => a.kind === 'cross');
            assert.equal(cross.length, 4);
            assert.deepEqual(cross[0].rowLabels, r.tokens, 'cross rows: the emitted tokens');
            assert.deepEqual(cross[0].colLabels, model.tokenizer.srcTokens(src));
          }
          const short = model.run(src, { maxLength: 2 });
          assert.deepEqual(
            [...short.ids],
            [...ids(t.greedy_ids)].slice(0, 2),
            'maxLength caps the steps',
          );
        }
      } finally {
        model.dispose();
      }
      assert.equal(fx.api.liveAllocations(), base, `${c.name}: no leaks`);
    });
  }

  const grads = loadFixture('transformer_train_gradients');
  for (const c of grads.cases) {
    test(`${build}: ${c.name}: training loss and every gradient match PyTorch autograd`, async () => {
      const base = fx.api.liveAllocations();
      const model = await loadTrainableModel(modelUrl(c));
      const trainer = createTrainer(model);
      try {
        const t = c.tensors;
        const [B, Smax] = t.src.shape;
        const rows = (x, lens, n) =>
          Array.from({ length: B }, (_, b) =>
            Array.from(x.data.subarray(b * n, b * n + lens.data[b]), Math.round),
          );
        const srcs = rows(t.src, t.src_len, Smax);
        const tgts = t.tgt ? rows(t.tgt, t.tgt_len, t.tgt.shape[1]) : null;
        const batch = srcs.map((src, b) =>
          c.variant === 'decoder'
            ? { src }
            : c.variant === 'encoder'
              ? { src, tags: tgts[b] }
              : { src, tgt: tgts[b] },
        );
        const { loss, gradients } = trainer.gradients(batch);
        close('training loss', Float32Array.of(loss), t.loss.data, c);
        const names = Object.keys(t)
          .filter((k) => k.startsWith('grad.'))
          .map((k) => k.slice(5));
        assert.deepEqual(
          [...gradients.keys()].sort(),
          names.sort(),
          `${c.name}: one gradient per tensor`,
        );
        for (const name of names)
          close('gradients', gradients.get(name).data, t[`grad.${name}`].data, {
            name: `${c.name} ${name}`,
          });
        assert.ok(trainer.gradNorm > 0);
      } finally {
        model.dispose();
      }
      assert.equal(fx.api.liveAllocations(), base, `${c.name}: no leaks`);
    });
  }

  const TINY_LM = {
    architecture: 'transformer',
    variant: 'decoder',
    embeddingSize: 16,
    numHeads: 2,
    feedforwardSize: 32,
    numLayers: 2,
    positions: 'relative',
    maxRelativePosition: 4,
    normFirst: true,
    maxLength: 12,
    tokenizer: {
      type: 'char',
      srcVocab: ['<pad>', '</s>', '<unk>', ...'abcde'],
      tgtVocab: ['<pad>', '</s>', '<unk>', ...'abcde'],
      pad: '<pad>',
      unk: '<unk>',
      eos: '</s>',
    },
  };
  const LM_DATA = ['abcde', 'bcdea', 'cdeab', 'deabc', 'eabcd', 'abcab'];

  test(`${build}: a tiny decoder-only model from createModel() learns (loss falls), and the same seed gives the same bytes`, async () => {
    const base = fx.api.liveAllocations();
    const runOnce = async () => {
      const model = await createModel(TINY_LM, { seed: 7 });
      const trainer = createTrainer(model, { lr: 1e-2 });
      const batch = LM_DATA.map((src) => ({ src }));
      const before = trainer.evaluate(batch);
      const losses = [];
      for (let s = 0; s < 40; s++) losses.push(trainer.step(batch));
      const after = trainer.evaluate(batch);
      const bytes = trainer.save();
      const out = model.run('abc').output;
      model.dispose();
      return { before, after, losses, bytes, out };
    };
    const a = await runOnce(),
      b = await runOnce();
    assert.ok(
      Math.abs(a.losses[0] - a.before.loss) < 1e-5,
      `step's first loss ${a.losses[0]} = evaluate's ${a.before.loss}`,
    );
    assert.ok(a.losses.at(-1) < 0.5 * a.losses[0], `loss ${a.losses[0]} -> ${a.losses.at(-1)}`);
    assert.ok(a.after.loss < a.before.loss && a.after.tokenAccuracy > a.before.tokenAccuracy);
    assert.equal(a.after.count, LM_DATA.length);
    assert.deepEqual(a.bytes, b.bytes, 'same seed, options and batches: same bytes');
    assert.equal(a.out, b.out);
    const again = await loadModel(a.bytes);
    assert.equal(again.run('abc').output, a.out, 'the saved model loads and runs the same');
    assert.ok(readSafetensors(a.bytes).tensors.has('layers.1.self_attn.relative_value.weight'));
    again.dispose();
    console.log(
      `tiny decoder-only LM (${simd ? 'simd' : 'scalar'}): loss ${a.losses[0].toFixed(4)} -> ${a.losses.at(-1).toFixed(4)} in 40 steps; 'abc' -> '${a.out}'`,
    );
    assert.equal(fx.api.liveAllocations(), base, 'no leaks');
  });

  test(`${build}: encoder and encoder-decoder examples: step, evaluate, and the example errors`, async () => {
    const base = fx.api.liveAllocations();
    const tok = { type: 'char', srcVocab: ['<pad>', '<unk>', ...'abc'], unk: '<unk>' };
    const enc = await createModel(
      {
        architecture: 'transformer',
        variant: 'encoder',
        embeddingSize: 8,
        numHeads: 2,
        feedforwardSize: 8,
        numLayers: 1,
        positions: 'sinusoidal',
        tokenizer: { ...tok, tgtVocab: ['O', 'X'] },
      },
      { seed: 1 },
    );
    const te = createTrainer(enc, { lr: 3e-2 });
    const tagged = [
      { src: 'abca', tags: 'O X O O' },
      { src: 'cab', tags: ['X', 'O', 'X'] },
      { src: [2, 2], tags: [1, 1] },
    ];
    const l0 = te.step(tagged);
    for (let s = 0; s < 30; s++) te.step(tagged);
    const e = te.evaluate(tagged);
    assert.ok(e.loss < l0, `encoder loss ${l0} -> ${e.loss}`);
    assert.ok(
      e.tokenAccuracy >= 0 && e.tokenAccuracy <= 1 && e.exactMatch <= e.tokenAccuracy + 1e-9,
    );
    assert.throws(
      () => te.step([{ src: 'abc', tags: 'O X' }]),
      (err) => err.code === 'AL_ERR_SHAPE' && /one label per position/.test(err.message),
    );
    assert.throws(
      () => te.step([{ src: 'ab', tags: 'O Y' }]),
      (err) =>
        err.code === 'AL_ERR_RANGE' && /"Y" is not one of the model's labels/.test(err.message),
    );
    enc.dispose();
    const ed = await createModel(
      {
        architecture: 'transformer',
        variant: 'encoder-decoder',
        embeddingSize: 8,
        numHeads: 2,
        feedforwardSize: 8,
        numLayers: 1,
        positions: 'relative',
        maxRelativePosition: 2,
        tokenizer: { ...tok, tgtVocab: ['<s>', '</s>', ...'abc'], bos: '<s>', eos: '</s>' },
      },
      { seed: 1 },
    );
    const td = createTrainer(ed, { lr: 3e-2 });
    const pairs = [
      { src: 'abc', tgt: 'cba' },
      { src: 'ba', tgt: 'ab' },
    ];
    const first = td.step(pairs);
    for (let s = 0; s < 40; s++) td.step(pairs);
    const r = td.evaluate(pairs);
    assert.ok(r.loss < first && r.count === 2, `encoder-decoder loss ${first} -> ${r.loss}`);
    assert.equal(td.evaluate(pairs, { loss: false }).loss, undefined);
    ed.dispose();
    const lm = await createModel(TINY_LM, { seed: 1 });
    const tl = createTrainer(lm);
    assert.throws(
      () => tl.step([{ src: 'ab', tgt: 'c' }]),
      /decoder-only model trains on \{ src \} alone/,
    );
    assert.throws(
      () => tl.step([{ src: [3] }]),
      (err) => err.code === 'AL_ERR_SHAPE',
    );
    assert.ok(Number.isFinite(tl.step([{ src: [3, 4] }, { src: 'a' }])));
    lm.dispose();
    assert.equal(fx.api.liveAllocations(), base, 'no leaks');
  });

  test(`${build}: the encoder fixture is an nn.TransformerEncoder state dict, loaded as is`, () => {
    const c = ref.cases.find((x) => x.name === 'encoder_learned_post');
    const { tensors } = readSafetensors(readFileSync(modelUrl(c)));
    const perLayer = [
      'self_attn.in_proj_weight',
      'self_attn.in_proj_bias',
      'self_attn.out_proj.weight',
      'self_attn.out_proj.bias',
      'linear1.weight',
      'linear1.bias',
      'linear2.weight',
      'linear2.bias',
      'norm1.weight',
      'norm1.bias',
      'norm2.weight',
      'norm2.bias',
    ];
    const want = [0, 1]
      .flatMap((i) => perLayer.map((k) => `layers.${i}.${k}`))
      .concat([
        'norm.weight',
        'norm.bias',
        'embedding.weight',
        'pos_embedding.weight',
        'out.weight',
        'out.bias',
      ]);
    assert.deepEqual([...tensors.keys()].sort(), want.sort());
  });

  test(`${build}: malformed configs and tensors fail with messages naming the key or tensor`, async () => {
    const c = ref.cases.find((x) => x.name === 'encoder_learned_post');
    const { metadata, tensors } = readSafetensors(readFileSync(modelUrl(c)));
    const cfg = JSON.parse(metadata.config);
    const base = fx.api.liveAllocations();
    const variant = (edit) => {
      const t = new Map(
        [...tensors].map(([k, v]) => [k, { data: v.data, shape: v.shape.slice() }]),
      );
      const conf = structuredClone(cfg);
      edit(t, conf);
      return writeSafetensors(t, { config: JSON.stringify(conf) });
    };
    const cases = [
      [
        'zero heads',
        (t, k) => {
          k.numHeads = 0;
        },
        'AL_ERR_ARGUMENT',
        /"numHeads": 0 is out of range/,
      ],
      [
        'E not divisible by heads',
        (t, k) => {
          k.numHeads = 3;
        },
        'AL_ERR_ARGUMENT',
        /"numHeads": 3 does not divide "embeddingSize" 8/,
      ],
      [
        'missing layers.1.norm2.weight',
        (t) => {
          t.delete('layers.1.norm2.weight');
        },
        'AL_ERR_FORMAT',
        /missing tensor "layers\.1\.norm2\.weight" \(the config needs shape \[8\]\)/,
      ],
      [
        'wrong shape',
        (t) => {
          t.set('layers.0.linear1.weight', { data: new Float32Array(8 * 12), shape: [12, 8] });
        },
        'AL_ERR_SHAPE',
        /tensor "layers\.0\.linear1\.weight" has shape \[12, 8\] but the config needs \[16, 8\]/,
      ],
      [
        'no final norm in the config',
        (t, k) => {
          k.finalNorm = false;
        },
        'AL_ERR_FORMAT',
        /unexpected tensor "norm\.(weight|bias)"/,
      ],
      [
        'three layers',
        (t, k) => {
          k.numLayers = 3;
        },
        'AL_ERR_FORMAT',
        /missing tensor "layers\.2\.self_attn\.in_proj_weight" \(the config needs shape \[24, 8\]\)/,
      ],
      [
        'unknown variant',
        (t, k) => {
          k.variant = 'perceiver';
        },
        'AL_ERR_ARGUMENT',
        /"variant": unknown value "perceiver"/,
      ],
      [
        'unknown positions',
        (t, k) => {
          k.positions = 'rotary';
        },
        'AL_ERR_ARGUMENT',
        /"positions": unknown value "rotary"/,
      ],
      [
        'learned without maxPositions',
        (t, k) => {
          delete k.maxPositions;
        },
        'AL_ERR_FORMAT',
        /missing key "maxPositions"/,
      ],
      [
        'positions table too short',
        (t, k) => {
          k.maxPositions = 11;
        },
        'AL_ERR_SHAPE',
        /tensor "pos_embedding\.weight" has shape \[10, 8\] but the config needs \[11, 8\]/,
      ],
      [
        'unknown activation',
        (t, k) => {
          k.activation = 'swish';
        },
        'AL_ERR_ARGUMENT',
        /"activation": unknown value "swish"/,
      ],
      [
        'typo',
        (t, k) => {
          k.numHead = 2;
        },
        'AL_ERR_FORMAT',
        /unknown key "numHead"/,
      ],
    ];
    for (const [what, edit, code, re] of cases) {
      await assert.rejects(loadModel(variant(edit)), (e) => {
        assert.ok(e instanceof AttnlabError, what);
        assert.equal(e.code, code, `${what}: ${e.message}`);
        assert.match(e.message, re, what);
        return true;
      });
    }
    assert.equal(fx.api.liveAllocations(), base, 'failed loads leave nothing allocated');
  });

  test(`${build}: run-time errors, seq2seq-only calls, dispose, and load/run/dispose cycles without leaks`, async () => {
    const base = fx.api.liveAllocations();
    const enc = await loadModel(modelUrl(ref.cases.find((x) => x.name === 'encoder_learned_post')));
    assert.throws(
      () => enc.run(new Int32Array(11).fill(4)),
      (e) => e.code === 'AL_ERR_SHAPE' && /at most 10 \(config "maxPositions"\)/.test(e.message),
    );
    assert.throws(
      () => enc.run([4, 99]),
      (e) => e.code === 'AL_ERR_RANGE' && /\[1\] = 99/.test(e.message),
    );
    assert.throws(
      () => enc.run([]),
      (e) => e.code === 'AL_ERR_SHAPE',
    );
    assert.throws(() => enc.run([4], { beamWidth: 2 }), /unknown option 'beamWidth'/);
    assert.throws(
      () => enc.score([4], [4]),
      (e) => e.code === 'AL_ERR_UNSUPPORTED' && /"transformer"/.test(e.message),
    );
    assert.throws(
      () => enc.startDecoding([4]),
      (e) => e.code === 'AL_ERR_UNSUPPORTED',
    );
    assert.throws(() => enc.forward([4], [4]), /takes one sequence/);
    enc.dispose();
    assert.throws(() => enc.run([4]), /has been disposed/);
    assert.throws(() => enc.forward([4]), /has been disposed/);
    enc.dispose();
    const ed = await loadModel(modelUrl(ref.cases.find((x) => x.name === 'encdec_sinusoidal')));
    assert.throws(() => ed.forward([4, 5]), /needs the decoder input/);
    ed.dispose();
    for (let k = 0; k < 3; k++) {
      for (const c of ref.cases) {
        const m = await loadModel(modelUrl(c));
        m.run(ids(c.tensors.src));
        m.dispose();
      }
    }
    assert.equal(fx.api.liveAllocations(), base, 'every cycle freed');
  });
}

for (const simd of [false, true]) runTransformerModelSuite({ simd });
