// attnlab/wasm/ops/additive-luong.js: encoder-decoder attention of one decoder query over n
// encoder states: additive (Bahdanau et al. 2015), Luong global and local (Luong et al. 2015) and
// key-query attention, each with a `.backward` (vector-Jacobian product).
//
//   const { context, weights } = ops.additiveAttention(query, keys, { W_q, W_k, bias, v });
//   const grads = ops.additiveAttention.backward(query, keys, params, {}, { context: dc });
//   // grads: { query, keys, W_q, W_k, bias, v } (+ values when options.values was given)
//
// Shapes are checked here with messages that name the tensors; the maths is in
// src/kernels/attention_additive_luong.c (via src/api/additive_luong.h). An optional leading batch
// dimension B is accepted: query [B, dq], keys [B, n, dk], keyPaddingMask [B, n] (or [n], shared);
// parameter gradients are summed over B. Docs: docs/additive-luong.md.

import {
  AttnlabError,
  backwardArgs,
  check,
  requireSomeUpstream,
  checkOptions,
  f32Option,
  fmtShape,
  show,
  snapshot,
  toMask,
  toTensor,
  withArena,
} from '../core.js';

const SCORES = { dot: 0, general: 1, concat: 2 };
const POSITIONS = { monotonic: 0, predictive: 1 };

// ------------------------------------------------------------------ shared validation

/** query [dq] or [B, dq] and keys [n, dk] or [B, n, dk], with the batch dims agreeing. */
function queryKeys(what, query, keys) {
  const Q = toTensor(query, 'query', [1, 2]);
  const batched = Q.shape.length === 2;
  const K = toTensor(keys, 'keys', [Q.shape.length + 1]);
  const B = batched ? Q.shape[0] : 1;
  if (batched && K.shape[0] !== B) {
    throw new AttnlabError(
      `${what}: query has batch size ${B} but keys has ${K.shape[0]}`,
      'AL_ERR_SHAPE',
    );
  }
  const [n, dk] = K.shape.slice(-2);
  return { Q, K, batched, B, n, dk, dq: Q.shape[Q.shape.length - 1] };
}

/** keyPaddingMask [n] or [B, n] (true = ignore that key) as B·n bytes, or null. */
function paddingMask(m, batched, B, n) {
  if (m === undefined || m === null) return null;
  const mask = toMask(m, 'keyPaddingMask', batched ? [[B, n], [n]] : [[n]]);
  if (batched && mask.shape.length === 1) {
    const full = new Uint8Array(B * n);
    for (let b = 0; b < B; b++) full.set(mask.data, b * n);
    return full;
  }
  return mask.data;
}

/** Every parameter name each op knows (a variant may use fewer: those extra are ignored). */
const KNOWN_PARAMS = {
  additiveAttention: ['W_q', 'W_k', 'bias', 'v'],
  luongAttention: ['W_a', 'v_a', 'W_c', 'W_p', 'v_p'], // W_p, v_p: local-p's, accepted and unused
  luongLocalAttention: ['W_a', 'v_a', 'W_c', 'W_p', 'v_p'],
  keyQueryAttention: ['W_Q', 'W_K', 'W_V'],
};

function paramsObject(what, params) {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new AttnlabError(`${what}: params must be an object of weight tensors`);
  }
  const known = KNOWN_PARAMS[what];
  for (const k of Object.keys(params)) {
    if (!known.includes(k)) {
      throw new AttnlabError(`${what}: unknown parameter params.${k} (known: ${known.join(', ')})`);
    }
  }
  return snapshot(params, what, 'params', known); // every value read once from here on
}

/** params[name] as a tensor of exactly `shape`; `dims` names the sizes for the message. */
function param(what, params, name, shape, dims) {
  if (params[name] === undefined || params[name] === null) {
    throw new AttnlabError(
      `${what}: params.${name} is missing (expected shape ${dims} = ${fmtShape(shape)})`,
    );
  }
  const t = toTensor(params[name], `params.${name}`);
  if (t.shape.length !== shape.length || t.shape.some((d, i) => d !== shape[i])) {
    throw new AttnlabError(
      `${what}: params.${name} has shape ${fmtShape(t.shape)} but must be ${dims} = ${fmtShape(shape)}`,
      'AL_ERR_SHAPE',
    );
  }
  return t;
}

