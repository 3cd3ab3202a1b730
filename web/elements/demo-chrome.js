// demo-chrome.js: the chrome of <attn-demo> (attn-demo.js): its styles, its DOM (tabs, model and
// language pickers, the input and its hint, the model-file picker, the status, error and offline
// lines, the link (and, in a sandbox that refuses new windows, why and the link to copy) and the
// model card) and the painting of the parts that need no settings logic.
//
//   const { ui, views } = buildChrome(shadowRoot, notes);   // every node the element updates
//   chromeTexts(ui, 'zh');                    // the labels, in a language
//   fillModelSelect(ui.model, 'alignment', 'en', null, file);
//
// Holds: DOM and CSS. Deliberately holds no settings and no decision of what to show (attn-demo.js
// #render), no view (views/) and no strings (i18n.js). Text from the page, the URL or the model
// is only ever set as textContent or an attribute value.

import { MAX_INPUT, VIEWS, formatModelParams, inputHint } from '../shared/app-state.js';
import { VIEW_FAMILIES, VIEW_FAMILY, familyIn } from '../shared/architectures.js';
import { examplesFor } from '../shared/examples.js';
import { LANGUAGES, t } from '../shared/i18n.js';
import { CONTROL_STYLE, TOKENS_STYLE } from '../shared/design.js';
import { INPUT_NOTES_STYLE } from '../shared/input-notes.js';
import { renderCard } from '../shared/model-card.js';
import { pageOrigin } from '../shared/model-cache.js';
import {
  cardUrl,
  defaultModelFor,
  findModel,
  isLocalModel,
  modelUrl,
  modelsFor,
  modelsForView,
} from '../shared/models.js';
import { isOffline, savedUrls } from '../shared/offline.js';
import { copyText, frameSandbox, openWindow } from '../shared/sandbox.js';
import { INSPECTOR_STYLE, MAX_MODEL_BYTES } from '../shared/open-model.js';
import { el, fillModelOptions, PHONE_WIDTH, placeByWidth } from '../shared/view-kit.js';
import { VIEW_MODULES, VIEWS_STYLE } from '../views/registry.js';
import { inputLimit } from '../views/view-context.js';

/** The chrome's styles, then the views' (registry.js VIEWS_STYLE; the lazy views bring theirs).
 * Projector first: on a wide element the model picker, the input and the examples share one row,
 * so that a view's input, picture and output fit a 1280 × 720 screen (tests/browser/projector).
 * On a phone (PHONE_WIDTH px or less) the examples menu sits on the input's label row, its own
 * label for screen readers only ("Choose an example…" says what it is), so that the picture starts
 * on the first screen; buildChrome moves it between the label and the input in the DOM too, so
 * that the keyboard meets it where it is seen.
 */
