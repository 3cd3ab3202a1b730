/*
 * test_memory_rnn_model.c: the "memory-rnn" architecture (models/memory_rnn_model.h) through
 * api/model.h and api/train.h:
 *   1. natively, each tests/fixtures/memory_rnn_<case>.safetensors against
 *      memory_rnn_model_reference.safetensors (PyTorch float64 from the float32 weights,
 *      scripts/fixture_modules/memory_rnn_models.py): log-distributions, next-token log-probs or
 *      class probabilities, attention weights, and the loss and every parameter's gradient of a
 *      batch of two examples (al_trainer_gradient), at atol 1e-5 / rtol 1e-4;
 *   2. the analytic gradient against central finite differences of the same loss through the
 *      inference path (al_model_lm_forward / al_model_memory_classify, summed in double) for
 *      every weight of tiny models of each cell and head;
 *   3. config errors name the key; the entry points' argument checks;
 *   4. Adam steps lower the loss; the same seed gives the same bytes; al_alloc_live() returns to
 *      its baseline.
 * The wasm test build has no host file system: there part 1 is skipped (the JS suites run the
 * fixtures in both wasm builds).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attnlab.h"
#include "check.h"
#include "fixtures.h"

#ifndef __EMSCRIPTEN__
static void test_fixture(al_safetensors *ref, const char *cas, int lm)
{
    char label[240];
    al_model *m = fixture_model("memory_rnn", cas, "loads");
    if (!m) return;
    int n, nw, nd, C;
    float *idf = fixture_get(ref, cas, "ids", &n), *ww = fixture_get(ref, cas, "weights", &nw);
    float *want = fixture_get(ref, cas, lm ? "dist" : "probs", &nd);
    int32_t *ids = check_alloc(sizeof(int32_t) * (size_t)n);
    for (int i = 0; i < n; i++) ids[i] = (int32_t)idf[i];
    C = al_model_tgt_vocab(m);
    snprintf(label, sizeof label, "%s sizes", cas);
    check_true(label, strcmp(al_model_architecture(m), "memory-rnn") == 0 && nw == n * n &&
                          nd == (lm ? n * C : C) && al_model_bos(m) == -1);
    float *out = check_alloc(sizeof(float) * (size_t)nd),
          *w = check_alloc(sizeof(float) * (size_t)nw);
    float *logp = check_alloc(sizeof(float) * (size_t)n);
    al_status st = lm ? al_model_lm_forward(m, ids, n, logp, out, w)
                      : al_model_memory_classify(m, ids, n, out, w);
    snprintf(label, sizeof label, "%s forward", cas);
    if (check_true(label, st == AL_OK)) {
        snprintf(label, sizeof label, "%s %s", cas, lm ? "log-distributions" : "probabilities");
        fixture_close(label, out, want, nd);
        snprintf(label, sizeof label, "%s attention weights", cas);
        fixture_close(label, w, ww, nw);
        if (lm) {
            int nl;
            float *wl = fixture_get(ref, cas, "logp", &nl);
            snprintf(label, sizeof label, "%s next-token log-probs", cas);
            if (check_true(label, nl == n - 1)) fixture_close(label, logp, wl, nl);
            free(wl);
        }
    }
    /* the other head's entry point, and the seq2seq ones, refuse it */
    int32_t out_ids[2];
    int steps;
    snprintf(label, sizeof label, "%s other entry points refuse it", cas);
    check_true(label,
               (lm ? al_model_memory_classify(m, ids, n, out, w)
                   : al_model_lm_forward(m, ids, n, logp, NULL, NULL)) == AL_ERR_UNSUPPORTED &&
                   al_model_generate(m, ids, n, 2, 1, out_ids, logp, w, NULL, &steps) ==
                       AL_ERR_UNSUPPORTED &&
                   al_model_classify(m, ids, n, out, w, NULL, NULL) == AL_ERR_UNSUPPORTED);

    /* the batch gradient against autograd */
    int nb, nsl, nlab, nloss;
    float *srcf = fixture_get(ref, cas, "src", &nb), *slf = fixture_get(ref, cas, "src_len", &nsl);
    float *labf = fixture_get(ref, cas, "labels", &nlab);
    float *lossf = fixture_get(ref, cas, "loss", &nloss);
    const int SM = nb / 2;
    int32_t src[64], src_len[2], tgt[2] = { 0, 0 }, tgt_len[2] = { lm ? 0 : 1, lm ? 0 : 1 };
    for (int i = 0; i < nb && i < 64; i++) src[i] = srcf[i] < 0 ? 0 : (int32_t)srcf[i];
    for (int b = 0; b < 2; b++) src_len[b] = (int32_t)slf[b];
    for (int b = 0; b < nlab; b++) tgt[b] = (int32_t)labf[b];
    al_trainer *tr = NULL;
    float loss = 0.0f;
    st = al_trainer_create(m, AL_OPTIM_ADAM, 1e-3f, 0.0f, 0.0f, 0.0f, &tr);
    if (st == AL_OK)
        st = al_trainer_gradient(tr, src, src_len, SM, tgt, tgt_len, lm ? 0 : 1, 2, &loss);
    snprintf(label, sizeof label, "%s trainer gradient", cas);
    if (check_true(label, st == AL_OK)) {
        snprintf(label, sizeof label, "%s batch loss", cas);
        fixture_close(label, &loss, lossf, 1);
        if (fixture_gradients(tr, ref, cas, "%s gradient of %s", NULL) < 0)
            check_true("gradients export", 0);
    }
    al_trainer_free(tr);
    free(srcf);
    free(slf);
    free(labf);
    free(lossf);
    free(idf);
    free(ww);
    free(want);
    free(ids);
    free(out);
    free(w);
    free(logp);
    al_model_free(m);
}

