// lab-honesty.test.js: the lab says only what it measured (issue 30), in Chromium, in English and
// Chinese, on its test page tests/browser/lab.html with the real engine:
//   - the with-vs-without preset shows both parameter counts and that they are within 2 %, and its
//     time to a result (presets.js result); a changed experiment claims neither;
//   - 200 pasted pairs with known counts: the pairs line says how many are in use and why the
//     rest is left out (the sentence tests/js/lab-checks.test.js checks, built here in Node from
//     the same pairs), and the held-out set of 5 pairs is called too small to mean anything;
//   - pairs that cannot be learned (random outputs) trained until the run recalls its training
//     pairs: the overfit warning, with the training exact match drawn beside the held-out one.
// Waits are on counts and states, never on time. Screenshots: tests/browser/screenshots/
// lab-honesty-*.png (1280 × 720 and 390 × 844, both languages).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PRESETS, checkExperiment, parameterCount } from '../../web/lab/spec.js';
import { durationText, pairsSummary, warningText } from '../../web/lab/lab-notes.js';
import '../../web/lab/lab-text.js';
import { makeTask } from '../../web/lab/tasks.js';
import { parsePairs } from '../../web/lab/pairs.js';
import { t } from '../../web/shared/i18n.js';
import { screenshot, startBrowser } from './harness.js';

let browser;
before(async () => {
  browser = await startBrowser();
});
after(() => browser?.close());

async function openLab(query, width = 1280, height = 720) {
  const { page, problems } = await browser.newPage();
  await page.setViewportSize({ width, height });
  await page.goto(`${browser.url}/tests/browser/lab.html?${query}`);
  await page.waitForFunction(() => document.querySelector('attn-lab')?.experiment, null, {
    timeout: 20000,
  });
  await page.evaluate(() => document.querySelector('attn-lab').whenReady());
  return { page, problems };
}

const text = (page, id) => page.locator(`attn-lab #${id}`).textContent();
const shown = (page, id) => page.locator(`attn-lab #${id}`).evaluate((e) => !e.hidden);
const num = (lang, n) => n.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-US');

/** Paste pairs as a person does, then set the task's fields and runs (the pairs stay, by their hash). */
async function paste(page, tsv, task) {
  // on a phone the task's disclosure starts closed: open it, as a person would
  if (!(await page.locator('attn-lab #setup').evaluate((d) => d.open)))
    await page.locator('attn-lab #setup-summary').click();
  await page.locator('attn-lab #task').selectOption('custom');
  await page.locator('attn-lab #pairs-text').fill(tsv);
  await page.locator('attn-lab #pairs-use').click();
  await page.waitForFunction(() => document.querySelector('attn-lab').pairs?.length > 0);
  await page.evaluate((o) => {
    const lab = document.querySelector('attn-lab');
    const e = lab.experiment;
    lab.experiment = { ...e, ...o.rest, task: { ...e.task, ...o.task } };
  }, task);
  await page.evaluate(() => document.querySelector('attn-lab').whenReady());
}

for (const lang of ['en', 'zh']) {
  test(`${lang}: with vs without attention: both parameter counts, equal within 2 %, and its time`, async () => {
    const { page, problems } = await openLab(`preset=with-without&lang=${lang}`);
    const p = PRESETS.find((x) => x.id === 'with-without');
    const { experiment } = checkExperiment(p.experiment);
    const task = makeTask(experiment.task);
    const [a, b] = ['a', 'b'].map((id) => parameterCount(experiment[id].model, task));
    assert.deepEqual([a, b], [71159, 71273]);
    assert.equal(await text(page, 'a-params'), t(lang, 'lab.parameters', { n: num(lang, a) }));
    assert.equal(
      await text(page, 'b-params'),
      `${t(lang, 'lab.parameters', { n: num(lang, b) })} ${t(lang, 'lab.parameters.equal', {
        other: 'A',
        m: num(lang, a),
      })}`,
    );
    assert.ok(await shown(page, 'preset-time'));
    assert.equal(
      await text(page, 'preset-time'),
      t(lang, 'lab.preset.time', { time: durationText(lang, p.result.seconds) }),
    );
    assert.equal(await shown(page, 'lab-warn'), false, 'nothing to warn about');
    await screenshot(page, `lab-honesty-preset-${lang}-1280`);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100))));
    await screenshot(page, `lab-honesty-preset-${lang}-390`);
    // changed (B back at A's width): no longer the preset, so no claim and no time
    await page.evaluate(() => {
      const lab = document.querySelector('attn-lab');
      const e = lab.experiment;
      lab.experiment = { ...e, b: { ...e.b, model: { ...e.b.model, hidden: 64 } } };
    });
    await page.waitForFunction(
      () => document.querySelector('attn-lab').shadowRoot.getElementById('preset-time').hidden,
    );
    assert.equal(await text(page, 'b-params'), t(lang, 'lab.parameters', { n: num(lang, 44983) }));
    assert.deepEqual(problems, []);
    await page.close();
  });
}

/**
 * The pairs of tests/js/lab-checks.test.js's report: 106 distinct in 2–12 characters, 7 exact
 * repeats, 80 longer than 12, 7 of one character; interleaved.
 */
