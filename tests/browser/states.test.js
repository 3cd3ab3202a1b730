// states.test.js: every state of the model views drawn on purpose (issue 18), in Chromium, in
// English and Chinese.
//
// Checks, each in both languages: an empty input and an input the model cannot run show their
// message alone (the view hidden: no map, output, words, "word n of n", perplexity, status or
// export button of the input before; the domain notes about "the output below" gone), and the next
// input draws again; the heads view states its model's real limit (config maxPositions, from the
// model file run here in Node) in the hint and says plainly when an input exceeds it, and no other
// view's model claims a limit it lacks; a model loading shows "Loading…" alone, a model that
// failed its message alone; a model without attention gets a panel, not a map of zeros, in the
// alignment, over-time and compare views; "over time" opens on the whole output and mentions the
// local-p window only for local models; Reset empties it and hides its export buttons; counts
// use plural forms ("1 word, 1 row of weights"); the build is said once, by the page; the heads
// view shows 1-based layer and head and names the 0-based attributes; "Link to this view" copies
// the URL (and, when the clipboard is refused, shows it selected in a field); the Lab tab
// carries a badge while training runs in another view (#view=train, the old Train view's link,
// opens the lab on its dates preset); the heads grid starts at the left; the pooling probabilities fit a 390 px phone.
// Screenshots (desktop 1280 px and phone 390 px, en and zh) go to tests/browser/screenshots/.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { init, loadModel } from '../../wasm/index.js';
import { MODEL_DEFAULTS, formatModelParams } from '../../web/shared/app-state.js';
import { plural, t } from '../../web/shared/i18n.js';
import { defaultModelFor, findModel, modelUrl, sampleFor } from '../../web/shared/models.js';
import { screenshot, startBrowser } from './harness.js';

const LANGS = ['en', 'zh'];
let browser;
let page;
let problems;
const nodeModels = new Map();

before(async () => {
  await init();
  browser = await startBrowser();
  ({ page, problems } = await browser.newPage());
});
after(async () => {
  for (const m of nodeModels.values()) m.dispose();
  await browser?.close();
});

/** The model `name`, loaded once in Node. */
async function nodeModel(name) {
  if (!nodeModels.has(name))
    nodeModels.set(
      name,
      await loadModel(new Uint8Array(await readFile(new URL(modelUrl(findModel(name)))))),
    );
  return nodeModels.get(name);
}

const stateKey = (s) => formatModelParams({ ...MODEL_DEFAULTS, ...s, hide: [], seed: null });

async function waitKey(p, key) {
  await p.waitForFunction((k) => document.querySelector('#demo')?.dataset.rendered === k, key, {
    timeout: 20000,
  });
}

/** Open the page on s (a model view state) and wait for it to draw. */
async function open(s, p = page) {
  const key = stateKey(s);
  await p.goto(`${browser.url}/web/#${key}`);
  await waitKey(p, key);
}

/** Type input into the demo's field and wait for the view of that input. */
async function type(s, input, p = page) {
  await p.locator('#demo input#input').fill(input);
  await waitKey(p, stateKey({ ...s, input }));
}

/** What <attn-demo> shows: its error, status and hint, whether the view is on screen, the
 * visible export buttons, the domain notes under the input, and the page's text with the build. */
function shown(p = page) {
  return p.locator('#demo').evaluate((el) => {
    const r = el.shadowRoot;
    const visible = (n) => Boolean(n) && n.getClientRects().length > 0;
    const view = el.state.view;
    const section = r.querySelector(`section[data-view="${view}"]`);
    const exports = [...r.querySelectorAll('button[data-action^="download"], attn-heatmap')]
      .filter(visible)
      .flatMap((b) =>
        b.tagName === 'ATTN-HEATMAP'
          ? [...b.shadowRoot.querySelectorAll('.toolbar button')].filter(visible)
          : [b],
      );
    return {
      error: r.querySelector('.demo-error').hidden
        ? ''
        : r.querySelector('.demo-error').textContent,
      status: r.querySelector('.status').textContent,
      hint: r.querySelector('#hint').textContent,
      viewVisible: visible(section),
      exports: exports.length,
      notes: [...r.querySelectorAll('.input-notes p, .input-notes li, .domain-note, .unknown')]
        .filter(visible)
        .map((n) => n.textContent),
      text: section ? section.innerText : '',
    };
  });
}

