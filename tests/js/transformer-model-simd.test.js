// The transformer architecture against PyTorch, the SIMD128 build (see transformer-model-suite.js).
import { runTransformerModelSuite } from './transformer-model-suite.js';

runTransformerModelSuite({ simd: true });
