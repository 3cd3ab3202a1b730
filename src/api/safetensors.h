/* api/safetensors.h: (in progress) */
#ifndef AL_API_SAFETENSORS_H
#define AL_API_SAFETENSORS_H

#include "../attnlab.h"

#endif
