/*
 * test_train_batch.c: the batched seq2seq backward (models/seq2seq_train_batch.c) against the
 * per-sentence one it must equal (al_seq2seq_backward, itself checked against finite differences
 * in test_train.c):
 *   1. for every attention (none, additive, dot, general, concat, local-m and local-p with each
 *      score, key-query), in both styles, with each cell, 1-2 layers, uni/bidirectional, input
 *      feeding on/off,
 *      on a batch of different source and target lengths (1 included, ties included; local
 *      windows that clip and that fall outside a short source), the nll
 *      and every gradient element of one batched call against B per-sentence calls:
 *      |a − b| <= 1e-5 + 1e-5·|b|;
 *   2. padding is never read: other ids in the padding give the same bits;
 *   3. the batch in another row order gives the same loss and gradient (to float order);
 *   4. the trainer takes the batched path (al_trainer_batched) and its gradient equals the
 *      batched: false one;
 *   5. additive and concat attention both with their tanh values kept for the backward and
 *      recomputed;
 *   6. a refused batch (a target of length 0) returns AL_ERR_SHAPE with g0 untouched.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "attnlab.h"
#include "fixtures.h"
#include "models/model.h"
#include "models/seq2seq_train.h"
#include "models/seq2seq_train_batch.h"

static const char *TOKENIZER = "\"tokenizer\":{\"type\":\"char\",\"srcVocab\":[\"<pad>\",\"<unk>\","
                               "\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\"],"
                               "\"tgtVocab\":[\"<pad>\",\"<s>\",\"</"
                               "s>\",\"x\",\"y\",\"z\",\"w\",\"v\"],\"pad\":\"<pad>\",\"bos\":"
                               "\"<s>\",\"eos\":\"</s>\",\"unk\":\"<unk>\"}";

static const char *COVERED[] = {
    "\"cell\":\"lstm\",\"attention\":\"additive\",\"style\":\"bahdanau\",\"attentionSize\":5",
    "\"cell\":\"lstm\",\"bidirectional\":true,\"attention\":\"additive\",\"style\":\"bahdanau\","
    "\"attentionSize\":7",
    "\"cell\":\"lstm\",\"bidirectional\":true,\"attention\":\"none\",\"style\":\"bahdanau\"",
    "\"cell\":\"lstm\",\"attention\":\"dot\",\"style\":\"bahdanau\"",
    "\"cell\":\"lstm\",\"bidirectional\":true,\"attention\":\"dot\",\"style\":\"luong\","
    "\"inputFeeding\":true",
    "\"cell\":\"lstm\",\"attention\":\"dot\",\"style\":\"luong\"",
    "\"cell\":\"gru\",\"attention\":\"general\",\"style\":\"bahdanau\"",
    "\"cell\":\"gru\",\"numLayers\":2,\"attention\":\"general\",\"style\":\"luong\","
    "\"inputFeeding\":true",
    "\"cell\":\"gru\",\"bidirectional\":true,\"attention\":\"additive\",\"style\":\"luong\","
    "\"attentionSize\":4,\"inputFeeding\":true",
    "\"cell\":\"gru\",\"attention\":\"none\",\"style\":\"luong\"",
    "\"cell\":\"rnn\",\"attention\":\"additive\",\"style\":\"bahdanau\",\"attentionSize\":3",
    "\"cell\":\"rnn\",\"nonlinearity\":\"relu\",\"bidirectional\":true,\"numLayers\":2,"
    "\"attention\":\"dot\",\"style\":\"luong\",\"inputFeeding\":true",
    "\"cell\":\"rnn\",\"nonlinearity\":\"relu\",\"attention\":\"general\",\"style\":\"bahdanau\"",
    "\"cell\":\"rnn\",\"attention\":\"additive\",\"style\":\"luong\",\"attentionSize\":6",
    "\"cell\":\"lstm\",\"numLayers\":2,\"attention\":\"general\",\"style\":\"luong\"",
    "\"cell\":\"lstm\",\"attention\":\"concat\",\"style\":\"luong\",\"attentionSize\":4",
    "\"cell\":\"gru\",\"bidirectional\":true,\"attention\":\"concat\",\"style\":\"luong\","
    "\"attentionSize\":5,\"inputFeeding\":true",
    "\"cell\":\"rnn\",\"attention\":\"concat\",\"style\":\"bahdanau\",\"attentionSize\":3",
    "\"cell\":\"lstm\",\"attention\":\"key-query\",\"style\":\"bahdanau\",\"keySize\":4,"
    "\"valueSize\":5",
    "\"cell\":\"gru\",\"bidirectional\":true,\"attention\":\"key-query\",\"style\":\"luong\","
    "\"keySize\":3,\"valueSize\":4,\"scaled\":false,\"inputFeeding\":true",
    "\"cell\":\"rnn\",\"attention\":\"key-query\",\"style\":\"luong\",\"keySize\":6,"
    "\"valueSize\":7",
    "\"cell\":\"gru\",\"attention\":\"local-m\",\"style\":\"luong\",\"score\":\"dot\","
    "\"window\":2",
    "\"cell\":\"lstm\",\"attention\":\"local-m\",\"style\":\"luong\",\"score\":\"concat\","
    "\"attentionSize\":4,\"window\":1,\"inputFeeding\":true",
    "\"cell\":\"rnn\",\"attention\":\"local-m\",\"style\":\"bahdanau\",\"score\":\"general\","
    "\"window\":1",
    "\"cell\":\"lstm\",\"attention\":\"local-p\",\"style\":\"bahdanau\",\"score\":\"general\","
    "\"window\":2,\"positionSize\":3",
    "\"cell\":\"gru\",\"bidirectional\":true,\"attention\":\"local-p\",\"style\":\"luong\","
    "\"score\":\"dot\",\"window\":1,\"positionSize\":4,\"inputFeeding\":true",
    "\"cell\":\"lstm\",\"attention\":\"local-p\",\"style\":\"luong\",\"score\":\"concat\","
    "\"attentionSize\":3,\"window\":2,\"positionSize\":3",
    "\"cell\":\"gru\",\"bidirectional\":true,\"numLayers\":2,\"attention\":\"none\","
    "\"style\":\"bahdanau\"",
};

/* a batch of 6 pairs, padded to S_max 7, T_max 6: lengths 1 included, ties (two targets of 6,
 * two of 2) so the sort's stability matters; PAD marks the padding, rewritten per check */
