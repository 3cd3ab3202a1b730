/*
 * models/transformer.c: the transformer of models/transformer.h: config parsing (every value
 * checked, every tensor listed with its PyTorch name and exact shape), the forward pass of the
 * three variants, and greedy decoding built on it. The layers are al_tl_forward
 * (kernels/transformer_layers.h), the final norms al_layernorm_forward, the output layer al_sgemm.
 * Deliberately not here: backward passes (transformer_train.c), batching, a KV cache, beam
 * search, tokenization (wasm/model/tokenizer.js).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "transformer.h"
#include "transformer_train.h"
#include "../kernels/kernels.h"
#include "../toolbox.h"

/* ------------------------------------------------------------------ config */

static const char *const TOP_KEYS[] = {
    "architecture", "variant",        "embeddingSize",       "numHeads",  "feedforwardSize",
    "numLayers",    "positions",      "maxPositions",        "normFirst", "activation",
    "finalNorm",    "scaleEmbedding", "maxLength",           "tokenizer", "name",
    "description",  "training",       "maxRelativePosition", NULL
};
static const char *const TOKENIZER_KEYS[] = { "type",         "srcVocab", "tgtVocab", "pad",
                                              "normalize",    "bos",      "eos",      "unk",
                                              "spellingKeep", NULL };
static const char *const VARIANTS[] = { "encoder", "decoder", "encoder-decoder", NULL };
static const char *const POSITIONS[] = { "learned", "sinusoidal", "relative", NULL };
static const char *const ACTIVATIONS[] = { "relu", "gelu", NULL };
static const char *const TOKENIZERS[] = { "char", "word", NULL };

#define FIELD(f) offsetof(al_transformer, f)

/* bos and eos: optional, but when given they must be in tgtVocab; the variant says which it
 * needs. unk is required and must be in srcVocab. */
static al_status parse_tokenizer(const al_cfg *cfg, al_transformer *m, char *err, size_t errlen)
{
    al_cfg tok;
    int type;
    AL_TRY(al_cfg_object(cfg, "tokenizer", "tokenizer.", &tok, err, errlen));
    AL_TRY(al_cfg_check_keys(&tok, TOKENIZER_KEYS, err, errlen));
    AL_TRY(al_cfg_enum(&tok, "type", TOKENIZERS, -1, &type, err, errlen));
    char bos[AL_CFG_MAX_STRING] = "", eos[AL_CFG_MAX_STRING] = "", unk[AL_CFG_MAX_STRING];
    char pad[AL_CFG_MAX_STRING];
    const int has_bos = al_cfg_has(&tok, "bos"), has_eos = al_cfg_has(&tok, "eos");
    if (has_bos) AL_TRY(al_cfg_string(&tok, "bos", bos, sizeof bos, err, errlen));
    if (has_eos) AL_TRY(al_cfg_string(&tok, "eos", eos, sizeof eos, err, errlen));
    AL_TRY(al_cfg_string(&tok, "unk", unk, sizeof unk, err, errlen));
    if (al_cfg_has(&tok, "pad")) AL_TRY(al_cfg_string(&tok, "pad", pad, sizeof pad, err, errlen));
    if (m->variant != AL_TF_ENCODER && !has_eos) {
        return al_errf(err, errlen, AL_ERR_FORMAT,
                       "config: missing key \"tokenizer.eos\" (a string; variant \"%s\" "
                       "stops generating on it)",
                       VARIANTS[m->variant]);
    }
    if (m->variant == AL_TF_ENCODER_DECODER && !has_bos) {
        return al_errf(err, errlen, AL_ERR_FORMAT,
                       "config: missing key \"tokenizer.bos\" (a string; the decoder "
                       "starts from it)");
    }
    const char *find[3] = { bos, eos, unk };
    int found[3];
    AL_TRY(al_cfg_string_array(&tok, "srcVocab", AL_TF_MAX_VOCAB, &m->Vs, find, found, 3, err,
                               errlen));
    if (found[2] < 0) {
        return al_errf(err, errlen, AL_ERR_FORMAT,
                       "config \"tokenizer.unk\": \"%s\" is not in tokenizer.srcVocab", unk);
    }
    AL_TRY(al_cfg_string_array(&tok, "tgtVocab", AL_TF_MAX_VOCAB, &m->Vt, find, found, 3, err,
                               errlen));
    if (has_bos && found[0] < 0) {
        return al_errf(err, errlen, AL_ERR_FORMAT,
                       "config \"tokenizer.bos\": \"%s\" is not in tokenizer.tgtVocab", bos);
    }
    if (has_eos && found[1] < 0) {
        return al_errf(err, errlen, AL_ERR_FORMAT,
                       "config \"tokenizer.eos\": \"%s\" is not in tokenizer.tgtVocab", eos);
    }
    m->bos = has_bos ? found[0] : -1;
    m->eos = has_eos ? found[1] : -1;
    if (m->variant == AL_TF_DECODER && m->Vs != m->Vt) {
        return al_errf(err, errlen, AL_ERR_ARGUMENT,
                       "config \"tokenizer\": variant \"decoder\" reads and writes one "
                       "vocabulary, but srcVocab has %d entries and tgtVocab %d "
                       "(give the same list twice)",
                       m->Vs, m->Vt);
    }
    return AL_OK;
}

