/*
 * models/seq2seq_train_batch_attn.c: the encoder and the attention of the batched seq2seq
 * backward (seq2seq_train_batch.h has the row layout and the keys-once maths; seq2seq_train.h the
 * loss). The scores, softmax and context are per decoder row over its own sentence's keys; every
 * projection of the keys is done once per batch, and the query projection once per step.
 * Deliberately not here: the decoder loop, the output layer, the memory layout
 * (seq2seq_train_batch.c).
 */
#include <math.h>
#include <string.h>

#include "seq2seq_train_batch.h"
#include "../kernels/attention_additive_luong.h"
#include "../kernels/kernels.h"
#include "../kernels/recurrent.h"

/* The gradient of parameter p: the same offset in g0 as p has in w0. */
static float *gp(const s2b_ws *w, const float *p) { return w->g0 + (p - w->w0); }

int s2b_supported(const al_seq2seq *s)
{
    return s->attention >= AL_S2S_NONE && s->attention <= AL_S2S_KEY_QUERY;
}

/* The Luong family: dot, general, concat, local-m, local-p (s->score is its score). */
static int luong_family(const al_seq2seq *s)
{
    return s->attention >= AL_S2S_DOT && s->attention <= AL_S2S_LOCAL_P;
}

int s2b_general(const al_seq2seq *s) { return luong_family(s) && s->score == AL_LUONG_GENERAL; }

/* key-query's 1/√dk (or 1) */
static float kq_scale(const al_seq2seq *s) { return s->scaled ? 1.0f / sqrtf((float)s->dk) : 1.0f; }

int s2b_additive(const al_seq2seq *s)
{
    return s->attention == AL_S2S_ADDITIVE || (luong_family(s) && s->score == AL_LUONG_CONCAT);
}

/* The local window of p_t over S keys (kernels/attention_additive_luong.h's convention): the
 * integer positions p − D <= i <= p + D clipped to [0, S−1], as [lo, lo + nw), nw may be 0. */
static void window_of(float p, float D, int S, int *lo, int *nw)
{
    double a = ceil((double)p - D), b = floor((double)p + D);
    if (a < 0) a = 0;
    if (b > S - 1) b = S - 1;
    if (a <= b && a <= S - 1 && b >= 0) {
        *lo = (int)a;
        *nw = (int)b - (int)a + 1;
    } else {
        *lo = 0;
        *nw = 0;
    }
}

/* The additive score's parameters: e = vᵀ tanh(W_q q + bias + W_k h̄), W_q and W_k [da, H] with
 * row stride ld. Luong's concat, v_aᵀ tanh(W_a [q; h̄]), is W_q = W_a[:, :H], W_k = W_a[:, H:]
 * (row stride 2H), no bias, v = v_a. */
typedef struct {
    const float *W_q, *W_k, *bias, *v;
    int ld;
} additive_params;

static additive_params additive_of(const al_seq2seq *s)
{
    if (s->attention != AL_S2S_ADDITIVE)
        return (additive_params){ s->W_a, s->W_a + s->H, NULL, s->v_a, 2 * s->H };
    return (additive_params){ s->W_q, s->W_k, s->bias, s->v, s->H };
}

/* ------------------------------------------------------------------ encoder */

/* The batch runs through the stack as one padded batch of sentences of their own lengths
 * (al_recurrent_stack_*_lengths: one GEMM per time step over the sentences still running),
 * sorted sentence j at rows j·S_max of xpad and kout; the keys are then packed at koff[j]. The
 * decoder starts from the top layer's final state [→h_S; ←h_1]: in the kernel's hn [L·D, B, Hs]
 * sentence j's rows of the top layer are ((L−1)·D + d)·B + j, Hs floats each. */
static long top_row(const al_seq2seq *s, int d, int B, int j)
{
    return (((long)(s->L - 1) * s->dirs + d) * B + j) * s->Hs;
}

