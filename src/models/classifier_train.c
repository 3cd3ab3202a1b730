/*
 * models/classifier_train.c: backward of the classifier for cross-entropy (plus Lin's penalty),
 * seeded initialisation, and the architecture's training hooks. The maths and the kernels used
 * are listed in classifier_train.h; the forward here repeats classifier.c's (same kernels, same
 * order) while keeping what the backward reads.
 * Deliberately not here: optimisers, the trainer handle, argument checks (api/train.c).
 */
#include <math.h>
#include <string.h>

#include "classifier_train.h"
#include "loss.h"
#include "optim.h"
#include "../kernels/attention_pooling.h"
#include "../kernels/kernels.h"
#include "../kernels/recurrent.h"

/* The gradient of parameter p: the same offset in g0 as p has in w0. */
static float *gp(const float *w0, float *g0, const float *p) { return g0 + (p - w0); }

static double dmax(double a, double b) { return a > b ? a : b; }

/* Parameter floats of one stack (every layer and direction, 4 tensors each). */
static long rnn_floats(const al_classifier *c, const al_clf_rnn *r)
{
    long n = 0;
    for (int l = 0; l < c->L; l++)
        n += (long)c->dirs * c->G * r->Hs * ((l ? r->H : r->I) + r->Hs + 2);
    return n;
}

/* out [n, r->H] = the stack r over x [n, r->I] (zero initial state), as classifier.c's encode;
 * scratch [stack_floats]. */
static void encode(const al_classifier *c, const al_clf_rnn *r, const float *x, int n, float *out,
                   float *scratch)
{
    al_recurrent_stack_forward(c->cell, 1, n, r->I, r->Hs, c->L, c->dirs, x, r->p, NULL, NULL, out,
                               NULL, NULL, scratch);
}

/* Floats of scratch encode and rnn_backward need for the stack r over n steps. */
static double stack_floats(const al_classifier *c, const al_clf_rnn *r, int n)
{
    return dmax(al_recurrent_stack_forward_floats(c->cell, 1, n, r->Hs, c->L, c->dirs),
                al_recurrent_stack_backward_floats(c->cell, 1, n, r->Hs, c->L, c->dirs));
}

/*
 * Backward of out = encode(r, x [n, r->I]) from dout [n, r->H]: dx [n, r->I] written (=), the
 * stack's parameter gradients added to g0. They accumulate into tmp [rnn_floats] from zero first,
 * laid out as the tensor list orders them, so each tensor's gradient is added to g0 in one sum.
 */
static void rnn_backward(const al_classifier *c, const al_clf_rnn *r, const float *w0, float *g0,
                         const float *x, int n, const float *dout, float *dx, float *tmp,
                         float *scratch)
{
    float *dp[AL_CLF_MAX_LAYERS * 2 * 4 + 1];
    const int np = c->L * c->dirs * 4;
    dp[0] = tmp;
    for (int k = 0; k < np; k++) {
        const int layer = k / (4 * c->dirs), kind = k % 4;
        const long cols = kind == 0 ? (layer ? r->H : r->I) : kind == 1 ? r->Hs : 1;
        dp[k + 1] = dp[k] + (long)c->G * r->Hs * cols;
    }
    memset(tmp, 0, sizeof(float) * (size_t)(dp[np] - tmp));
    memset(dx, 0, sizeof(float) * (size_t)n * r->I);
    al_recurrent_stack_backward(c->cell, 1, n, r->I, r->Hs, c->L, c->dirs, x, r->p, NULL, NULL,
                                dout, NULL, NULL, dx, dp, NULL, NULL, scratch);
    for (int k = 0; k < np; k++) {
        float *g = gp(w0, g0, r->p[k]);
        for (long i = 0; i < dp[k + 1] - dp[k]; i++) g[i] += dp[k][i];
    }
}

