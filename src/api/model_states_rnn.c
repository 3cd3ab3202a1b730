/*
 * api/model_states_rnn.c: the checked intermediate-states entry points of api/model.h for the
 * recurrent architectures, seq2seq and memory-rnn (docs/states.md): the buffer layout, NULLs and
 * sizes, then models/seq2seq_states.c or models/memory_rnn_model.c, then the results policy
 * (docs/reliability.md) with the one exception states have: scores may be -INFINITY where the
 * softmax read nothing.
 * Deliberately not here: any maths (the same step and kernels as the plain forward do it).
 */
#include <math.h>
#include <string.h>

#include "../attnlab.h"
#include "model.h"
#include "../models/model.h"
#include "../models/seq2seq.h"
#include "../models/memory_rnn_model.h"
#include "../kernels/attention_additive_luong.h"

/* the largest buffer: its size in bytes must stay below 2^31 */
#define MAX_FLOATS 536870912.0

/*
 * rc [count][2] (rows, columns; rows 0 = absent) -> layout [3·count] of offsets, rows, columns
 * (-1s for an absent field); the total in floats. Above MAX_FLOATS nothing fits an int32 offset:
 * every entry is -1 and the total is returned for the caller to refuse.
 */
static double lay_out(const int (*rc)[2], int count, int32_t *layout)
{
    double total = 0.0;
    for (int k = 0; k < count; k++) total += (double)rc[k][0] * rc[k][1];
    int32_t off = 0;
    for (int k = 0; k < count; k++) {
        const int on = rc[k][0] > 0 && total < MAX_FLOATS;
        layout[3 * k] = on ? off : -1;
        layout[3 * k + 1] = on ? rc[k][0] : -1;
        layout[3 * k + 2] = on ? rc[k][1] : -1;
        off += on ? rc[k][0] * rc[k][1] : 0;
    }
    return total;
}

static const al_seq2seq *s2s(const al_model *m) { return (const al_seq2seq *)m->impl; }
static const al_memory_rnn *mem(const al_model *m) { return (const al_memory_rnn *)m->impl; }

/*
 * What both states calls share once the arguments are checked: lay the fields of rc out in
 * states, run the architecture's states pass (seq2seq: src [S] and tgt [T]; memory-rnn: ids =
 * src [S]), then the results policy, where the scores field may hold -inf.
 */
static al_status run_states(const al_model *m, const int (*rc)[2], int count, int scores,
                            const int32_t *src, int S, const int32_t *tgt, int T, float *states)
{
    int32_t l[3 * AL_S2S_STATE_COUNT]; /* the larger count */
    float *p[AL_S2S_STATE_COUNT];
    if (lay_out(rc, count, l) >= MAX_FLOATS) return AL_ERR_OVERFLOW;
    for (int k = 0; k < count; k++) p[k] = l[3 * k] < 0 ? NULL : states + l[3 * k];
    al_status st = m->arch == AL_ARCH_SEQ2SEQ ? al_seq2seq_states(s2s(m), src, S, tgt, T, p)
                                              : al_memory_rnn_states(mem(m), src, S, p);
    for (int k = 0; st == AL_OK && k < count; k++) {
        const int n = p[k] ? l[3 * k + 1] * l[3 * k + 2] : 0;
        if (k != scores && al_check_finite(p[k], n) >= 0) st = AL_ERR_NONFINITE;
        for (int i = 0; k == scores && i < n; i++)
            if (!(p[k][i] < INFINITY)) st = AL_ERR_NONFINITE; /* NaN or +inf; -inf is fine */
    }
    return st;
}

/* ------------------------------------------------------------------ seq2seq */

static void s2s_rc(const al_seq2seq *s, int S, int T, int rc[AL_S2S_STATE_COUNT][2])
{
    const int att = s->dc > 0 ? T : 0, H = s->H;
    const int v[AL_S2S_STATE_COUNT][2] = {
        [AL_S2S_STATE_EMBEDDED] = { S, s->E },
        [AL_S2S_STATE_ENCODER] = { S, H },
        [AL_S2S_STATE_INITIAL] = { 1, H },
        [AL_S2S_STATE_QUERY] = { att, H },
        [AL_S2S_STATE_SCORES] = { att, S },
        [AL_S2S_STATE_WEIGHTS] = { T, S },
        [AL_S2S_STATE_CONTEXT] = { att, s->dc },
        [AL_S2S_STATE_DECODER] = { T, H },
        [AL_S2S_STATE_ATTENTIONAL] = { s->style == AL_S2S_LUONG ? att : 0, H },
        [AL_S2S_STATE_POSITIONS] = { s->local != AL_LUONG_GLOBAL ? T : 0, 1 },
        [AL_S2S_STATE_LOG_PROBS] = { T, s->Vt },
    };
    memcpy(rc, v, sizeof v);
}

