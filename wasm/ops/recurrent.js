// attnlab/wasm/ops/recurrent.js: whole-sequence RNN (tanh, relu), LSTM and GRU, multi-layer and
// bidirectional, forward and backward, as torch.nn.RNN / nn.LSTM / nn.GRU with batch_first=True.
//
//   const { output, hN, cN } = ops.lstm(x, params, { h0, c0 });        // params = a state_dict
//   const grads = ops.lstm.backward(x, params, { h0, c0 }, { output: dOut, hN: dHn });
//   grads.x, grads.h0, grads.c0, grads.weight_ih_l0, ...
//
//   const p = prepare(params);  ops.gru(x, p);  ...  p.dispose();   // weights resident
//
// Here: option and shape checks with messages that name the tensor (params.weight_hh_l1, h0,
// upstream.output), the state_dict key layout, copying in and out (params prepared with
// prepare(), wasm/prepared.js, are read in place: checked once, never copied per call). The maths is in
// src/kernels/recurrent.c (equations: docs/recurrent.md); the C entry points are
// al_recurrent_forward / al_recurrent_backward (src/api/recurrent.h).

import {
  AttnlabError,
  backwardArgs,
  check,
  requireSomeUpstream,
  checkOptions,
  fmtShape,
  sameShape,
  show,
  snapshot,
  toTensor,
  withArena,
} from '../core.js';
import { inputPtr, paramsEntries, sizeOf, tensorArg } from '../prepared.js';

const CELL = { rnn_tanh: 0, rnn_relu: 1, lstm: 2, gru: 3 };
const GATES = { rnn: 1, lstm: 4, gru: 3 };
const OPTIONS = {
  rnn: ['bidirectional', 'numLayers', 'nonlinearity', 'h0', 'batchFirst'],
  lstm: ['bidirectional', 'numLayers', 'h0', 'c0', 'batchFirst'],
  gru: ['bidirectional', 'numLayers', 'h0', 'batchFirst'],
};

/** [A, B, C] -> [B, A, C] (batch_first=false inputs and results). */
function swap01(data, A, B, C) {
  const out = new Float32Array(data.length);
  for (let a = 0; a < A; a++) {
    for (let b = 0; b < B; b++)
      out.set(data.subarray((a * B + b) * C, (a * B + b + 1) * C), (b * A + a) * C);
  }
  return out;
}

/** The state_dict keys of one (layer, direction), in the C API's order. */
function layerKeys(l, d, bias) {
  const s = `_l${l}${d ? '_reverse' : ''}`;
  return [
    `weight_ih${s}`,
    `weight_hh${s}`,
    bias ? `bias_ih${s}` : null,
    bias ? `bias_hh${s}` : null,
  ];
}

