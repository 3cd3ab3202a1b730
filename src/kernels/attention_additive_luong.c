/*
 * attention_additive_luong.c: additive (Bahdanau) and Luong (global, local-m, local-p) attention
 * for one decoder query, forward and backward, from the keys or from the keys projected once
 * (_projected, _project_keys, _fold_keys). The equations, the local window convention and the
 * scratch sizes are in attention_additive_luong.h; key-query is in attention_key_query.c.
 *
 * The scalar reference of the additive score loop lives here (al_additive_scores_scalar, with
 * its tanh al_tanhf_scalar); its SIMD128 twin is in attention_additive_luong_simd128.c. Every
 * other loop is a matrix product or a softmax and goes through the dispatched al_sgemm, al_sgemv
 * and al_softmax_* of kernels.h. A backward first recomputes its forward into scratch, then walks
 * back; each step quotes the forward line it differentiates. Gradients accumulate (+=).
 *
 * Luong's concat score v_aᵀ tanh(W_a [h_t; h̄_s]) is the additive score with W_q = W_a[:, :d],
 * W_k = W_a[:, d:] (row stride 2d) and no bias, so both share project, fold and
 * additive_scores_*.
 */
#include <math.h>
#include <string.h>

#include "attention_additive_luong.h"

/* ------------------------------------------------------------------ the additive score loop */

float al_tanhf_scalar(float x)
{
    float z = fabsf(x);
    if (z < 0.625f) {
        /* Cephes tanhf: tanh x = x + x³·P(x²) near 0, where 1 − 2/(e^{2x}+1) would cancel. */
        float s = x * x;
        float p = -5.70498872745e-3f;
        p = p * s + 2.06390887954e-2f;
        p = p * s + -5.37397155531e-2f;
        p = p * s + 1.33314422036e-1f;
        p = p * s + -3.33332819422e-1f;
        return p * s * x + x;
    }
    /* al_expf_scalar clamps at 88, so e stays finite and 2/(e+1) >= ~1e-38: |x| > 44 gives ±1. */
    float e = al_expf_scalar(2.0f * z);
    float r = 1.0f - 2.0f / (e + 1.0f);
    return x < 0.0f ? -r : r;
}

void al_additive_scores_scalar(float *e, float *t, const float *pre, const float *hk,
                               const float *v, int n, int da)
{
    for (int j = 0; j < n; j++) {
        const float *hj = hk + (long)j * da; /* W_k h_j            [da] */
        float *tj = t + (long)j * da;        /* tanh(pre + W_k h_j) [da] */
        float acc = 0.0f;
        for (int a = 0; a < da; a++) {
            float th = al_tanhf_scalar(pre[a] + hj[a]);
            tj[a] = th;
            acc += v[a] * th; /* e_j = vᵀ tanh(W_q s + W_k h_j + bias) */
        }
        e[j] = acc;
    }
}

/* A [M,N] (row stride lda) += alpha · x [M] yᵀ [N]: the outer products of the weight gradients. */
static void ger(int M, int N, float alpha, const float *x, const float *y, float *A, int lda)
{
    al_sgemm(0, 0, M, N, 1, alpha, x, 1, y, N, 1.0f, A, lda);
}

/* Kp [n,da] = K [n,dk] W_kᵀ, W_k [da,dk] with row stride ldk: the keys' term of every score, the
 * same for every query of a sentence. */
static void project(float *Kp, const float *K, int n, int dk, const float *W_k, int ldk, int da)
{
    al_sgemm(0, 1, n, da, dk, 1.0f, K, dk, W_k, ldk, 0.0f, Kp, da);
}

/* The backward of project from dKp [n,da]: dW_k += dKpᵀ K,  dK += dKp W_k (either may be NULL). */
static void fold(float *dK, float *dW_k, const float *dKp, const float *K, int n, int dk,
                 const float *W_k, int ldk, int da)
{
    if (dW_k) al_sgemm(1, 0, da, dk, n, 1.0f, dKp, da, K, dk, 1.0f, dW_k, ldk);
    if (dK) al_sgemm(0, 0, n, dk, da, 1.0f, dKp, da, W_k, ldk, 1.0f, dK, dk);
}

