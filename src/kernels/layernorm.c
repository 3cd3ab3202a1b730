/*
 * layernorm.c: layer normalisation over the last axis, forward and backward
 * (Ba, Kiros & Hinton 2016; torch.nn.LayerNorm with elementwise affine).
 *
 * Statistics accumulate in double: rows are short, and this keeps the result within float
 * rounding of the double reference even for rows with a large mean.
 */
#include <math.h>

#include "kernels.h"

void al_layernorm_forward(float *y, float *mean, float *rstd, const float *x, const float *weight,
                          const float *bias, int R, int C, float eps)
{
    for (int r = 0; r < R; r++) {
        const float *xr = x + (long)r * C;
        float *yr = y + (long)r * C;
        /* μ = mean(x), σ² = mean((x − μ)²) (biased, as PyTorch) */
        double mu = 0.0;
        for (int c = 0; c < C; c++) mu += xr[c];
        mu /= C;
        double var = 0.0;
        for (int c = 0; c < C; c++) var += (xr[c] - mu) * (xr[c] - mu);
        var /= C;
        float rs = (float)(1.0 / sqrt(var + (double)eps));
        float m = (float)mu;
        /* y = (x − μ) · rstd · w + b */
        for (int c = 0; c < C; c++) {
            float norm = (xr[c] - m) * rs;
            yr[c] = norm * (weight ? weight[c] : 1.0f) + (bias ? bias[c] : 0.0f);
        }
        if (mean) mean[r] = m;
        if (rstd) rstd[r] = rs;
    }
}

void al_layernorm_backward(float *dx, float *dweight, float *dbias, const float *dy, const float *x,
                           const float *mean, const float *rstd, const float *weight, int R, int C)
{
    for (int r = 0; r < R; r++) {
        const float *xr = x + (long)r * C;
        const float *dyr = dy + (long)r * C;
        float *dxr = dx + (long)r * C;
        float m = mean[r], rs = rstd[r];
        /* forward: norm = (x − μ)·rstd; y = norm·w + b. With g = dy·w:
         * dx = rstd · (g − mean(g) − norm · mean(g·norm)) */
        double gmean = 0.0, gnorm = 0.0;
        for (int c = 0; c < C; c++) {
            float norm = (xr[c] - m) * rs;
            float g = dyr[c] * (weight ? weight[c] : 1.0f);
            gmean += g;
            gnorm += (double)g * norm;
        }
        gmean /= C;
        gnorm /= C;
        for (int c = 0; c < C; c++) {
            float norm = (xr[c] - m) * rs;
            float g = dyr[c] * (weight ? weight[c] : 1.0f);
            dxr[c] += rs * (g - (float)gmean - norm * (float)gnorm);
            if (dweight) dweight[c] += dyr[c] * norm; /* y = norm·w + b */
            if (dbias) dbias[c] += dyr[c];
        }
    }
}
