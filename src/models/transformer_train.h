/*
 * models/transformer_train.h: training the transformer (models/transformer.h): the loss of one
 * example and its exact gradient, seeded initialisation, and the four al_model_trainer hooks
 * (models/model.h) that api/train.c drives. docs/training.md ("Transformer models") has the
 * user's view.
 *
 * One example, per variant (src [S], tgt [T]; the sum over its terms is the example's nll):
 *   encoder-decoder  src = source ids, tgt = target ids ending in eos; the decoder is fed bos,
 *                    tgt[0], ..., tgt[T−2] (teacher forcing, as seq2seq):
 *                        nll = Σ_{t<T} −log p(tgt[t] | tgt[<t], src)            T terms
 *   decoder          src = the sequence (S >= 2), tgt empty (T = 0); logits_t predicts src[t+1]:
 *                        nll = Σ_{t<S−1} −log p(src[t+1] | src[<=t])            S − 1 terms
 *   encoder          src = ids, tgt = one label per position (T = S):
 *                        nll = Σ_{t<S} −log p(tgt[t] | src)                     S terms
 * al_transformer_backward adds scale · ∂nll/∂θ to every parameter's gradient (the trainer passes
 * scale = 1 / terms of the batch: the gradient of the mean).
 *
 * How: the forward is run once keeping every layer's input (the layer kernels recompute their
 * own internals from it), then backward through the output layer (dlogits = scale·(softmax −
 * onehot)), the final norm (al_layernorm_backward), the layers last to first
 * (al_tl_backward of kernels/transformer_layers.h: the decoder layers also return ∂/∂memory,
 * summed over layers, which then flows through encoder.norm and the encoder), and the
 * embeddings (al_embedding_backward; ·√E when scaleEmbedding; a learned position table gets
 * the gradient of every position that used it, on both sides of an encoder-decoder).
 *
 * Deliberately not here: optimisers, argument checks of the trainer (api/train.c).
 */
#ifndef AL_MODELS_TRANSFORMER_TRAIN_H
#define AL_MODELS_TRANSFORMER_TRAIN_H

#include <stdint.h>

#include "model.h"
#include "transformer.h"

/*
 * nll of one checked example (above) and g0 += scale · ∂nll/∂θ, the cross-entropy label-smoothed by
 * smoothing (models/loss.h; 0: none). w0 is the model's weight block
 * (the pointers of m point into it), g0 its gradient laid out the same way. *nll in double.
 * AL_ERR_NOMEM, AL_ERR_OVERFLOW.
 */
al_status al_transformer_backward(const al_transformer *m, const float *w0, float *g0,
                                  const int32_t *src, int S, const int32_t *tgt, int T, float scale,
                                  float smoothing, double *nll);

/*
 * The same for a whole checked batch at once (the `batch` hook of models/model.h): src [B, S_max]
 * and tgt [B, T_max] padded row-major (tgt NULL when T_max = 0), src_len/tgt_len [B]; *nll =
 * Σ_b nll_b and g0 += scale · Σ_b ∂nll_b/∂θ, what B calls of al_transformer_backward give up to
 * the order of float sums. Every variant and position kind.
 * How (models/transformer_train_batch.c): the batch's tokens packed as rows (no padding), every
 * position-wise product (in/out projections, feed-forward, output layer) and every norm one
 * product over all rows, the attention per sentence over its own length
 * (kernels/transformer_layers_packed.h), and every layer's activations (Q, K, V, attention
 * weights, feed-forward pre-activations, norms' statistics) kept from the forward for the
 * backward instead of recomputed.
 * AL_ERR_UNSUPPORTED, g0 untouched, when that would take more than max_floats floats (the hook
 * passes AL_TF_BATCH_MAX_FLOATS; the trainer then runs the examples one by one, which needs one
 * sentence's worth); AL_ERR_NOMEM.
 */
#define AL_TF_BATCH_MAX_FLOATS 67108864.0 /* 256 MB */
al_status al_transformer_backward_batch(const al_transformer *m, const float *w0, float *g0,
                                        const int32_t *src, const int32_t *src_len, int S_max,
                                        const int32_t *tgt, const int32_t *tgt_len, int T_max,
                                        int B, float scale, float smoothing, double max_floats,
                                        double *nll);

/*
 * Seeded initialisation, PyTorch's defaults, from one al_rng stream (models/optim.h) walked in
 * tensor order (the same seed gives the same bytes everywhere):
 *   embedding, src/tgt_embedding, pos_embedding, relative_key/value   N(0, 1)  (nn.Embedding)
 *   *.in_proj_weight [3E, E]          xavier_uniform: U(±√(6 / (E + 3E)))  (nn.MultiheadAttention)
 *   *.in_proj_bias, *.out_proj.bias   0                                     (likewise)
 *   every other matrix [out, in]      U(±1/√in)                             (nn.Linear)
 *   linear1.bias, linear2.bias, out.bias   U(±1/√in) of their weight        (nn.Linear)
 *   norms: weight 1, bias 0                                                 (nn.LayerNorm)
 * Layers are drawn independently (nn.TransformerEncoder would deep-copy one layer).
 */
void al_transformer_init(const al_tensor_list *list, const al_transformer *m, float *weights,
                         uint32_t seed);

/* The gradient pointers of one layer's weights w: each tensor's place in g0, the gradient laid
 * out as the weight block w0 (NULL where the weight is NULL). Both trainers use it. */
al_tl_grads al_transformer_layer_grads(const float *w0, float *g0, const al_tl_weights *w);

/* The hooks of al_transformer_arch. example: ids in range (AL_ERR_RANGE), lengths as above and
 * at most maxPositions (AL_ERR_SHAPE); *terms as above. batch: al_transformer_backward_batch
 * with max_floats = AL_TF_BATCH_MAX_FLOATS. */
void al_transformer_init_hook(const al_tensor_list *list, const void *impl, float *weights,
                              uint32_t seed);
al_status al_transformer_example_hook(const void *impl, const int32_t *src, int S,
                                      const int32_t *tgt, int T, double *terms);
al_status al_transformer_backward_hook(const void *impl, const float *w0, float *g0,
                                       const int32_t *src, int S, const int32_t *tgt, int T,
                                       float scale, float smoothing, double *nll);
al_status al_transformer_batch_hook(const void *impl, const float *w0, float *g0,
                                    const int32_t *src, const int32_t *src_len, int S_max,
                                    const int32_t *tgt, const int32_t *tgt_len, int T_max, int B,
                                    float scale, float smoothing, double *nll);

#endif /* AL_MODELS_TRANSFORMER_TRAIN_H */