static void test_fixtures(void)
{
    static const char *const CASES[] = { "lm_lstmn", "lm_sarnn_additive", "lm_sarnn_dot",
                                         "lm_lstm",  "clf_lstmn",         "clf_sarnn_mean" };
    fixture_file f;
    if (!fixture_open(&f, "tests/fixtures/memory_rnn_model_reference.safetensors",
                      "reference opens", "fixture cases"))
        return;
    for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++)
        test_fixture(f.st, CASES[k], strncmp(CASES[k], "lm_", 3) == 0);
    printf("memory-rnn fixtures: worst |diff| vs PyTorch %.3g\n", fixture_worst);
    fixture_free(&f);
}
#endif

/* ------------------------------------------------------------------ finite differences */

static const char *VOCAB =
    "\"tokenizer\":{\"type\":\"word\",\"vocab\":[\"<unk>\",\"a\",\"b\",\"c\",\"d\",\"e\",\"f\"],"
    "\"unk\":\"<unk>\"}";

typedef struct {
    const char *name, *opts;
    int lm;
} variant;

static const variant VARIANTS[] = {
    { "lm lstmn", "\"cell\":\"lstmn\",\"head\":\"lm\"", 1 },
    { "lm self-attention-rnn additive",
      "\"cell\":\"self-attention-rnn\",\"attentionSize\":3,\"head\":\"lm\"", 1 },
    { "lm self-attention-rnn dot",
      "\"cell\":\"self-attention-rnn\",\"align\":\"dot\",\"attentionSize\":2,\"head\":\"lm\"", 1 },
    { "lm lstm", "\"cell\":\"lstm\",\"head\":\"lm\"", 1 },
    { "classifier lstmn last",
      "\"cell\":\"lstmn\",\"head\":\"classifier\",\"labels\":[\"x\",\"y\",\"z\"]", 0 },
    { "classifier self-attention-rnn dot mean",
      "\"cell\":\"self-attention-rnn\",\"align\":\"dot\",\"attentionSize\":3,\"head\":"
      "\"classifier\",\"pool\":\"mean\",\"labels\":[\"x\",\"y\"]",
      0 },
    { "classifier lstm mean",
      "\"cell\":\"lstm\",\"head\":\"classifier\",\"pool\":\"mean\",\"labels\":[\"x\",\"y\",\"z\"]",
      0 },
};

/* a batch of 2: lengths 5 and 2 (S_max 5); labels 2 and 1 */
static const int32_t SRC[10] = { 1, 4, 2, 6, 3, /**/ 5, 0, 0, 0, 0 };
static const int32_t SRC_LEN[2] = { 5, 2 };
static const int32_t LABELS[2] = { 1, 0 };
static const int32_t TGT_LEN[2] = { 1, 1 };

static al_model *make(const variant *v, uint32_t seed, char *err)
{
    return fixture_create(seed, err,
                          "{\"architecture\":\"memory-rnn\",\"embeddingSize\":3,"
                          "\"hiddenSize\":4,%s,%s}",
                          v->opts, VOCAB);
}

