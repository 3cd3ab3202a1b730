// dist.test.js: the production page (scripts/build-web.mjs, `make dist`), built into a temporary
// folder and served gzip'd as a static host would (serve.mjs --compress), in Chromium.
//
// Checks: the first plot comes from a handful of requests (the page, the .wasm, the model, the
// two stylesheets, boot.js, main.js and one shared chunk: no waterfall of modules) with every script
// and the .wasm sent compressed, no view but the first's code fetched before it is shown, the
// same first view as the development page (output text and weights); every view draws from the
// bundle (its lazy chunk loaded on first use), the lab's workers (bundled on their own) train,
// and the iframe page draws; the service worker of the build is versioned by
// content (attnlab-<hash>), stores every view's code at install, so offline a view whose model
// was never seen says the model, not the code, needs the network; and nothing is logged as an
// error. And the Embed dialog's element code (web/embed-dialog.js) keeps its promise from the build:
// written into a course page of another origin, it loads the build's elements-loader.js and
// elements.js, then chunks of the build only, and draws the same view as the page, with
// the same weights; a chunk missing on the host is named in the element's box.
// tests/browser/startup.test.js and others run against a build too:
// ATTNLAB_TEST_ROOT=dist (harness.js).

import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { buildWeb } from '../../scripts/build-web.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { sentences, t } from '../../web/shared/i18n.js';
import { defaultModelFor } from '../../web/shared/models.js';
import { canvasInk, screenshot, startBrowser } from './harness.js';

let tmp;
let dist;
let browser;
let course; // another origin, for a course page that embeds the element

before(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'attnlab-dist-'));
  dist = path.join(tmp, 'dist');
  await buildWeb({ outRoot: dist, log: () => {} });
  await mkdir(path.join(tmp, 'course'));
  course = await startServer({ root: path.join(tmp, 'course') });
  browser = await startBrowser({
    root: dist,
    compress: 'gzip',
    serviceWorkers: 'allow',
    allowOrigins: [course.url],
  });
});

