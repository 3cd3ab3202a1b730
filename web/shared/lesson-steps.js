// lesson-steps.js: the guided lesson's ten steps as data (pure, no DOM; importable in Node).
//
//   import { LESSON_STEPS, equationParts } from './lesson-steps.js';
//   LESSON_STEPS[1].widgets[0]   // { view: 'alignment', model: 'dates-additive', input: '22 Nov 2026', … }
//   equationParts('c = Σ_i α_i h_i')   // [['c = Σ'], ['α'], ['sub', 'i'], …] for the DOM builder
//
// Holds: for each step (1-based number = index + 1) its i18n key stem (lesson.<n>.title / .short
// / .text / .try in i18n.js), its equations (in a small markup: x_i, x_{t−1}, v^T, a^{K}; an
// equation that needs a name, 'dot' or 'no attention', carries the name's i18n key), and its widget: the <attn-demo> settings of one or more variants (a step with two
// models, e.g. the self-attention RNN then the LSTMN, offers both, and only the chosen one is
// made), or 'cost' (step 5's live measurement, lesson-cost.js) or 'train' (step 10: links to the
// lab's presets). Deliberately holds no text (lesson-text.js) and no DOM (lesson-view.js).
// The path follows the papers: Sutskever et al. 2014 and Cho et al. 2014 (no attention), Bahdanau
// et al. 2015 (eq. 5–6, the additive score), Luong et al. 2015 (eq. 8 scores, eq. 9–10 local-p),
// Cheng, Dong & Lapata 2016 (LSTMN), Yang et al. 2016 (HAN), Lin et al. 2017 (structured
// self-attention, eq. 8 penalty), Vaswani et al. 2017 (eq. 1, §3.2.2), Shaw et al. 2018.

/** The reading steps' sentence (the LSTMN paper's Fig. 1). */
export const FBI_SENTENCE = 'The FBI is chasing a criminal on the run.';

/** Step 5: the input lengths m timed (the reversal models read 5–60 symbols). */
export const COST_LENGTHS = Object.freeze([5, 10, 20, 30, 40, 50, 60]);

/**
 * The steps. widgets: <attn-demo> attribute sets (label: the i18n key of its variant button when
 * there are several); hide: the element's hide flags (the lesson page has its own language switch
 * and links). Each step's model is named here, never guessed: tests load the same files.
 * @typedef {{ label?: string, view: string, model: string, input?: string, step?: number, kind?: string }} LessonWidget
 * @typedef {string | { label: string, eq: string }} LessonEquation an equation, or one with a name (an i18n key)
 * @typedef {{ key: string, equations: readonly LessonEquation[], widgets: readonly LessonWidget[] | 'cost' | 'train' }} LessonStep
 * @type {readonly LessonStep[]}
 */
