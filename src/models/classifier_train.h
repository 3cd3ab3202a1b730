/*
 * models/classifier_train.h: the backward pass of the classifier (models/classifier.h) for
 * cross-entropy, its seeded initialisation, and the three training hooks of al_classifier_arch.
 *
 * Loss of one document (ids [n], label y in [0, C)):
 *     loss = −log p(y | ids)  +  penaltyCoefficient · ‖A Aᵀ − I‖²_F     (the second term:
 *                                                                      structured pooling only)
 * al_classifier_backward adds scale · ∂loss/∂θ to the gradient of every parameter θ; the trainer
 * (api/train.c) passes scale = 1 / (documents in the batch), so a batch's loss is the mean.
 *
 * How: the forward of classifier.c is run once keeping the embeddings, the encoder outputs and
 * the pooling weights; then, with the kernels' own backwards:
 *   output      dlogits = scale · (softmax − onehot(y));  classifier.weight += dlogits ⊗ f
 *   attention   al_attention_pooling_seq_backward (through h* = tanh(r))
 *   structured  al_structured_self_attention_seq_backward, dpenalty = scale · coefficient
 *   han         al_context_pooling_seq_backward over G, al_recurrent_stack_backward of the
 *               sentence encoder (→ ∂/∂s_i), then per sentence the word pooling and word encoder
 *   encoders    al_recurrent_stack_backward (kernels/recurrent.h: layers, directions; its
 *               parameter gradients accumulate from zero in a scratch block, then are added)
 *   embedding   al_embedding_backward
 *
 * Initialisation (PyTorch's defaults, one al_rng stream walked in tensor order, models/optim.h):
 *   embedding.weight                          N(0, 1)                          (nn.Embedding)
 *   encoder.*, word_encoder.*                 U(±1/√Hs), Hs the units per direction (nn.LSTM…)
 *   sentence_encoder.*                        U(±1/√Hs) of the sentence encoder
 *   matrices [out, in]: pooling.W_s1, W_s2, word_pooling.W, sentence_pooling.W,
 *     classifier.weight                       U(±1/√in)                        (nn.Linear)
 *   word_pooling.b, sentence_pooling.b        U(±1/√in) of their W             (nn.Linear bias)
 *   classifier.bias                           U(±1/√K)
 *   context vectors pooling.w [d], word_pooling.u, sentence_pooling.u [dw]
 *                                             U(±1/√len), a Linear(len, 1) weight
 *
 * Deliberately not here: optimisers and the trainer handle (api/train.c), tokenisation and
 * labels as strings (wasm/train.js), batching (a batch is a loop over documents).
 */
#ifndef AL_MODELS_CLASSIFIER_TRAIN_H
#define AL_MODELS_CLASSIFIER_TRAIN_H

#include <stdint.h>

#include "classifier.h"

/*
 * loss of one document (ids [n] checked, 0 <= label < C) into *nll (double) and
 * g0 += scale · ∂loss/∂θ, the cross-entropy label-smoothed by smoothing (models/loss.h; 0: none,
 * and Lin's penalty is not smoothed); w0 [n_weights] is the model's weight block (c's pointers point into
 * it), g0 the gradient laid out the same way. AL_ERR_NOMEM, AL_ERR_OVERFLOW.
 */
al_status al_classifier_backward(const al_classifier *c, const float *w0, float *g0,
                                 const int32_t *ids, int n, int label, float scale, float smoothing,
                                 double *nll);

/* Seeded weights for every tensor of list (the model's, in order) into weights. */
void al_classifier_init(const al_tensor_list *list, const al_classifier *c, float *weights,
                        uint32_t seed);

/* The hooks of al_classifier_arch (models/model.h). An example is src = the document's ids
 * (S >= 1; han: separators included), tgt = [label] (T = 1); one loss term. */
void al_classifier_init_hook(const al_tensor_list *list, const void *impl, float *weights,
                             uint32_t seed);
al_status al_classifier_example_hook(const void *impl, const int32_t *src, int S,
                                     const int32_t *tgt, int T, double *terms);
al_status al_classifier_backward_hook(const void *impl, const float *w0, float *g0,
                                      const int32_t *src, int S, const int32_t *tgt, int T,
                                      float scale, float smoothing, double *nll);

#endif /* AL_MODELS_CLASSIFIER_TRAIN_H */
