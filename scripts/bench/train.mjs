// scripts/bench/train.mjs: the train:<preset> rows of `make bench` (issue #31): steps per second
// of one optimiser step of every lab preset run (web/lab/spec.js PRESETS, A and B each), on the
// preset's own model, batch size, optimiser settings and task data, against the tools a
// researcher would use:
//   attnlab    createModel(modelConfig(spec), { seed }) + createTrainer(model, the preset's
//              { optimizer, lr, clip }) of wasm/index.js, one worker, in this process (the
//              trainer's defaults: the batched path once a model has one)
//   torch-1t   PyTorch CPU, torch.set_num_threads(1), on Debian's OpenBLAS (scripts/bench/blas.mjs)
//   torch-2t   the same with 2 threads            (scripts/bench/torch_train.py: batched models)
//   tfjs-wasm  TensorFlow.js on tfjs-backend-wasm, 1 thread (scripts/bench/train-tfjs.mjs,
//              train-tfjs-transformer.mjs)
// Same model: every contender starts from the weights attnlab's createModel() drew (its
// safetensors file), and trains on the same batches: the lab's own task generator
// (web/lab/tasks.js makeTask(task).batch(step, size), steps 0..K−1), tokenised by the model's
// tokenizer (eos appended to the target, as the trainer does). Check, before any timing: each
// contender's loss at step 0 within 1e-5 (relative) of attnlab's, its gradient norm before
// clipping within 1e-3, and (torch-1t) every gradient element at step 0 within 1e-4 of the
// largest (attnlab's trainer.gradients() against autograd's); a row that misses is reported as
// "check failed" and the bench exits 1.
// Method: per row, each contender is warmed up (one pass over the K batches), its repetitions
// set so one sample is ≈ targetMs (whole passes over the K batches), then `rounds` rounds in
// which the contenders take one sample each in a rotating order (machine drift hits all alike),
// each sample after 250 ms idle (threaded contenders' spinning workers go to sleep meanwhile).
// Reported: median ms per step and p10–p90 over rounds, steps per second, the median per-round
// ratio to attnlab, and GF/s on useful FLOPs (usefulFlops below).

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PRESETS, modelConfig } from '../../web/lab/spec.js';
import { makeTask } from '../../web/lab/tasks.js';
import { createModel, createTrainer, init, readSafetensors, saveModel } from '../../wasm/index.js';
import { LineServer, ROOT } from './contenders.mjs';
import { torchEnv } from './blas.mjs';
import { loadTfjs } from './tfjs.mjs';
import { tfjsSeq2seqTrainer } from './train-tfjs.mjs';
import { tfjsTransformerTrainer } from './train-tfjs-transformer.mjs';
import { medianRatio, summarize } from './stats.mjs';

export const TRAIN_CONTENDERS = ['attnlab', 'torch-1t', 'torch-2t', 'tfjs-wasm'];
export const LOSS_RTOL = 1e-5; // step-0 loss, relative to attnlab's
export const NORM_RTOL = 1e-3; // step-0 gradient norm before clipping: a float32 sum of up to 10⁶ squares, whose
// order differs per library (translation A: 2e-5 torch, 4e-4 tfjs); the gradient itself is checked
// element by element against torch (GRAD_RTOL)
export const GRAD_RTOL = 1e-4; // torch-1t: max |g_torch − g_attnlab| / max |g_attnlab| at step 0

/** Every lab preset run: { key: 'train:<preset> <a|b>', preset, run, task, spec }. */
export function trainCells(filter) {
  const cells = [];
  for (const p of PRESETS)
    for (const which of ['a', 'b']) {
      const spec = p.experiment[which];
      if (spec) cells.push({ key: `train:${p.id} ${which}`, preset: p.id, run: which, task: p.experiment.task, spec });
    }
  return filter ? cells.filter((c) => filter.test(c.key)) : cells;
}

