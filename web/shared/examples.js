// examples.js: the "Examples" menu of each view: inputs chosen to show something (a date with a
// weekday, a negation that flips the label, an attractor, an adjective that French puts after the
// noun), in English and Chinese, per task, and
// the ones a model's card names (card.examples: { best: [three inputs], limit: one input }).
//
//   import { examplesFor } from './examples.js';
//   examplesFor('dates', card, 'en')
//   // [{ input: 'Sunday, 22 November 2026', shows: 'a weekday: the alignment skips it' }, ...]
//
// A task is what the registry says a model was trained for (models.js `task`); a same-origin path
// has none, so its menu holds its card's examples only (none without a card). Every input is at
// most MAX_INPUT characters (tests/js/web-examples.test.js checks them, and that each one runs).
// Holds: the lists and their merge. Deliberately holds no DOM: the element builds the menu.

import { TRANSLATION_EXAMPLES } from '../data/translation-examples.js';

/** @typedef {{ input: string, shows: { en: string, zh: string } }} Example */

/**
 * What each phenomenon of the translation data (web/data/translation.js PHENOMENA) is called in
 * the menu, in English and Chinese.
 * @type {Readonly<Record<string, { en: string, zh: string }>>}
 */
export const PHENOMENON_LABELS = Object.freeze({
  'adjective-after': {
    en: 'adjective after the noun (the red car → la voiture rouge)',
    zh: '形容词后置（“the red car” → “la voiture rouge”）',
  },
  'adjective-before': {
    en: 'adjective before the noun, as in English (petit, grand…)',
    zh: '形容词前置，与英语相同（“petit”、“grand”……）',
  },
  'adjectives-reversed': {
    en: 'two adjectives after the noun, in reverse order',
    zh: '两个形容词后置，顺序颠倒',
  },
  possessive: {
    en: 'possessive ’s → “le … de …”: the owner moves to the end',
    zh: '所有格 ’s → “le … de …”：所有者移到后面',
  },
  negation: {
    en: 'negation: “do not see” → “ne … pas” around the verb',
    zh: '否定：“do not see” → 动词两边的 “ne … pas”',
  },
  'object-pronoun': {
    en: 'object pronoun before the verb (sees him → le voit)',
    zh: '宾语代词在动词之前（“sees him” → “le voit”）',
  },
  'compound-past': {
    en: 'compound past with participle agreement',
    zh: '复合过去时与过去分词的配合',
  },
  elision: {
    en: 'elision: ne aiment → n’aiment, le arbre → l’arbre',
    zh: '省音：“ne aiment” → “n’aiment”，“le arbre” → “l’arbre”',
  },
  contraction: {
    en: 'contraction: de le → du, à les → aux',
    zh: '缩合：“de le” → “du”，“à les” → “aux”',
  },
  subordinate: {
    en: 'relative and that-clauses (que, qui)',
    zh: '关系从句与 “that” 从句（“que”、“qui”）',
  },
});

/** The translation models' menu: one sentence per phenomenon (web/data/translation-examples.js). */
const TRANSLATION = TRANSLATION_EXAMPLES.map(({ phenomenon, src }) => ({
  input: src,
  phenomenon,
  shows: PHENOMENON_LABELS[phenomenon],
}));

