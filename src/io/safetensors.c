/*
 * io/safetensors.c: the safetensors loader (API and limits in api/safetensors.h; the format,
 * policies and every error message in docs/model-format.md).
 *
 * Format (https://github.com/huggingface/safetensors, "Format"): 8 bytes N (u64 little-endian),
 * N bytes of UTF-8 JSON {name: {"dtype", "shape", "data_offsets": [begin, end]},
 * "__metadata__": {str: str}}, then the data buffer; offsets are relative to its start.
 *
 * How it stays safe on hostile bytes:
 *   1. the length prefix is checked in 64-bit arithmetic before anything else (wasm32's size_t
 *      is 32 bits); an HTML page or JSON text in place of a model is recognised and named;
 *   2. the header is checked as UTF-8 and then as JSON (json_validate: no recursion, depth cap);
 *   3. parse() walks the fixed schema once to count and check every tensor (dtype, shape with
 *      checked products, offsets against the shape and the buffer, finite weights) without
 *      allocating; then one block is allocated for the handle, its tables and its strings, and
 *      parse() runs again to fill it;
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
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "api/safetensors.h"
#include "toolbox.h"
#include "io/json.h"

/* ------------------------------------------------------------------ tables */

struct dtype_info {
    const char *name;
    int size;      /* bytes per element */
    int supported; /* converted to float32 on load */
};

/* Every dtype the safetensors reference knows (v0.4/0.5); attnlab loads the first four (I8 only
 * as per-row quantised 2-D weights). */
static const struct dtype_info DTYPES[] = {
    { "F32", 4, 1 },     { "F16", 2, 1 },     { "BF16", 2, 1 },    { "I8", 1, 1 },
    { "F64", 8, 0 },     { "I64", 8, 0 },     { "I32", 4, 0 },     { "I16", 2, 0 },
    { "U64", 8, 0 },     { "U32", 4, 0 },     { "U16", 2, 0 },     { "U8", 1, 0 },
    { "BOOL", 1, 0 },    { "F8_E4M3", 1, 0 }, { "F8_E5M2", 1, 0 }, { "F8_E8M0", 1, 0 },
    { "F6_E2M3", 1, 0 }, { "F6_E3M2", 1, 0 }, { "F4", 1, 0 },      { "C64", 8, 0 },
};
#define N_DTYPES ((int)(sizeof(DTYPES) / sizeof(DTYPES[0])))
enum { DT_F32 = 0, DT_F16 = 1, DT_BF16 = 2, DT_I8 = 3 };

/* An I8 tensor W's scales are the tensor named W followed by this. */
static const char SCALE_SUFFIX[] = ":scale";

struct st_tensor {
    const char *name; /* NUL-terminated, decoded, in the handle's string pool */
    const char *raw;  /* [raw_len] the name as written in the JSON (for messages) */
    size_t raw_len;
    int dtype; /* index into DTYPES */
    int rank;
    int32_t shape[AL_SAFETENSORS_MAX_RANK]; /* [rank] */
    int32_t numel;
    uint64_t begin, end;  /* byte range in the data buffer */
    uint64_t scale_begin; /* I8: where its F32 scales [shape[0]] begin in the data buffer */
    int is_scale;         /* the scales of an I8 tensor: dropped from the table after the checks */
};

struct st_meta {
    const char *key, *value; /* NUL-terminated, decoded, in the string pool */
};

struct al_safetensors {
    const uint8_t *data; /* [data_len] borrowed from the caller */
    uint64_t data_len;
    int n_tensors, n_meta;
    struct st_tensor *tensors; /* [n_tensors] header order */
    struct st_meta *meta;      /* [n_meta] header order */
    void **order;              /* [max(n_tensors, n_meta)] scratch for the sorted checks */
    char *pool;                /* the decoded strings */
};

/* ------------------------------------------------------------------ messages */

/* (written with al_msg, toolbox.h) */

