/*
 * api/train.c: the checked entry points of api/train.h: a model from a config (a safetensors file
 * of zeros built in memory and handed to al_model_load, so creation and loading share every
 * check; then al_seq2seq_init), the trainer handle (gradient, optimiser moments), and saving.
 * Not here: the maths (models/seq2seq_train.c, models/optim.c).
 */
#include <math.h>
#include <string.h>

#include "train.h"
#include "model.h"
#include "../models/model.h"
#include "../models/model_export.h"
#include "../toolbox.h"
#include "../models/optim.h"
#include "../models/seq2seq.h"
#include "../models/seq2seq_train.h"

struct al_trainer {
    al_model *m;
    size_t n;       /* weights */
    float *grad;    /* [n] */
    float *m1, *m2; /* [n] Adam moments, or m1 the SGD momentum buffer (m2 NULL) */
    int optimizer;
    float lr, momentum, weight_decay, clip;
    float smoothing; /* label smoothing ε of the cross-entropy (models/loss.h); 0: none */
    float norm;      /* the last gradient's norm before clipping */
    double terms; /* the last gradient's loss terms (target tokens, documents, ...); 0: none yet */
    long steps;
    int batched; /* 1: the architecture's batch hook when it has one (default); 0: per example */
};

float *al_model_weights(al_model *m) { return m ? m->weights : NULL; }
int al_model_weight_count(const al_model *m) { return m ? (int)m->n_weights : -1; }

al_status al_model_create(const char *config, size_t len, uint32_t seed, al_model **out, char *err,
                          size_t errlen)
{
    if (err && errlen) err[0] = 0;
    if (!out) return al_errf(err, errlen, AL_ERR_ARGUMENT, "al_model_create: out is NULL");
    *out = NULL;
    if (!config) return al_errf(err, errlen, AL_ERR_ARGUMENT, "al_model_create: config is NULL");
    if (len > 16u * 1024 * 1024) {
        return al_errf(err, errlen, AL_ERR_ARGUMENT, "al_model_create: the config is over 16 MiB");
    }
    /* a model whose config is this text and every weight zero: export needs a model, so build a
     * tiny one (no tensors) around the config to read the tensor list from */
    char *text = al_malloc(len + 1);
    if (!text) return al_errf(err, errlen, AL_ERR_NOMEM, "out of memory");
    memcpy(text, config, len);
    text[len] = 0;
    if (strlen(text) != len) {
        al_free(text);
        return al_errf(err, errlen, AL_ERR_FORMAT, "config contains a NUL byte");
    }
    al_model shell;
    memset(&shell, 0, sizeof shell);
    shell.config = text;
    /* check the config with the loader's own messages first */
    {
        al_cfg cfg;
        if (al_cfg_open(&cfg, text, len, err, errlen)) {
            al_free(text);
            return AL_ERR_FORMAT;
        }
        const char *names[16];
        int na = 0;
        for (const al_model_arch *A; na < 15 && (A = al_model_arch_get(na)) != NULL; na++)
            names[na] = A->name;
        names[na] = NULL;
        int arch;
        al_status st = al_cfg_enum(&cfg, "architecture", names, -1, &arch, err, errlen);
        if (st != AL_OK) {
            al_free(text);
            return st;
        }
        const al_model_arch *A = al_model_arch_get(arch);
        if (!al_model_trainer_get(arch)) {
            al_free(text);
            return al_errf(err, errlen, AL_ERR_UNSUPPORTED,
                           "architecture \"%s\" cannot be created or trained yet", A->name);
        }
        shell.arch = arch;
        shell.arch_name = A->name;
        const size_t head = (sizeof(al_tensor_list) + 15) / 16 * 16;
        char *blk = al_malloc(head + A->impl_size);
        if (!blk) {
            al_free(text);
            return al_errf(err, errlen, AL_ERR_NOMEM, "out of memory");
        }
        memset(blk, 0, head + A->impl_size);
        al_tensor_list *l = (al_tensor_list *)blk;
        st = A->parse(&cfg, blk + head, l, err, errlen);
        double total = 0;
        for (int k = 0; k < l->n; k++)
            total += (double)l->t[k].dim[0] * (l->t[k].rank == 2 ? l->t[k].dim[1] : 1);
        al_free(blk);
        if (st != AL_OK) {
            al_free(text);
            return st;
        }
        if (total * 4 >= 2147483648.0) {
            al_free(text);
            return al_errf(err, errlen, AL_ERR_OVERFLOW, "the weights need 2 GiB or more");
        }
        shell.n_weights = (size_t)total;
    }
    float *zeros = al_malloc(shell.n_weights * sizeof(float) + 4);
    if (!zeros) {
        al_free(text);
        return al_errf(err, errlen, AL_ERR_NOMEM, "out of memory");
    }
    memset(zeros, 0, shell.n_weights * sizeof(float));
    uint8_t *bytes;
    size_t n;
    al_status st = al_model_export(&shell, zeros, &bytes, &n);
    al_free(zeros);
    al_free(text);
    if (st != AL_OK) return al_errf(err, errlen, st, "building the model failed");
    al_model *m;
    st = al_model_load(bytes, n, &m, err, errlen);
    al_free(bytes);
    if (st != AL_OK) return st;
    al_tensor_list *l;
    st = al_model_tensor_list(m, &l);
    if (st != AL_OK) {
        al_model_free(m);
        return al_errf(err, errlen, st, "building the model failed");
    }
    al_model_trainer_get(m->arch)->init(l, m->impl, m->weights, seed);
    al_free(l);
    *out = m;
    return AL_OK;
}

