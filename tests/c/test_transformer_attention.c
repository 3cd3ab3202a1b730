/*
 * test_transformer_attention.c: the transformer attention family (SDPA backward, multi-head
 * attention, Shaw relative position attention) against double-precision references written here
 * from the equations, and every gradient of every input and parameter against central finite
 * differences of those references (in double, h = 1e-5, so the only float error is the kernel's).
 *
 * Loss for the gradients: L = Σ gout·out + Σ gatt·att with random gout, gatt, so the upstream
 * gradient of BOTH outputs (output and weights) is exercised. Shapes are tiny and odd (E = 6 with
 * 2 or 3 heads, L != S, n = 1, k below and above n), masks include a fully masked batch element
 * (zeros, never NaN) and causal with L > S and L < S. Also: status codes for bad arguments, the
 * relative distance matrix, self-attention through one shared gradient buffer, and no leaks.
 */
#include <string.h>

#include "attnlab.h"
#include "check.h"
#include "fixtures.h"
#include "kernels/attention_transformer.h"

#define ATOL 2e-6 /* whole mechanisms (two or three chained products) vs double: a bit above 1e-6 */
#define RTOL 1e-5
#define FD_ATOL 1e-4
#define FD_RTOL 1e-2

/* the worst |float − reference| seen, printed at the end */
static double worst_fwd, worst_fd;

/* ------------------------------------------------------------------ double references */

/* one head: out [T,Dv] (row stride ldo), att [T,S]; q/k/v rows with strides; mask [S] or NULL */
static void sdpa_ref(double *out, int ldo, double *att, const double *q, int ldq, const double *k,
                     int ldk, const double *v, int ldv, int T, int S, int D, int Dv, double scale,
                     const uint8_t *mask, int causal)
{
    for (int t = 0; t < T; t++) {
        double m = -INFINITY;
        double *a = att + (long)t * S;
        for (int s = 0; s < S; s++) {
            int hidden = (mask && mask[s]) || (causal && s > t);
            double e = 0;
            for (int d = 0; d < D; d++) e += q[(long)t * ldq + d] * k[(long)s * ldk + d];
            a[s] = hidden ? -INFINITY : e * scale;
            if (a[s] > m) m = a[s];
        }
        double sum = 0;
        for (int s = 0; s < S; s++) {
            a[s] = isinf(m) ? 0.0 : exp(a[s] - m); /* exp(-inf) = 0 on hidden keys */
            sum += a[s];
        }
        for (int s = 0; s < S; s++) a[s] = sum > 0 ? a[s] / sum : 0.0;
        for (int d = 0; d < Dv; d++) {
            double o = 0;
            for (int s = 0; s < S; s++) o += a[s] * v[(long)s * ldv + d];
            out[(long)t * ldo + d] = o;
        }
    }
}

/* y [R,O] = x [R,I] Wᵀ + b  (W [O,I], b [O] or NULL) */
static void linear_ref(double *y, const double *x, const double *W, const double *b, int R, int I,
                       int O)
{
    for (int r = 0; r < R; r++)
        for (int o = 0; o < O; o++) {
            double acc = b ? b[o] : 0.0;
            for (int i = 0; i < I; i++) acc += x[(long)r * I + i] * W[(long)o * I + i];
            y[(long)r * O + o] = acc;
        }
}

struct mha_case {
    int B, T, S, E, H, causal, bias, self;
    const uint8_t *mask; /* [B,S] or NULL */
};

