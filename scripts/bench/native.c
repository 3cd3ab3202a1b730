/*
 * native.c: the native benchmark driver, the same attnlab C compiled by gcc -O3 -march=native
 * (the _simd128 twins run on SSE through kernels/simd128.h: the "native app at SSE width" ceiling).
 *
 * Two modes:
 *   bench_native serve   a line protocol on stdin/stdout, driven by scripts/bench.mjs so that
 *                        native rounds interleave with the wasm and JS contenders:
 *       matmul <id> <M> <K> <N> <in> <out>             a [M,K], b [K,N] → c [M,N]
 *       sdpa <id> <B> <H> <T> <S> <D> <Dv> <causal> <weights> <in> <out>
 *                                                      q, k, v → out [B,H,T,Dv]
 *       mha <id> <L> <E> <H> <in> <out>                x [L,E], in_proj_weight [3E,E], in_proj_bias
 *                                                      [3E], out_proj_weight [E,E], out_proj_bias [E]
 *                                                      → out [L,E] (self-attention, B = 1)
 *       additive <id> <n> <dq> <dk> <da> <in> <out>    query [dq], keys [n,dk], W_q [da,dq], W_k
 *                                                      [da,dk], bias [da], v [da] → context [dk]
 *       lstm|gru <id> <T> <I> <H> <in> <out>           x [T,I], w_ih [G·H,I], w_hh [G·H,H], b_ih,
 *                                                      b_hh [G·H] → output [T,H] (B = 1, one layer)
 *       model <id> <file> <S> <in> <out>               src ids int32 [S] → log-probs of the greedy
 *                                                      output [len] (al_model_generate)
 *       train <id> <file> <B> <S> <T> <lr> <clip> <in> <out>
 *                                                      src int32 [B,S], src_len [B], tgt [B,T],
 *                                                      tgt_len [B] → [loss, grad norm] of one Adam
 *                                                      step (timed: al_trainer_step)
 *       hello 0                 → {"ok":true,"simd":1}
 *       time <id> <reps>        → {"ms": per-call milliseconds}
 *       free <id>, quit
 *     set-up commands read the inputs (float32 or int32, concatenated, little-endian), run once,
 *     write the output for the harness to check, and answer {"ok":true} or {"error":"..."}.
 *   bench_native         standalone (make bench-native): a fixed case list with its own inputs,
 *                        one JSON object of medians on stdout.
 * It deliberately does no checking or statistics of its own: bench.mjs does both for every contender.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "attnlab.h"

#define MAX_CASES 256

enum { OP_MATMUL, OP_SDPA, OP_MHA, OP_ADDITIVE, OP_LSTM, OP_GRU, OP_MODEL, OP_TRAIN };

typedef struct {
    int used, op;
    int M, K, N;                   /* matmul */
    int B, H, T, S, D, Dv, causal; /* sdpa; mha uses T (= S), H and E; recurrent T, H and I */
    int E, I, n, dq, dk, da;       /* mha E; recurrent I; additive n, dq, dk, da */
    float *a, *b, *c;              /* matmul a [M,K], b [K,N], c [M,N] */
    float *q, *k, *v, *out,
        *att; /* sdpa q [B,H,T,D], k [B,H,S,D], v [B,H,S,Dv], out [B,H,T,Dv], att [B,H,T,S] or NULL */
    float *blob;         /* the other ops: every input, as read; the pointers below point into it */
    const float *p[8];   /* mha x, w_in, b_in, w_out, b_out; additive query, keys, W_q, W_k,
                                          bias, v; recurrent x, w_ih, w_hh, b_ih, b_hh */
    al_model *model;     /* model, train */
    al_trainer *trainer; /* train */
    int32_t *ids,
        *len; /* model: ids [max_len], len [1]; train: src [B,S], src_len [B], tgt [B,T], tgt_len [B] in blob */
    float *logp, *pos,
        loss; /* model logp [max_len], pos [max_len]; out doubles as att [max_len,S] */
    int max_len;
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
    const float *const *p = c->p;
    const int32_t *ib = (const int32_t *)c->blob;
    switch (c->op) {
    case OP_MATMUL: return al_matmul(c->c, c->a, c->b, c->M, c->K, c->N, 0, 0);
    case OP_SDPA:
        return al_sdpa(c->out, c->att, c->q, c->k, c->v, c->B, c->H, c->T, c->S, c->D, c->Dv, 0.0f,
                       NULL, c->causal);
    case OP_MHA:
        return al_mha_forward(c->out, NULL, p[0], p[0], p[0], p[1], p[2], p[3], p[4], 1, c->T, c->T,
                              c->E, c->H, NULL, 0);
    case OP_ADDITIVE:
        return al_additive_attention_forward(c->out, NULL, p[0], p[1], NULL, p[2], p[3], p[4], p[5],
                                             NULL, 1, c->n, c->dq, c->dk, c->dk, c->da);
    case OP_LSTM:
    case OP_GRU:
        return al_recurrent_forward(c->op == OP_LSTM ? AL_LSTM : AL_GRU, 1, c->T, c->I, c->H, 1, 0,
                                    p[0], p + 1, NULL, NULL, c->out, NULL, NULL);
    case OP_MODEL:
        return al_model_generate(c->model, ib, c->S, c->max_len, 1, c->ids, c->logp, c->out, c->pos,
                                 c->len);
    case OP_TRAIN: {
        /* blob: src [B,S], src_len [B], tgt [B,T], tgt_len [B] */
        const int32_t *src = ib, *src_len = src + c->B * c->S, *tgt = src_len + c->B;
        const int32_t *tgt_len = tgt + c->B * c->T;
        return al_trainer_step(c->trainer, src, src_len, c->S, tgt, tgt_len, c->T, c->B, &c->loss);
    }
    }
    return AL_ERR_ARGUMENT;
}

