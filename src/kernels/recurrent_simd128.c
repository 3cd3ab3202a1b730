/*
 * recurrent_simd128.c: 4-lane twins of the fused RNN/LSTM/GRU gate kernels. The maths, and the
 * exact order of every operation, is in the scalar twins of recurrent.c (al_recurrent_sigmoidf,
 * al_recurrent_tanhf and the *_cell_forward_scalar loops); here only lanes and tails. Tails
 * (H mod 4) run the scalar twin on the remaining elements.
 */
#include "recurrent.h"

#if AL_SIMD128

/* al_recurrent_sigmoidf on four lanes */
static inline al_v4 v4_sigmoid(al_v4 x)
{
    const al_v4 one = al_v4_splat(1.0f);
    return al_v4_div(one, al_v4_add(one, al_v4_exp(al_v4_sub(al_v4_zero(), x))));
}

/* al_recurrent_tanhf on four lanes: same clamp, same Horner steps */
static inline al_v4 v4_tanh(al_v4 x)
{
    x = al_v4_min(al_v4_max(x, al_v4_splat(-7.90531110763549805f)),
                  al_v4_splat(7.90531110763549805f));
    al_v4 x2 = al_v4_mul(x, x);
    al_v4 p = al_v4_add(al_v4_mul(x2, al_v4_splat(-2.76076847742355e-16f)),
                        al_v4_splat(2.00018790482477e-13f));
    p = al_v4_add(al_v4_mul(x2, p), al_v4_splat(-8.60467152213735e-11f));
    p = al_v4_add(al_v4_mul(x2, p), al_v4_splat(5.12229709037114e-08f));
    p = al_v4_add(al_v4_mul(x2, p), al_v4_splat(1.48572235717979e-05f));
    p = al_v4_add(al_v4_mul(x2, p), al_v4_splat(6.37261928875436e-04f));
    p = al_v4_add(al_v4_mul(x2, p), al_v4_splat(4.89352455891786e-03f));
    p = al_v4_mul(x, p);
    al_v4 q = al_v4_add(al_v4_mul(x2, al_v4_splat(1.19825839466702e-06f)),
                        al_v4_splat(1.18534705686654e-04f));
    q = al_v4_add(al_v4_mul(x2, q), al_v4_splat(2.26843463243900e-03f));
    q = al_v4_add(al_v4_mul(x2, q), al_v4_splat(4.89352518554385e-03f));
    return al_v4_div(p, q);
}

void al_recurrent_rnn_cell_forward_simd128(float *h, const float *pre, int H, int relu)
{
    int j = 0;
    for (; j + 4 <= H; j += 4) {
        al_v4 v = al_v4_load(pre + j);
        al_v4_store(h + j, relu ? al_v4_max(v, al_v4_zero()) : v4_tanh(v));
    }
    if (j < H) al_recurrent_rnn_cell_forward_scalar(h + j, pre + j, H - j, relu);
}

void al_recurrent_lstm_cell_forward_simd128(float *gates, float *c, float *h, const float *c_prev,
                                            int H)
{
    float *gi = gates, *gf = gates + H, *gg = gates + 2 * H, *go = gates + 3 * H;
    int j = 0;
    for (; j + 4 <= H; j += 4) {
        al_v4 i = v4_sigmoid(al_v4_load(gi + j));
        al_v4 f = v4_sigmoid(al_v4_load(gf + j));
        al_v4 g = v4_tanh(al_v4_load(gg + j));
        al_v4 o = v4_sigmoid(al_v4_load(go + j));
        al_v4 cp = c_prev ? al_v4_load(c_prev + j) : al_v4_zero();
        al_v4 cj = al_v4_add(al_v4_mul(f, cp), al_v4_mul(i, g));
        al_v4_store(gi + j, i);
        al_v4_store(gf + j, f);
        al_v4_store(gg + j, g);
        al_v4_store(go + j, o);
        al_v4_store(c + j, cj);
        al_v4_store(h + j, al_v4_mul(o, v4_tanh(cj)));
    }
    if (j < H) {
        /* the tail as a 4-gate block of width H − j: copy the gate tails together */
        float tail[16];
        int n = H - j;
        for (int k = 0; k < n; k++) {
            tail[k] = gi[j + k];
            tail[n + k] = gf[j + k];
            tail[2 * n + k] = gg[j + k];
            tail[3 * n + k] = go[j + k];
        }
        al_recurrent_lstm_cell_forward_scalar(tail, c + j, h + j, c_prev ? c_prev + j : NULL, n);
        for (int k = 0; k < n; k++) {
            gi[j + k] = tail[k];
            gf[j + k] = tail[n + k];
            gg[j + k] = tail[2 * n + k];
            go[j + k] = tail[3 * n + k];
        }
    }
}

