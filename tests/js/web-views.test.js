// web-views.test.js: the heads and pooling views' pure logic in Node: their URL state
// (web/shared/app-state.js: view, model family, kind, layer/head limits, the reading and time views'
// step, switching views), the
// data-driven registry (web/shared/models.js: families, the trained models each view offers, sample inputs), and the
// helpers of web/views/heads-view.js, web/views/pooling-view.js and web/shared/view-kit.js against real runs of the
// tiny fixture models (wasm/index.js) and attnlab's own relative-distance op.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { init, loadModel, ops } from '../../wasm/index.js';
import {
  KINDS,
  MAX_HEAD,
  MAX_INPUT,
  MAX_LAYER,
  MAX_STEP,
  MODEL_DEFAULTS,
  VIEWS,
  formatModelParams,
  formatPageHash,
  parseModelParams,
  parsePageHash,
  switchView,
} from '../../web/shared/app-state.js';
import { VIRIDIS } from '../../web/shared/draw.js';
import {
  clippedDistances,
  gridMax,
  positionInfo,
  selectMaps,
  strongestCell,
} from '../../web/views/heads-view.js';
import {
  ALL_MODELS,
  DEFAULT_MODEL,
  MODELS,
  VIEW_FAMILY,
  compareSet,
  defaultModelFor,
  findModel,
  modelFitsView,
  modelUrl,
  modelsFor,
  resolveModel,
  sampleFor,
  sampleInput,
} from '../../web/shared/models.js';
import { frobeniusPenalty, poolingRows, probabilityRows } from '../../web/views/pooling-view.js';
import { luminance, numbersJSON, textColorFor } from '../../web/shared/view-kit.js';

const ORIGIN = 'http://127.0.0.1:8080';
const loaded = new Map();

before(async () => {
  await init();
});

after(() => {
  for (const m of loaded.values()) m.dispose();
});

async function model(name) {
  if (!loaded.has(name)) {
    const entry = findModel(name);
    loaded.set(
      name,
      await loadModel(
        new Uint8Array(
          await readFile(fileURLToPath(modelUrl(entry, new URL('../../web/', import.meta.url)))),
        ),
      ),
    );
  }
  return loaded.get(name);
}

test('views: heads and pooling parse, format and round-trip with kind', () => {
  assert.ok(VIEWS.includes('heads') && VIEWS.includes('pooling'));
  const s = {
    ...MODEL_DEFAULTS,
    view: 'heads',
    model: 'tiny-tf-encdec',
    input: 'abc',
    layer: 1,
    head: 40,
    lang: 'zh',
    kind: 'decoder',
  };
  const q = formatModelParams(s);
  assert.equal(q, 'view=heads&model=tiny-tf-encdec&input=abc&layer=1&head=40&lang=zh&kind=decoder');
  const back = parseModelParams(q, ORIGIN);
  assert.deepEqual(
    { ...back, refused: undefined, inputCut: undefined },
    { ...s, hide: [], refused: undefined, inputCut: undefined },
  );
  assert.deepEqual(back.refused, []);
  const p = parsePageHash(`#${q}`, ORIGIN);
  assert.equal(formatPageHash(p), `#${q}`);
  const pooling = parseModelParams('view=pooling&model=tiny-clf-han&input=a%20b%20.%20c', ORIGIN);
  assert.equal(pooling.model, 'tiny-clf-han');
  assert.equal(pooling.kind, null);
});

