// attnlab/wasm/ops/transformer-attention.js: multi-head attention (torch.nn.MultiheadAttention,
// Vaswani et al. 2017 §3.2.2) and relative position self-attention (Shaw et al. 2018), forward
// and backward, plus the relative-distance matrix for plots. Shapes and parameters are checked
// here with messages that name them; the maths is in src/kernels/attention_transformer.c.
// The SDPA backward lives beside its forward, in ./sdpa.js.

import {
  AttnlabError,
  backwardArgs,
  check,
  checkOptions,
  fmtShape,
  readUpstream,
  sameShape,
  show,
  snapshot,
  toMask,
  toTensor,
  withArena,
} from '../core.js';

const MHA_PARAMS = ['in_proj_weight', 'in_proj_bias', 'out_proj.weight', 'out_proj.bias'];
const REL_PARAMS = ['W_Q', 'W_K', 'W_V', 'rel_K', 'rel_V'];

/** params[name] as a tensor of exactly `shape`; a named error when missing or mis-shaped. */
function param(what, params, name, shape) {
  if (params[name] === undefined || params[name] === null) {
    throw new AttnlabError(
      `${what}: params.${name} is missing (expected shape ${fmtShape(shape)})`,
    );
  }
  const t = toTensor(params[name], `params.${name}`);
  if (!sameShape(t.shape, shape)) {
    throw new AttnlabError(
      `${what}: params.${name} has shape ${fmtShape(t.shape)} but must be ${fmtShape(shape)}`,
      'AL_ERR_SHAPE',
    );
  }
  return t;
}

function checkParams(what, params, known) {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new AttnlabError(`${what}: params must be an object with ${known.join(', ')}`);
  }
  for (const k of Object.keys(params)) {
    if (!known.includes(k))
      throw new AttnlabError(`${what}: unknown parameter params.${k} (known: ${known.join(', ')})`);
  }
  return snapshot(params, what, 'params', known); // every value read once from here on
}

/** A positive integer option, or `fallback` when absent (undefined fallback = required). */
function intOption(what, o, name, min, fallback) {
  const v = o[name];
  if (v === undefined || v === null) {
    if (fallback === undefined) throw new AttnlabError(`${what}: options.${name} is missing`);
    return fallback;
  }
  if (!Number.isInteger(v) || v < min) {
    throw new AttnlabError(`${what}: ${name} must be an integer >= ${min}, got ${show(v)}`);
  }
  return v;
}

/** A key padding mask [S] (unbatched) or [B, S] / [S] broadcast (batched), as B·S bytes. */
function keyMask(m, batched, B, S) {
  if (m === undefined || m === null) return null;
  const mask = toMask(m, 'keyPaddingMask', batched ? [[B, S], [S]] : [[S]]);
  if (batched && mask.shape.length === 1 && B > 1) {
    const full = new Uint8Array(B * S);
    for (let b = 0; b < B; b++) full.set(mask.data, b * S);
    return full;
  }
  return mask.data;
}

/** A zero-filled gradient buffer in wasm memory (the C backward accumulates). */
const zeros = (ar, n, what) => ar.f32(new Float32Array(n), what);

// ------------------------------------------------------------------ multi-head attention

