// projector.test.js: the page is designed for the projector (issue 29), in Chromium.
//
// Checks, for every view of <attn-demo> (app-state.js VIEWS, read from the code, so a view added
// later is covered too), in English and Chinese at 1280 × 720: the input box, the view's main
// picture and its output are visible, of non-zero size and inside the first screen (no scrolling).
// The picture and the output are the elements a view marks data-main="picture" / "output"; a view
// that marks none is measured by its first map, canvas or chart (not a colour legend) and its
// first <output> or .output. A heatmap is measured by its plot (the map, not its export toolbar).
// Also: the form controls are styled (their computed look differs from the browser's defaults on
// a bare page), keyboard focus is visible in the focus token's colour, and at 390 × 844 every
// view's picture starts on the first screen, every view's parts are seen in DOM order (both sizes), and the text of the charts and maps is at least 11 CSS pixels (SVG text as rendered, after the viewBox's
// scale; heatmap canvases drawn at 1:1 with their 11 px labels).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { VIEWS } from '../../web/shared/app-state.js';
import { findModel, modelsForView, sampleFor } from '../../web/shared/models.js';
import { LAYOUT } from '../../web/shared/draw.js';
import { screenshot, startBrowser } from './harness.js';

const SCREEN = { width: 1280, height: 720 };
const PHONE = { width: 390, height: 844 };
const MIN_TEXT = 11; // CSS pixels

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

/** Open the page on hash and wait until its view is drawn. */
async function openView(hash) {
  await page.goto(`${browser.url}/web/${hash}`);
  await page.waitForFunction(() => document.getElementById('app').dataset.state === 'ready', null, {
    timeout: 20000,
  });
  await page.waitForFunction(
    () => document.getElementById('app').dataset.rendered === location.hash,
    null,
    { timeout: 20000 },
  );
  // two frames: the heatmaps draw on the next animation frame after a resize
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
  );
}

/** The boxes of view's input, main picture and output: { name: { top, bottom, width, height,
 * visible, what } | null }. */
function firstScreenBoxes(view) {
  return page.evaluate((view) => {
    const root = document.getElementById('demo').shadowRoot;
    const section = root.querySelector(`section[data-view="${view}"]`);
    const shown = (el) =>
      el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) &&
      el.getBoundingClientRect().width > 0 &&
      el.getBoundingClientRect().height > 0;
    const first = (selector, ok = () => true) =>
      [...section.querySelectorAll(selector)].find((el) => shown(el) && ok(el)) ?? null;
    const big = (el) =>
      el.getBoundingClientRect().width >= 40 && el.getBoundingClientRect().height >= 40;
    const picture =
      first('[data-main~="picture"]') ??
      first('attn-heatmap, canvas, svg', (el) => !el.closest('.legend') && big(el));
    const output = first('[data-main~="output"]') ?? first('output, .output');
    const box = (el, what) => {
      if (!el) return null;
      // a heatmap's picture is its plot (the map), not its export toolbar under it
      const target = el.localName === 'attn-heatmap' ? el.shadowRoot.querySelector('.plot') : el;
      const r = target.getBoundingClientRect();
      return {
        what,
        top: Math.round(r.top),
        bottom: Math.round(r.bottom),
        width: Math.round(r.width),
        height: Math.round(r.height),
        visible: shown(target),
      };
    };
    return {
      input: box(root.querySelector('#input'), 'input'),
      picture: box(picture, picture && `${picture.localName}.${picture.className}`),
      output: box(output, output && `${output.localName}.${output.className}`),
    };
  }, view);
}

/** The view's shown parts (its section's children) that are seen above the part before them in
 * the DOM: a keyboard or a screen reader would meet them out of the order they are seen. */
