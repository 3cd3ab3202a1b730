// attnlab/wasm/tensors.js: a caller's tensors, masks and token ids read once into plain arrays,
// with messages that name the tensor: nested arrays, { data, shape } objects and typed arrays
// checked by their internal slots (a subclass or a Proxy cannot lie about its length or type).
// Deliberately not here: options (options.js), wasm memory (core.js); nothing here touches the
// library.

import { AttnlabError } from './errors.js';

// ------------------------------------------------------------------ tensors

export const fmtShape = (s) => `[${s.join(', ')}]`;

/** Nested arrays deeper than this are refused (a cyclic array would never end). */
export const MAX_NESTING = 32;
/** Nested arrays are a convenience: above this many numbers, pass a typed array. */
export const MAX_NESTED_ELEMENTS = 2 ** 24;

/**
 * Nested arrays -> { shape, data } in one pass that reads every `length` and every element once
 * (a getter or Proxy sees one read each): the shape is fixed by the first array met at each depth,
 * every later array must match it, leaves must all sit at the same depth. `leaf(v, path)` turns a
 * leaf into its stored number or throws.
 */
function fromNested(x, name, ArrayType, leaf) {
  const shape = [];
  let leafDepth = -1;
  let total = 1; // the product of shape so far: bounds the walk before it starts
  let out = null;
  let i = 0;
  const ragged = (depth, found) =>
    new AttnlabError(
      `${name} is ragged: expected ${depth < shape.length ? shape[depth] : 'a number'} entries at depth ${depth}, found ${found}`,
      'AL_ERR_SHAPE',
    );
  const walk = (level, depth) => {
    if (!Array.isArray(level)) {
      if (leafDepth === -1) {
        leafDepth = depth;
        if (total >= MAX_NESTED_ELEMENTS) {
          throw new AttnlabError(
            `${name} has ${total} elements as nested arrays; above ${MAX_NESTED_ELEMENTS - 1} pass { data: Float32Array, shape }`,
            'AL_ERR_OVERFLOW',
          );
        }
        out = new ArrayType(total);
      } else if (depth !== leafDepth) throw ragged(depth, typeof level);
      out[i++] = leaf(level, depth);
      return;
    }
    if (depth >= MAX_NESTING) {
      throw new AttnlabError(
        `${name} is nested more than ${MAX_NESTING} arrays deep (a cyclic array?); tensors have rank 1 to 4`,
        'AL_ERR_SHAPE',
      );
    }
    const len = level.length;
    if (depth === shape.length && leafDepth === -1) {
      if (!Number.isInteger(len) || len < 0)
        throw new AttnlabError(`${name} has an array whose length is ${show(len)}`, 'AL_ERR_SHAPE');
      shape.push(len);
      total *= len;
      if (total >= 2 ** 31)
        throw new AttnlabError(
          `${name} has ${total} elements; the limit is 2^31 - 1`,
          'AL_ERR_OVERFLOW',
        );
    } else if (depth >= shape.length || len !== shape[depth]) {
      throw ragged(depth, `${show(len)} entries`);
    }
    for (let j = 0; j < len; j++) walk(level[j], depth + 1);
  };
  walk(x, 0);
  if (shape.length === 0)
    throw new AttnlabError(`${name} must be a tensor ({ data, shape }) or nested arrays`);
  return { shape, data: out ?? new ArrayType(0) };
}

const numberLeaf = (name) => (v, depth) => {
  if (typeof v !== 'number') {
    throw new AttnlabError(
      `${name} must hold numbers; found ${v === null ? 'null' : typeof v} at depth ${depth}`,
    );
  }
  return v;
};

/** A mask entry: true/false or 0/1 (any other value is refused, in every mask form). */
const maskLeaf = (name) => (v) => {
  if (v === true || v === 1) return 1;
  if (v === false || v === 0) return 0;
  throw new AttnlabError(
    `${name} must hold booleans or 0/1; found ${typeof v === 'number' ? v : typeof v === 'string' ? JSON.stringify(v.slice(0, 20)) : v === null ? 'null' : typeof v}`,
  );
};

