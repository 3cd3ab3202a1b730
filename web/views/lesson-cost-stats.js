// lesson-cost-stats.js: lesson step 5's measurement plan and what it may conclude (pure, no DOM,
// no clock of its own: the timer is passed in, so Node tests drive it with synthetic timings).
//
//   const samples = await measureCost({ lengths, warmUp, timeBatch });   // { none: [[ms…]…], attn: … }
//   const rows = costRows(lengths, samples, outputLengths);               // median, quartiles per length
//   costVerdict(rows);   // { verdict: 'clear' | 'noisy' | 'overlap', … }: may the page conclude?
//
// The plan: warm both models up first (untimed: a page's first runs pay for compilation tiers and
// cold caches; timed, they made the first length look 6× slower than the next), then time
// RUNS rounds; each round times every length once for each model, so a burst of load elsewhere
// lands on all lengths alike rather than on one. Between two timings the loop yields to the event
// loop (the page stays responsive). Each length's RUNS times give a median and quartiles.
// The rule (docs/lesson.md, step 5): the page says the spread is too large to conclude anything
// when, for either model at any length, the interquartile range exceeds MAX_RELATIVE_SPREAD (0.5)
// of the median ('noisy'), or when the attention model's middle half at the longest length does
// not lie wholly above its middle half at the shortest ('overlap': the growth it claims is not
// told apart from noise). Otherwise 'clear'.
// Holds: quartiles, measureCost (the loop), costRows, costVerdict and their constants.

/** Times per length and model (the median of RUNS, with its quartiles). */
export const RUNS = 7;
/** Untimed warm-up per model before the first timing: at least WARMUP_MS and WARMUP_RUNS runs. */
export const WARMUP_MS = 300;
export const WARMUP_RUNS = 20;
/** The largest interquartile range, relative to the median, the page still concludes from. */
export const MAX_RELATIVE_SPREAD = 0.5;
/** The two models, in the order each round times them. */
/** @type {readonly ('none' | 'attn')[]} */
export const COST_KEYS = Object.freeze(/** @type {const} */ (['none', 'attn']));

/**
 * The median and quartiles of numbers (linear interpolation between order statistics, at
 * position p · (n − 1) of the sorted values: for 7 values, q1 halfway between the 2nd and 3rd).
 * @param {number[]} values
 * @returns {{ median: number, q1: number, q3: number, min: number, max: number }}
 */
export function quartiles(values) {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return { median: NaN, q1: NaN, q3: NaN, min: NaN, max: NaN };
  const at = (p) => {
    const x = p * (v.length - 1);
    const i = Math.floor(x);
    return i + 1 < v.length ? v[i] + (x - i) * (v[i + 1] - v[i]) : v[i];
  };
  return { median: at(0.5), q1: at(0.25), q3: at(0.75), min: v[0], max: v[v.length - 1] };
}

/** The default pause between two timings: one turn of the event loop. */
const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Warm both models up, then time RUNS rounds of every length. Returns { none, attn }: for each
 * model one array of times (ms per run) per length, in lengths' order; or null when stopped.
 * @param {{ lengths: readonly number[], runs?: number,
 *   warmUp: (key: 'none' | 'attn') => void | Promise<void>,
 *   timeBatch: (key: 'none' | 'attn', m: number) => number | Promise<number>,
 *   pause?: () => Promise<void>, stopped?: () => boolean,
 *   onRound?: (done: number, samples: Record<string, number[][]>) => void }} o
 */
export async function measureCost({
  lengths,
  runs = RUNS,
  warmUp,
  timeBatch,
  pause = nextTurn,
  stopped = () => false,
  onRound = () => {},
}) {
  for (const key of COST_KEYS) {
    await pause();
    if (stopped()) return null;
    await warmUp(key);
  }
  const samples = { none: lengths.map(() => []), attn: lengths.map(() => []) };
  for (let r = 0; r < runs; r++) {
    for (let i = 0; i < lengths.length; i++) {
      // alternate which model goes first, so that neither always follows the other
      for (const key of r % 2 ? [...COST_KEYS].reverse() : COST_KEYS) {
        await pause();
        if (stopped()) return null;
        samples[key][i].push(await timeBatch(key, lengths[i]));
      }
    }
    onRound(r + 1, samples);
  }
  return samples;
}

/**
 * The table's rows from the samples: per length m, for each model its median ms per run and its
 * median and quartiles in µs per output token (the times divided by that model's output length t).
 * @param {readonly number[]} lengths
 * @param {Record<string, number[][]>} samples measureCost's result (or a round's partial one)
 * @param {Record<string, number[]>} outputs output length t per model and length
 */
export function costRows(lengths, samples, outputs) {
  return lengths.map((m, i) => {
    const row = { m, runs: samples.none[i].length };
    for (const key of COST_KEYS) {
      const t = Math.max(1, outputs[key][i]);
      const ms = quartiles(samples[key][i]);
      row[`${key}T`] = outputs[key][i];
      row[key] = ms.median;
      row[`${key}Per`] = (1000 * ms.median) / t;
      row[`${key}Q1`] = (1000 * ms.q1) / t;
      row[`${key}Q3`] = (1000 * ms.q3) / t;
    }
    return row;
  });
}

/**
 * What the page may conclude from the rows (the rule in this file's header). Returns
 * { verdict: 'clear' | 'noisy' | 'overlap' | 'none', short, long, worst }: short and long the
 * attention model's first and last rows ({ m, median, q1, q3 } in µs per token); worst the
 * widest relative spread { key, m, ratio }.
 * @param {ReturnType<typeof costRows>} rows
 */
export function costVerdict(rows) {
  const measured = rows.filter((r) => r.runs > 0);
  if (measured.length < 2) return { verdict: 'none', short: null, long: null, worst: null };
  let worst = { key: 'none', m: measured[0].m, ratio: 0 };
  for (const r of measured)
    for (const key of COST_KEYS) {
      const ratio = (r[`${key}Q3`] - r[`${key}Q1`]) / r[`${key}Per`];
      if (!(ratio <= worst.ratio)) worst = { key, m: r.m, ratio };
    }
  const pick = (r) => ({ m: r.m, median: r.attnPer, q1: r.attnQ1, q3: r.attnQ3 });
  const short = pick(measured[0]);
  const long = pick(measured[measured.length - 1]);
  const verdict = !(worst.ratio <= MAX_RELATIVE_SPREAD)
    ? 'noisy'
    : long.q1 > short.q3
      ? 'clear'
      : 'overlap';
  return { verdict, short, long, worst };
}
