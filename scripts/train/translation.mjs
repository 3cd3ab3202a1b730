// scripts/train/translation.mjs: English → French translators, one per attention the page knows
// (issue #14; docs/translation.md), on web/data/translation.js, which also knows the gold word
// alignment, so each card says how close the model's attention comes to it.
//
//   en-fr-<attention>           seq2seq, bidirectional LSTM encoder (E 32, H 64), word level, for
//                               additive (Bahdanau et al. 2015), dot / general / concat (Luong et
//                               al. 2015, input feeding), local-p (Luong, general score, D 16: with D 8 the same budget reached 58.5% exact match, see docs/translation.md), none
//   en-fr-transformer-absolute  encoder-decoder transformer, E 32, 4 heads, F 64, 2 + 2 layers,
//   en-fr-transformer-relative  learned absolute positions / relative positions (Shaw et al. 2018)
//
// Equal budgets: every model takes STEPS steps of BATCH fresh pairs
// generateTranslation({ seed: 1000 + step, count: BATCH, split: 'train' }) (3-30 words), Adam
// with the common schedule, clip 1, weights from createModel(config, { seed: 1 }).
// Measured on the shipped file (translationCard, which scripts/recard.mjs also calls): on HELDOUT_COUNT held-out sentences (seed
// 2024) exact match and corpus BLEU-4 of greedy decoding, and the alignment error rate (AER) of
// the attention with the reference forced (teacher forcing: row j is French token j), overall and
// per phenomenon, for the transformers per layer and head; by length (3..30 words, PER_LENGTH of
// each, seed 3000 + length) exact match and BLEU; and the 100-sentence test sample (seed 7) that
// tests/js/shipped-translation.test.js re-checks. After the family: translation-length.{json,csv,svg}.
// Not here: any maths (wasm), the data and its gold (web/data/translation.js), BLEU and AER
// (web/shared/translation-metrics.js).

import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { init, createModel, createTrainer } from '../../wasm/index.js';
import {
  generateTranslation,
  TRANSLATION_TOKENIZER,
  TRANSLATION_EXAMPLES,
  PHENOMENA,
  MIN_WORDS,
  MAX_WORDS,
  ENGLISH_WORDS,
  FRENCH_TOKENS,
  parseEnglish,
} from '../../web/data/translation.js';
import { bleu, alignmentError, sumAlignment } from '../../web/shared/translation-metrics.js';
import { Tokenizer } from '../../wasm/model/tokenizer.js';
import {
  ROOT,
  trainLoop,
  countParams,
  trainingBlock,
  writeModel,
  pct,
  rounded,
  shipI8,
  storageRecord,
} from './common.mjs';

export const TRAIN_SEED = 1000;
export const HELDOUT_SEED = 2024;
export const LENGTH_SEED = 3000;
export const TEST_SEED = 7;
export const HELDOUT_COUNT = 1000;
export const TEST_COUNT = 100;
export const PER_LENGTH = 30;
export const STEPS = 12000;
const BATCH = 64;

const seq2seq = {
  architecture: 'seq2seq',
  cell: 'lstm',
  embeddingSize: 32,
  hiddenSize: 64,
  numLayers: 1,
  bidirectional: true,
  maxLength: 48,
};
const transformer = {
  architecture: 'transformer',
  variant: 'encoder-decoder',
  embeddingSize: 32,
  numHeads: 4,
  feedforwardSize: 64,
  numLayers: 2,
  maxLength: 48,
};
const SPECS = {
  additive: {
    cfg: { ...seq2seq, attention: 'additive', style: 'bahdanau', attentionSize: 32 },
    lr: 4e-3,
    cost: 1850,
    what: 'additive (Bahdanau et al. 2015)',
  },
  dot: {
    cfg: { ...seq2seq, attention: 'dot', style: 'luong', inputFeeding: true },
    lr: 4e-3,
    cost: 1250,
    what: 'dot (Luong et al. 2015, input feeding)',
  },
  general: {
    cfg: { ...seq2seq, attention: 'general', style: 'luong', inputFeeding: true },
    lr: 4e-3,
    cost: 1300,
    what: 'general (Luong et al. 2015, input feeding)',
  },
  concat: {
    cfg: { ...seq2seq, attention: 'concat', style: 'luong', inputFeeding: true, attentionSize: 32 },
    lr: 4e-3,
    cost: 1400,
    what: 'concat (Luong et al. 2015, input feeding)',
  },
  'local-p': {
    cfg: {
      ...seq2seq,
      attention: 'local-p',
      style: 'luong',
      inputFeeding: true,
      score: 'general',
      window: 16,
      positionSize: 32,
    },
    lr: 4e-3,
    cost: 1250,
    what: 'local-p, general score, D = 16 (Luong et al. 2015, input feeding)',
  },
  none: {
    cfg: { ...seq2seq, attention: 'none', style: 'bahdanau' },
    lr: 4e-3,
    cost: 1050,
    what: 'none (encoder-decoder without attention)',
  },
  'transformer-absolute': {
    cfg: { ...transformer, positions: 'learned', maxPositions: 64 },
    lr: 2e-3,
    cost: 850,
    what: 'transformer, learned absolute positions (Vaswani et al. 2017)',
  },
  'transformer-relative': {
    cfg: { ...transformer, positions: 'relative', maxRelativePosition: 16 },
    lr: 2e-3,
    cost: 950,
    what: 'transformer, relative positions, k = 16 (Shaw et al. 2018)',
  },
};

