/*
 * attention_transformer.c: the transformer attention family on one batch element: the SDPA
 * backward, multi-head attention (torch.nn.MultiheadAttention) and Shaw et al.'s relative
 * position self-attention, forward and backward. The maths is in the header; here each backward
 * line quotes the forward line it differentiates.
 *
 * Every matrix product is an al_sgemm call and every softmax an al_softmax_forward/backward call,
 * so the SIMD128 build runs the SIMD twins of kernels.h. The one op-specific O(n²) loop pair, the
 * relative-position gather and bucket sum, has a _scalar twin here and a _simd128 twin in
 * attention_transformer_simd128.c; bias adds and masks stay plain loops (O(T·E), O(T·S)).
 * Deliberately not here: batching, argument checks and allocation (src/api/transformer_attention.c).
 */
#include <math.h>
#include <string.h>

#include "attention_transformer.h"

/* Keep each kernel out of line: -O3 would otherwise inline the forwards into the backwards and
 * the head kernels into every caller, copying the same code several times into the .wasm. */
#if defined(__GNUC__) || defined(__clang__)
#define AL_NOINLINE __attribute__((noinline))
#else
#define AL_NOINLINE
#endif

/* Keys row t may see: [0, S) or, when causal, [0, min(S, t+1)). */
static int visible_keys(int t, int S, int causal) { return causal ? (t + 1 < S ? t + 1 : S) : S; }

AL_NOINLINE int al_attn_row_dead(int t, int S, const uint8_t *key_mask, int causal)
{
    if (!key_mask) return 0;
    int Sv = visible_keys(t, S, causal);
    for (int s = 0; s < Sv; s++)
        if (!key_mask[s]) return 0;
    return 1;
}

/* att [T,S] holds scores; turn each row into probabilities over its visible unmasked keys.
 * Keys past the causal limit get 0, a row with nothing visible is all zeros. */
AL_NOINLINE static void masked_softmax_rows(float *att, int T, int S, const uint8_t *key_mask,
                                            int causal)
{
    if (!causal) {
        al_softmax_forward(att, att, key_mask, 0, T, S);
        return;
    }
    for (int t = 0; t < T; t++) {
        float *at = att + (long)t * S;
        int Sv = visible_keys(t, S, causal);
        al_softmax_forward(at, at, key_mask, 0, 1, Sv);
        for (int s = Sv; s < S; s++) at[s] = 0.0f;
    }
}

/* y [R,C] (row stride ldy) += bias [C] on every row */
AL_NOINLINE static void add_bias_rows(float *y, int ldy, const float *bias, int R, int C)
{
    al_bias_add_forward(y, ldy, bias, NULL, R, C);
}

/* db [C] += Σ_r dy [R,C] (row stride ldy): the vjp of add_bias_rows */
AL_NOINLINE static void sum_rows(float *db, const float *dy, int ldy, int R, int C)
{
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) db[c] += dy[(long)r * ldy + c];
}

/* ------------------------------------------------------------------ one head */

AL_NOINLINE void al_attn_head_forward(float *ctx, int ldc, float *att, const float *q, int ldq,
                                      const float *k, int ldk, const float *v, int ldv, int T,
                                      int S, int D, int Dv, float scale, const uint8_t *key_mask,
                                      int causal)
{
    /* e = scale · q kᵀ */
    al_sgemm(0, 1, T, S, D, scale, q, ldq, k, ldk, 0.0f, att, S);
    /* att = softmax(e + mask) */
    masked_softmax_rows(att, T, S, key_mask, causal);
    /* ctx = att v */
    al_sgemm(0, 0, T, Dv, S, 1.0f, att, S, v, ldv, 0.0f, ctx, ldc);
}

long al_attn_head_backward_scratch_floats(int T, int S) { return (long)T * S + S; }

/* dE [T,S] = softmax vjp of att given dP [T,S], in place in dP (row is an [S] buffer) */
AL_NOINLINE static void softmax_backward_inplace(float *dP, const float *att, int T, int S,
                                                 float *row)
{
    for (int t = 0; t < T; t++) {
        memset(row, 0, sizeof(float) * (size_t)S);
        /* att = softmax(e): de = att ⊙ (dP − Σ dP·att) */
        al_softmax_backward(row, att + (long)t * S, dP + (long)t * S, 1, S);
        memcpy(dP + (long)t * S, row, sizeof(float) * (size_t)S);
    }
}

