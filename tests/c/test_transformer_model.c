/*
 * test_transformer_model.c: the "transformer" architecture (models/transformer.c) natively and
 * under ASan/UBSan: every PyTorch fixture of tests/fixtures/transformer_model_reference (logits
 * and every layer/head attention of one forward at atol 1e-5 / rtol 1e-4, greedy ids and
 * log-probs), the config checks named in docs/models.md, the seq2seq entry points refusing a
 * transformer, and no leaks. The JS suite (tests/js/transformer-model-suite.js) runs the same
 * fixtures in both wasm builds. In wasm (no host files) only the in-memory checks run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "api/model.h"
#include "api/safetensors.h"

/* A one-tensor-short safetensors file with config text (for the config checks): the loader
 * reports config problems before it looks at tensors. */
static uint8_t *config_file(const char *config, size_t *len)
{
    static char header[4096];
    int n = snprintf(header, sizeof header,
                     "{\"__metadata__\":{\"config\":\"%s\"},\"x\":{\"dtype\":\"F32\","
                     "\"shape\":[1],\"data_offsets\":[0,4]}}", config);
    while ((8 + n) % 8) header[n++] = ' ';
    uint8_t *b = check_alloc((size_t)(8 + n + 4));
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(((uint64_t)n >> (8 * i)) & 0xff);
    memcpy(b + 8, header, (size_t)n);
    *len = (size_t)(8 + n + 4);
    return b;
}

#define TOK "\\\"tokenizer\\\":{\\\"type\\\":\\\"char\\\",\\\"srcVocab\\\":[\\\"a\\\",\\\"u\\\"]," \
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
    expect_error("encoder-decoder needs bos",
                 "{\\\"architecture\\\":\\\"transformer\\\",\\\"variant\\\":\\\"encoder-decoder\\\","
                 "\\\"embeddingSize\\\":8,\\\"numHeads\\\":2,\\\"feedforwardSize\\\":16,"
                 "\\\"numLayers\\\":2,\\\"positions\\\":\\\"sinusoidal\\\"," TOK "}",
                 AL_ERR_FORMAT, "tokenizer.bos");
    expect_error("a valid config lists its tensors",
                 "{\\\"architecture\\\":\\\"transformer\\\",\\\"variant\\\":\\\"encoder\\\","
                 "\\\"embeddingSize\\\":8,\\\"numHeads\\\":2,\\\"feedforwardSize\\\":16,"
                 "\\\"numLayers\\\":2,\\\"positions\\\":\\\"sinusoidal\\\"," TOK "}",
                 AL_ERR_FORMAT, "missing tensor \"embedding.weight\" (the config needs shape [2, 8])");
    check_true("config checks: no leak", al_alloc_live() == base);
}

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

/* the fixture tensor "<case>.<what>" as floats (NULL when absent) */
static float *tensor(al_safetensors *ref, const char *cas, const char *what, int *n)
{
    char name[128];
    snprintf(name, sizeof name, "%s.%s", cas, what);
    int i = al_safetensors_find(ref, name);
    if (i < 0) return NULL;
    *n = al_safetensors_numel(ref, i);
    float *x = check_alloc(sizeof(float) * (size_t)*n);
    al_safetensors_read_f32(ref, i, x, (size_t)*n);
    return x;
}

/* compare one stack's attention, att.<stack>.<kind>.<layer> [H,T,S] for layers 0 and 1 */
static void check_att(al_safetensors *ref, const char *cas, const char *stack, const char *kind,
                      const float *got, long per_layer)
{
    for (int l = 0; l < 2; l++) {
        char what[64], label[160];
        int n;
        snprintf(what, sizeof what, "att.%s.%s.%d", stack, kind, l);
        float *want = tensor(ref, cas, what, &n);
        snprintf(label, sizeof label, "%s %s", cas, what);
        if (!check_true(label, want && n == per_layer)) { free(want); continue; }
        check_close_f(label, got + per_layer * l, want, n, 1e-5, 1e-4);
        free(want);
    }
}

static void test_fixtures(void)
{
    static const char *const CASES[] = {
        "encoder_learned_post", "encoder_sinusoidal_pre_gelu", "decoder_learned",
        "encdec_sinusoidal",
    };
    size_t rlen;
    uint8_t *rbytes = read_all("tests/fixtures/transformer_model_reference.safetensors", &rlen);
    if (!rbytes) {
        printf("note: tests/fixtures not found (run from the repository root); fixtures skipped\n");
        return;
    }
    al_safetensors *ref;
    if (!check_true("reference opens", al_safetensors_open(rbytes, rlen, &ref, NULL, 0) == AL_OK)) {
        free(rbytes);
        return;
    }
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        const char *cas = CASES[c];
        char path[160], label[200], err[AL_MODEL_ERR_CAP];
        snprintf(path, sizeof path, "tests/fixtures/transformer_%s.safetensors", cas);
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
        const int ed = strcmp(cas, "encdec_sinusoidal") == 0, enc = strncmp(cas, "encoder", 7) == 0;
        const int V = al_model_tgt_vocab(m), L = 2, H = 2;
        int S, k, F = 0, G = 0;
        float *srcf = tensor(ref, cas, "src", &S), *logits = tensor(ref, cas, "logits", &k);
        float *fedf = tensor(ref, cas, "fed", &F), *gid = tensor(ref, cas, "greedy_ids", &G);
        float *glp = tensor(ref, cas, "greedy_logp", &k);
        int32_t src[16], fed[16], ids[16];
        for (int i = 0; i < S; i++) src[i] = (int32_t)srcf[i];
        for (int i = 0; i < F; i++) fed[i] = (int32_t)fedf[i];
        /* one forward over what PyTorch ran: the sequence (encoder), the fed sequence (decoder),
         * source + fed sequence (encoder-decoder) */
        const int n = enc ? S : F, T = ed ? F : 0, Sa = ed ? S : n;
        float *out = check_alloc(sizeof(float) * (size_t)n * V);
        float *att = check_alloc(sizeof(float) * (size_t)L * H * (Sa * Sa + T * T + T * Sa + 1));
        al_status s = al_model_transformer_forward(m, ed ? src : enc ? src : fed, Sa,
                                                   ed ? fed : NULL, T, out, att);
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
        free(srcf); free(logits); free(fedf); free(gid); free(glp); free(out); free(att);
        al_model_free(m);
    }
    al_safetensors_free(ref);
    free(rbytes);
}
#endif

int main(void)
{
    const int base = al_alloc_live();
    test_config();
#ifndef __EMSCRIPTEN__
    test_fixtures();
#else
    printf("note: fixture cases run natively and in tests/js/transformer-model*.test.js\n");
#endif
    check_true("all freed", al_alloc_live() == base);
    return check_report("test_transformer_model");
}
