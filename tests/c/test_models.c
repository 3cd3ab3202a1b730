/*
 * test_models.c: the model loader's validation (api/model.h) and the seq2seq model against its
 * PyTorch fixtures.
 *
 * Validation cases build safetensors files in memory (a tiny writer below) from one valid
 * config and its tensor list, then break one thing each: a missing, extra or misshapen tensor, a
 * bad config value, an unknown architecture, zero layers, a config that is not JSON, no config.
 * Each must fail with its status and a message naming the key or tensor, and leave
 * al_alloc_live() at its baseline. The valid model also runs: greedy == beam 1 == stepping, and
 * teacher-forced scoring of the greedy output reproduces its log-probs.
 *
 * Fixture cases (native builds only: the wasm test build has no host file system, and the JS
 * tests run every fixture in wasm): each tests/fixtures/model_<case>.safetensors against
 * model_reference.safetensors (PyTorch float64), atol 1e-5 / rtol 1e-4, same greedy ids.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attnlab.h"
#include "check.h"
#include "fixtures.h"

/* ------------------------------------------------------------------ a tiny safetensors writer */

typedef struct {
    const char *name;
    int rank, d0, d1;
} tspec;

typedef struct {
    uint8_t *bytes;
    size_t len;
} file_t;

static void append(char *buf, size_t cap, size_t *n, const char *s)
{
    while (*s && *n + 1 < cap) buf[(*n)++] = *s++;
    buf[*n] = 0;
}

/* config (NULL: no __metadata__) and tensors [nt] filled with small deterministic values. */
static file_t make_file(const char *config, const tspec *ts, int nt)
{
    size_t cap = 65536, n = 0;
    char *h = check_alloc(cap);
    char tmp[256];
    append(h, cap, &n, "{");
    if (config) {
        append(h, cap, &n, "\"__metadata__\":{\"config\":\"");
        for (const char *p = config; *p; p++) {
            char e[3] = { 0 };
            if (*p == '"' || *p == '\\') {
                e[0] = '\\';
                e[1] = *p;
            } else
                e[0] = *p;
            append(h, cap, &n, e);
        }
        append(h, cap, &n, "\"}");
    }
    long off = 0;
    for (int i = 0; i < nt; i++) {
        long numel = (long)ts[i].d0 * (ts[i].rank == 2 ? ts[i].d1 : 1);
        if (ts[i].rank == 2) {
            snprintf(tmp, sizeof tmp,
                     "%s\"%s\":{\"dtype\":\"F32\",\"shape\":[%d,%d],\"data_offsets\":[%ld,%ld]}",
                     (config || i) ? "," : "", ts[i].name, ts[i].d0, ts[i].d1, off,
                     off + numel * 4);
        } else {
            snprintf(tmp, sizeof tmp,
                     "%s\"%s\":{\"dtype\":\"F32\",\"shape\":[%d],\"data_offsets\":[%ld,%ld]}",
                     (config || i) ? "," : "", ts[i].name, ts[i].d0, off, off + numel * 4);
        }
        append(h, cap, &n, tmp);
        off += numel * 4;
    }
    append(h, cap, &n, "}");
    while ((8 + n) % 8) append(h, cap, &n, " ");
    file_t f;
    f.len = 8 + n + (size_t)off;
    f.bytes = check_alloc(f.len);
    uint64_t hl = n;
    for (int k = 0; k < 8; k++) f.bytes[k] = (uint8_t)(hl >> (8 * k));
    memcpy(f.bytes + 8, h, n);
    float *data = (float *)(void *)(f.bytes + 8 + n); /* 8-aligned: calloc + 8 + n, n % 8 == 0 */
    check_fill(data, off / 4, -0.6f, 0.6f);
    free(h);
    return f;
}

/* ------------------------------------------------------------------ the valid model */