/* p: query, key, value, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias */
static void mha_ref(const struct mha_case *c, double **p, double *out, double *att)
{
    int T = c->T, S = c->S, E = c->E, H = c->H, Dh = E / H;
    double *Q = dalloc((long)T * E), *K = dalloc((long)S * E), *V = dalloc((long)S * E);
    double *ctx = dalloc((long)T * E);
    for (int b = 0; b < c->B; b++) {
        const double *query = p[0] + (long)b * T * E;
        const double *key = c->self ? query : p[1] + (long)b * S * E;
        const double *value = c->self ? query : p[2] + (long)b * S * E;
        const uint8_t *mask = c->mask ? c->mask + (long)b * S : NULL;
        linear_ref(Q, query, p[3], c->bias ? p[4] : NULL, T, E, E);
        linear_ref(K, key, p[3] + (long)E * E, c->bias ? p[4] + E : NULL, S, E, E);
        linear_ref(V, value, p[3] + 2L * E * E, c->bias ? p[4] + 2 * E : NULL, S, E, E);
        for (int h = 0; h < H; h++)
            sdpa_ref(ctx + h * Dh, E, att + ((long)b * H + h) * T * S, Q + h * Dh, E, K + h * Dh, E,
                     V + h * Dh, E, T, S, Dh, Dh, 1.0 / sqrt((double)Dh), mask, c->causal);
        double *o = out + (long)b * T * E;
        /* a row with no visible key has a zero ctx row (sdpa_ref), so its output is out_proj.bias */
        linear_ref(o, ctx, p[5], c->bias ? p[6] : NULL, T, E, E);
    }
    free(Q);
    free(K);
    free(V);
    free(ctx);
}

struct relpos_case {
    int B, n, d, dz, H, k, causal;
    const uint8_t *mask; /* [B,n] or NULL */
};

/* p: x, W_Q, W_K, W_V, rel_K, rel_V; straight from Shaw et al. eqs. 3-4 */
static void relpos_ref(const struct relpos_case *c, double **p, double *out, double *att)
{
    int n = c->n, d = c->d, dz = c->dz, H = c->H, k = c->k, Dh = dz / H;
    double *Q = dalloc((long)n * dz), *K = dalloc((long)n * dz), *V = dalloc((long)n * dz);
    for (int b = 0; b < c->B; b++) {
        const double *x = p[0] + (long)b * n * d;
        const uint8_t *mask = c->mask ? c->mask + (long)b * n : NULL;
        linear_ref(Q, x, p[1], NULL, n, d, dz);
        linear_ref(K, x, p[2], NULL, n, d, dz);
        linear_ref(V, x, p[3], NULL, n, d, dz);
        for (int h = 0; h < H; h++) {
            double *a = att + ((long)b * H + h) * n * n;
            for (int i = 0; i < n; i++) {
                double m = -INFINITY, sum = 0;
                for (int j = 0; j < n; j++) {
                    int r = j - i < -k ? 0 : j - i > k ? 2 * k : j - i + k;
                    double e = 0;
                    for (int u = 0; u < Dh; u++)
                        e += Q[(long)i * dz + h * Dh + u] *
                             (K[(long)j * dz + h * Dh + u] + p[4][(long)r * Dh + u]);
                    int hidden = (mask && mask[j]) || (c->causal && j > i);
                    a[(long)i * n + j] = hidden ? -INFINITY : e / sqrt((double)Dh);
                    if (a[(long)i * n + j] > m) m = a[(long)i * n + j];
                }
                for (int j = 0; j < n; j++) {
                    a[(long)i * n + j] = isinf(m) ? 0.0 : exp(a[(long)i * n + j] - m);
                    sum += a[(long)i * n + j];
                }
                for (int j = 0; j < n; j++)
                    a[(long)i * n + j] = sum > 0 ? a[(long)i * n + j] / sum : 0.0;
                for (int u = 0; u < Dh; u++) {
                    double z = 0;
                    for (int j = 0; j < n; j++) {
                        int r = j - i < -k ? 0 : j - i > k ? 2 * k : j - i + k;
                        z += a[(long)i * n + j] *
                             (V[(long)j * dz + h * Dh + u] + p[5][(long)r * Dh + u]);
                    }
                    out[((long)b * n + i) * dz + h * Dh + u] = z;
                }
            }
        }
    }
    free(Q);
    free(K);
    free(V);
}

struct sdpa_case {
    int B, H, T, S, D, Dv, causal;
    float scale;         /* 0 = 1/√D */
    const uint8_t *mask; /* [B,S] or NULL */
};

