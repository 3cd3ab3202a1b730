/*
 * test_pooling.c: the pooling attentions of api/pooling.h (Zhou et al. 2016 attention pooling,
 * HAN context pooling, Lin et al. 2017 structured self-attention) against double-precision
 * references computed here, every gradient of every input and parameter against central finite
 * differences (loss Σ upstream·outputs summed in double), the kernels' += convention, fully
 * masked and length-1 sequences, and the status codes of bad arguments.
 *
 * Built natively (the SSE twins of the primitives), under ASan+UBSan, and as wasm -msimd128 under
 * Node. The ops route their products and softmax through the dispatched primitives, whose
 * scalar/SIMD twins test_kernels.c compares; here sizes run past the 4-lane width (d = 19,
 * n = 37) so the twins' tails are exercised inside each op too.
 */
#include <string.h>

#include "attnlab.h"
#include "check.h"
#include "fixtures.h"
#include "kernels/attention_pooling.h"

#define ATOL 1e-6
#define RTOL 1e-5
#define FD_ATOL 1e-4
#define FD_RTOL 1e-2

/* the worst |got − want| per kind of comparison, printed at the end */
static double worst_forward, worst_fd;
static const char *worst_forward_at = "", *worst_fd_at = "";
static char worst_forward_buf[160], worst_fd_buf[160];

static void track(const char *what, const float *a, const double *e, long n, int fd)
{
    for (long i = 0; i < n; i++) {
        double diff = fabs((double)a[i] - e[i]);
        if (fd ? diff > worst_fd : diff > worst_forward) {
            char *buf = fd ? worst_fd_buf : worst_forward_buf;
            snprintf(buf, 160, "%s [%ld]", what, i);
            if (fd) {
                worst_fd = diff;
                worst_fd_at = buf;
            } else {
                worst_forward = diff;
                worst_forward_at = buf;
            }
        }
    }
}

/* y [C] = softmax of x [C] over unmasked entries, in double; all masked → zeros */
static void softmax_d(double *y, const double *x, const uint8_t *mask, int C)
{
    double mx = -INFINITY, sum = 0;
    for (int c = 0; c < C; c++)
        if (!(mask && mask[c]) && x[c] > mx) mx = x[c];
    for (int c = 0; c < C; c++) {
        y[c] = (mask && mask[c]) ? 0.0 : exp(x[c] - mx);
        sum += y[c];
    }
    for (int c = 0; c < C; c++) y[c] = sum > 0 ? y[c] / sum : 0.0;
}

/* ------------------------------------------------------------------ double references, one sequence */

static void attention_pooling_ref(double *r, double *hs, double *a, const float *H, const float *w,
                                  const uint8_t *mask, int n, int d)
{
    double *s = dalloc(n);
    for (int i = 0; i < n; i++) {
        s[i] = 0;
        for (int j = 0; j < d; j++) s[i] += tanh((double)H[i * d + j]) * w[j];
    }
    softmax_d(a, s, mask, n);
    for (int j = 0; j < d; j++) {
        r[j] = 0;
        for (int i = 0; i < n; i++) r[j] += a[i] * H[i * d + j];
        hs[j] = tanh(r[j]);
    }
    free(s);
}

static void context_pooling_ref(double *s, double *a, const float *H, const float *W,
                                const float *b, const float *u, const uint8_t *mask, int n, int d,
                                int dw)
{
    double *e = dalloc(n);
    for (int i = 0; i < n; i++) {
        e[i] = 0;
        for (int k = 0; k < dw; k++) {
            double z = b[k];
            for (int j = 0; j < d; j++) z += (double)W[k * d + j] * H[i * d + j];
            e[i] += tanh(z) * u[k];
        }
    }
    softmax_d(a, e, mask, n);
    for (int j = 0; j < d; j++) {
        s[j] = 0;
        for (int i = 0; i < n; i++) s[j] += a[i] * H[i * d + j];
    }
    free(e);
}

