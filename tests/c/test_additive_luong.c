/*
 * test_additive_luong.c: additive (Bahdanau), Luong (global, local-m, local-p) and key-query
 * attention against double-precision references written here from the papers' equations; every
 * backward against central finite differences of those references (every input and parameter);
 * the scalar twin of the additive score loop against its SIMD128 twin at da = 1..19 and large,
 * with tanh arguments from 1e-4 to 1e4; the validated API (batching, accumulation, status codes).
 *
 * Inputs are chosen to break wrong code: n = 1, odd sizes (dq 5, dk 7, da 3), fully masked rows,
 * values != keys, local windows that clip at both ends, scores with outliers.
 */
#include <string.h>

#include "attnlab.h"
#include "check.h"
#include "fixtures.h"
#include "kernels/attention_additive_luong.h"

#define ATOL 1e-6
#define RTOL 1e-5
#define FD_ATOL 1e-4
#define FD_RTOL 1e-2
#define FD_H 1e-6

/* ------------------------------------------------------------------ helpers */

/* n doubles that are exactly float values in [lo, hi) */
static double *dvec(long n, float lo, float hi)
{
    double *x = check_alloc(sizeof(double) * (size_t)(n ? n : 1));
    for (long i = 0; i < n; i++) x[i] = check_randf(lo, hi);
    return x;
}
static float *fvec(const double *x, long n)
{
    float *f = check_alloc(sizeof(float) * (size_t)(n ? n : 1));
    for (long i = 0; i < n; i++) f[i] = (float)x[i];
    return f;
}

/* the worst |diff| seen, printed at the end: forward vs double reference, backward vs FD */
static double worst_fwd, worst_fd;
static void close_fwd(const char *what, const float *a, const double *e, long n)
{
    track_worst(&worst_fwd, a, e, n);
    check_close_d(what, a, e, n, ATOL, RTOL);
}

/* softmax over the entries not masked (mask may be NULL); fully masked → zeros */
static void softmax_d(double *w, const double *e, const uint8_t *mask, int n)
{
    double m = -INFINITY, sum = 0;
    for (int j = 0; j < n; j++)
        if (!(mask && mask[j]) && e[j] > m) m = e[j];
    for (int j = 0; j < n; j++) {
        w[j] = (mask && mask[j]) || m == -INFINITY ? 0.0 : exp(e[j] - m);
        sum += w[j];
    }
    for (int j = 0; j < n; j++) w[j] = sum > 0 ? w[j] / sum : 0.0;
}

/* y [M] = A [M,K] (row stride lda) x [K] */
static void matvec_d(double *y, const double *A, int lda, const double *x, int M, int K)
{
    for (int m = 0; m < M; m++) {
        double s = 0;
        for (int k = 0; k < K; k++) s += A[(long)m * lda + k] * x[k];
        y[m] = s;
    }
}

/* A parameter for the finite-difference check: its double values (perturbed in place), and the
 * analytic gradient from the float kernel. */
struct param {
    const char *name;
    double *x;
    long n;
    const float *grad;
};
typedef double (*loss_fn)(void *ctx);

static void fd_check(const char *what, loss_fn f, void *ctx, const struct param *ps, int np)
{
    for (int p = 0; p < np; p++) {
        double *num = check_alloc(sizeof(double) * (size_t)ps[p].n);
        for (long i = 0; i < ps[p].n; i++) {
            double save = ps[p].x[i];
            ps[p].x[i] = save + FD_H;
            double lp = f(ctx);
            ps[p].x[i] = save - FD_H;
            double lm = f(ctx);
            ps[p].x[i] = save;
            num[i] = (lp - lm) / (2 * FD_H);
        }
        char name[200];
        snprintf(name, sizeof name, "%s: d%s vs finite differences", what, ps[p].name);
        track_worst(&worst_fd, ps[p].grad, num, ps[p].n);
        check_close_d(name, ps[p].grad, num, ps[p].n, FD_ATOL, FD_RTOL);
        free(num);
    }
}

/* ------------------------------------------------------------------ tanh and the score twins */

static void test_tanh(void)
{
    /* al_tanhf_scalar against libm in double over the whole range, both branches and the clamp */
    double worst = 0, at = 0;
    for (int i = -200000; i <= 200000; i++) {
        float x = (float)i * 1e-3f * (i % 7 == 0 ? 100.0f : 1.0f);
        double err = fabs((double)al_tanhf_scalar(x) - tanh((double)x));
        if (err > worst) {
            worst = err;
            at = x;
        }
    }
    static const float big[] = { 44.0f, 45.0f, 88.0f, 100.0f, 1e4f, 1e30f, 3e38f };
    int ok = 1;
    for (int i = 0; i < 7; i++)
        ok &= al_tanhf_scalar(big[i]) == 1.0f && al_tanhf_scalar(-big[i]) == -1.0f;
    printf("tanh: al_tanhf_scalar worst |diff| vs libm %.3g at x = %g\n", worst, at);
    check_true("al_tanhf_scalar within 2.5e-7 of tanh", worst < 2.5e-7);
    check_true("al_tanhf_scalar(±large) = ±1, never NaN", ok);
}

typedef void (*scores_fn)(float *, float *, const float *, const float *, const float *, int, int);

