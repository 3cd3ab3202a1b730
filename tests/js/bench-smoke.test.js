// The benchmark harness in smoke mode (scripts/bench.mjs --smoke): tiny shapes, two rounds, no
// timing claims. What it proves: every contender that is installed loads offline, the ONNX graphs
// the harness encodes by hand are accepted by onnxruntime-web, and every row (matmul, sdpa, MHA,
// additive, LSTM, GRU, whole model, training step, and two shipped models through the JS API on
// both builds) passes its check against attnlab's scalar build; the lab's rows (one preset run,
// 1 and 2 workers, steps per second) are there; the report has the "every shipped
// model, per input" section with finite numbers. The train:<preset> rows are left out here
// (--no-train): tests/js/bench-train.test.js runs them. PyTorch is left out (CI has none); the native
// driver runs when gcc is there. The ONNX LSTM and GRU graphs are also checked against plain JS
// recurrences here, so a gate-order or bias-layout slip shows up as its own failure. Must finish
// well inside 60 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

test(
  'node scripts/bench.mjs --smoke runs every contender and every row passes its check',
  { timeout: 60_000 },
  () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'attnlab-bench-smoke-'));
    try {
      const only =
        'attnlab-simd,attnlab-scalar,attnlab-api,attnlab-api-plain,tfjs-wasm,ort-wasm,native';
      const r = spawnSync(
        process.execPath,
        [
          'scripts/bench.mjs',
          '--smoke',
          '--no-startup',
          '--no-train',
          '--only',
          only,
          '--out',
          out,
        ],
        {
          cwd: ROOT,
          encoding: 'utf8',
          timeout: 58_000,
        },
      );
      assert.equal(
        r.status,
        0,
        `bench --smoke exited ${r.status}\n${(r.stderr ?? '').slice(-3000)}`,
      );
      const run = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
      assert.ok(run.cases.length >= 4, 'smoke cases');
      for (const op of [
        'matmul',
        'sdpa',
        'mha',
        'additive',
        'lstm',
        'gru',
        'model',
        'train',
        'shipped',
      ]) {
        assert.ok(
          run.cases.some((c) => c.op === op),
          `no smoke case for ${op}`,
        );
      }
      // every peer that has a form of an op ran it (tfjs and ORT have none for whole models; the
      // shipped-model rows are the JS API on each build, so attnlab-api has none of its own; the
      // plain-call API row is for the ops only)
      for (const c of run.cases) {
        const whole = c.op === 'model' || c.op === 'train';
        const want =
          c.op === 'shipped'
            ? ['attnlab-simd', 'attnlab-scalar']
            : [
                'attnlab-simd',
                'attnlab-scalar',
                'attnlab-api',
                ...(whole ? [] : ['attnlab-api-plain', 'tfjs-wasm', 'ort-wasm']),
              ];
        for (const name of want)
          assert.ok(
            run.results.some((r) => r.case === c.key && r.contender === name),
            `${c.key}: no ${name} row`,
          );
      }
      for (const name of [
        'attnlab-simd',
        'attnlab-scalar',
        'attnlab-api',
        'attnlab-api-plain',
        'tfjs-wasm',
        'ort-wasm',
      ]) {
        assert.equal(
          run.contenders[name]?.status,
          'ok',
          `${name} did not start: ${run.contenders[name]?.note}`,
        );
      }
      for (const row of run.results) {
        assert.equal(
          row.status,
          'ok',
          `${row.case} / ${row.contender}: ${row.status} ${row.error ?? ''}`,
        );
        assert.ok(
          row.maxAbsDiff <= 1e-4,
          `${row.case} / ${row.contender}: max |Δ| ${row.maxAbsDiff}`,
        );
        assert.equal(row.samples.length, run.rounds);
      }
      // every shipped model, per input: a dates model and a non-seq2seq one, with finite numbers
      assert.equal(run.shipped.length, 2, 'smoke runs two shipped models');
      assert.ok(
        run.shipped.some((m) => m.model.startsWith('dates-')),
        'no dates model in the shipped rows',
      );
      assert.ok(
        run.shipped.some((m) => m.family !== 'seq2seq'),
        'no non-seq2seq model in the shipped rows',
      );
      const positive = (x) => Number.isFinite(x) && x > 0;
      for (const m of run.shipped) {
        for (const k of ['params', 'bytes', 'tokens', 'scalarOverSimd'])
          assert.ok(positive(m[k]), `${m.model}: ${k} = ${m[k]}`);
        for (const b of ['simd', 'scalar']) {
          for (const k of ['median', 'p10', 'p90'])
            assert.ok(positive(m[b]?.[k]), `${m.model} ${b}: ${k} = ${m[b]?.[k]}`);
        }
        assert.ok(
          m.input.length > 0 && m.architecture.length > 0,
          `${m.model}: input and architecture`,
        );
      }
      // the lab's rows (scripts/bench/lab.mjs): one preset run with 1 and 2 workers, steps per second
      assert.equal(run.lab?.rows?.length, 2, `lab rows: ${JSON.stringify(run.lab)}`);
      assert.deepEqual(
        run.lab.rows.map((r) => r.workers),
        [1, 2],
      );
      for (const r of run.lab.rows)
        assert.ok(
          positive(r.summary.median) && positive(r.parameters),
          `${r.key}: ${JSON.stringify(r.summary)}`,
        );
      const md = readFileSync(path.join(out, 'results.md'), 'utf8');
      assert.match(md, /^## The lab: training steps per second$/m);
      assert.match(md, /\| matmul 32×64×64 \|/);
      assert.match(md, /\| LSTM \/ GRU layers: ≥ 1\.5× onnxruntime-web \|/);
      assert.match(md, /\| whole model: under 1 ms per keystroke \|/);
      assert.match(md, /^## Every shipped model, per input$/m);
      for (const m of run.shipped) {
        // model | architecture | parameters | bytes | input (tokens) | SIMD | scalar | ratio | tfjs | ort
        const row = md.split('\n').find((l) => l.startsWith(`| ${m.model} | `));
        assert.ok(row, `no row for ${m.model} in the shipped section`);
        const cells = row.split(' | ');
        assert.match(
          cells[5],
          /^\d[\d.]* \(\d[\d.]*–\d[\d.]*\)$/,
          `${m.model}: SIMD cell ${cells[5]}`,
        );
        assert.match(cells[7], /^\d[\d.]*×$/, `${m.model}: scalar ÷ SIMD cell ${cells[7]}`);
      }
      assert.match(md, /\| every dates model: under 1 ms per keystroke \|/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
);

test('the hand-written ONNX encoder: an LSTM graph matches a JS LSTM', async () => {
  const ort = await import('onnxruntime-web');
  const { lstmModel } = await import('../../scripts/bench/onnx.mjs');
  const { uniform } = await import('../../scripts/bench/cases.mjs');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = path.join(ROOT, 'node_modules/onnxruntime-web/dist') + path.sep;
  const T = 5;
  const C = 3;
  const Hd = 4;
  const W = uniform(4 * Hd * C, 1, 0.5);
  const R = uniform(4 * Hd * Hd, 2, 0.25);
  const bias = uniform(8 * Hd, 3, 0.1);
  const x = uniform(T * C, 4);
  const s = await ort.InferenceSession.create(lstmModel({ T, N: 1, C, Hd, W, R, bias }), {
    executionProviders: ['wasm'],
  });
  const got = (await s.run({ x: new ort.Tensor('float32', x, [T, 1, C]) })).y.data;
  // ONNX LSTM, gates i, o, f, c: i = σ(W_i x + R_i h + Wb_i + Rb_i), ..., c' = f⊙c + i⊙g, h' = o⊙tanh(c')
  const sig = (z) => 1 / (1 + Math.exp(-z));
  let h = new Float64Array(Hd);
  let c = new Float64Array(Hd);
  let worst = 0;
  for (let t = 0; t < T; t++) {
    const g = new Float64Array(4 * Hd);
    for (let r = 0; r < 4 * Hd; r++) {
      let z = bias[r] + bias[4 * Hd + r];
      for (let j = 0; j < C; j++) z += W[r * C + j] * x[t * C + j];
      for (let j = 0; j < Hd; j++) z += R[r * Hd + j] * h[j];
      g[r] = z;
    }
    const h2 = new Float64Array(Hd);
    const c2 = new Float64Array(Hd);
    for (let j = 0; j < Hd; j++) {
      const i = sig(g[j]);
      const o = sig(g[Hd + j]);
      const f = sig(g[2 * Hd + j]);
      const cc = Math.tanh(g[3 * Hd + j]);
      c2[j] = f * c[j] + i * cc;
      h2[j] = o * Math.tanh(c2[j]);
      worst = Math.max(worst, Math.abs(h2[j] - got[t * Hd + j]));
    }
    h = h2;
    c = c2;
  }
  await s.release();
  assert.ok(worst < 1e-5, `ONNX LSTM vs JS reference: max |Δ| ${worst}`);
});

test('the hand-written ONNX encoder: a GRU graph (PyTorch weights, gates reordered) matches a JS GRU', async () => {
  const ort = await import('onnxruntime-web');
  const { gruModel, reorderGates } = await import('../../scripts/bench/onnx.mjs');
  const { uniform } = await import('../../scripts/bench/cases.mjs');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = path.join(ROOT, 'node_modules/onnxruntime-web/dist') + path.sep;
  const T = 5;
  const C = 3;
  const Hd = 4;
  // PyTorch layout: rows r, z, n; ONNX wants z, r, h
  const wih = uniform(3 * Hd * C, 1, 0.5);
  const whh = uniform(3 * Hd * Hd, 2, 0.25);
  const bih = uniform(3 * Hd, 3, 0.1);
  const bhh = uniform(3 * Hd, 4, 0.1);
  const x = uniform(T * C, 5);
  const order = [1, 0, 2];
  const bias = new Float32Array(6 * Hd);
  bias.set(reorderGates(bih, Hd, 1, order), 0);
  bias.set(reorderGates(bhh, Hd, 1, order), 3 * Hd);
  const model = gruModel({
    T,
    N: 1,
    C,
    Hd,
    W: reorderGates(wih, Hd, C, order),
    R: reorderGates(whh, Hd, Hd, order),
    bias,
  });
  const s = await ort.InferenceSession.create(model, { executionProviders: ['wasm'] });
  const got = (await s.run({ x: new ort.Tensor('float32', x, [T, 1, C]) })).y.data;
  // torch.nn.GRU: r = σ(W_ir x + b_ir + W_hr h + b_hr), z likewise, n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn)),
  // h' = (1 − z) ⊙ n + z ⊙ h
  const sig = (v) => 1 / (1 + Math.exp(-v));
  let h = new Float64Array(Hd);
  let worst = 0;
  for (let t = 0; t < T; t++) {
    const gx = new Float64Array(3 * Hd);
    const gh = new Float64Array(3 * Hd);
    for (let r = 0; r < 3 * Hd; r++) {
      gx[r] = bih[r];
      gh[r] = bhh[r];
      for (let j = 0; j < C; j++) gx[r] += wih[r * C + j] * x[t * C + j];
      for (let j = 0; j < Hd; j++) gh[r] += whh[r * Hd + j] * h[j];
    }
    const h2 = new Float64Array(Hd);
    for (let j = 0; j < Hd; j++) {
      const r = sig(gx[j] + gh[j]);
      const z = sig(gx[Hd + j] + gh[Hd + j]);
      const n = Math.tanh(gx[2 * Hd + j] + r * gh[2 * Hd + j]);
      h2[j] = (1 - z) * n + z * h[j];
      worst = Math.max(worst, Math.abs(h2[j] - got[t * Hd + j]));
    }
    h = h2;
  }
  await s.release();
  assert.ok(worst < 1e-5, `ONNX GRU vs JS reference (PyTorch gate order): max |Δ| ${worst}`);
});
