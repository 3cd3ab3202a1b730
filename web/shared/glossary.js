// glossary.js: every symbol the lesson's and the views' equations use, with a one-line meaning in
// English and Chinese (pure data, no DOM; importable in Node).
//
//   import { GLOSSARY, glossaryEntry, symbolsOf } from './glossary.js';
//   glossaryEntry('α').en      // 'the attention weight of position i at step t: …'
//   symbolsOf(['c_t = Σ_i α_{ti} h_i'])   // ['c', 'Σ', 'α', 'h']: in order of first use
//
// One notation for the whole page, the lecture notes' (docs/notation.md): encoder states hᵢ over
// the source positions i = 1 … m, the decoder state s_{t−1} (Bahdanau's placement) or s_t
// (Luong's), scores e_tᵢ, weights α_tᵢ, context c_t = Σᵢ α_tᵢ hᵢ; keys kᵢ = W_K hᵢ, query
// q_t = W_Q s_t; pooling u_t = tanh(W h_t + b), α_t = softmax(u_tᵀ u_w), r = Σ α_t h_t; the
// transformer's Q, K, V and QKᵀ/√d_k. Each entry: id (what notation.js's equationSymbols
// returns: a letter, a word, a named form such as 'W_K' or 'a^K', or 'f()' for a function
// written as one letter), sym (how the glossary shows it, in the equation markup), en, zh.
// tests/js/glossary.test.js checks that every symbol of lesson-steps.js's and explain.js's
// equations is here, in both languages. Deliberately holds no DOM (lesson-view.js draws it).

import { equationSymbols } from './notation.js';

/** @typedef {{ id: string, sym: string, en: string, zh: string }} GlossaryEntry */

