/*
 * recurrent.h: kernels of the recurrent family: one layer, one direction of an Elman RNN (tanh or
 * relu), an LSTM or a GRU over a whole batch of sequences, forward and backward (BPTT), plus the
 * fused per-step gate kernels (scalar and SIMD128 twins).
 *
 * Follows PyTorch's documented equations (torch.nn.RNN, torch.nn.LSTM, torch.nn.GRU), gate order
 * and weight layout, for one time step t with input x_t, previous state h_{t-1} (c_{t-1}):
 *   RNN:  h_t = act(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh)              act = tanh or relu
 *   LSTM: [i f g o] = W_ih x_t + b_ih + W_hh h_{t-1} + b_hh             (stacked, 4H rows)
 *         i = σ(i), f = σ(f), g = tanh(g), o = σ(o)
 *         c_t = f ⊙ c_{t-1} + i ⊙ g,   h_t = o ⊙ tanh(c_t)
 *   GRU:  [a_r a_z a_n] = W_ih x_t + b_ih,  [h_r h_z h_n] = W_hh h_{t-1} + b_hh   (3H rows each)
 *         r = σ(a_r + h_r), z = σ(a_z + h_z), n = tanh(a_n + r ⊙ h_n)
 *         h_t = (1 − z) ⊙ n + z ⊙ h_{t-1}
 * Weights: w_ih [G·H, I], w_hh [G·H, H], b_ih/b_hh [G·H] (G = 1, 4, 3 gates), nn.Linear layout.
 *
 * How a layer runs (al_recurrent_layer_forward): one sgemm computes the input projections of
 * every (batch, step) at once (x [B·T, I] · w_ihᵀ), then each step adds W_hh h_{t-1} with one
 * GEMV (B == 1: over W_hh packed once per call, al_recurrent_packed_gemv, when the sequence is
 * long enough to pay for the packing) or one sgemm over the batch (B > 1), and a fused gate kernel applies the
 * nonlinearities and the state update in one pass. The activated gates are kept (in the same
 * buffer that held the projections) for the backward, which is plain BPTT over those saved gates:
 * per step an elementwise pass and one transposed sgemv for dh_{t-1}; the weight gradients are
 * three sgemms over all steps at the end.
 *
 * Several layers and both directions (al_recurrent_stack_*, recurrent_stack.c) stack these
 * one-layer kernels; api/recurrent.c validates and allocates for them, and the models call them
 * inside their own blocks. The same stack over a batch of sequences of different lengths
 * (al_recurrent_stack_*_lengths, recurrent_lengths.c) steps only the sequences still running.
 *
 * Deliberately not here: validation, allocation, dropout, projections (proj_size), packed
 * sequences as an argument format (the _lengths kernels take padded [B,T,·] arrays and pack
 * inside).
 *
 * Backward convention (kernels.h): every gradient ACCUMULATES (+=).
 */
#ifndef AL_KERNELS_RECURRENT_H
#define AL_KERNELS_RECURRENT_H

#include <stddef.h>
#include <stdint.h>

#include "kernels.h"

typedef enum {
    AL_RECURRENT_RNN_TANH = 0,
    AL_RECURRENT_RNN_RELU = 1,
    AL_RECURRENT_LSTM = 2,
    AL_RECURRENT_GRU = 3
} al_recurrent_cell;

/* Gates per cell: 1 (RNN), 4 (LSTM: i f g o), 3 (GRU: r z n). 0 for an unknown cell. */
int al_recurrent_gates(int cell);

/* ------------------------------------------------------------------ fused gate kernels, one step */

/*
 * RNN: h [H] = act(pre [H]), act = tanh (relu == 0) or relu. h may alias pre.
 */
void al_recurrent_rnn_cell_forward_scalar(float *h, const float *pre, int H, int relu);
/*
 * LSTM: gates [4H] holds the pre-activations (i f g o) on entry and the activated gates on exit;
 * c [H] = f ⊙ c_prev + i ⊙ g, h [H] = o ⊙ tanh(c). c_prev [H] may be NULL (zeros).
 */
void al_recurrent_lstm_cell_forward_scalar(float *gates, float *c, float *h, const float *c_prev,
                                           int H);
/*
 * GRU: gates [3H] holds a = W_ih x + b_ih on entry (a_r a_z a_n) and the activated r z n on exit;
 * hh [3H] = W_hh h_prev + b_hh (read only; its n part is what the backward needs, saved by the
 * layer). h [H] = (1 − z) ⊙ n + z ⊙ h_prev; h_prev [H] may be NULL (zeros).
 */
