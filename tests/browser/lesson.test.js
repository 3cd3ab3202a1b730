// lesson.test.js: the guided lesson (web/views/lesson-view.js, #view=lesson&step=N) in Chromium.
//
// Checks: every step in English and Chinese shows its title, text (the i18n table's; ≤ 150 words
// in English, ≤ 250 characters and Latin runs in Chinese), equations and prompt; its widget drew
// (the maps of steps 1, 2, 4 and 6 have the shape of the same model run here in Node; the others
// have data and ink; step 5's table holds every length with Node's output lengths and positive
// times; step 10 links the lab's presets, its dates preset last, where the Train view was); only the shown step's
// models are fetched; ← and → (not while typing), previous / next, the step list and an edited
// hash move between steps; hostile step values are refused and named; the embed page shows one
// step; step 2's panel shows the step's own equations, and its glossary names each symbol (the
// list, the equations' titles); steps 1, 2, 4, 6, 7 and 8 offer the mechanism view of their model. Screenshots of step 2 at 1280 and 390 px in both languages (and
// with its glossary open at 1280 × 720 and 390 × 844) go to tests/browser/screenshots/.

import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import { refusedNotice } from '../../web/shared/app-state.js';
import { t } from '../../web/shared/i18n.js';
import { PRESETS } from '../../web/lab/spec.js';
import {
  FBI_SENTENCE,
  COST_LENGTHS,
  LESSON_STEPS,
  countChineseUnits,
  countWords,
  equationSource,
} from '../../web/shared/lesson-steps.js';
import { GLOSSARY, glossaryEntry, symbolsOf } from '../../web/shared/glossary.js';
import { findModel } from '../../web/shared/models.js';
import { equationParts, toUnicode } from '../../web/shared/notation.js';
import { readingInput } from '../../web/views/reading-view.js';
import { COST_MODELS, costInput } from '../../web/views/lesson-cost.js';
import { SCREENSHOTS, canvasInk, screenshot } from './harness.js';
import { viewHarness } from './view-harness.js';

const harness = viewHarness('lesson');
const { nodeModel } = harness;
let browser;
let page;
let problems;
before(async () => ({ browser, page, problems } = await harness.start()));

const hashOf = (n, lang = 'en') => `#view=lesson&step=${n}&lang=${lang}`;

/** Wait until the page says step n's widget has drawn (#app[data-rendered] = its hash). */
async function waitStep(n, lang = 'en', p = page) {
  if (process.env.DEBUG_LESSON)
    console.log(
      'wait',
      n,
      lang,
      await p.evaluate(() => [location.hash, document.getElementById('app').dataset.rendered]),
    );
  await p.waitForFunction(
    (h) => document.getElementById('app').dataset.rendered === h && location.hash === h,
    hashOf(n, lang),
    { timeout: 30000 },
  );
}

async function openStep(n, lang = 'en') {
  await page.goto(`${browser.url}/web/${hashOf(n, lang)}`);
  await waitStep(n, lang);
}

/** What the lesson shows. */
function shownStep(p = page, root = '#lesson') {
  return p.locator(root).evaluate((box) => {
    const q = (s) => box.querySelector(s);
    const demo = q('.lesson-widget attn-demo');
    const maps = demo
      ? Array.from(demo.shadowRoot.querySelectorAll('attn-heatmap'), (m) => ({
          cls: m.getAttribute('class'),
          model: m.dataset.model ?? null,
          rows: m.data?.rows ?? 0,
          cols: m.data?.cols ?? 0,
          n: m.data?.weights.length ?? 0,
        }))
      : [];
    return {
      count: q('.lesson-count').textContent,
      title: q('.lesson-title').textContent,
      text: q('.lesson-text').textContent,
      eqs: Array.from(box.querySelectorAll('.lesson-eqs .eq'), (e) => e.textContent),
      subs: box.querySelectorAll('.lesson-eqs sub, .lesson-eqs sup').length,
      tryText: q('.lesson-try').textContent,
      current: q('.lesson-steps a[aria-current="step"]')?.dataset.step ?? null,
      links: Array.from(box.querySelectorAll('.lesson-steps a'), (a) => a.textContent),
      demos: box.querySelectorAll('attn-demo').length,
      demo: demo && {
        view: demo.getAttribute('view'),
        model: demo.getAttribute('model'),
        lang: demo.getAttribute('lang'),
        error:
          demo.shadowRoot.querySelector('.demo-error')?.hidden === false
            ? demo.shadowRoot.querySelector('.demo-error').textContent
            : '',
      },
      maps,
      cost: Array.from(box.querySelectorAll('.lesson-cost-table tbody tr'), (tr) => ({
        m: Number(tr.dataset.m),
        tNone: Number(tr.dataset.tNone),
        tAttn: Number(tr.dataset.tAttn),
        cells: Array.from(tr.querySelectorAll('td .median'), (c) => Number(c.textContent)),
      })),
      costLines: box.querySelectorAll('.lesson-cost-chart polyline').length,
      train: q('.lesson-train-link')?.getAttribute('href') ?? null,
      labLinks: Array.from(box.querySelectorAll('.lesson-lab-link'), (a) => a.getAttribute('href')),
      variants: Array.from(box.querySelectorAll('.lesson-variants button'), (b) => [
        b.textContent,
        b.getAttribute('aria-pressed'),
      ]),
      prevDisabled: q('.lesson-prev')?.disabled ?? null,
      nextDisabled: q('.lesson-next')?.disabled ?? null,
    };
  });
}