static void ssa_ref(double *M, double *A, double *pen, const float *H, const float *W1,
                    const float *W2, const uint8_t *mask, int n, int d, int da, int r)
{
    double *T = dalloc((long)n * da), *S = dalloc((long)r * n);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < da; k++) {
            double z = 0;
            for (int j = 0; j < d; j++) z += (double)W1[k * d + j] * H[i * d + j];
            T[i * da + k] = tanh(z);
        }
    for (int h = 0; h < r; h++) {
        for (int i = 0; i < n; i++) {
            S[h * n + i] = 0;
            for (int k = 0; k < da; k++) S[h * n + i] += (double)W2[h * da + k] * T[i * da + k];
        }
        softmax_d(A + h * n, S + h * n, mask, n);
        for (int j = 0; j < d; j++) {
            M[h * d + j] = 0;
            for (int i = 0; i < n; i++) M[h * d + j] += A[h * n + i] * H[i * d + j];
        }
    }
    double p = 0;
    for (int a = 0; a < r; a++)
        for (int c = 0; c < r; c++) {
            double g = 0;
            for (int i = 0; i < n; i++) g += A[a * n + i] * A[c * n + i];
            g -= a == c;
            p += g * g;
        }
    *pen = p;
    free(T);
    free(S);
}

/* ------------------------------------------------------------------ shared problem setup */

/* One batched problem of any of the three ops: inputs, parameters, upstream gradients. */
struct problem {
    int op;             /* 0 attention pooling, 1 context pooling, 2 structured self-attention */
    int B, n, d, dw, r; /* dw is dw (context) or da (structured) */
    float *H, *P[3];    /* H [B,n,d], parameters (w | W,b,u | W_s1,W_s2) */
    long np[3];         /* parameter sizes */
    int nparams;
    uint8_t *mask; /* [B,n] or NULL */
    float *up[3];  /* upstream gradients of the outputs */
    long nout[3];  /* output sizes (whole batch) */
    int nouts;
};

static void problem_init(struct problem *p, int op, int B, int n, int d, int dw, int r,
                         const uint8_t *mask, uint64_t seed)
{
    memset(p, 0, sizeof *p);
    p->op = op;
    p->B = B;
    p->n = n;
    p->d = d;
    p->dw = dw;
    p->r = r;
    check_seed(seed);
    p->H = falloc((long)B * n * d);
    check_fill(p->H, (long)B * n * d, -2, 2);
    if (op == 0) {
        p->nparams = 1;
        p->np[0] = d;
        p->nouts = 3;
        p->nout[0] = (long)B * d;
        p->nout[1] = (long)B * d;
        p->nout[2] = (long)B * n;
    } else if (op == 1) {
        p->nparams = 3;
        p->np[0] = (long)dw * d;
        p->np[1] = dw;
        p->np[2] = dw;
        p->nouts = 2;
        p->nout[0] = (long)B * d;
        p->nout[1] = (long)B * n;
    } else {
        p->nparams = 2;
        p->np[0] = (long)dw * d;
        p->np[1] = (long)r * dw;
        p->nouts = 3;
        p->nout[0] = (long)B * r * d;
        p->nout[1] = (long)B * r * n;
        p->nout[2] = B;
    }
    /* weights large enough that the softmax is far from uniform */
    for (int k = 0; k < p->nparams; k++) {
        p->P[k] = falloc(p->np[k]);
        float scale = (op == 0 || k == p->nparams - 1) ? 3.0f : 1.0f;
        check_fill(p->P[k], p->np[k], -scale, scale);
    }
    for (int k = 0; k < p->nouts; k++) {
        p->up[k] = falloc(p->nout[k]);
        check_fill(p->up[k], p->nout[k], -1, 1);
    }
    if (mask) {
        p->mask = check_alloc((size_t)B * n);
        memcpy(p->mask, mask, (size_t)B * n);
    }
}

static void problem_free(struct problem *p)
{
    free(p->H);
    free(p->mask);
    for (int k = 0; k < 3; k++) {
        free(p->P[k]);
        free(p->up[k]);
    }
}

