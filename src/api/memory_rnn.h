/*
 * api/memory_rnn.h: recurrent networks that attend over their own past, validated entry points.
 *
 *     // self-attention RNN, one sequence of T = 5 steps, in = 3, H = 8, da = 4, additive align
 *     float h[5 * 8], weights[5 * 5];
 *     al_status st = al_self_attention_rnn_forward(h, weights, x, A, b, W_h, W_s, v,
 *                                                  1, 5, 3, 8, 4, AL_MEMRNN_ADDITIVE);
 *
 * The self-attention RNN: h_t = tanh(A [x_t; c_{t−1}] + b), c_t = Σ_{i≤t} α_{t,i} h_i,
 * α_t = softmax_i(align(h_i, h_t)), c_{−1} = 0; align is additive vᵀ tanh(W_h h_i + W_s h_t)
 * or dot (W_K h_i)ᵀ (W_Q h_t).
 * The LSTMN (Cheng, Dong & Lapata 2016, §3.1): an LSTM whose previous state is replaced by an
 * attention read h̃_t, c̃_t over the earlier hidden and memory cells.
 *
 * Arrays are row-major float32 with a batch dimension B first (x [B,T,in], h [B,T,H], ...);
 * parameters in PyTorch layout. Backward functions recompute the forward (allocating its saved
 * activations with al_malloc, freed before returning, AL_ERR_NOMEM when that fails) and
 * ACCUMULATE (+=) into every gradient array: zero them first. Upstream gradients (dh, dc,
 * dweights) may be NULL, meaning zero. Maths: src/kernels/memory_rnn.c. Docs: docs/memory-rnn.md.
 *
 * Status: AL_ERR_ARGUMENT for a NULL array or an unknown align, AL_ERR_SHAPE for a size < 1,
 * AL_ERR_OVERFLOW when a tensor or the scratch would reach 2^31 bytes, AL_ERR_NOMEM.
 */
#ifndef AL_API_MEMORY_RNN_H
#define AL_API_MEMORY_RNN_H

#include <stdint.h>

#include "../base.h"

typedef enum { AL_MEMRNN_ADDITIVE = 0, AL_MEMRNN_DOT = 1 } al_memrnn_align;

/*
 * h [B,T,H], weights [B,T,T] (row t: α over i ≤ t, zeros for i > t) from x [B,T,in],
 * A [H, in+H], b [H], W_key [da,H] (W_h, or W_K for dot), W_query [da,H] (W_s, or W_Q),
 * v [da] (additive; ignored, may be NULL, for dot). align: an al_memrnn_align.
 */
al_status al_self_attention_rnn_forward(float *h, float *weights, const float *x, const float *A,
                                        const float *b, const float *W_key, const float *W_query,
                                        const float *v, int B, int T, int in, int H, int da,
                                        int align);
/* dx [B,T,in], dA, db, dW_key, dW_query, dv (additive only; may be NULL for dot) +=, from
 * dh [B,T,H] and dweights [B,T,T]. */
al_status al_self_attention_rnn_backward(float *dx, float *dA, float *db, float *dW_key,
                                         float *dW_query, float *dv, const float *dh,
                                         const float *dweights, const float *x, const float *A,
                                         const float *b, const float *W_key, const float *W_query,
                                         const float *v, int B, int T, int in, int H, int da,
                                         int align);

/*
 * h, c [B,T,H], weights [B,T,T] (row t: s over i < t; row 0 zeros) from x [B,T,in],
 * W_h [H,H], W_x [H,in], W_ht [H,H], v [H], W [4H, H+in] (gates i, f, g, o), b [4H].
 */
al_status al_lstmn_forward(float *h, float *c, float *weights, const float *x, const float *W_h,
                           const float *W_x, const float *W_ht, const float *v, const float *W,
                           const float *b, int B, int T, int in, int H);
/* dx, dW_h, dW_x, dW_ht, dv, dW, db +=, from dh, dc [B,T,H] and dweights [B,T,T]. */
al_status al_lstmn_backward(float *dx, float *dW_h, float *dW_x, float *dW_ht, float *dv, float *dW,
                            float *db, const float *dh, const float *dc, const float *dweights,
                            const float *x, const float *W_h, const float *W_x, const float *W_ht,
                            const float *v, const float *W, const float *b, int B, int T, int in,
                            int H);

#endif
