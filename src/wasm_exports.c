/*
 * wasm_exports.c: the only C file that knows it runs inside WebAssembly.
 *
 * The exported symbols are the functions of attnlab.h, named explicitly in the Makefile's
 * WASM_EXPORTS list (no EMSCRIPTEN_KEEPALIVE scattered through the library). What lives here is
 * what only the wasm build needs: a version string the JS glue checks against its own, and the
 * size of linear memory for the leak tests.
 */
#include <emscripten.h>

#include "attnlab.h"

/* Bumped with any change to an exported signature; wasm/index.js refuses a mismatched module. */
int al_abi_version(void) { return 1; }

/* Current linear memory size in bytes. */
unsigned al_memory_bytes(void) { return (unsigned)__builtin_wasm_memory_size(0) * 65536u; }
