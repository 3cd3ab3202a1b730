/*
 * transformer_layers.h: one transformer encoder or decoder layer, for ONE batch element, as
 * torch.nn.TransformerEncoderLayer / nn.TransformerDecoderLayer (batch_first, dropout 0, eval).
 *
 * Vaswani et al. 2017, §3.1 (post-norm, "LayerNorm(x + Sublayer(x))"), and the pre-norm variant
 * (norm_first, Xiong et al. 2020): with SA = self-attention, MHA = attention over the memory,
 * FF(x) = linear2(act(linear1(x))), act = relu or exact gelu,
 *
 *   encoder, post-norm:  x = norm1(x + SA(x));        x = norm2(x + FF(x))
 *   encoder, pre-norm:   x = x + SA(norm1(x));        x = x + FF(norm2(x))
 *   decoder, post-norm:  x = norm1(x + SA(x));  x = norm2(x + MHA(x, mem));  x = norm3(x + FF(x))
 *   decoder, pre-norm:   x = x + SA(norm1(x));  x = x + MHA(norm2(x), mem);  x = x + FF(norm3(x))
 *
 * Nothing new is computed here: attention is al_attn_mha_forward/backward
 * (attention_transformer.h), the norms al_layernorm_*, the activations al_relu_*, al_gelu_*, the
 * linears al_sgemm (kernels.h), so the SIMD build runs their SIMD twins; this file only chains
 * them and keeps the activations the backward needs. It does not validate, allocate or batch
 * (src/api/transformer_layers.c does).
 *
 * Conventions of kernels.h: row-major float32, weights [out, in] as nn.Linear, key masks uint8
 * with 1 = ignore, causal = query t sees keys s <= t, a query row that sees no key gets zero
 * weights and a zero context (so the attention block outputs out_proj.bias there; torch 1.13
 * gives NaN). Backward ACCUMULATES (+=) into dx, dmem and every parameter gradient.
 *
 * Relative positions (Shaw, Uszkoreit & Vaswani 2018, eqs. 3-4), cfg->rel_k = k >= 1: the
 * self-attention block SA becomes nn.MultiheadAttention with learned relative key and value
 * tables a^K, a^V [2k+1, E/H] shared by the heads (cross-attention is unchanged):
 *   q, k, v = x W_inᵀ + b_in;  e_ij = q_i·(k_j + a^K[clip(j−i,−k,k)+k]) / √(E/H) per head;
 *   z_i = Σ_j α_ij (v_j + a^V[clip(j−i,−k,k)+k]);  SA(x) = z W_outᵀ + b_out.
 * It runs the relative-position kernel al_attn_relpos_forward/backward (attention_transformer.h),
 * whose projections have no bias: the in-projection bias is its weight on a constant-1 input,
 * so the kernel gets x' = [x, 1] [T,E+1] and W' = [W_in | b_in] [3E,E+1] (copied into scratch)
 * and computes exactly q = x W_qᵀ + b_q etc.; dW' splits back into dW_in and db_in.
 *
 * Shape letters: T target length, S memory length, E model size, F feed-forward size, H heads.
 */
#ifndef AL_TRANSFORMER_LAYERS_H
#define AL_TRANSFORMER_LAYERS_H

#include <stdint.h>

#include "kernels.h"

/* The parameters of a layer, named as in the PyTorch state dict. The encoder reads only sa_*,
 * l1_*, l2_*, n1_*, n2_*; the decoder reads all of them. Every pointer is non-NULL when read. */
