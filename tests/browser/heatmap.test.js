// heatmap.test.js: <attn-heatmap> in Chromium with synthetic data (tests/browser/heatmap.html).
// Needs no wasm, so it runs before the library is built.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { canvasInk, screenshot, startBrowser } from './harness.js';

let browser;
let page;
let problems;

before(async () => {
  browser = await startBrowser();
  ({ page, problems } = await browser.newPage());
  await page.goto(`${browser.url}/tests/browser/heatmap.html`);
  await page.waitForFunction(() => window.fixture?.ready);
  await page.evaluate(() => document.getElementById('plain').whenRendered());
});

after(async () => {
  if (page) await screenshot(page, 'heatmap-fixture').catch(() => {});
  await browser?.close();
});

const plain = () => page.locator('#plain');
const live = () => plain().evaluate((el) => el.shadowRoot.querySelector('[aria-live]').textContent);

test('importing the module does not register the element; define() does, idempotently', async () => {
  const result = await page.evaluate(async () => {
    const mod = await import('/web/attention-heatmap.js');
    return {
      onImport: window.fixture.registeredOnImport,
      same: mod.define() === customElements.get('attn-heatmap'),
      again: mod.define() === mod.define(),
      otherTag: typeof mod.define('other-heatmap'),
      embed: (await import('/web/embed.js')).AttentionHeatmap === mod.AttentionHeatmap,
    };
  });
  assert.deepEqual(result, { onImport: false, same: true, again: true, otherTag: 'function', embed: true });
});

test('draws the matrix: the canvas has ink', async () => {
  const { total, ink } = await canvasInk(plain());
  assert.ok(total > 1000, `canvas is only ${total} pixels`);
  assert.ok(ink / total > 0.2, `only ${ink} of ${total} pixels differ from the background`);
});

test('a weights array of the wrong length throws, shows and announces a clear error', async () => {
  const r = await plain().evaluate((el) => {
    const before = el.data;
    let message = null;
    let name = null;
    try {
      el.data = { weights: new Float32Array(5), rows: 2, cols: 3 };
    } catch (err) {
      ({ message, name } = err);
    }
    const error = el.shadowRoot.querySelector('[part="error"]');
    const out = {
      name,
      message,
      visible: !error.hidden,
      shown: error.textContent,
      announced: el.shadowRoot.querySelector('[aria-live]').textContent,
      kept: el.data === before,
    };
    el.data = before; // a valid value clears the error
    out.clearedAfter = error.hidden;
    return out;
  });
  assert.equal(r.name, 'RangeError');
  assert.match(r.message, /5 values but rows × cols = 2 × 3 = 6/);
  assert.equal(r.shown, r.message);
  assert.equal(r.announced, r.message);
  assert.ok(r.visible && r.kept && r.clearedAfter);
});

test('other bad data is rejected with a reason', async () => {
  const messages = await page.evaluate(() => {
    const el = document.createElement('attn-heatmap');
    const attempts = [
      { weights: new Float32Array(4), rows: 0, cols: 4 },
      { weights: new Float32Array(4), rows: 2, cols: 2.5 },
      { weights: null, rows: 2, cols: 2 },
      { weights: new Float32Array(4), rows: 2, cols: 2, rowLabels: ['a'] },
      'nope',
    ];
    return attempts.map((data) => {
      try {
        el.data = data;
        return 'accepted';
      } catch (err) {
        return err.message;
      }
    });
  });
  assert.match(messages[0], /rows must be a positive integer/);
  assert.match(messages[1], /cols must be a positive integer/);
  assert.match(messages[2], /weights must be a Float32Array/);
  assert.match(messages[3], /rowLabels has 1 entries but the matrix has 2/);
  assert.match(messages[4], /data must be/);
});

test('many updates in one task render once, on the next animation frame', async () => {
  const renders = await page.evaluate(async () => {
    const el = document.getElementById('plain');
    let count = 0;
    el.addEventListener('heatmap-render', () => count++);
    const { data } = el;
    for (let i = 0; i < 5; i++) {
      el.data = { ...data };
      el.setAttribute('max', String(0.5 + i / 10));
    }
    el.removeAttribute('max');
    const synchronous = count;
    await el.whenRendered();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return { synchronous, total: count };
  });
  assert.deepEqual(renders, { synchronous: 0, total: 1 });
});

