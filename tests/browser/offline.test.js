// offline.test.js: a second visit with the network off (web/sw.js, web/shared/offline.js). After a
// first visit online (the alignment view of dates-additive, then the heads view of the first
// transformer), with Chromium offline (context.setOffline) the page opens again from the service
// worker's cache: the alignment, over-time and heads views draw their maps; the picker marks every
// model not seen as needing the network, in English and in Chinese, and says so under it; picking
// one of those says that model needs the network, in the page's language, and a view whose code was
// never fetched (pooling) says it needs the network; back online, the marks go. Also: the cache is versioned (one
// attnlab-* cache, 'attnlab-dev' for web/) and a 404 is passed on, not stored; and the cache is
// bounded (issue #33): after 200 distinct same-origin URLs at most 64 of them are stored, the
// newest kept, the oldest evicted, the page's own files all still there.
// The development page here; tests/browser/dist.test.js runs the production build's worker.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { t } from '../../web/shared/i18n.js';
import { defaultModelFor, modelsFor } from '../../web/shared/models.js';
import { canvasInk, startBrowser } from './harness.js';

let browser;
const HEADS = defaultModelFor('heads');
const UNSEEN = modelsFor('seq2seq').find((m) => m.name !== 'dates-additive').name;

before(async () => {
  browser = await startBrowser({ serviceWorkers: 'allow' });
});

after(async () => {
  await browser?.close();
});

/** Wait until the page's <attn-demo> has drawn view (with model, when given). */
async function drawn(page, view, model = null) {
  await page.waitForFunction(
    ([v, m]) => {
      const key = document.querySelector('#demo')?.dataset.rendered ?? '';
      const p = new URLSearchParams(key);
      return p.get('view') === v && (m === null || p.get('model') === m);
    },
    [view, model],
    { timeout: 20000 },
  );
}

/** The picker's options: { name: text } of those marked as needing the network, and all names. */
function picker(page) {
  return page.locator('#demo').evaluate((el) => {
    const options = [...el.shadowRoot.querySelectorAll('#model option')];
    return {
      marked: Object.fromEntries(
        options.filter((o) => o.dataset.offline === 'missing').map((o) => [o.value, o.textContent]),
      ),
      names: options.map((o) => o.value),
    };
  });
}

const demoError = (page) =>
  page
    .locator('#demo')
    .evaluate(
      (el) => el.shadowRoot.querySelector('.demo-error:not([hidden])')?.textContent ?? null,
    );
const offlineNote = (page) =>
  page.locator('#demo').evaluate((el) => {
    const p = el.shadowRoot.querySelector('.offline-note');
    return p && !p.hidden ? p.textContent : null;
  });

test('first visit online: the service worker stores the page, its code, the .wasm and each model seen', async () => {
  const { page, problems } = await browser.newPage();
  await page.goto(`${browser.url}/web/`);
  await drawn(page, 'alignment', 'dates-additive');
  await page.waitForSelector('html[data-offline-ready="true"]', { timeout: 30000 });
  await page.goto(`${browser.url}/web/#view=heads`);
  await drawn(page, 'heads', HEADS);
  const caches = await page.evaluate(async () => {
    const names = await globalThis.caches.keys();
    const keys = (await (await globalThis.caches.open(names[0])).keys()).map(
      (r) => new URL(r.url).pathname,
    );
    return { names, keys };
  });
  assert.deepEqual(caches.names, ['attnlab-dev'], 'one cache, named after the version');
  for (const path of [
    '/web/',
    '/web/main.js',
    '/wasm/index.js',
    '/wasm/attnlab.wasm',
    '/web/models/dates-additive.safetensors',
    `/web/models/${HEADS}.safetensors`,
    '/web/views/heads-view.js',
  ]) {
    assert.ok(caches.keys.includes(path), `${path} stored (${caches.keys.length} stored)`);
  }
  assert.ok(
    !caches.keys.includes(`/web/models/${UNSEEN}.safetensors`),
    'a model never fetched is not stored',
  );
  // an error is passed on, never stored
  const missing = await page.evaluate(async () => {
    const r = await fetch('models/no-such-model.safetensors');
    await new Promise((done) => setTimeout(done, 200));
    return { status: r.status, stored: Boolean(await globalThis.caches.match(r.url)) };
  });
  assert.deepEqual(missing, { status: 404, stored: false });
  assert.deepEqual(
    problems.filter((p) => !p.includes('no-such-model') && !p.includes('status of 404')),
    [],
  );
  await page.close();
});

