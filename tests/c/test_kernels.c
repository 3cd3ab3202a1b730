/*
 * test_kernels.c: the foundation kernels against double-precision references, the scalar twins
 * against the SIMD128 twins, and every backward against central finite differences.
 *
 * Built three ways by the Makefile: native gcc (SSE back end for the _simd128 twins), native under
 * ASan+UBSan, and emcc -msimd128 run under Node (the real f32x4 instructions). Sizes run from 1 to
 * 19 (below, at and above multiples of the 4-lane width and the 8-wide tiles) plus a few large.
 * Inputs are chosen to break wrong code: softmax rows in [90, 100], rows with large outliers,
 * fully masked rows, key length != query length.
 */
#include <string.h>

#include "attnlab.h"
#include "check.h"
#include "kernels/kernels.h"

#define ATOL 1e-6
#define RTOL 1e-5

typedef void (*sgemm_fn)(int, int, int, int, int, float, const float *, int, const float *, int,
                         float, float *, int);
typedef void (*sgemv_fn)(int, int, int, float, const float *, int, const float *, float, float *);
typedef void (*softmax_fn)(float *, const float *, const uint8_t *, int, int, int);
typedef void (*sdpa_fn)(float *, float *, const float *, const float *, const float *, int, int,
                        int, int, float, const uint8_t *, int);

struct variant {
    const char *name;
    sgemm_fn sgemm;
    sgemv_fn sgemv;
    softmax_fn softmax;
    sdpa_fn sdpa;
};

static const struct variant variants[] = {
    { "scalar", al_sgemm_scalar, al_sgemv_scalar, al_softmax_forward_scalar,
      al_sdpa_forward_scalar },
#if AL_SIMD128
    { "simd128", al_sgemm_simd128, al_sgemv_simd128, al_softmax_forward_simd128,
      al_sdpa_forward_simd128 },
#endif
};
#define NVARIANTS ((int)(sizeof(variants) / sizeof(variants[0])))

/* ------------------------------------------------------------------ sgemm */

static void test_sgemm_case(const struct variant *v, int ta, int tb, int M, int N, int K,
                            float alpha, float beta, int pad)
{
    int lda = (ta ? M : K) + pad, ldb = (tb ? K : N) + pad, ldc = N + pad;
    int arows = ta ? K : M, brows = tb ? N : K;
    float *A = check_alloc(sizeof(float) * (size_t)arows * lda);
    float *Bm = check_alloc(sizeof(float) * (size_t)brows * ldb);
    float *C = check_alloc(sizeof(float) * (size_t)M * ldc);
    double *ref = check_alloc(sizeof(double) * (size_t)M * ldc);
    double *mag = check_alloc(sizeof(double) * (size_t)M * ldc);
    check_fill(A, (long)arows * lda, -1, 1);
    check_fill(Bm, (long)brows * ldb, -1, 1);
    check_fill(C, (long)M * ldc, -1, 1);
    for (int m = 0; m < M; m++) {
        for (int n = 0; n < ldc; n++) {
            double c0 = C[(long)m * ldc + n];
            if (n >= N) { /* padding columns must be left alone */
                ref[(long)m * ldc + n] = c0;
                mag[(long)m * ldc + n] = 0;
                continue;
            }
            double acc = 0, accabs = 0;
            for (int k = 0; k < K; k++) {
                double a = ta ? A[(long)k * lda + m] : A[(long)m * lda + k];
                double b = tb ? Bm[(long)n * ldb + k] : Bm[(long)k * ldb + n];
                acc += a * b;
                accabs += fabs(a * b);
            }
            ref[(long)m * ldc + n] = alpha * acc + (beta == 0 ? 0 : beta * c0);
            mag[(long)m * ldc + n] = fabs(alpha) * accabs + fabs(beta * c0);
        }
    }
    if (beta == 0) /* beta == 0 must not read C: poison the outputs with NaN */
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) C[(long)m * ldc + n] = NAN;
    v->sgemm(ta, tb, M, N, K, alpha, A, lda, Bm, ldb, beta, C, ldc);
    char what[160];
    snprintf(what, sizeof what, "sgemm_%s ta=%d tb=%d M=%d N=%d K=%d alpha=%g beta=%g pad=%d",
             v->name, ta, tb, M, N, K, alpha, beta, pad);
    check_close_mag(what, C, ref, mag, (long)M * ldc, ATOL, RTOL);
    free(A);
    free(Bm);
    free(C);
    free(ref);
    free(mag);
}

static void test_sgemm(void)
{
    static const int ks[] = { 1, 3, 4, 5, 8, 17 };
    for (int vi = 0; vi < NVARIANTS; vi++)
        for (int ta = 0; ta < 2; ta++)
            for (int tb = 0; tb < 2; tb++) {
                check_seed(100 + ta * 2 + tb);
                for (int M = 1; M <= 19; M++)
                    for (int N = 1; N <= 19; N++)
                        for (int ki = 0; ki < 6; ki++)
                            test_sgemm_case(&variants[vi], ta, tb, M, N, ks[ki], 1.0f, 0.0f, 0);
                /* strided operands, alpha and accumulation */
                test_sgemm_case(&variants[vi], ta, tb, 9, 13, 7, 0.5f, 1.0f, 3);
                test_sgemm_case(&variants[vi], ta, tb, 5, 17, 12, -2.0f, 0.25f, 1);
                /* large */
                test_sgemm_case(&variants[vi], ta, tb, 1, 256, 64, 1.0f, 0.0f, 0);
                test_sgemm_case(&variants[vi], ta, tb, 33, 65, 129, 1.0f, 0.0f, 0);
                test_sgemm_case(&variants[vi], ta, tb, 128, 128, 128, 1.0f, 0.0f, 0);
                /* packed B panels with two K blocks (K > 256), alpha, beta and padding */
                test_sgemm_case(&variants[vi], ta, tb, 21, 37, 300, 0.75f, 0.5f, 2);
                test_sgemm_case(&variants[vi], ta, tb, 16, 8, 64, 1.0f, 0.0f, 0);
                /* packed path: two K blocks, B blocks of 64 and 8 columns, then 4 + 0 / 3 + 1 tails */
                test_sgemm_case(&variants[vi], ta, tb, 37, 140, 300, 0.75f, 0.5f, 1);
                test_sgemm_case(&variants[vi], ta, tb, 34, 75, 260, 1.0f, 0.0f, 0);
            }
}

