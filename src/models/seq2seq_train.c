/*
 * models/seq2seq_train.c: backward of the seq2seq model for teacher-forced cross-entropy and
 * seeded initialisation. The maths and the list of kernels used are in seq2seq_train.h; the
 * forward here repeats seq2seq.c's step (same kernels) while keeping what the backward reads.
 * Deliberately not here: optimisers, the trainer handle, argument checks (api/train.c), writing
 * safetensors (model_export.c).
 */
#include <math.h>
#include <string.h>

#include "seq2seq_train.h"
#include "loss.h"
#include "optim.h"
#include "../kernels/attention_additive_luong.h"
#include "../kernels/kernels.h"
#include "../kernels/recurrent.h"
#include "../toolbox.h"

static long lmax(long a, long b) { return a > b ? a : b; }

/* The gradient of parameter p: the same offset in g0 as p has in w0 (NULL for NULL). */
static float *gp(const float *w0, float *g0, const float *p) { return p ? g0 + (p - w0) : NULL; }

/* The scratch of whichever runs: the encoder stack (forward, backward), a decoder step, the
 * attention. */
static long scratch_floats(const al_seq2seq *s, int S)
{
    const int H = s->H;
    long n = (long)al_recurrent_layer_forward_scratch(s->cell, 1, 1, H);
    n = lmax(n, (long)al_recurrent_stack_forward_floats(s->cell, 1, S, s->Hs, s->L, s->dirs));
    n = lmax(n, (long)al_recurrent_stack_backward_floats(s->cell, 1, S, s->Hs, s->L, s->dirs));
    n = lmax(n, (long)al_recurrent_layer_backward_scratch(s->cell, 1, 1, H));
    switch (s->attention) {
    case AL_S2S_ADDITIVE:
        n = lmax(n, al_attn_additive_forward_scratch_floats(S, s->da));
        n = lmax(n, al_attn_additive_backward_scratch_floats(S, s->da));
        n = lmax(n, al_attn_additive_saved_backward_scratch_floats(S, s->da));
        break;
    case AL_S2S_KEY_QUERY:
        n = lmax(n, al_attn_key_query_forward_scratch_floats(S, H, s->dk));
        n = lmax(n, al_attn_key_query_backward_scratch_floats(S, H, s->dk));
        break;
    case AL_S2S_NONE: break;
    default:
        n = lmax(n, al_attn_luong_forward_scratch_floats(S, H, s->da, s->dp));
        n = lmax(n, al_attn_luong_backward_scratch_floats(S, H, s->da, s->dp));
        break;
    }
    return n + 1;
}

/* Encoder parameter count (every layer and direction, 4 tensors each). */
static long enc_floats(const al_seq2seq *s)
{
    long n = 0;
    for (int l = 0; l < s->L; l++) {
        const long in = l == 0 ? s->E : s->H;
        n += (long)s->dirs * s->G * s->Hs * (in + s->Hs + 2);
    }
    return n;
}

/* The Luong family in bahdanau style has no W_c: the kernel still computes h̃ from a zero W_c
 * [H, 2H] into a buffer nobody reads (and its gradient into another). */
static int luong_family(const al_seq2seq *s)
{
    return s->attention >= AL_S2S_DOT && s->attention <= AL_S2S_LOCAL_P;
}

/* What one sentence's forward keeps and its backward reads (one al_malloc). */
typedef struct {
    const al_seq2seq *s;
    const float *w0;
    float *g0;
    int S;
    float *keys, *dkeys; /* [S,H] */
    float *kp, *dkp;     /* [S,kw] the keys' projection, once per sentence, and ∂/∂kp (NULL when
                          * al_seq2seq_keys_width is 0) */
    float *kept;         /* additive: [T, ks] each step's forward scratch (its tanh values) and */
    float *alphas;       /* [T, S] its weights, which that step's backward reads (no recompute) */
    long ks;
    float *att;     /* [S]   the attention row of the current step (unused by backward) */
    float *zero_wc; /* [H,2H] zeros, dzero_wc [H,2H] its discarded gradient and junk [H]
                            * the discarded h̃ (bahdanau style with a Luong-family score) */
    float *dzero_wc, *junk;
    float *scratch;
} attn_ws;

