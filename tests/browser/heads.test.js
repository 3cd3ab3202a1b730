// heads.test.js: the Heads view (<attn-demo view="heads">, web/views/heads-view.js) in Chromium, against
// the same transformer models run here in Node with wasm/index.js.
//
// Checks: for every offered transformer (and each attention kind of an encoder-decoder) the
// layers × heads thumbnails hold exactly the pixels of Node's maps on the shared viridis scale and
// the enlarged map holds Node's weights and labels; a click or Enter on a thumbnail enlarges it and
// the URL follows; arrow keys move between thumbnails and across the enlarged map's cells (values
// announced); the kind selector; absolute vs relative positions, with the clipped distance matrix
// equal to attnlab's relativePositionAttention.distances; PNG/SVG/CSV/JSON of the enlarged map and
// every map as JSON; the nav link from the alignment view; the embed page and a bare
// <attn-demo view="heads"> reproduce the view; Chinese; phone width and dark mode; and no console
// errors, failed or foreign requests.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before, test } from 'node:test';
import { ops } from '../../wasm/index.js';
import { fillPixels, formatValue } from '../../web/shared/draw.js';
import { t } from '../../web/shared/i18n.js';
import { gridMax, selectMaps } from '../../web/views/heads-view.js';
import { modelsFor, sampleFor } from '../../web/shared/models.js';
import { canvasInk, screenshot } from './harness.js';
import { assertClose, viewHarness } from './view-harness.js';

const TRANSFORMERS = modelsFor('transformer');
// The trained dates transformers (learned and relative positions) as the page offers them; the
// untrained fixtures, reachable by name, for the kinds no trained model has (sinusoids, a
// relative decoder-only model).
const ENCDEC = 'tf-dates-absolute';
const RELATIVE_ED = 'tf-dates-relative';
const SINUSOIDAL = 'tiny-tf-encdec';
const RELATIVE = 'tiny-tf-rel-decoder';
const DATE = '22 Nov 2026';

const harness = viewHarness('heads');
const { nodeModel, stateKey, waitDemo, shown } = harness;
const openHeads = harness.open;
let browser;
let page;
let problems;
before(async () => ({ browser, page, problems } = await harness.start()));

/** Every thumbnail: its place, state, label and pixels (read from a copy, so no readback warning). */
function thumbnails(p, selector = '#demo') {
  return p.locator(selector).evaluate((el) =>
    Array.from(el.shadowRoot.querySelectorAll('button.thumb'), (b) => {
      const c = b.querySelector('canvas');
      const copy = document.createElement('canvas');
      copy.width = c.width;
      copy.height = c.height;
      const ctx = copy.getContext('2d', { willReadFrequently: true });
      ctx.drawImage(c, 0, 0);
      const rect = c.getBoundingClientRect();
      return {
        layer: Number(b.dataset.layer),
        head: Number(b.dataset.head),
        width: c.width,
        height: c.height,
        shownWidth: rect.width,
        pixels: Array.from(ctx.getImageData(0, 0, c.width, c.height).data),
        pressed: b.getAttribute('aria-pressed'),
        label: b.getAttribute('aria-label'),
      };
    }),
  );
}

/** The page's grid and enlarged map against Node's run of the same model and input. */
async function assertHeadsMatchNode(
  p,
  selector,
  name,
  input,
  { layer = 0, head = 0, kind = null } = {},
) {
  const model = await nodeModel(name);
  const r = model.run(input);
  const sel = selectMaps(r, model.config, kind);
  const max = gridMax(sel.grid);
  const thumbs = await thumbnails(p, selector);
  assert.equal(
    thumbs.length,
    sel.layers * sel.heads,
    `${name}: ${sel.layers} × ${sel.heads} thumbnails`,
  );
  for (const th of thumbs) {
    const m = sel.grid[th.layer][th.head];
    const [rows, cols] = m.weights.shape;
    assert.deepEqual(
      [th.height, th.width],
      [rows, cols],
      `${name} L${th.layer} H${th.head}: one pixel per weight`,
    );
    const expected = Array.from(
      fillPixels(m.weights.data, 0, max, new Uint8ClampedArray(rows * cols * 4)),
    );
    const wrong = th.pixels.reduce((n, v, i) => n + (v !== expected[i]), 0);
    assert.equal(
      wrong,
      0,
      `${name} L${th.layer} H${th.head}: ${wrong} channel values differ from Node's map on [0, ${max}]`,
    );
    assert.ok(th.shownWidth > 20, `${name}: thumbnails are drawn (${th.shownWidth}px wide)`);
    assert.match(
      th.label,
      new RegExp(`^Layer ${th.layer + 1}, head ${th.head + 1}: ${rows} × ${cols} weights`),
    );
    const L = Math.min(layer, sel.layers - 1);
    const H = Math.min(head, sel.heads - 1);
    assert.equal(th.pressed, String(th.layer === L && th.head === H));
  }
  const L = Math.min(layer, sel.layers - 1);
  const H = Math.min(head, sel.heads - 1);
  const m = sel.grid[L][H];
  const data = await shown(p, `${selector} .head-map`);
  assert.deepEqual([data.rows, data.cols], m.weights.shape);
  assert.deepEqual(data.rowLabels, [...m.rowLabels]);
  assert.deepEqual(data.colLabels, [...m.colLabels]);
  assertClose(data.weights, m.weights.data, `${name} layer ${L} head ${H} ${sel.kind ?? ''}`);
  const output = await p.locator(`${selector} section[data-view="heads"] output`).textContent();
  assert.equal(output, r.output || '(empty)', `${name}: output`);
  return { r, sel, m, max };
}

