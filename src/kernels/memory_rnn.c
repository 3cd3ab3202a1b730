/*
 * memory_rnn.c: the self-attention RNN and the LSTMN (Cheng, Dong & Lapata 2016, §3.1), forward
 * and full backpropagation through time, one sequence at a time. Shapes and buffer layouts are in
 * memory_rnn.h; the maths of both recurrences is quoted above each loop, and each backward loop
 * quotes the forward line it differentiates.
 *
 * Also here: the _scalar twin of the additive score vᵀ tanh(P_i + q) (the SIMD twin is in
 * memory_rnn_simd128.c; dispatch.c picks one at compile time). Everything else runs on the
 * dispatched kernels of kernels.h: al_sgemm for the all-steps input projections and the
 * parameter gradients, al_sgemv per step, al_softmax_forward/backward.
 *
 * Deliberately not here: argument checks, allocation, batching (src/api/memory_rnn.c).
 */
#include <math.h>
#include <string.h>

#include "memory_rnn.h"

/* ------------------------------------------------------------------ additive score, scalar twin */

/* tanh(x) = 1 − 2/(e^{2x} + 1): exact at ±∞ through the exp clamp, ~2e-7 absolute error near 0.
 * The SIMD twin evaluates the same expression lane by lane. */
static float score_tanh(float x) { return 1.0f - 2.0f / (al_expf_scalar(2.0f * x) + 1.0f); }

void al_memory_score_forward_scalar(float *e, const float *P, const float *q, const float *v, int n,
                                    int d)
{
    for (int i = 0; i < n; i++) {
        const float *p = P + (size_t)i * d;
        /* e_i = Σ_k v_k tanh(P_i[k] + q[k]) */
        float acc = 0.0f;
        for (int k = 0; k < d; k++) acc += v[k] * score_tanh(p[k] + q[k]);
        e[i] = acc;
    }
}

void al_memory_score_backward_scalar(float *dP, float *dq, float *dv, const float *de,
                                     const float *P, const float *q, const float *v, int n, int d)
{
    for (int i = 0; i < n; i++) {
        const float *p = P + (size_t)i * d;
        float *dp = dP + (size_t)i * d;
        float g = de[i];
        for (int k = 0; k < d; k++) {
            /* e_i = Σ_k v_k u_k, u_k = tanh(P_i[k] + q[k]):
             * dv_k += de_i u_k;  d(P_i[k] + q[k]) = de_i v_k (1 − u_k²) */
            float u = score_tanh(p[k] + q[k]);
            if (dv) dv[k] += g * u;
            float dpre = g * v[k] * (1.0f - u * u);
            dp[k] += dpre;
            dq[k] += dpre;
        }
    }
}

/* ------------------------------------------------------------------ self-attention RNN */

size_t al_sarnn_saved_floats(int T, int H, int da) { return (size_t)T * H + 2 * (size_t)T * da; }

size_t al_sarnn_scratch_floats(int T, int H, int da)
{
    return (size_t)T * H + 2 * (size_t)T * da + (size_t)H + 2 * (size_t)T;
}

void al_sarnn_seq_forward(float *h, float *weights, float *saved, float *scratch, const float *x,
                          const float *A, const float *b, const float *W_key, const float *W_query,
                          const float *v, int T, int in, int H, int da, int align)
{
    float *c = saved;              /* [T,H]  c_t */
    float *K = c + (size_t)T * H;  /* [T,da] keys W_h h_i (or W_K h_i) */
    float *Q = K + (size_t)T * da; /* [T,da] queries W_s h_t (or W_Q h_t) */
    float *e = scratch;            /* [T]    scores of one step */
    const int lda = in + H;

    /* the input half of A for every step at once: h [T,H] = x [T,in] · A[:, :in]ᵀ */
    al_sgemm(0, 1, T, H, in, 1.0f, x, in, A, lda, 0.0f, h, H);
    for (int t = 0; t < T; t++) {
        float *ht = h + (size_t)t * H;
        float *wt = weights + (size_t)t * T;
        /* h_t = tanh(A [x_t; c_{t−1}] + b), c_{−1} = 0 */
        for (int j = 0; j < H; j++) ht[j] += b[j];
        if (t > 0) al_sgemv(0, H, H, 1.0f, A + in, lda, c + (size_t)(t - 1) * H, 1.0f, ht);
        al_tanh_forward(ht, ht, H);
        al_sgemv(0, da, H, 1.0f, W_key, H, ht, 0.0f, K + (size_t)t * da);
        al_sgemv(0, da, H, 1.0f, W_query, H, ht, 0.0f, Q + (size_t)t * da);
        /* score_i = align(h_i, h_t) for i = 0 … t, h_t itself included */
        if (align == AL_MEMRNN_ALIGN_ADDITIVE)
            al_memory_score_forward(e, K, Q + (size_t)t * da, v, t + 1,
                                    da); /* vᵀ tanh(W_h h_i + W_s h_t) */
        else
            al_sgemv(0, t + 1, da, 1.0f, K, da, Q + (size_t)t * da, 0.0f,
                     e); /* (W_K h_i)ᵀ (W_Q h_t) */
        /* α_t = softmax(score); entries i > t stay 0 */
        al_softmax_forward(wt, e, NULL, 0, 1, t + 1);
        for (int i = t + 1; i < T; i++) wt[i] = 0.0f;
        /* c_t = Σ_{i≤t} α_i h_i = h[0:t+1]ᵀ α_t */
        al_sgemv(1, t + 1, H, 1.0f, h, H, wt, 0.0f, c + (size_t)t * H);
    }
}