// ------------------------------------------------------------------ typed arrays, read once

// The intrinsic %TypedArray% accessors read a typed array's internal slots, whatever a subclass
// or an own property claims: `length` and the element type cannot lie to these.
const TYPED_ARRAY_PROTO = Object.getPrototypeOf(Uint8Array.prototype);
const taGetter = (key) => Object.getOwnPropertyDescriptor(TYPED_ARRAY_PROTO, key).get;
const taTag = taGetter(Symbol.toStringTag);
const taLength = taGetter('length');
const taBuffer = taGetter('buffer');
const taOffset = taGetter('byteOffset');

/**
 * A plain typed array of type `Type` over exactly the memory `v` (a real typed array of that
 * type) covers, built from its internal slots: a subclass's overridden length, iterator or
 * species never reach the glue. Copied when the buffer could be resized later.
 */
function plainView(Type, v) {
  const view = new Type(taBuffer.call(v), taOffset.call(v), taLength.call(v));
  const b = view.buffer;
  return b.resizable === true || b.growable === true ? new Type(view) : view;
}

/** 'Float32Array', 'Uint8Array', ... for a real typed array; undefined for anything else. */
export function typedArrayType(v) {
  return ArrayBuffer.isView(v) ? taTag.call(v) : undefined;
}

/** The element count of a real typed array from its internal slot (0 once detached). */
export function typedLength(v) {
  return taLength.call(v);
}

/**
 * A caller's value as message text, without running any of the caller's code and without
 * throwing: String() would call a toString or Symbol.toPrimitive (or throw for a null-prototype
 * object), JSON.stringify a toJSON (or throw for a BigInt or a cycle). Primitives are shown,
 * objects named by kindOf().
 */
export function show(v) {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
    case 'number':
      return Object.is(v, -0) ? '-0' : String(v);
    case 'bigint':
      return `${v}n`;
    case 'symbol':
      return String(v); // SymbolDescriptiveString: no caller code
    case 'undefined':
    case 'boolean':
      return String(v);
    default:
      return kindOf(v);
  }
}

/** What to call a value in a message: its constructor's name, or its type. */
export function kindOf(v) {
  if (v === null) return 'null';
  if (typeof v !== 'object' && typeof v !== 'function') return typeof v;
  const t = typedArrayType(v);
  if (t) return t;
  if (Array.isArray(v)) return 'an array';
  try {
    const proto = Object.getPrototypeOf(v);
    const c = proto?.constructor;
    const name =
      typeof c === 'function' && typeof c.name === 'string' && c.name ? c.name : 'object';
    // a Proxy of a typed array, or an object given a typed array's prototype, is not one: say
    // so rather than "must be a Float32Array, got Float32Array"
    const posing =
      proto !== null &&
      (proto === TYPED_ARRAY_PROTO ||
        Object.prototype.isPrototypeOf.call(TYPED_ARRAY_PROTO, proto));
    return posing
      ? `an object posing as ${name} (a Proxy or a borrowed prototype, not a real typed array)`
      : name;
  } catch {
    return 'object';
  }
}

/** A shape as a plain array of integers, its length and entries each read once. */
function copyShape(shape, name) {
  if (!Array.isArray(shape))
    throw new AttnlabError(`${name}.shape must be an array of sizes, got ${kindOf(shape)}`);
  const r = shape.length;
  if (!Number.isInteger(r) || r > MAX_NESTING)
    throw new AttnlabError(
      `${name}.shape has ${show(r)} entries; tensors have rank 1 to 4`,
      'AL_ERR_SHAPE',
    );
  const out = new Array(r);
  for (let i = 0; i < r; i++) out[i] = shape[i];
  return out;
}

