/*
 * test_transformer_batch.c: the batched transformer gradient (al_transformer_backward_batch,
 * models/transformer_train_batch.c over kernels/transformer_layers_packed.h) against B calls of
 * the per-example al_transformer_backward, natively, under ASan/UBSan and in wasm:
 *   - small random models of every variant (encoder, decoder-only, encoder-decoder), learned,
 *     sinusoidal and relative positions, post-norm and pre-norm, relu and gelu, with and without
 *     final norms, 2 layers, 2 heads; a batch of 5 examples of different source and target
 *     lengths, length 1 wherever the variant allows it;
 *   - the batch's nll against Σ_b nll_b, and g0 += scale·gradient (g0 starts from random values,
 *     so the accumulation is checked too) element by element: |a − b| <= 1e-5 + 1e-5·|b|;
 *   - through the trainer (api/train.h): the batched switch on and off give the same loss and
 *     gradient, and al_trainer_batched reports the batched path;
 *   - over its memory cap the batch answers AL_ERR_UNSUPPORTED and leaves g0 untouched;
 *   - nothing leaks.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixtures.h"
#include "api/train.h"
#include "models/model.h"
#include "models/transformer_train.h"

#define ATOL 1e-5
#define RTOL 1e-5

typedef struct {
    const char *name, *variant, *opts;
} tiny;

static const tiny CASES[] = {
    { "encoder learned post-norm final norm gelu", "encoder",
      "\"positions\":\"learned\",\"maxPositions\":9,\"finalNorm\":true,\"activation\":\"gelu\"" },
    { "encoder relative k=2 pre-norm scaled relu", "encoder",
      "\"positions\":\"relative\",\"maxRelativePosition\":2,\"normFirst\":true,"
      "\"scaleEmbedding\":true,\"activation\":\"relu\"" },
    { "decoder sinusoidal pre-norm final norm gelu", "decoder",
      "\"positions\":\"sinusoidal\",\"normFirst\":true,\"finalNorm\":true,\"activation\":"
      "\"gelu\"" },
    { "decoder relative k=2 post-norm relu", "decoder",
      "\"positions\":\"relative\",\"maxRelativePosition\":2,\"activation\":\"relu\"" },
    { "encoder-decoder learned post-norm final norm gelu", "encoder-decoder",
      "\"positions\":\"learned\",\"maxPositions\":9,\"finalNorm\":true,\"activation\":\"gelu\"" },
    { "encoder-decoder learned pre-norm final norm (the lab's)", "encoder-decoder",
      "\"positions\":\"learned\",\"maxPositions\":9,\"normFirst\":true,\"finalNorm\":true" },
    { "encoder-decoder relative k=2 pre-norm final norm scaled", "encoder-decoder",
      "\"positions\":\"relative\",\"maxRelativePosition\":2,\"normFirst\":true,\"finalNorm\":true,"
      "\"scaleEmbedding\":true,\"activation\":\"gelu\"" },
    { "encoder-decoder relative k=3 post-norm", "encoder-decoder",
      "\"positions\":\"relative\",\"maxRelativePosition\":3" },
};

static al_model *make(const tiny *v, uint32_t seed)
{
    char err[AL_MODEL_ERR_CAP];
    const int enc = strcmp(v->variant, "encoder") == 0;
    al_model *m = fixture_create(
        seed, err,
        "{\"architecture\":\"transformer\",\"variant\":\"%s\",\"embeddingSize\":8,"
        "\"numHeads\":2,\"feedforwardSize\":12,\"numLayers\":2,%s,\"tokenizer\":{\"type\":"
        "\"char\",\"srcVocab\":[\"<pad>\",\"<s>\",\"</s>\",\"<unk>\",\"a\",\"b\",\"c\",\"d\"],"
        "\"tgtVocab\":%s,\"unk\":\"<unk>\"%s}}",
        v->variant, v->opts,
        enc ? "[\"O\",\"B\",\"I\"]"
            : "[\"<pad>\",\"<s>\",\"</s>\",\"<unk>\",\"a\",\"b\",\"c\",\"d\"]",
        enc ? "" : ",\"bos\":\"<s>\",\"eos\":\"</s>\"");
    if (!m) printf("FAIL create %s: %s\n", v->name, err);
    return m;
}

/* A batch of 5 examples, S_max = T_max = 8, random ids, lengths per variant. */
#define NB 5
#define SM 8
#define TM 8
typedef struct {
    int32_t src[NB * SM], src_len[NB], tgt[NB * TM], tgt_len[NB];
    int T_max;
} batch;