#define B 6
#define SM 7
#define TM 6
#define PAD (-7)
static const int32_t SRC[B * SM] = {
    2,      3, 4, 5, PAD, PAD, PAD, /**/ 8, PAD, PAD, PAD, PAD, PAD, PAD,
    /**/ 2, 2, 3, 4, 5,   6,   7,   5,      6,   7,   PAD, PAD, PAD, PAD,
    /**/ 3, 4, 5, 6, 7,   PAD, PAD, /**/ 6, 2,   PAD, PAD, PAD, PAD, PAD,
};
static const int32_t SRC_LEN[B] = { 4, 1, 7, 3, 5, 2 };
static const int32_t TGT[B * TM] = {
    3, 4, 2, PAD, PAD, PAD, /**/ 5, 6, 7,   3,   4,   2,   /**/ 2, PAD, PAD, PAD, PAD, PAD,
    7, 7, 6, 5,   3,   2,   /**/ 4, 2, PAD, PAD, PAD, PAD, /**/ 6, 2,   PAD, PAD, PAD, PAD,
};
static const int32_t TGT_LEN[B] = { 3, 6, 1, 6, 2, 2 };

/* the batch with its padding set to pad */
static void padded(int32_t *src, int32_t *tgt, int32_t pad)
{
    for (int i = 0; i < B * SM; i++) src[i] = SRC[i] == PAD ? pad : SRC[i];
    for (int i = 0; i < B * TM; i++) tgt[i] = TGT[i] == PAD ? pad : TGT[i];
}

static al_model *make(const char *opts, uint32_t seed)
{
    char err[AL_MODEL_ERR_CAP];
    al_model *m =
        fixture_create(seed, err,
                       "{\"architecture\":\"seq2seq\",\"embeddingSize\":5,"
                       "\"hiddenSize\":8,%s%s,%s}",
                       strstr(opts, "numLayers") ? "" : "\"numLayers\":1,", opts, TOKENIZER);
    if (!m) printf("FAIL create %s: %s\n", opts, err);
    return m;
}

static double worst_rel = 0.0; /* max |a−b| / (1e-5 + 1e-5·|b|) over every check: <= 1 passes */