test(
  'an empty input shows its message alone in every one-model view, and the next input draws again (en, zh)',
  { timeout: 120000 },
  async () => {
    for (const lang of LANGS) {
      for (const view of ['alignment', 'time', 'compare', 'heads', 'pooling', 'reading']) {
        const model = defaultModelFor(view);
        const s = {
          view,
          model,
          input: view === 'reading' ? 'The FBI is chasing a zebra.' : sampleFor(model),
          lang,
        };
        await open(s);
        const before = await shown();
        assert.equal(before.viewVisible, true, `${lang} ${view}: drawn`);
        assert.ok(before.exports > 0, `${lang} ${view}: something to export`);
        await type(s, '');
        const blank = await shown();
        assert.deepEqual(
          {
            error: blank.error,
            status: blank.status,
            viewVisible: blank.viewVisible,
            exports: blank.exports,
            notes: blank.notes,
          },
          { error: t(lang, 'input.empty'), status: '', viewVisible: false, exports: 0, notes: [] },
          `${lang} ${view}: the message alone`,
        );
        if (view === 'reading') await screenshot(page, `states-empty-reading-${lang}`);
        await type(s, s.input);
        const again = await shown();
        assert.equal(again.error, '', `${lang} ${view}: the message goes`);
        assert.equal(again.viewVisible, true, `${lang} ${view}: drawn again`);
      }
    }
  },
);

test('the reading view keeps nothing of the sentence before: words, unknown words, "word n of n", perplexity', async () => {
  const s = {
    view: 'reading',
    model: defaultModelFor('reading'),
    input: 'The FBI is chasing a zebra.',
    lang: 'en',
  };
  await open(s);
  const stale = (p) =>
    p.locator('#demo').evaluate((el) => {
      const r = el.shadowRoot;
      const visible = (n) => Boolean(n) && n.getClientRects().length > 0;
      return [
        '.rword',
        '.unknown-note',
        '.position',
        '.read-as',
        '.perplexity',
        '.least-expected',
        '.next-words li',
      ].filter((sel) => [...r.querySelectorAll(sel)].some(visible));
    });
  assert.ok(
    (await stale(page)).length >= 3,
    'a sentence read shows its words, position and unknown words',
  );
  await type(s, '');
  assert.deepEqual(await stale(page), []);
});

test("the heads view states its model's limit (config maxPositions) and says plainly when an input exceeds it (en, zh)", async () => {
  for (const lang of LANGS) {
    for (const name of ['tf-dates-absolute', 'tf-induction']) {
      const model = await nodeModel(name);
      const max = model.config.maxPositions;
      assert.ok(Number.isInteger(max), `${name} has learned positions`);
      const unit = t(lang, model.tokenizer.type === 'word' ? 'unit.word' : 'unit.char');
      const s = { view: 'heads', model: name, input: sampleFor(name), lang };
      await open(s);
      const limit = t(lang, 'input.limit', { name, max, unit });
      assert.ok((await shown()).hint.endsWith(limit), `${lang} ${name}: the hint says ${limit}`);
      // one token over the limit; tf-induction's 33 words need more than the input box's 64
      // characters, so only the hint can matter there
      const long =
        model.tokenizer.type === 'word'
          ? Array(max + 1)
              .fill('k')
              .join(' ')
          : '1'.repeat(max + 1);
      assert.equal(model.encode(long).length, max + 1);
      if (Array.from(long).length > 64) continue;
      await type(s, long);
      const v = await shown();
      assert.deepEqual(
        { error: v.error, viewVisible: v.viewVisible, exports: v.exports },
        {
          error: t(lang, 'input.tooLong', { name, max, unit, n: max + 1 }),
          viewVisible: false,
          exports: 0,
        },
        `${lang} ${name}`,
      );
      assert.doesNotMatch(v.error, /maxPositions|config/, 'no developer message');
      if (name === 'tf-dates-absolute') await screenshot(page, `states-too-long-${lang}`);
      const fits =
        model.tokenizer.type === 'word' ? Array(max).fill('k').join(' ') : '1'.repeat(max);
      await type(s, fits);
      assert.deepEqual(
        [(await shown()).error, (await shown()).viewVisible],
        ['', true],
        `${lang} ${name}: ${max} tokens draw`,
      );
    }
  }
});

