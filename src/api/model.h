/*
 * api/model.h: whole models loaded from one safetensors file, run one sentence at a time.
 *
 *     char err[AL_MODEL_ERR_CAP];
 *     al_model *m;
 *     if (al_model_load(bytes, len, &m, err, sizeof err) != AL_OK) { fprintf(stderr, "%s\n", err); ... }
 *     int32_t src[3] = { 4, 5, 6 }, ids[50];
 *     float logp[50], att[50 * 3];
 *     int n;
 *     al_model_generate(m, src, 3, 50, 1, ids, logp, att, NULL, &n);   // greedy; beam > 1: beam search
 *     al_model_free(m);
 *
 * A model file is safetensors (F32 weights; F16/BF16 are converted) with the config, a JSON object,
 * in __metadata__["config"]; its "architecture" picks the model (today: "seq2seq", the recurrent
 * encoder-decoder of models/seq2seq.h). docs/models.md lists every config key and tensor name.
 * al_model_load checks the whole file before it allocates the model: the config (every value in
 * range, every enum known), every tensor the config needs present with its exact shape, and no
 * other tensor. Its messages name the key or tensor, e.g.
 *   tensor "decoder.weight_hh" has shape [32, 7] but the config needs [32, 8]
 *   config "numLayers": 0 is out of range (an integer in [1, 8])
 * The weights live in one block owned by the model (in wasm memory: resident, never re-copied).
 *
 * Token ids are target-vocabulary indices; outputs are written into caller buffers:
 *   ids, logp [max_len]: the emitted tokens and log p of each (the eos token is included when
 *   emitted); att [max_len, S]: the attention over source positions at each step (zeros for
 *   "attention": "none"); pos [max_len] or NULL: p_t of local attention (0 otherwise).
 */
#ifndef AL_API_MODEL_H
#define AL_API_MODEL_H

#include <stdint.h>

#include "../base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AL_MODEL_ERR_CAP 256     /* a message buffer this size holds every loader message */
#define AL_MODEL_MAX_SOURCE 4096 /* source tokens per call */
#define AL_MODEL_MAX_STEPS 1024  /* output steps per call */
#define AL_MODEL_MAX_BEAM 32     /* beam width */

/* The limits above by number, for glue that copies them (wasm/limits.js, checked against this by
 * tests/js/limits.test.js): the value of AL_MODEL_ERR_CAP, _MAX_SOURCE, _MAX_STEPS, _MAX_BEAM for
 * AL_MODEL_LIMIT_ERR_CAP, _SOURCE, _STEPS, _BEAM; then the config caps of
 * models/config_limits.h, AL_<X>_MAX_<Y> for AL_MODEL_LIMIT_<X>_<Y> (CONFIG_LIMITS in
 * wasm/limits.js); -1 for any other number. Numbers are appended, never reused. */
enum {
    AL_MODEL_LIMIT_ERR_CAP = 0,
    AL_MODEL_LIMIT_SOURCE,
    AL_MODEL_LIMIT_STEPS,
    AL_MODEL_LIMIT_BEAM,
    AL_MODEL_LIMIT_S2S_DIM,
    AL_MODEL_LIMIT_S2S_LAYERS,
    AL_MODEL_LIMIT_S2S_VOCAB,
    AL_MODEL_LIMIT_S2S_WINDOW,
    AL_MODEL_LIMIT_S2S_LENGTH,
    AL_MODEL_LIMIT_TF_DIM,
    AL_MODEL_LIMIT_TF_HEADS,
    AL_MODEL_LIMIT_TF_LAYERS,
    AL_MODEL_LIMIT_TF_LAYERS_ED,
    AL_MODEL_LIMIT_TF_LAYERS_ED_REL,
    AL_MODEL_LIMIT_TF_VOCAB,
    AL_MODEL_LIMIT_TF_POSITIONS,
    AL_MODEL_LIMIT_TF_LENGTH,
    AL_MODEL_LIMIT_CLF_DIM,
    AL_MODEL_LIMIT_CLF_LAYERS,
    AL_MODEL_LIMIT_CLF_HOPS,
    AL_MODEL_LIMIT_CLF_VOCAB,
    AL_MODEL_LIMIT_CLF_LABELS,
    AL_MODEL_LIMIT_CLF_PENALTY,
    AL_MODEL_LIMIT_MRNN_DIM,
    AL_MODEL_LIMIT_MRNN_VOCAB,
    AL_MODEL_LIMIT_MRNN_LABELS,
    AL_MODEL_LIMIT_CLF_TEMPERATURE
};
int al_model_limit(int which);

