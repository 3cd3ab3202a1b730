/*
 * test_attention_projected.c: the keys-projected-once kernels (attention_additive_luong.h) against
 * the unprojected ones, the way a decoder loop uses them: T queries against one set of keys;
 * per step the unprojected forward and backward (gradients accumulated into one set), against
 * one projection, the projected forward and backward per step (∂/∂Kp accumulated) and one fold.
 * The additive backward from the kept forward (al_attn_additive_backward_saved) too, its steps
 * run last to first as a trainer's. Every output of every step and every accumulated gradient
 * must agree within 1e-5 + 1e-5·|reference| per element. Additive (values = keys or separate,
 * masked or not), Luong general and concat (global, local-m, local-p), key-query (its keys and
 * values both projected), over random shapes with n = 1, da != dk, odd sizes; Luong dot must
 * ignore Kp.
 */
#include <string.h>

#include "check.h"
#include "fixtures.h"
#include "kernels/attention_additive_luong.h"

#define TOL 1e-5

static double worst; /* the worst |projected − unprojected| over every comparison */

static void close_ff(const char *what, const float *got, const float *ref, long n)
{
    for (long i = 0; i < n; i++) {
        double d = fabs((double)got[i] - ref[i]);
        if (isfinite(d) && d > worst) worst = d;
    }
    check_close_f(what, got, ref, n, TOL, TOL);
}

static float *rnd(long n, float lo, float hi)
{
    float *x = falloc(n);
    check_fill(x, n, lo, hi);
    return x;
}

/* ------------------------------------------------------------------ additive */