static void scores_case(int n, int da, float lo, float hi, double *worst_e)
{
    float *pre = falloc(da), *hk = falloc((long)n * da), *v = falloc(da);
    check_fill(pre, da, lo, hi);
    check_fill(hk, (long)n * da, lo, hi);
    check_fill(v, da, -1, 1);
    for (long i = 0; i < (long)n * da; i += 5)
        hk[i] *= -1e-4f / (fabsf(lo) + 1e-30f); /* small |x| too */
    double *ref = check_alloc(sizeof(double) * (size_t)n),
           *mag = check_alloc(sizeof(double) * (size_t)n);
    double *tref = check_alloc(sizeof(double) * (size_t)n * da);
    for (int j = 0; j < n; j++) {
        double s = 0, m = 0;
        for (int a = 0; a < da; a++) {
            double th = tanh((double)pre[a] + hk[(long)j * da + a]);
            tref[(long)j * da + a] = th;
            s += v[a] * th;
            m += fabs(v[a] * th);
        }
        ref[j] = s;
        mag[j] = m;
    }
    char what[160];
    float *e_s = falloc(n), *t_s = falloc((long)n * da);
    al_additive_scores_scalar(e_s, t_s, pre, hk, v, n, da);
    snprintf(what, sizeof what, "additive_scores_scalar n=%d da=%d x in [%g,%g] vs double", n, da,
             lo, hi);
    check_close_mag(what, e_s, ref, mag, n, ATOL, RTOL);
    snprintf(what, sizeof what, "additive_scores_scalar tanh values n=%d da=%d", n, da);
    check_close_d(what, t_s, tref, (long)n * da, 3e-7, 0); /* Cephes tanhf: ~2 ulp */
#if AL_SIMD128
    float *e_v = falloc(n), *t_v = falloc((long)n * da);
    al_additive_scores_simd128(e_v, t_v, pre, hk, v, n, da);
    double *es = check_alloc(sizeof(double) * (size_t)n);
    for (int j = 0; j < n; j++) es[j] = e_s[j];
    for (int j = 0; j < n; j++) {
        double d = fabs((double)e_v[j] - e_s[j]);
        if (d > *worst_e) *worst_e = d;
    }
    snprintf(what, sizeof what, "additive_scores simd128 vs scalar n=%d da=%d x in [%g,%g]", n, da,
             lo, hi);
    check_close_mag(what, e_v, es, mag, n, ATOL, RTOL);
    snprintf(what, sizeof what, "additive_scores simd128 tanh == scalar tanh n=%d da=%d", n, da);
    check_close_f(what, t_v, t_s, (long)n * da, 0, 0); /* the same maths lane-wise: bit for bit */
    /* in place (t == hk), as the attention kernels call it */
    memcpy(t_v, hk, sizeof(float) * (size_t)n * da);
    al_additive_scores_simd128(e_v, t_v, pre, t_v, v, n, da);
    snprintf(what, sizeof what, "additive_scores simd128 in place n=%d da=%d", n, da);
    check_close_f(what, t_v, t_s, (long)n * da, 0, 0);
    free(e_v);
    free(t_v);
    free(es);
#endif
    free(pre);
    free(hk);
    free(v);
    free(ref);
    free(mag);
    free(tref);
    free(e_s);
    free(t_s);
}

static void test_scores_twins(void)
{
    check_seed(11);
    double worst = 0;
    static const float ranges[][2] = { { -1, 1 }, { -3, 3 }, { -60, 60 }, { -1e4f, 1e4f } };
    for (int r = 0; r < 4; r++) {
        for (int da = 1; da <= 19; da++)
            for (int n = 1; n <= 5; n++) scores_case(n, da, ranges[r][0], ranges[r][1], &worst);
        scores_case(64, 67, ranges[r][0], ranges[r][1], &worst);
        scores_case(300, 256, ranges[r][0], ranges[r][1], &worst);
    }
    printf("additive scores: worst |simd128 - scalar| %.3g%s\n", worst,
           AL_SIMD128 ? "" : " (no SIMD back end in this build)");
}

/* ------------------------------------------------------------------ additive */

struct additive_case {
    int n, dq, dk, dv, da, use_values;
    const uint8_t *mask;
    double *q, *K, *V, *Wq, *Wk, *b, *v, *gc, *gw;
};

static void additive_ref(double *ctx, double *w, const struct additive_case *c)
{
    double *pre = check_alloc(sizeof(double) * (size_t)c->da),
           *e = check_alloc(sizeof(double) * (size_t)c->n);
    matvec_d(pre, c->Wq, c->dq, c->q, c->da, c->dq);
    for (int j = 0; j < c->n; j++) {
        double s = 0;
        for (int a = 0; a < c->da; a++) {
            double x = pre[a] + c->b[a];
            for (int k = 0; k < c->dk; k++)
                x += c->Wk[(long)a * c->dk + k] * c->K[(long)j * c->dk + k];
            s += c->v[a] * tanh(x); /* e_j = vᵀ tanh(W_q s + W_k h_j + b) */
        }
        e[j] = s;
    }
    softmax_d(w, e, c->mask, c->n);
    const double *V = c->use_values ? c->V : c->K;
    int dv = c->use_values ? c->dv : c->dk;
    for (int i = 0; i < dv; i++) {
        double s = 0;
        for (int j = 0; j < c->n; j++) s += w[j] * V[(long)j * dv + i];
        ctx[i] = s;
    }
    free(pre);
    free(e);
}

