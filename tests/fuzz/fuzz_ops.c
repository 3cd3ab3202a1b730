/*
 * fuzz_ops.c: libFuzzer target for the validated op entry points (src/attnlab.h, the src/api/ headers),
 * every one except the loader, model and trainer ones (fuzz_safetensors, fuzz_models).
 *
 *     make build/fuzz/fuzz_ops && build/fuzz/fuzz_ops -dict=tests/fuzz/ops.dict \
 *         build/fuzz/corpus/ops tests/fuzz/corpus/ops          # or: make fuzz / make fuzz-smoke
 *
 * Input layout (HDR bytes, then data):
 *   [0] op (mod NUM_OPS)   [1..8] eight dimensions   [9..12] flag bytes   [13..16] float options
 *   [17] null pick: < 24 makes the n-th required pointer NULL       [18..] array contents
 * A dimension byte is mostly small (1..4, 1..24) and otherwise one of 0, -1, -2, INT_MIN,
 * INT_MAX, 2^30, 2^16, 46341 (46341² > 2^31), ...; a float option is a value in [-4, 4) or one of
 * NaN, ±Inf, ±1e30, 1e-30, a subnormal, ±FLT_MAX, ... (see dim() and fopt()).
 *
 * Every op runs twice: a dry pass that only works out the documented size of every array (each
 * through a helper below), then the real call. When a dimension is < 1 or a tensor reaches 2^31
 * elements, the arrays are tiny heap blocks and the status must not be AL_OK. When the
 * dimensions are valid and small (every tensor <= CAP_TENSOR floats, all <= CAP_TOTAL), every
 * array is a heap block of EXACTLY its documented size, filled from the data (so ASan reports any
 * read or write past a documented size), outputs are pre-filled with NaN (so an element the op
 * forgets to write shows up), and += gradients with zeros.
 *
 * Invariants (each violation traps, so libFuzzer keeps the input):
 *   the status is in the al_status enum; AL_OK never for an invalid argument (a dimension < 1,
 *   a tensor of 2^31+ elements, an unknown enum, a non-finite scale/eps/window, H not dividing
 *   E, k < 0, an id out of range, a required pointer NULL); AL_OK (or AL_ERR_NOMEM) for valid
 *   arguments; with finite inputs and options of moderate size (|x| <= 4) every output is finite
 *   and every attention row is a distribution (sums to 1) or all zeros (fully masked);
 *   al_alloc_live() is back to its value before the call. ASan/UBSan findings abort by themselves.
 * Not checked: numerical accuracy (tests/c does that against double references).
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attnlab.h"

#define REQUIRE(c)                                                                                 \
    do {                                                                                           \
        if (!(c)) __builtin_trap();                                                                \
    } while (0)

#define HDR 18
#define CAP_TENSOR 16384 /* floats in one array of a valid call */
#define CAP_TOTAL 65536  /* floats in all arrays of a valid call */
#define MAX_BLOCKS 128
#define TOO_BIG (1LL << 40)  /* saturation of size products */
#define LIMIT31 2147483648LL /* 2^31: the documented element limit */

typedef struct {
    const uint8_t *data; /* data [size]: array contents, consumed in order */
    size_t size;
    int op;
    int d[8];     /* decoded dimensions */
    uint8_t f[4]; /* flag bytes */
    float x[4];   /* float options */
    int xmod[4];  /* x[i] finite and |x[i]| <= 4 */
    int nullpick; /* index of the required pointer to pass as NULL, or -1 */
    int dry;      /* 1: only size the arrays */
    int small;    /* 1: tiny buffers (the call must fail) */
    /* what the dry pass learns */
    int shapebad, over, toolarge, optbad, nullbad, ambig;
    int nreq;        /* required pointers seen so far */
    long long total; /* floats allocated */
    int moderate;    /* data finite and |x| <= 4 */
    /* blocks to free, outputs to check */
    void *blocks[MAX_BLOCKS];
    int nblocks;
    float *outs[MAX_BLOCKS];
    long long nouts[MAX_BLOCKS];
    int nout;
    float *rows[16]; /* attention weights: rows of rowlen sum to 1 or are all zero */
    long long nrows[16], rowlen[16];
    int nrow, rows_loose; /* rows_loose: weights in [0,1] only (local attention) */
    int finite_data;      /* 1: map NaN/Inf/1e30 data to 1 (FUZZ_SKIP_KNOWN, below) */
} ctx;

/* -DFUZZ_SKIP_KNOWN=1 steers around findings already reported (docs/reliability.md), so a long
 * run can look for new ones: NaN/Inf data never reaches local-p attention (a NaN p_t is cast to
 * int in luong_forward), and windows below 1e-3 are not held to finite outputs (σ² = D²/4
 * underflows). The default build keeps every path, so `make fuzz` still finds them. */
#ifndef FUZZ_SKIP_KNOWN
#define FUZZ_SKIP_KNOWN 0
#endif

static ctx *C; /* the current input (one at a time) */

static uint8_t next_byte(void)
{
    if (!C->size) return 0;
    C->size--;
    return *C->data++;
}

static int dim(uint8_t b)
{
    static const int special[16] = {
        0,     -1,      -2, INT_MIN, INT_MAX, 1 << 30, 1 << 16, 46341,
        65537, 1 << 20, 25, 100,     0,       -1,      1 << 15, 1 << 24
    };
    if (b < 176) return 1 + b % 4;
    if (b < 240) return 1 + b % 24;
    return special[b - 240];
}

static float fopt(uint8_t b, int *moderate)
{
    static const float special[16] = { NAN,    INFINITY, -INFINITY, 1e30f, -1e30f, 1e-30f,
                                       1e-45f, FLT_MAX,  -FLT_MAX,  1e-8f, 1e8f,   0.0f,
                                       -0.0f,  1e-6f,    1e-3f,     1e5f };
    float v = b < 200 ? (b - 100) / 25.0f : special[(b - 200) % 16];
    *moderate = isfinite(v) && fabsf(v) <= 4.0f;
    return v;
}

