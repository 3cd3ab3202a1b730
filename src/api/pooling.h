/*
 * api/pooling.h: pooling attentions, which reduce a sequence H [n,d] to a fixed-size summary and
 * return the attention weights they used. Included by attnlab.h.
 *
 *     float H[2 * 6 * 8], w[8], r[2 * 8], hstar[2 * 8], weights[2 * 6];   // B = 2, n = 6, d = 8
 *     uint8_t mask[2 * 6] = { 0, 0, 0, 0, 1, 1,  0, 0, 0, 0, 0, 0 };       // 1 = ignore
 *     al_status st = al_attention_pooling_forward(r, hstar, weights, H, w, mask, 2, 6, 8);
 *
 *   al_attention_pooling_*         Zhou et al. 2016: M = tanh(H), α = softmax(M w), r = Hᵀα,
 *                                  h* = tanh(r)
 *   al_context_pooling_*           Yang et al. 2016 (HAN): uᵢ = tanh(W hᵢ + b),
 *                                  α = softmax(uᵢᵀ u), s = Σ αᵢ hᵢ
 *   al_structured_self_attention_* Lin et al. 2017: A = softmax(W_s2 tanh(W_s1 Hᵀ)) over n for
 *                                  each of r hops, M = A H, penalty = ‖A Aᵀ − I‖²_F
 *
 * Every tensor has a leading batch dimension B (B = 1 for one sequence): H [B,n,d], the mask
 * [B,n] (uint8, 1 = ignore that position) or NULL, and every output and upstream gradient one
 * slice per batch item. The parameters are shared by the batch, so their gradients are sums
 * over it. A fully masked sequence gives zero weights and zero r, h*, s, M (and the penalty
 * ‖−I‖² = r), never NaN.
 *
 * Backward functions take the forward's inputs (they recompute the forward internally) plus the
 * upstream gradients of the outputs, any of which may be NULL (= zero), and WRITE (=) the
 * gradient of every input and parameter (they are zeroed first, then the batch accumulates).
 *
 * Status: AL_ERR_ARGUMENT for a NULL required array or a non-finite dpenalty, AL_ERR_SHAPE for a
 * size < 1, AL_ERR_OVERFLOW for a tensor of 2^31 elements or more, AL_ERR_NOMEM when scratch
 * cannot be allocated. Maths: src/kernels/attention_pooling.c.
 */
#ifndef AL_API_POOLING_H
#define AL_API_POOLING_H

#include <stdint.h>

#include "../base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* r [B,d], hstar [B,d], weights [B,n] from H [B,n,d], w [d], mask [B,n] or NULL. */
al_status al_attention_pooling_forward(float *r, float *hstar, float *weights, const float *H,
                                       const float *w, const uint8_t *mask, int B, int n, int d);
/* dH [B,n,d], dw [d] = from dr [B,d], dhstar [B,d], dweights [B,n] (each may be NULL). */
al_status al_attention_pooling_backward(float *dH, float *dw, const float *H, const float *w,
                                        const uint8_t *mask, int B, int n, int d, const float *dr,
                                        const float *dhstar, const float *dweights);

/* s [B,d], weights [B,n] from H [B,n,d], W [dw,d], b [dw], u [dw], mask [B,n] or NULL. */
al_status al_context_pooling_forward(float *s, float *weights, const float *H, const float *W,
                                     const float *b, const float *u, const uint8_t *mask, int B,
                                     int n, int d, int dw);
/* dH [B,n,d], dW [dw,d], db [dw], du [dw] = from ds [B,d], dweights [B,n] (either may be NULL). */
al_status al_context_pooling_backward(float *dH, float *dW, float *db, float *du, const float *H,
                                      const float *W, const float *b, const float *u,
                                      const uint8_t *mask, int B, int n, int d, int dw,
                                      const float *ds, const float *dweights);

/* M [B,r,d], weights [B,r,n], penalty [B] from H [B,n,d], W_s1 [da,d], W_s2 [r,da],
 * mask [B,n] or NULL (shared by the r hops). */
al_status al_structured_self_attention_forward(float *M, float *weights, float *penalty,
                                               const float *H, const float *W_s1, const float *W_s2,
                                               const uint8_t *mask, int B, int n, int d, int da,
                                               int r);
/* dH [B,n,d], dW_s1 [da,d], dW_s2 [r,da] = from dM [B,r,d], dweights [B,r,n], dpenalty [B]
 * (each may be NULL). */
al_status al_structured_self_attention_backward(float *dH, float *dW_s1, float *dW_s2,
                                                const float *H, const float *W_s1,
                                                const float *W_s2, const uint8_t *mask, int B,
                                                int n, int d, int da, int r, const float *dM,
                                                const float *dweights, const float *dpenalty);

#ifdef __cplusplus
}
#endif

#endif /* AL_API_POOLING_H */