/** Node's map shape [rows, cols] for a seq2seq model on input. */
async function nodeShape(name, input) {
  const r = (await nodeModel(name)).run(input);
  return r.attention[0].weights.shape;
}

async function assertWidget(n, v) {
  const step = LESSON_STEPS[n - 1];
  if (step.widgets === 'train') {
    assert.equal(v.demos, 0);
    assert.match(v.train, /#view=lab&preset=dates&/); // the old Train view's model: the lab's dates preset
    // the lab's presets, each a real one of web/lab/spec.js (the page opens it: main.js showLab)
    assert.equal(v.labLinks.length, 2);
    for (const href of v.labLinks) {
      const id = new URLSearchParams(href.slice(href.indexOf('#') + 1)).get('preset');
      assert.ok(
        PRESETS.some((p) => p.id === id),
        `${href} names a preset of spec.js`,
      );
    }
    return;
  }
  if (step.widgets === 'cost') {
    assert.equal(v.demos, 0, 'step 5 times the models itself');
    assert.deepEqual(
      v.cost.map((r) => r.m),
      [...COST_LENGTHS],
    );
    for (const r of v.cost) {
      const input = costInput(r.m);
      assert.equal(
        r.tNone,
        (await nodeModel(COST_MODELS.none)).run(input).output.length,
        `m=${r.m}: no-attention output length`,
      );
      assert.equal(
        r.tAttn,
        (await nodeModel(COST_MODELS.attn)).run(input).output.length,
        `m=${r.m}: attention output length`,
      );
      assert.equal(r.cells.length, 4);
      for (const c of r.cells) assert.ok(Number.isFinite(c) && c > 0, `m=${r.m}: ${r.cells}`);
    }
    assert.equal(v.costLines, 2);
    return;
  }
  const w = step.widgets[0];
  assert.equal(v.demos, 1, "one widget: the shown step's");
  assert.deepEqual([v.demo.view, v.demo.model], [w.view, w.model]);
  assert.equal(v.demo.error, '', `step ${n}: no error`);
  const drawn = v.maps.filter((m) => m.n > 0);
  assert.ok(drawn.length > 0, `step ${n}: a map has data`);
  for (const m of drawn) assert.equal(m.n, m.rows * m.cols);
  const map = (cls) => v.maps.find((m) => m.cls === cls);
  const input = w.input ?? findModel(w.model).sample;
  if (w.view === 'forgetting') {
    const [rows, cols] = await nodeShape(w.model, input);
    assert.deepEqual([map('forgetting-map').rows, map('forgetting-map').cols], [rows, cols]);
  } else if (w.view === 'alignment') {
    const [rows, cols] = await nodeShape(w.model, input);
    assert.deepEqual(
      [map('align-map').rows, map('align-map').cols],
      [rows, cols],
      'output × input tokens',
    );
  } else if (w.view === 'time') {
    const [, cols] = await nodeShape(w.model, input);
    assert.deepEqual(
      [map('time-map').rows, map('time-map').cols],
      [w.step, cols],
      `${w.step} tokens decoded`,
    );
  } else if (w.view === 'reading') {
    const r = (await nodeModel(w.model)).run(readingInput(FBI_SENTENCE));
    assert.deepEqual(
      [map('reading-map').rows, map('reading-map').cols],
      [r.tokens.length, r.tokens.length],
    );
  } else if (w.view === 'heads' && w.kind === 'encoder') {
    // encoder self-attention, n × n, and beside it the clipped offsets j − i of the same n tokens
    const heads = map('head-map');
    assert.equal(heads.rows, heads.cols);
    assert.deepEqual(
      [map('distance-map').rows, map('distance-map').cols],
      [heads.rows, heads.cols],
    );
  } else if (w.view === 'compare') {
    const own = v.maps.find((m) => m.model === w.model);
    assert.deepEqual([own.rows, own.cols], await nodeShape(w.model, input));
  }
  const ink = await canvasInk(
    page.locator('#lesson attn-demo').locator(`attn-heatmap >> nth=${v.maps.indexOf(drawn[0])}`),
  );
  assert.ok(ink.ink / ink.total > 0.05, `step ${n}: ink on the map (${ink.ink} of ${ink.total})`);
}

for (const lang of ['en', 'zh']) {
  test(`every step in ${lang}: its text, equations, prompt and a widget that drew`, async () => {
    for (let n = 1; n <= LESSON_STEPS.length; n++) {
      const step = LESSON_STEPS[n - 1];
      const before = problems.length;
      const fetched = [];
      const onRequest = (req) =>
        req.url().endsWith('.safetensors') &&
        fetched.push(new URL(req.url()).pathname.split('/').pop().replace('.safetensors', ''));
      page.on('request', onRequest);
      await openStep(n, lang);
      page.off('request', onRequest);
      const v = await shownStep();
      assert.equal(v.count, t(lang, 'lesson.stepOf', { n, total: 10 }));
      assert.equal(v.title, t(lang, `${step.key}.title`));
      assert.equal(v.text, t(lang, `${step.key}.text`));
      if (lang === 'en')
        assert.ok(countWords(v.text) <= 150, `step ${n}: ${countWords(v.text)} words`);
      else
        assert.ok(
          countChineseUnits(v.text) <= 250,
          `step ${n}: ${countChineseUnits(v.text)} units`,
        );
      assert.equal(
        v.tryText,
        `${t(lang, 'lesson.try')}${t(lang, 'lesson.colon')}${t(lang, `${step.key}.try`)}`,
      );
      assert.equal(v.eqs.length, step.equations.length);
      if (step.equations.some((e) => /[_^]/.test(equationSource(e))))
        assert.ok(v.subs > 0, 'sub- and superscripts as HTML');
      // a named equation is named in the page's language
      step.equations.forEach(
        (e, i) =>
          typeof e !== 'string' &&
          assert.ok(v.eqs[i].startsWith(`${t(lang, e.label)}${t(lang, 'lesson.colon')}`), v.eqs[i]),
      );
      assert.equal(v.current, String(n));
      assert.deepEqual(
        v.links,
        LESSON_STEPS.map((s, i) => `${i + 1} ${t(lang, `${s.key}.short`)}`),
      );
      assert.deepEqual([v.prevDisabled, v.nextDisabled], [n === 1, n === 10]);
      if (Array.isArray(step.widgets)) {
        assert.equal(v.demo?.lang, lang);
        if (step.widgets.length > 1)
          assert.deepEqual(
            v.variants,
            step.widgets.map((w, i) => [t(lang, w.label), String(i === 0)]),
          );
        // only this step's model (and the models view's first, loaded behind the hidden section)
        const allowed = new Set([
          step.widgets[0].model,
          'dates-additive',
          ...(step.widgets[0].view === 'forgetting' || step.widgets[0].view === 'compare'
            ? fetched
            : []),
        ]);
        if (step.widgets[0].view !== 'compare' && step.widgets[0].view !== 'forgetting') {
          assert.deepEqual(
            fetched.filter((f) => !allowed.has(f)),
            [],
            `step ${n} fetched only its model`,
          );
        }
      } else if (step.widgets === 'cost') {
        assert.deepEqual(
          fetched.filter((f) => !['dates-additive', ...Object.values(COST_MODELS)].includes(f)),
          [],
        );
      }
      await assertWidget(n, v);
      assert.deepEqual(
        problems.slice(before),
        [],
        `step ${n} (${lang}): no console errors or failed requests`,
      );
    }
  });
}

test('step 2 selects a cell, so its arithmetic is on screen; screenshots at 1280 and 390 px', async () => {
  for (const lang of ['en', 'zh']) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await openStep(2, lang);
      const explain = await page.locator('#lesson attn-demo').evaluate((d) => {
        const map = d.shadowRoot.querySelector('.align-map');
        const row = Array.from(map.data.weights.subarray(0, map.data.cols));
        return {
          heading: d.shadowRoot.querySelector('.explain h3')?.textContent,
          focused: map.focusedCell,
          argmax: row.indexOf(Math.max(...row)),
          labels: [map.data.rowLabels[0], map.data.colLabels],
        };
      });
      assert.equal(explain.focused.row, 0);
      assert.equal(explain.focused.col, explain.argmax);
      assert.equal(
        explain.heading,
        t(lang, 'explain.cell', {
          row: 1,
          col: explain.argmax + 1,
          rowLabel: explain.labels[0],
          colLabel: explain.labels[1][explain.argmax],
        }),
      );
      await screenshot(page, `lesson-step2-${width}-${lang}`);
      // the README's picture (docs/lesson-step2.png is a copy of the English one): the lesson alone
      if (width === 1280)
        await page
          .locator('#lesson-view')
          .screenshot({ path: path.join(SCREENSHOTS, `lesson-readme-${lang}.png`) });
    }
  }
  await page.setViewportSize({ width: 1024, height: 800 });
});