/* ------------------------------------------------------------------ sgemv */

static void test_sgemv_case(const struct variant *v, int trans, int M, int K, float alpha,
                            float beta)
{
    int lda = K + 2, ylen = trans ? K : M, xlen = trans ? M : K;
    float *A = check_alloc(sizeof(float) * (size_t)M * lda);
    float *x = check_alloc(sizeof(float) * (size_t)xlen);
    float *y = check_alloc(sizeof(float) * (size_t)ylen);
    double *ref = check_alloc(sizeof(double) * (size_t)ylen);
    double *mag = check_alloc(sizeof(double) * (size_t)ylen);
    check_fill(A, (long)M * lda, -1, 1);
    check_fill(x, xlen, -1, 1);
    check_fill(y, ylen, -1, 1);
    for (int i = 0; i < ylen; i++) {
        double acc = 0, accabs = 0;
        for (int j = 0; j < xlen; j++) {
            double a = trans ? A[(long)j * lda + i] : A[(long)i * lda + j];
            acc += a * x[j];
            accabs += fabs(a * x[j]);
        }
        ref[i] = alpha * acc + (beta == 0 ? 0 : beta * y[i]);
        mag[i] = fabs(alpha) * accabs + fabs(beta * y[i]);
        if (beta == 0) y[i] = NAN;
    }
    v->sgemv(trans, M, K, alpha, A, lda, x, beta, y);
    char what[128];
    snprintf(what, sizeof what, "sgemv_%s trans=%d M=%d K=%d beta=%g", v->name, trans, M, K, beta);
    check_close_mag(what, y, ref, mag, ylen, ATOL, RTOL);
    free(A);
    free(x);
    free(y);
    free(ref);
    free(mag);
}

static void test_sgemv(void)
{
    check_seed(7);
    for (int vi = 0; vi < NVARIANTS; vi++)
        for (int trans = 0; trans < 2; trans++) {
            for (int M = 1; M <= 19; M++)
                for (int K = 1; K <= 19; K++)
                    test_sgemv_case(&variants[vi], trans, M, K, 1.0f, 0.0f);
            test_sgemv_case(&variants[vi], trans, 7, 11, 0.5f, 1.0f);
            test_sgemv_case(&variants[vi], trans, 512, 128, 1.0f, 0.0f);
            test_sgemv_case(&variants[vi], trans, 129, 513, -1.5f, 0.5f);
        }
}

/*
 * Where the SIMD twin sums in the scalar order, the two agree bit for bit: K = 1 (a rank-1 update,
 * each output alpha · (0 + a·b) + beta · c in both), and Aᵀ x whose y length is a multiple of 32
 * (strips of 32 columns sum row after row, as the scalar loop does). The training build's weight
 * gradients lean on both paths; signed zeros in the inputs check that 0 + a·b is kept.
 */
static void test_simd_scalar_order(void)
{
#if AL_SIMD128
    check_seed(11);
    const float alphas[] = { 1.0f, -0.75f }, betas[] = { 0.0f, 1.0f, 0.5f };
    const int dims[] = { 1, 2, 3, 4, 5, 7, 8, 9, 13, 33, 96 };
    const int nd = (int)(sizeof dims / sizeof *dims);
    float *A = check_alloc(sizeof(float) * 4096), *B = check_alloc(sizeof(float) * 4096);
    float *C1 = check_alloc(sizeof(float) * 16384), *C2 = check_alloc(sizeof(float) * 16384);
    for (int i = 0; i < 4096; i++) {
        A[i] = i % 7 == 0 ? (i % 2 ? -0.0f : 0.0f) : check_randf(-1, 1);
        B[i] = i % 5 == 0 ? -0.0f : check_randf(-1, 1);
    }
    int same = 1;
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++)
            for (int mi = 0; mi < nd; mi++)
                for (int ni = 0; ni < nd; ni++)
                    for (int ab = 0; ab < 6; ab++) {
                        const int M = dims[mi], N = dims[ni], pad = ab % 2;
                        const float alpha = alphas[ab % 2], beta = betas[ab / 2];
                        const int lda = (ta ? M : 1) + pad, ldb = tb ? 1 : N + pad, ldc = N + pad;
                        for (int i = 0; i < M * ldc; i++)
                            C1[i] = C2[i] = i % 3 ? check_randf(-1, 1) : i % 2 ? -0.0f : 0.0f;
                        al_sgemm_scalar(ta, tb, M, N, 1, alpha, A, lda, B, ldb, beta, C1, ldc);
                        al_sgemm_simd128(ta, tb, M, N, 1, alpha, A, lda, B, ldb, beta, C2, ldc);
                        if (memcmp(C1, C2, sizeof(float) * (size_t)(M * ldc)) != 0) {
                            if (same)
                                printf("sgemm K=1 ta=%d tb=%d M=%d N=%d alpha=%g beta=%g differs\n",
                                       ta, tb, M, N, alpha, beta);
                            same = 0;
                        }
                    }
    check_true("sgemm simd128 = scalar bit for bit at K = 1", same);
    same = 1;
    for (int M = 1; M <= 40; M += 3)
        for (int K = 32; K <= 96; K += 32)
            for (int ab = 0; ab < 6; ab++) {
                const float alpha = alphas[ab % 2], beta = betas[ab / 2];
                for (int i = 0; i < K; i++) C1[i] = C2[i] = check_randf(-1, 1);
                al_sgemv_scalar(1, M, K, alpha, A, K, B, beta, C1);
                al_sgemv_simd128(1, M, K, alpha, A, K, B, beta, C2);
                if (memcmp(C1, C2, sizeof(float) * (size_t)K) != 0) {
                    if (same)
                        printf("sgemv trans M=%d K=%d alpha=%g beta=%g differs\n", M, K, alpha,
                               beta);
                    same = 0;
                }
            }
    check_true("sgemv simd128 = scalar bit for bit for Aᵀ x with 32·n columns", same);
    free(A);
    free(B);
    free(C1);
    free(C2);
