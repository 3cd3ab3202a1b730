/*
 * api/transformer_attention.c: validated, batched entry points over the transformer attention
 * kernels (src/kernels/attention_transformer.c): argument checks with status codes, scratch from
 * al_malloc (freed on every path), and the loop over the leading batch dimension.
 */
#include <math.h>
#include <string.h>

#include "transformer_attention.h"
#include "../toolbox.h"
#include "../kernels/attention_transformer.h"

/* ------------------------------------------------------------------ SDPA backward */

al_status al_sdpa_backward(float *dq, float *dk, float *dv, const float *dout, const float *datt,
                           const float *att, const float *q, const float *k, const float *v, int B,
                           int H, int T, int S, int D, int Dv, float scale,
                           const uint8_t *key_padding_mask, int causal)
{
    if (!dq || !dk || !dv || !q || !k || !v) return AL_ERR_ARGUMENT;
    if (B < 1 || H < 1 || T < 1 || S < 1 || D < 1 || Dv < 1) return AL_ERR_SHAPE;
    if (!al_count_ok(B, H, T, D) || !al_count_ok(B, H, S, D) || !al_count_ok(B, H, S, Dv) ||
        !al_count_ok(B, H, T, Dv) || !al_count_ok(B, H, T, S))
        return AL_ERR_OVERFLOW;
    if (!isfinite(scale)) return AL_ERR_ARGUMENT;
    if (scale == 0.0f) scale = 1.0f / sqrtf((float)D);
    long need = al_sdpa_backward_scratch_floats(T, S, Dv);
    if (!al_count_ok(need, 1, 1, 1)) return AL_ERR_OVERFLOW;
    float *scratch = al_alloc_floats(need, NULL);
    if (!scratch) return AL_ERR_NOMEM;
    for (int b = 0; b < B; b++) {
        const uint8_t *mask = key_padding_mask ? key_padding_mask + (long)b * S : NULL;
        for (int h = 0; h < H; h++) {
            long head = (long)b * H + h;
            al_sdpa_backward_kernel(
                dq + head * T * D, dk + head * S * D, dv + head * S * Dv,
                dout ? dout + head * T * Dv : NULL, datt ? datt + head * T * S : NULL,
                att ? att + head * T * S : NULL, q + head * T * D, k + head * S * D,
                v + head * S * Dv, T, S, D, Dv, scale, mask, causal != 0, scratch);
        }
    }
    al_free(scratch);
    return AL_OK;
}

/* ------------------------------------------------------------------ multi-head attention */

static al_status mha_check(const float *query, const float *key, const float *value,
                           const float *w_in, const float *w_out, int B, int T, int S, int E, int H)
{
    if (!query || !key || !value || !w_in || !w_out) return AL_ERR_ARGUMENT;
    if (H < 1) return AL_ERR_ARGUMENT;
    if (B < 1 || T < 1 || S < 1 || E < 1) return AL_ERR_SHAPE;
    if (E % H != 0) return AL_ERR_SHAPE;
    if (!al_count_ok(B, T, E, 1) || !al_count_ok(B, S, E, 1) || !al_count_ok(3, E, E, 1) ||
        !al_count_ok(B, H, T, S))
        return AL_ERR_OVERFLOW;
    return AL_OK;
}

al_status al_mha_forward(float *out, float *att, const float *query, const float *key,
                         const float *value, const float *in_proj_weight, const float *in_proj_bias,
                         const float *out_proj_weight, const float *out_proj_bias, int B, int T,
                         int S, int E, int H, const uint8_t *key_padding_mask, int causal)
{
    if (!out) return AL_ERR_ARGUMENT;
    al_status st = mha_check(query, key, value, in_proj_weight, out_proj_weight, B, T, S, E, H);
    if (st != AL_OK) return st;
    long fwd = al_attn_mha_scratch_floats(T, S, E);
    long need = fwd + (att ? 0 : (long)H * T * S);
    if (!al_count_ok(need, 1, 1, 1)) return AL_ERR_OVERFLOW;
    float *scratch = al_alloc_floats(need, NULL);
    if (!scratch) return AL_ERR_NOMEM;
    for (int b = 0; b < B; b++) {
        al_attn_mha_forward(out + (long)b * T * E, att ? att + (long)b * H * T * S : scratch + fwd,
                            query + (long)b * T * E, key + (long)b * S * E, value + (long)b * S * E,
                            in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias, T, S, E,
                            H, key_padding_mask ? key_padding_mask + (long)b * S : NULL,
                            causal != 0, scratch);
    }
    al_free(scratch);
    return AL_OK;
}