/*
 * e [n] = vᵀ tanh(W_q q + bias + Kp_j) for the n rows of the projected keys Kp [n,da]. Saves
 * pre [da] = W_q q + bias and t [n,da] = the tanh values (t may be Kp: in place). W_q [da,dq] has
 * row stride ldq; bias may be NULL.
 */
static void additive_scores_forward(float *e, float *t, float *pre, const float *q, int dq,
                                    const float *Kp, const float *W_q, int ldq, const float *bias,
                                    const float *v, int n, int da)
{
    al_sgemv(0, da, dq, 1.0f, W_q, ldq, q, 0.0f, pre); /* pre = W_q q */
    if (bias)
        for (int a = 0; a < da; a++) pre[a] += bias[a]; /* pre += bias */
    al_additive_scores(e, t, pre, Kp, v, n, da);        /* e, t = tanh(pre + Kp) */
}

/*
 * The backward of additive_scores_forward, from de [n]. t [n,da] (the saved tanh values) is
 * overwritten with dpre = ∂/∂Kp, which the caller folds (or accumulates); dpq [da] is scratch.
 * Accumulates dq [dq], dW_q (row stride ldq), dbias [da] (may be NULL) and dv [da].
 */
static void additive_scores_backward(float *dq, float *dW_q, float *dbias, float *dv,
                                     const float *de, float *t, float *dpq, const float *q,
                                     int dq_n, const float *W_q, int ldq, const float *v, int n,
                                     int da)
{
    /* e_j = Σ_a v_a t[j,a]  →  dv_a += Σ_j de_j t[j,a] */
    al_sgemv(1, n, da, 1.0f, t, da, de, 1.0f, dv);
    /* t[j,a] = tanh(pre_a + Kp[j,a])  →  dpre[j,a] = de_j v_a (1 − t²)   (in place over t) */
    for (int j = 0; j < n; j++) {
        float *tj = t + (long)j * da;
        for (int a = 0; a < da; a++) tj[a] = de[j] * v[a] * (1.0f - tj[a] * tj[a]);
    }
    /* pre = W_q q + bias, shared by every j  →  dpq_a = Σ_j dpre[j,a] */
    memset(dpq, 0, sizeof(float) * (size_t)da);
    for (int j = 0; j < n; j++)
        for (int a = 0; a < da; a++) dpq[a] += t[(long)j * da + a];
    if (dbias)
        for (int a = 0; a < da; a++) dbias[a] += dpq[a];  /* pre += bias */
    ger(da, dq_n, 1.0f, dpq, q, dW_q, ldq);               /* pre = W_q q: dW_q += dpq qᵀ */
    al_sgemv(1, da, dq_n, 1.0f, W_q, ldq, dpq, 1.0f, dq); /*              dq += W_qᵀ dpq */
}

/* dst [n] += src [n] */
static void add_to(float *dst, const float *src, long n)
{
    for (long i = 0; i < n; i++) dst[i] += src[i];
}

/* ------------------------------------------------------------------ additive (Bahdanau) */

long al_attn_additive_forward_scratch_floats(int n, int da) { return (long)da + (long)n * da; }
long al_attn_additive_backward_scratch_floats(int n, int da)
{
    return 2L * da + (long)n * da + 3L * n;
}

/* scores [n] (may be NULL) = e as the softmax reads it, masked keys -INFINITY */
static void keep_scores(float *scores, const float *e, const uint8_t *mask, int n)
{
    if (!scores) return;
    for (int j = 0; j < n; j++) scores[j] = mask && mask[j] ? -INFINITY : e[j];
}

/* The additive forward from Kp [n,da]; t [n,da] and pre [da] as additive_scores_forward. */
static void additive_forward(float *context, float *weights, float *scores, const float *query,
                             const float *Kp, const float *V, const float *W_q, const float *bias,
                             const float *v, const uint8_t *mask, int n, int dq, int dv, int da,
                             float *pre, float *t)
{
    additive_scores_forward(weights, t, pre, query, dq, Kp, W_q, dq, bias, v, n, da);
    keep_scores(scores, weights, mask, n);
    al_softmax_forward(weights, weights, mask, 0, 1, n);     /* α = softmax(e), masked keys 0 */
    al_sgemv(1, n, dv, 1.0f, V, dv, weights, 0.0f, context); /* c = Σ_j α_j V_j */
}

