// embed-page.js: wiring for web/embed.html, the iframe page. Query string -> <attn-demo>, or
// (view=lesson&step=N) one step of the guided lesson (views/lesson-view.js), or (view=lab&…) the
// lab, <attn-lab>, with the experiment of the query (web/lab/spec.js parseLabLink); view=train,
// the page's old Train view, opens the lab on its dates preset.
//
// Holds: reading and validating the query (app-state.js), creating the element with those
// settings, saying which parameters were refused, and keeping the query in step with what the
// person does (history.replaceState, which a sandboxed, opaque-origin iframe may refuse: then
// the element's own link still reproduces the view). Deliberately stores nothing (no cookies,
// no storage) and never puts URL text into HTML: attributes and textContent only.

import { init } from '../wasm/index.js';
import {
  formatModelParams,
  labQuery,
  parseLessonParams,
  parseModelParams,
  refusedNotice,
} from './shared/app-state.js';
import { define } from './embed.js';
import { wasmUrl } from './shared/fetch-problem.js';
import { t } from './shared/i18n.js';
import { sampleInput, takeEarly } from './shared/models.js';

// The wasm first-model.js started fetching, when it is the build this engine runs: init() takes
// it (so it is downloaded once; every later init() shares this one). A failed early fetch falls
// back to init()'s own, which names the problem.
const earlyWasm = takeEarly(wasmUrl());
if (earlyWasm) init({ wasm: earlyWasm.then((r) => (r?.ok ? r : wasmUrl())) }).catch(() => {});
define();

// The URL's origin, not the document's: a sandboxed iframe's document origin is 'null'.
const origin = new URL(location.href).origin;
const query = new URLSearchParams(location.search);
if (query.get('view') === 'lesson') embedLesson();
else if (query.get('view') === 'lab' || query.get('view') === 'train') embedLab();
else embedDemo();

/**
 * The lab (embed.html?view=lab&task=reverse&…&lang=zh, or &preset=with-without; view=train:
 * preset=dates): the query's experiment checked by spec.js (imported here, so the other embeds
 * never load it), what it refused named, and the query kept in step with the person's changes
 * (lab-change).
 */
function embedLab() {
  const lang = query.get('lang') === 'zh' ? 'zh' : 'en';
  document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';
  document.title = t(lang, 'page.embedTitle');
  const app = document.getElementById('app');
  import('./lab/spec.js').then(
    (spec) => {
      const { experiment, refused } = spec.parseLabLink(labQuery(query, ['view', 'lang', 'id']));
      if (query.has('lang') && !['en', 'zh'].includes(query.get('lang') ?? ''))
        refused.push('lang');
      const notice = document.getElementById('refused');
      notice.textContent = refusedNotice(refused, lang);
      notice.hidden = !notice.textContent;
      const lab = document.createElement('attn-lab');
      lab.setAttribute('experiment', spec.formatLabParams(experiment).toString());
      lab.setAttribute('lang', lang);
      app.append(lab);
      /** @type {any} */ (lab).whenReady().then(
        () => {
          app.dataset.state = 'ready';
        },
        () => {
          app.dataset.state = 'error';
        },
      );
      lab.addEventListener('lab-change', (e) => {
        const id = query.has('id') ? `&${new URLSearchParams({ id: query.get('id') })}` : '';
        const search = `?view=lab&${/** @type {CustomEvent} */ (e).detail.params}&lang=${lang}${id}`;
        try {
          if (location.search !== search) history.replaceState(null, '', search);
        } catch {
          // An opaque-origin document may not be allowed to rewrite its URL.
        }
      });
    },
    (err) => {
      const error = document.getElementById('error');
      error.textContent = t(lang, 'page.labFailed', { message: err.message });
      error.hidden = false;
      app.dataset.state = 'error';
    },
  );
}

/**
 * One step of the guided lesson (embed.html?view=lesson&step=3&lang=zh): its text, equations,
 * widget and prompt, and a link to the whole lesson on the page (views/lesson-view.js, imported
 * here so the other embeds never load it).
 */
function embedLesson() {
  const lesson = parseLessonParams(query);
  document.documentElement.lang = lesson.lang === 'zh' ? 'zh-Hans' : 'en';
  document.title = t(lesson.lang, 'page.embedTitle');
  const app = document.getElementById('app');
  const refused = document.getElementById('refused');
  refused.textContent = refusedNotice(lesson.refused, lesson.lang);
  refused.hidden = !refused.textContent;
  const box = document.createElement('div');
  app.append(box);
  const page = (hash) => new URL(`index.html${hash}`, location.href).href;
  import('./views/lesson-view.js').then(
    ({ LessonView }) => {
      const view = new LessonView(box, {
        single: true,
        wholeHref: (n, lang) => page(`#view=lesson&step=${n}&lang=${lang}`),
        labHref: (preset, lang) => page(`#view=lab&preset=${preset}&lang=${lang}`),
        onRender: (n) => {
          app.dataset.state = 'ready';
          app.dataset.rendered = `view=lesson&step=${n}&lang=${lesson.lang}`;
        },
      });
      view.show(lesson.step, lesson.lang);
    },
    (err) => {
      const error = document.getElementById('error');
      error.textContent = t(lesson.lang, 'lesson.failed', { message: err.message });
      error.hidden = false;
      app.dataset.state = 'error';
    },
  );
}

/** The model views: one <attn-demo> with the query's settings. */
function embedDemo() {
  const state = parseModelParams(query, origin);
  if (state.seed !== null && !query.has('input'))
    state.input = sampleInput(state.seed, state.model);

  document.documentElement.lang = state.lang === 'zh' ? 'zh-Hans' : 'en';
  document.title = t(state.lang, 'page.embedTitle');
  const app = document.getElementById('app');
  const refused = document.getElementById('refused');
  refused.textContent = refusedNotice(state.refused, state.lang, state.inputCut); // the main page says it the same way
  refused.hidden = !refused.textContent;

  const demo = document.createElement('attn-demo');
  for (const key of ['model', 'view', 'input', 'layer', 'head', 'lang'])
    demo.setAttribute(key, String(state[key]));
  if (state.hide.length) demo.setAttribute('hide', state.hide.join(' '));
  for (const key of ['a', 'b', 'kind', 'step'])
    if (state[key] !== null) demo.setAttribute(key, String(state[key]));
  if (state.gold) demo.setAttribute('gold', '1');
  app.append(demo);
  demo.addEventListener('demo-render', (e) => {
    app.dataset.state = 'ready';
    app.dataset.rendered = /** @type {CustomEvent} */ (e).detail.key;
  });
  demo.addEventListener('demo-change', (e) => {
    const { lang } = /** @type {CustomEvent} */ (e).detail; // the element's own language picker
    document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';
    document.title = t(lang, 'page.embedTitle');
    // id (embed-size.js: the height messages' name) is kept, so a reload still sends it.
    const id = query.has('id') ? `&${new URLSearchParams({ id: query.get('id') })}` : '';
    const search = `?${formatModelParams({ .../** @type {CustomEvent} */ (e).detail, hide: state.hide, seed: null })}${id}`;
    try {
      if (location.search !== search) history.replaceState(null, '', search);
    } catch {
      // An opaque-origin document may not be allowed to rewrite its URL; the link still works.
    }
  });
}
