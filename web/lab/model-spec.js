// attnlab/web/lab/model-spec.js: what a (checked) ModelSpec of the lab becomes: the createModel
// config on a task (docs/models.md), its exact parameter count, and the equation of its attention.
// ESM, no DOM.
//
//   const config = modelConfig(experiment.a.model, makeTask(experiment.task));
//   const n = parameterCount(experiment.a.model, task);      // equals the trainer's count
//   const { html, cite } = attentionEquation(experiment.a.model);
//
// Equations: Bahdanau, Cho & Bengio 2015 (eq. 6 and appendix A.1.2), Luong, Pham & Manning 2015
// (eqs. 8–10), Vaswani et al. 2017 (eq. 1), Shaw, Uszkoreit & Vaswani 2018 (eqs. 3–4).
// Not here: checking the spec (experiment.js), drawing or i18n (the equation HTML holds symbols
// only, no words, so both languages show it as is).

import { CONFIG_LIMITS } from '../../wasm/config-limits.js';
import { panelEquations } from '../shared/explain.js';
import { markupHtml } from '../shared/notation.js';

/** @typedef {import('./experiment.js').ModelSpec} ModelSpec */

/** The attention width da (additive, concat), dp (local-p) and dk = dv (key-query) for H. */
export const attentionSizeFor = (hidden) => hidden;
/** The local window D (σ = D/2) for a source of up to maxSource tokens: Luong's D = 10, smaller for short inputs. */
export const windowFor = (maxSource) => Math.max(2, Math.min(10, Math.ceil(maxSource / 4)));
/** The clipping distance k of relative positions: Shaw et al.'s 16, at most the longest sequence. */
export const relativeFor = (positions) => Math.max(2, Math.min(16, positions));

/** Positions an encoder-decoder transformer must cover: the source, and bos + the target (+ eos). */
const positionsFor = (task) => Math.max(task.maxSource, task.maxTarget + 2);

/**
 * The createModel config of a (checked) ModelSpec on a task (docs/models.md).
 * @param {ModelSpec} m
 * @param {{ tokenizer: Record<string, any>, maxSource: number, maxTarget: number }} task
 */
export function modelConfig(m, task) {
  // bos + the target + eos, within the library's cap (CONFIG_LIMITS: one per architecture)
  const maxLength = Math.min(CONFIG_LIMITS[m.family].maxLength, task.maxTarget + 2);
  if (m.family === 'transformer') {
    const positions = positionsFor(task);
    const config = {
      architecture: 'transformer',
      variant: 'encoder-decoder',
      embeddingSize: m.width,
      numHeads: m.heads,
      feedforwardSize: m.feedforward,
      numLayers: m.layers,
      positions: m.positions,
      normFirst: true,
      finalNorm: true,
      maxLength,
      tokenizer: task.tokenizer,
    };
    if (m.positions === 'learned') config.maxPositions = positions;
    if (m.positions === 'relative') config.maxRelativePosition = relativeFor(positions);
    return config;
  }
  const config = {
    architecture: 'seq2seq',
    cell: m.cell,
    embeddingSize: m.embedding,
    hiddenSize: m.hidden,
    numLayers: m.layers,
    bidirectional: m.bidirectional,
    attention: m.attention,
    style: m.style,
    maxLength,
    tokenizer: task.tokenizer,
  };
  const a = m.attention;
  if (a === 'additive' || a === 'concat') config.attentionSize = attentionSizeFor(m.hidden);
  if (a === 'local-m' || a === 'local-p') {
    config.window = windowFor(task.maxSource);
    config.score = 'general';
  }
  if (a === 'local-p') config.positionSize = attentionSizeFor(m.hidden);
  if (a === 'key-query') {
    config.keySize = attentionSizeFor(m.hidden);
    config.valueSize = attentionSizeFor(m.hidden);
  }
  if (m.style === 'luong' && a !== 'none') config.inputFeeding = true;
  return config;
}

/**
 * The number of weights of createModel(modelConfig(m, task)), in closed form (docs/models.md's
 * tensor tables); the tests check it against the saved file of real models.
 * @param {ModelSpec} m
 * @param {{ tokenizer: Record<string, any>, maxSource: number, maxTarget: number }} task
 */
