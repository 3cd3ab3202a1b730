/*
 * attention_pooling.h: the pooling attentions that reduce one sequence H [n,d] to a fixed-size
 * summary, forward and backward, on plain float arrays (one sequence; the batch loop lives in
 * src/api/pooling.c).
 *
 * Names end in _seq_forward/_seq_backward (one sequence) so that the batched, validated
 * al_<op>_forward/_backward of api/pooling.h keep the plain names.
 *
 *   al_attention_pooling_*        Zhou et al. 2016 (Att-BLSTM), eqs. 9-12:
 *                                 M = tanh(H), α = softmax(M w), r = Hᵀα, h* = tanh(r)
 *   al_context_pooling_*          Yang et al. 2016 (HAN), eqs. 5-7:
 *                                 uᵢ = tanh(W hᵢ + b), α = softmax(uᵢᵀ u), s = Σ αᵢ hᵢ
 *   al_structured_self_attention_* Lin et al. 2017, eqs. 6-8:
 *                                 A = softmax(W_s2 tanh(W_s1 Hᵀ)) (over n, per hop), M = A H,
 *                                 P = ‖A Aᵀ − I‖²_F
 *
 * Conventions (kernels.h): row-major float32, weights in nn.Linear layout [out,in], uint8 mask
 * [n] with 1 = ignore that position; a fully masked sequence gives zero weights, and therefore
 * zero r, h* = tanh(0) = 0, s and M (the penalty is then ‖−I‖² = r, as the equation says).
 * Backward ACCUMULATES (+=) into every gradient buffer; an upstream gradient pointer may be NULL,
 * meaning zero. Backward takes the forward's saved outputs (the weights, h*) and recomputes the
 * cheap tanh activations into scratch.
 *
 * Kernels never allocate: each takes `scratch`, at least al_<op>_scratch_floats(...) floats
 * (one size serves forward and backward). The hot loops (scores, softmax, weighted sums, outer
 * products) are the dispatched al_sgemm / al_sgemv / al_softmax_* primitives, which have
 * _scalar and _simd128 twins; the remaining loops here (bias add, column sums) are O(n·dw),
 * below the O(n·d·dw) products, so there is no _simd128 twin of this file.
 */
#ifndef AL_ATTENTION_POOLING_H
#define AL_ATTENTION_POOLING_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------ attention pooling (Zhou) */

/* floats of scratch for the forward and backward below: 2·n·d + 2·n + d */
size_t al_attention_pooling_scratch_floats(int n, int d);

/*
 * r [d] = Hᵀ α, hstar [d] = tanh(r), alpha [n] = softmax(tanh(H) w) with H [n,d], w [d],
 * mask [n] or NULL.
 */
void al_attention_pooling_seq_forward(float *r, float *hstar, float *alpha, const float *H,
                                      const float *w, const uint8_t *mask, int n, int d,
                                      float *scratch);

/*
 * dH [n,d] +=, dw [d] += from dr [d], dhstar [d], dalpha [n] (each may be NULL), given the
 * forward's alpha [n] and hstar [d].
 */
void al_attention_pooling_seq_backward(float *dH, float *dw, const float *H, const float *w,
                                       const float *alpha, const float *hstar, const float *dr,
                                       const float *dhstar, const float *dalpha, int n, int d,
                                       float *scratch);

/* ------------------------------------------------------------------ context pooling (HAN) */

/* floats of scratch: 3·n·dw + 2·n */
size_t al_context_pooling_scratch_floats(int n, int d, int dw);

/*
 * s [d] = Hᵀ α, alpha [n] = softmax(tanh(H Wᵀ + b) u) with H [n,d], W [dw,d], b [dw], u [dw],
 * mask [n] or NULL.
 */
void al_context_pooling_seq_forward(float *s, float *alpha, const float *H, const float *W,
                                    const float *b, const float *u, const uint8_t *mask, int n,
                                    int d, int dw, float *scratch);

/* dH [n,d], dW [dw,d], db [dw], du [dw] += from ds [d], dalpha [n] (either may be NULL). */
void al_context_pooling_seq_backward(float *dH, float *dW, float *db, float *du, const float *H,
                                     const float *W, const float *b, const float *u,
                                     const float *alpha, const float *ds, const float *dalpha,
                                     int n, int d, int dw, float *scratch);

/* ------------------------------------------------------------------ structured self-attention */

/* floats of scratch: 3·n·da + 2·r·n + r·r */
size_t al_structured_self_attention_scratch_floats(int n, int d, int da, int r);

/*
 * A [r,n] = softmax_n(W_s2 tanh(W_s1 Hᵀ)), M [r,d] = A H, *penalty = ‖A Aᵀ − I‖²_F with
 * H [n,d], W_s1 [da,d], W_s2 [r,da], mask [n] or NULL (shared by the r hops).
 */
void al_structured_self_attention_seq_forward(float *M, float *A, float *penalty, const float *H,
                                              const float *W_s1, const float *W_s2,
                                              const uint8_t *mask, int n, int d, int da, int r,
                                              float *scratch);

/* dH [n,d], dW_s1 [da,d], dW_s2 [r,da] += from dM [r,d], dA [r,n] (either may be NULL) and the
 * penalty's upstream gradient dpenalty (a number; 0 for none), given the forward's A [r,n]. */
void al_structured_self_attention_seq_backward(float *dH, float *dW_s1, float *dW_s2,
                                               const float *H, const float *W_s1, const float *W_s2,
                                               const float *A, const float *dM, const float *dA,
                                               float dpenalty, int n, int d, int da, int r,
                                               float *scratch);

#endif /* AL_ATTENTION_POOLING_H */