static double additive_loss(void *p)
{
    const struct additive_case *c = p;
    int dv = c->use_values ? c->dv : c->dk;
    double *ctx = check_alloc(sizeof(double) * (size_t)dv),
           *w = check_alloc(sizeof(double) * (size_t)c->n);
    additive_ref(ctx, w, c);
    double L = 0;
    for (int i = 0; i < dv; i++) L += ctx[i] * c->gc[i];
    for (int j = 0; j < c->n; j++) L += w[j] * c->gw[j];
    free(ctx);
    free(w);
    return L;
}

static void test_additive_case(int n, int dq, int dk, int dv, int da, int use_values,
                               const uint8_t *mask, float kscale)
{
    struct additive_case c = {
        n, dq, dk, use_values ? dv : dk, da, use_values, mask, 0, 0, 0, 0, 0, 0, 0, 0, 0
    };
    dv = c.dv;
    c.q = dvec(dq, -1, 1);
    c.K = dvec((long)n * dk, -kscale, kscale);
    c.V = dvec((long)n * dv, -1, 1);
    c.Wq = dvec((long)da * dq, -1, 1);
    c.Wk = dvec((long)da * dk, -1, 1);
    c.b = dvec(da, -0.5f, 0.5f);
    c.v = dvec(da, -2, 2);
    c.gc = dvec(dv, -1, 1);
    c.gw = dvec(n, -1, 1);
    float *q = fvec(c.q, dq), *K = fvec(c.K, (long)n * dk), *V = fvec(c.V, (long)n * dv);
    float *Wq = fvec(c.Wq, (long)da * dq), *Wk = fvec(c.Wk, (long)da * dk), *b = fvec(c.b, da);
    float *v = fvec(c.v, da), *gc = fvec(c.gc, dv), *gw = fvec(c.gw, n);
    float *ctx = falloc(dv), *w = falloc(n);
    float *scratch = falloc(al_attn_additive_backward_scratch_floats(n, da));
    char what[160];
    snprintf(what, sizeof what, "additive n=%d dq=%d dk=%d dv=%d da=%d values=%d mask=%d", n, dq,
             dk, dv, da, use_values, mask != NULL);

    al_attn_additive_forward(ctx, w, q, K, use_values ? V : NULL, Wq, Wk, b, v, mask, n, dq, dk, dv,
                             da, scratch);
    double *rc = check_alloc(sizeof(double) * (size_t)dv),
           *rw = check_alloc(sizeof(double) * (size_t)n);
    additive_ref(rc, rw, &c);
    char w1[200];
    snprintf(w1, sizeof w1, "%s context", what);
    close_fwd(w1, ctx, rc, dv);
    snprintf(w1, sizeof w1, "%s weights", what);
    close_fwd(w1, w, rw, n);

    float *dq_ = falloc(dq), *dK = falloc((long)n * dk), *dV = falloc((long)n * dv);
    float *dWq = falloc((long)da * dq), *dWk = falloc((long)da * dk), *db = falloc(da),
          *dvp = falloc(da);
    al_attn_additive_backward(dq_, dK, dV, dWq, dWk, db, dvp, gc, gw, q, K, use_values ? V : NULL,
                              Wq, Wk, b, v, mask, n, dq, dk, dv, da, scratch);
    struct param ps[] = {
        { "query", c.q, dq, dq_ },
        { "keys", c.K, (long)n * dk, dK },
        { "W_q", c.Wq, (long)da * dq, dWq },
        { "W_k", c.Wk, (long)da * dk, dWk },
        { "bias", c.b, da, db },
        { "v", c.v, da, dvp },
        { "values", c.V, (long)n * dv, dV },
    };
    fd_check(what, additive_loss, &c, ps, use_values ? 7 : 6);

    free(c.q);
    free(c.K);
    free(c.V);
    free(c.Wq);
    free(c.Wk);
    free(c.b);
    free(c.v);
    free(c.gc);
    free(c.gw);
    free(q);
    free(K);
    free(V);
    free(Wq);
    free(Wk);
    free(b);
    free(v);
    free(gc);
    free(gw);
    free(ctx);
    free(w);
    free(scratch);
    free(rc);
    free(rw);
    free(dq_);
    free(dK);
    free(dV);
    free(dWq);
    free(dWk);
    free(db);
    free(dvp);
}

static void test_additive(void)
{
    check_seed(21);
    static const uint8_t mask6[] = { 0, 1, 0, 0, 1, 0 }, all6[] = { 1, 1, 1, 1, 1, 1 };
    test_additive_case(1, 5, 7, 7, 3, 0, NULL, 1);
    test_additive_case(6, 5, 7, 7, 3, 0, NULL, 1);
    test_additive_case(6, 5, 7, 4, 3, 1, NULL, 2);
    test_additive_case(6, 5, 7, 4, 3, 1, mask6, 2);
    test_additive_case(6, 4, 3, 4, 5, 0, all6, 1);
    test_additive_case(6, 4, 3, 2, 9, 1, all6, 1);
    test_additive_case(5, 8, 8, 8, 16, 0, NULL, 3); /* SIMD lanes in the score loop */
}

/* ------------------------------------------------------------------ Luong */