#endif
}

/* ------------------------------------------------------------------ softmax */

/* double reference with the masked-row rule */
static void softmax_ref(double *y, const float *x, const uint8_t *mask, int mstride, int R, int C)
{
    for (int r = 0; r < R; r++) {
        const uint8_t *m = mask ? mask + (long)r * mstride : NULL;
        double max = -INFINITY;
        for (int c = 0; c < C; c++)
            if (!(m && m[c]) && x[(long)r * C + c] > max) max = x[(long)r * C + c];
        double sum = 0;
        for (int c = 0; c < C; c++) {
            double e = (m && m[c]) || max == -INFINITY ? 0 : exp(x[(long)r * C + c] - max);
            y[(long)r * C + c] = e;
            sum += e;
        }
        for (int c = 0; c < C; c++) y[(long)r * C + c] = sum > 0 ? y[(long)r * C + c] / sum : 0;
    }
}

enum { FILL_UNIFORM, FILL_HIGH, FILL_OUTLIERS, FILL_HUGE, FILL_HUGE_V };

static void fill_scores(float *x, long n, int kind)
{
    for (long i = 0; i < n; i++) {
        switch (kind) {
        case FILL_UNIFORM: x[i] = check_randf(-3, 3); break;
        case FILL_HIGH: x[i] = check_randf(90, 100); break; /* e^x overflows float */
        case FILL_OUTLIERS:
            x[i] = check_uniform() < 0.15 ? check_randf(5, 12) : check_randf(-1, 1);
            break;
        default: x[i] = check_uniform() < 0.5 ? 1e30f : -1e30f; break; /* near ±1e30 */
        }
    }
}

static void test_softmax_case(const struct variant *v, int R, int C, int kind, int masked,
                              int mstride_full, int inplace)
{
    long n = (long)R * C;
    float *x = check_alloc(sizeof(float) * (size_t)n);
    float *y = check_alloc(sizeof(float) * (size_t)n);
    double *ref = check_alloc(sizeof(double) * (size_t)n);
    uint8_t *mask = NULL;
    int mstride = mstride_full ? C : 0;
    fill_scores(x, n, kind);
    if (masked) {
        long mn = mstride_full ? n : C;
        mask = check_alloc((size_t)mn);
        for (long i = 0; i < mn; i++) mask[i] = check_uniform() < 0.3;
        if (mstride_full && R > 1) memset(mask + C, 1, (size_t)C); /* row 1 fully masked */
        /* masked entries hold junk a kernel must never use */
        for (int r = 0; r < R; r++)
            for (int c = 0; c < C; c++)
                if (mask[(long)r * mstride + c]) x[(long)r * C + c] = (c & 1) ? -INFINITY : 1e30f;
    }
    softmax_ref(ref, x, mask, mstride, R, C);
    if (inplace) {
        memcpy(y, x, sizeof(float) * (size_t)n);
        v->softmax(y, y, mask, mstride, R, C);
    } else {
        v->softmax(y, x, mask, mstride, R, C);
    }
    char what[128];
    snprintf(what, sizeof what, "softmax_%s R=%d C=%d kind=%d masked=%d full=%d inplace=%d",
             v->name, R, C, kind, masked, mstride_full, inplace);
    check_close_d(what, y, ref, n, ATOL, RTOL);
    free(x);
    free(y);
    free(ref);
    free(mask);
}

static void test_softmax(void)
{
    check_seed(11);
    for (int vi = 0; vi < NVARIANTS; vi++) {
        for (int C = 1; C <= 19; C++)
            for (int kind = 0; kind < 4; kind++) {
                test_softmax_case(&variants[vi], 3, C, kind, 0, 0, 0);
                test_softmax_case(&variants[vi], 3, C, kind, 1, 1, 0);
                test_softmax_case(&variants[vi], 2, C, kind, 1, 0, 1);
            }
        test_softmax_case(&variants[vi], 4, 1000, FILL_OUTLIERS, 0, 0, 0);
        test_softmax_case(&variants[vi], 4, 1000, FILL_HIGH, 1, 1, 1);
    }
    /* a fully masked row is exactly zero, not NaN */
    float x[5] = { 1, 2, 3, 4, 5 }, y[5];
    uint8_t m[5] = { 1, 1, 1, 1, 1 };
    for (int vi = 0; vi < NVARIANTS; vi++) {
        variants[vi].softmax(y, x, m, 0, 1, 5);
        int zero = 1;
        for (int i = 0; i < 5; i++) zero &= y[i] == 0.0f;
        check_true("softmax fully masked row is exactly zero", zero);
    }
}

