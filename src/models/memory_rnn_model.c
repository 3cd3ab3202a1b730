/*
 * models/memory_rnn_model.c: the memory-RNN model: config parsing (every value checked, every
 * tensor listed with its exact shape), the forward pass of one sequence, and the training hooks
 * (seeded init, example checks, backward). The maths is in memory_rnn_model.h; the kernels do
 * the work (kernels/memory_rnn.h, kernels/recurrent.h, al_sgemm / al_sgemv, embeddings).
 * Deliberately not here: batching, tokenization (wasm/model/memory-rnn.js), argument checks of
 * the run-time calls (api/model.c).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "loss.h"
#include "memory_rnn_model.h"
#include "optim.h"
#include "../api/model.h"
#include "../kernels/kernels.h"
#include "../kernels/memory_rnn.h"
#include "../kernels/recurrent.h"
#include "../toolbox.h"

#define FIELD(f) offsetof(al_memory_rnn, f)

/* ------------------------------------------------------------------ config */

static const char *const TOP_KEYS[] = {
    "architecture", "cell",   "align",     "embeddingSize", "hiddenSize",  "attentionSize", "head",
    "pool",         "labels", "tokenizer", "name",          "description", "training",      NULL
};
static const char *const TOKENIZER_KEYS[] = { "type",         "vocab", "unk",       "pad",
                                              "bos",          "eos",   "normalize", "unknownShapes",
                                              "spellingKeep", NULL };
static const char *const CELLS[] = { "lstmn", "self-attention-rnn", "lstm", NULL };
static const char *const ALIGNS[] = { "additive", "dot", NULL };
static const char *const HEADS[] = { "lm", "classifier", NULL };
static const char *const POOLS[] = { "last", "mean", NULL };
static const char *const TOKENIZERS[] = { "word", NULL };

/* tokenizer {type: "word", vocab, unk, pad?, bos?, eos?}: every special token in vocab */
static al_status parse_tokenizer(const al_cfg *cfg, al_memory_rnn *r, char *err, size_t errlen)
{
    static const char *const special[4] = { "unk", "pad", "bos", "eos" };
    al_cfg tok;
    int type, found[4];
    char val[4][AL_CFG_MAX_STRING];
    const char *find[4];
    AL_TRY(al_cfg_object(cfg, "tokenizer", "tokenizer.", &tok, err, errlen));
    AL_TRY(al_cfg_check_keys(&tok, TOKENIZER_KEYS, err, errlen));
    AL_TRY(al_cfg_enum(&tok, "type", TOKENIZERS, -1, &type, err, errlen));
    for (int k = 0; k < 4; k++) {
        find[k] = val[0];
        if (k == 0 || al_cfg_has(&tok, special[k])) {
            AL_TRY(al_cfg_string(&tok, special[k], val[k], sizeof val[k], err, errlen));
            find[k] = val[k];
        }
    }
    AL_TRY(
        al_cfg_string_array(&tok, "vocab", AL_MRNN_MAX_VOCAB, &r->V, find, found, 4, err, errlen));
    for (int k = 0; k < 4; k++) {
        if (found[k] < 0) {
            return al_errf(err, errlen, AL_ERR_FORMAT,
                           "config \"tokenizer.%s\": \"%s\" is not in tokenizer.vocab", special[k],
                           find[k]);
        }
    }
    return AL_OK;
}

