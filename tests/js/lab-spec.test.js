// lab-spec.test.js: the lab's experiment (web/lab/spec.js): the checker (never throws, names what
// it refuses), the URL form (canonical, round trip, hostile values, bounded), the model configs
// createModel accepts, parameterCount equal to the real weight count for a grid of specs, the
// presets and the attention equations; the old Train view's links (the dates preset, the limits).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEFAULT_EXPERIMENT,
  TASK_NAMES,
  ATTENTIONS,
  LIMITS,
  PRESETS,
  CELLS,
  POSITIONS,
  checkExperiment,
  parseLabParams,
  formatLabParams,
  modelConfig,
  attentionSizeFor,
  parameterCount,
  attentionEquation,
} from '../../web/lab/spec.js';
import { makeTask } from '../../web/lab/tasks.js';
import { createModel, saveModel, readSafetensors } from '../../wasm/index.js';
import { CONFIG_LIMITS } from '../../wasm/config-limits.js';

const clone = (o) => JSON.parse(JSON.stringify(o));

test("the contract's names and shapes", () => {
  assert.deepEqual(
    [...TASK_NAMES],
    ['copy', 'reverse', 'sort', 'addition', 'dates', 'translation', 'custom'],
  );
  assert.deepEqual(
    [...ATTENTIONS],
    ['none', 'additive', 'dot', 'general', 'concat', 'local-m', 'local-p', 'key-query'],
  );
  assert.deepEqual([...LIMITS.seq2seq.hidden], [16, 256]);
  assert.deepEqual([...LIMITS.seq2seq.embedding], [8, 256]);
  assert.deepEqual([...LIMITS.seq2seq.layers], [1, 2]);
  assert.deepEqual([...LIMITS.transformer.layers], [1, 4]);
  assert.deepEqual([...LIMITS.transformer.heads], [1, 8]);
  assert.deepEqual([...LIMITS.transformer.width], [16, 128]);
  assert.deepEqual([...LIMITS.transformer.feedforward], [16, 512]);
  assert.deepEqual([...LIMITS.train.batch], [1, 256]);
  assert.deepEqual([...LIMITS.train.clip], [0, 10]);
  assert.deepEqual([...LIMITS.train.workers], [1, 4]);
  assert.deepEqual([...LIMITS.train.halfLife], [0, 100000]);
  assert.deepEqual([...LIMITS.train.seed], [0, 2 ** 32 - 1]);
  const { experiment, refused } = checkExperiment(DEFAULT_EXPERIMENT);
  assert.deepEqual(refused, []);
  assert.deepEqual(experiment, clone(DEFAULT_EXPERIMENT));
  assert.ok(Object.isFrozen(DEFAULT_EXPERIMENT) && Object.isFrozen(DEFAULT_EXPERIMENT.a.model));
  assert.deepEqual(Object.keys(experiment.task).sort(), [
    'data',
    'level',
    'maxLength',
    'minLength',
    'name',
    'seed',
    'size',
  ]);
  assert.deepEqual(Object.keys(experiment.a).sort(), ['model', 'train']);
  assert.deepEqual(Object.keys(experiment.a.train).sort(), [
    'batch',
    'clip',
    'halfLife',
    'lr',
    'optimizer',
    'seed',
    'workers',
  ]);
});

test('presets: the two the contract names, every one a whole valid experiment with two runs', () => {
  const ids = PRESETS.map((p) => p.id);
  assert.ok(ids.includes('with-without') && ids.includes('additive-dot'));
  assert.equal(new Set(ids).size, ids.length);
  for (const p of PRESETS) {
    const { experiment, refused } = checkExperiment(p.experiment);
    assert.deepEqual(refused, [], p.id);
    assert.deepEqual(experiment, clone(p.experiment), `${p.id} is already canonical`);
    assert.ok(experiment.b, `${p.id}: an A/B preset`);
  }
  const ww = PRESETS.find((p) => p.id === 'with-without').experiment;
  assert.deepEqual([ww.task.name, ww.task.minLength, ww.task.maxLength], ['reverse', 5, 40]);
  assert.equal(ww.a.model.attention, 'additive');
  assert.equal(ww.b.model.attention, 'none');
  assert.deepEqual(
    { ...ww.a.model, attention: 'none', hidden: ww.b.model.hidden },
    ww.b.model,
    'the same model but for attention and the hidden size that makes it as large (lab-presets.test.js)',
  );
  // the same training but A's learning-rate half-life (B, ~4× the steps per second, keeps a constant rate: spec.js)
  assert.deepEqual({ ...ww.a.train, halfLife: 0 }, ww.b.train);
  assert.ok(ww.a.train.halfLife > 0);
  const ad = PRESETS.find((p) => p.id === 'additive-dot').experiment;
  assert.deepEqual([ad.a.model.attention, ad.b.model.attention], ['additive', 'dot']);
  for (const family of TASK_NAMES.filter((n) => n !== 'custom')) {
    assert.ok(
      PRESETS.some((p) => p.experiment.task.name === family),
      `a preset for ${family}`,
    );
  }
});

