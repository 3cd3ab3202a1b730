/*
 * models/transformer_train_batch.c: the loss and exact gradient of a whole batch of transformer
 * examples at once (transformer_train.h, al_transformer_backward_batch): the batch's tokens
 * packed as rows, every position-wise product one GEMM for the batch, the attention per sentence,
 * and every activation kept from the forward for the backward (kernels/transformer_layers_packed.h).
 * The loss and gradient are those of B calls of al_transformer_backward (transformer_train.c),
 * up to the order of float sums.
 * Deliberately not here: optimisers, the trainer handle, argument checks (api/train.c).
 */
#include <math.h>
#include <string.h>

#include "loss.h"
#include "transformer_train.h"
#include "../kernels/kernels.h"
#include "../kernels/transformer_layers_packed.h"

/* The gradient of parameter p: the same offset in g0 as p has in w0 (NULL for NULL). */
static float *gp(const float *w0, float *g0, const float *p) { return p ? g0 + (p - w0) : NULL; }

/* One stack over the packed batch: x [(L+1), N, E] (block 0 embedded; block l+1 = layer l's
 * output), y [N,E] after the final norm (mean, rstd [N]) or block L without one, the layers'
 * kept activations. */
typedef struct {
    const al_tlp_seqs *seqs;
    float *x, *y, *mean, *rstd;
    al_tlp_saves saves[AL_TF_MAX_LAYERS];
} stack;

/* The next n floats of *p (p == NULL: only count). */
static float *take(float **p, double *floats, double n)
{
    float *r = *p;
    if (r) *p += (size_t)n;
    *floats += n;
    return r;
}

/* Carve a stack's buffers (mem: the decoder's memory sequences, NULL for the encoder). */
static void stack_carve(stack *s, float **p, double *floats, const al_transformer *m,
                        const al_tlp_seqs *seqs, const al_tlp_seqs *mem)
{
    const double NE = (double)seqs->N * m->E;
    s->seqs = seqs;
    s->x = take(p, floats, (m->L + 1) * NE);
    s->y = take(p, floats, NE);
    s->mean = take(p, floats, seqs->N);
    s->rstd = take(p, floats, seqs->N);
    for (int l = 0; l < m->L; l++) {
        const double n = al_tlp_saves_floats(seqs, mem, m->E, m->F, m->H);
        float *at = take(p, floats, n);
        if (at) s->saves[l] = al_tlp_saves_carve(at, seqs, mem, m->E, m->F, m->H);
    }
    if (s->x && !m->final_norm) s->y = s->x + (size_t)m->L * seqs->N * m->E;
}

/* x block 0 (embedded) through the L layers and the final norm nw, nb (NULL: none). */
static void stack_forward(const al_transformer *m, stack *s, const al_tl_weights *layers,
                          const float *mem, const al_tlp_seqs *ms, int causal, const float *nw,
                          const float *nb, float *scratch)
{
    const size_t NE = (size_t)s->seqs->N * m->E;
    al_tl_config lc = m->lc;
    lc.causal = causal;
    for (int l = 0; l < m->L; l++)
        al_tlp_forward(s->x + (l + 1) * NE, &s->saves[l], s->x + l * NE, mem, s->seqs, ms,
                       &layers[l], m->E, m->F, m->H, &lc, scratch);
    if (nw)
        al_layernorm_forward(s->y, s->mean, s->rstd, s->x + m->L * NE, nw, nb, s->seqs->N, m->E,
                             lc.eps);
}

/* The vjp of stack_forward from dy [N,E] (the output's gradient): returns ∂/∂x block 0 (one of
 * da, db [N,E]), adds ∂/∂mem to dmem (decoder) and every parameter's gradient to g0. */
static float *stack_backward(const al_transformer *m, const float *w0, float *g0, const stack *s,
                             const al_tl_weights *layers, const float *mem, float *dmem,
                             const al_tlp_seqs *ms, int causal, const float *nw, const float *nb,
                             const float *dy, float *da, float *db, float *scratch)
{
    const int N = s->seqs->N;
    const size_t NE = (size_t)N * m->E;
    al_tl_config lc = m->lc;
    lc.causal = causal;
    const float *dcur = dy;
    float *dnext = da;
    if (nw) {
        /* y = LN(x_L)  →  dx_L = LN vjp of dy;  dnorm.weight, dnorm.bias += */
        memset(da, 0, NE * sizeof(float));
        al_layernorm_backward(da, gp(w0, g0, nw), gp(w0, g0, nb), dy, s->x + m->L * NE, s->mean,
                              s->rstd, nw, N, m->E);
        dcur = da;
        dnext = db;
    }
    for (int l = m->L - 1; l >= 0; l--) {
        /* x_{l+1} = layer_l(x_l, mem)  →  dx_l, dmem +=, layer l's gradients += */
        const al_tl_grads g = al_transformer_layer_grads(w0, g0, &layers[l]);
        memset(dnext, 0, NE * sizeof(float));
        al_tlp_backward(dnext, dmem, &g, dcur, s->x + l * NE, mem, s->seqs, ms, &s->saves[l],
                        &layers[l], m->E, m->F, m->H, &lc, scratch);
        dcur = dnext;
        dnext = dnext == da ? db : da;
    }
    return (float *)dcur;
}