struct luong_case {
    int n, d, score, da, mode, dp;
    float D, t;
    const uint8_t *mask;
    double *h, *K, *Wa, *va, *Wc, *Wp, *vp, *gc, *gw, *ga, gp;
};

/* context [d], weights [n], attentional [d], *p; the window convention of the header */
static void luong_ref(double *ctx, double *w, double *att, double *pos, const struct luong_case *c)
{
    int n = c->n, d = c->d;
    double p = 0;
    if (c->mode == AL_LUONG_LOCAL_M) p = c->t;
    if (c->mode == AL_LUONG_LOCAL_P) {
        double z = 0;
        for (int i = 0; i < c->dp; i++) {
            double u = 0;
            for (int k = 0; k < d; k++) u += c->Wp[(long)i * d + k] * c->h[k];
            z += c->vp[i] * tanh(u);
        }
        p = n / (1 + exp(-z));
    }
    double *sc = check_alloc(sizeof(double) * (size_t)n);
    uint8_t *m = check_alloc((size_t)n);
    for (int s = 0; s < n; s++) {
        int in = c->mode == AL_LUONG_GLOBAL || (s >= p - c->D && s <= p + c->D);
        m[s] = !in || (c->mask && c->mask[s]);
        const double *hs = c->K + (long)s * d;
        double e = 0;
        if (c->score == AL_LUONG_DOT) {
            for (int k = 0; k < d; k++) e += c->h[k] * hs[k];
        } else if (c->score == AL_LUONG_GENERAL) {
            for (int i = 0; i < d; i++)
                for (int k = 0; k < d; k++) e += c->h[i] * c->Wa[(long)i * d + k] * hs[k];
        } else {
            for (int a = 0; a < c->da; a++) {
                double x = 0;
                for (int k = 0; k < d; k++)
                    x += c->Wa[(long)a * 2 * d + k] * c->h[k] +
                         c->Wa[(long)a * 2 * d + d + k] * hs[k];
                e += c->va[a] * tanh(x);
            }
        }
        sc[s] = e;
    }
    softmax_d(w, sc, m, n);
    if (c->mode != AL_LUONG_GLOBAL) {
        double sigma = c->D / 2.0;
        for (int s = 0; s < n; s++) w[s] *= exp(-(s - p) * (s - p) / (2 * sigma * sigma));
    }
    for (int k = 0; k < d; k++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += w[j] * c->K[(long)j * d + k];
        ctx[k] = s;
    }
    for (int i = 0; i < d; i++) {
        double z = 0;
        for (int k = 0; k < d; k++)
            z += c->Wc[(long)i * 2 * d + k] * ctx[k] + c->Wc[(long)i * 2 * d + d + k] * c->h[k];
        att[i] = tanh(z);
    }
    *pos = p;
    free(sc);
    free(m);
}

static double luong_loss(void *pc)
{
    const struct luong_case *c = pc;
    double *ctx = check_alloc(sizeof(double) * (size_t)c->d),
           *att = check_alloc(sizeof(double) * (size_t)c->d);
    double *w = check_alloc(sizeof(double) * (size_t)c->n), p;
    luong_ref(ctx, w, att, &p, c);
    double L = p * c->gp;
    for (int i = 0; i < c->d; i++) L += ctx[i] * c->gc[i] + att[i] * c->ga[i];
    for (int j = 0; j < c->n; j++) L += w[j] * c->gw[j];
    free(ctx);
    free(att);
    free(w);
    return L;
}

