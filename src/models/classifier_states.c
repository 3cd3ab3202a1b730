/*
 * models/classifier_states.c: the classifier's forward pass again, keeping every intermediate
 * (models/classifier_states.h, docs/states.md). The calls are al_classifier_forward's, in its
 * order and on the same inputs, so the weights and probabilities are bit-identical; what the
 * pooling kernels leave in their scratch (tanh(H), U, tanh(W_s1 Hᵀ): attention_pooling.c) is
 * copied out as `projected`, and the scores are that matrix times the context vector again, the
 * same al_sgemv / al_sgemm call the kernel made before its softmax.
 * Deliberately not here: anything al_classifier_forward does not compute (no extra maths).
 */
#include <math.h>
#include <string.h>

#include "classifier_states.h"
#include "../kernels/attention_pooling.h"
#include "../kernels/kernels.h"
#include "../kernels/recurrent.h"
#include "../toolbox.h"

static void set(int32_t *s, int field, int rank, int d0, int d1)
{
    int32_t *p = s + 4 * field;
    p[0] = rank;
    p[1] = rank ? d0 : 0;
    p[2] = rank > 1 ? d1 : 0;
    p[3] = 0;
}

double al_classifier_states_layout(const al_classifier *c, int n, int m, int32_t *shapes)
{
    const int d = c->enc.H, han = c->pooling == AL_CLF_HAN, st = c->pooling == AL_CLF_STRUCTURED;
    const int hops = st ? c->r : 1, da = c->pooling == AL_CLF_ATTENTION ? d : c->da;
    int32_t s[AL_CLF_STATE_COUNT * 4];
    memset(s, 0, sizeof s);
    set(s, AL_CLF_STATE_EMBEDDED, 2, n, c->E);
    set(s, AL_CLF_STATE_HIDDEN, 2, n, d);
    set(s, AL_CLF_STATE_PROJECTED, 2, n, da);
    set(s, AL_CLF_STATE_SCORES, 2, hops, n);
    set(s, AL_CLF_STATE_WEIGHTS, 2, hops, n);
    set(s, AL_CLF_STATE_POOLED, 2, han ? m : hops, d);
    set(s, AL_CLF_STATE_LOGITS, 1, c->C, 0);
    set(s, AL_CLF_STATE_PROBS, 1, c->C, 0);
    if (st) set(s, AL_CLF_STATE_PENALTY, 1, 1, 0);
    if (han) {
        set(s, AL_CLF_STATE_SENT_HIDDEN, 2, m, c->senc.H);
        set(s, AL_CLF_STATE_SENT_PROJECTED, 2, m, c->das);
        set(s, AL_CLF_STATE_SENT_SCORES, 2, 1, m);
        set(s, AL_CLF_STATE_SENT_WEIGHTS, 2, 1, m);
        set(s, AL_CLF_STATE_SENT_POOLED, 2, 1, c->senc.H);
    }
    double total = 0;
    for (int f = 0; f < AL_CLF_STATE_COUNT; f++) {
        const int32_t *p = s + 4 * f;
        total += p[0] == 0 ? 0.0 : p[0] == 1 ? (double)p[1] : (double)p[1] * p[2];
    }
    if (shapes) memcpy(shapes, s, sizeof s);
    return total;
}

/* out [n, r->H] = the stack r over x [n, r->I], zero initial state (classifier.c's encode) */
static void encode(const al_classifier *c, const al_clf_rnn *r, const float *x, int n, float *out,
                   float *scratch)
{
    al_recurrent_stack_forward(c->cell, 1, n, r->I, r->Hs, c->L, c->dirs, x, r->p, NULL, NULL, out,
                               NULL, NULL, scratch);
}

static double max_d(double a, double b) { return a > b ? a : b; }

