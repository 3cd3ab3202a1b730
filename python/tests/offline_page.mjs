// python/tests/offline_page.mjs: what chromium_grid.mjs and chromium_live.mjs share: Debian's
// Chromium (playwright-core) launched headless, and a page that may load only itself, data: and
// blob: (an attnlab.show() output must draw offline), recording what it asked for and what went
// wrong. The Python tests hold the expectations.
//
//   const browser = await launchChromium();
//   const { page, requests, refused, problems } = await offlinePage(browser, href);
//   // requests: every URL asked for; refused: those answered with blockedbyclient;
//   // problems: console errors and warnings, page errors

import { chromium } from 'playwright-core';

/** Debian's Chromium (CHROMIUM_PATH overrides), headless, nothing fetched in the background. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** A new 1280 × 720 page of browser that may reach only href, data: and blob:. */
export async function offlinePage(browser, href) {
  const requests = [];
  const refused = [];
  const problems = [];
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning')
      problems.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.route('**/*', (route) => {
    const url = route.request().url();
    requests.push(url);
    const { protocol } = new URL(url);
    if (url === href || protocol === 'data:' || protocol === 'blob:') return route.continue();
    refused.push(url);
    return route.abort('blockedbyclient');
  });
  return { page, requests, refused, problems };
}