/* p: q, k, v */
static void sdpa_batched_ref(const struct sdpa_case *c, double **p, double *out, double *att)
{
    double scale = c->scale != 0.0f ? c->scale : 1.0 / sqrt((double)c->D);
    for (int b = 0; b < c->B; b++)
        for (int h = 0; h < c->H; h++) {
            long hd = (long)b * c->H + h;
            sdpa_ref(out + hd * c->T * c->Dv, c->Dv, att + hd * c->T * c->S,
                     p[0] + hd * c->T * c->D, c->D, p[1] + hd * c->S * c->D, c->D,
                     p[2] + hd * c->S * c->Dv, c->Dv, c->T, c->S, c->D, c->Dv, scale,
                     c->mask ? c->mask + (long)b * c->S : NULL, c->causal);
        }
}

/* ------------------------------------------------------------------ finite differences */

typedef void (*ref_fn)(const void *c, double **p, double *out, double *att);

/* L = Σ gout·out + Σ gatt·att from the double reference at parameters p */
static double loss_ref(ref_fn f, const void *c, double **p, long nout, long natt, const float *gout,
                       const float *gatt)
{
    double *out = dalloc(nout), *att = dalloc(natt), L = 0;
    f(c, p, out, att);
    for (long i = 0; i < nout; i++) L += gout[i] * out[i];
    for (long i = 0; i < natt; i++) L += gatt[i] * att[i];
    free(out);
    free(att);
    return L;
}

/* analytic[i] (float, from the kernel) against central differences of loss_ref in each p[i] */
static void fd_check(const char *what, ref_fn f, const void *c, int np, const char *const *names,
                     float *const *pf, const long *sizes, float *const *analytic, long nout,
                     long natt, const float *gout, const float *gatt)
{
    double *pd[8];
    for (int i = 0; i < np; i++) {
        pd[i] = dalloc(sizes[i]);
        for (long e = 0; e < sizes[i]; e++) pd[i][e] = pf[i][e];
    }
    for (int i = 0; i < np; i++) {
        if (!analytic[i]) continue;
        double *num = dalloc(sizes[i]);
        const double h = 1e-5;
        for (long e = 0; e < sizes[i]; e++) {
            double s = pd[i][e];
            pd[i][e] = s + h;
            double lp = loss_ref(f, c, pd, nout, natt, gout, gatt);
            pd[i][e] = s - h;
            double lm = loss_ref(f, c, pd, nout, natt, gout, gatt);
            pd[i][e] = s;
            num[e] = (lp - lm) / (2 * h);
        }
        char label[160];
        snprintf(label, sizeof label, "%s d%s vs finite differences", what, names[i]);
        check_close_d(label, analytic[i], num, sizes[i], FD_ATOL, FD_RTOL);
        track_worst(&worst_fd, analytic[i], num, sizes[i]);
        free(num);
    }
    for (int i = 0; i < np; i++) free(pd[i]);
}

/* forward float results against the double reference at the float parameters */
static void forward_check(const char *what, ref_fn f, const void *c, int np, float *const *pf,
                          const long *sizes, const float *out, long nout, const float *att,
                          long natt)
{
    double *pd[8];
    for (int i = 0; i < np; i++) {
        pd[i] = dalloc(sizes[i]);
        for (long e = 0; e < sizes[i]; e++) pd[i][e] = pf[i][e];
    }
    double *ro = dalloc(nout), *ra = dalloc(natt);
    f(c, pd, ro, ra);
    char label[160];
    snprintf(label, sizeof label, "%s output vs double", what);
    check_close_d(label, out, ro, nout, ATOL, RTOL);
    track_worst(&worst_fwd, out, ro, nout);
    if (att) {
        track_worst(&worst_fwd, att, ra, natt);
        snprintf(label, sizeof label, "%s weights vs double", what);
        check_close_d(label, att, ra, natt, ATOL, RTOL);
    }
    int finite = 1;
    for (long i = 0; i < nout; i++) finite &= isfinite(out[i]);
    snprintf(label, sizeof label, "%s output is finite", what);
    check_true(label, finite);
    free(ro);
    free(ra);
    for (int i = 0; i < np; i++) free(pd[i]);
}

/* ------------------------------------------------------------------ SDPA backward */

static void sdpa_ref_cb(const void *c, double **p, double *out, double *att)
{
    sdpa_batched_ref(c, p, out, att);
}

