// web-examples.test.js: the Examples menus (web/shared/examples.js) and the domain warnings
// (web/shared/domain.js): every example fits the page's input, runs on every shipped model of its
// task without unknown words where the model reads words, and the cards' examples are merged in;
// dates outside the learned years, without digits or too long are warned about in both languages.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { init, loadModel } from '../../wasm/index.js';
import { EXAMPLES, PHENOMENON_LABELS, examplesFor } from '../../web/shared/examples.js';
import { domainWarnings } from '../../web/shared/domain.js';
import { t } from '../../web/shared/i18n.js';
import { cardSummary } from '../../web/shared/model-card.js';
import { MAX_INPUT } from '../../web/shared/app-state.js';
import { ALL_MODELS, findModel } from '../../web/shared/models.js';
import { YEAR_MAX, YEAR_MIN } from '../../web/data/dates.js';
import { PHENOMENA, TRANSLATION_EXAMPLES, parseEnglish } from '../../web/data/translation.js';

const web = new URL('../../web/', import.meta.url);
const shipped = ALL_MODELS.filter((m) => m.trained && m.task);

test('every example fits the input field, and every shipped model of a task runs each one', async () => {
  await init();
  for (const [task, list] of Object.entries(EXAMPLES)) {
    assert.ok(list.length >= 2, task);
    for (const e of list) {
      assert.ok(e.input.length > 0 && e.input.length <= MAX_INPUT, `${task}: ${e.input}`);
      assert.ok(e.shows.en && e.shows.zh, `${task}: ${e.input} has both languages`);
    }
  }
  for (const entry of shipped) {
    const model = await loadModel(readFileSync(new URL(entry.file, web)));
    try {
      const card = cardSummary(JSON.parse(readFileSync(new URL(entry.card, web), 'utf8')));
      const own = new Set(EXAMPLES[entry.task].map((e) => e.input));
      for (const { input } of examplesFor(entry.task, card, 'en', MAX_INPUT)) {
        const r = model.run(input);
        assert.ok(r, `${entry.name}: ${input}`);
        // the page's own examples use known words only (a card's may show an unknown one on purpose)
        if (
          own.has(input) &&
          model.tokenizer.type === 'word' &&
          model.tokenizer.normalization.includes('punctuation')
        ) {
          assert.deepEqual(r.unknownWords, [], `${entry.name}: every word of "${input}" is known`);
        }
      }
    } finally {
      model.dispose();
    }
  }
});

test("examplesFor: the task list, then the card's best and limit once each, in the asked language", () => {
  const card = cardSummary({
    examples: { best: ['22 Nov 2026', '2026-11-22', 'x'.repeat(65)], limit: 'tomorrow' },
  });
  assert.deepEqual(card.examples, { best: ['22 Nov 2026', '2026-11-22'], limit: 'tomorrow' });
  const en = examplesFor('dates', card, 'en', MAX_INPUT);
  assert.equal(en.length, EXAMPLES.dates.length + 2, 'the ISO example is not repeated');
  assert.deepEqual(
    en.slice(-2).map((e) => e.input),
    ['22 Nov 2026', 'tomorrow'],
  );
  assert.match(en.at(-1).shows, /limit/);
  const zh = examplesFor('dates', card, 'zh', MAX_INPUT);
  assert.equal(zh[0].shows, EXAMPLES.dates[0].shows.zh);
  assert.deepEqual(examplesFor(undefined, null, 'en'), [], 'a path without a card has no examples');
  assert.deepEqual(
    examplesFor('__proto__', { examples: { best: 'not a list', limit: 7 } }, 'en'),
    [],
  );
  assert.deepEqual(cardSummary({ examples: { best: [1, null, ''], limit: ['x'] } }).examples, {
    best: [],
    limit: null,
  });
  assert.deepEqual(
    cardSummary({
      examples: {
        best: [{ text: 'The dog runs.', perplexity: 3 }, { text: 7 }],
        limit: { text: 'x'.repeat(65) },
      },
    }).examples,
    { best: ['The dog runs.'], limit: null },
    "objects with text (the language models' cards)",
  );
});

