// package.test.js: the README's course page, as written, with the package a user installs served
// the way a CDN serves npm packages. `npm pack` of this tree and `npm install --offline` of the
// tarball into an empty project (tests/js/packed.js), then two origins on 127.0.0.1: the second
// serves that project's node_modules/ as static files with Access-Control-Allow-Origin: *
// (scripts/serve.mjs, as jsDelivr or unpkg would), the first a course page whose body is the
// README block marked `<!-- npm-test: course-page.html -->`, its CDN address pointed at the second
// origin: one <script type="module" src> and one <attn-demo>, nothing else. In Chromium: the
// element draws its heatmap (ink on the canvas) with the model's output, every module, the .wasm,
// the model and its card come from the second origin, and no console error, failed request or
// request to any other origin happens. Then the iframe block of docs/embedding.md (`<!-- npm-test:
// iframe.html -->`), its host being the second origin: the package's embed.html draws in a
// sandboxed, opaque-origin frame. It fails when the package lacks a file the elements or the
// iframe page load, when a module needs the page's import map, or when a README snippet stops
// working.

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startServer } from '../../scripts/serve.mjs';
import { packAndInstall, readmeBlocks } from '../js/packed.js';
import { canvasInk, screenshot, startBrowser } from './harness.js';

/** Where the README's snippet loads the package from; the test serves it itself. */
const CDN_PREFIX = /https:\/\/cdn\.jsdelivr\.net\/npm\/attnlab@([0-9.]+)\//g;

let pkg;
let cdn;
let courseDir;
let browser;

before(async () => {
  pkg = packAndInstall();
  cdn = await startServer({ root: path.join(pkg.app, 'node_modules'), port: 0 });
  courseDir = await mkdtemp(path.join(tmpdir(), 'attnlab-course-'));
  browser = await startBrowser({ root: courseDir, allowOrigins: [cdn.url] });
});

after(async () => {
  await browser?.close();
  await cdn?.close();
  if (courseDir) await rm(courseDir, { recursive: true, force: true });
  pkg?.remove();
});

/**
 * A course page on the first origin: the README block called name, its host address pointed at
 * the second origin (prefix: the address as the README writes it), in an otherwise empty page.
 * Opens it and records which origin served which path. Returns { page, problems, origins }.
 */
async function openCoursePage(name, prefix) {
  const block = readmeBlocks().get(name);
  assert.ok(block, `README.md or docs/ has a block marked <!-- npm-test: ${name} -->`);
  const body = block.replace(prefix, `${cdn.url}/attnlab/`);
  assert.notEqual(body, block, `the ${name} block loads attnlab from ${prefix}`);
  // a data: icon, so the course origin serves one file and its log stays empty
  await writeFile(
    path.join(courseDir, name),
    `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>A course page</title><link rel="icon" href="data:,"></head>
<body>
<h1>Attention, live</h1>
${body}</body>
</html>
`,
  );
  const { page, problems } = await browser.newPage();
  const origins = new Map(); // origin -> paths requested
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.protocol !== 'data:')
      origins.set(url.origin, [...(origins.get(url.origin) ?? []), url.pathname]);
  });
  await page.goto(`${browser.url}/${name}`);
  return { page, problems, origins };
}

/** Wait until the <attn-demo> in frame has drawn the alignment of dates-additive; on a timeout,
 * say what the element shows and what went wrong on the page. */
async function drawn(frame, { problems, origins }) {
  try {
    await frame.waitForFunction(
      () =>
        document
          .querySelector('attn-demo')
          ?.dataset.rendered?.startsWith('view=alignment&model=dates-additive&'),
      null,
      { timeout: 30000 },
    );
  } catch (err) {
    const shown = await frame.evaluate(() => {
      const demo = document.querySelector('attn-demo');
      return {
        defined: !!customElements.get('attn-demo'),
        rendered: demo?.dataset.rendered ?? null,
        text: demo?.shadowRoot?.textContent?.slice(0, 400) ?? null,
      };
    });
    throw new Error(
      `<attn-demo> did not draw: ${err.message}\n${JSON.stringify(shown)}\nproblems: ${problems.join('\n')}\nrequests: ${JSON.stringify([...origins])}`,
    );
  }
  const map = frame.locator('attn-demo .align-map');
  await map.evaluate((el) => /** @type {any} */ (el).whenRendered());
  const { ink, total } = await canvasInk(map);
  assert.ok(ink > total * 0.05, `the heatmap has ink: ${ink} of ${total} pixels`);
  assert.equal(
    await frame.locator('attn-demo section[data-view="alignment"] output').textContent(),
    '2026-11-22',
  );
  assert.equal(
    await frame.evaluate(() => document.querySelector('attn-demo')?.dataset.simd),
    'true',
  );
  // the model card, fetched after the first plot from beside the model
  const card = frame.locator('attn-demo details.model-card summary');
  await card.waitFor({ timeout: 10000 });
  assert.match(await card.textContent(), /dates-additive/);
}

test('the README course page: one script from a second origin, one <attn-demo>, a drawn map', async () => {
  const block = readmeBlocks().get('course-page.html') ?? '';
  assert.equal(block.match(/<script\b/g)?.length, 1, `one script:\n${block}`);
  assert.equal(block.match(/<attn-demo\b/g)?.length, 1, `one <attn-demo>:\n${block}`);
  assert.doesNotMatch(block, /importmap|<script type="module">/, 'no import map, no inline module');
  const versions = [...block.matchAll(CDN_PREFIX)].map((m) => m[1]);
  assert.deepEqual(
    versions,
    [pkg.packed.version],
    `the snippet loads the packed version (${pkg.packed.version}) from the CDN`,
  );

  const opened = await openCoursePage('course-page.html', CDN_PREFIX);
  const { page, problems, origins } = opened;
  await drawn(page, opened);
  await screenshot(page, 'package-course-page');
  assert.deepEqual(
    origins.get(browser.url),
    ['/course-page.html'],
    'the course origin serves the page alone',
  );
  const fromCdn = origins.get(cdn.url) ?? [];
  for (const f of [
    '/attnlab/web/elements.js',
    '/attnlab/wasm/attnlab.wasm',
    '/attnlab/web/models/dates-additive.safetensors',
    '/attnlab/web/models/dates-additive.json',
  ]) {
    assert.ok(fromCdn.includes(f), `${f} came from the second origin: ${fromCdn.join(' ')}`);
  }
  assert.deepEqual([...origins.keys()].sort(), [browser.url, cdn.url].sort(), 'no third origin');
  assert.deepEqual(problems, [], 'no console error, failed request or foreign request');
  await page.close();
});

test('the README iframe, sandboxed, with the installed package as its host: the iframe page draws', async () => {
  const opened = await openCoursePage('iframe.html', 'https://your.host/attnlab/');
  const { page, problems, origins } = opened;
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await drawn(frame, opened);
  assert.equal(
    await frame.evaluate(() => self.origin),
    'null',
    'sandboxed without allow-same-origin: an opaque origin',
  );
  assert.equal(await frame.locator('attn-demo #model').isHidden(), true, 'hide=picker');
  await screenshot(page, 'package-iframe');
  assert.ok((origins.get(cdn.url) ?? []).includes('/attnlab/web/embed.html'));
  assert.deepEqual([...origins.keys()].sort(), [browser.url, cdn.url].sort(), 'no third origin');
  assert.deepEqual(problems, [], 'no console error, failed request or foreign request');
  await page.close();
});
