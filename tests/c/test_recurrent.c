/*
 * test_recurrent.c: the recurrent family (RNN tanh/relu, LSTM, GRU).
 *
 *   1. the nonlinearities of the gate kernels (rational tanh, exp-based sigmoid) against libm in
 *      double over [−20, 20] and near 0;
 *   2. the fused gate kernels, scalar twin and SIMD128 twin, against a double reference of one
 *      cell step and against each other, at H = 1..19 and a few large H;
 *   3. al_recurrent_forward against a double-precision reference of the whole multi-layer,
 *      bidirectional, batched network (PyTorch's equations written out again, independently);
 *   4. al_recurrent_backward against central finite differences of that double reference, for
 *      every gradient (x, h0, c0, every weight and bias) on tiny shapes (T = 3, I = 2, H = 3),
 *      one layer, bidirectional, two layers, both; recurrent weights scaled to 0.5/√H;
 *   5. the statuses of the C API, and that every path frees its scratch.
 * The PyTorch comparison itself is in tests/js/recurrent.test.js (fixtures made by
 * scripts/fixture_modules/recurrent.py).
 */
#include <string.h>

#include "attnlab.h"
#include "check.h"
#include "kernels/recurrent.h"

static const char *cell_name[] = { "rnn_tanh", "rnn_relu", "lstm", "gru" };

static double sigm(double x) { return 1.0 / (1.0 + exp(-x)); }

/* ------------------------------------------------------------------ 1. nonlinearities */

static void test_nonlinearities(void)
{
    enum { N = 4001 + 200 };
    float *got_t = check_alloc(sizeof(float) * N), *got_s = check_alloc(sizeof(float) * N);
    double *ref_t = check_alloc(sizeof(double) * N), *ref_s = check_alloc(sizeof(double) * N);
    for (int i = 0; i < N; i++) {
        /* [−20, 20] in steps of 0.01, then ±1e-6 .. ±1e-2 (tanh x ≈ x: relative accuracy) */
        float v = i < 4001 ? -20.0f + 0.01f * (float)i
                           : (i % 2 ? -1.0f : 1.0f) *
                                 powf(10.0f, -6.0f + 4.0f * (float)(i - 4001) / 200.0f);
        got_t[i] = al_recurrent_tanhf(v);
        got_s[i] = al_recurrent_sigmoidf(v);
        ref_t[i] = tanh((double)v);
        ref_s[i] = sigm((double)v);
    }
    check_close_d("al_recurrent_tanhf vs tanh", got_t, ref_t, N, 1e-6, 1e-5);
    check_close_d("al_recurrent_sigmoidf vs 1/(1+e^-x)", got_s, ref_s, N, 1e-6, 1e-5);
    free(got_t);
    free(got_s);
    free(ref_t);
    free(ref_s);
}

/* ------------------------------------------------------------------ 2. gate kernels, twins */

typedef void (*rnn_cell_fn)(float *, const float *, int, int);
typedef void (*lstm_cell_fn)(float *, float *, float *, const float *, int);
typedef void (*gru_cell_fn)(float *, float *, const float *, const float *, int);

struct twin {
    const char *name;
    rnn_cell_fn rnn;
    lstm_cell_fn lstm;
    gru_cell_fn gru;
};

static const struct twin twins[] = {
    { "scalar", al_recurrent_rnn_cell_forward_scalar, al_recurrent_lstm_cell_forward_scalar,
      al_recurrent_gru_cell_forward_scalar },
#if AL_SIMD128
    { "simd128", al_recurrent_rnn_cell_forward_simd128, al_recurrent_lstm_cell_forward_simd128,
      al_recurrent_gru_cell_forward_simd128 },
#endif
};
#define NTWINS ((int)(sizeof(twins) / sizeof(twins[0])))

/* Pre-activations in [−4, 4] with every 7th entry saturated to ±12..20. */
static void fill_pre(float *p, int n)
{
    check_fill(p, n, -4, 4);
    for (int i = 0; i < n; i += 7) p[i] = (i % 2 ? -1.0f : 1.0f) * check_randf(12, 20);
}