after(async () => {
  await browser?.close();
  await course?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** Wait until the page's <attn-demo> has drawn view. */
async function drawn(page, view) {
  await page.waitForFunction(
    (v) =>
      new URLSearchParams(document.querySelector('#demo')?.dataset.rendered ?? '').get('view') ===
      v,
    view,
    { timeout: 20000 },
  );
}

test('the first plot: eight requests, compressed, no lazy view, the same map as web/', async () => {
  const { page, problems } = await browser.newPage();
  const responses = [];
  page.on('response', (res) =>
    responses.push({ url: res.url(), encoding: res.headers()['content-encoding'] ?? null }),
  );
  await page.addInitScript(() => {
    new MutationObserver((_, obs) => {
      if (document.getElementById('app')?.dataset.rendered) {
        /** @type {any} */ (window).__firstPlot = performance
          .getEntriesByType('resource')
          .map((e) => e.name);
        obs.disconnect();
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-rendered'] });
  });
  await page.goto(`${browser.url}/web/`);
  await page.waitForFunction(() => /** @type {any} */ (window).__firstPlot);
  const before = (await page.evaluate(() => /** @type {any} */ (window).__firstPlot)).map(
    (u) => new URL(u).pathname,
  );
  const html = await readFile(path.join(dist, 'web', 'index.html'), 'utf8');
  const chunks = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]);
  assert.deepEqual(chunks.slice(0, 1), ['main.js']);
  assert.equal(chunks.length, 2, 'main.js and one shared chunk');
  const expected = [
    '/wasm/attnlab.wasm',
    '/web/models/dates-additive.safetensors',
    '/web/controls.css', // the tokens and controls, split off style.css (70722b5)
    '/web/style.css',
    '/web/boot.js',
    ...chunks.map((c) => `/web/${c}`),
  ];
  assert.deepEqual(
    before.filter((p) => p !== '/web/favicon.svg').sort(),
    expected.sort(),
    'what the first plot waited for',
  );
  for (const r of responses.filter((x) =>
    /\.(js|wasm|css|html)$|\/web\/$/.test(new URL(x.url).pathname),
  ))
    assert.equal(r.encoding, 'gzip', r.url);
  const ink = await canvasInk(await page.locator('#demo attn-heatmap').first().elementHandle());
  assert.ok(ink.ink > 100, `the first plot has ink (${ink.ink} pixels)`);
  // The development page's first view, for comparison: the same output and weights.
  const shown = () =>
    page.locator('#demo').evaluate((el) => {
      const map = el.shadowRoot.querySelector('section[data-view="alignment"] attn-heatmap');
      return {
        output: el.shadowRoot.querySelector('section[data-view="alignment"] output').textContent,
        weights: Array.from(map.data.weights).slice(0, 40),
      };
    });
  const prod = await shown();
  const dev = await startBrowser();
  try {
    const { page: devPage } = await dev.newPage();
    await devPage.goto(`${dev.url}/web/`);
    await devPage.waitForSelector('#app[data-rendered]');
    const want = await devPage.locator('#demo').evaluate((el) => {
      const map = el.shadowRoot.querySelector('section[data-view="alignment"] attn-heatmap');
      return {
        output: el.shadowRoot.querySelector('section[data-view="alignment"] output').textContent,
        weights: Array.from(map.data.weights).slice(0, 40),
      };
    });
    assert.deepEqual(prod, want);
  } finally {
    await dev.close();
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test("every view draws from the bundle; the lab's workers and the iframe page run", async () => {
  const { page, problems } = await browser.newPage();
  await page.goto(`${browser.url}/web/`);
  await drawn(page, 'alignment');
  for (const view of ['time', 'compare', 'heads', 'pooling', 'reading', 'forgetting']) {
    await page.evaluate((v) => {
      location.hash = `#view=${v}`;
    }, view);
    await drawn(page, view);
    const error = await page
      .locator('#demo')
      .evaluate(
        (el) => el.shadowRoot.querySelector('.demo-error:not([hidden])')?.textContent ?? null,
      );
    assert.equal(error, null, `${view}: ${error}`);
  }
  await page.evaluate(() => {
    location.hash = '#n=8&m=8&d=16&seed=1';
  });
  await page.waitForFunction(() =>
    document.getElementById('app').dataset.rendered?.includes('seed=1'),
  );
  assert.ok(
    (await canvasInk(await page.locator('#heatmap').elementHandle())).ink > 100,
    'the playground draws',
  );
  // the lab: its modules are chunks of main.js, its two workers (run and data-parallel shard) entries of their own
  await page.evaluate(() => {
    location.hash = '#view=lab&preset=additive-dot';
  });
  await page.waitForFunction(() => document.querySelector('attn-lab')?.experiment, null, {
    timeout: 30000,
  });
  const lab = await page.evaluate(async () => {
    const el = document.querySelector('attn-lab');
    await el.whenReady();
    await el.start();
    await el.whenSteps(3);
    await el.pause();
    return el.runs;
  });
  assert.ok(
    lab.a.step >= 3 && lab.b.step >= 3,
    `the lab trains from the bundle: steps ${lab.a.step}, ${lab.b.step}`,
  );
  assert.equal(lab.a.error ?? '', '');
  const { page: embed, problems: embedProblems } = await browser.newPage();
  await embed.goto(`${browser.url}/web/embed.html?view=heads&model=${defaultModelFor('heads')}`);
  await embed.waitForSelector('#app[data-rendered]', { timeout: 20000 });
  assert.deepEqual([...problems, ...embedProblems], []);
  await embed.close();
  await page.close();
});

test("the service worker: a versioned cache with every view's code; offline, only unseen models need the network", async () => {
  // a browser of its own: the one above has seen every view's model
  const fresh = await startBrowser({ root: dist, compress: 'gzip', serviceWorkers: 'allow' });
  try {
    await offlineVisit(fresh);
  } finally {
    await fresh.close();
  }
});

async function offlineVisit(browser) {
  const { page, problems } = await browser.newPage();
  await page.goto(`${browser.url}/web/`);
  await drawn(page, 'alignment');
  await page.waitForSelector('html[data-offline-ready="true"]', { timeout: 30000 });
  const names = await page.evaluate(() => globalThis.caches.keys());
  assert.equal(names.length, 1);
  assert.match(names[0], /^attnlab-[0-9a-f]{12}$/, 'named after the build');
  const sw = await readFile(path.join(dist, 'web', 'sw.js'), 'utf8');
  assert.ok(sw.includes(names[0].slice('attnlab-'.length)));
  await page.close();
  await browser.context.setOffline(true);
  try {
    const { page: off, problems: offProblems } = await browser.newPage();
    await off.goto(`${browser.url}/web/#view=pooling`);
    const model = defaultModelFor('pooling');
    await off.waitForFunction(
      () => document.querySelector('#demo')?.shadowRoot.querySelector('.demo-error:not([hidden])'),
      null,
      { timeout: 20000 },
    );
    const error = await off
      .locator('#demo')
      .evaluate((el) => el.shadowRoot.querySelector('.demo-error:not([hidden])').textContent);
    assert.equal(
      error,
      t('en', 'model.offline', { name: model }),
      "the pooling view's code was stored at install; its model was never seen",
    );
    assert.deepEqual(
      offProblems.filter(
        (p) =>
          !p.startsWith('request failed:') &&
          p !== 'console.error: Failed to load resource: net::ERR_FAILED',
      ),
      [],
    );
    await off.close();
  } finally {
    await browser.context.setOffline(false);
  }
  assert.deepEqual(problems, []);
}

/** A course page holding code, written to file (a real file: custom elements upgrade). */
async function coursePage(file, code) {
  await writeFile(
    file,
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>course page</title>` +
      `<link rel="icon" href="data:,"></head>\n<body>\n<h1>A course page</h1>\n${code}\n</body></html>\n`,
  );
}

/** What an <attn-demo> shows of the heads view: its key, its maps' weights, its error box. */
const headsShown = (el) => {
  const section = el.shadowRoot.querySelector('section[data-view="heads"]');
  return {
    rendered: el.dataset.rendered,
    maps: [...section.querySelectorAll('attn-heatmap')]
      .filter((m) => m.data)
      .map((m) => Array.from(m.data.weights)),
    error: el.shadowRoot.querySelector('.demo-error:not([hidden])')?.textContent ?? null,
  };
};

test("the Embed dialog's element code works from the build: the same view on another origin", async () => {
  const { page, problems } = await browser.newPage();
  const state = 'view=heads&model=tf-dates-relative&input=3%20Jan%201999&layer=1&head=1';
  await page.goto(`${browser.url}/web/#${state}&lang=zh&kind=encoder`);
  await page.waitForFunction(
    () => document.getElementById('app').dataset.rendered === location.hash,
    null,
    { timeout: 20000 },
  );
  const hash = await page.evaluate(() => location.hash);
  const want = await page.locator('#demo').evaluate(headsShown);
  assert.ok(want.maps.length > 0 && want.maps[0].length > 0, 'the page draws the heads view');
  await page.locator('#embed-link').click();
  const code = await page.locator('#embed-element-code').inputValue();
  assert.equal(
    code,
    `<script src="${browser.url}/web/elements-loader.js" async></script>\n` +
      '<attn-demo view="heads" model="tf-dates-relative" input="3 Jan 1999" layer="1" head="1" kind="encoder" lang="zh"></attn-demo>',
  );

  // The code, pasted into a course page of another origin.
  const { page: host, problems: hostProblems } = await browser.newPage();
  const fetched = [];
  host.on('response', (r) => fetched.push(r.url()));
  await coursePage(path.join(tmp, 'course', 'course.html'), code);
  await host.goto(`${course.url}/course.html`);
  await host.waitForFunction(
    (key) => document.querySelector('attn-demo')?.dataset.rendered === key,
    hash.slice(1),
    { timeout: 30000 },
  );
  assert.deepEqual(await host.locator('attn-demo').evaluate(headsShown), want);
  const map = await host
    .locator('attn-demo')
    .evaluateHandle((el) =>
      [...el.shadowRoot.querySelectorAll('section[data-view="heads"] attn-heatmap')].find(
        (m) => m.data,
      ),
    );
  const ink = await canvasInk(map.asElement());
  assert.ok(ink.ink > 100, `the element draws (${ink.ink} pixels)`);
  await screenshot(host, 'dist-element-code-zh');
  // what it loaded: the build's files, the loader and the elements' entry first, no source module
  const js = fetched
    .filter((u) => u.startsWith(browser.url) && u.endsWith('.js'))
    .map((u) => new URL(u).pathname);
  assert.deepEqual(js.slice(0, 2), ['/web/elements-loader.js', '/web/elements.js']);
  for (const p of js.slice(2)) assert.match(p, /^\/web\/chunk-[A-Z0-9]+\.js$/);
  assert.deepEqual([...problems, ...hostProblems], []);
  await host.close();

  // The same build with a chunk of the elements missing on the host: the element's box names it.
  const copy = path.join(dist, 'broken');
  await mkdir(copy);
  for (const f of ['elements-loader.js', 'elements.js'])
    await cp(path.join(dist, 'web', f), path.join(copy, f));
  const chunk = (await readFile(path.join(copy, 'elements.js'), 'utf8')).match(
    /from"\.\/(chunk-[A-Z0-9]+\.js)"/,
  )[1];
  assert.ok((await readdir(path.join(dist, 'web'))).includes(chunk));
  // on the build's own origin: serve.mjs answers a 404 without Access-Control-Allow-Origin, which
  // from another origin reads as refused (embed-errors.test.js checks that sentence)
  await coursePage(
    path.join(copy, 'course.html'),
    '<script src="elements-loader.js" async></script>\n<attn-demo model="dates-additive" lang="zh"></attn-demo>',
  );
  const { page: broken } = await browser.newPage();
  await broken.goto(`${browser.url}/broken/course.html`);
  const box = broken.locator('attn-demo p.error');
  await box.waitFor({ timeout: 20000 });
  assert.equal(
    await box.textContent(),
    sentences('zh', [
      t('zh', 'load.code'),
      t('zh', 'load.http', { url: `${browser.url}/broken/${chunk}`, status: 404 }),
      t('zh', 'load.missing.code'),
    ]),
  );
  await broken.close();
  await page.close();
});