void al_sarnn_seq_scores(float *scores, const float *saved, const float *v, int T, int H, int da,
                         int align)
{
    const float *K = saved + (size_t)T * H; /* [T,da] */
    const float *Q = K + (size_t)T * da;    /* [T,da] */
    for (int t = 0; t < T; t++) {
        float *st = scores + (size_t)t * T;
        /* the forward's score line, on the keys and query it saved */
        if (align == AL_MEMRNN_ALIGN_ADDITIVE)
            al_memory_score_forward(st, K, Q + (size_t)t * da, v, t + 1, da);
        else
            al_sgemv(0, t + 1, da, 1.0f, K, da, Q + (size_t)t * da, 0.0f, st);
        for (int i = t + 1; i < T; i++) st[i] = -INFINITY;
    }
}

void al_sarnn_seq_backward(float *dx, float *dA, float *db, float *dW_key, float *dW_query,
                           float *dv, const float *dh, const float *dweights, const float *h,
                           const float *weights, const float *saved, float *scratch, const float *x,
                           const float *A, const float *W_key, const float *W_query, const float *v,
                           int T, int in, int H, int da, int align)
{
    const float *c = saved;
    const float *K = c + (size_t)T * H;
    const float *Q = K + (size_t)T * da;
    float *dH = scratch;             /* [T,H]  dL/dh_t, all paths; then dL/dz_t */
    float *dK = dH + (size_t)T * H;  /* [T,da] */
    float *dQ = dK + (size_t)T * da; /* [T,da] */
    float *dc = dQ + (size_t)T * da; /* [H]    dL/dc_t of the step being undone */
    float *dal = dc + H;             /* [T]    dL/dα_t */
    float *de = dal + T;             /* [T]    dL/dscore */
    const int lda = in + H;

    if (dh)
        memcpy(dH, dh, sizeof(float) * (size_t)T * H);
    else
        memset(dH, 0, sizeof(float) * (size_t)T * H);
    memset(dK, 0, sizeof(float) * 2 * (size_t)T * da);
    memset(dc, 0, sizeof(float) * (size_t)H);

    for (int t = T - 1; t >= 0; t--) {
        const int n = t + 1;
        const float *wt = weights + (size_t)t * T;
        const float *qt = Q + (size_t)t * da;
        float *dqt = dQ + (size_t)t * da;
        float *dht = dH + (size_t)t * H;
        /* c_t = Σ_i α_i h_i:  dα_i = dc·h_i (+ the weights' own upstream);  dh_i += α_i dc */
        al_sgemv(0, n, H, 1.0f, h, H, dc, 0.0f, dal);
        if (dweights)
            for (int i = 0; i < n; i++) dal[i] += dweights[(size_t)t * T + i];
        for (int i = 0; i < n; i++) {
            float a = wt[i];
            float *dhi = dH + (size_t)i * H;
            for (int j = 0; j < H; j++) dhi[j] += a * dc[j];
        }
        /* α_t = softmax(score) */
        memset(de, 0, sizeof(float) * (size_t)n);
        al_softmax_backward(de, wt, dal, 1, n);
        if (align == AL_MEMRNN_ALIGN_ADDITIVE) {
            /* score_i = vᵀ tanh(K_i + Q_t) */
            al_memory_score_backward(dK, dqt, dv, de, K, qt, v, n, da);
        } else {
            /* score_i = K_i · Q_t:  dK_i += de_i Q_t;  dQ_t += Σ_i de_i K_i */
            for (int i = 0; i < n; i++) {
                float *dki = dK + (size_t)i * da;
                for (int k = 0; k < da; k++) dki[k] += de[i] * qt[k];
            }
            al_sgemv(1, n, da, 1.0f, K, da, de, 1.0f, dqt);
        }
        /* Q_t = W_query h_t, and K_t = W_key h_t (dK_t is complete: only steps >= t read K_t) */
        al_sgemv(1, da, H, 1.0f, W_query, H, dqt, 1.0f, dht);
        al_sgemv(1, da, H, 1.0f, W_key, H, dK + (size_t)t * da, 1.0f, dht);
        /* h_t = tanh(z_t): dz = dh ⊙ (1 − h²), in place (dh_t is complete now) */
        const float *ht = h + (size_t)t * H;
        for (int j = 0; j < H; j++) dht[j] *= 1.0f - ht[j] * ht[j];
        /* z_t = A[:, in:] c_{t−1} + …:  dc_{t−1} = A[:, in:]ᵀ dz_t */
        if (t > 0) al_sgemv(1, H, H, 1.0f, A + in, lda, dht, 0.0f, dc);
    }
    /* dH now holds dz [T,H]. z_t = A [x_t; c_{t−1}] + b, for all steps at once: */
    for (int t = 0; t < T; t++)
        for (int j = 0; j < H; j++) db[j] += dH[(size_t)t * H + j];
    al_sgemm(1, 0, H, in, T, 1.0f, dH, H, x, in, 1.0f, dA, lda); /* dA_x += dzᵀ x */
    if (T > 1)
        al_sgemm(1, 0, H, H, T - 1, 1.0f, dH + H, H, c, H, 1.0f, dA + in,
                 lda);                                           /* dA_c += dz_{1:}ᵀ c_{:−1} */
    al_sgemm(0, 0, T, in, H, 1.0f, dH, H, A, lda, 1.0f, dx, in); /* dx += dz A_x */
    al_sgemm(1, 0, da, H, T, 1.0f, dK, da, h, H, 1.0f, dW_key, H);   /* K = h W_keyᵀ */
    al_sgemm(1, 0, da, H, T, 1.0f, dQ, da, h, H, 1.0f, dW_query, H); /* Q = h W_queryᵀ */
}

