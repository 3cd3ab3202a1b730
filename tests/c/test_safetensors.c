/*
 * test_safetensors.c: the safetensors loader against every malformed file we could think of, and
 * against valid F32/F16/BF16, misaligned, zero-size and rank-0 files, and I8 files (int8 with
 * per-row F32 scales in "<name>:scale"): known values, and every way the pair can be wrong.
 *
 * Every file is built here as bytes, in a heap block of exactly its length (so ASan catches a
 * read one past the end). Every failure case asserts the specific status and a substring of the
 * message; every case, success or failure, asserts that al_alloc_live() is back to its baseline.
 * The policies being tested are documented in docs/model-format.md.
 */
#include <string.h>

#include "attnlab.h"
#include "check.h"

/* ------------------------------------------------------------------ building files */

/* A heap copy of raw [n], exactly n bytes (1 for n = 0, never read). */
static uint8_t *dup_bytes(const void *raw, size_t n)
{
    uint8_t *b = check_alloc(n ? n : 1);
    if (n) memcpy(b, raw, n);
    return b;
}

/* 8-byte length N, the header text, the data: a file of exactly the right size. */
static uint8_t *file_with_len(uint64_t n_field, const char *header, size_t hlen, const void *data,
                              size_t dlen, size_t *len)
{
    *len = 8 + hlen + dlen;
    uint8_t *b = check_alloc(*len);
    for (int k = 0; k < 8; k++) b[k] = (uint8_t)(n_field >> (8 * k));
    memcpy(b + 8, header, hlen);
    if (dlen) memcpy(b + 8 + hlen, data, dlen);
    return b;
}

static uint8_t *file_make(const char *header, const void *data, size_t dlen, size_t *len)
{
    return file_with_len(strlen(header), header, strlen(header), data, dlen, len);
}

/* ------------------------------------------------------------------ expectations */

static char err[AL_SAFETENSORS_ERR_CAP];

/* Open b [n], expect status want and a message containing needle; then free b. */
static void expect_fail_bytes(const char *what, uint8_t *b, size_t n, al_status want,
                              const char *needle)
{
    int base = al_alloc_live();
    al_safetensors *st = (al_safetensors *)&err; /* must be overwritten with NULL */
    memset(err, 'x', sizeof err);
    al_status s = al_safetensors_open(b, n, &st, err, sizeof err);
    int ok = s == want && st == NULL && strstr(err, needle) != NULL && strlen(err) < sizeof err;
    if (!ok)
        printf("  %s: status %d (want %d), message \"%s\" (want \"%s\")\n", what, (int)s, (int)want,
               err, needle);
    check_true(what, ok);
    char live[160];
    snprintf(live, sizeof live, "%s: allocations back to baseline", what);
    check_true(live, al_alloc_live() == base);
    if (s == AL_OK) al_safetensors_free(st);
    free(b);
}

/* A file whose length prefix says n_field, followed by header [hlen]. */
static void expect_fail_len(const char *what, uint64_t n_field, const char *header, size_t hlen,
                            al_status want, const char *needle)
{
    size_t n;
    uint8_t *b = file_with_len(n_field, header, hlen, NULL, 0, &n);
    expect_fail_bytes(what, b, n, want, needle);
}

static void expect_fail(const char *what, const char *header, const void *data, size_t dlen,
                        al_status want, const char *needle)
{
    size_t n;
    uint8_t *b = file_make(header, data, dlen, &n);
    expect_fail_bytes(what, b, n, want, needle);
}

/* Open header + data, expect success; returns the handle and keeps *file for the caller to free. */
static al_safetensors *expect_open(const char *what, uint8_t *b, size_t n)
{
    al_safetensors *st = NULL;
    al_status s = al_safetensors_open(b, n, &st, err, sizeof err);
    if (s != AL_OK) printf("  %s: status %d, message \"%s\"\n", what, (int)s, err);
    check_true(what, s == AL_OK && st != NULL && err[0] == 0);
    return s == AL_OK ? st : NULL;
}

static void put_f32(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    for (int k = 0; k < 4; k++) p[k] = (uint8_t)(u >> (8 * k));
}

/* ------------------------------------------------------------------ the length prefix */

static void test_prefix(void)
{
    expect_fail_bytes("empty file", dup_bytes("", 0), 0, AL_ERR_FORMAT, "empty file (0 bytes)");
    {
        al_safetensors *st;
        check_true("NULL bytes with len 0 is an empty file",
                   al_safetensors_open(NULL, 0, &st, err, sizeof err) == AL_ERR_FORMAT &&
                       st == NULL);
        check_true("NULL bytes with len 5 is an argument error",
                   al_safetensors_open(NULL, 5, &st, err, sizeof err) == AL_ERR_ARGUMENT);
        check_true("NULL out is an argument error",
                   al_safetensors_open((const uint8_t *)"12345678", 8, NULL, err, sizeof err) ==
                       AL_ERR_ARGUMENT);
    }
    expect_fail_bytes("5-byte file", dup_bytes("\x10\0\0\0\0", 5), 5, AL_ERR_FORMAT,
                      "file is 5 bytes, shorter than the 8-byte header length");

    static const char body[] = "{}                  "; /* 20 bytes after the prefix */
    expect_fail_len("header length larger than the file", 100, body, 20, AL_ERR_FORMAT,
                    "header length 100 is larger than the 20 bytes after it: truncated file?");
    expect_fail_len("header length 2^32", (uint64_t)1 << 32, body, 20, AL_ERR_FORMAT,
                    "header length 4294967296 (>= 2^32) is larger than the 20 bytes");
    expect_fail_len("header length 2^53", (uint64_t)1 << 53, body, 20, AL_ERR_FORMAT,
                    "header length 9007199254740992 (>= 2^53)");
    expect_fail_len("header length 2^64 - 1", UINT64_MAX, body, 20, AL_ERR_FORMAT,
                    "header length 18446744073709551615 (2^64 - 1, all bits set)");
    expect_fail_len("header length 0", 0, body, 20, AL_ERR_FORMAT,
                    "header length 0 is too short for a JSON object");

    /* a header one byte over the 16 MiB cap, really present in the file */
    size_t big = AL_SAFETENSORS_MAX_HEADER + 1;
    char *h = check_alloc(big);
    memset(h, ' ', big);
    h[0] = '{';
    h[big - 1] = '}';
    expect_fail_len("header over the 16 MiB cap", big, h, big, AL_ERR_UNSUPPORTED,
                    "header length 16777217 is over attnlab's header cap of 16777216 bytes");
    /* exactly at the cap is fine */
    size_t nb;
    uint8_t *at = file_with_len(big - 1, h + 1, big - 1, NULL, 0, &nb);
    at[8] = '{';
    al_safetensors *st = expect_open("header of exactly 16 MiB", at, nb);
    al_safetensors_free(st);
    free(at);
    free(h);

    static const char html[] =
        "<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head></html>\n";
    expect_fail_bytes("an HTML error page", dup_bytes(html, strlen(html)), strlen(html),
                      AL_ERR_FORMAT,
                      "looks like an HTML page, not safetensors (it starts \"<!DOCTYPE html>");
    expect_fail_bytes("a tiny HTML page", dup_bytes("<html>", 6), 6, AL_ERR_FORMAT,
                      "looks like an HTML page");
    static const char json[] =
        "{\"w\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4]}}";
    expect_fail_bytes("bare JSON text", dup_bytes(json, strlen(json)), strlen(json), AL_ERR_FORMAT,
                      "looks like JSON text, not safetensors");
}