export function checkShape(shape, name) {
  if (!Array.isArray(shape))
    throw new AttnlabError(`${name}.shape must be an array of sizes, got ${kindOf(shape)}`);
  let n = 1;
  for (const d of shape) {
    if (!Number.isInteger(d) || d < 0) {
      throw new AttnlabError(
        `${name}.shape [${shape.map(show).join(', ')}] must hold non-negative integers`,
        'AL_ERR_SHAPE',
      );
    }
    n *= d;
  }
  if (n === 0)
    throw new AttnlabError(
      `${name} is empty (shape ${fmtShape(shape)}); every dimension must be at least 1`,
      'AL_ERR_SHAPE',
    );
  if (n >= 2 ** 31)
    throw new AttnlabError(`${name} has ${n} elements; the limit is 2^31 - 1`, 'AL_ERR_OVERFLOW');
  return n;
}

export function checkFinite(data, name) {
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (v - v !== 0) {
      // NaN or ±Infinity
      throw new AttnlabError(
        `${name} contains ${v} at flat index ${i}; inputs must be finite`,
        'AL_ERR_NONFINITE',
      );
    }
  }
}

/**
 * A validated float tensor { data: Float32Array, shape } from a tensor or nested arrays: a
 * snapshot of what the caller gave. `x.data` and `x.shape` are read once, the shape copied into a
 * plain array, the data checked to be a real Float32Array by its internal slots (a subclass's
 * `length` cannot lie) and copied when its buffer could be resized later. `ranks` lists the
 * accepted ranks.
 */
export function toTensor(x, name, ranks) {
  let data;
  let shape;
  if (Array.isArray(x)) {
    ({ shape, data } = fromNested(x, name, Float32Array, numberLeaf(name)));
    checkShape(shape, name);
  } else if (x !== null && typeof x === 'object' && 'data' in x && 'shape' in x) {
    const given = x.data;
    shape = copyShape(x.shape, name);
    const n = checkShape(shape, name);
    if (typedArrayType(given) !== 'Float32Array') {
      throw new AttnlabError(
        `${name}.data must be a Float32Array, got ${kindOf(given)}; convert with Float32Array.from(...)`,
      );
    }
    const len = typedLength(given);
    if (len !== n) {
      const hint = len === 0 ? ' (its buffer may have been detached or transferred)' : '';
      throw new AttnlabError(
        `${name}.data has ${len} elements but shape ${fmtShape(shape)} needs ${n}${hint}`,
        'AL_ERR_SHAPE',
      );
    }
    data = plainView(Float32Array, given);
  } else {
    throw new AttnlabError(
      `${name} must be a tensor ({ data: Float32Array, shape }) or nested arrays, got ${kindOf(x)}`,
    );
  }
  if (ranks && !ranks.includes(shape.length)) {
    throw new AttnlabError(
      `${name} must have rank ${ranks.join(' or ')}, got shape ${fmtShape(shape)}`,
      'AL_ERR_SHAPE',
    );
  }
  // NaN/Inf are refused when the data is copied into wasm memory (Arena.f32), where the check
  // runs on four lanes: a JS scan here cost more than a small op itself.
  return { data, shape };
}

/**
 * Token ids from an array or typed array, each read once, checked against the vocabulary size C
 * reported: [0, vocabSize). At most `limit` of them are read (a longer input is refused by its
 * length, before a Proxy's billion elements are walked).
 */
export function idsFrom(input, vocabSize, what, limit) {
  if (!Array.isArray(input) && !ArrayBuffer.isView(input)) {
    throw new AttnlabError(`${what} must be text or an array of token ids, got ${kindOf(input)}`);
  }
  const n = typedArrayType(input) ? typedLength(input) : Array.isArray(input) ? input.length : NaN;
  if (!Number.isInteger(n) || n < 0)
    throw new AttnlabError(`${what} has a length of ${show(n)}`, 'AL_ERR_SHAPE');
  if (n > limit)
    throw new AttnlabError(`${what} has ${n} tokens; the limit is ${limit}`, 'AL_ERR_SHAPE');
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = input[i];
    if (!Number.isInteger(v) || v < 0 || v >= vocabSize) {
      throw new AttnlabError(
        `${what}[${i}] = ${typeof v === 'number' ? v : kindOf(v)} is not a token id in [0, ${vocabSize})`,
        'AL_ERR_RANGE',
      );
    }
    ids[i] = v;
  }
  return ids;
}

