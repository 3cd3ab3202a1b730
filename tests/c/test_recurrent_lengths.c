/*
 * test_recurrent_lengths.c: the recurrent stack over sequences of their own lengths
 * (al_recurrent_stack_forward_lengths / _backward_lengths, src/kernels/recurrent_lengths.c).
 *
 *   1. against the per-sequence path: for every cell (RNN tanh/relu, LSTM, GRU), one and two
 *      directions, one and two layers, with and without h0/c0, batches of unsorted lengths
 *      (ties, length 1, a single longest sequence so some steps run one row): output, hn, cn
 *      equal al_recurrent_stack_forward(B = 1, T = len[b]) per sequence, and dx, every dparam,
 *      dh0, dc0 equal the sum of the per-sequence al_recurrent_stack_backward calls, within
 *      1e-5 + 1e-5·|ref| (the per-sequence path is itself held to a double reference and to
 *      PyTorch in test_recurrent.c and tests/js/recurrent.test.js). Padded output rows are
 *      exactly zero, padded doutput rows are never read (NaN there) and padded dx rows keep
 *      their value; the backward from a kept forward (recompute = 0) equals the recomputing
 *      one bit for bit; gradients accumulate onto what the buffers held.
 *   2. central finite differences in float of the lengths kernel itself (LSTM and GRU, two
 *      layers, bidirectional, tiny shapes), every gradient.
 * Scratch is allocated to the exact documented size, off a 64-byte line, and filled with NaN.
 */
#include <string.h>

#include "check.h"
#include "kernels/recurrent.h"

static const char *cell_name[] = { "rnn_tanh", "rnn_relu", "lstm", "gru" };
static double worst_fwd, worst_bwd; /* the largest |lengths − per-sequence| seen */

struct stack {
    int cell, B, T, I, H, L, D, bias, G;
    long nparam[64][4]; /* floats of each param (0: absent bias) */
    float *p[256];      /* params [L·D·4] */
};

static float *alloc_f(long n) { return check_alloc(sizeof(float) * (size_t)(n ? n : 1)); }

/* n floats of scratch, starting 4 bytes past an aligned block (the kernels must align), NaN */
static float *scratch_of(double n, float **block)
{
    *block = alloc_f((long)n + 1);
    for (long i = 0; i <= (long)n; i++) (*block)[i] = NAN;
    return *block + 1;
}

static void stack_init(struct stack *s, int cell, int B, int T, int I, int H, int L, int D,
                       int bias)
{
    memset(s, 0, sizeof *s);
    s->cell = cell;
    s->B = B;
    s->T = T;
    s->I = I;
    s->H = H;
    s->L = L;
    s->D = D;
    s->bias = bias;
    s->G = cell == 2 ? 4 : cell == 3 ? 3 : 1;
    for (int k = 0; k < L * D; k++) {
        const int Il = k < D ? I : D * H;
        const long GH = (long)s->G * H;
        const long sz[4] = { GH * Il, GH * H, bias ? GH : 0, bias ? GH : 0 };
        /* input weights 1/√I_l, recurrent 0.5/√H (STYLE.md), biases ±0.5 */
        const float sc[4] = { 1.0f / sqrtf((float)Il), 0.5f / sqrtf((float)H), 0.5f, 0.5f };
        for (int j = 0; j < 4; j++) {
            s->nparam[k][j] = sz[j];
            s->p[4 * k + j] = sz[j] ? alloc_f(sz[j]) : NULL;
            for (long i = 0; i < sz[j]; i++) s->p[4 * k + j][i] = check_randf(-1, 1) * sc[j];
        }
    }
}

/* gradient tables shaped like the params, filled with v (a random start when v is NaN) */
static void grads_init(const struct stack *s, float **g, float v)
{
    for (int k = 0; k < 4 * s->L * s->D; k++) {
        long n = s->nparam[k / 4][k % 4];
        g[k] = n ? alloc_f(n) : NULL;
        for (long i = 0; i < n; i++) g[k][i] = isnan(v) ? check_randf(-1, 1) : v;
    }
}

