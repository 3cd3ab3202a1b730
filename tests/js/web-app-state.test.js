// web-app-state.test.js: the model views' URL state (web/shared/app-state.js), the model registry's
// validation (web/shared/models.js) and the interface strings (web/shared/i18n.js), in Node.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MAX_INPUT,
  MAX_LAB_PARAMS,
  PAGE_VIEWS,
  MODEL_DEFAULTS,
  cleanInput,
  formatModelParams,
  formatPageHash,
  parseModelParams,
  parsePageHash,
  readAttribute,
  refusedNotice,
} from '../../web/shared/app-state.js';
import { LANGUAGES, keys, resolveLang, t } from '../../web/shared/i18n.js';
import '../../web/shared/lesson-text.js'; // the lesson's strings, added to the tables as the lesson adds them
import {
  DEFAULT_MODEL,
  MODELS,
  OFFERED,
  ModelUnavailableError,
  fetchModel,
  findModel,
  resolveModel,
  sampleInput,
} from '../../web/shared/models.js';
import { DEFAULTS as PLAYGROUND_DEFAULTS } from '../../web/shared/state.js';

const ORIGIN = 'http://127.0.0.1:8080';

test('a canonical query round-trips', () => {
  const state = {
    ...MODEL_DEFAULTS,
    view: 'time',
    model: MODELS[1].name,
    input: '22 Nov 2026 <b>&',
    layer: 0,
    head: 0,
    lang: 'zh',
    hide: ['views', 'picker'],
    seed: 7,
    a: MODELS[0].name,
    b: MODELS[2].name,
  };
  const q = formatModelParams(state);
  assert.match(q, /input=22%20Nov%202026%20%3Cb%3E%26/);
  const back = parseModelParams(q, ORIGIN);
  assert.deepEqual(
    { ...back, refused: undefined, inputCut: undefined },
    { ...state, refused: undefined, inputCut: undefined },
  );
  assert.equal(back.inputCut, 0, 'an input that fits is not cut');
  assert.deepEqual(back.refused, []);
});

test('gold: 1 or 0 in the URL and the attribute, absent when off, anything else refused', () => {
  const on = parsePageHash(
    '#view=alignment&model=en-fr-additive&input=she%20sees%20him%20.&gold=1',
    ORIGIN,
  );
  assert.equal(on.gold, true);
  assert.deepEqual(on.refused, []);
  assert.match(formatPageHash(on), /&gold=1$/);
  assert.equal(on.model, 'en-fr-additive', 'a translation model opens the alignment view');
  assert.equal(parsePageHash('#view=alignment&gold=0', ORIGIN).gold, false);
  assert.doesNotMatch(formatPageHash(parsePageHash('#view=alignment&gold=0', ORIGIN)), /gold/);
  for (const bad of ['true', 'yes', '2', '', '<b>']) {
    const s = parsePageHash(`#view=alignment&gold=${encodeURIComponent(bad)}`, ORIGIN);
    assert.equal(s.gold, false, bad);
    assert.deepEqual(s.refused, ['gold'], bad);
  }
  assert.deepEqual(readAttribute('gold', '1', ORIGIN, 'en'), { value: true, refused: false });
  assert.deepEqual(readAttribute('gold', null, ORIGIN, 'en'), { value: false, refused: false });
  assert.deepEqual(readAttribute('gold', 'on', ORIGIN, 'en'), { value: false, refused: true });
  assert.equal(
    parsePageHash('#view=heads&model=en-fr-transformer-absolute&gold=1', ORIGIN).model,
    'en-fr-transformer-absolute',
  );
});

test('defaults for an empty query; unknown keys ignored', () => {
  const s = parseModelParams('', ORIGIN);
  assert.equal(s.model, DEFAULT_MODEL);
  assert.equal(s.view, 'alignment');
  assert.deepEqual(s.refused, []);
  assert.deepEqual(parseModelParams('?foo=1&bar', ORIGIN).refused, []);
});

