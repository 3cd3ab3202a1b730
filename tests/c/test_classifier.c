/*
 * test_classifier.c: the "classifier" architecture (models/classifier.h) through api/model.h,
 * natively (and under ASan/UBSan) against its PyTorch fixtures: each
 * tests/fixtures/classifier_<case>.safetensors against classifier_reference.safetensors
 * (float64 results from the float32 weights, scripts/fixture_modules/classifier_models.py):
 * probabilities, attention weights, HAN's sentence weights and Lin's penalty at
 * atol 1e-5 / rtol 1e-4. Also: the argument checks of al_model_classify, a seq2seq call on a
 * classifier refused, and al_alloc_live() back at its baseline.
 *
 * Training (models/classifier_train.h): the batch gradient against PyTorch autograd
 * (classifier_gradients.safetensors: attention × bilstm and 2-layer gru, han × bigru, structured
 * × bilstm with penaltyCoefficient 0.25) at atol 1e-5 / rtol 1e-4; the gradient of EVERY weight
 * of six tiny created models against central finite differences of the loss computed through
 * the inference path (al_model_classify, summed in double); seeded creation; a short Adam run;
 * the example checks (label, empty document, ids) and penaltyCoefficient's range checks.
 *
 * The wasm test build has no host file system: there the fixture cases are skipped, and
 * tests/js/classifier*.test.js run every fixture in both wasm builds. Config and tensor
 * validation messages are tested in tests/js/classifier.test.js.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attnlab.h"
#include "check.h"
#include "fixtures.h"

#ifndef __EMSCRIPTEN__
static void test_fixtures(void)
{
    static const char *const CASES[] = {
        "attention_bilstm", "attention_gru",     "attention_birnn_relu", "han_bigru",
        "han_bilstm",       "structured_bilstm", "structured_bigru",
    };
    fixture_file f;
    if (!fixture_open(&f, "tests/fixtures/classifier_reference.safetensors", "reference opens",
                      "fixture cases"))
        return;
    al_safetensors *ref = f.st;
    for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
        const char *cas = CASES[k];
        char label[200];
        al_model *m = fixture_model("classifier", cas, "loads");
        if (!m) continue;
        snprintf(label, sizeof label, "%s architecture", cas);
        check_true(label, strcmp(al_model_architecture(m), "classifier") == 0);
        int n, C, nw, ns, np;
        float *idf = fixture_get(ref, cas, "ids", &n), *wp = fixture_get(ref, cas, "probs", &C);
        float *ww = fixture_get(ref, cas, "weights", &nw);
        float *wsent = fixture_get(ref, cas, "sentence_weights", &ns);
        float *wpen = fixture_get(ref, cas, "penalty", &np);
        int32_t *ids = check_alloc(sizeof(int32_t) * (size_t)n);
        for (int i = 0; i < n; i++) ids[i] = (int32_t)idf[i];
        const int hops = al_model_classifier_hops(m);
        snprintf(label, sizeof label, "%s sizes", cas);
        check_true(label, al_model_tgt_vocab(m) == C && hops * n == nw &&
                              (ns == 0 || al_model_classifier_sentences(m, ids, n) == ns));
        float *probs = check_alloc(sizeof(float) * (size_t)C);
        float *w = check_alloc(sizeof(float) * (size_t)nw);
        float *sent = check_alloc(sizeof(float) * (size_t)n);
        float pen = -1.0f;
        al_status st = al_model_classify(m, ids, n, probs, w, sent, &pen);
        snprintf(label, sizeof label, "%s classify", cas);
        if (check_true(label, st == AL_OK)) {
            snprintf(label, sizeof label, "%s probabilities", cas);
            check_close_f(label, probs, wp, C, 1e-5, 1e-4);
            snprintf(label, sizeof label, "%s attention weights", cas);
            check_close_f(label, w, ww, nw, 1e-5, 1e-4);
            if (ns) {
                snprintf(label, sizeof label, "%s sentence weights", cas);
                check_close_f(label, sent, wsent, ns, 1e-5, 1e-4);
            }
            const float want_pen = np ? wpen[0] : 0.0f;
            snprintf(label, sizeof label, "%s penalty", cas);
            check_close_f(label, &pen, &want_pen, 1, 1e-5, 1e-4);
        }
        /* the checks of the entry points */
        snprintf(label, sizeof label, "%s argument checks", cas);
        int32_t bad[2] = { 0, 99999 };
        float p1 = 0.0f;
        int32_t src[1] = { 1 }, out_ids[4];
        float lp[4], att[4];
        int steps;
        check_true(label,
                   al_model_classify(m, ids, 0, probs, w, NULL, NULL) == AL_ERR_SHAPE &&
                       al_model_classify(m, ids, 4097, probs, w, NULL, NULL) == AL_ERR_SHAPE &&
                       al_model_classify(m, NULL, n, probs, w, NULL, NULL) == AL_ERR_ARGUMENT &&
                       al_model_classify(m, ids, n, NULL, w, NULL, NULL) == AL_ERR_ARGUMENT &&
                       al_model_classify(NULL, ids, n, probs, w, NULL, &p1) == AL_ERR_ARGUMENT &&
                       al_model_classify(m, bad, 2, probs, w, sent, NULL) == AL_ERR_RANGE &&
                       al_model_generate(m, src, 1, 4, 1, out_ids, lp, att, NULL, &steps) ==
                           AL_ERR_UNSUPPORTED &&
                       al_model_bos(m) == -1 && al_model_has_positions(m) == 0);
        free(idf);
        free(wp);
        free(ww);
        free(wsent);
        free(wpen);
        free(ids);
        free(probs);
        free(w);
        free(sent);
        al_model_free(m);
    }
    fixture_free(&f);
}

