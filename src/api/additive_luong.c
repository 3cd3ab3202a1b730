/*
 * api/additive_luong.c: the validated entry points of api/additive_luong.h: checks what a caller
 * can get wrong, allocates the kernels' scratch (al_malloc, freed on every path), and loops over
 * the leading batch dimension B. The maths is in src/kernels/attention_additive_luong.c.
 */
#include <math.h>
#include <string.h>

#include "additive_luong.h"
#include "../toolbox.h"
#include "../kernels/attention_additive_luong.h"

/* ---------------------------------------------------------------- additive */

static al_status additive_check(const float *query, const float *keys, const float *values,
                                const float *W_q, const float *W_k, const float *bias,
                                const float *v, int B, int n, int dq, int dk, int dv, int da)
{
    if (!query || !keys || !W_q || !W_k || !bias || !v) return AL_ERR_ARGUMENT;
    if (B < 1 || n < 1 || dq < 1 || dk < 1 || dv < 1 || da < 1) return AL_ERR_SHAPE;
    if (!values && dv != dk) return AL_ERR_SHAPE;
    if (!al_count_ok(B, n, dk, 1) || !al_count_ok(B, n, dv, 1) || !al_count_ok(B, dq, 1, 1) ||
        !al_count_ok(da, dq, 1, 1) || !al_count_ok(da, dk, 1, 1) || !al_count_ok(n, da, 1, 1))
        return AL_ERR_OVERFLOW;
    return AL_OK;
}

al_status al_additive_attention_forward(float *context, float *weights, const float *query,
                                        const float *keys, const float *values, const float *W_q,
                                        const float *W_k, const float *bias, const float *v,
                                        const uint8_t *key_padding_mask, int B, int n, int dq,
                                        int dk, int dv, int da)
{
    if (!context) return AL_ERR_ARGUMENT;
    al_status st = additive_check(query, keys, values, W_q, W_k, bias, v, B, n, dq, dk, dv, da);
    if (st != AL_OK) return st;
    float *scratch =
        al_alloc_floats((double)al_attn_additive_forward_scratch_floats(n, da) + n, NULL);
    if (!scratch) return AL_ERR_NOMEM;
    float *wtmp = scratch + al_attn_additive_forward_scratch_floats(n, da);
    for (int b = 0; b < B; b++) {
        al_attn_additive_forward(
            context + (long)b * dv, weights ? weights + (long)b * n : wtmp, query + (long)b * dq,
            keys + (long)b * n * dk, values ? values + (long)b * n * dv : NULL, W_q, W_k, bias, v,
            key_padding_mask ? key_padding_mask + (long)b * n : NULL, n, dq, dk, dv, da, scratch);
    }
    al_free(scratch);
    return AL_OK;
}

al_status al_additive_attention_backward(float *dquery, float *dkeys, float *dvalues, float *dW_q,
                                         float *dW_k, float *dbias, float *dv_param,
                                         const float *dcontext, const float *dweights,
                                         const float *query, const float *keys, const float *values,
                                         const float *W_q, const float *W_k, const float *bias,
                                         const float *v, const uint8_t *key_padding_mask, int B,
                                         int n, int dq, int dk, int dv, int da)
{
    if (!dquery || !dkeys || (values && !dvalues) || !dW_q || !dW_k || !dbias || !dv_param)
        return AL_ERR_ARGUMENT;
    al_status st = additive_check(query, keys, values, W_q, W_k, bias, v, B, n, dq, dk, dv, da);
    if (st != AL_OK) return st;
    float *scratch = al_alloc_floats((double)al_attn_additive_backward_scratch_floats(n, da), NULL);
    if (!scratch) return AL_ERR_NOMEM;
    for (int b = 0; b < B; b++) {
        long kq = (long)b * n * dk, kv = (long)b * n * dv;
        al_attn_additive_backward(
            dquery + (long)b * dq, dkeys + kq, values ? dvalues + kv : NULL, dW_q, dW_k, dbias,
            dv_param, dcontext ? dcontext + (long)b * dv : NULL,
            dweights ? dweights + (long)b * n : NULL, query + (long)b * dq, keys + kq,
            values ? values + kv : NULL, W_q, W_k, bias, v,
            key_padding_mask ? key_padding_mask + (long)b * n : NULL, n, dq, dk, dv, da, scratch);
    }
    al_free(scratch);
    return AL_OK;
}

/* ---------------------------------------------------------------- Luong */

