/*
 * test_transformer_layers.c: the transformer encoder and decoder layers
 * (torch.nn.TransformerEncoderLayer / TransformerDecoderLayer) against a double-precision
 * reference written here from the equations, and every gradient (x, memory, all 12 / 18
 * parameters) against central finite differences of that reference (double, h = 1e-5).
 *
 * Loss for the gradients: L = Σ gout·out + Σ gsatt·self_att + Σ gcatt·cross_att with random
 * upstreams, so all three outputs' upstreams are exercised. Tiny shapes (T = 3, S = 4, E = 4,
 * H = 2, F = 6, plus E = 6 with 3 heads, T = 1, B = 2), both norm placements, relu and gelu,
 * causal, key padding masks including a fully masked batch element and a causal row whose only
 * key is masked (zero weights, attention block = out_proj.bias, never NaN). Also: the backward
 * accumulates, status codes, and no leaks. Native, ASan+UBSan and wasm SIMD128.
 */
#include <string.h>

#include "attnlab.h"
#include "check.h"
#include "fixtures.h"

#define ATOL 2e-6 /* a layer is ~6 chained products and norms vs double: a bit above 1e-6 */
#define RTOL 1e-5
#define FD_ATOL 1e-4
#define FD_RTOL 1e-2
#define NP (2 + AL_TL_NUM_PARAMS) /* x, memory, then the params in al_tl_param order */

static double worst_fwd, worst_fd;

struct tl_case {
    int dec, B, T, S, E, F, H, norm_first, gelu, causal;
    const uint8_t *self_mask; /* [B,T] or NULL */
    const uint8_t *mem_mask;  /* [B,S] or NULL (decoder) */
};

/* ------------------------------------------------------------------ double reference */

/* y [R,O] = x [R,I] Wᵀ + b */
static void linear_ref(double *y, const double *x, const double *W, const double *b, int R, int I,
                       int O)
{
    for (int r = 0; r < R; r++)
        for (int o = 0; o < O; o++) {
            double acc = b[o];
            for (int i = 0; i < I; i++) acc += x[(long)r * I + i] * W[(long)o * I + i];
            y[(long)r * O + o] = acc;
        }
}

/* torch.nn.LayerNorm: y = (x − mean) / sqrt(var + eps) · w + b, biased variance */
static void layernorm_ref(double *y, const double *x, const double *w, const double *b, int R,
                          int C)
{
    for (int r = 0; r < R; r++) {
        const double *xr = x + (long)r * C;
        double mu = 0, var = 0;
        for (int c = 0; c < C; c++) mu += xr[c];
        mu /= C;
        for (int c = 0; c < C; c++) var += (xr[c] - mu) * (xr[c] - mu);
        var /= C;
        for (int c = 0; c < C; c++)
            y[(long)r * C + c] = (xr[c] - mu) / sqrt(var + 1e-5) * w[c] + b[c];
    }
}

/* nn.MultiheadAttention: out [T,E], att [H,T,S] from q [T,E], kv [S,E]; a query that sees no key
 * gets zero weights and a zero context, so its output row is b_out */
