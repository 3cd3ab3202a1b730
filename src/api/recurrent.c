/*
 * api/recurrent.c: validated entry points of api/recurrent.h. Checks what a caller can get wrong
 * (NULLs, sizes, overflow, bias pairs), allocates one block of scratch with al_malloc (freed on
 * every path), and stacks layers and directions on the one-layer kernels of
 * kernels/recurrent.h: layer l > 0 reads layer l − 1's [B,T,D·H] output, the forward direction
 * writes columns 0..H of each output row and the reverse direction columns H..2H.
 *
 * Not here: the maths (kernels/recurrent.c), names of tensors in messages (the JS glue).
 */
#include <stdint.h>
#include <string.h>

#include "../attnlab.h"
#include "../toolbox.h"
#include "../kernels/recurrent.h"

/* Everything both entry points check. *has_bias is 1 when the params carry biases. */
static al_status validate(int cell, int B, int T, int I, int H, int layers, int D,
                          const float *x, const float *const *params, int *has_bias)
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

static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

al_status al_recurrent_forward(int cell, int B, int T, int I, int H, int layers, int bidirectional,
                               const float *x, const float *const *params,
                               const float *h0, const float *c0,
                               float *output, float *hn, float *cn)
{
    const int D = bidirectional ? 2 : 1;
    int has_bias;
    al_status st = validate(cell, B, T, I, H, layers, D, x, params, &has_bias);
    if (st != AL_OK) return st;
    if (!output) return AL_ERR_ARGUMENT;
    const int G = al_recurrent_gates(cell), DH = D * H;
    const int lstm = cell == AL_LSTM;
    const size_t BT = (size_t)B * T;
    /* gates [B,T,G·H], state [B,T,H], two ping-pong layer outputs [B,T,D·H], kernel scratch */
    const size_t n_gates = BT * G * H, n_state = BT * H;
    const size_t n_buf = layers > 1 ? BT * DH : 0;
    const size_t n_scr = al_recurrent_layer_forward_scratch(cell, B, T, H);
    /* + 16 floats: the gate rows start on a 64-byte line (al_malloc promises 8 bytes), so the
     * per-step gate loads never straddle one */
    float *mem = al_alloc_floats((double)n_gates + n_state + 2.0 * n_buf + n_scr + 16, &st);
    if (!mem) return st;
    float *gates = (float *)(((uintptr_t)mem + 63) & ~(uintptr_t)63);
    float *state = gates + n_gates, *buf = state + n_state;
    float *scratch = n_scr ? buf + 2 * n_buf : NULL;

    const float *in = x;
    for (int l = 0; l < layers; l++) {
        float *out = l == layers - 1 ? output : buf + (size_t)(l % 2) * n_buf;
        for (int d = 0; d < D; d++) {
            const int k = l * D + d;
            const float *const *p = params + 4 * k;
            const size_t off = (size_t)k * B * H;
            al_recurrent_layer_forward(cell, B, T, l == 0 ? I : DH, H, d, in, p[0], p[1], p[2], p[3],
                                       h0 ? h0 + off : NULL, lstm && c0 ? c0 + off : NULL,
                                       out + (size_t)d * H, DH, hn ? hn + off : NULL,
                                       lstm && cn ? cn + off : NULL, gates,
                                       cell == AL_RNN_TANH || cell == AL_RNN_RELU ? NULL : state,
                                       scratch);
        }
        in = out;
    }
    al_free(mem);
    return AL_OK;
}

al_status al_recurrent_backward(int cell, int B, int T, int I, int H, int layers,
                                int bidirectional, const float *x, const float *const *params,
                                const float *h0, const float *c0, const float *doutput,
                                const float *dhn, const float *dcn, float *dx,
                                float *const *dparams, float *dh0, float *dc0)
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
    const int lstm = cell == AL_LSTM;
    const int rnn = cell == AL_RNN_TANH || cell == AL_RNN_RELU;
    const size_t BT = (size_t)B * T, LD = (size_t)layers * D;
    /* every layer's output Y [L][B,T,D·H], gates [L·D][B,T,G·H], state [L·D][B,T,H], two
     * gradient buffers [B,T,D·H] for the layer inputs, and the larger kernel scratch */
    const size_t n_y = BT * DH, n_gates = BT * G * H, n_state = rnn ? 0 : BT * H;
    const size_t n_scr = max_size(al_recurrent_layer_forward_scratch(cell, B, T, H),
                                  al_recurrent_layer_backward_scratch(cell, B, T, H));
    float *mem = al_alloc_floats((double)layers * n_y + (double)LD * (n_gates + n_state) +
                              2.0 * n_y + n_scr, &st);
    if (!mem) return st;
    float *Y = mem, *gates = Y + layers * n_y, *state = gates + LD * n_gates;
    float *dA = state + LD * n_state, *dB = dA + n_y, *scratch = dB + n_y;

    /* gradients are written, not accumulated: start from zero */
    if (dx) memset(dx, 0, sizeof(float) * BT * I);
    if (dh0) memset(dh0, 0, sizeof(float) * LD * B * H);
    if (dc0 && lstm) memset(dc0, 0, sizeof(float) * LD * B * H);
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

    /* forward, keeping every layer's output, gates and state */
    for (int l = 0; l < layers; l++) {
        const float *in = l == 0 ? x : Y + (size_t)(l - 1) * n_y;
        for (int d = 0; d < D; d++) {
            const size_t k = (size_t)l * D + d, off = k * B * H;
            const float *const *p = params + 4 * k;
            al_recurrent_layer_forward(cell, B, T, l == 0 ? I : DH, H, d, in, p[0], p[1], p[2], p[3],
                                       h0 ? h0 + off : NULL, lstm && c0 ? c0 + off : NULL,
                                       Y + l * n_y + (size_t)d * H, DH, NULL, NULL,
                                       gates + k * n_gates, rnn ? NULL : state + k * n_state,
                                       scratch);
        }
    }

    /* backward, top layer first: ∂L/∂(layer l's output) is doutput for the top layer and the
     * input gradient of layer l + 1 below it */
    const float *dcur = doutput;
    for (int l = layers - 1; l >= 0; l--) {
        const float *in = l == 0 ? x : Y + (size_t)(l - 1) * n_y;
        float *din = l == 0 ? dx : dA;
        if (l > 0) memset(dA, 0, sizeof(float) * n_y);
        for (int d = 0; d < D; d++) {
            const size_t k = (size_t)l * D + d, off = k * B * H;
            const float *const *p = params + 4 * k;
            float *const *q = dparams + 4 * k;
            al_recurrent_layer_backward(cell, B, T, l == 0 ? I : DH, H, d, in, p[0], p[1],
                                        h0 ? h0 + off : NULL, lstm && c0 ? c0 + off : NULL,
                                        Y + l * n_y + (size_t)d * H, DH, gates + k * n_gates,
                                        rnn ? NULL : state + k * n_state,
                                        dcur ? dcur + (size_t)d * H : NULL, DH,
                                        dhn ? dhn + off : NULL, lstm && dcn ? dcn + off : NULL,
                                        din, q[0], q[1], q[2], q[3], dh0 ? dh0 + off : NULL,
                                        lstm && dc0 ? dc0 + off : NULL, scratch);
        }
        dcur = din;
        float *tmp = dA;
        dA = dB;
        dB = tmp;
    }
    al_free(mem);
    return AL_OK;
}