#define VOCAB "[\"<pad>\",\"<s>\",\"</s>\",\"<unk>\",\"a\",\"b\",\"c\"]"
static const char *CONFIG =
    "{\"architecture\":\"seq2seq\",\"cell\":\"lstm\",\"embeddingSize\":3,\"hiddenSize\":4,"
    "\"numLayers\":1,\"attention\":\"additive\",\"style\":\"bahdanau\",\"attentionSize\":2,"
    "\"maxLength\":9,\"tokenizer\":{\"type\":\"char\",\"srcVocab\":" VOCAB ",\"tgtVocab\":" VOCAB
    ",\"bos\":\"<s>\",\"eos\":\"</s>\",\"unk\":\"<unk>\",\"pad\":\"<pad>\"}}";

static const tspec TENSORS[] = {
    { "src_embedding.weight", 2, 7, 3 },
    { "tgt_embedding.weight", 2, 7, 3 },
    { "encoder.weight_ih_l0", 2, 16, 3 },
    { "encoder.weight_hh_l0", 2, 16, 4 },
    { "encoder.bias_ih_l0", 1, 16, 0 },
    { "encoder.bias_hh_l0", 1, 16, 0 },
    { "decoder.weight_ih", 2, 16, 7 },
    { "decoder.weight_hh", 2, 16, 4 },
    { "decoder.bias_ih", 1, 16, 0 },
    { "decoder.bias_hh", 1, 16, 0 },
    { "attention.W_q", 2, 2, 4 },
    { "attention.W_k", 2, 2, 4 },
    { "attention.bias", 1, 2, 0 },
    { "attention.v", 1, 2, 0 },
    { "out.weight", 2, 7, 8 },
    { "out.bias", 1, 7, 0 },
};
#define NT ((int)(sizeof TENSORS / sizeof TENSORS[0]))

/* Replace the first occurrence of `from` in CONFIG by `to`. */
static char *config_with(const char *from, const char *to)
{
    const char *p = strstr(CONFIG, from);
    if (!p) {
        printf("test bug: %s not in CONFIG\n", from);
        exit(2);
    }
    size_t n = strlen(CONFIG) - strlen(from) + strlen(to) + 1;
    char *s = check_alloc(n);
    memcpy(s, CONFIG, (size_t)(p - CONFIG));
    strcpy(s + (p - CONFIG), to);
    strcat(s, p + strlen(from));
    return s;
}

/* Load must fail with status want and a message containing each of needles (NULL-ended). */
static void expect_fail(const char *what, const char *config, const tspec *ts, int nt,
                        al_status want, const char *n1, const char *n2)
{
    const int base = al_alloc_live();
    file_t f = make_file(config, ts, nt);
    char err[AL_MODEL_ERR_CAP];
    al_model *m = (al_model *)1;
    al_status st = al_model_load(f.bytes, f.len, &m, err, sizeof err);
    char label[512];
    snprintf(label, sizeof label, "%s: status %d (want %d), message \"%s\"", what, st, want, err);
    check_true(label,
               st == want && m == NULL && (!n1 || strstr(err, n1)) && (!n2 || strstr(err, n2)));
    snprintf(label, sizeof label, "%s: no leak", what);
    check_true(label, al_alloc_live() == base);
    free(f.bytes);
}

