/*
 * attention_additive_luong_simd128.c: SIMD128 twin of al_additive_scores_scalar (the maths, and
 * the Cephes tanh it uses, are in attention_additive_luong.c).
 *
 * Lanes run along da: for each key j, four tanh values and four v·tanh partial sums at a time,
 * one horizontal sum, the tail (da mod 4) with the scalar tanh. The vector tanh is the scalar one
 * lane-wise: both branches computed, picked by |x| < 0.625; al_v4_exp's clamp keeps e^{2|x|}
 * finite so large |x| gives ±1. The tanh values match the scalar twin bit for bit; e_j differs
 * only by summation order.
 *
 * simd128.h has no abs, compare or select; the three local helpers below add them for both back
 * ends (wasm SIMD128, SSE2) rather than touching that shared header.
 */
#include "attention_additive_luong.h"

#if AL_SIMD128

#if defined(__wasm_simd128__)
static inline al_v4 v4_abs(al_v4 a) { return wasm_f32x4_abs(a); }
static inline al_v4 v4_copysign(al_v4 mag, al_v4 sgn) /* |mag| >= 0 with the sign of sgn */
{
    return wasm_v128_or(mag, wasm_v128_and(sgn, wasm_f32x4_splat(-0.0f)));
}
static inline al_v4 v4_lt_select(al_v4 a, al_v4 b, al_v4 x, al_v4 y) /* a < b ? x : y */
{
    return wasm_v128_bitselect(x, y, wasm_f32x4_lt(a, b));
}
#else
static inline al_v4 v4_abs(al_v4 a) { return _mm_andnot_ps(_mm_set1_ps(-0.0f), a); }
static inline al_v4 v4_copysign(al_v4 mag, al_v4 sgn)
{
    return _mm_or_ps(mag, _mm_and_ps(sgn, _mm_set1_ps(-0.0f)));
}
static inline al_v4 v4_lt_select(al_v4 a, al_v4 b, al_v4 x, al_v4 y)
{
    __m128 m = _mm_cmplt_ps(a, b);
    return _mm_or_ps(_mm_and_ps(m, x), _mm_andnot_ps(m, y));
}
#endif

/* al_tanhf_scalar on four lanes */
static inline al_v4 v4_tanh(al_v4 x)
{
    al_v4 ax = v4_abs(x);
    al_v4 s = al_v4_mul(x, x);
    al_v4 p = al_v4_splat(-5.70498872745e-3f);
    p = al_v4_add(al_v4_mul(p, s), al_v4_splat(2.06390887954e-2f));
    p = al_v4_add(al_v4_mul(p, s), al_v4_splat(-5.37397155531e-2f));
    p = al_v4_add(al_v4_mul(p, s), al_v4_splat(1.33314422036e-1f));
    p = al_v4_add(al_v4_mul(p, s), al_v4_splat(-3.33332819422e-1f));
    al_v4 small = al_v4_add(al_v4_mul(al_v4_mul(p, s), x), x);
    al_v4 e = al_v4_exp(al_v4_mul(al_v4_splat(2.0f), ax));
    al_v4 one = al_v4_splat(1.0f);
    al_v4 big = al_v4_sub(one, al_v4_div(al_v4_splat(2.0f), al_v4_add(e, one)));
    return v4_lt_select(ax, al_v4_splat(0.625f), small, v4_copysign(big, x));
}

void al_additive_scores_simd128(float *e, float *t, const float *pre, const float *hk,
                                const float *v, int n, int da)
{
    for (int j = 0; j < n; j++) {
        const float *hj = hk + (long)j * da;
        float *tj = t + (long)j * da;
        al_v4 acc = al_v4_zero();
        int a = 0;
        for (; a + 4 <= da; a += 4) {
            al_v4 th = v4_tanh(al_v4_add(al_v4_load(pre + a), al_v4_load(hj + a)));
            al_v4_store(tj + a, th);
            acc = al_v4_add(acc, al_v4_mul(al_v4_load(v + a), th));
        }
        float sum = al_v4_hsum(acc);
        for (; a < da; a++) {
            float th = al_tanhf_scalar(pre[a] + hj[a]);
            tj[a] = th;
            sum += v[a] * th;
        }
        e[j] = sum;
    }
}

#endif /* AL_SIMD128 */