static void additive_case(int n, int dq, int dk, int dv, int da, int T, int use_values,
                          int use_mask)
{
    char what[160];
    const float *V;
    float *q = rnd((long)T * dq, -1.5f, 1.5f), *K = rnd((long)n * dk, -1.5f, 1.5f);
    float *Vs = rnd((long)n * dv, -1.5f, 1.5f), *Wq = rnd((long)da * dq, -0.8f, 0.8f);
    float *Wk = rnd((long)da * dk, -0.8f, 0.8f), *b = rnd(da, -0.5f, 0.5f), *v = rnd(da, -1, 1);
    float *dctx = rnd((long)T * (use_values ? dv : dk), -1, 1), *dw = rnd((long)T * n, -1, 1);
    uint8_t *mask = check_alloc((size_t)n);
    if (use_mask)
        for (int j = 0; j < n; j++) mask[j] = j % 3 == 1;
    if (!use_values) dv = dk;
    V = use_values ? Vs : K;
    const long sf = al_attn_additive_forward_scratch_floats(n, da);
    const long sb = al_attn_additive_backward_scratch_floats(n, da);
    float *scr = falloc(sf > sb ? sf : sb);
    /* gradients: [0] unprojected, [1] projected: dq, dK, dV, dW_q, dW_k, dbias, dv */
    const long sz[7] = { dq, (long)n * dk, (long)n * dv, (long)da * dq, (long)da * dk, da, da };
    /* [2]: the forward kept per step (weights and scratch), the backward from it, steps reversed */
    float *g[3][7];
    for (int p = 0; p < 3; p++)
        for (int k = 0; k < 7; k++) g[p][k] = falloc(sz[k]);
    float *dqs[3] = { falloc((long)T * dq), falloc((long)T * dq), falloc((long)T * dq) };
    float *Kp = falloc((long)n * da), *dKp = falloc((long)n * da), *dKp2 = falloc((long)n * da);
    const long ks = sf; /* one step's kept forward scratch */
    float *kept = falloc(T * ks), *alphas = falloc((long)T * n);
    float *scr2 = falloc(al_attn_additive_saved_backward_scratch_floats(n, da));
    float *c0 = falloc(dv), *c1 = falloc(dv), *w0 = falloc(n), *w1 = falloc(n);
    float *s0 = falloc(n), *s1 = falloc(n);
    const uint8_t *m = use_mask ? mask : NULL;

    al_attn_additive_project_keys(Kp, K, Wk, n, dk, da);
    for (int t = 0; t < T; t++) {
        const float *qt = q + (long)t * dq, *dct = dctx + (long)t * dv, *dwt = dw + (long)t * n;
        al_attn_additive_forward_scores(c0, w0, s0, qt, K, use_values ? Vs : NULL, Wq, Wk, b, v, m,
                                        n, dq, dk, dv, da, scr);
        al_attn_additive_forward_projected(c1, w1, s1, qt, Kp, V, Wq, b, v, m, n, dq, dv, da, scr);
        al_attn_additive_forward_projected(c1, alphas + (long)t * n, NULL, qt, Kp, V, Wq, b, v, m,
                                           n, dq, dv, da, kept + t * ks);
        snprintf(what, sizeof what, "additive n=%d dq=%d dk=%d dv=%d da=%d values=%d mask=%d t=%d",
                 n, dq, dk, dv, da, use_values, use_mask, t);
        close_ff(what, c1, c0, dv);
        close_ff(what, w1, w0, n);
        close_ff(what, s1, s0, n);
        al_attn_additive_backward(dqs[0] + (long)t * dq, g[0][1], use_values ? g[0][2] : NULL,
                                  g[0][3], g[0][4], g[0][5], g[0][6], dct, dwt, qt, K,
                                  use_values ? Vs : NULL, Wq, Wk, b, v, m, n, dq, dk, dv, da, scr);
        al_attn_additive_backward_projected(
            dqs[1] + (long)t * dq, dKp, use_values ? g[1][2] : g[1][1], g[1][3], g[1][5], g[1][6],
            dct, dwt, qt, Kp, V, Wq, b, v, m, n, dq, dv, da, scr);
    }
    al_attn_additive_fold_keys(g[1][1], g[1][4], dKp, K, Wk, n, dk, da);
    for (int t = T - 1; t >= 0; t--)
        al_attn_additive_backward_saved(dqs[2] + (long)t * dq, dKp2, use_values ? g[2][2] : g[2][1],
                                        g[2][3], g[2][5], g[2][6], dctx + (long)t * dv,
                                        dw + (long)t * n, q + (long)t * dq, alphas + (long)t * n,
                                        kept + t * ks, V, Wq, v, n, dq, dv, da, scr2);
    al_attn_additive_fold_keys(g[2][1], g[2][4], dKp2, K, Wk, n, dk, da);
    close_ff("additive (kept forward) dquery per step", dqs[2], dqs[0], (long)T * dq);
    static const char *names[7] = { "dq", "dkeys", "dvalues", "dW_q", "dW_k", "dbias", "dv" };
    close_ff("additive dquery per step", dqs[1], dqs[0], (long)T * dq);
    for (int k = 1; k < 7; k++) {
        if (k == 2 && !use_values) continue;
        snprintf(what, sizeof what, "additive %s n=%d dq=%d dk=%d dv=%d da=%d T=%d values=%d",
                 names[k], n, dq, dk, dv, da, T, use_values);
        close_ff(what, g[1][k], g[0][k], sz[k]);
        close_ff(what, g[2][k], g[0][k], sz[k]);
    }
    /* the score's gradient reaches Kp (n = 1: the softmax of one key has none) */
    if (!use_mask && n > 1) {
        float nz = 0.0f;
        for (long i = 0; i < (long)n * da; i++) nz += fabsf(dKp[i]);
        check_true("additive: dKp carries a gradient", nz > 0.0f);
    }
    for (int p = 0; p < 3; p++)
        for (int k = 0; k < 7; k++) free(g[p][k]);
    void *fr[] = { dqs[2], dKp2, kept, alphas, scr2,   q,  K,   Vs, Wq, Wk, b,  v,  dctx,
                   dw,     mask, scr,  dqs[0], dqs[1], Kp, dKp, c0, c1, w0, w1, s0, s1 };
    for (size_t i = 0; i < sizeof fr / sizeof *fr; i++) free(fr[i]);
}