/* finite differences: L = Σ w·f(x) in double, analytic dx from backward(dy = w) */
static void test_softmax_backward(void)
{
    check_seed(12);
    const int R = 3, C = 7;
    float x[21], y[21], w[21], dx[21], dx2[21];
    double num[21];
    fill_scores(x, R * C, FILL_OUTLIERS);
    check_fill(w, R * C, -1, 1);
    al_softmax_forward_scalar(y, x, NULL, 0, R, C);
    memset(dx, 0, sizeof dx);
    al_softmax_backward_scalar(dx, y, w, R, C);
    for (int i = 0; i < R * C; i++) {
        float xs = x[i], yp[21], ym[21];
        const float h = 1e-2f;
        x[i] = xs + h;
        al_softmax_forward_scalar(yp, x, NULL, 0, R, C);
        x[i] = xs - h;
        al_softmax_forward_scalar(ym, x, NULL, 0, R, C);
        x[i] = xs;
        double lp = 0, lm = 0;
        for (int j = 0; j < R * C; j++) {
            lp += (double)w[j] * yp[j];
            lm += (double)w[j] * ym[j];
        }
        num[i] = (lp - lm) / (2.0 * h);
    }
    check_close_d("softmax_backward vs finite differences", dx, num, R * C, 1e-4, 1e-2);
#if AL_SIMD128
    memset(dx2, 0, sizeof dx2);
    al_softmax_backward_simd128(dx2, y, w, R, C);
    check_close_f("softmax_backward simd128 vs scalar", dx2, dx, R * C, ATOL, RTOL);
#else
    (void)dx2;
#endif
}

/* ------------------------------------------------------------------ exp twins */

static void test_exp(void)
{
    double worst = 0;
    float at = 0;
    for (float x = -87.0f; x <= 88.0f; x += 0.0137f) {
        double e = exp((double)x), r = fabs(al_expf_scalar(x) - e) / e;
        if (r > worst) {
            worst = r;
            at = x;
        }
    }
    char what[96];
    snprintf(what, sizeof what, "expf_scalar rel err %.3g at %g (<= 4 ulp)", worst, at);
    check_true(what, worst < 4.8e-7);
#if AL_SIMD128
    float xs[64], a[64], b[64];
    check_seed(3);
    check_fill(xs, 64, -100, 100);
    xs[0] = -INFINITY;
    xs[1] = 0.0f;
    for (int i = 0; i < 64; i += 4) al_v4_store(a + i, al_v4_exp(al_v4_load(xs + i)));
    for (int i = 0; i < 64; i++) b[i] = al_expf_scalar(xs[i]);
    check_close_f("exp simd128 vs scalar (incl. -inf and clamped inputs)", a, b, 64, 0, 1e-7);
    /* the softmax form for x <= 0: the same bits as al_v4_exp */
    for (int i = 0; i < 64; i++) xs[i] = -fabsf(xs[i]);
    for (int i = 0; i < 64; i += 4) {
        al_v4_store(a + i, al_v4_exp_neg(al_v4_load(xs + i)));
        al_v4_store(b + i, al_v4_exp(al_v4_load(xs + i)));
    }
    check_close_f("exp_neg simd128 vs exp simd128 (x <= 0, incl. -inf)", a, b, 64, 0, 0);
#endif
}

/* ------------------------------------------------------------------ bias add */

static void test_bias_add(void)
{
    typedef void (*bias_fn)(float *, int, const float *, const float *, int, int);
    static const struct {
        const char *name;
        bias_fn f;
    } twins[] = {
        { "scalar", al_bias_add_forward_scalar },
#if AL_SIMD128
        { "simd128", al_bias_add_forward_simd128 },
#endif
    };
    check_seed(12);
    for (int vi = 0; vi < (int)(sizeof twins / sizeof twins[0]); vi++)
        for (int C = 1; C <= 19; C++)
            for (int two = 0; two < 2; two++) {
                int R = 3, ldy = C + 2;
                float y[3 * 21], b[19], b2[19];
                double ref[3 * 21];
                check_fill(y, R * ldy, -1, 1);
                check_fill(b, C, -1, 1);
                check_fill(b2, C, -1, 1);
                for (int r = 0; r < R; r++)
                    for (int c = 0; c < ldy; c++) /* padding columns must be left alone */
                        ref[r * ldy + c] = c < C ? (double)y[r * ldy + c] + b[c] + (two ? b2[c] : 0)
                                                 : y[r * ldy + c];
                twins[vi].f(y, ldy, b, two ? b2 : NULL, R, C);
                char what[96];
                snprintf(what, sizeof what, "bias_add_%s C=%d b2=%d", twins[vi].name, C, two);
                check_close_d(what, y, ref, R * ldy, ATOL, RTOL);
            }
}

/* ------------------------------------------------------------------ activations, layer norm */

static double gelu_d(double x) { return 0.5 * x * (1 + erf(x / sqrt(2.0))); }

