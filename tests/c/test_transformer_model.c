/*
 * test_transformer_model.c: the "transformer" architecture (models/transformer.c,
 * models/transformer_train.c) natively and under ASan/UBSan: every PyTorch fixture of
 * tests/fixtures/transformer_model_reference (logits and every layer/head attention of one
 * forward at atol 1e-5 / rtol 1e-4, greedy ids and log-probs; learned, sinusoidal and relative
 * positions), the PyTorch autograd gradients of tests/fixtures/transformer_train_gradients (loss
 * and every parameter, atol 1e-5 / rtol 1e-4), the analytic gradient against central finite
 * differences of the inference path's loss for every weight of tiny models of each variant and
 * position kind, seeded creation and a few Adam steps, the example checks, the config checks
 * named in docs/models.md, the seq2seq entry points refusing a transformer, and no leaks. The JS
 * suite (tests/js/transformer-model.test.js) runs the same fixtures in both wasm builds. In
 * wasm (no host files) only the in-memory checks run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixtures.h"
#include "api/model.h"
#include "api/safetensors.h"
#include "api/train.h"

/* A one-tensor-short safetensors file with config text (for the config checks): the loader
 * reports config problems before it looks at tensors. */
static uint8_t *config_file(const char *config, size_t *len)
{
    static char header[4096];
    int n = snprintf(header, sizeof header,
                     "{\"__metadata__\":{\"config\":\"%s\"},\"x\":{\"dtype\":\"F32\","
                     "\"shape\":[1],\"data_offsets\":[0,4]}}",
                     config);
    while ((8 + n) % 8) header[n++] = ' ';
    uint8_t *b = check_alloc((size_t)(8 + n + 4));
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(((uint64_t)n >> (8 * i)) & 0xff);
    memcpy(b + 8, header, (size_t)n);
    *len = (size_t)(8 + n + 4);
    return b;
}

#define TOK                                                                                        \
    "\\\"tokenizer\\\":{\\\"type\\\":\\\"char\\\",\\\"srcVocab\\\":[\\\"a\\\",\\\"u\\\"],"         \
    "\\\"tgtVocab\\\":[\\\"a\\\",\\\"e\\\"],\\\"unk\\\":\\\"u\\\",\\\"eos\\\":\\\"e\\\"}"

static void expect_error(const char *label, const char *config, al_status want, const char *needle)
{
    size_t len;
    uint8_t *b = config_file(config, &len);
    char err[AL_MODEL_ERR_CAP] = "";
    al_model *m = NULL;
    al_status s = al_model_load(b, len, &m, err, sizeof err);
    char what[200];
    snprintf(what, sizeof what, "%s: status %d", label, (int)want);
    check_true(what, s == want && m == NULL);
    snprintf(what, sizeof what, "%s: message names \"%s\"", label, needle);
    if (!check_true(what, strstr(err, needle) != NULL)) printf("  got: %s\n", err);
    free(b);
}

