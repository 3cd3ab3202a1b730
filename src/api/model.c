/*
 * api/model.c: the checked entry points of api/model.h over models/: NULLs and sizes here, then
 * the architecture's own code. Loading itself is models/model.c.
 */
#include <math.h>

#include "../attnlab.h"
#include "model.h"
#include "../models/model.h"
#include "../models/config_limits.h"
#include "../models/seq2seq.h"
#include "../models/classifier.h"
#include "../models/transformer.h"
#include "../models/memory_rnn_model.h"
#include "../kernels/attention_additive_luong.h"

int al_model_limit(int which)
{
    switch (which) {
    case AL_MODEL_LIMIT_ERR_CAP: return AL_MODEL_ERR_CAP;
    case AL_MODEL_LIMIT_SOURCE: return AL_MODEL_MAX_SOURCE;
    case AL_MODEL_LIMIT_STEPS: return AL_MODEL_MAX_STEPS;
    case AL_MODEL_LIMIT_BEAM: return AL_MODEL_MAX_BEAM;
    case AL_MODEL_LIMIT_S2S_DIM: return AL_S2S_MAX_DIM;
    case AL_MODEL_LIMIT_S2S_LAYERS: return AL_S2S_MAX_LAYERS;
    case AL_MODEL_LIMIT_S2S_VOCAB: return AL_S2S_MAX_VOCAB;
    case AL_MODEL_LIMIT_S2S_WINDOW: return AL_S2S_MAX_WINDOW;
    case AL_MODEL_LIMIT_S2S_LENGTH: return AL_S2S_MAX_LENGTH;
    case AL_MODEL_LIMIT_TF_DIM: return AL_TF_MAX_DIM;
    case AL_MODEL_LIMIT_TF_HEADS: return AL_TF_MAX_HEADS;
    case AL_MODEL_LIMIT_TF_LAYERS: return AL_TF_MAX_LAYERS;
    case AL_MODEL_LIMIT_TF_LAYERS_ED: return AL_TF_MAX_LAYERS_ED;
    case AL_MODEL_LIMIT_TF_LAYERS_ED_REL: return AL_TF_MAX_LAYERS_ED_REL;
    case AL_MODEL_LIMIT_TF_VOCAB: return AL_TF_MAX_VOCAB;
    case AL_MODEL_LIMIT_TF_POSITIONS: return AL_TF_MAX_POSITIONS;
    case AL_MODEL_LIMIT_TF_LENGTH: return AL_TF_MAX_LENGTH;
    case AL_MODEL_LIMIT_CLF_DIM: return AL_CLF_MAX_DIM;
    case AL_MODEL_LIMIT_CLF_LAYERS: return AL_CLF_MAX_LAYERS;
    case AL_MODEL_LIMIT_CLF_HOPS: return AL_CLF_MAX_HOPS;
    case AL_MODEL_LIMIT_CLF_VOCAB: return AL_CLF_MAX_VOCAB;
    case AL_MODEL_LIMIT_CLF_LABELS: return AL_CLF_MAX_LABELS;
    case AL_MODEL_LIMIT_CLF_PENALTY: return AL_CLF_MAX_PENALTY;
    case AL_MODEL_LIMIT_MRNN_DIM: return AL_MRNN_MAX_DIM;
    case AL_MODEL_LIMIT_MRNN_VOCAB: return AL_MRNN_MAX_VOCAB;
    case AL_MODEL_LIMIT_MRNN_LABELS: return AL_MRNN_MAX_LABELS;
    case AL_MODEL_LIMIT_CLF_TEMPERATURE: return AL_CLF_MAX_TEMPERATURE;
    }
    return -1;
}

static const al_seq2seq *s2s(const al_model *m) { return (const al_seq2seq *)m->impl; }
static const al_transformer *tf(const al_model *m) { return (const al_transformer *)m->impl; }
#define IS_TF(m) ((m)->arch == AL_ARCH_TRANSFORMER)
static const al_classifier *clf(const al_model *m) { return (const al_classifier *)m->impl; }
#define IS_CLF(m) ((m)->arch == AL_ARCH_CLASSIFIER)
static const al_memory_rnn *mem(const al_model *m) { return (const al_memory_rnn *)m->impl; }
#define IS_MEM(m) ((m)->arch == AL_ARCH_MEMORY_RNN)

