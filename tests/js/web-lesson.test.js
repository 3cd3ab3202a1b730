// web-lesson.test.js: the guided lesson's data and URL state in Node (web/shared/lesson-steps.js,
// the lesson keys of web/shared/i18n.js, parseLessonStep / parseLessonParams / parsePageHash of
// web/shared/app-state.js). The page itself: tests/browser/lesson.test.js.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  LESSON_STEP_COUNT,
  formatPageHash,
  parseLessonParams,
  parseLessonStep,
  parsePageHash,
} from '../../web/shared/app-state.js';
import { LANGUAGES, keys, t } from '../../web/shared/i18n.js';
import { LESSON_EN, LESSON_ZH } from '../../web/shared/lesson-text.js'; // the lesson's strings, added to the tables
import {
  LESSON_STEPS,
  countChineseUnits,
  countWords,
  equationParts,
  equationSource,
  equationText,
} from '../../web/shared/lesson-steps.js';
import { findModel, modelFitsView, modelUrl } from '../../web/shared/models.js';
import { COST_MODELS, chartGeometry, costInput } from '../../web/views/lesson-cost.js';
import { quartiles } from '../../web/views/lesson-cost-stats.js';

const ORIGIN = 'http://127.0.0.1:8080';
/** The limit for a step's text, in English words. */
export const MAX_WORDS = 150;
/** The same in Chinese: Han characters plus Latin runs (a name, a formula); Chinese runs about
 * 1.5–1.8 characters per English word, so 150 words ≈ 250 of these. */
export const MAX_ZH_UNITS = 250;

test('ten steps, as the page and the URL count them', () => {
  assert.equal(LESSON_STEPS.length, 10);
  assert.equal(LESSON_STEP_COUNT, LESSON_STEPS.length);
});

test('every step has a title, a short name, a text and a prompt in every language, text within the limit', () => {
  for (const lang of LANGUAGES) {
    const table = new Set(keys(lang));
    for (const step of LESSON_STEPS) {
      for (const part of ['title', 'short', 'text', 'try'])
        assert.ok(table.has(`${step.key}.${part}`), `${lang}: ${step.key}.${part}`);
      const text = t(lang, `${step.key}.text`);
      if (lang === 'en')
        assert.ok(countWords(text) <= MAX_WORDS, `${step.key}: ${countWords(text)} words`);
      else
        assert.ok(
          countChineseUnits(text) <= MAX_ZH_UNITS,
          `${step.key} (${lang}): ${countChineseUnits(text)} units`,
        );
      assert.ok(
        countWords(t('en', `${step.key}.text`)) >= 40,
        `${step.key}: a real text, not a stub`,
      );
      if (lang === 'zh')
        assert.notEqual(text, t('en', `${step.key}.text`), `${step.key}: translated`);
    }
    for (const k of [
      'view.lesson',
      'lesson.title',
      'lesson.lede',
      'lesson.stepOf',
      'lesson.prev',
      'lesson.next',
      'lesson.try',
      'lesson.train.link',
      'lesson.cost.caption',
    ]) {
      assert.ok(table.has(k), `${lang}: ${k}`);
    }
  }
  // the variant buttons' labels
  for (const step of LESSON_STEPS) {
    if (!Array.isArray(step.widgets) || step.widgets.length < 2) continue;
    for (const w of step.widgets)
      for (const lang of LANGUAGES) assert.ok(keys(lang).includes(w.label), `${lang}: ${w.label}`);
  }
});

test('the word counts count words', () => {
  // symbols with a letter count as words (c, Σ, αᵢ, hᵢ): a formula in the text costs its length
  assert.equal(countWords('c = Σ αᵢ hᵢ, a weighted average (2015).'), 8);
  assert.equal(countWords(''), 0);
  assert.equal(countChineseUnits('注意力 RNN 读 FBI 这句话 2016'), 10); // 7 characters, 3 Latin runs
});

