// scripts/train/noun-shapes.mjs: plural nouns the agreement models never learnt the number of read
// as <unk-s> (issue 30).
//
// The noun probe (agreement-eval.mjs nounProbe) found that the models know the number of the
// nouns the widened grammar draws (97–99%) and not of the vocabulary's other nouns (68–71%:
// `plates`, `eggs`, `tickets`): Brown shows them too rarely as the subject of a verb. An unknown
// -s word reads as <unk-s>, a class the models learnt to be plural from Brown's rare words and the
// grammar's nouns read as their shape. So after training, each such plural leaves the vocabulary
// (its input row, output row and output bias go; every other byte stays) and reads as <unk-s>,
// whose number the model does know. Nothing is trained or tuned: the rule below picks the words.
//
//   const words = nounShapePlan(vocab, sentences, nounPairs, drilled, keep);
//   const bytes2 = pruneWords(bytes, words);        // the I8 file without them
//
// Which words: the plural of each noun pair past the first `drilled` (those the grammar does not
// draw), in the vocabulary, whose shape is <unk-s> (tokenizer.js shapeOf: 4+ letters, -s, not -ss,
// -us, -is), that Brown's training part never tags as a verb (vbz: `means`, `wants`, `holds` stay,
// the verb pairs need them) and that is not in `keep` (the page grammar's words and the cards'
// examples). The singulars stay: <unk> is every other unknown word and says nothing of number.
//
// Not here: training (agreement.mjs), the verbs' -s forms (verb-forms.mjs).

import { I8_SCALE_SUFFIX } from '../../wasm/i8.js';
import { shapeOf } from '../../wasm/model/tokenizer.js';
import { tagCounts } from '../../web/data/brown.js';
import { parseLm, repackLm } from './lm-file.mjs';

/**
 * The plurals to read as <unk-s> (see the header), in nounPairs' order.
 * @param {string[]} vocab the model's vocabulary
 * @param {{ words: string[], tags: string[] }[]} sentences Brown's training part (tagged)
 * @param {[string, string][]} nounPairs [singular, plural] (agreement.mjs allNounPairs)
 * @param {number} drilled how many of nounPairs the widened grammar draws (the first ones)
 * @param {Iterable<string>} keep words that stay whatever the rule says
 * @returns {string[]}
 */
export function nounShapePlan(vocab, sentences, nounPairs, drilled, keep) {
  const known = new Set(vocab);
  const kept = new Set(keep);
  const [vbz] = tagCounts(sentences, 'vbz');
  return nounPairs
    .slice(drilled)
    .map(([, plural]) => plural)
    .filter(
      (w) =>
        known.has(w) &&
        shapeOf(w, { irregularPlurals: false }) === '<unk-s>' &&
        !vbz.has(w) &&
        !kept.has(w),
    );
}

/** The rows of a [rows, ...] tensor's bytes (rowBytes each) whose index `keep` holds, in order. */
function keptRows(data, t, rowBytes, keep) {
  const from = data.subarray(...t.data_offsets);
  const out = new Uint8Array(keep.length * rowBytes);
  keep.forEach((r, i) => out.set(from.subarray(r * rowBytes, (r + 1) * rowBytes), i * rowBytes));
  return out;
}

/**
 * The memory-rnn language-model file without `words` in its vocabulary: their rows of
 * embedding.weight and out.weight (I8, with their per-row scales) and of out.bias (F16) removed,
 * every other byte kept, so each reads as the class its shape gives (the config's unknownShapes).
 * Refuses a word the vocabulary lacks, a special or class token, and a word no listed class
 * would read it as (it would become <unk>).
 * @param {Uint8Array} bytes an I8 memory-rnn LM file
 * @param {string[]} words
 * @returns {Uint8Array}
 */
export function pruneWords(bytes, words) {
  const file = parseLm(bytes);
  const { header, data, config } = file;
  if (config?.head !== 'lm') throw new Error('pruneWords: not a memory-rnn language model file');
  const t = config.tokenizer;
  const vocab = t.vocab;
  const shapes = new Set(t.unknownShapes ?? []);
  const specials = new Set([t.unk, t.pad, t.bos, t.eos, ...shapes]);
  const index = new Map(vocab.map((w, i) => [w, i]));
  const gone = new Set();
  for (const w of words) {
    if (!index.has(w)) throw new Error(`pruneWords: "${w}" is not in the file's vocabulary`);
    if (specials.has(w)) throw new Error(`pruneWords: "${w}" is a special or class token`);
    if (!shapes.has(shapeOf(w)))
      throw new Error(`pruneWords: "${w}" has no shape class of the file's tokenizer`);
    gone.add(index.get(w));
  }
  const keep = vocab.map((_, i) => i).filter((i) => !gone.has(i));
  const rows = vocab.length;
  /** name's tensor, checked: of `dtype`, one row per word */
  const rowsOf = (name, dtype) => {
    const x = header[name];
    if (x?.dtype !== dtype || x.shape[0] !== rows)
      throw new Error(`pruneWords: "${name}" is not ${dtype} with one row per word (${rows})`);
    return x;
  };
  /** name → [dtype, shape, bytes] of the shrunk tensors */
  const shrunk = {};
  const shrink = (name, dtype, rowBytes, shape) =>
    (shrunk[name] = [dtype, shape, keptRows(data, rowsOf(name, dtype), rowBytes, keep)]);
  for (const name of ['embedding.weight', 'out.weight']) {
    const cols = rowsOf(name, 'I8').shape[1];
    shrink(name, 'I8', cols, [keep.length, cols]);
    shrink(name + I8_SCALE_SUFFIX, 'F32', 4, [keep.length]);
  }
  shrink('out.bias', 'F16', 2, [keep.length]);
  return repackLm(file, { ...t, vocab: keep.map((i) => vocab[i]) }, shrunk);
}