void al_recurrent_gru_cell_forward_scalar(float *gates, float *h, const float *hh,
                                          const float *h_prev, int H);

#if AL_SIMD128
void al_recurrent_rnn_cell_forward_simd128(float *h, const float *pre, int H, int relu);
void al_recurrent_lstm_cell_forward_simd128(float *gates, float *c, float *h, const float *c_prev,
                                            int H);
void al_recurrent_gru_cell_forward_simd128(float *gates, float *h, const float *hh,
                                           const float *h_prev, int H);
#endif

/* ------------------------------------------------------------------ the recurrent GEMV, packed
 *
 * Each step of a B == 1 layer is one GEMV over W_hh [N = G·H, K = H]. In PyTorch's layout its
 * rows are dot products that end in horizontal sums; packed once per layer call, the same GEMV
 * becomes broadcast-and-multiply over contiguous panels: W is cut into blocks of w columns of
 * Wᵀ (w = 32 while 32 rows remain, then 8, 4, 1), block n0 stored at P + n0·K as [K][w]
 * (P[n0·K + k·w + i] = W[(n0 + i)·lda + k]), so a block's w outputs stay in registers while its
 * K rows stream by from one pointer.
 */

/* Floats of P for W [N,K]: N·K. */
size_t al_recurrent_packed_floats(int N, int K);
/* P (al_recurrent_packed_floats) = W [N,K] (row stride lda) in the packed layout above. */
void al_recurrent_pack_scalar(float *P, const float *W, int lda, int N, int K);
/*
 * y [N] = init + W x, W packed by al_recurrent_pack; init [N] or NULL (zeros), and it may be y
 * itself (the LSTM adds to the input projections in place). Every output is summed in the same
 * order in both twins: init, then k = 0, 1, ..., K − 1.
 */
void al_recurrent_packed_gemv_scalar(float *y, const float *P, const float *x, const float *init,
                                     int N, int K);
#if AL_SIMD128
void al_recurrent_pack_simd128(float *P, const float *W, int lda, int N, int K);
void al_recurrent_packed_gemv_simd128(float *y, const float *P, const float *x, const float *init,
                                      int N, int K);
#endif
void al_recurrent_pack(float *P, const float *W, int lda, int N, int K);
void al_recurrent_packed_gemv(float *y, const float *P, const float *x, const float *init, int N,
                              int K);

/* The dispatched twins (picked at compile time in dispatch.c). */
void al_recurrent_rnn_cell_forward(float *h, const float *pre, int H, int relu);
void al_recurrent_lstm_cell_forward(float *gates, float *c, float *h, const float *c_prev, int H);
void al_recurrent_gru_cell_forward(float *gates, float *h, const float *hh, const float *h_prev,
                                   int H);

/* The scalar nonlinearities of the twins (the SIMD twins evaluate the same formulas per lane):
 * σ(x) = 1 / (1 + e^−x) with al_expf_scalar, and tanh as a [13/6] rational minimax approximation
 * on [−7.9, 7.9] (Eigen's generic_fast_tanh_float; |error| < 2e-7 there, and beyond the clamp
 * tanh rounds to ±1 anyway). */
float al_recurrent_sigmoidf(float x);
float al_recurrent_tanhf(float x);

/* out rows (stride ldo) += W [N,K] · v rows (stride ldv), R rows: a GEMV for one row, one sgemm
 * for more, nothing for none. _t: out rows [K] += Wᵀ · v rows [N]. */
void al_recurrent_add_matvec(int R, int N, int K, const float *W, const float *v, int ldv,
                             float *out, int ldo);
void al_recurrent_add_matvec_t(int R, int N, int K, const float *W, const float *v, int ldv,
                               float *out, int ldo);

/*
 * Backward of one cell step for one row (every layer backward's elementwise part), from dh [H]
 * (and dc [H], LSTM) at the step's output: writes dpre [G·H] (∂/∂ the input projection) and, for
 * the GRU, dhh [G·H] (∂/∂(W_hh h + b_hh)); sets dh_prev [H] to the part of ∂/∂h_{t−1} that does
 * not go through W_hh, and dc_prev [H] (LSTM; it may be dc itself, updated in place).
 * g the activated gates [G·H]; st the GRU's W_hn h_{t−1} + b_hn [H]; c, cp the LSTM's c_t and
 * c_{t−1} (cp NULL: zeros); h, hp the step's h_t and h_{t−1}. Unused arguments may be NULL.
 */
