// The memory-rnn architecture against PyTorch, the SIMD128 build (see memory-rnn-model-suite.js).
import { runMemoryRnnModelSuite } from './memory-rnn-model-suite.js';

runMemoryRnnModelSuite({ simd: true });