test("views: hostile kind, layer and head values; another family's model is refused", () => {
  const q = new URLSearchParams({
    view: 'heads',
    model: 'dates-additive',
    kind: '<img src=x onerror=alert(1)>',
    layer: '99',
    head: '999',
    input: 'ab',
  });
  const s = parseModelParams(q, ORIGIN);
  assert.equal(s.view, 'heads');
  assert.equal(s.model, defaultModelFor('heads'), 'a seq2seq model is not shown in the heads view');
  assert.equal(s.kind, null);
  assert.equal(s.layer, MAX_LAYER);
  assert.equal(s.head, MAX_HEAD);
  assert.deepEqual(s.refused.sort(), ['kind', 'model']);
  for (const kind of ['Cross', 'cross ', '', 'self', 'constructor', '__proto__']) {
    assert.equal(
      parseModelParams(`view=heads&kind=${encodeURIComponent(kind)}`, ORIGIN).kind,
      null,
      kind,
    );
  }
  for (const k of KINDS) assert.equal(parseModelParams(`view=heads&kind=${k}`, ORIGIN).kind, k);
  assert.equal(parseModelParams('view=heads&head=-1', ORIGIN).head, 0);
  // A classifier in a seq2seq view, and a transformer in the pooling view: the view's default.
  assert.equal(parseModelParams('view=alignment&model=tiny-clf-han', ORIGIN).model, DEFAULT_MODEL);
  assert.equal(
    parseModelParams('view=pooling&model=tiny-tf-decoder', ORIGIN).model,
    defaultModelFor('pooling'),
  );
  // Same-origin paths (family unknown until loaded) are allowed in every view.
  assert.equal(
    parseModelParams(
      'view=heads&model=/tests/fixtures/transformer_decoder_learned.safetensors',
      ORIGIN,
    ).model,
    '/tests/fixtures/transformer_decoder_learned.safetensors',
  );
  // Without an input, the model's sample.
  assert.equal(
    parseModelParams('view=pooling&model=tiny-clf-structured', ORIGIN).input,
    sampleFor('tiny-clf-structured'),
  );
  assert.equal(parseModelParams('', ORIGIN).input, MODEL_DEFAULTS.input);
});

test('step (reading, time): parsed, clamped, junk refused, written only when set, dropped by a switch of view', () => {
  assert.equal(MODEL_DEFAULTS.step, null);
  assert.ok(MAX_STEP >= MAX_INPUT, 'one step per input character at least');
  const s = {
    ...MODEL_DEFAULTS,
    view: 'reading',
    model: defaultModelFor('reading'),
    input: 'the dog runs .',
    step: 3,
  };
  const q = formatModelParams(s);
  assert.equal(
    q,
    `view=reading&model=${s.model}&input=the%20dog%20runs%20.&layer=0&head=0&lang=en&step=3`,
  );
  const back = parseModelParams(q, ORIGIN);
  assert.deepEqual(
    { ...back, refused: undefined, inputCut: undefined },
    { ...s, hide: [], refused: undefined, inputCut: undefined },
  );
  assert.deepEqual(back.refused, []);
  assert.equal(formatPageHash(parsePageHash(`#${q}`, ORIGIN)), `#${q}`);
  assert.match(
    formatModelParams({ ...s, view: 'time', model: DEFAULT_MODEL, step: 0 }),
    /&step=0$/,
    '0 is a position, not the default',
  );
  for (const step of [null, undefined])
    assert.doesNotMatch(formatModelParams({ ...s, step }), /step/);
  assert.doesNotMatch(formatModelParams(MODEL_DEFAULTS), /step/);
  assert.equal(parseModelParams('view=time', ORIGIN).step, null);
  assert.deepEqual(parseModelParams('view=time', ORIGIN).refused, [], 'absent is not refused');
  for (const [text, want] of [
    ['0', 0],
    ['2', 2],
    ['007', 7],
    [String(MAX_STEP), MAX_STEP],
    ['65', MAX_STEP],
    ['1000000000', MAX_STEP],
  ]) {
    const p = parseModelParams(`view=time&input=abc&step=${text}`, ORIGIN);
    assert.equal(p.step, want, text);
    assert.deepEqual(p.refused, [], text);
  }
  for (const text of [
    '-1',
    '1e9',
    'abc',
    '',
    '2.5',
    ' 2',
    '0x10',
    'NaN',
    'Infinity',
    '99999999999',
    '<img src=x onerror=alert(1)>',
  ]) {
    const p = parseModelParams(`view=reading&input=abc&step=${encodeURIComponent(text)}`, ORIGIN);
    assert.equal(p.step, null, text);
    assert.deepEqual(p.refused, ['step'], text);
  }
  // A position means nothing in another view: every switch drops it, staying keeps it.
  assert.equal(switchView(s, 'reading').step, 3);
  for (const view of [...VIEWS.filter((v) => v !== 'reading'), 'playground', 'lab'])
    assert.equal(switchView(s, view).step, null, view);
  const time = { ...s, view: 'time', model: DEFAULT_MODEL, input: '22 Nov 2026', step: 2 };
  assert.deepEqual(
    switchView(time, 'alignment'),
    { ...time, view: 'alignment', step: null },
    'within the family only the step goes',
  );
});

