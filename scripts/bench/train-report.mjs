// scripts/bench/train-report.mjs: the train:<preset> rows of a run (scripts/bench/train.mjs) in
// words: the markdown section of bench/results.md (and of docs/benchmarks.md, as the figure
// bench.train), and the wasm SIMD matmul peak of the same run their GF/s are compared with.
// Nothing here measures.

const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const fmtX = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '–');

/** The best GF/s of the run's attnlab SIMD matmul rows: { case, gflops } or null. */
export function matmulPeak(run) {
  let best = null;
  for (const c of run.cases ?? []) {
    if (c.op !== 'matmul' || !c.flops) continue;
    const r = (run.results ?? []).find(
      (x) => x.case === c.key && x.contender === 'attnlab-simd' && x.status === 'ok',
    );
    const ms = r?.summary?.median;
    if (!Number.isFinite(ms)) continue;
    const gflops = c.flops / ms / 1e6;
    if (!best || gflops > best.gflops) best = { case: c.label, gflops };
  }
  return best;
}

/** "which BLAS, how loaded" of a run's torch contenders, one line each. */
function blasLines(train) {
  const L = [];
  for (const name of ['torch-1t', 'torch-2t']) {
    const c = train.contenders?.[name];
    if (!c) continue;
    if (c.status !== 'ok') {
      L.push(`- ${name}: skipped (${c.note})`);
      continue;
    }
    const b = c.info.blas ?? {};
    const info = /BLAS_INFO=(\w+)/.exec(b.config ?? '')?.[1];
    L.push(
      `- ${name}: PyTorch ${c.info.version}, torch.set_num_threads(${c.info.threads}); ${c.info.blasLoad}. Loaded: ${(b.libraries ?? []).map((l) => `\`${l}\``).join(', ') || 'no BLAS library seen in /proc/self/maps'}; torch.__config__.show(): BLAS_INFO=${info ?? '?'} (Debian's build links the generic libblas.so.3); sgemm 256³ ${fmt(b.sgemm256GFs)} GF/s.`,
    );
  }
  return L;
}

/** The table of train rows (also the docs' figure bench.train). */
export function trainTable(train) {
  if (!train?.rows?.length)
    return 'No train rows in this run (`node scripts/bench.mjs` measures them; `--train-only` alone).';
  const peak = train.peak;
  const L = [
    '| preset | run | model | task | batch | parameters | useful MFLOP / step | attnlab steps/s (p10–p90) | torch-1t | torch-2t | tfjs-wasm | attnlab ÷ torch-1t | ÷ torch-2t | ÷ tfjs-wasm | attnlab GF/s | % of matmul peak | step-0 loss: max rel. diff |',
    '| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of train.rows) {
    const a = r.contenders.attnlab ?? {};
    const sps = (c) =>
      c?.summary
        ? `${fmt(1000 / c.summary.median)} (${fmt(1000 / c.summary.p90)}–${fmt(1000 / c.summary.p10)})`
        : c?.status === 'not run'
          ? '–'
          : c
            ? `**${c.status}**`
            : '–';
    const other = (n) => r.contenders[n];
    const diffs = Object.values(r.contenders)
      .map((c) => c.lossRelDiff)
      .filter(Number.isFinite);
    L.push(
      `| ${r.preset} | ${r.run.toUpperCase()} | ${r.label} | ${r.task} | ${r.batch} | ${r.parameters.toLocaleString('en-US')} | ${fmt(r.flops / 1e6)} | ${sps(a)} | ${sps(other('torch-1t'))} | ${sps(other('torch-2t'))} | ${sps(other('tfjs-wasm'))} | ${fmtX(other('torch-1t')?.overAttnlab)} | ${fmtX(other('torch-2t')?.overAttnlab)} | ${fmtX(other('tfjs-wasm')?.overAttnlab)} | ${fmt(a.gflops, 2)} | ${peak && Number.isFinite(a.ofPeak) ? `${fmt(100 * a.ofPeak, 0)} %` : '–'} | ${diffs.length ? Math.max(...diffs).toExponential(1) : '–'} |`,
    );
  }
  return L.join('\n');
}

/** The markdown section of a run's train rows. */
export function trainMarkdown(train) {
  const L = ['## Training: one optimiser step of every lab preset (train:<preset>)', ''];
  if (train.error) return [...L, `**failed**: ${train.error}`, ''];
  L.push(
    `Steps per second of one optimiser step on the preset's own model, batch size, optimiser settings and task data (web/lab/tasks.js, steps 0–${train.batches - 1} cycled), every contender from the same initial weights on the same batches; ${train.rounds} interleaved rounds of ≈ ${train.targetMs} ms per contender, rotating order${train.pauseMs ? `, each sample after ${train.pauseMs} ms idle` : ''}; median (p10–p90 over rounds). "attnlab ÷ X" is the median per-round ratio of X's time to attnlab's (above 1: attnlab faster). Checked before timing: step-0 loss within ${train.lossRtol} (relative) of attnlab's, gradient norm within ${train.normRtol}, and torch-1t's whole step-0 gradient within ${train.gradRtol} of the largest element. GF/s counts useful FLOPs: 3 × the forward pass's matrix products on the real (unpadded) tokens, the keys' projection once per sentence (docs/benchmarks.md, "Training rows").`,
    '',
  );
  const at = train.contenders?.attnlab;
  if (at) L.push(`- attnlab: ${at.label}; ${Object.entries(at.info ?? {}).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  L.push(...blasLines(train));
  const tf = train.contenders?.['tfjs-wasm'];
  if (tf) L.push(`- tfjs-wasm: ${tf.status === 'ok' ? `${tf.label}; ${Object.entries(tf.info).map(([k, v]) => `${k} ${v}`).join(', ')}` : `skipped (${tf.note})`}`);
  L.push(
    `- matmul peak: ${train.peak ? `${fmt(train.peak.gflops, 1)} GF/s, the best attnlab SIMD matmul row of this run (${train.peak.case})` : 'no attnlab SIMD matmul row in this run'}`,
    '',
  );
  const notRun = train.rows.flatMap((r) =>
    Object.entries(r.contenders)
      .filter(([, c]) => c.status === 'not run')
      .map(([n, c]) => `${r.key} ${n}: ${c.why}`),
  );
  L.push(trainTable(train), '');
  if (notRun.length) L.push(`Not run: ${notRun.join('; ')}.`, '');
  return L;
}