static batch batch_of(const char *variant, int Vs, int Vt)
{
    static const int32_t ED_S[NB] = { 5, 1, 8, 3, 7 }, ED_T[NB] = { 1, 4, 6, 8, 2 };
    static const int32_t DEC_S[NB] = { 2, 5, 8, 3, 6 }, ENC_S[NB] = { 1, 6, 3, 8, 4 };
    const int ed = strcmp(variant, "encoder-decoder") == 0, dec = strcmp(variant, "decoder") == 0;
    batch b;
    memset(&b, 0, sizeof b);
    for (int i = 0; i < NB * SM; i++) b.src[i] = 2 + (int32_t)(check_uniform() * (Vs - 2));
    for (int i = 0; i < NB * TM; i++) b.tgt[i] = (int32_t)(check_uniform() * Vt);
    for (int e = 0; e < NB; e++) {
        b.src_len[e] = ed ? ED_S[e] : dec ? DEC_S[e] : ENC_S[e];
        b.tgt_len[e] = ed ? ED_T[e] : dec ? 0 : ENC_S[e];
    }
    b.T_max = dec ? 0 : TM;
    return b;
}

static double worst_rel; /* the largest |a − b| / (1e-5 + 1e-5·|b|) seen */

static void track(const float *a, const float *b, long n)
{
    for (long i = 0; i < n; i++) {
        const double r = fabs((double)a[i] - b[i]) / (ATOL + RTOL * fabs((double)b[i]));
        if (r > worst_rel) worst_rel = r;
    }
}

