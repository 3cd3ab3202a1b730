/*
 * models/transformer_train.c: the loss and exact gradient of one transformer example, seeded
 * initialisation, and the architecture hooks; the maths is in transformer_train.h. The forward
 * here is transformer.c's (al_transformer_embed, al_tl_forward, al_layernorm_forward, al_sgemm)
 * keeping each layer's input for al_tl_backward.
 * Deliberately not here: optimisers, the trainer handle, argument checks (api/train.c).
 */
#include <math.h>
#include <string.h>

#include "transformer_train.h"
#include "loss.h"
#include "optim.h"
#include "../kernels/kernels.h"

/* The gradient of parameter p: the same offset in g0 as p has in w0 (NULL for NULL). */
static float *gp(const float *w0, float *g0, const float *p) { return p ? g0 + (p - w0) : NULL; }

al_tl_grads al_transformer_layer_grads(const float *w0, float *g0, const al_tl_weights *w)
{
    al_tl_grads g;
    g.sa_in_w = gp(w0, g0, w->sa_in_w);
    g.sa_in_b = gp(w0, g0, w->sa_in_b);
    g.sa_out_w = gp(w0, g0, w->sa_out_w);
    g.sa_out_b = gp(w0, g0, w->sa_out_b);
    g.ca_in_w = gp(w0, g0, w->ca_in_w);
    g.ca_in_b = gp(w0, g0, w->ca_in_b);
    g.ca_out_w = gp(w0, g0, w->ca_out_w);
    g.ca_out_b = gp(w0, g0, w->ca_out_b);
    g.l1_w = gp(w0, g0, w->l1_w);
    g.l1_b = gp(w0, g0, w->l1_b);
    g.l2_w = gp(w0, g0, w->l2_w);
    g.l2_b = gp(w0, g0, w->l2_b);
    g.n1_w = gp(w0, g0, w->n1_w);
    g.n1_b = gp(w0, g0, w->n1_b);
    g.n2_w = gp(w0, g0, w->n2_w);
    g.n2_b = gp(w0, g0, w->n2_b);
    g.n3_w = gp(w0, g0, w->n3_w);
    g.n3_b = gp(w0, g0, w->n3_b);
    g.sa_rel_k = gp(w0, g0, w->sa_rel_k);
    g.sa_rel_v = gp(w0, g0, w->sa_rel_v);
    return g;
}

static long lmax(long a, long b) { return a > b ? a : b; }

/* One stack's saved forward: xs [(L+1)·n, E] (layer l's input at row block l, the last layer's
 * output at block L), and the final norm's statistics. */
typedef struct {
    float *xs;          /* [(L+1), n, E] */
    float *y;           /* [n,E] after the final norm (or == the block L of xs without one) */
    float *mean, *rstd; /* [n] */
} stack_saves;

/* x_0 = xs block 0 (already embedded) through the L layers and the final norm nw/nb (NULL: none). */
static void stack_forward(const al_transformer *m, const stack_saves *s,
                          const al_tl_weights *layers, int n, const float *mem, int S, int causal,
                          const float *nw, const float *nb, float *satt, float *catt,
                          float *scratch)
{
    const int E = m->E;
    al_tl_config lc = m->lc;
    lc.causal = causal;
    for (int l = 0; l < m->L; l++) {
        al_tl_forward(s->xs + (size_t)(l + 1) * n * E, satt, mem ? catt : NULL,
                      s->xs + (size_t)l * n * E, mem, &layers[l], n, mem ? S : 0, E, m->F, m->H,
                      &lc, NULL, NULL, scratch);
    }
    if (nw)
        al_layernorm_forward(s->y, s->mean, s->rstd, s->xs + (size_t)m->L * n * E, nw, nb, n, E,
                             lc.eps);
}

/*
 * The vjp of stack_forward: from dy [n,E] (the gradient of the stack's output; overwritten),
 * leaves ∂/∂x_0 in *dx0 (one of the ping-pong buffers da, db [n,E]), adds ∂/∂mem to dmem [S,E]
 * (decoder) and every parameter's gradient to g0.
 */
