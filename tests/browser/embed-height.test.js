// embed-height.test.js: an embed.html iframe fits its content, in Chromium.
//
// Checks: the iframe examples of docs/embedding.md (once the README's; the names below still say
// README) are given heights that fit their content at their widths
// (measured here and printed: the content must fit, with at most 40 px to spare; the over-time
// view decoded to the end, its tallest state); the embed page posts
// { type: 'attnlab:height', height, id } to its parent, and the README's own snippet (taken from
// docs/embedding.md, run as a host page would) sizes a sandboxed iframe to exactly the embed page's
// document height (within 2 px, no scrolling inside), and again when the content changes (the
// model card opened; another view; rows decoded); the `id` parameter comes back in the message
// and survives the page rewriting its query.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT, hostIframe, screenshot, startBrowser } from './harness.js';

const README = readFileSync(path.join(REPO_ROOT, 'docs/embedding.md'), 'utf8'); // once in README.md
const HTML_BLOCKS = [...README.matchAll(/```html\n([\s\S]*?)```/g)].map((m) => m[1]);
const SNIPPET = HTML_BLOCKS.find((b) => b.includes("'attnlab:height'") && b.includes('<script>'));
const SPARE = 40; // px a README size may leave unused (fonts differ a little between systems)

let browser;

before(async () => {
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
});

