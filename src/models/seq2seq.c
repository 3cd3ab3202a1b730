/*
 * models/seq2seq.c: the recurrent encoder-decoder with attention: the encoder pass, one decoder
 * step, and the loops built on that step: greedy and beam decoding, teacher-forced scoring, and
 * a stepped decoder handle. The maths is in seq2seq.h; the kernels do the work:
 *   encoder    al_recurrent_stack_forward (kernels/recurrent.h)
 *   decoder    al_sgemv + al_recurrent_{lstm,gru,rnn}_cell_forward (kernels/recurrent.h)
 *   attention  al_attn_{additive,luong,key_query}_forward_projected, the keys projected once
 *              per source sentence when the context opens (shared by every step and beam
 *              hypothesis) (kernels/attention_additive_luong.h)
 * Deliberately not here: config parsing (seq2seq_config.c), backward passes (training builds on
 * al_seq2seq_score), batching (one sentence at a time), tokenization (wasm/model/tokenizer.js).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "seq2seq.h"
#include "seq2seq_ctx.h"
#include "../kernels/attention_additive_luong.h"
#include "../kernels/kernels.h"
#include "../kernels/recurrent.h"
#include "../toolbox.h"

/* ------------------------------------------------------------------ one sentence's context */

static long attn_scratch_floats(const al_seq2seq *s, int S)
{
    switch (s->attention) {
    case AL_S2S_ADDITIVE: return al_attn_additive_forward_scratch_floats(S, s->da);
    case AL_S2S_KEY_QUERY: return al_attn_key_query_forward_scratch_floats(S, s->H, s->dk);
    case AL_S2S_NONE: return 0;
    default: return al_attn_luong_forward_scratch_floats(S, s->H, s->da, s->dp);
    }
}

int al_seq2seq_keys_width(const al_seq2seq *s)
{
    switch (s->attention) {
    case AL_S2S_ADDITIVE: return s->da;
    case AL_S2S_NONE: return 0;
    case AL_S2S_KEY_QUERY: return s->dk + s->dv; /* Kp [S,dk], then Vp [S,dv] */
    default: return al_attn_luong_projected_width(s->H, s->score, s->da);
    }
}

void al_seq2seq_project_keys(const al_seq2seq *s, float *Kp, const float *keys, int S)
{
    if (s->attention == AL_S2S_ADDITIVE)
        al_attn_additive_project_keys(Kp, keys, s->W_k, S, s->H, s->da);
    else if (s->attention == AL_S2S_KEY_QUERY)
        al_attn_key_query_project_keys(Kp, Kp + (size_t)S * s->dk, keys, s->W_K, s->W_V, S, s->H,
                                       s->dk, s->dv);
    else if (al_seq2seq_keys_width(s) > 0)
        al_attn_luong_project_keys(Kp, keys, s->W_a, S, s->H, s->score, s->da);
}

void al_s2s_ctx_free(s2s_ctx *c)
{
    al_free(c->block);
    c->block = NULL;
}

