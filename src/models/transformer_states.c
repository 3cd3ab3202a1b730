/*
 * models/transformer_states.c: the transformer's forward pass again, keeping every intermediate
 * (models/transformer_states.h, docs/states.md). Each layer is al_tl_forward's chain
 * (kernels/transformer_layers.c, forward_saved) written out step by step with the same kernel
 * calls on the same inputs: LN, then al_attn_mha_forward (plain) or the Shaw kernel
 * al_attn_relpos_forward over x' = [x, 1], W' = [W_in | b_in] (relative), the residual, the
 * feed-forward block. Q, K, V and the heads' concatenation are what those kernels leave in their
 * scratch; the scores are their pre-softmax products recomputed with the same al_sgemm calls.
 * So the weights, layer outputs and logits equal al_transformer_forward's bit for bit.
 * Deliberately not here: keys masks (the model has none), batching, a backward.
 */
#include <math.h>
#include <string.h>

#include "transformer_states.h"
#include "../kernels/attention_transformer.h"
#include "../kernels/kernels.h"
#include "../toolbox.h"

static int sublayers(const al_transformer *m)
{
    return m->variant == AL_TF_ENCODER_DECODER ? 3 * m->L : m->L;
}

int al_transformer_states_fields(const al_transformer *m)
{
    const int lo = m->variant == AL_TF_ENCODER_DECODER ? 2 * m->L : m->L;
    return 2 + AL_TF_STATE_SUB * sublayers(m) + lo + 3;
}

/* The layout being written: shapes (may be NULL), the field count and the total floats. */
typedef struct {
    int32_t *s;
    int k;
    double total;
} layout;

static void put(layout *l, int rank, int a, int b, int c)
{
    if (l->s) {
        int32_t *p = l->s + 4 * l->k;
        p[0] = rank;
        p[1] = rank > 0 ? a : 0;
        p[2] = rank > 1 ? b : 0;
        p[3] = rank > 2 ? c : 0;
    }
    l->k++;
    l->total += rank == 0 ? 0.0 : (double)a * (rank > 1 ? b : 1) * (rank > 2 ? c : 1);
}

/* one attention sublayer: n queries, mm keys */
static void put_sub(layout *l, const al_transformer *m, int n, int mm, int rel)
{
    const int E = m->E, H = m->H, Dh = E / H;
    put(l, 2, n, E, 0);                             /* input */
    put(l, m->lc.norm_first ? 2 : 0, n, E, 0);      /* normed */
    put(l, 3, H, n, Dh);                            /* q */
    put(l, 3, H, mm, Dh);                           /* k */
    put(l, 3, H, mm, Dh);                           /* v */
    put(l, 3, H, n, mm);                            /* scores */
    put(l, rel ? 3 : 0, H, n, mm);                  /* relative */
    put(l, 3, H, n, mm);                            /* weights */
    put(l, 3, H, n, Dh);                            /* heads */
    for (int i = 0; i < 3; i++) put(l, 2, n, E, 0); /* concat, projected, residual */
}

double al_transformer_states_layout(const al_transformer *m, int S, int T, int32_t *shapes)
{
    const int ed = m->variant == AL_TF_ENCODER_DECODER, E = m->E, L = m->L;
    const int dec = m->variant == AL_TF_DECODER, rel = m->positions == AL_TF_RELATIVE;
    layout l = { shapes, 0, 0.0 };
    put(&l, dec ? 0 : 2, S, E, 0);                /* embedded encoder */
    put(&l, ed || dec ? 2 : 0, ed ? T : S, E, 0); /* embedded decoder */
    for (int i = 0; i < L; i++) put_sub(&l, m, S, S, rel);
    for (int i = 0; ed && i < L; i++) {
        put_sub(&l, m, T, T, rel);
        put_sub(&l, m, T, S, 0);
    }
    for (int i = 0; i < L; i++) put(&l, 2, S, E, 0);
    for (int i = 0; ed && i < L; i++) put(&l, 2, T, E, 0);
    put(&l, dec ? 0 : 2, S, E, 0);                /* final encoder */
    put(&l, ed || dec ? 2 : 0, ed ? T : S, E, 0); /* final decoder */
    put(&l, 2, ed ? T : S, m->Vt, 0);             /* logits */
    return l.total;
}

/* Walks out along the layout: the next field's floats, NULL for an absent one. */
typedef struct {
    const int32_t *s;
    int k;
    float *p;
} cursor;