/* raw [n] (valid UTF-8) in quotes, cut to 64 bytes at a character boundary. */
static void m_q(al_msg *m, const char *raw, size_t n)
{
    size_t cut = n;
    if (n > 64) {
        cut = 64;
        while (cut > 0 && ((uint8_t)raw[cut] & 0xC0) == 0x80) cut--;
    }
    al_msg_str(m, "\"");
    al_msg_put(m, raw, cut);
    al_msg_str(m, cut < n ? "...\"" : "\"");
}

/* ------------------------------------------------------------------ parsing */

struct ctx {
    struct json_cursor c; /* over the header */
    const uint8_t *data;  /* [data_len] */
    uint64_t data_len;
    al_msg *m;
    int fill; /* 0: count and check; 1: fill st */
    /* counted in pass 0 */
    uint64_t n_tensors, n_meta, str_bytes;
    /* filled in pass 1 */
    al_safetensors *st;
    size_t pool_used;
};

static void m_tensor(struct ctx *x, const char *raw, size_t n)
{
    al_msg_str(x->m, "tensor ");
    m_q(x->m, raw, n);
    al_msg_str(x->m, ": ");
}

/* Decode the string at the cursor into the pool (fill pass) or just measure it. */
static int read_string(struct ctx *x, const char **raw, size_t *raw_len, size_t *len, int *nul,
                       const char **stored)
{
    char *out = x->fill ? x->st->pool + x->pool_used : NULL;
    if (json_string(&x->c, out, raw, raw_len, len, nul)) return -1;
    if (x->fill) {
        out[*len] = 0;
        *stored = out;
        x->pool_used += *len + 1;
    }
    return 0;
}

/* The string at the cursor decoded into small [cap] when it fits, else "" (for keyword tests). */
static int read_word(struct ctx *x, char *small, size_t cap, const char **raw, size_t *raw_len)
{
    struct json_cursor peek = x->c;
    size_t len;
    int nul;
    if (json_string(&peek, NULL, raw, raw_len, &len, &nul)) return -1;
    if (*raw_len < cap) {
        if (json_string(&x->c, small, NULL, NULL, &len, &nul)) return -1;
        small[len] = 0;
        if (nul) small[0] = 0;
    } else {
        x->c = peek;
        small[0] = 0;
    }
    return 0;
}

static al_status check_finite(struct ctx *x, const char *raw, size_t raw_len, int dtype,
                              const uint8_t *p, int32_t numel)
{
    if (dtype == DT_I8) { /* every int8 is finite; -128 is outside the symmetric range */
        for (int32_t k = 0; k < numel; k++) {
            if (p[k] == 0x80) {
                m_tensor(x, raw, raw_len);
                al_msg_str(x->m, "int8 value -128 at flat index ");
                al_msg_uint(x->m, (uint64_t)k);
                al_msg_str(x->m, "; I8 weights are symmetric, in [-127, 127]");
                return AL_ERR_FORMAT;
            }
        }
        return AL_OK;
    }
    for (int32_t k = 0; k < numel; k++) {
        int bad = 0, neg = 0, nan = 0;
        if (dtype == DT_F32) {
            const uint8_t *b = p + 4 * (size_t)k;
            bad = (b[3] & 0x7F) == 0x7F && (b[2] & 0x80);
            nan = bad && ((b[2] & 0x7F) | b[1] | b[0]);
            neg = b[3] >> 7;
        } else {
            const uint8_t *b = p + 2 * (size_t)k;
            unsigned h = (unsigned)b[0] | (unsigned)b[1] << 8;
            if (dtype == DT_F16) {
                bad = (h & 0x7C00) == 0x7C00;
                nan = bad && (h & 0x03FF);
            } else {
                bad = (h & 0x7F80) == 0x7F80;
                nan = bad && (h & 0x007F);
            }
            neg = (int)(h >> 15);
        }
        if (bad) {
            m_tensor(x, raw, raw_len);
            al_msg_str(x->m, nan ? "NaN" : neg ? "-Infinity" : "Infinity");
            al_msg_str(x->m, " at flat index ");
            al_msg_uint(x->m, (uint64_t)k);
            al_msg_str(x->m, "; attnlab refuses non-finite weights");
            return AL_ERR_NONFINITE;
        }
    }
    return AL_OK;
}

