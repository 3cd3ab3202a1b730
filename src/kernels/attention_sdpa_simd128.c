/*
 * attention_sdpa_simd128.c: SIMD128 twin of attention_sdpa_scalar.c (maths, masks and the two
 * paths are documented there).
 *
 * Scores: four keys at a time share the query loads, lanes along D. Weighted sums: lanes along
 * Dv. The streaming path works on blocks of AL_SDPA_BLOCK keys: scores into a small stack
 * buffer, one max and one rescale per block instead of per key, exp on four lanes.
 */
#include <string.h>

#include "kernels.h"

#if AL_SIMD128

#define AL_SDPA_BLOCK 32

/* s[0..3] = q · k_{0..3} over D, keys at stride D */
static inline void dot4(float *s, const float *q, const float *k, int D)
{
    const float *k0 = k, *k1 = k + D, *k2 = k + 2 * D, *k3 = k + 3 * D;
    al_v4 a0 = al_v4_zero(), a1 = al_v4_zero(), a2 = al_v4_zero(), a3 = al_v4_zero();
    int d = 0;
    for (; d + 4 <= D; d += 4) {
        al_v4 qv = al_v4_load(q + d);
        a0 = al_v4_add(a0, al_v4_mul(qv, al_v4_load(k0 + d)));
        a1 = al_v4_add(a1, al_v4_mul(qv, al_v4_load(k1 + d)));
        a2 = al_v4_add(a2, al_v4_mul(qv, al_v4_load(k2 + d)));
        a3 = al_v4_add(a3, al_v4_mul(qv, al_v4_load(k3 + d)));
    }
    s[0] = al_v4_hsum(a0); s[1] = al_v4_hsum(a1); s[2] = al_v4_hsum(a2); s[3] = al_v4_hsum(a3);
    for (; d < D; d++) {
        s[0] += q[d] * k0[d]; s[1] += q[d] * k1[d]; s[2] += q[d] * k2[d]; s[3] += q[d] * k3[d];
    }
}

static inline float dot1(const float *q, const float *k, int D)
{
    al_v4 a = al_v4_zero();
    int d = 0;
    for (; d + 4 <= D; d += 4) a = al_v4_add(a, al_v4_mul(al_v4_load(q + d), al_v4_load(k + d)));
    float s = al_v4_hsum(a);
    for (; d < D; d++) s += q[d] * k[d];
    return s;
}

/* s[0..n) = (q · k_j) · scale */
static void scores(float *s, const float *q, const float *k, int n, int D, float scale)
{
    int j = 0;
    for (; j + 4 <= n; j += 4) dot4(s + j, q, k + (long)j * D, D);
    for (; j < n; j++) s[j] = dot1(q, k + (long)j * D, D);
    al_v4 sc = al_v4_splat(scale);
    for (j = 0; j + 4 <= n; j += 4) al_v4_store(s + j, al_v4_mul(al_v4_load(s + j), sc));
    for (; j < n; j++) s[j] *= scale;
}

/* o[0..Dv) += a · v */
static inline void axpy(float *o, float a, const float *v, int Dv)
{
    al_v4 av = al_v4_splat(a);
    int d = 0;
    for (; d + 4 <= Dv; d += 4) al_v4_store(o + d, al_v4_add(al_v4_load(o + d), al_v4_mul(av, al_v4_load(v + d))));
    for (; d < Dv; d++) o[d] += a * v[d];
}

static inline void scal(float *o, float a, int n)
{
    al_v4 av = al_v4_splat(a);
    int d = 0;
    for (; d + 4 <= n; d += 4) al_v4_store(o + d, al_v4_mul(al_v4_load(o + d), av));
    for (; d < n; d++) o[d] *= a;
}

void al_sdpa_forward_simd128(float *out, float *att, const float *q, const float *k,
                             const float *v, int T, int S, int D, int Dv, float scale,
                             const uint8_t *key_mask, int causal)
{
    for (int t = 0; t < T; t++) {
        const float *qt = q + (long)t * D;
        float *ot = out + (long)t * Dv;
        int Sv = causal ? (t + 1 < S ? t + 1 : S) : S;
        memset(ot, 0, sizeof(float) * (size_t)Dv);
        if (att) {
            float *at = att + (long)t * S;
            scores(at, qt, k, Sv, D, scale);
            al_softmax_forward_simd128(at, at, key_mask, 0, 1, Sv);
            for (int s = Sv; s < S; s++) at[s] = 0.0f;
            for (int s = 0; s < Sv; s++)
                if (at[s] != 0.0f) axpy(ot, at[s], v + (long)s * Dv, Dv);
            continue;
        }
        float sc[AL_SDPA_BLOCK];
        float m = 0.0f, l = 0.0f;
        int any = 0;
        for (int s0 = 0; s0 < Sv; s0 += AL_SDPA_BLOCK) {
            int n = Sv - s0 < AL_SDPA_BLOCK ? Sv - s0 : AL_SDPA_BLOCK;
            scores(sc, qt, k + (long)s0 * D, n, D, scale);
            /* block max over visible keys */
            int vis = 0;
            float bm = 0.0f;
            for (int j = 0; j < n; j++) {
                if (key_mask && key_mask[s0 + j]) continue;
                if (!vis || sc[j] > bm) bm = sc[j];
                vis = 1;
            }
            if (!vis) continue;
            if (!any || bm > m) {
                float c = any ? al_expf_scalar(m - bm) : 0.0f;
                l *= c;
                scal(ot, c, Dv);
                m = bm;
                any = 1;
            }
            /* p_j = exp(e_j − m), masked keys 0 */
            al_v4 mv = al_v4_splat(m);
            int j = 0;
            for (; j + 4 <= n; j += 4) al_v4_store(sc + j, al_v4_exp(al_v4_sub(al_v4_load(sc + j), mv)));
            for (; j < n; j++) sc[j] = al_expf_scalar(sc[j] - m);
            for (j = 0; j < n; j++) {
                if (key_mask && key_mask[s0 + j]) continue;
                l += sc[j];
                axpy(ot, sc[j], v + (long)(s0 + j) * Dv, Dv);
            }
        }
        if (any) scal(ot, 1.0f / l, Dv);
    }
}

#endif /* AL_SIMD128 */
