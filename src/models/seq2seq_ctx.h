/*
 * models/seq2seq_ctx.h: the inside of one seq2seq sentence, shared by models/seq2seq.c (the
 * decoding loops) and models/seq2seq_states.c (the intermediate states): the encoded source and
 * one decoder step. Private to models/: nothing outside includes it. The maths is in seq2seq.h.
 */
#ifndef AL_MODELS_SEQ2SEQ_CTX_H
#define AL_MODELS_SEQ2SEQ_CTX_H

#include "seq2seq.h"

/*
 * What decoding one source sentence needs: the encoder's keys (and their projection, shared by
 * every step and every beam hypothesis) and initial state, and the workspace of one decoder step. One al_malloc; a hypothesis's state is [h | c | h̃] (3H floats).
 */
typedef struct {
    const al_seq2seq *s;
    int S;
    float *block;
    float *xs;      /* [S,E]   source embeddings x_i (kept for the states) */
    float *keys;    /* [S,H]   encoder outputs h̄ */
    float *kp;      /* [S,kw]  the keys' projection, once per sentence (NULL when kw = 0) */
    float *init;    /* [3H]    decoder initial state: h0, c0, h̃_{−1} = 0 */
    float *x;       /* [din]   decoder input */
    float *gates;   /* [G·H] */
    float *hh;      /* [3H]    GRU: W_hh h + b_hh */
    float *ctx;     /* [max(dc,1)] c_t of the last step */
    float *zero_wc; /* [H,2H]  zeros: a W_c for Luong-family scores in bahdanau style */
    float *tilde;   /* [H]     h̃ scratch when it is discarded */
    float *feat;    /* [dout]  input of the output layer */
    float *scratch; /* the attention kernel's scratch */
} s2s_ctx;

/* Encode src [S] (ids checked by the caller) into c; AL_ERR_RANGE, _OVERFLOW, _NOMEM. */
al_status al_s2s_ctx_open(s2s_ctx *c, const al_seq2seq *s, const int32_t *src, int S);
void al_s2s_ctx_free(s2s_ctx *c);

/*
 * One decoder step t from state in [3H] and the previous token y: state out [3H] (must not alias
 * in), logp [Vt] = log_softmax(logits), att [S] (zeros without attention), *pos = p_t (0 unless
 * local), scores [S] (NULL: not kept) = e_t before the softmax (attention "none": untouched).
 * Afterwards c->ctx holds c_t.
 */
void al_s2s_step(s2s_ctx *c, const float *in, int y, int t, float *out, float *logp, float *att,
                 float *pos, float *scores);

#endif /* AL_MODELS_SEQ2SEQ_CTX_H */