static void test_config(void)
{
    const int base = al_alloc_live();
    expect_error("zero heads",
                 "{\\\"architecture\\\":\\\"transformer\\\",\\\"variant\\\":\\\"encoder\\\","
                 "\\\"embeddingSize\\\":8,\\\"numHeads\\\":0,\\\"feedforwardSize\\\":16,"
                 "\\\"numLayers\\\":2,\\\"positions\\\":\\\"sinusoidal\\\"," TOK "}",
                 AL_ERR_ARGUMENT, "\"numHeads\"");
    expect_error("E % h",
                 "{\\\"architecture\\\":\\\"transformer\\\",\\\"variant\\\":\\\"encoder\\\","
                 "\\\"embeddingSize\\\":8,\\\"numHeads\\\":3,\\\"feedforwardSize\\\":16,"
                 "\\\"numLayers\\\":2,\\\"positions\\\":\\\"sinusoidal\\\"," TOK "}",
                 AL_ERR_ARGUMENT, "does not divide \"embeddingSize\" 8");
    expect_error("learned needs maxPositions",
                 "{\\\"architecture\\\":\\\"transformer\\\",\\\"variant\\\":\\\"decoder\\\","
                 "\\\"embeddingSize\\\":8,\\\"numHeads\\\":2,\\\"feedforwardSize\\\":16,"
                 "\\\"numLayers\\\":2,\\\"positions\\\":\\\"learned\\\"," TOK "}",
                 AL_ERR_FORMAT, "\"maxPositions\"");
    expect_error("unknown variant",
                 "{\\\"architecture\\\":\\\"transformer\\\",\\\"variant\\\":\\\"perceiver\\\","
                 "\\\"embeddingSize\\\":8,\\\"numHeads\\\":2,\\\"feedforwardSize\\\":16,"
                 "\\\"numLayers\\\":2,\\\"positions\\\":\\\"learned\\\"," TOK "}",
                 AL_ERR_ARGUMENT, "\"variant\"");
    expect_error(
        "encoder-decoder needs bos",
        "{\\\"architecture\\\":\\\"transformer\\\",\\\"variant\\\":\\\"encoder-decoder\\\","
        "\\\"embeddingSize\\\":8,\\\"numHeads\\\":2,\\\"feedforwardSize\\\":16,"
        "\\\"numLayers\\\":2,\\\"positions\\\":\\\"sinusoidal\\\"," TOK "}",
        AL_ERR_FORMAT, "tokenizer.bos");
    expect_error("a valid config lists its tensors",
                 "{\\\"architecture\\\":\\\"transformer\\\",\\\"variant\\\":\\\"encoder\\\","
                 "\\\"embeddingSize\\\":8,\\\"numHeads\\\":2,\\\"feedforwardSize\\\":16,"
                 "\\\"numLayers\\\":2,\\\"positions\\\":\\\"sinusoidal\\\"," TOK "}",
                 AL_ERR_FORMAT,
                 "missing tensor \"embedding.weight\" (the config needs shape [2, 8])");
    expect_error("relative needs maxRelativePosition",
                 "{\\\"architecture\\\":\\\"transformer\\\",\\\"variant\\\":\\\"encoder\\\","
                 "\\\"embeddingSize\\\":8,\\\"numHeads\\\":2,\\\"feedforwardSize\\\":16,"
                 "\\\"numLayers\\\":2,\\\"positions\\\":\\\"relative\\\"," TOK "}",
                 AL_ERR_FORMAT, "\"maxRelativePosition\"");
    expect_error("maxRelativePosition without relative",
                 "{\\\"architecture\\\":\\\"transformer\\\",\\\"variant\\\":\\\"encoder\\\","
                 "\\\"embeddingSize\\\":8,\\\"numHeads\\\":2,\\\"feedforwardSize\\\":16,"
                 "\\\"numLayers\\\":2,\\\"positions\\\":\\\"sinusoidal\\\","
                 "\\\"maxRelativePosition\\\":2," TOK "}",
                 AL_ERR_ARGUMENT, "only for \"positions\": \"relative\"");
    check_true("config checks: no leak", al_alloc_live() == base);
}

/* ------------------------------------------------------------------ training */

/* Tiny models for the finite-difference and training checks: E = 4, h = 2, F = 6, 2 layers,
 * vocabularies of 7 (src, and tgt for the decoder / encoder-decoder) or 3 labels (encoder). */
typedef struct {
    const char *name;
    const char *variant;
    const char *opts; /* positions and friends */
} tiny;

