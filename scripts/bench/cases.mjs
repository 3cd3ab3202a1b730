// scripts/bench/cases.mjs: what the benchmark measures, and the inputs. One list of cases (op and
// shape), the seeded inputs every contender receives byte for byte, the useful FLOP count of each
// case, and the smoke subset CI runs. Nothing here times or checks anything.
//
// Ops: matmul, sdpa (one or more heads), mha (torch.nn.MultiheadAttention with projections,
// self-attention), additive (Bahdanau et al. 2015, eq. 6, one query against n keys), lstm / gru
// (one layer over T steps, batch 1, PyTorch layout), model (one greedy run of a seq2seq model
// file on a 20-character input: the per-keystroke latency), train (one Adam step on a batch of
// pairs) and shipped (one model.run of a web/models/*.safetensors on its registry sample, the
// call the page's view makes: every shipped model, per input). Inputs are named typed arrays
// (Float32Array, or Int32Array for token ids), written to disk concatenated in this order for the
// child-process contenders; shipped cases have none (their input is text).

import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

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
export const MHA = { E: 128, H: 4, lengths: [16, 64, 256] };
export const ADDITIVE = { d: 128, da: 128, lengths: [16, 64, 256] };
export const RECURRENT = { T: 64, I: 32, H: 128 };
export const MODEL_INPUT_CHARS = 20;
export const TRAIN_BATCH = 32;
/** The shipped models --smoke times: a dates model and a memory-rnn language model (the reading
 * view's call, with every next-word distribution). */
export const SMOKE_SHIPPED = ['dates-additive', 'lm-agreement-lstmn'];

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

function mhaCase(E, H, n) {
  // projections: 4 [n,E]·[E,E] GEMMs; attention: H heads of n² pairs, D-dot and D-axpy each
  const flops = 4 * 2 * n * E * E + 2 * n * n * 2 * E;
  return { op: 'mha', B: 1, T: n, S: n, E, H, key: `mha e${E} h${H} n${n}`, label: `MHA E=${E} H=${H} n=${n}`, flops };
}

function additiveCase(d, da, n) {
  // W_k h_j for every key (the bulk), W_q s, the da-dot per key and the weighted sum
  const flops = 2 * n * d * da + 2 * d * da + 2 * n * da + 2 * n * d;
  return { op: 'additive', B: 1, n, dq: d, dk: d, dv: d, da, key: `additive d${d} n${n}`, label: `additive d=${d} da=${da} n=${n}`, flops };
}

function recurrentCase(cell, T, I, H) {
  const G = cell === 'lstm' ? 4 : 3;
  return { op: cell, B: 1, T, I, H, G, key: `${cell} t${T} i${I} h${H}`, label: `${cell.toUpperCase()} T=${T} I=${I} H=${H}`, flops: 2 * T * G * H * (I + H) };
}

/** The model the whole-model rows use: the largest web/models/*.safetensors, else the fixture
 * (or `file`, from --model). */
export function pickModel(file = null) {
  const dir = path.join(ROOT, 'web/models');
  const shipped = file ? [path.resolve(file)] : existsSync(dir)
    ? readdirSync(dir).filter((f) => f.endsWith('.safetensors')).map((f) => path.join(dir, f))
      // the model and train cases feed srcVocab ids: memory-rnn models (a word vocab of 5,004,
      // the largest files since issue #13) have their own rows among the shipped cases
      .filter((f) => readHeader(readFileSync(f)).config?.architecture !== 'memory-rnn')
      .sort((a, b) => statSync(b).size - statSync(a).size)
    : [];
  const model = shipped[0] ?? path.join(ROOT, 'tests/fixtures/model_lstm_additive_bahdanau.safetensors');
  const bytes = readFileSync(model);
  const { config } = readHeader(bytes);
  const why = file ? 'chosen with --model' : shipped.length ? 'the largest of web/models/*.safetensors' : 'no model in web/models/, so the test fixture';
  return { file: model, rel: path.relative(ROOT, model), why, bytes: bytes.length, config };
}

/** The config of a .safetensors model file and its parameter count (elements of every tensor). */
function readHeader(bytes) {
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  const config = JSON.parse(header.__metadata__.config);
  let params = 0;
  for (const [name, t] of Object.entries(header)) if (name !== '__metadata__') params += t.shape.reduce((a, d) => a * d, 1);
  return { config, params };
}

/** One line on what a model is, from its config (e.g. "seq2seq BiLSTM, additive (bahdanau)"). */
function describeArchitecture(cfg) {
  const rnn = (c) => `${c.bidirectional ? 'Bi' : ''}${(c.cell ?? 'rnn').toUpperCase()}${c.numLayers > 1 ? ` ×${c.numLayers}` : ''}`;
  switch (cfg.architecture) {
    case 'seq2seq': return `seq2seq ${rnn(cfg)}, ${cfg.attention === 'none' ? 'no attention' : `${cfg.attention} (${cfg.style})`}`;
    case 'transformer': return `transformer ${cfg.variant}, ${cfg.numLayers} layers × ${cfg.numHeads} heads, ${cfg.positions} positions`;
    case 'classifier': return `classifier ${rnn(cfg)}, ${cfg.pooling} pooling${cfg.hops ? ` (${cfg.hops} hops)` : ''}`;
    case 'memory-rnn': return `memory-rnn ${cfg.head === 'lm' ? 'LM' : 'classifier'}, ${cfg.cell}${cfg.align ? ` (${cfg.align})` : ''}`;
    default: return String(cfg.architecture);
  }
}

