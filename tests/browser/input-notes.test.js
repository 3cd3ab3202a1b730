// input-notes.test.js: what <attn-demo> says under the input, in Chromium: the Examples menu of
// every view (picking one sets the input, runs it and puts it in the URL), the unknown words of
// every word-level view (the same list as Node's model.run), the dates views' domain warnings (a
// year outside the learned range, no digits) in English and Chinese, and none for a date inside
// it; no console errors.

import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { EXAMPLES, examplesFor } from '../../web/shared/examples.js';
import { cardSummary } from '../../web/shared/model-card.js';
import { YEAR_MAX } from '../../web/data/dates.js';
import { readingInput } from '../../web/views/reading-view.js';
import { screenshot } from './harness.js';
import { viewHarness } from './view-harness.js';

const harness = viewHarness('alignment');
let browser;
let page;
let problems;
before(async () => ({ browser, page, problems } = await harness.start()));

const key = (view, s) => viewHarness(view).stateKey(s);

async function open(view, s) {
  const k = key(view, s);
  await page.goto(`${browser.url}/web/#${k}`);
  await harness.waitDemo(page, '#demo', k);
}

/** The notes and the menu, read from the shadow DOM. */
function notes() {
  return page.locator('#demo').evaluate((el) => {
    const r = el.shadowRoot;
    const menu = r.querySelector('.examples-field');
    return {
      menuHidden: menu.hidden,
      options: Array.from(r.querySelectorAll('#examples option'), (o) => ({
        value: o.value,
        text: o.textContent,
      })),
      unknown: r.querySelector('.unknown-words').hidden
        ? null
        : r.querySelector('.unknown-words').textContent,
      warning: r.querySelector('.domain-warning').hidden
        ? null
        : r.querySelector('.domain-warning').textContent,
      input: r.querySelector('#input').value,
    };
  });
}

const VIEWS = [
  ['alignment', 'dates-additive', 'dates'],
  ['time', 'dates-dot', 'dates'],
  ['heads', 'tf-dates-relative', 'dates'],
  ['pooling', 'clf-reviews-attention', 'reviews'],
  ['reading', 'lm-agreement-lstmn', 'agreement'],
];

test('every view has an Examples menu; picking one runs it and puts it in the URL', async () => {
  for (const [view, model, task] of VIEWS) {
    await open(view, { model, input: EXAMPLES[task][0].input });
    const n = await notes();
    assert.equal(n.menuHidden, false, view);
    assert.ok(
      n.options.length >= EXAMPLES[task].length + 1,
      `${view}: ${n.options.length} options`,
    );
    assert.equal(n.options[1].text, `${EXAMPLES[task][0].input} — ${EXAMPLES[task][0].shows.en}`);
    const pick = EXAMPLES[task][1].input;
    const k = key(view, { model, input: pick });
    await page.locator('#demo').evaluate((el) => {
      const sel = el.shadowRoot.querySelector('#examples');
      sel.value = '1';
      sel.dispatchEvent(new Event('change'));
    });
    await harness.waitDemo(page, '#demo', k);
    assert.equal((await notes()).input, pick, view);
    assert.equal(
      new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('input'),
      pick,
    );
  }
});

test('word-level views list the words the model did not know, as Node does', async () => {
  for (const [view, model, text] of [
    ['pooling', 'clf-reviews-attention', 'The zorblax movie was great, qwertyuiop!'],
    ['reading', 'lm-agreement-lstm', 'The zorblax keys are on the table.'],
  ]) {
    await open(view, { model, input: text });
    const m = await harness.nodeModel(model);
    // the reading view normalises for files without tokenizer.normalize (readingInput)
    const own = m.tokenizer.normalization.includes('punctuation');
    const want = m.run(view === 'reading' && !own ? readingInput(text) : text).unknownWords;
    assert.ok(want.includes('zorblax'), `${model}: Node lists zorblax (${want})`);
    const n = await notes();
    if (view === 'reading') {
      // the reading view lists them in place (its own note), the shell does not repeat them
      assert.equal(n.unknown, null);
      const own = await page
        .locator('#demo')
        .evaluate((el) => el.shadowRoot.querySelector('.unknown-note').textContent);
      for (const w of want) assert.ok(own.includes(w), `${own} names ${w}`);
    } else {
      assert.ok(n.unknown?.endsWith(want.join(', ')), `${n.unknown} vs ${want}`);
    }
  }
  await open('pooling', { model: 'clf-reviews-attention', input: 'The movie was great.' });
  assert.equal((await notes()).unknown, null, 'no note when every word is known');
});