void al_recurrent_cell_backward(int cell, int H, const float *g, const float *st, const float *c,
                                const float *cp, const float *h, const float *hp, const float *dh,
                                const float *dc, float *dpre, float *dhh, float *dh_prev,
                                float *dc_prev);

/* ------------------------------------------------------------------ one layer, one direction */

/* Packing W_hh pays from this many steps on (B == 1, SIMD builds): it costs about one step's
 * GEMV and saves a fifth of every step's. */
#define AL_RECURRENT_PACK_MIN_T 8

/* Floats of scratch al_recurrent_layer_forward needs: B·3H for the GRU, plus G·H·H for the
 * packed W_hh when B == 1, T >= AL_RECURRENT_PACK_MIN_T and the build has SIMD twins; else 0. */
size_t al_recurrent_layer_forward_scratch(int cell, int B, int T, int H);

/*
 * Run one layer in one direction over B sequences of T steps (reverse: from t = T−1 down to 0).
 *   x [B,T,I]                      the layer input (row b·T + t)
 *   w_ih [G·H, I], w_hh [G·H, H]   b_ih, b_hh [G·H] or both NULL (no bias)
 *   h0, c0 [B,H] or NULL (zeros); c0 for the LSTM only
 *   y: h_t written at y[(b·T + t)·ldy + 0 .. H) (ldy >= H: a direction's slice of [B,T,dirs·H])
 *   hn, cn [B,H] or NULL: the state after the last step processed (t = T−1, or t = 0 in reverse)
 *   gates [B,T,G·H] (saved for backward): the activated gates of every step (RNN: unused
 *       beyond scratch; LSTM: i f g o; GRU: r z n)
 *   state [B,T,H] (saved): LSTM c_t, GRU W_hn h_{t−1} + b_hn; NULL for the RNN
 *   scratch: al_recurrent_layer_forward_scratch floats (NULL when that is 0; NULL for an RNN or
 *       LSTM also just skips the packing)
 */
void al_recurrent_layer_forward(int cell, int B, int T, int I, int H, int reverse, const float *x,
                                const float *w_ih, const float *w_hh, const float *b_ih,
                                const float *b_hh, const float *h0, const float *c0, float *y,
                                int ldy, float *hn, float *cn, float *gates, float *state,
                                float *scratch);

/* Floats of scratch al_recurrent_layer_backward needs:
 * B·T·G·H (dpre) + B·T·G·H (GRU: dhh) + B·T·H (h_{t−1} rows) + 3·B·H (dh, dh_prev, dc). */
size_t al_recurrent_layer_backward_scratch(int cell, int B, int T, int H);

/*
 * BPTT through one layer and direction, from what al_recurrent_layer_forward saved (same
 * arguments: x, weights, h0, c0, y/ldy, gates, state).
 *   dy: ∂L/∂h_t at dy[(b·T + t)·lddy], or NULL (zero); dhn, dcn [B,H] or NULL (zero)
 *   dx [B,T,I] +=, or NULL;  dw_ih [G·H, I] +=, dw_hh [G·H, H] +=;  db_ih, db_hh [G·H] += or NULL
 *   dh0, dc0 [B,H] += or NULL
 *   scratch: al_recurrent_layer_backward_scratch floats
 */
void al_recurrent_layer_backward(int cell, int B, int T, int I, int H, int reverse, const float *x,
                                 const float *w_ih, const float *w_hh, const float *h0,
                                 const float *c0, const float *y, int ldy, const float *gates,
                                 const float *state, const float *dy, int lddy, const float *dhn,
                                 const float *dcn, float *dx, float *dw_ih, float *dw_hh,
                                 float *db_ih, float *db_hh, float *dh0, float *dc0,
                                 float *scratch);

/* ------------------------------------------------------------------ stacked layers, directions */

/*
 * Floats of scratch al_recurrent_stack_forward needs, in double (so a caller can check a sum of
 * sizes before it could wrap size_t): gates [B,T,G·H], state [B,T,H], two ping-pong layer
 * outputs [B,T,D·H] when layers > 1, al_recurrent_layer_forward_scratch, and 16 floats of slack
 * to start the gates on a 64-byte line.
 */
