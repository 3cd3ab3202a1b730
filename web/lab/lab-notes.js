// attnlab/web/lab/lab-notes.js: the lab's sentences about what it measured (issue 30), in the
// page's language: the custom pairs' report (how many in use, how many left out and why), the
// warnings by the Start bar (a held-out set too small, a run that overfits) and a preset's time to
// its result. The facts are pairs-report.js's and lab-checks.js's, the strings lab-text.js's.
//
//   pairsSummary(lang, experiment, custom, task)   // "113 of 200 pairs in use (…). 87 left out: …"
//   warningText(lang, warning)                     // one of labWarnings()'s, as a sentence
//   durationText(lang, seconds)                    // "70 s", "1 min 32 s"

import { pairsReportParts } from './pairs-report.js';
import { plural, t } from '../shared/i18n.js';

const pct = (x) => `${Math.round(100 * x)}%`;

/** The custom pairs' line: how many are in use, how many left out and why (pairs-report.js). */
export function pairsSummary(lang, exp, custom, task) {
  const level = t(lang, `lab.level.${exp.task.level === 'auto' ? custom.level : exp.task.level}`);
  const name = custom.name || t(lang, 'lab.pairs.pasted');
  const r = task?.report;
  if (!r) return t(lang, 'lab.pairs.summary', { n: custom.pairs.length, level, name });
  const used = r.train + r.heldout;
  const parts = pairsReportParts(r);
  const vars = { min: exp.task.minLength, max: exp.task.maxLength };
  const reasons = parts.map(([k, n]) =>
    k === 'duplicates'
      ? plural(lang, 'lab.pairs.why.duplicates', n)
      : t(lang, `lab.pairs.why.${k}`, { n, ...vars }),
  );
  const sep = lang === 'zh' ? '，' : ', ';
  const left = parts.reduce((sum, [, n]) => sum + n, 0);
  return [
    t(lang, 'lab.pairs.report', {
      used,
      given: r.given,
      train: r.train,
      heldout: r.heldout,
      name,
      level,
    }),
    left ? t(lang, 'lab.pairs.left', { n: left, reasons: reasons.join(sep) }) : '',
  ]
    .filter(Boolean)
    .join(lang === 'zh' ? '' : ' ');
}

/** A warning of lab-checks.js labWarnings as a sentence in lang. */
export function warningText(lang, w) {
  if (w.kind === 'small-heldout') return t(lang, 'lab.warn.smallHeldout', { n: w.n });
  return t(lang, 'lab.warn.overfit', {
    run: t(lang, `lab.run.${w.run}`),
    train: pct(w.train),
    heldout: pct(w.heldout),
  });
}

/** Seconds as "45 s" or "1 min 32 s" in lang. */
export function durationText(lang, seconds) {
  const s = Math.round(seconds);
  return s < 60
    ? t(lang, 'lab.time.s', { s })
    : t(lang, 'lab.time.min', { m: Math.floor(s / 60), s: s % 60 });
}
