// lab-page.test.js: the lab as a view of the demo page (web/main.js showLab) and of the embed page
// (web/embed-page.js embedLab), in Chromium. The element itself is tests/browser/lab.test.js's.
//
// Checks: the first view (alignment) never requests the lab's modules; #view=lab makes one
// <attn-lab> with the hash's experiment, and the hash takes spec.js's canonical form; a preset
// link (the lesson's) opens that preset's whole experiment; refused lab parameters are named in
// the page's notice; the Lab tab carries a badge while a run trains, which stays (and the runs go
// on) in another view, and goes when they pause; the page's language reaches the element; a run
// downloaded from the lab opens in the alignment view (the model file picker), whose map equals
// Node's loadModel run of the same bytes within 1e-6; embed.html?view=lab&preset=… shows the lab
// with that experiment and refuses a bad preset by name; the old Train view's links
// (#view=train, embed.html?view=train) open the lab on its dates preset, which trains the dates
// models (the losses at least halve, the attention moves, a pause holds, reset goes back to step 0); no
// console errors, failed or foreign requests. Screenshots:
// tests/browser/screenshots/lab-page-{en,zh}.png, lab-page-train-1280x720.png.

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { init, loadModel } from '../../wasm/index.js';
import { PRESETS, checkExperiment, formatLabParams, parseLabParams } from '../../web/lab/spec.js';
import { makeTask } from '../../web/lab/tasks.js';
import { refusedNotice } from '../../web/shared/app-state.js';
import { t } from '../../web/shared/i18n.js';
import { screenshot, startBrowser } from './harness.js';

let browser;

before(async () => {
  browser = await startBrowser();
  await init();
});

after(async () => {
  await browser?.close();
});

/** A new page at web/index.html + hash, once the page is ready (and the lab, when it is shown, ready too). */
async function openPage(hash, { lab = true } = {}) {
  const { page, problems } = await browser.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await page.goto(`${browser.url}/web/index.html${hash}`);
  await page.waitForSelector('#app[data-state="ready"]');
  if (lab) {
    await page.waitForFunction(() => document.querySelector('attn-lab')?.experiment, null, {
      timeout: 20000,
    });
    await page.evaluate(() => document.querySelector('attn-lab').whenReady());
  }
  return { page, problems, requests };
}

/** The page's hash without its '#'. */
const hashParams = (page) => page.evaluate(() => location.hash.slice(1));

test(
  "the first view never loads the lab; #view=lab makes one <attn-lab> with the hash's experiment, in canonical form",
  { timeout: 60000 },
  async () => {
    const first = await openPage('#view=alignment&lang=en', { lab: false });
    await first.page.waitForFunction(
      () => !!document.getElementById('app').dataset.rendered,
      null,
      { timeout: 20000 },
    );
    assert.deepEqual(
      first.requests
        .filter((p) => p.includes('/lab/') || p.includes('attn-lab'))
        .filter((p) => !p.endsWith('/elements/attn-lab.js')),
      [],
      "the first view requests none of the lab's modules (only the element's small shell, which embed.js registers)",
    );
    assert.equal(await first.page.evaluate(() => document.querySelectorAll('attn-lab').length), 0);
    await first.page.close();

    // a hand-written, non-canonical experiment: spec.js checks it and the hash takes its canonical form
    const wanted = checkExperiment({
      ...PRESETS.find((p) => p.id === 'additive-dot').experiment,
      task: {
        name: 'copy',
        minLength: 4,
        maxLength: 9,
        size: 0,
        level: 'auto',
        seed: 5,
        data: null,
      },
    }).experiment;
    const params = formatLabParams(wanted);
    params.sort(); // another order of the same keys
    const { page, problems } = await openPage(`#view=lab&${params}&lang=en`);
    assert.equal(await page.evaluate(() => document.querySelectorAll('attn-lab').length), 1);
    const shown = await page.evaluate(() => document.querySelector('attn-lab').experiment);
    assert.deepEqual(shown, wanted);
    const hash = new URLSearchParams(await hashParams(page));
    assert.equal(hash.get('view'), 'lab');
    assert.equal(hash.get('lang'), 'en');
    hash.delete('view');
    hash.delete('lang');
    assert.equal(hash.toString(), formatLabParams(wanted).toString());
    assert.equal(await page.evaluate(() => document.getElementById('refused').hidden), true);
    assert.equal(
      await page.locator('#page-views a[data-view="lab"]').getAttribute('aria-current'),
      'page',
    );
    assert.deepEqual(problems, []);
    await page.close();
  },
);

