/*
 * io/safetensors_table.h: what the three parts of the safetensors loader share, and nothing a
 * caller sees (api/safetensors.h is the API): the dtype table, the handle's tensor and metadata
 * tables, the parse context, and the message helpers.
 *   io/safetensors_parse.c   the header walked twice (count and check, then fill): step 3
 *   io/safetensors_check.c   what needs the whole table: duplicates, I8 scales, tiling: step 4
 *   io/safetensors.c         the entry point (steps 1 and 2, the allocation) and the accessors
 * (the steps are listed in io/safetensors.c's header).
 * Deliberately not here: any check or message text (they stay in the .c files that run them).
 */
#ifndef AL_IO_SAFETENSORS_TABLE_H
#define AL_IO_SAFETENSORS_TABLE_H

#include <stdint.h>
#include <string.h>

#include "base.h"
#include "api/safetensors.h"
#include "toolbox.h"
#include "io/json.h"

/* ------------------------------------------------------------------ tables */

struct st_dtype {
    const char *name;
    int size;      /* bytes per element */
    int supported; /* converted to float32 on load */
};

/* Every dtype the safetensors reference knows, the four attnlab loads first (defined in
 * io/safetensors_parse.c). */
extern const struct st_dtype al_st_dtypes[];
enum { DT_F32 = 0, DT_F16 = 1, DT_BF16 = 2, DT_I8 = 3 };

/* An I8 tensor W's scales are the tensor named W followed by this. */
#define SCALE_SUFFIX ":scale"

struct st_tensor {
    const char *name; /* NUL-terminated, decoded, in the handle's string pool */
    const char *raw;  /* [raw_len] the name as written in the JSON (for messages) */
    size_t raw_len;
    int dtype; /* index into al_st_dtypes */
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

struct st_ctx {
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

/* raw [n] (valid UTF-8) in quotes, cut to 64 bytes at a character boundary. */
void al_st_quote(al_msg *m, const char *raw, size_t n);
/* "[d0, d1, ...]" */
void al_st_shape(al_msg *m, const uint64_t *dims, int rank);

/* The float32 at b (4 bytes little-endian), assembled bytewise: any alignment, any host order. */
static inline float al_st_f32(const uint8_t *b)
{
    uint32_t bits =
        (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* The whole header, once to count and check (x->fill 0), once to fill x->st (x->fill 1). */
al_status al_st_parse(struct st_ctx *x);
/* What needs the whole table, once it is filled (io/safetensors_check.c). */
al_status al_st_check_table(al_safetensors *st, al_msg *m);

#endif /* AL_IO_SAFETENSORS_TABLE_H */