/* c_t [dc] (and h̃ [H] when tilde != NULL: luong style) from query [H] at step t, as
 * seq2seq.c's attend(). */
static void attend_forward(const attn_ws *w, const float *query, int t, float *ctx, float *tilde)
{
    const al_seq2seq *s = w->s;
    const int H = s->H, S = w->S, dc = s->dc;
    float p = 0.0f;
    switch (s->attention) {
    case AL_S2S_ADDITIVE:
        al_attn_additive_forward_projected(ctx, w->alphas + (size_t)t * S, NULL, query, w->kp,
                                           w->keys, s->W_q, s->bias, s->v, NULL, S, H, H, s->da,
                                           w->kept + (size_t)t * w->ks);
        break;
    case AL_S2S_KEY_QUERY:
        al_attn_key_query_forward_projected(ctx, w->att, NULL, query, w->kp,
                                            w->kp + (size_t)S * s->dk, s->W_Q, NULL, S, H, s->dk,
                                            s->dv, s->scaled, w->scratch);
        break;
    default: /* the Luong family computes h̃ itself (into the scratch row when not wanted) */
        al_attn_luong_forward_projected(ctx, w->att, NULL, tilde ? tilde : w->junk, &p, query,
                                        w->keys, w->kp, s->W_a, s->v_a, tilde ? s->W_c : w->zero_wc,
                                        s->W_p, s->v_p, NULL, S, H, s->score, s->da, s->local,
                                        (float)s->window, (float)t, s->dp, w->scratch);
        return;
    }
    if (tilde) {
        /* h̃ = tanh(W_c [c_t; h_t]), W_c [H, dc+H] */
        al_sgemv(0, H, dc, 1.0f, s->W_c, dc + H, ctx, 0.0f, tilde);
        al_sgemv(0, H, H, 1.0f, s->W_c + dc, dc + H, query, 1.0f, tilde);
        al_tanh_forward(tilde, tilde, H);
    }
}

/*
 * Backward of attend_forward: from dctx [dc] (bahdanau style; NULL in luong style) or dtilde [H]
 * (luong style), with the forward's ctx and tilde, accumulate dquery [H], dkeys and the
 * parameters' gradients. dtmp [H] and dctx_tmp [dc] are scratch.
 */
