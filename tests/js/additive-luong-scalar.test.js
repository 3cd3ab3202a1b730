// The additive_luong family against the scalar build (attnlab-scalar.wasm).
import { runAdditiveLuongSuite } from './additive-luong-suite.js';

runAdditiveLuongSuite({ simd: false });
