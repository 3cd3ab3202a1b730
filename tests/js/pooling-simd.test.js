// The pooling ops (attentionPooling, contextPooling, structuredSelfAttention) against the SIMD128
// build (attnlab.wasm).
import { runPoolingSuite } from './pooling-suite.js';

runPoolingSuite({ simd: true });
