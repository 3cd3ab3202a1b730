/*
 * test_transformer_states.c: al_model_transformer_states (api/transformer_states.h,
 * models/transformer_states.c), natively, under ASan/UBSan and in wasm: for tiny created
 * models of every variant, both norm placements and learned, sinusoidal and relative positions,
 *   - the layout: the shapes add up to the reported floats, absent fields (normed for post-norm,
 *     relative outside Shaw self-attention) take none;
 *   - the states are the model's own numbers: logits and every attention map bit-identical to
 *     al_model_transformer_forward's, and every layer output and attention map bit-identical to
 *     al_tl_forward (kernels/transformer_layers.h) run on the layer's traced input with the
 *     model's al_tl_weights;
 *   - the fields agree with each other: softmax(scores) = weights (masked entries -inf),
 *     q = (normed or input) W_qᵀ + b_q per head, heads = α V (+ Shaw's α a^V) in double,
 *     projected = concat W_Oᵀ + b_O (atol 1e-5);
 *   - bad arguments give their statuses, and nothing leaks.
 * The values against PyTorch are in tests/js/states-transformer.test.js.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixtures.h"
#include "models/model.h"
#include "models/transformer.h"

typedef struct {
    const char *name, *variant, *opts;
} tiny;

static const tiny CASES[] = {
    { "encoder learned post-norm", "encoder",
      "\"positions\":\"learned\",\"maxPositions\":8,\"finalNorm\":true" },
    { "encoder sinusoidal pre-norm gelu", "encoder",
      "\"positions\":\"sinusoidal\",\"normFirst\":true,\"activation\":\"gelu\"" },
    { "encoder relative k=1 post-norm", "encoder",
      "\"positions\":\"relative\",\"maxRelativePosition\":1" },
    { "decoder learned pre-norm", "decoder",
      "\"positions\":\"learned\",\"maxPositions\":8,\"normFirst\":true,\"finalNorm\":true" },
    { "decoder relative k=2 post-norm", "decoder",
      "\"positions\":\"relative\",\"maxRelativePosition\":2,\"scaleEmbedding\":true" },
    { "encoder-decoder sinusoidal post-norm", "encoder-decoder",
      "\"positions\":\"sinusoidal\",\"finalNorm\":true" },
    { "encoder-decoder relative k=2 pre-norm", "encoder-decoder",
      "\"positions\":\"relative\",\"maxRelativePosition\":2,\"normFirst\":true,"
      "\"finalNorm\":true" },
};

static al_model *make(const tiny *v)
{
    char err[AL_MODEL_ERR_CAP];
    const int enc = strcmp(v->variant, "encoder") == 0;
    al_model *m = fixture_create(
        17, err,
        "{\"architecture\":\"transformer\",\"variant\":\"%s\",\"embeddingSize\":6,"
        "\"numHeads\":2,\"feedforwardSize\":7,\"numLayers\":2,%s,\"tokenizer\":{\"type\":"
        "\"char\",\"srcVocab\":[\"<pad>\",\"<s>\",\"</s>\",\"<unk>\",\"a\",\"b\",\"c\"],"
        "\"tgtVocab\":%s,\"unk\":\"<unk>\"%s}}",
        v->variant, v->opts,
        enc ? "[\"O\",\"B\",\"I\"]" : "[\"<pad>\",\"<s>\",\"</s>\",\"<unk>\",\"a\",\"b\",\"c\"]",
        enc ? "" : ",\"bos\":\"<s>\",\"eos\":\"</s>\"");
    if (!m) printf("FAIL create %s: %s\n", v->name, err);
    return m;
}

static long size_of(const int32_t *q)
{
    return q[0] == 0 ? 0 : (long)q[1] * (q[0] > 1 ? q[2] : 1) * (q[0] > 2 ? q[3] : 1);
}

static double worst_of(double a, double b) { return a > b ? a : b; }

/* The consistency of one sublayer's fields f[12] (shapes sh [12·4]) with W = in_proj [3E,E],
 * b [3E], Wo [E,E], bo [E], rel_v [2k+1,Dh] or NULL: the worst |difference|. */