/* The 12 (encoder) or 18 (decoder) tensors of one layer under prefix ("layers.3.",
 * "decoder.layers.0."), bound into w; with rel_rows = 2k+1 > 0 also the relative tables
 * [2k+1, Dh] of its self-attention. */
static al_status add_layer(al_tensor_list *l, const char *prefix, size_t w, int E, int F, int dec,
                           int rel_rows, int Dh)
{
    static const struct {
        const char *name;
        int rows, cols;
        size_t off;
        int dec_only;
    } P[] = {
        /* rows, cols in units: 3 = 3E, 1 = E, -1 = F; cols 0 = a vector */
        { "self_attn.in_proj_weight", 3, 1, offsetof(al_tl_weights, sa_in_w), 0 },
        { "self_attn.in_proj_bias", 3, 0, offsetof(al_tl_weights, sa_in_b), 0 },
        { "self_attn.out_proj.weight", 1, 1, offsetof(al_tl_weights, sa_out_w), 0 },
        { "self_attn.out_proj.bias", 1, 0, offsetof(al_tl_weights, sa_out_b), 0 },
        { "multihead_attn.in_proj_weight", 3, 1, offsetof(al_tl_weights, ca_in_w), 1 },
        { "multihead_attn.in_proj_bias", 3, 0, offsetof(al_tl_weights, ca_in_b), 1 },
        { "multihead_attn.out_proj.weight", 1, 1, offsetof(al_tl_weights, ca_out_w), 1 },
        { "multihead_attn.out_proj.bias", 1, 0, offsetof(al_tl_weights, ca_out_b), 1 },
        { "linear1.weight", -1, 1, offsetof(al_tl_weights, l1_w), 0 },
        { "linear1.bias", -1, 0, offsetof(al_tl_weights, l1_b), 0 },
        { "linear2.weight", 1, -1, offsetof(al_tl_weights, l2_w), 0 },
        { "linear2.bias", 1, 0, offsetof(al_tl_weights, l2_b), 0 },
        { "norm1.weight", 1, 0, offsetof(al_tl_weights, n1_w), 0 },
        { "norm1.bias", 1, 0, offsetof(al_tl_weights, n1_b), 0 },
        { "norm2.weight", 1, 0, offsetof(al_tl_weights, n2_w), 0 },
        { "norm2.bias", 1, 0, offsetof(al_tl_weights, n2_b), 0 },
        { "norm3.weight", 1, 0, offsetof(al_tl_weights, n3_w), 1 },
        { "norm3.bias", 1, 0, offsetof(al_tl_weights, n3_b), 1 },
    };
    for (size_t k = 0; k < sizeof P / sizeof P[0]; k++) {
        if (P[k].dec_only && !dec) continue;
        char name[AL_MODEL_MAX_NAME];
        const size_t a = strlen(prefix), b = strlen(P[k].name);
        if (a + b >= sizeof name) return AL_ERR_OVERFLOW;
        memcpy(name, prefix, a);
        memcpy(name + a, P[k].name, b + 1);
        const int rows = P[k].rows == 3 ? 3 * E : P[k].rows == 1 ? E : F;
        const int cols = P[k].cols == 1 ? E : P[k].cols == -1 ? F : 0;
        AL_TRY(al_tensor_list_add(l, name, rows, cols, w + P[k].off));
    }
    if (rel_rows > 0) {
        static const char *const R[2] = { "self_attn.relative_key.weight",
                                          "self_attn.relative_value.weight" };
        const size_t off[2] = { offsetof(al_tl_weights, sa_rel_k),
                                offsetof(al_tl_weights, sa_rel_v) };
        for (int k = 0; k < 2; k++) {
            char name[AL_MODEL_MAX_NAME];
            const size_t a = strlen(prefix), b = strlen(R[k]);
            if (a + b >= sizeof name) return AL_ERR_OVERFLOW;
            memcpy(name, prefix, a);
            memcpy(name + a, R[k], b + 1);
            AL_TRY(al_tensor_list_add(l, name, rel_rows, Dh, w + off[k]));
        }
    }
    return AL_OK;
}