/* the checks shared by global and local; local: -1 global, 0 local-m, 1 local-p */
static al_status luong_check(const float *query, const float *keys, const float *W_a,
                             const float *v_a, const float *W_c, const float *W_p, const float *v_p,
                             int B, int n, int d, int score, int da, int local, float window,
                             float t, int dp)
{
    if (!query || !keys || !W_c) return AL_ERR_ARGUMENT;
    if (score != AL_LUONG_DOT && score != AL_LUONG_GENERAL && score != AL_LUONG_CONCAT)
        return AL_ERR_ARGUMENT;
    if (score != AL_LUONG_DOT && !W_a) return AL_ERR_ARGUMENT;
    if (score == AL_LUONG_CONCAT && !v_a) return AL_ERR_ARGUMENT;
    if (B < 1 || n < 1 || d < 1) return AL_ERR_SHAPE;
    if (score == AL_LUONG_CONCAT && da < 1) return AL_ERR_SHAPE;
    if (local >= 0) {
        if (local != 0 && local != 1) return AL_ERR_ARGUMENT;
        /* below 0.01 the Gaussian's 2σ² underflows toward 0 and exp(−0/0) would be NaN */
        if (!isfinite(window) || !(window >= 0.01f)) return AL_ERR_ARGUMENT;
        if (local == 0 && !isfinite(t)) return AL_ERR_ARGUMENT;
        if (local == 1 && (!W_p || !v_p)) return AL_ERR_ARGUMENT;
        if (local == 1 && dp < 1) return AL_ERR_SHAPE;
        if (local == 1 && !al_count_ok(dp, d, 1, 1)) return AL_ERR_OVERFLOW;
    }
    if (!al_count_ok(B, n, d, 1) || !al_count_ok(d, d, 2, 1) ||
        (score == AL_LUONG_CONCAT && (!al_count_ok(da, d, 2, 1) || !al_count_ok(n, da, 1, 1))))
        return AL_ERR_OVERFLOW;
    return AL_OK;
}

static al_status luong_forward_impl(float *context, float *weights, float *attentional,
                                    float *position, const float *query, const float *keys,
                                    const float *W_a, const float *v_a, const float *W_c,
                                    const float *W_p, const float *v_p,
                                    const uint8_t *key_padding_mask, int B, int n, int d, int score,
                                    int da, int predictive, float window, float t, int dp);
static al_status
luong_backward_impl(float *dquery, float *dkeys, float *dW_a, float *dv_a, float *dW_c, float *dW_p,
                    float *dv_p, const float *dcontext, const float *dweights,
                    const float *dattentional, const float *dposition, const float *query,
                    const float *keys, const float *W_a, const float *v_a, const float *W_c,
                    const float *W_p, const float *v_p, const uint8_t *key_padding_mask, int B,
                    int n, int d, int score, int da, int predictive, float window, float t, int dp);

static int luong_da(int score, int da) { return score == AL_LUONG_CONCAT ? da : 0; }

al_status al_luong_attention_forward(float *context, float *weights, float *attentional,
                                     const float *query, const float *keys, const float *W_a,
                                     const float *v_a, const float *W_c,
                                     const uint8_t *key_padding_mask, int B, int n, int d,
                                     int score, int da)
{
    return luong_forward_impl(context, weights, attentional, NULL, query, keys, W_a, v_a, W_c, NULL,
                              NULL, key_padding_mask, B, n, d, score, da, -1, 1.0f, 0.0f, 0);
}

al_status al_luong_attention_backward(float *dquery, float *dkeys, float *dW_a, float *dv_a,
                                      float *dW_c, const float *dcontext, const float *dweights,
                                      const float *dattentional, const float *query,
                                      const float *keys, const float *W_a, const float *v_a,
                                      const float *W_c, const uint8_t *key_padding_mask, int B,
                                      int n, int d, int score, int da)
{
    return luong_backward_impl(dquery, dkeys, dW_a, dv_a, dW_c, NULL, NULL, dcontext, dweights,
                               dattentional, NULL, query, keys, W_a, v_a, W_c, NULL, NULL,
                               key_padding_mask, B, n, d, score, da, -1, 1.0f, 0.0f, 0);
}

/* predictive: -1 global (the internal callers), 0 local-m, 1 local-p */
static int luong_mode(int predictive)
{
    return predictive < 0 ? AL_LUONG_GLOBAL : predictive ? AL_LUONG_LOCAL_P : AL_LUONG_LOCAL_M;
}

