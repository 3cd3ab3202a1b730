/*
 * api/classifier_states.c: the checked entry points of api/classifier_states.h over
 * models/classifier_states.c (NULLs, the architecture, sizes here; the maths there).
 */
#include "../attnlab.h"
#include "classifier_states.h"
#include "../models/classifier_states.h"
#include "../models/model.h"

static const al_classifier *clf(const al_model *m) { return (const al_classifier *)m->impl; }

double al_model_classifier_states_layout(const al_model *m, const int32_t *ids, int n,
                                         int32_t *shapes)
{
    if (!m || !ids || m->arch != AL_ARCH_CLASSIFIER || n < 1 || n > AL_MODEL_MAX_SOURCE)
        return -1.0;
    return al_classifier_states_layout(clf(m), n, al_classifier_sentences(clf(m), ids, n), shapes);
}

al_status al_model_classifier_states(const al_model *m, const int32_t *ids, int n, float *states)
{
    if (!m || !ids || !states) return AL_ERR_ARGUMENT;
    if (m->arch != AL_ARCH_CLASSIFIER) return AL_ERR_UNSUPPORTED;
    if (n < 1 || n > AL_MODEL_MAX_SOURCE) return AL_ERR_SHAPE;
    int32_t s[AL_MODEL_CLF_STATE_FIELDS * 4];
    if (al_model_classifier_states_layout(m, ids, n, s) * sizeof(float) >= 2147483648.0)
        return AL_ERR_OVERFLOW;
    al_status st = al_classifier_states(clf(m), ids, n, states);
    if (st != AL_OK) return st;
    /* the probabilities and weights: finite, as al_model_classify promises (docs/reliability.md) */
    const float *p = states;
    for (int f = 0; f < AL_MODEL_CLF_STATE_FIELDS; f++) {
        const int32_t *q = s + 4 * f;
        const int len = q[0] == 0 ? 0 : q[0] == 1 ? q[1] : q[1] * q[2];
        if ((f == AL_CLF_STATE_PROBS || f == AL_CLF_STATE_WEIGHTS) && al_check_finite(p, len) >= 0)
            return AL_ERR_NONFINITE;
        p += len;
    }
    return AL_OK;
}
