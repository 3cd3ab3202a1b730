// demo.test.js: the model views (<attn-demo> on web/index.html and web/embed.html, and in a
// plain host page) in Chromium, against the same models run here in Node with wasm/index.js.
//
// Checks: every offered model's alignment (output text and weights) equals Node's model.run;
// typing re-runs the model (and the per-keystroke inference + redraw time is printed, p95, not
// asserted), tokenising the input once per keystroke; keyboard navigation announces values and the explanation panel shows the weight,
// its rank and the recovered score; the time view steps to the same rows as run, with the local-p
// window drawn, and its decoded rows are in the URL (step=: a fresh page and the embed page decode
// as many; another view or input drop it; hostile steps refused; no step: the whole output); the
// model without attention drawn as a panel, not a map; compare shows every model and A − B (B
// teacher-forced); PNG/SVG downloads; the
// language switch; the custom elements in a host page (and that removing one frees its model);
// the sandboxed iframe; the iframe URL reproducing a view; hostile query/hash values refused, and
// named on both pages (an unknown hide flag too; a hash over 4,096 characters keeps its valid parts);
// a missing model file reported plainly; phone width, dark mode; and no console errors, failed or
// foreign requests.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { init, loadModel } from '../../wasm/index.js';
import { MAX_INPUT, MODEL_DEFAULTS, formatModelParams } from '../../web/shared/app-state.js';
import { formatValue } from '../../web/shared/draw.js';
import { formatProb } from '../../web/shared/output-confidence.js';
import { windowRange } from '../../web/shared/explain.js';
import { plural, t } from '../../web/shared/i18n.js';
import { MODELS, modelUrl } from '../../web/shared/models.js';
import { canvasInk, hostIframe, screenshot, startBrowser } from './harness.js';
import { TOLERANCE, assertClose, rendersWithin } from './view-harness.js';
import { startServer } from '../../scripts/serve.mjs';

const INPUT = MODELS[0].name.startsWith('dates') ? '22 Nov 2026' : 'abcdefghij';
const LOCAL = MODELS.find((m) => m.attention === 'local-p');

// Does the server answer cross-origin (opaque-origin) requests? A sandboxed iframe needs it.
const corsHeader = await (async () => {
  const server = await startServer({ port: 0 });
  try {
    const r = await fetch(`${server.url}/web/embed.js`, { headers: { Origin: 'null' } });
    return r.headers.get('access-control-allow-origin');
  } finally {
    await server.close();
  }
})();

let browser;
let page;
let problems;
const dialogs = [];
const nodeModels = new Map();

before(async () => {
  await init();
  browser = await startBrowser();
  ({ page, problems } = await browser.newPage());
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
});

after(async () => {
  for (const m of nodeModels.values()) m.dispose();
  await browser?.close();
});

/** The registry model `name`, loaded here in Node from the same file the page fetches. */
async function nodeModel(name) {
  if (!nodeModels.has(name)) {
    const entry = MODELS.find((m) => m.name === name);
    nodeModels.set(name, await loadModel(new Uint8Array(await readFile(new URL(modelUrl(entry))))));
  }
  return nodeModels.get(name);
}

const stateKey = (s) => formatModelParams({ ...MODEL_DEFAULTS, ...s, hide: [], seed: null });

/** Open the page at the model-view state s and wait until that view is drawn. */
async function openPage(s, p = page) {
  const key = stateKey(s);
  await p.goto(`${browser.url}/web/#${key}`);
  await waitDemo(p, '#demo', key);
}

async function waitDemo(p, selector, key) {
  await p.waitForFunction(
    ([sel, k]) => document.querySelector(sel)?.dataset.rendered === k,
    [selector, key],
    { timeout: 10000 },
  );
}

/** What a heatmap inside the demo shows. */
function shown(p, selector) {
  return p.locator(selector).evaluate((el) => {
    const d = el.data;
    return (
      d && {
        rows: d.rows,
        cols: d.cols,
        weights: Array.from(d.weights),
        rowLabels: [...d.rowLabels],
        colLabels: [...d.colLabels],
        marks: el.marks,
      }
    );
  });
}

async function assertAlignmentMatchesNode(p, selector, name, input) {
  const model = await nodeModel(name);
  const r = model.run(input);
  const map = r.attention[0];
  const data = await shown(p, `${selector} .align-map`);
  assert.equal(data.rows, map.weights.shape[0], `${name}: rows`);
  assert.equal(data.cols, map.weights.shape[1], `${name}: cols`);
  assert.deepEqual(data.rowLabels, map.rowLabels);
  assert.deepEqual(data.colLabels, map.colLabels);
  assertClose(data.weights, map.weights.data, `${name} alignment`);
  const output = await p.locator(`${selector} section[data-view="alignment"] output`).textContent();
  assert.equal(output, r.output || '(empty)', `${name}: output text`);
  return { r, data };
}

