/*
 * models/optim.h: optimisers on flat parameter arrays (every tensor of a model in one block):
 * Adam with optional decoupled weight decay (AdamW), SGD with optional momentum, and global-norm
 * gradient clipping.
 *
 *   Adam (Kingma & Ba 2015, Algorithm 1; decoupled decay: Loshchilov & Hutter 2019, AdamW,
 *   Algorithm 2 with schedule multiplier 1), step t = 1, 2, ...:
 *       m = β1 m + (1 − β1) g;   v = β2 v + (1 − β2) g²
 *       w −= lr · (m / (1 − β1^t)) / (√(v / (1 − β2^t)) + ε)  +  lr · λ · w
 *     the decay uses w before this step's update, as torch.optim.AdamW does (it multiplies w by
 *     1 − lr·λ first). λ = 0 is plain Adam. β1 = 0.9, β2 = 0.999, ε = 1e-8 (PyTorch's defaults).
 *   SGD with momentum μ (torch.optim.SGD's form, dampening 0) and decoupled decay λ:
 *       buf = μ buf + g  (buf = g at the first step);  w −= lr · buf + lr · λ · w
 *   Clipping (torch.nn.utils.clip_grad_norm_): norm = ‖g‖₂ over every parameter (in double);
 *   when norm > clip, g *= clip / norm. clip <= 0 disables it.
 * The decay applies to every parameter (biases and embeddings included): simple and documented;
 * the dates models train without it.
 *
 * Deliberately not here: schedules (the caller sets lr per step), parameter groups.
 */
#ifndef AL_MODELS_OPTIM_H
#define AL_MODELS_OPTIM_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

#define AL_ADAM_BETA1 0.9f
#define AL_ADAM_BETA2 0.999f
#define AL_ADAM_EPS 1e-8f

/* ‖g [n]‖₂ (summed in double); scales g to norm clip when clip > 0 and the norm exceeds it.
 * Returns the norm before clipping. */
double al_optim_clip(float *g, size_t n, float clip);

/* One Adam(W) step t >= 1 on w [n] from g [n] with moments m, v [n] (zero before step 1). */
void al_optim_adam(float *w, const float *g, float *m, float *v, size_t n, float lr,
                   float weight_decay, long t);

/* One SGD step on w [n] from g [n]; buf [n] the momentum buffer (unused when momentum == 0);
 * t >= 1 the step (the first step sets buf = g). */
void al_optim_sgd(float *w, const float *g, float *buf, size_t n, float lr, float momentum,
                  float weight_decay, long t);

/*
 * Seeded initialisation shared by every architecture: one splitmix64 stream (the same sequence
 * on every host), so the same seed gives the same weights everywhere.
 *   al_rng_seed      the stream's start for a seed (0x243F6A8885A308D3 ^ seed·0x9E3779B97F4A7C15)
 *   al_rng_uniform   [0, 1) with 53 bits
 *   al_rng_normal    w [n] ~ N(0, 1) by Box-Muller, both values of each pair used (nn.Embedding)
 *   al_rng_bounded   w [n] ~ U(−bound, bound) (nn.Linear, nn.LSTM: bound = 1/√fan)
 */
typedef struct {
    unsigned long long x;
} al_rng;
void al_rng_seed(al_rng *r, unsigned int seed);
double al_rng_uniform(al_rng *r);
void al_rng_normal(al_rng *r, float *w, long n);
void al_rng_bounded(al_rng *r, float *w, long n, double bound);

/*
 * The initialisation loop every architecture shares: one al_rng stream from seed, walked over
 * the tensors of list in order (weights [every tensor's floats, in list order]); rule says how
 * tensor k (t = &list->t[k]) of the architecture impl starts:
 *   AL_INIT_NORMAL   N(0, 1)                 al_rng_normal
 *   AL_INIT_UNIFORM  U(−value, value)        al_rng_bounded
 *   AL_INIT_CONST    every element = value   (draws nothing from the stream)
 */
enum { AL_INIT_NORMAL = 0, AL_INIT_UNIFORM = 1, AL_INIT_CONST = 2 };
typedef struct {
    int kind;     /* AL_INIT_* */
    double value; /* the bound, or the constant */
} al_init;
typedef al_init (*al_init_rule)(const al_tensor_spec *t, int k, const void *impl);
void al_init_weights(const al_tensor_list *list, const void *impl, float *weights, uint32_t seed,
                     al_init_rule rule);

#endif /* AL_MODELS_OPTIM_H */
