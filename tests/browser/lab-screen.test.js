// lab-screen.test.js: the lab (#view=lab of web/index.html) is one screen, as TensorFlow
// Playground is (issue 29; web/lab/lab-style.js, lab-form.js, lab-view.js), in Chromium.
//
// Checks: at 1280 × 800, in English and in Chinese, Start, the three charts (loss, accuracy,
// accuracy by length) and the attention maps of A, B and A − B are visible, of non-zero size and
// inside the first screen (nothing scrolled); both runs' settings are closed, each disclosure's
// summary showing one line of its settings (the cell, the size, the attention, the learning rate
// of the experiment); at 390 × 844 Start and the loss chart are inside the first screen; a
// settings disclosure opens and closes from the keyboard (Enter, Space), its fields shown when
// open and its summary line when closed; no console errors, failed or foreign requests.
// Screenshots: tests/browser/screenshots/lab-screen-{en,zh}-{1280,390}.png (the first screen).

import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { PRESETS, checkExperiment } from '../../web/lab/spec.js';
import '../../web/lab/lab-text.js';
import { mechanismName, t } from '../../web/shared/i18n.js';
import { SCREENSHOTS, startBrowser } from './harness.js';

let browser;

before(async () => {
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
});

// additive-dot: A and B both attend, so all three maps (A, B, A − B) are drawn
const PRESET = 'additive-dot';
const EXPERIMENT = checkExperiment(PRESETS.find((p) => p.id === PRESET).experiment).experiment;

/** The page at width × height on the lab, once both runs and all three maps are there. */
async function openLab(width, height, lang) {
  const { page, problems } = await browser.newPage();
  await page.setViewportSize({ width, height });
  await page.goto(`${browser.url}/web/index.html#view=lab&preset=${PRESET}&lang=${lang}`);
  await page.waitForSelector('#app[data-state="ready"]');
  await page.waitForFunction(() => document.querySelector('attn-lab')?.experiment, null, {
    timeout: 20000,
  });
  await page.evaluate(() => document.querySelector('attn-lab').whenReady());
  await page.waitForFunction(
    () => {
      const root = document.querySelector('attn-lab').shadowRoot;
      return ['a', 'b', 'diff'].every((id) => root.getElementById(`map-${id}`).data);
    },
    null,
    { timeout: 20000 },
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100))));
  return { page, problems };
}

/** Each id's box in the lab's shadow root (viewport px) and whether it is rendered visible. */
function boxes(page, ids) {
  return page.evaluate((ids) => {
    const root = document.querySelector('attn-lab').shadowRoot;
    const out = { scrollY: window.scrollY };
    for (const id of ids) {
      const e = root.getElementById(id);
      const r = e.getBoundingClientRect();
      out[id] = {
        top: r.top,
        bottom: r.bottom,
        width: r.width,
        height: r.height,
        visible: e.checkVisibility({ visibilityProperty: true, opacityProperty: true }),
      };
    }
    return out;
  }, ids);
}

function assertOnScreen(got, ids, height, what) {
  assert.equal(got.scrollY, 0, `${what}: the page is not scrolled`);
  for (const id of ids) {
    const b = got[id];
    assert.ok(b.visible, `${what}: #${id} is visible`);
    assert.ok(b.width > 0 && b.height > 0, `${what}: #${id} has a size (${b.width} × ${b.height})`);
    assert.ok(b.top >= 0, `${what}: #${id} starts on the screen (top ${b.top})`);
    assert.ok(b.bottom <= height, `${what}: #${id} ends by ${height} px (bottom ${b.bottom})`);
  }
}