static void mha_ref(double *out, double *att, const double *q, const double *kv, int T, int S,
                    int E, int H, const double *w_in, const double *b_in, const double *w_out,
                    const double *b_out, const uint8_t *mask, int causal)
{
    int Dh = E / H;
    double *Q = dalloc((long)T * E), *K = dalloc((long)S * E), *V = dalloc((long)S * E);
    double *ctx = dalloc((long)T * E);
    linear_ref(Q, q, w_in, b_in, T, E, E);
    linear_ref(K, kv, w_in + (long)E * E, b_in + E, S, E, E);
    linear_ref(V, kv, w_in + 2L * E * E, b_in + 2 * E, S, E, E);
    for (int h = 0; h < H; h++)
        for (int t = 0; t < T; t++) {
            double *a = att + ((long)h * T + t) * S, m = -INFINITY, sum = 0;
            for (int s = 0; s < S; s++) {
                double e = 0;
                for (int d = 0; d < Dh; d++)
                    e += Q[(long)t * E + h * Dh + d] * K[(long)s * E + h * Dh + d];
                int hidden = (mask && mask[s]) || (causal && s > t);
                a[s] = hidden ? -INFINITY : e / sqrt((double)Dh);
                if (a[s] > m) m = a[s];
            }
            for (int s = 0; s < S; s++) {
                a[s] = isinf(m) ? 0.0 : exp(a[s] - m);
                sum += a[s];
            }
            for (int s = 0; s < S; s++) a[s] = sum > 0 ? a[s] / sum : 0.0;
            for (int d = 0; d < Dh; d++) {
                double c = 0;
                for (int s = 0; s < S; s++) c += a[s] * V[(long)s * E + h * Dh + d];
                ctx[(long)t * E + h * Dh + d] = c;
            }
        }
    linear_ref(out, ctx, w_out, b_out, T, E, E);
    free(Q);
    free(K);
    free(V);
    free(ctx);
}

/* FF(x) = linear2(act(linear1(x))), act relu or exact gelu */
static void ff_ref(double *out, const double *x, int T, int E, int F, double **p, int gelu)
{
    double *u = dalloc((long)T * F);
    linear_ref(u, x, p[2 + AL_TL_LINEAR1_WEIGHT], p[2 + AL_TL_LINEAR1_BIAS], T, E, F);
    for (long i = 0; i < (long)T * F; i++)
        u[i] = gelu ? 0.5 * u[i] * (1.0 + erf(u[i] / sqrt(2.0))) : (u[i] > 0 ? u[i] : 0.0);
    linear_ref(out, u, p[2 + AL_TL_LINEAR2_WEIGHT], p[2 + AL_TL_LINEAR2_BIAS], T, F, E);
    free(u);
}

/*
 * The whole layer, straight from torch's TransformerEncoderLayer/DecoderLayer.forward:
 *   post-norm: x = norm1(x + SA(x)); [x = norm2(x + MHA(x, mem));] x = normL(x + FF(x))
 *   pre-norm:  x = x + SA(norm1(x)); [x = x + MHA(norm2(x), mem);] x = x + FF(normL(x))
 * out [B,T,E]; att = self weights [B,H,T,T] then (decoder) cross weights [B,H,T,S].
 */
static void layer_ref(const struct tl_case *c, double **p, double *out, double *att)
{
    int T = c->T, S = c->S, E = c->E, F = c->F, H = c->H, nb = c->dec ? 3 : 2;
    long n = (long)T * E;
    double *cur = dalloc(n), *sub = dalloc(n), *f = dalloc(n);
    for (int b = 0; b < c->B; b++) {
        memcpy(cur, p[0] + b * n, sizeof(double) * (size_t)n);
        const double *mem = c->dec ? p[1] + (long)b * S * E : NULL;
        for (int k = 0; k < nb; k++) {
            const double *nw = p[2 + AL_TL_NORM1_WEIGHT + 2 * k],
                         *nbias = p[2 + AL_TL_NORM1_BIAS + 2 * k];
            if (c->norm_first)
                layernorm_ref(sub, cur, nw, nbias, T, E);
            else
                memcpy(sub, cur, sizeof(double) * (size_t)n);
            if (k == 0) {
                mha_ref(f, att + (long)b * H * T * T, sub, sub, T, T, E, H,
                        p[2 + AL_TL_SELF_IN_PROJ_WEIGHT], p[2 + AL_TL_SELF_IN_PROJ_BIAS],
                        p[2 + AL_TL_SELF_OUT_PROJ_WEIGHT], p[2 + AL_TL_SELF_OUT_PROJ_BIAS],
                        c->self_mask ? c->self_mask + (long)b * T : NULL, c->causal);
            } else if (k == 1 && c->dec) {
                mha_ref(f, att + (long)c->B * H * T * T + (long)b * H * T * S, sub, mem, T, S, E, H,
                        p[2 + AL_TL_CROSS_IN_PROJ_WEIGHT], p[2 + AL_TL_CROSS_IN_PROJ_BIAS],
                        p[2 + AL_TL_CROSS_OUT_PROJ_WEIGHT], p[2 + AL_TL_CROSS_OUT_PROJ_BIAS],
                        c->mem_mask ? c->mem_mask + (long)b * S : NULL, 0);
            } else {
                ff_ref(f, sub, T, E, F, p, c->gelu);
            }
            for (long i = 0; i < n; i++) cur[i] += f[i];
            if (!c->norm_first) {
                memcpy(sub, cur, sizeof(double) * (size_t)n);
                layernorm_ref(cur, sub, nw, nbias, T, E);
            }
        }
        memcpy(out + b * n, cur, sizeof(double) * (size_t)n);
    }
    free(cur);
    free(sub);
    free(f);
}

