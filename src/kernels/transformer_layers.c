/*
 * transformer_layers.c: the transformer encoder and decoder layers (torch.nn.TransformerEncoderLayer,
 * nn.TransformerDecoderLayer; Vaswani et al. 2017 §3.1, pre-norm as Xiong et al. 2020), forward
 * and backward, for one batch element. Maths and conventions: transformer_layers.h.
 *
 * A layer is a chain of residual blocks (encoder: SA, FF; decoder: SA, MHA over the memory, FF),
 * each around one sublayer f with its own layer norm LN:
 *   post-norm:  z = in + f(in),   out = LN(z)        (z saved: the norm's input)
 *   pre-norm:   z = LN(in),       out = in + f(z)    (z saved: the sublayer's input)
 * Every sublayer is an existing kernel (al_attn_mha_*, al_attn_relpos_* for relative positions,
 * al_sgemm, al_relu/gelu_*), so there is no SIMD twin here: the heavy work runs in the dispatched twins underneath. Deliberately no fused
 * or in-place tricks: the saved activations are plain [T,E]/[T,F] arrays, easy to check.
 */
#include <string.h>

#include "transformer_layers.h"
#include "attention_transformer.h"

enum { BLOCK_SA = 0, BLOCK_CA = 1, BLOCK_FF = 2 };

/* y [R,C] += b [C] on every row */
static void add_bias(float *y, const float *b, int R, int C)
{
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) y[(long)r * C + c] += b[c];
}

/* db [C] += Σ_r dy [R,C] */
static void sum_rows(float *db, const float *dy, int R, int C)
{
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) db[c] += dy[(long)r * C + c];
}

static int nblocks(int dec) { return dec ? 3 : 2; }
static int max_keys(int T, int S, int dec) { return dec && S > T ? S : T; }

/* The forward's saved activations, carved from the front of the scratch. */
struct saves {
    float *z[3];    /* [T,E] per block: post-norm in + f(in), pre-norm LN(in) */
    float *mean[3]; /* [T] per block, of the norm */
    float *rstd[3]; /* [T] */
    float *xs[3];   /* [T,E] block outputs 0 .. nb−2 (the last is the layer's out) */
    float *u, *act; /* [T,F] linear1 output and its activation */
    float *fo;      /* [T,E] the current sublayer's output */
    float *mha;     /* al_attn_mha_scratch_floats(T, max(T,S), E) */
    long floats;    /* total */
};

/* Carve s into the saved activations; with s == NULL only count the floats (no pointer
 * arithmetic on NULL, which C leaves undefined). */
static float *carve(float *s, long *off, long n)
{
    float *p = s ? s + *off : NULL;
    *off += n;
    return p;
}

static struct saves carve_saves(float *s, int T, int S, int E, int F, int dec)
{
    struct saves v;
    long off = 0;
    int nb = nblocks(dec);
    memset(&v, 0, sizeof v);
    for (int k = 0; k < nb; k++) {
        v.z[k] = carve(s, &off, (long)T * E);
        v.mean[k] = carve(s, &off, T);
        v.rstd[k] = carve(s, &off, T);
    }
    for (int k = 0; k + 1 < nb; k++) v.xs[k] = carve(s, &off, (long)T * E);
    v.u = carve(s, &off, (long)T * F);
    v.act = carve(s, &off, (long)T * F);
    v.fo = carve(s, &off, (long)T * E);
    v.mha = carve(s, &off, al_attn_mha_scratch_floats(T, max_keys(T, S, dec), E));
    v.floats = off;
    return v;
}

long al_tl_forward_scratch_floats(int T, int S, int E, int F, int dec)
{
    return carve_saves(NULL, T, S, E, F, dec).floats;
}

/* The relative self-attention's buffers (cfg->rel_k >= 1), carved from the end of the scratch. */
struct rel_ws {
    float *xa;  /* [T,E+1] x' = [sub, 1] */
    float *wa;  /* [3E,E+1] W' = [W_in | b_in] */
    float *z;   /* [T,E] the heads' concatenated output, before out_proj */
    float *dz;  /* [T,E] */
    float *dxa; /* [T,E+1] */
    float *dwa; /* [3E,E+1] */
    float *ks;  /* al_attn_relpos_backward_scratch_floats(T, E, H, k) (the forward needs less) */
    long floats;
};

