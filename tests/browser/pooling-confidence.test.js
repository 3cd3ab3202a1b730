// tests/browser/pooling-confidence.test.js: the Pooling view's calibrated confidence (issue 30,
// web/views/pooling-view.js, web/shared/confidence.js) in Chromium, in English and Chinese: the
// confidence beside the label is Node's top probability (the model file's temperature applied);
// "unsure" and its note show for an answer under UNSURE_BELOW and only then; the unknown-words
// note shows for an input whose unknownShare is at least MANY_UNKNOWN, with its share, and not
// for a clear review in the vocabulary; a typo the spelling step corrects is named as read, not
// as unknown, and a real word the vocabulary lacks is named as unknown, never read as another
// word (tokenizer.spellingKeep). Screenshots at 1280×720 and 390×844.

import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { formatValue } from '../../web/shared/draw.js';
import { modelsFor } from '../../web/shared/models.js';
import { t } from '../../web/shared/i18n.js';
import { MANY_UNKNOWN, UNSURE_BELOW } from '../../web/shared/confidence.js';
import { screenshot } from './harness.js';
import { viewHarness } from './view-harness.js';

const CLASSIFIERS = modelsFor('classifier').map((m) => m.name);
// What each input is for (checked against Node's answer below, so none can pass vacuously).
const UNSURE = 'It is what it is.';
const UNKNOWN = 'Zorblax quuxed frobnicators.';
const CLEAR = 'The food was great and the staff were friendly.';

const harness = viewHarness('pooling');
let page;
before(async () => ({ page } = await harness.start()));

function read(p) {
  return p.locator('#demo').evaluate((el) => {
    const root = el.shadowRoot.querySelector('section[data-view="pooling"]');
    const shownText = (sel) => {
      const n = root.querySelector(sel);
      // shown: not hidden, and no style undoes [hidden]
      const visible = n && !n.hidden && getComputedStyle(n).display !== 'none';
      if (n && n.hidden && getComputedStyle(n).display !== 'none') return 'hidden but drawn';
      return visible ? n.textContent : null;
    };
    return {
      confidence: shownText('.clf-confidence'),
      unsure: shownText('.clf-unsure'),
      unsureNote: shownText('.clf-unsure-note'),
      unknownNote: shownText('.clf-many-unknown'),
      calibration: root.querySelector('.clf-calibration').textContent,
    };
  });
}

async function check(name, input, lang) {
  await harness.open({ model: name, input, lang });
  const model = await harness.nodeModel(name);
  const r = model.classify(input);
  const top = r.probs[r.labelId];
  const v = await read(page);
  assert.equal(v.confidence, t(lang, 'confidence.value', { value: formatValue(top) }));
  assert.equal(v.calibration, t(lang, 'confidence.about', { T: String(model.config.temperature) }));
  const unsure = top < UNSURE_BELOW;
  assert.equal(v.unsure, unsure ? t(lang, 'confidence.unsure') : null, `${name} ${input}`);
  assert.equal(
    v.unsureNote,
    unsure ? t(lang, 'confidence.unsureWhy', { threshold: formatValue(UNSURE_BELOW) }) : null,
  );
  const many = r.unknownShare >= MANY_UNKNOWN;
  assert.equal(v.unknownNote !== null, many, `${name} ${input}: unknown note`);
  if (many)
    assert.equal(
      v.unknownNote,
      t(lang, 'confidence.manyUnknown', { share: `${Math.round(100 * r.unknownShare)}%` }),
    );
  return { unsure, many, top, share: r.unknownShare };
}

for (const lang of ['en', 'zh']) {
  test(`${lang}: "unsure" and the unknown-words note, and neither for a clear review`, async () => {
    assert.equal(CLASSIFIERS.length, 3);
    for (const name of CLASSIFIERS) {
      const u = await check(name, UNSURE, lang);
      assert.ok(u.unsure && !u.many, `${name}: "${UNSURE}" ${u.top} should be unsure`);
      const k = await check(name, UNKNOWN, lang);
      assert.ok(k.many && k.share === 1, `${name}: "${UNKNOWN}" share ${k.share}`);
      const c = await check(name, CLEAR, lang);
      assert.ok(!c.unsure && !c.many, `${name}: "${CLEAR}" ${c.top}, share ${c.share}`);
    }
  });
}