/* a data value: [-4, 4) mostly; NaN, ±Inf, ±1e30, tiny ones now and then */
static float fdata(void)
{
    static const float special[16] = { NAN,   INFINITY, -INFINITY, 1e30f, -1e30f, 1e-30f,
                                       -0.0f, 1e-45f,   4.0f,      -4.0f, 1.0f,   -1.0f,
                                       0.0f,  0.5f,     2.0f,      3.0f };
    if (!C->size) return 0.25f;
    uint8_t b = next_byte();
    if (b < 240) return (b - 120) / 30.0f;
    if (b - 240 < 5 && C->finite_data) return 1.0f;
    if (b - 240 < 5) C->moderate = 0; /* NaN, ±Inf, ±1e30 */
    return special[b - 240];
}

/* the product of sizes, saturated at TOO_BIG; -1 when a factor is < 1 */
static long long P(long long a, long long b, long long c, long long d)
{
    long long f[4] = { a, b, c, d }, p = 1;
    for (int i = 0; i < 4; i++) {
        if (f[i] < 1) return -1;
        p = p > TOO_BIG / f[i] ? TOO_BIG : p * f[i];
    }
    return p;
}
#define P1(a) P(a, 1, 1, 1)
#define P2(a, b) P(a, b, 1, 1)
#define P3(a, b, c) P(a, b, c, 1)

static void *block(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    REQUIRE(p && C->nblocks < MAX_BLOCKS);
    C->blocks[C->nblocks++] = p;
    return p;
}

/* kinds of array */
enum { IN, OUT, ACC, WR };

/* A float array of n elements: in the dry pass only its size counts; otherwise a heap block of
 * exactly n floats (tiny when small). required: a NULL here must fail the call. */
static float *arr(long long n, int kind, int required)
{
    int nulled = required && C->nreq++ == C->nullpick;
    if (C->dry) { /* sized even when NULL: its dimensions must still be checked */
        if (n < 0)
            C->shapebad = 1;
        else if (n >= LIMIT31)
            C->over = 1;
        else if (n > CAP_TENSOR || (C->total += n) > CAP_TOTAL)
            C->toolarge = 1;
        if (nulled) C->nullbad = 1;
        return nulled ? NULL : (float *)C->blocks; /* never dereferenced */
    }
    if (nulled) return NULL;
    if (C->small) {
        float *p = block(16 * sizeof(float));
        for (int i = 0; i < 16; i++) p[i] = 0.0f;
        return p;
    }
    float *p = block((size_t)n * sizeof(float));
    for (long long i = 0; i < n; i++) p[i] = kind == IN ? fdata() : kind == ACC ? 0.0f : NAN;
    if (kind != IN && C->nout < MAX_BLOCKS) {
        C->outs[C->nout] = p;
        C->nouts[C->nout++] = n;
    }
    return p;
}
static float *in(long long n) { return arr(n, IN, 1); }
static float *out(long long n) { return arr(n, OUT, 1); }
static float *acc(long long n) { return arr(n, ACC, 1); }
static float *wr(long long n) { return arr(n, WR, 1); }
/* optional arrays: NULL when bit `bit` of flag byte 3 is clear */
static int opt(int bit) { return (C->f[3] >> bit) & 1; }
static float *in_opt(long long n, int bit) { return opt(bit) ? arr(n, IN, 0) : NULL; }
static float *out_opt(long long n, int bit) { return opt(bit) ? arr(n, OUT, 0) : NULL; }

/* a uint8 mask [n] (1 = masked) or NULL (bit 7 of flag byte 3 clear) */
static uint8_t *mask_opt(long long n)
{
    if (!opt(7)) return NULL;
    if (C->dry) {
        if (n < 0)
            C->shapebad = 1;
        else if (n >= LIMIT31)
            C->over = 1;
        else if (n > CAP_TENSOR)
            C->toolarge = 1;
        return (uint8_t *)C->blocks;
    }
    if (C->small) return memset(block(16), 0, 16);
    uint8_t *m = block((size_t)n);
    uint8_t bits = 0;
    for (long long i = 0; i < n; i++) {
        if (i % 8 == 0) bits = next_byte();
        m[i] = (bits >> (i % 8)) & 1;
    }
    return m;
}

/* attention weights to check as distributions over rows of len */
static void rows(float *w, long long n, long long len)
{
    if (!w || C->dry || C->small || C->nrow >= 16) return;
    C->rows[C->nrow] = w;
    C->nrows[C->nrow] = n;
    C->rowlen[C->nrow++] = len;
}

/* ------------------------------------------------------------------ the ops */

#define CALL(e)                                                                                    \
    do {                                                                                           \
        if (C->dry) return AL_OK;                                                                  \
        return (e);                                                                                \
    } while (0)
#define D0 C->d[0]
#define D1 C->d[1]
#define D2 C->d[2]
#define D3 C->d[3]
#define D4 C->d[4]
#define D5 C->d[5]
#define D6 C->d[6]
#define D7 C->d[7]
#define F0 C->f[0]
#define F1 C->f[1]
#define F2 C->f[2]

static al_status op_matmul(void)
{
    int M = D0, K = D1, N = D2;
    float *c = out(P2(M, N));
    float *a = in(P2(M, K)), *b = in(P2(K, N));
    CALL(al_matmul(c, a, b, M, K, N, F0 & 1, (F0 >> 1) & 1));
}

static al_status op_matvec(void)
{
    int M = D0, K = D1;
    float *y = out(P1(M)), *a = in(P2(M, K)), *x = in(P1(K));
    CALL(al_matvec(y, a, x, M, K));
}

static al_status op_softmax(void)
{
    int R = D0, Cc = D1, stride_kind = F0 % 3;
    int stride = stride_kind == 0 ? Cc : stride_kind == 1 ? 0 : (int)(int8_t)F1;
    uint8_t *mask = mask_opt(stride == 0 ? P1(Cc) : P2(R, Cc));
    if (mask && stride != 0 && stride != Cc) C->optbad = 1;
    float *x = in(P2(R, Cc));
    float *y = (F0 & 8) && x ? x : out(P2(R, Cc));
    if (y == x && !C->dry && !C->small && C->nout < MAX_BLOCKS) {
        C->outs[C->nout] = y;
        C->nouts[C->nout++] = P2(R, Cc);
    }
    rows(y, P2(R, Cc), Cc);
    CALL(al_softmax(y, x, mask, stride, R, Cc));
}

