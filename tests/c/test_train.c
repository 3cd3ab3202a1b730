/*
 * test_train.c: the seq2seq training path (api/train.h, models/seq2seq_train.c, models/optim.c).
 *   1. the analytic gradient of the batch loss (al_trainer_gradient) against central finite
 *      differences of the same loss (computed with al_model_score, the inference path, summed in
 *      double) for EVERY weight of a tiny model, per attention variant and style;
 *   2. seeded creation is deterministic, save → load gives the same weights and outputs;
 *   3. a few Adam steps on one batch lower its loss; SGD too.
 * Weights are scaled down (about 0.5/√H for recurrent ones, see STYLE.md) so the loss is smooth
 * at the step size used.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "attnlab.h"
#include "fixtures.h"

typedef struct {
    const char *name;
    const char *opts; /* config keys beyond the common ones */
} variant;

static const variant VARIANTS[] = {
    { "lstm additive bahdanau",
      "\"cell\":\"lstm\",\"attention\":\"additive\",\"style\":\"bahdanau\",\"attentionSize\":4" },
    { "gru dot luong", "\"cell\":\"gru\",\"attention\":\"dot\",\"style\":\"luong\"" },
    { "lstm general luong feed",
      "\"cell\":\"lstm\",\"attention\":\"general\",\"style\":\"luong\",\"inputFeeding\":true" },
    { "bigru 2-layer concat luong feed",
      "\"cell\":\"gru\",\"bidirectional\":true,\"numLayers\":2,\"attention\":\"concat\",\"style\":"
      "\"luong\",\"attentionSize\":4,\"inputFeeding\":true" },
    { "rnn local-p general luong feed",
      "\"cell\":\"rnn\",\"attention\":\"local-p\",\"style\":\"luong\",\"score\":\"general\","
      "\"window\":2,\"positionSize\":3,\"inputFeeding\":true" },
    { "lstm none", "\"cell\":\"lstm\",\"attention\":\"none\",\"style\":\"bahdanau\"" },
    { "gru additive luong feed", "\"cell\":\"gru\",\"attention\":\"additive\",\"style\":\"luong\","
                                 "\"attentionSize\":4,\"inputFeeding\":true" },
    { "lstm key-query bahdanau", "\"cell\":\"lstm\",\"attention\":\"key-query\",\"style\":"
                                 "\"bahdanau\",\"keySize\":4,\"valueSize\":5" },
    { "bigru key-query luong unscaled",
      "\"cell\":\"gru\",\"bidirectional\":true,\"attention\":\"key-query\",\"style\":\"luong\","
      "\"keySize\":3,\"valueSize\":4,\"scaled\":false" },
    { "lstm local-m concat luong",
      "\"cell\":\"lstm\",\"attention\":\"local-m\",\"style\":\"luong\",\"score\":\"concat\","
      "\"attentionSize\":4,\"window\":1" },
    { "gru dot bahdanau", "\"cell\":\"gru\",\"attention\":\"dot\",\"style\":\"bahdanau\"" },
    { "bilstm local-p dot bahdanau",
      "\"cell\":\"lstm\",\"bidirectional\":true,\"attention\":\"local-p\",\"style\":\"bahdanau\","
      "\"score\":\"dot\",\"window\":2,\"positionSize\":3" },
    { "lstm general bahdanau 2-layer",
      "\"cell\":\"lstm\",\"numLayers\":2,\"attention\":\"general\",\"style\":\"bahdanau\"" },
};

static const char *TOKENIZER = "\"tokenizer\":{\"type\":\"char\",\"srcVocab\":[\"<pad>\",\"<unk>\","
                               "\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\"],"
                               "\"tgtVocab\":[\"<pad>\",\"<s>\",\"</"
                               "s>\",\"x\",\"y\",\"z\",\"w\"],\"pad\":\"<pad>\",\"bos\":\"<s>\","
                               "\"eos\":\"</s>\",\"unk\":\"<unk>\"}";

