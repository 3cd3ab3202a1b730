// attnlab/wasm/model/memory-rnn.js: architecture "memory-rnn": Model.run / Model.classify,
// (src/models/memory_rnn_model.h, docs/models.md "Architecture memory-rnn"): an LSTMN,
// self-attention RNN or LSTM over word embeddings with a language-model or classifier head.
// model.js dispatches here; this file only builds the tokenizer (tokenizer.bos / eos wrap text),
// calls al_model_lm_forward / al_model_memory_classify and copies the results out.
//
//   const m = await loadModel('lm.safetensors');
//   const r = m.run('the cat sat');          // { tokens, logProbs, perplexity, attention }
//   r.attention[0].weights.shape;            // [n, n]: row t, the steps the cell read at step t
//
// Training examples and evaluation are here too.
// Deliberately not here: generation or sampling, batching.

import { AttnlabError, Arena, checkOptions, kindOf, readCString, statusName } from '../core.js';
import { Tokenizer } from './tokenizer.js';
import { exampleIds, sourceIds } from './common.js';
import * as classifier from './classifier.js';
import { memoryStates, statesOption } from './rnn-states.js';

export const name = 'memory-rnn';

/** The config's tokenizer ({ type, vocab, unk, pad?, bos?, eos? }) as a Tokenizer whose encode()
 * puts bos and eos (when the config names them) around the words of a text; { irregularPlurals:
 * false } reads the irregular plurals as unk (tokenizer.js; a trainer's option, not a config key).
 * @param {any} cfg
 * @param {{ irregularPlurals?: boolean }} [options] */
export function tokenizer(cfg, { irregularPlurals } = {}) {
  const t = cfg.tokenizer ?? {};
  const tok = new Tokenizer({
    type: t.type,
    srcVocab: t.vocab,
    tgtVocab: cfg.labels ?? t.vocab,
    unk: t.unk,
    pad: t.pad,
    bos: t.bos,
    eos: t.eos,
    normalize: t.normalize,
    unknownShapes: t.unknownShapes,
    spellingKeep: t.spellingKeep,
    irregularPlurals,
  });
  const words = tok.encode.bind(tok);
  const bos = t.bos === undefined ? [] : [tok.src.get(t.bos)];
  const eos = t.eos === undefined ? [] : [tok.src.get(t.eos)];
  tok.encode = (text) => Int32Array.from([...bos, ...words(text), ...eos]);
  return tok;
}

/**
 * One forward pass of ids [n] (already checked by model.js). lm: { ids, tokens, logProbs [n−1]
 * (log p of each next token), perplexity (exp of their negated mean; undefined for n = 1),
 * distributions ({ data, shape: [n, V] }, with { distributions: true }), attention };
 * classifier: { label, labelId, probs, ids, tokens, attention }. attention is one map [n, n]
 * (rows and columns: the tokens), empty for cell "lstm".
 */
function forwardIds(m, ids, options, what) {
  const { x, ptr, info } = m;
  const states = statesOption(options, what);
  const n = ids.length,
    C = info.tgtVocab,
    lm = info.head === 0;
  const distributions = options.distributions === true; // read once: it sizes a buffer
  const ar = new Arena(x);
  try {
    const pIds = ar.i32(ids, 'the input ids');
    const pW = ar.alloc(n * n * 4, 'the attention weights');
    const pOut = ar.alloc((lm ? (distributions ? n * C : 0) : C) * 4, 'the outputs');
    const pLogp = ar.alloc(n * 4, 'the log-probs');
    const status = lm
      ? x.al_model_lm_forward(ptr, pIds, n, pLogp, distributions ? pOut : 0, pW)
      : x.al_model_memory_classify(ptr, pIds, n, pOut, pW);
    if (status !== 0)
      throw new AttnlabError(
        `${what}: ${readCString(x, x.al_status_string(status))}`,
        statusName(status),
      );
    const tokens = m.tokenizer.srcTokens(ids);
    const attention =
      info.attends !== 1
        ? []
        : [
            {
              layer: 0,
              head: 0,
              weights: { data: ar.read(pW, n * n), shape: [n, n] },
              rowLabels: tokens,
              colLabels: tokens,
            },
          ];
    if (!lm) {
      const probs = ar.read(pOut, C);
      let best = 0;
      for (let k = 1; k < C; k++) if (probs[k] > probs[best]) best = k;
      const r = { label: m.labels[best], labelId: best, probs, ids, tokens, attention };
      if (states) r.states = memoryStates(m, ids, what);
      return r;
    }
    const logProbs = ar.read(pLogp, n - 1);
    const r = {
      ids,
      tokens,
      logProbs,
      perplexity: n > 1 ? Math.exp(-logProbs.reduce((a, b) => a + b, 0) / (n - 1)) : undefined,
      attention,
    };
    if (distributions) r.distributions = { data: ar.read(pOut, n * C), shape: [n, C] };
    if (states) r.states = memoryStates(m, ids, what);
    return r;
  } finally {
    ar.free();
  }
}

/** Model.run: a language model's next-token log-probs, or a classifier head's label. */
export function run(m, input, options) {
  const o = checkOptions(
    options,
    'Model.run',
    m.info.head === 1 ? ['states'] : ['distributions', 'states'],
  );
  if (o.distributions !== undefined && typeof o.distributions !== 'boolean') {
    throw new AttnlabError(
      `Model.run: options.distributions must be true or false, got ${kindOf(o.distributions)}`,
    );
  }
  return forwardIds(m, sourceIds(m, input, 'run'), o, 'Model.run');
}

/** Model.classify, for head "classifier" only (model.js refuses it for a language model). */
export function classify(m, input, options) {
  return forwardIds(
    m,
    sourceIds(m, input, 'classify'),
    checkOptions(options, 'Model.classify', ['states']),
    'Model.classify',
  );
}

/**
 * A training example. head "lm": { src: a sentence, text (bos/eos added when the tokenizer names
 * them) or ids, 2 tokens or more: its n − 1 next-token predictions are the loss terms };
 * head "classifier": { src, label } as a classifier.
 */
export function example(m, p, what) {
  if (m.info.head === 1) return classifier.example(m, p, what);
  const s = exampleIds(m, p?.src, false, `${what}.src`);
  if (s.length < 2)
    throw new AttnlabError(
      `${what}.src has ${s.length} token(s); a language model needs 2 or more (it predicts tokens 2..n)`,
      'AL_ERR_SHAPE',
    );
  return { s, t: new Int32Array(0) };
}

/**
 * Trainer.evaluate. A language model: the mean next-token loss over every sentence's n − 1
 * predictions, its perplexity exp(loss), the predictions counted and the sentences. A classifier
 * head evaluates as a classifier.
 */
export function evaluate(m, model, examples, loss) {
  if (m.info.head === 1) return classifier.evaluate(m, model, examples, loss);
  let nll = 0,
    tokens = 0;
  for (const p of examples) {
    const { logProbs } = model.run(p?.src ?? p);
    nll -= logProbs.reduce((a, b) => a + b, 0);
    tokens += logProbs.length;
  }
  const mean = nll / Math.max(tokens, 1);
  return { loss: mean, perplexity: Math.exp(mean), tokens, count: examples.length };
}