static float *next(cursor *c)
{
    const int32_t *q = c->s + 4 * c->k++;
    if (q[0] == 0) return NULL;
    float *f = c->p;
    c->p += (size_t)q[1] * (q[0] > 1 ? (size_t)q[2] : 1) * (q[0] > 2 ? (size_t)q[3] : 1);
    return f;
}

/* The scratch of one traced layer (sizes for the longest sequence N and memory S). */
typedef struct {
    float *mha;          /* al_attn_mha_scratch_floats(N, N, E): Q, K, V, ctx after a call */
    float *xa, *wa, *ks; /* relative: x' [N,E+1], W' [3E,E+1], the Shaw kernel's scratch */
    float *buck;         /* [N,2k+1] scale · Q_h a^Kᵀ */
    float *z, *u, *act;  /* [N,E] the post-norm sum, [N,F] linear1 and its activation */
    float *ln, *fo;      /* [N,E] the FF block's normed input and output */
    float *mean, *rstd;  /* [N] */
} trace_ws;

static double ws_floats(const al_transformer *m, int N)
{
    const int E = m->E, k = m->lc.rel_k;
    double f = (double)al_attn_mha_scratch_floats(N, N, E) + 3.0 * N * E + 2.0 * N * m->F + 2.0 * N;
    if (k > 0)
        f += (double)N * (E + 1) + 3.0 * E * (E + 1) +
             (double)al_attn_relpos_scratch_floats(N, E, k) + (double)N * (2 * k + 1);
    return f;
}

static void ws_carve(trace_ws *w, const al_transformer *m, int N, float *p)
{
    const int E = m->E, k = m->lc.rel_k;
    /* clang-format off */
    w->mha = p; p += al_attn_mha_scratch_floats(N, N, E);
    w->z = p; p += (size_t)N * E;
    w->ln = p; p += (size_t)N * E;
    w->fo = p; p += (size_t)N * E;
    w->u = p; p += (size_t)N * m->F;
    w->act = p; p += (size_t)N * m->F;
    w->mean = p; p += N;
    w->rstd = p; p += N;
    if (k > 0) {
        w->xa = p; p += (size_t)N * (E + 1);
        w->wa = p; p += (size_t)3 * E * (E + 1);
        w->ks = p; p += al_attn_relpos_scratch_floats(N, E, k);
        w->buck = p;
    }
    /* clang-format on */
}

/* dst [H,n,Dh] = the head column slices of src [n,ld] */
static void split_heads(float *dst, const float *src, int ld, int n, int H, int Dh)
{
    for (int h = 0; h < H; h++)
        for (int t = 0; t < n; t++)
            memcpy(dst + ((size_t)h * n + t) * Dh, src + (size_t)t * ld + (size_t)h * Dh,
                   sizeof(float) * (size_t)Dh);
}

/*
 * One attention block (self when kv is NULL, else cross over kv [mm,E]) of layer w: reads
 * in [n,E], writes the sublayer's fields (cursor c) and returns its residual (the block output).
 */