double al_recurrent_stack_forward_floats(int cell, int B, int T, int H, int layers, int D);

/*
 * layers layers of D directions (1, or 2: bidirectional) over x [B,T,I]:
 *   params [layers·D·4]: w_ih, w_hh, b_ih, b_hh of layer l, direction d at 4·(l·D + d)
 *       (w_ih [G·H, I] for layer 0, [G·H, D·H] above; biases all NULL or all present)
 *   h0, c0 [layers·D, B, H] or NULL (zeros; c0 for the LSTM only)
 *   output [B,T,D·H] the top layer; hn, cn [layers·D, B, H] or NULL
 *   scratch: al_recurrent_stack_forward_floats floats
 */
void al_recurrent_stack_forward(int cell, int B, int T, int I, int H, int layers, int D,
                                const float *x, const float *const *params, const float *h0,
                                const float *c0, float *output, float *hn, float *cn,
                                float *scratch);

/* Floats of scratch al_recurrent_stack_backward needs (in double): every layer's output
 * [B,T,D·H], the gates and state of every layer and direction, two input-gradient buffers
 * [B,T,D·H], and the larger of the layer kernels' scratches. */
double al_recurrent_stack_backward_floats(int cell, int B, int T, int H, int layers, int D);

/*
 * BPTT through the stack (its forward recomputed into scratch), same arguments as the forward:
 *   doutput [B,T,D·H], dhn, dcn [layers·D, B, H]: or NULL (zero)
 *   dx [B,T,I] += or NULL; dparams [layers·D·4] += in params' layout (bias entries NULL when
 *   params' are); dh0, dc0 [layers·D, B, H] += or NULL
 *   scratch: al_recurrent_stack_backward_floats floats
 */
void al_recurrent_stack_backward(int cell, int B, int T, int I, int H, int layers, int D,
                                 const float *x, const float *const *params, const float *h0,
                                 const float *c0, const float *doutput, const float *dhn,
                                 const float *dcn, float *dx, float *const *dparams, float *dh0,
                                 float *dc0, float *scratch);

/* ------------------------------------------------------------------ stack, sequences of own lengths
 *
 * The stack above over B sequences of different lengths len[b] (1 <= len[b] <= T, not checked),
 * padded to T steps in x [B,T,I]. Exactly as if each sequence b ran alone with
 * al_recurrent_stack_forward(B = 1, T = len[b]) over its first len[b] rows:
 *   - the forward direction runs t = 0 .. len[b] − 1 from h0 (or zeros); its hn is h at
 *     t = len[b] − 1;
 *   - the reverse direction starts at t = len[b] − 1 from h0 (or zeros) and ends at t = 0,
 *     where its hn is taken;
 *   - rows t >= len[b] of x are never read, their output rows are written as zeros, their
 *     doutput rows are never read and their dx rows are left untouched (dx accumulates).
 * Any order of lengths: the kernel orders the batch by length, longest first (stable), inside,
 * so at step t the running sequences are the first n_t = #{b : len[b] > t} of that order, and it
 * stores every layer packed by step (step t's n_t rows after those of steps 0..t−1; PyTorch's
 * PackedSequence layout, no padding). A layer is then one sgemm for the input projections of
 * all Σ len[b] rows, one sgemm (or GEMV when n_t == 1) per step for W_hh over the n_t rows, and
 * the fused gate kernels per row; its backward per step an elementwise pass and one sgemm for
 * dh_{t−1} over the n_t rows, then dW_ih, dW_hh and dx as three sgemms over all rows. In the
 * reverse direction a sequence joins at its own last step: at step t rows n_{t+1} .. n_t − 1
 * start there. Every other argument (params, h0, c0, hn, cn, output, and the gradients) is in
 * the caller's batch order and layout, as al_recurrent_stack_forward/backward.
 *
 * Floating-point results equal the per-sequence calls' up to summation order (a GEMM over the
 * running rows where B = 1 takes a GEMV, packed or not), i.e. within a few float32 ulps per step.
 *
 * A batch of B source sentences through a seq2seq encoder (E-dim embeddings xs [B,S,E], src_len
 * [B]), keeping the tape for the backward:
 *   float *scr = <al_recurrent_stack_backward_lengths_floats(cell, B, S, E, Hs, L, D) floats>;
 *   al_recurrent_stack_forward_lengths(cell, B, S, E, Hs, L, D, xs, src_len, enc, NULL, NULL,
 *                                      keys, hn, cn, scr);     keys [B,S,D·Hs], hn, cn [L·D,B,Hs]
 *   ... decoder; its gradients dkeys [B,S,D·Hs] and dhn, dcn [L·D,B,Hs] (zeros where unused) ...
 *   al_recurrent_stack_backward_lengths(cell, B, S, E, Hs, L, D, xs, src_len, enc, NULL, NULL,
 *                                       dkeys, dhn, dcn, dxs, denc, NULL, NULL, 0, scr);
 * with nothing else written to scr in between (else pass recompute = 1).
 */