export const NAMES = Object.keys(SPECS).map((k) => `en-fr-${k}`);
const isTransformer = (attn) => attn.startsWith('transformer');

function configOf(attn) {
  return {
    ...SPECS[attn].cfg,
    name: `en-fr-${attn}`,
    description: `English → French, word by word (web/data/translation.js: ${ENGLISH_WORDS.length} English words, ${MIN_WORDS}-${MAX_WORDS} words a sentence); attention: ${SPECS[attn].what}`,
    tokenizer: TRANSLATION_TOKENIZER,
  };
}

export const translationBatch = (s, count = BATCH) =>
  generateTranslation({ seed: TRAIN_SEED + s, count, split: 'train' });
export const heldoutSet = (count = HELDOUT_COUNT, seed = HELDOUT_SEED) =>
  generateTranslation({ seed, count, split: 'heldout' });
/** PER_LENGTH held-out sentences of every length 3..30 (seed LENGTH_SEED + length). */
export const lengthSet = (perLength = PER_LENGTH) =>
  Array.from({ length: MAX_WORDS - MIN_WORDS + 1 }, (_, i) => MIN_WORDS + i).flatMap((L) =>
    generateTranslation({
      seed: LENGTH_SEED + L,
      count: perLength,
      split: 'heldout',
      minWords: L,
      maxWords: L,
    }),
  );

/** The hand-written pairs of tests/fixtures/translation-handwritten.json that the grammar covers
 * (French written by hand; the generator reproduces each: tests/js/data-translation.test.js), as
 * examples { src, tgt, tgtTokens }. */
export function handwritten() {
  const file = JSON.parse(
    readFileSync(path.join(ROOT, 'tests', 'fixtures', 'translation-handwritten.json'), 'utf8'),
  );
  return file.pairs
    .filter(([, fr]) => fr !== null)
    .map(([src, tgt]) => ({ src, tgt, tgtTokens: TOKENIZER.split(tgt) }));
}
const TOKENIZER = new Tokenizer(TRANSLATION_TOKENIZER);

/** Exact match (the output string equals the reference; spaces ignored) and corpus BLEU-4 of greedy outputs. */
export function quality(model, examples) {
  return scoreOutputs(
    model,
    examples,
    examples.map((ex) => model.run(ex.src).output),
  );
}

/** quality() of outputs already decoded (outs[i] for examples[i]). */
function scoreOutputs(model, examples, outs) {
  const squash = (s) => s.replace(/\s+/g, '');
  const exact = outs.filter((o, i) => squash(o) === squash(examples[i].tgt)).length;
  const b = bleu(
    outs.map((o) => model.tokenizer.split(o)),
    examples.map((ex) => ex.tgtTokens),
  );
  return {
    count: examples.length,
    exactMatch: exact / examples.length,
    bleu: b.bleu,
    outputs: outs,
  };
}

/** The ways a sentence ends (web/data/translation.js writes each): its last token, or none. */
export const ENDINGS = ['.', '?', '!', 'none'];
const endingOf = (ex) => (ENDINGS.includes(ex.srcTokens.at(-1)) ? ex.srcTokens.at(-1) : 'none');

/** Exact match and BLEU of outs per ending ({ '.': { count, exactMatch, bleu }, ... }). */
export function byEnding(model, examples, outs) {
  return Object.fromEntries(
    ENDINGS.map((e) => {
      const idx = examples.flatMap((ex, i) => (endingOf(ex) === e ? [i] : []));
      const q = scoreOutputs(
        model,
        idx.map((i) => examples[i]),
        idx.map((i) => outs[i]),
      );
      return [e, { count: q.count, exactMatch: q.exactMatch, bleu: q.bleu }];
    }),
  );
}