/* The batch of classifier_gradients' case cas through al_trainer_gradient against autograd. */
static void test_gradient_fixtures(void)
{
    static const char *const CASES[] = {
        "attention_bilstm",
        "attention_gru",
        "han_bigru",
        "structured_bilstm_penalty",
    };
    fixture_file f;
    if (!fixture_open(&f, "tests/fixtures/classifier_gradients.safetensors",
                      "gradient reference opens", NULL))
        return;
    al_safetensors *ref = f.st;
    fixture_worst = 0.0;
    for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
        const char *cas = CASES[k];
        char label[200];
        al_model *m = fixture_model("classifier", cas, "loads (gradients)");
        if (!m) continue;
        int ns, nl, nb, nloss;
        float *srcf = fixture_get(ref, cas, "src", &ns);
        float *lenf = fixture_get(ref, cas, "src_len", &nl);
        float *labf = fixture_get(ref, cas, "label", &nb);
        float *lossf = fixture_get(ref, cas, "loss", &nloss);
        const int S = ns / nb;
        int32_t *src = check_alloc(sizeof(int32_t) * (size_t)ns);
        int32_t src_len[8], tgt[8], tgt_len[8];
        for (int i = 0; i < ns; i++) src[i] = srcf[i] < 0 ? 0 : (int32_t)srcf[i];
        for (int b = 0; b < nb; b++) {
            src_len[b] = (int32_t)lenf[b];
            tgt[b] = (int32_t)labf[b];
            tgt_len[b] = 1;
        }
        al_trainer *tr = NULL;
        float loss = 0.0f;
        snprintf(label, sizeof label, "%s gradient", cas);
        if (check_true(label, al_trainer_create(m, AL_OPTIM_ADAM, 1e-3f, 0, 0, 0, &tr) == AL_OK &&
                                  al_trainer_gradient(tr, src, src_len, S, tgt, tgt_len, 1, nb,
                                                      &loss) == AL_OK)) {
            snprintf(label, sizeof label, "%s loss", cas);
            check_close_f(label, &loss, lossf, 1, 1e-5, 1e-4);
            fixture_gradients(tr, ref, cas, "%s d%s vs PyTorch", NULL);
        }
        al_trainer_free(tr);
        free(srcf);
        free(lenf);
        free(labf);
        free(lossf);
        free(src);
        al_model_free(m);
    }
    printf("classifier gradients: worst |diff| vs PyTorch %.3g\n", fixture_worst);
    fixture_free(&f);
}
#endif

/* ------------------------------------------------------------------ training, no files */

static const char *TOK = "\"labels\":[\"x\",\"y\",\"z\"],\"tokenizer\":{\"type\":\"word\","
                         "\"vocab\":[\"<pad>\",\"<unk>\",\".\",\"a\",\"b\",\"c\",\"d\",\"e\"],"
                         "\"unk\":\"<unk>\"}";