function prepareMha(what, query, key, value, params, options) {
  const o = checkOptions(options, what, ['numHeads', 'causal', 'keyPaddingMask', 'needWeights']);
  const Q = toTensor(query, 'query', [2, 3]);
  const K = toTensor(key, 'key', [2, 3]);
  const V = toTensor(value, 'value', [2, 3]);
  const r = Q.shape.length;
  if (K.shape.length !== r || V.shape.length !== r) {
    throw new AttnlabError(
      `${what}: query has rank ${r} but key has rank ${K.shape.length} and value rank ${V.shape.length}; they must match`,
      'AL_ERR_SHAPE',
    );
  }
  const batched = r === 3;
  const B = batched ? Q.shape[0] : 1;
  const [L, E] = Q.shape.slice(r - 2);
  const [S, Ek] = K.shape.slice(r - 2);
  const [Sv, Ev] = V.shape.slice(r - 2);
  if (batched && (K.shape[0] !== B || V.shape[0] !== B)) {
    throw new AttnlabError(
      `${what}: query has batch ${B} but key has ${K.shape[0]} and value ${V.shape[0]}`,
      'AL_ERR_SHAPE',
    );
  }
  if (Ek !== E)
    throw new AttnlabError(
      `${what}: query has ${E} features but key has ${Ek}; they must share the embedding size E`,
      'AL_ERR_SHAPE',
    );
  if (Ev !== E)
    throw new AttnlabError(
      `${what}: query has ${E} features but value has ${Ev}; they must share the embedding size E`,
      'AL_ERR_SHAPE',
    );
  if (Sv !== S)
    throw new AttnlabError(`${what}: key has ${S} rows but value has ${Sv}`, 'AL_ERR_SHAPE');
  if (o.numHeads === undefined || o.numHeads === null) {
    throw new AttnlabError(
      `${what}: options.numHeads is missing (the number of heads, e.g. { numHeads: 2 })`,
    );
  }
  const H = intOption(what, o, 'numHeads', 1);
  if (E % H !== 0) {
    throw new AttnlabError(
      `${what}: the embedding size ${E} is not divisible by numHeads ${H}`,
      'AL_ERR_SHAPE',
    );
  }
  params = checkParams(what, params, MHA_PARAMS);
  const P = {
    in_proj_weight: param(what, params, 'in_proj_weight', [3 * E, E]),
    in_proj_bias: param(what, params, 'in_proj_bias', [3 * E]),
    'out_proj.weight': param(what, params, 'out_proj.weight', [E, E]),
    'out_proj.bias': param(what, params, 'out_proj.bias', [E]),
  };
  const mask = keyMask(o.keyPaddingMask, batched, B, S);
  const lead = batched ? [B] : [];
  return { o, Q, K, V, P, mask, B, L, S, E, H, lead, causal: o.causal ? 1 : 0 };
}

function copyMha(ar, p) {
  return {
    q: ar.f32(p.Q.data, 'query'),
    k: ar.f32(p.K.data, 'key'),
    v: ar.f32(p.V.data, 'value'),
    wi: ar.f32(p.P.in_proj_weight.data, 'params.in_proj_weight'),
    bi: ar.f32(p.P.in_proj_bias.data, 'params.in_proj_bias'),
    wo: ar.f32(p.P['out_proj.weight'].data, 'params.out_proj.weight'),
    bo: ar.f32(p.P['out_proj.bias'].data, 'params.out_proj.bias'),
    m: p.mask ? ar.u8(p.mask, 'keyPaddingMask') : 0,
  };
}

/**
 * Multi-head attention, identical to torch.nn.MultiheadAttention (batch_first=True, dropout 0,
 * eval, average_attn_weights=False). Self-attention is the call with query = key = value.
 * A query row that sees no key gets zero weights and a zero context, so its output row is
 * out_proj.bias (torch 1.13 gives NaN).
 * @param {import('../index.d.ts').TensorLike} query [L,E] or [B,L,E]
 * @param {import('../index.d.ts').TensorLike} key [S,E] or [B,S,E]
 * @param {import('../index.d.ts').TensorLike} value [S,E] or [B,S,E]
 * @param {import('./transformer-attention.d.ts').MhaParams} params the module's state dict
 * @param {import('./transformer-attention.d.ts').MhaOptions} options numHeads is required
 * @returns {import('./transformer-attention.d.ts').MultiHeadAttentionResult} output [...,L,E],
 *   weights [...,h,L,S] (null when needWeights is false)
 */
