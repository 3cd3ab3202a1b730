/*
 * dispatch.c: the one place that picks a kernel variant. Compile-time: the _simd128 twins where
 * a 128-bit back end exists (wasm -msimd128, or SSE2 natively), the _scalar twins otherwise (the
 * scalar .wasm for engines without SIMD128). Both twins are linked in the SIMD build so tests
 * can compare them in one binary. The shared kernels of kernels.h come first, then the
 * op-specific hot loops of each family (their twins live beside the family's kernels).
 */
#include "kernels.h"
#include "attention_additive_luong.h"
#include "attention_transformer.h"
#include "memory_rnn.h"
#include "recurrent.h"

#if AL_SIMD128
#define AL_PICK(name) name##_simd128
#else
#define AL_PICK(name) name##_scalar
#endif

int al_kernels_simd(void) { return AL_SIMD128; }

int al_first_nonfinite(const float *x, int n) { return AL_PICK(al_first_nonfinite)(x, n); }

void al_sgemm(int trans_a, int trans_b, int M, int N, int K, float alpha, const float *A, int lda,
              const float *B, int ldb, float beta, float *C, int ldc)
{
    AL_PICK(al_sgemm)(trans_a, trans_b, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void al_sgemv(int trans, int M, int K, float alpha, const float *A, int lda, const float *x,
              float beta, float *y)
{
    AL_PICK(al_sgemv)(trans, M, K, alpha, A, lda, x, beta, y);
}

void al_bias_add_forward(float *y, int ldy, const float *b, const float *b2, int R, int C)
{
    AL_PICK(al_bias_add_forward)(y, ldy, b, b2, R, C);
}

void al_softmax_forward(float *y, const float *x, const uint8_t *mask, int mask_stride, int R,
                        int C)
{
    AL_PICK(al_softmax_forward)(y, x, mask, mask_stride, R, C);
}

void al_softmax_backward(float *dx, const float *y, const float *dy, int R, int C)
{
    AL_PICK(al_softmax_backward)(dx, y, dy, R, C);
}

void al_sdpa_forward(float *out, float *att, const float *q, const float *k, const float *v, int T,
                     int S, int D, int Dv, float scale, const uint8_t *key_mask, int causal)
{
    AL_PICK(al_sdpa_forward)(out, att, q, k, v, T, S, D, Dv, scale, key_mask, causal);
}

/* ------------------------------------------------------------------ op-specific hot loops */

void al_additive_scores(float *e, float *t, const float *pre, const float *hk, const float *v,
                        int n, int da)
{
    AL_PICK(al_additive_scores)(e, t, pre, hk, v, n, da);
}

void al_memory_score_forward(float *e, const float *P, const float *q, const float *v, int n, int d)
{
    AL_PICK(al_memory_score_forward)(e, P, q, v, n, d);
}

void al_memory_score_backward(float *dP, float *dq, float *dv, const float *de, const float *P,
                              const float *q, const float *v, int n, int d)
{
    AL_PICK(al_memory_score_backward)(dP, dq, dv, de, P, q, v, n, d);
}

void al_recurrent_rnn_cell_forward(float *h, const float *pre, int H, int relu)
{
    AL_PICK(al_recurrent_rnn_cell_forward)(h, pre, H, relu);
}

void al_recurrent_lstm_cell_forward(float *gates, float *c, float *h, const float *c_prev, int H)
{
    AL_PICK(al_recurrent_lstm_cell_forward)(gates, c, h, c_prev, H);
}

void al_recurrent_pack(float *P, const float *W, int lda, int N, int K)
{
    AL_PICK(al_recurrent_pack)(P, W, lda, N, K);
}

void al_recurrent_packed_gemv(float *y, const float *P, const float *x, const float *init, int N,
                              int K)
{
    AL_PICK(al_recurrent_packed_gemv)(y, P, x, init, N, K);
}

void al_recurrent_gru_cell_forward(float *gates, float *h, const float *hh, const float *h_prev,
                                   int H)
{
    AL_PICK(al_recurrent_gru_cell_forward)(gates, h, hh, h_prev, H);
}

void al_relpos_gather_add(float *m, const float *g, int n, int k)
{
    AL_PICK(al_relpos_gather_add)(m, g, n, k);
}

void al_relpos_bucket_sum(float *b, const float *m, int n, int k)
{
    AL_PICK(al_relpos_bucket_sum)(b, m, n, k);
}
