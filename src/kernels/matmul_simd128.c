/*
 * matmul_simd128.c: SIMD128 twins of matmul_scalar.c (read that file for the maths).
 *
 * sgemm, op(B) untransposed (A·B and Aᵀ·B): 4×8 register tiles, 8 f32x4 accumulators; each k
 *   step loads 8 floats of a B row and broadcasts 4 elements of op(A). A is addressed through
 *   (row, k) strides so Aᵀ·B uses the same tile. Tails: 1-row tiles, then 4-wide columns, then
 *   the scalar twin for the last < 4 columns.
 * sgemm, op(B) transposed (A·Bᵀ): every output is a dot product along k; 2×4 tiles of dots share
 *   loads, lanes run along k and are summed at the end. Aᵀ·Bᵀ (unused by the models) falls back
 *   to the scalar twin.
 * sgemv: 4 rows at a time along k (A x), or axpy over rows (Aᵀ x).
 */
#include "kernels.h"

#if AL_SIMD128

/* Rows of B packed per panel in large products (8 columns × 256 rows = 8 KB of stack). */
#define AL_GEMM_KC 256

/* c[0..3] = alpha·acc + beta·c (beta == 0: no read) */
static inline void store4(float *c, al_v4 acc, float alpha, float beta)
{
    acc = al_v4_mul(acc, al_v4_splat(alpha));
    if (beta != 0.0f) acc = al_v4_add(acc, al_v4_mul(al_v4_splat(beta), al_v4_load(c)));
    al_v4_store(c, acc);
}

static inline void store1(float *c, float acc, float alpha, float beta)
{
    *c = beta == 0.0f ? alpha * acc : alpha * acc + beta * *c;
}

/* C[4,8] tile; op(A)[i,k] = A[i*sam + k*sak]; B rows contiguous with stride ldb. */
static void tile_4x8(int K, const float *A, long sam, long sak, const float *B, long ldb,
                     float *C, long ldc, float alpha, float beta)
{
    al_v4 c00 = al_v4_zero(), c01 = al_v4_zero(), c10 = al_v4_zero(), c11 = al_v4_zero();
    al_v4 c20 = al_v4_zero(), c21 = al_v4_zero(), c30 = al_v4_zero(), c31 = al_v4_zero();
    for (int k = 0; k < K; k++) {
        const float *b = B + k * ldb;
        const float *a = A + k * sak;
        al_v4 b0 = al_v4_load(b), b1 = al_v4_load(b + 4);
        al_v4 a0 = al_v4_splat(a[0]), a1 = al_v4_splat(a[sam]);
        al_v4 a2 = al_v4_splat(a[2 * sam]), a3 = al_v4_splat(a[3 * sam]);
        c00 = al_v4_add(c00, al_v4_mul(a0, b0)); c01 = al_v4_add(c01, al_v4_mul(a0, b1));
        c10 = al_v4_add(c10, al_v4_mul(a1, b0)); c11 = al_v4_add(c11, al_v4_mul(a1, b1));
        c20 = al_v4_add(c20, al_v4_mul(a2, b0)); c21 = al_v4_add(c21, al_v4_mul(a2, b1));
        c30 = al_v4_add(c30, al_v4_mul(a3, b0)); c31 = al_v4_add(c31, al_v4_mul(a3, b1));
    }
    store4(C, c00, alpha, beta);           store4(C + 4, c01, alpha, beta);
    store4(C + ldc, c10, alpha, beta);     store4(C + ldc + 4, c11, alpha, beta);
    store4(C + 2 * ldc, c20, alpha, beta); store4(C + 2 * ldc + 4, c21, alpha, beta);
    store4(C + 3 * ldc, c30, alpha, beta); store4(C + 3 * ldc + 4, c31, alpha, beta);
}