static void test_sdpa_backward_case(const char *what, const struct sdpa_case *c)
{
    long nq = (long)c->B * c->H * c->T * c->D, nk = (long)c->B * c->H * c->S * c->D;
    long nv = (long)c->B * c->H * c->S * c->Dv, nout = (long)c->B * c->H * c->T * c->Dv;
    long natt = (long)c->B * c->H * c->T * c->S;
    float *q = falloc(nq), *k = falloc(nk), *v = falloc(nv), *out = falloc(nout),
          *att = falloc(natt);
    float *gout = falloc(nout), *gatt = falloc(natt);
    float *dq = falloc(nq), *dk = falloc(nk), *dv = falloc(nv);
    float *dq2 = falloc(nq), *dk2 = falloc(nk), *dv2 = falloc(nv);
    check_fill(q, nq, -1.5f, 1.5f);
    check_fill(k, nk, -1.5f, 1.5f);
    check_fill(v, nv, -1, 1);
    check_fill(gout, nout, -1, 1);
    check_fill(gatt, natt, -1, 1);
    check_true("sdpa forward ok", al_sdpa(out, att, q, k, v, c->B, c->H, c->T, c->S, c->D, c->Dv,
                                          c->scale, c->mask, c->causal) == AL_OK);
    /* recomputed weights */
    check_true("sdpa backward ok",
               al_sdpa_backward(dq, dk, dv, gout, gatt, NULL, q, k, v, c->B, c->H, c->T, c->S, c->D,
                                c->Dv, c->scale, c->mask, c->causal) == AL_OK);
    float *pf[3] = { q, k, v };
    long sizes[3] = { nq, nk, nv };
    const char *names[3] = { "q", "k", "v" };
    float *an[3] = { dq, dk, dv };
    fd_check(what, sdpa_ref_cb, c, 3, names, pf, sizes, an, nout, natt, gout, gatt);
    /* given weights: the same gradients; and the accumulation convention (+=) */
    memcpy(dq2, dq, sizeof(float) * (size_t)nq);
    memcpy(dk2, dk, sizeof(float) * (size_t)nk);
    memcpy(dv2, dv, sizeof(float) * (size_t)nv);
    al_sdpa_backward(dq2, dk2, dv2, gout, gatt, att, q, k, v, c->B, c->H, c->T, c->S, c->D, c->Dv,
                     c->scale, c->mask, c->causal);
    for (long i = 0; i < nq; i++) dq[i] *= 2;
    for (long i = 0; i < nk; i++) dk[i] *= 2;
    for (long i = 0; i < nv; i++) dv[i] *= 2;
    char label[160];
    snprintf(label, sizeof label, "%s given weights accumulate dq", what);
    check_close_f(label, dq2, dq, nq, ATOL, RTOL);
    snprintf(label, sizeof label, "%s given weights accumulate dk", what);
    check_close_f(label, dk2, dk, nk, ATOL, RTOL);
    snprintf(label, sizeof label, "%s given weights accumulate dv", what);
    check_close_f(label, dv2, dv, nv, ATOL, RTOL);
    free(q);
    free(k);
    free(v);
    free(out);
    free(att);
    free(gout);
    free(gatt);
    free(dq);
    free(dk);
    free(dv);
    free(dq2);
    free(dk2);
    free(dv2);
}

static void test_sdpa_backward(void)
{
    check_seed(101);
    static const uint8_t mask_dead[2 * 5] = { 0, 1, 0, 0, 1, 1, 1, 1, 1, 1 };
    static const uint8_t mask_causal[2 * 6] = { 0, 0, 1, 0, 0, 1, 1, 1, 0, 0, 0, 0 };
    struct sdpa_case plain = { 1, 1, 3, 5, 4, 3, 0, 0.0f, NULL };
    struct sdpa_case one = { 1, 1, 1, 1, 2, 2, 0, 0.0f, NULL };
    struct sdpa_case heads = { 2, 2, 3, 5, 3, 2, 0, 0.0f, mask_dead };
    struct sdpa_case causal_long = { 1, 2, 6, 3, 4, 3, 1, 0.0f, NULL };
    struct sdpa_case causal_mask = { 2, 1, 4, 6, 3, 5, 1, 1.25f, mask_causal };
    test_sdpa_backward_case("sdpa T=3 S=5", &plain);
    test_sdpa_backward_case("sdpa T=S=1", &one);
    test_sdpa_backward_case("sdpa [2,2] dead batch", &heads);
    test_sdpa_backward_case("sdpa causal T>S", &causal_long);
    test_sdpa_backward_case("sdpa causal+mask scale 1.25", &causal_mask);
}