/** The first dimension of params[name] (rank `rank`), to infer a hidden size from it. */
function rows(what, params, name, rank, dims) {
  if (params[name] === undefined || params[name] === null) {
    throw new AttnlabError(`${what}: params.${name} is missing (expected shape ${dims})`);
  }
  const t = toTensor(params[name], `params.${name}`);
  if (t.shape.length !== rank) {
    throw new AttnlabError(
      `${what}: params.${name} must have rank ${rank} (${dims}), got shape ${fmtShape(t.shape)}`,
      'AL_ERR_SHAPE',
    );
  }
  return t.shape[0];
}

const OUTPUTS = {
  additiveAttention: ['context', 'weights'],
  luongAttention: ['context', 'weights', 'attentionalHidden'],
  luongLocalAttention: ['context', 'weights', 'attentionalHidden', 'position'],
  keyQueryAttention: ['context', 'weights'],
};

/** Splits backward's (...args, upstream): the options argument may be left out. */
function splitBackwardArgs(what, rest) {
  const outputs = OUTPUTS[what];
  const { options, upstream } = backwardArgs(`${what}.backward`, rest, outputs);
  if (typeof upstream !== 'object' || Array.isArray(upstream)) {
    throw new AttnlabError(`${what}.backward: upstream must be an object keyed by output name`);
  }
  const u = snapshot(upstream, `${what}.backward`, 'upstream');
  checkUpstreamKeys(what, u, outputs);
  requireSomeUpstream(`${what}.backward`, u, outputs);
  return { options, upstream: u };
}

/** upstream[name] as floats of exactly `shape`, or null (= zero) when absent. */
function upstreamTensor(what, upstream, name, shape) {
  const u = upstream[name];
  if (u === undefined || u === null) return null;
  const t = toTensor(u, `upstream.${name}`);
  if (t.shape.length !== shape.length || t.shape.some((d, i) => d !== shape[i])) {
    throw new AttnlabError(
      `${what}.backward: upstream.${name} has shape ${fmtShape(t.shape)} but ${name} has ${fmtShape(shape)}`,
      'AL_ERR_SHAPE',
    );
  }
  return t.data;
}

function checkUpstreamKeys(what, upstream, allowed) {
  for (const k of Object.keys(upstream)) {
    if (!allowed.includes(k)) {
      throw new AttnlabError(
        `${what}.backward: unknown upstream gradient '${k}' (outputs: ${allowed.join(', ')})`,
      );
    }
  }
}

const zeros = (ar, n, what) => ar.f32(new Float32Array(n), what);
const out = (ar, p, shape) => ({
  data: ar.read(
    p,
    shape.reduce((a, b) => a * b, 1),
  ),
  shape,
});

// ------------------------------------------------------------------ additive (Bahdanau)

function additivePrepare(query, keys, params, options) {
  const what = 'additiveAttention';
  const o = checkOptions(options, what, ['keyPaddingMask', 'values']);
  const s = queryKeys(what, query, keys);
  const p = paramsObject(what, params);
  const da = rows(what, p, 'v', 1, '[da]');
  const W_q = param(what, p, 'W_q', [da, s.dq], '[da, dq] (da from params.v, dq from query)');
  const W_k = param(what, p, 'W_k', [da, s.dk], '[da, dk] (da from params.v, dk from keys)');
  const bias = param(what, p, 'bias', [da], '[da]');
  const v = param(what, p, 'v', [da], '[da]');
  let V = null;
  let dv = s.dk;
  if (o.values !== undefined && o.values !== null) {
    V = toTensor(o.values, 'values', [s.K.shape.length]);
    const lead = V.shape.slice(0, -1);
    const klead = s.K.shape.slice(0, -1);
    if (lead.some((d, i) => d !== klead[i])) {
      throw new AttnlabError(
        `${what}: values has shape ${fmtShape(V.shape)} but keys has ${fmtShape(s.K.shape)}; they must agree except in the last dimension`,
        'AL_ERR_SHAPE',
      );
    }
    dv = V.shape[V.shape.length - 1];
  }
  const mask = paddingMask(o.keyPaddingMask, s.batched, s.B, s.n);
  return { what, ...s, da, dv, W_q, W_k, bias, v, V, mask };
}