/**
 * The attention maps of a model on one example with the reference forced: [{ layer, head, data,
 * shape: [T, S] }] (one for a seq2seq model; every cross-attention head of a transformer), row j
 * the step that emits French token j. null for a model without attention.
 */
export function forcedAttention(model, ex) {
  const info = model.config;
  if (info.architecture === 'transformer') {
    const tok = model.tokenizer;
    const tgt = tok.encodeTarget(ex.tgt);
    const dec = Int32Array.from([tok.bosId, ...tgt.slice(0, -1)]);
    const r = model.forward(ex.src, dec);
    return r.attention
      .filter((a) => a.kind === 'cross')
      .map((a) => ({ layer: a.layer, head: a.head, ...a.weights }));
  }
  if (info.attention === 'none') return null;
  const s = model.score(ex.src, ex.tgt);
  return [{ layer: 0, head: 0, ...s.attention }];
}

/** Mean of several [T, S] maps (a transformer layer's heads). */
function meanMap(maps) {
  const data = new Float32Array(maps[0].data.length);
  for (const m of maps) for (let i = 0; i < data.length; i++) data[i] += m.data[i] / maps.length;
  return { data, shape: maps[0].shape };
}

/**
 * AER against the gold, overall and per phenomenon, of the model's alignment: a seq2seq model's
 * one map; a transformer's every head (byHead), every layer's head average (byLayer) and, as
 * the headline, the layer whose average aligns best. null without attention.
 */
export function alignmentMetrics(model, examples) {
  const parts = new Map(); // key → { all: [], [phenomenon]: [] }
  const add = (key, att, ex) => {
    if (!parts.has(key))
      parts.set(key, { all: [], ...Object.fromEntries(PHENOMENA.map((p) => [p, []])) });
    const bucket = parts.get(key);
    bucket.all.push(alignmentError(att, ex.alignment));
    for (const p of PHENOMENA) {
      const rows = ex.tags.flatMap((ts, j) => (ts.includes(p) ? [j] : []));
      if (rows.length) bucket[p].push(alignmentError(att, ex.alignment, { rows }));
    }
  };
  for (const ex of examples) {
    const maps = forcedAttention(model, ex);
    if (!maps) return null;
    if (maps.length === 1) {
      add('model', maps[0], ex);
      continue;
    }
    for (const m of maps) add(`layer ${m.layer} head ${m.head}`, m, ex);
    for (const layer of [...new Set(maps.map((m) => m.layer))])
      add(`layer ${layer}`, meanMap(maps.filter((m) => m.layer === layer)), ex);
  }
  const summary = (b) => {
    const all = sumAlignment(b.all);
    return {
      aer: all.aer,
      mass: all.mass,
      byPhenomenon: Object.fromEntries(
        PHENOMENA.map((p) => {
          const s = sumAlignment(b[p]);
          return [p, { aer: s.aer, mass: s.mass, tokens: s.rows }];
        }),
      ),
    };
  };
  const table = Object.fromEntries([...parts].map(([k, b]) => [k, summary(b)]));
  if (table.model) return { ...table.model, alignedBy: 'the attention' };
  const layers = Object.keys(table).filter((k) => /^layer \d+$/.test(k));
  const best = layers.reduce((a, k) => (table[k].aer < table[a].aer ? k : a), layers[0]);
  return {
    ...table[best],
    alignedBy: `the mean of the cross-attention heads of ${best} (the layer whose mean aligns best)`,
    byLayer: Object.fromEntries(layers.map((k) => [k, { aer: table[k].aer, mass: table[k].mass }])),
    byHead: Object.fromEntries(
      Object.keys(table)
        .filter((k) => k.includes('head'))
        .map((k) => [k, { aer: table[k].aer, mass: table[k].mass }]),
    ),
  };
}

/** Exact match and BLEU per length (3..30 words). */
export function byLength(model, examples = lengthSet()) {
  const rows = [];
  for (let L = MIN_WORDS; L <= MAX_WORDS; L++) {
    const exs = examples.filter((ex) => ex.length === L);
    const q = quality(model, exs);
    rows.push({ length: L, count: exs.length, exactMatch: q.exactMatch, bleu: q.bleu });
  }
  return rows;
}