static void attend_backward(const attn_ws *w, const float *query, int t, const float *ctx,
                            const float *tilde, const float *dctx, const float *dtilde,
                            float *dquery, float *dtmp, float *dctx_tmp)
{
    const al_seq2seq *s = w->s;
    const int H = s->H, S = w->S, dc = s->dc;
    const float *w0 = w->w0;
    float *g0 = w->g0;
    if (luong_family(s)) {
        const int in_luong = dtilde != NULL;
        al_attn_luong_backward_projected(
            dquery, w->dkeys, w->dkp, gp(w0, g0, s->W_a), gp(w0, g0, s->v_a),
            in_luong ? gp(w0, g0, s->W_c) : w->dzero_wc, gp(w0, g0, s->W_p), gp(w0, g0, s->v_p),
            dctx, NULL, dtilde, NULL, query, w->keys, w->kp, s->W_a, s->v_a,
            in_luong ? s->W_c : w->zero_wc, s->W_p, s->v_p, NULL, S, H, s->score, s->da, s->local,
            (float)s->window, (float)t, s->dp, w->scratch);
        return;
    }
    if (dtilde) {
        /* h̃ = tanh(pre), pre = W_c [c; h]:  dpre = dh̃ ⊙ (1 − h̃²);  dW_c += dpre ⊗ [c; h];
         * dc = W_c[:, :dc]ᵀ dpre;  dh += W_c[:, dc:]ᵀ dpre */
        float *gwc = gp(w0, g0, s->W_c);
        memset(dtmp, 0, sizeof(float) * (size_t)H);
        al_tanh_backward(dtmp, tilde, dtilde, H);
        al_sgemm(0, 0, H, dc, 1, 1.0f, dtmp, 1, ctx, dc, 1.0f, gwc, dc + H);
        al_sgemm(0, 0, H, H, 1, 1.0f, dtmp, 1, query, H, 1.0f, gwc + dc, dc + H);
        al_sgemv(1, H, dc, 1.0f, s->W_c, dc + H, dtmp, 0.0f, dctx_tmp);
        al_sgemv(1, H, H, 1.0f, s->W_c + dc, dc + H, dtmp, 1.0f, dquery);
        dctx = dctx_tmp;
    }
    if (s->attention == AL_S2S_ADDITIVE) {
        /* from the step's kept forward; the keys' share through the scores goes to dkp, folded
         * once after the decoder */
        al_attn_additive_backward_saved(dquery, w->dkp, w->dkeys, gp(w0, g0, s->W_q),
                                        gp(w0, g0, s->bias), gp(w0, g0, s->v), dctx, NULL, query,
                                        w->alphas + (size_t)t * S, w->kept + (size_t)t * w->ks,
                                        w->keys, s->W_q, s->v, S, H, H, s->da, w->scratch);
    } else {
        al_attn_key_query_backward_projected(dquery, w->dkp, w->dkp + (size_t)S * s->dk,
                                             gp(w0, g0, s->W_Q), dctx, NULL, query, w->kp,
                                             w->kp + (size_t)S * s->dk, s->W_Q, NULL, S, H, s->dk,
                                             s->dv, s->scaled, w->scratch);
    }
}