typedef struct al_model al_model;
typedef struct al_decoder al_decoder;

/* Load from bytes [len] (borrowed only during the call). On failure *out is NULL, nothing stays
 * allocated and err [errlen] (may be NULL) holds a message. Statuses: AL_ERR_FORMAT (malformed
 * file or config, missing or unexpected tensor), AL_ERR_SHAPE (a tensor of the wrong shape),
 * AL_ERR_ARGUMENT (a config value out of range or unknown, e.g. an unknown architecture),
 * AL_ERR_UNSUPPORTED, AL_ERR_NONFINITE, AL_ERR_OVERFLOW (from the safetensors loader),
 * AL_ERR_NOMEM. */
al_status al_model_load(const uint8_t *bytes, size_t len, al_model **out, char *err, size_t errlen);
/* Free a model (NULL is fine). Free its decoders first. */
void al_model_free(al_model *m);

/* "seq2seq"; the config JSON text as stored. Both live as long as the model. NULL for NULL. */
const char *al_model_architecture(const al_model *m);
const char *al_model_config(const al_model *m);

/* Sizes and ids the glue needs (-1 for NULL): source and target vocabulary sizes, the bos and eos
 * target ids, the config's maxLength, and 1 when the attention is local (p_t is meaningful). */
int al_model_src_vocab(const al_model *m);
int al_model_tgt_vocab(const al_model *m);
int al_model_bos(const al_model *m);
int al_model_eos(const al_model *m);
int al_model_max_length(const al_model *m);
int al_model_has_positions(const al_model *m);

/*
 * Everything a caller needs to size its buffers, fixed when the model was loaded: out[i] for
 * i < min(n, AL_MODEL_INFO_COUNT) gets field i below (-1 where a field does not apply). Returns
 * the number of fields written, or -1 for a NULL model or out. The JS glue sizes every output
 * buffer from these (never from its own, caller-writable copies of the config).
 */
enum {
    AL_MODEL_INFO_ARCH = 0,  /* AL_ARCH_*: 0 seq2seq, 1 transformer, 2 classifier, 3 memory-rnn */
    AL_MODEL_INFO_SRC_VOCAB, /* input ids are in [0, this) */
    AL_MODEL_INFO_TGT_VOCAB, /* output ids / distribution rows (classes for classifiers) */
    AL_MODEL_INFO_BOS,
    AL_MODEL_INFO_EOS,
    AL_MODEL_INFO_MAX_LENGTH,    /* default output steps */
    AL_MODEL_INFO_HAS_POSITIONS, /* seq2seq local attention: writes p_t */
    AL_MODEL_INFO_LAYERS,        /* transformer: layers per stack */
    AL_MODEL_INFO_HEADS,         /* transformer: attention heads */
    AL_MODEL_INFO_VARIANT, /* transformer: 0 encoder, 1 decoder, 2 encoder-decoder (AL_TF_*) */
    AL_MODEL_INFO_MAX_POSITIONS, /* transformer: longest sequence */
    AL_MODEL_INFO_HOPS,          /* classifier: attention rows (r for structured, else 1) */
    AL_MODEL_INFO_HEAD,          /* memory-rnn: 0 language model, 1 classifier */
    AL_MODEL_INFO_ATTENDS,       /* memory-rnn: 1 when the cell writes attention weights */
    AL_MODEL_INFO_COUNT
};
int al_model_info(const al_model *m, int32_t *out, int n);
/* Floats of attention one transformer forward writes for S source and T target tokens (all
 * layers and heads of every stack); -1 for other architectures, a NULL model or negative sizes. */
double al_model_transformer_attention_floats(const al_model *m, int S, int T);

/*
 * Decode src [S] (source ids): beam <= 1 greedy, else beam search with that width (<= 32;
 * length-normalised, see models/seq2seq.h). Writes *len <= max_len steps into ids, logp
 * [max_len], att [max_len, S] and pos [max_len] (may be NULL). AL_ERR_RANGE: a source id outside
 * the vocabulary; AL_ERR_SHAPE: S or max_len < 1 or above the caps; AL_ERR_ARGUMENT: NULLs.
 */
al_status al_model_generate(const al_model *m, const int32_t *src, int S, int max_len, int beam,
                            int32_t *ids, float *logp, float *att, float *pos, int *len);

