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
    'confidence.value': 'confidence {value}',
    'confidence.about':
      'Confidence is the top class probability, calibrated: the model file divides its scores by a temperature T = {T} before the softmax, fitted on typed reviews, where of the answers given with confidence 0.8 about 8 in 10 are right. On reviews like its training data it is right more often than it says.',
    'confidence.aboutRaw':
      'Confidence is the top class probability. This model file has no calibration temperature, so a high value does not promise a right answer.',
    'confidence.unsure': 'unsure',
    'confidence.unsureWhy':
      'Unsure: the confidence is below {threshold}. On typed reviews about 4 in 10 such answers were wrong, nearly a coin flip.',
    'confidence.manyUnknown':
      'Much of this input is unknown to the model: {share} of its words. It reads each unknown word as the same placeholder, so this answer rests on the few words it knows.',
    // ---- warnings: translations and dates (per-token probabilities)
    // ---- measured: lesson step 5 (cost)
    // ---- measured: the lab
  },
  zh: {
    // ---- confidence: classifiers (pooling view)
    'confidence.value': '置信度 {value}',
    'confidence.about':
      '置信度是最高的类别概率，并且经过校准：模型文件在 softmax 之前把分数除以温度 T = {T}。这个温度是在手写评论上拟合的：在这类评论上，置信度为 0.8 的回答大约十个里有八个是对的。对于和训练数据相似的评论，它实际答对的比例比它说的更高。',
    'confidence.aboutRaw':
      '置信度是最高的类别概率。这个模型文件没有校准温度，所以数值高并不保证回答正确。',
    'confidence.unsure': '不确定',
    'confidence.unsureWhy':
      '不确定：置信度低于 {threshold}。在手写评论上，这样的回答大约十个里有四个是错的，几乎和抛硬币一样。',
    'confidence.manyUnknown':
      '这段输入里有 {share} 的词模型不认识。它把每个不认识的词都读成同一个占位符，所以这个回答只依据它认识的少数几个词。',
    // ---- warnings: translations and dates (per-token probabilities)
    // ---- measured: lesson step 5 (cost)
    // ---- measured: the lab
  },
};
