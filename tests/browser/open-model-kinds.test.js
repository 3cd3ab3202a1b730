// open-model-kinds.test.js: <attn-demo>.modelFile keeps its documented contract (docs/open-a-model.md)
// for every kind of value (issue #33, row 13), in Chromium: a detached ArrayBuffer, a view of a
// detached buffer, a Proxy of a File, a revoked Proxy, an object whose getters throw and a
// SharedArrayBuffer are refused with the documented message (open.badValue), a Uint8Array over a
// SharedArrayBuffer is read, and a Uint8Array past MAX_MODEL_BYTES gets the too-large message; the
// setter never throws and the page reports no error.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { t } from '../../web/shared/i18n.js';
import { MAX_MODEL_BYTES } from '../../web/shared/open-model.js';
import { startBrowser } from './harness.js';

let browser;
before(async () => {
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
});

test('<attn-demo>.modelFile: every hostile kind gets its message, never a TypeError', async () => {
  const { page, problems } = await browser.newPage();
  await page.goto(`${browser.url}/tests/browser/embed-host.html`);
  const result = await page.evaluate(async (max) => {
    const { define } = await import('/web/embed.js');
    define();
    const detach = (buffer) => (structuredClone(buffer, { transfer: [buffer] }), buffer);
    const trap = () => {
      throw new Error('trap');
    };
    const revocable = Proxy.revocable(new Uint8Array(8), {});
    revocable.revoke();
    const sab = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true }).buffer;
    const kinds = {
      detached: () => detach(new ArrayBuffer(16)),
      detachedView: () => {
        const v = new Uint8Array(16);
        detach(v.buffer);
        return v;
      },
      proxy: () => new Proxy(new File([new Uint8Array(8)], 'p.safetensors'), { get: trap }),
      revoked: () => revocable.proxy,
      getters: () => ({
        get size() {
          return trap();
        },
        get byteLength() {
          return trap();
        },
      }),
      shared: () => sab,
      sharedView: () => new Uint8Array(sab, 0, 8),
      huge: () => new Uint8Array(max + 1),
    };
    const out = {};
    for (const [name, make] of Object.entries(kinds)) {
      const el = document.createElement('attn-demo');
      document.getElementById('host').append(el);
      const shown = new Promise((resolve) => {
        const done = () => {
          const status = el.shadowRoot.querySelector('.status').textContent;
          if (/Reading|Loading/.test(status)) return;
          el.removeEventListener('demo-render', done);
          const error = el.shadowRoot.querySelector('.demo-error');
          resolve(error.hidden ? '' : error.textContent);
        };
        el.addEventListener('demo-render', done);
      });
      try {
        el.modelFile = make();
        out[name] = { error: await shown };
      } catch (err) {
        out[name] = { thrown: `${err.name}: ${err.message}` };
      }
      el.remove();
    }
    return out;
  }, MAX_MODEL_BYTES);
  const bad = (kind) => t('en', 'open.badValue', { kind });
  const other = 'an object that is not a File, Blob, ArrayBuffer or Uint8Array';
  assert.deepEqual(result.detached, { error: bad('a detached ArrayBuffer') });
  assert.deepEqual(result.detachedView, { error: bad('a detached ArrayBuffer') });
  assert.deepEqual(result.proxy, { error: bad(other) });
  assert.deepEqual(result.revoked, { error: bad(other) });
  assert.deepEqual(result.getters, { error: bad(other) });
  assert.deepEqual(result.shared, { error: bad(other) });
  assert.ok(!('thrown' in result.sharedView), JSON.stringify(result.sharedView));
  assert.notEqual(result.sharedView.error, bad(other), 'a Uint8Array over shared memory is read');
  const mb = ((MAX_MODEL_BYTES + 1) / 1048576).toFixed(1);
  assert.deepEqual(result.huge, {
    error: t('en', 'open.tooLarge', { name: 'bytes', mb, limit: MAX_MODEL_BYTES / 1048576 }),
  });
  assert.deepEqual(problems, []);
  await page.close();
});
