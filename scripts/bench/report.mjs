// scripts/bench/report.mjs: from a finished run (the JSON written to bench/results.json) to the
// Markdown report, the target verdicts, and the --check comparison with a committed run.
// Pure functions of the run object: nothing here times, spawns or writes files.

import { geomean, medianRatio, summarize } from './stats.mjs';
import { labMarkdown } from './lab.mjs';
import { trainMarkdown, trainTable } from './train-report.mjs';

const BASE = 'attnlab-simd';
const PEERS = ['tfjs-wasm', 'ort-wasm'];

const fmtMs = (ms) => (!Number.isFinite(ms) ? '–' : ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms >= 0.01 ? ms.toFixed(3) : ms.toFixed(4));
const fmtX = (r) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : '–');
const fmtKB = (b) => `${(b / 1024).toFixed(1)} KB`;
const fmtSpread = (s) => `${fmtMs(s.median)} (${fmtMs(s.p10)}–${fmtMs(s.p90)})`;

/** Per-round samples of contender `name` on case `key`, or null. */
function samples(run, key, name) {
  const row = run.results.find((r) => r.case === key && r.contender === name);
  return row && row.status === 'ok' ? row.samples : null;
}

/** Median over rounds of t_peer / t_attnlab (> 1: attnlab faster). `peer` may be a list: the faster one each round. */
export function speedup(run, key, peer, base = BASE) {
  const b = samples(run, key, base);
  const peers = (Array.isArray(peer) ? peer : [peer]).map((p) => samples(run, key, p)).filter(Boolean);
  if (!b || peers.length === 0) return NaN;
  const fastest = b.map((_, i) => Math.min(...peers.map((s) => s[i])));
  return medianRatio(fastest, b);
}

