// heatmap-views.test.js: issue 18's readable heatmaps and slide-ready exports, in the page's views:
// the alignment view with the FBI sentence (Cheng, Dong & Lapata 2016, Fig. 1) at 1280 px and
// 390 px, in English and Chinese (labels drawn, thinned; screenshots); every heatmap export names
// the model, the input and the output (downloaded and parsed); the forgetting chart's SVG and PNG
// carry a title and a legend. The element itself (thinning maths, markers, scales, export layout)
// is tested with synthetic data in heatmap.test.js.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { MODEL_DEFAULTS, formatModelParams } from '../../web/shared/app-state.js';
import { labelStep } from '../../web/shared/draw.js';
import { t } from '../../web/shared/i18n.js';
import { DEFAULT_MODEL } from '../../web/shared/models.js';
import { screenshot, startBrowser } from './harness.js';
import { waitDemo } from './view-harness.js';

const FBI = 'The FBI is chasing a criminal on the run.';

let browser;
let page;
let problems;

before(async () => {
  browser = await startBrowser();
  ({ page, problems } = await browser.newPage());
});

after(async () => {
  await browser?.close();
});

const stateKey = (s) => formatModelParams({ ...MODEL_DEFAULTS, ...s, hide: [], seed: null });

async function openPage(s) {
  const key = stateKey(s);
  await page.goto(`${browser.url}/web/#${key}`);
  await waitDemo(page, '#demo', key);
  await page.locator('#demo .align-map').evaluate((el) => el.whenRendered());
}

/** The alignment map's labels as drawn, its context, and what the view shows as the output. */
function alignment() {
  return page.locator('#demo .align-map').evaluate((el) => ({
    drawn: el.drawnLabels,
    context: el.context,
    rows: el.data.rows,
    cols: el.data.cols,
    colLabels: [...el.data.colLabels],
    output: el.getRootNode().querySelector('output.output').textContent,
  }));
}

/** RFC 4180 records (quoted fields, "" for a quote, CRLF between records). */
function parseCSV(text) {
  const records = [];
  let record = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') field += text[i++];
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') [record, field] = [[...record, field], ''];
    else if (ch === '\r' && text[i + 1] === '\n') {
      records.push([...record, field]);
      [record, field] = [[], ''];
      i++;
    } else field += ch;
  }
  return records;
}

for (const lang of ['en', 'zh']) {
  for (const width of [1280, 390]) {
    test(`alignment view, the FBI sentence, ${width} px, ${lang}: row and column labels are drawn, thinned to fit`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await openPage({ view: 'alignment', model: DEFAULT_MODEL, input: FBI, lang });
      const a = await alignment();
      assert.equal(a.cols, a.colLabels.length);
      assert.ok(a.cols >= Array.from(FBI).length - 2, `${a.cols} input tokens`);
      const d = a.drawn;
      assert.equal(d.rowStep, labelStep(d.cellHeight), 'row step from the cell size');
      assert.ok(
        d.rows.length >= Math.floor(a.rows / d.rowStep),
        `${d.rows.length} of ${a.rows} row labels drawn`,
      );
      assert.ok(
        d.cols.length >= Math.floor(a.cols / d.colStep),
        `${d.cols.length} of ${a.cols} column labels drawn`,
      );
      assert.ok(d.cols.length > 0 && d.rows.length > 0, 'labels never vanish');
      assert.equal(
        d.colStep,
        labelStep(d.cellWidth, d.colExtent),
        "column step from the cell size and the labels' room",
      );
      for (let i = 1; i < d.cols.length; i++)
        assert.ok(
          (d.cols[i] - d.cols[i - 1]) * d.cellWidth >= d.colExtent - 1e-9,
          'column labels do not overlap',
        );
      // the spaces of the sentence are drawn as markers, not blank labels (the SVG holds what is drawn)
      const svgCols = await page
        .locator('#demo .align-map')
        .evaluate((el) =>
          Array.from(
            new DOMParser()
              .parseFromString(el.toSVG(), 'image/svg+xml')
              .querySelectorAll('text.col-label'),
            (n) => n.textContent,
          ),
        );
      assert.equal(svgCols.length, d.cols.length);
      for (const [i, c] of d.cols.entries())
        assert.equal(svgCols[i], a.colLabels[c] === ' ' ? '␣' : a.colLabels[c]);
      assert.ok(!svgCols.includes(' ') && !svgCols.includes(''), 'no blank label');
      // the context every export carries
      assert.deepEqual(a.context, { model: DEFAULT_MODEL, input: FBI, output: a.output });
      // the colour-scale control, in the page's language
      assert.equal(
        await page.locator('#demo .align-map label.scale').textContent(),
        t(lang, 'heatmap.scaleControl'),
      );
      await screenshot(page, `heatmap-alignment-fbi-${width}-${lang}`);
    });
  }
}

