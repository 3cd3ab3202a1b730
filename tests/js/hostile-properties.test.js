// Property-based tests of the JS glue against hostile callers (fast-check): arbitrary tensor-likes
// (nested arrays with holes, cycles, getters and Proxies; { data, shape } with subclasses, foreign
// typed arrays, shared, resizable and detached buffers; shapes with getters, Proxies and bad
// entries), options, params and upstream objects (getters that change on every read, Proxies,
// prototypes, class instances, unknown keys) and .backward calls with arguments dropped.
//
// The property, for every generated call: it throws a clean AttnlabError (a C status name as
// code, a non-empty message), or (when the generator built a getter that throws) the caller's own
// error unchanged, or it returns the result a double-precision reference computes from the
// snapshot the glue should have taken (first reads only); and afterwards liveAllocations() is
// back where it was and knownAnswer() passes. The model is exact where it can be: input it
// knows to be invalid must be refused, input it knows to be valid must be answered.
//
// Seeded (FC_SEED overrides the fixed seed, which is printed) and bounded: numRuns per property
// plus interruptAfterTimeLimit as a guard, so the file runs in seconds within `make test`.
//
// Not here: one regression test per review finding (hostile-callers.test.js), the op table's
// exhaustive wrong-argument sweep (hostile-api.test.js), the maths of each op against PyTorch
// (the per-family suites).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';

import { init, ops, AttnlabError } from '../../wasm/index.js';
import { OP_TABLE, STATUS_CODES, T, knownAnswer, attempt, describe } from './hostile-helpers.js';

const lib = await init();

const SEED =
  process.env.FC_SEED === undefined || process.env.FC_SEED === ''
    ? 20261124
    : Number(process.env.FC_SEED);
if (!Number.isSafeInteger(SEED))
  throw new Error(`FC_SEED must be an integer, got ${process.env.FC_SEED}`);
/** Each property stops generating after this long (a guard: numRuns normally ends it first). */
const TIME_LIMIT_MS = Number(process.env.FC_TIME_LIMIT_MS ?? 6000);
const params = (numRuns) => ({
  seed: SEED,
  numRuns,
  includeErrorInReport: true,
  interruptAfterTimeLimit: TIME_LIMIT_MS,
  markInterruptAsFailure: false,
});

// ------------------------------------------------------------------ bookkeeping

/** Reads of every getter and Proxy trap the generators built, by label; reset per call. */
const reads = new Map();
const count = (label) => {
  const n = (reads.get(label) ?? 0) + 1;
  reads.set(label, n);
  return n;
};

/** What the model expected, per call label: shown with the seed, so a run's coverage is visible. */
const stats = new Map();
function tally(label, e) {
  const kind = e.accept ? 'answered' : e.refuse ? 'refused' : e.either ? 'either' : 'caller error';
  const s = stats.get(label) ?? {};
  s[kind] = (s[kind] ?? 0) + 1;
  stats.set(label, s);
}
function report(t) {
  for (const [label, s] of stats)
    t.diagnostic(
      `${label}: ${Object.entries(s)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ')}`,
    );
  stats.clear();
}

const size = (s) => s.reduce((a, b) => a * b, 1);
const fr = Math.fround;

/** n deterministic floats, multiples of 1/32 in [-2, 2] (exact in float32). */
function vals(n, seed) {
  let s = (seed * 2654435761 + 12345) >>> 0 || 1;
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    out[i] = ((s % 129) - 64) / 32;
  }
  return out;
}

/** Detach an ArrayBuffer by transferring it; true when it is detached afterwards. */
function detach(buf) {
  structuredClone(buf, { transfer: [buf] });
  return buf.byteLength === 0;
}

/**
 * Run `call` and check the outcome against `expected`:
 *   { refuse: true }                     a clean AttnlabError
 *   { accept: (result) => void }         a result, checked by accept()
 *   { either: (result) => void }         either of the two
 *   { callerError, orRefuse }            the caller's own error object (or, with orRefuse, a clean refusal)
 * Then: nothing held, every generated getter/trap read at most once (`readOnce`: false for a
 * cyclic nested array, which the walk meets again at every depth until it gives up), the module
 * still answers.
 */
function check(call, expected, label = '', { readOnce = true } = {}) {
  const base = lib.liveAllocations();
  tally(label, expected);
  reads.clear();
  const { error, result } = attempt(call);
  assert.equal(
    lib.liveAllocations(),
    base,
    `${label}: liveAllocations() back at ${base} after the call`,
  );
  if (error !== undefined) {
    if (expected.callerError !== undefined && error === expected.callerError) {
      // the caller's getter threw: its error passes through unchanged
    } else {
      assert.ok(
        error instanceof AttnlabError,
        `${label}: expected an AttnlabError, got ${error?.constructor?.name}: ${error?.message}\n${error?.stack}`,
      );
      assert.ok(
        STATUS_CODES.includes(error.code),
        `${label}: code ${error.code} is not a C status name`,
      );
      assert.ok(
        typeof error.message === 'string' && error.message.length > 0,
        `${label}: empty message`,
      );
      // a refusal that contradicts itself names nothing: "must be a Float32Array, got Float32Array"
      assert.doesNotMatch(
        error.message,
        /must be an? (\w+), got \1\b/,
        `${label}: the message contradicts itself`,
      );
      assert.ok(!expected.accept, `${label}: valid input refused: ${error.code}: ${error.message}`);
      assert.ok(
        expected.callerError === undefined || expected.orRefuse,
        `${label}: the caller's getter error must pass through, got ${error.code}: ${error.message}`,
      );
    }
  } else {
    assert.ok(
      !expected.refuse && expected.callerError === undefined,
      `${label}: input the model refuses was answered: ${describe(result)}`,
    );
    (expected.accept ?? expected.either)(result);
  }
  if (readOnce)
    for (const [k, n] of reads)
      assert.ok(n <= 1, `${label}: ${k} was read ${n} times; the glue reads once`);
  knownAnswer();
  assert.equal(lib.liveAllocations(), base);
  return { error, result };
}

/** A result tensor equals the reference: same shape, |got - want| <= tol. */
function close(got, want, tol, what) {
  assert.ok(
    got && got.data instanceof Float32Array && Array.isArray(got.shape),
    `${what}: not a tensor: ${describe(got)}`,
  );
  assert.deepEqual(got.shape, want.shape, `${what}: shape`);
  assert.equal(got.data.length, want.data.length, `${what}: length`);
  for (let i = 0; i < want.data.length; i++) {
    const g = got.data[i];
    const w = want.data[i];
    const t = typeof tol === 'function' ? tol(i) : tol;
    assert.ok(
      Math.abs(g - w) <= t * (1 + Math.abs(w)),
      `${what}[${i}] = ${g}, reference ${w} (tol ${t})`,
    );
  }
}

/** Two outcomes of the glue agree: both errors with the same code, or bitwise-equal results. */
function sameOutcome(a, b, what) {
  if (a.error !== undefined || b.error !== undefined) {
    assert.ok(
      a.error instanceof AttnlabError && b.error instanceof AttnlabError,
      `${what}: ${a.error ? `${a.error.code}: ${a.error.message}` : 'a result'} vs the plain call's ${b.error ? `${b.error.code}: ${b.error.message}` : 'result'}`,
    );
    assert.equal(a.error.code, b.error.code, `${what}: ${a.error.message} vs ${b.error.message}`);
    return;
  }
  assert.deepEqual(
    plain(a.result),
    plain(b.result),
    `${what}: differs from the call with plain copies`,
  );
}

const plain = (v) =>
  JSON.parse(
    JSON.stringify(v, (k, x) =>
      ArrayBuffer.isView(x) ? Array.from(x, (y) => (Number.isNaN(y) ? 'NaN' : y)) : x,
    ),
  );

// ------------------------------------------------------------------ references (double precision)

function softmaxRef(X, mask) {
  if (X.shape.length === 0) return null;
  const C = X.shape[X.shape.length - 1];
  const R = X.data.length / C;
  if (mask && !(sameDims(mask.shape, X.shape) || sameDims(mask.shape, [C]))) return null;
  const out = new Float64Array(X.data.length);
  for (let r = 0; r < R; r++) {
    const m = (j) => (mask ? mask.data[mask.data.length === C ? j : r * C + j] : 0);
    let max = -Infinity;
    for (let j = 0; j < C; j++) if (!m(j)) max = Math.max(max, X.data[r * C + j]);
    if (max === -Infinity) continue; // a fully masked row is zeros
    let s = 0;
    for (let j = 0; j < C; j++) if (!m(j)) s += Math.exp(X.data[r * C + j] - max);
    for (let j = 0; j < C; j++) out[r * C + j] = m(j) ? 0 : Math.exp(X.data[r * C + j] - max) / s;
  }
  return { data: out, shape: X.shape };
}

