/*
 * fuzz_models.c: libFuzzer target for whole models: al_model_load on hostile files, then
 * al_model_generate, al_model_score and stepped decoding with hostile arguments, and a save/load
 * round trip (src/api/model.h, src/api/train.h).
 *
 *     make build/fuzz/fuzz_models && build/fuzz/fuzz_models -dict=tests/fuzz/models.dict \
 *         build/fuzz/corpus/models tests/fuzz/corpus/models       # or: make fuzz / fuzz-smoke
 *
 * Input: CTRL control bytes, then the model file. The seeds (tests/fuzz/corpus/models/) are the
 * fixtures tests/fixtures/model_*.safetensors behind a control block (and arch-*: a classifier,
 * transformer and memory-rnn fixture each, so every architecture's config parser and tensor
 * checks are fuzzed; only seq2seq models are then run), so mutations land both in
 * the file (header JSON, config, shapes, weights) and in the arguments:
 *   [0] S (source length: 1..12, or 0, -1, 4096, 4097)   [1] max_len (1..16, or 0, -1, 1024, 1025)
 *   [2] beam (0..4, or -1, 32, 33)   [3] T for al_model_score   [4..7] seed of the id stream
 *   [8] how often an id is out of range (-1, V, INT_MAX)   [9] force for stepped decoding
 *   [10] which calls to make (bits)   [11..15] unused
 *
 * Invariants (violations trap): a failed load leaves *out NULL, a NUL-terminated non-empty
 * message and no live allocation; a loaded model answers sane sizes; every status is in the enum;
 * AL_OK exactly when the arguments are valid (or AL_ERR_NOMEM, or AL_ERR_NONFINITE when huge
 * finite weights overflow float32: api/model.c's results policy); outputs of a successful call are
 * in range (ids in [0, Vt), 1 <= len <= max_len, finite logp <= 0, attention rows that sum to 1 or
 * are zero); a saved model loads again with the same weights; al_alloc_live() returns to its
 * starting value. ASan/UBSan findings abort by themselves.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attnlab.h"

#define REQUIRE(c)                                                                                 \
    do {                                                                                           \
        if (!(c)) __builtin_trap();                                                                \
    } while (0)
#define CTRL 16

static uint32_t rng;
static uint32_t next_u32(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* n ids for a vocabulary of V; *bad set when one is out of range */
static void make_ids(int32_t *ids, int n, int V, int bad_rate, int *bad)
{
    static const int32_t odd[4] = { -1, INT_MIN, INT_MAX, 0 };
    for (int i = 0; i < n; i++) {
        uint32_t r = next_u32();
        if ((int)(r & 255) < bad_rate) {
            int k = (r >> 8) & 3;
            ids[i] = k == 3 ? V : odd[k];
            *bad = 1;
        } else {
            ids[i] = (int32_t)((r >> 8) % (uint32_t)V);
        }
    }
}

/* rows [n, len]: each sums to 1 or is zero (loose: only in [0, 1], local attention) */
static void check_rows(const float *w, int n, int len, int loose)
{
    for (int r = 0; r < n; r++) {
        double sum = 0.0;
        int zero = 1;
        for (int j = 0; j < len; j++) {
            float x = w[(size_t)r * len + j];
            REQUIRE(x >= 0.0f && x <= 1.0f + 1e-6f);
            sum += x;
            zero &= x == 0.0f;
        }
        REQUIRE(zero || loose || fabs(sum - 1.0) <= 1e-4);
    }
}

static int pick(uint8_t b, int lo_mod, const int *special)
{
    return b < 224 ? 1 + b % lo_mod : special[(b - 224) % 4];
}