function outOfOrder(view) {
  return page.evaluate((view) => {
    const section = document
      .getElementById('demo')
      .shadowRoot.querySelector(`section[data-view="${view}"]`);
    const shown = [...section.children].filter(
      (k) => k.getBoundingClientRect().height > 0 && getComputedStyle(k).position !== 'absolute',
    );
    const top = (k) => Math.round(k.getBoundingClientRect().top);
    const name = (k) => `${k.localName}.${k.className}@${top(k)}`;
    return shown.flatMap((k, i) =>
      i && top(k) < top(shown[i - 1]) ? [name(shown[i - 1]) + ' > ' + name(k)] : [],
    );
  }, view);
}

/** The chrome's shown controls above the view (tabs, pickers, the input, the examples menu) that
 * are seen before the control before them in the DOM (wholly above it, or on its row and wholly
 * left of it): the keyboard would meet them out of the order they are seen. */
function controlsOutOfOrder() {
  return page.evaluate(() => {
    const top = document.getElementById('demo').shadowRoot.querySelector('.top');
    const shown = [...top.querySelectorAll('button, select, input')]
      .map((k) => ({ k, r: k.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && r.height > 0);
    const name = ({ k, r }) =>
      `${k.localName}#${k.id || k.dataset.view || k.className}@${Math.round(r.left)},${Math.round(r.top)}`;
    return shown.flatMap((c, i) => {
      const p = shown[i - 1];
      if (!p) return [];
      const above = c.r.bottom <= p.r.top;
      const left = c.r.top < p.r.bottom && c.r.bottom > p.r.top && c.r.right <= p.r.left;
      return above || left ? [`${name(p)} > ${name(c)}`] : [];
    });
  });
}

for (const lang of ['en', 'zh']) {
  test(`1280 × 720, ${lang}: every view shows its input, picture and output without scrolling`, async () => {
    await page.setViewportSize(SCREEN);
    const report = [];
    for (const view of VIEWS) {
      await openView(`#view=${view}&lang=${lang}`);
      const boxes = await firstScreenBoxes(view);
      report.push(`${view}: ${JSON.stringify(boxes)}`);
      for (const [name, b] of Object.entries(boxes)) {
        assert.ok(b, `${lang} ${view}: no ${name} found`);
        assert.ok(
          b.visible && b.width > 0 && b.height > 0,
          `${lang} ${view}: ${name} not shown (${JSON.stringify(b)})`,
        );
        assert.ok(
          b.top >= 0,
          `${lang} ${view}: ${name} starts above the screen (${JSON.stringify(b)})`,
        );
        assert.ok(
          b.bottom <= SCREEN.height,
          `${lang} ${view}: ${name} ends at ${b.bottom} px, below the first screen (${SCREEN.height} px): ${JSON.stringify(b)}`,
        );
      }
      assert.equal(await page.evaluate(() => scrollY), 0, `${lang} ${view}: the page scrolled`);
      assert.deepEqual(await outOfOrder(view), [], `${lang} ${view}: parts seen out of DOM order`);
      assert.deepEqual(await controlsOutOfOrder(), [], `${lang} ${view}: controls out of order`);
      await screenshot(page, `projector-${view}-${lang}`);
    }
    console.log(report.join('\n'));
  });
}

// A phone (390 × 844): the page above a view is kept short and the reading view puts its stepping
// and picture before what the input was read as, so that every view's picture starts on the
// first screen with PHONE_PICTURE_SHOWN pixels of it showing (the mechanism view's diagram, a
// seq2seq map's first rows, the reading view's arcs and words), in both languages. At both sizes
// a view's parts are seen in their DOM order, the order the keyboard and a screen reader take.
const PHONE_PICTURE_SHOWN = 80;
for (const lang of ['en', 'zh']) {
  test(`390 × 844, ${lang}: every view's picture starts on the first screen`, async () => {
    await page.setViewportSize(PHONE);
    const late = [];
    for (const view of VIEWS) {
      await openView(`#view=${view}&lang=${lang}`);
      const { picture: b } = await firstScreenBoxes(view);
      if (!b || !b.visible || b.top < 0 || b.top > PHONE.height - PHONE_PICTURE_SHOWN)
        late.push(`${view}: ${JSON.stringify(b)}`);
      // the reading view's phone order is its DOM order too (view-kit.js orderByWidth)
      for (const pair of await outOfOrder(view)) late.push(`${view}, out of DOM order: ${pair}`);
      // and so is the chrome's: the examples menu on the input's label row comes before the input
      for (const pair of await controlsOutOfOrder()) late.push(`${view}, controls: ${pair}`);
      await screenshot(page, `phone-${view}-${lang}`);
    }
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), PHONE.width);
    assert.deepEqual(late, [], `pictures starting below ${PHONE.height - PHONE_PICTURE_SHOWN} px`);
  });
}

