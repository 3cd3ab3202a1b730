/*
 * attention_key_query.c: key-query attention for one decoder query, forward and backward, as
 * declared (with the maths and the scratch sizes) in attention_additive_luong.h:
 *   α = softmax(k_iᵀ q [/√dk]), k_i = W_K h_i, q = W_Q s, c = Σ_i α_i W_V h_i,
 * computed as u = W_Kᵀ q, score_i = h_i·u, c = W_V (Σ_i α_i h_i): no [n,dk] or [n,dv]
 * intermediates. Every loop is a dispatched al_sgemm, al_sgemv or al_softmax_* of kernels.h; the
 * backward recomputes its forward into scratch, then walks back. Gradients accumulate (+=).
 * The _projected kernels take k_i = W_K h_i and W_V h_i computed once per sentence
 * (_project_keys) and leave their gradients to _fold_keys, for a decoder loop.
 */
#include <math.h>
#include <string.h>

#include "attention_additive_luong.h"

/* A [M,N] (row stride lda) += alpha · x [M] yᵀ [N] */
static void ger(int M, int N, float alpha, const float *x, const float *y, float *A, int lda)
{
    al_sgemm(0, 0, M, N, 1, alpha, x, 1, y, N, 1.0f, A, lda);
}

/* scores [n] (may be NULL) = the scores as the softmax reads them, masked keys -INFINITY */
static void keep_scores(float *scores, const float *e, const uint8_t *mask, int n)
{
    if (!scores) return;
    for (int j = 0; j < n; j++) scores[j] = mask && mask[j] ? -INFINITY : e[j];
}

/* ------------------------------------------------------------------ key-query */

long al_attn_key_query_forward_scratch_floats(int n, int dh, int dk) { return 2L * dh + dk; }
long al_attn_key_query_backward_scratch_floats(int n, int dh, int dk)
{
    return 4L * dh + 2L * dk + 3L * n;
}

/* q [dk] = W_Q s, u [dh] = W_Kᵀ q, weights [n] = softmax(scale · H u), hbar [dh] = Hᵀ α */
static void key_query_forward(float *weights, float *scores, float *q, float *u, float *hbar,
                              const float *s, const float *H, const float *W_Q, const float *W_K,
                              const uint8_t *mask, int n, int ds, int dh, int dk, float scale)
{
    al_sgemv(0, dk, ds, 1.0f, W_Q, ds, s, 0.0f, q);     /* q = W_Q s */
    al_sgemv(1, dk, dh, 1.0f, W_K, dh, q, 0.0f, u);     /* u = W_Kᵀ q, so k_iᵀ q = h_i · u */
    al_sgemv(0, n, dh, scale, H, dh, u, 0.0f, weights); /* score_i = scale · h_i · u */
    keep_scores(scores, weights, mask, n);
    al_softmax_forward(weights, weights, mask, 0, 1, n);  /* α = softmax(score) */
    al_sgemv(1, n, dh, 1.0f, H, dh, weights, 0.0f, hbar); /* hbar = Σ_i α_i h_i */
}

void al_attn_key_query_forward(float *context, float *weights, const float *query,
                               const float *keys, const float *W_Q, const float *W_K,
                               const float *W_V, const uint8_t *mask, int n, int ds, int dh, int dk,
                               int dv, int scaled, float *scratch)
{
    al_attn_key_query_forward_scores(context, weights, NULL, query, keys, W_Q, W_K, W_V, mask, n,
                                     ds, dh, dk, dv, scaled, scratch);
}

void al_attn_key_query_forward_scores(float *context, float *weights, float *scores,
                                      const float *query, const float *keys, const float *W_Q,
                                      const float *W_K, const float *W_V, const uint8_t *mask,
                                      int n, int ds, int dh, int dk, int dv, int scaled,
                                      float *scratch)
{
    float *q = scratch, *u = q + dk, *hbar = u + dh;
    float scale = scaled ? 1.0f / sqrtf((float)dk) : 1.0f;
    key_query_forward(weights, scores, q, u, hbar, query, keys, W_Q, W_K, mask, n, ds, dh, dk,
                      scale);
    al_sgemv(0, dv, dh, 1.0f, W_V, dh, hbar, 0.0f, context); /* c = Σ_i α_i W_V h_i = W_V hbar */
}

