/*
 * test_classifier.c: the "classifier" architecture (models/classifier.h) through api/model.h,
 * natively (and under ASan/UBSan) against its PyTorch fixtures: each
 * tests/fixtures/classifier_<case>.safetensors against classifier_reference.safetensors
 * (float64 results from the float32 weights, scripts/fixture_modules/classifier_models.py):
 * probabilities, attention weights, HAN's sentence weights and Lin's penalty at
 * atol 1e-5 / rtol 1e-4. Also: the argument checks of al_model_classify, a seq2seq call on a
 * classifier refused, and al_alloc_live() back at its baseline.
 *
 * The wasm test build has no host file system: there the fixture cases are skipped, and
 * tests/js/classifier*.test.js run every fixture in both wasm builds. Config and tensor
 * validation messages are tested in tests/js/classifier-suite.js.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attnlab.h"
#include "check.h"

#ifndef __EMSCRIPTEN__
static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *b = check_alloc((size_t)n);
    *len = fread(b, 1, (size_t)n, fp);
    fclose(fp);
    return b;
}

/* tensor "<cas>.<what>" of the reference as floats (NULL and *n = 0 when absent) */
static float *tensor(al_safetensors *ref, const char *cas, const char *what, int *n)
{
    char name[128];
    snprintf(name, sizeof name, "%s.%s", cas, what);
    int i = al_safetensors_find(ref, name);
    *n = 0;
    if (i < 0) return NULL;
    *n = al_safetensors_numel(ref, i);
    float *x = check_alloc(sizeof(float) * (size_t)*n);
    al_safetensors_read_f32(ref, i, x, (size_t)*n);
    return x;
}

static void test_fixtures(void)
{
    static const char *const CASES[] = {
        "attention_bilstm", "attention_gru", "attention_birnn_relu", "han_bigru", "han_bilstm",
        "structured_bilstm", "structured_bigru",
    };
    size_t rlen;
    uint8_t *rbytes = read_all("tests/fixtures/classifier_reference.safetensors", &rlen);
    if (!rbytes) {
        printf("note: tests/fixtures not found (run from the repository root); fixture cases skipped\n");
        return;
    }
    al_safetensors *ref;
    if (!check_true("reference opens", al_safetensors_open(rbytes, rlen, &ref, NULL, 0) == AL_OK)) return;
    for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
        const char *cas = CASES[k];
        char path[160], label[200], err[AL_MODEL_ERR_CAP];
        snprintf(path, sizeof path, "tests/fixtures/classifier_%s.safetensors", cas);
        size_t len;
        uint8_t *bytes = read_all(path, &len);
        al_model *m = NULL;
        snprintf(label, sizeof label, "%s loads", cas);
        if (!check_true(label, bytes && al_model_load(bytes, len, &m, err, sizeof err) == AL_OK)) {
            printf("  %s\n", err);
            free(bytes);
            continue;
        }
        free(bytes);
        snprintf(label, sizeof label, "%s architecture", cas);
        check_true(label, strcmp(al_model_architecture(m), "classifier") == 0);
        int n, C, nw, ns, np;
        float *idf = tensor(ref, cas, "ids", &n), *wp = tensor(ref, cas, "probs", &C);
        float *ww = tensor(ref, cas, "weights", &nw);
        float *wsent = tensor(ref, cas, "sentence_weights", &ns);
        float *wpen = tensor(ref, cas, "penalty", &np);
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
        free(idf); free(wp); free(ww); free(wsent); free(wpen);
        free(ids); free(probs); free(w); free(sent);
        al_model_free(m);
    }
    al_safetensors_free(ref);
    free(rbytes);
}
#endif

int main(void)
{
    check_seed(7); /* no random inputs here; these keep check.h's helpers referenced */
    check_fill(NULL, 0, 0.0f, 0.0f);
    const int base = al_alloc_live();
#ifndef __EMSCRIPTEN__
    test_fixtures();
#else
    printf("note: fixture cases run natively and in tests/js/classifier*.test.js (no host files here)\n");
    (void)check_close_f;
#endif
    /* no model: every entry point refuses NULL */
    int32_t id = 0;
    float probs[1], w[1];
    check_true("NULL model",
               al_model_classify(NULL, &id, 1, probs, w, NULL, NULL) == AL_ERR_ARGUMENT &&
               al_model_classifier_hops(NULL) == -1 &&
               al_model_classifier_sentences(NULL, &id, 1) == -1);
    check_true("all freed", al_alloc_live() == base);
    return check_report("test_classifier");
}