static const tiny TINY[] = {
    { "encoder learned post-norm final norm", "encoder",
      "\"positions\":\"learned\",\"maxPositions\":8,\"finalNorm\":true,\"activation\":\"gelu\"" },
    { "encoder relative k=1 pre-norm scaled", "encoder",
      "\"positions\":\"relative\",\"maxRelativePosition\":1,\"normFirst\":true,\"scaleEmbedding\":"
      "true,\"activation\":\"gelu\"" },
    { "decoder sinusoidal pre-norm", "decoder",
      "\"positions\":\"sinusoidal\",\"normFirst\":true,\"finalNorm\":true,\"activation\":"
      "\"gelu\"" },
    { "decoder relative k=2 post-norm relu", "decoder",
      "\"positions\":\"relative\",\"maxRelativePosition\":2,\"activation\":\"relu\"" },
    { "encoder-decoder learned post-norm", "encoder-decoder",
      "\"positions\":\"learned\",\"maxPositions\":8,\"finalNorm\":true,\"activation\":\"gelu\"" },
    { "encoder-decoder relative k=2 pre-norm scaled", "encoder-decoder",
      "\"positions\":\"relative\",\"maxRelativePosition\":2,\"normFirst\":true,\"finalNorm\":true,"
      "\"scaleEmbedding\":true,\"activation\":\"gelu\"" },
};

static al_model *make_tiny(const tiny *v, uint32_t seed)
{
    char err[AL_MODEL_ERR_CAP];
    const int enc = strcmp(v->variant, "encoder") == 0;
    al_model *m = fixture_create(
        seed, err,
        "{\"architecture\":\"transformer\",\"variant\":\"%s\",\"embeddingSize\":4,"
        "\"numHeads\":2,\"feedforwardSize\":6,\"numLayers\":2,%s,\"tokenizer\":{\"type\":"
        "\"char\",\"srcVocab\":[\"<pad>\",\"<s>\",\"</s>\",\"<unk>\",\"a\",\"b\",\"c\"],"
        "\"tgtVocab\":%s,\"unk\":\"<unk>\"%s}}",
        v->variant, v->opts,
        enc ? "[\"O\",\"B\",\"I\"]" : "[\"<pad>\",\"<s>\",\"</s>\",\"<unk>\",\"a\",\"b\",\"c\"]",
        enc ? "" : ",\"bos\":\"<s>\",\"eos\":\"</s>\"");
    if (!m) printf("FAIL create %s: %s\n", v->name, err);
    return m;
}

/* A batch of 2 examples per variant (docs/training.md): src [2,6], tgt [2,6] */
#define TB 2
#define TSM 6
#define TTM 6
typedef struct {
    int32_t src[TB * TSM], src_len[TB], tgt[TB * TTM], tgt_len[TB];
    int T_max;
} tiny_batch;

static tiny_batch batch_of(const char *variant)
{
    static const int32_t SRC[TB * TSM] = { 4, 5, 6, 4, 6, 5, /**/ 6, 4, 5, 0, 0, 0 };
    tiny_batch b;
    memset(&b, 0, sizeof b);
    memcpy(b.src, SRC, sizeof SRC);
    b.src_len[0] = 6;
    b.src_len[1] = 3;
    if (strcmp(variant, "encoder") == 0) {
        static const int32_t TAGS[TB * TTM] = { 1, 2, 0, 1, 1, 2, /**/ 0, 1, 2, 0, 0, 0 };
        memcpy(b.tgt, TAGS, sizeof TAGS);
        b.tgt_len[0] = 6;
        b.tgt_len[1] = 3;
        b.T_max = TTM;
    } else if (strcmp(variant, "decoder") == 0) {
        b.T_max = 0; /* tgt_len stays 0 */
    } else {
        static const int32_t TGT[TB * TTM] = { 5, 4, 6, 6, 2, 0, /**/ 6, 2, 0, 0, 0, 0 };
        memcpy(b.tgt, TGT, sizeof TGT);
        b.tgt_len[0] = 5;
        b.tgt_len[1] = 2;
        b.T_max = TTM;
    }
    return b;
}

/* The batch's mean loss through the inference path (al_model_transformer_forward), log-softmax
 * and sums in double: an independent check of the training forward. */
