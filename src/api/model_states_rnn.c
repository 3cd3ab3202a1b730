/*
 * api/model_states_rnn.c: the checked intermediate-states entry points of api/model.h for the
 * recurrent architectures, seq2seq and memory-rnn (docs/states.md): the buffer layout, NULLs and
 * sizes, then models/seq2seq_states.c or models/memory_rnn_model.c, then the results policy
 * (docs/reliability.md) with the one exception states have: scores may be -INFINITY where the
 * softmax read nothing.
 * Deliberately not here: any maths (the same step and kernels as the plain forward do it).
 */
#include <math.h>

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
    for (int k = 0; k < count; k++) total += rc[k][0] > 0 ? (double)rc[k][0] * rc[k][1] : 0.0;
    double off = 0.0;
    for (int k = 0; k < count; k++) {
        const int on = rc[k][0] > 0 && total < MAX_FLOATS;
        layout[3 * k] = on ? (int32_t)off : -1;
        layout[3 * k + 1] = on ? rc[k][0] : -1;
        layout[3 * k + 2] = on ? rc[k][1] : -1;
        if (on) off += (double)rc[k][0] * rc[k][1];
    }
    return total;
}

/* The pointer of field k in states, NULL when the layout has none. */
static float *field(float *states, const int32_t *layout, int k)
{
    return layout[3 * k] < 0 ? NULL : states + layout[3 * k];
}

/* AL_ERR_NONFINITE when a field holds NaN or ±inf (scores: NaN or +inf) */
static al_status finite_fields(al_status st, const float *states, const int32_t *layout, int count,
                               int scores)
{
    for (int k = 0; st == AL_OK && k < count; k++) {
        if (layout[3 * k] < 0) continue;
        const float *x = states + layout[3 * k];
        const long n = (long)layout[3 * k + 1] * layout[3 * k + 2];
        for (long i = 0; i < n; i++) {
            if (k == scores ? isnan(x[i]) || x[i] == INFINITY : !isfinite(x[i])) {
                st = AL_ERR_NONFINITE;
                break;
            }
        }
    }
    return st;
}

/* ------------------------------------------------------------------ seq2seq */

static const al_seq2seq *s2s(const al_model *m) { return (const al_seq2seq *)m->impl; }

static double s2s_layout(const al_seq2seq *s, int S, int T, int32_t *layout)
{
    const int att = s->dc > 0, H = s->H;
    const int rc[AL_S2S_STATE_COUNT][2] = {
        [AL_S2S_STATE_EMBEDDED] = { S, s->E },
        [AL_S2S_STATE_ENCODER] = { S, H },
        [AL_S2S_STATE_INITIAL] = { 1, H },
        [AL_S2S_STATE_QUERY] = { att ? T : 0, H },
        [AL_S2S_STATE_SCORES] = { att ? T : 0, S },
        [AL_S2S_STATE_WEIGHTS] = { T, S },
        [AL_S2S_STATE_CONTEXT] = { att ? T : 0, s->dc },
        [AL_S2S_STATE_DECODER] = { T, H },
        [AL_S2S_STATE_ATTENTIONAL] = { att && s->style == AL_S2S_LUONG ? T : 0, H },
        [AL_S2S_STATE_POSITIONS] = { s->local != AL_LUONG_GLOBAL ? T : 0, 1 },
        [AL_S2S_STATE_LOG_PROBS] = { T, s->Vt },
    };
    return lay_out(rc, AL_S2S_STATE_COUNT, layout);
}