al_status s2b_encode_forward(const s2b_ws *w)
{
    const al_seq2seq *s = w->s;
    const int E = s->E, H = s->H, Hs = s->Hs, B = w->B, S_max = w->S_max;
    const int lstm = s->cell == AL_RECURRENT_LSTM;
    for (int j = 0; j < B; j++) {
        const int b = w->order[j];
        /* x_i = src_embedding[src_i] */
        if (al_embedding_forward(w->xpad + (long)j * S_max * E, w->src + (long)b * S_max,
                                 w->src_len[b], s->src_emb, s->Vs, E) >= 0)
            return AL_ERR_RANGE;
        w->lens[j] = w->src_len[b];
    }
    /* the tape stays in enc_scratch for s2b_encode_backward (recompute = 0) */
    al_recurrent_stack_forward_lengths(s->cell, B, S_max, E, Hs, s->L, s->dirs, w->xpad, w->lens,
                                       s->enc, NULL, NULL, w->kout, w->hn, lstm ? w->cn : NULL,
                                       w->enc_scratch);
    for (int j = 0; j < B; j++) {
        memcpy(w->keys + (long)w->koff[j] * H, w->kout + (long)j * S_max * H,
               sizeof(float) * (size_t)w->lens[j] * H);
        for (int d = 0; d < s->dirs; d++) {
            memcpy(w->h0 + (long)j * H + d * Hs, w->hn + top_row(s, d, B, j),
                   sizeof(float) * (size_t)Hs);
            if (lstm)
                memcpy(w->c0 + (long)j * H + d * Hs, w->cn + top_row(s, d, B, j),
                       sizeof(float) * (size_t)Hs);
        }
    }
    return AL_OK;
}

void s2b_encode_backward(const s2b_ws *w, const float *dh0, const float *dc0)
{
    const al_seq2seq *s = w->s;
    const int E = s->E, H = s->H, Hs = s->Hs, B = w->B, S_max = w->S_max;
    const int lstm = s->cell == AL_RECURRENT_LSTM;
    /* the stack's parameter gradients accumulate straight into g0 (same layout as s->enc) */
    float *dparams[AL_S2S_MAX_LAYERS * 2 * 4];
    for (int k = 0; k < s->L * s->dirs * 4; k++) dparams[k] = s->enc[k] ? gp(w, s->enc[k]) : NULL;
    /* ∂/∂keys back into the padded layout (kout is free after the forward); ∂/∂(the top
     * layer's final state) = ∂/∂(decoder initial state); dhn, dcn are zeros elsewhere */
    for (int j = 0; j < B; j++) {
        memcpy(w->kout + (long)j * S_max * H, w->dkeys + (long)w->koff[j] * H,
               sizeof(float) * (size_t)w->lens[j] * H);
        for (int d = 0; d < s->dirs; d++) {
            memcpy(w->dhn + top_row(s, d, B, j), dh0 + (long)j * H + d * Hs,
                   sizeof(float) * (size_t)Hs);
            if (lstm)
                memcpy(w->dcn + top_row(s, d, B, j), dc0 + (long)j * H + d * Hs,
                       sizeof(float) * (size_t)Hs);
        }
    }
    al_recurrent_stack_backward_lengths(s->cell, B, S_max, E, Hs, s->L, s->dirs, w->xpad, w->lens,
                                        s->enc, NULL, NULL, w->kout, w->dhn, lstm ? w->dcn : NULL,
                                        w->dxpad, dparams, NULL, NULL, 0, w->enc_scratch);
    /* x_i = src_embedding[src_i] */
    for (int j = 0; j < B; j++) {
        al_embedding_backward(gp(w, s->src_emb), w->src + (long)w->order[j] * S_max, w->lens[j],
                              w->dxpad + (long)j * S_max * E, E);
    }
}

/* ------------------------------------------------------------------ keys projected once */

