// attnlab/web/lab/pairs-report.js: which of the user's own pairs a custom task uses, and why the
// others are left out (issue 30: 200 pasted pairs were cut to 113 with no word said). ESM, no DOM,
// no dependency: tasks.js's customTask selects with it, the form (lab-form.js) says its report.
//
//   const { pairs, report } = selectPairs(given, { minLength: 1, maxLength: 12, lengthOf, outLength });
//   report   // { given: 200, kept: 120, shorter: 0, longer: 80, duplicates: 7, empty: 0 }
//   pairsReportParts(report)   // [['longer', 80], ['duplicates', 7]]: the reasons, largest first
//
// The order of the checks (each pair counted under the first that leaves it out):
//   shorter / longer  the input has fewer than minLength or more than maxLength tokens (the task's
//                     "shortest / longest input", in its units: characters or words);
//   empty             the output has no token at the level picked;
//   duplicates        the same input and output as a pair kept before it (kept once: a repeated
//                     pair would only weigh more in the batches, and could sit on both sides of
//                     the train / held-out split).
// Malformed lines are not here: parsePairs refuses the whole paste, naming the line (pairs.js),
// so none is ever dropped in silence. After the selection, customTask splits the kept pairs into
// training and held-out ones and may set some aside (the "training pairs" setting, the held-out
// set's cap per length): it adds train, heldout and unused to the report.

/**
 * The pairs a custom task keeps, and the count left out for each reason.
 * @param {{ src: string, tgt: string }[]} given
 * @param {{ minLength: number, maxLength: number, lengthOf: (src: string) => number,
 *   outLength: (tgt: string) => number }} o
 */
export function selectPairs(given, { minLength, maxLength, lengthOf, outLength }) {
  const report = { given: given.length, kept: 0, shorter: 0, longer: 0, empty: 0, duplicates: 0 };
  const seen = new Set();
  const pairs = [];
  for (const g of given) {
    const p = { src: String(g.src), tgt: String(g.tgt) };
    const n = lengthOf(p.src);
    if (n < minLength) report.shorter++;
    else if (n > maxLength) report.longer++;
    else if (outLength(p.tgt) === 0) report.empty++;
    else {
      const key = `${p.src}\u0000${p.tgt}`;
      if (seen.has(key)) report.duplicates++;
      else {
        seen.add(key);
        pairs.push(p);
      }
    }
  }
  report.kept = pairs.length;
  return { pairs, report };
}

/** The reasons pairs were left out, as [reason, count] with count > 0, the largest first. */
export function pairsReportParts(report) {
  return ['longer', 'shorter', 'duplicates', 'empty', 'unused']
    .map((k) => /** @type {[string, number]} */ ([k, report[k] ?? 0]))
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
}
