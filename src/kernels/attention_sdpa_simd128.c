/*
 * attention_sdpa_simd128.c: SIMD128 twin of attention_sdpa_scalar.c (maths, masks and the two
 * paths are documented there).
 *
 * Both products run on the sgemm register tiles (matmul_simd128.c):
 *  - with weights: scores (Q Kᵀ · scale) straight into att, a vector softmax per row, then
 *    out = att V; non-causal in one block of all T rows, causal in blocks of AL_SDPA_QB rows that
 *    stop at the diagonal;
 *  - streaming (FlashAttention-style): blocks of AL_SDPA_QB queries against blocks of AL_SDPA_KB
 *    keys. Scores are computed transposed, sᵀ [keys, queries] = K_b Q_bᵀ, so the online softmax
 *    runs with lanes across four queries (running max, rescale and sums are vertical: no
 *    horizontal reductions), and O_b += P V_b reads sᵀ as a transposed A. Hidden entries (causal,
 *    key mask) are set to −inf before the max and to exactly 0 after the exp.
 * Causal blocks stop at the diagonal (keys past the block's last query are never read).
 * A streaming row that overflowed (its unnormalised sum of values near 3e38, while the answer is
 * finite), whose running max is ±inf (scores that overflowed) or that saw no key is redone by
 * al_sdpa_row_normalised, as in the scalar twin, so it matches the att path.
 */
#include <math.h>

#include "kernels.h"

#if AL_SIMD128

/* AL_SDPA_QB queries share every key block they read; AL_SDPA_KB keys per score block
 * (the transposed score block is KB·QB floats = 4 KB of stack). */
#define AL_SDPA_QB 16
#define AL_SDPA_KB 64

/* o [n] *= a */
static void scal(float *o, float a, int n)
{
    al_v4 av = al_v4_splat(a);
    int d = 0;
    for (; d + 4 <= n; d += 4) al_v4_store(o + d, al_v4_mul(al_v4_load(o + d), av));
    AL_V4_SCALAR_LOOP
    for (; d < n; d++) o[d] *= a;
}

/* att given: the probability matrix is an output, so the scores go straight into it */
static void sdpa_weights(float *out, float *att, const float *q, const float *k, const float *v,
                         int T, int S, int D, int Dv, float scale, const uint8_t *key_mask,
                         int causal)
{
    int qb = causal ? AL_SDPA_QB : T;
    for (int t0 = 0; t0 < T; t0 += qb) {
        int tb = T - t0 < qb ? T - t0 : qb;
        int s_end = causal ? (t0 + tb < S ? t0 + tb : S) : S;
        float *ab = att + (long)t0 * S;
        al_sgemm_simd128(0, 1, tb, s_end, D, scale, q + (long)t0 * D, D, k, D, 0.0f, ab, S);
        for (int i = 0; i < tb; i++) {
            int sv = causal ? (t0 + i + 1 < S ? t0 + i + 1 : S) : S;
            float *ar = ab + (long)i * S;
            al_softmax_forward_simd128(ar, ar, key_mask, 0, 1, sv);
            AL_V4_SCALAR_LOOP
            for (int s = sv; s < S; s++) ar[s] = 0.0f;
        }
        al_sgemm_simd128(0, 0, tb, Dv, s_end, 1.0f, ab, S, v, Dv, 0.0f, out + (long)t0 * Dv, Dv);
    }
}