/**
 * Additive attention (Bahdanau et al. 2015, eq. 6): eⱼ = vᵀ tanh(W_q s + W_k hⱼ + bias),
 * α = softmax(e) (masked keys excluded), c = Σ αⱼ hⱼ (or Σ αⱼ valuesⱼ).
 * @param {import('../index.js').TensorLike} query s: [dq] or [B, dq]
 * @param {import('../index.js').TensorLike} keys h: [n, dk] or [B, n, dk]
 * @param {import('./additive-luong.js').AdditiveParams} params W_q [da,dq], W_k [da,dk], bias [da], v [da]
 * @param {{ keyPaddingMask?: import('../index.js').MaskLike, values?: import('../index.js').TensorLike }} [options]
 *   values [n, dv] (or [B, n, dv]) replaces hⱼ in the weighted sum.
 * @returns {{ context: import('../index.js').Tensor, weights: import('../index.js').Tensor }}
 *   context [dv] (dv = dk without values), weights [n] (with B: [B, dv], [B, n]).
 */
export function additiveAttention(query, keys, params, options) {
  const a = additivePrepare(query, keys, params, options);
  const lead = a.batched ? [a.B] : [];
  return withArena(a.what, (x, ar) => {
    const pc = ar.alloc(a.B * a.dv * 4, 'the context');
    const pw = ar.alloc(a.B * a.n * 4, 'the weights');
    check(
      x,
      x.al_additive_attention_forward(
        pc,
        pw,
        ar.f32(a.Q.data, 'query'),
        ar.f32(a.K.data, 'keys'),
        a.V ? ar.f32(a.V.data, 'values') : 0,
        ar.f32(a.W_q.data, 'params.W_q'),
        ar.f32(a.W_k.data, 'params.W_k'),
        ar.f32(a.bias.data, 'params.bias'),
        ar.f32(a.v.data, 'params.v'),
        a.mask ? ar.u8(a.mask, 'keyPaddingMask') : 0,
        a.B,
        a.n,
        a.dq,
        a.dk,
        a.dv,
        a.da,
      ),
      a.what,
    );
    return { context: out(ar, pc, [...lead, a.dv]), weights: out(ar, pw, [...lead, a.n]) };
  });
}

/**
 * Vector-Jacobian product of additiveAttention: gradients of every input and parameter given the
 * upstream gradients { context, weights } (a missing entry counts as zero).
 * Call as backward(query, keys, params, options, upstream) or backward(query, keys, params, upstream).
 * @returns {{ query, keys, values?, W_q, W_k, bias, v }} tensors shaped like the inputs
 */