void s2b_keys_forward(const s2b_ws *w)
{
    const al_seq2seq *s = w->s;
    const int H = s->H, SS = w->SS, kw = w->kw;
    if (s2b_additive(s)) {
        /* K' = h̄ W_kᵀ  [SS, da] (the bias goes with the query, as the kernel adds it) */
        const additive_params A = additive_of(s);
        al_sgemm(0, 1, SS, kw, H, 1.0f, w->keys, H, A.W_k, A.ld, 0.0f, w->kp, kw);
    } else if (s->attention == AL_S2S_KEY_QUERY) {
        /* K' = h̄ W_Kᵀ  [SS, dk], so e_ti = scale · K'_i · (W_Q q_t) */
        al_sgemm(0, 1, SS, kw, H, 1.0f, w->keys, H, s->W_K, H, 0.0f, w->kp, kw);
    } else if (s2b_general(s)) {
        /* K' = h̄ W_aᵀ  [SS, H], so e_ti = q_tᵀ W_a h̄_i = K'_i · q_t */
        al_sgemm(0, 1, SS, H, H, 1.0f, w->keys, H, s->W_a, H, 0.0f, w->kp, H);
    }
}

void s2b_keys_backward(const s2b_ws *w, const float *queries, int ldq, int NT)
{
    const al_seq2seq *s = w->s;
    const int H = s->H, SS = w->SS, kw = w->kw;
    if (s2b_additive(s)) {
        /* K' = h̄ W_kᵀ  →  dW_k += dK'ᵀ h̄,  dh̄ += dK' W_k */
        const additive_params A = additive_of(s);
        al_sgemm(1, 0, kw, H, SS, 1.0f, w->dkp, kw, w->keys, H, 1.0f, gp(w, A.W_k), A.ld);
        al_sgemm(0, 0, SS, H, kw, 1.0f, w->dkp, kw, A.W_k, A.ld, 1.0f, w->dkeys, H);
        /* Q' = q W_qᵀ + bias (every decoder row)  →  dW_q += dQ'ᵀ q,  dbias += Σ_r dQ'_r */
        al_sgemm(1, 0, kw, H, NT, 1.0f, w->dqp, kw, queries, ldq, 1.0f, gp(w, A.W_q), A.ld);
        if (A.bias) s2b_colsum_add(gp(w, A.bias), w->dqp, kw, NT, kw);
    } else if (s->attention == AL_S2S_KEY_QUERY) {
        /* K' = h̄ W_Kᵀ  →  dW_K += dK'ᵀ h̄,  dh̄ += dK' W_K;  Q' = q W_Qᵀ  →  dW_Q += dQ'ᵀ q;
         * c = W_V h̃bar (h̃bar = Σ_i α_i h̄_i)  →  dW_V += dcᵀ h̃bar, over every decoder row */
        al_sgemm(1, 0, kw, H, SS, 1.0f, w->dkp, kw, w->keys, H, 1.0f, gp(w, s->W_K), H);
        al_sgemm(0, 0, SS, H, kw, 1.0f, w->dkp, kw, s->W_K, H, 1.0f, w->dkeys, H);
        al_sgemm(1, 0, kw, H, NT, 1.0f, w->dqp, kw, queries, ldq, 1.0f, gp(w, s->W_Q), H);
        al_sgemm(1, 0, s->dv, H, NT, 1.0f, w->dcv, s->dv, w->hbar, H, 1.0f, gp(w, s->W_V), H);
    } else if (s2b_general(s)) {
        /* K' = h̄ W_aᵀ  →  dW_a += dK'ᵀ h̄,  dh̄ += dK' W_a */
        al_sgemm(1, 0, H, H, SS, 1.0f, w->dkp, H, w->keys, H, 1.0f, gp(w, s->W_a), H);
        al_sgemm(0, 0, SS, H, H, 1.0f, w->dkp, H, s->W_a, H, 1.0f, w->dkeys, H);
    }
    if (s->local == AL_LUONG_LOCAL_P) /* up = tanh(W_p q)  →  dW_p += dupᵀ q */
        al_sgemm(1, 0, s->dp, H, NT, 1.0f, w->dup, s->dp, queries, ldq, 1.0f, gp(w, s->W_p), H);
}

/* ------------------------------------------------------------------ one step's attention */

