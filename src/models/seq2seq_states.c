/*
 * models/seq2seq_states.c: the intermediate states of the seq2seq model (docs/states.md): one
 * teacher-forced pass through the very al_s2s_step the decoding loops use (models/seq2seq.c),
 * copying out what each step computed: the source embeddings, the encoder's keys and the initial
 * state, then per step the query the scores read, the scores before the softmax, the weights,
 * the context, the new decoder state, h̃ (luong) and the log-distribution. Because the step and
 * its kernels are the same, the weights are bit for bit those of al_seq2seq_score (and of greedy
 * decoding, when tgt is the greedy output).
 * Deliberately not here: argument checks and the buffer layout (api/model_states_rnn.c), beam
 * search (its hypotheses share no single state sequence).
 */
#include <string.h>

#include "seq2seq.h"
#include "seq2seq_ctx.h"
#include "../toolbox.h"

static void put(float *dst, const float *src, size_t n)
{
    if (dst) memcpy(dst, src, sizeof(float) * n);
}

al_status al_seq2seq_states(const al_seq2seq *s, const int32_t *src, int S, const int32_t *tgt,
                            int T, const al_s2s_states *o)
{
    for (int t = 0; t < T; t++)
        if (tgt[t] < 0 || tgt[t] >= s->Vt) return AL_ERR_RANGE;
    s2s_ctx c;
    AL_TRY(al_s2s_ctx_open(&c, s, src, S));
    const int H = s->H, dc = s->dc, V = s->Vt, luong = s->style == AL_S2S_LUONG;
    float *w = al_malloc(((size_t)6 * H + V + 2 * (size_t)S) * sizeof(float));
    if (!w) {
        al_s2s_ctx_free(&c);
        return AL_ERR_NOMEM;
    }
    float *st[2] = { w, w + 3 * H };
    float *lp = w + 6 * H, *row = lp + V, *sc = row + S;
    put(o->embedded, c.xs, (size_t)S * s->E);
    put(o->encoder, c.keys, (size_t)S * H);
    put(o->initial, c.init, (size_t)H);
    memcpy(st[0], c.init, sizeof(float) * 3 * (size_t)H);
    for (int t = 0; t < T; t++) {
        const float *in = st[t & 1];
        float *out = st[(t + 1) & 1], p;
        const size_t tH = (size_t)t * H;
        al_s2s_step(&c, in, t ? tgt[t - 1] : s->bos, t, out, lp, row, &p, dc ? sc : NULL);
        if (dc) {
            /* the scores read s_{t−1} (bahdanau, the state before the step) or h_t (luong) */
            put(o->query ? o->query + tH : NULL, luong ? out : in, (size_t)H);
            put(o->scores ? o->scores + (size_t)t * S : NULL, sc, (size_t)S);
            put(o->context ? o->context + (size_t)t * dc : NULL, c.ctx, (size_t)dc);
            /* the state's third part is h̃_t (luong style; zeros for bahdanau) */
            if (luong) put(o->attentional ? o->attentional + tH : NULL, out + 2 * H, (size_t)H);
        }
        put(o->weights ? o->weights + (size_t)t * S : NULL, row, (size_t)S);
        put(o->decoder ? o->decoder + tH : NULL, out, (size_t)H);
        if (o->positions) o->positions[t] = p;
        put(o->logp ? o->logp + (size_t)t * V : NULL, lp, (size_t)V);
    }
    al_free(w);
    al_s2s_ctx_free(&c);
    return AL_OK;
}