test('checkExperiment never throws and names every refused value', () => {
  const hostile = [
    undefined,
    null,
    0,
    'x',
    [],
    () => 1,
    { task: 5 },
    { a: null },
    { a: { model: 'x', train: [] } },
    { task: { name: '__proto__' } },
    JSON.parse('{"__proto__": {"task": 1}}'),
    { b: 7 },
  ];
  for (const h of hostile) {
    const { experiment } = checkExperiment(h);
    assert.equal(typeof experiment.task.name, 'string');
    assert.ok(experiment.a.model.family);
  }
  const bad = clone(DEFAULT_EXPERIMENT);
  bad.a.model.hidden = 9999;
  bad.a.model.cell = 'transistor';
  bad.a.train.lr = -1;
  bad.a.train.batch = 'lots';
  bad.task.minLength = 0.5;
  bad.b.model.attention = '<script>';
  const { experiment, refused } = checkExperiment(bad);
  assert.deepEqual(
    refused.sort(),
    [
      'a.model.cell=transistor',
      'a.model.hidden=9999',
      'a.train.batch=lots',
      'a.train.lr=-1',
      'b.model.attention=<script>',
      'task.minLength=0.5',
    ].sort(),
  );
  assert.equal(experiment.a.model.hidden, 256, 'clamped');
  assert.equal(experiment.a.model.cell, 'lstm', 'defaulted');
  assert.equal(experiment.a.train.lr, LIMITS.train.lr[0]);
  assert.equal(experiment.a.train.batch, DEFAULT_EXPERIMENT.a.train.batch);
  assert.equal(experiment.task.minLength, LIMITS.task.lengths.reverse[0]);
  // b: null is one run; a missing b is the default's
  assert.equal(checkExperiment({ ...clone(DEFAULT_EXPERIMENT), b: null }).experiment.b, null);
  // heads must divide width; bidirectional needs an even hidden
  const t = checkExperiment({ a: { model: { family: 'transformer', width: 48, heads: 5 } } });
  assert.equal(t.experiment.a.model.heads, 4);
  assert.deepEqual(t.refused, ['a.model.heads=5']);
  const bi = checkExperiment({
    a: { model: { family: 'seq2seq', bidirectional: true, hidden: 33 } },
  });
  assert.equal(bi.experiment.a.model.hidden, 32);
  assert.deepEqual(bi.refused, ['a.model.hidden=33']);
  // max below min: clamped up to min, named
  const r = checkExperiment({ task: { name: 'copy', minLength: 10, maxLength: 4 } });
  assert.deepEqual([r.experiment.task.minLength, r.experiment.task.maxLength], [10, 10]);
  assert.deepEqual(r.refused, ['task.maxLength=4']);
  // a long value is shown shortened
  const long = checkExperiment({ task: { name: 'x'.repeat(10000) } });
  assert.ok(long.refused[0].length < 60);
});

