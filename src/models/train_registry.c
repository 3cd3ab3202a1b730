/*
 * models/train_registry.c: which architectures can be trained, and how: one al_model_trainer
 * (models/model.h) per AL_ARCH_* value, from each architecture's *_train.c. Only api/train.c
 * calls al_model_trainer_get, so a link that leaves the training entry points out (the
 * inference .wasm) drops this table and every backward pass behind it.
 */
#include "model.h"
#include "classifier_train.h"
#include "memory_rnn_model.h"
#include "seq2seq_train.h"
#include "transformer_train.h"

static const al_model_trainer TRAINERS[] = {
    [AL_ARCH_SEQ2SEQ] = { al_seq2seq_init_hook, al_seq2seq_example_hook, al_seq2seq_backward_hook,
                          al_seq2seq_batch_hook },
    [AL_ARCH_TRANSFORMER] = { al_transformer_init_hook, al_transformer_example_hook,
                              al_transformer_backward_hook, al_transformer_batch_hook },
    [AL_ARCH_CLASSIFIER] = { al_classifier_init_hook, al_classifier_example_hook,
                             al_classifier_backward_hook, NULL },
    [AL_ARCH_MEMORY_RNN] = { al_memory_rnn_init_hook, al_memory_rnn_example_hook,
                             al_memory_rnn_backward_hook, NULL },
};

const al_model_trainer *al_model_trainer_get(int arch)
{
    if (arch < 0 || arch >= (int)(sizeof TRAINERS / sizeof TRAINERS[0])) return NULL;
    return TRAINERS[arch].init ? &TRAINERS[arch] : NULL;
}
