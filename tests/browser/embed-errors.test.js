// embed-errors.test.js: when the page code, the .wasm or a model cannot be fetched, the page says
// so in its own box, in its language, naming the URL and the fix (i18n.js load.*, composed as
// fetch-problem.js and load-guard.js compose them), in Chromium.
//
// Checks, each in English and Chinese: a page opened as file:// (index.html and embed.html: no
// module runs there, load-guard.js says to serve over http); a sandboxed iframe on a host that
// sends no Access-Control-Allow-Origin (its modules are refused; load-guard.js says the server
// must send the header); the .wasm and a model redirected to another origin without the header
// (<attn-demo> on the embed page, and the main page for the .wasm); a model path that does not
// exist and a missing .wasm (404: the file is missing, and how to get it); a module missing on the
// server (load-guard.js names it); the one-line <attn-demo> (web/elements-loader.js) on a page
// whose attnlab host sends no Access-Control-Allow-Origin, and on one whose host redirects the
// .wasm to such a host (the element's box names the refused file and the header, not a blank
// element). The second origins are small node:http servers in front of the
// harness's server. No uncaught page error in any of them; screenshots of each box.

import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { sentences, t } from '../../web/shared/i18n.js';
import { REPO_ROOT, SCREENSHOTS, hostIframe, screenshot, startBrowser } from './harness.js';

const LANGS = ['en', 'zh'];
const fileUrl = (rel) => pathToFileURL(path.join(REPO_ROOT, rel)).href;

/**
 * A second origin in front of target (the harness's server): the same files, except that
 * noCors drops Access-Control-Allow-Origin, redirect(path) names another origin to send a path
 * to (302), and missing(path) answers 404. Resolves to { url, close() }; the predicates can be
 * swapped between page loads (origin.redirect = ...).
 */
