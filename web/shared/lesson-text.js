// lesson-text.js: the guided lesson's texts in English and Chinese (web/views/lesson-view.js,
// lesson-cost.js), added to web/shared/i18n.js's tables when the lesson first loads, so the
// first view of the page does not download them (about 22 KB). Ten steps, each a text of at most
// 150 words (tests/js/web-lesson.test.js counts them), a live widget and a prompt:
// lesson.<n>.title / .short (the step list) / .text / .try; variants and step 5's measurement
// (lesson-cost.js) after them. The page's own lesson strings (nav, title, lede, load failure)
// stay in i18n.js.

import { addStrings } from './i18n.js';

export const LESSON_EN = Object.freeze({
  'lesson.steps': 'Steps of the lesson',
  'lesson.stepOf': 'Step {n} of {total}',
  'lesson.prev': '← Previous',
  'lesson.next': 'Next →',
  'lesson.try': 'Try this',
  'lesson.colon': ': ',
  'lesson.equations': 'The equations',
  'lesson.symbols': 'Symbols in this step ({n})',
  'lesson.symbolsAll': 'Every symbol of the lesson',
  'lesson.variants': 'Model',
  'lesson.whole': 'The whole lesson',
  'lesson.eq.dot': 'dot',
  'lesson.eq.general': 'general',
  'lesson.eq.concat': 'concat',
  'lesson.eq.keyQuery': 'key–query',
  'lesson.1.title': 'An encoder–decoder without attention forgets long inputs',
  'lesson.1.short': 'Forgetting',
  'lesson.1.forgetting': 'Forgetting curve',
  'lesson.1.mech': 'Mechanism: the bottleneck',
  'lesson.1.text':
    'The first neural translators (Sutskever, Vinyals & Le 2014; Cho et al. 2014) read the input with an encoder RNN and hand its last state hₘ to a decoder RNN, which writes the output from that one vector. Whatever the length of the input, everything the decoder knows about it must fit in a vector of fixed size. The chart measures what that costs on a simple task, reversing a string of letters: two models of the same size (58,055 and 57,139 parameters), one with attention and one without, and their per-token accuracy against the input length. Below it, both models reverse the same string, and the wrong characters are marked.',
  'lesson.1.try':
    'Type a string of 10 letters, then one of 40 (letters a–t): where does the model without attention start to make mistakes? Does the model with attention?',
  'lesson.2.title': 'Attention: the decoder looks back at every input position',
  'lesson.2.short': 'Attention',
  'lesson.2.map': 'Attention map',
  'lesson.mech': 'Mechanism',
  'lesson.tryMechanism':
    'Step through time with ▶ or the ← and → keys on the diagram, and point at (or tab to) any part: its numbers appear and its term lights up in the equations beside it. Then type another input and watch the same machine work on it.',
  'lesson.2.text':
    'Bahdanau, Cho & Bengio (2015) let the decoder look back at the input. At each output step t, a small network compares every encoder state hᵢ with the decoder’s previous state sₜ₋₁ and gives the additive score eₜᵢ; a softmax turns the scores into weights αₜᵢ, all positive and summing to 1; and the decoder reads the context cₜ = Σᵢ αₜᵢ hᵢ, a weighted average of the input. The map shows α for a model that writes dates in ISO form: each row is an output character, each column an input character. The panel beside it takes the selected cell apart: its score relative to the row’s largest, the exponential, the sum, and the division that gives the weight.',
  'lesson.2.try':
    'Point at (or tab to) the cells of the row that writes the month: which input characters does it read? Then type the date another way, e.g. “November 22, 2026”, and watch the columns move.',
  'lesson.3.title': 'Other ways to score: dot, general, concat, keys and queries',
  'lesson.3.short': 'Scores',
  'lesson.3.text':
    'Luong, Pham & Manning (2015) compared ways to score the decoder state sₜ against an encoder state hᵢ: dot (sₜᵀhᵢ, no parameters), general (sₜᵀW_a hᵢ, a learned bilinear form) and concat (Bahdanau’s small network on [sₜ; hᵢ]). The same softmax follows each. Writing the score as the product of two projections, a key kᵢ = W_K hᵢ for each input position and a query qₜ = W_Q sₜ for the decoder, gives eₜᵢ = kᵢᵀqₜ (the lecture notes’ α̃ᵢ): the form the transformer uses. The compare view runs every dates model on the same input and shows their maps side by side, with the difference A − B of two of them.',
  'lesson.3.try':
    'Set A to dot and B to concat: where do their maps differ? Do the two models still write the same output?',
  'lesson.4.title': 'Decoding one step at a time; local attention’s window',
  'lesson.4.short': 'Over time',
  'lesson.4.time': 'Step by step',
  'lesson.4.text':
    'A decoder writes its output one token at a time, and each step has its own row of weights, computed from the state the previous token left. Step through the decoding: each press of Step adds one output character and one row. Local attention (Luong et al. 2015) looks only at a window. The model predicts a position pₜ = m · sigmoid(…) in the input of length m, keeps the positions within D of it, and multiplies their weights by a Gaussian centred on pₜ. The outlined cells are that window. It saves work on long inputs and suits tasks whose alignment moves forward through the input.',
  'lesson.4.try':
    'Press Step until the year is written and follow the window: does it move steadily through the input? Then type the date another way, e.g. “November 22nd, 2026”.',
  'lesson.5.title': 'The cost: O(m + t) without attention, O(m · t) with it',
  'lesson.5.short': 'Cost',
  'lesson.5.text':
    'Attention has a price. Without it, the encoder reads the m input tokens once and the decoder writes t output tokens, each step costing the same whatever m is: O(m + t) in all. With it, every output step scores all m encoder states: m · t scores, O(m · t). The table measures this in your browser with two string-reversal models whose output is as long as their input (t = m), on inputs of growing length, and divides each time by the output length: without attention the time per output token stays about the same, with attention it grows with m. The models have the same parameter count within 2 % but different hidden sizes, so compare how the times grow, not the times themselves.',
  'lesson.5.try':
    'Press Measure again: how much do the times vary between runs? Does the attention model’s time per output token grow roughly in proportion to m?',
  'lesson.6.title': 'Self-attention inside an RNN, and the LSTMN reading a sentence',
  'lesson.6.short': 'Self-attention RNN',
  'lesson.6.text':
    'Attention need not join two sequences: a recurrent network can attend to its own past. The self-attention RNN keeps every hidden state it has computed, attends over them, and feeds the summary back into the next step: hₜ = tanh(W[xₜ; cₜ₋₁] + b), the SimpleRNN update with the attention read cₜ₋₁ in place of hₜ₋₁. The LSTMN (Cheng, Dong & Lapata 2016) does the same inside an LSTM, with a tape of earlier hidden states and memory cells. Both are language models here: they read the FBI sentence word by word and predict each next word; the arcs show which earlier words the current word attends to.',
  'lesson.6.try':
    'Step to “chasing” and then to “run”: which earlier words does each model look at? Switch between the two models and compare.',
  'lesson.6.sarnn': 'Self-attention RNN',
  'lesson.6.lstmn': 'LSTMN',
  'lesson.6.mech': 'Mechanism (self-attention RNN)',
  'lesson.7.title': 'Attention to summarise a sentence: pooling, HAN, structured self-attention',
  'lesson.7.short': 'Summarise',
  'lesson.7.text':
    'Attention can also summarise. A classifier reads a review with a bidirectional RNN, scores each word’s state hₜ with a learned vector u_w, and adds the states up with those weights: one vector r for the whole sentence, which the classifier reads (Zhou et al. 2016). The shading shows each word’s weight. HAN (Yang et al. 2016) does it twice: words into sentence vectors, then sentences into a document vector. Structured self-attention (Lin et al. 2017) uses several hops, the rows of a matrix A, each free to look at different words; the penalty P = ‖AAᵀ − I‖²_F pushes the hops apart so that they do not all read the same word.',
  'lesson.7.try':
    'Change one word of the review, e.g. “boring” to “lovely”: does the label change, and does the weight move to the new word? In HAN, which sentence carries the weight?',
  'lesson.7.pooling': 'Attention pooling',
  'lesson.7.han': 'HAN',
  'lesson.7.structured': 'Structured self-attention',
  'lesson.7.mech': 'Mechanism (attention pooling)',
  'lesson.8.title': 'Scaled dot-product and multi-head attention: the transformer’s heads',
  'lesson.8.short': 'Heads',
  'lesson.8.text':
    'The transformer (Vaswani et al. 2017) drops recurrence and keeps only attention. Every position projects its vector into a query, a key and a value; the weights are softmax(QKᵀ/√dₖ), the dot products divided by √dₖ so that the softmax does not saturate as the key size dₖ grows, and the output is the weighted sum of the values. Multi-head attention runs several of these side by side, each with its own projections, so one head can follow position while another follows content. The grid shows every head of every layer of a small trained transformer; choose one to enlarge it. The second model has an induction head: it finds the earlier copy of the current letter and predicts what followed it.',
  'lesson.8.try':
    'In the dates transformer, choose encoder self-attention and look for a head that attends to the previous position; back in cross-attention, which head reads the year’s digits? In the induction model, the sample repeats its start (“k f t … k f t”): which earlier letter does the last row look at?',
  'lesson.8.dates': 'Dates (absolute positions)',
  'lesson.8.induction': 'Induction head',
  'lesson.8.mech': 'Mechanism (one head)',
  'lesson.9.title': 'Relative positions',
  'lesson.9.short': 'Positions',
  'lesson.9.text':
    'Attention by itself ignores order: shuffle the inputs and the weights shuffle with them. Transformers therefore add position information. Step 8’s dates model adds a learned vector for each absolute position to each embedding. Shaw et al. (2018) instead give the score a learned vector for the offset j − i from query i to key j, clipped to ±kₘₐₓ: the model learns “the character two to the left” whatever the absolute position, and the same weights apply to inputs longer than any seen in training. The view shows the clipped offset matrix beside the heads of the relative-position model.',
  'lesson.9.try':
    'Put a weekday in front of the date, e.g. “Sunday, 22 Nov 2026”: do the heads’ patterns move with the text? Compare with step 8’s absolute-position model.',
  'lesson.10.title': 'Train your own',
  'lesson.10.short': 'Train',
  'lesson.10.text':
    'Every model above was trained beforehand, with the command in its model card. In the lab you train your own: pick a task (copy, reverse, sort, addition, dates, translation or pairs of your own), build two models, A and B, with the mechanism, cell and size you choose, and train both at once on the same data in background workers. The loss, the held-out accuracy, the accuracy by input length and the attention on one example grow side by side, so a difference between A and B is seen, not told.',
  'lesson.10.try':
    'Open “with vs without attention” and start both runs: which one’s accuracy falls as the inputs grow longer, and when does the attention run’s diagonal appear? Then try additive against dot scores.',
  'lesson.lab.withWithout': 'The lab: with vs without attention (reverse, 5–40 characters)',
  'lesson.lab.additiveDot': 'The lab: additive vs dot scores',
  'lesson.train.link': 'Or train the dates models in the lab: additive vs dot attention',
  'lesson.cost.loading': 'Loading the two reversal models…',
  'lesson.cost.again': 'Measure again',
  'lesson.cost.caption': '{none} and {attn} on strings of growing length m (output length t = m)',
  'lesson.cost.m': 'Input length m',
  'lesson.cost.none': 'No attention: ms per run',
  'lesson.cost.attn': 'Attention: ms per run',
  'lesson.cost.nonePer': 'No attention: µs per output token',
  'lesson.cost.attnPer': 'Attention: µs per output token',
  'lesson.cost.chart': 'Microseconds per output token against input length m',
  'lesson.cost.noneKey': 'no attention',
  'lesson.cost.attnKey': 'attention',
  'lesson.cost.error': 'Could not measure: {message}',
});

