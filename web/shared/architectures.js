// architectures.js: the page's table of model families: which views draw each, where a model
// file of it opens, and the hint under the input. Every other list of the page derives from it
// (views/registry.js, models.js VIEW_FAMILY, app-state.js VIEWS and inputHint, open-model.js
// viewFor).
//
//   import { FAMILIES, VIEW_FAMILY, viewFor, drawsIn } from './architectures.js';
//   VIEW_FAMILY.heads                       // 'transformer'
//   VIEW_FAMILIES.mechanism                 // ['seq2seq', 'transformer', 'classifier', 'memory-rnn']
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
    views: ['alignment', 'time', 'compare', 'mechanism'],
    opens: ['alignment', 'time', 'mechanism'],
    head: null,
    hint: 'input.hint',
  },
  transformer: {
    architecture: 'transformer',
    views: ['heads', 'mechanism'],
    opens: ['heads', 'mechanism'],
    head: null,
    hint: 'input.hint',
  },
  classifier: {
    architecture: 'classifier',
    views: ['pooling', 'mechanism'],
    opens: ['pooling', 'mechanism'],
    head: null,
    hint: 'input.hintWords',
  },
  'memory-rnn': {
    architecture: 'memory-rnn',
    views: ['reading', 'mechanism'],
    opens: ['reading', 'mechanism'],
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

/** The families of models each view shows, in FAMILIES order (the mechanism view draws four;
 * every other view one). */
export const VIEW_FAMILIES = Object.freeze(
  Object.entries(FAMILIES).reduce((out, [family, f]) => {
    for (const view of f.views) out[view] = Object.freeze([...(out[view] ?? []), family]);
    return out;
  }, /** @type {Record<string, readonly string[]>} */ ({})),
);

/** The family of models each view shows (a view of several: its first, whose first model it
 * opens with; the page's other views show none), in tab order. */
export const VIEW_FAMILY = Object.freeze(
  Object.fromEntries(Object.entries(VIEW_FAMILIES).map(([view, fs]) => [view, fs[0]])),
);

/** The family a registry model's family (or, unknown, the view's first) is drawn as in view: the
 * model's own when the view draws it, else the view's first. */
export function familyIn(view, modelFamily) {
  const fs = VIEW_FAMILIES[view] ?? [];
  return modelFamily && fs.includes(modelFamily) ? modelFamily : (fs[0] ?? null);
}

/**
 * The view that draws a model file of this architecture (and config head): the one it is open in
 * when that one can, else its family's first; null when no view draws it.
 */
export function viewFor(architecture, head, current) {
  const f = Object.hasOwn(FAMILIES, architecture) ? FAMILIES[architecture] : null;
  if (!f || !f.opens.length || (f.head !== null && head !== f.head)) return null;
  return f.opens.includes(current) ? current : f.opens[0];
}

/** The family of a model of this architecture (and config head), or null: its first one that
 * opens in a view. */
export function familyOf(architecture, head) {
  const found = Object.entries(FAMILIES).find(
    ([, f]) =>
      f.architecture === architecture && f.opens.length && (f.head === null || head === f.head),
  );
  return found ? found[0] : null;
}

/** Can view draw a model of this architecture and config head (a path of another one cannot)? */
export function drawsIn(architecture, head, view) {
  return (VIEW_FAMILIES[view] ?? []).some((family) => {
    const f = FAMILIES[family];
    return f.architecture === architecture && (f.head === null || head === f.head);
  });
}

function freeze(families) {
  for (const f of Object.values(families)) {
    Object.freeze(f.views);
    Object.freeze(f.opens);
    Object.freeze(f);
  }
  return Object.freeze(families);
}
