// The classifier architecture against PyTorch, the scalar build (see classifier-suite.js).
import { runClassifierSuite } from './classifier-suite.js';

runClassifierSuite({ simd: false });
