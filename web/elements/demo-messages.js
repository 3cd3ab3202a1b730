// demo-messages.js: what <attn-demo> (attn-demo.js #render) says when it cannot draw: the library
// that failed to load, a view whose module failed to load, a refused model attribute, and a
// current model that cannot be drawn in the view. Pure functions of plain values (no DOM), in
// the page's language: the element puts the sentence in its error line, as textContent.
//
//   const message = undrawable('zh', s, loaded, file.shown(s.model), file.fits(s.view), refused);
//   if (message) { showError(message.text); … }
//
// Holds: the choice of sentence. Deliberately holds no strings (i18n.js) and no state.

import { drawsIn, VIEW_FAMILIES } from '../shared/architectures.js';
import { fetchProblem } from '../shared/fetch-problem.js';
import { errorDetail, t } from '../shared/i18n.js';
import { modelError } from '../shared/model-cache.js';
import { localError } from '../shared/open-model.js';
import { isOffline } from '../shared/offline.js';

/** The name of the families view draws, in lang ('classifier'; several joined by ' / '). */
function familiesName(lang, view) {
  return (VIEW_FAMILIES[view] ?? []).map((f) => t(lang, `family.${f}`)).join(' / ');
}

/** The library (the .wasm) did not load: what fetchProblem found (problem), else the error's. */
export function libraryMessage(lang, error, problem) {
  return problem && problem.kind !== 'ok'
    ? fetchProblem(lang, 'wasm', problem)
    : t(lang, 'error.wasm', { message: error.message });
}

/** A view's module did not load (offline: say so; else the error). */
export function viewLoadMessage(lang, view, error) {
  return isOffline()
    ? t(lang, 'view.offline', { view: t(lang, `view.${view}`) })
    : t(lang, 'model.failed', { name: view, message: errorDetail(lang, error) });
}

/**
 * The sentence about the model attribute: refused (its value, attribute), or of another family
 * than the view's (wrongModel, replaced by s.model); '' when neither.
 */
export function refusedMessage(lang, s, attribute, refused, wrongModel) {
  if (refused) return t(lang, 'model.refused', { value: attribute });
  if (!wrongModel) return '';
  const family = familiesName(lang, s.view);
  return t(lang, 'model.wrongView', { name: wrongModel, family, fallback: s.model });
}

/**
 * Why the current model (loaded: the cache's { model } or { error }) cannot be drawn in s.view,
 * or null: it failed to load (after the refused sentence), the visitor's file (local, fits: in
 * this view) draws in another view or none, or it is a same-origin path of another architecture
 * (path: true; the views of that architecture are cleared, the others keep their maps).
 */
export function undrawable(lang, s, loaded, local, fits, refused) {
  const family = familiesName(lang, s.view);
  if (loaded.error) {
    const failed = local
      ? localError(lang, local.name, loaded.error)
      : modelError(lang, s.model, loaded.error);
    return { text: [refused, failed].filter(Boolean).join(' '), path: false };
  }
  if (local && !fits) {
    const { name, arch } = local;
    const text = local.view
      ? t(lang, 'model.wrongArch', { family, name, arch })
      : t(lang, 'open.noView', { name, arch });
    return { text, path: false };
  }
  const { architecture, config } = loaded.model;
  if (drawsIn(architecture, config.head, s.view)) return null;
  const arch = architecture === 'memory-rnn' ? `memory-rnn ${config.head}` : architecture;
  return { text: t(lang, 'model.wrongArch', { family, name: s.model, arch }), path: true };
}
