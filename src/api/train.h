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
 * Label smoothing (Szegedy et al. 2016; Vaswani et al. 2017 train with 0.1): every cross-entropy
 * term trains towards (1 − ε)·onehot(target) + ε/V over its V classes (vocabulary or labels)
 * instead of onehot(target), PyTorch's CrossEntropyLoss(label_smoothing=ε); the loss that
 * al_trainer_gradient reports is that smoothed loss (Lin's penalty is added unsmoothed).
 * epsilon in [0, 1), else AL_ERR_ARGUMENT; 0 (the default) is the plain cross-entropy, bit for
 * bit. al_trainer_label_smoothing: the trainer's ε, -1 for NULL.
 */
al_status al_trainer_set_label_smoothing(al_trainer *t, float epsilon);
float al_trainer_label_smoothing(const al_trainer *t);

/*
 * The batched path (the default, batched = 1): al_trainer_gradient steps the sentences of a batch
 * together (one matrix product per time step for the whole batch) where the architecture and
 * configuration have a batched form, and one sentence at a time where not. batched = 0 always
 * takes the per-sentence path, the reference the tests hold the batched one to (the two agree up
 * to the order of float sums). al_trainer_batched: 1 when a step of t would take the batched
 * path's hook (its configuration may still fall back), 0 when not, -1 for NULL.
 */
al_status al_trainer_set_batched(al_trainer *t, int batched);
int al_trainer_batched(const al_trainer *t);

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

/*
 * Data parallelism and checkpoints (web/lab/run.js): k replicas of one model each compute
 * al_trainer_gradient on a shard of the batch, the caller combines g = Σ nᵢ gᵢ / Σ nᵢ with nᵢ =
 * al_trainer_terms (the shard's loss terms: target tokens for seq2seq), and every replica applies
 * the same g with al_trainer_apply, so the replicas stay equal.
 *
 * al_trainer_apply: one update from the given gradient grad [al_model_weight_count] (it may be
 * al_trainer_gradients(t) itself): exactly al_trainer_step's tail (AL_ERR_NONFINITE when an
 * element is not finite, then clipping, then one optimiser step), so step(batch) and
 * gradient(batch) + apply(its gradient) give the same bits. The gradient is copied in first.
 * al_trainer_terms: the loss terms of the last al_trainer_gradient / al_trainer_step (0 before).
 */
al_status al_trainer_apply(al_trainer *t, const float *grad);
double al_trainer_terms(const al_trainer *t);

/*
 * The optimiser state, for checkpoints: the steps taken and the moment buffers
 * [al_model_weight_count] each; al_trainer_moments says how many there are (Adam: 2, m1 the first
 * moment and m2 the second; SGD with momentum: 1, the momentum buffer; plain SGD: 0, m1 and m2
 * may be NULL). set_state checks everything before it changes anything: AL_ERR_RANGE for
 * steps < 0 or a negative second moment, AL_ERR_NONFINITE for a non-finite element.
 */
int al_trainer_moments(const al_trainer *t);
al_status al_trainer_get_state(const al_trainer *t, int *steps, float *m1, float *m2);
al_status al_trainer_set_state(al_trainer *t, int steps, const float *m1, const float *m2);

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
