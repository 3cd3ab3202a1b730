/*
 * models/model.c: loading a model from safetensors bytes (the steps are listed in model.h):
 * config, architecture, the architecture's checks, the tensor list checked against the file,
 * then the allocations. Every failure path frees what it allocated.
 * Deliberately not here: any architecture's maths or config keys beyond "architecture".
 */
#include <string.h>

#include "model.h"
#include "seq2seq.h"
#include "classifier.h"
#include "transformer.h"
#include "memory_rnn_model.h"
#include "../api/model.h"
#include "../api/safetensors.h"
#include "../toolbox.h"

static const al_model_arch *const ARCHS[] = { &al_seq2seq_arch, &al_transformer_arch,
                                              &al_classifier_arch, &al_memory_rnn_arch, NULL };
static const char *const ARCH_NAMES[] = { "seq2seq", "transformer", "classifier", "memory-rnn",
                                          NULL };

al_status al_tensor_list_add(al_tensor_list *l, const char *name, int dim0, int dim1, size_t field)
{
    if (l->n >= AL_MODEL_MAX_TENSORS || strlen(name) >= AL_MODEL_MAX_NAME) return AL_ERR_OVERFLOW;
    al_tensor_spec *t = &l->t[l->n++];
    strcpy(t->name, name);
    t->rank = dim1 > 0 ? 2 : 1;
    t->dim[0] = dim0;
    t->dim[1] = dim1;
    t->field = field;
    return AL_OK;
}

/* "[a, b]" into buf [64]: the shape of tensor i of st, or (st NULL) of the spec t. A file's rank
 * may reach 8: past 40 bytes the dims stop, and past rank 4 ", ..." says so. */
static const char *shape_text(char *buf, const al_safetensors *st, int i, const al_tensor_spec *t)
{
    al_msg m = { buf, 64, 0 };
    const int r = st ? al_safetensors_rank(st, i) : t->rank;
    al_msg_str(&m, "[");
    for (int a = 0; a < r && m.len < 40; a++) {
        if (a) al_msg_str(&m, ", ");
        al_msg_int(&m, st ? al_safetensors_dim(st, i, a) : t->dim[a]);
    }
    if (r > 4) al_msg_str(&m, ", ...");
    al_msg_str(&m, "]");
    return buf;
}

/* Every listed tensor present with its exact shape, nothing else; *total = floats needed. */
static al_status check_tensors(const al_safetensors *st, const al_tensor_list *l, size_t *total,
                               char *err, size_t errlen)
{
    char a[64], b[64];
    double sum = 0.0;
    for (int k = 0; k < l->n; k++) {
        const al_tensor_spec *t = &l->t[k];
        const int i = al_safetensors_find(st, t->name);
        if (i < 0) {
            return al_errf(err, errlen, AL_ERR_FORMAT,
                           "missing tensor \"%s\" (the config needs shape %s)", t->name,
                           shape_text(a, NULL, 0, t));
        }
        int same = al_safetensors_rank(st, i) == t->rank;
        for (int d = 0; same && d < t->rank; d++) same = al_safetensors_dim(st, i, d) == t->dim[d];
        if (!same) {
            return al_errf(err, errlen, AL_ERR_SHAPE,
                           "tensor \"%s\" has shape %s but the config needs %s", t->name,
                           shape_text(b, st, i, NULL), shape_text(a, NULL, 0, t));
        }
        sum += (double)t->dim[0] * (t->rank == 2 ? t->dim[1] : 1);
    }
    for (int i = 0; i < al_safetensors_count(st); i++) {
        const char *name = al_safetensors_name(st, i);
        int known = 0;
        for (int k = 0; k < l->n && !known; k++) known = strcmp(name, l->t[k].name) == 0;
        if (!known) {
            return al_errf(err, errlen, AL_ERR_FORMAT,
                           "unexpected tensor \"%s\" (shape %s): this config does not use it", name,
                           shape_text(b, st, i, NULL));
        }
    }
    if (sum * sizeof(float) >= 2147483648.0) {
        return al_errf(err, errlen, AL_ERR_OVERFLOW,
                       "the weights need 2 GiB or more; attnlab's limit is below that");
    }
    *total = (size_t)sum;
    return AL_OK;
}

/* The parse stage's scratch: the architecture's settings and the tensor list (about 10 KB, kept
 * off the stack). */