export const LESSON_STEPS = Object.freeze([
  {
    key: 'lesson.1',
    equations: ['s_0 = h_m', 's_t = f(s_{t−1}, y_{t−1})'],
    widgets: [{ view: 'forgetting', model: 'seq-reverse-attention' }],
  },
  {
    key: 'lesson.2',
    equations: [
      'c_t = Σ_i α_{ti} h_i',
      'α_{ti} = exp(e_{ti}) / Σ_j exp(e_{tj})',
      'e_{ti} = v^T tanh(W s_{t−1} + U h_i)',
    ],
    widgets: [{ view: 'alignment', model: 'dates-additive', input: '22 Nov 2026' }],
  },
  {
    key: 'lesson.3',
    equations: [
      { label: 'lesson.eq.dot', eq: 'e_i = s^T h_i' },
      { label: 'lesson.eq.general', eq: 'e_i = s^T W_a h_i' },
      { label: 'lesson.eq.concat', eq: 'e_i = v_a^T tanh(W_a [s; h_i])' },
      { label: 'lesson.eq.keyQuery', eq: 'k_i = W_K h_i,   q = W_Q s,   α̃_i = k_i^T q' },
    ],
    widgets: [{ view: 'compare', model: 'dates-additive', input: '22 Nov 2026' }],
  },
  {
    key: 'lesson.4',
    equations: [
      'p_t = m · σ(v_p^T tanh(W_p s_t))',
      'α_{ti} = softmax(e_t)_i · exp(−(i − p_t)² / 2σ²),   i ∈ [p_t − D, p_t + D]',
    ],
    widgets: [{ view: 'time', model: 'dates-local-p', input: 'Sunday, 22 November 2026', step: 4 }],
  },
  {
    key: 'lesson.5',
    equations: [
      { label: 'lesson.cost.noneKey', eq: 'O(m + t)' },
      { label: 'lesson.cost.attnKey', eq: 'O(m · t)' },
    ],
    widgets: 'cost',
  },
  {
    key: 'lesson.6',
    equations: ['h_t = tanh(A · [x_t; c_{t−1}] + b)', 'c_{t−1} = Σ_{i≤t−1} α_{t−1,i} h_i'],
    widgets: [
      {
        label: 'lesson.6.sarnn',
        view: 'reading',
        model: 'lm-agreement-sarnn',
        input: FBI_SENTENCE,
      },
      {
        label: 'lesson.6.lstmn',
        view: 'reading',
        model: 'lm-agreement-lstmn',
        input: FBI_SENTENCE,
      },
    ],
  },
  {
    key: 'lesson.7',
    equations: [
      'α_i = softmax_i(u^T tanh(W h_i)),   s = Σ_i α_i h_i',
      'A = softmax(W_2 tanh(W_1 H^T)),   P = ‖A A^T − I‖_F²',
    ],
    widgets: [
      { label: 'lesson.7.pooling', view: 'pooling', model: 'clf-reviews-attention' },
      { label: 'lesson.7.han', view: 'pooling', model: 'clf-reviews-han' },
      { label: 'lesson.7.structured', view: 'pooling', model: 'clf-reviews-structured' },
    ],
  },
  {
    key: 'lesson.8',
    equations: [
      'Attention(Q, K, V) = softmax(Q K^T / √d) V',
      'head_j = Attention(Q W_j^Q, K W_j^K, V W_j^V)',
    ],
    widgets: [
      { label: 'lesson.8.dates', view: 'heads', model: 'tf-dates-absolute', input: '22 Nov 2026' },
      { label: 'lesson.8.induction', view: 'heads', model: 'tf-induction' },
    ],
  },
  {
    key: 'lesson.9',
    equations: ['e_{ij} = x_i W^Q (x_j W^K + a^K_{ij})^T / √d', 'a^K_{ij} = w^K_{clip(j − i, k)}'],
    widgets: [{ view: 'heads', model: 'tf-dates-relative', input: '22 Nov 2026', kind: 'encoder' }], // self-attention: where the offsets are
  },
  {
    key: 'lesson.10',
    equations: [],
    widgets: 'train',
  },
]);

/** How many steps the lesson has (the hash's step=N is 1…LESSON_STEP_COUNT). */
export const LESSON_STEP_COUNT = LESSON_STEPS.length;

/** An equation's markup, without its name. @param {LessonEquation} e */
export function equationSource(e) {
  return typeof e === 'string' ? e : e.eq;
}

/** The hide flags of a lesson widget: the page around it has the language switch and the links. */
export const LESSON_HIDE = 'views lang link card';

/**
 * An equation in the lesson's markup as parts: ['text', s], ['sub', s] or ['sup', s]. x_i and
 * x^T take one character, x_{…} and x^{…} the braces' contents (no nesting needed here).
 * @param {string} source @returns {Array<[string, string]>}
 */
export function equationParts(source) {
  /** @type {Array<[string, string]>} */
  const parts = [];
  let text = '';
  const chars = Array.from(source);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if ((c === '_' || c === '^') && i + 1 < chars.length) {
      if (text) parts.push(['text', text]);
      text = '';
      let arg;
      if (chars[i + 1] === '{') {
        const end = chars.indexOf('}', i + 2);
        const stop = end < 0 ? chars.length : end;
        arg = chars.slice(i + 2, stop).join('');
        i = stop;
      } else {
        arg = chars[i + 1];
        i += 1;
      }
      parts.push([c === '_' ? 'sub' : 'sup', arg]);
    } else text += c;
  }
  if (text) parts.push(['text', text]);
  return parts;
}

/** An equation back in its markup, normalised (x_i, x_{ti}): what the tests search. */
export function equationText(source) {
  const arg = (s) => (Array.from(s).length === 1 ? s : `{${s}}`);
  return equationParts(source)
    .map(([k, s]) => (k === 'text' ? s : `${k === 'sub' ? '_' : '^'}${arg(s)}`))
    .join('');
}

/** Words in an English text (whitespace-separated runs holding a letter or digit). */
export function countWords(text) {
  return String(text)
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/**
 * A Chinese text's length in English-word terms: each Han character counts one, each run of
 * Latin letters or digits (a name, a number, a formula) one.
 */
export function countChineseUnits(text) {
  const han = (String(text).match(/\p{Script=Han}/gu) ?? []).length;
  const latin = (String(text).match(/[A-Za-z0-9]+/g) ?? []).length;
  return han + latin;
}