/** Validate everything one call needs; the result is what forward/backward hand to C. */
function setup(kind, what, input, params, options) {
  const allowed = OPTIONS[kind];
  const o = checkOptions(options, what, [...new Set([...allowed, 'c0', 'nonlinearity'])]);
  if ('c0' in o && kind !== 'lstm')
    throw new AttnlabError(`${what}: option 'c0' is for lstm only (a ${kind} has no cell state)`);
  if ('nonlinearity' in o && kind !== 'rnn')
    throw new AttnlabError(
      `${what}: option 'nonlinearity' is for rnn only (${kind} gates are fixed)`,
    );
  const L = o.numLayers ?? 1;
  if (!Number.isInteger(L) || L < 1)
    throw new AttnlabError(`${what}: numLayers must be an integer >= 1, got ${show(o.numLayers)}`);
  for (const flag of ['bidirectional', 'batchFirst']) {
    if (o[flag] !== undefined && typeof o[flag] !== 'boolean')
      throw new AttnlabError(`${what}: ${flag} must be true or false, got ${show(o[flag])}`);
  }
  const D = o.bidirectional ? 2 : 1;
  const batchFirst = o.batchFirst ?? true;
  let cell = CELL[kind];
  if (kind === 'rnn') {
    const nl = o.nonlinearity ?? 'tanh';
    if (nl !== 'tanh' && nl !== 'relu')
      throw new AttnlabError(
        `${what}: nonlinearity must be 'tanh' or 'relu', got ${show(o.nonlinearity)}`,
      );
    cell = CELL[`rnn_${nl}`];
  }

  const X = toTensor(input, 'x', [2, 3]);
  const batched = X.shape.length === 3;
  let B = 1;
  let T;
  let I;
  let xdata = X.data;
  if (batched && batchFirst) [B, T, I] = X.shape;
  else if (batched) {
    [T, B, I] = X.shape;
    xdata = swap01(X.data, T, B, I);
  } else [T, I] = X.shape;

  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new AttnlabError(
      `${what}: params must be an object of tensors keyed like the PyTorch state_dict (weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0, ...), or prepare() of one`,
    );
  }
  // a PreparedParams (prepare()) stands for its tensors; a caller's object is read once
  const entries = paramsEntries(params, what);
  params = entries === params ? snapshot(params, what, 'params') : entries;
  const G = GATES[kind];
  const bias = 'bias_ih_l0' in params || 'bias_hh_l0' in params;
  // the last layer's weights must exist before we list L layers' keys (numLayers: 1e9 would
  // otherwise build a billion key arrays before any error)
  const last = `weight_ih_l${L - 1}`;
  if (!(last in params)) {
    throw new AttnlabError(`${what}: missing params.${last} (numLayers is ${L})`);
  }
  const keys = [];
  for (let l = 0; l < L; l++) for (let d = 0; d < D; d++) keys.push(layerKeys(l, d, bias));
  const expected = new Set(keys.flat().filter(Boolean));
  for (const k of expected) {
    if (params[k] === undefined || params[k] === null) {
      const hint = k.startsWith('bias')
        ? ' (biases come as a pair for every layer, or not at all for bias=False)'
        : '';
      throw new AttnlabError(
        `${what}: missing params.${k} for a ${L}-layer${D === 2 ? ' bidirectional' : ''} ${kind}${hint}`,
      );
    }
  }
  for (const k of Object.keys(params)) {
    if (expected.has(k)) continue;
    let hint = '';
    const m = /^(weight|bias)_(ih|hh)_l(\d+)(_reverse)?$/.exec(k);
    if (m && Number(m[3]) >= L)
      hint = `; it belongs to a deeper model: set numLayers to ${Number(m[3]) + 1}`;
    else if (m && m[4] && D === 1)
      hint = '; it belongs to a bidirectional model: set bidirectional: true';
    throw new AttnlabError(`${what}: unexpected params.${k}${hint}`);
  }
  const tensors = {};
  const hh0 = tensorArg(params.weight_hh_l0, 'params.weight_hh_l0', [2], what);
  if (hh0.shape[0] % G !== 0 || hh0.shape[0] / G !== hh0.shape[1]) {
    throw new AttnlabError(
      `${what}: params.weight_hh_l0 has shape ${fmtShape(hh0.shape)} but must be [${G}·hidden_size, hidden_size]`,
      'AL_ERR_SHAPE',
    );
  }
  const H = hh0.shape[1];
  tensors.weight_hh_l0 = hh0; // validated once: copying and checking big weights is the JS-side cost
  for (let l = 0; l < L; l++) {
    const Il = l === 0 ? I : D * H;
    const inName =
      l === 0 ? `input_size ${I} from x` : `${D === 2 ? '2·' : ''}hidden_size from layer ${l - 1}`;
    for (let d = 0; d < D; d++) {
      const [wih, whh, bih, bhh] = keys[l * D + d];
      /** @type {[string, number[], string][]} */
      const want = [
        [wih, [G * H, Il], `${G > 1 ? `${G}·` : ''}hidden_size × ${inName}`],
        [whh, [G * H, H], `${G > 1 ? `${G}·` : ''}hidden_size × hidden_size`],
      ];
      if (bih)
        want.push(
          [bih, [G * H], `${G > 1 ? `${G}·` : ''}hidden_size`],
          [bhh, [G * H], `${G > 1 ? `${G}·` : ''}hidden_size`],
        );
      for (const [name, shape, why] of want) {
        const t = tensors[name] ?? tensorArg(params[name], `params.${name}`, null, what);
        if (!sameShape(t.shape, shape)) {
          throw new AttnlabError(
            `${what}: params.${name} has shape ${fmtShape(t.shape)} but must be ${fmtShape(shape)} (${why}, hidden_size ${H} from params.weight_hh_l0)`,
            'AL_ERR_SHAPE',
          );
        }
        tensors[name] = t;
      }
    }
  }

  const hShape = batched ? [L * D, B, H] : [L * D, H];
  const state = (v, name) => {
    if (v === undefined || v === null) return null;
    const t = toTensor(v, name);
    if (!sameShape(t.shape, hShape)) {
      throw new AttnlabError(
        `${what}: ${name} has shape ${fmtShape(t.shape)} but must be ${fmtShape(hShape)} (numLayers·num_directions${batched ? ', batch' : ''}, hidden_size)`,
        'AL_ERR_SHAPE',
      );
    }
    return t;
  };
  const h0 = state(o.h0, 'h0');
  const c0 = kind === 'lstm' ? state(o.c0, 'c0') : null;
  const outShape = !batched ? [T, D * H] : batchFirst ? [B, T, D * H] : [T, B, D * H];
  return {
    cell,
    B,
    T,
    I,
    H,
    L,
    D,
    batched,
    batchFirst,
    xdata,
    xShape: X.shape,
    keys,
    tensors,
    h0,
    c0,
    hShape,
    outShape,
  };
}

