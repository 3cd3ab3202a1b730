// main.js: wiring for the demo page. URL hash -> page state -> the model views (<attn-demo>),
// the SDPA playground (controls -> inputs -> attnlab -> <attn-heatmap>) or the lab (<attn-lab>,
// which trains two runs in workers; the old Train view's links open it on its dates preset).
//
// Holds: the glue between the DOM, app-state.js (the page's state in the URL hash, the
// playground's part via state.js, and the notice naming the hash parameters it refused),
// data/playground.js (seeded Q, K, V), the library, <attn-demo> and <attn-heatmap>, the language switch
// (i18n.js), and model files dropped outside the element (handed to it; links never carry one). Deliberately holds no maths, no drawing and no parsing: those live in the modules it
// imports, which are testable on their own. The view never calls the library: this file hands it
// plain typed arrays.

import { init, ops } from 'attnlab';
import {
  VIEWS,
  formatPageHash,
  parsePageHash,
  refusedNotice,
  switchView,
} from './shared/app-state.js';
import { axisLabels, makeQKV } from './data/playground.js';
import { formatValue } from './shared/draw.js';
import { define } from './embed.js';
import { diagnoseFetch, fetchProblem, wasmUrl } from './shared/fetch-problem.js';
import { resolveLang, t } from './shared/i18n.js';
import { defaultModelFor, findModel, isLocalModel, takeEarly } from './shared/models.js';
import { registerOffline } from './shared/offline.js';
import { LIMITS, effectiveScale, normalizeState } from './shared/state.js';

// The wasm first-model.js started fetching, when it is the build this engine runs: init() takes
// it (so it is downloaded once; every later init() shares this one). A failed early fetch falls
// back to init()'s own, which names the problem.
const earlyWasm = takeEarly(wasmUrl());
if (earlyWasm) init({ wasm: earlyWasm.then((r) => (r?.ok ? r : wasmUrl())) }).catch(() => {});
define();

/** @type {(id: string) => any} the page's elements, each used as what index.html makes it (input, link, custom element) */
const $ = (id) => document.getElementById(id);
const ui = {
  app: $('app'),
  view: $('sdpa-view'),
  modelsView: $('models-view'),
  lessonView: $('lesson-view'),
  lesson: $('lesson'),
  demo: $('demo'),
  lang: $('lang'),
  nav: $('page-views'),
  modelPermalink: $('model-permalink'),
  linkNote: $('link-note'),
  linkCopied: $('link-copied'),
  linkText: $('link-text'),
  labView: $('lab-view'),
  labBadge: $('lab-badge'),
  embedLink: $('embed-link'),
  status: $('status'),
  progress: $('load-progress'),
  error: $('error'),
  refused: $('refused'),
  form: $('controls'),
  n: $('n'),
  m: $('m'),
  d: $('d'),
  seed: $('seed'),
  reseed: $('reseed'),
  causal: $('causal'),
  scale: $('scale'),
  scaleOut: $('scale-out'),
  scaleAuto: $('scale-auto'),
  heatmap: $('heatmap'),
  readout: $('readout'),
  info: $('info'),
  permalink: $('permalink'),
};

const origin = new URL(location.href).origin;
let page = parsePageHash(location.hash, origin); // { view, model, input, layer, head, kind, step, gold, lang, playground }
let state = page.playground; // the playground's part
let frame = 0; // pending compute (one per animation frame, however many inputs fired)
let readoutActive = false; // a cell has been read; keep the readout in step with new data
let lesson = null; // the LessonView, made on the first visit to the lesson
let LessonView = null; // views/lesson-view.js, imported on the first visit
let lab = null; // the <attn-lab>, made on the first visit to the lab (so the first view never loads it)
let labSpec = null; // web/lab/spec.js, imported on the first visit: checks the hash's experiment
let offline = null; // registerOffline()'s promise, started after the first plot (web/sw.js)

/** A view is on screen: now (never before: the bandwidth is the first plot's) the service worker
 * may store the page for the next visit, offline included. */
function plotted(hash) {
  ui.app.dataset.rendered = hash; // for tests and screenshots: this view is on screen
  offline ??= registerOffline(new URL('./sw.js', import.meta.url));
}

/** Say which parameters of the hash last read were refused (in the page's language), or nothing.
 *  It stays while the person works in that view: the canonical hash no longer shows them. */
function showRefused() {
  ui.refused.textContent = refusedNotice(page.refused, page.lang, page.inputCut);
  ui.refused.hidden = !ui.refused.textContent;
}

