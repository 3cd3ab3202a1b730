/*
 * models/loss.h: label smoothing, shared by every trainer's cross-entropy (api/train.h
 * al_trainer_set_label_smoothing; Szegedy et al. 2016, used by Vaswani et al. 2017 with ε = 0.1;
 * PyTorch's CrossEntropyLoss(label_smoothing=ε)). A row of V classes with target y trains
 * towards q = (1 − ε)·onehot(y) + ε/V instead of onehot(y):
 *     loss     = −Σ_i q_i log p_i = −log p_y + ε·(z_y − mean_i z_i)   (z: logits or log p)
 *     dlogits  = scale · (p − q) = scale · (p − ε/V) − scale · (1 − ε) at y
 * ε = 0 is the plain cross-entropy bit for bit: the callers add the extra term only when ε > 0,
 * and p − 0 and scale · 1 are exact.
 */
#ifndef AL_MODELS_LOSS_H
#define AL_MODELS_LOSS_H

/* ε·(z[y] − mean z) over z [V], summed in double; 0 when ε = 0. */
static inline double al_smoothing_extra(const float *z, int V, int y, float eps)
{
    if (!(eps > 0.0f)) return 0.0;
    double sum = 0.0;
    for (int i = 0; i < V; i++) sum += z[i];
    return (double)eps * ((double)z[y] - sum / V);
}

#endif /* AL_MODELS_LOSS_H */
