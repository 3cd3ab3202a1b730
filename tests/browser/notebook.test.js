// notebook.test.js: the example notebooks of python/examples/ executed end to end as docs/python.md
// tells a user to run them: in the venv `make python-venv` makes (build/python-venv, over
// /usr/bin/python3 and Debian's torch, `pip install --no-build-isolation ./python`), through the
// "attnlab" kernel that venv's ipykernel registers (here with --prefix into a temporary directory,
// found through JUPYTER_PATH: nothing is written to the home directory), by Debian's nbconvert
// (`python3 -m nbconvert --execute --ExecutePreprocessor.kernel_name=attnlab --to html`: Debian
// ships no jupyter-nbconvert script). No PYTHONPATH: the notebooks import the installed package,
// and print sys.prefix and attnlab.__file__, which must be the venv's. The HTML nbconvert writes
// is opened from file:// in Chromium.
//
// dates.ipynb: both attnlab.show() outputs draw (the PyTorch heatmap and the live view) with no
// request but the page itself, data: and blob: (the two <script src> of nbconvert's own template,
// require.js and MathJax, are blocked here and must be the only others: attnlab's outputs work
// without them); the live view's first map is PyTorch's map of the same input (the heatmap
// output, to 1e-4) and is exactly what wasm/index.js computes in Node from the exported file;
// typing another date re-runs the model and redraws (weights and output equal Node's again);
// no console error or page error; screenshots at 1024 and 390 px (tests/browser/screenshots/).
// transformer.ipynb: a hand-built nn.TransformerEncoder's attention, every layer and head, from
// attnlab.show(attnlab.attention(encoder, x), tokens=words), drawn offline the same way.
// Needs /usr/bin/python3 with python3-torch, python3-venv, nbconvert and ipykernel (Debian). The
// dates notebook trains for ~15 s, the transformer one ~2 s; the whole test takes ~60 s.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { CHROMIUM, REPO_ROOT, SCREENSHOTS, canvasInk, requireChromium } from './harness.js';
import { loadModel } from '../../wasm/index.js';

const PYTHON = process.env.PYTHON || '/usr/bin/python3';
const VENV = path.join(REPO_ROOT, 'build', 'python-venv');
const VENV_PYTHON = path.join(VENV, 'bin', 'python');
const EXAMPLES = path.join(REPO_ROOT, 'python', 'examples');
let dir;
let html; // the nbconvert HTML's text
let browser;
let page;
const requests = []; // every URL the page asked for
const problems = []; // console errors and warnings, page errors
let nbconvertSeconds;

/** The environment the notebooks run in: the temporary kernel directory, and no PYTHONPATH. */
function jupyterEnv() {
  const env = {
    ...process.env,
    JUPYTER_PATH: path.join(dir, 'jupyter', 'share', 'jupyter'),
    PYDEVD_DISABLE_FILE_VALIDATION: '1',
  };
  delete env.PYTHONPATH;
  return env;
}

/**
 * Execute python/examples/<name>.ipynb (copied into dir) through the attnlab kernel → its HTML.
 * allowErrors: a cell that raises shows its traceback in the HTML instead of failing the run.
 */
function execute(name, { allowErrors = false } = {}) {
  copyFileSync(path.join(EXAMPLES, `${name}.ipynb`), path.join(dir, `${name}.ipynb`));
  try {
    execFileSync(
      PYTHON,
      [
        '-m',
        'nbconvert',
        '--execute',
        '--ExecutePreprocessor.kernel_name=attnlab',
        '--ExecutePreprocessor.timeout=300',
        ...(allowErrors ? ['--allow-errors'] : []),
        '--to',
        'html',
        `${name}.ipynb`,
      ],
      { cwd: dir, env: jupyterEnv(), stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 },
    );
  } catch (err) {
    throw new Error(
      `nbconvert --execute failed on python/examples/${name}.ipynb:\n${err.stderr?.toString().slice(-4000) ?? err.message}`,
    );
  }
  return readFileSync(path.join(dir, `${name}.html`), 'utf8');
}

/** What the notebook's first cell printed: the kernel's sys.prefix and attnlab.__file__. */
function kernelPaths(notebookHtml) {
  const text = notebookHtml.replace(/<[^>]+>/g, '');
  return {
    prefix: text.match(/^python: (\S+)$/m)?.[1],
    attnlab: text.match(/^attnlab: (\S+)$/m)?.[1],
  };
}