function matmulRef(A, B, ta, tb) {
  if (A.shape.length !== 2 || B.shape.length !== 2) return null;
  const [M, K] = ta ? [A.shape[1], A.shape[0]] : A.shape;
  const [K2, N] = tb ? [B.shape[1], B.shape[0]] : B.shape;
  if (K !== K2) return null;
  const a = (i, k) => (ta ? A.data[k * M + i] : A.data[i * K + k]);
  const b = (k, j) => (tb ? B.data[j * K + k] : B.data[k * N + j]);
  const out = new Float64Array(M * N);
  for (let i = 0; i < M; i++)
    for (let j = 0; j < N; j++) for (let k = 0; k < K; k++) out[i * N + j] += a(i, k) * b(k, j);
  return { data: out, shape: [M, N] };
}

function matvecRef(A, X) {
  if (A.shape.length !== 2 || X.shape.length !== 1 || A.shape[1] !== X.shape[0]) return null;
  const [M, K] = A.shape;
  const out = new Float64Array(M);
  for (let i = 0; i < M; i++) for (let k = 0; k < K; k++) out[i] += A.data[i * K + k] * X.data[k];
  return { data: out, shape: [M] };
}

const sameDims = (a, b) => a.length === b.length && a.every((d, i) => d === b[i]);

/**
 * softmax(Q Kᵀ · scale + mask) V with top-left causal masking and zeros for fully masked rows.
 * Also returns `dScore`: a bound on the float32 error of the scores, for the tolerance.
 */
function sdpaRef(Q, K, V, o) {
  const r = Q.shape.length;
  if (![2, 3, 4].includes(r) || K.shape.length !== r || V.shape.length !== r) return null;
  const lead = Q.shape.slice(0, r - 2);
  if (!sameDims(K.shape.slice(0, r - 2), lead) || !sameDims(V.shape.slice(0, r - 2), lead))
    return null;
  const [L, D] = Q.shape.slice(r - 2);
  const [S, Dk] = K.shape.slice(r - 2);
  const [Sv, Dv] = V.shape.slice(r - 2);
  if (Dk !== D || Sv !== S) return null;
  const B = r === 4 ? lead[0] : 1;
  const H = r === 4 ? lead[1] : r === 3 ? lead[0] : 1;
  let mask = o.mask ?? null;
  if (mask && !(sameDims(mask.shape, [S]) || (r === 4 && sameDims(mask.shape, [B, S]))))
    return null;
  const scale = o.scale === undefined ? 1 / Math.sqrt(D) : fr(o.scale);
  const out = new Float64Array(B * H * L * Dv);
  const w = new Float64Array(B * H * L * S);
  let dScore = 0;
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < H; h++) {
      const bh = b * H + h;
      for (let t = 0; t < L; t++) {
        const vis = (j) =>
          (!o.causal || j <= t) && !(mask && mask.data[mask.data.length === S ? j : b * S + j]);
        const sc = new Float64Array(S);
        let max = -Infinity;
        for (let j = 0; j < S; j++) {
          let dot = 0;
          let mag = 0;
          for (let d = 0; d < D; d++) {
            const p = Q.data[(bh * L + t) * D + d] * K.data[(bh * S + j) * D + d];
            dot += p;
            mag += Math.abs(p);
          }
          sc[j] = dot * scale;
          dScore = Math.max(
            dScore,
            Math.abs(scale) * mag * (D + 2) * 1.2e-7 + Math.abs(sc[j]) * 1.2e-7,
          );
          if (vis(j)) max = Math.max(max, sc[j]);
        }
        if (max === -Infinity) continue;
        let sum = 0;
        for (let j = 0; j < S; j++) if (vis(j)) sum += Math.exp(sc[j] - max);
        for (let j = 0; j < S; j++) {
          const a = vis(j) ? Math.exp(sc[j] - max) / sum : 0;
          w[(bh * L + t) * S + j] = a;
          for (let e = 0; e < Dv; e++)
            out[(bh * L + t) * Dv + e] += a * V.data[(bh * S + j) * Dv + e];
        }
      }
    }
  }
  return {
    output: { data: out, shape: [...lead, L, Dv] },
    weights: o.returnWeights ? { data: w, shape: [...lead, L, S] } : null,
    dScore,
    vmax: V.data.reduce((m, x) => Math.max(m, Math.abs(x)), 0),
    S,
  };
}

/** The check of an SDPA result against sdpaRef: tight when the scores are well conditioned. */
function sdpaAccept(ref) {
  return (res) => {
    assert.ok(res && typeof res === 'object', 'a result object');
    // the float32 scores carry an error of dScore; softmax turns it into at most ~2·dScore per weight
    const tw = 2e-5 + 2.5 * ref.dScore;
    if (tw < 0.05) {
      close(res.output, ref.output, tw * Math.max(1, ref.vmax * ref.S), 'output');
      if (ref.weights) close(res.weights, ref.weights, tw, 'weights');
      else assert.equal(res.weights, null, 'no weights unless returnWeights');
    } else {
      // scale near float32's limits: only what no rounding can change
      assert.deepEqual(res.output.shape, ref.output.shape);
      for (const x of res.output.data)
        assert.ok(
          Number.isFinite(x) && Math.abs(x) <= ref.vmax * (1 + 1e-5),
          `output ${x} outside the values' range`,
        );
      if (ref.weights) {
        assert.deepEqual(res.weights.shape, ref.weights.shape);
        for (let i = 0; i < ref.weights.data.length; i += ref.S) {
          const got = res.weights.data.subarray(i, i + ref.S).reduce((a, b) => a + b, 0);
          const want = ref.weights.data.subarray(i, i + ref.S).reduce((a, b) => a + b, 0);
          assert.ok(Math.abs(got - want) < 1e-4, `weights row sums to ${got}, reference ${want}`);
        }
      } else assert.equal(res.weights, null);
    }
  };
}

function attentionPoolingRef(H, w) {
  if (w.shape.length !== 1 || w.shape[0] !== H.shape[1]) return null;
  const [n, d] = H.shape;
  const sc = new Float64Array(n);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < d; k++) sc[i] += Math.tanh(H.data[i * d + k]) * w.data[k];
  const max = Math.max(...sc);
  const e = sc.map((x) => Math.exp(x - max));
  const s = e.reduce((a, b) => a + b, 0);
  const a = e.map((x) => x / s);
  const r = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let k = 0; k < d; k++) r[k] += H.data[i * d + k] * a[i];
  return {
    r: { data: r, shape: [d] },
    hStar: { data: r.map(Math.tanh), shape: [d] },
    weights: { data: a, shape: [n] },
  };
}

// ------------------------------------------------------------------ tensor-likes

const BAD_LEAVES = [
  NaN,
  Infinity,
  -Infinity,
  1e39,
  '1',
  null,
  undefined,
  true,
  'hole',
  'object',
  'bigint',
  'Number',
  'array',
];
const badLeaf = (k) =>
  k === 'object'
    ? {}
    : k === 'bigint'
      ? 1n
      : k === 'Number'
        ? new Number(1)
        : k === 'array'
          ? [1]
          : k;

const nestedMut = fc.oneof(
  fc.record({ t: fc.constant('leaf'), at: fc.nat(), leaf: fc.constantFrom(...BAD_LEAVES) }),
  fc.record({ t: fc.constant('ragged'), at: fc.nat(), delta: fc.constantFrom(-1, 1) }),
  fc.record({ t: fc.constant('cycle'), at: fc.nat() }),
  { weight: 3, arbitrary: fc.record({ t: fc.constant('getterLeaf'), at: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('proxyLevel'), at: fc.nat() }) },
);

const weighted = (common, ...rest) =>
  fc.oneof({ arbitrary: fc.constant(common), weight: rest.length }, fc.constantFrom(...rest));
/** Mostly a value from `good`, sometimes one from `bad`: enough valid calls to check results. */
const mostly = (good, bad, ratio = 5) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...good), weight: ratio },
    { arbitrary: fc.constantFrom(...bad), weight: 1 },
  );