test('hostile values are refused or clamped, never thrown', () => {
  const q = new URLSearchParams({
    model: 'https://evil.example/m.safetensors',
    view: '<img src=x onerror=alert(1)>',
    layer: '-1',
    head: '1e9',
    lang: 'xx',
    seed: 'NaN',
    input: 'a\u0000b\u202e' + 'x'.repeat(500),
    a: 'javascript:alert(1)',
    hide: 'views,<script>,picker',
  });
  const s = parseModelParams(q, ORIGIN);
  assert.equal(s.model, DEFAULT_MODEL);
  assert.equal(s.view, 'alignment');
  assert.equal(s.layer, 0);
  assert.equal(s.head, 0);
  assert.equal(s.lang, 'en');
  assert.equal(s.seed, null);
  assert.equal(s.a, null);
  assert.deepEqual(s.hide, ['views', 'picker']);
  assert.equal(Array.from(s.input).length, MAX_INPUT);
  assert.ok(s.input.startsWith('ab\u202e'));
  assert.deepEqual(s.refused.sort(), [
    'a',
    'head',
    'hide=<script>',
    'lang',
    'layer',
    'model',
    'seed',
    'view',
  ]);
  assert.equal(parseModelParams('layer=99', ORIGIN).layer, 15); // clamped
  assert.equal(parseModelParams('layer=NaN&head=Infinity', ORIGIN).layer, 0);
  for (const junk of [null, undefined, 42, {}, '%E0%A4%A', '?'.repeat(10000)])
    assert.doesNotThrow(() => parseModelParams(junk, ORIGIN));
});

test('unknown hide flags are refused by name; the known ones still apply', () => {
  const s = parseModelParams('hide=picker,nonsense%20views,,foo,nonsense', ORIGIN);
  assert.deepEqual(s.hide, ['views', 'picker']);
  assert.deepEqual(s.refused, ['hide=nonsense', 'hide=foo']);
  assert.deepEqual(parseModelParams('hide=picker,card', ORIGIN).refused, []);
  // A long flag is shortened for the notice, and a flood of them is summed up, not listed.
  const long = parseModelParams(`hide=${'x'.repeat(100)}`, ORIGIN).refused;
  assert.deepEqual(long, [`hide=${'x'.repeat(23)}…`]);
  const flood = parseModelParams(
    `hide=${Array.from({ length: 50 }, (_, i) => `f${i}`).join(',')}`,
    ORIGIN,
  ).refused;
  assert.deepEqual(flood, ['hide=f0', 'hide=f1', 'hide=f2', 'hide=f3', 'hide=…']);
});

test('over-long values are refused one by one, never silently dropped', () => {
  const long = 'x'.repeat(5000);
  for (const k of ['model', 'a', 'b', 'hide', 'input', 'view', 'lang']) {
    const s = parseModelParams(`${k}=${long}`, ORIGIN);
    assert.deepEqual(s.refused, [k], k);
  }
});

test('a hash over 4,096 characters keeps its valid parameters and reports the refused ones', () => {
  const hash = `#view=time&model=dates-dot&bogus=1&hide=picker,nonsense&layer=1&lang=zh&input=${'9'.repeat(5000)}`;
  assert.ok(hash.length > 4096);
  const s = parsePageHash(hash, ORIGIN);
  assert.equal(s.view, 'time');
  assert.equal(s.model, 'dates-dot');
  assert.equal(s.layer, 1);
  assert.equal(s.lang, 'zh');
  assert.equal(s.input, parsePageHash('#view=time&model=dates-dot', ORIGIN).input); // the model's sample
  assert.deepEqual(s.refused, ['input', 'hide=nonsense']);
  // The playground's keys survive a long hash too (state.js alone ignores hashes over 1,024).
  const pg = parsePageHash(`#view=playground&n=5&m=7&junk=${'z'.repeat(5000)}`, ORIGIN);
  assert.equal(pg.view, 'playground');
  assert.deepEqual([pg.playground.n, pg.playground.m], [5, 7]);
  assert.deepEqual(pg.refused, []);
});