static void test_luong_case(int n, int d, int score, int da, int mode, float D, float t, int dp,
                            const uint8_t *mask, float wpscale)
{
    struct luong_case c;
    memset(&c, 0, sizeof c);
    c.n = n;
    c.d = d;
    c.score = score;
    c.da = da;
    c.mode = mode;
    c.dp = dp;
    c.D = D;
    c.t = t;
    c.mask = mask;
    long nWa = score == AL_LUONG_GENERAL  ? (long)d * d
               : score == AL_LUONG_CONCAT ? (long)da * 2 * d
                                          : 0;
    c.h = dvec(d, -1, 1);
    c.K = dvec((long)n * d, -1.5f, 1.5f);
    c.Wa = dvec(nWa, -1, 1);
    c.va = dvec(da, -2, 2);
    c.Wc = dvec(2L * d * d, -0.7f, 0.7f);
    c.Wp = dvec((long)dp * d, -wpscale, wpscale);
    c.vp = dvec(dp, -wpscale, wpscale);
    c.gc = dvec(d, -1, 1);
    c.gw = dvec(n, -1, 1);
    c.ga = dvec(d, -1, 1);
    c.gp = mode == AL_LUONG_LOCAL_P ? 0.37 : 0.0;
    float *h = fvec(c.h, d), *K = fvec(c.K, (long)n * d), *Wa = fvec(c.Wa, nWa),
          *va = fvec(c.va, da);
    float *Wc = fvec(c.Wc, 2L * d * d), *Wp = fvec(c.Wp, (long)dp * d), *vp = fvec(c.vp, dp);
    float *gc = fvec(c.gc, d), *gw = fvec(c.gw, n), *ga = fvec(c.ga, d), gp = (float)c.gp;
    int ea = score == AL_LUONG_CONCAT ? da : 0, ep = mode == AL_LUONG_LOCAL_P ? dp : 0;
    float *scratch = falloc(al_attn_luong_backward_scratch_floats(n, d, ea, ep));
    float *ctx = falloc(d), *w = falloc(n), *att = falloc(d), pos = -1;
    char what[200];
    snprintf(what, sizeof what, "luong score=%d mode=%d n=%d d=%d da=%d D=%g t=%g dp=%d mask=%d",
             score, mode, n, d, da, D, t, dp, mask != NULL);

    al_attn_luong_forward(ctx, w, att, &pos, h, K, Wa, va, Wc, Wp, vp, mask, n, d, score, ea, mode,
                          D, t, ep, scratch);
    double *rc = check_alloc(sizeof(double) * (size_t)d),
           *ra = check_alloc(sizeof(double) * (size_t)d);
    double *rw = check_alloc(sizeof(double) * (size_t)n), rp;
    luong_ref(rc, rw, ra, &rp, &c);
    char w1[260];
    snprintf(w1, sizeof w1, "%s context", what);
    close_fwd(w1, ctx, rc, d);
    snprintf(w1, sizeof w1, "%s weights", what);
    close_fwd(w1, w, rw, n);
    snprintf(w1, sizeof w1, "%s attentional", what);
    close_fwd(w1, att, ra, d);
    snprintf(w1, sizeof w1, "%s position", what);
    check_close_d(w1, &pos, &rp, 1, ATOL, RTOL);

    float *dh = falloc(d), *dK = falloc((long)n * d), *dWa = falloc(nWa), *dva = falloc(da);
    float *dWc = falloc(2L * d * d), *dWp = falloc((long)dp * d), *dvp = falloc(dp);
    al_attn_luong_backward(dh, dK, dWa, dva, dWc, dWp, dvp, gc, gw, ga, &gp, h, K, Wa, va, Wc, Wp,
                           vp, mask, n, d, score, ea, mode, D, t, ep, scratch);
    struct param ps[7];
    int np = 0;
    ps[np++] = (struct param){ "query", c.h, d, dh };
    ps[np++] = (struct param){ "keys", c.K, (long)n * d, dK };
    ps[np++] = (struct param){ "W_c", c.Wc, 2L * d * d, dWc };
    if (nWa) ps[np++] = (struct param){ "W_a", c.Wa, nWa, dWa };
    if (score == AL_LUONG_CONCAT) ps[np++] = (struct param){ "v_a", c.va, da, dva };
    if (mode == AL_LUONG_LOCAL_P) {
        ps[np++] = (struct param){ "W_p", c.Wp, (long)dp * d, dWp };
        ps[np++] = (struct param){ "v_p", c.vp, dp, dvp };
    }
    fd_check(what, luong_loss, &c, ps, np);

    free(c.h);
    free(c.K);
    free(c.Wa);
    free(c.va);
    free(c.Wc);
    free(c.Wp);
    free(c.vp);
    free(c.gc);
    free(c.gw);
    free(c.ga);
    free(h);
    free(K);
    free(Wa);
    free(va);
    free(Wc);
    free(Wp);
    free(vp);
    free(gc);
    free(gw);
    free(ga);
    free(scratch);
    free(ctx);
    free(w);
    free(att);
    free(rc);
    free(ra);
    free(rw);
    free(dh);
    free(dK);
    free(dWa);
    free(dva);
    free(dWc);
    free(dWp);
    free(dvp);
}

static void test_luong(void)
{
    check_seed(31);
    static const uint8_t mask7[] = { 0, 0, 1, 0, 0, 1, 0 }, all7[] = { 1, 1, 1, 1, 1, 1, 1 };
    for (int score = 0; score < 3; score++) {
        test_luong_case(1, 5, score, 3, AL_LUONG_GLOBAL, 0, 0, 0, NULL, 1);
        test_luong_case(7, 5, score, 3, AL_LUONG_GLOBAL, 0, 0, 0, NULL, 1);
        test_luong_case(7, 6, score, 5, AL_LUONG_GLOBAL, 0, 0, 0, mask7, 1);
        test_luong_case(7, 5, score, 3, AL_LUONG_GLOBAL, 0, 0, 0, all7, 1);
        /* local-m: windows clipping at the start, the end, both, interior, and outside */
        test_luong_case(7, 5, score, 3, AL_LUONG_LOCAL_M, 2, 0, 0, NULL, 1);
        test_luong_case(7, 5, score, 3, AL_LUONG_LOCAL_M, 2, 6, 0, mask7, 1);
        test_luong_case(7, 5, score, 3, AL_LUONG_LOCAL_M, 5, 3, 0, NULL, 1);
        test_luong_case(9, 5, score, 3, AL_LUONG_LOCAL_M, 1, 4, 0, NULL, 1);
        test_luong_case(7, 5, score, 3, AL_LUONG_LOCAL_M, 2, 20, 0, NULL, 1);
        test_luong_case(7, 5, score, 3, AL_LUONG_LOCAL_M, 1.5f, 2.25f, 0, NULL, 1);
        /* local-p: p_t anywhere in [0, n]; large W_p pushes it towards the ends */
        test_luong_case(7, 5, score, 3, AL_LUONG_LOCAL_P, 2, 0, 4, NULL, 1);
        test_luong_case(7, 5, score, 3, AL_LUONG_LOCAL_P, 2, 0, 3, mask7, 3);
        test_luong_case(10, 6, score, 5, AL_LUONG_LOCAL_P, 3, 0, 5, NULL, 2);
        test_luong_case(1, 5, score, 3, AL_LUONG_LOCAL_P, 1, 0, 3, NULL, 1);
    }
}

