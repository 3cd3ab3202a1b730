/*
 * recurrent.c: RNN (tanh, relu), LSTM and GRU layers, forward and BPTT backward, and the scalar
 * twins of the fused gate kernels. Equations and shapes: recurrent.h (PyTorch's nn.RNN, nn.LSTM,
 * nn.GRU documentation). The SIMD128 twins of the gate kernels are in recurrent_simd128.c; dispatch.c
 * picks between the twins at compile time.
 *
 * Not here: validation and allocation (src/api/recurrent.c), stacking layers and directions.
 */
#include <stdint.h>
#include <string.h>

#include "recurrent.h"

int al_recurrent_gates(int cell)
{
    switch (cell) {
    case AL_RECURRENT_RNN_TANH:
    case AL_RECURRENT_RNN_RELU: return 1;
    case AL_RECURRENT_LSTM: return 4;
    case AL_RECURRENT_GRU: return 3;
    }
    return 0;
}

/* ------------------------------------------------------------------ nonlinearities */

float al_recurrent_sigmoidf(float x)
{
    /* σ(x) = 1 / (1 + e^−x). al_expf_scalar clamps its argument to [−87.3, 88], so this never
     * overflows: σ(−100) comes out as about 6e-39 rather than 4e-44, which is 0 for our purposes. */
    return 1.0f / (1.0f + al_expf_scalar(-x));
}

/* tanh as p(x)/q(x), p odd of degree 13, q even of degree 6 (Eigen's generic_fast_tanh_float).
 * Outside ±7.9053 tanh is ±1 to within float32 rounding, so x is clamped there. The SIMD twin
 * evaluates the very same Horner steps. */
#define TANH_CLAMP 7.90531110763549805f
#define TANH_A1 4.89352455891786e-03f
#define TANH_A3 6.37261928875436e-04f
#define TANH_A5 1.48572235717979e-05f
#define TANH_A7 5.12229709037114e-08f
#define TANH_A9 -8.60467152213735e-11f
#define TANH_A11 2.00018790482477e-13f
#define TANH_A13 -2.76076847742355e-16f
#define TANH_B0 4.89352518554385e-03f
#define TANH_B2 2.26843463243900e-03f
#define TANH_B4 1.18534705686654e-04f
#define TANH_B6 1.19825839466702e-06f

float al_recurrent_tanhf(float x)
{
    x = x < -TANH_CLAMP ? -TANH_CLAMP : x;
    x = x > TANH_CLAMP ? TANH_CLAMP : x;
    float x2 = x * x;
    float p = x2 * TANH_A13 + TANH_A11;
    p = x2 * p + TANH_A9;
    p = x2 * p + TANH_A7;
    p = x2 * p + TANH_A5;
    p = x2 * p + TANH_A3;
    p = x2 * p + TANH_A1;
    p = x * p;
    float q = x2 * TANH_B6 + TANH_B4;
    q = x2 * q + TANH_B2;
    q = x2 * q + TANH_B0;
    return p / q;
}

/* ------------------------------------------------------------------ fused gate kernels (scalar twins) */

void al_recurrent_rnn_cell_forward_scalar(float *h, const float *pre, int H, int relu)
{
    /* h_t = act(W_ih x_t + b_ih + W_hh h_{t−1} + b_hh); pre holds the sum */
    for (int j = 0; j < H; j++) {
        float v = pre[j];
        h[j] = relu ? (v > 0.0f ? v : 0.0f) : al_recurrent_tanhf(v);
    }
}

void al_recurrent_lstm_cell_forward_scalar(float *gates, float *c, float *h, const float *c_prev,
                                           int H)
{
    float *gi = gates, *gf = gates + H, *gg = gates + 2 * H, *go = gates + 3 * H;
    for (int j = 0; j < H; j++) {
        float i = al_recurrent_sigmoidf(gi[j]); /* input gate */
        float f = al_recurrent_sigmoidf(gf[j]); /* forget gate */
        float g = al_recurrent_tanhf(gg[j]);    /* cell candidate */
        float o = al_recurrent_sigmoidf(go[j]); /* output gate */
        float cp = c_prev ? c_prev[j] : 0.0f;
        float cj = f * cp + i * g; /* c_t = f ⊙ c_{t−1} + i ⊙ g */
        gi[j] = i;
        gf[j] = f;
        gg[j] = g;
        go[j] = o;
        c[j] = cj;
        h[j] = o * al_recurrent_tanhf(cj); /* h_t = o ⊙ tanh(c_t) */
    }
}