static al_status memory_rnn_parse(const al_cfg *cfg, void *impl, al_tensor_list *l, char *err,
                                  size_t errlen)
{
    al_memory_rnn *r = impl;
    memset(r, 0, sizeof *r);
    AL_TRY(al_cfg_check_keys(cfg, TOP_KEYS, err, errlen));
    AL_TRY(al_cfg_enum(cfg, "cell", CELLS, -1, &r->cell, err, errlen));
    AL_TRY(al_cfg_enum(cfg, "align", ALIGNS, 0, &r->align, err, errlen));
    AL_TRY(al_cfg_int(cfg, "embeddingSize", 1, AL_MRNN_MAX_DIM, -1, &r->E, err, errlen));
    AL_TRY(al_cfg_int(cfg, "hiddenSize", 1, AL_MRNN_MAX_DIM, -1, &r->H, err, errlen));
    if (r->cell == AL_MEM_SARNN) {
        AL_TRY(al_cfg_int(cfg, "attentionSize", 1, AL_MRNN_MAX_DIM, -1, &r->da, err, errlen));
    }
    AL_TRY(al_cfg_enum(cfg, "head", HEADS, -1, &r->head, err, errlen));
    AL_TRY(parse_tokenizer(cfg, r, err, errlen));
    r->C = r->V;
    if (r->head == AL_MEM_CLASSIFIER) {
        AL_TRY(al_cfg_enum(cfg, "pool", POOLS, 0, &r->mean, err, errlen));
        AL_TRY(al_cfg_string_array(cfg, "labels", AL_MRNN_MAX_LABELS, &r->C, NULL, NULL, 0, err,
                                   errlen));
    }

    /* the tensors, in the order they are stored in the model's block: the cell's as "name:dims"
     * with dims letters H, E, G = 4H, S = E+H, A = da and "-" for a vector */
    static const char *const cells[4] = {
        "W_h:HH W_x:HE W_ht:HH v:H- W:GS b:G-", "A:HS b:H- W_h:AH W_s:AH v:A-",
        "weight_ih_l0:GE weight_hh_l0:GH bias_ih_l0:G- bias_hh_l0:G-",
        "A:HS b:H- W_K:AH W_Q:AH", /* dot align */
    };
    const int dot = r->cell == AL_MEM_SARNN && r->align == AL_MEMRNN_ALIGN_DOT;
    const int H = r->H, dim[6] = { H, r->E, 4 * H, r->E + H, r->da, 0 };
    AL_TRY(al_tensor_list_add(l, "embedding.weight", r->V, r->E, FIELD(emb)));
    const char *q = cells[dot ? 3 : r->cell];
    for (int k = 0; *q; k++) {
        char name[AL_MODEL_MAX_NAME] = "cell.";
        int d[2], i = 5;
        while (*q != ':') name[i++] = *q++;
        name[i] = 0;
        for (i = 0; i < 2; i++) d[i] = dim[strchr("HEGSA-", *++q) - "HEGSA-"];
        if (*++q == ' ') q++;
        AL_TRY(al_tensor_list_add(l, name, d[0], d[1], FIELD(p) + sizeof(float *) * (size_t)k));
    }
    const int lm = r->head == AL_MEM_LM;
    AL_TRY(al_tensor_list_add(l, lm ? "out.weight" : "classifier.weight", r->C, H, FIELD(out_w)));
    AL_TRY(al_tensor_list_add(l, lm ? "out.bias" : "classifier.bias", r->C, 0, FIELD(out_b)));
    return AL_OK;
}

/* ------------------------------------------------------------------ forward */

/* One sequence's working memory (one al_malloc), what the backward reads and writes too:
 *   X, DX [n,E]     embeddings and their gradient
 *   HS, DH [n,H]    hidden states and ∂loss/∂h
 *   CS [n,H]        lstmn memory cells, lstm c_t
 *   ATT [n,n]       attention weights (zeros for lstm)
 *   SAVED           the cell's saved activations (lstm: its gates [n,4H])
 *   SCRATCH         the cell's scratch, forward and backward
 *   OUT             lm [n,V], classifier [C]: log-probabilities, then their gradient
 *   FEAT, DF [H]    classifier features and their gradient */
enum { X, DX, HS, DH, CS, ATT, SAVED, SCRATCH, OUT, FEAT, DF, NW };

/* Point w [NW] into one zeroed block for n tokens; returns it (al_free it), or NULL with *st. */
static float *work_alloc(const al_memory_rnn *r, int n, float **w, al_status *st)
{
    const int H = r->H;
    const double nE = (double)n * r->E, nH = (double)n * H;
    double sz[NW] = { nE,
                      nE,
                      nH,
                      nH,
                      nH,
                      (double)n * n,
                      4.0 * nH,
                      (double)al_recurrent_layer_backward_scratch(AL_RECURRENT_LSTM, 1, n, H),
                      r->head == AL_MEM_LM ? (double)n * r->C : r->C,
                      H,
                      H },
           total = 0.0;
    if (r->cell == AL_MEM_LSTMN) {
        sz[SAVED] = (double)al_lstmn_saved_floats(n, H);
        sz[SCRATCH] = (double)al_lstmn_scratch_floats(n, H);
    } else if (r->cell == AL_MEM_SARNN) {
        sz[SAVED] = (double)al_sarnn_saved_floats(n, H, r->da);
        sz[SCRATCH] = (double)al_sarnn_scratch_floats(n, H, r->da);
    }
    for (int k = 0; k < NW; k++) total += sz[k];
    *st = AL_ERR_OVERFLOW;
    if (total * sizeof(float) >= 2147483648.0) return NULL;
    *st = AL_ERR_NOMEM;
    float *b = al_malloc((size_t)total * sizeof(float));
    if (!b) return NULL;
    memset(b, 0, (size_t)total * sizeof(float));
    for (int k = 0, o = 0; k < NW; o += (int)sz[k++]) w[k] = b + o;
    *st = AL_OK;
    return b;
}

