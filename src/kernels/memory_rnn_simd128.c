/*
 * memory_rnn_simd128.c: SIMD128 twin of the additive tape score in memory_rnn.c (the maths, and
 * the tanh-through-exp formula both twins share, are documented there). Lanes run along the
 * attention dim d; scalar tails use the scalar formula. One 4-lane accumulator per tape row.
 */
#include "memory_rnn.h"

#if AL_SIMD128

static inline al_v4 v4_tanh(al_v4 x) /* 1 − 2/(e^{2x} + 1) */
{
    const al_v4 one = al_v4_splat(1.0f);
    return al_v4_sub(one, al_v4_div(al_v4_splat(2.0f), al_v4_add(al_v4_exp(al_v4_add(x, x)), one)));
}

static inline float s_tanh(float x) { return 1.0f - 2.0f / (al_expf_scalar(2.0f * x) + 1.0f); }

void al_memory_score_forward_simd128(float *e, const float *P, const float *q, const float *v,
                                     int n, int d)
{
    for (int i = 0; i < n; i++) {
        const float *p = P + (size_t)i * d;
        al_v4 acc = al_v4_zero();
        int k = 0;
        for (; k + 4 <= d; k += 4) {
            al_v4 u = v4_tanh(al_v4_add(al_v4_load(p + k), al_v4_load(q + k)));
            acc = al_v4_add(acc, al_v4_mul(al_v4_load(v + k), u));
        }
        float s = al_v4_hsum(acc);
        for (; k < d; k++) s += v[k] * s_tanh(p[k] + q[k]);
        e[i] = s;
    }
}

void al_memory_score_backward_simd128(float *dP, float *dq, float *dv, const float *de,
                                      const float *P, const float *q, const float *v, int n, int d)
{
    const al_v4 one = al_v4_splat(1.0f);
    for (int i = 0; i < n; i++) {
        const float *p = P + (size_t)i * d;
        float *dp = dP + (size_t)i * d;
        float g = de[i];
        al_v4 gv = al_v4_splat(g);
        int k = 0;
        for (; k + 4 <= d; k += 4) {
            al_v4 u = v4_tanh(al_v4_add(al_v4_load(p + k), al_v4_load(q + k)));
            if (dv) al_v4_store(dv + k, al_v4_add(al_v4_load(dv + k), al_v4_mul(gv, u)));
            al_v4 dpre =
                al_v4_mul(al_v4_mul(gv, al_v4_load(v + k)), al_v4_sub(one, al_v4_mul(u, u)));
            al_v4_store(dp + k, al_v4_add(al_v4_load(dp + k), dpre));
            al_v4_store(dq + k, al_v4_add(al_v4_load(dq + k), dpre));
        }
        for (; k < d; k++) {
            float u = s_tanh(p[k] + q[k]);
            if (dv) dv[k] += g * u;
            float dpre = g * v[k] * (1.0f - u * u);
            dp[k] += dpre;
            dq[k] += dpre;
        }
    }
}

#endif /* AL_SIMD128 */