void al_recurrent_gru_cell_forward_scalar(float *gates, float *h, const float *hh,
                                          const float *h_prev, int H)
{
    float *ar = gates, *az = gates + H, *an = gates + 2 * H;
    const float *hr = hh, *hz = hh + H, *hn = hh + 2 * H;
    for (int j = 0; j < H; j++) {
        float r = al_recurrent_sigmoidf(ar[j] + hr[j]); /* r = σ(W_ir x + b_ir + W_hr h + b_hr) */
        float z = al_recurrent_sigmoidf(az[j] + hz[j]); /* z = σ(W_iz x + b_iz + W_hz h + b_hz) */
        float n = al_recurrent_tanhf(an[j] +
                                     r * hn[j]); /* n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn)) */
        float hp = h_prev ? h_prev[j] : 0.0f;
        ar[j] = r;
        az[j] = z;
        an[j] = n;
        h[j] = (1.0f - z) * n + z * hp; /* h_t = (1 − z) ⊙ n + z ⊙ h_{t−1} */
    }
}

/* ------------------------------------------------------------------ packed W_hh GEMV (scalar twins) */

/* The width of the block starting at column n0 of N: 32, then 8, 4, 1 for the tail. */
static int packed_width(int N, int n0)
{
    int left = N - n0;
    return left >= 32 ? 32 : left >= 8 ? 8 : left >= 4 ? 4 : 1;
}

size_t al_recurrent_packed_floats(int N, int K) { return (size_t)N * (size_t)K; }

void al_recurrent_pack_scalar(float *P, const float *W, int lda, int N, int K)
{
    for (int n0 = 0, w; n0 < N; n0 += w) {
        w = packed_width(N, n0);
        float *blk = P + (long)n0 * K;
        for (int i = 0; i < w; i++)
            for (int k = 0; k < K; k++) blk[(long)k * w + i] = W[(long)(n0 + i) * lda + k];
    }
}

void al_recurrent_packed_gemv_scalar(float *y, const float *P, const float *x, const float *init,
                                     int N, int K)
{
    for (int n0 = 0, w; n0 < N; n0 += w) {
        w = packed_width(N, n0);
        const float *blk = P + (long)n0 * K;
        for (int i = 0; i < w; i++) {
            float acc = init ? init[n0 + i] : 0.0f;
            for (int k = 0; k < K; k++) acc += x[k] * blk[(long)k * w + i];
            y[n0 + i] = acc;
        }
    }
}

/* ------------------------------------------------------------------ one layer, one direction */

void al_recurrent_add_matvec(int R, int N, int K, const float *W, const float *v, int ldv,
                             float *out, int ldo)
{
    if (R == 1)
        al_sgemv(0, N, K, 1.0f, W, K, v, 1.0f, out);
    else if (R > 1)
        al_sgemm(0, 1, R, N, K, 1.0f, v, ldv, W, K, 1.0f, out, ldo);
}

void al_recurrent_add_matvec_t(int R, int N, int K, const float *W, const float *v, int ldv,
                               float *out, int ldo)
{
    if (R == 1)
        al_sgemv(1, N, K, 1.0f, W, K, v, 1.0f, out);
    else if (R > 1)
        al_sgemm(0, 0, R, K, N, 1.0f, v, ldv, W, K, 1.0f, out, ldo);
}