export const DEMO_STYLE = `${TOKENS_STYLE}${CONTROL_STYLE}
:host { display: block; font: inherit; color: inherit; container-type: inline-size; }
:host([hidden]) { display: none; }
[hidden] { display: none !important; }
* { box-sizing: border-box; }
.top { display: flex; flex-wrap: wrap; align-items: flex-end; gap: var(--al-space-1) var(--al-space-3); }
.bar, .input-row { display: contents; }
.tabs { display: flex; flex-wrap: wrap; gap: var(--al-space-1); flex: 1 0 100%; }
.tabs button { font-weight: 500; }
label { font-weight: 600; font-size: var(--al-text-sm); }
.field { display: flex; flex-direction: column; gap: 2px; min-width: 0; }
.bar .field { flex: 0 1 auto; }
.input-field { flex: 3 1 14rem; }
.examples-field { flex: 0 1 auto; max-width: 20rem; }
.examples-field select { width: 100%; field-sizing: content; }
select, input, button { max-width: 100%; }
input[type="text"] { width: 100%; font-family: var(--al-mono); font-size: var(--al-text-md); }
.hint { flex: 1 0 100%; }
.hint, .status, .note, .honest { color: var(--al-muted, GrayText); font-size: var(--al-text-xs); margin: 0; line-height: 1.4; }
.status { margin: var(--al-space-1) 0; }
.error { padding: var(--al-space-1) var(--al-space-2); border-radius: var(--al-radius); background: var(--attn-demo-error-bg, #fdecea);
  color: var(--attn-demo-error-text, #8c1d18); margin: var(--al-space-2) 0; }
@media (prefers-color-scheme: dark) { .error { background: var(--attn-demo-error-bg, #3b1412); color: var(--attn-demo-error-text, #ffb4ab); } }
attn-heatmap { min-width: 0; max-width: 100%; }
.open-row { display: flex; flex-wrap: wrap; align-items: center; gap: var(--al-space-1) var(--al-space-3); margin: var(--al-space-3) 0 0; }
.links { font-size: var(--al-text-sm); margin: var(--al-space-2) 0 0; }
.model-card { font-size: var(--al-text-sm); margin: var(--al-space-2) 0 0; }
.model-card dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 0.75rem; margin: 0.5rem 0; }
.model-card dt { font-weight: 600; }
.model-card dd { margin: 0; overflow-wrap: anywhere; }
.model-card ul { margin: 0; padding-left: 1.1rem; }
@container (max-width: ${PHONE_WIDTH}px) { .model-card dl { grid-template-columns: 1fr; } .model-card dd { margin-bottom: 0.3rem; }
  .bar .field { flex: 1 1 100%; } .bar .field select { width: 100%; }
  .input-field { display: contents; } .input-field > label { flex: 1 1 auto; }
  .examples-field { flex: 0 0 auto; max-width: 100%; margin: 0; } .input-field > input { flex: 1 1 100%; } }
a { color: var(--al-accent, LinkText); }
attn-heatmap { --attn-heatmap-background: var(--al-surface, Canvas); --attn-heatmap-color: var(--al-fg, CanvasText);
  --attn-heatmap-focus: var(--al-focus, Highlight); margin-top: var(--al-space-1);
  --attn-heatmap-max-height: var(--attn-demo-map-max-height, max(13rem, 100vh - 21rem)); }
.link-blocked { margin: 0.25rem 0 0; }
.link-blocked .note { margin: 0.25rem 0; }
.link-row { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; }
.link-row input[type="text"] { flex: 1 1 16rem; width: auto; }
:host([data-hide-export]) attn-heatmap::part(toolbar) { display: none; }
:host([data-hide-export]) button[data-action^="download"] { display: none; }
${INPUT_NOTES_STYLE}${INSPECTOR_STYLE}${VIEWS_STYLE}`;

/**
 * The chrome's nodes, by name (not yet in a document): top (the bar and the input row, one row on
 * a wide element), bar, tabs, tab[view], model, lang, input, inputField, hint, inputRow, openRow (openButton, openInput, openHint), status, offline, error, links (link,
 * linkNote), card, inspector, and their labels; notes, the InputNotes under the input (given).
 * host[view]: the node of each view: the critical-path views' own, made now (views: name → view),
 * an empty host each for the others until their module has loaded. Appended to root, in order.
 * @param {ShadowRoot} root @param {any} notes
 */