static void test_cells_at(int H, int with_prev)
{
    char what[128];
    float *pre = check_alloc(sizeof(float) * 4 * H), *prev = check_alloc(sizeof(float) * H);
    float *hh = check_alloc(sizeof(float) * 3 * H);
    float *g[2], *c[2], *h[2];
    double *rg = check_alloc(sizeof(double) * 4 * H), *rc = check_alloc(sizeof(double) * H);
    double *rh = check_alloc(sizeof(double) * H);
    for (int v = 0; v < 2; v++) {
        g[v] = check_alloc(sizeof(float) * 4 * H);
        c[v] = check_alloc(sizeof(float) * H);
        h[v] = check_alloc(sizeof(float) * H);
    }
    fill_pre(pre, 4 * H);
    fill_pre(hh, 3 * H);
    check_fill(prev, H, -2, 2);
    const float *pv = with_prev ? prev : NULL;

    /* RNN, tanh and relu */
    for (int relu = 0; relu < 2; relu++) {
        for (int j = 0; j < H; j++) rh[j] = relu ? (pre[j] > 0 ? pre[j] : 0) : tanh(pre[j]);
        for (int v = 0; v < NTWINS; v++) {
            twins[v].rnn(h[v], pre, H, relu);
            snprintf(what, sizeof what, "rnn %s cell %s H=%d vs double", relu ? "relu" : "tanh",
                     twins[v].name, H);
            check_close_d(what, h[v], rh, H, 1e-6, 1e-5);
        }
        if (NTWINS > 1) {
            snprintf(what, sizeof what, "rnn %s cell simd128 vs scalar H=%d",
                     relu ? "relu" : "tanh", H);
            check_close_f(what, h[1], h[0], H, 1e-6, 1e-5);
        }
    }

    /* LSTM: i f g o = σ σ tanh σ; c = f c_prev + i g; h = o tanh(c) */
    for (int j = 0; j < H; j++) {
        double i = sigm(pre[j]), f = sigm(pre[H + j]), gg = tanh(pre[2 * H + j]),
               o = sigm(pre[3 * H + j]);
        double cp = pv ? pv[j] : 0;
        rg[j] = i;
        rg[H + j] = f;
        rg[2 * H + j] = gg;
        rg[3 * H + j] = o;
        rc[j] = f * cp + i * gg;
        rh[j] = o * tanh(rc[j]);
    }
    for (int v = 0; v < NTWINS; v++) {
        memcpy(g[v], pre, sizeof(float) * 4 * H);
        twins[v].lstm(g[v], c[v], h[v], pv, H);
        snprintf(what, sizeof what, "lstm cell %s H=%d prev=%d gates vs double", twins[v].name, H,
                 with_prev);
        check_close_d(what, g[v], rg, 4 * H, 1e-6, 1e-5);
        snprintf(what, sizeof what, "lstm cell %s H=%d prev=%d c vs double", twins[v].name, H,
                 with_prev);
        check_close_d(what, c[v], rc, H, 1e-6, 1e-5);
        snprintf(what, sizeof what, "lstm cell %s H=%d prev=%d h vs double", twins[v].name, H,
                 with_prev);
        check_close_d(what, h[v], rh, H, 1e-6, 1e-5);
    }
    if (NTWINS > 1) {
        snprintf(what, sizeof what, "lstm cell simd128 vs scalar H=%d prev=%d", H, with_prev);
        check_close_f(what, g[1], g[0], 4 * H, 1e-6, 1e-5);
        check_close_f(what, c[1], c[0], H, 1e-6, 1e-5);
        check_close_f(what, h[1], h[0], H, 1e-6, 1e-5);
    }

    /* GRU: r = σ(a_r + h_r), z = σ(a_z + h_z), n = tanh(a_n + r h_n), h = (1−z) n + z h_prev */
    for (int j = 0; j < H; j++) {
        double r = sigm((double)pre[j] + hh[j]), z = sigm((double)pre[H + j] + hh[H + j]);
        double n = tanh(pre[2 * H + j] + r * hh[2 * H + j]);
        rg[j] = r;
        rg[H + j] = z;
        rg[2 * H + j] = n;
        rh[j] = (1 - z) * n + z * (pv ? pv[j] : 0);
    }
    for (int v = 0; v < NTWINS; v++) {
        memcpy(g[v], pre, sizeof(float) * 3 * H);
        twins[v].gru(g[v], h[v], hh, pv, H);
        snprintf(what, sizeof what, "gru cell %s H=%d prev=%d gates vs double", twins[v].name, H,
                 with_prev);
        check_close_d(what, g[v], rg, 3 * H, 1e-6, 1e-5);
        snprintf(what, sizeof what, "gru cell %s H=%d prev=%d h vs double", twins[v].name, H,
                 with_prev);
        check_close_d(what, h[v], rh, H, 1e-6, 1e-5);
    }
    if (NTWINS > 1) {
        snprintf(what, sizeof what, "gru cell simd128 vs scalar H=%d prev=%d", H, with_prev);
        check_close_f(what, g[1], g[0], 3 * H, 1e-6, 1e-5);
        check_close_f(what, h[1], h[0], H, 1e-6, 1e-5);
    }

    for (int v = 0; v < 2; v++) {
        free(g[v]);
        free(c[v]);
        free(h[v]);
    }
    free(pre);
    free(prev);
    free(hh);
    free(rg);
    free(rc);
    free(rh);
}

