// early-fetch.test.js: the handoff of web/first-model.js's fetches to the page code
// (web/shared/models.js takeEarly, fetchOnce, fetchModel's default), without a browser: each early
// fetch is taken once, a failed one is fetched again, and a URL with none is fetched as usual.
// The browsers' side (each file downloaded once, in Chromium, Firefox and WebKit) is
// tests/browser/startup.test.js and tests/engines/.

import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { fetchModel, fetchOnce, findModel, modelUrl, takeEarly } from '../../web/shared/models.js';

const realFetch = globalThis.fetch;
const calls = [];
afterEach(() => {
  delete globalThis.attnlabEarly;
  globalThis.fetch = realFetch;
  calls.length = 0;
});
/** A fetch that records its URLs and answers each with a body naming it. */
function stubFetch() {
  globalThis.fetch = async (url) => {
    calls.push(String(url));
    return new Response(`fetched ${url}`);
  };
}

test('takeEarly: null without a handoff; the promise once, then null', async () => {
  assert.equal(takeEarly('http://x/a.wasm'), null);
  const early = Promise.resolve(new Response('early'));
  globalThis.attnlabEarly = new Map([['http://x/a.wasm', early]]);
  assert.equal(takeEarly('http://x/b.wasm'), null, 'another URL');
  assert.equal(takeEarly('http://x/a.wasm'), early);
  assert.equal(takeEarly('http://x/a.wasm'), null, 'a body is read once: taken once');
  globalThis.attnlabEarly = { 'http://x/a.wasm': early }; // not a Map: ignored
  assert.equal(takeEarly('http://x/a.wasm'), null);
});

test('fetchOnce: the early response without a fetch; a failed early fetch (null) or none: fetch()', async () => {
  stubFetch();
  globalThis.attnlabEarly = new Map([
    ['http://x/m', Promise.resolve(new Response('early body'))],
    ['http://x/failed', Promise.resolve(null)],
  ]);
  assert.equal(await (await fetchOnce('http://x/m')).text(), 'early body');
  assert.deepEqual(calls, []);
  assert.equal(
    await (await fetchOnce('http://x/m')).text(),
    'fetched http://x/m',
    'taken once: the second is fetched',
  );
  assert.equal(await (await fetchOnce('http://x/failed')).text(), 'fetched http://x/failed');
  assert.equal(await (await fetchOnce('http://x/other')).text(), 'fetched http://x/other');
  assert.deepEqual(calls, ['http://x/m', 'http://x/failed', 'http://x/other']);
});

test('fetchModel reads the early fetch of the model file by default', async () => {
  stubFetch();
  const entry = findModel('dates-additive');
  const url = modelUrl(entry);
  globalThis.attnlabEarly = new Map([
    [url, Promise.resolve(new Response(new Uint8Array([7, 8, 9])))],
  ]);
  const got = await fetchModel(entry, async (bytes) => Array.from(bytes));
  assert.deepEqual(got, [7, 8, 9]);
  assert.deepEqual(calls, []);
  assert.equal(globalThis.attnlabEarly.size, 0);
});
