// selects.test.js: no select is cut off (issue 29, "Designed for the projector"), in Chromium.
//
// Walks the page at 1280 × 720 and at 390 × 844, in English and Chinese: every view of
// <attn-demo> (app-state.js VIEWS, read from the code, so a view added later is covered), the
// heads and mechanism views on an encoder-decoder transformer (their sublayer select, set to its
// longest choice, cross-attention), the playground, each of the lesson's steps and the lab with
// every disclosure open (an RNN's settings and a transformer's). For every visible select (in the document and in every shadow root) it
// measures the selected option's text in the select's own computed font (canvas measureText) and
// asserts that it fits the select's content box: its clientWidth minus its left and right padding
// (the right padding holds the arrow). A select whose chosen option does not fit shows it with an
// ellipsis, which is what this test forbids.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LESSON_STEP_COUNT, VIEWS } from '../../web/shared/app-state.js';
import { screenshot, startBrowser } from './harness.js';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
];

let browser;
let page;
let problems;

before(async () => {
  browser = await startBrowser();
  ({ page, problems } = await browser.newPage());
});

after(async () => {
  await browser?.close();
});

/** The pages to walk, as hashes of web/index.html (lang added by the test). */
const HASHES = [
  ...VIEWS.map((view) => `#view=${view}`),
  '#view=heads&model=en-fr-transformer-relative&kind=cross',
  '#view=mechanism&model=en-fr-transformer-relative&kind=cross',
  '#view=playground',
  ...Array.from({ length: LESSON_STEP_COUNT }, (_, i) => `#view=lesson&step=${i + 1}`),
  '#view=lab',
  '#view=lab&preset=transformer-positions', // the transformer's settings
];

/** Open web/index.html on hash, wait until it is drawn, and open every disclosure of the lab. */
async function open(hash) {
  await page.goto(`${browser.url}/web/index.html${hash}`);
  await page.waitForFunction(() => document.getElementById('app').dataset.state === 'ready', null, {
    timeout: 20000,
  });
  await page.waitForFunction(
    () => document.getElementById('app').dataset.rendered === location.hash,
    null,
    { timeout: 30000 },
  );
  if (hash.includes('view=lab')) {
    await page.evaluate(async () => {
      const lab = document.querySelector('attn-lab');
      await lab.whenReady();
      for (const d of lab.shadowRoot.querySelectorAll('details')) d.open = true;
    });
  }
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
  );
}

/** Every visible select whose chosen option does not fit its content box: [{ id, text, text px,
 * room px }]. Measured in the select's own font. */
function cutSelects() {
  return page.evaluate(() => {
    const ctx = document.createElement('canvas').getContext('2d');
    const out = [];
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.shadowRoot) walk(el.shadowRoot);
        if (el.localName !== 'select') continue;
        if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
        if (el.getBoundingClientRect().width === 0) continue;
        const option = el.selectedOptions[0];
        if (!option) continue;
        const cs = getComputedStyle(el);
        ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const text = option.label || option.text;
        const need = ctx.measureText(text).width;
        const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
        if (need > room + 0.5) {
          const where = el.getRootNode().host?.localName ?? 'page';
          out.push({
            select: `${where} select#${el.id || el.className}`,
            text,
            need: Math.ceil(need),
            room: Math.floor(room),
          });
        }
      }
    };
    walk(document);
    return out;
  });
}

for (const size of SIZES) {
  for (const lang of ['en', 'zh']) {
    test(`${size.width} × ${size.height}, ${lang}: every select shows its whole chosen option`, async () => {
      await page.setViewportSize(size);
      const cut = [];
      let checked = 0;
      for (const hash of HASHES) {
        await open(`${hash}&lang=${lang}`);
        checked += await page.evaluate(() => {
          let n = 0;
          const walk = (root) => {
            for (const el of root.querySelectorAll('*')) {
              if (el.shadowRoot) walk(el.shadowRoot);
              if (el.localName === 'select' && el.checkVisibility()) n++;
            }
          };
          walk(document);
          return n;
        });
        for (const c of await cutSelects()) cut.push({ hash, ...c });
        if (hash === '#view=lab') await screenshot(page, `selects-lab-${lang}-${size.width}`);
      }
      assert.ok(checked > HASHES.length, `only ${checked} selects seen: the walk found nothing`);
      assert.equal(
        cut.length,
        0,
        `${lang} ${size.width}: selects cut off:\n` +
          cut.map((c) => `${c.hash}: ${c.select} "${c.text}" ${c.need} > ${c.room} px`).join('\n'),
      );
    });
  }
}

test('no console errors, failed requests or requests to another origin', () => {
  assert.deepEqual(problems, []);
  assert.deepEqual(browser.foreign, []);
});
