// 1,000 model cycles, SIMD build (model-cycles-suite.js).
import { runCycles } from './model-cycles-suite.js';

runCycles({ simd: true });