/*
 * What a loaded model is, in one place: every field of al_model_info, filled by the model's
 * architecture (one switch). The single-field getters below read it.
 */
static void model_info(const al_model *m, int32_t v[AL_MODEL_INFO_COUNT])
{
    for (int i = 0; i < AL_MODEL_INFO_COUNT; i++) v[i] = -1;
    v[AL_MODEL_INFO_ARCH] = m->arch;
    v[AL_MODEL_INFO_HAS_POSITIONS] = 0;
    switch (m->arch) {
    case AL_ARCH_SEQ2SEQ:
        v[AL_MODEL_INFO_SRC_VOCAB] = s2s(m)->Vs;
        v[AL_MODEL_INFO_TGT_VOCAB] = s2s(m)->Vt;
        v[AL_MODEL_INFO_BOS] = s2s(m)->bos;
        v[AL_MODEL_INFO_EOS] = s2s(m)->eos;
        v[AL_MODEL_INFO_MAX_LENGTH] = s2s(m)->max_length;
        v[AL_MODEL_INFO_HAS_POSITIONS] = s2s(m)->local != AL_LUONG_GLOBAL;
        break;
    case AL_ARCH_TRANSFORMER:
        v[AL_MODEL_INFO_SRC_VOCAB] = tf(m)->Vs;
        v[AL_MODEL_INFO_TGT_VOCAB] = tf(m)->Vt;
        v[AL_MODEL_INFO_BOS] = tf(m)->bos;
        v[AL_MODEL_INFO_EOS] = tf(m)->eos;
        v[AL_MODEL_INFO_MAX_LENGTH] = tf(m)->max_length;
        v[AL_MODEL_INFO_LAYERS] = tf(m)->L;
        v[AL_MODEL_INFO_HEADS] = tf(m)->H;
        v[AL_MODEL_INFO_VARIANT] = tf(m)->variant;
        v[AL_MODEL_INFO_MAX_POSITIONS] = tf(m)->max_positions;
        break;
    case AL_ARCH_CLASSIFIER:
        v[AL_MODEL_INFO_SRC_VOCAB] = clf(m)->V;
        v[AL_MODEL_INFO_TGT_VOCAB] = clf(m)->C; /* the number of labels */
        v[AL_MODEL_INFO_HOPS] = clf(m)->pooling == AL_CLF_STRUCTURED ? clf(m)->r : 1;
        break;
    case AL_ARCH_MEMORY_RNN:
        v[AL_MODEL_INFO_SRC_VOCAB] = mem(m)->V;
        v[AL_MODEL_INFO_TGT_VOCAB] = mem(m)->C;
        v[AL_MODEL_INFO_HEAD] = mem(m)->head;
        v[AL_MODEL_INFO_ATTENDS] = mem(m)->cell != AL_MEM_LSTM;
        break;
    default: break;
    }
}

int al_model_info(const al_model *m, int32_t *out, int n)
{
    int32_t v[AL_MODEL_INFO_COUNT];
    if (!m || !out || n < 0) return -1;
    model_info(m, v);
    if (n > AL_MODEL_INFO_COUNT) n = AL_MODEL_INFO_COUNT;
    for (int i = 0; i < n; i++) out[i] = v[i];
    return n;
}

/* One field of al_model_info; -1 for a NULL model. */
static int info_field(const al_model *m, int field)
{
    int32_t v[AL_MODEL_INFO_COUNT];
    if (!m) return -1;
    model_info(m, v);
    return v[field];
}

int al_model_src_vocab(const al_model *m) { return info_field(m, AL_MODEL_INFO_SRC_VOCAB); }
int al_model_tgt_vocab(const al_model *m) { return info_field(m, AL_MODEL_INFO_TGT_VOCAB); }
int al_model_bos(const al_model *m) { return info_field(m, AL_MODEL_INFO_BOS); }
int al_model_eos(const al_model *m) { return info_field(m, AL_MODEL_INFO_EOS); }
int al_model_max_length(const al_model *m) { return info_field(m, AL_MODEL_INFO_MAX_LENGTH); }
int al_model_has_positions(const al_model *m) { return info_field(m, AL_MODEL_INFO_HAS_POSITIONS); }

double al_model_transformer_attention_floats(const al_model *m, int S, int T)
{
    if (!m || !IS_TF(m) || S < 0 || T < 0) return -1.0;
    return al_transformer_attention_floats(tf(m), S, T);
}

