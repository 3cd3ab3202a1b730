// web-i18n-plural.test.js: i18n.js plural(): counts in words with each language's plural forms
// (Intl.PluralRules), and every count key with the forms its languages need.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LANGUAGES, keys, plural, t } from '../../web/shared/i18n.js';

test('plural: English one and other; Chinese has one form', () => {
  assert.equal(plural('en', 'count.rows', 1), '1 row of weights');
  assert.equal(plural('en', 'count.rows', 2), '2 rows of weights');
  assert.equal(plural('en', 'count.rows', 0), '0 rows of weights');
  assert.equal(plural('en', 'count.words', 1), '1 word');
  assert.equal(plural('en', 'count.steps', 11), '11 steps');
  assert.equal(plural('zh', 'count.rows', 1), '1 行权重');
  assert.equal(plural('zh', 'count.rows', 2), '2 行权重');
  assert.equal(plural('zh-CN', 'count.words', 1), '1 个词');
  // in the sentences that carry them
  assert.equal(
    t('en', 'status.pooling', {
      words: plural('en', 'count.words', 1),
      rows: plural('en', 'count.rows', 1),
      ms: '1.0',
    }),
    '1 word, 1 row of weights in 1.0 ms.',
  );
  assert.equal(
    t('en', 'heads.grid', {
      layers: plural('en', 'count.layers', 1),
      heads: plural('en', 'count.heads', 4),
    }),
    '1 layer × 4 heads',
  );
});

test('every count key has "#one" and "#other" in every language, each with {n}', () => {
  for (const lang of LANGUAGES) {
    const counts = keys(lang).filter((k) => k.startsWith('count.'));
    assert.ok(counts.length >= 12, lang);
    for (const k of counts) {
      const [base, form] = k.split('#');
      assert.ok(['one', 'other'].includes(form), `${lang} ${k}: a plural form`);
      assert.ok(keys(lang).includes(`${base}#other`), `${lang} ${base}: #other`);
      assert.match(t(lang, k), /\{n\}/, `${lang} ${k}: the count`);
    }
  }
});
