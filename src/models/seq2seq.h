/*
 * models/seq2seq.h: the recurrent encoder-decoder with attention (config "architecture":
 * "seq2seq"), its config parser and its decoding loops. docs/models.md documents every config key
 * and tensor name; this header documents the maths.
 *
 *   encoder   x_s = src_embedding[src_s];  an nn.RNN / nn.LSTM / nn.GRU (numLayers, optionally
 *             bidirectional) over x_1..x_S gives the keys h̄ [S, H]. Bidirectional encoders have
 *             H/2 units per direction (OpenNMT's "brnn"), so h̄_s = [→h_s; ←h_s] is H wide and the
 *             decoder's initial state is [→h_S; ←h_1] of the top layer (and the same for the LSTM
 *             cell): no bridge parameters. Unidirectional: the top layer's final state.
 *   decoder   one cell of the same kind (nn.RNNCell / LSTMCell / GRUCell), H units, fed
 *             y_{t−1} = tgt_embedding[previous token] (the bos token at t = 0).
 *     bahdanau  c_t, α_t = attend(s_{t−1});  s_t = cell([y_{t−1}; c_t], s_{t−1});
 *               logits_t = out([s_t; c_t])                          (Bahdanau et al. 2015, A.2.2)
 *     luong     h_t = cell([y_{t−1}; h̃_{t−1}] with inputFeeding, else y_{t−1}, h_{t−1});
 *               c_t, α_t = attend(h_t);  h̃_t = tanh(W_c [c_t; h_t]);  logits_t = out(h̃_t)
 *               (Luong et al. 2015, eq. 5-6; h̃_{−1} = 0)
 *     none      s_t = cell(y_{t−1}, s_{t−1}); logits_t = out(s_t)   (either style)
 *   attend    the kernels of kernels/attention_additive_luong.h with keys h̄: additive,
 *             dot/general/concat (Luong global), local-m (p_t = t, the 0-based output step),
 *             local-p (p_t = S·σ(v_pᵀ tanh(W_p q))) with a score, key-query (context W_V-wide).
 *   output    log p(· | y_<t, x) = log_softmax(logits_t).
 *
 * Decoding: greedy (argmax, first index on ties) stops after emitting eos or at max_len steps;
 * the emitted eos is part of the output. Beam search keeps `beam` live hypotheses ranked by the
 * summed log-probability; a hypothesis ending in eos among the top `beam` candidates of a step is
 * finished; search stops when `beam` hypotheses have finished or at max_len steps (then the live
 * ones compete too), and the winner maximises (Σ log p) / length, the length counting eos.
 * Beam width 1 is exactly greedy.
 */
#ifndef AL_MODELS_SEQ2SEQ_H
#define AL_MODELS_SEQ2SEQ_H

#include <stdint.h>

#include "config_limits.h"
#include "model.h"

enum {
    AL_S2S_NONE = 0,
    AL_S2S_ADDITIVE,
    AL_S2S_DOT,
    AL_S2S_GENERAL,
    AL_S2S_CONCAT,
    AL_S2S_LOCAL_M,
    AL_S2S_LOCAL_P,
    AL_S2S_KEY_QUERY
};
enum { AL_S2S_BAHDANAU = 0, AL_S2S_LUONG = 1 };