static void test_validation(void)
{
    tspec ts[NT + 1];
    memcpy(ts, TENSORS, sizeof TENSORS);

    /* missing tensor: drop decoder.weight_hh */
    tspec missing[NT];
    int k = 0;
    for (int i = 0; i < NT; i++)
        if (strcmp(TENSORS[i].name, "decoder.weight_hh")) missing[k++] = TENSORS[i];
    expect_fail("missing tensor", CONFIG, missing, k, AL_ERR_FORMAT, "\"decoder.weight_hh\"",
                "[16, 4]");

    /* extra tensor */
    ts[NT] = (tspec){ "attention.W_a", 2, 4, 4 };
    expect_fail("extra tensor", CONFIG, ts, NT + 1, AL_ERR_FORMAT, "\"attention.W_a\"",
                "unexpected");

    /* wrong shape: both shapes named */
    memcpy(ts, TENSORS, sizeof TENSORS);
    ts[7].d1 = 5;
    expect_fail("wrong shape", CONFIG, ts, NT, AL_ERR_SHAPE, "[16, 5]", "[16, 4]");
    ts[7].d1 = 4;
    ts[15] = (tspec){ "out.bias", 2, 7, 1 };
    expect_fail("wrong rank", CONFIG, ts, NT, AL_ERR_SHAPE, "\"out.bias\"", "[7]");

    char *c;
    c = config_with("\"hiddenSize\":4", "\"hiddenSize\":0");
    expect_fail("hiddenSize 0", c, TENSORS, NT, AL_ERR_ARGUMENT, "\"hiddenSize\"", "out of range");
    free(c);
    c = config_with("\"numLayers\":1", "\"numLayers\":0");
    expect_fail("zero layers", c, TENSORS, NT, AL_ERR_ARGUMENT, "\"numLayers\"", NULL);
    free(c);
    c = config_with("\"hiddenSize\":4", "\"hiddenSize\":99999");
    expect_fail("hiddenSize too big", c, TENSORS, NT, AL_ERR_ARGUMENT, "\"hiddenSize\"", NULL);
    free(c);
    c = config_with("\"hiddenSize\":4", "\"hiddenSize\":-4");
    expect_fail("hiddenSize negative", c, TENSORS, NT, AL_ERR_ARGUMENT, "\"hiddenSize\"", NULL);
    free(c);
    c = config_with("\"hiddenSize\":4", "\"hiddenSize\":\"4\"");
    expect_fail("hiddenSize a string", c, TENSORS, NT, AL_ERR_FORMAT, "\"hiddenSize\"", "integer");
    free(c);
    c = config_with("\"attention\":\"additive\"", "\"attention\":\"telepathy\"");
    expect_fail("unknown attention", c, TENSORS, NT, AL_ERR_ARGUMENT, "\"attention\"", "telepathy");
    free(c);
    c = config_with("\"architecture\":\"seq2seq\"", "\"architecture\":\"perceiver\"");
    expect_fail("unknown architecture", c, TENSORS, NT, AL_ERR_ARGUMENT, "\"architecture\"",
                "perceiver");
    free(c);
    c = config_with("\"cell\":\"lstm\",", "");
    expect_fail("missing cell", c, TENSORS, NT, AL_ERR_FORMAT, "\"cell\"", "missing");
    free(c);
    c = config_with("\"maxLength\":9", "\"maxLength\":9,\"hidenSize\":4");
    expect_fail("unknown key", c, TENSORS, NT, AL_ERR_FORMAT, "\"hidenSize\"", NULL);
    free(c);
    c = config_with("\"maxLength\":9", "\"maxLength\":9,\"maxLength\":9");
    expect_fail("repeated key", c, TENSORS, NT, AL_ERR_FORMAT, "\"maxLength\"", "twice");
    free(c);
    c = config_with("\"eos\":\"</s>\"", "\"eos\":\"<end>\"");
    expect_fail("eos not in vocab", c, TENSORS, NT, AL_ERR_FORMAT, "\"tokenizer.eos\"", "<end>");
    free(c);
    c = config_with("\"style\":\"bahdanau\"", "\"style\":\"bahdanau\",\"inputFeeding\":true");
    expect_fail("input feeding in bahdanau style", c, TENSORS, NT, AL_ERR_ARGUMENT,
                "\"inputFeeding\"", NULL);
    free(c);
    c = config_with("\"hiddenSize\":4", "\"hiddenSize\":3,\"bidirectional\":true");
    expect_fail("odd bidirectional", c, TENSORS, NT, AL_ERR_ARGUMENT, "\"hiddenSize\"", "even");
    free(c);
    c = config_with("\"attentionSize\":2,", "");
    expect_fail("missing attentionSize", c, TENSORS, NT, AL_ERR_FORMAT, "\"attentionSize\"", NULL);
    free(c);
    expect_fail("config not JSON", "{\"architecture\": seq2seq}", TENSORS, NT, AL_ERR_FORMAT,
                "not valid JSON", NULL);
    expect_fail("config an array", "[1]", TENSORS, NT, AL_ERR_FORMAT, "object", NULL);
    expect_fail("no config", NULL, TENSORS, NT, AL_ERR_FORMAT, "\"config\"", NULL);

    /* a file that is not safetensors: the safetensors loader's message */
    {
        const int base = al_alloc_live();
        uint8_t junk[16] = { 1, 2, 3 };
        char err[AL_MODEL_ERR_CAP];
        al_model *m;
        check_true("junk bytes",
                   al_model_load(junk, sizeof junk, &m, err, sizeof err) == AL_ERR_FORMAT && !m);
        check_true("junk bytes: no leak", al_alloc_live() == base);
        check_true("NULL out",
                   al_model_load(junk, sizeof junk, NULL, err, sizeof err) == AL_ERR_ARGUMENT);
    }
}