static struct rel_ws carve_rel(float *s, int T, int E, int H, int k)
{
    struct rel_ws r;
    long off = 0;
    memset(&r, 0, sizeof r);
    if (k < 1) return r;
    r.xa = carve(s, &off, (long)T * (E + 1));
    r.wa = carve(s, &off, 3L * E * (E + 1));
    r.z = carve(s, &off, (long)T * E);
    r.dz = carve(s, &off, (long)T * E);
    r.dxa = carve(s, &off, (long)T * (E + 1));
    r.dwa = carve(s, &off, 3L * E * (E + 1));
    r.ks = carve(s, &off, al_attn_relpos_backward_scratch_floats(T, E, H, k));
    r.floats = off;
    return r;
}

long al_tl_relative_scratch_floats(int T, int E, int H, int k)
{
    return carve_rel(NULL, T, E, H, k).floats;
}

/* fo [T,E] = SA(sub) with relative positions: x' = [sub, 1], W' = [W_in | b_in], z = the Shaw
 * kernel over them (so q = sub W_qᵀ + b_q exactly), fo = z W_outᵀ + b_out. */
static void rel_sa_forward(float *fo, float *att, const float *sub, const al_tl_weights *w, int T,
                           int E, int H, const al_tl_config *cfg, const uint8_t *mask,
                           const struct rel_ws *r)
{
    const int E1 = E + 1;
    for (int t = 0; t < T; t++) {
        memcpy(r->xa + (long)t * E1, sub + (long)t * E, sizeof(float) * (size_t)E);
        r->xa[(long)t * E1 + E] = 1.0f;
    }
    for (int o = 0; o < 3 * E; o++) {
        memcpy(r->wa + (long)o * E1, w->sa_in_w + (long)o * E, sizeof(float) * (size_t)E);
        r->wa[(long)o * E1 + E] = w->sa_in_b[o];
    }
    al_attn_relpos_forward(r->z, att, r->xa, r->wa, r->wa + (long)E * E1, r->wa + 2L * E * E1,
                           w->sa_rel_k, w->sa_rel_v, T, E1, E, H, cfg->rel_k, mask, cfg->causal,
                           r->ks);
    al_sgemm(0, 1, T, E, E, 1.0f, r->z, E, w->sa_out_w, E, 0.0f, fo, E);
    add_bias(fo, w->sa_out_b, T, E);
}

/* Its vjp, after rel_sa_forward filled r (x', W', z): dsub [T,E] +=, g->sa_* +=. */
static void rel_sa_backward(float *dsub, const al_tl_grads *g, const float *dfo, const float *datt,
                            const al_tl_weights *w, int T, int E, int H, const al_tl_config *cfg,
                            const uint8_t *mask, const struct rel_ws *r)
{
    const int E1 = E + 1;
    /* fo = z W_outᵀ + b_out  →  dW_out += dfoᵀ z,  db_out += Σ dfo,  dz = dfo W_out */
    al_sgemm(1, 0, E, E, T, 1.0f, dfo, E, r->z, E, 1.0f, g->sa_out_w, E);
    sum_rows(g->sa_out_b, dfo, T, E);
    al_sgemm(0, 0, T, E, E, 1.0f, dfo, E, w->sa_out_w, E, 0.0f, r->dz, E);
    /* z = Shaw(x', W', a^K, a^V)  →  dx', dW', da^K, da^V */
    memset(r->dxa, 0, sizeof(float) * (size_t)T * E1);
    memset(r->dwa, 0, sizeof(float) * (size_t)3 * E * E1);
    al_attn_relpos_backward(r->dxa, r->dwa, r->dwa + (long)E * E1, r->dwa + 2L * E * E1,
                            g->sa_rel_k, g->sa_rel_v, r->dz, datt, r->xa, r->wa,
                            r->wa + (long)E * E1, r->wa + 2L * E * E1, w->sa_rel_k, w->sa_rel_v, T,
                            E1, E, H, cfg->rel_k, mask, cfg->causal, r->ks);
    /* x' = [sub, 1], W' = [W_in | b_in]: split the constant column back off */
    for (int t = 0; t < T; t++)
        for (int c = 0; c < E; c++) dsub[(long)t * E + c] += r->dxa[(long)t * E1 + c];
    for (int o = 0; o < 3 * E; o++) {
        for (int c = 0; c < E; c++) g->sa_in_w[(long)o * E + c] += r->dwa[(long)o * E1 + c];
        g->sa_in_b[o] += r->dwa[(long)o * E1 + E];
    }
}

