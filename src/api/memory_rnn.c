/*
 * api/memory_rnn.c: validated, batched entry points of api/memory_rnn.h over the kernels of
 * kernels/memory_rnn.h. Checks what a caller can get wrong (NULL arrays, sizes < 1, an unknown
 * align, sizes past 2^31 bytes), allocates the kernels' saved/scratch buffers with al_malloc
 * (freed on every path) and loops over the batch. No maths here.
 */
#include <string.h>

#include "../kernels/memory_rnn.h"
#include "memory_rnn.h"
#include "../toolbox.h"

static al_status sarnn_check(const float *x, const float *A, const float *b, const float *Wk,
                             const float *Wq, const float *v, int B, int T, int in, int H, int da,
                             int align)
{
    if (!x || !A || !b || !Wk || !Wq) return AL_ERR_ARGUMENT;
    if (align != AL_MEMRNN_ADDITIVE && align != AL_MEMRNN_DOT) return AL_ERR_ARGUMENT;
    if (align == AL_MEMRNN_ADDITIVE && !v) return AL_ERR_ARGUMENT;
    if (B < 1 || T < 1 || in < 1 || H < 1 || da < 1) return AL_ERR_SHAPE;
    /* the last factor 4: these limits are on bytes (float32s), every tensor and buffer < 2^31 */
    if (!al_count_ok(B, T, in, 4) || !al_count_ok(B, T, H, 4) || !al_count_ok(B, T, T, 4) ||
        !al_count_ok(H, (double)in + H, 1, 4) || !al_count_ok(da, H, 1, 4) ||
        !al_count_ok(T, (double)H + 2.0 * da, 1, 4) ||
        !al_count_ok(1, (double)T * H + 2.0 * T * da + H + 2.0 * T, 1, 4) ||
        !al_count_ok(2, T, (double)T + H, 4))
        return AL_ERR_OVERFLOW;
    return AL_OK;
}

al_status al_self_attention_rnn_forward(float *h, float *weights, const float *x, const float *A,
                                        const float *b, const float *W_key, const float *W_query,
                                        const float *v, int B, int T, int in, int H, int da,
                                        int align)
{
    if (!h || !weights) return AL_ERR_ARGUMENT;
    al_status st = sarnn_check(x, A, b, W_key, W_query, v, B, T, in, H, da, align);
    if (st != AL_OK) return st;
    size_t ns = al_sarnn_saved_floats(T, H, da), nw = al_sarnn_scratch_floats(T, H, da);
    float *buf = al_alloc_floats((double)(ns + nw), NULL);
    if (!buf) return AL_ERR_NOMEM;
    for (int s = 0; s < B; s++)
        al_sarnn_seq_forward(h + (size_t)s * T * H, weights + (size_t)s * T * T, buf, buf + ns,
                             x + (size_t)s * T * in, A, b, W_key, W_query, v, T, in, H, da, align);
    al_free(buf);
    return AL_OK;
}

al_status al_self_attention_rnn_backward(float *dx, float *dA, float *db, float *dW_key,
                                         float *dW_query, float *dv, const float *dh,
                                         const float *dweights, const float *x, const float *A,
                                         const float *b, const float *W_key, const float *W_query,
                                         const float *v, int B, int T, int in, int H, int da,
                                         int align)
{
    if (!dx || !dA || !db || !dW_key || !dW_query) return AL_ERR_ARGUMENT;
    if (align == AL_MEMRNN_ADDITIVE && !dv) return AL_ERR_ARGUMENT;
    al_status st = sarnn_check(x, A, b, W_key, W_query, v, B, T, in, H, da, align);
    if (st != AL_OK) return st;
    /* one sequence's forward outputs h [T,H], weights [T,T], saved, then scratch */
    size_t nh = (size_t)T * H, nw = (size_t)T * T, ns = al_sarnn_saved_floats(T, H, da);
    size_t nx = al_sarnn_scratch_floats(T, H, da);
    float *buf = al_alloc_floats((double)(nh + nw + ns + nx), NULL);
    if (!buf) return AL_ERR_NOMEM;
    float *h = buf, *w = h + nh, *saved = w + nw, *scratch = saved + ns;
    for (int s = 0; s < B; s++) {
        const float *xs = x + (size_t)s * T * in;
        al_sarnn_seq_forward(h, w, saved, scratch, xs, A, b, W_key, W_query, v, T, in, H, da,
                             align);
        al_sarnn_seq_backward(dx + (size_t)s * T * in, dA, db, dW_key, dW_query,
                              align == AL_MEMRNN_ADDITIVE ? dv : NULL,
                              dh ? dh + (size_t)s * T * H : NULL,
                              dweights ? dweights + (size_t)s * T * T : NULL, h, w, saved, scratch,
                              xs, A, W_key, W_query, v, T, in, H, da, align);
    }
    al_free(buf);
    return AL_OK;
}

