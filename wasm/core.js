// attnlab/wasm/core.js: what every op module shares: the error class, the loaded library's
// exports, tensor and mask validation with messages that name the tensor, and the per-call arena
// that copies inputs into wasm memory and frees them whatever happens.
//
// Op modules (wasm/ops/*.js) import from here; index.js sets the library once init() resolves.
// Nothing here does maths, and nothing keeps a typed-array view of wasm memory across a call.

export const STATUS_NAMES = [
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


// ------------------------------------------------------------------ memory

/** Allocations for one call: copied in, freed in `finally`, whatever happens. */
/** One wasm allocation must stay below 2 GiB (the module's maximum memory). */
export const MAX_ALLOC_BYTES = 2 ** 31;

export class Arena {
  constructor(x, what = 'attnlab') {
    this.x = x;
    this.what = what;
    this.ptrs = [];
  }

  alloc(bytes, what) {
    // wasm32 sizes are 32-bit: anything from 2^31 bytes up would wrap in al_malloc's size_t.
    if (!(bytes < MAX_ALLOC_BYTES)) {
      throw new AttnlabError(`${what} needs ${bytes} bytes; one buffer in wasm memory is limited to ${MAX_ALLOC_BYTES - 1}`, 'AL_ERR_NOMEM');
    }
    const p = this.x.al_malloc(Math.max(bytes, 4));
    if (!p) throw new AttnlabError(`out of wasm memory allocating ${bytes} bytes for ${what}`, 'AL_ERR_NOMEM');
    this.ptrs.push(p);
    return p;
  }

  /** Copy floats in, refusing NaN and ±Inf by name (checked in wasm, on four lanes). */
  f32(data, what) {
    const p = this.alloc(data.length * 4, what);
    new Float32Array(this.x.memory.buffer, p, data.length).set(data);
    const bad = this.x.al_check_finite(p, data.length);
    if (bad >= 0) {
      throw new AttnlabError(`${what} contains ${data[bad]} at flat index ${bad}; inputs must be finite`, 'AL_ERR_NONFINITE');
    }
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
  /**
   * A JS-owned copy of n floats at p. Every kernel gives finite results for finite inputs unless
   * an intermediate leaves float32's range (e.g. q·k scores above 3.4e38): that is refused here,
   * by name, rather than returned as NaN.
   */
  read(p, n) {
    const i = this.x.al_check_finite(p, n);
    if (i >= 0) {
      const v = new Float32Array(this.x.memory.buffer, p, n)[i];
      throw new AttnlabError(`${this.what}: the result has ${v} at flat index ${i}: an intermediate value overflowed float32 (about ±3.4e38); scale the inputs down`, 'AL_ERR_OVERFLOW');
    }
    return new Float32Array(this.x.memory.buffer, p, n).slice();
  }

  free() {
    for (const p of this.ptrs) this.x.al_free(p);
    this.ptrs.length = 0;
  }
}

export function statusName(code) {
  return STATUS_NAMES[code] ?? `status ${code}`;
}

export function readCString(x, p) {
  const bytes = new Uint8Array(x.memory.buffer);
  let end = p;
  while (bytes[end] !== 0) end++;
  return new TextDecoder().decode(bytes.subarray(p, end));
}

export function check(x, status, context) {
  if (status !== 0) {
    throw new AttnlabError(`${context}: ${readCString(x, x.al_status_string(status))}`, statusName(status));
  }
}

// ------------------------------------------------------------------ tensors

export const fmtShape = (s) => `[${s.join(', ')}]`;

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

export function checkShape(shape, name) {
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

export function checkFinite(data, name) {
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
export function toTensor(x, name, ranks) {
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
  // NaN/Inf are refused when the data is copied into wasm memory (Arena.f32), where the check
  // runs on four lanes: a JS scan here cost more than a small op itself.
  return { data, shape: shape.slice() };
}

/** A 0/1 Uint8Array mask of exactly `n` entries from the accepted mask forms. */
export function toMask(m, name, shapes) {
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

/** Options that are switches: given, they must be true or false ('false' is not false). */
const FLAG_OPTIONS = new Set(['causal', 'returnWeights', 'needWeights', 'transposeA', 'transposeB',
  'scaled', 'bidirectional', 'normFirst', 'batchFirst']);

export function checkOptions(options, name, allowed) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') throw new AttnlabError(`${name}: options must be an object`);
  for (const k of Object.keys(options)) {
    if (!allowed.includes(k)) {
      throw new AttnlabError(`${name}: unknown option '${k}' (known: ${allowed.join(', ')})`);
    }
    const v = options[k];
    if (FLAG_OPTIONS.has(k) && v !== undefined && typeof v !== 'boolean') {
      throw new AttnlabError(`${name}: options.${k} must be true or false, got ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`);
    }
  }
  return options;
}

/**
 * A number option the C library takes as a float32, checked as C will see it: a finite number
 * (`positive`: > 0, `nonzero`: not 0, `min`: >= min), still finite after Math.fround (1e39 is
 * Infinity in float32) and not a non-zero value that rounds to 0 (1e-46): C reads 0 as "the
 * default" or "off" for several options, so it would be silently wrong. Returns the float32 value.
 */
export function f32Option(what, name, value, { min, positive = false, nonzero = false } = {}) {
  const rule = positive ? ' > 0' : min !== undefined ? ` >= ${min}` : nonzero ? ' other than 0' : '';
  if (typeof value !== 'number' || !Number.isFinite(value) || (positive && !(value > 0)) ||
      (nonzero && value === 0) || (min !== undefined && !(value >= min))) {
    const got = typeof value === 'string' ? JSON.stringify(value) : typeof value === 'object' && value !== null ? typeof value : String(value);
    throw new AttnlabError(`${what}: options.${name} must be a finite number${rule}, got ${got}`);
  }
  const f = Math.fround(value); // monotone, so `min` and `positive` still hold unless f is 0
  if (!Number.isFinite(f)) {
    throw new AttnlabError(`${what}: options.${name} ${value} is ${f} in float32, which the library computes in (largest about 3.4e38)`);
  }
  if (f === 0 && value !== 0) {
    throw new AttnlabError(`${what}: options.${name} ${value} is 0 in float32, which the library computes in (smallest non-zero about 1.4e-45)`);
  }
  return f;
}

/** True when two shapes are equal. */
export function sameShape(a, b) {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

/**
 * The upstream gradients of a backward call, { <output name>: tensor }, each checked against its
 * output's shape (`shapes`); a missing entry is null (= zero), an unknown name is refused.
 */
export function readUpstream(what, upstream, shapes) {
  const names = Object.keys(shapes);
  if (upstream === null || typeof upstream !== 'object' || Array.isArray(upstream)) {
    throw new AttnlabError(`${what}: upstream must be an object keyed by output name (${names.join(', ')}), e.g. { output: dOutput }`);
  }
  for (const k of Object.keys(upstream)) {
    if (!Object.hasOwn(shapes, k)) throw new AttnlabError(`${what}: unknown upstream '${k}' (known: ${names.join(', ')})`);
  }
  const got = {};
  for (const [k, shape] of Object.entries(shapes)) {
    if (upstream[k] === undefined || upstream[k] === null) { got[k] = null; continue; }
    const t = toTensor(upstream[k], `upstream.${k}`);
    if (!sameShape(t.shape, shape)) {
      throw new AttnlabError(`${what}: upstream.${k} has shape ${fmtShape(t.shape)} but the ${k} has shape ${fmtShape(shape)}`, 'AL_ERR_SHAPE');
    }
    got[k] = t;
  }
  return got;
}

let lib = null; // { x: exports, api }, set by index.js once init() resolves

/** Called by index.js when the library is ready. */
export function setLib(l) {
  lib = l;
}

export function getLib() {
  return lib;
}

export function requireLib(what) {
  if (!lib) {
    throw new AttnlabError(`ops.${what}: attnlab is not initialised; await init() first`, 'AL_ERR_ARGUMENT');
  }
  return lib.x;
}

/** Run fn(arena) with the library's exports and free the arena's blocks afterwards. */
export function withArena(what, fn) {
  const x = requireLib(what);
  const arena = new Arena(x, what);
  try {
    return fn(x, arena);
  } finally {
    arena.free();
  }
}

