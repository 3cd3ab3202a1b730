/*
 * finite_scalar.c: find the first NaN or ±Inf in an array: the input check of every op (the JS
 * glue calls it on each tensor it copies into wasm memory, and on each result it copies out).
 */
#include "kernels.h"

int al_first_nonfinite_scalar(const float *x, int n)
{
    /* x − x is 0 for every finite x and NaN for NaN and ±Inf */
    for (int i = 0; i < n; i++)
        if (x[i] - x[i] != 0.0f) return i;
    return -1;
}