static al_status op_activate(void)
{
    long long m = (long long)D0 * (D1 > 0 ? D1 : 1);
    int n = m >= INT_MIN && m <= INT_MAX ? (int)m : D0, act = (int)(int8_t)F0 % 6;
    if (act < 0 || act > 3) C->optbad = 1;
    float *x = in(P1(n));
    float *y = (F1 & 1) && x ? x : out(P1(n));
    if (y == x && !C->dry && !C->small && C->nout < MAX_BLOCKS) {
        C->outs[C->nout] = y;
        C->nouts[C->nout++] = P1(n);
    }
    CALL(al_activate(y, x, n, (al_activation)act));
}

static al_status op_layernorm(void)
{
    int R = D0, Cc = D1;
    float eps = C->x[0];
    if (!(eps > 0.0f) || !isfinite(eps)) C->optbad = 1;
    if (!(eps >= 1e-6f)) C->moderate = 0; /* 1/√eps grows without bound */
    float *y = out(P2(R, Cc)), *x = in(P2(R, Cc));
    float *w = in_opt(P1(Cc), 0), *b = in_opt(P1(Cc), 1);
    CALL(al_layernorm(y, x, w, b, R, Cc, eps));
}

static al_status op_embedding(void)
{
    int N = D0, V = D1, Cc = D2;
    float *o = out(P2(N, Cc)), *w = in(P2(V, Cc));
    int32_t *ids = NULL;
    int any_bad = 0;
    if (C->nreq++ == C->nullpick)
        C->nullbad = 1;
    else if (C->dry) {
        long long n = P1(N);
        if (n < 0)
            C->shapebad = 1;
        else if (n >= LIMIT31)
            C->over = 1;
        else if (n > CAP_TENSOR)
            C->toolarge = 1;
        ids = (int32_t *)C->blocks;
    } else if (C->small) {
        ids = memset(block(64), 0, 64);
    } else {
        ids = block((size_t)N * sizeof(int32_t));
        for (int i = 0; i < N; i++) {
            uint8_t b = next_byte();
            static const int32_t odd[4] = { -1, INT_MIN, INT_MAX, -2 };
            ids[i] = b < 240 ? b % V : b == 240 ? V : b < 245 ? odd[b - 241] : V - 1;
            if (ids[i] < 0 || ids[i] >= V) any_bad = 1;
        }
    }
    int bad = -7, *pbad = (F0 & 1) ? &bad : NULL;
    if (C->dry) CALL(AL_OK);
    al_status st = al_embedding(o, ids, N, w, V, Cc, pbad);
    if (!C->small && !C->nullbad && ids && w && o) {
        if (any_bad) {
            REQUIRE(st == AL_ERR_RANGE);
            if (pbad) REQUIRE(bad >= 0 && bad < N && (ids[bad] < 0 || ids[bad] >= V));
            C->ambig = 1; /* the output is unspecified after AL_ERR_RANGE */
            C->nout = 0;
        }
    }
    return st;
}

static al_status op_sdpa(void)
{
    int B = D0, H = D1, T = D2, S = D3, D = D4, Dv = D5, causal = F0 & 1;
    float scale = C->x[0];
    if (!isfinite(scale)) C->optbad = 1;
    if (!C->xmod[0]) C->moderate = 0;
    if (C->dry && (double)B * H * T * S > 4e6) C->toolarge = 1; /* much work, small arrays */
    float *o = out(P(B, H, T, Dv)), *att = out_opt(P(B, H, T, S), 0);
    float *q = in(P(B, H, T, D)), *k = in(P(B, H, S, D)), *v = in(P(B, H, S, Dv));
    uint8_t *mask = mask_opt(P2(B, S));
    rows(att, P(B, H, T, S), S);
    CALL(al_sdpa(o, att, q, k, v, B, H, T, S, D, Dv, scale, mask, causal));
}

static al_status op_sdpa_backward(void)
{
    int B = D0, H = D1, T = D2, S = D3, D = D4, Dv = D5, causal = F0 & 1;
    float scale = C->x[0];
    if (!isfinite(scale)) C->optbad = 1;
    if (!C->xmod[0]) C->moderate = 0;
    float *dq = acc(P(B, H, T, D)), *dk = acc(P(B, H, S, D)), *dv = acc(P(B, H, S, Dv));
    float *dout = in_opt(P(B, H, T, Dv), 0), *datt = in_opt(P(B, H, T, S), 1);
    float *att = in_opt(P(B, H, T, S), 2);
    float *q = in(P(B, H, T, D)), *k = in(P(B, H, S, D)), *v = in(P(B, H, S, Dv));
    uint8_t *mask = mask_opt(P2(B, S));
    CALL(al_sdpa_backward(dq, dk, dv, dout, datt, att, q, k, v, B, H, T, S, D, Dv, scale, mask,
                          causal));
}

/* E = D3 · H unless flag bit 1 asks for a raw (maybe indivisible) E */
static int embed_dim(int H, int raw)
{
    if ((F0 & 2) || H < 1 || raw < 1) return raw;
    long long E = (long long)raw * H;
    return E > INT_MAX ? raw : (int)E;
}

static al_status op_mha(int backward)
{
    int B = D0, T = D1, S = D2, H = (int)(int8_t)F1 % 8, causal = F0 & 1;
    if (F2 & 1) H = D4;
    int E = embed_dim(H, D3);
    if (H < 1)
        C->optbad = 1;
    else if (E >= 1 && E % H)
        C->optbad = 1;
    long long E3 = 3LL * E;
    if (C->dry && (double)B * H * T * S > 4e6) C->toolarge = 1; /* much work, small arrays */
    float *query = in(P3(B, T, E)), *key = in(P3(B, S, E)), *value = in(P3(B, S, E));
    float *w_in = in(P2(E3, E)), *b_in = in_opt(P1(E3), 0);
    float *w_out = in(P2(E, E)), *b_out = in_opt(P1(E), 1);
    uint8_t *mask = mask_opt(P2(B, S));
    if (!backward) {
        float *o = out(P3(B, T, E)), *att = out_opt(P(B, H, T, S), 2);
        rows(att, P(B, H, T, S), S);
        CALL(al_mha_forward(o, att, query, key, value, w_in, b_in, w_out, b_out, B, T, S, E, H,
                            mask, causal));
    }
    float *dq = acc(P3(B, T, E)), *dk = acc(P3(B, S, E)), *dv = acc(P3(B, S, E));
    float *dw_in = acc(P2(E3, E)), *dw_out = acc(P2(E, E));
    float *db_in = b_in ? acc(P1(E3)) : NULL, *db_out = b_out ? acc(P1(E)) : NULL;
    float *dout = in_opt(P3(B, T, E), 3), *datt = in_opt(P(B, H, T, S), 4);
    CALL(al_mha_backward(dq, dk, dv, dw_in, db_in, dw_out, db_out, dout, datt, query, key, value,
                         w_in, b_in, w_out, b_out, B, T, S, E, H, mask, causal));
}

