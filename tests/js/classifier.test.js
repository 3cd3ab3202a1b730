// The classifier architecture against PyTorch, the SIMD128 build (see classifier-suite.js).
import { runClassifierSuite } from './classifier-suite.js';

runClassifierSuite({ simd: true });
