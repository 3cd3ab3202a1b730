// i18n/names.js: names the page shows beside its strings: the attention mechanisms' (both
// languages), and in Chinese the model cards' measures and architecture fields and the library's
// error kinds.
//
// Holds: the tables. Deliberately holds no lookup: i18n.js's mechanismName, metricName, archName
// and errorDetail read them.

/** Mechanism names (shown beside the equations). */
export const MECHANISM_NAMES = Object.freeze({
  en: {
    additive: 'additive (Bahdanau et al. 2015)',
    dot: 'dot (Luong et al. 2015)',
    general: 'general (Luong et al. 2015)',
    concat: 'concat (Luong et al. 2015)',
    'local-m': 'local-m (Luong et al. 2015)',
    'local-p': 'local-p (Luong et al. 2015)',
    'key-query': 'key-query',
    none: 'none',
  },
  zh: {
    additive: '加性（Bahdanau 等 2015）',
    dot: '点积（Luong 等 2015）',
    general: '一般（Luong 等 2015）',
    concat: '拼接（Luong 等 2015）',
    'local-m': '局部-m（Luong 等 2015）',
    'local-p': '局部-p（Luong 等 2015）',
    'key-query': '键-查询',
    none: '无',
  },
});

/** The model cards' held-out measures in Chinese, by card key (model-card.js metricLabel gives
 * the English from the key itself; a key not listed here shows that English label). */
export const METRIC_NAMES_ZH = Object.freeze({
  accuracy: '准确率',
  count: '样本数',
  loss: '损失',
  exactMatch: '完全匹配率',
  tokenAccuracy: '词元准确率',
  'named.count': '命名格式样本数',
  'named.exactMatch': '命名格式完全匹配率',
  'variations.count': '变体样本数',
  'variations.exactMatch': '变体完全匹配率',
  'variations.tokenAccuracy': '变体词元准确率',
  bleu: 'BLEU-4',
  'alignment.aer': '对齐错误率（AER）',
  'alignment.mass': '标准对齐上的注意力质量',
  brownPerplexity: 'Brown 语料困惑度',
  brownWordPerplexity: 'Brown 语料词级困惑度（未知词记作其类中的一个词）',
  'brownAgreement.accuracy': 'Brown 主谓一致准确率',
  'brownAgreement.count': 'Brown 主谓一致句对数',
  'naturalPairs.accuracy': '手写句对准确率',
  'naturalPairs.count': '手写句对数',
  'choosingPairs.accuracy': '选型用手写句对准确率',
  'choosingPairs.count': '选型用手写句对数',
  'agreement.accuracy': '主谓一致准确率',
  'agreement.count': '主谓一致句对数',
  decisiveShare: '决定性注意力占比',
  uniformShare: '均匀注意力占比',
  penalty: '冗余惩罚',
  repeatedHalf: '重复部分准确率',
  firstHalf: '前半部分准确率',
  // the rest of the shipped cards' measures (tests/js/web-model-card.test.js: every one has a name)
  decisiveWordShare: '词级决定性注意力占比',
  decisiveSentenceShare: '句级决定性注意力占比',
  uniformWordShare: '词级均匀注意力占比',
  uniformSentenceShare: '句级均匀注意力占比',
  decisiveShareBestHop: '最佳注意力跳的决定性占比',
  'brownAgreement.attractors0': 'Brown 主谓一致准确率（无干扰名词）',
  'brownAgreement.attractors0Count': 'Brown 句对数（无干扰名词）',
  'brownAgreement.attractors1': 'Brown 主谓一致准确率（1 个干扰名词）',
  'brownAgreement.attractors1Count': 'Brown 句对数（1 个干扰名词）',
  'brownAgreement.attractors2plus': 'Brown 主谓一致准确率（2 个及以上干扰名词）',
  'brownAgreement.attractors2plusCount': 'Brown 句对数（2 个及以上干扰名词）',
  'widenedAgreement.accuracy': '扩展语法主谓一致准确率',
  'widenedAgreement.count': '扩展语法句对数',
  'deeperAgreement.accuracy': '深层嵌套主谓一致准确率',
  'deeperAgreement.count': '深层嵌套句对数',
  'lstm.brownPerplexity': 'LSTM 基线 Brown 语料困惑度',
  'lstm.brownAgreement': 'LSTM 基线 Brown 主谓一致准确率',
  'lstm.attractors1': 'LSTM 基线准确率（1 个干扰名词）',
  'lstm.attractors2plus': 'LSTM 基线准确率（2 个及以上干扰名词）',
  'lstm.naturalPairs': 'LSTM 基线手写句对准确率',
  'lstm.choosingPairs': 'LSTM 基线选型用手写句对准确率',
  perLength: '每个长度的样本数',
  'worstLength.length': '最差长度',
  'worstLength.tokenAccuracy': '最差长度的词元准确率',
  repeatedCount: '重复部分词元数',
  firstCount: '前半部分词元数',
  'inductionHead.layer': '归纳头所在层',
  'inductionHead.head': '归纳头编号',
  'inductionHead.induction': '归纳头得分',
});

/** The model cards' architecture fields in Chinese (model-card.js shows the card's own key in
 * English, and the value: a string value is a config identifier, shown as code in both languages;
 * a boolean shows the name for true or, under '!key', for false). */
export const ARCH_NAMES_ZH = Object.freeze({
  bidirectional: '双向',
  '!bidirectional': '单向',
  numLayers: '层数',
  embeddingSize: '嵌入维度',
  hiddenSize: '隐藏维度',
  attentionSize: '注意力维度',
  numHeads: '头数',
  feedforwardSize: '前馈维度',
  hops: '注意力跳数',
});

/** What each attnlab status code (AttnlabError.code, wasm/core.js) is, for a Chinese reader. */
export const ERROR_KINDS_ZH = Object.freeze({
  AL_ERR_ARGUMENT: '参数无效',
  AL_ERR_SHAPE: '张量形状不符',
  AL_ERR_RANGE: '数值超出范围',
  AL_ERR_NONFINITE: '含有非有限数值（NaN 或无穷大）',
  AL_ERR_NOMEM: '内存不足',
  AL_ERR_FORMAT: '文件格式不对',
  AL_ERR_UNSUPPORTED: '不支持此功能',
  AL_ERR_OVERFLOW: '数值溢出',
});