/**
 * Useful FLOPs of one training step: 3 × the forward pass's matrix products (the backward of a
 * product Y = X W costs two products of the same size, dX = dY Wᵀ and dW = Xᵀ dY), 2 FLOPs per
 * multiply-add, on each sentence's real token counts (S_b source tokens, T_b target tokens with
 * eos), no padding; the keys' projection of additive attention counted once per sentence.
 * Element-wise work (gates, tanh, softmax, layer norm, Adam) is not counted.
 *   seq2seq (LSTM, G = 4 gates; d directions of h = H/d units; E embedding; V target vocabulary;
 *   dc = H with attention, 0 without; din = E + dc (Bahdanau) or E + H (Luong, input feeding)):
 *     encoder   Σ S_b · d · 2G·h·(E + h), and 2G·h·(H + h) per further layer
 *     decoder   Σ T_b · 2G·H·(din + H)
 *     additive  Σ [S_b · 2·da·H  +  T_b · (2·da·H + S_b · 2·(da + H))]   (keys once; query,
 *               score v·tanh(), context per step)
 *     dot       Σ T_b · S_b · 2·(H + H)                                    (score, context)
 *     Luong     Σ T_b · 2·H·(dc + H)                                       (W_c)
 *     output    Σ T_b · 2·V·(H + dc Bahdanau, H Luong)
 *   transformer (width E, feed-forward F, L layers each side, Vt target vocabulary; relative
 *   positions add q·a_K and α·a_V, as much again as the scores and the context):
 *     encoder layer  S·(2·4E² + 2·2E·F) + S²·2·2E·(2 if relative)
 *     decoder layer  T·(2·4E² + 2·2E·F) + T(T+1)/2·2·2E·(2 if relative)      (causal: visible pairs)
 *                    + cross: T·2·2E² + S·2·2E² + T·S·2·2E
 *     output         T·2·E·Vt
 */
export function usefulFlops(config, b) {
  let f = 0;
  for (let i = 0; i < b.B; i++) f += forwardFlops(config, b.srcLen[i], b.tgtLen[i]);
  return 3 * f;
}

function forwardFlops(c, S, T) {
  const V = c.tokenizer.tgtVocab?.length ?? c.tokenizer.srcVocab.length;
  if (c.architecture === 'transformer') {
    const E = c.embeddingSize, F = c.feedforwardSize, L = c.numLayers;
    const rel = c.positions === 'relative' ? 2 : 1;
    const enc = S * (8 * E * E + 4 * E * F) + S * S * 4 * E * rel;
    const dec = T * (8 * E * E + 4 * E * F) + ((T * (T + 1)) / 2) * 4 * E * rel + T * 4 * E * E + S * 4 * E * E + T * S * 4 * E;
    return L * (enc + dec) + T * 2 * E * V;
  }
  const G = { lstm: 4, gru: 3, rnn: 1 }[c.cell];
  const H = c.hiddenSize, E = c.embeddingSize;
  const d = c.bidirectional ? 2 : 1, h = H / d;
  const att = c.attention !== 'none';
  const dc = att ? H : 0;
  const luong = c.style === 'luong';
  const din = luong ? E + (c.inputFeeding ? H : 0) : E + dc;
  // the first encoder layer reads the embedding (E), the next ones the layer below ([→; ←] = H)
  let f = S * d * 2 * G * h * (E + h + (c.numLayers - 1) * (H + h)) + T * 2 * G * H * (din + H);
  if (c.attention === 'additive') {
    const da = c.attentionSize;
    f += S * 2 * da * H + T * (2 * da * H + S * 2 * (da + H));
  } else if (att) f += T * S * 4 * H;
  if (luong && att) f += T * 2 * H * (dc + H);
  f += T * 2 * V * (luong ? H : H + dc);
  return f;
}

/** The K batches of a run, as the trainer packs them: ids, padded with 0, eos on the targets. */
function makeBatches(task, spec, tok, K) {
  const out = [];
  for (let k = 0; k < K; k++) {
    const pairs = task.batch(k, spec.train.batch).map((p) => {
      const s = tok.encode(p.src);
      const t = tok.encodeTarget(p.tgt);
      return { src: s, tgt: Int32Array.from([...t, tok.eosId]) };
    });
    const B = pairs.length;
    const S = Math.max(...pairs.map((p) => p.src.length));
    const T = Math.max(...pairs.map((p) => p.tgt.length));
    const src = new Int32Array(B * S), tgt = new Int32Array(B * T);
    pairs.forEach((p, i) => { src.set(p.src, i * S); tgt.set(p.tgt, i * T); });
    out.push({ B, S, T, src, tgt, pairs, srcLen: Int32Array.from(pairs, (p) => p.src.length), tgtLen: Int32Array.from(pairs, (p) => p.tgt.length) });
  }
  return out;
}

