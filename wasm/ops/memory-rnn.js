// attnlab/wasm/ops/memory-rnn.js: recurrent networks that attend over their own past.
//   selfAttentionRNN  h_t = tanh(A [x_t; c_{t-1}] + b), c_t = Σ_{i≤t} α_i h_i,
//                     α = softmax_i(align(h_i, h_t)), align additive or dot
//   lstmn             the LSTM with a memory tape (Cheng, Dong & Lapata 2016, §3.1)
// each with `.backward(x, params, options, upstream)` (full BPTT). Shapes are checked here with
// messages that name the tensor; the maths is in src/kernels/memory_rnn.c (via
// src/api/memory_rnn.h). Docs: docs/memory-rnn.md.

import {
  AttnlabError,
  backwardArgs,
  check,
  requireSomeUpstream,
  checkOptions,
  fmtShape,
  show,
  snapshot,
  toTensor,
  withArena,
} from '../core.js';

const ALIGNS = { additive: 0, dot: 1 };
const SARNN_PARAMS = { additive: ['A', 'b', 'W_h', 'W_s', 'v'], dot: ['A', 'b', 'W_K', 'W_Q'] };
const LSTMN_PARAMS = ['W_h', 'W_x', 'W_ht', 'v', 'W', 'b'];

function readParams(what, params, names, known = names) {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new AttnlabError(`${what}: params must be an object holding ${names.join(', ')}`);
  }
  for (const k of Object.keys(params)) {
    if (!known.includes(k))
      throw new AttnlabError(`${what}: unknown parameter params.${k} (known: ${known.join(', ')})`);
  }
  const given = snapshot(params, what, 'params', known);
  const out = {};
  for (const k of names) {
    if (given[k] === undefined || given[k] === null) {
      throw new AttnlabError(`${what}: params.${k} is missing (this op needs ${names.join(', ')})`);
    }
    out[k] = toTensor(given[k], `params.${k}`);
  }
  return out;
}

/** legend: "[H, in]" or "[H, in] (H from params.W_h, in from x)": where each size came from. */
function expectShape(what, t, name, shape, legend) {
  if (t.shape.length !== shape.length || t.shape.some((d, i) => d !== shape[i])) {
    const cut = legend.indexOf(' (');
    const [dims, from] = cut < 0 ? [legend, ''] : [legend.slice(0, cut), legend.slice(cut)];
    throw new AttnlabError(
      `${what}: ${name} has shape ${fmtShape(t.shape)} but must be ${dims} = ${fmtShape(shape)}${from}`,
      'AL_ERR_SHAPE',
    );
  }
}

/** x [T,in] or [B,T,in] → { B, T, in, batched } */
function readX(what, input) {
  const X = toTensor(input, 'x', [2, 3]);
  const batched = X.shape.length === 3;
  const [B, T, n] = batched ? X.shape : [1, ...X.shape];
  return { X, B, T, in: n, batched };
}

/** Upstream gradients keyed by output name (required; a missing entry means zero). */
function readUpstream(what, upstream, shapes) {
  const names = Object.keys(shapes);
  if (typeof upstream !== 'object' || Array.isArray(upstream)) {
    throw new AttnlabError(
      `${what}: upstream must be an object keyed by output name (${names.join(', ')})`,
    );
  }
  for (const k of Object.keys(upstream)) {
    if (!names.includes(k)) {
      throw new AttnlabError(
        `${what}: upstream.${k} is not an output of this op (outputs: ${names.join(', ')})`,
      );
    }
  }
  const u = snapshot(upstream, what, 'upstream', names);
  requireSomeUpstream(what, u, names);
  const out = {};
  for (const k of Object.keys(u)) {
    if (u[k] === undefined || u[k] === null) continue;
    out[k] = toTensor(u[k], `upstream.${k}`);
    expectShape(what, out[k], `upstream.${k}`, shapes[k], `the shape of ${k}`);
  }
  return out;
}

function readAlign(what, options) {
  const o = checkOptions(options, what, ['align']);
  const align = o.align ?? 'additive';
  if (typeof align !== 'string' || !Object.hasOwn(ALIGNS, align)) {
    throw new AttnlabError(
      `${what}: unknown align ${show(align)} (known: ${Object.keys(ALIGNS).join(', ')})`,
    );
  }
  return align;
}