// Beyond each view's default: every model a view offers (models.js modelsForView, read from the
// code), with its sample input, in English, keeps the view's picture and output on the first
// screen (the compare and forgetting views load their own sets and are measured above).
test('1280 × 720: every model each view offers keeps its picture and output on the first screen', async () => {
  await page.setViewportSize(SCREEN);
  const late = [];
  for (const view of VIEWS.filter((v) => v !== 'compare' && v !== 'forgetting')) {
    for (const { name } of modelsForView(view)) {
      await openView(`#view=${view}&model=${name}&input=${encodeURIComponent(sampleFor(name))}`);
      const boxes = await firstScreenBoxes(view);
      for (const [what, b] of Object.entries(boxes)) {
        // a model without attention has no map to draw: the view says so instead
        if (what === 'picture' && !b && findModel(name)?.attention === 'none') continue;
        if (!b || !b.visible || b.height === 0 || b.top < 0 || b.bottom > SCREEN.height)
          late.push(`${view} ${name}: ${what} ${JSON.stringify(b)}`);
      }
    }
  }
  assert.deepEqual(late, []);
});

/** Computed styles of the first element matching selector in the document or a shadow root. */
function looks(target, selector, props) {
  return target.evaluate(
    ({ selector, props }) => {
      const find = (root) => {
        const hit = root.querySelector(selector);
        if (hit) return hit;
        for (const el of root.querySelectorAll('*')) {
          const inner = el.shadowRoot && find(el.shadowRoot);
          if (inner) return inner;
        }
        return null;
      };
      const el = find(document);
      if (!el) return null;
      const cs = getComputedStyle(el);
      return Object.fromEntries(props.map((p) => [p, cs.getPropertyValue(p)]));
    },
    { selector, props },
  );
}

test('form controls are styled: their look differs from the browser defaults, and focus shows', async () => {
  await page.setViewportSize(SCREEN);
  // the browser's defaults: the same controls on a bare page
  await page.goto(`${browser.url}/tests/browser/embed-host.html`);
  await page.evaluate(() => {
    document.body.insertAdjacentHTML(
      'beforeend',
      '<button id="b">b</button><select id="s"><option>s</option></select><input id="t" type="text">' +
        '<input id="n" type="number"><input id="r" type="range"><input id="c" type="checkbox">' +
        '<textarea id="x"></textarea>',
    );
  });
  const PROPS = ['background-color', 'border-top-color', 'border-top-left-radius', 'appearance'];
  const bare = {};
  for (const [kind, sel] of Object.entries({
    button: '#b',
    select: '#s',
    text: '#t',
    number: '#n',
    range: '#r',
    checkbox: '#c',
  }))
    bare[kind] = await looks(page, sel, PROPS);

  // the page's controls: the playground's (light DOM) and <attn-demo>'s and its heatmap's (shadow)
  const pageControls = {
    button: '#reseed',
    select: '#lang',
    number: '#seed',
    range: '#n',
    checkbox: '#causal',
  };
  const demoControls = {
    button: 'attn-heatmap .toolbar button, button.open-button',
    select: 'select#model',
    text: 'input#input',
    checkbox: '.scale input[type="checkbox"]',
  };
  const differs = (a, b) => PROPS.some((p) => a[p] !== b[p]);
  for (const [where, controls, hash] of [
    ['page', pageControls, '#view=playground&lang=en'],
    ['attn-demo', demoControls, '#view=alignment&lang=en'],
  ]) {
    await openView(hash);
    for (const [kind, sel] of Object.entries(controls)) {
      const got = await looks(page, sel, PROPS);
      assert.ok(got, `${where}: no ${kind} (${sel})`);
      assert.ok(
        differs(got, bare[kind]),
        `${where} ${kind} looks like the browser default: ${JSON.stringify(got)} vs ${JSON.stringify(bare[kind])}`,
      );
      if (['select', 'range', 'checkbox'].includes(kind))
        assert.equal(
          got.appearance,
          'none',
          `${where} ${kind}: drawn by the page, not the browser`,
        );
    }
  }

  // keyboard focus: a solid outline in the focus token's colour
  await openView('#view=alignment&lang=en');
  const focus = await page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue('--al-focus').trim(),
  );
  assert.match(focus, /^#[0-9a-f]{6}$/i, 'the page defines --al-focus');
  await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement)?.blur());
  await page.keyboard.press('Tab'); // a keyboard focus, so :focus-visible applies: the first control
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'lang');
  const outline = await looks(page, '#lang', ['outline-style', 'outline-color', 'outline-width']);
  assert.equal(outline['outline-style'], 'solid');
  const [r, g, b] = focus
    .slice(1)
    .match(/../g)
    .map((h) => parseInt(h, 16));
  assert.equal(outline['outline-color'], `rgb(${r}, ${g}, ${b})`);
  await page.locator('#demo #input').focus();
  const inputFocus = await looks(page, 'input#input', ['border-top-color']);
  assert.equal(
    inputFocus['border-top-color'],
    `rgb(${r}, ${g}, ${b})`,
    'the focused input shows it',
  );
});