static al_status op_relpos(int backward)
{
    int B = D0, n = D1, d = D2, H = (int)(int8_t)F1 % 8, k = D5 > INT_MIN ? D5 - 1 : D5;
    int causal = F0 & 1;
    if (F2 & 1) H = D4;
    if (F2 & 2) k = D5;
    int dz = embed_dim(H, D3);
    if (H < 1 || k < 0)
        C->optbad = 1;
    else if (dz >= 1 && dz % H)
        C->optbad = 1;
    long long R = 2LL * k + 1, dh = H >= 1 ? dz / H : -1;
    /* small arrays can still mean much work (B·H·n² scores per call): 100·100·100² took 12 s
     * under ASan, a timeout rather than a finding; run such sizes only where another size fails */
    if (C->dry && (double)B * H * n * n > 4e6) C->toolarge = 1;
    float *x = in(P3(B, n, d)), *wq = in(P2(dz, d)), *wk = in(P2(dz, d)), *wv = in(P2(dz, d));
    float *rk = in(P2(R, dh)), *rv = in(P2(R, dh));
    uint8_t *mask = mask_opt(P2(B, n));
    if (!backward) {
        float *o = out(P3(B, n, dz)), *att = out_opt(P(B, H, n, n), 2);
        rows(att, P(B, H, n, n), n);
        CALL(al_relpos_forward(o, att, x, wq, wk, wv, rk, rv, B, n, d, dz, H, k, mask, causal));
    }
    float *dx = acc(P3(B, n, d)), *dwq = acc(P2(dz, d)), *dwk = acc(P2(dz, d));
    float *dwv = acc(P2(dz, d)), *drk = acc(P2(R, dh)), *drv = acc(P2(R, dh));
    float *dout = in_opt(P3(B, n, dz), 3), *datt = in_opt(P(B, H, n, n), 4);
    CALL(al_relpos_backward(dx, dwq, dwk, dwv, drk, drv, dout, datt, x, wq, wk, wv, rk, rv, B, n, d,
                            dz, H, k, mask, causal));
}

static al_status op_relpos_distances(void)
{
    int n = D0, k = (F0 & 1) || D1 == INT_MIN ? D1 : D1 - 1;
    if (k < 0) C->optbad = 1;
    int32_t *dist = NULL;
    if (C->nreq++ == C->nullpick)
        C->nullbad = 1;
    else if (C->dry) {
        long long m = P2(n, n);
        if (m < 0)
            C->shapebad = 1;
        else if (m >= LIMIT31)
            C->over = 1;
        else if (m > CAP_TENSOR)
            C->toolarge = 1;
        return AL_OK;
    } else if (C->small)
        dist = memset(block(64), 0, 64);
    else
        dist = block((size_t)n * n * sizeof(int32_t));
    al_status st = al_relpos_distances(dist, n, k);
    if (st == AL_OK && !C->small && dist)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                long long e = (long long)j - i;
                e = e < -k ? -k : e > k ? k : e;
                REQUIRE(dist[(size_t)i * n + j] == e);
            }
    return st;
}

static al_status op_additive(int backward)
{
    int B = D0, n = D1, dq = D2, dk = D3, dv = D4, da = D5;
    int has_values = F1 & 1;
    if (!has_values) dv = (F1 & 2) ? dv : dk;
    if (!has_values && dv != dk) C->optbad = 1;
    float *query = in(P2(B, dq)), *keys = in(P3(B, n, dk));
    float *values = has_values ? arr(P3(B, n, dv), IN, 0) : NULL; /* NULL: values = keys */
    float *W_q = in(P2(da, dq)), *W_k = in(P2(da, dk)), *bias = in(P1(da)), *v = in(P1(da));
    uint8_t *mask = mask_opt(P2(B, n));
    if (!backward) {
        float *ctxt = out(P2(B, dv)), *w = out_opt(P2(B, n), 0);
        rows(w, P2(B, n), n);
        CALL(al_additive_attention_forward(ctxt, w, query, keys, values, W_q, W_k, bias, v, mask, B,
                                           n, dq, dk, dv, da));
    }
    float *dquery = acc(P2(B, dq)), *dkeys = acc(P3(B, n, dk));
    float *dvalues = values ? acc(P3(B, n, dv)) : NULL;
    float *dW_q = acc(P2(da, dq)), *dW_k = acc(P2(da, dk)), *dbias = acc(P1(da));
    float *dv_param = acc(P1(da));
    float *dcontext = in_opt(P2(B, dv), 1), *dweights = in_opt(P2(B, n), 2);
    CALL(al_additive_attention_backward(dquery, dkeys, dvalues, dW_q, dW_k, dbias, dv_param,
                                        dcontext, dweights, query, keys, values, W_q, W_k, bias, v,
                                        mask, B, n, dq, dk, dv, da));
}

/* global: al_luong_attention_*; else local with predictive = local (0 local-m, 1 local-p, or out
 * of range) */
