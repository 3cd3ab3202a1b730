// scripts/bench/contenders.mjs: everything the benchmark races, behind one small interface.
//
//   const c = makeContender(name, ctx);  await c.start();   // throws { skip: 'why' } when absent
//   const variants = await c.prepare(benchCase);              // one or more ways to run the case
//   // each variant: { variant, output: Float32Array, sample(reps) → ms per call, dispose() };
//   // shipped-model rows also { discrete: text / label / argmax as a string, tokens: input length }
//   await c.stop();
//
// In-process: attnlab SIMD and scalar .wasm instantiated directly (inputs resident in wasm
// memory, only the al_* call timed), attnlab's public JS API as a caller with fixed weights uses
// it (weights kept resident with prepare(): matmul's b, the LSTM / GRU state_dict; everything else
// copied in and out per call) and as plain calls (every input copied per call),
// TensorFlow.js with the wasm (XNNPACK) backend, onnxruntime-web's wasm EP. The shipped-model
// rows of attnlab SIMD and scalar go through the public JS API on that build, in a worker thread
// each (scripts/bench/api-worker.mjs). Child processes, driven by a line protocol so their rounds
// interleave with the rest: the native gcc build (scripts/bench/native.c) and PyTorch
// (scripts/bench/torch_server.py).
// What it deliberately does not do: checking, statistics or scheduling (scripts/bench.mjs).

import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  additiveModel, attention23Model, attentionPatternModel, causalBias, gruModel, lstmModel, matmulModel, mhaModel, reorderGates,
} from './onnx.mjs';
import { torchEnv } from './blas.mjs';
import { loadTfjs } from './tfjs.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Display order; the first is the baseline every ratio is taken against. */
export const CONTENDERS = [
  { name: 'attnlab-simd', label: 'attnlab SIMD .wasm', kind: 'attnlab' },
  { name: 'attnlab-scalar', label: 'attnlab scalar .wasm', kind: 'attnlab' },
  { name: 'attnlab-api', label: 'attnlab JS API (SIMD; weights resident via prepare(), inputs copied per call)', kind: 'attnlab' },
  { name: 'attnlab-api-plain', label: 'attnlab JS API (SIMD, plain calls: every input copied per call)', kind: 'attnlab' },
  { name: 'tfjs-wasm', label: 'tfjs-backend-wasm (XNNPACK)', kind: 'peer' },
  { name: 'ort-wasm', label: 'onnxruntime-web (wasm EP)', kind: 'peer' },
  { name: 'native', label: 'native gcc -O3 -march=native', kind: 'ceiling' },
  { name: 'torch', label: 'PyTorch CPU, 1 thread, OpenBLAS (scripts/bench/blas.mjs)', kind: 'ceiling' },
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

/** The Adam settings every training row uses (attnlab's defaults: lr 3e-3, global-norm clip 1). */
export const TRAIN_OPTIONS = { optimizer: 'adam', lr: 3e-3, clip: 1 };
const CELL = { lstm: 2, gru: 3 }; // AL_LSTM, AL_GRU

/** scripts/bench/api-worker.mjs on one build: the public JS API, asked by messages. */
class ApiWorker {
  constructor(simd) {
    this.worker = new Worker(new URL('./api-worker.mjs', import.meta.url), { workerData: { simd } });
    this.pending = new Map(); // seq → { resolve, reject }
    this.seq = 0;
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('error', reject);
      this.worker.on('message', (m) => {
        if (m.ready) {
          if (m.simd !== simd) reject(new Error(`the JS API in the worker loaded the ${m.simd ? 'SIMD' : 'scalar'} build`));
          else resolve();
          return;
        }
        const w = this.pending.get(m.seq);
        this.pending.delete(m.seq);
        if (m.error) w.reject(new Error(m.error));
        else w.resolve(m);
      });
    });
    this.worker.on('error', (e) => {
      for (const w of this.pending.values()) w.reject(e);
      this.pending.clear();
    });
  }

  async request(cmd, args) {
    await this.ready;
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      this.worker.postMessage({ seq, cmd, ...args });
    });
  }

  stop() { return this.worker.terminate(); }
}