static void test_cells(void)
{
    check_seed(1);
    for (int H = 1; H <= 19; H++) {
        test_cells_at(H, 1);
        test_cells_at(H, 0);
    }
    const int large[] = { 64, 257, 1000 };
    for (int i = 0; i < 3; i++) test_cells_at(large[i], 1);
}

/* ------------------------------------------------------------------ 2b. packed W_hh GEMV, twins */

/* y = init + W x through al_recurrent_pack + al_recurrent_packed_gemv, every twin against a
 * double reference, and the twins against each other bit for bit (both sum init, then k = 0,
 * 1, ... in order; no FMA in either). Widths 32, 8, 4, 1 and K % 4 tails; init NULL, separate,
 * and y itself (the LSTM's in-place form); W with a row stride wider than K. */
static void test_packed_gemv(void)
{
    check_seed(5);
    const int Ns[] = { 1, 3, 4, 5, 8, 13, 31, 32, 33, 45, 64, 99, 132, 384 };
    const int Ks[] = { 1, 3, 4, 7, 33, 128 };
    for (int a = 0; a < (int)(sizeof Ns / sizeof Ns[0]); a++) {
        for (int b = 0; b < (int)(sizeof Ks / sizeof Ks[0]); b++) {
            const int N = Ns[a], K = Ks[b], lda = K + 3;
            float *W = check_alloc(sizeof(float) * (size_t)N * lda),
                  *x = check_alloc(sizeof(float) * K);
            float *init = check_alloc(sizeof(float) * N),
                  *P = check_alloc(sizeof(float) * al_recurrent_packed_floats(N, K));
            float *y[2] = { check_alloc(sizeof(float) * N), check_alloc(sizeof(float) * N) };
            double *ref = check_alloc(sizeof(double) * N);
            check_fill(W, (long)N * lda, -1, 1);
            check_fill(x, K, -1, 1);
            check_fill(init, N, -1, 1);
            for (int mode = 0; mode < 3; mode++) { /* 0: no init, 1: init, 2: init is y */
                for (int n = 0; n < N; n++) {
                    double acc = mode ? init[n] : 0.0;
                    for (int k = 0; k < K; k++) acc += (double)W[(long)n * lda + k] * x[k];
                    ref[n] = acc;
                }
                for (int v = 0; v < NTWINS; v++) {
                    char what[128];
                    memset(P, 0xff,
                           sizeof(float) * al_recurrent_packed_floats(
                                               N, K)); /* NaN: every slot must be written */
                    if (v == 0) al_recurrent_pack_scalar(P, W, lda, N, K);
#if AL_SIMD128
                    else
                        al_recurrent_pack_simd128(P, W, lda, N, K);
#endif
                    if (mode == 2) memcpy(y[v], init, sizeof(float) * N);
                    const float *in = mode == 0 ? NULL : mode == 1 ? init : y[v];
                    if (v == 0) al_recurrent_packed_gemv_scalar(y[v], P, x, in, N, K);
#if AL_SIMD128
                    else
                        al_recurrent_packed_gemv_simd128(y[v], P, x, in, N, K);
#endif
                    snprintf(what, sizeof what, "packed gemv %s N=%d K=%d init=%d vs double",
                             twins[v].name, N, K, mode);
                    check_close_d(what, y[v], ref, N, 1e-5, 1e-5);
                }
                if (NTWINS == 2) {
                    char what[128];
                    snprintf(what, sizeof what, "packed gemv simd128 = scalar, N=%d K=%d init=%d",
                             N, K, mode);
                    check_true(what, memcmp(y[0], y[1], sizeof(float) * N) == 0);
                }
            }
            free(W);
            free(x);
            free(init);
            free(P);
            free(y[0]);
            free(y[1]);
            free(ref);
        }
    }
}

