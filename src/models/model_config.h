/*
 * models/model_config.h: reading a model's config (the JSON string stored under "config" in the
 * safetensors __metadata__) by key, strictly, without allocating.
 *
 *     al_cfg cfg;
 *     if (al_cfg_open(&cfg, text, strlen(text), err, errlen)) return AL_ERR_FORMAT;
 *     int H;
 *     al_status s = al_cfg_int(&cfg, "hiddenSize", 1, 4096, -1, &H, err, errlen); // -1: required
 *
 * A config is one JSON object. json_validate (io/json.h) checks the whole text once; lookups then
 * walk the top-level object (or a nested one, opened with al_cfg_object) with the cursor functions.
 * Every error message names the key, e.g.
 *   config "hiddenSize": 0 is out of range [1, 4096]
 * Deliberately not here: floating-point values (model configs hold integers, booleans, strings
 * and arrays of strings), a DOM, or knowledge of any architecture (models/seq2seq_config.c knows
 * which keys it needs) beyond keys several architectures read the same way (al_cfg_cell).
 */
#ifndef AL_MODELS_MODEL_CONFIG_H
#define AL_MODELS_MODEL_CONFIG_H

#include <stddef.h>

#include "../base.h"

#define AL_CFG_MAX_KEY 64     /* bytes in a config key (longer keys are unknown keys) */
#define AL_CFG_MAX_STRING 256 /* bytes in a string value (vocabulary entries included) */

/* One JSON object: the text from its '{' to the end of the document. prefix names it in messages
 * ("" for the top level, "tokenizer." for a nested object). */
typedef struct {
    const char *s; /* [n] the validated document */
    size_t n;
    size_t start;       /* offset of the object's '{' */
    const char *prefix; /* e.g. "tokenizer." */
} al_cfg;

/* Validate text [n] as JSON whose top level is an object; 0, or -1 with a message in err. */
int al_cfg_open(al_cfg *cfg, const char *text, size_t n, char *err, size_t errlen);

/* Nonzero when key is present. */
int al_cfg_has(const al_cfg *cfg, const char *key);

/*
 * Every key of the object must be in known (a NULL-terminated list) and appear once: otherwise
 * AL_ERR_FORMAT naming the unknown or repeated key.
 */
al_status al_cfg_check_keys(const al_cfg *cfg, const char *const *known, char *err, size_t errlen);

/* An integer in [lo, hi]. When absent: *out = dflt if dflt >= 0, else AL_ERR_FORMAT "missing". */
al_status al_cfg_int(const al_cfg *cfg, const char *key, int lo, int hi, int dflt, int *out,
                     char *err, size_t errlen);
/* true/false. When absent: dflt if dflt >= 0, else an error. */
al_status al_cfg_bool(const al_cfg *cfg, const char *key, int dflt, int *out, char *err,
                      size_t errlen);
/* A string that must be one of choices (NULL-terminated); *out = its index. When absent: dflt if
 * dflt >= 0, else an error. An unknown value is AL_ERR_ARGUMENT naming the key, the value and the
 * choices. */
al_status al_cfg_enum(const al_cfg *cfg, const char *key, const char *const *choices, int dflt,
                      int *out, char *err, size_t errlen);
/* A string of at most AL_CFG_MAX_STRING − 1 bytes without NUL, decoded into out [cap]. */
al_status al_cfg_string(const al_cfg *cfg, const char *key, char *out, size_t cap, char *err,
                        size_t errlen);
/* A nested object. */
al_status al_cfg_object(const al_cfg *cfg, const char *key, const char *prefix, al_cfg *out,
                        char *err, size_t errlen);
/*
 * An array of strings (each at most AL_CFG_MAX_STRING − 1 bytes, no NUL), 1 to max_len entries:
 * *len = its length; for each entry of find [nfind] (may be 0) *found[i] = the first index whose
 * string equals it, or -1.
 */
al_status al_cfg_string_array(const al_cfg *cfg, const char *key, int max_len, int *len,
                              const char *const *find, int *found, int nfind, char *err,
                              size_t errlen);

/*
 * The recurrent cell of seq2seq and classifier configs: "cell" ("rnn", "lstm" or "gru",
 * required) and "nonlinearity" ("tanh", the default, or "relu", for "rnn" only). *cell = its
 * AL_RECURRENT_* kind (kernels/recurrent.h), *gates = al_recurrent_gates of it (1, 4, 3).
 */
al_status al_cfg_cell(const al_cfg *cfg, int *cell, int *gates, char *err, size_t errlen);

#endif /* AL_MODELS_MODEL_CONFIG_H */
