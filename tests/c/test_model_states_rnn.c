/*
 * test_model_states_rnn.c: the intermediate states of the recurrent models (api/model.h,
 * al_model_seq2seq_states and al_model_memory_states; docs/states.md). What is checked here:
 *   - the layout: which fields each config has, their sizes, offsets tiling the buffer;
 *   - the states' weights and log-probabilities are bit for bit what the plain calls return
 *     (al_model_score, greedy al_model_generate, al_model_lm_forward / _memory_classify): the
 *     same step and kernels ran;
 *   - the relations the fields keep: softmax(scores) = weights (global attention), the query is
 *     s_{t−1} (bahdanau) or s_t (luong), s_0 is the top encoder layer's final state, summary =
 *     weights · hidden, every score the softmax did not read is -INFINITY;
 *   - bad arguments: NULLs, another architecture, sizes, ids out of range, huge weights.
 * The values against PyTorch are checked in tests/js/states-seq2seq.test.js and
 * states-memory-rnn.test.js (fixtures from scripts/fixture_modules/states_rnn.py).
 */
#include <string.h>

#include "attnlab.h"
#include "check.h"
#include "fixtures.h"

#define S2S_FIELDS (3 * AL_S2S_STATE_COUNT)
#define MEM_FIELDS (3 * AL_MEM_STATE_COUNT)

/* the fixture models are host files: the wasm test build runs only main's NULL checks */
#ifndef __EMSCRIPTEN__

/* 1 when a [n] and b [n] are the same floats bit for bit */
static int same(const float *a, const float *b, long n)
{
    return memcmp(a, b, sizeof(float) * (size_t)n) == 0;
}

/* The field k of a layout: a pointer into buf (NULL when absent), *rows, *cols. */
static float *at(float *buf, const int32_t *l, int k, int *rows, int *cols)
{
    *rows = l[3 * k + 1];
    *cols = l[3 * k + 2];
    return l[3 * k] < 0 ? NULL : buf + l[3 * k];
}

/* The offsets of present fields tile [0, total) in order. */
static int tiles(const int32_t *l, int count, double total)
{
    double off = 0.0;
    for (int k = 0; k < count; k++) {
        if (l[3 * k] < 0) continue;
        if (l[3 * k] != off || l[3 * k + 1] < 1 || l[3 * k + 2] < 1) return 0;
        off += (double)l[3 * k + 1] * l[3 * k + 2];
    }
    return off == total;
}

/* Rows of scores [R,C] with a finite entry: softmax over the finite entries is weights [R,C]
 * within 1e-6 (exactly the kernel's softmax of the same numbers); -INFINITY entries have weight 0
 * and rows without a finite entry all-zero weights. */
static int softmax_matches(const float *scores, const float *weights, int R, int C)
{
    for (int r = 0; r < R; r++) {
        const float *e = scores + (size_t)r * C, *w = weights + (size_t)r * C;
        double mx = -INFINITY, sum = 0.0;
        for (int j = 0; j < C; j++)
            if (e[j] > mx) mx = e[j];
        for (int j = 0; j < C; j++) sum += isinf(e[j]) ? 0.0 : exp((double)e[j] - mx);
        for (int j = 0; j < C; j++) {
            const double want = isinf(e[j]) ? 0.0 : exp((double)e[j] - mx) / sum;
            if (fabs(want - w[j]) > 1e-6) return 0;
        }
    }
    return 1;
}

/* ------------------------------------------------------------------ seq2seq */

static const struct {
    const char *name;
    int luong, attends, local, global, bi, key_query;
} S2S_CASES[] = {
    { "lstm_additive_bahdanau", 0, 1, 0, 1, 0, 0 },
    { "gru_general_luong_feed", 1, 1, 0, 1, 0, 0 },
    { "bilstm_concat_luong", 1, 1, 0, 1, 1, 0 },
    { "rnn_dot_luong", 1, 1, 0, 1, 0, 0 },
    { "gru_dot_bahdanau", 0, 1, 0, 1, 0, 0 },
    { "lstm_local_p", 1, 1, 1, 0, 0, 0 },
    { "gru_local_m_concat", 1, 1, 1, 0, 0, 0 },
    { "lstm_key_query_bahdanau", 0, 1, 0, 1, 0, 1 },
    { "bigru_key_query_luong", 1, 1, 0, 1, 1, 1 },
    { "rnn_relu_additive_luong", 1, 1, 0, 1, 0, 0 },
    { "lstm_none", 0, 0, 0, 0, 0, 0 },
    { "bilstm_local_p_bahdanau", 0, 1, 1, 0, 1, 0 },
};