/* ------------------------------------------------------------------ 3./4. whole network */

struct net {
    int cell, B, T, I, H, L, D, bias;
    /* theta: every input in one float array (the API reads pointers into it): x [B,T,I],
     * h0 [L·D,B,H], c0 [L·D,B,H] (LSTM), then per (l,d) w_ih, w_hh, b_ih, b_hh */
    long n, off_x, off_h0, off_c0, off_p[64][4], size_p[64][4];
};

static int gates_of(int cell) { return cell == 2 ? 4 : cell == 3 ? 3 : 1; }

static struct net mk(int cell, int B, int T, int I, int H, int L, int D, int bias)
{
    struct net m;
    memset(&m, 0, sizeof m);
    m.cell = cell;
    m.B = B;
    m.T = T;
    m.I = I;
    m.H = H;
    m.L = L;
    m.D = D;
    m.bias = bias;
    return m;
}

static void net_layout(struct net *m)
{
    int G = gates_of(m->cell);
    long o = 0;
    m->off_x = o;
    o += (long)m->B * m->T * m->I;
    m->off_h0 = o;
    o += (long)m->L * m->D * m->B * m->H;
    m->off_c0 = o;
    if (m->cell == 2) o += (long)m->L * m->D * m->B * m->H;
    for (int k = 0; k < m->L * m->D; k++) {
        int Il = k < m->D ? m->I : m->D * m->H;
        long sz[4] = { (long)G * m->H * Il, (long)G * m->H * m->H, m->bias ? G * m->H : 0,
                       m->bias ? G * m->H : 0 };
        for (int j = 0; j < 4; j++) {
            m->off_p[k][j] = o;
            m->size_p[k][j] = sz[j];
            o += sz[j];
        }
    }
    m->n = o;
}

static void net_fill(const struct net *m, float *theta)
{
    check_fill(theta, m->n, -1, 1);
    /* recurrent weights ~0.5/√H (STYLE.md), input weights 1/√I_l, biases ±0.5 */
    for (int k = 0; k < m->L * m->D; k++) {
        int Il = k < m->D ? m->I : m->D * m->H;
        float si = 1.0f / sqrtf((float)Il), sh = 0.5f / sqrtf((float)m->H);
        for (long i = 0; i < m->size_p[k][0]; i++) theta[m->off_p[k][0] + i] *= si;
        for (long i = 0; i < m->size_p[k][1]; i++) theta[m->off_p[k][1] + i] *= sh;
        for (int j = 2; j < 4; j++)
            for (long i = 0; i < m->size_p[k][j]; i++) theta[m->off_p[k][j] + i] *= 0.5f;
    }
}

/* The double reference of the whole network, from theta (double). out [B,T,D·H], hn, cn
 * [L·D,B,H]. Written per element from PyTorch's equations, no shared code with the kernels. */
