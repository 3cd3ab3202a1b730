// attnlab/wasm/options.js: a caller's options, params and upstream gradients read once into
// null-prototype snapshots (docs/reliability.md, "A snapshot first, read once"), and the checks
// every op shares on them: known keys, flags, float32 options, backward's upstream shapes.
// Deliberately not here: tensors themselves (tensors.js), wasm memory (core.js).

import { AttnlabError } from './errors.js';
import { fmtShape, kindOf, show, toTensor } from './tensors.js';

// ------------------------------------------------------------------ options, read once

/** Options that are switches: given, they must be true or false ('false' is not false). */
const FLAG_OPTIONS = new Set([
  'causal',
  'returnWeights',
  'needWeights',
  'transposeA',
  'transposeB',
  'scaled',
  'bidirectional',
  'normFirst',
  'batchFirst',
  'states',
]);

/**
 * A snapshot of a caller's object of named values (options, params, upstream): its own
 * enumerable string keys, each value read exactly once, into a null-prototype object (so a
 * polluted Object.prototype cannot add values either). Keys not in `allowed` (when given) are
 * refused by name, and so are keys the object only inherits: Object.create({ causal: true }) is
 * refused, not half-read. `label` names the object in messages ('options', 'params', ...).
 */
export function snapshot(obj, what, label, allowed) {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj) || ArrayBuffer.isView(obj)) {
    throw new AttnlabError(`${what}: ${label} must be an object, got ${kindOf(obj)}`);
  }
  const keys = Object.keys(obj);
  const own = new Set(keys);
  for (
    let p = Object.getPrototypeOf(obj), depth = 0;
    p !== null && p !== Object.prototype;
    p = Object.getPrototypeOf(p)
  ) {
    if (++depth > 64)
      throw new AttnlabError(`${what}: ${label} has a prototype chain over 64 long`);
    for (const k of Object.getOwnPropertyNames(p)) {
      if (own.has(k) || k === 'constructor') continue;
      const d = Object.getOwnPropertyDescriptor(p, k);
      if (d.enumerable || allowed?.includes(k)) {
        throw new AttnlabError(
          `${what}: ${label}.${k} is inherited from a prototype; pass ${label} as a plain object of own properties`,
        );
      }
    }
  }
  const out = Object.create(null);
  for (const k of keys) {
    if (allowed && !allowed.includes(k)) {
      throw new AttnlabError(
        `${what}: unknown ${label === 'options' ? 'option' : label} '${k}' (known: ${allowed.join(', ')})`,
      );
    }
    out[k] = obj[k];
  }
  return out;
}

/**
 * The options of a call as a snapshot (see snapshot()); undefined gives an empty one. Flag
 * options must be booleans: 'false' is not false.
 */
export function checkOptions(options, name, allowed) {
  if (options === undefined) return Object.create(null);
  if (options === null || typeof options !== 'object')
    throw new AttnlabError(`${name}: options must be an object`);
  const o = snapshot(options, name, 'options', allowed);
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (FLAG_OPTIONS.has(k) && v !== undefined && typeof v !== 'boolean') {
      throw new AttnlabError(`${name}: options.${k} must be true or false, got ${show(v)}`);
    }
  }
  return o;
}

/**
 * A number option the C library takes as a float32, checked as C will see it: a finite number
 * (`positive`: > 0, `nonzero`: not 0, `min`: >= min, `below`: < below, in float32 too: 0.999999999
 * is 1), still finite after Math.fround (1e39 is Infinity in float32) and not a non-zero value that
 * rounds to 0 (1e-46): C reads 0 as "the default" or "off" for several options, so it would be
 * silently wrong. Returns the float32 value.
 * @param {string} what
 * @param {string} name
 * @param {unknown} value
 * @param {{ min?: number, below?: number, positive?: boolean, nonzero?: boolean }} [rules]
 * @returns {number}
 */
