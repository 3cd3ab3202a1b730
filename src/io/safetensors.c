/*
 * io/safetensors.c: the safetensors loader's entry point and accessors (API and limits in
 * api/safetensors.h; the format, policies and every error message in docs/model-format.md).
 * Steps 1, 2 and the allocation are here, step 3 in io/safetensors_parse.c, step 4 in
 * io/safetensors_check.c; what they share is io/safetensors_table.h.
 *
 * Format (https://github.com/huggingface/safetensors, "Format"): 8 bytes N (u64 little-endian),
 * N bytes of UTF-8 JSON {name: {"dtype", "shape", "data_offsets": [begin, end]},
 * "__metadata__": {str: str}}, then the data buffer; offsets are relative to its start.
 *
 * How it stays safe on hostile bytes:
 *   1. the length prefix is checked in 64-bit arithmetic before anything else (wasm32's size_t
 *      is 32 bits); an HTML page or JSON text in place of a model is recognised and named;
 *   2. the header is checked as UTF-8 and then as JSON (json_validate: no recursion, depth cap);
 *   3. al_st_parse() walks the fixed schema once to count and check every tensor (dtype, shape
 *      with checked products, offsets against the shape and the buffer, finite weights) without
 *      allocating; then one block is allocated for the handle, its tables and its strings, and
 *      al_st_parse() runs again to fill it;
 *   4. what needs the whole table is checked last: duplicate names and keys (sorted), and that
 *      the byte ranges tile the data buffer exactly (no gaps, overlaps or trailing bytes).
 * Every failure frees what was allocated and writes one message naming the tensor or key.
 *
 * I8 (docs/model-format.md, "I8: per-row int8 weights"): a 2-D tensor W [rows, cols] of int8 in
 * [-127, 127] with its scales in the F32 tensor "W:scale" [rows]; it reads as float32
 * q * scale[row]. link_i8() pairs each I8 tensor with its scales once the names are sorted, and
 * the scale tensors then leave the table: callers see W alone, dtype "I8".
 *
 * Deliberately not here: file or network access, memory mapping, writing safetensors, dtypes
 * other than F32/F16/BF16/I8 (they are recognised and refused by name), big-endian hosts' F32
 * fast path (bytes are assembled explicitly, so any host and any alignment work).
 */
#include <string.h>

#include "io/safetensors_table.h"

/* ------------------------------------------------------------------ open */

/* First bytes that make sense to a person: an HTML page or bare JSON served instead of a model. */
static int sniff(const uint8_t *b, size_t len, al_msg *m)
{
    size_t i = 0;
    if (len >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) i = 3; /* UTF-8 BOM */
    while (i < len && i < 64 && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) i++;
    if (i >= len || (b[i] != '<' && b[i] != '{')) return 0;
    size_t n = 0;
    while (i + n < len && n < 24 && b[i + n] >= 0x20 && b[i + n] < 0x7F) n++;
    al_msg_str(m, b[i] == '<' ? "this looks like an HTML page, not safetensors (it starts "
                              : "this looks like JSON text, not safetensors (it starts ");
    al_st_quote(m, (const char *)b + i, n);
    al_msg_str(m, b[i] == '<' ? "): check the URL, the server's error page is not a model"
                              : "): a safetensors file starts with an 8-byte header length");
    return 1;
}

