// i18n-walk.test.js: no untranslated text. Walks every view of the page (the SDPA playground and
// the lab included), the embed page, a model card and a model file's inspector in Chinese,
// collects what a reader or a screen reader gets (visible text nodes, through shadow roots and
// opened <details>, the options of visible pickers, the title, aria-label, aria-description,
// placeholder and alt attributes of visible elements, and the document's title) and fails on any
// run of Latin letters that is not allow-listed below; then walks the English page and fails on
// any Chinese text.
//
// Deliberately hard-codes no interface string: it reads the page, so a string added anywhere
// (another view state, another export) is checked as soon as it shows. What it lets through is
// data, never interface text, and each kind is named where it is defined: DATA_SELECTOR (markup
// that says "not prose": code, model output, translate="no"), dataWords() (the tokens the page
// itself shows: the input, the heatmaps' row and column labels, the pickers' values, the model's
// class labels) and ALLOWED (names, acronyms, formula symbols and key caps that a Chinese
// sentence writes in Latin letters, as the zh table of web/shared/i18n.js does).
//
// Screenshots of every view (model card open) in zh and en at 1280 and 390 px go to
// tests/browser/screenshots/ (walk-<lang>-<view>-<device>.png).

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { MAX_INPUT, PAGE_VIEWS, VIEWS } from '../../web/shared/app-state.js';
import { examplesFor } from '../../web/shared/examples.js';
import { t } from '../../web/shared/i18n.js';
import { cardSummary } from '../../web/shared/model-card.js';
import { ALL_MODELS, cardUrl, findModel } from '../../web/shared/models.js';
import { REPO_ROOT, screenshot, startBrowser } from './harness.js';

/**
 * Subtrees whose text is data, not interface prose, skipped whole: <code>, <kbd>, <samp> (code,
 * keys, sample output); <var> (formula symbols: n, m, d); translate="no" (HTML's own mark for
 * "do not translate": the card's example inputs, its code fields); .output (the views' class for
 * what a model wrote: its output, the normalised input it read, the predicted label). An element
 * in a skipped subtree may repeat its data in its aria-label: that text is removed from the label
 * and the rest is checked (forgetting: "<output>; 全部字符正确").
 */
const DATA_SELECTOR = 'code, kbd, samp, var, [translate="no"], .output';

/**
 * Latin words a Chinese sentence of this page may hold, by kind (the zh table writes them so):
 * - this project and the formats, standards and platform names it names: attnlab, WebAssembly,
 *   SDPA, JSON … (digits make a run an identifier anyway: SIMD128, int8, float32);
 * - model families named by their acronyms or as in the papers: LSTM, RNN, Transformer …;
 *   Brown (the corpus), Adam (the optimiser);
 * - model families named by their acronyms as in the papers: HAN (Yang et al. 2016), local-p
 *   (Luong et al. 2015's predictive local attention, the name the model list shows);
 * - authors cited: Bahdanau, Luong, Vaswani, Shaw, Zhou, Yang, Lin, Cheng, Dong, Lapata, Linzen,
 *   and the lesson's Sutskever, Vinyals, Le (2014) and Cho (2014);
 * - functions in formulas: softmax, exp, max, ln, tanh, clip, score (the lab's Luong equation);
 *   the AAᵀ of the penalty;
 * - key caps (Home, End, Page Up, Page Down, Enter, Tab);
 * - web platform names in the load errors: http, iframe, Access-Control-Allow-Origin, Worker,
 *   File, Blob; and the contractions the hint says are split off as tokens (n’t, ’s).
 */
const ALLOWED = new Set([
  'attnlab',
  'WebAssembly',
  'SDPA',
  'JSON',
  'CSV',
  'PNG',
  'SVG',
  'HTTP',
  'CORS',
  'URL',
  'API',
  'ISO',
  'CPU',
  'KB',
  'MB',
  'LSTM',
  'LSTMN',
  'RNN',
  'GRU',
  'Transformer',
  'BLEU',
  'AER',
  'Brown',
  'Adam',
  'HAN',
  'local-p',
  'Bahdanau',
  'Luong',
  'Vaswani',
  'Shaw',
  'Zhou',
  'Yang',
  'Lin',
  'Cheng',
  'Dong',
  'Lapata',
  'Linzen',
  'Sutskever',
  'Vinyals',
  'Le',
  'Cho',
  'softmax',
  'exp',
  'max',
  'ln',
  'tanh',
  'clip',
  'score',
  'AA',
  'Home',
  'End',
  'Page',
  'Up',
  'Down',
  'Enter',
  'Tab',
  'http',
  'iframe',
  'Access-Control-Allow-Origin',
  'Worker',
  'File',
  'Blob',
  'n’t',
  '’s',
]);

