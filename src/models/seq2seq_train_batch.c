/*
 * models/seq2seq_train_batch.c: the seq2seq backward for a whole batch at once
 * (al_seq2seq_backward_batch, seq2seq_train.h): the same loss and gradient as one
 * al_seq2seq_backward per sentence, with the sentences stepped together as matrices.
 *
 *   sort       sentences by target length, longest first (stable): the ones still running at
 *              step t are a prefix of n_t rows, so no masks and no wasted rows
 *              (seq2seq_train_batch.h has the row layout)
 *   encoder    per sentence into packed keys [Σ S_b, H] (s2b_encode_*, to become one batched
 *              variable-length stack); the keys' projections once for the batch (s2b_keys_*)
 *   decoder    the target-embedding part of the cell's input projection for every step in one
 *              GEMM; per step one GEMM for the context / fed h̃ part and one for W_hh over the n_t
 *              rows, the gate kernels per row, the attention per row over its own keys
 *   output     logits of every (step, sentence) row in one GEMM after the loop; backward: dW_out
 *              and ∂/∂features in one GEMM each before walking the steps back
 *   weights    every decoder weight gradient (W_ih, W_hh, biases, W_c, W_q, target embeddings)
 *              folded once over all rows at the end, from the per-row gradients the walk kept
 * Every attention of seq2seq.h has its batched form here; a configuration without one would
 * return AL_ERR_UNSUPPORTED (g0 untouched) and the trainer call al_seq2seq_backward per sentence.
 * Deliberately not here: the attention and the encoder (seq2seq_train_batch_attn.c).
 */
#include <math.h>
#include <string.h>

#include "loss.h"
#include "seq2seq_train.h"
#include "seq2seq_train_batch.h"
#include "../kernels/attention_additive_luong.h"
#include "../kernels/kernels.h"
#include "../kernels/recurrent.h"

double s2b_keep_floats = 33554432.0;

/* The gradient of parameter p: the same offset in g0 as p has in w0 (NULL for NULL). */
static float *gp(const float *w0, float *g0, const float *p) { return p ? g0 + (p - w0) : NULL; }

/* b [C] += the column sums of x [R, C] (row stride ldx), each summed in double (a bias's gradient
 * is a sum over every row of the batch, where float rounding would add up). */
void s2b_colsum_add(float *b, const float *x, int ldx, int R, int C)
{
    double acc[32];
    for (int c0 = 0; c0 < C; c0 += 32) {
        const int w = C - c0 < 32 ? C - c0 : 32;
        for (int c = 0; c < w; c++) acc[c] = 0.0;
        for (long r = 0; r < R; r++) {
            const float *row = x + r * ldx + c0;
            for (int c = 0; c < w; c++) acc[c] += row[c];
        }
        for (int c = 0; c < w; c++) b[c0 + c] += (float)acc[c];
    }
}

/* A bump allocator over the step's one block. */
typedef struct {
    float *p;
} bump;
static float *take(bump *b, double n)
{
    float *r = b->p;
    b->p += (size_t)n;
    return r;
}

