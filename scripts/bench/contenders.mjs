// scripts/bench/contenders.mjs: everything the benchmark races, behind one small interface.
//
//   const c = makeContender(name, ctx);  await c.start();   // throws { skip: 'why' } when absent
//   const variants = await c.prepare(benchCase);              // one or more ways to run the case
//   // each variant: { variant, output: Float32Array, sample(reps) → ms per call, dispose() }
//   await c.stop();
//
// In-process: attnlab SIMD and scalar .wasm instantiated directly (inputs resident in wasm
// memory, only the al_* call timed), attnlab's public JS API (copies in and out per call),
// TensorFlow.js with the wasm (XNNPACK) backend, onnxruntime-web's wasm EP. Child processes,
// driven by a line protocol so their rounds interleave with the rest: the native gcc build
// (scripts/bench/native.c) and PyTorch (scripts/bench/torch_server.py).
// What it deliberately does not do: checking, statistics or scheduling (scripts/bench.mjs).

import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, readFileSync, readdirSync, writeFileSync, statSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { attention23Model, attentionPatternModel, causalBias, matmulModel } from './onnx.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Display order; the first is the baseline every ratio is taken against. */
export const CONTENDERS = [
  { name: 'attnlab-simd', label: 'attnlab SIMD .wasm', kind: 'attnlab' },
  { name: 'attnlab-scalar', label: 'attnlab scalar .wasm', kind: 'attnlab' },
  { name: 'attnlab-api', label: 'attnlab JS API (SIMD, copies per call)', kind: 'attnlab' },
  { name: 'tfjs-wasm', label: 'tfjs-backend-wasm (XNNPACK)', kind: 'peer' },
  { name: 'ort-wasm', label: 'onnxruntime-web (wasm EP)', kind: 'peer' },
  { name: 'native', label: 'native gcc -O3 -march=native', kind: 'ceiling' },
  { name: 'torch', label: 'PyTorch CPU, 1 thread', kind: 'ceiling' },
];

const timeSync = (run) => (reps) => {
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) run();
  return (performance.now() - t0) / reps;
};

const timeAsync = (run) => async (reps) => {
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) await run();
  return (performance.now() - t0) / reps;
};

// ------------------------------------------------------------------ attnlab, direct exports

/** Instantiate an attnlab .wasm ourselves (init() in wasm/index.js is once per process). */
export async function instantiateAttnlab(file) {
  const module = await WebAssembly.compile(readFileSync(file));
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    imports[imp.module] ??= {};
    imports[imp.module][imp.name] = imp.name === 'emscripten_notify_memory_growth'
      ? () => {}
      : () => { throw new Error(`unexpected import ${imp.module}.${imp.name}`); };
  }
  const instance = await WebAssembly.instantiate(module, imports);
  const x = instance.exports;
  if (typeof x._initialize === 'function') x._initialize();
  return x;
}

function directContender(file) {
  let x;
  const copyIn = (data) => {
    const p = x.al_malloc(data.length * 4);
    if (!p) throw new Error('al_malloc failed');
    new Float32Array(x.memory.buffer, p, data.length).set(data); // view built after the malloc
    return p;
  };
  return {
    async start() {
      x = await instantiateAttnlab(file);
      return { simd: x.al_simd() === 1 };
    },
    async prepare(c) {
      const ptrs = [];
      const put = (d) => { const p = copyIn(d); ptrs.push(p); return p; };
      const alloc = (n) => { const p = x.al_malloc(n * 4); if (!p) throw new Error('al_malloc failed'); ptrs.push(p); return p; };
      let run;
      let out;
      let nOut;
      if (c.op === 'matmul') {
        const pa = put(c.inputs.a);
        const pb = put(c.inputs.b);
        out = alloc(c.M * c.N);
        nOut = c.M * c.N;
        run = () => x.al_matmul(out, pa, pb, c.M, c.K, c.N, 0, 0);
      } else {
        const pq = put(c.inputs.q);
        const pk = put(c.inputs.k);
        const pv = put(c.inputs.v);
        nOut = c.B * c.H * c.T * c.Dv;
        out = alloc(nOut);
        const att = c.weights ? alloc(c.B * c.H * c.T * c.S) : 0;
        run = () => x.al_sdpa(out, att, pq, pk, pv, c.B, c.H, c.T, c.S, c.D, c.Dv, 0, 0, c.causal ? 1 : 0);
      }
      const st = run();
      if (st !== 0) throw new Error(`status ${st}`);
      return [{
        variant: 'al_* export, inputs resident',
        output: new Float32Array(x.memory.buffer, out, nOut).slice(),
        sample: timeSync(run),
        dispose() { for (const p of ptrs) x.al_free(p); },
      }];
    },
    async stop() {},
    liveAllocations: () => x.al_alloc_live(),
  };
}