export function f32Option(
  what,
  name,
  value,
  { min, below, positive = false, nonzero = false } = {},
) {
  const rule =
    (positive ? ' > 0' : min !== undefined ? ` >= ${min}` : nonzero ? ' other than 0' : '') +
    (below !== undefined ? ` and < ${below}` : '');
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    (positive && !(value > 0)) ||
    (nonzero && value === 0) ||
    (min !== undefined && !(value >= min)) ||
    (below !== undefined && !(Math.fround(value) < below))
  ) {
    // 0.999999999 passes `value < 1` but is 1 in float32: say so (numbers only: no valueOf call)
    const f = typeof value === 'number' && Number.isFinite(value) ? Math.fround(value) : NaN;
    const note = f !== value && f === below ? ` (${f} in float32)` : '';
    throw new AttnlabError(
      `${what}: options.${name} must be a finite number${rule}, got ${show(value)}${note}`,
    );
  }
  const f = Math.fround(value); // monotone, so `min` and `positive` still hold unless f is 0
  if (!Number.isFinite(f)) {
    throw new AttnlabError(
      `${what}: options.${name} ${value} is ${f} in float32, which the library computes in (largest about 3.4e38)`,
    );
  }
  if (f === 0 && value !== 0) {
    throw new AttnlabError(
      `${what}: options.${name} ${value} is 0 in float32, which the library computes in (smallest non-zero about 1.4e-45)`,
    );
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
  if (upstream === undefined) {
    throw new AttnlabError(
      `${what}: the upstream gradients are missing: upstream must be an object keyed by output name (${names.join(', ')}), passed last, e.g. { ${names[0]}: d${names[0][0].toUpperCase()}${names[0].slice(1)} }`,
    );
  }
  if (upstream === null || typeof upstream !== 'object' || Array.isArray(upstream)) {
    throw new AttnlabError(
      `${what}: upstream must be an object keyed by output name (${names.join(', ')}), e.g. { output: dOutput }`,
    );
  }
  const u = snapshot(upstream, what, 'upstream', names);
  requireSomeUpstream(what, u, names);
  const got = {};
  for (const [k, shape] of Object.entries(shapes)) {
    if (u[k] === undefined || u[k] === null) {
      got[k] = null;
      continue;
    }
    const t = toTensor(u[k], `upstream.${k}`);
    if (!sameShape(t.shape, shape)) {
      throw new AttnlabError(
        `${what}: upstream.${k} has shape ${fmtShape(t.shape)} but the ${k} has shape ${fmtShape(shape)}`,
        'AL_ERR_SHAPE',
      );
    }
    got[k] = t;
  }
  return got;
}

/**
 * The arguments of a `.backward` after the forward's required ones (`rest`): the forward's
 * optional options, then upstream, last. So backward(...required, upstream) and
 * backward(...required, options, upstream) both work, and backward(...required) alone is refused
 * (its upstream is missing), never answered with zero gradients.
 */
export function backwardArgs(what, rest, outputs) {
  if (rest.length === 0) {
    throw new AttnlabError(
      `${what}: the upstream gradients are missing: upstream must be an object keyed by output name (${outputs.join(', ')}), passed after the forward's arguments`,
    );
  }
  if (rest.length > 2) {
    throw new AttnlabError(
      `${what}: takes the forward's arguments, then upstream; got ${rest.length} arguments after the required ones (at most options and upstream)`,
    );
  }
  const upstream = rest[rest.length - 1];
  if (upstream === undefined || upstream === null) {
    throw new AttnlabError(
      `${what}: upstream is ${upstream}; upstream must be an object keyed by output name (${outputs.join(', ')}), passed last`,
    );
  }
  // backward(...required, options) with the upstream forgotten: the options would be read as
  // upstream; say what is more likely wrong than "unknown upstream 'numHeads'"
  if (
    rest.length === 1 &&
    typeof upstream === 'object' &&
    !Array.isArray(upstream) &&
    !ArrayBuffer.isView(upstream)
  ) {
    const keys = Object.keys(upstream);
    if (keys.length > 0 && !keys.some((k) => outputs.includes(k))) {
      throw new AttnlabError(
        `${what}: upstream must be an object keyed by output name (${outputs.join(', ')}), passed last; the last argument has ${keys.map((k) => `'${k}'`).join(', ')}: are these the options, with the upstream gradients missing?`,
      );
    }
  }
  return { options: rest.length === 2 ? rest[0] : undefined, upstream };
}

/**
 * Refuses an upstream snapshot that names no output: backward(...args, {}) is indistinguishable
 * from backward(...args, options) with the upstream forgotten, and all-zero gradients are never
 * a silent answer. Missing entries next to a given one still count as zero.
 */
export function requireSomeUpstream(what, snap, outputs) {
  if (!outputs.some((k) => snap[k] !== undefined && snap[k] !== null)) {
    throw new AttnlabError(
      `${what}: upstream must be an object keyed by output name (${outputs.join(', ')}) with at least one gradient; it names none (the upstream gradients are missing?)`,
    );
  }
}
