/*
 * fuzz_safetensors.c: libFuzzer target for the safetensors loader (src/io/safetensors.c).
 *
 *     make fuzz FUZZ_SECONDS=600        # or: make fuzz-smoke (10 s + replay of the corpus)
 *
 * Feeds the input, as a heap block of exactly its size, to al_safetensors_open and then drives
 * every accessor over everything the handle reports, checking the invariants a caller relies on:
 * a failure leaves *out NULL and a non-empty, terminated message; names are unique and found by
 * al_safetensors_find; numel is the product of the dims; every weight read back is finite; and
 * the live-allocation count returns to where it started. Any violation traps, so libFuzzer keeps
 * the input. Built with clang -fsanitize=fuzzer,address,undefined (Makefile target `fuzz`).
 * Seed corpus: tests/fuzz/corpus/safetensors/ (scripts/make_malformed.py); dictionary:
 * tests/fuzz/safetensors.dict.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attnlab.h"

#define REQUIRE(c)                                                                                 \
    do {                                                                                           \
        if (!(c)) __builtin_trap();                                                                \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int base = al_alloc_live();
    char err[AL_SAFETENSORS_ERR_CAP];
    memset(err, 'x', sizeof err);
    al_safetensors *st = (al_safetensors *)err;
    al_status s = al_safetensors_open(data, size, &st, err, sizeof err);
    REQUIRE(memchr(err, 0, sizeof err) != NULL);
    if (s != AL_OK) {
        REQUIRE(st == NULL && err[0] != 0 && s > AL_OK && s <= AL_ERR_OVERFLOW);
        REQUIRE(al_alloc_live() == base);
        return 0;
    }
    REQUIRE(st != NULL && err[0] == 0);
    int n = al_safetensors_count(st);
    for (int i = 0; i < n; i++) {
        const char *name = al_safetensors_name(st, i);
        const char *dtype = al_safetensors_dtype(st, i);
        REQUIRE(name && dtype && name[0]);
        REQUIRE(al_safetensors_find(st, name) == i);
        int rank = al_safetensors_rank(st, i);
        REQUIRE(rank >= 0 && rank <= AL_SAFETENSORS_MAX_RANK);
        long long numel = 1;
        for (int a = 0; a < rank; a++) {
            int d = al_safetensors_dim(st, i, a);
            REQUIRE(d >= 0);
            numel *= d;
        }
        REQUIRE(al_safetensors_dim(st, i, rank) == -1);
        REQUIRE(numel == al_safetensors_numel(st, i));
        float *out = numel ? malloc(sizeof(float) * (size_t)numel) : NULL;
        if (numel && !out) continue;
        REQUIRE(al_safetensors_read_f32(st, i, out, (size_t)numel) == AL_OK);
        for (long long k = 0; k < numel; k++) REQUIRE(isfinite(out[k]));
        if (numel) REQUIRE(al_safetensors_read_f32(st, i, out, (size_t)numel - 1) == AL_ERR_SHAPE);
        free(out);
    }
    REQUIRE(al_safetensors_name(st, n) == NULL && al_safetensors_name(st, -1) == NULL);
    int m = al_safetensors_meta_count(st);
    for (int i = 0; i < m; i++) {
        const char *k = al_safetensors_meta_key(st, i), *v = al_safetensors_meta_value(st, i);
        REQUIRE(k && v && al_safetensors_meta_find(st, k) == v);
    }
    REQUIRE(al_safetensors_meta_key(st, m) == NULL);
    al_safetensors_free(st);
    REQUIRE(al_alloc_live() == base);
    return 0;
}