/* row [C] = log_softmax(row), the normaliser summed in double */
static void log_softmax(float *row, int C)
{
    float mx = row[0];
    for (int i = 1; i < C; i++) mx = row[i] > mx ? row[i] : mx;
    double sum = 0.0;
    for (int i = 0; i < C; i++) sum += exp((double)row[i] - mx);
    const double lse = (double)mx + log(sum);
    for (int i = 0; i < C; i++) row[i] = (float)((double)row[i] - lse);
}

/* The forward of ids [n] (checked) into w: h, att, the cell's saved values, out (log-probs). */
static void run(const al_memory_rnn *r, const int32_t *ids, int n, float *const *w)
{
    const int E = r->E, H = r->H, C = r->C;
    const float *const *p = r->p;
    al_embedding_forward(w[X], ids, n, r->emb, r->V, E);
    switch (r->cell) {
    case AL_MEM_LSTMN:
        al_lstmn_seq_forward(w[HS], w[CS], w[ATT], w[SAVED], w[SCRATCH], w[X], p[0], p[1], p[2],
                             p[3], p[4], p[5], n, E, H);
        break;
    case AL_MEM_SARNN:
        al_sarnn_seq_forward(w[HS], w[ATT], w[SAVED], w[SCRATCH], w[X], p[0], p[1], p[2], p[3],
                             p[4], n, E, H, r->da, r->align);
        break;
    default: /* nn.LSTM, zero initial state: gates [n,4H] into saved, c_t into c */
        al_recurrent_layer_forward(AL_RECURRENT_LSTM, 1, n, E, H, 0, w[X], p[0], p[1], p[2], p[3],
                                   NULL, NULL, w[HS], H, NULL, NULL, w[SAVED], w[CS], NULL);
        break;
    }
    if (r->head == AL_MEM_LM) {
        /* logits [n,V] = h out.weightᵀ + out.bias, then log_softmax row by row */
        for (int t = 0; t < n; t++)
            memcpy(w[OUT] + (size_t)t * C, r->out_b, sizeof(float) * (size_t)C);
        al_sgemm(0, 1, n, C, H, 1.0f, w[HS], H, r->out_w, H, 1.0f, w[OUT], C);
        for (int t = 0; t < n; t++) log_softmax(w[OUT] + (size_t)t * C, C);
        return;
    }
    /* f = h_{n−1} or the mean of h; logits = classifier.weight f + classifier.bias */
    if (r->mean) {
        for (int t = 0; t < n; t++)
            for (int j = 0; j < H; j++) w[FEAT][j] += w[HS][(size_t)t * H + j];
        for (int j = 0; j < H; j++) w[FEAT][j] /= (float)n;
    } else {
        memcpy(w[FEAT], w[HS] + (size_t)(n - 1) * H, sizeof(float) * (size_t)H);
    }
    memcpy(w[OUT], r->out_b, sizeof(float) * (size_t)C);
    al_sgemv(0, C, H, 1.0f, r->out_w, H, w[FEAT], 1.0f, w[OUT]);
    log_softmax(w[OUT], C);
}

al_status al_memory_rnn_forward(const al_memory_rnn *r, const int32_t *ids, int n, float *dist,
                                float *logp, float *weights)
{
    for (int i = 0; i < n; i++)
        if (ids[i] < 0 || ids[i] >= r->V) return AL_ERR_RANGE;
    float *w[NW];
    al_status st;
    float *blk = work_alloc(r, n, w, &st);
    if (!blk) return st;
    run(r, ids, n, w);
    const int C = r->C;
    if (r->head == AL_MEM_LM) {
        if (dist) memcpy(dist, w[OUT], sizeof(float) * (size_t)n * C);
        if (logp)
            for (int t = 0; t + 1 < n; t++) logp[t] = w[OUT][(size_t)t * C + ids[t + 1]];
    } else {
        for (int k = 0; k < C; k++) dist[k] = (float)exp((double)w[OUT][k]);
    }
    if (weights) memcpy(weights, w[ATT], sizeof(float) * (size_t)n * n);
    al_free(blk);
    return AL_OK;
}