al_status al_classifier_states(const al_classifier *c, const int32_t *ids, int n, float *out)
{
    const int E = c->E, d = c->enc.H, han = c->pooling == AL_CLF_HAN;
    const int m = al_classifier_sentences(c, ids, n);
    int32_t s[AL_CLF_STATE_COUNT * 4];
    al_classifier_states_layout(c, n, m, s);
    float *f[AL_CLF_STATE_COUNT]; /* each field's place in out (NULL: absent) */
    float *p = out;
    for (int k = 0; k < AL_CLF_STATE_COUNT; k++) {
        const int32_t *q = s + 4 * k;
        f[k] = q[0] ? p : NULL;
        p += q[0] == 0 ? 0 : q[0] == 1 ? (size_t)q[1] : (size_t)q[1] * (size_t)q[2];
    }
    /* scratch: the pooling kernels' (the largest of the levels), the encoders', the features */
    double pool = c->pooling == AL_CLF_ATTENTION ? (double)al_attention_pooling_scratch_floats(n, d)
                  : c->pooling == AL_CLF_STRUCTURED
                      ? (double)al_structured_self_attention_scratch_floats(n, d, c->da, c->r)
                      : max_d((double)al_context_pooling_scratch_floats(n, d, c->da),
                              (double)al_context_pooling_scratch_floats(m, c->senc.H, c->das));
    double enc = al_recurrent_stack_forward_floats(c->cell, 1, n, c->enc.Hs, c->L, c->dirs);
    if (han)
        enc =
            max_d(enc, al_recurrent_stack_forward_floats(c->cell, 1, m, c->senc.Hs, c->L, c->dirs));
    const double floats = pool + enc + c->K;
    if (floats * sizeof(float) >= 2147483648.0) return AL_ERR_OVERFLOW;
    for (int i = 0; i < n; i++)
        if (ids[i] < 0 || ids[i] >= c->V) return AL_ERR_RANGE;
    float *block = al_malloc((size_t)floats * sizeof(float));
    if (!block) return AL_ERR_NOMEM;
    float *ps = block;              /* [pool] the pooling kernel's scratch */
    float *es = ps + (size_t)pool;  /* [enc]  the encoders' */
    float *feat = es + (size_t)enc; /* [K]    the classifier's input */
    float *x = f[AL_CLF_STATE_EMBEDDED], *Hn = f[AL_CLF_STATE_HIDDEN];
    float *U = f[AL_CLF_STATE_PROJECTED], *e = f[AL_CLF_STATE_SCORES];
    float *w = f[AL_CLF_STATE_WEIGHTS], *pooled = f[AL_CLF_STATE_POOLED];
    al_embedding_forward(x, ids, n, c->emb, c->V, E);

    if (c->pooling == AL_CLF_ATTENTION) {
        /* r = Hᵀα (pooled), features h* = tanh(r); the kernel left M = tanh(H) in ps */
        encode(c, &c->enc, x, n, Hn, es);
        al_attention_pooling_seq_forward(pooled, feat, w, Hn, c->w, NULL, n, d, ps);
        memcpy(U, ps, sizeof(float) * (size_t)n * d);
        al_sgemv(0, n, d, 1.0f, U, d, c->w, 0.0f, e);
    } else if (c->pooling == AL_CLF_STRUCTURED) {
        /* features M = A H (pooled, row by row); the kernel left tanh(H W_s1ᵀ) in ps */
        encode(c, &c->enc, x, n, Hn, es);
        al_structured_self_attention_seq_forward(pooled, w, f[AL_CLF_STATE_PENALTY], Hn, c->W_s1,
                                                 c->W_s2, NULL, n, d, c->da, c->r, ps);
        memcpy(U, ps, sizeof(float) * (size_t)n * c->da);
        al_sgemm(0, 1, c->r, n, c->da, 1.0f, c->W_s2, c->da, U, c->da, 0.0f, e, n);
        memcpy(feat, pooled, sizeof(float) * (size_t)c->K);
    } else {
        /* each sentence [start, t] alone: hidden rows start.., s_i into pooled row i; the kernel
         * left U = tanh(H Wᵀ + b) [len, da] in ps */
        const int ds = c->senc.H, da = c->da, das = c->das;
        int i = 0, start = 0;
        for (int t = 0; t < n; t++) {
            if (ids[t] != c->sep && t != n - 1) continue;
            const int len = t + 1 - start;
            float *Hs = Hn + (size_t)start * d;
            encode(c, &c->enc, x + (size_t)start * E, len, Hs, es);
            al_context_pooling_seq_forward(pooled + (size_t)i * d, w + start, Hs, c->Ww, c->bw,
                                           c->uw, NULL, len, d, da, ps);
            memcpy(U + (size_t)start * da, ps, sizeof(float) * (size_t)len * da);
            al_sgemv(0, len, da, 1.0f, U + (size_t)start * da, da, c->uw, 0.0f, e + start);
            i++;
            start = t + 1;
        }
        float *G = f[AL_CLF_STATE_SENT_HIDDEN], *Us = f[AL_CLF_STATE_SENT_PROJECTED];
        encode(c, &c->senc, pooled, m, G, es);
        al_context_pooling_seq_forward(feat, f[AL_CLF_STATE_SENT_WEIGHTS], G, c->Wsn, c->bsn,
                                       c->usn, NULL, m, ds, das, ps);
        memcpy(Us, ps, sizeof(float) * (size_t)m * das);
        al_sgemv(0, m, das, 1.0f, Us, das, c->usn, 0.0f, f[AL_CLF_STATE_SENT_SCORES]);
        memcpy(f[AL_CLF_STATE_SENT_POOLED], feat, sizeof(float) * (size_t)ds);
    }
    /* probs = softmax(logits / temperature), as al_classifier_forward */
    float *logits = f[AL_CLF_STATE_LOGITS], *probs = f[AL_CLF_STATE_PROBS];
    memcpy(logits, c->cls_b, sizeof(float) * (size_t)c->C);
    al_sgemv(0, c->C, c->K, 1.0f, c->cls_w, c->K, feat, 1.0f, logits);
    al_classifier_probs(c, logits, probs);
    al_free(block);
    return AL_OK;
}
