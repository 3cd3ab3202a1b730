/*
 * transformer_layers_packed.c: one transformer encoder or decoder layer over a packed batch of
 * sequences, forward keeping its activations and backward reading them (maths and layout:
 * transformer_layers_packed.h; the same chain of residual blocks as transformer_layers.c):
 *   post-norm:  z = in + f(in),   out = LN(z)        (z kept: the norm's input)
 *   pre-norm:   z = LN(in),       out = in + f(z)    (z kept: the sublayer's input)
 * Every position-wise product is one al_sgemm over all N rows of the batch; the attention core
 * per sequence is transformer_attention_packed.c. Each backward line quotes the forward line it
 * differentiates.
 */
#include <string.h>

#include "transformer_layers_packed.h"

enum { BLOCK_SA = 0, BLOCK_CA = 1, BLOCK_FF = 2 };

static int nblocks(int dec) { return dec ? 3 : 2; }
static int block_kind(int k, int nb)
{
    return k == nb - 1 ? BLOCK_FF : k == 0 ? BLOCK_SA : BLOCK_CA;
}

/* y [R,C] += b [C] on every row */
static void add_bias(float *y, const float *b, int R, int C)
{
    al_bias_add_forward(y, C, b, NULL, R, C);
}

/* db [C] += Σ_r dy [R,C] */
static void sum_rows(float *db, const float *dy, int R, int C)
{
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) db[c] += dy[(long)r * C + c];
}

/* Σ_b len[b]·klen[b] */
static double pairs(const al_tlp_seqs *x, const al_tlp_seqs *k)
{
    double n = 0.0;
    for (int b = 0; b < x->B; b++) n += (double)x->len[b] * k->len[b];
    return n;
}

/* The next n floats of s at *off (s == NULL: only count, no pointer arithmetic on NULL). */
static float *carve(float *s, double *off, double n)
{
    float *p = s ? s + (long)*off : NULL;
    *off += n;
    return p;
}

static al_tlp_saves carve_saves(float *s, double *off, const al_tlp_seqs *x, const al_tlp_seqs *mem,
                                int E, int F, int H)
{
    al_tlp_saves v;
    const double N = x->N;
    const int nb = nblocks(mem != NULL);
    memset(&v, 0, sizeof v);
    for (int k = 0; k < nb; k++) {
        v.z[k] = carve(s, off, N * E);
        v.mean[k] = carve(s, off, N);
        v.rstd[k] = carve(s, off, N);
    }
    for (int k = 0; k + 1 < nb; k++) v.xs[k] = carve(s, off, N * E);
    v.qkv = carve(s, off, 3.0 * N * E);
    v.satt = carve(s, off, (double)H * pairs(x, x));
    v.sctx = carve(s, off, N * E);
    if (mem) {
        v.cq = carve(s, off, N * E);
        v.ckv = carve(s, off, 2.0 * mem->N * E);
        v.catt = carve(s, off, (double)H * pairs(x, mem));
        v.cctx = carve(s, off, N * E);
    }
    v.u = carve(s, off, N * F);
    v.act = carve(s, off, N * F);
    return v;
}

double al_tlp_saves_floats(const al_tlp_seqs *x, const al_tlp_seqs *mem, int E, int F, int H)
{
    double off = 0.0;
    carve_saves(NULL, &off, x, mem, E, F, H);
    return off;
}

al_tlp_saves al_tlp_saves_carve(float *s, const al_tlp_seqs *x, const al_tlp_seqs *mem, int E,
                                int F, int H)
{
    double off = 0.0;
    return carve_saves(s, &off, x, mem, E, F, H);
}

/* The scratch: fo [N,E] (the current sublayer's output), then the backward's buffers. */
struct work {
    float *fo;        /* [N,E] */
    float *dqkv;      /* [N,3E] (cross-attention: dQ [N,E]) */
    float *dkv;       /* [Ns,2E] */
    float *dctx;      /* [N,E] */
    float *dz, *dn;   /* [N,E] post-norm: d(in + f(in)); pre-norm: d LN(in) */
    float *dxs[2];    /* [N,E] gradients of the block outputs before the last */
    float *dact, *du; /* [N,F] */
    float *attend;    /* al_tlp_attend_scratch_floats */
};

static struct work carve_work(float *s, double *off, const al_tlp_seqs *x, const al_tlp_seqs *mem,
                              int E, int F, int k)
{
    struct work w;
    const double N = x->N;
    w.fo = carve(s, off, N * E);
    w.dqkv = carve(s, off, 3.0 * N * E);
    w.dkv = carve(s, off, mem ? 2.0 * mem->N * E : 0.0);
    w.dctx = carve(s, off, N * E);
    w.dz = carve(s, off, N * E);
    w.dn = carve(s, off, N * E);
    w.dxs[0] = carve(s, off, N * E);
    w.dxs[1] = carve(s, off, N * E);
    w.dact = carve(s, off, N * F);
    w.du = carve(s, off, N * F);
    const double a = al_tlp_attend_scratch_floats(x, x, k);
    const double c = mem ? al_tlp_attend_scratch_floats(x, mem, 0) : 0.0;
    w.attend = carve(s, off, a > c ? a : c);
    return w;
}

