// attnlab/wasm/ops/transformer-layers.js: one transformer encoder or decoder layer, identical to
// torch.nn.TransformerEncoderLayer / TransformerDecoderLayer (batch_first, dropout 0, eval), forward
// and backward. Shapes, options and the state-dict parameters are checked here with messages that
// name them; the maths is in src/kernels/transformer_layers.c (which chains the multi-head
// attention, layer norm, activation and sgemm kernels). Docs: docs/transformer-layers.md.

import {
  AttnlabError,
  backwardArgs,
  check,
  checkOptions,
  f32Option,
  fmtShape,
  readUpstream,
  sameShape,
  show,
  snapshot,
  toMask,
  toTensor,
  withArena,
} from '../core.js';

// The C params array order (al_tl_param in src/api/transformer_layers.h).
const ALL_PARAMS = [
  'self_attn.in_proj_weight',
  'self_attn.in_proj_bias',
  'self_attn.out_proj.weight',
  'self_attn.out_proj.bias',
  'multihead_attn.in_proj_weight',
  'multihead_attn.in_proj_bias',
  'multihead_attn.out_proj.weight',
  'multihead_attn.out_proj.bias',
  'linear1.weight',
  'linear1.bias',
  'linear2.weight',
  'linear2.bias',
  'norm1.weight',
  'norm1.bias',
  'norm2.weight',
  'norm2.bias',
  'norm3.weight',
  'norm3.bias',
];
const DECODER_ONLY = new Set(
  ALL_PARAMS.filter((n) => n.startsWith('multihead_attn.') || n.startsWith('norm3.')),
);
const ENCODER_PARAMS = ALL_PARAMS.filter((n) => !DECODER_ONLY.has(n));
const ACTIVATIONS = { relu: 2, gelu: 3 }; // AL_ACT_RELU, AL_ACT_GELU

const numel = (shape) => shape.reduce((m, d) => m * d, 1);

/** The expected shape of each parameter for model size E and feed-forward size F. */
function paramShape(name, E, F) {
  if (name.endsWith('in_proj_weight')) return [3 * E, E];
  if (name.endsWith('in_proj_bias')) return [3 * E];
  if (name.endsWith('out_proj.weight')) return [E, E];
  if (name === 'linear1.weight') return [F, E];
  if (name === 'linear1.bias') return [F];
  if (name === 'linear2.weight') return [E, F];
  return [E]; // out_proj.bias, linear2.bias, norm*.weight, norm*.bias
}

function readParams(what, params, names, E) {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new AttnlabError(
      `${what}: params must be an object keyed by the PyTorch state dict names (${names.join(', ')})`,
    );
  }
  for (const k of Object.keys(params)) {
    if (!names.includes(k))
      throw new AttnlabError(
        `${what}: unknown parameter params['${k}'] (known: ${names.join(', ')})`,
      );
  }
  params = snapshot(params, what, 'params', names); // every value read once from here on
  for (const n of names) {
    if (params[n] === undefined || params[n] === null) {
      throw new AttnlabError(
        `${what}: params['${n}'] is missing (expected shape ${fmtShape(paramShape(n, E, 'F'))})`,
      );
    }
  }
  const w1 = toTensor(params['linear1.weight'], "params['linear1.weight']", [2]);
  if (w1.shape[1] !== E) {
    throw new AttnlabError(
      `${what}: params['linear1.weight'] has shape ${fmtShape(w1.shape)} but must be [dim_feedforward, ${E}]`,
      'AL_ERR_SHAPE',
    );
  }
  const F = w1.shape[0];
  const P = {};
  for (const n of names) {
    const t = n === 'linear1.weight' ? w1 : toTensor(params[n], `params['${n}']`);
    const want = paramShape(n, E, F);
    if (!sameShape(t.shape, want)) {
      // F is read from linear1.weight, so a disagreement about F names both tensors
      const why =
        n.startsWith('linear') && t.shape.includes(F) === false
          ? ` (dim_feedforward ${F} is read from params['linear1.weight'], shape ${fmtShape(w1.shape)})`
          : '';
      throw new AttnlabError(
        `${what}: params['${n}'] has shape ${fmtShape(t.shape)} but must be ${fmtShape(want)}${why}`,
        'AL_ERR_SHAPE',
      );
    }
    P[n] = t;
  }
  return { P, F };
}

