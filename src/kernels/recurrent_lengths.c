/*
 * recurrent_lengths.c: the recurrent stack (layers, directions; recurrent_stack.c) over a batch
 * of sequences of different lengths, stepped together: per time step one GEMM over the
 * sequences still running. Semantics and arguments: recurrent.h ("stack, sequences of own
 * lengths"); the maths of each step is recurrent.c's (PyTorch's nn.RNN, nn.LSTM, nn.GRU), and
 * the fused gate kernels are the same dispatched twins.
 *
 * How: the batch is ordered by length, longest first (a stable counting sort), so the sequences
 * running at step t are the first n_t rows of that order, and every activation is stored packed
 * by step: row off_t + i is sorted sequence i at step t (off_t = n_0 + ... + n_{t−1}). The state
 * a row continues from is then a row of the step before in processing order, at the same i:
 * the forward direction continues every running row from step t − 1; the reverse direction
 * continues rows i < n_{t+1} from step t + 1, and rows n_{t+1} .. n_t − 1 (the sequences whose
 * last step is t) start there from h0 or zeros.
 *
 * Like every kernel: no allocation, no validation (1 <= len[b] <= T is the caller's promise).
 * Backward convention (kernels.h): every gradient ACCUMULATES (+=).
 */
#include <stdint.h>
#include <string.h>

#include "recurrent.h"

/* The batch in length order: pointers into the scratch's int area. */
typedef struct {
    int B, T;
    long N;              /* Σ len[b]: the packed rows */
    const int32_t *perm; /* [B] the caller's batch row of sorted sequence i */
    const int32_t *len;  /* [B] the sorted lengths (non-increasing) */
    const int32_t *n;    /* [T+1] n[t] = #{b : len[b] > t}; n[T] = 0 */
    const int32_t *off;  /* [T+1] off[t] = n[0] + ... + n[t−1]: step t's first packed row */
} seqs;

/* x rounded up to a multiple of 16 floats (each buffer starts on a 64-byte line) */
static double r16(double x)
{
    if (x > 1e18) return x + 16; /* too large to allocate anyway: just keep the sum honest */
    long long v = (long long)x;
    return (double)((v + 15) / 16 * 16);
}

/* The scratch layout, offsets in floats from the 64-byte-aligned start. The tape (what the
 * backward reads) comes first, then the forward's work rows (fend), then the backward's (end). */
typedef struct {
    double ints, xp, y, gates, state, h0s, hh, fend, dpre, dhh, hprev, dh, dbuf, dxp, end;
    double ny, ng, ns, nb; /* strides: a layer's output, gates, state; one [B,H] row block */
} layout;

static layout layout_of(int cell, int B, int T, int I, int H, int layers, int D)
{
    const int rnn = cell == AL_RECURRENT_RNN_TANH || cell == AL_RECURRENT_RNN_RELU;
    const int gru = cell == AL_RECURRENT_GRU;
    const double BT = (double)B * T, GH = (double)al_recurrent_gates(cell) * H;
    const double LD = (double)layers * D;
    layout a;
    a.ny = r16(BT * D * H);
    a.ng = r16(BT * GH);
    a.ns = rnn ? 0 : r16(BT * H);
    a.nb = r16((double)B * H);
    a.ints = 0;
    a.xp = r16(2.0 * B + 2.0 * T + 2); /* perm, len [B]; n, off [T+1] as int32 */
    a.y = a.xp + r16(BT * I);
    a.gates = a.y + layers * a.ny;
    a.state = a.gates + LD * a.ng;
    a.h0s = a.state + LD * a.ns;
    a.hh = a.h0s + a.nb;
    a.fend = a.hh + (gru ? r16((double)B * GH) : 0);
    a.dpre = a.fend;
    a.dhh = a.dpre + a.ng;
    a.hprev = a.dhh + (gru ? a.ng : 0);
    a.dh = a.hprev + r16(BT * H);
    a.dbuf = a.dh + 3 * a.nb;
    a.dxp = a.dbuf + 2 * a.ny;
    a.end = a.dxp + r16(BT * I);
    return a;
}

double al_recurrent_stack_forward_lengths_floats(int cell, int B, int T, int I, int H, int layers,
                                                 int D)
{
    return layout_of(cell, B, T, I, H, layers, D).fend + 16; /* + 16: room to align the start */
}

double al_recurrent_stack_backward_lengths_floats(int cell, int B, int T, int I, int H, int layers,
                                                  int D)
{
    return layout_of(cell, B, T, I, H, layers, D).end + 16;
}