function prepareSarnn(what, input, params, options) {
  const align = readAlign(what, options);
  const names = SARNN_PARAMS[align];
  const p = readParams(what, params, names, [...new Set(Object.values(SARNN_PARAMS).flat())]);
  const s = readX(what, input);
  const [kName, qName] = align === 'additive' ? ['W_h', 'W_s'] : ['W_K', 'W_Q'];
  if (p.A.shape.length !== 2)
    throw new AttnlabError(
      `${what}: params.A must be [H, in+H], got ${fmtShape(p.A.shape)}`,
      'AL_ERR_SHAPE',
    );
  const H = p.A.shape[0];
  expectShape(
    what,
    p.A,
    'params.A',
    [H, s.in + H],
    "[H, in+H] (H from params.A's rows, in from x)",
  );
  expectShape(what, p.b, 'params.b', [H], '[H] (H from params.A)');
  if (p[kName].shape.length !== 2)
    throw new AttnlabError(
      `${what}: params.${kName} must be [da, H], got ${fmtShape(p[kName].shape)}`,
      'AL_ERR_SHAPE',
    );
  const da = p[kName].shape[0];
  expectShape(what, p[kName], `params.${kName}`, [da, H], '[da, H] (H from params.A)');
  expectShape(
    what,
    p[qName],
    `params.${qName}`,
    [da, H],
    `[da, H] (da from params.${kName}, H from params.A)`,
  );
  if (align === 'additive')
    expectShape(what, p.v, 'params.v', [da], `[da] (da from params.${kName})`);
  const lead = s.batched ? [s.B] : [];
  return {
    ...s,
    p,
    H,
    da,
    align,
    names,
    kName,
    qName,
    shapes: { h: [...lead, s.T, H], weights: [...lead, s.T, s.T] },
  };
}

/**
 * The SimpleRNN with self-attention over its own states.
 * @param {import('../index.d.ts').TensorLike} x [T, in] or [B, T, in]
 * @param {import('./memory-rnn.d.ts').SelfAttentionRNNParams} params { A [H, in+H], b [H], W_h, W_s [da, H], v [da] } (additive) or
 *   { A, b, W_K, W_Q [da, H] } (dot)
 * @param {import('./memory-rnn.d.ts').SelfAttentionRNNOptions} [options] { align: 'additive' (default) | 'dot' }
 * @returns {import('./memory-rnn.d.ts').SelfAttentionRNNResult} { h [T, H], weights [T, T] } (leading [B] when batched); weights row t holds the α
 *   that made c_t, zeros for i > t.
 */
export function selfAttentionRNN(x, params, options) {
  const what = 'selfAttentionRNN';
  const s = prepareSarnn(what, x, params, options);
  const { B, T, H, da, p } = s;
  return withArena(what, (w, ar) => {
    const px = ar.f32(s.X.data, 'x');
    const pp = s.names.map((k) => ar.f32(p[k].data, `params.${k}`));
    const nh = B * T * H;
    const nw = B * T * T;
    const ph = ar.alloc(nh * 4, 'h');
    const pw = ar.alloc(nw * 4, 'weights');
    const [pA, pb, pk, pq, pv = 0] = pp;
    check(
      w,
      w.al_self_attention_rnn_forward(
        ph,
        pw,
        px,
        pA,
        pb,
        pk,
        pq,
        pv,
        B,
        T,
        s.in,
        H,
        da,
        ALIGNS[s.align],
      ),
      what,
    );
    return {
      h: { data: ar.read(ph, nh), shape: s.shapes.h },
      weights: { data: ar.read(pw, nw), shape: s.shapes.weights },
    };
  });
}

/**
 * Gradients of selfAttentionRNN by backpropagation through time.
 * upstream (the last argument): { h?, weights? } shaped like the outputs; a missing entry means zero.
 * @returns {import('./memory-rnn.d.ts').SelfAttentionRNNGradients} { x, A, b, W_h, W_s, v } (additive) or { x, A, b, W_K, W_Q } (dot), shaped like the inputs.
 */
selfAttentionRNN.backward = function selfAttentionRNNBackward(x, params, ...rest) {
  const what = 'selfAttentionRNN.backward';
  const { options, upstream } = backwardArgs(what, rest, ['h', 'weights']);
  const s = prepareSarnn(what, x, params, options);
  const up = readUpstream(what, upstream, s.shapes);
  const { B, T, H, da, p } = s;
  return withArena(what, (w, ar) => {
    const px = ar.f32(s.X.data, 'x');
    const pp = s.names.map((k) => ar.f32(p[k].data, `params.${k}`));
    const pdh = up.h ? ar.f32(up.h.data, 'upstream.h') : 0;
    const pdw = up.weights ? ar.f32(up.weights.data, 'upstream.weights') : 0;
    const gx = ar.f32(new Float32Array(s.X.data.length), 'the gradient of x');
    const gp = s.names.map((k) =>
      ar.f32(new Float32Array(p[k].data.length), `the gradient of ${k}`),
    );
    const [pA, pb, pk, pq, pv = 0] = pp;
    const [gA, gb, gk, gq, gv = 0] = gp;
    check(
      w,
      w.al_self_attention_rnn_backward(
        gx,
        gA,
        gb,
        gk,
        gq,
        gv,
        pdh,
        pdw,
        px,
        pA,
        pb,
        pk,
        pq,
        pv,
        B,
        T,
        s.in,
        H,
        da,
        ALIGNS[s.align],
      ),
      what,
    );
    const out = { x: { data: ar.read(gx, s.X.data.length), shape: s.X.shape } };
    s.names.forEach((k, i) => {
      out[k] = { data: ar.read(gp[i], p[k].data.length), shape: p[k].shape };
    });
    return out;
  });
};

