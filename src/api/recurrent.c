/*
 * api/recurrent.c: validated entry points of api/recurrent.h. Checks what a caller can get wrong
 * (NULLs, sizes, overflow, bias pairs), allocates one block of scratch with al_alloc_floats (freed
 * on every path), zeroes the gradients it writes, and runs the stacked kernels of
 * kernels/recurrent.h (al_recurrent_stack_*: layers and directions on the one-layer kernels).
 *
 * Not here: the maths (kernels/recurrent.c, recurrent_stack.c), names of tensors in messages (the
 * JS glue).
 */
#include <stdint.h>
#include <string.h>

#include "../attnlab.h"
#include "../toolbox.h"
#include "../kernels/recurrent.h"

/* Everything both entry points check. *has_bias is 1 when the params carry biases. */
static al_status validate(int cell, int B, int T, int I, int H, int layers, int D, const float *x,
                          const float *const *params, int *has_bias)
{
    int G = al_recurrent_gates(cell);
    if (G == 0 || !x || !params) return AL_ERR_ARGUMENT;
    if (B < 1 || T < 1 || I < 1 || H < 1 || layers < 1) return AL_ERR_SHAPE;
    if (!al_count_ok(B, T, I, 1) || !al_count_ok(B, T, D, H) || !al_count_ok(B, T, G, H) ||
        !al_count_ok(G, H, I, 1) || !al_count_ok(G, H, D, H) || !al_count_ok(layers, D, B, H) ||
        !al_count_ok(layers, D, 4, 1))
        return AL_ERR_OVERFLOW;
    *has_bias = params[2] != NULL;
    for (int k = 0; k < layers * D; k++) {
        const float *const *p = params + 4 * k;
        if (!p[0] || !p[1]) return AL_ERR_ARGUMENT;
        if ((p[2] != NULL) != *has_bias || (p[3] != NULL) != *has_bias) return AL_ERR_ARGUMENT;
    }
    return AL_OK;
}

al_status al_recurrent_forward(int cell, int B, int T, int I, int H, int layers, int bidirectional,
                               const float *x, const float *const *params, const float *h0,
                               const float *c0, float *output, float *hn, float *cn)
{
    const int D = bidirectional ? 2 : 1;
    int has_bias;
    al_status st = validate(cell, B, T, I, H, layers, D, x, params, &has_bias);
    if (st != AL_OK) return st;
    if (!output) return AL_ERR_ARGUMENT;
    float *scratch =
        al_alloc_floats(al_recurrent_stack_forward_floats(cell, B, T, H, layers, D), &st);
    if (!scratch) return st;
    al_recurrent_stack_forward(cell, B, T, I, H, layers, D, x, params, h0, c0, output, hn, cn,
                               scratch);
    al_free(scratch);
    return AL_OK;
}

al_status al_recurrent_backward(int cell, int B, int T, int I, int H, int layers, int bidirectional,
                                const float *x, const float *const *params, const float *h0,
                                const float *c0, const float *doutput, const float *dhn,
                                const float *dcn, float *dx, float *const *dparams, float *dh0,
                                float *dc0)
{
    const int D = bidirectional ? 2 : 1;
    int has_bias;
    al_status st = validate(cell, B, T, I, H, layers, D, x, params, &has_bias);
    if (st != AL_OK) return st;
    if (!dparams) return AL_ERR_ARGUMENT;
    for (int k = 0; k < layers * D; k++) {
        float *const *q = dparams + 4 * k;
        if (!q[0] || !q[1]) return AL_ERR_ARGUMENT;
        if ((q[2] != NULL) != has_bias || (q[3] != NULL) != has_bias) return AL_ERR_ARGUMENT;
    }
    const int G = al_recurrent_gates(cell), DH = D * H;
    const size_t BT = (size_t)B * T, LD = (size_t)layers * D;
    float *scratch =
        al_alloc_floats(al_recurrent_stack_backward_floats(cell, B, T, H, layers, D), &st);
    if (!scratch) return st;
    /* gradients are written, not accumulated (the kernel's +=): start from zero */
    if (dx) memset(dx, 0, sizeof(float) * BT * I);
    if (dh0) memset(dh0, 0, sizeof(float) * LD * B * H);
    if (dc0 && cell == AL_LSTM) memset(dc0, 0, sizeof(float) * LD * B * H);
    for (int l = 0; l < layers; l++) {
        const size_t nw = (size_t)G * H * (l == 0 ? I : DH), nh = (size_t)G * H * H;
        for (int d = 0; d < D; d++) {
            float *const *q = dparams + 4 * (l * D + d);
            memset(q[0], 0, sizeof(float) * nw);
            memset(q[1], 0, sizeof(float) * nh);
            if (has_bias) {
                memset(q[2], 0, sizeof(float) * G * H);
                memset(q[3], 0, sizeof(float) * G * H);
            }
        }
    }
    al_recurrent_stack_backward(cell, B, T, I, H, layers, D, x, params, h0, c0, doutput, dhn, dcn,
                                dx, dparams, dh0, dc0, scratch);
    al_free(scratch);
    return AL_OK;
}
