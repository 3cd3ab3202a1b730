/*
 * models/config_limits.h: every cap a model config is checked against, one table for the four
 * architectures (docs/models.md lists the keys). Each architecture's parser (seq2seq_config.c,
 * transformer.c, classifier.c, memory_rnn_model.c) passes these to al_cfg_int and
 * al_cfg_string_array. al_model_limit (api/model.h) hands each one out by number, so the glue's
 * copy (CONFIG_LIMITS in wasm/limits.js) and Python's (python/attnlab/limits.py) are checked
 * against it: tests/js/limits.test.js and tests/js/config-limits-python.test.js.
 * Deliberately not here: per-call limits (AL_MODEL_MAX_* in api/model.h), the loader's own caps
 * (AL_MODEL_MAX_TENSORS in model.h, AL_CFG_MAX_KEY / _STRING in model_config.h), lower bounds
 * (every size is at least 1).
 */
#ifndef AL_MODELS_CONFIG_LIMITS_H
#define AL_MODELS_CONFIG_LIMITS_H

/* seq2seq */
#define AL_S2S_MAX_DIM 4096 /* embeddingSize, hiddenSize, attention sizes */
#define AL_S2S_MAX_LAYERS 8
#define AL_S2S_MAX_VOCAB 1048576 /* entries of srcVocab, tgtVocab */
#define AL_S2S_MAX_WINDOW 1024
#define AL_S2S_MAX_LENGTH 1024 /* maxLength */

/* transformer */
#define AL_TF_MAX_DIM 4096 /* embeddingSize, feedforwardSize */
#define AL_TF_MAX_HEADS 64
#define AL_TF_MAX_LAYERS 16       /* encoder / decoder variants */
#define AL_TF_MAX_LAYERS_ED 8     /* encoder-decoder: per stack (tensor-count limit of model.h) */
#define AL_TF_MAX_LAYERS_ED_REL 7 /* encoder-decoder, relative positions (4 more tensors a pair) */
#define AL_TF_MAX_VOCAB 1048576   /* entries of srcVocab, tgtVocab */
#define AL_TF_MAX_POSITIONS 4096  /* maxPositions, maxRelativePosition */
#define AL_TF_MAX_LENGTH 1024     /* maxLength */

/* classifier */
#define AL_CLF_MAX_DIM 4096 /* embeddingSize, hidden and attention sizes */
#define AL_CLF_MAX_LAYERS 8
#define AL_CLF_MAX_HOPS 64 /* structured: r */
#define AL_CLF_MAX_VOCAB 1048576
#define AL_CLF_MAX_LABELS 65536
#define AL_CLF_MAX_PENALTY 10000    /* penaltyCoefficient's upper bound */
#define AL_CLF_MAX_TEMPERATURE 1000 /* temperature's upper bound (it is > 0) */

/* memory-rnn */
#define AL_MRNN_MAX_DIM 4096 /* embeddingSize, hiddenSize, attentionSize */
#define AL_MRNN_MAX_VOCAB 1048576
#define AL_MRNN_MAX_LABELS 65536

#endif /* AL_MODELS_CONFIG_LIMITS_H */
