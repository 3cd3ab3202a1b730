// scripts/train/verb-forms.mjs: the agreement language models' missing -s forms (issue 30).
//
// A present verb whose base form the vocabulary holds but not its -s form (`forget`, `clean`,
// `climb`: Brown never or rarely writes `forgets`) read its -s form as <unk-s>, a class the models
// learnt mostly from plural nouns, so they chose the same form after a singular subject and a
// plural one: a coin toss on every such verb. After training, each of those -s forms joins the
// vocabulary with the rows of its base form moved by the model's own 3sg direction: the mean, over
// the present pairs both of whose forms the vocabulary holds (brownPresentPairs: `likes`/`like`,
// 327 of them), of the -s form's row minus the base form's, in the input embedding, the output
// weights and the output bias. No weight the model trained changes, and nothing is tuned: the
// rule below picks the verbs, the offset is an average.
//
//   const plan = verbFormPlan(vocab, sentences, presentPairs);   // { additions, pairs }
//   const bytes2 = completeVerbForms(bytes, plan);                // the I8 file with them
//
// Which verbs: a base form b of the vocabulary that wink-lexicon tags as a present verb (VBP) and
// whose regular -s form z it tags VBZ (the verb probe's test, scripts/train/agreement-eval.mjs),
// z not in the vocabulary, and Brown's training part reading the pair as a verb at least as often
// as a noun (tags vb of b plus vbz of z against nn of b plus nns of z): `cook`, `smoke` or `heat`
// stay out, since their -s forms are mostly plural nouns, which <unk-s> already reads well.
// The file is an I8 file (the shipped storage, wasm/i8.js): the new rows are rounded to float16
// and quantised per row as every row of it was, and the rows it had keep their bytes.
//
// Not here: training (agreement.mjs), the probe that measured the coin toss (agreement-eval.mjs
// verbKnowledge).

import { createRequire } from 'node:module';

import { f16Array, f16Value } from '../../wasm/f16.js';
import { quantizeRows, I8_SCALE_SUFFIX } from '../../wasm/i8.js';
import { tagCounts } from '../../web/data/brown.js';
import { parseLm, repackLm } from './lm-file.mjs';

const require = createRequire(import.meta.url);

/** The regular third-person singular of a base form (`watch` → `watches`, `try` → `tries`). */
export function thirdPerson(base) {
  if (/(s|sh|ch|x|z|o)$/.test(base)) return `${base}es`;
  if (/[^aeiou]y$/.test(base)) return `${base.slice(0, -1)}ies`;
  return `${base}s`;
}

/**
 * The verbs to complete and the pairs the offset is averaged over.
 * @param {string[]} vocab the model's vocabulary (specials and classes included)
 * @param {{ words: string[], tags: string[] }[]} sentences Brown's training part (tagged)
 * @param {[string, string][]} presentPairs [3sg, base] pairs (brownPresentPairs)
 * @returns {{ additions: [string, string][], pairs: [string, string][] }} additions: [3sg, base],
 *   in the vocabulary's order of the base form; pairs: presentPairs both of whose forms it holds
 */
export function verbFormPlan(vocab, sentences, presentPairs) {
  const lex = require('wink-lexicon/src/lexicon.js');
  const known = new Set(vocab);
  const [vb, vbz] = tagCounts(sentences, 'vb', 'vbz');
  const [nn, nns] = tagCounts(sentences, 'nn', 'nns');
  const count = (m, w) => m.get(w) ?? 0;
  /** @type {[string, string][]} */
  const additions = [];
  const taken = new Set();
  for (const b of vocab) {
    if (!/^[a-z]+$/.test(b) || !lex[b]?.includes('VBP')) continue;
    const z = thirdPerson(b);
    if (known.has(z) || taken.has(z) || !lex[z]?.includes('VBZ')) continue;
    const verb = count(vb, b) + count(vbz, z);
    const noun = count(nn, b) + count(nns, z);
    if (verb === 0 || verb < noun) continue;
    additions.push([z, b]);
    taken.add(z);
  }
  const pairs = presentPairs.filter(([z, b]) => known.has(z) && known.has(b));
  if (pairs.length === 0)
    throw new Error('verbFormPlan: no present pair has both forms in the vocabulary');
  return { additions, pairs };
}

/** A typed array of `n` values stored at byte `at` of data (a copy: offsets need not be aligned). */
function read(Type, data, at, n) {
  return new Type(data.slice(at, at + n * Type.BYTES_PER_ELEMENT).buffer);
}

