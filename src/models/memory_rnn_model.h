/*
 * models/memory_rnn_model.h: the memory-RNN model (config "architecture": "memory-rnn"): a word
 * embedding, one recurrent cell that attends over its own past (or a plain LSTM baseline of the
 * same size), and a head: a language model or a sentence classifier. docs/models.md documents
 * every config key and tensor name; this header the maths.
 *
 *   embed       x_t = embedding[id_t]                                            [n, E]
 *   cell        h [n, H] and the attention weights [n, n] of
 *                 "lstmn"               al_lstmn_seq_forward (Cheng, Dong & Lapata 2016, §3.1;
 *                                       row t: s_t over i < t, row 0 zeros)
 *                 "self-attention-rnn"  al_sarnn_seq_forward (row t: α_t over i ≤ t), align
 *                                       additive vᵀ tanh(W_h h_i + W_s h_t) or dot
 *                                       (W_K h_i)ᵀ (W_Q h_t)
 *                 "lstm"                one nn.LSTM layer (zero initial state; weights all zero)
 *               exactly the equations of api/memory_rnn.h and api/recurrent.h.
 *   head "lm"          logp_t = log_softmax(out.weight h_t + out.bias) [V]: the distribution of
 *                      token t+1 (the last row predicts past the sentence); the loss of a
 *                      sentence is Σ_{t<n−1} −logp_t[id_{t+1}] (n − 1 terms)
 *   head "classifier"  f = h_{n−1} (pool "last", the final state) or (1/n) Σ_t h_t ("mean");
 *                      probs = softmax(classifier.weight f + classifier.bias) [C]; the loss of
 *                      one example is −log probs[label]
 *
 * Training (the al_model_trainer hooks of models/model.h): the forward is run once keeping the cell's saved activations,
 * then the head's gradient, the cell's own BPTT (al_lstmn_seq_backward, al_sarnn_seq_backward,
 * al_recurrent_layer_backward) and al_embedding_backward.
 * Deliberately not here: batching (one sequence per call), tokenization (wasm/), generation.
 */
#ifndef AL_MODELS_MEMORY_RNN_MODEL_H
#define AL_MODELS_MEMORY_RNN_MODEL_H

#include <stdint.h>

#include "config_limits.h"
#include "model.h"

enum { AL_MEM_LSTMN = 0, AL_MEM_SARNN = 1, AL_MEM_LSTM = 2 }; /* "cell" */
enum { AL_MEM_LM = 0, AL_MEM_CLASSIFIER = 1 };                /* "head" */

typedef struct {
    int cell, align;  /* AL_MEM_*, AL_MEMRNN_ALIGN_* (self-attention-rnn) */
    int head, mean;   /* AL_MEM_LM / _CLASSIFIER; 1: pool "mean" */
    int E, H, da;     /* embeddingSize, hiddenSize, attentionSize (self-attention-rnn) */
    int V, C;         /* vocabulary; outputs: V (lm) or the number of labels */
    const float *emb; /* [V,E] */
    /* the cell, in list order: lstmn W_h [H,H], W_x [H,E], W_ht [H,H], v [H], W [4H,H+E],
     * b [4H]; self-attention-rnn A [H,E+H], b [H], W_h|W_K [da,H], W_s|W_Q [da,H], v [da]
     * (additive); lstm weight_ih [4H,E], weight_hh [4H,H], bias_ih, bias_hh [4H] */
    const float *p[6];
    const float *out_w, *out_b; /* out.* or classifier.*: [C,H], [C] */
} al_memory_rnn;

extern const al_model_arch al_memory_rnn_arch;

/*
 * One sequence ids [n]. lm: dist [n,V] the log-distributions, logp [n−1] the log-probability of
 * each next token (either may be NULL); classifier: dist = probs [C] (required), logp unused.
 * weights [n,n] or NULL. AL_ERR_RANGE: an id outside the vocabulary; AL_ERR_OVERFLOW, AL_ERR_NOMEM.
 * Sizes are checked by api/model.c.
 */
al_status al_memory_rnn_forward(const al_memory_rnn *r, const int32_t *ids, int n, float *dist,
                                float *logp, float *weights);

/*
 * The intermediate states of one forward of ids [n] (docs/states.md) into out
 * [AL_MEM_STATE_COUNT] (api/model.h's order), each pointer NULL or written: embedded [n,E] x_t, hidden [n,H] h_t, memory [n,H] c_t (lstmn, lstm), scores [n,n]
 * (row t: the align scores over the steps the cell read, -INFINITY elsewhere; lstmn, sarnn),
 * weights [n,n] (as al_memory_rnn_forward's), summary [n,H] (lstmn h̃_t; sarnn c_t = Σ α_t,i h_i,
 * what replaces h_t at step t+1), memory_summary [n,H] (lstmn c̃_t). Fields the cell does not
 * have are left alone. The forward is the one al_memory_rnn_forward runs.
 */
al_status al_memory_rnn_states(const al_memory_rnn *r, const int32_t *ids, int n,
                               float *const *out);

/* The training hooks (models/train_registry.c). An example: lm src = the sentence (S >= 2,
 * T = 0, S − 1 terms); classifier src = the ids, tgt = [label] (1 term). */
void al_memory_rnn_init_hook(const al_tensor_list *list, const void *impl, float *weights,
                             uint32_t seed);
al_status al_memory_rnn_example_hook(const void *impl, const int32_t *src, int S,
                                     const int32_t *tgt, int T, double *terms);
al_status al_memory_rnn_backward_hook(const void *impl, const float *w0, float *g0,
                                      const int32_t *src, int S, const int32_t *tgt, int T,
                                      float scale, float smoothing, double *nll);

#endif /* AL_MODELS_MEMORY_RNN_MODEL_H */
