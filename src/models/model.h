/*
 * models/model.h: what every architecture shares: the model handle, the list of tensors a config
 * needs, and the loader that checks a safetensors file against that list before allocating.
 *
 * Loading (models/model.c, al_model_load in api/model.h):
 *   1. open the safetensors bytes (api/safetensors.h validates the file itself);
 *   2. read __metadata__["config"], a JSON object; its "architecture" picks an al_model_arch;
 *   3. the architecture's parse() checks every config value and lists the tensors it needs
 *      (name and exact shape), writing its plain settings into a struct on the stack;
 *   4. every listed tensor must be present with that shape, and no other tensor may be;
 *   5. only then: one al_malloc for the handle and the architecture's struct, one for the
 *      config text, one for every weight (resident, read once, F16/BF16 converted to F32), and
 *      the architecture's pointers are bound into that block.
 * Any failure frees everything and leaves a message in err naming the key or the tensor.
 *
 * Deliberately not here: any maths (models/<arch>.c), or argument checks of the run-time calls
 * (api/model.c).
 */
#ifndef AL_MODELS_MODEL_H
#define AL_MODELS_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "../base.h"
#include "model_config.h"

#define AL_MODEL_MAX_TENSORS 256 /* tensors one model may hold (8+8-layer nn.Transformer: 250) */
#define AL_MODEL_MAX_NAME 56     /* bytes in a tensor name built by a parser, NUL included */

/* One tensor the config needs: its name, exact shape, and where the pointer to its data goes
 * (a byte offset of a `float *` field inside the architecture's struct). */
typedef struct {
    char name[AL_MODEL_MAX_NAME];
    int rank; /* 1 or 2 */
    int dim[2];
    size_t field; /* offsetof(arch struct, the float * field) */
} al_tensor_spec;

typedef struct {
    al_tensor_spec t[AL_MODEL_MAX_TENSORS];
    int n;
} al_tensor_list;

/* Append a tensor (dim1 = 0 for rank 1); AL_ERR_OVERFLOW past AL_MODEL_MAX_TENSORS. */
al_status al_tensor_list_add(al_tensor_list *l, const char *name, int dim0, int dim1, size_t field);

/* An architecture: its config key and how to parse, check and finish one. */
typedef struct {
    const char *name; /* the config's "architecture" value */
    size_t impl_size; /* bytes of its struct */
    /* Check the config, fill impl (plain settings) and list the tensors. No allocation. */
    al_status (*parse)(const al_cfg *cfg, void *impl, al_tensor_list *tensors, char *err,
                       size_t errlen);
} al_model_arch;

/* The architecture of an AL_ARCH_* value (NULL when out of range). */
const al_model_arch *al_model_arch_get(int arch);

/*
 * Training an architecture (api/train.h). Kept out of al_model_arch on purpose: only api/train.c
 * reaches this table (models/train_registry.c), so the inference .wasm, which does not export
 * the training entry points, links none of the backward passes (the training .wasm does).
 *   init      seeded weights for every tensor of list, in list order (al_rng of optim.h)
 *   example   check one training example (src [S], tgt [T]; what they mean is the
 *             architecture's: docs/training.md) — ids in range (AL_ERR_RANGE), lengths legal
 *             (AL_ERR_SHAPE) — and set *terms to the loss terms it adds (tokens, or 1)
 *   backward  loss of one checked example (*nll, summed over its terms, in double) and
 *             g0 += scale · ∂loss/∂θ, w0/g0 the weight block and its gradient; smoothing ε in
 *             [0, 1) is the cross-entropy's label smoothing (models/loss.h; 0: none)
 *   batch     or NULL: the same for a whole checked batch at once (src [B, S_max], tgt
 *             [B, T_max] padded row-major, src_len/tgt_len [B]; padding never read): *nll the
 *             batch's summed loss and g0 += scale · its gradient, equal to B calls of backward up
 *             to the order of float sums. AL_ERR_UNSUPPORTED (g0 untouched) when this model's
 *             configuration has no batched form: the trainer then calls backward per example.
 */
typedef struct {
    void (*init)(const al_tensor_list *list, const void *impl, float *weights, uint32_t seed);
    al_status (*example)(const void *impl, const int32_t *src, int S, const int32_t *tgt, int T,
                         double *terms);
    al_status (*backward)(const void *impl, const float *w0, float *g0, const int32_t *src, int S,
                          const int32_t *tgt, int T, float scale, float smoothing, double *nll);
    al_status (*batch)(const void *impl, const float *w0, float *g0, const int32_t *src,
                       const int32_t *src_len, int S_max, const int32_t *tgt,
                       const int32_t *tgt_len, int T_max, int B, float scale, float smoothing,
                       double *nll);
} al_model_trainer;

/* The training hooks of an AL_ARCH_* value; NULL when it cannot be trained. */
const al_model_trainer *al_model_trainer_get(int arch);

enum {
    AL_ARCH_SEQ2SEQ = 0,
    AL_ARCH_TRANSFORMER = 1,
    AL_ARCH_CLASSIFIER = 2,
    AL_ARCH_MEMORY_RNN = 3
};

struct al_model {
    int arch;              /* AL_ARCH_* */
    const char *arch_name; /* static */
    char *config;          /* [config_len + 1] the config JSON, NUL-terminated */
    float *weights;        /* [n_weights] every tensor, in list order */
    size_t n_weights;
    void *impl; /* the architecture's struct, in the same block as the handle */
};

#endif /* AL_MODELS_MODEL_H */