/*
 * The additive backward from the forward's α [n] and t [n,da] (the tanh values; overwritten with
 * dpre = ∂/∂Kp); dpq [da], dalpha [n] and de [n] are scratch.
 */
static void additive_backward_from(float *dquery, float *dV, float *dW_q, float *dbias,
                                   float *dv_param, const float *dcontext, const float *dweights,
                                   const float *query, const float *alpha, float *t, const float *V,
                                   const float *W_q, const float *v, int n, int dq, int dv, int da,
                                   float *dpq, float *dalpha, float *de)
{
    if (dweights)
        memcpy(dalpha, dweights, sizeof(float) * (size_t)n);
    else
        memset(dalpha, 0, sizeof(float) * (size_t)n);
    if (dcontext) {
        /* c = Σ_j α_j V_j  →  dV_j += α_j dc,  dα_j += V_j · dc */
        ger(n, dv, 1.0f, alpha, dcontext, dV, dv);
        al_sgemv(0, n, dv, 1.0f, V, dv, dcontext, 1.0f, dalpha);
    }
    /* α = softmax(e)  →  de = α ⊙ (dα − Σ α dα) */
    memset(de, 0, sizeof(float) * (size_t)n);
    al_softmax_backward(de, alpha, dalpha, 1, n);
    additive_scores_backward(dquery, dW_q, dbias, dv_param, de, t, dpq, query, dq, W_q, dq, v, n,
                             da);
}

/*
 * The additive backward from Kp [n,da] (which may be the scratch's t, then overwritten):
 * accumulates dquery, dV [n,dv], dW_q, dbias, dv_param and leaves dpre = ∂/∂Kp in the scratch's
 * t = scratch + 2·da. Scratch as al_attn_additive_backward's.
 */
static void additive_backward(float *dquery, float *dV, float *dW_q, float *dbias, float *dv_param,
                              const float *dcontext, const float *dweights, const float *query,
                              const float *Kp, const float *V, const float *W_q, const float *bias,
                              const float *v, const uint8_t *mask, int n, int dq, int dv, int da,
                              float *scratch)
{
    float *pre = scratch;            /* [da] */
    float *dpq = pre + da;           /* [da] */
    float *t = dpq + da;             /* [n,da] */
    float *alpha = t + (long)n * da; /* [n] */
    float *dalpha = alpha + n;       /* [n] */
    float *de = dalpha + n;          /* [n] */

    additive_scores_forward(alpha, t, pre, query, dq, Kp, W_q, dq, bias, v, n, da);
    al_softmax_forward(alpha, alpha, mask, 0, 1, n);
    additive_backward_from(dquery, dV, dW_q, dbias, dv_param, dcontext, dweights, query, alpha, t,
                           V, W_q, v, n, dq, dv, da, dpq, dalpha, de);
}

void al_attn_additive_forward(float *context, float *weights, const float *query, const float *keys,
                              const float *values, const float *W_q, const float *W_k,
                              const float *bias, const float *v, const uint8_t *mask, int n, int dq,
                              int dk, int dv, int da, float *scratch)
{
    al_attn_additive_forward_scores(context, weights, NULL, query, keys, values, W_q, W_k, bias, v,
                                    mask, n, dq, dk, dv, da, scratch);
}

void al_attn_additive_forward_scores(float *context, float *weights, float *scores,
                                     const float *query, const float *keys, const float *values,
                                     const float *W_q, const float *W_k, const float *bias,
                                     const float *v, const uint8_t *mask, int n, int dq, int dk,
                                     int dv, int da, float *scratch)
{
    float *pre = scratch; /* [da] */
    float *t = pre + da;  /* [n,da]: K W_kᵀ, then its tanh values in place */
    project(t, keys, n, dk, W_k, dk, da);
    additive_forward(context, weights, scores, query, t, values ? values : keys, W_q, bias, v, mask,
                     n, dq, dv, da, pre, t);
}