test('refusedNotice: one translated sentence for both pages, empty when nothing was refused', () => {
  assert.equal(refusedNotice([], 'en'), '');
  assert.equal(refusedNotice(['step'], 'en'), 'Ignored invalid parameters: step');
  assert.equal(
    refusedNotice(['input', 'hide=nonsense'], 'en'),
    'Ignored invalid parameters: input, hide=nonsense',
  );
  assert.equal(
    refusedNotice(['input', 'hide=nonsense'], 'zh'),
    '已忽略无效参数：input, hide=nonsense',
  );
  assert.equal(refusedNotice(['<b>x</b>'], 'en'), 'Ignored invalid parameters: <b>x</b>'); // text, for textContent
});

test("a link's input longer than the box takes is cut to MAX_INPUT and said so, on both pages, in both languages", () => {
  const long = 'abcdefghij'.repeat(7) + '😀'; // 71 code points, one of them outside the BMP
  for (const parse of [(q) => parseModelParams(q, ORIGIN), (q) => parsePageHash(`#${q}`, ORIGIN)]) {
    const s = parse(
      new URLSearchParams({ view: 'alignment', model: DEFAULT_MODEL, input: long }).toString(),
    );
    assert.equal(s.input, long.slice(0, MAX_INPUT));
    assert.equal(s.inputCut, 71);
    assert.deepEqual(s.refused, []);
    assert.equal(
      refusedNotice(s.refused, 'en', s.inputCut),
      t('en', 'url.inputCut', { n: 71, max: MAX_INPUT }),
    );
    assert.match(refusedNotice(s.refused, 'zh', s.inputCut), /71 个字符/);
    // exactly MAX_INPUT code points (control characters do not count): nothing to say
    const fits = parse(new URLSearchParams({ input: `${'x'.repeat(MAX_INPUT)}\u0007` }).toString());
    assert.equal(fits.inputCut, 0);
    assert.equal(refusedNotice(fits.refused, 'en', fits.inputCut), '');
  }
  // with refused parameters too: both sentences, the refused first
  assert.equal(
    refusedNotice(['step'], 'en', 80),
    `Ignored invalid parameters: step ${t('en', 'url.inputCut', { n: 80, max: MAX_INPUT })}`,
  );
  for (const junk of [NaN, -1, 3.5, '99', null, MAX_INPUT])
    assert.equal(refusedNotice([], 'en', junk), '', String(junk));
});

test('models: registry names and same-origin .safetensors paths only', () => {
  assert.equal(resolveModel(DEFAULT_MODEL, ORIGIN).name, DEFAULT_MODEL);
  assert.equal(resolveModel('dates-additive', ORIGIN).name, 'dates-additive');
  const p = resolveModel('/tests/fixtures/model_lstm_none.safetensors', ORIGIN);
  assert.equal(p.file, `${ORIGIN}/tests/fixtures/model_lstm_none.safetensors`);
  for (const bad of [
    'https://evil.example/m.safetensors',
    '//evil.example/m.safetensors',
    'javascript:alert(1)',
    'data:application/octet-stream;base64,AAAA',
    '/../etc/passwd.safetensors',
    '/a/./b.safetensors',
    '/x.safetensors?y=1',
    '/x.js',
    '/a\\b.safetensors',
    'no-such-model',
    '',
    null,
    42,
    '/x\u0000.safetensors',
    `/${'a'.repeat(300)}.safetensors`,
  ]) {
    assert.equal(resolveModel(bad, ORIGIN), null, String(bad));
  }
  assert.equal(findModel('nope'), null);
});

test('fetchModel: a 404 becomes ModelUnavailableError, naming the URL', async () => {
  const entry = findModel('dates-additive');
  const fetchImpl = async () => ({ ok: false, status: 404 });
  await assert.rejects(
    fetchModel(entry, () => assert.fail('not loaded'), {
      fetchImpl,
      base: `${ORIGIN}/web/models.js`,
    }),
    (err) => {
      assert.ok(err instanceof ModelUnavailableError);
      assert.equal(err.status, 404);
      assert.equal(err.url, `${ORIGIN}/web/models/dates-additive.safetensors`);
      return true;
    },
  );
});