test('URL: canonical short keys, round trip for the default and every preset', () => {
  const p = formatLabParams(DEFAULT_EXPERIMENT);
  assert.equal(p.get('task'), 'reverse');
  assert.equal(p.get('ah'), '64');
  assert.ok(p.toString().length < 600, `${p.toString().length} characters`);
  for (const e of [DEFAULT_EXPERIMENT, ...PRESETS.map((x) => x.experiment)]) {
    const s = formatLabParams(e).toString();
    const back = parseLabParams(new URLSearchParams(s));
    assert.deepEqual(back.refused, []);
    assert.deepEqual(back.experiment, checkExperiment(e).experiment);
    assert.equal(
      formatLabParams(back.experiment).toString(),
      s,
      'canonical: formatting again gives the same string',
    );
    assert.deepEqual(parseLabParams(s).experiment, back.experiment, 'a string works too');
  }
  // one run, a custom task with its data hash, a transformer, an awkward learning rate
  const e = clone(DEFAULT_EXPERIMENT);
  e.b = null;
  e.task = {
    name: 'custom',
    minLength: 1,
    maxLength: 50,
    size: 0,
    level: 'word',
    seed: 9,
    data: '0123456789abcdef',
  };
  e.a.model = {
    family: 'transformer',
    layers: 3,
    heads: 2,
    width: 48,
    feedforward: 96,
    positions: 'relative',
  };
  e.a.train.lr = 0.0012345678901234;
  e.a.train.seed = 2 ** 32 - 1;
  const s = formatLabParams(e);
  assert.equal(s.get('b'), 'off');
  assert.equal(s.get('data'), '0123456789abcdef');
  assert.deepEqual(parseLabParams(s), { experiment: e, refused: [] });
});

test('URL: hostile parameters are clamped or refused by name, never throw, stay bounded', () => {
  const hostile = [
    'ah=1e400',
    'ah=NaN',
    'ah=-5',
    'ah=0x40',
    'ah=64.5',
    'alr=Infinity',
    'alr=1e-300',
    'abs=99999999999999999999',
    'task=constructor',
    'task=__proto__',
    'af=transformer&ahd=7&aw=20',
    'af=<img src=x>',
    `ah=${'9'.repeat(5000)}`,
    'data=../../etc',
    'task=custom&data=zz',
    'min=30&max=2',
    'abi=maybe',
    'asd=-1',
    'awk=1000',
    'acl=-3',
    '%E0%A4%A=1',
    '&&&=&=',
    `${'x=1&'.repeat(10000)}`,
    'b=off&bh=9999',
  ];
  for (const h of hostile) {
    const { experiment, refused } = parseLabParams(new URLSearchParams(h));
    assert.deepEqual(
      checkExperiment(experiment).refused,
      [],
      `${h.slice(0, 40)}: the result is valid`,
    );
    assert.ok(Array.isArray(refused));
    assert.ok(
      refused.every((r) => typeof r === 'string' && r.length < 80),
      h.slice(0, 40),
    );
    assert.ok(formatLabParams(experiment).toString().length < 600);
  }
  const one = (h) => parseLabParams(new URLSearchParams(h));
  assert.deepEqual(one('ah=1e400').refused, ['a.model.hidden=1e400']);
  assert.equal(
    one('ah=1e400').experiment.a.model.hidden,
    DEFAULT_EXPERIMENT.a.model.hidden,
    'not a finite number: the default',
  );
  assert.deepEqual(one('ah=300').refused, ['a.model.hidden=300']);
  assert.equal(one('ah=300').experiment.a.model.hidden, 256, 'clamped');
  assert.deepEqual(one('ah=NaN').refused, ['a.model.hidden=NaN']);
  assert.equal(one('ah=NaN').experiment.a.model.hidden, DEFAULT_EXPERIMENT.a.model.hidden);
  assert.deepEqual(one('ah=-5').refused, ['a.model.hidden=-5']);
  assert.equal(one('ah=-5').experiment.a.model.hidden, 16);
  assert.deepEqual(one('task=__proto__').refused, ['task.name=__proto__']);
  assert.deepEqual(one('af=transformer&ahd=7&aw=20').experiment.a.model.heads, 5);
  assert.ok(
    one(`ah=${'9'.repeat(5000)}`).refused[0].startsWith('ah='),
    'an over-long value is refused unread',
  );
  assert.deepEqual(one('b=off&bh=9999').experiment.b, null);
  assert.deepEqual(one('abi=maybe').refused, ['a.model.bidirectional=maybe']);
});

// ------------------------------------------------------------ model configs and parameter counts