static al_status luong_forward_impl(float *context, float *weights, float *attentional,
                                    float *position, const float *query, const float *keys,
                                    const float *W_a, const float *v_a, const float *W_c,
                                    const float *W_p, const float *v_p,
                                    const uint8_t *key_padding_mask, int B, int n, int d, int score,
                                    int da, int predictive, float window, float t, int dp)
{
    if (!context || !attentional) return AL_ERR_ARGUMENT;
    al_status st = luong_check(query, keys, W_a, v_a, W_c, W_p, v_p, B, n, d, score, da, predictive,
                               window, t, dp);
    if (st != AL_OK) return st;
    int mode = luong_mode(predictive), ea = luong_da(score, da),
        ep = mode == AL_LUONG_LOCAL_P ? dp : 0;
    long sf = al_attn_luong_forward_scratch_floats(n, d, ea, ep);
    float *scratch = al_alloc_floats((double)sf + n, NULL);
    if (!scratch) return AL_ERR_NOMEM;
    for (int b = 0; b < B; b++) {
        al_attn_luong_forward(context + (long)b * d, weights ? weights + (long)b * n : scratch + sf,
                              attentional + (long)b * d, position ? position + b : NULL,
                              query + (long)b * d, keys + (long)b * n * d, W_a, v_a, W_c, W_p, v_p,
                              key_padding_mask ? key_padding_mask + (long)b * n : NULL, n, d, score,
                              ea, mode, window, t, ep, scratch);
    }
    al_free(scratch);
    return AL_OK;
}

static al_status
luong_backward_impl(float *dquery, float *dkeys, float *dW_a, float *dv_a, float *dW_c, float *dW_p,
                    float *dv_p, const float *dcontext, const float *dweights,
                    const float *dattentional, const float *dposition, const float *query,
                    const float *keys, const float *W_a, const float *v_a, const float *W_c,
                    const float *W_p, const float *v_p, const uint8_t *key_padding_mask, int B,
                    int n, int d, int score, int da, int predictive, float window, float t, int dp)
{
    int mode = luong_mode(predictive);
    if (!dquery || !dkeys || !dW_c || (score != AL_LUONG_DOT && !dW_a) ||
        (score == AL_LUONG_CONCAT && !dv_a) || (mode == AL_LUONG_LOCAL_P && (!dW_p || !dv_p)))
        return AL_ERR_ARGUMENT;
    al_status st = luong_check(query, keys, W_a, v_a, W_c, W_p, v_p, B, n, d, score, da, predictive,
                               window, t, dp);
    if (st != AL_OK) return st;
    int ea = luong_da(score, da), ep = mode == AL_LUONG_LOCAL_P ? dp : 0;
    float *scratch =
        al_alloc_floats((double)al_attn_luong_backward_scratch_floats(n, d, ea, ep), NULL);
    if (!scratch) return AL_ERR_NOMEM;
    for (int b = 0; b < B; b++) {
        al_attn_luong_backward(
            dquery + (long)b * d, dkeys + (long)b * n * d, dW_a, dv_a, dW_c, dW_p, dv_p,
            dcontext ? dcontext + (long)b * d : NULL, dweights ? dweights + (long)b * n : NULL,
            dattentional ? dattentional + (long)b * d : NULL, dposition ? dposition + b : NULL,
            query + (long)b * d, keys + (long)b * n * d, W_a, v_a, W_c, W_p, v_p,
            key_padding_mask ? key_padding_mask + (long)b * n : NULL, n, d, score, ea, mode, window,
            t, ep, scratch);
    }
    al_free(scratch);
    return AL_OK;
}

al_status al_luong_local_attention_forward(float *context, float *weights, float *attentional,
                                           float *position, const float *query, const float *keys,
                                           const float *W_a, const float *v_a, const float *W_c,
                                           const float *W_p, const float *v_p,
                                           const uint8_t *key_padding_mask, int B, int n, int d,
                                           int score, int da, int predictive, float window, float t,
                                           int dp)
{
    if (predictive != 0 && predictive != 1) return AL_ERR_ARGUMENT;
    return luong_forward_impl(context, weights, attentional, position, query, keys, W_a, v_a, W_c,
                              W_p, v_p, key_padding_mask, B, n, d, score, da, predictive, window, t,
                              dp);
}