al_status al_mha_backward(float *dquery, float *dkey, float *dvalue, float *din_proj_weight,
                          float *din_proj_bias, float *dout_proj_weight, float *dout_proj_bias,
                          const float *dout, const float *datt, const float *query,
                          const float *key, const float *value, const float *in_proj_weight,
                          const float *in_proj_bias, const float *out_proj_weight,
                          const float *out_proj_bias, int B, int T, int S, int E, int H,
                          const uint8_t *key_padding_mask, int causal)
{
    if (!dquery || !dkey || !dvalue || !din_proj_weight || !dout_proj_weight)
        return AL_ERR_ARGUMENT;
    if ((in_proj_bias && !din_proj_bias) || (out_proj_bias && !dout_proj_bias))
        return AL_ERR_ARGUMENT;
    al_status st = mha_check(query, key, value, in_proj_weight, out_proj_weight, B, T, S, E, H);
    if (st != AL_OK) return st;
    long need = al_attn_mha_backward_scratch_floats(T, S, E, H);
    if (!al_count_ok(need, 1, 1, 1)) return AL_ERR_OVERFLOW;
    float *scratch = al_alloc_floats(need, NULL);
    if (!scratch) return AL_ERR_NOMEM;
    for (int b = 0; b < B; b++) {
        al_attn_mha_backward(
            dquery + (long)b * T * E, dkey + (long)b * S * E, dvalue + (long)b * S * E,
            din_proj_weight, in_proj_bias ? din_proj_bias : NULL, dout_proj_weight,
            out_proj_bias ? dout_proj_bias : NULL, dout ? dout + (long)b * T * E : NULL,
            datt ? datt + (long)b * H * T * S : NULL, query + (long)b * T * E,
            key + (long)b * S * E, value + (long)b * S * E, in_proj_weight, in_proj_bias,
            out_proj_weight, out_proj_bias, T, S, E, H,
            key_padding_mask ? key_padding_mask + (long)b * S : NULL, causal != 0, scratch);
    }
    al_free(scratch);
    return AL_OK;
}

/* ------------------------------------------------------------------ relative position */

static al_status relpos_check(const float *x, const float *w_q, const float *w_k, const float *w_v,
                              const float *rel_k, const float *rel_v, int B, int n, int d, int dz,
                              int H, int k)
{
    if (!x || !w_q || !w_k || !w_v || !rel_k || !rel_v) return AL_ERR_ARGUMENT;
    if (H < 1 || k < 0) return AL_ERR_ARGUMENT;
    if (B < 1 || n < 1 || d < 1 || dz < 1) return AL_ERR_SHAPE;
    if (dz % H != 0) return AL_ERR_SHAPE;
    if (k > (1 << 29)) return AL_ERR_OVERFLOW;
    if (!al_count_ok(B, n, d, 1) || !al_count_ok(B, n, dz, 1) || !al_count_ok(dz, d, 1, 1) ||
        !al_count_ok(B, H, n, n) || !al_count_ok(2L * k + 1, dz / H, 1, 1) ||
        !al_count_ok(n, 2L * k + 1, 1, 1))
        return AL_ERR_OVERFLOW;
    return AL_OK;
}

al_status al_relpos_forward(float *out, float *att, const float *x, const float *w_q,
                            const float *w_k, const float *w_v, const float *rel_k,
                            const float *rel_v, int B, int n, int d, int dz, int H, int k,
                            const uint8_t *key_padding_mask, int causal)
{
    if (!out) return AL_ERR_ARGUMENT;
    al_status st = relpos_check(x, w_q, w_k, w_v, rel_k, rel_v, B, n, d, dz, H, k);
    if (st != AL_OK) return st;
    long fwd = al_attn_relpos_scratch_floats(n, dz, k);
    long need = fwd + (att ? 0 : (long)H * n * n);
    if (!al_count_ok(need, 1, 1, 1)) return AL_ERR_OVERFLOW;
    float *scratch = al_alloc_floats(need, NULL);
    if (!scratch) return AL_ERR_NOMEM;
    for (int b = 0; b < B; b++) {
        al_attn_relpos_forward(
            out + (long)b * n * dz, att ? att + (long)b * H * n * n : scratch + fwd,
            x + (long)b * n * d, w_q, w_k, w_v, rel_k, rel_v, n, d, dz, H, k,
            key_padding_mask ? key_padding_mask + (long)b * n : NULL, causal != 0, scratch);
    }
    al_free(scratch);
    return AL_OK;
}

al_status al_relpos_backward(float *dx, float *dw_q, float *dw_k, float *dw_v, float *drel_k,
                             float *drel_v, const float *dout, const float *datt, const float *x,
                             const float *w_q, const float *w_k, const float *w_v,
                             const float *rel_k, const float *rel_v, int B, int n, int d, int dz,
                             int H, int k, const uint8_t *key_padding_mask, int causal)
{
    if (!dx || !dw_q || !dw_k || !dw_v || !drel_k || !drel_v) return AL_ERR_ARGUMENT;
    al_status st = relpos_check(x, w_q, w_k, w_v, rel_k, rel_v, B, n, d, dz, H, k);
    if (st != AL_OK) return st;
    long need = al_attn_relpos_backward_scratch_floats(n, dz, H, k);
    if (!al_count_ok(need, 1, 1, 1)) return AL_ERR_OVERFLOW;
    float *scratch = al_alloc_floats(need, NULL);
    if (!scratch) return AL_ERR_NOMEM;
    for (int b = 0; b < B; b++) {
        al_attn_relpos_backward(
            dx + (long)b * n * d, dw_q, dw_k, dw_v, drel_k, drel_v,
            dout ? dout + (long)b * n * dz : NULL, datt ? datt + (long)b * H * n * n : NULL,
            x + (long)b * n * d, w_q, w_k, w_v, rel_k, rel_v, n, d, dz, H, k,
            key_padding_mask ? key_padding_mask + (long)b * n : NULL, causal != 0, scratch);
    }
    al_free(scratch);
    return AL_OK;
}

al_status al_relpos_distances(int32_t *dist, int n, int k)
{
    if (!dist || k < 0) return AL_ERR_ARGUMENT;
    if (n < 1) return AL_ERR_SHAPE;
    if (!al_count_ok(n, n, 1, 1)) return AL_ERR_OVERFLOW;
    al_attn_relpos_distances(dist, n, k);
    return AL_OK;
}