export function parameterCount(m, task) {
  const c = modelConfig(m, task);
  const Vs = task.tokenizer.srcVocab.length,
    Vt = task.tokenizer.tgtVocab.length;
  if (c.architecture === 'transformer') {
    const E = c.embeddingSize,
      F = c.feedforwardSize,
      N = c.numLayers,
      h = c.numHeads;
    const attn = 3 * E * E + 3 * E + E * E + E; // in_proj, out_proj
    const ff = F * E + F + E * F + E; // linear1, linear2
    const rel = c.positions === 'relative' ? 2 * (2 * c.maxRelativePosition + 1) * (E / h) : 0;
    const enc = N * (attn + rel + ff + 4 * E); // norm1, norm2
    const dec = N * (2 * attn + rel + ff + 6 * E); // self + cross, norm1..3
    const norms = c.finalNorm ? 4 * E : 0;
    const pos = c.positions === 'learned' ? c.maxPositions * E : 0;
    return Vs * E + Vt * E + pos + enc + dec + norms + Vt * E + Vt;
  }
  const G = { lstm: 4, gru: 3, rnn: 1 }[c.cell];
  const H = c.hiddenSize,
    E = c.embeddingSize,
    dirs = c.bidirectional ? 2 : 1,
    Hs = H / dirs;
  let n = Vs * E + Vt * E;
  for (let k = 0; k < c.numLayers; k++) {
    const input = k === 0 ? E : H;
    n += dirs * (G * Hs * input + G * Hs * Hs + 2 * G * Hs);
  }
  const a = c.attention;
  const dc = a === 'none' ? 0 : a === 'key-query' ? c.valueSize : H;
  const luong = c.style === 'luong';
  const decIn = luong ? E + (c.inputFeeding ? H : 0) : E + dc;
  n += G * H * decIn + G * H * H + 2 * G * H;
  const score = a === 'local-m' || a === 'local-p' ? c.score : a;
  if (a === 'additive') n += 2 * c.attentionSize * H + 2 * c.attentionSize;
  if (score === 'general') n += H * H;
  if (score === 'concat') n += c.attentionSize * 2 * H + c.attentionSize;
  if (a === 'local-p') n += c.positionSize * H + c.positionSize;
  if (a === 'key-query') n += 2 * c.keySize * H + c.valueSize * H;
  if (luong && a !== 'none') n += H * (dc + H);
  n += Vt * (luong ? H : H + dc) + Vt;
  return n;
}

// ---------------------------------------------------------------- the equations

/**
 * The score / attention equation of a ModelSpec's attention as small HTML (<var>, <sub>, <sup>;
 * symbols only, so it needs no translation) and its source: the lesson's and the alignment
 * view's equations (explain.js, docs/notation.md), with the query the style reads.
 * @param {ModelSpec} m
 * @returns {{ html: string, cite: string }}
 */
export function attentionEquation(m) {
  if (m.family === 'transformer') {
    if (m.positions === 'relative')
      return {
        html: markupHtml(
          'e_{ij} = x_i W_Q (x_j W_K + a^K_{ij})^T / √d_k;   z_i = Σ_j α_{ij} (x_j W_V + a^V_{ij})',
        ),
        cite: 'Shaw et al. 2018, eqs. 3–4',
      };
    return {
      html: markupHtml('Attention(Q, K, V) = softmax(Q K^T / √d_k) V'),
      cite: 'Vaswani et al. 2017, eq. 1',
    };
  }
  const eqs = panelEquations({ attention: m.attention, style: m.style, score: m.score });
  const local = m.attention === 'local-m' || m.attention === 'local-p';
  const cite = {
    none: 'Sutskever et al. 2014',
    additive: 'Bahdanau et al. 2015, eq. 6',
    'local-m': 'Luong et al. 2015, eqs. 9–10',
    'local-p': 'Luong et al. 2015, eqs. 9–10',
    'key-query': 'Vaswani et al. 2017, eq. 1',
  }[m.attention];
  return {
    html: markupHtml(local ? `${eqs[0]};   ${eqs[2]}` : eqs[0]),
    cite: cite ?? 'Luong et al. 2015, eq. 8',
  };
}