typedef struct al_tl_weights {
    const float *sa_in_w;  /* [3E,E] self_attn.in_proj_weight */
    const float *sa_in_b;  /* [3E]   self_attn.in_proj_bias */
    const float *sa_out_w; /* [E,E]  self_attn.out_proj.weight */
    const float *sa_out_b; /* [E]    self_attn.out_proj.bias */
    const float *ca_in_w;  /* [3E,E] multihead_attn.in_proj_weight (decoder) */
    const float *ca_in_b;  /* [3E]   multihead_attn.in_proj_bias */
    const float *ca_out_w; /* [E,E]  multihead_attn.out_proj.weight */
    const float *ca_out_b; /* [E]    multihead_attn.out_proj.bias */
    const float *l1_w;     /* [F,E]  linear1.weight */
    const float *l1_b;     /* [F]    linear1.bias */
    const float *l2_w;     /* [E,F]  linear2.weight */
    const float *l2_b;     /* [E]    linear2.bias */
    const float *n1_w, *n1_b, *n2_w, *n2_b, *n3_w, *n3_b; /* [E] norm1/2/3 weight, bias */
    const float *sa_rel_k; /* [2k+1,E/H] self_attn.relative_key.weight (read when cfg->rel_k) */
    const float *sa_rel_v; /* [2k+1,E/H] self_attn.relative_value.weight */
} al_tl_weights;

/* Their gradients, same names and shapes (+=). */
typedef struct al_tl_grads {
    float *sa_in_w, *sa_in_b, *sa_out_w, *sa_out_b;
    float *ca_in_w, *ca_in_b, *ca_out_w, *ca_out_b;
    float *l1_w, *l1_b, *l2_w, *l2_b;
    float *n1_w, *n1_b, *n2_w, *n2_b, *n3_w, *n3_b;
    float *sa_rel_k, *sa_rel_v; /* written when cfg->rel_k */
} al_tl_grads;

/* Options shared by both layers. */
typedef struct al_tl_config {
    int norm_first; /* 1: pre-norm, 0: post-norm (torch's default) */
    int gelu;       /* 1: exact gelu, 0: relu */
    int causal;     /* self-attention only: query t sees targets s <= t (tgt_mask / src_mask) */
    float eps;      /* layer norm epsilon (torch: 1e-5) */
    int rel_k;      /* 0: plain self-attention; k >= 1: Shaw relative positions clipped at k */
} al_tl_config;

/* Extra scratch floats when cfg->rel_k = k >= 1 (0 for k = 0), on top of
 * al_tl_forward_scratch_floats / al_tl_backward_scratch_floats. */
long al_tl_relative_scratch_floats(int T, int E, int H, int k);

/*
 * Encoder layer (decoder when mem != NULL), one batch element:
 *   out [T,E]; self_att [H,T,T] (required); x [T,E];
 *   mem [S,E] or NULL (encoder); cross_att [H,T,S] (required with mem);
 *   self_mask [T] or NULL (key padding of x), mem_mask [S] or NULL (key padding of mem).
 * S is ignored when mem is NULL. scratch: al_tl_forward_scratch_floats(T, S, E, F, dec) floats,
 * dec = 1 for the decoder (+ al_tl_relative_scratch_floats(T, E, H, cfg->rel_k)).
 */
long al_tl_forward_scratch_floats(int T, int S, int E, int F, int dec);
void al_tl_forward(float *out, float *self_att, float *cross_att, const float *x, const float *mem,
                   const al_tl_weights *w, int T, int S, int E, int F, int H,
                   const al_tl_config *cfg, const uint8_t *self_mask, const uint8_t *mem_mask,
                   float *scratch);

/*
 * The vjp of al_tl_forward (recomputes the forward into scratch):
 *   dx [T,E] +=, dmem [S,E] += (decoder; NULL for the encoder), every gradient in g +=
 *   (the encoder leaves ca_* and n3_* untouched; they may be NULL),
 * from dout [T,E], dself_att [H,T,T], dcross_att [H,T,S] (each may be NULL = 0).
 * scratch: al_tl_backward_scratch_floats(T, S, E, F, H, dec) floats
 * (+ al_tl_relative_scratch_floats(T, E, H, cfg->rel_k)).
 */
long al_tl_backward_scratch_floats(int T, int S, int E, int F, int H, int dec);
void al_tl_backward(float *dx, float *dmem, const al_tl_grads *g, const float *dout,
                    const float *dself_att, const float *dcross_att, const float *x,
                    const float *mem, const al_tl_weights *w, int T, int S, int E, int F, int H,
                    const al_tl_config *cfg, const uint8_t *self_mask, const uint8_t *mem_mask,
                    float *scratch);

#endif /* AL_TRANSFORMER_LAYERS_H */