/* states of src [S] teacher-forced on tgt [T] into a fresh buffer (free it); NULL on failure */
static float *s2s_states(al_model *m, const int32_t *src, int S, const int32_t *tgt, int T,
                         int32_t *l, const char *label)
{
    char what[256];
    const double total = al_model_seq2seq_states_layout(m, S, T, l, S2S_FIELDS);
    snprintf(what, sizeof what, "%s: the layout tiles its buffer", label);
    if (!check_true(what, total > 0 && tiles(l, AL_S2S_STATE_COUNT, total))) return NULL;
    float *buf = falloc((long)total);
    snprintf(what, sizeof what, "%s: states run", label);
    if (!check_true(what, al_model_seq2seq_states(m, src, S, tgt, T, buf) == AL_OK)) {
        free(buf);
        return NULL;
    }
    return buf;
}

static void s2s_case(int c, al_safetensors *ref)
{
    const char *cas = S2S_CASES[c].name;
    char label[256];
    al_model *m = fixture_model("model", cas, "loads");
    if (!m) return;
    int S, T, k, r, cols;
    float *srcf = fixture_get(ref, cas, "src", &S), *tgtf = fixture_get(ref, cas, "tgt", &T);
    int32_t src[16], tgt[16], ids[64], l[S2S_FIELDS];
    for (int i = 0; i < S; i++) src[i] = (int32_t)srcf[i];
    for (int i = 0; i < T; i++) tgt[i] = (int32_t)tgtf[i];
    const int V = al_model_tgt_vocab(m);
    float lp[64], att[64 * 16], pos[64], *dist = falloc((long)64 * V);

    /* teacher forced: the same numbers as al_model_score */
    al_model_score(m, src, S, tgt, T, lp, att, pos, dist);
    float *buf = s2s_states(m, src, S, tgt, T, l, cas);
    if (buf) {
        float *w = at(buf, l, AL_S2S_STATE_WEIGHTS, &r, &cols);
        snprintf(label, sizeof label, "%s: weights [T,S] are al_model_score's attention", cas);
        check_true(label, w && r == T && cols == S && same(w, att, (long)T * S));
        float *lps = at(buf, l, AL_S2S_STATE_LOG_PROBS, &r, &cols);
        snprintf(label, sizeof label, "%s: log_probs [T,V] are al_model_score's distributions",
                 cas);
        check_true(label, lps && r == T && cols == V && same(lps, dist, (long)T * V));
        float *p = at(buf, l, AL_S2S_STATE_POSITIONS, &r, &cols);
        snprintf(label, sizeof label, "%s: positions exactly for local attention", cas);
        check_true(label, S2S_CASES[c].local ? p && r == T && same(p, pos, T) : !p);

        /* which fields exist */
        float *q = at(buf, l, AL_S2S_STATE_QUERY, &r, &k);
        float *sc = at(buf, l, AL_S2S_STATE_SCORES, &r, &k);
        float *ctx = at(buf, l, AL_S2S_STATE_CONTEXT, &r, &k);
        float *att_t = at(buf, l, AL_S2S_STATE_ATTENTIONAL, &r, &k);
        snprintf(label, sizeof label, "%s: query, scores, context iff attention", cas);
        check_true(label, S2S_CASES[c].attends ? q && sc && ctx : !q && !sc && !ctx);
        snprintf(label, sizeof label, "%s: attentional iff luong with attention", cas);
        check_true(label, (att_t != NULL) == (S2S_CASES[c].luong && S2S_CASES[c].attends));

        int H, E, rs;
        float *enc = at(buf, l, AL_S2S_STATE_ENCODER, &rs, &H);
        float *init = at(buf, l, AL_S2S_STATE_INITIAL, &r, &k);
        float *dec = at(buf, l, AL_S2S_STATE_DECODER, &r, &k);
        at(buf, l, AL_S2S_STATE_EMBEDDED, &r, &E);
        snprintf(label, sizeof label, "%s: embedded [S,E], encoder [S,H], initial [1,H]", cas);
        check_true(label, rs == S && r == S && E >= 1 && init && dec);
        /* s_0 = the top layer's final state: →h at the last source position, ←h at the first */
        const int Hs = S2S_CASES[c].bi ? H / 2 : H;
        snprintf(label, sizeof label, "%s: initial is the encoder's final state", cas);
        check_true(label,
                   same(init, enc + (size_t)(S - 1) * H, Hs) && same(init + Hs, enc + Hs, H - Hs));
        if (q) {
            /* the scores read s_{t−1} (bahdanau) or s_t (luong) */
            int ok = 1;
            for (int t = 0; t < T; t++) {
                const float *want = S2S_CASES[c].luong ? dec + (size_t)t * H
                                    : t                ? dec + (size_t)(t - 1) * H
                                                       : init;
                ok &= same(q + (size_t)t * H, want, H);
            }
            snprintf(label, sizeof label, "%s: query is s_{t-1} (bahdanau) or s_t (luong)", cas);
            check_true(label, ok);
        }
        if (sc && S2S_CASES[c].global) {
            snprintf(label, sizeof label, "%s: softmax(scores) = weights", cas);
            check_true(label, softmax_matches(sc, w, T, S));
        }
        if (sc && S2S_CASES[c].local) {
            /* outside the window [p − D, p + D] the weights are 0 and the scores -inf */
            int ok = 1, inside = 0;
            for (long i = 0; i < (long)T * S; i++) {
                ok &= isinf(sc[i]) ? sc[i] < 0 && w[i] == 0.0f : isfinite(sc[i]);
                inside += !isinf(sc[i]);
            }
            snprintf(label, sizeof label, "%s: scores -inf outside the window, finite inside", cas);
            check_true(label, ok && inside > 0 && inside < T * S);
        }
        if (ctx && !S2S_CASES[c].key_query) {
            /* c_t = Σ α_ti h_i */
            double worst = 0.0;
            for (int t = 0; t < T; t++)
                for (int j = 0; j < H; j++) {
                    double acc = 0.0;
                    for (int i = 0; i < S; i++)
                        acc += (double)w[(size_t)t * S + i] * enc[(size_t)i * H + j];
                    worst = fmax(worst, fabs(acc - ctx[(size_t)t * H + j]));
                }
            snprintf(label, sizeof label, "%s: context = weights · encoder (%.2g)", cas, worst);
            check_true(label, worst < 1e-5);
        }
        free(buf);
    }

    /* greedy: the states of the output teacher-forced are the greedy run's */
    int n = 0;
    al_model_generate(m, src, S, al_model_max_length(m), 1, ids, lp, att, pos, &n);
    buf = s2s_states(m, src, S, ids, n, l, cas);
    if (buf) {
        float *w = at(buf, l, AL_S2S_STATE_WEIGHTS, &r, &cols);
        float *lps = at(buf, l, AL_S2S_STATE_LOG_PROBS, &r, &k);
        int ok = 1;
        for (int t = 0; t < n; t++) ok &= lps[(size_t)t * V + ids[t]] == lp[t];
        snprintf(label, sizeof label, "%s: greedy weights and log-probs exactly", cas);
        check_true(label, same(w, att, (long)n * S) && ok);
        free(buf);
    }
    free(dist);
    free(srcf);
    free(tgtf);
    al_model_free(m);
}

