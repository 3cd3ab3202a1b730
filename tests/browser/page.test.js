// page.test.js: the demo page's SDPA playground (web/index.html, #view=playground) in Chromium,
// against the real wasm build. The model views are tests/browser/demo.test.js.
//
// Checks that the page loads with no console errors, failed requests or foreign requests; that
// the heatmap draws; that the weights it shows equal the same computation done here in Node with
// wasm/index.js (and a float64 reference); keyboard reading; exports; that the URL hash
// reproduces a view; that a hostile hash is clamped or ignored without injecting anything; and
// that a missing .wasm or page module is named, with the fix.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { init, ops } from '../../wasm/index.js';
import { makeQKV } from '../../web/data/playground.js';
import { formatValue } from '../../web/shared/draw.js';
import { sentences, t } from '../../web/shared/i18n.js';
import { DEFAULTS, effectiveScale, formatHash, parseHash } from '../../web/shared/state.js';
import { attentionWeightsReference, worstDifference } from './reference.js';
import { canvasInk, screenshot, startBrowser } from './harness.js';

const TOLERANCE = 1e-5; // page (browser wasm) vs Node wasm, and vs the float64 reference

let browser;
let page;
let problems;
const dialogs = [];

before(async () => {
  await init(); // Node side of the comparison
  browser = await startBrowser();
  ({ page, problems } = await browser.newPage());
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    dialog.dismiss().catch(() => {});
  });
});

after(async () => {
  await browser?.close();
});

/** The page's canonical hash for a playground state. */
const playgroundHash = (state) => `#view=playground&${formatHash(state).slice(1)}&lang=en`;

/** Open the page at hash (default: the playground) and wait until that (canonical) view is drawn. */
async function openView(hash = '#view=playground') {
  await page.goto(`${browser.url}/web/${hash}`);
  await waitForView();
}

/** Wait until the page says the view in its URL hash is on screen; returns that hash. */
async function waitForView() {
  await page.waitForSelector('#app[data-state="ready"]');
  await page.waitForFunction(
    () => document.getElementById('app').dataset.rendered === location.hash,
  );
  return page.evaluate(() => location.hash);
}

/** What the heatmap shows: { rows, cols, weights: number[], rowLabels, colLabels }. */
function shownData() {
  return page.locator('#heatmap').evaluate((el) => ({
    rows: el.data.rows,
    cols: el.data.cols,
    weights: Array.from(el.data.weights),
    rowLabels: [...el.data.rowLabels],
    colLabels: [...el.data.colLabels],
  }));
}

/** The same view computed here: attnlab in Node and a float64 reference. */
function computeInNode(state) {
  const { q, k, v } = makeQKV(state);
  const scale = effectiveScale(state);
  const { weights } = ops.scaledDotProductAttention(q, k, v, {
    causal: state.causal,
    scale,
    returnWeights: true,
  });
  const reference = attentionWeightsReference(q.data, k.data, { ...state, scale });
  return { weights: weights.data, shape: weights.shape, reference };
}

function assertMatchesNode(shown, state) {
  const node = computeInNode(state);
  assert.equal(shown.rows, state.n);
  assert.equal(shown.cols, state.m);
  assert.deepEqual(node.shape, [state.n, state.m]);
  assert.equal(shown.weights.length, state.n * state.m);
  for (const [name, expected] of [
    ['Node wasm', node.weights],
    ['float64 reference', node.reference],
  ]) {
    const { diff, index } = worstDifference(shown.weights, expected);
    assert.ok(
      diff <= TOLERANCE,
      `page vs ${name}: worst difference ${diff} at query ${Math.floor(index / state.m)}, ` +
        `key ${index % state.m} (page ${shown.weights[index]}, ${name} ${expected[index]})`,
    );
  }
  if (state.causal) {
    for (let i = 0; i < state.n; i++) {
      for (let j = i + 1; j < state.m; j++)
        assert.equal(shown.weights[i * state.m + j], 0, `causal leak at (${i}, ${j})`);
    }
  }
  return node;
}

const liveText = () =>
  page.locator('#heatmap').evaluate((el) => el.shadowRoot.querySelector('[aria-live]').textContent);

test('the page loads, says which build runs, and draws the default view', async () => {
  await openView();
  const hash = await page.evaluate(() => location.hash);
  assert.equal(hash, playgroundHash(DEFAULTS)); // written out canonically
  const status = await page.locator('#status').textContent();
  const simd = await page.locator('#app').getAttribute('data-simd');
  assert.equal(simd, 'true', 'Chromium supports SIMD128, so the page should run the SIMD build');
  assert.equal(status, t('en', 'status.simd'));
  // the status line follows the language, like the rest of the page
  await page.locator('#lang').first().selectOption('zh');
  await page.waitForFunction(
    (want) => document.querySelector('#status').textContent === want,
    t('zh', 'status.simd'),
  );
  await page.locator('#lang').first().selectOption('en');
  await page.waitForFunction(
    (want) => document.querySelector('#status').textContent === want,
    t('en', 'status.simd'),
  );
  assert.equal(await page.locator('#load-progress').isHidden(), true);
  assert.equal(await page.locator('#error').isHidden(), true);
  assert.equal(
    await page.locator('#sdpa-view').evaluate((v) => v.inert || v.hasAttribute('aria-busy')),
    false,
  );
  const { ink, total } = await canvasInk(page.locator('#heatmap'));
  assert.ok(ink / total > 0.2, `only ${ink} of ${total} canvas pixels differ from the background`);
  await screenshot(page, 'page-default');
});