static al_model *create(const char *opts, uint32_t seed, char *err)
{
    return fixture_create(seed, err, "{\"architecture\":\"classifier\",\"embeddingSize\":4,%s,%s}",
                          opts, TOK);
}

/* a batch of 3 documents (S_max 7): three sentences (the last without "."), one word, and a
 * document opening with a one-token sentence */
#define NB 3
#define SM 7
static const int32_t SRC[NB * SM] = { 3,      4, 2, 5, 6, 2, 7, /**/ 5, 0, 0, 0, 0, 0, 0,
                                      /**/ 2, 3, 3, 4, 0, 0, 0 };
static const int32_t SRC_LEN[NB] = { 7, 1, 4 };
static const int32_t LABEL[NB] = { 2, 0, 1 };
static const int32_t ONE[NB] = { 1, 1, 1 };

/* the mean batch loss through the inference path: −log p(label) + coef · penalty, in double */
static double classify_loss(const al_model *m, double coef)
{
    float probs[3], w[4 * SM], sent[SM], pen = 0.0f;
    double sum = 0.0;
    for (int b = 0; b < NB; b++) {
        if (al_model_classify(m, SRC + b * SM, SRC_LEN[b], probs, w, sent, &pen) != AL_OK)
            return NAN;
        sum += -log((double)probs[LABEL[b]]) + coef * pen;
    }
    return sum / NB;
}

struct loss_ctx {
    const al_model *m;
    double coef;
};
static double loss_of(const void *p)
{
    const struct loss_ctx *c = p;
    return classify_loss(c->m, c->coef);
}

static void fd_check(const char *name, const char *opts, double coef)
{
    char err[AL_MODEL_ERR_CAP], what[200];
    al_model *m = create(opts, 11, err);
    snprintf(what, sizeof what, "%s: created", name);
    if (!check_true(what, m != NULL)) {
        printf("  %s\n", err);
        return;
    }
    float *w = al_model_weights(m);
    const int n = al_model_weight_count(m);
    /* sharper attention than the default init gives (near-uniform weights hide bugs) */
    check_seed(5);
    for (int i = 0; i < n; i++) w[i] = 1.5f * w[i] + check_randf(-0.1f, 0.1f);
    al_trainer *tr;
    float loss;
    check_true(what, al_trainer_create(m, AL_OPTIM_ADAM, 1e-3f, 0, 0, 0, &tr) == AL_OK);
    check_true(what, al_trainer_gradient(tr, SRC, SRC_LEN, SM, LABEL, ONE, 1, NB, &loss) == AL_OK);
    const float want = (float)classify_loss(m, coef);
    snprintf(what, sizeof what, "%s: trainer loss = classify loss", name);
    check_close_f(what, &loss, &want, 1, 1e-5, 1e-5);
    const struct loss_ctx ctx = { m, coef };
    fixture_fd_check(name, w, n, al_trainer_gradients(tr), loss_of, &ctx);
    al_trainer_free(tr);
    al_model_free(m);
}

