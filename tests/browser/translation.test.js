// translation.test.js: the English → French models on the page (issue #14), in Chromium, in
// English and in Chinese: the gold-alignment toggle outlines the generator's alignment over the
// map and states the sentence's AER and gold attention mass, the same numbers Node computes with
// translation-metrics.js alignmentError on the same model (teacher-forced on the reference when
// the model's output differs from it, as the page says); a sentence the generator cannot write
// gets the plain "no gold alignment" note and no outline; the Examples menu lists one sentence per
// phenomenon and loads the one picked; the heads view outlines an en-fr transformer's
// cross-attention; the over-time view outlines the rows decoded so far (the reference forced once
// the output departs from it) and compare outlines every model's map with its AER and mass under
// it; compare runs the translation models together; gold in the hash is validated;
// no console errors. Nothing here asserts
// translation quality: every number is recomputed from whichever model files are present.

import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { EXAMPLES } from '../../web/shared/examples.js';
import { modelsFor } from '../../web/shared/models.js';
import { GOLD_STROKE } from '../../web/shared/draw.js';
import { t } from '../../web/shared/i18n.js';
import { parseEnglish } from '../../web/data/translation.js';
import { alignmentError } from '../../web/shared/translation-metrics.js';
import { canvasInk, screenshot } from './harness.js';
import { viewHarness } from './view-harness.js';

const harness = viewHarness('alignment');
let browser;
let page;
let problems;
before(async () => ({ browser, page, problems } = await harness.start()));

const SEQ = 'en-fr-additive';
const TF = 'en-fr-transformer-absolute';
const SENTENCE = 'the cat sees the red car .';
const key = (view, s) => viewHarness(view).stateKey(s);

async function open(view, s) {
  const k = key(view, s);
  await page.goto(`${browser.url}/web/#${k}`);
  await harness.waitDemo(page, '#demo', k);
  return k;
}

const MAP_OF = { heads: '.head-map', time: '.time-map' };

/** Wait until the view's gold note says kind ('metrics', 'none', …); then what the view shows. */
async function goldShown(view, kind) {
  await page.waitForFunction(
    ([v, k]) =>
      document
        .querySelector('#demo')
        .shadowRoot.querySelector(`section[data-view="${v}"] .gold-note p[data-gold="${k}"]`),
    [view, kind],
    { timeout: 15000 },
  );
  return page.locator('#demo').evaluate(
    (el, [v, mapSelector]) => {
      const section = el.shadowRoot.querySelector(`section[data-view="${v}"]`);
      const map = section.querySelector(mapSelector);
      const note = {};
      for (const p of section.querySelectorAll('.gold-note p'))
        note[p.dataset.gold] = p.textContent;
      return {
        note,
        checked: section.querySelector('input[data-action="gold"]').checked,
        toggle: section.querySelector('.gold-toggle label').textContent,
        gold: map.gold,
        rowLabels: map.data && [...map.data.rowLabels],
        colLabels: map.data && [...map.data.colLabels],
        json: map.data && map.toJSON(),
        svgGold:
          map.data &&
          (
            map
              .toSVG()
              .match(/<g class="gold">[\s\S]*?<\/g>/)?.[0]
              .match(/<rect /g) ?? []
          ).length,
      };
    },
    [view, MAP_OF[view] ?? '.align-map'],
  );
}

/** Canvas pixels of the map at selector close to the gold outline's red (viridis has none). */
async function redPixels(selector) {
  const red = [1, 3, 5].map((i) => parseInt(GOLD_STROKE.line.slice(i, i + 2), 16));
  return (await canvasInk(page.locator(`#demo ${selector}`), { near: red })).ink;
}

/**
 * Node's own reading of the gold (an oracle beside web/shared/gold.js): the generator's record,
 * the map the page must draw (the model's own, or teacher-forced on the reference when its output
 * differs), and alignmentError of that map.
 */