test('each widget names a shipped model its view draws; the steps follow the issue', () => {
  const views = LESSON_STEPS.map((s) =>
    Array.isArray(s.widgets) ? s.widgets.map((w) => w.view) : [s.widgets],
  );
  assert.deepEqual(views, [
    ['forgetting', 'mechanism'],
    ['alignment', 'mechanism'],
    ['compare'],
    ['time', 'mechanism'],
    ['cost'],
    ['reading', 'reading', 'mechanism'],
    ['pooling', 'pooling', 'pooling', 'mechanism'],
    ['heads', 'heads', 'mechanism'],
    ['heads'],
    ['train'],
  ]);
  // the mechanism view draws the step's own model: the bottleneck of the model without attention,
  // the additive and local-p dates models, the self-attention RNN, attention pooling, a head
  assert.deepEqual(
    LESSON_STEPS.map((s) =>
      Array.isArray(s.widgets)
        ? (s.widgets.find((w) => w.view === 'mechanism')?.model ?? null)
        : null,
    ),
    [
      'dates-none',
      'dates-additive',
      null,
      'dates-local-p',
      null,
      'lm-agreement-sarnn',
      'clf-reviews-attention',
      'tf-dates-absolute',
      null,
      null,
    ],
  );
  assert.equal(LESSON_STEPS[1].widgets[0].model, 'dates-additive');
  assert.equal(LESSON_STEPS[3].widgets[0].model, 'dates-local-p');
  assert.deepEqual(
    LESSON_STEPS[5].widgets.map((w) => w.model),
    ['lm-agreement-sarnn', 'lm-agreement-lstmn', 'lm-agreement-sarnn'],
  );
  assert.deepEqual(
    LESSON_STEPS[6].widgets.map((w) => w.model),
    ['clf-reviews-attention', 'clf-reviews-han', 'clf-reviews-structured', 'clf-reviews-attention'],
  );
  assert.equal(LESSON_STEPS[8].widgets[0].model, 'tf-dates-relative');
  for (const step of LESSON_STEPS) {
    if (!Array.isArray(step.widgets)) continue;
    for (const w of step.widgets) {
      const entry = findModel(w.model);
      assert.ok(entry, w.model);
      assert.ok(modelFitsView(w.model, w.view), `${w.model} in ${w.view}`);
      assert.ok(existsSync(fileURLToPath(modelUrl(entry))), `${w.model}: the file ships`);
    }
  }
  for (const name of Object.values(COST_MODELS))
    assert.ok(existsSync(fileURLToPath(modelUrl(findModel(name)))), name);
});

test("the issue's equations are there", () => {
  const all = LESSON_STEPS.flatMap((s) =>
    s.equations.map((e) => equationText(equationSource(e))),
  ).join('\n');
  // an equation's name is an i18n key of both languages
  for (const e of LESSON_STEPS.flatMap((s) => s.equations)) {
    if (typeof e !== 'string')
      for (const lang of LANGUAGES) assert.ok(keys(lang).includes(e.label), `${lang}: ${e.label}`);
  }
  for (const eq of [
    'c_t = Σ_i α_{ti} h_i',
    'k_i = W_K h_i',
    'q_t = W_Q s_t',
    'e_{ti} = k_i^T q_t',
    'h_t = tanh(W [x_t; c_{t−1}] + b)',
    'O(m + t)',
    'O(m · t)',
  ]) {
    assert.ok(all.includes(eq), eq);
  }
});