static al_status op_luong(int backward, int global, int local)
{
    int B = D0, n = D1, d = D2, da = D3, dp = D4;
    int score = (F1 & 0x80) ? (int)(int8_t)F1 : F1 % 3;
    if (score < 0 || score > 2) C->optbad = 1;
    float window = C->x[0], t = C->x[1];
    if (FUZZ_SKIP_KNOWN && local == 1) C->finite_data = 1;
    if (!global) {
        if (local != 0 && local != 1) C->optbad = 1;
        if (!isfinite(window) || !(window >= 0.01f)) C->optbad = 1; /* api/additive_luong.h */
        if (local == 0 && !isfinite(t)) C->optbad = 1;
        if (!isfinite(window) || !isfinite(t)) C->moderate = 0;
        /* |t| up to 4 and any accepted window must stay finite */
        if (local == 0 && !C->xmod[1]) C->moderate = 0;
        if (FUZZ_SKIP_KNOWN && !(window >= 1e-3f)) C->moderate = 0; /* σ² underflows */
    }
    float *query = in(P2(B, d)), *keys = in(P3(B, n, d));
    float *W_a = score == 1 ? in(P2(d, d)) : score == 2 ? in(P2(da, 2LL * d)) : NULL;
    float *v_a = score == 2 ? in(P1(da)) : NULL;
    float *W_c = in(P2(d, 2LL * d));
    float *W_p = local == 1 ? in(P2(dp, d)) : NULL, *v_p = local == 1 ? in(P1(dp)) : NULL;
    uint8_t *mask = mask_opt(P2(B, n));
    if (!backward) {
        float *ctxt = out(P2(B, d)), *w = out_opt(P2(B, n), 0), *att = out(P2(B, d));
        if (global) {
            rows(w, P2(B, n), n);
            CALL(al_luong_attention_forward(ctxt, w, att, query, keys, W_a, v_a, W_c, mask, B, n, d,
                                            score, da));
        }
        float *pos = out_opt(P1(B), 1);
        C->rows_loose = 1;
        rows(w, P2(B, n), n);
        CALL(al_luong_local_attention_forward(ctxt, w, att, pos, query, keys, W_a, v_a, W_c, W_p,
                                              v_p, mask, B, n, d, score, da, local, window, t, dp));
    }
    float *dquery = acc(P2(B, d)), *dkeys = acc(P3(B, n, d));
    float *dW_a = score == 1 ? acc(P2(d, d)) : score == 2 ? acc(P2(da, 2LL * d)) : NULL;
    float *dv_a = score == 2 ? acc(P1(da)) : NULL;
    float *dW_c = acc(P2(d, 2LL * d));
    float *dcontext = in_opt(P2(B, d), 2), *dweights = in_opt(P2(B, n), 3);
    float *dattentional = in_opt(P2(B, d), 4);
    if (global)
        CALL(al_luong_attention_backward(dquery, dkeys, dW_a, dv_a, dW_c, dcontext, dweights,
                                         dattentional, query, keys, W_a, v_a, W_c, mask, B, n, d,
                                         score, da));
    float *dW_p = local == 1 ? acc(P2(dp, d)) : NULL, *dv_p = local == 1 ? acc(P1(dp)) : NULL;
    float *dposition = in_opt(P1(B), 5);
    CALL(al_luong_local_attention_backward(
        dquery, dkeys, dW_a, dv_a, dW_c, dW_p, dv_p, dcontext, dweights, dattentional, dposition,
        query, keys, W_a, v_a, W_c, W_p, v_p, mask, B, n, d, score, da, local, window, t, dp));
}

static al_status op_key_query(int backward)
{
    int B = D0, n = D1, ds = D2, dh = D3, dk = D4, dv = D5, scaled = F1 & 1;
    float *query = in(P2(B, ds)), *keys = in(P3(B, n, dh));
    float *W_Q = in(P2(dk, ds)), *W_K = in(P2(dk, dh)), *W_V = in(P2(dv, dh));
    uint8_t *mask = mask_opt(P2(B, n));
    if (!backward) {
        float *ctxt = out(P2(B, dv)), *w = out_opt(P2(B, n), 0);
        rows(w, P2(B, n), n);
        CALL(al_key_query_attention_forward(ctxt, w, query, keys, W_Q, W_K, W_V, mask, B, n, ds, dh,
                                            dk, dv, scaled));
    }
    float *dquery = acc(P2(B, ds)), *dkeys = acc(P3(B, n, dh));
    float *dW_Q = acc(P2(dk, ds)), *dW_K = acc(P2(dk, dh)), *dW_V = acc(P2(dv, dh));
    float *dcontext = in_opt(P2(B, dv), 1), *dweights = in_opt(P2(B, n), 2);
    CALL(al_key_query_attention_backward(dquery, dkeys, dW_Q, dW_K, dW_V, dcontext, dweights, query,
                                         keys, W_Q, W_K, W_V, mask, B, n, ds, dh, dk, dv, scaled));
}

static al_status op_attention_pooling(int backward)
{
    int B = D0, n = D1, d = D2;
    float *H = in(P3(B, n, d)), *w = in(P1(d));
    uint8_t *mask = mask_opt(P2(B, n));
    if (!backward) {
        float *r = out(P2(B, d)), *hs = out(P2(B, d)), *weights = out(P2(B, n));
        rows(weights, P2(B, n), n);
        CALL(al_attention_pooling_forward(r, hs, weights, H, w, mask, B, n, d));
    }
    float *dH = wr(P3(B, n, d)), *dw = wr(P1(d));
    float *dr = in_opt(P2(B, d), 0), *dhs = in_opt(P2(B, d), 1), *dws = in_opt(P2(B, n), 2);
    CALL(al_attention_pooling_backward(dH, dw, H, w, mask, B, n, d, dr, dhs, dws));
}

static al_status op_context_pooling(int backward)
{
    int B = D0, n = D1, d = D2, dw = D3;
    float *H = in(P3(B, n, d)), *W = in(P2(dw, d)), *b = in(P1(dw)), *u = in(P1(dw));
    uint8_t *mask = mask_opt(P2(B, n));
    if (!backward) {
        float *s = out(P2(B, d)), *weights = out(P2(B, n));
        rows(weights, P2(B, n), n);
        CALL(al_context_pooling_forward(s, weights, H, W, b, u, mask, B, n, d, dw));
    }
    float *dH = wr(P3(B, n, d)), *dW = wr(P2(dw, d)), *db = wr(P1(dw)), *du = wr(P1(dw));
    float *ds = in_opt(P2(B, d), 0), *dws = in_opt(P2(B, n), 1);
    CALL(al_context_pooling_backward(dH, dW, db, du, H, W, b, u, mask, B, n, d, dw, ds, dws));
}

