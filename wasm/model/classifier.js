// attnlab/wasm/model/classifier.js: architecture "classifier" (src/models/classifier.h,
// docs/models.md): a recurrent text classifier with attention (Zhou et al. 2016), HAN (Yang et
// al. 2016) or structured self-attention (Lin et al. 2017) pooling. classify(), training
// examples ({ src, label }) and evaluation; model.js dispatches here with the model's private
// state `m`.

import { Arena, checkOptions } from '../core.js';
import { Tokenizer } from './tokenizer.js';
import { exampleIds, labelId, sourceIds, statusError } from './common.js';
import { AttnlabError } from '../core.js';
import { readStateFields, wantsStates } from './state-fields.js';

export const name = 'classifier';

/** The config's tokenizer section ({ type, vocab, unk, pad? }) in the Tokenizer's terms: the
 * vocabulary as srcVocab, the labels as tgtVocab, no bos or eos. */
export function tokenizer(cfg) {
  const t = cfg.tokenizer ?? {};
  return new Tokenizer({
    type: t.type,
    srcVocab: t.vocab,
    tgtVocab: cfg.labels,
    unk: t.unk,
    pad: t.pad,
    normalize: t.normalize,
    spellingKeep: t.spellingKeep,
  });
}

/** Model.run of a classifier is classify. */
export function run(m, input, options) {
  return classify(m, input, options);
}

/**
 * Model.classify: the most probable label, the class probabilities and the pooling's attention:
 * one map per level, `weights` [rows, n] (rows: 1, or r hops for "structured"); for "han" also
 * `sentenceWeights`, `sentences` ([start, end) token ranges) and a second map over the
 * sentences; for "structured" the penalty ‖AAᵀ − I‖²_F. `{ states: true }` adds `states`, every
 * intermediate of the forward (docs/states.md), from a second C pass (al_model_classifier_states).
 */
export function classify(m, input, options) {
  const o = checkOptions(options, 'Model.classify', ['states']);
  const ids = sourceIds(m, input, 'classify');
  const n = ids.length,
    C = m.info.tgtVocab;
  const pooling = m.config.pooling;
  const x = m.x;
  const ar = new Arena(x);
  try {
    const pIds = ar.i32(ids, 'the input ids');
    const hops = m.info.hops;
    const nSent = x.al_model_classifier_sentences(m.ptr, pIds, n);
    const pProbs = ar.alloc(C * 4, 'the probabilities');
    const pW = ar.alloc(hops * n * 4, 'the attention weights');
    const pSent = ar.alloc(n * 4, 'the sentence weights');
    const pPen = ar.alloc(4, 'the penalty');
    const status = x.al_model_classify(m.ptr, pIds, n, pProbs, pW, pSent, pPen);
    if (status !== 0) throw statusError(x, status, 'Model.classify');
    const probs = ar.read(pProbs, C);
    let best = 0;
    for (let k = 1; k < C; k++) if (probs[k] > probs[best]) best = k;
    const tokens = m.tokenizer.srcTokens(ids);
    const rowLabels =
      pooling === 'structured'
        ? Array.from({ length: hops }, (_, i) => `hop ${i + 1}`)
        : [pooling === 'han' ? 'words' : 'attention'];
    const result = {
      label: m.labels[best],
      labelId: best,
      probs,
      unknownShare: unknownShare(m, input, ids, tokens),
      attention: [
        {
          layer: 0,
          head: 0,
          weights: { data: ar.read(pW, hops * n), shape: [hops, n] },
          rowLabels,
          colLabels: tokens,
        },
      ],
      ids,
      tokens,
    };
    if (pooling === 'han') {
      const sep = m.tokenizer.src.get(m.config.sentenceSeparator);
      const sentences = [];
      let start = 0;
      ids.forEach((id, i) => {
        if (id === sep || i === n - 1) {
          sentences.push([start, i + 1]);
          start = i + 1;
        }
      });
      result.sentenceWeights = ar.read(pSent, nSent);
      result.sentences = sentences;
      result.attention.push({
        layer: 1,
        head: 0,
        weights: { data: result.sentenceWeights.slice(), shape: [1, nSent] },
        rowLabels: ['sentences'],
        colLabels: sentences.map(([a, b]) => tokens.slice(a, b).join(' ')),
      });
    }
    if (pooling === 'structured') result.penalty = ar.read(pPen, 1)[0];
    if (wantsStates(o)) result.states = states(m, ar, pIds, n);
    return result;
  } finally {
    ar.free();
  }
}