static double forward_loss(const al_model *m, const char *variant, const tiny_batch *b)
{
    const int V = al_model_tgt_vocab(m), ed = strcmp(variant, "encoder-decoder") == 0;
    const int dec = strcmp(variant, "decoder") == 0;
    float logits[16 * 8];
    double sum = 0.0, terms = 0.0;
    for (int e = 0; e < TB; e++) {
        const int32_t *src = b->src + e * TSM, *tgt = b->tgt + e * TTM;
        const int S = b->src_len[e], T = b->tgt_len[e];
        int32_t fed[TTM];
        fed[0] = (int32_t)al_model_bos(m);
        for (int t = 1; t < T; t++) fed[t] = tgt[t - 1];
        if (al_model_transformer_forward(m, src, S, ed ? fed : NULL, ed ? T : 0, logits, NULL) !=
            AL_OK)
            return NAN;
        const int rows = ed ? T : dec ? S - 1 : S;
        for (int t = 0; t < rows; t++) {
            const float *row = logits + t * V;
            const int y = dec ? src[t + 1] : tgt[t];
            double mx = row[0], z = 0.0;
            for (int v = 1; v < V; v++) mx = row[v] > mx ? row[v] : mx;
            for (int v = 0; v < V; v++) z += exp((double)row[v] - mx);
            sum -= (double)row[y] - mx - log(z);
        }
        terms += rows;
    }
    return sum / terms;
}

struct loss_ctx {
    const al_model *m;
    const char *variant;
    const tiny_batch *b;
};
static double loss_of(const void *p)
{
    const struct loss_ctx *c = p;
    return forward_loss(c->m, c->variant, c->b);
}

static void fd_check(const tiny *v)
{
    const int base = al_alloc_live();
    al_model *m = make_tiny(v, 11);
    if (!check_true(v->name, m != NULL)) return;
    const tiny_batch b = batch_of(v->variant);
    float *w = al_model_weights(m);
    const int n = al_model_weight_count(m);
    al_trainer *tr;
    check_true("trainer", al_trainer_create(m, AL_OPTIM_ADAM, 1e-3f, 0, 0, 0, &tr) == AL_OK);
    float loss;
    al_status st =
        al_trainer_gradient(tr, b.src, b.src_len, TSM, b.tgt, b.tgt_len, b.T_max, TB, &loss);
    char what[200];
    snprintf(what, sizeof what, "%s: gradient status", v->name);
    check_true(what, st == AL_OK);
    const double l0 = forward_loss(m, v->variant, &b);
    snprintf(what, sizeof what, "%s: trainer loss = inference-path loss", v->name);
    check_close_d(what, &loss, &l0, 1, 1e-6, 1e-6);
    const struct loss_ctx ctx = { m, v->variant, &b };
    fixture_fd_check(v->name, w, n, al_trainer_gradients(tr), loss_of, &ctx);
    al_trainer_free(tr);
    al_model_free(m);
    snprintf(what, sizeof what, "%s: no leak", v->name);
    check_true(what, al_alloc_live() == base);
}

/* seeded creation is deterministic; relative models list their tables; Adam lowers the loss;
 * the example checks */
