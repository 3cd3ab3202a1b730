// The "classifier" architecture (wasm/model.js over src/models/classifier.c) against the PyTorch
// fixtures tests/fixtures/classifier_<case>.safetensors + classifier_reference.safetensors
// (scripts/fixture_modules/classifier_models.py, python/attnlab/torch/classifier.py): probabilities,
// attention weights, HAN's sentence weights and Lin's penalty at atol 1e-5 / rtol 1e-4; the word
// tokenizer (unknown words -> unk); the loader's messages for malformed configs and tensors;
// dispose and leaks. Training (wasm/train.js over src/models/classifier_train.c): the batch
// gradient against PyTorch autograd (classifier_gradients.safetensors) at the same tolerances, a
// short run from createModel() lowering the loss, same seed -> same bytes, evaluate(), and the
// errors of bad examples and of penaltyCoefficient. Run for both builds in this one process,
// each on its own createAttnlab instance (model-fixtures.js; see the bottom).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { AttnlabError, createTrainer, saveModel } from '../../wasm/index.js';
import { loadFixture } from './fixtures.js';
import { fixtureSuite, ids, modelUrl } from './model-fixtures.js';
import { writeSafetensors } from './model-fixtures.js';

const FIXTURES = new URL('../fixtures/', import.meta.url);