const WRAPS = ['getters', 'proxy', 'inherited', 'class', 'frozen'];
const GOOD_DATAS = [
  'f32',
  'f32',
  'f32',
  'offset',
  'lying',
  'sab',
  'growableSab',
  'resizable',
  'ownLength',
];
const BAD_DATAS = ['f64', 'plain', 'fakeProto', 'proxyF32', 'u8', 'detached', 'short', 'long'];
const GOOD_SHAPES = [
  'plain',
  'plain',
  'plain',
  'getters',
  'proxy',
  'frozen',
  'subclass',
  'extraProp',
];
const BAD_SHAPES = ['bad', 'arrayLike', 'proxyLongLength'];
const BAD_DIMS = [
  -1,
  1.5,
  2 ** 31,
  1e10,
  NaN,
  Infinity,
  '2',
  null,
  -0,
  0,
  2n,
  Symbol('d'),
  Object.create(null),
];

const formArb = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      form: fc.constant('nested'),
      muts: fc.array(nestedMut, { maxLength: 2 }),
    }),
  },
  {
    weight: 12,
    arbitrary: fc.record({
      form: fc.constant('tensor'),
      wrap: weighted('plain', ...WRAPS),
      data: mostly(GOOD_DATAS, BAD_DATAS),
      shape: mostly(GOOD_SHAPES, BAD_SHAPES, 8),
      bad: fc.constantFrom(...BAD_DIMS),
      at: fc.nat(),
      detachEarlier: fc.nat(11).map((x) => x === 0),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      form: fc.constantFrom('number', 'null', 'string', 'bareF32', 'noShape', 'noData'),
    }),
  },
);

/**
 * Build the caller's value for one tensor argument from its recipe, and the model: `m.snap` is
 * what the glue must read ({ data: float32 values, shape }) or null when it must refuse. `ctx`
 * links arguments: a later argument's getter can detach an earlier one's buffer.
 */
function buildTensor(recipe, shape, seed, name, ctx) {
  const n = size(shape);
  const values = vals(n, seed);
  const m = { snap: { data: values.map(fr), shape: shape.slice() }, live: null };
  if (!values.every((v) => Number.isFinite(fr(v)))) m.snap = null;
  const refuse = () => {
    m.snap = null;
  };
  let value;
  switch (recipe.form) {
    case 'nested':
      value = buildNested(shape, values, recipe.muts, name, refuse, ctx.cyclic);
      break;
    case 'number':
      value = 1;
      refuse();
      break;
    case 'null':
      value = null;
      refuse();
      break;
    case 'string':
      value = '1,2';
      refuse();
      break;
    case 'bareF32':
      value = Float32Array.from(values);
      refuse();
      break;
    case 'noShape':
      value = { data: Float32Array.from(values) };
      refuse();
      break;
    case 'noData':
      value = { shape };
      refuse();
      break;
    default:
      value = buildObject(recipe, shape, values, name, ctx, m, refuse);
  }
  if (recipe.form === 'nested' && shape.length === 0) refuse(); // a bare number
  ctx.earlier.push(m);
  return { value, m };
}

function buildNested(shape, values, muts, name, refuse, cyclic) {
  if (shape.length === 0) return values[0];
  let idx = 0;
  const levels = []; // { arr, depth, parent, index }
  const leaves = []; // { arr, i }
  const make = (depth, parent, index) => {
    const a = new Array(shape[depth]);
    levels.push({ arr: a, depth, parent, index });
    for (let i = 0; i < shape[depth]; i++) {
      if (depth + 1 === shape.length) {
        a[i] = values[idx++];
        leaves.push({ arr: a, i });
      } else a[i] = make(depth + 1, a, i);
    }
    return a;
  };
  const root = make(0, null, 0);
  let top = root;
  if (size(shape) === 0) refuse();
  // Proxies first (a level's target stays the array the other mutations change), so a later
  // cycle cannot be undone by a Proxy put back in its parent
  for (const mu of muts) {
    if (mu.t !== 'proxyLevel') continue;
    const lv = levels[mu.at % levels.length];
    if (lv.proxied) continue;
    lv.proxied = true;
    const label = `${name} Proxy level ${levels.indexOf(lv)}`;
    const p = new Proxy(lv.arr, {
      get(t, k, r) {
        const v = Reflect.get(t, k, r);
        if (typeof k === 'symbol') return v;
        const c = count(`${label}.${k}`);
        return c === 1 || typeof v !== 'number' ? v : v + 1; // a second read would see a lie
      },
    });
    if (lv.parent === null) top = p;
    else lv.parent[lv.index] = p;
  }
  let raggedDone = false;
  const put = (arr, i, value) =>
    Object.defineProperty(arr, i, { value, enumerable: true, writable: true, configurable: true });
  for (const mu of muts) {
    // (an array for the only leaf is just one more dimension, not a mistake)
    if (mu.t === 'leaf' && leaves.length && !(mu.leaf === 'array' && leaves.length === 1)) {
      const { arr, i } = leaves[mu.at % leaves.length];
      if (mu.leaf === 'hole') delete arr[i];
      else put(arr, i, badLeaf(mu.leaf));
      refuse();
    } else if (mu.t === 'ragged') {
      // once, and only where another array shares the depth: a mismatch, not a new shape
      const lv = levels[mu.at % levels.length];
      if (
        !raggedDone &&
        levels.filter((l) => l.depth === lv.depth).length >= 2 &&
        lv.arr.length + mu.delta >= 0
      ) {
        raggedDone = true;
        lv.arr.length += mu.delta;
        refuse();
      }
    } else if (mu.t === 'cycle') {
      cyclic.seen = true;
      put(levels[mu.at % levels.length].arr, 0, root);
      refuse();
    } else if (mu.t === 'getterLeaf' && leaves.length) {
      const { arr, i } = leaves[mu.at % leaves.length];
      const d = Object.getOwnPropertyDescriptor(arr, i);
      if (!d || d.get || typeof d.value !== 'number') continue;
      const v = d.value;
      const label = `${name} leaf getter ${leaves.indexOf(leaves[mu.at % leaves.length])}`;
      Object.defineProperty(arr, i, {
        enumerable: true,
        configurable: true,
        get: () => (count(label) === 1 ? v : v + 1),
      });
    }
  }
  return top;
}