void al_attn_additive_backward(float *dquery, float *dkeys, float *dvalues, float *dW_q,
                               float *dW_k, float *dbias, float *dv_param, const float *dcontext,
                               const float *dweights, const float *query, const float *keys,
                               const float *values, const float *W_q, const float *W_k,
                               const float *bias, const float *v, const uint8_t *mask, int n,
                               int dq, int dk, int dv, int da, float *scratch)
{
    float *t = scratch + 2L * da; /* the backward scratch's t: K W_kᵀ, then dpre */
    project(t, keys, n, dk, W_k, dk, da);
    additive_backward(dquery, values ? dvalues : dkeys, dW_q, dbias, dv_param, dcontext, dweights,
                      query, t, values ? values : keys, W_q, bias, v, mask, n, dq, dv, da, scratch);
    fold(dkeys, dW_k, t, keys, n, dk, W_k, dk, da); /* Kp = K W_kᵀ */
}

/* ------------------------------------------------------------------ additive, keys projected once */

void al_attn_additive_project_keys(float *Kp, const float *keys, const float *W_k, int n, int dk,
                                   int da)
{
    project(Kp, keys, n, dk, W_k, dk, da);
}

void al_attn_additive_forward_projected(float *context, float *weights, float *scores,
                                        const float *query, const float *Kp, const float *values,
                                        const float *W_q, const float *bias, const float *v,
                                        const uint8_t *mask, int n, int dq, int dv, int da,
                                        float *scratch)
{
    additive_forward(context, weights, scores, query, Kp, values, W_q, bias, v, mask, n, dq, dv, da,
                     scratch, scratch + da);
}

void al_attn_additive_backward_projected(float *dquery, float *dKp, float *dvalues, float *dW_q,
                                         float *dbias, float *dv_param, const float *dcontext,
                                         const float *dweights, const float *query, const float *Kp,
                                         const float *values, const float *W_q, const float *bias,
                                         const float *v, const uint8_t *mask, int n, int dq, int dv,
                                         int da, float *scratch)
{
    additive_backward(dquery, dvalues, dW_q, dbias, dv_param, dcontext, dweights, query, Kp, values,
                      W_q, bias, v, mask, n, dq, dv, da, scratch);
    add_to(dKp, scratch + 2L * da, (long)n * da); /* dKp += dpre */
}

long al_attn_additive_saved_backward_scratch_floats(int n, int da) { return (long)da + 2L * n; }

void al_attn_additive_backward_saved(float *dquery, float *dKp, float *dvalues, float *dW_q,
                                     float *dbias, float *dv_param, const float *dcontext,
                                     const float *dweights, const float *query,
                                     const float *weights, float *saved, const float *values,
                                     const float *W_q, const float *v, int n, int dq, int dv,
                                     int da, float *scratch)
{
    float *t = saved + da; /* the forward's scratch: pre [da], then t [n,da] */
    additive_backward_from(dquery, dvalues, dW_q, dbias, dv_param, dcontext, dweights, query,
                           weights, t, values, W_q, v, n, dq, dv, da, scratch, scratch + da,
                           scratch + da + n);
    add_to(dKp, t, (long)n * da); /* dKp += dpre */
}

void al_attn_additive_fold_keys(float *dkeys, float *dW_k, const float *dKp, const float *keys,
                                const float *W_k, int n, int dk, int da)
{
    fold(dkeys, dW_k, dKp, keys, n, dk, W_k, dk, da);
}

/* ------------------------------------------------------------------ Luong (global and local) */

long al_attn_luong_forward_scratch_floats(int n, int d, int da, int dp)
{
    return (long)d + da + (long)n * da + dp;
}
long al_attn_luong_backward_scratch_floats(int n, int d, int da, int dp)
{
    return 6L * d + 2L * da + (long)n * da + 2L * dp + 4L * n;
}

/* What the forward leaves for the backward besides its scratch arrays. */
typedef struct {
    float p;    /* p_t (0 for global) */
    float sig;  /* local-p: sigmoid(v_pᵀ tanh(W_p h_t)) */
    int lo, nw; /* window [lo, lo + nw), nw may be 0 */
} luong_state;

/*
 * The Luong forward. Writes context [d], weights [n] (the final a_s), attentional [d]; when
 * alpha [n] is given, also the window softmax before the Gaussian (zeros outside the window);
 * when raw [n] is given, the scores that softmax read (-INFINITY outside the window and for
 * masked keys).
 * Kp: the projected keys (general [n,d] = K W_aᵀ, concat [n,da] = K W_a[:, d:]ᵀ), or NULL to
 * compute the score from the keys.
 * Scratch arrays: u [d] (general: W_aᵀ h_t), pre [da] and t [n·da] (concat), up [dp] (local-p:
 * tanh(W_p h_t)).
 */
