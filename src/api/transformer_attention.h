/* api/transformer_attention.h: (in progress) */
#ifndef AL_API_TRANSFORMER_ATTENTION_H
#define AL_API_TRANSFORMER_ATTENTION_H

#include "../attnlab.h"

#endif