test('alignment: every offered model draws the same output and weights as Node', async () => {
  for (const m of MODELS) {
    await openPage({ view: 'alignment', model: m.name, input: INPUT });
    await assertAlignmentMatchesNode(page, '#demo', m.name, INPUT);
    if (m.attention === 'none') {
      // no map of zeros: the no-attention panel (states.test.js checks its text)
      assert.equal(await page.locator('#demo .align-map').isVisible(), false, `${m.name}: no map`);
      assert.equal(
        await page.locator('#demo section[data-view="alignment"] .no-attention').isVisible(),
        true,
        `${m.name}: the panel`,
      );
      continue;
    }
    const { ink, total } = await canvasInk(page.locator('#demo .align-map'));
    assert.ok(ink / total > 0.1, `${m.name}: only ${ink} of ${total} canvas pixels have ink`);
  }
  await openPage({ view: 'alignment', model: MODELS[0].name, input: INPUT });
  assert.equal(await page.locator('#demo').getAttribute('data-simd'), 'true');
  // the run alone; the build is said once, by the page, and is the status line's tooltip here
  assert.match(
    await page.locator('#demo .status').textContent(),
    /^\d+ output × \d+ input tokens in [\d.]+ ms\.$/,
  );
  assert.equal(await page.locator('#demo .status').getAttribute('title'), t('en', 'status.simd'));
  await screenshot(page, 'demo-alignment');
});

test('typing re-runs the model once per frame; per-keystroke time (p95) printed', async (t) => {
  const name = MODELS[0].name;
  await openPage({ view: 'alignment', model: name, input: 'a' });
  const input = page.locator('#demo input#input');
  await input.focus();
  await page.keyboard.press('End');
  await page.locator('#demo').evaluate((el) => (el.timings.length = 0));
  const typed = INPUT.startsWith('22')
    ? ' 22 Nov 2026 15 Jan 1999 3 Mar 2001'
    : 'bcdefghijkabcdefghijkabcdefghij';
  let text = 'a';
  for (const ch of typed) {
    text += ch;
    await page.keyboard.type(ch);
    await waitDemo(page, '#demo', stateKey({ view: 'alignment', model: name, input: text }));
  }
  await assertAlignmentMatchesNode(page, '#demo', name, text);
  assert.equal(
    new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('input'),
    text,
  );
  const timings = await page.locator('#demo').evaluate((el) => [...el.timings]);
  assert.ok(
    timings.length >= typed.length,
    `${timings.length} renders for ${typed.length} keystrokes`,
  );
  const sorted = [...timings].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))];
  const median = sorted[Math.floor(sorted.length / 2)];
  const message = `per-keystroke inference + redraw (${name}, ${timings.length} keystrokes, inputs up to ${text.length} chars): median ${median.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms`;
  t.diagnostic(message);
  console.log(`# ${message}`);
  // A burst of keystrokes in one frame is batched into one run.
  await page.locator('#demo').evaluate((el) => (el.timings.length = 0));
  await input.evaluate((el) => {
    for (const ch of 'xyz') {
      el.value += ch;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }
  });
  await waitDemo(page, '#demo', stateKey({ view: 'alignment', model: name, input: `${text}xyz` }));
  assert.equal(await page.locator('#demo').evaluate((el) => el.timings.length), 1);
});

test('one keystroke in the alignment view tokenises the input once (char and word models)', async () => {
  // Counts Tokenizer.split (encode and unknownWords go through it) in the page's own module.
  const countSplits = () =>
    page.evaluate(async () => {
      const url = new URL('/wasm/model/tokenizer.js', location.href).href;
      const { Tokenizer } = await import(url);
      const split = (window.realSplit ??= Tokenizer.prototype.split);
      window.splits = 0;
      Tokenizer.prototype.split = function (text) {
        window.splits++;
        return split.call(this, text);
      };
    });
  const restore = () =>
    page.evaluate(async () => {
      const url = new URL('/wasm/model/tokenizer.js', location.href).href;
      (await import(url)).Tokenizer.prototype.split = window.realSplit;
    });
  for (const [name, input, key] of [
    [MODELS[0].name, INPUT, '1'],
    ['en-fr-additive', 'the cat', 'x'],
  ]) {
    await openPage({ view: 'alignment', model: name, input });
    // the model's card (its "may be wrong" threshold) redraws the view once it lands, and under
    // load it can land after the keystroke: count only once the page has fetched it and drawn
    // (the page changes only its hash here, so a load state such as networkidle is long past)
    await page.waitForFunction(
      (file) =>
        performance
          .getEntriesByType('resource')
          .some((e) => e.name.endsWith(file) && e.responseEnd > 0),
      `/models/${name}.json`,
      { timeout: 10000 },
    );
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    await page.locator('#demo input#input').focus();
    await page.keyboard.press('End');
    await countSplits();
    try {
      await page.keyboard.type(key);
      await waitDemo(
        page,
        '#demo',
        stateKey({ view: 'alignment', model: name, input: input + key }),
      );
      assert.equal(await page.evaluate(() => window.splits), 1, `${name}: tokenised once`);
    } finally {
      await restore();
    }
  }
  // the word model's unknown word, read off that one tokenisation, is still named
  assert.match(await page.locator('#demo .unknown-words').textContent(), /catx/);
});

