/*
 * toolbox.h: the helpers every layer above the kernels (api/, models/, io/) shares, one of each.
 *
 *     AL_TRY(al_cfg_int(cfg, "hiddenSize", 1, 4096, -1, &H, err, errlen));
 *     if (!al_count_ok(B, T, H, 1)) return AL_ERR_OVERFLOW;
 *     al_status st;
 *     float *scratch = al_alloc_floats((double)need, &st);
 *     if (!scratch) return st;
 *     return al_errf(err, errlen, AL_ERR_FORMAT, "missing tensor \"%s\"", name);
 *
 * Messages: every message attnlab writes goes through al_msg, into a caller's buffer, cut to fit
 * and never ending in half a UTF-8 character. No vsnprintf: it would pull libc's whole printf
 * machinery (tens of KB) into the .wasm for a handful of error messages.
 * Deliberately not here: anything a caller of attnlab.h sees (base.h), any maths (kernels/).
 */
#ifndef AL_TOOLBOX_H
#define AL_TOOLBOX_H

#include <stddef.h>

#include "base.h"

/* Return the status of x from the enclosing function unless it is AL_OK. */
#define AL_TRY(x)                                                                                  \
    do {                                                                                           \
        al_status st_ = (x);                                                                       \
        if (st_ != AL_OK) return st_;                                                              \
    } while (0)

/* 1 when a·b·c·d, all >= 1, stays below 2^31 elements (the library's limit for a tensor). Pass 1
 * for unused factors. In double, so no product wraps whatever the callers' integer types. Inline:
 * at each call site the constant factors fold away (a call would convert four doubles). */
static inline int al_count_ok(double a, double b, double c, double d)
{
    if (a < 1 || b < 1 || c < 1 || d < 1) return 0;
    return a * b * c * d < 2147483648.0;
}

/*
 * al_malloc for n floats (n < 1 allocates one, so a size of 0 still gets a block), n counted in
 * double so a sum of sizes cannot wrap size_t (wasm32: 4 GiB) before it is checked. NULL when the
 * bytes do not fit size_t (*st = AL_ERR_OVERFLOW) or the allocation fails (*st = AL_ERR_NOMEM);
 * st may be NULL. Free with al_free.
 */
float *al_alloc_floats(double n, al_status *st);

/* A message being written into buf [cap]: truncated when full, always NUL-terminated (when
 * cap > 0); a NULL buf or cap 0 writes nothing. Start with { buf, cap, 0 } and buf[0] = 0. */
typedef struct {
    char *buf; /* [cap] */
    size_t cap;
    size_t len; /* bytes written, NUL excluded */
} al_msg;

void al_msg_put(al_msg *m, const char *s, size_t n); /* s [n] */
void al_msg_str(al_msg *m, const char *s);
void al_msg_uint(al_msg *m, unsigned long long v); /* decimal */
void al_msg_int(al_msg *m, long long v);
/* Drop a UTF-8 sequence cut in half by truncation, so the message decodes cleanly. */
void al_msg_end(al_msg *m);

/* Write fmt into err [errlen] (when non-NULL) and return status: %s (a string, cut to 96 bytes:
 * names are cut, not the message; NULL prints "(null)"), %d (an int) and %% only. */
al_status al_errf(char *err, size_t errlen, al_status status, const char *fmt, ...);

#endif /* AL_TOOLBOX_H */