/* Encode src [S]: embeddings, the encoder, the decoder's initial state. */
al_status al_s2s_ctx_open(s2s_ctx *c, const al_seq2seq *s, const int32_t *src, int S)
{
    const int H = s->H, E = s->E, kw = al_seq2seq_keys_width(s);
    memset(c, 0, sizeof *c);
    c->s = s;
    c->S = S;
    const int need_zero_wc =
        s->style == AL_S2S_BAHDANAU && s->attention >= AL_S2S_DOT && s->attention <= AL_S2S_LOCAL_P;
    /* sizes in double: S <= 4096 and the dims <= 4096 keep every product far below 2^53 */
    double floats = (double)S * H + (double)S * kw + 3.0 * H + s->din + (double)s->G * H + 3.0 * H +
                    (s->dc > 0 ? s->dc : 1) + (need_zero_wc ? 2.0 * H * H : 0) + H + s->dout +
                    (double)attn_scratch_floats(s, S) + 1 + (double)S * E +
                    2.0 * s->L * s->dirs * s->Hs + /* encoder input and hn, cn */
                    al_recurrent_stack_forward_floats(s->cell, 1, S, s->Hs, s->L, s->dirs);
    if (floats * sizeof(float) >= 2147483648.0) return AL_ERR_OVERFLOW;
    float *p = al_malloc((size_t)floats * sizeof(float));
    if (!p) return AL_ERR_NOMEM;
    c->block = p;
    /* clang-format off */
    c->keys = p; p += (size_t)S * H;
    c->kp = kw ? p : NULL; p += (size_t)S * kw;
    c->init = p; p += 3 * (size_t)H;
    c->x = p; p += s->din;
    c->gates = p; p += (size_t)s->G * H;
    c->hh = p; p += 3 * (size_t)H;
    c->ctx = p; p += s->dc > 0 ? s->dc : 1;
    /* clang-format on */
    if (need_zero_wc) {
        c->zero_wc = p;
        memset(p, 0, sizeof(float) * 2 * (size_t)H * H);
        p += 2 * (size_t)H * H;
    }
    /* clang-format off */
    c->tilde = p; p += H;
    c->feat = p; p += s->dout;
    c->scratch = p; p += attn_scratch_floats(s, S) + 1;
    float *xs = p; p += (size_t)S * E;
    c->xs = xs;
    float *hn = p; p += (size_t)s->L * s->dirs * s->Hs;
    float *cn = p; p += (size_t)s->L * s->dirs * s->Hs;
    /* clang-format on */
    float *enc_scratch = p; /* the encoder stack's, used once here */

    if (al_embedding_forward(xs, src, S, s->src_emb, s->Vs, E) >= 0) {
        al_s2s_ctx_free(c);
        return AL_ERR_RANGE;
    }
    al_recurrent_stack_forward(s->cell, 1, S, E, s->Hs, s->L, s->dirs, xs, s->enc, NULL, NULL,
                               c->keys, hn, s->cell == AL_RECURRENT_LSTM ? cn : NULL, enc_scratch);
    /* the top layer's directions are adjacent rows of hn [L·D, 1, Hs]: [→h_S; ←h_1] */
    const size_t top = (size_t)(s->L - 1) * s->dirs * s->Hs;
    memcpy(c->init, hn + top, sizeof(float) * (size_t)H);
    if (s->cell == AL_RECURRENT_LSTM)
        memcpy(c->init + H, cn + top, sizeof(float) * (size_t)H);
    else
        memset(c->init + H, 0, sizeof(float) * (size_t)H);
    memset(c->init + 2 * H, 0, sizeof(float) * (size_t)H);
    if (kw) al_seq2seq_project_keys(s, c->kp, c->keys, S); /* once for every step */
    return AL_OK;
}

/* c_t, α_t [S], p_t from query [H] at output step t; tilde [H] = h̃ (luong style) when non-NULL,
 * h the decoder state that h̃ concatenates; scores [S] (NULL: none) = e_t before the softmax. */
static void attend(s2s_ctx *c, const float *query, int t, float *att, float *pos, float *tilde,
                   float *scores)
{
    const al_seq2seq *s = c->s;
    const int H = s->H, S = c->S;
    float p = 0.0f;
    switch (s->attention) {
    case AL_S2S_ADDITIVE:
        al_attn_additive_forward_projected(c->ctx, att, scores, query, c->kp, c->keys, s->W_q,
                                           s->bias, s->v, NULL, S, H, H, s->da, c->scratch);
        break;
    case AL_S2S_KEY_QUERY:
        al_attn_key_query_forward_projected(c->ctx, att, scores, query, c->kp,
                                            c->kp + (size_t)S * s->dk, s->W_Q, NULL, S, H, s->dk,
                                            s->dv, s->scaled, c->scratch);
        break;
    default:
        al_attn_luong_forward_projected(c->ctx, att, scores, tilde ? tilde : c->tilde, &p, query,
                                        c->keys, c->kp, s->W_a, s->v_a, tilde ? s->W_c : c->zero_wc,
                                        s->W_p, s->v_p, NULL, S, H, s->score, s->da, s->local,
                                        (float)s->window, (float)t, s->dp, c->scratch);
        if (pos) *pos = p;
        return;
    }
    if (pos) *pos = 0.0f;
    if (tilde) {
        /* h̃ = tanh(W_c [c_t; h_t]), W_c [H, dc+H] (the Luong kernel does this itself) */
        const int dc = s->dc;
        al_sgemv(0, H, dc, 1.0f, s->W_c, dc + H, c->ctx, 0.0f, tilde);
        al_sgemv(0, H, H, 1.0f, s->W_c + dc, dc + H, query, 1.0f, tilde);
        al_tanh_forward(tilde, tilde, H);
    }
}

