/*
 * native.c: the native benchmark driver, the same attnlab C compiled by gcc -O3 -march=native
 * (the _simd128 twins run on SSE through kernels/simd128.h: the "native app at SSE width" ceiling).
 *
 * Two modes:
 *   bench_native serve   a line protocol on stdin/stdout, driven by scripts/bench.mjs so that
 *                        native rounds interleave with the wasm and JS contenders:
 *       matmul <id> <M> <K> <N> <in.bin> <out.bin>               a [M,K], b [K,N] → c [M,N]
 *       sdpa <id> <B> <H> <T> <S> <D> <Dv> <causal> <weights> <in.bin> <out.bin>
 *                                                               q, k, v → out [B,H,T,Dv]
 *       hello 0                 → {"ok":true,"simd":1}
 *       time <id> <reps>        → {"ms": per-call milliseconds}
 *       free <id>, quit
 *     set-up commands read the inputs (float32, concatenated, little-endian), run once, write
 *     the output for the harness to check, and answer {"ok":true} or {"error":"..."}.
 *   bench_native         standalone (make bench-native): a fixed case list with its own inputs,
 *                        one JSON object of medians on stdout.
 * It deliberately does no checking or statistics of its own: bench.mjs does both for every contender.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "attnlab.h"

#define MAX_CASES 256

typedef struct {
    int used, op;                      /* op 0 matmul, 1 sdpa */
    int M, K, N;                       /* matmul */
    int B, H, T, S, D, Dv, causal;     /* sdpa */
    float *a, *b, *c;                  /* matmul a [M,K], b [K,N], c [M,N] */
    float *q, *k, *v, *out, *att;      /* sdpa q [B,H,T,D], k [B,H,S,D], v [B,H,S,Dv], out [B,H,T,Dv], att [B,H,T,S] or NULL */
} bench_case;

static bench_case cases[MAX_CASES];

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int run_case(bench_case *c)
{
    if (c->op == 0) return al_matmul(c->c, c->a, c->b, c->M, c->K, c->N, 0, 0);
    return al_sdpa(c->out, c->att, c->q, c->k, c->v, c->B, c->H, c->T, c->S, c->D, c->Dv, 0.0f,
                   NULL, c->causal);
}

static void free_case(bench_case *c)
{
    free(c->a); free(c->b); free(c->c);
    free(c->q); free(c->k); free(c->v); free(c->out); free(c->att);
    memset(c, 0, sizeof *c);
}

/* n floats from f, into a fresh array, or NULL */
static float *read_floats(FILE *f, long n)
{
    float *p = malloc(sizeof(float) * (size_t)n);
    if (p && fread(p, sizeof(float), (size_t)n, f) != (size_t)n) {
        free(p);
        return NULL;
    }
    return p;
}

static int write_floats(const char *path, const float *p, long n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    int ok = fwrite(p, sizeof(float), (size_t)n, f) == (size_t)n;
    return fclose(f) == 0 && ok;
}

static void reply_error(const char *msg)
{
    printf("{\"error\":\"%s\"}\n", msg);
    fflush(stdout);
}

static void serve(void)
{
    char line[4096], op[32], in[2048], outp[2048];
    while (fgets(line, sizeof line, stdin)) {
        int id = -1;
        if (sscanf(line, "%31s %d", op, &id) < 1) continue;
        if (!strcmp(op, "quit")) break;
        if (!strcmp(op, "hello")) {
            printf("{\"ok\":true,\"simd\":%d}\n", al_simd());
            fflush(stdout);
            continue;
        }
        if (id < 0 || id >= MAX_CASES) { reply_error("bad id"); continue; }
        bench_case *c = &cases[id];
        if (!strcmp(op, "matmul") || !strcmp(op, "sdpa")) {
            free_case(c);
            int weights = 0, ok;
            FILE *f;
            long nout;
            float *outbuf;
            if (op[0] == 'm') {
                c->op = 0;
                ok = sscanf(line, "%*s %*d %d %d %d %2047s %2047s", &c->M, &c->K, &c->N, in, outp) == 5;
            } else {
                c->op = 1;
                ok = sscanf(line, "%*s %*d %d %d %d %d %d %d %d %d %2047s %2047s", &c->B, &c->H, &c->T,
                            &c->S, &c->D, &c->Dv, &c->causal, &weights, in, outp) == 10;
            }
            if (!ok || !(f = fopen(in, "rb"))) { reply_error("bad set-up line or input file"); continue; }
            if (c->op == 0) {
                c->a = read_floats(f, (long)c->M * c->K);
                c->b = read_floats(f, (long)c->K * c->N);
                c->c = malloc(sizeof(float) * (size_t)c->M * c->N);
                ok = c->a && c->b && c->c;
                outbuf = c->c;
                nout = (long)c->M * c->N;
            } else {
                long bh = (long)c->B * c->H;
                c->q = read_floats(f, bh * c->T * c->D);
                c->k = read_floats(f, bh * c->S * c->D);
                c->v = read_floats(f, bh * c->S * c->Dv);
                c->out = malloc(sizeof(float) * (size_t)(bh * c->T * c->Dv));
                c->att = weights ? malloc(sizeof(float) * (size_t)(bh * c->T * c->S)) : NULL;
                ok = c->q && c->k && c->v && c->out && (!weights || c->att);
                outbuf = c->out;
                nout = bh * c->T * c->Dv;
            }
            fclose(f);
            if (!ok) { free_case(c); reply_error("short input file or out of memory"); continue; }
            int st = run_case(c);
            if (st != AL_OK) { reply_error(al_status_string(st)); free_case(c); continue; }
            if (!write_floats(outp, outbuf, nout)) { reply_error("cannot write output"); continue; }
            c->used = 1;
            printf("{\"ok\":true}\n");
        } else if (!strcmp(op, "time")) {
            int reps = 1;
            if (sscanf(line, "%*s %*d %d", &reps) != 1 || reps < 1 || !c->used) { reply_error("bad time line"); continue; }
            double t0 = now_ms();
            for (int r = 0; r < reps; r++) run_case(c);
            printf("{\"ms\":%.9g}\n", (now_ms() - t0) / reps);
        } else if (!strcmp(op, "free")) {
            free_case(c);
            printf("{\"ok\":true}\n");
        } else {
            reply_error("unknown command");
        }
        fflush(stdout);
    }
}

