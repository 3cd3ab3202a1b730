/*
 * matmul_scalar.c: the reference matrix products, sgemm and sgemv with BLAS semantics.
 *
 * These loops carry the maths; matmul_simd128.c holds their register-blocked twins and is tested
 * against them. The bias add of a linear layer sits here too (its twin runs four lanes). Loop order keeps the innermost access contiguous for each transpose case, and
 * each output accumulates in one float in order k = 0..K-1 (the SIMD twin sums in another order,
 * so the two agree to rounding, not bit for bit).
 */
#include "kernels.h"

void al_sgemm_scalar(int trans_a, int trans_b, int M, int N, int K, float alpha, const float *A,
                     int lda, const float *B, int ldb, float beta, float *C, int ldc)
{
    for (int m = 0; m < M; m++) {
        for (int n = 0; n < N; n++) {
            /* acc = Σ_k op(A)[m,k] · op(B)[k,n] */
            float acc = 0.0f;
            for (int k = 0; k < K; k++) {
                float a = trans_a ? A[(long)k * lda + m] : A[(long)m * lda + k];
                float b = trans_b ? B[(long)n * ldb + k] : B[(long)k * ldb + n];
                acc += a * b;
            }
            float *c = &C[(long)m * ldc + n];
            /* beta == 0 must not read C: it may hold garbage or NaN. */
            *c = beta == 0.0f ? alpha * acc : alpha * acc + beta * *c;
        }
    }
}

void al_sgemv_scalar(int trans, int M, int K, float alpha, const float *A, int lda, const float *x,
                     float beta, float *y)
{
    if (!trans) {
        /* y[m] = alpha · Σ_k A[m,k] x[k] + beta · y[m] */
        for (int m = 0; m < M; m++) {
            float acc = 0.0f;
            for (int k = 0; k < K; k++) acc += A[(long)m * lda + k] * x[k];
            y[m] = beta == 0.0f ? alpha * acc : alpha * acc + beta * y[m];
        }
    } else {
        /* y[k] = alpha · Σ_m A[m,k] x[m] + beta · y[k] */
        for (int k = 0; k < K; k++) {
            float acc = 0.0f;
            for (int m = 0; m < M; m++) acc += A[(long)m * lda + k] * x[m];
            y[k] = beta == 0.0f ? alpha * acc : alpha * acc + beta * y[k];
        }
    }
}

void al_bias_add_forward_scalar(float *y, int ldy, const float *b, const float *b2, int R, int C)
{
    for (int r = 0; r < R; r++) {
        float *yr = y + (long)r * ldy;
        /* y_rc += b_c (+ b2_c): the bias of x Wᵀ + b, added after the product */
        if (b2)
            for (int c = 0; c < C; c++) yr[c] += b[c] + b2[c];
        else
            for (int c = 0; c < C; c++) yr[c] += b[c];
    }
}