/** F32 safetensors bytes of named Float32Arrays (the gradients handed to the torch check). */
function safetensorsBytes(tensors) {
  const header = {};
  let off = 0;
  for (const [name, t] of tensors) {
    header[name] = { dtype: 'F32', shape: t.shape, data_offsets: [off, off + t.data.length * 4] };
    off += t.data.length * 4;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const out = new Uint8Array(8 + json.length + off);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(new TextEncoder().encode(json), 8);
  let p = 8 + json.length;
  for (const [, t] of tensors) {
    out.set(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.length * 4), p);
    p += t.data.length * 4;
  }
  return out;
}

const relDiff = (a, b) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-30);

async function startTorch(python, threads) {
  const { env, blas } = torchEnv(threads);
  const server = new LineServer(python, [path.join(ROOT, 'scripts/bench/torch_server.py'), '--threads', String(threads)], env);
  const hello = await server.request('hello 0');
  return { server, info: { python, threads, version: hello.version, blasLoad: blas, blas: hello.blas } };
}

/**
 * @param {{ filter?: RegExp|null, smoke?: boolean, rounds?: number, targetMs?: number,
 *           batches?: number, pauseMs?: number, contenders?: string[], python?: string, tmp: string,
 *           log?: (...a: any[]) => void }} o
 */