/* the batch loss through the inference path, in double: (Σ −log p) / terms */
static double infer_loss(const al_model *m, int lm)
{
    double sum = 0.0, terms = 0.0;
    float lp[8], probs[8];
    for (int b = 0; b < 2; b++) {
        const int n = SRC_LEN[b];
        if (lm) {
            if (al_model_lm_forward(m, SRC + 5 * b, n, lp, NULL, NULL) != AL_OK) return NAN;
            for (int t = 0; t < n - 1; t++) sum -= lp[t];
            terms += n - 1;
        } else {
            if (al_model_memory_classify(m, SRC + 5 * b, n, probs, NULL) != AL_OK) return NAN;
            sum -= log((double)probs[LABELS[b]]);
            terms += 1;
        }
    }
    return sum / terms;
}

struct loss_ctx {
    const al_model *m;
    int lm;
};
static double loss_of(const void *p)
{
    const struct loss_ctx *c = p;
    return infer_loss(c->m, c->lm);
}

static void fd_check(const variant *v)
{
    char err[AL_MODEL_ERR_CAP], what[200];
    al_model *m = make(v, 3, err);
    if (!check_true(v->name, m != NULL)) {
        printf("  %s\n", err);
        return;
    }
    float *w = al_model_weights(m);
    const int n = al_model_weight_count(m);
    al_trainer *tr;
    check_true("trainer", al_trainer_create(m, AL_OPTIM_ADAM, 1e-3f, 0, 0, 0, &tr) == AL_OK);
    /* the LM batch passes its (unused) tgt_len as zeros: build it here */
    static const int32_t zeros[2] = { 0, 0 };
    float loss = NAN;
    al_status st = al_trainer_gradient(tr, SRC, SRC_LEN, 5, LABELS, v->lm ? zeros : TGT_LEN,
                                       v->lm ? 0 : 1, 2, &loss);
    check_true("gradient status", st == AL_OK);
    const double l0 = infer_loss(m, v->lm);
    const float lf = (float)l0;
    snprintf(what, sizeof what, "%s: trainer loss = inference loss", v->name);
    check_close_f(what, &loss, &lf, 1, 1e-5, 1e-5);
    const struct loss_ctx ctx = { m, v->lm };
    fixture_fd_check(v->name, w, n, al_trainer_gradients(tr), loss_of, &ctx);
    al_trainer_free(tr);
    al_model_free(m);
}

/* Adam lowers the loss of one batch; the same seed gives the same bytes, another seed others */
static void train_and_seed(const variant *v)
{
    char err[AL_MODEL_ERR_CAP], what[200];
    static const int32_t zeros[2] = { 0, 0 };
    al_model *a = make(v, 42, err), *b = make(v, 42, err), *c = make(v, 43, err);
    if (!check_true("create", a && b && c)) return;
    uint8_t *ba, *bb, *bc;
    size_t la, lb, lc;
    al_model_save(a, &ba, &la);
    al_model_save(b, &bb, &lb);
    al_model_save(c, &bc, &lc);
    snprintf(what, sizeof what, "%s: same seed same bytes, other seed other bytes", v->name);
    check_true(what, la == lb && memcmp(ba, bb, la) == 0 && la == lc && memcmp(ba, bc, la) != 0);
    al_free(ba);
    al_free(bb);
    al_free(bc);
    al_trainer *tr;
    al_trainer_create(a, AL_OPTIM_ADAM, 2e-2f, 0, 0, 1.0f, &tr);
    float first = NAN, last = NAN;
    for (int s = 0; s < 40; s++) {
        float loss = NAN;
        al_trainer_step(tr, SRC, SRC_LEN, 5, LABELS, v->lm ? zeros : TGT_LEN, v->lm ? 0 : 1, 2,
                        &loss);
        if (s == 0) first = loss;
        last = loss;
    }
    printf("%s: loss %.4f -> %.4f in 40 Adam steps\n", v->name, first, last);
    snprintf(what, sizeof what, "%s: training lowers the loss", v->name);
    check_true(what, last < 0.5f * first);
    al_trainer_free(tr);
    al_model_free(a);
    al_model_free(b);
    al_model_free(c);
}

/* ------------------------------------------------------------------ config errors, checks */

