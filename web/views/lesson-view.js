// lesson-view.js: the guided lesson, ten steps along the papers (lesson-steps.js), each a short
// text, its equations, a live widget already set up and a "try this" prompt.
//
//   const lesson = new LessonView(container, {
//     href: (n, lang) => `#view=lesson&step=${n}&lang=${lang}`,   // the step list's links
//     labHref: (preset, lang) => `#view=lab&preset=${preset}&lang=${lang}`,   // step 10's links
//     onStep: (n) => …,                                            // previous / next / ← →
//     onRender: (n) => …,                                          // step n's widget has drawn
//   });
//   lesson.show(2, 'en');   // builds step 2, makes its widget (and only its)
//   lesson.hide();          // removes the widget (its models are freed) and the key listener
//   new LessonView(container, { single: true, wholeHref, labHref })   // embed.html: one step
//
// Shows: the step list (links, the current one marked), "Step n of 10", the title, the text, the
// equations (HTML sub/superscripts from their markup, each symbol titled with its meaning), the
// glossary of the step's symbols (lesson-glossary.js, a disclosure), the variant buttons of a
// step with several models, the widget (an <attn-demo> with the step's view, model and input;
// step 5's measurement, lesson-cost.js; step 10's links to the lab's presets), the prompt, and
// previous / next buttons.
// The left and right arrow keys move between steps unless the key belongs to something else: a
// field, a select, a slider, or anything inside the widget (a heatmap's cells, a reading view).
// Holds: the DOM and the key handling. Deliberately holds no text (i18n.js), no step data
// (lesson-steps.js) and no URL logic (the page's href/onStep: the step lives in its hash).

import { symbolsOf } from '../shared/glossary.js';
import { t } from '../shared/i18n.js';
import '../shared/lesson-text.js'; // the lesson's texts, added to the tables on first use
import { LESSON_HIDE, LESSON_STEPS, equationSource } from '../shared/lesson-steps.js';
import { el } from '../shared/view-kit.js';
import { GLOSSARY_STYLE, GlossaryPanel, lessonEquation } from './lesson-glossary.js';

/** Elements whose arrow keys are their own. */
const KEY_OWNERS = new Set(['INPUT', 'TEXTAREA', 'SELECT', 'ATTN-HEATMAP', 'ATTN-DEMO']);

/** An equation's DOM: its name in lang (if it has one), then text, <sub> and <sup> from its
 * markup, each symbol titled with its meaning (lesson-glossary.js).
 * @param {import('../shared/lesson-steps.js').LessonEquation} e @param {string} lang */
export function equationNode(e, lang) {
  const p = el('p', { class: 'eq' });
  if (typeof e !== 'string')
    p.append(
      el('span', { class: 'eq-name', text: `${t(lang, e.label)}${t(lang, 'lesson.colon')}` }),
    );
  p.append(...lessonEquation(equationSource(e), lang));
  return p;
}

/** Does a keydown belong to something that uses the arrow keys itself (or is it a chord)? */
function ownedKey(event, widget) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey)
    return true;
  for (const node of event.composedPath()) {
    if (!(node instanceof HTMLElement)) continue;
    if (node === widget) return true;
    if (
      KEY_OWNERS.has(node.tagName) ||
      node.isContentEditable ||
      node.getAttribute('role') === 'slider'
    )
      return true;
  }
  return false;
}

export class LessonView {
  #ui = {};
  #opts;
  #lang = 'en';
  #step = 0; // shown step (1-based); 0: none yet
  #variant = 0;
  #widget = null; // { kind: 'demo' | 'cost' | 'train', node, cost? }
  #keys = null; // AbortController of the document key listener
  #rendered = false;