double al_model_seq2seq_states_layout(const al_model *m, int S, int T, int32_t *layout, int n)
{
    int rc[AL_S2S_STATE_COUNT][2];
    if (!m || m->arch != AL_ARCH_SEQ2SEQ || !layout || n < 3 * AL_S2S_STATE_COUNT) return -1.0;
    if (S < 1 || S > AL_MODEL_MAX_SOURCE || T < 1 || T > AL_MODEL_MAX_STEPS) return -1.0;
    s2s_rc(s2s(m), S, T, rc);
    return lay_out(rc, AL_S2S_STATE_COUNT, layout);
}

al_status al_model_seq2seq_states(const al_model *m, const int32_t *src, int S, const int32_t *tgt,
                                  int T, float *states)
{
    if (!m || !src || !tgt || !states) return AL_ERR_ARGUMENT;
    if (m->arch != AL_ARCH_SEQ2SEQ) return AL_ERR_UNSUPPORTED;
    if (S < 1 || S > AL_MODEL_MAX_SOURCE || T < 1 || T > AL_MODEL_MAX_STEPS) return AL_ERR_SHAPE;
    const al_seq2seq *s = s2s(m);
    for (int i = 0; i < S; i++)
        if (src[i] < 0 || src[i] >= s->Vs) return AL_ERR_RANGE;
    int rc[AL_S2S_STATE_COUNT][2];
    s2s_rc(s, S, T, rc);
    return run_states(m, rc, AL_S2S_STATE_COUNT, AL_S2S_STATE_SCORES, src, S, tgt, T, states);
}

/* ------------------------------------------------------------------ memory-rnn */

static void mem_rc(const al_memory_rnn *r, int n, int rc[AL_MEM_STATE_COUNT][2])
{
    const int att = r->cell != AL_MEM_LSTM ? n : 0, H = r->H;
    const int v[AL_MEM_STATE_COUNT][2] = {
        [AL_MEM_STATE_EMBEDDED] = { n, r->E },
        [AL_MEM_STATE_HIDDEN] = { n, H },
        [AL_MEM_STATE_MEMORY] = { r->cell != AL_MEM_SARNN ? n : 0, H },
        [AL_MEM_STATE_SCORES] = { att, n },
        [AL_MEM_STATE_WEIGHTS] = { att, n },
        [AL_MEM_STATE_SUMMARY] = { att, H },
        [AL_MEM_STATE_MEMORY_SUMMARY] = { r->cell == AL_MEM_LSTMN ? n : 0, H },
    };
    memcpy(rc, v, sizeof v);
}

double al_model_memory_states_layout(const al_model *m, int n, int32_t *layout, int count)
{
    int rc[AL_MEM_STATE_COUNT][2];
    if (!m || m->arch != AL_ARCH_MEMORY_RNN || !layout || count < 3 * AL_MEM_STATE_COUNT)
        return -1.0;
    if (n < 1 || n > AL_MODEL_MAX_SOURCE) return -1.0;
    mem_rc(mem(m), n, rc);
    return lay_out(rc, AL_MEM_STATE_COUNT, layout);
}

al_status al_model_memory_states(const al_model *m, const int32_t *ids, int n, float *states)
{
    if (!m || !ids || !states) return AL_ERR_ARGUMENT;
    if (m->arch != AL_ARCH_MEMORY_RNN) return AL_ERR_UNSUPPORTED;
    if (n < 1 || n > AL_MODEL_MAX_SOURCE) return AL_ERR_SHAPE;
    int rc[AL_MEM_STATE_COUNT][2];
    mem_rc(mem(m), n, rc);
    return run_states(m, rc, AL_MEM_STATE_COUNT, AL_MEM_STATE_SCORES, ids, n, NULL, 0, states);
}