/** Chinese characters and full-width punctuation: none may show on the English page. */
const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]/;

/**
 * Strip what is code by its shape before looking for words: commands (make models, node
 * scripts/serve.mjs), URLs, paths and dotted names (web/embed.js, .safetensors,
 * __metadata__.config), camelCase API names (modelFile, revokeObjectURL), special tokens (<unk>),
 * attribute settings as written in a link (layer=0 head=0, step=11) and what a Chinese sentence
 * quotes (“fbi”: a token, an output).
 */
function stripCode(text) {
  return text
    .replace(/\b(?:make|node|npm) [\w./-]+/g, ' ')
    .replace(/\b[a-z]+:\/\/\S*/g, ' ')
    .replace(/[\w$-]*[./_][\w$./-]*/g, ' ')
    .replace(/\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*/g, ' ')
    .replace(/<\/?[\w-]+>/g, ' ')
    .replace(/\b[a-z]+=\d+\b/g, ' ')
    .replace(/“[^”]*”/g, ' ');
}

/** The Latin runs of text that are neither allowed nor data: [] when it is all Chinese. */
function untranslated(text, data) {
  const out = [];
  for (const [word] of stripCode(text).matchAll(/[A-Za-z’'][A-Za-z0-9’'-]*/g)) {
    const w = word.replace(/^[-']+|[-']+$/g, '');
    if ((w.match(/[A-Za-z]/g) ?? []).length < 2) continue; // a formula symbol: n, m, d, q, A, B, s_t
    if (/\d/.test(w) || ALLOWED.has(w)) continue; // an identifier (SIMD128, attractors0) or allowed
    if (data.has(w.toLowerCase())) continue;
    out.push(w);
  }
  return out;
}

/**
 * Strings that are data wherever they show, removed whole before looking for words, longest
 * first: every model name of the registry (dates-local-p, tf-induction) and every input of the
 * Examples menus (examples.js, with the cards' examples: what the model reads), filled in before().
 */
let dataStrings = [];

/**
 * What a reader or screen reader of root's document gets: [{ where, text, data? }]. Opens every
 * <details> first. data: text of a skipped element, to remove from its own label.
 */
function collectIn(selector) {
  const out = [];
  const skip = (el) => el.matches(selector);
  const visible = (el) => el.checkVisibility?.() ?? true;
  const ATTRS = ['title', 'aria-label', 'aria-description', 'placeholder', 'alt'];
  const otherLang = (el) =>
    el.tagName === 'OPTION' &&
    el.hasAttribute('lang') &&
    el.lang.split('-')[0] !== document.documentElement.lang.split('-')[0];
  const where = (el) =>
    `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}`;
  const walk = (root, skipped) => {
    for (const d of root.querySelectorAll('details')) d.open = true;
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) walk(el.shadowRoot, false);
      const dataEl = skipped || !!el.closest(selector) || skip(el);
      if (['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT'].includes(el.tagName)) continue;
      const select = el.tagName === 'OPTION' ? el.closest('select') : null;
      const shown = select ? visible(select) : visible(el);
      if (!shown) continue;
      for (const a of ATTRS) {
        if (el.hasAttribute(a) && el.getAttribute(a).trim())
          out.push({
            where: `${where(el)}[${a}]`,
            text: el.getAttribute(a),
            data: dataEl ? el.textContent : '',
          });
      }
      if (dataEl || otherLang(el)) continue;
      for (const c of el.childNodes) {
        if (c.nodeType === Node.TEXT_NODE && c.data.trim())
          out.push({ where: where(el), text: c.data.trim() });
      }
    }
  };
  walk(document, false);
  out.push({ where: 'title', text: document.title });
  return out;
}

