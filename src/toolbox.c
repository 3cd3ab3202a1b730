/*
 * toolbox.c: toolbox.h: the size checks and the scratch allocator shared by api/, models/, io/.
 */
#include <stdint.h>

#include "toolbox.h"

int al_count_ok(double a, double b, double c, double d)
{
    if (a < 1 || b < 1 || c < 1 || d < 1) return 0;
    return a * b * c * d < 2147483648.0;
}

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