/* a batch of 3 padded pairs: S_max 6, T_max 5 (targets end in eos = 2) */
#define B 3
#define SM 6
#define TM 5
static const int32_t SRC[B * SM] = {
    2, 3, 4, 5, 6, 7, /**/ 8, 2, 4, 0, 0, 0, /**/ 5, 0, 0, 0, 0, 0
};
static const int32_t SRC_LEN[B] = { 6, 3, 1 };
static const int32_t TGT[B * TM] = { 3, 4, 5, 6, 2, /**/ 6, 5, 2, 0, 0, /**/ 2, 0, 0, 0, 0 };
static const int32_t TGT_LEN[B] = { 5, 3, 1 };

static al_model *make(const variant *v, uint32_t seed)
{
    char err[AL_MODEL_ERR_CAP];
    al_model *m =
        fixture_create(seed, err,
                       "{\"architecture\":\"seq2seq\",\"embeddingSize\":5,"
                       "\"hiddenSize\":6,%s%s,%s}",
                       strstr(v->opts, "numLayers") ? "" : "\"numLayers\":1,", v->opts, TOKENIZER);
    if (!m) printf("FAIL create %s: %s\n", v->name, err);
    return m;
}

/* the batch loss through the inference path: mean over tokens of −log p, in double */
static double score_loss(const al_model *m)
{
    double sum = 0.0, n = 0.0;
    float logp[TM];
    for (int b = 0; b < B; b++) {
        al_status st = al_model_score(m, SRC + b * SM, SRC_LEN[b], TGT + b * TM, TGT_LEN[b], logp,
                                      NULL, NULL, NULL);
        if (st != AL_OK) return NAN;
        for (int t = 0; t < TGT_LEN[b]; t++) sum -= logp[t];
        n += TGT_LEN[b];
    }
    return sum / n;
}
static double loss_of(const void *m) { return score_loss(m); }

#define UNUSED_CHECK_HELPERS                                                                       \
    (void)check_seed;                                                                              \
    (void)check_fill;
static void fd_check(const variant *v)
{
    al_model *m = make(v, 7);
    if (!check_true(v->name, m != NULL)) return;
    float *w = al_model_weights(m);
    const int n = al_model_weight_count(m);
    /* scale every weight to keep the loss smooth and the recurrences tame */
    for (int i = 0; i < n; i++) w[i] *= 0.8f;
    al_trainer *tr;
    check_true("trainer", al_trainer_create(m, AL_OPTIM_ADAM, 1e-3f, 0, 0, 0, &tr) == AL_OK);
    float loss;
    al_status st = al_trainer_gradient(tr, SRC, SRC_LEN, SM, TGT, TGT_LEN, TM, B, &loss);
    check_true("gradient status", st == AL_OK);
    const double l0 = score_loss(m);
    char what[160];
    snprintf(what, sizeof what, "%s: trainer loss = score loss", v->name);
    const float lf = (float)l0;
    check_close_f(what, &loss, &lf, 1, 1e-5, 1e-5);
    fixture_fd_check(v->name, w, n, al_trainer_gradients(tr), loss_of, m);
    al_trainer_free(tr);
    al_model_free(m);
}