test('switchView: the model and input follow the family; within a family nothing changes', () => {
  const s = parseModelParams('view=alignment&input=22%20Nov%202026&layer=0&head=0', ORIGIN);
  const heads = switchView(s, 'heads');
  assert.equal(heads.model, defaultModelFor('heads'));
  assert.equal(heads.input, sampleFor(heads.model));
  const withKind = { ...heads, model: 'tiny-tf-encdec', kind: 'cross', layer: 1 };
  assert.deepEqual(switchView(withKind, 'heads'), withKind);
  const pooling = switchView(withKind, 'pooling');
  assert.deepEqual(
    [pooling.model, pooling.kind, pooling.layer],
    [defaultModelFor('pooling'), null, 0],
  );
  assert.deepEqual(switchView(s, 'time'), { ...s, view: 'time' });
  assert.deepEqual(switchView(s, 'playground'), { ...s, view: 'playground' });
  const path = { ...s, model: '/x/m.safetensors' };
  assert.equal(switchView(path, 'heads').model, '/x/m.safetensors');
});

test('registry: families, offered models, the trained models are offered first', () => {
  // the dates models (MODELS: the first view's set), then the English → French ones
  assert.deepEqual(modelsFor('seq2seq').slice(0, MODELS.length), MODELS);
  assert.deepEqual(
    modelsFor('seq2seq')
      .slice(MODELS.length)
      .map((m) => [m.name, m.task, m.attention]),
    ['additive', 'dot', 'general', 'concat', 'local-p', 'none'].map((a) => [
      `en-fr-${a}`,
      'translation',
      a,
    ]),
  );
  assert.equal(
    defaultModelFor('alignment'),
    MODELS[0].name,
    'the first view keeps its default model',
  );
  for (const [view, family] of Object.entries(VIEW_FAMILY)) {
    const list = modelsFor(family);
    assert.ok(list.length > 0, view);
    for (const m of list) {
      assert.equal(m.family, family);
      assert.ok(modelFitsView(m.name, view));
      assert.ok(typeof m.sample === 'string' && m.sample.length > 0);
    }
  }
  for (const m of ALL_MODELS) {
    assert.ok(
      ['seq2seq', 'transformer', 'classifier', 'memory-rnn', 'reverse'].includes(m.family),
      m.name,
    );
    assert.equal(resolveModel(m.name, ORIGIN), m);
  }
  const names = ALL_MODELS.map((m) => m.name);
  assert.equal(new Set(names).size, names.length, 'names are unique');
  const trained = [
    [
      'tf-dates-absolute',
      'tf-dates-relative',
      'tf-induction',
      'en-fr-transformer-absolute',
      'en-fr-transformer-relative',
    ],
    ['clf-reviews-attention', 'clf-reviews-han', 'clf-reviews-structured'],
  ];
  for (const names of trained) {
    const family = findModel(names[0]).family;
    assert.deepEqual(
      modelsFor(family).map((m) => m.name),
      names,
      `${family}: the trained models, in order, and no untrained fixture`,
    );
    assert.equal(defaultModelFor(family === 'transformer' ? 'heads' : 'pooling'), names[0]);
    for (const name of names) {
      const m = findModel(name);
      assert.equal(m.trained, true);
      assert.equal(m.ready, true);
      assert.equal(m.file, `models/${name}.safetensors`);
      assert.ok(
        existsSync(new URL(`../../web/${m.file}`, import.meta.url)),
        `${name}: web/${m.file}`,
      );
      assert.ok(
        existsSync(new URL(`../../web/${m.card}`, import.meta.url)),
        `${name}: web/${m.card}`,
      );
      assert.ok(
        m.sample.length <= MAX_INPUT,
        `${name}: sample of ${m.sample.length} characters (at most ${MAX_INPUT})`,
      );
      assert.equal(sampleInput(5, name), m.sample);
    }
  }
  for (const m of ALL_MODELS.filter((e) => !e.trained)) {
    assert.ok(existsSync(new URL(`../../web/${m.file}`, import.meta.url)), `${m.name}: ${m.file}`);
  }
});

test("compareSet: the compare view runs the models of the current model's task", () => {
  assert.equal(compareSet(DEFAULT_MODEL), MODELS);
  assert.deepEqual(
    compareSet('en-fr-dot').map((m) => m.name),
    modelsFor('seq2seq')
      .filter((m) => m.task === 'translation')
      .map((m) => m.name),
  );
  assert.equal(compareSet('tiny-additive'), MODELS, 'a tiny model (no task): the first set');
  assert.equal(compareSet('/x/m.safetensors'), MODELS, 'a path: the first set');
  assert.equal(
    sampleInput(3, 'en-fr-additive'),
    findModel('en-fr-additive').sample,
    'the translation sample, not a date',
  );
});