function modelCase(m) {
  return { op: 'model', model: m.rel, why: m.why, key: `model ${path.basename(m.rel, '.safetensors')}`, label: `model per keystroke (${path.basename(m.rel)}, ${MODEL_INPUT_CHARS} chars)`, flops: 0 };
}

/**
 * One case per web/models/*.safetensors (only SMOKE_SHIPPED with smoke): its input is the
 * registry's sample (web/shared/models.js sampleFor) and its call the one the page's view makes
 * on a keystroke (web/views/*-view.js): model.run(sample), or for the reading view's memory-rnn
 * language models model.run(readingInput(sample), { distributions: true }). Checked to 1e-4 absolute.
 */
async function shippedCases(smoke) {
  const dir = path.join(ROOT, 'web/models');
  if (!existsSync(dir)) return [];
  const { findModel, sampleFor } = await import('../../web/shared/models.js');
  const { readingInput } = await import('../../web/views/reading-view.js');
  const names = readdirSync(dir).filter((f) => f.endsWith('.safetensors')).map((f) => path.basename(f, '.safetensors')).sort();
  return names.filter((name) => !smoke || SMOKE_SHIPPED.includes(name)).map((name) => {
    const rel = `web/models/${name}.safetensors`;
    const bytes = readFileSync(path.join(ROOT, rel));
    const { config, params } = readHeader(bytes);
    const family = findModel(name)?.family ?? null;
    const sample = sampleFor(name);
    const reading = family === 'memory-rnn';
    return {
      op: 'shipped', model: rel, name, family, architecture: describeArchitecture(config), params, bytes: bytes.length,
      sample, text: reading ? readingInput(sample) : sample, runOptions: reading ? { distributions: true } : null,
      call: reading ? 'model.run(readingInput(sample), { distributions: true })' : 'model.run(sample)',
      key: `shipped ${name}`, label: `${name}, per input`, flops: 0, absTol: 1e-4,
    };
  });
}

function trainCase(m, B) {
  return { op: 'train', model: m.rel, batch: B, key: `train ${path.basename(m.rel, '.safetensors')} b${B}`, label: `training step (${path.basename(m.rel)}, batch ${B})`, flops: 0 };
}

/** The full case list, or the CI smoke subset. */
export async function makeCases({ smoke = false, model: modelFile = null } = {}) {
  const cases = [];
  const model = pickModel(modelFile);
  if (smoke) {
    cases.push(matmulCase(1, 64, 256), matmulCase(32, 64, 64));
    cases.push(sdpaCase(1, 16, false), sdpaCase(1, 16, true), sdpaCase(4, 64, true), sdpaCase(1, 16, false, true));
    cases.push(mhaCase(32, 4, 16), additiveCase(32, 16, 16), recurrentCase('lstm', 8, 8, 16), recurrentCase('gru', 8, 8, 16));
    cases.push(modelCase(model), trainCase(model, 4));
  } else {
    for (const [M, K, N] of MATMUL_SHAPES) cases.push(matmulCase(M, K, N));
    for (const H of [1, 4]) {
      for (const n of SDPA_LENGTHS) for (const causal of [false, true]) cases.push(sdpaCase(H, n, causal));
    }
    // the path that materialises the [T,S] weights (for plotting), beside the streaming one
    cases.push(sdpaCase(1, 64, false, true), sdpaCase(1, 256, false, true));
    for (const n of MHA.lengths) cases.push(mhaCase(MHA.E, MHA.H, n));
    for (const n of ADDITIVE.lengths) cases.push(additiveCase(ADDITIVE.d, ADDITIVE.da, n));
    for (const cell of ['lstm', 'gru']) cases.push(recurrentCase(cell, RECURRENT.T, RECURRENT.I, RECURRENT.H));
    cases.push(modelCase(model), trainCase(model, TRAIN_BATCH));
  }
  cases.push(...(await shippedCases(smoke)));
  for (const [i, c] of cases.entries()) {
    c.id = i;
    c.inputs = c.op === 'shipped' ? {} : c.op === 'model' || c.op === 'train' ? await modelInputs(c, model, 1000 + i) : makeInputs(c, 1000 + i);
  }
  return cases;
}