/* ------------------------------------------------------------------ sizes */

static void sizes_of(const struct tl_case *c, long *sz)
{
    long E = c->E, F = c->F;
    sz[0] = (long)c->B * c->T * E;
    sz[1] = c->dec ? (long)c->B * c->S * E : 0;
    long ps[AL_TL_NUM_PARAMS] = { 3 * E * E, 3 * E, E * E, E, 3 * E * E, 3 * E, E * E, E, F * E,
                                  F,         E * F, E,     E, E,         E,     E,     E, E };
    for (int i = 0; i < AL_TL_NUM_PARAMS; i++) {
        int cross = i >= AL_TL_CROSS_IN_PROJ_WEIGHT && i <= AL_TL_CROSS_OUT_PROJ_BIAS;
        int norm3 = i == AL_TL_NORM3_WEIGHT || i == AL_TL_NORM3_BIAS;
        sz[2 + i] = (!c->dec && (cross || norm3)) ? 0 : ps[i];
    }
}

static const char *const NAMES[NP] = {
    "x",
    "memory",
    "self_attn.in_proj_weight",
    "self_attn.in_proj_bias",
    "self_attn.out_proj.weight",
    "self_attn.out_proj.bias",
    "multihead_attn.in_proj_weight",
    "multihead_attn.in_proj_bias",
    "multihead_attn.out_proj.weight",
    "multihead_attn.out_proj.bias",
    "linear1.weight",
    "linear1.bias",
    "linear2.weight",
    "linear2.bias",
    "norm1.weight",
    "norm1.bias",
    "norm2.weight",
    "norm2.bias",
    "norm3.weight",
    "norm3.bias",
};

/* L = Σ gout·out + Σ gatt·att at parameters p (double) */
static double loss_ref(const struct tl_case *c, double **p, long nout, long natt, const float *gout,
                       const float *gatt)
{
    double *out = dalloc(nout), *att = dalloc(natt), L = 0;
    layer_ref(c, p, out, att);
    for (long i = 0; i < nout; i++) L += gout[i] * out[i];
    for (long i = 0; i < natt; i++) L += gatt[i] * att[i];
    free(out);
    free(att);
    return L;
}

