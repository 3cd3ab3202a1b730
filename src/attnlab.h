/*
 * attnlab.h: the public C API of attnlab, attention and recurrent kernels for the browser.
 *
 *     #include "attnlab.h"
 *
 *     float q[4 * 8], k[6 * 8], v[6 * 8];           // T = 4 queries, S = 6 keys, D = Dv = 8
 *     float out[4 * 8], att[4 * 6];
 *     al_status st = al_sdpa(out, att, q, k, v, 1, 1, 4, 6, 8, 8, 0.0f, NULL, 1);
 *     if (st != AL_OK) fprintf(stderr, "attnlab: %s\n", al_status_string(st));
 *
 * Every function here validates what a caller can get wrong (sizes, ids, options) and answers
 * with a status; nothing aborts, prints or exits. Arrays are row-major float32, caller-owned; the
 * shape letters are B batch, H heads, T query length, S key length, D/Dv head dims. The kernels
 * underneath (kernels/kernels.h) assume validated input and are the place to read the maths.
 *
 * Limits: every dimension is >= 1 and every tensor has fewer than 2^31 elements.
 * The status codes (al_status, al_status_string) and the counting allocator are in base.h.
 */
#ifndef ATTNLAB_H
#define ATTNLAB_H

#include <stddef.h>
#include <stdint.h>

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when this build runs the SIMD128 (or SSE, natively) kernels, 0 for the scalar build. */
int al_simd(void);

/* ----------------------------------------------------------------- memory */

/* (al_malloc, al_free, al_alloc_live: base.h) */

/* The index of the first NaN or ±Inf in x [n] (n >= 0), or -1 when all are finite (or x is NULL). */
int al_check_finite(const float *x, int n);

/* ----------------------------------------------------------------- basic ops */

/* c [M,N] = op(a) · op(b): a is [M,K] ([K,M] when trans_a), b is [K,N] ([N,K] when trans_b). */
al_status al_matmul(float *c, const float *a, const float *b, int M, int K, int N, int trans_a,
                    int trans_b);
/* y [M] = a [M,K] · x [K] */
al_status al_matvec(float *y, const float *a, const float *x, int M, int K);
/* y [R,C] = softmax of each row of x; mask NULL, [R,C] (mask_stride C) or [C] (mask_stride 0),
 * 1 = masked. A fully masked row is all zeros. y may equal x. */
al_status al_softmax(float *y, const float *x, const uint8_t *mask, int mask_stride, int R, int C);

typedef enum {
    AL_ACT_TANH = 0,
    AL_ACT_SIGMOID = 1,
    AL_ACT_RELU = 2,
    AL_ACT_GELU = 3
} al_activation;
/* y [n] = act(x [n]); y may equal x. */
al_status al_activate(float *y, const float *x, int n, al_activation act);
/* y [R,C] = LayerNorm over rows; weight/bias [C] or NULL; eps > 0 (PyTorch default 1e-5). */
al_status al_layernorm(float *y, const float *x, const float *weight, const float *bias, int R,
                       int C, float eps);
/* out [N,C] = weight [V,C] rows at ids [N]. AL_ERR_RANGE (and *bad_index set, if non-NULL) when an
 * id is outside [0, V). */
al_status al_embedding(float *out, const int32_t *ids, int N, const float *weight, int V, int C,
                       int *bad_index);

/* ----------------------------------------------------------------- attention */

/*
 * Scaled dot-product attention over B·H independent heads:
 *   out [B,H,T,Dv] = softmax(q kᵀ · scale + mask) v,   q [B,H,T,D], k [B,H,S,D], v [B,H,S,Dv].
 * scale 0 means 1/√D. key_padding_mask [B,S] (1 = ignore that key, shared by the heads) or NULL.
 * causal: query t sees keys s <= t (top-left aligned). att [B,H,T,S] or NULL: with it, the full
 * probabilities are returned; without, a streaming softmax keeps memory at O(T·Dv).
 * Rows with no visible key give zeros in out and att.
 */
al_status al_sdpa(float *out, float *att, const float *q, const float *k, const float *v, int B,
                  int H, int T, int S, int D, int Dv, float scale, const uint8_t *key_padding_mask,
                  int causal);

#ifdef __cplusplus
}
#endif

/* The families of ops, one header each (src/api/), each with its own .exports list. */
#include "api/additive_luong.h"
#include "api/transformer_attention.h"
#include "api/pooling.h"
#include "api/recurrent.h"
#include "api/memory_rnn.h"
#include "api/transformer_layers.h"
#include "api/safetensors.h"
#include "api/model.h"
#include "api/classifier_states.h"
#include "api/transformer_states.h"
#include "api/train.h"

#endif /* ATTNLAB_H */
