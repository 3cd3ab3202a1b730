/*
 * matmul_simd128.c: SIMD128 twins of matmul_scalar.c (read that file for the maths).
 *
 * sgemm: 4×8 register tiles, 8 f32x4 accumulators; each k step loads 8 floats of an op(B) row
 *   and broadcasts 4 elements of op(A). A is addressed through (row, k) strides so Aᵀ uses the
 *   same tile. op(B) is first packed into contiguous [kc, 8] panels (AL_GEMM_KC rows, AL_GEMM_NC
 *   columns at a time, and then 4 rows of op(A) into [kc, 4], so the tile's loop does no
 *   address arithmetic) when that pays: for Bᵀ when M >= 4 and (M >= 32 or K < 64), by a 4×4
 *   register transpose per block (the tiles then replace dot products that end in horizontal
 *   sums); for B when M >= 32 and K >= 64. Otherwise A·B reads B in place, and A·Bᵀ (the pack would cost more
 *   than it saves) runs 2×4 tiles of dot products, lanes along k, reduced by a transpose.
 *   Tails: 1-row tiles, 4-wide columns, then dot products or the scalar twin for the last < 4
 *   columns. M = 1 is a GEMV; K = 1 with alpha = beta = 1 (a rank-1 update: a weight gradient of
 *   one time step) runs row by row with no tile, the same operations as the tiles do for one k.
 *   Aᵀ·B (the weight gradients of a sequence) runs 4×8 tiles that load the 4 values of op(A)
 *   for one k at once.
 * sgemv: 4 rows at a time along k (8 k per pass), reduced by a transpose (A x); or strips of 32
 *   columns of y in registers while the rows of A stream by, two per pass (Aᵀ x).
 * Every reshaping of a loop here keeps each output's sums in the same order: the training build's
 *   results are reproducible bit for bit across these changes (scripts/train-hash.mjs).
 * bias add: four lanes along the row.
 */
#include "kernels.h"

#if AL_SIMD128

/* Rows of B packed per panel in large products (8 columns × 256 rows = 8 KB of stack). */
#define AL_GEMM_KC 256
/* Columns of B per block in large products (kc × 64 floats = 64 KB of stack at most). */
#define AL_GEMM_NC 64

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

/* The 4×8 tile's accumulators (row r: cr0, cr1) to C, rows ldc apart (store4 each). */
static inline void store_4x8(float *C, long ldc, al_v4 c00, al_v4 c01, al_v4 c10, al_v4 c11,
                             al_v4 c20, al_v4 c21, al_v4 c30, al_v4 c31, float alpha, float beta)
{
    /* clang-format off */
    store4(C, c00, alpha, beta);           store4(C + 4, c01, alpha, beta);
    store4(C + ldc, c10, alpha, beta);     store4(C + ldc + 4, c11, alpha, beta);
    store4(C + 2 * ldc, c20, alpha, beta); store4(C + 2 * ldc + 4, c21, alpha, beta);
    store4(C + 3 * ldc, c30, alpha, beta); store4(C + 3 * ldc + 4, c31, alpha, beta);
    /* clang-format on */
}

/* C[4,8] tile; op(A)[i,k] = A[i*sam + k*sak]; B rows contiguous with stride ldb. */
static inline void tile_4x8(int K, const float *A, long sam, long sak, const float *B, long ldb,
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
        /* clang-format off */
        c00 = al_v4_add(c00, al_v4_mul(a0, b0)); c01 = al_v4_add(c01, al_v4_mul(a0, b1));
        c10 = al_v4_add(c10, al_v4_mul(a1, b0)); c11 = al_v4_add(c11, al_v4_mul(a1, b1));
        c20 = al_v4_add(c20, al_v4_mul(a2, b0)); c21 = al_v4_add(c21, al_v4_mul(a2, b1));
        c30 = al_v4_add(c30, al_v4_mul(a3, b0)); c31 = al_v4_add(c31, al_v4_mul(a3, b1));
        /* clang-format on */
    }
    store_4x8(C, ldc, c00, c01, c10, c11, c20, c21, c30, c31, alpha, beta);
}