/** Copy the params in (prepared ones are used in place) and return a pointer to the C API's
 * pointer table (L·D·4 entries). */
function paramTable(s, ar) {
  const ptrs = new Int32Array(s.keys.length * 4);
  s.keys.forEach((ks, k) =>
    ks.forEach((name, j) => {
      ptrs[k * 4 + j] = name ? inputPtr(ar, s.tensors[name], `params.${name}`) : 0;
    }),
  );
  return ar.i32(ptrs, 'the params table');
}

/** An output [B,T,D·H] laid out as the caller's x was (batch_first or not, unbatched). */
function fromBatchFirst(s, data) {
  if (s.batched && !s.batchFirst) return swap01(data, s.B, s.T, data.length / (s.B * s.T));
  return data;
}

function forward(kind, input, params, options) {
  const s = setup(kind, kind, input, params, options);
  const { B, T, H, L, D } = s;
  const nOut = B * T * D * H;
  const nH = L * D * B * H;
  return withArena(kind, (x, ar) => {
    const px = ar.f32(s.xdata, 'x');
    const pp = paramTable(s, ar);
    const ph0 = s.h0 ? ar.f32(s.h0.data, 'h0') : 0;
    const pc0 = s.c0 ? ar.f32(s.c0.data, 'c0') : 0;
    const po = ar.alloc(nOut * 4, 'the output');
    const phn = ar.alloc(nH * 4, 'hN');
    const pcn = kind === 'lstm' ? ar.alloc(nH * 4, 'cN') : 0;
    check(
      x,
      x.al_recurrent_forward(s.cell, B, T, s.I, H, L, D - 1, px, pp, ph0, pc0, po, phn, pcn),
      kind,
    );
    const result = {
      output: { data: fromBatchFirst(s, ar.read(po, nOut)), shape: s.outShape },
      hN: { data: ar.read(phn, nH), shape: s.hShape.slice() },
    };
    if (kind === 'lstm') result.cN = { data: ar.read(pcn, nH), shape: s.hShape.slice() };
    return result;
  });
}

