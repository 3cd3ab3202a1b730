// reading.test.js: the Reading view (<attn-demo view="reading">, web/views/reading-view.js) in Chromium,
// against the same memory-RNN language models run here in Node with wasm/index.js.
//
// Checks: for every offered model (and the trained lm-agreement-* models when web/models/ has
// them) the words under the arcs are Node's tokens, the probability under each word is Node's
// exp(logProbs), the growing lower-triangular map holds Node's weights (the LSTM baseline shows
// no weights, only probabilities) with ink on it; words the model does not know are named; back,
// step, the slider, play/pause and the arrow keys move the current word, its weights are
// announced and the arcs follow; the current word is in the URL (step=), so a fresh page and the
// embed page open at it, typing drops it and hostile steps are refused or clamped; the least
// expected word and its share of the surprisal are Node's; the map is
// readable cell by cell; PNG/SVG/CSV/JSON of the map, every number as JSON and the probabilities
// as CSV; the nav link, the embed page and a bare <attn-demo view="reading">; Chinese; phone width and dark mode; and no console errors, failed
// or foreign requests. Screenshots go to tests/browser/screenshots/.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { before, test } from 'node:test';
import { formatValue } from '../../web/shared/draw.js';
import { findModel, modelUrl, modelsFor, sampleFor } from '../../web/shared/models.js';
import { readingInput, strongestEarlier, attentionRow } from '../../web/views/reading-view.js';
import { leastExpected } from '../../web/views/reading-data.js';
import { canvasInk, screenshot } from './harness.js';
import { assertClose, rendersWithin, viewHarness } from './view-harness.js';

const OFFERED = modelsFor('memory-rnn');
const TRAINED = ['lm-agreement-lstmn', 'lm-agreement-sarnn', 'lm-agreement-lstm'].filter((n) =>
  existsSync(fileURLToPath(modelUrl(findModel(n), new URL('../../web/', import.meta.url)))),
);
const FBI = 'The FBI is chasing a criminal on the run.';
const ZEBRA = 'The FBI is chasing a zebra.'; // "zebra" is in no model's vocabulary
const ATTENTIVE = OFFERED.find((m) => m.cell === 'lstmn').name;

const harness = viewHarness('reading');
const { nodeModel, stateKey, waitDemo } = harness;
const openReading = harness.open;
let browser;
let page;
let problems;
before(async () => ({ browser, page, problems } = await harness.start()));

/** What the view shows: words, probabilities, step, arcs, the map's data, notes. */
function shown(p, selector = '#demo') {
  return p.locator(selector).evaluate((el) => {
    const root = el.shadowRoot;
    const view = root.querySelector('section[data-view="reading"]');
    const map = root.querySelector('.reading-map');
    const d = map.data;
    return {
      words: Array.from(root.querySelectorAll('.rword .word'), (w) => w.textContent),
      probs: Array.from(root.querySelectorAll('.rword .p'), (w) => w.textContent),
      step: Number(view.dataset.step),
      current: Array.from(root.querySelectorAll('.rword')).findIndex((w) =>
        w.hasAttribute('data-current'),
      ),
      arcs: Array.from(root.querySelectorAll('svg.arcs path'), (a) => Number(a.dataset.to)),
      map: d && {
        rows: d.rows,
        cols: d.cols,
        weights: Array.from(d.weights),
        rowLabels: [...d.rowLabels],
        colLabels: [...d.colLabels],
      },
      mapHidden: map.closest('div').hidden,
      readAs: root.querySelector('.read-as').textContent,
      unknown: root.querySelector('.unknown-note').textContent,
      leastExpected: root.querySelector('.least-expected').textContent,
      next: Array.from(root.querySelectorAll('.next-words li'), (li) => [
        li.dataset.word,
        li.querySelector('.value').textContent,
        li.hasAttribute('data-predicted'),
      ]),
      live: view.querySelector('[aria-live]').textContent,
      error: root.querySelector('.demo-error').hidden
        ? ''
        : root.querySelector('.demo-error').textContent,
    };
  });
}

/** The [0..t] × [0..t] block of Node's weights. */
function block(r, t) {
  const n = r.tokens.length;
  const out = [];
  for (let i = 0; i <= t; i++)
    for (let j = 0; j <= t; j++) out.push(r.attention[0].weights.data[i * n + j]);
  return out;
}