export function multiHeadAttention(query, key, value, params, options) {
  const what = 'multiHeadAttention';
  const p = prepareMha(what, query, key, value, params, options);
  const { B, L, S, E, H, lead } = p;
  const withWeights = p.o.needWeights === undefined ? true : !!p.o.needWeights;
  return withArena(what, (x, ar) => {
    const a = copyMha(ar, p);
    const nOut = B * L * E;
    const nAtt = B * H * L * S;
    const po = ar.alloc(nOut * 4, 'the output');
    const pa = withWeights ? ar.alloc(nAtt * 4, 'the weights') : 0;
    check(
      x,
      x.al_mha_forward(po, pa, a.q, a.k, a.v, a.wi, a.bi, a.wo, a.bo, B, L, S, E, H, a.m, p.causal),
      what,
    );
    return {
      output: { data: ar.read(po, nOut), shape: [...lead, L, E] },
      weights: withWeights ? { data: ar.read(pa, nAtt), shape: [...lead, H, L, S] } : null,
    };
  });
}

/**
 * The vector-Jacobian product of multiHeadAttention: same arguments, then `upstream`
 * { output?, weights? } (missing = zero). Returns the gradient of every input and parameter:
 * { query, key, value, in_proj_weight, in_proj_bias, 'out_proj.weight', 'out_proj.bias' }.
 * For self-attention (one tensor passed three times) its gradient is query + key + value.
 */
multiHeadAttention.backward = function backward(query, key, value, params, ...rest) {
  const what = 'multiHeadAttention.backward';
  const { options, upstream } = backwardArgs(what, rest, ['output', 'weights']);
  const p = prepareMha(what, query, key, value, params, options);
  const { B, L, S, E, H, lead } = p;
  const up = readUpstream(what, upstream, { output: [...lead, L, E], weights: [...lead, H, L, S] });
  return withArena(what, (x, ar) => {
    const a = copyMha(ar, p);
    const pdo = up.output ? ar.f32(up.output.data, 'upstream.output') : 0;
    const pda = up.weights ? ar.f32(up.weights.data, 'upstream.weights') : 0;
    const g = {
      query: [zeros(ar, p.Q.data.length, 'the query gradient'), p.Q.shape],
      key: [zeros(ar, p.K.data.length, 'the key gradient'), p.K.shape],
      value: [zeros(ar, p.V.data.length, 'the value gradient'), p.V.shape],
      in_proj_weight: [zeros(ar, 3 * E * E, 'the in_proj_weight gradient'), [3 * E, E]],
      in_proj_bias: [zeros(ar, 3 * E, 'the in_proj_bias gradient'), [3 * E]],
      'out_proj.weight': [zeros(ar, E * E, 'the out_proj.weight gradient'), [E, E]],
      'out_proj.bias': [zeros(ar, E, 'the out_proj.bias gradient'), [E]],
    };
    check(
      x,
      x.al_mha_backward(
        g.query[0],
        g.key[0],
        g.value[0],
        g.in_proj_weight[0],
        g.in_proj_bias[0],
        g['out_proj.weight'][0],
        g['out_proj.bias'][0],
        pdo,
        pda,
        a.q,
        a.k,
        a.v,
        a.wi,
        a.bi,
        a.wo,
        a.bo,
        B,
        L,
        S,
        E,
        H,
        a.m,
        p.causal,
      ),
      what,
    );
    const out = {};
    for (const [name, [ptr, shape]] of Object.entries(g)) {
      out[name] = {
        data: ar.read(
          ptr,
          shape.reduce((m, d) => m * d, 1),
        ),
        shape: shape.slice(),
      };
    }
    return out;
  });
};

// ------------------------------------------------------------------ relative position attention