/* tile_4x8 when op(A)'s 4 rows are adjacent (sam = 1, Aᵀ): one load of a[0..3] per k, each lane
 * broadcast by a shuffle as it is used (V8 computes one address per k instead of four, and
 * holds one broadcast at a time). Same sums, same order. */
static AL_V4_NOINLINE void tile_4x8_t(int K, const float *A, long sak, const float *B, long ldb,
                                      float *C, long ldc, float alpha, float beta)
{
    al_v4 c00 = al_v4_zero(), c01 = al_v4_zero(), c10 = al_v4_zero(), c11 = al_v4_zero();
    al_v4 c20 = al_v4_zero(), c21 = al_v4_zero(), c30 = al_v4_zero(), c31 = al_v4_zero();
    for (; K > 0; K--, A += sak, B += ldb) {
        al_v4 b0 = al_v4_load(B), b1 = al_v4_load(B + 4), a = al_v4_load(A), s;
        /* clang-format off */
        s = al_v4_bcast(a, 0); c00 = al_v4_add(c00, al_v4_mul(s, b0)); c01 = al_v4_add(c01, al_v4_mul(s, b1));
        s = al_v4_bcast(a, 1); c10 = al_v4_add(c10, al_v4_mul(s, b0)); c11 = al_v4_add(c11, al_v4_mul(s, b1));
        s = al_v4_bcast(a, 2); c20 = al_v4_add(c20, al_v4_mul(s, b0)); c21 = al_v4_add(c21, al_v4_mul(s, b1));
        s = al_v4_bcast(a, 3); c30 = al_v4_add(c30, al_v4_mul(s, b0)); c31 = al_v4_add(c31, al_v4_mul(s, b1));
        /* clang-format on */
    }
    store_4x8(C, ldc, c00, c01, c10, c11, c20, c21, c30, c31, alpha, beta);
}

/* C[1,8] row tail */
static inline void tile_1x8(int K, const float *A, long sak, const float *B, long ldb, float *C,
                            float alpha, float beta)
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
static AL_V4_NOINLINE void tile_rx4(int rows, int K, const float *A, long sam, long sak,
                                    const float *B, long ldb, float *C, long ldc, float alpha,
                                    float beta)
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
static AL_V4_NOINLINE float dot_v(const float *a, const float *b, int n)
{
    al_v4 s0 = al_v4_zero(), s1 = al_v4_zero();
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        s0 = al_v4_add(s0, al_v4_mul(al_v4_load(a + i), al_v4_load(b + i)));
        s1 = al_v4_add(s1, al_v4_mul(al_v4_load(a + i + 4), al_v4_load(b + i + 4)));
    }
    for (; i + 4 <= n; i += 4) s0 = al_v4_add(s0, al_v4_mul(al_v4_load(a + i), al_v4_load(b + i)));
    float s = al_v4_hsum(al_v4_add(s0, s1));
    AL_V4_SCALAR_LOOP
    for (; i < n; i++) s += a[i] * b[i];
    return s;
}

/* Σ_k a_i[k] x[k] for rows a0..a3 (K % 4 == 0 part, lanes along k), reduced to one vector
 * [r0, r1, r2, r3] by a transpose instead of four horizontal sums. */
static inline al_v4 reduce4(al_v4 s0, al_v4 s1, al_v4 s2, al_v4 s3)
{
    AL_V4_TRANSPOSE4(s0, s1, s2, s3);
    return al_v4_add(al_v4_add(s0, s1), al_v4_add(s2, s3));
}