test('alignment view exports: CSV, JSON, SVG and PNG name the model, the input and the output', async () => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openPage({ view: 'alignment', model: DEFAULT_MODEL, input: FBI });
  const a = await alignment();
  const files = {};
  for (const kind of ['csv', 'json', 'svg', 'png']) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator(`#demo .align-map button[data-export="${kind}"]`).click(),
    ]);
    files[kind] = await readFile(await download.path());
  }
  const weights = await page
    .locator('#demo .align-map')
    .evaluate((el) => Array.from(el.data.weights));
  // CSV: the context rows, then the matrix under unique column names
  const records = parseCSV(files.csv.toString());
  assert.deepEqual(
    records.slice(1, 4).map((r) => r.slice(0, 2)),
    [
      ['model', DEFAULT_MODEL],
      ['input', FBI],
      ['output', a.output],
    ],
  );
  const header = records[5];
  assert.notEqual(header[0], '');
  assert.equal(header.length, a.cols + 1);
  assert.equal(new Set(header).size, header.length, 'unique column names');
  assert.ok(header.includes('␣ (1)'), 'the spaces of the sentence, numbered');
  assert.deepEqual(
    records
      .slice(6)
      .flatMap((r) => r.slice(1).map(Number))
      .map(Math.fround),
    weights,
  );
  // JSON
  const json = JSON.parse(files.json.toString());
  assert.deepEqual([json.model, json.input, json.output], [DEFAULT_MODEL, FBI, a.output]);
  assert.deepEqual(json.weights.map(Math.fround), weights);
  // SVG: the header lines
  const header2 = await page.evaluate(
    (svg) =>
      Array.from(
        new DOMParser().parseFromString(svg, 'image/svg+xml').querySelectorAll('text.header'),
        (n) => n.textContent,
      ),
    files.svg.toString(),
  );
  const joined = header2.join(' '); // lines wrapped at spaces: joined with one, the text again
  assert.ok(joined.startsWith(t('en', 'heatmap.alignment')), joined);
  assert.ok(joined.includes(t('en', 'heatmap.exportModel', { name: DEFAULT_MODEL })));
  assert.ok(joined.replace(/\s+/g, ' ').includes(FBI.split(' ').slice(0, 3).join(' ')), joined);
  // PNG: taller than the map as drawn by the header
  const size = await page.locator('#demo .align-map').evaluate(
    async (el, bytes) => {
      const bitmap = await createImageBitmap(
        new Blob([new Uint8Array(bytes)], { type: 'image/png' }),
      );
      return {
        png: [bitmap.width, bitmap.height],
        canvas: [
          el.shadowRoot.querySelector('canvas').width,
          el.shadowRoot.querySelector('canvas').height,
        ],
      };
    },
    [...files.png],
  );
  assert.ok(size.png[1] > size.canvas[1] + 40, `PNG ${size.png} vs canvas ${size.canvas}`);
});