static luong_state luong_forward(float *context, float *weights, float *attentional, float *alpha,
                                 float *raw, float *u, float *pre, float *t, float *up,
                                 const float *h, const float *keys, const float *Kp,
                                 const float *W_a, const float *v_a, const float *W_c,
                                 const float *W_p, const float *v_p, const uint8_t *mask, int n,
                                 int d, int score, int da, int local, float D, float tpos, int dp)
{
    luong_state st = { 0.0f, 0.0f, 0, n };
    if (local == AL_LUONG_LOCAL_M) {
        st.p = tpos; /* local-m: p_t = t */
    } else if (local == AL_LUONG_LOCAL_P) {
        /* local-p, eq. (9): p_t = S · sigmoid(v_pᵀ tanh(W_p h_t)) */
        al_sgemv(0, dp, d, 1.0f, W_p, d, h, 0.0f, up);
        al_tanh_forward(up, up, dp);
        float z = 0.0f;
        for (int i = 0; i < dp; i++) z += v_p[i] * up[i];
        al_sigmoid_forward(&st.sig, &z, 1);
        st.p = (float)n * st.sig;
    }
    if (local != AL_LUONG_GLOBAL) {
        /* window: integer s with p_t − D <= s <= p_t + D, clipped to [0, n−1] (in double so a
         * far-away p_t cannot overflow an int) */
        double lo = ceil((double)st.p - D), hi = floor((double)st.p + D);
        if (lo < 0) lo = 0;
        if (hi > n - 1) hi = n - 1;
        /* written so that a NaN p_t (every comparison false) gives the empty window */
        if (lo <= hi && lo <= n - 1 && hi >= 0) {
            st.lo = (int)lo;
            st.nw = (int)hi - (int)lo + 1;
        } else {
            st.lo = 0;
            st.nw = 0;
        }
    }
    const int lo = st.lo, nw = st.nw;
    const float *Kw = keys + (long)lo * d; /* the window's keys [nw,d] */
    float *sw = weights + lo;              /* the window's scores, then weights [nw] */

    memset(weights, 0, sizeof(float) * (size_t)n);
    if (raw)
        for (int j = 0; j < n; j++) raw[j] = -INFINITY;
    if (nw > 0) {
        switch (score) {
        case AL_LUONG_DOT: /* score_s = h_tᵀ h̄_s */
            al_sgemv(0, nw, d, 1.0f, Kw, d, h, 0.0f, sw);
            break;
        case AL_LUONG_GENERAL: /* score_s = h_tᵀ W_a h̄_s = h̄_s · u,  u = W_aᵀ h_t */
            if (Kp) {          /*                                = Kp_s · h_t, Kp_s = W_a h̄_s */
                al_sgemv(0, nw, d, 1.0f, Kp + (long)lo * d, d, h, 0.0f, sw);
                break;
            }
            al_sgemv(1, d, d, 1.0f, W_a, d, h, 0.0f, u);
            al_sgemv(0, nw, d, 1.0f, Kw, d, u, 0.0f, sw);
            break;
        default: /* concat: score_s = v_aᵀ tanh(W_a[:, :d] h_t + W_a[:, d:] h̄_s) */
            if (!Kp) project(t, Kw, nw, d, W_a + d, 2 * d, da); /* in place: t = Kw W_a[:, d:]ᵀ */
            additive_scores_forward(sw, t, pre, h, d, Kp ? Kp + (long)lo * da : t, W_a, 2 * d, NULL,
                                    v_a, nw, da);
            break;
        }
        if (raw) keep_scores(raw + lo, sw, mask ? mask + lo : NULL, nw);
        al_softmax_forward(sw, sw, mask ? mask + lo : NULL, 0, 1, nw); /* a = softmax(score) */
    }
    if (alpha) memcpy(alpha, weights, sizeof(float) * (size_t)n);
    if (local != AL_LUONG_GLOBAL) {
        /* eq. (10): a_s = softmax(score)_s · exp(−(s − p_t)² / (2σ²)), σ = D/2 */
        const float two_sigma2 = 0.5f * D * D;
        for (int j = 0; j < nw; j++) {
            float x = (float)(lo + j) - st.p;
            sw[j] *= expf(-x * x / two_sigma2);
        }
    }
    if (nw > 0)
        al_sgemv(1, nw, d, 1.0f, Kw, d, sw, 0.0f, context); /* c = Σ_s a_s h̄_s */
    else
        memset(context, 0, sizeof(float) * (size_t)d);
    /* eq. (5): h̃ = tanh(W_c [c; h_t]) = tanh(W_c[:, :d] c + W_c[:, d:] h_t) */
    al_sgemv(0, d, d, 1.0f, W_c, 2 * d, context, 0.0f, attentional);
    al_sgemv(0, d, d, 1.0f, W_c + d, 2 * d, h, 1.0f, attentional);
    al_tanh_forward(attentional, attentional, d);
    return st;
}