/** @type {Readonly<Record<string, readonly Example[]>>} */
export const EXAMPLES = Object.freeze({
  dates: [
    {
      input: 'Sunday, 22 November 2026',
      shows: {
        en: 'a weekday: the ISO date never needs it, watch the attention skip it',
        zh: '带星期：ISO 日期用不到它，看注意力跳过它',
      },
    },
    {
      input: '11/22/26',
      shows: {
        en: 'US order and a two-digit year (69–99 → 19yy, 00–68 → 20yy)',
        zh: '美式顺序与两位年份（69–99 → 19××，00–68 → 20××）',
      },
    },
    {
      input: 'the 14th of October, 1066',
      shows: {
        en: 'words around the numbers; the day comes after “the”',
        zh: '数字周围有文字；日在 “the” 之后',
      },
    },
    {
      input: '2026-11-22',
      shows: {
        en: 'already ISO: the attention runs straight down the diagonal',
        zh: '已是 ISO：注意力沿对角线走',
      },
    },
    {
      input: 'TUESDAY  4 JULY 1776',
      shows: {
        en: 'capitals and a doubled space: normalised before the model reads them',
        zh: '大写与双空格：读入前已规范化',
      },
    },
    {
      input: 'the day after tomorrow',
      shows: {
        en: 'its limit: no digits at all, so there is no date to read',
        zh: '它的极限：完全没有数字，无日期可读',
      },
    },
  ],
  induction: [
    {
      input: '<s> k f t b m w k f t',
      shows: {
        en: 'a repeated run: induction heads look one step past the earlier copy',
        zh: '重复片段：归纳头看向前一次出现之后的那一位',
      },
    },
    {
      input: '<s> a b c d a b c d',
      shows: { en: 'a short period: the copy starts early', zh: '短周期：复制很早开始' },
    },
  ],
  reviews: [
    {
      input: 'The movie was great.',
      shows: {
        en: 'the plainest review: the weight sits on “great”',
        zh: '最简单的评论：权重落在 “great” 上',
      },
    },
    {
      input: 'The movie was not bad at all.',
      shows: { en: 'a negation that flips the label', zh: '否定翻转了标签' },
    },
    {
      input: 'Beautiful photos, but the story never goes anywhere.',
      shows: { en: 'contrast: the clause after “but” decides', zh: '转折：“but” 之后的从句决定' },
    },
    {
      input: "I expected to hate it and I didn't.",
      shows: { en: 'the verdict is in the last words', zh: '结论在最后几个词里' },
    },
    {
      input: 'Fast delivery. Broke in a week.',
      shows: { en: 'two sentences, the second decides', zh: '两句话，第二句决定' },
    },
  ],
  agreement: [
    {
      input: 'The keys to the door are on the table.',
      shows: {
        en: 'an attractor: “door” is singular, the verb agrees with “keys”',
        zh: '吸引子：“door” 是单数，动词与 “keys” 一致',
      },
    },
    {
      input: 'The author of the books is here.',
      shows: { en: 'a plural attractor before a singular verb', zh: '单数动词前有复数吸引子' },
    },
    {
      input: 'The girls who like the boy are happy.',
      shows: {
        en: 'a relative clause between the subject and its verb',
        zh: '主语和动词之间隔着关系从句',
      },
    },
    {
      input: 'The FBI is chasing a criminal on the run.',
      shows: {
        en: 'the sentence of Cheng, Dong & Lapata (2016), Figure 1',
        zh: 'Cheng、Dong 与 Lapata（2016）图 1 的句子',
      },
    },
  ],
  translation: TRANSLATION,
  reverse: [
    {
      input: 'abcdefghij',
      shows: { en: 'ten symbols: both models reverse them', zh: '十个符号：两个模型都能反转' },
    },
    {
      input: 'npclaihprtgffsaakacoopbmpdgcorffoitggsqp',
      shows: {
        en: 'forty symbols: the model without attention forgets the start',
        zh: '四十个符号：无注意力的模型忘了开头',
      },
    },
  ],
});

/**
 * The menu of a model: its task's examples, then the card's (best, then limit) that are not
 * already there; each { input, shows } with shows in lang (the card's best ones are "at its best",
 * its limit "its limit"). A card of the wrong shape adds nothing.
 * @param {string | null | undefined} task
 * @param {any} card the parsed card JSON, or null while it loads
 * @param {string} lang
 * @param {number} [maxInput] longer inputs are left out
 * @returns {{ input: string, shows: string }[]}
 */
export function examplesFor(task, card, lang, maxInput = Infinity) {
  const pick = (/** @type {{ en: string, zh: string }} */ s) => (lang === 'zh' ? s.zh : s.en);
  const out = [];
  const seen = new Set();
  const add = (input, shows) => {
    if (
      typeof input !== 'string' ||
      input.length === 0 ||
      input.length > maxInput ||
      seen.has(input)
    )
      return;
    seen.add(input);
    out.push({ input, shows });
  };
  const own = task && Object.hasOwn(EXAMPLES, task) ? EXAMPLES[task] : [];
  for (const e of own) add(e.input, pick(e.shows));
  const ex = card && typeof card === 'object' ? card.examples : null;
  if (ex && typeof ex === 'object') {
    if (Array.isArray(ex.best))
      for (const b of ex.best.slice(0, 8))
        add(
          b,
          pick({
            en: 'from the model card: the model at its best',
            zh: '来自模型卡：模型的最佳表现',
          }),
        );
    add(ex.limit, pick({ en: 'from the model card: its limit', zh: '来自模型卡：它的极限' }));
  }
  return out;
}
