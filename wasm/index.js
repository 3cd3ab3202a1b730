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
// (typed-array views are rebuilt after every call that may grow memory; results are copies).
// Types: index.d.ts, hand-written.

const ABI_VERSION = 1;

const STATUS_NAMES = [
  'AL_OK', 'AL_ERR_ARGUMENT', 'AL_ERR_SHAPE', 'AL_ERR_RANGE', 'AL_ERR_NONFINITE', 'AL_ERR_NOMEM',
  'AL_ERR_FORMAT', 'AL_ERR_UNSUPPORTED', 'AL_ERR_OVERFLOW',
];

/** An error from attnlab: input validation (code 'AL_ERR_ARGUMENT', 'AL_ERR_SHAPE', ...) or a C status. */
export class AttnlabError extends Error {
  constructor(message, code = 'AL_ERR_ARGUMENT') {
    super(message);
    this.name = 'AttnlabError';
    this.code = code;
  }
}

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

let lib = null; // the instantiated library, once init() has resolved
let loading = null; // the in-flight init() promise

/**
 * Load and instantiate attnlab once. Later calls resolve to the same instance (their options are
 * ignored). A failed load can be retried.
 * @param {import('./index.d.ts').InitOptions} [options]
 */
export function init(options = {}) {
  if (lib) return Promise.resolve(lib.api);
  if (!loading) {
    loading = instantiate(options).then(
      (l) => {
        lib = l;
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
  const instance = await WebAssembly.instantiate(module, imports);
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
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return WebAssembly.compile(source);
  }
  if (typeof Response !== 'undefined' && source instanceof Response) {
    if (!source.ok) throw new AttnlabError(`init: fetching the wasm failed with HTTP ${source.status}`);
    return WebAssembly.compile(await source.arrayBuffer());
  }
  if (typeof source === 'string' || source instanceof URL) {
    const url = new URL(source, import.meta.url);
    if (url.protocol === 'file:') {
      const { readFile } = await import('node:fs/promises');
      return WebAssembly.compile(await readFile(url));
    }
    const response = await fetch(url);
    if (!response.ok) throw new AttnlabError(`init: fetching ${url} failed with HTTP ${response.status}`);
    return WebAssembly.compile(await response.arrayBuffer());
  }
  throw new AttnlabError('init: options.wasm must be bytes, a URL, a Response or a WebAssembly.Module');
}

// ------------------------------------------------------------------ memory

/** Allocations for one call: copied in, freed in `finally`, whatever happens. */
class Arena {
  constructor(x) {
    this.x = x;
    this.ptrs = [];
  }

  alloc(bytes, what) {
    const p = this.x.al_malloc(Math.max(bytes, 4));
    if (!p) throw new AttnlabError(`out of wasm memory allocating ${bytes} bytes for ${what}`, 'AL_ERR_NOMEM');
    this.ptrs.push(p);
    return p;
  }

  f32(data, what) {
    const p = this.alloc(data.length * 4, what);
    new Float32Array(this.x.memory.buffer, p, data.length).set(data);
    return p;
  }

  u8(data, what) {
    const p = this.alloc(data.length, what);
    new Uint8Array(this.x.memory.buffer, p, data.length).set(data);
    return p;
  }

  i32(data, what) {
    const p = this.alloc(data.length * 4, what);
    new Int32Array(this.x.memory.buffer, p, data.length).set(data);
    return p;
  }

  /** A JS-owned copy of n floats at p. */
  read(p, n) {
    return new Float32Array(this.x.memory.buffer, p, n).slice();
  }

  free() {
    for (const p of this.ptrs) this.x.al_free(p);
    this.ptrs.length = 0;
  }
}

function statusName(code) {
  return STATUS_NAMES[code] ?? `status ${code}`;
}

function readCString(x, p) {
  const bytes = new Uint8Array(x.memory.buffer);
  let end = p;
  while (bytes[end] !== 0) end++;
  return new TextDecoder().decode(bytes.subarray(p, end));
}

function check(x, status, context) {
  if (status !== 0) {
    throw new AttnlabError(`${context}: ${readCString(x, x.al_status_string(status))}`, statusName(status));
  }
}

// ------------------------------------------------------------------ tensors

const fmtShape = (s) => `[${s.join(', ')}]`;

function nestedShape(x, name) {
  const shape = [];
  let level = x;
  while (Array.isArray(level)) {
    shape.push(level.length);
    if (level.length === 0) break;
    level = level[0];
  }
  if (shape.length === 0) throw new AttnlabError(`${name} must be a tensor ({ data, shape }) or nested arrays`);
  return shape;
}

function flattenNested(x, shape, name, out, ArrayType) {
  let i = 0;
  const walk = (level, depth) => {
    if (depth === shape.length) {
      if (ArrayType === Uint8Array) {
        if (typeof level !== 'boolean' && typeof level !== 'number') {
          throw new AttnlabError(`${name} must hold booleans or 0/1; found ${typeof level}`);
        }
        out[i++] = level ? 1 : 0;
      } else {
        if (typeof level !== 'number') {
          throw new AttnlabError(`${name} must hold numbers; found ${Array.isArray(level) ? 'an array' : typeof level} at depth ${depth}`);
        }
        out[i++] = level;
      }
      return;
    }
    if (!Array.isArray(level) || level.length !== shape[depth]) {
      throw new AttnlabError(`${name} is ragged: expected ${shape[depth]} entries at depth ${depth}, found ${Array.isArray(level) ? level.length : typeof level}`, 'AL_ERR_SHAPE');
    }
    for (const v of level) walk(v, depth + 1);
  };
  walk(x, 0);
  return out;
}

function checkShape(shape, name) {
  if (!Array.isArray(shape)) throw new AttnlabError(`${name}.shape must be an array of sizes`);
  let n = 1;
  for (const d of shape) {
    if (!Number.isInteger(d) || d < 0) {
      throw new AttnlabError(`${name}.shape ${JSON.stringify(shape)} must hold non-negative integers`, 'AL_ERR_SHAPE');
    }
    n *= d;
  }
  if (n === 0) throw new AttnlabError(`${name} is empty (shape ${fmtShape(shape)}); every dimension must be at least 1`, 'AL_ERR_SHAPE');
  if (n >= 2 ** 31) throw new AttnlabError(`${name} has ${n} elements; the limit is 2^31 - 1`, 'AL_ERR_OVERFLOW');
  return n;
}

function checkFinite(data, name) {
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (v - v !== 0) { // NaN or ±Infinity
      throw new AttnlabError(`${name} contains ${v} at flat index ${i}; inputs must be finite`, 'AL_ERR_NONFINITE');
    }
  }
}

/**
 * A validated float tensor { data: Float32Array, shape } from a tensor or nested arrays.
 * `ranks` lists the accepted ranks.
 */
function toTensor(x, name, ranks) {
  let data;
  let shape;
  if (Array.isArray(x)) {
    shape = nestedShape(x, name);
    const n = checkShape(shape, name);
    data = flattenNested(x, shape, name, new Float32Array(n), Float32Array);
  } else if (x && typeof x === 'object' && 'data' in x && 'shape' in x) {
    shape = x.shape;
    const n = checkShape(shape, name);
    data = x.data;
    if (!(data instanceof Float32Array)) {
      const kind = data?.constructor?.name ?? typeof data;
      throw new AttnlabError(`${name}.data must be a Float32Array, got ${kind}; convert with Float32Array.from(...)`);
    }
    if (data.length !== n) {
      const hint = data.length === 0 && data.buffer.byteLength === 0 ? ' (its buffer may have been detached or transferred)' : '';
      throw new AttnlabError(`${name}.data has ${data.length} elements but shape ${fmtShape(shape)} needs ${n}${hint}`, 'AL_ERR_SHAPE');
    }
  } else {
    throw new AttnlabError(`${name} must be a tensor ({ data: Float32Array, shape }) or nested arrays, got ${x === null ? 'null' : typeof x}`);
  }
  if (ranks && !ranks.includes(shape.length)) {
    throw new AttnlabError(`${name} must have rank ${ranks.join(' or ')}, got shape ${fmtShape(shape)}`, 'AL_ERR_SHAPE');
  }
  checkFinite(data, name);
  return { data, shape: shape.slice() };
}

/** A 0/1 Uint8Array mask of exactly `n` entries from the accepted mask forms. */
function toMask(m, name, shapes) {
  let data;
  let shape;
  if (m instanceof Uint8Array) {
    data = m;
    shape = [m.length];
  } else if (Array.isArray(m)) {
    shape = nestedShape(m, name);
    checkShape(shape, name);
    data = flattenNested(m, shape, name, new Uint8Array(shape.reduce((a, b) => a * b, 1)), Uint8Array);
  } else if (m && typeof m === 'object' && 'data' in m && 'shape' in m) {
    shape = m.shape;
    const n = checkShape(shape, name);
    if (m.data instanceof Uint8Array) data = m.data;
    else if (Array.isArray(m.data)) data = Uint8Array.from(m.data, (v) => (v ? 1 : 0));
    else throw new AttnlabError(`${name}.data must be a Uint8Array or an array of booleans`);
    if (data.length !== n) throw new AttnlabError(`${name}.data has ${data.length} entries but shape ${fmtShape(shape)} needs ${n}`, 'AL_ERR_SHAPE');
  } else {
    throw new AttnlabError(`${name} must be a Uint8Array, boolean arrays or { data, shape }`);
  }
  const match = shapes.find((s) => s.length === shape.length && s.every((d, i) => d === shape[i]));
  if (!match) {
    throw new AttnlabError(`${name} has shape ${fmtShape(shape)} but must be ${shapes.map(fmtShape).join(' or ')}`, 'AL_ERR_SHAPE');
  }
  return { data: Uint8Array.from(data, (v) => (v ? 1 : 0)), shape };
}

function checkOptions(options, name, allowed) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') throw new AttnlabError(`${name}: options must be an object`);
  for (const k of Object.keys(options)) {
    if (!allowed.includes(k)) {
      throw new AttnlabError(`${name}: unknown option '${k}' (known: ${allowed.join(', ')})`);
    }
  }
  return options;
}