static void net_ref(const struct net *m, const double *th, double *out, double *hn, double *cn)
{
    const int B = m->B, T = m->T, H = m->H, D = m->D, G = gates_of(m->cell), DH = D * H;
    double *in = check_alloc(sizeof(double) * (size_t)B * T * (m->I > DH ? m->I : DH));
    double *y = check_alloc(sizeof(double) * (size_t)B * T * DH);
    double *h = check_alloc(sizeof(double) * H), *c = check_alloc(sizeof(double) * H);
    double *hnew = check_alloc(sizeof(double) * H), *a = check_alloc(sizeof(double) * G * H);
    double *b = check_alloc(sizeof(double) * G * H);
    int Il = m->I;
    memcpy(in, th + m->off_x, sizeof(double) * (size_t)B * T * m->I);
    for (int l = 0; l < m->L; l++) {
        for (int d = 0; d < D; d++) {
            int k = l * D + d;
            const double *wih = th + m->off_p[k][0], *whh = th + m->off_p[k][1];
            const double *bih = m->bias ? th + m->off_p[k][2] : NULL,
                         *bhh = m->bias ? th + m->off_p[k][3] : NULL;
            for (int bb = 0; bb < B; bb++) {
                for (int j = 0; j < H; j++) {
                    h[j] = th[m->off_h0 + ((long)k * B + bb) * H + j];
                    c[j] = m->cell == 2 ? th[m->off_c0 + ((long)k * B + bb) * H + j] : 0;
                }
                for (int s = 0; s < T; s++) {
                    int t = d ? T - 1 - s : s;
                    const double *xt = in + ((long)bb * T + t) * Il;
                    for (int r = 0; r < G * H; r++) { /* a = W_ih x + b_ih, b = W_hh h + b_hh */
                        double sa = bih ? bih[r] : 0, sb = bhh ? bhh[r] : 0;
                        for (int i = 0; i < Il; i++) sa += wih[(long)r * Il + i] * xt[i];
                        for (int i = 0; i < H; i++) sb += whh[(long)r * H + i] * h[i];
                        a[r] = sa;
                        b[r] = sb;
                    }
                    for (int j = 0; j < H; j++) {
                        if (m->cell == 0)
                            hnew[j] = tanh(a[j] + b[j]);
                        else if (m->cell == 1)
                            hnew[j] = a[j] + b[j] > 0 ? a[j] + b[j] : 0;
                        else if (m->cell == 2) {
                            double ig = sigm(a[j] + b[j]), fg = sigm(a[H + j] + b[H + j]);
                            double gg = tanh(a[2 * H + j] + b[2 * H + j]),
                                   og = sigm(a[3 * H + j] + b[3 * H + j]);
                            c[j] = fg * c[j] + ig * gg;
                            hnew[j] = og * tanh(c[j]);
                        } else {
                            double r = sigm(a[j] + b[j]), z = sigm(a[H + j] + b[H + j]);
                            double n = tanh(a[2 * H + j] + r * b[2 * H + j]);
                            hnew[j] = (1 - z) * n + z * h[j];
                        }
                    }
                    memcpy(h, hnew, sizeof(double) * H);
                    for (int j = 0; j < H; j++) y[((long)bb * T + t) * DH + d * H + j] = h[j];
                }
                for (int j = 0; j < H; j++) {
                    hn[((long)k * B + bb) * H + j] = h[j];
                    if (cn) cn[((long)k * B + bb) * H + j] = c[j];
                }
            }
        }
        memcpy(in, y, sizeof(double) * (size_t)B * T * DH);
        Il = DH;
    }
    memcpy(out, y, sizeof(double) * (size_t)B * T * DH);
    free(in);
    free(y);
    free(h);
    free(c);
    free(hnew);
    free(a);
    free(b);
}

/* pointer tables into a float array laid out as theta */
static void net_ptrs(const struct net *m, float *base, float **p)
{
    for (int k = 0; k < m->L * m->D; k++)
        for (int j = 0; j < 4; j++) p[4 * k + j] = m->size_p[k][j] ? base + m->off_p[k][j] : NULL;
}

static void describe(const struct net *m, char *buf, size_t n)
{
    snprintf(buf, n, "%s B=%d T=%d I=%d H=%d L=%d%s%s", cell_name[m->cell], m->B, m->T, m->I, m->H,
             m->L, m->D == 2 ? " bidir" : "", m->bias ? "" : " nobias");
}

static void test_forward_case(struct net m)
{
    char what[192], desc[128];
    net_layout(&m);
    describe(&m, desc, sizeof desc);
    const long nout = (long)m.B * m.T * m.D * m.H, nh = (long)m.L * m.D * m.B * m.H;
    float *theta = check_alloc(sizeof(float) * m.n);
    double *thd = check_alloc(sizeof(double) * m.n);
    float *out = check_alloc(sizeof(float) * nout), *hn = check_alloc(sizeof(float) * nh);
    float *cn = check_alloc(sizeof(float) * nh);
    double *rout = check_alloc(sizeof(double) * nout), *rhn = check_alloc(sizeof(double) * nh);
    double *rcn = check_alloc(sizeof(double) * nh);
    float *ptrs[256];
    net_fill(&m, theta);
    for (long i = 0; i < m.n; i++) thd[i] = theta[i];
    net_ptrs(&m, theta, ptrs);
    net_ref(&m, thd, rout, rhn, m.cell == 2 ? rcn : NULL);
    int live = al_alloc_live();
    al_status st = al_recurrent_forward(m.cell, m.B, m.T, m.I, m.H, m.L, m.D == 2, theta + m.off_x,
                                        (const float *const *)ptrs, theta + m.off_h0,
                                        m.cell == 2 ? theta + m.off_c0 : NULL, out, hn, cn);
    snprintf(what, sizeof what, "%s: forward status", desc);
    check_true(what, st == AL_OK && al_alloc_live() == live);
    /* A whole recurrent network: float32 rounding of every step's dot products and gates feeds
     * the next step, so the kernel tolerance (1e-6, 1e-5) becomes the whole-model one. */
    snprintf(what, sizeof what, "%s: output vs double reference", desc);
    check_close_d(what, out, rout, nout, 1e-5, 1e-4);
    snprintf(what, sizeof what, "%s: hn vs double reference", desc);
    check_close_d(what, hn, rhn, nh, 1e-5, 1e-4);
    if (m.cell == 2) {
        snprintf(what, sizeof what, "%s: cn vs double reference", desc);
        check_close_d(what, cn, rcn, nh, 1e-5, 1e-4);
    }
    free(theta);
    free(thd);
    free(out);
    free(hn);
    free(cn);
    free(rout);
    free(rhn);
    free(rcn);
}

