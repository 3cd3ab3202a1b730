/* api/pooling.h: (in progress) */
#ifndef AL_API_POOLING_H
#define AL_API_POOLING_H

#include "../attnlab.h"

#endif