/* A·Bᵀ: C[2,4] of dots between rows of A and rows of B */
static AL_V4_NOINLINE void dots_2x4(int K, const float *A, long lda, const float *B, long ldb,
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
        /* clang-format off */
        s00 = al_v4_add(s00, al_v4_mul(x0, y0)); s01 = al_v4_add(s01, al_v4_mul(x0, y1));
        s02 = al_v4_add(s02, al_v4_mul(x0, y2)); s03 = al_v4_add(s03, al_v4_mul(x0, y3));
        s10 = al_v4_add(s10, al_v4_mul(x1, y0)); s11 = al_v4_add(s11, al_v4_mul(x1, y1));
        s12 = al_v4_add(s12, al_v4_mul(x1, y2)); s13 = al_v4_add(s13, al_v4_mul(x1, y3));
        /* clang-format on */
    }
    al_v4 r0 = reduce4(s00, s01, s02, s03), r1 = reduce4(s10, s11, s12, s13);
    if (k < K) {
        float t[8] = { 0 };
        AL_V4_SCALAR_LOOP
        for (; k < K; k++) {
            /* clang-format off */
            t[0] += a0[k] * b0[k]; t[1] += a0[k] * b1[k]; t[2] += a0[k] * b2[k]; t[3] += a0[k] * b3[k];
            t[4] += a1[k] * b0[k]; t[5] += a1[k] * b1[k]; t[6] += a1[k] * b2[k]; t[7] += a1[k] * b3[k];
            /* clang-format on */
        }
        r0 = al_v4_add(r0, al_v4_load(t));
        r1 = al_v4_add(r1, al_v4_load(t + 4));
    }
    store4(C, r0, alpha, beta);
    store4(C + ldc, r1, alpha, beta);
}

/* Copy op(B)[k0..k0+kc, n..n+w) (w = 4 or 8 columns) into panel [kc, w], rows contiguous. B is
 * [K,N] (row stride ldb) or, when trans_b, [N,K]: then each 4×4 block is transposed in registers. */
static AL_V4_NOINLINE void pack_b(float *panel, int w, int trans_b, const float *B, long ldb, int n,
                                  int k0, int kc)
{
    if (!trans_b) {
        for (int k = 0; k < kc; k++) {
            const float *b = B + (long)(k0 + k) * ldb + n;
            al_v4_store(panel + k * w, al_v4_load(b));
            if (w == 8) al_v4_store(panel + k * w + 4, al_v4_load(b + 4));
        }
        return;
    }
    const float *b = B + (long)n * ldb + k0;
    int k = 0;
    for (; k + 4 <= kc; k += 4) {
        for (int j = 0; j < w; j += 4) {
            const float *r = b + j * ldb + k;
            al_v4 r0 = al_v4_load(r), r1 = al_v4_load(r + ldb);
            al_v4 r2 = al_v4_load(r + 2 * ldb), r3 = al_v4_load(r + 3 * ldb);
            AL_V4_TRANSPOSE4(r0, r1, r2, r3);
            float *p = panel + k * w + j;
            al_v4_store(p, r0);
            al_v4_store(p + w, r1);
            al_v4_store(p + 2 * w, r2);
            al_v4_store(p + 3 * w, r3);
        }
    }
    AL_V4_SCALAR_LOOP
    for (; k < kc; k++)
        for (int j = 0; j < w; j++) panel[k * w + j] = b[j * ldb + k];
}

/* Copy op(A)[0..4, 0..kc) into apack [kc, 4] (the 4 values of one k side by side): the tile
 * then reads A at fixed offsets from one pointer. op(A)[i,k] = A[i*sam + k*sak]. */
static AL_V4_NOINLINE void pack_a4(float *apack, const float *A, long sam, long sak, int kc)
{
    int k = 0;
    if (sak == 1) {
        for (; k + 4 <= kc; k += 4) {
            al_v4 r0 = al_v4_load(A + k), r1 = al_v4_load(A + sam + k);
            al_v4 r2 = al_v4_load(A + 2 * sam + k), r3 = al_v4_load(A + 3 * sam + k);
            AL_V4_TRANSPOSE4(r0, r1, r2, r3);
            al_v4_store(apack + 4 * k, r0);
            al_v4_store(apack + 4 * k + 4, r1);
            al_v4_store(apack + 4 * k + 8, r2);
            al_v4_store(apack + 4 * k + 12, r3);
        }
    } else if (sam == 1) {
        for (; k < kc; k++) al_v4_store(apack + 4 * k, al_v4_load(A + k * sak));
    }
    AL_V4_SCALAR_LOOP
    for (; k < kc; k++)
        for (int i = 0; i < 4; i++) apack[4 * k + i] = A[i * sam + k * sak];
}