typedef struct {
    al_tensor_list list;
    union {
        al_seq2seq seq2seq;
        al_classifier classifier;
        al_transformer transformer;
        al_memory_rnn memory_rnn;
    } impl;
} load_scratch;

al_status al_model_load(const uint8_t *bytes, size_t len, al_model **out, char *err, size_t errlen)
{
    if (err && errlen) err[0] = 0;
    if (!out) return al_errf(err, errlen, AL_ERR_ARGUMENT, "al_model_load: out is NULL");
    *out = NULL;
    if (!bytes) return al_errf(err, errlen, AL_ERR_ARGUMENT, "al_model_load: bytes is NULL");

    al_safetensors *st = NULL;
    al_status s = al_safetensors_open(bytes, len, &st, err, errlen);
    if (s != AL_OK) return s;

    load_scratch *ls = NULL;
    al_model *m = NULL;
    const char *config = al_safetensors_meta_find(st, "config");
    al_cfg cfg;
    int arch;
    size_t total = 0;
    if (!config) {
        s = al_errf(err, errlen, AL_ERR_FORMAT,
                    "no \"config\" in the file's __metadata__: is this an attnlab model?");
        goto fail;
    }
    const size_t config_len = strlen(config);
    if (al_cfg_open(&cfg, config, config_len, err, errlen)) {
        s = AL_ERR_FORMAT;
        goto fail;
    }
    s = al_cfg_enum(&cfg, "architecture", ARCH_NAMES, -1, &arch, err, errlen);
    if (s != AL_OK) goto fail;
    ls = al_malloc(sizeof *ls);
    if (!ls) {
        s = al_errf(err, errlen, AL_ERR_NOMEM, "out of memory reading the config");
        goto fail;
    }
    memset(ls, 0, sizeof *ls);
    const al_model_arch *A = ARCHS[arch];
    s = A->parse(&cfg, &ls->impl, &ls->list, err, errlen);
    if (s == AL_ERR_OVERFLOW && !(err && err[0])) {
        al_errf(err, errlen, s, "the config needs more than %d tensors", AL_MODEL_MAX_TENSORS);
    }
    if (s != AL_OK) goto fail;
    s = check_tensors(st, &ls->list, &total, err, errlen);
    if (s != AL_OK) goto fail;

    /* everything checked: allocate and copy */
    const size_t head = (sizeof(al_model) + 15) / 16 * 16;
    m = al_malloc(head + A->impl_size);
    if (!m) goto nomem;
    memset(m, 0, head);
    m->impl = (char *)m + head;
    memcpy(m->impl, &ls->impl, A->impl_size);
    m->arch = arch;
    m->arch_name = A->name;
    m->config = al_malloc(config_len + 1);
    m->weights = al_malloc(total * sizeof(float));
    if (!m->config || !m->weights) goto nomem;
    memcpy(m->config, config, config_len + 1);
    m->n_weights = total;
    float *w = m->weights;
    for (int k = 0; k < ls->list.n; k++) {
        const al_tensor_spec *t = &ls->list.t[k];
        const int i = al_safetensors_find(st, t->name);
        const size_t n = (size_t)al_safetensors_numel(st, i);
        s = al_safetensors_read_f32(st, i, w, n);
        if (s != AL_OK) {
            al_errf(err, errlen, s, "reading tensor \"%s\" failed", t->name);
            goto fail;
        }
        *(const float **)((char *)m->impl + t->field) = w;
        w += n;
    }
    al_free(ls);
    al_safetensors_free(st);
    *out = m;
    return AL_OK;

nomem:
    s = al_errf(err, errlen, AL_ERR_NOMEM, "out of memory allocating the model (%d floats)",
                (int)(total > 2147483647u ? 2147483647 : total));
fail:
    if (m) {
        al_free(m->config);
        al_free(m->weights);
        al_free(m);
    }
    al_free(ls);
    al_safetensors_free(st);
    return s;
}

void al_model_free(al_model *m)
{
    if (!m) return;
    al_free(m->config);
    al_free(m->weights);
    al_free(m);
}

const al_model_arch *al_model_arch_get(int arch)
{
    return arch >= 0 && arch < (int)(sizeof ARCHS / sizeof ARCHS[0]) - 1 ? ARCHS[arch] : NULL;
}

const char *al_model_architecture(const al_model *m) { return m ? m->arch_name : NULL; }
const char *al_model_config(const al_model *m) { return m ? m->config : NULL; }
