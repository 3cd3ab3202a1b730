/*
 * models/classifier_states.h: the classifier's intermediate states (docs/states.md): a second
 * forward pass, separate from al_classifier_forward (which stays as it is), that runs the same
 * kernels in the same order and keeps what they compute. Its probabilities and attention weights
 * are therefore bit-identical to al_classifier_forward's (tests/c/test_classifier.c checks it).
 *
 * The states are one float array of fields stored back to back in the AL_CLF_STATE_* order,
 * each with a shape: al_classifier_states_layout gives (rank, d0, d1, d2) per field (rank 0:
 * the field does not apply to this pooling and takes no floats). With n tokens, m sentences,
 * d the encoder width, hops = r (structured) or 1:
 *   embedded    [n,E]     x_t = embedding[id_t]
 *   hidden      [n,d]     h_t, the (word) encoder outputs (han: each sentence encoded alone)
 *   projected   [n,da]    attention: tanh(h_t) (da = d, Zhou's M); han: u_t = tanh(W h_t + b);
 *                         structured: tanh(W_s1 h_t)
 *   scores      [hops,n]  before the softmax: M w; u_t · u_w (han: softmax within each
 *                         sentence); W_s2 tanh(W_s1 Hᵀ)
 *   weights     [hops,n]  α (the al_classifier_forward weights)
 *   pooled      [rows,d]  attention [1,d] r = Hᵀα (the features are tanh(r)); structured [r,d]
 *                         M = A H; han [m,d] one s_i per sentence
 *   logits, probs [C];   penalty [1] (structured only)
 *   sentence_*  han only: hidden [m,ds], projected [m,das], scores [1,m], weights [1,m],
 *               pooled [1,ds] (v, the classifier's input)
 */
#ifndef AL_MODELS_CLASSIFIER_STATES_H
#define AL_MODELS_CLASSIFIER_STATES_H

#include <stdint.h>

#include "classifier.h"

enum {
    AL_CLF_STATE_EMBEDDED = 0,
    AL_CLF_STATE_HIDDEN,
    AL_CLF_STATE_PROJECTED,
    AL_CLF_STATE_SCORES,
    AL_CLF_STATE_WEIGHTS,
    AL_CLF_STATE_POOLED,
    AL_CLF_STATE_LOGITS,
    AL_CLF_STATE_PROBS,
    AL_CLF_STATE_PENALTY,
    AL_CLF_STATE_SENT_HIDDEN,
    AL_CLF_STATE_SENT_PROJECTED,
    AL_CLF_STATE_SENT_SCORES,
    AL_CLF_STATE_SENT_WEIGHTS,
    AL_CLF_STATE_SENT_POOLED,
    AL_CLF_STATE_COUNT
};

/* shapes [AL_CLF_STATE_COUNT·4] for n tokens in m sentences; returns the total floats. */
double al_classifier_states_layout(const al_classifier *c, int n, int m, int32_t *shapes);

/* Every state of ids [n] into out [al_classifier_states_layout floats]. AL_ERR_RANGE: an id
 * outside the vocabulary; AL_ERR_NOMEM; AL_ERR_OVERFLOW. */
al_status al_classifier_states(const al_classifier *c, const int32_t *ids, int n, float *out);

#endif /* AL_MODELS_CLASSIFIER_STATES_H */
