// The memory-RNN family against the scalar build (attnlab-scalar.wasm).
import { runMemoryRnnSuite } from './memory-rnn-suite.js';

runMemoryRnnSuite({ simd: false });
