// attnlab/wasm/ops/index.js: the op table, every family of wasm/ops/*.js in one frozen object.
// Each op runs on the default instance (init()) or, called through an instance made by
// createAttnlab(), on that instance's memory (core.js withLib). No loading here.

import * as basic from './basic.js';
import * as sdpa from './sdpa.js';
import * as additiveLuong from './additive-luong.js';
import * as transformerAttention from './transformer-attention.js';
import * as pooling from './pooling.js';
import * as recurrent from './recurrent.js';
import * as memoryRnn from './memory-rnn.js';
import * as transformerLayers from './transformer-layers.js';

/** The op table; every function throws AttnlabError until init() has resolved. */
export const ops = Object.freeze({
  ...basic,
  ...sdpa,
  ...additiveLuong,
  ...transformerAttention,
  ...pooling,
  ...recurrent,
  ...memoryRnn,
  ...transformerLayers,
});