AL_NOINLINE void al_attn_head_backward(float *dq, int lddq, float *dk, int lddk, float *dv,
                                       int lddv, const float *dctx, int ldo, const float *datt,
                                       const float *att, const float *q, int ldq, const float *k,
                                       int ldk, const float *v, int ldv, int T, int S, int D,
                                       int Dv, float scale, float *scratch)
{
    float *dP = scratch;                /* [T,S] d att, then d e */
    float *row = scratch + (long)T * S; /* [S] */
    if (dctx) {
        /* ctx = att v  →  d att = dctx vᵀ,  dv += attᵀ dctx */
        al_sgemm(0, 1, T, S, Dv, 1.0f, dctx, ldo, v, ldv, 0.0f, dP, S);
        al_sgemm(1, 0, S, Dv, T, 1.0f, att, S, dctx, ldo, 1.0f, dv, lddv);
    } else {
        memset(dP, 0, sizeof(float) * (size_t)T * S);
    }
    /* the weights are an output too: d att += datt */
    if (datt)
        for (long i = 0; i < (long)T * S; i++) dP[i] += datt[i];
    /* att = softmax(e + mask)  →  de (masked and dead entries have att = 0, so de = 0) */
    softmax_backward_inplace(dP, att, T, S, row);
    /* e = scale · q kᵀ  →  dq += scale · de k,  dk += scale · deᵀ q */
    al_sgemm(0, 0, T, D, S, scale, dP, S, k, ldk, 1.0f, dq, lddq);
    al_sgemm(1, 0, S, D, T, scale, dP, S, q, ldq, 1.0f, dk, lddk);
}

/* ------------------------------------------------------------------ SDPA backward */

long al_sdpa_backward_scratch_floats(int T, int S, int Dv)
{
    /* att [T,S] + out [T,Dv] (recompute) + the head backward's */
    return (long)T * S + (long)T * Dv + al_attn_head_backward_scratch_floats(T, S);
}

AL_NOINLINE void al_sdpa_backward_kernel(float *dq, float *dk, float *dv, const float *dout,
                                         const float *datt, const float *att, const float *q,
                                         const float *k, const float *v, int T, int S, int D,
                                         int Dv, float scale, const uint8_t *key_mask, int causal,
                                         float *scratch)
{
    float *att_r = scratch;             /* [T,S] */
    float *out_r = att_r + (long)T * S; /* [T,Dv] */
    float *rest = out_r + (long)T * Dv;
    if (!att) {
        /* recompute the probabilities with the forward kernel itself */
        al_sdpa_forward(out_r, att_r, q, k, v, T, S, D, Dv, scale, key_mask, causal);
        att = att_r;
    }
    al_attn_head_backward(dq, D, dk, D, dv, Dv, dout, Dv, datt, att, q, D, k, D, v, Dv, T, S, D, Dv,
                          scale, rest);
}

/* ------------------------------------------------------------------ multi-head attention */

long al_attn_mha_scratch_floats(int T, int S, int E)
{
    return (2L * T + 2L * S) * E; /* Q, K, V, ctx */
}

AL_NOINLINE void al_attn_mha_forward(float *out, float *att, const float *query, const float *key,
                                     const float *value, const float *w_in, const float *b_in,
                                     const float *w_out, const float *b_out, int T, int S, int E,
                                     int H, const uint8_t *key_mask, int causal, float *scratch)
{
    int Dh = E / H;
    float scale = 1.0f / sqrtf((float)Dh);
    float *Q = scratch, *K = Q + (long)T * E, *V = K + (long)S * E, *ctx = V + (long)S * E;
    /* Q = query W_qᵀ + b_q,  K = key W_kᵀ + b_k,  V = value W_vᵀ + b_v */
    al_sgemm(0, 1, T, E, E, 1.0f, query, E, w_in, E, 0.0f, Q, E);
    al_sgemm(0, 1, S, E, E, 1.0f, key, E, w_in + (long)E * E, E, 0.0f, K, E);
    al_sgemm(0, 1, S, E, E, 1.0f, value, E, w_in + 2L * E * E, E, 0.0f, V, E);
    if (b_in) {
        add_bias_rows(Q, E, b_in, T, E);
        add_bias_rows(K, E, b_in + E, S, E);
        add_bias_rows(V, E, b_in + 2 * E, S, E);
    }
    /* ctx_h = softmax(Q_h K_hᵀ / √Dh + mask) V_h, each head a column slice */
    for (int h = 0; h < H; h++)
        al_attn_head_forward(ctx + h * Dh, E, att + (long)h * T * S, Q + h * Dh, E, K + h * Dh, E,
                             V + h * Dh, E, T, S, Dh, Dh, scale, key_mask, causal);
    /* out = ctx W_outᵀ + b_out; a row that saw no key has a zero context, so its output is b_out */
    al_sgemm(0, 1, T, E, E, 1.0f, ctx, E, w_out, E, 0.0f, out, E);
    if (b_out) add_bias_rows(out, E, b_out, T, E);
}