test('no other view claims a limit its model lacks: the limit sentence only where config maxPositions is set', async () => {
  for (const view of ['alignment', 'time', 'heads', 'pooling', 'reading']) {
    for (const name of view === 'heads'
      ? ['tf-dates-relative', 'tf-dates-absolute']
      : [defaultModelFor(view)]) {
      const model = await nodeModel(name);
      await open({ view, model: name, input: sampleFor(name) });
      const hint = (await shown()).hint;
      const max = model.config.maxPositions;
      if (Number.isInteger(max))
        assert.match(hint, new RegExp(`at most ${max} `), `${view} ${name}`);
      else assert.doesNotMatch(hint, /reads at most/, `${view} ${name}: no position limit`);
      assert.match(hint, /^Up to 64 characters/, `${view} ${name}: the input box's own limit`);
    }
  }
});

test('a model loading shows "Loading…" alone; a model that failed, its message alone (en, zh)', async () => {
  for (const lang of LANGS) {
    const { page: p, problems: own } = await browser.newPage();
    let release;
    const held = new Promise((resolve) => {
      release = resolve;
    });
    await p.route('**/web/models/dates-dot.safetensors', async (route) => {
      await held;
      await route.continue();
    });
    await open({ view: 'alignment', model: 'dates-additive', input: '22 Nov 2026', lang }, p);
    await p.locator('#demo select#model').selectOption('dates-dot');
    await p.waitForFunction(
      (want) =>
        document.querySelector('#demo').shadowRoot.querySelector('.status').textContent === want,
      t(lang, 'model.loading', { name: 'dates-dot' }),
    );
    const loading = await shown(p);
    assert.deepEqual(
      { error: loading.error, viewVisible: loading.viewVisible },
      { error: '', viewVisible: false },
      `${lang}: the map of dates-additive is gone while dates-dot loads`,
    );
    release();
    await waitKey(
      p,
      stateKey({ view: 'alignment', model: 'dates-dot', input: '22 Nov 2026', lang }),
    );
    assert.equal((await shown(p)).viewVisible, true);
    // failed: a 404
    await p.route('**/web/models/dates-general.safetensors', (route) =>
      route.fulfill({ status: 404, body: 'not here' }),
    );
    await p.locator('#demo select#model').selectOption('dates-general');
    await waitKey(
      p,
      stateKey({ view: 'alignment', model: 'dates-general', input: '22 Nov 2026', lang }),
    );
    const failed = await shown(p);
    assert.ok(
      failed.error.includes('dates-general'),
      `${lang}: the message names the model: ${failed.error}`,
    );
    assert.deepEqual(
      { status: failed.status, viewVisible: failed.viewVisible, exports: failed.exports },
      { status: '', viewVisible: false, exports: 0 },
    );
    assert.deepEqual(
      own.filter((x) => !x.includes('dates-general') && !x.includes('status of 404')),
      [],
    );
    await p.close();
  }
});

