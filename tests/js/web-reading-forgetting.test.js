// web-reading-forgetting.test.js: the reading and forgetting views' pure logic in Node: their URL
// state and registry entries (web/shared/app-state.js, web/shared/models.js: families memory-rnn and reverse,
// the trained models and their stand-ins), and the helpers of web/views/reading-view.js and
// web/views/forgetting-view.js against real runs of the fixture models (and the trained ones when
// web/models/ has them) through wasm/index.js.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { init, loadModel } from '../../wasm/index.js';
import {
  VIEWS,
  formatPageHash,
  parseModelParams,
  parsePageHash,
  switchView,
} from '../../web/shared/app-state.js';
import { lengthStratified, scoreByLength, SYMBOLS } from '../../web/data/sequences.js';
import {
  checkCurve,
  compareReversal,
  curveCSV,
  nearestLength,
  randomReversalInput,
  reversePair,
} from '../../web/views/forgetting-view.js';
import {
  VIEW_FAMILY,
  defaultModelFor,
  findModel,
  modelFitsView,
  modelUrl,
  modelsFor,
  sampleFor,
} from '../../web/shared/models.js';
import {
  attentionRow,
  readSoFar,
  readingData,
  readingInput,
  strongestEarlier,
  topNext,
} from '../../web/views/reading-view.js';
import { leastExpected } from '../../web/views/reading-data.js';

const ORIGIN = 'http://127.0.0.1:8080';
const WEB_DIR = new URL('../../web/', import.meta.url);
const loaded = new Map();

before(async () => {
  await init();
});

after(() => {
  for (const m of loaded.values()) m.dispose();
});

const fileOf = (name) => fileURLToPath(modelUrl(findModel(name), WEB_DIR));
const have = (name) => existsSync(fileOf(name));

async function model(name) {
  if (!loaded.has(name))
    loaded.set(name, await loadModel(new Uint8Array(readFileSync(fileOf(name)))));
  return loaded.get(name);
}

test('views, families and URL state: reading (memory-rnn) and forgetting (reverse)', () => {
  assert.ok(VIEWS.includes('reading') && VIEWS.includes('forgetting'));
  assert.equal(VIEW_FAMILY.reading, 'memory-rnn');
  assert.equal(VIEW_FAMILY.forgetting, 'reverse');
  for (const view of ['reading', 'forgetting']) {
    const name = defaultModelFor(view);
    assert.ok(modelFitsView(name, view));
    const s = parsePageHash(`#view=${view}`, ORIGIN);
    assert.equal(s.view, view);
    assert.equal(s.model, name);
    assert.equal(s.input, sampleFor(name));
    assert.deepEqual(parsePageHash(formatPageHash(s), ORIGIN).input, s.input);
    // another family's model is refused and replaced by the view's default
    const bad = parseModelParams(`view=${view}&model=dates-additive&input=x`, ORIGIN);
    assert.equal(bad.model, name);
    assert.ok(bad.refused.includes('model'));
  }
  const r = switchView({ ...parsePageHash('#view=alignment', ORIGIN) }, 'reading');
  assert.equal(r.model, defaultModelFor('reading'));
  assert.equal(r.input, sampleFor(r.model));
  assert.equal(
    switchView({ ...r, input: 'the dog' }, 'reading').input,
    'the dog',
    'within a family the input stays',
  );
  // hostile values
  const h = parseModelParams(
    'view=reading&model=javascript:alert(1)&input=%3Cimg%20src%3Dx%3E&lang=xx',
    ORIGIN,
  );
  assert.equal(h.view, 'reading');
  assert.equal(h.input, '<img src=x>'); // text only, shown with textContent
  assert.ok(h.refused.includes('model') && h.refused.includes('lang'));
});