/* C[1,8] row tail */
static void tile_1x8(int K, const float *A, long sak, const float *B, long ldb,
                     float *C, float alpha, float beta)
{
    al_v4 c0 = al_v4_zero(), c1 = al_v4_zero(), d0 = al_v4_zero(), d1 = al_v4_zero();
    int k = 0;
    /* two independent chains per half, so the adds do not serialise */
    for (; k + 1 < K; k += 2) {
        const float *b = B + k * ldb;
        al_v4 a0 = al_v4_splat(A[k * sak]), a1 = al_v4_splat(A[(k + 1) * sak]);
        c0 = al_v4_add(c0, al_v4_mul(a0, al_v4_load(b)));
        c1 = al_v4_add(c1, al_v4_mul(a0, al_v4_load(b + 4)));
        d0 = al_v4_add(d0, al_v4_mul(a1, al_v4_load(b + ldb)));
        d1 = al_v4_add(d1, al_v4_mul(a1, al_v4_load(b + ldb + 4)));
    }
    for (; k < K; k++) {
        const float *b = B + k * ldb;
        al_v4 a0 = al_v4_splat(A[k * sak]);
        c0 = al_v4_add(c0, al_v4_mul(a0, al_v4_load(b)));
        c1 = al_v4_add(c1, al_v4_mul(a0, al_v4_load(b + 4)));
    }
    store4(C, al_v4_add(c0, d0), alpha, beta);
    store4(C + 4, al_v4_add(c1, d1), alpha, beta);
}

/* C[rows,4] column tail, rows <= 4 */
static void tile_rx4(int rows, int K, const float *A, long sam, long sak, const float *B, long ldb,
                     float *C, long ldc, float alpha, float beta)
{
    al_v4 c[4] = { al_v4_zero(), al_v4_zero(), al_v4_zero(), al_v4_zero() };
    for (int k = 0; k < K; k++) {
        al_v4 b0 = al_v4_load(B + k * ldb);
        for (int i = 0; i < rows; i++)
            c[i] = al_v4_add(c[i], al_v4_mul(al_v4_splat(A[i * sam + k * sak]), b0));
    }
    for (int i = 0; i < rows; i++) store4(C + i * ldc, c[i], alpha, beta);
}

/* dot(a, b) over n, lanes along n */
static inline float dot_v(const float *a, const float *b, int n)
{
    al_v4 s0 = al_v4_zero(), s1 = al_v4_zero();
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        s0 = al_v4_add(s0, al_v4_mul(al_v4_load(a + i), al_v4_load(b + i)));
        s1 = al_v4_add(s1, al_v4_mul(al_v4_load(a + i + 4), al_v4_load(b + i + 4)));
    }
    for (; i + 4 <= n; i += 4) s0 = al_v4_add(s0, al_v4_mul(al_v4_load(a + i), al_v4_load(b + i)));
    float s = al_v4_hsum(al_v4_add(s0, s1));
    for (; i < n; i++) s += a[i] * b[i];
    return s;
}

