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

/* ------------------------------------------------------------------ seeded initialisation */

void al_rng_seed(al_rng *r, unsigned int seed)
{
    r->x = 0x243F6A8885A308D3ull ^ ((unsigned long long)seed * 0x9E3779B97F4A7C15ull);
}

double al_rng_uniform(al_rng *r) /* splitmix64, top 53 bits */
{
    unsigned long long z = (r->x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

void al_rng_normal(al_rng *r, float *w, long n)
{
    for (long i = 0; i < n; i += 2) {
        const double u1 = 1.0 - al_rng_uniform(r), u2 = al_rng_uniform(r);
        const double m = sqrt(-2.0 * log(u1)), a = 6.283185307179586 * u2;
        w[i] = (float)(m * cos(a));
        if (i + 1 < n) w[i + 1] = (float)(m * sin(a));
    }
}

void al_rng_bounded(al_rng *r, float *w, long n, double bound)
{
    for (long i = 0; i < n; i++) w[i] = (float)((2.0 * al_rng_uniform(r) - 1.0) * bound);
}

void al_init_weights(const al_tensor_list *list, const void *impl, float *weights, uint32_t seed,
                     al_init_rule rule)
{
    al_rng r;
    al_rng_seed(&r, seed);
    float *w = weights;
    for (int k = 0; k < list->n; k++) {
        const al_tensor_spec *t = &list->t[k];
        const long n = (long)t->dim[0] * (t->rank == 2 ? t->dim[1] : 1);
        const al_init how = rule(t, k, impl);
        if (how.kind == AL_INIT_NORMAL)
            al_rng_normal(&r, w, n);
        else if (how.kind == AL_INIT_UNIFORM)
            al_rng_bounded(&r, w, n, how.value);
        else
            for (long i = 0; i < n; i++) w[i] = (float)how.value;
        w += n;
    }
}