test('equation markup: one-character and braced sub- and superscripts', () => {
  assert.deepEqual(equationParts('c_{t−1} = Σ_i α_{ti} h_i'), [
    ['text', 'c'],
    ['sub', 't−1'],
    ['text', ' = Σ'],
    ['sub', 'i'],
    ['text', ' α'],
    ['sub', 'ti'],
    ['text', ' h'],
    ['sub', 'i'],
  ]);
  assert.deepEqual(equationParts('v^T x'), [
    ['text', 'v'],
    ['sup', 'T'],
    ['text', ' x'],
  ]);
  assert.deepEqual(equationParts('a^K_{ij}'), [
    ['text', 'a'],
    ['sup', 'K'],
    ['sub', 'ij'],
  ]);
  assert.deepEqual(equationParts('x_'), [['text', 'x_']], 'a trailing marker is text');
  assert.deepEqual(
    equationParts('x_{ab'),
    [
      ['text', 'x'],
      ['sub', 'ab'],
    ],
    'an unclosed brace ends at the end',
  );
});

test('the step in a URL: 1 … 10, anything else refused (step 1)', () => {
  assert.deepEqual(parseLessonStep(null), { step: 1, refused: false });
  for (let n = 1; n <= 10; n++)
    assert.deepEqual(parseLessonStep(String(n)), { step: n, refused: false });
  for (const bad of [
    '0',
    '11',
    '99',
    '-1',
    '+2',
    '2.5',
    '02x',
    ' 3',
    '',
    'abc',
    '<script>',
    '1e1',
    '٣',
    '100',
  ]) {
    assert.deepEqual(parseLessonStep(bad), { step: 1, refused: true }, JSON.stringify(bad));
  }
  assert.deepEqual(
    parseLessonStep('03'),
    { step: 3, refused: false },
    'a leading zero is still the number',
  );
});

test('the page hash: #view=lesson&step=N&lang=… round-trips; a bad step is named, the rest kept', () => {
  for (const lang of LANGUAGES) {
    for (let n = 1; n <= 10; n++) {
      const p = parsePageHash(`#view=lesson&step=${n}&lang=${lang}`, ORIGIN);
      assert.equal(p.view, 'lesson');
      assert.equal(p.lesson, n);
      assert.equal(p.lang, lang);
      assert.deepEqual(p.refused, []);
      assert.equal(formatPageHash(p), `#view=lesson&step=${n}&lang=${lang}`);
    }
  }
  const bad = parsePageHash('#view=lesson&step=12&lang=zh', ORIGIN);
  assert.deepEqual([bad.view, bad.lesson, bad.lang, bad.refused], ['lesson', 1, 'zh', ['step']]);
  const long = parsePageHash(`#view=lesson&step=${'9'.repeat(5000)}`, ORIGIN);
  assert.deepEqual([long.lesson, long.refused], [1, ['step']]);
  assert.deepEqual(parsePageHash('#view=lesson', ORIGIN).refused, []);
  // the reading view's step is its own: 3 there is a position, not a lesson step
  const reading = parsePageHash('#view=reading&step=30', ORIGIN);
  assert.deepEqual([reading.step, reading.lesson, reading.refused], [30, 1, []]);
  assert.equal(parsePageHash('#view=lesson&step=4', ORIGIN).step, null);
});

test("the embed page's lesson parameters", () => {
  const q = (s) => parseLessonParams(new URLSearchParams(s));
  assert.deepEqual(q('view=lesson&step=3&lang=zh'), {
    view: 'lesson',
    step: 3,
    lang: 'zh',
    refused: [],
  });
  assert.deepEqual(q('view=lesson'), { view: 'lesson', step: 1, lang: 'en', refused: [] });
  assert.deepEqual(q('view=lesson&step=0&lang=fr'), {
    view: 'lesson',
    step: 1,
    lang: 'en',
    refused: ['step', 'lang'],
  });
  assert.deepEqual(q(`view=lesson&step=${'1'.repeat(3000)}`).refused, ['step']);
});