al_status al_seq2seq_backward_batch(const al_seq2seq *s, const float *w0, float *g0,
                                    const int32_t *src, const int32_t *src_len, int S_max,
                                    const int32_t *tgt, const int32_t *tgt_len, int T_max, int B,
                                    float scale, float smoothing, double *nll)
{
    if (!s2b_supported(s)) return AL_ERR_UNSUPPORTED;
    const int E = s->E, H = s->H, G = s->G, GH = G * H, V = s->Vt, dc = s->dc;
    const int din = s->din, dout = s->dout, dx = din - E, bahdanau = s->style == AL_S2S_BAHDANAU;
    const int lstm = s->cell == AL_RECURRENT_LSTM, gru = s->cell == AL_RECURRENT_GRU;
    const int da = s2b_additive(s) ? s->da : 0; /* additive or concat */
    const int keyq = s->attention == AL_S2S_KEY_QUERY;
    const int kw = da ? da : s2b_general(s) ? H : keyq ? s->dk : 0; /* K' */
    const int local = s->local != AL_LUONG_GLOBAL, local_p = s->local == AL_LUONG_LOCAL_P;
    const int qw = da ? da : keyq ? s->dk : 0; /* Q' */
    const int luong_c = !bahdanau && dc > 0;   /* h̃ = tanh(W_c [c; h]) */
    const int ldx = din + H; /* a row of X: [y_emb; c_t or h̃_{t−1}; s_{t−1}] */

    /* sizes: T the longest target, NT the decoder rows, SS the key rows */
    long NT = 0, SS = 0;
    int T = 0;
    for (int b = 0; b < B; b++) {
        if (tgt_len[b] < 1 || src_len[b] < 1 || tgt_len[b] > T_max || src_len[b] > S_max)
            return AL_ERR_SHAPE;
        NT += tgt_len[b];
        SS += src_len[b];
        T = tgt_len[b] > T ? tgt_len[b] : T;
    }
    /* additive: Σ over decoder rows of S_b · da tanh values, kept when that is not too many */
    double keep = 0.0;
    for (int b = 0; da && b < B; b++) keep += (double)tgt_len[b] * src_len[b] * da;
    if (keep > s2b_keep_floats) keep = 0.0;
    const double LDH = (double)s->L * s->dirs * s->Hs;
    const double enc_scr =
        al_recurrent_stack_backward_lengths_floats(s->cell, B, S_max, E, s->Hs, s->L, s->dirs);
    const double pad = (double)B * S_max;
    const double ints = 2.0 * B + 1 + 2.0 * T + 1 + 2.0 * NT + T_max + 2 + (keep ? NT + 1.0 : 0);
    const double nb = (double)B, nt = (double)NT, ss = (double)SS;
    /* every take() below, in order */
    const double floats =
        ints + nb + 2 * pad * E + pad * H + 2 * ss * H + 4 * LDH * nb + enc_scr + 2 * ss * kw +
        2 * nt * qw + (dc ? nt * S_max : 0) + (double)S_max * da + 3.0 * S_max +
        (nb + nt) * H * (lstm ? 2 : 1) + nt * ldx + nt * GH + (gru ? nt * H + nb * GH : 0) +
        nt * V + (!bahdanau ? nt * H : 0) + (luong_c ? nt * dc + nt * H : 0) +
        nt * GH * (gru ? 2 : 1) + nt * H + nt * dc + nt * E + 6 * nb * H + nb * dx + nb * dc +
        (double)GH * (dx + H) + nb * (dx + H) + keep + (keyq ? nt * H + nt * dc + nb * H : 0) +
        (local ? nt * S_max + 2 * nt : 0) + (local_p ? 2 * nt * s->dp : 0) + 16;
    if (floats * sizeof(float) >= 2147483648.0) return AL_ERR_OVERFLOW;
    float *blk = al_malloc((size_t)floats * sizeof(float));
    if (!blk) return AL_ERR_NOMEM;
    memset(blk, 0, (size_t)floats * sizeof(float));
    bump m = { blk };
    /* ints: sorted order, key offsets, step row offsets and counts, decoder input/target ids */
    int *order = (int *)take(&m, B), *koff = (int *)take(&m, B + 1);
    int *rowoff = (int *)take(&m, T + 1), *nrow = (int *)take(&m, T);
    int32_t *yin = (int32_t *)take(&m, (double)NT), *yout = (int32_t *)take(&m, (double)NT);
    int *cnt = (int *)take(&m, T_max + 2);
    int *tkoff = keep ? (int *)take(&m, NT + 1.0) : NULL;
    /* stable counting sort by target length, longest first */
    for (int b = 0; b < B; b++) cnt[T_max - tgt_len[b]]++;
    for (int k = 0, acc = 0; k <= T_max; k++) {
        const int c = cnt[k];
        cnt[k] = acc;
        acc += c;
    }
    for (int b = 0; b < B; b++) order[cnt[T_max - tgt_len[b]]++] = b;
    for (int j = 0; j < B; j++) koff[j + 1] = koff[j] + src_len[order[j]];
    for (int t = 0; t < T; t++) {
        int n = 0;
        while (n < B && tgt_len[order[n]] > t) n++;
        nrow[t] = n;
        rowoff[t + 1] = rowoff[t] + n;
        for (int j = 0; j < n; j++) {
            const int32_t *y = tgt + (long)order[j] * T_max;
            yin[rowoff[t] + j] = t ? y[t - 1] : s->bos; /* fed bos, tgt[0], ..., tgt[T−2] */
            yout[rowoff[t] + j] = y[t];
            if (tkoff) tkoff[rowoff[t] + j + 1] = tkoff[rowoff[t] + j] + src_len[order[j]];
        }
    }

    s2b_ws w;
    memset(&w, 0, sizeof w);
    w.s = s;
    w.w0 = w0;
    w.g0 = g0;
    w.B = B;
    w.S_max = S_max;
    w.src = src;
    w.src_len = src_len;
    w.order = order;
    w.koff = koff;
    w.SS = (int)SS;
    w.lens = (int32_t *)take(&m, nb);
    w.xpad = take(&m, pad * E);
    w.dxpad = take(&m, pad * E);
    w.kout = take(&m, pad * H);
    w.keys = take(&m, ss * H);
    w.dkeys = take(&m, ss * H);
    w.hn = take(&m, LDH * nb);
    w.cn = take(&m, LDH * nb);
    w.dhn = take(&m, LDH * nb);
    w.dcn = take(&m, LDH * nb);
    w.enc_scratch = take(&m, enc_scr);
    w.kw = kw;
    w.kp = take(&m, ss * kw);
    w.dkp = take(&m, ss * kw);
    w.qp = take(&m, nt * qw);
    w.dqp = take(&m, nt * qw);
    if (keyq) {
        w.hbar = take(&m, nt * H);
        w.dcv = take(&m, nt * dc);
        w.dhb = take(&m, nb * H);
    }
    if (local) {
        w.alpha = take(&m, nt * S_max);
        w.pt = take(&m, nt);
        w.sig = take(&m, nt);
    }
    if (local_p) {
        w.up = take(&m, nt * s->dp);
        w.dup = take(&m, nt * s->dp);
    }
    w.att = take(&m, dc ? nt * S_max : 0);
    w.row = take(&m, (double)S_max * da + 3.0 * S_max);
    w.tk = keep ? take(&m, keep) : NULL;
    w.tkoff = tkoff;
    /* decoder, forward: HS [B + NT, H] block 0 the initial states, then s_t of every row (CS the
     * LSTM's c likewise); X [NT, din + H] each row's cell input x and its s_{t−1} (so the
     * non-embedding input and the recurrence are one GEMM against Wx = [W_ih[:, E:] W_hh]) */
    float *HS = take(&m, (nb + nt) * H), *CS = lstm ? take(&m, (nb + nt) * H) : NULL;
    float *X = take(&m, nt * ldx), *HP = X + din; /* HP: s_{t−1}, row stride ldx */
    float *Wx = take(&m, (double)GH * (dx + H));  /* [G·H, dx + H] */
    float *DX2 = take(&m, nb * (dx + H));         /* [n, dx + H] ∂/∂ those inputs, one step */
    float *GT = take(&m, nt * GH);                /* [NT, G·H] gates */
    float *ST = gru ? take(&m, nt * H) : NULL;    /* [NT, H] GRU W_hn h + b_hn */
    float *HH = gru ? take(&m, nb * GH) : NULL;   /* [n, G·H] GRU W_hh h + b_hh, one step */
    float *LP = take(&m, nt * V);                 /* [NT, V] log-probs, then dlogits */
    float *FT = !bahdanau ? take(&m, nt * H) : NULL; /* [NT, H] luong h̃ */
    float *CT = luong_c ? take(&m, nt * dc) : NULL;  /* [NT, dc] luong contexts */
    float *DZ = luong_c ? take(&m, nt * H) : NULL;   /* [NT, H] ∂/∂(W_c [c; h]) */
    /* backward */
    float *DPRE = take(&m, nt * GH);             /* [NT, G·H] ∂/∂ input projections */
    float *DHH = gru ? take(&m, nt * GH) : DPRE; /* [NT, G·H] ∂/∂(W_hh h + b_hh) */
    float *DF1 = take(&m, nt * H);               /* [NT, H] ∂/∂ s_t (bahdanau), h̃ (luong) */
    float *DF2 = take(&m, nt * dc);              /* [NT, dc] ∂/∂ c_t via the output */
    float *DEMB = take(&m, nt * E);              /* [NT, E] ∂/∂ target embeddings */
    float *dH = take(&m, nb * H), *dC = take(&m, nb * H), *dHp = take(&m, nb * H);
    float *dCp = take(&m, nb * H), *dF = take(&m, nb * H), *dT = take(&m, nb * H);
    float *dXr = take(&m, nb * dx), *dctx = take(&m, nb * dc);
    w.h0 = HS;
    w.c0 = CS;

    /* ---------------------------------------------------------------- forward */
    al_status st = s2b_encode_forward(&w);
    if (st != AL_OK) goto done;
    s2b_keys_forward(&w);
    /* x = [y_emb; ·]: the embedding part of every row, and its input projection in one GEMM
     * (+ b_ih, + b_hh except the GRU's, which stays inside r ⊙ (W_hn h + b_hn)) */
    for (long r = 0; r < NT; r++)
        memcpy(X + r * ldx, s->tgt_emb + (long)yin[r] * E, sizeof(float) * (size_t)E);
    al_sgemm(0, 1, (int)NT, GH, E, 1.0f, X, ldx, s->dec_w_ih, din, 0.0f, GT, GH);
    for (int i = 0; i < GH; i++) {
        memcpy(Wx + (long)i * (dx + H), s->dec_w_ih + (long)i * din + E, sizeof(float) * dx);
        memcpy(Wx + (long)i * (dx + H) + dx, s->dec_w_hh + (long)i * H, sizeof(float) * H);
    }
    if (s->dec_b_ih)
        al_bias_add_forward(GT, GH, s->dec_b_ih, gru ? NULL : s->dec_b_hh, (int)NT, GH);
    for (int t = 0; t < T; t++) {
        const int n = nrow[t], r0 = rowoff[t], rp = t ? B + rowoff[t - 1] : 0;
        const float *hp = HS + (long)rp * H, *cp = lstm ? CS + (long)rp * H : NULL;
        float *h = HS + (long)(B + r0) * H, *c = lstm ? CS + (long)(B + r0) * H : NULL;
        float *x = X + (long)r0 * ldx, *g = GT + (long)r0 * GH;
        for (int j = 0; j < n; j++)
            memcpy(x + (long)j * ldx + din, hp + (long)j * H, sizeof(float) * (size_t)H);
        if (bahdanau && dc) s2b_attend_forward(&w, n, r0, t, hp, x + E, ldx); /* c_t(s_{t−1}) */
        if (!bahdanau && s->input_feeding && t) /* x = [y; h̃_{t−1}] (h̃_{−1} = 0) */
            for (int j = 0; j < n; j++)
                memcpy(x + (long)j * ldx + E, FT + (long)(rowoff[t - 1] + j) * H,
                       sizeof(float) * (size_t)H);
        if (gru) {
            /* gates += x[E:] W_ih[:, E:]ᵀ */
            if (dx) al_sgemm(0, 1, n, GH, dx, 1.0f, x + E, ldx, s->dec_w_ih + E, din, 1.0f, g, GH);
            /* hh = W_hh h_{t−1} + b_hh, kept apart for r ⊙ h_n */
            al_sgemm(0, 1, n, GH, H, 1.0f, hp, H, s->dec_w_hh, H, 0.0f, HH, GH);
            if (s->dec_b_hh) al_bias_add_forward(HH, GH, s->dec_b_hh, NULL, n, GH);
            for (int j = 0; j < n; j++) {
                const float *hh = HH + (long)j * GH;
                al_recurrent_gru_cell_forward(g + (long)j * GH, h + (long)j * H, hh,
                                              hp + (long)j * H, H);
                memcpy(ST + (long)(r0 + j) * H, hh + 2 * H, sizeof(float) * (size_t)H);
            }
        } else {
            /* gates += [x[E:]; s_{t−1}] [W_ih[:, E:] W_hh]ᵀ, one GEMM */
            al_sgemm(0, 1, n, GH, dx + H, 1.0f, x + E, ldx, Wx, dx + H, 1.0f, g, GH);
            for (int j = 0; j < n; j++) {
                if (lstm)
                    al_recurrent_lstm_cell_forward(g + (long)j * GH, c + (long)j * H,
                                                   h + (long)j * H, cp + (long)j * H, H);
                else
                    al_recurrent_rnn_cell_forward(h + (long)j * H, g + (long)j * GH, H,
                                                  s->cell == AL_RECURRENT_RNN_RELU);
            }
        }
        if (luong_c) {
            /* c_t(h_t); h̃_t = tanh(W_c [c_t; h_t]) */
            float *ct = CT + (long)r0 * dc, *ft = FT + (long)r0 * H;
            s2b_attend_forward(&w, n, r0, t, h, ct, dc);
            al_sgemm(0, 1, n, H, dc, 1.0f, ct, dc, s->W_c, dc + H, 0.0f, ft, H);
            al_sgemm(0, 1, n, H, H, 1.0f, h, H, s->W_c + dc, dc + H, 1.0f, ft, H);
            al_tanh_forward(ft, ft, n * H);
        } else if (!bahdanau) {
            memcpy(FT + (long)r0 * H, h, sizeof(float) * (size_t)n * H); /* h̃ = h */
        }
    }
    /* logits = out.weight feat + out.bias for every row at once; feat = [s_t; c_t] (bahdanau)
     * or h̃_t (luong) */
    const float *HSo = HS + (long)B * H;
    for (long r = 0; r < NT; r++) memcpy(LP + r * V, s->out_b, sizeof(float) * (size_t)V);
    if (bahdanau) {
        al_sgemm(0, 1, (int)NT, V, H, 1.0f, HSo, H, s->out_w, dout, 1.0f, LP, V);
        if (dc) al_sgemm(0, 1, (int)NT, V, dc, 1.0f, X + E, ldx, s->out_w + H, dout, 1.0f, LP, V);
    } else {
        al_sgemm(0, 1, (int)NT, V, H, 1.0f, FT, H, s->out_w, dout, 1.0f, LP, V);
    }
    double total = 0.0;
    const double uniform = (double)scale * smoothing / V; /* scale · ε/V */
    for (long r = 0; r < NT; r++) {
        /* log_softmax (sums in double), one exp per logit: nll −= logit_y − lse, and
         * dlogits = scale · (softmax − q) in place, q the smoothed target (models/loss.h) */
        float *lp = LP + r * V;
        const int y = yout[r];
        const double ly = lp[y];
        total += al_smoothing_extra(lp, V, y, smoothing);
        float mx = lp[0];
        for (int i = 1; i < V; i++) mx = lp[i] > mx ? lp[i] : mx;
        double sum = 0.0;
        for (int i = 0; i < V; i++) {
            const double e = exp((double)lp[i] - mx);
            sum += e;
            lp[i] = (float)e;
        }
        total -= ly - ((double)mx + log(sum));
        const double k = (double)scale / sum;
        for (int i = 0; i < V; i++) lp[i] = (float)(k * lp[i] - uniform);
        lp[y] -= scale * (1.0f - smoothing);
    }
    *nll = total;

    /* ---------------------------------------------------------------- backward */
    /* the output layer: dout.bias, dout.weight and ∂/∂features in one pass each */
    float *gout_w = gp(w0, g0, s->out_w);
    s2b_colsum_add(gp(w0, g0, s->out_b), LP, V, (int)NT, V);
    if (bahdanau) {
        al_sgemm(1, 0, V, H, (int)NT, 1.0f, LP, V, HSo, H, 1.0f, gout_w, dout);
        al_sgemm(0, 0, (int)NT, H, V, 1.0f, LP, V, s->out_w, dout, 0.0f, DF1, H);
        if (dc) {
            al_sgemm(1, 0, V, dc, (int)NT, 1.0f, LP, V, X + E, ldx, 1.0f, gout_w + H, dout);
            al_sgemm(0, 0, (int)NT, dc, V, 1.0f, LP, V, s->out_w + H, dout, 0.0f, DF2, dc);
        }
    } else {
        al_sgemm(1, 0, V, H, (int)NT, 1.0f, LP, V, FT, H, 1.0f, gout_w, dout);
        al_sgemm(0, 0, (int)NT, H, V, 1.0f, LP, V, s->out_w, dout, 0.0f, DF1, H);
    }
    /* BPTT over the steps; dH, dC, dF rows j >= n_{t+1} are still zero when row j starts */
    for (int t = T - 1; t >= 0; t--) {
        const int n = nrow[t], r0 = rowoff[t], rp = t ? B + rowoff[t - 1] : 0;
        const float *hp = HS + (long)rp * H, *cp = lstm ? CS + (long)rp * H : NULL;
        const float *h = HS + (long)(B + r0) * H, *c = lstm ? CS + (long)(B + r0) * H : NULL;
        const size_t nH = (size_t)n * H;
        float *df1 = DF1 + (long)r0 * H;
        if (bahdanau) {
            /* feat = [s_t; c_t] */
            for (size_t k = 0; k < nH; k++) dH[k] += df1[k];
            if (dc) memcpy(dctx, DF2 + (long)r0 * dc, sizeof(float) * (size_t)n * dc);
        } else {
            /* feat = h̃_t, which step t+1 was also fed */
            for (size_t k = 0; k < nH; k++) dT[k] = df1[k] + dF[k];
            if (luong_c) {
                /* h̃ = tanh(z), z = W_c[:, :dc] c + W_c[:, dc:] h  →  dz = dh̃ ⊙ (1 − h̃²),
                 * dc = dz W_c[:, :dc],  dh += dz W_c[:, dc:]  (dW_c folds at the end) */
                float *dz = DZ + (long)r0 * H;
                al_tanh_backward(dz, FT + (long)r0 * H, dT, n * H);
                al_sgemm(0, 0, n, dc, H, 1.0f, dz, H, s->W_c, dc + H, 0.0f, dctx, dc);
                al_sgemm(0, 0, n, H, H, 1.0f, dz, H, s->W_c + dc, dc + H, 1.0f, dH, H);
                s2b_attend_backward(&w, n, r0, h, dctx, dH); /* c_t(h_t) */
            } else {
                for (size_t k = 0; k < nH; k++) dH[k] += dT[k]; /* h̃ = h */
            }
        }
        /* s_t = cell(x, s_{t−1}), row by row; then dh_{t−1} += dhh W_hh for the n rows */
        for (int j = 0; j < n; j++) {
            const long r = r0 + j, o = (long)j * H;
            al_recurrent_cell_backward(s->cell, H, GT + r * GH, gru ? ST + r * H : NULL,
                                       lstm ? c + o : NULL, lstm ? cp + o : NULL, h + o, hp + o,
                                       dH + o, dC + o, DPRE + r * GH, DHH + r * GH, dHp + o,
                                       dCp + o);
        }
        if (gru) {
            /* dh_{t−1} += dhh W_hh;  x[E:] (context or h̃_{t−1}): dx = dpre W_ih[:, E:] */
            al_sgemm(0, 0, n, H, GH, 1.0f, DHH + (long)r0 * GH, GH, s->dec_w_hh, H, 1.0f, dHp, H);
            if (dx)
                al_sgemm(0, 0, n, dx, GH, 1.0f, DPRE + (long)r0 * GH, GH, s->dec_w_ih + E, din,
                         0.0f, dXr, dx);
        } else {
            /* [dx; dh_{t−1}] = dpre [W_ih[:, E:] W_hh], one GEMM (cell_backward left dh_{t−1}
             * zero: the LSTM's and RNN's h_{t−1} enter only through W_hh) */
            al_sgemm(0, 0, n, dx + H, GH, 1.0f, DPRE + (long)r0 * GH, GH, Wx, dx + H, 0.0f, DX2,
                     dx + H);
            for (int j = 0; j < n; j++) {
                const float *d2 = DX2 + (long)j * (dx + H);
                if (dx) memcpy(dXr + (long)j * dx, d2, sizeof(float) * (size_t)dx);
                memcpy(dHp + (long)j * H, d2 + dx, sizeof(float) * (size_t)H);
            }
        }
        if (bahdanau && dc) {
            for (size_t k = 0; k < (size_t)n * dc; k++) dctx[k] += dXr[k];
            s2b_attend_backward(&w, n, r0, hp, dctx, dHp); /* c_t(s_{t−1}) */
        }
        if (!bahdanau && s->input_feeding) memcpy(dF, dXr, sizeof(float) * nH);
        memcpy(dH, dHp, sizeof(float) * nH);
        if (lstm) memcpy(dC, dCp, sizeof(float) * nH);
    }
    /* the decoder's weights over every row at once:
     *   gates = x W_ihᵀ + b_ih    →  dW_ih += dpreᵀ x,  db_ih += Σ dpre,  dy_emb = dpre W_ih[:, :E]
     *   W_hh h_{t−1} + b_hh      →  dW_hh += dhhᵀ h_{t−1},  db_hh += Σ dhh */
    al_sgemm(1, 0, GH, din, (int)NT, 1.0f, DPRE, GH, X, ldx, 1.0f, gp(w0, g0, s->dec_w_ih), din);
    al_sgemm(1, 0, GH, H, (int)NT, 1.0f, DHH, GH, HP, ldx, 1.0f, gp(w0, g0, s->dec_w_hh), H);
    if (s->dec_b_ih) s2b_colsum_add(gp(w0, g0, s->dec_b_ih), DPRE, GH, (int)NT, GH);
    if (s->dec_b_hh) s2b_colsum_add(gp(w0, g0, s->dec_b_hh), DHH, GH, (int)NT, GH);
    al_sgemm(0, 0, (int)NT, E, GH, 1.0f, DPRE, GH, s->dec_w_ih, din, 0.0f, DEMB, E);
    al_embedding_backward(gp(w0, g0, s->tgt_emb), yin, (int)NT, DEMB, E);
    if (luong_c) {
        /* z = W_c [c; h]  →  dW_c += dzᵀ [c; h] */
        float *gwc = gp(w0, g0, s->W_c);
        al_sgemm(1, 0, H, dc, (int)NT, 1.0f, DZ, H, CT, dc, 1.0f, gwc, dc + H);
        al_sgemm(1, 0, H, H, (int)NT, 1.0f, DZ, H, HSo, H, 1.0f, gwc + dc, dc + H);
    }
    /* the keys' projections, then the encoder from ∂/∂keys and ∂/∂(initial state) */
    s2b_keys_backward(&w, bahdanau ? HP : HSo, bahdanau ? ldx : H, (int)NT);
    s2b_encode_backward(&w, dH, dC);
done:
    al_free(blk);
    return st;
}

al_status al_seq2seq_batch_hook(const void *impl, const float *w0, float *g0, const int32_t *src,
                                const int32_t *src_len, int S_max, const int32_t *tgt,
                                const int32_t *tgt_len, int T_max, int B, float scale,
                                float smoothing, double *nll)
{
    return al_seq2seq_backward_batch((const al_seq2seq *)impl, w0, g0, src, src_len, S_max, tgt,
                                     tgt_len, T_max, B, scale, smoothing, nll);
}
