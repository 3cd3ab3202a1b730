// mechanism.test.js: the Mechanism view (issue 29) on the real page, in Chromium, against the
// states API run in Node (the same wasm build: differences are 0 in practice, TOLERANCE 1e-5).
//
// Checks: for a model of every family (seq2seq with Bahdanau's additive, Luong's local-p and no
// attention; the self-attention RNN and the LSTMN; attention, HAN and structured pooling; an
// encoder-decoder transformer with relative positions and a decoder-only one), the numbers the
// picture carries (data-value of its weight bars or rows and of its state strips) equal the
// model's states for the typed input at the step shown; ← → Home End on the picture move the
// step (the URL state follows) and change the drawn numbers; pointing at a stage lights its line
// in the equation panel, and pointing at a line lights the stage (the reverse); keyboard focus
// does what hover does; Chinese draws its own strings; at 1280×720 the picture is inside the first
// screen; on a 390×844 phone the controls fit the width and the picture scrolls sideways.
// Screenshots go to tests/browser/screenshots/ (mechanism-*.png).

import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { t } from '../../web/shared/i18n.js';
import { textFor } from '../../web/views/mechanism/families.js';
import { screenshot } from './harness.js';
import { assertClose, viewHarness } from './view-harness.js';

const harness = viewHarness('mechanism');
const { nodeModel, stateKey, waitDemo } = harness;
let page;
let problems;
before(async () => ({ page, problems } = await harness.start()));

const FBI = 'The FBI is chasing a criminal on the run.';
const DATE = '22 Nov 2026';

/** Row r of a { data, shape } tensor (its last axis). */
function rowOf(tensor, r) {
  const cols = tensor.shape.at(-1);
  return Array.from(tensor.data.subarray(r * cols, (r + 1) * cols));
}

/** Head h of an [H, n, d] tensor, as a { data, shape } of [n, d]. */
function headOf(tensor, h) {
  const [, n, d] = tensor.shape;
  return { data: tensor.data.subarray(h * n * d, (h + 1) * n * d), shape: [n, d] };
}

/** The drawn numbers of the picture: { step, family, [stage]: { [index]: number[] } }. */
function drawn(p) {
  return p.locator('#demo').evaluate((demo) => {
    const fig = demo.shadowRoot.querySelector('.mech-figure');
    const out = { step: Number(fig.dataset.step), family: fig.dataset.family, stages: {} };
    for (const n of fig.querySelectorAll('[data-stage][data-value]')) {
      const stage = n.getAttribute('data-stage');
      const index = n.getAttribute('data-index') ?? 'only';
      out.stages[stage] ??= {};
      out.stages[stage][index] ??= n
        .getAttribute('data-value')
        .split(',')
        .map((v) => (v === '-Infinity' ? -Infinity : Number(v)));
    }
    return out;
  });
}

/** The states of a run in Node, as the view runs it. */
async function statesOf(name, input, sel = {}) {
  const m = await nodeModel(name);
  if (m.architecture === 'classifier') return m.classify(input, { states: true });
  if (m.architecture === 'memory-rnn')
    return m.run(textFor('memory-rnn', m, input), { states: true });
  if (m.architecture === 'transformer') {
    const r = m.run(input, { states: true });
    if (r.states) return r;
    const f =
      m.config.variant === 'encoder-decoder'
        ? m.forward(r.srcIds, r.tgtIds, { states: true })
        : m.forward(r.fedIds ?? r.srcIds, { states: true });
    return { ...r, states: f.states, sel };
  }
  return m.run(input, { states: true });
}

/** Compare the drawn values of a stage (indices 0…k−1, or 'only') with the expected rows. */
function same(shown, stage, expected, what) {
  const got = shown.stages[stage];
  assert.ok(got, `${what}: the picture draws stage "${stage}"`);
  for (const [index, values] of Object.entries(expected)) {
    assert.ok(got[index], `${what}: stage ${stage} has index ${index}`);
    // −∞ (a score outside local-p's window, a masked one) must match exactly; the rest within 1e-5
    const finite = (list) => list.map((v) => (Number.isFinite(v) ? v : 0));
    values.forEach((v, k) => {
      if (!Number.isFinite(v)) assert.equal(got[index][k], v, `${what}: ${stage}[${index}][${k}]`);
    });
    assertClose(finite(got[index]), finite(values), `${what}: ${stage}[${index}]`);
  }
}