static void test_valid_model(void)
{
    const int base = al_alloc_live();
    file_t f = make_file(CONFIG, TENSORS, NT);
    char err[AL_MODEL_ERR_CAP];
    al_model *m = NULL;
    al_status st = al_model_load(f.bytes, f.len, &m, err, sizeof err);
    if (!check_true("valid model loads", st == AL_OK && m)) {
        printf("  %s\n", err);
        free(f.bytes);
        return;
    }
    free(f.bytes); /* the model owns its weights */
    check_true("architecture", strcmp(al_model_architecture(m), "seq2seq") == 0);
    check_true("config text", strstr(al_model_config(m), "\"attentionSize\":2") != NULL);
    check_true("vocab, bos, eos", al_model_src_vocab(m) == 7 && al_model_tgt_vocab(m) == 7 &&
                                      al_model_bos(m) == 1 && al_model_eos(m) == 2 &&
                                      al_model_max_length(m) == 9 && !al_model_has_positions(m));
    {
        int32_t info[AL_MODEL_INFO_COUNT + 2];
        for (int i = 0; i < AL_MODEL_INFO_COUNT + 2; i++) info[i] = 12345;
        check_true("al_model_info writes every field and no more",
                   al_model_info(m, info, AL_MODEL_INFO_COUNT + 2) == AL_MODEL_INFO_COUNT &&
                       info[AL_MODEL_INFO_COUNT] == 12345 &&
                       info[AL_MODEL_INFO_COUNT + 1] == 12345);
        check_true("al_model_info: seq2seq fields",
                   info[AL_MODEL_INFO_ARCH] == 0 && info[AL_MODEL_INFO_SRC_VOCAB] == 7 &&
                       info[AL_MODEL_INFO_TGT_VOCAB] == 7 && info[AL_MODEL_INFO_BOS] == 1 &&
                       info[AL_MODEL_INFO_EOS] == 2 && info[AL_MODEL_INFO_MAX_LENGTH] == 9 &&
                       info[AL_MODEL_INFO_HAS_POSITIONS] == 0 && info[AL_MODEL_INFO_LAYERS] == -1 &&
                       info[AL_MODEL_INFO_HOPS] == -1);
        info[1] = 12345;
        check_true("al_model_info: a short buffer gets a prefix",
                   al_model_info(m, info, 1) == 1 && info[0] == 0 && info[1] == 12345);
        check_true("al_model_info: NULL model or buffer", al_model_info(NULL, info, 4) == -1 &&
                                                              al_model_info(m, NULL, 4) == -1 &&
                                                              al_model_info(m, info, -1) == -1);
        check_true("attention floats: not a transformer",
                   al_model_transformer_attention_floats(m, 3, 3) == -1.0);
    }

    const int32_t src[5] = { 4, 5, 6, 4, 3 };
    int32_t ids[9], ids_b[9];
    float logp[9], att[9 * 5], logp_b[9], att_b[9 * 5];
    int n = 0, nb = 0;
    check_true("greedy",
               al_model_generate(m, src, 5, 9, 1, ids, logp, att, NULL, &n) == AL_OK && n >= 1);
    check_true("beam 1",
               al_model_generate(m, src, 5, 9, 1, ids_b, logp_b, att_b, NULL, &nb) == AL_OK);
    int same = n == nb;
    for (int t = 0; same && t < n; t++) same = ids[t] == ids_b[t];
    check_true("beam width 1 equals greedy", same);
    for (int t = 0; t < n; t++) {
        float sum = 0;
        for (int s = 0; s < 5; s++) sum += att[t * 5 + s];
        if (!check_true("attention rows sum to 1", fabsf(sum - 1.0f) < 1e-5f)) break;
    }
    /* beam 3 runs, and its output is at least as good (normalised) as greedy's */
    check_true("beam 3",
               al_model_generate(m, src, 5, 9, 3, ids_b, logp_b, att_b, NULL, &nb) == AL_OK &&
                   nb >= 1);
    double sg = 0, sb = 0;
    for (int t = 0; t < n; t++) sg += logp[t];
    for (int t = 0; t < nb; t++) sb += logp_b[t];
    if (ids[n - 1] == 2 && ids_b[nb - 1] == 2) {
        check_true("beam 3 score >= greedy score", sb / nb >= sg / n - 1e-6);
    }
    /* teacher forcing on the greedy output reproduces it */
    float tl[9], ta[9 * 5];
    check_true("score", al_model_score(m, src, 5, ids, n, tl, ta, NULL, NULL) == AL_OK);
    check_close_f("score logp == greedy logp", tl, logp, n, 1e-6, 1e-6);
    check_close_f("score att == greedy att", ta, att, (long)n * 5, 1e-6, 1e-6);
    /* stepping equals run */
    al_decoder *d = NULL;
    check_true("decoder start", al_model_decoder_start(m, src, 5, &d) == AL_OK && d);
    int done = 0, t = 0;
    float row[5], lp;
    int32_t id;
    int agree = 1;
    while (!done && t < 9) {
        if (al_decoder_step(d, -1, &id, &lp, row, NULL, NULL, &done) != AL_OK) {
            agree = 0;
            break;
        }
        agree &= id == ids[t] && lp == logp[t] && memcmp(row, att + t * 5, sizeof row) == 0;
        t++;
    }
    check_true("stepping equals run", agree && t == n);
    if (done)
        check_true("step after eos refused",
                   al_decoder_step(d, -1, &id, &lp, row, NULL, NULL, &done) == AL_ERR_ARGUMENT);
    al_decoder_free(d);
    /* bad ids */
    const int32_t bad[2] = { 4, 7 };
    check_true("source id out of range",
               al_model_generate(m, bad, 2, 9, 1, ids, logp, att, NULL, &n) == AL_ERR_RANGE);
    check_true("target id out of range",
               al_model_score(m, src, 2, bad, 2, tl, ta, NULL, NULL) == AL_ERR_RANGE);
    check_true("max_len 0",
               al_model_generate(m, src, 5, 0, 1, ids, logp, att, NULL, &n) == AL_ERR_SHAPE);
    check_true("beam too wide",
               al_model_generate(m, src, 5, 9, 99, ids, logp, att, NULL, &n) == AL_ERR_ARGUMENT);
    al_model_free(m);
    al_model_free(NULL);
    check_true("valid model: no leak", al_alloc_live() == base);
}

