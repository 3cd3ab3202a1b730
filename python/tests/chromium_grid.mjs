// python/tests/chromium_grid.mjs: opens a page of attnlab.show() outputs (written by
// test_show_browser.py) from file:// in Debian's Chromium (playwright-core) and reports what it
// drew, as JSON on stdout; the Python test holds the expectations.
//
//   node python/tests/chromium_grid.mjs page.html screenshots/   # -> {"outputs": [...], ...}
//
// For each .attnlab-output, in order: its kind and state; the thumbnails (layer, head, canvas
// size, every pixel's RGB, whether it has ink: more than one colour or not the page's white);
// the legends (count, min, max, caption, data-scale); the enlarged <attn-heatmap>'s data, labels
// and attributes, its export title (context, the SVG's text); after the keyboard (focus the first
// thumbnail, ArrowRight, Enter, ArrowDown, Enter) which map is enlarged and its weights; the
// values the enlarged map reports as the pointer crosses it (heatmap-hover, the tooltip). Also
// every request the page made (each answered only for the page itself, data: and blob:), console
// errors and page errors, and screenshots at 1280 × 720 and 390 × 844.

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium, offlinePage } from './offline_page.mjs';

const [file, shots] = process.argv.slice(2);
const href = pathToFileURL(path.resolve(file)).href;
const browser = await launchChromium();
try {
  const { page, requests, problems } = await offlinePage(browser, href);
  await page.goto(href);
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('.attnlab-output')].every(
        (r) => r.dataset.attnlabState === 'ready' || r.dataset.attnlabState === 'error',
      ),
    null,
    { timeout: 30_000 },
  );
  const outputs = await page.evaluate(() =>
    [...document.querySelectorAll('.attnlab-output')].map((root) => {
      const shadow = root.querySelector('.attnlab-mount').shadowRoot;
      const big = shadow.querySelector('attn-heatmap');
      const d = /** @type {any} */ (big)?.data;
      const thumbs = [...shadow.querySelectorAll('button.thumb')].map((b) => {
        const c = b.querySelector('canvas');
        const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        const rgb = [];
        for (let i = 0; i < px.length; i += 4) rgb.push([px[i], px[i + 1], px[i + 2], px[i + 3]]);
        const colours = new Set(rgb.map((p) => p.join()));
        return {
          layer: Number(b.dataset.layer),
          head: Number(b.dataset.head),
          width: c.width,
          height: c.height,
          shown: c.getBoundingClientRect().width > 4 && c.getBoundingClientRect().height > 4,
          rgb,
          ink:
            rgb.every((p) => p[3] === 255) && (colours.size > 1 || !colours.has('255,255,255,255')),
          label: b.getAttribute('aria-label'),
        };
      });
      return {
        kind: root.dataset.attnlabKind,
        state: root.dataset.attnlabState,
        selected: root.dataset.attnlabSelected ?? null,
        error: shadow.querySelector('.error')?.textContent ?? null,
        grids: shadow.querySelectorAll('.heads-grid').length,
        thumbs,
        legends: [...shadow.querySelectorAll('.legend')].map((l) => ({
          min: l.querySelector('.legend-min').textContent,
          max: l.querySelector('.legend-max').textContent,
          caption: l.querySelector('.legend-caption').textContent,
          scale: l.dataset.scale ?? null,
        })),
        heatmaps: shadow.querySelectorAll('attn-heatmap').length,
        big: d && {
          rows: d.rows,
          cols: d.cols,
          rowLabels: d.rowLabels,
          colLabels: d.colLabels,
          weights: Array.from(d.weights),
          scale: big.getAttribute('scale'),
          min: big.getAttribute('min'),
          max: big.getAttribute('max'),
          scaleMode: /** @type {any} */ (big).scaleMode,
          label: big.getAttribute('label'),
          title: /** @type {any} */ (big).context?.title ?? null,
          svgHasTitle: /** @type {any} */ (big).toSVG().includes(big.context?.title ?? '\u0000'),
          csvHead: /** @type {any} */ (big).toCSV().split('\n')[0],
        },
      };
    }),
  );
  // The keyboard, on the first grid: focus its first thumbnail, → and Enter, ↓ and Enter.
  const keys = [];
  const gridIndex = outputs.findIndex((o) => o.kind === 'grid');
  if (gridIndex >= 0) {
    const root = page.locator('.attnlab-output').nth(gridIndex);
    const first = root.locator('button.thumb').first();
    await first.focus();
    for (const key of ['ArrowRight', 'Enter', 'ArrowDown', 'Enter']) {
      await page.keyboard.press(key);
      if (key === 'Enter') {
        keys.push(
          await root.evaluate((r) => {
            const big = r.querySelector('.attnlab-mount').shadowRoot.querySelector('attn-heatmap');
            return {
              selected: r.dataset.attnlabSelected,
              focused:
                r.querySelector('.attnlab-mount').shadowRoot.activeElement?.dataset.layer +
                ',' +
                r.querySelector('.attnlab-mount').shadowRoot.activeElement?.dataset.head,
              weights: Array.from(/** @type {any} */ (big).data.weights),
              title: /** @type {any} */ (big).context.title,
            };
          }),
        );
      }
    }
  }
  // Hover values: the pointer swept over the first grid's enlarged map; each heatmap-hover's
  // { row, col, value } and the tooltip's text.
  const hovers = [];
  if (gridIndex >= 0) {
    const root = page.locator('.attnlab-output').nth(gridIndex);
    const big = () =>
      root.evaluate((r) => {
        const map = r.querySelector('.attnlab-mount').shadowRoot.querySelector('attn-heatmap');
        const c = map.shadowRoot.querySelector('canvas').getBoundingClientRect();
        const tip = map.shadowRoot.querySelector('.tooltip');
        return {
          box: { x: c.x, y: c.y, width: c.width, height: c.height },
          tip: tip && !tip.hidden ? tip.textContent : null,
          last: /** @type {any} */ (window).lastHover ?? null,
        };
      });
    await root.evaluate((r) => {
      const map = r.querySelector('.attnlab-mount').shadowRoot.querySelector('attn-heatmap');
      map.addEventListener('heatmap-hover', (e) => {
        /** @type {any} */ (window).lastHover = e.detail;
      });
    });
    const { box } = await big();
    for (let i = 1; i < 24; i++) {
      await page.mouse.move(box.x + (box.width * i) / 24, box.y + (box.height * i) / 24);
      const { tip, last } = await big();
      if (last) hovers.push({ ...last, tip });
    }
  }
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, 'show-grid-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300); // the heatmaps redraw on resize (one animation frame)
  await page.screenshot({ path: path.join(shots, 'show-grid-390.png'), fullPage: true });
  process.stdout.write(JSON.stringify({ outputs, keys, hovers, requests, problems, href }));
} finally {
  await browser.close();
}
