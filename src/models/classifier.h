/*
 * models/classifier.h: the recurrent text classifier with pooling attention (config
 * "architecture": "classifier"), its config parser and its forward pass. docs/models.md
 * documents every config key and tensor name; this header documents the maths.
 *
 *   embed       x_i = embedding[id_i]                                            [n, E]
 *   encoder     an nn.RNN / nn.LSTM / nn.GRU (numLayers, optionally bidirectional with
 *               hiddenSize/2 units per direction, zero initial state) gives H [n, d], d = hiddenSize
 *   pooling
 *     attention   Zhou et al. 2016 (Att-BLSTM), eqs. 9-12: M = tanh(H), α = softmax(M w),
 *                 r = Hᵀα, h* = tanh(r); features h* [d]
 *     structured  Lin et al. 2017, eqs. 6-8: A = softmax_n(W_s2 tanh(W_s1 Hᵀ)) [r, n],
 *                 M = A H [r, d], features M flattened row by row [r·d]; the penalty
 *                 P = ‖A Aᵀ − I‖²_F is reported here, and training adds penaltyCoefficient · P
 *                 to the loss (models/classifier_train.h)
 *     han         Yang et al. 2016, eqs. 5-10: the document splits into sentences at the
 *                 separator token (which ends, and belongs to, its sentence; a trailing run
 *                 without one is the last sentence). Each sentence alone: H_i = word_encoder(x_i),
 *                 s_i = context pooling of H_i (uᵢ = tanh(W h + b), α = softmax(uᵢᵀ u)); then
 *                 G = sentence_encoder(s_1..s_m) and v = context pooling of G; features v
 *   output      logits = classifier.weight · features + classifier.bias            [C]
 *               probs = softmax(logits / temperature) (the config's "temperature", default 1:
 *               temperature scaling, Guo et al. 2017, fitted after training to calibrate the
 *               probabilities; the training loss is on the logits, models/classifier_train.h)
 *
 * Deliberately not here: backward passes and training (models/classifier_train.h), batching (one
 * document per call), padding or masks (every position is real), tokenization (wasm/model.js).
 */
#ifndef AL_MODELS_CLASSIFIER_H
#define AL_MODELS_CLASSIFIER_H

#include <stdint.h>

#include "config_limits.h"
#include "model.h"

enum { AL_CLF_ATTENTION = 0, AL_CLF_HAN = 1, AL_CLF_STRUCTURED = 2 };

/* One recurrent stack: sizes and its L·D·4 parameter pointers (al_recurrent_stack_* order). */
typedef struct {
    int I, H, Hs; /* input width, output width d, units per direction */
    const float *p[AL_CLF_MAX_LAYERS * 2 * 4];
} al_clf_rnn;

typedef struct {
    /* settings from the config */
    int cell;        /* AL_RECURRENT_RNN_TANH, _RNN_RELU, _LSTM or _GRU */
    int G;           /* gates: 1, 4, 3 */
    int E, L, dirs;  /* embedding width, layers and directions of every encoder */
    int pooling;     /* AL_CLF_* */
    int da, r;       /* attentionSize (han: the word context width), hops (structured) */
    int das;         /* han: sentenceAttentionSize */
    int V, C;        /* vocabulary size, classes */
    int sep;         /* han: the separator's token id (-1 otherwise) */
    int K;           /* classifier.weight columns: d, r·d, or the sentence encoder's width */
    float pc;        /* structured: penaltyCoefficient, the penalty's weight in the training
                         * loss (0 otherwise; the forward pass never reads it) */
    float temp;      /* temperature (default 1): probs = softmax(logits / temp); a calibration
                         * fitted after training, which the training loss never reads */
    al_clf_rnn enc;  /* attention, structured: "encoder."; han: "word_encoder." */
    al_clf_rnn senc; /* han: "sentence_encoder." */
    /* weights, bound into the model's block (NULL when the config does not use them) */
    const float *emb;             /* [V,E] */
    const float *w;               /* attention: pooling.w [d] */
    const float *W_s1, *W_s2;     /* structured: [da,d] [r,da] */
    const float *Ww, *bw, *uw;    /* han word_pooling: W [da,d], b [da], u [da] */
    const float *Wsn, *bsn, *usn; /* han sentence_pooling: [das,ds] [das] [das] */
    const float *cls_w, *cls_b;   /* [C,K] [C] */
} al_classifier;

extern const al_model_arch al_classifier_arch;

/* The number of sentences of ids [n] (han; 1 for the other poolings). */
int al_classifier_sentences(const al_classifier *c, const int32_t *ids, int n);

/* probs [C] = softmax(logits [C] / c->temp), summed in double (classify's and the states'). */
void al_classifier_probs(const al_classifier *c, const float *logits, float *probs);

/*
 * Classify ids [n]: probs [C]; weights [n] (attention; han: the word weights, each sentence's
 * summing to 1) or [r,n] (structured: A); sent [n] or NULL (han: the first m entries are the
 * sentence weights, m = al_classifier_sentences); *penalty (structured; 0 otherwise) or NULL.
 * AL_ERR_RANGE: an id outside the vocabulary; AL_ERR_NOMEM. Sizes checked by api/model.c.
 */
al_status al_classifier_forward(const al_classifier *c, const int32_t *ids, int n, float *probs,
                                float *weights, float *sent, float *penalty);

#endif /* AL_MODELS_CLASSIFIER_H */
