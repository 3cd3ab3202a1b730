// i18n/files.js: the strings of the model cards (card.*), of a model file of the visitor's own
// (open.*) and of its inspector (inspect.*), in English and Chinese.
//
// Holds: { en, zh } tables of those keys, which i18n.js merges into its own: t() finds them
// like any other. Deliberately holds no lookup (i18n.js) and no other area's strings.

export const FILES = {
  en: {
    // what the cards' data generator and held-out set are, by task, shown above the card's own
    // (English, code-like) text on a page in another language (model-card.js)
    'card.about.dates.data': 'random dates written in many human formats',
    'card.about.dates.heldout':
      'dates from a held-out seed, in two sets: the named formats and their variations',
    'card.about.translation.data':
      'English sentences of a small grammar, with their French translation and gold word alignment',
    'card.about.translation.heldout':
      'sentences from a held-out seed, and a set of every sentence length',
    'card.about.reviews.data':
      'reviews written from templates and sentiment lexicons, as typed (capitals, contractions, punctuation)',
    'card.about.reviews.heldout': 'reviews from a held-out seed',
    'card.about.agreement.data':
      'the Brown corpus, and the agreement grammar widened to its vocabulary',
    'card.about.agreement.heldout':
      'perplexity: every held-out Brown sentence; agreement: the subject–verb pairs of held-out Brown sentences (as Linzen et al. 2016), hand-written pairs never trained on, the page’s grammar and a deeper one',
    'card.about.reverse.data': 'random strings of the symbols a–t',
    'card.about.reverse.heldout': 'held-out random strings, the same number of every length',
    'card.about.induction.data': 'a random sequence A of distinct letters, then A again',
    'card.about.induction.heldout':
      'sequences from a held-out seed; the induction-head scores on some of them',
    'card.taskText.dates':
      'dates: a date in one of many human formats → ISO 8601 (year-month-day), character by character',
    'card.taskText.translation':
      'translation: English → French, word by word, with the gold word alignment',
    'card.taskText.reviews':
      'sentiment of a review as typed (movies, books, restaurants, hotels, products, apps; 1–4 sentences) → negative or positive',
    'card.taskText.agreement':
      'language model of English: the next word of a sentence (Brown corpus); the test is whether it prefers the verb form that agrees with the subject',
    'card.taskText.reverse':
      'reversal: a random string of symbols → the same symbols in reverse order, character by character',
    'card.taskText.induction':
      'induction: a random sequence A of distinct letters, then A again; predict each next token (the second copy is predictable by looking back)',
    'card.title': 'Model card: {name}',
    'card.task': 'Task',
    'card.architecture': 'Architecture',
    'card.size': 'Size',
    'card.sizeValue': '{parameters} parameters, {kb} KB',
    'card.data': 'Data generator',
    'card.heldout': 'Held-out set',
    'card.command': 'Training command',
    'card.time': 'Training time',
    'card.timeValue': '{seconds} s wall ({cpu} s CPU), {machine}',
    'card.metrics': 'Held-out metrics (as make models printed them)',
    'card.file': 'The whole card (JSON)',
    'card.knows': 'What it knows',
    'card.words': '{n} words',
    'card.years': 'years {min}–{max}',
    'card.lengths': '{min}–{max} tokens',
    'card.best': 'At its best',
    'card.limit': 'Its limit',
    'card.unavailable': 'The model card could not be loaded: {message}',
    'open.button': 'Open a model file…',
    'open.hint':
      'or drop one .safetensors file here (at most {limit} MB); it stays on this device.',
    'open.yourFile': 'your file',
    'open.loading': 'Reading your file {name}…',
    'open.failed': 'Your file {name} is not a model this page can open: {message}',
    'open.empty': 'Your file {name} is empty (0 bytes): it is not a model.',
    'open.tooLarge':
      'Your file {name} is {mb} MB; this page opens model files of at most {limit} MB.',
    'open.json':
      '{name} is a JSON file (a model card?), not a model: open the .safetensors file of the model.',
    'open.image': '{name} is an image, not a model: open a .safetensors model file.',
    'open.several': '{n} items were dropped: drop one model file at a time.',
    'open.folder': '{name} is a folder: drop the .safetensors file inside it, not the folder.',
    'open.notFile':
      'What was dropped is not a file (text or a link?): drop one .safetensors model file.',
    'open.unreadable':
      'Your file {name} could not be read ({message}): a folder, or a file moved or deleted since?',
    'open.badValue': 'modelFile must be a File, Blob, ArrayBuffer or Uint8Array, got {kind}.',
    'open.blobFailed':
      'The blob: URL {name} could not be read: it was revoked (URL.revokeObjectURL) or made by another page.',
    'open.noView':
      'Your file {name} is a “{arch}” model, which none of this page’s views draws: what it holds is shown below.',
    'open.linkNote':
      'A link cannot carry a file from your device: this link opens {fallback} instead of {name}.',
    'inspect.label': 'What your file holds',
    'inspect.title': 'Your file: {name} ({kb} KB)',
    'inspect.summary': '{tensors} tensors, {parameters} parameters.',
    'inspect.scales':
      '{n} of them are stored as int8 (I8), each with a row-scale tensor the loader reads with it (not listed, not counted).',
    'inspect.config': 'Config (__metadata__.config)',
    'inspect.noConfig': 'No readable config: {message}',
    'inspect.tensors': 'Tensors ({n})',
    'inspect.name': 'Name',
    'inspect.dtype': 'Type',
    'inspect.shape': 'Shape',
    'inspect.count': 'Parameters',
    'inspect.badCard': 'The file’s card (__metadata__.card) could not be read: {message}',
  },
  zh: {
    // 模型卡的数据生成器和留出集按任务的说明，在非英语页面上显示在模型卡原文（英文、代码）之上（model-card.js）
    'card.about.dates.data': '用多种人类写法随机写出的日期',
    'card.about.dates.heldout': '用留出的随机种子生成的日期，分两组：命名格式及其变体',
    'card.about.translation.data': '一个小型语法生成的英语句子，及其法语译文和标准词对齐',
    'card.about.translation.heldout': '用留出的随机种子生成的句子，以及按句长各取一组的句子',
    'card.about.reviews.data': '由模板和情感词表写成的评论，保留原样（大写、缩写、标点）',
    'card.about.reviews.heldout': '用留出的随机种子生成的评论',
    'card.about.agreement.data': 'Brown 语料库，以及扩展到其词表的主谓一致语法',
    'card.about.agreement.heldout':
      '困惑度：全部留出的 Brown 句子；主谓一致：留出 Brown 句子中的主谓对（按 Linzen 等 2016 的方法）、从未用于训练的手写句对、页面的语法及一个嵌套更深的语法',
    'card.about.reverse.data': '由符号 a–t 组成的随机字符串',
    'card.about.reverse.heldout': '留出的随机字符串，每个长度数量相同',
    'card.about.induction.data': '一串由不同字母组成的随机序列 A，再重复一遍 A',
    'card.about.induction.heldout': '用留出的随机种子生成的序列；归纳头得分取自其中一部分',
    'card.taskText.dates': '日期：多种人类写法之一的日期 → ISO 8601 格式（年-月-日），逐字符输出',
    'card.taskText.translation': '翻译：英语 → 法语，逐词输出，附标准词对齐',
    'card.taskText.reviews':
      '按原样输入的评论（电影、书籍、餐厅、酒店、商品、应用；1–4 句）的情感 → 负面或正面',
    'card.taskText.agreement':
      '英语语言模型：预测句子的下一个词（Brown 语料库）；测试它是否偏好与主语一致的动词形式',
    'card.taskText.reverse': '反转：一串随机符号 → 同样的符号按相反顺序，逐字符输出',
    'card.taskText.induction':
      '归纳：一串由不同字母组成的随机序列 A，再重复一遍 A；预测每个下一个词元（第二遍可通过回看预测）',
    'card.title': '模型卡：{name}',
    'card.task': '任务',
    'card.architecture': '结构',
    'card.size': '大小',
    'card.sizeValue': '{parameters} 个参数，{kb} KB',
    'card.data': '数据生成器',
    'card.heldout': '留出集',
    'card.command': '训练命令',
    'card.time': '训练时间',
    'card.timeValue': '墙钟 {seconds} 秒（CPU {cpu} 秒），{machine}',
    'card.metrics': '留出集指标（make models 打印的数值）',
    'card.file': '完整模型卡（JSON）',
    'card.knows': '它知道什么',
    'card.words': '{n} 个词',
    'card.years': '{min}–{max} 年',
    'card.lengths': '{min}–{max} 个词元',
    'card.best': '最佳表现',
    'card.limit': '它的极限',
    'card.unavailable': '无法加载模型卡：{message}',
    'open.button': '打开模型文件…',
    'open.hint': '或将一个 .safetensors 文件拖放到这里（至多 {limit} MB）；文件不会离开此设备。',
    'open.yourFile': '你的文件',
    'open.loading': '正在读取你的文件 {name}…',
    'open.failed': '你的文件 {name} 不是此页面能打开的模型：{message}',
    'open.empty': '你的文件 {name} 是空的（0 字节）：不是模型。',
    'open.tooLarge': '你的文件 {name} 有 {mb} MB；此页面只打开至多 {limit} MB 的模型文件。',
    'open.json': '{name} 是 JSON 文件（模型卡？），不是模型：请打开模型的 .safetensors 文件。',
    'open.image': '{name} 是图片，不是模型：请打开 .safetensors 模型文件。',
    'open.several': '拖放了 {n} 项：请一次只拖放一个模型文件。',
    'open.folder': '{name} 是文件夹：请拖放其中的 .safetensors 文件，而不是文件夹。',
    'open.notFile': '拖放的不是文件（文本或链接？）：请拖放一个 .safetensors 模型文件。',
    'open.unreadable': '无法读取你的文件 {name}（{message}）：是文件夹，或文件已被移动或删除？',
    'open.badValue': 'modelFile 必须是 File、Blob、ArrayBuffer 或 Uint8Array，收到的是 {kind}。',
    'open.blobFailed':
      '无法读取 blob: URL {name}：它已被撤销（URL.revokeObjectURL），或由另一个页面创建。',
    'open.noView': '你的文件 {name} 是“{arch}”模型，此页面没有视图能展示它：其内容列在下方。',
    'open.linkNote': '链接无法携带你设备上的文件：此链接打开的是 {fallback}，而不是 {name}。',
    'inspect.label': '你的文件包含什么',
    'inspect.title': '你的文件：{name}（{kb} KB）',
    'inspect.summary': '{tensors} 个张量，{parameters} 个参数。',
    'inspect.scales':
      '其中 {n} 个以 int8（I8）存储，各带一个由加载器一并读取的行缩放张量（未列出，未计入）。',
    'inspect.config': '配置（__metadata__.config）',
    'inspect.noConfig': '没有可读的配置：{message}',
    'inspect.tensors': '张量（{n}）',
    'inspect.name': '名称',
    'inspect.dtype': '类型',
    'inspect.shape': '形状',
    'inspect.count': '参数',
    'inspect.badCard': '无法读取文件中的模型卡（__metadata__.card）：{message}',
  },
};