/* "layers.{i}." after head ("" or "encoder." / "decoder.") into buf [32] */
static const char *layer_prefix(char *buf, const char *head, int i)
{
    char *p = buf;
    for (const char *q = head; *q; q++) *p++ = *q;
    for (const char *q = "layers."; *q; q++) *p++ = *q;
    if (i >= 10) *p++ = (char)('0' + i / 10);
    *p++ = (char)('0' + i % 10);
    *p++ = '.';
    *p = 0;
    return buf;
}

static al_status transformer_parse(const al_cfg *cfg, void *impl, al_tensor_list *l, char *err,
                                   size_t errlen)
{
    al_transformer *m = impl;
    int act;
    memset(m, 0, sizeof *m);
    AL_TRY(al_cfg_check_keys(cfg, TOP_KEYS, err, errlen));
    AL_TRY(al_cfg_enum(cfg, "variant", VARIANTS, -1, &m->variant, err, errlen));
    const int ed = m->variant == AL_TF_ENCODER_DECODER;
    AL_TRY(al_cfg_int(cfg, "embeddingSize", 1, AL_TF_MAX_DIM, -1, &m->E, err, errlen));
    AL_TRY(al_cfg_int(cfg, "numHeads", 1, AL_TF_MAX_HEADS, -1, &m->H, err, errlen));
    if (m->E % m->H) {
        return al_errf(err, errlen, AL_ERR_ARGUMENT,
                       "config \"numHeads\": %d does not divide \"embeddingSize\" %d (each "
                       "head is embeddingSize / numHeads wide)",
                       m->H, m->E);
    }
    AL_TRY(al_cfg_int(cfg, "feedforwardSize", 1, AL_TF_MAX_DIM, -1, &m->F, err, errlen));
    AL_TRY(al_cfg_int(cfg, "numLayers", 1, ed ? AL_TF_MAX_LAYERS_ED : AL_TF_MAX_LAYERS, -1, &m->L,
                      err, errlen));
    AL_TRY(al_cfg_enum(cfg, "positions", POSITIONS, -1, &m->positions, err, errlen));
    AL_TRY(al_cfg_int(cfg, "maxPositions", 1, AL_TF_MAX_POSITIONS,
                      m->positions == AL_TF_LEARNED ? -1 : AL_TF_MAX_POSITIONS, &m->max_positions,
                      err, errlen));
    if (m->positions == AL_TF_RELATIVE) {
        AL_TRY(al_cfg_int(cfg, "maxRelativePosition", 1, AL_TF_MAX_POSITIONS, -1, &m->lc.rel_k, err,
                          errlen));
        if (ed && m->L > AL_TF_MAX_LAYERS_ED_REL) {
            return al_errf(err, errlen, AL_ERR_ARGUMENT,
                           "config \"numLayers\": %d is out of range for an encoder-decoder "
                           "with relative positions (an integer in [1, %d]: the relative "
                           "tables add 4 tensors a layer pair)",
                           m->L, AL_TF_MAX_LAYERS_ED_REL);
        }
    } else if (al_cfg_has(cfg, "maxRelativePosition")) {
        return al_errf(err, errlen, AL_ERR_ARGUMENT,
                       "config \"maxRelativePosition\": only for \"positions\": "
                       "\"relative\" (this config has \"%s\")",
                       POSITIONS[m->positions]);
    }
    AL_TRY(al_cfg_bool(cfg, "normFirst", 0, &m->lc.norm_first, err, errlen));
    AL_TRY(al_cfg_enum(cfg, "activation", ACTIVATIONS, 0, &act, err, errlen));
    m->lc.gelu = act;
    m->lc.eps = 1e-5f;
    AL_TRY(al_cfg_bool(cfg, "finalNorm", 0, &m->final_norm, err, errlen));
    AL_TRY(al_cfg_bool(cfg, "scaleEmbedding", 0, &m->scale_embedding, err, errlen));
    AL_TRY(al_cfg_int(cfg, "maxLength", 1, AL_TF_MAX_LENGTH, 50, &m->max_length, err, errlen));
    AL_TRY(parse_tokenizer(cfg, m, err, errlen));

    const int E = m->E, F = m->F, Dh = E / m->H;
    const int rel_rows = m->positions == AL_TF_RELATIVE ? 2 * m->lc.rel_k + 1 : 0;
    char prefix[32];
    /* the tensors, in the order they are stored in the model's block */
    if (ed) {
        AL_TRY(al_tensor_list_add(l, "src_embedding.weight", m->Vs, E, FIELD(src_emb)));
        AL_TRY(al_tensor_list_add(l, "tgt_embedding.weight", m->Vt, E, FIELD(tgt_emb)));
    } else {
        AL_TRY(al_tensor_list_add(l, "embedding.weight", m->Vs, E, FIELD(src_emb)));
    }
    if (m->positions == AL_TF_LEARNED) {
        AL_TRY(al_tensor_list_add(l, "pos_embedding.weight", m->max_positions, E, FIELD(pos)));
    }
    for (int i = 0; i < m->L; i++) {
        AL_TRY(add_layer(l, layer_prefix(prefix, ed ? "encoder." : "", i),
                         FIELD(enc) + sizeof(al_tl_weights) * (size_t)i, E, F, 0, rel_rows, Dh));
    }
    if (m->final_norm) {
        AL_TRY(al_tensor_list_add(l, ed ? "encoder.norm.weight" : "norm.weight", E, 0,
                                  FIELD(enc_norm_w)));
        AL_TRY(
            al_tensor_list_add(l, ed ? "encoder.norm.bias" : "norm.bias", E, 0, FIELD(enc_norm_b)));
    }
    if (ed) {
        for (int i = 0; i < m->L; i++) {
            AL_TRY(add_layer(l, layer_prefix(prefix, "decoder.", i),
                             FIELD(dec) + sizeof(al_tl_weights) * (size_t)i, E, F, 1, rel_rows,
                             Dh));
        }
        if (m->final_norm) {
            AL_TRY(al_tensor_list_add(l, "decoder.norm.weight", E, 0, FIELD(dec_norm_w)));
            AL_TRY(al_tensor_list_add(l, "decoder.norm.bias", E, 0, FIELD(dec_norm_b)));
        }
    }
    AL_TRY(al_tensor_list_add(l, "out.weight", m->Vt, E, FIELD(out_w)));
    AL_TRY(al_tensor_list_add(l, "out.bias", m->Vt, 0, FIELD(out_b)));
    return AL_OK;
}

