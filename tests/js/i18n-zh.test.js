// i18n-zh.test.js: the Chinese table of web/shared/i18n.js is a translation, in Node.
//
// Checks: every zh string holds Chinese (or is one of the few that are a formula or a name in
// both languages, listed below), so an English string copied into the zh table fails here before
// the browser walk (tests/browser/i18n-walk.test.js) sees it; every held-out measure of every
// shipped model card (web/models/*.json, read as model-card.js reads them) and every architecture
// field the cards show has a Chinese name; every task of a shipped card has its Chinese
// description, data and held-out set (renderCard's card.taskText.*, card.about.*).

import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { archName, keys, metricName, t } from '../../web/shared/i18n.js';
import '../../web/shared/lesson-text.js'; // the lesson's strings, added to the tables as the lesson adds them
import { cardSummary } from '../../web/shared/model-card.js';
import { ALL_MODELS, cardUrl } from '../../web/shared/models.js';

const CJK = /[\u3400-\u4dbf\u4e00-\u9fff]/;

/** zh strings that are the same symbols in both languages: formulas, and a model's name. */
const SAME_IN_BOTH = new Set([
  'explain.exp', // exp(eₜⱼ − max)
  'explain.sum', // Σₖ exp(eₜₖ − max)
  'explain.softmax', // softmax
  'family.transformer', // Transformer: the architecture's name, written so in Chinese texts
  'heads.grid', // {layers} × {heads}: both counts are plural() phrases, Chinese in the zh table
  'lesson.colon', // '：', the full-width colon itself
  'lesson.6.lstmn', // LSTMN: the model's name (Cheng, Dong & Lapata 2016)
  'lesson.7.han', // HAN: the model's name (Yang et al. 2016)
]);

test('every zh string is Chinese, except formulas and names, and none is a copy of the English', () => {
  const bad = [];
  for (const key of keys('zh')) {
    const zh = t('zh', key);
    if (SAME_IN_BOTH.has(key)) continue;
    if (!CJK.test(zh)) bad.push(`${key}: ${JSON.stringify(zh)} holds no Chinese`);
    else if (zh === t('en', key)) bad.push(`${key}: the same as the English`);
  }
  assert.deepEqual(bad, []);
  for (const key of SAME_IN_BOTH) assert.ok(keys('zh').includes(key), `${key} is still a key`);
});

test('every measure and architecture field of the shipped model cards has a Chinese name', async () => {
  const dir = new URL('../../web/models/', import.meta.url);
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json'));
  const missing = new Set();
  let cards = 0;
  for (const f of files) {
    const doc = JSON.parse(await readFile(new URL(f, dir), 'utf8'));
    if (!doc.metrics) continue; // forgetting.json, translation-length.json: curves, not cards
    cards++;
    const s = cardSummary(doc);
    for (const m of s.metrics)
      if (metricName('zh', m.key, m.label) === m.label) missing.add(`metric ${m.key} (${f})`);
    for (const { key, value } of s.archParts) {
      if (typeof value === 'string') continue; // a config identifier, shown as code in both languages
      const k = value === false ? `!${key}` : key;
      if (archName('zh', k, k) === k) missing.add(`architecture ${k} (${f})`);
    }
  }
  assert.ok(cards >= 20, `read the cards (${cards})`);
  assert.deepEqual([...missing], []);
});

test('every task of a model with a card has its description, data and held-out set in Chinese', () => {
  const tasks = new Set(ALL_MODELS.filter((m) => cardUrl(m)).map((m) => m.task));
  assert.ok(tasks.size >= 5, [...tasks].join(', '));
  for (const task of tasks) {
    for (const key of [
      `card.taskText.${task}`,
      `card.about.${task}.data`,
      `card.about.${task}.heldout`,
    ]) {
      assert.ok(keys('zh').includes(key), `${key} (model-card.js shows it on the Chinese page)`);
    }
  }
});

test("errorDetail: the library's English message stays as it is in English; in Chinese its kind by code, the original quoted", async () => {
  const { errorDetail } = await import('../../web/shared/i18n.js');
  const { STATUS_NAMES, AttnlabError } = await import('../../wasm/core.js');
  const { init, loadModel } = await import('../../wasm/index.js');
  await init();
  let real;
  try {
    await loadModel(new Uint8Array([1, 2, 3]));
  } catch (err) {
    real = err;
  }
  assert.ok(real instanceof AttnlabError, 'the loader throws an AttnlabError on 3 bytes');
  assert.equal(errorDetail('en', real), real.message);
  const zh = errorDetail('zh', real);
  assert.ok(zh.includes(`“${real.message}”`), zh);
  assert.match(zh.slice(0, zh.indexOf('（')), /[\u4e00-\u9fff]/, `${zh}: a Chinese kind first`);
  // every status code but AL_OK has its own Chinese kind; an error without a code is the browser's
  const kinds = new Set();
  for (const code of STATUS_NAMES.slice(1)) {
    const text = errorDetail('zh', new AttnlabError('x', code));
    assert.match(text, /^[^“]*[\u4e00-\u9fff][^“]*（原文：“x”）$/, `${code}: ${text}`);
    kinds.add(text);
  }
  assert.equal(kinds.size, STATUS_NAMES.length - 1, 'one kind per code');
  assert.equal(
    errorDetail('zh', new SyntaxError('Unexpected token')),
    '浏览器报告的错误（原文：“Unexpected token”）',
  );
  assert.equal(errorDetail('zh', 'plain'), '浏览器报告的错误（原文：“plain”）');
  assert.equal(errorDetail('en', null), 'null');
});