  /**
   * @param {HTMLElement} container
   * @param {{ single?: boolean, href?: (n: number, lang: string) => string,
   *   labHref?: (preset: string, lang: string) => string,
   *   wholeHref?: (n: number, lang: string) => string, onStep?: (n: number) => void, onRender?: (n: number) => void }} [options]
   */
  constructor(container, options = {}) {
    this.#opts = {
      single: false,
      href: (n, lang) => `#view=lesson&step=${n}&lang=${lang}`,
      labHref: (preset, lang) => `#view=lab&preset=${preset}&lang=${lang}`,
      wholeHref: null,
      onStep: () => {},
      onRender: () => {},
      ...options,
    };
    const u = this.#ui;
    u.list = el('ol', { class: 'lesson-steps' });
    u.nav = el('nav', { class: 'lesson-nav' }, [u.list]);
    u.count = el('p', { class: 'lesson-count' });
    u.title = el('h3', { class: 'lesson-title', tabindex: '-1' });
    u.text = el('p', { class: 'lesson-text' });
    u.eqs = el('div', { class: 'lesson-eqs', role: 'group' });
    u.glossary = new GlossaryPanel();
    u.variants = el('div', { class: 'lesson-variants', role: 'group' });
    u.widget = el('div', { class: 'lesson-widget' });
    u.tryLabel = el('strong');
    u.tryText = el('span');
    u.tryGap = document.createTextNode(' ');
    u.try = el('aside', { class: 'lesson-try' }, [u.tryLabel, u.tryGap, u.tryText]);
    u.prev = el('button', { type: 'button', class: 'lesson-prev' });
    u.next = el('button', { type: 'button', class: 'lesson-next' });
    u.whole = el('a', { class: 'lesson-whole' });
    u.buttons = el('div', { class: 'lesson-buttons' }, [u.prev, u.next]);
    u.prev.addEventListener('click', () => this.#go(this.#step - 1));
    u.next.addEventListener('click', () => this.#go(this.#step + 1));
    const single = this.#opts.single;
    this.node = el('div', { class: `lesson${single ? ' lesson-single' : ''}` }, [
      el('style', { text: GLOSSARY_STYLE }),
      ...(single ? [] : [u.nav]),
      el('article', { class: 'lesson-step' }, [
        u.count,
        u.title,
        // the text beside the live widget, "Try this" just above it (one column on a phone)
        (u.body = el('div', { class: 'lesson-body' }, [
          el('div', { class: 'lesson-words' }, [u.text, u.eqs, u.glossary.node]),
          el('div', { class: 'lesson-side' }, [u.variants, u.try, u.widget]),
        ])),
      ]),
      single ? el('p', { class: 'lesson-buttons' }, [u.whole]) : u.buttons,
    ]);
    container.replaceChildren(this.node);
  }

  /** The shown step (1-based), 0 before the first show(). */
  get step() {
    return this.#step;
  }

  /** The step whose widget has drawn (0: none, or still loading). */
  get renderedStep() {
    return Number(this.#ui.widget.dataset.rendered ?? 0);
  }

  /** Show step n (1-based, a valid one: the page validated it) in lang; its widget is made now. */
  show(n, lang) {
    const changed = n !== this.#step;
    this.#lang = lang;
    if (changed) {
      this.#step = n;
      this.#variant = 0;
      this.#dropWidget();
    }
    this.#texts();
    if (!this.#widget) this.#makeWidget();
    else this.#widgetLang();
    if (!this.#keys && !this.#opts.single) {
      this.#keys = new AbortController();
      document.addEventListener('keydown', (e) => this.#onKey(e), { signal: this.#keys.signal });
    }
    if (changed && this.#rendered) this.#ui.title.focus({ preventScroll: true });
  }

  /** Leave the lesson: the widget goes (and with it its models), the keys are released. */
  hide() {
    this.#dropWidget();
    this.#step = 0;
    this.#keys?.abort();
    this.#keys = null;
  }

  #go(n) {
    if (n < 1 || n > LESSON_STEPS.length || n === this.#step) return;
    this.#opts.onStep(n);
  }

  #onKey(event) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    if (ownedKey(event, this.#ui.widget)) return;
    const n = this.#step + (event.key === 'ArrowRight' ? 1 : -1);
    if (n < 1 || n > LESSON_STEPS.length) return;
    event.preventDefault();
    this.#go(n);
  }

  /** Every text of the shown step and the chrome, in the current language. */
  #texts() {
    const u = this.#ui;
    const lang = this.#lang;
    const n = this.#step;
    const step = LESSON_STEPS[n - 1];
    const total = LESSON_STEPS.length;
    u.nav.setAttribute('aria-label', t(lang, 'lesson.steps'));
    u.list.replaceChildren(
      ...LESSON_STEPS.map((s, i) => {
        const a = el('a', { href: this.#opts.href(i + 1, lang), 'data-step': String(i + 1) }, [
          el('span', { class: 'lesson-num', text: String(i + 1) }),
          ' ',
          el('span', { text: t(lang, `${s.key}.short`) }),
        ]);
        a.title = t(lang, `${s.key}.title`);
        if (i + 1 === n) a.setAttribute('aria-current', 'step');
        return el('li', {}, [a]);
      }),
    );
    u.count.textContent = t(lang, 'lesson.stepOf', { n, total });
    u.title.textContent = t(lang, `${step.key}.title`);
    u.text.textContent = t(lang, `${step.key}.text`);
    u.eqs.setAttribute('aria-label', t(lang, 'lesson.equations'));
    u.eqs.replaceChildren(...step.equations.map((e) => equationNode(e, lang)));
    u.eqs.hidden = step.equations.length === 0;
    u.glossary.show(symbolsOf(step.equations.map(equationSource)), lang);
    const colon = t(lang, 'lesson.colon'); // ': ' or '：'; the space, if any, after the bold label
    u.tryLabel.textContent = `${t(lang, 'lesson.try')}${colon.trimEnd()}`;
    u.tryGap.textContent = colon.slice(colon.trimEnd().length);
    const mech = Array.isArray(step.widgets) && step.widgets[this.#variant]?.view === 'mechanism';
    u.tryText.textContent = t(lang, mech ? 'lesson.tryMechanism' : `${step.key}.try`);
    u.prev.textContent = t(lang, 'lesson.prev');
    u.next.textContent = t(lang, 'lesson.next');
    u.prev.disabled = n <= 1;
    u.next.disabled = n >= total;
    if (this.#opts.wholeHref) {
      u.whole.href = this.#opts.wholeHref(n, lang);
      u.whole.textContent = t(lang, 'lesson.whole');
    }
    u.variants.setAttribute('aria-label', t(lang, 'lesson.variants'));
    const widgets = Array.isArray(step.widgets) ? step.widgets : [];
    u.variants.hidden = widgets.length < 2;
    u.variants.replaceChildren(
      ...(widgets.length < 2
        ? []
        : widgets.map((w, i) => {
            const b = el('button', {
              type: 'button',
              'aria-pressed': String(i === this.#variant),
              'data-model': w.model,
              text: t(lang, w.label),
            });
            b.addEventListener('click', () => {
              if (i === this.#variant) return;
              this.#variant = i;
              this.#dropWidget();
              this.#texts();
              this.#makeWidget();
            });
            return b;
          })),
    );
    if (this.#widget?.kind === 'train') this.#fillTrain(this.#widget.node);
  }

  /** Make the shown step's widget (the only one on the page: the previous one was dropped). */
  #makeWidget() {
    const n = this.#step;
    const step = LESSON_STEPS[n - 1];
    const box = this.#ui.widget;
    box.dataset.step = String(n);
    // the mechanism's diagram takes the wider column, so that it need not scroll sideways
    const w0 = Array.isArray(step.widgets) ? step.widgets[this.#variant] : null;
    this.#ui.body.classList.toggle('lesson-mech', w0?.view === 'mechanism');
    const done = () => {
      this.#rendered = true;
      box.dataset.rendered = String(n);
      this.#opts.onRender(n);
    };
    delete box.dataset.rendered;
    if (step.widgets === 'train') {
      const node = el('div', { class: 'lesson-train' });
      this.#widget = { kind: 'train', node };
      this.#fillTrain(node);
      box.replaceChildren(node);
      queueMicrotask(done);
      return;
    }
    if (step.widgets === 'cost') {
      const node = el('div');
      this.#widget = { kind: 'cost', node };
      box.replaceChildren(node);
      import('./lesson-cost.js').then(
        ({ CostMeasure }) => {
          if (this.#widget?.node !== node) return; // the step changed meanwhile
          const cost = new CostMeasure({
            lang: this.#lang,
            onMeasured: () => this.#widget?.cost === cost && done(),
          });
          this.#widget.cost = cost;
          node.replaceChildren(cost.node);
          cost.start();
        },
        (err) =>
          node.replaceChildren(
            el('p', {
              class: 'error',
              text: t(this.#lang, 'lesson.cost.error', { message: err.message }),
            }),
          ),
      );
      return;
    }
    const w = step.widgets[this.#variant];
    const demo = document.createElement('attn-demo');
    demo.setAttribute('view', w.view);
    demo.setAttribute('model', w.model);
    if (w.input !== undefined) demo.setAttribute('input', w.input);
    if (w.step !== undefined) demo.setAttribute('step', String(w.step));
    if (w.kind !== undefined) demo.setAttribute('kind', w.kind);
    demo.setAttribute('lang', this.#lang);
    demo.setAttribute('hide', LESSON_HIDE);
    this.#widget = { kind: 'demo', node: demo };
    let first = true;
    demo.addEventListener('demo-render', () => {
      if (!first) return;
      first = false;
      if (w.view === 'alignment') this.#selectCell(demo);
      done();
    });
    box.replaceChildren(demo);
  }

  /** Step 2: select the first output's strongest cell, so its arithmetic is on screen unhovered. */
  #selectCell(demo) {
    const map = /** @type {any} */ (demo.shadowRoot?.querySelector('attn-heatmap.align-map'));
    const d = map?.data;
    if (!d || d.rows < 1) return;
    let best = 0;
    for (let j = 1; j < d.cols; j++) if (d.weights[j] > d.weights[best]) best = j;
    map.focusCell(0, best);
  }

  #fillTrain(node) {
    const lang = this.#lang;
    // the lab's two comparisons of the papers (web/lab/presets.js), then its dates preset (the
    // old Train view's model, additive against dot)
    const lab = (preset, key) =>
      el('li', {}, [
        el('a', {
          class: 'lesson-lab-link',
          href: this.#opts.labHref(preset, lang),
          text: t(lang, key),
        }),
      ]);
    node.replaceChildren(
      el('ul', { class: 'lesson-lab-links' }, [
        lab('with-without', 'lesson.lab.withWithout'),
        lab('additive-dot', 'lesson.lab.additiveDot'),
      ]),
      el('p', {}, [
        el('a', {
          class: 'lesson-train-link',
          href: this.#opts.labHref('dates', lang),
          text: t(lang, 'lesson.train.link'),
        }),
      ]),
    );
  }

  #widgetLang() {
    const w = this.#widget;
    if (w?.kind === 'demo') w.node.setAttribute('lang', this.#lang);
    else if (w?.kind === 'cost') w.cost?.setLang(this.#lang);
  }

  /** Remove the widget: <attn-demo> frees its models when it leaves the document. */
  #dropWidget() {
    this.#widget?.cost?.dispose();
    this.#widget = null;
    this.#ui.widget.replaceChildren();
  }
}
