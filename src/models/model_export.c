/*
 * models/model_export.c: writing a model back to safetensors bytes (al_model_export) and the
 * tensor list it writes in (al_model_tensor_list), for every architecture: the names, shapes
 * and order are each architecture's parse() (beside its model: seq2seq_config.c,
 * transformer.c, classifier.c, memory_rnn_model.c), so the one writer here serves them all and
 * a file it writes is one al_model_load reads.
 * Format: https://github.com/huggingface/safetensors ("Format"); docs/model-format.md.
 * Deliberately not here: reading safetensors (io/safetensors.c), any architecture's config
 * keys, dtypes other than F32.
 */
#include <string.h>

#include "model_export.h"
#include "../toolbox.h"

al_status al_model_tensor_list(const struct al_model *m, al_tensor_list **out)
{
    *out = NULL;
    const al_model_arch *A = m ? al_model_arch_get(m->arch) : NULL;
    if (!A) return AL_ERR_ARGUMENT;
    /* the list first (al_free(*out) frees the block), the architecture's scratch after it */
    const size_t head = (sizeof(al_tensor_list) + 15) / 16 * 16;
    char *b = al_malloc(head + A->impl_size);
    if (!b) return AL_ERR_NOMEM;
    memset(b, 0, head + A->impl_size);
    al_cfg cfg;
    al_status st = AL_ERR_FORMAT;
    if (al_cfg_open(&cfg, m->config, strlen(m->config), NULL, 0) == 0) {
        st = A->parse(&cfg, b + head, (al_tensor_list *)b, NULL, 0);
    }
    if (st != AL_OK) {
        al_free(b);
        return st;
    }
    *out = (al_tensor_list *)b;
    return AL_OK;
}

/* append to a growing byte buffer (cap doubles); returns 0 on failure */
typedef struct {
    char *p;
    size_t n, cap;
    int bad;
} sbuf;
static void sb_put(sbuf *b, const char *s, size_t n)
{
    if (b->bad) return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (b->n + n + 1 > cap) cap *= 2;
        char *q = al_malloc(cap);
        if (!q) {
            b->bad = 1;
            return;
        }
        if (b->p) memcpy(q, b->p, b->n);
        al_free(b->p);
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}
static void sb_str(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }
static void sb_num(sbuf *b, unsigned long v)
{
    char tmp[24];
    int k = 24;
    do {
        tmp[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    sb_put(b, tmp + k, (size_t)(24 - k));
}
/* a JSON string literal of s (quotes, backslashes and control characters escaped) */
static void sb_json(sbuf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    sb_put(b, "\"", 1);
    for (; *s; s++) {
        const unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char e[2] = { '\\', (char)c };
            sb_put(b, e, 2);
        } else if (c < 0x20) {
            char e[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
            sb_put(b, e, 6);
        } else {
            sb_put(b, (const char *)&c, 1);
        }
    }
    sb_put(b, "\"", 1);
}

al_status al_model_export(const struct al_model *m, const float *data, uint8_t **bytes, size_t *len)
{
    *bytes = NULL;
    *len = 0;
    al_tensor_list *l;
    AL_TRY(al_model_tensor_list(m, &l));
    sbuf h = { NULL, 0, 0, 0 };
    sb_str(&h, "{\"__metadata__\":{\"config\":");
    sb_json(&h, m->config);
    sb_str(&h, "}");
    size_t off = 0;
    for (int k = 0; k < l->n; k++) {
        const al_tensor_spec *t = &l->t[k];
        const size_t n = (size_t)t->dim[0] * (size_t)(t->rank == 2 ? t->dim[1] : 1);
        sb_str(&h, ",");
        sb_json(&h, t->name);
        sb_str(&h, ":{\"dtype\":\"F32\",\"shape\":[");
        sb_num(&h, (unsigned long)t->dim[0]);
        if (t->rank == 2) {
            sb_str(&h, ",");
            sb_num(&h, (unsigned long)t->dim[1]);
        }
        sb_str(&h, "],\"data_offsets\":[");
        sb_num(&h, (unsigned long)off);
        sb_str(&h, ",");
        sb_num(&h, (unsigned long)(off + 4 * n));
        sb_str(&h, "]}");
        off += 4 * n;
    }
    sb_str(&h, "}");
    while (!h.bad && h.n % 8) sb_put(&h, " ", 1);
    al_free(l);
    if (h.bad || off != m->n_weights * 4) {
        al_free(h.p);
        return h.bad ? AL_ERR_NOMEM : AL_ERR_FORMAT;
    }
    const size_t total = 8 + h.n + off;
    uint8_t *out = al_malloc(total);
    if (!out) {
        al_free(h.p);
        return AL_ERR_NOMEM;
    }
    for (int i = 0; i < 8; i++) out[i] = (uint8_t)(((uint64_t)h.n >> (8 * i)) & 0xff);
    memcpy(out + 8, h.p, h.n);
    al_free(h.p);
    /* F32 little-endian, assembled bytewise (any host) */
    uint8_t *q = out + 8 + h.n;
    for (size_t i = 0; i < m->n_weights; i++) {
        uint32_t u;
        memcpy(&u, data + i, 4);
        q[4 * i] = (uint8_t)u;
        q[4 * i + 1] = (uint8_t)(u >> 8);
        q[4 * i + 2] = (uint8_t)(u >> 16);
        q[4 * i + 3] = (uint8_t)(u >> 24);
    }
    *bytes = out;
    *len = total;
    return AL_OK;
}
