// web-open-model.test.js: web/shared/open-model.js without a browser: what <attn-demo>'s
// modelFile accepts (each value read once, through the intrinsic accessors: getters, Proxies and
// look-alikes are refused and never called), the checks before the loader (empty, the size limit,
// a .json, an image), which view draws which architecture, and what the inspector counts, against
// the shipped and fixture files read through the C loader. The browser side (drops, the picker,
// the inspector drawn) is tests/browser/open-model.test.js.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { init, readSafetensors } from '../../wasm/index.js';
import { t } from '../../web/shared/i18n.js';
import {
  LocalFileError,
  MAX_MODEL_BYTES,
  checkSource,
  inspectFile,
  localError,
  localSource,
  readLocal,
  viewFor,
} from '../../web/shared/open-model.js';

const bytesOf = (rel) => new Uint8Array(readFileSync(new URL(`../../${rel}`, import.meta.url)));

before(async () => {
  await init();
});

test('localSource: a File, a Blob, an ArrayBuffer and a Uint8Array (a copy) are read', async () => {
  const data = new Uint8Array([1, 2, 3, 4, 5]);
  const file = localSource(
    new File([data], 'm.safetensors', { type: 'application/octet-stream' }),
  ).source;
  assert.deepEqual(
    { name: file.name, size: file.size, type: file.type },
    { name: 'm.safetensors', size: 5, type: 'application/octet-stream' },
  );
  assert.deepEqual([...(await file.read())], [1, 2, 3, 4, 5]);
  const blob = localSource(new Blob([data])).source;
  assert.deepEqual({ name: blob.name, size: blob.size }, { name: 'blob', size: 5 });
  const ab = localSource(data.buffer.slice(0)).source;
  assert.deepEqual([...(await ab.read())], [1, 2, 3, 4, 5]);
  const view = new Uint8Array(data.buffer, 1, 3);
  const u8 = localSource(view).source;
  view[0] = 99; // changed after it was set: the element has its copy
  assert.deepEqual([...(await u8.read())], [2, 3, 4]);
});

test('localSource: hostile and wrong values are refused without calling anything of them', () => {
  let called = 0;
  let ownCalls = 0;
  const getters = {
    get size() {
      ownCalls++;
      return 5;
    },
    get name() {
      ownCalls++;
      return 'x';
    },
    arrayBuffer() {
      ownCalls++;
    },
  };
  const proxy = new Proxy(new Blob([new Uint8Array(4)]), {
    get() {
      called++;
      throw new Error('trap');
    },
    getPrototypeOf() {
      called++;
      throw new Error('trap');
    },
    has() {
      called++;
      throw new Error('trap');
    },
  });
  class FakeBlob extends Uint16Array {}
  const kind = 'an object that is not a File, Blob, ArrayBuffer or Uint8Array';
  for (const [value, shown] of [
    [getters, kind],
    [proxy, kind],
    [{}, kind],
    ['blob:x', 'string'],
    [42, 'number'],
    [new Uint16Array(4), 'Uint16Array'],
    [new FakeBlob(2), 'Uint16Array'],
    [new DataView(new ArrayBuffer(2)), 'DataView'],
  ]) {
    const got = localSource(value);
    assert.ok(got.problem instanceof LocalFileError, String(shown));
    assert.equal(got.problem.message, t('en', 'open.badValue', { kind: shown }));
  }
  // Node's own Blob getters are JavaScript that reads an internal symbol of `this`, which a Proxy's
  // get trap sees (and throws from: still refused); a browser's brand check runs no trap at all
  // (tests/browser/open-model.test.js). No getter or method of the caller's ran either way.
  assert.ok(called <= 1, `${called} calls into refused values`);
  assert.equal(ownCalls, 0, 'no getter or method of a look-alike object ran');
  assert.equal(localError('zh', 'x', localSource({}).problem), t('zh', 'open.badValue', { kind }));
});

test('checkSource: empty, over the limit, a .json, an image; a model file passes', () => {
  assert.equal(checkSource({ name: 'a.safetensors', size: 0, type: '' }).key, 'open.empty');
  const big = checkSource({ name: 'a.safetensors', size: MAX_MODEL_BYTES + 1, type: '' });
  assert.equal(big.key, 'open.tooLarge');
  assert.equal(
    big.message,
    `Your file a.safetensors is ${((MAX_MODEL_BYTES + 1) / 1048576).toFixed(1)} MB; this page opens model files of at most 64 MB.`,
  );
  assert.equal(
    checkSource({ name: 'a.safetensors', size: MAX_MODEL_BYTES, type: '' }),
    null,
    'exactly the limit is allowed',
  );
  assert.equal(checkSource({ name: 'card.JSON', size: 10, type: '' }).key, 'open.json');
  assert.equal(checkSource({ name: 'x', size: 10, type: 'application/json' }).key, 'open.json');
  assert.equal(checkSource({ name: 'p.png', size: 10, type: '' }).key, 'open.image');
  assert.equal(checkSource({ name: 'p', size: 10, type: 'image/webp' }).key, 'open.image');
  assert.equal(checkSource({ name: 'm.safetensors', size: 10, type: '' }), null);
});

