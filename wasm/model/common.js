// attnlab/wasm/model/common.js: what every architecture module shares: the C limits (from
// limits.js), turning
// a model call's status into an AttnlabError, and the checked source ids of one call.
// Nothing here knows an architecture.

import { AttnlabError, idsFrom, inVocab, readCString, show, statusName } from '../core.js';

import { ERR_CAP, MAX_BEAM, MAX_SOURCE, MAX_STEPS } from '../limits.js'; // the one copy of the C limits

export { ERR_CAP, MAX_BEAM, MAX_SOURCE, MAX_STEPS };

export const leaks =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((what) => {
        console.warn(
          `attnlab: ${what} was garbage-collected without dispose(); its wasm memory is leaked. Call dispose() (or use \`using\`).`,
        );
      })
    : null;

export function statusError(x, status, context) {
  // AL_ERR_NONFINITE from a model call: the inputs were ids, so the model's own arithmetic
  // overflowed float32 (finite but huge weights); docs/reliability.md, "results policy"
  const why =
    status === 4
      ? ' (the model produced NaN or infinite values: its weights are too large for float32 arithmetic)'
      : '';
  return new AttnlabError(
    `${context}: ${readCString(x, x.al_status_string(status))}${why}`,
    statusName(status),
  );
}

/** Source text or ids -> the Int32Array of source ids of one call, checked against C's vocabulary. */
export function sourceIds(m, input, what) {
  const ids =
    typeof input === 'string'
      ? inVocab(m.tokenizer.encode(input), m.info.srcVocab, `Model.${what}`)
      : idsFrom(input, m.info.srcVocab, `Model.${what}: input`, Infinity);
  if (ids.length < 1)
    throw new AttnlabError(`Model.${what}: the input is empty (no tokens)`, 'AL_ERR_SHAPE');
  if (ids.length > MAX_SOURCE)
    throw new AttnlabError(
      `Model.${what}: ${ids.length} input tokens; the limit is ${MAX_SOURCE}`,
      'AL_ERR_SHAPE',
    );
  return ids;
}

/** options.maxLength (a snapshot) or the model's default, checked. */
export function maxLengthOf(m, options, what) {
  const n = options.maxLength ?? m.info.maxLength;
  if (!Number.isInteger(n) || n < 1 || n > MAX_STEPS) {
    throw new AttnlabError(
      `Model.${what}: maxLength ${show(n)} must be an integer in [1, ${MAX_STEPS}]`,
      'AL_ERR_SHAPE',
    );
  }
  return n;
}

/** Training examples' ids: text through the tokenizer (source or target side) or ids checked
 * against C's vocabulary. */
export function exampleIds(m, v, target, what) {
  const V = target ? m.info.tgtVocab : m.info.srcVocab;
  if (typeof v === 'string')
    return inVocab(target ? m.tokenizer.encodeTarget(v) : m.tokenizer.encode(v), V, what);
  return idsFrom(v, V, what, Infinity);
}

/** A label (one of m.labels, or its index) -> its index. */
export function labelId(m, label, what) {
  const labels = m.labels;
  const C = labels.length;
  if (typeof label === 'string') {
    const i = labels.indexOf(label);
    if (i < 0)
      throw new AttnlabError(
        `${what} "${label}" is not one of the model's labels (${labels.join(', ')})`,
        'AL_ERR_RANGE',
      );
    return i;
  }
  if (!Number.isInteger(label) || label < 0 || label >= C)
    throw new AttnlabError(
      `${what} = ${show(label)} must be one of the model's labels or an index in [0, ${C})`,
      'AL_ERR_RANGE',
    );
  return label;
}

/**
 * Each output token's probability and the weakest (issue 30, docs/models.md "Per-token
 * probabilities"): probs[t] = exp(logProbs[t]), a Float32Array; minProb their minimum (1 for an
 * output without tokens, the empty product). The result's other fields are untouched.
 * @param {ArrayLike<number>} logProbs
 */
export function tokenProbs(logProbs) {
  const probs = Float32Array.from(logProbs, (l) => Math.exp(l));
  let minProb = 1;
  for (const p of probs) if (p < minProb) minProb = p;
  return { probs, minProb };
}