static al_status op_structured(int backward)
{
    int B = D0, n = D1, d = D2, da = D3, r = D4;
    float *H = in(P3(B, n, d)), *W1 = in(P2(da, d)), *W2 = in(P2(r, da));
    uint8_t *mask = mask_opt(P2(B, n));
    if (!backward) {
        float *M = out(P3(B, r, d)), *weights = out(P3(B, r, n)), *pen = out(P1(B));
        rows(weights, P3(B, r, n), n);
        CALL(
            al_structured_self_attention_forward(M, weights, pen, H, W1, W2, mask, B, n, d, da, r));
    }
    float *dH = wr(P3(B, n, d)), *dW1 = wr(P2(da, d)), *dW2 = wr(P2(r, da));
    float *dM = in_opt(P3(B, r, d), 0), *dws = in_opt(P3(B, r, n), 1);
    float *dpen = in_opt(P1(B), 2);
    CALL(al_structured_self_attention_backward(dH, dW1, dW2, H, W1, W2, mask, B, n, d, da, r, dM,
                                               dws, dpen));
}

static al_status op_recurrent(int backward)
{
    int cell = (F1 & 0x80) ? (int)(int8_t)F1 : F1 % 4;
    int B = D0, T = D1, I = D2, H = D3, layers = (F2 & 1) ? D4 : 1 + D4 % 3;
    int bidir = (F2 >> 1) & 1, D = bidir ? 2 : 1, bias = (F2 >> 2) & 1;
    int G = cell == AL_RNN_TANH || cell == AL_RNN_RELU ? 1
            : cell == AL_LSTM                          ? 4
            : cell == AL_GRU                           ? 3
                                                       : 0;
    if (G == 0) {
        C->optbad = 1;
        G = 1;
    }
    int lstm = cell == AL_LSTM;
    /* activations and gradients may legitimately overflow over long, wide recurrences */
    if ((cell == AL_RNN_RELU || backward) && ((long long)T + layers > 6 || H > 8)) C->moderate = 0;
    if (layers < 1) C->shapebad = 1;
    if (layers > 4 && C->dry) C->toolarge = 1;      /* only run when another size makes it fail */
    int Lp = layers < 1 || layers > 4 ? 1 : layers; /* layers given arrays */
    int np = Lp * D * 4 < 16 ? 16 : Lp * D * 4;
    const float **params = block((size_t)np * sizeof(float *));
    float **dparams = block((size_t)np * sizeof(float *));
    memset(params, 0, (size_t)np * sizeof(float *));
    memset(dparams, 0, (size_t)np * sizeof(float *));
    float *x = in(P3(B, T, I));
    for (int l = 0; l < Lp; l++)
        for (int dd = 0; dd < D; dd++) {
            int k = (l * D + dd) * 4;
            long long Il = l == 0 ? I : (long long)D * H;
            params[k] = in(P2((long long)G * H, Il));
            params[k + 1] = in(P2((long long)G * H, H));
            if (bias) {
                params[k + 2] = in(P1((long long)G * H));
                params[k + 3] = in(P1((long long)G * H));
            }
            if (backward) {
                dparams[k] = wr(P2((long long)G * H, Il));
                dparams[k + 1] = wr(P2((long long)G * H, H));
                if (bias) {
                    dparams[k + 2] = wr(P1((long long)G * H));
                    dparams[k + 3] = wr(P1((long long)G * H));
                }
            }
        }
    long long state = P3((long long)layers * D, B, H);
    float *h0 = in_opt(state, 0), *c0 = lstm ? in_opt(state, 1) : NULL;
    if (!backward) {
        float *o = out(P3(B, T, (long long)D * H));
        float *hn = opt(2) ? arr(state, OUT, 0) : NULL;
        float *cn = lstm && opt(3) ? arr(state, OUT, 0) : NULL;
        CALL(al_recurrent_forward(cell, B, T, I, H, layers, bidir, x, params, h0, c0, o, hn, cn));
    }
    float *dout = in_opt(P3(B, T, (long long)D * H), 2), *dhn = in_opt(state, 3);
    float *dcn = lstm ? in_opt(state, 4) : NULL;
    float *dx = opt(5) ? arr(P3(B, T, I), WR, 0) : NULL;
    float *dh0 = opt(6) ? arr(state, WR, 0) : NULL;
    float *dc0 = lstm && opt(6) ? arr(state, WR, 0) : NULL;
    CALL(al_recurrent_backward(cell, B, T, I, H, layers, bidir, x, params, h0, c0, dout, dhn, dcn,
                               dx, dparams, dh0, dc0));
}

static al_status op_sarnn(int backward)
{
    int B = D0, T = D1, inn = D2, H = D3, da = D4;
    int align = (F1 & 0x80) ? (int)(int8_t)F1 : F1 % 2;
    if (align != 0 && align != 1) C->optbad = 1;
    if (backward && (T > 6 || H > 8)) C->moderate = 0;
    float *x = in(P3(B, T, inn)), *A = in(P2(H, (long long)inn + H)), *b = in(P1(H));
    float *Wk = in(P2(da, H)), *Wq = in(P2(da, H));
    float *v = align == 1 ? in_opt(P1(da), 0) : in(P1(da));
    if (!backward) {
        float *h = out(P3(B, T, H)), *w = out(P3(B, T, T));
        rows(w, P3(B, T, T), T);
        CALL(al_self_attention_rnn_forward(h, w, x, A, b, Wk, Wq, v, B, T, inn, H, da, align));
    }
    float *dx = acc(P3(B, T, inn)), *dA = acc(P2(H, (long long)inn + H)), *db = acc(P1(H));
    float *dWk = acc(P2(da, H)), *dWq = acc(P2(da, H));
    float *dv = align == 1 ? (opt(1) ? arr(P1(da), ACC, 0) : NULL) : acc(P1(da));
    float *dh = in_opt(P3(B, T, H), 2), *dw = in_opt(P3(B, T, T), 3);
    CALL(al_self_attention_rnn_backward(dx, dA, db, dWk, dWq, dv, dh, dw, x, A, b, Wk, Wq, v, B, T,
                                        inn, H, da, align));
}

