/*
 * attention_additive_luong.h: the kernels of the encoder-decoder attention family, one decoder
 * query against n encoder states, on plain float arrays (no batch: src/api/additive_luong.c loops
 * over B).
 *
 *   additive   Bahdanau, Cho & Bengio 2015, "Neural Machine Translation by Jointly Learning to
 *              Align and Translate", eq. (6) and appendix A.1.2:
 *                e_j = vᵀ tanh(W_q s + W_k h_j + bias),  α = softmax(e),  c = Σ_j α_j h_j
 *              (values, when given, replace h_j in the sum).
 *   luong      Luong, Pham & Manning 2015, "Effective Approaches to Attention-based Neural Machine
 *              Translation", eq. (5)-(8):
 *                dot      score_s = h_tᵀ h̄_s
 *                general  score_s = h_tᵀ W_a h̄_s                 W_a [d,d]
 *                concat   score_s = v_aᵀ tanh(W_a [h_t; h̄_s])    W_a [da,2d], v_a [da]
 *                a = softmax(score), c = Σ_s a_s h̄_s, h̃ = tanh(W_c [c; h_t]), W_c [d,2d], eq. (5).
 *              Local attention, eq. (9)-(10): p_t = t (local-m) or p_t = S·sigmoid(v_pᵀ tanh(W_p h_t))
 *              (local-p, W_p [dp,d], v_p [dp], S = n). Window convention (exact):
 *                the window is the integer positions s (0-based) with p_t − D <= s <= p_t + D,
 *                clipped to [0, n−1]: lo = max(0, ceil(p_t − D)), hi = min(n−1, floor(p_t + D));
 *                the softmax runs over the in-window, unmasked positions only; positions outside
 *                the window get weight 0;
 *                a_s = softmax(score)_s · exp(−(s − p_t)² / (2σ²)), σ = D/2 (not renormalised);
 *                an empty window (p_t far outside [0, n−1]) gives zero weights and a zero context.
 *              Backward holds the window fixed (its bounds are piecewise constant in p_t) and
 *              differentiates the Gaussian factor through p_t, and p_t through W_p, v_p.
 *   key-query  α = softmax(k_iᵀ q [/√dk]), k_i = W_K h_i, q = W_Q s, c = Σ_i α_i W_V h_i.
 *              Computed as u = W_Kᵀ q, score_i = h_i·u, c = W_V (Σ_i α_i h_i): same maths, no
 *              [n,dk] or [n,dv] intermediates.
 *
 * Conventions are those of kernels.h: row-major float32, weights in nn.Linear layout [out,in],
 * mask uint8 [n] with 1 = ignore that key (NULL = none), a fully masked row gives zero weights and
 * a zero context, sizes >= 1 (already validated), gradients ACCUMULATE (+=) into every gradient
 * buffer (zero them before the first backward). A backward recomputes its forward in scratch, so
 * it takes the same inputs as the forward plus the upstream gradients (NULL upstream = zero).
 * Kernels never allocate: scratch sizes are given by the al_attn_*_scratch_floats functions.
 *
 * Keys projected once: the keys' term of the additive score (W_k h̄_j), of Luong's concat
 * (W_a[:, d:] h̄_s) and general (W_a h̄_s) scores, and key-query's keys and values (W_K h_i,
 * W_V h_i) are the same for every query of a sentence. The _projected kernels take it
 * precomputed, Kp (one al_sgemm per sentence: *_project_keys), and their backward accumulates
 * ∂/∂Kp instead of the key and W_k / W_a gradients, which *_fold_keys adds once per sentence (two
 * al_sgemm). A decoder loop then costs O(n·da) per step instead of O(n·dk·da). The unprojected
 * additive and Luong kernels are project + projected + fold on their scratch: the same floats as
 * before the split.
 *
 * Files: attention_additive_luong.c (the score loop, additive, Luong), its _simd128 twin (the
 * score loop), attention_key_query.c (key-query).
 * Deliberately not here: argument checking (src/api/additive_luong.c) and batching.
 */