static al_status open_checked(const uint8_t *bytes, size_t len, al_safetensors **out, al_msg *m)
{
    if (len == 0) {
        al_msg_str(m, "empty file (0 bytes)");
        return AL_ERR_FORMAT;
    }
    if (len < 8) {
        if (sniff(bytes, len, m)) return AL_ERR_FORMAT;
        al_msg_str(m, "file is ");
        al_msg_uint(m, len);
        al_msg_str(m, " bytes, shorter than the 8-byte header length");
        return AL_ERR_FORMAT;
    }
    uint64_t n = 0;
    for (int k = 7; k >= 0; k--) n = n << 8 | bytes[k];
    uint64_t after = (uint64_t)len - 8;
    if (n > after) {
        if (sniff(bytes, len, m)) return AL_ERR_FORMAT;
        al_msg_str(m, "header length ");
        al_msg_uint(m, n);
        if (n == UINT64_MAX)
            al_msg_str(m, " (2^64 - 1, all bits set)");
        else if (n >= (uint64_t)1 << 53)
            al_msg_str(m, " (>= 2^53)");
        else if (n >= (uint64_t)1 << 32)
            al_msg_str(m, " (>= 2^32)");
        al_msg_str(m, " is larger than the ");
        al_msg_uint(m, after);
        al_msg_str(m, " bytes after it");
        al_msg_str(m, n >= (uint64_t)1 << 32 ? ": not a safetensors file?" : ": truncated file?");
        return AL_ERR_FORMAT;
    }
    if (n > AL_SAFETENSORS_MAX_HEADER) {
        al_msg_str(m, "header length ");
        al_msg_uint(m, n);
        al_msg_str(m, " is over attnlab's header cap of 16777216 bytes (16 MiB)");
        return AL_ERR_UNSUPPORTED;
    }
    if (n < 2) {
        al_msg_str(m, "header length ");
        al_msg_uint(m, n);
        al_msg_str(m, " is too short for a JSON object");
        return AL_ERR_FORMAT;
    }
    const char *h = (const char *)bytes + 8;
    size_t hn = (size_t)n, bad;
    if (json_utf8_check((const uint8_t *)h, hn, &bad)) {
        static const char hex[] = "0123456789abcdef";
        char b[5] = { '0', 'x', hex[(uint8_t)h[bad] >> 4], hex[(uint8_t)h[bad] & 15], 0 };
        al_msg_str(m, "header is not valid UTF-8: byte ");
        al_msg_str(m, b);
        al_msg_str(m, " at header offset ");
        al_msg_uint(m, bad);
        return AL_ERR_FORMAT;
    }
    struct json_error je;
    if (json_validate(h, hn, &je)) {
        al_msg_str(m, "header is not valid JSON: ");
        al_msg_str(m, je.what);
        al_msg_str(m, " at header offset ");
        al_msg_uint(m, je.pos);
        al_msg_str(m, " of ");
        al_msg_uint(m, hn);
        return AL_ERR_FORMAT;
    }
    struct st_ctx x;
    memset(&x, 0, sizeof x);
    x.c.s = h;
    x.c.n = hn;
    x.data = bytes + 8 + hn;
    x.data_len = after - n;
    x.m = m;
    json_ws(&x.c);
    if (json_peek(&x.c) != '{') {
        al_msg_str(m, "header is ");
        al_msg_str(m, json_kind(&x.c));
        al_msg_str(m, ", not a JSON object");
        return AL_ERR_FORMAT;
    }
    al_status s = al_st_parse(&x);
    if (s != AL_OK) return s;

    /* one block: handle, tensor table, metadata table, sort scratch, strings */
    uint64_t nt = x.n_tensors, nm = x.n_meta, no = nt > nm ? nt : nm;
    uint64_t a0 = (sizeof(al_safetensors) + 7) & ~(uint64_t)7;
    uint64_t a1 = a0 + nt * sizeof(struct st_tensor);
    uint64_t a2 = a1 + ((nm * sizeof(struct st_meta) + 7) & ~(uint64_t)7);
    uint64_t a3 = a2 + ((no * sizeof(void *) + 7) & ~(uint64_t)7);
    uint64_t total = a3 + x.str_bytes;
    if (nt > 0x7FFFFFFF || nm > 0x7FFFFFFF || total > SIZE_MAX) {
        al_msg_str(m, "header describes more tensors than fit in memory");
        return AL_ERR_OVERFLOW;
    }
    char *block = al_malloc((size_t)total);
    if (!block) {
        al_msg_str(m, "out of memory allocating ");
        al_msg_uint(m, total);
        al_msg_str(m, " bytes for the tensor table");
        return AL_ERR_NOMEM;
    }
    al_safetensors *st = (al_safetensors *)block;
    memset(st, 0, sizeof *st);
    st->data = x.data;
    st->data_len = x.data_len;
    st->n_tensors = (int)nt;
    st->tensors = (struct st_tensor *)(block + a0);
    st->meta = (struct st_meta *)(block + a1);
    st->order = (void **)(block + a2);
    st->pool = block + a3;

    x.c.i = 0;
    x.fill = 1;
    x.st = st;
    s = al_st_parse(&x);
    if (s == AL_OK) s = al_st_check_table(st, m);
    if (s != AL_OK) {
        if (m->len == 0) al_msg_str(m, "internal error: the second pass disagreed with the first");
        al_free(block);
        return s;
    }
    *out = st;
    return AL_OK;
}

al_status al_safetensors_open(const uint8_t *bytes, size_t len, al_safetensors **out, char *err,
                              size_t err_cap)
{
    al_msg m = { err, err_cap, 0 };
    if (err && err_cap) err[0] = 0;
    if (!out || (!bytes && len)) {
        al_msg_str(&m, out ? "bytes is NULL" : "out is NULL");
        return AL_ERR_ARGUMENT;
    }
    *out = NULL;
    al_status s = open_checked(bytes ? bytes : (const uint8_t *)"", len, out, &m);
    al_msg_end(&m);
    return s;
}

