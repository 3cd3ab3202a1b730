/*
 * api/recurrent.h: multi-layer, optionally bidirectional RNN (tanh or relu), LSTM and GRU over a
 * batch of whole sequences, forward and backward, as torch.nn.RNN / nn.LSTM / nn.GRU with
 * batch_first=True. Equations: src/kernels/recurrent.h and docs/recurrent.md.
 *
 *     // a one-layer LSTM, B = 1, T = 5 steps of I = 3 inputs, H = 8 hidden
 *     const float *params[4] = { w_ih, w_hh, b_ih, b_hh };   // [32,3] [32,8] [32] [32]
 *     float out[5 * 8], hn[8], cn[8];
 *     al_status st = al_recurrent_forward(AL_RECURRENT_LSTM, 1, 5, 3, 8, 1, 0, x, params,
 *                                         NULL, NULL, out, hn, cn);
 *
 * Shapes (D = 2 when bidirectional, else 1; G = 1 RNN, 4 LSTM, 3 GRU; L layers):
 *   x [B,T,I]; output [B,T,D·H] (forward direction in columns 0..H, reverse in H..2H);
 *   h0, c0, hn, cn [L·D, B, H] (row l·D + d, as PyTorch orders them);
 *   params: L·D·4 pointers, entry (l·D + d)·4 + {0,1,2,3} = weight_ih_l{l}[_reverse] [G·H, I_l],
 *   weight_hh [G·H, H], bias_ih [G·H], bias_hh [G·H], with I_0 = I and I_l = D·H for l > 0.
 *   Biases are optional as a pair (both NULL: bias=False); every layer must agree.
 * Memory: the forward allocates O(B·T·(G+3)·D·H) floats of scratch, the backward keeps every
 * layer's gates and outputs (O(L·B·T·D·(G+2)·H)); all of it is freed before returning.
 */
#ifndef AL_API_RECURRENT_H
#define AL_API_RECURRENT_H

#include <stdint.h>

#include "../base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The cells (same values as the kernels' al_recurrent_cell). */
enum { AL_RNN_TANH = 0, AL_RNN_RELU = 1, AL_LSTM = 2, AL_GRU = 3 };

/*
 * Forward. h0, c0 may be NULL (zeros); c0/cn are read/written for AL_LSTM only. hn, cn may be
 * NULL when not wanted. Statuses: AL_ERR_ARGUMENT (a NULL array or weight, an unknown cell, biases
 * not given as a pair or not for every layer), AL_ERR_SHAPE (a size < 1), AL_ERR_OVERFLOW,
 * AL_ERR_NOMEM.
 */
al_status al_recurrent_forward(int cell, int B, int T, int I, int H, int layers, int bidirectional,
                               const float *x, const float *const *params, const float *h0,
                               const float *c0, float *output, float *hn, float *cn);

/*
 * Backward (the forward is rerun inside, keeping its gates): gradients of a loss L given
 * doutput = ∂L/∂output [B,T,D·H], dhn = ∂L/∂hn, dcn = ∂L/∂cn [L·D,B,H] (each may be NULL: zero).
 * WRITES (=, not +=) dx [B,T,I], dh0 and dc0 [L·D,B,H] (each may be NULL when not wanted; dc0
 * for AL_LSTM only) and every parameter gradient through dparams, laid out like params (bias
 * entries must be non-NULL exactly when the params' biases are).
 */
al_status al_recurrent_backward(int cell, int B, int T, int I, int H, int layers, int bidirectional,
                                const float *x, const float *const *params, const float *h0,
                                const float *c0, const float *doutput, const float *dhn,
                                const float *dcn, float *dx, float *const *dparams, float *dh0,
                                float *dc0);

#ifdef __cplusplus
}
#endif

#endif /* AL_API_RECURRENT_H */