/* The norm of block k (norm1, norm2, norm3 in order). */
static void block_norm(const al_tl_weights *w, int k, const float **nw, const float **nb)
{
    *nw = k == 0 ? w->n1_w : k == 1 ? w->n2_w : w->n3_w;
    *nb = k == 0 ? w->n1_b : k == 1 ? w->n2_b : w->n3_b;
}

/* Which sublayer block k of an nb-block layer is. */
static int block_kind(int k, int nb)
{
    return k == nb - 1 ? BLOCK_FF : k == 0 ? BLOCK_SA : BLOCK_CA;
}

/* The forward, leaving every activation the backward needs in v. */
static void forward_saved(float *out, float *self_att, float *cross_att, const float *x,
                          const float *mem, const al_tl_weights *w, int T, int S, int E, int F,
                          int H, const al_tl_config *cfg, const uint8_t *self_mask,
                          const uint8_t *mem_mask, const struct saves *v, const struct rel_ws *r)
{
    int nb = nblocks(mem != 0);
    const float *in = x;
    for (int k = 0; k < nb; k++) {
        const float *nw, *nbias;
        block_norm(w, k, &nw, &nbias);
        float *next = k == nb - 1 ? out : v->xs[k];
        /* pre-norm: the sublayer sees z = LN(in); post-norm: it sees in */
        const float *sub = in;
        if (cfg->norm_first) {
            al_layernorm_forward(v->z[k], v->mean[k], v->rstd[k], in, nw, nbias, T, E, cfg->eps);
            sub = v->z[k];
        }
        switch (block_kind(k, nb)) {
        case BLOCK_SA: /* fo = SA(sub) = MHA(sub, sub, sub) with the target's mask */
            if (cfg->rel_k > 0) {
                rel_sa_forward(v->fo, self_att, sub, w, T, E, H, cfg, self_mask, r);
                break;
            }
            al_attn_mha_forward(v->fo, self_att, sub, sub, sub, w->sa_in_w, w->sa_in_b, w->sa_out_w,
                                w->sa_out_b, T, T, E, H, self_mask, cfg->causal, v->mha);
            break;
        case BLOCK_CA: /* fo = MHA(sub, mem, mem), never causal */
            al_attn_mha_forward(v->fo, cross_att, sub, mem, mem, w->ca_in_w, w->ca_in_b,
                                w->ca_out_w, w->ca_out_b, T, S, E, H, mem_mask, 0, v->mha);
            break;
        default: /* fo = linear2(act(linear1(sub))): u = sub W1ᵀ + b1, act = act(u), fo = act W2ᵀ + b2 */
            al_sgemm(0, 1, T, F, E, 1.0f, sub, E, w->l1_w, E, 0.0f, v->u, F);
            add_bias(v->u, w->l1_b, T, F);
            if (cfg->gelu)
                al_gelu_forward(v->act, v->u, T * F);
            else
                al_relu_forward(v->act, v->u, T * F);
            al_sgemm(0, 1, T, E, F, 1.0f, v->act, F, w->l2_w, F, 0.0f, v->fo, E);
            add_bias(v->fo, w->l2_b, T, E);
            break;
        }
        long n = (long)T * E;
        if (cfg->norm_first) { /* next = in + f(LN(in)) */
            for (long i = 0; i < n; i++) next[i] = in[i] + v->fo[i];
        } else { /* z = in + f(in), next = LN(z) */
            for (long i = 0; i < n; i++) v->z[k][i] = in[i] + v->fo[i];
            al_layernorm_forward(next, v->mean[k], v->rstd[k], v->z[k], nw, nbias, T, E, cfg->eps);
        }
        in = next;
    }
}