test(
  "a preset link opens the preset's whole experiment; refused parameters are named in the page's language",
  { timeout: 60000 },
  async () => {
    for (const preset of PRESETS.filter((p) => ['with-without', 'additive-dot'].includes(p.id))) {
      const { page, problems } = await openPage(`#view=lab&preset=${preset.id}&lang=zh`);
      assert.deepEqual(
        await page.evaluate(() => document.querySelector('attn-lab').experiment),
        checkExperiment(preset.experiment).experiment,
      );
      const hash = new URLSearchParams(await hashParams(page));
      assert.equal(
        hash.get('preset'),
        null,
        "the hash holds the experiment, not the preset's name",
      );
      assert.equal(
        await page.evaluate(() => document.querySelector('attn-lab').getAttribute('lang')),
        'zh',
      );
      assert.equal(await page.locator('#lab-title').textContent(), t('zh', 'page.labTitle'));
      assert.deepEqual(problems, []);
      await page.close();
    }
    const base = formatLabParams(PRESETS[0].experiment);
    base.set('ah', '99999');
    const { experiment, refused } = parseLabParams(base);
    assert.ok(refused.length > 0, 'spec.js refuses a hidden size of 99999');
    const { page, problems } = await openPage(`#view=lab&${base}&lang=en`);
    assert.equal(
      await page.evaluate(() => document.getElementById('refused').textContent),
      refusedNotice(refused, 'en'),
    );
    assert.deepEqual(
      await page.evaluate(() => document.querySelector('attn-lab').experiment),
      experiment,
    );
    await page.close();
    const bad = await openPage('#view=lab&preset=%3Cscript%3E&lang=en');
    assert.equal(
      await bad.page.evaluate(() => document.getElementById('refused').textContent),
      refusedNotice(['preset=<script>'], 'en'),
    );
    assert.deepEqual([...problems, ...bad.problems], []);
    await bad.page.close();
  },
);

test(
  "the Lab tab's badge while a run trains, in another view too (the runs go on); gone after a pause",
  { timeout: 90000 },
  async () => {
    const small = checkExperiment({
      task: {
        name: 'reverse',
        minLength: 3,
        maxLength: 6,
        size: 0,
        level: 'auto',
        seed: 1,
        data: null,
      },
      a: {
        model: {
          family: 'seq2seq',
          cell: 'gru',
          bidirectional: false,
          layers: 1,
          hidden: 16,
          embedding: 8,
          attention: 'dot',
          style: 'luong',
        },
        train: { optimizer: 'adam', lr: 0.01, batch: 8, clip: 1, seed: 1, workers: 1 },
      },
      b: null,
    }).experiment;
    const { page, problems } = await openPage(`#view=lab&${formatLabParams(small)}&lang=en`);
    const badge = page.locator('#lab-badge');
    assert.equal(await badge.isHidden(), true);
    await page.evaluate(() => document.querySelector('attn-lab').start());
    await badge.waitFor({ state: 'visible', timeout: 10000 });
    assert.equal(await badge.textContent(), t('en', 'train.badge'));
    assert.equal(await badge.getAttribute('title'), t('en', 'page.labBadge'));
    const before = await page.evaluate(() => document.querySelector('attn-lab').runs.a.step);
    await page.locator('#page-views a[data-view="alignment"]').click();
    await page.waitForFunction(() => !document.getElementById('models-view').hidden);
    assert.equal(await page.locator('#lab-view').isHidden(), true);
    await page.waitForFunction(
      (n) => document.querySelector('attn-lab').runs.a.step > n + 20,
      before,
      { timeout: 30000 },
    );
    assert.equal(
      await badge.isVisible(),
      true,
      'the badge stays while the run trains in another view',
    );
    await page.locator('#page-views a[data-view="lab"]').click();
    await page.waitForFunction(() => !document.getElementById('lab-view').hidden);
    assert.equal(
      await page.evaluate(() => document.querySelectorAll('attn-lab').length),
      1,
      'the same element, not a new one',
    );
    await page.evaluate(() => document.querySelector('attn-lab').pause());
    await badge.waitFor({ state: 'hidden', timeout: 10000 });
    assert.deepEqual(problems, []);
    await page.close();
  },
);