/* ------------------------------------------------------------------ key-query */

struct kq_case {
    int n, ds, dh, dk, dv, scaled;
    const uint8_t *mask;
    double *s, *H, *WQ, *WK, *WV, *gc, *gw;
};

static void kq_ref(double *ctx, double *w, const struct kq_case *c)
{
    double *q = check_alloc(sizeof(double) * (size_t)c->dk),
           *e = check_alloc(sizeof(double) * (size_t)c->n);
    double *kj = check_alloc(sizeof(double) * (size_t)c->dk),
           *vj = check_alloc(sizeof(double) * (size_t)c->dv);
    matvec_d(q, c->WQ, c->ds, c->s, c->dk, c->ds);
    for (int j = 0; j < c->n; j++) {
        matvec_d(kj, c->WK, c->dh, c->H + (long)j * c->dh, c->dk, c->dh); /* k_j = W_K h_j */
        double s = 0;
        for (int i = 0; i < c->dk; i++) s += kj[i] * q[i];
        e[j] = c->scaled ? s / sqrt((double)c->dk) : s;
    }
    softmax_d(w, e, c->mask, c->n);
    for (int i = 0; i < c->dv; i++) ctx[i] = 0;
    for (int j = 0; j < c->n; j++) {
        matvec_d(vj, c->WV, c->dh, c->H + (long)j * c->dh, c->dv, c->dh); /* v_j = W_V h_j */
        for (int i = 0; i < c->dv; i++) ctx[i] += w[j] * vj[i];
    }
    free(q);
    free(e);
    free(kj);
    free(vj);
}

static double kq_loss(void *pc)
{
    const struct kq_case *c = pc;
    double *ctx = check_alloc(sizeof(double) * (size_t)c->dv),
           *w = check_alloc(sizeof(double) * (size_t)c->n);
    kq_ref(ctx, w, c);
    double L = 0;
    for (int i = 0; i < c->dv; i++) L += ctx[i] * c->gc[i];
    for (int j = 0; j < c->n; j++) L += w[j] * c->gw[j];
    free(ctx);
    free(w);
    return L;
}

static void test_kq_case(int n, int ds, int dh, int dk, int dv, int scaled, const uint8_t *mask)
{
    struct kq_case c = { n, ds, dh, dk, dv, scaled, mask, 0, 0, 0, 0, 0, 0, 0 };
    c.s = dvec(ds, -1, 1);
    c.H = dvec((long)n * dh, -1.5f, 1.5f);
    c.WQ = dvec((long)dk * ds, -1, 1);
    c.WK = dvec((long)dk * dh, -1, 1);
    c.WV = dvec((long)dv * dh, -1, 1);
    c.gc = dvec(dv, -1, 1);
    c.gw = dvec(n, -1, 1);
    float *s = fvec(c.s, ds), *H = fvec(c.H, (long)n * dh), *WQ = fvec(c.WQ, (long)dk * ds);
    float *WK = fvec(c.WK, (long)dk * dh), *WV = fvec(c.WV, (long)dv * dh), *gc = fvec(c.gc, dv),
          *gw = fvec(c.gw, n);
    float *scratch = falloc(al_attn_key_query_backward_scratch_floats(n, dh, dk));
    float *ctx = falloc(dv), *w = falloc(n);
    char what[160], w1[200];
    snprintf(what, sizeof what, "key_query n=%d ds=%d dh=%d dk=%d dv=%d scaled=%d mask=%d", n, ds,
             dh, dk, dv, scaled, mask != NULL);
    al_attn_key_query_forward(ctx, w, s, H, WQ, WK, WV, mask, n, ds, dh, dk, dv, scaled, scratch);
    double *rc = check_alloc(sizeof(double) * (size_t)dv),
           *rw = check_alloc(sizeof(double) * (size_t)n);
    kq_ref(rc, rw, &c);
    snprintf(w1, sizeof w1, "%s context", what);
    close_fwd(w1, ctx, rc, dv);
    snprintf(w1, sizeof w1, "%s weights", what);
    close_fwd(w1, w, rw, n);
    float *dsq = falloc(ds), *dH = falloc((long)n * dh), *dWQ = falloc((long)dk * ds);
    float *dWK = falloc((long)dk * dh), *dWV = falloc((long)dv * dh);
    al_attn_key_query_backward(dsq, dH, dWQ, dWK, dWV, gc, gw, s, H, WQ, WK, WV, mask, n, ds, dh,
                               dk, dv, scaled, scratch);
    struct param ps[] = {
        { "query", c.s, ds, dsq },           { "keys", c.H, (long)n * dh, dH },
        { "W_Q", c.WQ, (long)dk * ds, dWQ }, { "W_K", c.WK, (long)dk * dh, dWK },
        { "W_V", c.WV, (long)dv * dh, dWV },
    };
    fd_check(what, kq_loss, &c, ps, 5);
    free(c.s);
    free(c.H);
    free(c.WQ);
    free(c.WK);
    free(c.WV);
    free(c.gc);
    free(c.gw);
    free(s);
    free(H);
    free(WQ);
    free(WK);
    free(WV);
    free(gc);
    free(gw);
    free(scratch);
    free(ctx);
    free(w);
    free(rc);
    free(rw);
    free(dsq);
    free(dH);
    free(dWQ);
    free(dWK);
    free(dWV);
}