/* One cell step: h, cn [H] from x [din], h_prev, c_prev [H]. */
static void cell_step(s2s_ctx *c, const float *h_prev, const float *c_prev, float *h, float *cn)
{
    const al_seq2seq *s = c->s;
    const int H = s->H, GH = s->G * s->H;
    /* gates = W_ih x + b_ih */
    memcpy(c->gates, s->dec_b_ih, sizeof(float) * (size_t)GH);
    al_sgemv(0, GH, s->din, 1.0f, s->dec_w_ih, s->din, c->x, 1.0f, c->gates);
    if (s->cell == AL_RECURRENT_GRU) {
        memcpy(c->hh, s->dec_b_hh, sizeof(float) * (size_t)GH);
        al_sgemv(0, GH, H, 1.0f, s->dec_w_hh, H, h_prev, 1.0f, c->hh);
        al_recurrent_gru_cell_forward(c->gates, h, c->hh, h_prev, H);
        return;
    }
    /* gates += W_hh h_{t−1} + b_hh */
    for (int i = 0; i < GH; i++) c->gates[i] += s->dec_b_hh[i];
    al_sgemv(0, GH, H, 1.0f, s->dec_w_hh, H, h_prev, 1.0f, c->gates);
    if (s->cell == AL_RECURRENT_LSTM) {
        al_recurrent_lstm_cell_forward(c->gates, cn, h, c_prev, H);
    } else {
        al_recurrent_rnn_cell_forward(h, c->gates, H, s->cell == AL_RECURRENT_RNN_RELU);
    }
}

void al_s2s_step(s2s_ctx *c, const float *in, int y, int t, float *out, float *logp, float *att,
                 float *pos, float *scores)
{
    const al_seq2seq *s = c->s;
    const int H = s->H, E = s->E, dc = s->dc;
    const float *h_prev = in, *c_prev = in + H, *feed_prev = in + 2 * H;
    float *h = out, *cn = out + H, *feed = out + 2 * H;
    memcpy(c->x, s->tgt_emb + (size_t)y * E, sizeof(float) * (size_t)E);
    *pos = 0.0f;
    if (s->attention == AL_S2S_NONE) memset(att, 0, sizeof(float) * (size_t)c->S);
    if (s->style == AL_S2S_BAHDANAU) {
        /* c_t from s_{t−1}; s_t = cell([y; c_t], s_{t−1}); features [s_t; c_t] */
        if (dc) {
            attend(c, h_prev, t, att, pos, NULL, scores);
            memcpy(c->x + E, c->ctx, sizeof(float) * (size_t)dc);
        }
        cell_step(c, h_prev, c_prev, h, cn);
        memcpy(c->feat, h, sizeof(float) * (size_t)H);
        if (dc) memcpy(c->feat + H, c->ctx, sizeof(float) * (size_t)dc);
        memset(feed, 0, sizeof(float) * (size_t)H);
    } else {
        /* h_t = cell([y; h̃_{t−1}], h_{t−1}); c_t from h_t; h̃_t = tanh(W_c [c_t; h_t]) */
        if (s->input_feeding) memcpy(c->x + E, feed_prev, sizeof(float) * (size_t)H);
        cell_step(c, h_prev, c_prev, h, cn);
        if (dc)
            attend(c, h, t, att, pos, feed, scores);
        else
            memcpy(feed, h, sizeof(float) * (size_t)H);
        memcpy(c->feat, feed, sizeof(float) * (size_t)H);
    }
    if (s->cell != AL_RECURRENT_LSTM) memset(cn, 0, sizeof(float) * (size_t)H);
    /* logits = out.weight feat + out.bias, then log_softmax (sum in double) */
    memcpy(logp, s->out_b, sizeof(float) * (size_t)s->Vt);
    al_sgemv(0, s->Vt, s->dout, 1.0f, s->out_w, s->dout, c->feat, 1.0f, logp);
    float mx = logp[0];
    for (int i = 1; i < s->Vt; i++) mx = logp[i] > mx ? logp[i] : mx;
    double sum = 0.0;
    for (int i = 0; i < s->Vt; i++) sum += exp((double)logp[i] - mx);
    /* (x − max) − log Σ, not x − (max + log Σ): with huge logits (|x| ~ 1e35) max + log Σ would
     * round back to max and tied maxima would both get log p = 0 */
    const double ls = log(sum);
    for (int i = 0; i < s->Vt; i++) logp[i] = (float)(((double)logp[i] - mx) - ls);
}

static int argmax(const float *x, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (x[i] > x[best]) best = i;
    return best;
}

static int ids_ok(const int32_t *ids, int n, int V)
{
    for (int i = 0; i < n; i++)
        if (ids[i] < 0 || ids[i] >= V) return 0;
    return 1;
}

