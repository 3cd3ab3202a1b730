/*
 * models/model_config.c: strict key lookups in a model config (see model_config.h). Messages are
 * written with al_errf (toolbox.h).
 */
#include <string.h>

#include "model_config.h"
#include "../toolbox.h"
#include "../io/json.h"
#include "../kernels/recurrent.h"

/* ------------------------------------------------------------------ walking the object */

int al_cfg_open(al_cfg *cfg, const char *text, size_t n, char *err, size_t errlen)
{
    struct json_error e;
    if (!text || json_validate(text, n, &e) != 0) {
        al_errf(err, errlen, AL_ERR_FORMAT, "config is not valid JSON (%s at byte %d)",
                text ? e.what : "no text",
                text ? (int)(e.pos > 2147483647u ? 2147483647 : e.pos) : 0);
        return -1;
    }
    struct json_cursor c = { text, n, 0 };
    json_ws(&c);
    if (json_peek(&c) != '{') {
        al_errf(err, errlen, AL_ERR_FORMAT, "config must be a JSON object, not %s", json_kind(&c));
        return -1;
    }
    cfg->s = text;
    cfg->n = n;
    cfg->start = c.i;
    cfg->prefix = "";
    return 0;
}

/* Decode the key at the cursor into key [AL_CFG_MAX_KEY] (empty and *too_long when it does not
 * fit); leaves the cursor after the ':'. */
static void read_key(struct json_cursor *c, char *key, int *too_long)
{
    const char *raw;
    size_t raw_len, dec, save = c->i;
    int nul;
    json_string(c, NULL, &raw, &raw_len, &dec, &nul);
    *too_long = raw_len >= AL_CFG_MAX_KEY || nul;
    key[0] = 0;
    if (!*too_long) {
        c->i = save;
        json_string(c, key, &raw, &raw_len, &dec, &nul);
        key[dec] = 0;
    }
    json_eat(c, ':');
    json_ws(c);
}

/* Position *at on the value of key; 0 when found, -1 when absent. The document is validated, so
 * the walk cannot fail. */
static int find(const al_cfg *cfg, const char *key, struct json_cursor *at)
{
    struct json_cursor c = { cfg->s, cfg->n, cfg->start };
    json_eat(&c, '{');
    json_ws(&c);
    if (json_peek(&c) == '}') return -1;
    for (;;) {
        char k[AL_CFG_MAX_KEY];
        int too_long;
        json_ws(&c);
        read_key(&c, k, &too_long);
        if (!too_long && strcmp(k, key) == 0) {
            *at = c;
            return 0;
        }
        if (json_skip(&c)) return -1;
        json_ws(&c);
        if (json_eat(&c, ',')) return -1;
    }
}

int al_cfg_has(const al_cfg *cfg, const char *key)
{
    struct json_cursor c;
    return find(cfg, key, &c) == 0;
}

al_status al_cfg_check_keys(const al_cfg *cfg, const char *const *known, char *err, size_t errlen)
{
    struct json_cursor c = { cfg->s, cfg->n, cfg->start };
    json_eat(&c, '{');
    json_ws(&c);
    if (json_peek(&c) == '}') return AL_OK;
    for (;;) {
        char k[AL_CFG_MAX_KEY];
        int too_long, ok = 0;
        json_ws(&c);
        size_t key_at = c.i;
        read_key(&c, k, &too_long);
        for (int i = 0; !too_long && known[i]; i++) ok |= strcmp(k, known[i]) == 0;
        if (!ok) {
            return al_errf(err, errlen, AL_ERR_FORMAT,
                           "config: unknown key \"%s%s\" (a typo? docs/models.md lists the keys)",
                           cfg->prefix, too_long ? "(a very long key)" : k);
        }
        /* a repeated key: count it among the keys before this one */
        struct json_cursor d = { cfg->s, cfg->n, cfg->start };
        json_eat(&d, '{');
        for (;;) {
            json_ws(&d);
            if (d.i >= key_at) break;
            char k2[AL_CFG_MAX_KEY];
            int tl2;
            read_key(&d, k2, &tl2);
            if (!tl2 && strcmp(k2, k) == 0) {
                return al_errf(err, errlen, AL_ERR_FORMAT, "config: key \"%s%s\" appears twice",
                               cfg->prefix, k);
            }
            json_skip(&d);
            json_ws(&d);
            json_eat(&d, ',');
        }
        if (json_skip(&c)) return AL_OK;
        json_ws(&c);
        if (json_eat(&c, ',')) return AL_OK;
    }
}

