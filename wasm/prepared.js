// attnlab/wasm/prepared.js: tensors kept resident in wasm memory across calls (prepare()).
//
//   import { init, ops, prepare } from 'attnlab';
//   const p = prepare(stateDict);            // copied into wasm memory and checked once
//   for (const x of inputs) ops.gru(x, p);   // no weight copies per call
//   const w = prepare({ data, shape: [K, N] });
//   ops.matmul(a, w);                        // a copied, w read in place
//   p.dispose(); w.dispose();                // liveAllocations() back to where it was
//
// Why: a call through the plain API copies (and checks for NaN/Inf) every input, weights
// included, and for a small op that copy costs more than the maths (matmul 1×128×512: 256 KB of
// b per call). A prepared tensor is copied and checked once; ops that accept one read it in
// place, so a call with prepared weights gives the same bits as the plain call (same data, same
// kernel) without the copy.
//
// Here: PreparedTensor and PreparedParams, prepare(), and the helpers the ops use to take either
// kind of argument (tensorArg, inputPtr, sizeOf, paramsEntries). Accepted today by matmul (a and
// b) and by rnn / lstm / gru and their .backward (params, or any params entry); other ops take
// plain tensors. prepare is a top-level export, not an entry of `ops`: ops leave nothing allocated
// between calls, a prepared object does until dispose(). Not here: maths, or any view of wasm
// memory kept across a call (a prepared tensor holds an offset, which stays valid when memory
// grows).

import { AttnlabError, MAX_ALLOC_BYTES, fmtShape, requireLib, toTensor } from './core.js';

const leaks =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((what) => {
        console.warn(
          `attnlab: ${what} was garbage-collected without dispose(); its wasm memory is leaked. Call dispose() (or use \`using\`).`,
        );
      })
    : null;

let ptrOf; // (tensor, what) → its offset in wasm memory; set by PreparedTensor's static block
let shapeOf; // (tensor) → a copy of the shape it was prepared with
let memoryOf; // (tensor) → the exports of the instance whose memory holds it
let tensorsOf; // (PreparedParams) → its frozen tensors, or null once disposed

/** One float tensor resident in wasm memory; made by prepare(), freed by dispose(). */
export class PreparedTensor {
  #x;
  #raw; // the al_malloc block, for al_free
  #ptr; // the data, on a 64-byte line inside it
  #shape;
  #name;

  /** @internal use prepare(tensor) */
  constructor(x, raw, ptr, shape, name) {
    this.#x = x;
    this.#raw = raw;
    this.#ptr = ptr;
    this.#shape = shape;
    this.#name = name;
  }

  static {
    ptrOf = (t, what) => {
      if (t.#ptr === 0) {
        const which = t.#name
          ? `the prepared tensor ${t.#name}`
          : `a prepared tensor of shape ${fmtShape(t.#shape)}`;
        throw new AttnlabError(
          `${what}: ${which} has been disposed; prepare it again with prepare()`,
          'AL_ERR_ARGUMENT',
        );
      }
      return t.#ptr;
    };
    // the shape it was prepared with, from the private field: an own `shape` or `size` property a
    // caller defines on the object shadows the getters but never reaches the glue
    shapeOf = (t) => t.#shape.slice();
    memoryOf = (t) => t.#x;
  }

  /** The shape it was prepared with (a copy). */
  get shape() {
    return this.#shape.slice();
  }

  /** Number of elements. */
  get size() {
    return this.#shape.reduce((a, d) => a * d, 1);
  }

  /** True once dispose() has run. */
  get disposed() {
    return this.#ptr === 0;
  }