/**
 * "Link to this view" (a click on anchor): copy the URL it points to (this view, its hash) to the
 * clipboard and say so; when the browser refuses (no permission, no clipboard API, an insecure
 * page), say that and show the URL in a read-only field, selected, to copy by hand. Either way
 * the page stays where it is (the link is to the view already shown).
 */
async function copyLink(event, anchor) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return; // a new tab or window: the browser's
  event.preventDefault();
  const url = new URL(anchor.getAttribute('href'), location.href).href;
  ui.linkText.hidden = true;
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch {
    copied = false;
  }
  ui.linkCopied.dataset.i18n = copied ? 'link.copied' : 'link.copyManual';
  ui.linkCopied.textContent = t(page.lang, ui.linkCopied.dataset.i18n);
  ui.linkCopied.hidden = false;
  ui.linkCopied.dataset.url = url;
  if (!copied) {
    ui.linkText.value = url;
    ui.linkText.hidden = false;
    ui.linkText.focus();
    ui.linkText.select();
  }
}

/** The confirmation of copyLink goes once the view changes (it was about the link before). */
function hideCopied() {
  ui.linkCopied.hidden = true;
  ui.linkText.hidden = true;
}

/** The Lab tab while either of its runs trains: a "running" badge (training goes on in the
 * workers while the other views are shown; the lab's Pause stops it). */
function showLabTraining(running) {
  ui.labBadge.hidden = !running;
  ui.labBadge.dataset.i18n = 'train.badge';
  ui.labBadge.textContent = t(page.lang, 'train.badge');
  ui.labBadge.title = t(page.lang, 'page.labBadge');
}

function showError(message) {
  ui.error.textContent = message;
  ui.error.hidden = !message;
}

/** Put state into the controls, except the one being edited (so typing is not overwritten). */
function writeControls(s, editing = null) {
  for (const key of ['n', 'm', 'd']) {
    if (ui[key] !== editing) ui[key].value = String(s[key]);
    $(`${key}-out`).textContent = String(s[key]);
  }
  if (ui.seed !== editing) ui.seed.value = String(s.seed);
  ui.causal.checked = s.causal;
  const scale = effectiveScale(s);
  if (ui.scale !== editing) ui.scale.value = String(Math.log10(scale));
  ui.scaleOut.textContent = s.scale === null ? `${formatValue(scale)} (1/√dₖ)` : formatValue(scale);
  ui.scaleAuto.disabled = s.scale === null;
}

/**
 * The page state a link can hold: a model file of the visitor's own (<attn-demo>'s modelFile, a
 * drop, the picker: 'file:<name>' or a blob: URL) cannot travel in a URL, so links and the hash
 * name the view's first model instead (and #link-note says so).
 */
function linkable(p) {
  return isLocalModel(p.model, origin) ? { ...p, model: defaultModelFor(p.view) } : p;
}

/** Mirror the page state in the URL hash (canonical form). */
function writeHash() {
  const hash = formatPageHash(linkable(page));
  if (location.hash !== hash) history.replaceState(null, '', hash);
  return hash;
}

/** Adopt a new playground state: normalise it, mirror it in the URL and the controls, recompute. */
function setState(next, { editing = null } = {}) {
  hideCopied(); // a copied link was to the view before
  state = normalizeState(next);
  page = { ...page, playground: state };
  writeHash();
  writeControls(state, editing);
  if (page.view === 'playground' && !frame) frame = requestAnimationFrame(compute);
}

/** Interface text in the page's language (the static parts; <attn-demo> does its own). */
function applyLanguage(lang) {
  document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';
  document.title = t(lang, 'page.title');
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (
    document.querySelectorAll('[data-i18n]')
  ))
    node.textContent = t(lang, node.dataset.i18n);
  ui.nav.setAttribute('aria-label', t(lang, 'view.label'));
  ui.progress.setAttribute('aria-label', t(lang, 'status.loadingLabel'));
  ui.heatmap.setAttribute('lang', lang);
  ui.heatmap.setAttribute('label', t(lang, 'sdpa.heatmap'));
  showReadout();
  ui.lang.value = lang;
}

/** The models section's heading and lede for a view (seq2seq, transformer heads or pooling). */
const MODELS_TEXT = {
  mechanism: ['page.mechanismTitle', 'page.mechanismLede'],
  heads: ['page.headsTitle', 'page.headsLede'],
  pooling: ['page.poolingTitle', 'page.poolingLede'],
  reading: ['page.readingTitle', 'page.readingLede'],
  forgetting: ['page.forgettingTitle', 'page.forgettingLede'],
};

