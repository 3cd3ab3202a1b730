// The pooling ops (attentionPooling, contextPooling, structuredSelfAttention) against the scalar
// build (attnlab-scalar.wasm), the one engines without SIMD128 get.
import { runPoolingSuite } from './pooling-suite.js';

runPoolingSuite({ simd: false });