/* a [n] against b [n] at |a − b| <= 1e-5 + 1e-5·|b|; prints the worst element */
static void close_to(const char *what, const float *a, const float *b, long n)
{
    double worst = 0.0;
    long at = 0;
    for (long i = 0; i < n; i++) {
        const double r = fabs((double)a[i] - b[i]) / (1e-5 + 1e-5 * fabs((double)b[i]));
        if (!(r <= worst)) {
            worst = r;
            at = i;
        }
    }
    if (worst > worst_rel) worst_rel = worst;
    char msg[512];
    snprintf(msg, sizeof msg, "%s (worst %.3g of the tolerance at %ld: %.9g vs %.9g)", what, worst,
             at, n ? a[at] : 0.0, n ? b[at] : 0.0);
    check_true(msg, worst <= 1.0);
}

/* label smoothing of every call (models/loss.h): 0, then 0.1 in main's last pass */
static float smoothing = 0.0f;

/* the per-sentence reference: nll and g [n] of B al_seq2seq_backward calls */
static al_status per_sentence(const al_model *m, const int32_t *src, const int32_t *tgt,
                              float scale, float *g, double *nll)
{
    *nll = 0.0;
    for (int b = 0; b < B; b++) {
        double l;
        al_status st = al_seq2seq_backward(m->impl, m->weights, g, src + b * SM, SRC_LEN[b],
                                           tgt + b * TM, TGT_LEN[b], scale, smoothing, &l);
        if (st != AL_OK) return st;
        *nll += l;
    }
    return AL_OK;
}

static void covered(const char *opts)
{
    al_model *m = make(opts, 11);
    if (!check_true(opts, m != NULL)) return;
    const long n = (long)m->n_weights;
    for (long i = 0; i < n; i++) m->weights[i] *= 0.8f;
    float *ref = falloc(n), *got = falloc(n), *again = falloc(n), *perm = falloc(n);
    int32_t src[B * SM], tgt[B * TM];
    /* scale 1 (the summed loss): gradients of the size where 1e-5 relative bites */
    const float scale = 1.0f;
    char what[512];

    padded(src, tgt, 0);
    double nll_ref = 0.0, nll = 0.0, nll2 = 0.0;
    al_status st = per_sentence(m, src, tgt, scale, ref, &nll_ref);
    check_true("per-sentence status", st == AL_OK);
    /* g0 accumulates: start from a non-zero gradient in both */
    for (long i = 0; i < n; i++) got[i] = 0.25f;
    for (long i = 0; i < n; i++) ref[i] += 0.25f;
    st = al_seq2seq_backward_batch(m->impl, m->weights, got, src, SRC_LEN, SM, tgt, TGT_LEN, TM, B,
                                   scale, smoothing, &nll);
    snprintf(what, sizeof what, "%s: batched status", opts);
    check_true(what, st == AL_OK);
    snprintf(what, sizeof what, "%s: gradient (%ld weights)", opts, n);
    close_to(what, got, ref, n);
    const float fn = (float)nll, fr = (float)nll_ref;
    snprintf(what, sizeof what, "%s: nll %.9g vs %.9g", opts, nll, nll_ref);
    close_to(what, &fn, &fr, 1);

    /* padding never read: other (valid) ids there give the same bits */
    padded(src, tgt, 3);
    memset(again, 0, sizeof(float) * (size_t)n);
    for (long i = 0; i < n; i++) again[i] = 0.25f;
    st = al_seq2seq_backward_batch(m->impl, m->weights, again, src, SRC_LEN, SM, tgt, TGT_LEN, TM,
                                   B, scale, smoothing, &nll2);
    snprintf(what, sizeof what, "%s: padding never read", opts);
    check_true(what, st == AL_OK && nll2 == nll && memcmp(again, got, sizeof(float) * n) == 0);

    /* the rows reversed: the same sums in another order */
    int32_t rs[B * SM], rt[B * TM], rsl[B], rtl[B];
    for (int b = 0; b < B; b++) {
        memcpy(rs + b * SM, src + (B - 1 - b) * SM, sizeof(int32_t) * SM);
        memcpy(rt + b * TM, tgt + (B - 1 - b) * TM, sizeof(int32_t) * TM);
        rsl[b] = SRC_LEN[B - 1 - b];
        rtl[b] = TGT_LEN[B - 1 - b];
    }
    for (long i = 0; i < n; i++) perm[i] = 0.25f;
    st = al_seq2seq_backward_batch(m->impl, m->weights, perm, rs, rsl, SM, rt, rtl, TM, B, scale,
                                   smoothing, &nll2);
    snprintf(what, sizeof what, "%s: rows reversed", opts);
    check_true(what, st == AL_OK);
    close_to(what, perm, ref, n);

    /* through the trainer: batched by default, and equal to batched: false */
    al_trainer *tr;
    check_true("trainer", al_trainer_create(m, AL_OPTIM_ADAM, 1e-3f, 0, 0, 0, &tr) == AL_OK);
    snprintf(what, sizeof what, "%s: the trainer is batched", opts);
    check_true(what, al_trainer_batched(tr) == 1);
    float loss_b, loss_u;
    padded(src, tgt, 0);
    check_true("trainer gradient",
               al_trainer_gradient(tr, src, SRC_LEN, SM, tgt, TGT_LEN, TM, B, &loss_b) == AL_OK);
    memcpy(again, al_trainer_gradients(tr), sizeof(float) * (size_t)n);
    al_trainer_set_batched(tr, 0);
    check_true("trainer unbatched", al_trainer_batched(tr) == 0);
    check_true("trainer gradient",
               al_trainer_gradient(tr, src, SRC_LEN, SM, tgt, TGT_LEN, TM, B, &loss_u) == AL_OK);
    snprintf(what, sizeof what, "%s: trainer batched vs not", opts);
    close_to(what, again, al_trainer_gradients(tr), n);
    close_to(what, &loss_b, &loss_u, 1);
    al_trainer_free(tr);
    free(ref);
    free(got);
    free(again);
    free(perm);
    al_model_free(m);
}

