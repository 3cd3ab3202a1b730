// The transformer architecture against PyTorch, the scalar build (see transformer-model-suite.js).
import { runTransformerModelSuite } from './transformer-model-suite.js';

runTransformerModelSuite({ simd: false });