static void grads_free(const struct stack *s, float **g)
{
    for (int k = 0; k < 4 * s->L * s->D; k++) free(g[k]);
}

static void stack_free(struct stack *s) { grads_free(s, s->p); }

/* compare, and keep the worst absolute difference of its kind */
static void cmp(const char *what, const float *got, const float *ref, long n, double *worst)
{
    for (long i = 0; i < n; i++) {
        double d = fabs((double)got[i] - ref[i]);
        if (d > *worst || isnan(d)) *worst = isnan(d) ? INFINITY : d;
    }
    check_close_f(what, got, ref, n, 1e-5, 1e-5);
}

static void describe(const struct stack *s, const int32_t *len, int with_h0, char *buf, size_t n)
{
    int k = snprintf(buf, n, "%s B=%d T=%d I=%d H=%d L=%d%s%s%s len={", cell_name[s->cell], s->B,
                     s->T, s->I, s->H, s->L, s->D == 2 ? " bidir" : "", s->bias ? "" : " nobias",
                     with_h0 ? " h0" : "");
    for (int b = 0; b < s->B && k > 0 && (size_t)k < n; b++)
        k += snprintf(buf + k, n - (size_t)k, b ? ",%d" : "%d", len[b]);
    if (k > 0 && (size_t)k < n) snprintf(buf + k, n - (size_t)k, "}");
}

/* ------------------------------------------------------------------ 1. vs the per-sequence path */