export function buildChrome(root, notes) {
  const ui = {};
  ui.tabs = el('div', { class: 'tabs', role: 'tablist' });
  ui.tab = {};
  for (const view of VIEWS) {
    ui.tab[view] = el('button', {
      type: 'button',
      role: 'tab',
      'data-view': view,
      'aria-selected': 'false',
    });
    ui.tabs.append(ui.tab[view]);
  }
  ui.modelLabel = el('label', { for: 'model' });
  ui.model = el('select', { id: 'model' });
  ui.langLabel = el('label', { for: 'lang' });
  ui.lang = el('select', { id: 'lang' });
  for (const lang of LANGUAGES)
    ui.lang.append(
      el('option', {
        value: lang,
        lang: lang === 'zh' ? 'zh-Hans' : lang,
        text: t(lang, 'lang.name'),
      }),
    );
  ui.modelField = el('div', { class: 'field' }, [ui.modelLabel, ui.model]);
  ui.langField = el('div', { class: 'field' }, [ui.langLabel, ui.lang]);
  ui.bar = el('div', { class: 'bar' }, [ui.tabs, ui.modelField, ui.langField]);

  ui.inputLabel = el('label', { for: 'input' });
  ui.input = el('input', {
    id: 'input',
    type: 'text',
    maxlength: String(MAX_INPUT),
    autocomplete: 'off',
    spellcheck: 'false',
    autocapitalize: 'off',
    'aria-describedby': 'hint',
  });
  ui.hint = el('p', { class: 'hint', id: 'hint' });
  ui.notes = notes;
  ui.inputField = el('div', { class: 'field input-field' }, [ui.inputLabel, ui.input]);
  ui.inputRow = el('div', { class: 'input-row' }, [ui.inputField, notes.menu, ui.hint]);
  // one row on a wide element: the pickers, the input and its examples (DEMO_STYLE .top)
  ui.top = el('div', { class: 'top' }, [ui.bar, ui.inputRow]);
  // The model file picker (file-picker attribute): a real button that opens a real file input.
  ui.openButton = el('button', { type: 'button', class: 'open-button' });
  ui.openInput = el('input', {
    type: 'file',
    accept: '.safetensors',
    class: 'visually-hidden',
    tabindex: '-1',
    'aria-hidden': 'true',
  });
  ui.openHint = el('p', { class: 'hint open-hint' });
  ui.openRow = el('div', { class: 'open-row', hidden: '' }, [
    ui.openButton,
    ui.openInput,
    ui.openHint,
  ]);
  ui.status = el('p', { class: 'status', role: 'status' });
  ui.offline = el('p', { class: 'note offline-note', hidden: '' });
  ui.error = el('p', { class: 'error demo-error', role: 'alert', hidden: '' });
  ui.link = el('a', { class: 'link', target: '_blank', rel: 'noopener' });
  ui.linkNote = el('span', { class: 'link-note', hidden: '' });
  ui.links = el('p', { class: 'links' }, [ui.link, ui.linkNote]);
  // In an iframe whose sandbox refuses new windows: why, and the link to copy (linkClick).
  ui.linkWhy = el('p', { class: 'note', id: 'link-why' });
  ui.linkField = el('input', { type: 'text', readonly: '', 'aria-labelledby': 'link-why' });
  ui.linkCopy = el('button', { type: 'button' });
  ui.linkStatus = el('span', { class: 'note', role: 'status' });
  ui.linkBlocked = el('div', { class: 'link-blocked', hidden: '' }, [
    ui.linkWhy,
    el('div', { class: 'link-row' }, [ui.linkField, ui.linkCopy, ui.linkStatus]),
  ]);
  ui.card = el('div', { class: 'card-host' });
  ui.inspector = el('div', { class: 'inspector-host', hidden: '' });
  ui.host = {};
  const views = {};
  for (const [name, m] of Object.entries(VIEW_MODULES)) {
    if (m.make) {
      views[name] = m.make().view;
      ui.host[name] = views[name].node;
    } else {
      ui.host[name] = el('div', { class: 'view-host', 'data-host': name });
    }
  }
  root.append(
    el('style', { text: DEMO_STYLE }),
    ui.top,
    notes.node,
    ui.status,
    ui.offline,
    ui.error,
    ...VIEWS.map((v) => ui.host[v]),
    ui.openRow, // opening a file of one's own is not what the first screen is for
    ui.inspector,
    ui.links,
    ui.linkBlocked,
    ui.card,
  );
  // a phone: the menu between the input's label and the input (DEMO_STYLE), in the DOM
  placeByWidth(ui.inputRow, (isNarrow) =>
    isNarrow ? ui.inputField.insertBefore(notes.menu, ui.input) : ui.inputField.after(notes.menu),
  )();
  return { ui, views };
}

