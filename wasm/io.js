// attnlab/wasm/io.js: reading safetensors files through the C loader (in progress).
import { AttnlabError } from './core.js';

/** Parse safetensors bytes (in progress). */
export function readSafetensors() {
  throw new AttnlabError('readSafetensors: not implemented yet', 'AL_ERR_UNSUPPORTED');
}
