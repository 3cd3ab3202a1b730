// The "memory-rnn" architecture (wasm/model/memory-rnn.js over src/models/memory_rnn_model.c)
// against the PyTorch fixtures tests/fixtures/memory_rnn_<case>.safetensors +
// memory_rnn_model_reference.safetensors (scripts/fixture_modules/memory_rnn_models.py,
// python/attnlab/torch/memory_rnn.py): next-token log-probs, log-distributions, class probabilities,
// attention weights, and the loss and every parameter's gradient of a 2-example batch, at
// atol 1e-5 / rtol 1e-4; the word tokenizer (unknown words -> unk, bos/eos); the loader's
// messages for malformed configs and tensors; a short training run from createModel() lowers
// the loss and the same seed gives the same bytes; evaluate() reports perplexity; no leaks.
// Run for both builds in this one process, each on its own createAttnlab instance
// (model-fixtures.js; see the bottom).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { AttnlabError, createTrainer, saveModel } from '../../wasm/index.js';
import { fixtureSuite, ids, modelUrl } from './model-fixtures.js';
import { writeSafetensors } from './model-fixtures.js';

const row = (t, b, len) =>
  Array.from(t.data.subarray(b * t.shape[1], b * t.shape[1] + len), Math.round);

const VOCAB = ['<unk>', '<s>', '</s>', 'the', 'cat', 'sat', 'on', 'mat', 'a', 'dog', 'ran', 'big'];
const SENTENCES = [
  'the cat sat on the mat',
  'a dog ran',
  'the big dog sat on a mat',
  'a cat ran on the mat',
];
const config = (cell, extra = {}) => ({
  architecture: 'memory-rnn',
  cell,
  embeddingSize: 8,
  hiddenSize: 12,
  head: 'lm',
  ...(cell === 'self-attention-rnn' ? { attentionSize: 6 } : {}),
  tokenizer: { type: 'word', vocab: VOCAB, unk: '<unk>', bos: '<s>', eos: '</s>' },
  ...extra,
});