static void one_case(const tiny *v, uint32_t seed)
{
    char what[240];
    al_model *m = make(v, seed);
    if (!check_true(v->name, m != NULL)) return;
    const al_transformer *tf = (const al_transformer *)m->impl;
    const batch b = batch_of(v->variant, tf->Vs, tf->Vt);
    const int n = al_model_weight_count(m);
    const float *w = al_model_weights(m);
    float *g_ref = falloc(n), *g_bat = falloc(n), *g_keep = falloc(n);
    check_fill(g_ref, n, -0.5f, 0.5f);
    memcpy(g_bat, g_ref, sizeof(float) * (size_t)n);
    memcpy(g_keep, g_ref, sizeof(float) * (size_t)n);
    const float scale = 0.0625f;
    /* every other case label-smoothed (models/loss.h): batched and per example agree either way */
    const float smoothing = (seed % 2) ? 0.1f : 0.0f;

    /* the reference: one al_transformer_backward per example */
    double nll_ref = 0.0;
    for (int e = 0; e < NB; e++) {
        double nll = 0.0;
        const al_status st = al_transformer_backward(tf, w, g_ref, b.src + e * SM, b.src_len[e],
                                                     b.T_max ? b.tgt + e * TM : NULL, b.tgt_len[e],
                                                     scale, smoothing, &nll);
        snprintf(what, sizeof what, "%s: example %d status", v->name, e);
        check_true(what, st == AL_OK);
        nll_ref += nll;
    }
    double nll_bat = -1.0;
    al_status st = al_transformer_backward_batch(
        tf, w, g_bat, b.src, b.src_len, SM, b.T_max ? b.tgt : NULL, b.tgt_len, b.T_max, NB, scale,
        smoothing, AL_TF_BATCH_MAX_FLOATS, &nll_bat);
    snprintf(what, sizeof what, "%s: batch status", v->name);
    check_true(what, st == AL_OK);
    snprintf(what, sizeof what, "%s: nll = sum of the examples' (%.9g vs %.9g)", v->name, nll_bat,
             nll_ref);
    check_true(what, fabs(nll_bat - nll_ref) <= 1e-5 + 1e-5 * fabs(nll_ref));
    snprintf(what, sizeof what, "%s: g0 += scale * gradient, every weight", v->name);
    check_close_f(what, g_bat, g_ref, n, ATOL, RTOL);
    track(g_bat, g_ref, n);
    /* the batch moved the gradient: a test of nothing would pass the line above */
    double moved = 0.0;
    for (int i = 0; i < n; i++) moved = fmax(moved, fabs((double)g_bat[i] - g_keep[i]));
    snprintf(what, sizeof what, "%s: the gradient is not zero (max %.3g)", v->name, moved);
    check_true(what, moved > 1e-3);

    /* over the cap: AL_ERR_UNSUPPORTED, g0 untouched */
    memcpy(g_bat, g_keep, sizeof(float) * (size_t)n);
    st = al_transformer_backward_batch(tf, w, g_bat, b.src, b.src_len, SM, b.T_max ? b.tgt : NULL,
                                       b.tgt_len, b.T_max, NB, scale, smoothing, 1000.0, &nll_bat);
    snprintf(what, sizeof what, "%s: over the cap: AL_ERR_UNSUPPORTED, g0 untouched", v->name);
    check_true(what,
               st == AL_ERR_UNSUPPORTED && memcmp(g_bat, g_keep, sizeof(float) * (size_t)n) == 0);

    /* through the trainer: batched on (the default) and off */
    al_trainer *on, *off;
    al_trainer_create(m, AL_OPTIM_ADAM, 1e-3f, 0, 0, 0, &on);
    al_trainer_create(m, AL_OPTIM_ADAM, 1e-3f, 0, 0, 0, &off);
    check_true("al_trainer_set_batched", al_trainer_set_batched(off, 0) == AL_OK);
    /* the trainer's label smoothing reaches both paths; out of [0, 1) it is refused, unchanged */
    check_true("al_trainer_set_label_smoothing",
               al_trainer_set_label_smoothing(on, smoothing) == AL_OK &&
                   al_trainer_set_label_smoothing(off, smoothing) == AL_OK);
    const float refused[] = { -0.1f, 1.0f, NAN, INFINITY };
    for (int k = 0; k < 4; k++)
        check_true("label smoothing outside [0, 1): AL_ERR_ARGUMENT",
                   al_trainer_set_label_smoothing(on, refused[k]) == AL_ERR_ARGUMENT);
    check_true("a refused label smoothing leaves the trainer's",
               al_trainer_label_smoothing(on) == smoothing &&
                   al_trainer_set_label_smoothing(NULL, 0.1f) == AL_ERR_ARGUMENT &&
                   al_trainer_label_smoothing(NULL) == -1.0f);
    snprintf(what, sizeof what, "%s: the trainer takes the batched path", v->name);
    check_true(what, al_trainer_batched(on) == 1 && al_trainer_batched(off) == 0);
    float l_on = 0.0f, l_off = 0.0f;
    const al_status s_on =
        al_trainer_gradient(on, b.src, b.src_len, SM, b.tgt, b.tgt_len, b.T_max, NB, &l_on);
    const al_status s_off =
        al_trainer_gradient(off, b.src, b.src_len, SM, b.tgt, b.tgt_len, b.T_max, NB, &l_off);
    snprintf(what, sizeof what, "%s: trainer batched = per example (loss %.7g vs %.7g)", v->name,
             l_on, l_off);
    check_true(what, s_on == AL_OK && s_off == AL_OK && fabs(l_on - l_off) <= 1e-6 * fabs(l_off));
    snprintf(what, sizeof what, "%s: trainer gradient batched = per example", v->name);
    check_close_f(what, al_trainer_gradients(on), al_trainer_gradients(off), n, ATOL, RTOL);
    track(al_trainer_gradients(on), al_trainer_gradients(off), n);
    al_trainer_free(on);
    al_trainer_free(off);
    free(g_ref);
    free(g_bat);
    free(g_keep);
    al_model_free(m);
}

int main(void)
{
    const int base = al_alloc_live();
    check_seed(31);
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        one_case(&CASES[i], 7 + (uint32_t)i);
    check_true("no leak", al_alloc_live() == base);
    printf("worst |batched - per example| / (1e-5 + 1e-5 |per example|): %.3g\n", worst_rel);
    return check_report("test_transformer_batch");
}