// ------------------------------------------------------------------ attnlab, public JS API

function apiContender() {
  let lib;
  return {
    async start() {
      const { init } = await import('../../wasm/index.js');
      lib = await init();
      if (!lib.simd) throw new Error('the JS API loaded the scalar build');
      return { simd: lib.simd };
    },
    async prepare(c) {
      const { ops } = lib;
      let run;
      if (c.op === 'matmul') {
        const A = { data: c.inputs.a, shape: [c.M, c.K] };
        const B = { data: c.inputs.b, shape: [c.K, c.N] };
        run = () => ops.matmul(A, B).data;
      } else {
        const lead = c.H === 1 ? [] : [c.H];
        const Q = { data: c.inputs.q, shape: [...lead, c.T, c.D] };
        const K = { data: c.inputs.k, shape: [...lead, c.S, c.D] };
        const V = { data: c.inputs.v, shape: [...lead, c.S, c.Dv] };
        const o = { causal: c.causal, returnWeights: c.weights };
        run = () => ops.scaledDotProductAttention(Q, K, V, o).output.data;
      }
      return [{ variant: 'ops.* (validates, copies in and out)', output: run(), sample: timeSync(run), dispose() {} }];
    },
    async stop() {},
    liveAllocations: () => lib.liveAllocations(),
  };
}

// ------------------------------------------------------------------ TensorFlow.js, wasm backend

function tfjsContender() {
  let tf;
  return {
    async start() {
      tf = await import('@tensorflow/tfjs-core');
      const wasm = await import('@tensorflow/tfjs-backend-wasm');
      wasm.setWasmPaths(path.join(ROOT, 'node_modules/@tensorflow/tfjs-backend-wasm/dist') + path.sep);
      wasm.setThreadsCount(1);
      if (!(await tf.setBackend('wasm'))) throw new Error('setBackend("wasm") failed');
      await tf.ready();
      return {
        version: wasm.version_wasm,
        simd: tf.env().getBool('WASM_HAS_SIMD_SUPPORT'),
        threads: tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT') ? 'multi' : 1,
      };
    },
    async prepare(c) {
      const keep = [];
      const T = (data, shape) => { const t = tf.tensor(data, shape, 'float32'); keep.push(t); return t; };
      const variants = [];
      // fn returns the output tensors; dataSync() makes sure the work is done and read back
      const mk = (variant, fn) => {
        const run = () => {
          const outs = tf.tidy(fn);
          const list = Array.isArray(outs) ? outs : [outs];
          const data = list.map((o) => o.dataSync());
          for (const o of list) o.dispose();
          return data;
        };
        const data = run();
        // per-head variants return [o_0, (p_0), o_1, ...]; the output is the o's, concatenated
        const step = c.weights ? 2 : 1;
        const parts = data.filter((_, i) => i % step === 0);
        const output = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
        let off = 0;
        for (const p of parts) { output.set(p, off); off += p.length; }
        variants.push({ variant, output, sample: timeSync(run), dispose() {} });
      };
      if (c.op === 'matmul') {
        const a = T(c.inputs.a, [c.M, c.K]);
        const b = T(c.inputs.b, [c.K, c.N]);
        mk('tf.matMul', () => tf.matMul(a, b));
      } else {
        const { H, T: L, S, D, Dv } = c;
        const q = T(c.inputs.q, [H, L, D]);
        const k = T(c.inputs.k, [H, S, D]);
        const v = T(c.inputs.v, [H, S, Dv]);
        const bias = c.causal ? T(causalBias(L, S), [L, S]) : null;
        const head = (qh, kh, vh, transposeB) => {
          const qs = tf.mul(qh, c.scale);
          const e0 = transposeB ? tf.matMul(qs, kh, false, true) : tf.matMul(qs, tf.transpose(kh, kh.rank === 3 ? [0, 2, 1] : [1, 0]));
          const e = bias ? tf.add(e0, bias) : e0;
          const p = tf.softmax(e);
          const o = tf.matMul(p, vh);
          return c.weights ? [o, p] : [o];
        };
        mk('batched: transpose(K) then matMul', () => head(q, k, v, false));
        const qh = []; const kh = []; const vh = [];
        for (let h = 0; h < H; h++) {
          qh.push(T(c.inputs.q.subarray(h * L * D, (h + 1) * L * D), [L, D]));
          kh.push(T(c.inputs.k.subarray(h * S * D, (h + 1) * S * D), [S, D]));
          vh.push(T(c.inputs.v.subarray(h * S * Dv, (h + 1) * S * Dv), [S, Dv]));
        }
        mk('per head: transpose(K) then matMul', () => qh.flatMap((_, h) => head(qh[h], kh[h], vh[h], false)));
        mk('per head: matMul(transposeB)', () => qh.flatMap((_, h) => head(qh[h], kh[h], vh[h], true)));
      }
      // the variants share the input tensors: free them when the last variant is disposed
      let refs = variants.length;
      for (const vt of variants) vt.dispose = () => { if (--refs === 0) for (const t of keep) t.dispose(); };
      return variants;
    },
    async stop() {},
  };
}