/* temperature: a number in (0, 1000], default 1; probs = softmax(logits / temperature) */
static void temperature_check(char *err, size_t errlen)
{
    static const struct {
        const char *value;
        al_status st;
        const char *msg;
    } T[] = {
        { "2.5", AL_OK, "" },
        { "1000", AL_OK, "" },
        { "0", AL_ERR_ARGUMENT,
          "config \"temperature\": 0 is out of range (a number > 0 and <= 1000; 1 leaves the "
          "probabilities as they are)" },
        { "-1", AL_ERR_ARGUMENT,
          "config \"temperature\": -1 is out of range (a number > 0 and <= 1000; 1 leaves the "
          "probabilities as they are)" },
        { "1e-50", AL_ERR_ARGUMENT,
          "config \"temperature\": 1e-50 is out of range (a number > 0 and <= 1000; 1 leaves the "
          "probabilities as they are)" },
        { "\"2\"", AL_ERR_FORMAT, "config \"temperature\": must be a number, not a string" },
        { "null", AL_ERR_FORMAT, "config \"temperature\": must be a number, not null" },
    };
    static const int32_t ids[] = { 2, 3, 4, 2 };
    float p1[3], pt[3], w[4];
    const char *base = "{\"architecture\":\"classifier\",\"embeddingSize\":4,\"cell\":\"gru\","
                       "\"hiddenSize\":4,\"numLayers\":1,\"pooling\":\"attention\"%s%s,%s}";
    char cfg[1024], what[128];
    snprintf(cfg, sizeof cfg, base, "", "", TOK);
    al_model *m1 = NULL;
    al_model_create(cfg, strlen(cfg), 3, &m1, err, errlen);
    check_true("temperature: the model without one loads", m1 != NULL);
    if (m1) al_model_classify(m1, ids, 4, p1, w, NULL, NULL);
    for (size_t k = 0; k < sizeof T / sizeof T[0]; k++) {
        snprintf(cfg, sizeof cfg, base, ",\"temperature\":", T[k].value, TOK);
        al_model *m = NULL;
        err[0] = 0;
        const al_status st = al_model_create(cfg, strlen(cfg), 3, &m, err, errlen);
        snprintf(what, sizeof what, "temperature %s", T[k].value);
        if (!check_true(what, st == T[k].st && strcmp(err, T[k].msg) == 0))
            printf("  got %d \"%s\"\n", (int)st, err);
        if (m && m1 && k == 0) {
            /* same weights (seed 3): p_T = softmax(log p_1 / 2.5), log p_1 = logits + const */
            al_model_classify(m, ids, 4, pt, w, NULL, NULL);
            double z = 0.0;
            for (int c = 0; c < 3; c++) z += exp(log(p1[c]) / 2.5);
            const double want = exp(log(p1[0]) / 2.5) / z;
            if (!check_true("temperature 2.5: probs = softmax(logits / 2.5)",
                            fabs(pt[0] - want) < 1e-6 && p1[0] != pt[0]))
                printf("  p1 %.7f p2.5 %.7f want %.7f\n", p1[0], pt[0], want);
        }
        al_model_free(m);
    }
    al_model_free(m1);
}