double al_tlp_scratch_floats(const al_tlp_seqs *x, const al_tlp_seqs *mem, int E, int F, int H,
                             int k)
{
    double off = 0.0;
    (void)H;
    carve_work(NULL, &off, x, mem, E, F, k);
    return off;
}

/* The norm of block k (norm1, norm2, norm3 in order), and its gradients. */
static void block_norm(const al_tl_weights *w, int k, const float **nw, const float **nb)
{
    *nw = k == 0 ? w->n1_w : k == 1 ? w->n2_w : w->n3_w;
    *nb = k == 0 ? w->n1_b : k == 1 ? w->n2_b : w->n3_b;
}

/* fo [N,E] = sublayer k of the layer on sub [N,E], keeping its activations in v. */
static void sublayer_forward(float *fo, int kind, const al_tlp_saves *v, const float *sub,
                             const float *mem, const al_tlp_seqs *xs, const al_tlp_seqs *ms,
                             const al_tl_weights *w, int E, int F, int H, const al_tl_config *cfg,
                             float *scratch)
{
    const int N = xs->N;
    switch (kind) {
    case BLOCK_SA:
        /* Q|K|V = sub W_inᵀ + b_in (one product for the batch); ctx per sequence and head;
         * fo = ctx W_outᵀ + b_out */
        al_sgemm(0, 1, N, 3 * E, E, 1.0f, sub, E, w->sa_in_w, E, 0.0f, v->qkv, 3 * E);
        add_bias(v->qkv, w->sa_in_b, N, 3 * E);
        al_tlp_attend_forward(v->sctx, v->satt, v->qkv, 3 * E, v->qkv + E, v->qkv + 2 * E, 3 * E,
                              xs, xs, E, H, cfg->causal, w->sa_rel_k, w->sa_rel_v, cfg->rel_k,
                              scratch);
        al_sgemm(0, 1, N, E, E, 1.0f, v->sctx, E, w->sa_out_w, E, 0.0f, fo, E);
        add_bias(fo, w->sa_out_b, N, E);
        break;
    case BLOCK_CA:
        /* Q = sub W_qᵀ + b_q;  K|V = mem [W_k; W_v]ᵀ + [b_k; b_v] (the whole memory at once) */
        al_sgemm(0, 1, N, E, E, 1.0f, sub, E, w->ca_in_w, E, 0.0f, v->cq, E);
        add_bias(v->cq, w->ca_in_b, N, E);
        al_sgemm(0, 1, ms->N, 2 * E, E, 1.0f, mem, E, w->ca_in_w + (long)E * E, E, 0.0f, v->ckv,
                 2 * E);
        add_bias(v->ckv, w->ca_in_b + E, ms->N, 2 * E);
        al_tlp_attend_forward(v->cctx, v->catt, v->cq, E, v->ckv, v->ckv + E, 2 * E, xs, ms, E, H,
                              0, NULL, NULL, 0, scratch);
        al_sgemm(0, 1, N, E, E, 1.0f, v->cctx, E, w->ca_out_w, E, 0.0f, fo, E);
        add_bias(fo, w->ca_out_b, N, E);
        break;
    default: /* u = sub W1ᵀ + b1, act = act(u), fo = act W2ᵀ + b2 */
        al_sgemm(0, 1, N, F, E, 1.0f, sub, E, w->l1_w, E, 0.0f, v->u, F);
        add_bias(v->u, w->l1_b, N, F);
        if (cfg->gelu)
            al_gelu_forward(v->act, v->u, N * F);
        else
            al_relu_forward(v->act, v->u, N * F);
        al_sgemm(0, 1, N, E, F, 1.0f, v->act, F, w->l2_w, F, 0.0f, fo, E);
        add_bias(fo, w->l2_b, N, E);
        break;
    }
}