/* x = table[ids]·(√E) + P per sequence  →  dP[t] += dx (learned), dtable[ids] += √E · dx.
 * dx [N,E] is scaled in place. */
static void embed_backward(const al_transformer *m, const float *w0, float *g0, const float *table,
                           const int32_t *ids, const al_tlp_seqs *s, float *dx)
{
    const int E = m->E;
    const long n = (long)s->N * E;
    if (m->positions == AL_TF_LEARNED) {
        float *dpos = gp(w0, g0, m->pos);
        for (int b = 0; b < s->B; b++) {
            const float *d = dx + (long)s->off[b] * E;
            for (long i = 0; i < (long)s->len[b] * E; i++) dpos[i] += d[i];
        }
    }
    if (m->scale_embedding) {
        const float sc = (float)sqrt((double)E);
        for (long i = 0; i < n; i++) dx[i] *= sc;
    }
    al_embedding_backward(gp(w0, g0, table), ids, s->N, dx, E);
}

/* Σ_b −log softmax(logits row)[target] over the rows with a target (target < 0: none, whose
 * dlogits row is 0), label-smoothed by smoothing (models/loss.h); logits [n,V] become dlogits =
 * scale · (softmax − q) in place, q the smoothed target (onehot when smoothing = 0). ex [V]:
 * a row's exp(logit − max), so each is computed once (transformer_train.c's
 * exp(logit − max − log z) is the same number divided by z, up to the last bits of a double). */
static double loss_rows(float *logits, const int32_t *target, int n, int V, float scale,
                        float smoothing, double *ex)
{
    double sum = 0.0;
    const double uniform = (double)smoothing / V, hit = 1.0 - smoothing;
    for (int t = 0; t < n; t++) {
        float *row = logits + (size_t)t * V;
        if (target[t] < 0) {
            memset(row, 0, (size_t)V * sizeof(float));
            continue;
        }
        float mx = row[0];
        for (int v = 1; v < V; v++) mx = row[v] > mx ? row[v] : mx;
        double z = 0.0;
        for (int v = 0; v < V; v++) z += ex[v] = exp((double)row[v] - mx);
        const double lz = log(z);
        sum -= (double)row[target[t]] - mx - lz;
        sum += al_smoothing_extra(row, V, target[t], smoothing);
        for (int v = 0; v < V; v++) {
            const double pv = ex[v] / z;
            row[v] = (float)(scale * (pv - uniform - (v == target[t] ? hit : 0.0)));
        }
    }
    return sum;
}

static double dmax(double a, double b) { return a > b ? a : b; }