/** The element count of the model createModel makes from the spec's config (its saved file). */
async function realCount(model, task) {
  const m = await createModel(modelConfig(model, task), { seed: 1 });
  try {
    const st = readSafetensors(saveModel(m));
    let n = 0;
    for (const t of st.tensors.values()) n += t.shape.reduce((a, b) => a * b, 1);
    return n;
  } finally {
    m.dispose();
  }
}

test('parameterCount equals the weight count of createModel for a grid of 40+ specs', async () => {
  const tasks = {
    reverse: makeTask({
      name: 'reverse',
      minLength: 5,
      maxLength: 20,
      size: 0,
      level: 'auto',
      seed: 1,
    }),
    addition: makeTask({
      name: 'addition',
      minLength: 1,
      maxLength: 3,
      size: 0,
      level: 'auto',
      seed: 1,
    }),
    dates: makeTask({
      name: 'dates',
      minLength: 6,
      maxLength: 28,
      size: 0,
      level: 'auto',
      seed: 1,
    }),
  };
  const specs = [];
  let i = 0;
  const taskNames = Object.keys(tasks);
  for (const cell of CELLS) {
    for (const attention of ATTENTIONS) {
      const style = i % 2 ? 'luong' : 'bahdanau';
      specs.push([
        taskNames[i % 3],
        {
          family: 'seq2seq',
          cell,
          bidirectional: i % 3 === 1,
          layers: 1 + (i % 2),
          hidden: 16 + 8 * (i % 4),
          embedding: 8 + 4 * (i % 3),
          attention,
          style,
        },
      ]);
      i++;
    }
  }
  for (const attention of ['additive', 'general', 'concat', 'local-p', 'key-query', 'none']) {
    specs.push([
      'reverse',
      {
        family: 'seq2seq',
        cell: 'lstm',
        bidirectional: true,
        layers: 2,
        hidden: 20,
        embedding: 12,
        attention,
        style: 'luong',
      },
    ]);
  }
  for (const positions of POSITIONS) {
    for (const [layers, heads, width, ff] of [
      [1, 1, 16, 16],
      [2, 4, 32, 48],
      [3, 2, 24, 40],
    ]) {
      specs.push([
        taskNames[(layers + width) % 3],
        { family: 'transformer', layers, heads, width, feedforward: ff, positions },
      ]);
    }
  }
  assert.ok(specs.length >= 30, `${specs.length} specs`);
  for (const [taskName, raw] of specs) {
    const { experiment, refused } = checkExperiment({ a: { model: raw } });
    assert.deepEqual(refused, [], JSON.stringify(raw));
    const model = experiment.a.model;
    const task = tasks[taskName];
    assert.equal(
      parameterCount(model, task),
      await realCount(model, task),
      `${taskName} ${JSON.stringify(model)}`,
    );
  }
  // and every preset's two models on their own task
  for (const p of PRESETS) {
    const task = makeTask(p.experiment.task);
    for (const run of [p.experiment.a, p.experiment.b]) {
      assert.equal(
        parameterCount(run.model, task),
        await realCount(run.model, task),
        `preset ${p.id}`,
      );
    }
  }
});

test("modelConfig: sizes chosen from hidden and the task; transformers cover the task's lengths", async () => {
  const task = makeTask({
    name: 'reverse',
    minLength: 5,
    maxLength: 40,
    size: 0,
    level: 'auto',
    seed: 1,
  });
  const c = modelConfig(
    {
      family: 'seq2seq',
      cell: 'gru',
      bidirectional: false,
      layers: 1,
      hidden: 48,
      embedding: 16,
      attention: 'local-p',
      style: 'luong',
    },
    task,
  );
  assert.equal(c.architecture, 'seq2seq');
  assert.equal(c.positionSize, 48);
  assert.equal(c.window, 10);
  assert.equal(c.inputFeeding, true);
  assert.ok(c.maxLength >= task.maxTarget + 1);
  assert.equal(c.tokenizer, task.tokenizer);
  const tc = modelConfig(
    {
      family: 'transformer',
      layers: 1,
      heads: 2,
      width: 16,
      feedforward: 32,
      positions: 'learned',
    },
    task,
  );
  assert.equal(tc.variant, 'encoder-decoder');
  assert.ok(
    tc.maxPositions >= task.maxSource && tc.maxPositions >= task.maxTarget + 1,
    'bos + the target + eos fit',
  );
  // the longest pair of the task trains and runs in a learned-positions transformer
  const longest = task.heldout.reduce((a, b) => (b.src.length > a.src.length ? b : a));
  const { createTrainer } = await import('../../wasm/index.js');
  const m = await createModel(tc, { seed: 1 });
  const trainer = createTrainer(m);
  assert.ok(Number.isFinite(trainer.step([longest])));
  trainer.dispose();
  m.dispose();
});

