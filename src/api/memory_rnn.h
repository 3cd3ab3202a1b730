/* api/memory_rnn.h: (in progress) */
#ifndef AL_API_MEMORY_RNN_H
#define AL_API_MEMORY_RNN_H

#include "../attnlab.h"

#endif