static void test_activations(void)
{
    enum { N = 23 };
    float x[N], y[N], w[N], dx[N];
    double ref[N], num[N];
    check_seed(21);
    check_fill(x, N, -4, 4);
    for (int i = 0; i < N; i++)
        if (fabsf(x[i]) < 0.05f) x[i] = 0.5f; /* keep relu off its kink */
    check_fill(w, N, -1, 1);
    const char *names[4] = { "tanh", "sigmoid", "relu", "gelu" };
    for (int act = 0; act < 4; act++) {
        al_activate(y, x, N, (al_activation)act);
        for (int i = 0; i < N; i++) {
            double v = x[i];
            ref[i] = act == 0   ? tanh(v)
                     : act == 1 ? 1 / (1 + exp(-v))
                     : act == 2 ? (v > 0 ? v : 0)
                                : gelu_d(v);
        }
        char what[64];
        snprintf(what, sizeof what, "%s forward vs double", names[act]);
        check_close_d(what, y, ref, N, ATOL, RTOL);
        memset(dx, 0, sizeof dx);
        if (act == 0) al_tanh_backward(dx, y, w, N);
        if (act == 1) al_sigmoid_backward(dx, y, w, N);
        if (act == 2) al_relu_backward(dx, x, w, N);
        if (act == 3) al_gelu_backward(dx, x, w, N);
        for (int i = 0; i < N; i++) {
            const float h = 1e-2f;
            float xp = x[i] + h, xm = x[i] - h, yp, ym;
            al_activate(&yp, &xp, 1, (al_activation)act);
            al_activate(&ym, &xm, 1, (al_activation)act);
            num[i] = w[i] * ((double)yp - ym) / (2.0 * h);
        }
        snprintf(what, sizeof what, "%s backward vs finite differences", names[act]);
        check_close_d(what, dx, num, N, 1e-4, 1e-2);
    }
    /* sigmoid saturates without overflow */
    float big[2] = { 200.0f, -200.0f }, out[2];
    al_activate(out, big, 2, AL_ACT_SIGMOID);
    check_true("sigmoid(±200) is 1 and 0", out[0] == 1.0f && out[1] == 0.0f);
}

static void test_layernorm(void)
{
    enum { R = 3, C = 13 };
    float x[R * C], wt[C], bs[C], y[R * C], mean[R], rstd[R], g[R * C];
    float dx[R * C], dw[C], db[C];
    double ref[R * C], num[R * C], numw[C], numb[C];
    check_seed(31);
    check_fill(x, R * C, -2, 2);
    for (int i = 0; i < C; i++) x[i] += 50.0f; /* a row with a large mean */
    check_fill(wt, C, 0.5f, 1.5f);
    check_fill(bs, C, -0.5f, 0.5f);
    check_fill(g, R * C, -1, 1);
    al_layernorm_forward(y, mean, rstd, x, wt, bs, R, C, 1e-5f);
    for (int r = 0; r < R; r++) {
        double mu = 0, var = 0;
        for (int c = 0; c < C; c++) mu += x[r * C + c];
        mu /= C;
        for (int c = 0; c < C; c++) var += (x[r * C + c] - mu) * (x[r * C + c] - mu);
        var /= C;
        for (int c = 0; c < C; c++)
            ref[r * C + c] = (x[r * C + c] - mu) / sqrt(var + 1e-5) * wt[c] + bs[c];
    }
    check_close_d("layernorm forward vs double", y, ref, R * C, ATOL, RTOL);
    memset(dx, 0, sizeof dx);
    memset(dw, 0, sizeof dw);
    memset(db, 0, sizeof db);
    al_layernorm_backward(dx, dw, db, g, x, mean, rstd, wt, R, C);
    /* L(p) = Σ g·y(p), central differences in each input and parameter */
    float *params[3] = { x, wt, bs };
    double *nums[3] = { num, numw, numb };
    int lens[3] = { R * C, C, C };
    for (int p = 0; p < 3; p++)
        for (int i = 0; i < lens[p]; i++) {
            float s = params[p][i], yp[R * C], ym[R * C];
            const float h = 1e-2f;
            params[p][i] = s + h;
            al_layernorm_forward(yp, NULL, NULL, x, wt, bs, R, C, 1e-5f);
            params[p][i] = s - h;
            al_layernorm_forward(ym, NULL, NULL, x, wt, bs, R, C, 1e-5f);
            params[p][i] = s;
            double lp = 0, lm = 0;
            for (int j = 0; j < R * C; j++) {
                lp += (double)g[j] * yp[j];
                lm += (double)g[j] * ym[j];
            }
            nums[p][i] = (lp - lm) / (2.0 * h);
        }
    check_close_d("layernorm dx vs finite differences", dx, num, R * C, 1e-4, 1e-2);
    check_close_d("layernorm dweight vs finite differences", dw, numw, C, 1e-4, 1e-2);
    check_close_d("layernorm dbias vs finite differences", db, numb, C, 1e-4, 1e-2);
}

static void test_embedding(void)
{
    float table[5 * 3], out[4 * 3], dtab[5 * 3] = { 0 }, g[4 * 3];
    for (int i = 0; i < 15; i++) table[i] = (float)i;
    int32_t ids[4] = { 4, 0, 4, 2 };
    int bad = 99;
    check_true("embedding ok status",
               al_embedding(out, ids, 4, table, 5, 3, &bad) == AL_OK && bad == -1);
    check_true("embedding picks rows", out[0] == 12 && out[3] == 0 && out[6] == 12 && out[11] == 8);
    for (int i = 0; i < 12; i++) g[i] = 1.0f;
    al_embedding_backward(dtab, ids, 4, g, 3);
    check_true("embedding backward adds repeated ids",
               dtab[12] == 2 && dtab[0] == 1 && dtab[3] == 0 && dtab[6] == 1);
    int32_t badids[3] = { 1, 5, -1 };
    check_true("embedding id == V is AL_ERR_RANGE at position 1",
               al_embedding(out, badids, 3, table, 5, 3, &bad) == AL_ERR_RANGE && bad == 1);
    badids[1] = 0;
    check_true("embedding negative id is AL_ERR_RANGE at position 2",
               al_embedding(out, badids, 3, table, 5, 3, &bad) == AL_ERR_RANGE && bad == 2);
}

