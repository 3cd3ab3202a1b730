// scripts/bench/lab.mjs: the lab's rows of `make bench`: training steps per second of every
// preset's runs (web/lab/spec.js PRESETS, A and B each) with one worker and with two (synchronous
// data parallelism, web/lab/lab-worker.js + shard-worker.js), driven through web/lab/run.js in
// Node worker threads: exactly the page's engine, held-out evaluation included (it is paced to
// ≤ 15 % of the training time, as on the page).
//
// Method: for each (preset, run) the 1-worker and 2-worker runs are initialised once and then
// alternate, round after round (so machine drift hits both alike): start, let WARMUP ms pass,
// take the last progress message, let SECONDS pass, take the last progress again, pause. A
// sample is Δstep / Δelapsed of those two messages (elapsed: the run's training time), in steps
// per second. Reported: median and p10–p90 over rounds, and the median per-round ratio
// (2 workers ÷ 1 worker).
// Deliberately not here: A and B together (the page's case; two runs share the cores), and any
// accuracy target (tests/browser measure those).

import { PRESETS } from '../../web/lab/spec.js';
import { createRun } from '../../web/lab/run.js';
import { medianRatio, summarize } from './stats.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * @param {{ filter?: RegExp | null, rounds?: number, seconds?: number, warmupMs?: number,
 *           smoke?: boolean, log?: (...a: any[]) => void }} o
 */
export async function measureLab(o = {}) {
  const rounds = o.rounds ?? (o.smoke ? 1 : 3);
  const seconds = o.seconds ?? (o.smoke ? 0.3 : 1.5);
  const warmupMs = o.warmupMs ?? (o.smoke ? 100 : 300);
  const log = o.log ?? (() => {});
  let cells = [];
  for (const p of PRESETS) {
    for (const which of ['a', 'b']) {
      const run = p.experiment[which];
      if (run) cells.push({ key: `${p.id} ${which}`, preset: p.id, run: which, task: p.experiment.task, spec: run });
    }
  }
  if (o.filter) cells = cells.filter((c) => o.filter.test(c.key));
  else if (o.smoke) cells = cells.slice(0, 1);
  const rows = [];
  for (const c of cells) {
    const m = c.spec.model;
    const label = m.family === 'transformer'
      ? `transformer ${m.layers}×${m.heads} heads, width ${m.width}, ${m.positions}`
      : `${m.bidirectional ? 'bi-' : ''}${m.cell.toUpperCase()} ${m.hidden}${m.layers > 1 ? ` ×${m.layers}` : ''}, ${m.attention === 'none' ? 'no attention' : `${m.attention} attention`}`;
    const variants = [];
    for (const workers of [1, 2]) {
      const run = createRun();
      const seen = { last: null, count: 0 };
      run.on('progress', (msg) => {
        seen.last = msg;
        seen.count++;
      });
      const ready = await run.init({ task: c.task, run: { model: c.spec.model, train: { ...c.spec.train, workers } } });
      variants.push({ workers, run, ready, samples: [], seen });
    }
    /** The next progress message after the count n (slow presets post one per step). */
    const next = async (seen, n) => {
      while (seen.count <= n) await sleep(5);
      return seen.last;
    };
    for (let r = 0; r < rounds; r++) {
      for (let j = 0; j < variants.length; j++) {
        const v = variants[(j + r) % variants.length];
        const n0 = v.seen.count;
        await v.run.start();
        await sleep(warmupMs);
        const a = await next(v.seen, n0);
        const na = v.seen.count;
        await sleep(seconds * 1000);
        const b = await next(v.seen, na);
        await v.run.pause();
        v.samples.push(b.elapsed > a.elapsed ? ((b.step - a.step) * 1000) / (b.elapsed - a.elapsed) : NaN);
      }
    }
    for (const v of variants) {
      v.run.dispose();
      const row = {
        key: `lab ${c.key} w${v.workers}`, preset: c.preset, run: c.run, label, task: `${c.task.name} ${c.task.minLength}–${c.task.maxLength}`,
        batch: c.spec.train.batch, parameters: v.ready.parameters, heldout: v.ready.heldoutCount, workers: v.workers,
        simd: v.ready.simd, samples: v.samples, summary: summarize(v.samples),
      };
      rows.push(row);
    }
    const [one, two] = rows.slice(-2);
    two.ratio = medianRatio(two.samples, one.samples);
    log(`  lab ${c.key.padEnd(28)} ${one.summary.median.toFixed(1).padStart(7)} steps/s (1 worker) ${two.summary.median.toFixed(1).padStart(7)} (2 workers) ×${two.ratio.toFixed(2)}`);
  }
  return { rounds, seconds, warmupMs, rows };
}

/** The markdown section of a run's lab rows. */
export function labMarkdown(lab) {
  const L = ['## The lab: training steps per second', ''];
  L.push(`Every preset of web/lab/spec.js, each run alone, through web/lab/run.js in Node worker threads (the page's engine; held-out evaluation included, paced to ≤ 15 % of training). ${lab.rounds} rounds of ${lab.seconds} s after ${lab.warmupMs} ms of warm-up, 1 and 2 workers alternating; median steps per second (p10–p90), and the median per-round ratio 2 workers ÷ 1.`, '');
  L.push('| preset | run | model | task | batch | parameters | 1 worker | 2 workers | 2 ÷ 1 |', '| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |');
  const f = (s) => `${s.median.toFixed(1)} (${s.p10.toFixed(1)}–${s.p90.toFixed(1)})`;
  for (let i = 0; i + 1 < lab.rows.length; i += 2) {
    const one = lab.rows[i], two = lab.rows[i + 1];
    L.push(`| ${one.preset} | ${one.run.toUpperCase()} | ${one.label} | ${one.task} | ${one.batch} | ${one.parameters.toLocaleString('en-US')} | ${f(one.summary)} | ${f(two.summary)} | ${Number.isFinite(two.ratio) ? `${two.ratio.toFixed(2)}×` : '–'} |`);
  }
  L.push('');
  return L;
}