async function startOrigin(target, { noCors = false } = {}) {
  const origin = { redirect: () => null, missing: () => false };
  const server = createServer(async (req, res) => {
    const pathname = new URL(req.url, 'http://x').pathname;
    const to = origin.redirect(pathname);
    if (to) {
      res.writeHead(302, { Location: `${to}${req.url}`, 'Cache-Control': 'no-store' });
      return res.end();
    }
    if (origin.missing(pathname)) {
      res.writeHead(404, {
        'Content-Type': 'text/plain',
        'Cache-Control': 'no-store',
        ...(noCors ? {} : { 'Access-Control-Allow-Origin': '*' }),
      });
      return res.end('404 Not Found\n');
    }
    try {
      const r = await fetch(`${target}${req.url}`, { method: req.method, redirect: 'manual' });
      const headers = {};
      for (const [k, v] of r.headers)
        if (!(noCors && k === 'access-control-allow-origin')) headers[k] = v;
      res.writeHead(r.status, headers);
      res.end(Buffer.from(await r.arrayBuffer()));
    } catch {
      res.destroy();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin.url = `http://127.0.0.1:${server.address().port}`;
  others.add(origin.url);
  origin.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  return origin;
}

const others = new Set(); // the test's own origins, which the harness lets the pages reach
let browser;
let plain; // another origin: the same files, with the CORS header (a host that has it)
let bare; // another origin without Access-Control-Allow-Origin (a static host without CORS)

before(async () => {
  browser = await startBrowser({
    allow: (url) => url.protocol === 'file:' || others.has(url.origin),
  });
  plain = await startOrigin(browser.url);
  bare = await startOrigin(browser.url, { noCors: true });
});

after(async () => {
  await plain?.close();
  await bare?.close();
  await browser?.close();
});

/** The text of the error box at selector (a hidden box until it has some; CSS locators see into shadow roots). */
async function errorText(target, selector) {
  const box = target.locator(selector);
  await box.waitFor({ state: 'visible', timeout: 15000 });
  return box.textContent();
}

/** Uncaught errors only: the failed requests themselves are the point of these tests. */
const pageErrors = (problems) => problems.filter((p) => p.startsWith('page error'));

test('file://: index.html and embed.html say to serve over http (en, zh)', async () => {
  const { page, problems } = await browser.newPage();
  for (const lang of LANGS) {
    await page.goto(`${fileUrl('web/index.html')}#view=alignment&lang=${lang}`);
    const expected = sentences(lang, [
      t(lang, 'load.code'),
      t(lang, 'load.file', { url: fileUrl('web/boot.js') }),
    ]);
    assert.equal(await errorText(page, '#error'), expected);
    assert.equal(await page.locator('#status').textContent(), t(lang, 'status.notRunning'));
    assert.equal(await page.locator('#load-progress').isHidden(), true);
    assert.equal(await page.evaluate(() => document.getElementById('app').dataset.state), 'error');
    await screenshot(page, `error-file-index-${lang}`);

    await page.goto(`${fileUrl('web/embed.html')}?model=dates-additive&lang=${lang}`);
    assert.equal(
      await errorText(page, '#error'),
      sentences(lang, [
        t(lang, 'load.code'),
        t(lang, 'load.file', { url: fileUrl('web/embed-page.js') }),
      ]),
    );
    await screenshot(page, `error-file-embed-${lang}`);
  }
  assert.deepEqual(pageErrors(problems), []);
  await page.close();
});

test('no CORS: a sandboxed iframe on a host without Access-Control-Allow-Origin says the server must send it (en, zh)', async () => {
  const { page, problems } = await browser.newPage();
  await page.goto(`${browser.url}/tests/browser/embed-host.html`);
  for (const lang of LANGS) {
    const frame = await hostIframe(
      page,
      `${bare.url}/web/embed.html?model=dates-additive&view=alignment&lang=${lang}`,
      { style: 'width: 720px; height: 300px; border: 1px solid #ccc' },
    );
    const expected = sentences(lang, [
      t(lang, 'load.code'),
      t(lang, 'load.cors', { url: `${bare.url}/web/embed-page.js` }),
    ]);
    assert.equal(await errorText(frame, '#error'), expected);
    assert.equal(await frame.evaluate(() => self.origin), 'null');
    await screenshot(page, `error-cors-iframe-${lang}`);
  }
  // The same iframe from a host that sends the header runs the view.
  const frame = await hostIframe(
    page,
    `${plain.url}/web/embed.html?model=dates-additive&view=alignment`,
  );
  await frame.waitForFunction(
    () => document.getElementById('app')?.dataset.state === 'ready',
    null,
    { timeout: 15000 },
  );
  assert.equal(await frame.locator('#error').isHidden(), true);
  assert.deepEqual(pageErrors(problems), []);
  await page.close();
});

test('no CORS: the .wasm or a model redirected to another origin without the header: the element and the page say so (en, zh)', async () => {
  const { page, problems } = await browser.newPage();
  const host = await startOrigin(browser.url); // the page's own origin, redirecting some files to `bare`
  try {
    for (const lang of LANGS) {
      host.redirect = (p) => (p === '/wasm/attnlab.wasm' ? bare.url : null);
      await page.goto(
        `${host.url}/web/embed.html?model=dates-additive&view=alignment&lang=${lang}`,
      );
      const wasm = sentences(lang, [
        t(lang, 'load.wasm'),
        t(lang, 'load.cors', { url: `${host.url}/wasm/attnlab.wasm` }),
      ]);
      assert.equal(await errorText(page, 'attn-demo p.demo-error'), wasm);
      assert.equal(
        await page.locator('attn-demo p.status').textContent(),
        t(lang, 'status.notRunning'),
      );
      await screenshot(page, `error-cors-wasm-${lang}`);

      // The main page: its own box (the views stay hidden), the same sentence.
      await page.goto(`${host.url}/web/#view=alignment&lang=${lang}`);
      assert.equal(await errorText(page, '#error'), wasm);
      assert.equal(await page.locator('#status').textContent(), t(lang, 'status.notRunning'));
      await screenshot(page, `error-cors-wasm-page-${lang}`);

      host.redirect = (p) => (p === '/web/models/dates-additive.safetensors' ? bare.url : null);
      await page.goto(
        `${host.url}/web/embed.html?model=dates-additive&view=alignment&lang=${lang}`,
      );
      assert.equal(
        await errorText(page, 'attn-demo p.demo-error'),
        sentences(lang, [
          t(lang, 'load.model', { name: 'dates-additive' }),
          t(lang, 'load.cors', { url: `${host.url}/web/models/dates-additive.safetensors` }),
        ]),
      );
      await screenshot(page, `error-cors-model-${lang}`);
    }
  } finally {
    await host.close();
  }
  assert.deepEqual(pageErrors(problems), []);
  await page.close();
});

test('404: a model path that does not exist, a missing .wasm, a missing module: the file and the fix (en, zh)', async () => {
  const { page, problems } = await browser.newPage();
  const host = await startOrigin(browser.url);
  try {
    for (const lang of LANGS) {
      const model = '/web/models/no-such-model.safetensors';
      await page.goto(
        `${browser.url}/web/embed.html?model=${encodeURIComponent(model)}&input=abc&lang=${lang}`,
      );
      assert.equal(
        await errorText(page, 'attn-demo p.demo-error'),
        sentences(lang, [
          t(lang, 'load.model', { name: model }),
          t(lang, 'load.http', { url: `${browser.url}${model}`, status: 404 }),
          t(lang, 'load.missing.model'),
        ]),
      );
      await screenshot(page, `error-404-model-${lang}`);

      host.missing = (p) => p === '/wasm/attnlab.wasm';
      await page.goto(`${host.url}/web/embed.html?model=dates-additive&lang=${lang}`);
      assert.equal(
        await errorText(page, 'attn-demo p.demo-error'),
        sentences(lang, [
          t(lang, 'load.wasm'),
          t(lang, 'load.http', { url: `${host.url}/wasm/attnlab.wasm`, status: 404 }),
          t(lang, 'load.missing.wasm'),
        ]),
      );
      await screenshot(page, `error-404-wasm-${lang}`);

      // A module of the page code missing (wasm/ not copied): load-guard.js finds which.
      host.missing = (p) => p === '/wasm/index.js';
      await page.goto(`${host.url}/web/#view=alignment&lang=${lang}`);
      assert.equal(
        await errorText(page, '#error'),
        sentences(lang, [
          t(lang, 'load.code'),
          t(lang, 'load.http', { url: `${host.url}/wasm/index.js`, status: 404 }),
          t(lang, 'load.missing.code'),
        ]),
      );
      assert.equal(await page.locator('#status').textContent(), t(lang, 'status.notRunning'));
      await screenshot(page, `error-404-module-${lang}`);
      host.missing = () => false;
    }
  } finally {
    await host.close();
  }
  assert.deepEqual(pageErrors(problems), []);
  await page.close();
});

/** A plain course page (a real file, served by the harness: custom elements upgrade) that loads
 * the one-line snippet's script from base and holds one <attn-demo lang=lang>; its URL. */
async function coursePage(name, base, lang) {
  await mkdir(SCREENSHOTS, { recursive: true });
  await writeFile(
    path.join(SCREENSHOTS, `${name}.html`),
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>course page</title>` +
      `<link rel="icon" href="data:,"></head>\n<body>\n<h1>A course page</h1>\n` +
      `<script src="${base}/web/elements-loader.js" async></script>\n` +
      `<attn-demo model="dates-additive" view="alignment" input="22 Nov 2026" lang="${lang}"></attn-demo>\n` +
      `</body></html>\n`,
  );
  return `${browser.url}/tests/browser/screenshots/${name}.html`;
}

test('no CORS: the one-line <attn-demo> from a host without the header shows its box, naming the cause (en, zh)', async () => {
  const { page, problems } = await browser.newPage();
  const host = await startOrigin(browser.url); // sends the header, but redirects the .wasm to `bare`
  try {
    for (const lang of LANGS) {
      // elements.js itself refused: elements-loader.js (a classic script, fetched without CORS) says so
      await page.goto(await coursePage(`course-nocors-${lang}`, bare.url, lang));
      assert.equal(
        await errorText(page, 'attn-demo p.error'),
        sentences(lang, [
          t(lang, 'load.code'),
          t(lang, 'load.cors', { url: `${bare.url}/web/elements.js` }),
        ]),
      );
      assert.equal(
        await page.locator('attn-demo p.status').textContent(),
        t(lang, 'status.notRunning'),
      );
      await screenshot(page, `error-cors-element-${lang}`);

      // the code loads, the .wasm is refused: the element's own box
      host.redirect = (p) => (p === '/wasm/attnlab.wasm' ? bare.url : null);
      await page.goto(await coursePage(`course-wasm-${lang}`, host.url, lang));
      assert.equal(
        await errorText(page, 'attn-demo p.demo-error'),
        sentences(lang, [
          t(lang, 'load.wasm'),
          t(lang, 'load.cors', { url: `${host.url}/wasm/attnlab.wasm` }),
        ]),
      );
      await screenshot(page, `error-cors-element-wasm-${lang}`);
      host.redirect = () => null;
    }
    // from a host that sends the header, the same page draws the view
    await page.goto(await coursePage('course-cors', plain.url, 'en'));
    await page.waitForFunction(
      () => document.querySelector('attn-demo')?.dataset.rendered?.includes('model=dates-additive'),
      null,
      { timeout: 20000 },
    );
    assert.equal(await page.locator('attn-demo p.demo-error').isHidden(), true);
  } finally {
    await host.close();
  }
  assert.deepEqual(pageErrors(problems), []);
  await page.close();
});