/** The targets of the benchmark issue, each { target, value, met } for the SIMD build and the API path. */
export function evaluateTargets(run) {
  const out = [];
  const keys = new Set(run.cases.map((c) => c.key));
  const cases = run.cases;
  let group = '';
  let via; // 'api' for rows of an attnlab build timed through the public JS API
  const add = (target, base, value, threshold, cmp, unit = '×') => {
    const met = Number.isFinite(value) ? (cmp === '>=' ? value >= threshold : value <= threshold) : null;
    out.push({ target, contender: base, value, threshold, cmp, met, unit, group, path: via });
  };
  // "tiny": matmul up to 64³, attention (sdpa, MHA, additive) up to n = 64
  const tiny = (x) => (x.op === 'matmul' ? x.M * x.K * x.N <= 64 ** 3
    : x.op === 'sdpa' || x.op === 'mha' ? x.T <= 64 : x.op === 'additive' ? x.n <= 64 : false);
  const long = (x) => (x.op === 'sdpa' && x.T >= 256 && !x.weights) || (x.op === 'mha' && x.T >= 256) || (x.op === 'additive' && x.n >= 256);
  for (const base of [BASE, 'attnlab-api']) {
    for (const c of cases.filter((x) => x.op === 'matmul' && x.M * x.K * x.N >= 128 ** 3)) {
      group = 'matmul at 128³ and above: ≥ 1.5× tfjs-wasm';
      add(`${c.label}: ≥ 1.5× tfjs-wasm`, base, speedup(run, c.key, 'tfjs-wasm', base), 1.5, '>=');
      // within 1.3× of native: t_attnlab / t_native ≤ 1.3
      group = 'matmul at 128³ and above: within 1.3× of native';
      add(`${c.label}: within 1.3× of native`, base, 1 / speedup(run, c.key, 'native', base), 1.3, '<=');
    }
    group = 'every op at tiny sizes: ≥ 3× the faster peer';
    for (const c of cases.filter(tiny)) {
      add(`${c.label}: ≥ 3× the faster peer`, base, speedup(run, c.key, PEERS, base), 3, '>=');
    }
    for (const c of cases.filter(long)) {
      const need = c.causal ? 3 : 1.5;
      group = c.causal ? 'causal attention at n ≥ 256: ≥ 3× both peers' : 'attention at n ≥ 256: ≥ 1.5× both peers';
      add(`${c.label}: ≥ ${need}× both peers`, base, speedup(run, c.key, PEERS, base), need, '>=');
    }
    group = 'LSTM / GRU layers: ≥ 1.5× onnxruntime-web';
    for (const c of cases.filter((x) => x.op === 'lstm' || x.op === 'gru')) {
      add(`${c.label}: ≥ 1.5× onnxruntime-web`, base, speedup(run, c.key, 'ort-wasm', base), 1.5, '>=');
    }
    group = 'whole model: under 1 ms per keystroke';
    for (const c of cases.filter((x) => x.op === 'model')) {
      const s = samples(run, c.key, base);
      add(`${c.label}: under 1 ms`, base, s ? summarize(s).median : NaN, 1, '<=', 'ms');
    }
    group = 'training step: ≥ 3× PyTorch';
    for (const c of cases.filter((x) => x.op === 'train')) {
      add(`${c.label}: ≥ 3× PyTorch`, base, speedup(run, c.key, 'torch', base), 3, '>=');
    }
  }
  // the shipped-model rows run the SIMD build through the public JS API: the API path
  group = 'every dates model: under 1 ms per keystroke';
  via = 'api';
  for (const c of cases.filter((x) => x.op === 'shipped' && x.name.startsWith('dates-'))) {
    const s = samples(run, c.key, BASE);
    add(`${c.name} per keystroke: under 1 ms`, BASE, s ? summarize(s).median : NaN, 1, '<=', 'ms');
  }
  via = undefined;
  group = 'init() under 20 ms';
  const st = run.startup?.attnlab;
  if (st) add('init() under 20 ms (median, fresh process)', 'attnlab', st.readyMs.median, 20, '<=', 'ms');
  group = 'SIMD .wasm under 160 KB';
  const size = run.sizes?.find((s) => s.file === 'wasm/attnlab.wasm');
  if (size) add('SIMD .wasm under 160 KB', 'attnlab', size.raw / 1024, 160, '<=', 'KB');
  // issue #31: the train:<preset> rows (scripts/bench/train.mjs), attnlab one worker
  const trainRows = run.train?.rows ?? [];
  const over = (r, name) => r.contenders[name]?.overAttnlab ?? NaN;
  group = 'every lab preset: training ≥ 2× torch-1t';
  for (const r of trainRows) add(`${r.key}: ≥ 2× torch-1t`, 'attnlab', over(r, 'torch-1t'), 2, '>=');
  group = 'every lab preset: training ≥ 10× tfjs-wasm';
  for (const r of trainRows) add(`${r.key}: ≥ 10× tfjs-wasm`, 'attnlab', over(r, 'tfjs-wasm'), 10, '>=');
  group = 'translation A: ≥ 50 % of the wasm SIMD matmul peak on useful FLOPs';
  for (const r of trainRows.filter((x) => x.preset === 'translation' && x.run === 'a'))
    add(`${r.key}: ≥ 50 % of the matmul peak`, 'attnlab', 100 * (r.contenders.attnlab?.ofPeak ?? NaN), 50, '>=', '%');
  void keys;
  return out;
}

function infoLine(info = {}) {
  const { command, ok, blas, ...rest } = info;
  void command; void ok;
  const b = blas ? [`BLAS loaded ${(blas.libraries ?? []).join(' ') || '?'} (sgemm 256³ ${blas.sgemm256GFs} GF/s)`] : [];
  return [...Object.entries(rest).map(([k, v]) => `${k} ${v}`), ...b].join(', ');
}

function machineLines(run) {
  const m = run.machine;
  return [
    `- machine: ${m.cpu}, ${m.cores} cores, ${m.memGB} GB; ${m.os}; load average (1/5/15 min) ${m.loadAvgStart?.join(' ')} at the start, ${m.loadAvgEnd?.join(' ')} at the end`,
    `- Node ${m.node} (V8 ${m.v8}); CPU flags: ${m.flags || 'n/a'}`,
    ...Object.entries(run.contenders).map(([n, c]) => `- ${n}: ${c.label}; ${c.status === 'ok' ? infoLine(c.info) : `skipped (${c.note})`}`),
    `- date: ${run.date}; command: \`${run.command}\`; ${run.rounds} interleaved rounds after warm-up, ~${run.targetMs} ms per sample; wall time ${run.wallSeconds.toFixed(0)} s`,
  ];
}