test('arrow keys move the focused cell and the live region announces its value', async () => {
  const expected = async (row, col) =>
    page.evaluate(async ([row, col]) => {
      const { formatValue } = await import('/web/shared/draw.js');
      const d = document.getElementById('plain').data;
      return `${d.rowLabels[row]}, ${d.colLabels[col]}: ${formatValue(d.weights[row * d.cols + col])}`;
    }, [row, col]);
  await plain().evaluate((el) => el.focusCell(0, 0));
  await plain().focus();
  assert.equal(await live(), await expected(0, 0)); // focusing announces the current cell
  const before = await live();
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await plain().evaluate((el) => [el.focusedCell.row, el.focusedCell.col]), [0, 1]);
  assert.equal(await live(), await expected(0, 1));
  assert.notEqual(await live(), before);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.equal(await live(), await expected(2, 1));
  await page.keyboard.press('End');
  assert.equal(await live(), await expected(2, 8));
  await page.keyboard.press('ArrowRight'); // clamped at the edge
  assert.equal(await live(), await expected(2, 8));
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  assert.equal(await live(), await expected(0, 0));
  await page.keyboard.press('Control+End');
  assert.equal(await live(), await expected(5, 8));
  await page.keyboard.press('PageUp');
  assert.equal(await live(), await expected(0, 8));
  // The text contains the hostile-looking label as text; nothing was parsed as HTML.
  await plain().evaluate((el) => el.focusCell(2, 0));
  assert.equal(await live(), await expected(2, 0));
  assert.match(await live(), /^<b>sat<\/b>, k0: /);
  assert.equal(await page.evaluate(() => document.querySelectorAll('b').length), 0);
});

test('the focused cell is outlined while the heatmap has focus', async () => {
  await plain().evaluate((el) => el.focusCell(0, 0));
  await plain().focus();
  await plain().evaluate((el) => el.whenRendered());
  const focused = await canvasInk(plain());
  await page.evaluate(() => document.activeElement.blur());
  await plain().evaluate((el) => el.whenRendered());
  const blurred = await canvasInk(plain());
  assert.notEqual(focused.ink, blurred.ink);
});

test('hovering shows a tooltip with the cell value; clicking focuses that cell', async () => {
  // Find cell (1, 3) by probing the canvas with synthetic pointer moves (no layout assumed).
  const cellCentre = await plain().evaluate(async (el) => {
    const canvas = el.shadowRoot.querySelector('canvas');
    const box = canvas.getBoundingClientRect();
    // Probe: move across the canvas until the tooltip names row 1, col 3.
    for (let y = 0; y < box.height; y += 3) {
      for (let x = 0; x < box.width; x += 3) {
        canvas.dispatchEvent(new PointerEvent('pointermove', { clientX: box.x + x, clientY: box.y + y, bubbles: true }));
        const tip = el.shadowRoot.querySelector('.tooltip');
        if (!tip.hidden && tip.textContent.startsWith('cat, k3:')) return { x: box.x + x + 4, y: box.y + y + 4 };
      }
    }
    return null;
  });
  assert.ok(cellCentre, 'no point on the canvas shows the tooltip for cat, k3');
  await page.mouse.move(cellCentre.x, cellCentre.y);
  const tip = await plain().evaluate((el) => {
    const t = el.shadowRoot.querySelector('.tooltip');
    return { hidden: t.hidden, text: t.textContent };
  });
  assert.equal(tip.hidden, false);
  assert.match(tip.text, /^cat, k3: 0\.\d+/);
  await page.mouse.down();
  await page.mouse.up();
  assert.deepEqual(await plain().evaluate((el) => [el.focusedCell.row, el.focusedCell.col]), [1, 3]);
  assert.match(await live(), /^cat, k3: /);
  await page.mouse.move(0, 0);
  assert.equal(await plain().evaluate((el) => el.shadowRoot.querySelector('.tooltip').hidden), true);
});

test('a visually hidden table is the text alternative', async () => {
  const table = await plain().evaluate((el) => {
    const t = el.shadowRoot.querySelector('table');
    return {
      caption: t.caption.textContent,
      rows: t.rows.length,
      cols: t.rows[0].cells.length,
      firstRowHeader: t.rows[3].cells[0].textContent,
      injected: t.querySelectorAll('b').length,
      width: t.parentElement.getBoundingClientRect().width,
    };
  });
  assert.match(table.caption, /^Synthetic 6 × 9: 6 rows by 9 columns, colour scale from /);
  assert.equal(table.rows, 7);
  assert.equal(table.cols, 10);
  assert.equal(table.firstRowHeader, '<b>sat</b>');
  assert.equal(table.injected, 0);
  assert.ok(table.width <= 1);
});