/**
 * Ids a tokenizer made from text, checked against the vocabulary C reported: the tokenizer's
 * maps are the caller's to read (and so to change), C's vocabulary size is not.
 */
export function inVocab(ids, vocabSize, what) {
  for (let i = 0; i < ids.length; i++) {
    const v = ids[i];
    if (!(v >= 0 && v < vocabSize))
      throw new AttnlabError(
        `${what}: the tokenizer gave id ${v} at ${i}, outside [0, ${vocabSize}); was model.tokenizer changed?`,
        'AL_ERR_RANGE',
      );
  }
  return ids;
}

/** A 0/1 Uint8Array mask of exactly `n` entries from the accepted mask forms (read once each). */
export function toMask(m, name, shapes) {
  let data;
  let shape;
  if (typedArrayType(m) === 'Uint8Array') {
    data = plainView(Uint8Array, m).map((v) => (v ? 1 : 0)); // a copy: later changes to m cannot reach C
    shape = [data.length];
    if (data.length === 0)
      throw new AttnlabError(
        `${name} is empty (shape [0])${isDetached(taBuffer.call(m)) ? ' (its buffer may have been detached or transferred)' : ''}`,
        'AL_ERR_SHAPE',
      );
  } else if (Array.isArray(m)) {
    ({ shape, data } = fromNested(m, name, Uint8Array, maskLeaf(name)));
    checkShape(shape, name);
  } else if (m !== null && typeof m === 'object' && 'data' in m && 'shape' in m) {
    const given = m.data;
    shape = copyShape(m.shape, name);
    const n = checkShape(shape, name);
    if (typedArrayType(given) === 'Uint8Array') {
      data = plainView(Uint8Array, given).map((v) => (v ? 1 : 0));
    } else if (Array.isArray(given)) {
      const len = given.length;
      if (len !== n)
        throw new AttnlabError(
          `${name}.data has ${show(len)} entries but shape ${fmtShape(shape)} needs ${n}`,
          'AL_ERR_SHAPE',
        );
      const leaf = maskLeaf(`${name}.data`);
      data = new Uint8Array(n);
      for (let i = 0; i < n; i++) data[i] = leaf(given[i]);
    } else {
      throw new AttnlabError(
        `${name}.data must be a Uint8Array or an array of booleans, got ${kindOf(given)}`,
      );
    }
    if (data.length !== n)
      throw new AttnlabError(
        `${name}.data has ${data.length} entries but shape ${fmtShape(shape)} needs ${n}`,
        'AL_ERR_SHAPE',
      );
  } else {
    throw new AttnlabError(
      `${name} must be a Uint8Array, boolean arrays or { data, shape }, got ${kindOf(m)}`,
    );
  }
  const match = shapes.find((s) => s.length === shape.length && s.every((d, i) => d === shape[i]));
  if (!match) {
    throw new AttnlabError(
      `${name} has shape ${fmtShape(shape)} but must be ${shapes.map(fmtShape).join(' or ')}`,
      'AL_ERR_SHAPE',
    );
  }
  return { data, shape };
}

/**
 * The element count of a typed array about to be copied into wasm memory, from its internal
 * slot. Inputs were checked to be non-empty when snapshotted, so 0 here means the buffer was
 * detached since (by a getter of a later argument): refused, not copied as nothing.
 */
export function liveLength(data, what) {
  if (!ArrayBuffer.isView(data)) return data.length; // the glue's own plain arrays
  const n = typedLength(data);
  if (n === 0 && isDetached(taBuffer.call(data))) {
    throw new AttnlabError(
      `${what}: its buffer was detached (transferred) while the call's arguments were read; pass a live buffer`,
    );
  }
  return n;
}

/** True for a detached ArrayBuffer (ArrayBuffer.prototype.detached is not in Node 20). */
export function isDetached(buffer) {
  if (typeof buffer.detached === 'boolean') return buffer.detached;
  try {
    new Uint8Array(buffer);
    return false;
  } catch {
    return true;
  }
}
