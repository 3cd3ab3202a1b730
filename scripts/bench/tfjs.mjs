// scripts/bench/tfjs.mjs: TensorFlow.js with its wasm backend, loaded once per bench process for
// every tfjs row (the op rows of contenders.mjs and the train:<preset> rows of train.mjs), from
// one bundle: tfjs-core, its gradients and tfjs-backend-wasm (scripts/bench/tfjs-entry.mjs, built
// by esbuild into build/bench/tfjs.cjs when missing or older than the entry or tfjs-core's
// package.json). Why a bundle: in Node, '@tensorflow/tfjs-core' resolves to its CJS build, which
// registers no gradients, and two copies of tfjs in one process share one global engine and
// kernel registry (each registering every kernel again). One thread, the SIMD wasm when the
// engine supports it, wasm files from node_modules.
//
//   const { tf, info } = await loadTfjs();   // info: { version, simd, threads }

import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let loading = null;

async function bundle() {
  const out = path.join(ROOT, 'build/bench/tfjs.cjs');
  const entry = path.join(ROOT, 'scripts/bench/tfjs-entry.mjs');
  const newer = (f) => statSync(f).mtimeMs > statSync(out).mtimeMs;
  const core = path.join(ROOT, 'node_modules/@tensorflow/tfjs-core/package.json');
  if (!existsSync(out) || newer(entry) || newer(core)) {
    const esbuild = await import('esbuild');
    await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      mainFields: ['module', 'main'], // tfjs-core's ESM build, with its gradients
      outfile: out,
      logLevel: 'warning',
    });
  }
  return (await import(pathToFileURL(out).href)).default;
}

/** tfjs-core (gradients registered) on the wasm backend, one thread: { tf, info }. */
export function loadTfjs() {
  loading ??= (async () => {
    const { tf, wasm } = await bundle();
    wasm.setWasmPaths(path.join(ROOT, 'node_modules/@tensorflow/tfjs-backend-wasm/dist') + path.sep);
    wasm.setThreadsCount(1);
    if (!(await tf.setBackend('wasm'))) throw new Error('setBackend("wasm") failed');
    await tf.ready();
    const info = {
      version: wasm.version_wasm,
      simd: tf.env().getBool('WASM_HAS_SIMD_SUPPORT'),
      threads: tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT') ? 'multi' : 1,
    };
    return { tf, info };
  })();
  return loading;
}