void al_recurrent_gru_cell_forward_simd128(float *gates, float *h, const float *hh,
                                           const float *h_prev, int H)
{
    float *ar = gates, *az = gates + H, *an = gates + 2 * H;
    const float *hr = hh, *hz = hh + H, *hn = hh + 2 * H;
    const al_v4 one = al_v4_splat(1.0f);
    int j = 0;
    /* two vectors per iteration: the polynomial constants are materialised once for both, and
     * the two dependency chains overlap (H = 128: 16% faster than one vector at a time) */
    for (; j + 8 <= H; j += 8) {
        al_v4 r0 = v4_sigmoid(al_v4_add(al_v4_load(ar + j), al_v4_load(hr + j)));
        al_v4 r1 = v4_sigmoid(al_v4_add(al_v4_load(ar + j + 4), al_v4_load(hr + j + 4)));
        al_v4 z0 = v4_sigmoid(al_v4_add(al_v4_load(az + j), al_v4_load(hz + j)));
        al_v4 z1 = v4_sigmoid(al_v4_add(al_v4_load(az + j + 4), al_v4_load(hz + j + 4)));
        al_v4 n0 = v4_tanh(al_v4_add(al_v4_load(an + j), al_v4_mul(r0, al_v4_load(hn + j))));
        al_v4 n1 =
            v4_tanh(al_v4_add(al_v4_load(an + j + 4), al_v4_mul(r1, al_v4_load(hn + j + 4))));
        al_v4 hp0 = h_prev ? al_v4_load(h_prev + j) : al_v4_zero();
        al_v4 hp1 = h_prev ? al_v4_load(h_prev + j + 4) : al_v4_zero();
        al_v4_store(ar + j, r0);
        al_v4_store(ar + j + 4, r1);
        al_v4_store(az + j, z0);
        al_v4_store(az + j + 4, z1);
        al_v4_store(an + j, n0);
        al_v4_store(an + j + 4, n1);
        al_v4_store(h + j, al_v4_add(al_v4_mul(al_v4_sub(one, z0), n0), al_v4_mul(z0, hp0)));
        al_v4_store(h + j + 4, al_v4_add(al_v4_mul(al_v4_sub(one, z1), n1), al_v4_mul(z1, hp1)));
    }
    for (; j + 4 <= H; j += 4) {
        al_v4 r = v4_sigmoid(al_v4_add(al_v4_load(ar + j), al_v4_load(hr + j)));
        al_v4 z = v4_sigmoid(al_v4_add(al_v4_load(az + j), al_v4_load(hz + j)));
        al_v4 n = v4_tanh(al_v4_add(al_v4_load(an + j), al_v4_mul(r, al_v4_load(hn + j))));
        al_v4 hp = h_prev ? al_v4_load(h_prev + j) : al_v4_zero();
        al_v4_store(ar + j, r);
        al_v4_store(az + j, z);
        al_v4_store(an + j, n);
        al_v4_store(h + j, al_v4_add(al_v4_mul(al_v4_sub(one, z), n), al_v4_mul(z, hp)));
    }
    if (j < H) {
        float tail[12], htail[12] = { 0 }; /* zeroed: gcc -O1 cannot see n >= 1 */
        int n = H - j;
        for (int k = 0; k < n; k++) {
            tail[k] = ar[j + k];
            tail[n + k] = az[j + k];
            tail[2 * n + k] = an[j + k];
            htail[k] = hr[j + k];
            htail[n + k] = hz[j + k];
            htail[2 * n + k] = hn[j + k];
        }
        al_recurrent_gru_cell_forward_scalar(tail, h + j, htail, h_prev ? h_prev + j : NULL, n);
        for (int k = 0; k < n; k++) {
            ar[j + k] = tail[k];
            az[j + k] = tail[n + k];
            an[j + k] = tail[2 * n + k];
        }
    }
}

/* ------------------------------------------------------------------ packed W_hh GEMV */

/* Block widths as in recurrent.c's packed_width: 32, then 8, 4, 1. */
static inline int packed_width(int N, int n0)
{
    int left = N - n0;
    return left >= 32 ? 32 : left >= 8 ? 8 : left >= 4 ? 4 : 1;
}