/* ------------------------------------------------------------------ teacher forcing */

al_status al_seq2seq_score(const al_seq2seq *s, const int32_t *src, int S, const int32_t *tgt,
                           int T, float *logp, float *att, float *pos, float *dist)
{
    if (!ids_ok(tgt, T, s->Vt)) return AL_ERR_RANGE;
    s2s_ctx c;
    AL_TRY(al_s2s_ctx_open(&c, s, src, S));
    const int H = s->H;
    double floats = 6.0 * H + s->Vt + S;
    float *w = al_malloc((size_t)floats * sizeof(float));
    if (!w) {
        al_s2s_ctx_free(&c);
        return AL_ERR_NOMEM;
    }
    float *st[2] = { w, w + 3 * H };
    float *lp = w + 6 * H, *row = lp + s->Vt;
    memcpy(st[0], c.init, sizeof(float) * 3 * (size_t)H);
    for (int t = 0; t < T; t++) {
        float p;
        al_s2s_step(&c, st[t & 1], t ? tgt[t - 1] : s->bos, t, st[(t + 1) & 1], lp, row, &p, NULL);
        logp[t] = lp[tgt[t]];
        if (att) memcpy(att + (size_t)t * S, row, sizeof(float) * (size_t)S);
        if (pos) pos[t] = p;
        if (dist) memcpy(dist + (size_t)t * s->Vt, lp, sizeof(float) * (size_t)s->Vt);
    }
    al_free(w);
    al_s2s_ctx_free(&c);
    return AL_OK;
}

/* ------------------------------------------------------------------ greedy and beam search */

static al_status greedy(s2s_ctx *c, int max_len, int32_t *ids, float *logp, float *att, float *pos,
                        int *len)
{
    const al_seq2seq *s = c->s;
    const int H = s->H, S = c->S;
    float *w = al_malloc(((size_t)6 * H + s->Vt) * sizeof(float));
    if (!w) return AL_ERR_NOMEM;
    float *st[2] = { w, w + 3 * H };
    float *lp = w + 6 * H;
    memcpy(st[0], c->init, sizeof(float) * 3 * (size_t)H);
    int y = s->bos, t = 0;
    while (t < max_len) {
        float p;
        al_s2s_step(c, st[t & 1], y, t, st[(t + 1) & 1], lp, att + (size_t)t * S, &p, NULL);
        y = argmax(lp, s->Vt);
        ids[t] = y;
        logp[t] = lp[y];
        if (pos) pos[t] = p;
        t++;
        if (y == s->eos) break;
    }
    *len = t;
    al_free(w);
    return AL_OK;
}

typedef struct {
    int t, parent; /* the eos step and the slot of its parent at step t − 1 (-1 at t = 0) */
    float logp, pos, total;
} finished_hyp;