static float *trace_attention(const al_transformer *m, const al_tl_weights *w, const float *in,
                              int n, const float *kv, int mm, int causal, int block, cursor *c,
                              const trace_ws *ws)
{
    const int E = m->E, H = m->H, Dh = E / H, k = kv ? 0 : m->lc.rel_k;
    const float scale = 1.0f / sqrtf((float)Dh);
    float *input = next(c), *normed = next(c), *q = next(c), *kk = next(c), *v = next(c);
    float *scores = next(c), *relative = next(c), *att = next(c), *heads = next(c);
    float *concat = next(c), *fo = next(c), *res = next(c);
    const float *nw = block == 0 ? w->n1_w : w->n2_w, *nb = block == 0 ? w->n1_b : w->n2_b;
    memcpy(input, in, sizeof(float) * (size_t)n * E);
    const float *sub = in;
    if (normed) { /* pre-norm: the sublayer reads LN(in) */
        al_layernorm_forward(normed, ws->mean, ws->rstd, in, nw, nb, n, E, m->lc.eps);
        sub = normed;
    }
    const float *Q, *K, *V;
    int ld;
    if (k > 0) { /* transformer_layers.c rel_sa_forward: x' = [sub, 1], W' = [W_in | b_in] */
        const int E1 = E + 1;
        for (int t = 0; t < n; t++) {
            memcpy(ws->xa + (size_t)t * E1, sub + (size_t)t * E, sizeof(float) * (size_t)E);
            ws->xa[(size_t)t * E1 + E] = 1.0f;
        }
        for (int o = 0; o < 3 * E; o++) {
            memcpy(ws->wa + (size_t)o * E1, w->sa_in_w + (size_t)o * E, sizeof(float) * (size_t)E);
            ws->wa[(size_t)o * E1 + E] = w->sa_in_b[o];
        }
        al_attn_relpos_forward(concat, att, ws->xa, ws->wa, ws->wa + (size_t)E * E1,
                               ws->wa + 2 * (size_t)E * E1, w->sa_rel_k, w->sa_rel_v, n, E1, E, H,
                               k, NULL, causal, ws->ks);
        al_sgemm(0, 1, n, E, E, 1.0f, concat, E, w->sa_out_w, E, 0.0f, fo, E);
        for (int t = 0; t < n; t++)
            for (int j = 0; j < E; j++) fo[(size_t)t * E + j] += w->sa_out_b[j];
        Q = ws->ks, K = Q + (size_t)n * E, V = K + (size_t)n * E, ld = E;
    } else {
        const float *key = kv ? kv : sub;
        al_attn_mha_forward(fo, att, sub, key, key, kv ? w->ca_in_w : w->sa_in_w,
                            kv ? w->ca_in_b : w->sa_in_b, kv ? w->ca_out_w : w->sa_out_w,
                            kv ? w->ca_out_b : w->sa_out_b, n, mm, E, H, NULL, causal, ws->mha);
        Q = ws->mha, K = Q + (size_t)n * E, V = K + (size_t)mm * E, ld = E;
        memcpy(concat, V + (size_t)mm * E, sizeof(float) * (size_t)n * E); /* ctx */
    }
    split_heads(q, Q, ld, n, H, Dh);
    split_heads(kk, K, ld, mm, H, Dh);
    split_heads(v, V, ld, mm, H, Dh);
    split_heads(heads, concat, E, n, H, Dh);
    for (int h = 0; h < H; h++) {
        /* e = scale · Q_h K_hᵀ (+ Shaw's gathered scale · Q_h a^Kᵀ), as the kernels compute it */
        float *e = scores + (size_t)h * n * mm;
        al_sgemm(0, 1, n, mm, Dh, scale, Q + h * Dh, ld, K + h * Dh, ld, 0.0f, e, mm);
        if (k > 0) {
            float *r = relative + (size_t)h * n * mm;
            al_sgemm(0, 1, n, 2 * k + 1, Dh, scale, Q + h * Dh, ld, w->sa_rel_k, Dh, 0.0f, ws->buck,
                     2 * k + 1);
            al_relpos_gather_add(e, ws->buck, n, k);
            memset(r, 0, sizeof(float) * (size_t)n * mm);
            al_relpos_gather_add(r, ws->buck, n, k);
        }
        for (int t = 0; causal && t < n; t++)
            for (int s = t + 1; s < mm; s++) e[(size_t)t * mm + s] = -INFINITY;
    }
    const size_t len = (size_t)n * E;
    if (normed) { /* pre-norm: in + f(LN(in)) */
        for (size_t i = 0; i < len; i++) res[i] = in[i] + fo[i];
    } else { /* post-norm: LN(in + f(in)) */
        for (size_t i = 0; i < len; i++) ws->z[i] = in[i] + fo[i];
        al_layernorm_forward(res, ws->mean, ws->rstd, ws->z, nw, nb, n, E, m->lc.eps);
    }
    return res;
}

/* The feed-forward block (norm3 in a decoder layer, norm2 in an encoder layer): out [n,E]. */
static void trace_ff(const al_transformer *m, const al_tl_weights *w, const float *in, int n,
                     int dec, float *out, const trace_ws *ws)
{
    const int E = m->E, F = m->F;
    const float *nw = dec ? w->n3_w : w->n2_w, *nb = dec ? w->n3_b : w->n2_b;
    const float *sub = in;
    if (m->lc.norm_first) {
        al_layernorm_forward(ws->ln, ws->mean, ws->rstd, in, nw, nb, n, E, m->lc.eps);
        sub = ws->ln;
    }
    al_sgemm(0, 1, n, F, E, 1.0f, sub, E, w->l1_w, E, 0.0f, ws->u, F);
    for (int t = 0; t < n; t++)
        for (int j = 0; j < F; j++) ws->u[(size_t)t * F + j] += w->l1_b[j];
    if (m->lc.gelu)
        al_gelu_forward(ws->act, ws->u, n * F);
    else
        al_relu_forward(ws->act, ws->u, n * F);
    al_sgemm(0, 1, n, E, F, 1.0f, ws->act, F, w->l2_w, F, 0.0f, ws->fo, E);
    for (int t = 0; t < n; t++)
        for (int j = 0; j < E; j++) ws->fo[(size_t)t * E + j] += w->l2_b[j];
    const size_t len = (size_t)n * E;
    if (m->lc.norm_first) {
        for (size_t i = 0; i < len; i++) out[i] = in[i] + ws->fo[i];
    } else {
        for (size_t i = 0; i < len; i++) ws->z[i] = in[i] + ws->fo[i];
        al_layernorm_forward(out, ws->mean, ws->rstd, ws->z, nw, nb, n, E, m->lc.eps);
    }
}

