/*
 * api/pooling.c: the validated, batched entry points of api/pooling.h over the kernels of
 * kernels/attention_pooling.c.
 *
 * Each function checks what a caller can get wrong (NULL arrays, sizes < 1, element counts of
 * 2^31 or more), allocates the kernel's scratch with al_malloc (AL_ERR_NOMEM when that fails,
 * freed on every path) and loops over the batch. Backward recomputes the forward of each batch
 * item into scratch (the weights and h* it needs), then runs the kernel backward; parameter
 * gradients are zeroed once and summed over the batch.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../attnlab.h"
#include "../toolbox.h"
#include "../kernels/attention_pooling.h"

static void zero(float *x, size_t n) { memset(x, 0, n * sizeof(float)); }

/* ================================================================== attention pooling */

static al_status attention_pooling_check(const float *H, const float *w, int B, int n, int d)
{
    if (!H || !w) return AL_ERR_ARGUMENT;
    if (B < 1 || n < 1 || d < 1) return AL_ERR_SHAPE;
    if (!al_count_ok(B, n, d, 1)) return AL_ERR_OVERFLOW;
    return AL_OK;
}

al_status al_attention_pooling_forward(float *r, float *hstar, float *weights, const float *H,
                                       const float *w, const uint8_t *mask, int B, int n, int d)
{
    if (!r || !hstar || !weights) return AL_ERR_ARGUMENT;
    al_status st = attention_pooling_check(H, w, B, n, d);
    if (st != AL_OK) return st;
    float *scratch = al_alloc_floats((double)al_attention_pooling_scratch_floats(n, d), NULL);
    if (!scratch) return AL_ERR_NOMEM;
    for (int b = 0; b < B; b++)
        al_attention_pooling_seq_forward(r + (size_t)b * d, hstar + (size_t)b * d,
                                         weights + (size_t)b * n, H + (size_t)b * n * d, w,
                                         mask ? mask + (size_t)b * n : NULL, n, d, scratch);
    al_free(scratch);
    return AL_OK;
}

al_status al_attention_pooling_backward(float *dH, float *dw, const float *H, const float *w,
                                        const uint8_t *mask, int B, int n, int d, const float *dr,
                                        const float *dhstar, const float *dweights)
{
    if (!dH || !dw) return AL_ERR_ARGUMENT;
    al_status st = attention_pooling_check(H, w, B, n, d);
    if (st != AL_OK) return st;
    size_t ks = al_attention_pooling_scratch_floats(n, d);
    float *scratch = al_alloc_floats((double)ks + 2.0 * d + n, NULL);
    if (!scratch) return AL_ERR_NOMEM;
    float *r = scratch + ks, *hstar = r + d, *alpha = hstar + d; /* [d], [d], [n] */
    zero(dH, (size_t)B * n * d);
    zero(dw, (size_t)d);
    for (int b = 0; b < B; b++) {
        const float *Hb = H + (size_t)b * n * d;
        al_attention_pooling_seq_forward(r, hstar, alpha, Hb, w, mask ? mask + (size_t)b * n : NULL,
                                         n, d, scratch);
        al_attention_pooling_seq_backward(
            dH + (size_t)b * n * d, dw, Hb, w, alpha, hstar, dr ? dr + (size_t)b * d : NULL,
            dhstar ? dhstar + (size_t)b * d : NULL, dweights ? dweights + (size_t)b * n : NULL, n,
            d, scratch);
    }
    al_free(scratch);
    return AL_OK;
}

/* ================================================================== context pooling */

static al_status context_pooling_check(const float *H, const float *W, const float *bias,
                                       const float *u, int B, int n, int d, int dw)
{
    if (!H || !W || !bias || !u) return AL_ERR_ARGUMENT;
    if (B < 1 || n < 1 || d < 1 || dw < 1) return AL_ERR_SHAPE;
    if (!al_count_ok(B, n, d, 1) || !al_count_ok(dw, d, 1, 1) || !al_count_ok(n, dw, 3, 1))
        return AL_ERR_OVERFLOW;
    return AL_OK;
}

al_status al_context_pooling_forward(float *s, float *weights, const float *H, const float *W,
                                     const float *b, const float *u, const uint8_t *mask, int B,
                                     int n, int d, int dw)
{
    if (!s || !weights) return AL_ERR_ARGUMENT;
    al_status st = context_pooling_check(H, W, b, u, B, n, d, dw);
    if (st != AL_OK) return st;
    float *scratch = al_alloc_floats((double)al_context_pooling_scratch_floats(n, d, dw), NULL);
    if (!scratch) return AL_ERR_NOMEM;
    for (int i = 0; i < B; i++)
        al_context_pooling_seq_forward(s + (size_t)i * d, weights + (size_t)i * n,
                                       H + (size_t)i * n * d, W, b, u,
                                       mask ? mask + (size_t)i * n : NULL, n, d, dw, scratch);
    al_free(scratch);
    return AL_OK;
}

