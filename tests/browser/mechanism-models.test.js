// mechanism-models.test.js: the Mechanism view on every model it offers (web/shared/models.js
// modelsForView('mechanism'), read from the code, so a model added later is covered), each with
// its sample input and with inputs nobody tuned the view for: one token, the longest input the
// box takes, words or characters the model does not know. mechanism.test.js checks the drawn
// numbers against the states API for one model of each family; this file checks that no model
// and no input breaks the view: it draws without an error, its picture starts inside the first
// 1280×720 screen, every number it carries is finite (−∞ only where a score is masked), and End
// and Home reach the last and the first step.

import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { MAX_INPUT } from '../../web/shared/app-state.js';
import { modelsForView, sampleFor } from '../../web/shared/models.js';
import { viewHarness } from './view-harness.js';

const harness = viewHarness('mechanism');
let page;
let problems;
before(async () => ({ page, problems } = await harness.start()));

/** What the view shows: its step, its step count, the picture's box, bad numbers, a blank line. */
function seen(p) {
  return p.locator('#demo').evaluate((demo) => {
    const root = demo.shadowRoot;
    const drawn = root.querySelector('.mech-figure');
    const fig = drawn && drawn.getClientRects().length > 0 ? drawn : null; // hidden: refused
    const slider = root.querySelector('.mech-slider');
    const bad = [];
    let values = 0;
    for (const n of fig?.querySelectorAll('[data-value]') ?? []) {
      for (const v of n.getAttribute('data-value').split(',')) {
        values++;
        const x = v === '-Infinity' ? -Infinity : Number(v);
        const masked = x === -Infinity && /score/i.test(n.getAttribute('data-stage') ?? '');
        if (!Number.isFinite(x) && !masked) bad.push(`${n.getAttribute('data-stage')}=${v}`);
      }
    }
    const box = fig?.getBoundingClientRect();
    const error = root.querySelector('.error:not([hidden])')?.textContent ?? '';
    return {
      step: fig ? Number(fig.dataset.step) : null,
      last: slider ? Number(slider.max) : null,
      top: box?.top ?? null,
      height: box?.height ?? 0,
      values,
      bad: bad.slice(0, 5),
      error,
    };
  });
}

/** Inputs of a model nobody tuned the view for: one token, the longest the box takes, unknowns. */
function inputsFor(name) {
  const sample = sampleFor(name);
  const words = /\s/.test(sample.trim());
  const long = (words ? 'the cat sat on the mat and ' : '0123456789 ').repeat(10);
  return [
    sample,
    words ? sample.split(/\s+/)[0] : sample[0],
    long.slice(0, MAX_INPUT).trim(),
    words ? 'zyxwv qqqq blorft' : '§§ ¿¿ ✓✓',
  ];
}

for (const { name } of modelsForView('mechanism')) {
  test(`${name}: draws its sample and untuned inputs, finite numbers, every step reachable`, async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    for (const input of inputsFor(name)) {
      const what = `${name} on ${JSON.stringify(input)}`;
      await harness.open({ model: name, input });
      const s = await seen(page);
      if (s.step === null) {
        // refused (view-blank: too long for the model's positions): the reason, alone on screen
        assert.notEqual(s.error.trim(), '', `${what}: nothing drawn, and the reason shown`);
        continue;
      }
      assert.equal(s.error, '', `${what}: no error line`);
      assert.ok(s.values > 0, `${what}: the picture carries its numbers`);
      assert.deepEqual(s.bad, [], `${what}: every number finite (−∞ only for masked scores)`);
      assert.ok(s.top >= 0 && s.top < 720 - 150, `${what}: the picture starts on the first screen`);
      assert.ok(s.height > 100, `${what}: the picture is drawn (${s.height} px)`);
      await page.locator('#demo .mech-figure').focus();
      await page.keyboard.press('End');
      await page.waitForFunction(
        (last) =>
          document.querySelector('#demo').shadowRoot.querySelector('.mech-figure').dataset.step ===
          String(last),
        s.last,
      );
      await page.keyboard.press('Home');
      await page.waitForFunction(
        () =>
          document.querySelector('#demo').shadowRoot.querySelector('.mech-figure').dataset.step ===
          '0',
      );
    }
    assert.deepEqual(problems, []);
  });
}
