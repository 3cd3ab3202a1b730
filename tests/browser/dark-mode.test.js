// dark-mode.test.js: the page in dark mode (prefers-color-scheme: dark, issue 29), in Chromium.
//
// At 1280 × 720, in English, with the browser in dark mode: every view of <attn-demo> (app-state.js
// VIEWS, read from the code), the mechanism view on each family's drawing, the playground, each of
// the lesson's steps and the lab (its disclosures open). Checks:
// - the page's background is dark, and the view's text (the view's own computed colour) has a
//   contrast ratio of at least 4.5 against it;
// - every visible piece of text on the page (HTML text, SVG text; the light DOM and every shadow
//   root; disabled controls aside) has a contrast ratio of at least 4.5 (3 for large text) against
//   the background it is drawn on (its ancestors' background colours, composed);
// - no element of the main picture (the elements a view marks data-main="picture", else its first
//   map, canvas or chart; the lab's charts and maps; the lesson's cost chart) keeps a white
//   background: no near-white background colour, SVG shape fill covering the picture, or canvas
//   whose corner is painted near-white.
// Then the forgetting view's curves and the lesson's cost chart are drawn in the --al-a / --al-b
// tokens' colours, and follow the scheme when it flips back to light without a reload.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LESSON_STEP_COUNT, VIEWS } from '../../web/shared/app-state.js';
import { screenshot, startBrowser } from './harness.js';

let browser;
let page;
let problems;

before(async () => {
  browser = await startBrowser();
  ({ page, problems } = await browser.newPage());
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1280, height: 720 });
});

after(async () => {
  await browser?.close();
});

const HASHES = [
  ...VIEWS.map((view) => `#view=${view}`),
  '#view=mechanism&model=en-fr-transformer-relative&kind=cross',
  '#view=mechanism&model=clf-reviews-han',
  '#view=mechanism&model=lm-agreement-lstmn',
  '#view=playground',
  ...Array.from({ length: LESSON_STEP_COUNT }, (_, i) => `#view=lesson&step=${i + 1}`),
  '#view=lab',
];

/** Open web/index.html on hash (lang=en), wait until drawn; the lab with its disclosures open. */
async function open(hash) {
  await page.goto(`${browser.url}/web/index.html${hash}&lang=en`);
  await page.waitForFunction(
    () =>
      document.getElementById('app').dataset.state === 'ready' &&
      document.getElementById('app').dataset.rendered === location.hash,
    null,
    { timeout: 30000 },
  );
  if (hash.includes('view=lab')) {
    await page.evaluate(async () => {
      const lab = document.querySelector('attn-lab');
      await lab.whenReady();
      for (const d of lab.shadowRoot.querySelectorAll('details')) d.open = true;
    });
  }
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
  );
}