void al_sdpa_forward_simd128(float *out, float *att, const float *q, const float *k, const float *v,
                             int T, int S, int D, int Dv, float scale, const uint8_t *key_mask,
                             int causal)
{
    if (att) {
        sdpa_weights(out, att, q, k, v, T, S, D, Dv, scale, key_mask, causal);
        return;
    }
    enum { QB = AL_SDPA_QB, KB = AL_SDPA_KB };
    float st[KB * QB];  /* sᵀ: st[j·QB + i] = score of query t0 + i against key s0 + j */
    float m[QB], l[QB]; /* running max and running Σ e^{s − m} per query */
    const al_v4 ninf = al_v4_splat(-INFINITY), lowest = al_v4_splat(-3.4028235e38f);
    for (int t0 = 0; t0 < T; t0 += QB) {
        int tb = T - t0 < QB ? T - t0 : QB;
        int tb4 = (tb + 3) & ~3; /* lanes past tb compute on zeros and are never stored */
        float *ob = out + (long)t0 * Dv;
        int s_end = causal ? (t0 + tb < S ? t0 + tb : S) : S;
        for (int i = 0; i < QB; i++) {
            m[i] = -INFINITY;
            l[i] = 0.0f;
        }
        if (tb4 > tb)
            for (int j = 0; j < KB; j++)
                for (int i = tb; i < tb4; i++) st[j * QB + i] = 0.0f;
        for (int s0 = 0; s0 < s_end; s0 += KB) {
            int nb = s_end - s0 < KB ? s_end - s0 : KB;
            /* sᵀ = K_b Q_bᵀ · scale */
            al_sgemm_simd128(0, 1, nb, tb, D, scale, k + (long)s0 * D, D, q + (long)t0 * D, D, 0.0f,
                             st, QB);
            /* hide masked keys and, on the diagonal, keys after each query: −inf */
            int hidden = 0;
            if (key_mask)
                for (int j = 0; j < nb; j++)
                    if (key_mask[s0 + j]) {
                        for (int i = 0; i < tb4; i += 4) al_v4_store(st + j * QB + i, ninf);
                        hidden = 1;
                    }
            if (causal && s0 + nb - 1 > t0) {
                for (int j = t0 + 1 - s0 > 0 ? t0 + 1 - s0 : 0; j < nb; j++)
                    for (int i = 0; i < tb && t0 + i < s0 + j; i++) st[j * QB + i] = -INFINITY;
                hidden = 1;
            }
            for (int i = 0; i < tb4; i += 4) {
                /* block max → new running max; mm keeps e^{s − mm} finite while nothing is visible */
                al_v4 bm = ninf;
                for (int j = 0; j < nb; j++) bm = al_v4_max(bm, al_v4_load(st + j * QB + i));
                al_v4 mo = al_v4_load(m + i);
                al_v4 mn = al_v4_max(mo, bm);
                al_v4 mm = al_v4_max(mn, lowest);
                al_v4 sum = al_v4_zero();
                for (int j = 0; j < nb; j++) {
                    al_v4 x = al_v4_load(st + j * QB + i);
                    al_v4 p = al_v4_exp_neg(al_v4_sub(x, mm));
                    if (hidden) p = al_v4_and(p, al_v4_gt(x, ninf));
                    al_v4_store(st + j * QB + i, p);
                    sum = al_v4_add(sum, p);
                }
                /* rescale what the rows hold: c = e^{m_old − m_new} (0 on the first block) */
                al_v4 c = al_v4_exp_neg(al_v4_sub(mo, mm));
                al_v4_store(l + i, al_v4_add(al_v4_mul(al_v4_load(l + i), c), sum));
                al_v4_store(m + i, mn);
                if (s0 > 0)
                    for (int r = 0; r < 4 && i + r < tb; r++)
                        scal(ob + (long)(i + r) * Dv, al_v4_lane(c, r), Dv);
            }
            /* O_b (+)= P V_b, P [tb, nb] read from sᵀ as a transposed A */
            al_sgemm_simd128(1, 0, tb, Dv, nb, 1.0f, st, QB, v + (long)s0 * Dv, Dv,
                             s0 > 0 ? 1.0f : 0.0f, ob, Dv);
        }
        /* normalise; the rare rows the running sums cannot finish (see above) are redone */
        for (int i = 0; i < tb; i++) {
            float *oi = ob + (long)i * Dv;
            if (l[i] > 0.0f && isfinite(m[i])) {
                scal(oi, 1.0f / l[i], Dv);
                if (al_first_nonfinite_simd128(oi, Dv) < 0) continue;
            }
            int t = t0 + i, sv = causal ? (t + 1 < S ? t + 1 : S) : S;
            al_sdpa_row_normalised(oi, q + (long)t * D, k, v, sv, D, Dv, scale, key_mask);
        }
    }
}

#endif /* AL_SIMD128 */
