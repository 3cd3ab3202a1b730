// scripts/bench/tfjs-entry.mjs: the entry point of the TensorFlow.js bundle every tfjs-wasm row of
// the bench runs (scripts/bench/tfjs.mjs bundles it with esbuild into build/bench/tfjs.cjs). Why
// a bundle: in Node, '@tensorflow/tfjs-core' resolves to its CJS build, which registers no
// gradients (the union package @tensorflow/tfjs imports register_all_gradients; it is not a
// dependency here), and the ESM files of tfjs-core import without extensions, which Node cannot
// resolve. Bundled, as a web page's bundler would, core, its gradients and the wasm backend share
// one engine.
export * as tf from '@tensorflow/tfjs-core/dist/index.js';
import '@tensorflow/tfjs-core/dist/register_all_gradients.js';
export * as wasm from '@tensorflow/tfjs-backend-wasm/dist/index.js';
