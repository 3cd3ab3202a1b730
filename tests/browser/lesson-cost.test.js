// lesson-cost.test.js: lesson step 5 (web/views/lesson-cost.js) in Chromium with synthetic
// timings injected through its test hook (setCostTimer), so that what is asserted is exact and
// no assertion depends on this machine's speed: the table shows each length's median and middle
// half of RUNS times, the chart one whisker per length and model, and the verdict line says the
// spread is small enough (clean timings) or too large to conclude anything, with what to do
// (noisy timings), in English and Chinese. Screenshots of both at 1280 × 720 and 390 × 844 go to
// tests/browser/screenshots/lesson-cost-*.png. The real measurement: tests/browser/lesson.test.js.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { t } from '../../web/shared/i18n.js';
import { COST_LENGTHS } from '../../web/shared/lesson-steps.js';
import { RUNS, quartiles } from '../../web/views/lesson-cost-stats.js';
import { screenshot, startBrowser } from './harness.js';

let browser;
let page;
let problems;
before(async () => {
  browser = await startBrowser();
  ({ page, problems } = await browser.newPage());
});
after(() => browser?.close());

/** Relative deviations of the RUNS calls at one length, in call order (their median is 0). */
const CLEAN = [0, -0.02, 0.02, -0.01, 0.01, 0.03, -0.03];
const NOISY = [0, -0.5, 0.5, -0.4, 0.4, 0.3, -0.3];
/** The synthetic ms per run of a model at length m, before the deviation. */
const base = (key, m) => (key === 'attn' ? 0.01 * m + 0.0002 * m * m : 0.008 * m);

/**
 * Open step 5 with the timer injected before its first measurement (the module is loaded on step
 * 4, the hook set, then the hash moves to step 5), wait until it is measured; what it shows.
 */
async function measured(lang, jitter) {
  await page.goto(`${browser.url}/web/#view=lesson&step=4&lang=${lang}`);
  await page.evaluate(
    async ({ src, jitter }) => {
      const { setCostTimer } = await import('/web/views/lesson-cost.js');
      const base = new Function(`return ${src}`)();
      const calls = new Map();
      setCostTimer((key, m) => {
        const i = calls.get(`${key}${m}`) ?? 0;
        calls.set(`${key}${m}`, i + 1);
        return base(key, m) * (1 + jitter[i % jitter.length]);
      });
    },
    { src: base.toString(), jitter },
  );
  await page.evaluate((l) => (location.hash = `#view=lesson&step=5&lang=${l}`), lang);
  await page.waitForSelector('.lesson-cost[data-state="done"]', { timeout: 30000 });
  return page.locator('.lesson-cost').evaluate((box) => ({
    verdict: box.querySelector('.lesson-cost-verdict').dataset.verdict,
    verdictText: box.querySelector('.lesson-cost-verdict').textContent,
    verdictShown: !box.querySelector('.lesson-cost-verdict').hidden,
    verdictFirst: box.firstElementChild.classList.contains('lesson-cost-verdict'),
    status: box.querySelector('.lesson-cost-status').textContent,
    rows: Array.from(box.querySelectorAll('.lesson-cost-table tbody tr'), (tr) => ({
      m: Number(tr.dataset.m),
      runs: Number(tr.dataset.runs),
      t: { none: Number(tr.dataset.tNone), attn: Number(tr.dataset.tAttn) },
      per: Array.from(tr.querySelectorAll('td'), (td) => [
        td.querySelector('.median')?.textContent ?? '',
        td.querySelector('.spread')?.textContent ?? '',
      ]).slice(2),
    })),
    whiskers: box.querySelectorAll('.lesson-cost-chart path.spread').length,
    lines: box.querySelectorAll('.lesson-cost-chart polyline').length,
  }));
}

/** The median and quartile texts the table must show for a model's row (µs per token). */
function expected(key, m, tOut, jitter) {
  const q = quartiles(jitter.map((d) => (1000 * base(key, m) * (1 + d)) / Math.max(1, tOut)));
  return [q.median.toFixed(1), `${q.q1.toFixed(1)}–${q.q3.toFixed(1)}`];
}

for (const lang of ['en', 'zh']) {
  test(`${lang}: clean timings: medians and middle halves shown, the spread small enough`, async () => {
    const v = await measured(lang, CLEAN);
    assert.deepEqual(
      v.rows.map((r) => r.m),
      [...COST_LENGTHS],
    );
    for (const r of v.rows) {
      assert.equal(r.runs, RUNS, `m=${r.m}: ${RUNS} times`);
      assert.deepEqual(r.per[0], expected('none', r.m, r.t.none, CLEAN), `m=${r.m} none`);
      assert.deepEqual(r.per[1], expected('attn', r.m, r.t.attn, CLEAN), `m=${r.m} attn`);
    }
    assert.equal(v.whiskers, 2 * COST_LENGTHS.length, 'one whisker per length and model');
    assert.equal(v.lines, 2);
    assert.ok(v.verdictShown && v.verdictFirst, 'the verdict comes first');
    assert.equal(v.verdict, 'clear');
    const head = t(lang, 'measured.cost.clear').split('{')[0];
    assert.ok(v.verdictText.startsWith(head), v.verdictText);
    assert.equal(v.status, t(lang, 'measured.cost.method', { runs: RUNS, ms: 15 }));
    for (const [w, h] of [
      [1280, 720],
      [390, 844],
    ]) {
      await page.setViewportSize({ width: w, height: h });
      await page.locator('.lesson-cost').scrollIntoViewIfNeeded();
      await screenshot(page, `lesson-cost-clear-${lang}-${w}`);
    }
    await page.setViewportSize({ width: 1024, height: 800 });
  });

  test(`${lang}: noisy timings: "too large to conclude anything" and what to do`, async () => {
    const v = await measured(lang, NOISY);
    assert.equal(v.verdict, 'noisy');
    assert.ok(v.verdictShown && v.verdictFirst);
    const template = t(lang, 'measured.cost.noisy');
    assert.ok(v.verdictText.startsWith(template.split('{')[0]), v.verdictText);
    assert.ok(v.verdictText.endsWith(template.split('}').at(-1)), 'says what to do');
    assert.match(v.verdictText, /70 ?%/, 'the middle half spans 70 % of the median');
    for (const r of v.rows)
      assert.deepEqual(r.per[1], expected('attn', r.m, r.t.attn, NOISY), `m=${r.m} attn`);
    for (const [w, h] of [
      [1280, 720],
      [390, 844],
    ]) {
      await page.setViewportSize({ width: w, height: h });
      await page.locator('.lesson-cost').scrollIntoViewIfNeeded();
      await screenshot(page, `lesson-cost-noisy-${lang}-${w}`);
    }
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.evaluate(async () => (await import('/web/views/lesson-cost.js')).setCostTimer(null));
  });
}

test('no page errors', () => assert.deepEqual(problems, []));