al_status al_transformer_backward_batch(const al_transformer *m, const float *w0, float *g0,
                                        const int32_t *src, const int32_t *src_len, int S_max,
                                        const int32_t *tgt, const int32_t *tgt_len, int T_max,
                                        int B, float scale, float smoothing, double max_floats,
                                        double *nll)
{
    const int ed = m->variant == AL_TF_ENCODER_DECODER, dec = m->variant == AL_TF_DECODER;
    const int E = m->E, V = m->Vt;
    /* the sequences: encoder rows (src), decoder rows (ed: tgt) */
    int32_t *ints = al_malloc(sizeof(int32_t) * (size_t)B * 4);
    if (!ints) return AL_ERR_NOMEM;
    int32_t *soff = ints, *toff = ints + B, *slen = ints + 2 * B, *tlen = ints + 3 * B;
    double Ns = 0.0, Nt = 0.0;
    for (int b = 0; b < B; b++) {
        soff[b] = (int32_t)Ns;
        toff[b] = (int32_t)Nt;
        slen[b] = src_len[b];
        tlen[b] = ed ? tgt_len[b] : 0;
        Ns += slen[b];
        Nt += tlen[b];
    }
    const al_tlp_seqs es = { B, slen, soff, (int)Ns }, ts = { B, tlen, toff, (int)Nt };
    const int n = ed ? (int)Nt : (int)Ns; /* rows of logits */
    const double N = dmax(Ns, Nt);
    const int rk = m->lc.rel_k;

    /* one block: both stacks, logits [n,V], dy/da/db [N,E], dmem [Ns,E], the layers' scratch,
     * then ints: src ids [Ns], fed ids [Nt], targets [n] */
    stack enc, decs;
    float *p = NULL;
    double floats = 0.0;
    stack_carve(&enc, &p, &floats, m, &es, NULL);
    if (ed) stack_carve(&decs, &p, &floats, m, &ts, &es);
    floats += (double)n * V + 3.0 * N * E + Ns * E + 1.0;
    const double scratch = dmax(al_tlp_scratch_floats(&es, NULL, E, m->F, m->H, rk),
                                ed ? al_tlp_scratch_floats(&ts, &es, E, m->F, m->H, rk) : 0.0);
    floats += scratch + Ns + Nt + n;
    if (floats > max_floats || floats * sizeof(float) >= 2147483648.0) {
        al_free(ints);
        return AL_ERR_UNSUPPORTED; /* the per-example path needs a sentence's worth of memory */
    }
    float *blk = al_malloc((size_t)floats * sizeof(float));
    double *ex = al_malloc(sizeof(double) * (size_t)V);
    if (!blk || !ex) {
        al_free(blk);
        al_free(ex);
        al_free(ints);
        return AL_ERR_NOMEM;
    }
    p = blk;
    floats = 0.0;
    stack_carve(&enc, &p, &floats, m, &es, NULL);
    if (ed) stack_carve(&decs, &p, &floats, m, &ts, &es);
    float *logits = p;
    p += (size_t)n * V;
    float *dy = p, *da = dy + (size_t)N * E, *db = da + (size_t)N * E;
    float *dmem = db + (size_t)N * E;
    float *work = dmem + (size_t)Ns * E;
    int32_t *sids = (int32_t *)(work + (size_t)scratch);
    int32_t *fed = sids + (size_t)Ns, *target = fed + (size_t)Nt;

    /* ---- forward: embed every sequence at its own positions */
    for (int b = 0; b < B; b++) {
        const int32_t *sb = src + (size_t)b * S_max;
        const int32_t *tb = tgt ? tgt + (size_t)b * T_max : NULL;
        memcpy(sids + soff[b], sb, sizeof(int32_t) * (size_t)slen[b]);
        al_transformer_embed(m, enc.x + (size_t)soff[b] * E, m->src_emb, sb, slen[b]);
        if (ed) {
            int32_t *f = fed + toff[b];
            f[0] = m->bos; /* the decoder is fed bos, tgt[0], ..., tgt[T−2] */
            for (int t = 1; t < tlen[b]; t++) f[t] = tb[t - 1];
            al_transformer_embed(m, decs.x + (size_t)toff[b] * E, m->tgt_emb, f, tlen[b]);
            memcpy(target + toff[b], tb, sizeof(int32_t) * (size_t)tlen[b]);
        } else if (dec) { /* row t predicts src[t+1]; the last row has no target */
            for (int t = 0; t < slen[b]; t++)
                target[soff[b] + t] = t + 1 < slen[b] ? sb[t + 1] : -1;
        } else {
            memcpy(target + soff[b], tb, sizeof(int32_t) * (size_t)slen[b]);
        }
    }
    const float *encw = m->final_norm ? m->enc_norm_w : NULL;
    const float *decw = m->final_norm ? m->dec_norm_w : NULL;
    stack_forward(m, &enc, m->enc, NULL, NULL, dec, encw, m->enc_norm_b, work);
    const float *y = enc.y;
    if (ed) {
        stack_forward(m, &decs, m->dec, enc.y, &es, 1, decw, m->dec_norm_b, work);
        y = decs.y;
    }
    /* logits [n,V] = y out.weightᵀ + out.bias, one product for the batch */
    al_sgemm(0, 1, n, V, E, 1.0f, y, E, m->out_w, E, 0.0f, logits, V);
    al_bias_add_forward(logits, V, m->out_b, NULL, n, V);
    *nll = loss_rows(logits, target, n, V, scale, smoothing, ex);
    al_free(ex);

    /* ---- backward */
    /* logits = y Wᵀ + b  →  dW += dlogitsᵀ y,  db += Σ dlogits,  dy = dlogits W */
    al_sgemm(1, 0, V, E, n, 1.0f, logits, V, y, E, 1.0f, gp(w0, g0, m->out_w), E);
    float *gb = gp(w0, g0, m->out_b);
    for (int t = 0; t < n; t++)
        for (int v = 0; v < V; v++) gb[v] += logits[(size_t)t * V + v];
    al_sgemm(0, 0, n, E, V, 1.0f, logits, V, m->out_w, E, 0.0f, dy, E);
    if (ed) {
        memset(dmem, 0, (size_t)Ns * E * sizeof(float));
        float *dx0 = stack_backward(m, w0, g0, &decs, m->dec, enc.y, dmem, &es, 1, decw,
                                    m->dec_norm_b, dy, da, db, work);
        embed_backward(m, w0, g0, m->tgt_emb, fed, &ts, dx0);
        memcpy(dy, dmem, (size_t)Ns * E * sizeof(float));
    }
    float *dx0 = stack_backward(m, w0, g0, &enc, m->enc, NULL, NULL, NULL, dec, encw, m->enc_norm_b,
                                dy, da, db, work);
    embed_backward(m, w0, g0, m->src_emb, sids, &es, dx0);
    al_free(blk);
    al_free(ints);
    return AL_OK;
}

al_status al_transformer_batch_hook(const void *impl, const float *w0, float *g0,
                                    const int32_t *src, const int32_t *src_len, int S_max,
                                    const int32_t *tgt, const int32_t *tgt_len, int T_max, int B,
                                    float scale, float smoothing, double *nll)
{
    return al_transformer_backward_batch((const al_transformer *)impl, w0, g0, src, src_len, S_max,
                                         tgt, tgt_len, T_max, B, scale, smoothing,
                                         AL_TF_BATCH_MAX_FLOATS, nll);
}