function prepareRel(what, xIn, params, options) {
  const o = checkOptions(options, what, [
    'maxRelativePosition',
    'causal',
    'numHeads',
    'keyPaddingMask',
  ]);
  const X = toTensor(xIn, 'x', [2, 3]);
  const batched = X.shape.length === 3;
  const B = batched ? X.shape[0] : 1;
  const [n, d] = X.shape.slice(-2);
  const H = intOption(what, o, 'numHeads', 1, 1);
  params = checkParams(what, params, REL_PARAMS);
  if (params.W_Q === undefined || params.W_Q === null) {
    throw new AttnlabError(`${what}: params.W_Q is missing (expected shape [dz, ${d}])`);
  }
  const WQ = toTensor(params.W_Q, 'params.W_Q', [2]);
  const dz = WQ.shape[0];
  if (WQ.shape[1] !== d) {
    throw new AttnlabError(
      `${what}: params.W_Q has shape ${fmtShape(WQ.shape)} but x has ${d} features; W_Q must be [dz, ${d}]`,
      'AL_ERR_SHAPE',
    );
  }
  if (dz % H !== 0) {
    throw new AttnlabError(
      `${what}: dz = ${dz} is not divisible by numHeads ${H} (dz is the number of rows of params.W_Q)`,
      'AL_ERR_SHAPE',
    );
  }
  const Dh = dz / H;
  if (params.rel_K === undefined || params.rel_K === null) {
    throw new AttnlabError(`${what}: params.rel_K is missing (expected shape [2k + 1, ${Dh}])`);
  }
  const relK = toTensor(params.rel_K, 'params.rel_K', [2]);
  let k = o.maxRelativePosition;
  if (k === undefined || k === null) {
    // infer from the table: rel_K has 2k+1 rows
    if (relK.shape[0] % 2 !== 1) {
      throw new AttnlabError(
        `${what}: options.maxRelativePosition is missing and params.rel_K has ${relK.shape[0]} rows, not 2k + 1 (odd), to infer it from`,
        'AL_ERR_SHAPE',
      );
    }
    k = (relK.shape[0] - 1) / 2;
  } else {
    k = intOption(what, o, 'maxRelativePosition', 0);
    if (2 * k + 1 !== relK.shape[0]) {
      throw new AttnlabError(
        `${what}: params.rel_K has shape ${fmtShape(relK.shape)} but must be ${fmtShape([2 * k + 1, Dh])} (2k + 1 rows for options.maxRelativePosition = ${k})`,
        'AL_ERR_SHAPE',
      );
    }
  }
  const P = {
    W_Q: WQ,
    W_K: param(what, params, 'W_K', [dz, d]),
    W_V: param(what, params, 'W_V', [dz, d]),
    rel_K: sameShape(relK.shape, [2 * k + 1, Dh])
      ? relK
      : param(what, params, 'rel_K', [2 * k + 1, Dh]),
    rel_V: param(what, params, 'rel_V', [2 * k + 1, Dh]),
  };
  const mask = keyMask(o.keyPaddingMask, batched, B, n);
  return { X, P, mask, B, n, d, dz, H, k, lead: batched ? [B] : [], causal: o.causal ? 1 : 0 };
}

function copyRel(ar, p) {
  const c = { x: ar.f32(p.X.data, 'x') };
  for (const name of REL_PARAMS) c[name] = ar.f32(p.P[name].data, `params.${name}`);
  c.m = p.mask ? ar.u8(p.mask, 'keyPaddingMask') : 0;
  return c;
}

/**
 * Self-attention with relative position representations (Shaw et al. 2018, eqs. 3-4):
 *   e_ij = (x_i W_Qᵀ)(x_j W_Kᵀ + a^K_ij)ᵀ / √(dz/h),  z_i = Σ_j α_ij (x_j W_Vᵀ + a^V_ij),
 *   a^K_ij = rel_K[clip(j − i, −k, k) + k] (rel_V likewise), tables shared by the heads.
 * Each head uses its dz/h slice of the projections; the scale is 1/√(dz/h) per head.
 * @param {import('../index.d.ts').TensorLike} x [n,d] or [B,n,d]
 * @param {import('./transformer-attention.d.ts').RelativeParams} params
 * @param {import('./transformer-attention.d.ts').RelativeOptions} [options]
 * @returns {import('./transformer-attention.d.ts').MultiHeadAttentionResult} output [...,n,dz], weights [...,h,n,n]
 */