async function nodeGold(name, input, { layer = 0, head = 0 } = {}) {
  const model = await harness.nodeModel(name);
  const ex = parseEnglish(input);
  const r = model.run(input);
  const eos = model.tokenizer.specials.eos;
  const forced = r.tokens.filter((w) => w !== eos).join(' ') !== ex.tgtTokens.join(' ');
  const ids = ex.tgtTokens.map((w) => model.tokenizer.tgt.get(w));
  let weights;
  if (model.architecture === 'transformer') {
    const maps = forced
      ? model.forward(input, Int32Array.from([model.bosId, ...ids])).attention
      : r.attention;
    weights = maps.find((m) => m.kind === 'cross' && m.layer === layer && m.head === head).weights;
  } else {
    weights = forced
      ? model.score(input, Int32Array.from([...ids, model.eosId])).attention
      : r.attention[0].weights;
  }
  return {
    ex,
    forced,
    metrics: alignmentError(weights, ex.alignment),
    rows: forced ? [...ex.tgtTokens, eos] : r.tokens,
  };
}

/** The note's metrics sentence for m, as the page words it (gold.js: three decimals). */
const metricsText = (lang, m) =>
  t(lang, 'gold.metrics', {
    aer: m.aer.toFixed(3),
    mass: m.mass.toFixed(3),
    hits: m.hits,
    rows: m.rows,
    links: m.gold,
  });

test("the gold toggle outlines the generator's alignment; AER and mass as Node computes them (English and Chinese)", async () => {
  // off: the toggle is there, unchecked, nothing outlined; a click turns it on and into the URL
  await open('alignment', { model: SEQ, input: SENTENCE });
  assert.equal(await redPixels('.align-map'), 0, 'no outline while the toggle is off');
  await page
    .locator('#demo')
    .evaluate((el) =>
      el.shadowRoot
        .querySelector('section[data-view="alignment"] input[data-action="gold"]')
        .click(),
    );
  await harness.waitDemo(
    page,
    '#demo',
    key('alignment', { model: SEQ, input: SENTENCE, gold: true }),
  );
  assert.equal(
    new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('gold'),
    '1',
  );
  const want = await nodeGold(SEQ, SENTENCE);
  for (const lang of ['en', 'zh']) {
    await open('alignment', { model: SEQ, input: SENTENCE, gold: true, lang });
    const g = await goldShown('alignment', 'metrics');
    assert.equal(g.checked, true);
    assert.equal(g.toggle, t(lang, 'gold.toggle'));
    assert.equal(
      g.note.metrics,
      metricsText(lang, want.metrics),
      `${lang}: the note's AER and mass are Node's`,
    );
    assert.deepEqual(g.gold, want.ex.alignment, 'gold[j]: the English words of French token j');
    assert.deepEqual(g.json.gold, want.ex.alignment, 'the JSON export carries the gold');
    const links = want.ex.alignment.flat().length;
    assert.equal(
      g.svgGold,
      2 * (links + 1),
      'the SVG outlines every gold cell and the key (halo and line each)',
    );
    assert.deepEqual(
      g.rowLabels,
      want.rows,
      "rows: the reference's tokens when forced, else the output's",
    );
    assert.deepEqual(g.colLabels, want.ex.srcTokens);
    assert.equal(
      'forced' in g.note,
      want.forced,
      'the forced note exactly when the output differs from the reference',
    );
    if (want.forced)
      assert.equal(g.note.forced, t(lang, 'gold.forced', { reference: want.ex.tgt }));
    assert.ok(
      (await redPixels('.align-map')) >= 8 * want.ex.alignment.length,
      'every gold cell outlined on the canvas',
    );
    await screenshot(page, `translation-gold-${lang}`);
  }
  // typed without a final mark, or with "?": read as typed (the generator writes every ending)
  for (const typed of ['she sees him', 'she sees him?']) {
    const w2 = await nodeGold(SEQ, typed);
    await open('alignment', { model: SEQ, input: typed, gold: true });
    const g2 = await goldShown('alignment', 'metrics');
    assert.equal(g2.note.metrics, metricsText('en', w2.metrics));
    assert.deepEqual(
      g2.colLabels,
      typed.endsWith('?') ? ['she', 'sees', 'him', '?'] : ['she', 'sees', 'him'],
    );
    assert.deepEqual(g2.gold, w2.ex.alignment);
  }
  assert.deepEqual(problems, []);
});