test("attentionEquation: every attention and position kind, small HTML with its paper's equation number, no words to translate", () => {
  const seqBase = {
    family: 'seq2seq',
    cell: 'lstm',
    bidirectional: false,
    layers: 1,
    hidden: 32,
    embedding: 16,
    style: 'bahdanau',
  };
  const cites = {
    additive: 'Bahdanau et al. 2015, eq. 6',
    dot: 'Luong et al. 2015, eq. 8',
    general: 'Luong et al. 2015, eq. 8',
    concat: 'Luong et al. 2015, eq. 8',
    'local-m': 'Luong et al. 2015, eqs. 9–10',
    'local-p': 'Luong et al. 2015, eqs. 9–10',
    'key-query': 'Vaswani et al. 2017, eq. 1',
  };
  for (const attention of ATTENTIONS) {
    const { html, cite } = attentionEquation({ ...seqBase, attention });
    assert.equal(typeof html, 'string');
    if (cites[attention]) assert.equal(cite, cites[attention], attention);
    assert.ok(html.includes('<var>'), attention);
    // only <var>, <sub>, <sup>: no other tags, no attributes
    for (const tag of html.match(/<[^>]*>/g))
      assert.match(tag, /^<\/?(var|sub|sup)>$/, `${attention}: ${tag}`);
  }
  assert.equal(
    attentionEquation({ family: 'transformer', positions: 'learned' }).cite,
    'Vaswani et al. 2017, eq. 1',
  );
  assert.equal(
    attentionEquation({ family: 'transformer', positions: 'sinusoidal' }).cite,
    'Vaswani et al. 2017, eq. 1',
  );
  assert.equal(
    attentionEquation({ family: 'transformer', positions: 'relative' }).cite,
    'Shaw et al. 2018, eqs. 3–4',
  );
  // Bahdanau scores the previous decoder state s_{t−1}, Luong the current s_t (the lesson's letters)
  assert.match(
    attentionEquation({ ...seqBase, attention: 'additive' }).html,
    /<var>s<\/var><sub><var>t<\/var>−1<\/sub>/,
  );
  assert.match(
    attentionEquation({ ...seqBase, attention: 'dot', style: 'luong' }).html,
    /<var>s<\/var><sub><var>t<\/var><\/sub><sup><var>T<\/var><\/sup> <var>h<\/var><sub><var>i<\/var><\/sub>/,
  );
  assert.match(attentionEquation({ ...seqBase, attention: 'additive' }).html, /tanh/);
  assert.match(
    attentionEquation({ ...seqBase, attention: 'key-query' }).html,
    /<var>W<\/var><sub><var>K<\/var><\/sub>/,
  );
  assert.match(attentionEquation({ ...seqBase, attention: 'local-p' }).html, /softmax/);
  // words a reader would need translated: none beyond function names (softmax, tanh, sigmoid, align, score, Attention)
  for (const attention of ATTENTIONS) {
    const text = attentionEquation({ ...seqBase, attention })
      .html.replace(/<(var|sub|sup)>[^<]*<\/\1>/g, ' ')
      .replace(/<[^>]*>/g, ' ');
    const words = text.match(/[A-Za-z]{3,}/g) ?? [];
    for (const w of words)
      assert.ok(
        ['softmax', 'tanh', 'sigmoid', 'align', 'score', 'Attention', 'exp'].includes(w),
        `${attention}: ${w}`,
      );
  }
});

