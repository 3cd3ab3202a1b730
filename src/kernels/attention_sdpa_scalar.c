/*
 * attention_sdpa_scalar.c: scaled dot-product attention for one head, the reference twin.
 *
 *   out = softmax(q kᵀ · scale + mask) v          (Vaswani et al. 2017, eq. 1)
 *
 * Two paths with the same result:
 *  - att given: scores for a whole row go into att, are softmaxed there (the plots and backward
 *    read them), then out_t = Σ_s att[t,s] v_s.
 *  - att NULL: an online softmax (Milakov & Gimelshein 2018) streams over keys keeping a running
 *    max m, running sum l and an unnormalised output row; when a larger score arrives, the
 *    running sum and row are rescaled by e^{m_old − m_new}. No T×S buffer exists.
 *    The unnormalised row Σ_s e^{e_s − m} v_s can leave float32's range when the answer does not
 *    (it grows to Σ_s e^{e_s − m} ≤ S times max|v|, the answer stays within max|v|: values near
 *    3e38 with several keys), and a score that overflowed to ±inf upsets the running max. Such a
 *    row, found non-finite at the end, is computed again by al_sdpa_row_normalised, which takes
 *    the att path's steps (weights normalised before they touch v) without the buffer, so both
 *    paths agree; the hot loop pays nothing for it.
 * Causal rows stop at key t (keys after it are never touched), masked keys are skipped.
 */
#include <string.h>

#include "kernels.h"

/* Keys row t may see: [0, S) or, when causal, [0, min(S, t+1)). */
static int visible_keys(int t, int S, int causal) { return causal ? (t + 1 < S ? t + 1 : S) : S; }

static float score(const float *qt, const float *ks, int D, float scale)
{
    float dot = 0.0f;
    for (int d = 0; d < D; d++) dot += qt[d] * ks[d];
    return dot * scale;
}

void al_sdpa_row_normalised(float *ot, const float *qt, const float *k, const float *v, int Sv,
                            int D, int Dv, float scale, const uint8_t *key_mask)
{
    /* the att path's steps (al_softmax_forward_scalar, then Σ a_s v_s), scores recomputed per pass */
    float max = 0.0f, sum = 0.0f;
    int any = 0;
    for (int s = 0; s < Sv; s++) {
        if (key_mask && key_mask[s]) continue;
        float e = score(qt, k + (long)s * D, D, scale);
        if (!any || e > max) max = e;
        any = 1;
    }
    memset(ot, 0, sizeof(float) * (size_t)Dv);
    if (!any) return;
    for (int s = 0; s < Sv; s++)
        if (!(key_mask && key_mask[s]))
            sum += al_expf_scalar(score(qt, k + (long)s * D, D, scale) - max);
    float inv = 1.0f / sum;
    for (int s = 0; s < Sv; s++) {
        if (key_mask && key_mask[s]) continue;
        float a = al_expf_scalar(score(qt, k + (long)s * D, D, scale) - max) * inv;
        if (a == 0.0f) continue;
        for (int d = 0; d < Dv; d++) ot[d] += a * v[(long)s * Dv + d];
    }
}

void al_sdpa_forward_scalar(float *out, float *att, const float *q, const float *k, const float *v,
                            int T, int S, int D, int Dv, float scale, const uint8_t *key_mask,
                            int causal)
{
    for (int t = 0; t < T; t++) {
        const float *qt = q + (long)t * D;
        float *ot = out + (long)t * Dv;
        int Sv = visible_keys(t, S, causal);
        if (att) {
            float *at = att + (long)t * S;
            /* scores e_s = (q_t · k_s) · scale for visible keys */
            for (int s = 0; s < Sv; s++) {
                float dot = 0.0f;
                for (int d = 0; d < D; d++) dot += qt[d] * k[(long)s * D + d];
                at[s] = dot * scale;
            }
            /* a_t = softmax(e) over visible unmasked keys; causal tail is 0 */
            al_softmax_forward_scalar(at, at, key_mask, 0, 1, Sv);
            for (int s = Sv; s < S; s++) at[s] = 0.0f;
            /* out_t = Σ_s a_s v_s */
            memset(ot, 0, sizeof(float) * (size_t)Dv);
            for (int s = 0; s < Sv; s++) {
                float a = at[s];
                if (a == 0.0f) continue;
                for (int d = 0; d < Dv; d++) ot[d] += a * v[(long)s * Dv + d];
            }
        } else {
            /* online softmax: m running max, l running Σ e^{e_s − m}, ot running Σ e^{e_s − m} v_s */
            float m = 0.0f, l = 0.0f;
            int any = 0;
            memset(ot, 0, sizeof(float) * (size_t)Dv);
            for (int s = 0; s < Sv; s++) {
                if (key_mask && key_mask[s]) continue;
                float dot = 0.0f;
                for (int d = 0; d < D; d++) dot += qt[d] * k[(long)s * D + d];
                float e = dot * scale;
                if (!any || e > m) {
                    /* new maximum: rescale what was accumulated against the old one */
                    float c = any ? al_expf_scalar(m - e) : 0.0f;
                    l *= c;
                    for (int d = 0; d < Dv; d++) ot[d] *= c;
                    m = e;
                    any = 1;
                }
                float p = al_expf_scalar(e - m);
                l += p;
                for (int d = 0; d < Dv; d++) ot[d] += p * v[(long)s * Dv + d];
            }
            /* normalise; a row that saw no key stays zero */
            if (any) {
                float inv = 1.0f / l;
                for (int d = 0; d < Dv; d++) ot[d] *= inv;
                if (al_first_nonfinite_scalar(ot, Dv) >= 0) /* overflowed, or a score is ±inf */
                    al_sdpa_row_normalised(ot, qt, k, v, Sv, D, Dv, scale, key_mask);
            }
        }
    }
}