static float *stack_backward(const al_transformer *m, const float *w0, float *g0,
                             const stack_saves *s, const al_tl_weights *layers, int n,
                             const float *mem, float *dmem, int S, int causal, const float *nw,
                             const float *nb, float *dy, float *da, float *db, float *scratch)
{
    const int E = m->E;
    const size_t nE = (size_t)n * E;
    al_tl_config lc = m->lc;
    lc.causal = causal;
    float *dcur = dy; /* the gradient of the current output; the next goes to the other of da, db */
    if (nw) {
        /* y = LN(x_L)  →  dx_L = LN vjp of dy;  dnorm.weight, dnorm.bias += */
        memset(da, 0, nE * sizeof(float));
        al_layernorm_backward(da, gp(w0, g0, nw), gp(w0, g0, nb), dy, s->xs + (size_t)m->L * nE,
                              s->mean, s->rstd, nw, n, E);
        dcur = da;
    }
    for (int l = m->L - 1; l >= 0; l--) {
        /* x_{l+1} = layer_l(x_l, mem)  →  dx_l, dmem +=, layer l's gradients += */
        const al_tl_grads g = al_transformer_layer_grads(w0, g0, &layers[l]);
        float *dnext = dcur == da ? db : da;
        memset(dnext, 0, nE * sizeof(float));
        al_tl_backward(dnext, mem ? dmem : NULL, &g, dcur, NULL, NULL, s->xs + (size_t)l * nE, mem,
                       &layers[l], n, mem ? S : 0, E, m->F, m->H, &lc, NULL, NULL, scratch);
        dcur = dnext;
    }
    return dcur;
}

/* x = table[ids]·(√E) + P  →  dpos[t] += dx[t] (learned), dtable[ids[t]] += √E · dx[t].
 * dx [n,E] is scaled in place. */
static void embed_backward(const al_transformer *m, const float *w0, float *g0, const float *table,
                           const int32_t *ids, int n, float *dx)
{
    const int E = m->E;
    if (m->positions == AL_TF_LEARNED) {
        float *dpos = gp(w0, g0, m->pos);
        for (long i = 0; i < (long)n * E; i++) dpos[i] += dx[i];
    }
    if (m->scale_embedding) {
        const float sc = (float)sqrt((double)E);
        for (long i = 0; i < (long)n * E; i++) dx[i] *= sc;
    }
    al_embedding_backward(gp(w0, g0, table), ids, n, dx, E);
}

