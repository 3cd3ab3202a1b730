/*
 * attention_sdpa_simd128.c: SIMD128 twin of attention_sdpa_scalar.c (maths, masks and the two
 * paths are documented there).
 *
 * Both paths work on blocks of AL_SDPA_QB queries, so every key and value row read from memory
 * serves QB queries, and run their two products on the sgemm register tiles (matmul_simd128.c):
 *  - with weights: scores for the block's rows (Q_b Kᵀ · scale) straight into att, a vector
 *    softmax per row, then out_b = att_b V;
 *  - streaming (FlashAttention-style): key blocks of AL_SDPA_KB, scores into a 4 KB stack tile,
 *    one running max and rescale per row and block, exp on four lanes, then O_b += P V_b.
 * Causal blocks stop at the diagonal (keys past the block's last query are never read).
 */
#include <string.h>

#include "kernels.h"

#if AL_SIMD128

/* Blocks: AL_SDPA_QB queries share every key block they read; AL_SDPA_KB keys per score block
 * (the stack holds QB·KB floats = 4 KB). */
#define AL_SDPA_QB 16
#define AL_SDPA_KB 64

static inline void scal(float *o, float a, int n)
{
    al_v4 av = al_v4_splat(a);
    int d = 0;
    for (; d + 4 <= n; d += 4) al_v4_store(o + d, al_v4_mul(al_v4_load(o + d), av));
    for (; d < n; d++) o[d] *= a;
}

void al_sdpa_forward_simd128(float *out, float *att, const float *q, const float *k,
                             const float *v, int T, int S, int D, int Dv, float scale,
                             const uint8_t *key_mask, int causal)
{
    float sc[AL_SDPA_QB * AL_SDPA_KB]; /* one block of scores / probabilities */
    float m[AL_SDPA_QB], l[AL_SDPA_QB];
    int any[AL_SDPA_QB];
    for (int t0 = 0; t0 < T; t0 += AL_SDPA_QB) {
        int tb = T - t0 < AL_SDPA_QB ? T - t0 : AL_SDPA_QB;
        float *ob = out + (long)t0 * Dv;
        const float *qb = q + (long)t0 * D;
        /* keys any row of this block may see; causal blocks stop at the diagonal */
        int s_end = causal ? (t0 + tb < S ? t0 + tb : S) : S;
        if (att) {
            float *ab = att + (long)t0 * S;
            al_sgemm_simd128(0, 1, tb, s_end, D, scale, qb, D, k, D, 0.0f, ab, S);
            for (int i = 0; i < tb; i++) {
                int sv = causal ? (t0 + i + 1 < S ? t0 + i + 1 : S) : S;
                float *ar = ab + (long)i * S;
                al_softmax_forward_simd128(ar, ar, key_mask, 0, 1, sv);
                for (int s = sv; s < S; s++) ar[s] = 0.0f;
            }
            al_sgemm_simd128(0, 0, tb, Dv, s_end, 1.0f, ab, S, v, Dv, 0.0f, ob, Dv);
            continue;
        }
        for (int i = 0; i < tb; i++) {
            m[i] = 0.0f;
            l[i] = 0.0f;
            any[i] = 0;
        }
        memset(ob, 0, sizeof(float) * (size_t)tb * Dv);
        for (int s0 = 0; s0 < s_end; s0 += AL_SDPA_KB) {
            int nb = s_end - s0 < AL_SDPA_KB ? s_end - s0 : AL_SDPA_KB;
            al_sgemm_simd128(0, 1, tb, nb, D, scale, qb, D, k + (long)s0 * D, D, 0.0f, sc, AL_SDPA_KB);
            for (int i = 0; i < tb; i++) {
                float *row = sc + i * AL_SDPA_KB;
                int lim = causal ? t0 + i + 1 - s0 : nb; /* visible keys of this row in the block */
                if (lim > nb) lim = nb;
                float bm = 0.0f;
                int vis = 0;
                for (int j = 0; j < lim; j++) {
                    if (key_mask && key_mask[s0 + j]) continue;
                    if (!vis || row[j] > bm) bm = row[j];
                    vis = 1;
                }
                if (!vis) {
                    memset(row, 0, sizeof(float) * (size_t)nb);
                    continue;
                }
                if (!any[i] || bm > m[i]) { /* new running max: rescale what the row holds */
                    float c = any[i] ? al_expf_scalar(m[i] - bm) : 0.0f;
                    l[i] *= c;
                    scal(ob + (long)i * Dv, c, Dv);
                    m[i] = bm;
                    any[i] = 1;
                }
                al_v4 mv = al_v4_splat(m[i]);
                int j = 0;
                for (; j + 4 <= nb; j += 4) al_v4_store(row + j, al_v4_exp(al_v4_sub(al_v4_load(row + j), mv)));
                for (; j < nb; j++) row[j] = al_expf_scalar(row[j] - m[i]);
                for (j = lim < 0 ? 0 : lim; j < nb; j++) row[j] = 0.0f;
                if (key_mask)
                    for (j = 0; j < lim; j++) if (key_mask[s0 + j]) row[j] = 0.0f;
                al_v4 sv = al_v4_zero();
                for (j = 0; j + 4 <= nb; j += 4) sv = al_v4_add(sv, al_v4_load(row + j));
                float sum = al_v4_hsum(sv);
                for (; j < nb; j++) sum += row[j];
                l[i] += sum;
            }
            /* O += P V over this key block: the 4×8 register tiles of the matmul */
            al_sgemm_simd128(0, 0, tb, Dv, nb, 1.0f, sc, AL_SDPA_KB, v + (long)s0 * Dv, Dv, 1.0f, ob, Dv);
        }
        for (int i = 0; i < tb; i++)
            if (any[i]) scal(ob + (long)i * Dv, 1.0f / l[i], Dv);
    }
}

#endif /* AL_SIMD128 */