test("every offered transformer: the thumbnails and the enlarged map are Node's maps", async () => {
  assert.ok(TRANSFORMERS.length >= 2);
  for (const entry of TRANSFORMERS) {
    const model = await nodeModel(entry.name);
    const kinds =
      model.config.variant === 'encoder-decoder' ? ['encoder', 'decoder', 'cross'] : [null];
    for (const kind of kinds) {
      const s = { model: entry.name, input: entry.sample, layer: 1, head: 1, kind };
      await openHeads(s);
      await assertHeadsMatchNode(page, '#demo', entry.name, entry.sample, s);
      const { ink, total } = await canvasInk(page.locator('#demo .head-map'));
      assert.ok(
        ink / total > 0.1,
        `${entry.name} ${kind}: only ${ink} of ${total} pixels of the enlarged map have ink`,
      );
    }
  }
  await openHeads({ model: ENCDEC, input: DATE, layer: 1, head: 0, kind: 'cross' });
  await screenshot(page, 'heads-encdec-cross');
});

test('a click or Enter on a thumbnail enlarges it and the URL follows; arrows move between thumbnails', async () => {
  const name = ENCDEC;
  const input = DATE;
  await openHeads({ model: name, input, kind: 'cross' });
  await page.locator('#demo button.thumb[data-layer="1"][data-head="1"]').click();
  await waitDemo(page, '#demo', stateKey({ model: name, input, layer: 1, head: 1, kind: 'cross' }));
  assert.match(await page.evaluate(() => location.hash), /&layer=1&head=1&/);
  await page.waitForFunction(
    () => document.getElementById('app').dataset.rendered === location.hash,
  );
  await assertHeadsMatchNode(page, '#demo', name, input, { layer: 1, head: 1, kind: 'cross' });
  const focused = () =>
    page.locator('#demo').evaluate((el) => {
      const a = el.shadowRoot.activeElement;
      return a?.matches('button.thumb')
        ? `${a.dataset.layer},${a.dataset.head}`
        : (a?.tagName ?? null);
    });
  assert.equal(await focused(), '1,1');
  await page.keyboard.press('ArrowUp');
  assert.equal(await focused(), '0,1');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focused(), '0,0');
  await page.keyboard.press('ArrowLeft'); // stays inside the grid
  assert.equal(await focused(), '0,0');
  await page.keyboard.press('Enter');
  await waitDemo(page, '#demo', stateKey({ model: name, input, layer: 0, head: 0, kind: 'cross' }));
  await assertHeadsMatchNode(page, '#demo', name, input, { layer: 0, head: 0, kind: 'cross' });
  // One tab stop for the whole grid (a roving tabindex).
  const stops = await page
    .locator('#demo')
    .evaluate(
      (el) =>
        Array.from(el.shadowRoot.querySelectorAll('button.thumb')).filter((b) => b.tabIndex === 0)
          .length,
    );
  assert.equal(stops, 1);
  assert.equal(await focused(), '0,0');
});

