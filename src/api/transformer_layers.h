/*
 * api/transformer_layers.h: transformer encoder and decoder layers, validated and batched.
 *
 *     // torch.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0,
 *     //                                  batch_first=True), eval: params from its state dict
 *     const float *p[AL_TL_NUM_PARAMS] = { 0 };
 *     p[AL_TL_SELF_IN_PROJ_WEIGHT] = w_in;   // [24, 8]
 *     ...                                    // every encoder entry (see the enum)
 *     float out[5 * 8], att[2 * 5 * 5];
 *     al_status st = al_transformer_encoder_forward(out, att, x, p, 1, 5, 8, 16, 2,
 *                                                   0, AL_ACT_RELU, 0, NULL, 1e-5f);
 *
 * Ops (maths in src/kernels/transformer_layers.h; docs/transformer-layers.md):
 *   al_transformer_encoder_forward/backward  torch.nn.TransformerEncoderLayer
 *   al_transformer_decoder_forward/backward  torch.nn.TransformerDecoderLayer
 * both with batch_first=True, dropout 0, eval mode, activation relu or gelu (exact erf form),
 * norm_first 0 (post-norm, torch's default) or 1 (pre-norm); attention weights per head.
 *
 * Parameters come as one array of AL_TL_NUM_PARAMS pointers indexed by al_tl_param (the state
 * dict names, in the decoder's state dict order). The encoder reads the self_attn, linear1,
 * linear2, norm1 and norm2 entries and ignores multihead_attn and norm3 (they may be NULL); the
 * decoder reads all 18. Every entry read must be non-NULL. Gradients come in an array of the same
 * layout; the backward ACCUMULATES (+=) into them and into dx (and dmemory): zero them first.
 * Upstream gradients (dout, datt, ...) may be NULL, meaning zero.
 *
 * Masks: uint8, 1 = ignore that key (PyTorch's boolean key_padding_mask). causal: query t sees
 * targets s <= t (the encoder's src_mask or the decoder's tgt_mask from
 * nn.Transformer.generate_square_subsequent_mask). A query row that sees no key gets zero
 * attention weights and a zero context, so its attention block outputs out_proj.bias (torch 1.13
 * gives NaN there).
 * Statuses: AL_ERR_ARGUMENT for a NULL array, H < 1, an activation other than AL_ACT_RELU or
 * AL_ACT_GELU, or eps not finite and > 0; AL_ERR_SHAPE for a size < 1 or E % H != 0;
 * AL_ERR_OVERFLOW past 2^31 elements; AL_ERR_NOMEM when scratch cannot be allocated.
 */
#ifndef AL_API_TRANSFORMER_LAYERS_H
#define AL_API_TRANSFORMER_LAYERS_H

#include "../attnlab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Indices into the params (and gradients) array, with the PyTorch state dict names and shapes. */
typedef enum {
    AL_TL_SELF_IN_PROJ_WEIGHT = 0,   /* self_attn.in_proj_weight       [3E,E] */
    AL_TL_SELF_IN_PROJ_BIAS = 1,     /* self_attn.in_proj_bias         [3E] */
    AL_TL_SELF_OUT_PROJ_WEIGHT = 2,  /* self_attn.out_proj.weight      [E,E] */
    AL_TL_SELF_OUT_PROJ_BIAS = 3,    /* self_attn.out_proj.bias        [E] */
    AL_TL_CROSS_IN_PROJ_WEIGHT = 4,  /* multihead_attn.in_proj_weight  [3E,E] (decoder) */
    AL_TL_CROSS_IN_PROJ_BIAS = 5,    /* multihead_attn.in_proj_bias    [3E]   (decoder) */
    AL_TL_CROSS_OUT_PROJ_WEIGHT = 6, /* multihead_attn.out_proj.weight [E,E]  (decoder) */
    AL_TL_CROSS_OUT_PROJ_BIAS = 7,   /* multihead_attn.out_proj.bias   [E]    (decoder) */
    AL_TL_LINEAR1_WEIGHT = 8,        /* linear1.weight                 [F,E] */
    AL_TL_LINEAR1_BIAS = 9,          /* linear1.bias                   [F] */
    AL_TL_LINEAR2_WEIGHT = 10,       /* linear2.weight                 [E,F] */
    AL_TL_LINEAR2_BIAS = 11,         /* linear2.bias                   [E] */
    AL_TL_NORM1_WEIGHT = 12,         /* norm1.weight                   [E] */
    AL_TL_NORM1_BIAS = 13,           /* norm1.bias                     [E] */
    AL_TL_NORM2_WEIGHT = 14,         /* norm2.weight                   [E] */
    AL_TL_NORM2_BIAS = 15,           /* norm2.bias                     [E] */
    AL_TL_NORM3_WEIGHT = 16,         /* norm3.weight                   [E]    (decoder) */
    AL_TL_NORM3_BIAS = 17,           /* norm3.bias                     [E]    (decoder) */
    AL_TL_NUM_PARAMS = 18
} al_tl_param;

