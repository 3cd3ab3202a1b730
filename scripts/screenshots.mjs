// scripts/screenshots.mjs: the pictures of the mechanism view in the README and docs/mechanism.md,
// taken again from the page as it is now (Debian's Chromium through playwright-core, the same as
// the browser tests). Each is the embed page (web/embed.html) at 1280×720, a 16:9 slide, with
// the picker, tabs, status, link and card hidden: the input, the picture, the stepping and the
// equations, as a teacher projects them.
//
//   node scripts/screenshots.mjs            # every picture into docs/images/
//   node scripts/screenshots.mjs --list     # the pictures and the embed address of each
//
// Holds: the list of pictures (model, input, step, language, extra settings). Deliberately not a
// test: the browser tests assert what the view draws; this only refreshes the docs' pictures.

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const OUT = path.join(ROOT, 'docs', 'images');
const HIDE = 'views,picker,status,link,card,lang';
const FBI = 'The FBI is chasing a criminal on the run.';

/** file (docs/images/<file>.png), the embed page's settings, and the viewport when not a slide. */
export const PICTURES = Object.freeze([
  { file: 'mechanism-seq2seq', model: 'dates-additive', input: '22 Nov 2026', step: 3 },
  {
    file: 'mechanism-seq2seq-zh',
    model: 'dates-additive',
    input: '22 Nov 2026',
    step: 3,
    lang: 'zh',
  },
  { file: 'mechanism-local-p', model: 'dates-local-p', input: 'Sunday, 22 November 2026', step: 5 },
  { file: 'mechanism-none', model: 'dates-none', input: '22 Nov 2026', step: 3 },
  { file: 'mechanism-memory', model: 'lm-agreement-sarnn', input: FBI, step: 4 },
  { file: 'mechanism-lstmn-zh', model: 'lm-agreement-lstmn', input: FBI, step: 4, lang: 'zh' },
  { file: 'mechanism-classifier', model: 'clf-reviews-structured', step: 1 },
  { file: 'mechanism-han-zh', model: 'clf-reviews-han', step: 1, lang: 'zh' },
  {
    file: 'mechanism-transformer',
    model: 'tf-dates-relative',
    input: '22 Nov 2026',
    step: 3,
    kind: 'cross',
    layer: 1,
    head: 2,
  },
  {
    file: 'mechanism-transformer-zh',
    model: 'tf-dates-relative',
    input: '22 Nov 2026',
    step: 3,
    kind: 'cross',
    layer: 1,
    head: 2,
    lang: 'zh',
  },
  {
    file: 'mechanism-zh-phone',
    model: 'dates-additive',
    input: '22 Nov 2026',
    step: 3,
    lang: 'zh',
    width: 390,
    height: 844,
  },
]);

/** The embed page's address (from the served root) of picture p. */
export function embedPath(p) {
  const q = new URLSearchParams({ view: 'mechanism', model: p.model, hide: HIDE });
  for (const k of ['input', 'step', 'lang', 'kind', 'layer', 'head'])
    if (p[k] !== undefined) q.set(k, String(p[k]));
  return `/web/embed.html?${q}`;
}

async function main() {
  if (process.argv.includes('--list')) {
    for (const p of PICTURES) console.log(`docs/images/${p.file}.png  ${embedPath(p)}`);
    return;
  }
  mkdirSync(OUT, { recursive: true });
  const { url, close } = await startServer({ root: ROOT, port: 0 });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  try {
    for (const p of PICTURES) {
      const page = await browser.newPage({
        viewport: { width: p.width ?? 1280, height: p.height ?? 720 },
      });
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(url + embedPath(p));
      // drawn: the view's picture has its parts (the element renders inside its shadow root)
      await page.waitForFunction(
        () => document.querySelector('attn-demo')?.shadowRoot?.querySelector('svg [tabindex]'),
        null,
        { timeout: 60_000 },
      );
      await page.waitForTimeout(300); // the last frame of the first paint
      if (errors.length) throw new Error(`${p.file}: ${errors.join('; ')}`);
      const file = path.join(OUT, `${p.file}.png`);
      await page.screenshot({ path: file });
      console.log(path.relative(ROOT, file));
      await page.close();
    }
  } finally {
    await browser.close();
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
