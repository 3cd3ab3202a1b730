// tests/browser/lab-pairs-worker.test.js: <attn-lab> parses pasted pairs off the page's thread
// (web/lab/pairs-worker.js through pairs-client.js), on its test page tests/browser/lab.html.
//
// Checks: 3 MB of valid pairs (50,000 rows) pasted and used show the progress bar with its label
// (en, zh) and then the report of what is in use (pairs-report.js), while the page keeps drawing frames (a requestAnimationFrame
// counter advances between the click and the result, and the result is not there in the click's
// own task, as it would be with a parse on the page's thread); a NUL still gets its line and
// column; a new paste cancels the running parse (the first paste's pairs never arrive).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MAX_PAIRS, PairsError, parsePairs } from '../../web/lab/pairs.js';
import '../../web/lab/lab-text.js';
import { pairsSummary } from '../../web/lab/lab-notes.js';
import { makeTask } from '../../web/lab/tasks.js';
import { t } from '../../web/shared/i18n.js';
import { startBrowser } from './harness.js';

/** MAX_PAIRS rows of 62 characters (3.1 MB), character level, a small vocabulary. */
const BIG = Array.from({ length: MAX_PAIRS }, (_, i) => {
  const src = `${String(i).padStart(6, '0')}abcdefghijklmnopqrstuvwx`;
  return `${src}\t${[...src].reverse().join('')}\n`;
}).join('');
const SMALL = 'tea\taet\nmoon\tnoom\nriver\trevir\n';
const NUL = 'abc\tcba\nhello\tol\0leh\n'; // line 2, column 9

let browser;
before(async () => {
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
});

async function openLab(lang) {
  const { page, problems } = await browser.newPage();
  await page.goto(`${browser.url}/tests/browser/lab.html?lang=${lang}`);
  await page.waitForFunction(() => document.querySelector('attn-lab')?.experiment !== null, null, {
    timeout: 20000,
  });
  await page.evaluate(() => document.querySelector('attn-lab').whenReady());
  await page.locator('attn-lab #task').selectOption('custom');
  return { page, problems };
}

/**
 * Paste texts one after the other (each set into the box and used, in one task), then count
 * frames until lab.pairs has `want` pairs; samples the progress bar at each frame.
 */
function pasteAndWatch(page, texts, want) {
  return page.evaluate(
    async ({ texts, want }) => {
      const lab = document.querySelector('attn-lab');
      const root = lab.shadowRoot;
      const box = root.getElementById('pairs-reading');
      const samples = [];
      let frames = 0;
      let counting = true;
      const tick = () => {
        if (!counting) return;
        frames++;
        const bar = root.getElementById('pairs-progress');
        if (!box.hidden) samples.push({ value: bar.value, label: box.textContent });
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      for (const text of texts) {
        root.getElementById('pairs-text').value = text;
        root.getElementById('pairs-use').click();
      }
      const inClickTask = lab.pairs?.length ?? 0;
      await new Promise((resolve) => {
        const poll = () =>
          lab.pairs?.length === want || lab.dataset.pairsProblem
            ? resolve(undefined)
            : requestAnimationFrame(poll);
        poll();
      });
      counting = false;
      // a few frames more: nothing later (a cancelled parse) replaces the pairs
      for (let i = 0; i < 10; i++) await new Promise((r) => requestAnimationFrame(r));
      return {
        frames,
        inClickTask,
        samples,
        pairs: lab.pairs?.length ?? 0,
        hidden: box.hidden,
        summary: root.getElementById('pairs-summary').textContent,
      };
    },
    { texts, want },
  );
}

test('3 MB of pairs parse in the worker: a progress bar, then the count; frames keep coming', async () => {
  assert.ok(BIG.length > 3e6 && BIG.length < 4 * 1048576, `${BIG.length} characters`);
  for (const lang of ['en', 'zh']) {
    const { page, problems } = await openLab(lang);
    const got = await pasteAndWatch(page, [BIG], MAX_PAIRS);
    assert.equal(got.inClickTask, 0, 'no pairs in the click’s own task (no parse on this thread)');
    assert.ok(got.frames >= 3, `${got.frames} frames drawn during the parse`);
    assert.ok(got.samples.length >= 1, 'the progress bar was shown');
    const reading = t(lang, 'lab.pairs.reading', { rows: '' }).split(' ')[0];
    for (const s of got.samples) {
      assert.ok(s.label.startsWith(reading), s.label);
      assert.ok(s.value >= 0 && s.value <= 1, String(s.value));
    }
    assert.equal(got.pairs, MAX_PAIRS);
    assert.equal(got.hidden, true, 'the bar is gone once the pairs are read');
    // the report of the task's own range (pairs-report.js): what is in use, what is left out
    const experiment = await page.evaluate(() => document.querySelector('attn-lab').experiment);
    const pairs = parsePairs(BIG, { level: 'auto' }).pairs;
    const task = makeTask(experiment.task, pairs);
    assert.equal(
      got.summary,
      pairsSummary(lang, experiment, { pairs, level: 'char', name: '' }, task),
    );
    assert.ok(got.summary.includes(MAX_PAIRS.toString()), got.summary);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('a NUL still names its line and column; a new paste cancels the running parse', async () => {
  const { page, problems } = await openLab('en');
  let err;
  try {
    parsePairs(NUL, { level: 'auto' });
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof PairsError && err.line === 2 && err.column === 9);
  const problem = t('en', 'lab.pairs.problem.control-char', { column: 9 });
  const want = t('en', 'lab.pairs.atLine', { line: 2, problem });
  await pasteAndWatch(page, [NUL], -1);
  await page.waitForFunction(
    (text) =>
      document.querySelector('attn-lab').shadowRoot.getElementById('pairs-problem').textContent ===
      text,
    want,
  );
  assert.match(want, /Line 2: .*column 9/);
  assert.equal(
    await page.evaluate(() => document.querySelector('attn-lab').dataset.pairsProblem),
    'control-char',
  );
  // the big paste, then at once a small one: the small one's 3 pairs stay
  const got = await pasteAndWatch(page, [BIG, SMALL], 3);
  assert.equal(got.pairs, 3);
  assert.match(got.summary, /^\d+ of 3 pairs in use/);
  assert.equal(got.hidden, true);
  assert.deepEqual(problems, []);
  await page.close();
});