test('keyboard navigation announces values; the panel explains the cell with real numbers', async () => {
  const name = MODELS[0].name;
  await openPage({ view: 'alignment', model: name, input: INPUT });
  const { r } = await assertAlignmentMatchesNode(page, '#demo', name, INPUT);
  const map = r.attention[0];
  const S = map.weights.shape[1];
  const w = map.weights.data;
  const live = () =>
    page
      .locator('#demo .align-map')
      .evaluate((el) => el.shadowRoot.querySelector('[aria-live]').textContent);
  // each row label is said with its output token's probability (issue 30)
  const said = (t, s) =>
    `${map.rowLabels[t]} (p = ${formatValue(r.probs[t])}), ${map.colLabels[s]}`;
  await page.locator('#demo .align-map').focus();
  assert.equal(await live(), `${said(0, 0)}: ${formatValue(w[0])}`);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  assert.equal(await live(), `${said(1, 1)}: ${formatValue(w[S + 1])}`);
  const panel = await page.locator('#demo .explain').evaluate((el) => ({
    heading: el.querySelector('h3')?.textContent,
    terms: Object.fromEntries(
      Array.from(el.querySelectorAll('dt'), (dt) => [
        dt.textContent,
        dt.nextElementSibling.textContent,
      ]),
    ),
    live: el.getAttribute('aria-live'),
  }));
  assert.equal(panel.live, 'polite');
  // the cell at (1, 1) counted from 0 is said counted from 1, as every position shown to people
  assert.equal(
    panel.heading,
    `Output 2 “${map.rowLabels[1]}” attending to input 2 “${map.colLabels[1]}”`,
  );
  const row = Array.from(w.subarray(S, 2 * S));
  const weight = row[1];
  assert.equal(panel.terms['Weight αₜᵢ'], formatValue(weight));
  assert.equal(panel.terms['Rank in row'], `${1 + row.filter((v) => v > weight).length} / ${S}`);
  assert.equal(
    panel.terms['Score eₜᵢ − maxⱼ eₜⱼ'],
    formatValue(Math.log(weight) - Math.log(Math.max(...row))),
  );
  // and the panel gives that output token's probability
  assert.equal(
    panel.terms[`p(“${map.rowLabels[1]}”), the output token’s probability`],
    formatProb(r.probs[1]),
  );
  // Hovering a cell explains it too (the pointer over the middle of the grid).
  const box = await page.locator('#demo .align-map canvas').boundingBox();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.45);
  await page.waitForFunction(() => {
    const h = document.querySelector('#demo').shadowRoot.querySelector('.explain h3');
    return h && !/^Output 1 .* input 1 /.test(h.textContent);
  });
  await screenshot(page, 'demo-explain');
});

test('over time: Step grows the alignment one row at a time, as run; local-p window drawn', async () => {
  const name = LOCAL?.name ?? MODELS[0].name;
  const model = await nodeModel(name);
  const r = model.run(INPUT);
  const [T, S] = r.attention[0].weights.shape;
  await openPage({ view: 'time', model: name, input: INPUT });
  const step = page.locator('#demo button[data-action="step"]');
  for (let t = 1; t <= T; t++) {
    await step.click();
    await page.waitForFunction(
      (n) => document.querySelector('#demo').shadowRoot.querySelector('.time-map').data?.rows === n,
      t,
    );
    const data = await shown(page, '#demo .time-map');
    assertClose(
      data.weights,
      r.attention[0].weights.data.subarray(0, t * S),
      `time view after ${t} steps`,
    );
    if (r.positions) {
      const w = windowRange(r.positions[t - 1], model.config.window, S);
      assert.deepEqual(
        data.marks.map(({ row, from, to }) => ({ row, from, to })),
        w ? [{ row: t - 1, ...w }] : [],
      );
      assert.ok(Math.abs(data.marks[0].center - r.positions[t - 1]) < TOLERANCE);
    }
    if (t === 2) await screenshot(page, 'demo-time-step');
  }
  // done; Step would start again from the first token
  assert.ok(
    (await page.locator('#demo section[data-view="time"] p[aria-live]').textContent()).startsWith(
      t('en', 'time.done', { steps: plural('en', 'count.steps', T) }),
    ),
  );
  assert.equal(
    await page.locator('#demo section[data-view="time"] output').textContent(),
    r.output,
  );
  // Reset, then Play runs to the end by itself.
  await page.locator('#demo button[data-action="reset"]').click();
  await page.locator('#demo button[data-action="play"]').click();
  await page.waitForFunction(
    (n) => document.querySelector('#demo').shadowRoot.querySelector('.time-map').data?.rows === n,
    T,
    { timeout: 20000 },
  );
  assertClose(
    (await shown(page, '#demo .time-map')).weights,
    r.attention[0].weights.data,
    'time view after Play',
  );
});