function runMemoryRnnModelSuite({ simd }) {
  const fx = fixtureSuite({
    simd,
    reference: 'memory_rnn_model_reference',
    label: 'memory-rnn model fixtures',
  });
  const { ref, close, byName, build, loadModel, readSafetensors, createModel, loadTrainableModel } =
    fx;

  for (const c of ref.cases) {
    const lm = c.head === 'lm';
    test(`${build}: ${c.name}: ${lm ? 'log-probs, distributions' : 'probabilities'} and attention weights match PyTorch`, async () => {
      const base = fx.api.liveAllocations();
      const model = await loadModel(modelUrl(c));
      try {
        const t = c.tensors;
        const want = ids(t.ids);
        const n = want.length;
        assert.equal(model.architecture, 'memory-rnn');
        assert.deepEqual(
          [...model.encode(c.text)],
          [...want],
          `${c.name}: the tokenizer (unknown words -> unk, bos/eos)`,
        );
        const r = lm ? model.run(c.text, { distributions: true }) : model.run(c.text);
        assert.deepEqual([...r.ids], [...want]);
        if (lm) {
          close('next-token log-probs', r.logProbs, t.logp.data, c);
          close('log-distributions', r.distributions.data, t.dist.data, c);
          assert.deepEqual(r.distributions.shape, [n, model.tgtVocabSize]);
          const mean = -t.logp.data.reduce((a, b) => a + b, 0) / (n - 1);
          assert.ok(
            Math.abs(r.perplexity - Math.exp(mean)) < 1e-4 * Math.exp(mean),
            `${c.name}: perplexity ${r.perplexity}`,
          );
        } else {
          close('probabilities', r.probs, t.probs.data, c);
          assert.equal(r.labelId, c.label, `${c.name}: argmax`);
          assert.equal(r.label, model.labels[c.label]);
          const r2 = model.classify(want);
          assert.deepEqual([...r2.probs], [...r.probs], 'classify() = run() for a classifier head');
        }
        if (c.cell === 'lstm') {
          assert.deepEqual(r.attention, [], 'a plain LSTM has no attention map');
        } else {
          const a = r.attention[0];
          assert.deepEqual(a.weights.shape, [n, n]);
          assert.deepEqual(a.rowLabels, r.tokens);
          assert.deepEqual(a.colLabels, r.tokens);
          close('attention weights', a.weights.data, t.weights.data, c);
        }
      } finally {
        model.dispose();
      }
      assert.equal(fx.api.liveAllocations(), base, 'every allocation freed');
    });

    test(`${build}: ${c.name}: the batch loss and every parameter's gradient match PyTorch autograd`, async () => {
      const model = await loadTrainableModel(readFileSync(modelUrl(c)));
      try {
        const T = c.tensors;
        const batch = [0, 1].map((b) => ({
          src: row(T.src, b, T.src_len.data[b]),
          ...(lm ? {} : { label: c.labels[b] }),
        }));
        const trainer = createTrainer(model);
        const { loss, gradients } = trainer.gradients(batch);
        close('loss', [loss], T.loss.data, c);
        let count = 0;
        for (const [name, g] of gradients) {
          close('gradients', g.data, T[`grad.${name}`].data, c);
          count++;
        }
        assert.equal(
          count,
          Object.keys(T).filter((k) => k.startsWith('grad.')).length,
          'one gradient per tensor',
        );
        trainer.dispose();
      } finally {
        model.dispose();
      }
    });
  }

  test(`${build}: the word tokenizer: unknown words -> unk, bos/eos around text only, ids passed as given`, async () => {
    const m = await loadModel(modelUrl(byName('lm_lstmn')));
    try {
      const v = m.config.tokenizer.vocab;
      assert.deepEqual(
        [...m.encode('  the\tzebra Cat ')],
        [v.indexOf('<s>'), v.indexOf('the'), 1, 1, v.indexOf('</s>')],
      );
      const r = m.run([5, 6]);
      assert.deepEqual(r.tokens, ['the', 'cat']);
      assert.equal(r.logProbs.length, 1);
      const one = m.run([5]);
      assert.equal(one.logProbs.length, 0);
      assert.equal(one.perplexity, undefined);
      assert.deepEqual(
        [...one.attention[0].weights.data],
        [0],
        'the LSTMN reads nothing at step 1',
      );
      assert.throws(
        () => m.run([1, 99]),
        (e) => e.code === 'AL_ERR_RANGE' && /input\[1\] = 99/.test(e.message),
      );
      assert.throws(() => m.run('the', { beamWidth: 2 }), /unknown option 'beamWidth'/);
      assert.throws(
        () => m.classify('the'),
        (e) => e.code === 'AL_ERR_UNSUPPORTED',
      );
    } finally {
      m.dispose();
    }
    const d = await loadModel(modelUrl(byName('lm_sarnn_dot')));
    try {
      assert.deepEqual([...d.encode('the cat')], [5, 6], 'no bos/eos in this tokenizer');
      const w = d.run('the cat sat').attention[0].weights.data;
      assert.ok(
        Math.abs(w[0] - 1) < 1e-6 && w[1] === 0 && w[2] === 0,
        'row 1 of the self-attention RNN: α = [1]',
      );
    } finally {
      d.dispose();
    }
  });

  test(`${build}: malformed memory-rnn models each fail with their own message, naming the tensor or key`, async () => {
    const base = fx.api.liveAllocations();
    const variant = (name, edit) => {
      const { metadata, tensors } = readSafetensors(readFileSync(modelUrl(byName(name))));
      const t = new Map(
        [...tensors].map(([k, v]) => [k, { data: v.data, shape: v.shape.slice() }]),
      );
      const conf = JSON.parse(metadata.config);
      edit(t, conf);
      return writeSafetensors(t, { config: JSON.stringify(conf) });
    };
    const cases = [
      [
        'lm_lstmn',
        'missing tensor',
        (t) => {
          t.delete('cell.W_ht');
        },
        'AL_ERR_FORMAT',
        /missing tensor "cell\.W_ht" \(the config needs shape \[6, 6\]\)/,
      ],
      [
        'lm_lstmn',
        'wrong gate shape',
        (t) => {
          t.set('cell.W', { data: new Float32Array(24 * 10), shape: [24, 10] });
        },
        'AL_ERR_SHAPE',
        /tensor "cell\.W" has shape \[24, 10\] but the config needs \[24, 11\]/,
      ],
      [
        'lm_lstmn',
        'unknown cell',
        (t, k) => {
          k.cell = 'gru';
        },
        'AL_ERR_ARGUMENT',
        /"cell": unknown value "gru" \(known: lstmn, self-attention-rnn, lstm\)/,
      ],
      [
        'lm_lstmn',
        'hidden size disagrees',
        (t, k) => {
          k.hiddenSize = 5;
        },
        'AL_ERR_SHAPE',
        /tensor "cell\.W_h" has shape \[6, 6\] but the config needs \[5, 5\]/,
      ],
      [
        'lm_lstmn',
        'classifier head on an lm file',
        (t, k) => {
          k.head = 'classifier';
          k.labels = ['a', 'b'];
        },
        'AL_ERR_FORMAT',
        /missing tensor "classifier\.weight" \(the config needs shape \[2, 6\]\)/,
      ],
      [
        'lm_lstmn',
        'bos not in the vocabulary',
        (t, k) => {
          k.tokenizer.bos = '<bos>';
        },
        'AL_ERR_FORMAT',
        /"tokenizer\.bos": "<bos>" is not in tokenizer\.vocab/,
      ],
      [
        'lm_lstmn',
        'vocabulary disagrees',
        (t, k) => {
          k.tokenizer.vocab.push('zebra');
        },
        'AL_ERR_SHAPE',
        /tensor "embedding\.weight" has shape \[16, 5\] but the config needs \[17, 5\]/,
      ],
      [
        'lm_sarnn_additive',
        'no attentionSize',
        (t, k) => {
          delete k.attentionSize;
        },
        'AL_ERR_FORMAT',
        /missing key "attentionSize"/,
      ],
      [
        'lm_sarnn_additive',
        'dot align on additive weights',
        (t, k) => {
          k.align = 'dot';
        },
        'AL_ERR_FORMAT',
        /missing tensor "cell\.W_K" \(the config needs shape \[4, 6\]\)/,
      ],
      [
        'lm_sarnn_dot',
        'extra tensor',
        (t) => {
          t.set('cell.v', { data: new Float32Array(3), shape: [3] });
        },
        'AL_ERR_FORMAT',
        /unexpected tensor "cell\.v"/,
      ],
      [
        'lm_sarnn_dot',
        'unknown align',
        (t, k) => {
          k.align = 'general';
        },
        'AL_ERR_ARGUMENT',
        /"align": unknown value "general" \(known: additive, dot\)/,
      ],
      [
        'lm_lstm',
        'lstm bias shape',
        (t) => {
          t.set('cell.bias_hh_l0', { data: new Float32Array(6), shape: [6] });
        },
        'AL_ERR_SHAPE',
        /tensor "cell\.bias_hh_l0" has shape \[6\] but the config needs \[24\]/,
      ],
      [
        'lm_lstm',
        'no head',
        (t, k) => {
          delete k.head;
        },
        'AL_ERR_FORMAT',
        /missing key "head"/,
      ],
      [
        'clf_lstmn',
        'labels disagree',
        (t, k) => {
          k.labels.push('mixed');
        },
        'AL_ERR_SHAPE',
        /tensor "classifier\.weight" has shape \[3, 6\] but the config needs \[4, 6\]/,
      ],
      [
        'clf_lstmn',
        'unknown pool',
        (t, k) => {
          k.pool = 'max';
        },
        'AL_ERR_ARGUMENT',
        /"pool": unknown value "max" \(known: last, mean\)/,
      ],
      [
        'clf_lstmn',
        'no labels',
        (t, k) => {
          delete k.labels;
        },
        'AL_ERR_FORMAT',
        /missing key "labels"/,
      ],
      [
        'clf_lstmn',
        'unknown key',
        (t, k) => {
          k.pooling = 'attention';
        },
        'AL_ERR_FORMAT',
        /unknown key "pooling"/,
      ],
    ];
    for (const [name, what, edit, code, re] of cases) {
      await assert.rejects(loadModel(variant(name, edit)), (e) => {
        assert.ok(e instanceof AttnlabError, what);
        assert.equal(e.code, code, `${what}: ${e.message}`);
        assert.match(e.message, re, `${what}: ${e.message}`);
        return true;
      });
    }
    assert.equal(fx.api.liveAllocations(), base, 'failed loads free everything');
  });

  test(`${build}: training from createModel() lowers the loss of each cell; the same seed gives the same bytes`, async () => {
    const base = fx.api.liveAllocations();
    const data = SENTENCES.map((src) => ({ src }));
    for (const cell of ['lstmn', 'self-attention-rnn', 'lstm']) {
      const run = async () => {
        const model = await createModel(
          config(cell, cell === 'self-attention-rnn' ? { align: 'dot' } : {}),
          { seed: 7 },
        );
        const trainer = createTrainer(model, { lr: 0.02 });
        const before = trainer.evaluate(data);
        const losses = [];
        for (let s = 0; s < 30; s++) losses.push(trainer.step(data));
        const after = trainer.evaluate(data);
        const bytes = saveModel(model);
        model.dispose();
        return { losses, before, after, bytes };
      };
      const a = await run(),
        b = await run();
      assert.ok(
        a.losses[29] < 0.5 * a.losses[0],
        `${cell}: loss ${a.losses[0]} -> ${a.losses[29]}`,
      );
      assert.ok(
        a.after.perplexity < a.before.perplexity,
        `${cell}: perplexity ${a.before.perplexity} -> ${a.after.perplexity}`,
      );
      assert.equal(
        a.before.tokens,
        SENTENCES.reduce((k, s) => k + s.split(' ').length + 1, 0),
        'n − 1 predictions per sentence with bos and eos',
      );
      assert.ok(Math.abs(a.before.perplexity - Math.exp(a.before.loss)) < 1e-9);
      assert.ok(
        Math.abs(a.before.loss - a.losses[0]) < 1e-5,
        `${cell}: evaluate's loss ${a.before.loss} = the first step's ${a.losses[0]}`,
      );
      assert.deepEqual(a.bytes, b.bytes, `${cell}: same seed, same bytes`);
    }
    // a classifier head: { src, label }; evaluate gives accuracy
    const clf = await createModel(
      config('lstmn', { head: 'classifier', pool: 'mean', labels: ['animal', 'place'] }),
      { seed: 3 },
    );
    const ex = [
      { src: 'the cat sat', label: 'animal' },
      { src: 'on the mat', label: 'place' },
      { src: 'a dog ran', label: 0 },
      { src: 'a mat', label: 1 },
    ];
    const tr = createTrainer(clf, { lr: 0.03 });
    const first = tr.step(ex);
    let last = first;
    for (let s = 0; s < 40; s++) last = tr.step(ex);
    assert.ok(last < 0.3 * first, `classifier: loss ${first} -> ${last}`);
    assert.equal(tr.evaluate(ex).accuracy, 1);
    assert.throws(
      () => tr.step([{ src: 'the cat', label: 'plant' }]),
      (e) => e.code === 'AL_ERR_RANGE',
    );
    clf.dispose();
    // an LM sentence needs two tokens
    const lm = await createModel(
      config('lstm', { tokenizer: { type: 'word', vocab: VOCAB, unk: '<unk>' } }),
    );
    assert.throws(
      () => createTrainer(lm).step([{ src: 'cat' }]),
      (e) => e.code === 'AL_ERR_SHAPE' && /needs 2 or more/.test(e.message),
    );
    lm.dispose();
    assert.equal(fx.api.liveAllocations(), base, 'every allocation freed');
  });

  test(`${build}: dispose, and 200 load/run/dispose cycles return liveAllocations to baseline`, async () => {
    const base = fx.api.liveAllocations();
    const files = ref.cases.map((c) => readFileSync(modelUrl(c)));
    for (let i = 0; i < 200; i++) {
      const m = await loadModel(files[i % files.length]);
      m.run(
        i % 3 ? 'the cat sat' : [4, 5, 6, 7],
        i % 2 && m.config.head === 'lm' ? { distributions: true } : {},
      );
      m.dispose();
    }
    const m = await loadModel(files[0]);
    m.dispose();
    m.dispose();
    assert.throws(() => m.run('the cat'), /disposed/);
    assert.equal(fx.api.liveAllocations(), base);
  });
}

for (const simd of [false, true]) runMemoryRnnModelSuite({ simd });
