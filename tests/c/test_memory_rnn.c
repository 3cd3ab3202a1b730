/*
 * test_memory_rnn.c: the memory-RNN family (self-attention RNN, LSTMN) against double-precision
 * references of both recurrences written here from the equations in docs/memory-rnn.md; every
 * gradient (x and each parameter) against central finite differences of those references; the
 * additive tape score's scalar twin against its SIMD128 twin and a double reference at widths 1
 * to 19; and the validated API's status codes and allocation count.
 *
 * Why finite differences of the double reference (not of the float kernels): a central
 * difference with h = 1e-6 in double is exact to ~1e-9, so the 1e-4/1e-2 tolerance measures the
 * analytic float gradient alone; the float forward is pinned to the same reference separately.
 */
#include <string.h>

#include "attnlab.h"
#include "check.h"
#include "kernels/memory_rnn.h"

#define ATOL 1e-6
#define RTOL 1e-5
#define FD_ATOL 1e-4
#define FD_RTOL 1e-2

/* ------------------------------------------------------------------ double references */

static void ref_softmax(double *y, const double *e, int n)
{
    double m = e[0], s = 0;
    for (int i = 1; i < n; i++)
        if (e[i] > m) m = e[i];
    for (int i = 0; i < n; i++) s += (y[i] = exp(e[i] - m));
    for (int i = 0; i < n; i++) y[i] /= s;
}

/* y [M] = W [M,K] x [K] + (acc ? y : 0) */
static void ref_mv(double *y, const double *W, int ldw, const double *x, int M, int K, int acc)
{
    for (int m = 0; m < M; m++) {
        double s = acc ? y[m] : 0;
        for (int k = 0; k < K; k++) s += W[(long)m * ldw + k] * x[k];
        y[m] = s;
    }
}

/* self-attention RNN, one sequence: h [T,H], w [T,T] */
static void sarnn_ref(double *h, double *w, const double *x, const double *A, const double *b,
                      const double *Wk, const double *Wq, const double *v, int T, int in, int H,
                      int da, int align)
{
    double *c = check_alloc(sizeof(double) * (size_t)T * H);
    double *K = check_alloc(sizeof(double) * (size_t)T * da);
    double *q = check_alloc(sizeof(double) * (size_t)da);
    double *e = check_alloc(sizeof(double) * (size_t)T);
    double *z = check_alloc(sizeof(double) * (size_t)H);
    for (int t = 0; t < T; t++) {
        /* h_t = tanh(A [x_t; c_{t−1}] + b) */
        for (int j = 0; j < H; j++) {
            double s = b[j];
            for (int k = 0; k < in; k++) s += A[(long)j * (in + H) + k] * x[(long)t * in + k];
            if (t > 0)
                for (int k = 0; k < H; k++)
                    s += A[(long)j * (in + H) + in + k] * c[(long)(t - 1) * H + k];
            z[j] = s;
        }
        for (int j = 0; j < H; j++) h[(long)t * H + j] = tanh(z[j]);
        ref_mv(K + (long)t * da, Wk, H, h + (long)t * H, da, H, 0);
        ref_mv(q, Wq, H, h + (long)t * H, da, H, 0);
        for (int i = 0; i <= t; i++) {
            double s = 0;
            for (int k = 0; k < da; k++)
                s += align == AL_MEMRNN_ADDITIVE ? v[k] * tanh(K[(long)i * da + k] + q[k])
                                                 : K[(long)i * da + k] * q[k];
            e[i] = s;
        }
        double *wt = w + (long)t * T;
        for (int i = 0; i < T; i++) wt[i] = 0;
        ref_softmax(wt, e, t + 1);
        for (int j = 0; j < H; j++) {
            double s = 0;
            for (int i = 0; i <= t; i++) s += wt[i] * h[(long)i * H + j];
            c[(long)t * H + j] = s;
        }
    }
    free(c);
    free(K);
    free(q);
    free(e);
    free(z);
}

static double sigm(double x) { return 1.0 / (1.0 + exp(-x)); }