test('the enlarged map: arrow keys move the focused cell and announce its value', async () => {
  const name = ENCDEC;
  const input = DATE;
  await openHeads({ model: name, input, layer: 1, head: 0, kind: 'decoder' });
  const { m } = await assertHeadsMatchNode(page, '#demo', name, input, {
    layer: 1,
    head: 0,
    kind: 'decoder',
  });
  const [, cols] = m.weights.shape;
  const w = m.weights.data;
  const live = () =>
    page
      .locator('#demo .head-map')
      .evaluate((el) => el.shadowRoot.querySelector('[aria-live]').textContent);
  await page.locator('#demo .head-map').focus();
  assert.equal(await live(), `${m.rowLabels[0]}, ${m.colLabels[0]}: ${formatValue(w[0])}`);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  assert.equal(
    await live(),
    `${m.rowLabels[2]}, ${m.colLabels[1]}: ${formatValue(w[2 * cols + 1])}`,
  );
  // The text alternative: a table of every weight.
  const cells = await page
    .locator('#demo .head-map')
    .evaluate((el) => el.shadowRoot.querySelectorAll('table td:not(:empty)').length);
  assert.equal(cells, w.length);
  assert.equal(
    await page.locator('#demo .head-map').getAttribute('label'),
    'Layer 2 head 1 decoder self-attention: query (row) × key (column)',
  );
  await screenshot(page, 'heads-keyboard');
});

test('encoder-decoder: the attention selector switches encoder self / decoder self / cross', async () => {
  const name = ENCDEC;
  const input = DATE;
  await openHeads({ model: name, input });
  assert.equal(await page.locator('#demo select#kind').inputValue(), 'cross');
  const S = (await nodeModel(name)).encode(input).length;
  await page.locator('#demo select#kind').selectOption('encoder');
  await waitDemo(page, '#demo', stateKey({ model: name, input, kind: 'encoder' }));
  assert.match(await page.evaluate(() => location.hash), /&kind=encoder$/);
  const { m } = await assertHeadsMatchNode(page, '#demo', name, input, { kind: 'encoder' });
  assert.deepEqual(m.weights.shape, [S, S]);
  // A decoder-only model has no selector.
  await openHeads({ model: 'tf-induction', input: '<s> a b c a' });
  assert.equal(await page.locator('#demo .kind-field').isHidden(), true);
});

test('positions: absolute models say so; relative models show clip(j − i, −k, k) as attnlab computes it', async () => {
  await openHeads({ model: 'tiny-tf-decoder', input: 'abcde' });
  assert.match(
    await page.locator('#demo .positions').textContent(),
    /Absolute positions: a learned vector per position \(at most 16\)/,
  );
  assert.equal(await page.locator('#demo .relative').isHidden(), true);
  await openHeads({ model: ENCDEC, input: DATE });
  const maxPositions = (await nodeModel(ENCDEC)).config.maxPositions;
  assert.match(
    await page.locator('#demo .positions').textContent(),
    new RegExp(`Absolute positions: a learned vector per position \\(at most ${maxPositions}\\)`),
  );
  await openHeads({ model: SINUSOIDAL, input: 'abc' });
  assert.match(await page.locator('#demo .positions').textContent(), /fixed sinusoids/);
  const model = await nodeModel(RELATIVE);
  const k = model.config.maxRelativePosition;
  assert.equal(model.config.positions, 'relative');
  await openHeads({ model: RELATIVE, input: 'abcde', layer: 1, head: 1 });
  const { m } = await assertHeadsMatchNode(page, '#demo', RELATIVE, 'abcde', { layer: 1, head: 1 });
  assert.match(
    await page.locator('#demo .positions').textContent(),
    new RegExp(`Relative positions \\(Shaw et al. 2018\\).*±${k}`),
  );
  const n = m.weights.shape[0];
  const dist = await shown(page, '#demo .distance-map');
  assert.deepEqual([dist.rows, dist.cols], [n, n]);
  assert.deepEqual(dist.weights, Array.from(ops.relativePositionAttention.distances(n, k).data));
  assert.deepEqual(dist.rowLabels, [...m.rowLabels]);
  assert.equal(await page.locator('#demo .distance-map').getAttribute('colormap'), 'diverging');
  const { ink, total } = await canvasInk(page.locator('#demo .distance-map'));
  assert.ok(ink / total > 0.1);
  // Keyboard reading of the distance map.
  await page.locator('#demo .distance-map').focus();
  await page.keyboard.press('End');
  const live = await page
    .locator('#demo .distance-map')
    .evaluate((el) => el.shadowRoot.querySelector('[aria-live]').textContent);
  assert.equal(live, `${m.rowLabels[0]}, ${m.colLabels[n - 1]}: ${Math.min(k, n - 1)}`);
  await screenshot(page, 'heads-relative');
  await openHeads({ model: RELATIVE_ED, input: DATE, kind: 'cross' });
  assert.equal(await page.locator('#demo .distance-map').isHidden(), true);
  assert.match(
    await page.locator('#demo .relative').textContent(),
    /Cross-attention uses no relative positions/,
  );
  await openHeads({ model: RELATIVE_ED, input: DATE, kind: 'encoder' });
  const ed = await assertHeadsMatchNode(page, '#demo', RELATIVE_ED, DATE, { kind: 'encoder' });
  const nEd = ed.m.weights.shape[0];
  const edK = (await nodeModel(RELATIVE_ED)).config.maxRelativePosition;
  const edDist = await shown(page, '#demo .distance-map');
  assert.equal(edDist.rows, nEd);
  assert.deepEqual(
    edDist.weights,
    Array.from(ops.relativePositionAttention.distances(nEd, edK).data),
  );
  await screenshot(page, 'heads-relative-dates');
});