export const LESSON_ZH = Object.freeze({
  'lesson.steps': '课程步骤',
  'lesson.stepOf': '第 {n} 步，共 {total} 步',
  'lesson.prev': '← 上一步',
  'lesson.next': '下一步 →',
  'lesson.try': '试一试',
  'lesson.colon': '：',
  'lesson.equations': '公式',
  'lesson.symbols': '本步骤中的符号（{n} 个）',
  'lesson.symbolsAll': '课程中的全部符号',
  'lesson.variants': '模型',
  'lesson.whole': '完整课程',
  'lesson.eq.dot': '点积',
  'lesson.eq.general': '一般',
  'lesson.eq.concat': '拼接',
  'lesson.eq.keyQuery': '键–查询',
  'lesson.1.title': '没有注意力的编码器–解码器会遗忘长输入',
  'lesson.1.short': '遗忘',
  'lesson.1.forgetting': '遗忘曲线',
  'lesson.1.mech': '机制：瓶颈',
  'lesson.1.text':
    '最早的神经机器翻译（Sutskever、Vinyals 和 Le 2014；Cho 等 2014）用编码器 RNN 读入输入，把它的最后一个状态 hₘ 交给解码器 RNN，解码器只凭这一个向量写出输出。无论输入多长，解码器对它的全部了解都必须装进一个固定大小的向量。下面的图表在一个简单的任务上测量这样做的代价：把一串字母倒过来写。两个模型大小相同（58,055 与 57,139 个参数），一个有注意力，一个没有，图中是它们的逐词元准确率随输入长度的变化。图表下方，两个模型反转同一个字符串，写错的字符会被标出。',
  'lesson.1.try':
    '先输入 10 个字母，再输入 40 个（字母 a–t）：没有注意力的模型从哪里开始出错？有注意力的模型呢？',
  'lesson.2.title': '注意力：解码器回头看每一个输入位置',
  'lesson.2.short': '注意力',
  'lesson.2.map': '注意力图',
  'lesson.mech': '机制',
  'lesson.tryMechanism':
    '用 ▶ 或在示意图上按 ← 和 → 键按时间逐步前进，再指向（或用 Tab 键移到）任何部分：它的数字会显示出来，旁边公式里对应的项也会亮起。然后换一个输入，看同一台机器如何处理它。',
  'lesson.2.text':
    'Bahdanau、Cho 和 Bengio（2015）让解码器可以回头看输入。在每个输出步 t，一个小网络把每个编码器状态 hᵢ 与解码器上一步的状态 sₜ₋₁ 相比较，得到加性分数 eₜᵢ；softmax 把分数变成权重 αₜᵢ，它们都为正、总和为 1；解码器再读出上下文 cₜ = Σᵢ αₜᵢ hᵢ，也就是输入的加权平均。图中是一个把日期改写成 ISO 格式的模型的 α：每一行是一个输出字符，每一列是一个输入字符。旁边的面板把选中的单元格拆开来算：它相对于该行最大值的分数、指数、求和，以及得出权重的那次除法。',
  'lesson.2.try':
    '把鼠标指向（或用 Tab 键移到）写出月份那一行的单元格：它读的是哪些输入字符？再换一种写法输入日期，例如“November 22, 2026”，看各列如何移动。',
  'lesson.3.title': '其他打分方式：点积、一般、拼接，以及键和查询',
  'lesson.3.short': '打分',
  'lesson.3.text':
    'Luong、Pham 和 Manning（2015）比较了给解码器状态 sₜ 与编码器状态 hᵢ 打分的几种方式：点积（sₜᵀhᵢ，没有参数）、一般（sₜᵀW_a hᵢ，一个学习得到的双线性形式）和拼接（Bahdanau 那个作用在 [sₜ; hᵢ] 上的小网络）。之后都接同样的 softmax。如果把分数写成两个投影的乘积：每个输入位置一个键 kᵢ = W_K hᵢ，解码器一个查询 qₜ = W_Q sₜ，就得到分数 eₜᵢ = kᵢᵀqₜ（讲义写作 α̃ᵢ），这正是 Transformer 使用的形式。比较视图让每个日期模型处理同一个输入，把它们的图并排显示，并给出其中两个之差 A − B。',
  'lesson.3.try': '把 A 设为点积、B 设为拼接：两张图在哪里不同？两个模型写出的输出还一样吗？',
  'lesson.4.title': '逐步解码；局部注意力的窗口',
  'lesson.4.short': '逐步解码',
  'lesson.4.time': '逐步解码',
  'lesson.4.text':
    '解码器一次写出一个词元，每一步都有自己的一行权重，由上一个词元留下的状态算出。请逐步解码：每按一次“单步”，就多一个输出字符和一行。局部注意力（Luong 等 2015）只看一个窗口：模型在长度为 m 的输入中预测一个位置 pₜ = m · sigmoid(…)，只保留离它不超过 D 的位置，并把这些位置的权重乘以一个以 pₜ 为中心的高斯函数。描边的单元格就是这个窗口。它在长输入上节省计算，适合对齐沿着输入向前移动的任务。',
  'lesson.4.try':
    '一直按“单步”，直到年份写完，并跟着窗口看：它是否平稳地沿输入向前移动？再换一种写法输入日期，例如“November 22nd, 2026”。',
  'lesson.5.title': '代价：没有注意力 O(m + t)，有注意力 O(m · t)',
  'lesson.5.short': '代价',
  'lesson.5.text':
    '注意力是有代价的。没有注意力时，编码器把 m 个输入词元读一遍，解码器写出 t 个输出词元，每一步的代价与 m 无关：总共 O(m + t)。有注意力时，每个输出步都要给全部 m 个编码器状态打分：共 m · t 个分数，O(m · t)。下表就在你的浏览器里测量这一点：两个字符串反转模型的输出与输入一样长（t = m），在越来越长的输入上计时，再把时间除以输出长度。没有注意力时，每个输出词元的时间大致不变；有注意力时，它随 m 增长。两个模型参数量相差不到 2%、隐藏层大小不同，所以请比较时间如何增长，而不是时间本身。',
  'lesson.5.try':
    '再按一次“重新测量”：两次测量的时间相差多少？有注意力的模型每个输出词元的时间，是否大致与 m 成正比增长？',
  'lesson.6.title': 'RNN 内部的自注意力，以及 LSTMN 读一句话',
  'lesson.6.short': '自注意力 RNN',
  'lesson.6.text':
    '注意力不一定要连接两个序列：循环网络也可以关注自己的过去。自注意力 RNN 保留它算出的每一个隐藏状态，对它们做注意力，再把汇总送回下一步：hₜ = tanh(W[xₜ; cₜ₋₁] + b)，也就是把 SimpleRNN 更新中的 hₜ₋₁ 换成注意力读出的 cₜ₋₁。LSTMN（Cheng、Dong 和 Lapata 2016）在 LSTM 内部做同样的事，带着一条记录先前隐藏状态和记忆单元的“磁带”。这里两者都是语言模型：它们逐词阅读 FBI 这句话并预测下一个词；弧线显示当前词关注哪些先前的词。',
  'lesson.6.try':
    '走到 “chasing”，再走到 “run”：每个模型看的是哪些先前的词？在两个模型之间切换，比较一下。',
  'lesson.6.sarnn': '自注意力 RNN',
  'lesson.6.lstmn': 'LSTMN',
  'lesson.6.mech': '机制（自注意力 RNN）',
  'lesson.7.title': '用注意力概括一句话：池化、HAN、结构化自注意力',
  'lesson.7.short': '概括',
  'lesson.7.text':
    '注意力也可以用来概括。分类器用双向 RNN 读一条评论，用一个学习得到的向量 u_w 给每个词的状态 hₜ 打分，再按这些权重把状态加起来，得到整句话的一个向量 r，分类器读的就是它（Zhou 等 2016）。阴影深浅表示每个词的权重。HAN（Yang 等 2016）做两次：先把词汇总成句子向量，再把句子汇总成文档向量。结构化自注意力（Lin 等 2017）使用多个“跳”，即矩阵 A 的各行，每一跳可以看不同的词；惩罚项 P = ‖AAᵀ − I‖²_F 把各跳推开，免得它们都读同一个词。',
  'lesson.7.try':
    '改动评论中的一个词，例如把 “boring” 改成 “lovely”：标签会变吗？权重会移到新词上吗？在 HAN 中，哪一句话得到了权重？',
  'lesson.7.pooling': '注意力池化',
  'lesson.7.han': 'HAN',
  'lesson.7.structured': '结构化自注意力',
  'lesson.7.mech': '机制（注意力池化）',
  'lesson.8.title': '缩放点积与多头注意力：Transformer 的注意力头',
  'lesson.8.short': '多头',
  'lesson.8.text':
    'Transformer（Vaswani 等 2017）去掉了循环，只保留注意力。每个位置把自己的向量投影成查询、键和值；权重是 softmax(QKᵀ/√dₖ)，点积除以 √dₖ，使键的维度 dₖ 变大时 softmax 不至于饱和；输出是值的加权和。多头注意力把好几组这样的注意力并排运行，每组有自己的投影，于是一个头可以跟踪位置，另一个头跟踪内容。网格显示一个训练好的小 Transformer 每一层的每一个头；选中一个即可放大。第二个模型有一个归纳头：它找到当前字母先前出现的位置，并预测当时紧随其后的字母。',
  'lesson.8.try':
    '在日期 Transformer 中，选择编码器自注意力，找一个关注前一个位置的头；回到交叉注意力，哪个头在读年份的数字？在归纳模型中，示例重复了自己的开头（“k f t … k f t”）：最后一行看向哪个较早的字母？',
  'lesson.8.dates': '日期（绝对位置）',
  'lesson.8.induction': '归纳头',
  'lesson.8.mech': '机制（一个头）',
  'lesson.9.title': '相对位置',
  'lesson.9.short': '位置',
  'lesson.9.text':
    '注意力本身不管顺序：把输入打乱，权重也随之打乱。因此 Transformer 要加入位置信息。第 8 步的日期模型给每个嵌入加上一个学习得到的、对应绝对位置的向量。Shaw 等（2018）则在分数中为从查询 i 到键 j 的偏移 j − i 加入一个学习得到的向量，偏移截断到 ±kₘₐₓ：模型学到的是“左边第二个字符”，与绝对位置无关，同样的权重也适用于比训练时更长的输入。视图在相对位置模型的各个头旁边显示截断后的偏移矩阵。',
  'lesson.9.try':
    '在日期前面加上星期，例如“Sunday, 22 Nov 2026”：各个头的模式会随文本移动吗？与第 8 步的绝对位置模型比较一下。',
  'lesson.10.title': '训练你自己的模型',
  'lesson.10.short': '训练',
  'lesson.10.text':
    '上面的每个模型都是事先训练好的，训练命令写在它的模型卡片里。在实验室里你可以训练自己的模型：选一个任务（复制、反转、排序、加法、日期、翻译或你自己的句对），用你选择的机制、单元和规模搭建 A、B 两个模型，在后台线程中用同样的数据同时训练。损失、留出集准确率、按输入长度的准确率以及某个示例上的注意力并排增长，A 与 B 的差别一看便知。',
  'lesson.10.try':
    '打开“有注意力与无注意力”，开始两个训练：输入变长时，哪一个的准确率会下降？有注意力的那个，对角线什么时候出现？然后试试加性打分与点积打分的对比。',
  'lesson.lab.withWithout': '实验室：有注意力与无注意力（反转，5–40 个字符）',
  'lesson.lab.additiveDot': '实验室：加性打分与点积打分',
  'lesson.train.link': '或者在实验室中训练日期模型：加性注意力与点积注意力',
  'lesson.cost.loading': '正在加载两个反转模型……',
  'lesson.cost.again': '重新测量',
  'lesson.cost.caption': '{none} 与 {attn} 处理越来越长的字符串，长度为 m（输出长度 t = m）',
  'lesson.cost.m': '输入长度 m',
  'lesson.cost.none': '无注意力：毫秒/次',
  'lesson.cost.attn': '有注意力：毫秒/次',
  'lesson.cost.nonePer': '无注意力：微秒/输出词元',
  'lesson.cost.attnPer': '有注意力：微秒/输出词元',
  'lesson.cost.chart': '每个输出词元的微秒数与输入长度 m 的关系',
  'lesson.cost.noneKey': '无注意力',
  'lesson.cost.attnKey': '有注意力',
  'lesson.cost.error': '无法测量：{message}',
});

addStrings({ en: LESSON_EN, zh: LESSON_ZH });