static void test_training(void)
{
    fd_check("attention bilstm",
             "\"cell\":\"lstm\",\"bidirectional\":true,\"hiddenSize\":6,"
             "\"numLayers\":1,\"pooling\":\"attention\"",
             0.0);
    fd_check("attention rnn 2-layer",
             "\"cell\":\"rnn\",\"hiddenSize\":5,\"numLayers\":2,"
             "\"pooling\":\"attention\"",
             0.0);
    fd_check("han bigru",
             "\"cell\":\"gru\",\"bidirectional\":true,\"hiddenSize\":6,\"numLayers\":1,"
             "\"pooling\":\"han\",\"attentionSize\":3,\"sentenceHiddenSize\":4,"
             "\"sentenceAttentionSize\":5,\"sentenceSeparator\":\".\"",
             0.0);
    fd_check("han lstm 2-layer",
             "\"cell\":\"lstm\",\"hiddenSize\":4,\"numLayers\":2,"
             "\"pooling\":\"han\",\"attentionSize\":3,\"sentenceSeparator\":\".\"",
             0.0);
    fd_check("structured bilstm penalty 0.5",
             "\"cell\":\"lstm\",\"bidirectional\":true,"
             "\"hiddenSize\":6,\"numLayers\":1,\"pooling\":\"structured\",\"attentionSize\":4,"
             "\"hops\":3,\"penaltyCoefficient\":0.5",
             0.5);
    fd_check("structured bigru 2-layer",
             "\"cell\":\"gru\",\"bidirectional\":true,\"hiddenSize\":4,"
             "\"numLayers\":2,\"pooling\":\"structured\",\"attentionSize\":3,\"hops\":2",
             0.0);

    /* seeded creation; the example checks; a short Adam run lowers the loss */
    const char *att = "\"cell\":\"gru\",\"hiddenSize\":6,\"numLayers\":1,\"pooling\":\"attention\"";
    char err[AL_MODEL_ERR_CAP];
    al_model *a = create(att, 3, err), *b = create(att, 3, err), *c = create(att, 4, err);
    if (!check_true("create", a && b && c)) return;
    const size_t nbytes = sizeof(float) * (size_t)al_model_weight_count(a);
    check_true("same seed, same weights",
               memcmp(al_model_weights(a), al_model_weights(b), nbytes) == 0);
    check_true("another seed, other weights",
               memcmp(al_model_weights(a), al_model_weights(c), nbytes) != 0);
    al_trainer *tr;
    float loss = 0.0f, first = 0.0f;
    check_true("trainer", al_trainer_create(a, AL_OPTIM_ADAM, 3e-2f, 0, 0, 1.0f, &tr) == AL_OK);
    const int32_t bad_label[NB] = { 2, 3, 1 }, neg_label[NB] = { -1, 0, 1 }, two[NB] = { 1, 2, 1 };
    const int32_t zero_len[NB] = { 7, 0, 4 };
    int32_t bad_id[NB * SM];
    memcpy(bad_id, SRC, sizeof bad_id);
    bad_id[2] = 8;
    const int32_t tgt2[NB * 2] = { 2, 0, 0, 0, 1, 0 };
    check_true(
        "bad examples refused",
        al_trainer_step(tr, SRC, SRC_LEN, SM, bad_label, ONE, 1, NB, &loss) == AL_ERR_RANGE &&
            al_trainer_step(tr, SRC, SRC_LEN, SM, neg_label, ONE, 1, NB, &loss) == AL_ERR_RANGE &&
            al_trainer_step(tr, bad_id, SRC_LEN, SM, LABEL, ONE, 1, NB, &loss) == AL_ERR_RANGE &&
            al_trainer_step(tr, SRC, zero_len, SM, LABEL, ONE, 1, NB, &loss) == AL_ERR_SHAPE &&
            al_trainer_step(tr, SRC, SRC_LEN, SM, tgt2, two, 2, NB, &loss) == AL_ERR_SHAPE &&
            al_trainer_steps(tr) == 0);
    for (int k = 0; k < 30; k++) {
        check_true("step",
                   al_trainer_step(tr, SRC, SRC_LEN, SM, LABEL, ONE, 1, NB, &loss) == AL_OK);
        if (k == 0) first = loss;
    }
    printf("classifier adam: loss %.4f -> %.4f in 30 steps\n", first, loss);
    check_true("adam lowers the loss by half", loss < 0.5f * first);
    al_trainer_free(tr);
    al_model_free(a);
    al_model_free(b);
    al_model_free(c);

    /* penaltyCoefficient: a number in [0, 10000] */
    static const struct {
        const char *value;
        al_status st;
        const char *msg;
    } PC[] = {
        { "0", AL_OK, "" },
        { "2.5e-1", AL_OK, "" },
        { "10000", AL_OK, "" },
        { "-0.5", AL_ERR_ARGUMENT,
          "config \"penaltyCoefficient\": -0.5 is out of range [0, 10000]" },
        { "1e999", AL_ERR_ARGUMENT,
          "config \"penaltyCoefficient\": 1e999 is out of range [0, 10000]" },
        { "10000.5", AL_ERR_ARGUMENT,
          "config \"penaltyCoefficient\": 10000.5 is out of range [0, 10000]" },
        { "\"0.1\"", AL_ERR_FORMAT,
          "config \"penaltyCoefficient\": must be a number, not a string" },
    };
    for (size_t k = 0; k < sizeof PC / sizeof PC[0]; k++) {
        char opts[256], what[128];
        snprintf(opts, sizeof opts,
                 "\"cell\":\"gru\",\"hiddenSize\":4,\"numLayers\":1,"
                 "\"pooling\":\"structured\",\"attentionSize\":3,\"hops\":2,"
                 "\"penaltyCoefficient\":%s",
                 PC[k].value);
        char cfg[1024];
        snprintf(cfg, sizeof cfg, "{\"architecture\":\"classifier\",\"embeddingSize\":4,%s,%s}",
                 opts, TOK);
        al_model *m = NULL;
        err[0] = 0;
        const al_status st = al_model_create(cfg, strlen(cfg), 1, &m, err, sizeof err);
        snprintf(what, sizeof what, "penaltyCoefficient %s", PC[k].value);
        if (!check_true(what, st == PC[k].st && strcmp(err, PC[k].msg) == 0))
            printf("  got %d \"%s\"\n", (int)st, err);
        al_model_free(m);
    }
    temperature_check(err, sizeof err);
}

