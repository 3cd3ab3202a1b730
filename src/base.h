/*
 * base.h: what every layer above the kernels shares: the status codes and the counting allocator.
 *
 *     #include "base.h"
 *     float *p = al_malloc(n * sizeof(float));
 *     if (!p) return AL_ERR_NOMEM;
 *     ...
 *     al_free(p);
 *
 * attnlab.h (the public API) includes it; models/ and io/ include it rather than the whole API
 * for al_status. Deliberately not here: any op, model or file format, and the internal helpers
 * built on these (toolbox.h). Kernels need neither: they take caller-owned memory and return no
 * status.
 */
#ifndef AL_BASE_H
#define AL_BASE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    AL_OK = 0,
    AL_ERR_ARGUMENT = 1,    /* a NULL array, an unknown option, a non-finite scale or eps */
    AL_ERR_SHAPE = 2,       /* a dimension < 1, or dimensions that disagree */
    AL_ERR_RANGE = 3,       /* an index (token id) outside its table */
    AL_ERR_NONFINITE = 4,   /* NaN or Inf where a finite number is required */
    AL_ERR_NOMEM = 5,       /* an allocation failed (the library stays usable) */
    AL_ERR_FORMAT = 6,      /* a malformed file */
    AL_ERR_UNSUPPORTED = 7, /* valid, but not something attnlab does (e.g. a dtype) */
    AL_ERR_OVERFLOW = 8     /* a size that does not fit in memory arithmetic */
} al_status;

/* A short English description of a status, e.g. "shapes disagree". Never NULL. */
const char *al_status_string(al_status status);

/* malloc/free that keep a count of live blocks, for leak tests. al_malloc(0) returns NULL. */
void *al_malloc(size_t bytes);
void al_free(void *p);
/* The number of blocks from al_malloc not yet freed. */
int al_alloc_live(void);

#ifdef __cplusplus
}
#endif

#endif /* AL_BASE_H */