test(
  "a run downloaded from the lab opens in the alignment view, whose map equals Node's loadModel of the same bytes",
  { timeout: 120000 },
  async () => {
    const preset = PRESETS.find((p) => p.id === 'additive-dot');
    const { page, problems } = await openPage(`#view=lab&preset=${preset.id}&lang=en`);
    await page.evaluate(async () => {
      const lab = document.querySelector('attn-lab');
      await lab.start();
      await lab.whenSteps(40);
      await lab.pause();
    });
    // A's download button is among its settings, a disclosure closed by default
    await page.locator('attn-lab #a-settings-summary').click();
    const dir = await mkdtemp(path.join(tmpdir(), 'attnlab-lab-page-'));
    try {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.locator('attn-lab #a-download').click(),
      ]);
      const file = path.join(dir, download.suggestedFilename());
      await download.saveAs(file);
      const bytes = new Uint8Array(await readFile(file));
      const input = makeTask(checkExperiment(preset.experiment).experiment.task).example.src;
      await page.locator('#page-views a[data-view="alignment"]').click();
      await page.waitForFunction(() => !document.getElementById('models-view').hidden);
      await page.locator('#demo input[type="file"]').setInputFiles(file);
      const name = `file:${path.basename(file)}`;
      await page.waitForFunction(
        (key) => document.getElementById('demo').state.model === key,
        name,
        { timeout: 20000 },
      );
      // the same input as the lab's fixed example, typed into the view
      await page.evaluate(
        (text) => document.getElementById('demo').setAttribute('input', text),
        input,
      );
      await page.waitForFunction(
        (text) => {
          const d = document.getElementById('demo');
          return new URLSearchParams(d.dataset.rendered ?? '').get('input') === text;
        },
        input,
        { timeout: 20000 },
      );
      const shown = await page.locator('#demo').evaluate((d) => {
        const map = d.shadowRoot.querySelector('attn-heatmap.align-map');
        const data = map?.data;
        return data
          ? { rows: data.rows, cols: data.cols, weights: Array.from(data.weights) }
          : null;
      });
      assert.ok(shown, 'the alignment view draws a map');
      const model = await loadModel(bytes);
      try {
        const a = model.run(input).attention[0].weights;
        assert.deepEqual([shown.rows, shown.cols], a.shape);
        let worst = 0;
        for (let i = 0; i < a.data.length; i++)
          worst = Math.max(worst, Math.abs(a.data[i] - shown.weights[i]));
        assert.ok(worst <= 1e-6, `worst |page − Node| = ${worst}`);
      } finally {
        model.dispose();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    assert.deepEqual(problems, []);
    await page.close();
  },
);

test(
  "embed.html?view=lab: the preset's experiment, a bad preset refused by name; screenshots of the page",
  { timeout: 90000 },
  async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(`${browser.url}/web/embed.html?view=lab&preset=additive-dot&lang=zh`);
    await page.waitForSelector('#app[data-state="ready"]', { timeout: 30000 });
    assert.deepEqual(
      await page.evaluate(() => document.querySelector('attn-lab').experiment),
      checkExperiment(PRESETS.find((p) => p.id === 'additive-dot').experiment).experiment,
    );
    await page.goto(`${browser.url}/web/embed.html?view=lab&preset=nope&lang=en`);
    await page.waitForSelector('#app[data-state="ready"]', { timeout: 30000 });
    assert.equal(
      await page.evaluate(() => document.getElementById('refused').textContent),
      refusedNotice(['preset=nope'], 'en'),
    );
    assert.deepEqual(problems, []);
    await page.close();

    for (const lang of ['en', 'zh']) {
      const shot = await openPage(`#view=lab&preset=with-without&lang=${lang}`);
      await shot.page.setViewportSize({ width: 1280, height: 900 });
      await screenshot(shot.page, `lab-page-${lang}`);
      assert.deepEqual(shot.problems, []);
      await shot.page.close();
    }
  },
);