let kernelJson; // the registered kernel's kernel.json

before(async () => {
  requireChromium();
  dir = mkdtempSync(path.join(tmpdir(), 'attnlab-notebook-'));
  // the venv as docs/python.md makes it (make test-python uses the same one), then its kernel
  execFileSync('make', ['--no-print-directory', 'python-venv', `PYTHON=${PYTHON}`], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  execFileSync(
    VENV_PYTHON,
    ['-m', 'ipykernel', 'install', '--prefix', path.join(dir, 'jupyter'), '--name', 'attnlab'],
    { env: jupyterEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  kernelJson = JSON.parse(
    readFileSync(
      path.join(dir, 'jupyter', 'share', 'jupyter', 'kernels', 'attnlab', 'kernel.json'),
      'utf8',
    ),
  );
  const t0 = performance.now();
  html = execute('dates'); // it writes dates-tiny.safetensors beside itself
  nbconvertSeconds = (performance.now() - t0) / 1000;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  page = await browser.newPage({ viewport: { width: 1024, height: 900 } });
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning')
      problems.push(`console.${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  await page.route('**/*', (route) => {
    const url = route.request().url();
    requests.push(url);
    return isSelfContained(url) ? route.continue() : route.abort('blockedbyclient');
  });
  await page.goto(pathToFileURL(path.join(dir, 'dates.html')).href);
  await page.waitForFunction(
    () => {
      const roots = [...document.querySelectorAll('.attnlab-output')];
      return (
        roots.length === 2 &&
        roots.every((r) => r.dataset.attnlabState === 'ready' || r.dataset.attnlabState === 'error')
      );
    },
    null,
    { timeout: 30_000 },
  );
});

after(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The page itself, data: and blob: URLs: what a self-contained output may load. */
function isSelfContained(url) {
  const u = new URL(url);
  return (
    u.protocol === 'data:' ||
    u.protocol === 'blob:' ||
    url === pathToFileURL(path.join(dir, 'dates.html')).href
  );
}

/** The drawn map of the output of this kind: { weights (array), rows, cols, rowLabels, colLabels, state, input, output }. */
function drawn(kind) {
  return page.evaluate((kind) => {
    const root = document.querySelector(`.attnlab-output[data-attnlab-kind="${kind}"]`);
    const map = root.querySelector('.attnlab-mount').shadowRoot.querySelector('attn-heatmap');
    const d = /** @type {any} */ (map).data;
    return {
      weights: d ? Array.from(d.weights) : null,
      rows: d?.rows,
      cols: d?.cols,
      rowLabels: d?.rowLabels,
      colLabels: d?.colLabels,
      state: root.dataset.attnlabState,
      input: root.dataset.attnlabInput,
      output: root.dataset.attnlabOutput,
    };
  }, kind);
}

/** The exported model run in Node by wasm/index.js: { weights, rows, cols, output }. */
let nodeModel;
async function runInNode(input) {
  nodeModel ??= await loadModel(readFileSync(path.join(dir, 'dates-tiny.safetensors')));
  const r = nodeModel.run(input);
  const map = r.attention[0];
  return {
    weights: Array.from(map.weights.data),
    rows: map.weights.shape[0],
    cols: map.weights.shape[1],
    rowLabels: map.rowLabels,
    colLabels: map.colLabels,
    output: r.output,
  };
}

/** The largest |a[i] - b[i]| and where. */
function worst(a, b) {
  assert.equal(a.length, b.length, 'as many weights');
  let d = 0;
  let at = -1;
  for (let i = 0; i < a.length; i++) {
    const e = Math.abs(a[i] - b[i]);
    if (!(e <= d)) [d, at] = [e, i];
  }
  return { d, at };
}

test('nbconvert executes the notebook end to end (its training time printed) and the HTML holds two outputs', () => {
  const [, wall, cpu] = html.match(/trained in ([\d.]+) s \(([\d.]+) s of CPU\)/).map(Number);
  const bytes = statSync(path.join(dir, 'dates.html')).size;
  // bytes of each output: its root div to the end of its mount line (show.py _output)
  const sizes = [
    ...html.matchAll(
      /<div class="attnlab-output"[^]*?setTimeout\(go,25\);\}go\(\);\}\)\(\);<\/script>/g,
    ),
  ].map((m) => Buffer.byteLength(m[0]));
  console.log(
    `# nbconvert --execute: ${nbconvertSeconds.toFixed(1)} s (training ${wall} s, ${cpu} s of CPU); HTML ${bytes} bytes; attnlab outputs ${sizes.join(' and ')} bytes`,
  );
  // the notebook trained and said how long (printed above, not asserted: a shared machine)
  assert.ok(wall > 0 && cpu > 0, `training took ${wall} s (${cpu} s of CPU)`);
  assert.equal(sizes.length, 2);
  assert.doesNotMatch(html, /Traceback|Error<\/span>/, 'no cell raised');
});

test('the notebook ran in the venv through the attnlab kernel, on the installed package', () => {
  // the kernel ipykernel registered runs the venv's python (not the /usr/bin/python3 running nbconvert)
  assert.equal(kernelJson.argv[0], VENV_PYTHON);
  assert.equal(kernelJson.display_name, 'attnlab');
  const ran = kernelPaths(html);
  assert.equal(ran.prefix, VENV, 'sys.prefix of the kernel');
  // pip's copy in the venv's site-packages, not python/attnlab of the repository
  const site = path.join(VENV, 'lib');
  assert.ok(ran.attnlab?.startsWith(site + path.sep), `attnlab.__file__ = ${ran.attnlab}`);
  assert.match(ran.attnlab, /site-packages\/attnlab\/__init__\.py$/);
  // both notebooks name the kernel they are meant for (Jupyter opens them with it)
  for (const name of ['dates', 'transformer']) {
    const nb = JSON.parse(readFileSync(path.join(EXAMPLES, `${name}.ipynb`), 'utf8'));
    assert.equal(nb.metadata.kernelspec.name, 'attnlab', name);
  }
});

test('both outputs draw from file:// with no request but the page, data: and blob: (and no errors)', async () => {
  assert.ok(
    requests.some(isSelfContained),
    'the route saw the page itself (file:// requests are routed)',
  );
  const others = [...new Set(requests.filter((u) => !isSelfContained(u)))];
  // nbconvert's own template loads require.js and MathJax (Debian: from /usr/share/javascript);
  // blocked above, they must be all there is besides the page, and none may come from attnlab.
  const template = [
    ...html.slice(0, html.indexOf('class="attnlab-output"')).matchAll(/<script src="([^"]+)"/g),
  ].map((m) => new URL(m[1]).href);
  assert.deepEqual(
    others.filter((u) => !template.includes(u)),
    [],
    `requests: ${others.join(', ')}`,
  );
  assert.ok(
    template.length <= 2 && template.every((u) => /require|mathjax/i.test(u)),
    template.join(', '),
  );
  // Chromium's console line for a blocked load names no URL: one per blocked template script
  const blocked = problems.filter(
    (p) => p === 'console.error: Failed to load resource: net::ERR_BLOCKED_BY_CLIENT.Inspector',
  );
  assert.ok(blocked.length <= template.length, problems.join('\n'));
  assert.deepEqual(
    problems.filter((p) => !blocked.includes(p)),
    [],
  );
  for (const kind of ['heatmap', 'model']) {
    const d = await drawn(kind);
    assert.equal(d.state, 'ready', kind);
    const map = page.locator(`.attnlab-output[data-attnlab-kind="${kind}"] attn-heatmap`);
    const ink = await canvasInk(await map.elementHandle());
    assert.ok(
      ink.ink > ink.total / 10,
      `${kind}: the canvas is drawn (${ink.ink} of ${ink.total} pixels)`,
    );
  }
});

test("the live view's first map is PyTorch's (the heatmap output) and exactly Node's run of the exported file", async () => {
  const torch = await drawn('heatmap');
  const live = await drawn('model');
  const node = await runInNode('22 nov 2026');
  assert.equal(live.input, '22 nov 2026');
  assert.equal(
    live.output,
    html.match(/pytorch output: &#39;([^&]*)&#39;/)[1],
    'the browser decodes what PyTorch decoded',
  );
  assert.equal(live.output, node.output);
  assert.deepEqual([live.rows, live.cols], [torch.rows, torch.cols]);
  assert.deepEqual([live.rows, live.cols], [node.rows, node.cols]);
  assert.deepEqual(live.rowLabels, torch.rowLabels);
  assert.deepEqual(live.colLabels, torch.colLabels);
  const vsTorch = worst(live.weights, torch.weights);
  assert.ok(vsTorch.d < 1e-4, `wasm vs PyTorch: worst |Δ| ${vsTorch.d} at ${vsTorch.at}`);
  const vsNode = worst(live.weights, node.weights);
  assert.ok(vsNode.d <= 1e-6, `page vs Node: worst |Δ| ${vsNode.d} at ${vsNode.at}`);
  // some attention, not a uniform map: each row's largest weight well above 1/cols
  for (let r = 0; r < live.rows; r++) {
    const row = live.weights.slice(r * live.cols, (r + 1) * live.cols);
    assert.ok(Math.max(...row) > 2 / live.cols, `row ${r}: ${row}`);
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'notebook-1024.png'), fullPage: true });
});

test('typing another date re-runs the model in the page and redraws the map', async () => {
  const input = page.locator('.attnlab-output[data-attnlab-kind="model"] input[type="text"]');
  const before = await drawn('model');
  for (const text of ['3/4/1999', 'jan 9, 2001', 'zz']) {
    await input.fill(text);
    await page.waitForFunction((t) => {
      const r = document.querySelector('.attnlab-output[data-attnlab-kind="model"]');
      return r.dataset.attnlabState === 'ready' && r.dataset.attnlabInput === t;
    }, text);
    const live = await drawn('model');
    const node = await runInNode(text);
    assert.equal(live.output, node.output, text);
    assert.deepEqual([live.rows, live.cols], [node.rows, node.cols], text);
    assert.deepEqual(live.colLabels, node.colLabels, text); // 'zz': '<unk>' twice
    const { d, at } = worst(live.weights, node.weights);
    assert.ok(d <= 1e-6, `${text}: page vs Node: worst |Δ| ${d} at ${at}`);
    assert.notDeepEqual(live.weights, before.weights);
  }
  const status = await page
    .locator('.attnlab-output[data-attnlab-kind="model"] .status')
    .textContent();
  assert.match(status, /Ran in your browser .* \d+ output × 2 input tokens/);
  await input.fill('3/4/1999');
  await page.waitForFunction(
    () =>
      document.querySelector('.attnlab-output[data-attnlab-kind="model"]').dataset.attnlabInput ===
      '3/4/1999',
  );
  assert.deepEqual(
    problems.filter((p) => !p.includes('ERR_BLOCKED_BY_CLIENT')),
    [],
  );
});

test('several outputs on one page do not clash, inserted as JupyterLab inserts them (scripts re-created); save() pages work', async () => {
  // four outputs of show() (two live views of the exported file, one heatmap displayed twice: the
  // same id twice), in one document, added after the page loaded: innerHTML, then each <script> replaced by a new one (JupyterLab's
  // and VS Code's way; innerHTML alone runs no script)
  const code =
    'import sys, json; from attnlab.show import show\n' +
    'm = sys.argv[1]\n' +
    'h = show([[0.25, 0.75], [1, 0]], rows="ab", cols="xy").html\n' +
    'show(m, input="jan 9, 2001").save(sys.argv[2])\n' +
    'print(json.dumps([show(m, input="22 nov 2026").html, show(m, input="3/4/1999").html, h, h]))';
  const outputs = JSON.parse(
    execFileSync(
      VENV_PYTHON,
      ['-c', code, path.join(dir, 'dates-tiny.safetensors'), path.join(dir, 'saved.html')],
      { cwd: dir, env: jupyterEnv(), encoding: 'utf8', maxBuffer: 64 << 20 },
    ),
  );
  const p2 = await browser.newPage({ viewport: { width: 1024, height: 900 } });
  const errors = [];
  p2.on('pageerror', (err) => errors.push(err.message));
  p2.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  await p2.route('**/*', (route) =>
    route.request().url().startsWith('data:')
      ? route.continue()
      : (errors.push(`request ${route.request().url()}`), route.abort()),
  );
  await p2.setContent('<!doctype html><meta charset="utf-8"><main></main>');
  await p2.evaluate((outputs) => {
    for (const h of outputs) {
      const cell = document.createElement('div');
      cell.innerHTML = h;
      document.querySelector('main').append(cell);
      for (const old of cell.querySelectorAll('script:not([type="application/json"])')) {
        const s = document.createElement('script');
        s.textContent = old.textContent;
        old.replaceWith(s);
      }
    }
  }, outputs);
  await p2.waitForFunction(
    () =>
      [...document.querySelectorAll('.attnlab-output')].filter(
        (r) => r.dataset.attnlabState === 'ready',
      ).length === 4,
  );
  const ids = await p2.evaluate(() =>
    [...document.querySelectorAll('.attnlab-output')].map((r) => r.id),
  );
  assert.equal(new Set(ids).size, 3);
  assert.equal(ids[2], ids[3]);
  const state = () =>
    p2.evaluate(() =>
      [...document.querySelectorAll('.attnlab-output')].map((r) => {
        const d = /** @type {any} */ (
          r.querySelector('.attnlab-mount').shadowRoot.querySelector('attn-heatmap')
        ).data;
        return {
          input: r.dataset.attnlabInput,
          output: r.dataset.attnlabOutput,
          weights: Array.from(d.weights),
        };
      }),
    );
  const first = await state();
  assert.deepEqual(
    first.map((s) => s.input),
    ['22 nov 2026', '3/4/1999', undefined, undefined],
  );
  assert.deepEqual(first[2].weights, [0.25, 0.75, 1, 0]);
  assert.deepEqual(first[3].weights, [0.25, 0.75, 1, 0]);
  for (const [i, text] of [
    [0, '22 nov 2026'],
    [1, '3/4/1999'],
  ]) {
    const { d } = worst(first[i].weights, (await runInNode(text)).weights);
    assert.ok(d <= 1e-6, `output ${i}: ${d}`);
  }
  // typing in the second live view redraws it alone
  await p2.locator('.attnlab-output >> nth=1').locator('input[type="text"]').fill('jan 9, 2001');
  await p2.waitForFunction(
    () =>
      document.querySelectorAll('.attnlab-output')[1].dataset.attnlabInput === 'jan 9, 2001' &&
      document.querySelectorAll('.attnlab-output')[1].dataset.attnlabState === 'ready',
  );
  const next = await state();
  assert.deepEqual(next[0], first[0]);
  assert.deepEqual(next[2], first[2]);
  assert.ok(worst(next[1].weights, (await runInNode('jan 9, 2001')).weights).d <= 1e-6);
  // Shown.save(): a page of its own, from file://
  await p2.unroute('**/*');
  await p2.route('**/*', (route) =>
    route.request().url() === pathToFileURL(path.join(dir, 'saved.html')).href
      ? route.continue()
      : (errors.push(`request ${route.request().url()}`), route.abort()),
  );
  await p2.goto(pathToFileURL(path.join(dir, 'saved.html')).href);
  await p2.waitForFunction(
    () => document.querySelector('.attnlab-output')?.dataset.attnlabState === 'ready',
  );
  assert.equal(
    await p2.evaluate(() => document.querySelector('.attnlab-output').dataset.attnlabOutput),
    (await runInNode('jan 9, 2001')).output,
  );
  assert.deepEqual(errors, []);
  await p2.close();
});

test('on a 390 px phone the outputs fit the width', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300); // the heatmaps re-fit on resize (one frame)
  for (const kind of ['heatmap', 'model']) {
    const box = await page
      .locator(`.attnlab-output[data-attnlab-kind="${kind}"] .attnlab-mount`)
      .boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390 + 0.5, `${kind}: ${JSON.stringify(box)}`);
  }
  await page.screenshot({ path: path.join(SCREENSHOTS, 'notebook-390.png'), fullPage: true });
});

