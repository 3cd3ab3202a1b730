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
    'warn.title': 'This output may be wrong.',
    'warn.unknown': 'The model does not know {words}: it reads them as {unk}.',
    'warn.weak':
      'The model gave “{token}” a probability of only {p}; this model warns under {threshold}, a threshold chosen on held-out data.',
    'warn.weakEnd':
      'The model gave the end of the output a probability of only {p}; this model warns under {threshold}, a threshold chosen on held-out data.',
    'warn.outside':
      'Outside what it learned, a model still answers fluently: check the output before you trust it.',
    'warn.tokenTitle': '{token}: p = {p}',
    'warn.rowProb': 'p(“{token}”), the output token’s probability',
    'warn.legend': 'Shading: how unsure the model was of each output token (hover for p).',
    'warn.legendThreshold': 'Dotted underline: under this model’s threshold, {threshold}.',
    'warn.legendNoThreshold':
      'This model has no threshold chosen on held-out data: only unknown words warn.',
    // ---- measured: lesson step 5 (cost)
    // ---- measured: the lab
  },
  zh: {
    // ---- confidence: classifiers (pooling view)
    // ---- warnings: translations and dates (per-token probabilities)
    'warn.title': '这个输出可能是错的。',
    'warn.unknown': '模型不认识 {words}：它把它们当作 {unk} 读。',
    'warn.weak':
      '模型给“{token}”的概率只有 {p}；这个模型在低于 {threshold} 时提醒，该阈值是在留出数据上选定的。',
    'warn.weakEnd':
      '模型给输出结尾的概率只有 {p}；这个模型在低于 {threshold} 时提醒，该阈值是在留出数据上选定的。',
    'warn.outside': '在学过的范围之外，模型照样答得很流畅：请先核对输出，再相信它。',
    'warn.tokenTitle': '{token}：概率 p = {p}',
    'warn.rowProb': 'p（“{token}”），该输出词元的概率',
    'warn.legend': '底色：模型对每个输出词元有多不确定（悬停可见 p）。',
    'warn.legendThreshold': '点状下划线：低于这个模型的阈值 {threshold}。',
    'warn.legendNoThreshold': '这个模型没有在留出数据上选定的阈值：只有不认识的词会触发提醒。',
    // ---- measured: lesson step 5 (cost)
    // ---- measured: the lab
  },
};
