// 1,000 model cycles, scalar build (model-cycles-suite.js).
import { runCycles } from './model-cycles-suite.js';

runCycles({ simd: false });
