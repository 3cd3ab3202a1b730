// A tiny stand-in for web/lab/tasks.js and web/lab/spec.js (branch lab-spec), written against the
// contract's shapes, so the engine's tests run on a task they control: reverse over a 5-letter
// alphabet, a 'broken' task whose batches the model cannot read (an error path), and a 'crash'
// task whose first batch ends the worker thread (a dying worker). The engine
// runs it in the test-only worker lab-engine-stub-worker.js.
// Not a test file (node --test runs *.test.js).

const LETTERS = 'abcde';
const TOKENIZER = {
  type: 'char',
  srcVocab: ['<pad>', '<unk>', ...LETTERS],
  tgtVocab: ['<pad>', '<bos>', '<eos>', '<unk>', ...LETTERS],
  pad: '<pad>',
  unk: '<unk>',
  bos: '<bos>',
  eos: '<eos>',
};

/** splitmix-ish 32-bit stream from integers: the same (seed, step, i) gives the same value. */
function rng(...parts) {
  let h = 0x9e3779b9;
  for (const p of parts) h = Math.imul(h ^ (p >>> 0), 0x85ebca6b) ^ (h >>> 13);
  return () => {
    h = (h + 0x6d2b79f5) | 0;
    let t = Math.imul(h ^ (h >>> 15), 1 | h);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function word(next, min, max) {
  const n = min + Math.floor(next() * (max - min + 1));
  let s = '';
  for (let i = 0; i < n; i++) s += LETTERS[Math.floor(next() * LETTERS.length)];
  return s;
}

export function makeTask(spec) {
  const { name = 'reverse', minLength = 2, maxLength = 6, seed = 1 } = spec;
  if (name !== 'reverse' && name !== 'broken' && name !== 'crash')
    throw new Error(`stub task: unknown task ${name}`);
  const held = new Set();
  const heldout = [];
  for (let L = minLength; L <= maxLength; L++) {
    const next = rng(seed, 777, L);
    for (let i = 0; i < 6; i++) {
      const src = word(next, L, L);
      if (held.has(src)) continue;
      held.add(src);
      heldout.push({ src, tgt: [...src].reverse().join('') });
    }
  }
  return {
    name,
    level: 'char',
    tokenizer: TOKENIZER,
    maxSource: maxLength,
    maxTarget: maxLength,
    batch(step, size) {
      if (name === 'crash') process.exit(3); // in a worker thread: the thread dies, as on a crash
      const next = rng(seed, step, size);
      const out = [];
      while (out.length < size) {
        const src = word(next, minLength, maxLength);
        if (held.has(src)) continue;
        out.push({ src, tgt: name === 'broken' ? 'a'.repeat(5000) : [...src].reverse().join('') }); // over the decoder's step limit
      }
      return out;
    },
    heldout,
    example: heldout[heldout.length - 1],
    lengthOf: (src) => src.length,
  };
}

export function modelConfig(m, task) {
  if (m.family === 'transformer') {
    return {
      architecture: 'transformer',
      variant: 'encoder-decoder',
      embeddingSize: m.width,
      numHeads: m.heads,
      feedforwardSize: m.feedforward,
      numLayers: m.layers,
      positions: m.positions,
      maxPositions: task.maxTarget + 2,
      maxRelativePosition: 8,
      maxLength: task.maxTarget + 1,
      tokenizer: task.tokenizer,
    };
  }
  return {
    architecture: 'seq2seq',
    cell: m.cell,
    bidirectional: m.bidirectional,
    numLayers: m.layers,
    hiddenSize: m.hidden,
    embeddingSize: m.embedding,
    attention: m.attention,
    style: m.style,
    attentionSize: m.hidden,
    maxLength: task.maxTarget + 1,
    tokenizer: task.tokenizer,
  };
}

export function checkExperiment(e) {
  const refused = [];
  for (const k of ['a', 'b']) {
    const m = e[k]?.model;
    if (!m) continue;
    if (m.family === 'seq2seq' && !(m.hidden >= 16 && m.hidden <= 256))
      refused.push(`${k}.model.hidden=${m.hidden}`);
    if (!(e[k].train.batch >= 1 && e[k].train.batch <= 256))
      refused.push(`${k}.train.batch=${e[k].train.batch}`);
  }
  return { experiment: e, refused };
}

export const TASK = {
  name: 'reverse',
  minLength: 2,
  maxLength: 6,
  size: 0,
  level: 'char',
  seed: 3,
};
export const MODEL = {
  family: 'seq2seq',
  cell: 'gru',
  bidirectional: true,
  layers: 1,
  hidden: 16,
  embedding: 8,
  attention: 'additive',
  style: 'bahdanau',
};
export const TRAIN = { optimizer: 'adam', lr: 0.01, batch: 16, clip: 1, seed: 7, workers: 1 };
