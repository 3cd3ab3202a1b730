/*
 * models/transformer.h: the transformer (config "architecture": "transformer"), its config parser
 * and its forward passes. docs/models.md ("Architecture transformer") documents every config key
 * and tensor name; this header documents the maths.
 *
 * Three variants, all built from the layer kernels of kernels/transformer_layers.h (identical to
 * nn.TransformerEncoderLayer / nn.TransformerDecoderLayer, dropout 0, eval):
 *
 *   encoder          x_t = emb(src_t)·(√E if scaleEmbedding) + P_t;  N encoder layers
 *                    (bidirectional self-attention); optional final norm; logits_t = out(x_t).
 *                    A token classifier / sequence encoder: one output row per position.
 *   decoder          the same with causal self-attention (query t sees positions s <= t): a
 *                    decoder-only language model; logits_t predicts token t+1.
 *   encoder-decoder  nn.Transformer: memory = encoder(src) (+ encoder.norm);
 *                    y = decoder layers (causal self-attention, attention over the memory)
 *                    over tgt_emb(tgt)·(√E) + P (+ decoder.norm); logits = out(y).
 *
 * Positions P [maxPositions, E]: "learned" (pos_embedding.weight, shared by both sides of the
 * encoder-decoder) or "sinusoidal" (Vaswani et al. 2017, §3.5):
 *   P[t, 2i] = sin(t / 10000^(2i/E)),  P[t, 2i+1] = cos(t / 10000^(2i/E))
 * computed in double, rounded to float; or "relative" (Shaw, Uszkoreit & Vaswani 2018): no P,
 * and every self-attention layer (encoder-decoder: encoder and decoder self-attention, never the
 * cross-attention) adds learned tables a^K, a^V [2k+1, E/H] shared by its heads, k =
 * maxRelativePosition (kernels/transformer_layers.h):
 *   e_ij = q_i·(k_j + a^K[clip(j−i,−k,k)+k]) / √(E/H),  z_i = Σ_j α_ij (v_j + a^V[clip(j−i,−k,k)+k]).
 *
 * Greedy decoding (decoder, encoder-decoder): argmax of the last row's logits (first index on
 * ties), appended, until eos is emitted (it is part of the output) or max_len tokens. No KV
 * cache: every step recomputes the whole (short) sequence, which keeps one code path for the
 * forward the tests compare against PyTorch.
 */
#ifndef AL_MODELS_TRANSFORMER_H
#define AL_MODELS_TRANSFORMER_H

#include <stdint.h>

#include "config_limits.h"
#include "model.h"
#include "../kernels/transformer_layers.h"

enum { AL_TF_ENCODER = 0, AL_TF_DECODER = 1, AL_TF_ENCODER_DECODER = 2 };
enum { AL_TF_LEARNED = 0, AL_TF_SINUSOIDAL = 1, AL_TF_RELATIVE = 2 };

typedef struct {
    /* settings from the config */
    int variant;         /* AL_TF_* */
    int E, H, F, L;      /* model size, heads, feed-forward size, layers (per stack) */
    int positions;       /* AL_TF_LEARNED, AL_TF_SINUSOIDAL or AL_TF_RELATIVE */
    int max_positions;   /* longest sequence (rows of pos_embedding.weight when learned) */
    int final_norm;      /* norm.* (encoder-decoder: encoder.norm.*, decoder.norm.*) */
    int scale_embedding; /* multiply embeddings by √E */
    al_tl_config lc;     /* norm_first, gelu, causal (set per call), eps 1e-5, rel_k (relative:
                           * maxRelativePosition, else 0) */
    int Vs, Vt;          /* input vocabulary, output rows (labels or target vocabulary) */
    int bos, eos;        /* target ids, -1 when the tokenizer has none */
    int max_length;      /* default output steps */
    /* weights, bound into the model's block (NULL when unused) */
    const float *src_emb;                   /* [Vs,E] embedding.weight (src_embedding.weight) */
    const float *tgt_emb;                   /* [Vt,E] tgt_embedding.weight (encoder-decoder) */
    const float *pos;                       /* [max_positions,E] pos_embedding.weight (learned) */
    al_tl_weights enc[AL_TF_MAX_LAYERS];    /* layers.{i}.* / encoder.layers.{i}.* */
    al_tl_weights dec[AL_TF_MAX_LAYERS_ED]; /* decoder.layers.{i}.* */
    const float *enc_norm_w, *enc_norm_b;   /* [E] norm.* / encoder.norm.* */
    const float *dec_norm_w, *dec_norm_b;   /* [E] decoder.norm.* */
    const float *out_w, *out_b;             /* [Vt,E] [Vt] */
} al_transformer;

extern const al_model_arch al_transformer_arch;

/* Floats of attention one forward writes: L·H·S·S (encoder, decoder);
 * L·H·(S·S + T·T + T·S) (encoder-decoder: encoder self, decoder self, cross). */
double al_transformer_attention_floats(const al_transformer *m, int S, int T);

/* x [n,E] = table[ids]·(√E if scaleEmbedding) + P[0..n−1] (no P for relative positions); ids
 * checked by the caller, n <= max_positions. */
void al_transformer_embed(const al_transformer *m, float *x, const float *table, const int32_t *ids,
                          int n);

/*
 * One forward pass. encoder / decoder: src [S] is the sequence (tgt NULL, T 0); logits [S,Vt];
 * att [L,H,S,S]. encoder-decoder: src [S] the source, tgt [T] the decoder input (bos first);
 * logits [T,Vt]; att = encoder self [L,H,S,S], then decoder self [L,H,T,T], then cross
 * [L,H,T,S]. att may be NULL. AL_ERR_RANGE: an id outside its vocabulary; AL_ERR_SHAPE: a length
 * above max_positions.
 */
al_status al_transformer_forward(const al_transformer *m, const int32_t *src, int S,
                                 const int32_t *tgt, int T, float *logits, float *att);

/*
 * Greedy decoding (decoder: continues the prompt src [S]; encoder-decoder: translates src [S]
 * starting from bos): *len <= max_len emitted ids and their log-probs. AL_ERR_ARGUMENT for the
 * encoder variant or a tokenizer without eos (and bos for encoder-decoder).
 */
al_status al_transformer_generate(const al_transformer *m, const int32_t *src, int S, int max_len,
                                  int32_t *ids, float *logp, int *len);

#endif /* AL_MODELS_TRANSFORMER_H */