al_status al_luong_local_attention_backward(
    float *dquery, float *dkeys, float *dW_a, float *dv_a, float *dW_c, float *dW_p, float *dv_p,
    const float *dcontext, const float *dweights, const float *dattentional, const float *dposition,
    const float *query, const float *keys, const float *W_a, const float *v_a, const float *W_c,
    const float *W_p, const float *v_p, const uint8_t *key_padding_mask, int B, int n, int d,
    int score, int da, int predictive, float window, float t, int dp)
{
    if (predictive != 0 && predictive != 1) return AL_ERR_ARGUMENT;
    return luong_backward_impl(dquery, dkeys, dW_a, dv_a, dW_c, dW_p, dv_p, dcontext, dweights,
                               dattentional, dposition, query, keys, W_a, v_a, W_c, W_p, v_p,
                               key_padding_mask, B, n, d, score, da, predictive, window, t, dp);
}

/* ---------------------------------------------------------------- key-query */

static al_status key_query_check(const float *query, const float *keys, const float *W_Q,
                                 const float *W_K, const float *W_V, int B, int n, int ds, int dh,
                                 int dk, int dv)
{
    if (!query || !keys || !W_Q || !W_K || !W_V) return AL_ERR_ARGUMENT;
    if (B < 1 || n < 1 || ds < 1 || dh < 1 || dk < 1 || dv < 1) return AL_ERR_SHAPE;
    if (!al_count_ok(B, n, dh, 1) || !al_count_ok(B, ds, 1, 1) || !al_count_ok(B, dv, 1, 1) ||
        !al_count_ok(dk, ds, 1, 1) || !al_count_ok(dk, dh, 1, 1) || !al_count_ok(dv, dh, 1, 1))
        return AL_ERR_OVERFLOW;
    return AL_OK;
}

al_status al_key_query_attention_forward(float *context, float *weights, const float *query,
                                         const float *keys, const float *W_Q, const float *W_K,
                                         const float *W_V, const uint8_t *key_padding_mask, int B,
                                         int n, int ds, int dh, int dk, int dv, int scaled)
{
    if (!context) return AL_ERR_ARGUMENT;
    al_status st = key_query_check(query, keys, W_Q, W_K, W_V, B, n, ds, dh, dk, dv);
    if (st != AL_OK) return st;
    long sf = al_attn_key_query_forward_scratch_floats(n, dh, dk);
    float *scratch = al_alloc_floats((double)sf + n, NULL);
    if (!scratch) return AL_ERR_NOMEM;
    for (int b = 0; b < B; b++) {
        al_attn_key_query_forward(context + (long)b * dv,
                                  weights ? weights + (long)b * n : scratch + sf,
                                  query + (long)b * ds, keys + (long)b * n * dh, W_Q, W_K, W_V,
                                  key_padding_mask ? key_padding_mask + (long)b * n : NULL, n, ds,
                                  dh, dk, dv, scaled != 0, scratch);
    }
    al_free(scratch);
    return AL_OK;
}

al_status al_key_query_attention_backward(float *dquery, float *dkeys, float *dW_Q, float *dW_K,
                                          float *dW_V, const float *dcontext, const float *dweights,
                                          const float *query, const float *keys, const float *W_Q,
                                          const float *W_K, const float *W_V,
                                          const uint8_t *key_padding_mask, int B, int n, int ds,
                                          int dh, int dk, int dv, int scaled)
{
    if (!dquery || !dkeys || !dW_Q || !dW_K || !dW_V) return AL_ERR_ARGUMENT;
    al_status st = key_query_check(query, keys, W_Q, W_K, W_V, B, n, ds, dh, dk, dv);
    if (st != AL_OK) return st;
    float *scratch =
        al_alloc_floats((double)al_attn_key_query_backward_scratch_floats(n, dh, dk), NULL);
    if (!scratch) return AL_ERR_NOMEM;
    for (int b = 0; b < B; b++) {
        al_attn_key_query_backward(dquery + (long)b * ds, dkeys + (long)b * n * dh, dW_Q, dW_K,
                                   dW_V, dcontext ? dcontext + (long)b * dv : NULL,
                                   dweights ? dweights + (long)b * n : NULL, query + (long)b * ds,
                                   keys + (long)b * n * dh, W_Q, W_K, W_V,
                                   key_padding_mask ? key_padding_mask + (long)b * n : NULL, n, ds,
                                   dh, dk, dv, scaled != 0, scratch);
    }
    al_free(scratch);
    return AL_OK;
}
