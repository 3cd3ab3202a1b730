/*
 * models/classifier.c: the recurrent text classifier: config parsing (every value checked, every
 * tensor listed with its exact shape) and the forward pass of one document. The maths is in
 * classifier.h; the kernels do the work:
 *   encoders   al_recurrent_stack_forward (kernels/recurrent.h)
 *   pooling    al_attention_pooling / al_context_pooling / al_structured_self_attention
 *              _seq_forward (kernels/attention_pooling.h)
 *   output     al_sgemv, then a softmax summed in double
 * Deliberately not here: backward passes and initialisation (classifier_train.c, whose hooks the
 * architecture lists), batching, tokenization (wasm/model.js).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "classifier.h"
#include "classifier_train.h"
#include "../io/json.h"
#include "../kernels/attention_pooling.h"
#include "../kernels/kernels.h"
#include "../kernels/recurrent.h"
#include "../toolbox.h"

/* ------------------------------------------------------------------ config */

static const char *const TOP_KEYS[] = { "architecture",
                                        "cell",
                                        "nonlinearity",
                                        "embeddingSize",
                                        "hiddenSize",
                                        "numLayers",
                                        "bidirectional",
                                        "pooling",
                                        "attentionSize",
                                        "hops",
                                        "sentenceHiddenSize",
                                        "sentenceAttentionSize",
                                        "sentenceSeparator",
                                        "penaltyCoefficient",
                                        "temperature",
                                        "labels",
                                        "tokenizer",
                                        "name",
                                        "description",
                                        "training",
                                        NULL };
static const char *const TOKENIZER_KEYS[] = { "type",      "vocab",        "unk", "pad",
                                              "normalize", "spellingKeep", NULL };
static const char *const POOLINGS[] = { "attention", "han", "structured", NULL };
static const char *const TOKENIZERS[] = { "word", NULL };

#define FIELD(f) offsetof(al_classifier, f)

/* tokenizer {type, vocab, unk, pad?} and, for han, sentenceSeparator (a vocab entry) */
static al_status parse_tokenizer(const al_cfg *cfg, al_classifier *c, char *err, size_t errlen)
{
    al_cfg tok;
    int type;
    AL_TRY(al_cfg_object(cfg, "tokenizer", "tokenizer.", &tok, err, errlen));
    AL_TRY(al_cfg_check_keys(&tok, TOKENIZER_KEYS, err, errlen));
    AL_TRY(al_cfg_enum(&tok, "type", TOKENIZERS, -1, &type, err, errlen));
    char unk[AL_CFG_MAX_STRING], pad[AL_CFG_MAX_STRING], sep[AL_CFG_MAX_STRING];
    const int has_pad = al_cfg_has(&tok, "pad");
    AL_TRY(al_cfg_string(&tok, "unk", unk, sizeof unk, err, errlen));
    if (has_pad) AL_TRY(al_cfg_string(&tok, "pad", pad, sizeof pad, err, errlen));
    if (c->pooling == AL_CLF_HAN) {
        AL_TRY(al_cfg_string(cfg, "sentenceSeparator", sep, sizeof sep, err, errlen));
    }
    const char *find[3] = { unk, has_pad ? pad : unk, c->pooling == AL_CLF_HAN ? sep : unk };
    int found[3];
    AL_TRY(
        al_cfg_string_array(&tok, "vocab", AL_CLF_MAX_VOCAB, &c->V, find, found, 3, err, errlen));
    if (found[0] < 0) {
        return al_errf(err, errlen, AL_ERR_FORMAT,
                       "config \"tokenizer.unk\": \"%s\" is not in tokenizer.vocab", unk);
    }
    if (found[1] < 0) {
        return al_errf(err, errlen, AL_ERR_FORMAT,
                       "config \"tokenizer.pad\": \"%s\" is not in tokenizer.vocab", pad);
    }
    if (found[2] < 0) {
        return al_errf(err, errlen, AL_ERR_FORMAT,
                       "config \"sentenceSeparator\": \"%s\" is not in tokenizer.vocab", sep);
    }
    c->sep = c->pooling == AL_CLF_HAN ? found[2] : -1;
    return AL_OK;
}

