// attnlab/wasm/model/architectures.js: the library's table of architectures: the config's
// "architecture" name, and the number C gives it (the AL_ARCH_* enum of src/models/model.h, in
// the order of src/models/model.c's ARCH_NAMES), which al_model_info reports.
//
//   import { ARCHITECTURES, architectureNamed } from './model/architectures.js';
//   ARCHITECTURES[1].name               // 'transformer' (AL_ARCH_TRANSFORMER = 1)
//   architectureNamed('memory-rnn')     // { id: 3, name: 'memory-rnn', heads: ['lm', 'classifier'] }
//
// Holds: the names, numbers and heads only (tests/js/architectures.test.js reads the C enum and
// checks them). Deliberately holds no architecture's code (model/<name>.js, picked by model.js)
// and nothing of the page: web/shared/architectures.js is the page's half, keyed by these names.
// docs/adding-a-model-family.md lists every file a new architecture touches.

/**
 * One architecture: id, its AL_ARCH_* number (the index in ARCHITECTURES); name, the config's
 * "architecture"; heads, the config "head" values its models may have (memory-rnn's AL_MEM_LM,
 * AL_MEM_CLASSIFIER), empty when it has one kind.
 * @typedef {{ id: number, name: string, heads: readonly string[] }} Architecture
 * @type {readonly Architecture[]}
 */
export const ARCHITECTURES = Object.freeze(
  [
    { id: 0, name: 'seq2seq', heads: [] },
    { id: 1, name: 'transformer', heads: [] },
    { id: 2, name: 'classifier', heads: [] },
    { id: 3, name: 'memory-rnn', heads: ['lm', 'classifier'] },
  ].map((a) => Object.freeze({ ...a, heads: Object.freeze(a.heads) })),
);

/** The architecture called name (a config's "architecture"), or null. */
export function architectureNamed(name) {
  return ARCHITECTURES.find((a) => a.name === name) ?? null;
}
