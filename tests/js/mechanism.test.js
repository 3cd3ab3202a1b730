// mechanism.test.js: the pure parts of the Mechanism view's drawings (web/views/mechanism/*.js) in
// Node, on the shipped models' real states (model.classify / forward with { states: true }):
// which numbers each step shows, which sublayer and head a transformer selection picks, and the
// equation panel filled with the step's own numbers. The pictures themselves (SVG, the DOM) are
// tested in Chromium: tests/browser/mechanism.test.js.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { init, loadModel } from '../../wasm/index.js';
import {
  classifierData,
  classifierEquations,
  classifierSteps,
} from '../../web/views/mechanism/classifier.js';
import { FAMILY_DRAWINGS, familyOfModel } from '../../web/views/mechanism/families.js';
import { pretty } from '../../web/views/mechanism/svg.js';
import {
  transformerData,
  transformerEquations,
  transformerSteps,
} from '../../web/views/mechanism/transformer.js';

const models = {};
const load = async (name) =>
  (models[name] ??= await loadModel(
    new Uint8Array(
      await readFile(new URL(`../../web/models/${name}.safetensors`, import.meta.url)),
    ),
  ));
before(() => init());
after(() => Object.values(models).forEach((m) => m.dispose()));

test('every family of the view has a drawing, and a model is drawn as its architecture', async () => {
  assert.deepEqual(Object.keys(FAMILY_DRAWINGS).sort(), [
    'classifier',
    'memory-rnn',
    'seq2seq',
    'transformer',
  ]);
  assert.equal(familyOfModel(await load('clf-reviews-han')), 'classifier');
  assert.equal(familyOfModel({ architecture: 'toString' }), null);
});

test('structured pooling: one step per hop, the equations carry hop t and the penalty', async () => {
  const m = await load('clf-reviews-structured');
  const r = m.classify("I expected to hate it and I didn't.", { states: true });
  const d = classifierData(r, m.config);
  assert.equal(classifierSteps(d).length, m.config.hops);
  const lines = classifierEquations(d, 1, null, 'en');
  const byStage = Object.fromEntries(lines.map((l) => [l.stage, l.num]));
  const row = r.states.weights.data.subarray(d.n, 2 * d.n); // hop 2
  const best = row.indexOf(Math.max(...row));
  assert.match(byStage.weight, new RegExp(`^α₂,${subscript(best + 1)} = `));
  assert.equal(Number(byStage.penalty.split(' = ')[1]), Number(r.states.penalty.toPrecision(4)));
  assert.equal(byStage.label.split(':')[0], r.label);
});

test('attention pooling: one step per word, the equations name u = tanh(h) and e = u_wᵀu', async () => {
  const m = await load('clf-reviews-attention');
  const r = m.classify('The plot was not bad, but the music felt boring.', { states: true });
  const d = classifierData(r, m.config);
  assert.deepEqual(classifierSteps(d), r.tokens);
  const lines = classifierEquations(d, 3, null, 'en');
  const weight = lines.find((l) => l.stage === 'weight').num;
  assert.equal(Number(weight.split(' = ')[1]), Number(r.states.weights.data[3].toPrecision(4)));
  assert.ok(lines.some((l) => l.sym === 'u_t = tanh(h_t)'));
  assert.ok(lines.some((l) => l.sym === 'e_t = u_w^T u_t'));
});

test('a transformer selection picks its sublayer and head; the weights are the attention map', async () => {
  const m = await load('tf-dates-relative');
  const r = m.run('22 Nov 2026', { states: true });
  for (const [kind, type, stack] of [
    ['encoder', 'self', 'encoder'],
    ['decoder', 'self', 'decoder'],
    ['cross', 'cross', 'decoder'],
  ]) {
    const d = transformerData(r, m.config, { kind, layer: 1, head: 2 });
    const map = r.attention.find(
      (a) => a.layer === 1 && a.head === 2 && a.kind === type && a.stack === stack,
    );
    const [, n, k] = d.sub.weights.shape;
    assert.deepEqual(
      Array.from(d.sub.weights.data.subarray(2 * n * k, 3 * n * k)),
      Array.from(map.weights.data),
      kind,
    );
    assert.deepEqual(transformerSteps(d), map.rowLabels);
    assert.equal(d.relative, kind !== 'cross', `${kind}: Shaw's term in self-attention only`);
  }
  // out of range: clamped to what there is
  const d = transformerData(r, m.config, { kind: 'nope', layer: 9, head: -1 });
  assert.deepEqual([d.kind, d.layer, d.head], ['cross', d.layers - 1, 0]);
  const lines = transformerEquations(d, 0, 1, 'en');
  const S = lines.find((l) => l.stage === 'scores').num;
  assert.match(S, /^e₁,₂ = /);
  assert.equal(
    Number(S.split(' = ')[1].split(',')[0]),
    Number(d.sub.scores.data[1].toPrecision(4)),
  );
});

test('pretty writes TeX-like subscripts in Unicode only where every character has one', () => {
  assert.equal(pretty('s_{t−1}'), 'sₜ₋₁');
  assert.equal(pretty('p(w_{t+1}) = softmax(W_o h_t)'), 'p(wₜ₊₁) = softmax(Wₒ hₜ)');
  assert.equal(pretty('W_Q and W_{Q2}'), 'W_Q and W_{Q2}');
});

function subscript(n) {
  return String(n).replace(/[0-9]/g, (c) => '₀₁₂₃₄₅₆₇₈₉'[Number(c)]);
}