/* ------------------------------------------------------------------ MHA */

static void mha_ref_cb(const void *c, double **p, double *out, double *att)
{
    mha_ref(c, p, out, att);
}

static void test_mha_case(const char *what, const struct mha_case *c)
{
    int B = c->B, T = c->T, S = c->S, E = c->E, H = c->H;
    long sizes[7] = {
        (long)B * T * E, (long)B * S * E, (long)B * S * E, 3L * E * E, 3L * E, (long)E * E, E
    };
    const char *names[7] = { "query",          "key",          "value",
                             "in_proj_weight", "in_proj_bias", "out_proj.weight",
                             "out_proj.bias" };
    float *p[7], *g[7];
    for (int i = 0; i < 7; i++) {
        p[i] = falloc(sizes[i]);
        g[i] = falloc(sizes[i]);
        check_fill(p[i], sizes[i], -1, 1);
    }
    for (int i = 3; i < 7; i++) /* weights ~ 1/√E so scores stay O(1) */
        for (long e = 0; e < sizes[i]; e++) p[i][e] *= (float)(1.2 / sqrt((double)E));
    long nout = (long)B * T * E, natt = (long)B * H * T * S;
    float *out = falloc(nout), *att = falloc(natt), *out2 = falloc(nout);
    float *gout = falloc(nout), *gatt = falloc(natt);
    check_fill(gout, nout, -1, 1);
    check_fill(gatt, natt, -1, 1);
    const float *key = c->self ? p[0] : p[1], *value = c->self ? p[0] : p[2];
    const float *b_in = c->bias ? p[4] : NULL, *b_out = c->bias ? p[6] : NULL;
    check_true("mha forward ok", al_mha_forward(out, att, p[0], key, value, p[3], b_in, p[5], b_out,
                                                B, T, S, E, H, c->mask, c->causal) == AL_OK);
    forward_check(what, mha_ref_cb, c, 7, p, sizes, out, nout, att, natt);
    /* without weights: the same output */
    al_mha_forward(out2, NULL, p[0], key, value, p[3], b_in, p[5], b_out, B, T, S, E, H, c->mask,
                   c->causal);
    char label[160];
    snprintf(label, sizeof label, "%s output without weights", what);
    check_close_f(label, out2, out, nout, 0, 0);

    /* self-attention: one gradient buffer for query, key and value accumulates all three */
    float *dkey = c->self ? g[0] : g[1], *dvalue = c->self ? g[0] : g[2];
    check_true("mha backward ok",
               al_mha_backward(g[0], dkey, dvalue, g[3], c->bias ? g[4] : NULL, g[5],
                               c->bias ? g[6] : NULL, gout, gatt, p[0], key, value, p[3], b_in,
                               p[5], b_out, B, T, S, E, H, c->mask, c->causal) == AL_OK);
    float *an[7] = {
        g[0], c->self ? NULL : g[1], c->self ? NULL : g[2], g[3], c->bias ? g[4] : NULL,
        g[5], c->bias ? g[6] : NULL
    };
    fd_check(what, mha_ref_cb, c, 7, names, p, sizes, an, nout, natt, gout, gatt);
    for (int i = 0; i < 7; i++) {
        free(p[i]);
        free(g[i]);
    }
    free(out);
    free(att);
    free(out2);
    free(gout);
    free(gatt);
}

