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
  assert.deepEqual(result, {
    onImport: false,
    same: true,
    again: true,
    otherTag: 'function',
    embed: true,
  });
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
    page.evaluate(
      async ([row, col]) => {
        const { formatValue } = await import('/web/shared/draw.js');
        const d = document.getElementById('plain').data;
        return `${d.rowLabels[row]}, ${d.colLabels[col]}: ${formatValue(d.weights[row * d.cols + col])}`;
      },
      [row, col],
    );
  await plain().evaluate((el) => el.focusCell(0, 0));
  await plain().focus();
  assert.equal(await live(), await expected(0, 0)); // focusing announces the current cell
  const before = await live();
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(
    await plain().evaluate((el) => [el.focusedCell.row, el.focusedCell.col]),
    [0, 1],
  );
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
        canvas.dispatchEvent(
          new PointerEvent('pointermove', {
            clientX: box.x + x,
            clientY: box.y + y,
            bubbles: true,
          }),
        );
        const tip = el.shadowRoot.querySelector('.tooltip');
        if (!tip.hidden && tip.textContent.startsWith('cat, k3:'))
          return { x: box.x + x + 4, y: box.y + y + 4 };
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
  assert.deepEqual(
    await plain().evaluate((el) => [el.focusedCell.row, el.focusedCell.col]),
    [1, 3],
  );
  assert.match(await live(), /^cat, k3: /);
  await page.mouse.move(0, 0);
  assert.equal(
    await plain().evaluate((el) => el.shadowRoot.querySelector('.tooltip').hidden),
    true,
  );
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
  assert.equal(lines.length, 6 + 6); // title, model, input, output, a blank record, the header; 6 rows
  assert.equal(lines[0], 'title,Synthetic 6 × 9,,,,,,,,');
  assert.equal(lines[5], 'row \\ column,k0,k1,k2,k3,k4,k5,k6,k7,k8');
  assert.ok(lines[8].startsWith('<b>sat</b>,'));
  assert.ok(
    lines[6].startsWith('the (1),') && lines[10].startsWith('the (2),'),
    'duplicate row labels numbered',
  );
  const csvValues = lines.slice(6).flatMap((l) => l.split(',').slice(1).map(Number));
  assert.deepEqual(csvValues.map(Math.fround), r.weights);
  assert.equal(r.json.rows, 6);
  assert.equal(r.json.cols, 9);
  assert.equal(r.json.label, 'Synthetic 6 × 9');
  assert.deepEqual(r.json.weights.map(Math.fround), r.weights);
});

test('the toolbar buttons download files', async () => {
  for (const [kind, minimum] of [
    ['png', 500],
    ['svg', 500],
    ['csv', 50],
    ['json', 50],
  ]) {
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
for (const [rows, cols] of [
  [1, 200_000],
  [200_000, 1],
]) {
  test(`a ${rows} × ${cols} matrix (labelled) draws, within a bounded canvas, without errors`, async () => {
    const r = await page.evaluate(
      async ([rows, cols]) => {
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
          el.data = {
            weights,
            rows,
            cols,
            rowLabels: labels(rows, 'q'),
            colLabels: labels(cols, 'k'),
          };
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
        const grid = ctx.getImageData(
          0,
          0,
          Math.min(canvas.width, 400),
          Math.min(canvas.height, 400),
        ).data;
        const colours = new Set();
        for (let i = 0; i < grid.length; i += 4)
          colours.add(`${grid[i]},${grid[i + 1]},${grid[i + 2]}`);
        el.focusCell(rows - 1, cols - 1); // the last cell is reachable by keyboard
        const focused = el.focusedCell;
        el.remove();
        return {
          errors,
          ms,
          width: canvas.width,
          height: canvas.height,
          colours: colours.size,
          focused: [focused.row, focused.col],
        };
      },
      [rows, cols],
    );
    assert.deepEqual(r.errors, []);
    assert.ok(r.width > 0 && r.height > 0, `canvas ${r.width} × ${r.height}`);
    assert.ok(
      r.width <= 16384 && r.height <= 16384,
      `canvas ${r.width} × ${r.height} is too large to allocate`,
    );
    assert.ok(r.colours > 20, `only ${r.colours} colours: the grid was not drawn`);
    assert.deepEqual(r.focused, [rows - 1, cols - 1]);
    // printed, not asserted (a shared machine): the bounded canvas above is what bounds the work
    console.log(`# ${rows} × ${cols}: drawn in ${r.ms.toFixed(0)} ms`);
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
    return {
      whileDetached,
      rendersWhileDetached,
      afterReattach: el.focusedCell.col,
      rendered: renders,
    };
  });
  assert.deepEqual(r, { whileDetached: 0, rendersWhileDetached: 0, afterReattach: 1, rendered: 1 });
});

test('dark colour scheme redraws with a dark background', async () => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await plain().evaluate((el) => el.whenRendered());
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
  );
  const { background, ink, total } = await canvasInk(plain());
  assert.ok(background[0] + background[1] + background[2] < 3 * 100, `background ${background}`);
  assert.ok(ink / total > 0.2);
  await screenshot(page, 'heatmap-fixture-dark');
  await page.emulateMedia({ colorScheme: 'light' });
});