const indexed = (list) => Object.fromEntries(list.map((v, i) => [i, [v]]));

/** Per family: what the picture at step t must carry, from the run's states. */
const EXPECT = {
  seq2seq(st, t, what, shown) {
    same(shown, 'hidden', { 0: rowOf(st.encoder, 0), 2: rowOf(st.encoder, 2) }, what);
    same(shown, 'decoder', { only: rowOf(st.decoder, t) }, what);
    if (st.attention === 'none') {
      same(shown, 'initial', { only: Array.from(st.initial.data) }, what);
      assert.equal(shown.stages.weight, undefined, `${what}: no weights without attention`);
      return;
    }
    same(shown, 'weight', indexed(rowOf(st.weights, t)), what);
    same(shown, 'score', indexed(rowOf(st.scores, t)), what);
    same(shown, 'context', { only: rowOf(st.context, t) }, what);
    same(shown, 'query', { only: rowOf(st.query, t) }, what);
    if (st.positions) same(shown, 'position', { only: [st.positions.data[t]] }, what);
  },
  'memory-rnn'(st, t, what, shown) {
    same(shown, 'hidden', { 0: rowOf(st.hidden, 0), [t]: rowOf(st.hidden, t) }, what);
    // the summary read at t and the weights that made it: the LSTMN's h̃_t (row t, i < t); the
    // SARNN's c_{t−1} (row t − 1: states.summary row t is c_t, docs/states.md)
    const r = st.cell === 'lstmn' ? t : t - 1;
    same(shown, 'summary', { only: rowOf(st.summary, r) }, what);
    const upto = t - 1;
    same(shown, 'weight', indexed(rowOf(st.weights, r).slice(0, upto + 1)), what);
    if (st.cell === 'lstmn')
      same(shown, 'memory-summary', { only: rowOf(st.memorySummary, t) }, what);
  },
  classifier(st, t, what, shown) {
    same(shown, 'hidden', { 0: rowOf(st.hidden, 0) }, what);
    const hop = st.pooling === 'structured' ? t : 0;
    same(shown, 'weight', indexed(rowOf(st.weights, hop)), what);
    same(shown, 'label', indexed(Array.from(st.probs.data)), what);
    if (st.pooling === 'attention') same(shown, 'pooled', { only: rowOf(st.pooled, 0) }, what);
    if (st.pooling === 'structured') same(shown, 'penalty', { only: [st.penalty] }, what);
    if (st.pooling === 'han')
      same(shown, 'sentence-weight', indexed(Array.from(st.sentences.weights.data)), what);
  },
  transformer(st, t, what, shown, sel) {
    const [stack, kind] = sel.kind === 'cross' ? ['decoder', 'cross'] : [sel.kind, 'self'];
    const sub = st.sublayers.filter((s) => s.stack === stack && s.kind === kind)[sel.layer];
    const A = headOf(sub.weights, sel.head);
    same(shown, 'weights', { [t]: rowOf(A, t), 0: rowOf(A, 0) }, what);
    same(shown, 'q', { [t]: rowOf(headOf(sub.q, sel.head), t) }, what);
    same(shown, 'residual', { [t]: rowOf(sub.residual, t) }, what);
    if (sub.relative)
      same(shown, 'relative', { [t]: rowOf(headOf(sub.relative, sel.head), t) }, what);
  },
};

const CASES = [
  { model: 'dates-additive', input: DATE, step: 3 },
  { model: 'dates-local-p', input: 'Sunday, 22 November 2026', step: 4 },
  { model: 'dates-none', input: DATE, step: 2 },
  { model: 'lm-agreement-sarnn', input: FBI, step: 4 },
  { model: 'lm-agreement-lstmn', input: FBI, step: 5 },
  {
    model: 'clf-reviews-attention',
    input: 'The plot was not bad, but the music felt boring.',
    step: 3,
  },
  {
    model: 'clf-reviews-han',
    input: 'Fast delivery. Broke in a week. Would not recommend.',
    step: 1,
  },
  { model: 'clf-reviews-structured', input: "I expected to hate it and I didn't.", step: 2 },
  { model: 'tf-dates-relative', input: DATE, step: 3, sel: { kind: 'cross', layer: 1, head: 2 } },
  {
    model: 'tf-induction',
    input: '<s> k f t b m w k f t',
    step: 6,
    sel: { kind: 'decoder', layer: 0, head: 1 },
  },
];

