// state.js: the playground's UI state, kept in the URL hash so a link reproduces a view.
//
// Holds: defaults and limits, parsing a hash into a state (every value validated and clamped,
// anything unknown or malformed ignored, never throws) and formatting a state back into a
// canonical hash. Deliberately does not touch `location`, `history` or the DOM: main.js does.
//
//   #n=8&m=8&d=16&seed=1&causal=0&scale=auto
//
// n: queries (T), m: keys (S), d: head dim (D), seed: PRNG seed for Q, K, V,
// causal: query i sees keys j <= i, scale: the logit scale (auto = 1/sqrt(d)).

/** Default view. scale null means 1/sqrt(d), the value torch uses when scale is None. */
export const DEFAULTS = Object.freeze({ n: 8, m: 8, d: 16, seed: 1, causal: false, scale: null });

/** Inclusive limits; out-of-range values are clamped into them. */
export const LIMITS = Object.freeze({
  n: Object.freeze([1, 64]),
  m: Object.freeze([1, 64]),
  d: Object.freeze([1, 256]),
  seed: Object.freeze([0, 4294967295]),
  scale: Object.freeze([0.01, 10]),
});

/** Significant digits kept for an explicit scale, so slider values make short, stable links. */
const SCALE_DIGITS = 3;

/** Longer hashes are not parsed at all (nothing legitimate comes close). */
const MAX_HASH_LENGTH = 1024;

// A plain decimal number: no hex, no 'Infinity', no whitespace tricks.
const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function parseNumber(text) {
  if (typeof text !== 'string' || text.length > 32 || !NUMBER_RE.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** @param {number} value @param {readonly number[]} limits [lo, hi] */
function clamp(value, [lo, hi]) {
  return Math.min(hi, Math.max(lo, value));
}

function intOr(value, limits, fallback) {
  return Number.isFinite(value) ? clamp(Math.round(value), limits) : fallback;
}

function roundScale(value) {
  return Number(clamp(value, LIMITS.scale).toPrecision(SCALE_DIGITS));
}

/**
 * A complete, valid state from any partial object: integers rounded and clamped, causal a
 * boolean, scale null (auto) or a clamped number with 3 significant digits.
 * @param {any} [partial]
 */
export function normalizeState(partial = {}) {
  const p = partial && typeof partial === 'object' ? partial : {};
  const num = (v) => (typeof v === 'number' ? v : NaN);
  let scale = DEFAULTS.scale;
  if (p.scale === null || p.scale === 'auto') scale = null;
  else if (Number.isFinite(num(p.scale))) scale = roundScale(p.scale);
  return {
    n: intOr(num(p.n), LIMITS.n, DEFAULTS.n),
    m: intOr(num(p.m), LIMITS.m, DEFAULTS.m),
    d: intOr(num(p.d), LIMITS.d, DEFAULTS.d),
    seed: intOr(num(p.seed), LIMITS.seed, DEFAULTS.seed),
    causal: typeof p.causal === 'boolean' ? p.causal : DEFAULTS.causal,
    scale,
  };
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off']);

/** The state a hash ('#n=8&d=16', with or without '#') describes; never throws. */
export function parseHash(hash) {
  const partial = {};
  if (typeof hash !== 'string' || hash.length > MAX_HASH_LENGTH) return normalizeState(partial);
  let params;
  try {
    params = new URLSearchParams(hash.replace(/^#/, ''));
  } catch {
    return normalizeState(partial);
  }
  for (const key of ['n', 'm', 'd', 'seed']) {
    const value = parseNumber(params.get(key));
    if (value !== null) partial[key] = value;
  }
  const causal = (params.get('causal') ?? '').toLowerCase();
  if (TRUE_WORDS.has(causal)) partial.causal = true;
  else if (FALSE_WORDS.has(causal)) partial.causal = false;
  const scale = params.get('scale');
  if (scale === 'auto') partial.scale = null;
  else if (parseNumber(scale) !== null) partial.scale = parseNumber(scale);
  return normalizeState(partial);
}

/** The canonical hash for a state: '#n=8&m=8&d=16&seed=1&causal=0&scale=auto'. */
export function formatHash(state) {
  const s = normalizeState(state);
  return (
    `#n=${s.n}&m=${s.m}&d=${s.d}&seed=${s.seed}&causal=${s.causal ? 1 : 0}` +
    `&scale=${s.scale === null ? 'auto' : s.scale}`
  );
}

/** The scale actually used: the explicit one, or 1/sqrt(d). */
export function effectiveScale(state) {
  return state.scale === null ? 1 / Math.sqrt(state.d) : state.scale;
}

/** Two states describe the same view. */
export function sameState(a, b) {
  return formatHash(a) === formatHash(b);
}