al_status al_classifier_backward(const al_classifier *c, const float *w0, float *g0,
                                 const int32_t *ids, int n, int label, float scale, float smoothing,
                                 double *nll)
{
    const int E = c->E, d = c->enc.H, K = c->K, C = c->C, han = c->pooling == AL_CLF_HAN;
    const int m = al_classifier_sentences(c, ids, n), ds = han ? c->senc.H : 0;
    const long ne = rnn_floats(c, &c->enc), ns = han ? rnn_floats(c, &c->senc) : 0;
    double pool;
    switch (c->pooling) {
    case AL_CLF_ATTENTION: /* r [d], α [n] */
        pool = (double)d + n + (double)al_attention_pooling_scratch_floats(n, d);
        break;
    case AL_CLF_STRUCTURED: /* A [r,n] */
        pool = (double)c->r * n +
               (double)al_structured_self_attention_scratch_floats(n, d, c->da, c->r);
        break;
    default: /* α [n], s and ds [m,d], G and dG [m,ds], β [m] */
        pool = (double)n + 2.0 * m * d + 2.0 * m * ds + m +
               dmax((double)al_context_pooling_scratch_floats(n, d, c->da),
                    (double)al_context_pooling_scratch_floats(m, ds, c->das));
        break;
    }
    /* the encoders' scratch: a word encoder over at most n tokens, the sentence encoder over m */
    const double es_floats =
        dmax(stack_floats(c, &c->enc, n), han ? stack_floats(c, &c->senc, m) : 0);
    const double floats =
        2.0 * n * E + 2.0 * n * d + 2.0 * K + 2.0 * C + dmax(ne, ns) + pool + es_floats;
    if (floats * sizeof(float) >= 2147483648.0) return AL_ERR_OVERFLOW;
    float *blk = al_malloc((size_t)floats * sizeof(float));
    if (!blk) return AL_ERR_NOMEM;
    memset(blk, 0, (size_t)floats * sizeof(float));
    float *x = blk;                       /* [n,E] embeddings */
    float *dx = x + (size_t)n * E;        /* [n,E] */
    float *Hn = dx + (size_t)n * E;       /* [n,d] encoder outputs (han: sentence after sentence) */
    float *dH = Hn + (size_t)n * d;       /* [n,d] */
    float *feat = dH + (size_t)n * d;     /* [K]   classifier input f */
    float *dfeat = feat + K;              /* [K] */
    float *prob = dfeat + K;              /* [C]   logits, then probabilities */
    float *dlog = prob + C;               /* [C] */
    float *tmp = dlog + C;                /* [max(ne, ns)] one stack's parameter gradients */
    float *p = tmp + (ne > ns ? ne : ns); /* the pooling's buffers and scratch */
    float *es = p + (size_t)pool;         /* [es_floats] the encoders' scratch */
    al_embedding_forward(x, ids, n, c->emb, c->V, E);

    /* ---------------------------------------------------------------- forward */
    float P = 0.0f;
    float *al = p; /* attention: α [n]; structured: A [r,n]; han: α [n] */
    float *rv = NULL, *sv = NULL, *dsv = NULL, *G = NULL, *dG = NULL, *beta = NULL, *ps = NULL;
    /* attention, structured: H = encoder(x) */
    if (!han) encode(c, &c->enc, x, n, Hn, es);
    if (c->pooling == AL_CLF_ATTENTION) {
        rv = al + n; /* [d] r = Hᵀα */
        ps = rv + d;
        al_attention_pooling_seq_forward(rv, feat, al, Hn, c->w, NULL, n, d, ps);
    } else if (c->pooling == AL_CLF_STRUCTURED) {
        ps = al + (size_t)c->r * n;
        al_structured_self_attention_seq_forward(feat, al, &P, Hn, c->W_s1, c->W_s2, NULL, n, d,
                                                 c->da, c->r, ps);
    } else if (han) {
        sv = al + n;                /* [m,d]  s_i */
        dsv = sv + (size_t)m * d;   /* [m,d] */
        G = dsv + (size_t)m * d;    /* [m,ds] */
        dG = G + (size_t)m * ds;    /* [m,ds] */
        beta = dG + (size_t)m * ds; /* [m] */
        ps = beta + m;
        for (int t = 0, i = 0, start = 0; t < n; t++) {
            if (ids[t] != c->sep && t != n - 1) continue;
            /* sentence i = [start, t] on its own */
            const int len = t + 1 - start;
            encode(c, &c->enc, x + (size_t)start * E, len, Hn + (size_t)start * d, es);
            al_context_pooling_seq_forward(sv + (size_t)i * d, al + start, Hn + (size_t)start * d,
                                           c->Ww, c->bw, c->uw, NULL, len, d, c->da, ps);
            i++;
            start = t + 1;
        }
        encode(c, &c->senc, sv, m, G, es);
        al_context_pooling_seq_forward(feat, beta, G, c->Wsn, c->bsn, c->usn, NULL, m, ds, c->das,
                                       ps);
    }
    /* logits = classifier.weight f + classifier.bias; −log p(label) = lse − logit[label] */
    memcpy(prob, c->cls_b, sizeof(float) * (size_t)C);
    al_sgemv(0, C, K, 1.0f, c->cls_w, K, feat, 1.0f, prob);
    float mx = prob[0];
    for (int k = 1; k < C; k++) mx = prob[k] > mx ? prob[k] : mx;
    double sum = 0.0;
    for (int k = 0; k < C; k++) sum += exp((double)prob[k] - mx);
    const double lse = (double)mx + log(sum);
    *nll = lse - (double)prob[label] + (double)c->pc * P;
    *nll += al_smoothing_extra(prob, C, label, smoothing);

    /* ---------------------------------------------------------------- backward */
    /* loss = lse − logit[label]  →  dlogits = scale · (softmax − q), q the smoothed target
     * (models/loss.h; onehot when smoothing = 0) */
    const float uniform = smoothing / (float)C;
    for (int k = 0; k < C; k++) dlog[k] = scale * ((float)exp((double)prob[k] - lse) - uniform);
    dlog[label] -= scale * (1.0f - smoothing);
    /* logits = W f + b  →  db += dlogits, dW += dlogits ⊗ f, df = Wᵀ dlogits */
    float *gb = gp(w0, g0, c->cls_b);
    for (int k = 0; k < C; k++) gb[k] += dlog[k];
    al_sgemm(0, 0, C, K, 1, 1.0f, dlog, 1, feat, K, 1.0f, gp(w0, g0, c->cls_w), K);
    al_sgemv(1, C, K, 1.0f, c->cls_w, K, dlog, 0.0f, dfeat);
    if (c->pooling == AL_CLF_ATTENTION) {
        /* f = h* = tanh(Hᵀ softmax(tanh(H) w)) */
        al_attention_pooling_seq_backward(dH, gp(w0, g0, c->w), Hn, c->w, al, feat, NULL, dfeat,
                                          NULL, n, d, ps);
    } else if (c->pooling == AL_CLF_STRUCTURED) {
        /* f = A H, and the loss's coefficient · P(A) */
        al_structured_self_attention_seq_backward(dH, gp(w0, g0, c->W_s1), gp(w0, g0, c->W_s2), Hn,
                                                  c->W_s1, c->W_s2, al, dfeat, NULL, scale * c->pc,
                                                  n, d, c->da, c->r, ps);
    } else {
        /* f = v = Gᵀβ, G = sentence_encoder(s_1..s_m) */
        al_context_pooling_seq_backward(dG, gp(w0, g0, c->Wsn), gp(w0, g0, c->bsn),
                                        gp(w0, g0, c->usn), G, c->Wsn, c->bsn, c->usn, beta, dfeat,
                                        NULL, m, ds, c->das, ps);
        rnn_backward(c, &c->senc, w0, g0, sv, m, dG, dsv, tmp, es);
        /* s_i = H_iᵀ α_i, H_i = word_encoder(x_i), sentence by sentence */
        for (int t = 0, i = 0, start = 0; t < n; t++) {
            if (ids[t] != c->sep && t != n - 1) continue;
            const int len = t + 1 - start;
            al_context_pooling_seq_backward(dH + (size_t)start * d, gp(w0, g0, c->Ww),
                                            gp(w0, g0, c->bw), gp(w0, g0, c->uw),
                                            Hn + (size_t)start * d, c->Ww, c->bw, c->uw, al + start,
                                            dsv + (size_t)i * d, NULL, len, d, c->da, ps);
            rnn_backward(c, &c->enc, w0, g0, x + (size_t)start * E, len, dH + (size_t)start * d,
                         dx + (size_t)start * E, tmp, es);
            i++;
            start = t + 1;
        }
    }
    /* attention, structured: H = encoder(x) */
    if (!han) rnn_backward(c, &c->enc, w0, g0, x, n, dH, dx, tmp, es);
    /* x = embedding[ids] */
    al_embedding_backward(gp(w0, g0, c->emb), ids, n, dx, E);
    al_free(blk);
    return AL_OK;
}