additiveAttention.backward = function additiveAttentionBackward(query, keys, params, ...rest) {
  const { options, upstream } = splitBackwardArgs('additiveAttention', rest);
  const a = additivePrepare(query, keys, params, options);
  const lead = a.batched ? [a.B] : [];
  checkUpstreamKeys(a.what, upstream, ['context', 'weights']);
  const uc = upstreamTensor(a.what, upstream, 'context', [...lead, a.dv]);
  const uw = upstreamTensor(a.what, upstream, 'weights', [...lead, a.n]);
  return withArena(a.what, (x, ar) => {
    const g = {
      query: zeros(ar, a.Q.data.length, 'grad query'),
      keys: zeros(ar, a.K.data.length, 'grad keys'),
      values: a.V ? zeros(ar, a.V.data.length, 'grad values') : 0,
      W_q: zeros(ar, a.W_q.data.length, 'grad W_q'),
      W_k: zeros(ar, a.W_k.data.length, 'grad W_k'),
      bias: zeros(ar, a.da, 'grad bias'),
      v: zeros(ar, a.da, 'grad v'),
    };
    check(
      x,
      x.al_additive_attention_backward(
        g.query,
        g.keys,
        g.values,
        g.W_q,
        g.W_k,
        g.bias,
        g.v,
        uc ? ar.f32(uc, 'upstream.context') : 0,
        uw ? ar.f32(uw, 'upstream.weights') : 0,
        ar.f32(a.Q.data, 'query'),
        ar.f32(a.K.data, 'keys'),
        a.V ? ar.f32(a.V.data, 'values') : 0,
        ar.f32(a.W_q.data, 'params.W_q'),
        ar.f32(a.W_k.data, 'params.W_k'),
        ar.f32(a.bias.data, 'params.bias'),
        ar.f32(a.v.data, 'params.v'),
        a.mask ? ar.u8(a.mask, 'keyPaddingMask') : 0,
        a.B,
        a.n,
        a.dq,
        a.dk,
        a.dv,
        a.da,
      ),
      `${a.what}.backward`,
    );
    const r = {
      query: out(ar, g.query, a.Q.shape),
      keys: out(ar, g.keys, a.K.shape),
      W_q: out(ar, g.W_q, a.W_q.shape),
      W_k: out(ar, g.W_k, a.W_k.shape),
      bias: out(ar, g.bias, [a.da]),
      v: out(ar, g.v, [a.da]),
    };
    if (a.V) r.values = out(ar, g.values, a.V.shape);
    return r;
  });
};

// ------------------------------------------------------------------ Luong (global and local)

function luongPrepare(what, query, keys, params, options, local) {
  const allowed = local
    ? ['score', 'window', 'position', 't', 'keyPaddingMask']
    : ['score', 'keyPaddingMask'];
  const o = checkOptions(options, what, allowed);
  const s = queryKeys(what, query, keys);
  if (s.dk !== s.dq) {
    throw new AttnlabError(
      `${what}: query has ${s.dq} features but keys has ${s.dk}; Luong attention needs one size d`,
      'AL_ERR_SHAPE',
    );
  }
  const d = s.dq;
  const scoreName = o.score ?? 'dot';
  if (typeof scoreName !== 'string' || !Object.hasOwn(SCORES, scoreName)) {
    throw new AttnlabError(
      `${what}: score must be 'dot', 'general' or 'concat', got ${show(scoreName)}`,
    );
  }
  const score = SCORES[scoreName];
  const p = paramsObject(what, params);
  let W_a = null;
  let v_a = null;
  let da = 0;
  if (scoreName === 'general') W_a = param(what, p, 'W_a', [d, d], "[d, d] for score 'general'");
  if (scoreName === 'concat') {
    da = rows(what, p, 'v_a', 1, "[da] for score 'concat'");
    W_a = param(what, p, 'W_a', [da, 2 * d], "[da, 2d] for score 'concat' (da from params.v_a)");
    v_a = param(what, p, 'v_a', [da], '[da]');
  }
  const W_c = param(what, p, 'W_c', [d, 2 * d], '[d, 2d]');
  /** @type {Record<string, any>} the local and mask fields are added below */
  const r = { what, ...s, d, score, scoreName, W_a, v_a, W_c, da, local };
  if (local) {
    const window = f32Option(what, 'window (D)', o.window ?? 10, { min: 0.01 });
    const posName = o.position ?? 'monotonic';
    if (typeof posName !== 'string' || !Object.hasOwn(POSITIONS, posName)) {
      throw new AttnlabError(
        `${what}: position must be 'monotonic' or 'predictive', got ${show(posName)}`,
      );
    }
    let t = 0;
    if (posName === 'monotonic') {
      if (o.t === undefined || o.t === null) {
        throw new AttnlabError(
          `${what}: options.t (the decoder step, p_t = t) is required for position 'monotonic'`,
        );
      }
      t = f32Option(what, 't', o.t);
    }
    let W_p = null;
    let v_p = null;
    let dp = 0;
    if (posName === 'predictive') {
      dp = rows(what, p, 'v_p', 1, "[dp] for position 'predictive'");
      W_p = param(
        what,
        p,
        'W_p',
        [dp, d],
        "[dp, d] for position 'predictive' (dp from params.v_p)",
      );
      v_p = param(what, p, 'v_p', [dp], '[dp]');
    }
    Object.assign(r, { window, posName, predictive: POSITIONS[posName], t, W_p, v_p, dp });
  }
  r.mask = paddingMask(o.keyPaddingMask, s.batched, s.B, s.n);
  return r;
}