static void test_additive(void)
{
    check_seed(31);
    additive_case(1, 3, 4, 4, 5, 3, 0, 0);  /* n = 1 */
    additive_case(7, 5, 7, 3, 3, 4, 1, 0);  /* da < dk, values */
    additive_case(9, 6, 4, 4, 11, 5, 0, 1); /* da > dk, masked */
    additive_case(16, 16, 16, 16, 16, 6, 0, 0);
    for (int r = 0; r < 6; r++) {
        const int n = 1 + (int)(check_uniform() * 20), dq = 1 + (int)(check_uniform() * 20);
        const int dk = 1 + (int)(check_uniform() * 20), dv = 1 + (int)(check_uniform() * 20);
        const int da = 1 + (int)(check_uniform() * 24), T = 1 + (int)(check_uniform() * 6);
        additive_case(n, dq, dk, dv, da, T, r & 1, r % 3 == 2);
    }
}

/* ------------------------------------------------------------------ Luong general and concat */

static void luong_case(int n, int d, int score, int da, int local, float D, int dp, int T)
{
    char what[160];
    const int Wa_n = score == AL_LUONG_CONCAT ? da * 2 * d : d * d;
    const int w = al_attn_luong_projected_width(d, score, da);
    float *q = rnd((long)T * d, -1.5f, 1.5f), *K = rnd((long)n * d, -1.5f, 1.5f);
    float *Wa = rnd(Wa_n, -0.6f, 0.6f), *va = rnd(da, -1, 1), *Wc = rnd(2L * d * d, -0.5f, 0.5f);
    float *Wp = rnd((long)dp * d, -1, 1), *vp = rnd(dp, -1, 1);
    float *dctx = rnd((long)T * d, -1, 1), *dw = rnd((long)T * n, -1, 1);
    float *datt = rnd((long)T * d, -1, 1), *dpos = rnd(T, -1, 1);
    const long sf = al_attn_luong_forward_scratch_floats(n, d, da, dp);
    const long sb = al_attn_luong_backward_scratch_floats(n, d, da, dp);
    float *scr = falloc(sf > sb ? sf : sb);
    /* dq, dK, dW_a, dv_a, dW_c, dW_p, dv_p */
    const long sz[7] = { (long)T * d, (long)n * d, Wa_n, da, 2L * d * d, (long)dp * d, dp };
    float *g[2][7];
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < 7; k++) g[p][k] = falloc(sz[k]);
    float *Kp = falloc((long)n * (w ? w : 1)), *dKp = falloc((long)n * (w ? w : 1));
    float *o[2][5];
    for (int p = 0; p < 2; p++) {
        o[p][0] = falloc(d);
        o[p][1] = falloc(n);
        o[p][2] = falloc(n);
        o[p][3] = falloc(d);
        o[p][4] = falloc(1);
    }
    al_attn_luong_project_keys(Kp, K, Wa, n, d, score, da);
    for (int t = 0; t < T; t++) {
        const float *qt = q + (long)t * d, tp = (float)(t * n) / (float)T;
        al_attn_luong_forward_scores(o[0][0], o[0][1], o[0][2], o[0][3], o[0][4], qt, K, Wa, va, Wc,
                                     Wp, vp, NULL, n, d, score, da, local, D, tp, dp, scr);
        al_attn_luong_forward_projected(o[1][0], o[1][1], o[1][2], o[1][3], o[1][4], qt, K, Kp, Wa,
                                        va, Wc, Wp, vp, NULL, n, d, score, da, local, D, tp, dp,
                                        scr);
        snprintf(what, sizeof what, "luong n=%d d=%d score=%d da=%d local=%d D=%g t=%d", n, d,
                 score, da, local, D, t);
        const long on[5] = { d, n, n, d, 1 };
        for (int k = 0; k < 5; k++) close_ff(what, o[1][k], o[0][k], on[k]);
        for (int p = 0; p < 2; p++)
            al_attn_luong_backward_projected(
                g[p][0] + (long)t * d, g[p][1], p ? dKp : NULL, g[p][2], g[p][3], g[p][4], g[p][5],
                g[p][6], dctx + (long)t * d, dw + (long)t * n, datt + (long)t * d, dpos + t, qt, K,
                p ? Kp : NULL, Wa, va, Wc, Wp, vp, NULL, n, d, score, da, local, D, tp, dp, scr);
    }
    al_attn_luong_fold_keys(g[1][1], g[1][2], dKp, K, Wa, n, d, score, da);
    static const char *names[7] = { "dq", "dkeys", "dW_a", "dv_a", "dW_c", "dW_p", "dv_p" };
    for (int k = 0; k < 7; k++) {
        if ((k == 3 && score != AL_LUONG_CONCAT) || (k >= 5 && local != AL_LUONG_LOCAL_P)) continue;
        snprintf(what, sizeof what, "luong %s n=%d d=%d score=%d da=%d local=%d T=%d", names[k], n,
                 d, score, da, local, T);
        close_ff(what, g[1][k], g[0][k], sz[k]);
    }
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < 7; k++) free(g[p][k]);
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < 5; k++) free(o[p][k]);
    void *fr[] = { q, K, Wa, va, Wc, Wp, vp, dctx, dw, datt, dpos, scr, Kp, dKp };
    for (size_t i = 0; i < sizeof fr / sizeof *fr; i++) free(fr[i]);
}