/** The Markdown report. */
export function toMarkdown(run) {
  const names = Object.keys(run.contenders).filter((n) => run.contenders[n].status === 'ok');
  const L = [];
  L.push('# attnlab benchmarks: last run', '');
  L.push('Generated by `node scripts/bench.mjs` (`make bench`); see docs/benchmarks.md for the method.', '');
  L.push(...machineLines(run), '');
  L.push('Median milliseconds per call; in brackets the median over rounds of (this contender ÷ attnlab SIMD) in the same round: above 1 means attnlab SIMD is faster.', '');
  const sections = [
    [['matmul'], 'Matrix multiply, f32'],
    [['sdpa'], 'Scaled dot-product attention, D = 64, B = 1'],
    [['mha'], 'Multi-head attention with projections (nn.MultiheadAttention), self-attention, B = 1'],
    [['additive'], 'Additive (Bahdanau) attention, one query against n keys, dq = dk = dv'],
    [['lstm', 'gru'], 'Recurrent layers (one layer, batch 1, weights resident for attnlab)'],
    [['model', 'train'], 'Whole model: per-keystroke latency and one training step'],
  ];
  const shipped = shippedRows(run);
  for (const [ops, title] of sections) {
    const cs = run.cases.filter((c) => ops.includes(c.op));
    if (cs.length === 0) continue;
    L.push(`## ${title}`, '');
    for (const c of cs) {
      if (c.op === 'model') L.push(`- ${c.label}: \`${c.model}\` (${c.why}), greedy, input ${JSON.stringify(c.text)}; the attnlab-api row is the public JS API (\`loadModel\` once, then \`model.run(text)\`).`);
      if (c.op === 'train') L.push(`- ${c.label}: \`${c.model}\`, ${c.batch} pairs (${c.data}; source ≤ ${c.S}, target ≤ ${c.T} tokens), Adam lr 3e-3, clip 1; checked on the first step's loss and gradient norm.`);
    }
    if (cs.some((c) => c.op === 'model' || c.op === 'train')) L.push('');
    L.push(`| case | ${names.join(' | ')} |`, `| --- | ${names.map(() => '---:').join(' | ')} |`);
    for (const c of cs) {
      const cells = names.map((n) => {
        const r = run.results.find((x) => x.case === c.key && x.contender === n);
        if (!r) return '–';
        if (r.status !== 'ok') return `**${r.status}**`;
        const ratio = n === BASE ? '' : ` (${fmtX(medianRatio(r.samples, samples(run, c.key, BASE) ?? []))})`;
        return `${fmtMs(r.summary.median)}${ratio}`;
      });
      L.push(`| ${c.label} | ${cells.join(' | ')} |`);
    }
    L.push('');
  }
  if (shipped.length) L.push(...shippedMarkdown(run, shipped));
  L.push('## Targets', '');
  L.push('Each target of the benchmark issue, over every row it covers; "kernel" is attnlab SIMD on resident inputs, "API" the public JS API (weights resident via prepare() where the op takes them, inputs copied per call; the attnlab-api-plain column of the tables copies everything). A target is met on a path when every row is; "?" when a row it needs did not run.', '');
  L.push('| target (issue) | kernel | API | rows met (kernel / API) |', '| --- | :---: | :---: | ---: |');
  const verdict = (ts) => (ts.length === 0 ? '–' : ts.some((t) => t.met === null) ? '?' : ts.every((t) => t.met) ? 'yes' : '**no**');
  const count = (ts) => (ts.length ? `${ts.filter((t) => t.met).length} of ${ts.length}` : '–');
  for (const g of [...new Set(run.targets.map((t) => t.group ?? t.target))]) {
    const ts = run.targets.filter((t) => (t.group ?? t.target) === g);
    const k = ts.filter((t) => !onApi(t));
    const a = ts.filter(onApi);
    L.push(`| ${g} | ${verdict(k)} | ${a.length ? verdict(a) : '–'} | ${count(k)}${a.length ? ` / ${count(a)}` : ''} |`);
  }
  L.push('');
  L.push('Every row of the targets:', '');
  L.push('| target | attnlab path | value | met |', '| --- | --- | ---: | :---: |');
  for (const t of run.targets) {
    const who = t.path === 'api' && t.contender !== 'attnlab-api' ? `${t.contender} via the JS API` : t.contender;
    const unit = t.unit ?? (t.target.includes('KB') ? 'KB' : t.target.includes(' ms') ? 'ms' : '×'); // older runs have no unit
    const v = !Number.isFinite(t.value) ? '–' : unit === 'KB' ? `${t.value.toFixed(1)} KB` : unit === 'ms' ? `${fmtMs(t.value)} ms` : unit === '%' ? `${t.value.toFixed(0)} %` : fmtX(t.value);
    L.push(`| ${t.target} | ${who} | ${v} | ${t.met === null ? '?' : t.met ? 'yes' : '**no**'} |`);
  }
  L.push('');
  if (run.startup) {
    L.push('## Start-up and size', '');
    L.push(`Fresh child process per sample (${run.startupRuns} each, medians; p10–p90 in brackets).`, '');
    L.push('| library | import JS | ready (fetch + compile + instantiate) | first op | RSS growth |', '| --- | ---: | ---: | ---: | ---: |');
    const what = { attnlab: 'attnlab init()', 'tfjs-wasm': "tfjs setBackend('wasm')", 'ort-wasm': 'ort first InferenceSession.create' };
    for (const [k, s] of Object.entries(run.startup)) {
      if (s.error) { L.push(`| ${what[k]} | **${s.error}** | | | |`); continue; }
      const f = (x) => `${x.median.toFixed(1)} (${x.p10.toFixed(1)}–${x.p90.toFixed(1)})`;
      L.push(`| ${what[k]} | ${f(s.loadMs)} ms | ${f(s.readyMs)} ms | ${f(s.firstOpMs)} ms | ${s.rssMB.median.toFixed(1)} MB |`);
    }
    L.push('');
    L.push('| .wasm | raw | gzip -9 |', '| --- | ---: | ---: |');
    for (const s of run.sizes) L.push(`| ${s.file} | ${fmtKB(s.raw)} | ${fmtKB(s.gzip)} |`);
    L.push('');
  }
  if (run.lab?.rows) L.push(...labMarkdown(run.lab));
  else if (run.lab?.error) L.push('## The lab: training steps per second', '', `**failed**: ${run.lab.error}`, '');
  if (run.train) L.push(...trainMarkdown(run.train));
  L.push('## Every row', '');
  L.push('Checked against attnlab scalar before timing (max |Δ| over the output); spread is p10–p90 over rounds; GFLOP/s counts the useful work (causal: visible pairs only).', '');
  L.push('| case | contender | variant | median ms | p10–p90 ms | GFLOP/s | max abs diff | ÷ attnlab SIMD |', '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |');
  for (const c of run.cases) {
    for (const n of Object.keys(run.contenders)) {
      const r = run.results.find((x) => x.case === c.key && x.contender === n);
      if (!r) continue;
      if (r.status !== 'ok') {
        L.push(`| ${c.label} | ${n} | ${r.variant ?? ''} | **${r.status}** | ${r.error ?? ''} | | ${r.maxAbsDiff !== undefined ? r.maxAbsDiff.toExponential(1) : ''} | |`);
        continue;
      }
      const s = r.summary;
      L.push(`| ${c.label} | ${n} | ${r.variant} | ${fmtMs(s.median)} | ${fmtMs(s.p10)}–${fmtMs(s.p90)} | ${c.flops ? (c.flops / s.median / 1e6).toFixed(2) : '–'} | ${r.maxAbsDiff.toExponential(1)} | ${n === BASE ? '1' : fmtX(medianRatio(r.samples, samples(run, c.key, BASE) ?? []))} |`);
    }
  }
  L.push('');
  if (run.notes.length) L.push('## Notes', '', ...run.notes.map((n) => `- ${n}`), '');
  return L.join('\n');
}