/*
 * Teacher forcing: the decoder is fed bos, tgt[0], ..., tgt[T−2]; logp [T] = log p(tgt[t] | ...),
 * att [T,S], pos [T] and dist [T,Vt] (the whole log-distribution of each step) may be NULL.
 */
al_status al_model_score(const al_model *m, const int32_t *src, int S, const int32_t *tgt, int T,
                         float *logp, float *att, float *pos, float *dist);

/*
 * Stepped decoding, one output token per call (for animations and custom search). start encodes
 * src [S]; step emits the argmax token (or force, when >= 0), its log-prob, the attention row
 * att [S], p_t, optionally the whole log-distribution dist [Vt], and *done = 1 once eos was
 * emitted (a further step is AL_ERR_ARGUMENT). Any output pointer may be NULL. A decoder borrows
 * its model: free it first.
 */
al_status al_model_decoder_start(const al_model *m, const int32_t *src, int S, al_decoder **out);
al_status al_decoder_step(al_decoder *d, int32_t force, int32_t *id, float *logp, float *att,
                          float *pos, float *dist, int *done);
void al_decoder_free(al_decoder *d);

/*
 * Architecture "transformer" (models/transformer.h; the seq2seq functions above return
 * AL_ERR_UNSUPPORTED for it, and these return it for other architectures).
 *
 * One forward pass. Variants "encoder" and "decoder": src [S] is the whole sequence, tgt NULL,
 * T = 0, logits [S,Vt], att [L,H,S,S]. "encoder-decoder": src [S] the source, tgt [T] the
 * decoder input (bos first), logits [T,Vt], att = encoder self [L,H,S,S], then decoder self
 * [L,H,T,T], then cross [L,H,T,S]. att may be NULL. AL_ERR_RANGE: an id outside its vocabulary;
 * AL_ERR_SHAPE: a length < 1, above the caps or above the config's maxPositions.
 */
al_status al_model_transformer_forward(const al_model *m, const int32_t *src, int S,
                                       const int32_t *tgt, int T, float *logits, float *att);
/*
 * Greedy decoding: "decoder" continues the prompt src [S], "encoder-decoder" translates src [S]
 * from bos. ids, logp [max_len]: *len emitted tokens (eos included when emitted) and log p of
 * each; generation also stops when the fed sequence would outgrow maxPositions. The attention
 * of that output: al_model_transformer_forward on the fed sequence (the prompt, or bos, then
 * every emitted token but the last). AL_ERR_ARGUMENT for variant "encoder".
 */
al_status al_model_transformer_generate(const al_model *m, const int32_t *src, int S, int max_len,
                                        int32_t *ids, float *logp, int *len);

/*
 * Architecture "classifier" (models/classifier.h; the seq2seq and transformer functions return
 * AL_ERR_UNSUPPORTED for it, and these fail for other architectures). For a classifier,
 * al_model_src_vocab is the vocabulary size, al_model_tgt_vocab the number of labels C, bos, eos
 * and max_length are -1.
 *
 * hops: r for pooling "structured", 1 otherwise (-1: not a classifier). sentences: the number of
 * sentences of ids [n] (pooling "han": separators and a trailing run; 1 otherwise).
 */
int al_model_classifier_hops(const al_model *m);
int al_model_classifier_sentences(const al_model *m, const int32_t *ids, int n);
/*
 * Classify one document ids [n] (n in [1, 4096]): probs [C] the class probabilities; weights
 * [hops, n] the attention over the words (Zhou's α; HAN's word weights, each sentence's summing to
 * 1; Lin's A, one row per hop); sent [n] or NULL: HAN's sentence weights in its first
 * al_model_classifier_sentences entries; penalty or NULL: Lin's ‖AAᵀ − I‖²_F (0 for the other
 * poolings). AL_ERR_RANGE: an id outside the vocabulary; AL_ERR_SHAPE: n out of range.
 */
al_status al_model_classify(const al_model *m, const int32_t *ids, int n, float *probs,
                            float *weights, float *sent, float *penalty);

/*
 * Architecture "memory-rnn" (models/memory_rnn_model.h: an LSTMN, self-attention RNN or LSTM over
 * word embeddings; docs/models.md). al_model_src_vocab is the vocabulary size V and
 * al_model_tgt_vocab the head's outputs (V, or the number of labels C); bos, eos and max_length
 * are -1. ids [n], n in [1, 4096]; weights [n,n] or NULL: the cell's attention (row t: the
 * weights over the steps it read; all zeros for "lstm").
 *
 * Head "lm": logp [n−1] (log p(ids[t+1] | ids[≤t])) and dist [n,V] (every step's
 * log-distribution of the next token; the last row predicts past the input), each may be NULL.
 * Head "classifier": probs [C] of the final state (or the mean state, "pool": "mean").
 * AL_ERR_UNSUPPORTED for another architecture or head, AL_ERR_RANGE for an id outside the
 * vocabulary, AL_ERR_SHAPE for n out of range, AL_ERR_NONFINITE for results outside float32.
 */
