/*
 * api/transformer_states.h: the intermediate states of one transformer forward (architecture
 * "transformer"; docs/states.md; the maths and the field order in models/transformer_states.h),
 * for Model.forward(..., { states: true }). A separate entry point: al_model_transformer_forward
 * does no extra work.
 *
 *     int fields = al_model_transformer_states_fields(m);
 *     int32_t *shapes = malloc(sizeof(int32_t) * 4 * (size_t)fields);
 *     double floats = al_model_transformer_states_layout(m, S, T, shapes);
 *     float *states = malloc(sizeof(float) * (size_t)floats);
 *     al_model_transformer_states(m, src, S, tgt, T, states);
 *
 * Field f is shaped by shapes[4f..4f+3] = (rank, d0, d1, d2), rank 0 meaning absent (no
 * floats). The weights, layer outputs and logits equal al_model_transformer_forward's bit for
 * bit. Arguments as al_model_transformer_forward (T = 0 and tgt NULL except for the
 * encoder-decoder).
 */
#ifndef AL_API_TRANSFORMER_STATES_H
#define AL_API_TRANSFORMER_STATES_H

#include <stdint.h>

#include "model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The number of fields (-1: NULL or not a transformer). */
int al_model_transformer_states_fields(const al_model *m);
/* shapes [fields·4] (may be NULL) and the total floats for S source and T target tokens; -1
 * for a NULL model, another architecture or lengths al_model_transformer_forward refuses. */
double al_model_transformer_states_layout(const al_model *m, int S, int T, int32_t *shapes);
/* Every state into states [layout floats]. Statuses as al_model_transformer_forward. */
al_status al_model_transformer_states(const al_model *m, const int32_t *src, int S,
                                      const int32_t *tgt, int T, float *states);

#ifdef __cplusplus
}
#endif

#endif /* AL_API_TRANSFORMER_STATES_H */