static double sublayer_gap(const float *const *f, const int32_t *sh, const float *W, const float *b,
                           const float *Wo, const float *bo, const float *rel_v, int k)
{
    const int H = sh[4 * 2 + 1], n = sh[4 * 2 + 2], Dh = sh[4 * 2 + 3], mm = sh[4 * 3 + 2];
    const int E = H * Dh;
    const float *x = f[1] ? f[1] : f[0];
    double g = 0.0;
    for (int h = 0; h < H; h++) {
        for (int t = 0; t < n; t++) {
            const float *e = f[5] + ((size_t)h * n + t) * mm, *a = f[7] + ((size_t)h * n + t) * mm;
            double mx = -INFINITY, z = 0.0;
            for (int s = 0; s < mm; s++) mx = e[s] > mx ? e[s] : mx;
            for (int s = 0; s < mm; s++) z += exp((double)e[s] - mx);
            for (int s = 0; s < mm; s++) g = worst_of(g, fabs(exp((double)e[s] - mx) / z - a[s]));
            for (int j = 0; j < Dh; j++) {
                /* q = x W_qᵀ + b_q; head = Σ_s α_s (v_s + a^V_{r(t,s)}) */
                double q = b[h * Dh + j], hd = 0.0;
                for (int c = 0; c < E; c++)
                    q += (double)x[(size_t)t * E + c] * W[(size_t)(h * Dh + j) * E + c];
                for (int s = 0; s < mm; s++) {
                    double v = f[4][((size_t)h * mm + s) * Dh + j];
                    if (rel_v) {
                        const int r = s - t < -k ? 0 : s - t > k ? 2 * k : s - t + k;
                        v += rel_v[(size_t)r * Dh + j];
                    }
                    hd += a[s] * v;
                }
                g = worst_of(g, fabs(q - f[2][((size_t)h * n + t) * Dh + j]));
                g = worst_of(g, fabs(hd - f[8][((size_t)h * n + t) * Dh + j]));
            }
        }
    }
    for (int t = 0; t < n; t++)
        for (int o = 0; o < E; o++) {
            double p = bo[o];
            for (int c = 0; c < E; c++)
                p += (double)f[9][(size_t)t * E + c] * Wo[(size_t)o * E + c];
            g = worst_of(g, fabs(p - f[10][(size_t)t * E + o]));
        }
    return g;
}