/* ------------------------------------------------------------------ PyTorch fixtures */

#ifndef __EMSCRIPTEN__
/* the fixture tensor "<cas>.<what>"; every one is required */
static float *tensor(al_safetensors *ref, const char *cas, const char *what, int *n)
{
    float *x = fixture_get(ref, cas, what, n);
    if (!x) {
        printf("fixture tensor %s.%s missing\n", cas, what);
        exit(2);
    }
    return x;
}

static void test_fixtures(void)
{
    static const char *const CASES[] = {
        "lstm_additive_bahdanau",
        "gru_general_luong_feed",
        "bilstm_concat_luong",
        "rnn_dot_luong",
        "gru_dot_bahdanau",
        "lstm_local_p",
        "gru_local_m_concat",
        "lstm_key_query_bahdanau",
        "bigru_key_query_luong",
        "rnn_relu_additive_luong",
        "lstm_none",
        "bilstm_local_p_bahdanau",
    };
    fixture_file f;
    if (!fixture_open(&f, "tests/fixtures/model_reference.safetensors", "reference opens",
                      "fixture cases"))
        return;
    al_safetensors *ref = f.st;
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        const char *cas = CASES[c];
        char label[200];
        al_model *m = fixture_model("model", cas, "loads");
        if (!m) continue;
        int S, T, G, k;
        float *srcf = tensor(ref, cas, "src", &S), *tgtf = tensor(ref, cas, "tgt", &T);
        float *gid = tensor(ref, cas, "greedy_ids", &G);
        float *glp = tensor(ref, cas, "greedy_logp", &k),
              *gatt = tensor(ref, cas, "greedy_att", &k);
        float *gpos = tensor(ref, cas, "greedy_pos", &k);
        float *tlp = tensor(ref, cas, "tf_logp", &k), *tatt = tensor(ref, cas, "tf_att", &k);
        float *tpos = tensor(ref, cas, "tf_pos", &k);
        int32_t src[16], tgt[16], ids[64];
        for (int i = 0; i < S; i++) src[i] = (int32_t)srcf[i];
        for (int i = 0; i < T; i++) tgt[i] = (int32_t)tgtf[i];
        float lp[64], att[64 * 16], pos[64];
        int n = 0;
        al_model_generate(m, src, S, al_model_max_length(m), 1, ids, lp, att, pos, &n);
        int same = n == G;
        for (int i = 0; same && i < n; i++) same = ids[i] == (int32_t)gid[i];
        snprintf(label, sizeof label, "%s greedy ids", cas);
        check_true(label, same);
        if (same) {
            snprintf(label, sizeof label, "%s greedy logp", cas);
            check_close_f(label, lp, glp, n, 1e-5, 1e-4);
            snprintf(label, sizeof label, "%s greedy attention", cas);
            check_close_f(label, att, gatt, (long)n * S, 1e-5, 1e-4);
            snprintf(label, sizeof label, "%s greedy p_t", cas);
            check_close_f(label, pos, gpos, n, 1e-5, 1e-4);
        }
        al_model_score(m, src, S, tgt, T, lp, att, pos, NULL);
        snprintf(label, sizeof label, "%s teacher-forced logp", cas);
        check_close_f(label, lp, tlp, T, 1e-5, 1e-4);
        snprintf(label, sizeof label, "%s teacher-forced attention", cas);
        check_close_f(label, att, tatt, (long)T * S, 1e-5, 1e-4);
        snprintf(label, sizeof label, "%s teacher-forced p_t", cas);
        check_close_f(label, pos, tpos, T, 1e-5, 1e-4);
        free(srcf);
        free(tgtf);
        free(gid);
        free(glp);
        free(gatt);
        free(gpos);
        free(tlp);
        free(tatt);
        free(tpos);
        al_model_free(m);
    }
    fixture_free(&f);
}

