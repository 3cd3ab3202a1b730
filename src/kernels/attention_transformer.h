/*
 * attention_transformer.h: kernels of the transformer attention family, for ONE batch element.
 *
 *   - the backward of scaled dot-product attention (Vaswani et al. 2017, eq. 1), one head;
 *   - multi-head attention as torch.nn.MultiheadAttention (Vaswani et al. 2017, §3.2.2);
 *   - relative position self-attention (Shaw, Uszkoreit & Vaswani 2018, eqs. 3-4).
 *
 * Conventions are those of kernels.h: row-major float32, weights in nn.Linear layout [out, in],
 * uint8 key masks with 1 = ignore, causal = query t sees keys s <= t (top-left aligned), a row
 * with no visible key gets all-zero weights and a zero output. Backward passes ACCUMULATE (+=)
 * into every gradient buffer; zero them before the first call. Upstream gradients (dout, datt)
 * may be NULL, meaning zero.
 *
 * Kernels never allocate: each takes a caller-provided `scratch` whose size in floats is given
 * by the matching *_scratch_floats() function. Every O(T·S·D) product goes through the
 * dispatched al_sgemm, every softmax through al_softmax_forward/backward (SIMD twins in
 * kernels.h). The one op-specific O(n²) loop pair (the relative-position gather and bucket sum)
 * has _scalar/_simd128 twins, picked in attention_transformer.c; the rest is O(T·E) bookkeeping.
 *
 * Shape letters: T queries, S keys, D/Dv head dims, E embedding, H heads, n sequence length,
 * d input features, dz projected size (H·Dh), R = 2k+1 relative-position buckets.
 */
#ifndef AL_ATTENTION_TRANSFORMER_H
#define AL_ATTENTION_TRANSFORMER_H

#include <stdint.h>

#include "kernels.h"

/* ------------------------------------------------------------------ shared head pieces */

/* 1 when query row t sees no key: every key it may see (s < S, and s <= t when causal) is
 * masked. Never true without a mask. */
int al_attn_row_dead(int t, int S, const uint8_t *key_mask, int causal);

/*
 * One head, strided so heads can be column slices of [T, H·D] matrices:
 *   att [T,S] = softmax(scale · q kᵀ + mask),  ctx [T,Dv] (row stride ldc) = att v.
 * q [T,D] (ldq), k [S,D] (ldk), v [S,Dv] (ldv). att is required (contiguous).
 */
void al_attn_head_forward(float *ctx, int ldc, float *att, const float *q, int ldq, const float *k,
                          int ldk, const float *v, int ldv, int T, int S, int D, int Dv,
                          float scale, const uint8_t *key_mask, int causal);

/*
 * The vjp of al_attn_head_forward given its probabilities att [T,S]:
 *   dq [T,D] (lddq) +=, dk [S,D] (lddk) +=, dv [S,Dv] (lddv) +=
 * from dctx [T,Dv] (row stride ldo, or NULL) and datt [T,S] (contiguous, or NULL).
 * scratch: al_attn_head_backward_scratch_floats(T, S) floats.
 */
long al_attn_head_backward_scratch_floats(int T, int S);
void al_attn_head_backward(float *dq, int lddq, float *dk, int lddk, float *dv, int lddv,
                           const float *dctx, int ldo, const float *datt, const float *att,
                           const float *q, int ldq, const float *k, int ldk, const float *v,
                           int ldv, int T, int S, int D, int Dv, float scale, float *scratch);

/* ------------------------------------------------------------------ SDPA backward */

/*
 * Backward of al_sdpa_forward for one head (contiguous q [T,D], k [S,D], v [S,Dv]):
 *   dq +=, dk +=, dv += from dout [T,Dv] and datt [T,S] (either may be NULL).
 * att [T,S]: the forward's probabilities, or NULL to recompute them with al_sdpa_forward.
 * scratch: al_sdpa_backward_scratch_floats(T, S, Dv) floats.
 */
long al_sdpa_backward_scratch_floats(int T, int S, int Dv);
void al_sdpa_backward_kernel(float *dq, float *dk, float *dv, const float *dout, const float *datt,
                             const float *att, const float *q, const float *k, const float *v,
                             int T, int S, int D, int Dv, float scale, const uint8_t *key_mask,
                             int causal, float *scratch);

/* ------------------------------------------------------------------ multi-head attention */

/*
 * torch.nn.MultiheadAttention (batch_first, dropout 0, per-head weights), one batch element:
 *   Q = query W_qᵀ + b_q,  K = key W_kᵀ + b_k,  V = value W_vᵀ + b_v   (W_in = [W_q; W_k; W_v])
 *   head h (columns h·Dh .. h·Dh+Dh−1, Dh = E/H): att_h = softmax(Q_h K_hᵀ / √Dh + mask)
 *   ctx = [att_1 V_1, ..., att_H V_H],  out = ctx W_outᵀ + b_out
 * and a query row that sees no key gets att = 0 and out = 0 (torch gives NaN there).
 *   out [T,E], att [H,T,S] (required), query [T,E], key [S,E], value [S,E],
 *   w_in [3E,E], b_in [3E], w_out [E,E], b_out [E]; key_mask [S] or NULL.
 * scratch: al_attn_mha_scratch_floats(T, S, E) floats; on return it holds
 *   Q [T,E], K [S,E], V [S,E], ctx [T,E] in that order (the backward reads them).
 */