/** Is a target about the public JS API (the attnlab-api rows, and the shipped-model rows)? */
const onApi = (t) => t.contender === 'attnlab-api' || t.path === 'api';

/**
 * The "every shipped model, per input" section as data (run.shipped in the JSON): per model its
 * file, architecture, size, input and call, and the SIMD and scalar summaries (or the row's
 * status) with the median over rounds of t_scalar / t_SIMD.
 */
export function shippedRows(run) {
  return run.cases.filter((c) => c.op === 'shipped').map((c) => {
    const row = (name) => {
      const r = run.results.find((x) => x.case === c.key && x.contender === name);
      return !r ? null : r.status === 'ok' ? { ...r.summary, maxAbsDiff: r.maxAbsDiff } : { status: r.status, error: r.error };
    };
    return {
      model: c.name, file: c.model, family: c.family, architecture: c.architecture, params: c.params, bytes: c.bytes,
      input: c.text, tokens: c.tokens, call: c.call,
      simd: row(BASE), scalar: row('attnlab-scalar'),
      scalarOverSimd: medianRatio(samples(run, c.key, 'attnlab-scalar') ?? [], samples(run, c.key, BASE) ?? []),
    };
  });
}

function shippedMarkdown(run, rows) {
  const L = ['## Every shipped model, per input', ''];
  L.push('One row per `web/models/*.safetensors`: its input is the registry\'s sample (`sampleFor(name)`, web/shared/models.js) and the call the one the page\'s view makes on a keystroke (`model.run(sample)`; the reading view\'s memory-rnn language models `model.run(readingInput(sample), { distributions: true })`). Both builds through the public JS API, each in a worker thread of its own (`init({ simd })`, `loadModel` once, then the call timed); checked before timing: the same output text / label / argmax as scalar, numbers within 1e-4. Median ms per input (p10–p90 over rounds); scalar ÷ SIMD is the median of per-round ratios. tfjs and onnxruntime-web have no form of these models. Target (the issue): every dates model under 1 ms per keystroke; the others are reported without one.', '');
  const peers = PEERS.filter((n) => run.contenders[n]);
  L.push(`| model | architecture | parameters | bytes | input (tokens) | attnlab SIMD ms | attnlab scalar ms | scalar ÷ SIMD | ${peers.join(' | ')} |`);
  L.push(`| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ${peers.map(() => ':---:').join(' | ')} |`);
  const cell = (x) => (!x ? '–' : x.status ? `**${x.status}**` : fmtSpread(x));
  for (const r of rows) {
    const input = `\`${r.input.replace(/\|/g, '\\|')}\` (${r.tokens ?? '?'})`;
    L.push(`| ${r.model} | ${r.architecture} | ${r.params.toLocaleString('en-US')} | ${fmtKB(r.bytes)} | ${input} | ${cell(r.simd)} | ${cell(r.scalar)} | ${fmtX(r.scalarOverSimd)} | ${peers.map(() => '–').join(' | ')} |`);
  }
  L.push('');
  return L;
}