al_status al_seq2seq_backward(const al_seq2seq *s, const float *w0, float *g0, const int32_t *src,
                              int S, const int32_t *tgt, int T, float scale, float smoothing,
                              double *nll)
{
    const int E = s->E, H = s->H, GH = s->G * s->H, V = s->Vt, dc = s->dc;
    const float uniform = smoothing / (float)V; /* ε/V of the smoothed target */
    const int din = s->din, dout = s->dout, bahdanau = s->style == AL_S2S_BAHDANAU;
    const int lstm = s->cell == AL_RECURRENT_LSTM;
    const int rnn = s->cell == AL_RECURRENT_RNN_TANH || s->cell == AL_RECURRENT_RNN_RELU;
    const int dcw = dc > 0 ? dc : 1;
    const long LDH = (long)s->L * s->dirs * s->Hs, NENC = enc_floats(s);
    const int zwc = bahdanau && luong_family(s);
    const int kw = al_seq2seq_keys_width(s);
    const int additive = s->attention == AL_S2S_ADDITIVE;
    const long ks = additive ? al_attn_additive_forward_scratch_floats(S, s->da) : 0;

    /* one block: the saved forward, the gradient buffers, the scratch */
    const double floats = 2.0 * S * E + 2.0 * S * H + S + 4.0 * LDH + NENC + 3.0 * (T + 1) * H +
                          (double)T * (din + GH + H + dcw + dout + V) + 6.0 * H + din + dout + V +
                          2.0 * dcw + (zwc ? 4.0 * H * H + H : 0) + 2.0 * S * kw +
                          (additive ? (double)T * (ks + S) : 0) + scratch_floats(s, S);
    if (floats * sizeof(float) >= 2147483648.0) return AL_ERR_OVERFLOW;
    float *blk = al_malloc((size_t)floats * sizeof(float));
    if (!blk) return AL_ERR_NOMEM;
    memset(blk, 0, (size_t)floats * sizeof(float));
    float *p = blk;
    float *xs = p;
    p += (size_t)S * E; /* [S,E]  source embeddings */
    float *dxs = p;
    p += (size_t)S * E; /* [S,E] */
    float *keys = p;
    p += (size_t)S * H; /* [S,H]  h̄ */
    float *dkeys = p;
    p += (size_t)S * H; /* [S,H] */
    float *att = p;
    p += S; /* [S] */
    float *hn = p;
    p += LDH; /* [L·D, Hs] encoder final states */
    /* clang-format off */
    float *cn = p; p += LDH;
    float *dhn = p; p += LDH;
    float *dcn = p; p += LDH;
    /* clang-format on */
    float *encg = p;
    p += NENC; /* this sentence's encoder gradients */
    float *hs = p;
    p += (size_t)(T + 1) * H; /* [T+1,H] row t = h_{t−1} (row 0: initial) */
    float *cs = p;
    p += (size_t)(T + 1) * H; /* [T+1,H] c likewise (zeros unless LSTM) */
    float *tl = p;
    p += (size_t)(T + 1) * H; /* [T+1,H] row t = h̃_{t−1} (row 0: 0) */
    float *X = p;
    p += (size_t)T * din; /* [T,din] cell inputs */
    float *GT = p;
    p += (size_t)T * GH; /* [T,G·H] activated gates */
    float *ST = p;
    p += (size_t)T * H; /* [T,H] LSTM c_t / GRU W_hn h + b_hn */
    float *CT = p;
    p += (size_t)T * dcw; /* [T,dc] contexts */
    float *FT = p;
    p += (size_t)T * dout; /* [T,dout] output features */
    float *LP = p;
    p += (size_t)T * V; /* [T,V] log-probs */
    float *dH = p;
    p += H; /* ∂/∂h_t (then h_{t−1}) */
    float *dC = p;
    p += H; /* ∂/∂c_t */
    /* clang-format off */
    float *dHp = p; p += H;
    float *dCp = p; p += H;
    /* clang-format on */
    float *dF = p;
    p += H; /* ∂/∂h̃_t from step t+1's input feeding */
    float *dT = p;
    p += H; /* ∂/∂h̃_t; W_c scratch */
    /* clang-format off */
    float *dx = p; p += din;
    float *dfeat = p; p += dout;
    float *dlog = p; p += V;
    float *dctx = p; p += dcw;
    float *dctx2 = p; p += dcw;
    /* clang-format on */
    attn_ws w = {
        s, w0, g0, S, keys, dkeys, NULL, NULL, NULL, NULL, 0, att, NULL, NULL, NULL, NULL
    };
    if (kw) {
        /* clang-format off */
        w.kp = p; p += (size_t)S * kw;
        w.dkp = p; p += (size_t)S * kw; /* zeros: the block's memset */
        /* clang-format on */
    }
    if (additive) {
        /* clang-format off */
        w.kept = p; p += (size_t)T * ks;
        w.alphas = p; p += (size_t)T * S;
        /* clang-format on */
        w.ks = ks;
    }
    if (zwc) {
        /* clang-format off */
        w.zero_wc = p; p += 2 * (size_t)H * H;
        w.dzero_wc = p; p += 2 * (size_t)H * H;
        w.junk = p; p += H;
        /* clang-format on */
    }
    float *scratch = p;
    w.scratch = scratch;

    /* ---------------------------------------------------------------- forward */
    al_status st = AL_OK;
    if (al_embedding_forward(xs, src, S, s->src_emb, s->Vs, E) >= 0) {
        st = AL_ERR_RANGE;
        goto done;
    }
    al_recurrent_stack_forward(s->cell, 1, S, E, s->Hs, s->L, s->dirs, xs, s->enc, NULL, NULL, keys,
                               hn, lstm ? cn : NULL, scratch);
    /* the decoder starts from the top layer's [→h_S; ←h_1] (adjacent rows of hn) */
    const long top = (long)(s->L - 1) * s->dirs * s->Hs;
    memcpy(hs, hn + top, sizeof(float) * (size_t)H);
    if (lstm) memcpy(cs, cn + top, sizeof(float) * (size_t)H);
    if (kw) al_seq2seq_project_keys(s, w.kp, keys, S); /* once for every decoder step */

    double total = 0.0;
    for (int t = 0; t < T; t++) {
        const int y = t ? tgt[t - 1] : s->bos;
        const float *hp = hs + (size_t)t * H, *cp = cs + (size_t)t * H;
        float *h = hs + (size_t)(t + 1) * H, *c = cs + (size_t)(t + 1) * H;
        float *x = X + (size_t)t * din, *ctx = CT + (size_t)t * dcw;
        float *feat = FT + (size_t)t * dout, *tilde = tl + (size_t)(t + 1) * H;
        float *lp = LP + (size_t)t * V;
        memcpy(x, s->tgt_emb + (size_t)y * E, sizeof(float) * (size_t)E);
        if (bahdanau && dc) {
            /* c_t = attend(s_{t−1}); x = [y; c_t] */
            attend_forward(&w, hp, t, ctx, NULL);
            memcpy(x + E, ctx, sizeof(float) * (size_t)dc);
        }
        if (!bahdanau && s->input_feeding) {
            memcpy(x + E, tl + (size_t)t * H, sizeof(float) * (size_t)H); /* [y; h̃_{t−1}] */
        }
        /* s_t = cell(x, s_{t−1}) */
        al_recurrent_layer_forward(s->cell, 1, 1, din, H, 0, x, s->dec_w_ih, s->dec_w_hh,
                                   s->dec_b_ih, s->dec_b_hh, hp, lstm ? cp : NULL, h, H, NULL,
                                   lstm ? c : NULL, GT + (size_t)t * GH,
                                   rnn ? NULL : ST + (size_t)t * H, scratch);
        if (bahdanau) {
            memcpy(feat, h, sizeof(float) * (size_t)H); /* [s_t; c_t] */
            if (dc) memcpy(feat + H, ctx, sizeof(float) * (size_t)dc);
        } else {
            if (dc)
                attend_forward(&w, h, t, ctx, tilde); /* h̃_t */
            else
                memcpy(tilde, h, sizeof(float) * (size_t)H);
            memcpy(feat, tilde, sizeof(float) * (size_t)H);
        }
        /* logits = out.weight feat + out.bias; log_softmax (sum in double) */
        memcpy(lp, s->out_b, sizeof(float) * (size_t)V);
        al_sgemv(0, V, dout, 1.0f, s->out_w, dout, feat, 1.0f, lp);
        float mx = lp[0];
        for (int i = 1; i < V; i++) mx = lp[i] > mx ? lp[i] : mx;
        double sum = 0.0;
        for (int i = 0; i < V; i++) sum += exp((double)lp[i] - mx);
        const double lse = (double)mx + log(sum);
        for (int i = 0; i < V; i++) lp[i] = (float)((double)lp[i] - lse);
        total -= lp[tgt[t]];
        total += al_smoothing_extra(lp, V, tgt[t], smoothing);
    }
    *nll = total;

    /* ---------------------------------------------------------------- backward */
    float *gemb = gp(w0, g0, s->tgt_emb), *gout_w = gp(w0, g0, s->out_w);
    float *gout_b = gp(w0, g0, s->out_b);
    for (int t = T - 1; t >= 0; t--) {
        const int y = t ? tgt[t - 1] : s->bos;
        const float *hp = hs + (size_t)t * H, *cp = cs + (size_t)t * H;
        const float *h = hs + (size_t)(t + 1) * H;
        const float *x = X + (size_t)t * din, *ctx = CT + (size_t)t * dcw;
        const float *feat = FT + (size_t)t * dout, *tilde = tl + (size_t)(t + 1) * H;
        const float *lp = LP + (size_t)t * V;
        /* nll −= lp[tgt[t]], lp = log_softmax(logits): dlogits = scale · (softmax − q), q the
         * smoothed target (models/loss.h; onehot when smoothing = 0) */
        for (int i = 0; i < V; i++) dlog[i] = scale * ((float)exp((double)lp[i]) - uniform);
        dlog[tgt[t]] -= scale * (1.0f - smoothing);
        /* logits = out.weight feat + out.bias */
        for (int i = 0; i < V; i++) gout_b[i] += dlog[i];
        al_sgemm(0, 0, V, dout, 1, 1.0f, dlog, 1, feat, dout, 1.0f, gout_w, dout);
        al_sgemv(1, V, dout, 1.0f, s->out_w, dout, dlog, 0.0f, dfeat);
        if (bahdanau) {
            /* feat = [s_t; c_t] */
            for (int i = 0; i < H; i++) dH[i] += dfeat[i];
            if (dc) memcpy(dctx, dfeat + H, sizeof(float) * (size_t)dc);
        } else {
            /* feat = h̃_t, which step t+1 was also fed */
            for (int i = 0; i < H; i++) dT[i] = dfeat[i] + dF[i];
            if (dc) {
                attend_backward(&w, h, t, ctx, tilde, NULL, dT, dH, dHp, dctx2);
            } else {
                for (int i = 0; i < H; i++) dH[i] += dT[i]; /* h̃ = h */
            }
        }
        /* s_t = cell(x, s_{t−1}) */
        memset(dx, 0, sizeof(float) * (size_t)din);
        memset(dHp, 0, sizeof(float) * (size_t)H);
        memset(dCp, 0, sizeof(float) * (size_t)H);
        al_recurrent_layer_backward(
            s->cell, 1, 1, din, H, 0, x, s->dec_w_ih, s->dec_w_hh, hp, lstm ? cp : NULL, h, H,
            GT + (size_t)t * GH, rnn ? NULL : ST + (size_t)t * H, dH, H, NULL, lstm ? dC : NULL, dx,
            gp(w0, g0, s->dec_w_ih), gp(w0, g0, s->dec_w_hh), gp(w0, g0, s->dec_b_ih),
            gp(w0, g0, s->dec_b_hh), dHp, lstm ? dCp : NULL, scratch);
        /* x = [y_emb; c_t] (bahdanau) or [y_emb; h̃_{t−1}] (luong, feeding) */
        al_embedding_backward(gemb, &y, 1, dx, E);
        if (bahdanau && dc) {
            for (int i = 0; i < dc; i++) dctx[i] += dx[E + i];
            attend_backward(&w, hp, t, ctx, NULL, dctx, NULL, dHp, dT, dctx2); /* c_t(s_{t−1}) */
        }
        if (!bahdanau && s->input_feeding) memcpy(dF, dx + E, sizeof(float) * (size_t)H);
        memcpy(dH, dHp, sizeof(float) * (size_t)H);
        memcpy(dC, dCp, sizeof(float) * (size_t)H);
    }

    /* the keys' projection, once: ∂/∂kp into ∂/∂keys and ∂/∂W_k (additive), ∂/∂W_K and ∂/∂W_V
     * (key-query) or ∂/∂W_a (Luong) */
    if (kw && s->attention == AL_S2S_ADDITIVE)
        al_attn_additive_fold_keys(dkeys, gp(w0, g0, s->W_k), w.dkp, keys, s->W_k, S, H, s->da);
    else if (kw && s->attention == AL_S2S_KEY_QUERY)
        al_attn_key_query_fold_keys(dkeys, gp(w0, g0, s->W_K), gp(w0, g0, s->W_V), w.dkp,
                                    w.dkp + (size_t)S * s->dk, keys, s->W_K, s->W_V, S, H, s->dk,
                                    s->dv);
    else if (kw)
        al_attn_luong_fold_keys(dkeys, gp(w0, g0, s->W_a), w.dkp, keys, s->W_a, S, H, s->score,
                                s->da);
    /* the encoder: ∂/∂keys and ∂/∂(its top layer's final state) */
    memcpy(dhn + top, dH, sizeof(float) * (size_t)H);
    if (lstm) memcpy(dcn + top, dC, sizeof(float) * (size_t)H);
    float *dparams[AL_S2S_MAX_LAYERS * 2 * 4];
    {
        float *q = encg;
        for (int l = 0; l < s->L; l++) {
            const long in = l == 0 ? E : H;
            for (int d = 0; d < s->dirs; d++) {
                const long sz[4] = { (long)s->G * s->Hs * in, (long)s->G * s->Hs * s->Hs,
                                     (long)s->G * s->Hs, (long)s->G * s->Hs };
                for (int k = 0; k < 4; k++) {
                    dparams[(l * s->dirs + d) * 4 + k] = q;
                    q += sz[k];
                }
            }
        }
    }
    /* the stack's gradients accumulate: into zeros (encg, dxs untouched since the block's
     * memset), then added to the gradient tensor by tensor */
    al_recurrent_stack_backward(s->cell, 1, S, E, s->Hs, s->L, s->dirs, xs, s->enc, NULL, NULL,
                                dkeys, dhn, lstm ? dcn : NULL, dxs, dparams, NULL, NULL, scratch);
    {
        const float *q = encg;
        for (int l = 0; l < s->L; l++) {
            const long in = l == 0 ? E : H;
            for (int d = 0; d < s->dirs; d++) {
                const long sz[4] = { (long)s->G * s->Hs * in, (long)s->G * s->Hs * s->Hs,
                                     (long)s->G * s->Hs, (long)s->G * s->Hs };
                for (int k = 0; k < 4; k++) {
                    float *g = gp(w0, g0, s->enc[(l * s->dirs + d) * 4 + k]);
                    for (long i = 0; i < sz[k]; i++) g[i] += q[i];
                    q += sz[k];
                }
            }
        }
    }
    al_embedding_backward(gp(w0, g0, s->src_emb), src, S, dxs, E);
done:
    al_free(blk);
    return st;
}