  /** A JS-owned copy { data, shape } of the resident values. */
  toTensor() {
    const p = ptrOf(this, 'PreparedTensor.toTensor');
    const n = this.#shape.reduce((a, d) => a * d, 1);
    return {
      data: new Float32Array(this.#x.memory.buffer, p, n).slice(),
      shape: this.#shape.slice(),
    };
  }

  /** Free the wasm memory. Later uses throw; a second dispose() is harmless. */
  dispose() {
    if (this.#ptr === 0) return;
    this.#x.al_free(this.#raw);
    this.#ptr = 0;
    leaks?.unregister(this);
  }

  [Symbol.dispose]() {
    this.dispose();
  }
}

/** A state_dict of PreparedTensors (`tensors`), made by prepare(params); dispose() frees all. */
export class PreparedParams {
  #tensors;
  #disposed = false;

  /** @internal use prepare(params) */
  constructor(tensors) {
    this.#tensors = Object.freeze(tensors);
  }

  /** name → PreparedTensor, in the order given to prepare. */
  static {
    tensorsOf = (p) => (p.#disposed ? null : p.#tensors);
  }

  get tensors() {
    if (this.#disposed)
      throw new AttnlabError(
        'PreparedParams.tensors: these params have been disposed; prepare them again with prepare()',
        'AL_ERR_ARGUMENT',
      );
    return this.#tensors;
  }

  /** True once dispose() has run. */
  get disposed() {
    return this.#disposed;
  }

  /** Free every tensor's wasm memory. Later uses throw; a second dispose() is harmless. */
  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const t of Object.values(this.#tensors)) t.dispose();
    leaks?.unregister(this);
  }

  [Symbol.dispose]() {
    this.dispose();
  }
}

// { data, shape } is a tensor (even a malformed one, so toTensor names what is wrong with it), never
// a state_dict with those two keys
const isTensorLike = (v) =>
  Array.isArray(v) || (v !== null && typeof v === 'object' && 'data' in v && 'shape' in v);

/**
 * Copy one validated tensor in and check it; frees its block before throwing. The data starts on
 * a 64-byte line: al_malloc only promises 8 bytes, and 16-byte loads that straddle lines cost the
 * kernels up to 14% (matmul 1×128×512 with b 8 bytes off a line: 5.3 µs instead of 4.65).
 */
function residentCopy(x, v, name, keep = name) {
  const t = toTensor(v, name);
  const bytes = t.data.length * 4;
  if (!(bytes + 64 < MAX_ALLOC_BYTES)) {
    throw new AttnlabError(
      `prepare: ${name} needs ${bytes} bytes; one buffer in wasm memory is limited to ${MAX_ALLOC_BYTES - 65}`,
      'AL_ERR_NOMEM',
    );
  }
  const raw = x.al_malloc(bytes + 64);
  if (!raw)
    throw new AttnlabError(
      `prepare: out of wasm memory allocating ${bytes} bytes for ${name}`,
      'AL_ERR_NOMEM',
    );
  const p = raw + ((64 - (raw % 64)) % 64);
  new Float32Array(x.memory.buffer, p, t.data.length).set(t.data);
  const bad = x.al_check_finite(p, t.data.length);
  if (bad >= 0) {
    x.al_free(raw);
    throw new AttnlabError(
      `prepare: ${name} contains ${t.data[bad]} at flat index ${bad}; inputs must be finite`,
      'AL_ERR_NONFINITE',
    );
  }
  return new PreparedTensor(x, raw, p, t.shape, keep);
}

/**
 * Copy a tensor, or an object of tensors (a state_dict), into wasm memory once, checked for
 * shape and finiteness as a call would check it. Returns a PreparedTensor or PreparedParams.
 * @param {import('./index.d.ts').TensorLike | Record<string, import('./index.d.ts').TensorLike>} input
 */
export function prepare(input) {
  let x;
  try {
    x = requireLib('prepare');
  } catch {
    throw new AttnlabError('prepare: attnlab is not initialised; await init() first');
  }
  if (input instanceof PreparedTensor || input instanceof PreparedParams) {
    throw new AttnlabError('prepare: the argument is already prepared; pass it to the op as it is');
  }
  if (isTensorLike(input)) {
    const t = residentCopy(x, input, 'tensor', null);
    leaks?.register(t, 'a prepared tensor', t);
    return t;
  }
  if (input === null || typeof input !== 'object') {
    throw new AttnlabError(
      `prepare: expected a tensor or an object of tensors (a state_dict), got ${input === null ? 'null' : typeof input}`,
    );
  }
  const names = Object.keys(input);
  if (names.length === 0) throw new AttnlabError('prepare: the params object is empty');
  const tensors = {};
  try {
    for (const k of names) {
      const v = input[k];
      if (v instanceof PreparedTensor || v instanceof PreparedParams) {
        throw new AttnlabError(
          `prepare: params.${k} is already prepared; prepare the plain tensors together`,
        );
      }
      if (!isTensorLike(v)) {
        throw new AttnlabError(
          `prepare: params.${k} must be a tensor ({ data: Float32Array, shape }) or nested arrays, got ${v === null ? 'null' : typeof v}`,
        );
      }
      tensors[k] = residentCopy(x, v, `params.${k}`);
    }
  } catch (e) {
    for (const t of Object.values(tensors)) t.dispose();
    throw e;
  }
  const p = new PreparedParams(tensors);
  leaks?.register(p, 'a PreparedParams', p);
  return p;
}

// ------------------------------------------------------------------ for the ops

/**
 * A tensor argument that may be prepared: a PreparedTensor gives { data: null, shape, resident }
 * (its rank checked against `ranks`, disposal refused by name); anything else goes through
 * toTensor.
 */
export function tensorArg(v, name, ranks, what = name) {
  if (v instanceof PreparedTensor) {
    ptrOf(v, what);
    const shape = shapeOf(v);
    if (ranks && !ranks.includes(shape.length)) {
      throw new AttnlabError(
        `${name} must have rank ${ranks.join(' or ')}, got shape ${fmtShape(shape)}`,
        'AL_ERR_SHAPE',
      );
    }
    return { data: null, shape, resident: v };
  }
  return toTensor(v, name, ranks);
}

/** The wasm pointer of a tensorArg result: the resident copy, or a fresh copy in the arena. */
export function inputPtr(ar, t, name) {
  if (!t.resident) return ar.f32(t.data, name);
  if (memoryOf(t.resident) !== ar.x) {
    throw new AttnlabError(
      `${ar.what}: ${name} was prepared by another attnlab instance (createAttnlab); prepare it with this instance's prepare()`,
    );
  }
  return ptrOf(t.resident, ar.what);
}

/** Number of elements of a tensorArg result. */
export const sizeOf = (t) => (t.resident ? t.shape.reduce((a, d) => a * d, 1) : t.data.length);

/** The entries of a params argument: a PreparedParams' tensors, or the plain object itself. */
export function paramsEntries(params, what) {
  if (params instanceof PreparedParams) {
    const tensors = tensorsOf(params); // the private field, not a shadowable getter
    if (tensors === null)
      throw new AttnlabError(
        `${what}: params has been disposed; prepare it again with prepare()`,
        'AL_ERR_ARGUMENT',
      );
    return tensors;
  }
  return params;
}
