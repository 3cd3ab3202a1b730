// The transformer attention family against the SIMD128 build (attnlab.wasm).
import { runTransformerAttentionSuite } from './transformer-attention-suite.js';

runTransformerAttentionSuite({ simd: true });