static al_status lstmn_check(const float *x, const float *W_h, const float *W_x, const float *W_ht,
                             const float *v, const float *W, const float *b, int B, int T, int in,
                             int H)
{
    if (!x || !W_h || !W_x || !W_ht || !v || !W || !b) return AL_ERR_ARGUMENT;
    if (B < 1 || T < 1 || in < 1 || H < 1) return AL_ERR_SHAPE;
    if (!al_count_ok(B, T, in, 4) || !al_count_ok(B, T, H, 4) || !al_count_ok(B, T, T, 4) ||
        !al_count_ok(4.0 * H, (double)H + in, 1, 4) ||
        !al_count_ok(1, 3.0 * T * H + (double)T * T + 9.0 * T * H + 8.0 * T * H + 3.0 * H + 2.0 * T,
                     1, 4))
        return AL_ERR_OVERFLOW;
    return AL_OK;
}

al_status al_lstmn_forward(float *h, float *c, float *weights, const float *x, const float *W_h,
                           const float *W_x, const float *W_ht, const float *v, const float *W,
                           const float *b, int B, int T, int in, int H)
{
    if (!h || !c || !weights) return AL_ERR_ARGUMENT;
    al_status st = lstmn_check(x, W_h, W_x, W_ht, v, W, b, B, T, in, H);
    if (st != AL_OK) return st;
    size_t ns = al_lstmn_saved_floats(T, H), nx = al_lstmn_scratch_floats(T, H);
    float *buf = al_alloc_floats((double)(ns + nx), NULL);
    if (!buf) return AL_ERR_NOMEM;
    for (int s = 0; s < B; s++) {
        size_t o = (size_t)s * T * H;
        al_lstmn_seq_forward(h + o, c + o, weights + (size_t)s * T * T, buf, buf + ns,
                             x + (size_t)s * T * in, W_h, W_x, W_ht, v, W, b, T, in, H);
    }
    al_free(buf);
    return AL_OK;
}

al_status al_lstmn_backward(float *dx, float *dW_h, float *dW_x, float *dW_ht, float *dv, float *dW,
                            float *db, const float *dh, const float *dc, const float *dweights,
                            const float *x, const float *W_h, const float *W_x, const float *W_ht,
                            const float *v, const float *W, const float *b, int B, int T, int in,
                            int H)
{
    if (!dx || !dW_h || !dW_x || !dW_ht || !dv || !dW || !db) return AL_ERR_ARGUMENT;
    al_status st = lstmn_check(x, W_h, W_x, W_ht, v, W, b, B, T, in, H);
    if (st != AL_OK) return st;
    size_t nh = (size_t)T * H, nw = (size_t)T * T, ns = al_lstmn_saved_floats(T, H);
    size_t nx = al_lstmn_scratch_floats(T, H);
    float *buf = al_alloc_floats((double)(2 * nh + nw + ns + nx), NULL);
    if (!buf) return AL_ERR_NOMEM;
    float *h = buf, *c = h + nh, *w = c + nh, *saved = w + nw, *scratch = saved + ns;
    for (int s = 0; s < B; s++) {
        size_t o = (size_t)s * T * H;
        const float *xs = x + (size_t)s * T * in;
        al_lstmn_seq_forward(h, c, w, saved, scratch, xs, W_h, W_x, W_ht, v, W, b, T, in, H);
        al_lstmn_seq_backward(dx + (size_t)s * T * in, dW_h, dW_x, dW_ht, dv, dW, db,
                              dh ? dh + o : NULL, dc ? dc + o : NULL,
                              dweights ? dweights + (size_t)s * T * T : NULL, h, c, w, saved,
                              scratch, xs, W_h, W_x, W_ht, v, W, T, in, H);
    }
    al_free(buf);
    return AL_OK;
}
