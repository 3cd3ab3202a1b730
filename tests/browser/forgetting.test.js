// forgetting.test.js: the Forgetting view (<attn-demo view="forgetting">, web/views/forgetting-view.js)
// in Chromium, against the same seq2seq models run here in Node with wasm/index.js and the curve
// JSON read here.
//
// Checks: the length curve is the pair's JSON (web/models/forgetting.json for the trained pair,
// tests/fixtures/forgetting_curve.json for the untrained stand-ins, which say so): one line per
// model through every length, a table as its text alternative, arrow keys move a cursor whose
// accuracies are announced, SVG/PNG/CSV/JSON downloads; one input through both models: each
// output is Node's, its wrong characters are the ones marked, the attention model's alignment is
// Node's (with ink); the random-string button gives a held-out string of 5–60 symbols a–t and the
// URL follows; the nav link, the embed page and a bare <attn-demo view="forgetting">; Chinese;
// phone width and dark mode; and no console errors, failed or foreign requests.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { before, test } from 'node:test';
import { SYMBOLS, isHeldOutSequence } from '../../web/data/sequences.js';
import { formatValue } from '../../web/shared/draw.js';
import { t } from '../../web/shared/i18n.js';
import {
  checkCurve,
  compareReversal,
  curveCSV,
  reversePair,
} from '../../web/views/forgetting-view.js';
import { findModel, modelUrl, modelsFor, sampleFor } from '../../web/shared/models.js';
import { canvasInk, screenshot } from './harness.js';
import { assertClose, viewHarness } from './view-harness.js';

const WEB_DIR = new URL('../../web/', import.meta.url);
const PAIR = modelsFor('reverse');
const DEFAULT = PAIR[0].name;
const TRAINED =
  ['seq-reverse-attention', 'seq-reverse-none'].every((n) =>
    existsSync(fileURLToPath(modelUrl(findModel(n), WEB_DIR))),
  ) && existsSync(fileURLToPath(new URL('models/forgetting.json', WEB_DIR)));

const harness = viewHarness('forgetting');
const { nodeModel, stateKey, waitDemo } = harness;
const openForgetting = harness.open;
let browser;
let page;
let problems;
before(async () => ({ browser, page, problems } = await harness.start()));

const curveOf = (name) =>
  checkCurve(
    JSON.parse(readFileSync(fileURLToPath(new URL(reversePair(name).curve, WEB_DIR)), 'utf8')),
  );

function shown(p, selector = '#demo') {
  return p.locator(selector).evaluate((el) => {
    const root = el.shadowRoot;
    const map = root.querySelector('.forgetting-map');
    const d = map.data;
    return {
      lines: Array.from(root.querySelectorAll('.forgetting-chart polyline.curve'), (l) => ({
        model: l.dataset.model,
        points: l.getAttribute('points').split(' ').length,
      })),
      table: Array.from(root.querySelectorAll('.forgetting-table tbody tr'), (tr) =>
        Array.from(tr.children, (c) => c.textContent),
      ),
      fixture: !root.querySelector('.curve-fixture').hidden,
      cursor: Number(root.querySelector('.forgetting-chart').dataset.cursor),
      live:
        root.querySelector('section[data-view="forgetting"] > div > [aria-live]')?.textContent ??
        root.querySelector('.curve-box [aria-live]').textContent,
      expected: root.querySelector('.expected').textContent,
      runs: Array.from(root.querySelectorAll('figure.run'), (f) => ({
        model: f.dataset.model,
        output: f.querySelector('.chars').getAttribute('aria-label').split('; ')[0],
        wrong: Array.from(f.querySelectorAll('.chars span'), (s, i) =>
          s.className ? i : -1,
        ).filter((i) => i >= 0),
        score: f.querySelector('.score').textContent,
      })),
      map: d && {
        rows: d.rows,
        cols: d.cols,
        weights: Array.from(d.weights),
        rowLabels: [...d.rowLabels],
        colLabels: [...d.colLabels],
      },
      error: root.querySelector('.demo-error').hidden
        ? ''
        : root.querySelector('.demo-error').textContent,
      curveError: root.querySelector('.curve-error').hidden
        ? ''
        : root.querySelector('.curve-error').textContent,
    };
  });
}

const pct = (v) => `${(100 * v).toFixed(1)}%`;