void al_recurrent_cell_backward(int cell, int H, const float *g, const float *st, const float *c,
                                const float *cp, const float *h, const float *hp, const float *dh,
                                const float *dc, float *dpre, float *dhh, float *dh_prev,
                                float *dc_prev)
{
    if (cell == AL_RECURRENT_LSTM) {
        for (int j = 0; j < H; j++) {
            float i = g[j], f = g[H + j], gg = g[2 * H + j], o = g[3 * H + j];
            float tc = al_recurrent_tanhf(c[j]);
            float cpj = cp ? cp[j] : 0.0f;
            /* h_t = o ⊙ tanh(c_t) */
            float dcj = dc[j] + dh[j] * o * (1.0f - tc * tc);
            float d_o = dh[j] * tc;
            /* c_t = f ⊙ c_{t−1} + i ⊙ g */
            float d_i = dcj * gg, d_f = dcj * cpj, d_g = dcj * i;
            dc_prev[j] = dcj * f;
            /* i = σ(·), f = σ(·), g = tanh(·), o = σ(·) */
            dpre[j] = d_i * i * (1.0f - i);
            dpre[H + j] = d_f * f * (1.0f - f);
            dpre[2 * H + j] = d_g * (1.0f - gg * gg);
            dpre[3 * H + j] = d_o * o * (1.0f - o);
            dh_prev[j] = 0.0f;
        }
    } else if (cell == AL_RECURRENT_GRU) {
        for (int j = 0; j < H; j++) {
            float r = g[j], z = g[H + j], n = g[2 * H + j];
            /* h_t = (1 − z) ⊙ n + z ⊙ h_{t−1} */
            float dn = dh[j] * (1.0f - z);
            float dz = dh[j] * (hp[j] - n);
            dh_prev[j] = dh[j] * z;
            /* n = tanh(a_n + r ⊙ h_n) */
            float da = dn * (1.0f - n * n);
            float dr = da * st[j];
            /* r = σ(a_r + h_r), z = σ(a_z + h_z) */
            dpre[j] = dhh[j] = dr * r * (1.0f - r);
            dpre[H + j] = dhh[H + j] = dz * z * (1.0f - z);
            dpre[2 * H + j] = da;
            dhh[2 * H + j] = da * r;
        }
    } else {
        for (int j = 0; j < H; j++) {
            /* h_t = tanh(pre) → 1 − h²;  h_t = relu(pre) → [h_t > 0] */
            float d =
                cell == AL_RECURRENT_RNN_RELU ? (h[j] > 0.0f ? 1.0f : 0.0f) : 1.0f - h[j] * h[j];
            dpre[j] = dh[j] * d;
            dh_prev[j] = 0.0f;
        }
    }
}

/* 1 when the layer packs W_hh (see AL_RECURRENT_PACK_MIN_T); never in the scalar build, whose
 * plain GEMV gains nothing from the layout. */
static int packs_whh(int B, int T) { return AL_SIMD128 && B == 1 && T >= AL_RECURRENT_PACK_MIN_T; }

size_t al_recurrent_layer_forward_scratch(int cell, int B, int T, int H)
{
    size_t n = cell == AL_RECURRENT_GRU ? (size_t)B * 3 * (size_t)H : 0;
    if (packs_whh(B, T)) /* + 16: room to start the panels on a 64-byte line (see below) */
        n += al_recurrent_packed_floats(al_recurrent_gates(cell) * H, H) + 16;
    return n;
}

