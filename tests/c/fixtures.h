/*
 * fixtures.h: what the C tests share beyond check.h (include it after check.h and attnlab.h):
 *   - arrays: falloc/dalloc (at least one element, zeroed, exit on OOM) and track_worst, the
 *     largest |float − reference| seen, for the summary lines;
 *   - PyTorch fixtures (tests/fixtures/, paths relative to the repository root):
 *     fixture_read_all, fixture_open (a reference file, or a note when the tests run from
 *     elsewhere), fixture_tensor / fixture_get ("<case>.<what>") as malloc'd floats,
 *     fixture_close (a comparison at the model tolerances, atol 1e-5 / rtol 1e-4, that records
 *     the worst |diff| in fixture_worst), fixture_model (load tests/fixtures/<family>_<case>) and
 *     fixture_gradients (every gradient of a trainer against "<case>.grad.<name>");
 *   - models: fixture_create (a model from printf-style config text and a seed) and
 *     fixture_fd_check (the analytic gradient of every weight against central finite
 *     differences of a loss the test computes through the inference path, in double).
 * Each counts its checks through check.h, so a test's "N passed" line is what it was when these
 * were copies in every file. Static inline so a test that uses a few gets no unused-function
 * warnings for the rest. The wasm test build has no host files: there fixture_read_all and
 * fixture_open find nothing, and the tests skip their fixture cases.
 */
#ifndef AL_FIXTURES_H
#define AL_FIXTURES_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attnlab.h"
#include "check.h"

#define FIXTURE_ATOL 1e-5 /* whole model vs PyTorch fixture (STYLE.md) */
#define FIXTURE_RTOL 1e-4

/* ------------------------------------------------------------------ arrays */

static inline float *falloc(long n) { return check_alloc(sizeof(float) * (size_t)(n ? n : 1)); }
static inline double *dalloc(long n) { return check_alloc(sizeof(double) * (size_t)(n ? n : 1)); }

/* *worst = max(*worst, max_i |a_i − e_i|) */
static inline void track_worst(double *worst, const float *a, const double *e, long n)
{
    for (long i = 0; i < n; i++)
        if (fabs((double)a[i] - e[i]) > *worst) *worst = fabs((double)a[i] - e[i]);
}

/* ------------------------------------------------------------------ fixture files */

/* The whole file at path (check_alloc'd, *len bytes), or NULL when it cannot be opened. */
static inline uint8_t *fixture_read_all(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *b = check_alloc((size_t)n);
    *len = fread(b, 1, (size_t)n, fp);
    fclose(fp);
    return b;
}

/* An open safetensors file and the bytes it reads from (fixture_free frees both). */
typedef struct {
    uint8_t *bytes;
    al_safetensors *st;
} fixture_file;

/*
 * Open the reference file at path into f; 1 when it opened. A file that does not open is a
 * failed check named label. A missing file (a run from outside the repository root) prints
 * "note: tests/fixtures not found (...); <skipped> skipped" and counts nothing; with skipped
 * NULL, finding the file is itself a check, "<file name> found (run from the repository root)".
 */
static inline int fixture_open(fixture_file *f, const char *path, const char *label,
                               const char *skipped)
{
    size_t len = 0;
    f->st = NULL;
    f->bytes = fixture_read_all(path, &len);
    if (!skipped) {
        const char *base = strrchr(path, '/');
        char what[256];
        snprintf(what, sizeof what, "%s found (run from the repository root)",
                 base ? base + 1 : path);
        if (!check_true(what, f->bytes != NULL)) return 0;
    } else if (!f->bytes) {
        printf("note: tests/fixtures not found (run from the repository root); %s skipped\n",
               skipped);
        return 0;
    }
    if (!check_true(label, al_safetensors_open(f->bytes, len, &f->st, NULL, 0) == AL_OK)) {
        free(f->bytes);
        f->bytes = NULL;
        f->st = NULL;
        return 0;
    }
    return 1;
}

static inline void fixture_free(fixture_file *f)
{
    al_safetensors_free(f->st);
    free(f->bytes);
    f->st = NULL;
    f->bytes = NULL;
}

/* Tensor name of st as malloc'd floats (NULL and *n = 0 when absent). */
static inline float *fixture_tensor(al_safetensors *st, const char *name, int *n)
{
    int i = al_safetensors_find(st, name);
    *n = 0;
    if (i < 0) return NULL;
    *n = al_safetensors_numel(st, i);
    float *x = falloc(*n);
    al_safetensors_read_f32(st, i, x, (size_t)*n);
    return x;
}

/* Tensor "<cas>.<what>" of a reference file, as fixture_tensor. */
static inline float *fixture_get(al_safetensors *ref, const char *cas, const char *what, int *n)
{
    char name[320];
    snprintf(name, sizeof name, "%s.%s", cas, what);
    return fixture_tensor(ref, name, n);
}