/* ------------------------------------------------------------------ scaled dot-product attention */

static void sdpa_ref(double *out, double *att, const float *q, const float *k, const float *v,
                     int T, int S, int D, int Dv, double scale, const uint8_t *mask, int causal)
{
    double *e = check_alloc(sizeof(double) * (size_t)S);
    for (int t = 0; t < T; t++) {
        double max = -INFINITY;
        for (int s = 0; s < S; s++) {
            int hidden = (mask && mask[s]) || (causal && s > t);
            double dot = 0;
            for (int d = 0; d < D; d++) dot += (double)q[t * D + d] * k[s * D + d];
            e[s] = hidden ? -INFINITY : dot * scale;
            if (e[s] > max) max = e[s];
        }
        double sum = 0;
        for (int s = 0; s < S; s++) {
            e[s] = max == -INFINITY ? 0 : exp(e[s] - max);
            sum += e[s];
        }
        for (int s = 0; s < S; s++) {
            e[s] = sum > 0 ? e[s] / sum : 0;
            att[(long)t * S + s] = e[s];
        }
        for (int d = 0; d < Dv; d++) {
            double acc = 0;
            for (int s = 0; s < S; s++) acc += e[s] * v[s * Dv + d];
            out[(long)t * Dv + d] = acc;
        }
    }
    free(e);
}

static void test_sdpa_case(int T, int S, int D, int Dv, int causal, int masked, int kind)
{
    float *q = check_alloc(sizeof(float) * (size_t)T * D),
          *k = check_alloc(sizeof(float) * (size_t)S * D);
    float *v = check_alloc(sizeof(float) * (size_t)S * Dv);
    float *out = check_alloc(sizeof(float) * (size_t)T * Dv),
          *att = check_alloc(sizeof(float) * (size_t)T * S);
    double *rout = check_alloc(sizeof(double) * (size_t)T * Dv),
           *ratt = check_alloc(sizeof(double) * (size_t)T * S);
    uint8_t *mask = NULL;
    check_fill(q, (long)T * D, -1, 1);
    check_fill(k, (long)S * D, -1, 1);
    check_fill(v, (long)S * Dv, -1, 1);
    float scale = 1.0f / sqrtf((float)D);
    if (kind == FILL_HIGH) { /* scores in [90, 100]: q·k = 95 ± 5 */
        for (int i = 0; i < T * D; i++) q[i] = 1.0f;
        for (int i = 0; i < S * D; i++) k[i] = check_randf(90, 100) / (float)D;
        scale = 1.0f;
    } else if (
        kind ==
        FILL_HUGE_V) { /* values near float32's limit: Σ_s e^{s−m} v_s overflows, the answer does not */
        for (int i = 0; i < S * Dv; i++)
            v[i] = (i % Dv % 2 ? -1.0f : 1.0f) * check_randf(2e38f, 3e38f);
        scale = 0.1f;
    } else if (kind == FILL_OUTLIERS) { /* a few keys aligned with the queries */
        for (int s = 0; s < S; s++)
            if (check_uniform() < 0.2)
                for (int d = 0; d < D; d++) k[s * D + d] *= 8.0f;
    }
    if (masked) {
        mask = check_alloc((size_t)S);
        for (int s = 0; s < S; s++) mask[s] = check_uniform() < 0.3;
        if (masked == 2) memset(mask, 1, (size_t)S); /* every key masked */
        if (masked == 3) /* the first key block (64 keys and more) masked, later ones visible */
            for (int s = 0; s < S && s < 70; s++) mask[s] = 1;
    }
    sdpa_ref(rout, ratt, q, k, v, T, S, D, Dv, scale, mask, causal);
    for (int vi = 0; vi < NVARIANTS; vi++) {
        char what[160];
        for (int path = 0; path < 2; path++) {
            memset(att, 0x7f, sizeof(float) * (size_t)T * S); /* junk that must be overwritten */
            variants[vi].sdpa(out, path ? att : NULL, q, k, v, T, S, D, Dv, scale, mask, causal);
            snprintf(what, sizeof what,
                     "sdpa_%s %s T=%d S=%d D=%d Dv=%d causal=%d mask=%d kind=%d out",
                     variants[vi].name, path ? "weights" : "streaming", T, S, D, Dv, causal, masked,
                     kind);
            check_close_d(what, out, rout, (long)T * Dv, ATOL, RTOL);
            if (path) {
                snprintf(what, sizeof what, "sdpa_%s T=%d S=%d D=%d causal=%d mask=%d kind=%d att",
                         variants[vi].name, T, S, D, causal, masked, kind);
                check_close_d(what, att, ratt, (long)T * S, ATOL, RTOL);
            }
        }
    }
    free(q);
    free(k);
    free(v);
    free(out);
    free(att);
    free(rout);
    free(ratt);
    free(mask);
}