/* A·Bᵀ: C[2,4] of dots between rows of A and rows of B */
static void dots_2x4(int K, const float *A, long lda, const float *B, long ldb,
                     float *C, long ldc, float alpha, float beta)
{
    const float *a0 = A, *a1 = A + lda;
    const float *b0 = B, *b1 = B + ldb, *b2 = B + 2 * ldb, *b3 = B + 3 * ldb;
    al_v4 s00 = al_v4_zero(), s01 = al_v4_zero(), s02 = al_v4_zero(), s03 = al_v4_zero();
    al_v4 s10 = al_v4_zero(), s11 = al_v4_zero(), s12 = al_v4_zero(), s13 = al_v4_zero();
    int k = 0;
    for (; k + 4 <= K; k += 4) {
        al_v4 x0 = al_v4_load(a0 + k), x1 = al_v4_load(a1 + k);
        al_v4 y0 = al_v4_load(b0 + k), y1 = al_v4_load(b1 + k);
        al_v4 y2 = al_v4_load(b2 + k), y3 = al_v4_load(b3 + k);
        s00 = al_v4_add(s00, al_v4_mul(x0, y0)); s01 = al_v4_add(s01, al_v4_mul(x0, y1));
        s02 = al_v4_add(s02, al_v4_mul(x0, y2)); s03 = al_v4_add(s03, al_v4_mul(x0, y3));
        s10 = al_v4_add(s10, al_v4_mul(x1, y0)); s11 = al_v4_add(s11, al_v4_mul(x1, y1));
        s12 = al_v4_add(s12, al_v4_mul(x1, y2)); s13 = al_v4_add(s13, al_v4_mul(x1, y3));
    }
    float r[8] = { al_v4_hsum(s00), al_v4_hsum(s01), al_v4_hsum(s02), al_v4_hsum(s03),
                   al_v4_hsum(s10), al_v4_hsum(s11), al_v4_hsum(s12), al_v4_hsum(s13) };
    for (; k < K; k++) {
        r[0] += a0[k] * b0[k]; r[1] += a0[k] * b1[k]; r[2] += a0[k] * b2[k]; r[3] += a0[k] * b3[k];
        r[4] += a1[k] * b0[k]; r[5] += a1[k] * b1[k]; r[6] += a1[k] * b2[k]; r[7] += a1[k] * b3[k];
    }
    for (int j = 0; j < 4; j++) {
        store1(C + j, r[j], alpha, beta);
        store1(C + ldc + j, r[4 + j], alpha, beta);
    }
}

