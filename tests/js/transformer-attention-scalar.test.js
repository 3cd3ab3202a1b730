// The transformer attention family against the scalar build (attnlab-scalar.wasm).
import { runTransformerAttentionSuite } from './transformer-attention-suite.js';

runTransformerAttentionSuite({ simd: false });