/** pointers to the inputs and parameters, in the C argument order after the outputs */
function luongInputs(a, ar) {
  return [
    ar.f32(a.Q.data, 'query'),
    ar.f32(a.K.data, 'keys'),
    a.W_a ? ar.f32(a.W_a.data, 'params.W_a') : 0,
    a.v_a ? ar.f32(a.v_a.data, 'params.v_a') : 0,
    ar.f32(a.W_c.data, 'params.W_c'),
  ];
}

function luongForward(a) {
  const lead = a.batched ? [a.B] : [];
  return withArena(a.what, (x, ar) => {
    const pc = ar.alloc(a.B * a.d * 4, 'the context');
    const pw = ar.alloc(a.B * a.n * 4, 'the weights');
    const ph = ar.alloc(a.B * a.d * 4, 'the attentional hidden state');
    const mask = a.mask ? ar.u8(a.mask, 'keyPaddingMask') : 0;
    const [pq, pk, pWa, pva, pWc] = luongInputs(a, ar);
    let pp = 0;
    if (a.local) {
      pp = ar.alloc(a.B * 4, 'the position');
      check(
        x,
        x.al_luong_local_attention_forward(
          pc,
          pw,
          ph,
          pp,
          pq,
          pk,
          pWa,
          pva,
          pWc,
          a.W_p ? ar.f32(a.W_p.data, 'params.W_p') : 0,
          a.v_p ? ar.f32(a.v_p.data, 'params.v_p') : 0,
          mask,
          a.B,
          a.n,
          a.d,
          a.score,
          a.da,
          a.predictive,
          a.window,
          a.t,
          a.dp,
        ),
        a.what,
      );
    } else {
      check(
        x,
        x.al_luong_attention_forward(
          pc,
          pw,
          ph,
          pq,
          pk,
          pWa,
          pva,
          pWc,
          mask,
          a.B,
          a.n,
          a.d,
          a.score,
          a.da,
        ),
        a.what,
      );
    }
    const r = {
      context: out(ar, pc, [...lead, a.d]),
      weights: out(ar, pw, [...lead, a.n]),
      attentionalHidden: out(ar, ph, [...lead, a.d]),
    };
    if (a.local) {
      const pos = Array.from(ar.read(pp, a.B));
      r.position = a.batched ? pos : pos[0];
    }
    return r;
  });
}