al_status al_transformer_backward(const al_transformer *m, const float *w0, float *g0,
                                  const int32_t *src, int S, const int32_t *tgt, int T, float scale,
                                  float smoothing, double *nll)
{
    const int ed = m->variant == AL_TF_ENCODER_DECODER;
    const int E = m->E, H = m->H, F = m->F, L = m->L, V = m->Vt;
    const int n = ed ? T : S; /* rows of logits */
    const int N = S > n ? S : n;
    const int rk = m->lc.rel_k;
    *nll = 0.0;
    long scratch = al_tl_backward_scratch_floats(S, 0, E, F, H, 0) +
                   al_tl_relative_scratch_floats(S, E, H, rk);
    if (ed)
        scratch = lmax(scratch, al_tl_backward_scratch_floats(T, S, E, F, H, 1) +
                                    al_tl_relative_scratch_floats(T, E, H, rk));
    const double floats = (double)(L + 1) * S * E + (double)S * E + 2.0 * S + /* encoder */
                          (ed ? (double)(L + 1) * T * E + (double)T * E + 2.0 * T : 0) +
                          (double)n * V + 3.0 * N * E +
                          (double)S * E + /* dlogits, dy, da, db, dmem */
                          (double)H * N * N + (double)H * T * S + (double)scratch + 1 + T;
    if (floats * sizeof(float) >= 2147483648.0) return AL_ERR_OVERFLOW;
    float *blk = al_malloc((size_t)floats * sizeof(float));
    if (!blk) return AL_ERR_NOMEM;
    float *p = blk;
    stack_saves enc, dec;
    memset(&dec, 0, sizeof dec);
    /* clang-format off */
    enc.xs = p; p += (size_t)(L + 1) * S * E;
    enc.y = p; p += (size_t)S * E;
    enc.mean = p; p += S;
    enc.rstd = p; p += S;
    /* clang-format on */
    if (ed) {
        /* clang-format off */
        dec.xs = p; p += (size_t)(L + 1) * T * E;
        dec.y = p; p += (size_t)T * E;
        dec.mean = p; p += T;
        dec.rstd = p; p += T;
        /* clang-format on */
    }
    float *logits = p;
    p += (size_t)n * V; /* [n,V], then dlogits in place */
    float *dy = p;
    p += (size_t)N * E; /* [n,E] */
    float *da = p;
    p += (size_t)N * E; /* [N,E] ping-pong */
    /* clang-format off */
    float *db = p; p += (size_t)N * E;
    /* clang-format on */
    float *dmem = p;
    p += (size_t)S * E; /* [S,E] */
    float *satt = p;
    p += (size_t)H * N * N; /* [H,N,N] attention nobody reads */
    float *catt = p;
    p += (size_t)H * T * S; /* [H,T,S] */
    int32_t *fed = (int32_t *)p;
    p += T; /* [T] the decoder input: bos, tgt[0..T−2] */
    float *work = p;

    /* ---- forward */
    const float *encw = m->final_norm ? m->enc_norm_w : NULL;
    const float *decw = m->final_norm ? m->dec_norm_w : NULL;
    if (!m->final_norm) enc.y = enc.xs + (size_t)L * S * E;
    al_transformer_embed(m, enc.xs, m->src_emb, src, S);
    stack_forward(m, &enc, m->enc, S, NULL, 0, m->variant == AL_TF_DECODER, encw, m->enc_norm_b,
                  satt, NULL, work);
    const float *y = enc.y;
    if (ed) {
        if (!m->final_norm) dec.y = dec.xs + (size_t)L * T * E;
        fed[0] = m->bos;
        for (int t = 1; t < T; t++) fed[t] = tgt[t - 1];
        al_transformer_embed(m, dec.xs, m->tgt_emb, fed, T);
        stack_forward(m, &dec, m->dec, T, enc.y, S, 1, decw, m->dec_norm_b, satt, catt, work);
        y = dec.y;
    }
    /* logits [n,V] = y out.weightᵀ + out.bias */
    al_sgemm(0, 1, n, V, E, 1.0f, y, E, m->out_w, E, 0.0f, logits, V);
    for (int t = 0; t < n; t++)
        for (int v = 0; v < V; v++) logits[(size_t)t * V + v] += m->out_b[v];

    /* ---- loss: row t's target (decoder: the next token; its last row has none) */
    const int rows = m->variant == AL_TF_DECODER ? S - 1 : n;
    double sum = 0.0;
    for (int t = 0; t < n; t++) {
        float *row = logits + (size_t)t * V;
        if (t >= rows) {
            memset(row, 0, (size_t)V * sizeof(float));
            continue;
        }
        const int target = m->variant == AL_TF_DECODER ? src[t + 1] : tgt[t];
        float mx = row[0];
        for (int v = 1; v < V; v++) mx = row[v] > mx ? row[v] : mx;
        double z = 0.0;
        for (int v = 0; v < V; v++) z += exp((double)row[v] - mx);
        const double lz = log(z);
        sum -= (double)row[target] - mx - lz;
        sum += al_smoothing_extra(row, V, target, smoothing);
        /* nll = −log softmax(row)[target]  →  dlogits = scale · (softmax − q), q the smoothed
         * target (models/loss.h; onehot when smoothing = 0) */
        const double uniform = (double)smoothing / V, hit = 1.0 - smoothing;
        for (int v = 0; v < V; v++) {
            const double pv = exp((double)row[v] - mx - lz);
            row[v] = (float)(scale * (pv - uniform - (v == target ? hit : 0.0)));
        }
    }
    *nll = sum;

    /* ---- backward */
    /* logits = y Wᵀ + b  →  dW += dlogitsᵀ y,  db += Σ dlogits,  dy = dlogits W */
    al_sgemm(1, 0, V, E, n, 1.0f, logits, V, y, E, 1.0f, gp(w0, g0, m->out_w), E);
    float *gb = gp(w0, g0, m->out_b);
    for (int t = 0; t < n; t++)
        for (int v = 0; v < V; v++) gb[v] += logits[(size_t)t * V + v];
    al_sgemm(0, 0, n, E, V, 1.0f, logits, V, m->out_w, E, 0.0f, dy, E);
    if (ed) {
        memset(dmem, 0, (size_t)S * E * sizeof(float));
        float *dx0 = stack_backward(m, w0, g0, &dec, m->dec, T, enc.y, dmem, S, 1, decw,
                                    m->dec_norm_b, dy, da, db, work);
        embed_backward(m, w0, g0, m->tgt_emb, fed, T, dx0);
        memcpy(dy, dmem, (size_t)S * E * sizeof(float));
    }
    float *dx0 = stack_backward(m, w0, g0, &enc, m->enc, S, NULL, NULL, 0,
                                m->variant == AL_TF_DECODER, encw, m->enc_norm_b, dy, da, db, work);
    embed_backward(m, w0, g0, m->src_emb, src, S, dx0);
    al_free(blk);
    return AL_OK;
}

