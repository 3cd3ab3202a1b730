/*
 * models/transformer_states.h: the transformer's intermediate states (docs/states.md): a second
 * forward pass, separate from al_transformer_forward (unchanged), that chains the layers' own
 * kernels in al_tl_forward's order (kernels/transformer_layers.c) and keeps every step. Its
 * attention weights, layer outputs and logits are bit-identical to the plain forward's
 * (tests/c/test_transformer_states.c checks it against al_tl_forward and the model).
 *
 * The states are one float array of fields back to back, each with a shape (rank, d0, d1, d2;
 * rank 0: absent, no floats), in this order:
 *   embedded encoder [S,E], embedded decoder [T,E]   (the single-stack variants fill one: the
 *                        encoder variant "encoder", the decoder variant "decoder", [S,E])
 *   per attention sublayer, in execution order (encoder layers; decoder layers' self then
 *   cross; a single stack's layers), AL_TF_STATE_SUB fields (AL_TF_SUB_*):
 *     input [n,E], normed [n,E] (pre-norm only), q [H,n,Dh], k [H,m,Dh], v [H,m,Dh],
 *     scores [H,n,m] (Q Kᵀ/√Dh + Shaw's term, -inf where causally masked), relative [H,n,m]
 *     (Shaw's term q_i·a^K_ij/√Dh alone, unmasked; relative self-attention only), weights
 *     [H,n,m], heads [H,n,Dh] (α V + Shaw's α a^V), concat [n,E], projected [n,E]
 *     (concat W_Oᵀ + b_O), residual [n,E] (pre-norm x + projected; post-norm LN(x + projected))
 *   layer outputs: one [n,E] per layer in execution order (encoder stack, then decoder)
 *   final encoder [S,E], final decoder [T,E]: what follows the stack's last layer (its final
 *                        norm when the config has one, else the last layer output): the memory
 *                        the cross-attention reads, and the output layer's input
 *   logits [n,Vt]
 */
#ifndef AL_MODELS_TRANSFORMER_STATES_H
#define AL_MODELS_TRANSFORMER_STATES_H

#include <stdint.h>

#include "transformer.h"

enum {
    AL_TF_SUB_INPUT = 0,
    AL_TF_SUB_NORMED,
    AL_TF_SUB_Q,
    AL_TF_SUB_K,
    AL_TF_SUB_V,
    AL_TF_SUB_SCORES,
    AL_TF_SUB_RELATIVE,
    AL_TF_SUB_WEIGHTS,
    AL_TF_SUB_HEADS,
    AL_TF_SUB_CONCAT,
    AL_TF_SUB_PROJECTED,
    AL_TF_SUB_RESIDUAL,
    AL_TF_STATE_SUB /* fields per sublayer */
};

/* Fields of the layout: 2 + AL_TF_STATE_SUB·sublayers + layer outputs + 3 (sublayers: L, or
 * 3L for the encoder-decoder; layer outputs: L or 2L). */
int al_transformer_states_fields(const al_transformer *m);

/* shapes [fields·4] (may be NULL) for S source and T target tokens (T = 0 except for the
 * encoder-decoder); returns the total floats. */
double al_transformer_states_layout(const al_transformer *m, int S, int T, int32_t *shapes);

/* Every state of one forward (al_transformer_forward's arguments) into out [layout floats].
 * AL_ERR_RANGE, AL_ERR_SHAPE as al_transformer_forward; AL_ERR_NOMEM; AL_ERR_OVERFLOW. */
al_status al_transformer_states(const al_transformer *m, const int32_t *src, int S,
                                const int32_t *tgt, int T, float *out);

#endif /* AL_MODELS_TRANSFORMER_STATES_H */
