// Whole models (wasm/model.js over src/models/) against the PyTorch fixtures
// tests/fixtures/model_<case>.safetensors + model_reference.safetensors
// (scripts/fixture_modules/models.py, python/attnlab/torch/seq2seq.py), plus the loader's error messages,
// tokenizers, stepping, dispose and leaks. Run for both builds in this one process, each on its
// own createAttnlab instance (model-fixtures.js; see the bottom).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { Model, AttnlabError } from '../../wasm/index.js';
import { Tokenizer } from '../../wasm/model/tokenizer.js';
import { assertClose } from './fixtures.js';
import { fixtureSuite, ids, modelUrl, writeSafetensors } from './model-fixtures.js';

const FIXTURES = new URL('../fixtures/', import.meta.url);

function runModelSuite({ simd }) {
  const fx = fixtureSuite({ simd, reference: 'model_reference', label: 'model fixtures' });
  const { ref, close, build, loadModel, readSafetensors } = fx;

  for (const c of ref.cases) {
    test(`${build}: ${c.name}: greedy, beam, stepping and teacher forcing match PyTorch`, async () => {
      const base = fx.api.liveAllocations();
      const model = await loadModel(modelUrl(c));
      try {
        const t = c.tensors;
        const src = ids(t.src);
        const want = ids(t.greedy_ids);
        const r = model.run(src);
        assert.deepEqual([...r.ids], [...want], `${c.name}: greedy ids`);
        close('greedy logProbs', r.logProbs, t.greedy_logp.data, c);
        close('greedy attention', r.attention[0].weights.data, t.greedy_att.data, c);
        assert.deepEqual(r.attention[0].weights.shape, [want.length, src.length]);
        assert.equal(r.attention[0].rowLabels.length, want.length);
        assert.equal(r.attention[0].colLabels.length, src.length);
        if (model.hasPositions) close('greedy positions', r.positions, t.greedy_pos.data, c);
        else assert.equal(r.positions, undefined);

        const b1 = model.run(src, { beamWidth: 1 });
        assert.deepEqual([...b1.ids], [...want], 'beam width 1 equals greedy');
        const b3 = model.run(src, { beamWidth: 3 });
        assert.deepEqual(
          [...b3.ids],
          [...ids(t.beam3_ids)],
          `${c.name}: beam 3 ids (Python reference beam)`,
        );
        // the beam's per-step numbers are those of teacher forcing on its own output
        const sb = model.score(src, b3.ids);
        assertClose(b3.logProbs, sb.logProbs, { atol: 1e-6, rtol: 1e-6, label: 'beam logProbs' });
        assertClose(b3.attention[0].weights, sb.attention, {
          atol: 1e-6,
          rtol: 1e-6,
          label: 'beam attention',
        });

        const dec = model.startDecoding(src);
        const steps = [];
        while (!dec.done) steps.push(dec.step());
        dec.dispose();
        assert.deepEqual(
          steps.map((s) => s.id),
          [...want],
          'stepping equals run',
        );
        steps.forEach((s, i) => {
          assert.equal(s.logProb, r.logProbs[i]);
          assert.deepEqual(
            [...s.weights],
            [...r.attention[0].weights.data.subarray(i * src.length, (i + 1) * src.length)],
          );
          if (model.hasPositions) assert.equal(s.position, r.positions[i]);
        });

        const tf = model.score(src, ids(t.tgt));
        close('teacher-forced logProbs', tf.logProbs, t.tf_logp.data, c);
        close('teacher-forced attention', tf.attention.data, t.tf_att.data, c);
        close('teacher-forced distributions', tf.distributions.data, t.tf_dist.data, c);
        if (model.hasPositions) close('teacher-forced positions', tf.positions, t.tf_pos.data, c);
      } finally {
        model.dispose();
      }
      assert.equal(fx.api.liveAllocations(), base, 'every allocation freed');
    });
  }

  test(`${build}: loadModel reads file: URLs, paths, bytes and ArrayBuffers; config round-trips`, async () => {
    const c = ref.cases[0];
    const url = modelUrl(c);
    const bytes = readFileSync(url);
    const models = [
      await loadModel(url),
      await loadModel(url.href),
      await loadModel(url.pathname),
      await loadModel(new Uint8Array(bytes)),
      await loadModel(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)),
    ];
    const cfg = JSON.parse(readSafetensors(bytes).metadata.config);
    for (const m of models) {
      assert.ok(m instanceof Model);
      assert.equal(m.architecture, 'seq2seq');
      assert.deepEqual(m.config, cfg);
      m.dispose();
    }
    await assert.rejects(
      loadModel(new URL('missing.safetensors', FIXTURES)),
      (e) => e instanceof AttnlabError && /cannot read/.test(e.message),
    );
    await assert.rejects(
      loadModel(42),
      (e) => e instanceof AttnlabError && /URL, a path or bytes/.test(e.message),
    );
  });

  test(`${build}: text in, text out; the tokenizers map unknowns to unk and never crash`, async () => {
    const char = ref.cases.find((c) => c.name === 'lstm_additive_bahdanau');
    const m = await loadModel(modelUrl(char));
    try {
      const tok = m.tokenizer;
      const unk = tok.src.get('<unk>');
      assert.deepEqual(
        [...m.encode('ab?c')],
        [tok.src.get('a'), tok.src.get('b'), unk, tok.src.get('c')],
      );
      assert.deepEqual([...m.encode('é😀')], [unk, unk], 'code points, not UTF-16 units');
      const r = m.run('abz€c');
      assert.equal(r.attention[0].colLabels.join(''), 'ab<unk><unk>c');
      assert.equal(typeof r.output, 'string');
      assert.equal(r.output, m.decode(r.ids));
      assert.ok(!r.output.includes('</s>'));
      assert.throws(
        () => m.run(''),
        (e) => e.code === 'AL_ERR_SHAPE' && /empty/.test(e.message),
      );
      assert.throws(
        () => m.run([1, 99]),
        (e) => e.code === 'AL_ERR_RANGE' && /input\[1\] = 99/.test(e.message),
      );
      assert.throws(() => m.run('ab', { beamWidth: 0 }), /beamWidth 0/);
      assert.throws(() => m.run('ab', { maxLength: 0 }), /maxLength 0/);
      assert.throws(() => m.run('ab', { temperature: 1 }), /unknown option 'temperature'/);
      const short = m.run('abc', { maxLength: 2 });
      assert.ok(short.ids.length <= 2);
    } finally {
      m.dispose();
    }
    const word = ref.cases.find((c) => c.name === 'gru_general_luong_feed');
    const w = await loadModel(modelUrl(word));
    try {
      assert.equal(w.config.tokenizer.type, 'word');
      const tok = w.tokenizer;
      assert.deepEqual(
        [...w.encode('  the cat\tzebra  sat ')],
        [tok.src.get('the'), tok.src.get('cat'), tok.src.get('<unk>'), tok.src.get('sat')],
      );
      const r = w.run('the big dog ran');
      assert.equal(r.output, w.decode(r.ids));
      assert.ok(r.output === '' || /^\S+( \S+)*$/.test(r.output), 'words joined by single spaces');
    } finally {
      w.dispose();
    }
    const t = new Tokenizer({
      type: 'char',
      srcVocab: ['<unk>', 'a', 'a'],
      tgtVocab: ['<s>', '</s>', 'x'],
      bos: '<s>',
      eos: '</s>',
      unk: '<unk>',
    });
    assert.deepEqual([...t.encode('aab')], [1, 1, 0], 'duplicates map to the first index');
    assert.equal(t.decode([0, 2, 2, 1]), 'xx');
    assert.throws(
      () => new Tokenizer({ type: 'bpe', srcVocab: [], tgtVocab: [] }),
      /unknown type "bpe"/,
    );
  });

  test(`${build}: malformed models each fail with their own message, naming the tensor or key`, async () => {
    const c = ref.cases.find((x) => x.name === 'lstm_additive_bahdanau');
    const { metadata, tensors } = readSafetensors(readFileSync(modelUrl(c)));
    const cfg = JSON.parse(metadata.config);
    const base = fx.api.liveAllocations();
    const variant = (edit) => {
      const t = new Map(
        [...tensors].map(([k, v]) => [k, { data: v.data, shape: v.shape.slice() }]),
      );
      const conf = structuredClone(cfg);
      const meta = edit(t, conf) ?? { config: JSON.stringify(conf) };
      return writeSafetensors(t, meta);
    };
    const cases = [
      [
        'missing tensor',
        (t) => {
          t.delete('decoder.weight_hh');
        },
        'AL_ERR_FORMAT',
        /missing tensor "decoder\.weight_hh".*\[32, 8\]/,
      ],
      [
        'extra tensor',
        (t) => {
          t.set('attention.W_a', { data: new Float32Array(64), shape: [8, 8] });
        },
        'AL_ERR_FORMAT',
        /unexpected tensor "attention\.W_a"/,
      ],
      [
        'wrong shape',
        (t) => {
          t.set('out.bias', { data: new Float32Array(14), shape: [14] });
        },
        'AL_ERR_SHAPE',
        /tensor "out\.bias" has shape \[14\] but the config needs \[15\]/,
      ],
      [
        'bad config value',
        (t, k) => {
          k.attentionSize = 0;
        },
        'AL_ERR_ARGUMENT',
        /"attentionSize": 0 is out of range/,
      ],
      [
        'unknown attention',
        (t, k) => {
          k.attention = 'psychic';
        },
        'AL_ERR_ARGUMENT',
        /"attention": unknown value "psychic"/,
      ],
      [
        'unknown architecture',
        (t, k) => {
          k.architecture = 'perceiver';
        },
        'AL_ERR_ARGUMENT',
        /"architecture": unknown value "perceiver"/,
      ],
      [
        'zero layers',
        (t, k) => {
          k.numLayers = 0;
        },
        'AL_ERR_ARGUMENT',
        /"numLayers": 0 is out of range/,
      ],
      [
        'unknown key',
        (t, k) => {
          k.hidenSize = 8;
        },
        'AL_ERR_FORMAT',
        /unknown key "hidenSize"/,
      ],
      [
        'eos not in the vocabulary',
        (t, k) => {
          k.tokenizer.eos = '<end>';
        },
        'AL_ERR_FORMAT',
        /"tokenizer\.eos": "<end>" is not in tokenizer\.tgtVocab/,
      ],
      [
        'vocabulary size disagrees',
        (t, k) => {
          k.tokenizer.tgtVocab.push('z');
        },
        'AL_ERR_SHAPE',
        /tensor "tgt_embedding\.weight" has shape \[15, 6\] but the config needs \[16, 6\]/,
      ],
      [
        'config not JSON',
        () => ({ config: '{"architecture": seq2seq' }),
        'AL_ERR_FORMAT',
        /config is not valid JSON/,
      ],
      [
        'no config',
        () => ({ other: 'x' }),
        'AL_ERR_FORMAT',
        /no "config" in the file's __metadata__/,
      ],
    ];
    for (const [what, edit, code, re] of cases) {
      const bytes = variant(edit);
      await assert.rejects(loadModel(bytes), (e) => {
        assert.ok(e instanceof AttnlabError, what);
        assert.equal(e.code, code, `${what}: ${e.message}`);
        assert.match(e.message, re, what);
        return true;
      });
    }
    await assert.rejects(loadModel(new Uint8Array([1, 2, 3])), (e) => e.code === 'AL_ERR_FORMAT');
    assert.equal(fx.api.liveAllocations(), base, 'failed loads free everything');
  });

  test(`${build}: dispose: use after dispose throws, double dispose is harmless, decoders go with the model`, async () => {
    const c = ref.cases[0];
    const base = fx.api.liveAllocations();
    const m = await loadModel(modelUrl(c));
    const d = m.startDecoding('abc');
    d.step();
    m.dispose();
    m.dispose();
    m[Symbol.dispose]();
    assert.throws(
      () => m.run('abc'),
      (e) => e instanceof AttnlabError && /disposed/.test(e.message),
    );
    assert.throws(() => m.score('abc', 'a'), /disposed/);
    assert.throws(() => m.startDecoding('abc'), /disposed/);
    assert.throws(() => d.step(), /disposed/);
    d.dispose();
    assert.equal(fx.api.liveAllocations(), base);
    const m2 = await loadModel(modelUrl(c));
    m2.run('ab');
    m2[Symbol.dispose](); // what `using` calls (Node 20 has no `using` syntax)
    assert.equal(fx.api.liveAllocations(), base, 'Symbol.dispose disposes');
    const m3 = await loadModel(modelUrl(c));
    const d3 = m3.startDecoding('abc', { maxLength: 2 });
    d3.step();
    const last = d3.step();
    assert.equal(last.done, true);
    assert.throws(() => d3.step(), /decoding has finished/);
    d3.dispose();
    d3.dispose();
    m3.dispose();
    assert.equal(fx.api.liveAllocations(), base);
  });

  test(`${build}: 1,000 load/run/dispose cycles return liveAllocations to baseline`, async () => {
    const bytes = readFileSync(modelUrl(ref.cases[0]));
    const base = fx.api.liveAllocations();
    for (let i = 0; i < 1000; i++) {
      const m = await loadModel(bytes);
      m.run('abc', { beamWidth: i % 3 === 0 ? 2 : 1 });
      if (i % 10 === 0) m.score('abc', 'ab');
      m.dispose();
    }
    assert.equal(fx.api.liveAllocations(), base);
  });
}

for (const simd of [false, true]) runModelSuite({ simd });
