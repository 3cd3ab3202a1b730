// web-load-guard.test.js: the sentences for a file the page could not fetch, in Node.
//
// web/load-guard.js and web/elements-loader.js are classic scripts (they run where no module
// can, so they cannot import i18n.js) and keep copies of i18n.js's load.* strings: every copy must equal the original, in
// every language, and name every placeholder the original does. fetch-problem.js diagnoseFetch
// tells a 404, a CORS refusal (the no-cors retry answers), an unreachable server and a file://
// page apart, with a fake fetch; fetchProblem composes what failed, why and the fix as the
// browser tests (tests/browser/embed-errors.test.js) expect.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import vm from 'node:vm';
import { LANGUAGES, keys, sentences, t } from '../../web/shared/i18n.js';
import { diagnoseFetch, fetchProblem } from '../../web/shared/fetch-problem.js';

/** The classic scripts that keep copies of i18n.js's load.* strings (they cannot import it). */
const CLASSIC = ['load-guard.js', 'elements-loader.js'];

/** A classic script's STRINGS object literal, evaluated on its own (the script needs a DOM). */
function guardStrings(file) {
  const source = readFileSync(new URL(`../../web/${file}`, import.meta.url), 'utf8');
  const start = source.indexOf('var STRINGS = {');
  const end = source.indexOf('\n  };\n', start);
  assert.ok(start > 0 && end > start, `${file} holds \`var STRINGS = { … };\``);
  return vm.runInNewContext(`(${source.slice(start + 'var STRINGS = '.length, end + 4)})`);
}

for (const file of CLASSIC) {
  test(`${file}: its strings are i18n.js’s, in every language`, () => {
    const strings = guardStrings(file);
    assert.deepEqual(Object.keys(strings).sort(), [...LANGUAGES].sort());
    const names = Object.keys(strings.en);
    assert.ok(
      names.includes('load.code') && names.includes('load.cors') && names.includes('load.file'),
    );
    for (const lang of LANGUAGES) {
      assert.deepEqual(Object.keys(strings[lang]), names, `${lang}: the same keys as en`);
      for (const key of names) {
        assert.ok(keys(lang).includes(key), `${lang}: ${key} is in i18n.js`);
        assert.equal(strings[lang][key], t(lang, key), `${lang} ${key}`); // no params: placeholders stay
      }
    }
  });
}

/** A fake fetch: answer(url, init) returns a response-like object or throws. */
function fakeFetch(answer) {
  const calls = [];
  const fetchImpl = async (url, init = {}) => {
    calls.push(init.mode ?? 'cors');
    return answer(url, init);
  };
  return { fetchImpl, calls };
}

test('diagnoseFetch: http, cors, unreachable, file and ok told apart', async () => {
  const url = 'https://host.example/wasm/attnlab.wasm';
  const page = { pageProtocol: 'https:' };
  let f = fakeFetch(() => ({ ok: false, status: 404 }));
  assert.deepEqual(await diagnoseFetch(url, { ...page, fetchImpl: f.fetchImpl }), {
    kind: 'http',
    url,
    status: 404,
  });
  assert.deepEqual(f.calls, ['cors']);

  f = fakeFetch((u, init) => {
    if (init.mode !== 'no-cors') throw new TypeError('Failed to fetch');
    return { ok: false, status: 0, type: 'opaque' };
  });
  assert.deepEqual(await diagnoseFetch(url, { ...page, fetchImpl: f.fetchImpl }), {
    kind: 'cors',
    url,
    status: 0,
  });
  assert.deepEqual(f.calls, ['cors', 'no-cors']);

  f = fakeFetch(() => {
    throw new TypeError('Failed to fetch');
  });
  assert.deepEqual(await diagnoseFetch(url, { ...page, fetchImpl: f.fetchImpl }), {
    kind: 'unreachable',
    url,
    status: 0,
  });

  f = fakeFetch(() => assert.fail('a file:// page fetches nothing'));
  assert.deepEqual(await diagnoseFetch(url, { pageProtocol: 'file:', fetchImpl: f.fetchImpl }), {
    kind: 'file',
    url,
    status: 0,
  });
  assert.equal(
    (await diagnoseFetch('file:///x/attnlab.wasm', { ...page, fetchImpl: f.fetchImpl })).kind,
    'file',
  );

  f = fakeFetch(() => ({ ok: true, status: 200 }));
  assert.equal((await diagnoseFetch(url, { ...page, fetchImpl: f.fetchImpl })).kind, 'ok');
});

test('fetchProblem: what failed, why, the fix; a 404 names the file missing, another status the log', () => {
  const url = 'https://host.example/web/models/dates-dot.safetensors';
  for (const lang of LANGUAGES) {
    assert.equal(
      fetchProblem(lang, 'model', { kind: 'http', url, status: 404 }, { name: 'dates-dot' }),
      sentences(lang, [
        t(lang, 'load.model', { name: 'dates-dot' }),
        t(lang, 'load.http', { url, status: 404 }),
        t(lang, 'load.missing.model'),
      ]),
    );
    assert.equal(
      fetchProblem(lang, 'wasm', { kind: 'http', url, status: 500 }),
      sentences(lang, [
        t(lang, 'load.wasm'),
        t(lang, 'load.http', { url, status: 500 }),
        t(lang, 'load.http.other'),
      ]),
    );
    for (const kind of ['cors', 'unreachable', 'file']) {
      assert.equal(
        fetchProblem(lang, 'wasm', { kind, url, status: 0 }),
        sentences(lang, [t(lang, 'load.wasm'), t(lang, `load.${kind}`, { url })]),
      );
    }
  }
  assert.equal(sentences('en', ['A.', 'B.']), 'A. B.');
  assert.equal(sentences('zh', ['甲。', '乙。']), '甲。乙。');
  // The English sentence for a missing model still says what to do, as the page always did.
  assert.match(
    fetchProblem('en', 'model', { kind: 'http', url, status: 404 }, { name: 'dates-dot' }),
    /^Model dates-dot is not available: .* answered HTTP 404\. .*pick another model\.$/,
  );
});