static void test_case(int cell, int B, int T, int I, int H, int L, int D, int bias, int with_h0,
                      const int32_t *len)
{
    struct stack s;
    stack_init(&s, cell, B, T, I, H, L, D, bias);
    const int lstm = cell == 2, DH = D * H, LD = L * D;
    const long nx = (long)B * T * I, nout = (long)B * T * DH, nh = (long)LD * B * H;
    char desc[256], what[384];
    describe(&s, len, with_h0, desc, sizeof desc);

    float *x = alloc_f(nx), *h0 = NULL, *c0 = NULL;
    check_fill(x, nx, -1, 1);
    if (with_h0) {
        h0 = alloc_f(nh);
        check_fill(h0, nh, -1, 1);
        if (lstm) {
            c0 = alloc_f(nh);
            check_fill(c0, nh, -1, 1);
        }
    }
    /* the lengths kernel, forward; output starts NaN so the padded zeros are written */
    float *out = alloc_f(nout), *hn = alloc_f(nh), *cn = alloc_f(nh);
    for (long i = 0; i < nout; i++) out[i] = NAN;
    float *blk;
    float *scr =
        scratch_of(al_recurrent_stack_forward_lengths_floats(cell, B, T, I, H, L, D), &blk);
    al_recurrent_stack_forward_lengths(cell, B, T, I, H, L, D, x, len, (const float *const *)s.p,
                                       h0, c0, out, hn, lstm ? cn : NULL, scr);
    free(blk);

    /* the per-sequence reference, forward and backward, and the upstream gradients */
    float *rout = alloc_f(nout), *rhn = alloc_f(nh), *rcn = alloc_f(nh);
    float *dout = alloc_f(nout), *dhn = alloc_f(nh), *dcn = alloc_f(nh);
    float *dx0 = alloc_f(nx), *rdx = alloc_f(nx), *rdh0 = alloc_f(nh), *rdc0 = alloc_f(nh);
    float *rg[256];
    check_fill(dout, nout, -1, 1);
    check_fill(dhn, nh, -1, 1);
    check_fill(dcn, nh, -1, 1);
    check_fill(dx0, nx, -1, 1); /* gradients accumulate onto what was there */
    memcpy(rdx, dx0, sizeof(float) * (size_t)nx);
    check_fill(rdh0, nh, -1, 1);
    check_fill(rdc0, nh, -1, 1);
    grads_init(&s, rg, NAN);
    float *dh0_start = alloc_f(nh), *dc0_start = alloc_f(nh), *g_start[256];
    memcpy(dh0_start, rdh0, sizeof(float) * (size_t)nh);
    memcpy(dc0_start, rdc0, sizeof(float) * (size_t)nh);
    grads_init(&s, g_start, 0.0f);
    for (int k = 0; k < 4 * LD; k++)
        if (rg[k]) memcpy(g_start[k], rg[k], sizeof(float) * (size_t)s.nparam[k / 4][k % 4]);
    for (long i = 0; i < nout; i++) rout[i] = 0.0f;
    {
        float *bh0 = alloc_f((long)LD * H), *bc0 = alloc_f((long)LD * H);
        float *bhn = alloc_f((long)LD * H), *bcn = alloc_f((long)LD * H);
        float *bdhn = alloc_f((long)LD * H), *bdcn = alloc_f((long)LD * H);
        float *bdh0 = alloc_f((long)LD * H), *bdc0 = alloc_f((long)LD * H);
        for (int b = 0; b < B; b++) {
            const int n = len[b];
            for (int k = 0; k < LD; k++) { /* [L·D, B, H] → [L·D, 1, H] for sequence b */
                const long src = ((long)k * B + b) * H, dst = (long)k * H;
                for (int j = 0; j < H; j++) {
                    bh0[dst + j] = h0 ? h0[src + j] : 0.0f;
                    bc0[dst + j] = c0 ? c0[src + j] : 0.0f;
                    bdhn[dst + j] = dhn[src + j];
                    bdcn[dst + j] = dcn[src + j];
                    bdh0[dst + j] = bdc0[dst + j] = 0.0f;
                }
            }
            const float *xb = x + (long)b * T * I;
            float *sf = alloc_f((long)al_recurrent_stack_forward_floats(cell, 1, n, H, L, D));
            al_recurrent_stack_forward(cell, 1, n, I, H, L, D, xb, (const float *const *)s.p,
                                       h0 ? bh0 : NULL, c0 ? bc0 : NULL, rout + (long)b * T * DH,
                                       bhn, lstm ? bcn : NULL, sf);
            free(sf);
            float *sb = alloc_f((long)al_recurrent_stack_backward_floats(cell, 1, n, H, L, D));
            al_recurrent_stack_backward(cell, 1, n, I, H, L, D, xb, (const float *const *)s.p,
                                        h0 ? bh0 : NULL, c0 ? bc0 : NULL, dout + (long)b * T * DH,
                                        bdhn, lstm ? bdcn : NULL, rdx + (long)b * T * I, rg, bdh0,
                                        lstm ? bdc0 : NULL, sb);
            free(sb);
            for (int k = 0; k < LD; k++) {
                const long dst = ((long)k * B + b) * H, src = (long)k * H;
                for (int j = 0; j < H; j++) {
                    rhn[dst + j] = bhn[src + j];
                    rcn[dst + j] = bcn[src + j];
                    rdh0[dst + j] += bdh0[src + j];
                    rdc0[dst + j] += bdc0[src + j];
                }
            }
        }
        free(bh0);
        free(bc0);
        free(bhn);
        free(bcn);
        free(bdhn);
        free(bdcn);
        free(bdh0);
        free(bdc0);
    }

    snprintf(what, sizeof what, "%s: output vs per-sequence", desc);
    cmp(what, out, rout, nout, &worst_fwd);
    snprintf(what, sizeof what, "%s: hn vs per-sequence", desc);
    cmp(what, hn, rhn, nh, &worst_fwd);
    if (lstm) {
        snprintf(what, sizeof what, "%s: cn vs per-sequence", desc);
        cmp(what, cn, rcn, nh, &worst_fwd);
    }
    int zero = 1;
    for (int b = 0; b < B; b++)
        for (long i = (long)len[b] * DH; i < (long)T * DH; i++)
            zero = zero && out[(long)b * T * DH + i] == 0.0f && !signbit(out[(long)b * T * DH + i]);
    snprintf(what, sizeof what, "%s: padded output rows are exactly +0", desc);
    check_true(what, zero);

    /* backward: padded doutput rows NaN (never read); twice, recomputing and from the tape */
    for (int b = 0; b < B; b++)
        for (long i = (long)len[b] * DH; i < (long)T * DH; i++) dout[(long)b * T * DH + i] = NAN;
    const double nb = al_recurrent_stack_backward_lengths_floats(cell, B, T, I, H, L, D);
    float *dx[2], *dh0[2], *dc0[2], *g[2][256];
    for (int m = 0; m < 2; m++) {
        dx[m] = alloc_f(nx);
        dh0[m] = alloc_f(nh);
        dc0[m] = alloc_f(nh);
        memcpy(dx[m], dx0, sizeof(float) * (size_t)nx);
        memcpy(dh0[m], dh0_start, sizeof(float) * (size_t)nh);
        memcpy(dc0[m], dc0_start, sizeof(float) * (size_t)nh);
        grads_init(&s, g[m], 0.0f);
        for (int k = 0; k < 4 * LD; k++)
            if (g[m][k])
                memcpy(g[m][k], g_start[k], sizeof(float) * (size_t)s.nparam[k / 4][k % 4]);
        scr = scratch_of(nb, &blk);
        if (m == 1) /* the forward into the backward's scratch, kept */
            al_recurrent_stack_forward_lengths(cell, B, T, I, H, L, D, x, len,
                                               (const float *const *)s.p, h0, c0, out, hn,
                                               lstm ? cn : NULL, scr);
        al_recurrent_stack_backward_lengths(
            cell, B, T, I, H, L, D, x, len, (const float *const *)s.p, h0, c0, dout, dhn,
            lstm ? dcn : NULL, dx[m], g[m], h0 ? dh0[m] : NULL, c0 ? dc0[m] : NULL, m == 0, scr);
        free(blk);
    }

    snprintf(what, sizeof what, "%s: dx vs per-sequence", desc);
    cmp(what, dx[0], rdx, nx, &worst_bwd);
    int untouched = 1;
    for (int b = 0; b < B; b++)
        for (long i = (long)len[b] * I; i < (long)T * I; i++)
            untouched = untouched && dx[0][(long)b * T * I + i] == dx0[(long)b * T * I + i];
    snprintf(what, sizeof what, "%s: padded dx rows untouched", desc);
    check_true(what, untouched);
    if (h0) {
        snprintf(what, sizeof what, "%s: dh0 vs per-sequence", desc);
        cmp(what, dh0[0], rdh0, nh, &worst_bwd);
    }
    if (c0) {
        snprintf(what, sizeof what, "%s: dc0 vs per-sequence", desc);
        cmp(what, dc0[0], rdc0, nh, &worst_bwd);
    }
    static const char *pn[4] = { "weight_ih", "weight_hh", "bias_ih", "bias_hh" };
    int same = memcmp(dx[0], dx[1], sizeof(float) * (size_t)nx) == 0 &&
               memcmp(dh0[0], dh0[1], sizeof(float) * (size_t)nh) == 0 &&
               memcmp(dc0[0], dc0[1], sizeof(float) * (size_t)nh) == 0;
    for (int k = 0; k < 4 * LD; k++) {
        const long n = s.nparam[k / 4][k % 4];
        if (!n) continue;
        snprintf(what, sizeof what, "%s: d%s_l%d%s vs per-sequence", desc, pn[k % 4], k / 4 / D,
                 (k / 4) % D ? "_reverse" : "");
        cmp(what, g[0][k], rg[k], n, &worst_bwd);
        same = same && memcmp(g[0][k], g[1][k], sizeof(float) * (size_t)n) == 0;
    }
    snprintf(what, sizeof what, "%s: backward from the kept forward is bit-identical", desc);
    check_true(what, same);

    for (int m = 0; m < 2; m++) {
        free(dx[m]);
        free(dh0[m]);
        free(dc0[m]);
        grads_free(&s, g[m]);
    }
    grads_free(&s, rg);
    grads_free(&s, g_start);
    free(dh0_start);
    free(dc0_start);
    free(x);
    free(h0);
    free(c0);
    free(out);
    free(hn);
    free(cn);
    free(rout);
    free(rhn);
    free(rcn);
    free(dout);
    free(dhn);
    free(dcn);
    free(dx0);
    free(rdx);
    free(rdh0);
    free(rdc0);
    stack_free(&s);
}

