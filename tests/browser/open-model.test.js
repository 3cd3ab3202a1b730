// open-model.test.js: opening a model file of one's own (issue #16): the demo page's picker and
// drag-and-drop, and <attn-demo>'s blob: URL model attribute and modelFile property, in Chromium
// against the real wasm build.
//
// Checks: a picked or dropped model opens in the view of its architecture (transformer → heads,
// classifier → pooling, seq2seq → alignment, memory-RNN language model → reading), its inspector
// shows the tensor count, every shape and the parameter count, each computed here from the file's
// own header (read with plain Node, not with attnlab); a memory-RNN classifier, which no view
// draws, is said to be so with the inspector shown; the file joins the view's model list marked
// "your file"; the URL hash never holds it and the page says a link cannot; every kind of wrong
// drop (not safetensors, truncated, a wrong config, empty, too large, a .json, an image, several
// files, text) gets its own message in English and Chinese, with nothing left of the file before;
// replacing a file frees the old model (the wasm heap's live allocations come back to the same
// count); a drop on the SDPA playground opens the model views; <attn-demo> draws a model given as
// a blob: URL and as a File (the same weights as the model run in Node), and refuses hostile
// values (a Proxy, an object with getters, a revoked blob: URL) with a message, never a page error.
// Screenshots (tests/browser/screenshots/open-model-{inspector,error}-{en,zh}-{desktop,phone}.png):
// the inspector and an error, English and Chinese, desktop and a 390-px phone.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { init, loadModel, readSafetensors } from '../../wasm/index.js';
import { errorDetail, t } from '../../web/shared/i18n.js';
import { MAX_MODEL_BYTES } from '../../web/shared/open-model.js';
import { defaultModelFor, sampleFor } from '../../web/shared/models.js';
import { REPO_ROOT, screenshot, startBrowser } from './harness.js';

const file = (rel) => ({
  name: path.basename(rel),
  bytes: readFileSync(path.join(REPO_ROOT, rel)),
});
const TRANSFORMER = file('web/models/tf-dates-absolute.safetensors');
const CLASSIFIER = file('tests/fixtures/classifier_attention_bilstm.safetensors');
const SEQ2SEQ = file('tests/fixtures/model_lstm_additive_bahdanau.safetensors');
const LM = file('tests/fixtures/memory_rnn_lm_lstmn.safetensors');
const MEMORY_CLF = file('tests/fixtures/memory_rnn_clf_lstmn.safetensors');

/**
 * What the inspector must show, from the file's header alone (8-byte little-endian length, then
 * JSON): the tensors the loader lists (an I8 matrix's "<name>:scale" is read with it, not
 * listed), their shapes, the parameter count, and the architecture in the config.
 */
function fromHeader(bytes) {
  const n = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + n).toString('utf8'));
  const meta = header.__metadata__ ?? {};
  const tensors = Object.entries(header)
    .filter(([k]) => k !== '__metadata__' && !k.endsWith(':scale'))
    .map(([name, v]) => ({ name, shape: v.shape, count: v.shape.reduce((a, b) => a * b, 1) }));
  return {
    tensors,
    parameters: tensors.reduce((a, x) => a + x.count, 0),
    config: JSON.parse(meta.config ?? 'null'),
  };
}

let browser;
let page;
let problems;
/** Resolvers waiting for the next file dialog (see nextFileChooser). */
const chooserWaiters = [];

before(async () => {
  await init();
  browser = await startBrowser();
  ({ page, problems } = await browser.newPage());
  // One 'filechooser' listener for the page's whole life: Playwright intercepts file dialogs only
  // while a listener exists, and turns interception on without waiting for Chromium, so the
  // per-call nextFileChooser() raced the key press that opens the dialog and lost
  // about one time in four (the dialog opened un-intercepted and the wait timed out). The
  // round trip after registering makes sure interception is on before any test presses a key.
  page.on('filechooser', (chooser) => {
    for (const resolve of chooserWaiters.splice(0)) resolve(chooser);
  });
  await page.evaluate(() => 0);
});

