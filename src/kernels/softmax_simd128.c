/*
 * softmax_simd128.c: SIMD128 twin of softmax_scalar.c (the maths and the masked-row rule are
 * documented there). Lanes run along the row; exp is al_v4_exp_neg (x − max <= 0 for every
 * visible entry), the lane version of al_expf_scalar. Masked entries are zeroed after the exp
 * pass, so whatever they hold (−inf, huge values) never reaches the sum.
 */
#include <string.h>

#include "kernels.h"

#if AL_SIMD128

static void softmax_row(float *y, const float *x, const uint8_t *m, int C)
{
    /* max over visible entries */
    float max;
    int c = 0;
    if (!m) {
        al_v4 mv = al_v4_splat(x[0]);
        for (; c + 4 <= C; c += 4) mv = al_v4_max(mv, al_v4_load(x + c));
        max = al_v4_hmax(mv);
        for (; c < C; c++)
            if (x[c] > max) max = x[c];
    } else {
        int any = 0;
        max = 0.0f;
        for (c = 0; c < C; c++) {
            if (m[c]) continue;
            if (!any || x[c] > max) max = x[c];
            any = 1;
        }
        if (!any) {
            memset(y, 0, sizeof(float) * (size_t)C);
            return;
        }
    }
    /* y = exp(x − max) */
    al_v4 mv = al_v4_splat(max);
    for (c = 0; c + 4 <= C; c += 4)
        al_v4_store(y + c, al_v4_exp_neg(al_v4_sub(al_v4_load(x + c), mv)));
    for (; c < C; c++) y[c] = al_expf_scalar(x[c] - max);
    if (m)
        for (c = 0; c < C; c++)
            if (m[c]) y[c] = 0.0f;
    /* normalise */
    al_v4 sv = al_v4_zero();
    for (c = 0; c + 4 <= C; c += 4) sv = al_v4_add(sv, al_v4_load(y + c));
    float sum = al_v4_hsum(sv);
    for (; c < C; c++) sum += y[c];
    al_v4 inv = al_v4_splat(1.0f / sum);
    for (c = 0; c + 4 <= C; c += 4) al_v4_store(y + c, al_v4_mul(al_v4_load(y + c), inv));
    for (; c < C; c++) y[c] *= 1.0f / sum;
}

void al_softmax_forward_simd128(float *y, const float *x, const uint8_t *mask, int mask_stride,
                                int R, int C)
{
    for (int r = 0; r < R; r++)
        softmax_row(y + (long)r * C, x + (long)r * C, mask ? mask + (long)r * mask_stride : NULL,
                    C);
}

void al_softmax_backward_simd128(float *dx, const float *y, const float *dy, int R, int C)
{
    for (int r = 0; r < R; r++) {
        const float *yr = y + (long)r * C, *dyr = dy + (long)r * C;
        float *dxr = dx + (long)r * C;
        al_v4 sv = al_v4_zero();
        int c = 0;
        for (; c + 4 <= C; c += 4)
            sv = al_v4_add(sv, al_v4_mul(al_v4_load(dyr + c), al_v4_load(yr + c)));
        float dot = al_v4_hsum(sv);
        for (; c < C; c++) dot += dyr[c] * yr[c];
        al_v4 dv = al_v4_splat(dot);
        for (c = 0; c + 4 <= C; c += 4) {
            al_v4 g = al_v4_mul(al_v4_load(yr + c), al_v4_sub(al_v4_load(dyr + c), dv));
            al_v4_store(dxr + c, al_v4_add(al_v4_load(dxr + c), g));
        }
        for (; c < C; c++) dxr[c] += yr[c] * (dyr[c] - dot);
    }
}

#endif /* AL_SIMD128 */
