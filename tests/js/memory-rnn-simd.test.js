// The memory-RNN family against the SIMD128 build (attnlab.wasm).
import { runMemoryRnnSuite } from './memory-rnn-suite.js';

runMemoryRnnSuite({ simd: true });