void al_sgemm_simd128(int trans_a, int trans_b, int M, int N, int K, float alpha,
                      const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc)
{
    if (M <= 0 || N <= 0) return;
    if (M == 1 && !trans_b && (!trans_a || lda == 1) && K > 0) {
        /* one row: c = alpha · Bᵀ a + beta · c streams B row by row (the 1×8 tiles would stride
         * down all K rows of B once per 8 columns) */
        al_sgemv_simd128(1, K, N, alpha, B, ldb, A, beta, C);
        return;
    }
    if (!trans_b) {
        long sam = trans_a ? 1 : lda, sak = trans_a ? lda : 1;
        int n = 0;
        if (M >= 16 && K >= 64) {
            /* Large products: copy each 8-column strip of B, AL_GEMM_KC rows at a time, into a
             * contiguous panel first. Unpacked, every k step of a tile touches a new cache line
             * (half used) of a row ldb floats away, and a 512-row strip no longer fits in L1. */
            float panel[AL_GEMM_KC * 8];
            for (; n + 8 <= N; n += 8) {
                for (int k0 = 0; k0 < K; k0 += AL_GEMM_KC) {
                    int kc = K - k0 < AL_GEMM_KC ? K - k0 : AL_GEMM_KC;
                    for (int k = 0; k < kc; k++) {
                        const float *b = B + (long)(k0 + k) * ldb + n;
                        al_v4_store(panel + k * 8, al_v4_load(b));
                        al_v4_store(panel + k * 8 + 4, al_v4_load(b + 4));
                    }
                    float bk = k0 == 0 ? beta : 1.0f; /* later K blocks add to the first */
                    const float *a0 = A + k0 * sak;
                    int m = 0;
                    for (; m + 4 <= M; m += 4)
                        tile_4x8(kc, a0 + m * sam, sam, sak, panel, 8, C + (long)m * ldc + n, ldc, alpha, bk);
                    for (; m < M; m++)
                        tile_1x8(kc, a0 + m * sam, sak, panel, 8, C + (long)m * ldc + n, alpha, bk);
                }
            }
        }
        for (; n + 8 <= N; n += 8) {
            int m = 0;
            for (; m + 4 <= M; m += 4)
                tile_4x8(K, A + m * sam, sam, sak, B + n, ldb, C + (long)m * ldc + n, ldc, alpha, beta);
            for (; m < M; m++)
                tile_1x8(K, A + m * sam, sak, B + n, ldb, C + (long)m * ldc + n, alpha, beta);
        }
        if (n + 4 <= N) {
            for (int m = 0; m < M; m += 4)
                tile_rx4(M - m < 4 ? M - m : 4, K, A + m * sam, sam, sak, B + n, ldb,
                         C + (long)m * ldc + n, ldc, alpha, beta);
            n += 4;
        }
        if (n < N)
            al_sgemm_scalar(trans_a, 0, M, N - n, K, alpha, A, lda, B + n, ldb, beta, C + n, ldc);
        return;
    }
    if (trans_a) {
        al_sgemm_scalar(1, 1, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
        return;
    }
    int m = 0;
    for (; m + 2 <= M; m += 2) {
        int n = 0;
        for (; n + 4 <= N; n += 4)
            dots_2x4(K, A + (long)m * lda, lda, B + (long)n * ldb, ldb, C + (long)m * ldc + n, ldc,
                     alpha, beta);
        for (; n < N; n++) {
            store1(C + (long)m * ldc + n, dot_v(A + (long)m * lda, B + (long)n * ldb, K), alpha, beta);
            store1(C + (long)(m + 1) * ldc + n, dot_v(A + (long)(m + 1) * lda, B + (long)n * ldb, K),
                   alpha, beta);
        }
    }
    for (; m < M; m++)
        for (int n = 0; n < N; n++)
            store1(C + (long)m * ldc + n, dot_v(A + (long)m * lda, B + (long)n * ldb, K), alpha, beta);
}

void al_sgemv_simd128(int trans, int M, int K, float alpha, const float *A, int lda,
                      const float *x, float beta, float *y)
{
    if (!trans) {
        int m = 0;
        for (; m + 4 <= M; m += 4) {
            const float *a0 = A + (long)m * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
            al_v4 s0 = al_v4_zero(), s1 = al_v4_zero(), s2 = al_v4_zero(), s3 = al_v4_zero();
            int k = 0;
            for (; k + 4 <= K; k += 4) {
                al_v4 xv = al_v4_load(x + k);
                s0 = al_v4_add(s0, al_v4_mul(al_v4_load(a0 + k), xv));
                s1 = al_v4_add(s1, al_v4_mul(al_v4_load(a1 + k), xv));
                s2 = al_v4_add(s2, al_v4_mul(al_v4_load(a2 + k), xv));
                s3 = al_v4_add(s3, al_v4_mul(al_v4_load(a3 + k), xv));
            }
            float r0 = al_v4_hsum(s0), r1 = al_v4_hsum(s1), r2 = al_v4_hsum(s2), r3 = al_v4_hsum(s3);
            for (; k < K; k++) {
                r0 += a0[k] * x[k]; r1 += a1[k] * x[k]; r2 += a2[k] * x[k]; r3 += a3[k] * x[k];
            }
            store1(y + m, r0, alpha, beta); store1(y + m + 1, r1, alpha, beta);
            store1(y + m + 2, r2, alpha, beta); store1(y + m + 3, r3, alpha, beta);
        }
        for (; m < M; m++) store1(y + m, dot_v(A + (long)m * lda, x, K), alpha, beta);
        return;
    }
    /* y = beta·y, then y += (alpha·x[m]) · A[m,:] for each row */
    int k = 0;
    if (beta == 0.0f) {
        for (k = 0; k < K; k++) y[k] = 0.0f;
    } else if (beta != 1.0f) {
        for (k = 0; k < K; k++) y[k] *= beta;
    }
    for (int m = 0; m < M; m++) {
        const float *a = A + (long)m * lda;
        float s = alpha * x[m];
        al_v4 sv = al_v4_splat(s);
        for (k = 0; k + 4 <= K; k += 4)
            al_v4_store(y + k, al_v4_add(al_v4_load(y + k), al_v4_mul(sv, al_v4_load(a + k))));
        for (; k < K; k++) y[k] += s * a[k];
    }
}

#endif /* AL_SIMD128 */