/* run the C API: forward (out, att) and backward (g), all float */
static void run_layer(const struct tl_case *c, float **p, float *out, float *att, float **g,
                      const float *gout, const float *gatt, al_status *fst, al_status *bst)
{
    int B = c->B, T = c->T, S = c->S, E = c->E, F = c->F, H = c->H;
    int act = c->gelu ? AL_ACT_GELU : AL_ACT_RELU;
    const float *params[AL_TL_NUM_PARAMS];
    float *dparams[AL_TL_NUM_PARAMS];
    for (int i = 0; i < AL_TL_NUM_PARAMS; i++) {
        params[i] = p[2 + i];
        dparams[i] = g[2 + i];
    }
    long nself = (long)B * H * T * T;
    if (!c->dec) {
        *fst = al_transformer_encoder_forward(out, att, p[0], params, B, T, E, F, H, c->norm_first,
                                              act, c->causal, c->self_mask, 1e-5f);
        *bst =
            al_transformer_encoder_backward(g[0], dparams, gout, gatt, p[0], params, B, T, E, F, H,
                                            c->norm_first, act, c->causal, c->self_mask, 1e-5f);
    } else {
        *fst = al_transformer_decoder_forward(out, att, att + nself, p[0], p[1], params, B, T, S, E,
                                              F, H, c->norm_first, act, c->causal, c->self_mask,
                                              c->mem_mask, 1e-5f);
        *bst = al_transformer_decoder_backward(g[0], g[1], dparams, gout, gatt, gatt + nself, p[0],
                                               p[1], params, B, T, S, E, F, H, c->norm_first, act,
                                               c->causal, c->self_mask, c->mem_mask, 1e-5f);
    }
}

static void test_case(const char *what, const struct tl_case *c)
{
    long sz[NP];
    sizes_of(c, sz);
    float *p[NP], *g[NP], *g2[NP];
    double *pd[NP];
    for (int i = 0; i < NP; i++) {
        p[i] = sz[i] ? falloc(sz[i]) : NULL;
        g[i] = sz[i] ? falloc(sz[i]) : NULL;
        g2[i] = sz[i] ? falloc(sz[i]) : NULL;
        if (sz[i]) check_fill(p[i], sz[i], -1, 1);
    }
    double ws = 1.2 / sqrt((double)c->E); /* weights ~ 1/√E so scores and activations stay O(1) */
    for (int i = 2; i < NP; i++)
        if (sz[i] && i - 2 != AL_TL_NORM1_WEIGHT && i - 2 != AL_TL_NORM2_WEIGHT &&
            i - 2 != AL_TL_NORM3_WEIGHT)
            for (long e = 0; e < sz[i]; e++) p[i][e] *= (float)ws;
    for (int k = 0; k < 3; k++) /* norm weights around 1 */
        if (sz[2 + AL_TL_NORM1_WEIGHT + 2 * k])
            for (long e = 0; e < c->E; e++) p[2 + AL_TL_NORM1_WEIGHT + 2 * k][e] += 1.0f;
    long nout = (long)c->B * c->T * c->E;
    long natt = (long)c->B * c->H * c->T * c->T + (c->dec ? (long)c->B * c->H * c->T * c->S : 0);
    float *out = falloc(nout), *att = falloc(natt), *gout = falloc(nout), *gatt = falloc(natt);
    check_fill(gout, nout, -1, 1);
    check_fill(gatt, natt, -1, 1);

    al_status fst, bst;
    run_layer(c, p, out, att, g, gout, gatt, &fst, &bst);
    char label[200];
    snprintf(label, sizeof label, "%s forward ok", what);
    check_true(label, fst == AL_OK);
    snprintf(label, sizeof label, "%s backward ok", what);
    check_true(label, bst == AL_OK);

    /* forward vs the double reference */
    for (int i = 0; i < NP; i++) {
        pd[i] = dalloc(sz[i]);
        for (long e = 0; e < sz[i]; e++) pd[i][e] = p[i][e];
    }
    double *ro = dalloc(nout), *ra = dalloc(natt);
    layer_ref(c, pd, ro, ra);
    snprintf(label, sizeof label, "%s output vs double", what);
    check_close_d(label, out, ro, nout, ATOL, RTOL);
    snprintf(label, sizeof label, "%s weights vs double", what);
    check_close_d(label, att, ra, natt, ATOL, RTOL);
    track_worst(&worst_fwd, out, ro, nout);
    track_worst(&worst_fwd, att, ra, natt);
    int finite = 1;
    for (long i = 0; i < nout; i++) finite &= isfinite(out[i]);
    snprintf(label, sizeof label, "%s output is finite", what);
    check_true(label, finite);

    /* every gradient vs central differences */
    for (int i = 0; i < NP; i++) {
        if (!sz[i]) continue;
        double *num = dalloc(sz[i]);
        const double h = 1e-5;
        for (long e = 0; e < sz[i]; e++) {
            double s = pd[i][e];
            pd[i][e] = s + h;
            double lp = loss_ref(c, pd, nout, natt, gout, gatt);
            pd[i][e] = s - h;
            double lm = loss_ref(c, pd, nout, natt, gout, gatt);
            pd[i][e] = s;
            num[e] = (lp - lm) / (2 * h);
        }
        snprintf(label, sizeof label, "%s d%s vs finite differences", what, NAMES[i]);
        check_close_d(label, g[i], num, sz[i], FD_ATOL, FD_RTOL);
        track_worst(&worst_fd, g[i], num, sz[i]);
        free(num);
    }

    /* the backward accumulates: a second call on top of the first gives twice the gradients */
    for (int i = 0; i < NP; i++)
        if (sz[i]) memcpy(g2[i], g[i], sizeof(float) * (size_t)sz[i]);
    run_layer(c, p, out, att, g2, gout, gatt, &fst, &bst);
    for (int i = 0; i < NP; i++) {
        if (!sz[i]) continue;
        for (long e = 0; e < sz[i]; e++) g[i][e] *= 2;
        snprintf(label, sizeof label, "%s d%s accumulates", what, NAMES[i]);
        check_close_f(label, g2[i], g[i], sz[i], 1e-6, 1e-5);
    }

    for (int i = 0; i < NP; i++) {
        free(p[i]);
        free(g[i]);
        free(g2[i]);
        free(pd[i]);
    }
    free(out);
    free(att);
    free(gout);
    free(gatt);
    free(ro);
    free(ra);
}