double al_model_seq2seq_states_layout(const al_model *m, int S, int T, int32_t *layout, int n)
{
    if (!m || m->arch != AL_ARCH_SEQ2SEQ || !layout || n < 3 * AL_S2S_STATE_COUNT) return -1.0;
    if (S < 1 || S > AL_MODEL_MAX_SOURCE || T < 1 || T > AL_MODEL_MAX_STEPS) return -1.0;
    return s2s_layout(s2s(m), S, T, layout);
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
    int32_t l[3 * AL_S2S_STATE_COUNT];
    if (s2s_layout(s, S, T, l) >= MAX_FLOATS) return AL_ERR_OVERFLOW;
    const al_s2s_states o = {
        .embedded = field(states, l, AL_S2S_STATE_EMBEDDED),
        .encoder = field(states, l, AL_S2S_STATE_ENCODER),
        .initial = field(states, l, AL_S2S_STATE_INITIAL),
        .query = field(states, l, AL_S2S_STATE_QUERY),
        .scores = field(states, l, AL_S2S_STATE_SCORES),
        .weights = field(states, l, AL_S2S_STATE_WEIGHTS),
        .context = field(states, l, AL_S2S_STATE_CONTEXT),
        .decoder = field(states, l, AL_S2S_STATE_DECODER),
        .attentional = field(states, l, AL_S2S_STATE_ATTENTIONAL),
        .positions = field(states, l, AL_S2S_STATE_POSITIONS),
        .logp = field(states, l, AL_S2S_STATE_LOG_PROBS),
    };
    al_status st = al_seq2seq_states(s, src, S, tgt, T, &o);
    return finite_fields(st, states, l, AL_S2S_STATE_COUNT, AL_S2S_STATE_SCORES);
}

/* ------------------------------------------------------------------ memory-rnn */

static const al_memory_rnn *mem(const al_model *m) { return (const al_memory_rnn *)m->impl; }

static double mem_layout(const al_memory_rnn *r, int n, int32_t *layout)
{
    const int attends = r->cell != AL_MEM_LSTM, H = r->H;
    const int rc[AL_MEM_STATE_COUNT][2] = {
        [AL_MEM_STATE_EMBEDDED] = { n, r->E },
        [AL_MEM_STATE_HIDDEN] = { n, H },
        [AL_MEM_STATE_MEMORY] = { r->cell != AL_MEM_SARNN ? n : 0, H },
        [AL_MEM_STATE_SCORES] = { attends ? n : 0, n },
        [AL_MEM_STATE_WEIGHTS] = { attends ? n : 0, n },
        [AL_MEM_STATE_SUMMARY] = { attends ? n : 0, H },
        [AL_MEM_STATE_MEMORY_SUMMARY] = { r->cell == AL_MEM_LSTMN ? n : 0, H },
    };
    return lay_out(rc, AL_MEM_STATE_COUNT, layout);
}

double al_model_memory_states_layout(const al_model *m, int n, int32_t *layout, int count)
{
    if (!m || m->arch != AL_ARCH_MEMORY_RNN || !layout || count < 3 * AL_MEM_STATE_COUNT)
        return -1.0;
    if (n < 1 || n > AL_MODEL_MAX_SOURCE) return -1.0;
    return mem_layout(mem(m), n, layout);
}

al_status al_model_memory_states(const al_model *m, const int32_t *ids, int n, float *states)
{
    if (!m || !ids || !states) return AL_ERR_ARGUMENT;
    if (m->arch != AL_ARCH_MEMORY_RNN) return AL_ERR_UNSUPPORTED;
    if (n < 1 || n > AL_MODEL_MAX_SOURCE) return AL_ERR_SHAPE;
    int32_t l[3 * AL_MEM_STATE_COUNT];
    if (mem_layout(mem(m), n, l) >= MAX_FLOATS) return AL_ERR_OVERFLOW;
    const al_mem_states o = {
        .embedded = field(states, l, AL_MEM_STATE_EMBEDDED),
        .hidden = field(states, l, AL_MEM_STATE_HIDDEN),
        .memory = field(states, l, AL_MEM_STATE_MEMORY),
        .scores = field(states, l, AL_MEM_STATE_SCORES),
        .weights = field(states, l, AL_MEM_STATE_WEIGHTS),
        .summary = field(states, l, AL_MEM_STATE_SUMMARY),
        .memory_summary = field(states, l, AL_MEM_STATE_MEMORY_SUMMARY),
    };
    al_status st = al_memory_rnn_states(mem(m), ids, n, &o);
    return finite_fields(st, states, l, AL_MEM_STATE_COUNT, AL_MEM_STATE_SCORES);
}