test('second visit offline: the views whose model was seen draw; the others say they need the network', async () => {
  await browser.context.setOffline(true);
  try {
    const { page, problems } = await browser.newPage();
    await page.goto(`${browser.url}/web/`);
    await drawn(page, 'alignment', 'dates-additive');
    const heatmap = page.locator('#demo attn-heatmap').first();
    assert.ok(
      (await canvasInk(await heatmap.elementHandle())).ink > 100,
      'the alignment map has ink',
    );
    assert.equal(await demoError(page), null);
    assert.equal(await offlineNote(page), t('en', 'status.offline'));
    const { marked, names } = await picker(page);
    assert.ok(!('dates-additive' in marked), 'the model seen is not marked');
    assert.equal(marked[UNSEEN], `${UNSEEN} (${t('en', 'model.needsNetwork')})`);
    assert.deepEqual(
      Object.keys(marked).sort(),
      names.filter((n) => n !== 'dates-additive').sort(),
      'every other model is marked',
    );

    await page.evaluate(() => {
      location.hash = '#view=time';
    });
    await drawn(page, 'time', 'dates-additive');
    await page.evaluate(() => {
      location.hash = '#view=heads';
    });
    await drawn(page, 'heads', HEADS);
    assert.equal(
      await demoError(page),
      null,
      'the heads view opens from the stored model and module',
    );

    await page.evaluate((m) => {
      location.hash = `#view=alignment&model=${m}`;
    }, UNSEEN);
    await drawn(page, 'alignment', UNSEEN);
    assert.equal(await demoError(page), t('en', 'model.offline', { name: UNSEEN }));

    // Chinese: the same marks and message in the page's language
    await page.evaluate((m) => {
      location.hash = `#view=alignment&model=${m}&lang=zh`;
    }, UNSEEN);
    await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
    await drawn(page, 'alignment', UNSEEN);
    assert.equal(await demoError(page), t('zh', 'model.offline', { name: UNSEEN }));
    assert.equal(await offlineNote(page), t('zh', 'status.offline'));
    assert.equal(
      (await picker(page)).marked[UNSEEN],
      `${UNSEEN} (${t('zh', 'model.needsNetwork')})`,
    );

    // a view whose module was never fetched (web/ stores what it loads; the production build
    // stores every view's code at install: tests/browser/dist.test.js)
    await page.evaluate(() => {
      location.hash = '#view=pooling&lang=en';
    });
    await drawn(page, 'pooling'); // drawn with its message (the demo announces it as rendered)
    assert.equal(await demoError(page), t('en', 'view.offline', { view: t('en', 'view.pooling') }));

    // back online: the marks and the note go
    await browser.context.setOffline(false);
    await page.evaluate(() => {
      location.hash = '#view=alignment&model=dates-additive&lang=en';
    });
    await drawn(page, 'alignment', 'dates-additive');
    await page.waitForFunction(
      () =>
        !document.querySelector('#demo').shadowRoot.querySelector('#model option[data-offline]'),
    );
    assert.equal(await offlineNote(page), null);
    // Offline, what could not be fetched failed as requests (and Chromium logs each); nothing else went wrong.
    assert.deepEqual(
      problems.filter(
        (p) =>
          !p.startsWith('request failed:') &&
          p !== 'console.error: Failed to load resource: net::ERR_FAILED',
      ),
      [],
    );
    assert.ok(
      problems.some((p) => p.includes(`${UNSEEN}.safetensors`)),
      'the model not stored was asked for, and failed',
    );
    await page.close();
  } finally {
    await browser.context.setOffline(false);
  }
});

test('the cache is bounded: 200 distinct same-origin URLs leave at most 64 beside the page', async () => {
  const { page, problems } = await browser.newPage();
  await page.goto(`${browser.url}/web/`);
  await drawn(page, 'alignment');
  await page.waitForSelector('html[data-offline-ready="true"]', { timeout: 30000 });
  const stored = () =>
    page.evaluate(async () => {
      const cache = await globalThis.caches.open((await globalThis.caches.keys())[0]);
      return (await cache.keys()).map((r) => {
        const u = new URL(r.url);
        return u.pathname + u.search;
      });
    });
  const before = await stored();
  const N = 200;
  const statuses = await page.evaluate(async (n) => {
    const out = [];
    for (let i = 0; i < n; i++) {
      const url = i % 2 ? `models/dates-additive.safetensors?n=${i}` : `main.js?n=${i}`;
      out.push((await fetch(url)).status);
    }
    return out;
  }, N);
  assert.deepEqual(new Set(statuses), new Set([200]));
  // the worker stores after answering: wait until the newest is stored and the trim has run
  await page.waitForFunction(
    async (last) => {
      const cache = await globalThis.caches.open((await globalThis.caches.keys())[0]);
      const keys = (await cache.keys()).map((r) => r.url);
      return (
        keys.some((k) => k.endsWith(last)) && keys.filter((k) => k.includes('?n=')).length <= 64
      );
    },
    `?n=${N - 1}`,
    { timeout: 20000 },
  );
  const after = await stored();
  const flood = after.filter((k) => k.includes('?n='));
  assert.ok(flood.length <= 64, `${flood.length} of the ${N} URLs stored`);
  assert.ok(flood.includes(`/web/models/dates-additive.safetensors?n=${N - 1}`), 'the newest kept');
  assert.ok(!flood.includes('/web/main.js?n=0'), 'the oldest evicted');
  for (const own of ['/web/', '/web/main.js', '/wasm/index.js', '/wasm/attnlab.wasm'])
    assert.ok(after.includes(own), `${own}: the page's own file kept (${after.length} stored)`);
  assert.ok(after.length <= before.length + 64, `${after.length} stored, ${before.length} before`);
  assert.deepEqual(problems, []);
  await page.close();
});