/* ------------------------------------------------------------------ the header as JSON */

static void test_json(void)
{
    expect_fail("invalid UTF-8 (0xff)", "{\"a\xff\": {}}", NULL, 0, AL_ERR_FORMAT,
                "header is not valid UTF-8: byte 0xff at header offset 3");
    expect_fail("overlong UTF-8", "{\"\xc0\xaf\": {}}", NULL, 0, AL_ERR_FORMAT,
                "not valid UTF-8: byte 0xc0");
    expect_fail("UTF-8 encoded surrogate", "{\"\xed\xa0\x80\": {}}", NULL, 0, AL_ERR_FORMAT,
                "not valid UTF-8");
    expect_fail("UTF-8 cut at the end", "{\"a\":{}}\xe2\x82", NULL, 0, AL_ERR_FORMAT,
                "not valid UTF-8: byte 0xe2 at header offset 8");
    expect_fail("not JSON", "hello, world", NULL, 0, AL_ERR_FORMAT,
                "header is not valid JSON: unexpected character where a value was expected at "
                "header offset 0");
    expect_fail("truncated JSON", "{\"w\": {\"dtype\": \"F3", NULL, 0, AL_ERR_FORMAT,
                "header is not valid JSON: unterminated string");
    expect_fail("truncated JSON object", "{\"w\": {\"dtype\": \"F32\"", NULL, 0, AL_ERR_FORMAT,
                "unexpected end of text (truncated?)");
    expect_fail("a JSON array", "[1, 2, 3]", NULL, 0, AL_ERR_FORMAT,
                "header is an array, not a JSON object");
    expect_fail("a JSON string", "\"model\"", NULL, 0, AL_ERR_FORMAT,
                "header is a string, not a JSON object");
    expect_fail("trailing garbage", "{} x", NULL, 0, AL_ERR_FORMAT,
                "trailing characters after the JSON value");
    expect_fail("trailing comma", "{\"__metadata__\": {\"a\": \"b\",}}", NULL, 0, AL_ERR_FORMAT,
                "expected a string key");
    expect_fail("single quotes", "{'a': 1}", NULL, 0, AL_ERR_FORMAT, "expected a string key");
    expect_fail("raw control character", "{\"a\tb\": 1}", NULL, 0, AL_ERR_FORMAT,
                "control character in a string");
    expect_fail("bad escape", "{\"a\\qb\": 1}", NULL, 0, AL_ERR_FORMAT, "unknown escape");
    expect_fail("lone high surrogate", "{\"\\ud800x\": 1}", NULL, 0, AL_ERR_FORMAT,
                "high surrogate");
    expect_fail("lone low surrogate", "{\"\\udc00\": 1}", NULL, 0, AL_ERR_FORMAT,
                "lone low surrogate");
    expect_fail("leading zero", "{\"w\": {\"shape\": [01]}}", NULL, 0, AL_ERR_FORMAT,
                "expected ',' or ']'");
    expect_fail("NaN literal", "{\"w\": {\"shape\": [NaN]}}", NULL, 0, AL_ERR_FORMAT,
                "unexpected character");

    /* 100,000 nested arrays: stops at the depth cap, no recursion */
    size_t deep = 100000;
    char *h = check_alloc(deep + 8);
    memcpy(h, "{\"a\":", 5);
    memset(h + 5, '[', deep);
    h[5 + deep] = 0;
    expect_fail("100,000-deep nesting", h, NULL, 0, AL_ERR_FORMAT, "nesting deeper than 64 levels");
    /* and 100,000 balanced: still refused by depth, not by truncation */
    char *hb = check_alloc(2 * deep + 8);
    memcpy(hb, "{\"a\":", 5);
    memset(hb + 5, '[', deep);
    memset(hb + 5 + deep, ']', deep);
    memcpy(hb + 5 + 2 * deep, "}", 2);
    expect_fail("100,000-deep balanced nesting", hb, NULL, 0, AL_ERR_FORMAT,
                "nesting deeper than 64 levels");
    free(h);
    free(hb);
}

/* ------------------------------------------------------------------ the schema */

#define T1 "\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4]"

