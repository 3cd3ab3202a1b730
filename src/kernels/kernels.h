/*
 * kernels.h: the numerical kernels of attnlab, on plain float arrays.
 *
 * A kernel never allocates, prints, exits or reads a file. It takes caller-owned arrays, sizes as
 * ints (already validated: every size >= 1 unless a comment says 0 is allowed) and, where it needs
 * scratch space, a caller-provided buffer whose size is documented. Argument checking with status
 * codes lives one level up, in ops.c; the only kernel that returns a status is the embedding
 * lookup, whose ids are data rather than shapes.
 *
 * Layout: row-major float32. Shape letters, used everywhere: B batch, T target/query length,
 * S source/key length, C channels, H heads, D head dim, M/N/K matrix dims.
 *
 * Variants: a kernel with a SIMD path exists as `<name>_scalar` (commented, carries the maths) and
 * `<name>_simd128` (terse, points back to the scalar twin). The plain `<name>` is chosen once, at
 * compile time, in dispatch.c. The _simd128 twins are declared only where AL_SIMD128 is 1.
 *
 * Backward convention: parameter gradients ACCUMULATE (+=). Activation (input) gradients also
 * accumulate unless a comment says `=`; self-attention feeds one input as q, k and v, and
 * accumulation makes that correct. Zero gradient buffers before the first backward.
 *
 * Masks are uint8 with 1 = "ignore this key" (PyTorch's boolean key_padding_mask). A row whose
 * every entry is masked yields all-zero probabilities, and an attention row with no visible key
 * yields a zero output: never NaN.
 */
#ifndef AL_KERNELS_H
#define AL_KERNELS_H

#include <stdint.h>

#include "simd128.h"

/* ------------------------------------------------------------------ elementwise maths */

/* exp, the scalar reference for al_v4_exp (same clamp and polynomial, so the twins agree to the
 * last bits). */
float al_expf_scalar(float x);

/* The index of the first NaN or ±Inf in x [n], or -1 when every value is finite. */
int al_first_nonfinite_scalar(const float *x, int n);

/* ------------------------------------------------------------------ matrix multiply */

/*
 * C = alpha · op(A) · op(B) + beta · C, BLAS sgemm semantics on row-major arrays.
 *   op(A) is [M,K]: A[m*lda + k], or A[k*lda + m] when trans_a.
 *   op(B) is [K,N]: B[k*ldb + n], or B[n*ldb + k] when trans_b.
 *   C [M,N] with row stride ldc. beta == 0 overwrites C without reading it (NaN in C is ignored).
 * The leading dimensions let callers multiply head slices of [T, H·D] matrices in place.
 * M, N or K may be 0 (K == 0 gives C = beta·C).
 */
void al_sgemm_scalar(int trans_a, int trans_b, int M, int N, int K, float alpha, const float *A,
                     int lda, const float *B, int ldb, float beta, float *C, int ldc);

/*
 * y = alpha · op(A) · x + beta · y with A [M,K] (row stride lda):
 *   trans == 0: y [M] = A x, x [K];   trans == 1: y [K] = Aᵀ x, x [M].
 * beta == 0 overwrites y without reading it.
 */
void al_sgemv_scalar(int trans, int M, int K, float alpha, const float *A, int lda, const float *x,
                     float beta, float *y);

/*
 * The bias half of a linear layer: y [R,C] (row stride ldy) += b [C] on every row, or
 * += (b [C] + b2 [C]) when b2 is given (an RNN's two biases, summed first).
 */
void al_bias_add_forward_scalar(float *y, int ldy, const float *b, const float *b2, int R, int C);

/* ------------------------------------------------------------------ softmax */

/*
 * y [R,C] = softmax over each row of x [R,C], skipping masked entries (they get 0).
 * mask: NULL, or uint8 with row stride mask_stride (C for a full [R,C] mask, 0 to use one [C]
 * row for every row). A fully masked row gives all zeros. y may alias x.
 */
void al_softmax_forward_scalar(float *y, const float *x, const uint8_t *mask, int mask_stride,
                               int R, int C);

/* dx [R,C] += y ⊙ (dy − Σ_c dy·y), row by row, from the forward's output y [R,C]. Masked
 * entries have y = 0 and so get no gradient. */
void al_softmax_backward_scalar(float *dx, const float *y, const float *dy, int R, int C);

/* ------------------------------------------------------------------ activations, n elements */

void al_tanh_forward(float *y, const float *x, int n);
void al_tanh_backward(float *dx, const float *y, const float *dy, int n); /* uses the output */
void al_sigmoid_forward(float *y, const float *x, int n);
void al_sigmoid_backward(float *dx, const float *y, const float *dy, int n); /* uses the output */
void al_relu_forward(float *y, const float *x, int n);
void al_relu_backward(float *dx, const float *x, const float *dy, int n); /* uses the input */
/* Exact GELU x·Φ(x) with Φ the normal CDF (erf form), torch.nn.functional.gelu's default. */
void al_gelu_forward(float *y, const float *x, int n);
void al_gelu_backward(float *dx, const float *x, const float *dy, int n); /* uses the input */