/* LSTMN, one sequence: h, c [T,H], w [T,T] */
static void lstmn_ref(double *h, double *c, double *w, const double *x, const double *Wh,
                      const double *Wx, const double *Wht, const double *v, const double *W,
                      const double *b, int T, int in, int H)
{
    double *P = check_alloc(sizeof(double) * (size_t)T * H);
    double *htl = check_alloc(sizeof(double) * (size_t)H);   /* h̃_t */
    double *ctl = check_alloc(sizeof(double) * (size_t)H);   /* c̃_t */
    double *hprev = check_alloc(sizeof(double) * (size_t)H); /* h̃_{t−1} */
    double *q = check_alloc(sizeof(double) * (size_t)H);
    double *e = check_alloc(sizeof(double) * (size_t)T);
    double *g = check_alloc(sizeof(double) * 4 * (size_t)H);
    for (int t = 0; t < T; t++) {
        double *wt = w + (long)t * T;
        for (int i = 0; i < T; i++) wt[i] = 0;
        memcpy(hprev, htl, sizeof(double) * (size_t)H);
        if (t == 0) {
            memset(htl, 0, sizeof(double) * (size_t)H);
            memset(ctl, 0, sizeof(double) * (size_t)H);
        } else {
            ref_mv(q, Wx, in, x + (long)t * in, H, in, 0);
            ref_mv(q, Wht, H, hprev, H, H, 1);
            for (int i = 0; i < t; i++) {
                double s = 0;
                for (int k = 0; k < H; k++) s += v[k] * tanh(P[(long)i * H + k] + q[k]);
                e[i] = s;
            }
            ref_softmax(wt, e, t);
            for (int j = 0; j < H; j++) {
                double sh = 0, sc = 0;
                for (int i = 0; i < t; i++) {
                    sh += wt[i] * h[(long)i * H + j];
                    sc += wt[i] * c[(long)i * H + j];
                }
                htl[j] = sh;
                ctl[j] = sc;
            }
        }
        for (int r = 0; r < 4 * H; r++) {
            double s = b[r];
            for (int k = 0; k < H; k++) s += W[(long)r * (H + in) + k] * htl[k];
            for (int k = 0; k < in; k++) s += W[(long)r * (H + in) + H + k] * x[(long)t * in + k];
            g[r] = s;
        }
        for (int j = 0; j < H; j++) {
            double ig = sigm(g[j]), fg = sigm(g[H + j]), gg = tanh(g[2 * H + j]),
                   og = sigm(g[3 * H + j]);
            double cn = fg * ctl[j] + ig * gg;
            c[(long)t * H + j] = cn;
            h[(long)t * H + j] = og * tanh(cn);
        }
        ref_mv(P + (long)t * H, Wh, H, h + (long)t * H, H, H, 0);
    }
    free(P);
    free(htl);
    free(ctl);
    free(hprev);
    free(q);
    free(e);
    free(g);
}

/* ------------------------------------------------------------------ parameter packing */

/* All inputs of one case in one double vector theta (so finite differences are one loop), with
 * named slices; the float copies are what the library sees. */
#define MAXP 8
struct pack {
    int n; /* number of slices */
    const char *name[MAXP];
    long off[MAXP], len[MAXP], total;
    double *theta; /* [total] */
    float *f;      /* [total] float copy */
    float *grad;   /* [total] analytic gradient */
};

static void pack_add(struct pack *p, const char *name, long len)
{
    p->name[p->n] = name;
    p->off[p->n] = p->total;
    p->len[p->n] = len;
    p->total += len;
    p->n++;
}

static void pack_alloc(struct pack *p)
{
    p->theta = check_alloc(sizeof(double) * (size_t)p->total);
    p->f = check_alloc(sizeof(float) * (size_t)p->total);
    p->grad = check_alloc(sizeof(float) * (size_t)p->total);
}

/* fill slice s with uniform [-scale, scale], rounded to float so both sides see the same values */
static void pack_fill(struct pack *p, int s, double scale)
{
    for (long i = 0; i < p->len[s]; i++) {
        float v = check_randf((float)-scale, (float)scale);
        p->theta[p->off[s] + i] = v;
        p->f[p->off[s] + i] = v;
    }
}

static void pack_free(struct pack *p)
{
    free(p->theta);
    free(p->f);
    free(p->grad);
}

