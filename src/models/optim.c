/*
 * models/optim.c: Adam(W), SGD and global-norm clipping on flat arrays; the maths is in optim.h.
 * Deliberately not here: allocation (the trainer owns the moments), schedules.
 */
#include <math.h>

#include "optim.h"

double al_optim_clip(float *g, size_t n, float clip)
{
    double ss = 0.0;
    for (size_t i = 0; i < n; i++) ss += (double)g[i] * g[i];
    const double norm = sqrt(ss);
    if (clip > 0.0f && norm > clip) {
        const float k = (float)(clip / norm);
        for (size_t i = 0; i < n; i++) g[i] *= k;
    }
    return norm;
}

void al_optim_adam(float *w, const float *g, float *m, float *v, size_t n, float lr,
                   float weight_decay, long t)
{
    const float b1 = AL_ADAM_BETA1, b2 = AL_ADAM_BETA2;
    /* bias corrections 1 − β^t, in double (β2^t is close to 1 for small t) */
    const double c1 = 1.0 - pow((double)b1, (double)t), c2 = 1.0 - pow((double)b2, (double)t);
    const float step = (float)(lr / c1), rc2 = (float)(1.0 / sqrt(c2)), decay = lr * weight_decay;
    for (size_t i = 0; i < n; i++) {
        /* m = β1 m + (1 − β1) g;  v = β2 v + (1 − β2) g² */
        m[i] = b1 * m[i] + (1.0f - b1) * g[i];
        v[i] = b2 * v[i] + (1.0f - b2) * g[i] * g[i];
        /* w −= lr λ w (decoupled, from the old w);  w −= lr m̂ / (√v̂ + ε) */
        const float wd = decay * w[i];
        w[i] -= step * m[i] / (sqrtf(v[i]) * rc2 + AL_ADAM_EPS) + wd;
    }
}

void al_optim_sgd(float *w, const float *g, float *buf, size_t n, float lr, float momentum,
                  float weight_decay, long t)
{
    const float decay = lr * weight_decay;
    for (size_t i = 0; i < n; i++) {
        float d = g[i];
        if (momentum != 0.0f) {
            /* buf = μ buf + g (buf = g at the first step) */
            buf[i] = t > 1 ? momentum * buf[i] + g[i] : g[i];
            d = buf[i];
        }
        w[i] -= lr * d + decay * w[i];
    }
}