test('a model without attention: a panel, not a map of zeros (alignment, over time, compare; en, zh)', async () => {
  for (const lang of LANGS) {
    const input = '22 Nov 2026';
    const output = (await nodeModel('dates-none')).run(input).output;
    for (const view of ['alignment', 'time']) {
      await open({ view, model: 'dates-none', input, lang });
      const v = await page.locator('#demo').evaluate((el, view) => {
        const section = el.shadowRoot.querySelector(`section[data-view="${view}"]`);
        const visible = (n) => Boolean(n) && n.getClientRects().length > 0;
        return {
          panel: visible(section.querySelector('.no-attention'))
            ? section.querySelector('.no-attention').textContent
            : null,
          map: visible(section.querySelector('attn-heatmap')),
          output: section.querySelector('output').textContent,
        };
      }, view);
      assert.deepEqual(
        v,
        { panel: t(lang, 'attention.none'), map: false, output },
        `${lang} ${view}`,
      );
    }
    await open({ view: 'compare', model: 'dates-additive', input, lang });
    const c = await page.locator('#demo').evaluate((el) => {
      const f = el.shadowRoot.querySelector('figure[data-model="dates-none"]');
      const g = el.shadowRoot.querySelector('figure[data-model="dates-additive"]');
      return {
        panel: f.querySelector('.no-attention')?.textContent,
        map: Boolean(f.querySelector('attn-heatmap')),
        output: f.querySelector('.output').textContent,
        other: Boolean(g.querySelector('attn-heatmap')),
      };
    });
    assert.deepEqual(
      c,
      { panel: t(lang, 'attention.none'), map: false, output, other: true },
      `${lang} compare`,
    );
    await screenshot(page, `states-compare-none-${lang}`);
  }
});

test('"over time" opens on the whole output, mentions the local-p window only for local models; Reset empties it (en, zh)', async () => {
  for (const lang of LANGS) {
    for (const name of ['dates-additive', 'dates-local-p']) {
      const model = await nodeModel(name);
      const r = model.run('22 Nov 2026');
      const T = r.attention[0].weights.shape[0];
      const s = { view: 'time', model: name, input: '22 Nov 2026', lang };
      await open(s);
      const v = await page.locator('#demo').evaluate((el) => {
        const sec = el.shadowRoot.querySelector('section[data-view="time"]');
        return {
          rows: sec.querySelector('attn-heatmap').data?.rows,
          intro: sec.querySelector('.time-intro').textContent,
          status: sec.querySelector('p[aria-live]').textContent,
          output: sec.querySelector('output').textContent,
        };
      });
      const local = model.config.attention === 'local-p';
      const sep = lang === 'zh' ? '' : ' ';
      assert.equal(v.rows, T, `${lang} ${name}: every row at once`);
      assert.equal(v.output, r.output);
      assert.equal(
        v.intro,
        local
          ? [t(lang, 'time.intro'), t(lang, 'time.introLocal')].join(sep)
          : t(lang, 'time.intro'),
        `${lang} ${name}: the window only for local-p`,
      );
      assert.ok(
        v.status.startsWith(t(lang, 'time.whole', { steps: plural(lang, 'count.steps', T) })),
        v.status,
      );
      if (local) await screenshot(page, `states-time-local-${lang}`);
      await page.locator('#demo button[data-action="reset"]').click();
      await waitKey(page, stateKey({ ...s, step: 0 }));
      const reset = await page.locator('#demo').evaluate((el) => {
        const sec = el.shadowRoot.querySelector('section[data-view="time"]');
        const map = sec.querySelector('attn-heatmap');
        return {
          rows: map.data?.rows ?? null,
          status: sec.querySelector('p[aria-live]').textContent,
          toolbar: map.shadowRoot.querySelector('.toolbar').hidden,
        };
      });
      assert.deepEqual(
        reset,
        { rows: null, status: t(lang, 'time.ready'), toolbar: true },
        `${lang} ${name}: nothing decoded, nothing to export`,
      );
    }
  }
});

