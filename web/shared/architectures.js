// architectures.js: the page's table of model families: which views draw each, where a model
// file of it opens, and the hint under the input. Every other list of the page derives from it
// (views/registry.js, models.js VIEW_FAMILY, app-state.js VIEWS and inputHint, open-model.js
// viewFor).
//
//   import { FAMILIES, VIEW_FAMILY, viewFor, drawsIn } from './architectures.js';
//   VIEW_FAMILY.heads                       // 'transformer'
//   viewFor('seq2seq', undefined, 'time')   // 'time': a seq2seq file stays in the over-time view
//   drawsIn('memory-rnn', 'classifier', 'reading')   // false: the reading view draws 'lm' heads
//
// Holds: one entry per library architecture (wasm/model/architectures.js ARCHITECTURES, keyed by
// its name; tests/js/architectures.test.js checks that none is missing), then the families that
// are not one architecture (the reversal pair of the forgetting view). Deliberately holds no view
// code, no model list (models.js) and no string (i18n.js: family.<name> names each family).
// docs/adding-a-model-family.md lists every file a new family touches.

/**
 * A family: architecture, the library's name of its models' architecture; views, the views of
 * <attn-demo> that show its models, in tab order; opens, the views a model file of it opens in
 * (the first unless it is open in another one of them; empty: none); head, the config "head"
 * its views draw (memory-rnn: only language models), or null for any; hint, the i18n key of the
 * hint under the input (app-state.js inputHint).
 * @typedef {{ architecture: string, views: readonly string[], opens: readonly string[],
 *   head: string | null, hint: string }} Family
 * @type {Readonly<Record<string, Family>>}
 */
export const FAMILIES = freeze({
  seq2seq: {
    architecture: 'seq2seq',
    views: ['alignment', 'time', 'compare'],
    opens: ['alignment', 'time'],
    head: null,
    hint: 'input.hint',
  },
  transformer: {
    architecture: 'transformer',
    views: ['heads'],
    opens: ['heads'],
    head: null,
    hint: 'input.hint',
  },
  classifier: {
    architecture: 'classifier',
    views: ['pooling'],
    opens: ['pooling'],
    head: null,
    hint: 'input.hintWords',
  },
  'memory-rnn': {
    architecture: 'memory-rnn',
    views: ['reading'],
    opens: ['reading'],
    head: 'lm',
    hint: 'input.hintReading',
  },
  // the reversal pair (models.js reversePair): seq2seq models, drawn side by side
  reverse: {
    architecture: 'seq2seq',
    views: ['forgetting'],
    opens: [],
    head: null,
    hint: 'input.hintReverse',
  },
});

/** The family of models each view shows (the page's other views show none), in tab order. */
export const VIEW_FAMILY = Object.freeze(
  Object.fromEntries(
    Object.entries(FAMILIES).flatMap(([family, f]) => f.views.map((view) => [view, family])),
  ),
);

/**
 * The view that draws a model file of this architecture (and config head): the one it is open in
 * when that one can, else its family's first; null when no view draws it.
 */
export function viewFor(architecture, head, current) {
  const f = Object.hasOwn(FAMILIES, architecture) ? FAMILIES[architecture] : null;
  if (!f || !f.opens.length || (f.head !== null && head !== f.head)) return null;
  return f.opens.includes(current) ? current : f.opens[0];
}

/** Can view draw a model of this architecture and config head (a path of another one cannot)? */
export function drawsIn(architecture, head, view) {
  const f = FAMILIES[VIEW_FAMILY[view]];
  return !!f && f.architecture === architecture && (f.head === null || head === f.head);
}

function freeze(families) {
  for (const f of Object.values(families)) {
    Object.freeze(f.views);
    Object.freeze(f.opens);
    Object.freeze(f);
  }
  return Object.freeze(families);
}
