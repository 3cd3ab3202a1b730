// scripts/train/sequences.mjs: long sequences: two seq2seq models that reverse random symbol
// strings of length 5..60 (web/data/sequences.js), one with attention and one without, at the
// same parameter count, and the forgetting curve that compares them: per-token accuracy (and
// exact match) against input length on a length-stratified held-out set. The curve is the claim
// of Bahdanau et al. 2015 (Fig. 2) and Luong et al. 2015 (Fig. 6): without attention, one fixed
// vector has to carry the whole input and accuracy falls with length; with attention it does not.
//
//   seq-reverse-attention  BiLSTM encoder (E 16, H 64), additive attention (da 32), bahdanau decoder
//   seq-reverse-none       the same without attention, H raised to 84 so the parameter counts
//                          match within 2% (57,139 vs 58,055)
//
// Both: weights from createModel(config, { seed: 1 }), Adam 3e-3 with the common schedule, clip 1,
// 5,000 steps of 32 fresh pairs generateSequences({ seed: 1000 + step, count: 32, split: 'train' }).
// The same budget for both, though attention is at 100% after 1,500 steps: the baseline's loss
// is still falling at 5,000 (its curve rises a little at every length with more steps, and
// keeps its shape), so the gap is not an under-trained baseline.
// Held out: lengthStratified({ seed: 2024, perLength: 20 }) (1,120 pairs, 20 of every length);
// the test sample lengthStratified({ seed: 7, perLength: 1 }) (56 pairs) that
// tests/js/shipped-sequences.test.js re-checks. After both: forgetting.json, forgetting.csv and
// forgetting.svg (a plain SVG drawn here, no dependencies) in the output folder.
// Not here: any maths (wasm), the data generator.

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { init, createModel, createTrainer } from '../../wasm/index.js';
import {
  generateSequences,
  lengthStratified,
  scoreByLength,
  SEQUENCES_TOKENIZER,
  SYMBOLS,
} from '../../web/data/sequences.js';
import {
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
export const TEST_SEED = 7;
const BATCH = 32;
const MIN_LEN = 5,
  MAX_LEN = 60;

const base = {
  architecture: 'seq2seq',
  cell: 'lstm',
  embeddingSize: 16,
  numLayers: 1,
  bidirectional: true,
  maxLength: MAX_LEN + 1,
  tokenizer: SEQUENCES_TOKENIZER,
};
const SPECS = {
  'seq-reverse-attention': {
    cfg: { hiddenSize: 64, attention: 'additive', style: 'bahdanau', attentionSize: 32 },
    what: 'additive attention (Bahdanau et al. 2015)',
    steps: 5000,
    cost: 300,
  },
  'seq-reverse-none': {
    cfg: { hiddenSize: 84, attention: 'none', style: 'bahdanau' },
    what: "no attention: the decoder starts from the encoder's final state (Sutskever et al. 2014, Cho et al. 2014), H raised to match the parameters",
    steps: 5000,
    cost: 170,
  },
};

/** Greedy outputs of a model for examples → scoreByLength rows and the totals. */
export function score(model, examples) {
  const rows = scoreByLength(
    examples,
    examples.map((p) => model.run(p.src).output),
  );
  let tokens = 0,
    right = 0,
    exact = 0;
  for (const r of rows) {
    const T = r.count * r.length;
    tokens += T;
    right += r.tokenAccuracy * T;
    exact += r.exactMatch * r.count;
  }
  return {
    rows,
    tokenAccuracy: right / tokens,
    exactMatch: exact / examples.length,
    count: examples.length,
  };
}

const configOf = (name) => ({
  ...base,
  ...SPECS[name].cfg,
  name,
  description: `Reverses a string of ${MIN_LEN}-${MAX_LEN} symbols (a-t); ${SPECS[name].what}`,
});
const batchOf = (s, count = BATCH, { minLen = MIN_LEN, maxLen = MAX_LEN } = {}) =>
  generateSequences({
    seed: TRAIN_SEED + s,
    count,
    split: 'train',
    task: 'reverse',
    minLen,
    maxLen,
  });

/** The held-out set of a card: 20 strings of every length. */
const heldoutSetOf = () =>
  lengthStratified({ seed: HELDOUT_SEED, perLength: 20, minLen: MIN_LEN, maxLen: MAX_LEN });

/**
 * The card of a reversal model from its stored file loaded back (shipped: common.mjs shipI8 or
 * loadShipped): every metric (and so the forgetting curve, drawn from the cards) and the storage
 * record measured on that file, rounded as written. training: the card's training block;
 * float32: the float32 model's held-out per-token accuracy; extra: more of the storage record.
 * train() and scripts/recard.mjs both make the card here.
 */
export function sequencesCard(name, shipped, { training, float32, extra = {} }) {
  const spec = SPECS[name];
  const config = configOf(name);
  const heldout = score(shipped.model, heldoutSetOf());
  const storage = storageRecord(
    shipped,
    'heldout.tokenAccuracy',
    float32,
    heldout.tokenAccuracy,
    extra,
  );
  const test = score(
    shipped.model,
    lengthStratified({ seed: TEST_SEED, perLength: 1, minLen: MIN_LEN, maxLen: MAX_LEN }),
  );
  const bytes = shipped.bytes;
  const worst = heldout.rows.reduce((a, r) => (r.tokenAccuracy < a.tokenAccuracy ? r : a));
  return rounded({
    name,
    task: `reversal: a random string of ${MIN_LEN}-${MAX_LEN} symbols (a-t) → the same symbols in reverse order, character by character`,
    file: `${name}.safetensors`,
    architecture: {
      family: 'seq2seq (docs/models.md)',
      cell: config.cell,
      embeddingSize: config.embeddingSize,
      numLayers: config.numLayers,
      bidirectional: config.bidirectional,
      ...spec.cfg,
      parameters: countParams(bytes),
      bytes: bytes.length,
    },
    data: {
      generator: "web/data/sequences.js generateSequences({ task: 'reverse' })",
      symbols: SYMBOLS,
      lengths: [MIN_LEN, MAX_LEN],
      split: 'held out when hash(min(s, reverse(s))) % 10 == 0; training never sees those strings',
      train: `generateSequences({ seed: ${TRAIN_SEED} + step, count: ${BATCH}, split: 'train', task: 'reverse' }) per step`,
      heldout: `lengthStratified({ seed: ${HELDOUT_SEED}, perLength: 20 }): 20 held-out strings of every length ${MIN_LEN}..${MAX_LEN}`,
    },
    training,
    metrics: {
      heldout: {
        count: heldout.count,
        seed: HELDOUT_SEED,
        perLength: 20,
        tokenAccuracy: heldout.tokenAccuracy,
        exactMatch: heldout.exactMatch,
        worstLength: { length: worst.length, tokenAccuracy: worst.tokenAccuracy },
        byLength: heldout.rows.map((r) => ({
          length: r.length,
          count: r.count,
          tokenAccuracy: r.tokenAccuracy,
          exactMatch: r.exactMatch,
        })),
      },
      testSample: {
        count: test.count,
        seed: TEST_SEED,
        perLength: 1,
        tokenAccuracy: test.tokenAccuracy,
        exactMatch: test.exactMatch,
      },
    },
    storage,
  });
}

async function trainSequences(name, { steps: stepsOverride, out }) {
  await init();
  const spec = SPECS[name];
  const steps = stepsOverride ?? spec.steps;
  const lr = 3e-3,
    seed = 1;
  const config = configOf(name);
  const model = await createModel(config, { seed });
  const trainer = createTrainer(model, { optimizer: 'adam', lr, clip: 1 });
  const probe = lengthStratified({
    seed: HELDOUT_SEED + 1,
    perLength: 2,
    minLen: MIN_LEN,
    maxLen: MAX_LEN,
  });
  const run = trainLoop({
    name,
    trainer,
    steps,
    lr,
    batch: (s) => batchOf(s),
    probe: () => ({ probeTokenAccuracy: score(model, probe).tokenAccuracy }),
  });
  // what ships is the I8 file: every metric of the card (and the forgetting curve, from the
  // cards) is measured on it, loaded back
  const float32 = score(model, heldoutSetOf()).tokenAccuracy;
  const shipped = await shipI8(trainer);
  const card = sequencesCard(name, shipped, {
    float32,
    training: trainingBlock({ name, steps, stepsOverride, seed, lr, batchSize: BATCH, run }),
  });
  const bytes = shipped.bytes;
  const file = await writeModel(out, name, bytes, card);
  const h = card.metrics.heldout;
  console.log(
    `${name}: held-out per-token accuracy ${pct(h.tokenAccuracy)}, exact match ${pct(h.exactMatch)} (${h.count} strings, lengths ${MIN_LEN}-${MAX_LEN}); worst length ${h.worstLength.length}: ${pct(h.worstLength.tokenAccuracy)}; ${run.seconds.toFixed(0)} s (cpu ${run.cpuSeconds.toFixed(0)} s), ${countParams(bytes)} parameters, ${bytes.length} bytes (${shipped.dtype}) -> ${file}`,
  );
  shipped.dispose();
  trainer.dispose();
  model.dispose();
  return card;
}

// ---- the forgetting curve ---------------------------------------------------------------------

const LINES = [
  {
    name: 'seq-reverse-attention',
    label: 'with attention: seq-reverse-attention',
    color: '#1f77b4',
    dash: '',
  },
  {
    name: 'seq-reverse-none',
    label: 'without attention: seq-reverse-none',
    color: '#d62728',
    dash: '6 4',
  },
];

/** The curve as data: { lengths, models: [{ name, parameters, tokenAccuracy [], exactMatch [] }] }. */
function curve(cards) {
  const lengths = cards[0].metrics.heldout.byLength.map((r) => r.length);
  return {
    what: 'per-token accuracy and exact match of greedy decoding against input length, reversal task, held-out strings',
    heldout: cards[0].data.heldout,
    symbols: cards[0].data.symbols.length,
    lengths,
    models: cards.map((c) => ({
      name: c.name,
      attention: c.architecture.attention,
      hiddenSize: c.architecture.hiddenSize,
      parameters: c.architecture.parameters,
      tokenAccuracy: c.metrics.heldout.byLength.map((r) => r.tokenAccuracy),
      exactMatch: c.metrics.heldout.byLength.map((r) => r.exactMatch),
    })),
  };
}

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A standalone SVG line chart: per-token accuracy (0-100%) against input length, one line per
 * model, chance level (1 / symbols) dotted, a legend in the empty upper right.
 */
export function forgettingSvg(data) {
  const W = 640,
    H = 400,
    L = 64,
    R = 20,
    T = 44,
    B = 56;
  const x0 = data.lengths[0],
    x1 = data.lengths[data.lengths.length - 1];
  const px = (x) => L + ((x - x0) / (x1 - x0)) * (W - L - R);
  const py = (y) => T + ((1.05 - y) / 1.05) * (H - T - B);
  const f = (v) => v.toFixed(1);
  const out = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="system-ui, sans-serif" font-size="12">`,
  );
  out.push(
    '<title>Forgetting curve: per-token accuracy against input length, reversal, with and without attention</title>',
  );
  out.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  out.push(
    `<text x="${W / 2}" y="22" text-anchor="middle" font-size="14" font-weight="600">Reversing strings: per-token accuracy vs input length (held-out)</text>`,
  );
  for (let i = 0; i <= 5; i++) {
    const Y = f(py(i / 5));
    out.push(`<line x1="${L}" x2="${W - R}" y1="${Y}" y2="${Y}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${L - 6}" y="${Y}" dy="4" text-anchor="end" fill="#444">${20 * i}%</text>`);
  }
  for (const x of [
    x0,
    ...Array.from({ length: Math.floor(x1 / 10) }, (_, i) => 10 * (i + 1)).filter((v) => v > x0),
  ]) {
    const X = f(px(x));
    out.push(`<line x1="${X}" x2="${X}" y1="${f(py(0))}" y2="${f(py(0) + 5)}" stroke="#444"/>`);
    out.push(`<text x="${X}" y="${f(py(0) + 18)}" text-anchor="middle" fill="#444">${x}</text>`);
  }
  out.push(`<line x1="${L}" x2="${W - R}" y1="${f(py(0))}" y2="${f(py(0))}" stroke="#444"/>`);
  out.push(`<line x1="${L}" x2="${L}" y1="${f(py(0))}" y2="${f(py(1.05))}" stroke="#444"/>`);
  out.push(
    `<text x="${(L + W - R) / 2}" y="${H - 14}" text-anchor="middle">input length (symbols; trained on ${x0}-${x1})</text>`,
  );
  out.push(
    `<text transform="translate(16 ${(T + H - B) / 2}) rotate(-90)" text-anchor="middle">per-token accuracy</text>`,
  );
  const chance = 1 / data.symbols;
  out.push(
    `<line x1="${L}" x2="${W - R}" y1="${f(py(chance))}" y2="${f(py(chance))}" stroke="#888" stroke-dasharray="2 3"/>`,
  );
  out.push(
    `<text x="${W - R - 4}" y="${f(py(chance) - 5)}" text-anchor="end" fill="#666">chance (1/${data.symbols})</text>`,
  );
  const lx = W - R - 400,
    ly = py(0.82);
  out.push(
    `<rect x="${lx - 10}" y="${f(ly - 16)}" width="396" height="${20 * data.models.length + 12}" fill="#fff" stroke="#ccc"/>`,
  );
  data.models.forEach((m, i) => {
    const style = LINES.find((l) => l.name === m.name) ?? {
      color: '#555',
      dash: '',
      label: m.name,
    };
    const dash = style.dash ? ` stroke-dasharray="${style.dash}"` : '';
    const pts = data.lengths.map((x, j) => `${f(px(x))},${f(py(m.tokenAccuracy[j]))}`).join(' ');
    out.push(
      `<polyline points="${pts}" fill="none" stroke="${style.color}" stroke-width="2"${dash}/>`,
    );
    const y = f(ly + 20 * i);
    out.push(
      `<line x1="${lx}" x2="${lx + 28}" y1="${y}" y2="${y}" stroke="${style.color}" stroke-width="2"${dash}/>`,
    );
    out.push(
      `<text x="${lx + 36}" y="${y}" dy="4">${esc(`${style.label} (${m.parameters.toLocaleString('en-US')} parameters)`)}</text>`,
    );
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/** After training: forgetting.{json,csv,svg} from both cards in `out` (skipped when one is missing). */
async function writeForgetting(out) {
  let cards;
  try {
    cards = await Promise.all(
      LINES.map(async (l) => JSON.parse(await readFile(path.join(out, `${l.name}.json`), 'utf8'))),
    );
  } catch {
    console.log(
      'forgetting curve: needs both seq-reverse-attention.json and seq-reverse-none.json in the output folder; skipped',
    );
    return;
  }
  const data = curve(cards);
  await writeFile(path.join(out, 'forgetting.json'), `${JSON.stringify(rounded(data), null, 2)}\n`);
  const csv = [
    'length,' +
      data.models.flatMap((m) => [`${m.name} tokenAccuracy`, `${m.name} exactMatch`]).join(','),
  ];
  data.lengths.forEach((len, j) =>
    csv.push(
      [
        len,
        ...data.models.flatMap((m) => [m.tokenAccuracy[j].toFixed(4), m.exactMatch[j].toFixed(4)]),
      ].join(','),
    ),
  );
  await writeFile(path.join(out, 'forgetting.csv'), `${csv.join('\n')}\n`);
  await writeFile(path.join(out, 'forgetting.svg'), forgettingSvg(data));
  const at = (m, len) => pct(m.tokenAccuracy[data.lengths.indexOf(len)], 1);
  for (const m of data.models)
    console.log(
      `forgetting curve ${m.name}: ${[5, 10, 20, 30, 40, 50, 60].map((len) => `${len}: ${at(m, len)}`).join('  ')}`,
    );
  console.log(`forgetting curve -> ${path.join(path.basename(out), 'forgetting.{json,csv,svg}')}`);
}

export const MODELS = Object.fromEntries(
  Object.entries(SPECS).map(([name, spec]) => [
    name,
    {
      family: 'sequences',
      cost: spec.cost,
      config: () => configOf(name),
      batch: batchOf,
      train: (o) => trainSequences(name, o),
      card: (shipped, o) => sequencesCard(name, shipped, o),
    },
  ]),
);

export const after = writeForgetting;