static al_status problem_forward(const struct problem *p, float **out)
{
    switch (p->op) {
    case 0:
        return al_attention_pooling_forward(out[0], out[1], out[2], p->H, p->P[0], p->mask, p->B,
                                            p->n, p->d);
    case 1:
        return al_context_pooling_forward(out[0], out[1], p->H, p->P[0], p->P[1], p->P[2], p->mask,
                                          p->B, p->n, p->d, p->dw);
    default:
        return al_structured_self_attention_forward(out[0], out[1], out[2], p->H, p->P[0], p->P[1],
                                                    p->mask, p->B, p->n, p->d, p->dw, p->r);
    }
}

/* grads[0] = dH, grads[1..] = parameter gradients */
static al_status problem_backward(const struct problem *p, float **grads)
{
    switch (p->op) {
    case 0:
        return al_attention_pooling_backward(grads[0], grads[1], p->H, p->P[0], p->mask, p->B, p->n,
                                             p->d, p->up[0], p->up[1], p->up[2]);
    case 1:
        return al_context_pooling_backward(grads[0], grads[1], grads[2], grads[3], p->H, p->P[0],
                                           p->P[1], p->P[2], p->mask, p->B, p->n, p->d, p->dw,
                                           p->up[0], p->up[1]);
    default:
        return al_structured_self_attention_backward(grads[0], grads[1], grads[2], p->H, p->P[0],
                                                     p->P[1], p->mask, p->B, p->n, p->d, p->dw,
                                                     p->r, p->up[0], p->up[1], p->up[2]);
    }
}

/* L = Σ upstream · outputs, in double */
static double problem_loss(const struct problem *p)
{
    float *out[3] = { 0 };
    for (int k = 0; k < p->nouts; k++) out[k] = falloc(p->nout[k]);
    if (problem_forward(p, out) != AL_OK) {
        check_true("forward ok inside the finite-difference loss", 0);
        return NAN;
    }
    double L = 0;
    for (int k = 0; k < p->nouts; k++) {
        for (long i = 0; i < p->nout[k]; i++) L += (double)p->up[k][i] * out[k][i];
        free(out[k]);
    }
    return L;
}

static const char *op_names[3] = { "attention_pooling", "context_pooling",
                                   "structured_self_attention" };
static const char *param_names[3][3] = { { "w" }, { "W", "b", "u" }, { "W_s1", "W_s2" } };

/* every gradient of every input and parameter against central finite differences */
static void check_gradients(struct problem *p, const char *label)
{
    float *grads[4];
    long ng[4];
    ng[0] = (long)p->B * p->n * p->d;
    for (int k = 0; k < p->nparams; k++) ng[k + 1] = p->np[k];
    for (int k = 0; k <= p->nparams; k++) {
        grads[k] = falloc(ng[k]);
        check_fill(grads[k], ng[k], -9, 9); /* the API writes (=): garbage in must not leak out */
    }
    check_true("backward ok", problem_backward(p, grads) == AL_OK);
    for (int k = 0; k <= p->nparams; k++) {
        float *x = k == 0 ? p->H : p->P[k - 1];
        double *num = dalloc(ng[k]);
        for (long i = 0; i < ng[k]; i++) {
            const float h = 1e-2f;
            float x0 = x[i];
            x[i] = x0 + h;
            double lp = problem_loss(p);
            x[i] = x0 - h;
            double lm = problem_loss(p);
            x[i] = x0;
            /* the float step actually taken, not h: x0 ± h rounds */
            num[i] = (lp - lm) / ((double)(x0 + h) - (double)(x0 - h));
        }
        char what[160];
        snprintf(what, sizeof what, "%s %s: d%s vs finite differences", op_names[p->op], label,
                 k == 0 ? "H" : param_names[p->op][k - 1]);
        check_close_d(what, grads[k], num, ng[k], FD_ATOL, FD_RTOL);
        track(what, grads[k], num, ng[k], 1);
        free(num);
        free(grads[k]);
    }
}

