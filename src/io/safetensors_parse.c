/*
 * io/safetensors_parse.c: step 3 of the safetensors loader (io/safetensors.c lists the steps):
 * the header, already valid UTF-8 and JSON, walked once to count and check every tensor and
 * metadata entry without allocating (dtype, shape with checked products, offsets against the
 * shape and the buffer, finite weights), and once more to fill the handle's tables and strings.
 * Format: https://github.com/huggingface/safetensors ("Format"); messages: docs/model-format.md.
 * Deliberately not here: the checks that need the whole table (io/safetensors_check.c), the
 * length prefix, allocation and accessors (io/safetensors.c).
 */
#include <string.h>

#include "io/safetensors_table.h"

/* ------------------------------------------------------------------ tables */

/* Every dtype the safetensors reference knows (v0.4/0.5); attnlab loads the first four (I8 only
 * as per-row quantised 2-D weights). */
const struct st_dtype al_st_dtypes[] = {
    { "F32", 4, 1 },     { "F16", 2, 1 },     { "BF16", 2, 1 },    { "I8", 1, 1 },
    { "F64", 8, 0 },     { "I64", 8, 0 },     { "I32", 4, 0 },     { "I16", 2, 0 },
    { "U64", 8, 0 },     { "U32", 4, 0 },     { "U16", 2, 0 },     { "U8", 1, 0 },
    { "BOOL", 1, 0 },    { "F8_E4M3", 1, 0 }, { "F8_E5M2", 1, 0 }, { "F8_E8M0", 1, 0 },
    { "F6_E2M3", 1, 0 }, { "F6_E3M2", 1, 0 }, { "F4", 1, 0 },      { "C64", 8, 0 },
};
#define N_DTYPES ((int)(sizeof(al_st_dtypes) / sizeof(al_st_dtypes[0])))

/* ------------------------------------------------------------------ messages */

void al_st_quote(al_msg *m, const char *raw, size_t n)
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

static void m_tensor(struct st_ctx *x, const char *raw, size_t n)
{
    al_msg_str(x->m, "tensor ");
    al_st_quote(x->m, raw, n);
    al_msg_str(x->m, ": ");
}

/* Decode the string at the cursor into the pool (fill pass) or just measure it. */
static int read_string(struct st_ctx *x, const char **raw, size_t *raw_len, size_t *len, int *nul,
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
static int read_word(struct st_ctx *x, char *small, size_t cap, const char **raw, size_t *raw_len)
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

static al_status check_finite(struct st_ctx *x, const char *raw, size_t raw_len, int dtype,
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

void al_st_shape(al_msg *m, const uint64_t *dims, int rank)
{
    al_msg_str(m, "[");
    for (int d = 0; d < rank; d++) {
        if (d) al_msg_str(m, ", ");
        al_msg_uint(m, dims[d]);
    }
    al_msg_str(m, "]");
}

/* One tensor entry, the cursor at its value. Tensor index t in the fill pass. */
static al_status parse_tensor(struct st_ctx *x, const char *raw, size_t raw_len, size_t name_len,
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
                al_st_quote(m, kraw, kraw_len);
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
                    if (!strcmp(name, al_st_dtypes[d].name)) dtype = d;
                if (dtype < 0) {
                    m_tensor(x, raw, raw_len);
                    al_msg_str(m, "unknown dtype ");
                    al_st_quote(m, draw, draw_len);
                    return AL_ERR_FORMAT;
                }
                if (!al_st_dtypes[dtype].supported) {
                    m_tensor(x, raw, raw_len);
                    al_msg_str(m, "dtype ");
                    al_msg_str(m, al_st_dtypes[dtype].name);
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
                                al_st_quote(m, nraw, nlen);
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
            al_st_shape(m, dims, rank);
            al_msg_str(m, zero ? " has a dimension over 2^31 - 1"
                               : " has more than 2^31 - 1 elements");
            return AL_ERR_OVERFLOW;
        }
        if (!zero) numel *= dims[d];
    }
    if (zero) numel = 0;

    uint64_t need = numel * (uint64_t)al_st_dtypes[dtype].size;
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
            al_st_shape(m, dims, rank);
            al_msg_str(m, " ");
            al_msg_str(m, al_st_dtypes[dtype].name);
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

static al_status parse_metadata(struct st_ctx *x)
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
            al_st_quote(m, raw, raw_len);
            al_msg_str(m, nul ? " contains a NUL character (\\u0000)"
                              : " is over attnlab's cap of 1024 bytes");
            return len > AL_SAFETENSORS_MAX_NAME ? AL_ERR_UNSUPPORTED : AL_ERR_FORMAT;
        }
        if (json_peek(&x->c) != '"') {
            al_msg_str(m, "__metadata__ ");
            al_st_quote(m, raw, raw_len);
            al_msg_str(m, " must be a string, found ");
            al_msg_str(m, json_kind(&x->c));
            al_msg_str(m, " (safetensors metadata maps strings to strings)");
            return AL_ERR_FORMAT;
        }
        if (read_string(x, &vraw, &vraw_len, &vlen, &vnul, &value)) return AL_ERR_FORMAT;
        if (vnul) {
            al_msg_str(m, "__metadata__ ");
            al_st_quote(m, raw, raw_len);
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

al_status al_st_parse(struct st_ctx *x)
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