long al_attn_mha_scratch_floats(int T, int S, int E);
void al_attn_mha_forward(float *out, float *att, const float *query, const float *key,
                         const float *value, const float *w_in, const float *b_in,
                         const float *w_out, const float *b_out, int T, int S, int E, int H,
                         const uint8_t *key_mask, int causal, float *scratch);

/*
 * The vjp of al_attn_mha_forward (recomputes the forward into scratch):
 *   dquery [T,E], dkey [S,E], dvalue [S,E], dw_in [3E,E], db_in [3E], dw_out [E,E], db_out [E]
 *   all +=, from dout [T,E] and datt [H,T,S] (either may be NULL).
 * When query, key and value are one tensor, its gradient is dquery + dkey + dvalue (passing the
 * same buffer three times accumulates exactly that).
 * scratch: al_attn_mha_backward_scratch_floats(T, S, E, H) floats.
 */
long al_attn_mha_backward_scratch_floats(int T, int S, int E, int H);
void al_attn_mha_backward(float *dquery, float *dkey, float *dvalue, float *dw_in, float *db_in,
                          float *dw_out, float *db_out, const float *dout, const float *datt,
                          const float *query, const float *key, const float *value,
                          const float *w_in, const float *b_in, const float *w_out,
                          const float *b_out, int T, int S, int E, int H, const uint8_t *key_mask,
                          int causal, float *scratch);

/* ------------------------------------------------------------------ relative position (Shaw) */

/*
 * The relative-position bookkeeping of Shaw attention, r(i,j) = clip(j − i, −k, k) + k:
 *   gather_add:  m [n,n] += g [n,2k+1] gathered, m_ij += g[i, r(i,j)]
 *   bucket_sum:  b [n,2k+1] = Σ_{j: r(i,j) = r} m_ij (overwrites b; the transpose of the gather)
 * Twins: _scalar (commented) and _simd128 (4 lanes over the contiguous runs of j).
 */
void al_relpos_gather_add_scalar(float *m, const float *g, int n, int k);
void al_relpos_bucket_sum_scalar(float *b, const float *m, int n, int k);
#if AL_SIMD128
void al_relpos_gather_add_simd128(float *m, const float *g, int n, int k);
void al_relpos_bucket_sum_simd128(float *b, const float *m, int n, int k);
#endif
/* the variants picked in dispatch.c */
void al_relpos_gather_add(float *m, const float *g, int n, int k);
void al_relpos_bucket_sum(float *b, const float *m, int n, int k);

/* dist [n,n] = clip(j − i, −k, k) for query i, key j (int32). */
void al_attn_relpos_distances(int32_t *dist, int n, int k);

/*
 * Self-attention with relative position representations (Shaw et al. 2018), one batch element:
 *   Q = x W_Qᵀ, K = x W_Kᵀ, V = x W_Vᵀ  [n,dz];  head h uses columns h·Dh .. h·Dh+Dh−1, Dh = dz/H
 *   e_ij = q_i · (k_j + a^K_ij) / √Dh                                       (eq. 4)
 *   α_i  = softmax_j(e_ij + mask)
 *   z_i  = Σ_j α_ij (v_j + a^V_ij)                                           (eq. 3)
 *   a^K_ij = rel_K[clip(j − i, −k, k) + k], a^V_ij likewise: tables shared by every head.
 * The scale uses the per-head size Dh (the paper's dz is the per-head size; with H = 1 it is
 * 1/√dz). Output heads are concatenated, no output projection.
 *   out [n,dz], att [H,n,n] (required), x [n,d], w_q/w_k/w_v [dz,d], rel_k/rel_v [2k+1, Dh],
 *   key_mask [n] or NULL.
 * scratch: al_attn_relpos_scratch_floats(n, dz, k) floats; on return it starts with
 *   Q [n,dz], K [n,dz], V [n,dz].
 */
long al_attn_relpos_scratch_floats(int n, int dz, int k);
void al_attn_relpos_forward(float *out, float *att, const float *x, const float *w_q,
                            const float *w_k, const float *w_v, const float *rel_k,
                            const float *rel_v, int n, int d, int dz, int H, int k,
                            const uint8_t *key_mask, int causal, float *scratch);

/*
 * The vjp of al_attn_relpos_forward (recomputes the forward into scratch):
 *   dx [n,d], dw_q/dw_k/dw_v [dz,d], drel_k/drel_v [2k+1,Dh], all +=,
 * from dout [n,dz] and datt [H,n,n] (either may be NULL).
 * scratch: al_attn_relpos_backward_scratch_floats(n, dz, H, k) floats.
 */
long al_attn_relpos_backward_scratch_floats(int n, int dz, int H, int k);
void al_attn_relpos_backward(float *dx, float *dw_q, float *dw_k, float *dw_v, float *drel_k,
                             float *drel_v, const float *dout, const float *datt, const float *x,
                             const float *w_q, const float *w_k, const float *w_v,
                             const float *rel_k, const float *rel_v, int n, int d, int dz, int H,
                             int k, const uint8_t *key_mask, int causal, float *scratch);

#endif /* AL_ATTENTION_TRANSFORMER_H */