async function openCase(c, lang = 'en') {
  const sel = c.sel ?? {};
  await page.setViewportSize({ width: 1280, height: 720 });
  await harness.open({
    model: c.model,
    input: c.input,
    step: c.step,
    lang,
    layer: sel.layer ?? 0,
    head: sel.head ?? 0,
    kind: sel.kind ?? null,
  });
}

for (const c of CASES) {
  test(`${c.model}: the picture's numbers are the model's states at step ${c.step + 1}`, async () => {
    await openCase(c);
    const result = await statesOf(c.model, c.input);
    assert.ok(
      result.states,
      `${c.model}: model.run(…, { states: true }) returns states (the states API)`,
    );
    const shown = await drawn(page);
    assert.equal(shown.step, c.step);
    const m = await nodeModel(c.model);
    EXPECT[m.architecture](result.states, c.step, c.model, shown, c.sel ?? {});
    await screenshot(page, `mechanism-${c.model}-en`);
    assert.deepEqual(problems, []);
  });
}

test('← → Home End on the picture step through time, and the drawn numbers follow', async () => {
  const c = CASES[0];
  await openCase(c);
  const { states } = await statesOf(c.model, c.input);
  const figure = page.locator('#demo').locator('.mech-figure');
  await figure.focus();
  await page.keyboard.press('ArrowRight');
  await waitDemo(page, '#demo', stateKey({ model: c.model, input: c.input, step: c.step + 1 }));
  let shown = await drawn(page);
  assert.equal(shown.step, c.step + 1);
  EXPECT.seq2seq(states, c.step + 1, 'after →', shown);
  assert.notDeepEqual(rowOf(states.weights, c.step + 1), rowOf(states.weights, c.step));
  await page.keyboard.press('Home');
  await waitDemo(page, '#demo', stateKey({ model: c.model, input: c.input, step: 0 }));
  EXPECT.seq2seq(states, 0, 'after Home', await drawn(page));
  await page.keyboard.press('End');
  const last = states.weights.shape[0] - 1;
  await waitDemo(page, '#demo', stateKey({ model: c.model, input: c.input, step: last }));
  shown = await drawn(page);
  assert.equal(shown.step, last);
  await page.keyboard.press('ArrowLeft');
  await waitDemo(page, '#demo', stateKey({ model: c.model, input: c.input, step: last - 1 }));
  // the ▶ button and the slider do the same
  await page.locator('#demo').locator('.mech-prev').click();
  await waitDemo(page, '#demo', stateKey({ model: c.model, input: c.input, step: last - 2 }));
  await page.locator('#demo').locator('.mech-slider').fill('1');
  await waitDemo(page, '#demo', stateKey({ model: c.model, input: c.input, step: 1 }));
  EXPECT.seq2seq(states, 1, 'after the slider', await drawn(page));
});

function subscript(n) {
  return String(n).replace(/[0-9]/g, (d) => '₀₁₂₃₄₅₆₇₈₉'[Number(d)]);
}

/** Which stages are lit: { picture: [stage…], panel: [stage…] } and the readout. */
function lit(p) {
  return p.locator('#demo').evaluate((demo) => {
    const r = demo.shadowRoot;
    const stages = (sel) => [
      ...new Set(Array.from(r.querySelectorAll(sel), (n) => n.getAttribute('data-stage'))),
    ];
    return {
      picture: stages('.mech-figure [data-lit]'),
      panel: stages('.mech-equations [data-lit]'),
      readout: r.querySelector('.mech-readout').textContent,
    };
  });
}

