// attnlab/wasm/instance.js: independent attnlab instances, each with its own wasm memory.
//
//   import { createAttnlab } from 'attnlab';
//   const scalar = await createAttnlab({ simd: false });   // init()'s options
//   scalar.ops.softmax([[1, 2, 3]]);                          // runs in this instance's memory
//   const m = await scalar.loadModel('model.safetensors');    // so do its models and trainers
//
// What it does: instantiates through loader.js and binds the shared op code, readSafetensors,
// prepare(), loadModel() and the training entry points to the new instance (core.js withLib: ops
// are synchronous, so the instance is set for exactly one call). init() and the module-level
// `ops` stay the cached default instance, so code that never calls createAttnlab sees no change.
// What it does not do: share anything between instances: a model, trainer or prepared tensor
// belongs to the instance that made it (using a prepared tensor elsewhere is refused).

import { withLib } from './core.js';
import { loadLib } from './loader.js';
import { ops as sharedOps } from './ops/index.js';
import { prepare as sharedPrepare } from './prepared.js';
import { readSafetensors as sharedRead } from './io.js';
import { loadModelIn } from './model.js';
import { createModelIn, loadTrainableModelIn } from './train.js';

/** fn bound to instance l, and every function hung on it (.backward, relativePositionAttention.distances). */
function bind(l, fn) {
  const bound = (...args) => withLib(l, () => fn(...args));
  for (const [key, f] of Object.entries(fn)) {
    if (typeof f === 'function') bound[key] = (...args) => withLib(l, () => f(...args));
  }
  return bound;
}

/**
 * A new attnlab instance with its own memory: `{ ops, simd, memoryBytes(), liveAllocations(),
 * prepare, readSafetensors, loadModel, createModel, loadTrainableModel }`. createTrainer,
 * saveModel and the Model methods need no binding: a model carries its instance.
 * @param {import('./index.d.ts').InitOptions} [options] as init()'s (wasm, simd)
 */
export async function createAttnlab(options = {}) {
  const l = await loadLib(options);
  const ops = {};
  for (const [name, fn] of Object.entries(sharedOps)) ops[name] = bind(l, fn);
  return Object.freeze({
    ops: Object.freeze(ops),
    simd: l.simd,
    memoryBytes: () => l.x.memory.buffer.byteLength,
    liveAllocations: () => l.x.al_alloc_live(),
    prepare: bind(l, sharedPrepare),
    readSafetensors: bind(l, sharedRead),
    loadModel: (source) => loadModelIn(l, source),
    createModel: (config, opts) => createModelIn(l, config, opts),
    loadTrainableModel: (source) => loadTrainableModelIn(l, source),
  });
}