test('over time: the decoded rows are in the URL; a fresh page and the embed page decode as many', async () => {
  const name = MODELS[0].name;
  const model = await nodeModel(name);
  const r = model.run(INPUT);
  const T = r.attention[0].weights.shape[0];
  const timeOutput = (p, selector) =>
    p.locator(`${selector} section[data-view="time"] output`).textContent();
  await openPage({ view: 'time', model: name, input: INPUT });
  const step = page.locator('#demo button[data-action="step"]');
  await step.click();
  await step.click();
  const s = { view: 'time', model: name, input: INPUT, step: 2 };
  await waitDemo(page, '#demo', stateKey(s));
  const hash = await page.evaluate(() => location.hash);
  assert.equal(hash, `#${stateKey(s)}`);
  const here = await shown(page, '#demo .time-map');
  assert.equal(here.rows, 2);
  assert.equal(await timeOutput(page, '#demo'), model.decode(r.ids.slice(0, 2)));
  assert.equal(
    await rendersWithin(page, '#demo', 500),
    0,
    'a step is drawn once, not again and again',
  );
  const { page: p, problems: freshProblems } = await browser.newPage();
  for (const [url, selector] of [
    [`${browser.url}/web/${hash}`, '#demo'],
    [`${browser.url}/web/embed.html?${stateKey(s)}`, 'attn-demo'],
  ]) {
    await p.goto(url);
    await waitDemo(p, selector, stateKey(s));
    assert.deepEqual(await shown(p, `${selector} .time-map`), here, url);
    assertClose(here.weights, r.attention[0].weights.data.subarray(0, 2 * here.cols), url);
    assert.equal(await timeOutput(p, selector), model.decode(r.ids.slice(0, 2)), url);
  }
  // Stepping on goes on from there, and the query follows.
  await p.locator('attn-demo button[data-action="step"]').click();
  await waitDemo(p, 'attn-demo', stateKey({ ...s, step: 3 }));
  assert.equal(new URL(p.url()).searchParams.get('step'), '3');
  assert.equal(await timeOutput(p, 'attn-demo'), model.decode(r.ids.slice(0, 3)));
  await p.locator('attn-demo button[data-view="alignment"]').click();
  await waitDemo(p, 'attn-demo', stateKey({ ...s, view: 'alignment', step: null }));
  assert.equal(new URL(p.url()).searchParams.has('step'), false, 'another view drops the step');
  // Past the end: the whole output, nothing refused.
  await p.goto(`${browser.url}/web/embed.html?${stateKey({ ...s, step: 64 })}`);
  await waitDemo(p, 'attn-demo', stateKey({ ...s, step: 64 }));
  assert.equal((await shown(p, 'attn-demo .time-map')).rows, T);
  assert.equal(await timeOutput(p, 'attn-demo'), r.output);
  assert.equal(await p.locator('#refused').isHidden(), true);
  // Hostile steps: refused (said on the embed page, dropped from the page's hash); the view opens
  // as without a step, on the whole output.
  for (const bad of ['-1', '1e9', 'abc']) {
    const q = `view=time&model=${name}&input=${encodeURIComponent(INPUT)}&step=${bad}`;
    await p.goto(`${browser.url}/web/embed.html?${q}`);
    await waitDemo(p, 'attn-demo', stateKey({ ...s, step: null }));
    assert.equal(
      await p.locator('#refused').textContent(),
      'Ignored invalid parameters: step',
      bad,
    );
    assert.equal((await shown(p, 'attn-demo .time-map')).rows, T, bad);
    await p.goto(`${browser.url}/web/#${q}`);
    await waitDemo(p, '#demo', stateKey({ ...s, step: null }));
    assert.equal(await p.evaluate(() => location.hash), `#${stateKey({ ...s, step: null })}`, bad);
  }
  assert.deepEqual(freshProblems, []);
  await p.close();
  // Reset decodes nothing (step=0); another view and another input drop the step (the whole
  // output again); play writes every row it decodes.
  await page.locator('#demo button[data-action="reset"]').click();
  await waitDemo(page, '#demo', stateKey({ ...s, step: 0 }));
  assert.equal(await shown(page, '#demo .time-map'), null);
  await step.click();
  await waitDemo(page, '#demo', stateKey({ ...s, step: 1 }));
  await page.locator('#page-views a[data-view="alignment"]').click();
  await waitDemo(page, '#demo', stateKey({ ...s, view: 'alignment', step: null }));
  await page.locator('#page-views a[data-view="time"]').click();
  await waitDemo(page, '#demo', stateKey({ ...s, step: null }));
  assert.equal(
    (await shown(page, '#demo .time-map')).rows,
    T,
    'back in the time view: the whole output, as the URL (no step) says',
  );
  await page.locator('#demo button[data-action="play"]').click();
  await page.waitForFunction((n) => location.hash.endsWith(`&step=${n}`), T, { timeout: 20000 });
  assert.equal((await shown(page, '#demo .time-map')).rows, T);
  await page.locator('#demo input#input').fill('1 Jan 2000');
  await waitDemo(page, '#demo', stateKey({ ...s, input: '1 Jan 2000', step: null }));
  assert.equal(
    (await shown(page, '#demo .time-map')).rows,
    (await nodeModel(name)).run('1 Jan 2000').attention[0].weights.shape[0],
  );
});