/**
 * --check: for each case both runs have, how much slower attnlab got relative to the peers:
 * drift = (t_attnlab / t_peer now) / (t_attnlab / t_peer then), geometric mean over the peers
 * and ceilings both runs measured (tfjs-wasm, ort-wasm, native). Ratios, not times, so a slower
 * or faster machine cancels out. Flags drift > 1 + tolerance. The shipped-model rows have no peer
 * form: their yardstick is native on the whole-model case (when both runs have the same one),
 * t_attnlab / t_native taken within each round as everywhere, for the SIMD and scalar builds.
 */
export function compareRuns(now, then, tolerance = 0.2) {
  const rows = [];
  const others = ['tfjs-wasm', 'ort-wasm', 'native'];
  const modelKey = (run) => run.cases.find((x) => x.op === 'model')?.key;
  const yardstick = modelKey(now) === modelKey(then) ? modelKey(now) : undefined;
  for (const c of now.cases) {
    if (!then.cases.some((x) => x.key === c.key)) continue;
    if (c.op === 'shipped') {
      for (const base of [BASE, 'attnlab-scalar']) {
        const rel = (run) => medianRatio(samples(run, c.key, base) ?? [], samples(run, yardstick, 'native') ?? []);
        const drift = rel(now) / rel(then);
        if (Number.isFinite(drift)) rows.push({ case: c.label, contender: base, drift, peers: 1, against: `native on ${yardstick}`, slower: drift > 1 + tolerance });
      }
      continue;
    }
    for (const base of ['attnlab-simd', 'attnlab-scalar', 'attnlab-api', 'attnlab-api-plain']) {
      const drifts = [];
      for (const p of others) {
        const rNow = 1 / speedup(now, c.key, p, base);
        const rThen = 1 / speedup(then, c.key, p, base);
        if (Number.isFinite(rNow) && Number.isFinite(rThen)) drifts.push(rNow / rThen);
      }
      if (drifts.length === 0) continue;
      const drift = geomean(drifts);
      rows.push({ case: c.label, contender: base, drift, peers: drifts.length, slower: drift > 1 + tolerance });
    }
  }
  return rows;
}

export { summarize };

