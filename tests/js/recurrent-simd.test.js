// The recurrent ops against the SIMD128 build (attnlab.wasm).
import { runRecurrentSuite } from './recurrent-suite.js';

runRecurrentSuite({ simd: true });