static void m_shape(al_msg *m, const uint64_t *dims, int rank)
{
    al_msg_str(m, "[");
    for (int d = 0; d < rank; d++) {
        if (d) al_msg_str(m, ", ");
        al_msg_uint(m, dims[d]);
    }
    al_msg_str(m, "]");
}

/* One tensor entry, the cursor at its value. Tensor index t in the fill pass. */
static al_status parse_tensor(struct ctx *x, const char *raw, size_t raw_len, size_t name_len,
                              int name_nul, const char *stored, uint64_t t)
{
    al_msg *m = x->m;
    if (name_len == 0) {
        al_msg_str(m, "a tensor has an empty name");
        return AL_ERR_FORMAT;
    }
    if (name_nul) {
        m_tensor(x, raw, raw_len);
        al_msg_str(m, "the name contains a NUL character (\\u0000)");
        return AL_ERR_FORMAT;
    }
    if (name_len > AL_SAFETENSORS_MAX_NAME) {
        m_tensor(x, raw, raw_len);
        al_msg_str(m, "the name is ");
        al_msg_uint(m, name_len);
        al_msg_str(m, " bytes, over attnlab's cap of 1024");
        return AL_ERR_UNSUPPORTED;
    }
    json_ws(&x->c);
    if (json_peek(&x->c) != '{') {
        m_tensor(x, raw, raw_len);
        al_msg_str(m, "expected an object {dtype, shape, data_offsets}, found ");
        al_msg_str(m, json_kind(&x->c));
        return AL_ERR_FORMAT;
    }
    x->c.i++;

    enum { F_DTYPE = 1, F_SHAPE = 2, F_OFFSETS = 4 };
    int seen = 0, dtype = -1, rank = 0;
    uint64_t dims[AL_SAFETENSORS_MAX_RANK], off[2] = { 0, 0 };
    if (json_eat(&x->c, '}') != 0) {
        for (;;) {
            char key[80]; /* any escaping of the longest field name fits */
            const char *kraw;
            size_t kraw_len;
            if (read_word(x, key, sizeof key, &kraw, &kraw_len) || json_eat(&x->c, ':')) {
                m_tensor(x, raw, raw_len);
                al_msg_str(m, "malformed entry");
                return AL_ERR_FORMAT;
            }
            int f = !strcmp(key, "dtype")          ? F_DTYPE
                    : !strcmp(key, "shape")        ? F_SHAPE
                    : !strcmp(key, "data_offsets") ? F_OFFSETS
                                                   : 0;
            if (f == 0 || (seen & f)) {
                m_tensor(x, raw, raw_len);
                al_msg_str(m, f ? "duplicate field " : "unknown field ");
                m_q(m, kraw, kraw_len);
                if (!f) al_msg_str(m, " (expected dtype, shape, data_offsets)");
                return AL_ERR_FORMAT;
            }
            seen |= f;
            json_ws(&x->c);
            if (f == F_DTYPE) {
                char name[80];
                const char *draw;
                size_t draw_len;
                if (json_peek(&x->c) != '"') {
                    m_tensor(x, raw, raw_len);
                    al_msg_str(m, "\"dtype\" must be a string, found ");
                    al_msg_str(m, json_kind(&x->c));
                    return AL_ERR_FORMAT;
                }
                if (read_word(x, name, sizeof name, &draw, &draw_len)) return AL_ERR_FORMAT;
                for (int d = 0; d < N_DTYPES; d++)
                    if (!strcmp(name, DTYPES[d].name)) dtype = d;
                if (dtype < 0) {
                    m_tensor(x, raw, raw_len);
                    al_msg_str(m, "unknown dtype ");
                    m_q(m, draw, draw_len);
                    return AL_ERR_FORMAT;
                }
                if (!DTYPES[dtype].supported) {
                    m_tensor(x, raw, raw_len);
                    al_msg_str(m, "dtype ");
                    al_msg_str(m, DTYPES[dtype].name);
                    al_msg_str(
                        m, " is not supported (attnlab loads F32, F16, BF16 and I8 with per-row "
                           "scales; convert the file)");
                    return AL_ERR_UNSUPPORTED;
                }
            } else {
                const char *what = f == F_SHAPE ? "\"shape\"" : "\"data_offsets\"";
                if (json_peek(&x->c) != '[') {
                    m_tensor(x, raw, raw_len);
                    al_msg_str(m, what);
                    al_msg_str(m, f == F_SHAPE ? " must be an array of integers, found "
                                               : " must be an array [begin, end], found ");
                    al_msg_str(m, json_kind(&x->c));
                    return AL_ERR_FORMAT;
                }
                x->c.i++;
                int count = 0;
                if (json_eat(&x->c, ']') != 0) {
                    for (;;) {
                        const char *nraw;
                        size_t nlen;
                        uint64_t v;
                        json_ws(&x->c);
                        int is_num = json_peek(&x->c) == '-' ||
                                     (json_peek(&x->c) >= '0' && json_peek(&x->c) <= '9');
                        if (!is_num || json_number(&x->c, &nraw, &nlen) ||
                            json_u53(nraw, nlen, &v)) {
                            m_tensor(x, raw, raw_len);
                            al_msg_str(m, f == F_SHAPE ? "shape[" : "data_offsets[");
                            al_msg_uint(m, (uint64_t)count);
                            al_msg_str(m, "] is ");
                            if (is_num)
                                m_q(m, nraw, nlen);
                            else
                                al_msg_str(m, json_kind(&x->c));
                            al_msg_str(m, ", not an integer in [0, 2^53]");
                            return AL_ERR_FORMAT;
                        }
                        if (f == F_SHAPE) {
                            if (count >= AL_SAFETENSORS_MAX_RANK) {
                                m_tensor(x, raw, raw_len);
                                al_msg_str(m, "rank above attnlab's limit of 8");
                                return AL_ERR_UNSUPPORTED;
                            }
                            dims[count] = v;
                        } else if (count < 2) {
                            off[count] = v;
                        }
                        count++;
                        if (json_eat(&x->c, ',') == 0) continue;
                        if (json_eat(&x->c, ']') == 0) break;
                        return AL_ERR_FORMAT; /* unreachable: the header was validated */
                    }
                }
                if (f == F_SHAPE) {
                    rank = count;
                } else if (count != 2) {
                    m_tensor(x, raw, raw_len);
                    al_msg_str(m, "\"data_offsets\" must be [begin, end], found ");
                    al_msg_uint(m, (uint64_t)count);
                    al_msg_str(m, count == 1 ? " entry" : " entries");
                    return AL_ERR_FORMAT;
                }
            }
            if (json_eat(&x->c, ',') == 0) continue;
            if (json_eat(&x->c, '}') == 0) break;
            return AL_ERR_FORMAT; /* unreachable: the header was validated */
        }
    }
    if (seen != (F_DTYPE | F_SHAPE | F_OFFSETS)) {
        m_tensor(x, raw, raw_len);
        al_msg_str(m, "missing ");
        al_msg_str(m, !(seen & F_DTYPE)   ? "\"dtype\""
                      : !(seen & F_SHAPE) ? "\"shape\""
                                          : "\"data_offsets\"");
        return AL_ERR_FORMAT;
    }

    /* numel: a zero dimension makes it 0 whatever the others; else a checked product */
    uint64_t numel = 1;
    int zero = 0;
    for (int d = 0; d < rank; d++) zero |= dims[d] == 0;
    for (int d = 0; d < rank; d++) {
        uint64_t limit = zero ? AL_SAFETENSORS_MAX_NUMEL : AL_SAFETENSORS_MAX_NUMEL / numel;
        if (dims[d] > limit) {
            m_tensor(x, raw, raw_len);
            al_msg_str(m, "shape ");
            m_shape(m, dims, rank);
            al_msg_str(m, zero ? " has a dimension over 2^31 - 1"
                               : " has more than 2^31 - 1 elements");
            return AL_ERR_OVERFLOW;
        }
        if (!zero) numel *= dims[d];
    }
    if (zero) numel = 0;

    uint64_t need = numel * (uint64_t)DTYPES[dtype].size;
    const char *bad = off[1] < off[0]        ? "end before begin"
                      : off[1] > x->data_len ? "past the end of the data buffer"
                                             : NULL;
    if (bad || off[1] - off[0] != need) {
        m_tensor(x, raw, raw_len);
        al_msg_str(m, "data_offsets [");
        al_msg_uint(m, off[0]);
        al_msg_str(m, ", ");
        al_msg_uint(m, off[1]);
        if (bad) {
            al_msg_str(m, "] ");
            al_msg_str(m, bad);
            if (off[1] >= off[0]) {
                al_msg_str(m, " (");
                al_msg_uint(m, x->data_len);
                al_msg_str(m, " bytes)");
            }
        } else {
            al_msg_str(m, "] but shape ");
            m_shape(m, dims, rank);
            al_msg_str(m, " ");
            al_msg_str(m, DTYPES[dtype].name);
            al_msg_str(m, " needs ");
            al_msg_uint(m, need);
            al_msg_str(m, " bytes");
        }
        return AL_ERR_FORMAT;
    }

    if (!x->fill) {
        x->n_tensors++;
        x->str_bytes += name_len + 1;
        return check_finite(x, raw, raw_len, dtype, x->data + off[0], (int32_t)numel);
    }
    struct st_tensor *o = &x->st->tensors[t];
    o->name = stored;
    o->raw = raw;
    o->raw_len = raw_len;
    o->dtype = dtype;
    o->rank = rank;
    for (int d = 0; d < rank; d++) o->shape[d] = (int32_t)dims[d];
    o->numel = (int32_t)numel;
    o->begin = off[0];
    o->end = off[1];
    o->scale_begin = 0;
    o->is_scale = 0;
    return AL_OK;
}