function luongBackward(a, upstream) {
  const lead = a.batched ? [a.B] : [];
  const names = ['context', 'weights', 'attentionalHidden', ...(a.local ? ['position'] : [])];
  checkUpstreamKeys(a.what, upstream, names);
  const uc = upstreamTensor(a.what, upstream, 'context', [...lead, a.d]);
  const uw = upstreamTensor(a.what, upstream, 'weights', [...lead, a.n]);
  const uh = upstreamTensor(a.what, upstream, 'attentionalHidden', [...lead, a.d]);
  let up = null;
  if (a.local && upstream.position !== undefined && upstream.position !== null) {
    const u = upstream.position;
    up = typeof u === 'number' ? [u] : Array.isArray(u) || ArrayBuffer.isView(u) ? u : u.data;
    if (
      !up ||
      up.length !== a.B ||
      !Array.from(up).every((v) => typeof v === 'number' && Number.isFinite(v))
    ) {
      throw new AttnlabError(
        `${a.what}.backward: upstream.position must be ${a.batched ? `${a.B} finite numbers` : 'a finite number'}`,
        'AL_ERR_SHAPE',
      );
    }
    up = Float32Array.from(up);
  }
  return withArena(a.what, (x, ar) => {
    const g = {
      query: zeros(ar, a.Q.data.length, 'grad query'),
      keys: zeros(ar, a.K.data.length, 'grad keys'),
      W_a: a.W_a ? zeros(ar, a.W_a.data.length, 'grad W_a') : 0,
      v_a: a.v_a ? zeros(ar, a.v_a.data.length, 'grad v_a') : 0,
      W_c: zeros(ar, a.W_c.data.length, 'grad W_c'),
      W_p: a.W_p ? zeros(ar, a.W_p.data.length, 'grad W_p') : 0,
      v_p: a.v_p ? zeros(ar, a.v_p.data.length, 'grad v_p') : 0,
    };
    const ups = [
      uc ? ar.f32(uc, 'upstream.context') : 0,
      uw ? ar.f32(uw, 'upstream.weights') : 0,
      uh ? ar.f32(uh, 'upstream.attentionalHidden') : 0,
    ];
    const mask = a.mask ? ar.u8(a.mask, 'keyPaddingMask') : 0;
    const [pq, pk, pWa, pva, pWc] = luongInputs(a, ar);
    if (a.local) {
      check(
        x,
        x.al_luong_local_attention_backward(
          g.query,
          g.keys,
          g.W_a,
          g.v_a,
          g.W_c,
          g.W_p,
          g.v_p,
          ...ups,
          up ? ar.f32(up, 'upstream.position') : 0,
          pq,
          pk,
          pWa,
          pva,
          pWc,
          a.W_p ? ar.f32(a.W_p.data, 'params.W_p') : 0,
          a.v_p ? ar.f32(a.v_p.data, 'params.v_p') : 0,
          mask,
          a.B,
          a.n,
          a.d,
          a.score,
          a.da,
          a.predictive,
          a.window,
          a.t,
          a.dp,
        ),
        `${a.what}.backward`,
      );
    } else {
      check(
        x,
        x.al_luong_attention_backward(
          g.query,
          g.keys,
          g.W_a,
          g.v_a,
          g.W_c,
          ...ups,
          pq,
          pk,
          pWa,
          pva,
          pWc,
          mask,
          a.B,
          a.n,
          a.d,
          a.score,
          a.da,
        ),
        `${a.what}.backward`,
      );
    }
    const r = { query: out(ar, g.query, a.Q.shape), keys: out(ar, g.keys, a.K.shape) };
    if (a.W_a) r.W_a = out(ar, g.W_a, a.W_a.shape);
    if (a.v_a) r.v_a = out(ar, g.v_a, a.v_a.shape);
    r.W_c = out(ar, g.W_c, a.W_c.shape);
    if (a.W_p) r.W_p = out(ar, g.W_p, a.W_p.shape);
    if (a.v_p) r.v_p = out(ar, g.v_p, a.v_p.shape);
    return r;
  });
}

/**
 * Luong global attention (Luong et al. 2015, eq. 5-8). score 'dot': h_tᵀ h̄ₛ; 'general':
 * h_tᵀ W_a h̄ₛ; 'concat': v_aᵀ tanh(W_a [h_t; h̄ₛ]). a = softmax(score), c = Σ aₛ h̄ₛ,
 * h̃ = tanh(W_c [c; h_t]).
 * @param {import('../index.js').TensorLike} query h_t: [d] or [B, d]
 * @param {import('../index.js').TensorLike} keys h̄: [n, d] or [B, n, d]
 * @param {import('./additive-luong.js').LuongParams} params W_c [d,2d]; W_a [d,d] (general) or
 *   W_a [da,2d] and v_a [da] (concat)
 * @param {{ score?: 'dot' | 'general' | 'concat', keyPaddingMask?: import('../index.js').MaskLike }} [options]
 *   score defaults to 'dot'.
 * @returns {{ context, weights, attentionalHidden }} [d], [n], [d] (with B: [B, ...])
 */