/* ------------------------------------------------------------------ initialisation */

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static al_init init_rule(const al_tensor_spec *t, int k, const void *impl)
{
    const al_classifier *c = impl;
    const char *name = t->name;
    if (strcmp(name, "embedding.weight") == 0) return (al_init){ AL_INIT_NORMAL, 0.0 };
    double fan;
    if (starts(name, "encoder.") || starts(name, "word_encoder."))
        fan = c->enc.Hs;
    else if (starts(name, "sentence_encoder."))
        fan = c->senc.Hs;
    else if (t->rank == 2)
        fan = t->dim[1]; /* nn.Linear weights */
    else if (strcmp(name, "word_pooling.b") == 0)
        fan = c->enc.H; /* the bias of W h */
    else if (strcmp(name, "sentence_pooling.b") == 0)
        fan = c->senc.H;
    else if (strcmp(name, "classifier.bias") == 0)
        fan = c->K;
    else
        fan = t->dim[0]; /* context vectors w, u: a Linear(len, 1) weight */
    return (al_init){ AL_INIT_UNIFORM, 1.0 / sqrt(fan) };
}

void al_classifier_init(const al_tensor_list *list, const al_classifier *c, float *weights,
                        uint32_t seed)
{
    al_init_weights(list, c, weights, seed, init_rule);
}

/* ------------------------------------------------------------------ hooks */

void al_classifier_init_hook(const al_tensor_list *list, const void *impl, float *weights,
                             uint32_t seed)
{
    al_classifier_init(list, (const al_classifier *)impl, weights, seed);
}

al_status al_classifier_example_hook(const void *impl, const int32_t *src, int S,
                                     const int32_t *tgt, int T, double *terms)
{
    const al_classifier *c = (const al_classifier *)impl;
    if (!src || S < 1 || !tgt || T != 1) return AL_ERR_SHAPE;
    for (int i = 0; i < S; i++)
        if (src[i] < 0 || src[i] >= c->V) return AL_ERR_RANGE;
    if (tgt[0] < 0 || tgt[0] >= c->C) return AL_ERR_RANGE;
    *terms = 1.0;
    return AL_OK;
}

al_status al_classifier_backward_hook(const void *impl, const float *w0, float *g0,
                                      const int32_t *src, int S, const int32_t *tgt, int T,
                                      float scale, float smoothing, double *nll)
{
    (void)T;
    return al_classifier_backward((const al_classifier *)impl, w0, g0, src, S, tgt[0], scale,
                                  smoothing, nll);
}