test('compare: every model on the same input, and A − B with B teacher-forced on A', async () => {
  const [a, b] = [MODELS[0].name, MODELS[1].name];
  await openPage({ view: 'compare', model: a, input: INPUT, a, b });
  const figures = await page
    .locator('#demo .grid figure')
    .evaluateAll((fs) => fs.map((f) => f.dataset.model));
  assert.deepEqual(
    figures,
    MODELS.map((m) => m.name),
  );
  for (const m of MODELS) {
    if (m.attention === 'none') {
      // its output and the no-attention panel, no map of zeros (states.test.js)
      assert.equal(
        await page.locator(`#demo figure[data-model="${m.name}"] .no-attention`).isVisible(),
        true,
        m.name,
      );
      continue;
    }
    const data = await shown(page, `#demo figure[data-model="${m.name}"] attn-heatmap`);
    assertClose(
      data.weights,
      (await nodeModel(m.name)).run(INPUT).attention[0].weights.data,
      `compare ${m.name}`,
    );
  }
  const A = await nodeModel(a);
  const B = await nodeModel(b);
  const ra = A.run(INPUT);
  const forced = B.score(INPUT, ra.ids).attention.data;
  const expected = ra.attention[0].weights.data.map((v, i) => v - forced[i]);
  const diff = await shown(page, '#demo .diff-map');
  assertClose(diff.weights, expected, 'A − B');
  assert.equal(await page.locator('#demo .diff-map').getAttribute('colormap'), 'diverging');
  const { ink, total } = await canvasInk(page.locator('#demo .diff-map'));
  assert.ok(ink / total > 0.1);
  // Choosing another B updates the difference and the URL.
  const c = MODELS[2].name;
  await page.locator('#demo select#model-b').selectOption(c);
  await waitDemo(page, '#demo', stateKey({ view: 'compare', model: a, input: INPUT, a, b: c }));
  assert.match(await page.evaluate(() => location.hash), new RegExp(`&b=${c}`));
  await screenshot(page, 'demo-compare');
});

test('PNG and SVG downloads produce files', async () => {
  await openPage({ view: 'alignment', model: MODELS[0].name, input: INPUT });
  for (const [kind, check] of [
    [
      'png',
      (buf) =>
        buf.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])) && buf.length > 1000,
    ],
    ['svg', (buf) => /^<svg xmlns/.test(buf.toString()) && buf.length > 1000],
  ]) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator(`#demo .align-map button[data-export="${kind}"]`).click(),
    ]);
    assert.match(download.suggestedFilename(), new RegExp(`\\.${kind}$`));
    const buf = await readFile(await download.path());
    assert.ok(check(buf), `${kind}: ${buf.length} bytes`);
  }
});

test('the language switch turns the interface Chinese and back; the hash keeps it', async () => {
  await openPage({ view: 'alignment', model: MODELS[0].name, input: INPUT });
  await page.locator('header #lang').selectOption('zh');
  await waitDemo(
    page,
    '#demo',
    stateKey({ view: 'alignment', model: MODELS[0].name, input: INPUT, lang: 'zh' }),
  );
  assert.equal(await page.locator('#page-views a[data-view="alignment"]').textContent(), '对齐');
  assert.equal(await page.locator('#demo label[for="input"]').textContent(), '输入');
  assert.match(await page.evaluate(() => location.hash), /&lang=zh$/);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans');
  await screenshot(page, 'demo-chinese');
  await page.locator('header #lang').selectOption('en');
  await waitDemo(
    page,
    '#demo',
    stateKey({ view: 'alignment', model: MODELS[0].name, input: INPUT }),
  );
  assert.equal(await page.locator('#demo label[for="input"]').textContent(), 'Input');
});