export async function measureTrain(o) {
  const log = o.log ?? (() => {});
  const rounds = o.rounds ?? (o.smoke ? 1 : 7);
  const targetMs = o.targetMs ?? (o.smoke ? 0 : 300);
  const K = o.batches ?? (o.smoke ? 1 : 4);
  const pauseMs = o.pauseMs ?? (o.smoke ? 0 : 250);
  const want = o.contenders ?? TRAIN_CONTENDERS;
  let cells = trainCells(o.filter);
  // smoke: one small row (reverse A: batch 32, LSTM 64, additive) unless a filter picks others
  if (o.smoke && !o.filter) cells = cells.filter((c) => c.key === 'train:reverse a');
  const dir = path.join(o.tmp, 'train');
  mkdirSync(dir, { recursive: true });

  const lib = await init(); // the default instance, which createModel / createTrainer use
  const contenders = {
    attnlab: { status: 'ok', label: 'attnlab createTrainer (wasm/index.js), one worker, in-process', info: { simd: lib.simd, node: process.versions.node } },
  };
  let tf = null;
  const torch = {};
  if (want.includes('tfjs-wasm')) {
    try {
      const t = await loadTfjs();
      tf = t.tf;
      contenders['tfjs-wasm'] = { status: 'ok', label: 'TensorFlow.js + tfjs-backend-wasm, 1 thread', info: t.info };
    } catch (e) {
      contenders['tfjs-wasm'] = { status: 'skipped', note: String(e.message ?? e) };
    }
  }
  for (const threads of [1, 2]) {
    const name = `torch-${threads}t`;
    if (!want.includes(name)) continue;
    try {
      const t = await startTorch(o.python ?? '/usr/bin/python3', threads);
      torch[name] = t.server;
      contenders[name] = { status: 'ok', label: `PyTorch CPU, torch.set_num_threads(${threads})`, info: t.info };
      log(`  train: ${name} torch ${t.info.version}, ${t.info.blasLoad}; loaded ${t.info.blas.libraries.join(' ')}; sgemm 256³ ${t.info.blas.sgemm256GFs} GF/s`);
    } catch (e) {
      contenders[name] = { status: 'skipped', note: `PyTorch did not start: ${String(e.message ?? e).slice(0, 300)}` };
      log(`  train: ${name} skipped: ${contenders[name].note}`);
    }
  }

  const rows = [];
  let id = 0;
  for (const c of cells) {
    const task = makeTask(c.task);
    const config = modelConfig(c.spec.model, task);
    const opts = { optimizer: c.spec.train.optimizer, lr: c.spec.train.lr, clip: c.spec.train.clip };
    const model = await createModel(config, { seed: c.spec.train.seed });
    const bytes = saveModel(model); // the initial weights, before any step
    const tok = model.tokenizer;
    const batches = makeBatches(task, c.spec, tok, K);
    const base = path.join(dir, `row-${++id}`);
    writeFileSync(`${base}.safetensors`, bytes);
    writeFileSync(`${base}.batches.json`, JSON.stringify({ bos: tok.bosId, batches: batches.map(({ pairs: _p, ...b }) => ({ ...b, src: [...b.src], tgt: [...b.tgt], srcLen: [...b.srcLen], tgtLen: [...b.tgtLen] })) }));
    const m = c.spec.model;
    const row = {
      key: c.key, preset: c.preset, run: c.run,
      label: m.family === 'transformer'
        ? `transformer ${m.layers}+${m.layers} layers, ${m.heads} heads, width ${m.width}, ${m.positions} positions`
        : `${m.bidirectional ? 'bi-' : ''}${m.cell.toUpperCase()} ${m.hidden}, ${m.attention === 'none' ? 'no attention' : `${m.attention} attention`}${m.style === 'luong' ? ' (Luong, input feeding)' : ''}`,
      task: `${task.name} ${task.minLength}–${task.maxLength}`, batch: c.spec.train.batch, optimizer: `${opts.optimizer} lr ${opts.lr} clip ${opts.clip}`,
      batches: K, tokens: batches.map((b) => ({ src: b.srcLen.reduce((a, x) => a + x, 0), tgt: b.tgtLen.reduce((a, x) => a + x, 0) })),
      flops: batches.reduce((a, b) => a + usefulFlops(config, b), 0) / K,
      contenders: {},
    };
    const live = []; // { name, step(): Promise<any>, dispose() }
    const trainer = createTrainer(model, opts);
    row.parameters = [...readSafetensors(bytes).tensors.values()].reduce((a, t) => a + t.data.length, 0);
    const g0 = trainer.gradients(batches[0].pairs); // no update: the torch gradient check's reference
    const gradFile = `${base}.grad.safetensors`;
    writeFileSync(gradFile, safetensorsBytes([...g0.gradients].map(([n, t]) => [n, t])));
    let k = 0;
    const loss0 = trainer.step(batches[k++ % K].pairs);
    const ref = { loss0, norm0: trainer.gradNorm };
    row.contenders.attnlab = { status: 'ok', variant: `createTrainer(model, { optimizer: '${opts.optimizer}', lr: ${opts.lr}, clip: ${opts.clip} }).step(pairs of ids)${trainer.batched ? ', batched path' : ', per-sentence path'}`, ...ref };
    live.push({ name: 'attnlab', step: () => trainer.step(batches[k++ % K].pairs), dispose: () => { trainer.dispose(); model.dispose(); } });

    const check = (name, got, extra = {}) => {
      const dl = relDiff(got.loss0, ref.loss0);
      const dn = relDiff(got.norm0, ref.norm0);
      const dg = extra.gradRelDiff ?? 0;
      const ok = dl <= LOSS_RTOL && dn <= NORM_RTOL && dg <= GRAD_RTOL && !extra.gradMissing;
      row.contenders[name] = { status: ok ? 'ok' : 'check failed', ...got, lossRelDiff: dl, normRelDiff: dn, ...extra };
      if (!ok) log(`  ${c.key} ${name}: CHECK FAILED: step-0 loss ${got.loss0} vs attnlab ${ref.loss0} (rel ${dl.toExponential(1)}), norm ${got.norm0} vs ${ref.norm0} (rel ${dn.toExponential(1)})${extra.gradRelDiff !== undefined ? `, gradient max |Δ| / max |g| ${dg.toExponential(1)}${extra.gradMissing ? `, missing ${extra.gradMissing.join(' ')}` : ''}` : ''}`);
      return ok;
    };
    for (const [name, server] of Object.entries(torch)) {
      const cid = 10000 + id * 4 + (name === 'torch-2t' ? 1 : 0);
      try {
        const r = await server.request(`labtrain ${cid} ${base}.safetensors ${base}.batches.json ${opts.lr} ${opts.clip} ${base}.${name}.out`);
        const extra = {};
        if (name === 'torch-1t') {
          const g = await server.request(`labgrad ${cid + 2} ${base}.safetensors ${base}.batches.json ${gradFile} ${base}.grad.out`);
          extra.gradRelDiff = g.maxAbsDiff / g.maxAbs;
          extra.gradMissing = g.missing.length ? g.missing : undefined;
        }
        if (check(name, { variant: r.variant, loss0: r.loss, norm0: r.norm }, extra))
          live.push({ name, step: () => server.request(`time ${cid} 1`), dispose: () => server.request(`free ${cid}`).catch(() => {}) });
        else await server.request(`free ${cid}`);
      } catch (e) {
        row.contenders[name] = { status: 'error', error: String(e.message ?? e).slice(0, 300) };
        log(`  ${c.key} ${name}: error ${row.contenders[name].error}`);
      }
    }
    if (tf) {
      try {
        const tensors = readSafetensors(bytes).tensors;
        const make = config.architecture === 'transformer' ? tfjsTransformerTrainer : tfjsSeq2seqTrainer;
        const t = make(tf, { config, tensors, batches, bos: tok.bosId, lr: opts.lr, clip: opts.clip });
        const [l0, n0] = t.step();
        if (check('tfjs-wasm', { variant: t.variant, loss0: l0, norm0: n0 })) live.push({ name: 'tfjs-wasm', step: () => t.step(), dispose: () => t.dispose() });
        else t.dispose();
      } catch (e) {
        row.contenders['tfjs-wasm'] = { status: 'error', error: String(e.message ?? e).slice(0, 300) };
        log(`  ${c.key} tfjs-wasm: error ${row.contenders['tfjs-wasm'].error}`);
      }
    }

    // calibration: whole passes over the K batches per sample, ≈ targetMs
    const timeSteps = async (v, n) => {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await v.step();
      return (performance.now() - t0) / n;
    };
    for (const v of live) {
      let est = NaN;
      try {
        est = await timeSteps(v, o.smoke ? 1 : K); // also the warm-up
      } catch (e) {
        v.failed = String(e.message ?? e).slice(0, 300);
        log(`  ${c.key} ${v.name}: error while warming up: ${v.failed}`);
      }
      v.reps = o.smoke || !Number.isFinite(est) ? 1 : K * Math.max(1, Math.round(targetMs / (est * K)));
      v.samples = [];
    }
    for (let r = 0; r < rounds; r++)
      for (let j = 0; j < live.length; j++) {
        const v = live[(j + r) % live.length];
        if (v.failed) continue;
        // idle first: the worker threads of a threaded contender (OpenBLAS, OpenMP) spin for a
        // while after their last call before they sleep, taking a core from the next sample
        if (pauseMs) await new Promise((done) => setTimeout(done, pauseMs));
        try {
          v.samples.push(await timeSteps(v, v.reps));
        } catch (e) {
          // a step that throws while timed: the row says so, the other contenders go on
          v.failed = String(e.message ?? e).slice(0, 300);
          v.samples.push(NaN);
          log(`  ${c.key} ${v.name}: error while timed: ${v.failed}`);
        }
      }
    const a = live.find((v) => v.name === 'attnlab');
    for (const v of live) {
      const s = summarize(v.samples);
      if (v.failed) Object.assign(row.contenders[v.name], { status: 'error', error: v.failed });
      Object.assign(row.contenders[v.name], {
        reps: v.reps, samples: v.samples, summary: s, stepsPerSecond: 1000 / s.median,
        gflops: row.flops / s.median / 1e6,
        overAttnlab: v === a ? 1 : medianRatio(v.samples, a.samples), // > 1: attnlab faster
      });
      try {
        await v.dispose();
      } catch {
        /* a contender that failed may not free cleanly; the row already says it failed */
      }
    }
    rows.push(row);
    log(`  ${c.key.padEnd(30)} ${live.map((v) => `${v.name} ${row.contenders[v.name].stepsPerSecond.toFixed(1)}/s`).join('  ')}  (loss0 ${loss0.toFixed(6)})`);
  }
  for (const s of Object.values(torch)) await s.stop();
  return { rounds, targetMs, batches: K, pauseMs, lossRtol: LOSS_RTOL, normRtol: NORM_RTOL, gradRtol: GRAD_RTOL, contenders, rows };
}

/** Rows whose contenders failed their step-0 check or errored (the bench exits 1 on any). */
export function trainFailures(train) {
  const bad = [];
  for (const r of train?.rows ?? [])
    for (const [name, c] of Object.entries(r.contenders))
      if (c.status === 'check failed' || c.status === 'error') bad.push(`${r.key} ${name} (${c.status}${c.error ? `: ${c.error}` : ''})`);
  return bad;
}