/* forward (batched API) against the double reference, item by item */
static void check_forward(const struct problem *p, const char *label)
{
    float *out[3] = { 0 };
    for (int k = 0; k < p->nouts; k++) {
        out[k] = falloc(p->nout[k]);
        for (long i = 0; i < p->nout[k]; i++) out[k][i] = NAN;
    }
    check_true("forward ok", problem_forward(p, out) == AL_OK);
    long per[3];
    for (int k = 0; k < p->nouts; k++) per[k] = p->nout[k] / p->B;
    double *ref[3];
    for (int k = 0; k < p->nouts; k++) ref[k] = dalloc(p->nout[k]);
    int n = p->n, d = p->d;
    for (int b = 0; b < p->B; b++) {
        const float *Hb = p->H + (long)b * n * d;
        const uint8_t *mb = p->mask ? p->mask + (long)b * n : NULL;
        if (p->op == 0)
            attention_pooling_ref(ref[0] + b * per[0], ref[1] + b * per[1], ref[2] + b * per[2], Hb,
                                  p->P[0], mb, n, d);
        else if (p->op == 1)
            context_pooling_ref(ref[0] + b * per[0], ref[1] + b * per[1], Hb, p->P[0], p->P[1],
                                p->P[2], mb, n, d, p->dw);
        else
            ssa_ref(ref[0] + b * per[0], ref[1] + b * per[1], ref[2] + b, Hb, p->P[0], p->P[1], mb,
                    n, d, p->dw, p->r);
    }
    static const char *out_names[3][3] = { { "r", "hStar", "weights" },
                                           { "s", "weights" },
                                           { "M", "weights", "penalty" } };
    for (int k = 0; k < p->nouts; k++) {
        char what[160];
        snprintf(what, sizeof what, "%s %s: %s vs double reference", op_names[p->op], label,
                 out_names[p->op][k]);
        /* the penalty sums r² squared Gram entries: its rounding scales with r², so rtol 1e-5
         * of the (possibly cancelled) value is replaced by 1e-5 of Σ|terms| ≤ r² + r */
        if (p->op == 2 && k == 2) {
            double *mag = dalloc(p->B);
            for (int b = 0; b < p->B; b++) mag[b] = (double)p->r * p->r + p->r;
            check_close_mag(what, out[k], ref[k], mag, p->nout[k], ATOL, RTOL);
            track(what, out[k], ref[k], p->nout[k], 0);
            free(mag);
        } else {
            check_close_d(what, out[k], ref[k], p->nout[k], ATOL, RTOL);
            track(what, out[k], ref[k], p->nout[k], 0);
        }
        free(out[k]);
        free(ref[k]);
    }
}

/* ------------------------------------------------------------------ the cases */

static void test_forward_and_gradients(void)
{
    /* batch 0 partly masked, batch 1 fully masked, batch 2 unmasked */
    static const uint8_t mask3x5[15] = { 0, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0 };
    struct problem p;
    for (int op = 0; op < 3; op++) {
        /* tiny shapes for finite differences: d = 5, dw = 3 (context), da = 7 (structured) */
        int dw = op == 1 ? 3 : 7;
        for (int r = 1; r <= 3; r += 2) {
            if (op != 2 && r == 3) continue;
            char label[64];
            snprintf(label, sizeof label, "B=3 n=5 d=5 dw=%d r=%d masked", dw, r);
            problem_init(&p, op, 3, 5, 5, dw, r, mask3x5, 100 + op * 10 + r);
            check_forward(&p, label);
            check_gradients(&p, label);
            problem_free(&p);
        }
        problem_init(&p, op, 1, 1, 5, dw, 3, NULL, 200 + op);
        check_forward(&p, "n=1");
        check_gradients(&p, "n=1");
        problem_free(&p);
        problem_init(&p, op, 2, 4, 1, 1, 1, NULL, 210 + op);
        check_forward(&p, "d=1 dw=1 r=1");
        check_gradients(&p, "d=1 dw=1 r=1");
        problem_free(&p);
        /* larger: past the 4-lane width and the 8-wide tiles, forward only */
        problem_init(&p, op, 2, 37, 19, 13, 5, NULL, 220 + op);
        check_forward(&p, "B=2 n=37 d=19 dw=13 r=5");
        problem_free(&p);
        problem_init(&p, op, 1, 300, 8, 16, 4, NULL, 230 + op);
        check_forward(&p, "n=300 d=8 dw=16 r=4");
        problem_free(&p);
    }
}