al_status al_model_save(const al_model *m, uint8_t **bytes, size_t *len)
{
    if (!m || !bytes || !len) return AL_ERR_ARGUMENT;
    return al_model_export(m, m->weights, bytes, len);
}

al_status al_trainer_create(al_model *m, int optimizer, float lr, float momentum,
                            float weight_decay, float clip, al_trainer **out)
{
    if (!out) return AL_ERR_ARGUMENT;
    *out = NULL;
    if (!m) return AL_ERR_ARGUMENT;
    if (!al_model_trainer_get(m->arch)) return AL_ERR_UNSUPPORTED;
    if (optimizer != AL_OPTIM_ADAM && optimizer != AL_OPTIM_SGD) return AL_ERR_ARGUMENT;
    if (!(lr > 0.0f) || !isfinite(lr) || !(momentum >= 0.0f && momentum < 1.0f) ||
        !(weight_decay >= 0.0f) || !isfinite(weight_decay) || !isfinite(clip))
        return AL_ERR_ARGUMENT;
    al_trainer *t = al_malloc(sizeof *t);
    if (!t) return AL_ERR_NOMEM;
    memset(t, 0, sizeof *t);
    t->m = m;
    t->n = m->n_weights;
    const int moments = optimizer == AL_OPTIM_ADAM ? 2 : momentum > 0.0f ? 1 : 0;
    t->grad = al_malloc(t->n * sizeof(float) * (size_t)(1 + moments));
    if (!t->grad) {
        al_free(t);
        return AL_ERR_NOMEM;
    }
    memset(t->grad, 0, t->n * sizeof(float) * (size_t)(1 + moments));
    if (moments >= 1) t->m1 = t->grad + t->n;
    if (moments == 2) t->m2 = t->grad + 2 * t->n;
    t->optimizer = optimizer;
    t->lr = lr;
    t->momentum = momentum;
    t->weight_decay = weight_decay;
    t->clip = clip;
    t->batched = 1;
    *out = t;
    return AL_OK;
}

void al_trainer_free(al_trainer *t)
{
    if (!t) return;
    al_free(t->grad);
    al_free(t);
}

al_status al_trainer_set_lr(al_trainer *t, float lr)
{
    if (!t || !(lr > 0.0f) || !isfinite(lr)) return AL_ERR_ARGUMENT;
    t->lr = lr;
    return AL_OK;
}

al_status al_trainer_set_label_smoothing(al_trainer *t, float epsilon)
{
    if (!t || !(epsilon >= 0.0f && epsilon < 1.0f)) return AL_ERR_ARGUMENT;
    t->smoothing = epsilon;
    return AL_OK;
}

float al_trainer_label_smoothing(const al_trainer *t) { return t ? t->smoothing : -1.0f; }

al_status al_trainer_set_batched(al_trainer *t, int batched)
{
    if (!t || (batched != 0 && batched != 1)) return AL_ERR_ARGUMENT;
    t->batched = batched;
    return AL_OK;
}

int al_trainer_batched(const al_trainer *t)
{
    if (!t) return -1;
    const al_model_trainer *A = al_model_trainer_get(t->m->arch);
    return t->batched && A && A->batch ? 1 : 0;
}

al_status al_trainer_gradient(al_trainer *t, const int32_t *src, const int32_t *src_len, int S_max,
                              const int32_t *tgt, const int32_t *tgt_len, int T_max, int B,
                              float *loss)
{
    if (!t || !src || !src_len || !tgt_len || !loss || (T_max > 0 && !tgt)) return AL_ERR_ARGUMENT;
    if (B < 1 || S_max < 1 || T_max < 0 || S_max > AL_MODEL_MAX_SOURCE ||
        T_max > AL_MODEL_MAX_STEPS || (double)B * (S_max > T_max ? S_max : T_max) >= 2147483648.0)
        return AL_ERR_SHAPE;
    const al_model_trainer *A = al_model_trainer_get(t->m->arch);
    const void *impl = t->m->impl;
    double terms = 0.0;
    for (int b = 0; b < B; b++) {
        if (src_len[b] < 0 || src_len[b] > S_max || tgt_len[b] < 0 || tgt_len[b] > T_max)
            return AL_ERR_SHAPE;
        double k = 0.0;
        al_status st = A->example(impl, src + (size_t)b * S_max, src_len[b],
                                  T_max > 0 ? tgt + (size_t)b * T_max : NULL, tgt_len[b], &k);
        if (st != AL_OK) return st;
        terms += k;
    }
    if (!(terms > 0.0)) return AL_ERR_SHAPE;
    memset(t->grad, 0, t->n * sizeof(float));
    const float scale = (float)(1.0 / terms);
    double sum = 0.0;
    al_status bst = AL_ERR_UNSUPPORTED;
    if (t->batched && A->batch) {
        bst = A->batch(impl, t->m->weights, t->grad, src, src_len, S_max, tgt, tgt_len, T_max, B,
                       scale, t->smoothing, &sum);
        if (bst != AL_OK && bst != AL_ERR_UNSUPPORTED) return bst;
    }
    for (int b = 0; bst == AL_ERR_UNSUPPORTED && b < B; b++) {
        double nll;
        al_status st = A->backward(impl, t->m->weights, t->grad, src + (size_t)b * S_max,
                                   src_len[b], T_max > 0 ? tgt + (size_t)b * T_max : NULL,
                                   tgt_len[b], scale, t->smoothing, &nll);
        if (st != AL_OK) return st;
        sum += nll;
    }
    *loss = (float)(sum / terms);
    t->terms = terms;
    t->norm = (float)al_optim_clip(t->grad, t->n, 0.0f);
    return AL_OK;
}