/** { data, shape } in one of the wrap/data/shape forms of the recipe. */
function buildObject(recipe, shape, values, name, ctx, m, refuse) {
  const n = size(shape);
  let data;
  let buffer = null; // the caller's buffer the glue reads at copy time (not copied before)
  switch (recipe.data) {
    case 'f32':
      data = Float32Array.from(values);
      buffer = data.buffer;
      break;
    case 'offset': {
      const ab = new ArrayBuffer((n + 5) * 4);
      data = new Float32Array(ab, 8, n);
      data.set(values);
      new Float32Array(ab, 0, 2).fill(99);
      new Float32Array(ab, 8 + 4 * n).fill(-99);
      buffer = ab;
      break;
    }
    case 'lying': {
      class Lying extends Float32Array {
        get length() {
          return 1;
        }
        static get [Symbol.species]() {
          return Float64Array;
        }
        *[Symbol.iterator]() {
          yield 42;
        }
      }
      data = new Lying(n);
      data.set(values);
      buffer = data.buffer;
      break;
    }
    case 'ownLength':
      data = Float32Array.from(values);
      Object.defineProperty(data, 'length', { value: n + 7 });
      buffer = data.buffer;
      break;
    case 'sab':
      data = new Float32Array(new SharedArrayBuffer(n * 4));
      data.set(values);
      break;
    case 'growableSab':
      data = new Float32Array(new SharedArrayBuffer(n * 4, { maxByteLength: n * 8 + 8 }));
      data.set(values);
      m.copied = true;
      break;
    case 'resizable':
      data = new Float32Array(new ArrayBuffer(n * 4, { maxByteLength: n * 8 + 8 }));
      data.set(values);
      m.copied = true;
      m.rab = data.buffer;
      break;
    case 'f64':
      data = Float64Array.from(values);
      refuse();
      break;
    case 'plain':
      data = values.slice();
      refuse();
      break;
    case 'u8':
      data = Uint8Array.from(values, (v) => Math.abs(v));
      refuse();
      break;
    case 'fakeProto':
      data = Object.setPrototypeOf({ ...values, length: n }, Float32Array.prototype);
      refuse();
      break;
    case 'proxyF32':
      data = new Proxy(Float32Array.from(values), {});
      refuse();
      break;
    case 'detached':
      data = Float32Array.from(values);
      detach(data.buffer);
      refuse();
      break;
    case 'short':
      data = Float32Array.from(values.slice(0, n - 1));
      refuse();
      break;
    case 'long':
      data = Float32Array.from([...values, 0.5]);
      refuse();
      break;
    default:
      throw new Error(recipe.data);
  }
  if (buffer) m.live = buffer;

  let shp;
  const lie = (d) => (typeof d === 'number' ? d + 1 : d);
  switch (recipe.shape) {
    case 'plain':
      shp = shape.slice();
      break;
    case 'frozen':
      shp = Object.freeze(shape.slice());
      break;
    case 'subclass': {
      class Dims extends Array {}
      shp = Dims.from(shape);
      break;
    }
    case 'extraProp':
      shp = Object.assign(shape.slice(), { foo: 1e9 });
      break;
    case 'getters':
      shp = new Array(shape.length);
      shape.forEach((d, i) =>
        Object.defineProperty(shp, i, {
          enumerable: true,
          get: () => (count(`${name}.shape[${i}] getter`) === 1 ? d : lie(d)),
        }),
      );
      break;
    case 'proxy':
      shp = new Proxy(shape.slice(), {
        get(t, k, r) {
          const v = Reflect.get(t, k, r);
          if (typeof k === 'symbol') return v;
          return count(`${name}.shape Proxy .${k}`) === 1 ? v : lie(v);
        },
      });
      break;
    case 'proxyLongLength':
      shp = new Proxy(shape.slice(), {
        get: (t, k, r) => (k === 'length' ? 1e9 : Reflect.get(t, k, r)),
      });
      refuse();
      break;
    case 'bad':
      shp = shape.slice();
      shp[recipe.at % Math.max(1, shp.length)] = recipe.bad;
      refuse();
      break;
    case 'arrayLike':
      shp = { ...shape, length: shape.length };
      refuse();
      break;
    default:
      throw new Error(recipe.shape);
  }

  // a getter of this argument's data detaches the earlier arguments' buffers
  const earlier = recipe.detachEarlier ? ctx.earlier.slice() : [];
  for (const e of earlier) if (e.live) e.snap = null; // read in place at copy time: must be refused
  const getData = () => {
    for (const e of earlier) {
      if (e.live && e.live.byteLength) assert.ok(detach(e.live));
      if (e.rab && e.rab.byteLength) detach(e.rab); // copied when read: the copy stands
    }
    return data;
  };
  const other = { data: Float32Array.from(values, (v) => v + 1), shape: shape.map(lie) };
  switch (recipe.wrap) {
    case 'plain':
      return {
        get data() {
          return getData();
        },
        shape: shp,
      };
    case 'frozen':
      return Object.freeze({
        get data() {
          return getData();
        },
        shape: shp,
      });
    case 'getters':
      return {
        get data() {
          return count(`${name}.data getter`) === 1 ? getData() : other.data;
        },
        get shape() {
          return count(`${name}.shape getter`) === 1 ? shp : other.shape;
        },
      };
    case 'proxy':
      return new Proxy(
        { data: null, shape: null },
        {
          get(t, k) {
            if (k !== 'data' && k !== 'shape') return undefined;
            const first = count(`${name} Proxy .${k}`) === 1;
            return k === 'data' ? (first ? getData() : other.data) : first ? shp : other.shape;
          },
        },
      );
    case 'inherited':
      return Object.create({
        get data() {
          return getData();
        },
        shape: shp,
      });
    case 'class': {
      class Tensor {
        #s = shp;
        get data() {
          return getData();
        }
        get shape() {
          return this.#s;
        }
      }
      return new Tensor();
    }
    default:
      throw new Error(recipe.wrap);
  }
}

// ------------------------------------------------------------------ masks

const maskArb = fc.option(
  fc.record({
    form: weighted('bools', 'u8', 'obj', 'objBools', 'badLeaf', 'wrongLen'),
    full: fc.boolean(),
    seed: fc.nat(),
    trigger: fc.nat(5).map((x) => x === 0),
  }),
  { freq: 2 },
); // null (no mask) one time in two

/** The mask value and its model ({ data: 0/1, shape } or null = refuse); `shape` is its intended shape. */
function buildMask(recipe, shape, ctx, name) {
  const n = size(shape);
  let s = (recipe.seed * 2246822519 + 7) >>> 0 || 1;
  const bits = new Uint8Array(n).map(() => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s % 3;
  }); // 0, 1, 2
  const snapBits = bits.map((b) => (b ? 1 : 0));
  const nest = (leaf) => {
    let i = 0;
    const mk = (d) =>
      d === shape.length ? leaf(bits[i++]) : Array.from({ length: shape[d] }, () => mk(d + 1));
    return mk(0);
  };
  let value;
  let snap = { data: snapBits, shape: shape.slice() };
  let data;
  switch (recipe.form) {
    case 'u8':
      value = bits.slice();
      snap = { data: snapBits, shape: [n] };
      break;
    case 'bools':
      value = nest((b) => (b === 2 ? 1 : b === 1));
      break;
    case 'badLeaf':
      value = nest((b) => (b === 2 ? 1 : b === 1));
      value = JSON.parse(JSON.stringify(value));
      snap = null;
      // one leaf that is neither boolean nor 0/1
      if (shape.length === 1) value[0] = 'true';
      else value[0][0] = 2;
      break;
    case 'obj':
      data = bits.slice();
      break;
    case 'objBools':
      data = Array.from(bits, (b) => b !== 0);
      break;
    case 'wrongLen':
      data = new Uint8Array(n + 1);
      snap = null;
      break;
    default:
      throw new Error(recipe.form);
  }
  if (data !== undefined) {
    const earlier = recipe.trigger ? ctx.earlier.slice() : [];
    for (const e of earlier) if (e.live) e.snap = null;
    value = {
      get data() {
        count(`${name}.data getter`);
        for (const e of earlier) {
          if (e.live && e.live.byteLength) assert.ok(detach(e.live));
          if (e.rab && e.rab.byteLength) detach(e.rab);
        }
        return data;
      },
      shape: shape.slice(),
    };
  }
  return { value, snap };
}

// ------------------------------------------------------------------ a. tensor-likes

const dimArb = fc.integer({ min: 1, max: 3 });
/** Sometimes (1 in 10) one tensor's shape is put one off: a dimension +1, dropped or added. */
const perturbArb = fc.oneof(
  { arbitrary: fc.constant(null), weight: 9 },
  fc.record({ which: fc.nat(), kind: fc.constantFrom('dim+1', 'dropDim', 'addDim') }),
);

function perturb(shapes, p) {
  if (!p) return shapes;
  const out = shapes.map((s) => s.slice());
  const s = out[p.which % out.length];
  if (p.kind === 'dim+1' && s.length) s[p.which % s.length] += 1;
  else if (p.kind === 'dropDim') s.shift();
  else s.push(1);
  return out;
}

const opCaseArb = fc.oneof(
  fc.record({
    op: fc.constant('softmax'),
    shape: fc
      .integer({ min: 1, max: 6 })
      .chain((r) =>
        fc.array(fc.integer({ min: 1, max: r > 3 ? 2 : 3 }), { minLength: r, maxLength: r }),
      ),
    mask: maskArb,
  }),
  fc.record({
    op: fc.constant('matmul'),
    M: dimArb,
    K: dimArb,
    N: dimArb,
    ta: fc.boolean(),
    tb: fc.boolean(),
    opts: fc.constantFrom('none', 'flags', 'empty'),
  }),
  fc.record({ op: fc.constant('matvec'), M: dimArb, K: dimArb }),
  fc.record({
    op: fc.constant('scaledDotProductAttention'),
    rank: fc.integer({ min: 2, max: 4 }),
    lead: fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 2, maxLength: 2 }),
    L: dimArb,
    S: dimArb,
    D: dimArb,
    Dv: dimArb,
    causal: fc.boolean(),
    returnWeights: fc.boolean(),
    scale: fc.constantFrom(undefined, 0.5, 1, -2, 1e-3),
    mask: maskArb,
  }),
);

const tensorCaseArb = fc.record({
  c: opCaseArb,
  forms: fc.array(formArb, { minLength: 3, maxLength: 3 }),
  seed: fc.nat(),
  perturb: perturbArb,
});