static al_status beam_search(s2s_ctx *c, int max_len, int beam, int32_t *ids, float *logp,
                             float *att, float *pos, int *len)
{
    const al_seq2seq *s = c->s;
    const int H = s->H, S = c->S, V = s->Vt, K = beam;
    /* history per step and slot: token, parent slot, step log-prob, p_t, attention row */
    const double per_step = (double)K * (3 + S);
    const double floats = (double)max_len * per_step + (double)2 * K * S /* finished rows */ +
                          2.0 * K * 3 * H /* states */ + (double)K * 3 * H /* next states */ +
                          (double)K * V /* candidates */ + (double)K * S + 4.0 * K /* scores */;
    if (floats * sizeof(float) >= 2147483648.0) return AL_ERR_OVERFLOW;
    float *blk = al_malloc((size_t)floats * sizeof(float));
    int32_t *iblk = al_malloc((size_t)max_len * K * 2 * sizeof(int32_t));
    finished_hyp *fin = al_malloc(sizeof(finished_hyp) * 2 * (size_t)K);
    uint8_t *taken = al_malloc((size_t)K * V); /* [K, V] 1 = candidate already picked this step */
    if (!blk || !iblk || !fin || !taken) {
        al_free(blk);
        al_free(iblk);
        al_free(fin);
        al_free(taken);
        return AL_ERR_NOMEM;
    }
    float *h_logp = blk;                            /* [max_len, K] */
    float *h_pos = h_logp + (size_t)max_len * K;    /* [max_len, K] */
    float *h_att = h_pos + (size_t)max_len * K;     /* [max_len, K, S] */
    float *f_att = h_att + (size_t)max_len * K * S; /* [2K, S] */
    float *states = f_att + (size_t)2 * K * S;      /* [K, 3H] live */
    float *states_new = states + (size_t)K * 3 * H; /* [K, 3H] */
    float *next = states_new + (size_t)K * 3 * H;   /* [K, 3H] after a step of slot i */
    float *cand = next + (size_t)K * 3 * H;         /* [K, V] log-probs of each slot */
    float *rows = cand + (size_t)K * V;             /* [K, S] attention of each slot */
    float *cum = rows + (size_t)K * S;              /* [K] */
    float *cum_new = cum + K;                       /* [K] */
    float *ppos = cum_new + K;                      /* [K] */
    int32_t *h_tok = iblk;                          /* [max_len, K] */
    int32_t *h_par = h_tok + (size_t)max_len * K;   /* [max_len, K] */
    int nf = 0, live = 1, t = 0;

    memcpy(states, c->init, sizeof(float) * 3 * (size_t)H);
    cum[0] = 0.0f;
    for (t = 0; t < max_len; t++) {
        for (int i = 0; i < live; i++) {
            const int y = t ? h_tok[(size_t)(t - 1) * K + i] : s->bos;
            al_s2s_step(c, states + (size_t)i * 3 * H, y, t, next + (size_t)i * 3 * H,
                        cand + (size_t)i * V, rows + (size_t)i * S, &ppos[i], NULL);
        }
        /* walk the candidates best first (cum + logp); eos in the top K finishes a hypothesis */
        int nl = 0, rank = 0, ntaken = 0;
        memset(taken, 0, (size_t)live * V);
        while (nl < K && rank < live * V && ntaken < 2 * K) {
            long best = -1;
            float bv = 0.0f;
            for (int i = 0; i < live; i++) {
                for (int v = 0; v < V; v++) {
                    const long idx = (long)i * V + v;
                    if (taken[idx]) continue;
                    const float sc = cum[i] + cand[idx];
                    if (best < 0 || sc > bv) {
                        best = idx;
                        bv = sc;
                    }
                }
            }
            taken[best] = 1;
            ntaken++;
            const int i = (int)(best / V), v = (int)(best % V);
            if (v == s->eos) {
                if (rank < K) {
                    finished_hyp *f = &fin[nf];
                    f->t = t;
                    f->parent = t ? i : -1;
                    f->logp = cand[best];
                    f->pos = ppos[i];
                    f->total = bv;
                    memcpy(f_att + (size_t)nf * S, rows + (size_t)i * S, sizeof(float) * (size_t)S);
                    nf++;
                }
            } else {
                const size_t slot = (size_t)t * K + nl;
                h_tok[slot] = v;
                h_par[slot] = i;
                h_logp[slot] = cand[best];
                h_pos[slot] = ppos[i];
                memcpy(h_att + slot * S, rows + (size_t)i * S, sizeof(float) * (size_t)S);
                memcpy(states_new + (size_t)nl * 3 * H, next + (size_t)i * 3 * H,
                       sizeof(float) * 3 * (size_t)H);
                cum_new[nl] = bv;
                nl++;
            }
            rank++;
        }
        memcpy(states, states_new, sizeof(float) * (size_t)nl * 3 * H);
        memcpy(cum, cum_new, sizeof(float) * (size_t)nl);
        live = nl;
        if (nf >= K || live == 0) {
            t++;
            break;
        }
    }
    const int steps = t > max_len ? max_len : t; /* steps taken */
    /* the winner: best (Σ log p) / length among the finished, and the live when too few finished */
    int best_f = -1, best_l = -1;
    double best_score = 0.0;
    for (int f = 0; f < nf; f++) {
        const double sc = (double)fin[f].total / (fin[f].t + 1);
        if ((best_f < 0 && best_l < 0) || sc > best_score) {
            best_score = sc;
            best_f = f;
        }
    }
    if (nf < K) {
        for (int i = 0; i < live; i++) {
            const double sc = (double)cum[i] / steps;
            if ((best_f < 0 && best_l < 0) || sc > best_score) {
                /* clang-format off */
                best_score = sc; best_l = i; best_f = -1;
                /* clang-format on */
            }
        }
    }
    int n, slot;
    if (best_f >= 0) {
        const finished_hyp *f = &fin[best_f];
        n = f->t + 1;
        ids[f->t] = s->eos;
        logp[f->t] = f->logp;
        if (pos) pos[f->t] = f->pos;
        memcpy(att + (size_t)f->t * S, f_att + (size_t)best_f * S, sizeof(float) * (size_t)S);
        slot = f->parent;
        for (int u = f->t - 1; u >= 0; u--) {
            const size_t k = (size_t)u * K + slot;
            ids[u] = h_tok[k];
            logp[u] = h_logp[k];
            if (pos) pos[u] = h_pos[k];
            memcpy(att + (size_t)u * S, h_att + k * S, sizeof(float) * (size_t)S);
            slot = h_par[k];
        }
    } else {
        n = steps;
        slot = best_l;
        for (int u = n - 1; u >= 0; u--) {
            const size_t k = (size_t)u * K + slot;
            ids[u] = h_tok[k];
            logp[u] = h_logp[k];
            if (pos) pos[u] = h_pos[k];
            memcpy(att + (size_t)u * S, h_att + k * S, sizeof(float) * (size_t)S);
            slot = h_par[k];
        }
    }
    *len = n;
    al_free(blk);
    al_free(iblk);
    al_free(fin);
    al_free(taken);
    return AL_OK;
}

