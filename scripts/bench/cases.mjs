// scripts/bench/cases.mjs: what the benchmark measures, and the inputs. One list of cases (op and
// shape), the seeded inputs every contender receives byte for byte, the useful FLOP count of each
// case, and the smoke subset CI runs. Nothing here times or checks anything.

/** mulberry32: a small seeded PRNG, so every run feeds every contender the same inputs. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n floats uniform in [-amp, amp). */
export function uniform(n, seed, amp = 1) {
  const r = rng(seed);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (2 * r() - 1) * amp;
  return out;
}

export const MATMUL_SHAPES = [[1, 64, 256], [1, 128, 512], [32, 64, 64], [128, 128, 128], [256, 64, 256], [512, 512, 512]];
export const SDPA_LENGTHS = [16, 64, 256, 1024];
export const SDPA_D = 64;

function matmulCase(M, K, N) {
  return { op: 'matmul', M, K, N, key: `matmul ${M}x${K}x${N}`, label: `matmul ${M}×${K}×${N}`, flops: 2 * M * K * N };
}

function sdpaCase(H, n, causal, weights = false) {
  const B = 1;
  const T = n;
  const S = n;
  const D = SDPA_D;
  const Dv = SDPA_D;
  // useful work: the (t, s) pairs a query sees, each one D-dot and one Dv-axpy
  const pairs = causal ? (n * (n + 1)) / 2 : n * n;
  const tags = [causal ? 'causal' : '', weights ? 'weights' : ''].filter(Boolean).join(', ');
  return {
    op: 'sdpa', B, H, T, S, D, Dv, causal, weights, scale: 1 / Math.sqrt(D),
    key: `sdpa h${H} n${n}${causal ? ' causal' : ''}${weights ? ' weights' : ''}`,
    label: `sdpa H=${H} n=${n}${tags ? ` (${tags})` : ''}`,
    flops: 2 * B * H * pairs * (D + Dv),
  };
}

/** The full case list, or the CI smoke subset. */
export function makeCases({ smoke = false } = {}) {
  const cases = [];
  if (smoke) {
    cases.push(matmulCase(1, 64, 256), matmulCase(32, 64, 64));
    cases.push(sdpaCase(1, 16, false), sdpaCase(1, 16, true), sdpaCase(4, 64, true), sdpaCase(1, 16, false, true));
  } else {
    for (const [M, K, N] of MATMUL_SHAPES) cases.push(matmulCase(M, K, N));
    for (const H of [1, 4]) {
      for (const n of SDPA_LENGTHS) for (const causal of [false, true]) cases.push(sdpaCase(H, n, causal));
    }
    // the path that materialises the [T,S] weights (for plotting), beside the streaming one
    cases.push(sdpaCase(1, 64, false, true), sdpaCase(1, 256, false, true));
  }
  cases.forEach((c, i) => {
    c.id = i;
    c.inputs = makeInputs(c, 1000 + i);
  });
  return cases;
}

/** The inputs of a case, as named Float32Arrays in the order they are written to disk. */
function makeInputs(c, seed) {
  if (c.op === 'matmul') {
    return { a: uniform(c.M * c.K, seed), b: uniform(c.K * c.N, seed + 7) };
  }
  const bh = c.B * c.H;
  // q spans [-2, 2) so the scores (≈ ±2.7 at D = 64) give peaked rows, not all ≈ 1/S
  return {
    q: uniform(bh * c.T * c.D, seed, 2),
    k: uniform(bh * c.S * c.D, seed + 7),
    v: uniform(bh * c.S * c.Dv, seed + 13),
  };
}

/** Number of output floats of a case (the tensor every contender is checked on). */
export function outputSize(c) {
  return c.op === 'matmul' ? c.M * c.N : c.B * c.H * c.T * c.Dv;
}