/** The chrome's labels in lang. */
export function chromeTexts(ui, lang) {
  for (const view of VIEWS) ui.tab[view].textContent = t(lang, `view.${view}`);
  ui.tabs.setAttribute('aria-label', t(lang, 'view.label'));
  ui.modelLabel.textContent = t(lang, 'model.label');
  ui.langLabel.textContent = t(lang, 'lang.label');
  ui.inputLabel.textContent = t(lang, 'input.label');
  ui.input.placeholder = t(lang, 'input.placeholder');
  ui.link.textContent = t(lang, 'link.label');
  ui.linkWhy.textContent = t(lang, 'link.blocked');
  ui.linkCopy.textContent = t(lang, 'link.copyLink');
  ui.linkStatus.textContent = '';
  ui.openButton.textContent = t(lang, 'open.button');
  ui.openHint.textContent = t(lang, 'open.hint', { limit: MAX_MODEL_BYTES / 1048576 });
  ui.offline.textContent = t(lang, 'status.offline');
}

/**
 * The chrome for the settings s: the language picker, the tabs and which view's host shows, what
 * the hide flags hide, the model picker's value, the hint under the input (the current model's
 * length limit), the example inputs, the link (never to the visitor's file: the view's first
 * model, and a note saying so) and the model file's inspector. file: demo-local.js's LocalModel;
 * filePicker: the element has the file-picker attribute.
 * @param {import('../shared/model-cache.js').ModelCache} cache
 */
export function paintChrome(ui, s, file, cache, filePicker) {
  const lang = s.lang;
  const hide = new Set(s.hide);
  ui.lang.value = lang;
  for (const view of VIEWS) {
    ui.tab[view].setAttribute('aria-selected', String(view === s.view));
    ui.tab[view].tabIndex = view === s.view ? 0 : -1;
    ui.host[view].hidden = view !== s.view;
  }
  ui.tabs.hidden = hide.has('views');
  // the views that draw more than the one current model have no model picker (compare lists
  // every model; forgetting always runs its pair, reversePair, forgetting-view.js)
  const one = VIEW_MODULES[s.view].one === true;
  ui.modelField.hidden = hide.has('picker') || !one;
  ui.langField.hidden = hide.has('lang');
  ui.inputRow.hidden = hide.has('input');
  ui.openRow.hidden = !filePicker;
  ui.status.hidden = hide.has('status');
  ui.links.hidden = hide.has('link');
  if (!ui.model.querySelector(`option[value="${CSS.escape(s.model)}"]`)) {
    ui.model.append(file.option(s.model, lang)); // a same-origin path, a model file still loading or refused
  }
  ui.model.value = s.model;
  const shownModel = cache.settled(s.model)?.model;
  const limit = shownModel && one ? inputLimit(shownModel) : null;
  const name = file.displayName(s.model, lang);
  ui.hint.textContent = [
    inputHint(lang, familyIn(s.view, findModel(s.model)?.family), shownModel?.config.tokenizer),
    limit ? t(lang, 'input.limit', { name, max: limit.max, unit: t(lang, limit.unit) }) : '',
  ]
    .filter(Boolean)
    .join(lang === 'zh' ? '' : ' ');
  const entry = findModel(s.model);
  const cardUrlOf = cardUrl(entry);
  const card = cardUrlOf ? cache.card(cardUrlOf, false) : null;
  ui.notes.setExamples(
    examplesFor(entry?.task, card instanceof Error ? null : card, lang, MAX_INPUT),
    lang,
  );
  // A link cannot carry the visitor's file: it opens the view's own first model, and says so.
  const local = isLocalModel(s.model, pageOrigin());
  const fallback = defaultModelFor(s.view);
  const params = formatModelParams({ ...s, seed: null, ...(local ? { model: fallback } : {}) });
  ui.link.href = `${new URL('../embed.html', import.meta.url).href}?${params}`;
  // the refused link's panel (linkClick) is about the link it shows: gone once the view changed
  if (ui.linkField.value !== ui.link.href || hide.has('link')) ui.linkBlocked.hidden = true;
  ui.linkNote.hidden = !local;
  ui.linkNote.textContent = local ? ` ${t(lang, 'open.linkNote', { fallback, name })}` : '';
  file.inspect(ui.inspector, s);
}