/** The page's curve and run against the JSON and Node's runs of both models. */
async function assertForgettingMatchesNode(p, selector, name, input) {
  const pair = reversePair(name);
  const curve = curveOf(name);
  const v = await shown(p, selector);
  assert.equal(v.error, '');
  assert.equal(v.curveError, '');
  assert.deepEqual(
    v.lines,
    curve.models.map((m) => ({ model: m.name, points: curve.lengths.length })),
  );
  assert.equal(v.table.length, curve.lengths.length);
  curve.lengths.forEach((len, j) => {
    assert.deepEqual(v.table[j], [
      String(len),
      ...curve.models.flatMap((m) => [pct(m.tokenAccuracy[j]), pct(m.exactMatch[j])]),
    ]);
  });
  assert.equal(v.fixture, findModel(pair.attention).trained === false, 'the fixture curve says so');
  assert.equal(v.expected, Array.from(input).reverse().join(''));
  assert.deepEqual(
    v.runs.map((r) => r.model),
    [pair.attention, pair.none],
  );
  const results = [];
  for (const [i, n] of [pair.attention, pair.none].entries()) {
    const r = (await nodeModel(n)).run(input);
    const cmp = compareReversal(r.output, input);
    assert.equal(v.runs[i].output, r.output || '(empty)', `${n}: output`);
    assert.deepEqual(
      v.runs[i].wrong,
      cmp.chars.filter((c) => !c.ok).map((c) => c.index),
      `${n}: the wrong characters are marked`,
    );
    assert.match(
      v.runs[i].score,
      new RegExp(
        `^${cmp.right} of ${cmp.total} characters right \\(${pct(cmp.accuracy).replace('.', '\\.')}\\)`,
      ),
    );
    results.push(r);
  }
  const m = results[0].attention[0];
  assert.deepEqual([v.map.rows, v.map.cols], m.weights.shape);
  assert.deepEqual(v.map.rowLabels, [...m.rowLabels]);
  assert.deepEqual(v.map.colLabels, [...m.colLabels]);
  assertClose(v.map.weights, m.weights.data, `${pair.attention} alignment`);
  return { v, curve, results };
}

test("the offered pair and the trained pair: the curve is the JSON, the outputs and alignment are Node's", async () => {
  assert.deepEqual(
    PAIR.map((m) => m.attention),
    ['additive', 'none'],
  );
  const cases = [
    [DEFAULT, sampleFor(DEFAULT)],
    [DEFAULT, 'kajihgfedcbak'],
  ];
  if (TRAINED)
    cases.push(
      ['seq-reverse-attention', sampleFor('seq-reverse-attention')],
      ['seq-reverse-none', 'abcdefghijklmnopqrstabcdefghijklmnopqrstabcdefghijklmnopqrst'],
    );
  for (const [name, input] of cases) {
    await openForgetting({ model: name, input });
    await assertForgettingMatchesNode(page, '#demo', name, input);
    const { ink, total } = await canvasInk(page.locator('#demo .forgetting-map'));
    assert.ok(
      ink / total > 0.1,
      `${name}: only ${ink} of ${total} pixels of the alignment have ink`,
    );
    await screenshot(page, `forgetting-${name}-${input.length}`);
  }
  if (TRAINED) {
    // The trained pair on a long input: attention gets (nearly) everything right, the baseline does not.
    await openForgetting({
      model: 'seq-reverse-attention',
      input: sampleFor('seq-reverse-attention'),
    });
    const v = await shown(page);
    assert.ok(v.runs[0].wrong.length <= 2, `with attention: ${v.runs[0].wrong.length} wrong`);
    assert.ok(v.runs[1].wrong.length > 10, `without attention: ${v.runs[1].wrong.length} wrong`);
  }
});

test('an input longer than the models write: the view says where the reversal stops (en, zh)', async () => {
  const pair = reversePair(DEFAULT);
  const max = Math.min(
    (await nodeModel(pair.attention)).config.maxLength,
    (await nodeModel(pair.none)).config.maxLength,
  );
  const input = 'abcdefghijklmnopqrst'.repeat(4).slice(0, max + 3); // within the 64-character box
  assert.ok(input.length <= 64);
  for (const lang of ['en', 'zh']) {
    await openForgetting({ model: DEFAULT, input, lang });
    const note = await page
      .locator('#demo')
      .evaluate((d) => d.shadowRoot.querySelector('.run-note').textContent);
    assert.ok(note.includes(t(lang, 'forgetting.outputCut', { max, n: input.length })), note);
  }
  // one that fits: no such note
  await openForgetting({ model: DEFAULT, input: input.slice(0, max) });
  const note = await page
    .locator('#demo')
    .evaluate((d) => d.shadowRoot.querySelector('.run-note').textContent);
  assert.ok(!note.includes(t('en', 'forgetting.outputCut', { max, n: max })), note);
});