/** Rows [rows, cols] of an I8 tensor as float64 values (int8 · scale). */
function i8Rows(header, data, name) {
  const t = header[name];
  const s = header[name + I8_SCALE_SUFFIX];
  if (t?.dtype !== 'I8' || s?.dtype !== 'F32')
    throw new Error(`completeVerbForms: "${name}" is not an I8 tensor with its scales`);
  const [rows, cols] = t.shape;
  const q = read(Int8Array, data, t.data_offsets[0], rows * cols);
  const scale = read(Float32Array, data, s.data_offsets[0], rows);
  return {
    rows,
    cols,
    row: (r) => Array.from(q.subarray(r * cols, (r + 1) * cols), (v) => v * scale[r]),
  };
}

/** Each addition's row: its base's row plus the mean (-s minus base) row over the pairs. */
function movedRows(rowOf, width, id, { additions, pairs }) {
  const offset = new Float64Array(width);
  for (const [z, b] of pairs) {
    const rz = rowOf(id.get(z)),
      rb = rowOf(id.get(b));
    for (let c = 0; c < width; c++) offset[c] += (rz[c] - rb[c]) / pairs.length;
  }
  return additions.map(([, b]) => rowOf(id.get(b)).map((v, c) => v + offset[c]));
}

/**
 * The I8 language-model file with plan.additions appended to its vocabulary, embedding rows,
 * output rows and output bias (see the header). Every other byte of tensor data is kept.
 * @param {Uint8Array} bytes an I8 memory-rnn LM file (embedding.weight, out.weight I8; out.bias F16)
 * @param {{ additions: [string, string][], pairs: [string, string][] }} plan verbFormPlan's
 * @returns {Uint8Array}
 */
export function completeVerbForms(bytes, plan) {
  const file = parseLm(bytes);
  const { header, data, config } = file;
  if (config?.head !== 'lm')
    throw new Error('completeVerbForms: not a memory-rnn language model file');
  const vocab = config.tokenizer.vocab;
  const id = new Map(vocab.map((w, i) => [w, i]));
  const needed = [...plan.additions.map(([, b]) => b), ...plan.pairs.flat()];
  for (const w of needed)
    if (!id.has(w)) throw new Error(`completeVerbForms: "${w}" is not in the file's vocabulary`);
  for (const [z] of plan.additions)
    if (id.has(z)) throw new Error(`completeVerbForms: "${z}" is already in the vocabulary`);
  const added = plan.additions.length;
  /** name → [dtype, shape, typed array] of the grown tensors */
  const grown = {};
  for (const name of ['embedding.weight', 'out.weight']) {
    const { rows, cols, row } = i8Rows(header, data, name);
    if (rows !== vocab.length)
      throw new Error(`completeVerbForms: "${name}" has ${rows} rows for ${vocab.length} words`);
    const values = movedRows(row, cols, id, plan).flat();
    const half = Array.from(
      f16Array(Float32Array.from(values), name, 'completeVerbForms'),
      f16Value,
    );
    const { q, scale } = quantizeRows(half, added, cols);
    const t = header[name],
      s = header[name + I8_SCALE_SUFFIX];
    const allQ = new Int8Array((rows + added) * cols);
    allQ.set(read(Int8Array, data, t.data_offsets[0], rows * cols));
    allQ.set(q, rows * cols);
    const allS = new Float32Array(rows + added);
    allS.set(read(Float32Array, data, s.data_offsets[0], rows));
    allS.set(scale, rows);
    grown[name] = ['I8', [rows + added, cols], allQ];
    grown[name + I8_SCALE_SUFFIX] = ['F32', [rows + added], allS];
  }
  const bias = header['out.bias'];
  if (bias?.dtype !== 'F16' || bias.shape[0] !== vocab.length)
    throw new Error('completeVerbForms: "out.bias" is not an F16 vector of one value per word');
  const oldBias = read(Uint16Array, data, bias.data_offsets[0], vocab.length);
  const newBias = movedRows((r) => [f16Value(oldBias[r])], 1, id, plan).flat();
  const allB = new Uint16Array(vocab.length + added);
  allB.set(oldBias);
  allB.set(f16Array(Float32Array.from(newBias), 'out.bias', 'completeVerbForms'), vocab.length);
  grown['out.bias'] = ['F16', [vocab.length + added], allB];

  const tokenizer = { ...config.tokenizer, vocab: [...vocab, ...plan.additions.map(([z]) => z)] };
  return repackLm(file, tokenizer, grown);
}
