// web-model-card.test.js: web/shared/model-card.js reads every shipped card (web/models/*.json) into the
// summary the page shows, with the numbers the card holds, and survives malformed cards.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { cardSummary, formatMetric, metricLabel } from '../../web/shared/model-card.js';
import { ALL_MODELS } from '../../web/shared/models.js';
import { metricName } from '../../web/shared/i18n.js';

const dir = new URL('../../web/models/', import.meta.url);
const cards = readdirSync(dir).filter(
  (f) => f.endsWith('.json') && f !== 'forgetting.json' && f !== 'translation-length.json',
);

test('every shipped model has a card, and the summary holds its fields and held-out numbers', () => {
  const trained = ALL_MODELS.filter((m) => m.trained);
  assert.equal(cards.length, trained.length, 'one card per trained model');
  for (const m of trained) {
    const card = JSON.parse(
      readFileSync(new URL(m.card, new URL('../../web/', import.meta.url)), 'utf8'),
    );
    const s = cardSummary(card);
    assert.equal(s.name, m.name);
    for (const k of ['task', 'architecture', 'generator', 'heldoutSet', 'command', 'machine'])
      assert.ok(s[k], `${m.name}: ${k}`);
    assert.equal(s.command, `node scripts/train.mjs ${m.name}`);
    assert.ok(s.parameters > 0 && s.bytes > 0 && s.seconds > 0, m.name);
    // each model under 500 KB; the review classifiers and the Brown language models (5,000-word
    // embeddings and output layers) under 2 MB
    const limit = /^(clf-reviews|lm-agreement)-/.test(m.name) ? 2048 : 500;
    assert.ok(s.bytes < limit * 1024, `${m.name}: ${s.bytes} bytes (under ${limit} KB)`);
    assert.ok(s.metrics.length > 0, m.name);
    for (const metric of s.metrics) {
      const [a, b] = metric.key.split('.');
      assert.equal(
        metric.value,
        b === undefined ? card.metrics.heldout[a] : card.metrics.heldout[a][b],
        `${m.name}: ${metric.key}`,
      );
    }
  }
});

test('labels and formats', () => {
  assert.equal(metricLabel('exactMatch'), 'exact match');
  assert.equal(metricLabel('agreement.accuracy'), 'agreement accuracy');
  assert.equal(metricLabel('aer'), 'AER');
  assert.equal(metricLabel('adjectiveAfter.aer'), 'adjective after AER');
  assert.equal(metricLabel('bleu'), 'BLEU');
  // the Chinese page names the measures it knows, and keeps the English label of the others
  assert.equal(metricName('zh', 'exactMatch', metricLabel('exactMatch')), '完全匹配率');
  assert.equal(
    metricName('zh', 'alignment.aer', metricLabel('alignment.aer')),
    '对齐错误率（AER）',
  );
  assert.equal(metricName('en', 'exactMatch', metricLabel('exactMatch')), 'exact match');
  assert.equal(
    metricName('zh', 'someNewMeasure', metricLabel('someNewMeasure')),
    'some new measure',
  );
  assert.equal(metricName('zh', 'toString', 'to string'), 'to string');
  assert.equal(formatMetric('exactMatch', 0.9995), '99.95%');
  assert.equal(formatMetric('repeatedHalf', 0.99966), '99.97%');
  assert.equal(formatMetric('perplexity', 7.74586), '7.7459');
  assert.equal(formatMetric('count', 2000), '2,000');
  assert.equal(formatMetric('accuracy', 3), '3'); // not a fraction: as is
  const dates = cardSummary(JSON.parse(readFileSync(new URL('dates-additive.json', dir), 'utf8')));
  assert.deepEqual(
    dates.metrics.map((m) => m.key),
    [
      'count',
      'exactMatch',
      'tokenAccuracy',
      'loss',
      'named.count',
      'named.exactMatch',
      'variations.count',
      'variations.exactMatch',
      'variations.tokenAccuracy',
    ],
  );
  assert.match(dates.architecture, /^cell lstm|lstm/);
});

test('malformed cards give a shorter summary, never an exception', () => {
  for (const bad of [
    null,
    7,
    'x',
    [],
    {},
    { metrics: { heldout: { a: NaN, b: 'x', c: [1], d: { e: Infinity } } } },
    { name: 42, task: { x: 1 }, architecture: [], training: { seconds: -0 }, data: null },
    { task: 'x'.repeat(5000) },
  ]) {
    const s = cardSummary(bad);
    assert.ok(Array.isArray(s.metrics));
    assert.equal(s.metrics.length, 0);
    if (typeof s.task === 'string') assert.ok(s.task.length <= 400);
  }
});