static void test_training(void)
{
    const int base = al_alloc_live();
    const tiny *v = &TINY[5];
    al_model *a = make_tiny(v, 42), *b = make_tiny(v, 42), *c = make_tiny(v, 43);
    if (!check_true("create", a && b && c)) return;
    uint8_t *ba = NULL, *bb = NULL, *bc = NULL;
    size_t la = 0, lb = 0, lc = 0;
    check_true("save", al_model_save(a, &ba, &la) == AL_OK && al_model_save(b, &bb, &lb) == AL_OK &&
                           al_model_save(c, &bc, &lc) == AL_OK);
    check_true("same seed, same bytes", la == lb && memcmp(ba, bb, la) == 0);
    check_true("another seed, other bytes", la == lc && memcmp(ba, bc, la) != 0);
    al_safetensors *st;
    if (check_true("saved file opens", al_safetensors_open(ba, la, &st, NULL, 0) == AL_OK)) {
        const char *names[] = { "encoder.layers.1.self_attn.relative_key.weight",
                                "decoder.layers.0.self_attn.relative_value.weight" };
        for (int k = 0; k < 2; k++) {
            const int i = al_safetensors_find(st, names[k]);
            check_true(names[k], i >= 0 && al_safetensors_dim(st, i, 0) == 5 &&
                                     al_safetensors_dim(st, i, 1) == 2);
        }
        check_true("no relative table in the cross-attention",
                   al_safetensors_find(st, "decoder.layers.0.multihead_attn.relative_key.weight") <
                       0);
        check_true("no position table", al_safetensors_find(st, "pos_embedding.weight") < 0);
        al_safetensors_free(st);
    }
    al_free(ba);
    al_free(bb);
    al_free(bc);
    al_model_free(b);
    al_model_free(c);

    /* Adam on one batch lowers its loss */
    const tiny_batch tb = batch_of(v->variant);
    al_trainer *tr;
    check_true("trainer", al_trainer_create(a, AL_OPTIM_ADAM, 3e-2f, 0, 0, 1.0f, &tr) == AL_OK);
    float first = 0, loss = 0;
    for (int s = 0; s < 30; s++) {
        check_true("step", al_trainer_step(tr, tb.src, tb.src_len, TSM, tb.tgt, tb.tgt_len,
                                           tb.T_max, TB, &loss) == AL_OK);
        if (s == 0) first = loss;
    }
    printf("transformer (%s) adam: loss %.4f -> %.4f in 30 steps\n", v->name, first, loss);
    check_true("adam lowers the loss", loss < 0.5f * first);
    al_trainer_free(tr);
    al_model_free(a);

    /* the example checks: the decoder needs S >= 2 and no tgt; the encoder T == S; ids in range */
    al_model *d = make_tiny(&TINY[2], 1), *e = make_tiny(&TINY[0], 1);
    if (check_true("create", d && e)) {
        al_trainer *td, *te;
        al_trainer_create(d, AL_OPTIM_SGD, 0.1f, 0, 0, 0, &td);
        al_trainer_create(e, AL_OPTIM_SGD, 0.1f, 0, 0, 0, &te);
        static const int32_t one[1] = { 4 }, two[2] = { 4, 5 }, bad[2] = { 4, 9 };
        static const int32_t len0[1] = { 0 }, len1[1] = { 1 }, len2[1] = { 2 };
        static const int32_t tags[2] = { 0, 1 }, bad_tags[2] = { 0, 3 };
        check_true("decoder: one token is no example",
                   al_trainer_gradient(td, one, len1, 1, NULL, len0, 0, 1, &loss) == AL_ERR_SHAPE);
        check_true("decoder: a target is refused",
                   al_trainer_gradient(td, two, len2, 2, tags, len2, 2, 1, &loss) == AL_ERR_SHAPE);
        check_true("decoder: id out of range",
                   al_trainer_gradient(td, bad, len2, 2, NULL, len0, 0, 1, &loss) == AL_ERR_RANGE);
        check_true("decoder: a good example",
                   al_trainer_gradient(td, two, len2, 2, NULL, len0, 0, 1, &loss) == AL_OK);
        check_true("encoder: one label per position",
                   al_trainer_gradient(te, one, len1, 1, tags, len2, 2, 1, &loss) == AL_ERR_SHAPE);
        check_true("encoder: label out of range",
                   al_trainer_gradient(te, two, len2, 2, bad_tags, len2, 2, 1, &loss) ==
                       AL_ERR_RANGE);
        check_true("encoder: a good example",
                   al_trainer_gradient(te, two, len2, 2, tags, len2, 2, 1, &loss) == AL_OK);
        al_trainer_free(td);
        al_trainer_free(te);
    }
    al_model_free(d);
    al_model_free(e);
    check_true("training: no leak", al_alloc_live() == base);
}

