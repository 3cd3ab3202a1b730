/*
 * models/model_export.h: a loaded or trained model written back to safetensors bytes, the
 * format al_model_load reads (models/model.h), and the tensor list it is written in.
 * Deliberately not here: reading (models/model.h, api/safetensors.h), optimisers, the trainer
 * handle (api/train.c).
 */
#ifndef AL_MODELS_MODEL_EXPORT_H
#define AL_MODELS_MODEL_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* The model's tensor list, re-derived from its config (al_malloc'd; al_free it). */
al_status al_model_tensor_list(const struct al_model *m, al_tensor_list **out);

/*
 * Safetensors bytes (al_malloc'd, *len bytes; al_free them) of data [n_weights], laid out like
 * the model's weights, under the model's tensor names, with the model's config in
 * __metadata__["config"]: the format al_model_load reads. Tensors are written in list order, the
 * header padded with spaces to a multiple of 8 bytes.
 */
al_status al_model_export(const struct al_model *m, const float *data, uint8_t **bytes,
                          size_t *len);

#endif /* AL_MODELS_MODEL_EXPORT_H */