const al_model_arch al_transformer_arch = { "transformer", sizeof(al_transformer),
                                            transformer_parse };

/* ------------------------------------------------------------------ forward */

double al_transformer_attention_floats(const al_transformer *m, int S, int T)
{
    const double LH = (double)m->L * m->H;
    if (m->variant != AL_TF_ENCODER_DECODER) return LH * S * S;
    return LH * ((double)S * S + (double)T * T + (double)T * S);
}

void al_transformer_embed(const al_transformer *m, float *x, const float *table, const int32_t *ids,
                          int n)
{
    const int E = m->E;
    const float scale = m->scale_embedding ? (float)sqrt((double)E) : 1.0f;
    for (int t = 0; t < n; t++) {
        const float *e = table + (size_t)ids[t] * E;
        float *row = x + (size_t)t * E;
        for (int j = 0; j < E; j++) row[j] = e[j] * scale;
        if (m->positions == AL_TF_LEARNED) {
            const float *p = m->pos + (size_t)t * E;
            for (int j = 0; j < E; j++) row[j] += p[j];
        } else if (m->positions == AL_TF_SINUSOIDAL) {
            /* P[t, 2i] = sin(t / 10000^(2i/E)), P[t, 2i+1] = cos(...)  (Vaswani et al. §3.5) */
            for (int j = 0; j < E; j++) {
                const double angle = t / pow(10000.0, (double)(j - j % 2) / E);
                row[j] += (float)(j % 2 ? cos(angle) : sin(angle));
            }
        }
    }
}

/* Work space of one forward with source length S and decoder length T (0 without decoder). */
typedef struct {
    float *block;
    float *a, *b;       /* [N,E] ping-pong activations, N = max(S,T) */
    float *mem;         /* [S,E] encoder-decoder: the memory */
    float *spare_self;  /* [H,N,N] attention when the caller wants none */
    float *spare_cross; /* [H,T,S] */
    float *layer;       /* the layer kernel's scratch */
} work;