/* compare the analytic gradient with central differences of loss(theta), slice by slice */
static void check_fd(const char *what, struct pack *p,
                     double (*loss)(const struct pack *, const void *), const void *ctx)
{
    double *fd = check_alloc(sizeof(double) * (size_t)p->total);
    const double eps = 1e-6;
    for (long i = 0; i < p->total; i++) {
        double keep = p->theta[i];
        p->theta[i] = keep + eps;
        double lp = loss(p, ctx);
        p->theta[i] = keep - eps;
        double lm = loss(p, ctx);
        p->theta[i] = keep;
        fd[i] = (lp - lm) / (2 * eps);
    }
    for (int s = 0; s < p->n; s++) {
        char buf[200];
        snprintf(buf, sizeof buf, "%s d%s vs finite differences", what, p->name[s]);
        check_close_d(buf, p->grad + p->off[s], fd + p->off[s], p->len[s], FD_ATOL, FD_RTOL);
    }
    free(fd);
}

/* ------------------------------------------------------------------ self-attention RNN */

enum { SX, SA, SB, SWK, SWQ, SV };
struct sarnn_ctx {
    int B, T, in, H, da, align;
    const double *gh, *gw; /* upstream [B,T,H], [B,T,T] */
};

static double sarnn_loss(const struct pack *p, const void *vctx)
{
    const struct sarnn_ctx *c = vctx;
    double *h = check_alloc(sizeof(double) * (size_t)c->T * c->H);
    double *w = check_alloc(sizeof(double) * (size_t)c->T * c->T);
    double L = 0;
    for (int s = 0; s < c->B; s++) {
        sarnn_ref(h, w, p->theta + p->off[SX] + (long)s * c->T * c->in, p->theta + p->off[SA],
                  p->theta + p->off[SB], p->theta + p->off[SWK], p->theta + p->off[SWQ],
                  p->theta + p->off[SV], c->T, c->in, c->H, c->da, c->align);
        for (long i = 0; i < (long)c->T * c->H; i++) L += c->gh[(long)s * c->T * c->H + i] * h[i];
        for (long i = 0; i < (long)c->T * c->T; i++) L += c->gw[(long)s * c->T * c->T + i] * w[i];
    }
    free(h);
    free(w);
    return L;
}