/* The largest |diff| fixture_close has seen, for a test's summary line. */
static double fixture_worst;

/* got [n] against the fixture's want [n] at atol 1e-5 / rtol 1e-4; no want (a tensor missing
 * from the fixture) or n <= 0 is a failure. */
static inline void fixture_close(const char *what, const float *got, const float *want, long n)
{
    if (n <= 0 || !want) {
        check_true(what, 0);
        return;
    }
    for (long i = 0; i < n; i++) {
        const double d = fabs((double)got[i] - want[i]);
        if (d > fixture_worst) fixture_worst = d;
    }
    check_close_f(what, got, want, n, FIXTURE_ATOL, FIXTURE_RTOL);
}

/* The model of tests/fixtures/<family>_<cas>.safetensors, or NULL; one check "<cas> <what>"
 * (e.g. "loads"), with the loader's message printed when it fails. */
static inline al_model *fixture_model(const char *family, const char *cas, const char *what)
{
    char path[256], label[256], err[AL_MODEL_ERR_CAP] = "";
    snprintf(path, sizeof path, "tests/fixtures/%s_%s.safetensors", family, cas);
    snprintf(label, sizeof label, "%s %s", cas, what);
    size_t len;
    uint8_t *bytes = fixture_read_all(path, &len);
    al_model *m = NULL;
    if (!check_true(label, bytes && al_model_load(bytes, len, &m, err, sizeof err) == AL_OK)) {
        printf("  %s\n", err);
        m = NULL;
    }
    free(bytes); /* the model owns its weights */
    return m;
}

/*
 * Every parameter gradient of tr's last al_trainer_gradient against "<cas>.grad.<name>" of ref
 * (PyTorch autograd): per tensor one check that the fixture has it at the same size, then
 * fixture_close; both labelled label_fmt with (cas, name). Returns how many tensors had a
 * fixture of their size, or -1 when the gradients could not be exported; *total (may be NULL)
 * = how many gradient tensors the trainer has.
 */
static inline int fixture_gradients(al_trainer *tr, al_safetensors *ref, const char *cas,
                                    const char *label_fmt, int *total)
{
    uint8_t *gb;
    size_t gl;
    al_safetensors *g = NULL;
    if (al_trainer_save_gradients(tr, &gb, &gl) != AL_OK) return -1;
    if (al_safetensors_open(gb, gl, &g, NULL, 0) != AL_OK) {
        al_free(gb);
        return -1;
    }
    const int count = al_safetensors_count(g);
    int matched = 0;
    for (int i = 0; i < count; i++) {
        const char *name = al_safetensors_name(g, i);
        char what[256], label[320];
        int n, nr;
        snprintf(what, sizeof what, "grad.%s", name);
        float *got = fixture_tensor(g, name, &n), *want = fixture_get(ref, cas, what, &nr);
        snprintf(label, sizeof label, label_fmt, cas, name);
        if (check_true(label, want && nr == n)) {
            fixture_close(label, got, want, n);
            matched++;
        }
        free(got);
        free(want);
    }
    al_safetensors_free(g);
    al_free(gb);
    if (total) *total = count;
    return matched;
}

/* ------------------------------------------------------------------ models */

/* al_model_create of the config printf(fmt, ...) (at most 4 KB) with seed; NULL and the message
 * in err [AL_MODEL_ERR_CAP] when it fails. */
static inline al_model *fixture_create(uint32_t seed, char *err, const char *fmt, ...)
{
    char cfg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cfg, sizeof cfg, fmt, ap);
    va_end(ap);
    al_model *m = NULL;
    if (al_model_create(cfg, strlen(cfg), seed, &m, err, AL_MODEL_ERR_CAP) != AL_OK) return NULL;
    return m;
}

/*
 * The analytic gradient g [n] of the weights w [n] against central finite differences of
 * loss(ctx), which reads w (a model's al_model_weights) and sums in double: one check
 * "<name>: gradient vs finite differences (<n> weights)" at atol 1e-4 / rtol 1e-2 (STYLE.md).
 * The denominator is the step actually taken in float.
 */
static inline void fixture_fd_check(const char *name, float *w, int n, const float *g,
                                    double (*loss)(const void *ctx), const void *ctx)
{
    double *fd = dalloc(n);
    const float eps = 2e-3f;
    for (int i = 0; i < n; i++) {
        const float keep = w[i];
        w[i] = keep + eps;
        const double lp = loss(ctx);
        w[i] = keep - eps;
        const double lm = loss(ctx);
        w[i] = keep;
        fd[i] = (lp - lm) / ((double)(keep + eps) - (double)(keep - eps));
    }
    char what[256];
    snprintf(what, sizeof what, "%s: gradient vs finite differences (%d weights)", name, n);
    check_close_d(what, g, fd, n, 1e-4, 1e-2);
    free(fd);
}

#endif /* AL_FIXTURES_H */