void al_attn_luong_forward(float *context, float *weights, float *attentional, float *position,
                           const float *query, const float *keys, const float *W_a,
                           const float *v_a, const float *W_c, const float *W_p, const float *v_p,
                           const uint8_t *mask, int n, int d, int score, int da, int local,
                           float window, float t, int dp, float *scratch)
{
    al_attn_luong_forward_scores(context, weights, NULL, attentional, position, query, keys, W_a,
                                 v_a, W_c, W_p, v_p, mask, n, d, score, da, local, window, t, dp,
                                 scratch);
}

void al_attn_luong_forward_scores(float *context, float *weights, float *scores, float *attentional,
                                  float *position, const float *query, const float *keys,
                                  const float *W_a, const float *v_a, const float *W_c,
                                  const float *W_p, const float *v_p, const uint8_t *mask, int n,
                                  int d, int score, int da, int local, float window, float t,
                                  int dp, float *scratch)
{
    al_attn_luong_forward_projected(context, weights, scores, attentional, position, query, keys,
                                    NULL, W_a, v_a, W_c, W_p, v_p, mask, n, d, score, da, local,
                                    window, t, dp, scratch);
}

void al_attn_luong_forward_projected(float *context, float *weights, float *scores,
                                     float *attentional, float *position, const float *query,
                                     const float *keys, const float *Kp, const float *W_a,
                                     const float *v_a, const float *W_c, const float *W_p,
                                     const float *v_p, const uint8_t *mask, int n, int d, int score,
                                     int da, int local, float window, float t, int dp,
                                     float *scratch)
{
    if (score == AL_LUONG_DOT) Kp = NULL; /* nothing projected */
    float *u = scratch;                   /* [d] */
    float *pre = u + d;                   /* [da] */
    float *tt = pre + da;                 /* [n·da] */
    float *up = tt + (long)n * da;        /* [dp] */
    luong_state st =
        luong_forward(context, weights, attentional, NULL, scores, u, pre, tt, up, query, keys, Kp,
                      W_a, v_a, W_c, W_p, v_p, mask, n, d, score, da, local, window, t, dp);
    if (position) *position = st.p;
}

void al_attn_luong_backward(float *dquery, float *dkeys, float *dW_a, float *dv_a, float *dW_c,
                            float *dW_p, float *dv_p, const float *dcontext, const float *dweights,
                            const float *dattentional, const float *dposition, const float *query,
                            const float *keys, const float *W_a, const float *v_a, const float *W_c,
                            const float *W_p, const float *v_p, const uint8_t *mask, int n, int d,
                            int score, int da, int local, float window, float tpos, int dp,
                            float *scratch)
{
    al_attn_luong_backward_projected(dquery, dkeys, NULL, dW_a, dv_a, dW_c, dW_p, dv_p, dcontext,
                                     dweights, dattentional, dposition, query, keys, NULL, W_a, v_a,
                                     W_c, W_p, v_p, mask, n, d, score, da, local, window, tpos, dp,
                                     scratch);
}