/** The card's metrics of a model (the shipped file, loaded). */
export function translationMetrics(model) {
  const held = heldoutSet();
  const q = quality(model, held);
  const testSet = heldoutSet(TEST_COUNT, TEST_SEED);
  const test = quality(model, testSet);
  const testAlign = alignmentMetrics(model, testSet);
  const h = quality(model, handwritten());
  return {
    heldout: {
      count: HELDOUT_COUNT,
      seed: HELDOUT_SEED,
      exactMatch: q.exactMatch,
      bleu: q.bleu,
      byEnding: byEnding(model, held, q.outputs),
      alignment: alignmentMetrics(model, held),
    },
    byLength: byLength(model),
    testSample: {
      count: TEST_COUNT,
      seed: TEST_SEED,
      exactMatch: test.exactMatch,
      bleu: test.bleu,
      aer: testAlign?.aer ?? null,
      mass: testAlign?.mass ?? null,
    },
    handwritten: {
      count: h.count,
      exactMatch: h.exactMatch,
      bleu: h.bleu,
      file: 'tests/fixtures/translation-handwritten.json',
    },
  };
}

/** A card's examples: three of TRANSLATION_EXAMPLES it translates right, and a held-out sentence it gets wrong. */
function translationExamples(model) {
  const right = TRANSLATION_EXAMPLES.filter(
    (e) =>
      model.run(e.src).output.replace(/\s+/g, '') === parseEnglish(e.src).tgt.replace(/\s+/g, ''),
  );
  const miss = heldoutSet(200).find(
    (ex) => model.run(ex.src).output.replace(/\s+/g, '') !== ex.tgt.replace(/\s+/g, ''),
  );
  return {
    best: right.slice(0, 3).map((e) => e.src),
    limit: miss ? miss.src : null,
    limitOutput: miss ? model.run(miss.src).output : null,
    limitExpected: miss ? miss.tgt : null,
  };
}

const f2 = (x) => (x === null || x === undefined || Number.isNaN(x) ? 'n/a' : x.toFixed(3));

/** The log lines of a card's metrics. */
export function translationShown(name, m) {
  const a = m.heldout.alignment;
  const lines = [
    `${name}: held-out (${m.heldout.count}) exact match ${pct(m.heldout.exactMatch)}, BLEU-4 ${m.heldout.bleu.toFixed(2)}, AER ${a ? f2(a.aer) : 'n/a (no attention)'}${a ? `, gold mass ${f2(a.mass)}` : ''}; hand-written ${Math.round(m.handwritten.exactMatch * m.handwritten.count)}/${m.handwritten.count}`,
  ];
  lines.push(
    `${name}: by ending (exact match / BLEU): ${ENDINGS.map((e) => {
      const r = m.heldout.byEnding[e];
      return `${e} (${r.count}) ${pct(r.exactMatch)}/${r.bleu.toFixed(2)}`;
    }).join(', ')}`,
  );
  if (a)
    lines.push(
      `${name}: AER by phenomenon: ${PHENOMENA.map((p) => `${p} ${f2(a.byPhenomenon[p].aer)}`).join(', ')}`,
    );
  if (a?.byLayer)
    lines.push(
      `${name}: AER by layer: ${Object.entries(a.byLayer)
        .map(([k, v]) => `${k} ${f2(v.aer)}`)
        .join(', ')}; by head: ${Object.entries(a.byHead)
        .map(([k, v]) => `${k.replace('layer ', 'L').replace(' head ', 'h')} ${f2(v.aer)}`)
        .join(' ')}`,
    );
  lines.push(
    `${name}: by length (words: exact match / BLEU): ${m.byLength
      .filter((r) => r.length % 3 === 0)
      .map((r) => `${r.length}: ${pct(r.exactMatch, 0)}/${r.bleu.toFixed(0)}`)
      .join('  ')}`,
  );
  return lines.join('\n');
}

/**
 * The card of a stored translation model (shipped: common.mjs ship/loadShipped), every metric
 * measured on it; train() and scripts/recard.mjs both call it. training: the training block;
 * float32: the float32 model's held-out exact match (the storage record's check).
 */