/* The results policy (api/model.c, docs/reliability.md): a loadable model whose weights are
 * finite but huge (±3e38) overflows float32; generate, score and stepping must say
 * AL_ERR_NONFINITE rather than return NaN or infinite results with AL_OK. */
static void test_huge_weights(void)
{
    size_t len;
    uint8_t *bytes = fixture_read_all("tests/fixtures/model_lstm_local_p.safetensors", &len);
    if (!bytes) return;
    al_model *m = NULL;
    char err[AL_MODEL_ERR_CAP];
    check_true("huge weights: the fixture loads",
               al_model_load(bytes, len, &m, err, sizeof err) == AL_OK);
    free(bytes);
    if (!m) return;
    float *w = al_model_weights(m);
    for (int i = 0; i < al_model_weight_count(m); i++) w[i] = i % 2 ? -3e38f : 3e38f;
    const int32_t src[5] = { 3, 4, 5, 6, 7 }, tgt[3] = { 3, 4, 2 };
    int32_t ids[8];
    float logp[8], att[8 * 5], pos[8], dist[3 * 64];
    int n = 0;
    check_true("huge weights: generate is AL_ERR_NONFINITE",
               al_model_generate(m, src, 5, 8, 1, ids, logp, att, pos, &n) == AL_ERR_NONFINITE);
    check_true("huge weights: beam search is AL_ERR_NONFINITE",
               al_model_generate(m, src, 5, 8, 3, ids, logp, att, pos, &n) == AL_ERR_NONFINITE);
    check_true("huge weights: score is AL_ERR_NONFINITE",
               al_model_tgt_vocab(m) <= 64 &&
                   al_model_score(m, src, 5, tgt, 3, logp, att, pos, dist) == AL_ERR_NONFINITE);
    al_decoder *d = NULL;
    check_true("huge weights: a decoder starts", al_model_decoder_start(m, src, 5, &d) == AL_OK);
    int32_t id;
    float lp;
    int done;
    check_true("huge weights: a step is AL_ERR_NONFINITE",
               al_decoder_step(d, -1, &id, &lp, att, pos, NULL, &done) == AL_ERR_NONFINITE);
    al_decoder_free(d);
    al_model_free(m);
}
#endif