/* ------------------------------------------------------------------ standalone */

static unsigned rng_state = 12345u;
static float frand(void) /* uniform [-1, 1) */
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)(rng_state >> 8) / 8388608.0f - 1.0f;
}

static float *rand_array(long n)
{
    float *p = malloc(sizeof(float) * (size_t)n);
    for (long i = 0; p && i < n; i++) p[i] = frand();
    return p;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* median of 15 samples of ~20 ms each */
static double median_ms(bench_case *c)
{
    double samples[15];
    run_case(c);
    double t0 = now_ms();
    run_case(c);
    double one = now_ms() - t0;
    int reps = one > 20.0 ? 1 : (int)(20.0 / (one > 1e-4 ? one : 1e-4)) + 1;
    for (int s = 0; s < 15; s++) {
        t0 = now_ms();
        for (int r = 0; r < reps; r++) run_case(c);
        samples[s] = (now_ms() - t0) / reps;
    }
    qsort(samples, 15, sizeof(double), cmp_double);
    return samples[7];
}

static void standalone(void)
{
    static const int mm[][3] = { { 1, 64, 256 }, { 1, 128, 512 }, { 32, 64, 64 },
                                 { 128, 128, 128 }, { 256, 64, 256 }, { 512, 512, 512 } };
    static const int ns[] = { 16, 64, 256, 1024 };
    int first = 1;
    printf("{\"driver\":\"attnlab native (gcc -O3 -march=native, SSE-width twins)\",\"simd\":%d,\"results\":[", al_simd());
    for (size_t i = 0; i < sizeof mm / sizeof mm[0]; i++) {
        bench_case c = { 0 };
        c.op = 0; c.M = mm[i][0]; c.K = mm[i][1]; c.N = mm[i][2];
        c.a = rand_array((long)c.M * c.K);
        c.b = rand_array((long)c.K * c.N);
        c.c = malloc(sizeof(float) * (size_t)c.M * c.N);
        double ms = median_ms(&c);
        printf("%s\n{\"op\":\"matmul\",\"M\":%d,\"K\":%d,\"N\":%d,\"ms\":%.6g,\"gflops\":%.4g}", first ? "" : ",",
               c.M, c.K, c.N, ms, 2.0 * c.M * c.K * c.N / ms * 1e-6);
        first = 0;
        free_case(&c);
    }
    for (int h = 1; h <= 4; h += 3)
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
            for (int causal = 0; causal <= 1; causal++) {
                bench_case c = { 0 };
                c.op = 1; c.B = 1; c.H = h; c.T = c.S = ns[i]; c.D = c.Dv = 64; c.causal = causal;
                long bh = (long)c.B * c.H;
                c.q = rand_array(bh * c.T * c.D);
                c.k = rand_array(bh * c.S * c.D);
                c.v = rand_array(bh * c.S * c.Dv);
                c.out = malloc(sizeof(float) * (size_t)(bh * c.T * c.Dv));
                double ms = median_ms(&c);
                printf(",\n{\"op\":\"sdpa\",\"H\":%d,\"n\":%d,\"D\":64,\"causal\":%d,\"ms\":%.6g}", h, ns[i], causal, ms);
                free_case(&c);
            }
    printf("\n]}\n");
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "serve")) serve();
    else standalone();
    for (int i = 0; i < MAX_CASES; i++) free_case(&cases[i]);
    return 0;
}
