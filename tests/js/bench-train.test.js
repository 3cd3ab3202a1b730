// The train:<preset> rows of the benchmark (scripts/bench/train.mjs) in smoke mode: three preset
// runs that between them cover every model form the rows use (reverse A: LSTM + additive,
// Bahdanau; dates B: bidirectional LSTM + dot, Luong with input feeding; transformer-positions
// B: the transformer with relative positions), one round each, no timing claims. What it
// proves: the rows have their fields; attnlab and tfjs-wasm agree on the loss at step 0 within
// 1e-5 and on the gradient norm; when /usr/bin/python3 has PyTorch, torch-1t and torch-2t agree
// on the loss too, torch-1t's whole step-0 gradient equals attnlab's trainer.gradients() within
// 1e-4 of its largest element, and the server loaded Debian's OpenBLAS when it is installed. The
// useful-FLOP count is checked against a hand count of a tiny model. No assertion on any time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { usefulFlops } from '../../scripts/bench/train.mjs';
import { OPENBLAS_DIR } from '../../scripts/bench/blas.mjs';
import { PRESETS, parameterCount } from '../../web/lab/spec.js';
import { makeTask } from '../../web/lab/tasks.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PYTHON = '/usr/bin/python3';
const hasTorch =
  existsSync(PYTHON) &&
  spawnSync(PYTHON, ['-c', 'import torch'], { encoding: 'utf8' }).status === 0;

test('usefulFlops: 3 × the forward products on real tokens, keys projected once', () => {
  // LSTM (G = 4), E 3, H 4, additive attention da 5, V = 6 target tokens; one sentence S = 2, T = 3
  const tokenizer = { tgtVocab: ['a', 'b', 'c', 'd', 'e', 'f'], srcVocab: ['x'] };
  const c = {
    architecture: 'seq2seq',
    cell: 'lstm',
    embeddingSize: 3,
    hiddenSize: 4,
    numLayers: 1,
    bidirectional: false,
    attention: 'additive',
    style: 'bahdanau',
    attentionSize: 5,
    tokenizer,
  };
  const b = { B: 1, srcLen: [2], tgtLen: [3] };
  // by hand, multiply-adds of the forward pass:
  const encoder = 2 * (16 * 3 + 16 * 4); // per source token: W_ih x, W_hh h
  const keys = 2 * 5 * 4; // K W_kᵀ, once per source token
  const perStep =
    16 * (3 + 4) + // W_ih [y; c]
    16 * 4 + // W_hh s
    5 * 4 + // W_q s
    2 * 5 + // v · tanh(), per key
    2 * 4 + // Σ α h, per key
    6 * (4 + 4); // out [s; c]
  assert.equal(usefulFlops(c, b), 3 * 2 * (encoder + keys + 3 * perStep));
  // padding never counts: the same sentence in a batch padded to 7 × 9 costs the same
  assert.equal(usefulFlops(c, { B: 1, S: 7, T: 9, srcLen: [2], tgtLen: [3] }), usefulFlops(c, b));
  // two bidirectional layers (h = 2 units a direction), no attention: the second layer reads
  // [→; ←] (H = 4), not the embedding; S = 2, T = 1
  const deep = { ...c, bidirectional: true, numLayers: 2, attention: 'none' };
  const layers = 2 * (8 * (3 + 2)) + 2 * (8 * (4 + 2)); // per source token, both directions
  const step = 16 * (3 + 4) + 6 * 4; // the decoder cell on [y] and s; out(s)
  assert.equal(usefulFlops(deep, { B: 1, srcLen: [2], tgtLen: [1] }), 3 * 2 * (2 * layers + step));
  // a transformer: 1 + 1 layers, E 4, F 8, V 6; S = 2, T = 1
  const t = {
    architecture: 'transformer',
    embeddingSize: 4,
    feedforwardSize: 8,
    numLayers: 1,
    positions: 'learned',
    tokenizer,
  };
  // multiply-adds: per token q, k, v, out (4 E²) and the feed-forward (2 E F); S² pairs of
  // scores and context (2 E each)
  const enc = 2 * (3 * 16 + 16 + 2 * 32) + 2 * 2 * (4 + 4);
  // one target token: its own layer work, one visible self-attention pair, then cross-attention:
  // q and out for the token, k and v for the 2 source tokens, 1 × 2 pairs of scores and context
  const dec = 1 * (3 * 16 + 16 + 2 * 32) + 1 * (4 + 4) + (16 + 2 * 2 * 16 + 16) + 1 * 2 * (4 + 4);
  const out = 6 * 4;
  assert.equal(usefulFlops(t, { B: 1, srcLen: [2], tgtLen: [1] }), 3 * 2 * (enc + dec + out));
});