/** backward(x, params, upstream) or backward(x, params, options, upstream): upstream is last. */
function backward(kind, input, params, rest) {
  const what = `${kind}.backward`;
  const allowed = kind === 'lstm' ? ['output', 'hN', 'cN'] : ['output', 'hN'];
  const { options, upstream } = backwardArgs(what, rest, allowed);
  const s = setup(kind, what, input, params, options);
  const { B, T, I, H, L, D } = s;
  if (typeof upstream !== 'object' || Array.isArray(upstream)) {
    throw new AttnlabError(
      `${what}: upstream must be an object { ${allowed.join(', ')} } of gradients (a missing entry means zero)`,
    );
  }
  for (const k of Object.keys(upstream)) {
    if (!allowed.includes(k))
      throw new AttnlabError(`${what}: unknown upstream.${k} (known: ${allowed.join(', ')})`);
  }
  const up = snapshot(upstream, what, 'upstream', allowed);
  requireSomeUpstream(what, up, allowed);
  const grad = (name, shape) => {
    if (up[name] === undefined || up[name] === null) return null;
    const t = toTensor(up[name], `upstream.${name}`);
    if (!sameShape(t.shape, shape)) {
      throw new AttnlabError(
        `${what}: upstream.${name} has shape ${fmtShape(t.shape)} but must be ${fmtShape(shape)}, the shape of ${name}`,
        'AL_ERR_SHAPE',
      );
    }
    return t;
  };
  const dOut = grad('output', s.outShape);
  const dHn = grad('hN', s.hShape);
  const dCn = kind === 'lstm' ? grad('cN', s.hShape) : null;
  const nX = B * T * I;
  const nH = L * D * B * H;
  return withArena(what, (x, ar) => {
    const px = ar.f32(s.xdata, 'x');
    const pp = paramTable(s, ar);
    const ph0 = s.h0 ? ar.f32(s.h0.data, 'h0') : 0;
    const pc0 = s.c0 ? ar.f32(s.c0.data, 'c0') : 0;
    const pdo = dOut
      ? ar.f32(
          s.batched && !s.batchFirst ? swap01(dOut.data, T, B, D * H) : dOut.data,
          'upstream.output',
        )
      : 0;
    const pdh = dHn ? ar.f32(dHn.data, 'upstream.hN') : 0;
    const pdc = dCn ? ar.f32(dCn.data, 'upstream.cN') : 0;
    const pdx = ar.alloc(nX * 4, 'the x gradient');
    const pdh0 = ar.alloc(nH * 4, 'the h0 gradient');
    const pdc0 = kind === 'lstm' ? ar.alloc(nH * 4, 'the c0 gradient') : 0;
    const gradPtrs = new Int32Array(s.keys.length * 4);
    s.keys.forEach((ks, k) =>
      ks.forEach((name, j) => {
        gradPtrs[k * 4 + j] = name
          ? ar.alloc(sizeOf(s.tensors[name]) * 4, `the ${name} gradient`)
          : 0;
      }),
    );
    const pdp = ar.i32(gradPtrs, 'the gradient table');
    check(
      x,
      x.al_recurrent_backward(
        s.cell,
        B,
        T,
        I,
        H,
        L,
        D - 1,
        px,
        pp,
        ph0,
        pc0,
        pdo,
        pdh,
        pdc,
        pdx,
        pdp,
        pdh0,
        pdc0,
      ),
      what,
    );
    const xData = ar.read(pdx, nX);
    const out = {
      x: {
        data: s.batched && !s.batchFirst ? swap01(xData, B, T, I) : xData,
        shape: s.xShape.slice(),
      },
      h0: { data: ar.read(pdh0, nH), shape: s.hShape.slice() },
    };
    if (kind === 'lstm') out.c0 = { data: ar.read(pdc0, nH), shape: s.hShape.slice() };
    s.keys.forEach((ks, k) =>
      ks.forEach((name, j) => {
        if (name)
          out[name] = {
            data: ar.read(gradPtrs[k * 4 + j], sizeOf(s.tensors[name])),
            shape: s.tensors[name].shape.slice(),
          };
      }),
    );
    return out;
  });
}

/**
 * Elman RNN over a whole sequence, as torch.nn.RNN(batch_first=True):
 * h_t = act(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh), act 'tanh' (default) or 'relu'.
 * @param {import('../index.d.ts').TensorLike} x [T, input_size] or [B, T, input_size]
 * @param {Record<string, import('../index.d.ts').TensorLike>} params the state_dict
 * @param {import('./recurrent.d.ts').RnnOptions} [options]
 */
export function rnn(x, params, options) {
  return forward('rnn', x, params, options);
}
rnn.backward = (x, params, ...rest) => backward('rnn', x, params, rest);

/**
 * LSTM over a whole sequence, as torch.nn.LSTM(batch_first=True); gates i, f, g, o.
 * @param {import('../index.d.ts').TensorLike} x [T, input_size] or [B, T, input_size]
 * @param {Record<string, import('../index.d.ts').TensorLike>} params the state_dict
 * @param {import('./recurrent.d.ts').LstmOptions} [options]
 */
export function lstm(x, params, options) {
  return forward('lstm', x, params, options);
}
lstm.backward = (x, params, ...rest) => backward('lstm', x, params, rest);

/**
 * GRU over a whole sequence, as torch.nn.GRU(batch_first=True); gates r, z, n with
 * n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn)).
 * @param {import('../index.d.ts').TensorLike} x [T, input_size] or [B, T, input_size]
 * @param {Record<string, import('../index.d.ts').TensorLike>} params the state_dict
 * @param {import('./recurrent.d.ts').GruOptions} [options]
 */
export function gru(x, params, options) {
  return forward('gru', x, params, options);
}
gru.backward = (x, params, ...rest) => backward('gru', x, params, rest);
