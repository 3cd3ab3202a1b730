#!/usr/bin/env node
// lab-targets.mjs: the lab's targets of issue 15, measured in Chromium on this machine, A and B
// training together in the page (web/index.html#view=lab&preset=…), as a teacher would run them.
//
//   node scripts/lab-targets.mjs                 # every target below; prints a Markdown table
//   node scripts/lab-targets.mjs --only dates    # one (ids: reverse, dates, with-without)
//   node scripts/lab-targets.mjs --json out.json
//
// For each preset: open the page at the preset, press Start (both runs train at once, each in its
// worker), read the runs' held-out evaluations as they arrive (lab.runs: each run's training time,
// step, exact match and exact match by input length), and stop at the target or the time limit.
// Times are the runs' own training time (paused time left out; the page starts both together).
// Targets (issue 15, "Speed"):
//   reverse 5–20, LSTM + additive attention (the reverse preset's A): ≥ 99 % held-out exact match within 60 s
//   dates with additive attention (the dates preset's A): ≥ 90 % within 15 s
//   with vs without attention, reverse 5–40: within 180 s, the attention run (A) above 95 % at
//     every input length, while the run without attention (B) falls with length
// A measurement, not a test: nothing here fails the build (speed is claimed from commands, not
// timed tests); it exits 1 only when the page could not run. Quote the machine with the figures.

import { cpus } from 'node:os';
import { writeFile } from 'node:fs/promises';
import { startBrowser } from '../tests/browser/harness.js';

const TARGETS = [
  {
    id: 'reverse',
    preset: 'reverse',
    run: 'a',
    what: 'reverse 5–20, LSTM + additive (A)',
    limitS: 60,
    kind: 'exact',
    at: 0.99,
  },
  {
    id: 'dates',
    preset: 'dates',
    run: 'a',
    what: 'dates, additive (A)',
    limitS: 15,
    kind: 'exact',
    at: 0.9,
  },
  {
    id: 'with-without',
    preset: 'with-without',
    run: 'a',
    what: 'reverse 5–40: additive (A) vs none (B)',
    limitS: 180,
    kind: 'by-length',
    at: 0.95,
  },
];
const GRACE_S = 1.5; // keep polling this long past the limit for an evaluation made just before it
const POLL_MS = 250;

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : null;
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;

/** Slope of a least-squares line through (x, y): how exact match changes per unit of length. */
function slope(points) {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  let sxy = 0,
    sxx = 0;
  for (const p of points) {
    sxy += (p.x - mx) * (p.y - my);
    sxx += (p.x - mx) ** 2;
  }
  return sxx > 0 ? sxy / sxx : 0;
}

async function measure(browser, target) {
  const { page, problems } = await browser.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${browser.url}/web/index.html#view=lab&preset=${target.preset}&lang=en`);
  await page.waitForSelector('#app[data-state="ready"]');
  await page.waitForFunction(() => document.querySelector('attn-lab')?.experiment, null, {
    timeout: 30000,
  });
  await page.evaluate(() => document.querySelector('attn-lab').whenReady());
  await page.evaluate(() => document.querySelector('attn-lab').start());
  const history = { a: [], b: [] };
  let reached = null;
  const t0 = Date.now();
  for (;;) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const runs = await page.evaluate(() => document.querySelector('attn-lab').runs);
    for (const id of ['a', 'b']) {
      const r = runs[id];
      if (!r) continue;
      if (r.error) throw new Error(`${target.id}: run ${id} failed: ${r.error}`);
      const h = history[id];
      if (r.exactMatch !== null && (h.length === 0 || h[h.length - 1].evals !== r.evals)) {
        h.push({
          evals: r.evals,
          step: r.step,
          elapsed: r.elapsed,
          sps: r.stepsPerSecond,
          exactMatch: r.exactMatch,
          byLength: r.byLength,
        });
      }
    }
    const last = history[target.run].at(-1);
    if (!reached && last && last.elapsed <= target.limitS * 1000) {
      const ok =
        target.kind === 'exact'
          ? last.exactMatch >= target.at
          : last.byLength?.length > 0 && last.byLength.every((g) => g.exactMatch > target.at);
      if (ok) reached = last;
    }
    const elapsed = Math.max(...['a', 'b'].map((id) => history[id].at(-1)?.elapsed ?? 0));
    if (reached && target.kind === 'exact') break;
    if (
      elapsed > (target.limitS + GRACE_S) * 1000 ||
      Date.now() - t0 > (target.limitS * 3 + 60) * 1000
    )
      break;
  }
  await page.evaluate(() => document.querySelector('attn-lab').pause());
  await page.close();
  if (problems.length) throw new Error(`${target.id}: ${problems.join('; ')}`);
  const within = (id) =>
    history[id].filter((e) => e.elapsed <= target.limitS * 1000).at(-1) ?? null;
  return { target, reached, a: within('a'), b: within('b'), history };
}

function describe(m) {
  const pct = (x) => (x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)} %`);
  const s = (e) => (e ? `${(e.elapsed / 1000).toFixed(1)} s, step ${e.step}` : '–');
  const { target, reached, a, b } = m;
  if (target.kind === 'exact') {
    const run = target.run === 'a' ? a : b;
    return `| ${target.what} | ≥ ${pct(target.at)} within ${target.limitS} s | ${reached ? `**met** at ${s(reached)} (${pct(reached.exactMatch)})` : `not met: ${pct(run?.exactMatch)} at ${s(run)}`} | A ${pct(a?.exactMatch)}, B ${pct(b?.exactMatch)} at ${target.limitS} s |`;
  }
  const minA = a?.byLength ? Math.min(...a.byLength.map((g) => g.exactMatch)) : null;
  const slopeB = b?.byLength
    ? slope(b.byLength.map((g) => ({ x: g.length, y: g.exactMatch })))
    : null;
  const ends = (e) =>
    e?.byLength?.length
      ? `${pct(e.byLength[0].exactMatch)} at length ${e.byLength[0].length} → ${pct(e.byLength.at(-1).exactMatch)} at ${e.byLength.at(-1).length}`
      : '–';
  const falls = slopeB !== null && slopeB < 0;
  return `| ${target.what} | A > ${pct(target.at)} at every length, B falling, within ${target.limitS} s | ${reached && falls ? `**met** at ${s(reached)}` : 'not met'}: A's worst length ${pct(minA)}; B ${falls ? 'falls' : 'does not fall'} (${(100 * (slopeB ?? 0)).toFixed(2)} points per character) | A ${ends(a)}; B ${ends(b)} (${s(b)}) |`;
}

const browser = await startBrowser();
const results = [];
try {
  for (const target of TARGETS.filter((t) => !only || t.id === only)) {
    process.stderr.write(`${target.id}: training up to ${target.limitS} s…\n`);
    results.push(await measure(browser, target));
  }
} catch (err) {
  console.error(err.message);
  process.exitCode = 1;
} finally {
  await browser.close();
}
console.log(
  `Chromium, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), A and B training together; ${new Date().toISOString().slice(0, 10)}\n`,
);
console.log('| experiment | target | result | both runs |');
console.log('| --- | --- | --- | --- |');
for (const m of results) console.log(describe(m));
if (jsonOut)
  await writeFile(
    jsonOut,
    JSON.stringify(
      results.map(({ target, reached, a, b, history }) => ({ target, reached, a, b, history })),
      null,
      1,
    ),
  );
