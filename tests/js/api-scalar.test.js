// The JS API against the scalar build (attnlab-scalar.wasm), the one engines without SIMD128 get.
import { runApiSuite } from './api-suite.js';

runApiSuite({ simd: false });
