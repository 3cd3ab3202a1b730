/*
 * check.h: the C tests' whole harness. Comparisons against references with atol/rtol, that
 * print the worst difference and where it was, count passes and failures, and make main()
 * return non-zero when anything failed. The closing line is "N passed, N failed".
 *
 * Also a small deterministic PRNG, so every test input is reproducible.
 *
 * The helpers are static inline, as in fixtures.h: a test that calls only some of them gets no
 * unused-function warning (the tests build with -Werror).
 */
#ifndef AL_CHECK_H
#define AL_CHECK_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int check_passed, check_failed;

/* xorshift64*, seeded per test */
static uint64_t check_rng_state = 0x9E3779B97F4A7C15ull;
static inline void check_seed(uint64_t s) { check_rng_state = s * 0x9E3779B97F4A7C15ull + 1; }
static inline double check_uniform(void) /* [0, 1) */
{
    check_rng_state ^= check_rng_state >> 12;
    check_rng_state ^= check_rng_state << 25;
    check_rng_state ^= check_rng_state >> 27;
    return (double)((check_rng_state * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}
static inline float check_randf(float lo, float hi)
{
    return lo + (hi - lo) * (float)check_uniform();
}
static inline void check_fill(float *x, long n, float lo, float hi)
{
    for (long i = 0; i < n; i++) x[i] = check_randf(lo, hi);
}

static inline void *check_alloc(size_t bytes)
{
    void *p = calloc(bytes ? bytes : 1, 1);
    if (!p) {
        fprintf(stderr, "test: out of memory\n");
        exit(2);
    }
    return p;
}

/*
 * Compare float results with a double reference. Element i passes when
 *   |a − e| <= atol + rtol · mag_i,   mag_i = |e_i|, or the caller's magnitude (e.g. Σ|a_k·b_k|
 *   for a dot product, whose rounding error scales with that sum, not with the possibly
 *   cancelled result). NaN passes only against NaN.
 */
static inline int check_close_mag(const char *what, const float *a, const double *e,
                                  const double *mag, long n, double atol, double rtol)
{
    long worst = -1;
    double worst_excess = 0.0;
    for (long i = 0; i < n; i++) {
        double excess;
        if (isnan(a[i]) || isnan(e[i])) {
            if (isnan(a[i]) && isnan(e[i])) continue;
            excess = INFINITY;
        } else {
            double m = mag ? mag[i] : fabs(e[i]);
            excess = fabs((double)a[i] - e[i]) - (atol + rtol * m);
            if (isinf(e[i]) && a[i] == e[i]) excess = 0.0;
        }
        if (excess > 0.0 && (worst < 0 || excess > worst_excess)) {
            worst = i;
            worst_excess = excess;
        }
    }
    if (worst >= 0) {
        check_failed++;
        printf(
            "FAIL %s: worst at [%ld] of %ld: got %.9g, want %.9g (|diff| %.3g, atol %g, rtol %g)\n",
            what, worst, n, (double)a[worst], e[worst], fabs((double)a[worst] - e[worst]), atol,
            rtol);
        return 0;
    }
    check_passed++;
    return 1;
}

static inline int check_close_d(const char *what, const float *a, const double *e, long n,
                                double atol, double rtol)
{
    return check_close_mag(what, a, e, NULL, n, atol, rtol);
}

static inline int check_close_f(const char *what, const float *a, const float *e, long n,
                                double atol, double rtol)
{
    double *ed = check_alloc(sizeof(double) * (size_t)(n ? n : 1));
    for (long i = 0; i < n; i++) ed[i] = e[i];
    int ok = check_close_d(what, a, ed, n, atol, rtol);
    free(ed);
    return ok;
}

static inline int check_true(const char *what, int cond)
{
    if (cond) {
        check_passed++;
        return 1;
    }
    check_failed++;
    printf("FAIL %s\n", what);
    return 0;
}

static inline int check_report(const char *suite)
{
    printf("%s: %d passed, %d failed\n", suite, check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif /* AL_CHECK_H */