/* ------------------------------------------------------------------ memory-rnn */

static void mem_case(const char *cas, int cell, int lm, al_safetensors *ref)
{
    char label[256];
    al_model *m = fixture_model("memory_rnn", cas, "loads");
    if (!m) return;
    int n, r, cols, H;
    float *idf = fixture_get(ref, cas, "ids", &n);
    int32_t ids[64], l[MEM_FIELDS];
    for (int i = 0; i < n; i++) ids[i] = (int32_t)idf[i];
    const int C = al_model_tgt_vocab(m);
    float *plain = falloc((long)n * n), *out = falloc((long)n * C);
    if (lm)
        al_model_lm_forward(m, ids, n, NULL, out, plain);
    else
        al_model_memory_classify(m, ids, n, out, plain);
    const double total = al_model_memory_states_layout(m, n, l, MEM_FIELDS);
    snprintf(label, sizeof label, "%s: the layout tiles its buffer", cas);
    check_true(label, total > 0 && tiles(l, AL_MEM_STATE_COUNT, total));
    float *buf = falloc((long)total);
    snprintf(label, sizeof label, "%s: states run", cas);
    if (check_true(label, al_model_memory_states(m, ids, n, buf) == AL_OK)) {
        float *hid = at(buf, l, AL_MEM_STATE_HIDDEN, &r, &H);
        float *mem = at(buf, l, AL_MEM_STATE_MEMORY, &r, &cols);
        float *sc = at(buf, l, AL_MEM_STATE_SCORES, &r, &cols);
        float *w = at(buf, l, AL_MEM_STATE_WEIGHTS, &r, &cols);
        float *sum = at(buf, l, AL_MEM_STATE_SUMMARY, &r, &cols);
        float *msum = at(buf, l, AL_MEM_STATE_MEMORY_SUMMARY, &r, &cols);
        snprintf(label, sizeof label, "%s: the cell's fields exist, the others not", cas);
        check_true(label, hid && (mem != NULL) == (cell != 1) && (sc != NULL) == (cell != 2) &&
                              (w != NULL) == (cell != 2) && (sum != NULL) == (cell != 2) &&
                              (msum != NULL) == (cell == 0));
        if (w) {
            snprintf(label, sizeof label, "%s: weights are the forward's, bit for bit", cas);
            check_true(label, same(w, plain, (long)n * n));
            snprintf(label, sizeof label, "%s: softmax(scores) = weights, -inf unread", cas);
            int ok = softmax_matches(sc, w, n, n);
            for (int t = 0; t < n; t++)
                for (int i = 0; i < n; i++) {
                    const int read = cell == 0 ? i < t : i <= t; /* lstmn i < t; sarnn i <= t */
                    const float e = sc[(size_t)t * n + i];
                    ok &= read ? isfinite(e) : isinf(e) && e < 0;
                }
            check_true(label, ok);
            /* summary_t = Σ_i α_ti h_i (lstmn h̃_t; sarnn c_t) */
            double worst = 0.0;
            for (int t = 0; t < n; t++)
                for (int j = 0; j < H; j++) {
                    double acc = 0.0;
                    for (int i = 0; i < n; i++)
                        acc += (double)w[(size_t)t * n + i] * hid[(size_t)i * H + j];
                    worst = fmax(worst, fabs(acc - sum[(size_t)t * H + j]));
                }
            snprintf(label, sizeof label, "%s: summary = weights · hidden (%.2g)", cas, worst);
            check_true(label, worst < 1e-5);
        }
    }
    free(buf);
    free(plain);
    free(out);
    free(idf);
    al_model_free(m);
}

