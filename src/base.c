/*
 * base.c: base.h: the status strings and the library's only allocator, a counting wrapper around
 * malloc.
 *
 * Everything attnlab allocates (model handles, loader buffers, and the JS glue's call buffers in
 * wasm memory) goes through here, so tests can assert that any sequence of calls returns the
 * live-block count to its baseline. A failed malloc is reported, never aborted on: the wasm is
 * linked with ABORTING_MALLOC=0 so memory exhaustion returns NULL and callers turn it into
 * AL_ERR_NOMEM.
 */
#include <stdlib.h>

#include "base.h"

static int live_blocks;

void *al_malloc(size_t bytes)
{
    if (bytes == 0) return NULL;
    void *p = malloc(bytes);
    if (p) live_blocks++;
    return p;
}

void al_free(void *p)
{
    if (!p) return;
    live_blocks--;
    free(p);
}

int al_alloc_live(void) { return live_blocks; }

const char *al_status_string(al_status status)
{
    switch (status) {
    case AL_OK: return "ok";
    case AL_ERR_ARGUMENT: return "invalid argument";
    case AL_ERR_SHAPE: return "shapes disagree or a dimension is less than 1";
    case AL_ERR_RANGE: return "index out of range";
    case AL_ERR_NONFINITE: return "NaN or infinite value";
    case AL_ERR_NOMEM: return "out of memory";
    case AL_ERR_FORMAT: return "malformed file";
    case AL_ERR_UNSUPPORTED: return "unsupported";
    case AL_ERR_OVERFLOW: return "size overflow";
    }
    return "unknown status";
}