static al_status op_lstmn(int backward)
{
    int B = D0, T = D1, inn = D2, H = D3;
    if (backward && (T > 6 || H > 8)) C->moderate = 0;
    float *x = in(P3(B, T, inn)), *W_h = in(P2(H, H)), *W_x = in(P2(H, inn));
    float *W_ht = in(P2(H, H)), *v = in(P1(H)), *W = in(P2(4LL * H, (long long)H + inn));
    float *b = in(P1(4LL * H));
    if (!backward) {
        float *h = out(P3(B, T, H)), *c = out(P3(B, T, H)), *w = out(P3(B, T, T));
        rows(w, P3(B, T, T), T);
        CALL(al_lstmn_forward(h, c, w, x, W_h, W_x, W_ht, v, W, b, B, T, inn, H));
    }
    float *dx = acc(P3(B, T, inn)), *dW_h = acc(P2(H, H)), *dW_x = acc(P2(H, inn));
    float *dW_ht = acc(P2(H, H)), *dv = acc(P1(H)), *dW = acc(P2(4LL * H, (long long)H + inn));
    float *db = acc(P1(4LL * H));
    float *dh = in_opt(P3(B, T, H), 0), *dc = in_opt(P3(B, T, H), 1);
    float *dw = in_opt(P3(B, T, T), 2);
    CALL(al_lstmn_backward(dx, dW_h, dW_x, dW_ht, dv, dW, db, dh, dc, dw, x, W_h, W_x, W_ht, v, W,
                           b, B, T, inn, H));
}

static long long tl_size(int i, long long E, long long F)
{
    switch (i) {
    case AL_TL_SELF_IN_PROJ_WEIGHT:
    case AL_TL_CROSS_IN_PROJ_WEIGHT: return P2(3 * E, E);
    case AL_TL_SELF_IN_PROJ_BIAS:
    case AL_TL_CROSS_IN_PROJ_BIAS: return P1(3 * E);
    case AL_TL_SELF_OUT_PROJ_WEIGHT:
    case AL_TL_CROSS_OUT_PROJ_WEIGHT: return P2(E, E);
    case AL_TL_LINEAR1_WEIGHT: return P2(F, E);
    case AL_TL_LINEAR1_BIAS: return P1(F);
    case AL_TL_LINEAR2_WEIGHT: return P2(E, F);
    default: return P1(E);
    }
}

static al_status op_transformer(int backward, int dec)
{
    int B = D0, T = D1, S = D2, F = D5, H = (int)(int8_t)F1 % 8, causal = F0 & 1;
    int norm_first = (F0 >> 2) & 1, act = (F2 & 0x80) ? (F2 >> 2) % 6 - 1 : (F2 & 1 ? 3 : 2);
    float eps = C->x[0];
    if (F2 & 2) H = D4;
    int E = embed_dim(H, D3);
    if (H < 1)
        C->optbad = 1;
    else if (E >= 1 && E % H)
        C->optbad = 1;
    if (act != AL_ACT_RELU && act != AL_ACT_GELU) C->optbad = 1;
    if (!(eps > 0.0f) || !isfinite(eps)) C->optbad = 1;
    if (!(eps >= 1e-6f)) C->moderate = 0;
    if (!dec) S = T;
    const float *params[AL_TL_NUM_PARAMS] = { 0 };
    float *dparams[AL_TL_NUM_PARAMS] = { 0 };
    for (int i = 0; i < AL_TL_NUM_PARAMS; i++) {
        int used = dec || !((i >= 4 && i <= 7) || i >= 16);
        if (used)
            params[i] = in(tl_size(i, E, F));
        else if (opt(6))
            params[i] = (const float *)params; /* ignored: any pointer */
    }
    float *x = in(P3(B, T, E)), *mem = dec ? in(P3(B, S, E)) : NULL;
    uint8_t *tmask = mask_opt(P2(B, T)), *mmask = dec ? mask_opt(P2(B, S)) : NULL;
    if (!backward) {
        float *o = out(P3(B, T, E)), *sa = out_opt(P(B, H, T, T), 0);
        rows(sa, P(B, H, T, T), T);
        if (!dec)
            CALL(al_transformer_encoder_forward(o, sa, x, params, B, T, E, F, H, norm_first, act,
                                                causal, tmask, eps));
        float *ca = out_opt(P(B, H, T, S), 1);
        rows(ca, P(B, H, T, S), S);
        CALL(al_transformer_decoder_forward(o, sa, ca, x, mem, params, B, T, S, E, F, H, norm_first,
                                            act, causal, tmask, mmask, eps));
    }
    for (int i = 0; i < AL_TL_NUM_PARAMS; i++) {
        int used = dec || !((i >= 4 && i <= 7) || i >= 16);
        if (used) dparams[i] = acc(tl_size(i, E, F));
    }
    float *dx = acc(P3(B, T, E)), *dout = in_opt(P3(B, T, E), 2);
    float *dsa = in_opt(P(B, H, T, T), 3);
    if (!dec)
        CALL(al_transformer_encoder_backward(dx, dparams, dout, dsa, x, params, B, T, E, F, H,
                                             norm_first, act, causal, tmask, eps));
    float *dmem = acc(P3(B, S, E)), *dca = in_opt(P(B, H, T, S), 4);
    CALL(al_transformer_decoder_backward(dx, dmem, dparams, dout, dsa, dca, x, mem, params, B, T, S,
                                         E, F, H, norm_first, act, causal, tmask, mmask, eps));
}

static al_status op_misc(void)
{
    if (C->dry) return AL_OK;
    const char *s = al_status_string((al_status)(int32_t)((uint32_t)D0 * 2654435761u >> (F0 & 31)));
    REQUIRE(s && s[0]);
    for (int i = 0; i <= AL_ERR_OVERFLOW; i++) REQUIRE(al_status_string((al_status)i)[0]);
    REQUIRE(al_simd() == 0 || al_simd() == 1);
    REQUIRE(al_malloc(0) == NULL);
    int base = al_alloc_live();
    size_t bytes = 1 + (size_t)(D1 > 0 ? D1 : 1) % 4096;
    void *p = al_malloc(bytes);
    REQUIRE(p && al_alloc_live() == base + 1);
    memset(p, 0xa5, bytes);
    al_free(p);
    al_free(NULL);
    REQUIRE(al_alloc_live() == base);
    /* al_check_finite: the index of the first NaN/±Inf of x [n], else -1 */
    int n = 1 + (D2 > 0 ? D2 : 1) % 64, first = -1;
    float *x = block((size_t)n * sizeof(float));
    for (int i = 0; i < n; i++) {
        x[i] = fdata();
        if (first < 0 && !isfinite(x[i])) first = i;
    }
    REQUIRE(al_check_finite(x, n) == first);
    REQUIRE(al_check_finite(NULL, n) == -1 && al_check_finite(x, 0) == -1);
    REQUIRE(al_check_finite(x, -5) == -1);
    C->ambig = 1;
    return AL_OK;
}