static void test_mha(void)
{
    check_seed(202);
    static const uint8_t mask_dead[2 * 4] = { 0, 1, 0, 1, 1, 1, 1, 1 };
    static const uint8_t mask_causal[5] = { 1, 0, 0, 1, 0 };
    struct mha_case basic = { 1, 3, 4, 6, 2, 0, 1, 0, NULL };
    struct mha_case h3 = { 1, 4, 4, 6, 3, 1, 1, 0, NULL };
    struct mha_case h4 = { 1, 2, 5, 12, 4, 0, 1, 0, NULL };
    struct mha_case dead = { 2, 3, 4, 6, 2, 0, 1, 0, mask_dead };
    struct mha_case self = { 1, 5, 5, 6, 2, 1, 1, 1, mask_causal };
    struct mha_case one = { 1, 1, 1, 4, 1, 0, 1, 0, NULL };
    struct mha_case nobias = { 2, 3, 2, 4, 2, 1, 0, 0, NULL };
    test_mha_case("mha E=6 H=2 T=3 S=4", &basic);
    test_mha_case("mha E=6 H=3 causal", &h3);
    test_mha_case("mha E=12 H=4", &h4);
    test_mha_case("mha dead batch", &dead);
    test_mha_case("mha self causal+mask", &self);
    test_mha_case("mha T=S=1", &one);
    test_mha_case("mha no bias causal T>S", &nobias);
}

/* ------------------------------------------------------------------ relative position */

static void relpos_ref_cb(const void *c, double **p, double *out, double *att)
{
    relpos_ref(c, p, out, att);
}

static void test_relpos_case(const char *what, const struct relpos_case *c)
{
    int B = c->B, n = c->n, d = c->d, dz = c->dz, H = c->H, R = 2 * c->k + 1;
    long sizes[6] = { (long)B * n * d, (long)dz * d,       (long)dz * d,
                      (long)dz * d,    (long)R * (dz / H), (long)R * (dz / H) };
    const char *names[6] = { "x", "W_Q", "W_K", "W_V", "rel_K", "rel_V" };
    float *p[6], *g[6];
    for (int i = 0; i < 6; i++) {
        p[i] = falloc(sizes[i]);
        g[i] = falloc(sizes[i]);
        check_fill(p[i], sizes[i], -1, 1);
    }
    long nout = (long)B * n * dz, natt = (long)B * H * n * n;
    float *out = falloc(nout), *att = falloc(natt), *gout = falloc(nout), *gatt = falloc(natt);
    check_fill(gout, nout, -1, 1);
    check_fill(gatt, natt, -1, 1);
    check_true("relpos forward ok",
               al_relpos_forward(out, att, p[0], p[1], p[2], p[3], p[4], p[5], B, n, d, dz, H, c->k,
                                 c->mask, c->causal) == AL_OK);
    forward_check(what, relpos_ref_cb, c, 6, p, sizes, out, nout, att, natt);
    check_true("relpos backward ok",
               al_relpos_backward(g[0], g[1], g[2], g[3], g[4], g[5], gout, gatt, p[0], p[1], p[2],
                                  p[3], p[4], p[5], B, n, d, dz, H, c->k, c->mask,
                                  c->causal) == AL_OK);
    fd_check(what, relpos_ref_cb, c, 6, names, p, sizes, g, nout, natt, gout, gatt);
    for (int i = 0; i < 6; i++) {
        free(p[i]);
        free(g[i]);
    }
    free(out);
    free(att);
    free(gout);
    free(gatt);
}

static void test_relpos(void)
{
    check_seed(303);
    static const uint8_t mask_dead[2 * 4] = { 0, 0, 1, 0, 1, 1, 1, 1 };
    struct relpos_case small_k = { 1, 5, 3, 4, 1, 1, 0, NULL };   /* k < n: clipping happens */
    struct relpos_case big_k = { 1, 4, 3, 4, 2, 6, 1, NULL };     /* k > n, two heads, causal */
    struct relpos_case dead = { 2, 4, 2, 6, 2, 2, 0, mask_dead }; /* a fully masked batch element */
    struct relpos_case k0 = { 1, 3, 2, 3, 1, 0, 0, NULL };        /* one shared table row */
    struct relpos_case one = { 1, 1, 3, 2, 2, 1, 1, NULL };       /* n = 1 */
    test_relpos_case("relpos k=1 n=5 H=1", &small_k);
    test_relpos_case("relpos k=6 n=4 H=2 causal", &big_k);
    test_relpos_case("relpos dead batch", &dead);
    test_relpos_case("relpos k=0", &k0);
    test_relpos_case("relpos n=1", &one);

    int32_t dist[16];
    static const int32_t want[16] = { 0, 1, 2, 2, -1, 0, 1, 2, -2, -1, 0, 1, -2, -2, -1, 0 };
    check_true("relpos distances ok", al_relpos_distances(dist, 4, 2) == AL_OK);
    check_true("relpos distances = clip(j - i, -2, 2)", memcmp(dist, want, sizeof want) == 0);
}