/** A key padding mask [N] (unbatched) or [B, N] / [N] broadcast (batched), as B·N bytes. */
function keyMask(m, name, batched, B, N) {
  if (m === undefined || m === null) return null;
  const mask = toMask(m, name, batched ? [[B, N], [N]] : [[N]]);
  if (batched && mask.shape.length === 1 && B > 1) {
    const full = new Uint8Array(B * N);
    for (let b = 0; b < B; b++) full.set(mask.data, b * N);
    return full;
  }
  return mask.data;
}

function prepare(what, dec, xIn, memIn, params, options) {
  const o = checkOptions(
    options,
    what,
    dec
      ? [
          'nhead',
          'normFirst',
          'activation',
          'causal',
          'tgtKeyPaddingMask',
          'memoryKeyPaddingMask',
          'layerNormEps',
        ]
      : ['nhead', 'normFirst', 'activation', 'causal', 'keyPaddingMask', 'layerNormEps'],
  );
  const X = toTensor(xIn, 'x', [2, 3]);
  const batched = X.shape.length === 3;
  const B = batched ? X.shape[0] : 1;
  const [T, E] = X.shape.slice(-2);
  let M = null;
  let S = 1;
  if (dec) {
    M = toTensor(memIn, 'memory', [2, 3]);
    if (M.shape.length !== X.shape.length) {
      throw new AttnlabError(
        `${what}: x has rank ${X.shape.length} but memory has rank ${M.shape.length}; they must match`,
        'AL_ERR_SHAPE',
      );
    }
    if (batched && M.shape[0] !== B)
      throw new AttnlabError(
        `${what}: x has batch ${B} but memory has ${M.shape[0]}`,
        'AL_ERR_SHAPE',
      );
    const Em = M.shape[M.shape.length - 1];
    if (Em !== E)
      throw new AttnlabError(
        `${what}: x has ${E} features but memory has ${Em}; they must share d_model`,
        'AL_ERR_SHAPE',
      );
    S = M.shape[M.shape.length - 2];
  }
  if (o.nhead === undefined || o.nhead === null) {
    throw new AttnlabError(
      `${what}: options.nhead is missing (the number of heads, e.g. { nhead: 2 })`,
    );
  }
  if (!Number.isInteger(o.nhead) || o.nhead < 1)
    throw new AttnlabError(`${what}: nhead must be an integer >= 1, got ${show(o.nhead)}`);
  const H = o.nhead;
  if (E % H !== 0) {
    throw new AttnlabError(
      `${what}: d_model ${E} (the last dimension of x, shape ${fmtShape(X.shape)}) is not divisible by nhead ${H}`,
      'AL_ERR_SHAPE',
    );
  }
  for (const flag of ['normFirst', 'causal']) {
    if (o[flag] !== undefined && o[flag] !== null && typeof o[flag] !== 'boolean') {
      throw new AttnlabError(
        `${what}: options.${flag} must be true or false, got ${show(o[flag])}`,
      );
    }
  }
  const actName = o.activation ?? 'relu';
  if (typeof actName !== 'string' || !Object.hasOwn(ACTIVATIONS, actName)) {
    throw new AttnlabError(`${what}: activation must be 'relu' or 'gelu', got ${show(actName)}`);
  }
  const eps = f32Option(what, 'layerNormEps', o.layerNormEps ?? 1e-5, { positive: true });
  const { P, F } = readParams(what, params, dec ? ALL_PARAMS : ENCODER_PARAMS, E);
  const selfMask = dec
    ? keyMask(o.tgtKeyPaddingMask, 'tgtKeyPaddingMask', batched, B, T)
    : keyMask(o.keyPaddingMask, 'keyPaddingMask', batched, B, T);
  const memMask = dec
    ? keyMask(o.memoryKeyPaddingMask, 'memoryKeyPaddingMask', batched, B, S)
    : null;
  const causal = o.causal === undefined || o.causal === null ? dec : !!o.causal;
  return {
    X,
    M,
    P,
    F,
    B,
    T,
    S,
    E,
    H,
    selfMask,
    memMask,
    lead: batched ? [B] : [],
    normFirst: o.normFirst ? 1 : 0,
    act: ACTIVATIONS[actName],
    causal: causal ? 1 : 0,
    eps,
    names: dec ? ALL_PARAMS : ENCODER_PARAMS,
  };
}

