// playground.js: the playground's synthetic inputs, Q [n, d], K [m, d] and V [m, d], from a seed.
//
// Holds: a small seeded PRNG and the matrices it fills. Deliberately uses only integer maths,
// + and * and Math.sqrt (all exactly specified by IEEE 754 / ECMAScript), never Math.random,
// Math.log or Math.cos, so every engine (Node in the tests, any browser on the page) builds
// bit-identical inputs from the same seed.
//
// mulberry32: Tommy Ettinger's 32-bit generator (public domain). Entries are approximately
// standard normal: the Irwin–Hall sum of 4 uniforms, shifted and scaled to mean 0, variance 1,
// so that q·k / sqrt(d) has about unit variance, as with trained attention at initialisation.

/** A function returning uniform floats in [0, 1) from a 32-bit seed. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SQRT3 = Math.sqrt(3);

/** Float32Array [rows * cols] of approximately N(0, 1) values drawn from next(). */
export function randomMatrix(next, rows, cols) {
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < out.length; i++) {
    // Irwin–Hall(4): mean 2, variance 4/12; (sum - 2) * sqrt(3) has mean 0, variance 1.
    out[i] = (next() + next() + next() + next() - 2) * SQRT3;
  }
  return out;
}

/**
 * The playground's inputs for a state { n, m, d, seed }, as tensors the attnlab API takes:
 * { q: { data, shape: [n, d] }, k: { data, shape: [m, d] }, v: { data, shape: [m, d] } }.
 * One PRNG stream fills q, then k, then v.
 */
export function makeQKV({ n, m, d, seed }) {
  const next = mulberry32(seed);
  const q = randomMatrix(next, n, d);
  const k = randomMatrix(next, m, d);
  const v = randomMatrix(next, m, d);
  return {
    q: { data: q, shape: [n, d] },
    k: { data: k, shape: [m, d] },
    v: { data: v, shape: [m, d] },
  };
}

/** Axis labels for the heatmap: q0..q(n-1) and k0..k(m-1). */
export function axisLabels(n, m) {
  return {
    rowLabels: Array.from({ length: n }, (_, i) => `q${i}`),
    colLabels: Array.from({ length: m }, (_, j) => `k${j}`),
  };
}