test('the weights shown equal the same computation in Node (wasm and float64)', async () => {
  await openView();
  const shown = await shownData();
  assertMatchesNode(shown, { ...DEFAULTS });
  assert.deepEqual(shown.rowLabels, ['q0', 'q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7']);
  assert.equal(shown.colLabels[7], 'k7');
  const info = await page.locator('#info').textContent();
  assert.match(info, /^8 × 8 weights, dₖ = 16, scale 0\.25; computed in [\d.]+ ms\.$/);
});

test('arrow keys move the focused cell; the live region reads the new value', async () => {
  await openView();
  const { weights } = computeInNode({ ...DEFAULTS });
  const m = DEFAULTS.m;
  await page.locator('#heatmap').focus();
  assert.equal(await liveText(), `q0, k0: ${formatValue(weights[0])}`);
  await page.keyboard.press('ArrowRight');
  assert.equal(await liveText(), `q0, k1: ${formatValue(weights[1])}`);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.equal(await liveText(), `q2, k1: ${formatValue(weights[2 * m + 1])}`);
  const readout = await page.locator('#readout').textContent();
  assert.equal(readout, `Query q2 gives key k1 the weight ${formatValue(weights[2 * m + 1])}.`);
  await screenshot(page, 'page-focused-cell');
});

test('PNG and SVG exports produce non-empty images', async () => {
  await openView();
  const r = await page.locator('#heatmap').evaluate(async (el) => {
    const png = await el.toPNG();
    const svg = el.toSVG();
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    return {
      png: png.size,
      head: Array.from(new Uint8Array(await png.slice(0, 4).arrayBuffer())),
      svg: svg.length,
      rects: doc.querySelectorAll('g rect').length,
      error: doc.querySelector('parsererror') !== null,
    };
  });
  assert.ok(r.png > 1000, `PNG is ${r.png} bytes`);
  assert.deepEqual(r.head, [0x89, 0x50, 0x4e, 0x47]);
  assert.ok(r.svg > 1000, `SVG is ${r.svg} characters`);
  assert.equal(r.error, false);
  assert.equal(r.rects, 8 * 8 + 1);
});

test('a URL hash reproduces the view', async () => {
  const state = { n: 5, m: 7, d: 4, seed: 42, causal: true, scale: 0.5 };
  await openView(formatHash(state));
  assert.deepEqual(parseHash(await page.evaluate(() => location.hash)), state);
  const controls = await page.evaluate(() => ({
    n: document.getElementById('n').value,
    m: document.getElementById('m').value,
    d: document.getElementById('d').value,
    seed: document.getElementById('seed').value,
    causal: document.getElementById('causal').checked,
    scale: document.getElementById('scale-out').textContent,
    permalink: document.getElementById('permalink').getAttribute('href'),
  }));
  assert.deepEqual(controls, {
    n: '5',
    m: '7',
    d: '4',
    seed: '42',
    causal: true,
    scale: '0.5',
    permalink: playgroundHash(state),
  });
  assertMatchesNode(await shownData(), state);
  await screenshot(page, 'page-from-hash');
});

test('m < n with a causal mask: late queries see every key', async () => {
  const state = { n: 9, m: 3, d: 5, seed: 7, causal: true, scale: null };
  await openView(formatHash(state));
  assertMatchesNode(await shownData(), state);
});

test('the controls update the view and the hash', async () => {
  await openView();
  await page.locator('#n').fill('12');
  let hash = await waitForView();
  assert.equal(parseHash(hash).n, 12);
  await page.locator('#causal').check();
  hash = await waitForView();
  assert.equal(parseHash(hash).causal, true);
  await page.locator('#seed').fill('1234');
  hash = await waitForView();
  assert.equal(parseHash(hash).seed, 1234);
  await page.locator('#scale').fill('0');
  hash = await waitForView();
  assert.equal(parseHash(hash).scale, 1);
  assertMatchesNode(await shownData(), parseHash(hash));
  await page.locator('#scale-auto').click();
  hash = await waitForView();
  assert.equal(parseHash(hash).scale, null);
  assertMatchesNode(await shownData(), parseHash(hash));
  // Back/forward or an edited URL re-applies the hash.
  await page.evaluate(() => {
    location.hash = '#n=3&m=4&d=2&seed=9&causal=0&scale=auto';
  });
  hash = await waitForView();
  assert.deepEqual(parseHash(hash), { n: 3, m: 4, d: 2, seed: 9, causal: false, scale: null });
  assert.equal(await page.locator('#n').inputValue(), '3');
  assertMatchesNode(await shownData(), parseHash(hash));
});