/** The page's view against Node's run of the same model and text, at the current word. */
async function assertReadingMatchesNode(p, selector, name, input) {
  const model = await nodeModel(name);
  const text = readingInput(input);
  const r = model.run(text, { distributions: true });
  const v = await shown(p, selector);
  assert.equal(v.error, '', `${name}: no error`);
  assert.equal(v.readAs, text);
  assert.deepEqual(v.words, [...r.tokens], `${name}: the words are Node's tokens`);
  assert.deepEqual(
    v.probs,
    ['–', ...Array.from(r.logProbs, (lp) => formatValue(Math.exp(lp), 3))],
    `${name}: the probabilities`,
  );
  assert.equal(v.current, v.step);
  // the word most of the perplexity comes from, with Node's probability and share (English)
  const least = leastExpected(r.logProbs);
  assert.equal(
    v.leastExpected,
    `Least expected: “${r.tokens[least.index]}” (p = ${formatValue(least.prob, 3)}), ${Math.round(100 * least.share)}% of the surprisal (−ln p) the perplexity averages.`,
    `${name}: the least expected word`,
  );
  if (model.config.cell === 'lstm') {
    assert.equal(v.map, null, `${name}: an LSTM has no weights`);
    assert.equal(v.mapHidden, true);
    assert.deepEqual(v.arcs, []);
  } else {
    assert.equal(v.mapHidden, false);
    const t = v.step;
    assert.deepEqual([v.map.rows, v.map.cols], [t + 1, t + 1]);
    assert.deepEqual(v.map.rowLabels, [...r.tokens.slice(0, t + 1)]);
    assertClose(v.map.weights, block(r, t), `${name} map after word ${t}`);
    const row = attentionRow(r.attention[0].weights.data, r.tokens.length, t);
    const expected = [];
    const upto = model.config.cell === 'self-attention-rnn' ? t + 1 : t;
    for (let i = 0; i < upto; i++) if (row[i] > 0.005) expected.push(i);
    assert.deepEqual(v.arcs, expected, `${name}: one arc per earlier word with weight > 0.005`);
  }
  return { model, r, v, text };
}

test("every offered model and the trained ones: words, probabilities and the map are Node's", async () => {
  assert.equal(OFFERED.length, 3);
  for (const name of [...OFFERED.map((m) => m.name), ...TRAINED]) {
    const input = findModel(name).sample;
    await openReading({ model: name, input });
    const { model, v } = await assertReadingMatchesNode(page, '#demo', name, input);
    assert.equal(v.step, v.words.length - 1, 'opens with the whole sentence read');
    if (model.config.cell !== 'lstm') {
      const { ink, total } = await canvasInk(page.locator('#demo .reading-map'));
      assert.ok(ink / total > 0.1, `${name}: only ${ink} of ${total} pixels of the map have ink`);
    }
    await screenshot(page, `reading-${name}`);
  }
  if (TRAINED.length) {
    await openReading({ model: TRAINED[0], input: FBI });
    const v = await shown(page);
    assert.match(v.unknown, /Every word is in the model’s vocabulary/);
    await screenshot(page, 'reading-fbi-trained');
  }
});

test('words the model does not know are named, and read as <unk>', async () => {
  await openReading({ model: ATTENTIVE, input: ZEBRA });
  const { model, v, r } = await assertReadingMatchesNode(page, '#demo', ATTENTIVE, ZEBRA);
  const vocab = new Set(model.config.tokenizer.vocab);
  const unknown = readingInput(ZEBRA)
    .split(' ')
    .filter((w) => !vocab.has(w));
  assert.ok(unknown.length > 0);
  assert.equal(v.unknown, `Not in the model’s vocabulary, read as <unk>: ${unknown.join(', ')}`);
  assert.ok(r.tokens.includes('<unk>'));
  const marked = await page
    .locator('#demo')
    .evaluate((el) => el.shadowRoot.querySelectorAll('.rword[data-unknown]').length);
  assert.equal(marked, unknown.length);
});