static void test_vs_per_sequence(void)
{
    check_seed(31);
    static const int32_t len5[5] = { 7, 1, 4, 7, 3 };    /* ties, a 1, unsorted */
    static const int32_t len6[6] = { 3, 9, 1, 6, 6, 2 }; /* steps 6..8 run one row */
    static const int32_t len9[9] = { 5, 12, 12, 1, 8, 3, 12, 7, 2 };
    static const int32_t len3[3] = { 1, 1, 1 };
    static const int32_t len1[1] = { 3 };
    for (int cell = 0; cell < 4; cell++) {
        for (int D = 1; D <= 2; D++) {
            for (int L = 1; L <= 2; L++) {
                test_case(cell, 5, 7, 5, 6, L, D, 1, 0, len5);
                test_case(cell, 5, 7, 5, 6, L, D, 1, 1, len5);
            }
        }
        test_case(cell, 6, 9, 4, 5, 2, 2, 1, 1, len6);
        test_case(cell, 6, 9, 3, 7, 1, 2, 0, 0, len6);
        /* wider than the vector width, long enough for the packed GEMV in the reference */
        test_case(cell, 9, 12, 9, 33, 2, 2, 1, 1, len9);
        test_case(cell, 3, 1, 2, 3, 2, 2, 1, 1, len3);
        test_case(cell, 1, 5, 1, 1, 2, 2, 1, 1, len1); /* one sequence, shorter than T; I = H = 1 */
    }
}