void al_attn_key_query_backward(float *dquery, float *dkeys, float *dW_Q, float *dW_K, float *dW_V,
                                const float *dcontext, const float *dweights, const float *query,
                                const float *keys, const float *W_Q, const float *W_K,
                                const float *W_V, const uint8_t *mask, int n, int ds, int dh,
                                int dk, int dv, int scaled, float *scratch)
{
    float *q = scratch;        /* [dk] */
    float *dq = q + dk;        /* [dk] */
    float *u = dq + dk;        /* [dh] */
    float *hbar = u + dh;      /* [dh] */
    float *dhbar = hbar + dh;  /* [dh] */
    float *du = dhbar + dh;    /* [dh] */
    float *alpha = du + dh;    /* [n] */
    float *dalpha = alpha + n; /* [n] */
    float *dsc = dalpha + n;   /* [n] */
    float scale = scaled ? 1.0f / sqrtf((float)dk) : 1.0f;
    key_query_forward(alpha, NULL, q, u, hbar, query, keys, W_Q, W_K, mask, n, ds, dh, dk, scale);

    if (dweights)
        memcpy(dalpha, dweights, sizeof(float) * (size_t)n);
    else
        memset(dalpha, 0, sizeof(float) * (size_t)n);
    if (dcontext) {
        /* c = W_V hbar  →  dW_V += dc hbarᵀ,  dhbar = W_Vᵀ dc */
        ger(dv, dh, 1.0f, dcontext, hbar, dW_V, dh);
        al_sgemv(1, dv, dh, 1.0f, W_V, dh, dcontext, 0.0f, dhbar);
        /* hbar = Σ_i α_i h_i  →  dh_i += α_i dhbar,  dα_i += h_i · dhbar */
        ger(n, dh, 1.0f, alpha, dhbar, dkeys, dh);
        al_sgemv(0, n, dh, 1.0f, keys, dh, dhbar, 1.0f, dalpha);
    }
    /* α = softmax(score)  →  dscore = α ⊙ (dα − Σ α dα) */
    memset(dsc, 0, sizeof(float) * (size_t)n);
    al_softmax_backward(dsc, alpha, dalpha, 1, n);
    /* score_i = scale · h_i · u  →  dh_i += scale · dscore_i u,  du = scale · Σ_i dscore_i h_i */
    ger(n, dh, scale, dsc, u, dkeys, dh);
    al_sgemv(1, n, dh, scale, keys, dh, dsc, 0.0f, du);
    /* u = W_Kᵀ q  →  dW_K += q duᵀ,  dq = W_K du */
    ger(dk, dh, 1.0f, q, du, dW_K, dh);
    al_sgemv(0, dk, dh, 1.0f, W_K, dh, du, 0.0f, dq);
    /* q = W_Q s  →  dW_Q += dq sᵀ,  ds += W_Qᵀ dq */
    ger(dk, ds, 1.0f, dq, query, dW_Q, ds);
    al_sgemv(1, dk, ds, 1.0f, W_Q, ds, dq, 1.0f, dquery);
}

/* ------------------------------------------------------------------ keys projected once */

void al_attn_key_query_project_keys(float *Kp, float *Vp, const float *keys, const float *W_K,
                                    const float *W_V, int n, int dh, int dk, int dv)
{
    al_sgemm(0, 1, n, dk, dh, 1.0f, keys, dh, W_K, dh, 0.0f, Kp, dk); /* k_i = W_K h_i */
    al_sgemm(0, 1, n, dv, dh, 1.0f, keys, dh, W_V, dh, 0.0f, Vp, dv); /* W_V h_i */
}

/* q [dk] = W_Q s, weights [n] = softmax(scale · Kp q) */
static void key_query_forward_projected(float *weights, float *scores, float *q, const float *s,
                                        const float *Kp, const float *W_Q, const uint8_t *mask,
                                        int n, int ds, int dk, float scale)
{
    al_sgemv(0, dk, ds, 1.0f, W_Q, ds, s, 0.0f, q);      /* q = W_Q s */
    al_sgemv(0, n, dk, scale, Kp, dk, q, 0.0f, weights); /* score_i = scale · k_i · q */
    keep_scores(scores, weights, mask, n);
    al_softmax_forward(weights, weights, mask, 0, 1, n); /* α = softmax(score) */
}