void al_recurrent_pack_simd128(float *P, const float *W, int lda, int N, int K)
{
    for (int n0 = 0, w; n0 < N; n0 += w) {
        w = packed_width(N, n0);
        float *blk = P + (long)n0 * K;
        if (w == 1) {
            for (int k = 0; k < K; k++) blk[k] = W[(long)n0 * lda + k];
            continue;
        }
        /* 4 rows × 4 k at a time: a 4×4 transpose turns row pieces into [k][4] pieces */
        for (int g = 0; g < w; g += 4) {
            const float *r = W + (long)(n0 + g) * lda;
            int k = 0;
            for (; k + 4 <= K; k += 4) {
                al_v4 a0 = al_v4_load(r + k), a1 = al_v4_load(r + lda + k);
                al_v4 a2 = al_v4_load(r + 2 * lda + k), a3 = al_v4_load(r + 3 * lda + k);
                AL_V4_TRANSPOSE4(a0, a1, a2, a3);
                al_v4_store(blk + (long)k * w + g, a0);
                al_v4_store(blk + (long)(k + 1) * w + g, a1);
                al_v4_store(blk + (long)(k + 2) * w + g, a2);
                al_v4_store(blk + (long)(k + 3) * w + g, a3);
            }
            AL_V4_SCALAR_LOOP
            for (; k < K; k++)
                for (int i = 0; i < 4; i++) blk[(long)k * w + g + i] = r[(long)i * lda + k];
        }
    }
}

/* y[0..w) = init + Σ_k x[k] · blk[k][0..w) for a block of w = 8 or 4 columns (the tails) */
static AL_V4_NOINLINE void packed_gemv_narrow(float *y, const float *blk, const float *x,
                                              const float *init, int w, int K)
{
    for (int g = 0; g < w; g += 4) {
        al_v4 c = init ? al_v4_load(init + g) : al_v4_zero();
        for (int k = 0; k < K; k++)
            c = al_v4_add(c, al_v4_mul(al_v4_splat(x[k]), al_v4_load(blk + (long)k * w + g)));
        al_v4_store(y + g, c);
    }
}

void al_recurrent_packed_gemv_simd128(float *y, const float *P, const float *x, const float *init,
                                      int N, int K)
{
    int n0 = 0;
    /* 32 outputs in 8 registers while the block's K rows stream by: one broadcast, 8 loads from
     * one pointer, 8 multiplies and 8 adds per k (no horizontal sums, no re-read of x) */
    for (; n0 + 32 <= N; n0 += 32) {
        const float *p = P + (long)n0 * K;
        al_v4 c0, c1, c2, c3, c4, c5, c6, c7;
        if (init) {
            const float *b = init + n0;
            /* clang-format off */
            c0 = al_v4_load(b);      c1 = al_v4_load(b + 4);  c2 = al_v4_load(b + 8);  c3 = al_v4_load(b + 12);
            c4 = al_v4_load(b + 16); c5 = al_v4_load(b + 20); c6 = al_v4_load(b + 24); c7 = al_v4_load(b + 28);
            /* clang-format on */
        } else {
            c0 = c1 = c2 = c3 = c4 = c5 = c6 = c7 = al_v4_zero();
        }
        for (int k = 0; k < K; k++, p += 32) {
            al_v4 xv = al_v4_splat(x[k]);
            c0 = al_v4_add(c0, al_v4_mul(xv, al_v4_load(p)));
            c1 = al_v4_add(c1, al_v4_mul(xv, al_v4_load(p + 4)));
            c2 = al_v4_add(c2, al_v4_mul(xv, al_v4_load(p + 8)));
            c3 = al_v4_add(c3, al_v4_mul(xv, al_v4_load(p + 12)));
            c4 = al_v4_add(c4, al_v4_mul(xv, al_v4_load(p + 16)));
            c5 = al_v4_add(c5, al_v4_mul(xv, al_v4_load(p + 20)));
            c6 = al_v4_add(c6, al_v4_mul(xv, al_v4_load(p + 24)));
            c7 = al_v4_add(c7, al_v4_mul(xv, al_v4_load(p + 28)));
        }
        float *o = y + n0;
        /* clang-format off */
        al_v4_store(o, c0);      al_v4_store(o + 4, c1);  al_v4_store(o + 8, c2);  al_v4_store(o + 12, c3);
        al_v4_store(o + 16, c4); al_v4_store(o + 20, c5); al_v4_store(o + 24, c6); al_v4_store(o + 28, c7);
        /* clang-format on */
    }
    for (int w; n0 < N; n0 += w) {
        w = packed_width(N, n0);
        const float *blk = P + (long)n0 * K;
        if (w > 1) {
            packed_gemv_narrow(y + n0, blk, x, init ? init + n0 : NULL, w, K);
        } else {
            float acc = init ? init[n0] : 0.0f;
            AL_V4_SCALAR_LOOP
            for (int k = 0; k < K; k++) acc += x[k] * blk[k];
            y[n0] = acc;
        }
    }
}

#endif /* AL_SIMD128 */
