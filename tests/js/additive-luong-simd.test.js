// The additive_luong family against the SIMD128 build (attnlab.wasm).
import { runAdditiveLuongSuite } from './additive-luong-suite.js';

runAdditiveLuongSuite({ simd: true });
