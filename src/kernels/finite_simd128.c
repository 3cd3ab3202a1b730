/*
 * finite_simd128.c: SIMD128 twin of finite_scalar.c. Sums x − x over four lanes (0 while every
 * value is finite, NaN from the first NaN or ±Inf on), then lets the scalar twin find the index
 * only when something was found.
 */
#include "kernels.h"

#if AL_SIMD128

int al_first_nonfinite_simd128(const float *x, int n)
{
    al_v4 a0 = al_v4_zero(), a1 = al_v4_zero();
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        al_v4 v0 = al_v4_load(x + i), v1 = al_v4_load(x + i + 4);
        a0 = al_v4_add(a0, al_v4_sub(v0, v0));
        a1 = al_v4_add(a1, al_v4_sub(v1, v1));
    }
    float s = al_v4_hsum(al_v4_add(a0, a1));
    for (; i < n; i++) s += x[i] - x[i];
    return s == 0.0f ? -1 : al_first_nonfinite_scalar(x, n);
}

#endif /* AL_SIMD128 */
