// The transformer layers against the scalar build (attnlab-scalar.wasm).
import { runTransformerLayersSuite } from './transformer-layers-suite.js';

runTransformerLayersSuite({ simd: false });