export function luongAttention(query, keys, params, options) {
  return luongForward(luongPrepare('luongAttention', query, keys, params, options, false));
}

/** Gradients { query, keys, W_a?, v_a?, W_c } from upstream { context, weights, attentionalHidden }. */
luongAttention.backward = function luongAttentionBackward(query, keys, params, ...rest) {
  const { options, upstream } = splitBackwardArgs('luongAttention', rest);
  return luongBackward(
    luongPrepare('luongAttention', query, keys, params, options, false),
    upstream,
  );
};

/**
 * Luong local attention (Luong et al. 2015, eq. 9-10). p_t = t ('monotonic', local-m) or
 * p_t = n·sigmoid(v_pᵀ tanh(W_p h_t)) ('predictive', local-p). The window is the integer
 * positions s (0-based) with p_t − D <= s <= p_t + D, clipped to [0, n−1]; the softmax runs over
 * the in-window, unmasked positions only (others get weight 0);
 * aₛ = softmax(score)ₛ · exp(−(s − p_t)² / (2σ²)), σ = D/2, not renormalised; c = Σ aₛ h̄ₛ.
 * @param {{ score?: 'dot' | 'general' | 'concat', window?: number, position?: 'monotonic' | 'predictive',
 *           t?: number, keyPaddingMask?: import('../index.js').MaskLike }} [options]
 *   window D > 0 (default 10, the paper's), position defaults to 'monotonic' (then t is required).
 * @returns {{ context, weights, attentionalHidden, position }} position: p_t, a number
 *   (with B: an array of B numbers)
 */
export function luongLocalAttention(query, keys, params, options) {
  return luongForward(luongPrepare('luongLocalAttention', query, keys, params, options, true));
}

/**
 * Gradients { query, keys, W_a?, v_a?, W_c, W_p?, v_p? } from upstream { context, weights,
 * attentionalHidden, position }. The window is held fixed (its bounds are piecewise constant in
 * p_t); the Gaussian is differentiated through p_t, and p_t through W_p, v_p and the query.
 */
luongLocalAttention.backward = function luongLocalAttentionBackward(query, keys, params, ...rest) {
  const { options, upstream } = splitBackwardArgs('luongLocalAttention', rest);
  return luongBackward(
    luongPrepare('luongLocalAttention', query, keys, params, options, true),
    upstream,
  );
};

// ------------------------------------------------------------------ key-query

function keyQueryPrepare(query, keys, params, options) {
  const what = 'keyQueryAttention';
  const o = checkOptions(options, what, ['scaled', 'keyPaddingMask']);
  const s = queryKeys(what, query, keys);
  const p = paramsObject(what, params);
  const dk = rows(what, p, 'W_Q', 2, '[dk, ds]');
  const dv = rows(what, p, 'W_V', 2, '[dv, dh]');
  const W_Q = param(what, p, 'W_Q', [dk, s.dq], '[dk, ds] (ds from query)');
  const W_K = param(what, p, 'W_K', [dk, s.dk], '[dk, dh] (dk from params.W_Q, dh from keys)');
  const W_V = param(what, p, 'W_V', [dv, s.dk], '[dv, dh] (dh from keys)');
  if (o.scaled !== undefined && typeof o.scaled !== 'boolean') {
    throw new AttnlabError(`${what}: scaled must be true or false, got ${show(o.scaled)}`);
  }
  const mask = paddingMask(o.keyPaddingMask, s.batched, s.B, s.n);
  return {
    what,
    ...s,
    ds: s.dq,
    dh: s.dk,
    dkq: dk,
    dv,
    W_Q,
    W_K,
    W_V,
    scaled: o.scaled ? 1 : 0,
    mask,
  };
}