// ------------------------------------------------------------------ onnxruntime-web, wasm EP

function ortContender() {
  let ort;
  const sessionOptions = { executionProviders: ['wasm'], graphOptimizationLevel: 'all', intraOpNumThreads: 1, interOpNumThreads: 1 };
  return {
    async start() {
      ort = await import('onnxruntime-web');
      ort.env.wasm.numThreads = 1;
      ort.env.wasm.simd = true;
      ort.env.wasm.wasmPaths = path.join(ROOT, 'node_modules/onnxruntime-web/dist') + path.sep;
      ort.env.logLevel = 'error';
      return { version: ort.env.versions?.web ?? 'unknown', threads: 1 };
    },
    async prepare(c) {
      const variants = [];
      const errors = [];
      const tensor = (data, dims) => new ort.Tensor('float32', data, dims);
      const mk = async (variant, model, feeds, outName) => {
        let session;
        try {
          session = await ort.InferenceSession.create(model, sessionOptions);
          const first = await session.run(feeds);
          const run = () => session.run(feeds);
          variants.push({ variant, output: Float32Array.from(first[outName].data), sample: timeAsync(run), dispose: () => session.release() });
        } catch (e) {
          errors.push(`${variant}: ${e.message ?? e}`);
          if (session) await session.release();
        }
      };
      if (c.op === 'matmul') {
        const a = tensor(c.inputs.a, [c.M, c.K]);
        await mk('MatMul, b an initializer (pre-packed)', matmulModel(c.M, c.K, c.N, c.inputs.b), { a }, 'c');
        await mk('MatMul, b an input', matmulModel(c.M, c.K, c.N), { a, b: tensor(c.inputs.b, [c.K, c.N]) }, 'c');
      } else {
        const feeds = {
          q: tensor(c.inputs.q, [c.B, c.H, c.T, c.D]),
          k: tensor(c.inputs.k, [c.B, c.H, c.S, c.D]),
          v: tensor(c.inputs.v, [c.B, c.H, c.S, c.Dv]),
        };
        if (!c.weights) await mk('Attention (opset 23)', attention23Model(c), feeds, 'out');
        await mk('MatMul+Softmax+MatMul (Transpose K)', attentionPatternModel(c), feeds, 'out');
      }
      if (variants.length === 0) throw new Error(errors.join('; '));
      for (const v of variants) v.notes = errors;
      return variants;
    },
    async stop() {},
  };
}

// ------------------------------------------------------------------ child-process contenders

/** A child process speaking the line protocol of native.c / torch_server.py. */
class LineServer {
  constructor(cmd, args) {
    this.proc = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.waiting = [];
    this.stderr = '';
    this.proc.stderr.on('data', (d) => { this.stderr += d; });
    createInterface({ input: this.proc.stdout }).on('line', (line) => {
      const w = this.waiting.shift();
      if (!w) return;
      try {
        const r = JSON.parse(line);
        if (r.error) w.reject(new Error(r.error));
        else w.resolve(r);
      } catch {
        w.reject(new Error(`bad reply: ${line}`));
      }
    });
    this.proc.on('exit', (code) => {
      for (const w of this.waiting.splice(0)) w.reject(new Error(`child exited (${code}): ${this.stderr.slice(-400)}`));
      this.dead = true;
    });
  }

  request(line) {
    if (this.dead) return Promise.reject(new Error(`child is gone: ${this.stderr.slice(-400)}`));
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.proc.stdin.write(line + '\n');
    });
  }

  async stop() {
    if (this.dead) return;
    const done = new Promise((r) => this.proc.once('exit', r));
    this.proc.stdin.end('quit\n');
    await done;
  }
}