// ---- issue 18: labels that thin out instead of vanishing, markers, the colour scale, exports ----

/** RFC 4180 records: quoted fields (with "" for a quote, and line breaks inside), CRLF between. */
function parseCSV(text) {
  const records = [];
  let record = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') {
        quoted = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') {
      quoted = true;
      i++;
      continue;
    }
    if (ch === ',') {
      record.push(field);
      field = '';
      i++;
      continue;
    }
    if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 2;
      continue;
    }
    assert.ok(
      ch !== '"' && ch !== '\n' && ch !== '\r',
      `bare ${JSON.stringify(ch)} at ${i}: not RFC 4180`,
    );
    field += ch;
    i++;
  }
  assert.equal(field, '', 'the last record ends with CRLF');
  assert.equal(record.length, 0);
  return records;
}

/** A fresh <attn-heatmap> in the page (id, attributes), with data built in the page by build(). */
async function addHeatmap(id, attrs, build) {
  await page.evaluate(
    ([id, attrs, build]) => {
      document.getElementById(id)?.remove();
      const el = document.createElement('attn-heatmap');
      el.id = id;
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      document.body.append(el);
      el.data = (0, eval)(`(${build})`)(window.fixture);
      return el.whenRendered();
    },
    [id, attrs, build.toString()],
  );
  return page.locator(`#${id}`);
}

/** 40 × 40, labels 'r0'.., 'c0'.. (row 7's label is long), weights the fixture's diagonal. */
const forty = (f) => ({
  weights: f.synthetic(40, 40),
  rows: 40,
  cols: 40,
  rowLabels: Array.from({ length: 40 }, (_, i) =>
    i === 7 ? 'a-very-long-row-label-of-twenty-six' : `r${i}`,
  ),
  colLabels: Array.from({ length: 40 }, (_, i) => `c${i}`),
});

