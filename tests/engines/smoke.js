// smoke.js: the smoke suite every browser engine runs (one list of checks; tests/engines/
// firefox.test.js and webkit.test.js each run it in their engine, through harness.js's adapter).
// Not a test file itself. The Chromium suite (tests/browser/) goes much deeper; this asks of
// Firefox and WebKit what a classroom of Safari and Firefox users would notice first:
//   - the first view draws the default model's alignment, the same weights as Node's run;
//   - typing in the input redraws, with the typed input's weights;
//   - every other view draws: its heatmaps hold rows × cols weights with as many labels, finite
//     attention rows that sum to 1, ink on the canvas, and the model's own maps where Node can
//     say which (pooling, heads, the compare view's models, the playground's n × m);
//   - training starts in the lab, on the dates preset the old Train link opens (a finite loss,
//     then a lower one: it learns);
//   - nothing is downloaded twice (Resource Timing: each URL once in the page's whole visit; the
//     lab's worker script once per run, A and B);
//   - the embed page works inside <iframe sandbox="allow-scripts"> (an opaque origin);
//   - the Chinese page at phone width (screenshots, 1280 and 390 px, under tests/browser/screenshots);
//   - and, last, no console error, page error or unhandled rejection in any page visited.
// Values compared come from the page's own state (the demo's model and input, the hash) and
// from the same model files run in Node with wasm/index.js.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { init, loadModel } from '../../wasm/index.js';
import { MODEL_DEFAULTS, formatModelParams } from '../../web/shared/app-state.js';
import { t } from '../../web/shared/i18n.js';
import {
  compareSet,
  defaultModelFor,
  findModel,
  modelUrl,
  sampleFor,
} from '../../web/shared/models.js';
import { startEngine } from './harness.js';

const TOLERANCE = 1e-5; // browser wasm vs Node wasm (the same build)

/** The URL-hash key <attn-demo> writes to data-rendered once it has drawn state s. */
const stateKey = (s) => formatModelParams({ ...MODEL_DEFAULTS, ...s, hide: [], seed: null });

/** actual equals expected within TOLERANCE; names the worst index. */
function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  let worst = 0;
  let at = -1;
  for (let i = 0; i < actual.length; i++) {
    const d = Math.abs(actual[i] - expected[i]);
    if (!(d <= worst)) [worst, at] = [d, i];
  }
  assert.ok(
    worst <= TOLERANCE,
    `${what}: worst difference ${worst} at ${at} (${actual[at]} vs ${expected[at]})`,
  );
}

// ---------------------------------------------------------------- in the page (sent as source)

/**
 * Every visible <attn-heatmap> under root (a selector; shadow roots searched): its data, where
 * it sits, and how many of its canvas pixels differ from its background (read from a copy).
 */
