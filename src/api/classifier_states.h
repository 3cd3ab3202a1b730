/*
 * api/classifier_states.h: the intermediate states of one classifier forward (architecture
 * "classifier"; docs/states.md; the maths in models/classifier_states.h), for Model.classify(
 * input, { states: true }). A separate entry point: al_model_classify does no extra work.
 *
 *     int32_t shapes[AL_MODEL_CLF_STATE_FIELDS * 4];
 *     double floats = al_model_classifier_states_layout(m, ids, n, shapes);
 *     float *states = malloc(sizeof(float) * (size_t)floats);
 *     al_model_classifier_states(m, ids, n, states);
 *
 * The states are fields stored back to back in this order, field f shaped by shapes[4f..4f+3]
 * = (rank, d0, d1, d2), rank 0 meaning absent (no floats): embedded [n,E], hidden [n,d],
 * projected [n,da], scores [hops,n], weights [hops,n], pooled [rows,d], logits [C], probs [C],
 * penalty [1] (structured), then han's sentence level: hidden [m,ds], projected [m,das],
 * scores [1,m], weights [1,m], pooled [1,ds]. probs and weights equal al_model_classify's bit
 * for bit.
 */
#ifndef AL_API_CLASSIFIER_STATES_H
#define AL_API_CLASSIFIER_STATES_H

#include <stdint.h>

#include "model.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AL_MODEL_CLF_STATE_FIELDS 14

/* The layout for ids [n]: shapes [AL_MODEL_CLF_STATE_FIELDS·4] (may be NULL) and the total
 * floats; -1 for a NULL model or ids, another architecture, or n outside [1, 4096]. */
double al_model_classifier_states_layout(const al_model *m, const int32_t *ids, int n,
                                         int32_t *shapes);
/* Every state into states [layout floats]. AL_ERR_ARGUMENT: NULLs; AL_ERR_UNSUPPORTED: not a
 * classifier; AL_ERR_SHAPE: n out of range; AL_ERR_RANGE: an id outside the vocabulary;
 * AL_ERR_NONFINITE: probabilities or weights outside float32. */
al_status al_model_classifier_states(const al_model *m, const int32_t *ids, int n, float *states);

#ifdef __cplusplus
}
#endif

#endif /* AL_API_CLASSIFIER_STATES_H */