/* ------------------------------------------------------------------ relative-position twins */

/* the gather and bucket loops against a double reference (scalar) and the scalar twin (SIMD),
 * at n = 1 .. 4·lanes+3 and a large n, with k below, around and above n */
static void test_relpos_twins(void)
{
    check_seed(404);
    static const int ns[] = {
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 67
    };
    static const int ks[] = { 0, 1, 2, 5, 9, 70 };
    for (unsigned a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (unsigned c = 0; c < sizeof ks / sizeof ks[0]; c++) {
            int n = ns[a], k = ks[c], R = 2 * k + 1;
            float *m = falloc((long)n * n), *g = falloc((long)n * R), *m1 = falloc((long)n * n);
            float *b1 = falloc((long)n * R);
            double *mref = dalloc((long)n * n), *bref = dalloc((long)n * R);
            check_fill(m, (long)n * n, -1, 1);
            check_fill(g, (long)n * R, -1, 1);
            memset(bref, 0, sizeof(double) * (size_t)n * R);
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    int r = (j - i < -k ? -k : j - i > k ? k : j - i) + k;
                    mref[(long)i * n + j] = (double)m[(long)i * n + j] + g[(long)i * R + r];
                    bref[(long)i * R + r] += m[(long)i * n + j];
                }
            char label[96];
            memcpy(m1, m, sizeof(float) * (size_t)n * n);
            al_relpos_gather_add_scalar(m1, g, n, k);
            snprintf(label, sizeof label, "relpos gather scalar n=%d k=%d", n, k);
            check_close_d(label, m1, mref, (long)n * n, 1e-6, 1e-5);
            al_relpos_bucket_sum_scalar(b1, m, n, k);
            snprintf(label, sizeof label, "relpos bucket scalar n=%d k=%d", n, k);
            check_close_d(label, b1, bref, (long)n * R, 1e-6, 1e-5);
#if AL_SIMD128
            float *m2 = falloc((long)n * n), *b2 = falloc((long)n * R);
            memcpy(m2, m, sizeof(float) * (size_t)n * n);
            al_relpos_gather_add_simd128(m2, g, n, k);
            snprintf(label, sizeof label, "relpos gather simd128 vs scalar n=%d k=%d", n, k);
            check_close_f(label, m2, m1, (long)n * n, 1e-6, 1e-5);
            al_relpos_bucket_sum_simd128(b2, m, n, k);
            snprintf(label, sizeof label, "relpos bucket simd128 vs scalar n=%d k=%d", n, k);
            check_close_f(label, b2, b1, (long)n * R, 1e-6, 1e-5);
            free(m2);
            free(b2);
#endif
            free(m);
            free(g);
            free(m1);
            free(b1);
            free(mref);
            free(bref);
        }
}

/* ------------------------------------------------------------------ statuses */