test("step 2: the panel writes the lesson's equations; the glossary names its symbols", async () => {
  const eqs = LESSON_STEPS[1].equations.map(equationSource);
  const ids = symbolsOf(eqs);
  for (const lang of ['en', 'zh']) {
    for (const [width, height] of [
      [1280, 720],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height });
      await openStep(2, lang);
      const seen = await page.locator('#lesson').evaluate((box) => {
        const demo = box.querySelector('attn-demo');
        const g = box.querySelector('details.lesson-symbols');
        g.open = true;
        return {
          lesson: Array.from(box.querySelectorAll('.lesson-eqs .eq'), (e) => e.textContent),
          panel: Array.from(demo.shadowRoot.querySelectorAll('.explain .eq'), (e) => e.textContent),
          panelSubs: demo.shadowRoot.querySelectorAll('.explain .eq sub').length,
          summary: g.querySelector('summary').textContent,
          dt: Array.from(g.querySelectorAll(':scope > div dt'), (d) => d.dataset.sym),
          dd: Array.from(g.querySelectorAll(':scope > div dd'), (d) => d.textContent),
          all: g.querySelectorAll('.lesson-symbols-all dt').length,
          titles: Array.from(box.querySelectorAll('.lesson-eqs .sym'), (s) => [
            s.dataset.sym,
            s.title,
          ]),
        };
      });
      // one notation: the panel beside the text shows the step's equations, as HTML sub/sups
      assert.deepEqual(seen.panel, seen.lesson);
      assert.ok(seen.panelSubs >= 8, `${seen.panelSubs} subscripts in the panel`);
      assert.equal(seen.summary, t(lang, 'lesson.symbols', { n: ids.length }));
      assert.deepEqual(seen.dt, ids);
      assert.deepEqual(
        seen.dd,
        ids.map((id) =>
          equationParts(glossaryEntry(id)[lang])
            .map(([, text]) => text)
            .join(''),
        ),
      );
      assert.equal(seen.all, GLOSSARY.length);
      // each symbol in the equations says what it is
      for (const [id, title] of seen.titles) {
        assert.ok(ids.includes(id), id);
        assert.ok(title.endsWith(toUnicode(glossaryEntry(id)[lang])), `${id}: ${title}`);
      }
      await screenshot(page, `lesson-step2-glossary-${width}-${lang}`);
    }
  }
  await page.setViewportSize({ width: 1024, height: 800 });
});