/* L = Σ wo·output + Σ wh·hn (+ Σ wc·cn), in double */
static double net_loss(const struct net *m, const double *th, const float *wo, const float *wh,
                       const float *wc, double *out, double *hn, double *cn)
{
    const long nout = (long)m->B * m->T * m->D * m->H, nh = (long)m->L * m->D * m->B * m->H;
    net_ref(m, th, out, hn, m->cell == 2 ? cn : NULL);
    double loss = 0;
    for (long i = 0; i < nout; i++) loss += (double)wo[i] * out[i];
    for (long i = 0; i < nh; i++) loss += (double)wh[i] * hn[i];
    if (m->cell == 2)
        for (long i = 0; i < nh; i++) loss += (double)wc[i] * cn[i];
    return loss;
}

static void test_backward_case(struct net m)
{
    char what[192], desc[128];
    net_layout(&m);
    describe(&m, desc, sizeof desc);
    const long nout = (long)m.B * m.T * m.D * m.H, nh = (long)m.L * m.D * m.B * m.H;
    float *theta = check_alloc(sizeof(float) * m.n), *grad = check_alloc(sizeof(float) * m.n);
    double *thd = check_alloc(sizeof(double) * m.n), *num = check_alloc(sizeof(double) * m.n);
    float *wo = check_alloc(sizeof(float) * nout), *wh = check_alloc(sizeof(float) * nh);
    float *wc = check_alloc(sizeof(float) * nh);
    double *out = check_alloc(sizeof(double) * nout), *hn = check_alloc(sizeof(double) * nh);
    double *cn = check_alloc(sizeof(double) * nh);
    float *ptrs[256], *gptrs[256];
    net_fill(&m, theta);
    check_fill(wo, nout, -1, 1);
    check_fill(wh, nh, -1, 1);
    check_fill(wc, nh, -1, 1);
    for (long i = 0; i < m.n; i++) {
        thd[i] = theta[i];
        grad[i] = NAN; /* the API writes every gradient: none may stay NaN */
    }
    net_ptrs(&m, theta, ptrs);
    net_ptrs(&m, grad, gptrs);
    int live = al_alloc_live();
    al_status st = al_recurrent_backward(
        m.cell, m.B, m.T, m.I, m.H, m.L, m.D == 2, theta + m.off_x, (const float *const *)ptrs,
        theta + m.off_h0, m.cell == 2 ? theta + m.off_c0 : NULL, wo, wh, m.cell == 2 ? wc : NULL,
        grad + m.off_x, gptrs, grad + m.off_h0, m.cell == 2 ? grad + m.off_c0 : NULL);
    snprintf(what, sizeof what, "%s: backward status", desc);
    check_true(what, st == AL_OK && al_alloc_live() == live);
    /* central differences of the double reference (step 1e-6: truncation ~1e-12, rounding
     * ~1e-10, so num is exact to far below the tolerance; relu kinks are 1e-6 away at worst) */
    for (long i = 0; i < m.n; i++) {
        const double h = 1e-6, keep = thd[i];
        thd[i] = keep + h;
        double lp = net_loss(&m, thd, wo, wh, wc, out, hn, cn);
        thd[i] = keep - h;
        double lm = net_loss(&m, thd, wo, wh, wc, out, hn, cn);
        thd[i] = keep;
        num[i] = (lp - lm) / (2 * h);
    }
    snprintf(what, sizeof what, "%s: dx vs finite differences", desc);
    check_close_d(what, grad + m.off_x, num + m.off_x, (long)m.B * m.T * m.I, 1e-4, 1e-2);
    snprintf(what, sizeof what, "%s: dh0 vs finite differences", desc);
    check_close_d(what, grad + m.off_h0, num + m.off_h0, nh, 1e-4, 1e-2);
    if (m.cell == 2) {
        snprintf(what, sizeof what, "%s: dc0 vs finite differences", desc);
        check_close_d(what, grad + m.off_c0, num + m.off_c0, nh, 1e-4, 1e-2);
    }
    static const char *pn[4] = { "weight_ih", "weight_hh", "bias_ih", "bias_hh" };
    for (int k = 0; k < m.L * m.D; k++) {
        for (int j = 0; j < 4; j++) {
            if (!m.size_p[k][j]) continue;
            snprintf(what, sizeof what, "%s: d%s_l%d%s vs finite differences", desc, pn[j], k / m.D,
                     k % m.D ? "_reverse" : "");
            check_close_d(what, grad + m.off_p[k][j], num + m.off_p[k][j], m.size_p[k][j], 1e-4,
                          1e-2);
        }
    }
    free(theta);
    free(grad);
    free(thd);
    free(num);
    free(wo);
    free(wh);
    free(wc);
    free(out);
    free(hn);
    free(cn);
}