/* ------------------------------------------------------------------ 2. finite differences */

/* L = Σ wo·output + Σ wh·hn (+ Σ wc·cn), summed in double, through the lengths kernel */
static double fd_loss(const struct stack *s, const int32_t *len, const float *x, const float *h0,
                      const float *c0, const float *wo, const float *wh, const float *wc,
                      float *out, float *hn, float *cn, float *scr)
{
    const long nout = (long)s->B * s->T * s->D * s->H, nh = (long)s->L * s->D * s->B * s->H;
    al_recurrent_stack_forward_lengths(s->cell, s->B, s->T, s->I, s->H, s->L, s->D, x, len,
                                       (const float *const *)s->p, h0, c0, out, hn, cn, scr);
    double loss = 0;
    for (long i = 0; i < nout; i++) loss += (double)wo[i] * out[i];
    for (long i = 0; i < nh; i++) loss += (double)wh[i] * hn[i];
    if (c0)
        for (long i = 0; i < nh; i++) loss += (double)wc[i] * cn[i];
    return loss;
}

/* central difference of fd_loss in v[i] (float, eps 1e-2: truncation ~1e-5, rounding ~1e-5) */
static void fd_grad(const struct stack *s, const int32_t *len, float *v, long n, double *num,
                    const float *x, const float *h0, const float *c0, const float *wo,
                    const float *wh, const float *wc, float *out, float *hn, float *cn, float *scr)
{
    for (long i = 0; i < n; i++) {
        const float keep = v[i], eps = 1e-2f;
        v[i] = keep + eps;
        const double hi = (double)v[i] - keep;
        double lp = fd_loss(s, len, x, h0, c0, wo, wh, wc, out, hn, cn, scr);
        v[i] = keep - eps;
        const double lo = (double)keep - v[i];
        double lm = fd_loss(s, len, x, h0, c0, wo, wh, wc, out, hn, cn, scr);
        v[i] = keep;
        num[i] = (lp - lm) / (hi + lo);
    }
}