/*
 * Encoder layer over B batch elements:
 *   out [B,T,E], att [B,H,T,T] (self-attention weights per head) or NULL, x [B,T,E],
 *   params [AL_TL_NUM_PARAMS] (encoder entries), F = dim_feedforward, H = nhead (E % H == 0),
 *   norm_first 0/1, activation AL_ACT_RELU or AL_ACT_GELU, causal 0/1,
 *   key_padding_mask [B,T] or NULL (src_key_padding_mask), eps > 0 (torch: 1e-5).
 */
al_status al_transformer_encoder_forward(float *out, float *att, const float *x,
                                         const float *const *params, int B, int T, int E, int F,
                                         int H, int norm_first, int activation, int causal,
                                         const uint8_t *key_padding_mask, float eps);
/* dx [B,T,E] +=, dparams[i] += for every encoder entry, from dout [B,T,E] and datt [B,H,T,T]. */
al_status al_transformer_encoder_backward(float *dx, float *const *dparams, const float *dout,
                                          const float *datt, const float *x,
                                          const float *const *params, int B, int T, int E, int F,
                                          int H, int norm_first, int activation, int causal,
                                          const uint8_t *key_padding_mask, float eps);

/*
 * Decoder layer over B batch elements:
 *   out [B,T,E], self_att [B,H,T,T] or NULL, cross_att [B,H,T,S] or NULL,
 *   x [B,T,E] (tgt), memory [B,S,E], params [AL_TL_NUM_PARAMS] (all 18),
 *   causal: the tgt_mask, tgt_key_padding_mask [B,T] or NULL, memory_key_padding_mask [B,S] or
 *   NULL; the rest as the encoder.
 */
al_status al_transformer_decoder_forward(float *out, float *self_att, float *cross_att,
                                         const float *x, const float *memory,
                                         const float *const *params, int B, int T, int S, int E,
                                         int F, int H, int norm_first, int activation, int causal,
                                         const uint8_t *tgt_key_padding_mask,
                                         const uint8_t *memory_key_padding_mask, float eps);
/* dx [B,T,E] +=, dmemory [B,S,E] +=, dparams[i] += (all 18), from dout [B,T,E],
 * dself_att [B,H,T,T] and dcross_att [B,H,T,S]. */
al_status al_transformer_decoder_backward(
    float *dx, float *dmemory, float *const *dparams, const float *dout, const float *dself_att,
    const float *dcross_att, const float *x, const float *memory, const float *const *params, int B,
    int T, int S, int E, int F, int H, int norm_first, int activation, int causal,
    const uint8_t *tgt_key_padding_mask, const uint8_t *memory_key_padding_mask, float eps);

#ifdef __cplusplus
}
#endif

#endif /* AL_API_TRANSFORMER_LAYERS_H */