test('a hostile hash is clamped or ignored, with no errors and nothing injected', async () => {
  const hostile =
    '#n=NaN&m=-1&d=1e9&seed=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&causal=%3Cscript%3Ealert(1)%3C%2Fscript%3E' +
    '&scale=1e999&%3Cimg%20src%3Dx%20onerror%3Dalert(2)%3E=1';
  await openView(hostile);
  const state = parseHash(await page.evaluate(() => location.hash));
  assert.deepEqual(state, {
    n: DEFAULTS.n,
    m: 1,
    d: 256,
    seed: DEFAULTS.seed,
    causal: false,
    scale: null,
  });
  assert.equal(await page.evaluate(() => location.hash), playgroundHash(state)); // rewritten canonically
  assertMatchesNode(await shownData(), state);
  // Raw (unencoded) markup typed into the address bar, applied while the page runs.
  await page.evaluate(() => {
    location.hash = '#n=<img src=x onerror=alert(3)>&d=-1&seed=1e9&m=<svg onload=alert(4)>';
  });
  const hash = await waitForView();
  assert.deepEqual(parseHash(hash), { ...DEFAULTS, d: 1, seed: 1e9 });
  const injected = await page.evaluate(() => ({
    imgs: document.querySelectorAll('img').length,
    svgs: document.querySelectorAll('svg').length,
    scripts: Array.from(document.scripts, (s) => s.src || s.type).join(' '),
    error: document.getElementById('error').hidden,
  }));
  const web = `${browser.url}/web`;
  assert.deepEqual(injected, {
    imgs: 0,
    svgs: 0,
    scripts: `importmap ${web}/load-guard.js ${web}/first-model.js ${web}/boot.js`,
    error: true,
  });
  assert.deepEqual(dialogs, []);
});

test('phone width: one column, nothing wider than the screen, largest view fits', async () => {
  await page.setViewportSize({ width: 375, height: 740 });
  await openView('#n=64&m=64&d=64&seed=3&causal=1&scale=auto');
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the viewport`);
  const { ink, total } = await canvasInk(page.locator('#heatmap'));
  assert.ok(ink / total > 0.2);
  await screenshot(page, 'page-phone');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
  );
  const dark = await page.evaluate(
    () => getComputedStyle(document.documentElement).backgroundColor,
  );
  assert.equal(dark, 'rgb(18, 18, 22)');
  await screenshot(page, 'page-phone-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1024, height: 800 });
});

test('no console errors, failed requests or requests to another origin', () => {
  assert.deepEqual(problems, []);
  assert.deepEqual(browser.foreign, []);
});

test('if the wasm cannot be fetched, the page says so clearly', async () => {
  const { page: broken, problems: brokenProblems } = await browser.newPage();
  await broken.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'not here' }));
  await broken.goto(`${browser.url}/web/`);
  await broken.waitForSelector('#app[data-state="error"]');
  const error = await broken.locator('#error').textContent();
  // The file, why and the fix (tests/browser/embed-errors.test.js: the other causes, and Chinese).
  assert.equal(
    error,
    sentences('en', [
      t('en', 'load.wasm'),
      t('en', 'load.http', { url: `${browser.url}/wasm/attnlab.wasm`, status: 404 }),
      t('en', 'load.missing.wasm'),
    ]),
  );
  assert.match(error, /make wasm/);
  assert.equal(await broken.locator('#status').textContent(), t('en', 'status.notRunning'));
  assert.equal(await broken.locator('#error').isVisible(), true);
  assert.equal(await broken.locator('#load-progress').isHidden(), true);
  assert.equal(await broken.locator('#sdpa-view').isHidden(), true); // no dead controls
  assert.ok(
    brokenProblems.some((p) => p.startsWith('HTTP 404')),
    brokenProblems.join('\n'),
  );
  await screenshot(broken, 'page-wasm-missing');
  await broken.close();
});

test('if the page code cannot load at all, boot.js and load-guard.js say which file, and the fix', async () => {
  const { page: broken } = await browser.newPage();
  await broken.route('**/wasm/index.js', (route) =>
    route.fulfill({ status: 404, body: 'not here' }),
  );
  await broken.goto(`${browser.url}/web/`);
  await broken.waitForSelector('#app[data-state="error"]');
  assert.equal(
    await broken.locator('#error').textContent(),
    sentences('en', [
      t('en', 'load.code'),
      t('en', 'load.http', { url: `${browser.url}/wasm/index.js`, status: 404 }),
      t('en', 'load.missing.code'),
    ]),
  );
  assert.equal(await broken.locator('#sdpa-view').isHidden(), true);
  await broken.close();
});
