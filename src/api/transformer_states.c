/*
 * api/transformer_states.c: the checked entry points of api/transformer_states.h over
 * models/transformer_states.c (NULLs, the architecture, lengths here; the maths there).
 */
#include "../attnlab.h"
#include "transformer_states.h"
#include "../models/model.h"
#include "../models/transformer_states.h"

static const al_transformer *tf(const al_model *m) { return (const al_transformer *)m->impl; }

int al_model_transformer_states_fields(const al_model *m)
{
    if (!m || m->arch != AL_ARCH_TRANSFORMER) return -1;
    return al_transformer_states_fields(tf(m));
}

/* the lengths al_model_transformer_forward takes */
static int lengths_ok(const al_model *m, int S, int T)
{
    const int ed = tf(m)->variant == AL_TF_ENCODER_DECODER;
    if (S < 1 || S > AL_MODEL_MAX_SOURCE) return 0;
    return ed ? T >= 1 && T <= AL_MODEL_MAX_STEPS : T == 0;
}

double al_model_transformer_states_layout(const al_model *m, int S, int T, int32_t *shapes)
{
    if (!m || m->arch != AL_ARCH_TRANSFORMER || !lengths_ok(m, S, T)) return -1.0;
    return al_transformer_states_layout(tf(m), S, T, shapes);
}

al_status al_model_transformer_states(const al_model *m, const int32_t *src, int S,
                                      const int32_t *tgt, int T, float *states)
{
    if (!m || !src || !states) return AL_ERR_ARGUMENT;
    if (m->arch != AL_ARCH_TRANSFORMER) return AL_ERR_UNSUPPORTED;
    const int ed = tf(m)->variant == AL_TF_ENCODER_DECODER;
    if (ed && !tgt) return AL_ERR_ARGUMENT;
    if (!lengths_ok(m, S, T)) return AL_ERR_SHAPE;
    const double floats = al_transformer_states_layout(tf(m), S, T, NULL);
    if (floats * sizeof(float) >= 2147483648.0) return AL_ERR_OVERFLOW;
    al_status st = al_transformer_states(tf(m), src, S, ed ? tgt : NULL, ed ? T : 0, states);
    if (st != AL_OK) return st;
    /* the logits are the last field: finite, as al_model_transformer_forward promises */
    const double n = (double)(ed ? T : S) * tf(m)->Vt;
    return al_check_finite(states + (size_t)(floats - n), (int)n) >= 0 ? AL_ERR_NONFINITE : AL_OK;
}