/* al_model_limit is what the JS glue's copies are checked against (tests/js/limits.test.js) */
static void test_limits(void)
{
    check_true("limit: error buffer", al_model_limit(AL_MODEL_LIMIT_ERR_CAP) == AL_MODEL_ERR_CAP);
    check_true("limit: source", al_model_limit(AL_MODEL_LIMIT_SOURCE) == AL_MODEL_MAX_SOURCE);
    check_true("limit: steps", al_model_limit(AL_MODEL_LIMIT_STEPS) == AL_MODEL_MAX_STEPS);
    check_true("limit: beam", al_model_limit(AL_MODEL_LIMIT_BEAM) == AL_MODEL_MAX_BEAM);
    check_true("limit: seq2seq layers", al_model_limit(AL_MODEL_LIMIT_S2S_LAYERS) == 8);
    check_true("limit: transformer heads", al_model_limit(AL_MODEL_LIMIT_TF_HEADS) == 64);
    /* the config caps are numbered after the per-call limits, and nothing follows the last */
    check_true("limit: first config cap", AL_MODEL_LIMIT_S2S_DIM == AL_MODEL_LIMIT_BEAM + 1);
    check_true("limit: unknown", al_model_limit(-1) == -1 &&
                                     al_model_limit(AL_MODEL_LIMIT_CLF_TEMPERATURE + 1) == -1);
    check_true("limit: classifier temperature",
               al_model_limit(AL_MODEL_LIMIT_CLF_TEMPERATURE) == 1000);
    for (int i = 0; i <= AL_MODEL_LIMIT_CLF_TEMPERATURE; i++)
        check_true("limit: every number answers", al_model_limit(i) > 0);
}

int main(void)
{
    check_seed(7);
    test_limits();
    const int base = al_alloc_live();
    test_validation();
    test_valid_model();
#ifndef __EMSCRIPTEN__
    test_fixtures();
    test_huge_weights();
#else
    printf("note: fixture cases run natively and in tests/js/model.test.js (no host files here)\n");
#endif
    check_true("all freed", al_alloc_live() == base);
    return check_report("test_models");
}
