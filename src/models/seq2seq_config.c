/*
 * models/seq2seq_config.c: the seq2seq architecture's config parser (al_seq2seq_arch): every
 * config value checked, the plain settings written into al_seq2seq, and every tensor listed
 * with its exact shape, in file order (the order al_model_export writes). docs/models.md
 * documents the keys and tensor names; seq2seq.h the maths they configure.
 * Deliberately not here: any maths (seq2seq.c), binding the weights (models/model.c).
 */
#include <stddef.h>
#include <string.h>

#include "seq2seq.h"
#include "../kernels/attention_additive_luong.h"
#include "../toolbox.h"

/* ------------------------------------------------------------------ config */

static const char *const TOP_KEYS[] = {
    "architecture",  "cell",         "nonlinearity", "embeddingSize", "hiddenSize", "numLayers",
    "bidirectional", "attention",    "style",        "inputFeeding",  "score",      "attentionSize",
    "window",        "positionSize", "keySize",      "valueSize",     "scaled",     "maxLength",
    "tokenizer",     "name",         "description",  "training",      NULL
};
static const char *const TOKENIZER_KEYS[] = { "type",         "srcVocab", "tgtVocab", "pad",
                                              "normalize",    "bos",      "eos",      "unk",
                                              "spellingKeep", NULL };
static const char *const ATTENTIONS[] = { "none",    "additive", "dot",       "general", "concat",
                                          "local-m", "local-p",  "key-query", NULL };
static const char *const STYLES[] = { "bahdanau", "luong", NULL };
static const char *const SCORES[] = { "dot", "general", "concat", NULL };
static const char *const TOKENIZERS[] = { "char", "word", NULL };

#define FIELD(f) offsetof(al_seq2seq, f)

static al_status parse_tokenizer(const al_cfg *cfg, al_seq2seq *s, char *err, size_t errlen)
{
    al_cfg tok;
    int type;
    AL_TRY(al_cfg_object(cfg, "tokenizer", "tokenizer.", &tok, err, errlen));
    AL_TRY(al_cfg_check_keys(&tok, TOKENIZER_KEYS, err, errlen));
    AL_TRY(al_cfg_enum(&tok, "type", TOKENIZERS, -1, &type, err, errlen));
    char bos[AL_CFG_MAX_STRING], eos[AL_CFG_MAX_STRING], unk[AL_CFG_MAX_STRING];
    char pad[AL_CFG_MAX_STRING];
    AL_TRY(al_cfg_string(&tok, "bos", bos, sizeof bos, err, errlen));
    AL_TRY(al_cfg_string(&tok, "eos", eos, sizeof eos, err, errlen));
    AL_TRY(al_cfg_string(&tok, "unk", unk, sizeof unk, err, errlen));
    if (al_cfg_has(&tok, "pad")) AL_TRY(al_cfg_string(&tok, "pad", pad, sizeof pad, err, errlen));
    const char *find[3] = { bos, eos, unk };
    int found[3];
    AL_TRY(al_cfg_string_array(&tok, "srcVocab", AL_S2S_MAX_VOCAB, &s->Vs, find, found, 3, err,
                               errlen));
    if (found[2] < 0) {
        return al_errf(err, errlen, AL_ERR_FORMAT,
                       "config \"tokenizer.unk\": \"%s\" is not in tokenizer.srcVocab", unk);
    }
    AL_TRY(al_cfg_string_array(&tok, "tgtVocab", AL_S2S_MAX_VOCAB, &s->Vt, find, found, 3, err,
                               errlen));
    if (found[0] < 0) {
        return al_errf(err, errlen, AL_ERR_FORMAT,
                       "config \"tokenizer.bos\": \"%s\" is not in tokenizer.tgtVocab", bos);
    }
    if (found[1] < 0) {
        return al_errf(err, errlen, AL_ERR_FORMAT,
                       "config \"tokenizer.eos\": \"%s\" is not in tokenizer.tgtVocab", eos);
    }
    s->bos = found[0];
    s->eos = found[1];
    return AL_OK;
}