test('sample inputs are valid for their models (no unknown tokens, within maxPositions)', async () => {
  for (const family of ['transformer', 'classifier']) {
    for (const entry of modelsFor(family)) {
      const m = await model(entry.name);
      const unk = m.config.tokenizer.unk;
      for (const text of [entry.sample, sampleInput(1, entry.name), sampleInput(99, entry.name)]) {
        const ids = m.encode(text);
        assert.ok(ids.length > 0, `${entry.name}: ${text}`);
        assert.ok(
          !m.tokenizer.srcTokens(ids).includes(unk),
          `${entry.name}: “${text}” has unknown tokens`,
        );
        if (m.config.maxPositions)
          assert.ok(ids.length <= m.config.maxPositions, `${entry.name}: ${text}`);
        assert.doesNotThrow(() => m.run(text), `${entry.name}: ${text}`);
      }
      assert.equal(sampleInput(7, entry.name), sampleInput(7, entry.name));
    }
  }
});

test("positionInfo reads the config; clippedDistances equals attnlab's relativePositionAttention.distances", () => {
  assert.deepEqual(positionInfo({ positions: 'learned', maxPositions: 16 }), {
    type: 'learned',
    relative: false,
    k: null,
    maxPositions: 16,
  });
  assert.deepEqual(positionInfo({ positions: 'sinusoidal' }), {
    type: 'sinusoidal',
    relative: false,
    k: null,
    maxPositions: null,
  });
  assert.deepEqual(positionInfo({ positions: 'relative', maxRelativePosition: 3 }), {
    type: 'relative',
    relative: true,
    k: 3,
    maxPositions: null,
  });
  assert.equal(positionInfo({ positions: 'relative', maxRelativePosition: -1 }).k, null);
  assert.equal(positionInfo({ positions: 'rotary' }).type, 'unknown');
  assert.equal(positionInfo(null).type, 'unknown');
  for (const [n, k] of [
    [1, 0],
    [5, 0],
    [5, 2],
    [7, 3],
    [12, 20],
  ]) {
    const ref = ops.relativePositionAttention.distances(n, k);
    assert.deepEqual(Array.from(clippedDistances(n, n, k)), Array.from(ref.data), `n ${n}, k ${k}`);
  }
  // Not square: row i, column j.
  assert.deepEqual(Array.from(clippedDistances(2, 4, 1)), [0, 1, 1, 1, -1, 0, 1, 1]);
});

test('selectMaps: every layer and head, per kind for an encoder-decoder', async () => {
  const dec = await model('tiny-tf-decoder');
  const r = dec.run('abcde');
  const sel = selectMaps(r, dec.config, 'cross');
  assert.equal(sel.kind, null, 'one stack: kind is ignored');
  assert.deepEqual([sel.layers, sel.heads], [dec.config.numLayers, dec.config.numHeads]);
  for (let l = 0; l < sel.layers; l++)
    for (let h = 0; h < sel.heads; h++)
      assert.deepEqual([sel.grid[l][h].layer, sel.grid[l][h].head], [l, h]);
  const ed = await model('tiny-tf-encdec');
  const t = ed.run('abcdefg');
  const S = t.srcIds.length;
  for (const [kind, want] of [
    [null, 'cross'],
    ['bogus', 'cross'],
    ['encoder', 'encoder'],
    ['decoder', 'decoder'],
    ['cross', 'cross'],
  ]) {
    const s = selectMaps(t, ed.config, kind);
    assert.equal(s.kind, want);
    const m = s.grid[1][1];
    if (want === 'encoder') assert.deepEqual(m.weights.shape, [S, S]);
    if (want === 'decoder') assert.equal(m.weights.shape[0], m.weights.shape[1]);
    if (want === 'cross') assert.equal(m.weights.shape[1], S);
    assert.equal(m.kind, want === 'cross' ? 'cross' : 'self');
  }
  const m = selectMaps(t, ed.config, 'encoder').grid[0][0];
  const best = strongestCell(m);
  assert.equal(best.value, Math.max(...m.weights.data));
  assert.equal(m.weights.data[best.row * S + best.col], best.value);
  assert.ok(gridMax(sel.grid) > 0 && gridMax(sel.grid) <= 1);
  assert.equal(gridMax([[{ weights: { data: new Float32Array(4) } }]]), 1);
});