static void put(float *dst, const float *src, size_t n)
{
    if (dst) memcpy(dst, src, sizeof(float) * n);
}

al_status al_memory_rnn_states(const al_memory_rnn *r, const int32_t *ids, int n, float *const *o)
{
    for (int i = 0; i < n; i++)
        if (ids[i] < 0 || ids[i] >= r->V) return AL_ERR_RANGE;
    float *w[NW];
    al_status st;
    float *blk = work_alloc(r, n, w, &st);
    if (!blk) return st;
    run(r, ids, n, w);
    const size_t nH = (size_t)n * r->H;
    float *sc = o[AL_MEM_STATE_SCORES];
    put(o[AL_MEM_STATE_EMBEDDED], w[X], (size_t)n * r->E);
    put(o[AL_MEM_STATE_HIDDEN], w[HS], nH);
    if (r->cell != AL_MEM_SARNN) put(o[AL_MEM_STATE_MEMORY], w[CS], nH);
    if (r->cell != AL_MEM_LSTM) {
        put(o[AL_MEM_STATE_WEIGHTS], w[ATT], (size_t)n * n);
        /* saved: lstmn h̃ [n,H], c̃ [n,H], ...; sarnn c [n,H], ... (kernels/memory_rnn.h) */
        put(o[AL_MEM_STATE_SUMMARY], w[SAVED], nH);
        if (r->cell == AL_MEM_LSTMN) put(o[AL_MEM_STATE_MEMORY_SUMMARY], w[SAVED] + nH, nH);
        if (sc && r->cell == AL_MEM_LSTMN)
            al_lstmn_seq_scores(sc, w[SAVED], r->p[3], n, r->H);
        else if (sc)
            al_sarnn_seq_scores(sc, w[SAVED], r->p[4], n, r->H, r->da, r->align);
    }
    al_free(blk);
    return AL_OK;
}

/* ------------------------------------------------------------------ training hooks */

static al_init init_rule(const al_tensor_spec *t, int k, const void *impl)
{
    const al_memory_rnn *r = impl;
    if (k == 0) return (al_init){ AL_INIT_NORMAL, 0.0 }; /* embedding.weight */
    double fan = t->rank == 2 ? t->dim[1] : r->H;        /* nn.Linear; out/classifier bias */
    if (r->cell == AL_MEM_LSTM && strncmp(t->name, "cell.", 5) == 0)
        fan = r->H; /* nn.LSTM */
    else if (strcmp(t->name, "cell.b") == 0)
        fan = r->E + r->H; /* bias of W / A [·, H+E] */
    else if (strcmp(t->name, "cell.v") == 0)
        fan = t->dim[0]; /* a Linear(n, 1) weight */
    return (al_init){ AL_INIT_UNIFORM, 1.0 / sqrt(fan) };
}

void al_memory_rnn_init_hook(const al_tensor_list *list, const void *impl, float *weights,
                             uint32_t seed)
{
    al_init_weights(list, impl, weights, seed, init_rule);
}

al_status al_memory_rnn_example_hook(const void *impl, const int32_t *src, int S,
                                     const int32_t *tgt, int T, double *terms)
{
    const al_memory_rnn *r = impl;
    const int lm = r->head == AL_MEM_LM;
    if (!src || S < (lm ? 2 : 1) || T != (lm ? 0 : 1) || (!lm && !tgt)) return AL_ERR_SHAPE;
    for (int i = 0; i < S; i++)
        if (src[i] < 0 || src[i] >= r->V) return AL_ERR_RANGE;
    if (!lm && (tgt[0] < 0 || tgt[0] >= r->C)) return AL_ERR_RANGE;
    *terms = lm ? S - 1 : 1;
    return AL_OK;
}

/* The gradient of parameter q: the same offset in g0 as q has in w0. */
#define G(q) (g0 + ((q)-w0))

