// notation.test.js: the lesson's equations and the alignment view's panel use one notation, so
// that they cannot drift apart again (issue #29: step 2 said e_tᵢ = vᵀ tanh(W s_{t−1} + U hᵢ)
// while the panel beside it said e_tⱼ = vᵀ tanh(W_q q_t + W_k h̄ⱼ + b)). Node.
//
// For each mechanism a lesson step teaches on a seq2seq model, the step's equations (lesson-
// steps.js) and the panel's (explain.js panelEquations, for the step's own model's config) are
// compared after normalising the markup and Unicode sub/superscripts (notation.js): the same
// equations where both show one, the same symbols, and the same indices on e, α, h, s and c.
// The mechanism view's equation panel (web/views/mechanism/*.js), run on the lesson's models with
// their real states: every symbol in the glossary, the seq2seq score, weight and context lines
// the alignment panel's, the memory RNN's cell and the classifiers' pooling the lesson's steps 6
// and 7, the transformer's scores step 9's. Also: the markup parser and its Unicode reading.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { init, loadModel } from '../../wasm/index.js';
import { panelEquations } from '../../web/shared/explain.js';
import { NAMED, glossaryEntry, symbolsOf } from '../../web/shared/glossary.js';
import { t } from '../../web/shared/i18n.js';
import {
  FAMILY_DRAWINGS,
  familyOfModel,
  textFor,
  transformerStates,
} from '../../web/views/mechanism/families.js';
import { LESSON_STEPS, equationSource } from '../../web/shared/lesson-steps.js';
import '../../web/shared/lesson-text.js';
import {
  equationParts,
  equationPieces,
  equationText,
  toMarkup,
  toUnicode,
} from '../../web/shared/notation.js';

const norm = (e) => equationText(toMarkup(e));
const FBI = 'The FBI is chasing a criminal on the run.';
const stepEqs = (n) => LESSON_STEPS[n - 1].equations.map((e) => norm(equationSource(e)));
const named = (n, label) =>
  norm(equationSource(LESSON_STEPS[n - 1].equations.find((e) => e.label === label)));

/** The symbols with their subscripts, e.g. 'e_ti', 'h_i', 's_t−1', of some equations or text. */
function indexed(sources) {
  const out = new Set();
  for (const src of sources) {
    const pieces = equationPieces(toMarkup(src), NAMED);
    pieces.forEach((p, i) => {
      const next = pieces[i + 1]?.parts[0];
      if (p.symbol && next?.[0] === 'sub' && p.parts.length === 1)
        out.add(`${p.symbol}_${next[1]}`);
    });
  }
  return out;
}

test('markup and Unicode read the same', () => {
  assert.equal(
    toMarkup('eₜᵢ = vᵀ tanh(W sₜ₋₁ + U hᵢ + b)'),
    'e_{ti} = v^T tanh(W s_{t−1} + U h_i + b)',
  );
  assert.equal(toMarkup('e_tᵢ'), 'e_{ti}', 'a mixed form merges its subscripts');
  assert.equal(
    toMarkup('w^K_{clip(j − i, kₘₐₓ)}'),
    'w^K_{clip(j − i, kₘₐₓ)}',
    'braces keep Unicode',
  );
  assert.equal(toUnicode('α_{ti} = Σ_j h_j, W_K'), 'αₜᵢ = Σⱼ hⱼ, W_K');
  assert.deepEqual(equationParts('c_{t−1} = Σ_i α_{ti} h_i'), [
    ['text', 'c'],
    ['sub', 't−1'],
    ['text', ' = Σ'],
    ['sub', 'i'],
    ['text', ' α'],
    ['sub', 'ti'],
    ['text', ' h'],
    ['sub', 'i'],
  ]);
});

/** The config of a lesson step's model (its safetensors header), as the panel gets it. */
function configOf(name) {
  const bytes = readFileSync(new URL(`../../web/models/${name}.safetensors`, import.meta.url));
  const n = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + n).toString('utf8'));
  return JSON.parse(header.__metadata__.config);
}