test('viewFor: each architecture to its view, a memory-RNN classifier to none', () => {
  assert.equal(viewFor('seq2seq', undefined, 'heads'), 'alignment');
  assert.equal(viewFor('seq2seq', undefined, 'time'), 'time');
  assert.equal(viewFor('transformer', undefined, 'alignment'), 'heads');
  assert.equal(viewFor('classifier', undefined, 'alignment'), 'pooling');
  assert.equal(viewFor('memory-rnn', 'lm', 'alignment'), 'reading');
  assert.equal(viewFor('memory-rnn', 'classifier', 'alignment'), null);
  assert.equal(viewFor('perceptron', undefined, 'alignment'), null);
});

test("readLocal + inspectFile: tensors, shapes and parameters as the header says; the loader's errors pass through", async () => {
  for (const rel of [
    'web/models/tf-dates-absolute.safetensors',
    'tests/fixtures/classifier_attention_bilstm.safetensors',
  ]) {
    const bytes = bytesOf(rel);
    const n = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
    const listed = Object.entries(header).filter(
      ([k]) => k !== '__metadata__' && !k.endsWith(':scale'),
    );
    const { inspect } = await readLocal(
      localSource(new File([bytes], 'm.safetensors')).source,
      readSafetensors,
    );
    assert.deepEqual(
      inspect.tensors.map((x) => [x.name, x.shape]),
      listed.map(([k, v]) => [k, v.shape]),
      rel,
    );
    assert.equal(
      inspect.parameters,
      listed.reduce((a, [, v]) => a + v.shape.reduce((p, d) => p * d, 1), 0),
      rel,
    );
    assert.equal(
      inspect.scales,
      Object.keys(header).filter((k) => k.endsWith(':scale')).length,
      rel,
    );
    assert.deepEqual(inspect.config, JSON.parse(header.__metadata__.config));
    assert.equal(inspect.card, null);
  }
  const text = localSource(
    new File([new TextEncoder().encode('hello, not a model')], 'n.safetensors'),
  ).source;
  await assert.rejects(
    readLocal(text, readSafetensors),
    (err) => err.code === 'AL_ERR_FORMAT' && /^readSafetensors: /.test(err.message),
  );
  const json = localSource(new File(['{}'], 'card.json')).source;
  await assert.rejects(
    readLocal(json, readSafetensors),
    (err) => err instanceof LocalFileError && err.key === 'open.json',
  );
  const unreadable = {
    name: 'gone.safetensors',
    size: 10,
    type: '',
    read: () => Promise.reject(new Error('NotFoundError')),
  };
  await assert.rejects(
    readLocal(unreadable, readSafetensors),
    (err) => err.key === 'open.unreadable' && err.params.message === 'NotFoundError',
  );
});

test('inspectFile: a card in the metadata is summarised; a broken card or config is named, never thrown', () => {
  const tensors = new Map([['w', { shape: [2, 3], dtype: 'F32', data: new Float32Array(6) }]]);
  const good = inspectFile({
    metadata: { config: '{"architecture":"seq2seq"}', card: '{"task":"reverse a string"}' },
    tensors,
  });
  assert.equal(good.card.task, 'reverse a string');
  assert.equal(good.parameters, 6);
  const bad = inspectFile({ metadata: { config: '{oops', card: '{oops' }, tensors });
  assert.ok(bad.card instanceof Error);
  assert.equal(bad.config, null);
  assert.match(bad.configError, /JSON/);
  assert.equal(
    inspectFile({ metadata: {}, tensors }).configError,
    'no "config" in the file\'s __metadata__',
  );
});

test("isBlobUrl / isLocalModel: only this origin's object URLs; resolveModel takes them, links never", async () => {
  const { isBlobUrl, isLocalModel, resolveModel } = await import('../../web/shared/models.js');
  const o = 'http://127.0.0.1:8080';
  const uuid = '0b6f3c2e-5d1a-4c8e-9f3b-2a7d6e1c4b90';
  assert.equal(isBlobUrl(`blob:${o}/${uuid}`, o), true);
  assert.equal(isBlobUrl(`blob:null/${uuid}`, 'null'), true, "a sandboxed iframe's own object URL");
  for (const bad of [
    `blob:http://evil.example/${uuid}`,
    `blob:${o}/${uuid}x`,
    `blob:${o}/../${uuid}`,
    `blob:${o}/not-a-uuid`,
    `${o}/${uuid}`,
    null,
  ]) {
    assert.equal(isBlobUrl(bad, o), false, String(bad));
  }
  assert.equal(resolveModel(`blob:${o}/${uuid}`, o)?.blob, true);
  assert.equal(resolveModel(`blob:http://evil.example/${uuid}`, o), null);
  assert.equal(isLocalModel('file:mine.safetensors', o), true);
  assert.equal(isLocalModel('dates-additive', o), false);
});
