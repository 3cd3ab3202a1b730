// Whole models against PyTorch, the scalar build (see model-suite.js).
import { runModelSuite } from './model-suite.js';

runModelSuite({ simd: false });