test('counts use plural forms, and the build is said once, by the page (en, zh)', async () => {
  for (const lang of LANGS) {
    const s = { view: 'pooling', model: 'clf-reviews-attention', input: 'good', lang };
    await open(s);
    const status = (await shown()).status;
    const one = t(lang, 'status.pooling', {
      words: plural(lang, 'count.words', 1),
      rows: plural(lang, 'count.rows', 1),
      ms: 'MS',
    });
    assert.match(
      status,
      new RegExp(`^${one.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('MS', '\\d+\\.\\d')}$`),
      status,
    );
    if (lang === 'en') assert.match(status, /^1 word, 1 row of weights in /);
    await type(s, 'good film');
    if (lang === 'en') assert.match((await shown()).status, /^2 words, 1 row of weights in /);
    const build = t(lang, 'status.simd');
    const count = await page.evaluate((b) => {
      const texts = [
        document.body.innerText,
        document.querySelector('#demo').shadowRoot.querySelector('.status').textContent,
      ];
      return texts.join('\n').split(b).length - 1;
    }, build);
    assert.equal(count, 1, `${lang}: "${build}" once on the page`);
  }
});

test('heads: layers and heads shown from 1, and the 0-based attributes named beside them (en, zh)', async () => {
  for (const lang of LANGS) {
    const s = {
      view: 'heads',
      model: 'tf-dates-absolute',
      input: '22 Nov 2026',
      layer: 1,
      head: 0,
      lang,
    };
    await open(s);
    const v = await page.locator('#demo').evaluate((el) => {
      const r = el.shadowRoot;
      return {
        title: r.querySelector('#head-title').textContent,
        note: r.querySelector('.index-note').textContent,
      };
    });
    assert.ok(
      v.title.startsWith(
        t(lang, 'heads.selected', { layer: 2, head: 1, kind: '' }).replace(/\s*$/, ''),
      ),
      v.title,
    );
    assert.equal(v.note, t(lang, 'index.note', { layer: 1, head: 0 }));
    // the grid starts at the left: the row labels' column is no wider than its labels
    const g = await page.locator('#demo').evaluate((el) => {
      const grid = el.shadowRoot.querySelector('.heads-grid');
      const label = grid.querySelector('.axis.row');
      const thumb = grid.querySelector('.thumb');
      const range = document.createRange();
      range.selectNodeContents(label);
      return {
        gridLeft: grid.getBoundingClientRect().left,
        thumbLeft: thumb.getBoundingClientRect().left,
        labelText: range.getBoundingClientRect().width,
      };
    });
    assert.ok(
      g.thumbLeft - g.gridLeft < g.labelText + 24,
      `the first map starts after its label, not after empty space (${JSON.stringify(g)})`,
    );
  }
});

test('"Link to this view" copies the URL and says so; a refused clipboard shows the URL selected (en, zh)', async () => {
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: browser.url,
  });
  for (const lang of LANGS) {
    await open({ view: 'alignment', model: 'dates-additive', input: '22 Nov 2026', lang });
    const before = page.url();
    await page.locator('#model-permalink').click();
    await page.waitForFunction(() => !document.getElementById('link-copied').hidden);
    assert.equal(await page.locator('#link-copied').textContent(), t(lang, 'link.copied'));
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), before);
    assert.equal(page.url(), before, 'the page stays');
    await screenshot(page, `states-link-copied-${lang}`);
    // refused: the URL in a field, selected
    await page.evaluate(() => {
      Object.defineProperty(navigator.clipboard, 'writeText', {
        configurable: true,
        value: () => Promise.reject(new DOMException('denied', 'NotAllowedError')),
      });
    });
    await page.locator('#model-permalink').click();
    await page.waitForFunction(
      (want) => document.getElementById('link-copied').textContent === want,
      t(lang, 'link.copyManual'),
    );
    const field = await page.locator('#link-text').evaluate((f) => ({
      visible: !f.hidden,
      value: f.value,
      selected: f.selectionStart === 0 && f.selectionEnd === f.value.length,
      focused: document.activeElement === f,
    }));
    assert.deepEqual(field, { visible: true, value: before, selected: true, focused: true });
    // another view: the note was about the link before, and goes
    await page.locator('#demo input#input').fill('1 Jan 2020');
    await page.waitForFunction(
      () =>
        document.getElementById('link-copied').hidden &&
        document.getElementById('link-text').hidden,
    );
    await page.evaluate(() => delete navigator.clipboard.writeText); // the browser's own again
  }
});