/**
 * The summary table docs/performance.md quotes (between its `<!-- figure: bench.summary -->`
 * markers): a few rows of the run, the faster wasm peer with the median over rounds of how many
 * times slower it was, native C and PyTorch. `node scripts/bench.mjs --figures` prints it from the
 * committed bench/results.json, without running anything.
 */
const SUMMARY_ROWS = [
  ['matmul 1x64x256', 'matmul 1×64×256'],
  ['matmul 128x128x128', 'matmul 128×128×128'],
  ['matmul 512x512x512', 'matmul 512×512×512'],
  ['sdpa h1 n16', 'SDPA 1 head, n = 16, d = 64'],
  ['sdpa h4 n64', 'SDPA 4 heads, n = 64'],
  ['sdpa h4 n256', 'SDPA 4 heads, n = 256'],
  ['sdpa h4 n1024 causal', 'SDPA 4 heads, n = 1024, causal'],
  ['mha e128 h4 n64', 'multi-head attention E = 128, h = 4, n = 64'],
  ['additive d128 n64', 'additive attention d = 128, n = 64'],
  ['lstm t64 i32 h128', 'LSTM T = 64, I = 32, H = 128'],
  ['gru t64 i32 h128', 'GRU T = 64, I = 32, H = 128'],
  ['model dates-local-p', 'dates model (local-p), one keystroke (20 chars)'],
  ['train dates-local-p b32', 'dates model, one training step (batch 32)'],
];

export function summaryMarkdown(run) {
  const median = (key, name) => run.results.find((r) => r.case === key && r.contender === name && r.status === 'ok')?.summary.median;
  const L = ['| work | attnlab SIMD | faster peer | native C | PyTorch |', '| --- | ---: | ---: | ---: | ---: |'];
  for (const [key, label] of SUMMARY_ROWS) {
    const c = run.cases.find((x) => x.key === key);
    if (!c) continue;
    const base = median(key, BASE);
    const big = c.op === 'matmul' && c.M * c.K * c.N >= 128 ** 3;
    const simd = `${fmtMs(base)}${big ? ` (${Math.round(c.flops / base / 1e6)} GFLOP/s)` : ''}`;
    const peers = PEERS.map((p) => median(key, p)).filter(Number.isFinite);
    const peer = peers.length ? `${fmtMs(Math.min(...peers))} (${speedup(run, key, PEERS).toFixed(1)}×)` : '–';
    const other = (n) => (Number.isFinite(median(key, n)) ? fmtMs(median(key, n)) : '');
    L.push(`| ${label} | ${simd} | ${peer} | ${other('native')} | ${other('torch')} |`);
  }
  const s = run.startup;
  if (s?.attnlab?.readyMs) {
    const ready = (k) => s[k]?.readyMs?.median;
    const peer = [['tfjs', 'tfjs-wasm'], ['ort', 'ort-wasm']].filter(([, k]) => Number.isFinite(ready(k))).map(([n, k]) => `${n} ${fmtMs(ready(k))}`);
    L.push(`| \`init()\` in Node (fresh process) | ${ready('attnlab').toFixed(1)} | ${peer.join(', ')} | | |`);
  }
  return L.join('\n');
}

/**
 * Every figure docs/performance.md quotes from a run, by the name its marker carries (see
 * scripts/figures.mjs): the date, the summary table, the shipped models' per-input times and the
 * numbers of the targets paragraph (the kernel path, attnlab SIMD).
 */