/**
 * The tokens the page shows as data, lower-cased: every input's value, every <option>'s value
 * (model names, example inputs), every <attn-heatmap>'s row and column labels (the model's tokens:
 * its input and output, the words it read), .output (what a model wrote), [data-word] (the reading view's next-word
 * candidates, the model's vocabulary), through shadow roots.
 */
function pageData() {
  const words = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) walk(el.shadowRoot);
      if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'OPTION')
        words.push(el.value);
      if (el.tagName === 'ATTN-HEATMAP' && el.data)
        words.push(...el.data.rowLabels, ...el.data.colLabels);
      if (el.dataset?.word) words.push(el.dataset.word);
      if (el.classList?.contains('output')) words.push(el.textContent); // what a model wrote
    }
  };
  walk(document);
  return words;
}

/** A set of the words in texts (and the class labels of the model cards: a classifier's vocabulary). */
function wordSet(texts) {
  const set = new Set();
  for (const text of texts)
    for (const [w] of String(text).matchAll(/[A-Za-z’'][A-Za-z0-9’'-]*/g))
      set.add(w.replace(/^[-']+|[-']+$/g, '').toLowerCase());
  return set;
}

const classLabels = [];
let browser;
let page;
let problems;
before(async () => {
  const strings = new Set(ALL_MODELS.map((m) => m.name));
  for (const m of ALL_MODELS) {
    const url = cardUrl(m);
    const card = url ? JSON.parse(await readFile(new URL(url), 'utf8')) : null;
    // The classifiers' labels (negative, positive), read from their cards: what the model predicts.
    if (m.family === 'classifier') classLabels.push(...(card?.architecture?.labels ?? []));
    for (const e of examplesFor(m.task, card && cardSummary(card), 'zh', MAX_INPUT))
      strings.add(e.input.trim()); // texts are read trimmed
  }
  dataStrings = [...strings].sort((a, b) => b.length - a.length);
  browser = await startBrowser();
  ({ page, problems } = await browser.newPage());
});
after(() => browser?.close());

/** The findings of frame (a page or a frame) in lang: [{ where, text, words }] with words the offending runs. */
async function check(frame, lang) {
  const [items, data] = await Promise.all([
    frame.evaluate(collectIn, DATA_SELECTOR),
    frame.evaluate(pageData),
  ]);
  const words = wordSet([...data, ...classLabels]);
  const bad = [];
  for (const { where, text, data: own } of items) {
    let rest = text;
    for (const name of dataStrings) rest = rest.split(name).join(' ');
    // a data element's label may repeat what it shows (forgetting: "<its output>; 全部字符正确")
    const shows = (own ?? '').replace(/\s+/g, '');
    if (shows) rest = rest.replace(/[A-Za-z]+/g, (w) => (shows.includes(w) ? ' ' : w));
    if (lang === 'zh') {
      const found = untranslated(rest, words);
      if (found.length) bad.push({ where, text, words: found });
    } else if (CJK.test(rest)) {
      bad.push({ where, text, words: rest.match(new RegExp(CJK.source, 'g')) });
    }
  }
  return { bad, count: items.length };
}

function report(label, { bad }) {
  return `${label}: ${bad.length} untranslated\n${bad
    .slice(0, 30)
    .map((b) => `  ${b.where}: ${JSON.stringify(b.text.slice(0, 160))} → ${b.words.join(', ')}`)
    .join('\n')}`;
}

/** Open the main page on hash and wait until its view is on screen (and a model view's card, when it shows one). */
async function openView(hash) {
  await page.goto(`${browser.url}/web/${hash}`);
  await page.waitForFunction(() => document.getElementById('app').dataset.state === 'ready', null, {
    timeout: 20000,
  });
  const view = new URLSearchParams(hash.slice(1)).get('view');
  await page.waitForFunction(
    () => document.getElementById('app').dataset.rendered === location.hash,
    null,
    { timeout: 20000 },
  );
  if (VIEWS.includes(view)) {
    // the card of the model shown (it loads after the first plot; the compare view shows none)
    await page.waitForFunction(
      () => {
        const demo = document.getElementById('demo');
        const host = demo.shadowRoot.querySelector('.card-host');
        const summary = host.querySelector('.model-card summary')?.textContent ?? '';
        return (
          host.hidden || host.querySelector('.note') || summary.includes(demo.getAttribute('model'))
        );
      },
      null,
      { timeout: 20000 },
    );
  }
}