void s2b_attend_forward(const s2b_ws *w, int n, int r0, int t, const float *q, float *ctx, int ldc)
{
    const al_seq2seq *s = w->s;
    const int H = s->H, da = s->da, kw = w->kw, dp = s->dp, local = s->local;
    const float D = (float)s->window;
    const additive_params A = additive_of(s);
    const int additive = s2b_additive(s), keyq = s->attention == AL_S2S_KEY_QUERY;
    if (additive) { /* Q' = q W_qᵀ + bias for the n rows at once */
        al_sgemm(0, 1, n, da, H, 1.0f, q, H, A.W_q, A.ld, 0.0f, w->qp + (long)r0 * da, da);
        if (A.bias) al_bias_add_forward(w->qp + (long)r0 * da, da, A.bias, NULL, n, da);
    }
    if (keyq) /* Q' = q W_Qᵀ  [n, dk] */
        al_sgemm(0, 1, n, kw, H, 1.0f, q, H, s->W_Q, H, 0.0f, w->qp + (long)r0 * kw, kw);
    if (local == AL_LUONG_LOCAL_P) { /* up = tanh(W_p q)  [n, dp] */
        float *up = w->up + (long)r0 * dp;
        al_sgemm(0, 1, n, dp, H, 1.0f, q, H, s->W_p, H, 0.0f, up, dp);
        al_tanh_forward(up, up, n * dp);
    }
    for (int j = 0; j < n; j++) {
        const long r = r0 + j, k0 = w->koff[j];
        const int S = w->src_len[w->order[j]];
        const float *K = w->keys + k0 * H, *qj = q + (long)j * H;
        float *a = w->att + r * w->S_max;
        int lo = 0, nw = S;
        if (local != AL_LUONG_GLOBAL) {
            /* p_t = t (local-m) or S · σ(v_pᵀ up) (local-p); the window around it */
            float p = (float)t;
            if (local == AL_LUONG_LOCAL_P) {
                const float *up = w->up + r * dp;
                float z = 0.0f;
                for (int i = 0; i < dp; i++) z += s->v_p[i] * up[i];
                al_sigmoid_forward(&w->sig[r], &z, 1);
                p = (float)S * w->sig[r];
            }
            w->pt[r] = p;
            window_of(p, D, S, &lo, &nw);
            memset(a, 0, sizeof(float) * (size_t)S);
        }
        float *aw = a + lo;
        if (nw > 0) {
            if (additive) /* e_i = vᵀ tanh(Q'_j + K'_i) (the tanh values kept when asked) */
                al_additive_scores(aw, w->tk ? w->tk + ((long)w->tkoff[r] + lo) * da : w->row,
                                   w->qp + r * da, w->kp + (k0 + lo) * kw, A.v, nw, da);
            else if (keyq) /* e_i = scale · K'_i · Q'_j */
                al_sgemv(0, nw, kw, kq_scale(s), w->kp + (k0 + lo) * kw, kw, w->qp + r * kw, 0.0f,
                         aw);
            else if (s2b_general(s)) /* e_i = K'_i · q */
                al_sgemv(0, nw, H, 1.0f, w->kp + (k0 + lo) * kw, H, qj, 0.0f, aw);
            else /* dot: e_i = h̄_i · q */
                al_sgemv(0, nw, H, 1.0f, K + (long)lo * H, H, qj, 0.0f, aw);
            al_softmax_forward(aw, aw, NULL, 0, 1, nw); /* α = softmax(e) over the window */
        }
        if (local != AL_LUONG_GLOBAL) {
            /* a_i = α_i · exp(−(i − p_t)² / (2σ²)), σ = D/2 (α kept for the backward) */
            const float two_sigma2 = 0.5f * D * D;
            memcpy(w->alpha + r * w->S_max, a, sizeof(float) * (size_t)S);
            for (int i = 0; i < nw; i++) {
                const float x = (float)(lo + i) - w->pt[r];
                aw[i] *= expf(-x * x / two_sigma2);
            }
        }
        /* c = Σ_i a_i h̄_i (key-query: h̃bar, then c = W_V h̃bar for the n rows below) */
        float *c = keyq ? w->hbar + r * H : ctx + (long)j * ldc;
        if (nw > 0)
            al_sgemv(1, nw, H, 1.0f, K + (long)lo * H, H, aw, 0.0f, c);
        else
            memset(c, 0, sizeof(float) * (size_t)H);
    }
    if (keyq)
        al_sgemm(0, 1, n, s->dv, H, 1.0f, w->hbar + (long)r0 * H, H, s->W_V, H, 0.0f, ctx, ldc);
}