/** In the page: colour helpers and the checks, as one function run with page.evaluate. */
function inspect() {
  /** [r, g, b, a] (0–255, alpha 0–1) of a computed colour: rgb(), rgba() or color(srgb …). */
  const parse = (c) => {
    if (!c || c === 'none' || c === 'transparent') return [0, 0, 0, 0];
    let m = c.match(/^rgba?\(([^)]+)\)$/);
    if (m) {
      const p = m[1]
        .split(/[\s,/]+/)
        .filter(Boolean)
        .map(Number);
      return [p[0], p[1], p[2], p[3] ?? 1];
    }
    m = c.match(/^color\(srgb ([^)]+)\)$/);
    if (m) {
      const p = m[1]
        .split(/[\s/]+/)
        .filter(Boolean)
        .map(Number);
      return [p[0] * 255, p[1] * 255, p[2] * 255, p[3] ?? 1];
    }
    return null; // a paint server (url(#…)) or another space: not judged
  };
  const over = (top, below) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + below[i] * (1 - a)).concat(1);
  };
  const lum = ([r, g, b]) => {
    const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (x, y) => {
    const [a, b] = [lum(x), lum(y)].sort((p, q) => q - p);
    return (a + 0.05) / (b + 0.05);
  };
  const parent = (el) => el.parentElement ?? el.getRootNode().host ?? null;
  /** The colour el is painted on: its own and its ancestors' backgrounds, composed. */
  const backdrop = (el) => {
    const layers = [];
    for (let e = el; e; e = parent(e)) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) {
        layers.push(c);
        if (c[3] >= 1) break;
      }
    }
    let out = parse(getComputedStyle(document.documentElement).backgroundColor);
    if (!out || out[3] < 1) out = [255, 255, 255, 1]; // the canvas behind everything
    for (const c of layers.reverse()) out = over(c, out);
    return out;
  };
  const white = (c) => c && c[3] >= 0.5 && c[0] >= 235 && c[1] >= 235 && c[2] >= 235;
  const shown = (el) =>
    el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) &&
    el.getClientRects().length > 0;
  const name = (el) =>
    `${el.getRootNode().host?.localName ?? ''}>${el.localName}${el.id ? `#${el.id}` : ''}${
      typeof el.className === 'string' && el.className ? `.${el.className.split(' ')[0]}` : ''
    }`;

  // every element, the light DOM and every shadow root
  const all = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      all.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);

  // the page and the view's text
  const bg = parse(getComputedStyle(document.body).backgroundColor);
  const pageBg =
    bg && bg[3] > 0 ? bg : parse(getComputedStyle(document.documentElement).backgroundColor);
  const demo = document.getElementById('demo');
  const view =
    [...(demo?.shadowRoot?.querySelectorAll('section[data-view]') ?? [])].find(shown) ??
    document.querySelector('attn-lab:not([hidden])') ??
    [...document.querySelectorAll('#app section, #app main')].find(shown) ??
    document.body;
  const viewText = parse(getComputedStyle(view).color);

  // text against what it is drawn on
  const lowText = [];
  for (const el of all) {
    const text = [...el.childNodes]
      .filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent)
      .join('')
      .trim();
    if (!text || ['script', 'style', 'title', 'option'].includes(el.localName)) continue;
    if (!shown(el) || el.closest('.visually-hidden, [aria-hidden="true"]')) continue;
    if (el.closest(':disabled') || el.closest('[aria-disabled="true"]')) continue;
    const cs = getComputedStyle(el);
    const svgText = el instanceof SVGElement;
    const fg = parse(svgText ? cs.fill : cs.color);
    if (!fg || fg[3] === 0) continue;
    const under = backdrop(svgText ? (el.ownerSVGElement ?? el) : el);
    let opacity = 1;
    for (let e = el; e; e = parent(e)) opacity *= Number(getComputedStyle(e).opacity);
    const fgAlpha = fg[3] * opacity * (svgText ? Number(cs.fillOpacity) : 1);
    const seen = over([fg[0], fg[1], fg[2], fgAlpha], under);
    const size = parseFloat(cs.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
    const r = ratio(seen, under);
    if (r < (large ? 3 : 4.5)) lowText.push(`${name(el)} "${text.slice(0, 30)}" ${r.toFixed(2)}:1`);
  }

  // the main picture: marked, else the first map, canvas or chart; the lab's charts and maps
  const pictures = all.filter((el) => el.matches('[data-main~="picture"]') && shown(el));
  if (document.querySelector('attn-lab:not([hidden])'))
    pictures.push(
      ...all.filter(
        (el) => el.matches('canvas.chart, attn-heatmap, .lesson-cost-chart') && shown(el),
      ),
    );
  if (view !== document.body && !pictures.length) {
    const big = (el) =>
      el.getBoundingClientRect().width >= 40 && el.getBoundingClientRect().height >= 40;
    const first = [...view.querySelectorAll('attn-heatmap, canvas, svg, .mech-figure')].find(
      (el) => shown(el) && !el.closest('.legend') && big(el),
    );
    if (first) pictures.push(first);
  }
  pictures.push(...all.filter((el) => el.matches('.lesson-cost-chart') && shown(el)));
  const whiteParts = [];
  const inPicture = new Set();
  const collect = (el) => {
    if (inPicture.has(el)) return;
    inPicture.add(el);
    for (const c of el.children) collect(c);
    if (el.shadowRoot) for (const c of el.shadowRoot.children) collect(c);
  };
  pictures.forEach(collect);
  for (const el of inPicture) {
    if (!shown(el) || el.localName === 'style') continue;
    const cs = getComputedStyle(el);
    if (white(parse(cs.backgroundColor)))
      whiteParts.push(`${name(el)} background ${cs.backgroundColor}`);
    if (el instanceof SVGGraphicsElement && ['rect', 'path'].includes(el.localName)) {
      const svg = el.ownerSVGElement?.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      const covers = svg && box.width * box.height >= 0.5 * svg.width * svg.height;
      const fill = parse(cs.fill);
      if (covers && fill && white([...fill.slice(0, 3), fill[3] * Number(cs.fillOpacity)]))
        whiteParts.push(`${name(el)} fill ${cs.fill}`);
    }
    if (el.localName === 'canvas' && el.width > 4 && el.height > 4) {
      const copy = document.createElement('canvas');
      copy.width = el.width;
      copy.height = el.height;
      const ctx = copy.getContext('2d', { willReadFrequently: true });
      ctx.drawImage(el, 0, 0);
      const [r, g, b, a] = ctx.getImageData(1, 1, 1, 1).data;
      if (white([r, g, b, a / 255])) whiteParts.push(`${name(el)} painted rgb(${r}, ${g}, ${b})`);
    }
  }
  return {
    pageBg,
    viewText,
    viewTextRatio: pageBg && viewText ? ratio(viewText, pageBg) : 0,
    pageLum: pageBg ? lum(pageBg) : 1,
    pictures: pictures.map(name),
    lowText: [...new Set(lowText)].slice(0, 12),
    whiteParts: [...new Set(whiteParts)].slice(0, 12),
  };
}

test('1280 × 720, en, dark: readable text on a dark page, no white in the main picture', async () => {
  const failures = [];
  for (const hash of HASHES) {
    await open(hash);
    const got = await page.evaluate(inspect);
    await screenshot(page, `dark-${hash.replace(/[#&=]+/g, '-').replace(/^-/, '')}`);
    if (got.pageLum > 0.05) failures.push(`${hash}: the page is not dark (${got.pageBg})`);
    if (got.viewTextRatio < 4.5)
      failures.push(`${hash}: view text ${got.viewText} on ${got.pageBg}: ${got.viewTextRatio}:1`);
    // step 10 of the lesson has no picture (links to the lab)
    if (!got.pictures.length && !hash.endsWith('step=10'))
      failures.push(`${hash}: no main picture found`);
    for (const x of got.lowText) failures.push(`${hash}: low contrast: ${x}`);
    for (const x of got.whiteParts) failures.push(`${hash}: white in the picture: ${x}`);
  }
  assert.equal(failures.length, 0, `dark mode:\n${failures.join('\n')}`);
});