test('exports: PNG, SVG, CSV and JSON of the enlarged map; every map as JSON', async () => {
  const name = ENCDEC;
  const input = DATE;
  await openHeads({ model: name, input, layer: 1, head: 1, kind: 'cross' });
  const { r, sel } = await assertHeadsMatchNode(page, '#demo', name, input, {
    layer: 1,
    head: 1,
    kind: 'cross',
  });
  const files = {};
  for (const kind of ['png', 'svg', 'csv', 'json']) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator(`#demo .head-map button[data-export="${kind}"]`).click(),
    ]);
    assert.match(
      download.suggestedFilename(),
      new RegExp(`^layer-2-head-2-cross-attention.*\\.${kind}$`),
    );
    files[kind] = await readFile(await download.path());
  }
  assert.ok(
    files.png.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])) &&
      files.png.length > 1000,
  );
  assert.match(files.svg.toString(), /^<svg xmlns/);
  const m = sel.grid[1][1];
  assert.equal(files.csv.toString().trim().split('\r\n').length, m.weights.shape[0] + 6); // 4 context rows, a blank one, the header
  assertClose(JSON.parse(files.json).weights, m.weights.data, 'JSON export');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('#demo button[data-action="download-maps"]').click(),
  ]);
  assert.match(download.suggestedFilename(), /\.json$/);
  const all = JSON.parse(await readFile(await download.path(), 'utf8'));
  assert.equal(all.model, name);
  assert.equal(all.kind, 'cross');
  assert.equal(all.output, r.output);
  assert.equal(all.maps.length, sel.layers * sel.heads);
  for (const mm of all.maps)
    assertClose(
      mm.weights,
      sel.grid[mm.layer][mm.head].weights.data,
      `all maps: L${mm.layer} H${mm.head}`,
    );
});