test("steps 1, 2, 4, 6, 7 and 8 offer the mechanism view, drawn from the step's model", async () => {
  const steps = LESSON_STEPS.map((s, i) => [i + 1, s]).filter(
    ([, s]) => Array.isArray(s.widgets) && s.widgets.some((w) => w.view === 'mechanism'),
  );
  assert.deepEqual(
    steps.map(([n]) => n),
    [1, 2, 4, 6, 7, 8],
  );
  for (const lang of ['en', 'zh']) {
    for (const [n, step] of lang === 'en' ? steps : steps.slice(1, 2)) {
      const w = step.widgets.find((x) => x.view === 'mechanism');
      const before = problems.length;
      await openStep(n, lang);
      const button = page.locator('#lesson .lesson-variants button', {
        hasText: t(lang, w.label),
      });
      await button.click();
      await page.waitForFunction(
        (k) => {
          const box = document.querySelector('#lesson .lesson-widget');
          return (
            box.dataset.rendered === k &&
            box.querySelector('attn-demo')?.getAttribute('view') === 'mechanism'
          );
        },
        String(n),
        { timeout: 30000 },
      );
      const seen = await page.locator('#lesson attn-demo').evaluate((d) => ({
        model: d.getAttribute('model'),
        pressed: Array.from(
          d.closest('.lesson').querySelectorAll('.lesson-variants button[aria-pressed="true"]'),
          (b) => b.textContent,
        ),
        stages: new Set(
          Array.from(
            d.shadowRoot.querySelectorAll('.mech-svg [data-stage]'),
            (e) => e.dataset.stage,
          ),
        ).size,
        lines: Array.from(
          d.shadowRoot.querySelectorAll('.mech-equations .eq'),
          (e) => e.dataset.stage,
        ),
        subs: d.shadowRoot.querySelectorAll('.mech-equations .sym sub').length,
        error:
          d.shadowRoot.querySelector('.demo-error')?.hidden === false
            ? d.shadowRoot.querySelector('.demo-error').textContent
            : '',
      }));
      assert.equal(seen.model, w.model, `step ${n}`);
      assert.deepEqual(seen.pressed, [t(lang, w.label)]);
      assert.equal(seen.error, '', `step ${n}: no error`);
      assert.ok(seen.stages >= 3, `step ${n}: ${seen.stages} stages drawn`);
      assert.ok(seen.lines.length >= 3, `step ${n}: ${seen.lines.length} equation lines`);
      assert.ok(seen.subs > 0, `step ${n}: the equations' subscripts as HTML`);
      // the step's own picture: the bottleneck without attention, the scores with it
      if (n === 1) assert.ok(seen.lines.includes('initial'), 'step 1: s_0 = h_m');
      if (n === 2 || n === 4)
        assert.ok(seen.lines.includes('score') && seen.lines.includes('context'));
      if (n === 4) assert.ok(seen.lines.includes('position'), 'step 4: local-p predicts p_t');
      if (n === 6 || n === 7) assert.ok(seen.lines.includes('weight'));
      if (n === 8) assert.ok(seen.lines.includes('scores') && seen.lines.includes('heads'));
      assert.deepEqual(problems.slice(before), [], `step ${n}: no console errors`);
      if (n === 2) await screenshot(page, `lesson-step2-mechanism-${lang}`);
    }
  }
});

