/*
 * ops.c: the validated entry points of attnlab.h over the kernels.
 *
 * Each function checks what a caller can get wrong (NULL arrays, sizes < 1, element counts past
 * 2^31, non-finite scale or eps, ids outside a table), answers with a status, then runs the
 * dispatched kernel. The JS glue checks the same things first with messages that name tensors;
 * these checks are the second line, for C callers and for anything the glue missed.
 */
#include <math.h>
#include <string.h>

#include "attnlab.h"
#include "toolbox.h"
#include "kernels/kernels.h"

int al_simd(void) { return al_kernels_simd(); }

int al_check_finite(const float *x, int n)
{
    if (!x || n <= 0) return -1;
    return al_first_nonfinite(x, n);
}

al_status al_matmul(float *c, const float *a, const float *b, int M, int K, int N, int trans_a,
                    int trans_b)
{
    if (!c || !a || !b) return AL_ERR_ARGUMENT;
    if (M < 1 || K < 1 || N < 1) return AL_ERR_SHAPE;
    if (!al_count_ok(M, K, 1, 1) || !al_count_ok(K, N, 1, 1) || !al_count_ok(M, N, 1, 1))
        return AL_ERR_OVERFLOW;
    al_sgemm(trans_a != 0, trans_b != 0, M, N, K, 1.0f, a, trans_a ? M : K, b, trans_b ? K : N,
             0.0f, c, N);
    return AL_OK;
}

al_status al_matvec(float *y, const float *a, const float *x, int M, int K)
{
    if (!y || !a || !x) return AL_ERR_ARGUMENT;
    if (M < 1 || K < 1) return AL_ERR_SHAPE;
    if (!al_count_ok(M, K, 1, 1)) return AL_ERR_OVERFLOW;
    al_sgemv(0, M, K, 1.0f, a, K, x, 0.0f, y);
    return AL_OK;
}

al_status al_softmax(float *y, const float *x, const uint8_t *mask, int mask_stride, int R, int C)
{
    if (!y || !x) return AL_ERR_ARGUMENT;
    if (R < 1 || C < 1) return AL_ERR_SHAPE;
    if (!al_count_ok(R, C, 1, 1)) return AL_ERR_OVERFLOW;
    if (mask && mask_stride != 0 && mask_stride != C) return AL_ERR_ARGUMENT;
    al_softmax_forward(y, x, mask, mask_stride, R, C);
    return AL_OK;
}

al_status al_activate(float *y, const float *x, int n, al_activation act)
{
    if (!y || !x) return AL_ERR_ARGUMENT;
    if (n < 1) return AL_ERR_SHAPE;
    switch (act) {
    case AL_ACT_TANH: al_tanh_forward(y, x, n); return AL_OK;
    case AL_ACT_SIGMOID: al_sigmoid_forward(y, x, n); return AL_OK;
    case AL_ACT_RELU: al_relu_forward(y, x, n); return AL_OK;
    case AL_ACT_GELU: al_gelu_forward(y, x, n); return AL_OK;
    }
    return AL_ERR_ARGUMENT;
}

al_status al_layernorm(float *y, const float *x, const float *weight, const float *bias, int R,
                       int C, float eps)
{
    if (!y || !x) return AL_ERR_ARGUMENT;
    if (R < 1 || C < 1) return AL_ERR_SHAPE;
    if (!al_count_ok(R, C, 1, 1)) return AL_ERR_OVERFLOW;
    if (!(eps > 0.0f) || !isfinite(eps)) return AL_ERR_ARGUMENT;
    al_layernorm_forward(y, NULL, NULL, x, weight, bias, R, C, eps);
    return AL_OK;
}

al_status al_embedding(float *out, const int32_t *ids, int N, const float *weight, int V, int C,
                       int *bad_index)
{
    if (!out || !ids || !weight) return AL_ERR_ARGUMENT;
    if (N < 1 || V < 1 || C < 1) return AL_ERR_SHAPE;
    if (!al_count_ok(N, C, 1, 1) || !al_count_ok(V, C, 1, 1)) return AL_ERR_OVERFLOW;
    int bad = al_embedding_forward(out, ids, N, weight, V, C);
    if (bad_index) *bad_index = bad;
    return bad < 0 ? AL_OK : AL_ERR_RANGE;
}

al_status al_sdpa(float *out, float *att, const float *q, const float *k, const float *v, int B,
                  int H, int T, int S, int D, int Dv, float scale, const uint8_t *key_padding_mask,
                  int causal)
{
    if (!out || !q || !k || !v) return AL_ERR_ARGUMENT;
    if (B < 1 || H < 1 || T < 1 || S < 1 || D < 1 || Dv < 1) return AL_ERR_SHAPE;
    if (!al_count_ok(B, H, T, D) || !al_count_ok(B, H, S, D) || !al_count_ok(B, H, S, Dv) ||
        !al_count_ok(B, H, T, Dv) || (att && !al_count_ok(B, H, T, S)))
        return AL_ERR_OVERFLOW;
    if (!isfinite(scale)) return AL_ERR_ARGUMENT;
    if (scale == 0.0f) scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        const uint8_t *mask = key_padding_mask ? key_padding_mask + (long)b * S : NULL;
        for (int h = 0; h < H; h++) {
            long head = (long)b * H + h;
            al_sdpa_forward(out + head * T * Dv, att ? att + head * T * S : NULL, q + head * T * D,
                            k + head * S * D, v + head * S * Dv, T, S, D, Dv, scale, mask,
                            causal != 0);
        }
    }
    return AL_OK;
}