/** Text smaller than MIN_TEXT px in charts and maps: SVG text as rendered (font size times the
 * viewBox's scale), heatmap canvases drawn smaller than their 1:1 layout, small legend text. */
function smallChartText() {
  return page.evaluate((min) => {
    const out = [];
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.shadowRoot) walk(el.shadowRoot);
        if (!el.checkVisibility?.() || el.closest('.visually-hidden')) continue;
        if (el.localName === 'text' && el.textContent.trim()) {
          const m = el.getScreenCTM(); // its scale, rotated text too
          const size = parseFloat(getComputedStyle(el).fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
          if (size < min - 0.05) out.push(`svg text "${el.textContent}" ${size.toFixed(1)}px`);
        } else if (
          el.localName === 'canvas' &&
          el.getRootNode().host?.localName === 'attn-heatmap'
        ) {
          // drawn at LAYOUT.fontSize in CSS pixels when shown at its own size
          const shown = el.getBoundingClientRect().width;
          const drawn = parseFloat(el.style.width);
          if (shown > 0 && shown < drawn - 0.5) out.push(`heatmap canvas shrunk ${drawn}→${shown}`);
        } else if (
          el.matches('.legend span, .heads-grid .axis, .rword .p, .line-legend span, .tick')
        ) {
          const size = parseFloat(getComputedStyle(el).fontSize);
          if (size < min - 0.05) out.push(`${el.className} ${size}px`);
        }
      }
    };
    walk(document);
    return out.slice(0, 10);
  }, MIN_TEXT);
}

test('390 × 844: chart and map text is at least 11 px', async () => {
  assert.ok(LAYOUT.fontSize >= MIN_TEXT, 'the heatmap draws its labels at 11 px or more');
  await page.setViewportSize(PHONE);
  const hashes = [
    ...VIEWS.map((view) => `#view=${view}&lang=en`),
    '#view=lesson&step=5&lang=en', // the cost chart
  ];
  for (const hash of hashes) {
    await openView(hash);
    assert.deepEqual(await smallChartText(), [], `${hash}: text below ${MIN_TEXT} px`);
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth),
      `${hash}: no sideways scroll`,
    );
  }
  await page.setViewportSize(SCREEN);
});

test('no console errors, failed requests or requests to another origin', () => {
  assert.deepEqual(problems, []);
  assert.deepEqual(browser.foreign, []);
});