void al_tl_forward(float *out, float *self_att, float *cross_att, const float *x, const float *mem,
                   const al_tl_weights *w, int T, int S, int E, int F, int H,
                   const al_tl_config *cfg, const uint8_t *self_mask, const uint8_t *mem_mask,
                   float *scratch)
{
    struct saves v = carve_saves(scratch, T, S, E, F, mem != 0);
    struct rel_ws r = carve_rel(scratch + v.floats, T, E, H, cfg->rel_k);
    forward_saved(out, self_att, cross_att, x, mem, w, T, S, E, F, H, cfg, self_mask, mem_mask, &v,
                  &r);
}

/* The backward's own buffers, after the saves. */
struct grads_scratch {
    float *out;       /* [T,E] the recomputed output (unused) */
    float *satt;      /* [H,T,T] */
    float *catt;      /* [H,T,S] (decoder) */
    float *dxs[3];    /* [T,E] gradients of the block outputs 0 .. nb−2 */
    float *dz;        /* [T,E] post-norm: gradient of z = in + f(in) */
    float *dn;        /* [T,E] pre-norm: gradient of the sublayer input LN(in) */
    float *dtop;      /* [T,E] zeros, standing in for a NULL dout */
    float *dact, *du; /* [T,F] */
    float *mha;       /* al_attn_mha_backward_scratch_floats(T, max(T,S), E, H) */
    long floats;
};

static struct grads_scratch carve_grads(float *s, int T, int S, int E, int F, int H, int dec)
{
    struct grads_scratch v;
    long off = 0;
    int nb = nblocks(dec);
    memset(&v, 0, sizeof v);
    v.out = carve(s, &off, (long)T * E);
    v.satt = carve(s, &off, (long)H * T * T);
    v.catt = carve(s, &off, dec ? (long)H * T * S : 0);
    for (int k = 0; k + 1 < nb; k++) v.dxs[k] = carve(s, &off, (long)T * E);
    v.dz = carve(s, &off, (long)T * E);
    v.dn = carve(s, &off, (long)T * E);
    v.dtop = carve(s, &off, (long)T * E);
    v.dact = carve(s, &off, (long)T * F);
    v.du = carve(s, &off, (long)T * F);
    v.mha = carve(s, &off, al_attn_mha_backward_scratch_floats(T, max_keys(T, S, dec), E, H));
    v.floats = off;
    return v;
}

long al_tl_backward_scratch_floats(int T, int S, int E, int F, int H, int dec)
{
    return al_tl_forward_scratch_floats(T, S, E, F, dec) +
           carve_grads(NULL, T, S, E, F, H, dec).floats;
}