/** The next file dialog the page opens (rejects after ms). */
function nextFileChooser(ms = 10000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no file dialog opened within ${ms} ms`)), ms);
    chooserWaiters.push((chooser) => {
      clearTimeout(timer);
      resolve(chooser);
    });
  });
}

after(async () => {
  await browser?.close();
});

/** Open the page at hash and wait for its first drawn view. */
async function openPage(hash) {
  await page.goto(`${browser.url}/web/${hash}`);
  await page.waitForSelector('#app[data-state="ready"]');
  await page.waitForFunction(() => !!document.getElementById('app').dataset.rendered, null, {
    timeout: 15000,
  });
}

/** Drop files (each { name, bytes, type? }) on selector with a synthetic DataTransfer, as a browser does. */
async function drop(selector, files) {
  await page.locator(selector).evaluate(
    (target, list) => {
      const dt = new DataTransfer();
      for (const f of list)
        dt.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: f.type ?? '' }));
      for (const type of ['dragenter', 'dragover', 'drop']) {
        target.dispatchEvent(
          new DragEvent(type, {
            dataTransfer: dt,
            bubbles: true,
            composed: true,
            cancelable: true,
          }),
        );
      }
    },
    files.map((f) => ({ name: f.name, type: f.type, bytes: [...f.bytes] })),
  );
}

/** Wait until #demo has drawn (or said why not) with the model file `name` as its model. */
async function waitOpened(name) {
  await page.waitForFunction(
    (key) => {
      const d = document.getElementById('demo');
      return (
        d.state.model === key &&
        new URLSearchParams(d.dataset.rendered ?? '').get('model') === key &&
        !/Reading|正在读取/.test(d.shadowRoot.querySelector('.status').textContent)
      );
    },
    `file:${name}`,
    { timeout: 15000 },
  );
}

/** What #demo shows: its view, error, inspector (summary, tensor rows), picker option of the file. */
function demoShows() {
  return page.locator('#demo').evaluate((d) => {
    const root = d.shadowRoot;
    const error = root.querySelector('.demo-error');
    const inspector = root.querySelector('.inspector-host');
    const local = root.querySelector('#model option[data-local]');
    return {
      view: d.state.view,
      model: d.state.model,
      error: error.hidden ? '' : error.textContent,
      inspector: inspector.hidden
        ? null
        : {
            title: inspector.querySelector('h3').textContent,
            summary: inspector.querySelector('.inspect-summary').textContent,
            rows: [...inspector.querySelectorAll('tbody tr')].map((tr) =>
              [...tr.children].map((td) => td.textContent),
            ),
          },
      option: local ? { text: local.textContent, selected: local.selected } : null,
      viewHidden:
        root
          .querySelector(
            `[data-view="${d.state.view}"].view, section[data-view="${d.state.view}"], [data-host="${d.state.view}"]`,
          )
          ?.closest('[hidden]') !== null,
    };
  });
}

/** The wasm heap's live allocations (the page's own attnlab instance). */
const live = () =>
  page.evaluate(async () =>
    (await import('/wasm/index.js')).init().then((api) => api.liveAllocations()),
  );

/** The inspector equals what the header says. */
function assertInspector(shows, f, lang = 'en') {
  const h = fromHeader(f.bytes);
  assert.ok(shows.inspector, `${f.name}: the inspector is shown`);
  assert.equal(
    shows.inspector.summary,
    t(lang, 'inspect.summary', {
      tensors: h.tensors.length.toLocaleString('en-US'),
      parameters: h.parameters.toLocaleString('en-US'),
    }),
  );
  assert.deepEqual(
    shows.inspector.rows.map((r) => r[0]),
    h.tensors.map((x) => x.name),
    `${f.name}: tensor names in header order`,
  );
  assert.deepEqual(
    shows.inspector.rows.map((r) => r[2]),
    h.tensors.map((x) => `[${x.shape.join(', ')}]`),
    `${f.name}: shapes`,
  );
  assert.deepEqual(
    shows.inspector.rows.map((r) => Number(r[3].replace(/,/g, ''))),
    h.tensors.map((x) => x.count),
    `${f.name}: counts`,
  );
  assert.ok(shows.inspector.title.includes(f.name));
}

test('the picker opens a transformer in the heads view, with its inspector; the hash never holds it', async () => {
  await openPage('#view=alignment&model=dates-additive&input=22%20Nov%202026&lang=en');
  // keyboard: the button is in the tab order (after the views since the projector layout), and
  // Enter opens the file dialog (a real <input type=file>)
  await page.locator('#demo .open-button').focus();
  assert.equal(await page.locator('#demo .open-button').getAttribute('tabindex'), null);
  assert.equal(
    await page.locator('#demo').evaluate((d) => d.shadowRoot.activeElement?.className),
    'open-button',
  );
  assert.equal(await page.locator('#demo .open-button').textContent(), t('en', 'open.button'));
  const [chooser] = await Promise.all([nextFileChooser(), page.keyboard.press('Enter')]);
  assert.equal(chooser.isMultiple(), false);
  await chooser.setFiles({ name: TRANSFORMER.name, mimeType: '', buffer: TRANSFORMER.bytes });
  await waitOpened(TRANSFORMER.name);
  const shows = await demoShows();
  assert.equal(shows.view, 'heads');
  assert.equal(shows.error, '');
  assertInspector(shows, TRANSFORMER);
  assert.equal(fromHeader(TRANSFORMER.bytes).config.architecture, 'transformer');
  assert.deepEqual(shows.option, {
    text: `${TRANSFORMER.name} (${t('en', 'open.yourFile')})`,
    selected: true,
  });
  // the heads view drew the file's maps: as many small multiples as the file has layers × heads
  const config = fromHeader(TRANSFORMER.bytes).config;
  const maps = await page
    .locator('#demo')
    .evaluate((d) => d.shadowRoot.querySelectorAll('button.thumb').length);
  assert.equal(
    maps,
    config.numLayers * config.numHeads,
    `${maps} maps for ${config.numLayers} layers × ${config.numHeads} heads`,
  );
  const hash = await page.evaluate(() => location.hash);
  assert.doesNotMatch(hash, /file%3A|file:/);
  assert.match(hash, /view=heads/);
  assert.match(
    hash,
    /model=tf-dates-absolute(&|$)/,
    "the hash names the heads view's own first model",
  );
  assert.equal(
    await page.locator('#link-note').textContent(),
    t('en', 'open.linkNote', { fallback: 'tf-dates-absolute', name: TRANSFORMER.name }),
  );
  assert.equal(await page.locator('#link-note').isVisible(), true);
  assert.deepEqual(problems, []);
});

test('drops: each architecture opens in its view; a memory-RNN classifier fits none and says so', async () => {
  await openPage('#view=alignment&model=dates-additive&input=22%20Nov%202026&lang=en');
  for (const [f, view] of [
    [CLASSIFIER, 'pooling'],
    [SEQ2SEQ, 'alignment'],
    [LM, 'reading'],
    [TRANSFORMER, 'heads'],
  ]) {
    await drop('#demo', [f]);
    await waitOpened(f.name);
    const shows = await demoShows();
    assert.equal(shows.view, view, f.name);
    assert.equal(shows.error, '', `${f.name}: ${shows.error}`);
    if (f !== SEQ2SEQ) {
      // into another family's view: its sample input, as a tab gives (the seq2seq file stays in alignment)
      assert.equal(
        await page.locator('#demo').evaluate((d) => d.state.input),
        sampleFor(defaultModelFor(view)),
        f.name,
      );
    }
    assertInspector(shows, f);
  }
  await drop('#demo', [MEMORY_CLF]);
  await waitOpened(MEMORY_CLF.name);
  const shows = await demoShows();
  assert.equal(
    shows.error,
    t('en', 'open.noView', { name: MEMORY_CLF.name, arch: 'memory-rnn classifier' }),
  );
  assertInspector(shows, MEMORY_CLF);
  assert.deepEqual(problems, []);
});

/** f with a card added to its __metadata__ (the header rewritten; the data, at offsets from its start, kept). */
function withCard(f, card) {
  const n = Number(f.bytes.readBigUInt64LE(0));
  const header = JSON.parse(f.bytes.subarray(8, 8 + n).toString('utf8'));
  header.__metadata__ = { ...header.__metadata__, card: JSON.stringify(card) };
  const json = Buffer.from(JSON.stringify(header));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(json.length));
  return { name: `carded-${f.name}`, bytes: Buffer.concat([len, json, f.bytes.subarray(8 + n)]) };
}

test("a card in the file's metadata is shown in the inspector", async () => {
  const card = JSON.parse(
    readFileSync(path.join(REPO_ROOT, 'web/models/clf-reviews-attention.json'), 'utf8'),
  );
  const f = withCard(CLASSIFIER, card);
  await openPage('#view=pooling&model=clf-reviews-attention&lang=en');
  await drop('#demo', [f]);
  await waitOpened(f.name);
  const shows = await demoShows();
  assert.equal(shows.error, '');
  assertInspector(shows, f);
  const shown = await page
    .locator('#demo')
    .evaluate((d) => d.shadowRoot.querySelector('.inspector .model-card')?.textContent ?? null);
  assert.ok(shown, 'the card is rendered');
  assert.ok(shown.includes(card.task), `the card names its task ${card.task}`);
  assert.deepEqual(problems, []);
});

test('a second file replaces the first and frees it: the wasm heap does not grow', async () => {
  await openPage('#view=heads&model=tf-dates-absolute&lang=en');
  await drop('#demo', [TRANSFORMER]);
  await waitOpened(TRANSFORMER.name);
  const one = await live();
  await drop('#demo', [
    { name: 'notes.txt', bytes: Buffer.from('not a model at all, just text\n') },
  ]);
  await waitOpened('notes.txt');
  const none = await live();
  assert.ok(none < one, `the transformer was freed (${none} < ${one} live allocations)`);
  for (let i = 0; i < 3; i++) {
    await drop('#demo', [TRANSFORMER]);
    await waitOpened(TRANSFORMER.name);
    assert.equal(
      await live(),
      one,
      `open #${i + 2} of the same file: as many live allocations as the first`,
    );
  }
  assert.deepEqual(problems, []);
});

