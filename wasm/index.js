// attnlab: the npm-facing ESM glue over attnlab.wasm.
//
//   import { init, ops } from 'attnlab';
//   await init();                                   // Node 20 or a browser, no bundler needed
//   const { output, weights } = ops.scaledDotProductAttention(q, k, v, { returnWeights: true });
//
// What this file does: finds and instantiates the .wasm (the SIMD128 build, or the scalar one
// where the engine lacks SIMD128), turns JS tensors into wasm memory and back, checks shapes and
// values with messages that name the tensor, and turns C status codes into thrown errors.
// What it deliberately does not do: any maths (that is all in C), or hold pointers across calls
// (typed-array views are rebuilt after every call that may grow memory; results are copies),
// except for tensors the caller asked to keep resident (prepare(), until their dispose()).
// Layout: loader.js (finding, compiling and instantiating the .wasm; the default instance),
// instance.js (createAttnlab: independent instances), ops/index.js (the op table) over
// ops/*.js (one module per family of ops), core.js (the arena and the library instance,
// re-exporting errors.js, tensors.js and options.js: errors, tensor checks, snapshots),
// config-limits.js and limits.js (copies of the C limits), source.js (the one byte reader),
// prepared.js (prepare(): tensors kept resident in wasm memory across calls), model.js and the
// architecture modules, train.js; this file only re-exports.
// No module imports one that imports it back. Types: index.d.ts, hand-written.

export { AttnlabError } from './core.js';
export { ops } from './ops/index.js';
export { init, initTraining, simdSupported } from './loader.js';
export { createAttnlab } from './instance.js';
export { prepare, PreparedParams, PreparedTensor } from './prepared.js';
export { readSafetensors } from './io.js';
export { loadModel, Model } from './model.js';
export { createTrainer, createModel, loadTrainableModel, saveModel, Trainer } from './train.js';
