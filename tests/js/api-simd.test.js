// The JS API against the SIMD128 build (attnlab.wasm).
import { runApiSuite } from './api-suite.js';

runApiSuite({ simd: true });
