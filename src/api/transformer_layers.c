/*
 * api/transformer_layers.c: validated, batched entry points over the transformer layer kernels
 * (src/kernels/transformer_layers.c): argument checks with status codes, the params array mapped
 * to the kernels' named struct, scratch from al_malloc (freed on every path), and the loop over
 * the batch.
 */
#include <math.h>
#include <string.h>

#include "transformer_layers.h"
#include "../toolbox.h"
#include "../kernels/transformer_layers.h"

/* 1 for the entries layer `dec` (0 encoder, 1 decoder) reads */
static int used(int i, int dec)
{
    if (dec) return 1;
    return !(i >= AL_TL_CROSS_IN_PROJ_WEIGHT && i <= AL_TL_CROSS_OUT_PROJ_BIAS) &&
           i != AL_TL_NORM3_WEIGHT && i != AL_TL_NORM3_BIAS;
}

static al_status check_layer(const float *x, const float *memory, const float *const *params, int B,
                             int T, int S, int E, int F, int H, int activation, float eps, int dec)
{
    if (!x || !params || (dec && !memory)) return AL_ERR_ARGUMENT;
    for (int i = 0; i < AL_TL_NUM_PARAMS; i++)
        if (used(i, dec) && !params[i]) return AL_ERR_ARGUMENT;
    if (H < 1) return AL_ERR_ARGUMENT;
    if (activation != AL_ACT_RELU && activation != AL_ACT_GELU) return AL_ERR_ARGUMENT;
    if (!(eps > 0.0f) || !isfinite(eps)) return AL_ERR_ARGUMENT;
    if (B < 1 || T < 1 || E < 1 || F < 1 || (dec && S < 1)) return AL_ERR_SHAPE;
    if (E % H != 0) return AL_ERR_SHAPE;
    if (!dec) S = 1;
    if (!al_count_ok(B, T, E, 1) || !al_count_ok(B, S, E, 1) || !al_count_ok(3, E, E, 1) ||
        !al_count_ok(F, E, 1, 1) || !al_count_ok(B, H, T, T) || !al_count_ok(B, H, T, S) ||
        !al_count_ok(T, F, 1, 1))
        return AL_ERR_OVERFLOW;
    return AL_OK;
}

/* Which params entry fills which field of the kernels' structs (al_tl_weights and al_tl_grads
 * share the names); 1 marks the decoder's own entries, NULL in an encoder (as used() says). */
/* clang-format off */
#define TL_FIELDS(X)                                                                            \
    X(sa_in_w, AL_TL_SELF_IN_PROJ_WEIGHT, 0) X(sa_in_b, AL_TL_SELF_IN_PROJ_BIAS, 0)            \
    X(sa_out_w, AL_TL_SELF_OUT_PROJ_WEIGHT, 0) X(sa_out_b, AL_TL_SELF_OUT_PROJ_BIAS, 0)        \
    X(ca_in_w, AL_TL_CROSS_IN_PROJ_WEIGHT, 1) X(ca_in_b, AL_TL_CROSS_IN_PROJ_BIAS, 1)          \
    X(ca_out_w, AL_TL_CROSS_OUT_PROJ_WEIGHT, 1) X(ca_out_b, AL_TL_CROSS_OUT_PROJ_BIAS, 1)      \
    X(l1_w, AL_TL_LINEAR1_WEIGHT, 0) X(l1_b, AL_TL_LINEAR1_BIAS, 0)                            \
    X(l2_w, AL_TL_LINEAR2_WEIGHT, 0) X(l2_b, AL_TL_LINEAR2_BIAS, 0)                            \
    X(n1_w, AL_TL_NORM1_WEIGHT, 0) X(n1_b, AL_TL_NORM1_BIAS, 0)                                \
    X(n2_w, AL_TL_NORM2_WEIGHT, 0) X(n2_b, AL_TL_NORM2_BIAS, 0)                                \
    X(n3_w, AL_TL_NORM3_WEIGHT, 1) X(n3_b, AL_TL_NORM3_BIAS, 1)
/* clang-format on */
#define TL_SET(field, i, dec_only) s.field = (dec_only) && !dec ? NULL : p[i];

static al_tl_weights to_weights(const float *const *p, int dec)
{
    al_tl_weights s;
    TL_FIELDS(TL_SET)
    return s;
}

static al_tl_grads to_grads(float *const *p, int dec)
{
    al_tl_grads s;
    TL_FIELDS(TL_SET)
    return s;
}

/* The forward of either layer (memory NULL: encoder). */
static al_status layer_forward(float *out, float *self_att, float *cross_att, const float *x,
                               const float *memory, const float *const *params, int B, int T, int S,
                               int E, int F, int H, int norm_first, int activation, int causal,
                               const uint8_t *self_mask, const uint8_t *mem_mask, float eps)
{
    int dec = memory != NULL;
    if (!dec) S = 1;
    long fwd = al_tl_forward_scratch_floats(T, S, E, F, dec);
    long need = fwd + (self_att ? 0 : (long)H * T * T) + (dec && !cross_att ? (long)H * T * S : 0);
    if (!al_count_ok(need, 1, 1, 1)) return AL_ERR_OVERFLOW;
    float *scratch = al_alloc_floats(need, NULL);
    if (!scratch) return AL_ERR_NOMEM;
    float *spare = scratch + fwd; /* weights nobody asked for */
    float *spare_cross = spare + (self_att ? 0 : (long)H * T * T);
    al_tl_weights w = to_weights(params, dec);
    al_tl_config cfg = { norm_first != 0, activation == AL_ACT_GELU, causal != 0, eps, 0 };
    for (int b = 0; b < B; b++) {
        al_tl_forward(out + (long)b * T * E, self_att ? self_att + (long)b * H * T * T : spare,
                      dec ? (cross_att ? cross_att + (long)b * H * T * S : spare_cross) : NULL,
                      x + (long)b * T * E, dec ? memory + (long)b * S * E : NULL, &w, T, S, E, F, H,
                      &cfg, self_mask ? self_mask + (long)b * T : NULL,
                      dec && mem_mask ? mem_mask + (long)b * S : NULL, scratch);
    }
    al_free(scratch);
    return AL_OK;
}