test('a sentence the generator cannot write: a plain "no gold alignment" note, no outline (English and Chinese)', async () => {
  const input = 'colorless green ideas sleep furiously';
  assert.equal(parseEnglish(input), null);
  for (const lang of ['en', 'zh']) {
    await open('alignment', { model: SEQ, input, gold: true, lang });
    const g = await goldShown('alignment', 'none');
    assert.deepEqual(Object.keys(g.note), ['none']);
    assert.equal(g.note.none, t(lang, 'gold.none'));
    assert.equal(g.gold, null);
    assert.equal(await redPixels('.align-map'), 0);
    await screenshot(page, `translation-no-gold-${lang}`);
  }
  assert.deepEqual(problems, []);
});

test('the Examples menu lists one sentence per phenomenon and loads the one picked (English and Chinese)', async () => {
  const list = EXAMPLES.translation;
  const pick = list.findIndex((e) => e.phenomenon === 'adjectives-reversed');
  for (const lang of ['en', 'zh']) {
    await open('alignment', { model: SEQ, input: SENTENCE, gold: true, lang });
    const options = await page
      .locator('#demo')
      .evaluate((el) =>
        Array.from(el.shadowRoot.querySelectorAll('#examples option'), (o) => o.textContent),
      );
    assert.equal(options[0], t(lang, 'examples.choose'));
    assert.deepEqual(
      options.slice(1, list.length + 1),
      list.map((e) => `${e.input} — ${e.shows[lang]}`),
      `${lang}: every phenomenon, labelled`,
    );
    await page.locator('#demo').evaluate((el, i) => {
      const sel = el.shadowRoot.querySelector('#examples');
      sel.value = String(i);
      sel.dispatchEvent(new Event('change'));
    }, pick);
    const input = list[pick].input;
    await harness.waitDemo(
      page,
      '#demo',
      key('alignment', { model: SEQ, input, gold: true, lang }),
    );
    assert.equal(
      await page.locator('#demo').evaluate((el) => el.shadowRoot.querySelector('#input').value),
      input,
    );
    const g = await goldShown('alignment', 'metrics');
    assert.equal(g.note.metrics, metricsText(lang, (await nodeGold(SEQ, input)).metrics));
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await open('alignment', { model: SEQ, input: list[pick].input, gold: true, lang: 'zh' });
  await goldShown('alignment', 'metrics');
  await screenshot(page, 'translation-gold-phone-zh');
  const fits = await page
    .locator('#demo')
    .evaluate((el) => el.shadowRoot.querySelector('.gold').scrollWidth <= 390);
  assert.ok(fits, 'the gold panel fits a phone');
  await page.setViewportSize({ width: 1024, height: 800 });
  assert.deepEqual(problems, []);
});

test("the heads view outlines an en-fr transformer's cross-attention; other kinds say why not", async () => {
  const input = 'she sees him .';
  for (const [layer, head] of [
    [0, 0],
    [1, 2],
  ]) {
    await open('heads', { model: TF, input, gold: true, layer, head });
    const g = await goldShown('heads', 'metrics');
    const want = await nodeGold(TF, input, { layer, head });
    assert.equal(g.note.metrics, metricsText('en', want.metrics), `layer ${layer} head ${head}`);
    assert.deepEqual(g.gold, want.ex.alignment);
    assert.deepEqual(g.rowLabels, want.rows);
  }
  await open('heads', { model: TF, input, gold: true, kind: 'encoder' });
  const g = await goldShown('heads', 'kind');
  assert.equal(g.gold, null);
  assert.deepEqual(problems, []);
});

test('gold in the hash: anything but 1 or 0 is refused and named; dates models show no toggle', async () => {
  await page.goto(
    `${browser.url}/web/#view=alignment&model=${SEQ}&input=she%20sees%20him%20.&gold=yes`,
  );
  await page.waitForFunction(() => document.querySelector('#demo')?.dataset.rendered, null, {
    timeout: 15000,
  });
  assert.match(await page.locator('#refused').textContent(), /gold/);
  assert.equal(
    await page
      .locator('#demo')
      .evaluate(
        (el) =>
          el.shadowRoot.querySelector('section[data-view="alignment"] input[data-action="gold"]')
            .checked,
      ),
    false,
  );
  await open('alignment', { model: 'dates-additive', input: '22 Nov 2026', gold: true });
  assert.equal(
    await page
      .locator('#demo')
      .evaluate((el) => el.shadowRoot.querySelector('section[data-view="alignment"] .gold').hidden),
    true,
  );
  assert.equal(await redPixels('.align-map'), 0);
});

test('compare runs the translation models side by side when the current model is one', async () => {
  const input = 'she sees him .';
  await open('compare', { model: 'en-fr-dot', input });
  const figures = await page
    .locator('#demo')
    .evaluate((el) =>
      Array.from(el.shadowRoot.querySelectorAll('figure[data-model]'), (f) => f.dataset.model),
    );
  assert.deepEqual(
    figures,
    modelsFor('seq2seq')
      .filter((m) => m.task === 'translation')
      .map((m) => m.name),
  );
  const pickers = await page
    .locator('#demo')
    .evaluate((el) =>
      Array.from(el.shadowRoot.querySelectorAll('#model-a option'), (o) => o.value),
    );
  assert.deepEqual(pickers, figures);
  assert.deepEqual(problems, []);
});

test('the over-time view of a translation model lists the words it does not know', async () => {
  const input = 'the zorblax sees the cat .';
  const model = await harness.nodeModel(SEQ);
  const want = model.run(input).unknownWords;
  assert.deepEqual(want, ['zorblax']);
  await open('time', { model: SEQ, input });
  const note = await page
    .locator('#demo')
    .evaluate((el) => el.shadowRoot.querySelector('.unknown-words').textContent);
  assert.equal(note, t('en', 'input.unknown', { unk: '<unk>', words: want.join(', ') }));
  assert.deepEqual(problems, []);
});

/** A sentence the general model translates with "de écoles" where the reference elides "d'écoles". */
const DEPARTS = 'this goat does not paint some schools .';

/**
 * Node's own over-time reading (an oracle beside time-view.js): decode steps tokens of the source;
 * while they are the reference's prefix, those rows; else the reference forced (model.score), its
 * first rows; alignmentError of the rows drawn against their gold.
 */
async function nodeTimeGold(name, input, steps) {
  const model = await harness.nodeModel(name);
  const ex = parseEnglish(input);
  const decoder = model.startDecoding(input);
  const S = decoder.srcTokens.length;
  const rows = [];
  const tokens = [];
  for (let i = 0; i < steps; i++) {
    const st = decoder.step();
    rows.push(Array.from(st.weights));
    tokens.push(st.token);
    if (st.done) break;
  }
  if (!tokens.includes(model.tokenizer.specials.eos)) decoder.dispose();
  const reference = [...ex.tgtTokens, model.tokenizer.specials.eos];
  const forced = tokens.some((w, i) => w !== reference[i]);
  let data = Float32Array.from(rows.flat());
  let n = tokens.length;
  if (forced) {
    const ids = ex.tgtTokens.map((w) => model.tokenizer.tgt.get(w));
    const scored = model.score(input, Int32Array.from([...ids, model.eosId])).attention;
    n = Math.min(n, scored.shape[0]);
    data = scored.data.slice(0, n * S);
  }
  const gold = ex.alignment.slice(0, n);
  return {
    ex,
    forced,
    n,
    gold,
    rowLabels: forced ? reference.slice(0, n) : tokens,
    metrics: alignmentError({ data, shape: [n, S] }, gold),
  };
}

test('the over-time view outlines the gold of the rows decoded so far; AER and mass as Node computes them (English and Chinese)', async () => {
  const model = 'en-fr-general';
  for (const lang of ['en', 'zh']) {
    // the output so far is the reference's prefix: the decoded rows, scored
    for (const [input, step, kind] of [
      [SENTENCE, 3, 'steps'],
      [DEPARTS, 4, 'steps'],
      [DEPARTS, 7, 'forced'],
    ]) {
      await open('time', { model, input, gold: true, step, lang });
      const g = await goldShown('time', 'metrics');
      const want = await nodeTimeGold(model, input, step);
      assert.equal(
        want.forced,
        kind === 'forced',
        `${input} at ${step}: the oracle agrees on which case it is`,
      );
      assert.equal(g.checked, true);
      assert.equal(g.toggle, t(lang, 'gold.toggle'));
      assert.ok(kind in g.note, `${lang} ${input} at ${step}: the ${kind} note`);
      if (kind === 'forced')
        assert.equal(
          g.note.forced,
          t(lang, 'gold.timeForced', { reference: want.ex.tgt, rows: want.n }),
        );
      else
        assert.equal(
          g.note.steps,
          t(lang, 'gold.timeSoFar', { rows: want.n, total: want.ex.tgtTokens.length + 1 }),
        );
      assert.equal(
        g.note.metrics,
        metricsText(lang, want.metrics),
        `${lang} ${input} at ${step}: the note's AER and mass are Node's`,
      );
      assert.deepEqual(g.rowLabels, want.rowLabels);
      assert.deepEqual(g.colLabels, want.ex.srcTokens);
      assert.deepEqual(g.json.gold, want.gold, 'the outline covers the rows drawn');
      const links = want.gold.flat().length;
      assert.equal(links, want.metrics.gold);
      assert.equal(
        g.svgGold,
        2 * (links + 1),
        'the SVG outlines every gold cell drawn and the key',
      );
      assert.ok(
        (await redPixels('.time-map')) >= 8 * want.n,
        'every drawn gold cell outlined on the canvas',
      );
    }
    await screenshot(page, `translation-time-gold-${lang}`);
    // nothing decoded yet (Reset: step 0; no step opens on the whole output): the note says how
    // the gold will appear
    await open('time', { model, input: SENTENCE, gold: true, step: 0, lang });
    assert.equal((await goldShown('time', 'ready')).note.ready, t(lang, 'gold.timeReady'));
    // a sentence the generator cannot write
    await open('time', {
      model,
      input: 'colorless green ideas sleep furiously',
      gold: true,
      step: 2,
      lang,
    });
    const none = await goldShown('time', 'none');
    assert.deepEqual(Object.keys(none.note), ['none']);
    assert.equal(none.note.none, t(lang, 'gold.none'));
    assert.equal(none.gold, null);
    assert.equal(await redPixels('.time-map'), 0);
  }
  // typed without a final mark: decoded as typed
  await open('time', { model, input: 'she sees him', gold: true, step: 2 });
  const g = await goldShown('time', 'metrics');
  const want = await nodeTimeGold(model, 'she sees him', 2);
  assert.equal(g.note.metrics, metricsText('en', want.metrics));
  assert.deepEqual(g.colLabels, ['she', 'sees', 'him']);
  assert.deepEqual(g.colLabels, want.ex.srcTokens);
  assert.deepEqual(problems, []);
});

/** What compare shows with the gold on: per model its score line, outline and SVG count; the note. */
async function compareGold(kind) {
  await page.waitForFunction(
    (k) =>
      document
        .querySelector('#demo')
        .shadowRoot.querySelector(`section[data-view="compare"] .gold-note p[data-gold="${k}"]`),
    kind,
    { timeout: 15000 },
  );
  return page.locator('#demo').evaluate((el) => {
    const section = el.shadowRoot.querySelector('section[data-view="compare"]');
    const note = {};
    for (const p of section.querySelectorAll('.gold-note p')) note[p.dataset.gold] = p.textContent;
    const figures = {};
    for (const f of section.querySelectorAll('figure[data-model]')) {
      const map = f.querySelector('attn-heatmap'); // none for a model without attention: its panel
      const score = f.querySelector('.gold-score');
      figures[f.dataset.model] = {
        score: score && { kind: score.dataset.gold, text: score.textContent },
        gold: map ? map.gold : null,
        rowLabels: map ? [...map.data.rowLabels] : null,
        svgGold: map
          ? (
              map
                .toSVG()
                .match(/<g class="gold">[\s\S]*?<\/g>/)?.[0]
                .match(/<rect /g) ?? []
            ).length
          : null,
        panel: f.querySelector('.no-attention')?.textContent ?? null,
      };
    }
    return { note, figures, diffGold: section.querySelector('.diff-map').gold };
  });
}

test("compare outlines the gold on every model's map with its AER and mass; the model without attention says so (English and Chinese)", async () => {
  const input = DEPARTS;
  for (const lang of ['en', 'zh']) {
    await open('compare', {
      model: 'en-fr-general',
      input,
      gold: true,
      lang,
      a: 'en-fr-general',
      b: 'en-fr-none',
    });
    const c = await compareGold('compare');
    const ex = parseEnglish(input);
    const links = ex.alignment.flat().length;
    assert.equal(c.note.compare, t(lang, 'gold.compare', { reference: ex.tgt, links }));
    const names = modelsFor('seq2seq')
      .filter((m) => m.task === 'translation')
      .map((m) => m.name);
    assert.deepEqual(Object.keys(c.figures), names);
    for (const name of names) {
      const f = c.figures[name];
      const want = await nodeGold(name, input);
      if (name === 'en-fr-none') {
        // no map of zeros to outline: the panel, and the score line says why
        assert.deepEqual(f, {
          score: { kind: 'noAttention', text: t(lang, 'gold.compareNone') },
          gold: null,
          rowLabels: null,
          svgGold: null,
          panel: t(lang, 'attention.none'),
        });
        continue;
      }
      assert.deepEqual(f.gold, ex.alignment, `${name}: outlined`);
      assert.equal(f.svgGold, 2 * (links + 1), `${name}: every gold cell outlined, and the key`);
      assert.deepEqual(
        f.rowLabels,
        want.rows,
        `${name}: the reference's rows when forced, else its own`,
      );
      if (name === 'en-fr-none') {
        assert.deepEqual(f.score, { kind: 'noAttention', text: t(lang, 'gold.compareNone') });
      } else {
        const text = [
          t(lang, 'gold.compareScore', {
            aer: want.metrics.aer.toFixed(3),
            mass: want.metrics.mass.toFixed(3),
          }),
          ...(want.forced ? [t(lang, 'gold.compareForced')] : []),
        ].join(' ');
        assert.deepEqual(
          f.score,
          { kind: 'metrics', text },
          `${lang} ${name}: Node's AER and mass`,
        );
      }
    }
    assert.equal(c.diffGold, null, "A − B (the models' own outputs) is not outlined");
    for (const name of ['en-fr-general']) {
      assert.ok(
        (await redPixels(`figure[data-model="${name}"] attn-heatmap`)) >= 8 * ex.alignment.length,
        `${name}: outlined on the canvas`,
      );
    }
    await screenshot(page, `translation-compare-gold-${lang}`);
    await open('compare', {
      model: 'en-fr-general',
      input: 'colorless green ideas sleep furiously',
      gold: true,
      lang,
    });
    const none = await compareGold('none');
    assert.equal(none.note.none, t(lang, 'gold.none'));
    for (const f of Object.values(none.figures)) assert.deepEqual([f.gold, f.score], [null, null]);
  }
  assert.deepEqual(problems, []);
});

/** The warning under the input once it has settled on text (null: no warning shown). */
async function warningShown(expected) {
  await page.waitForFunction(
    (want) => {
      const w = document.querySelector('#demo').shadowRoot.querySelector('.domain-warning');
      return want === null ? w.hidden : !w.hidden && w.textContent === want;
    },
    expected,
    { timeout: 15000 },
  );
  return page.locator('#demo').evaluate((el) => {
    const r = el.shadowRoot;
    const w = r.querySelector('.domain-warning');
    return {
      warning: w.hidden ? null : w.textContent,
      unknown: r.querySelector('.unknown-words').hidden
        ? null
        : r.querySelector('.unknown-words').textContent,
    };
  });
}

test("a sentence outside the generator's grammar is warned about next to the French; its own sentences, with any ending, are not (English and Chinese)", async () => {
  for (const lang of ['en', 'zh']) {
    await open('alignment', { model: SEQ, input: 'him sees she', lang });
    assert.equal(
      (await warningShown(t(lang, 'domain.grammar'))).warning,
      t(lang, 'domain.grammar'),
    );
    await screenshot(page, `translation-warning-${lang}`);
    for (const input of ['she sees him', 'she sees him?', SENTENCE]) {
      await open('alignment', { model: SEQ, input, lang });
      assert.equal((await warningShown(null)).warning, null, input);
    }
  }
  // unknown words: named by the unknown-words note, no grammar warning on top
  await open('alignment', { model: SEQ, input: 'the movie was great .' });
  const u = await warningShown(null);
  assert.match(u.unknown, /movie/);
  assert.deepEqual(problems, []);
});
