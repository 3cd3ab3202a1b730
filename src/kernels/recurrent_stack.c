/*
 * recurrent_stack.c: several layers and both directions of an RNN, LSTM or GRU (torch.nn.RNN,
 * LSTM, GRU with num_layers and bidirectional) stacked on the one-layer kernels of recurrent.c:
 * layer l > 0 reads layer l − 1's [B,T,D·H] output, the forward direction writes columns 0..H of
 * each output row and the reverse direction columns H..2H.
 *
 * Like every kernel: no allocation, no validation. The caller (api/recurrent.c after its checks,
 * or a model inside its own block) provides scratch of the size the _floats functions give.
 * Backward convention (kernels.h): every gradient ACCUMULATES (+=).
 */
#include <stdint.h>
#include <string.h>

#include "recurrent.h"

static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

double al_recurrent_stack_forward_floats(int cell, int B, int T, int H, int layers, int D)
{
    const double BT = (double)B * T;
    const double n_buf = layers > 1 ? BT * D * H : 0;
    /* + 16 floats: the gate rows start on a 64-byte line (al_malloc promises 8 bytes), so the
     * per-step gate loads never straddle one */
    return BT * al_recurrent_gates(cell) * H + BT * H + 2.0 * n_buf +
           (double)al_recurrent_layer_forward_scratch(cell, B, T, H) + 16;
}

void al_recurrent_stack_forward(int cell, int B, int T, int I, int H, int layers, int D,
                                const float *x, const float *const *params, const float *h0,
                                const float *c0, float *output, float *hn, float *cn,
                                float *scratch)
{
    const int G = al_recurrent_gates(cell), DH = D * H;
    const int lstm = cell == AL_RECURRENT_LSTM;
    const size_t BT = (size_t)B * T;
    /* gates [B,T,G·H], state [B,T,H], two ping-pong layer outputs [B,T,D·H], kernel scratch */
    const size_t n_gates = BT * G * H, n_state = BT * H;
    const size_t n_buf = layers > 1 ? BT * DH : 0;
    const size_t n_scr = al_recurrent_layer_forward_scratch(cell, B, T, H);
    float *gates = (float *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
    float *state = gates + n_gates, *buf = state + n_state;
    float *scr = n_scr ? buf + 2 * n_buf : NULL;
    const int rnn = cell == AL_RECURRENT_RNN_TANH || cell == AL_RECURRENT_RNN_RELU;

    const float *in = x;
    for (int l = 0; l < layers; l++) {
        float *out = l == layers - 1 ? output : buf + (size_t)(l % 2) * n_buf;
        for (int d = 0; d < D; d++) {
            const int k = l * D + d;
            const float *const *p = params + 4 * k;
            const size_t off = (size_t)k * B * H;
            al_recurrent_layer_forward(
                cell, B, T, l == 0 ? I : DH, H, d, in, p[0], p[1], p[2], p[3], h0 ? h0 + off : NULL,
                lstm && c0 ? c0 + off : NULL, out + (size_t)d * H, DH, hn ? hn + off : NULL,
                lstm && cn ? cn + off : NULL, gates, rnn ? NULL : state, scr);
        }
        in = out;
    }
}

double al_recurrent_stack_backward_floats(int cell, int B, int T, int H, int layers, int D)
{
    const int rnn = cell == AL_RECURRENT_RNN_TANH || cell == AL_RECURRENT_RNN_RELU;
    const double BT = (double)B * T, LD = (double)layers * D;
    const double n_y = BT * D * H, n_gates = BT * al_recurrent_gates(cell) * H;
    const double n_state = rnn ? 0 : BT * H;
    const size_t n_scr = max_size(al_recurrent_layer_forward_scratch(cell, B, T, H),
                                  al_recurrent_layer_backward_scratch(cell, B, T, H));
    return layers * n_y + LD * (n_gates + n_state) + 2.0 * n_y + (double)n_scr;
}

void al_recurrent_stack_backward(int cell, int B, int T, int I, int H, int layers, int D,
                                 const float *x, const float *const *params, const float *h0,
                                 const float *c0, const float *doutput, const float *dhn,
                                 const float *dcn, float *dx, float *const *dparams, float *dh0,
                                 float *dc0, float *scratch)
{
    const int G = al_recurrent_gates(cell), DH = D * H;
    const int lstm = cell == AL_RECURRENT_LSTM;
    const int rnn = cell == AL_RECURRENT_RNN_TANH || cell == AL_RECURRENT_RNN_RELU;
    const size_t BT = (size_t)B * T, LD = (size_t)layers * D;
    /* every layer's output Y [L][B,T,D·H], gates [L·D][B,T,G·H], state [L·D][B,T,H], two
     * gradient buffers [B,T,D·H] for the layer inputs, and the larger kernel scratch */
    const size_t n_y = BT * DH, n_gates = BT * G * H, n_state = rnn ? 0 : BT * H;
    float *Y = scratch, *gates = Y + layers * n_y, *state = gates + LD * n_gates;
    float *dA = state + LD * n_state, *dB = dA + n_y, *scr = dB + n_y;

    /* forward, keeping every layer's output, gates and state */
    for (int l = 0; l < layers; l++) {
        const float *in = l == 0 ? x : Y + (size_t)(l - 1) * n_y;
        for (int d = 0; d < D; d++) {
            const size_t k = (size_t)l * D + d, off = k * B * H;
            const float *const *p = params + 4 * k;
            al_recurrent_layer_forward(cell, B, T, l == 0 ? I : DH, H, d, in, p[0], p[1], p[2],
                                       p[3], h0 ? h0 + off : NULL, lstm && c0 ? c0 + off : NULL,
                                       Y + l * n_y + (size_t)d * H, DH, NULL, NULL,
                                       gates + k * n_gates, rnn ? NULL : state + k * n_state, scr);
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
            al_recurrent_layer_backward(
                cell, B, T, l == 0 ? I : DH, H, d, in, p[0], p[1], h0 ? h0 + off : NULL,
                lstm && c0 ? c0 + off : NULL, Y + l * n_y + (size_t)d * H, DH, gates + k * n_gates,
                rnn ? NULL : state + k * n_state, dcur ? dcur + (size_t)d * H : NULL, DH,
                dhn ? dhn + off : NULL, lstm && dcn ? dcn + off : NULL, din, q[0], q[1], q[2], q[3],
                dh0 ? dh0 + off : NULL, lstm && dc0 ? dc0 + off : NULL, scr);
        }
        dcur = din;
        float *tmp = dA;
        dA = dB;
        dB = tmp;
    }
}