test('custom elements in a plain host page: define() registers, removal frees the model', async () => {
  const { page: host, problems: hostProblems } = await browser.newPage();
  await host.goto(`${browser.url}/tests/browser/embed-host.html`);
  const name = MODELS[1].name;
  const result = await host.evaluate(async (model) => {
    const mod = await import('/web/embed.js');
    const before = {
      heatmap: !!customElements.get('attn-heatmap'),
      demo: !!customElements.get('attn-demo'),
    };
    mod.define();
    const api = await (await import('/wasm/index.js')).init();
    const baseline = api.liveAllocations();
    const el = document.createElement('attn-demo');
    el.setAttribute('model', model);
    el.setAttribute('input', 'abc <b>x</b>');
    el.setAttribute('hide', 'picker lang');
    document.getElementById('host').append(el);
    await new Promise((resolve) => el.addEventListener('demo-render', resolve, { once: true }));
    const loaded = api.liveAllocations();
    const output = el.shadowRoot.querySelector('section[data-view="alignment"] output').textContent;
    const pickerHidden = el.shadowRoot.querySelector('#model').parentElement.hidden;
    el.remove();
    return {
      before,
      baseline,
      loaded,
      after: api.liveAllocations(),
      disposed: el.dataset.disposed,
      output,
      pickerHidden,
      bold: document.querySelectorAll('b').length,
    };
  }, name);
  assert.deepEqual(
    result.before,
    { heatmap: false, demo: false },
    'importing embed.js registers nothing',
  );
  assert.ok(result.loaded > result.baseline, 'the model holds wasm memory while shown');
  assert.equal(result.after, result.baseline, 'removing the element disposed its model');
  assert.equal(result.disposed, 'true');
  assert.equal(result.output, (await nodeModel(name)).run('abc <b>x</b>').output || '(empty)');
  assert.equal(result.pickerHidden, true);
  assert.equal(result.bold, 0);
  assert.deepEqual(hostProblems, []);
  await host.close();
});

test('the iframe URL reproduces a view, and follows what the person does', async () => {
  const { page: p, problems: embedProblems } = await browser.newPage();
  const s = { view: 'alignment', model: MODELS[2].name, input: INPUT, lang: 'zh' };
  await p.goto(
    `${browser.url}/web/embed.html?${formatModelParams({ ...MODEL_DEFAULTS, ...s, hide: ['lang'] })}`,
  );
  await waitDemo(p, 'attn-demo', stateKey(s));
  await assertAlignmentMatchesNode(p, 'attn-demo', s.model, INPUT);
  assert.equal(await p.locator('attn-demo #lang').isHidden(), true);
  // The element's own link reproduces exactly this view.
  const link = await p.locator('attn-demo a.link').getAttribute('href');
  const before = await shown(p, 'attn-demo .align-map');
  await p.goto(link);
  await waitDemo(p, 'attn-demo', stateKey(s));
  assert.deepEqual(await shown(p, 'attn-demo .align-map'), before);
  // Typing rewrites the query, so a reload shows the same thing.
  await p.locator('attn-demo input#input').fill('abc');
  await waitDemo(p, 'attn-demo', stateKey({ ...s, input: 'abc' }));
  assert.equal(new URL(p.url()).searchParams.get('input'), 'abc');
  await p.reload();
  await waitDemo(p, 'attn-demo', stateKey({ ...s, input: 'abc' }));
  await assertAlignmentMatchesNode(p, 'attn-demo', s.model, 'abc');
  await screenshot(p, 'embed-alignment-zh');
  // A seed picks a sample input when none is given.
  await p.goto(`${browser.url}/web/embed.html?model=${MODELS[0].name}&seed=7&view=time`);
  await p.waitForFunction(() => document.getElementById('app').dataset.state === 'ready');
  assert.match(await p.locator('attn-demo input#input').inputValue(), /^[a-k]{4,9}$|\d/);
  assert.deepEqual(embedProblems, []);
  await p.close();
});