static void test_finite_differences(void)
{
    check_seed(7);
    static const int32_t len[3] = { 2, 4, 1 };
    for (int cell = 2; cell <= 3; cell++) {
        struct stack s;
        stack_init(&s, cell, 3, 4, 2, 3, 2, 2, 1);
        const int lstm = cell == 2, LD = s.L * s.D;
        const long nx = (long)s.B * s.T * s.I, nout = (long)s.B * s.T * s.D * s.H;
        const long nh = (long)LD * s.B * s.H;
        float *x = alloc_f(nx), *h0 = alloc_f(nh), *c0 = alloc_f(nh);
        float *wo = alloc_f(nout), *wh = alloc_f(nh), *wc = alloc_f(nh);
        float *out = alloc_f(nout), *hn = alloc_f(nh), *cn = alloc_f(nh);
        float *dx = alloc_f(nx), *dh0 = alloc_f(nh), *dc0 = alloc_f(nh), *g[256];
        double *num = check_alloc(sizeof(double) * 4096);
        check_fill(x, nx, -1, 1);
        check_fill(h0, nh, -1, 1);
        check_fill(c0, nh, -1, 1);
        check_fill(wo, nout, -1, 1);
        check_fill(wh, nh, -1, 1);
        check_fill(wc, nh, -1, 1);
        grads_init(&s, g, 0.0f);
        float *blk;
        float *scr = scratch_of(
            al_recurrent_stack_backward_lengths_floats(cell, s.B, s.T, s.I, s.H, s.L, s.D), &blk);
        al_recurrent_stack_backward_lengths(
            cell, s.B, s.T, s.I, s.H, s.L, s.D, x, len, (const float *const *)s.p, h0,
            lstm ? c0 : NULL, wo, wh, lstm ? wc : NULL, dx, g, dh0, lstm ? dc0 : NULL, 1, scr);
        const float *c0u = lstm ? c0 : NULL;
        char what[160];
        /* padded rows of x do not matter: their numerical gradient is 0, as dx's stays */
        fd_grad(&s, len, x, nx, num, x, h0, c0u, wo, wh, wc, out, hn, cn, scr);
        snprintf(what, sizeof what, "%s lengths: dx vs finite differences", cell_name[cell]);
        check_close_d(what, dx, num, nx, 5e-4, 1e-2);
        fd_grad(&s, len, h0, nh, num, x, h0, c0u, wo, wh, wc, out, hn, cn, scr);
        snprintf(what, sizeof what, "%s lengths: dh0 vs finite differences", cell_name[cell]);
        check_close_d(what, dh0, num, nh, 5e-4, 1e-2);
        if (lstm) {
            fd_grad(&s, len, c0, nh, num, x, h0, c0u, wo, wh, wc, out, hn, cn, scr);
            snprintf(what, sizeof what, "%s lengths: dc0 vs finite differences", cell_name[cell]);
            check_close_d(what, dc0, num, nh, 5e-4, 1e-2);
        }
        for (int k = 0; k < 4 * LD; k++) {
            const long n = s.nparam[k / 4][k % 4];
            fd_grad(&s, len, s.p[k], n, num, x, h0, c0u, wo, wh, wc, out, hn, cn, scr);
            snprintf(what, sizeof what, "%s lengths: dparam %d vs finite differences",
                     cell_name[cell], k);
            check_close_d(what, g[k], num, n, 5e-4, 1e-2);
        }
        free(blk);
        free(num);
        grads_free(&s, g);
        free(x);
        free(h0);
        free(c0);
        free(wo);
        free(wh);
        free(wc);
        free(out);
        free(hn);
        free(cn);
        free(dx);
        free(dh0);
        free(dc0);
        stack_free(&s);
    }
}

int main(void)
{
    test_vs_per_sequence();
    test_finite_differences();
    printf("worst |lengths − per-sequence|: forward %.3g, backward %.3g\n", worst_fwd, worst_bwd);
    return check_report("test_recurrent_lengths");
}