/** Show the view the page state names and hand the model views their settings. */
function applyPage({ fromDemo = false } = {}) {
  const hash = writeHash();
  if (ui.linkCopied.dataset.url && new URL(ui.linkCopied.dataset.url).hash !== hash) hideCopied(); // about another view
  const words = findModel(page.model)?.task === 'translation'; // a word-level seq2seq model: words, not characters
  const [title, lede] = MODELS_TEXT[page.view] ?? [
    'page.modelsTitle',
    words ? 'page.modelsLedeWords' : 'page.modelsLede',
  ];
  $('models-title').dataset.i18n = title;
  ui.modelsView.querySelector('.lede').dataset.i18n = lede;
  applyLanguage(page.lang);
  showRefused();
  const playground = page.view === 'playground';
  const lessonOn = page.view === 'lesson';
  const labOn = page.view === 'lab';
  ui.view.hidden = !playground;
  ui.modelsView.hidden = playground || lessonOn || labOn;
  ui.labView.hidden = !labOn;
  if (labOn) showLab();
  ui.lessonView.hidden = !lessonOn;
  showLesson(lessonOn);
  for (const a of ui.nav.querySelectorAll('a[data-view]')) {
    if (a.dataset.view === page.view) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
    // Into another family's view (e.g. alignment -> heads): that view's model and sample input.
    a.href = formatPageHash(
      linkable(
        VIEWS.includes(a.dataset.view)
          ? switchView(page, a.dataset.view)
          : { ...page, view: a.dataset.view },
      ),
    );
  }
  if (lessonOn || labOn) {
    // the lesson and the lab draw themselves (lesson-view.js, <attn-lab>)
  } else if (!playground) {
    if (!fromDemo) {
      for (const key of ['view', 'model', 'input', 'layer', 'head', 'lang'])
        ui.demo.setAttribute(key, String(page[key]));
      for (const key of ['a', 'b', 'kind', 'step']) {
        if (page[key] !== null) ui.demo.setAttribute(key, String(page[key]));
        else ui.demo.removeAttribute(key);
      }
      if (page.gold) ui.demo.setAttribute('gold', '1');
      else ui.demo.removeAttribute('gold');
    } else {
      ui.demo.setAttribute('lang', page.lang);
    }
    ui.modelPermalink.href = hash;
    ui.embedLink.href = `embed.html?${hash.slice(1)}`;
    const local = isLocalModel(page.model, origin);
    ui.linkNote.hidden = !local;
    ui.linkNote.textContent = local
      ? t(page.lang, 'open.linkNote', {
          fallback: defaultModelFor(page.view),
          name: page.model.replace(/^file:/, '') || t(page.lang, 'open.yourFile'),
        })
      : '';
  } else {
    writeControls(state);
    if (!frame) frame = requestAnimationFrame(compute);
  }
}

/**
 * The lab: on the first visit, spec.js is imported and <attn-lab> made (its own module loads on
 * connect); the hash's experiment is checked with parseLabParams (what it refused is named like any
 * other refused parameter) and handed to the element, which reports changes by lab-change (the
 * hash follows, canonical) and training by lab-state (the tab's badge). Runs keep training while
 * another view is shown; the element pauses nothing by being hidden.
 */
function showLab() {
  if (!labSpec) {
    import('./lab/spec.js').then(
      (m) => {
        labSpec ??= m;
        if (page.view === 'lab') applyPage();
      },
      (err) => showError(t(page.lang, 'page.labFailed', { message: err.message })),
    );
    return;
  }
  const { experiment, refused } = labSpec.parseLabLink(new URLSearchParams(page.lab)); // preset=… too
  const params = labSpec.formatLabParams(experiment).toString();
  if (params !== page.lab) {
    // the canonical form in the hash, and what was refused on the way said once, as the models' views do
    page = { ...page, lab: params, refused: [...page.refused, ...refused] };
    showRefused();
    writeHash();
  }
  if (!lab) {
    lab = document.createElement('attn-lab');
    lab.id = 'lab';
    lab.addEventListener('lab-change', (/** @type {CustomEvent} */ e) => {
      page = { ...page, lab: String(e.detail?.params ?? '') };
      if (page.view === 'lab') writeHash();
    });
    lab.addEventListener('lab-state', (/** @type {CustomEvent} */ e) =>
      showLabTraining(Boolean(e.detail?.running)),
    );
    lab.setAttribute('experiment', params);
    lab.setAttribute('lang', page.lang);
    ui.labView.append(lab);
    lab.whenReady?.().then(
      () => {
        if (page.view === 'lab') plotted(location.hash);
      },
      () => {},
    );
  } else {
    if (lab.getAttribute('experiment') !== params) lab.setAttribute('experiment', params);
    if (lab.getAttribute('lang') !== page.lang) lab.setAttribute('lang', page.lang);
    if (lab.dataset.state && lab.dataset.state !== 'loading') plotted(location.hash);
  }
}

