/*
 * attention_pooling.c: pooling attentions over one sequence H [n,d], forward and backward.
 *
 * Holds the three mechanisms declared in attention_pooling.h (Zhou et al. 2016 eqs. 9-12,
 * Yang et al. 2016 eqs. 5-7, Lin et al. 2017 eqs. 6-8 and the penalty of section 2.2), written
 * as calls to the dispatched primitives of kernels.h (al_sgemm, al_sgemv, al_softmax_*,
 * al_tanh_*), so the SIMD128 build runs the f32x4 twins of every product and softmax. Each
 * backward step quotes the forward line it differentiates.
 *
 * Deliberately does not: loop over a batch, validate sizes (src/api/pooling.c does both) or
 * allocate (scratch comes from the caller, sized by the *_scratch_floats functions).
 */
#include <string.h>

#include "attention_pooling.h"
#include "kernels.h"

/* dst [n] = src, or 0 when src is NULL (a missing upstream gradient) */
static void copy_or_zero(float *dst, const float *src, long n)
{
    if (src)
        memcpy(dst, src, sizeof(float) * (size_t)n);
    else
        memset(dst, 0, sizeof(float) * (size_t)n);
}

/* ================================================================== attention pooling (Zhou) */

size_t al_attention_pooling_scratch_floats(int n, int d)
{
    return 2 * (size_t)n * (size_t)d + 2 * (size_t)n + (size_t)d;
}

void al_attention_pooling_seq_forward(float *r, float *hstar, float *alpha, const float *H,
                                      const float *w, const uint8_t *mask, int n, int d,
                                      float *scratch)
{
    float *M = scratch; /* [n,d] */
    /* M = tanh(H) */
    al_tanh_forward(M, H, n * d);
    /* alpha [n] = M w, the scores, then α = softmax(scores) in place (masked → 0) */
    al_sgemv(0, n, d, 1.0f, M, d, w, 0.0f, alpha);
    al_softmax_forward(alpha, alpha, mask, 0, 1, n);
    /* r = Hᵀ α */
    al_sgemv(1, n, d, 1.0f, H, d, alpha, 0.0f, r);
    /* h* = tanh(r); a fully masked sequence has α = 0, r = 0, h* = 0 */
    al_tanh_forward(hstar, r, d);
}

void al_attention_pooling_seq_backward(float *dH, float *dw, const float *H, const float *w,
                                       const float *alpha, const float *hstar, const float *dr,
                                       const float *dhstar, const float *dalpha, int n, int d,
                                       float *scratch)
{
    float *M = scratch;             /* [n,d] tanh(H), recomputed */
    float *dM = M + (size_t)n * d;  /* [n,d] */
    float *da = dM + (size_t)n * d; /* [n] total gradient of α */
    float *ds = da + n;             /* [n] gradient of the scores */
    float *g = ds + n;              /* [d] total gradient of r */

    /* h* = tanh(r)  →  g = dr + dh* ⊙ (1 − h*²) */
    copy_or_zero(g, dr, d);
    if (dhstar) al_tanh_backward(g, hstar, dhstar, d);
    /* r = Hᵀ α  →  dH += α gᵀ (outer product, K = 1), dα += H g */
    al_sgemm(0, 0, n, d, 1, 1.0f, alpha, 1, g, d, 1.0f, dH, d);
    copy_or_zero(da, dalpha, n);
    al_sgemv(0, n, d, 1.0f, H, d, g, 1.0f, da);
    /* α = softmax(scores)  →  ds = α ⊙ (dα − Σ dα·α) (masked positions have α = 0: no gradient) */
    memset(ds, 0, sizeof(float) * (size_t)n);
    al_softmax_backward(ds, alpha, da, 1, n);
    /* scores = M w  →  dw += Mᵀ ds, dM = ds wᵀ */
    al_tanh_forward(M, H, n * d);
    al_sgemv(1, n, d, 1.0f, M, d, ds, 1.0f, dw);
    al_sgemm(0, 0, n, d, 1, 1.0f, ds, 1, w, d, 0.0f, dM, d);
    /* M = tanh(H)  →  dH += dM ⊙ (1 − M²) */
    al_tanh_backward(dH, M, dM, n * d);
}

/* ================================================================== context pooling (HAN) */

size_t al_context_pooling_scratch_floats(int n, int d, int dw)
{
    (void)d;
    return 3 * (size_t)n * (size_t)dw + 2 * (size_t)n;
}