test('← and → move between steps, not while typing; previous, next and the step list too', async () => {
  await openStep(2);
  await page.locator('#lesson .lesson-title').focus();
  await page.keyboard.press('ArrowRight');
  await waitStep(3);
  await page.keyboard.press('ArrowLeft');
  await waitStep(2);
  // typing in the widget's input: the arrows move the caret, not the lesson
  const field = page.locator('#lesson attn-demo input#input');
  await field.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => location.hash), hashOf(2));
  // the heatmap's own arrows move its cell
  await page
    .locator('#lesson attn-demo')
    .evaluate((d) =>
      d.shadowRoot.querySelector('.align-map').shadowRoot.querySelector('.plot').focus(),
    );
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => location.hash), hashOf(2));
  await page.locator('#lesson .lesson-next').click();
  await waitStep(3);
  await page.locator('#lesson .lesson-prev').click();
  await waitStep(2);
  await page.locator('#lesson .lesson-steps a[data-step="10"]').click();
  await waitStep(10);
  await page.locator('#lesson .lesson-title').focus();
  await page.keyboard.press('ArrowRight'); // the last step: nowhere to go
  assert.equal(await page.evaluate(() => location.hash), hashOf(10));
  await openStep(1);
  await page.locator('#lesson .lesson-title').focus();
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => location.hash), hashOf(1));
  assert.equal((await shownStep()).demos, 1);
});