// The views in their first state, and the states a person reaches from there (a model per
// family beyond the first, the time view mid-decode, a translation with its gold alignment).
const STATES = [
  ...PAGE_VIEWS.map((view) => `#view=${view}`),
  '#view=alignment&model=en-fr-additive&gold=1',
  '#view=compare&model=en-fr-additive&gold=1',
  '#view=alignment&model=dates-local-p',
  '#view=heads&model=tf-induction',
  '#view=heads&model=en-fr-transformer-relative&kind=encoder',
  '#view=time&model=en-fr-local-p&gold=1',
  '#view=pooling&model=clf-reviews-han',
  '#view=pooling&model=clf-reviews-structured',
  '#view=reading&model=lm-agreement-sarnn',
  '#view=reading&model=lm-agreement-lstm',
].filter((hash) => {
  const model = new URLSearchParams(hash.slice(1)).get('model');
  return model === null || findModel(model); // a registry without the trained models (OFFERED=tiny)
});

for (const lang of ['zh', 'en']) {
  test(`${lang}: every view and state of the page shows ${lang === 'zh' ? 'no untranslated English' : 'no Chinese'}`, async () => {
    const failures = [];
    let total = 0;
    for (const state of STATES) {
      await openView(`${state}&lang=${lang}`);
      const r = await check(page, lang);
      total += r.count;
      if (r.bad.length) failures.push(report(state, r));
    }
    assert.ok(total > 500, `the walk read the page (${total} texts)`);
    assert.deepEqual(failures, [], failures.join('\n'));
  });

  test(`${lang}: the views after interaction (time steps, playground readout and causal mask, training paused)`, async () => {
    const failures = [];
    const run = async (label) => {
      const r = await check(page, lang);
      if (r.bad.length) failures.push(report(label, r));
    };
    await openView(`#view=time&lang=${lang}`);
    const demo = page.locator('#demo');
    const step = demo.locator('button[data-action="step"]:not([disabled]):visible');
    await step.click();
    await step.click();
    const progress = t(lang, 'time.progress', { step: 2 }).split('{token}')[0]; // the token is the model's
    await page.waitForFunction(
      (text) => document.getElementById('demo').shadowRoot.textContent.includes(text),
      progress,
    );
    await run('time, two steps');

    await openView(`#view=playground&lang=${lang}`);
    await page.locator('#causal').check();
    await page.locator('#heatmap').focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(
      (prompt) => document.getElementById('readout').textContent !== prompt,
      t(lang, 'sdpa.readoutPrompt'),
    );
    await run('playground, a cell read, causal');

    await openView(`#view=train&lang=${lang}`); // the old Train link: the lab's dates preset
    await page.evaluate(async () => {
      const lab = document.querySelector('attn-lab');
      await lab.whenReady();
      await lab.start();
      await lab.whenSteps(1);
      await lab.pause();
    });
    await run('the lab on the dates preset, paused');
    assert.deepEqual(failures, [], failures.join('\n'));
  });

  test(`${lang}: edge states: an empty input, unknown characters, a long input, a missing model, no WebAssembly`, async () => {
    const failures = [];
    const run = async (p, label) => {
      const r = await check(p, lang);
      if (r.bad.length) failures.push(report(label, r));
    };
    await openView(`#view=alignment&lang=${lang}`);
    const input = page.locator('#demo input#input');
    for (const [text, label] of [
      ['', 'empty input'],
      ['22 Nov 2026 ☃ ✓', 'unknown characters'],
      ['1'.repeat(MAX_INPUT), 'a long input'],
    ]) {
      await input.fill(text);
      await page
        .waitForFunction(
          (v) =>
            document.getElementById('demo').getAttribute('input') === v ||
            new URLSearchParams(location.hash.slice(1)).get('input') === v,
          text,
          { timeout: 5000 },
        )
        .catch(() => {});
      await page.waitForTimeout(500); // the view redraws on the next frame
      await run(page, label);
    }
    // its own pages: the 404s are the point, not problems of the walk's page
    const { page: missing } = await browser.newPage();
    await missing.route('**/web/models/dates-dot.safetensors', (route) =>
      route.fulfill({ status: 404, body: 'not here' }),
    );
    await missing.goto(`${browser.url}/web/#view=alignment&model=dates-dot&lang=${lang}`);
    await missing.waitForFunction(
      () => {
        const e = document.getElementById('demo')?.shadowRoot?.querySelector('.demo-error');
        return e && !e.hidden && e.textContent;
      },
      null,
      { timeout: 20000 },
    );
    await run(missing, 'a missing model');
    await missing.close();
    const { page: noWasm } = await browser.newPage();
    await noWasm.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'not here' }));
    await noWasm.goto(`${browser.url}/web/#view=alignment&lang=${lang}`);
    await noWasm.waitForFunction(
      () => document.getElementById('app').dataset.state === 'error',
      null,
      { timeout: 20000 },
    );
    await run(noWasm, 'no WebAssembly');
    await noWasm.close();
    assert.deepEqual(failures, [], failures.join('\n'));
  });

  test(`${lang}: the embed page, every model view`, async () => {
    const failures = [];
    for (const view of VIEWS) {
      await page.goto(`${browser.url}/web/embed.html?view=${view}&lang=${lang}`);
      await page.waitForFunction(() => document.getElementById('app').dataset.rendered, null, {
        timeout: 20000,
      });
      assert.equal(await page.title(), t(lang, 'page.embedTitle'));
      const r = await check(page, lang);
      if (r.bad.length) failures.push(report(`embed ${view}`, r));
      await screenshot(page, `walk-${lang}-embed-${view}`);
    }
    assert.deepEqual(failures, [], failures.join('\n'));
  });

  test(`${lang}: a model file no view draws, with its inspector`, async () => {
    await openView(`#view=alignment&lang=${lang}`);
    const rel = 'tests/fixtures/memory_rnn_clf_lstmn.safetensors';
    const name = path.basename(rel);
    await page
      .locator('#demo input[type="file"]')
      .setInputFiles({ name, mimeType: '', buffer: await readFile(path.join(REPO_ROOT, rel)) });
    await page.waitForFunction(
      () => {
        const host = document.getElementById('demo').shadowRoot.querySelector('.inspector-host');
        return host && !host.hidden && host.textContent.length > 0;
      },
      null,
      { timeout: 20000 },
    );
    const r = await check(page, lang);
    assert.ok(r.count > 20, `the walk read the inspector (${r.count} texts)`);
    assert.deepEqual(r.bad, [], report('inspector', r));
  });
}

