/*
 * api/train.h: training whole models (today: "seq2seq") in the library: a model from a config and
 * a seed, teacher-forced cross-entropy with its exact gradient, Adam(W) or SGD, and writing the
 * trained weights back to safetensors bytes that al_model_load reads.
 *
 *     al_model *m;
 *     char err[AL_MODEL_ERR_CAP];
 *     al_model_create(config_json, strlen(config_json), 1234, &m, err, sizeof err);
 *     al_trainer *tr;
 *     al_trainer_create(m, AL_OPTIM_ADAM, 3e-3f, 0.0f, 0.0f, 1.0f, &tr);  // lr, momentum, decay, clip
 *     // a batch of B = 2 padded pairs: src [B, S_max], tgt [B, T_max] (tgt ends in eos)
 *     float loss;
 *     al_trainer_step(tr, src, src_len, S_max, tgt, tgt_len, T_max, 2, &loss);
 *     uint8_t *bytes; size_t len;
 *     al_model_save(m, &bytes, &len);   // ... write them, then al_free(bytes)
 *     al_trainer_free(tr); al_model_free(m);
 *
 * Loss: the mean over every target token of the batch of −log p(tgt[t] | tgt[<t], src), the
 * decoder fed bos, tgt[0], ..., tgt[T−2] (al_model_score's teacher forcing). Padding never
 * enters: each pair runs at its own lengths (models/seq2seq_train.h). The trainer updates the
 * model's weights in place: al_model_generate etc. see the trained model at once.
 * Determinism: one thread, a fixed order of every sum, a splitmix64 initialiser: the same seed,
 * options and batches give the same bytes on the same build.
 */
#ifndef AL_API_TRAIN_H
#define AL_API_TRAIN_H

#include <stdint.h>

#include "../base.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { AL_OPTIM_ADAM = 0, AL_OPTIM_SGD = 1 };

typedef struct al_trainer al_trainer;
/* (struct al_model is api/model.h's al_model; spelled out so this header can be included from
 * attnlab.h before model.h's typedef is seen) */
struct al_model;

/*
 * A new model from a config (JSON text [len], the object documented in docs/models.md) with
 * seeded weights (models/seq2seq_train.h: PyTorch's default schemes from a splitmix64 stream).
 * Errors as al_model_load's (the config is checked the same way).
 */
al_status al_model_create(const char *config, size_t len, uint32_t seed, struct al_model **out,
                          char *err, size_t errlen);

/* Safetensors bytes of the model as it is now (al_malloc'd: al_free them). */
al_status al_model_save(const struct al_model *m, uint8_t **bytes, size_t *len);

/* The weight block [al_model_weight_count] (every tensor in the file's order); for tests. */
float *al_model_weights(struct al_model *m);
int al_model_weight_count(const struct al_model *m);

/*
 * A trainer for m (borrowed: free the trainer first): gradients and optimiser state, lr > 0,
 * momentum in [0, 1) (SGD only), weight_decay >= 0 (decoupled, models/optim.h), clip the global
 * gradient norm (<= 0: none). AL_ERR_ARGUMENT for anything out of range.
 */
al_status al_trainer_create(struct al_model *m, int optimizer, float lr, float momentum,
                            float weight_decay, float clip, al_trainer **out);
void al_trainer_free(al_trainer *t);
/* Change the learning rate (schedules); lr > 0. */
al_status al_trainer_set_lr(al_trainer *t, float lr);

/*
 * The mean loss of a batch and its gradient (in the trainer: al_trainer_gradients), no update.
 * src [B, S_max] and tgt [B, T_max] padded row-major, src_len [B] in [1, S_max], tgt_len [B] in
 * [1, T_max], S_max <= AL_MODEL_MAX_SOURCE, T_max <= AL_MODEL_MAX_STEPS, ids in range
 * (AL_ERR_RANGE). Padding values are never read.
 */
al_status al_trainer_gradient(al_trainer *t, const int32_t *src, const int32_t *src_len, int S_max,
                              const int32_t *tgt, const int32_t *tgt_len, int T_max, int B,
                              float *loss);
/* al_trainer_gradient, then clipping and one optimiser step. *loss is the loss before the step. */
al_status al_trainer_step(al_trainer *t, const int32_t *src, const int32_t *src_len, int S_max,
                          const int32_t *tgt, const int32_t *tgt_len, int T_max, int B,
                          float *loss);

/* The last gradient [al_model_weight_count] (after clipping, when a step clipped it), the global
 * norm before clipping, and the steps taken. */
const float *al_trainer_gradients(const al_trainer *t);
float al_trainer_grad_norm(const al_trainer *t);
int al_trainer_steps(const al_trainer *t);
/* The last gradient as safetensors bytes under the model's tensor names (al_free them). */
al_status al_trainer_save_gradients(const al_trainer *t, uint8_t **bytes, size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* AL_API_TRAIN_H */
