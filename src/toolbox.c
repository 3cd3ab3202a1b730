/*
 * toolbox.c: toolbox.h: the scratch allocator and the message writer shared by api/, models/, io/
 * (al_count_ok is inline in toolbox.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "toolbox.h"

float *al_alloc_floats(double n, al_status *st)
{
    if (n < 1) n = 1;
    if (n * sizeof(float) >= (double)SIZE_MAX) {
        if (st) *st = AL_ERR_OVERFLOW;
        return NULL;
    }
    float *p = al_malloc((size_t)n * sizeof(float));
    if (st) *st = p ? AL_OK : AL_ERR_NOMEM;
    return p;
}

/* ------------------------------------------------------------------ messages */

void al_msg_put(al_msg *m, const char *s, size_t n)
{
    if (!m->buf || m->cap == 0) return;
    for (size_t k = 0; k < n && m->len + 1 < m->cap; k++) m->buf[m->len++] = s[k];
    m->buf[m->len] = 0;
}

void al_msg_str(al_msg *m, const char *s) { al_msg_put(m, s, strlen(s)); }

void al_msg_uint(al_msg *m, unsigned long long v)
{
    char tmp[24];
    int k = 24;
    do {
        tmp[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    al_msg_put(m, tmp + k, (size_t)(24 - k));
}

void al_msg_int(al_msg *m, long long v)
{
    if (v < 0) al_msg_put(m, "-", 1);
    al_msg_uint(m, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v);
}

void al_msg_end(al_msg *m)
{
    if (!m->buf || m->len == 0) return;
    size_t k = m->len, cont = 0;
    while (k > 0 && ((unsigned char)m->buf[k - 1] & 0xC0) == 0x80 && cont < 3) {
        k--;
        cont++;
    }
    if (k == 0) return;
    unsigned char lead = (unsigned char)m->buf[k - 1];
    size_t need = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0;
    if (lead >= 0xC0 && cont < need) {
        m->len = k - 1;
        m->buf[m->len] = 0;
    }
}

al_status al_errf(char *err, size_t errlen, al_status status, const char *fmt, ...)
{
    if (!err || errlen == 0) return status;
    al_msg m = { err, errlen, 0 };
    err[0] = 0;
    va_list ap;
    va_start(ap, fmt);
    for (const char *p = fmt; *p; p++) {
        if (*p != '%' || !p[1]) {
            al_msg_put(&m, p, 1);
            continue;
        }
        p++;
        if (*p == 's') {
            const char *s = va_arg(ap, const char *);
            if (!s) s = "(null)";
            size_t n = strlen(s);
            al_msg_put(&m, s, n > 96 ? 96 : n); /* names are cut, not the message */
        } else if (*p == 'd') {
            al_msg_int(&m, va_arg(ap, int));
        } else {
            al_msg_put(&m, p, 1);
        }
    }
    va_end(ap);
    al_msg_end(&m);
    return status;
}