void al_attn_luong_backward_projected(float *dquery, float *dkeys, float *dKp, float *dW_a,
                                      float *dv_a, float *dW_c, float *dW_p, float *dv_p,
                                      const float *dcontext, const float *dweights,
                                      const float *dattentional, const float *dposition,
                                      const float *query, const float *keys, const float *Kp,
                                      const float *W_a, const float *v_a, const float *W_c,
                                      const float *W_p, const float *v_p, const uint8_t *mask,
                                      int n, int d, int score, int da, int local, float window,
                                      float tpos, int dp, float *scratch)
{
    if (score == AL_LUONG_DOT || !Kp || !dKp) Kp = NULL, dKp = NULL; /* nothing projected */
    float *u = scratch;           /* [d]    general: W_aᵀ h_t */
    float *c = u + d;             /* [d]    context */
    float *att = c + d;           /* [d]    h̃ */
    float *dz = att + d;          /* [d]    gradient of W_c [c; h_t] */
    float *dc = dz + d;           /* [d]    total gradient of c */
    float *du = dc + d;           /* [d] */
    float *pre = du + d;          /* [da]   concat */
    float *dpq = pre + da;        /* [da] */
    float *t = dpq + da;          /* [n·da] concat tanh values, then dpre */
    float *up = t + (long)n * da; /* [dp]   local-p tanh(W_p h_t) */
    float *dup = up + dp;         /* [dp] */
    float *alpha = dup + dp;      /* [n]    window softmax */
    float *a = alpha + n;         /* [n]    final weights */
    float *da_ = a + n;           /* [n]    gradient of the final weights */
    float *ds = da_ + n;          /* [n]    gradient of the scores */
    const float *h = query;

    luong_state st = luong_forward(c, a, att, alpha, NULL, u, pre, t, up, h, keys, Kp, W_a, v_a,
                                   W_c, W_p, v_p, mask, n, d, score, da, local, window, tpos, dp);
    const int lo = st.lo, nw = st.nw;
    const float *Kw = keys + (long)lo * d;
    float *dKw = dkeys + (long)lo * d;

    /* h̃ = tanh(z)  →  dz = dh̃ ⊙ (1 − h̃²) */
    memset(dz, 0, sizeof(float) * (size_t)d);
    if (dattentional) al_tanh_backward(dz, att, dattentional, d);
    /* z = W_c[:, :d] c + W_c[:, d:] h_t  →  dW_c += dz [c; h_t]ᵀ, dc += W_c[:, :d]ᵀ dz,
     *                                        dh_t += W_c[:, d:]ᵀ dz */
    ger(d, d, 1.0f, dz, c, dW_c, 2 * d);
    ger(d, d, 1.0f, dz, h, dW_c + d, 2 * d);
    if (dcontext)
        memcpy(dc, dcontext, sizeof(float) * (size_t)d);
    else
        memset(dc, 0, sizeof(float) * (size_t)d);
    al_sgemv(1, d, d, 1.0f, W_c, 2 * d, dz, 1.0f, dc);
    al_sgemv(1, d, d, 1.0f, W_c + d, 2 * d, dz, 1.0f, dquery);

    float dp_total = dposition ? *dposition : 0.0f; /* gradient of p_t */
    if (nw > 0) {
        float *aw = a + lo, *alw = alpha + lo, *daw = da_ + lo, *dsw = ds + lo;
        /* c = Σ_s a_s h̄_s  →  dh̄_s += a_s dc,  da_s = dweights_s + h̄_s · dc */
        ger(nw, d, 1.0f, aw, dc, dKw, d);
        al_sgemv(0, nw, d, 1.0f, Kw, d, dc, 0.0f, daw);
        if (dweights)
            for (int j = 0; j < nw; j++) daw[j] += dweights[lo + j];
        if (local != AL_LUONG_GLOBAL) {
            /* a_s = α_s g_s, g_s = exp(−(s − p)²/(2σ²))  →  dα_s = da_s g_s,
             * dp += Σ_s da_s α_s g_s (s − p)/σ²   (the window itself held fixed) */
            const float sigma2 = 0.25f * window * window;
            double acc = 0.0;
            for (int j = 0; j < nw; j++) {
                float x = (float)(lo + j) - st.p;
                float g = expf(-x * x / (2.0f * sigma2));
                acc += (double)daw[j] * alw[j] * g * x / sigma2;
                daw[j] *= g;
            }
            dp_total += (float)acc;
        }
        /* α = softmax(score) over the window  →  ds = α ⊙ (dα − Σ α dα) */
        memset(dsw, 0, sizeof(float) * (size_t)nw);
        al_softmax_backward(dsw, alw, daw, 1, nw);
        switch (score) {
        case AL_LUONG_DOT: /* score_s = h̄_s · h_t  →  dh̄_s += ds_s h_t,  dh_t += Σ_s ds_s h̄_s */
            ger(nw, d, 1.0f, dsw, h, dKw, d);
            al_sgemv(1, nw, d, 1.0f, Kw, d, dsw, 1.0f, dquery);
            break;
        case AL_LUONG_GENERAL:
            if (Kp) {
                /* score_s = Kp_s · h_t  →  dKp_s += ds_s h_t,  dh_t += Σ_s ds_s Kp_s */
                ger(nw, d, 1.0f, dsw, h, dKp + (long)lo * d, d);
                al_sgemv(1, nw, d, 1.0f, Kp + (long)lo * d, d, dsw, 1.0f, dquery);
                break;
            }
            /* score_s = h̄_s · u  →  dh̄_s += ds_s u,  du = Σ_s ds_s h̄_s */
            ger(nw, d, 1.0f, dsw, u, dKw, d);
            al_sgemv(1, nw, d, 1.0f, Kw, d, dsw, 0.0f, du);
            /* u = W_aᵀ h_t  →  dW_a += h_t duᵀ,  dh_t += W_a du */
            ger(d, d, 1.0f, h, du, dW_a, d);
            al_sgemv(0, d, d, 1.0f, W_a, d, du, 1.0f, dquery);
            break;
        default: /* concat: the additive score with W_q = W_a[:, :d], W_k = W_a[:, d:] */
            additive_scores_backward(dquery, dW_a, NULL, dv_a, dsw, t, dpq, h, d, W_a, 2 * d, v_a,
                                     nw, da); /* leaves dpre = ∂/∂(Kp rows of the window) in t */
            if (dKp)
                add_to(dKp + (long)lo * da, t, (long)nw * da);
            else
                fold(dKw, dW_a + d, t, Kw, nw, d, W_a + d, 2 * d, da);
            break;
        }
    }
    if (local == AL_LUONG_LOCAL_P) {
        /* p = S·sigmoid(z)  →  dz = dp · S·σ(1 − σ) */
        float dzp = dp_total * (float)n * st.sig * (1.0f - st.sig);
        /* z = v_pᵀ up  →  dv_p += dz up,  dup = dz v_p;
         * up = tanh(W_p h_t)  →  dpre = dup ⊙ (1 − up²) (kept in dup) */
        for (int i = 0; i < dp; i++) {
            dv_p[i] += dzp * up[i];
            dup[i] = dzp * v_p[i] * (1.0f - up[i] * up[i]);
        }
        /* dW_p += dpre h_tᵀ,  dh_t += W_pᵀ dpre */
        ger(dp, d, 1.0f, dup, h, dW_p, d);
        al_sgemv(1, dp, d, 1.0f, W_p, d, dup, 1.0f, dquery);
    }
}

/* ------------------------------------------------------------------ Luong, keys projected once */

int al_attn_luong_projected_width(int d, int score, int da)
{
    return score == AL_LUONG_GENERAL ? d : score == AL_LUONG_CONCAT ? da : 0;
}

void al_attn_luong_project_keys(float *Kp, const float *keys, const float *W_a, int n, int d,
                                int score, int da)
{
    if (score == AL_LUONG_GENERAL) project(Kp, keys, n, d, W_a, d, d);         /* W_a h̄_s */
    if (score == AL_LUONG_CONCAT) project(Kp, keys, n, d, W_a + d, 2 * d, da); /* W_a[:, d:] h̄_s */
}

void al_attn_luong_fold_keys(float *dkeys, float *dW_a, const float *dKp, const float *keys,
                             const float *W_a, int n, int d, int score, int da)
{
    if (score == AL_LUONG_GENERAL) fold(dkeys, dW_a, dKp, keys, n, d, W_a, d, d);
    if (score == AL_LUONG_CONCAT) fold(dkeys, dW_a + d, dKp, keys, n, d, W_a + d, 2 * d, da);
}