test('back, step, the slider, the arrow keys and play move the current word; its weights are announced', async () => {
  const name = ATTENTIVE;
  const input = sampleFor(name);
  await openReading({ model: name, input });
  const model = await nodeModel(name);
  const r = model.run(readingInput(input), { distributions: true });
  const n = r.tokens.length;
  const say = (t) => {
    const p = t === 0 ? 'not predicted' : formatValue(Math.exp(r.logProbs[t - 1]));
    const best = strongestEarlier(attentionRow(r.attention[0].weights.data, n, t));
    return best.index < 0
      ? `Word ${t + 1} “${r.tokens[t]}”, probability ${p}. Nothing earlier to attend to.`
      : `Word ${t + 1} “${r.tokens[t]}”, probability ${p}. Attends most to “${r.tokens[best.index]}”: ${formatValue(best.weight)}.`;
  };
  const demo = page.locator('#demo section[data-view="reading"]');
  await demo.locator('.reading-words').focus();
  await page.keyboard.press('End');
  await demo.locator('button[data-action="back"]').click();
  assert.equal((await shown(page)).step, n - 2);
  await demo.locator('button[data-action="step"]').click();
  assert.equal((await shown(page)).step, n - 1);
  assert.equal(await demo.locator('button[data-action="step"]').isDisabled(), true);
  await demo.locator('input#reading-step').fill('2');
  let v = await shown(page);
  assert.equal(v.step, 2);
  assert.equal(v.live, say(2));
  await assertReadingMatchesNode(page, '#demo', name, input);
  // The keyboard on the sentence.
  await demo.locator('.reading-words').focus();
  await page.keyboard.press('Home');
  v = await shown(page);
  assert.equal(v.step, 0);
  assert.equal(v.live, say(0));
  assert.equal(v.map.rows, 1);
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  v = await shown(page);
  assert.equal(v.step, 4);
  assert.equal(v.live, say(4));
  await assertReadingMatchesNode(page, '#demo', name, input);
  // The next-word guesses: the real next word is marked with its probability.
  const actual = v.next.find(([, , predicted]) => predicted);
  assert.equal(actual[0], r.tokens[5] === '<unk>' ? '<unk>' : r.tokens[5]);
  assert.equal(actual[1], formatValue(Math.exp(r.logProbs[4])));
  await screenshot(page, 'reading-step-4');
  await page.keyboard.press('End');
  assert.equal((await shown(page)).step, n - 1);
  // Play from the start, then pause.
  await demo.locator('button[data-action="play"]').click();
  await page.waitForFunction(
    () =>
      Number(
        document.querySelector('#demo').shadowRoot.querySelector('section[data-view="reading"]')
          .dataset.step,
      ) >= 2,
    null,
    { timeout: 10000 },
  );
  await demo.locator('button[data-action="pause"]').click();
  const paused = (await shown(page)).step;
  await page.waitForTimeout(1000);
  assert.equal((await shown(page)).step, paused, 'paused');
  assert.ok(paused < n - 1);
  await assertReadingMatchesNode(page, '#demo', name, input);
  // A click on a word makes it current.
  await demo.locator('.rword[data-index="1"]').click();
  assert.equal((await shown(page)).step, 1);
});

test('the current word is in the URL: a fresh page and the embed page open at it; typing drops it', async () => {
  const name = ATTENTIVE;
  const input = sampleFor(name);
  await openReading({ model: name, input });
  const n = (await shown(page)).words.length;
  assert.ok(n > 4);
  const demo = page.locator('#demo section[data-view="reading"]');
  await demo.locator('.reading-words').focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await demo.locator('button[data-action="step"]').click();
  const key = stateKey({ model: name, input, step: 3 });
  await waitDemo(page, '#demo', key);
  const hash = await page.evaluate(() => location.hash);
  assert.equal(hash, `#${key}`);
  const here = await shown(page);
  assert.equal(here.step, 3);
  assert.equal(
    await rendersWithin(page, '#demo', 500),
    0,
    'a moved word is drawn once, not again and again',
  );
  await assertReadingMatchesNode(page, '#demo', name, input);
  const { page: p, problems: freshProblems } = await browser.newPage();
  for (const [url, selector] of [
    [`${browser.url}/web/${hash}`, '#demo'],
    [`${browser.url}/web/embed.html?${key}`, 'attn-demo'],
  ]) {
    await p.goto(url);
    await waitDemo(p, selector, key);
    // the same view (a fresh page announces nothing until the word moves)
    assert.deepEqual({ ...(await shown(p, selector)), live: '' }, { ...here, live: '' }, url);
    await assertReadingMatchesNode(p, selector, name, input);
  }
  // The embed page's query follows the word; its link reproduces it.
  await p.locator('attn-demo .reading-words').focus();
  await p.keyboard.press('ArrowLeft');
  const left = stateKey({ model: name, input, step: 2 });
  await waitDemo(p, 'attn-demo', left);
  assert.equal(new URL(p.url()).search, `?${left}`);
  assert.equal(
    new URL(await p.locator('attn-demo a.link').getAttribute('href')).search,
    `?${left}`,
  );
  assert.deepEqual(freshProblems, []);
  await p.close();
  // Play ticks move it too (from the first word, as at the end); the URL holds where it paused.
  await demo.locator('.reading-words').focus();
  await page.keyboard.press('End');
  await demo.locator('button[data-action="play"]').click();
  await page.waitForFunction(
    (last) => {
      const step = Number(/&step=(\d+)$/.exec(location.hash)?.[1]);
      return step >= 2 && step < last;
    },
    n - 1,
    { timeout: 10000 },
  );
  await demo.locator('button[data-action="pause"]').click();
  const paused = (await shown(page)).step;
  assert.ok(paused >= 2);
  assert.equal(
    await page.evaluate(() => location.hash),
    `#${stateKey({ model: name, input, step: paused })}`,
  );
  // A new input starts at the whole sentence read again, and the URL has no step.
  await page.locator('#demo input#input').fill('the dog runs .');
  await waitDemo(page, '#demo', stateKey({ model: name, input: 'the dog runs .' }));
  assert.doesNotMatch(await page.evaluate(() => location.hash), /step=/);
  const v = await shown(page);
  assert.equal(v.step, v.words.length - 1);
});