static void test_layers(void)
{
    check_seed(505);
    static const uint8_t dead_batch[2 * 3] = { 0, 1, 0, 1, 1, 1 }; /* batch 1 sees nothing */
    static const uint8_t hide_first[3] = { 1, 0, 0 };              /* causal: row 0 is dead */
    static const uint8_t mem_dead[2 * 4] = { 0, 0, 1, 0, 1, 1, 1, 1 };
    static const uint8_t tgt_mask[2 * 3] = { 0, 0, 1, 1, 0, 0 };
    /*                              dec B  T  S  E  F  H  pre gelu causal self_mask mem_mask */
    struct tl_case e_post = { 0, 1, 3, 0, 4, 6, 2, 0, 0, 0, NULL, NULL };
    struct tl_case e_pre_gelu_causal = { 0, 1, 3, 0, 4, 6, 2, 1, 1, 1, NULL, NULL };
    struct tl_case e_dead_batch = { 0, 2, 3, 0, 4, 6, 2, 0, 1, 0, dead_batch, NULL };
    struct tl_case e_pre_dead_batch = { 0, 2, 3, 0, 4, 6, 2, 1, 0, 0, dead_batch, NULL };
    struct tl_case e_causal_dead_row = { 0, 1, 3, 0, 4, 6, 2, 1, 1, 1, hide_first, NULL };
    struct tl_case e_e6_h3_t1 = { 0, 1, 1, 0, 6, 5, 3, 0, 0, 0, NULL, NULL };
    struct tl_case d_post = { 1, 1, 3, 4, 4, 6, 2, 0, 0, 1, NULL, NULL };
    struct tl_case d_pre_gelu = { 1, 1, 3, 4, 4, 6, 2, 1, 1, 1, NULL, NULL };
    struct tl_case d_masks = { 1, 2, 3, 4, 4, 6, 2, 0, 1, 1, tgt_mask, mem_dead };
    struct tl_case d_pre_masks = { 1, 2, 3, 4, 4, 6, 2, 1, 0, 0, tgt_mask, mem_dead };
    struct tl_case d_e6_h3 = { 1, 1, 3, 2, 6, 4, 3, 0, 1, 0, NULL, NULL };
    struct tl_case d_t1 = { 1, 1, 1, 4, 4, 6, 2, 1, 0, 1, NULL, NULL };
    test_case("encoder post relu", &e_post);
    test_case("encoder pre gelu causal", &e_pre_gelu_causal);
    test_case("encoder post gelu dead batch", &e_dead_batch);
    test_case("encoder pre relu dead batch", &e_pre_dead_batch);
    test_case("encoder pre causal dead row", &e_causal_dead_row);
    test_case("encoder E=6 H=3 T=1", &e_e6_h3_t1);
    test_case("decoder post relu causal", &d_post);
    test_case("decoder pre gelu causal", &d_pre_gelu);
    test_case("decoder post masks dead memory", &d_masks);
    test_case("decoder pre masks dead memory", &d_pre_masks);
    test_case("decoder E=6 H=3 S<T", &d_e6_h3);
    test_case("decoder T=1", &d_t1);
}