static al_status parse_metadata(struct ctx *x)
{
    al_msg *m = x->m;
    json_ws(&x->c);
    if (json_peek(&x->c) != '{') {
        al_msg_str(m, "\"__metadata__\" must be an object of strings, found ");
        al_msg_str(m, json_kind(&x->c));
        return AL_ERR_FORMAT;
    }
    x->c.i++;
    if (json_eat(&x->c, '}') == 0) return AL_OK;
    for (;;) {
        const char *raw, *vraw, *key = NULL, *value = NULL;
        size_t raw_len, vraw_len, len, vlen;
        int nul, vnul;
        if (read_string(x, &raw, &raw_len, &len, &nul, &key) || json_eat(&x->c, ':'))
            return AL_ERR_FORMAT; /* unreachable: the header was validated */
        json_ws(&x->c);
        if (nul || len > AL_SAFETENSORS_MAX_NAME) {
            al_msg_str(m, "__metadata__ key ");
            m_q(m, raw, raw_len);
            al_msg_str(m, nul ? " contains a NUL character (\\u0000)"
                              : " is over attnlab's cap of 1024 bytes");
            return len > AL_SAFETENSORS_MAX_NAME ? AL_ERR_UNSUPPORTED : AL_ERR_FORMAT;
        }
        if (json_peek(&x->c) != '"') {
            al_msg_str(m, "__metadata__ ");
            m_q(m, raw, raw_len);
            al_msg_str(m, " must be a string, found ");
            al_msg_str(m, json_kind(&x->c));
            al_msg_str(m, " (safetensors metadata maps strings to strings)");
            return AL_ERR_FORMAT;
        }
        if (read_string(x, &vraw, &vraw_len, &vlen, &vnul, &value)) return AL_ERR_FORMAT;
        if (vnul) {
            al_msg_str(m, "__metadata__ ");
            m_q(m, raw, raw_len);
            al_msg_str(m, ": the value contains a NUL character (\\u0000)");
            return AL_ERR_FORMAT;
        }
        if (x->fill) {
            x->st->meta[x->st->n_meta].key = key;
            x->st->meta[x->st->n_meta].value = value;
            x->st->n_meta++;
        } else {
            x->n_meta++;
            x->str_bytes += len + 1 + vlen + 1;
        }
        if (json_eat(&x->c, ',') == 0) continue;
        if (json_eat(&x->c, '}') == 0) return AL_OK;
        return AL_ERR_FORMAT; /* unreachable: the header was validated */
    }
}