export function docFigures(run) {
  const iso = new Date(run.date).toISOString();
  const out = { 'bench.date': `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`, 'bench.summary': summaryMarkdown(run), 'bench.train': trainTable(run.train) };
  // the README's training sentence: attnlab ÷ torch-1t and ÷ tfjs-wasm over every train row
  const trainOver = (name) => (run.train?.rows ?? []).map((r) => r.contenders[name]?.overAttnlab).filter(Number.isFinite);
  const spanX = (xs) => (xs.length ? `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}×` : '–');
  out['bench.train.torch'] = spanX(trainOver('torch-1t'));
  out['bench.train.tfjs'] = spanX(trainOver('tfjs-wasm'));
  out['bench.train.ahead'] = `${trainOver('torch-1t').filter((x) => x >= 2).length} of ${(run.train?.rows ?? []).length}`;
  // shipped models: a range over a family (3 decimals) or the values of a pair (2 significant digits)
  const shipped = shippedRows(run).filter((r) => r.simd?.median !== undefined);
  const times = (prefix) => shipped.filter((r) => r.model.startsWith(prefix)).map((r) => r.simd.median).sort((a, b) => a - b);
  const range = (xs, f) => (xs.length === 0 ? '–' : f(xs[0]) === f(xs.at(-1)) ? f(xs[0]) : `${f(xs[0])}–${f(xs.at(-1))}`);
  const fixed = (d) => (x) => x.toFixed(d);
  const sig = (x) => x.toPrecision(2);
  out['bench.shipped.dates'] = `${range(times('dates-'), fixed(3))} ms`;
  out['bench.shipped.reviews'] = `${range(times('clf-reviews-'), fixed(3))} ms`;
  out['bench.shipped.agreement'] = `${range(times('lm-agreement-'), fixed(3))} ms`;
  out['bench.shipped.reverse'] = `${times('seq-reverse-').map(sig).join(' / ')} ms`;
  out['bench.shipped.tfDates'] = `${times('tf-dates-').map(sig).join(' / ')} ms`;
  out['bench.shipped.induction'] = `${times('tf-induction').map(sig).join(' / ')} ms`;
  // the targets, kernel path; a target row's case is the one whose label it starts with
  const kernel = run.targets.filter((t) => !onApi(t) && t.contender !== 'attnlab-api');
  const caseOf = (t) => run.cases.find((c) => t.target.startsWith(`${c.label}:`));
  const inGroup = (g) => kernel.filter((t) => (t.group ?? t.target) === g);
  const met = (ts, unit = '') => `${ts.filter((t) => t.met).length} of ${ts.length}${unit}`;
  const one = (g) => inGroup(g)[0]?.value ?? NaN;
  // the shipped dates models are timed through the API (path 'api'), the only path they have
  out['bench.target.keystroke'] = met(run.targets.filter((t) => t.group === 'every dates model: under 1 ms per keystroke'));
  out['bench.target.train'] = `${one('training step: ≥ 3× PyTorch').toFixed(2)}×`;
  out['bench.target.init'] = `${one('init() under 20 ms').toFixed(1)} ms`;
  // runs before issue 29 named the target by its former 150 KB
  const wasmKb = one('SIMD .wasm under 160 KB');
  out['bench.target.wasm'] = `${(Number.isNaN(wasmKb) ? one('SIMD .wasm under 150 KB') : wasmKb).toFixed(1)} KB`;
  out['bench.target.native'] = met(inGroup('matmul at 128³ and above: within 1.3× of native'));
  const gflops = run.cases
    .filter((c) => c.op === 'matmul' && c.M * c.K * c.N >= 128 ** 3)
    .map((c) => run.results.find((r) => r.case === c.key && r.contender === BASE && r.status === 'ok'))
    .filter(Boolean)
    .map((r) => run.cases.find((c) => c.key === r.case).flops / r.summary.median / 1e6)
    .sort((a, b) => a - b);
  out['bench.target.gflops'] = range(gflops, (x) => x.toFixed(0));
  out['bench.target.tfjs'] = inGroup('matmul at 128³ and above: ≥ 1.5× tfjs-wasm').map((t) => `${t.value.toFixed(2)}×`).join(', ');
  const tiny = inGroup('every op at tiny sizes: ≥ 3× the faster peer');
  out['bench.target.tiny'] = met(tiny, ' rows');
  out['bench.target.tinyMisses'] = `${range(tiny.filter((t) => !t.met).map((t) => t.value).sort((a, b) => a - b), fixed(1))}×`;
  const long = inGroup('attention at n ≥ 256: ≥ 1.5× both peers');
  const at = (n) => long.filter((t) => (caseOf(t)?.T ?? caseOf(t)?.n) === n).map((t) => t.value).sort((a, b) => a - b);
  out['bench.target.long256'] = `${range(at(256), fixed(2))}×`;
  out['bench.target.long1024'] = `${range(at(1024), fixed(2))}×`;
  const causal = inGroup('causal attention at n ≥ 256: ≥ 3× both peers').map((t) => t.value).sort((a, b) => a - b);
  out['bench.target.causal'] = `${range(causal, fixed(2))}×`;
  out['bench.target.rnn'] = inGroup('LSTM / GRU layers: ≥ 1.5× onnxruntime-web').map((t) => `${t.value.toFixed(2)}×`).join(', ');
  return out;
}
