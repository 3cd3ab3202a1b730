/*
 * transformer_layers_packed.h: the transformer encoder and decoder layers of
 * transformer_layers.h over a whole BATCH of sequences of different lengths, packed as rows, with
 * every activation the backward needs kept from the forward (no recomputation).
 *
 * The maths is exactly transformer_layers.h's (post-norm or pre-norm, relu or gelu, causal or
 * not, Shaw relative positions in the self-attention): one layer applied to each sequence on its
 * own. What differs is the layout and the work:
 *
 *   - sequence b is rows off[b] .. off[b]+len[b]−1 of every [N, ·] array (N = Σ len[b]): no
 *     padding, no mask;
 *   - every position-wise product (the in-projection Q|K|V, the out-projection, linear1,
 *     linear2, the cross-attention's keys and values of the whole memory) and every layer norm
 *     runs once over all N rows: one al_sgemm of N rows instead of B of len[b] rows;
 *   - only the attention core (scores, softmax, context; per head) is per sequence, over its own
 *     length: the self-attention of sequence b over its own rows (causal when cfg->causal), the
 *     cross-attention of sequence b over ITS memory rows (mem sequence b);
 *   - al_tlp_forward leaves Q, K, V, the attention weights, the contexts, linear1's output and
 *     its activation, the norms' inputs, means and rstd in an al_tlp_saves; al_tlp_backward reads
 *     them instead of running the forward again.
 *
 * Relative positions (cfg->rel_k = k >= 1): q, k, v = x W_inᵀ + b_in as for plain attention
 * (the per-sequence kernel of attention_transformer.h folds the bias in as a constant-1 input;
 * the same values up to float rounding), then per head e_ij = q_i·(k_j + a^K_r)/√Dh,
 * z_i = Σ_j α_ij (v_j + a^V_r), r = clip(j−i,−k,k)+k, with the relpos gather and bucket sum of
 * attention_transformer.h.
 *
 * Conventions of transformer_layers.h: row-major float32, weights [out, in] as nn.Linear,
 * backward ACCUMULATES (+=) into dx, dmem and every parameter gradient. Kernels never allocate:
 * the saves and the scratch are caller memory of the sizes given below.
 *
 * Shape letters: N packed query rows, Ns packed memory rows, E model size, F feed-forward size,
 * H heads, Dh = E/H, R = 2k+1 relative buckets.
 */
#ifndef AL_TRANSFORMER_LAYERS_PACKED_H
#define AL_TRANSFORMER_LAYERS_PACKED_H

#include <stdint.h>

#include "transformer_layers.h"

/* B sequences packed as rows: sequence b is rows off[b] .. off[b]+len[b]−1 (len[b] >= 1). */
typedef struct al_tlp_seqs {
    int B;
    const int32_t *len; /* [B] */
    const int32_t *off; /* [B] */
    int N;              /* Σ len[b] */
} al_tlp_seqs;

/* One layer's kept forward activations (decoder-only fields NULL for an encoder layer). */
typedef struct al_tlp_saves {
    float *z[3];    /* [N,E] per block (SA, CA, FF): post-norm in + f(in), pre-norm LN(in) */
    float *mean[3]; /* [N] per block, of its norm */
    float *rstd[3]; /* [N] */
    float *xs[2];   /* [N,E] the outputs of the blocks before the last */
    float *qkv;     /* [N,3E] self-attention Q | K | V */
    float *satt;    /* [H, len[b], len[b]] per sequence, one after the other */
    float *sctx;    /* [N,E] self-attention heads' concatenated context */
    float *cq;      /* [N,E] cross-attention queries */
    float *ckv;     /* [Ns,2E] cross-attention K | V of the whole memory */
    float *catt;    /* [H, len[b], mlen[b]] per sequence, one after the other */
    float *cctx;    /* [N,E] */
    float *u, *act; /* [N,F] linear1's output and its activation */
} al_tlp_saves;

/* Floats of one layer's saves (mem NULL: an encoder layer), and carving them from s. */
double al_tlp_saves_floats(const al_tlp_seqs *x, const al_tlp_seqs *mem, int E, int F, int H);
al_tlp_saves al_tlp_saves_carve(float *s, const al_tlp_seqs *x, const al_tlp_seqs *mem, int E,
                                int F, int H);

/* Floats of the scratch al_tlp_forward and al_tlp_backward share (one buffer serves every layer
 * of a stack; k = cfg->rel_k). */
double al_tlp_scratch_floats(const al_tlp_seqs *x, const al_tlp_seqs *mem, int E, int F, int H,
                             int k);

/*
 * One layer over the packed batch: out [N,E] from x [N,E] (and, decoder, mem [Ns,E] with its
 * sequences ms: sequence b of x attends to sequence b of mem). Keeps the activations in *v
 * (carved for the same x, mem). ms and mem NULL: an encoder layer.
 */
void al_tlp_forward(float *out, const al_tlp_saves *v, const float *x, const float *mem,
                    const al_tlp_seqs *xs, const al_tlp_seqs *ms, const al_tl_weights *w, int E,
                    int F, int H, const al_tl_config *cfg, float *scratch);

/*
 * Its vjp from the kept activations: dx [N,E] +=, dmem [Ns,E] += (decoder), every gradient of g
 * += (the encoder leaves ca_* and n3_* untouched), from dout [N,E] (read only). x, mem: the
 * forward's inputs (still needed: the post-norm sublayers read them).
 */
void al_tlp_backward(float *dx, float *dmem, const al_tl_grads *g, const float *dout,
                     const float *x, const float *mem, const al_tlp_seqs *xs, const al_tlp_seqs *ms,
                     const al_tlp_saves *v, const al_tl_weights *w, int E, int F, int H,
                     const al_tl_config *cfg, float *scratch);

/*
 * The attention core per sequence and head (transformer_attention_packed.c), used by the layers:
 *   ctx [N,E] (row stride E) = for each sequence b and head h, softmax(scale·Q_h K_hᵀ (+ the
 *   relative term) + causal mask) V_h (+ the relative values), over the rows of sequence b of q
 *   (row stride ldq) and of sequence b of ks in k, v (row stride ldk);
 *   att: [H, qlen, klen] per sequence, consecutive. rel_k/rel_v [2k+1, Dh] when k >= 1 (self-
 *   attention: ks == qs). scratch: al_tlp_attend_scratch_floats(qs, ks, k).
 * The backward: dq, dk, dv (same strides as q, k, v) +=, drel_k, drel_v += from dctx [N,E]
 * (read only) and the kept att; scratch as the forward's.
 */
double al_tlp_attend_scratch_floats(const al_tlp_seqs *qs, const al_tlp_seqs *ks, int k);
void al_tlp_attend_forward(float *ctx, float *att, const float *q, int ldq, const float *k,
                           const float *v, int ldk, const al_tlp_seqs *qs, const al_tlp_seqs *ks,
                           int E, int H, int causal, const float *rel_k, const float *rel_v, int rk,
                           float *scratch);
void al_tlp_attend_backward(float *dq, float *dk, float *dv, float *drel_k, float *drel_v,
                            const float *dctx, const float *att, const float *q, int ldq,
                            const float *k, const float *v, int ldk, const al_tlp_seqs *qs,
                            const al_tlp_seqs *ks, int E, int H, int causal, const float *rel_k,
                            const float *rel_v, int rk, float *scratch);

#endif /* AL_TRANSFORMER_LAYERS_PACKED_H */