static al_status work_open(work *w, const al_transformer *m, int S, int T)
{
    const int N = S > T ? S : T, E = m->E, H = m->H;
    const double layer = (double)al_tl_forward_scratch_floats(S, 0, E, m->F, 0) >
                                 (T ? (double)al_tl_forward_scratch_floats(T, S, E, m->F, 1) : 0.0)
                             ? (double)al_tl_forward_scratch_floats(S, 0, E, m->F, 0)
                             : (double)al_tl_forward_scratch_floats(T, S, E, m->F, 1);
    const double floats = 2.0 * N * E + (double)S * E + (double)H * N * N + (double)H * T * S +
                          layer + (double)al_tl_relative_scratch_floats(N, E, H, m->lc.rel_k) + 1;
    if (floats * sizeof(float) >= 2147483648.0) return AL_ERR_OVERFLOW;
    float *p = al_malloc((size_t)floats * sizeof(float));
    if (!p) return AL_ERR_NOMEM;
    w->block = p;
    /* clang-format off */
    w->a = p; p += (size_t)N * E;
    w->b = p; p += (size_t)N * E;
    w->mem = p; p += (size_t)S * E;
    w->spare_self = p; p += (size_t)H * N * N;
    w->spare_cross = p; p += (size_t)H * T * S;
    /* clang-format on */
    w->layer = p;
    return AL_OK;
}

/* L layers over x = w->a [n,E] (mem [S,E] or NULL); returns the buffer holding the result,
 * after the final norm (nw, nb non-NULL). att [L,H,n,n] and cross [L,H,n,S] may be NULL. */
static float *run_stack(const al_transformer *m, work *w, const al_tl_weights *layers, int n,
                        const float *mem, int S, int causal, const float *nw, const float *nb,
                        float *att, float *cross)
{
    const int E = m->E, H = m->H;
    al_tl_config lc = m->lc;
    lc.causal = causal;
    float *in = w->a, *out = w->b;
    for (int i = 0; i < m->L; i++) {
        float *sa = att ? att + (size_t)i * H * n * n : w->spare_self;
        float *ca = mem ? (cross ? cross + (size_t)i * H * n * S : w->spare_cross) : NULL;
        al_tl_forward(out, sa, ca, in, mem, &layers[i], n, mem ? S : 0, E, m->F, H, &lc, NULL, NULL,
                      w->layer);
        /* clang-format off */
        float *t = in; in = out; out = t;
        /* clang-format on */
    }
    if (nw) {
        al_layernorm_forward(out, NULL, NULL, in, nw, nb, n, E, lc.eps);
        return out;
    }
    return in;
}

/* logits [n,Vt] = x [n,E] out.weightᵀ + out.bias */
static void project(const al_transformer *m, float *logits, const float *x, int n)
{
    al_sgemm(0, 1, n, m->Vt, m->E, 1.0f, x, m->E, m->out_w, m->E, 0.0f, logits, m->Vt);
    for (int t = 0; t < n; t++) {
        float *row = logits + (size_t)t * m->Vt;
        for (int v = 0; v < m->Vt; v++) row[v] += m->out_b[v];
    }
}

static int ids_ok(const int32_t *ids, int n, int V)
{
    for (int i = 0; i < n; i++)
        if (ids[i] < 0 || ids[i] >= V) return 0;
    return 1;
}

/* encoder / decoder variants: logits [n,Vt] of seq [n]; att [L,H,n,n] or NULL */
static void single_stack(const al_transformer *m, work *w, const int32_t *seq, int n, float *logits,
                         float *att)
{
    al_transformer_embed(m, w->a, m->src_emb, seq, n);
    const float *y = run_stack(m, w, m->enc, n, NULL, 0, m->variant == AL_TF_DECODER, m->enc_norm_w,
                               m->enc_norm_b, att, NULL);
    project(m, logits, y, n);
}

/* encoder-decoder: w->mem [S,E] = encoder(src) (+ encoder.norm); att [L,H,S,S] or NULL */
static void encode(const al_transformer *m, work *w, const int32_t *src, int S, float *att)
{
    al_transformer_embed(m, w->a, m->src_emb, src, S);
    const float *y =
        run_stack(m, w, m->enc, S, NULL, 0, 0, m->enc_norm_w, m->enc_norm_b, att, NULL);
    memcpy(w->mem, y, sizeof(float) * (size_t)S * m->E);
}

