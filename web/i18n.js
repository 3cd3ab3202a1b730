// i18n.js: every interface string of the model views, in English and Chinese.
//
//   import { t, resolveLang } from './i18n.js';
//   t('zh', 'view.alignment')                      // '对齐'
//   t('en', 'status.ran', { ms: '1.2' })           // placeholders are {name}
//
// Holds: the string tables and a lookup with {placeholder} substitution. Deliberately holds no
// DOM code: callers put the result in textContent (never innerHTML), so a translated string or a
// substituted value can never become markup. A key missing from a language falls back to English;
// a key missing from English is returned as is (visible, so it gets fixed).

export const LANGUAGES = Object.freeze(['en', 'zh']);
export const DEFAULT_LANG = 'en';

const EN = {
  'lang.name': 'English',
  'lang.label': 'Language',
  'view.label': 'View',
  'view.alignment': 'Alignment',
  'view.time': 'Over time',
  'view.compare': 'Compare',
  'view.playground': 'SDPA playground',
  'view.train': 'Train',
  'train.title': 'Train the dates model in your browser',
  'train.lede':
    'A bidirectional LSTM encoder and an LSTM decoder with additive (Bahdanau) attention learn to turn human dates into ISO dates, from random weights, in a background worker. Watch the loss fall and the alignment form.',
  'train.lr': 'Learning rate (Adam)',
  'train.batch': 'Batch size',
  'train.logScale': 'Log scale for the loss',
  'train.start': 'Start',
  'train.resume': 'Resume',
  'train.pause': 'Pause',
  'train.reset': 'Reset',
  'train.invalidLr': 'Enter a number from {min} to {max}, e.g. 0.003.',
  'train.invalidBatch': 'Enter a whole number from {min} to {max}.',
  'train.invalid': 'Not a valid value.',
  'train.step': 'Step',
  'train.loss': 'Loss (mean of the last {n} steps)',
  'train.elapsed': 'Training time',
  'train.rate': '{rate} steps/s',
  'train.exact': 'Held-out exact match ({count} dates never trained on)',
  'train.output': 'Output for “{example}”',
  'train.expected': 'expected {target}',
  'train.chart': 'Loss per step and held-out exact match',
  'train.chartAlt': 'Loss chart: step {step}, loss {loss}, held-out exact match {exact}.',
  'train.chartEmpty': 'Press Start to train.',
  'train.axisStep': 'step',
  'train.axisLoss': 'loss',
  'train.axisExact': 'held-out exact match',
  'train.heatmap': 'Alignment of “{example}” now: output character (row) × input character (column)',
  'train.loading': 'Starting the training worker…',
  'train.ready': 'Ready: random weights (seed 1). Press Start.',
  'train.running': 'Training in a background worker; the page stays responsive.',
  'train.paused': 'Paused at step {step}.',
  'train.reached': 'Reached {pct} held-out exact match after {seconds} s of training (step {step}).',
  'train.error': 'Training stopped: {message}',
  'train.noWorker': 'This browser cannot run module workers, so training is not available here.',
  'model.label': 'Model',
  'model.untrained': 'untrained test model',
  'model.loading': 'Loading model {name}…',
  'model.missing': 'Model {name} is not available: {url} answered HTTP {status}. It may not be trained yet; pick another model.',
  'model.failed': 'Model {name} could not be loaded: {message}',
  'model.refused': 'The model "{value}" was refused: only the listed models or same-origin .safetensors paths can be loaded.',
  'input.label': 'Input',
  'input.placeholder': 'Type here',
  'input.hint': 'Up to {max} characters. Characters the model does not know become {unk}.',
  'input.empty': 'Type something: the model needs at least one input token.',
  'output.label': 'Output',
  'output.none': '(empty)',
  'heatmap.alignment': 'Alignment: output character (row) × input character (column)',
  'heatmap.time': 'Alignment so far, one row per decoded token',
  'heatmap.diff': 'Difference {a} − {b}',
  'status.wasm': 'Loading the WebAssembly module…',
  'status.simd': 'Running the SIMD128 build of attnlab.',
  'status.scalar': 'Running the scalar build of attnlab: this browser has no WebAssembly SIMD128, so it is slower.',
  'status.ran': '{rows} output × {cols} input tokens in {ms} ms.',
  'error.wasm': 'Could not start the attnlab WebAssembly module: {message}',
  'error.run': 'The model could not run this input: {message}',
  'explain.prompt': 'Hover over or focus a cell (arrow keys) to see how its weight was computed.',
  'explain.cell': 'Output {row} “{rowLabel}” attending to input {col} “{colLabel}”',
  'explain.mechanism': 'Mechanism: {name}',
  'explain.score': 'Score eₜⱼ − maxₖ eₜₖ',
  'explain.exp': 'exp(eₜⱼ − max)',
  'explain.sum': 'Σₖ exp(eₜₖ − max)',
  'explain.softmax': 'softmax',
  'explain.gauss': 'Gaussian exp(−(j − pₜ)² / 2σ²)',
  'explain.weight': 'Weight αₜⱼ',
  'explain.rank': 'Rank in row',
  'explain.rowSum': 'Row sum Σⱼ αₜⱼ',
  'explain.position': 'Predicted position pₜ',
  'explain.window': 'Window pₜ ± D',
  'explain.outside': 'outside the window: the weight is 0 by construction',
  'explain.underflow': '−∞ (the weight underflowed to 0)',
  'explain.none': 'This model has no attention: every weight is 0 and the decoder sees only its own state.',
  'explain.honest':
    'attnlab returns the weights, not the scores. Softmax ignores a constant added to every score, so the score is shown relative to the row\'s largest: eₜⱼ − maxₖ eₜₖ = ln αₜⱼ − ln maxₖ αₜₖ (exact up to float32 rounding). The raw scores would need the decoder state, which the API does not expose.',
  'explain.honestLocal':
    'For local attention the softmax is taken inside the window and then multiplied by the Gaussian, so softmax = αₜⱼ / Gaussian and the score is recovered from that.',
  'time.play': 'Play',
  'time.pause': 'Pause',
  'time.step': 'Step',
  'time.reset': 'Reset',
  'time.progress': 'Step {step}: emitted “{token}”.',
  'time.done': 'Done after {steps} steps.',
  'time.ready': 'Press Play or Step to decode one token at a time.',
  'time.window': 'Outlined: the predicted window pₜ ± D = {p} ± {d}.',
  'compare.intro': 'The same input through every model. The difference map shows A − B (red: A attends more, blue: B attends more).',
  'compare.a': 'Model A',
  'compare.b': 'Model B',
  'compare.forced': 'B is teacher-forced on A’s output, so both rows mean the same output token.',
  'compare.prefix': 'The two models have different vocabularies: only the first {rows} output steps are compared.',
  'compare.skipped': 'Not shown (unavailable): {names}.',
  'link.label': 'Link to this view',
  'link.embed': 'Embed this view',
  'legend.diverging': 'red: A higher · white: equal · blue: B higher',
  'export.group': 'Export',
  'heatmap.download': 'Download as {kind}',
  'heatmap.noData': '{label}: no data.',
  'heatmap.summary': '{label}: {rows} rows by {cols} columns, colour scale from {min} to {max}.',
  'heatmap.keys': 'Arrow keys move between cells; Home and End go to the ends of a row, Page Up and Page Down move 10 rows.',
  'heatmap.downloads': 'The values are available from the CSV and JSON downloads.',
  'page.tagline': 'Attention kernels in C, compiled to WebAssembly SIMD128, with the weights you can look at.',
  'page.modelsTitle': 'A sequence-to-sequence model’s attention, live',
  'page.modelsLede':
    'Type an input: the model runs in your browser on every keystroke, and the heatmap shows how much each output character (row) attended to each input character (column).',
  'page.sdpaTitle': 'Scaled dot-product attention playground',
  'page.footer': 'Runs entirely in your browser; nothing is sent anywhere. Embed the views with web/embed.js or web/embed.html.',
};