void al_attn_key_query_forward_projected(float *context, float *weights, float *scores,
                                         const float *query, const float *Kp, const float *Vp,
                                         const float *W_Q, const uint8_t *mask, int n, int ds,
                                         int dk, int dv, int scaled, float *scratch)
{
    float scale = scaled ? 1.0f / sqrtf((float)dk) : 1.0f;
    key_query_forward_projected(weights, scores, scratch, query, Kp, W_Q, mask, n, ds, dk, scale);
    al_sgemv(1, n, dv, 1.0f, Vp, dv, weights, 0.0f, context); /* c = Σ_i α_i (W_V h_i) */
}

void al_attn_key_query_backward_projected(float *dquery, float *dKp, float *dVp, float *dW_Q,
                                          const float *dcontext, const float *dweights,
                                          const float *query, const float *Kp, const float *Vp,
                                          const float *W_Q, const uint8_t *mask, int n, int ds,
                                          int dk, int dv, int scaled, float *scratch)
{
    float *q = scratch;        /* [dk] */
    float *dq = q + dk;        /* [dk] */
    float *alpha = dq + dk;    /* [n] */
    float *dalpha = alpha + n; /* [n] */
    float *dsc = dalpha + n;   /* [n] */
    float scale = scaled ? 1.0f / sqrtf((float)dk) : 1.0f;
    key_query_forward_projected(alpha, NULL, q, query, Kp, W_Q, mask, n, ds, dk, scale);

    if (dweights)
        memcpy(dalpha, dweights, sizeof(float) * (size_t)n);
    else
        memset(dalpha, 0, sizeof(float) * (size_t)n);
    if (dcontext) {
        /* c = Σ_i α_i Vp_i  →  dVp_i += α_i dc,  dα_i += Vp_i · dc */
        ger(n, dv, 1.0f, alpha, dcontext, dVp, dv);
        al_sgemv(0, n, dv, 1.0f, Vp, dv, dcontext, 1.0f, dalpha);
    }
    /* α = softmax(score)  →  dscore = α ⊙ (dα − Σ α dα) */
    memset(dsc, 0, sizeof(float) * (size_t)n);
    al_softmax_backward(dsc, alpha, dalpha, 1, n);
    /* score_i = scale · Kp_i · q  →  dKp_i += scale · dscore_i q,  dq = scale · Kpᵀ dscore */
    ger(n, dk, scale, dsc, q, dKp, dk);
    al_sgemv(1, n, dk, scale, Kp, dk, dsc, 0.0f, dq);
    /* q = W_Q s  →  dW_Q += dq sᵀ,  ds += W_Qᵀ dq */
    ger(dk, ds, 1.0f, dq, query, dW_Q, ds);
    al_sgemv(1, dk, ds, 1.0f, W_Q, ds, dq, 1.0f, dquery);
}

void al_attn_key_query_fold_keys(float *dkeys, float *dW_K, float *dW_V, const float *dKp,
                                 const float *dVp, const float *keys, const float *W_K,
                                 const float *W_V, int n, int dh, int dk, int dv)
{
    /* Kp = keys W_Kᵀ  →  dW_K += dKpᵀ keys,  dkeys += dKp W_K;  Vp likewise with W_V */
    if (dW_K) al_sgemm(1, 0, dk, dh, n, 1.0f, dKp, dk, keys, dh, 1.0f, dW_K, dh);
    if (dW_V) al_sgemm(1, 0, dv, dh, n, 1.0f, dVp, dv, keys, dh, 1.0f, dW_V, dh);
    if (dkeys) {
        al_sgemm(0, 0, n, dh, dk, 1.0f, dKp, dk, W_K, dh, 1.0f, dkeys, dh);
        al_sgemm(0, 0, n, dh, dv, 1.0f, dVp, dv, W_V, dh, 1.0f, dkeys, dh);
    }
}
