// may-be-wrong.test.js: issue 30's "may be wrong" warning and shaded output tokens in <attn-demo>,
// in Chromium, English and Chinese: an out-of-grammar sentence shows the warning (naming the
// weakest token and the model's threshold from its card) and tokens shaded and dotted under the
// threshold; an in-grammar sentence the model translates right shows neither; an input with an
// unknown word is warned; a typed date is not; the heads, time, compare and mechanism views (the
// picture's output boxes shaded and dotted as the output line's tokens) do the same. The
// numbers are the Node model's. Screenshots at 1280×720 and 390×844.

import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { mayBeWrong } from '../../web/shared/confidence.js';
import { compareSet } from '../../web/shared/models.js';
import { screenshot } from './harness.js';
import { viewHarness } from './view-harness.js';

const harness = viewHarness('alignment');
let page;
let problems;
before(async () => ({ page, problems } = await harness.start()));

const card = (name) =>
  JSON.parse(readFileSync(new URL(`../../web/models/${name}.json`, import.meta.url), 'utf8'));

/** What the view shows: the warning (null when hidden), the tokens and the legend. */
function shownConfidence(view) {
  return page.locator('#demo').evaluate(async (el, view) => {
    const r = el.shadowRoot;
    const sec = r.querySelector(`section[data-view="${view}"]`);
    const w = sec.querySelector('.may-be-wrong');
    return {
      warning: w.hidden ? null : w.textContent,
      legend: sec.querySelector('.token-legend').textContent,
      legendShown: !sec.querySelector('.token-legend').hidden,
      tokens: Array.from(sec.querySelectorAll('output .tok'), (s) => ({
        text: s.textContent,
        p: Number(s.dataset.p),
        below: s.hasAttribute('data-below'),
        title: s.title,
        shade: Number(s.style.getPropertyValue('--u')),
      })),
    };
  }, view);
}

/** Open view on model and input in lang, and wait until the card's threshold is in use. */
async function show(view, model, input, lang) {
  await harness.open({ view, model, input, lang });
  await page.waitForFunction(
    (view) =>
      document
        .querySelector('#demo')
        .shadowRoot.querySelector(`section[data-view="${view}"] .token-legend`)
        ?.textContent.match(/0\.\d/),
    view,
  );
  return shownConfidence(view);
}

async function nodeVerdict(model, input) {
  const m = await harness.nodeModel(model);
  const r = m.run(input);
  const v = mayBeWrong(
    { unknown: m.tokenizer.unknownWords(input), minProb: r.minProb },
    card(model).confidence.threshold,
  );
  return { r, v };
}

for (const lang of ['en', 'zh']) {
  test(`alignment view (${lang}): out of grammar warned and shaded, in grammar not`, async () => {
    const model = 'en-fr-dot';
    const threshold = card(model).confidence.threshold;
    // every word known, an order the grammar never writes: warned by the weak token alone
    const outside = 'him sees she .';
    const { r, v } = await nodeVerdict(model, outside);
    assert.ok(v.weak && v.unknown.length === 0, 'the Node verdict: weak token, no unknown word');
    let s = await show('alignment', model, outside, lang);
    assert.ok(s.warning, `${lang}: the warning is shown`);
    assert.match(s.warning, lang === 'en' ? /may be wrong/ : /可能是错的/);
    assert.ok(s.warning.includes(String(threshold)), `${lang}: names the threshold`);
    assert.ok(s.legendShown && s.legend.includes(String(threshold)), `${lang}: the legend`);
    assert.ok(s.tokens.length > 0);
    const dotted = s.tokens.filter((x) => x.below);
    assert.ok(dotted.length >= 1, 'a token dotted under the threshold');
    for (const x of s.tokens) {
      assert.equal(x.below, x.p < threshold, x.text);
      assert.ok(Math.abs(x.shade - (1 - x.p)) < 1e-3, `${x.text}: shade 1 − p`);
      assert.ok(x.title.includes('p = '), x.title);
    }
    // the page's probabilities are Node's (eos is not in the text)
    const own = [...r.probs].slice(0, s.tokens.length);
    s.tokens.forEach((x, i) => assert.ok(Math.abs(x.p - own[i]) < 1e-5, `token ${i}`));
    if (lang === 'en') await screenshot(page, 'may-be-wrong-1280-en');

    // in grammar, translated right: no warning, no dotted token
    s = await show('alignment', model, 'the cat sees the red car .', lang);
    assert.equal(s.warning, null, `${lang}: no warning in the grammar`);
    assert.equal(s.legendShown, false, `${lang}: nothing shaded enough to need the legend`);
    assert.equal(s.tokens.filter((x) => x.below).length, 0);
    assert.equal(s.tokens.map((x) => x.text).join(' '), 'le chat voit la voiture rouge .');

    // an unknown word: warned, and named
    s = await show('alignment', model, 'Where is the station?', lang);
    assert.ok(s.warning?.includes('“where”'), `${lang}: names the unknown word: ${s.warning}`);
  });
}