static al_status missing(const al_cfg *cfg, const char *key, const char *what, char *err,
                         size_t errlen)
{
    return al_errf(err, errlen, AL_ERR_FORMAT, "config: missing key \"%s%s\" (%s)", cfg->prefix,
                   key, what);
}

static al_status wrong_kind(const al_cfg *cfg, const char *key, const char *want,
                            const struct json_cursor *c, char *err, size_t errlen)
{
    return al_errf(err, errlen, AL_ERR_FORMAT, "config \"%s%s\" must be %s, not %s", cfg->prefix,
                   key, want, json_kind(c));
}

al_status al_cfg_int(const al_cfg *cfg, const char *key, int lo, int hi, int dflt, int *out,
                     char *err, size_t errlen)
{
    struct json_cursor c;
    if (find(cfg, key, &c)) {
        if (dflt < 0) return missing(cfg, key, "an integer", err, errlen);
        *out = dflt;
        return AL_OK;
    }
    const char *raw;
    size_t raw_len;
    uint64_t v;
    if (json_peek(&c) == '"' || json_peek(&c) == '{' || json_peek(&c) == '[' ||
        json_number(&c, &raw, &raw_len)) {
        return wrong_kind(cfg, key, "an integer", &c, err, errlen);
    }
    char shown[32];
    size_t k = raw_len < sizeof shown - 1 ? raw_len : sizeof shown - 1;
    memcpy(shown, raw, k);
    shown[k] = 0;
    if (json_u53(raw, raw_len, &v) || v < (uint64_t)lo || v > (uint64_t)hi) {
        return al_errf(err, errlen, AL_ERR_ARGUMENT,
                       "config \"%s%s\": %s is out of range (an integer in [%d, %d])", cfg->prefix,
                       key, shown, lo, hi);
    }
    *out = (int)v;
    return AL_OK;
}

al_status al_cfg_bool(const al_cfg *cfg, const char *key, int dflt, int *out, char *err,
                      size_t errlen)
{
    struct json_cursor c;
    if (find(cfg, key, &c)) {
        if (dflt < 0) return missing(cfg, key, "true or false", err, errlen);
        *out = dflt;
        return AL_OK;
    }
    if (c.i + 4 <= c.n && memcmp(c.s + c.i, "true", 4) == 0)
        *out = 1;
    else if (c.i + 5 <= c.n && memcmp(c.s + c.i, "false", 5) == 0)
        *out = 0;
    else
        return wrong_kind(cfg, key, "true or false", &c, err, errlen);
    return AL_OK;
}

/* Decode the string at c into out [cap] (NUL-terminated); -1 when it is not a short string. */
static int read_short_string(struct json_cursor *c, char *out, size_t cap)
{
    const char *raw;
    size_t raw_len, dec, save = c->i;
    int nul;
    if (json_peek(c) != '"' || json_string(c, NULL, &raw, &raw_len, &dec, &nul)) return -1;
    if (raw_len >= cap || nul) return -1;
    c->i = save;
    json_string(c, out, &raw, &raw_len, &dec, &nul);
    out[dec] = 0;
    return 0;
}

al_status al_cfg_string(const al_cfg *cfg, const char *key, char *out, size_t cap, char *err,
                        size_t errlen)
{
    struct json_cursor c;
    if (find(cfg, key, &c)) return missing(cfg, key, "a string", err, errlen);
    if (json_peek(&c) != '"') return wrong_kind(cfg, key, "a string", &c, err, errlen);
    if (read_short_string(&c, out, cap < AL_CFG_MAX_STRING ? cap : AL_CFG_MAX_STRING)) {
        return al_errf(err, errlen, AL_ERR_FORMAT,
                       "config \"%s%s\": the string is too long or holds a NUL", cfg->prefix, key);
    }
    return AL_OK;
}