async function shot(page, name) {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/** What a run's closed summary must name: its cell, size, attention and learning rate. */
function summaryParts(lang, run) {
  const m = run.model;
  return [String(m.cell).toUpperCase(), `×${m.hidden}`, mechanismName(lang, m.attention)].concat(
    String(run.train.lr),
  );
}

for (const lang of ['en', 'zh']) {
  test(
    `1280 × 800 (${lang}): Start, every chart and map on the first screen; the settings closed, each summary one line of them`,
    { timeout: 60000 },
    async () => {
      const { page, problems } = await openLab(1280, 800, lang);
      const ids = [
        'start',
        'chart-loss',
        'chart-accuracy',
        'chart-length',
        'map-a',
        'map-b',
        'map-diff',
      ];
      assertOnScreen(await boxes(page, ids), ids, 800, `${lang} 1280 × 800`);
      assert.equal(
        await page.locator('attn-lab #start').textContent(),
        t(lang, 'lab.start'),
        'Start is the start button, in the language',
      );
      for (const id of ['a', 'b']) {
        assert.equal(
          await page.locator(`attn-lab #${id}-settings`).evaluate((d) => d.open),
          false,
          `${id}'s settings are closed by default`,
        );
        assert.equal(await page.locator(`attn-lab #${id}-hidden`).isVisible(), false);
        const summary = page.locator(`attn-lab #${id}-summary`);
        assert.equal(
          await summary.isVisible(),
          true,
          `${id}'s closed disclosure shows its summary`,
        );
        const text = await summary.textContent();
        for (const part of summaryParts(lang, EXPERIMENT[id]))
          assert.ok(text.includes(part), `${id}'s summary ${JSON.stringify(text)} names ${part}`);
        const box = await boxes(page, [`${id}-summary`]);
        assert.ok(box[`${id}-summary`].bottom <= 800, `${id}'s summary is on the first screen`);
      }
      assert.notEqual(
        await page.locator('attn-lab #a-summary').textContent(),
        await page.locator('attn-lab #b-summary').textContent(),
        'A (additive) and B (dot) have different summaries',
      );
      await shot(page, `lab-screen-${lang}-1280`);
      assert.deepEqual(problems, []);
      await page.close();
    },
  );

  test(
    `390 × 844 (${lang}): Start and the loss chart on the first screen`,
    { timeout: 60000 },
    async () => {
      const { page, problems } = await openLab(390, 844, lang);
      const ids = ['start', 'chart-loss'];
      assertOnScreen(await boxes(page, ids), ids, 844, `${lang} 390 × 844`);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      assert.ok(overflow <= 0, `${overflow} px of sideways scrolling`);
      await shot(page, `lab-screen-${lang}-390`);
      assert.deepEqual(problems, []);
      await page.close();
    },
  );
}

test(
  'a settings disclosure opens and closes from the keyboard; closed, it shows its summary',
  { timeout: 60000 },
  async () => {
    const { page, problems } = await openLab(1280, 800, 'en');
    const summary = page.locator('attn-lab #a-settings-summary');
    const isOpen = () => page.locator('attn-lab #a-settings').evaluate((d) => d.open);
    const line = page.locator('attn-lab #a-summary');
    const closedText = await line.textContent();
    assert.ok(closedText.length > 10, `a summary line: ${JSON.stringify(closedText)}`);
    // the summary takes the focus (a <summary> is focusable), Enter opens it: the fields show
    await summary.focus();
    assert.equal(
      await page.evaluate(() => document.querySelector('attn-lab').shadowRoot.activeElement?.id),
      'a-settings-summary',
    );
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelector('attn-lab').shadowRoot.getElementById('a-settings').open,
    );
    assert.equal(await page.locator('attn-lab #a-hidden').isVisible(), true);
    assert.equal(await page.locator('attn-lab #a-download').isVisible(), true);
    assert.equal(await line.isVisible(), false, 'open, the summary line gives way to the fields');
    // Tab goes on into the settings (the family select first)
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate(() => document.querySelector('attn-lab').shadowRoot.activeElement?.id),
      'a-family',
    );
    // Space closes it again
    await summary.focus();
    await page.keyboard.press('Space');
    await page.waitForFunction(
      () => !document.querySelector('attn-lab').shadowRoot.getElementById('a-settings').open,
    );
    assert.equal(await isOpen(), false);
    assert.equal(await page.locator('attn-lab #a-hidden').isVisible(), false);
    assert.equal(await line.isVisible(), true, 'closed, it shows its summary');
    assert.equal(await line.textContent(), closedText);
    // a setting changed in the open disclosure shows in the closed summary
    await page.keyboard.press('Enter');
    await page.locator('attn-lab #a-hidden').fill('48');
    await page.locator('attn-lab #a-hidden').press('Tab');
    await summary.focus();
    await page.keyboard.press('Enter');
    assert.equal(await isOpen(), false);
    assert.ok(
      (await line.textContent()).includes('×48'),
      `the summary follows the settings: ${await line.textContent()}`,
    );
    assert.deepEqual(problems, []);
    await page.close();
  },
);
