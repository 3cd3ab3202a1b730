// web/shared/confidence.js: when a classifier's answer is shown as unsure, and when its input is
// called mostly unknown to the model (issue 30; docs/models.md "Calibration"). The classifiers'
// probabilities are calibrated (a temperature in the model file, fitted on
// tests/fixtures/reviews-calibration.json by scripts/train/reviews.mjs), so the top probability
// reads as a chance of being right; these thresholds turn it into the page's plain words.
//
//   UNSURE_BELOW   0.7: on the calibration set, about 4 in 10 of the answers under 0.7 were
//                  wrong (nearly a coin flip), against about 1 in 5 above (each card's
//                  calibration.unsure). Chosen as the highest of 0.55, 0.6, ..., 0.95 at which
//                  the three review classifiers' answers below it, pooled, are wrong at least
//                  40% of the time.
//   MANY_UNKNOWN   1/3: at least a third of the input's words (Model.classify's unknownShare)
//                  are not in the vocabulary; the model reads each as the same <unk>.
//
// Deliberately not here: the strings (i18n/honesty.js), drawing (views/pooling-view.js).

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