test('hostile or out-of-range steps: refused or clamped to the sentence, no script error', async () => {
  const { page: p, problems: hostileProblems } = await browser.newPage();
  const s = { model: ATTENTIVE, input: 'the big dog ran .' };
  const n = (await nodeModel(ATTENTIVE)).run(readingInput(s.input), { distributions: true }).tokens
    .length;
  for (const step of ['-1', '1e9', 'abc', '2.5', '<b>1</b>']) {
    const q = `view=reading&model=${s.model}&input=${encodeURIComponent(s.input)}&step=${encodeURIComponent(step)}`;
    await p.goto(`${browser.url}/web/embed.html?${q}`);
    await waitDemo(p, 'attn-demo', stateKey(s));
    assert.equal(
      await p.locator('#refused').textContent(),
      'Ignored invalid parameters: step',
      step,
    );
    assert.equal((await shown(p, 'attn-demo')).step, n - 1, step);
    await p.goto(`${browser.url}/web/#${q}`);
    await waitDemo(p, '#demo', stateKey(s));
    assert.equal(
      await p.evaluate(() => location.hash),
      `#${stateKey(s)}`,
      `${step}: the hash is rewritten without it`,
    );
  }
  // Past the end (and past MAX_STEP): the last word; the setting stays as given.
  for (const [step, kept] of [
    ['40', 40],
    ['1000000000', 64],
  ]) {
    await p.goto(
      `${browser.url}/web/embed.html?view=reading&model=${s.model}&input=${encodeURIComponent(s.input)}&step=${step}`,
    );
    await waitDemo(p, 'attn-demo', stateKey({ ...s, step: kept }));
    assert.equal(await p.locator('#refused').isHidden(), true);
    const v = await shown(p, 'attn-demo');
    assert.equal(v.step, n - 1, step);
    assert.equal(v.error, '');
  }
  // The attribute is validated the same way.
  const states = await p.locator('attn-demo').evaluate(async (el) => {
    const out = [];
    for (const value of ['abc', '-1', '3', '9999']) {
      el.setAttribute('step', value);
      await el.whenRendered();
      out.push([
        el.state.step,
        Number(el.shadowRoot.querySelector('section[data-view="reading"]').dataset.step),
      ]);
    }
    return out;
  });
  assert.deepEqual(states, [
    [null, n - 1],
    [null, n - 1],
    [3, 3],
    [null, n - 1],
  ]);
  assert.deepEqual(hostileProblems, []);
  await p.close();
});

