// embed-sandbox.test.js: what the iframe page does with each sandbox flag, in Chromium.
//
// A browser refuses downloads in an iframe whose sandbox lacks allow-downloads, and new windows
// without allow-popups, saying so only in its console. Checks, on web/embed.html in the plain host
// page (tests/browser/embed-host.html): sandbox="allow-scripts" (the README's old snippet): the PNG
// and CSV buttons show the panel that says which flag allows the download, the CSV's text (the
// element's own toCSV()) with a Copy button that puts it on the clipboard, the PNG as an image;
// "Link to this view" says allow-popups is missing and offers the link, selected, to copy.
// sandbox="allow-scripts allow-same-origin" (the frame can read its own sandbox attribute):
// downloads are known to be refused, so nothing is downloaded and the panel says so plainly; it
// goes when the map shows another input.
// allow-downloads: the CSV and PNG really download (Playwright's download event; the CSV's bytes
// are the element's toCSV()). allow-popups: the link opens the same view in a new page.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { fileName } from '../../web/elements/heatmap-export.js';
import { t } from '../../web/shared/i18n.js';
import { hostIframe, screenshot, startBrowser } from './harness.js';

/** The browser's own console lines about the sandbox: what these tests provoke. */
const sandboxNotes = (problems) =>
  problems.filter(
    (p) =>
      !/Download is disallowed|allow-popups' permission is not set|both allow-scripts and allow-same-origin/.test(
        p,
      ),
  );

const QUERY = 'model=dates-additive&view=alignment&input=22%20Nov%202026&layer=0&head=0';
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

/** The host page with embed.html in an iframe sandboxed with flags, drawn; resolves to its Frame. */
async function framed(page, flags, query = QUERY) {
  await page.goto(`${browser.url}/tests/browser/embed-host.html`);
  const frame = await hostIframe(page, `${browser.url}/web/embed.html?${query}`, {
    sandbox: flags,
    style: 'width: 720px; height: 1100px; border: 0',
  });
  await frame.waitForFunction(
    () => document.getElementById('app')?.dataset.state === 'ready',
    null,
    {
      timeout: 20000,
    },
  );
  return frame;
}

/** The alignment view's heatmap (a CSS locator sees into the shadow roots). */
const heatmap = (frame) => frame.locator('attn-demo attn-heatmap').first();
const exportButton = (frame, kind) =>
  heatmap(frame).locator(`.toolbar button[data-export="${kind}"]`);
const panel = (frame) => heatmap(frame).locator('.export-fallback');

test('sandbox="allow-scripts": the exports say allow-downloads is missing and offer the data (en, zh)', async () => {
  const { page, problems } = await browser.newPage();
  const downloads = [];
  page.on('download', (d) => downloads.push(d.suggestedFilename()));
  for (const lang of ['en', 'zh']) {
    const frame = await framed(page, 'allow-scripts', `${QUERY}&lang=${lang}`);
    assert.equal(await frame.evaluate(() => self.origin), 'null'); // opaque: the flags cannot be read
    const csv = await heatmap(frame).evaluate((h) => /** @type {any} */ (h).toCSV());
    const name = fileName(
      await heatmap(frame).evaluate((h) => /** @type {any} */ (h).label),
      'csv',
    );
    await exportButton(frame, 'csv').click();
    await panel(frame).waitFor({ state: 'visible' });
    assert.equal(
      await panel(frame).locator('p.why').textContent(),
      t(lang, 'export.maybeBlocked', { file: name, kind: 'CSV' }),
    );
    const field = panel(frame).locator('textarea');
    const lf = csv.replace(/\r\n/g, '\n'); // a textarea's value has LF line breaks
    assert.equal(await field.inputValue(), lf);
    assert.match(csv, /^title,/);
    // Copy: keyboard focus is on the Copy button already
    assert.equal(
      await panel(frame)
        .locator('button.copy')
        .evaluate((b) => b === b.getRootNode().activeElement),
      true,
    );
    await page.keyboard.press('Enter');
    const status = panel(frame).locator('.copy-status');
    await status.filter({ hasText: /\S/ }).waitFor();
    const said = await status.textContent();
    assert.ok(
      [t(lang, 'export.copied'), t(lang, 'export.copyManual')].includes(said),
      `copy status: ${said}`,
    );
    if (said === t(lang, 'export.copied')) {
      const pasted = await page.evaluate(() => navigator.clipboard.readText());
      assert.equal(pasted.replace(/\r\n/g, '\n'), lf);
    } else
      assert.equal(
        await field.evaluate((f) => f.value.slice(f.selectionStart, f.selectionEnd)),
        lf,
      );
    await screenshot(page, `sandbox-export-csv-${lang}`);

    // The PNG: the image itself, decoded, to copy or save from its menu.
    await exportButton(frame, 'png').click();
    const image = panel(frame).locator('img');
    await image.waitFor({ state: 'visible' });
    await frame.waitForFunction(
      () =>
        /** @type {HTMLImageElement | undefined} */ (
          document
            .querySelector('attn-demo')
            ?.shadowRoot?.querySelector('attn-heatmap')
            ?.shadowRoot?.querySelector('.export-fallback img')
        )?.naturalWidth > 0,
    );
    assert.equal(await field.isHidden(), true);
    assert.equal(
      await panel(frame).locator('p.why').textContent(),
      t(lang, 'export.maybeBlocked', { file: name.replace(/csv$/, 'png'), kind: 'PNG' }),
    );
    await screenshot(page, `sandbox-export-png-${lang}`);
    // Escape closes the panel and gives the focus back to the button
    await panel(frame).locator('button.copy').focus();
    await page.keyboard.press('Escape');
    await panel(frame).waitFor({ state: 'hidden' });
  }
  assert.deepEqual(downloads, [], 'the sandbox refused every download');
  assert.deepEqual(sandboxNotes(problems), []);
  await page.close();
});