/* U [n,dw] = tanh(H Wᵀ + b): the hidden representation uᵢ of every position (HAN eq. 5) */
static void context_hidden(float *U, const float *H, const float *W, const float *b, int n, int d,
                           int dw)
{
    al_sgemm(0, 1, n, dw, d, 1.0f, H, d, W, d, 0.0f, U, dw);
    for (int i = 0; i < n; i++) {
        float *Ui = U + (size_t)i * dw;
        for (int k = 0; k < dw; k++) Ui[k] += b[k];
    }
    al_tanh_forward(U, U, n * dw);
}

void al_context_pooling_seq_forward(float *s, float *alpha, const float *H, const float *W,
                                    const float *b, const float *u, const uint8_t *mask, int n,
                                    int d, int dw, float *scratch)
{
    float *U = scratch; /* [n,dw] */
    /* uᵢ = tanh(W hᵢ + b) */
    context_hidden(U, H, W, b, n, d, dw);
    /* αᵢ = softmax(uᵢᵀ u): scores into alpha, softmax in place (HAN eq. 6) */
    al_sgemv(0, n, dw, 1.0f, U, dw, u, 0.0f, alpha);
    al_softmax_forward(alpha, alpha, mask, 0, 1, n);
    /* s = Σ αᵢ hᵢ = Hᵀ α (HAN eq. 7) */
    al_sgemv(1, n, d, 1.0f, H, d, alpha, 0.0f, s);
}

void al_context_pooling_seq_backward(float *dH, float *dW, float *db, float *du, const float *H,
                                     const float *W, const float *b, const float *u,
                                     const float *alpha, const float *ds, const float *dalpha,
                                     int n, int d, int dw, float *scratch)
{
    float *U = scratch;              /* [n,dw] tanh(H Wᵀ + b), recomputed */
    float *dU = U + (size_t)n * dw;  /* [n,dw] */
    float *dZ = dU + (size_t)n * dw; /* [n,dw] gradient of the pre-activation H Wᵀ + b */
    float *da = dZ + (size_t)n * dw; /* [n] total gradient of α */
    float *de = da + n;              /* [n] gradient of the scores */

    /* s = Hᵀ α  →  dH += α dsᵀ, dα += H ds */
    copy_or_zero(da, dalpha, n);
    if (ds) {
        al_sgemm(0, 0, n, d, 1, 1.0f, alpha, 1, ds, d, 1.0f, dH, d);
        al_sgemv(0, n, d, 1.0f, H, d, ds, 1.0f, da);
    }
    /* α = softmax(e)  →  de = α ⊙ (dα − Σ dα·α) */
    memset(de, 0, sizeof(float) * (size_t)n);
    al_softmax_backward(de, alpha, da, 1, n);
    /* e = U u  →  du += Uᵀ de, dU = de uᵀ */
    context_hidden(U, H, W, b, n, d, dw);
    al_sgemv(1, n, dw, 1.0f, U, dw, de, 1.0f, du);
    al_sgemm(0, 0, n, dw, 1, 1.0f, de, 1, u, dw, 0.0f, dU, dw);
    /* U = tanh(Z)  →  dZ = dU ⊙ (1 − U²) */
    memset(dZ, 0, sizeof(float) * (size_t)n * dw);
    al_tanh_backward(dZ, U, dU, n * dw);
    /* Z = H Wᵀ + b  →  db += Σᵢ dZᵢ, dW += dZᵀ H, dH += dZ W */
    for (int i = 0; i < n; i++) {
        const float *dZi = dZ + (size_t)i * dw;
        for (int k = 0; k < dw; k++) db[k] += dZi[k];
    }
    al_sgemm(1, 0, dw, d, n, 1.0f, dZ, dw, H, d, 1.0f, dW, d);
    al_sgemm(0, 0, n, d, dw, 1.0f, dZ, dw, W, d, 1.0f, dH, d);
}

/* ================================================================== structured self-attention */

size_t al_structured_self_attention_scratch_floats(int n, int d, int da, int r)
{
    (void)d;
    return 3 * (size_t)n * (size_t)da + 2 * (size_t)r * (size_t)n + (size_t)r * (size_t)r;
}

/* T [n,da] = tanh(H W_s1ᵀ), i.e. tanh(W_s1 Hᵀ) transposed (Lin et al. eq. 6, inner part) */
static void ssa_hidden(float *T, const float *H, const float *W_s1, int n, int d, int da)
{
    al_sgemm(0, 1, n, da, d, 1.0f, H, d, W_s1, d, 0.0f, T, da);
    al_tanh_forward(T, T, n * da);
}