/* ------------------------------------------------------------------ initialisation */

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static al_init init_rule(const al_tensor_spec *t, int k, const void *impl)
{
    const al_seq2seq *s = impl;
    const char *name = t->name;
    if (strstr(name, "embedding")) return (al_init){ AL_INIT_NORMAL, 0.0 };
    double fan;
    if (starts(name, "encoder."))
        fan = s->Hs;
    else if (starts(name, "decoder."))
        fan = s->H;
    else if (strcmp(name, "attention.bias") == 0)
        fan = s->H;
    else if (strcmp(name, "out.bias") == 0)
        fan = s->dout;
    else if (t->rank == 2)
        fan = t->dim[1];
    else
        fan = t->dim[0]; /* v, v_a, v_p */
    return (al_init){ AL_INIT_UNIFORM, 1.0 / sqrt(fan) };
}

void al_seq2seq_init(const al_tensor_list *list, const al_seq2seq *s, float *weights, uint32_t seed)
{
    al_init_weights(list, s, weights, seed, init_rule);
}

void al_seq2seq_init_hook(const al_tensor_list *list, const void *impl, float *weights,
                          uint32_t seed)
{
    al_seq2seq_init(list, (const al_seq2seq *)impl, weights, seed);
}

al_status al_seq2seq_example_hook(const void *impl, const int32_t *src, int S, const int32_t *tgt,
                                  int T, double *terms)
{
    const al_seq2seq *s = (const al_seq2seq *)impl;
    if (S < 1 || T < 1 || !src || !tgt) return AL_ERR_SHAPE;
    for (int i = 0; i < S; i++)
        if (src[i] < 0 || src[i] >= s->Vs) return AL_ERR_RANGE;
    for (int i = 0; i < T; i++)
        if (tgt[i] < 0 || tgt[i] >= s->Vt) return AL_ERR_RANGE;
    *terms = T;
    return AL_OK;
}

al_status al_seq2seq_backward_hook(const void *impl, const float *w0, float *g0, const int32_t *src,
                                   int S, const int32_t *tgt, int T, float scale, float smoothing,
                                   double *nll)
{
    return al_seq2seq_backward((const al_seq2seq *)impl, w0, g0, src, S, tgt, T, scale, smoothing,
                               nll);
}