export function translationCard(attn, shipped, { training, float32, extra = {} }) {
  const name = `en-fr-${attn}`;
  const spec = SPECS[attn];
  const metrics = translationMetrics(shipped.model);
  const bytes = shipped.bytes;
  return {
    name,
    task: 'translation: English → French, word by word, with the gold word alignment (web/data/translation.js)',
    file: `${name}.safetensors`,
    architecture: {
      family: isTransformer(attn)
        ? 'transformer encoder-decoder (docs/models.md)'
        : 'seq2seq (docs/models.md)',
      ...Object.fromEntries(Object.entries(spec.cfg).filter(([k]) => k !== 'architecture')),
      attentionName: spec.what,
      parameters: countParams(bytes),
      bytes: bytes.length,
    },
    data: {
      generator: 'web/data/translation.js generateTranslation()',
      sources:
        "hand-written lexicon and grammar (web/data/translation-lexicon.js), no download; public domain like the rest of attnlab's generated data",
      englishWords: ENGLISH_WORDS.length,
      frenchTokens: FRENCH_TOKENS.length,
      words: [MIN_WORDS, MAX_WORDS],
      phenomena: PHENOMENA,
      normalize: TRANSLATION_TOKENIZER.normalize,
      split: 'held out when hash(English sentence) % 10 == 0; training never sees those sentences',
      train: `generateTranslation({ seed: ${TRAIN_SEED} + step, count: ${BATCH}, split: 'train' }) per step`,
      heldout: `generateTranslation({ seed: ${HELDOUT_SEED}, count: ${HELDOUT_COUNT}, split: 'heldout' }); by length: ${PER_LENGTH} of each length L, seed ${LENGTH_SEED} + L`,
    },
    training,
    metrics: rounded(metrics),
    storage: storageRecord(
      shipped,
      'heldout.exactMatch',
      float32,
      metrics.heldout.exactMatch,
      extra,
    ),
    examples: translationExamples(shipped.model),
  };
}

async function trainTranslation(attn, { steps: stepsOverride, out }) {
  await init();
  const name = `en-fr-${attn}`;
  const spec = SPECS[attn];
  const steps = stepsOverride ?? STEPS;
  const seed = 1;
  const model = await createModel(configOf(attn), { seed });
  const trainer = createTrainer(model, { optimizer: 'adam', lr: spec.lr, clip: 1 });
  const probeSet = heldoutSet(100, HELDOUT_SEED + 1);
  const run = trainLoop({
    name,
    trainer,
    steps,
    lr: spec.lr,
    batch: (s) => translationBatch(s),
    probe: () => ({ probeExactMatch: trainer.evaluate(probeSet, { loss: false }).exactMatch }),
  });
  // what ships is the I8 file: every metric of the card is measured on it, loaded back
  const float32 = quality(model, heldoutSet()).exactMatch;
  const shipped = await shipI8(trainer);
  const card = translationCard(attn, shipped, {
    float32,
    training: trainingBlock({
      name,
      steps,
      stepsOverride,
      seed,
      lr: spec.lr,
      batchSize: BATCH,
      run,
    }),
  });
  const file = await writeModel(out, name, shipped.bytes, card);
  console.log(translationShown(name, card.metrics));
  console.log(
    `${name}: ${run.seconds.toFixed(0)} s (cpu ${run.cpuSeconds.toFixed(0)} s), ${shipped.bytes.length} bytes (${shipped.dtype}; float32 exact match ${pct(float32)}) -> ${file}`,
  );
  shipped.dispose();
  trainer.dispose();
  model.dispose();
  return card;
}

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const STYLE = {
  'en-fr-additive': ['#1f77b4', ''],
  'en-fr-dot': ['#ff7f0e', ''],
  'en-fr-general': ['#2ca02c', ''],
  'en-fr-concat': ['#9467bd', ''],
  'en-fr-local-p': ['#8c564b', ''],
  'en-fr-none': ['#d62728', '6 4'],
  'en-fr-transformer-absolute': ['#17becf', '2 2'],
  'en-fr-transformer-relative': ['#7f7f7f', '2 2'],
};

