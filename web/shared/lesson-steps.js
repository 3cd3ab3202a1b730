// lesson-steps.js: the guided lesson's ten steps as data (pure, no DOM; importable in Node).
//
//   import { LESSON_STEPS, equationParts } from './lesson-steps.js';
//   LESSON_STEPS[1].widgets[0]   // { view: 'alignment', model: 'dates-additive', input: '22 Nov 2026', … }
//   equationParts('c = Σ_i α_i h_i')   // [['c = Σ'], ['α'], ['sub', 'i'], …] for the DOM builder
//
// Holds: for each step (1-based number = index + 1) its i18n key stem (lesson.<n>.title / .short
// / .text / .try in i18n.js), its equations (in notation.js's markup: x_i, x_{t−1}, v^T, a^{K};
// in the lecture notes' notation, every symbol in glossary.js; an equation that needs a name,
// 'dot' or 'no attention', carries the name's i18n key), and its widget: the <attn-demo> settings
// of one or more variants (a step with two models, e.g. the self-attention RNN then the LSTMN,
// offers both, and only the chosen one is made), or 'cost' (step 5's live measurement,
// lesson-cost.js) or 'train' (step 10: links to the lab's presets). Deliberately holds no text
// (lesson-text.js) and no DOM (lesson-view.js).
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
    widgets: [
      { label: 'lesson.1.forgetting', view: 'forgetting', model: 'seq-reverse-attention' },
      // the mechanism of the model without attention: only h_m crosses to the decoder
      {
        label: 'lesson.1.mech',
        view: 'mechanism',
        model: 'dates-none',
        input: '22 Nov 2026',
      },
    ],
  },
  {
    key: 'lesson.2',
    equations: [
      'e_{ti} = v^T tanh(W s_{t−1} + U h_i + b)',
      'α_{ti} = exp(e_{ti}) / Σ_j exp(e_{tj})',
      'c_t = Σ_i α_{ti} h_i',
    ],
    widgets: [
      { label: 'lesson.2.map', view: 'alignment', model: 'dates-additive', input: '22 Nov 2026' },
      { label: 'lesson.mech', view: 'mechanism', model: 'dates-additive', input: '22 Nov 2026' },
    ],
  },
  {
    key: 'lesson.3',
    equations: [
      { label: 'lesson.eq.dot', eq: 'e_{ti} = s_t^T h_i' },
      { label: 'lesson.eq.general', eq: 'e_{ti} = s_t^T W_a h_i' },
      { label: 'lesson.eq.concat', eq: 'e_{ti} = v_a^T tanh(W_a [s_t; h_i])' },
      { label: 'lesson.eq.keyQuery', eq: 'k_i = W_K h_i,   q_t = W_Q s_t,   e_{ti} = k_i^T q_t' },
    ],
    widgets: [{ view: 'compare', model: 'dates-additive', input: '22 Nov 2026' }],
  },
  {
    key: 'lesson.4',
    equations: [
      'p_t = m · sigmoid(v_p^T tanh(W_p s_t))',
      'α_{ti} = softmax(e_t)_i · exp(−(i − p_t)² / 2σ²),   σ = D/2,   i ∈ [p_t − D, p_t + D]',
    ],
    widgets: [
      {
        label: 'lesson.4.time',
        view: 'time',
        model: 'dates-local-p',
        input: 'Sunday, 22 November 2026',
        step: 4,
      },
      {
        label: 'lesson.mech',
        view: 'mechanism',
        model: 'dates-local-p',
        input: 'Sunday, 22 November 2026',
        step: 4,
      },
    ],
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
    equations: ['h_t = tanh(W [x_t; c_{t−1}] + b)', 'c_{t−1} = Σ_{i≤t−1} α_{t−1,i} h_i'],
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
      {
        label: 'lesson.6.mech',
        view: 'mechanism',
        model: 'lm-agreement-sarnn',
        input: FBI_SENTENCE,
        step: 4,
      },
    ],
  },
  {
    key: 'lesson.7',
    equations: [
      { label: 'lesson.7.pooling', eq: 'α_t = softmax_t(u_w^T tanh(h_t)),   r = Σ_t α_t h_t' },
      { label: 'lesson.7.han', eq: 'u_t = tanh(W h_t + b),   α_t = softmax_t(u_t^T u_w)' },
      {
        label: 'lesson.7.structured',
        eq: 'A = softmax(W_{s2} tanh(W_{s1} H^T)),   M = A H,   P = ‖A A^T − I‖_F²',
      },
    ],
    widgets: [
      { label: 'lesson.7.pooling', view: 'pooling', model: 'clf-reviews-attention' },
      { label: 'lesson.7.han', view: 'pooling', model: 'clf-reviews-han' },
      { label: 'lesson.7.structured', view: 'pooling', model: 'clf-reviews-structured' },
      { label: 'lesson.7.mech', view: 'mechanism', model: 'clf-reviews-attention' },
    ],
  },
  {
    key: 'lesson.8',
    equations: [
      'Q = X W_Q,   K = X W_K,   V = X W_V',
      'Attention(Q, K, V) = softmax(Q K^T / √d_k) V',
      'head_j = Attention(X W_Q^j, X W_K^j, X W_V^j)',
    ],
    widgets: [
      { label: 'lesson.8.dates', view: 'heads', model: 'tf-dates-absolute', input: '22 Nov 2026' },
      { label: 'lesson.8.induction', view: 'heads', model: 'tf-induction' },
      {
        label: 'lesson.8.mech',
        view: 'mechanism',
        model: 'tf-dates-absolute',
        input: '22 Nov 2026',
        kind: 'cross',
      },
    ],
  },
  {
    key: 'lesson.9',
    equations: [
      'e_{ij} = x_i W_Q (x_j W_K + a^K_{ij})^T / √d_k',
      'a^K_{ij} = w^K_{clip(j − i, kₘₐₓ)}',
    ],
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

// The equation markup and its parser live in notation.js (the panel and the mechanism view use it
// too); re-exported here for the lesson's callers.
export { equationParts, equationText } from './notation.js';

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