function requireLib(what) {
  if (!lib) {
    throw new AttnlabError(`ops.${what}: attnlab is not initialised; await init() first`, 'AL_ERR_ARGUMENT');
  }
  return lib.x;
}

/** Run fn(arena) with the library's exports and free the arena's blocks afterwards. */
function withArena(what, fn) {
  const x = requireLib(what);
  const arena = new Arena(x);
  try {
    return fn(x, arena);
  } finally {
    arena.free();
  }
}

// ------------------------------------------------------------------ ops

function matmul(a, b, options) {
  const o = checkOptions(options, 'matmul', ['transposeA', 'transposeB']);
  const A = toTensor(a, 'a', [2]);
  const B = toTensor(b, 'b', [2]);
  const ta = !!o.transposeA;
  const tb = !!o.transposeB;
  const [M, K] = ta ? [A.shape[1], A.shape[0]] : A.shape;
  const [K2, N] = tb ? [B.shape[1], B.shape[0]] : B.shape;
  if (K !== K2) {
    const aName = ta ? 'aᵀ' : 'a';
    const bName = tb ? 'bᵀ' : 'b';
    throw new AttnlabError(`matmul: ${aName} has ${K} columns but ${bName} has ${K2} rows`, 'AL_ERR_SHAPE');
  }
  return withArena('matmul', (x, ar) => {
    const pa = ar.f32(A.data, 'a');
    const pb = ar.f32(B.data, 'b');
    const pc = ar.alloc(M * N * 4, 'the result');
    check(x, x.al_matmul(pc, pa, pb, M, K, N, ta ? 1 : 0, tb ? 1 : 0), 'matmul');
    return { data: ar.read(pc, M * N), shape: [M, N] };
  });
}