/* C[4,8] tile from packed A [kc, 4] and a packed B panel [kc, 8]: both pointers only step, so
 * each k costs 2 loads, 4 broadcasts and 16 arithmetic ops with no address arithmetic (the
 * strided tile_4x8 spends as many instructions again on addresses). Same sums, same order. */
static AL_V4_NOINLINE void kern_4x8(int kc, const float *a, const float *b, float *C, long ldc,
                                    float alpha, float beta)
{
    al_v4 c00 = al_v4_zero(), c01 = al_v4_zero(), c10 = al_v4_zero(), c11 = al_v4_zero();
    al_v4 c20 = al_v4_zero(), c21 = al_v4_zero(), c30 = al_v4_zero(), c31 = al_v4_zero();
    for (const float *end = a + 4 * kc; a < end; a += 4, b += 8) {
        al_v4 b0 = al_v4_load(b), b1 = al_v4_load(b + 4);
        al_v4 a0 = al_v4_splat(a[0]), a1 = al_v4_splat(a[1]);
        al_v4 a2 = al_v4_splat(a[2]), a3 = al_v4_splat(a[3]);
        /* clang-format off */
        c00 = al_v4_add(c00, al_v4_mul(a0, b0)); c01 = al_v4_add(c01, al_v4_mul(a0, b1));
        c10 = al_v4_add(c10, al_v4_mul(a1, b0)); c11 = al_v4_add(c11, al_v4_mul(a1, b1));
        c20 = al_v4_add(c20, al_v4_mul(a2, b0)); c21 = al_v4_add(c21, al_v4_mul(a2, b1));
        c30 = al_v4_add(c30, al_v4_mul(a3, b0)); c31 = al_v4_add(c31, al_v4_mul(a3, b1));
        /* clang-format on */
    }
    store_4x8(C, ldc, c00, c01, c10, c11, c20, c21, c30, c31, alpha, beta);
}

/* K = 1, alpha = beta = 1 (a rank-1 update: the weight gradient of one time step): C[m,n] =
 * (0 + a_m b_n) + C[m,n], the very operations every path below does when K = 1 (each starts its
 * sum at 0 and adds the one product, then 1 · acc + 1 · c, both exact), so the result is the same
 * to the bit. Row by row, b contiguous, no accumulators to keep. */
static AL_V4_NOINLINE void rank1(int M, int N, const float *A, long sam, const float *b, float *C,
                                 long ldc)
{
    const al_v4 zero = al_v4_zero();
    for (int m = 0; m < M; m++) {
        const float am = A[m * sam];
        const al_v4 a = al_v4_splat(am);
        float *c = C + m * ldc;
        int n = 0;
        for (; n + 8 <= N; n += 8) {
            al_v4 p0 = al_v4_add(zero, al_v4_mul(a, al_v4_load(b + n)));
            al_v4 p1 = al_v4_add(zero, al_v4_mul(a, al_v4_load(b + n + 4)));
            al_v4_store(c + n, al_v4_add(p0, al_v4_load(c + n)));
            al_v4_store(c + n + 4, al_v4_add(p1, al_v4_load(c + n + 4)));
        }
        for (; n + 4 <= N; n += 4)
            al_v4_store(c + n, al_v4_add(al_v4_add(zero, al_v4_mul(a, al_v4_load(b + n))),
                                         al_v4_load(c + n)));
        AL_V4_SCALAR_LOOP
        for (; n < N; n++) {
            float acc = 0.0f;
            acc += am * b[n];
            c[n] = acc + c[n];
        }
    }
}