static void test_schema(void)
{
    static const uint8_t four[4] = { 0, 0, 128, 63 }; /* 1.0f */
    static const uint8_t eight[8] = { 0, 0, 128, 63, 0, 0, 0, 64 };

    expect_fail("duplicate tensor names",
                "{\"w\": {" T1
                "}, \"w\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [4, 8]}}",
                eight, 8, AL_ERR_FORMAT, "duplicate tensor name \"w\"");
    expect_fail("duplicate metadata keys", "{\"__metadata__\": {\"k\": \"a\", \"k\": \"b\"}}", NULL,
                0, AL_ERR_FORMAT, "duplicate __metadata__ key \"k\"");
    expect_fail("duplicate __metadata__", "{\"__metadata__\": {}, \"__metadata__\": {}}", NULL, 0,
                AL_ERR_FORMAT, "duplicate key \"__metadata__\"");
    expect_fail("duplicate field", "{\"w\": {" T1 ", \"dtype\": \"F32\"}}", four, 4, AL_ERR_FORMAT,
                "tensor \"w\": duplicate field \"dtype\"");
    expect_fail("duplicate names spelled differently",
                "{\"w\": {" T1
                "}, \"\\u0077\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [4, 8]}}",
                eight, 8, AL_ERR_FORMAT, "duplicate tensor name");

    expect_fail("NUL in a tensor name", "{\"enc\\u0000w\": {" T1 "}}", four, 4, AL_ERR_FORMAT,
                "tensor \"enc\\u0000w\": the name contains a NUL character");
    expect_fail("empty tensor name", "{\"\": {" T1 "}}", four, 4, AL_ERR_FORMAT,
                "a tensor has an empty name");
    {
        size_t big = 1 << 20;
        char *h = check_alloc(big + 200);
        strcpy(h, "{\"");
        memset(h + 2, 'n', big);
        strcpy(h + 2 + big, "\": {" T1 "}}");
        expect_fail("1 MB tensor name", h, four, 4, AL_ERR_UNSUPPORTED,
                    "the name is 1048576 bytes, over attnlab's cap of 1024");
        h[2 + 1025] = 0;
        strcpy(h + 2 + 1025, "\": {" T1 "}}");
        expect_fail("1025-byte tensor name", h, four, 4, AL_ERR_UNSUPPORTED,
                    "1025 bytes, over attnlab's cap");
        h[2 + 1024] = 0;
        strcpy(h + 2 + 1024, "\": {" T1 "}}");
        size_t n;
        uint8_t *b = file_make(h, four, 4, &n);
        al_safetensors *st = expect_open("1024-byte tensor name", b, n);
        check_true("1024-byte name kept whole", st && strlen(al_safetensors_name(st, 0)) == 1024);
        al_safetensors_free(st);
        free(b);
        free(h);
    }

    expect_fail("metadata value a number", "{\"__metadata__\": {\"layers\": 2}}", NULL, 0,
                AL_ERR_FORMAT, "__metadata__ \"layers\" must be a string, found a number");
    expect_fail("metadata value an object", "{\"__metadata__\": {\"config\": {\"d\": 2}}}", NULL, 0,
                AL_ERR_FORMAT, "__metadata__ \"config\" must be a string, found an object");
    expect_fail("metadata value null", "{\"__metadata__\": {\"x\": null}}", NULL, 0, AL_ERR_FORMAT,
                "must be a string, found null");
    expect_fail("metadata not an object", "{\"__metadata__\": [\"a\"]}", NULL, 0, AL_ERR_FORMAT,
                "\"__metadata__\" must be an object of strings, found an array");
    expect_fail("NUL in a metadata value", "{\"__metadata__\": {\"k\": \"a\\u0000b\"}}", NULL, 0,
                AL_ERR_FORMAT, "__metadata__ \"k\": the value contains a NUL character");

    expect_fail("unknown dtype",
                "{\"w\": {\"dtype\": \"F31\", \"shape\": [1], \"data_offsets\": [0, 4]}}", four, 4,
                AL_ERR_FORMAT, "tensor \"w\": unknown dtype \"F31\"");
    expect_fail("lowercase dtype",
                "{\"w\": {\"dtype\": \"f32\", \"shape\": [1], \"data_offsets\": [0, 4]}}", four, 4,
                AL_ERR_FORMAT, "unknown dtype \"f32\"");
    static const char *unsupported[] = { "F64", "I64", "I32",  "I16",     "U8",     "U16",
                                         "U32", "U64", "BOOL", "F8_E4M3", "F8_E5M2" };
    for (size_t k = 0; k < sizeof unsupported / sizeof *unsupported; k++) {
        char h[160], want[80], what[60];
        snprintf(h, sizeof h,
                 "{\"ids\": {\"dtype\": \"%s\", \"shape\": [1], \"data_offsets\": [0, 1]}}",
                 unsupported[k]);
        snprintf(want, sizeof want, "tensor \"ids\": dtype %s is not supported", unsupported[k]);
        snprintf(what, sizeof what, "unsupported dtype %s", unsupported[k]);
        expect_fail(what, h, four, 1, AL_ERR_UNSUPPORTED, want);
    }

    expect_fail("missing dtype", "{\"w\": {\"shape\": [1], \"data_offsets\": [0, 4]}}", four, 4,
                AL_ERR_FORMAT, "tensor \"w\": missing \"dtype\"");
    expect_fail("missing shape", "{\"w\": {\"dtype\": \"F32\", \"data_offsets\": [0, 4]}}", four, 4,
                AL_ERR_FORMAT, "tensor \"w\": missing \"shape\"");
    expect_fail("missing data_offsets", "{\"w\": {\"dtype\": \"F32\", \"shape\": [1]}}", four, 4,
                AL_ERR_FORMAT, "tensor \"w\": missing \"data_offsets\"");
    expect_fail("empty tensor entry", "{\"w\": {}}", NULL, 0, AL_ERR_FORMAT,
                "tensor \"w\": missing \"dtype\"");
    expect_fail("extra field", "{\"w\": {" T1 ", \"layout\": \"nchw\"}}", four, 4, AL_ERR_FORMAT,
                "tensor \"w\": unknown field \"layout\" (expected dtype, shape, data_offsets)");
    expect_fail("tensor entry a string", "{\"w\": \"F32\"}", NULL, 0, AL_ERR_FORMAT,
                "tensor \"w\": expected an object {dtype, shape, data_offsets}, found a string");
    expect_fail("dtype a number",
                "{\"w\": {\"dtype\": 32, \"shape\": [1], \"data_offsets\": [0, 4]}}", four, 4,
                AL_ERR_FORMAT, "tensor \"w\": \"dtype\" must be a string, found a number");
    expect_fail("shape a string",
                "{\"w\": {\"dtype\": \"F32\", \"shape\": \"1\", \"data_offsets\": [0, 4]}}", four,
                4, AL_ERR_FORMAT,
                "tensor \"w\": \"shape\" must be an array of integers, found a string");
    expect_fail("shape entry fractional",
                "{\"w\": {\"dtype\": \"F32\", \"shape\": [1.5], \"data_offsets\": [0, 4]}}", four,
                4, AL_ERR_FORMAT, "tensor \"w\": shape[0] is \"1.5\", not an integer in [0, 2^53]");
    expect_fail("shape entry with exponent",
                "{\"w\": {\"dtype\": \"F32\", \"shape\": [1e0], \"data_offsets\": [0, 4]}}", four,
                4, AL_ERR_FORMAT, "shape[0] is \"1e0\"");
    expect_fail("shape entry negative",
                "{\"w\": {\"dtype\": \"F32\", \"shape\": [2, -1], \"data_offsets\": [0, 4]}}", four,
                4, AL_ERR_FORMAT, "tensor \"w\": shape[1] is \"-1\", not an integer");
    expect_fail("shape entry a string",
                "{\"w\": {\"dtype\": \"F32\", \"shape\": [\"1\"], \"data_offsets\": [0, 4]}}", four,
                4, AL_ERR_FORMAT, "shape[0] is a string");
    expect_fail(
        "shape entry over 2^53",
        "{\"w\": {\"dtype\": \"F32\", \"shape\": [9007199254740993], \"data_offsets\": [0, 4]}}",
        four, 4, AL_ERR_FORMAT, "shape[0] is \"9007199254740993\"");
    expect_fail("data_offsets an object",
                "{\"w\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": {\"begin\": 0}}}",
                four, 4, AL_ERR_FORMAT,
                "\"data_offsets\" must be an array [begin, end], found an object");
    expect_fail("data_offsets one entry",
                "{\"w\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0]}}", four, 4,
                AL_ERR_FORMAT, "\"data_offsets\" must be [begin, end], found 1 entry");
    expect_fail("data_offsets three entries",
                "{\"w\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4, 8]}}", four,
                4, AL_ERR_FORMAT, "found 3 entries");
    expect_fail("data_offsets negative",
                "{\"w\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [-4, 0]}}", four, 4,
                AL_ERR_FORMAT, "data_offsets[0] is \"-4\"");
    expect_fail(
        "rank 9",
        "{\"w\": {\"dtype\": \"F32\", \"shape\": [1,1,1,1,1,1,1,1,1], \"data_offsets\": [0, 4]}}",
        four, 4, AL_ERR_UNSUPPORTED, "tensor \"w\": rank above attnlab's limit of 8");

    expect_fail(
        "shape product over 2^31",
        "{\"w\": {\"dtype\": \"F32\", \"shape\": [65536, 32768], \"data_offsets\": [0, 4]}}", four,
        4, AL_ERR_OVERFLOW, "tensor \"w\": shape [65536, 32768] has more than 2^31 - 1 elements");
    expect_fail("shape product over 2^64",
                "{\"w\": {\"dtype\": \"F32\", \"shape\": [9007199254740992, 9007199254740992, "
                "4096], \"data_offsets\": [0, 4]}}",
                four, 4, AL_ERR_OVERFLOW, "has more than 2^31 - 1 elements");
    expect_fail("shape product wrapping to a small number",
                "{\"w\": {\"dtype\": \"F32\", \"shape\": [4294967296, 4294967296, 1], "
                "\"data_offsets\": [0, 4]}}",
                four, 4, AL_ERR_OVERFLOW, "more than 2^31 - 1 elements");
    expect_fail(
        "zero-size with a huge dimension",
        "{\"w\": {\"dtype\": \"F32\", \"shape\": [0, 1099511627776], \"data_offsets\": [0, 0]}}",
        NULL, 0, AL_ERR_OVERFLOW, "shape [0, 1099511627776] has a dimension over 2^31 - 1");

    expect_fail(
        "bytes disagree with the shape",
        "{\"enc.weight\": {\"dtype\": \"F32\", \"shape\": [5, 5], \"data_offsets\": [0, 96]}}",
        NULL, 0, AL_ERR_FORMAT, "data_offsets [0, 96] past the end of the data buffer (0 bytes)");
    {
        uint8_t d[100] = { 0 };
        expect_fail(
            "bytes disagree with the shape (in range)",
            "{\"enc.weight\": {\"dtype\": \"F32\", \"shape\": [5, 5], \"data_offsets\": [0, 96]}}",
            d, 100, AL_ERR_FORMAT,
            "tensor \"enc.weight\": data_offsets [0, 96] but shape [5, 5] F32 needs 100 bytes");
        expect_fail("F16 bytes disagree",
                    "{\"h\": {\"dtype\": \"F16\", \"shape\": [3], \"data_offsets\": [0, 4]}}", d, 4,
                    AL_ERR_FORMAT,
                    "tensor \"h\": data_offsets [0, 4] but shape [3] F16 needs 6 bytes");
        expect_fail("end before begin",
                    "{\"w\": {\"dtype\": \"F32\", \"shape\": [0], \"data_offsets\": [8, 4]}}", d, 8,
                    AL_ERR_FORMAT, "tensor \"w\": data_offsets [8, 4] end before begin");
        expect_fail("offsets out of range",
                    "{\"w\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [8, 12]}}", d,
                    8, AL_ERR_FORMAT,
                    "tensor \"w\": data_offsets [8, 12] past the end of the data buffer (8 bytes)");
        expect_fail("offsets near 2^53",
                    "{\"w\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": "
                    "[9007199254740988, 9007199254740992]}}",
                    d, 8, AL_ERR_FORMAT, "past the end of the data buffer");
        expect_fail(
            "a gap between tensors",
            "{\"a\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4]}, \"b\": "
            "{\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [8, 12]}}",
            d, 12, AL_ERR_FORMAT,
            "gap in the data buffer: bytes [4, 8) belong to no tensor (before tensor \"b\")");
        expect_fail("a gap at the start",
                    "{\"a\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [4, 8]}}", d, 8,
                    AL_ERR_FORMAT, "gap in the data buffer: bytes [0, 4)");
        expect_fail("overlapping tensors",
                    "{\"a\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [0, 8]}, "
                    "\"b\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [4, 12]}}",
                    d, 12, AL_ERR_FORMAT, "tensor \"b\" [4, 12] overlaps tensor \"a\" [0, 8]");
        expect_fail("the same range twice",
                    "{\"a\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4]}, "
                    "\"b\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4]}}",
                    d, 4, AL_ERR_FORMAT, "overlaps tensor");
        expect_fail("a zero-size tensor inside another",
                    "{\"a\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [0, 8]}, "
                    "\"z\": {\"dtype\": \"F32\", \"shape\": [0], \"data_offsets\": [4, 4]}}",
                    d, 8, AL_ERR_FORMAT, "tensor \"z\" [4, 4] overlaps tensor \"a\" [0, 8]");
        expect_fail(
            "trailing bytes", "{\"w\": {" T1 "}}", d, 8, AL_ERR_FORMAT,
            "4 trailing bytes after the last tensor (tensors cover 4 of the 8-byte data buffer)");
        expect_fail("data but no tensors", "{}", d, 3, AL_ERR_FORMAT, "3 trailing bytes");
    }
}

/* ------------------------------------------------------------------ weights */

static void test_nonfinite(void)
{
    uint8_t d[12];
    put_f32(d, 1.0f);
    put_f32(d + 4, 2.0f);
    put_f32(d + 8, NAN);
    const char *h =
        "{\"enc.weight\": {\"dtype\": \"F32\", \"shape\": [3], \"data_offsets\": [0, 12]}}";
    expect_fail("F32 NaN", h, d, 12, AL_ERR_NONFINITE,
                "tensor \"enc.weight\": NaN at flat index 2; attnlab refuses non-finite weights");
    put_f32(d + 8, 3.0f);
    put_f32(d + 4, -INFINITY);
    expect_fail("F32 -Inf", h, d, 12, AL_ERR_NONFINITE,
                "tensor \"enc.weight\": -Infinity at flat index 1");
    put_f32(d + 4, INFINITY);
    expect_fail("F32 Inf", h, d, 12, AL_ERR_NONFINITE, "Infinity at flat index 1");
    /* largest finite float passes */
    put_f32(d + 4, 3.4028235e38f);
    size_t n;
    uint8_t *b = file_make(h, d, 12, &n);
    al_safetensors *st = expect_open("F32 FLT_MAX is finite", b, n);
    al_safetensors_free(st);
    free(b);

    static const uint8_t h16[6] = { 0x00, 0x3C, 0x00, 0x7C, 0x00, 0x00 }; /* 1, +Inf, 0 */
    expect_fail("F16 Inf",
                "{\"h\": {\"dtype\": \"F16\", \"shape\": [3], \"data_offsets\": [0, 6]}}", h16, 6,
                AL_ERR_NONFINITE, "tensor \"h\": Infinity at flat index 1");
    static const uint8_t n16[4] = { 0x00, 0x3C, 0x01, 0xFE }; /* 1, NaN */
    expect_fail("F16 NaN",
                "{\"h\": {\"dtype\": \"F16\", \"shape\": [2], \"data_offsets\": [0, 4]}}", n16, 4,
                AL_ERR_NONFINITE, "tensor \"h\": NaN at flat index 1");
    static const uint8_t b16[4] = { 0x80, 0xFF, 0x80, 0x3F }; /* -Inf, 1 */
    expect_fail("BF16 -Inf",
                "{\"b\": {\"dtype\": \"BF16\", \"shape\": [2], \"data_offsets\": [0, 4]}}", b16, 4,
                AL_ERR_NONFINITE, "tensor \"b\": -Infinity at flat index 0");
    static const uint8_t c16[4] = { 0x80, 0x3F, 0xC1, 0x7F }; /* 1, NaN */
    expect_fail("BF16 NaN",
                "{\"b\": {\"dtype\": \"BF16\", \"shape\": [2], \"data_offsets\": [0, 4]}}", c16, 4,
                AL_ERR_NONFINITE, "tensor \"b\": NaN at flat index 1");
}

/* ------------------------------------------------------------------ I8 */

/* An I8 file: "W" int8 [2, 3] = q, then "W:scale" described by scale_entry (its dtype, shape and
 * data_offsets from byte 6) holding the bytes sc [sc_len]. */
static void expect_fail_i8(const char *what, const int8_t q[6], const char *scale_entry,
                           const uint8_t *sc, size_t sc_len, al_status want, const char *needle)
{
    char h[300];
    snprintf(h, sizeof h,
             "{\"W\": {\"dtype\": \"I8\", \"shape\": [2, 3], \"data_offsets\": [0, 6]},"
             " \"W:scale\": {%s}}",
             scale_entry);
    uint8_t d[32];
    memcpy(d, q, 6);
    memcpy(d + 6, sc, sc_len);
    expect_fail(what, h, d, 6 + sc_len, want, needle);
}

static void test_i8(void)
{
    int base = al_alloc_live();
    /* known answer: q [3, 3] and scales [3] (row 2 all zero with scale 0), the scales listed
     * before the tensor they scale, an F16 bias [2] between them in the data buffer */
    static const int8_t q[9] = { 127, -1, 0, 5, -127, 64, 0, 0, 0 };
    const float sc[3] = { 0.5f, 0.1f, 0.0f };
    uint8_t d[9 + 4 + 12];
    memcpy(d, q, 9);
    static const uint8_t bias16[4] = { 0x00, 0x3C, 0x00, 0xC0 }; /* F16 1, -2 */
    memcpy(d + 9, bias16, 4);
    for (int r = 0; r < 3; r++) put_f32(d + 13 + 4 * r, sc[r]);
    const char *h = "{\"enc.weight:scale\": {\"dtype\": \"F32\", \"shape\": [3], "
                    "\"data_offsets\": [13, 25]},"
                    " \"enc.weight\": {\"dtype\": \"I8\", \"shape\": [3, 3], "
                    "\"data_offsets\": [0, 9]},"
                    " \"enc.bias\": {\"dtype\": \"F16\", \"shape\": [2], "
                    "\"data_offsets\": [9, 13]}}";
    size_t n;
    uint8_t *b = file_make(h, d, sizeof d, &n);
    al_safetensors *st = expect_open("I8 file with per-row scales", b, n);
    if (st) {
        check_true("the scales leave the table: 2 tensors in header order",
                   al_safetensors_count(st) == 2 &&
                       !strcmp(al_safetensors_name(st, 0), "enc.weight") &&
                       !strcmp(al_safetensors_name(st, 1), "enc.bias") &&
                       al_safetensors_find(st, "enc.weight:scale") == -1 &&
                       al_safetensors_find(st, "enc.bias") == 1);
        check_true("I8 dtype and shape",
                   !strcmp(al_safetensors_dtype(st, 0), "I8") && al_safetensors_rank(st, 0) == 2 &&
                       al_safetensors_dim(st, 0, 1) == 3 && al_safetensors_numel(st, 0) == 9);
        float out[9];
        check_true("read the I8 tensor", al_safetensors_read_f32(st, 0, out, 9) == AL_OK);
        /* q * scale[row], one float32 product each: 3 * 0.1f is not 0.3f's nearest float */
        double e[9];
        for (int k = 0; k < 9; k++) e[k] = (double)((float)q[k] * sc[k / 3]);
        check_true("known answer",
                   e[0] == 63.5 && e[1] == -0.5 && e[5] == (double)(64 * 0.1f) && e[6] == 0.0);
        check_close_d("I8 values are int8 * scale[row], exactly", out, e, 9, 0, 0);
        check_true("wrong count", al_safetensors_read_f32(st, 0, out, 8) == AL_ERR_SHAPE);
        check_true("read the F16 bias beside it", al_safetensors_read_f32(st, 1, out, 2) == AL_OK &&
                                                      out[0] == 1.0f && out[1] == -2.0f);
    }
    al_safetensors_free(st);
    free(b);

    /* zero-size I8 tensors: [0, 4] with scales [0], [2, 0] with scales [2] */
    {
        uint8_t z[8];
        put_f32(z, 1.0f);
        put_f32(z + 4, 2.0f);
        b = file_make(
            "{\"a\": {\"dtype\": \"I8\", \"shape\": [0, 4], \"data_offsets\": [0, 0]},"
            " \"a:scale\": {\"dtype\": \"F32\", \"shape\": [0], \"data_offsets\": [0, 0]},"
            " \"b\": {\"dtype\": \"I8\", \"shape\": [2, 0], \"data_offsets\": [0, 0]},"
            " \"b:scale\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [0, 8]}}",
            z, 8, &n);
        st = expect_open("zero-size I8 tensors", b, n);
        check_true("zero-size I8 reads", st && al_safetensors_count(st) == 2 &&
                                             al_safetensors_read_f32(st, 0, NULL, 0) == AL_OK &&
                                             al_safetensors_read_f32(st, 1, NULL, 0) == AL_OK);
        al_safetensors_free(st);
        free(b);
    }
    /* a ":scale" tensor without an I8 tensor of its base name is an ordinary tensor */
    {
        static const uint8_t four[8] = { 0, 0, 128, 63, 0, 0, 0, 64 };
        b = file_make(
            "{\"x:scale\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4]},"
            " \"y\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [4, 8]},"
            " \"y:scale\": {\"dtype\": \"F16\", \"shape\": [0], \"data_offsets\": [8, 8]}}",
            four, 8, &n);
        st = expect_open("\":scale\" tensors without an I8 base", b, n);
        float v = 0;
        check_true("orphan scales stay ordinary tensors",
                   st && al_safetensors_count(st) == 3 && al_safetensors_find(st, "x:scale") == 0 &&
                       !strcmp(al_safetensors_dtype(st, 2), "F16") &&
                       al_safetensors_read_f32(st, 0, &v, 1) == AL_OK && v == 1.0f);
        al_safetensors_free(st);
        free(b);
    }

    /* refusals */
    static const int8_t ok_q[6] = { 1, 2, 3, -4, -5, 127 };
    uint8_t s2[8], s3[12];
    put_f32(s2, 0.5f);
    put_f32(s2 + 4, 2.0f);
    for (int k = 0; k < 3; k++) put_f32(s3 + 4 * k, 1.0f);
    static const int8_t bad_q[6] = { 1, 2, 3, -4, -128, 127 };
    expect_fail_i8("int8 -128", bad_q,
                   "\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [6, 14]", s2, 8,
                   AL_ERR_FORMAT,
                   "tensor \"W\": int8 value -128 at flat index 4; I8 weights are symmetric, in "
                   "[-127, 127]");
    expect_fail("I8 without scales",
                "{\"W\": {\"dtype\": \"I8\", \"shape\": [2, 3], \"data_offsets\": [0, 6]}}", ok_q,
                6, AL_ERR_UNSUPPORTED,
                "tensor \"W\": dtype I8 without its \":scale\" tensor (F32 [2], one scale per "
                "row); attnlab loads I8 only with per-row scales");
    expect_fail("I8 whose scales are spelled otherwise",
                "{\"W\": {\"dtype\": \"I8\", \"shape\": [2, 3], \"data_offsets\": [0, 6]},"
                " \"W.scale\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [6, 14]}}",
                (const uint8_t[]){ 1, 2, 3, 4, 5, 6, 0, 0, 0, 63, 0, 0, 0, 64 }, 14,
                AL_ERR_UNSUPPORTED, "tensor \"W\": dtype I8 without its \":scale\" tensor");
    expect_fail("I8 1-D",
                "{\"ids\": {\"dtype\": \"I8\", \"shape\": [1], \"data_offsets\": [0, 1]}}", ok_q, 1,
                AL_ERR_UNSUPPORTED,
                "tensor \"ids\": I8 [1]; attnlab loads I8 only as 2-D weights "
                "[rows, cols] with per-row scales");
    expect_fail("I8 3-D with scales",
                "{\"W\": {\"dtype\": \"I8\", \"shape\": [2, 1, 3], \"data_offsets\": [0, 6]},"
                " \"W:scale\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [6, 14]}}",
                (const uint8_t[]){ 1, 2, 3, 4, 5, 6, 0, 0, 0, 63, 0, 0, 0, 64 }, 14,
                AL_ERR_UNSUPPORTED, "tensor \"W\": I8 [2, 1, 3]");
    expect_fail("I8 rank 0",
                "{\"s\": {\"dtype\": \"I8\", \"shape\": [], \"data_offsets\": [0, 1]}}", ok_q, 1,
                AL_ERR_UNSUPPORTED, "tensor \"s\": I8 []");
    expect_fail_i8("F16 scales", ok_q,
                   "\"dtype\": \"F16\", \"shape\": [2], \"data_offsets\": [6, 10]", s2, 4,
                   AL_ERR_FORMAT,
                   "tensor \"W:scale\": F16 [2], but the scales of an I8 tensor with 2 rows are "
                   "F32 [2]");
    expect_fail_i8("I8 scales", ok_q, "\"dtype\": \"I8\", \"shape\": [2], \"data_offsets\": [6, 8]",
                   s2, 2, AL_ERR_FORMAT, "tensor \"W:scale\": I8 [2], but the scales of an I8");
    expect_fail_i8("3 scales for 2 rows", ok_q,
                   "\"dtype\": \"F32\", \"shape\": [3], \"data_offsets\": [6, 18]", s3, 12,
                   AL_ERR_FORMAT,
                   "tensor \"W:scale\": F32 [3], but the scales of an I8 tensor "
                   "with 2 rows are F32 [2]");
    expect_fail_i8("scales [2, 1]", ok_q,
                   "\"dtype\": \"F32\", \"shape\": [2, 1], \"data_offsets\": [6, 14]", s2, 8,
                   AL_ERR_FORMAT, "tensor \"W:scale\": F32 [2, 1], but the scales");
    uint8_t sb[8];
    const char *f32_2 = "\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [6, 14]";
    put_f32(sb, 1.0f);
    put_f32(sb + 4, NAN);
    expect_fail_i8("NaN scale", ok_q, f32_2, sb, 8, AL_ERR_NONFINITE,
                   "tensor \"W:scale\": NaN at flat index 1; attnlab refuses non-finite weights");
    put_f32(sb + 4, INFINITY);
    expect_fail_i8("Inf scale", ok_q, f32_2, sb, 8, AL_ERR_NONFINITE,
                   "tensor \"W:scale\": Infinity at flat index 1");
    put_f32(sb + 4, -0.25f);
    expect_fail_i8("negative scale", ok_q, f32_2, sb, 8, AL_ERR_FORMAT,
                   "tensor \"W:scale\": negative scale at row 1 (-0 included); per-row scales "
                   "are >= 0");
    put_f32(sb, -0.0f);
    put_f32(sb + 4, 1.0f);
    expect_fail_i8("-0 scale", ok_q, f32_2, sb, 8, AL_ERR_FORMAT, "negative scale at row 0");
    put_f32(sb, 3.0e36f); /* 127 * 3e36 > FLT_MAX */
    expect_fail_i8("scale over FLT_MAX / 127", ok_q, f32_2, sb, 8, AL_ERR_FORMAT,
                   "tensor \"W:scale\": the scale at row 0 is over FLT_MAX / 127: its weights "
                   "would overflow");
    /* the largest scale that still works (one below FLT_MAX / 127, rounded: 127 times that
     * rounds up to infinity): every weight finite */
    {
        put_f32(sb, 1.0f);
        put_f32(sb + 4, 3.40282347e38f / 127.0f);
        expect_fail_i8("scale FLT_MAX / 127, rounded up", ok_q, f32_2, sb, 8, AL_ERR_FORMAT,
                       "the scale at row 1 is over FLT_MAX / 127");
        put_f32(sb + 4, nextafterf(3.40282347e38f / 127.0f, 0.0f));
        uint8_t d6[14];
        memcpy(d6, ok_q, 6);
        memcpy(d6 + 6, sb, 8);
        b = file_make(
            "{\"W\": {\"dtype\": \"I8\", \"shape\": [2, 3], \"data_offsets\": [0, 6]},"
            " \"W:scale\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [6, 14]}}",
            d6, 14, &n);
        st = expect_open("scale FLT_MAX / 127", b, n);
        float o6[6] = { 0 };
        check_true("FLT_MAX / 127 scale reads finite",
                   st && al_safetensors_read_f32(st, 0, o6, 6) == AL_OK && isfinite(o6[5]) &&
                       o6[5] > 3.0e38f);
        al_safetensors_free(st);
        free(b);
    }
    check_true("I8 files: allocations back to baseline", al_alloc_live() == base);
}

/* ------------------------------------------------------------------ valid files */

static void test_valid(void)
{
    int base = al_alloc_live();
    /* F32 [2,3] at 0, F16 [4] at 24, BF16 [2] at 32, zero-size F32 [0,3] at 36, rank-0 F32 at 36 */
    uint8_t d[40];
    float f32v[6] = { 1.5f, -2.25f, 0.0f, 1e-30f, -3.4e38f, 7.0f };
    for (int k = 0; k < 6; k++) put_f32(d + 4 * k, f32v[k]);
    /* F16: 1.0, 2^-24 (smallest subnormal), 1023·2^-24 (largest subnormal), -65504 */
    static const uint8_t h16[8] = { 0x00, 0x3C, 0x01, 0x00, 0xFF, 0x03, 0xFF, 0xFB };
    memcpy(d + 24, h16, 8);
    static const uint8_t b16[4] = { 0x49, 0x40, 0x00, 0xC0 }; /* 3.140625, -2 */
    memcpy(d + 32, b16, 4);
    put_f32(d + 36, -0.5f);
    const char *h =
        "{\"__metadata__\": {\"config\": \"{\\\"d_model\\\": 4, \\\"name\\\": \\\"t\\u00e9st "
        "\\ud83d\\ude00\\\"}\", \"format\": \"pt\"},"
        " \"w\": {\"dtype\": \"F32\", \"shape\": [2, 3], \"data_offsets\": [0, 24]},"
        " \"half\": {\"data_offsets\": [24, 32], \"shape\": [4], \"dtype\": \"F16\"},"
        " \"bf\": {\"dtype\": \"BF16\", \"shape\": [2], \"data_offsets\": [32, 36]},"
        " \"empty\": {\"dtype\": \"F32\", \"shape\": [0, 3], \"data_offsets\": [36, 36]},"
        " \"scalar\": {\"dtype\": \"F32\", \"shape\": [], \"data_offsets\": [36, 40]},"
        " \"\\ud83d\\ude00\": {\"dtype\": \"F16\", \"shape\": [0], \"data_offsets\": [40, 40]}}   ";
    size_t n;
    uint8_t *b = file_make(h, d, 40, &n);
    al_safetensors *st = expect_open("valid F32/F16/BF16/zero-size/rank-0 file", b, n);
    if (st) {
        check_true("6 tensors", al_safetensors_count(st) == 6);
        check_true("header order", !strcmp(al_safetensors_name(st, 0), "w") &&
                                       !strcmp(al_safetensors_name(st, 4), "scalar"));
        check_true("dtypes", !strcmp(al_safetensors_dtype(st, 0), "F32") &&
                                 !strcmp(al_safetensors_dtype(st, 1), "F16") &&
                                 !strcmp(al_safetensors_dtype(st, 2), "BF16"));
        check_true("shape of w",
                   al_safetensors_rank(st, 0) == 2 && al_safetensors_dim(st, 0, 0) == 2 &&
                       al_safetensors_dim(st, 0, 1) == 3 && al_safetensors_numel(st, 0) == 6);
        check_true("zero-size tensor", al_safetensors_numel(st, 3) == 0 &&
                                           al_safetensors_dim(st, 3, 0) == 0 &&
                                           al_safetensors_read_f32(st, 3, NULL, 0) == AL_OK);
        check_true("rank-0 tensor",
                   al_safetensors_rank(st, 4) == 0 && al_safetensors_numel(st, 4) == 1);
        check_true("surrogate-pair name decoded", al_safetensors_find(st, "\xf0\x9f\x98\x80") == 5);
        check_true("find", al_safetensors_find(st, "bf") == 2 &&
                               al_safetensors_find(st, "nope") == -1 &&
                               al_safetensors_find(st, NULL) == -1);
        float out[6];
        check_true("read w", al_safetensors_read_f32(st, 0, out, 6) == AL_OK);
        check_close_f("w values", out, f32v, 6, 0, 0);
        check_true("read half", al_safetensors_read_f32(st, 1, out, 4) == AL_OK);
        double e16[4] = { 1.0, ldexp(1, -24), 1023 * ldexp(1, -24), -65504.0 };
        check_close_d("F16 values (exact, subnormals included)", out, e16, 4, 0, 0);
        check_true("read bf", al_safetensors_read_f32(st, 2, out, 2) == AL_OK);
        double eb[2] = { 3.140625, -2.0 };
        check_close_d("BF16 values", out, eb, 2, 0, 0);
        check_true("read scalar",
                   al_safetensors_read_f32(st, 4, out, 1) == AL_OK && out[0] == -0.5f);
        check_true("wrong element count", al_safetensors_read_f32(st, 0, out, 5) == AL_ERR_SHAPE);
        check_true("bad index",
                   al_safetensors_read_f32(st, 6, out, 1) == AL_ERR_ARGUMENT &&
                       al_safetensors_read_f32(st, -1, out, 1) == AL_ERR_ARGUMENT &&
                       al_safetensors_name(st, 6) == NULL && al_safetensors_dtype(st, -1) == NULL &&
                       al_safetensors_rank(st, 9) == -1 && al_safetensors_dim(st, 0, 2) == -1 &&
                       al_safetensors_dim(st, 0, -1) == -1 && al_safetensors_numel(st, 7) == -1);
        check_true("NULL out with n > 0",
                   al_safetensors_read_f32(st, 0, NULL, 6) == AL_ERR_ARGUMENT);
        check_true("metadata", al_safetensors_meta_count(st) == 2 &&
                                   !strcmp(al_safetensors_meta_key(st, 1), "format") &&
                                   !strcmp(al_safetensors_meta_value(st, 1), "pt") &&
                                   al_safetensors_meta_key(st, 2) == NULL &&
                                   al_safetensors_meta_value(st, -1) == NULL);
        const char *cfg = al_safetensors_meta_find(st, "config");
        check_true(
            "config string decoded",
            cfg && !strcmp(cfg, "{\"d_model\": 4, \"name\": \"t\xc3\xa9st \xf0\x9f\x98\x80\"}"));
        check_true("missing key", al_safetensors_meta_find(st, "missing") == NULL);
    }
    al_safetensors_free(st);
    free(b);
    check_true("NULL handle accessors", al_safetensors_count(NULL) == 0 &&
                                            al_safetensors_name(NULL, 0) == NULL &&
                                            al_safetensors_meta_find(NULL, "x") == NULL);
    al_safetensors_free(NULL);

    /* misaligned F32: the data starts at file offset 8 + 61 = 69 */
    {
        const char *hm =
            "{\"w\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12]}}    "; /* 58 + 3 */
        uint8_t dm[12];
        float v[3] = { 0.1f, -123.5f, 6e-39f };
        for (int k = 0; k < 3; k++) put_f32(dm + 4 * k, v[k]);
        uint8_t *bm = file_make(hm, dm, 12, &n);
        check_true("data really misaligned", ((8 + strlen(hm)) & 3) != 0);
        st = expect_open("misaligned F32", bm, n);
        float o[3] = { 0, 0, 0 };
        check_true("misaligned read", st && al_safetensors_read_f32(st, 0, o, 3) == AL_OK);
        check_close_f("misaligned values", o, v, 3, 0, 0);
        al_safetensors_free(st);
        free(bm);
    }
    /* the smallest files: {} alone, and keys spelled with escapes */
    {
        static const uint8_t four[4] = { 0, 0, 128, 63 };
        uint8_t *be = file_make("{}", NULL, 0, &n);
        st = expect_open("empty header {}", be, n);
        check_true("no tensors",
                   st && al_safetensors_count(st) == 0 && al_safetensors_meta_count(st) == 0);
        al_safetensors_free(st);
        free(be);
        be = file_make("{\"w\": {\"\\u0064\\u0074\\u0079\\u0070\\u0065\": "
                       "\"\\u0046\\u0031\\u0036\", \"shape\": [], \"data_offsets\": [0, 2]}}",
                       four, 2, &n);
        st = expect_open("escaped field name and dtype", be, n);
        check_true("escaped dtype decoded", st && !strcmp(al_safetensors_dtype(st, 0), "F16"));
        al_safetensors_free(st);
        free(be);
        be = file_make("{\"\\u005f_metadata__\": {\"a\": \"\"}}", NULL, 0, &n);
        st = expect_open("escaped __metadata__ key", be, n);
        check_true("escaped __metadata__ is metadata",
                   st && al_safetensors_meta_count(st) == 1 &&
                       !strcmp(al_safetensors_meta_find(st, "a"), ""));
        al_safetensors_free(st);
        free(be);
    }
    /* err may be NULL, or tiny: truncated, always terminated */
    {
        uint8_t *bx = file_make("[]", NULL, 0, &n);
        al_safetensors *sx;
        check_true("NULL err buffer", al_safetensors_open(bx, n, &sx, NULL, 0) == AL_ERR_FORMAT);
        char tiny[8];
        memset(tiny, 'x', sizeof tiny);
        check_true("tiny err buffer",
                   al_safetensors_open(bx, n, &sx, tiny, sizeof tiny) == AL_ERR_FORMAT &&
                       strlen(tiny) == 7 && !strncmp(tiny, "header ", 7));
        free(bx);
    }
    check_true("valid files: allocations back to baseline", al_alloc_live() == base);
}

/* load/free many times: nothing accumulates */
static void test_cycles(void)
{
    int base = al_alloc_live();
    size_t n;
    static const uint8_t four[4] = { 0, 0, 128, 63 };
    uint8_t *b = file_make("{\"__metadata__\": {\"k\": \"v\"}, \"w\": {" T1 "}}", four, 4, &n);
    int ok = 1;
    for (int k = 0; k < 1000; k++) {
        al_safetensors *st;
        ok &= al_safetensors_open(b, n, &st, err, sizeof err) == AL_OK;
        al_safetensors_free(st);
        ok &= al_safetensors_open(b, n - 1, &st, err, sizeof err) != AL_OK;
    }
    free(b);
    check_true("1000 load/free cycles", ok && al_alloc_live() == base);
}

int main(void)
{
    (void)check_fill; /* check.h helpers this suite does not need */
    (void)check_seed;
    test_prefix();
    test_json();
    test_schema();
    test_nonfinite();
    test_i8();
    test_valid();
    test_cycles();
    return check_report("test_safetensors");
}