static al_status layer_backward(float *dx, float *dmemory, float *const *dparams, const float *dout,
                                const float *dself_att, const float *dcross_att, const float *x,
                                const float *memory, const float *const *params, int B, int T,
                                int S, int E, int F, int H, int norm_first, int activation,
                                int causal, const uint8_t *self_mask, const uint8_t *mem_mask,
                                float eps)
{
    int dec = memory != NULL;
    if (!dec) S = 1;
    long need = al_tl_backward_scratch_floats(T, S, E, F, H, dec);
    if (!al_count_ok(need, 1, 1, 1)) return AL_ERR_OVERFLOW;
    float *scratch = al_alloc_floats(need, NULL);
    if (!scratch) return AL_ERR_NOMEM;
    al_tl_weights w = to_weights(params, dec);
    al_tl_grads g = to_grads(dparams, dec);
    al_tl_config cfg = { norm_first != 0, activation == AL_ACT_GELU, causal != 0, eps, 0 };
    for (int b = 0; b < B; b++) {
        al_tl_backward(dx + (long)b * T * E, dec ? dmemory + (long)b * S * E : NULL, &g,
                       dout ? dout + (long)b * T * E : NULL,
                       dself_att ? dself_att + (long)b * H * T * T : NULL,
                       dec && dcross_att ? dcross_att + (long)b * H * T * S : NULL,
                       x + (long)b * T * E, dec ? memory + (long)b * S * E : NULL, &w, T, S, E, F,
                       H, &cfg, self_mask ? self_mask + (long)b * T : NULL,
                       dec && mem_mask ? mem_mask + (long)b * S : NULL, scratch);
    }
    al_free(scratch);
    return AL_OK;
}

static int grads_ok(float *const *dparams, int dec)
{
    if (!dparams) return 0;
    for (int i = 0; i < AL_TL_NUM_PARAMS; i++)
        if (used(i, dec) && !dparams[i]) return 0;
    return 1;
}

al_status al_transformer_encoder_forward(float *out, float *att, const float *x,
                                         const float *const *params, int B, int T, int E, int F,
                                         int H, int norm_first, int activation, int causal,
                                         const uint8_t *key_padding_mask, float eps)
{
    if (!out) return AL_ERR_ARGUMENT;
    al_status st = check_layer(x, NULL, params, B, T, 1, E, F, H, activation, eps, 0);
    if (st != AL_OK) return st;
    return layer_forward(out, att, NULL, x, NULL, params, B, T, 1, E, F, H, norm_first, activation,
                         causal, key_padding_mask, NULL, eps);
}

al_status al_transformer_encoder_backward(float *dx, float *const *dparams, const float *dout,
                                          const float *datt, const float *x,
                                          const float *const *params, int B, int T, int E, int F,
                                          int H, int norm_first, int activation, int causal,
                                          const uint8_t *key_padding_mask, float eps)
{
    if (!dx || !grads_ok(dparams, 0)) return AL_ERR_ARGUMENT;
    al_status st = check_layer(x, NULL, params, B, T, 1, E, F, H, activation, eps, 0);
    if (st != AL_OK) return st;
    return layer_backward(dx, NULL, dparams, dout, datt, NULL, x, NULL, params, B, T, 1, E, F, H,
                          norm_first, activation, causal, key_padding_mask, NULL, eps);
}

al_status al_transformer_decoder_forward(float *out, float *self_att, float *cross_att,
                                         const float *x, const float *memory,
                                         const float *const *params, int B, int T, int S, int E,
                                         int F, int H, int norm_first, int activation, int causal,
                                         const uint8_t *tgt_key_padding_mask,
                                         const uint8_t *memory_key_padding_mask, float eps)
{
    if (!out) return AL_ERR_ARGUMENT;
    al_status st = check_layer(x, memory, params, B, T, S, E, F, H, activation, eps, 1);
    if (st != AL_OK) return st;
    return layer_forward(out, self_att, cross_att, x, memory, params, B, T, S, E, F, H, norm_first,
                         activation, causal, tgt_key_padding_mask, memory_key_padding_mask, eps);
}

al_status al_transformer_decoder_backward(
    float *dx, float *dmemory, float *const *dparams, const float *dout, const float *dself_att,
    const float *dcross_att, const float *x, const float *memory, const float *const *params, int B,
    int T, int S, int E, int F, int H, int norm_first, int activation, int causal,
    const uint8_t *tgt_key_padding_mask, const uint8_t *memory_key_padding_mask, float eps)
{
    if (!dx || !dmemory || !grads_ok(dparams, 1)) return AL_ERR_ARGUMENT;
    al_status st = check_layer(x, memory, params, B, T, S, E, F, H, activation, eps, 1);
    if (st != AL_OK) return st;
    return layer_backward(dx, dmemory, dparams, dout, dself_att, dcross_att, x, memory, params, B,
                          T, S, E, F, H, norm_first, activation, causal, tgt_key_padding_mask,
                          memory_key_padding_mask, eps);
}