void al_sgemm_simd128(int trans_a, int trans_b, int M, int N, int K, float alpha, const float *A,
                      int lda, const float *B, int ldb, float beta, float *C, int ldc)
{
    if (M <= 0 || N <= 0) return;
    if (K == 1 && alpha == 1.0f && beta == 1.0f && (!trans_b || ldb == 1)) {
        /* op(A) [M,1]: A[m·lda] (A[m] when transposed); op(B) [1,N]: B[n] */
        rank1(M, N, A, trans_a ? 1 : lda, B, C, ldc);
        return;
    }
    if (M == 1 && (!trans_a || lda == 1) && K > 0) {
        /* one row: c = alpha · op(B)ᵀ a + beta · c as a GEMV over B's rows (streams B once) */
        al_sgemv_simd128(!trans_b, trans_b ? N : K, trans_b ? K : N, alpha, B, ldb, A, beta, C);
        return;
    }
    long sam = trans_a ? 1 : lda, sak = trans_a ? lda : 1;
    /* Pack op(B) into contiguous [kc, 8] panels when it pays: always for op(B) = Bᵀ (the panel
     * turns every output into broadcast-and-multiply tiles instead of dot products that end in
     * horizontal sums), and for B itself when it is large (unpacked, each k step of a tile touches
     * a new cache line of a row ldb floats away, and a tall strip no longer stays in L1). */
    int pack = K > 0 && (trans_b ? M >= 4 && (M >= 32 || K < 64) : M >= 32 && K >= 64);
    if (pack) {
        /* B blocks of kc × AL_GEMM_NC, one [kc, 8] panel per strip; 4 rows of A packed [kc, 4]
         * at a time and run against every strip of the block (see kern_4x8) */
        float panel[AL_GEMM_KC * AL_GEMM_NC];
        float apack[AL_GEMM_KC * 4];
        int N8 = N & ~7, n = N8;
        for (int n0 = 0; n0 < N8; n0 += AL_GEMM_NC) {
            int nc = N8 - n0 < AL_GEMM_NC ? N8 - n0 : AL_GEMM_NC;
            for (int k0 = 0; k0 < K; k0 += AL_GEMM_KC) {
                int kc = K - k0 < AL_GEMM_KC ? K - k0 : AL_GEMM_KC;
                for (int j = 0; j < nc; j += 8)
                    pack_b(panel + j * kc, 8, trans_b, B, ldb, n0 + j, k0, kc);
                float bk = k0 == 0 ? beta : 1.0f; /* later K blocks add to the first */
                const float *a0 = A + k0 * sak;
                int m = 0;
                for (; m + 4 <= M; m += 4) {
                    pack_a4(apack, a0 + m * sam, sam, sak, kc);
                    for (int j = 0; j < nc; j += 8)
                        kern_4x8(kc, apack, panel + j * kc, C + (long)m * ldc + n0 + j, ldc, alpha,
                                 bk);
                }
                for (; m < M; m++)
                    for (int j = 0; j < nc; j += 8)
                        tile_1x8(kc, a0 + m * sam, sak, panel + j * kc, 8,
                                 C + (long)m * ldc + n0 + j, alpha, bk);
            }
        }
        if (n + 4 <= N) {
            for (int k0 = 0; k0 < K; k0 += AL_GEMM_KC) {
                int kc = K - k0 < AL_GEMM_KC ? K - k0 : AL_GEMM_KC;
                pack_b(panel, 4, trans_b, B, ldb, n, k0, kc);
                float bk = k0 == 0 ? beta : 1.0f;
                for (int m = 0; m < M; m += 4)
                    tile_rx4(M - m < 4 ? M - m : 4, kc, A + m * sam + k0 * sak, sam, sak, panel, 4,
                             C + (long)m * ldc + n, ldc, alpha, bk);
            }
            n += 4;
        }
        if (n < N) {
            if (trans_b && !trans_a) {
                for (int m = 0; m < M; m++)
                    for (int j = n; j < N; j++)
                        store1(C + (long)m * ldc + j,
                               dot_v(A + (long)m * lda, B + (long)j * ldb, K), alpha, beta);
            } else {
                al_sgemm_scalar(trans_a, trans_b, M, N - n, K, alpha, A, lda,
                                trans_b ? B + (long)n * ldb : B + n, ldb, beta, C + n, ldc);
            }
        }
        return;
    }
    if (!trans_b) {
        int n = 0;
        for (; n + 8 <= N; n += 8) {
            int m = 0;
            if (sam == 1)
                for (; m + 4 <= M; m += 4)
                    tile_4x8_t(K, A + m, sak, B + n, ldb, C + (long)m * ldc + n, ldc, alpha, beta);
            for (; m + 4 <= M; m += 4)
                tile_4x8(K, A + m * sam, sam, sak, B + n, ldb, C + (long)m * ldc + n, ldc, alpha,
                         beta);
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
    if (trans_a || K <= 0) {
        al_sgemm_scalar(trans_a, 1, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
        return;
    }
    /* A·Bᵀ with fewer than 4 rows: dot products, lanes along k */
    int m = 0;
    for (; m + 2 <= M; m += 2) {
        int n = 0;
        for (; n + 4 <= N; n += 4)
            dots_2x4(K, A + (long)m * lda, lda, B + (long)n * ldb, ldb, C + (long)m * ldc + n, ldc,
                     alpha, beta);
        for (; n < N; n++) {
            store1(C + (long)m * ldc + n, dot_v(A + (long)m * lda, B + (long)n * ldb, K), alpha,
                   beta);
            store1(C + (long)(m + 1) * ldc + n,
                   dot_v(A + (long)(m + 1) * lda, B + (long)n * ldb, K), alpha, beta);
        }
    }
    for (; m < M; m++)
        for (int n = 0; n < N; n++)
            store1(C + (long)m * ldc + n, dot_v(A + (long)m * lda, B + (long)n * ldb, K), alpha,
                   beta);
}

/* y[0..4) += the K % 4 tail of rows a, a + lda, a + 2·lda, a + 3·lda (k from k0) */
static AL_V4_NOINLINE al_v4 tail4(al_v4 r, const float *a, long lda, const float *x, int k0, int K)
{
    float t[4];
    for (int i = 0; i < 4; i++) {
        float acc = 0.0f;
        AL_V4_SCALAR_LOOP
        for (int k = k0; k < K; k++) acc += a[i * lda + k] * x[k];
        t[i] = acc;
    }
    return al_v4_add(r, al_v4_load(t));
}

void al_sgemv_simd128(int trans, int M, int K, float alpha, const float *A, int lda, const float *x,
                      float beta, float *y)
{
    if (!trans) {
        int m = 0;
        /* 4 rows at a time, k unrolled by 2 into separate accumulators (8 chains: 4 would wait
         * on the add latency) */
        for (; m + 4 <= M; m += 4) {
            const float *a0 = A + (long)m * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
            al_v4 s0 = al_v4_zero(), s1 = al_v4_zero(), s2 = al_v4_zero(), s3 = al_v4_zero();
            int k = 0;
            /* 8 k per pass, the two halves added one after the other (each lane still sums
             * k, k + 4, k + 8, ... in turn): one address per row for two loads */
            for (; k + 8 <= K; k += 8) {
                al_v4 xv = al_v4_load(x + k), xw = al_v4_load(x + k + 4);
                s0 = al_v4_add(al_v4_add(s0, al_v4_mul(al_v4_load(a0 + k), xv)),
                               al_v4_mul(al_v4_load(a0 + k + 4), xw));
                s1 = al_v4_add(al_v4_add(s1, al_v4_mul(al_v4_load(a1 + k), xv)),
                               al_v4_mul(al_v4_load(a1 + k + 4), xw));
                s2 = al_v4_add(al_v4_add(s2, al_v4_mul(al_v4_load(a2 + k), xv)),
                               al_v4_mul(al_v4_load(a2 + k + 4), xw));
                s3 = al_v4_add(al_v4_add(s3, al_v4_mul(al_v4_load(a3 + k), xv)),
                               al_v4_mul(al_v4_load(a3 + k + 4), xw));
            }
            if (k + 4 <= K) {
                al_v4 xv = al_v4_load(x + k);
                s0 = al_v4_add(s0, al_v4_mul(al_v4_load(a0 + k), xv));
                s1 = al_v4_add(s1, al_v4_mul(al_v4_load(a1 + k), xv));
                s2 = al_v4_add(s2, al_v4_mul(al_v4_load(a2 + k), xv));
                s3 = al_v4_add(s3, al_v4_mul(al_v4_load(a3 + k), xv));
                k += 4;
            }
            al_v4 r = reduce4(s0, s1, s2, s3);
            if (k < K) r = tail4(r, a0, lda, x, k, K);
            store4(y + m, r, alpha, beta);
        }
        for (; m < M; m++) store1(y + m, dot_v(A + (long)m * lda, x, K), alpha, beta);
        return;
    }
    /* y = alpha · Aᵀ x + beta · y: strips of 32 (then 8, 4) columns of y kept in registers while
     * every row of A goes by, so y is read and written once */
    int k = 0;
    for (; k + 32 <= K; k += 32) {
        al_v4 c0 = al_v4_zero(), c1 = al_v4_zero(), c2 = al_v4_zero(), c3 = al_v4_zero();
        al_v4 c4 = al_v4_zero(), c5 = al_v4_zero(), c6 = al_v4_zero(), c7 = al_v4_zero();
        /* two rows per pass (each column still sums row after row): the loop's overhead is
         * paid once per two rows (AL_V4_SCALAR_LOOP: clang must not unroll it further either) */
        const float *a = A + k;
        int m = 0;
        AL_V4_SCALAR_LOOP
        for (; m + 2 <= M; m += 2, a += 2 * (long)lda) {
            const float *b = a + lda;
            al_v4 xv = al_v4_splat(x[m]), xw = al_v4_splat(x[m + 1]);
            c0 = al_v4_add(al_v4_add(c0, al_v4_mul(xv, al_v4_load(a))),
                           al_v4_mul(xw, al_v4_load(b)));
            c1 = al_v4_add(al_v4_add(c1, al_v4_mul(xv, al_v4_load(a + 4))),
                           al_v4_mul(xw, al_v4_load(b + 4)));
            c2 = al_v4_add(al_v4_add(c2, al_v4_mul(xv, al_v4_load(a + 8))),
                           al_v4_mul(xw, al_v4_load(b + 8)));
            c3 = al_v4_add(al_v4_add(c3, al_v4_mul(xv, al_v4_load(a + 12))),
                           al_v4_mul(xw, al_v4_load(b + 12)));
            c4 = al_v4_add(al_v4_add(c4, al_v4_mul(xv, al_v4_load(a + 16))),
                           al_v4_mul(xw, al_v4_load(b + 16)));
            c5 = al_v4_add(al_v4_add(c5, al_v4_mul(xv, al_v4_load(a + 20))),
                           al_v4_mul(xw, al_v4_load(b + 20)));
            c6 = al_v4_add(al_v4_add(c6, al_v4_mul(xv, al_v4_load(a + 24))),
                           al_v4_mul(xw, al_v4_load(b + 24)));
            c7 = al_v4_add(al_v4_add(c7, al_v4_mul(xv, al_v4_load(a + 28))),
                           al_v4_mul(xw, al_v4_load(b + 28)));
        }
        if (m < M) {
            al_v4 xv = al_v4_splat(x[m]);
            c0 = al_v4_add(c0, al_v4_mul(xv, al_v4_load(a)));
            c1 = al_v4_add(c1, al_v4_mul(xv, al_v4_load(a + 4)));
            c2 = al_v4_add(c2, al_v4_mul(xv, al_v4_load(a + 8)));
            c3 = al_v4_add(c3, al_v4_mul(xv, al_v4_load(a + 12)));
            c4 = al_v4_add(c4, al_v4_mul(xv, al_v4_load(a + 16)));
            c5 = al_v4_add(c5, al_v4_mul(xv, al_v4_load(a + 20)));
            c6 = al_v4_add(c6, al_v4_mul(xv, al_v4_load(a + 24)));
            c7 = al_v4_add(c7, al_v4_mul(xv, al_v4_load(a + 28)));
        }
        /* clang-format off */
        store4(y + k, c0, alpha, beta);      store4(y + k + 4, c1, alpha, beta);
        store4(y + k + 8, c2, alpha, beta);  store4(y + k + 12, c3, alpha, beta);
        store4(y + k + 16, c4, alpha, beta); store4(y + k + 20, c5, alpha, beta);
        store4(y + k + 24, c6, alpha, beta); store4(y + k + 28, c7, alpha, beta);
        /* clang-format on */
    }
    for (; k + 8 <= K; k += 8) {
        al_v4 c0 = al_v4_zero(), c1 = al_v4_zero(), d0 = al_v4_zero(), d1 = al_v4_zero();
        int m = 0;
        for (; m + 2 <= M; m += 2) {
            const float *a = A + (long)m * lda + k;
            al_v4 x0 = al_v4_splat(x[m]), x1 = al_v4_splat(x[m + 1]);
            c0 = al_v4_add(c0, al_v4_mul(x0, al_v4_load(a)));
            c1 = al_v4_add(c1, al_v4_mul(x0, al_v4_load(a + 4)));
            d0 = al_v4_add(d0, al_v4_mul(x1, al_v4_load(a + lda)));
            d1 = al_v4_add(d1, al_v4_mul(x1, al_v4_load(a + lda + 4)));
        }
        if (m < M) {
            const float *a = A + (long)m * lda + k;
            al_v4 x0 = al_v4_splat(x[m]);
            c0 = al_v4_add(c0, al_v4_mul(x0, al_v4_load(a)));
            c1 = al_v4_add(c1, al_v4_mul(x0, al_v4_load(a + 4)));
        }
        store4(y + k, al_v4_add(c0, d0), alpha, beta);
        store4(y + k + 4, al_v4_add(c1, d1), alpha, beta);
    }
    for (; k + 4 <= K; k += 4) {
        al_v4 c0 = al_v4_zero();
        for (int m = 0; m < M; m++)
            c0 = al_v4_add(c0, al_v4_mul(al_v4_splat(x[m]), al_v4_load(A + (long)m * lda + k)));
        store4(y + k, c0, alpha, beta);
    }
    for (; k < K; k++) {
        float acc = 0.0f;
        AL_V4_SCALAR_LOOP
        for (int m = 0; m < M; m++) acc += A[(long)m * lda + k] * x[m];
        store1(y + k, acc, alpha, beta);
    }
}

void al_bias_add_forward_simd128(float *y, int ldy, const float *b, const float *b2, int R, int C)
{
    for (int r = 0; r < R; r++) {
        float *yr = y + (long)r * ldy;
        int c = 0;
        if (b2)
            for (; c + 4 <= C; c += 4)
                al_v4_store(yr + c, al_v4_add(al_v4_load(yr + c),
                                              al_v4_add(al_v4_load(b + c), al_v4_load(b2 + c))));
        else
            for (; c + 4 <= C; c += 4)
                al_v4_store(yr + c, al_v4_add(al_v4_load(yr + c), al_v4_load(b + c)));
        AL_V4_SCALAR_LOOP
        for (; c < C; c++) yr[c] += b2 ? b[c] + b2[c] : b[c];
    }
}

#endif /* AL_SIMD128 */