static void check_case(const tiny *v)
{
    char what[200];
    al_model *m = make(v);
    if (!m) return;
    const al_transformer *tf = (const al_transformer *)m->impl;
    const int ed = tf->variant == AL_TF_ENCODER_DECODER, L = tf->L, H = tf->H, E = tf->E;
    const int32_t src[5] = { 4, 5, 6, 4, 5 }, tgt[4] = { 1, 6, 4, 5 };
    const int S = 5, T = ed ? 4 : 0, n = ed ? T : S;
    const int fields = al_model_transformer_states_fields(m);
    int32_t *sh = check_alloc(sizeof(int32_t) * 4 * (size_t)fields);
    const double floats = al_model_transformer_states_layout(m, S, T, sh);
    long sum = 0;
    const float **f = check_alloc(sizeof(float *) * (size_t)fields);
    float *st = falloc((long)floats);
    for (int k = 0; k < fields; k++) {
        f[k] = sh[4 * k] ? st + sum : NULL;
        sum += size_of(sh + 4 * k);
    }
    const int nsub = ed ? 3 * L : L;
    int normed = 1, relative = 0;
    for (int s = 0; s < nsub; s++) {
        normed &= (sh[4 * (2 + 12 * s + 1)] != 0) == tf->lc.norm_first;
        relative += sh[4 * (2 + 12 * s + 6)] != 0;
    }
    snprintf(what, sizeof what, "%s: layout", v->name);
    check_true(what, fields == 2 + 12 * nsub + (ed ? 2 : 1) * L + 3 && sum == floats && normed &&
                         relative == (tf->lc.rel_k ? (ed ? 2 * L : L) : 0) &&
                         sh[4 * (fields - 1) + 1] == n && sh[4 * (fields - 1) + 2] == tf->Vt);
    const double att_n = al_model_transformer_attention_floats(m, S, T);
    float *logits = falloc((long)n * tf->Vt), *att = falloc((long)att_n);
    snprintf(what, sizeof what, "%s: runs", v->name);
    if (!check_true(what, al_model_transformer_states(m, src, S, ed ? tgt : NULL, T, st) == AL_OK &&
                              al_model_transformer_forward(m, src, S, ed ? tgt : NULL, T, logits,
                                                           att) == AL_OK))
        goto done;
    /* the plain forward: logits, and the attention maps in its order (encoder self, decoder
     * self, cross) */
    int same = memcmp(f[fields - 1], logits, sizeof(float) * (size_t)n * tf->Vt) == 0;
    for (int s = 0; s < nsub; s++) {
        const int stack = ed && s >= L, l = stack ? (s - L) / 2 : s, kind = stack ? (s - L) % 2 : 0;
        const size_t o = !stack      ? (size_t)l * H * S * S
                         : kind == 0 ? (size_t)L * H * S * S + (size_t)l * H * T * T
                                     : (size_t)L * H * (S * S + T * T) + (size_t)l * H * T * S;
        const int32_t *q = sh + 4 * (2 + 12 * s + 7);
        same &= memcmp(f[2 + 12 * s + 7], att + o, sizeof(float) * (size_t)size_of(q)) == 0;
    }
    snprintf(what, sizeof what, "%s: logits and weights bit-identical to the forward", v->name);
    check_true(what, same);
    /* every layer against al_tl_forward on its traced input */
    const int lo = 2 + 12 * nsub, fin_e = lo + (ed ? 2 : 1) * L;
    same = 1;
    for (int i = 0; i < (ed ? 2 : 1) * L; i++) {
        const int dec = ed && i >= L, rows = dec ? T : S, first = dec ? L + 2 * (i - L) : i;
        const al_tl_weights *w = dec ? &tf->dec[i - L] : &tf->enc[i];
        al_tl_config lc = tf->lc;
        lc.causal = dec || tf->variant == AL_TF_DECODER;
        const long scr = al_tl_forward_scratch_floats(rows, S, E, tf->F, dec) +
                         al_tl_relative_scratch_floats(rows, E, H, lc.rel_k);
        float *out = falloc((long)rows * E), *sa = falloc((long)H * rows * rows);
        float *ca = falloc((long)H * rows * S), *scratch = falloc(scr);
        al_tl_forward(out, sa, ca, f[2 + 12 * first], dec ? f[fin_e] : NULL, w, rows, S, E, tf->F,
                      H, &lc, NULL, NULL, scratch);
        same &= memcmp(out, f[lo + i], sizeof(float) * (size_t)rows * E) == 0;
        same &= memcmp(sa, f[2 + 12 * first + 7], sizeof(float) * (size_t)H * rows * rows) == 0;
        if (dec) same &= memcmp(ca, f[2 + 12 * (first + 1) + 7], sizeof(float) * H * rows * S) == 0;
        free(out), free(sa), free(ca), free(scratch);
    }
    snprintf(what, sizeof what, "%s: layer outputs and weights bit-identical to al_tl_forward",
             v->name);
    check_true(what, same);
    double g = 0.0;
    for (int s = 0; s < nsub; s++) {
        const int stack = ed && s >= L, l = stack ? (s - L) / 2 : s;
        const int cross = stack && (s - L) % 2 == 1;
        const al_tl_weights *w = stack ? &tf->dec[l] : &tf->enc[l];
        g = worst_of(
            g, sublayer_gap(f + 2 + 12 * s, sh + 4 * (2 + 12 * s), cross ? w->ca_in_w : w->sa_in_w,
                            cross ? w->ca_in_b : w->sa_in_b, cross ? w->ca_out_w : w->sa_out_w,
                            cross ? w->ca_out_b : w->sa_out_b,
                            cross || !tf->lc.rel_k ? NULL : w->sa_rel_v, tf->lc.rel_k));
    }
    snprintf(what, sizeof what, "%s: scores, q, heads, projected consistent (worst %.2g)", v->name,
             g);
    check_true(what, g < 1e-5);
done:
    snprintf(what, sizeof what, "%s: argument checks", v->name);
    const int32_t bad[2] = { 4, 99 };
    check_true(
        what, al_model_transformer_states(NULL, src, S, tgt, T, st) == AL_ERR_ARGUMENT &&
                  al_model_transformer_states(m, NULL, S, tgt, T, st) == AL_ERR_ARGUMENT &&
                  al_model_transformer_states(m, src, S, tgt, T, NULL) == AL_ERR_ARGUMENT &&
                  al_model_transformer_states(m, src, 0, tgt, T, st) == AL_ERR_SHAPE &&
                  al_model_transformer_states(m, src, 4097, tgt, T, st) == AL_ERR_SHAPE &&
                  al_model_transformer_states(m, bad, 2, tgt, T, st) == AL_ERR_RANGE &&
                  al_model_transformer_states(m, src, S, tgt, ed ? 0 : 1, st) == AL_ERR_SHAPE &&
                  (!ed || al_model_transformer_states(m, src, S, NULL, T, st) == AL_ERR_ARGUMENT) &&
                  al_model_transformer_states_layout(m, 0, T, sh) == -1.0 &&
                  al_model_transformer_states_layout(m, S, ed ? 0 : 1, sh) == -1.0 &&
                  al_model_transformer_states_layout(NULL, S, T, sh) == -1.0 &&
                  al_model_transformer_states_layout(m, S, T, NULL) == floats &&
                  al_model_transformer_states_fields(NULL) == -1);
    free(sh), free(f), free(st), free(logits), free(att);
    al_model_free(m);
}

int main(void)
{
    const int base = al_alloc_live();
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) check_case(&CASES[i]);
    /* another architecture is refused */
    char err[AL_MODEL_ERR_CAP];
    al_model *c = fixture_create(
        1, err,
        "{\"architecture\":\"classifier\",\"cell\":\"gru\",\"embeddingSize\":3,"
        "\"hiddenSize\":4,\"numLayers\":1,\"pooling\":\"attention\",\"labels\":[\"x\",\"y\"],"
        "\"tokenizer\":{\"type\":\"word\",\"vocab\":[\"<unk>\",\"a\"],\"unk\":\"<unk>\"}}");
    const int32_t ids[2] = { 0, 1 };
    float out[64];
    check_true("a classifier is refused",
               c && al_model_transformer_states(c, ids, 2, NULL, 0, out) == AL_ERR_UNSUPPORTED &&
                   al_model_transformer_states_fields(c) == -1 &&
                   al_model_transformer_states_layout(c, 2, 0, NULL) == -1.0);
    al_model_free(c);
    check_true("all freed", al_alloc_live() == base);
    return check_report("test_transformer_states");
}