test('an edited hash moves the lesson; back returns; another view and back keeps the step', async () => {
  await openStep(4);
  await page.evaluate(() => {
    location.hash = '#view=lesson&step=9&lang=en';
  });
  await waitStep(9);
  assert.equal((await shownStep()).demo.model, 'tf-dates-relative');
  await page.goBack();
  await waitStep(4);
  await page.locator('#page-views a[data-view="alignment"]').click();
  await page.waitForFunction(() => location.hash.startsWith('#view=alignment'));
  assert.equal(await page.locator('#lesson-view').isHidden(), true);
  assert.equal(
    await page.locator('#lesson attn-demo').count(),
    0,
    "the step's widget is gone (its models freed)",
  );
  await page.locator('#page-views a[data-view="lesson"]').click();
  await waitStep(4);
  // the language switch keeps the step
  await page.locator('.site-header #lang').selectOption('zh');
  await waitStep(4, 'zh');
  assert.equal((await shownStep()).title, t('zh', 'lesson.4.title'));
});

test('hostile step values are refused and named; step 1 is shown', async () => {
  for (const bad of [
    '0',
    '11',
    '2.5',
    '-1',
    'abc',
    '%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E',
    '9'.repeat(3000),
  ]) {
    await page.goto(`${browser.url}/web/#view=lesson&step=${bad}&lang=en`);
    await waitStep(1);
    assert.equal(
      await page.locator('#refused').textContent(),
      refusedNotice(['step'], 'en'),
      bad.slice(0, 20),
    );
    assert.equal(await page.locator('#refused').isVisible(), true);
    assert.equal(await page.locator('#lesson img').count(), 0);
  }
  await page.goto(`${browser.url}/web/#view=lesson&step=3&lang=zh`);
  await waitStep(3, 'zh');
  assert.equal(await page.locator('#refused').isHidden(), true);
});

test('the embed page shows one step: text, widget, prompt, a link to the whole lesson', async () => {
  for (const [n, lang] of [
    [3, 'zh'],
    [2, 'en'],
    [10, 'en'],
  ]) {
    await page.goto(`${browser.url}/web/embed.html?view=lesson&step=${n}&lang=${lang}`);
    await page.waitForFunction(
      (k) => document.getElementById('app').dataset.rendered === k,
      `view=lesson&step=${n}&lang=${lang}`,
      { timeout: 30000 },
    );
    const v = await page.locator('#app').evaluate((app) => ({
      title: app.querySelector('.lesson-title').textContent,
      text: app.querySelector('.lesson-text').textContent,
      tryText: app.querySelector('.lesson-try').textContent,
      list: app.querySelectorAll('.lesson-steps').length,
      buttons: app.querySelectorAll('.lesson-prev, .lesson-next').length,
      whole: app.querySelector('.lesson-whole').getAttribute('href'),
      demo: app.querySelector('attn-demo')?.getAttribute('model') ?? null,
      lang: document.documentElement.lang,
    }));
    const step = LESSON_STEPS[n - 1];
    assert.equal(v.title, t(lang, `${step.key}.title`));
    assert.equal(v.text, t(lang, `${step.key}.text`));
    assert.equal(
      v.tryText,
      `${t(lang, 'lesson.try')}${t(lang, 'lesson.colon')}${t(lang, `${step.key}.try`)}`,
    );
    assert.deepEqual([v.list, v.buttons], [0, 0], 'one step, no navigation');
    assert.ok(v.whole.endsWith(`/web/index.html#view=lesson&step=${n}&lang=${lang}`));
    assert.equal(v.demo, Array.isArray(step.widgets) ? step.widgets[0].model : null);
    assert.equal(v.lang, lang === 'zh' ? 'zh-Hans' : 'en');
    if (n === 3) await screenshot(page, 'lesson-embed-step3-zh');
  }
  await page.goto(`${browser.url}/web/embed.html?view=lesson&step=42`);
  await page.waitForFunction(
    () => document.getElementById('app').dataset.rendered === 'view=lesson&step=1&lang=en',
    null,
    { timeout: 30000 },
  );
  assert.equal(await page.locator('#refused').textContent(), refusedNotice(['step'], 'en'));
  assert.deepEqual(problems, []);
});