test('an input that cannot be run: the export buttons are disabled', async () => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openPage({ view: 'alignment', model: DEFAULT_MODEL, input: FBI });
  await page.evaluate(() => {
    location.hash = location.hash.replace(/input=[^&]*/, 'input=');
  });
  await page.waitForFunction(
    () => document.querySelector('#demo').shadowRoot.querySelector('.align-map').data === null,
  );
  const disabled = await page
    .locator('#demo .align-map')
    .evaluate((el) =>
      Array.from(el.shadowRoot.querySelectorAll('button[data-export]'), (b) => b.disabled),
    );
  assert.deepEqual(disabled, [true, true, true, true]);
});

test('the forgetting chart export: a title and a legend in the SVG and the PNG', async () => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${browser.url}/web/#view=forgetting&input=abcdefghij`);
  await page.waitForFunction(
    () =>
      document
        .querySelector('#demo')
        ?.shadowRoot?.querySelector('.forgetting-chart polyline.curve'),
    null,
    { timeout: 20000 },
  );
  const files = {};
  for (const kind of ['svg', 'png']) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator(`#demo button[data-chart-export="${kind}"]`).click(),
    ]);
    files[kind] = await readFile(await download.path());
  }
  const r = await page.evaluate(
    async ([svg, png]) => {
      const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
      const root = doc.documentElement;
      const bitmap = await createImageBitmap(
        new Blob([new Uint8Array(png)], { type: 'image/png' }),
      );
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        title: doc.querySelector('text.chart-title')?.textContent,
        legend: Array.from(doc.querySelectorAll('g.chart-legend text'), (n) => n.textContent),
        swatches: Array.from(doc.querySelectorAll('g.chart-legend line'), (n) => [
          n.getAttribute('stroke'),
          n.getAttribute('stroke-dasharray'),
        ]),
        curves: Array.from(doc.querySelectorAll('polyline.curve'), (n) => [
          n.getAttribute('stroke'),
          n.getAttribute('stroke-dasharray'),
        ]),
        onScreen: Array.from(
          document.querySelector('#demo').shadowRoot.querySelectorAll('.line-legend span'),
          (n) => n.textContent,
        ),
        size: [Number(root.getAttribute('width')), Number(root.getAttribute('height'))],
        png: [bitmap.width, bitmap.height],
      };
    },
    [files.svg.toString(), [...files.png]],
  );
  assert.equal(r.error, null);
  assert.equal(r.title, t('en', 'forgetting.curveTitle'));
  assert.ok(r.legend.length >= 2, `${r.legend.length} legend entries`);
  assert.deepEqual(r.legend, r.onScreen, 'the same legend as on the page');
  assert.deepEqual(r.swatches, r.curves, 'each legend swatch drawn like its line');
  assert.deepEqual(
    r.png,
    [2 * r.size[0], 2 * r.size[1]],
    'the PNG is the SVG at twice the size, title and legend included',
  );
});

test('the forgetting view with nothing to run: its run download and map exports are disabled', async () => {
  await page.goto(`${browser.url}/web/#view=forgetting&input=abcdefghij`);
  await page.waitForFunction(
    () => document.querySelector('#demo')?.shadowRoot?.querySelector('.forgetting-map')?.data,
    null,
    { timeout: 20000 },
  );
  assert.equal(await page.locator('#demo button[data-action="download-run"]').isDisabled(), false);
  await page.evaluate(() => {
    location.hash = location.hash.replace(/input=[^&]*/, 'input=');
  });
  await page.waitForFunction(
    () => document.querySelector('#demo').shadowRoot.querySelector('.forgetting-map').data === null,
  );
  assert.equal(await page.locator('#demo button[data-action="download-run"]').isDisabled(), true);
  const map = await page
    .locator('#demo .forgetting-map')
    .evaluate((el) =>
      Array.from(el.shadowRoot.querySelectorAll('button[data-export]'), (b) => b.disabled),
    );
  assert.deepEqual(map, [true, true, true, true]);
});

test('no console errors, failed requests or requests off the test server', () => {
  assert.deepEqual(problems, []);
  assert.deepEqual(browser.foreign, []);
});