#ifndef AL_ATTENTION_ADDITIVE_LUONG_H
#define AL_ATTENTION_ADDITIVE_LUONG_H

#include <stdint.h>

#include "kernels.h"

/* ------------------------------------------------------------------ the additive score loop */

/*
 * tanh(x) for float, Cephes' tanhf on al_expf_scalar: x + x³·P(x²) for |x| < 0.625, else
 * sign(x)·(1 − 2/(e^{2|x|} + 1)). The exp clamp keeps e^{2|x|} finite, so large |x| gives ±1
 * (never NaN). The scalar reference for the vector tanh of the _simd128 twin.
 */
float al_tanhf_scalar(float x);

/*
 * e [n]: e_j = Σ_a v_a · tanh(pre_a + hk[j,a]), and t [n,da] = tanh(pre + hk) (saved for
 * backward). pre [da], hk [n,da], v [da]. t may be the same array as hk (in place).
 * The hot loop of additive and concat attention.
 */
void al_additive_scores_scalar(float *e, float *t, const float *pre, const float *hk,
                               const float *v, int n, int da);
#if AL_SIMD128
void al_additive_scores_simd128(float *e, float *t, const float *pre, const float *hk,
                                const float *v, int n, int da);
#endif
/* The twin this build uses (picked in dispatch.c). */
void al_additive_scores(float *e, float *t, const float *pre, const float *hk, const float *v,
                        int n, int da);

/* ------------------------------------------------------------------ additive (Bahdanau) */

/* scratch floats for al_attn_additive_forward and _backward */
long al_attn_additive_forward_scratch_floats(int n, int da);  /* da + n·da */
long al_attn_additive_backward_scratch_floats(int n, int da); /* 2·da + n·da + 3·n */

/*
 * context [dv], weights [n] from query [dq], keys [n,dk], values [n,dv] (NULL: the keys, dv = dk),
 * W_q [da,dq], W_k [da,dk], bias [da], v [da], mask [n] or NULL.
 */
void al_attn_additive_forward(float *context, float *weights, const float *query, const float *keys,
                              const float *values, const float *W_q, const float *W_k,
                              const float *bias, const float *v, const uint8_t *mask, int n, int dq,
                              int dk, int dv, int da, float *scratch);
/* The same forward, also writing scores [n] (NULL: none): e before the softmax, masked keys
 * -INFINITY. al_attn_additive_forward is this with scores NULL. */
void al_attn_additive_forward_scores(float *context, float *weights, float *scores,
                                     const float *query, const float *keys, const float *values,
                                     const float *W_q, const float *W_k, const float *bias,
                                     const float *v, const uint8_t *mask, int n, int dq, int dk,
                                     int dv, int da, float *scratch);
/*
 * Accumulates dquery [dq], dkeys [n,dk], dvalues [n,dv] (ignored when values is NULL: then the
 * value gradient goes into dkeys), dW_q [da,dq], dW_k [da,dk], dbias [da], dv_param [da] from
 * dcontext [dv] and dweights [n] (either NULL = zero).
 */
void al_attn_additive_backward(float *dquery, float *dkeys, float *dvalues, float *dW_q,
                               float *dW_k, float *dbias, float *dv_param, const float *dcontext,
                               const float *dweights, const float *query, const float *keys,
                               const float *values, const float *W_q, const float *W_k,
                               const float *bias, const float *v, const uint8_t *mask, int n,
                               int dq, int dk, int dv, int da, float *scratch);

/*
 * Keys projected once. Kp [n,da] = keys [n,dk] W_kᵀ (no bias: it stays in the query's term, so
 * the projected kernels give the floats of the unprojected ones).
 */
void al_attn_additive_project_keys(float *Kp, const float *keys, const float *W_k, int n, int dk,
                                   int da);