void al_tlp_forward(float *out, const al_tlp_saves *v, const float *x, const float *mem,
                    const al_tlp_seqs *xs, const al_tlp_seqs *ms, const al_tl_weights *w, int E,
                    int F, int H, const al_tl_config *cfg, float *scratch)
{
    double off = 0.0;
    const struct work d = carve_work(scratch, &off, xs, ms, E, F, cfg->rel_k);
    const int nb = nblocks(mem != NULL), N = xs->N;
    const long n = (long)N * E;
    const float *in = x;
    for (int k = 0; k < nb; k++) {
        const float *nw, *nbias;
        block_norm(w, k, &nw, &nbias);
        float *next = k == nb - 1 ? out : v->xs[k];
        /* pre-norm: the sublayer sees z = LN(in); post-norm: it sees in */
        const float *sub = in;
        if (cfg->norm_first) {
            al_layernorm_forward(v->z[k], v->mean[k], v->rstd[k], in, nw, nbias, N, E, cfg->eps);
            sub = v->z[k];
        }
        sublayer_forward(d.fo, block_kind(k, nb), v, sub, mem, xs, ms, w, E, F, H, cfg, d.attend);
        if (cfg->norm_first) { /* next = in + f(LN(in)) */
            for (long i = 0; i < n; i++) next[i] = in[i] + d.fo[i];
        } else { /* z = in + f(in), next = LN(z) */
            for (long i = 0; i < n; i++) v->z[k][i] = in[i] + d.fo[i];
            al_layernorm_forward(next, v->mean[k], v->rstd[k], v->z[k], nw, nbias, N, E, cfg->eps);
        }
        in = next;
    }
}

/* dsub [N,E] += ∂f/∂sub · dfo for sublayer kind (dmem [Ns,E] += for the cross-attention),
 * its parameters' gradients +=, from the kept activations. */
static void sublayer_backward(float *dsub, float *dmem, int kind, const al_tl_grads *g,
                              const float *dfo, const al_tlp_saves *v, const float *sub,
                              const float *mem, const al_tlp_seqs *xs, const al_tlp_seqs *ms,
                              const al_tl_weights *w, int E, int F, int H, const al_tl_config *cfg,
                              const struct work *d)
{
    const int N = xs->N;
    switch (kind) {
    case BLOCK_SA:
        /* fo = ctx W_outᵀ + b_out  →  dW_out += dfoᵀ ctx,  db_out += Σ dfo,  dctx = dfo W_out */
        al_sgemm(1, 0, E, E, N, 1.0f, dfo, E, v->sctx, E, 1.0f, g->sa_out_w, E);
        sum_rows(g->sa_out_b, dfo, N, E);
        al_sgemm(0, 0, N, E, E, 1.0f, dfo, E, w->sa_out_w, E, 0.0f, d->dctx, E);
        /* ctx per sequence and head  →  dQ|dK|dV (and the relative tables) */
        memset(d->dqkv, 0, sizeof(float) * (size_t)N * 3 * E);
        al_tlp_attend_backward(d->dqkv, d->dqkv + E, d->dqkv + 2 * E, g->sa_rel_k, g->sa_rel_v,
                               d->dctx, v->satt, v->qkv, 3 * E, v->qkv + E, v->qkv + 2 * E, 3 * E,
                               xs, xs, E, H, cfg->causal, w->sa_rel_k, w->sa_rel_v, cfg->rel_k,
                               d->attend);
        /* Q|K|V = sub W_inᵀ + b_in  →  dW_in += dQKVᵀ sub,  db_in += Σ dQKV,  dsub += dQKV W_in */
        al_sgemm(1, 0, 3 * E, E, N, 1.0f, d->dqkv, 3 * E, sub, E, 1.0f, g->sa_in_w, E);
        sum_rows(g->sa_in_b, d->dqkv, N, 3 * E);
        al_sgemm(0, 0, N, E, 3 * E, 1.0f, d->dqkv, 3 * E, w->sa_in_w, E, 1.0f, dsub, E);
        break;
    case BLOCK_CA:
        /* fo = ctx W_outᵀ + b_out */
        al_sgemm(1, 0, E, E, N, 1.0f, dfo, E, v->cctx, E, 1.0f, g->ca_out_w, E);
        sum_rows(g->ca_out_b, dfo, N, E);
        al_sgemm(0, 0, N, E, E, 1.0f, dfo, E, w->ca_out_w, E, 0.0f, d->dctx, E);
        memset(d->dqkv, 0, sizeof(float) * (size_t)N * E);
        memset(d->dkv, 0, sizeof(float) * (size_t)ms->N * 2 * E);
        al_tlp_attend_backward(d->dqkv, d->dkv, d->dkv + E, NULL, NULL, d->dctx, v->catt, v->cq, E,
                               v->ckv, v->ckv + E, 2 * E, xs, ms, E, H, 0, NULL, NULL, 0,
                               d->attend);
        /* Q = sub W_qᵀ + b_q  →  dW_q += dQᵀ sub,  db_q += Σ dQ,  dsub += dQ W_q */
        al_sgemm(1, 0, E, E, N, 1.0f, d->dqkv, E, sub, E, 1.0f, g->ca_in_w, E);
        sum_rows(g->ca_in_b, d->dqkv, N, E);
        al_sgemm(0, 0, N, E, E, 1.0f, d->dqkv, E, w->ca_in_w, E, 1.0f, dsub, E);
        /* K|V = mem W_kvᵀ + b_kv  →  dW_kv += dKVᵀ mem,  db_kv += Σ dKV,  dmem += dKV W_kv */
        al_sgemm(1, 0, 2 * E, E, ms->N, 1.0f, d->dkv, 2 * E, mem, E, 1.0f, g->ca_in_w + (long)E * E,
                 E);
        sum_rows(g->ca_in_b + E, d->dkv, ms->N, 2 * E);
        al_sgemm(0, 0, ms->N, E, 2 * E, 1.0f, d->dkv, 2 * E, w->ca_in_w + (long)E * E, E, 1.0f,
                 dmem, E);
        break;
    default:
        /* fo = act W2ᵀ + b2  →  dW2 += dfoᵀ act,  db2 += Σ dfo,  dact = dfo W2 */
        al_sgemm(1, 0, E, F, N, 1.0f, dfo, E, v->act, F, 1.0f, g->l2_w, F);
        sum_rows(g->l2_b, dfo, N, E);
        al_sgemm(0, 0, N, F, E, 1.0f, dfo, E, w->l2_w, F, 0.0f, d->dact, F);
        /* act = act(u)  →  du = act'(u) ⊙ dact */
        memset(d->du, 0, sizeof(float) * (size_t)N * F);
        if (cfg->gelu)
            al_gelu_backward(d->du, v->u, d->dact, N * F);
        else
            al_relu_backward(d->du, v->u, d->dact, N * F);
        /* u = sub W1ᵀ + b1  →  dW1 += duᵀ sub,  db1 += Σ du,  dsub += du W1 */
        al_sgemm(1, 0, F, E, N, 1.0f, d->du, F, sub, E, 1.0f, g->l1_w, E);
        sum_rows(g->l1_b, d->du, N, F);
        al_sgemm(0, 0, N, E, F, 1.0f, d->du, F, w->l1_w, E, 1.0f, dsub, E);
        break;
    }
}