const readHeatmaps = (rootSelector) => {
  const found = [];
  const walk = (node) => {
    for (const el of node.querySelectorAll('*')) {
      if (el.localName === 'attn-heatmap') found.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  const root = document.querySelector(rootSelector);
  if (!root) return null;
  if (root.localName === 'attn-heatmap') found.push(root);
  else walk(root.shadowRoot ?? root);
  return found
    .filter((el) => el.data && el.getClientRects().length > 0 && !el.closest('[hidden]'))
    .map((el) => {
      const d = el.data;
      const canvas = el.shadowRoot.querySelector('canvas');
      const copy = document.createElement('canvas');
      copy.width = canvas.width;
      copy.height = canvas.height;
      const ctx = copy.getContext('2d', { willReadFrequently: true });
      ctx.drawImage(canvas, 0, 0);
      const px = ctx.getImageData(0, 0, copy.width, copy.height).data;
      const bg = getComputedStyle(el)
        .backgroundColor.match(/\d+(\.\d+)?/g)
        .map(Number);
      let ink = 0;
      for (let i = 0; i < px.length; i += 4)
        if (
          Math.abs(px[i] - bg[0]) + Math.abs(px[i + 1] - bg[1]) + Math.abs(px[i + 2] - bg[2]) >
          24
        )
          ink++;
      return {
        cls: el.getAttribute('class') ?? '',
        model: el.dataset.model ?? null,
        colormap: el.getAttribute('colormap'),
        rows: d.rows,
        cols: d.cols,
        weights: Array.from(d.weights),
        rowLabels: [...(d.rowLabels ?? [])],
        colLabels: [...(d.colLabels ?? [])],
        ink,
        pixels: px.length / 4,
      };
    });
};

/** Resource Timing of this document: URLs (without the origin) and how often each was fetched. */
const fetchedTwice = () => {
  const names = performance.getEntriesByType('resource').map((e) => e.name);
  const count = new Map();
  for (const n of names) count.set(n, (count.get(n) ?? 0) + 1);
  return {
    total: names.length,
    names,
    twice: [...count].filter(([, c]) => c > 1).map(([n, c]) => `${n} ×${c}`),
  };
};

// ---------------------------------------------------------------- the suite

/** Register the smoke tests for engine name ('firefox' or 'webkit'). */
export function smokeSuite(name) {
  let engine;
  const nodeModels = new Map();
  /** The registry model, loaded in Node from the file the page fetches. */
  async function nodeModel(model) {
    if (!nodeModels.has(model)) {
      nodeModels.set(
        model,
        await loadModel(new Uint8Array(await readFile(new URL(modelUrl(findModel(model)))))),
      );
    }
    return nodeModels.get(model);
  }

  before(async () => {
    await init();
    engine = await startEngine(name);
  });
  after(async () => {
    for (const m of nodeModels.values()) m.dispose();
    await engine?.close();
  });

  /**
   * test(title, fn), except that when the browser's page crashes under fn (WebKitGTK's web
   * process, now and then, on a loaded machine), fn runs once more in a fresh session, and the
   * crash is reported beside the result. A second crash fails the test; so does any other error.
   */
  function engineTest(title, fn) {
    test(title, async (t) => {
      try {
        await fn();
      } catch (err) {
        if (!err.crashed || !engine.restart) throw err;
        t.diagnostic(`${name}'s page crashed; a fresh session runs the test again. ${err.message}`);
        await engine.restart();
        await fn();
      }
    });
  }

  /** Switch the page's view by its hash (as the nav links do) and wait for that render. */
  async function showView(s) {
    const key = stateKey(s);
    await engine.evaluate((k) => {
      location.hash = k;
    }, key);
    await engine.waitFor((k) => document.querySelector('#demo')?.dataset.rendered === k, [key], {
      what: `#demo to render ${key}`,
    });
    return key;
  }

  /** The alignment heatmap under selector equals Node's run of model on input. */
  async function assertAlignment(maps, model, input, what) {
    const r = (await nodeModel(model)).run(input);
    const map = r.attention[0];
    const shown = maps.find((m) => m.cls.includes('align-map'));
    assert.ok(shown, `${what}: an alignment heatmap is drawn`);
    assert.deepEqual(
      [shown.rows, shown.cols],
      map.weights.shape,
      `${what}: output length × input length`,
    );
    assert.deepEqual(shown.rowLabels, [...map.rowLabels], `${what}: row labels (the output)`);
    assert.deepEqual(shown.colLabels, [...map.colLabels], `${what}: column labels (the input)`);
    assertClose(shown.weights, map.weights.data, `${what}: weights`);
    assert.ok(
      shown.ink > shown.pixels * 0.1,
      `${what}: ${shown.ink} of ${shown.pixels} pixels drawn`,
    );
  }

  /** What every drawn heatmap must hold, whatever the view. */
  function assertWellFormed(maps, what) {
    assert.ok(maps.length > 0, `${what}: at least one heatmap drawn`);
    for (const m of maps) {
      const label = `${what} ${m.cls || m.model || 'heatmap'}`;
      assert.equal(m.weights.length, m.rows * m.cols, `${label}: rows × cols weights`);
      assert.ok(m.rows > 0 && m.cols > 0, `${label}: not empty (${m.rows} × ${m.cols})`);
      assert.equal(m.rowLabels.length, m.rows, `${label}: a label per row`);
      assert.equal(m.colLabels.length, m.cols, `${label}: a label per column`);
      assert.ok(m.weights.every(Number.isFinite), `${label}: finite weights`);
      assert.ok(m.ink > 0, `${label}: ink on the canvas`);
      if (m.colormap === 'diverging') continue; // differences and distances, not distributions
      for (let i = 0; i < m.rows; i++) {
        const sum = m.weights.slice(i * m.cols, (i + 1) * m.cols).reduce((a, b) => a + b, 0);
        // a row of attention sums to 1, or less: all zeros for the model without attention, and
        // under 1 for local-p, whose Gaussian window scales the softmax (Luong et al. 2015, eq. 10)
        assert.ok(sum >= 0 && sum < 1 + 1e-4, `${label}: row ${i} sums to ${sum}`);
      }
    }
  }

  engineTest(
    `${name}: the first view draws the default model's alignment, as Node computes it`,
    async () => {
      await engine.goto(`${engine.url}/web/`);
      await engine.waitFor(
        () =>
          document.querySelector('#app')?.dataset.state === 'ready' &&
          document.querySelector('#demo')?.dataset.rendered,
        [],
        { what: 'the first view' },
      );
      const state = await engine.evaluate(() => document.querySelector('#demo').state);
      assert.equal(state.view, 'alignment');
      assert.equal(state.model, defaultModelFor('alignment'));
      await assertAlignment(
        await engine.evaluate(readHeatmaps, '#demo'),
        state.model,
        state.input,
        'first view',
      );
      assert.equal(
        await engine.evaluate(() => document.querySelector('#demo').dataset.simd),
        'true',
        'SIMD128 build runs',
      );
      await engine.screenshot(`${name}-alignment-1280`);
    },
  );

  engineTest(`${name}: typing in the input redraws with the typed input's weights`, async () => {
    const typed = '3 March 2021';
    const state = await engine.evaluate(() => document.querySelector('#demo').state);
    await engine.evaluate(() => {
      const input = document.querySelector('#demo').shadowRoot.querySelector('#input');
      input.focus();
      input.select();
    });
    await engine.typeKeys(typed);
    const key = stateKey({ ...state, input: typed });
    await engine.waitFor((k) => document.querySelector('#demo').dataset.rendered === k, [key], {
      what: `a render of "${typed}"`,
    });
    assert.equal(
      await engine.evaluate(
        () => document.querySelector('#demo').shadowRoot.querySelector('#input').value,
      ),
      typed,
    );
    await assertAlignment(
      await engine.evaluate(readHeatmaps, '#demo'),
      state.model,
      typed,
      'typed input',
    );
  });

  for (const view of ['time', 'compare', 'heads', 'pooling', 'reading', 'forgetting']) {
    engineTest(`${name}: the ${view} view draws`, async () => {
      const model = defaultModelFor(view);
      const input = sampleFor(model);
      // the time view decodes as many tokens as its step setting says (the hash reproduces it)
      const step = view === 'time' ? 3 : null;
      await showView({ view, model, input, step });
      const maps = await engine.evaluate(readHeatmaps, '#demo');
      assertWellFormed(maps, view);
      const r = (await nodeModel(model)).run(input);
      if (view === 'time') {
        // the rows decoded so far (step of them), each the model's row
        const m = maps.find((x) => x.cls.includes('time-map'));
        const [T, S] = r.attention[0].weights.shape;
        assert.deepEqual(
          [m.rows, m.cols],
          [Math.min(step, T), S],
          `time: ${step} decoded rows of ${T} × ${S}`,
        );
        assertClose(
          m.weights,
          r.attention[0].weights.data.slice(0, m.rows * S),
          'time: decoded rows',
        );
      } else if (view === 'compare') {
        // one map per model of the set that has attention; the one without says so in a panel
        const set = compareSet(model).map((m) => m.name);
        const withAttention = [];
        for (const name of set)
          if ((await nodeModel(name)).config.attention !== 'none') withAttention.push(name);
        const drawn = maps.filter((m) => m.model);
        assert.deepEqual(
          drawn.map((m) => m.model),
          withAttention,
          'compare: one map per model of the set with attention',
        );
        const panels = await engine.evaluate(
          () =>
            [
              ...document.querySelector('#demo').shadowRoot.querySelectorAll('.no-attention'),
            ].filter((p) => !p.hidden && p.getClientRects().length > 0).length,
        );
        assert.equal(
          panels,
          set.length - withAttention.length,
          'compare: a "no attention" panel for each model without',
        );
        for (const m of drawn) {
          const other = (await nodeModel(m.model)).run(input);
          assert.deepEqual(
            [m.rows, m.cols],
            other.attention[0].weights.shape,
            `compare ${m.model}: output × input`,
          );
          assertClose(m.weights, other.attention[0].weights.data, `compare ${m.model}`);
        }
      } else if (view === 'pooling') {
        const m = maps.find((x) => x.cls.includes('pool-map'));
        assert.deepEqual(
          [m.rows, m.cols],
          r.attention[0].weights.shape,
          "pooling: the model's map",
        );
        assertClose(m.weights, r.attention[0].weights.data, 'pooling');
      } else if (view === 'heads') {
        const m = maps.find((x) => x.cls.includes('head-map'));
        const thumbs = await engine.evaluate(
          () => document.querySelector('#demo').shadowRoot.querySelectorAll('button.thumb').length,
        );
        const cfg = (await nodeModel(model)).config;
        assert.ok(
          thumbs > 0 && thumbs % cfg.numHeads === 0,
          `heads: ${thumbs} thumbnails, a multiple of ${cfg.numHeads} heads`,
        );
        // the enlarged map is one of the model's (T × S) maps: its columns are the tokens of one side
        assert.ok(
          r.attention.some((a) => a.weights.shape.at(-1) === m.cols),
          `heads: ${m.cols} columns, one of the model's key lengths`,
        );
      } else {
        assert.ok(r.attention.length > 0, `${view}: the model has attention`);
      }
      await engine.screenshot(`${name}-${view}-1280`);
    });
  }

  engineTest(`${name}: the SDPA playground draws n × m weights from its hash`, async () => {
    const s = { n: 5, m: 7 };
    await engine.evaluate((h) => {
      location.hash = h;
    }, `#view=playground&n=${s.n}&m=${s.m}&d=16&seed=3`);
    await engine.waitFor(
      () =>
        document.querySelector('#app').dataset.rendered === location.hash &&
        location.hash.includes('view=playground'),
      [],
      { what: 'the playground' },
    );
    const maps = await engine.evaluate(readHeatmaps, '#heatmap');
    assertWellFormed(maps, 'playground');
    assert.deepEqual([maps[0].rows, maps[0].cols], [s.n, s.m], 'playground: n queries × m keys');
  });
  engineTest(
    `${name}: training starts in the lab (#view=train opens its dates preset): a finite loss, then a lower one`,
    async () => {
      await engine.evaluate(() => {
        location.hash = '#view=train';
      });
      await engine.waitFor(
        () => {
          const lab = document.querySelector('attn-lab');
          return !document.querySelector('#lab-view').hidden &&
            lab?.experiment?.task?.name === 'dates' &&
            lab.runs?.a?.state === 'ready'
            ? true
            : null;
        },
        [],
        { what: 'the lab on the dates preset, its workers ready', timeout: 60000 },
      );
      await engine.evaluate(() => {
        document.querySelector('attn-lab').start();
      });
      const mean = (xs) => xs.reduce((x, y) => x + y, 0) / xs.length;
      const first = await engine.waitFor(
        () => {
          const losses = document.querySelector('attn-lab').losses('a');
          return losses && losses.length >= 5 ? Array.from(losses.slice(0, 5)) : null;
        },
        [],
        { what: 'five losses of run A', timeout: 60000 },
      );
      assert.ok(
        first.every((l) => Number.isFinite(l) && l > 0),
        `losses ${first}`,
      );
      // it learns: a later mean loss below the first one
      const later = await engine.waitFor(
        (before) => {
          const losses = document.querySelector('attn-lab').losses('a');
          const last = Array.from(losses.slice(-5));
          const m = last.reduce((x, y) => x + y, 0) / last.length;
          return losses.length >= 10 && m < before ? { step: losses.length, value: m } : null;
        },
        [mean(first)],
        { what: `a mean loss below ${mean(first)}`, timeout: 90000 },
      );
      assert.ok(later.step > 5, `step ${later.step}`);
      await engine.screenshot(`${name}-lab-train-1280`);
      await engine.evaluate(() => {
        document.querySelector('attn-lab').pause();
      });
    },
  );

  engineTest(`${name}: nothing is downloaded twice in the whole visit`, async () => {
    const r = await engine.evaluate(fetchedTwice);
    // the lab starts one worker per run (A and B) from the same script: once per run, by design
    const worker = (n) => /\/web\/lab\/lab-worker\.js( |$)/.test(n);
    assert.deepEqual(
      r.twice.filter((n) => !worker(n)),
      [],
      `fetched more than once (of ${r.total})`,
    );
    assert.ok(r.names.filter(worker).length <= 2, "the lab's worker script at most once per run");
    // the wasm and the first model are among them, once (Resource Timing sees what the page fetched)
    assert.equal(
      r.names.filter((n) => n.endsWith('/wasm/attnlab.wasm')).length,
      1,
      'attnlab.wasm once',
    );
    assert.equal(
      r.names.filter((n) => n.endsWith(`/web/models/${defaultModelFor('alignment')}.safetensors`))
        .length,
      1,
      'the first model once',
    );
  });

  engineTest(`${name}: the Chinese page at phone width`, async () => {
    await engine.setSize(390, 844);
    await engine.goto(`${engine.url}/web/#${stateKey({ lang: 'zh' })}`);
    await engine.waitFor(() => document.querySelector('#demo')?.dataset.rendered, [], {
      what: 'the zh page',
    });
    const nav = await engine.evaluate(
      () => document.querySelector('#page-views a[data-view="alignment"]').textContent,
    );
    assert.equal(nav, t('zh', 'view.alignment'));
    // WebKit's MiniBrowser keeps its window at least 447 px wide (its toolbar): the check is
    // against the width the page got, and the screenshot shows that width
    const [wide, width] = await engine.evaluate(() => [
      document.documentElement.scrollWidth,
      document.documentElement.clientWidth,
    ]);
    assert.ok(width <= 450, `a phone-sized window (${width} px)`);
    assert.ok(wide <= width, `nothing wider than the screen (${wide} px in ${width} px)`);
    await engine.screenshot(`${name}-alignment-zh-390`);
    await engine.setSize(1280, 900);
  });

  engineTest(
    `${name}: the embed page works in a sandboxed iframe (opaque origin), each file once`,
    async () => {
      await engine.goto(`${engine.url}/tests/browser/embed-host.html`);
      const s = { view: 'alignment', model: defaultModelFor('alignment'), input: '1 Jan 2000' };
      const key = stateKey(s);
      // the frame is entered only once it has loaded: WebDriver switching into a frame that is
      // still navigating is a race WebKit's automation does not always survive
      await engine.evaluate(
        (src) =>
          new Promise((resolve, reject) => {
            const f = document.createElement('iframe');
            f.setAttribute('sandbox', 'allow-scripts');
            f.style.cssText = 'width: 900px; height: 700px';
            f.onload = () => resolve();
            f.onerror = () => reject(new Error(`the frame did not load ${src}`));
            f.src = src;
            document.getElementById('host').replaceChildren(f);
          }),
        `/web/embed.html?${key}`,
      );
      const end = Date.now() + 20000;
      while (
        !(await engine.inFrame(
          '#host iframe',
          (k) => document.querySelector('attn-demo')?.dataset.rendered === k,
          key,
        ))
      ) {
        if (Date.now() > end) throw new Error(`${name}: the embedded view did not render ${key}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(
        await engine.inFrame('#host iframe', () => self.origin),
        'null',
        'an opaque origin',
      );
      await assertAlignment(
        await engine.inFrame('#host iframe', readHeatmaps, 'attn-demo'),
        s.model,
        s.input,
        'embed',
      );
      const r = await engine.inFrame('#host iframe', fetchedTwice);
      assert.deepEqual(r.twice, [], `embed: fetched more than once (of ${r.total})`);
      const problems = await engine.inFrame('#host iframe', () =>
        window.__attnlabProblems.splice(0),
      );
      assert.deepEqual(problems, [], 'embed: no errors in the frame');
      await engine.screenshot(`${name}-embed-sandboxed`);
    },
  );

  test(`${name}: no console error, page error or unhandled rejection in any page`, async () => {
    assert.deepEqual(await engine.problems(), []);
  });
}