/* Clipping and one optimiser step from t->grad (its norm in t->norm): al_trainer_step's and
 * al_trainer_apply's shared tail, so both give the same bits for the same gradient. */
static void trainer_update(al_trainer *t)
{
    al_optim_clip(t->grad, t->n, t->clip);
    t->steps++;
    if (t->optimizer == AL_OPTIM_ADAM) {
        al_optim_adam(t->m->weights, t->grad, t->m1, t->m2, t->n, t->lr, t->weight_decay, t->steps);
    } else {
        al_optim_sgd(t->m->weights, t->grad, t->m1, t->n, t->lr, t->momentum, t->weight_decay,
                     t->steps);
    }
}

al_status al_trainer_step(al_trainer *t, const int32_t *src, const int32_t *src_len, int S_max,
                          const int32_t *tgt, const int32_t *tgt_len, int T_max, int B, float *loss)
{
    al_status st = al_trainer_gradient(t, src, src_len, S_max, tgt, tgt_len, T_max, B, loss);
    if (st != AL_OK) return st;
    if (!isfinite(*loss) || !isfinite(t->norm)) return AL_ERR_NONFINITE;
    trainer_update(t);
    return AL_OK;
}

al_status al_trainer_apply(al_trainer *t, const float *grad)
{
    if (!t || !grad) return AL_ERR_ARGUMENT;
    if (grad != t->grad) memmove(t->grad, grad, t->n * sizeof(float));
    t->norm = (float)al_optim_clip(t->grad, t->n, 0.0f);
    /* a non-finite element makes the norm non-finite: one check covers the whole block */
    if (!isfinite(t->norm)) return AL_ERR_NONFINITE;
    trainer_update(t);
    return AL_OK;
}

double al_trainer_terms(const al_trainer *t) { return t ? t->terms : -1.0; }

int al_trainer_moments(const al_trainer *t)
{
    if (!t) return -1;
    return t->m2 ? 2 : t->m1 ? 1 : 0;
}

al_status al_trainer_get_state(const al_trainer *t, int *steps, float *m1, float *m2)
{
    if (!t || !steps) return AL_ERR_ARGUMENT;
    const int k = al_trainer_moments(t);
    if ((k >= 1 && !m1) || (k == 2 && !m2)) return AL_ERR_ARGUMENT;
    *steps = (int)t->steps;
    if (k >= 1) memcpy(m1, t->m1, t->n * sizeof(float));
    if (k == 2) memcpy(m2, t->m2, t->n * sizeof(float));
    return AL_OK;
}

al_status al_trainer_set_state(al_trainer *t, int steps, const float *m1, const float *m2)
{
    if (!t) return AL_ERR_ARGUMENT;
    const int k = al_trainer_moments(t);
    if ((k >= 1 && !m1) || (k == 2 && !m2)) return AL_ERR_ARGUMENT;
    if (steps < 0) return AL_ERR_RANGE;
    /* check everything before changing anything: a refused state leaves the trainer as it was */
    for (size_t i = 0; k >= 1 && i < t->n; i++)
        if (!isfinite(m1[i])) return AL_ERR_NONFINITE;
    for (size_t i = 0; k == 2 && i < t->n; i++) {
        if (!isfinite(m2[i])) return AL_ERR_NONFINITE;
        if (m2[i] < 0.0f) return AL_ERR_RANGE; /* a mean of squares */
    }
    t->steps = steps;
    if (k >= 1) memcpy(t->m1, m1, t->n * sizeof(float));
    if (k == 2) memcpy(t->m2, m2, t->n * sizeof(float));
    return AL_OK;
}

const float *al_trainer_gradients(const al_trainer *t) { return t ? t->grad : NULL; }
float al_trainer_grad_norm(const al_trainer *t) { return t ? t->norm : -1.0f; }
int al_trainer_steps(const al_trainer *t) { return t ? (int)t->steps : -1; }

al_status al_trainer_save_gradients(const al_trainer *t, uint8_t **bytes, size_t *len)
{
    if (!t || !bytes || !len) return AL_ERR_ARGUMENT;
    return al_model_export(t->m, t->grad, bytes, len);
}