test('the page hash: model views and the playground (old links still open it)', () => {
  const s = parsePageHash('#view=compare&model=' + DEFAULT_MODEL + '&input=abc&lang=zh', ORIGIN);
  assert.equal(s.view, 'compare');
  assert.equal(s.lang, 'zh');
  assert.equal(
    formatPageHash(s),
    `#view=compare&model=${DEFAULT_MODEL}&input=abc&layer=0&head=0&lang=zh`,
  );
  const old = parsePageHash('#n=5&m=7&d=4&seed=42&causal=1&scale=0.5', ORIGIN);
  assert.equal(old.view, 'playground');
  assert.deepEqual(old.playground, { n: 5, m: 7, d: 4, seed: 42, causal: true, scale: 0.5 });
  assert.equal(
    formatPageHash(old),
    '#view=playground&n=5&m=7&d=4&seed=42&causal=1&scale=0.5&lang=en',
  );
  assert.deepEqual(parsePageHash('', ORIGIN).playground, { ...PLAYGROUND_DEFAULTS });
  assert.equal(parsePageHash('', ORIGIN).view, 'alignment');
});

test('cleanInput and sampleInput', () => {
  assert.equal(cleanInput('a\tb\nc'), 'abc');
  assert.equal(cleanInput(5), null);
  assert.equal(Array.from(cleanInput('😀'.repeat(100))).length, MAX_INPUT); // by code point
  assert.equal(sampleInput(7), sampleInput(7));
  assert.match(sampleInput(7), OFFERED === 'dates' ? /\d/ : /^[a-k]{4,9}$/);
});

test('i18n: every key in every language; placeholders; no markup', () => {
  const en = keys('en');
  for (const lang of LANGUAGES) {
    assert.deepEqual(keys(lang).sort(), [...en].sort(), `${lang} has the same keys as en`);
    for (const k of en) assert.doesNotMatch(t(lang, k), /<[a-z]/i, `${lang} ${k} holds no markup`);
  }
  assert.equal(t('zh', 'view.alignment'), '对齐');
  assert.equal(
    t('en', 'status.ran', { rows: 3, cols: 4, ms: '1.0' }),
    '3 output × 4 input tokens in 1.0 ms.',
  );
  assert.equal(t('en', 'status.ran', { rows: '<b>' }).includes('<b>'), true); // substituted as text
  assert.equal(resolveLang('zh-CN'), 'zh');
  assert.equal(resolveLang('fr'), 'en');
  assert.equal(resolveLang(null), 'en');
});

test("the lab's hash: its own keys kept raw for spec.js (step, b, seed are its own), lang read, the canonical form round-trips", async () => {
  const { DEFAULT_EXPERIMENT, formatLabParams, parseLabParams } = await import(
    '../../web/lab/spec.js'
  );
  const params = formatLabParams(DEFAULT_EXPERIMENT).toString();
  const p = parsePageHash(`#view=lab&${params}&lang=zh`, ORIGIN);
  assert.equal(p.view, 'lab');
  assert.equal(p.lang, 'zh');
  assert.equal(p.lab, params);
  assert.deepEqual(p.refused, []);
  assert.equal(formatPageHash(p), `#view=lab&${params}&lang=zh`);
  assert.deepEqual(
    parseLabParams(new URLSearchParams(p.lab)).experiment,
    parseLabParams(new URLSearchParams(params)).experiment,
  );
  // keys the model views read mean other things in the lab: not refused here
  const q = parsePageHash('#view=lab&step=banana&b=off&seed=-1&lang=en', ORIGIN);
  assert.deepEqual(q.refused, []);
  assert.equal(q.lab, 'step=banana&b=off&seed=-1');
  // a bad language is still named; an over-long lab part is refused whole
  assert.deepEqual(parsePageHash('#view=lab&lang=xx', ORIGIN).refused, ['lang']);
  const long = parsePageHash(`#view=lab&task=${'x'.repeat(MAX_LAB_PARAMS)}&lang=en`, ORIGIN);
  assert.equal(long.lab, '');
  assert.ok(long.refused.includes('lab=too long'));
  assert.ok(PAGE_VIEWS.includes('lab'));
});
