// python/js/live-views.js: which of the page's views the live view (notebook.js, attnlab.show(model
// file)) draws a model file in: the page's own relation (web/shared/architectures.js viewFor: the
// view a model file of that architecture and config head opens in), kept to the views the notebook
// bundle holds. scripts/build-python-assets.mjs writes liveFamilies() to
// python/attnlab/assets/live-views.json, which show.py reads to refuse, before any HTML, a file
// no view draws.
//
//   liveView('transformer', undefined)   // 'heads'
//   liveView('memory-rnn', 'classifier') // null: the reading view draws language models ('lm')
//   liveFamilies()   // [{ architecture: 'seq2seq', head: null, view: 'alignment' }, …]
//
// Holds: the names of the views notebook.js bundles. Deliberately holds no architecture table of
// its own (architectures.js FAMILIES is the one) and no view code (pure, so Node can import it).

import { FAMILIES, viewFor } from '../../web/shared/architectures.js';

/** The views notebook.js bundles (it makes each of them; tests/js/python-assets.test.js). */
export const LIVE_VIEW_NAMES = Object.freeze(['alignment', 'heads', 'pooling', 'reading']);

/** The view the live view draws a model of this architecture (and config head) in, or null. */
export function liveView(architecture, head) {
  const view = viewFor(architecture, head);
  return view && LIVE_VIEW_NAMES.includes(view) ? view : null;
}

/**
 * The families the live view draws, in the page's order: { architecture, head (the config head
 * its view needs, or null for any), view }, one per architecture (the page's other families of
 * an architecture, such as the reversal pair, open in no view of their own).
 */
export function liveFamilies() {
  const out = [];
  for (const f of Object.values(FAMILIES)) {
    if (out.some((o) => o.architecture === f.architecture)) continue;
    const view = liveView(f.architecture, f.head ?? undefined);
    if (view) out.push({ architecture: f.architecture, head: f.head, view });
  }
  return out;
}

/** What the live view draws, as a phrase for errors: "seq2seq (alignment view), …". */
export function liveFamiliesText() {
  return liveFamilies()
    .map((f) => `${f.architecture}${f.head ? ` with head "${f.head}"` : ''} (the ${f.view} view)`)
    .join(', ');
}
