// harness.js: shared set-up for the browser tests (not a test file itself).
//
// Starts scripts/serve.mjs on a free port, launches Debian's Chromium through playwright-core
// with a fresh temporary profile, and opens pages that record every console error, page error,
// failed or non-2xx request, and any request that leaves the test server's origin (blocked),
// unless the test names that origin in allowOrigins (a second server of its own: a CDN).
// Deliberately never downloads a browser: a missing /usr/bin/chromium is a loud failure that
// names the install command, never a silent skip.
// ATTNLAB_TEST_ROOT=dist (a folder made by `make dist`) serves the production build instead of the
// repository, compressed as a static host would (gzip), to the tests that take the default root:
//   make dist && ATTNLAB_TEST_ROOT=dist node --test tests/browser/startup.test.js
// (startup, train, translation and input-notes pass whole, and the page's own views in demo, page,
// heads, pooling, reading and forgetting; the tests that load files the build does not hold, the
// tiny models of tests/fixtures, the host pages of tests/browser, web/embed.js or wasm/index.js,
// that read the development page's HTML (its import map, no inline script), or that proxy its
// gzip'd answers (embed-errors) fail there by design.)
// Service workers are blocked unless a test asks for them (serviceWorkers: 'allow'): Playwright's
// page.route() does not see the requests a service worker answers, and the tests that stub a 404
// rely on it; tests/browser/offline.test.js is the one that lets web/sw.js run.

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SCREENSHOTS = path.join(REPO_ROOT, 'tests', 'browser', 'screenshots');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const TEST_ROOT = process.env.ATTNLAB_TEST_ROOT
  ? path.resolve(REPO_ROOT, process.env.ATTNLAB_TEST_ROOT)
  : null;

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Throws, naming the fix, when Chromium is not installed. */
export function requireChromium() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}; the browser tests need it. ` +
        'Install it with: apt-get install -y chromium (or set CHROMIUM_PATH).',
    );
  }
}

/**
 * Server plus browser: { url, context, newPage(), close() }. newPage() returns
 * { page, problems } where problems lists everything that went wrong on that page.
 * allowOrigins: other origins the pages may reach (e.g. 'http://127.0.0.1:PORT'), all local;
 * allow(url: URL): other URLs they may reach (a test's own second origin, a file:// page).
 * serviceWorkers: 'block' (default) or 'allow'; compress: serve.mjs's (null, 'gzip', 'br').
 * Everything else off the server's origin is blocked and recorded.
 */
export async function startBrowser({
  root = TEST_ROOT ?? REPO_ROOT,
  allowOrigins = [],
  allow = () => false,
  serviceWorkers = 'block',
  compress = root === TEST_ROOT ? 'gzip' : null,
} = {}) {
  requireChromium();
  const server = await startServer({ root, port: 0, compress });
  const profile = await mkdtemp(path.join(tmpdir(), 'attnlab-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      viewport: { width: 1024, height: 800 },
      acceptDownloads: true,
      serviceWorkers,
    });
  } catch (err) {
    await server.close();
    await rm(profile, { recursive: true, force: true });
    throw err;
  }
  const origin = new URL(server.url).origin;
  const allowed = new Set([origin, ...allowOrigins]);
  // Block (and record) anything that leaves the test servers: the page must be self-contained.
  const foreign = [];
  const foreignUrl = (url) =>
    !['data:', 'blob:'].includes(url.protocol) && !allowed.has(url.origin) && !allow(url);
  await context.route(foreignUrl, (route) => {
    foreign.push(route.request().url());
    return route.abort('blockedbyclient');
  });
  for (const page of context.pages()) await page.close(); // the persistent context opens one

  async function newPage() {
    const page = await context.newPage();
    const problems = [];
    page.on('console', (msg) => {
      // Playwright's own note when serviceWorkers is 'block' (web/main.js registers web/sw.js): not the page's
      if (
        serviceWorkers === 'block' &&
        msg.text() === 'Service Worker registration blocked by Playwright'
      )
        return;
      if (msg.type() === 'error' || msg.type() === 'warning')
        problems.push(`console.${msg.type()}: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    // net::ERR_ABORTED is the browser cancelling a fetch still in flight when a test navigates
    // away (the model card, fetched after the first plot, often is); a missing file shows as an
    // HTTP status >= 400 below and an unreachable server as another error text, so neither hides.
    page.on('requestfailed', (req) => {
      const why = req.failure()?.errorText;
      if (why !== 'net::ERR_ABORTED') problems.push(`request failed: ${req.url()} (${why})`);
    });
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
    });
    page.on('request', (req) => {
      if (foreignUrl(new URL(req.url()))) problems.push(`foreign request: ${req.url()}`);
    });
    return { page, problems };
  }

  return {
    url: server.url,
    context,
    foreign,
    newPage,
    async close() {
      await context.close().catch(() => {});
      await server.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Put one iframe (sandbox="allow-scripts" unless sandbox is null) into page's #host, replacing
 * what is there, and resolve to its Frame. style: its CSS text.
 */
export async function hostIframe(page, src, { sandbox = 'allow-scripts', style = '' } = {}) {
  await page.evaluate(
    ({ src, sandbox, style }) => {
      const f = document.createElement('iframe');
      if (sandbox !== null) f.setAttribute('sandbox', sandbox);
      f.src = src;
      f.style.cssText = style;
      document.getElementById('host').replaceChildren(f);
    },
    { src, sandbox, style },
  );
  return (await page.waitForSelector('#host iframe')).contentFrame();
}

/** Save a screenshot under tests/browser/screenshots/ (gitignored). */
export async function screenshot(page, name) {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * Pixels of el's canvas that differ from its background colour, counted in the page:
 * { total, ink, background }; with near ([r, g, b]), ink counts the pixels close to that colour
 * instead (an overlay's, e.g. the gold outline). handle: an element handle or a locator. A
 * locator whose element a redraw replaced between resolving and reading (a view drawing again
 * when a model card lands) is resolved again, up to 5 times; a detached handle is an error.
 */
export async function canvasInk(handle, { near = null } = {}) {
  for (let attempt = 1; ; attempt++) {
    const r = await handle.evaluate((el, near) => {
      if (!el.isConnected) return { detached: true };
      const canvas = el.shadowRoot.querySelector('canvas');
      // Read a copy, so the element's own context is never flagged for repeated readbacks.
      const copy = document.createElement('canvas');
      copy.width = canvas.width;
      copy.height = canvas.height;
      const ctx = copy.getContext('2d', { willReadFrequently: true });
      ctx.drawImage(canvas, 0, 0);
      const { data } = ctx.getImageData(0, 0, copy.width, copy.height);
      const background = getComputedStyle(el).backgroundColor;
      const bg = background.match(/\d+(\.\d+)?/g)?.map(Number);
      if (!bg) return { unreadable: background };
      let ink = 0;
      for (let i = 0; i < data.length; i += 4) {
        const c = near ?? bg;
        const d =
          Math.abs(data[i] - c[0]) + Math.abs(data[i + 1] - c[1]) + Math.abs(data[i + 2] - c[2]);
        if (near ? d < 40 : d > 24) ink++;
      }
      return { total: data.length / 4, ink, background: bg };
    }, near);
    if (r.unreadable !== undefined)
      throw new Error(`canvasInk: background colour ${JSON.stringify(r.unreadable)} is not rgb()`);
    if (!r.detached) return r;
    if (attempt >= 5 || typeof handle.page !== 'function')
      throw new Error(`canvasInk: the element left the document (attempt ${attempt})`);
    // a locator: let the redraw finish (two frames), then resolve it again
    await handle
      .page()
      .evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      );
  }
}