/*
 * A number in [lo, hi] (lo itself allowed when lo_open is 0; model_config.h reads integers only:
 * penaltyCoefficient and temperature are the real-valued keys): JSON's
 * -?digits[.digits][(e|E)[+-]digits], converted in double as digits · 10^exp (within an ulp or
 * two of strtod's rounding, the same on every host). Absent: dflt. range names the interval in
 * the message.
 */
static al_status cfg_number(const al_cfg *cfg, const char *key, double lo, int lo_open, double hi,
                            float dflt, const char *range, float *out, char *err, size_t errlen)
{
    struct json_cursor c = { cfg->s, cfg->n, cfg->start };
    *out = dflt;
    json_eat(&c, '{');
    for (;;) {
        char k[AL_CFG_MAX_KEY];
        const char *raw;
        size_t rl, dec;
        int nul;
        json_ws(&c);
        if (json_peek(&c) != '"') return AL_OK; /* the closing '}': absent */
        json_string(&c, NULL, &raw, &rl, &dec, &nul);
        k[0] = 0;
        if (rl < sizeof k && !nul) {
            c.i -= rl + 2;
            json_string(&c, k, &raw, &rl, &dec, &nul);
            k[dec] = 0;
        }
        json_eat(&c, ':');
        json_ws(&c);
        if (strcmp(k, key) == 0) break;
        json_skip(&c);
        json_eat(&c, ',');
    }
    const char *raw;
    size_t n;
    if (json_number(&c, &raw, &n)) {
        return al_errf(err, errlen, AL_ERR_FORMAT, "config \"%s\": must be a number, not %s", key,
                       json_kind(&c));
    }
    double m = 0.0;
    long e = 0, ex = 0;
    int neg = 0, eneg = 0;
    size_t i = 0;
    if (raw[i] == '-') {
        neg = 1;
        i++;
    }
    for (; i < n && raw[i] >= '0' && raw[i] <= '9'; i++) m = m * 10.0 + (raw[i] - '0');
    if (i < n && raw[i] == '.')
        for (i++; i < n && raw[i] >= '0' && raw[i] <= '9'; i++, e--) m = m * 10.0 + (raw[i] - '0');
    if (i < n && (raw[i] == 'e' || raw[i] == 'E')) {
        i++;
        if (i < n && (raw[i] == '-' || raw[i] == '+')) eneg = raw[i++] == '-';
        for (; i < n && raw[i] >= '0' && raw[i] <= '9'; i++)
            ex = ex < 100000 ? ex * 10 + (raw[i] - '0') : ex;
    }
    e += eneg ? -ex : ex;
    const double v = (neg ? -m : m) * pow(10.0, (double)e);
    /* lo_open: the float must be above lo too (1e-50 is above 0, its float is not) */
    if (!((lo_open ? v > lo && (float)v > (float)lo : v >= lo) && v <= hi)) {
        char text[40];
        const size_t k = n < sizeof text - 1 ? n : sizeof text - 1;
        memcpy(text, raw, k);
        text[k] = 0;
        return al_errf(err, errlen, AL_ERR_ARGUMENT, "config \"%s\": %s is out of range %s", key,
                       text, range);
    }
    *out = (float)v;
    return AL_OK;
}

/* List prefix + {weight_ih, weight_hh, bias_ih, bias_hh}_l{k}[_reverse] of one stack. */
static al_status list_rnn(al_tensor_list *l, const al_classifier *c, const char *prefix,
                          size_t field)
{
    const al_clf_rnn *r = (const al_clf_rnn *)((const char *)c + field);
    static const char *const kind[4] = { "weight_ih", "weight_hh", "bias_ih", "bias_hh" };
    for (int layer = 0; layer < c->L; layer++) {
        for (int d = 0; d < c->dirs; d++) {
            const int in = layer == 0 ? r->I : r->H;
            for (int k = 0; k < 4; k++) {
                char name[AL_MODEL_MAX_NAME];
                char *p = name;
                const char *parts[3] = { prefix, kind[k], "_l" };
                for (int i = 0; i < 3; i++)
                    for (const char *q = parts[i]; *q; q++) *p++ = *q;
                *p++ = (char)('0' + layer);
                if (d)
                    for (const char *q = "_reverse"; *q; q++) *p++ = *q;
                *p = 0;
                const int idx = (layer * c->dirs + d) * 4 + k;
                AL_TRY(al_tensor_list_add(l, name, c->G * r->Hs,
                                          k == 0   ? in
                                          : k == 1 ? r->Hs
                                                   : 0,
                                          field + offsetof(al_clf_rnn, p) +
                                              sizeof(float *) * (size_t)idx));
            }
        }
    }
    return AL_OK;
}