function prepareLstmn(what, input, params, options) {
  checkOptions(options, what, []);
  const p = readParams(what, params, LSTMN_PARAMS);
  const s = readX(what, input);
  if (p.W_h.shape.length !== 2)
    throw new AttnlabError(
      `${what}: params.W_h must be [H, H], got ${fmtShape(p.W_h.shape)}`,
      'AL_ERR_SHAPE',
    );
  const H = p.W_h.shape[0];
  expectShape(what, p.W_h, 'params.W_h', [H, H], '[H, H]');
  expectShape(what, p.W_x, 'params.W_x', [H, s.in], '[H, in] (H from params.W_h, in from x)');
  expectShape(what, p.W_ht, 'params.W_ht', [H, H], '[H, H] (H from params.W_h)');
  expectShape(what, p.v, 'params.v', [H], '[H] (H from params.W_h)');
  expectShape(
    what,
    p.W,
    'params.W',
    [4 * H, H + s.in],
    '[4H, H+in] (H from params.W_h, in from x)',
  );
  expectShape(what, p.b, 'params.b', [4 * H], '[4H] (H from params.W_h)');
  const lead = s.batched ? [s.B] : [];
  return {
    ...s,
    p,
    H,
    shapes: { h: [...lead, s.T, H], c: [...lead, s.T, H], weights: [...lead, s.T, s.T] },
  };
}

/**
 * The LSTMN (Cheng, Dong & Lapata 2016, §3.1): an LSTM attending over its memory tape.
 * @param {import('../index.d.ts').TensorLike} x [T, in] or [B, T, in]
 * @param {import('./memory-rnn.d.ts').LstmnParams} params { W_h [H,H], W_x [H,in], W_ht [H,H], v [H], W [4H, H+in], b [4H] } (gates i, f, g, o)
 * @returns {import('./memory-rnn.d.ts').LstmnResult} { h [T, H], c [T, H], weights [T, T] } (leading [B] when batched); weights row t holds
 *   the attention over steps i < t; row 0 is all zeros.
 */
export function lstmn(x, params, options) {
  const what = 'lstmn';
  const s = prepareLstmn(what, x, params, options);
  const { B, T, H, p } = s;
  return withArena(what, (w, ar) => {
    const px = ar.f32(s.X.data, 'x');
    const pp = LSTMN_PARAMS.map((k) => ar.f32(p[k].data, `params.${k}`));
    const nh = B * T * H;
    const nw = B * T * T;
    const ph = ar.alloc(nh * 4, 'h');
    const pc = ar.alloc(nh * 4, 'c');
    const pw = ar.alloc(nw * 4, 'weights');
    check(w, w.al_lstmn_forward(ph, pc, pw, px, ...pp, B, T, s.in, H), what);
    return {
      h: { data: ar.read(ph, nh), shape: s.shapes.h },
      c: { data: ar.read(pc, nh), shape: s.shapes.c },
      weights: { data: ar.read(pw, nw), shape: s.shapes.weights },
    };
  });
}

/**
 * Gradients of lstmn by backpropagation through time (through the attention over the tape).
 * upstream (the last argument): { h?, c?, weights? } shaped like the outputs; a missing entry means zero.
 * @returns {import('./memory-rnn.d.ts').LstmnGradients} { x, W_h, W_x, W_ht, v, W, b }, shaped like the inputs.
 */
lstmn.backward = function lstmnBackward(x, params, ...rest) {
  const what = 'lstmn.backward';
  const { options, upstream } = backwardArgs(what, rest, ['h', 'c', 'weights']);
  const s = prepareLstmn(what, x, params, options);
  const up = readUpstream(what, upstream, s.shapes);
  const { B, T, H, p } = s;
  return withArena(what, (w, ar) => {
    const px = ar.f32(s.X.data, 'x');
    const pp = LSTMN_PARAMS.map((k) => ar.f32(p[k].data, `params.${k}`));
    const pdh = up.h ? ar.f32(up.h.data, 'upstream.h') : 0;
    const pdc = up.c ? ar.f32(up.c.data, 'upstream.c') : 0;
    const pdw = up.weights ? ar.f32(up.weights.data, 'upstream.weights') : 0;
    const gx = ar.f32(new Float32Array(s.X.data.length), 'the gradient of x');
    const gp = LSTMN_PARAMS.map((k) =>
      ar.f32(new Float32Array(p[k].data.length), `the gradient of ${k}`),
    );
    // C order: dW_h, dW_x, dW_ht, dv, dW, db (the same as LSTMN_PARAMS)
    check(w, w.al_lstmn_backward(gx, ...gp, pdh, pdc, pdw, px, ...pp, B, T, s.in, H), what);
    const out = { x: { data: ar.read(gx, s.X.data.length), shape: s.X.shape } };
    LSTMN_PARAMS.forEach((k, i) => {
      out[k] = { data: ar.read(gp[i], p[k].data.length), shape: p[k].shape };
    });
    return out;
  });
};