void s2b_attend_backward(const s2b_ws *w, int n, int r0, const float *q, const float *dctx,
                         float *dq)
{
    const al_seq2seq *s = w->s;
    const int H = s->H, da = s->da, kw = w->kw, dp = s->dp, local = s->local;
    const float D = (float)s->window;
    const int additive = s2b_additive(s);
    const additive_params A = additive_of(s);
    float *tb = w->row; /* [S, da] tanh values */
    float *e = tb + (additive ? (long)w->S_max * da : 0), *dal = e + w->S_max, *de = dal + w->S_max;
    float *gv = additive ? gp(w, A.v) : NULL;
    const int keyq = s->attention == AL_S2S_KEY_QUERY, dcw = s->dc;
    if (keyq) {
        /* c = W_V h̃bar  →  dh̃bar = dc W_V (dW_V folds once: dc kept) */
        memcpy(w->dcv + (long)r0 * dcw, dctx, sizeof(float) * (size_t)n * dcw);
        al_sgemm(0, 0, n, H, dcw, 1.0f, dctx, dcw, s->W_V, H, 0.0f, w->dhb, H);
        dctx = w->dhb; /* from here on, ∂/∂(Σ_i a_i h̄_i) [n, H] */
    }
    for (int j = 0; j < n; j++) {
        const long r = r0 + j, k0 = w->koff[j];
        const int S = w->src_len[w->order[j]];
        const float *K = w->keys + k0 * H, *qj = q + (long)j * H;
        const float *dc = dctx + (long)j * (keyq ? H : dcw);
        const float *a = w->att + r * w->S_max;
        float *dK = w->dkeys + k0 * H, *dqj = dq + (long)j * H;
        int lo = 0, nw = S;
        if (local != AL_LUONG_GLOBAL) window_of(w->pt[r], D, S, &lo, &nw);
        float dpt = 0.0f; /* ∂/∂p_t */
        if (nw > 0) {
            const float *Kw = K + (long)lo * H;
            /* c = Σ_i a_i h̄_i  →  dh̄_i += a_i dc,  da_i = h̄_i · dc (over the window) */
            al_sgemm(0, 0, nw, H, 1, 1.0f, a + lo, 1, dc, H, 1.0f, dK + (long)lo * H, H);
            al_sgemv(0, nw, H, 1.0f, Kw, H, dc, 0.0f, dal);
            const float *al = a + lo; /* the softmax's output */
            if (local != AL_LUONG_GLOBAL) {
                /* a_i = α_i g_i, g_i = exp(−(i − p)²/(2σ²))  →  dα_i = da_i g_i,
                 * dp += Σ_i da_i α_i g_i (i − p)/σ²   (the window itself held fixed) */
                const float sigma2 = 0.25f * D * D;
                al = w->alpha + r * w->S_max + lo;
                double acc = 0.0;
                for (int i = 0; i < nw; i++) {
                    const float x = (float)(lo + i) - w->pt[r];
                    const float g = expf(-x * x / (2.0f * sigma2));
                    acc += (double)dal[i] * al[i] * g * x / sigma2;
                    dal[i] *= g;
                }
                dpt = (float)acc;
            }
            /* α = softmax(e)  →  de = α ⊙ (dα − Σ α dα) */
            memset(de, 0, sizeof(float) * (size_t)nw);
            al_softmax_backward(de, al, dal, 1, nw);
            if (additive) {
                const float *qpj = w->qp + r * da;
                float *dqpj = w->dqp + r * da, *dKp = w->dkp + (k0 + lo) * kw;
                /* t = tanh(Q'_j + K'_i): the forward's, or recomputed */
                if (w->tk)
                    tb = w->tk + ((long)w->tkoff[r] + lo) * da;
                else
                    al_additive_scores(e, tb, qpj, w->kp + (k0 + lo) * kw, A.v, nw, da);
                /* e_i = Σ_a v_a t[i,a]  →  dv += Σ_i de_i t[i,:] */
                al_sgemv(1, nw, da, 1.0f, tb, da, de, 1.0f, gv);
                /* t[i,a] = tanh(Q'_a + K'[i,a])  →  dpre[i,a] = de_i v_a (1 − t²) = dK'[i,a],
                 * and dQ'_a = Σ_i dpre[i,a] */
                for (int i = 0; i < nw; i++) {
                    const float *ti = tb + (long)i * da;
                    float *dki = dKp + (long)i * kw;
                    for (int c = 0; c < da; c++) {
                        const float d = de[i] * A.v[c] * (1.0f - ti[c] * ti[c]);
                        dki[c] += d;
                        dqpj[c] += d;
                    }
                }
            } else if (keyq) {
                /* e_i = sc · K'_i · Q'_j  →  dK'_i += sc de_i Q'_j,  dQ'_j += sc Σ_i de_i K'_i */
                const float sc = kq_scale(s);
                al_sgemm(0, 0, nw, kw, 1, sc, de, 1, w->qp + r * kw, kw, 1.0f,
                         w->dkp + (k0 + lo) * kw, kw);
                al_sgemv(1, nw, kw, sc, w->kp + (k0 + lo) * kw, kw, de, 1.0f, w->dqp + r * kw);
            } else if (s2b_general(s)) {
                /* e_i = K'_i · q  →  dK'_i += de_i q,  dq += Σ_i de_i K'_i */
                al_sgemm(0, 0, nw, H, 1, 1.0f, de, 1, qj, H, 1.0f, w->dkp + (k0 + lo) * kw, H);
                al_sgemv(1, nw, H, 1.0f, w->kp + (k0 + lo) * kw, H, de, 1.0f, dqj);
            } else {
                /* dot: e_i = h̄_i · q  →  dh̄_i += de_i q,  dq += Σ_i de_i h̄_i */
                al_sgemm(0, 0, nw, H, 1, 1.0f, de, 1, qj, H, 1.0f, dK + (long)lo * H, H);
                al_sgemv(1, nw, H, 1.0f, Kw, H, de, 1.0f, dqj);
            }
        }
        if (local == AL_LUONG_LOCAL_P) {
            /* p = S·σ(z)  →  dz = dp · S·σ(1 − σ);  z = v_pᵀ up  →  dv_p += dz up,
             * dup = dz v_p ⊙ (1 − up²) (kept: dW_p folds once, dq below) */
            const float sg = w->sig[r], dz = dpt * (float)S * sg * (1.0f - sg);
            const float *up = w->up + r * dp;
            float *dup = w->dup + r * dp, *gvp = gp(w, s->v_p);
            for (int i = 0; i < dp; i++) {
                gvp[i] += dz * up[i];
                dup[i] = dz * s->v_p[i] * (1.0f - up[i] * up[i]);
            }
        }
    }
    /* Q' = q W_qᵀ  →  dq += dQ' W_q (dW_q folds once, in s2b_keys_backward) */
    if (additive)
        al_sgemm(0, 0, n, H, da, 1.0f, w->dqp + (long)r0 * da, da, A.W_q, A.ld, 1.0f, dq, H);
    if (keyq) /* Q' = q W_Qᵀ  →  dq += dQ' W_Q */
        al_sgemm(0, 0, n, H, kw, 1.0f, w->dqp + (long)r0 * kw, kw, s->W_Q, H, 1.0f, dq, H);
    if (local == AL_LUONG_LOCAL_P) /* up = tanh(W_p q)  →  dq += dup W_p */
        al_sgemm(0, 0, n, H, dp, 1.0f, w->dup + (long)r0 * dp, dp, s->W_p, H, 1.0f, dq, H);
}