test('small cells: every k-th label is drawn, k from the cell size, and none overlap', async () => {
  for (const size of [3, 5, 8, 11, 12, 20]) {
    const map = await addHeatmap('thin', { 'cell-size': String(size), label: 'Thin' }, forty);
    const r = await map.evaluate(async (el) => {
      const { LAYOUT, labelStep } = await import('/web/shared/draw.js');
      const d = el.drawnLabels;
      return {
        d,
        line: LAYOUT.labelLine,
        expected: labelStep(d.cellHeight),
        expectedCol: labelStep(d.cellWidth, d.colExtent),
      };
    });
    const { d, line } = r;
    assert.equal(d.cellHeight, size);
    assert.equal(d.rowStep, r.expected, `cell ${size}: row step`);
    assert.equal(d.rowStep, Math.max(1, Math.ceil(line / size)));
    assert.ok(
      d.rows.length >= Math.floor(40 / d.rowStep),
      `cell ${size}: ${d.rows.length} row labels drawn`,
    );
    assert.ok(
      d.cols.length >= Math.floor(40 / d.colStep),
      `cell ${size}: ${d.cols.length} column labels drawn`,
    );
    assert.deepEqual(
      d.rows,
      Array.from({ length: Math.ceil(40 / d.rowStep) }, (_, i) => i * d.rowStep),
    );
    for (let i = 1; i < d.rows.length; i++)
      assert.ok(
        (d.rows[i] - d.rows[i - 1]) * d.cellHeight >= line,
        `cell ${size}: rows ${d.rows[i - 1]}, ${d.rows[i]} overlap`,
      );
    assert.equal(d.colStep, r.expectedCol, `cell ${size}: column step`);
    assert.equal(d.colExtent, d.rotated ? line : d.colExtent, 'rotated labels need a line across');
    for (let i = 1; i < d.cols.length; i++)
      assert.ok(
        (d.cols[i] - d.cols[i - 1]) * d.cellWidth >= d.colExtent,
        `cell ${size}: columns overlap`,
      );
    if (size >= line) assert.equal(d.rows.length, 40, 'big enough cells: every label');
  }
  // The labels really are on the canvas: ink left of the grid, in the row-label gutter.
  const map = await addHeatmap('thin', { 'cell-size': '5', label: 'Thin' }, forty);
  const gutter = await map.evaluate((el) => {
    const { gridX, gridY } = el.drawnLabels;
    const canvas = el.shadowRoot.querySelector('canvas');
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const ctx = copy.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(canvas, 0, 0);
    const scale = canvas.width / parseFloat(canvas.style.width);
    // left of the grid, rows 20 to 40 (row 7's long label is above them): the short labels only
    const y0 = Math.round((gridY + 20 * 5) * scale);
    const { data } = ctx.getImageData(
      0,
      y0,
      Math.round((gridX - 1) * scale),
      Math.round(20 * 5 * scale),
    );
    let ink = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] + data[i + 1] + data[i + 2] < 600) ink++;
    return ink;
  });
  assert.ok(gutter > 20, `only ${gutter} dark pixels where the row labels go`);
  await screenshot(page, 'heatmap-thinned-labels');
});

test('hovering a cell draws its row and column labels (bold) even between the k-th ones; the tooltip has them in full', async () => {
  const map = await addHeatmap('thin', { 'cell-size': '5', label: 'Thin' }, forty);
  const r = await map.evaluate(async (el) => {
    const before = el.drawnLabels;
    const canvas = el.shadowRoot.querySelector('canvas');
    const box = canvas.getBoundingClientRect();
    // probe for the cell (7, 10): neither is a multiple of the step
    let at = null;
    for (let y = 0; y < box.height && !at; y += 1) {
      for (let x = 0; x < box.width; x += 1) {
        canvas.dispatchEvent(
          new PointerEvent('pointermove', {
            clientX: box.x + x,
            clientY: box.y + y,
            bubbles: true,
          }),
        );
        const tip = el.shadowRoot.querySelector('.tooltip');
        if (
          !tip.hidden &&
          tip.textContent.startsWith('a-very-long-row-label-of-twenty-six, c10:')
        ) {
          at = [x, y];
          break;
        }
      }
    }
    await el.whenRendered();
    const after = el.drawnLabels;
    const tip = el.shadowRoot.querySelector('.tooltip').textContent;
    canvas.dispatchEvent(new PointerEvent('pointerleave', { bubbles: true }));
    await el.whenRendered();
    return { before, after, tip, found: at !== null, left: el.drawnLabels };
  });
  assert.ok(r.found, 'no point shows the tooltip of cell (7, 10)');
  const k = r.before.rowStep;
  assert.ok(
    k > 1 && 7 % k !== 0 && 10 % r.before.colStep !== 0,
    'the hovered labels are not among the k-th ones',
  );
  assert.ok(!r.before.rows.includes(7) && !r.before.cols.includes(10));
  assert.deepEqual(r.after.pinnedRows, [7]);
  assert.deepEqual(r.after.pinnedCols, [10]);
  for (const i of r.after.rows)
    assert.ok(Math.abs(i - 7) >= k, `row label ${i} would overlap the hovered one`);
  for (const i of r.after.cols)
    assert.ok(
      Math.abs(i - 10) >= r.after.colStep,
      `column label ${i} would overlap the hovered one`,
    );
  assert.match(
    r.tip,
    /^a-very-long-row-label-of-twenty-six, c10: /,
    'the full label, not cut at 12 characters',
  );
  assert.deepEqual(r.left.pinnedRows, [], 'leaving the map drops the pinned labels');
  assert.deepEqual(r.left.rows, r.before.rows);
  // The focused cell's labels too, while the map has focus.
  const focused = await map.evaluate(async (el) => {
    el.focusCell(13, 22);
    el.shadowRoot.querySelector('.plot').focus();
    await el.whenRendered();
    const d = el.drawnLabels;
    el.shadowRoot.querySelector('.plot').blur();
    return d;
  });
  assert.deepEqual([focused.pinnedRows, focused.pinnedCols], [[13], [22]]);
});