/* ------------------------------------------------------------------ layer norm */

/*
 * y [R,C] = (x − mean) · rstd · weight + bias over each row, rstd = 1/sqrt(var + eps), var the
 * biased variance (torch.nn.LayerNorm). weight/bias [C] may be NULL (1 and 0). mean/rstd [R]
 * are saved for backward and may be NULL when no backward follows.
 */
void al_layernorm_forward(float *y, float *mean, float *rstd, const float *x, const float *weight,
                          const float *bias, int R, int C, float eps);
/* dx [R,C] +=, dweight/dbias [C] += (either may be NULL). */
void al_layernorm_backward(float *dx, float *dweight, float *dbias, const float *dy, const float *x,
                           const float *mean, const float *rstd, const float *weight, int R, int C);

/* ------------------------------------------------------------------ embedding */

/* out [N,C] = weight [V,C] rows picked by ids [N]. Returns -1 on success, else the position in
 * ids of the first id outside [0, V) (nothing is written past that row). */
int al_embedding_forward(float *out, const int32_t *ids, int N, const float *weight, int V, int C);
/* dweight [V,C] += dout rows scattered to ids (ids already checked by the forward). */
void al_embedding_backward(float *dweight, const int32_t *ids, int N, const float *dout, int C);

/* ------------------------------------------------------------------ scaled dot-product attention */

/*
 * One head: out [T,Dv] = softmax(q kᵀ · scale + mask) v with q [T,D], k [S,D], v [S,Dv].
 *   key_mask [S] (uint8, 1 = ignore) or NULL; causal: query t sees key s only when s <= t
 *   (top-left aligned, as torch.tril(ones(T,S))).
 *   att [T,S] or NULL: when given, the full probability matrix is written there (the plots read
 *   it, and backward reuses it); when NULL the rows are computed with a streaming (online)
 *   softmax and no T×S buffer exists: memory stays O(T·Dv + S·D).
 * Rows with no visible key get a zero output and a zero att row.
 */
void al_sdpa_forward_scalar(float *out, float *att, const float *q, const float *k, const float *v,
                            int T, int S, int D, int Dv, float scale, const uint8_t *key_mask,
                            int causal);
/* One streaming row again over its Sv visible keys, with the att path's steps and rounding
 * (max, Σ e^{e_s − max}, then Σ_s a_s v_s with each weight normalised before it multiplies v_s,
 * so no partial sum exceeds max|v|) but no [S] buffer: the scores are recomputed in each of its
 * three passes. Both twins call it for a row whose running Σ e^{e_s − m} v_s left float32's
 * range or whose scores reached ±inf; no visible key gives zeros. */
void al_sdpa_row_normalised(float *ot, const float *qt, const float *k, const float *v, int Sv,
                            int D, int Dv, float scale, const uint8_t *key_mask);

#if AL_SIMD128
int al_first_nonfinite_simd128(const float *x, int n);
void al_sgemm_simd128(int trans_a, int trans_b, int M, int N, int K, float alpha, const float *A,
                      int lda, const float *B, int ldb, float beta, float *C, int ldc);
void al_sgemv_simd128(int trans, int M, int K, float alpha, const float *A, int lda, const float *x,
                      float beta, float *y);
void al_bias_add_forward_simd128(float *y, int ldy, const float *b, const float *b2, int R, int C);
void al_softmax_forward_simd128(float *y, const float *x, const uint8_t *mask, int mask_stride,
                                int R, int C);
void al_softmax_backward_simd128(float *dx, const float *y, const float *dy, int R, int C);
void al_sdpa_forward_simd128(float *out, float *att, const float *q, const float *k, const float *v,
                             int T, int S, int D, int Dv, float scale, const uint8_t *key_mask,
                             int causal);
#endif

/* ------------------------------------------------------------------ dispatched names (dispatch.c) */

/* 1 when the dispatched kernels are the _simd128 twins. */
int al_kernels_simd(void);
int al_first_nonfinite(const float *x, int n);
void al_sgemm(int trans_a, int trans_b, int M, int N, int K, float alpha, const float *A, int lda,
              const float *B, int ldb, float beta, float *C, int ldc);
void al_sgemv(int trans, int M, int K, float alpha, const float *A, int lda, const float *x,
              float beta, float *y);
void al_bias_add_forward(float *y, int ldy, const float *b, const float *b2, int R, int C);
void al_softmax_forward(float *y, const float *x, const uint8_t *mask, int mask_stride, int R,
                        int C);
void al_softmax_backward(float *dx, const float *y, const float *dy, int R, int C);
void al_sdpa_forward(float *out, float *att, const float *q, const float *k, const float *v, int T,
                     int S, int D, int Dv, float scale, const uint8_t *key_mask, int causal);

#endif /* AL_KERNELS_H */