static void test_luong(void)
{
    check_seed(32);
    check_true("projected width general",
               al_attn_luong_projected_width(8, AL_LUONG_GENERAL, 5) == 8);
    check_true("projected width concat", al_attn_luong_projected_width(8, AL_LUONG_CONCAT, 5) == 5);
    check_true("projected width dot", al_attn_luong_projected_width(8, AL_LUONG_DOT, 5) == 0);
    for (int score = AL_LUONG_DOT; score <= AL_LUONG_CONCAT; score++) {
        luong_case(1, 4, score, 3, AL_LUONG_GLOBAL, 0.0f, 0, 3); /* n = 1 */
        luong_case(9, 6, score, 5, AL_LUONG_GLOBAL, 0.0f, 0, 4); /* da != d */
        luong_case(11, 5, score, 7, AL_LUONG_LOCAL_M, 2.0f, 0, 5);
        luong_case(13, 7, score, 4, AL_LUONG_LOCAL_P, 3.0f, 6, 4);
        for (int r = 0; r < 4; r++) {
            const int n = 1 + (int)(check_uniform() * 18), d = 1 + (int)(check_uniform() * 16);
            const int da = 1 + (int)(check_uniform() * 16), T = 1 + (int)(check_uniform() * 5);
            const int local = r % 3, dp = local == AL_LUONG_LOCAL_P ? 1 + r : 0;
            luong_case(n, d, score, da, local, local ? 1.0f + (float)r : 0.0f, dp, T);
        }
    }
}

/* ------------------------------------------------------------------ key-query */