static void test_sdpa(void)
{
    check_seed(41);
    for (int D = 1; D <= 19; D++) {
        test_sdpa_case(3, 7, D, D, 0, 0, FILL_UNIFORM);
        test_sdpa_case(5, 4, D, 19 - D + 1, 1, 0, FILL_OUTLIERS);
    }
    for (int n = 1; n <= 19; n++) {
        test_sdpa_case(n, n, 8, 8, 1, 0, FILL_UNIFORM);
        test_sdpa_case(2, n, 5, 3, 0, 1, FILL_OUTLIERS);
        test_sdpa_case(n, 3, 4, 4, 0, 0, FILL_HIGH);
    }
    test_sdpa_case(4, 6, 5, 5, 0, 2, FILL_UNIFORM);  /* fully masked: zeros */
    test_sdpa_case(6, 4, 5, 5, 1, 1, FILL_OUTLIERS); /* causal with T > S, masked */
    test_sdpa_case(3, 300, 7, 9, 0, 1, FILL_OUTLIERS);
    test_sdpa_case(64, 64, 64, 64, 1, 0, FILL_UNIFORM);
    test_sdpa_case(16, 1024, 64, 64, 0, 1, FILL_OUTLIERS);
    /* several query blocks (16) and key blocks (64) of the SIMD twin, with their tails */
    test_sdpa_case(37, 150, 9, 5, 1, 1, FILL_OUTLIERS);    /* causal, T < S, masked */
    test_sdpa_case(150, 70, 16, 16, 1, 1, FILL_OUTLIERS);  /* causal, T > S, masked */
    test_sdpa_case(100, 130, 16, 16, 1, 0, FILL_OUTLIERS); /* causal, unmasked, T < S */
    test_sdpa_case(40, 200, 32, 32, 0, 2, FILL_UNIFORM);   /* everything masked: zeros */
    test_sdpa_case(33, 200, 8, 8, 0, 3, FILL_OUTLIERS);    /* first key block fully masked */
    test_sdpa_case(90, 200, 8, 8, 1, 3, FILL_OUTLIERS);    /* ... causal: early rows see nothing */
    /* values near ±3e38: both paths give the weighted mean (|out| <= max|v|), not an overflow;
     * D and Dv off the 4-lane width, several query and key blocks, causal and masked */
    test_sdpa_case(1, 3, 3, 2, 0, 0, FILL_HUGE_V);
    for (int causal = 0; causal <= 1; causal++)
        for (int masked = 0; masked <= 1; masked++) {
            test_sdpa_case(7, 5, 5, 7, causal, masked, FILL_HUGE_V);
            test_sdpa_case(37, 150, 9, 5, causal, masked, FILL_HUGE_V);
        }
    test_sdpa_case(90, 200, 6, 3, 1, 3,
                   FILL_HUGE_V); /* first key block masked, early rows see nothing */
}

/* Scores that overflow float32 (q·k = ±1e40 → ±inf): the streaming path must give what the att
 * path gives, row by row: NaN where the att path's softmax meets +inf or only −inf (the JS glue
 * then says AL_ERR_OVERFLOW), the right weights where −inf sits beside finite scores. */
static void test_sdpa_score_overflow(void)
{
    enum { T = 4, S = 3, D = 3, Dv = 5 };
    const float q[T * D] = { 1e20f,  0,      0,      -1e20f, 0,      1,
                             -1e20f, -1e20f, -1e20f, 1e-20f, 2e-20f, -1e-20f };
    const float k[S * D] = { 1e20f, 0, 0, 0, 1e20f, 0, 0, 0, 1e20f };
    float v[S * Dv], out[T * Dv], ref[T * Dv], att[T * S];
    for (int i = 0; i < S * Dv; i++) v[i] = (float)(i + 1);
    const uint8_t mask0[S] = { 1, 0, 0 };
    for (int vi = 0; vi < NVARIANTS; vi++)
        for (int causal = 0; causal <= 1; causal++)
            for (int masked = 0; masked <= 1; masked++) {
                const uint8_t *mask = masked ? mask0 : NULL;
                variants[vi].sdpa(ref, att, q, k, v, T, S, D, Dv, 1.0f, mask, causal);
                variants[vi].sdpa(out, NULL, q, k, v, T, S, D, Dv, 1.0f, mask, causal);
                int same = 1;
                for (int i = 0; i < T * Dv; i++) {
                    int fo = isfinite(out[i]), fr = isfinite(ref[i]);
                    if (fo != fr || (fr && fabs(out[i] - ref[i]) > 1e-6 + 1e-5 * fabs(ref[i])))
                        same = 0;
                }
                /* row 1 ([−inf, 0, 1e20] or a prefix) and row 3 (tiny scores) are finite answers */
                int finite = 1;
                for (int i = Dv; i < 2 * Dv; i++) finite &= isfinite(out[i]) && isfinite(ref[i]);
                for (int i = 3 * Dv; i < 4 * Dv; i++)
                    finite &= isfinite(out[i]) && isfinite(ref[i]);
                /* row 0 sees +inf unless key 0 is masked: non-finite both ways */
                int row0 = masked ? isfinite(out[0]) : !isfinite(out[0]) && !isfinite(ref[0]);
                char what[120];
                snprintf(what, sizeof what,
                         "sdpa_%s scores ±inf causal=%d masked=%d: streaming == weights path",
                         variants[vi].name, causal, masked);
                check_true(what, same && finite && row0);
            }
}

/* ------------------------------------------------------------------ finite check */