test('selectMaps sizes the grid with a loop: 200,000 maps do not overflow the stack', () => {
  const attention = Array.from({ length: 200_000 }, (_, i) => ({
    layer: i % 3,
    head: i % 5,
    kind: 'self',
  }));
  const sel = selectMaps({ attention }, { variant: 'encoder' });
  assert.deepEqual([sel.layers, sel.heads], [3, 5]);
  assert.equal(sel.grid[2][4].layer, 2);
});

test('poolingRows: one row (attention), sentences (han), hops (structured); the penalty checks out', async () => {
  const text = 'the cat sat on the mat . not a good dog . zebra ran';
  const att = await model('tiny-clf-attention');
  const a = att.run(text);
  const ra = poolingRows(a, 'attention');
  assert.equal(ra.rows.length, 1);
  assert.deepEqual(
    ra.rows[0].words.map((w) => w.token),
    a.tokens,
  );
  assert.ok(a.tokens.includes('<unk>'));
  assert.ok(Math.abs(ra.rows[0].words.reduce((x, w) => x + w.weight, 0) - 1) < 1e-5);
  assert.equal(ra.max, Math.max(...a.attention[0].weights.data));

  const han = await model('tiny-clf-han');
  const h = han.run(text);
  const rh = poolingRows(h, 'han');
  assert.equal(rh.rows.length, 3);
  assert.deepEqual(
    rh.rows.map((r) => r.words.length),
    h.sentences.map(([s, e]) => e - s),
  );
  for (const row of rh.rows)
    assert.ok(
      Math.abs(row.words.reduce((x, w) => x + w.weight, 0) - 1) < 1e-5,
      'each sentence sums to 1',
    );
  assert.deepEqual(
    rh.rows.map((r) => r.weight),
    Array.from(h.sentenceWeights),
  );
  assert.equal(
    rh.rows.flatMap((r) => r.words.map((w) => w.index)).join(),
    a.tokens.map((_, i) => i).join(),
  );
  assert.ok(rh.max >= Math.max(...h.sentenceWeights));

  const st = await model('tiny-clf-structured');
  const s = st.run(text);
  const [r, n] = s.attention[0].weights.shape;
  const rs = poolingRows(s, 'structured');
  assert.equal(rs.rows.length, r);
  assert.equal(r, st.config.hops);
  for (const row of rs.rows) assert.equal(row.words.length, n);
  const p = frobeniusPenalty(s.attention[0].weights.data, r, n);
  assert.ok(
    Math.abs(p - s.penalty) <= 1e-5 * Math.max(1, p),
    `penalty ${s.penalty} vs ${p} (double)`,
  );
  assert.equal(frobeniusPenalty(new Float32Array([1, 0, 0, 1]), 2, 2), 0);
  assert.equal(frobeniusPenalty(new Float32Array([1, 0, 1, 0]), 2, 2), 2);

  const probs = probabilityRows(st.labels, s.probs, s.labelId);
  assert.deepEqual(
    probs.map((x) => x.label),
    st.labels,
  );
  assert.equal(probs.filter((x) => x.predicted).length, 1);
  assert.equal(probs.find((x) => x.predicted).label, s.label);
});

test('view-kit: readable text on every viridis colour; float32-exact JSON numbers', () => {
  const contrast = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  let worst = Infinity;
  for (let i = 0; i < 256; i++) {
    const rgb = [VIRIDIS[3 * i], VIRIDIS[3 * i + 1], VIRIDIS[3 * i + 2]];
    const fg = textColorFor(rgb) === '#000000' ? 0 : 1;
    worst = Math.min(worst, contrast(luminance(rgb), fg));
  }
  assert.ok(
    worst >= 4.5,
    `worst contrast of a word on viridis: ${worst.toFixed(2)} (WCAG AA needs 4.5)`,
  );
  const f = new Float32Array([0.1, 1 / 3, NaN, Infinity]);
  const back = numbersJSON(f);
  assert.equal(Math.fround(back[0]), f[0]);
  assert.equal(Math.fround(back[1]), f[1]);
  assert.deepEqual(back.slice(2), [null, null]);
});
