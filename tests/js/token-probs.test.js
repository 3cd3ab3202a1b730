// tests/js/token-probs.test.js: every seq2seq and transformer result carries each output token's
// probability (issue 30, docs/models.md "Per-token probabilities"): probs = exp(logProbs), a
// Float32Array, minProb the weakest; they are the model's own probabilities of the output: equal
// to Model.score of the same output (teacher forcing) for seq2seq, greedy and beam alike, and to
// the softmax of the forward pass's logits for a transformer; each is in (0, 1].
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { init, loadModel } from '../../wasm/index.js';

await init();

const file = (path) => new Uint8Array(readFileSync(new URL(`../../${path}`, import.meta.url)));
const shippedModel = (name) => loadModel(file(`web/models/${name}.safetensors`));

/** probs is exp(logProbs) and minProb its minimum; every p in (0, 1]. */
function checkProbs(r, what) {
  assert.ok(r.probs instanceof Float32Array, `${what}: probs is a Float32Array`);
  assert.equal(r.probs.length, r.ids.length, `${what}: one probability per output token`);
  assert.equal(r.probs.length, r.logProbs.length);
  r.probs.forEach((p, t) => {
    assert.ok(
      Math.abs(p - Math.exp(r.logProbs[t])) <= 1e-6 * Math.max(p, 1e-30),
      `${what}: p[${t}]`,
    );
    assert.ok(p > 0 && p <= 1, `${what}: p[${t}] = ${p} in (0, 1]`);
  });
  assert.equal(r.minProb, Math.min(...r.probs), `${what}: minProb is the weakest`);
}

/** The softmax probability of id in row t of logits, in double. */
function softmaxAt(logits, t, id) {
  const V = logits.shape[1];
  const row = logits.data.subarray(t * V, (t + 1) * V);
  const mx = Math.max(...row);
  let z = 0;
  for (const v of row) z += Math.exp(v - mx);
  return Math.exp(row[id] - mx) / z;
}

test('seq2seq: greedy and beam probs are the teacher-forced probabilities of the output', async () => {
  const model = await shippedModel('en-fr-dot');
  for (const input of ['the cat sees the red car .', 'where is the station ?']) {
    for (const beamWidth of [1, 4]) {
      const what = `${input} (beam ${beamWidth})`;
      const r = model.run(input, { beamWidth });
      checkProbs(r, what);
      const s = model.score(input, r.ids);
      const V = s.distributions.shape[1];
      r.probs.forEach((p, t) => {
        // the same output re-read one step at a time: the same log p, and the same number in the
        // teacher-forced distribution over the vocabulary
        assert.ok(Math.abs(r.logProbs[t] - s.logProbs[t]) < 1e-4, `${what}: step ${t}`);
        const fromDist = Math.exp(s.distributions.data[t * V + r.ids[t]]);
        assert.ok(Math.abs(p - fromDist) < 1e-4, `${what}: step ${t}: ${p} vs ${fromDist}`);
      });
    }
  }
  // the in-grammar sentence is sure of every token, the out-of-grammar one is not (issue 30)
  assert.ok(model.run('the cat sees the red car .').minProb > 0.9);
  assert.ok(model.run('where is the station ?').minProb < 0.9);
  model.dispose();
});

test('seq2seq: a Decoder step carries prob = exp(logProb), as run does', async () => {
  const model = await shippedModel('dates-additive');
  const r = model.run('22 Nov 2026');
  checkProbs(r, 'dates-additive');
  const d = model.startDecoding('22 Nov 2026');
  for (let t = 0; !d.done; t++) {
    const s = d.step();
    assert.equal(s.prob, Math.exp(s.logProb));
    assert.ok(Math.abs(s.prob - r.probs[t]) < 1e-6, `step ${t}`);
  }
  d.dispose();
  model.dispose();
});

test('transformer: encoder-decoder and decoder probs equal the softmax of the logits', async () => {
  for (const name of ['en-fr-transformer-absolute', 'tf-dates-relative', 'tf-induction']) {
    const model = await shippedModel(name);
    const input = name.startsWith('en-fr')
      ? 'where is the station ?'
      : name === 'tf-induction'
        ? model.config.tokenizer.srcVocab.slice(3, 9).join('')
        : '22 Nov 2026';
    const r = model.run(input);
    checkProbs(r, name);
    // logits row t (encoder-decoder) or row prompt + t − 1 (decoder) predicts output token t
    const offset = model.config.variant === 'decoder' ? r.srcIds.length - 1 : 0;
    r.ids.forEach((id, t) => {
      const p = softmaxAt(r.logits, offset + t, id);
      assert.ok(Math.abs(r.probs[t] - p) < 1e-4, `${name}: step ${t}: ${r.probs[t]} vs ${p}`);
    });
    model.dispose();
  }
});

test("transformer: an encoder's probs are those of the labels it picked", async () => {
  const model = await loadModel(
    file('tests/fixtures/transformer_encoder_sinusoidal_pre_gelu.safetensors'),
  );
  const V = model.config.tokenizer.srcVocab;
  const r = model.run(Array.from({ length: 5 }, (_, i) => i % V.length));
  checkProbs(r, 'encoder');
  r.ids.forEach((id, t) => {
    assert.ok(Math.abs(r.probs[t] - softmaxAt(r.logits, t, id)) < 1e-5, `label ${t}`);
    // the argmax: no label more probable
    assert.ok(r.probs[t] >= 1 / r.logits.shape[1] - 1e-6);
  });
  model.dispose();
});