void al_safetensors_free(al_safetensors *st) { al_free(st); }

/* ------------------------------------------------------------------ accessors */

static const struct st_tensor *tensor_at(const al_safetensors *st, int i)
{
    return st && i >= 0 && i < st->n_tensors ? &st->tensors[i] : NULL;
}

int al_safetensors_count(const al_safetensors *st) { return st ? st->n_tensors : 0; }

const char *al_safetensors_name(const al_safetensors *st, int i)
{
    const struct st_tensor *t = tensor_at(st, i);
    return t ? t->name : NULL;
}

const char *al_safetensors_dtype(const al_safetensors *st, int i)
{
    const struct st_tensor *t = tensor_at(st, i);
    return t ? al_st_dtypes[t->dtype].name : NULL;
}

int al_safetensors_rank(const al_safetensors *st, int i)
{
    const struct st_tensor *t = tensor_at(st, i);
    return t ? t->rank : -1;
}

int al_safetensors_dim(const al_safetensors *st, int i, int axis)
{
    const struct st_tensor *t = tensor_at(st, i);
    return t && axis >= 0 && axis < t->rank ? t->shape[axis] : -1;
}

int al_safetensors_numel(const al_safetensors *st, int i)
{
    const struct st_tensor *t = tensor_at(st, i);
    return t ? t->numel : -1;
}

int al_safetensors_find(const al_safetensors *st, const char *name)
{
    if (!st || !name) return -1;
    for (int i = 0; i < st->n_tensors; i++)
        if (!strcmp(st->tensors[i].name, name)) return i;
    return -1;
}

/* IEEE 754 binary16 -> binary32, exact (every half is a float). */
static float f16_to_f32(unsigned h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1F, mant = h & 0x3FF, bits;
    if (e == 0) {
        if (mant == 0) {
            bits = sign;
        } else { /* subnormal mant · 2^-24: shift until the implicit bit appears */
            uint32_t shift = 0;
            while (!(mant & 0x400)) {
                mant <<= 1;
                shift++;
            }
            bits = sign | ((113 - shift) << 23) | ((mant & 0x3FF) << 13);
        }
    } else if (e == 31) {
        bits = sign | 0x7F800000u | (mant << 13);
    } else {
        bits = sign | ((e + 112) << 23) | (mant << 13);
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

al_status al_safetensors_read_f32(const al_safetensors *st, int i, float *out, size_t n)
{
    const struct st_tensor *t = tensor_at(st, i);
    if (!t) return AL_ERR_ARGUMENT;
    if (n != (size_t)t->numel) return AL_ERR_SHAPE;
    if (n && !out) return AL_ERR_ARGUMENT;
    const uint8_t *p = st->data + (size_t)t->begin;
    if (t->dtype == DT_I8) { /* q [rows, cols] * scale [rows]: one float32 product per weight */
        const size_t cols = (size_t)t->shape[1];
        for (size_t r = 0; r * cols < n; r++) {
            const float s = al_st_f32(st->data + (size_t)t->scale_begin + 4 * r);
            for (size_t c = 0; c < cols; c++) {
                const int q = (int)p[r * cols + c] - (p[r * cols + c] >> 7 << 8); /* two's compl. */
                out[r * cols + c] = (float)q * s;
            }
        }
        return AL_OK;
    }
    for (size_t k = 0; k < n; k++) {
        if (t->dtype == DT_F32) {
            out[k] = al_st_f32(p + 4 * k);
            continue;
        }
        const uint8_t *b = p + 2 * k;
        unsigned h = (unsigned)b[0] | (unsigned)b[1] << 8;
        if (t->dtype == DT_F16) {
            out[k] = f16_to_f32(h);
            continue;
        }
        uint32_t bits = (uint32_t)h << 16; /* bfloat16 is the top half of a float32 */
        memcpy(&out[k], &bits, 4);
    }
    return AL_OK;
}

int al_safetensors_meta_count(const al_safetensors *st) { return st ? st->n_meta : 0; }

const char *al_safetensors_meta_key(const al_safetensors *st, int i)
{
    return st && i >= 0 && i < st->n_meta ? st->meta[i].key : NULL;
}

const char *al_safetensors_meta_value(const al_safetensors *st, int i)
{
    return st && i >= 0 && i < st->n_meta ? st->meta[i].value : NULL;
}

const char *al_safetensors_meta_find(const al_safetensors *st, const char *key)
{
    if (!st || !key) return NULL;
    for (int i = 0; i < st->n_meta; i++)
        if (!strcmp(st->meta[i].key, key)) return st->meta[i].value;
    return NULL;
}