/*
 * al_attn_additive_forward_scores from Kp [n,da] instead of keys and W_k. values [n,dv] is
 * required: what the weights average (the keys themselves, dv = dk, when there are no separate
 * values). Scratch: al_attn_additive_forward_scratch_floats(n, da).
 */
void al_attn_additive_forward_projected(float *context, float *weights, float *scores,
                                        const float *query, const float *Kp, const float *values,
                                        const float *W_q, const float *bias, const float *v,
                                        const uint8_t *mask, int n, int dq, int dv, int da,
                                        float *scratch);
/*
 * Accumulates dquery [dq], dKp [n,da] (∂/∂Kp), dvalues [n,dv], dW_q, dbias, dv_param from
 * dcontext [dv] and dweights [n] (either NULL = zero). When values are the keys, dvalues is dkeys:
 * the context's part of the key gradient, the score's part being folded from dKp.
 * Scratch: al_attn_additive_backward_scratch_floats(n, da).
 */
void al_attn_additive_backward_projected(float *dquery, float *dKp, float *dvalues, float *dW_q,
                                         float *dbias, float *dv_param, const float *dcontext,
                                         const float *dweights, const float *query, const float *Kp,
                                         const float *values, const float *W_q, const float *bias,
                                         const float *v, const uint8_t *mask, int n, int dq, int dv,
                                         int da, float *scratch);
/*
 * al_attn_additive_backward_projected without recomputing the forward, for a caller that kept
 * it: weights [n] (α) and saved = the scratch of that step's al_attn_additive_forward_projected
 * (da + n·da floats, holding W_q q + bias and the tanh values; overwritten). The floats are those
 * of al_attn_additive_backward_projected. No mask or bias: α and the tanh values hold them.
 * Scratch: al_attn_additive_saved_backward_scratch_floats(n, da).
 */
long al_attn_additive_saved_backward_scratch_floats(int n, int da); /* da + 2·n */
void al_attn_additive_backward_saved(float *dquery, float *dKp, float *dvalues, float *dW_q,
                                     float *dbias, float *dv_param, const float *dcontext,
                                     const float *dweights, const float *query,
                                     const float *weights, float *saved, const float *values,
                                     const float *W_q, const float *v, int n, int dq, int dv,
                                     int da, float *scratch);
/* The backward of the projection, once per sentence: dkeys [n,dk] += dKp W_k, dW_k [da,dk] +=
 * dKpᵀ keys (either gradient may be NULL: not wanted). */
void al_attn_additive_fold_keys(float *dkeys, float *dW_k, const float *dKp, const float *keys,
                                const float *W_k, int n, int dk, int da);

/* ------------------------------------------------------------------ Luong (global and local) */

enum { AL_LUONG_DOT = 0, AL_LUONG_GENERAL = 1, AL_LUONG_CONCAT = 2 };
enum { AL_LUONG_GLOBAL = 0, AL_LUONG_LOCAL_M = 1, AL_LUONG_LOCAL_P = 2 };

long al_attn_luong_forward_scratch_floats(int n, int d, int da, int dp); /* d + da + n·da + dp */
long al_attn_luong_backward_scratch_floats(int n, int d, int da,
                                           int dp); /* 6d + 2da + n·da + 2dp + 4n */

/*
 * context [d], weights [n], attentional [d] = h̃, position [1] (p_t; may be NULL; 0 for global)
 * from query h_t [d], keys h̄ [n,d] and the parameters the score and mode need:
 *   score AL_LUONG_GENERAL: W_a [d,d]; AL_LUONG_CONCAT: W_a [da,2d], v_a [da] (da unused otherwise);
 *   W_c [d,2d] always; local AL_LUONG_LOCAL_P: W_p [dp,d], v_p [dp] (dp unused otherwise).
 * local: AL_LUONG_GLOBAL, AL_LUONG_LOCAL_M (p_t = t) or AL_LUONG_LOCAL_P; window D > 0 (local only).
 */
