// The transformer layers against the SIMD128 build (attnlab.wasm).
import { runTransformerLayersSuite } from './transformer-layers-suite.js';

runTransformerLayersSuite({ simd: true });