static void save_load_and_train(void)
{
    const variant *v = &VARIANTS[0];
    al_model *a = make(v, 42), *b = make(v, 42), *c = make(v, 43);
    if (!check_true("create", a && b && c)) return;
    uint8_t *ba = NULL, *bb = NULL, *bc = NULL;
    size_t la = 0, lb = 0, lc = 0;
    check_true("save", al_model_save(a, &ba, &la) == AL_OK && al_model_save(b, &bb, &lb) == AL_OK &&
                           al_model_save(c, &bc, &lc) == AL_OK);
    check_true("same seed, same bytes", la == lb && memcmp(ba, bb, la) == 0);
    check_true("another seed, other bytes", la == lc && memcmp(ba, bc, la) != 0);
    /* train a, then save → load → identical weights and outputs */
    al_trainer *tr;
    check_true("trainer", al_trainer_create(a, AL_OPTIM_ADAM, 3e-2f, 0, 0, 1.0f, &tr) == AL_OK);
    float first = 0, loss = 0;
    for (int k = 0; k < 30; k++) {
        check_true("step",
                   al_trainer_step(tr, SRC, SRC_LEN, SM, TGT, TGT_LEN, TM, B, &loss) == AL_OK);
        if (k == 0) first = loss;
    }
    printf("adam: loss %.4f -> %.4f in 30 steps\n", first, loss);
    check_true("adam lowers the loss by half", loss < 0.5f * first);
    al_free(ba);
    check_true("save trained", al_model_save(a, &ba, &la) == AL_OK);
    al_model *r;
    char err[AL_MODEL_ERR_CAP];
    check_true("reload", al_model_load(ba, la, &r, err, sizeof err) == AL_OK);
    check_true("same weights", al_model_weight_count(r) == al_model_weight_count(a) &&
                                   memcmp(al_model_weights(r), al_model_weights(a),
                                          sizeof(float) * (size_t)al_model_weight_count(a)) == 0);
    int32_t ids1[20], ids2[20];
    float lp1[20], lp2[20], at1[20 * 6], at2[20 * 6];
    int n1, n2;
    al_model_generate(a, SRC, 6, 20, 1, ids1, lp1, at1, NULL, &n1);
    al_model_generate(r, SRC, 6, 20, 1, ids2, lp2, at2, NULL, &n2);
    check_true("same outputs", n1 == n2 && memcmp(ids1, ids2, 4 * (size_t)n1) == 0 &&
                                   memcmp(lp1, lp2, 4 * (size_t)n1) == 0);
    /* SGD with momentum lowers it too */
    al_trainer *ts;
    check_true("sgd trainer",
               al_trainer_create(b, AL_OPTIM_SGD, 0.5f, 0.9f, 1e-4f, 5.0f, &ts) == AL_OK);
    for (int k = 0; k < 30; k++) {
        al_trainer_step(ts, SRC, SRC_LEN, SM, TGT, TGT_LEN, TM, B, &loss);
        if (k == 0) first = loss;
    }
    printf("sgd: loss %.4f -> %.4f in 30 steps\n", first, loss);
    check_true("sgd lowers the loss", loss < 0.8f * first);
    /* argument checks */
    int32_t bad_len[B] = { 7, 3, 1 };
    check_true("src_len > S_max",
               al_trainer_step(ts, SRC, bad_len, SM, TGT, TGT_LEN, TM, B, &loss) == AL_ERR_SHAPE);
    int32_t bad_tgt[B * TM];
    memcpy(bad_tgt, TGT, sizeof bad_tgt);
    bad_tgt[1] = 99;
    check_true("tgt id out of range", al_trainer_step(ts, SRC, SRC_LEN, SM, bad_tgt, TGT_LEN, TM, B,
                                                      &loss) == AL_ERR_RANGE);
    al_trainer *tx;
    check_true("lr 0 refused",
               al_trainer_create(b, AL_OPTIM_ADAM, 0.0f, 0, 0, 0, &tx) == AL_ERR_ARGUMENT);
    char e2[AL_MODEL_ERR_CAP];
    al_model *bad;
    check_true("bad config refused", al_model_create("{\"architecture\":\"seq2seq\"}", 26, 1, &bad,
                                                     e2, sizeof e2) != AL_OK &&
                                         bad == NULL);
    printf("bad config: %s\n", e2);
    al_trainer_free(ts);
    al_trainer_free(tr);
    al_free(ba);
    al_free(bb);
    al_free(bc);
    al_model_free(r);
    al_model_free(a);
    al_model_free(b);
    al_model_free(c);
}

int main(void)
{
    UNUSED_CHECK_HELPERS
    for (size_t k = 0; k < sizeof VARIANTS / sizeof VARIANTS[0]; k++) fd_check(&VARIANTS[k]);
    save_load_and_train();
    check_true("no leaks", al_alloc_live() == 0);
    return check_report("test_train");
}