static void run_model(const al_model *m, const uint8_t *ctl)
{
    static const int S_special[4] = { 0, -1, AL_MODEL_MAX_SOURCE, AL_MODEL_MAX_SOURCE + 1 };
    static const int L_special[4] = { 0, -1, AL_MODEL_MAX_STEPS, AL_MODEL_MAX_STEPS + 1 };
    int Vs = al_model_src_vocab(m), Vt = al_model_tgt_vocab(m);
    REQUIRE(Vs >= 1 && Vt >= 1);
    REQUIRE(al_model_bos(m) >= 0 && al_model_bos(m) < Vt && al_model_eos(m) >= 0 &&
            al_model_eos(m) < Vt);
    REQUIRE(al_model_max_length(m) >= 1);
    REQUIRE(al_model_architecture(m) && al_model_config(m));
    int local = al_model_has_positions(m);
    REQUIRE(local == 0 || local == 1);

    int S = pick(ctl[0], 12, S_special), max_len = pick(ctl[1], 16, L_special);
    int beam = ctl[2] < 224 ? ctl[2] % 5
                            : (int[4]){ -1, AL_MODEL_MAX_BEAM, AL_MODEL_MAX_BEAM + 1,
                                        2 }[(ctl[2] - 224) % 4];
    int T = pick(ctl[3], 12, L_special);
    rng =
        (uint32_t)ctl[4] | (uint32_t)ctl[5] << 8 | (uint32_t)ctl[6] << 16 | (uint32_t)ctl[7] << 24;
    if (!rng) rng = 0x9e3779b9u;
    int bad_rate = ctl[8] < 192 ? 0 : ctl[8] - 191;
    int calls = ctl[10];

    int S_ok = S >= 1 && S <= AL_MODEL_MAX_SOURCE;
    int Sa = S_ok ? S : 4; /* the array we hand over */
    int32_t *src = malloc(sizeof(int32_t) * (size_t)Sa);
    REQUIRE(src);
    int src_bad = 0;
    make_ids(src, Sa, Vs, bad_rate, &src_bad);

    if (calls & 1) { /* generate */
        int L_ok = max_len >= 1 && max_len <= AL_MODEL_MAX_STEPS;
        int La = L_ok ? max_len : 4;
        int32_t *ids = malloc(sizeof(int32_t) * (size_t)La);
        float *logp = malloc(sizeof(float) * (size_t)La);
        float *att = malloc(sizeof(float) * (size_t)La * Sa);
        float *pos = (calls & 2) ? malloc(sizeof(float) * (size_t)La) : NULL;
        int len = -1;
        REQUIRE(ids && logp && att);
        al_status st = al_model_generate(m, src, S, max_len, beam, ids, logp, att, pos, &len);
        REQUIRE((int)st >= AL_OK && (int)st <= AL_ERR_OVERFLOW);
        int valid = S_ok && L_ok && !src_bad && beam <= AL_MODEL_MAX_BEAM;
        if (!valid)
            REQUIRE(st != AL_OK);
        else
            REQUIRE(st == AL_OK || st == AL_ERR_NOMEM || st == AL_ERR_NONFINITE);
        if (st == AL_OK) {
            REQUIRE(len >= 1 && len <= max_len);
            for (int i = 0; i < len; i++) {
                REQUIRE(ids[i] >= 0 && ids[i] < Vt);
                REQUIRE(isfinite(logp[i]) && logp[i] <= 1e-5f);
                if (pos) REQUIRE(isfinite(pos[i]));
            }
            check_rows(att, len, S, local);
        }
        free(ids);
        free(logp);
        free(att);
        free(pos);
    }

    if (calls & 4) { /* score */
        int T_ok = T >= 1 && T <= AL_MODEL_MAX_STEPS;
        int Ta = T_ok ? T : 4, tgt_bad = 0;
        int32_t *tgt = malloc(sizeof(int32_t) * (size_t)Ta);
        float *logp = malloc(sizeof(float) * (size_t)Ta);
        float *att = (calls & 8) ? malloc(sizeof(float) * (size_t)Ta * Sa) : NULL;
        float *dist = (calls & 16) ? malloc(sizeof(float) * (size_t)Ta * Vt) : NULL;
        REQUIRE(tgt && logp);
        make_ids(tgt, Ta, Vt, bad_rate, &tgt_bad);
        al_status st = al_model_score(m, src, S, tgt, T, logp, att, NULL, dist);
        REQUIRE((int)st >= AL_OK && (int)st <= AL_ERR_OVERFLOW);
        int valid = S_ok && T_ok && !src_bad && !tgt_bad;
        if (!valid)
            REQUIRE(st != AL_OK);
        else
            REQUIRE(st == AL_OK || st == AL_ERR_NOMEM || st == AL_ERR_NONFINITE);
        if (st == AL_OK) {
            for (int t = 0; t < T; t++) REQUIRE(isfinite(logp[t]) && logp[t] <= 1e-5f);
            if (att) check_rows(att, T, S, local);
            if (dist)
                for (int t = 0; t < T; t++) {
                    double sum = 0.0;
                    for (int v = 0; v < Vt; v++) sum += exp((double)dist[(size_t)t * Vt + v]);
                    REQUIRE(fabs(sum - 1.0) <= 1e-3);
                    REQUIRE(fabsf(dist[(size_t)t * Vt + tgt[t]] - logp[t]) <= 1e-4f);
                }
        }
        free(tgt);
        free(logp);
        free(att);
        free(dist);
    }

    if (calls & 32) { /* stepped decoding */
        al_decoder *d = (al_decoder *)src;
        al_status st = al_model_decoder_start(m, src, S, &d);
        REQUIRE((int)st >= AL_OK && (int)st <= AL_ERR_OVERFLOW);
        if (!(S_ok && !src_bad)) REQUIRE(st != AL_OK);
        if (st == AL_OK) {
            REQUIRE(d);
            float *att = malloc(sizeof(float) * (size_t)Sa),
                  *dist = malloc(sizeof(float) * (size_t)Vt);
            REQUIRE(att && dist);
            int done = 0, steps = 1 + ctl[9] % 24;
            for (int i = 0; i < steps; i++) {
                int32_t force = (calls & 64) ? (int32_t)(next_u32() % (uint32_t)(Vt + 2)) - 1 : -1;
                int32_t id = -7;
                float logp = 1.0f, pos = 0.0f;
                int was_done = done;
                st = al_decoder_step(d, force, &id, &logp, att, &pos, dist, &done);
                REQUIRE((int)st >= AL_OK && (int)st <= AL_ERR_OVERFLOW);
                if (was_done || force >= Vt) {
                    REQUIRE(st != AL_OK);
                    if (was_done) break;
                    continue;
                }
                if (st == AL_ERR_NONFINITE) break; /* huge finite weights overflowed */
                REQUIRE(st == AL_OK);
                REQUIRE(id >= 0 && id < Vt && isfinite(logp) && logp <= 1e-5f && isfinite(pos));
                if (force >= 0) REQUIRE(id == force);
                check_rows(att, 1, S, local);
            }
            free(att);
            free(dist);
            al_decoder_free(d);
        } else {
            REQUIRE(d == NULL);
        }
    }
    free(src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t ctl[CTRL] = { 0 };
    memcpy(ctl, data, size < CTRL ? size : CTRL);
    size_t len = size < CTRL ? 0 : size - CTRL;
    /* the file as a heap block of exactly its size, so ASan sees any read past it */
    uint8_t *bytes = malloc(len ? len : 1);
    REQUIRE(bytes);
    if (len) memcpy(bytes, data + CTRL, len);

    int base = al_alloc_live();
    char err[AL_MODEL_ERR_CAP];
    memset(err, 'x', sizeof err);
    al_model *m = (al_model *)err;
    al_status st = al_model_load(bytes, len, &m, err, sizeof err);
    REQUIRE((int)st >= AL_OK && (int)st <= AL_ERR_OVERFLOW);
    REQUIRE(memchr(err, 0, sizeof err) != NULL);
    if (st != AL_OK) {
        REQUIRE(m == NULL && err[0] != 0);
        REQUIRE(al_alloc_live() == base);
        free(bytes);
        return 0;
    }
    REQUIRE(m != NULL);
    free(bytes); /* the model must not borrow the bytes */
    /* run_model drives the seq2seq calls; a mutation that loads as another architecture gets
     * the check that those calls refuse it (AL_ERR_UNSUPPORTED), then the save round trip */
    if (strcmp(al_model_architecture(m), "seq2seq") == 0) {
        run_model(m, ctl);
    } else {
        int32_t src[1] = { 0 }, ids[1];
        float logp[1], att[1];
        int n = 0;
        REQUIRE(al_model_generate(m, src, 1, 1, 1, ids, logp, att, NULL, &n) == AL_ERR_UNSUPPORTED);
    }

    if (ctl[10] & 128) { /* save, reload, compare */
        uint8_t *saved = NULL;
        size_t saved_len = 0;
        st = al_model_save(m, &saved, &saved_len);
        REQUIRE(st == AL_OK || st == AL_ERR_NOMEM);
        if (st == AL_OK) {
            al_model *m2 = NULL;
            REQUIRE(al_model_load(saved, saved_len, &m2, NULL, 0) == AL_OK);
            int n = al_model_weight_count(m);
            REQUIRE(n == al_model_weight_count(m2));
            REQUIRE(memcmp(al_model_weights(m), al_model_weights(m2), sizeof(float) * (size_t)n) ==
                    0);
            al_model_free(m2);
            al_free(saved);
        }
    }
    al_model_free(m);
    REQUIRE(al_alloc_live() == base);
    return 0;
}
