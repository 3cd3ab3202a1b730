/* api/additive_luong.h: (in progress) */
#ifndef AL_API_ADDITIVE_LUONG_H
#define AL_API_ADDITIVE_LUONG_H

#include "../attnlab.h"

#endif