/** Inputs into wasm memory; the params as the C array of 18 pointers (0 for unused entries). */
function copyIn(ar, p) {
  const ptrs = new Int32Array(ALL_PARAMS.length);
  ALL_PARAMS.forEach((n, i) => {
    if (p.P[n]) ptrs[i] = ar.f32(p.P[n].data, `params['${n}']`);
  });
  return {
    x: ar.f32(p.X.data, 'x'),
    mem: p.M ? ar.f32(p.M.data, 'memory') : 0,
    params: ar.i32(ptrs, 'the parameter table'),
    selfMask: p.selfMask ? ar.u8(p.selfMask, 'the key padding mask') : 0,
    memMask: p.memMask ? ar.u8(p.memMask, 'memoryKeyPaddingMask') : 0,
  };
}

/** Zeroed gradient buffers for x, (memory,) and every parameter; the C table of their pointers. */
function gradBuffers(ar, p) {
  const g = { x: [ar.f32(new Float32Array(p.X.data.length), 'the x gradient'), p.X.shape] };
  if (p.M) g.memory = [ar.f32(new Float32Array(p.M.data.length), 'the memory gradient'), p.M.shape];
  const ptrs = new Int32Array(ALL_PARAMS.length);
  ALL_PARAMS.forEach((n, i) => {
    if (!p.P[n]) return;
    g[n] = [ar.f32(new Float32Array(p.P[n].data.length), `the ${n} gradient`), p.P[n].shape];
    ptrs[i] = g[n][0];
  });
  return { g, table: ar.i32(ptrs, 'the gradient table') };
}

function readGrads(ar, g) {
  const out = {};
  for (const [name, [ptr, shape]] of Object.entries(g)) {
    out[name] = { data: ar.read(ptr, numel(shape)), shape: shape.slice() };
  }
  return out;
}

/**
 * One transformer encoder layer, identical to torch.nn.TransformerEncoderLayer(d_model=E, nhead,
 * dim_feedforward=F, dropout=0, activation, batch_first=True, norm_first) in eval mode.
 * Post-norm: x = norm1(x + SA(x)); x = norm2(x + FF(x)). Pre-norm: x = x + SA(norm1(x));
 * x = x + FF(norm2(x)). FF(x) = linear2(act(linear1(x))).
 * @param {import('../index.d.ts').TensorLike} x [T,E] or [B,T,E]
 * @param {import('./transformer-layers.d.ts').EncoderLayerParams} params the layer's state dict
 * @param {import('./transformer-layers.d.ts').EncoderLayerOptions} options nhead is required
 * @returns {import('./transformer-layers.d.ts').EncoderLayerResult} output [...,T,E], weights [...,h,T,T]
 */
export function transformerEncoderLayer(x, params, options) {
  const what = 'transformerEncoderLayer';
  const p = prepare(what, false, x, null, params, options);
  const { B, T, E, F, H, lead } = p;
  return withArena(what, (w, ar) => {
    const c = copyIn(ar, p);
    const po = ar.alloc(B * T * E * 4, 'the output');
    const pa = ar.alloc(B * H * T * T * 4, 'the weights');
    check(
      w,
      w.al_transformer_encoder_forward(
        po,
        pa,
        c.x,
        c.params,
        B,
        T,
        E,
        F,
        H,
        p.normFirst,
        p.act,
        p.causal,
        c.selfMask,
        p.eps,
      ),
      what,
    );
    return {
      output: { data: ar.read(po, B * T * E), shape: [...lead, T, E] },
      weights: { data: ar.read(pa, B * H * T * T), shape: [...lead, H, T, T] },
    };
  });
}

/**
 * The vector-Jacobian product of transformerEncoderLayer: same arguments, then `upstream`
 * { output?, weights? } (missing = zero). Returns { x, 'self_attn.in_proj_weight', ... } with
 * the gradient of x and of every parameter.
 */
transformerEncoderLayer.backward = function backward(x, params, ...rest) {
  const what = 'transformerEncoderLayer.backward';
  const { options, upstream } = backwardArgs(what, rest, ['output', 'weights']);
  const p = prepare(what, false, x, null, params, options);
  const { B, T, E, F, H, lead } = p;
  const up = readUpstream(what, upstream, { output: [...lead, T, E], weights: [...lead, H, T, T] });
  return withArena(what, (w, ar) => {
    const c = copyIn(ar, p);
    const pdo = up.output ? ar.f32(up.output.data, 'upstream.output') : 0;
    const pda = up.weights ? ar.f32(up.weights.data, 'upstream.weights') : 0;
    const { g, table } = gradBuffers(ar, p);
    check(
      w,
      w.al_transformer_encoder_backward(
        g.x[0],
        table,
        pdo,
        pda,
        c.x,
        c.params,
        B,
        T,
        E,
        F,
        H,
        p.normFirst,
        p.act,
        p.causal,
        c.selfMask,
        p.eps,
      ),
      what,
    );
    return readGrads(ar, g);
  });
};