/* A hidden size: in range, even when bidirectional. */
static al_status hidden(const al_cfg *cfg, const char *key, int dflt, int dirs, int *out, char *err,
                        size_t errlen)
{
    AL_TRY(al_cfg_int(cfg, key, 1, AL_CLF_MAX_DIM, dflt, out, err, errlen));
    if (dirs == 2 && *out % 2) {
        return al_errf(err, errlen, AL_ERR_ARGUMENT,
                       "config \"%s\": %d must be even with \"bidirectional\" "
                       "(each direction has %s / 2 units)",
                       key, *out, key);
    }
    return AL_OK;
}

static al_status classifier_parse(const al_cfg *cfg, void *impl, al_tensor_list *l, char *err,
                                  size_t errlen)
{
    al_classifier *c = impl;
    int bidir, H;
    memset(c, 0, sizeof *c);
    AL_TRY(al_cfg_check_keys(cfg, TOP_KEYS, err, errlen));
    AL_TRY(al_cfg_cell(cfg, &c->cell, &c->G, err, errlen));
    AL_TRY(al_cfg_int(cfg, "embeddingSize", 1, AL_CLF_MAX_DIM, -1, &c->E, err, errlen));
    AL_TRY(al_cfg_int(cfg, "numLayers", 1, AL_CLF_MAX_LAYERS, -1, &c->L, err, errlen));
    AL_TRY(al_cfg_bool(cfg, "bidirectional", 0, &bidir, err, errlen));
    c->dirs = bidir ? 2 : 1;
    AL_TRY(hidden(cfg, "hiddenSize", -1, c->dirs, &H, err, errlen));
    AL_TRY(al_cfg_enum(cfg, "pooling", POOLINGS, -1, &c->pooling, err, errlen));
    c->enc.I = c->E;
    c->enc.H = H;
    c->enc.Hs = H / c->dirs;
    if (c->pooling != AL_CLF_ATTENTION) {
        AL_TRY(al_cfg_int(cfg, "attentionSize", 1, AL_CLF_MAX_DIM, -1, &c->da, err, errlen));
    }
    if (c->pooling == AL_CLF_STRUCTURED) {
        AL_TRY(al_cfg_int(cfg, "hops", 1, AL_CLF_MAX_HOPS, -1, &c->r, err, errlen));
    }
    /* range-checked for every pooling (a typo fails anywhere), used by structured's training */
    AL_TRY(cfg_number(cfg, "penaltyCoefficient", 0.0, 0, AL_CLF_MAX_PENALTY, 0.0f, "[0, 10000]",
                      &c->pc, err, errlen));
    /* calibration: classify's probs = softmax(logits / temperature); training ignores it */
    AL_TRY(cfg_number(cfg, "temperature", 0.0, 1, AL_CLF_MAX_TEMPERATURE, 1.0f,
                      "(a number > 0 and <= 1000; 1 leaves the probabilities as they are)",
                      &c->temp, err, errlen));
    if (c->pooling != AL_CLF_STRUCTURED) c->pc = 0.0f;
    if (c->pooling == AL_CLF_HAN) {
        int Hsent;
        AL_TRY(hidden(cfg, "sentenceHiddenSize", H, c->dirs, &Hsent, err, errlen));
        AL_TRY(al_cfg_int(cfg, "sentenceAttentionSize", 1, AL_CLF_MAX_DIM, c->da, &c->das, err,
                          errlen));
        c->senc.I = H;
        c->senc.H = Hsent;
        c->senc.Hs = Hsent / c->dirs;
    }
    AL_TRY(
        al_cfg_string_array(cfg, "labels", AL_CLF_MAX_LABELS, &c->C, NULL, NULL, 0, err, errlen));
    AL_TRY(parse_tokenizer(cfg, c, err, errlen));
    c->K = c->pooling == AL_CLF_ATTENTION    ? H
           : c->pooling == AL_CLF_STRUCTURED ? c->r * H
                                             : c->senc.H;

    /* the tensors, in the order they are stored in the model's block */
    AL_TRY(al_tensor_list_add(l, "embedding.weight", c->V, c->E, FIELD(emb)));
    switch (c->pooling) {
    case AL_CLF_ATTENTION:
        AL_TRY(list_rnn(l, c, "encoder.", FIELD(enc)));
        AL_TRY(al_tensor_list_add(l, "pooling.w", H, 0, FIELD(w)));
        break;
    case AL_CLF_STRUCTURED:
        AL_TRY(list_rnn(l, c, "encoder.", FIELD(enc)));
        AL_TRY(al_tensor_list_add(l, "pooling.W_s1", c->da, H, FIELD(W_s1)));
        AL_TRY(al_tensor_list_add(l, "pooling.W_s2", c->r, c->da, FIELD(W_s2)));
        break;
    default: /* han */
        AL_TRY(list_rnn(l, c, "word_encoder.", FIELD(enc)));
        AL_TRY(al_tensor_list_add(l, "word_pooling.W", c->da, H, FIELD(Ww)));
        AL_TRY(al_tensor_list_add(l, "word_pooling.b", c->da, 0, FIELD(bw)));
        AL_TRY(al_tensor_list_add(l, "word_pooling.u", c->da, 0, FIELD(uw)));
        AL_TRY(list_rnn(l, c, "sentence_encoder.", FIELD(senc)));
        AL_TRY(al_tensor_list_add(l, "sentence_pooling.W", c->das, c->senc.H, FIELD(Wsn)));
        AL_TRY(al_tensor_list_add(l, "sentence_pooling.b", c->das, 0, FIELD(bsn)));
        AL_TRY(al_tensor_list_add(l, "sentence_pooling.u", c->das, 0, FIELD(usn)));
        break;
    }
    AL_TRY(al_tensor_list_add(l, "classifier.weight", c->C, c->K, FIELD(cls_w)));
    AL_TRY(al_tensor_list_add(l, "classifier.bias", c->C, 0, FIELD(cls_b)));
    return AL_OK;
}