long al_attn_mha_backward_scratch_floats(int T, int S, int E, int H)
{
    return al_attn_mha_scratch_floats(T, S, E) /* Q, K, V, ctx */
           + (long)T * E                       /* out (recomputed, unused) */
           + (long)H * T * S                   /* att */
           + (2L * T + 2L * S) * E             /* dctx, dQ, dK, dV */
           + al_attn_head_backward_scratch_floats(T, S);
}

AL_NOINLINE void al_attn_mha_backward(float *dquery, float *dkey, float *dvalue, float *dw_in,
                                      float *db_in, float *dw_out, float *db_out, const float *dout,
                                      const float *datt, const float *query, const float *key,
                                      const float *value, const float *w_in, const float *b_in,
                                      const float *w_out, const float *b_out, int T, int S, int E,
                                      int H, const uint8_t *key_mask, int causal, float *scratch)
{
    int Dh = E / H;
    float scale = 1.0f / sqrtf((float)Dh);
    float *fwd = scratch;
    float *Q = fwd, *K = Q + (long)T * E, *V = K + (long)S * E, *ctx = V + (long)S * E;
    float *out = fwd + al_attn_mha_scratch_floats(T, S, E);
    float *att = out + (long)T * E;
    float *dctx = att + (long)H * T * S;
    float *dQ = dctx + (long)T * E, *dK = dQ + (long)T * E, *dV = dK + (long)S * E;
    float *rest = dV + (long)S * E;
    al_attn_mha_forward(out, att, query, key, value, w_in, b_in, w_out, b_out, T, S, E, H, key_mask,
                        causal, fwd);
    memset(dctx, 0, sizeof(float) * (size_t)(2L * T + 2L * S) * E); /* dctx, dQ, dK, dV */

    if (dout) {
        /* out = ctx W_outᵀ + b_out  →  dW_out += doutᵀ ctx,  dctx = dout W_out,  db_out += Σ_t dout_t
         * (a dead row's ctx is 0, so it adds nothing to dW_out, and its att is 0, so its dctx
         * reaches nothing upstream) */
        al_sgemm(1, 0, E, E, T, 1.0f, dout, E, ctx, E, 1.0f, dw_out, E);
        al_sgemm(0, 0, T, E, E, 1.0f, dout, E, w_out, E, 0.0f, dctx, E);
        if (db_out) sum_rows(db_out, dout, E, T, E);
    }
    /* ctx_h = softmax(Q_h K_hᵀ / √Dh + mask) V_h  →  dQ_h, dK_h, dV_h */
    for (int h = 0; h < H; h++)
        al_attn_head_backward(dQ + h * Dh, E, dK + h * Dh, E, dV + h * Dh, E,
                              dout ? dctx + h * Dh : NULL, E, datt ? datt + (long)h * T * S : NULL,
                              att + (long)h * T * S, Q + h * Dh, E, K + h * Dh, E, V + h * Dh, E, T,
                              S, Dh, Dh, scale, rest);
    /* Q = query W_qᵀ + b_q  →  dW_q += dQᵀ query,  db_q += Σ dQ,  dquery += dQ W_q (same for K, V) */
    const float *in[3] = { query, key, value };
    const float *dX[3] = { dQ, dK, dV };
    float *dIn[3] = { dquery, dkey, dvalue };
    int rows[3] = { T, S, S };
    for (int i = 0; i < 3; i++) {
        const float *W = w_in + (long)i * E * E;
        al_sgemm(1, 0, E, E, rows[i], 1.0f, dX[i], E, in[i], E, 1.0f, dw_in + (long)i * E * E, E);
        if (db_in) sum_rows(db_in + i * E, dX[i], E, rows[i], E);
        al_sgemm(0, 0, rows[i], E, E, 1.0f, dX[i], E, W, E, 1.0f, dIn[i], E);
    }
}

/* ------------------------------------------------------------------ relative position (Shaw) */

void al_attn_relpos_distances(int32_t *dist, int n, int k)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int r = j - i;
            dist[(long)i * n + j] = r < -k ? -k : r > k ? k : r;
        }
}

/*
 * The two bucket loops, the scalar reference twins (attention_transformer_simd128.c has the
 * others). Bucket of (i, j) is r = clip(j − i, −k, k) + k; along row i it is 0 for j < i − k,
 * j − i + k for |j − i| <= k, and 2k for j > i + k: three contiguous runs.
 */
