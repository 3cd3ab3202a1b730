// attnlab/wasm/limits.js: the C library's per-call limits (src/api/model.h), the one copy the glue
// keeps; tests/js/limits.test.js checks it against al_model_limit() of every shipped .wasm.

export const ERR_CAP = 256; // AL_MODEL_ERR_CAP: a message buffer this size holds every loader message
export const MAX_SOURCE = 4096; // AL_MODEL_MAX_SOURCE: source tokens per call
export const MAX_STEPS = 1024; // AL_MODEL_MAX_STEPS: output steps per call
export const MAX_BEAM = 32; // AL_MODEL_MAX_BEAM: beam width