#ifndef __EMSCRIPTEN__
/* compare one stack's attention, att.<stack>.<kind>.<layer> [H,T,S] for layers 0 and 1 */
static void check_att(al_safetensors *ref, const char *cas, const char *stack, const char *kind,
                      const float *got, long per_layer)
{
    for (int l = 0; l < 2; l++) {
        char what[64], label[160];
        int n;
        snprintf(what, sizeof what, "att.%s.%s.%d", stack, kind, l);
        float *want = fixture_get(ref, cas, what, &n);
        snprintf(label, sizeof label, "%s %s", cas, what);
        if (!check_true(label, want && n == per_layer)) {
            free(want);
            continue;
        }
        check_close_f(label, got + per_layer * l, want, n, 1e-5, 1e-4);
        free(want);
    }
}

static void test_fixtures(void)
{
    static const char *const CASES[] = {
        "encoder_learned_post", "encoder_sinusoidal_pre_gelu",
        "decoder_learned",      "encdec_sinusoidal",
        "encoder_relative",     "decoder_relative",
        "encdec_relative",
    };
    fixture_file f;
    if (!fixture_open(&f, "tests/fixtures/transformer_model_reference.safetensors",
                      "reference opens", "fixtures"))
        return;
    al_safetensors *ref = f.st;
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        const char *cas = CASES[c];
        char label[200];
        al_model *m = fixture_model("transformer", cas, "loads");
        if (!m) continue;
        const int ed = strncmp(cas, "encdec", 6) == 0, enc = strncmp(cas, "encoder", 7) == 0;
        const int V = al_model_tgt_vocab(m), L = 2, H = 2;
        int S, k, F = 0, G = 0;
        float *srcf = fixture_get(ref, cas, "src", &S),
              *logits = fixture_get(ref, cas, "logits", &k);
        float *fedf = fixture_get(ref, cas, "fed", &F),
              *gid = fixture_get(ref, cas, "greedy_ids", &G);
        float *glp = fixture_get(ref, cas, "greedy_logp", &k);
        int32_t src[16], fed[16], ids[16];
        for (int i = 0; i < S; i++) src[i] = (int32_t)srcf[i];
        for (int i = 0; i < F; i++) fed[i] = (int32_t)fedf[i];
        /* one forward over what PyTorch ran: the sequence (encoder), the fed sequence (decoder),
         * source + fed sequence (encoder-decoder) */
        const int n = enc ? S : F, T = ed ? F : 0, Sa = ed ? S : n;
        float *out = check_alloc(sizeof(float) * (size_t)n * V);
        float *att = check_alloc(sizeof(float) * (size_t)L * H * (Sa * Sa + T * T + T * Sa + 1));
        al_status s = al_model_transformer_forward(m,
                                                   ed    ? src
                                                   : enc ? src
                                                         : fed,
                                                   Sa, ed ? fed : NULL, T, out, att);
        snprintf(label, sizeof label, "%s forward", cas);
        check_true(label, s == AL_OK);
        snprintf(label, sizeof label, "%s logits", cas);
        check_close_f(label, out, logits, (long)n * V, 1e-5, 1e-4);
        if (ed) {
            check_att(ref, cas, "encoder", "self", att, (long)H * S * S);
            check_att(ref, cas, "decoder", "self", att + L * H * S * S, (long)H * T * T);
            check_att(ref, cas, "decoder", "cross", att + L * H * (S * S + T * T), (long)H * T * S);
        } else {
            check_att(ref, cas, "encoder", "self", att, (long)H * n * n);
        }
        if (!enc) {
            float lp[16];
            int got = 0;
            s = al_model_transformer_generate(m, src, S, al_model_max_length(m), ids, lp, &got);
            int same = s == AL_OK && got == G;
            for (int i = 0; same && i < got; i++) same = ids[i] == (int32_t)gid[i];
            snprintf(label, sizeof label, "%s greedy ids", cas);
            check_true(label, same);
            snprintf(label, sizeof label, "%s greedy logp", cas);
            if (same) check_close_f(label, lp, glp, G, 1e-5, 1e-4);
        } else {
            float lp[4];
            int got;
            snprintf(label, sizeof label, "%s: no generation for an encoder", cas);
            check_true(label, al_model_transformer_generate(m, src, S, 4, ids, lp, &got) ==
                                  AL_ERR_ARGUMENT);
        }
        snprintf(label, sizeof label, "%s: seq2seq entry points refuse it", cas);
        float lp1[4], att1[64], pos1[4];
        int got1;
        check_true(label, al_model_generate(m, src, S, 4, 1, ids, lp1, att1, pos1, &got1) ==
                              AL_ERR_UNSUPPORTED);
        src[0] = 999;
        snprintf(label, sizeof label, "%s: out-of-vocabulary id", cas);
        check_true(label, al_model_transformer_forward(m, src, S, ed ? fed : NULL, T, out, att) ==
                              AL_ERR_RANGE);
        free(srcf);
        free(logits);
        free(fedf);
        free(gid);
        free(glp);
        free(out);
        free(att);
        al_model_free(m);
    }
    fixture_free(&f);
}