function runClassifierSuite({ simd }) {
  const fx = fixtureSuite({
    simd,
    reference: 'classifier_reference',
    label: 'classifier fixtures',
  });
  const { ref, close, byName, build, loadModel, readSafetensors, createModel, loadTrainableModel } =
    fx;

  for (const c of ref.cases) {
    test(`${build}: ${c.name}: probabilities and attention weights match PyTorch`, async () => {
      const base = fx.api.liveAllocations();
      const model = await loadModel(modelUrl(c));
      try {
        const t = c.tensors;
        const want = ids(t.ids);
        assert.equal(model.architecture, 'classifier');
        assert.deepEqual(model.labels, model.config.labels);
        assert.deepEqual(
          [...model.encode(c.text)],
          [...want],
          `${c.name}: the tokenizer (unknown words -> unk)`,
        );
        const r = model.classify(c.text);
        const n = want.length;
        assert.deepEqual([...r.ids], [...want]);
        close('probabilities', r.probs, t.probs.data, c);
        assert.equal(r.labelId, c.label, `${c.name}: argmax`);
        assert.equal(r.label, model.labels[c.label]);
        const w = r.attention[0];
        const hops = c.pooling === 'structured' ? t.weights.shape[0] : 1;
        assert.deepEqual(w.weights.shape, [hops, n]);
        assert.equal(w.rowLabels.length, hops);
        assert.deepEqual(w.colLabels, r.tokens);
        close('attention weights', w.weights.data, t.weights.data, c);
        if (c.pooling === 'han') {
          close('sentence weights', r.sentenceWeights, t.sentence_weights.data, c);
          assert.deepEqual(r.sentences, c.sentences, `${c.name}: sentence spans`);
          assert.equal(r.attention.length, 2);
          assert.deepEqual(r.attention[1].weights.shape, [1, c.sentences.length]);
          // each sentence's word weights sum to 1
          for (const [a, b] of r.sentences) {
            const s = w.weights.data.subarray(a, b).reduce((x, y) => x + y, 0);
            assert.ok(Math.abs(s - 1) < 1e-5, `sentence [${a}, ${b}) sums to ${s}`);
          }
        } else {
          assert.equal(r.sentenceWeights, undefined);
          assert.equal(r.attention.length, 1);
        }
        if (c.pooling === 'structured') close('penalty', [r.penalty], t.penalty.data, c);
        else assert.equal(r.penalty, undefined);
        // run dispatches to classify; ids in give the same numbers as text in
        const r2 = model.run(want);
        assert.deepEqual([...r2.probs], [...r.probs]);
        assert.deepEqual([...r2.attention[0].weights.data], [...w.weights.data]);
      } finally {
        model.dispose();
      }
      assert.equal(fx.api.liveAllocations(), base, 'every allocation freed');
    });
  }

  test(`${build}: the word tokenizer: whitespace split, unknown words -> unk, repeated vocab entries -> first index`, async () => {
    const m = await loadModel(modelUrl(byName('attention_bilstm')));
    try {
      const tok = m.tokenizer;
      const unk = m.config.tokenizer.vocab.indexOf('<unk>');
      const cat = m.config.tokenizer.vocab.indexOf('cat');
      assert.ok(m.config.tokenizer.vocab.lastIndexOf('cat') > cat, 'the fixture lists "cat" twice');
      assert.deepEqual(
        [...m.encode('  the\tcat zebra  Cat ')],
        [tok.src.get('the'), cat, unk, unk],
      );
      const r = m.classify('qqq zzz');
      assert.deepEqual(r.tokens, ['<unk>', '<unk>']);
      const r1 = m.classify('xylophone');
      assert.deepEqual([...r1.attention[0].weights.data], [1], 'one word takes all the weight');
      assert.throws(
        () => m.classify('   '),
        (e) => e.code === 'AL_ERR_SHAPE' && /empty/.test(e.message),
      );
      assert.throws(
        () => m.classify([1, 999]),
        (e) => e.code === 'AL_ERR_RANGE' && /input\[1\] = 999/.test(e.message),
      );
      assert.throws(() => m.classify('the cat', { beamWidth: 2 }), /unknown option 'beamWidth'/);
    } finally {
      m.dispose();
    }
    const s2s = await loadModel(new URL('model_lstm_additive_bahdanau.safetensors', FIXTURES));
    try {
      assert.throws(
        () => s2s.classify('abc'),
        (e) => e.code === 'AL_ERR_UNSUPPORTED' && /"seq2seq" model/.test(e.message),
      );
    } finally {
      s2s.dispose();
    }
  });

  test(`${build}: han: sentences end at the separator; a document without one is one sentence`, async () => {
    const m = await loadModel(modelUrl(byName('han_bigru')));
    try {
      const one = m.classify('the cat sat');
      assert.deepEqual(one.sentences, [[0, 3]]);
      assert.deepEqual(one.sentenceWeights.length, 1);
      assert.ok(Math.abs(one.sentenceWeights[0] - 1) < 1e-6);
      const three = m.classify('. . cat');
      assert.deepEqual(three.sentences, [
        [0, 1],
        [1, 2],
        [2, 3],
      ]);
      assert.deepEqual(three.attention[1].colLabels, ['.', '.', 'cat']);
    } finally {
      m.dispose();
    }
  });

  test(`${build}: malformed classifiers each fail with their own message, naming the tensor or key`, async () => {
    const base = fx.api.liveAllocations();
    const variant = (name, edit) => {
      const { metadata, tensors } = readSafetensors(readFileSync(modelUrl(byName(name))));
      const t = new Map(
        [...tensors].map(([k, v]) => [k, { data: v.data, shape: v.shape.slice() }]),
      );
      const conf = JSON.parse(metadata.config);
      const meta = edit(t, conf) ?? { config: JSON.stringify(conf) };
      return writeSafetensors(t, meta);
    };
    const cases = [
      [
        'attention_bilstm',
        'missing tensor',
        (t) => {
          t.delete('pooling.w');
        },
        'AL_ERR_FORMAT',
        /missing tensor "pooling\.w" \(the config needs shape \[8\]\)/,
      ],
      [
        'attention_bilstm',
        'missing encoder tensor',
        (t) => {
          t.delete('encoder.weight_hh_l0_reverse');
        },
        'AL_ERR_FORMAT',
        /missing tensor "encoder\.weight_hh_l0_reverse" \(the config needs shape \[16, 4\]\)/,
      ],
      [
        'attention_bilstm',
        'extra tensor',
        (t) => {
          t.set('pooling.W_s1', { data: new Float32Array(8), shape: [1, 8] });
        },
        'AL_ERR_FORMAT',
        /unexpected tensor "pooling\.W_s1"/,
      ],
      [
        'attention_bilstm',
        'wrong classifier shape',
        (t) => {
          t.set('classifier.weight', { data: new Float32Array(27), shape: [3, 9] });
        },
        'AL_ERR_SHAPE',
        /tensor "classifier\.weight" has shape \[3, 9\] but the config needs \[3, 8\]/,
      ],
      [
        'attention_bilstm',
        'labels disagree with the bias',
        (t, k) => {
          k.labels.push('mixed');
        },
        'AL_ERR_SHAPE',
        /tensor "classifier\.weight" has shape \[3, 8\] but the config needs \[4, 8\]/,
      ],
      [
        'attention_bilstm',
        'vocabulary disagrees',
        (t, k) => {
          k.tokenizer.vocab.push('zebra');
        },
        'AL_ERR_SHAPE',
        /tensor "embedding\.weight" has shape \[18, 6\] but the config needs \[19, 6\]/,
      ],
      [
        'attention_bilstm',
        'unknown pooling',
        (t, k) => {
          k.pooling = 'max';
        },
        'AL_ERR_ARGUMENT',
        /"pooling": unknown value "max" \(known: attention, han, structured\)/,
      ],
      [
        'attention_bilstm',
        'odd bidirectional size',
        (t, k) => {
          k.hiddenSize = 7;
        },
        'AL_ERR_ARGUMENT',
        /"hiddenSize": 7 must be even with "bidirectional"/,
      ],
      [
        'attention_bilstm',
        'relu with lstm',
        (t, k) => {
          k.nonlinearity = 'relu';
        },
        'AL_ERR_ARGUMENT',
        /"nonlinearity": "relu" is for cell "rnn" only/,
      ],
      [
        'attention_bilstm',
        'unknown key',
        (t, k) => {
          k.pooing = 'attention';
        },
        'AL_ERR_FORMAT',
        /unknown key "pooing"/,
      ],
      [
        'attention_bilstm',
        'no labels',
        (t, k) => {
          delete k.labels;
        },
        'AL_ERR_FORMAT',
        /missing key "labels"/,
      ],
      [
        'attention_bilstm',
        'unk not in the vocabulary',
        (t, k) => {
          k.tokenizer.unk = '<oov>';
        },
        'AL_ERR_FORMAT',
        /"tokenizer\.unk": "<oov>" is not in tokenizer\.vocab/,
      ],
      [
        'attention_bilstm',
        'seq2seq tokenizer keys',
        (t, k) => {
          k.tokenizer.srcVocab = k.tokenizer.vocab;
        },
        'AL_ERR_FORMAT',
        /unknown key "tokenizer\.srcVocab"|unknown key "srcVocab"/,
      ],
      [
        'attention_bilstm',
        'char tokenizer',
        (t, k) => {
          k.tokenizer.type = 'char';
        },
        'AL_ERR_ARGUMENT',
        /"tokenizer\.type": unknown value "char" \(known: word\)/,
      ],
      [
        'structured_bilstm',
        'zero hops',
        (t, k) => {
          k.hops = 0;
        },
        'AL_ERR_ARGUMENT',
        /"hops": 0 is out of range/,
      ],
      [
        'structured_bilstm',
        'no attentionSize',
        (t, k) => {
          delete k.attentionSize;
        },
        'AL_ERR_FORMAT',
        /missing key "attentionSize"/,
      ],
      [
        'structured_bilstm',
        'hops disagree with W_s2',
        (t, k) => {
          k.hops = 2;
        },
        'AL_ERR_SHAPE',
        /tensor "pooling\.W_s2" has shape \[3, 5\] but the config needs \[2, 5\]/,
      ],
      [
        'han_bigru',
        'separator not in the vocabulary',
        (t, k) => {
          k.sentenceSeparator = '!';
        },
        'AL_ERR_FORMAT',
        /"sentenceSeparator": "!" is not in tokenizer\.vocab/,
      ],
      [
        'han_bigru',
        'no separator',
        (t, k) => {
          delete k.sentenceSeparator;
        },
        'AL_ERR_FORMAT',
        /missing key "sentenceSeparator"/,
      ],
      [
        'han_bigru',
        'sentence encoder shape',
        (t, k) => {
          k.sentenceHiddenSize = 8;
        },
        'AL_ERR_SHAPE',
        /tensor "sentence_encoder\.weight_ih_l0" has shape \[9, 8\] but the config needs \[12, 8\]/,
      ],
      [
        'han_bigru',
        'missing word pooling',
        (t) => {
          t.delete('word_pooling.u');
        },
        'AL_ERR_FORMAT',
        /missing tensor "word_pooling\.u" \(the config needs shape \[5\]\)/,
      ],
      [
        'han_bigru',
        'zero layers',
        (t, k) => {
          k.numLayers = 0;
        },
        'AL_ERR_ARGUMENT',
        /"numLayers": 0 is out of range/,
      ],
    ];
    for (const [name, what, edit, code, re] of cases) {
      const bytes = variant(name, edit);
      await assert.rejects(loadModel(bytes), (e) => {
        assert.ok(e instanceof AttnlabError, what);
        assert.equal(e.code, code, `${what}: ${e.message}`);
        assert.match(e.message, re, `${what}: ${e.message}`);
        return true;
      });
    }
    assert.equal(fx.api.liveAllocations(), base, 'failed loads free everything');
  });

  test(`${build}: training: the batch gradient equals PyTorch autograd (attention, han, structured with its penalty)`, async () => {
    const base = fx.api.liveAllocations();
    const grad = loadFixture('classifier_gradients');
    assert.equal(grad.cases.length, 4);
    for (const c of grad.cases) {
      const model = await loadTrainableModel(readFileSync(modelUrl(c)));
      const T = c.tensors;
      const S = T.src.shape[1];
      const batch = c.texts.map((text, b) => ({
        src: Array.from(T.src.data.subarray(b * S, b * S + T.src_len.data[b]), Math.round),
        label: b % 2 ? c.labels[b] : model.labels.indexOf(c.labels[b]), // index or string
      }));
      batch.forEach((e, b) =>
        assert.deepEqual([...model.encode(c.texts[b])], e.src, `${c.name}: the tokenizer`),
      );
      assert.equal(model.config.penaltyCoefficient ?? 0, c.penaltyCoefficient);
      const trainer = createTrainer(model);
      const { loss, gradients } = trainer.gradients(batch);
      close('loss', [loss], T.loss.data, c);
      let n = 0;
      for (const [key, want] of Object.entries(T)) {
        if (!key.startsWith('grad.')) continue;
        const got = gradients.get(key.slice(5));
        assert.ok(got, `${c.name}: no gradient for ${key.slice(5)}`);
        assert.deepEqual(got.shape, want.shape);
        close('gradients', got.data, want.data, c);
        n++;
      }
      assert.equal(n, gradients.size, `${c.name}: every tensor has a reference gradient`);
      // text in gives the same loss as ids in
      assert.equal(
        trainer.gradients(c.texts.map((src, b) => ({ src, label: c.labels[b] }))).loss,
        loss,
      );
      model.dispose();
    }
    assert.equal(fx.api.liveAllocations(), base, 'every allocation freed');
  });

  const TINY = {
    architecture: 'classifier',
    cell: 'lstm',
    embeddingSize: 6,
    hiddenSize: 8,
    numLayers: 1,
    bidirectional: true,
    labels: ['neg', 'pos'],
    tokenizer: {
      type: 'word',
      vocab: ['<pad>', '<unk>', '.', 'good', 'bad', 'not', 'the', 'film', 'was', 'very'],
      unk: '<unk>',
      pad: '<pad>',
    },
  };
  const DATA = [
    { src: 'the film was good', label: 'pos' },
    { src: 'the film was bad', label: 'neg' },
    { src: 'not good', label: 'neg' },
    { src: 'not bad', label: 'pos' },
    { src: 'very good . the film', label: 'pos' },
    { src: 'very bad .', label: 'neg' },
    { src: 'the film was not bad', label: 'pos' },
    { src: 'the film was not good', label: 'neg' },
  ];

  for (const [pooling, extra] of [
    ['attention', {}],
    ['han', { attentionSize: 4, sentenceSeparator: '.' }],
    ['structured', { attentionSize: 4, hops: 2, penaltyCoefficient: 0.1 }],
  ]) {
    test(`${build}: training ${pooling}: a short run from createModel() lowers the loss; same seed, same bytes`, async () => {
      const base = fx.api.liveAllocations();
      const config = { ...TINY, pooling, ...extra };
      const run = async () => {
        const model = await createModel(config, { seed: 5 });
        const trainer = createTrainer(model, { lr: 3e-2 });
        const before = trainer.evaluate(DATA);
        const losses = [];
        for (let s = 0; s < 40; s++) losses.push(trainer.step(DATA));
        const after = trainer.evaluate(DATA);
        const bytes = trainer.save();
        model.dispose();
        return { losses, before, after, bytes };
      };
      const a = await run();
      assert.ok(
        a.losses[39] < 0.5 * a.losses[0],
        `loss ${a.losses[0].toFixed(3)} -> ${a.losses[39].toFixed(3)}`,
      );
      assert.ok(a.after.loss < a.before.loss && a.after.accuracy === 1, JSON.stringify(a.after));
      assert.equal(a.after.count, DATA.length);
      if (pooling === 'structured') {
        assert.ok(a.after.penalty >= 0);
        // step's loss adds penaltyCoefficient · P to the cross-entropy that evaluate reports
        const m = await loadTrainableModel(a.bytes);
        const t = createTrainer(m);
        const ev = t.evaluate(DATA);
        assert.ok(Math.abs(t.gradients(DATA).loss - (ev.loss + 0.1 * ev.penalty)) < 1e-5);
        m.dispose();
      } else {
        assert.equal(a.after.penalty, undefined);
      }
      const b = await run();
      assert.deepEqual(b.bytes, a.bytes, 'same seed and data give the same bytes');
      const c = await createModel(config, { seed: 6 }),
        d = await createModel(config, { seed: 5 });
      assert.notDeepEqual(saveModel(c), saveModel(d), 'another seed, other weights');
      const loaded = await loadModel(saveModel(d));
      assert.deepEqual([...loaded.classify('not good').probs], [...d.classify('not good').probs]);
      loaded.dispose();
      c.dispose();
      d.dispose();
      assert.equal(fx.api.liveAllocations(), base, 'every allocation freed');
    });
  }

  test(`${build}: training: bad examples and bad penaltyCoefficient give clear errors`, async () => {
    const m = await createModel({ ...TINY, pooling: 'attention' }, { seed: 1 });
    const t = createTrainer(m);
    const bad = (ex, code, re) =>
      assert.throws(
        () => t.step([DATA[0], ex]),
        (e) => {
          assert.ok(e instanceof AttnlabError);
          assert.equal(e.code, code, e.message);
          assert.match(e.message, re);
          return true;
        },
      );
    bad(
      { src: 'good', label: 2 },
      'AL_ERR_RANGE',
      /batch\[1\]\.label = 2 must be one of the model's labels or an index in \[0, 2\)/,
    );
    bad({ src: 'good', label: -1 }, 'AL_ERR_RANGE', /label = -1/);
    bad(
      { src: 'good', label: 'maybe' },
      'AL_ERR_RANGE',
      /batch\[1\]\.label "maybe" is not one of the model's labels \(neg, pos\)/,
    );
    bad({ src: 'good' }, 'AL_ERR_RANGE', /label = undefined/);
    bad(
      { src: '   ', label: 'pos' },
      'AL_ERR_SHAPE',
      /batch\[1\]\.src is empty: a document needs at least one token/,
    );
    bad({ src: [], label: 0 }, 'AL_ERR_SHAPE', /src is empty/);
    bad(
      { src: [3, 10], label: 0 },
      'AL_ERR_RANGE',
      /batch\[1\]\.src\[1\] = 10 is not a token id in \[0, 10\)/,
    );
    assert.throws(() => t.evaluate([{ src: 'good', label: 'maybe' }]), /pairs\[0\]\.label "maybe"/);
    assert.equal(t.steps, 0, 'no step was taken');
    m.dispose();
    for (const [v, code, re] of [
      [-1, 'AL_ERR_ARGUMENT', /config "penaltyCoefficient": -1 is out of range \[0, 10000\]/],
      [1e5, 'AL_ERR_ARGUMENT', /"penaltyCoefficient": 100000 is out of range/],
      ['0.5', 'AL_ERR_FORMAT', /config "penaltyCoefficient": must be a number, not a string/],
    ]) {
      await assert.rejects(
        createModel({
          ...TINY,
          pooling: 'structured',
          attentionSize: 3,
          hops: 2,
          penaltyCoefficient: v,
        }),
        (e) => {
          assert.equal(e.code, code, e.message);
          assert.match(e.message, re);
          return true;
        },
      );
    }
    // loadModel accepts it too (it is part of the file's config)
    const s = await createModel(
      { ...TINY, pooling: 'structured', attentionSize: 3, hops: 2, penaltyCoefficient: 0.5 },
      { seed: 1 },
    );
    const again = await loadModel(saveModel(s));
    assert.equal(again.config.penaltyCoefficient, 0.5);
    again.dispose();
    s.dispose();
  });

  test(`${build}: dispose, and 300 load/classify/dispose cycles return liveAllocations to baseline`, async () => {
    const base = fx.api.liveAllocations();
    const m = await loadModel(modelUrl(byName('structured_bilstm')));
    m.classify('the cat');
    m.dispose();
    m.dispose();
    assert.throws(
      () => m.classify('the cat'),
      (e) => e instanceof AttnlabError && /disposed/.test(e.message),
    );
    assert.throws(() => m.run('the cat'), /disposed/);
    assert.equal(fx.api.liveAllocations(), base);
    const files = ref.cases.map((c) => readFileSync(modelUrl(c)));
    for (let i = 0; i < 300; i++) {
      const c = ref.cases[i % ref.cases.length];
      const mm = await loadModel(files[i % files.length]);
      mm.run(c.text);
      if (i % 2) mm.classify('zebra . the cat');
      mm.dispose();
    }
    assert.equal(fx.api.liveAllocations(), base);
  });
}

for (const simd of [false, true]) runClassifierSuite({ simd });
