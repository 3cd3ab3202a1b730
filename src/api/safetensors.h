/*
 * api/safetensors.h: loading safetensors files from bytes, safely, whoever wrote them.
 *
 *     char err[AL_SAFETENSORS_ERR_CAP];
 *     al_safetensors *st;
 *     al_status s = al_safetensors_open(bytes, len, &st, err, sizeof err);
 *     if (s != AL_OK) { fprintf(stderr, "%s: %s\n", al_status_string(s), err); return s; }
 *     int i = al_safetensors_find(st, "enc.weight");          // -1 if absent
 *     float *w = malloc(sizeof(float) * al_safetensors_numel(st, i));
 *     al_safetensors_read_f32(st, i, w, al_safetensors_numel(st, i)); // F16/BF16/I8 converted
 *     const char *config = al_safetensors_meta_find(st, "config");   // NULL if absent
 *     al_safetensors_free(st);
 *
 * The loader takes bytes, never a path. al_safetensors_open() validates the whole file before it
 * allocates anything: the 8-byte header length, the header (strict UTF-8 JSON, a fixed schema,
 * no duplicate keys), every tensor's dtype, shape and byte range (which must tile the data buffer
 * exactly), every weight (NaN and Inf are refused), and every I8 tensor's per-row scales (the
 * tensor "<name>:scale", which is then hidden: the table lists the I8 tensor alone, read as
 * float32 int8 * scale[row]). On failure it returns a status and writes
 * a message naming the problem, the tensor or the key into err, e.g.
 *   tensor "enc.weight": data_offsets [0, 96] but shape [5, 5] F32 needs 100 bytes
 * After a successful open nothing can fail except a caller's bad index or buffer size.
 *
 * The handle borrows bytes (zero copy): keep them alive and unchanged until al_safetensors_free.
 * Strings returned by the accessors live as long as the handle.
 * Limits, dtype and NaN policy, and the list of errors: docs/model-format.md.
 */
#ifndef AL_API_SAFETENSORS_H
#define AL_API_SAFETENSORS_H

#include <stdint.h>

#include "../base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AL_SAFETENSORS_MAX_HEADER (16u << 20) /* header bytes (the reference allows 100 MiB) */
#define AL_SAFETENSORS_MAX_NAME 1024          /* bytes in a tensor name or metadata key (UTF-8) */
#define AL_SAFETENSORS_MAX_RANK 8             /* dimensions per tensor */
#define AL_SAFETENSORS_MAX_NUMEL 2147483647   /* elements per tensor: 2^31 - 1, as everywhere */
#define AL_SAFETENSORS_ERR_CAP                                                                     \
    256 /* a message buffer this size is never truncated
                                                 except for names, which are cut to 64 bytes */

typedef struct al_safetensors al_safetensors;

/*
 * Parse and validate bytes [len]. On AL_OK, *out is a handle to free with al_safetensors_free.
 * On failure *out is NULL, nothing stays allocated, and err [err_cap] (may be NULL) holds a
 * NUL-terminated message. Statuses: AL_ERR_FORMAT (malformed), AL_ERR_UNSUPPORTED (valid
 * safetensors attnlab does not load: I64, F64, ... dtypes; I8 without per-row scales or not 2-D;
 * rank > 8; a header over 16 MiB),
 * AL_ERR_OVERFLOW (a shape of 2^31 or more elements), AL_ERR_NONFINITE (a NaN or Inf weight),
 * AL_ERR_NOMEM, AL_ERR_ARGUMENT (a NULL pointer).
 */
al_status al_safetensors_open(const uint8_t *bytes, size_t len, al_safetensors **out, char *err,
                              size_t err_cap);
void al_safetensors_free(al_safetensors *st);

/* Tensors, in header order: i in [0, count). Bad i or NULL st: NULL / -1. */
int al_safetensors_count(const al_safetensors *st);
const char *al_safetensors_name(const al_safetensors *st, int i);
const char *al_safetensors_dtype(const al_safetensors *st, int i); /* F32, F16, BF16 or I8 */
int al_safetensors_rank(const al_safetensors *st, int i);          /* 0 for a scalar */
int al_safetensors_dim(const al_safetensors *st, int i, int axis); /* >= 0; 0 is legal */
int al_safetensors_numel(const al_safetensors *st, int i); /* product of dims; 1 at rank 0 */
/* The index of the tensor called name, or -1. */
int al_safetensors_find(const al_safetensors *st, const char *name);
/* out [n] = tensor i as float32 (n must equal its numel; n = 0 needs no out). Unaligned data is
 * fine. AL_ERR_ARGUMENT for a NULL or bad index, AL_ERR_SHAPE when n is wrong. */
al_status al_safetensors_read_f32(const al_safetensors *st, int i, float *out, size_t n);

/* __metadata__ entries, in header order. Bad i: NULL. meta_find: the value for key, or NULL. */
int al_safetensors_meta_count(const al_safetensors *st);
const char *al_safetensors_meta_key(const al_safetensors *st, int i);
const char *al_safetensors_meta_value(const al_safetensors *st, int i);
const char *al_safetensors_meta_find(const al_safetensors *st, const char *key);

#ifdef __cplusplus
}
#endif

#endif /* AL_API_SAFETENSORS_H */