test(
  'the Lab tab shows a badge while training runs in another view, from the old Train link (en, zh)',
  { timeout: 120000 },
  async () => {
    const { page: p } = await browser.newPage();
    const steps = () => p.evaluate(() => document.querySelector('attn-lab').runs.a.step);
    for (const lang of LANGS) {
      await p.goto(`${browser.url}/web/#view=train&lr=0.005&batch=32&lang=${lang}`);
      await p.waitForFunction(() => document.querySelector('attn-lab')?.experiment, null, {
        timeout: 30000,
      });
      await p.evaluate(() => document.querySelector('attn-lab').whenReady());
      assert.equal(await p.locator('#lab-badge').isHidden(), true, 'no badge before training');
      await p.evaluate(() => document.querySelector('attn-lab').start());
      await p.locator('a[data-view="alignment"]').click();
      await p.waitForFunction(() => document.getElementById('lab-view').hidden);
      await p.locator('#lab-badge').waitFor({ state: 'visible', timeout: 10000 });
      assert.equal(await p.locator('#lab-badge').textContent(), t(lang, 'train.badge'));
      const before = await steps();
      await p.waitForFunction((n) => document.querySelector('attn-lab').runs.a.step > n, before, {
        timeout: 30000,
      });
      await screenshot(p, `states-lab-badge-${lang}`);
      await p.locator('a[data-view="lab"]').click();
      await p.evaluate(() => document.querySelector('attn-lab').pause());
      await p.locator('#lab-badge').waitFor({ state: 'hidden', timeout: 10000 });
      await p.evaluate(() => document.querySelector('attn-lab').reset());
    }
    await p.close();
  },
);

test('phone width (390 px): the pooling probabilities fit the card; screenshots of the states (en, zh)', async () => {
  const { page: p, problems: own } = await browser.newPage();
  await p.setViewportSize({ width: 390, height: 844 });
  for (const lang of LANGS) {
    for (const name of ['clf-reviews-attention', 'clf-reviews-han', 'clf-reviews-structured']) {
      await open({ view: 'pooling', model: name, input: sampleFor(name), lang }, p);
      const overflow = await p.locator('#demo').evaluate((el) => {
        const card = el.shadowRoot
          .querySelector('section[data-view="pooling"]')
          .getBoundingClientRect();
        return [...el.shadowRoot.querySelectorAll('.probs li, .probs li > *')]
          .filter((n) => n.getBoundingClientRect().right > card.right + 0.5)
          .map((n) => n.className || n.tagName);
      });
      assert.deepEqual(overflow, [], `${lang} ${name}`);
      assert.ok(
        await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        `${lang} ${name}: no sideways scroll`,
      );
    }
    await screenshot(p, `states-pooling-phone-${lang}`);
    await open({ view: 'heads', model: 'tf-dates-absolute', input: '1'.repeat(49), lang }, p);
    await screenshot(p, `states-too-long-phone-${lang}`);
    await open({ view: 'time', model: 'dates-none', input: '22 Nov 2026', lang }, p);
    await screenshot(p, `states-time-none-phone-${lang}`);
  }
  assert.deepEqual(own, []);
  await p.close();
});

test('no console errors, failed requests or requests to another origin', () => {
  assert.deepEqual(problems, []);
});