/**
 * A click on "Link to this view" (ui.link, target _blank). In an iframe the new window is opened
 * here, so that a refusal is seen: a sandbox without allow-popups makes window.open return null
 * (and a target=_blank link do nothing at all); then the element says so, names the flag, and
 * shows the link selected, with a Copy button. Elsewhere, and for a new tab or window of the
 * person's own (a modifier key, the middle button), the browser's.
 * @param {MouseEvent} event
 */
export function linkClick(ui, lang, event) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return;
  const { framed, popups } = frameSandbox();
  if (!framed) return;
  event.preventDefault();
  const href = ui.link.href;
  const opened = popups !== false && openWindow(href);
  ui.linkBlocked.hidden = opened;
  ui.linkStatus.textContent = '';
  if (opened) return;
  ui.linkWhy.textContent = t(lang, 'link.blocked');
  ui.linkCopy.textContent = t(lang, 'link.copyLink');
  ui.linkField.value = href;
  ui.linkField.focus();
  ui.linkField.select();
  ui.linkCopy.onclick = async () => {
    const copied = await copyText(href, ui.linkField);
    ui.linkStatus.textContent = t(lang, copied ? 'export.copied' : 'export.copyManual');
  };
}

/**
 * The model picker of view: the models of its families (untrained ones marked; offline, those not
 * saved on this device, needsNetwork, marked as needing the network), and the visitor's open
 * model file (file: demo-local.js) when it is of one of them.
 */
export function fillModelSelect(select, view, lang, needsNetwork, file) {
  fillModelOptions(select, modelsForView(view), lang, needsNetwork);
  const families = VIEW_FAMILIES[view] ?? [];
  if (file.key !== null && families.includes(file.family))
    select.append(file.option(file.key, lang));
}

/** Offline: the names of the listed models (every family's) the service worker has not saved on
 * this device (web/sw.js); online, or when this page cannot look, null. */
export async function unsavedModels() {
  if (!isOffline()) return null;
  const models = [...new Set(Object.values(VIEW_FAMILY))].flatMap((f) => modelsFor(f));
  const saved = await savedUrls(models.map((m) => modelUrl(m)));
  if (!saved || !isOffline()) return null;
  return new Set(models.filter((m) => !saved.has(modelUrl(m))).map((m) => m.name));
}

/** What a view's maps are of, for their exports (<attn-heatmap> context): the model (its name
 * as shown), the input and the output (a classifier's label; extra: the view's view-done extra);
 * none when nothing was drawn (result null). For the views that draw the one current model:
 * compare and forgetting, which run models of their own, set their maps' context themselves. */
export function exportContext(heatmaps, s, name, result, extra) {
  const output = extra.output ?? extra.label ?? null;
  for (const h of heatmaps) h.context = result ? { model: name, input: s.input, output } : {};
}

/**
 * The current model's card (model-card.js) in node, once its JSON has loaded; fetched after the
 * first plot (the card never delays a view), once per model and page (model-cache.js). Returns
 * the key of the card shown (model and language), shownKey when nothing changed.
 * @param {import('../shared/model-cache.js').ModelCache} cache
 */
export function paintCard(node, cache, s, hidden, shownKey) {
  const url = cardUrl(findModel(s.model));
  node.hidden = hidden || !url;
  if (node.hidden) return shownKey;
  const key = `${s.model}\u0000${s.lang}`;
  if (shownKey === key) return shownKey;
  // Started after the model (the first plot) has loaded.
  const card = cache.card(url, cache.settled(s.model) !== undefined);
  if (!card) return shownKey;
  node.replaceChildren(
    card instanceof Error
      ? el('p', { class: 'note', text: t(s.lang, 'card.unavailable', { message: card.message }) })
      : renderCard(card, s.lang, url, findModel(s.model)?.task ?? null),
  );
  return key;
}