test('step 2 (dates-additive) and its panel: the same three equations', () => {
  const cfg = configOf('dates-additive');
  assert.equal(cfg.style, 'bahdanau');
  const panel = panelEquations(cfg).map(norm);
  assert.deepEqual(panel, stepEqs(2));
  assert.deepEqual(symbolsOf(panel), symbolsOf(stepEqs(2)));
  assert.ok(panel[0].includes('s_{t−1}'), 'Bahdanau: the score reads s_{t−1}');
});

test('step 3 and the panel: each score as the panel writes it for a Luong model', () => {
  for (const [attention, label] of [
    ['dot', 'lesson.eq.dot'],
    ['general', 'lesson.eq.general'],
    ['concat', 'lesson.eq.concat'],
    ['key-query', 'lesson.eq.keyQuery'],
  ]) {
    const panel = panelEquations({ attention, style: 'luong' }).map(norm);
    assert.equal(panel[0], named(3, label), attention);
    // the softmax and the context are step 2's
    assert.deepEqual(panel.slice(1), stepEqs(2).slice(1));
  }
  // a scaled key-query score divides by √d_k, which the glossary names
  const scaled = panelEquations({ attention: 'key-query', style: 'luong', scaled: true });
  assert.ok(symbolsOf(scaled).includes('d_k'));
});

test('step 4 (dates-local-p) and its panel: the position and the window', () => {
  const cfg = configOf('dates-local-p');
  const panel = panelEquations(cfg).map(norm);
  for (const e of stepEqs(4)) assert.ok(panel.includes(e), `the panel shows ${e}`);
  const lesson = new Set(symbolsOf(stepEqs(4)));
  for (const s of symbolsOf(panel))
    assert.ok(lesson.has(s) || symbolsOf(stepEqs(2).concat(stepEqs(3))).includes(s), s);
});

test('e, α, h, s and c carry the same indices in the lesson, the panel and their texts', () => {
  const eqs = [1, 2, 3, 4].flatMap(stepEqs);
  for (const attention of [
    'additive',
    'dot',
    'general',
    'concat',
    'key-query',
    'local-p',
    'local-m',
  ])
    for (const style of ['bahdanau', 'luong'])
      eqs.push(...panelEquations({ attention, style, score: 'general' }));
  const known = indexed(eqs);
  for (const lang of ['en', 'zh']) {
    const texts = [
      ...[1, 2, 3, 4].map((n) => t(lang, `lesson.${n}.text`)),
      ...['score', 'exp', 'sum', 'gauss', 'weight', 'rowSum', 'position', 'window'].map((k) =>
        t(lang, `explain.${k}`),
      ),
    ];
    for (const tok of indexed(texts)) {
      const [sym] = tok.split('_');
      if (!['e', 'α', 'h', 's', 'c', 'p', 'k', 'q'].includes(sym)) continue;
      assert.ok(known.has(tok), `${lang}: ${tok} is written as no equation writes it`);
    }
  }
  // the panel scores position i and sums over j, as the lesson does
  assert.ok(t('en', 'explain.score').startsWith('Score eₜᵢ'));
  assert.ok(t('en', 'explain.weight').endsWith('αₜᵢ'));
  assert.ok(known.has('e_ti') && known.has('α_ti') && !known.has('e_tk'));
});

// ------------------------------------------------------------------ the mechanism view

const models = {};
const load = async (name) =>
  (models[name] ??= await loadModel(
    new Uint8Array(readFileSync(new URL(`../../web/models/${name}.safetensors`, import.meta.url))),
  ));
before(() => init());
after(() => Object.values(models).forEach((m) => m.dispose()));