static void test_statuses(void)
{
    float buf[4096] = { 0 };
    int32_t ib[16];
    float *f = buf;
    /* SDPA backward */
    check_true("sdpa_backward NULL dq", al_sdpa_backward(NULL, f, f, f, f, NULL, f, f, f, 1, 1, 2,
                                                         2, 2, 2, 0, NULL, 0) == AL_ERR_ARGUMENT);
    check_true("sdpa_backward T=0", al_sdpa_backward(f, f, f, f, f, NULL, f, f, f, 1, 1, 0, 2, 2, 2,
                                                     0, NULL, 0) == AL_ERR_SHAPE);
    check_true("sdpa_backward NaN scale", al_sdpa_backward(f, f, f, f, f, NULL, f, f, f, 1, 1, 2, 2,
                                                           2, 2, NAN, NULL, 0) == AL_ERR_ARGUMENT);
    check_true("sdpa_backward overflow",
               al_sdpa_backward(f, f, f, f, f, NULL, f, f, f, 1, 1, 65536, 65536, 1, 1, 0, NULL,
                                0) == AL_ERR_OVERFLOW);
    check_true("sdpa_backward no upstream ok",
               al_sdpa_backward(f, f + 100, f + 200, NULL, NULL, NULL, f + 300, f + 400, f + 500, 1,
                                1, 2, 2, 2, 2, 0, NULL, 0) == AL_OK);
    /* MHA */
    check_true("mha E % H", al_mha_forward(f, NULL, f, f, f, f, f, f, f, 1, 2, 2, 6, 4, NULL, 0) ==
                                AL_ERR_SHAPE);
    check_true("mha H = 0", al_mha_forward(f, NULL, f, f, f, f, f, f, f, 1, 2, 2, 6, 0, NULL, 0) ==
                                AL_ERR_ARGUMENT);
    check_true("mha NULL weight", al_mha_forward(f, NULL, f, f, f, NULL, f, f, f, 1, 2, 2, 6, 2,
                                                 NULL, 0) == AL_ERR_ARGUMENT);
    check_true("mha S = 0", al_mha_forward(f, NULL, f, f, f, f, f, f, f, 1, 2, 0, 6, 2, NULL, 0) ==
                                AL_ERR_SHAPE);
    check_true("mha overflow", al_mha_forward(f, NULL, f, f, f, f, f, f, f, 1, 2, 2, 65536, 1, NULL,
                                              0) == AL_ERR_OVERFLOW);
    check_true("mha_backward bias without its gradient",
               al_mha_backward(f, f, f, f, NULL, f, f, NULL, NULL, f, f, f, f, f, f, f, 1, 2, 2, 4,
                               2, NULL, 0) == AL_ERR_ARGUMENT);
    check_true("mha_backward E % H", al_mha_backward(f, f, f, f, f, f, f, NULL, NULL, f, f, f, f, f,
                                                     f, f, 1, 2, 2, 5, 2, NULL, 0) == AL_ERR_SHAPE);
    /* relative position */
    check_true("relpos k < 0", al_relpos_forward(f, NULL, f, f, f, f, f, f, 1, 3, 2, 4, 1, -1, NULL,
                                                 0) == AL_ERR_ARGUMENT);
    check_true("relpos dz % H", al_relpos_forward(f, NULL, f, f, f, f, f, f, 1, 3, 2, 5, 2, 1, NULL,
                                                  0) == AL_ERR_SHAPE);
    check_true("relpos H = 0", al_relpos_forward(f, NULL, f, f, f, f, f, f, 1, 3, 2, 4, 0, 1, NULL,
                                                 0) == AL_ERR_ARGUMENT);
    check_true("relpos NULL rel_V", al_relpos_forward(f, NULL, f, f, f, f, f, NULL, 1, 3, 2, 4, 1,
                                                      1, NULL, 0) == AL_ERR_ARGUMENT);
    check_true("relpos_backward NULL drel_K",
               al_relpos_backward(f, f, f, f, NULL, f, NULL, NULL, f, f, f, f, f, f, 1, 3, 2, 4, 1,
                                  1, NULL, 0) == AL_ERR_ARGUMENT);
    check_true("relpos_backward n = 0",
               al_relpos_backward(f, f, f, f, f, f, NULL, NULL, f, f, f, f, f, f, 1, 0, 2, 4, 1, 1,
                                  NULL, 0) == AL_ERR_SHAPE);
    check_true("relpos distances n = 0", al_relpos_distances(ib, 0, 1) == AL_ERR_SHAPE);
    check_true("relpos distances k < 0", al_relpos_distances(ib, 2, -1) == AL_ERR_ARGUMENT);
    check_true("relpos distances NULL", al_relpos_distances(NULL, 2, 1) == AL_ERR_ARGUMENT);
    check_true("no blocks leaked", al_alloc_live() == 0);
}

int main(void)
{
    printf("transformer attention: %s build\n", al_simd() ? "simd128" : "scalar");
    test_sdpa_backward();
    test_mha();
    test_relpos();
    test_relpos_twins();
    test_statuses();
    printf("worst |forward - double reference| %.3g, worst |gradient - finite difference| %.3g\n",
           worst_fwd, worst_fd);
    return check_report("test_transformer_attention");
}
