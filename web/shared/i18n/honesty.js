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
      'Unsure: the confidence is below {threshold}. On typed reviews about half of such answers were wrong: a coin flip.',
    'confidence.manyUnknown':
      'Much of this input is unknown to the model: {share} of its words. It reads each unknown word as the same placeholder, so this answer rests on the few words it knows.',
    'input.corrected':
      'Not in the model’s vocabulary as typed, read as the nearest word it knows (its spelling step): {pairs}',
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
    'measured.cost.warming':
      'Warming both models up (not timed), then timing each length {runs} times…',
    'measured.cost.running': 'Measuring: round {done} of {total}…',
    'measured.cost.method':
      'Measured in this browser just now, after a warm-up: each length timed {runs} times (each time a batch of runs at least {ms} ms long). The table gives the median and, after it, the middle half of the {runs} times (first to third quartile).',
    'measured.cost.whiskers': '(bars: the middle half of {runs} times)',
    'measured.cost.clear':
      'The spread is small enough to conclude: with attention, the time per token at m = {long} ({longQ1}–{longQ3} µs) lies above the whole middle half at m = {short} ({shortQ1}–{shortQ3} µs).',
    'measured.cost.noisy':
      'The spread is too large to conclude anything: at m = {m} the middle half of the {model} times spans {pct} % of their median (the limit is {max} %). Something else is using the processor: close other tabs and programs, then press “Measure again”.',
    'measured.cost.overlap':
      'The spread is too large to conclude anything: with attention, the times per token at m = {short} ({shortQ1}–{shortQ3} µs) and at m = {long} ({longQ1}–{longQ3} µs) overlap. Close other tabs and programs, then press “Measure again”.',
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
      '不确定：置信度低于 {threshold}。在手写评论上，这样的回答大约一半是错的，和抛硬币一样。',
    'confidence.manyUnknown':
      '这段输入里有 {share} 的词模型不认识。它把每个不认识的词都读成同一个占位符，所以这个回答只依据它认识的少数几个词。',
    'input.corrected': '词表中没有这样拼写的词，模型按拼写校正读作它认识的最接近的词：{pairs}',
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
    'measured.cost.warming': '正在预热两个模型（不计时），之后每个长度计时 {runs} 次……',
    'measured.cost.running': '正在测量：第 {done} 轮，共 {total} 轮……',
    'measured.cost.method':
      '刚刚在这个浏览器里测得，先经过预热：每个长度计时 {runs} 次（每次是一批至少持续 {ms} 毫秒的运行）。表中给出中位数，其后是这 {runs} 次计时的中间一半（第一到第三四分位数）。',
    'measured.cost.whiskers': '（竖线：{runs} 次计时的中间一半）',
    'measured.cost.clear':
      '波动足够小，可以下结论：有注意力时，m = {long} 时每个词元的时间（{longQ1}–{longQ3} 微秒）整个高于 m = {short} 时的中间一半（{shortQ1}–{shortQ3} 微秒）。',
    'measured.cost.noisy':
      '波动太大，无法得出任何结论：在 m = {m} 时，{model}模型计时的中间一半跨度达到其中位数的 {pct}%（上限为 {max}%）。有别的程序在占用处理器：请关闭其他标签页和程序，然后点击“重新测量”。',
    'measured.cost.overlap':
      '波动太大，无法得出任何结论：有注意力时，m = {short}（{shortQ1}–{shortQ3} 微秒）与 m = {long}（{longQ1}–{longQ3} 微秒）时每个词元的时间相互重叠。请关闭其他标签页和程序，然后点击“重新测量”。',
    // ---- measured: the lab
  },
};
