/*
 * embedding.c: embedding lookup (torch.nn.Embedding) and its scatter-add backward.
 *
 * The ids are data a caller (or a tokenizer, or a file) can get wrong, so the forward checks each
 * one against the vocabulary size and reports the first bad position instead of reading outside
 * the table.
 */
#include <string.h>

#include "kernels.h"

int al_embedding_forward(float *out, const int32_t *ids, int N, const float *weight, int V, int C)
{
    for (int i = 0; i < N; i++) {
        if (ids[i] < 0 || ids[i] >= V) return i;
        memcpy(out + (long)i * C, weight + (long)ids[i] * C, sizeof(float) * (size_t)C);
    }
    return -1;
}

void al_embedding_backward(float *dweight, const int32_t *ids, int N, const float *dout, int C)
{
    /* out[i] = weight[ids[i]]  →  dweight[ids[i]] += dout[i] (repeated ids add up) */
    for (int i = 0; i < N; i++) {
        float *row = dweight + (long)ids[i] * C;
        const float *g = dout + (long)i * C;
        for (int c = 0; c < C; c++) row[c] += g[c];
    }
}
