// attnlab/wasm/loader.js: finding, compiling and instantiating the .wasm, once per instance.
//
//   const lib = await loadLib({ simd: false });   // { x: exports, simd, training() }
//
// One loader for every path: init() (the cached default instance the module-level API uses),
// createAttnlab() (instance.js: instances with their own memory), and the training build each
// instance loads lazily for createModel()/loadTrainableModel(). Bytes come from source.js, the
// one byte reader. Nothing here imports the model or training modules, so no module imports one
// that imports it back.

import { AttnlabError, getLib, kindOf, setLib } from './core.js';
import { fetchChecked, readSource } from './source.js';
import { ops } from './ops/index.js';

const ABI_VERSION = 1;

// The smallest module that uses a v128 instruction: (func (result v128) i32.const 0 i8x16.splat)
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15,
  11,
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
        l.training = () => initTraining();
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
 * loads stays small (wasm-contents.test.js: under 160 KB) and training costs nothing until used.
 * It follows the main instance's choice of build: scalar when init() picked (or was given) the
 * scalar build, SIMD otherwise. Resolves to { x } (the exports); internal to the glue.
 * @param {{ wasm?: any, simd?: boolean }} [options] as init()'s
 */
export function initTraining(options = {}) {
  if (!training) {
    const main = getLib();
    const simd = options.simd ?? (main ? main.simd : simdSupported());
    training = trainingFor(simd, options.wasm).catch((e) => {
      training = null;
      throw e;
    });
  }
  return training;
}

function trainingFor(simd, wasm) {
  return instantiate({
    simd,
    wasm:
      wasm ?? new URL(simd ? 'attnlab-train.wasm' : 'attnlab-train-scalar.wasm', import.meta.url),
  });
}

/** The default instance, initialised on first use (for loadModel() and friends). */
export async function defaultLib() {
  if (!getLib()) await init();
  return getLib();
}

/**
 * A new, independent instance: its own memory and exports. `lib.training()` resolves to its own
 * training build (same SIMD choice), loaded on first use.
 * @param {import('./index.d.ts').InitOptions} [options]
 */
export async function loadLib(options = {}) {
  const l = await instantiate(options);
  let t = null;
  l.training = () =>
    (t ??= trainingFor(l.simd).catch((e) => {
      t = null;
      throw e;
    }));
  return l;
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
  /** @type {WebAssembly.Imports} */
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== 'function') {
      throw new AttnlabError(
        `init: the module imports ${imp.kind} ${imp.module}.${imp.name}; is this attnlab.wasm?`,
      );
    }
    imports[imp.module] ??= {};
    // emscripten_notify_memory_growth is the only import of a standalone attnlab build, and
    // views are rebuilt on every use, so it needs to do nothing.
    imports[imp.module][imp.name] =
      imp.name === 'emscripten_notify_memory_growth'
        ? () => {}
        : () => {
            throw new AttnlabError(
              `attnlab.wasm called the unexpected import ${imp.module}.${imp.name}`,
            );
          };
  }
  let instance;
  try {
    instance = await WebAssembly.instantiate(module, imports);
  } catch (e) {
    throw new AttnlabError(
      `init: the wasm could not be instantiated: ${e?.name ?? 'Error'}: ${e?.message ?? e}`,
      'AL_ERR_FORMAT',
    );
  }
  const x = instance.exports;
  if (typeof x.al_abi_version !== 'function' || typeof x.memory !== 'object') {
    throw new AttnlabError('init: this module is not attnlab.wasm (no al_abi_version export)');
  }
  if (typeof x._initialize === 'function') x._initialize();
  if (x.al_abi_version() !== ABI_VERSION) {
    throw new AttnlabError(
      `init: attnlab.wasm has ABI ${x.al_abi_version()}, this index.js expects ${ABI_VERSION}; use the .wasm shipped beside it`,
    );
  }
  return makeLib(x);
}

async function compileFrom(source) {
  // A promise of a source (a fetch started early, before this module loaded): its value.
  if (source !== null && typeof source === 'object' && typeof source.then === 'function') {
    try {
      source = await source;
    } catch (e) {
      throw new AttnlabError(`init: options.wasm (a promise) rejected: ${e?.message ?? e}`);
    }
  }
  if (source instanceof WebAssembly.Module) return source;
  try {
    if (typeof source === 'string' || source instanceof URL) {
      const url = new URL(source, import.meta.url);
      if (url.protocol !== 'file:') {
        const response = await fetchChecked(url, 'init');
        // Compile while downloading where the server labels the bytes correctly.
        if (
          typeof WebAssembly.compileStreaming === 'function' &&
          (response.headers.get('content-type') ?? '').startsWith('application/wasm')
        ) {
          return await WebAssembly.compileStreaming(response);
        }
        return await WebAssembly.compile(await readSource(response, 'init'));
      }
      return await WebAssembly.compile(await readSource(url, 'init'));
    }
    const isBytes = source instanceof ArrayBuffer || ArrayBuffer.isView(source);
    const isResponse =
      source !== null &&
      typeof source === 'object' &&
      typeof source.arrayBuffer === 'function' &&
      'ok' in source;
    if (!isBytes && !isResponse) {
      throw new AttnlabError(
        `init: options.wasm must be bytes, a URL, a Response or a WebAssembly.Module (or a promise of one), got ${kindOf(source)}`,
      );
    }
    // A Response the caller fetched: compiled while it downloads, as a URL's is (a failed one is
    // named by readSource below).
    if (
      isResponse &&
      source.ok &&
      typeof WebAssembly.compileStreaming === 'function' &&
      typeof Response === 'function' &&
      source instanceof Response &&
      (source.headers.get('content-type') ?? '').startsWith('application/wasm')
    ) {
      return await WebAssembly.compileStreaming(source);
    }
    return await WebAssembly.compile(await readSource(source, 'init'));
  } catch (e) {
    if (e instanceof AttnlabError) throw e;
    // CompileError (not a .wasm), LinkError, a TypeError from compileStreaming: all named here
    throw new AttnlabError(
      `init: the wasm could not be compiled: ${e?.name ?? 'Error'}: ${e?.message ?? e}`,
      'AL_ERR_FORMAT',
    );
  }
}

function makeLib(x) {
  const simd = x.al_simd() === 1;
  const api = Object.freeze({
    ops,
    simd,
    memoryBytes: () => x.memory.buffer.byteLength,
    liveAllocations: () => x.al_alloc_live(),
  });
  return { x, api, simd };
}