/* a fully masked sequence: zero weights and outputs (penalty = r), finite zero gradients */
static void test_fully_masked(void)
{
    static const uint8_t all[4] = { 1, 1, 1, 1 };
    struct problem p;
    for (int op = 0; op < 3; op++) {
        problem_init(&p, op, 1, 4, 3, 2, 3, all, 300 + op);
        float *out[3] = { 0 }, *grads[4];
        for (int k = 0; k < p.nouts; k++) out[k] = falloc(p.nout[k]);
        check_true("fully masked forward ok", problem_forward(&p, out) == AL_OK);
        int ok = 1;
        for (int k = 0; k < p.nouts; k++)
            for (long i = 0; i < p.nout[k]; i++)
                ok &= (op == 2 && k == 2) ? out[k][i] == 3.0f : out[k][i] == 0.0f;
        char what[128];
        snprintf(what, sizeof what,
                 "%s fully masked: weights and outputs are exactly 0 (penalty r)", op_names[op]);
        check_true(what, ok);
        long ng[4] = { (long)p.B * p.n * p.d, p.np[0], p.np[1], p.np[2] };
        for (int k = 0; k <= p.nparams; k++) grads[k] = falloc(ng[k]);
        check_true("fully masked backward ok", problem_backward(&p, grads) == AL_OK);
        ok = 1;
        for (int k = 0; k <= p.nparams; k++)
            for (long i = 0; i < ng[k]; i++) ok &= grads[k][i] == 0.0f;
        snprintf(what, sizeof what, "%s fully masked: every gradient is exactly 0", op_names[op]);
        check_true(what, ok);
        for (int k = 0; k < p.nouts; k++) free(out[k]);
        for (int k = 0; k <= p.nparams; k++) free(grads[k]);
        problem_free(&p);
    }
}

/* the kernels accumulate: a second backward into the same buffers doubles them */
static void test_accumulation(void)
{
    enum { n = 4, d = 5, da = 3, r = 2 };
    float H[n * d], W1[da * d], W2[r * da], dM[r * d], A[r * n], M[r * d], pen;
    float dH1[n * d] = { 0 }, dW1[da * d] = { 0 }, dW2[r * da] = { 0 };
    float dH2[n * d], dW12[da * d], dW22[r * da];
    float *scratch = falloc((long)al_structured_self_attention_scratch_floats(n, d, da, r));
    check_seed(400);
    check_fill(H, n * d, -1, 1);
    check_fill(W1, da * d, -1, 1);
    check_fill(W2, r * da, -2, 2);
    check_fill(dM, r * d, -1, 1);
    al_structured_self_attention_seq_forward(M, A, &pen, H, W1, W2, NULL, n, d, da, r, scratch);
    al_structured_self_attention_seq_backward(dH1, dW1, dW2, H, W1, W2, A, dM, NULL, 0.5f, n, d, da,
                                              r, scratch);
    memcpy(dH2, dH1, sizeof dH1);
    memcpy(dW12, dW1, sizeof dW1);
    memcpy(dW22, dW2, sizeof dW2);
    al_structured_self_attention_seq_backward(dH2, dW12, dW22, H, W1, W2, A, dM, NULL, 0.5f, n, d,
                                              da, r, scratch);
    for (int i = 0; i < n * d; i++) dH1[i] *= 2;
    for (int i = 0; i < da * d; i++) dW1[i] *= 2;
    for (int i = 0; i < r * da; i++) dW2[i] *= 2;
    check_close_f("structured backward accumulates into dH", dH2, dH1, n * d, ATOL, RTOL);
    check_close_f("structured backward accumulates into dW_s1", dW12, dW1, da * d, ATOL, RTOL);
    check_close_f("structured backward accumulates into dW_s2", dW22, dW2, r * da, ATOL, RTOL);
    free(scratch);
}

