// scripts/train/noun-shapes.mjs: plural nouns the agreement models never learnt the number of
// leave the vocabulary after training and read as <unk-s> (issue 30). The rule on a small
// corpus; pruneWords against the model it came from (kept rows byte for byte, the next-word
// distribution the old one renormalised over the words kept, the pruned word read as its class);
// clear errors; the shipped files are the rule applied, and their word perplexity is the card's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { init, createModel, loadModel, saveModel } from '../../wasm/index.js';
import { UNKNOWN_SHAPES } from '../../wasm/model/tokenizer.js';
import { nounShapePlan, pruneWords } from '../../scripts/train/noun-shapes.mjs';
import {
  agreementData,
  agreementTokenizer,
  wordPerplexity,
  prunedPlurals,
  unknownClassSizes,
} from '../../scripts/train/agreement.mjs';
import { shipped, assertNear } from './shipped-helpers.js';

await init();
const NAMES = ['lm-agreement-lstm', 'lm-agreement-sarnn', 'lm-agreement-lstmn'];

const tagged = (pairs) => ({ words: pairs.map((p) => p[0]), tags: pairs.map((p) => p[1]) });

test('nounShapePlan: plurals past the drilled pairs, of the -s shape, never a verb, not kept', () => {
  const sentences = [
    tagged([
      ['he', 'pps'],
      ['wants', 'vbz'],
      ['the', 'at'],
      ['plates', 'nns'],
    ]),
  ];
  const vocab = ['<unk>', 'dog', 'dogs', 'plate', 'plates', 'want', 'wants', 'ox', 'oxen'];
  const pairs = [
    ['dog', 'dogs'], // drilled: stays
    ['plate', 'plates'], // pruned
    ['want', 'wants'], // Brown tags "wants" as a verb: stays
    ['ox', 'oxen'], // not the -s shape: <unk-s> would not be what it reads as by shape
    ['box', 'boxes'], // not in the vocabulary
    ['cup', 'cups'], // kept by the caller
  ];
  vocab.push('cup', 'cups');
  assert.deepEqual(nounShapePlan(vocab, sentences, pairs, 1, ['cups']), ['plates']);
  assert.deepEqual(nounShapePlan(vocab, sentences, pairs, 1, []), ['plates', 'cups']);
  assert.deepEqual(nounShapePlan(vocab, sentences, pairs, 6, []), []);
});

const VOCAB = [
  '<pad>',
  '<unk>',
  '<s>',
  '</s>',
  ...UNKNOWN_SHAPES,
  'the',
  'dog',
  'dogs',
  'plate',
  'plates',
  'is',
  'are',
  'on',
  'glass',
];
/** A small LM with the shape classes: 64-wide rows, so that its matrices are stored I8. */
const lmConfig = {
  architecture: 'memory-rnn',
  cell: 'lstm',
  embeddingSize: 64,
  hiddenSize: 64,
  head: 'lm',
  tokenizer: {
    type: 'word',
    vocab: VOCAB,
    unk: '<unk>',
    pad: '<pad>',
    bos: '<s>',
    eos: '</s>',
    unknownShapes: [...UNKNOWN_SHAPES],
  },
};

/** Header and data of safetensors bytes; tensor(name) → a copy of its bytes. */
function parse(bytes) {
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  const data = bytes.subarray(8 + n);
  return { header, tensor: (name) => data.slice(...header[name].data_offsets) };
}

/** The next-word log-probabilities of a model after each token of ids ([T, V] rows). */
function rows(model, ids) {
  const r = model.run(Int32Array.from(ids), { distributions: true });
  const V = r.distributions.shape[1];
  return Array.from({ length: ids.length }, (_, t) =>
    Array.from(r.distributions.data.subarray(t * V, (t + 1) * V)),
  );
}

