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
    x = al_v4_min(al_v4_max(x, al_v4_splat(-7.90531110763549805f)), al_v4_splat(7.90531110763549805f));
    al_v4 x2 = al_v4_mul(x, x);
    al_v4 p = al_v4_add(al_v4_mul(x2, al_v4_splat(-2.76076847742355e-16f)), al_v4_splat(2.00018790482477e-13f));
    p = al_v4_add(al_v4_mul(x2, p), al_v4_splat(-8.60467152213735e-11f));
    p = al_v4_add(al_v4_mul(x2, p), al_v4_splat(5.12229709037114e-08f));
    p = al_v4_add(al_v4_mul(x2, p), al_v4_splat(1.48572235717979e-05f));
    p = al_v4_add(al_v4_mul(x2, p), al_v4_splat(6.37261928875436e-04f));
    p = al_v4_add(al_v4_mul(x2, p), al_v4_splat(4.89352455891786e-03f));
    p = al_v4_mul(x, p);
    al_v4 q = al_v4_add(al_v4_mul(x2, al_v4_splat(1.19825839466702e-06f)), al_v4_splat(1.18534705686654e-04f));
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

#endif /* AL_SIMD128 */