const WORD = /[\p{L}\p{N}]/u;

/**
 * The share of the input's words read as unk (docs/models.md, "unknownShare"): a token is a word
 * when it holds a letter or a digit (for text the typed token, so an unknown symbol is no word;
 * for ids the vocabulary entry, and the unk id is always a word); each occurrence counts; 0
 * without words.
 */
function unknownShare(m, input, ids, tokens) {
  const unk = m.tokenizer.unkId;
  const text = typeof input === 'string';
  const typed = text ? m.tokenizer.split(input) : tokens;
  let words = 0,
    unknown = 0;
  ids.forEach((id, i) => {
    if (!WORD.test(typed[i]) && (text || id !== unk)) return;
    words++;
    if (id === unk) unknown++;
  });
  return words ? unknown / words : 0;
}

/** The al_model_classifier_states fields, in C's order (api/classifier_states.h). */
const STATE_FIELDS = 14;

/** The states of ids (already at pIds) as docs/states.md's classifier object. */
function states(m, ar, pIds, n) {
  const x = m.x;
  const pShapes = ar.alloc(STATE_FIELDS * 16, 'the states layout');
  const floats = x.al_model_classifier_states_layout(m.ptr, pIds, n, pShapes);
  if (!(floats >= 0))
    throw new AttnlabError(
      'Model.classify: the model did not report its states',
      'AL_ERR_UNSUPPORTED',
    );
  const pStates = ar.alloc(floats * 4, 'the states');
  const status = x.al_model_classifier_states(m.ptr, pIds, n, pStates);
  if (status !== 0) throw statusError(x, status, 'Model.classify (states)');
  const f = readStateFields(x, pShapes, STATE_FIELDS, pStates);
  const pooling = m.config.pooling;
  const out = {
    pooling,
    embedded: f[0],
    hidden: f[1],
    projected: f[2],
    scores: f[3],
    weights: f[4],
    pooled: f[5],
    logits: f[6],
    probs: f[7],
  };
  if (f[8]) out.penalty = f[8].data[0];
  if (pooling === 'han')
    out.sentences = {
      hidden: f[9],
      projected: f[10],
      scores: f[11],
      weights: f[12],
      pooled: f[13],
    };
  return out;
}

/** A training example { src: text or ids (han: separators included), label: a label or its index }. */
export function example(m, p, what) {
  const s = exampleIds(m, p?.src, false, `${what}.src`);
  if (s.length === 0)
    throw new AttnlabError(
      `${what}.src is empty: a document needs at least one token`,
      'AL_ERR_SHAPE',
    );
  return { s, t: Int32Array.of(labelId(m, p?.label, `${what}.label`)) };
}

/** Trainer.evaluate: accuracy, the mean cross-entropy −log p(label) (without the penalty term),
 * and for structured pooling the mean penalty. */
export function evaluate(m, model, pairs, loss) {
  let right = 0,
    nll = 0,
    pen = 0;
  pairs.forEach((p, i) => {
    const y = labelId(m, p?.label, `Trainer.evaluate: pairs[${i}].label`);
    const r = model.classify(p.src);
    if (r.labelId === y) right++;
    nll -= Math.log(r.probs[y]);
    pen += r.penalty ?? 0;
  });
  const n = Math.max(pairs.length, 1);
  const out = { accuracy: right / n, loss: loss ? nll / n : undefined, count: pairs.length };
  if (m.config.pooling === 'structured') out.penalty = pen / n;
  return out;
}