/* ------------------------------------------------------------------ initialisation */

static int ends(const char *s, const char *suffix)
{
    const size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static al_init init_rule(const al_tensor_spec *t, int k, const void *impl)
{
    const al_transformer *m = impl;
    const char *name = t->name;
    if (ends(name, "embedding.weight") || strstr(name, ".relative_"))
        return (al_init){ AL_INIT_NORMAL, 0.0 };
    if (strstr(name, "norm")) return (al_init){ AL_INIT_CONST, ends(name, ".weight") ? 1.0 : 0.0 };
    if (ends(name, "in_proj_weight")) {
        /* xavier_uniform on [3E, E]: fan_in E, fan_out 3E */
        return (al_init){ AL_INIT_UNIFORM, sqrt(6.0 / (t->dim[0] + t->dim[1])) };
    }
    if (ends(name, "in_proj_bias") || ends(name, "out_proj.bias"))
        return (al_init){ AL_INIT_CONST, 0.0 };
    /* nn.Linear: weight [out, in] and its bias, both U(±1/√in) */
    const double fan = t->rank == 2 ? t->dim[1] : ends(name, "linear2.bias") ? m->F : m->E;
    return (al_init){ AL_INIT_UNIFORM, 1.0 / sqrt(fan) };
}

void al_transformer_init(const al_tensor_list *list, const al_transformer *m, float *weights,
                         uint32_t seed)
{
    al_init_weights(list, m, weights, seed, init_rule);
}

void al_transformer_init_hook(const al_tensor_list *list, const void *impl, float *weights,
                              uint32_t seed)
{
    al_transformer_init(list, (const al_transformer *)impl, weights, seed);
}

static int ids_in(const int32_t *ids, int n, int V)
{
    for (int i = 0; i < n; i++)
        if (ids[i] < 0 || ids[i] >= V) return 0;
    return 1;
}

al_status al_transformer_example_hook(const void *impl, const int32_t *src, int S,
                                      const int32_t *tgt, int T, double *terms)
{
    const al_transformer *m = (const al_transformer *)impl;
    if (!src || S < 1 || T < 0 || (T > 0 && !tgt)) return AL_ERR_SHAPE;
    switch (m->variant) {
    case AL_TF_ENCODER_DECODER:
        if (T < 1 || S > m->max_positions || T > m->max_positions) return AL_ERR_SHAPE;
        *terms = T;
        break;
    case AL_TF_DECODER:
        if (S < 2 || T != 0 || S > m->max_positions) return AL_ERR_SHAPE;
        *terms = S - 1;
        break;
    default:
        if (T != S || S > m->max_positions) return AL_ERR_SHAPE;
        *terms = S;
        break;
    }
    if (!ids_in(src, S, m->Vs) || !ids_in(tgt, T, m->Vt)) return AL_ERR_RANGE;
    return AL_OK;
}

al_status al_transformer_backward_hook(const void *impl, const float *w0, float *g0,
                                       const int32_t *src, int S, const int32_t *tgt, int T,
                                       float scale, float smoothing, double *nll)
{
    return al_transformer_backward((const al_transformer *)impl, w0, g0, src, S, tgt, T, scale,
                                   smoothing, nll);
}
