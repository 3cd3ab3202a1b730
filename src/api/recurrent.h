/* api/recurrent.h: (in progress) */
#ifndef AL_API_RECURRENT_H
#define AL_API_RECURRENT_H

#include "../attnlab.h"

#endif
