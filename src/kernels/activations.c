/*
 * activations.c: tanh, sigmoid, relu and exact GELU, forward and backward, elementwise.
 *
 * Scalar only: these are memory-bound and run on small vectors inside the models; libm's tanhf
 * and erff give the accuracy the PyTorch fixtures need. Backward accumulates into dx.
 */
#include <math.h>

#include "kernels.h"

void al_tanh_forward(float *y, const float *x, int n)
{
    for (int i = 0; i < n; i++) y[i] = tanhf(x[i]);
}

void al_tanh_backward(float *dx, const float *y, const float *dy, int n)
{
    /* y = tanh(x)  →  dy/dx = 1 − y² */
    for (int i = 0; i < n; i++) dx[i] += dy[i] * (1.0f - y[i] * y[i]);
}

void al_sigmoid_forward(float *y, const float *x, int n)
{
    /* Split by sign so exp never overflows: σ(x) = 1/(1+e^−x) = e^x/(1+e^x). */
    for (int i = 0; i < n; i++) {
        float v = x[i];
        if (v >= 0.0f) {
            y[i] = 1.0f / (1.0f + expf(-v));
        } else {
            float e = expf(v);
            y[i] = e / (1.0f + e);
        }
    }
}

void al_sigmoid_backward(float *dx, const float *y, const float *dy, int n)
{
    /* y = σ(x)  →  dy/dx = y (1 − y) */
    for (int i = 0; i < n; i++) dx[i] += dy[i] * y[i] * (1.0f - y[i]);
}

void al_relu_forward(float *y, const float *x, int n)
{
    for (int i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

void al_relu_backward(float *dx, const float *x, const float *dy, int n)
{
    /* y = max(x, 0)  →  1 where x > 0, else 0 (PyTorch's choice at x = 0) */
    for (int i = 0; i < n; i++)
        if (x[i] > 0.0f) dx[i] += dy[i];
}

void al_gelu_forward(float *y, const float *x, int n)
{
    /* y = x · Φ(x), Φ(x) = ½ (1 + erf(x/√2)) */
    for (int i = 0; i < n; i++) y[i] = 0.5f * x[i] * (1.0f + erff(x[i] * 0.70710678118654752f));
}

void al_gelu_backward(float *dx, const float *x, const float *dy, int n)
{
    /* d/dx x Φ(x) = Φ(x) + x φ(x), φ(x) = e^{−x²/2} / √(2π) */
    for (int i = 0; i < n; i++) {
        float v = x[i];
        float cdf = 0.5f * (1.0f + erff(v * 0.70710678118654752f));
        float pdf = expf(-0.5f * v * v) * 0.39894228040143268f;
        dx[i] += dy[i] * (cdf + v * pdf);
    }
}