/** The README's embed.html iframes: { src (query string), width, height } each. */
function readmeIframes() {
  const out = [];
  for (const block of HTML_BLOCKS) {
    for (const m of block.matchAll(
      /<iframe[^>]*?src="[^"]*?embed\.html\?([^"]+)"[^>]*?width="(\d+)" height="(\d+)"/g,
    )) {
      out.push({ query: m[1].replaceAll('&amp;', '&'), width: Number(m[2]), height: Number(m[3]) });
    }
  }
  return out;
}

/** Record the height messages the top page receives (every frame runs this; only the top listens). */
async function recordMessages(page) {
  await page.addInitScript(() => {
    if (window.top !== window) return;
    window.heightMessages = [];
    addEventListener('message', (event) => {
      if (event.data?.type === 'attnlab:height')
        window.heightMessages.push({
          ...event.data,
          from: [...document.querySelectorAll('iframe')].findIndex(
            (f) => f.contentWindow === event.source,
          ),
        });
    });
  });
}

/** The content height of the frame's document (its <html> box) and what it would scroll. */
function frameHeights(frame) {
  return frame.evaluate(() => ({
    html: document.documentElement.getBoundingClientRect().height,
    scroll: document.documentElement.scrollHeight,
    viewport: innerHeight,
  }));
}

test('the README’s iframe sizes fit their content', async () => {
  const { page, problems } = await browser.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${browser.url}/tests/browser/embed-host.html`);
  const frames = readmeIframes();
  assert.ok(frames.length >= 2, 'the README has its iframe examples');
  for (const [i, f] of frames.entries()) {
    // The over-time view's tallest state is the whole output decoded.
    const query = /(^|&)view=time(&|$)/.test(f.query) ? `${f.query}&step=64` : f.query;
    const frame = await hostIframe(page, `/web/embed.html?${query}`, {
      style: `width: ${f.width}px; height: 3000px; border: 0`,
    });
    await frame.waitForFunction(
      () => document.getElementById('app')?.dataset.state === 'ready',
      null,
      { timeout: 15000 },
    );
    await frame.evaluate(() => document.fonts.ready);
    await page.waitForTimeout(300); // the model card's summary lands after the first plot
    const { html } = await frameHeights(frame);
    console.log(
      `README iframe ${i + 1}: ${f.width} × ${f.height}; content ${html.toFixed(1)} px (${query})`,
    );
    assert.ok(
      html <= f.height,
      `README iframe ${i + 1} (${f.query}) is ${f.height} px high and cuts its ${Math.ceil(html)} px of content`,
    );
    assert.ok(
      f.height - html <= SPARE,
      `README iframe ${i + 1} leaves ${Math.round(f.height - html)} px empty (content ${Math.ceil(html)} px)`,
    );
    await page.evaluate((h) => {
      document.querySelector('iframe').style.height = `${h}px`;
    }, f.height);
    await screenshot(page, `embed-readme-iframe-${i + 1}`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('the README snippet sizes the iframe to the embed page’s height, and follows it', async () => {
  assert.ok(
    SNIPPET,
    "docs/embedding.md has the sizing snippet (an html block with a <script> and 'attnlab:height')",
  );
  const iframeBlock = HTML_BLOCKS.find(
    (b) => b.includes('<iframe') && b.includes('https://your.host/attnlab/web/embed.html'),
  );
  const host = `${browser.url}/tests/browser/readme-snippet.html`;
  const second = `${browser.url}/web/embed.html?model=dates-additive&view=alignment&input=22%20Nov%202026&id=second`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>README snippet</title></head><body>
    <h1>A course page</h1>
    ${iframeBlock.replaceAll('https://your.host/attnlab', browser.url)}
    <iframe src="${second}" sandbox="allow-scripts" width="720" height="300" style="border:0"></iframe>
    ${SNIPPET}</body></html>`;
  const { page, problems } = await browser.newPage();
  // Tall enough for both iframes: Chromium does not draw an off-screen cross-origin iframe (no
  // animation frames), so a view further down a course page draws when scrolled to.
  await page.setViewportSize({ width: 1024, height: 2400 });
  await recordMessages(page);
  await page.route(host, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }),
  );
  await page.goto(host);
  const iframes = page.locator('iframe');
  const frames = [
    await (await iframes.nth(0).elementHandle()).contentFrame(),
    await (await iframes.nth(1).elementHandle()).contentFrame(),
  ];
  for (const frame of frames)
    await frame.waitForFunction(
      () => document.getElementById('app')?.dataset.state === 'ready',
      null,
      { timeout: 15000 },
    );

  /** Wait until iframe i has been sized to its content, then check it fits exactly. */
  async function fits(i, what) {
    const frame = frames[i];
    await page.waitForFunction(
      ([i]) => {
        const last = window.heightMessages.filter((m) => m.from === i).at(-1);
        return (
          last &&
          document.querySelectorAll('iframe')[i].getBoundingClientRect().height === last.height
        );
      },
      [i],
      { timeout: 10000 },
    );
    await page.waitForTimeout(200); // no further message: the size has settled
    const last = await page.evaluate(
      (i) => window.heightMessages.filter((m) => m.from === i).at(-1),
      i,
    );
    const outer = await iframes.nth(i).evaluate((f) => f.getBoundingClientRect().height);
    const inner = await frameHeights(frame);
    assert.equal(outer, last.height, `${what}: the iframe took the posted height`);
    assert.ok(
      Math.abs(last.height - inner.html) <= 2,
      `${what}: posted ${last.height} px, the document is ${inner.html} px`,
    );
    assert.ok(
      Math.abs(inner.scroll - inner.viewport) <= 2,
      `${what}: the iframe scrolls (${inner.scroll} px in ${inner.viewport} px)`,
    );
    console.log(`${what}: ${last.height} px`);
    return last;
  }

  const first = await fits(0, 'README iframe (alignment)');
  assert.equal(first.id, null);
  assert.ok(first.height > 500, 'the heatmap is not cut: the iframe grew past its old 520 px');
  const mapBottom = await frames[0]
    .locator('attn-demo .align-map')
    .evaluate((el) => el.getBoundingClientRect().bottom);
  assert.ok(mapBottom <= first.height, 'the whole heatmap is inside the iframe');

  // The model card opened: taller.
  await frames[0].locator('attn-demo .card-host summary').click();
  const opened = await fits(0, 'model card opened');
  assert.ok(
    opened.height > first.height + 50,
    `the card adds height (${first.height} -> ${opened.height})`,
  );
  await screenshot(page, 'embed-height-card');

  // The second iframe, named: another view (the over-time view, which opens fully decoded);
  // Reset empties it (shorter), stepping adds rows (taller). The id stays in its URL as the page
  // rewrites the query.
  const alignment = await fits(1, 'second iframe (alignment)');
  assert.equal(alignment.id, 'second');
  await frames[1].locator('attn-demo button[role="tab"][data-view="time"]').click();
  const time = await fits(1, 'second iframe, over time');
  assert.equal(new URL(frames[1].url()).searchParams.get('id'), 'second');
  await frames[1].locator('attn-demo button[data-action="reset"]').click();
  const reset = await fits(1, 'second iframe, over time after Reset');
  assert.ok(
    reset.height < time.height - 100,
    `nothing decoded is shorter (${time.height} -> ${reset.height})`,
  );
  for (let k = 0; k < 4; k++)
    await frames[1].locator('attn-demo button[data-action="step"]').click();
  const stepped = await fits(1, 'second iframe, 4 rows decoded');
  assert.ok(
    stepped.height > reset.height,
    `decoded rows add height (${reset.height} -> ${stepped.height})`,
  );
  assert.equal(stepped.id, 'second');
  await screenshot(page, 'embed-height-snippet');
  assert.deepEqual(problems, []);
  await page.close();
});