export function relativePositionAttention(x, params, options) {
  const what = 'relativePositionAttention';
  const p = prepareRel(what, x, params, options);
  const { B, n, d, dz, H, k, lead } = p;
  return withArena(what, (xw, ar) => {
    const c = copyRel(ar, p);
    const nOut = B * n * dz;
    const nAtt = B * H * n * n;
    const po = ar.alloc(nOut * 4, 'the output');
    const pa = ar.alloc(nAtt * 4, 'the weights');
    check(
      xw,
      xw.al_relpos_forward(
        po,
        pa,
        c.x,
        c.W_Q,
        c.W_K,
        c.W_V,
        c.rel_K,
        c.rel_V,
        B,
        n,
        d,
        dz,
        H,
        k,
        c.m,
        p.causal,
      ),
      what,
    );
    return {
      output: { data: ar.read(po, nOut), shape: [...lead, n, dz] },
      weights: { data: ar.read(pa, nAtt), shape: [...lead, H, n, n] },
    };
  });
}

/**
 * The vector-Jacobian product of relativePositionAttention: same arguments, then `upstream`
 * { output?, weights? } (missing = zero). Returns { x, W_Q, W_K, W_V, rel_K, rel_V }.
 */
relativePositionAttention.backward = function backward(x, params, ...rest) {
  const what = 'relativePositionAttention.backward';
  const { options, upstream } = backwardArgs(what, rest, ['output', 'weights']);
  const p = prepareRel(what, x, params, options);
  const { B, n, d, dz, H, k, lead } = p;
  const up = readUpstream(what, upstream, {
    output: [...lead, n, dz],
    weights: [...lead, H, n, n],
  });
  return withArena(what, (xw, ar) => {
    const c = copyRel(ar, p);
    const pdo = up.output ? ar.f32(up.output.data, 'upstream.output') : 0;
    const pda = up.weights ? ar.f32(up.weights.data, 'upstream.weights') : 0;
    const shapes = { x: p.X.shape };
    for (const name of REL_PARAMS) shapes[name] = p.P[name].shape;
    const g = {};
    for (const [name, shape] of Object.entries(shapes))
      g[name] = zeros(
        ar,
        shape.reduce((m, v) => m * v, 1),
        `the ${name} gradient`,
      );
    check(
      xw,
      xw.al_relpos_backward(
        g.x,
        g.W_Q,
        g.W_K,
        g.W_V,
        g.rel_K,
        g.rel_V,
        pdo,
        pda,
        c.x,
        c.W_Q,
        c.W_K,
        c.W_V,
        c.rel_K,
        c.rel_V,
        B,
        n,
        d,
        dz,
        H,
        k,
        c.m,
        p.causal,
      ),
      what,
    );
    const out = {};
    for (const [name, shape] of Object.entries(shapes)) {
      out[name] = {
        data: ar.read(
          g[name],
          shape.reduce((m, v) => m * v, 1),
        ),
        shape: shape.slice(),
      };
    }
    return out;
  });
};

/**
 * The clipped relative distances clip(j − i, −k, k) for query i (row) and key j (column): the
 * table row used for the pair is this value + k.
 * @param {number} n sequence length (>= 1)
 * @param {number} k maxRelativePosition (>= 0)
 * @returns {{ data: Int32Array, shape: [number, number] }}
 */
relativePositionAttention.distances = function distances(n, k) {
  const what = 'relativePositionAttention.distances';
  if (!Number.isInteger(n) || n < 1)
    throw new AttnlabError(`${what}: n must be an integer >= 1, got ${show(n)}`, 'AL_ERR_SHAPE');
  if (!Number.isInteger(k) || k < 0)
    throw new AttnlabError(
      `${what}: k (maxRelativePosition) must be an integer >= 0, got ${show(k)}`,
    );
  if (n * n >= 2 ** 31)
    throw new AttnlabError(
      `${what}: n = ${n} gives ${n * n} entries; the limit is 2^31 - 1`,
      'AL_ERR_OVERFLOW',
    );
  return withArena(what, (x, ar) => {
    const p = ar.alloc(n * n * 4, 'the distances');
    check(x, x.al_relpos_distances(p, n, k), what);
    return { data: new Int32Array(x.memory.buffer, p, n * n).slice(), shape: [n, n] };
  });
};
