/*
 * api/additive_luong.h: encoder-decoder attention, validated: additive (Bahdanau et al. 2015),
 * Luong global and local (Luong et al. 2015), and key-query attention, forward and backward.
 * Included by src/attnlab.h. The maths, the local window convention and the papers' equation
 * numbers are in src/kernels/attention_additive_luong.h; docs/additive-luong.md has examples.
 *
 *     // one query [4] against 6 keys [6,5]: context [5], weights [6]
 *     al_status st = al_additive_attention_forward(context, weights, query, keys, NULL,
 *                                                  W_q, W_k, bias, v, NULL, 1, 6, 4, 5, 5, 3);
 *
 * Shapes (B >= 1 is a leading batch dimension; parameters are shared across it):
 *   query [B,dq], keys [B,n,dk], values [B,n,dv] or NULL, key_padding_mask [B,n] (uint8, 1 = ignore
 *   that key) or NULL; outputs context [B,dv], weights [B,n] (may be NULL: not returned).
 * A fully masked row gives zero weights and a zero context. Weights are nn.Linear layout [out,in].
 *
 * Backward: the same inputs plus the upstream gradients of the outputs (each may be NULL = zero);
 * gradients ACCUMULATE (+=) into every gradient buffer (zero them first); parameter gradients sum
 * over the batch. Every gradient buffer the op has must be non-NULL.
 *
 * Status: AL_ERR_ARGUMENT for a NULL array, an unknown score or a bad window/t; AL_ERR_SHAPE for a
 * size < 1 (or values == NULL with dv != dk); AL_ERR_OVERFLOW past 2^31 elements; AL_ERR_NOMEM.
 */
#ifndef AL_API_ADDITIVE_LUONG_H
#define AL_API_ADDITIVE_LUONG_H

#include <stdint.h>

#include "../base.h"

/* ---------------------------------------------------------------- additive (Bahdanau) */

/* e_j = vᵀ tanh(W_q s + W_k h_j + bias), α = softmax(e), c = Σ α_j (values ? values_j : h_j).
 * W_q [da,dq], W_k [da,dk], bias [da], v [da]. */
al_status al_additive_attention_forward(float *context, float *weights, const float *query,
                                        const float *keys, const float *values, const float *W_q,
                                        const float *W_k, const float *bias, const float *v,
                                        const uint8_t *key_padding_mask, int B, int n, int dq,
                                        int dk, int dv, int da);
/* dquery [B,dq], dkeys [B,n,dk], dvalues [B,n,dv] (only when values), dW_q, dW_k, dbias, dv_param
 * from dcontext [B,dv], dweights [B,n]. */
al_status al_additive_attention_backward(float *dquery, float *dkeys, float *dvalues, float *dW_q,
                                         float *dW_k, float *dbias, float *dv_param,
                                         const float *dcontext, const float *dweights,
                                         const float *query, const float *keys, const float *values,
                                         const float *W_q, const float *W_k, const float *bias,
                                         const float *v, const uint8_t *key_padding_mask, int B,
                                         int n, int dq, int dk, int dv, int da);

/* ---------------------------------------------------------------- Luong */

/* score: 0 dot, 1 general (W_a [d,d]), 2 concat (W_a [da,2d], v_a [da]; da only used here).
 * a = softmax(score), c = Σ a_s h̄_s, attentional h̃ = tanh(W_c [c; h_t]), W_c [d,2d].
 * query [B,d], keys [B,n,d]; context, attentional [B,d]; weights [B,n] or NULL. */
al_status al_luong_attention_forward(float *context, float *weights, float *attentional,
                                     const float *query, const float *keys, const float *W_a,
                                     const float *v_a, const float *W_c,
                                     const uint8_t *key_padding_mask, int B, int n, int d,
                                     int score, int da);
/* dW_a (general, concat) and dv_a (concat) may be NULL when the score has no such parameter. */
al_status al_luong_attention_backward(float *dquery, float *dkeys, float *dW_a, float *dv_a,
                                      float *dW_c, const float *dcontext, const float *dweights,
                                      const float *dattentional, const float *query,
                                      const float *keys, const float *W_a, const float *v_a,
                                      const float *W_c, const uint8_t *key_padding_mask, int B,
                                      int n, int d, int score, int da);

/* Local attention: predictive 0 = local-m (p_t = t, t finite), 1 = local-p (p_t = n·sigmoid(
 * v_pᵀ tanh(W_p h_t)), W_p [dp,d], v_p [dp]). window D >= 0.01 and finite. Weights over the integer
 * positions s in [p_t − D, p_t + D] ∩ [0, n−1]: softmax over those (unmasked) positions times
 * exp(−(s − p_t)²/(2σ²)), σ = D/2. position [B] (p_t per row) or NULL. */
al_status al_luong_local_attention_forward(float *context, float *weights, float *attentional,
                                           float *position, const float *query, const float *keys,
                                           const float *W_a, const float *v_a, const float *W_c,
                                           const float *W_p, const float *v_p,
                                           const uint8_t *key_padding_mask, int B, int n, int d,
                                           int score, int da, int predictive, float window, float t,
                                           int dp);
/* dposition [B] (NULL = zero) reaches W_p, v_p and the query through p_t for local-p; the
 * window is held fixed. dW_p, dv_p are used (non-NULL) for local-p only. */
al_status al_luong_local_attention_backward(
    float *dquery, float *dkeys, float *dW_a, float *dv_a, float *dW_c, float *dW_p, float *dv_p,
    const float *dcontext, const float *dweights, const float *dattentional, const float *dposition,
    const float *query, const float *keys, const float *W_a, const float *v_a, const float *W_c,
    const float *W_p, const float *v_p, const uint8_t *key_padding_mask, int B, int n, int d,
    int score, int da, int predictive, float window, float t, int dp);

/* ---------------------------------------------------------------- key-query */

/* α = softmax(k_iᵀ q [/√dk when scaled]), k_i = W_K h_i, q = W_Q s, c = Σ α_i W_V h_i.
 * query [B,ds], keys [B,n,dh], W_Q [dk,ds], W_K [dk,dh], W_V [dv,dh]; context [B,dv]. */
al_status al_key_query_attention_forward(float *context, float *weights, const float *query,
                                         const float *keys, const float *W_Q, const float *W_K,
                                         const float *W_V, const uint8_t *key_padding_mask, int B,
                                         int n, int ds, int dh, int dk, int dv, int scaled);
al_status al_key_query_attention_backward(float *dquery, float *dkeys, float *dW_Q, float *dW_K,
                                          float *dW_V, const float *dcontext, const float *dweights,
                                          const float *query, const float *keys, const float *W_Q,
                                          const float *W_K, const float *W_V,
                                          const uint8_t *key_padding_mask, int B, int n, int ds,
                                          int dh, int dk, int dv, int scaled);

#endif /* AL_API_ADDITIVE_LUONG_H */