static void test_api(void)
{
    float x[64] = { 0 }, y[64], z[64], q[64];
    uint8_t m[8] = { 0 };
    check_true("attention pooling NULL H",
               al_attention_pooling_forward(y, z, q, NULL, x, m, 1, 2, 2) == AL_ERR_ARGUMENT);
    check_true("attention pooling NULL r",
               al_attention_pooling_forward(NULL, z, q, x, x, m, 1, 2, 2) == AL_ERR_ARGUMENT);
    check_true("attention pooling n=0",
               al_attention_pooling_forward(y, z, q, x, x, m, 1, 0, 2) == AL_ERR_SHAPE);
    check_true("attention pooling B=0",
               al_attention_pooling_forward(y, z, q, x, x, m, 0, 2, 2) == AL_ERR_SHAPE);
    check_true("attention pooling huge",
               al_attention_pooling_forward(y, z, q, x, x, m, 65536, 65536, 1) == AL_ERR_OVERFLOW);
    check_true("attention pooling backward NULL dw",
               al_attention_pooling_backward(y, NULL, x, x, m, 1, 2, 2, NULL, NULL, NULL) ==
                   AL_ERR_ARGUMENT);
    check_true("context pooling NULL b",
               al_context_pooling_forward(y, z, x, x, NULL, x, m, 1, 2, 2, 2) == AL_ERR_ARGUMENT);
    check_true("context pooling dw=0",
               al_context_pooling_forward(y, z, x, x, x, x, m, 1, 2, 2, 0) == AL_ERR_SHAPE);
    check_true("context pooling backward NULL du",
               al_context_pooling_backward(y, z, q, NULL, x, x, x, x, m, 1, 2, 2, 2, NULL, NULL) ==
                   AL_ERR_ARGUMENT);
    check_true("context pooling huge W",
               al_context_pooling_forward(y, z, x, x, x, x, m, 1, 1, 65536, 65536) ==
                   AL_ERR_OVERFLOW);
    check_true("structured NULL W_s2",
               al_structured_self_attention_forward(y, z, q, x, x, NULL, m, 1, 2, 2, 2, 2) ==
                   AL_ERR_ARGUMENT);
    check_true("structured NULL penalty",
               al_structured_self_attention_forward(y, z, NULL, x, x, x, m, 1, 2, 2, 2, 2) ==
                   AL_ERR_ARGUMENT);
    check_true("structured r=0", al_structured_self_attention_forward(y, z, q, x, x, x, m, 1, 2, 2,
                                                                      2, 0) == AL_ERR_SHAPE);
    check_true("structured huge",
               al_structured_self_attention_forward(y, z, q, x, x, x, m, 1, 2, 2, 2, 65536 * 2) ==
                   AL_ERR_OVERFLOW);
    float bad[2] = { 1.0f, NAN };
    check_true("structured backward NaN dpenalty",
               al_structured_self_attention_backward(y, z, q, x, x, x, NULL, 2, 1, 1, 1, 1, NULL,
                                                     NULL, bad) == AL_ERR_NONFINITE);
    check_true("no leaks after the API calls", al_alloc_live() == 0);
}

int main(void)
{
    printf("pooling: %s build\n", al_simd() ? "simd128" : "scalar");
    test_forward_and_gradients();
    test_fully_masked();
    test_accumulation();
    test_api();
    printf("worst forward |diff| vs double: %.3g at %s\n", worst_forward, worst_forward_at);
    printf("worst gradient |diff| vs finite differences: %.3g at %s\n", worst_fd, worst_fd_at);
    return check_report("test_pooling");
}