static void test_networks(void)
{
    check_seed(2);
    for (int cell = 0; cell < 4; cell++) {
        /* forward vs double: odd sizes, batches (the per-step GEMM path), both directions */
        struct net fw[] = {
            mk(cell, 1, 1, 1, 1, 1, 1, 1),
            mk(cell, 1, 9, 5, 7, 1, 1, 1),
            mk(cell, 3, 6, 5, 7, 2, 2, 1),
            mk(cell, 2, 5, 4, 17, 1, 2, 0),
            mk(cell, 1, 12, 8, 33, 2, 1, 1),
            /* B = 1 and T >= AL_RECURRENT_PACK_MIN_T: the packed W_hh path, with h0 (every
             * step packed) and a reverse direction; H = 40: blocks of 32 and 8 */
            mk(cell, 1, AL_RECURRENT_PACK_MIN_T, 3, 40, 1, 2, 1),
            mk(cell, 1, 64, 6, 32, 1, 1, 0),
        };
        for (int i = 0; i < (int)(sizeof fw / sizeof fw[0]); i++) test_forward_case(fw[i]);
        /* gradients vs finite differences on T = 3, I = 2, H = 3 */
        struct net bw[] = {
            mk(cell, 1, 3, 2, 3, 1, 1, 1),
            mk(cell, 1, 3, 2, 3, 1, 2, 1),
            mk(cell, 1, 3, 2, 3, 2, 1, 1),
            mk(cell, 1, 3, 2, 3, 2, 2, 1),
            mk(cell, 2, 3, 2, 3, 2, 2, 1),
            mk(cell, 2, 3, 2, 3, 1, 2, 0),
            /* the backward's forward pass on the packed path (B = 1, T long enough) */
            mk(cell, 1, AL_RECURRENT_PACK_MIN_T + 1, 2, 3, 1, 2, 1),
        };
        for (int i = 0; i < (int)(sizeof bw / sizeof bw[0]); i++) test_backward_case(bw[i]);
    }
}

/* ------------------------------------------------------------------ 5. statuses */