/** What the loader says of bytes (readSafetensors first, as the page does, then loadModel). */
async function loaderMessage(bytes, lang) {
  try {
    readSafetensors(new Uint8Array(bytes));
    (await loadModel(new Uint8Array(bytes))).dispose();
  } catch (err) {
    return errorDetail(lang, err); // the loader's English; in Chinese its kind, the original quoted
  }
  throw new Error('the loader accepted it');
}

/** A valid safetensors file with one tensor and this config string. */
function withConfig(config) {
  const header = Buffer.from(
    JSON.stringify({
      w: { dtype: 'F32', shape: [2, 2], data_offsets: [0, 16] },
      __metadata__: { config },
    }),
  );
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(header.length));
  return Buffer.concat([len, header, Buffer.alloc(16)]);
}

test('wrong files: each named in English and Chinese, nothing left of the file before', async () => {
  const png = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cf00000301010018dd8db40000000049454e44ae426082',
    'hex',
  );
  const cases = [
    [
      'not safetensors',
      [{ name: 'notes.safetensors', bytes: Buffer.from('hello, I am text') }],
      async (lang, [f]) =>
        t(lang, 'open.failed', { name: f.name, message: await loaderMessage(f.bytes, lang) }),
    ],
    [
      'truncated',
      [
        {
          name: 'half.safetensors',
          bytes: TRANSFORMER.bytes.subarray(0, TRANSFORMER.bytes.length >> 1),
        },
      ],
      async (lang, [f]) =>
        t(lang, 'open.failed', { name: f.name, message: await loaderMessage(f.bytes, lang) }),
    ],
    [
      'wrong config',
      [{ name: 'wrong.safetensors', bytes: withConfig('{"architecture": "perceptron"}') }],
      async (lang, [f]) =>
        t(lang, 'open.failed', { name: f.name, message: await loaderMessage(f.bytes, lang) }),
    ],
    [
      'empty',
      [{ name: 'empty.safetensors', bytes: Buffer.alloc(0) }],
      (lang, [f]) => t(lang, 'open.empty', { name: f.name }),
    ],
    [
      'a .json',
      [
        {
          name: 'tf-dates-absolute.json',
          type: 'application/json',
          bytes: readFileSync(path.join(REPO_ROOT, 'web/models/tf-dates-absolute.json')),
        },
      ],
      (lang, [f]) => t(lang, 'open.json', { name: f.name }),
    ],
    [
      'an image',
      [{ name: 'dot.png', type: 'image/png', bytes: png }],
      (lang, [f]) => t(lang, 'open.image', { name: f.name }),
    ],
    ['several files', [SEQ2SEQ, CLASSIFIER], (lang) => t(lang, 'open.several', { n: 2 })],
  ];
  for (const lang of ['en', 'zh']) {
    await openPage(`#view=alignment&model=dates-additive&input=22%20Nov%202026&lang=${lang}`);
    for (const [what, files, expected] of cases) {
      await drop('#demo', [TRANSFORMER]); // a good file first: nothing of it may stay
      await waitOpened(TRANSFORMER.name);
      await drop('#demo', files);
      const name = files.length > 1 ? '' : files[0].name; // several files: no name (the key is 'file:')
      await waitOpened(name);
      const shows = await demoShows();
      assert.equal(shows.error, await expected(lang, files), `${lang}, ${what}`);
      if (what === 'wrong config') {
        assert.ok(
          shows.inspector,
          'a valid safetensors file with a wrong config: its tensors are still shown',
        );
        assert.equal(shows.inspector.rows.length, 1);
      } else {
        assert.equal(
          shows.inspector,
          null,
          `${lang}, ${what}: no inspector left from the file before`,
        );
      }
      assert.equal(shows.viewHidden, true, `${lang}, ${what}: no map left from the file before`);
    }
  }
  // too large: a file over the limit is refused before it is read
  await page.locator('#demo').evaluate((d, size) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(size)], 'huge.safetensors'));
    d.dispatchEvent(
      new DragEvent('drop', { dataTransfer: dt, bubbles: true, composed: true, cancelable: true }),
    );
  }, MAX_MODEL_BYTES + 1);
  await waitOpened('huge.safetensors');
  assert.equal(
    (await demoShows()).error,
    t('zh', 'open.tooLarge', {
      name: 'huge.safetensors',
      mb: ((MAX_MODEL_BYTES + 1) / 1048576).toFixed(1),
      limit: 64,
    }),
  );
  // text dragged from a page: no file at all
  await page.locator('#demo').evaluate((d) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', 'hello');
    dt.items.add(new File([new Uint8Array([1])], 'placeholder.bin')); // types must carry 'Files' for the drop to be taken ...
    dt.items.remove(1); // ... then only text is left
    d.openDropped(dt);
  });
  await waitOpened('');
  assert.equal((await demoShows()).error, t('zh', 'open.notFile'));
  assert.deepEqual(problems, []);
});