test('the nav link from the alignment view opens the default transformer and its sample', async () => {
  await page.goto(`${browser.url}/web/#view=alignment`);
  await page.waitForFunction(
    () => document.getElementById('app').dataset.rendered === location.hash,
  );
  await page.locator('#page-views a[data-view="heads"]').click();
  const s = { model: TRANSFORMERS[0].name, input: sampleFor(TRANSFORMERS[0].name) };
  await waitDemo(page, '#demo', stateKey(s));
  assert.equal(
    await page.locator('#models-title').textContent(),
    'A transformer’s attention, every layer and head',
  );
  await assertHeadsMatchNode(page, '#demo', s.model, s.input);
  // The demo's own tabs do the same, and back.
  await page.locator('#page-views a[data-view="alignment"]').click();
  await page.waitForFunction(() => /^#view=alignment&model=dates-/.test(location.hash));
});

test("typing re-runs the model; an input longer than the model's positions is reported plainly", async () => {
  const name = 'tiny-tf-decoder';
  await openHeads({ model: name, input: 'ab' });
  await page.locator('#demo input#input').fill('abcdh');
  await waitDemo(page, '#demo', stateKey({ model: name, input: 'abcdh' }));
  await assertHeadsMatchNode(page, '#demo', name, 'abcdh');
  await page.locator('#demo input#input').fill('abcdefghabcdefghabc');
  await waitDemo(page, '#demo', stateKey({ model: name, input: 'abcdefghabcdefghabc' }));
  // in the model's units, from its config (maxPositions 16), no developer message (states.test.js: both languages)
  assert.equal(
    await page.locator('#demo p.demo-error').textContent(),
    t('en', 'input.tooLong', { name, max: 16, unit: t('en', 'unit.char'), n: 19 }),
  );
  // The trained induction model, typed into word by word.
  await openHeads({ model: 'tf-induction', input: '<s> q' });
  await page.locator('#demo input#input').fill('<s> q w e r q w');
  await waitDemo(page, '#demo', stateKey({ model: 'tf-induction', input: '<s> q w e r q w' }));
  await assertHeadsMatchNode(page, '#demo', 'tf-induction', '<s> q w e r q w');
});

test('the embed page and a bare <attn-demo view="heads"> reproduce the view', async () => {
  const { page: p, problems: embedProblems } = await browser.newPage();
  const s = { model: ENCDEC, input: DATE, layer: 1, head: 1, kind: 'decoder', lang: 'en' };
  await p.goto(`${browser.url}/web/embed.html?${stateKey(s)}`);
  await waitDemo(p, 'attn-demo', stateKey(s));
  await assertHeadsMatchNode(p, 'attn-demo', s.model, s.input, s);
  const before = await shown(p, 'attn-demo .head-map');
  const link = await p.locator('attn-demo a.link').getAttribute('href');
  await p.goto(link);
  await waitDemo(p, 'attn-demo', stateKey(s));
  assert.deepEqual(await shown(p, 'attn-demo .head-map'), before);
  // Choosing another map rewrites the iframe's query.
  await p.locator('attn-demo button.thumb[data-layer="0"][data-head="1"]').click();
  await waitDemo(p, 'attn-demo', stateKey({ ...s, layer: 0, head: 1 }));
  assert.equal(new URL(p.url()).searchParams.get('head'), '1');
  assert.equal(new URL(p.url()).searchParams.get('kind'), 'decoder');
  await screenshot(p, 'embed-heads');
  // Hostile kind / head values are listed as refused.
  await p.goto(`${browser.url}/web/embed.html?view=heads&model=${ENCDEC}&kind=%3Cb%3Ex&head=1e3`);
  await p.waitForFunction(() => document.getElementById('app').dataset.state === 'ready');
  assert.match(await p.locator('#refused').textContent(), /kind, .*head|head, .*kind/);
  // A bare element: no model, no input: the heads view's default model and its sample.
  await p.goto(`${browser.url}/tests/browser/embed-host.html`);
  const bare = await p.evaluate(async () => {
    (await import('/web/embed.js')).define();
    const el = document.createElement('attn-demo');
    el.setAttribute('view', 'heads');
    document.getElementById('host').append(el);
    await new Promise((resolve) => el.addEventListener('demo-render', resolve, { once: true }));
    return { state: el.state, thumbs: el.shadowRoot.querySelectorAll('button.thumb').length };
  });
  assert.equal(bare.state.model, TRANSFORMERS[0].name);
  assert.equal(bare.state.input, sampleFor(TRANSFORMERS[0].name));
  assert.ok(bare.thumbs >= 2);
  assert.deepEqual(embedProblems, []);
  await p.close();
});

test('Chinese strings; phone width and dark mode: nothing wider than the screen', async () => {
  await openHeads({ model: ENCDEC, input: DATE, lang: 'zh', kind: 'cross' });
  assert.equal(await page.locator('#page-views a[data-view="heads"]').textContent(), '注意力头');
  assert.equal(await page.locator('#demo label[for="kind"]').textContent(), '注意力');
  assert.match(
    await page.locator('#demo button.thumb').first().getAttribute('aria-label'),
    /^第 1 层，头 1/,
  );
  await page.setViewportSize({ width: 375, height: 740 });
  for (const s of [
    { model: ENCDEC, input: DATE, kind: 'cross' },
    { model: RELATIVE, input: 'abcdefgh' },
  ]) {
    await openHeads(s);
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
    );
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    assert.ok(overflow <= 0, `${s.model}: the page is ${overflow}px wider than the viewport`);
    // Back in English, the grid's axis labels are too (the grid is rebuilt for a new language).
    assert.equal(await page.locator('#demo .heads-grid .axis.col').first().textContent(), 'Head 1');
    await screenshot(page, `heads-phone-${s.model}`);
  }
  await page.emulateMedia({ colorScheme: 'dark' });
  await openHeads({ model: ENCDEC, input: DATE, kind: 'cross' });
  await page.locator('#demo button.thumb').first().focus();
  await screenshot(page, 'heads-phone-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1024, height: 800 });
});

test('no console errors, failed requests or requests to another origin', () => {
  assert.deepEqual(problems, []);
  assert.deepEqual(browser.foreign, []);
});