al_status al_cfg_enum(const al_cfg *cfg, const char *key, const char *const *choices, int dflt,
                      int *out, char *err, size_t errlen)
{
    if (!al_cfg_has(cfg, key) && dflt >= 0) {
        *out = dflt;
        return AL_OK;
    }
    char v[AL_CFG_MAX_KEY];
    struct json_cursor c;
    if (find(cfg, key, &c)) return missing(cfg, key, "a string", err, errlen);
    if (json_peek(&c) != '"') return wrong_kind(cfg, key, "a string", &c, err, errlen);
    if (read_short_string(&c, v, sizeof v)) v[0] = 0;
    for (int i = 0; choices[i]; i++) {
        if (v[0] && strcmp(v, choices[i]) == 0) {
            *out = i;
            return AL_OK;
        }
    }
    char list[192];
    al_msg m = { list, sizeof list, 0 };
    list[0] = 0;
    for (int i = 0; choices[i]; i++) {
        if (i) al_msg_str(&m, ", ");
        al_msg_str(&m, choices[i]);
    }
    return al_errf(err, errlen, AL_ERR_ARGUMENT,
                   "config \"%s%s\": unknown value \"%s\" (known: %s)", cfg->prefix, key,
                   v[0] ? v : "(too long)", list);
}

al_status al_cfg_object(const al_cfg *cfg, const char *key, const char *prefix, al_cfg *out,
                        char *err, size_t errlen)
{
    struct json_cursor c;
    if (find(cfg, key, &c)) return missing(cfg, key, "an object", err, errlen);
    if (json_peek(&c) != '{') return wrong_kind(cfg, key, "an object", &c, err, errlen);
    out->s = cfg->s;
    out->n = cfg->n;
    out->start = c.i;
    out->prefix = prefix;
    return AL_OK;
}

al_status al_cfg_string_array(const al_cfg *cfg, const char *key, int max_len, int *len,
                              const char *const *find_list, int *found, int nfind, char *err,
                              size_t errlen)
{
    struct json_cursor c;
    if (find(cfg, key, &c)) return missing(cfg, key, "an array of strings", err, errlen);
    if (json_peek(&c) != '[') return wrong_kind(cfg, key, "an array of strings", &c, err, errlen);
    for (int f = 0; f < nfind; f++) found[f] = -1;
    json_eat(&c, '[');
    json_ws(&c);
    int count = 0;
    if (json_peek(&c) != ']') {
        for (;;) {
            char s[AL_CFG_MAX_STRING];
            json_ws(&c);
            if (json_peek(&c) != '"') {
                return al_errf(err, errlen, AL_ERR_FORMAT,
                               "config \"%s%s\": entry %d must be a string, not %s", cfg->prefix,
                               key, count, json_kind(&c));
            }
            if (read_short_string(&c, s, sizeof s)) {
                return al_errf(err, errlen, AL_ERR_FORMAT,
                               "config \"%s%s\": entry %d is longer than %d bytes or holds a NUL",
                               cfg->prefix, key, count, AL_CFG_MAX_STRING - 1);
            }
            if (count >= max_len) {
                return al_errf(err, errlen, AL_ERR_ARGUMENT,
                               "config \"%s%s\": more than %d entries", cfg->prefix, key, max_len);
            }
            for (int f = 0; f < nfind; f++) {
                if (found[f] < 0 && find_list[f] && strcmp(s, find_list[f]) == 0) found[f] = count;
            }
            count++;
            json_ws(&c);
            if (json_eat(&c, ',')) break;
        }
    }
    if (count == 0) {
        return al_errf(err, errlen, AL_ERR_ARGUMENT, "config \"%s%s\": the array is empty",
                       cfg->prefix, key);
    }
    *len = count;
    return AL_OK;
}

/* ------------------------------------------------------------------ keys shared by architectures */

static const char *const CELLS[] = { "rnn", "lstm", "gru", NULL };
static const char *const NONLIN[] = { "tanh", "relu", NULL };

al_status al_cfg_cell(const al_cfg *cfg, int *cell, int *gates, char *err, size_t errlen)
{
    int c, nonlin;
    al_status st = al_cfg_enum(cfg, "cell", CELLS, -1, &c, err, errlen);
    if (st == AL_OK) st = al_cfg_enum(cfg, "nonlinearity", NONLIN, 0, &nonlin, err, errlen);
    if (st != AL_OK) return st;
    if (nonlin == 1 && c != 0) {
        return al_errf(err, errlen, AL_ERR_ARGUMENT,
                       "config \"nonlinearity\": \"relu\" is for cell \"rnn\" only");
    }
    *cell = c == 1   ? AL_RECURRENT_LSTM
            : c == 2 ? AL_RECURRENT_GRU
            : nonlin ? AL_RECURRENT_RNN_RELU
                     : AL_RECURRENT_RNN_TANH;
    *gates = al_recurrent_gates(*cell);
    return AL_OK;
}