/* The whole header, once to count and check (fill 0), once to fill x->st (fill 1). */
static al_status parse(struct ctx *x)
{
    json_ws(&x->c);
    x->c.i++; /* '{': the caller checked the root is an object */
    if (json_eat(&x->c, '}') == 0) return AL_OK;
    int seen_meta = 0;
    uint64_t t = 0;
    for (;;) {
        char word[80]; /* room for "__metadata__" however it is escaped */
        const char *raw, *stored = NULL;
        size_t raw_len, len;
        int nul;
        struct json_cursor at = x->c;
        if (read_word(x, word, sizeof word, &raw, &raw_len)) return AL_ERR_FORMAT;
        if (json_eat(&x->c, ':')) return AL_ERR_FORMAT; /* unreachable: validated */
        al_status s;
        if (!strcmp(word, "__metadata__")) {
            if (seen_meta) {
                al_msg_str(x->m, "duplicate key \"__metadata__\"");
                return AL_ERR_FORMAT;
            }
            seen_meta = 1;
            s = parse_metadata(x);
        } else {
            struct json_cursor after = x->c;
            x->c = at; /* read the name again, this time into the pool */
            if (read_string(x, &raw, &raw_len, &len, &nul, &stored)) return AL_ERR_FORMAT;
            x->c = after;
            s = parse_tensor(x, raw, raw_len, len, nul, stored, t++);
        }
        if (s != AL_OK) return s;
        if (json_eat(&x->c, ',') == 0) continue;
        if (json_eat(&x->c, '}') == 0) return AL_OK;
        return AL_ERR_FORMAT; /* unreachable: validated */
    }
}