/* The start of the layout in scratch: its first 64-byte line. */
static float *aligned(float *scratch)
{
    return (float *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
}

/* Order the batch by length, longest first, ties in the caller's order (a counting sort over
 * the lengths), into the int area ints [2B + 2(T+1)]. */
static seqs order(int B, int T, const int32_t *len, int32_t *ints)
{
    int32_t *perm = ints, *slen = perm + B, *n = slen + B, *off = n + T + 1;
    seqs q;
    /* n[t] = #{len > t}: count each length at t = len − 1, then sum from the top down */
    for (int t = 0; t <= T; t++) n[t] = 0;
    for (int b = 0; b < B; b++) n[len[b] - 1]++;
    for (int t = T - 1; t >= 0; t--) n[t] += n[t + 1];
    /* the sequences of length L sit at n[L] .. n[L−1] − 1: off[L−1] is their cursor for now */
    for (int t = 0; t < T; t++) off[t] = n[t + 1];
    for (int b = 0; b < B; b++) perm[off[len[b] - 1]++] = b;
    for (int i = 0; i < B; i++) slen[i] = len[perm[i]];
    off[0] = 0;
    for (int t = 0; t < T; t++) off[t + 1] = off[t] + n[t];
    q.B = B;
    q.T = T;
    q.N = off[T];
    q.perm = perm;
    q.len = slen;
    q.n = n;
    q.off = off;
    return q;
}

/* Rows of step t that continue from the step before in processing order (tp); rows nc .. n[t]−1
 * start at t. */
static int n_cont(const seqs *q, int t, int reverse)
{
    if (reverse) return t + 1 < q->T ? q->n[t + 1] : 0;
    return t > 0 ? q->n[t] : 0;
}

/*
 * One layer, one direction, packed (al_recurrent_layer_forward with rows by step):
 *   x [N,I] packed; p: w_ih, w_hh, b_ih, b_hh; h0, c0 [B,H] caller order or NULL
 *   y: h of packed row r at y[r·ldy]; hn, cn [B,H] caller order or NULL
 *   gates [N,G·H], state [N,H] (LSTM c, GRU W_hn h + b_hn; NULL for the RNN) saved
 *   h0s [B,H] (h0 in sorted order), hh [B,G·H] (GRU): work rows
 */
static void layer_forward(const seqs *q, int cell, int I, int H, int reverse, const float *x,
                          const float *const *p, const float *h0, const float *c0, float *y,
                          int ldy, float *hn, float *cn, float *gates, float *state, float *h0s,
                          float *hh)
{
    const int GH = al_recurrent_gates(cell) * H, T = q->T;
    const int gru = cell == AL_RECURRENT_GRU, lstm = cell == AL_RECURRENT_LSTM;
    const float *w_hh = p[1], *b_hh = p[3];
    const size_t row_bytes = sizeof(float) * (size_t)H;

    /* the input projections of every packed row at once (+ b_hh too, except for the GRU) */
    al_sgemm(0, 1, (int)q->N, GH, I, 1.0f, x, I, p[0], I, 0.0f, gates, GH);
    if (p[2]) al_bias_add_forward(gates, GH, p[2], gru ? NULL : b_hh, (int)q->N, GH);
    /* h0 of the sorted rows, contiguous: the rows starting at a step are a range of them */
    if (h0)
        for (int i = 0; i < q->B; i++)
            memcpy(h0s + (long)i * H, h0 + (long)q->perm[i] * H, row_bytes);

    for (int s = 0; s < T; s++) {
        const int t = reverse ? T - 1 - s : s, tp = reverse ? t + 1 : t - 1;
        const int nt = q->n[t], nc = n_cont(q, t, reverse);
        /* h_{t−1} of continuing row i at yp + i·ldy (tp is a real step whenever nc > 0) */
        const float *yp = nc ? y + (long)q->off[tp] * ldy : NULL;
        const long r0 = q->off[t];
        float *acc = gru ? hh : gates + r0 * GH; /* where W_hh h_{t−1} goes, row i at i·GH */
        if (gru) memset(hh, 0, sizeof(float) * (size_t)nt * (size_t)GH);
        al_recurrent_add_matvec(nc, GH, H, w_hh, yp, ldy, acc, GH);
        if (h0)
            al_recurrent_add_matvec(nt - nc, GH, H, w_hh, h0s + (long)nc * H, H,
                                    acc + (long)nc * GH, GH);
        if (gru && b_hh) al_bias_add_forward(hh, GH, b_hh, NULL, nt, GH);

        for (int i = 0; i < nt; i++) {
            const long row = r0 + i;
            const float *hp = i < nc ? yp + (long)i * ldy : h0 ? h0s + (long)i * H : NULL;
            if (gru) {
                const float *hb = hh + (long)i * GH;
                al_recurrent_gru_cell_forward(gates + row * GH, y + row * ldy, hb, hp, H);
                memcpy(state + row * H, hb + 2 * H, row_bytes);
            } else if (lstm) {
                const float *cp = i < nc ? state + ((long)q->off[tp] + i) * H
                                  : c0   ? c0 + (long)q->perm[i] * H
                                         : NULL;
                al_recurrent_lstm_cell_forward(gates + row * GH, state + row * H, y + row * ldy, cp,
                                               H);
            } else {
                al_recurrent_rnn_cell_forward(y + row * ldy, gates + row * GH, H,
                                              cell == AL_RECURRENT_RNN_RELU);
            }
        }
    }

    /* the last step processed: t = len − 1 forward, t = 0 in reverse */
    for (int i = 0; i < q->B; i++) {
        const long row = (long)q->off[reverse ? 0 : q->len[i] - 1] + i, b = q->perm[i];
        if (hn) memcpy(hn + b * H, y + row * ldy, row_bytes);
        if (cn && lstm) memcpy(cn + b * H, state + row * H, row_bytes);
    }
}

/*
 * BPTT through one packed layer and direction (al_recurrent_layer_backward's maths), from what
 * layer_forward saved (same x, p, h0, c0, y/ldy, gates, state):
 *   dy: ∂L/∂h of packed row r at dy[r·lddy], or NULL; dhn, dcn [B,H] caller order or NULL
 *   dx [N,I] += or NULL; dp: dw_ih, dw_hh, db_ih, db_hh +=; dh0, dc0 [B,H] caller order += or NULL
 *   dpre, dhh [N,G·H] (dhh == dpre but for the GRU), hprev [N,H], dh [3][B,H] (stride nb): work
 */
static void layer_backward(const seqs *q, int cell, int I, int H, int reverse, const float *x,
                           const float *const *p, float *const *dp, const float *h0,
                           const float *c0, const float *y, int ldy, const float *gates,
                           const float *state, const float *dy, int lddy, const float *dhn,
                           const float *dcn, float *dx, float *dh0, float *dc0, float *dpre,
                           float *dhh, float *hprev, float *dh, long nb)
{
    const int GH = al_recurrent_gates(cell) * H, T = q->T;
    const long N = q->N;
    const int lstm = cell == AL_RECURRENT_LSTM, gru = cell == AL_RECURRENT_GRU;
    const size_t row_bytes = sizeof(float) * (size_t)H;
    const float *w_hh = p[1];
    float *dh_prev = dh + nb, *dc = dh + 2 * nb;

    /* h_{t−1} of every packed row: the state it continued from, or h0, or zeros */
    for (int t = 0; t < T; t++) {
        const int tp = reverse ? t + 1 : t - 1, nc = n_cont(q, t, reverse);
        for (int i = 0; i < q->n[t]; i++) {
            float *dst = hprev + ((long)q->off[t] + i) * H;
            if (i < nc)
                memcpy(dst, y + ((long)q->off[tp] + i) * ldy, row_bytes);
            else if (h0)
                memcpy(dst, h0 + (long)q->perm[i] * H, row_bytes);
            else
                memset(dst, 0, row_bytes);
        }
    }

    for (int s = T - 1; s >= 0; s--) {
        const int t = reverse ? T - 1 - s : s, tp = reverse ? t + 1 : t - 1;
        const int nt = q->n[t], nc = n_cont(q, t, reverse);
        /* rows whose last forward step is t enter the backward here with ∂L/∂hn, ∂L/∂cn:
         * forward, those with len − 1 == t; in reverse, every row at t = 0 */
        const int j0 = reverse ? (t == 0 ? 0 : nt) : q->n[t + 1];
        for (int i = j0; i < nt; i++) {
            const long b = q->perm[i];
            if (dhn)
                memcpy(dh + (long)i * H, dhn + b * H, row_bytes);
            else
                memset(dh + (long)i * H, 0, row_bytes);
            if (lstm && dcn)
                memcpy(dc + (long)i * H, dcn + b * H, row_bytes);
            else if (lstm)
                memset(dc + (long)i * H, 0, row_bytes);
        }
        for (int i = 0; i < nt; i++) {
            const long row = (long)q->off[t] + i;
            float *dhb = dh + (long)i * H, *dnext = dh_prev + (long)i * H;
            const float *hp = hprev + row * H;
            float *d = dpre + row * GH;
            if (dy)
                for (int j = 0; j < H; j++) dhb[j] += dy[row * lddy + j];
            const float *cp = !lstm    ? NULL
                              : i < nc ? state + ((long)q->off[tp] + i) * H
                              : c0     ? c0 + (long)q->perm[i] * H
                                       : NULL;
            al_recurrent_cell_backward(cell, H, gates + row * GH, state ? state + row * H : NULL,
                                       state ? state + row * H : NULL, cp, y + row * ldy, hp, dhb,
                                       lstm ? dc + (long)i * H : NULL, d,
                                       gru ? dhh + row * GH : NULL, dnext,
                                       lstm ? dc + (long)i * H : NULL);
        }
        /* dh_{t−1} += W_hhᵀ · ∂L/∂(W_hh h_{t−1}): for the continuing rows, and for the rows
         * starting here too when dh0 is wanted */
        al_recurrent_add_matvec_t(dh0 ? nt : nc, GH, H, w_hh, dhh + (long)q->off[t] * GH, GH,
                                  dh_prev, H);
        for (int i = nc; i < nt; i++) {
            const long b = q->perm[i];
            if (dh0)
                for (int j = 0; j < H; j++) dh0[b * H + j] += dh_prev[(long)i * H + j];
            if (dc0 && lstm)
                for (int j = 0; j < H; j++) dc0[b * H + j] += dc[(long)i * H + j];
        }
        float *tmp = dh;
        dh = dh_prev;
        dh_prev = tmp;
    }

    /* Parameter gradients over all packed rows at once:
     *   gates = x · w_ihᵀ + b_ih  →  dw_ih += dpreᵀ · x,  db_ih += Σ_rows dpre,  dx += dpre · w_ih
     *   W_hh h_{t−1} + b_hh      →  dw_hh += dhhᵀ · hprev, db_hh += Σ_rows dhh */
    al_sgemm(1, 0, GH, I, (int)N, 1.0f, dpre, GH, x, I, 1.0f, dp[0], I);
    al_sgemm(1, 0, GH, H, (int)N, 1.0f, dhh, GH, hprev, H, 1.0f, dp[1], H);
    if (dp[2] || dp[3]) {
        for (long row = 0; row < N; row++) {
            const float *a = dpre + row * GH, *b = dhh + row * GH;
            if (dp[2])
                for (int j = 0; j < GH; j++) dp[2][j] += a[j];
            if (dp[3])
                for (int j = 0; j < GH; j++) dp[3][j] += b[j];
        }
    }
    if (dx) al_sgemm(0, 0, (int)N, I, GH, 1.0f, dpre, GH, p[0], I, 1.0f, dx, I);
}

/* dst [N,C] packed = the caller's src [B,T,C] (row stride ld); rows t >= len not read. */
static void gather(const seqs *q, int C, const float *src, int ld, float *dst)
{
    for (int t = 0; t < q->T; t++)
        for (int i = 0; i < q->n[t]; i++)
            memcpy(dst + ((long)q->off[t] + i) * C, src + ((long)q->perm[i] * q->T + t) * ld,
                   sizeof(float) * (size_t)C);
}

/* The whole stack's forward into the tape at base (layout a); x already packed at base + a.xp. */
static void stack_forward(const seqs *q, const layout *a, int cell, int I, int H, int layers, int D,
                          const float *const *params, const float *h0, const float *c0, float *hn,
                          float *cn, float *base)
{
    const int DH = D * H, lstm = cell == AL_RECURRENT_LSTM;
    const int rnn = cell == AL_RECURRENT_RNN_TANH || cell == AL_RECURRENT_RNN_RELU;
    const long BH = (long)q->B * H;
    for (int l = 0; l < layers; l++) {
        const float *in = l == 0 ? base + (size_t)a->xp : base + (size_t)(a->y + (l - 1) * a->ny);
        float *out = base + (size_t)(a->y + l * a->ny);
        for (int d = 0; d < D; d++) {
            const int k = l * D + d;
            const long off = k * BH;
            layer_forward(q, cell, l == 0 ? I : DH, H, d, in, params + 4 * k, h0 ? h0 + off : NULL,
                          lstm && c0 ? c0 + off : NULL, out + (size_t)d * H, DH,
                          hn ? hn + off : NULL, lstm && cn ? cn + off : NULL,
                          base + (size_t)(a->gates + k * a->ng),
                          rnn ? NULL : base + (size_t)(a->state + k * a->ns), base + (size_t)a->h0s,
                          base + (size_t)a->hh);
        }
    }
}

void al_recurrent_stack_forward_lengths(int cell, int B, int T, int I, int H, int layers, int D,
                                        const float *x, const int32_t *len,
                                        const float *const *params, const float *h0,
                                        const float *c0, float *output, float *hn, float *cn,
                                        float *scratch)
{
    const layout a = layout_of(cell, B, T, I, H, layers, D);
    const int DH = D * H;
    float *base = aligned(scratch);
    const seqs q = order(B, T, len, (int32_t *)base);
    gather(&q, I, x, I, base + (size_t)a.xp);
    stack_forward(&q, &a, cell, I, H, layers, D, params, h0, c0, hn, cn, base);

    /* the top layer back in the caller's [B,T,D·H], zeros past each sequence's end */
    const float *top = base + (size_t)(a.y + (layers - 1) * a.ny);
    for (int i = 0; i < B; i++) {
        float *ob = output + (long)q.perm[i] * T * DH;
        for (int t = 0; t < T; t++) {
            if (t < q.len[i])
                memcpy(ob + (long)t * DH, top + ((long)q.off[t] + i) * DH,
                       sizeof(float) * (size_t)DH);
            else
                memset(ob + (long)t * DH, 0, sizeof(float) * (size_t)DH);
        }
    }
}

void al_recurrent_stack_backward_lengths(int cell, int B, int T, int I, int H, int layers, int D,
                                         const float *x, const int32_t *len,
                                         const float *const *params, const float *h0,
                                         const float *c0, const float *doutput, const float *dhn,
                                         const float *dcn, float *dx, float *const *dparams,
                                         float *dh0, float *dc0, int recompute, float *scratch)
{
    const layout a = layout_of(cell, B, T, I, H, layers, D);
    const int DH = D * H, lstm = cell == AL_RECURRENT_LSTM;
    const int rnn = cell == AL_RECURRENT_RNN_TANH || cell == AL_RECURRENT_RNN_RELU;
    const long BH = (long)B * H;
    float *base = aligned(scratch);
    /* the order is recomputed either way (the same lengths give the same ints) */
    const seqs q = order(B, T, len, (int32_t *)base);
    if (recompute) {
        gather(&q, I, x, I, base + (size_t)a.xp);
        stack_forward(&q, &a, cell, I, H, layers, D, params, h0, c0, NULL, NULL, base);
    }

    /* ∂L/∂(layer l's output), packed: doutput for the top layer, then the input gradient of
     * layer l + 1; the two buffers take turns */
    float *dA = base + (size_t)a.dbuf, *dB = dA + (size_t)a.ny, *dxp = base + (size_t)a.dxp;
    const float *dcur = NULL;
    if (doutput) {
        gather(&q, DH, doutput, DH, dA);
        dcur = dA;
    }
    for (int l = layers - 1; l >= 0; l--) {
        const float *in = l == 0 ? base + (size_t)a.xp : base + (size_t)(a.y + (l - 1) * a.ny);
        const float *yl = base + (size_t)(a.y + l * a.ny);
        float *din = l == 0 ? (dx ? dxp : NULL) : dB;
        if (din) memset(din, 0, sizeof(float) * (size_t)q.N * (size_t)(l == 0 ? I : DH));
        for (int d = 0; d < D; d++) {
            const int k = l * D + d;
            const long off = k * BH;
            layer_backward(&q, cell, l == 0 ? I : DH, H, d, in, params + 4 * k, dparams + 4 * k,
                           h0 ? h0 + off : NULL, lstm && c0 ? c0 + off : NULL, yl + (size_t)d * H,
                           DH, base + (size_t)(a.gates + k * a.ng),
                           rnn ? NULL : base + (size_t)(a.state + k * a.ns),
                           dcur ? dcur + (size_t)d * H : NULL, DH, dhn ? dhn + off : NULL,
                           lstm && dcn ? dcn + off : NULL, din, dh0 ? dh0 + off : NULL,
                           lstm && dc0 ? dc0 + off : NULL, base + (size_t)a.dpre,
                           base + (size_t)(cell == AL_RECURRENT_GRU ? a.dhh : a.dpre),
                           base + (size_t)a.hprev, base + (size_t)a.dh, (long)a.nb);
        }
        dcur = din;
        float *tmp = dA;
        dA = dB;
        dB = tmp;
    }

    /* dx += the packed input gradient, rows t >= len untouched */
    if (dx)
        for (int t = 0; t < T; t++)
            for (int i = 0; i < q.n[t]; i++) {
                float *o = dx + ((long)q.perm[i] * T + t) * I;
                const float *g = dxp + ((long)q.off[t] + i) * I;
                for (int j = 0; j < I; j++) o[j] += g[j];
            }
}