/** Token ids of a model case (the 20-character input) or of a train case (a padded batch). */
async function modelInputs(c, m, seed) {
  const { Tokenizer } = await import('../../wasm/model/tokenizer.js');
  const tok = new Tokenizer(m.config.tokenizer);
  const unk = tok.src.get(tok.specials.unk);
  const clean = (text) => !Array.from(tok.encode(text)).includes(unk);
  // ordinary symbols of a vocabulary: everything but the special tokens
  const specials = new Set(Object.values(tok.specials));
  const plain = (vocab) => vocab.map((t, i) => [t, i]).filter(([t]) => !specials.has(t)).map(([, i]) => i);
  const r = rng(seed);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  if (c.op === 'model') {
    // a real 20-character date when the vocabulary has its characters (the shipped dates models)
    let text = 'Sunday, 1 March 2026';
    if (tok.type !== 'char' || !clean(text)) {
      const syms = plain(tok.srcVocab);
      text = Array.from({ length: MODEL_INPUT_CHARS }, () => tok.srcVocab[pick(syms)]).join(tok.type === 'char' ? '' : ' ');
    }
    c.text = text;
    return { src: Int32Array.from(tok.encode(text)) };
  }
  const B = c.batch;
  let pairs = null;
  const datesFile = path.join(ROOT, 'web/data/dates.js');
  if (existsSync(datesFile)) {
    const { generateDates } = await import(datesFile);
    const d = generateDates({ seed, count: B, split: 'train' });
    const cleanTarget = (text) => {
      try { return !Array.from(tok.encodeTarget(text)).includes(tok.tgtUnkId); } catch { return false; }
    };
    if (d.every((p) => clean(p.src) && cleanTarget(p.tgt))) {
      pairs = d.map((p) => ({ src: Array.from(tok.encode(p.src)), tgt: Array.from(tok.encodeTarget(p.tgt)) }));
      c.data = 'dates (web/data/dates.js)';
    }
  }
  if (!pairs) {
    // random symbols, source 14–26 tokens, target 8–12 (dates-like lengths)
    const ss = plain(tok.srcVocab);
    const ts = plain(tok.tgtVocab);
    pairs = Array.from({ length: B }, () => ({
      src: Array.from({ length: 14 + Math.floor(r() * 13) }, () => pick(ss)),
      tgt: Array.from({ length: 8 + Math.floor(r() * 5) }, () => pick(ts)),
    }));
    c.data = 'random symbols';
  }
  const eos = tok.tgt.get(tok.specials.eos);
  for (const p of pairs) if (p.tgt[p.tgt.length - 1] !== eos) p.tgt.push(eos);
  const S = Math.max(...pairs.map((p) => p.src.length));
  const T = Math.max(...pairs.map((p) => p.tgt.length));
  c.S = S;
  c.T = T;
  const src = new Int32Array(B * S);
  const tgt = new Int32Array(B * T);
  pairs.forEach((p, b) => { src.set(p.src, b * S); tgt.set(p.tgt, b * T); });
  return { src, srcLen: Int32Array.from(pairs, (p) => p.src.length), tgt, tgtLen: Int32Array.from(pairs, (p) => p.tgt.length) };
}

/** The inputs of a case, as named Float32Arrays in the order they are written to disk. */
function makeInputs(c, seed) {
  if (c.op === 'matmul') {
    return { a: uniform(c.M * c.K, seed), b: uniform(c.K * c.N, seed + 7) };
  }
  if (c.op === 'mha') {
    const { T, E } = c;
    // x in [-2, 2) and weights ±2/√E: per-head scores spread ≈ ±2, peaked rows
    const w = 2 / Math.sqrt(E);
    return {
      x: uniform(T * E, seed, 2),
      in_proj_weight: uniform(3 * E * E, seed + 1, w),
      in_proj_bias: uniform(3 * E, seed + 2, 0.1),
      out_proj_weight: uniform(E * E, seed + 3, w),
      out_proj_bias: uniform(E, seed + 4, 0.1),
    };
  }
  if (c.op === 'additive') {
    const { n, dq, dk, da } = c;
    return {
      query: uniform(dq, seed),
      keys: uniform(n * dk, seed + 1),
      W_q: uniform(da * dq, seed + 2, Math.sqrt(3 / dq)),
      W_k: uniform(da * dk, seed + 3, Math.sqrt(3 / dk)),
      bias: uniform(da, seed + 4, 0.1),
      v: uniform(da, seed + 5, 0.5), // scores ≈ ±3: peaked weights
    };
  }
  if (c.op === 'lstm' || c.op === 'gru') {
    const { T, I, H, G } = c;
    // recurrent weights 0.5/√H (docs STYLE: unscaled 64-step LSTMs are chaotic)
    return {
      x: uniform(T * I, seed),
      weight_ih: uniform(G * H * I, seed + 1, 1 / Math.sqrt(I)),
      weight_hh: uniform(G * H * H, seed + 2, 0.5 / Math.sqrt(H)),
      bias_ih: uniform(G * H, seed + 3, 0.1),
      bias_hh: uniform(G * H, seed + 4, 0.1),
    };
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
  switch (c.op) {
    case 'matmul': return c.M * c.N;
    case 'mha': return c.T * c.E;
    case 'additive': return c.dv;
    case 'lstm': case 'gru': return c.T * c.H;
    case 'train': return 2; // [loss, global gradient norm] of the first step
    case 'model': return -1; // log-probs of the greedy output, its length
    case 'shipped': return -1; // whatever the family's run returns (scripts/bench/api-worker.mjs)
    default: return c.B * c.H * c.T * c.Dv;
  }
}