/* m [n,n] += g [n,R] gathered: m_ij += g[i, r(i,j)] */
AL_NOINLINE void al_relpos_gather_add_scalar(float *m, const float *g, int n, int k)
{
    int R = 2 * k + 1;
    for (int i = 0; i < n; i++) {
        float *mi = m + (long)i * n;
        const float *gi = g + (long)i * R;
        int lo = i - k > 0 ? i - k : 0, hi = i + k + 1 < n ? i + k + 1 : n;
        for (int j = 0; j < lo; j++) mi[j] += gi[0];
        for (int j = lo; j < hi; j++) mi[j] += gi[j - i + k];
        for (int j = hi; j < n; j++) mi[j] += gi[2 * k];
    }
}

/* b [n,R] = m [n,n] summed by bucket: b[i,r] = Σ_{j: r(i,j) = r} m_ij (the transpose of the gather) */
AL_NOINLINE void al_relpos_bucket_sum_scalar(float *b, const float *m, int n, int k)
{
    int R = 2 * k + 1;
    memset(b, 0, sizeof(float) * (size_t)n * R);
    for (int i = 0; i < n; i++) {
        const float *mi = m + (long)i * n;
        float *bi = b + (long)i * R;
        int lo = i - k > 0 ? i - k : 0, hi = i + k + 1 < n ? i + k + 1 : n;
        for (int j = 0; j < lo; j++) bi[0] += mi[j];
        for (int j = lo; j < hi; j++) bi[j - i + k] += mi[j];
        for (int j = hi; j < n; j++) bi[2 * k] += mi[j];
    }
}

long al_attn_relpos_scratch_floats(int n, int dz, int k)
{
    return 3L * n * dz + (long)n * (2 * k + 1); /* Q, K, V, one [n,R] bucket buffer */
}

AL_NOINLINE void al_attn_relpos_forward(float *out, float *att, const float *x, const float *w_q,
                                        const float *w_k, const float *w_v, const float *rel_k,
                                        const float *rel_v, int n, int d, int dz, int H, int k,
                                        const uint8_t *key_mask, int causal, float *scratch)
{
    int Dh = dz / H, R = 2 * k + 1;
    float scale = 1.0f / sqrtf((float)Dh);
    float *Q = scratch, *K = Q + (long)n * dz, *V = K + (long)n * dz, *buck = V + (long)n * dz;
    /* Q = x W_Qᵀ,  K = x W_Kᵀ,  V = x W_Vᵀ */
    al_sgemm(0, 1, n, dz, d, 1.0f, x, d, w_q, d, 0.0f, Q, dz);
    al_sgemm(0, 1, n, dz, d, 1.0f, x, d, w_k, d, 0.0f, K, dz);
    al_sgemm(0, 1, n, dz, d, 1.0f, x, d, w_v, d, 0.0f, V, dz);
    for (int h = 0; h < H; h++) {
        const float *qh = Q + h * Dh, *kh = K + h * Dh, *vh = V + h * Dh;
        float *a = att + (long)h * n * n, *zh = out + h * Dh;
        /* e_ij = scale · q_i·k_j + scale · q_i·a^K_ij: the second term is (Q_h rel_Kᵀ)[i, r(i,j)] */
        al_sgemm(0, 1, n, n, Dh, scale, qh, dz, kh, dz, 0.0f, a, n);
        al_sgemm(0, 1, n, R, Dh, scale, qh, dz, rel_k, Dh, 0.0f, buck, R);
        al_relpos_gather_add(a, buck, n, k);
        /* α = softmax(e + mask) */
        masked_softmax_rows(a, n, n, key_mask, causal);
        /* z_i = Σ_j α_ij v_j + Σ_r (Σ_{j: r(i,j)=r} α_ij) a^V_r */
        al_sgemm(0, 0, n, Dh, n, 1.0f, a, n, vh, dz, 0.0f, zh, dz);
        al_relpos_bucket_sum(buck, a, n, k);
        al_sgemm(0, 0, n, Dh, R, 1.0f, buck, R, rel_v, Dh, 1.0f, zh, dz);
    }
}

long al_attn_relpos_backward_scratch_floats(int n, int dz, int H, int k)
{
    return al_attn_relpos_scratch_floats(n, dz, k) /* Q, K, V, bucket */
           + (long)n * dz                          /* out (recomputed, unused) */
           + (long)H * n * n                       /* att */
           + 3L * n * dz                           /* dQ, dK, dV */
           + (long)n * n + n;                      /* dP, softmax row */
}