/* ------------------------------------------------------------------ intermediate states */

/* softmax of e [len] in double against w [len]: the worst |difference| */
static double softmax_gap(const float *e, const float *w, int len)
{
    double mx = e[0], z = 0.0, worst = 0.0;
    for (int i = 1; i < len; i++) mx = e[i] > mx ? e[i] : mx;
    for (int i = 0; i < len; i++) z += exp((double)e[i] - mx);
    for (int i = 0; i < len; i++) {
        const double g = fabs(exp((double)e[i] - mx) / z - w[i]);
        worst = g > worst ? g : worst;
    }
    return worst;
}

/* r = Σ_t α_t h_t over rows [len] of h [len,d] against pooled [d]: the worst |difference| */
static double pool_gap(const float *w, const float *h, int len, int d, const float *pooled)
{
    double worst = 0.0;
    for (int j = 0; j < d; j++) {
        double r = 0.0;
        for (int t = 0; t < len; t++) r += (double)w[t] * h[(size_t)t * d + j];
        worst = fabs(r - pooled[j]) > worst ? fabs(r - pooled[j]) : worst;
    }
    return worst;
}

/* al_model_classifier_states of a created model (weights sharpened as fd_check's) on SRC's
 * first document (three sentences for han): the layout, bit-identical probabilities, weights,
 * sentence weights and penalty, softmax(scores) = weights and pooled = Σ α h per row, bad
 * arguments. */
static void states_check(const char *name, const char *opts)
{
    char err[AL_MODEL_ERR_CAP], what[200];
    al_model *m = create(opts, 7, err);
    snprintf(what, sizeof what, "states %s: created", name);
    if (!check_true(what, m != NULL)) return;
    float *wts = al_model_weights(m);
    for (int i = 0; i < al_model_weight_count(m); i++) wts[i] *= 1.5f;
    const int32_t *ids = SRC;
    const int n = SRC_LEN[0], hops = al_model_classifier_hops(m), C = al_model_tgt_vocab(m);
    const int ms = al_model_classifier_sentences(m, ids, n);
    int32_t sh[AL_MODEL_CLF_STATE_FIELDS * 4];
    const double floats = al_model_classifier_states_layout(m, ids, n, sh);
    double sum = 0.0;
    const float *f[AL_MODEL_CLF_STATE_FIELDS];
    float *st = falloc((long)floats);
    const float *p = st;
    for (int k = 0; k < AL_MODEL_CLF_STATE_FIELDS; k++) {
        const int32_t *q = sh + 4 * k;
        const int len = q[0] == 0 ? 0 : q[0] == 1 ? q[1] : q[1] * q[2];
        f[k] = p;
        p += len;
        sum += len;
    }
    snprintf(what, sizeof what, "states %s: layout", name);
    check_true(what, sum == floats && sh[4 * 4] == 2 && sh[4 * 4 + 1] == hops &&
                         sh[4 * 4 + 2] == n && sh[4 * 7 + 1] == C &&
                         (sh[4 * 8] == 1) == (strstr(opts, "structured") != NULL) &&
                         (sh[4 * 12] == 2) == (strstr(opts, "han") != NULL));
    float probs[3], w[4 * SM], sent[SM], pen = -1.0f;
    snprintf(what, sizeof what, "states %s: runs", name);
    if (check_true(what, al_model_classifier_states(m, ids, n, st) == AL_OK &&
                             al_model_classify(m, ids, n, probs, w, sent, &pen) == AL_OK)) {
        snprintf(what, sizeof what, "states %s: probs, weights, penalty bit-identical", name);
        check_true(what, memcmp(f[7], probs, sizeof(float) * 3) == 0 &&
                             memcmp(f[4], w, sizeof(float) * (size_t)hops * n) == 0 &&
                             (sh[4 * 8] == 0 || memcmp(f[8], &pen, sizeof pen) == 0) &&
                             (sh[4 * 12] == 0 || memcmp(f[12], sent, sizeof(float) * ms) == 0));
        /* softmax(scores) = weights and pooled = Σ α h, per row (han: per sentence, then the
         * sentence level) */
        const int d = sh[4 * 1 + 2];
        double gs = 0.0, gp = 0.0, g;
        if (sh[4 * 9] == 2) {
            int start = 0, i = 0;
            for (int t = 0; t < n; t++) {
                if (ids[t] != 2 && t != n - 1) continue;
                const int len = t + 1 - start;
                g = softmax_gap(f[3] + start, f[4] + start, len), gs = g > gs ? g : gs;
                g = pool_gap(f[4] + start, f[1] + (size_t)start * d, len, d, f[5] + (size_t)i * d);
                gp = g > gp ? g : gp;
                start = t + 1, i++;
            }
            g = softmax_gap(f[11], f[12], ms), gs = g > gs ? g : gs;
            g = pool_gap(f[12], f[9], ms, sh[4 * 9 + 2], f[13]), gp = g > gp ? g : gp;
        } else {
            for (int h = 0; h < hops; h++) {
                g = softmax_gap(f[3] + h * n, f[4] + h * n, n), gs = g > gs ? g : gs;
                g = pool_gap(f[4] + h * n, f[1], n, d, f[5] + h * d), gp = g > gp ? g : gp;
            }
        }
        g = softmax_gap(f[6], f[7], C), gs = g > gs ? g : gs;
        snprintf(what, sizeof what, "states %s: softmax(scores) = weights (worst %.2g)", name, gs);
        check_true(what, gs < 1e-6);
        snprintf(what, sizeof what, "states %s: pooled = sum of weights x hidden (worst %.2g)",
                 name, gp);
        check_true(what, gp < 1e-5);
    }
    snprintf(what, sizeof what, "states %s: argument checks", name);
    int32_t bad[2] = { 0, 99999 };
    check_true(what, al_model_classifier_states(m, ids, 0, st) == AL_ERR_SHAPE &&
                         al_model_classifier_states(m, ids, 4097, st) == AL_ERR_SHAPE &&
                         al_model_classifier_states(m, NULL, n, st) == AL_ERR_ARGUMENT &&
                         al_model_classifier_states(m, ids, n, NULL) == AL_ERR_ARGUMENT &&
                         al_model_classifier_states(NULL, ids, n, st) == AL_ERR_ARGUMENT &&
                         al_model_classifier_states(m, bad, 2, st) == AL_ERR_RANGE &&
                         al_model_classifier_states_layout(m, ids, 0, sh) == -1.0 &&
                         al_model_classifier_states_layout(m, NULL, n, sh) == -1.0 &&
                         al_model_classifier_states_layout(NULL, ids, n, sh) == -1.0 &&
                         al_model_classifier_states_layout(m, ids, n, NULL) == floats);
    free(st);
    al_model_free(m);
}

