/*
 * models/seq2seq_train.h: the backward pass of the seq2seq model (models/seq2seq.h) for
 * teacher-forced cross-entropy and seeded initialisation (writing a model back to safetensors is
 * models/model_export.h).
 *
 * Loss of one sentence pair (src [S], tgt [T], tgt ending in eos), the decoder fed bos, tgt[0],
 * ..., tgt[T−2] exactly as al_seq2seq_score does:
 *     nll = Σ_t −log p(tgt[t] | tgt[<t], src)
 * al_seq2seq_backward adds scale · ∂nll/∂θ to the gradient of every parameter θ. A batch is a
 * loop over its sentences, each at its own length (so padding never enters the maths: this is
 * exactly a batch of padded sequences with the padded source positions masked and the padded
 * target positions ignored; al_seq2seq_backward_batch does the same sums with the batch as
 * matrices); the caller passes scale = 1 / (target tokens in the batch) to get
 * the gradient of the mean.
 *
 * How: the forward is run once, keeping what backward needs per decoder step (the cell's input,
 * activated gates and state, the context, h̃, the output features and log-probs); then BPTT from
 * the last step to the first, with the kernels' backwards:
 *   output     dlogits = scale · (softmax − onehot);  out.weight += dlogits ⊗ feat
 *   cell       al_recurrent_layer_backward with B = T = 1 (the same kernels the encoder uses)
 *   attention  al_attn_{luong,key_query}_backward_projected (each recomputes its forward from
 *              the query and the projected keys); additive: al_attn_additive_backward_saved from
 *              the step's kept forward (weights and tanh values, T·S·(da+1) floats). The keys'
 *              projection (additive, general, concat, key-query) is computed once before the
 *              decoder loop, its gradient ∂/∂Kp summed over the steps and folded into ∂/∂keys and
 *              ∂/∂W_k (∂/∂W_a, ∂/∂W_K and ∂/∂W_V) once after it (al_attn_*_fold_keys)
 *   W_c        h̃ = tanh(W_c [c; h]) by hand for additive and key-query in luong style (the
 *              Luong kernel differentiates its own W_c)
 *   encoder    al_recurrent_stack_backward (kernels/recurrent.h) from ∂/∂keys and ∂/∂(initial
 *              state)
 *   embeddings al_embedding_backward
 * The local window is held fixed (its bounds are piecewise constant in p_t), as in the kernels.
 *
 * Deliberately not here: optimisers (models/optim.h), argument checks and the trainer handle
 * (api/train.c), tokenisation.
 */
#ifndef AL_MODELS_SEQ2SEQ_TRAIN_H
#define AL_MODELS_SEQ2SEQ_TRAIN_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "seq2seq.h"

/*
 * nll of one pair (ids already checked) and grad += scale · ∂nll/∂θ, the cross-entropy label-smoothed
 * by smoothing (models/loss.h; 0: none). w0 [n] is the model's
 * weight block (the pointers in s point into it) and g0 [n] the gradient laid out the same way.
 * *nll receives the sum over the T steps, in double. AL_ERR_NOMEM, AL_ERR_OVERFLOW.
 */
al_status al_seq2seq_backward(const al_seq2seq *s, const float *w0, float *g0, const int32_t *src,
                              int S, const int32_t *tgt, int T, float scale, float smoothing,
                              double *nll);

/*
 * The same for a whole batch at once (models/seq2seq_train_batch.c): src [B, S_max], tgt
 * [B, T_max] padded row-major (padding never read), src_len, tgt_len [B] (each >= 1, checked
 * ids); *nll = Σ_b nll_b and g0 += scale · Σ_b ∂nll_b/∂θ, as B calls of al_seq2seq_backward up
 * to the order of float sums. The sentences are stepped together, longest target first, every
 * projection one GEMM per step over the sentences still running; the keys' projections
 * (additive, general, concat, key-query) once per batch. Every attention has its batched form;
 * AL_ERR_UNSUPPORTED (g0 untouched) is kept for one that would not. AL_ERR_SHAPE (g0 untouched),
 * AL_ERR_RANGE, AL_ERR_NOMEM, AL_ERR_OVERFLOW.
 */
al_status al_seq2seq_backward_batch(const al_seq2seq *s, const float *w0, float *g0,
                                    const int32_t *src, const int32_t *src_len, int S_max,
                                    const int32_t *tgt, const int32_t *tgt_len, int T_max, int B,
                                    float scale, float smoothing, double *nll);

/*
 * Seeded initialisation of every weight (PyTorch's default schemes, from one 64-bit PRNG stream
 * walked in tensor order, so the same seed gives the same bytes on every machine):
 *   embeddings                        N(0, 1)                               (nn.Embedding)
 *   encoder / decoder cell, all       U(−1/√h, 1/√h), h the cell's units   (nn.LSTM, GRU, RNN)
 *   any other matrix [out, in]        U(−1/√in, 1/√in)                      (nn.Linear's bound)
 *   attention.bias [da]               U(−1/√H, 1/√H)  (the bias of W_q h, fan-in H)
 *   out.bias [V]                      U(−1/√dout, 1/√dout)
 *   attention.v, v_a, v_p [n]         U(−1/√n, 1/√n)  (a Linear(n, 1) weight)
 * list is the model's tensor list (model.h), weights its block in that order.
 */
void al_seq2seq_init(const al_tensor_list *list, const al_seq2seq *s, float *weights,
                     uint32_t seed);

/* The architecture hooks (models/model.h) over the functions above. An example is one sentence
 * pair: src [S >= 1] source ids, tgt [T >= 1] target ids ending in eos; T loss terms. */
void al_seq2seq_init_hook(const al_tensor_list *list, const void *impl, float *weights,
                          uint32_t seed);
al_status al_seq2seq_example_hook(const void *impl, const int32_t *src, int S, const int32_t *tgt,
                                  int T, double *terms);
al_status al_seq2seq_batch_hook(const void *impl, const float *w0, float *g0, const int32_t *src,
                                const int32_t *src_len, int S_max, const int32_t *tgt,
                                const int32_t *tgt_len, int T_max, int B, float scale,
                                float smoothing, double *nll);
al_status al_seq2seq_backward_hook(const void *impl, const float *w0, float *g0, const int32_t *src,
                                   int S, const int32_t *tgt, int T, float scale, float smoothing,
                                   double *nll);

#endif /* AL_MODELS_SEQ2SEQ_TRAIN_H */