test('the FBI-length case: 1280 px wide, 100+ character columns, labels drawn (they used to vanish)', async () => {
  const map = await addHeatmap('fbi', { label: 'FBI' }, (f) => {
    const text =
      'The FBI is chasing a criminal on the run. The FBI agent followed the suspect into the building.';
    const chars = Array.from(text);
    return {
      weights: f.synthetic(chars.length, chars.length),
      rows: chars.length,
      cols: chars.length,
      rowLabels: chars,
      colLabels: chars,
    };
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await map.evaluate((el) => {
    el.style.width = '700px';
  });
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
  );
  await map.evaluate((el) => el.whenRendered());
  const d = await map.evaluate((el) => el.drawnLabels);
  assert.ok(d.cellWidth < 12, `cells of ${d.cellWidth} px (the case that lost every label)`);
  assert.ok(
    d.rows.length > 10 && d.cols.length > 10,
    `${d.rows.length} row and ${d.cols.length} column labels`,
  );
  await map.evaluate((el) => {
    el.style.width = '';
  });
  await page.setViewportSize({ width: 1024, height: 800 });
});

test('spaces, tabs and newlines are drawn as muted markers, in the tooltip and the SVG too', async () => {
  const map = await addHeatmap('spaces', { 'cell-size': '24', label: 'Spaces' }, (f) => ({
    weights: f.synthetic(2, 4),
    rows: 2,
    cols: 4,
    rowLabels: ['a b', '\n'],
    colLabels: [' ', 'x', '\t', ' y'],
  }));
  const r = await map.evaluate(async (el) => {
    el.focusCell(1, 0);
    const live = el.shadowRoot.querySelector('[aria-live]').textContent;
    const doc = new DOMParser().parseFromString(el.toSVG(), 'image/svg+xml');
    const cols = Array.from(doc.querySelectorAll('text.col-label'), (t) => ({
      text: t.textContent,
      muted: Array.from(t.querySelectorAll('tspan[fill-opacity="0.5"]'), (s) => s.textContent),
    }));
    const rows = Array.from(doc.querySelectorAll('text.row-label'), (t) => t.textContent);
    return { live, cols, rows, csv: el.toCSV(), json: el.toJSON() };
  });
  assert.match(r.live, /^↵, ␣: /);
  assert.deepEqual(
    r.cols.map((c) => c.text),
    ['␣', 'x', '⇥', '␣y'],
  );
  assert.deepEqual(
    r.cols.map((c) => c.muted),
    [['␣'], [], ['⇥'], ['␣']],
    'only the markers are muted',
  );
  assert.deepEqual(r.rows, ['a b', '↵'], 'a space between characters stays a space');
  const header = parseCSV(r.csv)[5];
  assert.deepEqual(
    header,
    ['row \\ column', '␣', 'x', '⇥', '␣y'],
    'no blank header: markers as drawn',
  );
  assert.deepEqual(
    r.json.colLabels,
    [' ', 'x', '\t', ' y'],
    'the JSON keeps the labels as they are',
  );
});

test('scale="fixed" colours a cell on 0–1, scale="fit" on the data range; the checkbox and the caption follow', async () => {
  // weights in [0.05, 0.45]: the two scales give clearly different colours
  const map = await addHeatmap('scale', { 'cell-size': '30', label: 'Scale', min: '0' }, () => ({
    weights: new Float32Array([0.05, 0.15, 0.25, 0.45]),
    rows: 2,
    cols: 2,
    rowLabels: ['a', 'b'],
    colLabels: ['x', 'y'],
  }));
  const read = () =>
    map.evaluate(async (el) => {
      await el.whenRendered();
      const canvas = el.shadowRoot.querySelector('canvas');
      const box = canvas.getBoundingClientRect();
      // the centre of cell (1, 0) (value 0.25), found by hit-testing like the tooltip does
      let px = null;
      for (let y = 0; y < box.height && !px; y += 2) {
        for (let x = 0; x < box.width; x += 2) {
          canvas.dispatchEvent(
            new PointerEvent('pointermove', {
              clientX: box.x + x,
              clientY: box.y + y,
              bubbles: true,
            }),
          );
          const tip = el.shadowRoot.querySelector('.tooltip');
          if (!tip.hidden && tip.textContent.startsWith('b, x:')) {
            px = [x + 10, y + 10];
            break;
          }
        }
      }
      canvas.dispatchEvent(new PointerEvent('pointerleave', { bubbles: true }));
      await el.whenRendered();
      const s = canvas.width / box.width;
      const copy = document.createElement('canvas'); // read a copy: the element's own context is never read back
      copy.width = canvas.width;
      copy.height = canvas.height;
      const cctx = copy.getContext('2d', { willReadFrequently: true });
      cctx.drawImage(canvas, 0, 0);
      const rgb = Array.from(
        cctx.getImageData(Math.round(px[0] * s), Math.round(px[1] * s), 1, 1).data.slice(0, 3),
      );
      const box2 = el.shadowRoot.querySelector('input[data-scale]');
      const doc = new DOMParser().parseFromString(el.toSVG(), 'image/svg+xml');
      return {
        rgb,
        mode: el.scaleMode,
        checked: box2.checked,
        visible: !box2.parentElement.hidden,
        caption: doc.querySelector('text.legend-caption').textContent,
        ends: [
          doc.querySelector('text.legend-min').textContent,
          doc.querySelector('text.legend-max').textContent,
        ],
        json: el.toJSON(),
      };
    });
  const expected = (v, lo, hi, lang = 'en') =>
    page.evaluate(
      async ([v, lo, hi]) => {
        const { valueToColor } = await import('/web/shared/draw.js');
        return valueToColor(Math.fround(v), lo, hi);
      },
      [v, lo, hi, lang],
    );
  const caption = (key) =>
    page.evaluate(async (key) => (await import('/web/shared/i18n.js')).t('en', key), key);
  // today's behaviour (min="0", max from the data)
  const auto = await read();
  assert.deepEqual(auto.rgb, await expected(0.25, 0, Math.fround(0.45)));
  assert.equal(auto.mode, 'fit-from-0');
  assert.equal(auto.caption, await caption('heatmap.scaleFitFrom0'));
  assert.equal(auto.checked, false);
  assert.ok(auto.visible);
  // fixed: 0–1
  await map.evaluate((el) => el.setAttribute('scale', 'fixed'));
  const fixed = await read();
  assert.deepEqual(fixed.rgb, await expected(0.25, 0, 1));
  assert.deepEqual([fixed.json.min, fixed.json.max, fixed.json.scale], [0, 1, 'fixed']);
  assert.deepEqual(fixed.ends, ['0', '1']);
  assert.equal(fixed.caption, await caption('heatmap.scaleFixed'));
  assert.equal(fixed.checked, true);
  // fit: the data's own range, min attribute or not
  await map.evaluate((el) => el.setAttribute('scale', 'fit'));
  const fit = await read();
  assert.deepEqual(fit.rgb, await expected(0.25, Math.fround(0.05), Math.fround(0.45)));
  assert.deepEqual([fit.json.min, fit.json.max], [Math.fround(0.05), Math.fround(0.45)]);
  assert.equal(fit.caption, await caption('heatmap.scaleFit'));
  assert.equal(fit.checked, false);
  assert.notDeepEqual(fixed.rgb, fit.rgb);
  // the checkbox sets the attribute (and says so with an event)
  const clicked = await map.evaluate(async (el) => {
    const events = [];
    el.addEventListener('heatmap-scale', (e) => events.push(e.detail.scale));
    el.shadowRoot.querySelector('input[data-scale]').click();
    const a = el.getAttribute('scale');
    el.shadowRoot.querySelector('input[data-scale]').click();
    return { a, b: el.getAttribute('scale'), events };
  });
  assert.deepEqual(clicked, { a: 'fixed', b: 'fit', events: ['fixed', 'fit'] });
  // Chinese
  await map.evaluate((el) => el.setAttribute('lang', 'zh'));
  const zh = await map.evaluate((el) => el.shadowRoot.querySelector('label.scale').textContent);
  assert.equal(
    zh,
    await page.evaluate(async () =>
      (await import('/web/shared/i18n.js')).t('zh', 'heatmap.scaleControl'),
    ),
  );
  // a diverging map has no such control
  assert.equal(
    await map.evaluate((el) => {
      el.setAttribute('colormap', 'diverging');
      return el.shadowRoot.querySelector('label.scale').hidden;
    }),
    true,
  );
});

test('exports carry the title, model, input and output: SVG header, CSV rows, JSON fields, PNG header', async () => {
  const ctx = {
    title: 'Alignment of a date',
    model: 'dates-additive',
    input: 'the 3rd of March, 2001',
    output: '2001-03-03',
  };
  const map = await addHeatmap('exp', { label: 'Alignment', 'cell-size': '16' }, (f) => ({
    weights: f.synthetic(4, 6),
    rows: 4,
    cols: 6,
    rowLabels: ['2', '0', '0', '1'],
    colLabels: ['t', 'h', 'e', ' ', 'e', ',x"y'],
  }));
  const r = await map.evaluate(async (el, ctx) => {
    el.context = ctx;
    const svg = el.toSVG();
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    const png = await el.toPNG();
    const bitmap = await createImageBitmap(png);
    const c = document.createElement('canvas');
    c.width = bitmap.width;
    c.height = bitmap.height;
    const g = c.getContext('2d', { willReadFrequently: true });
    g.drawImage(bitmap, 0, 0);
    const canvas = el.shadowRoot.querySelector('canvas');
    // the header band: the rows above the heatmap as drawn
    const headerPx = bitmap.height - canvas.height;
    const band = g.getImageData(0, 0, c.width, Math.max(1, headerPx)).data;
    const bg = Array.from(band.slice(0, 3));
    let ink = 0;
    for (let i = 0; i < band.length; i += 4)
      if (
        Math.abs(band[i] - bg[0]) + Math.abs(band[i + 1] - bg[1]) + Math.abs(band[i + 2] - bg[2]) >
        60
      )
        ink++;
    // below the header: the heatmap's own pixels, unchanged
    const below = g.getImageData(0, headerPx, canvas.width, canvas.height).data;
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const cctx = copy.getContext('2d', { willReadFrequently: true });
    cctx.drawImage(canvas, 0, 0);
    const own = cctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let same = 0;
    for (let i = 0; i < own.length; i += 4)
      if (
        Math.abs(own[i] - below[i]) +
          Math.abs(own[i + 1] - below[i + 1]) +
          Math.abs(own[i + 2] - below[i + 2]) <
        8
      )
        same++;
    return {
      header: Array.from(doc.querySelectorAll('text.header'), (t) => t.textContent),
      title: doc.querySelector('title').textContent,
      caption: doc.querySelector('text.legend-caption')?.textContent,
      legendBar: doc.querySelectorAll('rect[fill="url(#attn-heatmap-legend)"]').length,
      cells: Array.from(doc.querySelectorAll('svg svg g[shape-rendering] rect'), (n) =>
        n.getAttribute('fill'),
      ),
      error: doc.querySelector('parsererror')?.textContent ?? null,
      csv: el.toCSV(),
      json: JSON.parse(JSON.stringify(el)),
      weights: Array.from(el.data.weights),
      png: {
        width: bitmap.width,
        height: bitmap.height,
        canvasWidth: canvas.width,
        canvasHeight: canvas.height,
        headerPx,
        ink,
        same,
        total: own.length / 4,
      },
      disabled: Array.from(
        el.shadowRoot.querySelectorAll('button[data-export]'),
        (b) => b.disabled,
      ),
    };
  }, ctx);
  const t = (key, vars) =>
    page.evaluate(
      async ([key, vars]) => (await import('/web/shared/i18n.js')).t('en', key, vars),
      [key, vars],
    );
  // SVG: a title, the model, input and output as visible text, the colour bar and its caption
  assert.equal(r.error, null);
  assert.equal(r.title, ctx.title);
  assert.deepEqual(r.header, [
    ctx.title,
    await t('heatmap.exportModel', { name: ctx.model }),
    await t('heatmap.exportInput', { text: ctx.input }),
    await t('heatmap.exportOutput', { text: ctx.output }),
  ]);
  assert.equal(r.legendBar, 1);
  assert.equal(r.caption, await t('heatmap.scaleFit'));
  const colours = await page.evaluate(async (w) => {
    const { valueToColor, rgbToHex, resolveRange } = await import('/web/shared/draw.js');
    const [lo, hi] = resolveRange(Float32Array.from(w));
    return w.map((v) => rgbToHex(valueToColor(v, lo, hi)));
  }, r.weights);
  assert.deepEqual(r.cells, colours, 'the SVG cells are the drawn weights');
  // CSV: valid RFC 4180, the context rows, then a matrix with a named corner and unique columns
  const records = parseCSV(r.csv);
  assert.ok(
    records.every((rec) => rec.length === 7),
    'every record has as many fields',
  );
  assert.deepEqual(
    records.slice(0, 4).map((rec) => rec.slice(0, 2)),
    [
      ['title', ctx.title],
      ['model', ctx.model],
      ['input', ctx.input],
      ['output', ctx.output],
    ],
  );
  assert.ok(records[4].every((f) => f === ''));
  const header = records[5];
  assert.notEqual(header[0], '');
  assert.deepEqual(header, ['row \\ column', 't', 'h', 'e (1)', '␣', 'e (2)', ',x"y']);
  assert.equal(new Set(header).size, header.length, 'unique column names');
  assert.deepEqual(
    records.slice(6).map((rec) => rec[0]),
    ['2', '0 (1)', '0 (2)', '1'],
  );
  assert.deepEqual(
    records
      .slice(6)
      .flatMap((rec) => rec.slice(1).map(Number))
      .map(Math.fround),
    r.weights,
  );
  // JSON: fields
  assert.deepEqual(
    [r.json.title, r.json.model, r.json.input, r.json.output],
    [ctx.title, ctx.model, ctx.input, ctx.output],
  );
  assert.deepEqual(r.json.weights.map(Math.fround), r.weights);
  // PNG: the heatmap as drawn under a header band that is not blank
  assert.equal(r.png.width, Math.max(r.png.canvasWidth, r.png.width));
  assert.ok(r.png.headerPx >= 4 * 14, `header of ${r.png.headerPx} px for 4 lines`);
  assert.equal(r.png.height, r.png.canvasHeight + r.png.headerPx);
  assert.ok(r.png.ink > 200, `only ${r.png.ink} ink pixels in the PNG's title band`);
  assert.ok(r.png.same / r.png.total > 0.99, 'the map under the header is the drawn canvas');
  assert.deepEqual(r.disabled, [false, false, false, false]);
  // Without data: the export buttons are disabled, and the exports say why
  const empty = await map.evaluate((el) => {
    el.data = null;
    let message = null;
    try {
      el.toCSV();
    } catch (err) {
      message = err.message;
    }
    return {
      disabled: Array.from(
        el.shadowRoot.querySelectorAll('button[data-export]'),
        (b) => b.disabled,
      ),
      json: el.toJSON(),
      message,
      scaleHidden: el.shadowRoot.querySelector('label.scale').hidden,
    };
  });
  assert.deepEqual(empty.disabled, [true, true, true, true]);
  assert.equal(empty.json, null);
  assert.match(empty.message, /no data to export/);
  assert.equal(empty.scaleHidden, true);
  await map.evaluate((el) => el.remove());
});

test('no console errors, failed requests or requests off the test server', () => {
  assert.deepEqual(problems, []);
  assert.deepEqual(browser.foreign, []);
});