function matvec(a, v) {
  const A = toTensor(a, 'a', [2]);
  const X = toTensor(v, 'x', [1]);
  const [M, K] = A.shape;
  if (X.shape[0] !== K) throw new AttnlabError(`matvec: a has ${K} columns but x has ${X.shape[0]} entries`, 'AL_ERR_SHAPE');
  return withArena('matvec', (x, ar) => {
    const pa = ar.f32(A.data, 'a');
    const px = ar.f32(X.data, 'x');
    const py = ar.alloc(M * 4, 'the result');
    check(x, x.al_matvec(py, pa, px, M, K), 'matvec');
    return { data: ar.read(py, M), shape: [M] };
  });
}

function softmax(input, options) {
  const o = checkOptions(options, 'softmax', ['mask']);
  const X = toTensor(input, 'x');
  const C = X.shape[X.shape.length - 1];
  const R = X.data.length / C;
  const mask = o.mask === undefined ? null : toMask(o.mask, 'mask', [X.shape, [C]]);
  return withArena('softmax', (x, ar) => {
    const px = ar.f32(X.data, 'x');
    const pm = mask ? ar.u8(mask.data, 'mask') : 0;
    const stride = mask && mask.data.length === X.data.length ? C : 0;
    check(x, x.al_softmax(px, px, pm, stride, R, C), 'softmax');
    return { data: ar.read(px, X.data.length), shape: X.shape };
  });
}