/** The lesson on (imported and made on the first visit, then shown at page.lesson) or off. */
function showLesson(on) {
  if (!on) {
    lesson?.hide();
    return;
  }
  if (!LessonView) {
    import('./views/lesson-view.js').then(
      (m) => {
        LessonView ??= m.LessonView;
        if (page.view === 'lesson') applyPage();
      },
      (err) => showError(t(page.lang, 'lesson.failed', { message: err.message })),
    );
    return;
  }
  lesson ??= new LessonView(ui.lesson, {
    href: (n, lang) => formatPageHash({ ...page, view: 'lesson', lesson: n, lang }),
    labHref: (preset, lang) => `#view=lab&preset=${preset}&lang=${lang}`,
    onStep: (n) => {
      page = { ...page, lesson: n };
      applyPage();
    },
    onRender: (n) => {
      if (page.view === 'lesson' && page.lesson === n) plotted(location.hash);
    },
  });
  lesson.show(page.lesson, page.lang);
  if (lesson.renderedStep === page.lesson) plotted(location.hash); // a new language, same step
}

function compute() {
  frame = 0;
  const s = state;
  const { q, k, v } = makeQKV(s);
  const scale = effectiveScale(s);
  let result;
  const t0 = performance.now();
  try {
    result = ops.scaledDotProductAttention(q, k, v, {
      causal: s.causal,
      scale,
      returnWeights: true,
    });
  } catch (err) {
    showError(t(page.lang, 'sdpa.error', { code: err.code ?? err.name, message: err.message }));
    return;
  }
  const ms = performance.now() - t0;
  const weights = result.weights;
  if (
    !weights ||
    weights.shape.length !== 2 ||
    weights.shape[0] !== s.n ||
    weights.shape[1] !== s.m
  ) {
    showError(t(page.lang, 'sdpa.shapeError', { shape: String(weights?.shape), n: s.n, m: s.m }));
    return;
  }
  showError('');
  ui.heatmap.data = { weights: weights.data, rows: s.n, cols: s.m, ...axisLabels(s.n, s.m) };
  ui.info.textContent = t(page.lang, s.causal ? 'sdpa.infoCausal' : 'sdpa.info', {
    n: s.n,
    m: s.m,
    d: s.d,
    scale: formatValue(scale),
    ms: ms.toFixed(2),
  });
  const hash = formatPageHash(page);
  ui.permalink.href = hash;
  showReadout();
  ui.heatmap.whenRendered().then(() => plotted(hash));
}

function updateReadout(cell) {
  if (!cell) return;
  readoutActive = true;
  showReadout();
}

/** The readout in the page's language: the focused cell's weight once one has been read, else how to read one. */
function showReadout() {
  const cell = readoutActive ? ui.heatmap.focusedCell : null;
  ui.readout.textContent = cell
    ? t(page.lang, 'sdpa.readout', {
        row: cell.rowLabel,
        col: cell.colLabel,
        value: formatValue(cell.value),
      })
    : t(page.lang, 'sdpa.readoutPrompt');
}

