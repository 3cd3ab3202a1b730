// attnlab/wasm/ops/luong.js: Luong global and local attention (Luong et al. 2015, eq. 5-10) of one
// decoder query over n encoder states, each with a `.backward`; part of the additive-luong family
// (additive-luong.js re-exports them, docs/additive-luong.md documents them).
// Deliberately not here: additive and key-query attention (additive-luong.js), the shared checks
// (additive-luong-args.js), the maths (src/kernels/attention_additive_luong.c).

import { AttnlabError, check, checkOptions, f32Option, show, withArena } from '../core.js';
import {
  SCORES,
  POSITIONS,
  queryKeys,
  paddingMask,
  paramsObject,
  param,
  rows,
  splitBackwardArgs,
  upstreamTensor,
  checkUpstreamKeys,
  zeros,
  out,
} from './additive-luong-args.js';

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