test('sandbox="allow-scripts allow-same-origin": downloads known refused, none tried, and said so', async () => {
  const { page, problems } = await browser.newPage();
  let downloaded = 0;
  page.on('download', () => downloaded++);
  const frame = await framed(page, 'allow-scripts allow-same-origin');
  await exportButton(frame, 'json').click();
  await panel(frame).waitFor({ state: 'visible' });
  const why = await panel(frame).locator('p.why').textContent();
  assert.equal(why, t('en', 'export.blocked', { kind: 'JSON' }));
  const json = JSON.parse(await panel(frame).locator('textarea').inputValue());
  const expected = await heatmap(frame).evaluate((h) => /** @type {any} */ (h).toJSON());
  assert.deepEqual(json, JSON.parse(JSON.stringify(expected)));
  assert.equal(json.model, 'dates-additive');
  assert.equal(downloaded, 0);
  // another input, another map: the panel (about the map before) goes
  await frame.locator('attn-demo #input').fill('1 Feb 2000');
  await panel(frame).waitFor({ state: 'hidden' });
  assert.deepEqual(sandboxNotes(problems), []);
  await page.close();
});

test('sandbox="allow-scripts allow-downloads": the CSV and the PNG download', async () => {
  const { page, problems } = await browser.newPage();
  const frame = await framed(page, 'allow-scripts allow-downloads');
  const csv = await heatmap(frame).evaluate((h) => /** @type {any} */ (h).toCSV());
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 10000 }),
    exportButton(frame, 'csv').click(),
  ]);
  assert.match(download.suggestedFilename(), /\.csv$/);
  assert.equal(await readFile(await download.path(), 'utf8'), csv);
  const [png] = await Promise.all([
    page.waitForEvent('download', { timeout: 10000 }),
    exportButton(frame, 'png').click(),
  ]);
  assert.match(png.suggestedFilename(), /\.png$/);
  const bytes = await readFile(await png.path());
  assert.deepEqual([...bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]); // a PNG signature
  assert.deepEqual(problems, []);
  await page.close();
});

test('"Link to this view": without allow-popups it says so and offers the link; with it, the view opens', async () => {
  const { page, problems } = await browser.newPage();
  for (const lang of ['en', 'zh']) {
    const frame = await framed(page, 'allow-scripts', `${QUERY}&lang=${lang}`);
    const link = frame.locator('attn-demo a.link');
    const href = await link.getAttribute('href');
    await link.click();
    const blocked = frame.locator('attn-demo .link-blocked');
    await blocked.waitFor({ state: 'visible' });
    assert.equal(await blocked.locator('p.note').first().textContent(), t(lang, 'link.blocked'));
    const field = blocked.locator('input');
    assert.equal(await field.inputValue(), href);
    assert.equal(
      await field.evaluate((f) => f.value.slice(f.selectionStart, f.selectionEnd)),
      href,
      'selected, to copy',
    );
    await screenshot(page, `sandbox-link-${lang}`);
  }

  const frame = await framed(page, 'allow-scripts allow-popups allow-popups-to-escape-sandbox');
  const link = frame.locator('attn-demo a.link');
  const href = await link.getAttribute('href');
  assert.match(
    href,
    /\/web\/embed\.html\?view=alignment&model=dates-additive&input=22%20Nov%202026/,
  );
  const [popup] = await Promise.all([browser.context.waitForEvent('page'), link.click()]);
  await popup.waitForFunction(
    () => document.getElementById('app')?.dataset.state === 'ready',
    null,
    {
      timeout: 20000,
    },
  );
  assert.equal(popup.url(), href);
  assert.equal(
    await popup.evaluate(() => document.querySelector('attn-demo')?.getAttribute('input')),
    '22 Nov 2026',
  );
  assert.equal(await frame.locator('attn-demo .link-blocked').isHidden(), true);
  await popup.close();
  assert.deepEqual(sandboxNotes(problems), []);
  await page.close();
});