const al_model_arch al_classifier_arch = { "classifier", sizeof(al_classifier), classifier_parse };

/* ------------------------------------------------------------------ forward */

int al_classifier_sentences(const al_classifier *c, const int32_t *ids, int n)
{
    if (c->pooling != AL_CLF_HAN) return 1;
    int m = 0;
    for (int i = 0; i < n; i++) m += ids[i] == c->sep;
    return m + (n > 0 && ids[n - 1] != c->sep);
}

/* out [n, r->H] = the stack r over x [n, r->I] (zero initial state); scratch
 * [enc_floats(c, r, n)]. */
static void encode(const al_classifier *c, const al_clf_rnn *r, const float *x, int n, float *out,
                   float *scratch)
{
    al_recurrent_stack_forward(c->cell, 1, n, r->I, r->Hs, c->L, c->dirs, x, r->p, NULL, NULL, out,
                               NULL, NULL, scratch);
}

static double enc_floats(const al_classifier *c, const al_clf_rnn *r, int n)
{
    return al_recurrent_stack_forward_floats(c->cell, 1, n, r->Hs, c->L, c->dirs);
}

static size_t max_z(size_t a, size_t b) { return a > b ? a : b; }

void al_classifier_probs(const al_classifier *c, const float *logits, float *probs)
{
    const double T = c->temp;
    float mx = logits[0];
    for (int k = 1; k < c->C; k++) mx = logits[k] > mx ? logits[k] : mx;
    double sum = 0.0;
    for (int k = 0; k < c->C; k++) sum += exp(((double)logits[k] - mx) / T);
    for (int k = 0; k < c->C; k++) probs[k] = (float)(exp(((double)logits[k] - mx) / T) / sum);
}