/* a batch the hook refuses (a target of length 0): AL_ERR_SHAPE, g0 and nll untouched */
static void refused(const char *opts)
{
    al_model *m = make(opts, 5);
    if (!check_true(opts, m != NULL)) return;
    const long n = (long)m->n_weights;
    float *g = falloc(n);
    for (long i = 0; i < n; i++) g[i] = (float)i * 0.5f;
    int32_t src[B * SM], tgt[B * TM], tl[B];
    padded(src, tgt, 0);
    memcpy(tl, TGT_LEN, sizeof tl);
    tl[3] = 0;
    double nll = -1.0;
    al_status st = al_seq2seq_backward_batch(m->impl, m->weights, g, src, SRC_LEN, SM, tgt, tl, TM,
                                             B, 0.1f, 0.0f, &nll);
    int untouched = 1;
    for (long i = 0; i < n; i++) untouched &= g[i] == (float)i * 0.5f;
    char what[512];
    snprintf(what, sizeof what, "%s: a target of length 0 is AL_ERR_SHAPE, g0 untouched", opts);
    check_true(what, st == AL_ERR_SHAPE && untouched && nll == -1.0);
    free(g);
    al_model_free(m);
}

#define UNUSED_CHECK_HELPERS                                                                       \
    (void)check_seed;                                                                              \
    (void)check_fill;                                                                              \
    (void)check_close_f;                                                                           \
    (void)fixture_fd_check;

int main(void)
{
    UNUSED_CHECK_HELPERS
    for (size_t i = 0; i < sizeof COVERED / sizeof COVERED[0]; i++) covered(COVERED[i]);
    /* again with the additive tanh values recomputed in the backward rather than kept */
    s2b_keep_floats = 0.0;
    for (size_t i = 0; i < sizeof COVERED / sizeof COVERED[0]; i++)
        if (strstr(COVERED[i], "additive") || strstr(COVERED[i], "concat")) covered(COVERED[i]);
    /* and with label smoothing: the batched path's smoothed loss and gradient equal the
     * per-sentence one's (tests/js/label-smoothing.test.js holds both to PyTorch) */
    smoothing = 0.1f;
    for (size_t i = 0; i < sizeof COVERED / sizeof COVERED[0]; i++) covered(COVERED[i]);
    refused(COVERED[0]);
    printf("worst |batched − per-sentence| / (1e-5 + 1e-5·|ref|): %.3g\n", worst_rel);
    return check_report("test_train_batch");
}