test('a same-origin model path works; hostile query values are refused, nothing injected', async () => {
  const { page: p, problems: hostileProblems } = await browser.newPage();
  p.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  await p.goto(
    `${browser.url}/web/embed.html?model=/tests/fixtures/model_lstm_none.safetensors&input=abc`,
  );
  await p.waitForFunction(() => document.getElementById('app').dataset.state === 'ready');
  assert.equal(await p.locator('#refused').isHidden(), true);
  const evil = 'https://evil.example/m.safetensors';
  const hostileInput = '<img src=x onerror=alert(1)><script>alert(2)</script>';
  const q = new URLSearchParams({
    model: evil,
    view: '<svg onload=alert(3)>',
    layer: '-1',
    head: '1e9',
    lang: 'xx',
    seed: 'NaN',
    input: hostileInput,
    a: 'javascript:alert(4)',
    b: '//evil.example/b.safetensors',
    hide: 'views,<b>',
  });
  await p.goto(`${browser.url}/web/embed.html?${q}`);
  await p.waitForFunction(() => document.getElementById('app').dataset.state === 'ready');
  const refused = await p.locator('#refused').textContent();
  for (const k of ['model', 'view', 'layer', 'head', 'lang', 'seed', 'a', 'b'])
    assert.match(refused, new RegExp(`\\b${k}\\b`), refused);
  const state = await p.locator('attn-demo').evaluate((el) => el.state);
  assert.equal(state.model, MODELS[0].name);
  assert.equal(state.view, 'alignment');
  assert.equal(state.input, hostileInput);
  assert.equal(await p.locator('attn-demo input#input').inputValue(), hostileInput);
  await assertAlignmentMatchesNode(p, 'attn-demo', MODELS[0].name, hostileInput);
  const injected = await p.evaluate(() => {
    const roots = [document, document.querySelector('attn-demo').shadowRoot];
    return roots.map((r) => r.querySelectorAll('img, script:not([src]), svg, b').length);
  });
  assert.deepEqual(injected, [0, 0]);
  // The page's hash is validated the same way.
  await p.goto(
    `${browser.url}/web/#view=alignment&model=${encodeURIComponent('//evil.example/x.safetensors')}&input=${encodeURIComponent('<svg onload=alert(5)>')}&layer=NaN`,
  );
  await p.waitForFunction(() =>
    document.getElementById('app').dataset.rendered?.startsWith('#view=alignment'),
  );
  assert.match(
    await p.evaluate(() => location.hash),
    new RegExp(`model=${MODELS[0].name}&input=%3Csvg%20onload%3Dalert%285%29%3E&layer=0`),
  );
  assert.deepEqual(dialogs, []);
  assert.deepEqual(hostileProblems, []);
  assert.deepEqual(browser.foreign, []);
  await p.close();
});

test('refused hash parameters are named on the page (en, zh); a 5,000-character input costs only itself', async () => {
  const { page: p, problems: refusedProblems } = await browser.newPage();
  const hash = `#view=alignment&model=dates-dot&bogus=1&hide=picker,nonsense&input=${'x'.repeat(5000)}`;
  assert.ok(hash.length > 4096);
  await p.goto(`${browser.url}/web/${hash}`);
  await p.waitForFunction(
    () =>
      document
        .getElementById('app')
        .dataset.rendered?.startsWith('#view=alignment&model=dates-dot&'),
    null,
    { timeout: 10000 },
  );
  // The valid view and model open; the over-long input gives way to the model's sample.
  const state = await p.locator('#demo').evaluate((el) => el.state);
  assert.deepEqual(
    [state.view, state.model, state.input],
    ['alignment', 'dates-dot', '22 Nov 2026'],
  );
  assert.equal(await p.locator('#refused').isVisible(), true);
  assert.equal(
    await p.locator('#refused').textContent(),
    'Ignored invalid parameters: input, hide=nonsense',
  );
  await screenshot(p, 'page-refused-en');
  // The notice follows the language switch, in the embed page's words.
  await p.locator('header #lang').selectOption('zh');
  await p.waitForFunction(
    () => document.getElementById('app').dataset.rendered?.endsWith('&lang=zh'),
    null,
    { timeout: 10000 },
  );
  assert.equal(await p.locator('#refused').textContent(), '已忽略无效参数：input, hide=nonsense');
  await screenshot(p, 'page-refused-zh');
  // A clean hash (a link followed) clears it.
  await p.evaluate(() => {
    location.hash = '#view=time&model=dates-dot&input=1%20Jan%202020';
  });
  await p.waitForFunction(
    () => document.getElementById('app').dataset.rendered?.startsWith('#view=time&'),
    null,
    { timeout: 10000 },
  );
  assert.equal(await p.locator('#refused').isHidden(), true);
  // The embed page: the unknown flag is named, the known one still hides the picker.
  await p.goto(`${browser.url}/web/embed.html?model=dates-dot&input=abc&hide=picker,nonsense`);
  await p.waitForFunction(() => document.getElementById('app').dataset.state === 'ready');
  assert.equal(
    await p.locator('#refused').textContent(),
    'Ignored invalid parameters: hide=nonsense',
  );
  assert.equal(await p.locator('attn-demo').getAttribute('hide'), 'picker');
  assert.equal(await p.locator('attn-demo select#model').isVisible(), false);
  // An input a little over the box's MAX_INPUT (under the 1,024-character part limit): cut, and
  // said so, on the page (en, zh) and on the embed page.
  const long = 'The FBI is chasing a criminal on the run. '.repeat(2); // 84 characters
  await p.goto(
    `${browser.url}/web/#view=alignment&model=dates-dot&input=${encodeURIComponent(long)}&lang=zh`,
  );
  await p.waitForFunction(
    () =>
      document
        .getElementById('app')
        .dataset.rendered?.startsWith('#view=alignment&model=dates-dot&'),
    null,
    { timeout: 10000 },
  );
  assert.equal(await p.locator('#demo').evaluate((el) => el.state.input), long.slice(0, MAX_INPUT));
  assert.equal(
    await p.locator('#refused').textContent(),
    t('zh', 'url.inputCut', { n: long.length, max: MAX_INPUT }),
  );
  await p.goto(`${browser.url}/web/embed.html?model=dates-dot&input=${encodeURIComponent(long)}`);
  await p.waitForFunction(() => document.getElementById('app').dataset.state === 'ready');
  assert.equal(
    await p.locator('#refused').textContent(),
    t('en', 'url.inputCut', { n: long.length, max: MAX_INPUT }),
  );
  assert.deepEqual(refusedProblems, []);
  await p.close();
});

