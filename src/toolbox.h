/*
 * toolbox.h: the helpers every layer above the kernels (api/, models/, io/) shares, one of each.
 *
 *     AL_TRY(al_cfg_int(cfg, "hiddenSize", 1, 4096, -1, &H, err, errlen));
 *     if (!al_count_ok(B, T, H, 1)) return AL_ERR_OVERFLOW;
 *     al_status st;
 *     float *scratch = al_alloc_floats((double)need, &st);
 *     if (!scratch) return st;
 *
 * Deliberately not here: anything a caller of attnlab.h sees (base.h), any maths (kernels/).
 */
#ifndef AL_TOOLBOX_H
#define AL_TOOLBOX_H

#include <stddef.h>

#include "base.h"

/* Return the status of x from the enclosing function unless it is AL_OK. */
#define AL_TRY(x) do { al_status st_ = (x); if (st_ != AL_OK) return st_; } while (0)

/* 1 when a·b·c·d, all >= 1, stays below 2^31 elements (the library's limit for a tensor). Pass 1
 * for unused factors. In double, so no product wraps whatever the callers' integer types. */
int al_count_ok(double a, double b, double c, double d);

/*
 * al_malloc for n floats (n < 1 allocates one, so a size of 0 still gets a block), n counted in
 * double so a sum of sizes cannot wrap size_t (wasm32: 4 GiB) before it is checked. NULL when the
 * bytes do not fit size_t (*st = AL_ERR_OVERFLOW) or the allocation fails (*st = AL_ERR_NOMEM);
 * st may be NULL. Free with al_free.
 */
float *al_alloc_floats(double n, al_status *st);

#endif /* AL_TOOLBOX_H */
