/*
 * softmax_scalar.c: the reference row softmax (forward and backward) and the exp both SIMD and
 * scalar code agree on.
 *
 * Numerically stable: the row maximum over unmasked entries is subtracted before exp, so rows in
 * [90, 100] (or near ±1e30) do not overflow. A fully masked row has no maximum and yields zeros,
 * a documented choice (PyTorch yields NaN there).
 */
#include <string.h>

#include "kernels.h"

float al_expf_scalar(float x)
{
    if (x != x) return x; /* NaN in, NaN out (the bit arithmetic below must not see it) */
    /* Cephes expf, as al_v4_exp: clamp so 2^n stays a normal float. */
    if (x < -87.3f) x = -87.3f;
    if (x > 88.0f) x = 88.0f;
    /* n = round(x / ln2) via the 1.5·2^23 trick: adding it leaves n in the low mantissa bits. */
    const float magic = 12582912.0f;
    float t = x * 1.44269504088896341f + magic;
    float n = t - magic;
    /* r = x − n·ln2, with ln2 split in two for accuracy (Cody–Waite). */
    float r = x - n * 0.693359375f;
    r = r - n * -2.12194440e-4f;
    /* e^r ≈ 1 + r + r²·P(r) on |r| <= ln2/2 */
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    /* 2^n from the exponent bits. */
    int32_t ti, mi;
    memcpy(&ti, &t, 4);
    memcpy(&mi, &magic, 4);
    uint32_t bits = (uint32_t)(ti - mi + 127) << 23;
    float pow2n;
    memcpy(&pow2n, &bits, 4);
    return p * pow2n;
}

void al_softmax_forward_scalar(float *y, const float *x, const uint8_t *mask, int mask_stride,
                               int R, int C)
{
    for (int r = 0; r < R; r++) {
        const float *xr = x + (long)r * C;
        float *yr = y + (long)r * C;
        const uint8_t *mr = mask ? mask + (long)r * mask_stride : NULL;
        /* max over the visible entries */
        float max = 0.0f;
        int any = 0;
        for (int c = 0; c < C; c++) {
            if (mr && mr[c]) continue;
            if (!any || xr[c] > max) max = xr[c];
            any = 1;
        }
        if (!any) {
            memset(yr, 0, sizeof(float) * (size_t)C);
            continue;
        }
        /* y = exp(x − max) on visible entries, 0 on masked ones; sum ≥ 1 (the max gives e^0). */
        float sum = 0.0f;
        for (int c = 0; c < C; c++) {
            float e = (mr && mr[c]) ? 0.0f : al_expf_scalar(xr[c] - max);
            yr[c] = e;
            sum += e;
        }
        float inv = 1.0f / sum;
        for (int c = 0; c < C; c++) yr[c] *= inv;
    }
}

void al_softmax_backward_scalar(float *dx, const float *y, const float *dy, int R, int C)
{
    for (int r = 0; r < R; r++) {
        const float *yr = y + (long)r * C;
        const float *dyr = dy + (long)r * C;
        float *dxr = dx + (long)r * C;
        /* forward: y_c = e^{x_c} / Σ e;  vjp: dx_c = y_c (dy_c − Σ_j dy_j y_j) */
        float dot = 0.0f;
        for (int c = 0; c < C; c++) dot += dyr[c] * yr[c];
        for (int c = 0; c < C; c++) dxr[c] += yr[c] * (dyr[c] - dot);
    }
}