test('the dates views warn when the input is outside what the model learned', async () => {
  const far = `15 April ${YEAR_MAX + 58}`;
  for (const [view, model] of [
    ['alignment', 'dates-additive'],
    ['time', 'dates-general'],
    ['heads', 'tf-dates-absolute'],
    ['compare', 'dates-additive'],
  ]) {
    await open(view, { model, input: far });
    assert.match(
      (await notes()).warning ?? '',
      new RegExp(`Year ${YEAR_MAX + 58} is outside`),
      view,
    );
  }
  await open('alignment', { model: 'dates-additive', input: 'the day after tomorrow', lang: 'zh' });
  assert.match((await notes()).warning ?? '', /没有数字/);
  await screenshot(page, 'notes-dates-warning-zh');
  await open('alignment', { model: 'dates-additive', input: 'Monday, 22 November 2026' });
  assert.equal(
    (await notes()).warning,
    'The input says Monday, but 2026-11-22 is a Sunday: the model reads the numbers and ignores the weekday.',
  );
  await screenshot(page, 'notes-dates-weekday');
  await open('time', { model: 'dates-general', input: 'Nov 2026', lang: 'zh' });
  assert.equal(
    (await notes()).warning,
    '输入中没有日（模型学的是完整的日期：日、月、年），所以下面的日只是猜测。',
  );
  await open('alignment', { model: 'dates-additive', input: '22 Nov 2026' });
  assert.equal((await notes()).warning, null);
  await page.setViewportSize({ width: 390, height: 844 });
  await open('alignment', { model: 'dates-additive', input: far });
  await screenshot(page, 'notes-dates-warning-phone');
  const wide = await page
    .locator('#demo')
    .evaluate((el) => el.shadowRoot.querySelector('.domain-warning').scrollWidth <= 390);
  assert.ok(wide, 'the warning fits a phone');
  await page.setViewportSize({ width: 1280, height: 900 });
  assert.deepEqual(
    problems.filter((p) => !/favicon/.test(p)),
    [],
  );
});

test('on a phone the keyboard meets the examples menu before the input, as seen; focus stays', async () => {
  // demo-chrome.js: at 480 px and less the menu sits on the input's label row, and is moved
  // between the label and the input in the DOM (view-kit.js placeByWidth), not with CSS order
  const active = () =>
    page.evaluate(() => document.querySelector('#demo').shadowRoot.activeElement?.id ?? null);
  const frames = () =>
    page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.setViewportSize({ width: 1280, height: 900 });
  await open('alignment', { model: 'dates-additive', input: EXAMPLES.dates[0].input });
  await page.locator('#demo #input').focus();
  await page.keyboard.press('Tab');
  assert.equal(await active(), 'examples', 'wide: the menu right of the input, after it');
  await page.setViewportSize({ width: 390, height: 844 });
  await frames();
  assert.equal(await active(), 'examples', 'the menu keeps the focus across the move');
  await page.keyboard.press('Tab');
  assert.equal(await active(), 'input', 'phone: the input under the menu, after it');
  const seen = await page.locator('#demo').evaluate((el) => {
    const y = (s) => el.shadowRoot.querySelector(s).getBoundingClientRect().top;
    return { menu: y('#examples'), input: y('#input') };
  });
  assert.ok(seen.menu < seen.input, `the menu above the input: ${JSON.stringify(seen)}`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await frames();
  await page.keyboard.press('Tab');
  assert.equal(await active(), 'examples', 'wide again: the menu after the input');
});

test("examplesFor names the card's examples in the menu once the card has loaded", async () => {
  await open('pooling', { model: 'clf-reviews-attention', input: 'The movie was great.' });
  await page.waitForFunction(
    () => document.querySelector('#demo').shadowRoot.querySelector('.model-card'),
    null,
    { timeout: 10000 },
  );
  const card = await (await fetch(`${browser.url}/web/models/clf-reviews-attention.json`)).json();
  const want = examplesFor('reviews', cardSummary(card), 'en', 64).length;
  await page.waitForFunction(
    (n) =>
      document.querySelector('#demo').shadowRoot.querySelectorAll('#examples option').length ===
      n + 1,
    want,
    { timeout: 10000 },
  );
});