test('the walk would notice an English string and an English attribute', async () => {
  await openView('#view=alignment&lang=zh');
  await page.evaluate(() => {
    const p = document.createElement('p');
    p.textContent = '模型 Loading weights failed';
    document.getElementById('app').append(p);
    document.getElementById('demo').shadowRoot.append(
      Object.assign(document.createElement('button'), {
        textContent: '导出',
        title: 'Export picture as PNG',
      }),
    );
  });
  const { bad } = await check(page, 'zh');
  await page.reload(); // nothing injected stays for the next test
  assert.deepEqual(
    bad.map((b) => b.words),
    [
      ['Export', 'picture', 'as'],
      ['Loading', 'weights', 'failed'],
    ],
  ); // document order: #demo's shadow root first
});

test('screenshots of every view with its model card open, zh and en, desktop and phone', async () => {
  for (const [device, width] of [
    ['desktop', 1280],
    ['phone', 390],
  ]) {
    await page.setViewportSize({ width, height: 900 });
    for (const lang of ['zh', 'en']) {
      for (const view of PAGE_VIEWS) {
        await openView(`#view=${view}&lang=${lang}`);
        await page.evaluate(() =>
          document
            .getElementById('demo')
            .shadowRoot.querySelectorAll('.model-card')
            .forEach((d) => {
              d.open = true;
            }),
        );
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        assert.ok(
          overflow <= 0,
          `${view}, ${device}, ${lang}: the page scrolls sideways by ${overflow} px`,
        );
        await screenshot(page, `walk-${lang}-${view}-${device}`);
      }
    }
  }
  await page.setViewportSize({ width: 1024, height: 800 });
  assert.deepEqual(problems, []);
});
