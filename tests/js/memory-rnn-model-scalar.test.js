// The memory-rnn architecture against PyTorch, the scalar build (see memory-rnn-model-suite.js).
import { runMemoryRnnModelSuite } from './memory-rnn-model-suite.js';

runMemoryRnnModelSuite({ simd: false });
