// embed-dialog.test.js: "Embed this view" on the demo page (web/embed-dialog.js), in Chromium.
//
// Checks: the link opens a modal dialog (not the bare embed page) with the two forms of
// docs/embedding.md, each filled with the view shown (view, model, input, layer, head, kind,
// language) and each with a Copy button, keyboard first (focus on the first Copy button, Enter
// copies, Escape closes and gives the focus back to the link), in English and Chinese at
// 1280 × 720 and 390 × 844 (screenshots). Then what was copied keeps its promise: the iframe code,
// written into a plain host page (tests/browser/embed-host.html), and the element code, saved as
// an HTML page of its own, each draw the same view: their data-rendered key is the page's hash.

import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { t } from '../../web/shared/i18n.js';
import { SCREENSHOTS, startBrowser } from './harness.js';

/** The view, in the page's canonical order (lang before kind), without its language. */
const STATE = 'view=heads&model=tf-dates-relative&input=3%20Jan%201999&layer=1&head=1';
const withLang = (lang) => `${STATE}&lang=${lang}&kind=encoder`;
let browser;

before(async () => {
  browser = await startBrowser();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: browser.url,
  });
});

after(async () => {
  await browser?.close();
});

/** The page at hash, drawn: resolves to its canonical hash. */
async function openPage(page, hash) {
  await page.goto(`${browser.url}/web/${hash}`);
  await page.waitForSelector('#app[data-state="ready"]');
  await page.waitForFunction(
    () => document.getElementById('app').dataset.rendered === location.hash,
  );
  return page.evaluate(() => location.hash);
}

/** What the active element is, through shadow roots: its id. */
const focusedId = (page) => page.evaluate(() => document.activeElement?.id ?? '');

test('Embed this view: both forms filled with the view shown, Copy and Escape by keyboard (en, zh; 1280 × 720, 390 × 844)', async () => {
  const { page, problems } = await browser.newPage();
  for (const lang of ['en', 'zh']) {
    for (const [width, height] of [
      [1280, 720],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height });
      const hash = await openPage(page, `#${withLang(lang)}`);
      assert.equal(hash, `#${withLang(lang)}`, 'the state is kept as given');
      await page.locator('#embed-link').focus();
      await page.keyboard.press('Enter');
      const dialog = page.locator('dialog#embed-dialog');
      await dialog.waitFor({ state: 'visible' });
      assert.equal(await dialog.evaluate((d) => /** @type {HTMLDialogElement} */ (d).open), true);
      assert.match(page.url(), /\/web\/#view=heads/, 'still on the page, not the bare embed page');
      assert.equal(await dialog.locator('h2').textContent(), t(lang, 'embed.title'));

      const iframeCode = await page.locator('#embed-iframe-code').inputValue();
      const src = `${browser.url}/web/embed.html?${withLang(lang)}`.replace(/&/g, '&amp;');
      assert.equal(
        iframeCode,
        `<iframe src="${src}"\n` +
          '        sandbox="allow-scripts allow-downloads allow-popups allow-popups-to-escape-sandbox"\n' +
          '        width="720" height="880" style="border:0" title="Attention: tf-dates-relative"></iframe>',
      );
      const elementCode = await page.locator('#embed-element-code').inputValue();
      assert.equal(
        elementCode,
        `<script src="${browser.url}/web/elements-loader.js" async></script>\n` +
          `<attn-demo view="heads" model="tf-dates-relative" input="3 Jan 1999" layer="1" head="1" kind="encoder" lang="${lang}"></attn-demo>`,
      );
      assert.equal(
        await page.locator('.embed-copy[data-form="iframe"]').textContent(),
        t(lang, 'embed.copyIframe'),
      );
      // the viewport, as the person sees the dialog (screenshot() takes the whole page)
      await mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOTS, `embed-dialog-${lang}-${width}.png`) });

      // Keyboard: the first Copy button has the focus; Enter copies the iframe code.
      assert.equal(
        await page.evaluate(() => document.activeElement?.getAttribute('data-form')),
        'iframe',
      );
      await page.keyboard.press('Enter');
      const status = page.locator('.embed-form[data-form="iframe"] .embed-status');
      await status.filter({ hasText: /\S/ }).waitFor();
      assert.equal(await status.textContent(), t(lang, 'export.copied'));
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), iframeCode);
      // Tab reaches the element form's button; Enter copies it
      await page.locator('.embed-copy[data-form="element"]').focus();
      await page.keyboard.press('Enter');
      await page
        .locator('.embed-form[data-form="element"] .embed-status')
        .filter({ hasText: /\S/ })
        .waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), elementCode);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(await focusedId(page), 'embed-link');
    }
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('The copied codes keep their promise: the iframe and the element draw the same view', async () => {
  const { page, problems } = await browser.newPage();
  const hash = await openPage(page, `#view=alignment&model=dates-dot&input=3%20Jan%201999&lang=zh`);
  await page.locator('#embed-link').click();
  await page.locator('.embed-copy[data-form="iframe"]').click();
  await page.locator('.embed-copy[data-form="element"]').click(); // the clipboard holds this one now
  const elementCode = await page.evaluate(() => navigator.clipboard.readText());
  const iframeCode = await page.locator('#embed-iframe-code').inputValue();

  // The iframe code, written into a plain host page.
  await page.goto(`${browser.url}/tests/browser/embed-host.html`);
  await page.evaluate((code) => {
    document.getElementById('host').innerHTML = code;
  }, iframeCode);
  const frame = await (await page.waitForSelector('#host iframe')).contentFrame();
  await frame.waitForFunction(
    (key) => document.getElementById('app')?.dataset.rendered === key,
    hash.slice(1),
    { timeout: 20000 },
  );
  const demo = frame.locator('attn-demo');
  assert.equal(await demo.getAttribute('model'), 'dates-dot');
  assert.equal(await demo.getAttribute('input'), '3 Jan 1999');
  assert.equal(await demo.getAttribute('lang'), 'zh');
  assert.equal(
    await frame.locator('attn-demo section[data-view="alignment"] output').textContent(),
    await (async () => {
      const p2 = await browser.newPage();
      await openPage(p2.page, hash);
      const out = await p2.page
        .locator('#demo section[data-view="alignment"] output')
        .textContent();
      await p2.page.close();
      return out;
    })(),
    'the same output as the page',
  );

  // The element code, as a page of its own (a real file: custom elements upgrade).
  await mkdir(SCREENSHOTS, { recursive: true });
  await writeFile(
    path.join(SCREENSHOTS, 'embed-element-code.html'),
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>element code</title>` +
      `<link rel="icon" href="data:,"></head>\n<body>\n${elementCode}\n</body></html>\n`,
  );
  await page.goto(`${browser.url}/tests/browser/screenshots/embed-element-code.html`);
  await page.waitForFunction(
    (key) => document.querySelector('attn-demo')?.dataset.rendered === key,
    hash.slice(1),
    { timeout: 20000 },
  );
  assert.equal(await page.locator('attn-demo p.demo-error').isHidden(), true);
  assert.deepEqual(problems, []);
  await page.close();
});