static void kq_case(int n, int ds, int dh, int dk, int dv, int scaled, int use_mask, int T)
{
    char what[160];
    float *q = rnd((long)T * ds, -1.5f, 1.5f), *K = rnd((long)n * dh, -1.5f, 1.5f);
    float *WQ = rnd((long)dk * ds, -0.8f, 0.8f), *WK = rnd((long)dk * dh, -0.8f, 0.8f);
    float *WV = rnd((long)dv * dh, -0.8f, 0.8f);
    float *dctx = rnd((long)T * dv, -1, 1), *dw = rnd((long)T * n, -1, 1);
    uint8_t *mask = check_alloc((size_t)n);
    if (use_mask)
        for (int j = 0; j < n; j++) mask[j] = j % 2 == 0;
    const uint8_t *m = use_mask ? mask : NULL;
    const long sf = al_attn_key_query_forward_scratch_floats(n, dh, dk);
    const long sb = al_attn_key_query_backward_scratch_floats(n, dh, dk);
    float *scr = falloc(sf > sb ? sf : sb);
    /* dq (every step), dkeys, dW_Q, dW_K, dW_V */
    const long sz[5] = { (long)T * ds, (long)n * dh, (long)dk * ds, (long)dk * dh, (long)dv * dh };
    float *g[2][5];
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < 5; k++) g[p][k] = falloc(sz[k]);
    float *Kp = falloc((long)n * dk), *Vp = falloc((long)n * dv);
    float *dKp = falloc((long)n * dk), *dVp = falloc((long)n * dv);
    float *c0 = falloc(dv), *c1 = falloc(dv), *w0 = falloc(n), *w1 = falloc(n);
    float *s0 = falloc(n), *s1 = falloc(n);
    al_attn_key_query_project_keys(Kp, Vp, K, WK, WV, n, dh, dk, dv);
    for (int t = 0; t < T; t++) {
        const float *qt = q + (long)t * ds, *dct = dctx + (long)t * dv, *dwt = dw + (long)t * n;
        al_attn_key_query_forward_scores(c0, w0, s0, qt, K, WQ, WK, WV, m, n, ds, dh, dk, dv,
                                         scaled, scr);
        al_attn_key_query_forward_projected(c1, w1, s1, qt, Kp, Vp, WQ, m, n, ds, dk, dv, scaled,
                                            scr);
        snprintf(what, sizeof what, "key-query n=%d ds=%d dh=%d dk=%d dv=%d scaled=%d mask=%d t=%d",
                 n, ds, dh, dk, dv, scaled, use_mask, t);
        close_ff(what, c1, c0, dv);
        close_ff(what, w1, w0, n);
        close_ff(what, s1, s0, n);
        al_attn_key_query_backward(g[0][0] + (long)t * ds, g[0][1], g[0][2], g[0][3], g[0][4], dct,
                                   dwt, qt, K, WQ, WK, WV, m, n, ds, dh, dk, dv, scaled, scr);
        al_attn_key_query_backward_projected(g[1][0] + (long)t * ds, dKp, dVp, g[1][2], dct, dwt,
                                             qt, Kp, Vp, WQ, m, n, ds, dk, dv, scaled, scr);
    }
    al_attn_key_query_fold_keys(g[1][1], g[1][3], g[1][4], dKp, dVp, K, WK, WV, n, dh, dk, dv);
    static const char *names[5] = { "dquery", "dkeys", "dW_Q", "dW_K", "dW_V" };
    for (int k = 0; k < 5; k++) {
        snprintf(what, sizeof what, "key-query %s n=%d ds=%d dh=%d dk=%d dv=%d T=%d", names[k], n,
                 ds, dh, dk, dv, T);
        close_ff(what, g[1][k], g[0][k], sz[k]);
    }
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < 5; k++) free(g[p][k]);
    void *fr[] = {
        q, K, WQ, WK, WV, dctx, dw, mask, scr, Kp, Vp, dKp, dVp, c0, c1, w0, w1, s0, s1
    };
    for (size_t i = 0; i < sizeof fr / sizeof *fr; i++) free(fr[i]);
}

static void test_key_query(void)
{
    check_seed(33);
    kq_case(1, 3, 4, 2, 5, 1, 0, 3); /* n = 1 */
    kq_case(8, 5, 7, 3, 2, 0, 0, 4); /* dk < dh */
    kq_case(9, 4, 3, 6, 7, 1, 1, 5); /* dk, dv > dh, masked */
    for (int r = 0; r < 6; r++) {
        const int n = 1 + (int)(check_uniform() * 20), ds = 1 + (int)(check_uniform() * 16);
        const int dh = 1 + (int)(check_uniform() * 16), dk = 1 + (int)(check_uniform() * 16);
        const int dv = 1 + (int)(check_uniform() * 16), T = 1 + (int)(check_uniform() * 5);
        kq_case(n, ds, dh, dk, dv, r & 1, r % 3 == 1, T);
    }
}

int main(void)
{
    test_additive();
    test_luong();
    test_key_query();
    printf("keys projected once: worst |projected - unprojected| %.3g\n", worst);
    return check_report("test_attention_projected");
}