test('exports: PNG, SVG, CSV and JSON hold the data, and labels stay text', async () => {
  const r = await plain().evaluate(async (el) => {
    const png = await el.toPNG();
    const head = new Uint8Array(await png.slice(0, 8).arrayBuffer());
    const svg = el.toSVG();
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    return {
      pngType: png.type,
      pngSize: png.size,
      pngHead: Array.from(head),
      svgError: doc.querySelector('parsererror')?.textContent ?? null,
      svgRects: doc.querySelectorAll('g rect').length,
      svgTexts: Array.from(doc.querySelectorAll('text'), (t) => t.textContent),
      svgInjected: doc.getElementsByTagName('b').length,
      csv: el.toCSV(),
      json: JSON.parse(JSON.stringify(el)),
      weights: Array.from(el.data.weights),
    };
  });
  assert.equal(r.pngType, 'image/png');
  assert.ok(r.pngSize > 500, `PNG of ${r.pngSize} bytes`);
  assert.deepEqual(r.pngHead, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(r.svgError, null);
  assert.equal(r.svgRects, 6 * 9 + 1); // cells + legend bar
  assert.ok(r.svgTexts.includes('<b>sat</b>'));
  assert.equal(r.svgInjected, 0);
  const lines = r.csv.trimEnd().split('\r\n');
  assert.equal(lines.length, 7);
  assert.equal(lines[0], ',k0,k1,k2,k3,k4,k5,k6,k7,k8');
  assert.ok(lines[3].startsWith('<b>sat</b>,'));
  const csvValues = lines.slice(1).flatMap((l) => l.split(',').slice(1).map(Number));
  assert.deepEqual(csvValues.map(Math.fround), r.weights);
  assert.equal(r.json.rows, 6);
  assert.equal(r.json.cols, 9);
  assert.equal(r.json.label, 'Synthetic 6 × 9');
  assert.deepEqual(r.json.weights.map(Math.fround), r.weights);
});

test('the toolbar buttons download files', async () => {
  for (const [kind, minimum] of [['png', 500], ['svg', 500], ['csv', 50], ['json', 50]]) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator(`#plain button[data-export="${kind}"]`).click(),
    ]);
    assert.equal(download.suggestedFilename(), `synthetic-6-9.${kind}`);
    const stream = await download.createReadStream();
    let size = 0;
    for await (const chunk of stream) size += chunk.length;
    assert.ok(size >= minimum, `${kind} download is ${size} bytes`);
  }
});

test('cell-size, min and max attributes are honoured', async () => {
  const r = await page.locator('#fixed').evaluate(async (el) => {
    await el.whenRendered();
    const canvas = el.shadowRoot.querySelector('canvas');
    const before = canvas.getBoundingClientRect().height;
    el.setAttribute('cell-size', '30');
    await el.whenRendered();
    const after = canvas.getBoundingClientRect().height;
    const json = el.toJSON();
    return { before, after, min: json.min, max: json.max };
  });
  assert.equal(r.min, 0);
  assert.equal(r.max, 1);
  assert.equal(r.after - r.before, 3 * (30 - 20)); // 3 rows, 10 px taller each
});

test('big matrices render and summarise instead of building a huge table', async () => {
  const r = await page.evaluate(async () => {
    const el = document.createElement('attn-heatmap');
    el.setAttribute('label', 'Big');
    document.body.append(el);
    el.data = { weights: window.fixture.synthetic(200, 300), rows: 200, cols: 300 };
    await el.whenRendered();
    const out = {
      table: el.shadowRoot.querySelector('table') !== null,
      summary: el.shadowRoot.querySelector('.visually-hidden p')?.textContent,
      width: el.shadowRoot.querySelector('canvas').width,
    };
    el.remove();
    return out;
  });
  assert.equal(r.table, false);
  assert.match(r.summary, /^Big: 200 rows by 300 columns/);
  assert.ok(r.width > 0);
});