test('pointing at a stage lights its equation, and pointing at an equation lights the stage', async () => {
  const c = CASES[0];
  await openCase(c);
  const { states } = await statesOf(c.model, c.input);
  const demo = page.locator('#demo');
  const row = rowOf(states.weights, c.step);
  const at = row.indexOf(Math.max(...row)); // the tallest bar: a weight near 0 is a hairline
  const bar = demo.locator(`.mech-figure [data-stage="weight"][data-index="${at}"]`);
  await bar.hover();
  let now = await lit(page);
  assert.deepEqual(now.panel, ['weight']);
  assert.deepEqual(now.picture, ['weight']);
  assert.equal(now.readout, await bar.getAttribute('aria-label'));
  // the equation is filled with the numbers of the position pointed at
  const line = await demo.locator('.mech-equations [data-stage="weight"] .num').textContent();
  const name = `α₄,${subscript(at + 1)} = `;
  assert.ok(line.startsWith(name), `${line} names ${name}`);
  assert.ok(Math.abs(Number(line.slice(name.length).split(';')[0]) - row[at]) < 1e-3, line);
  // the reverse: an equation line lights every element of its stage in the picture
  await demo.locator('.mech-equations [data-stage="context"]').hover();
  now = await lit(page);
  assert.deepEqual(now.picture, ['context']);
  assert.deepEqual(now.panel, ['context']);
  const links = await demo.locator('.mech-figure [data-stage="context"][data-lit]').count();
  assert.ok(
    links > states.weights.shape[1],
    `every line into c_t and c_t itself are lit: ${links}`,
  );
  // keyboard focus does what hover does
  await page.mouse.move(0, 0);
  await demo.locator('.mech-figure [data-stage="score"][data-index="0"]').focus();
  now = await lit(page);
  assert.deepEqual(now.panel, ['score']);
  await demo.locator('.mech-equations [data-stage="query"]').focus();
  assert.deepEqual((await lit(page)).picture, ['query']);
});

test('Chinese draws its own strings; the English ones are gone', async () => {
  const c = CASES[3];
  await openCase(c, 'zh');
  const texts = await page.locator('#demo').evaluate((demo) => {
    const r = demo.shadowRoot;
    return {
      title: r.querySelector('.mech-eq-title').textContent,
      label: r.querySelector('.mech-svg').getAttribute('aria-label'),
      position: r.querySelector('.mech-position').textContent,
      play: r.querySelector('.mech-play').textContent,
    };
  });
  assert.equal(texts.title, t('zh', 'mech.equations'));
  assert.match(texts.label, /记忆 RNN/);
  assert.match(texts.position, /第 5 步/);
  assert.equal(texts.play, t('zh', 'time.play'));
  await screenshot(page, 'mechanism-zh-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'mechanism-zh-phone');
});

test('1280×720: the picture is inside the first screen; 390×844: the controls fit', async () => {
  for (const c of [CASES[0], CASES[5], CASES[8]]) {
    await openCase(c);
    // read in the page: a redraw (the model card arriving) may replace the <svg> between calls
    const box = await page.locator('#demo').evaluate((demo) => {
      // from the top of the page (an earlier focus may have scrolled it)
      const r = demo.shadowRoot.querySelector('.mech-svg')?.getBoundingClientRect();
      return r && { y: r.y + window.scrollY, height: r.height };
    });
    assert.ok(
      box && box.y >= 0 && box.y + box.height <= 720,
      `${c.model}: the picture ${JSON.stringify(box)} in 1280×720`,
    );
  }
  await page.setViewportSize({ width: 390, height: 844 });
  const c = CASES[0];
  await harness.open({ model: c.model, input: c.input, step: c.step });
  const sizes = await page.locator('#demo').evaluate((demo) => {
    const r = demo.shadowRoot;
    const right = Math.max(
      ...Array.from(
        r.querySelectorAll('.mech-controls button'),
        (b) => b.getBoundingClientRect().right,
      ),
    );
    const fig = r.querySelector('.mech-figure');
    return {
      right,
      scroll: fig.scrollWidth,
      client: fig.clientWidth,
      page: document.documentElement.scrollWidth,
    };
  });
  assert.ok(sizes.right <= 390, `the step buttons fit a phone: ${sizes.right}`);
  assert.ok(sizes.page <= 390, `the page does not scroll sideways: ${sizes.page}`);
  assert.ok(sizes.scroll > sizes.client, 'the picture scrolls inside its box instead of shrinking');
  await screenshot(page, 'mechanism-en-phone');
});