/**
 * One transformer decoder layer, identical to torch.nn.TransformerDecoderLayer(d_model=E, nhead,
 * dim_feedforward=F, dropout=0, activation, batch_first=True, norm_first) in eval mode, with the
 * causal tgt_mask by default. Post-norm: x = norm1(x + SA(x)); x = norm2(x + MHA(x, memory));
 * x = norm3(x + FF(x)); pre-norm: x = x + SA(norm1(x)); x = x + MHA(norm2(x), memory);
 * x = x + FF(norm3(x)).
 * @param {import('../index.d.ts').TensorLike} x [T,E] or [B,T,E] (tgt)
 * @param {import('../index.d.ts').TensorLike} memory [S,E] or [B,S,E]
 * @param {import('./transformer-layers.d.ts').DecoderLayerParams} params the layer's state dict
 * @param {import('./transformer-layers.d.ts').DecoderLayerOptions} options nhead is required
 * @returns {import('./transformer-layers.d.ts').DecoderLayerResult}
 *   output [...,T,E], selfWeights [...,h,T,T], crossWeights [...,h,T,S]
 */
export function transformerDecoderLayer(x, memory, params, options) {
  const what = 'transformerDecoderLayer';
  const p = prepare(what, true, x, memory, params, options);
  const { B, T, S, E, F, H, lead } = p;
  return withArena(what, (w, ar) => {
    const c = copyIn(ar, p);
    const po = ar.alloc(B * T * E * 4, 'the output');
    const ps = ar.alloc(B * H * T * T * 4, 'the self-attention weights');
    const pc = ar.alloc(B * H * T * S * 4, 'the cross-attention weights');
    check(
      w,
      w.al_transformer_decoder_forward(
        po,
        ps,
        pc,
        c.x,
        c.mem,
        c.params,
        B,
        T,
        S,
        E,
        F,
        H,
        p.normFirst,
        p.act,
        p.causal,
        c.selfMask,
        c.memMask,
        p.eps,
      ),
      what,
    );
    return {
      output: { data: ar.read(po, B * T * E), shape: [...lead, T, E] },
      selfWeights: { data: ar.read(ps, B * H * T * T), shape: [...lead, H, T, T] },
      crossWeights: { data: ar.read(pc, B * H * T * S), shape: [...lead, H, T, S] },
    };
  });
}

/**
 * The vector-Jacobian product of transformerDecoderLayer: same arguments, then `upstream`
 * { output?, selfWeights?, crossWeights? } (missing = zero). Returns { x, memory,
 * 'self_attn.in_proj_weight', ..., 'norm3.bias' }.
 */
transformerDecoderLayer.backward = function backward(x, memory, params, ...rest) {
  const what = 'transformerDecoderLayer.backward';
  const { options, upstream } = backwardArgs(what, rest, ['output', 'selfWeights', 'crossWeights']);
  const p = prepare(what, true, x, memory, params, options);
  const { B, T, S, E, F, H, lead } = p;
  const up = readUpstream(what, upstream, {
    output: [...lead, T, E],
    selfWeights: [...lead, H, T, T],
    crossWeights: [...lead, H, T, S],
  });
  return withArena(what, (w, ar) => {
    const c = copyIn(ar, p);
    const pdo = up.output ? ar.f32(up.output.data, 'upstream.output') : 0;
    const pds = up.selfWeights ? ar.f32(up.selfWeights.data, 'upstream.selfWeights') : 0;
    const pdc = up.crossWeights ? ar.f32(up.crossWeights.data, 'upstream.crossWeights') : 0;
    const { g, table } = gradBuffers(ar, p);
    check(
      w,
      w.al_transformer_decoder_backward(
        g.x[0],
        g.memory[0],
        table,
        pdo,
        pds,
        pdc,
        c.x,
        c.mem,
        c.params,
        B,
        T,
        S,
        E,
        F,
        H,
        p.normFirst,
        p.act,
        p.causal,
        c.selfMask,
        c.memMask,
        p.eps,
      ),
      what,
    );
    return readGrads(ar, g);
  });
};