static void test_statuses(void)
{
    float x[64] = { 0 }, w[256] = { 0 }, out[64], hn[16], cn[16], g[256];
    const float *p[4] = { w, w, w, w };
    const float *p_half_bias[4] = { w, w, w, NULL };
    const float *p_nobias[4] = { w, w, NULL, NULL };
    const float *p_noweight[4] = { w, NULL, NULL, NULL };
    float *gp[4] = { g, g + 64, g + 128, g + 192 };
    float *gp_nobias[4] = { g, g + 64, NULL, NULL };
    int live = al_alloc_live();

    check_true("forward ok", al_recurrent_forward(AL_LSTM, 1, 2, 2, 2, 1, 0, x, p, NULL, NULL, out,
                                                  hn, cn) == AL_OK);
    check_true("forward without bias ok",
               al_recurrent_forward(AL_GRU, 1, 2, 2, 2, 1, 0, x, p_nobias, NULL, NULL, out, NULL,
                                    NULL) == AL_OK);
    check_true("NULL x", al_recurrent_forward(AL_LSTM, 1, 2, 2, 2, 1, 0, NULL, p, NULL, NULL, out,
                                              hn, cn) == AL_ERR_ARGUMENT);
    check_true("NULL params", al_recurrent_forward(AL_LSTM, 1, 2, 2, 2, 1, 0, x, NULL, NULL, NULL,
                                                   out, hn, cn) == AL_ERR_ARGUMENT);
    check_true("NULL output", al_recurrent_forward(AL_LSTM, 1, 2, 2, 2, 1, 0, x, p, NULL, NULL,
                                                   NULL, hn, cn) == AL_ERR_ARGUMENT);
    check_true("NULL weight", al_recurrent_forward(AL_RNN_TANH, 1, 2, 2, 2, 1, 0, x, p_noweight,
                                                   NULL, NULL, out, hn, NULL) == AL_ERR_ARGUMENT);
    check_true("half a bias pair",
               al_recurrent_forward(AL_RNN_TANH, 1, 2, 2, 2, 1, 0, x, p_half_bias, NULL, NULL, out,
                                    hn, NULL) == AL_ERR_ARGUMENT);
    check_true("unknown cell", al_recurrent_forward(7, 1, 2, 2, 2, 1, 0, x, p, NULL, NULL, out, hn,
                                                    NULL) == AL_ERR_ARGUMENT);
    check_true("negative cell", al_recurrent_forward(-1, 1, 2, 2, 2, 1, 0, x, p, NULL, NULL, out,
                                                     hn, NULL) == AL_ERR_ARGUMENT);
    check_true("B = 0", al_recurrent_forward(AL_LSTM, 0, 2, 2, 2, 1, 0, x, p, NULL, NULL, out, hn,
                                             cn) == AL_ERR_SHAPE);
    check_true("T = 0", al_recurrent_forward(AL_LSTM, 1, 0, 2, 2, 1, 0, x, p, NULL, NULL, out, hn,
                                             cn) == AL_ERR_SHAPE);
    check_true("I = -1", al_recurrent_forward(AL_LSTM, 1, 2, -1, 2, 1, 0, x, p, NULL, NULL, out, hn,
                                              cn) == AL_ERR_SHAPE);
    check_true("H = 0", al_recurrent_forward(AL_LSTM, 1, 2, 2, 0, 1, 0, x, p, NULL, NULL, out, hn,
                                             cn) == AL_ERR_SHAPE);
    check_true("numLayers = 0", al_recurrent_forward(AL_LSTM, 1, 2, 2, 2, 0, 0, x, p, NULL, NULL,
                                                     out, hn, cn) == AL_ERR_SHAPE);
    check_true("B·T·I overflow", al_recurrent_forward(AL_LSTM, 65536, 65536, 2, 2, 1, 0, x, p, NULL,
                                                      NULL, out, hn, cn) == AL_ERR_OVERFLOW);
    check_true("4·H·H overflow", al_recurrent_forward(AL_LSTM, 1, 1, 1, 30000, 1, 0, x, p, NULL,
                                                      NULL, out, hn, cn) == AL_ERR_OVERFLOW);
    check_true("backward ok",
               al_recurrent_backward(AL_LSTM, 1, 2, 2, 2, 1, 0, x, p, NULL, NULL, NULL, NULL, NULL,
                                     NULL, gp, NULL, NULL) == AL_OK);
    check_true("backward NULL dparams",
               al_recurrent_backward(AL_LSTM, 1, 2, 2, 2, 1, 0, x, p, NULL, NULL, NULL, NULL, NULL,
                                     NULL, NULL, NULL, NULL) == AL_ERR_ARGUMENT);
    check_true("backward dparams without bias slots",
               al_recurrent_backward(AL_LSTM, 1, 2, 2, 2, 1, 0, x, p, NULL, NULL, NULL, NULL, NULL,
                                     NULL, gp_nobias, NULL, NULL) == AL_ERR_ARGUMENT);
    check_true("backward numLayers = 0",
               al_recurrent_backward(AL_GRU, 1, 2, 2, 2, 0, 0, x, p, NULL, NULL, NULL, NULL, NULL,
                                     NULL, gp, NULL, NULL) == AL_ERR_SHAPE);
    check_true("no allocation left behind", al_alloc_live() == live);
}

int main(void)
{
    test_nonlinearities();
    test_cells();
    test_packed_gemv();
    test_networks();
    test_statuses();
    return check_report("test_recurrent");
}
