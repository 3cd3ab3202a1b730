/*
 * dispatch.c: the one place that picks a kernel variant. Compile-time: the _simd128 twins where
 * a 128-bit back end exists (wasm -msimd128, or SSE2 natively), the _scalar twins otherwise (the
 * scalar .wasm for engines without SIMD128). Both twins are linked in the SIMD build so tests
 * can compare them in one binary.
 */
#include "kernels.h"

#if AL_SIMD128
#define AL_PICK(name) name##_simd128
#else
#define AL_PICK(name) name##_scalar
#endif

int al_kernels_simd(void) { return AL_SIMD128; }

void al_sgemm(int trans_a, int trans_b, int M, int N, int K, float alpha,
              const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc)
{
    AL_PICK(al_sgemm)(trans_a, trans_b, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void al_sgemv(int trans, int M, int K, float alpha, const float *A, int lda,
              const float *x, float beta, float *y)
{
    AL_PICK(al_sgemv)(trans, M, K, alpha, A, lda, x, beta, y);
}

void al_softmax_forward(float *y, const float *x, const uint8_t *mask, int mask_stride, int R, int C)
{
    AL_PICK(al_softmax_forward)(y, x, mask, mask_stride, R, C);
}

void al_softmax_backward(float *dx, const float *y, const float *dy, int R, int C)
{
    AL_PICK(al_softmax_backward)(dx, y, dy, R, C);
}

void al_sdpa_forward(float *out, float *att, const float *q, const float *k, const float *v,
                     int T, int S, int D, int Dv, float scale, const uint8_t *key_mask, int causal)
{
    AL_PICK(al_sdpa_forward)(out, att, q, k, v, T, S, D, Dv, scale, key_mask, causal);
}