void al_recurrent_layer_forward(int cell, int B, int T, int I, int H, int reverse, const float *x,
                                const float *w_ih, const float *w_hh, const float *b_ih,
                                const float *b_hh, const float *h0, const float *c0, float *y,
                                int ldy, float *hn, float *cn, float *gates, float *state,
                                float *scratch)
{
    const int G = al_recurrent_gates(cell);
    const int GH = G * H;
    const long BT = (long)B * T;

    /* The input projections of every step at once: gates [B·T, G·H] = x [B·T, I] · w_ihᵀ + b_ih
     * (+ b_hh too, except for the GRU, whose b_hn must stay inside r ⊙ (W_hn h + b_hn)). */
    al_sgemm(0, 1, (int)BT, GH, I, 1.0f, x, I, w_ih, I, 0.0f, gates, GH);
    if (b_ih)
        al_bias_add_forward(gates, GH, b_ih, cell == AL_RECURRENT_GRU ? NULL : b_hh, (int)BT, GH);

    /* W_hh packed once for the whole sequence (after the GRU's hh rows in scratch) */
    float *packed = NULL;
    if (packs_whh(B, T) && scratch) {
        /* on a cache line: al_malloc (emmalloc) only promises 8-byte alignment, and a panel
         * stream whose 16-byte loads straddle lines made the whole layer 5-7% slower */
        uintptr_t p = (uintptr_t)(scratch + (cell == AL_RECURRENT_GRU ? 3 * (size_t)H : 0));
        packed = (float *)((p + 63) & ~(uintptr_t)63);
        al_recurrent_pack(packed, w_hh, H, GH, H);
    }

    for (int s = 0; s < T; s++) {
        const int t = reverse ? T - 1 - s : s;
        const int tp = reverse ? t + 1 : t - 1; /* the step before, in processing order */
        /* h_{t−1} of batch row b is hprev + b·ldh (NULL: zeros, i.e. no h0 at the first step) */
        const float *hprev = s == 0 ? h0 : y + (long)tp * ldy;
        const int ldh = s == 0 ? H : T * ldy;
        float *grow = gates + (long)t * GH; /* batch row b at grow + b·T·GH */

        if (cell == AL_RECURRENT_GRU) {
            /* hh [B, 3H] = W_hh h_{t−1} + b_hh, kept apart from the input part for r ⊙ h_n */
            float *hh = scratch;
            if (hprev && packed) {
                al_recurrent_packed_gemv(hh, packed, hprev, b_hh, GH, H); /* b_hh added first */
            } else if (hprev && B == 1) {
                al_sgemv(0, GH, H, 1.0f, w_hh, H, hprev, 0.0f, hh);
                if (b_hh) al_bias_add_forward(hh, GH, b_hh, NULL, B, GH);
            } else {
                memset(hh, 0, sizeof(float) * (size_t)GH * (size_t)B);
                if (hprev) al_recurrent_add_matvec(B, GH, H, w_hh, hprev, ldh, hh, GH);
                if (b_hh) al_bias_add_forward(hh, GH, b_hh, NULL, B, GH);
            }
            for (int b = 0; b < B; b++) {
                long row = (long)b * T + t;
                const float *hb = hh + (long)b * GH;
                al_recurrent_gru_cell_forward(gates + row * GH, y + row * ldy, hb,
                                              hprev ? hprev + (long)b * ldh : NULL, H);
                memcpy(state + row * H, hb + 2 * H, sizeof(float) * (size_t)H);
            }
        } else {
            if (hprev && packed)
                al_recurrent_packed_gemv(grow, packed, hprev, grow, GH, H);
            else if (hprev)
                al_recurrent_add_matvec(B, GH, H, w_hh, hprev, ldh, grow, T * GH);
            for (int b = 0; b < B; b++) {
                long row = (long)b * T + t;
                if (cell == AL_RECURRENT_LSTM) {
                    const float *cprev =
                        s == 0 ? (c0 ? c0 + (long)b * H : NULL) : state + ((long)b * T + tp) * H;
                    al_recurrent_lstm_cell_forward(gates + row * GH, state + row * H, y + row * ldy,
                                                   cprev, H);
                } else {
                    al_recurrent_rnn_cell_forward(y + row * ldy, gates + row * GH, H,
                                                  cell == AL_RECURRENT_RNN_RELU);
                }
            }
        }
    }

    const int tl = reverse ? 0 : T - 1; /* the last step processed */
    for (int b = 0; b < B; b++) {
        long row = (long)b * T + tl;
        if (hn) memcpy(hn + (long)b * H, y + row * ldy, sizeof(float) * (size_t)H);
        if (cn && cell == AL_RECURRENT_LSTM)
            memcpy(cn + (long)b * H, state + row * H, sizeof(float) * (size_t)H);
    }
}

size_t al_recurrent_layer_backward_scratch(int cell, int B, int T, int H)
{
    size_t bt = (size_t)B * (size_t)T, gh = (size_t)al_recurrent_gates(cell) * (size_t)H;
    return bt * gh * (cell == AL_RECURRENT_GRU ? 2 : 1) + bt * (size_t)H + 3 * (size_t)B * H;
}