static void test_sarnn_case(int B, int T, int in, int H, int da, int align, int fd)
{
    struct pack p = { 0 };
    pack_add(&p, "x", (long)B * T * in);
    pack_add(&p, "A", (long)H * (in + H));
    pack_add(&p, "b", H);
    pack_add(&p, align == AL_MEMRNN_ADDITIVE ? "W_h" : "W_K", (long)da * H);
    pack_add(&p, align == AL_MEMRNN_ADDITIVE ? "W_s" : "W_Q", (long)da * H);
    pack_add(&p, "v", da);
    pack_alloc(&p);
    double rs = 0.5 / sqrt((double)H);
    pack_fill(&p, SX, 1.0);
    pack_fill(&p, SA, rs);
    pack_fill(&p, SB, 0.2);
    /* scores large enough that the weights are far from uniform */
    pack_fill(&p, SWK, 1.5);
    pack_fill(&p, SWQ, 1.5);
    pack_fill(&p, SV, 2.0);
    char what[160];
    snprintf(what, sizeof what, "sarnn %s B=%d T=%d in=%d H=%d da=%d",
             align == AL_MEMRNN_ADDITIVE ? "additive" : "dot", B, T, in, H, da);

    /* forward against the double reference */
    long nh = (long)B * T * H, nw = (long)B * T * T;
    float *h = check_alloc(sizeof(float) * (size_t)nh),
          *w = check_alloc(sizeof(float) * (size_t)nw);
    double *hr = check_alloc(sizeof(double) * (size_t)nh),
           *wr = check_alloc(sizeof(double) * (size_t)nw);
    const float *f = p.f;
    al_status st = al_self_attention_rnn_forward(h, w, f + p.off[SX], f + p.off[SA], f + p.off[SB],
                                                 f + p.off[SWK], f + p.off[SWQ], f + p.off[SV], B,
                                                 T, in, H, da, align);
    check_true("sarnn forward status", st == AL_OK);
    for (int s = 0; s < B; s++)
        sarnn_ref(hr + (long)s * T * H, wr + (long)s * T * T,
                  p.theta + p.off[SX] + (long)s * T * in, p.theta + p.off[SA], p.theta + p.off[SB],
                  p.theta + p.off[SWK], p.theta + p.off[SWQ], p.theta + p.off[SV], T, in, H, da,
                  align);
    char buf[200];
    /* float32 recurrence over T steps: rounding compounds through c_{t−1}; 1e-5 absolute */
    snprintf(buf, sizeof buf, "%s h", what);
    check_close_d(buf, h, hr, nh, 1e-5, 1e-4);
    snprintf(buf, sizeof buf, "%s weights", what);
    check_close_d(buf, w, wr, nw, 1e-5, 1e-4);
    int upper_zero = 1;
    for (int s = 0; s < B; s++)
        for (int t = 0; t < T; t++)
            for (int i = t + 1; i < T; i++) upper_zero &= w[((long)s * T + t) * T + i] == 0.0f;
    snprintf(buf, sizeof buf, "%s weights above the diagonal are 0", what);
    check_true(buf, upper_zero);

    if (fd) {
        double *gh = check_alloc(sizeof(double) * (size_t)nh),
               *gw = check_alloc(sizeof(double) * (size_t)nw);
        float *ghf = check_alloc(sizeof(float) * (size_t)nh),
              *gwf = check_alloc(sizeof(float) * (size_t)nw);
        for (long i = 0; i < nh; i++) gh[i] = ghf[i] = check_randf(-1, 1);
        for (long i = 0; i < nw; i++) gw[i] = gwf[i] = check_randf(-1, 1);
        float *g = p.grad;
        st = al_self_attention_rnn_backward(
            g + p.off[SX], g + p.off[SA], g + p.off[SB], g + p.off[SWK], g + p.off[SWQ],
            g + p.off[SV], ghf, gwf, f + p.off[SX], f + p.off[SA], f + p.off[SB], f + p.off[SWK],
            f + p.off[SWQ], f + p.off[SV], B, T, in, H, da, align);
        check_true("sarnn backward status", st == AL_OK);
        if (align == AL_MEMRNN_DOT) /* v is not a parameter of dot align: its gradient stays 0 */
            for (long i = 0; i < da; i++)
                check_true("dot align leaves dv alone", g[p.off[SV] + i] == 0.0f);
        struct sarnn_ctx ctx = { B, T, in, H, da, align, gh, gw };
        check_fd(what, &p, sarnn_loss, &ctx);
        free(gh);
        free(gw);
        free(ghf);
        free(gwf);
    }
    free(h);
    free(w);
    free(hr);
    free(wr);
    pack_free(&p);
}

/* ------------------------------------------------------------------ LSTMN */

enum { LX, LWH, LWX, LWHT, LV, LW, LB };
struct lstmn_ctx {
    int B, T, in, H;
    const double *gh, *gc, *gw;
};

static double lstmn_loss(const struct pack *p, const void *vctx)
{
    const struct lstmn_ctx *c = vctx;
    long TH = (long)c->T * c->H, TT = (long)c->T * c->T;
    double *h = check_alloc(sizeof(double) * (size_t)TH),
           *cc = check_alloc(sizeof(double) * (size_t)TH);
    double *w = check_alloc(sizeof(double) * (size_t)TT);
    double L = 0;
    const double *t = p->theta;
    for (int s = 0; s < c->B; s++) {
        lstmn_ref(h, cc, w, t + p->off[LX] + (long)s * c->T * c->in, t + p->off[LWH],
                  t + p->off[LWX], t + p->off[LWHT], t + p->off[LV], t + p->off[LW], t + p->off[LB],
                  c->T, c->in, c->H);
        for (long i = 0; i < TH; i++) L += c->gh[s * TH + i] * h[i] + c->gc[s * TH + i] * cc[i];
        for (long i = 0; i < TT; i++) L += c->gw[s * TT + i] * w[i];
    }
    free(h);
    free(cc);
    free(w);
    return L;
}