test('a drop on the SDPA playground or the lab opens the model views; the picker via setInputFiles', async () => {
  await openPage('#view=playground&lang=en');
  await drop('#heatmap', [CLASSIFIER]);
  await waitOpened(CLASSIFIER.name);
  assert.equal((await demoShows()).view, 'pooling');
  await page.waitForFunction(() => /view=pooling/.test(location.hash));
  assert.equal(await page.locator('#models-view').isVisible(), true);
  await page.goto(`${browser.url}/web/#view=train&lang=en`); // the old Train link: the lab
  await page.waitForSelector('#app[data-state="ready"]');
  await drop('#lab-title', [LM]);
  await waitOpened(LM.name);
  assert.equal((await demoShows()).view, 'reading');
  await page.waitForFunction(() => /view=reading/.test(location.hash));
  assert.equal(await page.locator('#lab-view').isVisible(), false);
  // the hidden input itself, as a test or an assistive tool reaches it
  await page
    .locator('#demo input[type="file"]')
    .setInputFiles({ name: SEQ2SEQ.name, mimeType: '', buffer: SEQ2SEQ.bytes });
  await waitOpened(SEQ2SEQ.name);
  assertInspector(await demoShows(), SEQ2SEQ);
  assert.deepEqual(problems, []);
});

test('desktop and a 390-px phone, English and Chinese: the inspector and an error fit the width', async () => {
  for (const [width, height, device] of [
    [1280, 900, 'desktop'],
    [390, 844, 'phone'],
  ]) {
    await page.setViewportSize({ width, height });
    for (const lang of ['en', 'zh']) {
      await openPage(`#view=alignment&model=dates-additive&input=22%20Nov%202026&lang=${lang}`);
      await drop('#demo', [CLASSIFIER]);
      await waitOpened(CLASSIFIER.name);
      assertInspector(await demoShows(), CLASSIFIER, lang);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `${device}, ${lang}: the page scrolls sideways by ${overflow} px`);
      await page
        .locator('#demo')
        .evaluate((d) => d.shadowRoot.querySelector('.inspector').scrollIntoView());
      await screenshot(page, `open-model-inspector-${lang}-${device}`);
      const half = { name: 'half.safetensors', bytes: TRANSFORMER.bytes.subarray(0, 999) };
      await drop('#demo', [half]);
      await waitOpened(half.name);
      assert.equal(
        (await demoShows()).error,
        t(lang, 'open.failed', { name: half.name, message: await loaderMessage(half.bytes, lang) }),
      );
      await screenshot(page, `open-model-error-${lang}-${device}`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  assert.deepEqual(problems, []);
});

test('<attn-demo>: a blob: URL model attribute and the modelFile property draw the model; hostile values are refused', async () => {
  const { page: host, problems: hostProblems } = await browser.newPage();
  await host.goto(`${browser.url}/tests/browser/embed-host.html`);
  const input = 'abcdefg';
  const result = await host.evaluate(
    async ({ bytes, input }) => {
      const { define } = await import('/web/embed.js');
      define();
      const blob = new Blob([new Uint8Array(bytes)]);
      const make = (set) =>
        new Promise((resolve) => {
          const el = document.createElement('attn-demo');
          el.setAttribute('input', input);
          set(el);
          document.getElementById('host').append(el);
          const done = () => {
            const status = el.shadowRoot.querySelector('.status').textContent;
            if (/Reading|Loading/.test(status)) return;
            el.removeEventListener('demo-render', done);
            const map = el.shadowRoot.querySelector(
              'section[data-view="alignment"] attn-heatmap',
            )?.data;
            const error = el.shadowRoot.querySelector('.demo-error');
            resolve({
              el,
              view: el.state.view,
              weights: map ? Array.from(map.weights) : null,
              rows: map?.rows,
              cols: map?.cols,
              error: error.hidden ? '' : error.textContent,
            });
          };
          el.addEventListener('demo-render', done);
        });
      const url = URL.createObjectURL(blob);
      const viaUrl = await make((el) => el.setAttribute('model', url));
      const viaFile = await make((el) => {
        el.modelFile = new File([blob], 'mine.safetensors');
      });
      const viaBytes = await make((el) => {
        el.modelFile = new Uint8Array(bytes);
      });
      let getterCalled = false;
      const hostile = {
        get size() {
          getterCalled = true;
          throw new Error('boom');
        },
        get name() {
          getterCalled = true;
          return 'x';
        },
        arrayBuffer() {
          getterCalled = true;
          return Promise.resolve(new ArrayBuffer(8));
        },
      };
      const viaGetters = await make((el) => {
        el.modelFile = hostile;
      });
      const proxy = new Proxy(new File([blob], 'p.safetensors'), {
        get() {
          getterCalled = true;
          throw new Error('trap');
        },
        getPrototypeOf() {
          getterCalled = true;
          throw new Error('trap');
        },
      });
      const viaProxy = await make((el) => {
        el.modelFile = proxy;
      });
      const revoked = URL.createObjectURL(blob);
      URL.revokeObjectURL(revoked);
      const viaRevoked = await make((el) => el.setAttribute('model', revoked));
      URL.revokeObjectURL(url);
      const strip = ({ el: _el, ...rest }) => rest;
      return {
        url,
        revoked,
        getterCalled,
        viaUrl: strip(viaUrl),
        viaFile: strip(viaFile),
        viaBytes: strip(viaBytes),
        viaGetters: strip(viaGetters),
        viaProxy: strip(viaProxy),
        viaRevoked: strip(viaRevoked),
      };
    },
    { bytes: [...SEQ2SEQ.bytes], input },
  );
  const model = await loadModel(new Uint8Array(SEQ2SEQ.bytes));
  const expected = model.run(input);
  const weights = Array.from(expected.attention[0].weights.data);
  model.dispose();
  for (const key of ['viaUrl', 'viaFile', 'viaBytes']) {
    const r = result[key];
    assert.equal(r.error, '', `${key}: ${r.error}`);
    assert.equal(r.view, 'alignment');
    assert.equal(r.weights.length, weights.length, key);
    const worst = Math.max(...r.weights.map((w, i) => Math.abs(w - weights[i])));
    assert.ok(worst <= 1e-5, `${key}: worst difference ${worst} from the model run in Node`);
  }
  assert.equal(result.getterCalled, false, 'nothing of a hostile value was called');
  const kind = 'an object that is not a File, Blob, ArrayBuffer or Uint8Array';
  assert.equal(result.viaGetters.error, t('en', 'open.badValue', { kind }));
  assert.equal(result.viaProxy.error, t('en', 'open.badValue', { kind }));
  assert.equal(result.viaRevoked.error, t('en', 'open.blobFailed', { name: result.revoked }));
  // Chromium reports the revoked URL's failed fetch (a failed request naming it, and a console line
  // that does not): those are expected, nothing else
  const expectedProblems = (p) =>
    p.includes(result.revoked) ||
    p === 'console.error: Failed to load resource: net::ERR_FILE_NOT_FOUND';
  assert.deepEqual(
    hostProblems.filter((p) => !expectedProblems(p)),
    [],
  );
  await host.close();
});

test("<attn-demo>: removal frees the file's model, putting the element back opens modelFile again; a seq2seq file stays in the time view", async () => {
  const { page: host, problems: hostProblems } = await browser.newPage();
  await host.goto(`${browser.url}/tests/browser/embed-host.html`);
  const result = await host.evaluate(
    async (bytes) => {
      const { define } = await import('/web/embed.js');
      define();
      const api = await (await import('/wasm/index.js')).init();
      const baseline = api.liveAllocations();
      const el = document.createElement('attn-demo');
      el.setAttribute('view', 'time');
      el.setAttribute('input', 'abcdefg');
      const drawn = () =>
        new Promise((resolve) => {
          const done = () => {
            if (/Reading|Loading/.test(el.shadowRoot.querySelector('.status').textContent)) return;
            el.removeEventListener('demo-render', done);
            resolve({
              view: el.state.view,
              model: el.state.model,
              live: api.liveAllocations(),
              inspector: !el.shadowRoot.querySelector('.inspector-host').hidden,
            });
          };
          el.addEventListener('demo-render', done);
        });
      const file = new File([new Uint8Array(bytes)], 'mine.safetensors');
      el.modelFile = file;
      let wait = drawn();
      document.getElementById('host').append(el);
      const first = await wait;
      el.remove();
      const removed = api.liveAllocations();
      wait = drawn();
      document.getElementById('host').append(el);
      const again = await wait;
      const same = el.modelFile === file;
      el.modelFile = null;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const closed = {
        model: el.state.model,
        inspector: !el.shadowRoot.querySelector('.inspector-host').hidden,
      };
      el.remove();
      return { baseline, first, removed, again, same, closed, end: api.liveAllocations() };
    },
    [...SEQ2SEQ.bytes],
  );
  assert.deepEqual(
    { view: result.first.view, model: result.first.model, inspector: result.first.inspector },
    { view: 'time', model: 'file:mine.safetensors', inspector: true },
  );
  assert.ok(result.first.live > result.baseline, "the file's model holds wasm memory while shown");
  assert.equal(result.removed, result.baseline, "removing the element freed the file's model");
  assert.deepEqual(
    { view: result.again.view, model: result.again.model },
    { view: 'time', model: 'file:mine.safetensors' },
  );
  assert.equal(result.again.live, result.first.live, 'put back: the same file, the same memory');
  assert.equal(result.same, true, 'modelFile reads back what was set');
  assert.deepEqual(
    result.closed,
    { model: 'dates-additive', inspector: false },
    "modelFile = null: back to the view's first model",
  );
  assert.equal(result.end, result.baseline);
  assert.deepEqual(hostProblems, []);
  await host.close();
});