static al_status seq2seq_parse(const al_cfg *cfg, void *impl, al_tensor_list *l, char *err,
                               size_t errlen)
{
    al_seq2seq *s = impl;
    int bidir;
    memset(s, 0, sizeof *s);
    AL_TRY(al_cfg_check_keys(cfg, TOP_KEYS, err, errlen));
    AL_TRY(al_cfg_cell(cfg, &s->cell, &s->G, err, errlen));
    AL_TRY(al_cfg_int(cfg, "embeddingSize", 1, AL_S2S_MAX_DIM, -1, &s->E, err, errlen));
    AL_TRY(al_cfg_int(cfg, "hiddenSize", 1, AL_S2S_MAX_DIM, -1, &s->H, err, errlen));
    AL_TRY(al_cfg_int(cfg, "numLayers", 1, AL_S2S_MAX_LAYERS, -1, &s->L, err, errlen));
    AL_TRY(al_cfg_bool(cfg, "bidirectional", 0, &bidir, err, errlen));
    s->dirs = bidir ? 2 : 1;
    if (bidir && s->H % 2) {
        return al_errf(err, errlen, AL_ERR_ARGUMENT,
                       "config \"hiddenSize\": %d must be even with \"bidirectional\" "
                       "(each direction has hiddenSize / 2 units)",
                       s->H);
    }
    s->Hs = s->H / s->dirs;
    AL_TRY(al_cfg_enum(cfg, "attention", ATTENTIONS, -1, &s->attention, err, errlen));
    AL_TRY(al_cfg_enum(cfg, "style", STYLES, -1, &s->style, err, errlen));
    AL_TRY(al_cfg_bool(cfg, "inputFeeding", 0, &s->input_feeding, err, errlen));
    if (s->input_feeding && (s->style != AL_S2S_LUONG || s->attention == AL_S2S_NONE)) {
        return al_errf(err, errlen, AL_ERR_ARGUMENT,
                       "config \"inputFeeding\": needs \"style\": \"luong\" and an attention");
    }
    AL_TRY(al_cfg_int(cfg, "maxLength", 1, AL_S2S_MAX_LENGTH, 50, &s->max_length, err, errlen));

    const int a = s->attention;
    s->local = a == AL_S2S_LOCAL_M   ? AL_LUONG_LOCAL_M
               : a == AL_S2S_LOCAL_P ? AL_LUONG_LOCAL_P
                                     : AL_LUONG_GLOBAL;
    if (a == AL_S2S_DOT)
        s->score = AL_LUONG_DOT;
    else if (a == AL_S2S_GENERAL)
        s->score = AL_LUONG_GENERAL;
    else if (a == AL_S2S_CONCAT)
        s->score = AL_LUONG_CONCAT;
    else if (a == AL_S2S_LOCAL_M || a == AL_S2S_LOCAL_P) {
        AL_TRY(al_cfg_enum(cfg, "score", SCORES, AL_LUONG_GENERAL, &s->score, err, errlen));
    }
    if (a == AL_S2S_ADDITIVE || s->score == AL_LUONG_CONCAT) {
        AL_TRY(al_cfg_int(cfg, "attentionSize", 1, AL_S2S_MAX_DIM, -1, &s->da, err, errlen));
    }
    if (s->local != AL_LUONG_GLOBAL) {
        AL_TRY(al_cfg_int(cfg, "window", 1, AL_S2S_MAX_WINDOW, -1, &s->window, err, errlen));
    }
    if (a == AL_S2S_LOCAL_P) {
        AL_TRY(al_cfg_int(cfg, "positionSize", 1, AL_S2S_MAX_DIM, -1, &s->dp, err, errlen));
    }
    if (a == AL_S2S_KEY_QUERY) {
        AL_TRY(al_cfg_int(cfg, "keySize", 1, AL_S2S_MAX_DIM, -1, &s->dk, err, errlen));
        AL_TRY(al_cfg_int(cfg, "valueSize", 1, AL_S2S_MAX_DIM, -1, &s->dv, err, errlen));
        AL_TRY(al_cfg_bool(cfg, "scaled", 1, &s->scaled, err, errlen));
    }
    AL_TRY(parse_tokenizer(cfg, s, err, errlen));

    const int E = s->E, H = s->H, Hs = s->Hs, G = s->G;
    s->dc = a == AL_S2S_NONE ? 0 : a == AL_S2S_KEY_QUERY ? s->dv : H;
    if (s->style == AL_S2S_BAHDANAU) {
        s->din = E + s->dc;
        s->dout = H + s->dc;
    } else {
        s->din = E + (s->input_feeding ? H : 0);
        s->dout = H;
    }

    /* the tensors, in the order they are stored in the model's block */
    AL_TRY(al_tensor_list_add(l, "src_embedding.weight", s->Vs, E, FIELD(src_emb)));
    AL_TRY(al_tensor_list_add(l, "tgt_embedding.weight", s->Vt, E, FIELD(tgt_emb)));
    for (int layer = 0; layer < s->L; layer++) {
        for (int d = 0; d < s->dirs; d++) {
            static const char *const kind[4] = { "weight_ih", "weight_hh", "bias_ih", "bias_hh" };
            const int in = layer == 0 ? E : H;
            for (int k = 0; k < 4; k++) {
                char name[AL_MODEL_MAX_NAME];
                char *p = name;
                const char *parts[3] = { "encoder.", kind[k], "_l" };
                for (int i = 0; i < 3; i++)
                    for (const char *q = parts[i]; *q; q++) *p++ = *q;
                *p++ = (char)('0' + layer);
                if (d)
                    for (const char *q = "_reverse"; *q; q++) *p++ = *q;
                *p = 0;
                const int idx = (layer * s->dirs + d) * 4 + k;
                AL_TRY(al_tensor_list_add(l, name, G * Hs,
                                          k == 0   ? in
                                          : k == 1 ? Hs
                                                   : 0,
                                          FIELD(enc) + sizeof(float *) * (size_t)idx));
            }
        }
    }
    AL_TRY(al_tensor_list_add(l, "decoder.weight_ih", G * H, s->din, FIELD(dec_w_ih)));
    AL_TRY(al_tensor_list_add(l, "decoder.weight_hh", G * H, H, FIELD(dec_w_hh)));
    AL_TRY(al_tensor_list_add(l, "decoder.bias_ih", G * H, 0, FIELD(dec_b_ih)));
    AL_TRY(al_tensor_list_add(l, "decoder.bias_hh", G * H, 0, FIELD(dec_b_hh)));
    switch (a) {
    case AL_S2S_ADDITIVE:
        AL_TRY(al_tensor_list_add(l, "attention.W_q", s->da, H, FIELD(W_q)));
        AL_TRY(al_tensor_list_add(l, "attention.W_k", s->da, H, FIELD(W_k)));
        AL_TRY(al_tensor_list_add(l, "attention.bias", s->da, 0, FIELD(bias)));
        AL_TRY(al_tensor_list_add(l, "attention.v", s->da, 0, FIELD(v)));
        break;
    case AL_S2S_KEY_QUERY:
        AL_TRY(al_tensor_list_add(l, "attention.W_Q", s->dk, H, FIELD(W_Q)));
        AL_TRY(al_tensor_list_add(l, "attention.W_K", s->dk, H, FIELD(W_K)));
        AL_TRY(al_tensor_list_add(l, "attention.W_V", s->dv, H, FIELD(W_V)));
        break;
    case AL_S2S_NONE: break;
    default: /* the Luong family */
        if (s->score == AL_LUONG_GENERAL) {
            AL_TRY(al_tensor_list_add(l, "attention.W_a", H, H, FIELD(W_a)));
        } else if (s->score == AL_LUONG_CONCAT) {
            AL_TRY(al_tensor_list_add(l, "attention.W_a", s->da, 2 * H, FIELD(W_a)));
            AL_TRY(al_tensor_list_add(l, "attention.v_a", s->da, 0, FIELD(v_a)));
        }
        if (a == AL_S2S_LOCAL_P) {
            AL_TRY(al_tensor_list_add(l, "attention.W_p", s->dp, H, FIELD(W_p)));
            AL_TRY(al_tensor_list_add(l, "attention.v_p", s->dp, 0, FIELD(v_p)));
        }
        break;
    }
    if (s->style == AL_S2S_LUONG && a != AL_S2S_NONE) {
        AL_TRY(al_tensor_list_add(l, "attention.W_c", H, s->dc + H, FIELD(W_c)));
    }
    AL_TRY(al_tensor_list_add(l, "out.weight", s->Vt, s->dout, FIELD(out_w)));
    AL_TRY(al_tensor_list_add(l, "out.bias", s->Vt, 0, FIELD(out_b)));
    return AL_OK;
}

const al_model_arch al_seq2seq_arch = { "seq2seq", sizeof(al_seq2seq), seq2seq_parse };