static void test_key_query(void)
{
    check_seed(41);
    static const uint8_t mask6[] = { 1, 0, 0, 1, 0, 0 }, all6[] = { 1, 1, 1, 1, 1, 1 };
    for (int scaled = 0; scaled < 2; scaled++) {
        test_kq_case(1, 5, 7, 3, 4, scaled, NULL);
        test_kq_case(6, 5, 7, 3, 4, scaled, NULL);
        test_kq_case(6, 4, 3, 6, 2, scaled, mask6);
        test_kq_case(6, 4, 3, 6, 2, scaled, all6);
    }
}

/* ------------------------------------------------------------------ the validated API */

/* batched API = the kernel row by row; backward accumulates; bad arguments give statuses */
static void test_api(void)
{
    check_seed(51);
    const int B = 2, n = 5, dq = 4, dk = 3, dv = 2, da = 6;
    float *q = falloc(B * dq), *K = falloc(B * n * dk), *V = falloc(B * n * dv),
          *Wq = falloc(da * dq);
    float *Wk = falloc(da * dk), *b = falloc(da), *v = falloc(da);
    uint8_t mask[10] = { 0, 1, 0, 0, 0, 1, 1, 1, 1, 1 }; /* batch row 1 fully masked */
    check_fill(q, B * dq, -1, 1);
    check_fill(K, B * n * dk, -1, 1);
    check_fill(V, B * n * dv, -1, 1);
    check_fill(Wq, da * dq, -1, 1);
    check_fill(Wk, da * dk, -1, 1);
    check_fill(b, da, -1, 1);
    check_fill(v, da, -1, 1);
    float ctx[4], w[10], ctx1[2], w1[5];
    float *scratch = falloc(al_attn_additive_backward_scratch_floats(n, da));
    check_true("al_additive_attention_forward batched ok",
               al_additive_attention_forward(ctx, w, q, K, V, Wq, Wk, b, v, mask, B, n, dq, dk, dv,
                                             da) == AL_OK);
    for (int bi = 0; bi < B; bi++) {
        al_attn_additive_forward(ctx1, w1, q + bi * dq, K + bi * n * dk, V + bi * n * dv, Wq, Wk, b,
                                 v, mask + bi * n, n, dq, dk, dv, da, scratch);
        check_close_f("additive batched context = per row", ctx + bi * dv, ctx1, dv, 0, 0);
        check_close_f("additive batched weights = per row", w + bi * n, w1, n, 0, 0);
    }
    check_true("fully masked batch row: zero weights and context",
               w[5] == 0 && w[9] == 0 && ctx[2] == 0 && ctx[3] == 0);
    check_true("additive forward without weights ok",
               al_additive_attention_forward(ctx1, NULL, q, K, V, Wq, Wk, b, v, NULL, 1, n, dq, dk,
                                             dv, da) == AL_OK);
    /* accumulation: two backward calls give twice one */
    float gc[4] = { 0.3f, -0.2f, 0.5f, 0.1f },
          gw[10] = { 0.1f, 0.2f, -0.3f, 0.4f, 0.5f, 1, 1, 1, 1, 1 };
    float *g1[7], *g2[7];
    const long sizes[7] = { B * dq, B * n * dk, B * n * dv, da * dq, da * dk, da, da };
    for (int i = 0; i < 7; i++) {
        g1[i] = falloc(sizes[i]);
        g2[i] = falloc(sizes[i]);
    }
    al_status s1 =
        al_additive_attention_backward(g1[0], g1[1], g1[2], g1[3], g1[4], g1[5], g1[6], gc, gw, q,
                                       K, V, Wq, Wk, b, v, mask, B, n, dq, dk, dv, da);
    for (int r = 0; r < 2; r++)
        al_additive_attention_backward(g2[0], g2[1], g2[2], g2[3], g2[4], g2[5], g2[6], gc, gw, q,
                                       K, V, Wq, Wk, b, v, mask, B, n, dq, dk, dv, da);
    check_true("additive backward ok", s1 == AL_OK);
    for (int i = 0; i < 7; i++) {
        for (long j = 0; j < sizes[i]; j++) g1[i][j] *= 2;
        check_close_f("additive backward accumulates (+=)", g2[i], g1[i], sizes[i], 1e-6, 1e-6);
    }
    check_true("fully masked batch row: zero key gradient",
               g1[1][n * dk] == 0 && g1[1][2 * n * dk - 1] == 0 && g1[2][n * dv] == 0);

    /* status codes */
    check_true("additive NULL query",
               al_additive_attention_forward(ctx, w, NULL, K, V, Wq, Wk, b, v, NULL, 1, n, dq, dk,
                                             dv, da) == AL_ERR_ARGUMENT);
    check_true("additive n = 0",
               al_additive_attention_forward(ctx, w, q, K, V, Wq, Wk, b, v, NULL, 1, 0, dq, dk, dv,
                                             da) == AL_ERR_SHAPE);
    check_true("additive values NULL with dv != dk",
               al_additive_attention_forward(ctx, w, q, K, NULL, Wq, Wk, b, v, NULL, 1, n, dq, dk,
                                             dv, da) == AL_ERR_SHAPE);
    check_true("additive overflow",
               al_additive_attention_forward(ctx, w, q, K, V, Wq, Wk, b, v, NULL, 65536, 65536, dq,
                                             dk, dv, da) == AL_ERR_OVERFLOW);
    check_true("additive backward NULL dvalues with values",
               al_additive_attention_backward(g1[0], g1[1], NULL, g1[3], g1[4], g1[5], g1[6], gc,
                                              gw, q, K, V, Wq, Wk, b, v, NULL, 1, n, dq, dk, dv,
                                              da) == AL_ERR_ARGUMENT);
    float Wc[2 * 3 * 3] = { 0 }, Wa[9] = { 0 }, att[6], pos[2];
    check_true("luong unknown score",
               al_luong_attention_forward(ctx, w, att, q, K, Wa, NULL, Wc, NULL, 1, n, 3, 3, 0) ==
                   AL_ERR_ARGUMENT);
    check_true("luong general without W_a",
               al_luong_attention_forward(ctx, w, att, q, K, NULL, NULL, Wc, NULL, 1, n, 3, 1, 0) ==
                   AL_ERR_ARGUMENT);
    check_true("luong concat da = 0", al_luong_attention_forward(ctx, w, att, q, K, Wa, v, Wc, NULL,
                                                                 1, n, 3, 2, 0) == AL_ERR_SHAPE);
    check_true("luong dot ok", al_luong_attention_forward(ctx, w, att, q, K, NULL, NULL, Wc, NULL,
                                                          1, n, 3, 0, 0) == AL_OK);
    check_true("luong local window 0", al_luong_local_attention_forward(
                                           ctx, w, att, pos, q, K, NULL, NULL, Wc, NULL, NULL, NULL,
                                           1, n, 3, 0, 0, 0, 0.0f, 1.0f, 0) == AL_ERR_ARGUMENT);
    check_true("luong local window 1e-45 (2σ² would underflow)",
               al_luong_local_attention_forward(ctx, w, att, pos, q, K, NULL, NULL, Wc, NULL, NULL,
                                                NULL, 1, n, 3, 0, 0, 0, 1e-45f, 1.0f,
                                                0) == AL_ERR_ARGUMENT);
    { /* a NaN query makes p_t NaN (local-p): the empty window, no crash (a fuzzer finding) */
        float qn[3] = { NAN, 1.0f, 0.5f }, Wp[2 * 3] = { 0.3f, 0.3f, 0.3f, 0.3f, 0.3f, 0.3f },
              vp[2] = { 1.0f, 1.0f };
        al_status st = al_luong_local_attention_forward(ctx, w, att, pos, qn, K, NULL, NULL, Wc, Wp,
                                                        vp, NULL, 1, n, 3, 0, 0, 1, 2.0f, 0.0f, 2);
        int zero = 1;
        for (int i = 0; i < n; i++) zero &= w[i] == 0.0f;
        check_true("luong local-p with a NaN query: empty window, zero weights",
                   st == AL_OK && zero);
    }
    check_true("luong local t NaN", al_luong_local_attention_forward(
                                        ctx, w, att, pos, q, K, NULL, NULL, Wc, NULL, NULL, NULL, 1,
                                        n, 3, 0, 0, 0, 2.0f, NAN, 0) == AL_ERR_ARGUMENT);
    check_true("luong local bad mode", al_luong_local_attention_forward(
                                           ctx, w, att, pos, q, K, NULL, NULL, Wc, NULL, NULL, NULL,
                                           1, n, 3, 0, 0, -1, 2.0f, 1.0f, 0) == AL_ERR_ARGUMENT);
    check_true("luong local-p without W_p",
               al_luong_local_attention_forward(ctx, w, att, pos, q, K, NULL, NULL, Wc, NULL, NULL,
                                                NULL, 1, n, 3, 0, 0, 1, 2.0f, 0.0f,
                                                2) == AL_ERR_ARGUMENT);
    check_true("luong local-m ok, p = t",
               al_luong_local_attention_forward(ctx, w, att, pos, q, K, NULL, NULL, Wc, NULL, NULL,
                                                NULL, 1, n, 3, 0, 0, 0, 2.0f, 3.0f, 0) == AL_OK &&
                   pos[0] == 3.0f);
    check_true("key_query NULL W_V",
               al_key_query_attention_forward(ctx, w, q, K, Wq, Wk, NULL, NULL, 1, n, 4, 3, 6, 2,
                                              1) == AL_ERR_ARGUMENT);
    check_true("key_query dk = 0",
               al_key_query_attention_forward(ctx, w, q, K, Wq, Wk, Wk, NULL, 1, n, 4, 3, 0, 2,
                                              1) == AL_ERR_SHAPE);
    check_true("no leaks in the API", al_alloc_live() == 0);
    for (int i = 0; i < 7; i++) {
        free(g1[i]);
        free(g2[i]);
    }
    free(q);
    free(K);
    free(V);
    free(Wq);
    free(Wk);
    free(b);
    free(v);
    free(scratch);
}

int main(void)
{
    test_tanh();
    test_scores_twins();
    test_additive();
    test_luong();
    test_key_query();
    test_api();
    printf("additive/luong/key-query: worst |forward - double reference| %.3g, "
           "worst |backward - finite differences| %.3g\n",
           worst_fwd, worst_fd);
    return check_report("test_additive_luong");
}