function runTensorCase({ c, forms, seed, perturb: p }) {
  const ctx = { earlier: [], cyclic: { seen: false } };
  const tensors = (names, shapes) =>
    perturb(shapes, p).map((s, i) => buildTensor(forms[i], s, seed + i, names[i], ctx));
  if (c.op === 'softmax') {
    const [x] = tensors(['x'], [c.shape]);
    const C = c.shape[c.shape.length - 1];
    const mk = c.mask && buildMask(c.mask, c.mask.full ? c.shape : [C], ctx, 'mask');
    const opts = mk ? { mask: mk.value } : undefined;
    const ref = x.m.snap && (!mk || mk.snap) ? softmaxRef(x.m.snap, mk?.snap) : null;
    check(
      () => ops.softmax(x.value, opts),
      ref ? { accept: (r) => close(r, ref, 2e-6, 'softmax') } : { refuse: true },
      'softmax',
      { readOnce: !ctx.cyclic.seen },
    );
  } else if (c.op === 'matmul') {
    // the shapes follow the flags only when they are passed: without them a square-enough case still works
    const sa = c.ta && c.opts === 'flags' ? [c.K, c.M] : [c.M, c.K];
    const sb = c.tb && c.opts === 'flags' ? [c.N, c.K] : [c.K, c.N];
    const [a, b] = tensors(['a', 'b'], [sa, sb]);
    const ta = c.opts === 'flags' && c.ta;
    const tb = c.opts === 'flags' && c.tb;
    const opts =
      c.opts === 'none'
        ? undefined
        : c.opts === 'empty'
          ? {}
          : { transposeA: c.ta, transposeB: c.tb };
    const ref = a.m.snap && b.m.snap ? matmulRef(a.m.snap, b.m.snap, ta, tb) : null;
    check(
      () => ops.matmul(a.value, b.value, opts),
      ref ? { accept: (r) => close(r, ref, 2e-6, 'matmul') } : { refuse: true },
      'matmul',
      { readOnce: !ctx.cyclic.seen },
    );
  } else if (c.op === 'matvec') {
    const [a, x] = tensors(['a', 'x'], [[c.M, c.K], [c.K]]);
    const ref = a.m.snap && x.m.snap ? matvecRef(a.m.snap, x.m.snap) : null;
    check(
      () => ops.matvec(a.value, x.value),
      ref ? { accept: (r) => close(r, ref, 2e-6, 'matvec') } : { refuse: true },
      'matvec',
      { readOnce: !ctx.cyclic.seen },
    );
  } else {
    const lead = c.lead.slice(0, c.rank - 2);
    const [q, k, v] = tensors(
      ['query', 'key', 'value'],
      [
        [...lead, c.L, c.D],
        [...lead, c.S, c.D],
        [...lead, c.S, c.Dv],
      ],
    );
    const mk =
      c.mask &&
      buildMask(c.mask, c.mask.full && c.rank > 2 ? [lead[0], c.S] : [c.S], ctx, 'keyPaddingMask');
    const o = { causal: c.causal, returnWeights: c.returnWeights };
    if (c.scale !== undefined) o.scale = c.scale;
    if (mk) o.keyPaddingMask = mk.value;
    const ok = q.m.snap && k.m.snap && v.m.snap && (!mk || mk.snap);
    const ref = ok ? sdpaRef(q.m.snap, k.m.snap, v.m.snap, { ...o, mask: mk?.snap }) : null;
    check(
      () => ops.scaledDotProductAttention(q.value, k.value, v.value, o),
      ref ? { accept: sdpaAccept(ref) } : { refuse: true },
      'sdpa',
      { readOnce: !ctx.cyclic.seen },
    );
  }
}

test('a. tensor-likes: nested arrays, { data, shape } of every kind, bad shapes, detached and shared buffers', (t) => {
  t.diagnostic(`fast-check seed ${SEED} (set FC_SEED to change it)`);
  fc.assert(
    fc.property(tensorCaseArb, (cs) => {
      runTensorCase(cs);
    }),
    params(8000),
  );
  report(t);
});

// ------------------------------------------------------------------ named-value objects (options, params, upstream)

const HOWS = ['getter', 'throw', 'nonEnum', 'proto', 'symbol'];
const DELIVERIES = ['nullProto', 'proxy', 'class', 'frozen'];

/**
 * An arbitrary object of named values: entries { key, v, how } (v indexes the key's value list),
 * delivered as a plain object, a null-prototype one, a Proxy, a class instance or a frozen one.
 */
const namedArb = (known, unknown, maxLength = 4) =>
  fc.record({
    entries: fc.uniqueArray(
      fc.record({
        key: unknown.length ? mostly(known, unknown, 6) : fc.constantFrom(...known),
        // every value list starts with two valid values
        v: fc.oneof({ arbitrary: fc.nat(1), weight: 3 }, { arbitrary: fc.nat(), weight: 2 }),
        how: fc.oneof(
          { arbitrary: fc.constantFrom('value', 'getter'), weight: 6 },
          { arbitrary: fc.constantFrom(...HOWS), weight: 1 },
        ),
      }),
      { selector: (e) => e.key, maxLength },
    ),
    delivery: weighted('plain', ...DELIVERIES),
  });

/**
 * Build the object and the model of what the glue must read: `snap` (a null-prototype object of
 * first reads, in key order), `refuse` (a reason the glue must refuse, or null), `callerError`.
 * `values(key, v)` makes a fresh value; `alt(key, v)` the different one a second read returns.
 * `allowed`: the names the glue accepts (undefined: any own key is read). `unknownFirst`: the op
 * refuses unknown keys before reading any value (pooling's params).
 */