typedef struct {
    /* settings from the config */
    int cell;          /* AL_RECURRENT_RNN_TANH, _RNN_RELU, _LSTM or _GRU */
    int G;             /* gates: 1, 4, 3 */
    int E, H, Hs;      /* embedding, decoder/key width, encoder units per direction */
    int L, dirs;       /* encoder layers and directions */
    int attention;     /* AL_S2S_* */
    int style;         /* AL_S2S_BAHDANAU or AL_S2S_LUONG */
    int input_feeding; /* luong only */
    int score, local;  /* AL_LUONG_DOT/GENERAL/CONCAT and AL_LUONG_GLOBAL/LOCAL_M/LOCAL_P */
    int da, window, dp, dk, dv, scaled;
    int Vs, Vt, bos, eos, max_length;
    int dc;   /* context width: 0 (none), H, or dv (key-query) */
    int din;  /* decoder cell input width: E + dc (bahdanau) or E [+ H] (luong) */
    int dout; /* out.weight columns: H + dc (bahdanau) or H (luong) */
    /* weights, bound into the model's block (NULL when the config does not use them) */
    const float *src_emb, *tgt_emb;                         /* [Vs,E], [Vt,E] */
    const float *enc[AL_S2S_MAX_LAYERS * 2 * 4];            /* al_recurrent_stack_* params order */
    const float *dec_w_ih, *dec_w_hh, *dec_b_ih, *dec_b_hh; /* [G·H,din] [G·H,H] [G·H] [G·H] */
    const float *W_q, *W_k, *bias, *v;                      /* additive: [da,H] [da,H] [da] [da] */
    const float *W_a, *v_a;       /* general [H,H]; concat [da,2H], [da] */
    const float *W_c;             /* luong: [H, dc+H] */
    const float *W_p, *v_p;       /* local-p: [dp,H] [dp] */
    const float *W_Q, *W_K, *W_V; /* key-query: [dk,H] [dk,H] [dv,H] */
    const float *out_w, *out_b;   /* [Vt,dout] [Vt] */
} al_seq2seq;

extern const al_model_arch al_seq2seq_arch;

/* The decoding entry points; arguments already checked by api/model.c (ids in range are checked
 * here: AL_ERR_RANGE). */
al_status al_seq2seq_generate(const al_seq2seq *s, const int32_t *src, int S, int max_len, int beam,
                              int32_t *ids, float *logp, float *att, float *pos, int *len);
al_status al_seq2seq_score(const al_seq2seq *s, const int32_t *src, int S, const int32_t *tgt,
                           int T, float *logp, float *att, float *pos, float *dist);

/*
 * The intermediate states of one teacher-forced pass (models/seq2seq_states.c): the decoder is fed
 * bos, tgt[0], ..., tgt[T−2] exactly as al_seq2seq_score does (with tgt = a greedy output, exactly
 * that greedy run). out [AL_S2S_STATE_COUNT] (api/model.h's order), each pointer NULL (not
 * written) or: embedded [S,E] x_i, encoder [S,H] h̄, initial [H] s_0, query [T,H] (s_{t−1}
 * bahdanau, h_t luong), scores [T,S] (before the softmax; -INFINITY outside a local window),
 * weights [T,S], context [T,dc], decoder [T,H] s_t, attentional [T,H] h̃_t, positions [T] p_t,
 * log_probs [T,Vt]. The fields that do not exist for the config (query, scores, context without
 * attention; attentional for bahdanau) are left alone.
 */
al_status al_seq2seq_states(const al_seq2seq *s, const int32_t *src, int S, const int32_t *tgt,
                            int T, float *const *out);

/*
 * The width of the keys' projection that every decoder step shares (attention_additive_luong.h,
 * "keys projected once"): da (additive, concat), H (general), dk + dv (key-query: Kp [S,dk] then
 * Vp [S,dv]), 0 (none, dot: nothing to project). Decoding and training compute it once per
 * source sentence.
 */
int al_seq2seq_keys_width(const al_seq2seq *s);
/* Kp [S, width] from the encoder's keys [S,H] (nothing when the width is 0). */
void al_seq2seq_project_keys(const al_seq2seq *s, float *Kp, const float *keys, int S);

typedef struct al_s2s_decoder al_s2s_decoder;
al_status al_seq2seq_decoder_start(const al_seq2seq *s, const int32_t *src, int S,
                                   al_s2s_decoder **out);
al_status al_seq2seq_decoder_step(al_s2s_decoder *d, int32_t force, int32_t *id, float *logp,
                                  float *att, float *pos, float *dist, int *done);
void al_seq2seq_decoder_free(al_s2s_decoder *d);

#endif /* AL_MODELS_SEQ2SEQ_H */
