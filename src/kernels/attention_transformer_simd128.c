/*
 * attention_transformer_simd128.c: 4-lane twins of the relative-position loops. The maths and
 * the three runs of j (j < i−k → bucket 0, |j−i| <= k → bucket j−i+k, j > i+k → bucket 2k) are
 * in al_relpos_*_scalar (attention_transformer.c); here only lanes and tails.
 */
#include <string.h>

#include "attention_transformer.h"

#if AL_SIMD128

/* x[0..len) += c */
static void add_splat(float *x, float c, int len)
{
    al_v4 vc = al_v4_splat(c);
    int j = 0;
    for (; j + 4 <= len; j += 4) al_v4_store(x + j, al_v4_add(al_v4_load(x + j), vc));
    for (; j < len; j++) x[j] += c;
}

/* x[0..len) += y[0..len) */
static void add_vec(float *x, const float *y, int len)
{
    int j = 0;
    for (; j + 4 <= len; j += 4)
        al_v4_store(x + j, al_v4_add(al_v4_load(x + j), al_v4_load(y + j)));
    for (; j < len; j++) x[j] += y[j];
}

/* Σ x[0..len) */
static float sum_vec(const float *x, int len)
{
    al_v4 acc = al_v4_zero();
    int j = 0;
    for (; j + 4 <= len; j += 4) acc = al_v4_add(acc, al_v4_load(x + j));
    float s = al_v4_hsum(acc);
    for (; j < len; j++) s += x[j];
    return s;
}

void al_relpos_gather_add_simd128(float *m, const float *g, int n, int k)
{
    int R = 2 * k + 1;
    for (int i = 0; i < n; i++) {
        float *mi = m + (long)i * n;
        const float *gi = g + (long)i * R;
        int lo = i - k > 0 ? i - k : 0, hi = i + k + 1 < n ? i + k + 1 : n;
        add_splat(mi, gi[0], lo);
        add_vec(mi + lo, gi + lo - i + k, hi - lo);
        add_splat(mi + hi, gi[2 * k], n - hi);
    }
}

void al_relpos_bucket_sum_simd128(float *b, const float *m, int n, int k)
{
    int R = 2 * k + 1;
    memset(b, 0, sizeof(float) * (size_t)n * R);
    for (int i = 0; i < n; i++) {
        const float *mi = m + (long)i * n;
        float *bi = b + (long)i * R;
        int lo = i - k > 0 ? i - k : 0, hi = i + k + 1 < n ? i + k + 1 : n;
        bi[0] += sum_vec(mi, lo);
        add_vec(bi + lo - i + k, mi + lo, hi - lo);
        bi[2 * k] += sum_vec(mi + hi, n - hi);
    }
}

#endif /* AL_SIMD128 */