static void config_errors(void)
{
    static const struct {
        const char *cfg;
        al_status st;
        const char *msg;
    } BAD[] = {
        { "\"cell\":\"gru\",\"head\":\"lm\"", AL_ERR_ARGUMENT,
          "config \"cell\": unknown value \"gru\" (known: lstmn, self-attention-rnn, lstm)" },
        { "\"cell\":\"self-attention-rnn\",\"head\":\"lm\"", AL_ERR_FORMAT,
          "missing key \"attentionSize\"" },
        { "\"cell\":\"self-attention-rnn\",\"attentionSize\":2,\"align\":\"general\",\"head\":"
          "\"lm\"",
          AL_ERR_ARGUMENT, "\"align\": unknown value \"general\"" },
        { "\"cell\":\"lstmn\",\"head\":\"decoder\"", AL_ERR_ARGUMENT,
          "\"head\": unknown value \"decoder\"" },
        { "\"cell\":\"lstmn\"", AL_ERR_FORMAT, "missing key \"head\"" },
        { "\"cell\":\"lstmn\",\"head\":\"classifier\"", AL_ERR_FORMAT, "missing key \"labels\"" },
        { "\"cell\":\"lstmn\",\"head\":\"classifier\",\"pool\":\"max\",\"labels\":[\"x\"]",
          AL_ERR_ARGUMENT, "\"pool\": unknown value \"max\" (known: last, mean)" },
        { "\"cell\":\"lstmn\",\"head\":\"lm\",\"hops\":2", AL_ERR_FORMAT, "unknown key \"hops\"" },
    };
    char cfg[1024], err[AL_MODEL_ERR_CAP];
    for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; k++) {
        snprintf(cfg, sizeof cfg,
                 "{\"architecture\":\"memory-rnn\",\"embeddingSize\":3,"
                 "\"hiddenSize\":4,%s,%s}",
                 BAD[k].cfg, VOCAB);
        al_model *m = NULL;
        al_status st = al_model_create(cfg, strlen(cfg), 1, &m, err, sizeof err);
        char what[300];
        snprintf(what, sizeof what, "config error %s: %s (got \"%s\")", BAD[k].cfg, BAD[k].msg,
                 err);
        check_true(what, st == BAD[k].st && !m && strstr(err, BAD[k].msg) != NULL);
    }
    /* the tokenizer: bos / eos must be in the vocabulary; sizes in range */
    static const char *const TOK[][2] = {
        { "\"tokenizer\":{\"type\":\"word\",\"vocab\":[\"<unk>\",\"a\"],\"unk\":\"<unk>\",\"bos\":"
          "\"<s>\"}",
          "config \"tokenizer.bos\": \"<s>\" is not in tokenizer.vocab" },
        { "\"tokenizer\":{\"type\":\"char\",\"vocab\":[\"<unk>\",\"a\"],\"unk\":\"<unk>\"}",
          "\"tokenizer.type\": unknown value \"char\" (known: word)" },
        { "\"tokenizer\":{\"type\":\"word\",\"vocab\":[\"a\"],\"unk\":\"<unk>\"}",
          "config \"tokenizer.unk\": \"<unk>\" is not in tokenizer.vocab" },
    };
    for (size_t k = 0; k < sizeof TOK / sizeof TOK[0]; k++) {
        snprintf(cfg, sizeof cfg,
                 "{\"architecture\":\"memory-rnn\",\"embeddingSize\":3,"
                 "\"hiddenSize\":4,\"cell\":\"lstm\",\"head\":\"lm\",%s}",
                 TOK[k][0]);
        al_model *m = NULL;
        al_model_create(cfg, strlen(cfg), 1, &m, err, sizeof err);
        char what[300];
        snprintf(what, sizeof what, "tokenizer error: %s (got \"%s\")", TOK[k][1], err);
        check_true(what, !m && strstr(err, TOK[k][1]) != NULL);
    }
    snprintf(cfg, sizeof cfg,
             "{\"architecture\":\"memory-rnn\",\"embeddingSize\":3,"
             "\"hiddenSize\":0,\"cell\":\"lstm\",\"head\":\"lm\",%s}",
             VOCAB);
    al_model *m = NULL;
    check_true("hiddenSize 0",
               al_model_create(cfg, strlen(cfg), 1, &m, err, sizeof err) == AL_ERR_ARGUMENT &&
                   strstr(err, "\"hiddenSize\": 0 is out of range"));

    /* the entry points' checks on a good LM */
    m = make(&VARIANTS[0], 1, err);
    if (!check_true("lm model", m != NULL)) return;
    int32_t ids[3] = { 1, 2, 3 }, bad[2] = { 1, 7 };
    float lp[3], dist[3 * 7], w[9], probs[7];
    check_true("lm argument checks",
               al_model_lm_forward(m, ids, 0, lp, NULL, NULL) == AL_ERR_SHAPE &&
                   al_model_lm_forward(m, ids, 4097, lp, NULL, NULL) == AL_ERR_SHAPE &&
                   al_model_lm_forward(m, NULL, 3, lp, NULL, NULL) == AL_ERR_ARGUMENT &&
                   al_model_lm_forward(NULL, ids, 3, lp, NULL, NULL) == AL_ERR_ARGUMENT &&
                   al_model_lm_forward(m, bad, 2, lp, NULL, NULL) == AL_ERR_RANGE &&
                   al_model_memory_classify(m, ids, 3, probs, w) == AL_ERR_UNSUPPORTED &&
                   al_model_src_vocab(m) == 7 && al_model_tgt_vocab(m) == 7 &&
                   al_model_eos(m) == -1 && al_model_max_length(m) == -1 &&
                   al_model_has_positions(m) == 0);
    /* one token: a distribution and no log-prob; every row of dist sums to 1, row 0 of the
     * LSTMN's weights is zeros */
    check_true("lm n = 1", al_model_lm_forward(m, ids, 1, NULL, dist, w) == AL_OK && w[0] == 0.0f);
    al_model_lm_forward(m, ids, 3, lp, dist, w);
    double worst = 0.0;
    for (int t = 0; t < 3; t++) {
        double s = 0.0;
        for (int i = 0; i < 7; i++) s += exp((double)dist[t * 7 + i]);
        worst = fmax(worst, fabs(s - 1.0));
    }
    check_true("lm rows are distributions, logp = dist[t, ids[t+1]]",
               worst < 1e-5 && lp[0] == dist[0 * 7 + 2] && lp[1] == dist[1 * 7 + 3]);
    /* trainer examples: an LM sentence needs 2 tokens and no target */
    al_trainer *tr;
    al_trainer_create(m, AL_OPTIM_SGD, 0.1f, 0, 0, 0, &tr);
    int32_t one[1] = { 1 }, len1[1] = { 1 }, len0[1] = { 0 }, y[1] = { 0 };
    float loss;
    check_true("lm examples",
               al_trainer_gradient(tr, one, len1, 1, y, len0, 0, 1, &loss) == AL_ERR_SHAPE &&
                   al_trainer_gradient(tr, ids, (int32_t[]){ 3 }, 3, y, len1, 1, 1, &loss) ==
                       AL_ERR_SHAPE &&
                   al_trainer_gradient(tr, bad, (int32_t[]){ 2 }, 2, y, len0, 0, 1, &loss) ==
                       AL_ERR_RANGE &&
                   al_trainer_gradient(tr, ids, (int32_t[]){ 3 }, 3, y, len0, 0, 1, &loss) ==
                       AL_OK);
    al_trainer_free(tr);
    al_model_free(m);
    m = make(&VARIANTS[4], 1, err);
    al_trainer_create(m, AL_OPTIM_SGD, 0.1f, 0, 0, 0, &tr);
    int32_t y3[1] = { 3 };
    check_true(
        "classifier examples",
        al_trainer_gradient(tr, ids, (int32_t[]){ 3 }, 3, y3, len1, 1, 1, &loss) == AL_ERR_RANGE &&
            al_trainer_gradient(tr, ids, (int32_t[]){ 3 }, 3, y, len0, 1, 1, &loss) ==
                AL_ERR_SHAPE &&
            al_trainer_gradient(tr, ids, (int32_t[]){ 3 }, 3, y, len1, 1, 1, &loss) == AL_OK &&
            al_model_memory_classify(m, ids, 3, probs, NULL) == AL_OK &&
            al_model_lm_forward(m, ids, 3, lp, NULL, NULL) == AL_ERR_UNSUPPORTED &&
            al_model_tgt_vocab(m) == 3 && fabs(probs[0] + probs[1] + probs[2] - 1.0) < 1e-6);
    al_trainer_free(tr);
    al_model_free(m);
}

int main(void)
{
    check_seed(7); /* no random inputs here; these keep check.h's helpers referenced */
    check_fill(NULL, 0, 0.0f, 0.0f);
    const int base = al_alloc_live();
#ifndef __EMSCRIPTEN__
    test_fixtures();
#else
    printf("note: fixture cases run natively and in tests/js/memory-rnn-model*.test.js\n");
#endif
    for (size_t k = 0; k < sizeof VARIANTS / sizeof VARIANTS[0]; k++) fd_check(&VARIANTS[k]);
    for (size_t k = 0; k < sizeof VARIANTS / sizeof VARIANTS[0]; k++) train_and_seed(&VARIANTS[k]);
    config_errors();
    check_true("all freed", al_alloc_live() == base);
    return check_report("test_memory_rnn_model");
}