/** The computed value of the tokens (#rrggbb) and the lines drawn in the forgetting view's chart
 * (SVG stroke), the cost chart (SVG stroke) and the lab's loss chart (canvas pixels near a
 * token's colour). */
async function lineColours(hash) {
  return page.evaluate((hash) => {
    const rgb = (hex) =>
      `rgb(${hex
        .slice(1)
        .match(/../g)
        .map((h) => parseInt(h, 16))
        .join(', ')})`;
    const token = (el, name) => rgb(getComputedStyle(el).getPropertyValue(name).trim());
    if (hash.includes('forgetting')) {
      const root = document.getElementById('demo').shadowRoot;
      const curves = [...root.querySelectorAll('.forgetting-chart polyline.curve')];
      return {
        tokens: [token(curves[0], '--al-a'), token(curves[0], '--al-b')],
        drawn: curves.map((c) => getComputedStyle(c).stroke),
      };
    }
    if (hash.includes('lesson')) {
      const lines = [...document.querySelectorAll('.lesson-cost-chart polyline.line')];
      return {
        tokens: [token(lines[0], '--al-a'), token(lines[0], '--al-b')],
        drawn: lines.map((c) => getComputedStyle(c).stroke),
      };
    }
    // the lab: the loss chart's legend swatches, A then B, drawn in the canvas
    const lab = document.querySelector('attn-lab');
    const canvas = lab.shadowRoot.querySelector('canvas.chart');
    const tokens = [token(lab, '--al-a'), token(lab, '--al-b')];
    // read a copy, so the lab's own context is never flagged for repeated readbacks
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const ctx = copy.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(canvas, 0, 0);
    const { data } = ctx.getImageData(0, 0, copy.width, copy.height);
    const near = (c) => {
      const [r, g, b] = c.match(/\d+/g).map(Number);
      let n = 0;
      for (let i = 0; i < data.length; i += 4)
        if (Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) < 30) n++;
      return n;
    };
    return { tokens, drawn: tokens.map((c) => (near(c) >= 10 ? c : `few pixels of ${c}`)) };
  }, hash);
}

test('the forgetting, cost and lab charts draw in --al-a / --al-b and follow a flip of scheme', async () => {
  for (const hash of ['#view=forgetting', '#view=lesson&step=5', '#view=lab']) {
    await page.emulateMedia({ colorScheme: 'dark' });
    await open(hash);
    if (hash.includes('step=5'))
      await page.waitForFunction(
        () => document.querySelectorAll('.lesson-cost-chart polyline.line').length === 2,
        null,
        { timeout: 60000 },
      );
    const dark = await lineColours(hash);
    assert.deepEqual(dark.drawn, dark.tokens, `${hash}, dark: the lines in the tokens' colours`);
    await page.emulateMedia({ colorScheme: 'light' }); // no reload
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
    );
    const light = await lineColours(hash);
    assert.notDeepEqual(light.tokens, dark.tokens, 'the tokens differ between the schemes');
    assert.deepEqual(
      light.drawn,
      light.tokens,
      `${hash}, light again: redrawn in the light tokens`,
    );
  }
  await page.emulateMedia({ colorScheme: 'dark' });
});

test('no console errors, failed requests or requests to another origin', () => {
  assert.deepEqual(problems, []);
  assert.deepEqual(browser.foreign, []);
});