const ACTIVATIONS = { tanh: 0, sigmoid: 1, relu: 2, gelu: 3 };

function activation(name) {
  return (input) => {
    const X = toTensor(input, 'x');
    return withArena(name, (x, ar) => {
      const p = ar.f32(X.data, 'x');
      check(x, x.al_activate(p, p, X.data.length, ACTIVATIONS[name]), name);
      return { data: ar.read(p, X.data.length), shape: X.shape };
    });
  };
}

function layerNorm(input, options) {
  const o = checkOptions(options, 'layerNorm', ['weight', 'bias', 'eps']);
  const X = toTensor(input, 'x');
  const C = X.shape[X.shape.length - 1];
  const R = X.data.length / C;
  const W = o.weight === undefined ? null : toTensor(o.weight, 'weight', [1]);
  const Bt = o.bias === undefined ? null : toTensor(o.bias, 'bias', [1]);
  if (W && W.shape[0] !== C) throw new AttnlabError(`layerNorm: x has ${C} features but weight has ${W.shape[0]}`, 'AL_ERR_SHAPE');
  if (Bt && Bt.shape[0] !== C) throw new AttnlabError(`layerNorm: x has ${C} features but bias has ${Bt.shape[0]}`, 'AL_ERR_SHAPE');
  const eps = o.eps ?? 1e-5;
  if (typeof eps !== 'number' || !(eps > 0) || !Number.isFinite(eps)) {
    throw new AttnlabError(`layerNorm: eps must be a finite number > 0, got ${eps}`);
  }
  return withArena('layerNorm', (x, ar) => {
    const px = ar.f32(X.data, 'x');
    const pw = W ? ar.f32(W.data, 'weight') : 0;
    const pb = Bt ? ar.f32(Bt.data, 'bias') : 0;
    check(x, x.al_layernorm(px, px, pw, pb, R, C, eps), 'layerNorm');
    return { data: ar.read(px, X.data.length), shape: X.shape };
  });
}

function embedding(ids, weight) {
  const W = toTensor(weight, 'weight', [2]);
  const [V, C] = W.shape;
  if (!(ids instanceof Int32Array) && !Array.isArray(ids)) {
    throw new AttnlabError('embedding: ids must be an Int32Array or an array of integers');
  }
  if (ids.length === 0) throw new AttnlabError('embedding: ids is empty', 'AL_ERR_SHAPE');
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (!Number.isInteger(id) || id < 0 || id >= V) {
      throw new AttnlabError(`embedding: ids[${i}] = ${id} is outside the vocabulary [0, ${V})`, 'AL_ERR_RANGE');
    }
  }
  const N = ids.length;
  return withArena('embedding', (x, ar) => {
    const pi = ar.i32(ids instanceof Int32Array ? ids : Int32Array.from(ids), 'ids');
    const pw = ar.f32(W.data, 'weight');
    const po = ar.alloc(N * C * 4, 'the result');
    check(x, x.al_embedding(po, pi, N, pw, V, C, 0), 'embedding');
    return { data: ar.read(po, N * C), shape: [N, C] };
  });
}