/* ------------------------------------------------------------------ LSTMN */

size_t al_lstmn_saved_floats(int T, int H) { return 9 * (size_t)T * H; }

size_t al_lstmn_scratch_floats(int T, int H)
{
    return 8 * (size_t)T * H + 3 * (size_t)H + 2 * (size_t)T;
}

void al_lstmn_seq_forward(float *h, float *c, float *weights, float *saved, float *scratch,
                          const float *x, const float *W_h, const float *W_x, const float *W_ht,
                          const float *v, const float *W, const float *b, int T, int in, int H)
{
    const size_t TH = (size_t)T * H;
    float *ht = saved;      /* [T,H]  h̃_t (row 0 = 0) */
    float *ct = ht + TH;    /* [T,H]  c̃_t (row 0 = 0) */
    float *G = ct + TH;     /* [T,4H] i, f, g, o after σ/tanh */
    float *tc = G + 4 * TH; /* [T,H]  tanh(c_t) */
    float *P = tc + TH;     /* [T,H]  keys W_h h_i */
    float *Q = P + TH;      /* [T,H]  queries W_x x_t + W_ht h̃_{t−1} */
    float *e = scratch;     /* [T] */
    const int ldw = H + in, H4 = 4 * H;

    /* the x_t parts of every step at once: G = x W[:, H:]ᵀ, Q = x W_xᵀ */
    al_sgemm(0, 1, T, H4, in, 1.0f, x, in, W + H, ldw, 0.0f, G, H4);
    al_sgemm(0, 1, T, H, in, 1.0f, x, in, W_x, in, 0.0f, Q, H);
    memset(weights, 0, sizeof(float) * (size_t)T * T);
    for (int t = 0; t < T; t++) {
        float *htt = ht + (size_t)t * H, *ctt = ct + (size_t)t * H;
        float *Gt = G + (size_t)t * H4, *Qt = Q + (size_t)t * H;
        float *wt = weights + (size_t)t * T;
        if (t == 0) {
            /* the tape is empty: h̃_0 = c̃_0 = 0 */
            memset(htt, 0, sizeof(float) * (size_t)H);
            memset(ctt, 0, sizeof(float) * (size_t)H);
        } else {
            /* a_i = vᵀ tanh(W_h h_i + W_x x_t + W_ht h̃_{t−1}), i < t */
            al_sgemv(0, H, H, 1.0f, W_ht, H, ht + (size_t)(t - 1) * H, 1.0f, Qt);
            al_memory_score_forward(e, P, Qt, v, t, H);
            /* s_t = softmax(a) */
            al_softmax_forward(wt, e, NULL, 0, 1, t);
            /* h̃_t = Σ s_i h_i,  c̃_t = Σ s_i c_i */
            al_sgemv(1, t, H, 1.0f, h, H, wt, 0.0f, htt);
            al_sgemv(1, t, H, 1.0f, c, H, wt, 0.0f, ctt);
        }
        /* [i; f; g; o] = W [h̃_t; x_t] + b, then σ, σ, tanh, σ */
        al_sgemv(0, H4, H, 1.0f, W, ldw, htt, 1.0f, Gt);
        for (int j = 0; j < H4; j++) Gt[j] += b[j];
        al_sigmoid_forward(Gt, Gt, 2 * H);
        al_tanh_forward(Gt + 2 * H, Gt + 2 * H, H);
        al_sigmoid_forward(Gt + 3 * H, Gt + 3 * H, H);
        /* c_t = f ⊙ c̃_t + i ⊙ g,  h_t = o ⊙ tanh(c_t) */
        float *cn = c + (size_t)t * H, *hn = h + (size_t)t * H, *tct = tc + (size_t)t * H;
        for (int j = 0; j < H; j++) cn[j] = Gt[H + j] * ctt[j] + Gt[j] * Gt[2 * H + j];
        al_tanh_forward(tct, cn, H);
        for (int j = 0; j < H; j++) hn[j] = Gt[3 * H + j] * tct[j];
        /* the key of h_t for later steps: W_h h_t */
        al_sgemv(0, H, H, 1.0f, W_h, H, hn, 0.0f, P + (size_t)t * H);
    }
}