static void test_first_nonfinite(void)
{
    float x[64];
    const float bad[3] = { NAN, INFINITY, -INFINITY };
    int ok = 1;
    for (int n = 1; n <= 40; n++) {
        for (int i = 0; i < n; i++) x[i] = (float)(i % 7) - 3.0f;
        x[n - 1] = 3.4e38f; /* large but finite */
        ok &= al_first_nonfinite_scalar(x, n) == -1 && al_first_nonfinite(x, n) == -1;
        for (int b = 0; b < 3; b++)
            for (int at = 0; at < n; at += 3) {
                float keep = x[at];
                x[at] = bad[b];
                if (at + 2 < n) x[at + 2] = bad[(b + 1) % 3]; /* a later one must not win */
                ok &= al_first_nonfinite_scalar(x, n) == at && al_first_nonfinite(x, n) == at;
                x[at] = keep;
                if (at + 2 < n) x[at + 2] = (float)((at + 2) % 7) - 3.0f;
            }
    }
    check_true("first_nonfinite twins find the first NaN/Inf at every position, n = 1..40", ok);
    check_true("al_check_finite(NULL) and n = 0 are -1",
               al_check_finite(NULL, 4) == -1 && al_check_finite(x, 0) == -1);
}

/* ------------------------------------------------------------------ API statuses */

static void test_api(void)
{
    float a[16] = { 0 }, b[16] = { 0 }, c[16];
    check_true("matmul NULL is AL_ERR_ARGUMENT",
               al_matmul(c, NULL, b, 2, 2, 2, 0, 0) == AL_ERR_ARGUMENT);
    check_true("matmul M=0 is AL_ERR_SHAPE", al_matmul(c, a, b, 0, 2, 2, 0, 0) == AL_ERR_SHAPE);
    check_true("matmul huge is AL_ERR_OVERFLOW",
               al_matmul(c, a, b, 65536, 65536, 1, 0, 0) == AL_ERR_OVERFLOW);
    check_true("softmax bad mask stride",
               al_softmax(c, a, (const uint8_t *)b, 3, 2, 2) == AL_ERR_ARGUMENT);
    check_true("layernorm eps 0", al_layernorm(c, a, NULL, NULL, 2, 2, 0.0f) == AL_ERR_ARGUMENT);
    check_true("layernorm eps NaN", al_layernorm(c, a, NULL, NULL, 2, 2, NAN) == AL_ERR_ARGUMENT);
    check_true("activate unknown kind", al_activate(c, a, 4, (al_activation)9) == AL_ERR_ARGUMENT);
    check_true("sdpa D=0", al_sdpa(c, NULL, a, a, a, 1, 1, 2, 2, 0, 2, 0, NULL, 0) == AL_ERR_SHAPE);
    check_true("sdpa scale NaN",
               al_sdpa(c, NULL, a, a, a, 1, 1, 2, 2, 2, 2, NAN, NULL, 0) == AL_ERR_ARGUMENT);
    check_true("sdpa scale inf",
               al_sdpa(c, NULL, a, a, a, 1, 1, 2, 2, 2, 2, INFINITY, NULL, 0) == AL_ERR_ARGUMENT);
    check_true("status strings",
               strcmp(al_status_string(AL_ERR_SHAPE),
                      "shapes disagree or a dimension is less than 1") == 0 &&
                   strcmp(al_status_string((al_status)77), "unknown status") == 0);
    int live = al_alloc_live();
    void *p = al_malloc(100), *z = al_malloc(0);
    check_true("al_malloc counts", p && !z && al_alloc_live() == live + 1);
    al_free(p);
    al_free(NULL);
    check_true("al_free counts", al_alloc_live() == live);

    /* batched heads with a [B,S] mask: batch 1 fully masked → zeros; batch 0 = one-head call */
    enum { B = 2, H = 2, T = 3, S = 4, D = 5 };
    float q[B * H * T * D], k[B * H * S * D], v[B * H * S * D], out[B * H * T * D],
        att[B * H * T * S];
    float out1[T * D], att1[T * S];
    uint8_t mask[B * S] = { 0, 1, 0, 0, 1, 1, 1, 1 };
    check_seed(51);
    check_fill(q, B * H * T * D, -1, 1);
    check_fill(k, B * H * S * D, -1, 1);
    check_fill(v, B * H * S * D, -1, 1);
    check_true("sdpa batched ok",
               al_sdpa(out, att, q, k, v, B, H, T, S, D, D, 0.0f, mask, 0) == AL_OK);
    int zeros = 1;
    for (int i = H * T * D; i < B * H * T * D; i++) zeros &= out[i] == 0.0f;
    for (int i = H * T * S; i < B * H * T * S; i++) zeros &= att[i] == 0.0f;
    check_true("sdpa fully masked batch gives zeros", zeros);
    int h = 1;
    al_sdpa(out1, att1, q + h * T * D, k + h * S * D, v + h * S * D, 1, 1, T, S, D, D, 0.0f, mask,
            0);
    check_close_f("sdpa batch 0 head 1 equals the single-head call", out + h * T * D, out1, T * D,
                  0, 0);
    check_close_f("sdpa batch 0 head 1 weights equal the single-head call", att + h * T * S, att1,
                  T * S, 0, 0);
}

int main(void)
{
    printf("kernels: %s build\n", al_simd() ? "simd128" : "scalar");
    test_sgemm();
    test_sgemv();
    test_simd_scalar_order();
    test_exp();
    test_bias_add();
    test_softmax();
    test_softmax_backward();
    test_activations();
    test_layernorm();
    test_embedding();
    test_sdpa();
    test_sdpa_score_overflow();
    test_first_nonfinite();
    test_api();
    return check_report("test_kernels");
}