test('screenshots: wide and phone, English and Chinese', async () => {
  const name = CLASSIFIERS.find((n) => n.endsWith('han'));
  for (const lang of ['en', 'zh']) {
    for (const [w, h] of [
      [1280, 720],
      [390, 844],
    ]) {
      await page.setViewportSize({ width: w, height: h });
      await harness.open({ model: name, input: 'Well, the quokka existed.', lang });
      const v = await read(page);
      assert.ok(v.unsure && v.unknownNote, 'both notes show');
      // nothing sticks out sideways
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `${lang} ${w}: ${overflow} px of sideways scroll`);
      await screenshot(page, `pooling-confidence-${lang}-${w}`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 720 });
});

// A typo the spelling step reads as a vocabulary word is no unknown word: the note under the
// input says what it was read as, and the "read as <unk>" note does not name it.
const TYPO = 'I wouldnt reccomend it, the zorblax broke.';
for (const lang of ['en', 'zh']) {
  test(`${lang}: a corrected typo is named as read, not as unknown`, async () => {
    const name = 'clf-reviews-han';
    await harness.open({ model: name, input: TYPO, lang });
    const r = (await harness.nodeModel(name)).classify(TYPO);
    assert.ok(r.corrected.length > 0, `Node corrects a word of "${TYPO}"`);
    const typed = new Set(r.corrected.map(([w]) => w));
    const unknown = r.unknownWords.filter((w) => !typed.has(w));
    assert.ok(unknown.length > 0, 'and leaves an unknown word');
    const notes = await page.locator('#demo').evaluate((el) => {
      const text = (sel) => {
        const n = el.shadowRoot.querySelector(sel);
        return n && !n.hidden ? n.textContent : null;
      };
      return { corrected: text('.corrected-words'), unknown: text('.unknown-words') };
    });
    const pairs = r.corrected.map(([w, read]) => `${w} → ${read}`).join(', ');
    assert.equal(notes.corrected, t(lang, 'input.corrected', { pairs }));
    assert.equal(
      notes.unknown,
      t(lang, 'input.unknown', { unk: '<unk>', words: unknown.join(', ') }),
      'the unknown-words note names only the words read as <unk>',
    );
  });
}

// A real word the vocabulary lacks is not "corrected" into another word (tokenizer.spellingKeep):
// "dripping" is not read as "dropping", "lining" not as "liking"; the misspelling still is.
const REAL = 'The lining is tearing, tap dripping. wouldnt reccomend'; // the page reads up to 64 characters
for (const lang of ['en', 'zh']) {
  test(`${lang}: real words stay as typed, only the misspelling is read as another word`, async () => {
    const name = 'clf-reviews-attention';
    await harness.open({ model: name, input: REAL, lang });
    const r = (await harness.nodeModel(name)).classify(REAL);
    assert.deepEqual(r.corrected, [['reccomend', 'recommend']], 'Node reads only the typo');
    for (const w of ['lining', 'tearing', 'dripping']) assert.ok(r.unknownWords.includes(w), w);
    const notes = await page.locator('#demo').evaluate((el) => {
      const text = (sel) => {
        const n = el.shadowRoot.querySelector(sel);
        return n && !n.hidden ? n.textContent : null;
      };
      return { corrected: text('.corrected-words'), unknown: text('.unknown-words') };
    });
    assert.equal(notes.corrected, t(lang, 'input.corrected', { pairs: 'reccomend → recommend' }));
    for (const w of ['lining', 'tearing', 'dripping'])
      assert.ok(notes.unknown?.includes(w), `${lang}: "${w}" is named as read as <unk>`);
  });
}