test('registry: the trained models and their stand-ins', () => {
  for (const [name, family] of [
    ['lm-agreement-lstmn', 'memory-rnn'],
    ['lm-agreement-sarnn', 'memory-rnn'],
    ['lm-agreement-lstm', 'memory-rnn'],
    ['seq-reverse-attention', 'reverse'],
    ['seq-reverse-none', 'reverse'],
  ]) {
    const m = findModel(name);
    assert.ok(m, name);
    assert.equal(m.family, family);
    assert.equal(m.trained, true);
    assert.equal(m.file, `models/${name}.safetensors`);
    assert.equal(m.ready, true, `${name} is offered`);
    assert.ok(have(name), `${name}: web/${m.file}`);
    assert.ok(modelsFor(family).includes(m), `${name} is offered by its view`);
  }
  assert.deepEqual(
    modelsFor('memory-rnn').map((m) => m.name),
    ['lm-agreement-lstmn', 'lm-agreement-sarnn', 'lm-agreement-lstm'],
  );
  assert.deepEqual(
    modelsFor('reverse').map((m) => m.name),
    ['seq-reverse-attention', 'seq-reverse-none'],
  );
  // the stand-ins stay reachable by name
  for (const name of ['tiny-lm-lstmn', 'tiny-reverse-attention'])
    assert.equal(findModel(name).trained, false);
  const lms = modelsFor('memory-rnn');
  assert.deepEqual(
    lms.map((m) => m.cell),
    ['lstmn', 'self-attention-rnn', 'lstm'],
  );
  const pair = modelsFor('reverse');
  assert.deepEqual(
    pair.map((m) => m.attention),
    ['additive', 'none'],
  );
  assert.equal(pair[0].partner, pair[1].name);
  assert.equal(pair[1].partner, pair[0].name);
});

test('readingInput normalizes as the agreement models read', () => {
  assert.equal(
    readingInput('The FBI is chasing a criminal on the run.'),
    'the fbi is chasing a criminal on the run .',
  );
  assert.equal(readingInput('  Hello,WORLD!  '), 'hello , world !');
  assert.equal(readingInput(''), '');
  assert.equal(readingInput(null), '');
});

test('readingData: tokens, probabilities and unknown words of real runs', async () => {
  const names = [
    'tiny-lm-lstmn',
    'tiny-lm-sarnn',
    'tiny-lm-lstm',
    ...['lm-agreement-lstmn', 'lm-agreement-sarnn', 'lm-agreement-lstm'].filter(have),
  ];
  for (const name of names) {
    const m = await model(name);
    const text = readingInput('The big dog chased the zebra.');
    const r = m.run(text, { distributions: true });
    const d = readingData(r, text, m.config);
    assert.deepEqual(d.tokens, [...r.tokens]);
    assert.equal(d.probs[0], null);
    for (let i = 1; i < d.n; i++)
      assert.ok(Math.abs(d.probs[i] - Math.exp(r.logProbs[i - 1])) < 1e-12);
    const vocab = new Set(m.config.tokenizer.vocab);
    const words = text.split(' ');
    assert.deepEqual(
      d.unknown.map((u) => u.word),
      words.filter((w) => !vocab.has(w)),
      name,
    );
    // each unknown word is read as unk or, with tokenizer.unknownShapes, its shape class
    const tok = m.config.tokenizer;
    for (const u of d.unknown) {
      assert.equal(d.tokens[u.index], u.token);
      assert.ok([tok.unk, ...(tok.unknownShapes ?? [])].includes(u.token), `${name}: ${u.word}`);
    }
    if (tok.unknownShapes) {
      // "jars" is unknown, read as <unk-s> (issue 30), and still listed
      const jars = readingInput('The jars are on the zebra.');
      const dj = readingData(m.run(jars), jars, m.config);
      assert.deepEqual(
        dj.unknown.map((u) => [u.word, u.token]),
        [
          ['jars', '<unk-s>'],
          ['zebra', '<unk>'],
        ],
        name,
      );
    }
    if (m.config.cell === 'lstm') {
      assert.equal(d.weights, null);
      assert.equal(attentionRow(d.weights, d.n, 2), null);
      continue;
    }
    const n = d.n;
    for (let t = 0; t < n; t++) {
      const row = attentionRow(d.weights, n, t);
      assert.equal(row.length, t + 1);
      const sum = row.reduce((a, b) => a + b, 0);
      // LSTMN: s_t over the words before t (row 0 is empty); self-attention RNN: α_t over i ≤ t
      const expected = m.config.cell === 'lstmn' && t === 0 ? 0 : 1;
      assert.ok(Math.abs(sum - expected) < 1e-5, `${name} row ${t} sums to ${sum}`);
      for (let j = t + 1; j < n; j++)
        assert.equal(d.weights[t * n + j], 0, `${name}: row ${t} never sees word ${j}`);
    }
    const block = readSoFar(d.weights, n, 3);
    assert.equal(block.length, 16);
    for (let i = 0; i < 4; i++)
      for (let j = 0; j < 4; j++) assert.equal(block[i * 4 + j], d.weights[i * n + j]);
    // the next-word guesses: a distribution row, most probable first
    const V = r.distributions.shape[1];
    const top = topNext(r.distributions.data.subarray(2 * V, 3 * V), m.config.tokenizer.vocab, 5);
    assert.equal(top.length, 5);
    for (let i = 1; i < top.length; i++) assert.ok(top[i - 1].prob >= top[i].prob);
    assert.ok(!top.some((g) => g.word === '<pad>'));
    let total = 0;
    for (let j = 0; j < V; j++) total += Math.exp(r.distributions.data[2 * V + j]);
    assert.ok(Math.abs(total - 1) < 1e-4);
  }
  assert.deepEqual(strongestEarlier(new Float32Array([0.1, 0.7, 0.2])), {
    index: 1,
    weight: new Float32Array([0.7])[0],
  });
  assert.deepEqual(strongestEarlier(new Float32Array([0, 0])), { index: -1, weight: 0 });
  assert.deepEqual(strongestEarlier(null), { index: -1, weight: 0 });
});