/**
 * Key-query attention: kᵢ = W_K hᵢ, q = W_Q s, vᵢ = W_V hᵢ, α = softmax(kᵢᵀ q [/ √dk when
 * scaled]), c = Σ αᵢ vᵢ.
 * @param {import('../index.js').TensorLike} query s: [ds] or [B, ds]
 * @param {import('../index.js').TensorLike} keys h: [n, dh] or [B, n, dh]
 * @param {import('./additive-luong.js').KeyQueryParams} params W_Q [dk,ds], W_K [dk,dh], W_V [dv,dh]
 * @param {{ scaled?: boolean, keyPaddingMask?: import('../index.js').MaskLike }} [options] scaled defaults to false
 * @returns {{ context, weights }} [dv], [n] (with B: [B, dv], [B, n])
 */
export function keyQueryAttention(query, keys, params, options) {
  const a = keyQueryPrepare(query, keys, params, options);
  const lead = a.batched ? [a.B] : [];
  return withArena(a.what, (x, ar) => {
    const pc = ar.alloc(a.B * a.dv * 4, 'the context');
    const pw = ar.alloc(a.B * a.n * 4, 'the weights');
    check(
      x,
      x.al_key_query_attention_forward(
        pc,
        pw,
        ar.f32(a.Q.data, 'query'),
        ar.f32(a.K.data, 'keys'),
        ar.f32(a.W_Q.data, 'params.W_Q'),
        ar.f32(a.W_K.data, 'params.W_K'),
        ar.f32(a.W_V.data, 'params.W_V'),
        a.mask ? ar.u8(a.mask, 'keyPaddingMask') : 0,
        a.B,
        a.n,
        a.ds,
        a.dh,
        a.dkq,
        a.dv,
        a.scaled,
      ),
      a.what,
    );
    return { context: out(ar, pc, [...lead, a.dv]), weights: out(ar, pw, [...lead, a.n]) };
  });
}

/** Gradients { query, keys, W_Q, W_K, W_V } from upstream { context, weights }. */
keyQueryAttention.backward = function keyQueryAttentionBackward(query, keys, params, ...rest) {
  const { options, upstream } = splitBackwardArgs('keyQueryAttention', rest);
  const a = keyQueryPrepare(query, keys, params, options);
  const lead = a.batched ? [a.B] : [];
  checkUpstreamKeys(a.what, upstream, ['context', 'weights']);
  const uc = upstreamTensor(a.what, upstream, 'context', [...lead, a.dv]);
  const uw = upstreamTensor(a.what, upstream, 'weights', [...lead, a.n]);
  return withArena(a.what, (x, ar) => {
    const g = {
      query: zeros(ar, a.Q.data.length, 'grad query'),
      keys: zeros(ar, a.K.data.length, 'grad keys'),
      W_Q: zeros(ar, a.W_Q.data.length, 'grad W_Q'),
      W_K: zeros(ar, a.W_K.data.length, 'grad W_K'),
      W_V: zeros(ar, a.W_V.data.length, 'grad W_V'),
    };
    check(
      x,
      x.al_key_query_attention_backward(
        g.query,
        g.keys,
        g.W_Q,
        g.W_K,
        g.W_V,
        uc ? ar.f32(uc, 'upstream.context') : 0,
        uw ? ar.f32(uw, 'upstream.weights') : 0,
        ar.f32(a.Q.data, 'query'),
        ar.f32(a.K.data, 'keys'),
        ar.f32(a.W_Q.data, 'params.W_Q'),
        ar.f32(a.W_K.data, 'params.W_K'),
        ar.f32(a.W_V.data, 'params.W_V'),
        a.mask ? ar.u8(a.mask, 'keyPaddingMask') : 0,
        a.B,
        a.n,
        a.ds,
        a.dh,
        a.dkq,
        a.dv,
        a.scaled,
      ),
      `${a.what}.backward`,
    );
    return {
      query: out(ar, g.query, a.Q.shape),
      keys: out(ar, g.keys, a.K.shape),
      W_Q: out(ar, g.W_Q, a.W_Q.shape),
      W_K: out(ar, g.W_K, a.W_K.shape),
      W_V: out(ar, g.W_V, a.W_V.shape),
    };
  });
};