void al_tl_backward(float *dx, float *dmem, const al_tl_grads *g, const float *dout,
                    const float *dself_att, const float *dcross_att, const float *x,
                    const float *mem, const al_tl_weights *w, int T, int S, int E, int F, int H,
                    const al_tl_config *cfg, const uint8_t *self_mask, const uint8_t *mem_mask,
                    float *scratch)
{
    int dec = mem != 0, nb = nblocks(dec);
    long n = (long)T * E;
    struct saves v = carve_saves(scratch, T, S, E, F, dec);
    struct grads_scratch d = carve_grads(scratch + v.floats, T, S, E, F, H, dec);
    struct rel_ws r = carve_rel(scratch + v.floats + d.floats, T, E, H, cfg->rel_k);
    forward_saved(d.out, d.satt, d.catt, x, mem, w, T, S, E, F, H, cfg, self_mask, mem_mask, &v,
                  &r);
    if (!dout) {
        memset(d.dtop, 0, sizeof(float) * (size_t)n);
        dout = d.dtop;
    }

    const float *dnext = dout; /* gradient of block k's output */
    for (int k = nb - 1; k >= 0; k--) {
        const float *nw, *nbias;
        block_norm(w, k, &nw, &nbias);
        float *dnw = k == 0 ? g->n1_w : k == 1 ? g->n2_w : g->n3_w;
        float *dnb = k == 0 ? g->n1_b : k == 1 ? g->n2_b : g->n3_b;
        const float *in = k == 0 ? x : v.xs[k - 1];
        float *din = k == 0 ? dx : d.dxs[k - 1];
        if (k > 0) memset(din, 0, sizeof(float) * (size_t)n);

        /* the residual and the norm around the sublayer → dfo (gradient of f's output), and
         * dsub, where the gradient of f's input goes */
        const float *dfo, *sub;
        float *dsub;
        if (cfg->norm_first) {
            /* next = in + f(z):  din += dnext,  dfo = dnext */
            for (long i = 0; i < n; i++) din[i] += dnext[i];
            dfo = dnext;
            sub = v.z[k];
            dsub = d.dn;
            memset(d.dn, 0, sizeof(float) * (size_t)n);
        } else {
            /* next = LN(z), z = in + f(in):  dz = LN vjp of dnext;  din += dz,  dfo = dz */
            memset(d.dz, 0, sizeof(float) * (size_t)n);
            al_layernorm_backward(d.dz, dnw, dnb, dnext, v.z[k], v.mean[k], v.rstd[k], nw, T, E);
            for (long i = 0; i < n; i++) din[i] += d.dz[i];
            dfo = d.dz;
            sub = in;
            dsub = din;
        }

        /* the sublayer: dsub += ∂f/∂sub · dfo (and dmem for the memory attention) */
        switch (block_kind(k, nb)) {
        case BLOCK_SA: /* f = MHA(sub, sub, sub): its three input gradients all land in dsub */
            if (cfg->rel_k > 0) {
                rel_sa_backward(dsub, g, dfo, dself_att, w, T, E, H, cfg, self_mask, &r);
                break;
            }
            al_attn_mha_backward(dsub, dsub, dsub, g->sa_in_w, g->sa_in_b, g->sa_out_w, g->sa_out_b,
                                 dfo, dself_att, sub, sub, sub, w->sa_in_w, w->sa_in_b, w->sa_out_w,
                                 w->sa_out_b, T, T, E, H, self_mask, cfg->causal, d.mha);
            break;
        case BLOCK_CA: /* f = MHA(sub, mem, mem) */
            al_attn_mha_backward(dsub, dmem, dmem, g->ca_in_w, g->ca_in_b, g->ca_out_w, g->ca_out_b,
                                 dfo, dcross_att, sub, mem, mem, w->ca_in_w, w->ca_in_b,
                                 w->ca_out_w, w->ca_out_b, T, S, E, H, mem_mask, 0, d.mha);
            break;
        default:
            /* fo = act W2ᵀ + b2  →  dW2 += dfoᵀ act,  db2 += Σ dfo,  dact = dfo W2 */
            al_sgemm(1, 0, E, F, T, 1.0f, dfo, E, v.act, F, 1.0f, g->l2_w, F);
            sum_rows(g->l2_b, dfo, T, E);
            al_sgemm(0, 0, T, F, E, 1.0f, dfo, E, w->l2_w, F, 0.0f, d.dact, F);
            /* act = act(u)  →  du = act'(u) ⊙ dact */
            memset(d.du, 0, sizeof(float) * (size_t)T * F);
            if (cfg->gelu)
                al_gelu_backward(d.du, v.u, d.dact, T * F);
            else
                al_relu_backward(d.du, v.u, d.dact, T * F);
            /* u = sub W1ᵀ + b1  →  dW1 += duᵀ sub,  db1 += Σ du,  dsub += du W1 */
            al_sgemm(1, 0, F, E, T, 1.0f, d.du, F, sub, E, 1.0f, g->l1_w, E);
            sum_rows(g->l1_b, d.du, T, F);
            al_sgemm(0, 0, T, E, F, 1.0f, d.du, F, w->l1_w, E, 1.0f, dsub, E);
            break;
        }

        /* pre-norm: z = LN(in)  →  din += LN vjp of dz */
        if (cfg->norm_first)
            al_layernorm_backward(din, dnw, dnb, d.dn, in, v.mean[k], v.rstd[k], nw, T, E);
        dnext = din;
    }
}