test('the random string: held out, 5 to 60 symbols a–t; both models run on it and the URL follows', async () => {
  await openForgetting({ model: DEFAULT, input: 'abc' });
  const demo = page.locator('#demo');
  for (let k = 0; k < 3; k++) {
    const before = await demo.evaluate((el) => el.state.input);
    await demo.locator('button[data-action="random"]').click();
    await page.waitForFunction((b) => document.querySelector('#demo').state.input !== b, before);
    const input = await demo.evaluate((el) => el.state.input);
    assert.ok(input.length >= 5 && input.length <= 60, input);
    assert.ok(
      [...input].every((c) => SYMBOLS.includes(c)),
      input,
    );
    assert.ok(isHeldOutSequence(input), `${input} is a held-out string`);
    await waitDemo(page, '#demo', stateKey({ model: DEFAULT, input }));
    assert.equal(
      new URLSearchParams(await page.evaluate(() => location.hash.slice(1))).get('input'),
      input,
    );
    assert.equal(await demo.locator('input#input').inputValue(), input);
    await assertForgettingMatchesNode(page, '#demo', DEFAULT, input);
  }
  // Typing works too.
  await demo.locator('input#input').fill('gfedcba');
  await waitDemo(page, '#demo', stateKey({ model: DEFAULT, input: 'gfedcba' }));
  await assertForgettingMatchesNode(page, '#demo', DEFAULT, 'gfedcba');
});

test('the chart: arrow keys move the cursor and announce both accuracies; table, downloads', async () => {
  const name = TRAINED ? 'seq-reverse-attention' : DEFAULT;
  const input = sampleFor(name);
  await openForgetting({ model: name, input });
  const { curve } = await assertForgettingMatchesNode(page, '#demo', name, input);
  const chart = page.locator('#demo .forgetting-chart');
  const say = (j) =>
    `Length ${curve.lengths[j]}: ${curve.models.map((m) => `${m.attention === 'none' ? 'without' : 'with'} attention ${pct(m.tokenAccuracy[j])}`).join(', ')}.`;
  const nearest = curve.lengths.reduce(
    (b, len, j) =>
      Math.abs(len - input.length) < Math.abs(curve.lengths[b] - input.length) ? j : b,
    0,
  );
  assert.equal(
    (await shown(page)).cursor,
    curve.lengths[nearest],
    "the cursor starts at the input's length",
  );
  await chart.focus();
  assert.equal((await shown(page)).live, say(nearest));
  await page.keyboard.press('Home');
  assert.equal((await shown(page)).live, say(0));
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const v = await shown(page);
  assert.equal(v.live, say(2));
  assert.equal(v.cursor, curve.lengths[2]);
  await page.keyboard.press('End');
  assert.equal((await shown(page)).live, say(curve.lengths.length - 1));
  await screenshot(page, 'forgetting-chart-keyboard');
  const files = {};
  for (const kind of ['svg', 'png', 'csv', 'json']) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator(`#demo button[data-chart-export="${kind}"]`).click(),
    ]);
    assert.match(download.suggestedFilename(), new RegExp(`^forgetting-curve-.*\\.${kind}$`));
    files[kind] = await readFile(await download.path());
  }
  assert.match(files.svg.toString(), /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.equal((files.svg.toString().match(/<polyline/g) ?? []).length, curve.models.length);
  assert.ok(
    files.png.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])) &&
      files.png.length > 2000,
  );
  assert.equal(files.csv.toString(), curveCSV(curve));
  const json = JSON.parse(files.json);
  assert.deepEqual(json.lengths, curve.lengths);
  assert.deepEqual(
    json.models.map((m) => m.tokenAccuracy),
    curve.models.map((m) => m.tokenAccuracy),
  );
  // The alignment heatmap's own exports and keyboard reading.
  const map = page.locator('#demo .forgetting-map');
  const r = (await nodeModel(reversePair(name).attention)).run(input);
  const [, S] = r.attention[0].weights.shape;
  await map.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  const live = await map.evaluate((el) => el.shadowRoot.querySelector('[aria-live]').textContent);
  assert.equal(
    live,
    `${r.attention[0].rowLabels[1]}, ${r.attention[0].colLabels[1]}: ${formatValue(r.attention[0].weights.data[S + 1])}`,
  );
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    map.locator('button[data-export="csv"]').click(),
  ]);
  assert.equal(
    (await readFile(await csv.path(), 'utf8')).trim().split('\r\n').length,
    r.attention[0].weights.shape[0] + 6,
  ); // 4 context rows, a blank one, the header
  // This run as JSON.
  const [run] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('#demo button[data-action="download-run"]').click(),
  ]);
  const doc = JSON.parse(await readFile(await run.path(), 'utf8'));
  assert.equal(doc.input, input);
  assert.equal(doc.models[0].output, r.output);
  assertClose(doc.models[0].alignment.data, r.attention[0].weights.data, 'run JSON alignment');
  assert.equal(doc.models[1].alignment, null);
});

