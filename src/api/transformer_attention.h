/*
 * api/transformer_attention.h: the transformer attention family of attnlab.h, validated.
 *
 *     // multi-head self-attention, torch.nn.MultiheadAttention(E=8, num_heads=2, batch_first=True)
 *     float x[5 * 8], w_in[24 * 8], b_in[24], w_out[8 * 8], b_out[8];   // from its state dict
 *     float out[5 * 8], att[2 * 5 * 5];
 *     al_status st = al_mha_forward(out, att, x, x, x, w_in, b_in, w_out, b_out,
 *                                   1, 5, 5, 8, 2, NULL, 0);
 *
 * Ops (maths and references in src/kernels/attention_transformer.h):
 *   al_sdpa_backward       the vjp of al_sdpa (Vaswani et al. 2017, eq. 1)
 *   al_mha_forward/backward  torch.nn.MultiheadAttention (batch_first, dropout 0, eval), per-head
 *                          weights (average_attn_weights=False)
 *   al_relpos_forward/backward  Shaw et al. 2018 relative position self-attention (eqs. 3-4);
 *                          the scale is 1/√(dz/H): the paper's dz read as the per-head size
 *   al_relpos_distances    the clipped relative distances clip(j − i, −k, k) that index the tables
 *
 * Conventions: row-major float32; weights [out, in] as nn.Linear; key_padding_mask uint8 [B, S],
 * 1 = ignore that key (shared by the heads); causal = query t sees keys s <= t (top-left). A query
 * row with no visible key gets zero weights and a zero context (torch 1.13 gives NaN there): the
 * SDPA and Shaw output row is 0; the MHA output row is out_proj(0) = out_proj.bias.
 * Backward functions ACCUMULATE (+=) into every gradient array (zero them first); the upstream
 * gradients dout and datt may be NULL (= 0). Gradient arrays for parameters the forward did not
 * take (NULL biases) may be NULL.
 * Statuses: AL_ERR_ARGUMENT for a NULL required array or a bad option (H < 1, a non-finite scale,
 * k < 0), AL_ERR_SHAPE for sizes < 1 or E (dz) not divisible by H, AL_ERR_OVERFLOW past 2^31
 * elements, AL_ERR_NOMEM when scratch cannot be allocated.
 */
#ifndef AL_API_TRANSFORMER_ATTENTION_H
#define AL_API_TRANSFORMER_ATTENTION_H

#include <stdint.h>

#include "../base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Backward of al_sdpa: same shapes and options (q [B,H,T,D], k [B,H,S,D], v [B,H,S,Dv],
 * scale 0 = 1/√D, key_padding_mask [B,S] or NULL, causal). dq/dk/dv (shapes of q/k/v) +=
 * from dout [B,H,T,Dv] and datt [B,H,T,S] (either NULL = 0). att [B,H,T,S]: the forward's
 * weights, or NULL to recompute them.
 */
al_status al_sdpa_backward(float *dq, float *dk, float *dv, const float *dout, const float *datt,
                           const float *att, const float *q, const float *k, const float *v, int B,
                           int H, int T, int S, int D, int Dv, float scale,
                           const uint8_t *key_padding_mask, int causal);

/*
 * Multi-head attention over B batch elements, E = embed dim, H = heads (E % H == 0):
 *   out [B,T,E], att [B,H,T,S] or NULL, query [B,T,E], key [B,S,E], value [B,S,E],
 *   in_proj_weight [3E,E] (q, k, v stacked), in_proj_bias [3E] or NULL,
 *   out_proj_weight [E,E], out_proj_bias [E] or NULL, key_padding_mask [B,S] or NULL.
 */
al_status al_mha_forward(float *out, float *att, const float *query, const float *key,
                         const float *value, const float *in_proj_weight, const float *in_proj_bias,
                         const float *out_proj_weight, const float *out_proj_bias, int B, int T,
                         int S, int E, int H, const uint8_t *key_padding_mask, int causal);
/* dquery/dkey/dvalue (input shapes), din_proj_weight [3E,E], din_proj_bias [3E],
 * dout_proj_weight [E,E], dout_proj_bias [E], all +=, from dout [B,T,E] and datt [B,H,T,S]. */
al_status al_mha_backward(float *dquery, float *dkey, float *dvalue, float *din_proj_weight,
                          float *din_proj_bias, float *dout_proj_weight, float *dout_proj_bias,
                          const float *dout, const float *datt, const float *query,
                          const float *key, const float *value, const float *in_proj_weight,
                          const float *in_proj_bias, const float *out_proj_weight,
                          const float *out_proj_bias, int B, int T, int S, int E, int H,
                          const uint8_t *key_padding_mask, int causal);

/*
 * Relative position self-attention (Shaw et al. 2018) over B batch elements:
 *   out [B,n,dz], att [B,H,n,n] or NULL, x [B,n,d], w_q/w_k/w_v [dz,d],
 *   rel_k/rel_v [2k+1, dz/H] shared by the heads, k >= 0 the clipping distance,
 *   key_padding_mask [B,n] or NULL. Scale 1/√(dz/H) per head.
 */
al_status al_relpos_forward(float *out, float *att, const float *x, const float *w_q,
                            const float *w_k, const float *w_v, const float *rel_k,
                            const float *rel_v, int B, int n, int d, int dz, int H, int k,
                            const uint8_t *key_padding_mask, int causal);
/* dx [B,n,d], dw_q/dw_k/dw_v [dz,d], drel_k/drel_v [2k+1,dz/H], all +=, from dout [B,n,dz] and
 * datt [B,H,n,n]. */
al_status al_relpos_backward(float *dx, float *dw_q, float *dw_k, float *dw_v, float *drel_k,
                             float *drel_v, const float *dout, const float *datt, const float *x,
                             const float *w_q, const float *w_k, const float *w_v,
                             const float *rel_k, const float *rel_v, int B, int n, int d, int dz,
                             int H, int k, const uint8_t *key_padding_mask, int causal);
/* dist [n,n] (int32) = clip(j − i, −k, k) for query i and key j; the table row is dist + k. */
al_status al_relpos_distances(int32_t *dist, int n, int k);

#ifdef __cplusplus
}
#endif

#endif /* AL_API_TRANSFORMER_ATTENTION_H */