test("the old Train view's links open the lab on its dates preset, with the lab's limits", async () => {
  const { formatPageHash, parsePageHash } = await import('../../web/shared/app-state.js');
  const { parseLabLink } = await import('../../web/lab/spec.js');
  const ORIGIN = 'http://127.0.0.1:8080';
  for (const hash of ['#view=train&lr=0.01&batch=64&lang=zh', '#view=train&lr=abc&batch=-1']) {
    const s = parsePageHash(hash, ORIGIN);
    assert.equal(s.view, 'lab', hash);
    assert.equal(s.lab, 'preset=dates', `${hash}: lr and batch are the preset's`);
    assert.deepEqual(s.refused, [], hash);
  }
  const zh = parsePageHash('#view=train&lang=zh', ORIGIN);
  assert.equal(formatPageHash(zh), '#view=lab&preset=dates&lang=zh');
  const dates = PRESETS.find((p) => p.id === 'dates').experiment;
  const opened = parseLabLink(new URLSearchParams(zh.lab));
  assert.deepEqual(opened, checkExperiment(dates));
  assert.deepEqual(opened.refused, []);
  // the Train view's settings were a learning rate and a batch size; the lab's limits hold them
  assert.deepEqual([...LIMITS.train.lr], [1e-5, 1]);
  assert.deepEqual([...LIMITS.train.batch], [1, 256]);
  const wild = checkExperiment({
    ...dates,
    a: { ...dates.a, train: { ...dates.a.train, lr: 5, batch: 9999 } },
  });
  assert.deepEqual(wild.refused.sort(), ['a.train.batch=9999', 'a.train.lr=5']);
  assert.equal(wild.experiment.a.train.lr, 1);
  assert.equal(wild.experiment.a.train.batch, 256);
  for (const bad of [0, -0.001, 'abc', NaN, Infinity]) {
    const r = checkExperiment({
      ...dates,
      a: { ...dates.a, train: { ...dates.a.train, lr: bad } },
    });
    assert.equal(r.refused.length, 1, `lr ${bad} refused`);
    assert.ok(r.experiment.a.train.lr >= 1e-5 && r.experiment.a.train.lr <= 1);
  }
  // other views keep their own hashes
  assert.equal(parsePageHash('#view=alignment&lr=0.01', ORIGIN).view, 'alignment');
});

// The lab's ranges are teaching sub-ranges of the library's caps (wasm/config-limits.js, tied to
// C and Python by limits.test.js and config-limits-python.test.js): a cap lowered below a lab
// range would let the form offer a model the loader refuses.
test("every model range of the lab lies inside the library's config caps", () => {
  const s = CONFIG_LIMITS.seq2seq;
  const t = CONFIG_LIMITS.transformer;
  const pairs = [
    ['seq2seq.layers', LIMITS.seq2seq.layers[1], s.numLayers],
    ['seq2seq.hidden', LIMITS.seq2seq.hidden[1], s.hiddenSize],
    [
      'seq2seq.hidden as attentionSize',
      attentionSizeFor(LIMITS.seq2seq.hidden[1]),
      s.attentionSize,
    ],
    ['seq2seq.embedding', LIMITS.seq2seq.embedding[1], s.embeddingSize],
    // the lab's transformers are encoder-decoders, relative positions the tightest cap
    ['transformer.layers', LIMITS.transformer.layers[1], t.numLayersEncoderDecoderRelative],
    ['transformer.heads', LIMITS.transformer.heads[1], t.numHeads],
    ['transformer.width', LIMITS.transformer.width[1], t.embeddingSize],
    ['transformer.feedforward', LIMITS.transformer.feedforward[1], t.feedforwardSize],
  ];
  for (const [name, lab, cap] of pairs)
    assert.ok(lab <= cap, `${name}: the lab allows ${lab}, the cap is ${cap}`);
  for (const [name, [lo]] of Object.entries({ ...LIMITS.seq2seq, ...LIMITS.transformer }))
    assert.ok(lo >= 1, `${name}: every size is at least 1`);
});

test('a model config of the lab takes its maxLength within the cap of its architecture', () => {
  const long = { tokenizer: {}, maxSource: 5000, maxTarget: 5000 };
  for (const family of ['seq2seq', 'transformer']) {
    const m = { ...DEFAULT_EXPERIMENT.a.model, family };
    assert.equal(modelConfig(m, long).maxLength, CONFIG_LIMITS[family].maxLength, family);
  }
});