/* encoder-decoder: logits [T,Vt] from tgt [T] over w->mem [S,E] */
static void decode(const al_transformer *m, work *w, int S, const int32_t *tgt, int T,
                   float *logits, float *att, float *cross)
{
    al_transformer_embed(m, w->a, m->tgt_emb, tgt, T);
    const float *y =
        run_stack(m, w, m->dec, T, w->mem, S, 1, m->dec_norm_w, m->dec_norm_b, att, cross);
    project(m, logits, y, T);
}

al_status al_transformer_forward(const al_transformer *m, const int32_t *src, int S,
                                 const int32_t *tgt, int T, float *logits, float *att)
{
    const int ed = m->variant == AL_TF_ENCODER_DECODER;
    if (S > m->max_positions || T > m->max_positions) return AL_ERR_SHAPE;
    if (!ids_ok(src, S, m->Vs) || (ed && !ids_ok(tgt, T, m->Vt))) return AL_ERR_RANGE;
    work w;
    al_status st = work_open(&w, m, S, ed ? T : 0);
    if (st != AL_OK) return st;
    if (ed) {
        const size_t LH = (size_t)m->L * m->H;
        encode(m, &w, src, S, att);
        decode(m, &w, S, tgt, T, logits, att ? att + LH * S * S : NULL,
               att ? att + LH * S * S + LH * T * T : NULL);
    } else {
        single_stack(m, &w, src, S, logits, att);
    }
    al_free(w.block);
    return AL_OK;
}

/* log_softmax(row [V])[id], summed in double */
static float log_prob(const float *row, int V, int id)
{
    float mx = row[0];
    for (int i = 1; i < V; i++) mx = row[i] > mx ? row[i] : mx;
    double sum = 0.0;
    for (int i = 0; i < V; i++) sum += exp((double)row[i] - mx);
    return (float)((double)row[id] - mx - log(sum));
}

static int argmax(const float *x, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (x[i] > x[best]) best = i;
    return best;
}

al_status al_transformer_generate(const al_transformer *m, const int32_t *src, int S, int max_len,
                                  int32_t *ids, float *logp, int *len)
{
    const int ed = m->variant == AL_TF_ENCODER_DECODER;
    *len = 0;
    if (m->variant == AL_TF_ENCODER || m->eos < 0 || (ed && m->bos < 0)) return AL_ERR_ARGUMENT;
    if (!ids_ok(src, S, m->Vs)) return AL_ERR_RANGE;
    if (S > m->max_positions) return AL_ERR_SHAPE;
    /* the fed sequence: decoder prompt + emitted, encoder-decoder bos + emitted; it never
     * outgrows max_positions (the last emitted token is not fed) */
    const int room = ed ? m->max_positions : m->max_positions - S + 1;
    if (max_len > room) max_len = room;
    const int N = ed ? max_len : S + max_len - 1; /* longest fed sequence */
    work w;
    al_status st = work_open(&w, m, ed ? S : N, ed ? N : 0);
    if (st != AL_OK) return st;
    const double extra = (double)N + (double)N * m->Vt;
    if (extra * sizeof(float) >= 2147483648.0) {
        al_free(w.block);
        return AL_ERR_OVERFLOW;
    }
    int32_t *seq = al_malloc(sizeof(int32_t) * (size_t)N + sizeof(float) * (size_t)N * m->Vt);
    if (!seq) {
        al_free(w.block);
        return AL_ERR_NOMEM;
    }
    float *logits = (float *)(seq + N); /* [N,Vt] */
    int n;
    if (ed) {
        encode(m, &w, src, S, NULL);
        seq[0] = m->bos;
        n = 1;
    } else {
        memcpy(seq, src, sizeof(int32_t) * (size_t)S);
        n = S;
    }
    for (int g = 0; g < max_len; g++) {
        if (ed)
            decode(m, &w, S, seq, n, logits, NULL, NULL);
        else
            single_stack(m, &w, seq, n, logits, NULL);
        const float *last = logits + (size_t)(n - 1) * m->Vt;
        const int id = argmax(last, m->Vt);
        ids[g] = id;
        logp[g] = log_prob(last, m->Vt, id);
        *len = g + 1;
        if (id == m->eos || g + 1 == max_len) break;
        seq[n++] = id;
    }
    al_free(seq);
    al_free(w.block);
    return AL_OK;
}