test(
  'bench --train-only --smoke: attnlab, tfjs-wasm and PyTorch agree at step 0 on every row',
  { timeout: 240_000 },
  (t) => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'attnlab-bench-train-'));
    try {
      const keys = ['train:reverse a', 'train:dates b', 'train:transformer-positions b'];
      const r = spawnSync(
        process.execPath,
        [
          'scripts/bench.mjs',
          '--train-only',
          '--smoke',
          '--train',
          `^(${keys.join('|')})$`,
          '--out',
          out,
        ],
        { cwd: ROOT, encoding: 'utf8', timeout: 230_000 },
      );
      assert.equal(r.status, 0, `bench exited ${r.status}\n${(r.stderr ?? '').slice(-3000)}`);
      const run = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
      const train = run.train;
      assert.deepEqual(
        train.rows.map((x) => x.key),
        keys,
      );
      assert.ok(train.peak?.gflops > 0, `the matmul peak: ${JSON.stringify(train.peak)}`);
      assert.equal(train.contenders.attnlab.info.simd, true, 'attnlab ran its SIMD build');
      for (const row of train.rows) {
        const preset = PRESETS.find((p) => p.id === row.preset).experiment;
        const spec = preset[row.run];
        assert.equal(row.parameters, parameterCount(spec.model, makeTask(preset.task)), row.key);
        assert.equal(row.batch, spec.train.batch, row.key);
        assert.ok(row.flops > 0 && row.tokens.every((n) => n.src > 0 && n.tgt > 0), row.key);
        const a = row.contenders.attnlab;
        assert.equal(a.status, 'ok', row.key);
        assert.ok(Number.isFinite(a.loss0) && a.loss0 > 0, `${row.key}: loss ${a.loss0}`);
        assert.equal(a.samples.length, train.rounds);
        assert.ok(a.ofPeak > 0, `${row.key}: % of peak`);
        const agree = (name, withGrad) => {
          const c = row.contenders[name];
          assert.equal(c?.status, 'ok', `${row.key} ${name}: ${JSON.stringify(c)}`);
          const rel = Math.abs(c.loss0 - a.loss0) / a.loss0;
          assert.ok(rel <= 1e-5, `${row.key} ${name}: loss ${c.loss0} vs attnlab ${a.loss0}`);
          assert.ok(
            Math.abs(c.norm0 - a.norm0) <= 1e-3 * a.norm0,
            `${row.key} ${name}: gradient norm ${c.norm0} vs ${a.norm0}`,
          );
          if (withGrad) assert.ok(c.gradRelDiff <= 1e-4, `${row.key}: gradient ${c.gradRelDiff}`);
          assert.equal(c.samples.length, train.rounds);
        };
        agree('tfjs-wasm', false);
        if (hasTorch) {
          agree('torch-1t', true);
          agree('torch-2t', false);
        }
      }
      if (!hasTorch) {
        assert.equal(train.contenders['torch-1t'].status, 'skipped');
        t.diagnostic(`${PYTHON} has no PyTorch: the torch contenders were not checked`);
        return;
      }
      for (const name of ['torch-1t', 'torch-2t']) {
        const info = train.contenders[name].info;
        assert.match(info.blas.config, /PyTorch built with/);
        assert.ok(info.blas.sgemm256GFs > 0);
        if (existsSync(path.join(OPENBLAS_DIR, 'libblas.so.3')))
          assert.ok(
            info.blas.libraries.some((l) => l.startsWith(OPENBLAS_DIR)),
            `${name} loaded ${info.blas.libraries.join(', ')}, not ${OPENBLAS_DIR}`,
          );
        else t.diagnostic(`${OPENBLAS_DIR} missing: ${name} ran on the system BLAS`);
      }
      const md = readFileSync(path.join(out, 'results.md'), 'utf8');
      assert.match(md, /## Training: one optimiser step of every lab preset/);
      assert.match(md, /\| reverse \| A \| LSTM 64, additive attention \|/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
);

test('bench --train-with refuses an unknown contender by name', () => {
  const r = spawnSync(process.execPath, ['scripts/bench.mjs', '--train-with', 'attnlab,torch'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /--train-with: unknown torch/);
});