al_status al_seq2seq_generate(const al_seq2seq *s, const int32_t *src, int S, int max_len, int beam,
                              int32_t *ids, float *logp, float *att, float *pos, int *len)
{
    s2s_ctx c;
    AL_TRY(al_s2s_ctx_open(&c, s, src, S));
    al_status st = beam <= 1 ? greedy(&c, max_len, ids, logp, att, pos, len)
                             : beam_search(&c, max_len, beam, ids, logp, att, pos, len);
    al_s2s_ctx_free(&c);
    return st;
}

/* ------------------------------------------------------------------ stepped decoding */

struct al_s2s_decoder {
    s2s_ctx c;
    int t, y, done;
    float *state[2]; /* [3H] each */
    float *lp;       /* [Vt] */
    float *row;      /* [S] */
};

al_status al_seq2seq_decoder_start(const al_seq2seq *s, const int32_t *src, int S,
                                   al_s2s_decoder **out)
{
    *out = NULL;
    al_s2s_decoder *d = al_malloc(sizeof *d);
    if (!d) return AL_ERR_NOMEM;
    al_status st = al_s2s_ctx_open(&d->c, s, src, S);
    if (st != AL_OK) {
        al_free(d);
        return st;
    }
    float *w = al_malloc(((size_t)6 * s->H + s->Vt + S) * sizeof(float));
    if (!w) {
        al_s2s_ctx_free(&d->c);
        al_free(d);
        return AL_ERR_NOMEM;
    }
    d->state[0] = w;
    d->state[1] = w + 3 * s->H;
    d->lp = w + 6 * s->H;
    d->row = d->lp + s->Vt;
    memcpy(d->state[0], d->c.init, sizeof(float) * 3 * (size_t)s->H);
    d->t = 0;
    d->y = s->bos;
    d->done = 0;
    *out = d;
    return AL_OK;
}

al_status al_seq2seq_decoder_step(al_s2s_decoder *d, int32_t force, int32_t *id, float *logp,
                                  float *att, float *pos, float *dist, int *done)
{
    const al_seq2seq *s = d->c.s;
    if (d->done) return AL_ERR_ARGUMENT;
    if (force >= s->Vt || force < -1) return AL_ERR_RANGE;
    float p;
    al_s2s_step(&d->c, d->state[d->t & 1], d->y, d->t, d->state[(d->t + 1) & 1], d->lp, d->row, &p,
                NULL);
    const int y = force >= 0 ? force : argmax(d->lp, s->Vt);
    if (id) *id = y;
    if (logp) *logp = d->lp[y];
    if (att) memcpy(att, d->row, sizeof(float) * (size_t)d->c.S);
    if (pos) *pos = p;
    if (dist) memcpy(dist, d->lp, sizeof(float) * (size_t)s->Vt);
    d->t++;
    d->y = y;
    d->done = y == s->eos;
    if (done) *done = d->done;
    /* api/model.c's results policy: huge finite weights can overflow; never AL_OK with NaN/inf */
    if (!isfinite(p) || al_first_nonfinite(d->lp, s->Vt) >= 0 ||
        al_first_nonfinite(d->row, d->c.S) >= 0)
        return AL_ERR_NONFINITE;
    return AL_OK;
}

void al_seq2seq_decoder_free(al_s2s_decoder *d)
{
    if (!d) return;
    al_free(d->state[0]);
    al_s2s_ctx_free(&d->c);
    al_free(d);
}