test("translation: the generator's examples, one label per phenomenon in both languages, the card's merged in", () => {
  assert.deepEqual(
    EXAMPLES.translation.map((e) => [e.phenomenon, e.input]),
    TRANSLATION_EXAMPLES.map((e) => [e.phenomenon, e.src]),
    'examples.js lists web/data/translation.js TRANSLATION_EXAMPLES, in order',
  );
  assert.deepEqual(
    Object.keys(PHENOMENON_LABELS).sort(),
    [...PHENOMENA].sort(),
    'a label for every phenomenon, and no other',
  );
  for (const [p, label] of Object.entries(PHENOMENON_LABELS))
    assert.ok(label.en && label.zh && label.en !== label.zh, p);
  for (const e of EXAMPLES.translation) {
    assert.equal(e.shows, PHENOMENON_LABELS[e.phenomenon]);
    const ex = parseEnglish(e.input);
    assert.ok(ex, `the generator writes "${e.input}"`);
    assert.ok(ex.phenomena.includes(e.phenomenon), `"${e.input}" shows ${e.phenomenon}`);
  }
  const en = examplesFor(
    'translation',
    cardSummary({
      examples: { best: ['the cat sees the red car .', 'she likes the dog .'], limit: 'the dog .' },
    }),
    'en',
    MAX_INPUT,
  );
  assert.equal(
    en.length,
    EXAMPLES.translation.length + 2,
    "the card's first best one is already listed",
  );
  assert.equal(en[0].shows, PHENOMENON_LABELS['adjective-after'].en);
  assert.deepEqual(
    en.slice(-2).map((e) => e.input),
    ['she likes the dog .', 'the dog .'],
  );
  assert.equal(
    examplesFor('translation', null, 'zh')[9].shows,
    PHENOMENON_LABELS['adjectives-reversed'].zh,
  );
  for (const m of ALL_MODELS.filter((e) => e.task === 'translation')) {
    assert.ok(parseEnglish(m.sample), `${m.name}: the sample "${m.sample}" has a gold alignment`);
    assert.ok(m.sample.length <= MAX_INPUT, m.name);
  }
});

test('domain warnings: a year outside the learned range, no digits, too long; none inside', () => {
  const dates = findModel('dates-additive');
  const quiet = [
    '22 Nov 2026',
    `1 January ${YEAR_MIN}`,
    `31 December ${YEAR_MAX}`,
    '11/22/26',
    'Sunday, 22 November 2026',
  ];
  for (const input of quiet) assert.deepEqual(domainWarnings(dates, null, input, 'en'), [], input);
  const [above] = domainWarnings(dates, null, `15 April ${YEAR_MAX + 58}`, 'en');
  assert.match(above, new RegExp(`Year ${YEAR_MAX + 58} is outside.*${YEAR_MIN}–${YEAR_MAX}`));
  const [below] = domainWarnings(dates, null, `5 May ${YEAR_MIN - 150}`, 'zh');
  assert.match(below, new RegExp(`${YEAR_MIN - 150} 年不在`));
  assert.match(domainWarnings(dates, null, 'the day after tomorrow', 'en')[0], /no digits/);
  assert.ok(
    domainWarnings(
      dates,
      null,
      `Sunday, the 22nd of November in the year of our lord ${2026}`,
      'en',
    ).some((w) => /characters/.test(w)),
  );
  assert.deepEqual(domainWarnings(dates, null, 'Nov 2026', 'en'), [t('en', 'domain.noDay')]);
  assert.deepEqual(domainWarnings(dates, null, 'Monday, 22 November 2026', 'en'), [
    'The input says Monday, but 2026-11-22 is a Sunday: the model reads the numbers and ignores the weekday.',
  ]);
  assert.deepEqual(domainWarnings(dates, null, 'Monday, 22 November 2026', 'zh'), [
    '输入写的是星期一，但 2026-11-22 是星期日：模型只读数字，不看星期几。',
  ]);
  // other tasks and paths have no date rules
  assert.deepEqual(
    domainWarnings(findModel('clf-reviews-attention'), null, 'the year 3050', 'en'),
    [],
  );
  assert.deepEqual(domainWarnings(null, null, 'the year 3050', 'en'), []);
});

test('domain warnings of the translators: a sentence the generator never writes, or too long; none for its own sentences (both languages)', async () => {
  const mt = findModel('en-fr-dot');
  // the first call loads web/data/translation.js: [] until then, and onReady once it is loaded
  let ready;
  const loaded = new Promise((resolve) => {
    ready = resolve;
  });
  assert.deepEqual(domainWarnings(mt, null, 'him sees she', 'en', ready), []);
  await loaded;
  for (const input of [
    'the cat sees the red car .',
    'She sees him',
    'she sees him?',
    'I do not see the dog!',
    "my brother's dog likes the white house",
    ...TRANSLATION_EXAMPLES.map((e) => e.src),
  ]) {
    assert.deepEqual(domainWarnings(mt, null, input, 'en'), [], input);
  }
  assert.deepEqual(domainWarnings(mt, null, 'him sees she', 'en'), [t('en', 'domain.grammar')]);
  assert.deepEqual(domainWarnings(mt, null, 'the the cat', 'zh'), [t('zh', 'domain.grammar')]);
  // unknown words are the page's other note, not a warning here
  assert.deepEqual(domainWarnings(mt, null, 'the movie was great .', 'en'), []);
  const long = Array.from({ length: 8 }, () => 'the cat sees the dog').join(' and ');
  assert.deepEqual(domainWarnings(mt, null, long, 'en'), [
    t('en', 'domain.tooManyWords', { words: 47, max: 30 }),
  ]);
  assert.match(domainWarnings(mt, null, long, 'zh')[0], /47 个词/);
  assert.deepEqual(domainWarnings(mt, null, '   ', 'en'), []);
});