function wireControls() {
  for (const key of ['n', 'm', 'd']) {
    const [lo, hi] = LIMITS[key];
    Object.assign(ui[key], { min: String(lo), max: String(hi) });
    ui[key].addEventListener('input', () =>
      setState({ ...state, [key]: ui[key].valueAsNumber }, { editing: ui[key] }),
    );
  }
  Object.assign(ui.seed, { min: String(LIMITS.seed[0]), max: String(LIMITS.seed[1]) });
  ui.seed.addEventListener('input', () => {
    const seed = ui.seed.valueAsNumber; // NaN while the field holds no number yet: wait
    if (Number.isFinite(seed)) setState({ ...state, seed }, { editing: ui.seed });
  });
  ui.seed.addEventListener('change', () => writeControls(state)); // show the clamped value
  ui.reseed.addEventListener('click', () => {
    setState({ ...state, seed: crypto.getRandomValues(new Uint32Array(1))[0] });
  });
  ui.causal.addEventListener('change', () => setState({ ...state, causal: ui.causal.checked }));
  const [lo, hi] = LIMITS.scale;
  Object.assign(ui.scale, { min: String(Math.log10(lo)), max: String(Math.log10(hi)) });
  ui.scale.addEventListener('input', () => {
    setState({ ...state, scale: 10 ** ui.scale.valueAsNumber }, { editing: ui.scale });
  });
  ui.scaleAuto.addEventListener('click', () => setState({ ...state, scale: null }));
  ui.form.addEventListener('submit', (event) => event.preventDefault());
  for (const a of [ui.modelPermalink, ui.permalink])
    a.addEventListener('click', (event) => copyLink(event, a));
  // "Embed this view": the code to copy, both forms (embed-dialog.js, loaded on first use); a new
  // tab or window of the person's own still opens the bare embed page.
  ui.embedLink.addEventListener('click', (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    event.preventDefault();
    import('./embed-dialog.js').then(
      (m) => m.openEmbedDialog(ui.embedLink.href, page.lang, ui.embedLink),
      () => location.assign(ui.embedLink.href), // its code would not load: the embed page itself
    );
  });
  ui.heatmap.addEventListener('heatmap-focus', (event) => updateReadout(event.detail));
  // Back/forward or an edited URL: the hash is the source of truth.
  window.addEventListener('hashchange', () => {
    const next = parsePageHash(location.hash, origin);
    // out of the lesson (a nav link): its Lesson link still returns to the step the person was on
    page = next.view === 'lesson' ? next : { ...next, lesson: page.lesson };
    state = page.playground;
    applyPage();
  });
  ui.lang.addEventListener('change', () => {
    page = { ...page, lang: resolveLang(ui.lang.value) };
    applyPage();
  });
  // The model views report what the person changed; the hash follows.
  ui.demo.addEventListener('demo-change', (event) => {
    const { view, model, input, layer, head, lang, a, b, kind, step, gold } = event.detail;
    page = { ...page, view, model, input, layer, head, lang, a, b, kind, step, gold };
    applyPage({ fromDemo: true });
  });
  // A model file dropped anywhere on the page (the element opens drops on itself): into the model
  // views, where <attn-demo> opens it in the view of its architecture or names the problem. Never
  // the browser's default of leaving the page for the file.
  const carriesFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes('Files');
  document.addEventListener('dragover', (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  });
  document.addEventListener('drop', (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    if (['playground', 'lesson', 'lab'].includes(page.view)) {
      page = { ...page, view: 'alignment' };
      applyPage();
    }
    ui.demo.openDropped(event.dataTransfer);
  });
  ui.demo.addEventListener('demo-render', (event) => {
    if (!['playground', 'lesson', 'lab'].includes(page.view)) plotted(location.hash);
    ui.app.dataset.demoRendered = event.detail.key;
  });
}

/** The page's status line, in the page's language and again on every language change (data-i18n). */
function setStatus(key) {
  ui.status.dataset.i18n = key;
  ui.status.textContent = t(page.lang, key);
}

async function main() {
  applyLanguage(page.lang); // the title and the loading status in the page's language from the start
  setStatus('status.wasm');
  let lib;
  try {
    if (typeof WebAssembly !== 'object') throw new Error('this browser has no WebAssembly');
    lib = await init();
  } catch (err) {
    // Why the .wasm could not be fetched (another origin without CORS, a 404, file://), if it was that.
    const problem = typeof WebAssembly === 'object' ? await diagnoseFetch(wasmUrl()) : null;
    applyLanguage(page.lang);
    ui.progress.hidden = true;
    setStatus('status.notRunning');
    showError(
      problem && problem.kind !== 'ok'
        ? fetchProblem(page.lang, 'wasm', problem)
        : t(page.lang, 'error.wasm', { message: err.message }),
    );
    ui.view.hidden = true;
    ui.modelsView.hidden = true;
    ui.lessonView.hidden = true;
    ui.labView.hidden = true;
    ui.app.dataset.state = 'error';
    console.error(err);
    return;
  }
  ui.progress.hidden = true;
  ui.app.dataset.simd = String(lib.simd);
  setStatus(lib.simd ? 'status.simd' : 'status.scalar');
  wireControls();
  applyPage();
  ui.view.inert = false;
  ui.view.removeAttribute('aria-busy');
  ui.app.dataset.state = 'ready';
}

showRefused(); // before the library loads, and even if it cannot
main();