static void test_fixture_models(void)
{
    fixture_file f;
    if (fixture_open(&f, "tests/fixtures/model_reference.safetensors", "seq2seq reference opens",
                     "seq2seq states")) {
        for (size_t c = 0; c < sizeof S2S_CASES / sizeof S2S_CASES[0]; c++) s2s_case((int)c, f.st);
        fixture_free(&f);
    }
    if (fixture_open(&f, "tests/fixtures/memory_rnn_model_reference.safetensors",
                     "memory-rnn reference opens", "memory-rnn states")) {
        mem_case("lm_lstmn", 0, 1, f.st);
        mem_case("lm_sarnn_additive", 1, 1, f.st);
        mem_case("lm_sarnn_dot", 1, 1, f.st);
        mem_case("lm_lstm", 2, 1, f.st);
        mem_case("clf_lstmn", 0, 0, f.st);
        mem_case("clf_sarnn_mean", 1, 0, f.st);
        fixture_free(&f);
    }
}

/* ------------------------------------------------------------------ bad arguments */

static void test_bad_arguments(void)
{
    al_model *s = fixture_model("model", "lstm_local_p", "loads");
    al_model *r = fixture_model("memory_rnn", "lm_lstmn", "loads");
    if (!s || !r) {
        al_model_free(s);
        al_model_free(r);
        return;
    }
    int32_t l[S2S_FIELDS + MEM_FIELDS], src[3] = { 4, 5, 6 }, tgt[2] = { 4, 2 };
    const int Vs = al_model_src_vocab(s), Vt = al_model_tgt_vocab(s);
    float *buf = falloc(1 << 16);
    check_true("layout: NULL model, NULL layout, a short layout, another architecture",
               al_model_seq2seq_states_layout(NULL, 3, 2, l, S2S_FIELDS) == -1 &&
                   al_model_seq2seq_states_layout(s, 3, 2, NULL, S2S_FIELDS) == -1 &&
                   al_model_seq2seq_states_layout(s, 3, 2, l, S2S_FIELDS - 1) == -1 &&
                   al_model_seq2seq_states_layout(r, 3, 2, l, S2S_FIELDS) == -1 &&
                   al_model_memory_states_layout(s, 3, l, MEM_FIELDS) == -1 &&
                   al_model_memory_states_layout(r, 3, l, MEM_FIELDS - 1) == -1);
    check_true(
        "layout: sizes out of range",
        al_model_seq2seq_states_layout(s, 0, 2, l, S2S_FIELDS) == -1 &&
            al_model_seq2seq_states_layout(s, 3, 0, l, S2S_FIELDS) == -1 &&
            al_model_seq2seq_states_layout(s, AL_MODEL_MAX_SOURCE + 1, 2, l, S2S_FIELDS) == -1 &&
            al_model_seq2seq_states_layout(s, 3, AL_MODEL_MAX_STEPS + 1, l, S2S_FIELDS) == -1 &&
            al_model_memory_states_layout(r, 0, l, MEM_FIELDS) == -1 &&
            al_model_memory_states_layout(r, AL_MODEL_MAX_SOURCE + 1, l, MEM_FIELDS) == -1);
    check_true("seq2seq states: NULLs are AL_ERR_ARGUMENT",
               al_model_seq2seq_states(NULL, src, 3, tgt, 2, buf) == AL_ERR_ARGUMENT &&
                   al_model_seq2seq_states(s, NULL, 3, tgt, 2, buf) == AL_ERR_ARGUMENT &&
                   al_model_seq2seq_states(s, src, 3, NULL, 2, buf) == AL_ERR_ARGUMENT &&
                   al_model_seq2seq_states(s, src, 3, tgt, 2, NULL) == AL_ERR_ARGUMENT);
    check_true("states of another architecture are AL_ERR_UNSUPPORTED",
               al_model_seq2seq_states(r, src, 3, tgt, 2, buf) == AL_ERR_UNSUPPORTED &&
                   al_model_memory_states(s, src, 3, buf) == AL_ERR_UNSUPPORTED);
    check_true("seq2seq states: lengths out of range are AL_ERR_SHAPE",
               al_model_seq2seq_states(s, src, 0, tgt, 2, buf) == AL_ERR_SHAPE &&
                   al_model_seq2seq_states(s, src, 3, tgt, 0, buf) == AL_ERR_SHAPE &&
                   al_model_seq2seq_states(s, src, 3, tgt, AL_MODEL_MAX_STEPS + 1, buf) ==
                       AL_ERR_SHAPE);
    int32_t bad_src[3] = { 4, Vs, 6 }, bad_tgt[2] = { 4, Vt }, neg[2] = { -1, 2 };
    check_true("seq2seq states: ids outside the vocabularies are AL_ERR_RANGE",
               al_model_seq2seq_states(s, bad_src, 3, tgt, 2, buf) == AL_ERR_RANGE &&
                   al_model_seq2seq_states(s, src, 3, bad_tgt, 2, buf) == AL_ERR_RANGE &&
                   al_model_seq2seq_states(s, src, 3, neg, 2, buf) == AL_ERR_RANGE);
    int32_t bad_ids[3] = { 4, al_model_src_vocab(r), 6 };
    check_true("memory states: NULLs, lengths and ids",
               al_model_memory_states(NULL, src, 3, buf) == AL_ERR_ARGUMENT &&
                   al_model_memory_states(r, NULL, 3, buf) == AL_ERR_ARGUMENT &&
                   al_model_memory_states(r, src, 3, NULL) == AL_ERR_ARGUMENT &&
                   al_model_memory_states(r, src, 0, buf) == AL_ERR_SHAPE &&
                   al_model_memory_states(r, src, AL_MODEL_MAX_SOURCE + 1, buf) == AL_ERR_SHAPE &&
                   al_model_memory_states(r, bad_ids, 3, buf) == AL_ERR_RANGE);
    /* the results policy: huge finite weights overflow, and the states say so */
    float *w = al_model_weights(s);
    for (int i = 0; i < al_model_weight_count(s); i++) w[i] = i % 2 ? -3e38f : 3e38f;
    check_true("seq2seq states: huge weights are AL_ERR_NONFINITE",
               al_model_seq2seq_states(s, src, 3, tgt, 2, buf) == AL_ERR_NONFINITE);
    w = al_model_weights(r);
    for (int i = 0; i < al_model_weight_count(r); i++) w[i] = i % 2 ? -3e38f : 3e38f;
    check_true("memory states: huge weights are AL_ERR_NONFINITE",
               al_model_memory_states(r, src, 3, buf) == AL_ERR_NONFINITE);
    free(buf);
    al_model_free(s);
    al_model_free(r);
}
#endif

int main(void)
{
    const int base = al_alloc_live();
    check_true("layout of no model is -1",
               al_model_seq2seq_states_layout(NULL, 1, 1, NULL, 0) == -1 &&
                   al_model_memory_states_layout(NULL, 1, NULL, 0) == -1);
    check_true("states of no model are AL_ERR_ARGUMENT",
               al_model_seq2seq_states(NULL, NULL, 1, NULL, 1, NULL) == AL_ERR_ARGUMENT &&
                   al_model_memory_states(NULL, NULL, 1, NULL) == AL_ERR_ARGUMENT);
#ifndef __EMSCRIPTEN__
    test_fixture_models();
    test_bad_arguments();
#else
    printf("note: the fixture models run natively and in tests/js/states-*.test.js\n");
#endif
    check_true("all freed", al_alloc_live() == base);
    return check_report("test_model_states_rnn");
}