test('the nav link, the embed page and a bare <attn-demo view="forgetting">', async () => {
  await page.goto(`${browser.url}/web/#view=alignment`);
  await page.waitForFunction(
    () => document.getElementById('app').dataset.rendered === location.hash,
  );
  await page.locator('#page-views a[data-view="forgetting"]').click();
  await waitDemo(page, '#demo', stateKey({ model: DEFAULT, input: sampleFor(DEFAULT) }));
  assert.equal(
    await page.locator('#models-title').textContent(),
    'Forgetting: long inputs with and without attention',
  );
  assert.equal(
    await page.locator('#demo select#model').isHidden(),
    true,
    'the pair is fixed: no picker',
  );
  await assertForgettingMatchesNode(page, '#demo', DEFAULT, sampleFor(DEFAULT));

  const { page: p, problems: embedProblems } = await browser.newPage();
  const s = { model: DEFAULT, input: 'hgfedcbaijk', lang: 'en' };
  await p.goto(`${browser.url}/web/embed.html?${stateKey(s)}`);
  await waitDemo(p, 'attn-demo', stateKey(s));
  await assertForgettingMatchesNode(p, 'attn-demo', s.model, s.input);
  const link = await p.locator('attn-demo a.link').getAttribute('href');
  await p.goto(link);
  await waitDemo(p, 'attn-demo', stateKey(s));
  await assertForgettingMatchesNode(p, 'attn-demo', s.model, s.input);
  // The random string rewrites the iframe's query.
  await p.locator('attn-demo button[data-action="random"]').click();
  await p.waitForFunction(() => new URL(location.href).searchParams.get('input') !== 'hgfedcbaijk');
  await screenshot(p, 'embed-forgetting');
  await p.goto(`${browser.url}/tests/browser/embed-host.html`);
  const bare = await p.evaluate(async () => {
    (await import('/web/embed.js')).define();
    const el = document.createElement('attn-demo');
    el.setAttribute('view', 'forgetting');
    document.getElementById('host').append(el);
    await new Promise((resolve) => el.addEventListener('demo-render', resolve, { once: true }));
    return {
      state: el.state,
      runs: el.shadowRoot.querySelectorAll('figure.run').length,
      lines: el.shadowRoot.querySelectorAll('polyline.curve').length,
    };
  });
  assert.equal(bare.state.model, DEFAULT);
  assert.equal(bare.state.input, sampleFor(DEFAULT));
  assert.deepEqual([bare.runs, bare.lines], [2, 2]);
  assert.deepEqual(embedProblems, []);
  await p.close();
});

test('Chinese strings; phone width and dark mode: nothing wider than the screen', async () => {
  const name = TRAINED ? 'seq-reverse-attention' : DEFAULT;
  const long = 'abcdefghijklmnopqrstabcdefghijklmnopqrstabcdefghijklmnopqrst';
  await openForgetting({ model: name, input: long, lang: 'zh' });
  assert.equal(await page.locator('#page-views a[data-view="forgetting"]').textContent(), '遗忘');
  assert.equal(
    await page.locator('#demo button[data-action="random"]').textContent(),
    '随机字符串',
  );
  assert.match(await page.locator('#demo figure.run .score').first().textContent(), /个字符中对了/);
  await page.setViewportSize({ width: 375, height: 740 });
  for (const lang of ['zh', 'en']) {
    await openForgetting({ model: name, input: long, lang });
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
    );
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    assert.ok(overflow <= 0, `${lang}: the page is ${overflow}px wider than the viewport`);
    await screenshot(page, `forgetting-phone-${lang}`);
  }
  await page.emulateMedia({ colorScheme: 'dark' });
  await openForgetting({ model: name, input: long });
  await page.locator('#demo .forgetting-chart').focus();
  await screenshot(page, 'forgetting-phone-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1024, height: 800 });
});

test('no console errors, failed requests or requests to another origin', () => {
  assert.deepEqual(problems, []);
  assert.deepEqual(browser.foreign, []);
});