al_status al_memory_rnn_backward_hook(const void *impl, const float *w0, float *g0,
                                      const int32_t *src, int S, const int32_t *tgt, int T,
                                      float scale, float smoothing, double *nll)
{
    const al_memory_rnn *r = impl;
    const int E = r->E, H = r->H, C = r->C, n = S;
    const float *const *p = r->p;
    float *w[NW];
    al_status st;
    float *blk = work_alloc(r, n, w, &st);
    if (!blk) return st;
    run(r, src, n, w);

    /* head: loss −logp[y]; dlogits = scale · (softmax − q), in place of the log-probs, q the
     * smoothed target (models/loss.h; onehot when smoothing = 0) */
    double total = 0.0;
    const int rows = r->head == AL_MEM_LM ? n - 1 : 1;
    const float uniform = smoothing / (float)C;
    for (int t = 0; t < rows; t++) {
        float *d = w[OUT] + (size_t)t * C;
        const int y = r->head == AL_MEM_LM ? src[t + 1] : tgt[0];
        total -= d[y];
        total += al_smoothing_extra(d, C, y, smoothing);
        for (int i = 0; i < C; i++) d[i] = scale * ((float)exp((double)d[i]) - uniform);
        d[y] -= scale * (1.0f - smoothing);
    }
    *nll = total;
    float *gw = G(r->out_w), *gb = G(r->out_b);
    for (int t = 0; t < rows; t++)
        for (int i = 0; i < C; i++) gb[i] += w[OUT][(size_t)t * C + i];
    if (r->head == AL_MEM_LM) {
        /* logits_t = out.weight h_t + out.bias, t < n−1 (the last row has no target):
         * out.weight += dlogitsᵀ h;  dh = dlogits out.weight */
        al_sgemm(1, 0, C, H, rows, 1.0f, w[OUT], C, w[HS], H, 1.0f, gw, H);
        al_sgemm(0, 0, rows, H, C, 1.0f, w[OUT], C, r->out_w, H, 0.0f, w[DH], H);
    } else {
        /* logits = classifier.weight f + classifier.bias: weight += dlogits ⊗ f; df = Wᵀ dlogits */
        al_sgemm(0, 0, C, H, 1, 1.0f, w[OUT], 1, w[FEAT], H, 1.0f, gw, H);
        al_sgemv(1, C, H, 1.0f, r->out_w, H, w[OUT], 0.0f, w[DF]);
        /* f = h_{n−1}, or (1/n) Σ_t h_t */
        for (int t = r->mean ? 0 : n - 1; t < n; t++) {
            for (int j = 0; j < H; j++)
                w[DH][(size_t)t * H + j] = r->mean ? w[DF][j] / (float)n : w[DF][j];
        }
    }

    /* the cell's BPTT from dh (no gradient reaches the attention weights or c directly) */
    switch (r->cell) {
    case AL_MEM_LSTMN:
        al_lstmn_seq_backward(w[DX], G(p[0]), G(p[1]), G(p[2]), G(p[3]), G(p[4]), G(p[5]), w[DH],
                              NULL, NULL, w[HS], w[CS], w[ATT], w[SAVED], w[SCRATCH], w[X], p[0],
                              p[1], p[2], p[3], p[4], n, E, H);
        break;
    case AL_MEM_SARNN:
        al_sarnn_seq_backward(w[DX], G(p[0]), G(p[1]), G(p[2]), G(p[3]), p[4] ? G(p[4]) : NULL,
                              w[DH], NULL, w[HS], w[ATT], w[SAVED], w[SCRATCH], w[X], p[0], p[2],
                              p[3], p[4], n, E, H, r->da, r->align);
        break;
    default:
        al_recurrent_layer_backward(AL_RECURRENT_LSTM, 1, n, E, H, 0, w[X], p[0], p[1], NULL, NULL,
                                    w[HS], H, w[SAVED], w[CS], w[DH], H, NULL, NULL, w[DX], G(p[0]),
                                    G(p[1]), G(p[2]), G(p[3]), NULL, NULL, w[SCRATCH]);
        break;
    }
    al_embedding_backward(G(r->emb), src, n, w[DX], E);
    al_free(blk);
    return AL_OK;
}

const al_model_arch al_memory_rnn_arch = { "memory-rnn", sizeof(al_memory_rnn), memory_rnn_parse };