/*
 * Results policy (docs/reliability.md): weights are only required to be finite, so a file with
 * huge finite weights (±3e38) can overflow float32 inside the model. A call whose results are not
 * all finite returns AL_ERR_NONFINITE instead of AL_OK: a caller never sees NaN or ±inf
 * log-probabilities, attention or logits with a success status. The outputs are then unspecified.
 */
static al_status finite_or(al_status st, const float *x, double n)
{
    if (st != AL_OK || !x || n <= 0) return st;
    return al_check_finite(x, (int)n) < 0 ? AL_OK : AL_ERR_NONFINITE;
}

static al_status check_src(const al_model *m, const int32_t *src, int S)
{
    if (!m || !src) return AL_ERR_ARGUMENT;
    if (m->arch != AL_ARCH_SEQ2SEQ) return AL_ERR_UNSUPPORTED; /* transformer: functions below */
    if (S < 1 || S > AL_MODEL_MAX_SOURCE) return AL_ERR_SHAPE;
    for (int i = 0; i < S; i++) {
        if (src[i] < 0 || src[i] >= s2s(m)->Vs) return AL_ERR_RANGE;
    }
    return AL_OK;
}

al_status al_model_generate(const al_model *m, const int32_t *src, int S, int max_len, int beam,
                            int32_t *ids, float *logp, float *att, float *pos, int *len)
{
    al_status st = check_src(m, src, S);
    if (st != AL_OK) return st;
    if (!ids || !logp || !att || !len) return AL_ERR_ARGUMENT;
    if (max_len < 1 || max_len > AL_MODEL_MAX_STEPS) return AL_ERR_SHAPE;
    if (beam > AL_MODEL_MAX_BEAM) return AL_ERR_ARGUMENT;
    *len = 0;
    st = al_seq2seq_generate(s2s(m), src, S, max_len, beam, ids, logp, att, pos, len);
    st = finite_or(st, logp, *len);
    st = finite_or(st, att, (double)*len * S);
    return finite_or(st, pos, *len);
}

al_status al_model_score(const al_model *m, const int32_t *src, int S, const int32_t *tgt, int T,
                         float *logp, float *att, float *pos, float *dist)
{
    al_status st = check_src(m, src, S);
    if (st != AL_OK) return st;
    if (!tgt || !logp) return AL_ERR_ARGUMENT;
    if (T < 1 || T > AL_MODEL_MAX_STEPS) return AL_ERR_SHAPE;
    if ((double)T * s2s(m)->Vt >= 2147483648.0 || (double)T * S >= 2147483648.0)
        return AL_ERR_OVERFLOW;
    st = al_seq2seq_score(s2s(m), src, S, tgt, T, logp, att, pos, dist);
    st = finite_or(st, logp, T);
    st = finite_or(st, att, (double)T * S);
    st = finite_or(st, pos, T);
    return finite_or(st, dist, (double)T * s2s(m)->Vt);
}

/* al_decoder is the architecture's decoder handle (only seq2seq has one today). */
al_status al_model_decoder_start(const al_model *m, const int32_t *src, int S, al_decoder **out)
{
    if (!out) return AL_ERR_ARGUMENT;
    *out = NULL;
    al_status st = check_src(m, src, S);
    if (st != AL_OK) return st;
    al_s2s_decoder *d;
    st = al_seq2seq_decoder_start(s2s(m), src, S, &d);
    if (st == AL_OK) *out = (al_decoder *)d;
    return st;
}

al_status al_decoder_step(al_decoder *d, int32_t force, int32_t *id, float *logp, float *att,
                          float *pos, float *dist, int *done)
{
    if (!d) return AL_ERR_ARGUMENT;
    return al_seq2seq_decoder_step((al_s2s_decoder *)d, force, id, logp, att, pos, dist, done);
}

void al_decoder_free(al_decoder *d) { al_seq2seq_decoder_free((al_s2s_decoder *)d); }

/* ------------------------------------------------------------------ transformer */