/** A standalone SVG: BLEU-4 against sentence length, one line per model. */
export function lengthSvg(data) {
  const W = 680,
    H = 420,
    L = 56,
    R = 200,
    T = 44,
    B = 52;
  const x0 = MIN_WORDS,
    x1 = MAX_WORDS;
  const px = (x) => L + ((x - x0) / (x1 - x0)) * (W - L - R);
  const py = (y) => T + ((105 - y) / 105) * (H - T - B);
  const f = (v) => v.toFixed(1);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="system-ui, sans-serif" font-size="12">`,
    '<title>Translation quality by sentence length: BLEU-4 of each English → French model, with and without attention</title>',
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${(L + W - R) / 2}" y="22" text-anchor="middle" font-size="14" font-weight="600">English → French: BLEU-4 vs sentence length (held-out)</text>`,
  ];
  for (let i = 0; i <= 5; i++) {
    const Y = f(py(20 * i));
    out.push(
      `<line x1="${L}" x2="${W - R}" y1="${Y}" y2="${Y}" stroke="#e5e5e5"/>`,
      `<text x="${L - 6}" y="${Y}" dy="4" text-anchor="end" fill="#444">${20 * i}</text>`,
    );
  }
  for (const x of [3, 5, 10, 15, 20, 25, 30]) {
    const X = f(px(x));
    out.push(
      `<line x1="${X}" x2="${X}" y1="${f(py(0))}" y2="${f(py(0) + 5)}" stroke="#444"/>`,
      `<text x="${X}" y="${f(py(0) + 18)}" text-anchor="middle" fill="#444">${x}</text>`,
    );
  }
  out.push(
    `<line x1="${L}" x2="${W - R}" y1="${f(py(0))}" y2="${f(py(0))}" stroke="#444"/>`,
    `<line x1="${L}" x2="${L}" y1="${f(py(0))}" y2="${f(py(105))}" stroke="#444"/>`,
    `<text x="${(L + W - R) / 2}" y="${H - 12}" text-anchor="middle">English sentence length (words; ${data.perLength} held-out sentences each)</text>`,
    `<text transform="translate(16 ${(T + H - B) / 2}) rotate(-90)" text-anchor="middle">BLEU-4</text>`,
  );
  data.models.forEach((m, i) => {
    const [color, dash] = STYLE[m.name] ?? ['#555', ''];
    const d = dash ? ` stroke-dasharray="${dash}"` : '';
    out.push(
      `<polyline points="${data.lengths.map((x, j) => `${f(px(x))},${f(py(m.bleu[j]))}`).join(' ')}" fill="none" stroke="${color}" stroke-width="2"${d}/>`,
    );
    const y = T + 10 + 20 * i;
    out.push(
      `<line x1="${W - R + 12}" x2="${W - R + 40}" y1="${y}" y2="${y}" stroke="${color}" stroke-width="2"${d}/>`,
      `<text x="${W - R + 46}" y="${y}" dy="4">${esc(m.name.replace('en-fr-', ''))}</text>`,
    );
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/** After the family: translation-length.{json,csv,svg} from the cards in `out` (those present). */
async function writeLengthCurve(out) {
  const cards = [];
  for (const name of NAMES) {
    try {
      cards.push(JSON.parse(await readFile(path.join(out, `${name}.json`), 'utf8')));
    } catch {
      /* not trained into this folder */
    }
  }
  if (!cards.length) return;
  const lengths = cards[0].metrics.byLength.map((r) => r.length);
  const data = {
    what: 'exact match and BLEU-4 of greedy translation against English sentence length, held-out sentences (scripts/train/translation.mjs byLength)',
    perLength: PER_LENGTH,
    lengths,
    models: cards.map((c) => ({
      name: c.name,
      parameters: c.architecture.parameters,
      exactMatch: c.metrics.byLength.map((r) => r.exactMatch),
      bleu: c.metrics.byLength.map((r) => r.bleu),
    })),
  };
  await writeFile(
    path.join(out, 'translation-length.json'),
    `${JSON.stringify(rounded(data, 4), null, 2)}\n`,
  );
  const csv = [
    `length,${data.models.flatMap((m) => [`${m.name} exactMatch`, `${m.name} bleu`]).join(',')}`,
  ];
  lengths.forEach((len, j) =>
    csv.push(
      [len, ...data.models.flatMap((m) => [m.exactMatch[j].toFixed(4), m.bleu[j].toFixed(2)])].join(
        ',',
      ),
    ),
  );
  await writeFile(path.join(out, 'translation-length.csv'), `${csv.join('\n')}\n`);
  await writeFile(path.join(out, 'translation-length.svg'), lengthSvg(data));
  console.log(
    `translation by length -> ${path.join(path.basename(out), 'translation-length.{json,csv,svg}')}`,
  );
}

export const MODELS = Object.fromEntries(
  Object.entries(SPECS).map(([attn, spec]) => [
    `en-fr-${attn}`,
    {
      family: 'translation',
      cost: spec.cost,
      config: () => configOf(attn),
      batch: translationBatch,
      train: (o) => trainTranslation(attn, o),
      card: (shipped, o) => translationCard(attn, shipped, o),
    },
  ]),
);

export const after = writeLengthCurve;