function scaledDotProductAttention(query, key, value, options) {
  const what = 'scaledDotProductAttention';
  const o = checkOptions(options, what, ['causal', 'keyPaddingMask', 'scale', 'returnWeights']);
  const Q = toTensor(query, 'query', [2, 3, 4]);
  const K = toTensor(key, 'key', [2, 3, 4]);
  const V = toTensor(value, 'value', [2, 3, 4]);
  const r = Q.shape.length;
  if (K.shape.length !== r || V.shape.length !== r) {
    throw new AttnlabError(`${what}: query has rank ${r} but key has rank ${K.shape.length} and value rank ${V.shape.length}; they must match`, 'AL_ERR_SHAPE');
  }
  const lead = Q.shape.slice(0, r - 2);
  for (const [t, n] of [[K, 'key'], [V, 'value']]) {
    const l = t.shape.slice(0, r - 2);
    if (l.some((d, i) => d !== lead[i])) {
      throw new AttnlabError(`${what}: query has leading shape ${fmtShape(lead)} but ${n} has ${fmtShape(l)}`, 'AL_ERR_SHAPE');
    }
  }
  const [L, D] = Q.shape.slice(r - 2);
  const [S, Dk] = K.shape.slice(r - 2);
  const [Sv, Dv] = V.shape.slice(r - 2);
  if (Dk !== D) throw new AttnlabError(`${what}: query has ${D} columns but key has ${Dk}`, 'AL_ERR_SHAPE');
  if (Sv !== S) throw new AttnlabError(`${what}: key has ${S} rows but value has ${Sv}`, 'AL_ERR_SHAPE');
  const B = r === 4 ? lead[0] : 1;
  const H = r === 4 ? lead[1] : r === 3 ? lead[0] : 1;
  let scale = 0;
  if (o.scale !== undefined) {
    if (typeof o.scale !== 'number' || !Number.isFinite(o.scale) || o.scale === 0) {
      throw new AttnlabError(`${what}: scale must be a finite non-zero number, got ${o.scale}`);
    }
    scale = o.scale;
  }
  let mask = null;
  if (o.keyPaddingMask !== undefined && o.keyPaddingMask !== null) {
    const shapes = r === 4 ? [[B, S], [S]] : [[S]];
    mask = toMask(o.keyPaddingMask, 'keyPaddingMask', shapes);
    if (r === 4 && mask.shape.length === 1 && B > 1) { // broadcast [S] over the batch
      const full = new Uint8Array(B * S);
      for (let b = 0; b < B; b++) full.set(mask.data, b * S);
      mask = { data: full, shape: [B, S] };
    }
  }
  const withWeights = !!o.returnWeights;
  return withArena(what, (x, ar) => {
    const pq = ar.f32(Q.data, 'query');
    const pk = ar.f32(K.data, 'key');
    const pv = ar.f32(V.data, 'value');
    const pm = mask ? ar.u8(mask.data, 'keyPaddingMask') : 0;
    const nOut = B * H * L * Dv;
    const nAtt = B * H * L * S;
    const po = ar.alloc(nOut * 4, 'the output');
    const pa = withWeights ? ar.alloc(nAtt * 4, 'the weights') : 0;
    check(x, x.al_sdpa(po, pa, pq, pk, pv, B, H, L, S, D, Dv, scale, pm, o.causal ? 1 : 0), what);
    return {
      output: { data: ar.read(po, nOut), shape: [...lead, L, Dv] },
      weights: withWeights ? { data: ar.read(pa, nAtt), shape: [...lead, L, S] } : null,
    };
  });
}

/** The op table; every function throws AttnlabError until init() has resolved. */
export const ops = Object.freeze({
  matmul,
  matvec,
  softmax,
  tanh: activation('tanh'),
  sigmoid: activation('sigmoid'),
  relu: activation('relu'),
  gelu: activation('gelu'),
  layerNorm,
  embedding,
  scaledDotProductAttention,
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