test("step 5: fixed inputs over a–t, a median, the chart's points inside its box", () => {
  assert.equal(costInput(60).length, 60);
  assert.match(costInput(60), /^[a-t]{60}$/);
  assert.equal(costInput(20), costInput(60).slice(0, 20));
  assert.equal(new Set(costInput(60)).size > 10, true, 'not one repeated letter');
  assert.equal(quartiles([3, 1, 2]).median, 2);
  assert.equal(quartiles([4, 1, 3, 2]).median, 2.5);
  const g = chartGeometry(
    [
      { m: 5, nonePer: 10, attnPer: 12 },
      { m: 60, nonePer: 9, attnPer: 30 },
    ],
    520,
    220,
  );
  for (const line of [g.none, g.attn]) {
    for (const pt of line.split(' ')) {
      const [x, y] = pt.split(',').map(Number);
      assert.ok(
        x >= g.pad.left && x <= 520 - g.pad.right && y >= g.pad.top && y <= 220 - g.pad.bottom,
        pt,
      );
    }
  }
  assert.ok(g.yTicks.at(-1).v >= 30, 'the y axis reaches the largest value');
});

test("the prompts' example inputs are ones the models read (no unknown words, the right date)", async () => {
  const { init, loadModel } = await import('../../wasm/index.js');
  const { readFileSync } = await import('node:fs');
  await init();
  const load = async (name) =>
    loadModel(new Uint8Array(readFileSync(fileURLToPath(modelUrl(findModel(name))))));
  for (const [name, input] of [
    ['dates-additive', 'November 22, 2026'],
    ['dates-local-p', 'November 22nd, 2026'],
    ['tf-dates-relative', 'Sunday, 22 Nov 2026'],
  ]) {
    const model = await load(name);
    assert.equal(model.run(input).output, '2026-11-22', `${name}: ${input}`);
    model.dispose();
  }
  for (const key of ['lesson.2.try', 'lesson.4.try', 'lesson.9.try'])
    assert.match(t('en', key), /2026/);
  const clf = await load('clf-reviews-attention');
  const before = clf.classify(findModel('clf-reviews-attention').sample);
  const after = clf.classify(findModel('clf-reviews-attention').sample.replace('boring', 'lovely'));
  assert.deepEqual(after.unknownWords, [], '“lovely” is in the vocabulary');
  assert.notEqual(after.label, before.label, 'the prompt’s one-word change flips the label');
  clf.dispose();
});

test("the steps' texts load with the lesson, not with the first view: i18n.js holds none, lesson-text.js adds them once", async () => {
  const { readFile } = await import('node:fs/promises');
  // i18n.js and its tables (web/shared/i18n/*.js)
  const files = [
    'i18n.js',
    'i18n/en.js',
    'i18n/zh.js',
    'i18n/files.js',
    'i18n/names.js',
    'i18n/honesty.js',
  ];
  const source = (
    await Promise.all(
      files.map((f) => readFile(new URL(`../../web/shared/${f}`, import.meta.url), 'utf8')),
    )
  ).join('\n');
  const inI18n = [...source.matchAll(/^ {2}'(lesson\.[^']+)':/gm)].map((m) => m[1]);
  assert.deepEqual(
    [...new Set(inI18n)].sort(),
    ['lesson.failed', 'lesson.lede', 'lesson.title'],
    "only the page's own lesson strings",
  );
  assert.deepEqual(
    Object.keys(LESSON_EN).sort(),
    Object.keys(LESSON_ZH).sort(),
    'the same keys in both languages',
  );
  for (const [key, text] of Object.entries(LESSON_EN)) assert.equal(t('en', key), text, key);
  for (const [key, text] of Object.entries(LESSON_ZH)) assert.equal(t('zh', key), text, key);
  const { addStrings } = await import('../../web/shared/i18n.js');
  addStrings({ en: LESSON_EN, zh: LESSON_ZH }); // loading it twice changes nothing
  assert.throws(
    () => addStrings({ en: { 'lesson.1.title': 'something else' } }),
    /"lesson\.1\.title" is already in the en table/,
  );
  assert.equal(t('en', 'lesson.1.title'), LESSON_EN['lesson.1.title']);
});