static void test_states(void)
{
    states_check("attention bilstm", "\"cell\":\"lstm\",\"bidirectional\":true,\"hiddenSize\":6,"
                                     "\"numLayers\":1,\"pooling\":\"attention\"");
    states_check("han bigru",
                 "\"cell\":\"gru\",\"bidirectional\":true,\"hiddenSize\":6,\"numLayers\":1,"
                 "\"pooling\":\"han\",\"attentionSize\":3,\"sentenceHiddenSize\":4,"
                 "\"sentenceAttentionSize\":5,\"sentenceSeparator\":\".\"");
    states_check("structured gru 2-layer",
                 "\"cell\":\"gru\",\"hiddenSize\":4,\"numLayers\":2,\"pooling\":\"structured\","
                 "\"attentionSize\":3,\"hops\":3");
}

int main(void)
{
    check_fill(NULL, 0, 0.0f, 0.0f); /* keeps check.h's helper referenced */
    const int base = al_alloc_live();
#ifndef __EMSCRIPTEN__
    test_fixtures();
    test_gradient_fixtures();
#else
    printf("note: fixture cases run natively and in tests/js/classifier*.test.js (no host files "
           "here)\n");
    (void)check_close_f;
#endif
    /* no model: every entry point refuses NULL */
    int32_t id = 0;
    float probs[1], w[1];
    check_true("NULL model",
               al_model_classify(NULL, &id, 1, probs, w, NULL, NULL) == AL_ERR_ARGUMENT &&
                   al_model_classifier_hops(NULL) == -1 &&
                   al_model_classifier_sentences(NULL, &id, 1) == -1);
    test_training();
    test_states();
    check_true("all freed", al_alloc_live() == base);
    return check_report("test_classifier");
}
