// view-harness.js: the set-up the tests of one <attn-demo> view share (heads, pooling, reading and
// forgetting tests; not a test file itself).
//
// viewHarness(view) returns what the tests of that view use: start() for the file's before hook
// (wasm init in Node, one browser and one page from harness.js), Node models of the offered
// files, the URL-hash state key of the view, waiting for a render, and what a heatmap shows; it
// registers the after hook (every Node model disposed, the browser closed). The before hook stays
// in the test file because node:test runs a file's top-level before hooks concurrently, so one
// registered here could not hand the page over. Beyond assertClose (the page's numbers against
// Node's, which demo.test.js uses too) and rendersWithin (counting redraws, demo.test.js and
// reading.test.js), no assertions: each view's test file holds those.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after } from 'node:test';
import { init, loadModel } from '../../wasm/index.js';
import { MODEL_DEFAULTS, formatModelParams } from '../../web/shared/app-state.js';
import { findModel, modelUrl } from '../../web/shared/models.js';
import { startBrowser } from './harness.js';

export const TOLERANCE = 1e-5; // browser wasm vs Node wasm (the same build; differences are 0 in practice)

/** actual (the page's numbers) equals expected (Node's) within TOLERANCE; names the worst index. */
export function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  let worst = 0;
  let at = -1;
  for (let i = 0; i < actual.length; i++) {
    const d = Math.abs(actual[i] - expected[i]);
    if (!(d <= worst)) [worst, at] = [d, i];
  }
  assert.ok(
    worst <= TOLERANCE,
    `${what}: worst difference ${worst} at ${at} (${actual[at]} vs ${expected[at]})`,
  );
}

/** Wait until the <attn-demo> at selector on page p has rendered state key. */
export async function waitDemo(p, selector, key) {
  await p.waitForFunction(
    ([sel, k]) => document.querySelector(sel)?.dataset.rendered === k,
    [selector, key],
    { timeout: 15000 },
  );
}

/** How many times the demo at selector draws in the next ms milliseconds. */
export function rendersWithin(p, selector, ms) {
  return p.locator(selector).evaluate(
    (el, wait) =>
      new Promise((resolve) => {
        let n = 0;
        const count = () => n++;
        el.addEventListener('demo-render', count);
        setTimeout(() => {
          el.removeEventListener('demo-render', count);
          resolve(n);
        }, wait);
      }),
    ms,
  );
}

/** What the heatmap at selector shows: sizes, weights, labels and its label attribute. */
export function shown(p, selector) {
  return p.locator(selector).evaluate((el) => {
    const d = el.data;
    return (
      d && {
        rows: d.rows,
        cols: d.cols,
        weights: Array.from(d.weights),
        rowLabels: [...d.rowLabels],
        colLabels: [...d.colLabels],
        label: el.getAttribute('label'),
      }
    );
  });
}

/**
 * The helpers of the tests of view: start() → { browser, page, problems } (also kept on the
 * returned object), nodeModel(name), stateKey(state), open(state, page?), waitDemo, shown.
 */
export function viewHarness(view) {
  const nodeModels = new Map();
  const h = {
    browser: null,
    page: null,
    problems: null,
    waitDemo,
    shown,
    /** wasm in Node, the browser and one page; for the test file's before hook. */
    async start() {
      await init();
      h.browser = await startBrowser();
      ({ page: h.page, problems: h.problems } = await h.browser.newPage());
      return h;
    },
    /** The model `name` of web/shared/models.js, loaded once in Node. */
    async nodeModel(name) {
      if (!nodeModels.has(name)) {
        nodeModels.set(
          name,
          await loadModel(new Uint8Array(await readFile(new URL(modelUrl(findModel(name)))))),
        );
      }
      return nodeModels.get(name);
    },
    /** The URL-hash state of this view with s over the defaults (no hide flags, no seed). */
    stateKey: (s) => formatModelParams({ ...MODEL_DEFAULTS, view, ...s, hide: [], seed: null }),
    /** Open the page on state s and wait for the demo to render it. */
    async open(s, p = h.page) {
      const key = h.stateKey(s);
      await p.goto(`${h.browser.url}/web/#${key}`);
      await waitDemo(p, '#demo', key);
    },
  };
  after(async () => {
    for (const m of nodeModels.values()) m.dispose();
    await h.browser?.close();
  });
  return h;
}