/*
 * Floats of scratch (in double, like the stack's) al_recurrent_stack_forward_lengths needs:
 * its saved activations for a backward (the tape: the input reordered [B·T,I], every layer's
 * output [B·T,D·H], every layer and direction's gates [B·T,G·H] and state [B·T,H]), a few
 * [B,H] rows, and slack to start on a 64-byte line. Sized for B·T rows, so one size serves any
 * lengths.
 */
double al_recurrent_stack_forward_lengths_floats(int cell, int B, int T, int I, int H, int layers,
                                                 int D);

/*
 * The forward, arguments as al_recurrent_stack_forward plus len [B]:
 *   x [B,T,I] (rows t >= len[b] not read), len [B] in 1..T
 *   params [layers·D·4] as al_recurrent_stack_forward; h0, c0 [layers·D, B, H] or NULL (zeros)
 *   output [B,T,D·H]: row (b, t) = [→h_t; ←h_t] of the top layer for t < len[b], zeros beyond
 *   hn, cn [layers·D, B, H] or NULL: layer l, direction d, sequence b at ((l·D + d)·B + b)·H:
 *       →h at t = len[b] − 1 (d = 0), ←h at t = 0 (d = 1). A seq2seq decoder's initial state
 *       [→h_S; ←h_1] of sentence b is the top layer's two rows, B·H floats apart.
 *   scratch: al_recurrent_stack_forward_lengths_floats floats; or, to keep the tape for
 *       al_recurrent_stack_backward_lengths(..., recompute = 0, scratch), that call's scratch
 *       (al_recurrent_stack_backward_lengths_floats floats; the tape sits at its start).
 */
void al_recurrent_stack_forward_lengths(int cell, int B, int T, int I, int H, int layers, int D,
                                        const float *x, const int32_t *len,
                                        const float *const *params, const float *h0,
                                        const float *c0, float *output, float *hn, float *cn,
                                        float *scratch);

/* Floats of scratch al_recurrent_stack_backward_lengths needs (in double): the forward's, then
 * the BPTT buffers ([B·T,G·H] gradients of the gates, twice for the GRU, h_{t−1} rows [B·T,H],
 * three [B,H] rows, two [B·T,D·H] layer-input gradients and the input gradient [B·T,I]). */
double al_recurrent_stack_backward_lengths_floats(int cell, int B, int T, int I, int H, int layers,
                                                  int D);

/*
 * BPTT through the stack over sequences of their own lengths, arguments as the forward's plus:
 *   doutput [B,T,D·H] or NULL (zero): rows t >= len[b] not read
 *   dhn, dcn [layers·D, B, H] or NULL (zero): ∂L/∂hn, ∂L/∂cn in the forward's layout
 *   dx [B,T,I] += or NULL: rows t >= len[b] untouched
 *   dparams [layers·D·4] += in params' layout; dh0, dc0 [layers·D, B, H] += or NULL
 *   recompute: 1 runs the forward again inside (scratch's contents do not matter); 0 trusts
 *       that scratch (this same pointer) still holds the tape of a
 *       al_recurrent_stack_forward_lengths call with the same arguments (x, len, params, h0, c0), which
 *       saves that forward (about a third of the encoder's work)
 *   scratch: al_recurrent_stack_backward_lengths_floats floats
 */
void al_recurrent_stack_backward_lengths(int cell, int B, int T, int I, int H, int layers, int D,
                                         const float *x, const int32_t *len,
                                         const float *const *params, const float *h0,
                                         const float *c0, const float *doutput, const float *dhn,
                                         const float *dcn, float *dx, float *const *dparams,
                                         float *dh0, float *dc0, int recompute, float *scratch);

#endif /* AL_KERNELS_RECURRENT_H */