test('the map: arrow keys read its cells; text alternatives; exports and every number', async () => {
  const name = ATTENTIVE;
  const input = sampleFor(name);
  await openReading({ model: name, input }); // no step in the URL: the whole sentence read
  const { r, v } = await assertReadingMatchesNode(page, '#demo', name, input);
  const n = r.tokens.length;
  assert.equal(v.step, n - 1);
  const w = r.attention[0].weights.data;
  const map = page.locator('#demo .reading-map');
  await map.evaluate((el) => el.flush());
  await map.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const live = await map.evaluate((el) => el.shadowRoot.querySelector('[aria-live]').textContent);
  assert.equal(live, `${r.tokens[2]}, ${r.tokens[0]}: ${formatValue(w[2 * n])}`);
  assert.equal(
    await map.evaluate((el) => el.shadowRoot.querySelectorAll('table td:not(:empty)').length),
    n * n,
  );
  const alt = await page.locator('#demo details.text-alt li').allTextContents();
  assert.equal(alt.length, n);
  assert.match(
    alt[2],
    new RegExp(
      `^${r.tokens[2]} \\(probability ${formatValue(Math.exp(r.logProbs[1]))}\\): ${r.tokens[0]} ${formatValue(w[2 * n])}`,
    ),
  );
  const files = {};
  for (const kind of ['png', 'svg', 'csv', 'json']) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      map.locator(`button[data-export="${kind}"]`).click(),
    ]);
    assert.match(download.suggestedFilename(), new RegExp(`\\.${kind}$`));
    files[kind] = await readFile(await download.path());
  }
  assert.ok(
    files.png.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])) &&
      files.png.length > 1000,
  );
  assert.match(files.svg.toString(), /^<svg xmlns/);
  assert.equal(files.csv.toString().trim().split('\r\n').length, v.step + 7); // 4 context rows, a blank one, the header
  assertClose(JSON.parse(files.json).weights, block(r, v.step), 'map JSON');
  const [all] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('#demo button[data-action="download-reading"]').click(),
  ]);
  const doc = JSON.parse(await readFile(await all.path(), 'utf8'));
  assert.equal(doc.model, name);
  assert.deepEqual(doc.tokens, [...r.tokens]);
  assertClose(doc.logProbs, r.logProbs, 'logProbs JSON');
  assertClose(doc.weights.data, w, 'weights JSON');
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('#demo button[data-action="download-probs"]').click(),
  ]);
  const lines = (await readFile(await csv.path(), 'utf8')).trim().split('\r\n');
  assert.equal(lines.length, n + 1);
  assert.equal(lines[0], 'index,token,probability,log_probability,strongest_earlier,weight');
  assert.ok(Math.abs(Number(lines[2].split(',')[2]) - Math.exp(r.logProbs[0])) < 1e-6, lines[2]);
});

test('typing re-runs the model; the nav link opens the default model and its sample', async () => {
  const name = ATTENTIVE;
  await openReading({ model: name, input: 'the dog' });
  await page.locator('#demo input#input').fill('The red cat sat.');
  await waitDemo(page, '#demo', stateKey({ model: name, input: 'The red cat sat.' }));
  await assertReadingMatchesNode(page, '#demo', name, 'The red cat sat.');
  await page.locator('#demo select#model').selectOption(OFFERED[1].name);
  await waitDemo(page, '#demo', stateKey({ model: OFFERED[1].name, input: 'The red cat sat.' }));
  await assertReadingMatchesNode(page, '#demo', OFFERED[1].name, 'The red cat sat.');
  await page.locator('#demo input#input').fill('');
  await waitDemo(page, '#demo', stateKey({ model: OFFERED[1].name, input: '' }));
  assert.match((await shown(page)).error, /Type something/);
  await page.goto(`${browser.url}/web/#view=alignment`);
  await page.waitForFunction(
    () => document.getElementById('app').dataset.rendered === location.hash,
  );
  await page.locator('#page-views a[data-view="reading"]').click();
  const s = { model: OFFERED[0].name, input: sampleFor(OFFERED[0].name) };
  await waitDemo(page, '#demo', stateKey(s));
  assert.equal(
    await page.locator('#models-title').textContent(),
    'Reading word by word: what the model looks back at',
  );
  await assertReadingMatchesNode(page, '#demo', s.model, s.input);
});

