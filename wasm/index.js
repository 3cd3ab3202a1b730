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
// Layout: core.js (errors, tensors, arena), prepared.js (prepare(): tensors kept resident in wasm
// memory across calls), ops/*.js (one module per family of ops), this file (loading and the op
// table). Types: index.d.ts, hand-written.

import { AttnlabError, getLib, kindOf, setLib } from './core.js';
import { fetchChecked, readSource } from './source.js';
import * as basic from './ops/basic.js';
import * as sdpa from './ops/sdpa.js';
import * as additiveLuong from './ops/additive-luong.js';
import * as transformerAttention from './ops/transformer-attention.js';
import * as pooling from './ops/pooling.js';
import * as recurrent from './ops/recurrent.js';
import * as memoryRnn from './ops/memory-rnn.js';
import * as transformerLayers from './ops/transformer-layers.js';

export { AttnlabError } from './core.js';
export { prepare, PreparedParams, PreparedTensor } from './prepared.js';
export { readSafetensors } from './io.js';
export { loadModel, Model } from './model.js';
export { createTrainer, createModel, loadTrainableModel, saveModel, Trainer } from './train.js';

const ABI_VERSION = 1;

// The smallest module that uses a v128 instruction: (func (result v128) i32.const 0 i8x16.splat)
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11,
]);

/** True when this engine validates WebAssembly SIMD128. */
export function simdSupported() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

let loading = null; // the in-flight init() promise

/**
 * Load and instantiate attnlab once. Later calls resolve to the same instance (their options are
 * ignored). A failed load can be retried.
 * @param {import('./index.d.ts').InitOptions} [options]
 */
export function init(options = {}) {
  const ready = getLib();
  if (ready) return Promise.resolve(ready.api);
  if (!loading) {
    loading = instantiate(options).then(
      (l) => {
        setLib(l);
        return l.api;
      },
      (e) => {
        loading = null;
        throw e;
      },
    );
  }
  return loading;
}

let training = null; // the in-flight or finished training-instance promise

/**
 * The training build (attnlab-train.wasm: everything attnlab.wasm has plus al_model_create,
 * al_trainer_* and al_model_save), instantiated once on first use by createModel() and
 * loadTrainableModel(). It is a second instance with its own memory, so the module every page
 * loads stays small (wasm-contents.test.js: under 150 KB) and training costs nothing until used.
 * It follows the main instance's choice of build: scalar when init() picked (or was given) the
 * scalar build, SIMD otherwise. Resolves to { x } (the exports); internal to the glue.
 * @param {{ wasm?: any, simd?: boolean }} [options] as init()'s
 */
export function initTraining(options = {}) {
  if (!training) {
    const main = getLib();
    const simd = options.simd ?? (main ? main.x.al_simd() === 1 : simdSupported());
    const wasm = options.wasm ?? new URL(simd ? 'attnlab-train.wasm' : 'attnlab-train-scalar.wasm', import.meta.url);
    training = instantiate({ ...options, wasm }).catch((e) => {
      training = null;
      throw e;
    });
  }
  return training;
}

async function instantiate(options) {
  if (options === null || typeof options !== 'object') {
    throw new AttnlabError('init(options): options must be an object');
  }
  let source = options.wasm;
  const useSimd = options.simd ?? simdSupported();
  if (source === undefined) {
    source = new URL(useSimd ? 'attnlab.wasm' : 'attnlab-scalar.wasm', import.meta.url);
  }
  const module = await compileFrom(source);
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== 'function') {
      throw new AttnlabError(`init: the module imports ${imp.kind} ${imp.module}.${imp.name}; is this attnlab.wasm?`);
    }
    imports[imp.module] ??= {};
    // emscripten_notify_memory_growth is the only import of a standalone attnlab build, and
    // views are rebuilt on every use, so it needs to do nothing.
    imports[imp.module][imp.name] = imp.name === 'emscripten_notify_memory_growth'
      ? () => {}
      : () => { throw new AttnlabError(`attnlab.wasm called the unexpected import ${imp.module}.${imp.name}`); };
  }
  let instance;
  try {
    instance = await WebAssembly.instantiate(module, imports);
  } catch (e) {
    throw new AttnlabError(`init: the wasm could not be instantiated: ${e?.name ?? 'Error'}: ${e?.message ?? e}`, 'AL_ERR_FORMAT');
  }
  const x = instance.exports;
  if (typeof x.al_abi_version !== 'function' || typeof x.memory !== 'object') {
    throw new AttnlabError('init: this module is not attnlab.wasm (no al_abi_version export)');
  }
  if (typeof x._initialize === 'function') x._initialize();
  if (x.al_abi_version() !== ABI_VERSION) {
    throw new AttnlabError(`init: attnlab.wasm has ABI ${x.al_abi_version()}, this index.js expects ${ABI_VERSION}; use the .wasm shipped beside it`);
  }
  return makeLib(x);
}

async function compileFrom(source) {
  if (source instanceof WebAssembly.Module) return source;
  try {
    if (typeof source === 'string' || source instanceof URL) {
      const url = new URL(source, import.meta.url);
      if (url.protocol !== 'file:') {
        const response = await fetchChecked(url, 'init');
        // Compile while downloading where the server labels the bytes correctly.
        if (typeof WebAssembly.compileStreaming === 'function' &&
            (response.headers.get('content-type') ?? '').startsWith('application/wasm')) {
          return await WebAssembly.compileStreaming(response);
        }
        return await WebAssembly.compile(await readSource(response, 'init'));
      }
      return await WebAssembly.compile(await readSource(url, 'init'));
    }
    const isBytes = source instanceof ArrayBuffer || ArrayBuffer.isView(source);
    const isResponse = source !== null && typeof source === 'object' && typeof source.arrayBuffer === 'function' && 'ok' in source;
    if (!isBytes && !isResponse) {
      throw new AttnlabError(`init: options.wasm must be bytes, a URL, a Response or a WebAssembly.Module, got ${kindOf(source)}`);
    }
    return await WebAssembly.compile(await readSource(source, 'init'));
  } catch (e) {
    if (e instanceof AttnlabError) throw e;
    // CompileError (not a .wasm), LinkError, a TypeError from compileStreaming: all named here
    throw new AttnlabError(`init: the wasm could not be compiled: ${e?.name ?? 'Error'}: ${e?.message ?? e}`, 'AL_ERR_FORMAT');
  }
}

/** The op table; every function throws AttnlabError until init() has resolved. */
export const ops = Object.freeze({
  ...basic,
  ...sdpa,
  ...additiveLuong,
  ...transformerAttention,
  ...pooling,
  ...recurrent,
  ...memoryRnn,
  ...transformerLayers,
});

function makeLib(x) {
  const api = Object.freeze({
    ops,
    simd: x.al_simd() === 1,
    memoryBytes: () => x.memory.buffer.byteLength,
    liveAllocations: () => x.al_alloc_live(),
  });
  return { x, api };
}