/* ------------------------------------------------------------------ whole-table checks */

static int by_name(const void *a, const void *b)
{
    return strcmp((*(const struct st_tensor *const *)a)->name,
                  (*(const struct st_tensor *const *)b)->name);
}

static int by_key(const void *a, const void *b)
{
    return strcmp((*(const struct st_meta *const *)a)->key,
                  (*(const struct st_meta *const *)b)->key);
}

static int by_offset(const void *a, const void *b)
{
    const struct st_tensor *p = *(const struct st_tensor *const *)a,
                           *q = *(const struct st_tensor *const *)b;
    if (p->begin != q->begin) return p->begin < q->begin ? -1 : 1;
    if (p->end != q->end) return p->end < q->end ? -1 : 1;
    return 0;
}

/* The float32 at b (4 bytes little-endian), assembled bytewise: any alignment, any host order. */
static float f32_at(const uint8_t *b)
{
    uint32_t bits =
        (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* "tensor "name": dtype [dims]" for a tensor of the table. */
static void m_dtype_shape(al_msg *m, const struct st_tensor *t)
{
    uint64_t dims[AL_SAFETENSORS_MAX_RANK];
    for (int d = 0; d < t->rank; d++) dims[d] = (uint64_t)t->shape[d];
    al_msg_str(m, "tensor ");
    m_q(m, t->raw, t->raw_len);
    al_msg_str(m, ": ");
    al_msg_str(m, DTYPES[t->dtype].name);
    al_msg_str(m, " ");
    m_shape(m, dims, t->rank);
}

/* strcmp(a, the concatenation of b and c), without building it (by_name's order). */
static int cmp_cat(const char *a, const char *b, const char *c)
{
    for (; *b; a++, b++)
        if (*a != *b) return (int)(unsigned char)*a - (int)(unsigned char)*b;
    return strcmp(a, c);
}

/* Pairs every I8 tensor with its scales, o [n] sorted by name: the I8 tensor is 2-D, the scales
 * are F32 [rows], each finite (checked in parse) and >= 0 (sign bit clear), and 127 times each
 * is finite, so every weight read is finite. A ":scale" tensor with no I8 tensor of its base name
 * is an ordinary tensor. */
static al_status link_i8(al_safetensors *st, struct st_tensor **o, int n, al_msg *m)
{
    for (int i = 0; i < n; i++) {
        struct st_tensor *t = o[i];
        if (t->dtype != DT_I8) continue;
        if (t->rank != 2) {
            m_dtype_shape(m, t);
            al_msg_str(m,
                       "; attnlab loads I8 only as 2-D weights [rows, cols] with per-row scales");
            return AL_ERR_UNSUPPORTED;
        }
        int lo = 0, hi = n; /* binary search for name + ":scale" */
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (cmp_cat(o[mid]->name, t->name, SCALE_SUFFIX) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        struct st_tensor *sc =
            lo < n && !cmp_cat(o[lo]->name, t->name, SCALE_SUFFIX) ? o[lo] : NULL;
        if (!sc) {
            al_msg_str(m, "tensor ");
            m_q(m, t->raw, t->raw_len);
            al_msg_str(m, ": dtype I8 without its \":scale\" tensor (F32 [");
            al_msg_uint(m, (uint64_t)t->shape[0]);
            al_msg_str(m, "], one scale per row); attnlab loads I8 only with per-row scales");
            return AL_ERR_UNSUPPORTED;
        }
        if (sc->dtype != DT_F32 || sc->rank != 1 || sc->shape[0] != t->shape[0]) {
            m_dtype_shape(m, sc);
            al_msg_str(m, ", but the scales of an I8 tensor with ");
            al_msg_uint(m, (uint64_t)t->shape[0]);
            al_msg_str(m, " rows are F32 [");
            al_msg_uint(m, (uint64_t)t->shape[0]);
            al_msg_str(m, "]");
            return AL_ERR_FORMAT;
        }
        const uint8_t *p = st->data + (size_t)sc->begin;
        for (int32_t r = 0; r < sc->numel; r++) {
            const float v = f32_at(p + 4 * (size_t)r);
            const float top = 127.0f * v;
            const int negative = p[4 * (size_t)r + 3] >> 7; /* the sign bit: -0 too */
            if (negative || !(top <= FLT_MAX)) {
                al_msg_str(m, "tensor ");
                m_q(m, sc->raw, sc->raw_len);
                al_msg_str(m, negative ? ": negative scale at row " : ": the scale at row ");
                al_msg_uint(m, (uint64_t)r);
                al_msg_str(m, negative ? " (-0 included); per-row scales are >= 0"
                                       : " is over FLT_MAX / 127: its weights would overflow");
                return AL_ERR_FORMAT;
            }
        }
        t->scale_begin = sc->begin;
        sc->is_scale = 1;
    }
    return AL_OK;
}

static void m_range(al_msg *m, const struct st_tensor *t)
{
    al_msg_str(m, " [");
    al_msg_uint(m, t->begin);
    al_msg_str(m, ", ");
    al_msg_uint(m, t->end);
    al_msg_str(m, "]");
}

static al_status check_table(al_safetensors *st, al_msg *m)
{
    int n = st->n_tensors;
    const struct st_tensor **o = (const struct st_tensor **)st->order;
    for (int i = 0; i < n; i++) o[i] = &st->tensors[i];
    qsort(o, (size_t)n, sizeof *o, by_name);
    for (int i = 1; i < n; i++) {
        if (!strcmp(o[i - 1]->name, o[i]->name)) {
            al_msg_str(m, "duplicate tensor name ");
            m_q(m, o[i]->raw, o[i]->raw_len);
            return AL_ERR_FORMAT;
        }
    }
    al_status s = link_i8(st, (struct st_tensor **)st->order, n, m);
    if (s != AL_OK) return s;

    const struct st_meta **mo = (const struct st_meta **)st->order;
    for (int i = 0; i < st->n_meta; i++) mo[i] = &st->meta[i];
    qsort(mo, (size_t)st->n_meta, sizeof *mo, by_key);
    for (int i = 1; i < st->n_meta; i++) {
        if (!strcmp(mo[i - 1]->key, mo[i]->key)) {
            al_msg_str(m, "duplicate __metadata__ key ");
            m_q(m, mo[i]->key, strlen(mo[i]->key));
            return AL_ERR_FORMAT;
        }
    }

    /* the ranges, sorted, must tile [0, data_len) exactly */
    for (int i = 0; i < n; i++) o[i] = &st->tensors[i];
    qsort(o, (size_t)n, sizeof *o, by_offset);
    uint64_t pos = 0;
    const struct st_tensor *prev = NULL;
    for (int i = 0; i < n; i++) {
        if (o[i]->begin > pos) {
            al_msg_str(m, "gap in the data buffer: bytes [");
            al_msg_uint(m, pos);
            al_msg_str(m, ", ");
            al_msg_uint(m, o[i]->begin);
            al_msg_str(m, ") belong to no tensor (before tensor ");
            m_q(m, o[i]->raw, o[i]->raw_len);
            al_msg_str(m, ")");
            return AL_ERR_FORMAT;
        }
        if (o[i]->begin < pos) {
            al_msg_str(m, "tensor ");
            m_q(m, o[i]->raw, o[i]->raw_len);
            m_range(m, o[i]);
            al_msg_str(m, " overlaps tensor ");
            m_q(m, prev->raw, prev->raw_len);
            m_range(m, prev);
            return AL_ERR_FORMAT;
        }
        if (o[i]->end > pos) prev = o[i];
        pos = o[i]->end;
    }
    if (pos < st->data_len) {
        al_msg_uint(m, st->data_len - pos);
        al_msg_str(m, " trailing bytes after the last tensor (tensors cover ");
        al_msg_uint(m, pos);
        al_msg_str(m, " of the ");
        al_msg_uint(m, st->data_len);
        al_msg_str(m, "-byte data buffer)");
        return AL_ERR_FORMAT;
    }
    /* everything checked: the scales of I8 tensors leave the table (header order kept) */
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (!st->tensors[i].is_scale) st->tensors[kept++] = st->tensors[i];
    st->n_tensors = kept;
    return AL_OK;
}

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
    m_q(m, (const char *)b + i, n);
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
    struct ctx x;
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
    al_status s = parse(&x);
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
    s = parse(&x);
    if (s == AL_OK) s = check_table(st, m);
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
    return t ? DTYPES[t->dtype].name : NULL;
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
            const float s = f32_at(st->data + (size_t)t->scale_begin + 4 * r);
            for (size_t c = 0; c < cols; c++) {
                const int q = (int)p[r * cols + c] - (p[r * cols + c] >> 7 << 8); /* two's compl. */
                out[r * cols + c] = (float)q * s;
            }
        }
        return AL_OK;
    }
    for (size_t k = 0; k < n; k++) {
        if (t->dtype == DT_F32) {
            out[k] = f32_at(p + 4 * k);
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