void al_structured_self_attention_seq_forward(float *M, float *A, float *penalty, const float *H,
                                              const float *W_s1, const float *W_s2,
                                              const uint8_t *mask, int n, int d, int da, int r,
                                              float *scratch)
{
    float *T = scratch;            /* [n,da] */
    float *G = T + (size_t)n * da; /* [r,r] */
    /* T = tanh(W_s1 Hᵀ)ᵀ */
    ssa_hidden(T, H, W_s1, n, d, da);
    /* A = softmax(W_s2 Tᵀ), each of the r rows over n (eq. 6; eq. 5 for r = 1) */
    al_sgemm(0, 1, r, n, da, 1.0f, W_s2, da, T, da, 0.0f, A, n);
    al_softmax_forward(A, A, mask, 0, r, n);
    /* M = A H (eq. 7) */
    al_sgemm(0, 0, r, d, n, 1.0f, A, n, H, d, 0.0f, M, d);
    /* P = ‖A Aᵀ − I‖²_F (eq. 8), summed in double: r² terms */
    al_sgemm(0, 1, r, r, n, 1.0f, A, n, A, n, 0.0f, G, r);
    double p = 0.0;
    for (int i = 0; i < r; i++)
        for (int j = 0; j < r; j++) {
            double e = (double)G[(size_t)i * r + j] - (i == j ? 1.0 : 0.0);
            p += e * e;
        }
    *penalty = (float)p;
}

void al_structured_self_attention_seq_backward(float *dH, float *dW_s1, float *dW_s2,
                                               const float *H, const float *W_s1, const float *W_s2,
                                               const float *A, const float *dM, const float *dA,
                                               float dpenalty, int n, int d, int da, int r,
                                               float *scratch)
{
    float *T = scratch;               /* [n,da] tanh(H W_s1ᵀ), recomputed */
    float *dT = T + (size_t)n * da;   /* [n,da] */
    float *dZ = dT + (size_t)n * da;  /* [n,da] gradient of the pre-activation H W_s1ᵀ */
    float *dAt = dZ + (size_t)n * da; /* [r,n] total gradient of A */
    float *dS = dAt + (size_t)r * n;  /* [r,n] gradient of the scores */
    float *E = dS + (size_t)r * n;    /* [r,r] A Aᵀ − I */

    /* M = A H  →  dA += dM Hᵀ, dH += Aᵀ dM */
    copy_or_zero(dAt, dA, (long)r * n);
    if (dM) {
        al_sgemm(0, 1, r, n, d, 1.0f, dM, d, H, d, 1.0f, dAt, n);
        al_sgemm(1, 0, n, d, r, 1.0f, A, n, dM, d, 1.0f, dH, d);
    }
    /* P = Σ (A Aᵀ − I)²  →  dP/dG = 2E with G = A Aᵀ, E = G − I symmetric, so
     * dA += (2E + 2Eᵀ) A · dP = 4 dP · E A */
    if (dpenalty != 0.0f) {
        al_sgemm(0, 1, r, r, n, 1.0f, A, n, A, n, 0.0f, E, r);
        for (int i = 0; i < r; i++) E[(size_t)i * r + i] -= 1.0f;
        al_sgemm(0, 0, r, n, r, 4.0f * dpenalty, E, r, A, n, 1.0f, dAt, n);
    }
    /* A = softmax(S) row by row  →  dS = A ⊙ (dA − Σ dA·A) */
    memset(dS, 0, sizeof(float) * (size_t)r * n);
    al_softmax_backward(dS, A, dAt, r, n);
    /* S = W_s2 Tᵀ  →  dW_s2 += dS T, dT = dSᵀ W_s2 */
    ssa_hidden(T, H, W_s1, n, d, da);
    al_sgemm(0, 0, r, da, n, 1.0f, dS, n, T, da, 1.0f, dW_s2, da);
    al_sgemm(1, 0, n, da, r, 1.0f, dS, n, W_s2, da, 0.0f, dT, da);
    /* T = tanh(Z)  →  dZ = dT ⊙ (1 − T²) */
    memset(dZ, 0, sizeof(float) * (size_t)n * da);
    al_tanh_backward(dZ, T, dT, n * da);
    /* Z = H W_s1ᵀ  →  dW_s1 += dZᵀ H, dH += dZ W_s1 */
    al_sgemm(1, 0, da, d, n, 1.0f, dZ, da, H, d, 1.0f, dW_s1, d);
    al_sgemm(0, 0, n, d, da, 1.0f, dZ, da, W_s1, d, 1.0f, dH, d);
}
