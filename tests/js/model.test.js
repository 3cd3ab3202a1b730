// Whole models against PyTorch, the SIMD128 build (see model-suite.js).
import { runModelSuite } from './model-suite.js';

runModelSuite({ simd: true });
