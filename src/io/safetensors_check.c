/*
 * io/safetensors_check.c: step 4 of the safetensors loader (io/safetensors.c lists the steps):
 * what needs the whole table, once parse has filled it: duplicate tensor names and metadata keys
 * (sorted), every I8 tensor paired with its per-row F32 scales (docs/model-format.md, "I8:
 * per-row int8 weights"), and byte ranges that tile the data buffer exactly (no gaps, overlaps
 * or trailing bytes).
 * Deliberately not here: per-tensor checks (io/safetensors_parse.c), reading weights
 * (io/safetensors.c).
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "io/safetensors_table.h"

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

/* "tensor "name": dtype [dims]" for a tensor of the table. */
static void m_dtype_shape(al_msg *m, const struct st_tensor *t)
{
    uint64_t dims[AL_SAFETENSORS_MAX_RANK];
    for (int d = 0; d < t->rank; d++) dims[d] = (uint64_t)t->shape[d];
    al_msg_str(m, "tensor ");
    al_st_quote(m, t->raw, t->raw_len);
    al_msg_str(m, ": ");
    al_msg_str(m, al_st_dtypes[t->dtype].name);
    al_msg_str(m, " ");
    al_st_shape(m, dims, t->rank);
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
            al_st_quote(m, t->raw, t->raw_len);
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
            const float v = al_st_f32(p + 4 * (size_t)r);
            const float top = 127.0f * v;
            const int negative = p[4 * (size_t)r + 3] >> 7; /* the sign bit: -0 too */
            if (negative || !(top <= FLT_MAX)) {
                al_msg_str(m, "tensor ");
                al_st_quote(m, sc->raw, sc->raw_len);
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

al_status al_st_check_table(al_safetensors *st, al_msg *m)
{
    int n = st->n_tensors;
    const struct st_tensor **o = (const struct st_tensor **)st->order;
    for (int i = 0; i < n; i++) o[i] = &st->tensors[i];
    qsort(o, (size_t)n, sizeof *o, by_name);
    for (int i = 1; i < n; i++) {
        if (!strcmp(o[i - 1]->name, o[i]->name)) {
            al_msg_str(m, "duplicate tensor name ");
            al_st_quote(m, o[i]->raw, o[i]->raw_len);
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
            al_st_quote(m, mo[i]->key, strlen(mo[i]->key));
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
            al_st_quote(m, o[i]->raw, o[i]->raw_len);
            al_msg_str(m, ")");
            return AL_ERR_FORMAT;
        }
        if (o[i]->begin < pos) {
            al_msg_str(m, "tensor ");
            al_st_quote(m, o[i]->raw, o[i]->raw_len);
            m_range(m, o[i]);
            al_msg_str(m, " overlaps tensor ");
            al_st_quote(m, prev->raw, prev->raw_len);
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