/** file: the inference build every op row times; trainFile: the training build (the same objects
 * linked with al_trainer_*), used only by the training-step rows; simd: which build the public JS
 * API loads for the shipped-model rows. */
function directContender(file, trainFile, simd) {
  let main;
  let trainer = null;
  let api = null; // the ApiWorker of the shipped-model rows, started by the first one
  let apiLive = 0; // its wasm blocks still allocated, as of the last free
  return {
    async start() {
      main = await instantiateAttnlab(file);
      return { simd: main.al_simd() === 1 };
    },
    async prepare(c) {
      if (c.op === 'shipped') {
        api ??= new ApiWorker(simd);
        const r = await api.request('load', { id: c.id, file: path.join(ROOT, c.model), text: c.text, options: c.runOptions });
        return [{
          variant: `public JS API in a worker: loadModel() once, then ${c.call}`,
          output: r.output,
          discrete: r.discrete,
          tokens: r.tokens,
          sample: async (reps) => (await api.request('time', { id: c.id, reps })).ms,
          async dispose() { apiLive = (await api.request('free', { id: c.id })).live; },
        }];
      }
      if (c.op === 'train' && !trainer) trainer = await instantiateAttnlab(trainFile);
      const x = c.op === 'train' ? trainer : main;
      const ptrs = [];
      const alloc = (nBytes) => {
        const p = x.al_malloc(Math.max(4, nBytes));
        if (!p) throw new Error('al_malloc failed');
        ptrs.push(p);
        return p;
      };
      // typed arrays in; views built after the malloc (memory may have grown)
      const put = (d) => {
        const p = alloc(d.byteLength);
        new Uint8Array(x.memory.buffer, p, d.byteLength).set(new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
        return p;
      };
      const f32 = (p, n) => new Float32Array(x.memory.buffer, p, n).slice();
      const release = [];
      let run;
      let output;
      const I = c.inputs;
      switch (c.op) {
        case 'matmul': {
          const pa = put(I.a);
          const pb = put(I.b);
          const out = alloc(c.M * c.N * 4);
          run = () => x.al_matmul(out, pa, pb, c.M, c.K, c.N, 0, 0);
          output = () => f32(out, c.M * c.N);
          break;
        }
        case 'sdpa': {
          const pq = put(I.q);
          const pk = put(I.k);
          const pv = put(I.v);
          const nOut = c.B * c.H * c.T * c.Dv;
          const out = alloc(nOut * 4);
          const att = c.weights ? alloc(c.B * c.H * c.T * c.S * 4) : 0;
          run = () => x.al_sdpa(out, att, pq, pk, pv, c.B, c.H, c.T, c.S, c.D, c.Dv, 0, 0, c.causal ? 1 : 0);
          output = () => f32(out, nOut);
          break;
        }
        case 'mha': {
          const px = put(I.x);
          const [wi, bi, wo, bo] = [I.in_proj_weight, I.in_proj_bias, I.out_proj_weight, I.out_proj_bias].map(put);
          const out = alloc(c.T * c.E * 4);
          run = () => x.al_mha_forward(out, 0, px, px, px, wi, bi, wo, bo, 1, c.T, c.S, c.E, c.H, 0, 0);
          output = () => f32(out, c.T * c.E);
          break;
        }
        case 'additive': {
          const [pq, pk, wq, wk, pb, pv] = [I.query, I.keys, I.W_q, I.W_k, I.bias, I.v].map(put);
          const ctx = alloc(c.dv * 4);
          run = () => x.al_additive_attention_forward(ctx, 0, pq, pk, 0, wq, wk, pb, pv, 0, 1, c.n, c.dq, c.dk, c.dv, c.da);
          output = () => f32(ctx, c.dv);
          break;
        }
        case 'lstm':
        case 'gru': {
          const px = put(I.x);
          const table = put(Int32Array.from([I.weight_ih, I.weight_hh, I.bias_ih, I.bias_hh].map(put)));
          const out = alloc(c.T * c.H * 4);
          run = () => x.al_recurrent_forward(CELL[c.op], 1, c.T, c.I, c.H, 1, 0, px, table, 0, 0, out, 0, 0);
          output = () => f32(out, c.T * c.H);
          break;
        }
        case 'model':
        case 'train': {
          const bytes = readFileSync(path.join(ROOT, c.model));
          const pBytes = put(bytes);
          const pOut = alloc(4);
          let st = x.al_model_load(pBytes, bytes.length, pOut, 0, 0);
          if (st !== 0) throw new Error(`al_model_load: status ${st}`);
          const m = new Uint32Array(x.memory.buffer, pOut, 1)[0];
          release.push(() => x.al_model_free(m));
          if (c.op === 'model') {
            const S = I.src.length;
            const info = alloc(14 * 4); // al_model_info: field 5 is AL_MODEL_INFO_MAX_LENGTH
            x.al_model_info(m, info, 14);
            const maxLen = new Int32Array(x.memory.buffer, info, 14)[5];
            const src = put(I.src);
            const [ids, logp, att, pos, len] = [maxLen, maxLen, maxLen * S, maxLen, 1].map((n) => alloc(n * 4));
            run = () => x.al_model_generate(m, src, S, maxLen, 1, ids, logp, att, pos, len);
            output = () => f32(logp, new Int32Array(x.memory.buffer, len, 1)[0]);
          } else {
            const pTr = alloc(4);
            st = x.al_trainer_create(m, 0, TRAIN_OPTIONS.lr, 0, 0, TRAIN_OPTIONS.clip, pTr);
            if (st !== 0) throw new Error(`al_trainer_create: status ${st}`);
            const tr = new Uint32Array(x.memory.buffer, pTr, 1)[0];
            release.unshift(() => x.al_trainer_free(tr)); // before the model
            const [src, srcLen, tgt, tgtLen] = [I.src, I.srcLen, I.tgt, I.tgtLen].map(put);
            const loss = alloc(4);
            run = () => x.al_trainer_step(tr, src, srcLen, c.S, tgt, tgtLen, c.T, c.batch, loss);
            output = () => Float32Array.from([f32(loss, 1)[0], x.al_trainer_grad_norm(tr)]);
          }
          break;
        }
        default: throw new Error(`no attnlab form for op ${c.op}`);
      }
      const st = run();
      if (st !== 0) throw new Error(`status ${st}`);
      return [{
        variant: c.op === 'model' ? 'al_model_generate, weights resident' : c.op === 'train' ? 'al_trainer_step, resident' : 'al_* export, inputs resident',
        output: output(),
        sample: timeSync(run),
        dispose() { for (const f of release) f(); for (const p of ptrs) x.al_free(p); },
      }];
    },
    async stop() { if (api) await api.stop(); },
    liveAllocations: () => main.al_alloc_live() + (trainer ? trainer.al_alloc_live() : 0) + apiLive,
  };
}

// ------------------------------------------------------------------ attnlab, public JS API

/** plain: every input copied per call (no prepare()); only the op rows, since the model and
 * training rows hold their weights in the model either way. */
function apiContender({ plain = false } = {}) {
  let lib;
  let prepare;
  return {
    async start() {
      const index = await import('../../wasm/index.js');
      lib = await index.init();
      prepare = index.prepare;
      if (!lib.simd) throw new Error('the JS API loaded the scalar build');
      return { simd: lib.simd };
    },
    async prepare(c) {
      const { ops } = lib;
      const I = c.inputs;
      let run;
      let output;
      let dispose = () => {};
      let variant = 'ops.* (validates, copies in and out)';
      if (plain && !['matmul', 'sdpa', 'mha', 'additive', 'lstm', 'gru'].includes(c.op)) return null;
      switch (c.op) {
        case 'matmul': {
          const A = { data: I.a, shape: [c.M, c.K] };
          const B = { data: I.b, shape: [c.K, c.N] };
          if (plain) {
            run = () => ops.matmul(A, B).data;
            break;
          }
          // b as a weight matrix a caller multiplies by again and again (as the tfjs row keeps
          // its tensor and onnxruntime's b is an initializer)
          const pb = prepare(B);
          run = () => ops.matmul(A, pb).data;
          dispose = () => pb.dispose();
          variant = 'b = prepare(b) once, then ops.matmul(a, b): a copied in, the result out';
          break;
        }
        case 'sdpa': {
          const lead = c.H === 1 ? [] : [c.H];
          const Q = { data: I.q, shape: [...lead, c.T, c.D] };
          const K = { data: I.k, shape: [...lead, c.S, c.D] };
          const V = { data: I.v, shape: [...lead, c.S, c.Dv] };
          const o = { causal: c.causal, returnWeights: c.weights };
          run = () => ops.scaledDotProductAttention(Q, K, V, o).output.data;
          break;
        }
        case 'mha': {
          const X = { data: I.x, shape: [c.T, c.E] };
          const P = {
            in_proj_weight: { data: I.in_proj_weight, shape: [3 * c.E, c.E] },
            in_proj_bias: { data: I.in_proj_bias, shape: [3 * c.E] },
            'out_proj.weight': { data: I.out_proj_weight, shape: [c.E, c.E] },
            'out_proj.bias': { data: I.out_proj_bias, shape: [c.E] },
          };
          run = () => ops.multiHeadAttention(X, X, X, P, { numHeads: c.H, needWeights: false }).output.data;
          break;
        }
        case 'additive': {
          const q = { data: I.query, shape: [c.dq] };
          const k = { data: I.keys, shape: [c.n, c.dk] };
          const P = {
            W_q: { data: I.W_q, shape: [c.da, c.dq] }, W_k: { data: I.W_k, shape: [c.da, c.dk] },
            bias: { data: I.bias, shape: [c.da] }, v: { data: I.v, shape: [c.da] },
          };
          run = () => ops.additiveAttention(q, k, P).context.data;
          break;
        }
        case 'lstm':
        case 'gru': {
          const X = { data: I.x, shape: [c.T, c.I] };
          const P = {
            weight_ih_l0: { data: I.weight_ih, shape: [c.G * c.H, c.I] }, weight_hh_l0: { data: I.weight_hh, shape: [c.G * c.H, c.H] },
            bias_ih_l0: { data: I.bias_ih, shape: [c.G * c.H] }, bias_hh_l0: { data: I.bias_hh, shape: [c.G * c.H] },
          };
          if (plain) {
            run = () => ops[c.op](X, P).output.data;
            break;
          }
          const pp = prepare(P); // the layer's weights, as a model would hold them
          run = () => ops[c.op](X, pp).output.data;
          dispose = () => pp.dispose();
          variant = `params = prepare(state_dict) once, then ops.${c.op}(x, params): x copied in, the output out`;
          break;
        }
        case 'model': {
          const { loadModel } = await import('../../wasm/index.js');
          const model = await loadModel(readFileSync(path.join(ROOT, c.model)));
          run = () => model.run(c.text).logProbs;
          dispose = () => model.dispose();
          variant = 'loadModel() once, then model.run(text): tokenise, generate, copy out';
          break;
        }
        case 'train': {
          const { createTrainer, loadTrainableModel } = await import('../../wasm/index.js');
          const model = await loadTrainableModel(readFileSync(path.join(ROOT, c.model)));
          const trainer = createTrainer(model, TRAIN_OPTIONS);
          const pairs = Array.from(I.srcLen, (n, b) => ({
            src: I.src.subarray(b * c.S, b * c.S + n),
            tgt: I.tgt.subarray(b * c.T, b * c.T + I.tgtLen[b]),
          }));
          run = () => trainer.step(pairs);
          output = Float32Array.from([run(), trainer.gradNorm]);
          dispose = () => { trainer.dispose(); model.dispose(); };
          variant = 'createTrainer(loadTrainableModel()), trainer.step(pairs of ids)';
          break;
        }
        case 'shipped': return null; // the attnlab-simd row is this API already (scripts/bench/api-worker.mjs)
        default: throw new Error(`no attnlab API form for op ${c.op}`);
      }
      return [{ variant, output: output ?? run(), sample: timeSync(run), dispose }];
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
      // one tfjs per process, shared with the train rows (scripts/bench/tfjs.mjs)
      const loaded = await loadTfjs();
      tf = loaded.tf;
      return loaded.info;
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
      const I = c.inputs;
      if (c.op === 'model' || c.op === 'train' || c.op === 'shipped') return null; // no tfjs form of a whole model
      if (c.op === 'matmul') {
        const a = T(I.a, [c.M, c.K]);
        const b = T(I.b, [c.K, c.N]);
        mk('tf.matMul', () => tf.matMul(a, b));
      } else if (c.op === 'mha') {
        // nn.MultiheadAttention: q, k, v = x W_{q,k,v}ᵀ + b; per head softmax(q kᵀ/√D) v; out_proj.
        // Weights are transposed once here (a model would store them that way).
        const { T: L, E, H } = c;
        const D = E / H;
        const x = T(I.x, [L, E]);
        const wIn = tf.transpose(T(I.in_proj_weight, [3 * E, E])); keep.push(wIn); // [E, 3E]
        const bIn = T(I.in_proj_bias, [3 * E]);
        const wOut = tf.transpose(T(I.out_proj_weight, [E, E])); keep.push(wOut);
        const bOut = T(I.out_proj_bias, [E]);
        const split3 = (w, b) => [0, 1, 2].map((j) => {
          const wj = tf.slice(w, [0, j * E], [E, E]); const bj = tf.slice(b, [j * E], [E]);
          keep.push(wj, bj);
          return [wj, bj];
        });
        const [[wq, bq], [wk, bk], [wv, bv]] = split3(wIn, bIn);
        const heads = (t) => tf.transpose(tf.reshape(t, [L, H, D]), [1, 0, 2]); // [H, L, D]
        const attend = (q, k, v, transposeB) => {
          const qs = tf.mul(heads(q), 1 / Math.sqrt(D));
          const e = transposeB ? tf.matMul(qs, heads(k), false, true) : tf.matMul(qs, tf.transpose(heads(k), [0, 2, 1]));
          const o = tf.matMul(tf.softmax(e), heads(v)); // [H, L, D]
          return tf.add(tf.matMul(tf.reshape(tf.transpose(o, [1, 0, 2]), [L, E]), wOut), bOut);
        };
        mk('one [E,3E] projection, split; batched heads, transpose(K) then matMul', () => {
          const qkv = tf.add(tf.matMul(x, wIn), bIn);
          const [q, k, v] = tf.split(qkv, 3, 1);
          return attend(q, k, v, false);
        });
        mk('three projections; batched heads, matMul(transposeB)', () => attend(
          tf.add(tf.matMul(x, wq), bq), tf.add(tf.matMul(x, wk), bk), tf.add(tf.matMul(x, wv), bv), true));
      } else if (c.op === 'additive') {
        // e = tanh(keys W_kᵀ + (W_q s + bias)) v; α = softmax(e); c = α keys
        const { n, dq, dk, da } = c;
        const q = T(I.query, [1, dq]);
        const keys = T(I.keys, [n, dk]);
        const wqT = tf.transpose(T(I.W_q, [da, dq])); keep.push(wqT);
        const wk = T(I.W_k, [da, dk]);
        const wkT = tf.transpose(wk); keep.push(wkT);
        const bias = T(I.bias, [1, da]);
        const v = T(I.v, [da, 1]);
        const attend = (kp) => {
          const e = tf.matMul(tf.tanh(tf.add(kp, tf.add(tf.matMul(q, wqT), bias))), v); // [n, 1]
          return tf.reshape(tf.matMul(tf.softmax(tf.reshape(e, [1, n])), keys), [dk]);
        };
        mk('matMul(keys, W_kᵀ) + tanh + matMul + softmax + matMul', () => attend(tf.matMul(keys, wkT)));
        mk('same, matMul(keys, W_k, transposeB)', () => attend(tf.matMul(keys, wk, false, true)));
      } else if (c.op === 'lstm' || c.op === 'gru') {
        const { T: steps, I: nIn, H, G } = c;
        const x = T(I.x, [steps, nIn]);
        const wihT = tf.transpose(T(I.weight_ih, [G * H, nIn])); keep.push(wihT); // [I, GH]
        const whhT = tf.transpose(T(I.weight_hh, [G * H, H])); keep.push(whhT);   // [H, GH]
        const bih = T(I.bias_ih, [1, G * H]);
        const bhh = T(I.bias_hh, [1, G * H]);
        // PyTorch rows [gate, H]: pick gate blocks (LSTM i f g o, GRU r z n)
        const rows = (w, order, width) => tf.concat(order.map((g) => tf.slice(w, [g * H, 0], [H, width])), 0);
        if (c.op === 'lstm') {
          // tf.basicLSTMCell: kernel [I+H, 4H], gates i, j (cell input), f, o; c' = c σ(f + forgetBias) + σ(i) tanh(j)
          const order = [0, 2, 1, 3]; // torch i f g o → tfjs i j f o
          const wih = T(I.weight_ih, [4 * H, nIn]);
          const whh = T(I.weight_hh, [4 * H, H]);
          const [kernel, bias] = tf.tidy(() => [
            tf.transpose(tf.concat([rows(wih, order, nIn), rows(whh, order, H)], 1)),
            tf.reshape(rows(tf.reshape(tf.add(bih, bhh), [4 * H, 1]), order, 1), [4 * H]),
          ]);
          keep.push(kernel, bias);
          const forgetBias = T(new Float32Array([0]), []);
          const xs = tf.unstack(x).map((r) => tf.reshape(r, [1, nIn])); keep.push(...xs);
          mk('tf.basicLSTMCell loop', () => {
            let h = tf.zeros([1, H]); let cc = tf.zeros([1, H]);
            const hs = [];
            for (let t = 0; t < steps; t++) { [cc, h] = tf.basicLSTMCell(forgetBias, kernel, bias, xs[t], cc, h); hs.push(h); }
            return tf.concat(hs, 0);
          });
          mk('x W_ihᵀ for all steps in one matMul, then h W_hhᵀ + gates per step', () => {
            const xp = tf.unstack(tf.add(tf.add(tf.matMul(x, wihT), bih), bhh));
            let h = tf.zeros([1, H]); let cc = tf.zeros([1, H]);
            const hs = [];
            for (let t = 0; t < steps; t++) {
              const [i, f, g, o] = tf.split(tf.add(tf.matMul(h, whhT), xp[t]), 4, 1);
              cc = tf.add(tf.mul(tf.sigmoid(f), cc), tf.mul(tf.sigmoid(i), tf.tanh(g)));
              h = tf.mul(tf.sigmoid(o), tf.tanh(cc));
              hs.push(h);
            }
            return tf.concat(hs, 0);
          });
        } else {
          // n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn)); h' = (1 − z) ⊙ n + z ⊙ h
          mk('x W_ihᵀ for all steps in one matMul, then h W_hhᵀ + gates per step', () => {
            const xp = tf.unstack(tf.add(tf.matMul(x, wihT), bih));
            let h = tf.zeros([1, H]);
            const hs = [];
            for (let t = 0; t < steps; t++) {
              const [xr, xz, xn] = tf.split(tf.reshape(xp[t], [1, 3 * H]), 3, 1);
              const [hr, hz, hn] = tf.split(tf.add(tf.matMul(h, whhT), bhh), 3, 1);
              const r = tf.sigmoid(tf.add(xr, hr));
              const z = tf.sigmoid(tf.add(xz, hz));
              const nn = tf.tanh(tf.add(xn, tf.mul(r, hn)));
              h = tf.add(nn, tf.mul(z, tf.sub(h, nn)));
              hs.push(h);
            }
            return tf.concat(hs, 0);
          });
        }
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
      const I = c.inputs;
      if (c.op === 'model' || c.op === 'train' || c.op === 'shipped') return null; // no ORT form of a whole model
      if (c.op === 'mha') {
        const feeds = { x: tensor(I.x, [1, c.T, c.E]) };
        await mk('com.microsoft MultiHeadAttention (q/k/v MatMuls, out MatMul+Add)', mhaModel('ms-mha', { ...c, ...I }), feeds, 'out');
        await mk('com.microsoft Attention (fused projections, out MatMul+Add)', mhaModel('ms-attention', { ...c, ...I }), feeds, 'out');
        await mk('opset-23 Attention (q/k/v MatMul+Add, out MatMul+Add)', mhaModel('attention23', { ...c, ...I }), feeds, 'out');
      } else if (c.op === 'additive') {
        const feeds = { s: tensor(I.query, [1, c.dq]), h: tensor(I.keys, [c.n, c.dk]) };
        await mk('MatMul, Add, MatMul, Add, Tanh, MatMul, Transpose, Softmax, MatMul', additiveModel({ ...c, ...I }), feeds, 'c');
      } else if (c.op === 'lstm' || c.op === 'gru') {
        // ONNX gate order: LSTM i, o, f, c (torch i, f, g, o); GRU z, r, h (torch r, z, n)
        const order = c.op === 'lstm' ? [0, 3, 1, 2] : [1, 0, 2];
        const W = reorderGates(I.weight_ih, c.H, c.I, order);
        const R = reorderGates(I.weight_hh, c.H, c.H, order);
        const bias = new Float32Array(2 * c.G * c.H);
        bias.set(reorderGates(I.bias_ih, c.H, 1, order), 0);
        bias.set(reorderGates(I.bias_hh, c.H, 1, order), c.G * c.H);
        const build = c.op === 'lstm' ? lstmModel : gruModel;
        await mk(`ONNX ${c.op.toUpperCase()} op${c.op === 'gru' ? ' (linear_before_reset = 1)' : ''}`, build({ T: c.T, N: 1, C: c.I, Hd: c.H, W, R, bias }), { x: tensor(I.x, [c.T, 1, c.I]) }, 'y');
      } else if (c.op === 'matmul') {
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
export class LineServer {
  constructor(cmd, args, env) {
    this.proc = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], env: env ?? process.env });
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
      const { cmd, args, info, env } = await startServer(ctx);
      server = new LineServer(cmd, args, env);
      try {
        return { ...info, ...(await server.request('hello 0')) }; // the child answers once it has loaded
      } catch (e) {
        throw Object.assign(e, { skip: `${name} did not start: ${e.message.slice(0, 200)}` });
      }
    },
    async prepare(c, ctx) {
      const args = {
        matmul: [c.M, c.K, c.N],
        sdpa: [c.B, c.H, c.T, c.S, c.D, c.Dv, c.causal ? 1 : 0, c.weights ? 1 : 0],
        mha: [c.T, c.E, c.H],
        additive: [c.n, c.dq, c.dk, c.da],
        lstm: [c.T, c.I, c.H],
        gru: [c.T, c.I, c.H],
        model: () => [path.join(ROOT, c.model), c.inputs.src.length],
        train: () => [path.join(ROOT, c.model), c.batch, c.S, c.T, TRAIN_OPTIONS.lr, TRAIN_OPTIONS.clip],
      }[c.op];
      if (!args) return null; // no form of this op (the shipped-model rows)
      const inFile = ctx.inputFile(c);
      const outFile = path.join(ctx.tmp, `case-${c.id}.${name}.out.bin`);
      const reply = await server.request(`${c.op} ${c.id} ${(typeof args === 'function' ? args() : args).join(' ')} ${inFile} ${outFile}`);
      const b = readFileSync(outFile);
      return [{
        variant: reply.variant ?? variantName[c.op] ?? variantName.default,
        output: new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4).slice(),
        sample: async (reps) => (await server.request(`time ${c.id} ${reps}`)).ms,
        dispose: () => server.request(`free ${c.id}`).catch(() => {}),
      }];
    },
    async stop() { if (server) await server.stop(); },
  };
}

const NATIVE_BIN = path.join(ROOT, 'build/bench/bench_native');

/**
 * Build build/bench/bench_native through the Makefile (`make bench-native` builds the same file),
 * so the flags and what is stale live in one place. Returns the binary, the compile command make
 * runs for it, and the compiler's version line.
 */
export function buildNative({ force = false } = {}) {
  const target = path.relative(ROOT, NATIVE_BIN);
  const make = (args) => spawnSync('make', ['--no-print-directory', ...args], { cwd: ROOT, encoding: 'utf8' });
  const r = make([...(force ? ['-B'] : []), target]);
  if (r.error) throw Object.assign(new Error(`make: ${r.error.message}`), { skip: 'make not installed' });
  if (r.status !== 0) {
    const noGcc = /gcc: (not found|No such file)/.test(r.stderr);
    throw Object.assign(new Error(`native build failed:\n${r.stderr.slice(-2000)}`),
      { skip: noGcc ? 'gcc not installed' : 'the native build failed (see the log)' });
  }
  const command = make(['-n', '-B', target]).stdout.trim().split('\n').at(-1);
  const cc = spawnSync('gcc', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
  return { bin: NATIVE_BIN, command, compiler: cc };
}

function nativeContender() {
  return serverContender('native', async () => {
    const { bin, command, compiler } = buildNative();
    return { cmd: bin, args: ['serve'], info: { compiler, command } };
  }, {
    default: 'al_* export, gcc -O3 -march=native (SSE twins)',
    model: 'al_model_generate, gcc -O3 -march=native',
    train: 'al_trainer_step, gcc -O3 -march=native',
  });
}

function torchContender() {
  return serverContender('torch', async (ctx) => {
    const py = ctx.python ?? '/usr/bin/python3';
    if (!existsSync(py)) throw Object.assign(new Error('no python'), { skip: `${py} not found` });
    const { env, blas } = torchEnv(1); // Debian's OpenBLAS when installed (scripts/bench/blas.mjs)
    return { cmd: py, args: [path.join(ROOT, 'scripts/bench/torch_server.py'), '--threads', '1'], env, info: { python: py, threads: 1, blasLoad: blas } };
  }, {
    default: 'torch.mm / matmul+softmax+matmul',
    mha: 'nn.MultiheadAttention (eval, need_weights=False)',
    additive: 'tanh(keys W_kᵀ + W_q s + b) v, softmax, α keys',
    lstm: 'nn.LSTM',
    gru: 'nn.GRU',
    model: 'python/attnlab/torch/seq2seq.py greedy (float32, no_grad)',
    train: 'batched seq2seq, Adam, clip_grad_norm_',
  });
}

export function makeContender(name) {
  switch (name) {
    case 'attnlab-simd': return directContender(path.join(ROOT, 'wasm/attnlab.wasm'), path.join(ROOT, 'wasm/attnlab-train.wasm'), true);
    case 'attnlab-scalar': return directContender(path.join(ROOT, 'wasm/attnlab-scalar.wasm'), path.join(ROOT, 'wasm/attnlab-train-scalar.wasm'), false);
    case 'attnlab-api': return apiContender();
    case 'attnlab-api-plain': return apiContender({ plain: true });
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
    // float32 and int32 arrays, concatenated little-endian (4 bytes per element either way)
    const parts = Object.values(c.inputs).map((p) => new Uint8Array(p.buffer, p.byteOffset, p.byteLength));
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let off = 0;
    for (const p of parts) { all.set(p, off); off += p.length; }
    writeFileSync(file, all);
  }
  return file;
}