al_status al_model_lm_forward(const al_model *m, const int32_t *ids, int n, float *logp,
                              float *dist, float *weights);
al_status al_model_memory_classify(const al_model *m, const int32_t *ids, int n, float *probs,
                                   float *weights);

/*
 * Intermediate states (docs/states.md; api/model_states_rnn.c): a separate pass that re-runs the
 * forward with the same step and kernels, keeping what it computes, so the plain calls above do
 * no extra work. The states go into one caller buffer of floats laid out by the _layout call:
 * layout [3·count] gets, for field k, its offset in floats, rows and columns, or -1, -1, -1 when
 * the model has no such field; the return value is the buffer's size in floats (-1 for a NULL
 * or other model, sizes out of range, or layout NULL / n < 3·count). Scores are the values the
 * softmax read, -INFINITY where it read nothing (outside a local window, steps not yet written);
 * every other value is finite or the call returns AL_ERR_NONFINITE.
 *
 * seq2seq, teacher forced as al_model_score (tgt [T]; with tgt = a greedy output of
 * al_model_generate, exactly that run): the fields, in this order, with their [rows, columns]:
 *   embedded [S,E], encoder [S,H], initial [1,H] s_0, query [T,H] (s_{t−1} bahdanau, h_t luong),
 *   scores [T,S], weights [T,S] (equal to al_model_score's att), context [T,dc], decoder [T,H]
 *   s_t, attentional [T,H] h̃_t (luong), positions [T,1] p_t (local), log_probs [T,Vt].
 * Without attention: no query, scores, context or attentional; weights are zeros.
 */
enum {
    AL_S2S_STATE_EMBEDDED = 0,
    AL_S2S_STATE_ENCODER,
    AL_S2S_STATE_INITIAL,
    AL_S2S_STATE_QUERY,
    AL_S2S_STATE_SCORES,
    AL_S2S_STATE_WEIGHTS,
    AL_S2S_STATE_CONTEXT,
    AL_S2S_STATE_DECODER,
    AL_S2S_STATE_ATTENTIONAL,
    AL_S2S_STATE_POSITIONS,
    AL_S2S_STATE_LOG_PROBS,
    AL_S2S_STATE_COUNT
};
double al_model_seq2seq_states_layout(const al_model *m, int S, int T, int32_t *layout, int n);
/* AL_ERR_ARGUMENT (NULLs), _UNSUPPORTED (not seq2seq), _SHAPE (S or T out of range), _RANGE (an
 * id outside its vocabulary), _OVERFLOW (over 2^31 bytes), _NOMEM, _NONFINITE. */
al_status al_model_seq2seq_states(const al_model *m, const int32_t *src, int S, const int32_t *tgt,
                                  int T, float *states);

/*
 * memory-rnn, one forward of ids [n] (either head): embedded [n,E], hidden [n,H] h_t, memory
 * [n,H] c_t (lstmn, lstm), scores [n,n] (row t over the steps read), weights [n,n] (equal to the
 * forward's), summary [n,H] (lstmn h̃_t; self-attention-rnn c_t), memory_summary [n,H] (lstmn
 * c̃_t). The lstm cell has no scores, weights or summaries.
 */
enum {
    AL_MEM_STATE_EMBEDDED = 0,
    AL_MEM_STATE_HIDDEN,
    AL_MEM_STATE_MEMORY,
    AL_MEM_STATE_SCORES,
    AL_MEM_STATE_WEIGHTS,
    AL_MEM_STATE_SUMMARY,
    AL_MEM_STATE_MEMORY_SUMMARY,
    AL_MEM_STATE_COUNT
};
double al_model_memory_states_layout(const al_model *m, int n, int32_t *layout, int count);
/* Statuses as al_model_seq2seq_states (_UNSUPPORTED: not memory-rnn). */
al_status al_model_memory_states(const al_model *m, const int32_t *ids, int n, float *states);

#ifdef __cplusplus
}
#endif

#endif /* AL_API_MODEL_H */