static void test_lstmn_case(int B, int T, int in, int H, int fd)
{
    struct pack p = { 0 };
    pack_add(&p, "x", (long)B * T * in);
    pack_add(&p, "W_h", (long)H * H);
    pack_add(&p, "W_x", (long)H * in);
    pack_add(&p, "W_ht", (long)H * H);
    pack_add(&p, "v", H);
    pack_add(&p, "W", 4L * H * (H + in));
    pack_add(&p, "b", 4L * H);
    pack_alloc(&p);
    double rs = 0.5 / sqrt((double)H);
    pack_fill(&p, LX, 1.0);
    pack_fill(&p, LWH, 1.5);
    pack_fill(&p, LWX, 1.0);
    pack_fill(&p, LWHT, rs);
    pack_fill(&p, LV, 2.0);
    pack_fill(&p, LW, 2 * rs);
    pack_fill(&p, LB, 0.3);
    char what[160];
    snprintf(what, sizeof what, "lstmn B=%d T=%d in=%d H=%d", B, T, in, H);

    long nh = (long)B * T * H, nw = (long)B * T * T;
    float *h = check_alloc(sizeof(float) * (size_t)nh),
          *c = check_alloc(sizeof(float) * (size_t)nh);
    float *w = check_alloc(sizeof(float) * (size_t)nw);
    double *hr = check_alloc(sizeof(double) * (size_t)nh),
           *cr = check_alloc(sizeof(double) * (size_t)nh);
    double *wr = check_alloc(sizeof(double) * (size_t)nw);
    const float *f = p.f;
    al_status st =
        al_lstmn_forward(h, c, w, f + p.off[LX], f + p.off[LWH], f + p.off[LWX], f + p.off[LWHT],
                         f + p.off[LV], f + p.off[LW], f + p.off[LB], B, T, in, H);
    check_true("lstmn forward status", st == AL_OK);
    const double *t = p.theta;
    for (int s = 0; s < B; s++)
        lstmn_ref(hr + (long)s * T * H, cr + (long)s * T * H, wr + (long)s * T * T,
                  t + p.off[LX] + (long)s * T * in, t + p.off[LWH], t + p.off[LWX], t + p.off[LWHT],
                  t + p.off[LV], t + p.off[LW], t + p.off[LB], T, in, H);
    char buf[200];
    /* float32 recurrence over T steps: rounding compounds through the tape; 1e-5 absolute */
    snprintf(buf, sizeof buf, "%s h", what);
    check_close_d(buf, h, hr, nh, 1e-5, 1e-4);
    snprintf(buf, sizeof buf, "%s c", what);
    check_close_d(buf, c, cr, nh, 1e-5, 1e-4);
    snprintf(buf, sizeof buf, "%s weights", what);
    check_close_d(buf, w, wr, nw, 1e-5, 1e-4);
    int zero = 1;
    for (int s = 0; s < B; s++)
        for (int tt = 0; tt < T; tt++)
            for (int i = tt; i < T; i++) zero &= w[((long)s * T + tt) * T + i] == 0.0f;
    snprintf(buf, sizeof buf, "%s weights at i >= t (and row 0) are 0", what);
    check_true(buf, zero);

    if (fd) {
        double *gh = check_alloc(sizeof(double) * (size_t)nh),
               *gc = check_alloc(sizeof(double) * (size_t)nh);
        double *gw = check_alloc(sizeof(double) * (size_t)nw);
        float *ghf = check_alloc(sizeof(float) * (size_t)nh),
              *gcf = check_alloc(sizeof(float) * (size_t)nh);
        float *gwf = check_alloc(sizeof(float) * (size_t)nw);
        for (long i = 0; i < nh; i++) gh[i] = ghf[i] = check_randf(-1, 1);
        for (long i = 0; i < nh; i++) gc[i] = gcf[i] = check_randf(-1, 1);
        for (long i = 0; i < nw; i++) gw[i] = gwf[i] = check_randf(-1, 1);
        float *g = p.grad;
        st = al_lstmn_backward(g + p.off[LX], g + p.off[LWH], g + p.off[LWX], g + p.off[LWHT],
                               g + p.off[LV], g + p.off[LW], g + p.off[LB], ghf, gcf, gwf,
                               f + p.off[LX], f + p.off[LWH], f + p.off[LWX], f + p.off[LWHT],
                               f + p.off[LV], f + p.off[LW], f + p.off[LB], B, T, in, H);
        check_true("lstmn backward status", st == AL_OK);
        struct lstmn_ctx ctx = { B, T, in, H, gh, gc, gw };
        check_fd(what, &p, lstmn_loss, &ctx);
        free(gh);
        free(gc);
        free(gw);
        free(ghf);
        free(gcf);
        free(gwf);
    }
    free(h);
    free(c);
    free(w);
    free(hr);
    free(cr);
    free(wr);
    pack_free(&p);
}