al_status al_model_transformer_forward(const al_model *m, const int32_t *src, int S,
                                       const int32_t *tgt, int T, float *logits, float *att)
{
    if (!m || !src || !logits) return AL_ERR_ARGUMENT;
    if (!IS_TF(m)) return AL_ERR_UNSUPPORTED;
    const int ed = tf(m)->variant == AL_TF_ENCODER_DECODER;
    if (S < 1 || S > AL_MODEL_MAX_SOURCE) return AL_ERR_SHAPE;
    if (ed && !tgt) return AL_ERR_ARGUMENT;
    if (ed ? T < 1 || T > AL_MODEL_MAX_STEPS : T != 0) return AL_ERR_SHAPE;
    if ((double)(ed ? T : S) * tf(m)->Vt >= 2147483648.0 ||
        al_transformer_attention_floats(tf(m), S, T) >= 2147483648.0) {
        return AL_ERR_OVERFLOW;
    }
    al_status st = al_transformer_forward(tf(m), src, S, ed ? tgt : NULL, ed ? T : 0, logits, att);
    st = finite_or(st, logits, (double)(ed ? T : S) * tf(m)->Vt);
    return finite_or(st, att, al_transformer_attention_floats(tf(m), S, T));
}

al_status al_model_transformer_generate(const al_model *m, const int32_t *src, int S, int max_len,
                                        int32_t *ids, float *logp, int *len)
{
    if (!m || !src || !ids || !logp || !len) return AL_ERR_ARGUMENT;
    *len = 0;
    if (!IS_TF(m)) return AL_ERR_UNSUPPORTED;
    if (S < 1 || S > AL_MODEL_MAX_SOURCE) return AL_ERR_SHAPE;
    if (max_len < 1 || max_len > AL_MODEL_MAX_STEPS) return AL_ERR_SHAPE;
    return finite_or(al_transformer_generate(tf(m), src, S, max_len, ids, logp, len), logp, *len);
}

/* ------------------------------------------------------------------ classifier */

int al_model_classifier_hops(const al_model *m) { return info_field(m, AL_MODEL_INFO_HOPS); }

int al_model_classifier_sentences(const al_model *m, const int32_t *ids, int n)
{
    if (!m || !ids || !IS_CLF(m) || n < 0) return -1;
    return al_classifier_sentences(clf(m), ids, n);
}

al_status al_model_classify(const al_model *m, const int32_t *ids, int n, float *probs,
                            float *weights, float *sent, float *penalty)
{
    if (!m || !ids || !probs || !weights) return AL_ERR_ARGUMENT;
    if (!IS_CLF(m)) return AL_ERR_UNSUPPORTED;
    if (n < 1 || n > AL_MODEL_MAX_SOURCE) return AL_ERR_SHAPE;
    al_status st = al_classifier_forward(clf(m), ids, n, probs, weights, sent, penalty);
    st = finite_or(st, probs, clf(m)->C);
    st = finite_or(st, weights, (double)al_model_classifier_hops(m) * n);
    if (st == AL_OK && penalty && !isfinite(*penalty)) st = AL_ERR_NONFINITE;
    return st;
}

/* ------------------------------------------------------------------ memory-rnn */

/* NULLs, the architecture and head, n in range; the weights need n² floats below 2^31 bytes */
static al_status check_mem(const al_model *m, const int32_t *ids, int n, int head)
{
    if (!m || !ids) return AL_ERR_ARGUMENT;
    if (!IS_MEM(m) || mem(m)->head != head) return AL_ERR_UNSUPPORTED;
    if (n < 1 || n > AL_MODEL_MAX_SOURCE) return AL_ERR_SHAPE;
    return (double)n * (head == AL_MEM_LM ? mem(m)->C : 1) >= 536870912.0 ? AL_ERR_OVERFLOW : AL_OK;
}

al_status al_model_lm_forward(const al_model *m, const int32_t *ids, int n, float *logp,
                              float *dist, float *weights)
{
    al_status st = check_mem(m, ids, n, AL_MEM_LM);
    if (st != AL_OK) return st;
    st = al_memory_rnn_forward(mem(m), ids, n, dist, logp, weights);
    st = finite_or(st, logp, n - 1);
    st = finite_or(st, dist, (double)n * mem(m)->C);
    return finite_or(st, weights, (double)n * n);
}

al_status al_model_memory_classify(const al_model *m, const int32_t *ids, int n, float *probs,
                                   float *weights)
{
    al_status st = check_mem(m, ids, n, AL_MEM_CLASSIFIER);
    if (st != AL_OK) return st;
    if (!probs) return AL_ERR_ARGUMENT;
    st = al_memory_rnn_forward(mem(m), ids, n, probs, NULL, weights);
    st = finite_or(st, probs, mem(m)->C);
    return finite_or(st, weights, (double)n * n);
}