test('a typed date is not warned; a non-date is', async () => {
  let s = await show('alignment', 'dates-additive', '22 Nov 2026', 'en');
  assert.equal(s.warning, null);
  assert.equal(s.tokens.map((x) => x.text).join(''), '2026-11-22');
  s = await show('alignment', 'dates-additive', 'next tuesday', 'zh');
  assert.match(s.warning ?? '', /可能是错的/);
});

test('heads view: the transformer translator shades and warns too', async () => {
  let s = await show('heads', 'en-fr-transformer-relative', "I can't find my keys anywhere.", 'en');
  assert.match(s.warning ?? '', /may be wrong/);
  s = await show('heads', 'en-fr-transformer-relative', 'the cat sees the red car .', 'zh');
  assert.equal(s.warning, null);
  assert.deepEqual(problems, []);
});

test('time and compare views: the same warning and shading', async () => {
  const s = await show('time', 'en-fr-dot', 'him sees she .', 'en');
  assert.match(s.warning ?? '', /may be wrong/);
  assert.ok(s.tokens.some((x) => x.below));
  // compare: each model's figure with its own tokens (Node's probabilities) and its own verdict
  const input = 'him sees she .';
  const expected = {};
  for (const m of compareSet('en-fr-dot')) expected[m.name] = await nodeVerdict(m.name, input);
  assert.ok(Object.values(expected).some(({ v }) => v.warn));
  await harness.open({ view: 'compare', model: 'en-fr-dot', input, lang: 'zh' });
  const want = Object.fromEntries(Object.entries(expected).map(([k, { v }]) => [k, v.warn]));
  await page.waitForFunction((want) => {
    const r = document.querySelector('#demo').shadowRoot;
    const figs = [...r.querySelectorAll('section[data-view="compare"] figure')];
    return (
      figs.length === Object.keys(want).length &&
      figs.every((f) => !f.querySelector('.may-be-wrong').hidden === want[f.dataset.model])
    );
  }, want);
  const figs = await page.locator('#demo').evaluate((el) =>
    Array.from(el.shadowRoot.querySelectorAll('section[data-view="compare"] figure'), (f) => ({
      model: f.dataset.model,
      p: Array.from(f.querySelectorAll('.tok'), (x) => Number(x.dataset.p)),
    })),
  );
  for (const f of figs) {
    const { r } = expected[f.model];
    assert.ok(f.p.length > 0, f.model);
    f.p.forEach((p, i) => assert.ok(Math.abs(p - r.probs[i]) < 1e-5, `${f.model}: token ${i}`));
  }
  assert.deepEqual(problems, []);
});

/** The mechanism picture's output tokens: p, the shade drawn (fill-opacity) and the dotted mark. */
function shownMechanismTokens() {
  return page.locator('#demo').evaluate((el) =>
    Array.from(
      el.shadowRoot.querySelectorAll(
        'section[data-view="mechanism"] .mech-svg g.token[data-stage="output"]:not(.big)',
      ),
      (g) => ({
        text: g.querySelector('text').textContent,
        label: g.getAttribute('aria-label') ?? '',
        shade: Number(g.querySelector('rect.unsure')?.getAttribute('fill-opacity') ?? 0),
        below: !!g.querySelector('.below'),
      }),
    ),
  );
}

for (const lang of ['en', 'zh']) {
  test(`mechanism view (${lang}): the picture's output tokens shaded, the warning`, async () => {
    const model = 'en-fr-dot';
    const threshold = card(model).confidence.threshold;
    const outside = 'him sees she .';
    const { r } = await nodeVerdict(model, outside);
    const s = await show('mechanism', model, outside, lang);
    assert.match(s.warning ?? '', lang === 'en' ? /may be wrong/ : /可能是错的/);
    assert.ok(s.legendShown, 'the legend says what the shade means');
    const toks = await shownMechanismTokens();
    assert.deepEqual(
      toks.map((x) => x.text),
      r.tokens,
      'one box per written token (eos too)',
    );
    toks.forEach((x, i) => {
      const p = r.probs[i];
      assert.equal(x.text, r.tokens[i]);
      const want = 1 - p >= 0.01 ? 0.6 * (1 - p) : 0;
      assert.ok(Math.abs(x.shade - want) < 2e-3, `${x.text}: shade ${x.shade}, want ${want}`);
      assert.equal(x.below, p < threshold, `${x.text}: dotted iff p < ${threshold}`);
    });
    assert.ok(
      toks.some((x) => x.below),
      'the weakest token is dotted',
    );

    // in grammar: no warning, no dotted token
    const ok = await show('mechanism', model, 'the cat sees the red car .', lang);
    assert.equal(ok.warning, null);
    assert.equal((await shownMechanismTokens()).filter((x) => x.below).length, 0);
    assert.deepEqual(problems, []);
  });
}

test('screenshots: 1280×720 and 390×844, English and Chinese', async () => {
  for (const [w, h] of [
    [1280, 720],
    [390, 844],
  ]) {
    await page.setViewportSize({ width: w, height: h });
    for (const lang of ['en', 'zh']) {
      await show('alignment', 'en-fr-dot', "I can't find my keys anywhere.", lang);
      await page.screenshot({
        path: `tests/browser/screenshots/may-be-wrong-${w}-${lang}.png`,
      });
    }
  }
  assert.deepEqual(problems, []);
});