void al_attn_luong_forward(float *context, float *weights, float *attentional, float *position,
                           const float *query, const float *keys, const float *W_a,
                           const float *v_a, const float *W_c, const float *W_p, const float *v_p,
                           const uint8_t *mask, int n, int d, int score, int da, int local,
                           float window, float t, int dp, float *scratch);
/* The same forward, also writing scores [n] (NULL: none): the scores the softmax read, before
 * it and before the local Gaussian; -INFINITY outside the local window and for masked keys. */
void al_attn_luong_forward_scores(float *context, float *weights, float *scores, float *attentional,
                                  float *position, const float *query, const float *keys,
                                  const float *W_a, const float *v_a, const float *W_c,
                                  const float *W_p, const float *v_p, const uint8_t *mask, int n,
                                  int d, int score, int da, int local, float window, float t,
                                  int dp, float *scratch);
/*
 * Accumulates dquery [d], dkeys [n,d], dW_a, dv_a, dW_c [d,2d], dW_p, dv_p (those the score/mode
 * use; the others are ignored and may be NULL) from dcontext [d], dweights [n], dattentional [d]
 * and dposition [1] (each NULL = zero; dposition matters for local-p only).
 */
void al_attn_luong_backward(float *dquery, float *dkeys, float *dW_a, float *dv_a, float *dW_c,
                            float *dW_p, float *dv_p, const float *dcontext, const float *dweights,
                            const float *dattentional, const float *dposition, const float *query,
                            const float *keys, const float *W_a, const float *v_a, const float *W_c,
                            const float *W_p, const float *v_p, const uint8_t *mask, int n, int d,
                            int score, int da, int local, float window, float t, int dp,
                            float *scratch);

/*
 * Keys projected once, for the scores with a keys' term: general, Kp [n,d] = keys W_aᵀ (row s is
 * W_a h̄_s, and score_s = h_t · Kp_s); concat, Kp [n,da] = keys W_a[:, d:]ᵀ. Dot has none: the
 * width is 0 and the projected kernels ignore Kp and dKp.
 */
int al_attn_luong_projected_width(int d, int score, int da); /* d, da or 0 */
void al_attn_luong_project_keys(float *Kp, const float *keys, const float *W_a, int n, int d,
                                int score, int da);
/* al_attn_luong_forward_scores with the projected keys Kp (NULL: computed from keys, as there);
 * keys are still read, as the values the weights average. Same scratch. */
void al_attn_luong_forward_projected(float *context, float *weights, float *scores,
                                     float *attentional, float *position, const float *query,
                                     const float *keys, const float *Kp, const float *W_a,
                                     const float *v_a, const float *W_c, const float *W_p,
                                     const float *v_p, const uint8_t *mask, int n, int d, int score,
                                     int da, int local, float window, float t, int dp,
                                     float *scratch);
/*
 * al_attn_luong_backward with Kp: the score's key gradient accumulates into dKp (same shape as
 * Kp), and dW_a gets only concat's query half W_a[:, :d]; dkeys gets the context's part. With Kp
 * or dKp NULL, exactly al_attn_luong_backward. Same scratch.
 */
void al_attn_luong_backward_projected(float *dquery, float *dkeys, float *dKp, float *dW_a,
                                      float *dv_a, float *dW_c, float *dW_p, float *dv_p,
                                      const float *dcontext, const float *dweights,
                                      const float *dattentional, const float *dposition,
                                      const float *query, const float *keys, const float *Kp,
                                      const float *W_a, const float *v_a, const float *W_c,
                                      const float *W_p, const float *v_p, const uint8_t *mask,
                                      int n, int d, int score, int da, int local, float window,
                                      float tpos, int dp, float *scratch);