void al_recurrent_layer_backward(int cell, int B, int T, int I, int H, int reverse, const float *x,
                                 const float *w_ih, const float *w_hh, const float *h0,
                                 const float *c0, const float *y, int ldy, const float *gates,
                                 const float *state, const float *dy, int lddy, const float *dhn,
                                 const float *dcn, float *dx, float *dw_ih, float *dw_hh,
                                 float *db_ih, float *db_hh, float *dh0, float *dc0, float *scratch)
{
    const int G = al_recurrent_gates(cell);
    const int GH = G * H;
    const long BT = (long)B * T;
    const size_t BH = (size_t)B * H;
    /* scratch: dpre [B,T,G·H] ∂L/∂(input projection), dhh [B,T,G·H] ∂L/∂(W_hh h + b_hh) (the
     * same array as dpre except for the GRU, where b_hn sits inside r ⊙ (·)), hprev [B,T,H]
     * h_{t−1} of every step, then dh, dh_prev, dc [B,H]. */
    float *dpre = scratch;
    float *dhh = cell == AL_RECURRENT_GRU ? dpre + BT * GH : dpre;
    float *hprev = dhh + BT * GH;
    float *dh = hprev + BT * H, *dh_prev = dh + BH, *dc = dh_prev + BH;

    for (int b = 0; b < B; b++) {
        for (int t = 0; t < T; t++) {
            int tp = reverse ? t + 1 : t - 1;
            float *dst = hprev + ((long)b * T + t) * H;
            if (tp >= 0 && tp < T)
                memcpy(dst, y + ((long)b * T + tp) * ldy, sizeof(float) * (size_t)H);
            else if (h0)
                memcpy(dst, h0 + (long)b * H, sizeof(float) * (size_t)H);
            else
                memset(dst, 0, sizeof(float) * (size_t)H);
        }
    }
    if (dhn)
        memcpy(dh, dhn, sizeof(float) * BH);
    else
        memset(dh, 0, sizeof(float) * BH);
    if (dcn && cell == AL_RECURRENT_LSTM)
        memcpy(dc, dcn, sizeof(float) * BH);
    else
        memset(dc, 0, sizeof(float) * BH);

    for (int s = T - 1; s >= 0; s--) {
        const int t = reverse ? T - 1 - s : s;
        const int tp = reverse ? t + 1 : t - 1;
        for (int b = 0; b < B; b++) {
            const long row = (long)b * T + t;
            float *dhb = dh + (long)b * H, *dnext = dh_prev + (long)b * H;
            const float *hp = hprev + row * H;
            float *dp = dpre + row * GH;
            if (dy)
                for (int j = 0; j < H; j++) dhb[j] += dy[row * lddy + j];
            const float *cp = cell != AL_RECURRENT_LSTM ? NULL
                              : s == 0                  ? (c0 ? c0 + (long)b * H : NULL)
                                                        : state + ((long)b * T + tp) * H;
            al_recurrent_cell_backward(cell, H, gates + row * GH, state ? state + row * H : NULL,
                                       state ? state + row * H : NULL, cp, y + row * ldy, hp, dhb,
                                       dc + (long)b * H, dp, dhh + row * GH, dnext,
                                       dc + (long)b * H);
        }
        /* dh_{t−1} += W_hhᵀ · ∂L/∂(W_hh h_{t−1}) (not needed past the first step without dh0) */
        if (s > 0 || dh0)
            al_recurrent_add_matvec_t(B, GH, H, w_hh, dhh + (long)t * GH, T * GH, dh_prev, H);
        float *tmp = dh;
        dh = dh_prev;
        dh_prev = tmp;
    }
    if (dh0)
        for (size_t k = 0; k < BH; k++) dh0[k] += dh[k];
    if (dc0 && cell == AL_RECURRENT_LSTM)
        for (size_t k = 0; k < BH; k++) dc0[k] += dc[k];

    /* Parameter gradients over all steps at once:
     *   gates = x · w_ihᵀ + b_ih  →  dw_ih += dpreᵀ · x,  db_ih += Σ_rows dpre,  dx += dpre · w_ih
     *   W_hh h_{t−1} + b_hh      →  dw_hh += dhhᵀ · hprev, db_hh += Σ_rows dhh */
    al_sgemm(1, 0, GH, I, (int)BT, 1.0f, dpre, GH, x, I, 1.0f, dw_ih, I);
    al_sgemm(1, 0, GH, H, (int)BT, 1.0f, dhh, GH, hprev, H, 1.0f, dw_hh, H);
    if (db_ih || db_hh) {
        for (long row = 0; row < BT; row++) {
            const float *dp = dpre + row * GH, *dq = dhh + row * GH;
            if (db_ih)
                for (int j = 0; j < GH; j++) db_ih[j] += dp[j];
            if (db_hh)
                for (int j = 0; j < GH; j++) db_hh[j] += dq[j];
        }
    }
    if (dx) al_sgemm(0, 0, (int)BT, I, GH, 1.0f, dpre, GH, w_ih, I, 1.0f, dx, I);
}