/* PyTorch autograd gradients: tests/fixtures/transformer_train_gradients.safetensors */
static void test_gradient_fixture(void)
{
    static const char *const CASES[] = {
        "encoder_learned_post", "encoder_sinusoidal_pre_gelu",
        "decoder_learned",      "encdec_sinusoidal",
        "encoder_relative",     "decoder_relative",
        "encdec_relative",
    };
    fixture_file f;
    if (!fixture_open(&f, "tests/fixtures/transformer_train_gradients.safetensors",
                      "gradients open", "gradients"))
        return;
    al_safetensors *ref = f.st;
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        const char *cas = CASES[c];
        char label[200];
        al_model *m = fixture_model("transformer", cas, "loads");
        if (!m) continue;
        int ns = 0, nt = 0, nl = 0, k;
        float *srcf = fixture_get(ref, cas, "src", &ns), *tgtf = fixture_get(ref, cas, "tgt", &nt);
        float *slf = fixture_get(ref, cas, "src_len", &nl),
              *tlf = fixture_get(ref, cas, "tgt_len", &nl);
        float *want_loss = fixture_get(ref, cas, "loss", &k);
        const int B = nl, S_max = ns / B, T_max = nt / B;
        int32_t src[64], tgt[64], sl[4], tl[4];
        for (int i = 0; i < ns; i++) src[i] = (int32_t)srcf[i];
        for (int i = 0; i < nt; i++) tgt[i] = (int32_t)tgtf[i];
        for (int i = 0; i < B; i++) {
            sl[i] = (int32_t)slf[i];
            tl[i] = (int32_t)tlf[i];
        }
        al_trainer *tr;
        al_trainer_create(m, AL_OPTIM_ADAM, 1e-3f, 0, 0, 0, &tr);
        float loss;
        snprintf(label, sizeof label, "%s: gradient", cas);
        check_true(label, al_trainer_gradient(tr, src, sl, S_max, nt ? tgt : NULL, tl, T_max, B,
                                              &loss) == AL_OK);
        snprintf(label, sizeof label, "%s: loss", cas);
        check_close_f(label, &loss, want_loss, 1, 1e-5, 1e-4);
        int total = 0;
        const int tensors = fixture_gradients(tr, ref, cas, "%s: grad %s", &total);
        if (tensors >= 0) {
            snprintf(label, sizeof label, "%s: every tensor has a gradient (%d)", cas, tensors);
            check_true(label, tensors == total && tensors > 20);
        }
        al_trainer_free(tr);
        free(srcf);
        free(tgtf);
        free(slf);
        free(tlf);
        free(want_loss);
        al_model_free(m);
    }
    fixture_free(&f);
}
#endif

int main(void)
{
    const int base = al_alloc_live();
    test_config();
    for (size_t i = 0; i < sizeof TINY / sizeof TINY[0]; i++) fd_check(&TINY[i]);
    test_training();
#ifndef __EMSCRIPTEN__
    test_fixtures();
    test_gradient_fixture();
#else
    printf("note: fixture cases run natively and in tests/js/transformer-model*.test.js\n");
#endif
    check_true("all freed", al_alloc_live() == base);
    return check_report("test_transformer_model");
}
