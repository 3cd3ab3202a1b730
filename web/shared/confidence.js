// confidence.js: every rule by which the page (and anyone with the npm package and a model card)
// calls a model's answer unsure or possibly wrong (issue 30), in one place:
//
// Classifiers (docs/models.md "Calibration"). Their probabilities are calibrated (a temperature
// in the model file, fitted on tests/fixtures/reviews-calibration.json by
// scripts/train/reviews.mjs), so the top probability reads as a chance of being right:
//   UNSURE_BELOW   0.7: on the calibration set, 55–56% of the answers under 0.7 were wrong
//                  (a coin flip), against 15–19% above; on the unseen typed test set 40–56%
//                  against 20–22% (each card's calibration.unsure). Chosen as the highest of 0.55, 0.6, ..., 0.95 at which
//                  the three review classifiers' answers below it, pooled, are wrong at least
//                  40% of the time.
//   MANY_UNKNOWN   1/3: at least a third of the input's words (Model.classify's unknownShare)
//                  are not in the vocabulary; the model reads each as the same <unk>.
//
// Translations and dates (docs/translation.md "When the page says may be wrong"): an output
// "may be wrong" when the input has a word (or, for a character model, a character) the model
// does not know, or the weakest output token's probability is under the model's threshold,
// chosen on held-out data and stored in its card (web/models/<name>.json "confidence", written
// by scripts/token-thresholds.mjs).
//
//   confidenceOf(clf.classify(text));                     // { confidence, unsure, manyUnknown }
//   const r = model.run(input);                           // r.probs, r.minProb (docs/models.md)
//   const v = mayBeWrong({ unknown: model.tokenizer.unknownWords(input), minProb: r.minProb },
//                        card.confidence.threshold);
//   v.warn; v.unknown; v.weak;                            // true, ['station'], true
//   shade(0.42, 0.8)                                      // { amount: 0.58, below: true }
//
// Holds: the rules, the card's threshold read with its checks, and how strongly a token is
// shaded. Deliberately holds no DOM, no strings (i18n/honesty.js) and no model call, so the
// scripts that choose the thresholds and the Node tests run the very rules the page runs.

/** The top probability under which a classifier's answer is shown as "unsure". */
export const UNSURE_BELOW = 0.7;

/** The unknownShare from which the page says much of the input is unknown to the model. */
export const MANY_UNKNOWN = 1 / 3;

/** What the page says of a classify result: { unsure, manyUnknown, confidence }. */
export function confidenceOf(result) {
  const confidence = result.probs[result.labelId];
  return {
    confidence,
    unsure: confidence < UNSURE_BELOW,
    manyUnknown: (result.unknownShare ?? 0) >= MANY_UNKNOWN,
  };
}

/**
 * The verdict on one output. unknown: the input's tokens the model reads as unk (a word-level
 * tokenizer's words, a character tokenizer's characters); minProb: the run's weakest token
 * probability; threshold: the model's (null or undefined: no threshold known, only unknown
 * tokens warn).
 * @param {{ unknown?: string[] | null, minProb?: number | null }} run
 * @param {number | null | undefined} threshold
 * @returns {{ warn: boolean, unknown: string[], weak: boolean }}
 */
export function mayBeWrong({ unknown, minProb }, threshold) {
  const words = Array.isArray(unknown) ? unknown : [];
  const weak =
    typeof threshold === 'number' &&
    Number.isFinite(threshold) &&
    typeof minProb === 'number' &&
    minProb < threshold;
  return { warn: words.length > 0 || weak, unknown: words, weak };
}

/**
 * A card's threshold (card.confidence.threshold, in (0, 1)), or null when the card has none or a
 * malformed one. card: the parsed JSON of web/models/<name>.json.
 * @param {unknown} card
 * @returns {number | null}
 */
export function cardThreshold(card) {
  const c = /** @type {any} */ (card)?.confidence;
  const v = c && typeof c === 'object' ? c.threshold : undefined;
  return typeof v === 'number' && v > 0 && v < 1 ? v : null;
}

/**
 * How a token of probability p is drawn: amount = 1 − p (0: sure, no shade; the background's
 * opacity and the underline's weight follow it), below: p under the threshold (drawn with a
 * dotted underline too, so the mark does not rest on colour alone).
 * @param {number} p @param {number | null | undefined} threshold
 */
export function shade(p, threshold) {
  const amount = Number.isFinite(p) ? Math.min(1, Math.max(0, 1 - p)) : 0;
  return { amount, below: typeof threshold === 'number' && p < threshold };
}