al_status al_transformer_states(const al_transformer *m, const int32_t *src, int S,
                                const int32_t *tgt, int T, float *out)
{
    const int ed = m->variant == AL_TF_ENCODER_DECODER, L = m->L, E = m->E;
    if (S > m->max_positions || T > m->max_positions) return AL_ERR_SHAPE;
    for (int i = 0; i < S; i++)
        if (src[i] < 0 || src[i] >= m->Vs) return AL_ERR_RANGE;
    for (int i = 0; ed && i < T; i++)
        if (tgt[i] < 0 || tgt[i] >= m->Vt) return AL_ERR_RANGE;
    const int fields = al_transformer_states_fields(m), N = S > T ? S : T;
    const double floats = ws_floats(m, N) + 4.0 * fields; /* + the shapes, int32 */
    if (floats * sizeof(float) >= 2147483648.0) return AL_ERR_OVERFLOW;
    float *block = al_malloc((size_t)floats * sizeof(float));
    if (!block) return AL_ERR_NOMEM;
    int32_t *shapes = (int32_t *)block; /* [fields·4], then the layer scratch */
    trace_ws ws;
    ws_carve(&ws, m, N, block + (size_t)fields * 4);
    al_transformer_states_layout(m, S, ed ? T : 0, shapes);
    cursor c = { shapes, 0, out };
    float *emb_e = next(&c), *emb_d = next(&c);
    float *sub0 = c.p; /* the sublayer fields, walked twice: first skipped to reach the outputs */
    const int sub_start = c.k;
    for (int i = 0; i < AL_TF_STATE_SUB * sublayers(m); i++) next(&c);
    float *outs[2 * AL_TF_MAX_LAYERS];
    for (int i = 0; i < (ed ? 2 : 1) * L; i++) outs[i] = next(&c);
    float *fin_e = next(&c), *fin_d = next(&c), *logits = next(&c);
    cursor sc = { shapes, sub_start, sub0 };

    /* the encoder stack (or the single stack of the encoder / decoder variants) */
    const int single_dec = m->variant == AL_TF_DECODER;
    float *x = single_dec ? emb_d : emb_e;
    al_transformer_embed(m, x, m->src_emb, src, S);
    const float *in = x;
    for (int i = 0; i < L; i++) {
        const float *r = trace_attention(m, &m->enc[i], in, S, NULL, S, single_dec, 0, &sc, &ws);
        trace_ff(m, &m->enc[i], r, S, 0, outs[i], &ws);
        in = outs[i];
    }
    float *fin = single_dec ? fin_d : fin_e;
    if (m->final_norm)
        al_layernorm_forward(fin, NULL, NULL, in, m->enc_norm_w, m->enc_norm_b, S, E, m->lc.eps);
    else
        memcpy(fin, in, sizeof(float) * (size_t)S * E);
    int n = S;
    if (ed) { /* the decoder over the memory fin_e */
        al_transformer_embed(m, emb_d, m->tgt_emb, tgt, T);
        in = emb_d;
        for (int i = 0; i < L; i++) {
            const float *r = trace_attention(m, &m->dec[i], in, T, NULL, T, 1, 0, &sc, &ws);
            r = trace_attention(m, &m->dec[i], r, T, fin_e, S, 0, 1, &sc, &ws);
            trace_ff(m, &m->dec[i], r, T, 1, outs[L + i], &ws);
            in = outs[L + i];
        }
        if (m->final_norm)
            al_layernorm_forward(fin_d, NULL, NULL, in, m->dec_norm_w, m->dec_norm_b, T, E,
                                 m->lc.eps);
        else
            memcpy(fin_d, in, sizeof(float) * (size_t)T * E);
        fin = fin_d;
        n = T;
    }
    /* logits = final out.weightᵀ + out.bias (transformer.c project) */
    al_sgemm(0, 1, n, m->Vt, E, 1.0f, fin, E, m->out_w, E, 0.0f, logits, m->Vt);
    for (int t = 0; t < n; t++)
        for (int v = 0; v < m->Vt; v++) logits[(size_t)t * m->Vt + v] += m->out_b[v];
    al_free(block);
    return AL_OK;
}
