// attnlab/wasm/core.js: what every op module shares: the per-call arena that copies inputs into
// wasm memory and frees them whatever happens, C status codes turned into errors, and the loaded
// library's exports. It also re-exports errors.js, tensors.js and options.js, so an op module
// (wasm/ops/*.js) or a model module has one import for everything shared.
//
// index.js sets the library once init() resolves. Nothing here does maths, and nothing keeps a
// typed-array view of wasm memory across a call.

import { AttnlabError, statusName } from './errors.js';
import { liveLength } from './tensors.js';

export * from './errors.js';
export * from './tensors.js';
export * from './options.js';

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
      throw new AttnlabError(
        `${what} needs ${bytes} bytes; one buffer in wasm memory is limited to ${MAX_ALLOC_BYTES - 1}`,
        'AL_ERR_NOMEM',
      );
    }
    const p = this.x.al_malloc(Math.max(bytes, 4));
    if (!p)
      throw new AttnlabError(
        `out of wasm memory allocating ${bytes} bytes for ${what}`,
        'AL_ERR_NOMEM',
      );
    this.ptrs.push(p);
    return p;
  }

  /** Copy floats in, refusing NaN and ±Inf by name (checked in wasm, on four lanes). */
  f32(data, what) {
    const n = liveLength(data, what);
    const p = this.alloc(n * 4, what);
    new Float32Array(this.x.memory.buffer, p, n).set(data);
    const bad = this.x.al_check_finite(p, n);
    if (bad >= 0) {
      throw new AttnlabError(
        `${what} contains ${data[bad]} at flat index ${bad}; inputs must be finite`,
        'AL_ERR_NONFINITE',
      );
    }
    return p;
  }

  u8(data, what) {
    const n = liveLength(data, what);
    const p = this.alloc(n, what);
    new Uint8Array(this.x.memory.buffer, p, n).set(data);
    return p;
  }

  i32(data, what) {
    const n = liveLength(data, what);
    const p = this.alloc(n * 4, what);
    new Int32Array(this.x.memory.buffer, p, n).set(data);
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
      throw new AttnlabError(
        `${this.what}: the result has ${v} at flat index ${i}: an intermediate value overflowed float32 (about ±3.4e38); scale the inputs down`,
        'AL_ERR_OVERFLOW',
      );
    }
    return new Float32Array(this.x.memory.buffer, p, n).slice();
  }

  free() {
    for (const p of this.ptrs) this.x.al_free(p);
    this.ptrs.length = 0;
  }
}

export function readCString(x, p) {
  const bytes = new Uint8Array(x.memory.buffer);
  let end = p;
  while (bytes[end] !== 0) end++;
  return new TextDecoder().decode(bytes.subarray(p, end));
}

export function check(x, status, context) {
  if (status !== 0) {
    throw new AttnlabError(
      `${context}: ${readCString(x, x.al_status_string(status))}`,
      statusName(status),
    );
  }
}

let lib = null; // the default instance { x: exports, api, simd }, set by loader.js once init() resolves
let current = null; // the instance an instance's op is running on (withLib), else null

/** Called by loader.js when the default instance is ready. */
export function setLib(l) {
  lib = l;
}

/** The default instance (init()), or null before it resolves. */
export function getLib() {
  return lib;
}

/**
 * Run fn() with `l` as the instance every op and arena uses: how an instance made by
 * createAttnlab() runs the shared op code on its own memory. Ops are synchronous, so the
 * instance is set for exactly the call and restored after it, also when it throws.
 */
export function withLib(l, fn) {
  const prev = current;
  current = l;
  try {
    return fn();
  } finally {
    current = prev;
  }
}

/** The exports of the instance a call runs on: withLib's, else the default one. */
export function requireLib(what) {
  const l = current ?? lib;
  if (!l) {
    throw new AttnlabError(
      `ops.${what}: attnlab is not initialised; await init() first`,
      'AL_ERR_ARGUMENT',
    );
  }
  return l.x;
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