al_status al_context_pooling_backward(float *dH, float *dW, float *db, float *du, const float *H,
                                      const float *W, const float *b, const float *u,
                                      const uint8_t *mask, int B, int n, int d, int dw,
                                      const float *ds, const float *dweights)
{
    if (!dH || !dW || !db || !du) return AL_ERR_ARGUMENT;
    al_status st = context_pooling_check(H, W, b, u, B, n, d, dw);
    if (st != AL_OK) return st;
    size_t ks = al_context_pooling_scratch_floats(n, d, dw);
    float *scratch = al_alloc_floats((double)ks + d + n, NULL);
    if (!scratch) return AL_ERR_NOMEM;
    float *s = scratch + ks, *alpha = s + d; /* [d], [n] */
    zero(dH, (size_t)B * n * d);
    zero(dW, (size_t)dw * d);
    zero(db, (size_t)dw);
    zero(du, (size_t)dw);
    for (int i = 0; i < B; i++) {
        const float *Hi = H + (size_t)i * n * d;
        al_context_pooling_seq_forward(s, alpha, Hi, W, b, u, mask ? mask + (size_t)i * n : NULL, n,
                                       d, dw, scratch);
        al_context_pooling_seq_backward(
            dH + (size_t)i * n * d, dW, db, du, Hi, W, b, u, alpha, ds ? ds + (size_t)i * d : NULL,
            dweights ? dweights + (size_t)i * n : NULL, n, d, dw, scratch);
    }
    al_free(scratch);
    return AL_OK;
}

/* ================================================================== structured self-attention */

static al_status ssa_check(const float *H, const float *W_s1, const float *W_s2, int B, int n,
                           int d, int da, int r)
{
    if (!H || !W_s1 || !W_s2) return AL_ERR_ARGUMENT;
    if (B < 1 || n < 1 || d < 1 || da < 1 || r < 1) return AL_ERR_SHAPE;
    if (!al_count_ok(B, n, d, 1) || !al_count_ok(da, d, 1, 1) || !al_count_ok(r, da, 1, 1) ||
        !al_count_ok(B, r, d, 1) || !al_count_ok(B, r, n, 1) || !al_count_ok(n, da, 3, 1) ||
        !al_count_ok(r, r, 1, 1))
        return AL_ERR_OVERFLOW;
    return AL_OK;
}

al_status al_structured_self_attention_forward(float *M, float *weights, float *penalty,
                                               const float *H, const float *W_s1, const float *W_s2,
                                               const uint8_t *mask, int B, int n, int d, int da,
                                               int r)
{
    if (!M || !weights || !penalty) return AL_ERR_ARGUMENT;
    al_status st = ssa_check(H, W_s1, W_s2, B, n, d, da, r);
    if (st != AL_OK) return st;
    float *scratch =
        al_alloc_floats((double)al_structured_self_attention_scratch_floats(n, d, da, r), NULL);
    if (!scratch) return AL_ERR_NOMEM;
    for (int b = 0; b < B; b++)
        al_structured_self_attention_seq_forward(
            M + (size_t)b * r * d, weights + (size_t)b * r * n, penalty + b, H + (size_t)b * n * d,
            W_s1, W_s2, mask ? mask + (size_t)b * n : NULL, n, d, da, r, scratch);
    al_free(scratch);
    return AL_OK;
}

al_status al_structured_self_attention_backward(float *dH, float *dW_s1, float *dW_s2,
                                                const float *H, const float *W_s1,
                                                const float *W_s2, const uint8_t *mask, int B,
                                                int n, int d, int da, int r, const float *dM,
                                                const float *dweights, const float *dpenalty)
{
    if (!dH || !dW_s1 || !dW_s2) return AL_ERR_ARGUMENT;
    al_status st = ssa_check(H, W_s1, W_s2, B, n, d, da, r);
    if (st != AL_OK) return st;
    if (dpenalty)
        for (int b = 0; b < B; b++)
            if (!isfinite(dpenalty[b])) return AL_ERR_NONFINITE;
    size_t ks = al_structured_self_attention_scratch_floats(n, d, da, r);
    float *scratch = al_alloc_floats((double)ks + (double)r * d + (double)r * n, NULL);
    if (!scratch) return AL_ERR_NOMEM;
    float *M = scratch + ks, *A = M + (size_t)r * d; /* [r,d], [r,n] */
    float penalty;
    zero(dH, (size_t)B * n * d);
    zero(dW_s1, (size_t)da * d);
    zero(dW_s2, (size_t)r * da);
    for (int b = 0; b < B; b++) {
        const float *Hb = H + (size_t)b * n * d;
        al_structured_self_attention_seq_forward(M, A, &penalty, Hb, W_s1, W_s2,
                                                 mask ? mask + (size_t)b * n : NULL, n, d, da, r,
                                                 scratch);
        al_structured_self_attention_seq_backward(
            dH + (size_t)b * n * d, dW_s1, dW_s2, Hb, W_s1, W_s2, A,
            dM ? dM + (size_t)b * r * d : NULL, dweights ? dweights + (size_t)b * r * n : NULL,
            dpenalty ? dpenalty[b] : 0.0f, n, d, da, r, scratch);
    }
    al_free(scratch);
    return AL_OK;
}
