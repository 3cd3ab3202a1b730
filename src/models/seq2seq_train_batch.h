/*
 * models/seq2seq_train_batch.h: the inside of the batched seq2seq backward (seq2seq_train.h's
 * al_seq2seq_backward_batch), shared by its two files: seq2seq_train_batch.c (the layout, the
 * decoder loop, the output layer) and seq2seq_train_batch_attn.c (the encoder and the attention).
 * Private to models/.
 *
 * Rows. The batch is sorted by target length, longest first (stable): sentence j of the sorted
 * order is batch row order[j]. At decoder step t the sentences still running are j < n_t, a
 * prefix, so every per-step product is one GEMM over n_t rows (PyTorch's pack_padded_sequence).
 * Decoder row r = rowoff[t] + j holds step t of sorted sentence j; there are NT = Σ_b T_b rows.
 * Keys: sentence j's encoder outputs h̄ are rows koff[j] .. koff[j+1]−1 of a packed [SS, H]
 * (SS = Σ_b S_b); no padding anywhere.
 *
 * Keys projected once: additive e_ti = vᵀ tanh(W_q q_t + b + W_k h̄_i) reads K' = h̄ W_kᵀ
 * [SS, da], computed for every sentence in one GEMM before the decoder runs, and Q' = W_q q_t + b
 * (one GEMM per step; b on the query's side, as the kernel adds it, so both round alike); general
 * e_ti = q_tᵀ W_a h̄_i reads K' = h̄ W_aᵀ [SS, H]. Their gradients dK' accumulate over the steps
 * and fold once at the end (dW_k += dK'ᵀ h̄, dh̄ += dK' W_k; dW_q += dQ'ᵀ q, db += Σ dQ').
 */
#ifndef AL_MODELS_SEQ2SEQ_TRAIN_BATCH_H
#define AL_MODELS_SEQ2SEQ_TRAIN_BATCH_H

#include <stdint.h>

#include "seq2seq.h"

typedef struct {
    const al_seq2seq *s;
    const float *w0; /* the weight block (the pointers in s point into it) */
    float *g0;       /* its gradient, same layout */
    int B, S_max;
    const int32_t *src;     /* [B, S_max] as the caller passed it */
    const int32_t *src_len; /* [B] */
    const int *order;       /* [B] batch row of sorted sentence j */
    const int *koff;        /* [B+1] first key row of sorted sentence j */
    int SS;                 /* Σ S_b */
    /* encoder (seq2seq_train_batch_attn.c: s2b_encode_*) */
    int32_t *lens;  /* [B]      source lengths, sorted order */
    float *xpad;    /* [B, S_max, E]  source embeddings, sorted sentence j at row j·S_max */
    float *dxpad;   /* [B, S_max, E]  their gradient */
    float *kout;    /* [B, S_max, H]  the stack's padded output, then ∂/∂ it */
    float *keys;    /* [SS, H]  h̄, packed */
    float *dkeys;   /* [SS, H] */
    float *h0, *c0; /* [B, H]   decoder initial state, sorted order (c0: LSTM only) */
    float *hn, *cn; /* [L·D, B, Hs] the encoder's final states (the kernel's layout) */
    float *dhn, *dcn;
    float *enc_scratch; /* al_recurrent_stack_backward_lengths_floats: the tape, then BPTT */
    /* attention (s2b_keys_*, s2b_attend_*) */
    int kw;           /* width of K': da (additive, concat), H (general), dk (key-query), 0 */
    float *kp, *dkp;  /* [SS, kw] K' and dK' */
    float *qp, *dqp;  /* [NT, da] additive: Q' = W_q q + b of every decoder row, and dQ'
                       * ([NT, dk] key-query: Q' = W_Q q) */
    float *att;       /* [NT, S_max] α of every decoder row (its first S_b entries) */
    float *row;       /* scratch: [S_max, da] tanh values, then 3·S_max */
    float *tk;        /* additive: the forward's tanh values kept for the backward, row r's
                      * [S_b, da] at tk + tkoff[r]·da; NULL when they would take more than
                      * s2b_keep_floats (the backward then recomputes them) */
    const int *tkoff; /* [NT+1] */
    float *hbar;      /* key-query [NT, H]: Σ_i α_i h̄_i of every decoder row (c = W_V hbar) */
    float *dcv;       /* key-query [NT, dv]: ∂/∂c of every decoder row, for dW_V */
    float *dhb;       /* key-query [B, H]: ∂/∂hbar of one step's rows */
    float *alpha;     /* local [NT, S_max]: the window's softmax before the Gaussian */
    float *pt, *sig;  /* local [NT]: p_t; local-p: σ(v_pᵀ up) */
    float *up, *dup;  /* local-p [NT, dp]: up = tanh(W_p q), and its pre-activation's gradient */
} s2b_ws;

/* The most floats of additive tanh values kept from the forward for the backward: 2^25 (128 MB)
 * unless a test lowers it (tests/c/test_train_batch.c: 0 checks the recomputing path). */
extern double s2b_keep_floats;

/* 1 when the batched path handles s's configuration (every attention: none, additive, dot,
 * general, concat, local-m, local-p, key-query; either style, input feeding or not, any cell, layers, directions). */
int s2b_supported(const al_seq2seq *s);
/* 1 for the additive scores: additive, and Luong's concat (the same score with W_a split). */
int s2b_additive(const al_seq2seq *s);
/* 1 for Luong's general score (attention general, or local-m / local-p with score general). */
int s2b_general(const al_seq2seq *s);

/* The encoder, the whole batch at once (al_recurrent_stack_*_lengths): keys, h0, c0 from the
 * source ids; AL_ERR_RANGE for an id out of range. The backward reads dkeys [SS, H] and
 * dh0, dc0 [B, H] (dc0 LSTM only) and accumulates every encoder and source-embedding gradient
 * into g0. */
al_status s2b_encode_forward(const s2b_ws *w);
void s2b_encode_backward(const s2b_ws *w, const float *dh0, const float *dc0);

/* K' from the keys (additive, general; nothing otherwise), and the end-of-batch fold of dK' and
 * of the additive query projection: queries [NT, H] (row stride ldq) are the rows W_q read (s_{t−1} in bahdanau
 * style, h_t in luong style). */
void s2b_keys_forward(const s2b_ws *w);
void s2b_keys_backward(const s2b_ws *w, const float *queries, int ldq, int NT);

/*
 * Attention of decoder rows r0 .. r0+n−1 (sorted sentences 0 .. n−1, decoder step t: local-m's
 * p_t) from queries q [n, H]:
 * contexts ctx [n, dc] (row stride ldc), α kept in w->att. The backward accumulates dq [n, H],
 * dkeys, dK' and the score's parameter gradients from dctx [n, dc] (row stride dc).
 */
void s2b_attend_forward(const s2b_ws *w, int n, int r0, int t, const float *q, float *ctx, int ldc);
void s2b_attend_backward(const s2b_ws *w, int n, int r0, const float *q, const float *dctx,
                         float *dq);

/* b [C] += the column sums of x [R, C] (row stride ldx), in double. */
void s2b_colsum_add(float *b, const float *x, int ldx, int R, int C);

#endif /* AL_MODELS_SEQ2SEQ_TRAIN_BATCH_H */