void al_tlp_backward(float *dx, float *dmem, const al_tl_grads *g, const float *dout,
                     const float *x, const float *mem, const al_tlp_seqs *xs, const al_tlp_seqs *ms,
                     const al_tlp_saves *v, const al_tl_weights *w, int E, int F, int H,
                     const al_tl_config *cfg, float *scratch)
{
    double off = 0.0;
    const struct work d = carve_work(scratch, &off, xs, ms, E, F, cfg->rel_k);
    const int nb = nblocks(mem != NULL), N = xs->N;
    const long n = (long)N * E;
    const float *dnext = dout; /* gradient of block k's output */
    for (int k = nb - 1; k >= 0; k--) {
        const float *nw, *nbias;
        block_norm(w, k, &nw, &nbias);
        float *dnw = k == 0 ? g->n1_w : k == 1 ? g->n2_w : g->n3_w;
        float *dnb = k == 0 ? g->n1_b : k == 1 ? g->n2_b : g->n3_b;
        const float *in = k == 0 ? x : v->xs[k - 1];
        float *din = k == 0 ? dx : d.dxs[k - 1];
        if (k > 0) memset(din, 0, sizeof(float) * (size_t)n);
        /* the residual and the norm around the sublayer → dfo, and dsub (where the gradient of
         * the sublayer's input goes) */
        const float *dfo, *sub;
        float *dsub;
        if (cfg->norm_first) {
            /* next = in + f(z):  din += dnext,  dfo = dnext */
            for (long i = 0; i < n; i++) din[i] += dnext[i];
            dfo = dnext;
            sub = v->z[k];
            dsub = d.dn;
            memset(d.dn, 0, sizeof(float) * (size_t)n);
        } else {
            /* next = LN(z), z = in + f(in):  dz = LN vjp of dnext;  din += dz,  dfo = dz */
            memset(d.dz, 0, sizeof(float) * (size_t)n);
            al_layernorm_backward(d.dz, dnw, dnb, dnext, v->z[k], v->mean[k], v->rstd[k], nw, N, E);
            for (long i = 0; i < n; i++) din[i] += d.dz[i];
            dfo = d.dz;
            sub = in;
            dsub = din;
        }
        sublayer_backward(dsub, dmem, block_kind(k, nb), g, dfo, v, sub, mem, xs, ms, w, E, F, H,
                          cfg, &d);
        /* pre-norm: z = LN(in)  →  din += LN vjp of dz */
        if (cfg->norm_first)
            al_layernorm_backward(din, dnw, dnb, d.dn, in, v->mean[k], v->rstd[k], nw, N, E);
        dnext = din;
    }
}