test('the embed page and a bare <attn-demo view="reading"> reproduce the view', async () => {
  const { page: p, problems: embedProblems } = await browser.newPage();
  const s = { model: ATTENTIVE, input: 'the big dog ran .', lang: 'en' };
  await p.goto(`${browser.url}/web/embed.html?${stateKey(s)}`);
  await waitDemo(p, 'attn-demo', stateKey(s));
  await assertReadingMatchesNode(p, 'attn-demo', s.model, s.input);
  const before = await shown(p, 'attn-demo');
  const link = await p.locator('attn-demo a.link').getAttribute('href');
  await p.goto(link);
  await waitDemo(p, 'attn-demo', stateKey(s));
  assert.deepEqual(await shown(p, 'attn-demo'), before);
  await screenshot(p, 'embed-reading');
  await p.goto(`${browser.url}/web/embed.html?view=reading&model=dates-additive&input=the%20dog`);
  await p.waitForFunction(() => document.getElementById('app').dataset.state === 'ready');
  assert.match(await p.locator('#refused').textContent(), /model/);
  await p.goto(`${browser.url}/tests/browser/embed-host.html`);
  const bare = await p.evaluate(async () => {
    (await import('/web/embed.js')).define();
    const el = document.createElement('attn-demo');
    el.setAttribute('view', 'reading');
    document.getElementById('host').append(el);
    await new Promise((resolve) => el.addEventListener('demo-render', resolve, { once: true }));
    return { state: el.state, words: el.shadowRoot.querySelectorAll('.rword').length };
  });
  assert.equal(bare.state.model, OFFERED[0].name);
  assert.equal(bare.state.input, sampleFor(OFFERED[0].name));
  assert.ok(bare.words >= 3);
  assert.deepEqual(embedProblems, []);
  await p.close();
});

test('Chinese strings; phone width and dark mode: nothing wider than the screen', async () => {
  await openReading({ model: ATTENTIVE, input: ZEBRA, lang: 'zh' });
  assert.equal(await page.locator('#page-views a[data-view="reading"]').textContent(), '阅读');
  assert.equal(await page.locator('#demo label[for="reading-step"]').textContent(), '当前词');
  assert.match((await shown(page)).unknown, /^不在模型词表中/);
  assert.match(
    (await shown(page)).leastExpected,
    /^最出乎意料的词：“[^”]+”（p = [0-9.e-]+），.*的 \d+%。$/,
  );
  await page.setViewportSize({ width: 375, height: 740 });
  for (const name of [ATTENTIVE, ...TRAINED.slice(0, 1)]) {
    await openReading({ model: name, input: FBI });
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
    );
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    assert.ok(overflow <= 0, `${name}: the page is ${overflow}px wider than the viewport`);
    await screenshot(page, `reading-phone-${name}`);
  }
  await page.emulateMedia({ colorScheme: 'dark' });
  await openReading({ model: TRAINED[0] ?? ATTENTIVE, input: FBI });
  await page.locator('#demo .reading-words').focus();
  await page.keyboard.press('ArrowLeft');
  await screenshot(page, 'reading-phone-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1024, height: 800 });
});

test('a phone reorders the parts in the DOM, not for the eye only; focus stays across a resize', async () => {
  // view-kit.js orderByWidth: stepping, strip, legend and prediction before "read as" at 480 px
  // and less, so that the keyboard meets them in the order they are seen
  const order = () =>
    page.evaluate(() =>
      Array.from(
        document.querySelector('#demo').shadowRoot.querySelector('section[data-view="reading"]')
          .children,
        (k) => k.className.split(' ')[0] || k.localName,
      ).filter((c) =>
        ['view-line', 'reading-controls', 'reading-strip', 'reading-output'].includes(c),
      ),
    );
  const frames = () =>
    page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const WIDE = ['view-line', 'reading-controls', 'reading-strip', 'reading-output'];
  const NARROW = ['reading-controls', 'reading-strip', 'reading-output', 'view-line'];
  await page.setViewportSize({ width: 1024, height: 800 });
  await openReading({ model: ATTENTIVE, input: FBI });
  assert.deepEqual(await order(), WIDE);
  await page.locator('#demo #reading-step').focus();
  await page.setViewportSize({ width: 390, height: 844 });
  await frames();
  assert.deepEqual(await order(), NARROW);
  const focused = () =>
    page.evaluate(() => document.querySelector('#demo').shadowRoot.activeElement?.id ?? null);
  assert.equal(await focused(), 'reading-step', 'the slider keeps the focus across the move');
  await page.keyboard.press('Shift+Tab'); // back from the slider: a stepping button, as seen
  assert.ok(
    ['back', 'play', 'step'].includes(
      await page.evaluate(
        () => document.querySelector('#demo').shadowRoot.activeElement?.dataset.action,
      ),
    ),
  );
  await page.setViewportSize({ width: 1024, height: 800 });
  await frames();
  assert.deepEqual(await order(), WIDE);
});

test('no console errors, failed requests or requests to another origin', () => {
  assert.deepEqual(problems, []);
  assert.deepEqual(browser.foreign, []);
});
