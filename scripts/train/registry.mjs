// scripts/train/registry.mjs: every family of shipped models (scripts/train/<family>.mjs) and
// every model by name, for scripts/train.mjs and the tests (tests/js/shipped-*.test.js).
// Importing it trains nothing.
//
// A family module exports MODELS: name → { family, cost (rough seconds on a quiet core, for
// scheduling), config() (what createModel gets), batch(step, count?) (the training examples of
// a step), train({ steps?, out }) → the model card, alias? }, and optionally after(out): work
// that needs the whole family (the forgetting curve).

import * as dates from './dates.mjs';
import * as sequences from './sequences.mjs';
import * as reviews from './reviews.mjs';
import * as agreement from './agreement.mjs';
import * as transformers from './transformers.mjs';
import * as translation from './translation.mjs';

export const FAMILIES = Object.freeze({
  dates,
  sequences,
  reviews,
  agreement,
  transformers,
  translation,
});

/** Every model: name → its registry entry. */
export const MODELS = Object.freeze(
  Object.assign({}, ...Object.values(FAMILIES).map((f) => f.MODELS)),
);

/** Old short names (the dates models' first CLI names) → model names. */
export const ALIASES = Object.freeze(
  Object.fromEntries(
    Object.entries(MODELS)
      .filter(([, m]) => m.alias)
      .map(([n, m]) => [m.alias, n]),
  ),
);
