// startup.test.js: how long the page takes to show its first plot, and what it downloads to get
// there, in Chromium from localhost with a cold cache (a fresh profile). Printed, not asserted:
// speed is claimed from benchmarks, and a loaded CI machine would make a time limit flaky. What is
// asserted: the first view draws real ink, every request stays on the page's origin and succeeds,
// and nothing is logged as an error.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { canvasInk, startBrowser } from './harness.js';

let browser;

before(async () => {
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
});

test('first plot after opening the page: time and bytes printed', async () => {
  const { page, problems } = await browser.newPage();
  const bytes = new Map();
  const requested = [];
  page.on('request', (req) => requested.push(req.url()));
  page.on('response', async (res) => {
    try {
      bytes.set(res.url(), (await res.body()).length);
    } catch {
      /* redirects and aborted bodies have none */
    }
  });
  // when the page marks its first view as rendered, in the page's own clock (ms since navigation)
  await page.addInitScript(() => {
    new MutationObserver((_, obs) => {
      const app = document.getElementById('app');
      if (app?.dataset.rendered) {
        window.__firstPlot = performance.now();
        obs.disconnect();
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-rendered'] });
  });
  await page.goto(`${browser.url}/web/`);
  await page.waitForFunction(() => window.__firstPlot !== undefined, null, { timeout: 60_000 });
  const firstPlot = await page.evaluate(() => window.__firstPlot);
  const demo = page.locator('attn-demo').first();
  const heatmap = demo.locator('attn-heatmap').first();
  await heatmap.waitFor();
  const ink = await canvasInk(await heatmap.elementHandle());
  assert.ok(ink.ink > 100, `the first plot has ink (${ink.ink} pixels)`);
  await page.waitForLoadState('networkidle');
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  const wasm = [...bytes].filter(([u]) => u.endsWith('.wasm')).reduce((a, [, b]) => a + b, 0);
  const models = [...bytes]
    .filter(([u]) => u.endsWith('.safetensors'))
    .reduce((a, [, b]) => a + b, 0);
  const message =
    `first plot ${firstPlot.toFixed(0)} ms after navigation (cold cache, localhost); ` +
    `${bytes.size} requests, ${(total / 1024).toFixed(1)} KB (wasm ${(wasm / 1024).toFixed(1)} KB, models ${(models / 1024).toFixed(1)} KB)`;
  console.log(`# ${message}`);
  // The preloads (index.html, boot.js) are reused, not fetched a second time.
  const twice = requested.filter(
    (u, i) => /\.(js|wasm|safetensors)$/.test(u) && requested.indexOf(u) !== i,
  );
  assert.deepEqual(twice, [], 'no module, wasm or model is downloaded twice');
  assert.equal(requested.filter((u) => u.endsWith('.wasm')).length, 1);
  assert.equal(requested.filter((u) => u.endsWith('.safetensors')).length, 1);
  assert.deepEqual(problems, []);
  await page.close();
});