/* ------------------------------------------------------------------ the score twins */

typedef void (*score_fwd_fn)(float *, const float *, const float *, const float *, int, int);
typedef void (*score_bwd_fn)(float *, float *, float *, const float *, const float *, const float *,
                             const float *, int, int);
static const struct {
    const char *name;
    score_fwd_fn fwd;
    score_bwd_fn bwd;
} score_variants[] = {
    { "scalar", al_memory_score_forward_scalar, al_memory_score_backward_scalar },
#if AL_SIMD128
    { "simd128", al_memory_score_forward_simd128, al_memory_score_backward_simd128 },
#endif
};

static void test_score(void)
{
    static const int ds[] = { 1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 19, 64, 129 };
    check_seed(41);
    for (unsigned di = 0; di < sizeof ds / sizeof ds[0]; di++) {
        int d = ds[di], n = 1 + di % 6;
        float *P = check_alloc(sizeof(float) * (size_t)n * d),
              *q = check_alloc(sizeof(float) * (size_t)d);
        float *v = check_alloc(sizeof(float) * (size_t)d),
              *de = check_alloc(sizeof(float) * (size_t)n);
        /* pre-activations from −30 to 30: saturated, tiny and in-between tanh arguments */
        check_fill(P, (long)n * d, -15, 15);
        check_fill(q, d, -15, 15);
        for (int k = 0; k < d; k += 3) q[k] *= 1e-4f; /* and some near 0 */
        check_fill(v, d, -1, 1);
        check_fill(de, n, -1, 1);
        double *er = check_alloc(sizeof(double) * (size_t)n),
               *mag = check_alloc(sizeof(double) * (size_t)n);
        double *dPr = check_alloc(sizeof(double) * (size_t)n * d),
               *dqr = check_alloc(sizeof(double) * (size_t)d);
        double *dvr = check_alloc(sizeof(double) * (size_t)d);
        for (int i = 0; i < n; i++) {
            double s = 0, m = 0;
            for (int k = 0; k < d; k++) {
                double u = tanh((double)P[(long)i * d + k] + q[k]);
                s += v[k] * u;
                m += fabs(v[k] * u) + fabs(v[k]);
                double dpre = de[i] * v[k] * (1 - u * u);
                dPr[(long)i * d + k] = 1.0 + dpre; /* the kernels accumulate onto 1 */
                dqr[k] += dpre;
                dvr[k] += de[i] * u;
            }
            er[i] = s;
            mag[i] = m;
        }
        for (int k = 0; k < d; k++) {
            dqr[k] += 1.0;
            dvr[k] += 1.0;
        }
        float *outs[2] = { NULL, NULL };
        for (unsigned vi = 0; vi < sizeof score_variants / sizeof score_variants[0]; vi++) {
            float *e = check_alloc(sizeof(float) * (size_t)n);
            float *dP = check_alloc(sizeof(float) * (size_t)n * d),
                  *dq = check_alloc(sizeof(float) * (size_t)d);
            float *dv = check_alloc(sizeof(float) * (size_t)d);
            for (long i = 0; i < (long)n * d; i++) dP[i] = 1.0f;
            for (int k = 0; k < d; k++) dq[k] = dv[k] = 1.0f;
            score_variants[vi].fwd(e, P, q, v, n, d);
            score_variants[vi].bwd(dP, dq, dv, de, P, q, v, n, d);
            char buf[160];
            /* tanh through exp: ~2e-7 absolute per term, so the magnitude is Σ|v_k| (+ Σ|v u|) */
            snprintf(buf, sizeof buf, "memory_score_forward_%s n=%d d=%d", score_variants[vi].name,
                     n, d);
            check_close_mag(buf, e, er, mag, n, ATOL, RTOL);
            snprintf(buf, sizeof buf, "memory_score_backward_%s dP n=%d d=%d",
                     score_variants[vi].name, n, d);
            check_close_d(buf, dP, dPr, (long)n * d, ATOL, RTOL);
            snprintf(buf, sizeof buf, "memory_score_backward_%s dq n=%d d=%d",
                     score_variants[vi].name, n, d);
            check_close_d(buf, dq, dqr, d, ATOL * n, RTOL);
            snprintf(buf, sizeof buf, "memory_score_backward_%s dv n=%d d=%d",
                     score_variants[vi].name, n, d);
            check_close_d(buf, dv, dvr, d, ATOL * n, RTOL);
            if (vi < 2)
                outs[vi] = e;
            else
                free(e);
            free(dP);
            free(dq);
            free(dv);
        }
        if (outs[1]) {
            char buf[160];
            snprintf(buf, sizeof buf, "memory_score_forward simd128 vs scalar n=%d d=%d", n, d);
            check_close_f(buf, outs[1], outs[0], n, ATOL, RTOL);
        }
        free(outs[0]);
        free(outs[1]);
        free(P);
        free(q);
        free(v);
        free(de);
        free(er);
        free(mag);
        free(dPr);
        free(dqr);
        free(dvr);
    }
}