function serverContender(name, startServer, variantName) {
  let server;
  return {
    async start(ctx) {
      const { cmd, args, info } = await startServer(ctx);
      server = new LineServer(cmd, args);
      try {
        return { ...info, ...(await server.request('hello 0')) }; // the child answers once it has loaded
      } catch (e) {
        throw Object.assign(e, { skip: `${variantName.split(' ')[0]} did not start: ${e.message.slice(0, 200)}` });
      }
    },
    async prepare(c, ctx) {
      const inFile = ctx.inputFile(c);
      const outFile = path.join(ctx.tmp, `case-${c.id}.${name}.out.bin`);
      const line = c.op === 'matmul'
        ? `matmul ${c.id} ${c.M} ${c.K} ${c.N} ${inFile} ${outFile}`
        : `sdpa ${c.id} ${c.B} ${c.H} ${c.T} ${c.S} ${c.D} ${c.Dv} ${c.causal ? 1 : 0} ${c.weights ? 1 : 0} ${inFile} ${outFile}`;
      await server.request(line);
      const b = readFileSync(outFile);
      return [{
        variant: variantName,
        output: new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4).slice(),
        sample: async (reps) => (await server.request(`time ${c.id} ${reps}`)).ms,
        dispose: () => server.request(`free ${c.id}`).catch(() => {}),
      }];
    },
    async stop() { if (server) await server.stop(); },
  };
}

/** The sources the Makefile's LIB_SRC names, found the same way. */
export function libSources() {
  const dirs = ['src/kernels', 'src/api', 'src/io', 'src/models'];
  const files = ['src/alloc.c', 'src/ops.c'];
  for (const d of dirs) {
    const abs = path.join(ROOT, d);
    if (!existsSync(abs)) continue;
    for (const f of readdirSync(abs).sort()) if (f.endsWith('.c')) files.push(`${d}/${f}`);
  }
  return files;
}

export const NATIVE_FLAGS = ['-std=c99', '-O3', '-march=native', '-Isrc'];
const NATIVE_BIN = path.join(ROOT, 'build/bench/bench_native');

/** Build build/bench/bench_native when missing or older than a source. */
export function buildNative({ force = false } = {}) {
  const which = spawnSync('sh', ['-c', 'command -v gcc'], { encoding: 'utf8' });
  if (which.status !== 0) throw Object.assign(new Error('gcc not found'), { skip: 'gcc not installed' });
  const srcs = ['scripts/bench/native.c', ...libSources()];
  const hdrs = ['src/attnlab.h', ...['src/kernels', 'src/api', 'src/io', 'src/models'].flatMap((d) =>
    (existsSync(path.join(ROOT, d)) ? readdirSync(path.join(ROOT, d)).filter((f) => f.endsWith('.h')).map((f) => `${d}/${f}`) : []))];
  const binTime = existsSync(NATIVE_BIN) ? statSync(NATIVE_BIN).mtimeMs : 0;
  const stale = force || [...srcs, ...hdrs].some((f) => statSync(path.join(ROOT, f)).mtimeMs > binTime);
  const cmd = ['gcc', ...NATIVE_FLAGS, ...srcs, '-lm', '-o', 'build/bench/bench_native'];
  if (stale) {
    mkdirSync(path.dirname(NATIVE_BIN), { recursive: true });
    const r = spawnSync(cmd[0], cmd.slice(1), { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw Object.assign(new Error(`native build failed:\n${r.stderr.slice(-2000)}`), { skip: 'the native build failed (see the log)' });
  }
  const cc = spawnSync('gcc', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
  return { bin: NATIVE_BIN, command: cmd.join(' '), compiler: cc };
}

function nativeContender() {
  return serverContender('native', async () => {
    const { bin, command, compiler } = buildNative();
    return { cmd: bin, args: ['serve'], info: { compiler, command } };
  }, 'al_* export, gcc -O3 -march=native (SSE twins)');
}

function torchContender() {
  return serverContender('torch', async (ctx) => {
    const py = ctx.python ?? '/usr/bin/python3';
    if (!existsSync(py)) throw Object.assign(new Error('no python'), { skip: `${py} not found` });
    return { cmd: py, args: [path.join(ROOT, 'scripts/bench/torch_server.py')], info: { python: py, threads: 1 } };
  }, 'torch.mm / matmul+softmax+matmul');
}

export function makeContender(name) {
  switch (name) {
    case 'attnlab-simd': return directContender(path.join(ROOT, 'wasm/attnlab.wasm'));
    case 'attnlab-scalar': return directContender(path.join(ROOT, 'wasm/attnlab-scalar.wasm'));
    case 'attnlab-api': return apiContender();
    case 'tfjs-wasm': return tfjsContender();
    case 'ort-wasm': return ortContender();
    case 'native': return nativeContender();
    case 'torch': return torchContender();
    default: throw new Error(`unknown contender ${name}`);
  }
}

/** Write a case's inputs once, concatenated float32, for the child-process contenders. */
export function writeInputs(dir, c) {
  const file = path.join(dir, `case-${c.id}.in.bin`);
  if (!existsSync(file)) {
    const parts = Object.values(c.inputs);
    const all = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    let off = 0;
    for (const p of parts) { all.set(p, off); off += p.length; }
    writeFileSync(file, new Uint8Array(all.buffer));
  }
  return file;
}