test('pruneWords: kept rows keep their bytes, the distribution is the old one over the words kept', async () => {
  const model = await createModel(lmConfig, { seed: 5 });
  const bytes = saveModel(model, { dtype: 'I8' });
  model.dispose();
  const pruned = pruneWords(bytes, ['plates']);
  const a = parse(bytes),
    b = parse(pruned);
  const gone = VOCAB.indexOf('plates');
  const keep = VOCAB.map((_, i) => i).filter((i) => i !== gone);
  for (const [name, width] of [
    ['embedding.weight', 64],
    ['out.weight', 64],
    ['embedding.weight:scale', 4],
    ['out.weight:scale', 4],
    ['out.bias', 2],
  ]) {
    assert.equal(b.header[name].shape[0], VOCAB.length - 1, name);
    const ta = a.tensor(name),
      tb = b.tensor(name);
    keep.forEach((r, i) =>
      assert.deepEqual(
        tb.subarray(i * width, (i + 1) * width),
        ta.subarray(r * width, (r + 1) * width),
      ),
    );
  }
  for (const name of ['cell.weight_ih_l0', 'cell.weight_hh_l0', 'cell.bias_ih_l0'])
    assert.deepEqual(b.tensor(name), a.tensor(name), name);

  const before = await loadModel(bytes);
  const after = await loadModel(pruned);
  // "plates" is unknown now and reads as <unk-s>; "plate" is still itself
  assert.deepEqual(after.run('the plates are on the plate').unknownWords, ['plates']);
  const idB = (w) => VOCAB.indexOf(w),
    idA = (w) => after.config.tokenizer.vocab.indexOf(w);
  assert.equal(after.encode('the plates')[2], idA('<unk-s>'));
  // after the same tokens, log p'(w) = log p(w) - log sum over the kept words of p
  const words = ['the', '<unk-s>', 'are', 'on', 'the', 'plate'];
  const old = rows(before, [idB('<s>'), ...words.map(idB)]);
  const now = rows(after, [idA('<s>'), ...words.map(idA)]);
  old.forEach((row, t) => {
    const z = Math.log(keep.reduce((s, i) => s + Math.exp(row[i]), 0));
    keep.forEach((i, k) =>
      assert.ok(Math.abs(now[t][k] - (row[i] - z)) < 1e-5, `step ${t}, ${VOCAB[i]}`),
    );
  });
  before.dispose();
  after.dispose();

  // clear errors, each naming the word or the tensor
  assert.throws(() => pruneWords(bytes, ['cups']), /"cups" is not in the file's vocabulary/);
  assert.throws(() => pruneWords(bytes, ['<unk-s>']), /"<unk-s>" is a special or class token/);
  assert.throws(() => pruneWords(bytes, ['</s>']), /"<\/s>" is a special or class token/);
  assert.throws(() => pruneWords(bytes, ['plate']), /"plate" has no shape class/);
  assert.throws(() => pruneWords(bytes, ['glass']), /"glass" has no shape class/);
  const f32 = await createModel(lmConfig, { seed: 5 });
  assert.throws(() => pruneWords(saveModel(f32), ['plates']), /"embedding.weight" is not I8/);
  f32.dispose();
  const clf = await createModel(
    { ...lmConfig, head: 'classifier', pool: 'mean', labels: ['a', 'b'] },
    { seed: 5 },
  );
  assert.throws(
    () => pruneWords(saveModel(clf, { dtype: 'I8' }), ['plates']),
    /not a memory-rnn language model/,
  );
  clf.dispose();
});

test('shipped agreement LMs: the rule applied, each pruned plural read as <unk-s>', async () => {
  const plan = prunedPlurals();
  assert.ok(plan.length >= 250, `${plan.length} plurals`);
  for (const w of ['plates', 'eggs', 'tickets', 'flowers', 'sandwiches'])
    assert.ok(plan.includes(w), w);
  // verbs Brown tags as such stay (the verb pairs need them), and so do the drilled nouns
  for (const w of ['means', 'wants', 'holds', 'keys', 'rivers']) assert.ok(!plan.includes(w), w);
  const base = new Set(agreementTokenizer().vocab);
  assert.ok(plan.every((w) => base.has(w)));
  const d = agreementData();
  for (const name of NAMES) {
    const { card, bytes } = shipped(name, { maxBytes: 1024 * 1024 });
    const model = await loadModel(bytes);
    const vocab = new Set(model.config.tokenizer.vocab);
    const unkS = model.config.tokenizer.vocab.indexOf('<unk-s>');
    for (const w of plan) {
      assert.ok(!vocab.has(w), `${name}: ${w}`);
      assert.equal(model.encode(w)[1], unkS, `${name}: ${w}`);
    }
    assert.ok(card.vocabulary.prunedPlurals.endsWith(plan.join(' ')), `${name}: the card's list`);
    // the word perplexity (a class token charged as one of its words), recomputed
    const got = wordPerplexity(model, d.brown.heldout).perplexity;
    const want = card.metrics.heldout.brownWordPerplexity;
    assertNear(name, 'word perplexity', got, want, 1e-3 * want);
    // it is larger than the plain one: a class token is one of many words
    assert.ok(want > card.metrics.heldout.brownPerplexity);
    model.dispose();
  }
});

test("the docs' figures of the pruning are the files'", async () => {
  const read = (page) =>
    readFileSync(new URL(`../../docs/${page}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');
  const n = (x) => x.toLocaleString('en-US');
  const { card, bytes } = shipped('lm-agreement-lstm', { maxBytes: 1024 * 1024 });
  const model = await loadModel(bytes);
  const plurals = prunedPlurals().length;
  const unkS = unknownClassSizes(model).get('<unk-s>');
  model.dispose();
  const training = read('training.md'),
    memory = read('memory-rnn.md'),
    embedding = read('embedding.md');
  for (const [page, text, want] of [
    ['training.md', training, `Plurals the models never saw agree`],
    ['training.md', training, `after training, ${plurals} plurals leave each file's vocabulary`],
    ['training.md', training, `${n(card.vocabulary.size)} words in the shipped files`],
    ['memory-rnn.md', memory, `So do ${plurals} plurals the files once held`],
    ['memory-rnn.md', memory, `shared among the ${n(unkS)} words that token stands for`],
    ['embedding.md', embedding, `an agreement grammar, ${n(card.vocabulary.size)} words`],
  ])
    assert.ok(text.includes(want), `docs/${page} lacks: ${want}`);
});