test('a missing model file: a clear message, no script error', async () => {
  const { page: p, problems: missingProblems } = await browser.newPage();
  await p.route('**/web/models/dates-dot.safetensors', (route) =>
    route.fulfill({ status: 404, body: 'not here' }),
  );
  await p.goto(`${browser.url}/web/embed.html?model=dates-dot&input=abc`);
  await p.waitForFunction(() => document.getElementById('app').dataset.state === 'ready');
  const error = await p.locator('attn-demo p.demo-error').textContent();
  assert.match(
    error,
    /^Model dates-dot is not available: http:\/\/.*\/web\/models\/dates-dot\.safetensors answered HTTP 404\. .*pick another model\.$/,
  );
  // Only the browser's own note of the 404 itself; nothing thrown or logged by the page.
  assert.deepEqual(
    missingProblems.filter((m) => !/404/.test(m)),
    [],
    missingProblems.join('\n'),
  );
  await screenshot(p, 'embed-missing-model');
  await p.close();
});

test('sandboxed iframe (allow-scripts only, opaque origin) runs the view', async () => {
  assert.ok(
    corsHeader,
    'scripts/serve.mjs must send Access-Control-Allow-Origin for opaque-origin (sandboxed) pages',
  );
  const { page: p, problems: sandboxProblems } = await browser.newPage();
  await p.goto(`${browser.url}/tests/browser/embed-host.html`);
  const s = { view: 'alignment', model: MODELS[0].name, input: INPUT };
  const frame = await hostIframe(p, `/web/embed.html?${stateKey(s)}`, {
    style: 'width: 900px; height: 700px',
  });
  await frame.waitForFunction(
    (k) => document.querySelector('attn-demo')?.dataset.rendered === k,
    stateKey(s),
    { timeout: 10000 },
  );
  assert.equal(await frame.evaluate(() => self.origin), 'null');
  await assertAlignmentMatchesNode(frame, 'attn-demo', s.model, INPUT);
  await screenshot(p, 'embed-sandboxed');
  assert.deepEqual(sandboxProblems, []);
  await p.close();
});

test('phone width and dark mode: nothing wider than the screen', async () => {
  await page.setViewportSize({ width: 375, height: 740 });
  for (const view of ['alignment', 'compare']) {
    await openPage({ view, model: MODELS[0].name, input: `${INPUT}${INPUT}` });
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
    ); // resize redraws
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    const wide = await page.evaluate(() => {
      const out = [];
      const walk = (root) => {
        for (const el of root.querySelectorAll('*')) {
          if (el.closest('.visually-hidden')) continue;
          const r = el.getBoundingClientRect();
          if (r.right > innerWidth + 1)
            out.push(
              `${el.tagName}.${el.className}#${el.id} ${Math.round(r.left)}-${Math.round(r.right)}`,
            );
          if (el.shadowRoot) walk(el.shadowRoot);
        }
      };
      walk(document);
      return out.slice(0, 10);
    });
    assert.ok(
      overflow <= 0,
      `${view}: the page is ${overflow}px wider than the viewport: ${wide.join(', ')}`,
    );
    await screenshot(page, `demo-${view}-phone`);
  }
  await page.emulateMedia({ colorScheme: 'dark' });
  await openPage({ view: 'alignment', model: MODELS[0].name, input: INPUT });
  await page.locator('#demo .align-map').focus();
  await screenshot(page, 'demo-alignment-phone-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1024, height: 800 });
});

test('no console errors, failed requests or requests to another origin', () => {
  assert.deepEqual(problems, []);
  assert.deepEqual(browser.foreign, []);
});