function buildNamed(recipe, { values, alt, allowed, unknownFirst = false, label }) {
  const own = recipe.entries.filter((e) => ['value', 'getter', 'throw'].includes(e.how));
  const protoEntries = recipe.entries.filter((e) => e.how === 'proto');
  const isClass = recipe.delivery === 'class';
  const model = { snap: Object.create(null), refuse: null, callerError: undefined };
  const errors = new Map();
  // the model, in the glue's order
  const unknown = allowed ? own.find((e) => !allowed.includes(e.key)) : undefined;
  // an inherited 'constructor' is every prototype's: the glue looks past it
  const inheritedBad = protoEntries.find(
    (e) => e.key !== 'constructor' && (!isClass || allowed?.includes(e.key)),
  );
  if (unknownFirst && unknown) model.refuse = `unknown ${unknown.key}`;
  else if (inheritedBad) model.refuse = `inherited ${inheritedBad.key}`;
  else {
    for (const e of own) {
      if (allowed && !allowed.includes(e.key)) {
        model.refuse = `unknown ${e.key}`;
        break;
      }
      if (e.how === 'throw') {
        model.callerError = new Error(`${label}.${e.key} getter throws`);
        errors.set(e.key, model.callerError);
        break;
      }
      model.snap[e.key] = values(e.key, e.v);
    }
  }
  for (const e of own)
    if (e.how === 'throw' && !errors.has(e.key))
      errors.set(e.key, new Error(`${label}.${e.key} getter throws (never read)`));

  const define = (obj, e) => {
    const key = e.key;
    if (e.how === 'value')
      Object.defineProperty(obj, key, {
        value: values(key, e.v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else if (e.how === 'getter') {
      Object.defineProperty(obj, key, {
        enumerable: true,
        configurable: true,
        get: () => (count(`${label}.${key} getter`) === 1 ? values(key, e.v) : alt(key, e.v)),
      });
    } else if (e.how === 'throw') {
      Object.defineProperty(obj, key, {
        enumerable: true,
        configurable: true,
        get: () => {
          throw errors.get(key);
        },
      });
    } else if (e.how === 'nonEnum')
      Object.defineProperty(obj, key, {
        value: alt(key, e.v),
        enumerable: false,
        configurable: true,
      });
    else if (e.how === 'symbol') obj[Symbol(key)] = alt(key, e.v);
  };
  let proto = Object.prototype;
  if (protoEntries.length && !isClass) {
    proto = {};
    for (const e of protoEntries)
      Object.defineProperty(proto, e.key, {
        value: values(e.key, e.v),
        enumerable: true,
        configurable: true,
      });
  }
  let obj;
  if (isClass) {
    class Named {
      constructor() {
        for (const e of recipe.entries) if (e.how !== 'proto') define(this, e);
      }
    }
    // class accessors are non-enumerable prototype properties
    for (const e of protoEntries)
      Object.defineProperty(Named.prototype, e.key, {
        get: () => values(e.key, e.v),
        enumerable: false,
        configurable: true,
      });
    obj = new Named();
  } else {
    obj = Object.create(recipe.delivery === 'nullProto' && !protoEntries.length ? null : proto);
    for (const e of recipe.entries) define(obj, e);
    if (recipe.delivery === 'frozen') Object.freeze(obj);
    if (recipe.delivery === 'proxy') {
      const target = obj;
      obj = new Proxy(target, {
        get(t, k, r) {
          if (typeof k === 'symbol') return Reflect.get(t, k, r);
          const first = count(`${label} Proxy .${k}`) === 1;
          const v = Reflect.get(t, k, r);
          const e = recipe.entries.find((x) => x.key === k);
          return first || !e ? v : alt(k, e.v);
        },
      });
    }
  }
  // the same object the glue should have seen, as a plain copy of first reads
  const copy = {};
  for (const k of Object.keys(model.snap))
    Object.defineProperty(copy, k, {
      value: model.snap[k],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return { obj, model, copy };
}

/** The expected outcome of a call given the model and, when nothing refuses, `accepted()`. */
function expectFrom(model, accepted) {
  if (model.refuse) return { refuse: true };
  if (model.callerError) return { callerError: model.callerError, orRefuse: false };
  return accepted();
}

// ------------------------------------------------------------------ b. options

/** Values no message may format with String() or JSON.stringify (they throw, or run the caller's code). */
const cyclic = {};
cyclic.self = cyclic;
const UNPRINTABLE = [
  2n,
  Symbol('s'),
  Object.create(null),
  {
    toString() {
      throw new Error('the glue called toString');
    },
  },
  cyclic,
];
const FLAG_VALUES = [true, false, 'false', 'true', 0, 1, null, undefined, {}, ...UNPRINTABLE];
const SCALE_VALUES = [
  0.5,
  1,
  2,
  -1,
  1e-3,
  1e-30,
  1.4e-45,
  1e-46,
  1e38,
  3e38,
  3.5e38,
  1e39,
  0,
  -0,
  NaN,
  Infinity,
  -Infinity,
  '0.5',
  null,
  true,
  undefined,
  [0.5],
  ...UNPRINTABLE,
];
const INT_VALUES = [1, 1, 2, 0, -1, 1.5, '1', NaN, null, undefined, ...UNPRINTABLE];
const MASK_VALUES = ['ok', 'bools', 'allTrue', 'wrongLen', 'strings', 'full', null, undefined];

/** A fresh mask value and its model for SDPA's key axis (S) or softmax's rows [R, C]. */
function maskValue(kind, R, C) {
  const bits = Array.from({ length: R * C }, (_, i) => ((i * 7 + 3) % 5 === 0 ? 1 : 0));
  switch (kind) {
    case 'ok':
      return {
        value: Uint8Array.from(bits.slice(0, C)),
        snap: { data: Uint8Array.from(bits.slice(0, C)), shape: [C] },
      };
    case 'bools':
      return {
        value: bits.slice(0, C).map((b) => b === 1),
        snap: { data: Uint8Array.from(bits.slice(0, C)), shape: [C] },
      };
    case 'allTrue':
      return {
        value: new Array(C).fill(true),
        snap: { data: new Uint8Array(C).fill(1), shape: [C] },
      };
    case 'full':
      return {
        value: Array.from({ length: R }, (_, r) => bits.slice(r * C, r * C + C).map(Boolean)),
        snap: { data: Uint8Array.from(bits), shape: [R, C] },
      };
    case 'wrongLen':
      return { value: new Uint8Array(C + 1), snap: 'refuse' };
    case 'strings':
      return { value: new Array(C).fill('false'), snap: 'refuse' };
    default:
      return { value: kind, snap: kind }; // null, undefined
  }
}

const SDPA_KEYS = ['causal', 'returnWeights', 'scale', 'keyPaddingMask'];
const UNKNOWN = ['Causal', 'mask', '__proto__', 'constructor', 'toString', 'returnweights'];
const Q3 = () => T([2, 3, 4], 1);
const K3 = () => T([2, 5, 4], 2);
const V3 = () => T([2, 5, 3], 3);

function sdpaOptionValue(key, v) {
  if (key === 'causal' || key === 'returnWeights') return FLAG_VALUES[v % FLAG_VALUES.length];
  if (key === 'scale') return SCALE_VALUES[v % SCALE_VALUES.length];
  if (key === 'keyPaddingMask') return maskValue(MASK_VALUES[v % MASK_VALUES.length], 1, 5).value;
  return v % 2 === 0 ? true : 'x';
}
const sdpaOptionAlt = (key, v) => {
  const first = sdpaOptionValue(key, v);
  if (key === 'causal' || key === 'returnWeights')
    return typeof first === 'boolean' ? !first : true;
  if (key === 'scale') return first === 3 ? 0.25 : 3;
  if (key === 'keyPaddingMask') return new Array(5).fill(true);
  return 'changed';
};

/** The model's validation of SDPA options after the snapshot: the reference, or null = refuse. */
function sdpaFromOptions(snap, kinds) {
  for (const f of ['causal', 'returnWeights'])
    if (snap[f] !== undefined && typeof snap[f] !== 'boolean') return null;
  const o = { causal: snap.causal === true, returnWeights: snap.returnWeights === true };
  if (snap.scale !== undefined) {
    const s = snap.scale;
    if (
      typeof s !== 'number' ||
      !Number.isFinite(s) ||
      s === 0 ||
      !Number.isFinite(fr(s)) ||
      fr(s) === 0
    )
      return null;
    o.scale = s;
  }
  if (snap.keyPaddingMask !== undefined && snap.keyPaddingMask !== null) {
    const m = maskValue(MASK_VALUES[kinds.keyPaddingMask % MASK_VALUES.length], 1, 5).snap;
    if (m === 'refuse') return null;
    o.mask = m;
  }
  return sdpaRef(Q3(), K3(), V3(), o);
}

const SOFTMAX_KEYS = ['mask', 'causal', 'scale', 'Mask', '__proto__', 'constructor'];
const X23 = () => T([2, 3], 1, -3, 3);

test('b. options objects: getters, Proxies, prototypes, class instances, unknown keys and bad values', (t) => {
  t.diagnostic(`fast-check seed ${SEED}`);
  const arb = fc.oneof(
    fc.record({ op: fc.constant('sdpa'), opts: namedArb(SDPA_KEYS, UNKNOWN) }),
    fc.record({ op: fc.constant('softmax'), opts: namedArb(['mask'], SOFTMAX_KEYS.slice(1), 2) }),
  );
  fc.assert(
    fc.property(arb, ({ op, opts }) => {
      const kinds = Object.fromEntries(opts.entries.map((e) => [e.key, e.v]));
      if (op === 'sdpa') {
        const { obj, model } = buildNamed(opts, {
          values: sdpaOptionValue,
          alt: sdpaOptionAlt,
          allowed: SDPA_KEYS,
          label: 'options',
        });
        const expected = expectFrom(model, () => {
          const ref = sdpaFromOptions(model.snap, kinds);
          if (!ref) return { refuse: true };
          return { accept: sdpaAccept(ref) };
        });
        // near float32's limits the scores may leave its range: a clean AL_ERR_OVERFLOW is allowed
        const huge = expected.accept && Math.abs(fr(model.snap.scale ?? 0)) > 1e37;
        check(
          () => ops.scaledDotProductAttention(Q3(), K3(), V3(), obj),
          huge ? { either: expected.accept } : expected,
          'sdpa options',
        );
      } else {
        const values = (key, v) =>
          key === 'mask'
            ? maskValue(MASK_VALUES[v % MASK_VALUES.length], 2, 3).value
            : v % 2
              ? false
              : 'x';
        const alt = (key) => (key === 'mask' ? new Array(3).fill(true) : 'changed');
        const { obj, model } = buildNamed(opts, {
          values,
          alt,
          allowed: ['mask'],
          label: 'options',
        });
        const expected = expectFrom(model, () => {
          const mv = model.snap.mask;
          if (mv === undefined)
            return { accept: (r) => close(r, softmaxRef(X23(), null), 2e-6, 'softmax') };
          const m = maskValue(MASK_VALUES[kinds.mask % MASK_VALUES.length], 2, 3).snap;
          if (mv === null)
            return { either: (r) => close(r, softmaxRef(X23(), null), 2e-6, 'softmax') }; // null: refused or no mask
          if (m === 'refuse') return { refuse: true };
          return { accept: (r) => close(r, softmaxRef(X23(), m), 2e-6, 'softmax') };
        });
        check(() => ops.softmax(X23(), obj), expected, 'softmax options');
      }
    }),
    params(6000),
  );
  report(t);
});

// ------------------------------------------------------------------ c. params

const W_VALUES = ['ok', 'ok', 'nestedOk', 'wrongShape', 'rank2', 'nan', 'f64', null, undefined];

function poolingW(key, v) {
  const kind = W_VALUES[v % W_VALUES.length];
  if (key !== 'w') return T([3], 9);
  switch (kind) {
    case 'ok':
      return T([3], 2 + (v % 3));
    case 'nestedOk':
      return Array.from(T([3], 5).data);
    case 'wrongShape':
      return T([4], 2);
    case 'rank2':
      return T([1, 3], 2);
    case 'nan':
      return { data: new Float32Array([1, NaN, 0]), shape: [3] };
    case 'f64':
      return { data: new Float64Array(3), shape: [3] };
    default:
      return kind;
  }
}

const RNN_KEYS = ['weight_ih_l0', 'weight_hh_l0', 'bias_ih_l0', 'bias_hh_l0'];
const RNN_SHAPES = {
  weight_ih_l0: [16, 2],
  weight_hh_l0: [16, 4],
  bias_ih_l0: [16],
  bias_hh_l0: [16],
};
const RNN_EXTRA = ['weight_ih_l1', 'weight_ih_l0_reverse', 'foo', '__proto__'];
const RNN_VALUES = ['ok', 'ok', 'ok', 'nested', 'wrong', 'nan', null];

function lstmParam(key, v) {
  const shape = Object.hasOwn(RNN_SHAPES, key) ? RNN_SHAPES[key] : [16, 4];
  const kind = RNN_VALUES[v % RNN_VALUES.length];
  const seed = 50 + RNN_KEYS.indexOf(key);
  switch (kind) {
    case 'ok':
      return T(shape, seed, -0.4, 0.4);
    case 'nested': {
      const t = T(shape, seed, -0.4, 0.4);
      return shape.length === 1
        ? Array.from(t.data)
        : Array.from({ length: shape[0] }, (_, i) =>
            Array.from(t.data.subarray(i * shape[1], (i + 1) * shape[1])),
          );
    }
    case 'wrong':
      return T([shape[0] + 4, ...shape.slice(1)], seed);
    case 'nan': {
      const t = T(shape, seed);
      t.data[3] = NaN;
      return t;
    }
    default:
      return kind;
  }
}

const LSTM_OPTIONS = ['bidirectional', 'numLayers', 'h0', 'c0', 'batchFirst'];

/** lstm params: usually all four state_dict keys (a random subset needs luck to be valid), plus maybe an extra. */
const lstmParamsArb = fc
  .record({
    keys: fc.array(
      fc.nat(9).map((x) => x > 0),
      { minLength: 4, maxLength: 4 },
    ),
    v: fc.array(fc.oneof({ arbitrary: fc.nat(2), weight: 4 }, { arbitrary: fc.nat(), weight: 1 }), {
      minLength: 4,
      maxLength: 4,
    }),
    how: fc.array(
      fc.oneof(
        { arbitrary: fc.constantFrom('value', 'getter'), weight: 6 },
        { arbitrary: fc.constantFrom(...HOWS), weight: 1 },
      ),
      { minLength: 4, maxLength: 4 },
    ),
    extra: fc.oneof(
      { arbitrary: fc.constant(null), weight: 5 },
      fc.record({
        key: fc.constantFrom(...RNN_EXTRA),
        v: fc.nat(),
        how: fc.constantFrom('value', ...HOWS),
      }),
    ),
    rotate: fc.nat(4),
    delivery: weighted('plain', ...DELIVERIES),
  })
  .map((r) => {
    const entries = RNN_KEYS.map((key, i) => ({ key, v: r.v[i], how: r.how[i] })).filter(
      (_, i) => r.keys[i],
    );
    if (r.extra) entries.push(r.extra);
    return {
      entries: [
        ...entries.slice(r.rotate % (entries.length || 1)),
        ...entries.slice(0, r.rotate % (entries.length || 1)),
      ],
      delivery: r.delivery,
    };
  });

function lstmOption(key, v) {
  if (key === 'numLayers') return INT_VALUES[v % INT_VALUES.length];
  if (key === 'bidirectional' || key === 'batchFirst') return FLAG_VALUES[v % FLAG_VALUES.length];
  if (key === 'h0' || key === 'c0')
    return v % 3 === 2 ? T([2, 4], 9) : T([1, 4], key === 'h0' ? 9 : 8);
  return 'tanh';
}

test('c. params objects: attentionPooling and lstm with inherited keys, getters, Proxies and extra keys', (t) => {
  t.diagnostic(`fast-check seed ${SEED}`);
  const H = () => T([4, 3], 1);
  const X = () => T([3, 2], 1);
  const arb = fc.oneof(
    fc.record({
      op: fc.constant('attentionPooling'),
      p: namedArb(['w'], ['W', 'v', '__proto__'], 2),
      opts: fc.constantFrom(undefined, {}),
    }),
    fc.record({
      op: fc.constant('lstm'),
      p: lstmParamsArb,
      o: namedArb(LSTM_OPTIONS, ['numlayers', 'nonlinearity'], 3),
    }),
  );
  fc.assert(
    fc.property(arb, (cs) => {
      if (cs.op === 'attentionPooling') {
        const { obj, model } = buildNamed(cs.p, {
          values: poolingW,
          alt: () => T([3], 77),
          allowed: ['w'],
          unknownFirst: true,
          label: 'params',
        });
        const expected = expectFrom(model, () => {
          const w = model.snap.w;
          if (w === undefined || w === null) return { refuse: true };
          const kind = W_VALUES[cs.p.entries.find((e) => e.key === 'w').v % W_VALUES.length];
          if (['nan', 'f64', 'rank2'].includes(kind)) return { refuse: true };
          const wt = Array.isArray(w) ? { data: Float32Array.from(w), shape: [w.length] } : w;
          const ref = attentionPoolingRef(H(), wt);
          if (!ref) return { refuse: true };
          return {
            accept: (r) => {
              for (const k of ['r', 'hStar', 'weights']) close(r[k], ref[k], 3e-6, k);
            },
          };
        });
        check(
          () => ops.attentionPooling(H(), obj, cs.opts === undefined ? undefined : { ...cs.opts }),
          expected,
          'attentionPooling params',
        );
      } else {
        const { obj, model, copy } = buildNamed(cs.p, {
          values: lstmParam,
          alt: (key) => T(Object.hasOwn(RNN_SHAPES, key) ? RNN_SHAPES[key] : [16, 4], 99),
          label: 'params',
        });
        // options are read (and checked) before params: an options problem decides first
        // 'nonlinearity' is known to the snapshot (then refused for lstm by name)
        const opt = buildNamed(cs.o, {
          values: lstmOption,
          alt: () => 'changed',
          allowed: [...LSTM_OPTIONS, 'nonlinearity'],
          label: 'options',
        });
        const expected = expectFrom(opt.model, () =>
          model.callerError
            ? { callerError: model.callerError, orRefuse: true }
            : expectFrom(model, () => {
                // the reference: the same call with plain objects of the first-read values
                const want = attempt(() => ops.lstm(X(), copy, opt.copy));
                if (want.error) {
                  assert.ok(want.error instanceof AttnlabError, `the plain call: ${want.error}`);
                  return { refuse: true, code: want.error.code };
                }
                return { accept: (r) => sameOutcome({ result: r }, want, 'lstm') };
              }),
        );
        const got = check(() => ops.lstm(X(), obj, opt.obj), expected, 'lstm params');
        if (expected.code)
          assert.equal(
            got.error.code,
            expected.code,
            `the plain call refused with ${expected.code}: ${got.error.message}`,
          );
      }
    }),
    params(5000),
  );
  report(t);
});

// ------------------------------------------------------------------ d. backward with arguments dropped

const BACKWARDS = {
  scaledDotProductAttention: {
    required: () => [Q3(), K3(), V3()],
    options: () => ({ scale: 0.5, causal: true }),
    outputs: { output: [2, 3, 3], weights: [2, 3, 5] },
  },
  attentionPooling: {
    required: () => [T([4, 3], 1), { w: T([3], 2) }],
    options: () => ({}),
    outputs: { r: [3], hStar: [3], weights: [4] },
  },
  lstm: {
    required: () => [T([3, 2], 1), Object.fromEntries(RNN_KEYS.map((k) => [k, lstmParam(k, 0)]))],
    options: () => ({ h0: T([1, 4], 9), c0: T([1, 4], 8) }),
    outputs: { output: [3, 4], hN: [1, 4], cN: [1, 4] },
  },
};
const UP_VALUES = ['ok', 'ok', 'ok', 'wrongShape', 'nan', null, undefined, 'number', 'nested'];

test('d. .backward with a random subset of its arguments: upstream dropped is refused, else the plain call', (t) => {
  t.diagnostic(`fast-check seed ${SEED}`);
  const arb = fc.constantFrom(...Object.keys(BACKWARDS)).chain((op) => {
    const spec = BACKWARDS[op];
    const n = spec.required().length + 2;
    return fc.record({
      op: fc.constant(op),
      keep: fc.array(
        fc.nat(9).map((x) => x > 0),
        { minLength: n, maxLength: n },
      ),
      up: namedArb(Object.keys(spec.outputs), ['query', 'x'], 3),
    });
  });
  fc.assert(
    fc.property(arb, ({ op, keep, up }) => {
      const spec = BACKWARDS[op];
      const nReq = spec.required().length;
      const shapeOf = (key) => spec.outputs[key] ?? [3];
      const values = (key, v) => {
        const kind = UP_VALUES[v % UP_VALUES.length];
        const shape = shapeOf(key);
        switch (kind) {
          case 'ok':
            return T(shape, 20 + (v % 5));
          case 'wrongShape':
            return T([...shape.slice(0, -1), shape[shape.length - 1] + 1], 21);
          case 'nan': {
            const x = T(shape, 22);
            x.data[0] = NaN;
            return x;
          }
          case 'number':
            return 0.5;
          case 'nested': {
            const x = T(shape, 23);
            return shape.length === 1 ? Array.from(x.data) : { data: x.data, shape: shape.slice() };
          }
          default:
            return kind;
        }
      };
      const { obj, model, copy } = buildNamed(up, {
        values,
        alt: (key) => T(shapeOf(key), 98),
        allowed: Object.keys(spec.outputs),
        label: 'upstream',
        unknownFirst: op !== 'scaledDotProductAttention', // pooling and recurrent refuse unknown names before reading
      });
      const all = [...spec.required(), spec.options(), obj];
      const args = all.filter((_, i) => keep[i]);
      const valid = keep.slice(0, nReq).every(Boolean) && keep[nReq + 1];
      let expected;
      if (!valid) expected = { refuse: true };
      else {
        expected = expectFrom(model, () => {
          const plainArgs = [...spec.required(), ...(keep[nReq] ? [spec.options()] : []), copy];
          const want = attempt(() => ops[op].backward(...plainArgs));
          if (want.error) {
            assert.ok(want.error instanceof AttnlabError, `the plain call: ${want.error}`);
            return { refuse: true, code: want.error.code };
          }
          return { accept: (r) => sameOutcome({ result: r }, want, `${op}.backward`) };
        });
      }
      const got = check(() => ops[op].backward(...args), expected, `${op}.backward`);
      if (expected.code)
        assert.equal(
          got.error.code,
          expected.code,
          `the plain call refused with ${expected.code}: ${got.error.message}`,
        );
    }),
    params(5000),
  );
  report(t);
});

// ------------------------------------------------------------------ the finding, pinned

test("a caller's value in a message is shown without String() or JSON.stringify: BigInt, Symbol, null-prototype and toString-throwing values are refused by name", () => {
  const nullProto = Object.create(null);
  const loud = {
    toString() {
      throw new Error('the glue called toString');
    },
  };
  const refused = (fn, re, label) => {
    const base = lib.liveAllocations();
    const { error } = attempt(fn);
    assert.ok(
      error instanceof AttnlabError,
      `${label}: expected an AttnlabError, got ${error?.constructor?.name}: ${error?.message}`,
    );
    assert.ok(STATUS_CODES.includes(error.code), label);
    assert.match(error.message, re, label);
    assert.equal(lib.liveAllocations(), base);
    knownAnswer();
  };
  const E = OP_TABLE_ARGS();
  // found by property a: a BigInt dimension made checkShape's JSON.stringify throw a TypeError
  refused(
    () => ops.softmax({ data: new Float32Array(2), shape: [2n] }),
    /x\.shape \[2n\] must hold non-negative integers/,
    'shape [2n]',
  );
  refused(
    () => ops.matmul({ data: new Float32Array(2), shape: [1, Symbol('d')] }, T([2, 1], 1)),
    /a\.shape \[1, Symbol\(d\)\]/,
    'shape with a Symbol',
  );
  // found by property b: String(v) of a null-prototype flag value threw "Cannot convert object to primitive value"
  refused(
    () => ops.scaledDotProductAttention(...E.sdpa, { causal: nullProto }),
    /options\.causal must be true or false, got object/,
    'causal: null-prototype',
  );
  refused(
    () => ops.scaledDotProductAttention(...E.sdpa, { returnWeights: loud }),
    /options\.returnWeights must be true or false, got Object/,
    'returnWeights: toString throws',
  );
  refused(
    () => ops.scaledDotProductAttention(...E.sdpa, { scale: 2n }),
    /options\.scale must be a finite number other than 0, got 2n/,
    'scale: 2n',
  );
  // found by property c: numLayers as a Symbol or null-prototype object threw from a template literal
  refused(
    () => ops.lstm(...E.lstm, { numLayers: Symbol('L') }),
    /numLayers must be an integer >= 1, got Symbol\(L\)/,
    'numLayers: Symbol',
  );
  refused(
    () => ops.lstm(...E.lstm, { numLayers: nullProto }),
    /numLayers must be an integer >= 1, got object/,
    'numLayers: null-prototype',
  );
  refused(
    () => ops.rnn(...E.rnn, { nonlinearity: loud }),
    /nonlinearity must be 'tanh' or 'relu', got Object/,
    'nonlinearity: toString throws',
  );
  // the same pattern elsewhere in the glue: named options looked up with Object.hasOwn (which calls
  // toString) or formatted raw
  refused(
    () => ops.luongAttention(...E.luong, { score: loud }),
    /score must be 'dot', 'general' or 'concat', got Object/,
    'score: toString throws',
  );
  refused(
    () => ops.luongLocalAttention(...E.local, { position: nullProto }),
    /position must be 'monotonic' or 'predictive', got object/,
    'position',
  );
  refused(() => ops.selfAttentionRNN(...E.sarnn, { align: 2n }), /unknown align 2n/, 'align: 2n');
  refused(
    () => ops.multiHeadAttention(...E.mha, { numHeads: Symbol('h') }),
    /numHeads must be an integer >= 1, got Symbol\(h\)/,
    'numHeads: Symbol',
  );
  refused(
    () => ops.transformerEncoderLayer(...E.enc, { nhead: nullProto }),
    /nhead must be an integer >= 1, got object/,
    'nhead',
  );
  refused(
    () => ops.transformerEncoderLayer(...E.enc, { nhead: 2, causal: 2n }),
    /options\.causal must be true or false, got 2n/,
    'causal: 2n',
  );
  refused(
    () => ops.transformerEncoderLayer(...E.enc, { nhead: 2, activation: loud }),
    /activation must be 'relu' or 'gelu', got Object/,
    'activation',
  );
  refused(
    () => ops.embedding([0, Symbol('id')], T([4, 3], 2)),
    /ids\[1\] = Symbol\(id\) is outside the vocabulary/,
    'embedding ids',
  );
  refused(
    () => ops.relativePositionAttention.distances(nullProto, 1),
    /n must be an integer >= 1, got object/,
    'distances n',
  );
});

test('a Proxy of a Float32Array or an object with its prototype is refused as an impostor, not "must be a Float32Array, got Float32Array"', () => {
  // found by property a once messages had to name the problem without contradicting themselves
  const b = T([1, 1], 2);
  const impostors = [
    new Proxy(new Float32Array(1), {}),
    Object.setPrototypeOf({ 0: 1, length: 1 }, Float32Array.prototype),
  ];
  for (const data of impostors) {
    const base = lib.liveAllocations();
    const { error } = attempt(() => ops.matmul({ data, shape: [1, 1] }, b));
    assert.ok(error instanceof AttnlabError, `expected an AttnlabError, got ${error}`);
    assert.equal(error.code, 'AL_ERR_ARGUMENT');
    assert.match(
      error.message,
      /a\.data must be a Float32Array, got an object posing as Float32Array \(a Proxy or a borrowed prototype, not a real typed array\)/,
    );
    assert.equal(lib.liveAllocations(), base);
  }
  // the real thing and its subclasses are still named by their type
  const { error } = attempt(() => ops.matmul({ data: new Float64Array(1), shape: [1, 1] }, b));
  assert.match(error.message, /a\.data must be a Float32Array, got Float64Array;/);
  knownAnswer();
});

/** Valid leading arguments (everything before the options) of the ops the pinned test calls. */
function OP_TABLE_ARGS() {
  const lead = (name, n) => OP_TABLE[name].make().slice(0, n);
  return {
    sdpa: lead('scaledDotProductAttention', 3),
    lstm: lead('lstm', 2),
    rnn: lead('rnn', 2),
    luong: lead('luongAttention', 3),
    local: lead('luongLocalAttention', 3),
    sarnn: lead('selfAttentionRNN', 2),
    mha: lead('multiHeadAttention', 4),
    enc: lead('transformerEncoderLayer', 2),
  };
}