test(
  "#view=train (the old Train view's links) opens the lab on its dates preset, which trains; embed.html?view=train too",
  { timeout: 240000 },
  async () => {
    const dates = checkExperiment(PRESETS.find((p) => p.id === 'dates').experiment).experiment;
    const { page, problems } = await openPage('#view=train&lr=0.01&batch=64&lang=en');
    await page.setViewportSize({ width: 1280, height: 720 });
    assert.deepEqual(
      await page.evaluate(() => document.querySelector('attn-lab').experiment),
      dates,
    );
    const hash = new URLSearchParams(await hashParams(page));
    assert.equal(hash.get('view'), 'lab', "the hash becomes the lab's");
    hash.delete('view');
    hash.delete('lang');
    assert.equal(hash.toString(), formatLabParams(dates).toString());
    assert.equal(await page.evaluate(() => document.getElementById('refused').hidden), true);
    assert.equal(
      await page.locator('#page-views a[data-view="lab"]').getAttribute('aria-current'),
      'page',
    );
    assert.equal(await page.locator('#page-views a[data-view="train"]').count(), 0, 'no Train tab');
    await screenshot(page, 'lab-page-train-1280x720');

    // the dates models train: what the Train view asserted of its one model, of A and B
    const maps = () =>
      page.evaluate(() =>
        ['a', 'b'].map((id) => {
          const d = document.querySelector('attn-lab').shadowRoot.getElementById(`map-${id}`).data;
          return d ? Array.from(d.weights) : null;
        }),
      );
    const before = await maps();
    const STEPS = 60; // the Train view's run halved its loss; so do both dates models by then
    await page.evaluate(async (n) => {
      const lab = document.querySelector('attn-lab');
      await lab.start();
      await lab.whenSteps(n);
      await lab.pause();
    }, STEPS);
    const runs = await page.evaluate(() => document.querySelector('attn-lab').runs);
    for (const id of ['a', 'b']) {
      const losses = await page.evaluate(
        (r) => Array.from(document.querySelector('attn-lab').losses(r)),
        id,
      );
      assert.ok(losses.length >= STEPS, `run ${id}: ${losses.length} losses`);
      const mean = (xs) => xs.reduce((x, y) => x + y, 0) / xs.length;
      const first = mean(losses.slice(0, 5)),
        last = mean(losses.slice(-5));
      console.log(
        `dates preset, run ${id}: loss ${first.toFixed(3)} → ${last.toFixed(3)} in ${losses.length} steps`,
      );
      assert.ok(last < first / 2, `run ${id}: the loss at least halves (${first} → ${last})`);
    }
    await page.waitForFunction(
      () =>
        ['a', 'b'].every(
          (id) => document.querySelector('attn-lab').shadowRoot.getElementById(`map-${id}`).data,
        ),
      null,
      { timeout: 20000 },
    );
    const after = await maps();
    for (const [i, id] of ['a', 'b'].entries()) {
      assert.ok(after[i], `run ${id} draws its attention`);
      assert.ok(
        !before[i] ||
          before[i].length !== after[i].length ||
          before[i].some((v, j) => Math.abs(v - after[i][j]) > 1e-6),
        `run ${id}: the attention moved while training`,
      );
    }
    // a pause holds (no step after it), and reset goes back to step 0
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(
      ['a', 'b'].map((id) => runs[id].step),
      await page.evaluate(() =>
        ['a', 'b'].map((id) => document.querySelector('attn-lab').runs[id].step),
      ),
      'no step after the pause',
    );
    await page.evaluate(() => document.querySelector('attn-lab').reset());
    assert.deepEqual(
      await page.evaluate(() =>
        ['a', 'b'].map((id) => document.querySelector('attn-lab').runs[id].step),
      ),
      [0, 0],
    );
    // the language switch reaches the lab
    await page.selectOption('#lang', 'zh');
    await page.waitForFunction(
      () => document.querySelector('attn-lab').getAttribute('lang') === 'zh',
    );
    assert.deepEqual(problems, []);
    await page.close();

    const embed = await browser.newPage();
    await embed.page.goto(`${browser.url}/web/embed.html?view=train&lr=0.01&lang=zh`);
    await embed.page.waitForSelector('#app[data-state="ready"]', { timeout: 30000 });
    assert.deepEqual(
      await embed.page.evaluate(() => document.querySelector('attn-lab').experiment),
      dates,
    );
    assert.equal(await embed.page.evaluate(() => document.getElementById('refused').hidden), true);
    assert.equal(
      await embed.page.evaluate(() => document.querySelector('attn-lab').getAttribute('lang')),
      'zh',
    );
    assert.deepEqual(embed.problems, []);
    await embed.page.close();
  },
);