al_status al_classifier_forward(const al_classifier *c, const int32_t *ids, int n, float *probs,
                                float *weights, float *sent, float *penalty)
{
    const int E = c->E, d = c->enc.H, han = c->pooling == AL_CLF_HAN;
    const int m = al_classifier_sentences(c, ids, n);
    size_t pool;
    double floats = (double)n * E + (double)n * d + c->K + c->C;
    switch (c->pooling) {
    case AL_CLF_ATTENTION:
        pool = al_attention_pooling_scratch_floats(n, d) + (size_t)d; /* + r */
        break;
    case AL_CLF_STRUCTURED:
        pool = al_structured_self_attention_scratch_floats(n, d, c->da, c->r);
        break;
    default: /* han: sentence vectors [m,d], G [m,ds], sentence weights [m], the larger scratch */
        pool = (size_t)m * d + (size_t)m * c->senc.H + (size_t)m +
               max_z(al_context_pooling_scratch_floats(n, d, c->da),
                     al_context_pooling_scratch_floats(m, c->senc.H, c->das));
        break;
    }
    /* the encoders' scratch: a word encoder over at most n tokens, the sentence encoder over m */
    const double ne = enc_floats(c, &c->enc, n), ns = han ? enc_floats(c, &c->senc, m) : 0;
    floats += (double)pool + (ne > ns ? ne : ns);
    if (floats * sizeof(float) >= 2147483648.0) return AL_ERR_OVERFLOW;
    for (int i = 0; i < n; i++)
        if (ids[i] < 0 || ids[i] >= c->V) return AL_ERR_RANGE;
    float *block = al_malloc((size_t)floats * sizeof(float));
    if (!block) return AL_ERR_NOMEM;
    float *x = block;                 /* [n,E]  embeddings */
    float *Hn = x + (size_t)n * E;    /* [n,d]  encoder outputs (han: one sentence at a time) */
    float *feat = Hn + (size_t)n * d; /* [K]    classifier input */
    float *logits = feat + c->K;      /* [C] */
    float *scratch = logits + c->C;   /* [pool] */
    float *es = scratch + pool;       /* [max(ne, ns)] */
    al_embedding_forward(x, ids, n, c->emb, c->V, E);

    if (c->pooling == AL_CLF_ATTENTION) {
        /* r = Hᵀα into scratch; features h* = tanh(r) */
        encode(c, &c->enc, x, n, Hn, es);
        al_attention_pooling_seq_forward(scratch, feat, weights, Hn, c->w, NULL, n, d, scratch + d);
        if (penalty) *penalty = 0.0f;
    } else if (c->pooling == AL_CLF_STRUCTURED) {
        /* features M = A H [r,d], row by row */
        float p = 0.0f;
        encode(c, &c->enc, x, n, Hn, es);
        al_structured_self_attention_seq_forward(feat, weights, &p, Hn, c->W_s1, c->W_s2, NULL, n,
                                                 d, c->da, c->r, scratch);
        if (penalty) *penalty = p;
    } else {
        const int ds = c->senc.H;
        float *svec = scratch;           /* [m,d]  s_i */
        float *G = svec + (size_t)m * d; /* [m,ds] sentence encoder outputs */
        float *sw = G + (size_t)m * ds;  /* [m]    sentence weights */
        float *ps = sw + m;              /* pooling scratch */
        int i = 0, start = 0;
        for (int t = 0; t < n; t++) {
            if (ids[t] != c->sep && t != n - 1) continue;
            /* sentence i = [start, t] */
            const int len = t + 1 - start;
            encode(c, &c->enc, x + (size_t)start * E, len, Hn, es);
            al_context_pooling_seq_forward(svec + (size_t)i * d, weights + start, Hn, c->Ww, c->bw,
                                           c->uw, NULL, len, d, c->da, ps);
            i++;
            start = t + 1;
        }
        encode(c, &c->senc, svec, m, G, es);
        al_context_pooling_seq_forward(feat, sw, G, c->Wsn, c->bsn, c->usn, NULL, m, ds, c->das,
                                       ps);
        if (sent) memcpy(sent, sw, sizeof(float) * (size_t)m);
        if (penalty) *penalty = 0.0f;
    }
    /* probs = softmax((classifier.weight feat + classifier.bias) / temperature) */
    memcpy(logits, c->cls_b, sizeof(float) * (size_t)c->C);
    al_sgemv(0, c->C, c->K, 1.0f, c->cls_w, c->K, feat, 1.0f, logits);
    al_classifier_probs(c, logits, probs);
    al_free(block);
    return AL_OK;
}
