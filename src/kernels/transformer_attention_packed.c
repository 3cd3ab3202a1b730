/*
 * transformer_attention_packed.c: the attention core of the packed transformer layers
 * (transformer_layers_packed.h): per sequence of the batch and per head, the scores, softmax and
 * context over that sequence's own rows, from Q, K, V that the layer projected once for the
 * whole batch; and its vjp from the kept weights. Plain heads are al_attn_head_forward/backward
 * (attention_transformer.h) on strided slices; relative heads (Shaw et al. 2018) repeat
 * al_attn_relpos_forward/backward's per-head lines on strided slices (that kernel projects its
 * own Q, K, V, which here are already there). Every product is al_sgemm, every softmax
 * al_softmax_*, the bucket loops al_relpos_*: the SIMD build runs their twins.
 */
#include <math.h>
#include <string.h>

#include "transformer_layers_packed.h"
#include "attention_transformer.h"

static int imax(int a, int b) { return a > b ? a : b; }

/* The longest sequence of s. */
static int longest(const al_tlp_seqs *s)
{
    int n = 0;
    for (int b = 0; b < s->B; b++) n = imax(n, s->len[b]);
    return n;
}

double al_tlp_attend_scratch_floats(const al_tlp_seqs *qs, const al_tlp_seqs *ks, int k)
{
    const double T = longest(qs), S = longest(ks), R = k > 0 ? 2 * k + 1 : 0;
    return T * S + S + T + T * R; /* dP [T,S], a softmax row [S], the bucket buffer [T,R] */
}

/* att [T,S] holds scores: softmax over each row's visible keys (s <= t when causal; the rest 0). */
static void softmax_rows(float *att, int T, int S, int causal)
{
    if (!causal) {
        al_softmax_forward(att, att, NULL, 0, T, S);
        return;
    }
    for (int t = 0; t < T; t++) {
        float *at = att + (long)t * S;
        const int Sv = t + 1 < S ? t + 1 : S;
        al_softmax_forward(at, at, NULL, 0, 1, Sv);
        for (int s = Sv; s < S; s++) at[s] = 0.0f;
    }
}

/* dP [T,S] = the softmax vjp of att given dP, in place (row: an [S] buffer) */
static void softmax_backward_inplace(float *dP, const float *att, int T, int S, float *row)
{
    for (int t = 0; t < T; t++) {
        memset(row, 0, sizeof(float) * (size_t)S);
        /* att = softmax(e): de = att ⊙ (dP − Σ dP·att) */
        al_softmax_backward(row, att + (long)t * S, dP + (long)t * S, 1, S);
        memcpy(dP + (long)t * S, row, sizeof(float) * (size_t)S);
    }
}

/* One relative head over n rows (al_attn_relpos_forward's loop body): zh [n,Dh] (stride E),
 * a [n,n], from qh, kh, vh [n,Dh] (stride ld); buck [n,R]. */
static void rel_head_forward(float *zh, int E, float *a, const float *qh, const float *kh,
                             const float *vh, int ld, const float *rel_k, const float *rel_v, int n,
                             int Dh, int k, float scale, int causal, float *buck)
{
    const int R = 2 * k + 1;
    /* e_ij = scale · q_i·k_j + scale · q_i·a^K_ij: the second term is (Q_h rel_Kᵀ)[i, r(i,j)] */
    al_sgemm(0, 1, n, n, Dh, scale, qh, ld, kh, ld, 0.0f, a, n);
    al_sgemm(0, 1, n, R, Dh, scale, qh, ld, rel_k, Dh, 0.0f, buck, R);
    al_relpos_gather_add(a, buck, n, k);
    /* α = softmax(e + causal mask) */
    softmax_rows(a, n, n, causal);
    /* z_i = Σ_j α_ij v_j + Σ_r (Σ_{j: r(i,j)=r} α_ij) a^V_r */
    al_sgemm(0, 0, n, Dh, n, 1.0f, a, n, vh, ld, 0.0f, zh, E);
    al_relpos_bucket_sum(buck, a, n, k);
    al_sgemm(0, 0, n, Dh, R, 1.0f, buck, R, rel_v, Dh, 1.0f, zh, E);
}

/* Its vjp (al_attn_relpos_backward's loop body) from the kept α: dqh, dkh, dvh (stride ld) +=,
 * drel_k, drel_v += from dzh (stride E). dP [n,n], row [n], buck [n,R]. */