/*
 * The op table: every fuzzed entry point (or variant), in op-byte order: the header's byte 0
 * picks entry h[0] % NUM_OPS, so the committed corpus depends on this order (append, do not
 * insert). NUM_OPS is counted from the table, so an entry added here is always reached.
 */
#define OP_TABLE(X)                                                                                \
    X(op_matmul())                                                                                 \
    X(op_matvec())                                                                                 \
    X(op_softmax())                                                                                \
    X(op_activate())                                                                               \
    X(op_layernorm())                                                                              \
    X(op_embedding())                                                                              \
    X(op_sdpa())                                                                                   \
    X(op_sdpa_backward())                                                                          \
    X(op_mha(0))                                                                                   \
    X(op_mha(1))                                                                                   \
    X(op_relpos(0))                                                                                \
    X(op_relpos(1))                                                                                \
    X(op_relpos_distances())                                                                       \
    X(op_additive(0))                                                                              \
    X(op_additive(1))                                                                              \
    X(op_luong(0, 1, 0))                                                                           \
    X(op_luong(1, 1, 0))                                                                           \
    X(op_luong(0, 0, 0))                                                                           \
    X(op_luong(1, 0, 0))                                                                           \
    X(op_luong(0, 0, 1))                                                                           \
    X(op_luong(1, 0, 1))                                                                           \
    X(op_key_query(0))                                                                             \
    X(op_key_query(1))                                                                             \
    X(op_attention_pooling(0))                                                                     \
    X(op_attention_pooling(1))                                                                     \
    X(op_context_pooling(0))                                                                       \
    X(op_context_pooling(1))                                                                       \
    X(op_structured(0))                                                                            \
    X(op_structured(1))                                                                            \
    X(op_recurrent(0))                                                                             \
    X(op_recurrent(1))                                                                             \
    X(op_sarnn(0))                                                                                 \
    X(op_sarnn(1))                                                                                 \
    X(op_lstmn(0))                                                                                 \
    X(op_lstmn(1))                                                                                 \
    X(op_transformer(0, 0))                                                                        \
    X(op_transformer(1, 0))                                                                        \
    X(op_transformer(0, 1))                                                                        \
    X(op_transformer(1, 1))                                                                        \
    X(op_luong(0, 0, (int)(int8_t)C->f[2])) /* predictive out of range */                          \
    X(op_luong(1, 0, (int)(int8_t)C->f[2]))                                                        \
    X(op_misc())

#define OP_COUNT(call) +1
enum { NUM_OPS = 0 OP_TABLE(OP_COUNT) };

static al_status run_op(int op)
{
    int i = 0;
#define OP_RUN(call)                                                                               \
    if (op == i++) return call;
    OP_TABLE(OP_RUN)
#undef OP_RUN
    return AL_ERR_ARGUMENT; /* unreachable: op < NUM_OPS */
}

static void reset_pass(void)
{
    C->nreq = 0;
    C->total = 0;
}

static void free_blocks(void)
{
    for (int i = 0; i < C->nblocks; i++) free(C->blocks[i]);
    C->nblocks = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static ctx c;
    memset(&c, 0, sizeof c);
    C = &c;
    uint8_t h[HDR] = { 0 };
    memcpy(h, data, size < HDR ? size : HDR);
    c.data = data + (size < HDR ? size : HDR);
    c.size = size < HDR ? 0 : size - HDR;
    c.op = h[0] % NUM_OPS;
    for (int i = 0; i < 8; i++) c.d[i] = dim(h[1 + i]);
    for (int i = 0; i < 4; i++) c.f[i] = h[9 + i];
    for (int i = 0; i < 4; i++) c.x[i] = fopt(h[13 + i], &c.xmod[i]);
    c.nullpick = h[17] < 24 ? h[17] : -1;
    c.moderate = 1;

    /* dry pass: sizes and validity */
    c.dry = 1;
    reset_pass();
    (void)run_op(c.op);
    free_blocks();
    int dims_bad = c.shapebad || c.over;
    int bad = dims_bad || c.optbad || c.nullbad;
    if (c.toolarge && !dims_bad) return 0; /* valid or not, no exact buffers to give */
    c.dry = 0;
    c.small = dims_bad;
    reset_pass();

    int base = al_alloc_live();
    al_status st = run_op(c.op);
    REQUIRE(al_alloc_live() == base);
    REQUIRE((int)st >= AL_OK && (int)st <= AL_ERR_OVERFLOW);
    if (bad)
        REQUIRE(st != AL_OK);
    else if (!c.ambig)
        REQUIRE(st == AL_OK || st == AL_ERR_NOMEM || (!c.moderate && st == AL_ERR_NONFINITE));
    if (st == AL_OK && !c.small && c.moderate) {
        for (int i = 0; i < c.nout; i++)
            for (long long j = 0; j < c.nouts[i]; j++) REQUIRE(isfinite(c.outs[i][j]));
        for (int i = 0; i < c.nrow; i++) {
            const float *w = c.rows[i];
            long long len = c.rowlen[i];
            for (long long r = 0; r + len <= c.nrows[i]; r += len) {
                double sum = 0.0;
                int zero = 1;
                for (long long j = 0; j < len; j++) {
                    REQUIRE(w[r + j] >= 0.0f && w[r + j] <= 1.0f + 1e-6f);
                    sum += w[r + j];
                    zero &= w[r + j] == 0.0f;
                }
                REQUIRE(zero || c.rows_loose || fabs(sum - 1.0) <= 1e-4);
            }
        }
    }
    free_blocks();
    return 0;
}