/* The backward of the projection: dkeys [n,d] += dKp W, dW_a += dKpᵀ keys (W = W_a for general,
 * W_a[:, d:] for concat; dot: nothing). */
void al_attn_luong_fold_keys(float *dkeys, float *dW_a, const float *dKp, const float *keys,
                             const float *W_a, int n, int d, int score, int da);

/* ------------------------------------------------------------------ key-query */

long al_attn_key_query_forward_scratch_floats(int n, int dh, int dk);  /* 2·dh + dk */
long al_attn_key_query_backward_scratch_floats(int n, int dh, int dk); /* 4·dh + 2·dk + 3·n */

/*
 * context [dv], weights [n] from query s [ds], keys h [n,dh], W_Q [dk,ds], W_K [dk,dh],
 * W_V [dv,dh]; scaled: divide the scores by √dk.
 */
void al_attn_key_query_forward(float *context, float *weights, const float *query,
                               const float *keys, const float *W_Q, const float *W_K,
                               const float *W_V, const uint8_t *mask, int n, int ds, int dh, int dk,
                               int dv, int scaled, float *scratch);
/* The same forward, also writing scores [n] (NULL: none): the scaled scores before the softmax,
 * masked keys -INFINITY. */
void al_attn_key_query_forward_scores(float *context, float *weights, float *scores,
                                      const float *query, const float *keys, const float *W_Q,
                                      const float *W_K, const float *W_V, const uint8_t *mask,
                                      int n, int ds, int dh, int dk, int dv, int scaled,
                                      float *scratch);
/* Accumulates dquery [ds], dkeys [n,dh], dW_Q, dW_K, dW_V from dcontext [dv], dweights [n]. */
void al_attn_key_query_backward(float *dquery, float *dkeys, float *dW_Q, float *dW_K, float *dW_V,
                                const float *dcontext, const float *dweights, const float *query,
                                const float *keys, const float *W_Q, const float *W_K,
                                const float *W_V, const uint8_t *mask, int n, int ds, int dh,
                                int dk, int dv, int scaled, float *scratch);

/*
 * Keys projected once: Kp [n,dk] = keys W_Kᵀ (the k_i) and Vp [n,dv] = keys W_Vᵀ (the values
 * W_V h_i), so a step is score_i = k_i·q, c = Σ_i α_i Vp_i: O(n·(dk+dv)) instead of the
 * dh-wide products of the unprojected kernels (whose floats these differ from by rounding).
 * Same scratch sizes as the unprojected kernels.
 */
void al_attn_key_query_project_keys(float *Kp, float *Vp, const float *keys, const float *W_K,
                                    const float *W_V, int n, int dh, int dk, int dv);
void al_attn_key_query_forward_projected(float *context, float *weights, float *scores,
                                         const float *query, const float *Kp, const float *Vp,
                                         const float *W_Q, const uint8_t *mask, int n, int ds,
                                         int dk, int dv, int scaled, float *scratch);
/* Accumulates dquery [ds], dKp [n,dk], dVp [n,dv], dW_Q [dk,ds] from dcontext [dv], dweights [n]
 * (either NULL = zero). */
void al_attn_key_query_backward_projected(float *dquery, float *dKp, float *dVp, float *dW_Q,
                                          const float *dcontext, const float *dweights,
                                          const float *query, const float *Kp, const float *Vp,
                                          const float *W_Q, const uint8_t *mask, int n, int ds,
                                          int dk, int dv, int scaled, float *scratch);
/* dkeys [n,dh] += dKp W_K + dVp W_V, dW_K += dKpᵀ keys, dW_V += dVpᵀ keys (each may be NULL). */
void al_attn_key_query_fold_keys(float *dkeys, float *dW_K, float *dW_V, const float *dKp,
                                 const float *dVp, const float *keys, const float *W_K,
                                 const float *W_V, int n, int dh, int dk, int dv);

#endif /* AL_ATTENTION_ADDITIVE_LUONG_H */