AL_NOINLINE void al_attn_relpos_backward(float *dx, float *dw_q, float *dw_k, float *dw_v,
                                         float *drel_k, float *drel_v, const float *dout,
                                         const float *datt, const float *x, const float *w_q,
                                         const float *w_k, const float *w_v, const float *rel_k,
                                         const float *rel_v, int n, int d, int dz, int H, int k,
                                         const uint8_t *key_mask, int causal, float *scratch)
{
    int Dh = dz / H, R = 2 * k + 1;
    float scale = 1.0f / sqrtf((float)Dh);
    float *fwd = scratch;
    float *Q = fwd, *K = Q + (long)n * dz, *V = K + (long)n * dz, *buck = V + (long)n * dz;
    float *out = fwd + al_attn_relpos_scratch_floats(n, dz, k);
    float *att = out + (long)n * dz;
    float *dQ = att + (long)H * n * n, *dK = dQ + (long)n * dz, *dV = dK + (long)n * dz;
    float *dP = dV + (long)n * dz, *row = dP + (long)n * n;
    al_attn_relpos_forward(out, att, x, w_q, w_k, w_v, rel_k, rel_v, n, d, dz, H, k, key_mask,
                           causal, fwd);
    memset(dQ, 0, sizeof(float) * (size_t)3 * n * dz);

    for (int h = 0; h < H; h++) {
        const float *qh = Q + h * Dh, *kh = K + h * Dh, *vh = V + h * Dh;
        const float *a = att + (long)h * n * n;
        float *dQh = dQ + h * Dh, *dKh = dK + h * Dh, *dVh = dV + h * Dh;
        if (dout) {
            const float *dzh = dout + h * Dh;
            /* z_i = Σ_j α_ij v_j  →  dα_ij = dz_i·v_j,  dV_h += αᵀ dz_h */
            al_sgemm(0, 1, n, n, Dh, 1.0f, dzh, dz, vh, dz, 0.0f, dP, n);
            al_sgemm(1, 0, n, Dh, n, 1.0f, a, n, dzh, dz, 1.0f, dVh, dz);
            /* z_i += Σ_j α_ij a^V_r(i,j)  →  dα_ij += (dz_h rel_Vᵀ)[i, r(i,j)] */
            al_sgemm(0, 1, n, R, Dh, 1.0f, dzh, dz, rel_v, Dh, 0.0f, buck, R);
            al_relpos_gather_add(dP, buck, n, k);
            /* ... and drel_V += bucket(α)ᵀ dz_h */
            al_relpos_bucket_sum(buck, a, n, k);
            al_sgemm(1, 0, R, Dh, n, 1.0f, buck, R, dzh, dz, 1.0f, drel_v, Dh);
        } else {
            memset(dP, 0, sizeof(float) * (size_t)n * n);
        }
        /* the weights are an output too: dα += datt */
        if (datt) {
            const float *dah = datt + (long)h * n * n;
            for (long i = 0; i < (long)n * n; i++) dP[i] += dah[i];
        }
        /* α = softmax(e + mask)  →  de */
        softmax_backward_inplace(dP, a, n, n, row);
        /* e_ij = scale · q_i·k_j  →  dQ_h += scale · de K_h,  dK_h += scale · deᵀ Q_h */
        al_sgemm(0, 0, n, Dh, n, scale, dP, n, kh, dz, 1.0f, dQh, dz);
        al_sgemm(1, 0, n, Dh, n, scale, dP, n, qh, dz, 1.0f, dKh, dz);
        /* e_ij += scale · q_i·a^K_r(i,j)  →  dQR = bucket(de):
         * dQ_h += scale · dQR rel_K,  drel_K += scale · dQRᵀ Q_h */
        al_relpos_bucket_sum(buck, dP, n, k);
        al_sgemm(0, 0, n, Dh, R, scale, buck, R, rel_k, Dh, 1.0f, dQh, dz);
        al_sgemm(1, 0, R, Dh, n, scale, buck, R, qh, dz, 1.0f, drel_k, Dh);
    }
    /* Q = x W_Qᵀ  →  dW_Q += dQᵀ x,  dx += dQ W_Q (same for K, V) */
    const float *W[3] = { w_q, w_k, w_v };
    const float *dX[3] = { dQ, dK, dV };
    float *dW[3] = { dw_q, dw_k, dw_v };
    for (int i = 0; i < 3; i++) {
        al_sgemm(1, 0, dz, d, n, 1.0f, dX[i], dz, x, d, 1.0f, dW[i], d);
        al_sgemm(0, 0, n, d, dz, 1.0f, dX[i], dz, W[i], d, 1.0f, dx, d);
    }
}