/* ------------------------------------------------------------------ API status codes */

static void test_api_errors(void)
{
    float buf[256] = { 0 };
    float *f = buf;
    int live = al_alloc_live();
    /* self-attention RNN: T=2, in=2, H=2, da=2 */
    check_true("sarnn ok",
               al_self_attention_rnn_forward(f, f + 8, f + 16, f + 24, f + 32, f + 40, f + 48,
                                             f + 56, 1, 2, 2, 2, 2, AL_MEMRNN_ADDITIVE) == AL_OK);
    check_true("sarnn dot needs no v",
               al_self_attention_rnn_forward(f, f + 8, f + 16, f + 24, f + 32, f + 40, f + 48, NULL,
                                             1, 2, 2, 2, 2, AL_MEMRNN_DOT) == AL_OK);
    check_true("sarnn NULL h",
               al_self_attention_rnn_forward(NULL, f + 8, f + 16, f + 24, f + 32, f + 40, f + 48,
                                             f + 56, 1, 2, 2, 2, 2, 0) == AL_ERR_ARGUMENT);
    check_true("sarnn NULL A",
               al_self_attention_rnn_forward(f, f + 8, f + 16, NULL, f + 32, f + 40, f + 48, f + 56,
                                             1, 2, 2, 2, 2, 0) == AL_ERR_ARGUMENT);
    check_true("sarnn additive NULL v",
               al_self_attention_rnn_forward(f, f + 8, f + 16, f + 24, f + 32, f + 40, f + 48, NULL,
                                             1, 2, 2, 2, 2, 0) == AL_ERR_ARGUMENT);
    check_true("sarnn unknown align",
               al_self_attention_rnn_forward(f, f + 8, f + 16, f + 24, f + 32, f + 40, f + 48,
                                             f + 56, 1, 2, 2, 2, 2, 7) == AL_ERR_ARGUMENT);
    check_true("sarnn T=0",
               al_self_attention_rnn_forward(f, f + 8, f + 16, f + 24, f + 32, f + 40, f + 48,
                                             f + 56, 1, 0, 2, 2, 2, 0) == AL_ERR_SHAPE);
    check_true("sarnn da=-1",
               al_self_attention_rnn_forward(f, f + 8, f + 16, f + 24, f + 32, f + 40, f + 48,
                                             f + 56, 1, 2, 2, 2, -1, 0) == AL_ERR_SHAPE);
    check_true("sarnn overflow",
               al_self_attention_rnn_forward(f, f + 8, f + 16, f + 24, f + 32, f + 40, f + 48,
                                             f + 56, 1, 100000, 2, 2, 2, 0) == AL_ERR_OVERFLOW);
    check_true("sarnn backward NULL dA",
               al_self_attention_rnn_backward(f, NULL, f, f, f, f, NULL, NULL, f + 16, f + 24,
                                              f + 32, f + 40, f + 48, f + 56, 1, 2, 2, 2, 2,
                                              0) == AL_ERR_ARGUMENT);
    check_true("sarnn backward unknown align",
               al_self_attention_rnn_backward(f + 64, f + 72, f + 80, f + 88, f + 96, f + 104, NULL,
                                              NULL, f + 16, f + 24, f + 32, f + 40, f + 48, f + 56,
                                              1, 2, 2, 2, 2, -1) == AL_ERR_ARGUMENT);
    check_true("sarnn backward overflow",
               al_self_attention_rnn_backward(f + 64, f + 72, f + 80, f + 88, f + 96, f + 104, NULL,
                                              NULL, f + 16, f + 24, f + 32, f + 40, f + 48, f + 56,
                                              40000, 40000, 2, 2, 2, 0) == AL_ERR_OVERFLOW);
    check_true("sarnn backward, no upstream, ok",
               al_self_attention_rnn_backward(f + 64, f + 72, f + 80, f + 88, f + 96, f + 104, NULL,
                                              NULL, f + 16, f + 24, f + 32, f + 40, f + 48, f + 56,
                                              1, 2, 2, 2, 2, 0) == AL_OK);
    /* LSTMN: T=2, in=1, H=1 */
    check_true("lstmn ok", al_lstmn_forward(f, f + 4, f + 8, f + 16, f + 20, f + 24, f + 28, f + 32,
                                            f + 36, f + 44, 1, 2, 1, 1) == AL_OK);
    check_true("lstmn NULL W_ht",
               al_lstmn_forward(f, f + 4, f + 8, f + 16, f + 20, f + 24, NULL, f + 32, f + 36,
                                f + 44, 1, 2, 1, 1) == AL_ERR_ARGUMENT);
    check_true("lstmn NULL c",
               al_lstmn_forward(f, NULL, f + 8, f + 16, f + 20, f + 24, f + 28, f + 32, f + 36,
                                f + 44, 1, 2, 1, 1) == AL_ERR_ARGUMENT);
    check_true("lstmn H=0", al_lstmn_forward(f, f + 4, f + 8, f + 16, f + 20, f + 24, f + 28,
                                             f + 32, f + 36, f + 44, 1, 2, 1, 0) == AL_ERR_SHAPE);
    check_true("lstmn overflow",
               al_lstmn_forward(f, f + 4, f + 8, f + 16, f + 20, f + 24, f + 28, f + 32, f + 36,
                                f + 44, 1, 2, 1, 30000) == AL_ERR_OVERFLOW);
    check_true("lstmn backward NULL db",
               al_lstmn_backward(f + 64, f + 72, f + 80, f + 88, f + 96, f + 104, NULL, NULL, NULL,
                                 NULL, f + 16, f + 20, f + 24, f + 28, f + 32, f + 36, f + 44, 1, 2,
                                 1, 1) == AL_ERR_ARGUMENT);
    check_true("lstmn backward, no upstream, ok",
               al_lstmn_backward(f + 64, f + 72, f + 80, f + 88, f + 96, f + 104, f + 120, NULL,
                                 NULL, NULL, f + 16, f + 20, f + 24, f + 28, f + 32, f + 36, f + 44,
                                 1, 2, 1, 1) == AL_OK);
    check_true("memory-RNN calls free every block they allocate", al_alloc_live() == live);
}

int main(void)
{
    test_score();
    check_seed(1);
    for (int align = 0; align < 2; align++) {
        test_sarnn_case(1, 4, 2, 3, 2, align, 1); /* the tiny FD shape of the brief */
        test_sarnn_case(2, 4, 2, 3, 2, align, 1); /* batch */
        test_sarnn_case(1, 1, 2, 3, 2, align, 1); /* T = 1: attends to itself only */
        test_sarnn_case(1, 5, 3, 5, 4, align, 1); /* odd sizes, da on the vector width */
        test_sarnn_case(2, 9, 5, 6, 7, align, 0); /* forward at SIMD-tail sizes */
        test_sarnn_case(1, 24, 8, 16, 12, align, 0);
    }
    check_seed(2);
    test_lstmn_case(1, 4, 2, 3, 1);
    test_lstmn_case(2, 4, 2, 3, 1);
    test_lstmn_case(1, 1, 2, 3, 1);
    test_lstmn_case(1, 5, 3, 5, 1); /* H = 5: the score's vector loop and a tail */
    test_lstmn_case(2, 9, 5, 6, 0);
    test_lstmn_case(1, 24, 8, 16, 0);
    test_api_errors();
    return check_report("test_memory_rnn");
}
