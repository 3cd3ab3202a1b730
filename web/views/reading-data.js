// reading-data.js: the plain numbers of the Reading view (reading-view.js): the text as the
// agreement models read it, a run's tokens, weights and probabilities, the rows and blocks the
// view draws, the strongest earlier word, the top next words, the least expected word, and the
// view's JSON and CSV files.
//
//   const d = readingData(model.run(readingInput(typed), { distributions: true }), text, config);
//   attentionRow(d.weights, d.n, t)     // what word t read
//   leastExpected(result.logProbs)      // the word most of the perplexity comes from
//
// Holds: pure functions of plain arrays (tested in Node, tests/js/web-reading-forgetting.test.js).
// Deliberately holds no DOM and nothing of wasm: reading-view.js draws and downloads.

import { normalizeSentence } from '../data/agreement.js';
import { csvField } from '../shared/draw.js';
import { numbersJSON } from '../shared/view-kit.js';

/** The text a person typed, as the agreement models read it (lowercase, punctuation split off). */
export function readingInput(text) {
  return normalizeSentence(typeof text === 'string' ? text : '');
}

/**
 * The plain numbers of a run: { tokens, n, weights (Float32Array [n * n] or null for an LSTM),
 * probs ([n]: probs[i] = p(token i | tokens before it); null for token 0, which is not predicted),
 * unknown ([{ index, word, token }]: typed words the tokenizer turned into unk, or into a shape
 * class of unknown words such as <unk-s>: token says which) }.
 * text: the normalized text that was run; config: the model's config (tokenizer unk, bos).
 */
export function readingData(result, text, config) {
  const tokens = [...result.tokens];
  const n = tokens.length;
  const map = result.attention?.[0] ?? null;
  const probs = tokens.map((_, i) => (i === 0 ? null : Math.exp(result.logProbs[i - 1])));
  const tok = config?.tokenizer ?? {};
  const offset = tok.bos !== undefined ? 1 : 0;
  const words = String(text).split(/\s+/).filter(Boolean);
  const unknown = [];
  words.forEach((word, i) => {
    const t = tokens[i + offset];
    const shape = (tok.unknownShapes ?? []).includes(t);
    if ((t === tok.unk || shape) && word !== t) unknown.push({ index: i + offset, word, token: t });
  });
  return { tokens, n, weights: map ? map.weights.data : null, probs, unknown };
}

/** Row t of the [n, n] weights, columns 0..t: what word t read (null without weights). */
export function attentionRow(weights, n, t) {
  if (!weights) return null;
  return weights.slice(t * n, t * n + t + 1);
}

/** The top-left (t + 1) × (t + 1) block of the [n, n] weights: the map after reading word t. */
export function readSoFar(weights, n, t) {
  const m = t + 1;
  const out = new Float32Array(m * m);
  for (let i = 0; i < m; i++) out.set(weights.subarray(i * n, i * n + m), i * m);
  return out;
}

/** The strongest entry of a row: { index, weight } (first on ties; index −1 when all are 0). */
export function strongestEarlier(row) {
  let index = -1;
  let weight = 0;
  if (row)
    row.forEach((w, i) => {
      if (w > weight) [index, weight] = [i, w];
    });
  return { index, weight };
}

/**
 * The k most probable next words from one row of log-probabilities over vocab: [{ id, word,
 * prob }], most probable first; `skip` words (padding) left out.
 */
export function topNext(logRow, vocab, k = 5, skip = ['<pad>']) {
  const ids = [];
  for (let i = 0; i < logRow.length; i++) if (!skip.includes(vocab[i])) ids.push(i);
  ids.sort((a, b) => logRow[b] - logRow[a] || a - b);
  return ids.slice(0, k).map((id) => ({ id, word: vocab[id], prob: Math.exp(logRow[id]) }));
}

/**
 * The least expected token of a run and its share of the sentence's surprisal: logProbs[i] =
 * log p(token i + 1 | tokens before it) (a run's logProbs). Returns { index (the token's, <s> =
 * 0), prob, share (its −log p over the sum of every −log p, in [0, 1]) }, or null with fewer than
 * two predicted tokens or no surprisal at all. Perplexity is exp(mean −log p), so a token with a
 * large share is most of why the perplexity is high.
 * @param {ArrayLike<number>} logProbs
 */
export function leastExpected(logProbs) {
  if (!logProbs || logProbs.length < 2) return null;
  let index = 0;
  let total = 0;
  for (let i = 0; i < logProbs.length; i++) {
    total -= logProbs[i];
    if (logProbs[i] < logProbs[index]) index = i;
  }
  if (!(total > 0) || !Number.isFinite(total)) return null;
  return { index: index + 1, prob: Math.exp(logProbs[index]), share: -logProbs[index] / total };
}

/** The view's JSON file of the run d (readingData's, with name, input, text, cell and result). */
export function readingJSON(d) {
  return {
    model: d.name,
    input: d.input,
    readAs: d.text,
    cell: d.cell,
    tokens: d.tokens,
    unknown: d.unknown,
    logProbs: numbersJSON(d.result.logProbs),
    perplexity: d.result.perplexity === undefined ? null : numbersJSON([d.result.perplexity])[0],
    weights: d.weights ? { shape: [d.n, d.n], data: numbersJSON(d.weights) } : null,
  };
}

/** The view's CSV of the run d: per word its probability and the strongest earlier word (CRLF). */
export function readingCSV(d) {
  const lines = ['index,token,probability,log_probability,strongest_earlier,weight'];
  d.tokens.forEach((token, i) => {
    const best = strongestEarlier(attentionRow(d.weights, d.n, i));
    const lp = i === 0 ? '' : numbersJSON([d.result.logProbs[i - 1]])[0];
    const p = i === 0 ? '' : numbersJSON([d.probs[i]])[0];
    lines.push(
      [
        i,
        csvField(token),
        p,
        lp,
        best.index < 0 ? '' : csvField(d.tokens[best.index]),
        best.index < 0 ? '' : numbersJSON([best.weight])[0],
      ].join(','),
    );
  });
  return lines.join('\r\n') + '\r\n';
}