test('leastExpected: the word most of the perplexity comes from, and its share', async () => {
  // known answers: −log p of 0.5, 1e-11 and 0.9 are 0.693, 25.328 and 0.105: the second is 96.94%
  const least = leastExpected([Math.log(0.5), Math.log(1e-11), Math.log(0.9)]);
  assert.equal(least.index, 2);
  assert.ok(Math.abs(least.prob - 1e-11) < 1e-24);
  const sum = -Math.log(0.5) - Math.log(1e-11) - Math.log(0.9);
  assert.ok(Math.abs(least.share - -Math.log(1e-11) / sum) < 1e-12);
  assert.ok(Math.abs(least.share - 0.969437) < 1e-6);
  // the first of equals; nothing to say with one predicted token, no surprisal, or NaN
  assert.equal(leastExpected([Math.log(0.25), Math.log(0.25)]).share, 0.5);
  assert.equal(leastExpected([Math.log(0.25), Math.log(0.25)]).index, 1);
  for (const bad of [null, [], [-1], [0, 0], [NaN, -1], [-Infinity, -1]])
    assert.equal(leastExpected(bad), null, JSON.stringify(bad));
  // a real run: its perplexity is exp(mean −log p), so the share is of what the perplexity averages
  for (const name of ['tiny-lm-lstm', 'lm-agreement-lstm'].filter(
    (n) => n.startsWith('tiny') || have(n),
  )) {
    const m = await model(name);
    const text = readingInput('The boys who clean the rooms climb trees.');
    const r = m.run(text);
    const l = leastExpected(r.logProbs);
    const lp = [...r.logProbs];
    const total = lp.reduce((a, b) => a - b, 0);
    assert.ok(Math.abs(Math.exp(total / lp.length) - r.perplexity) / r.perplexity < 1e-4, name);
    assert.equal(lp[l.index - 1], Math.min(...lp), name);
    assert.ok(Math.abs(l.share - -lp[l.index - 1] / total) < 1e-12, name);
  }
});

test('the default reading input: every word known to the trained models', async () => {
  for (const name of ['lm-agreement-lstmn', 'lm-agreement-sarnn', 'lm-agreement-lstm'].filter(
    have,
  )) {
    const m = await model(name);
    const text = readingInput(sampleFor(name));
    const d = readingData(m.run(text), text, m.config);
    assert.deepEqual(d.unknown, [], name);
    assert.deepEqual(d.tokens, [
      '<s>',
      'the',
      'fbi',
      'is',
      'chasing',
      'a',
      'criminal',
      'on',
      'the',
      'run',
      '.',
      '</s>',
    ]);
  }
});

