// python/tests/chromium_live.mjs: attnlab.show(model file) pages (Shown.save) opened from file://
// in Debian's Chromium (playwright-core), for test_show_live.py: a JSON request on stdin, a JSON
// answer on stdout, as node_run.mjs.
//
//   {"jobs": [{"html": "/tmp/x.html", "view": "heads", "inputs": ["a b c", "d e"],
//              "kinds": ["encoder"], "blank": "…", "shots": "tests/browser/screenshots/live-x"}]}
//   -> {"results": [{"draws": [<drawn>, …], "kinds": {…}, "blank": {…}, "requests": [...],
//                    "problems": [...]}]}
//
// Every request but the page itself, data: and blob: is refused and listed (the output must draw
// offline); console errors and warnings and page errors are listed. For each input of "inputs"
// (the first is the one show() was given; the others are typed into the output's input box, as a
// person would) it waits for the root's data-attnlab-state = 'ready' and reads what is drawn
// (drawn(): the view's name, texts and the numbers its <attn-heatmap>s hold; for the heads view
// every thumbnail clicked in turn, and its enlarged map read). "kinds": an encoder-decoder's other
// kinds chosen in its select, each read. "blank": an input typed that the view must refuse (the
// message, the view hidden). Screenshots: <shots>-1280.png (1280 × 720) after the first input and
// <shots>-390.png (390 × 844) after the last. Deliberately not a test itself: test_show_live.py
// holds the expectations.

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { launchChromium, offlinePage } from './offline_page.mjs';

/** What the output shows now (in the page: the shadow root of the one output). */
function readView() {
  const root = document.querySelector('.attnlab-output');
  const shadow = root.querySelector('.attnlab-mount').shadowRoot;
  const q = (s) => shadow.querySelector(s);
  const text = (s) => q(s)?.textContent ?? null;
  const section = q('section[data-view]');
  const mapOf = (m) => {
    const d = m?.data;
    return d
      ? {
          weights: Array.from(d.weights),
          rows: d.rows,
          cols: d.cols,
          rowLabels: [...d.rowLabels],
          colLabels: [...d.colLabels],
        }
      : null;
  };
  const out = {
    state: root.dataset.attnlabState,
    input: root.dataset.attnlabInput,
    output: root.dataset.attnlabOutput,
    view: section?.dataset.view ?? null,
    hidden: section ? section.hidden : null,
    title: text('.title'),
    about: text('.about'),
    hint: shadow.querySelectorAll('.about')[1]?.textContent ?? null,
    status: text('.status'),
    error:
      [...shadow.querySelectorAll('.error')]
        .filter((e) => !e.hidden)
        .map((e) => e.textContent)
        .join(' ') || null,
  };
  if (out.view === 'heads') {
    out.thumbs = [...shadow.querySelectorAll('button.thumb')].map((b) => [
      Number(b.dataset.layer),
      Number(b.dataset.head),
      b.getAttribute('aria-pressed') === 'true',
      b.querySelector('canvas').width,
      b.querySelector('canvas').height,
    ]);
    out.gridTitle = text('.grid-title');
    out.selected = text('#head-title');
    out.kind = q('.kind-field')?.hidden ? null : q('#kind').value;
    out.shownOutput = text('output.output');
    out.map = mapOf(q('attn-heatmap.head-map'));
  } else if (out.view === 'pooling') {
    out.label = text('output.prediction');
    out.confidence = text('.clf-confidence');
    out.unsure = q('.clf-unsure').hidden ? null : text('.clf-unsure');
    out.unknownNote = q('.clf-many-unknown').hidden ? null : text('.clf-many-unknown');
    out.probs = [...shadow.querySelectorAll('ul.probs li')].map((li) => [
      li.dataset.label,
      li.querySelector('.value').textContent,
    ]);
    out.words = [...shadow.querySelectorAll('.words .word')].map((w) => w.textContent);
    out.map = mapOf(q('attn-heatmap.pool-map'));
  } else if (out.view === 'reading') {
    out.readAs = text('output.read-as');
    out.words = [...shadow.querySelectorAll('.rword .word')].map((w) => w.textContent);
    out.wordProbs = [...shadow.querySelectorAll('.rword .p')].map((p) => p.textContent);
    out.map = mapOf(q('attn-heatmap.reading-map'));
  } else if (out.view === 'alignment') {
    out.shownOutput = text('output.output');
    out.map = mapOf(q('attn-heatmap'));
  }
  return out;
}