const ZH = {
  'lang.name': '中文',
  'lang.label': '语言',
  'view.label': '视图',
  'view.alignment': '对齐',
  'view.time': '逐步解码',
  'view.compare': '比较',
  'view.playground': 'SDPA 演练场',
  'view.train': '训练',
  'train.title': '在浏览器中训练日期模型',
  'train.lede':
    '双向 LSTM 编码器和带加性（Bahdanau）注意力的 LSTM 解码器，从随机权重开始，在后台 Worker 中学习把各种写法的日期转换成 ISO 日期。观察损失下降、对齐逐渐成形。',
  'train.lr': '学习率（Adam）',
  'train.batch': '批大小',
  'train.logScale': '损失使用对数刻度',
  'train.start': '开始',
  'train.resume': '继续',
  'train.pause': '暂停',
  'train.reset': '重置',
  'train.invalidLr': '请输入 {min} 到 {max} 之间的数，例如 0.003。',
  'train.invalidBatch': '请输入 {min} 到 {max} 之间的整数。',
  'train.invalid': '无效的值。',
  'train.step': '步数',
  'train.loss': '损失（最近 {n} 步的平均）',
  'train.elapsed': '训练时间',
  'train.rate': '每秒 {rate} 步',
  'train.exact': '留出集完全匹配率（{count} 个从未训练过的日期）',
  'train.output': '“{example}”的输出',
  'train.expected': '应为 {target}',
  'train.chart': '每步损失与留出集完全匹配率',
  'train.chartAlt': '损失图：第 {step} 步，损失 {loss}，留出集完全匹配率 {exact}。',
  'train.chartEmpty': '按“开始”进行训练。',
  'train.axisStep': '步数',
  'train.axisLoss': '损失',
  'train.axisExact': '留出集完全匹配',
  'train.heatmap': '“{example}”当前的对齐：输出字符（行）× 输入字符（列）',
  'train.loading': '正在启动训练 Worker…',
  'train.ready': '就绪：随机权重（种子 1）。按“开始”。',
  'train.running': '正在后台 Worker 中训练；页面保持响应。',
  'train.paused': '已在第 {step} 步暂停。',
  'train.reached': '训练 {seconds} 秒后（第 {step} 步）留出集完全匹配率达到 {pct}。',
  'train.error': '训练已停止：{message}',
  'train.noWorker': '此浏览器无法运行模块 Worker，因此无法在此训练。',
  'model.label': '模型',
  'model.untrained': '未训练的测试模型',
  'model.loading': '正在加载模型 {name}…',
  'model.missing': '模型 {name} 不可用：{url} 返回 HTTP {status}。它可能尚未训练；请选择其他模型。',
  'model.failed': '无法加载模型 {name}：{message}',
  'model.refused': '已拒绝模型“{value}”：只能加载列表中的模型或同源的 .safetensors 路径。',
  'input.label': '输入',
  'input.placeholder': '在此输入',
  'input.hint': '最多 {max} 个字符。模型不认识的字符会变成 {unk}。',
  'input.empty': '请输入内容：模型至少需要一个输入词元。',
  'output.label': '输出',
  'output.none': '（空）',
  'heatmap.alignment': '对齐：输出字符（行）× 输入字符（列）',
  'heatmap.time': '目前的对齐，每个解码词元一行',
  'heatmap.diff': '差值 {a} − {b}',
  'status.wasm': '正在加载 WebAssembly 模块…',
  'status.simd': '正在运行 attnlab 的 SIMD128 版本。',
  'status.scalar': '正在运行 attnlab 的标量版本：此浏览器不支持 WebAssembly SIMD128，因此较慢。',
  'status.ran': '{rows} 个输出 × {cols} 个输入词元，用时 {ms} 毫秒。',
  'error.wasm': '无法启动 attnlab WebAssembly 模块：{message}',
  'error.run': '模型无法处理此输入：{message}',
  'explain.prompt': '将鼠标悬停在单元格上或聚焦单元格（方向键），查看其权重的计算过程。',
  'explain.cell': '输出 {row}“{rowLabel}”关注输入 {col}“{colLabel}”',
  'explain.mechanism': '机制：{name}',
  'explain.score': '得分 eₜⱼ − maxₖ eₜₖ',
  'explain.exp': 'exp(eₜⱼ − max)',
  'explain.sum': 'Σₖ exp(eₜₖ − max)',
  'explain.softmax': 'softmax',
  'explain.gauss': '高斯因子 exp(−(j − pₜ)² / 2σ²)',
  'explain.weight': '权重 αₜⱼ',
  'explain.rank': '行内排名',
  'explain.rowSum': '行和 Σⱼ αₜⱼ',
  'explain.position': '预测位置 pₜ',
  'explain.window': '窗口 pₜ ± D',
  'explain.outside': '在窗口之外：权重按定义为 0',
  'explain.underflow': '−∞（权重下溢为 0）',
  'explain.none': '此模型没有注意力：所有权重为 0，解码器只看自身状态。',
  'explain.honest':
    'attnlab 返回的是权重而不是得分。softmax 对所有得分加同一常数不变，因此得分以该行最大值为基准显示：eₜⱼ − maxₖ eₜₖ = ln αₜⱼ − ln maxₖ αₜₖ（在 float32 舍入误差内精确）。原始得分需要解码器状态，而 API 不提供。',
  'explain.honestLocal': '局部注意力先在窗口内做 softmax，再乘以高斯因子，因此 softmax = αₜⱼ / 高斯因子，得分由此恢复。',
  'time.play': '播放',
  'time.pause': '暂停',
  'time.step': '单步',
  'time.reset': '重置',
  'time.progress': '第 {step} 步：输出“{token}”。',
  'time.done': '共 {steps} 步后结束。',
  'time.ready': '按“播放”或“单步”逐个解码词元。',
  'time.window': '框线：预测窗口 pₜ ± D = {p} ± {d}。',
  'compare.intro': '同一输入经过每个模型。差值图显示 A − B（红：A 关注更多，蓝：B 关注更多）。',
  'compare.a': '模型 A',
  'compare.b': '模型 B',
  'compare.forced': 'B 以教师强制方式按 A 的输出解码，因此两者的每一行对应同一输出词元。',
  'compare.prefix': '两个模型的词表不同：只比较前 {rows} 个输出步。',
  'compare.skipped': '未显示（不可用）：{names}。',
  'link.label': '此视图的链接',
  'link.embed': '嵌入此视图',
  'legend.diverging': '红：A 较高 · 白：相等 · 蓝：B 较高',
  'export.group': '导出',
  'heatmap.download': '下载为 {kind}',
  'heatmap.noData': '{label}：无数据。',
  'heatmap.summary': '{label}：{rows} 行 × {cols} 列，颜色范围从 {min} 到 {max}。',
  'heatmap.keys': '方向键在单元格间移动；Home 和 End 跳到行首和行尾，Page Up 和 Page Down 一次移动 10 行。',
  'heatmap.downloads': '数值可通过 CSV 和 JSON 下载获得。',
  'page.tagline': '用 C 编写、编译为 WebAssembly SIMD128 的注意力内核，权重清晰可见。',
  'page.modelsTitle': '序列到序列模型的注意力，实时呈现',
  'page.modelsLede': '输入文字：每次按键模型都会在浏览器中运行，热图显示每个输出字符（行）对每个输入字符（列）的关注程度。',
  'page.sdpaTitle': '缩放点积注意力演练场',
  'page.footer': '完全在浏览器中运行，不向任何地方发送数据。可用 web/embed.js 或 web/embed.html 嵌入这些视图。',
};

const TABLES = { en: EN, zh: ZH };

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

/** 'en' or 'zh' from any value ('zh-CN' → 'zh'); anything else gives the default. */
export function resolveLang(value) {
  if (typeof value !== 'string') return DEFAULT_LANG;
  const base = value.trim().toLowerCase().split('-')[0];
  return LANGUAGES.includes(base) ? base : DEFAULT_LANG;
}

/** The string for key in lang, with {name} placeholders replaced by String(params[name]). */
export function t(lang, key, params = {}) {
  const table = TABLES[resolveLang(lang)];
  const template = Object.hasOwn(table, key) ? table[key] : Object.hasOwn(EN, key) ? EN[key] : key;
  return template.replace(/\{(\w+)\}/g, (m, name) => (Object.hasOwn(params, name) ? String(params[name]) : m));
}

/** Every key of every language (for the tests: no language may miss one). */
export function keys(lang) {
  return Object.keys(TABLES[resolveLang(lang)]);
}

/** The mechanism's display name. */
export function mechanismName(lang, attention) {
  const names = MECHANISM_NAMES[resolveLang(lang)];
  return Object.hasOwn(names, attention) ? names[attention] : String(attention);
}