static void free_case(bench_case *c)
{
    free(c->a);
    free(c->b);
    free(c->c);
    free(c->q);
    free(c->k);
    free(c->v);
    free(c->out);
    free(c->att);
    free(c->blob);
    free(c->ids);
    free(c->len);
    free(c->logp);
    free(c->pos);
    al_trainer_free(c->trainer);
    al_model_free(c->model);
    memset(c, 0, sizeof *c);
}

/* the whole of a file, or NULL; *n its size in bytes */
static void *read_file(const char *path, long *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    void *p = NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (*n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
        p = malloc((size_t)*n);
        if (p && fread(p, 1, (size_t)*n, f) != (size_t)*n) {
            free(p);
            p = NULL;
        }
    }
    fclose(f);
    return p;
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
    fputs("{\"error\":\"", stdout);
    for (; *msg; msg++) { /* JSON string: escape quotes and backslashes, drop control bytes */
        if (*msg == '"' || *msg == '\\') putchar('\\');
        if ((unsigned char)*msg >= 0x20) putchar(*msg);
    }
    fputs("\"}\n", stdout);
    fflush(stdout);
}

/* set-up of mha, additive, lstm, gru, model and train: parse, read, run once, write the output */
static void setup_other(bench_case *c, const char *op, const char *line)
{
    char in[2048], outp[2048], file[2048];
    float lr = 0, clip = 0;
    int ok;
    if (!strcmp(op, "mha")) {
        c->op = OP_MHA;
        ok = sscanf(line, "%*s %*d %d %d %d %2047s %2047s", &c->T, &c->E, &c->H, in, outp) == 5;
    } else if (!strcmp(op, "additive")) {
        c->op = OP_ADDITIVE;
        ok = sscanf(line, "%*s %*d %d %d %d %d %2047s %2047s", &c->n, &c->dq, &c->dk, &c->da, in,
                    outp) == 6;
    } else if (!strcmp(op, "lstm") || !strcmp(op, "gru")) {
        c->op = op[0] == 'l' ? OP_LSTM : OP_GRU;
        ok = sscanf(line, "%*s %*d %d %d %d %2047s %2047s", &c->T, &c->I, &c->H, in, outp) == 5;
    } else if (!strcmp(op, "model")) {
        c->op = OP_MODEL;
        ok = sscanf(line, "%*s %*d %2047s %d %2047s %2047s", file, &c->S, in, outp) == 4;
    } else {
        c->op = OP_TRAIN;
        ok = sscanf(line, "%*s %*d %2047s %d %d %d %f %f %2047s %2047s", file, &c->B, &c->S, &c->T,
                    &lr, &clip, in, outp) == 8;
    }
    long nbytes = 0;
    if (!ok || !(c->blob = read_file(in, &nbytes))) {
        reply_error("bad set-up line or input file");
        free_case(c);
        return;
    }
    long nin = nbytes / 4;
    /* sizes of the inputs in the order the harness wrote them */
    long sizes[8] = { 0 };
    int count = 0;
    if (c->op == OP_MHA) {
        long E = c->E;
        long s[5] = { (long)c->T * E, 3 * E * E, 3 * E, E * E, E };
        memcpy(sizes, s, sizeof s);
        count = 5;
    } else if (c->op == OP_ADDITIVE) {
        long s[6] = { c->dq, (long)c->n * c->dk, (long)c->da * c->dq, (long)c->da * c->dk, c->da,
                      c->da };
        memcpy(sizes, s, sizeof s);
        count = 6;
    } else if (c->op == OP_LSTM || c->op == OP_GRU) {
        long G = c->op == OP_LSTM ? 4 : 3, GH = G * c->H;
        long s[5] = { (long)c->T * c->I, GH * c->I, GH * c->H, GH, GH };
        memcpy(sizes, s, sizeof s);
        count = 5;
    }
    long off = 0;
    for (int i = 0; i < count; i++) {
        c->p[i] = c->blob + off;
        off += sizes[i];
    }
    if (off > nin) {
        reply_error("short input file");
        free_case(c);
        return;
    }
    long nout = 0;
    float *result = NULL, two[2];
    if (c->op == OP_MODEL || c->op == OP_TRAIN) {
        long mlen = 0;
        uint8_t *bytes = read_file(file, &mlen);
        char err[AL_MODEL_ERR_CAP] = "cannot read the model file";
        int st = bytes ? al_model_load(bytes, (size_t)mlen, &c->model, err, sizeof err)
                       : AL_ERR_ARGUMENT;
        free(bytes);
        if (st != AL_OK) {
            reply_error(err);
            free_case(c);
            return;
        }
        if (c->op == OP_MODEL) {
            c->max_len = al_model_max_length(c->model);
            c->ids = malloc(sizeof(int32_t) * (size_t)c->max_len);
            c->len = malloc(sizeof(int32_t));
            c->logp = malloc(sizeof(float) * (size_t)c->max_len);
            c->pos = malloc(sizeof(float) * (size_t)c->max_len);
            c->out = malloc(sizeof(float) * (size_t)c->max_len * (size_t)c->S);
            if (!c->ids || !c->len || !c->logp || !c->pos || !c->out) {
                reply_error("out of memory");
                free_case(c);
                return;
            }
        } else if (al_trainer_create(c->model, AL_OPTIM_ADAM, lr, 0.0f, 0.0f, clip, &c->trainer) !=
                   AL_OK) {
            reply_error("al_trainer_create failed");
            free_case(c);
            return;
        }
    } else {
        nout = c->op == OP_MHA        ? (long)c->T * c->E
               : c->op == OP_ADDITIVE ? c->dk
                                      : (long)c->T * c->H;
        c->out = malloc(sizeof(float) * (size_t)nout);
        if (!c->out) {
            reply_error("out of memory");
            free_case(c);
            return;
        }
        result = c->out;
    }
    int st = run_case(c);
    if (st != AL_OK) {
        reply_error(al_status_string(st));
        free_case(c);
        return;
    }
    if (c->op == OP_MODEL) {
        result = c->logp;
        nout = *c->len;
    }
    if (c->op == OP_TRAIN) {
        two[0] = c->loss;
        two[1] = al_trainer_grad_norm(c->trainer);
        result = two;
        nout = 2;
    }
    if (nout > 0 && !write_floats(outp, result, nout)) {
        reply_error("cannot write output");
        return;
    }
    if (nout == 0) {
        FILE *f = fopen(outp, "wb");
        if (f) fclose(f);
    }
    c->used = 1;
    printf("{\"ok\":true}\n");
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
        if (id < 0 || id >= MAX_CASES) {
            reply_error("bad id");
            continue;
        }
        bench_case *c = &cases[id];
        if (!strcmp(op, "mha") || !strcmp(op, "additive") || !strcmp(op, "lstm") ||
            !strcmp(op, "gru") || !strcmp(op, "model") || !strcmp(op, "train")) {
            free_case(c);
            setup_other(c, op, line);
        } else if (!strcmp(op, "matmul") || !strcmp(op, "sdpa")) {
            free_case(c);
            int weights = 0, ok;
            FILE *f;
            long nout;
            float *outbuf;
            if (op[0] == 'm') {
                c->op = 0;
                ok = sscanf(line, "%*s %*d %d %d %d %2047s %2047s", &c->M, &c->K, &c->N, in,
                            outp) == 5;
            } else {
                c->op = 1;
                ok = sscanf(line, "%*s %*d %d %d %d %d %d %d %d %d %2047s %2047s", &c->B, &c->H,
                            &c->T, &c->S, &c->D, &c->Dv, &c->causal, &weights, in, outp) == 10;
            }
            if (!ok || !(f = fopen(in, "rb"))) {
                reply_error("bad set-up line or input file");
                continue;
            }
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
            if (!ok) {
                free_case(c);
                reply_error("short input file or out of memory");
                continue;
            }
            int st = run_case(c);
            if (st != AL_OK) {
                reply_error(al_status_string(st));
                free_case(c);
                continue;
            }
            if (!write_floats(outp, outbuf, nout)) {
                reply_error("cannot write output");
                continue;
            }
            c->used = 1;
            printf("{\"ok\":true}\n");
        } else if (!strcmp(op, "time")) {
            int reps = 1;
            if (sscanf(line, "%*s %*d %d", &reps) != 1 || reps < 1 || !c->used) {
                reply_error("bad time line");
                continue;
            }
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
    static const int mm[][3] = { { 1, 64, 256 },    { 1, 128, 512 },  { 32, 64, 64 },
                                 { 128, 128, 128 }, { 256, 64, 256 }, { 512, 512, 512 } };
    static const int ns[] = { 16, 64, 256, 1024 };
    int first = 1;
    printf("{\"driver\":\"attnlab native (gcc -O3 -march=native, SSE-width "
           "twins)\",\"simd\":%d,\"results\":[",
           al_simd());
    for (size_t i = 0; i < sizeof mm / sizeof mm[0]; i++) {
        bench_case c = { 0 };
        c.op = 0;
        c.M = mm[i][0];
        c.K = mm[i][1];
        c.N = mm[i][2];
        c.a = rand_array((long)c.M * c.K);
        c.b = rand_array((long)c.K * c.N);
        c.c = malloc(sizeof(float) * (size_t)c.M * c.N);
        double ms = median_ms(&c);
        printf("%s\n{\"op\":\"matmul\",\"M\":%d,\"K\":%d,\"N\":%d,\"ms\":%.6g,\"gflops\":%.4g}",
               first ? "" : ",", c.M, c.K, c.N, ms, 2.0 * c.M * c.K * c.N / ms * 1e-6);
        first = 0;
        free_case(&c);
    }
    for (int h = 1; h <= 4; h += 3)
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
            for (int causal = 0; causal <= 1; causal++) {
                bench_case c = { 0 };
                c.op = 1;
                c.B = 1;
                c.H = h;
                c.T = c.S = ns[i];
                c.D = c.Dv = 64;
                c.causal = causal;
                long bh = (long)c.B * c.H;
                c.q = rand_array(bh * c.T * c.D);
                c.k = rand_array(bh * c.S * c.D);
                c.v = rand_array(bh * c.S * c.Dv);
                c.out = malloc(sizeof(float) * (size_t)(bh * c.T * c.Dv));
                double ms = median_ms(&c);
                printf(",\n{\"op\":\"sdpa\",\"H\":%d,\"n\":%d,\"D\":64,\"causal\":%d,\"ms\":%.6g}",
                       h, ns[i], causal, ms);
                free_case(&c);
            }
    printf("\n]}\n");
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "serve"))
        serve();
    else
        standalone();
    for (int i = 0; i < MAX_CASES; i++) free_case(&cases[i]);
    return 0;
}