function pastedPairs() {
  const word = (i, n) =>
    Array.from({ length: n }, (_, k) =>
      String.fromCharCode(97 + ((i * 7 + k * 3 + (i >> 2)) % 26)),
    ).join('');
  const inRange = Array.from({ length: 106 }, (_, i) =>
    `${word(i, 2 + (i % 11))}${i}`.slice(0, 12),
  );
  const pairs = [...new Set(inRange)].map((src) => ({ src, tgt: [...src].reverse().join('') }));
  for (let i = 0; i < 7; i++) pairs.push({ ...pairs[i * 11] });
  for (let i = 0; i < 80; i++) {
    const src = word(i, 13 + (i % 8));
    pairs.push({ src, tgt: src });
  }
  for (let i = 0; i < 7; i++) pairs.push({ src: String.fromCharCode(97 + i), tgt: 'x' });
  return pairs
    .map((p, i) => [(i * 37) % 200, p])
    .sort((x, y) => x[0] - y[0])
    .map(([, p]) => p);
}

for (const [lang, width, height] of [
  ['en', 1280, 720],
  ['zh', 390, 844],
]) {
  test(`${lang}: 200 pasted pairs: how many in use, why the rest is left out, a held-out set too small`, async () => {
    const { page, problems } = await openLab(`lang=${lang}`, width, height);
    const pairs = pastedPairs();
    assert.equal(pairs.length, 200);
    const spec = { name: 'custom', minLength: 2, maxLength: 12, size: 0, level: 'char', seed: 1 };
    await paste(page, pairs.map((p) => `${p.src}\t${p.tgt}`).join('\n'), {
      task: { minLength: 2, maxLength: 12, level: 'char' },
    });
    const task = makeTask(spec, pairs);
    const want = pairsSummary(
      lang,
      { task: { ...spec, data: 'x' } },
      { pairs, level: 'char', name: '' },
      task,
    );
    assert.match(want, lang === 'en' ? /^106 of 200 pairs in use/ : /^200 对中有 106 对在用/);
    await page.waitForFunction(
      (w) =>
        document.querySelector('attn-lab').shadowRoot.getElementById('pairs-summary')
          .textContent === w,
      want,
      { timeout: 20000 },
    );
    // the held-out set: 5 pairs, under 50
    await page.waitForFunction(
      () => !document.querySelector('attn-lab').shadowRoot.getElementById('lab-warn').hidden,
      null,
      { timeout: 20000 },
    );
    assert.equal(task.heldout.length, 5);
    assert.equal(await text(page, 'lab-warn'), warningText(lang, { kind: 'small-heldout', n: 5 }));
    assert.equal(await shown(page, 'preset-time'), false, 'not a preset');
    await screenshot(page, `lab-honesty-pairs-${lang}-${width}`);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

/** 60 pairs whose outputs are random letters: nothing to learn but the pairs themselves. */
function randomPairs() {
  let x = 2026;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 16;
  const seen = new Set();
  const out = [];
  while (out.length < 60) {
    const src = Array.from({ length: 4 }, () => 'abcdefghij'[next() % 10]).join('');
    if (seen.has(src)) continue;
    seen.add(src);
    out.push(`${src}\t${'klmnopqrst'[next() % 10]}`);
  }
  return out.join('\n');
}

for (const [lang, width, height] of [
  ['en', 390, 844],
  ['zh', 1280, 720],
]) {
  test(
    `${lang}: a run that recalls its pairs but not the task: the overfit warning and the training curve`,
    { timeout: 300000 },
    async () => {
      const { page, problems } = await openLab(`lang=${lang}`, width, height);
      await paste(page, randomPairs(), {
        task: { minLength: 1, maxLength: 200, level: 'char' },
        rest: {
          a: {
            model: {
              family: 'seq2seq',
              cell: 'lstm',
              bidirectional: false,
              layers: 1,
              hidden: 48,
              embedding: 16,
              attention: 'additive',
              style: 'bahdanau',
            },
            train: {
              optimizer: 'adam',
              lr: 0.01,
              batch: 16,
              clip: 1,
              seed: 1,
              workers: 1,
              halfLife: 0,
            },
          },
          b: null,
        },
      });
      await page.evaluate(() => document.querySelector('attn-lab').start());
      await page.waitForFunction(
        () =>
          document
            .querySelector('attn-lab')
            .shadowRoot.getElementById('lab-warn')
            .dataset.kinds?.includes('overfit'),
        null,
        { timeout: 240000, polling: 250 },
      );
      await page.evaluate(() => document.querySelector('attn-lab').pause());
      const warn = await text(page, 'lab-warn');
      const head = t(lang, 'lab.warn.overfit')
        .split('{train}')[0]
        .replace('{run}', t(lang, 'lab.run.a'));
      assert.ok(warn.includes(head), warn);
      // and the held-out set of these pairs (split by input, whatever the seed) is too small too
      const heldout = makeTask(
        { name: 'custom', minLength: 1, maxLength: 200, size: 0, level: 'char', seed: 1 },
        parsePairs(randomPairs()).pairs,
      ).heldout.length;
      assert.ok(heldout < 50);
      assert.ok(warn.startsWith(warningText(lang, { kind: 'small-heldout', n: heldout })), warn);
      // the accuracy chart names the training series beside the held-out ones
      const alt = await page.locator('attn-lab #chart-accuracy').getAttribute('aria-label');
      assert.ok(alt.length > 0);
      await screenshot(page, `lab-honesty-overfit-${lang}-${width}`);
      assert.deepEqual(problems, []);
      await page.close();
    },
  );
}
