/*
 * memory_rnn.h: kernels of the memory-RNN family, one sequence at a time, on plain float arrays.
 *
 *   the SimpleRNN with self-attention over its own past states (the "self-attention RNN"):
 *     h_t = tanh(A [x_t; c_{t−1}] + b),  c_t = Σ_{i≤t} α_{t,i} h_i,  α_t = softmax_i(align(h_i, h_t))
 *     additive align: vᵀ tanh(W_h h_i + W_s h_t) (Bahdanau et al. 2015, §3.1 and appendix
 *     A.1.2, applied to the model's own states); dot align: (W_K h_i)ᵀ (W_Q h_t).
 *   the LSTMN, the LSTM with a memory tape (Cheng, Dong & Lapata 2016, "Long Short-Term
 *     Memory-Networks for Machine Reading", §3.1): attention over the earlier hidden and memory
 *     cells replaces the previous state of an LSTM.
 *
 * Conventions are those of kernels.h: row-major float32, PyTorch weight layout [out, in], every
 * size >= 1, gradients ACCUMULATE (+=). Steps are 0-based here (t = 0 … T−1); the docs use 1-based.
 *
 * Memory: the caller provides two buffers per call, sized by the functions below (in floats):
 *   saved    activations written by the forward and read by the backward (the backward takes the
 *            very buffers the forward filled, together with its outputs h, c and weights);
 *   scratch  working space, contents irrelevant between calls (the size covers forward and
 *            backward).
 * Nothing here allocates, prints or checks arguments: src/api/memory_rnn.c validates.
 *
 * The one op-specific hot loop, the additive score vᵀ tanh(P_i + q) over the tape, exists as a
 * commented _scalar twin and a terse _simd128 twin; dispatch.c picks one at compile time.
 */
#ifndef AL_KERNELS_MEMORY_RNN_H
#define AL_KERNELS_MEMORY_RNN_H

#include <stddef.h>

#include "kernels.h"

enum { AL_MEMRNN_ALIGN_ADDITIVE = 0, AL_MEMRNN_ALIGN_DOT = 1 };

/* ------------------------------------------------------------------ additive score over a tape */

/*
 * e [n]: e_i = Σ_k v_k · tanh(P_i[k] + q[k]),   P [n,d] (row stride d), q [d], v [d].
 * tanh is 1 − 2/(e^{2x} + 1) with the shared Cephes exp (al_expf_scalar / al_v4_exp), so both
 * twins agree to rounding; absolute error about 2e-7.
 */
void al_memory_score_forward_scalar(float *e, const float *P, const float *q, const float *v, int n,
                                    int d);
/* From de [n]: dP [n,d] +=, dq [d] +=, dv [d] += (dv may be NULL). u = tanh(P_i + q) is recomputed. */
void al_memory_score_backward_scalar(float *dP, float *dq, float *dv, const float *de,
                                     const float *P, const float *q, const float *v, int n, int d);
#if AL_SIMD128
void al_memory_score_forward_simd128(float *e, const float *P, const float *q, const float *v,
                                     int n, int d);
void al_memory_score_backward_simd128(float *dP, float *dq, float *dv, const float *de,
                                      const float *P, const float *q, const float *v, int n, int d);
#endif
/* the dispatched twins (dispatch.c) */
void al_memory_score_forward(float *e, const float *P, const float *q, const float *v, int n,
                             int d);
void al_memory_score_backward(float *dP, float *dq, float *dv, const float *de, const float *P,
                              const float *q, const float *v, int n, int d);

/* ------------------------------------------------------------------ self-attention RNN */

/* saved: c [T,H], keys [T,da] (W_h h_i or W_K h_i), queries [T,da] (W_s h_t or W_Q h_t). */
size_t al_sarnn_saved_floats(int T, int H, int da);
/* scratch: T·H + 2·T·da + H + 2·T */
size_t al_sarnn_scratch_floats(int T, int H, int da);

/*
 * One sequence. x [T,in]; A [H, in+H] (columns 0…in−1 read x_t, columns in… read c_{t−1});
 * b [H]; W_key [da,H] (W_h, or W_K); W_query [da,H] (W_s, or W_Q); v [da] (additive; unused
 * for dot). Writes h [T,H], weights [T,T] (row t: α_t over i ≤ t, zeros for i > t) and saved.
 */
void al_sarnn_seq_forward(float *h, float *weights, float *saved, float *scratch, const float *x,
                          const float *A, const float *b, const float *W_key, const float *W_query,
                          const float *v, int T, int in, int H, int da, int align);
/*
 * scores [T,T] of a forward, from its saved buffer: row t the align scores over i <= t the
 * softmax read (the forward's own score line on the keys and queries it saved), -INFINITY for
 * i > t. v [da] as in the forward (unused for dot).
 */
void al_sarnn_seq_scores(float *scores, const float *saved, const float *v, int T, int H, int da,
                         int align);
/*
 * Full BPTT from dh [T,H] and dweights [T,T] (either may be NULL = zero), given the forward's
 * h, weights and saved. Accumulates dx [T,in], dA [H,in+H], db [H], dW_key, dW_query [da,H],
 * dv [da] (additive only; may be NULL for dot).
 */
void al_sarnn_seq_backward(float *dx, float *dA, float *db, float *dW_key, float *dW_query,
                           float *dv, const float *dh, const float *dweights, const float *h,
                           const float *weights, const float *saved, float *scratch, const float *x,
                           const float *A, const float *W_key, const float *W_query, const float *v,
                           int T, int in, int H, int da, int align);

/* ------------------------------------------------------------------ LSTMN */

/* saved: h̃ [T,H], c̃ [T,H], gates [T,4H] (after σ/tanh), tanh(c) [T,H], keys W_h h_i [T,H],
 * queries W_x x_t + W_ht h̃_{t−1} [T,H]: 9·T·H. */
size_t al_lstmn_saved_floats(int T, int H);
/* scratch: 8·T·H + 3·H + 2·T */
size_t al_lstmn_scratch_floats(int T, int H);

/*
 * One sequence. x [T,in]; W_h, W_ht [H,H]; W_x [H,in]; v [H]; W [4H, H+in] (columns 0…H−1 read
 * h̃_t, the rest x_t; rows i, f, g, o as torch.nn.LSTM); b [4H]. Writes h, c [T,H],
 * weights [T,T] (row t: s_t over i < t; row 0 all zeros) and saved.
 */
void al_lstmn_seq_forward(float *h, float *c, float *weights, float *saved, float *scratch,
                          const float *x, const float *W_h, const float *W_x, const float *W_ht,
                          const float *v, const float *W, const float *b, int T, int in, int H);
/* scores [T,T] of a forward, from its saved buffer: row t the scores a_i, i < t, the softmax
 * read (recomputed by the forward's own score line), -INFINITY for i >= t (row 0: all). */
void al_lstmn_seq_scores(float *scores, const float *saved, const float *v, int T, int H);
/* Full BPTT from dh, dc [T,H] and dweights [T,T] (each may be NULL = zero). Accumulates
 * dx [T,in], dW_h, dW_ht [H,H], dW_x [H,in], dv [H], dW [4H,H+in], db [4H]. */
void al_lstmn_seq_backward(float *dx, float *dW_h, float *dW_x, float *dW_ht, float *dv, float *dW,
                           float *db, const float *dh, const float *dc, const float *dweights,
                           const float *h, const float *c, const float *weights, const float *saved,
                           float *scratch, const float *x, const float *W_h, const float *W_x,
                           const float *W_ht, const float *v, const float *W, int T, int in, int H);

#endif /* AL_KERNELS_MEMORY_RNN_H */
