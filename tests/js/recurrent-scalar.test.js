// The recurrent ops against the scalar build (attnlab-scalar.wasm).
import { runRecurrentSuite } from './recurrent-suite.js';

runRecurrentSuite({ simd: false });