let transformerHtml;

test('transformer.ipynb trains a hand-built nn.TransformerEncoder and attnlab.attention reads its 2 × 4 heads', () => {
  transformerHtml = execute('transformer', { allowErrors: true });
  assert.deepEqual(
    kernelPaths(transformerHtml),
    kernelPaths(html),
    'the same venv kernel as dates.ipynb',
  );
  const text = transformerHtml.replace(/<[^>]+>/g, '');
  // trained (seeded, ~2 s): it says the sentence backwards
  assert.match(text, /step 300: loss [\d.]+, 100% of the words right/);
  assert.match(text, /output: mat on sat cat big the/);
  // attnlab.attention: one [1, 4, 6, 6] per layer; the first layer's heads read the mirrored word
  assert.match(text, /2 layers: \[\[1, 4, 6, 6\], \[1, 4, 6, 6\]\]/);
  const row = '\\[5, 4, 3, 2, 1, 0\\]';
  assert.match(text, new RegExp(`layer 0: [^\\n]*: \\[${Array(4).fill(row).join(', ')}\\]`));
});

test('transformer.ipynb: attnlab.show(attnlab.attention(encoder, x), tokens=words) draws every layer and head offline', async () => {
  assert.doesNotMatch(transformerHtml, /Traceback|Error<\/span>/, 'no cell raised');
  const file = pathToFileURL(path.join(dir, 'transformer.html')).href;
  const p3 = await browser.newPage({ viewport: { width: 1024, height: 900 } });
  const errors = [];
  p3.on('pageerror', (err) => errors.push(err.message));
  p3.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().includes('ERR_BLOCKED_BY_CLIENT'))
      errors.push(msg.text());
  });
  const others = [];
  await p3.route('**/*', (route) => {
    const url = route.request().url();
    if (url === file || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    others.push(url);
    return route.abort('blockedbyclient');
  });
  await p3.goto(file);
  await p3.waitForFunction(
    () => {
      const roots = [...document.querySelectorAll('.attnlab-output')];
      return roots.length === 1 && roots[0].dataset.attnlabState === 'ready';
    },
    null,
    { timeout: 30_000 },
  );
  // nbconvert's template scripts (require.js, MathJax) are the only other requests
  assert.ok(
    others.every((u) => /require|mathjax/i.test(u)),
    `requests: ${others.join(', ')}`,
  );
  // every map drawn: each <attn-heatmap> under the output (through shadow roots) has ink
  const maps = await p3.evaluateHandle(() => {
    const found = [];
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.localName === 'attn-heatmap') found.push(el);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document.querySelector('.attnlab-output'));
    return found;
  });
  const count = await maps.evaluate((m) => m.length);
  assert.equal(count, 1, 'one enlarged <attn-heatmap>');
  // the grid: 2 layers × 4 heads, a thumbnail each, every one with ink, the words on the big map
  const thumbs = await p3.evaluate(() => {
    const shadow = document.querySelector('.attnlab-output .attnlab-mount').shadowRoot;
    return [...shadow.querySelectorAll('button.thumb')].map((b) => {
      const c = b.querySelector('canvas');
      const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let ink = 0;
      for (let k = 0; k < px.length; k += 4) if (px[k + 3] > 0) ink++;
      return { layer: b.dataset.layer, head: b.dataset.head, ink, total: px.length / 4 };
    });
  });
  assert.deepEqual(
    thumbs.map((x) => `${x.layer}/${x.head}`),
    ['0/0', '0/1', '0/2', '0/3', '1/0', '1/1', '1/2', '1/3'],
  );
  for (const x of thumbs) assert.ok(x.ink === x.total, `thumbnail ${x.layer}/${x.head} drawn`);
  for (let i = 0; i < count; i++) {
    const el = await maps.evaluateHandle((m, i) => m[i], i);
    const ink = await canvasInk(el.asElement());
    assert.ok(ink.ink > ink.total / 10, `map ${i}: ${ink.ink} of ${ink.total} pixels drawn`);
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  await p3.screenshot({
    path: path.join(SCREENSHOTS, 'notebook-transformer-1024.png'),
    fullPage: true,
  });
  await p3.setViewportSize({ width: 390, height: 844 });
  await p3.waitForTimeout(300);
  const box = await p3.locator('.attnlab-output').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390 + 0.5, JSON.stringify(box));
  await p3.screenshot({
    path: path.join(SCREENSHOTS, 'notebook-transformer-390.png'),
    fullPage: true,
  });
  assert.deepEqual(errors, []);
  await p3.close();
});