/* ------------------------------------------------------------------ statuses */

static void test_statuses(void)
{
    static float buf[4096];
    float *f = buf;
    const float *p[AL_TL_NUM_PARAMS];
    float *d[AL_TL_NUM_PARAMS];
    for (int i = 0; i < AL_TL_NUM_PARAMS; i++) {
        p[i] = f + 1024;
        d[i] = f + 2048;
    }
    const float *enc[AL_TL_NUM_PARAMS];
    memcpy(enc, p, sizeof p);
    for (int i = AL_TL_CROSS_IN_PROJ_WEIGHT; i <= AL_TL_CROSS_OUT_PROJ_BIAS; i++) enc[i] = NULL;
    enc[AL_TL_NORM3_WEIGHT] = enc[AL_TL_NORM3_BIAS] = NULL;
    check_true("encoder ignores decoder-only entries",
               al_transformer_encoder_forward(f, NULL, f + 100, enc, 1, 2, 4, 3, 2, 0, AL_ACT_RELU,
                                              0, NULL, 1e-5f) == AL_OK);
    check_true("decoder needs them", al_transformer_decoder_forward(
                                         f, NULL, NULL, f + 100, f + 200, enc, 1, 2, 2, 4, 3, 2, 0,
                                         AL_ACT_RELU, 1, NULL, NULL, 1e-5f) == AL_ERR_ARGUMENT);
    p[AL_TL_NORM2_WEIGHT] = NULL;
    check_true("encoder NULL norm2.weight",
               al_transformer_encoder_forward(f, NULL, f + 100, p, 1, 2, 4, 3, 2, 0, AL_ACT_RELU, 0,
                                              NULL, 1e-5f) == AL_ERR_ARGUMENT);
    p[AL_TL_NORM2_WEIGHT] = f + 1024;
    check_true("encoder E % H",
               al_transformer_encoder_forward(f, NULL, f + 100, p, 1, 2, 6, 3, 4, 0, AL_ACT_RELU, 0,
                                              NULL, 1e-5f) == AL_ERR_SHAPE);
    check_true("encoder H = 0",
               al_transformer_encoder_forward(f, NULL, f + 100, p, 1, 2, 6, 3, 0, 0, AL_ACT_RELU, 0,
                                              NULL, 1e-5f) == AL_ERR_ARGUMENT);
    check_true("encoder tanh activation",
               al_transformer_encoder_forward(f, NULL, f + 100, p, 1, 2, 4, 3, 2, 0, AL_ACT_TANH, 0,
                                              NULL, 1e-5f) == AL_ERR_ARGUMENT);
    check_true("encoder eps 0",
               al_transformer_encoder_forward(f, NULL, f + 100, p, 1, 2, 4, 3, 2, 0, AL_ACT_RELU, 0,
                                              NULL, 0.0f) == AL_ERR_ARGUMENT);
    check_true("encoder eps NaN",
               al_transformer_encoder_forward(f, NULL, f + 100, p, 1, 2, 4, 3, 2, 0, AL_ACT_RELU, 0,
                                              NULL, NAN) == AL_ERR_ARGUMENT);
    check_true("encoder F = 0",
               al_transformer_encoder_forward(f, NULL, f + 100, p, 1, 2, 4, 0, 2, 0, AL_ACT_RELU, 0,
                                              NULL, 1e-5f) == AL_ERR_SHAPE);
    check_true("encoder NULL x",
               al_transformer_encoder_forward(f, NULL, NULL, p, 1, 2, 4, 3, 2, 0, AL_ACT_RELU, 0,
                                              NULL, 1e-5f) == AL_ERR_ARGUMENT);
    check_true("encoder NULL params",
               al_transformer_encoder_forward(f, NULL, f, NULL, 1, 2, 4, 3, 2, 0, AL_ACT_RELU, 0,
                                              NULL, 1e-5f) == AL_ERR_ARGUMENT);
    check_true("encoder overflow",
               al_transformer_encoder_forward(f, NULL, f, p, 1, 65536, 65536, 3, 1, 0, AL_ACT_RELU,
                                              0, NULL, 1e-5f) == AL_ERR_OVERFLOW);
    check_true("encoder backward NULL gradient",
               al_transformer_encoder_backward(f, NULL, NULL, NULL, f, p, 1, 2, 4, 3, 2, 0,
                                               AL_ACT_RELU, 0, NULL, 1e-5f) == AL_ERR_ARGUMENT);
    check_true("encoder backward no upstream ok",
               al_transformer_encoder_backward(f + 3000, d, NULL, NULL, f + 100, p, 1, 2, 4, 3, 2,
                                               1, AL_ACT_GELU, 1, NULL, 1e-5f) == AL_OK);
    check_true("decoder S = 0", al_transformer_decoder_forward(f, NULL, NULL, f + 100, f + 200, p,
                                                               1, 2, 0, 4, 3, 2, 0, AL_ACT_RELU, 1,
                                                               NULL, NULL, 1e-5f) == AL_ERR_SHAPE);
    check_true("decoder NULL memory", al_transformer_decoder_forward(
                                          f, NULL, NULL, f + 100, NULL, p, 1, 2, 2, 4, 3, 2, 0,
                                          AL_ACT_RELU, 1, NULL, NULL, 1e-5f) == AL_ERR_ARGUMENT);
    check_true("decoder backward NULL dmemory",
               al_transformer_decoder_backward(f + 3000, NULL, d, NULL, NULL, NULL, f + 100,
                                               f + 200, p, 1, 2, 2, 4, 3, 2, 0, AL_ACT_RELU, 1,
                                               NULL, NULL, 1e-5f) == AL_ERR_ARGUMENT);
    check_true("decoder backward E % H",
               al_transformer_decoder_backward(f + 3000, f + 3500, d, NULL, NULL, NULL, f + 100,
                                               f + 200, p, 1, 2, 2, 5, 3, 2, 0, AL_ACT_RELU, 1,
                                               NULL, NULL, 1e-5f) == AL_ERR_SHAPE);
    check_true("decoder backward no upstream ok",
               al_transformer_decoder_backward(f + 3000, f + 3500, d, NULL, NULL, NULL, f + 100,
                                               f + 200, p, 1, 2, 3, 4, 3, 2, 0, AL_ACT_RELU, 1,
                                               NULL, NULL, 1e-5f) == AL_OK);
    check_true("no blocks leaked", al_alloc_live() == 0);
}

int main(void)
{
    printf("transformer layers: %s build\n", al_simd() ? "simd128" : "scalar");
    test_layers();
    test_statuses();
    printf("worst |forward - double reference| %.3g, worst |gradient - finite difference| %.3g\n",
           worst_fwd, worst_fd);
    return check_report("test_transformer_layers");
}
