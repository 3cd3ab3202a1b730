// scripts/bench/startup.mjs: one start-up measurement, run in a fresh child process per sample so
// the libraries do not share (or pollute) each other's heap:
//
//   node scripts/bench/startup.mjs attnlab|tfjs-wasm|ort-wasm   → one JSON line
//
// loadMs: importing the JS; readyMs: fetch + compile + instantiate of the .wasm until the library
// can run an op (attnlab init(), tfjs setBackend('wasm') + ready(), onnxruntime-web's first
// InferenceSession.create of a 1-node MatMul model); firstOpMs: the first tiny op after that;
// rssMB: process.memoryUsage().rss growth from before the import to after the first op.
import path from 'node:path';
import { ROOT } from './contenders.mjs';
import { matmulModel } from './onnx.mjs';

const which = process.argv[2];
const rss0 = process.memoryUsage().rss;
const t0 = performance.now();
let t1;
let t2;
let t3;
if (which === 'attnlab') {
  const al = await import('../../wasm/index.js');
  t1 = performance.now();
  const lib = await al.init();
  t2 = performance.now();
  lib.ops.matmul([[1, 2]], [[3], [4]]);
  t3 = performance.now();
} else if (which === 'tfjs-wasm') {
  const tf = await import('@tensorflow/tfjs-core');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  t1 = performance.now();
  wasm.setWasmPaths(path.join(ROOT, 'node_modules/@tensorflow/tfjs-backend-wasm/dist') + path.sep);
  wasm.setThreadsCount(1);
  await tf.setBackend('wasm');
  await tf.ready();
  t2 = performance.now();
  tf.matMul(tf.tensor2d([[1, 2]]), tf.tensor2d([[3], [4]])).dataSync();
  t3 = performance.now();
} else if (which === 'ort-wasm') {
  const ort = await import('onnxruntime-web');
  t1 = performance.now();
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = path.join(ROOT, 'node_modules/onnxruntime-web/dist') + path.sep;
  const s = await ort.InferenceSession.create(matmulModel(1, 2, 1), { executionProviders: ['wasm'] });
  t2 = performance.now();
  await s.run({ a: new ort.Tensor('float32', new Float32Array([1, 2]), [1, 2]), b: new ort.Tensor('float32', new Float32Array([3, 4]), [2, 1]) });
  t3 = performance.now();
} else {
  console.error('usage: node scripts/bench/startup.mjs attnlab|tfjs-wasm|ort-wasm');
  process.exit(2);
}
const rss1 = process.memoryUsage().rss;
process.stdout.write(JSON.stringify({ which, loadMs: t1 - t0, readyMs: t2 - t1, firstOpMs: t3 - t2, rssMB: (rss1 - rss0) / 2 ** 20 }) + '\n');