// Labels spread into Math.max overflowed the stack from about 100,000 (200,000 always does), and a
// grid that long at the 2 px minimum cell is wider than any canvas Chromium allocates: nothing drew.
for (const [rows, cols] of [[1, 200_000], [200_000, 1]]) {
  test(`a ${rows} × ${cols} matrix (labelled) draws, within a bounded canvas, without errors`, async () => {
    const r = await page.evaluate(async ([rows, cols]) => {
      const el = document.createElement('attn-heatmap');
      el.setAttribute('label', 'Huge');
      document.body.append(el);
      const weights = new Float32Array(rows * cols);
      for (let i = 0; i < weights.length; i++) weights[i] = (i % 1000) / 1000;
      const labels = (n, p) => Array.from({ length: n }, (_, i) => `${p}${i}`);
      const errors = [];
      const onError = (e) => errors.push(String(e.message ?? e.reason));
      window.addEventListener('error', onError);
      window.addEventListener('unhandledrejection', onError);
      const started = performance.now();
      try {
        el.data = { weights, rows, cols, rowLabels: labels(rows, 'q'), colLabels: labels(cols, 'k') };
        el.flush(); // draw now, so an exception surfaces here rather than in a frame callback
      } catch (err) {
        errors.push(err.message);
      }
      const ms = performance.now() - started;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onError);
      const canvas = el.shadowRoot.querySelector('canvas');
      // Ink inside the grid area only (the legend alone would also count as ink).
      const copy = document.createElement('canvas');
      copy.width = canvas.width;
      copy.height = canvas.height;
      const ctx = copy.getContext('2d', { willReadFrequently: true });
      ctx.drawImage(canvas, 0, 0);
      const grid = ctx.getImageData(0, 0, Math.min(canvas.width, 400), Math.min(canvas.height, 400)).data;
      const colours = new Set();
      for (let i = 0; i < grid.length; i += 4) colours.add(`${grid[i]},${grid[i + 1]},${grid[i + 2]}`);
      el.focusCell(rows - 1, cols - 1); // the last cell is reachable by keyboard
      const focused = el.focusedCell;
      el.remove();
      return { errors, ms, width: canvas.width, height: canvas.height, colours: colours.size, focused: [focused.row, focused.col] };
    }, [rows, cols]);
    assert.deepEqual(r.errors, []);
    assert.ok(r.width > 0 && r.height > 0, `canvas ${r.width} × ${r.height}`);
    assert.ok(r.width <= 16384 && r.height <= 16384, `canvas ${r.width} × ${r.height} is too large to allocate`);
    assert.ok(r.colours > 20, `only ${r.colours} colours: the grid was not drawn`);
    assert.deepEqual(r.focused, [rows - 1, cols - 1]);
    assert.ok(r.ms < 5000, `drawing took ${r.ms.toFixed(0)} ms`);
  });
}

test('removing the element detaches its listeners; re-adding restores them', async () => {
  const r = await plain().evaluate(async (el) => {
    const parent = el.parentNode;
    const next = el.nextSibling;
    const plot = el.shadowRoot.querySelector('.plot');
    el.focusCell(0, 0);
    el.remove();
    plot.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    const whileDetached = el.focusedCell.col;
    let renders = 0;
    el.addEventListener('heatmap-render', () => renders++);
    el.setAttribute('max', '0.9'); // no render is scheduled while detached
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const rendersWhileDetached = renders;
    parent.insertBefore(el, next);
    el.removeAttribute('max');
    await el.whenRendered();
    plot.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    return { whileDetached, rendersWhileDetached, afterReattach: el.focusedCell.col, rendered: renders };
  });
  assert.deepEqual(r, { whileDetached: 0, rendersWhileDetached: 0, afterReattach: 1, rendered: 1 });
});

test('dark colour scheme redraws with a dark background', async () => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await plain().evaluate((el) => el.whenRendered());
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const { background, ink, total } = await canvasInk(plain());
  assert.ok(background[0] + background[1] + background[2] < 3 * 100, `background ${background}`);
  assert.ok(ink / total > 0.2);
  await screenshot(page, 'heatmap-fixture-dark');
  await page.emulateMedia({ colorScheme: 'light' });
});

test('no console errors, failed requests or requests off the test server', () => {
  assert.deepEqual(problems, []);
  assert.deepEqual(browser.foreign, []);
});