test('checkCurve: the shape scripts/train/sequences.mjs writes; bad documents refused by name', () => {
  const files = [
    new URL('../fixtures/forgetting_curve.json', import.meta.url),
    new URL('../../web/models/forgetting.json', import.meta.url),
  ];
  for (const file of files.filter((f) => existsSync(f))) {
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const c = checkCurve(doc);
    assert.equal(c.models.length, 2);
    assert.deepEqual(c.lengths, doc.lengths);
    assert.ok(c.symbols > 1);
    const csv = curveCSV(c).trim().split('\r\n');
    assert.equal(csv.length, c.lengths.length + 1);
    assert.equal(
      csv[0],
      `length,${c.models.map((m) => `${m.name} tokenAccuracy,${m.name} exactMatch`).join(',')}`,
    );
    assert.equal(csv[1].split(',')[1], String(c.models[0].tokenAccuracy[0]));
  }
  const good = {
    lengths: [5, 6],
    models: [{ name: 'a', tokenAccuracy: [1, 0.5], exactMatch: [1, 0] }],
  };
  assert.equal(checkCurve(good).models[0].parameters, null);
  assert.throws(() => checkCurve(null), /not a JSON object/);
  assert.throws(() => checkCurve({ ...good, lengths: [5] }), /lengths/);
  assert.throws(() => checkCurve({ ...good, lengths: [6, 5] }), /increase/);
  assert.throws(() => checkCurve({ ...good, models: [] }), /models/);
  assert.throws(
    () => checkCurve({ ...good, models: [{ name: 'a', tokenAccuracy: [1], exactMatch: [1, 0] }] }),
    /tokenAccuracy must hold 2/,
  );
  assert.throws(
    () =>
      checkCurve({ ...good, models: [{ name: 'a', tokenAccuracy: [1, 2], exactMatch: [1, 0] }] }),
    /\[0, 1\]/,
  );
  assert.throws(
    () => checkCurve({ ...good, models: [{ tokenAccuracy: [1, 1], exactMatch: [1, 0] }] }),
    /name/,
  );
  assert.equal(nearestLength([5, 10, 20], 14), 1);
  assert.equal(nearestLength([5, 10, 20], 100), 2);
  assert.equal(nearestLength([5, 10, 20], 0), 0);
});

test('compareReversal agrees with scoreByLength of web/data/sequences.js', async () => {
  const pair = modelsFor('reverse');
  const ex = lengthStratified({
    seed: 3,
    perLength: 2,
    minLen: 5,
    maxLen: 12,
    symbols: 'abcdefghijk',
  });
  for (const entry of pair) {
    const m = await model(entry.name);
    const outputs = ex.map((p) => m.run(p.src).output);
    const rows = scoreByLength(ex, outputs);
    for (const row of rows) {
      const mine = ex
        .map((p, i) => [p, compareReversal(outputs[i], p.src)])
        .filter(([p]) => p.length === row.length);
      const right = mine.reduce((a, [, c]) => a + c.right, 0);
      const total = mine.reduce((a, [, c]) => a + c.total, 0);
      assert.ok(
        Math.abs(right / total - row.tokenAccuracy) < 1e-12,
        `${entry.name} length ${row.length}`,
      );
    }
  }
  const c = compareReversal('cbx', 'abcd');
  assert.equal(c.expected, 'dcba');
  assert.deepEqual(
    c.chars.map((ch) => ch.ok),
    [false, false, false, false],
  );
  assert.deepEqual(
    compareReversal('dcbaz', 'abcd').chars.map((ch) => [ch.char, ch.expected, ch.ok]),
    [
      ['d', 'd', true],
      ['c', 'c', true],
      ['b', 'b', true],
      ['a', 'a', true],
      ['z', null, false],
    ],
  );
  assert.equal(compareReversal('dc', 'abcd').chars[3].char, null);
  assert.equal(compareReversal('', '').accuracy, 0);
});

test('reversePair: each model and its partner; paths alone', () => {
  for (const [a, b] of [
    ['seq-reverse-attention', 'seq-reverse-none'],
    ['tiny-reverse-attention', 'tiny-reverse-none'],
  ]) {
    const p = reversePair(a);
    assert.deepEqual([p.attention, p.none], [a, b]);
    assert.deepEqual(reversePair(b), p);
    assert.match(p.curve, /forgetting(_curve)?\.json$/);
  }
  const path = reversePair('/x/m.safetensors');
  assert.equal(path.attention, '/x/m.safetensors');
  assert.equal(path.none, null);
  assert.equal(path.curve, modelsFor('reverse')[0].curve);
  for (const entry of modelsFor('reverse'))
    assert.ok(existsSync(fileURLToPath(new URL(entry.curve, WEB_DIR))), entry.curve);
});

test('randomReversalInput: held-out strings of 5 to 60 symbols a–t, one per seed', async () => {
  const seen = new Set();
  for (let seed = 0; seed < 200; seed++) {
    const s = randomReversalInput(seed);
    assert.ok(s.length >= 5 && s.length <= 60, s);
    assert.ok(
      [...s].every((ch) => SYMBOLS.includes(ch)),
      s,
    );
    assert.equal(randomReversalInput(seed), s);
    seen.add(s);
  }
  assert.ok(seen.size > 190);
  const lengths = [...seen].map((s) => s.length);
  assert.ok(
    Math.min(...lengths) <= 10 && Math.max(...lengths) >= 55,
    'the lengths cover the range',
  );
});