/** Every line of the mechanism view's equation panel for a model and input, over all its steps. */
async function mechanismLines(name, input, sel = {}) {
  const model = await load(name);
  const family = familyOfModel(model);
  const f = FAMILY_DRAWINGS[family];
  const text = textFor(family, model, input);
  let result =
    family === 'classifier'
      ? model.classify(text, { states: true })
      : model.run(text, { states: true });
  if (family === 'transformer') result = transformerStates(model, result);
  const data = f.data(result, model, sel);
  const lines = [];
  f.steps(data).forEach((_, step) => lines.push(...f.equations(data, step, null, 'en')));
  // the query line is a sentence (mech.eq.query*), not an equation
  return lines.filter((l) => l.stage !== 'query');
}

const MECHANISM_MODELS = [
  ['dates-additive', '22 Nov 2026'],
  ['dates-local-p', 'Sunday, 22 November 2026'],
  ['dates-dot', '22 Nov 2026'],
  ['dates-concat', '22 Nov 2026'],
  ['dates-none', '22 Nov 2026'],
  ['lm-agreement-sarnn', 'The FBI is chasing a criminal on the run.'],
  ['lm-agreement-lstmn', 'The FBI is chasing a criminal on the run.'],
  ['clf-reviews-attention', 'The plot was not bad. The music felt boring.'],
  ['clf-reviews-han', 'The plot was not bad. The music felt boring.'],
  ['clf-reviews-structured', 'The plot was not bad. The music felt boring.'],
  ['tf-dates-relative', '22 Nov 2026', { kind: 'encoder' }],
  ['tf-dates-absolute', '22 Nov 2026', { kind: 'cross' }],
];

test("the mechanism view's equations: every symbol is in the glossary", async () => {
  const missing = new Set();
  for (const [name, input, sel] of MECHANISM_MODELS)
    for (const l of await mechanismLines(name, input, sel))
      for (const s of symbolsOf([l.sym]))
        if (!glossaryEntry(s)) missing.add(`${name}: ${s} in ${l.sym}`);
  assert.deepEqual([...missing], []);
});

test("the mechanism view writes the panel's and the lesson's equations", async () => {
  const by = (lines, stage) => lines.filter((l) => l.stage === stage).map((l) => norm(l.sym));
  // seq2seq: the score, the weight and the context are the alignment panel's (explain.js)
  for (const [name, input] of MECHANISM_MODELS.slice(0, 4)) {
    const lines = await mechanismLines(name, input);
    const panel = panelEquations(configOf(name)).map(norm);
    for (const stage of ['score', 'weight', 'context'])
      for (const e of new Set(by(lines, stage)))
        assert.ok(panel.includes(e), `${name} ${stage}: ${e}`);
  }
  const additive = await mechanismLines('dates-additive', '22 Nov 2026');
  assert.deepEqual([...new Set(by(additive, 'score'))], [stepEqs(2)[0]]);
  // step 6: the self-attention RNN's cell and summary
  const sarnn = await mechanismLines('lm-agreement-sarnn', FBI);
  for (const e of stepEqs(6))
    assert.ok(
      sarnn.some((l) => norm(l.sym) === e),
      `step 6's ${e} in the mechanism view`,
    );
  // step 7: each pooling's projected state, score and weights use the lesson's symbols
  const lesson7 = new Set(symbolsOf(stepEqs(7)));
  for (const name of ['clf-reviews-attention', 'clf-reviews-han', 'clf-reviews-structured']) {
    const lines = await mechanismLines(name, 'The plot was not bad. The music felt boring.');
    const syms = symbolsOf(
      lines
        .filter((l) => ['projected', 'score', 'weight', 'penalty'].includes(l.stage))
        .map((l) => l.sym),
    );
    for (const s of syms) assert.ok(lesson7.has(s) || s === 'e', `${name}: ${s} is not step 7's`);
  }
  // step 9: the relative transformer's score
  const rel = await mechanismLines('tf-dates-relative', '22 Nov 2026', { kind: 'encoder' });
  const scores = new Set(symbolsOf(by(rel, 'scores').concat(by(rel, 'relative'))));
  for (const s of symbolsOf(stepEqs(9)))
    if (s !== 'x' && s !== 'W_Q' && s !== 'W_K') assert.ok(scores.has(s), s);
});
