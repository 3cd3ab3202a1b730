// i18n/honesty.js: the strings by which a model says how sure it is and a page says only what it
// measured (issue 30), in English and Chinese: a classifier's calibrated confidence and its
// "unsure" and unknown-words notes; the per-token probabilities and "may be wrong" warnings of
// translations and dates; lesson step 5's measurement notes; the lab's data and run warnings.
//
// Holds: { en, zh } tables of those keys, which i18n.js merges into its own: t() finds them like
// any other. One section per area, in the same order in both languages. Deliberately holds no
// lookup (i18n.js) and no other area's strings.

export const HONESTY = {
  en: {
    // ---- confidence: classifiers (pooling view)
    // ---- warnings: translations and dates (per-token probabilities)
    // ---- measured: lesson step 5 (cost)
    // ---- measured: the lab
  },
  zh: {
    // ---- confidence: classifiers (pooling view)
    // ---- warnings: translations and dates (per-token probabilities)
    // ---- measured: lesson step 5 (cost)
    // ---- measured: the lab
  },
};