static void rel_head_backward(float *dqh, float *dkh, float *dvh, float *drel_k, float *drel_v,
                              const float *dzh, int E, const float *a, const float *qh,
                              const float *kh, const float *vh, int ld, const float *rel_k,
                              const float *rel_v, int n, int Dh, int k, float scale, float *dP,
                              float *row, float *buck)
{
    const int R = 2 * k + 1;
    /* z_i = Σ_j α_ij v_j  →  dα_ij = dz_i·v_j,  dV_h += αᵀ dz_h */
    al_sgemm(0, 1, n, n, Dh, 1.0f, dzh, E, vh, ld, 0.0f, dP, n);
    al_sgemm(1, 0, n, Dh, n, 1.0f, a, n, dzh, E, 1.0f, dvh, ld);
    /* z_i += Σ_j α_ij a^V_r(i,j)  →  dα_ij += (dz_h rel_Vᵀ)[i, r(i,j)] */
    al_sgemm(0, 1, n, R, Dh, 1.0f, dzh, E, rel_v, Dh, 0.0f, buck, R);
    al_relpos_gather_add(dP, buck, n, k);
    /* ... and drel_V += bucket(α)ᵀ dz_h */
    al_relpos_bucket_sum(buck, a, n, k);
    al_sgemm(1, 0, R, Dh, n, 1.0f, buck, R, dzh, E, 1.0f, drel_v, Dh);
    /* α = softmax(e + mask)  →  de */
    softmax_backward_inplace(dP, a, n, n, row);
    /* e_ij = scale · q_i·k_j  →  dQ_h += scale · de K_h,  dK_h += scale · deᵀ Q_h */
    al_sgemm(0, 0, n, Dh, n, scale, dP, n, kh, ld, 1.0f, dqh, ld);
    al_sgemm(1, 0, n, Dh, n, scale, dP, n, qh, ld, 1.0f, dkh, ld);
    /* e_ij += scale · q_i·a^K_r(i,j)  →  dQR = bucket(de):
     * dQ_h += scale · dQR rel_K,  drel_K += scale · dQRᵀ Q_h */
    al_relpos_bucket_sum(buck, dP, n, k);
    al_sgemm(0, 0, n, Dh, R, scale, buck, R, rel_k, Dh, 1.0f, dqh, ld);
    al_sgemm(1, 0, R, Dh, n, scale, buck, R, qh, ld, 1.0f, drel_k, Dh);
}

void al_tlp_attend_forward(float *ctx, float *att, const float *q, int ldq, const float *k,
                           const float *v, int ldk, const al_tlp_seqs *qs, const al_tlp_seqs *ks,
                           int E, int H, int causal, const float *rel_k, const float *rel_v, int rk,
                           float *scratch)
{
    const int Dh = E / H;
    const float scale = 1.0f / sqrtf((float)Dh);
    float *a = att;
    for (int b = 0; b < qs->B; b++) {
        const int T = qs->len[b], S = ks->len[b];
        const long qo = qs->off[b], ko = ks->off[b];
        for (int h = 0; h < H; h++, a += (long)T * S) {
            const float *qh = q + qo * ldq + h * Dh;
            const float *kh = k + ko * ldk + h * Dh, *vh = v + ko * ldk + h * Dh;
            float *ch = ctx + qo * E + h * Dh;
            if (rk > 0) /* self-attention: ldq == ldk, T == S */
                rel_head_forward(ch, E, a, qh, kh, vh, ldk, rel_k, rel_v, T, Dh, rk, scale, causal,
                                 scratch);
            else /* ctx_h = softmax(Q_h K_hᵀ / √Dh + causal mask) V_h */
                al_attn_head_forward(ch, E, a, qh, ldq, kh, ldk, vh, ldk, T, S, Dh, Dh, scale, NULL,
                                     causal);
        }
    }
}

void al_tlp_attend_backward(float *dq, float *dk, float *dv, float *drel_k, float *drel_v,
                            const float *dctx, const float *att, const float *q, int ldq,
                            const float *k, const float *v, int ldk, const al_tlp_seqs *qs,
                            const al_tlp_seqs *ks, int E, int H, int causal, const float *rel_k,
                            const float *rel_v, int rk, float *scratch)
{
    const int Dh = E / H;
    const float scale = 1.0f / sqrtf((float)Dh);
    const int T_max = longest(qs), S_max = longest(ks);
    float *dP = scratch, *row = dP + (long)T_max * S_max, *buck = row + S_max + T_max;
    const float *a = att;
    (void)causal; /* the kept weights are already 0 past the causal limit */
    for (int b = 0; b < qs->B; b++) {
        const int T = qs->len[b], S = ks->len[b];
        const long qo = qs->off[b], ko = ks->off[b];
        for (int h = 0; h < H; h++, a += (long)T * S) {
            const long qh = qo * ldq + h * Dh, kh = ko * ldk + h * Dh;
            const float *dch = dctx + qo * E + h * Dh;
            if (rk > 0)
                rel_head_backward(dq + qh, dk + kh, dv + kh, drel_k, drel_v, dch, E, a, q + qh,
                                  k + kh, v + kh, ldk, rel_k, rel_v, T, Dh, rk, scale, dP, row,
                                  buck);
            else /* ctx_h = softmax(Q_h K_hᵀ / √Dh + mask) V_h  →  dQ_h, dK_h, dV_h += */
                al_attn_head_backward(dq + qh, ldq, dk + kh, ldk, dv + kh, ldk, dch, E, NULL, a,
                                      q + qh, ldq, k + kh, ldk, v + kh, ldk, T, S, Dh, Dh, scale,
                                      scratch);
        }
    }
}