async function waitReady(page, input) {
  await page.waitForFunction(
    (input) => {
      const r = document.querySelector('.attnlab-output');
      return (
        r?.dataset.attnlabState === 'error' ||
        (r?.dataset.attnlabState === 'ready' &&
          (input === null || r.dataset.attnlabInput === input))
      );
    },
    input,
    { timeout: 30_000 },
  );
}

/** The heads view: every thumbnail clicked in turn, its enlarged map read: [[layer, head, map]]. */
async function everyHead(page) {
  const maps = [];
  const n = await page.locator('button.thumb').count();
  for (let i = 0; i < n; i++) {
    const b = page.locator('button.thumb').nth(i);
    const [l, h] = [
      Number(await b.getAttribute('data-layer')),
      Number(await b.getAttribute('data-head')),
    ];
    await b.click();
    await page.waitForFunction(
      ([l, h]) => {
        const s = document.querySelector('.attnlab-output');
        const t = s.querySelector('.attnlab-mount').shadowRoot.querySelector('#head-title');
        return (
          s.dataset.attnlabState === 'ready' &&
          t?.textContent.startsWith(`Layer ${l + 1}, head ${h + 1}:`)
        );
      },
      [l, h],
      { timeout: 30_000 },
    );
    const v = await page.evaluate(readView);
    maps.push([l, h, v.map, v.selected]);
  }
  return maps;
}

async function job(browser, j) {
  const url = pathToFileURL(j.html).href;
  const { page, refused: requests, problems } = await offlinePage(browser, url);
  await page.goto(url);
  const out = { draws: [], requests, problems };
  for (const [i, input] of j.inputs.entries()) {
    if (i > 0) {
      await page.locator('input#input').fill(input);
    }
    await waitReady(page, i === 0 ? null : input);
    const drawn = await page.evaluate(readView);
    if (drawn.view === 'heads') drawn.heads = await everyHead(page);
    out.draws.push(drawn);
    if (i === 0 && j.shots) await page.screenshot({ path: `${j.shots}-1280.png`, fullPage: true });
    if (i === 0 && j.kinds) {
      out.kinds = {};
      for (const kind of j.kinds) {
        await page.locator('select#kind').selectOption(kind);
        await page.waitForFunction(
          (kind) => {
            const r = document.querySelector('.attnlab-output');
            const s = r.querySelector('.attnlab-mount').shadowRoot.querySelector('#kind');
            return r.dataset.attnlabState === 'ready' && s.value === kind;
          },
          kind,
          { timeout: 30_000 },
        );
        const v = await page.evaluate(readView);
        v.heads = await everyHead(page);
        out.kinds[kind] = v;
      }
      await page.locator('select#kind').selectOption('cross');
    }
  }
  if (j.shots) {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(100); // a layout after the resize (no assertion depends on it)
    out.narrow = await page.evaluate(() => ({
      width: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    await page.screenshot({ path: `${j.shots}-390.png`, fullPage: true });
  }
  if (j.blank !== undefined) {
    await page.locator('input#input').fill(j.blank);
    await waitReady(page, j.blank);
    out.blank = await page.evaluate(readView);
  }
  await page.close();
  return out;
}

const request = JSON.parse(readFileSync(0, 'utf8'));
const browser = await launchChromium();
const results = [];
try {
  for (const j of request.jobs) {
    try {
      results.push(await job(browser, j));
    } catch (e) {
      results.push({ error: String(e?.stack ?? e) });
    }
  }
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify({ results }));