/** @type {readonly GlossaryEntry[]} in the order the lesson meets them */
export const GLOSSARY = Object.freeze(
  [
    // sequences and their lengths
    ['x', 'x_i, x_t', 'an input token’s embedding (a vector)', '一个输入词元的嵌入（向量）'],
    ['X', 'X', 'a layer’s input, one row x_i per position', '一层的输入，每个位置一行 x_i'],
    [
      'y',
      'y_t',
      'the output token written at step t (a classifier’s label: y)',
      '第 t 步写出的输出词元（分类器的标签：y）',
    ],
    ['m', 'm', 'the input (source) length', '输入（源序列）的长度'],
    [
      't',
      't',
      'the output step (or the current word); in O(m · t), the output length',
      '输出步（或当前词）；在 O(m · t) 中是输出长度',
    ],
    [
      'i',
      'i',
      'an input position, i = 1 … m (transformer: the query’s; i_t: an LSTM’s input gate)',
      '一个输入位置，i = 1 … m（Transformer 中：查询的位置；i_t：LSTM 的输入门）',
    ],
    [
      'j',
      'j',
      'another position: the one a sum runs over (in the transformer: the key’s)',
      '另一个位置：求和所遍历的位置（在 Transformer 中：键的位置）',
    ],
    // recurrent states
    [
      'h',
      'h_i, h_t',
      'a hidden state: h_i the encoder’s at input position i, h_t an RNN’s after word t',
      '隐藏状态：h_i 是编码器在输入位置 i 的状态，h_t 是 RNN 读完第 t 个词后的状态',
    ],
    [
      's',
      's_t, s_{t−1}',
      'the decoder’s state after step t; Bahdanau’s scores read s_{t−1}, Luong’s s_t; s_0 = h_m',
      '解码器在第 t 步之后的状态；Bahdanau 的打分读 s_{t−1}，Luong 的读 s_t；s_0 = h_m',
    ],
    [
      'f()',
      'f(·)',
      'an RNN’s update: the new state from the previous state and the input',
      'RNN 的更新：由上一个状态和输入得到新状态',
    ],
    // attention over a sequence
    [
      'e',
      'e_{ti}',
      'the score of input position i at step t, before the softmax (some notes write α̃_i)',
      '第 t 步时输入位置 i 的分数，softmax 之前（有的讲义写作 α̃_i）',
    ],
    [
      'α',
      'α_{ti}',
      'the attention weight of position i at step t: the softmax of the scores, positive, summing to 1 over i',
      '第 t 步时位置 i 的注意力权重：分数的 softmax，均为正，对 i 求和为 1',
    ],
    [
      'α̃',
      'α̃_i',
      'the lecture notes’ name for the score e_i before the softmax',
      '讲义中对 softmax 之前的分数 e_i 的写法',
    ],
    [
      'c',
      'c_t',
      'the context: the weighted average Σ_i α_{ti} h_i the decoder (or the RNN) reads',
      '上下文：解码器（或 RNN）读取的加权平均 Σ_i α_{ti} h_i',
    ],
    ['Σ', 'Σ_i', 'the sum over i', '对 i 求和'],
    [
      'align',
      'align',
      'the self-attention RNN’s score of an earlier state h_i for the current h_t',
      '自注意力 RNN 给先前状态 h_i 相对当前 h_t 打的分',
    ],
    [
      'c̃',
      'c̃_t',
      'the LSTMN’s weighted sum of earlier memory cells, Σ_i α_{ti} c_i',
      'LSTMN 中先前记忆单元的加权和 Σ_i α_{ti} c_i',
    ],
    ['ĉ', 'ĉ_t', 'an LSTM’s new candidate memory', 'LSTM 新的候选记忆'],
    [
      'f',
      'f_t',
      'an LSTM’s forget gate (i_t the input gate, o_t the output gate)',
      'LSTM 的遗忘门（i_t 为输入门，o_t 为输出门）',
    ],
    [
      'o',
      'o_t, o_i',
      'an LSTM’s output gate o_t; in the transformer, o_i the heads’ projected output',
      'LSTM 的输出门 o_t；在 Transformer 中，o_i 是各头投影后的输出',
    ],
    ['LSTM', 'LSTM', 'a long short-term memory cell', '长短期记忆（LSTM）单元'],
    [
      'softmax',
      'softmax',
      'exp of each score divided by the sum of the exps: positive weights summing to 1',
      '每个分数取 exp 再除以所有 exp 之和：为正、和为 1 的权重',
    ],
    ['exp', 'exp', 'the exponential function', '指数函数'],
    ['ln', 'ln', 'the natural logarithm, the inverse of exp', '自然对数，exp 的反函数'],
    ['max', 'max_j', 'the largest value over j', '对 j 取最大值'],
    [
      'tanh',
      'tanh',
      'the hyperbolic tangent, squashing each entry into (−1, 1)',
      '双曲正切，把每个分量压缩到 (−1, 1)',
    ],
    // the scores' parameters
    [
      'v',
      'v',
      'a learned vector that turns the additive score’s tanh layer into one number',
      '学习得到的向量，把加性打分的 tanh 层变成一个数',
    ],
    [
      'W',
      'W',
      'a learned weight matrix (each equation has its own)',
      '学习得到的权重矩阵（每个公式各有自己的）',
    ],
    [
      'U',
      'U',
      'the additive score’s learned matrix applied to h_i',
      '加性打分中作用在 h_i 上的学习矩阵',
    ],
    ['b', 'b', 'a learned bias vector', '学习得到的偏置向量'],
    [
      'W_a',
      'W_a',
      'Luong’s learned matrix of the general and concat scores',
      'Luong 的一般打分和拼接打分中学习得到的矩阵',
    ],
    ['v_a', 'v_a', 'Luong’s learned vector of the concat score', 'Luong 拼接打分中学习得到的向量'],
    ['W_K', 'W_K', 'the learned projection to keys', '投影到键的学习矩阵'],
    ['W_Q', 'W_Q', 'the learned projection to queries', '投影到查询的学习矩阵'],
    ['W_V', 'W_V', 'the learned projection to values', '投影到值的学习矩阵'],
    ['W_O', 'W_O', 'the learned projection of the heads’ outputs', '各头输出的投影矩阵'],
    ['k', 'k_i', 'the key of position i: k_i = W_K h_i', '位置 i 的键：k_i = W_K h_i'],
    ['q', 'q_t', 'the query of step t: q_t = W_Q s_t', '第 t 步的查询：q_t = W_Q s_t'],
    [
      'd_k',
      'd_k',
      'the size of keys and queries; dividing by √d_k keeps the scores from growing with it',
      '键和查询的维度；除以 √d_k 使分数不随它增大',
    ],
    [
      'h̃',
      'h̃_t',
      'an attention-made state: Luong’s tanh(W_c [c_t; s_t]); the LSTMN’s Σ_i α_{ti} h_i',
      '由注意力得到的状态：Luong 的 tanh(W_c [c_t; s_t])；LSTMN 的 Σ_i α_{ti} h_i',
    ],
    [
      'W_c',
      'W_c',
      'Luong’s learned matrix that mixes c_t and s_t',
      'Luong 中混合 c_t 与 s_t 的学习矩阵',
    ],
    // local attention
    [
      'p',
      'p_t',
      'local attention’s predicted centre in the input at step t',
      '局部注意力在第 t 步预测的输入中心位置',
    ],
    [
      'sigmoid',
      'sigmoid',
      'the logistic function 1 / (1 + exp(−x)), between 0 and 1',
      'S 形函数 1 / (1 + exp(−x))，取值在 0 和 1 之间',
    ],
    ['v_p', 'v_p', 'local-p’s learned vector that predicts p_t', 'local-p 中预测 p_t 的学习向量'],
    ['W_p', 'W_p', 'local-p’s learned matrix that predicts p_t', 'local-p 中预测 p_t 的学习矩阵'],
    [
      'D',
      'D',
      'the half-width of the local window: positions p_t − D … p_t + D',
      '局部窗口的半宽：位置 p_t − D … p_t + D',
    ],
    ['σ', 'σ', 'the width of the Gaussian on the window, σ = D/2', '窗口上高斯函数的宽度，σ = D/2'],
    ['O()', 'O(·)', 'the order of growth of a cost', '代价的增长阶'],
    [
      'p()',
      'p(·)',
      'a probability (of the next token, of a label)',
      '概率（下一个词元的，或标签的）',
    ],
    ['g()', 'g(·)', 'the decoder’s output layer', '解码器的输出层'],
    // summarising a sentence
    [
      'w',
      'w_t',
      'word t of a sentence (a memory RNN reads one a step)',
      '句子中的第 t 个词（记忆 RNN 每步读一个）',
    ],
    [
      'E',
      'E',
      'the embedding table: E[w_t] is the word’s vector x_t',
      '嵌入表：E[w_t] 就是该词的向量 x_t',
    ],
    ['n', 'n', 'a sentence’s length in words', '句子的长度（词数）'],
    [
      'u',
      'u_t',
      'word t’s projected state: tanh(h_t), HAN’s tanh(W h_t + b), scored against u_w',
      '第 t 个词投影后的状态：tanh(h_t)，HAN 中为 tanh(W h_t + b)，与 u_w 比较打分',
    ],
    [
      'u_w',
      'u_w',
      'the learned context vector each word is scored against: which word matters?',
      '学习得到的上下文向量，每个词都与它比较打分：哪个词重要？',
    ],
    [
      'u_s',
      'u_s',
      'HAN’s learned context vector for the sentences',
      'HAN 中用于句子的学习上下文向量',
    ],
    [
      'r',
      'r',
      'the summary Σ_t α_t h_t the classifier reads (HAN: r_j of sentence j, r of the document)',
      '分类器读取的概括 Σ_t α_t h_t（HAN：第 j 句的 r_j，整篇文档的 r）',
    ],
    ['β', 'β_j', 'HAN’s weight of sentence j in the document', 'HAN 中第 j 句在文档中的权重'],
    [
      'H',
      'H',
      'the hidden states h_t as the rows of one matrix (cross-attention: the encoder’s output)',
      '把隐藏状态 h_t 作为各行的矩阵（交叉注意力中：编码器的输出）',
    ],
    [
      'A',
      'A',
      'structured self-attention’s weights: one row per hop, each a softmax over the words',
      '结构化自注意力的权重：每个跳一行，每行是对各词的 softmax',
    ],
    [
      'W_s1',
      'W_{s1}',
      'structured self-attention’s first learned matrix',
      '结构化自注意力的第一个学习矩阵',
    ],
    [
      'W_s2',
      'W_{s2}',
      'structured self-attention’s second learned matrix (one row per hop)',
      '结构化自注意力的第二个学习矩阵（每个跳一行）',
    ],
    [
      'M',
      'M',
      'structured self-attention’s summaries M = A H, one row per hop',
      '结构化自注意力的概括 M = A H，每个跳一行',
    ],
    [
      'P',
      'P',
      'the penalty that pushes the hops apart: 0 when each reads different words',
      '把各个跳推开的惩罚项：各跳读不同的词时为 0',
    ],
    ['I', 'I', 'the identity matrix', '单位矩阵'],
    // the transformer
    ['Q', 'Q', 'the queries, one row per position: Q = X W_Q', '查询，每个位置一行：Q = X W_Q'],
    ['K', 'K', 'the keys, one row per position: K = X W_K', '键，每个位置一行：K = X W_K'],
    [
      'V',
      'V',
      'the values, one row V_j per position: V = X W_V; the weights average them',
      '值，每个位置一行 V_j：V = X W_V；权重对它们求加权平均',
    ],
    ['LN', 'LN', 'layer normalisation', '层归一化'],
    [
      'z',
      'z_i',
      'one head’s output at position i: Σ_j α_{ij} V_j',
      '一个头在位置 i 的输出：Σ_j α_{ij} V_j',
    ],
    [
      'concat',
      'concat',
      'the heads’ outputs side by side, one vector per position',
      '各头的输出并排拼接，每个位置一个向量',
    ],
    ['vec', 'vec', 'a matrix’s rows laid end to end as one vector', '把矩阵各行首尾相接成一个向量'],
    [
      'Attention',
      'Attention',
      'scaled dot-product attention: softmax(Q K^T / √d_k) V',
      '缩放点积注意力：softmax(Q K^T / √d_k) V',
    ],
    [
      'head',
      'head_j',
      'the output of head j, one attention with its own projections',
      '第 j 个头的输出：一套有自己投影的注意力',
    ],
    [
      'a^K',
      'a^K_{ij}',
      'Shaw’s learned vector for the offset j − i, added to the key',
      'Shaw 为偏移 j − i 学习的向量，加到键上',
    ],
    [
      'a^V',
      'a^V_{ij}',
      'Shaw’s learned vector for the offset j − i, added to the value',
      'Shaw 为偏移 j − i 学习的向量，加到值上',
    ],
    [
      'w^K',
      'w^K',
      'the table of those vectors, one row per clipped offset',
      '这些向量的表，每个截断后的偏移一行',
    ],
    ['clip', 'clip', 'clip(x, k) keeps x within −k … k', 'clip(x, k) 把 x 限制在 −k … k 之内'],
    [
      'k_max',
      'k_{max}',
      'the largest offset told apart; farther ones count as ±k_{max}',
      '能区分的最大偏移；更远的都算作 ±k_{max}',
    ],
  ].map(([id, sym, en, zh]) => Object.freeze({ id, sym, en, zh })),
);

const BY_ID = new Map(GLOSSARY.map((e) => [e.id, e]));

/** The ids that carry their own sub/superscript (W_K, d_k, a^K): notation.js's `named`. */
export const NAMED = new Set(GLOSSARY.map((e) => e.id).filter((id) => /[_^]/.test(id)));

/** The entry of a symbol id, or undefined. @param {string} id */
export function glossaryEntry(id) {
  return BY_ID.get(id);
}

/** The symbols of some equations (markup or Unicode), in order of first use. */
export function symbolsOf(/** @type {readonly string[]} */ equations) {
  const seen = new Set();
  for (const e of equations) for (const s of equationSymbols(e, NAMED)) seen.add(s);
  return [...seen];
}