void al_lstmn_seq_scores(float *scores, const float *saved, const float *v, int T, int H)
{
    const size_t TH = (size_t)T * H;
    const float *P = saved + 7 * TH; /* [T,H] keys W_h h_i (after h̃, c̃, gates [4H], tanh c) */
    const float *Q = P + TH;         /* [T,H] queries, W_ht h̃_{t−1} already added */
    for (int t = 0; t < T; t++) {
        float *st = scores + (size_t)t * T;
        /* the forward's score line a_i = vᵀ tanh(P_i + Q_t), i < t, on what it saved */
        if (t > 0) al_memory_score_forward(st, P, Q + (size_t)t * H, v, t, H);
        for (int i = t; i < T; i++) st[i] = -INFINITY;
    }
}

void al_lstmn_seq_backward(float *dx, float *dW_h, float *dW_x, float *dW_ht, float *dv, float *dW,
                           float *db, const float *dh, const float *dc, const float *dweights,
                           const float *h, const float *c, const float *weights, const float *saved,
                           float *scratch, const float *x, const float *W_h, const float *W_x,
                           const float *W_ht, const float *v, const float *W, int T, int in, int H)
{
    const size_t TH = (size_t)T * H;
    const float *ht = saved, *ct = ht + TH, *G = ct + TH, *tc = G + 4 * TH, *P = tc + TH,
                *Q = P + TH;
    float *dHa = scratch;          /* [T,H]  dL/dh_t, all paths */
    float *dCa = dHa + TH;         /* [T,H]  dL/dc_t, all paths */
    float *dP = dCa + TH;          /* [T,H]  dL/d(W_h h_i) */
    float *dQ = dP + TH;           /* [T,H]  dL/dquery_t (row 0 stays 0) */
    float *dG = dQ + TH;           /* [T,4H] dL/dgate pre-activations */
    float *dht_next = dG + 4 * TH; /* [H]    dL/dh̃_t through query_{t+1} */
    float *dht = dht_next + H;     /* [H]    dL/dh̃_t */
    float *dct = dht + H;          /* [H]    dL/dc̃_t */
    float *ds = dct + H;           /* [T]    dL/ds_t */
    float *da = ds + T;            /* [T]    dL/da_t */
    const int ldw = H + in, H4 = 4 * H;

    if (dh)
        memcpy(dHa, dh, sizeof(float) * TH);
    else
        memset(dHa, 0, sizeof(float) * TH);
    if (dc)
        memcpy(dCa, dc, sizeof(float) * TH);
    else
        memset(dCa, 0, sizeof(float) * TH);
    memset(dP, 0, sizeof(float) * 2 * TH);
    memset(dht_next, 0, sizeof(float) * (size_t)H);

    for (int t = T - 1; t >= 0; t--) {
        float *dhn = dHa + (size_t)t * H, *dcn = dCa + (size_t)t * H, *dGt = dG + (size_t)t * H4;
        const float *Gt = G + (size_t)t * H4, *tct = tc + (size_t)t * H, *ctt = ct + (size_t)t * H;
        /* P_t = W_h h_t  (dP_t is complete: only steps > t read it) */
        al_sgemv(1, H, H, 1.0f, W_h, H, dP + (size_t)t * H, 1.0f, dhn);
        for (int j = 0; j < H; j++) {
            float i = Gt[j], f = Gt[H + j], g = Gt[2 * H + j], o = Gt[3 * H + j];
            /* h_t = o ⊙ tanh(c_t) */
            float dO = dhn[j] * tct[j];
            float dC = dcn[j] + dhn[j] * o * (1.0f - tct[j] * tct[j]);
            /* c_t = f ⊙ c̃_t + i ⊙ g */
            dct[j] = dC * f;
            /* i, f, o = σ(·), g = tanh(·) */
            dGt[j] = dC * g * i * (1.0f - i);
            dGt[H + j] = dC * ctt[j] * f * (1.0f - f);
            dGt[2 * H + j] = dC * i * (1.0f - g * g);
            dGt[3 * H + j] = dO * o * (1.0f - o);
        }
        if (t == 0) break; /* h̃_0 = c̃_0 = 0 are constants: nothing flows further */
        /* gates = W [h̃_t; x_t] + b:  dh̃_t = W[:, :H]ᵀ dG_t, plus what query_{t+1} sent back */
        memcpy(dht, dht_next, sizeof(float) * (size_t)H);
        al_sgemv(1, H4, H, 1.0f, W, ldw, dGt, 1.0f, dht);
        /* h̃_t = Σ s_i h_i, c̃_t = Σ s_i c_i:  ds_i = dh̃·h_i + dc̃·c_i;  dh_i += s_i dh̃; dc_i += s_i dc̃ */
        const float *wt = weights + (size_t)t * T;
        al_sgemv(0, t, H, 1.0f, h, H, dht, 0.0f, ds);
        al_sgemv(0, t, H, 1.0f, c, H, dct, 1.0f, ds);
        if (dweights)
            for (int i = 0; i < t; i++) ds[i] += dweights[(size_t)t * T + i];
        for (int i = 0; i < t; i++) {
            float s = wt[i];
            float *dhi = dHa + (size_t)i * H, *dci = dCa + (size_t)i * H;
            for (int j = 0; j < H; j++) {
                dhi[j] += s * dht[j];
                dci[j] += s * dct[j];
            }
        }
        /* s_t = softmax(a) */
        memset(da, 0, sizeof(float) * (size_t)t);
        al_softmax_backward(da, wt, ds, 1, t);
        /* a_i = vᵀ tanh(P_i + Q_t) */
        float *dQt = dQ + (size_t)t * H;
        al_memory_score_backward(dP, dQt, dv, da, P, Q + (size_t)t * H, v, t, H);
        /* Q_t = W_x x_t + W_ht h̃_{t−1}:  dh̃_{t−1} = W_htᵀ dQ_t */
        al_sgemv(1, H, H, 1.0f, W_ht, H, dQt, 0.0f, dht_next);
    }
    /* parameter and input gradients of the all-steps products */
    for (int t = 0; t < T; t++)
        for (int j = 0; j < H4; j++) db[j] += dG[(size_t)t * H4 + j];
    al_sgemm(1, 0, H4, H, T, 1.0f, dG, H4, ht, H, 1.0f, dW, ldw);      /* dW[:, :H] += dGᵀ h̃ */
    al_sgemm(1, 0, H4, in, T, 1.0f, dG, H4, x, in, 1.0f, dW + H, ldw); /* dW[:, H:] += dGᵀ x */
    al_sgemm(0, 0, T, in, H4, 1.0f, dG, H4, W + H, ldw, 1.0f, dx, in); /* dx += dG W[:, H:] */
    al_sgemm(0, 0, T, in, H, 1.0f, dQ, H, W_x, in, 1.0f, dx, in);      /* dx += dQ W_x */
    al_sgemm(1, 0, H, in, T, 1.0f, dQ, H, x, in, 1.0f, dW_x, in);      /* dW_x += dQᵀ x */
    if (T > 1)
        al_sgemm(1, 0, H, H, T - 1, 1.0f, dQ + H, H, ht, H, 1.0f, dW_ht, H); /* dQ_{1:}ᵀ h̃_{:−1} */
    al_sgemm(1, 0, H, H, T, 1.0f, dP, H, h, H, 1.0f, dW_h, H);               /* dW_h += dPᵀ h */
}
